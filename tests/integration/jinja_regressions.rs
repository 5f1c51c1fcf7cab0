//! Recorded jinja cases (`fixtures/jinja/cases.jsonl`, most of them disagreements the jinja
//! differential once found): cloudfold's engine renders each template as the real Jinja2
//! did under cloud-init (the outcome per Jinja2 version stored in the line, recorded by
//! `scripts/jinja_fixtures.py`): the text, or the exception cloud-init catches (with its
//! message, which is in cloud-init's warning) or does not, or the syntax error.

use cloudfold::jinja::{Engine, InstanceData, JinjaLimits, JinjaVersion, RenderError, RenderFault};
use serde_json::{Value as J, json};

fn outcome(r: Result<String, RenderError>) -> J {
    match r {
        Ok(text) => json!({"ok": text}),
        Err(RenderError::Syntax { message, line }) => json!({"syntax": message, "line": line}),
        Err(RenderError::Fault(RenderFault::Py(exc, message))) => {
            if exc.caught_by_cloud_init() {
                json!({"caught": true, "message": message})
            } else {
                json!({"caught": false})
            }
        }
        Err(e) => json!({"refused": format!("{e:?}")}),
    }
}

/// The recorded outcome in the shape `outcome` gives (an uncaught exception's
/// class and message are not in cloud-init's warning: not compared).
fn expected(rec: &J) -> J {
    match rec.get("caught").and_then(J::as_bool) {
        Some(true) => json!({"caught": true, "message": rec["message"]}),
        Some(false) => json!({"caught": false}),
        None => rec.clone(),
    }
}

#[test]
fn recorded_templates_render_as_jinja2_did() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/jinja/cases.jsonl"
    ))
    .unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: J = serde_json::from_str(line).unwrap();
        let data = InstanceData::from_json(case["data"].to_string().as_bytes()).unwrap();
        let template = case["template"].as_str().unwrap();
        for (version, key) in [
            (JinjaVersion::V3_1_2, "3.1.2"),
            (JinjaVersion::V3_1_6, "3.1.6"),
        ] {
            let engine = Engine::new(version, JinjaLimits::default());
            let want = expected(&case[key]);
            assert!(
                !want.is_null(),
                "{}: nothing recorded for {key}",
                case["name"]
            );
            let got = outcome(engine.render(template, data.vars()));
            assert_eq!(got, want, "{} (Jinja2 {key}): {template:?}", case["name"]);
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} recorded outcomes");
}
