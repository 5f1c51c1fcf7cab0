//! Fuzz target: the MIME reader, walking every part and decoding every payload.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = cloudfold::mime::parse(text);
    let shared = cloudfold::mime::parse_shared(&std::sync::Arc::new(text.to_owned()));
    assert_eq!(parsed, shared, "bodies cut from a shared text are the same tree");
    if let Ok(msg) = parsed {
        for part in msg.walk() {
            let _ = part.get_content_type();
            let _ = part.get_filename();
            let _ = part.get_payload_decoded();
        }
    }
});
