//! Fuzz target: the YAML loader on arbitrary bytes (PyYAML's bytes handling), then the dump of what loaded.
#![no_main]

use cloudfold::yaml::{DumpOptions, LoadOptions, dump, load_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(Some(node)) = load_bytes(data, &LoadOptions::default()) {
        let _ = dump(&node, &DumpOptions::cloud_init());
        let _ = dump(&node, &DumpOptions::readable());
    }
});
