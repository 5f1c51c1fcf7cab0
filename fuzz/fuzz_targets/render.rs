//! Fuzz target: the whole fold, as `cloudfold render` runs it.
#![no_main]

use cloudfold::userdata::{NoIncludes, UserDataOptions, render};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = render(data, &UserDataOptions::default(), &NoIncludes);
});
