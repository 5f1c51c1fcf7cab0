//! Fuzz target: the MIME reader, walking every part and decoding every payload.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(msg) = cloudfold::mime::parse(text) {
        for part in msg.walk() {
            let _ = part.get_content_type();
            let _ = part.get_filename();
            let _ = part.get_payload_decoded();
        }
    }
});
