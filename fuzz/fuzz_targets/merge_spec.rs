//! Fuzz target: merge-spec parsing (string form) and resolving it to a merger stack.
#![no_main]

use cloudfold::merge::cloud_init::{MergeSpec, MergerStack, Version};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(spec) = MergeSpec::parse_str(text, Version::V25_1) {
        let _ = MergerStack::resolve(&spec);
    }
});
