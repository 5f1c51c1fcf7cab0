//! Fuzz target: arbitrary templates and instance data through the jinja stage: no panic, bounded work.
//!
//! The input is split at the first NUL: before it the instance data (JSON,
//! usually invalid — then a fixed small object is used), after it the
//! template text. The render may succeed, fail as Jinja2 would, be refused as
//! unsupported or stop at a limit; it must never panic or run unbounded.
#![no_main]

use cloudfold::jinja::{Engine, InstanceData, JinjaContext, JinjaLimits, JinjaVersion, render_part};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (json, template) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&b"{}"[..], data),
    };
    let instance = InstanceData::from_json(json).unwrap_or_else(|_| {
        InstanceData::from_json(br#"{"v1": {"a-b": [1, 2.5, "x"], "n": null}, "ds": {"k": {"v2": {"z": true}}}}"#)
            .expect("fixed instance data loads")
    });
    // Bytes that are not UTF-8 as cloud-init's surrogateescape decoding leaves them.
    let Some(text) = cloudfold::jinja::decode_escaped(template) else {
        return;
    };
    let limits = JinjaLimits {
        max_steps: 200_000,
        max_depth: 64,
        max_output: 1 << 20,
    };
    for version in [JinjaVersion::V3_1_2, JinjaVersion::V3_1_6] {
        let engine = Engine::new(version, limits);
        let ctx = JinjaContext {
            data: Some(&instance),
            v25: version == JinjaVersion::V3_1_6,
            engine: &engine,
            line_maps: false,
        };
        let payload = format!("## template: jinja\n{text}");
        let _ = render_part(&payload, &ctx);
    }
});
