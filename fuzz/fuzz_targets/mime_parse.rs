//! Fuzz target: the MIME reader, walking every part and decoding every payload.
#![no_main]

use cloudfold::{AsideJob, RunAside};
use libfuzzer_sys::fuzz_target;

/// Runs a split parse's second half at once, before the first half.
struct Inline;

impl RunAside for Inline {
    fn run_aside(&self, job: AsideJob) -> Result<(), AsideJob> {
        job();
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = cloudfold::mime::parse(text);
    let src = std::sync::Arc::new(text.to_owned());
    let shared = cloudfold::mime::parse_shared(&src, None);
    assert_eq!(parsed, shared, "bodies cut from a shared text are the same tree");
    let split = cloudfold::mime::parse_shared_splitting(&src, Some(&Inline), 0);
    assert_eq!(parsed, split, "a second half parsed aside is the same tree");
    if let Ok(msg) = parsed {
        for part in msg.walk() {
            let _ = part.get_content_type();
            let _ = part.get_filename();
            let _ = part.get_payload_decoded();
        }
    }
});
