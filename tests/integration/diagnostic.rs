//! The shared diagnostics core: human and JSON rendering of labelled diagnostics.

// Test code: an out-of-range index is a failed test.

use cloudfold::diagnostic::*;
use cloudfold::source::{Mark, SourceId, Span};
use std::fmt;

#[derive(Debug)]
enum Demo {
    Replaced { key: String },
    TooBig,
}

impl fmt::Display for Demo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Demo::Replaced { key } => write!(f, "`{key}` replaces the list of an earlier part"),
            Demo::TooBig => f.write_str("the payload is too big"),
        }
    }
}

impl DiagnosticKind for Demo {
    fn code(&self) -> &'static str {
        match self {
            Demo::Replaced { .. } => "demo-replaced",
            Demo::TooBig => "demo-too-big",
        }
    }
    fn severity(&self) -> Severity {
        match self {
            Demo::Replaced { .. } => Severity::Warning,
            Demo::TooBig => Severity::Error,
        }
    }
    fn help(&self) -> Option<String> {
        match self {
            Demo::Replaced { .. } => Some("add `merge_how: list(append)`".into()),
            Demo::TooBig => None,
        }
    }
}

fn sources() -> SourceMap {
    let mut s = SourceMap::new();
    s.insert(
        SourceId(0),
        SourceFile::part(1, "base.yaml", "#cloud-config\nruncmd:\n  - echo one\n"),
    );
    s.insert(
        SourceId(1),
        SourceFile::part(2, "app.yaml", "#cloud-config\nruncmd: [echo two]\n"),
    );
    s
}

fn span(src: u32, start: (usize, u32, u32), end: (usize, u32, u32)) -> Span {
    Span::new(
        SourceId(src),
        Mark::new(start.0, start.1, start.2),
        Mark::new(end.0, end.1, end.2),
    )
}

fn conflict() -> Diagnostic {
    Diagnostic::new(&Demo::Replaced {
        key: "runcmd".into(),
    })
    .with_primary(
        Label::new(span(1, (14, 1, 0), (20, 1, 6)))
            .with_path("$.runcmd")
            .with_message("replaced here"),
    )
    .with_secondary(
        Label::new(span(0, (26, 2, 4), (34, 2, 12)))
            .with_path("$.runcmd[0]")
            .with_message("set here"),
    )
    .with_note("part 2 has no merge directive: dict(replace)+list(replace)")
}

#[test]
fn human_labels_both_places() {
    let text = HumanRenderer::new().render(&conflict(), &sources());
    let expected = "\
warning[demo-replaced]: `runcmd` replaces the list of an earlier part
 --> part 2 (app.yaml):2:1
  |
2 | runcmd: [echo two]
  | ^^^^^^ replaced here
  |
 ::: part 1 (base.yaml):3:5
  |
3 |   - echo one
  |     -------- set here
  |
  = note: part 2 has no merge directive: dict(replace)+list(replace)
  = help: add `merge_how: list(append)`
";
    assert_eq!(text, expected, "\n{text}");
}

#[test]
fn human_without_labels_and_with_odd_spans() {
    let s = sources();
    let plain = HumanRenderer::new().render(&Diagnostic::new(&Demo::TooBig), &s);
    assert_eq!(plain, "error[demo-too-big]: the payload is too big\n");
    // Out-of-range and empty spans, unknown sources: no panic, still rendered.
    let odd = Diagnostic::new(&Demo::TooBig)
        .with_primary(Label::new(span(0, (9999, 9, 9), (3, 0, 3))))
        .with_secondary(Label::new(span(7, (0, 0, 0), (1, 0, 1))).with_path("$.x"))
        .with_secondary(Label::at_path("$.y").with_message("built in code"));
    let text = HumanRenderer::new().render(&odd, &s);
    assert!(text.contains("part 1 (base.yaml)"), "{text}");
    assert!(text.contains("= note: at $.x"), "{text}");
    assert!(text.contains("= note: at $.y: built in code"), "{text}");
    let empty =
        Diagnostic::new(&Demo::TooBig).with_primary(Label::new(span(1, (14, 1, 0), (14, 1, 0))));
    let text = HumanRenderer::new().render(&empty, &s);
    assert!(text.contains(" --> part 2 (app.yaml):2:1"), "{text}");
    // Multi-byte text: a span inside a character is widened to its boundaries.
    let mut m = SourceMap::new();
    m.insert(SourceId(0), SourceFile::new("x", "é: ü\n"));
    let mid =
        Diagnostic::new(&Demo::TooBig).with_primary(Label::new(span(0, (1, 0, 0), (5, 0, 3))));
    assert!(HumanRenderer::new().render(&mid, &m).contains("x:1:"));
}

#[test]
fn human_color_only_when_asked() {
    let s = sources();
    assert!(
        !HumanRenderer::new()
            .render(&conflict(), &s)
            .contains('\x1b')
    );
    assert!(
        HumanRenderer::new()
            .with_color(true)
            .render(&conflict(), &s)
            .contains('\x1b')
    );
}

#[test]
fn json_fields() {
    let v = JsonRenderer::new().to_value(&conflict(), &sources());
    let expected = serde_json::json!({
        "code": "demo-replaced",
        "severity": "warning",
        "message": "`runcmd` replaces the list of an earlier part",
        "part": 2, "part_name": "app.yaml", "source": "part 2 (app.yaml)",
        "line": 2, "column": 1, "path": "$.runcmd",
        "help": "add `merge_how: list(append)`",
        "notes": ["part 2 has no merge directive: dict(replace)+list(replace)"],
        "labels": [
            {"primary": true, "part": 2, "part_name": "app.yaml", "source": "part 2 (app.yaml)",
             "line": 2, "column": 1, "end_line": 2, "end_column": 7,
             "path": "$.runcmd", "message": "replaced here"},
            {"primary": false, "part": 1, "part_name": "base.yaml", "source": "part 1 (base.yaml)",
             "line": 3, "column": 5, "end_line": 3, "end_column": 13,
             "path": "$.runcmd[0]", "message": "set here"}
        ]
    });
    assert_eq!(v, expected, "{v:#}");
    let none = JsonRenderer::new().to_value(&Diagnostic::new(&Demo::TooBig), &sources());
    assert_eq!(none["part"], serde_json::Value::Null);
    assert_eq!(none["labels"], serde_json::json!([]));
    let arr = JsonRenderer::new().to_array(&[conflict()], &sources());
    assert_eq!(arr.as_array().map(Vec::len), Some(1));
}

#[test]
fn severity_order() {
    assert!(Severity::Error.at_least(Severity::Warning));
    assert!(!Severity::Note.at_least(Severity::Warning));
    assert_eq!(Severity::Warning.to_string(), "warning");
}
