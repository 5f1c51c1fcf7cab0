//! Events in the canonical text of scripts/yaml_events.py, and the recorded corpus's cases.

use base64::Engine;
use cloudfold::source::Mark;
use cloudfold::yaml::{
    Event, EventKind, Parser, PyErrorClass, ScalarStyle, ScalarText, YamlError, decode_input,
};

/// JSON string encoding as Python's `json.dumps(..., ensure_ascii=True)`.
pub(crate) fn js_units(out: &mut String, units: impl Iterator<Item = u32>) {
    out.push('"');
    for cp in units {
        match cp {
            0x22 => out.push_str("\\\""),
            0x5C => out.push_str("\\\\"),
            0x0A => out.push_str("\\n"),
            0x0D => out.push_str("\\r"),
            0x09 => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0C => out.push_str("\\f"),
            0x20..=0x7E => out.push(char::from_u32(cp).unwrap()),
            0x10000.. => {
                let v = cp - 0x10000;
                out.push_str(&format!(
                    "\\u{:04x}\\u{:04x}",
                    0xD800 + (v >> 10),
                    0xDC00 + (v & 0x3FF)
                ));
            }
            _ => out.push_str(&format!("\\u{cp:04x}")),
        }
    }
    out.push('"');
}

pub(crate) fn js(s: &str) -> String {
    let mut o = String::new();
    js_units(&mut o, s.chars().map(u32::from));
    o
}

pub(crate) fn js_opt(s: Option<&str>) -> String {
    s.map_or("-".to_owned(), js)
}

pub(crate) fn mk(text: &str, m: Mark) -> String {
    let ci = text
        .get(..m.index)
        .map_or(usize::MAX, |p| p.chars().count());
    format!("{}:{}:{}", m.line, m.column, ci)
}

pub(crate) fn fmt_event(text: &str, ev: &Event<'_>) -> String {
    let span = format!("@{}-{}", mk(text, ev.start), mk(text, ev.end));
    match &ev.kind {
        EventKind::StreamStart => format!("StreamStart {span}"),
        EventKind::StreamEnd => format!("StreamEnd {span}"),
        EventKind::SequenceEnd => format!("SequenceEnd {span}"),
        EventKind::MappingEnd => format!("MappingEnd {span}"),
        EventKind::DocumentStart { explicit, version } => {
            let v = version.map_or("-".to_owned(), |(a, b)| format!("{a}.{b}"));
            format!(
                "DocumentStart explicit={} version={v} {span}",
                u8::from(*explicit)
            )
        }
        EventKind::DocumentEnd { explicit } => {
            format!("DocumentEnd explicit={} {span}", u8::from(*explicit))
        }
        EventKind::Alias { anchor } => format!("Alias anchor={} {span}", js(anchor)),
        EventKind::Scalar {
            props,
            implicit,
            value,
            style,
        } => {
            let imp: String = [implicit.0, implicit.1]
                .iter()
                .map(|&b| if b { 'T' } else { 'F' })
                .collect();
            let st = match style {
                ScalarStyle::Plain => "plain",
                ScalarStyle::SingleQuoted => "single",
                ScalarStyle::DoubleQuoted => "double",
                ScalarStyle::Literal => "literal",
                ScalarStyle::Folded => "folded",
            };
            let mut v = String::new();
            match value {
                ScalarText::Text(t) => js_units(&mut v, t.chars().map(u32::from)),
                ScalarText::Wide(p) => js_units(&mut v, p.chars()),
            }
            format!(
                "Scalar anchor={} tag={} implicit={imp} style={st} value={v} {span}",
                js_opt(props.anchor.as_deref()),
                js_opt(props.tag.as_deref())
            )
        }
        EventKind::SequenceStart {
            props,
            implicit,
            flow,
        }
        | EventKind::MappingStart {
            props,
            implicit,
            flow,
        } => {
            let name = if matches!(ev.kind, EventKind::SequenceStart { .. }) {
                "SequenceStart"
            } else {
                "MappingStart"
            };
            format!(
                "{name} anchor={} tag={} implicit={} flow={} {span}",
                js_opt(props.anchor.as_deref()),
                js_opt(props.tag.as_deref()),
                u8::from(*implicit),
                u8::from(*flow)
            )
        }
    }
}

pub(crate) fn fmt_error(text: &str, e: &YamlError) -> String {
    match e.class {
        PyErrorClass::Reader => {
            let m = e.mark.unwrap_or_default();
            // Printable errors count code points in the text; decoding errors bytes.
            let pos = if e.problem.ends_with("special characters are not allowed") {
                text.get(..m.index)
                    .map_or(usize::MAX, |p| p.chars().count())
            } else {
                m.index
            };
            format!(
                "ERROR ReaderError problem={} position={pos}",
                js(&e.problem)
            )
        }
        PyErrorClass::Scanner | PyErrorClass::Parser => {
            let (ctx, cm) = match &e.context {
                // PyYAML raises this one without a context mark.
                Some((c, _)) if c == "while scanning for the next token" => (js(c), "-".to_owned()),
                Some((c, m)) => (js(c), mk(text, *m)),
                None => ("-".to_owned(), "-".to_owned()),
            };
            let pm = e.mark.map_or("-".to_owned(), |m| mk(text, m));
            format!(
                "ERROR {} context={ctx} @{cm} problem={} @{pm}",
                e.class.python_name(),
                js(&e.problem)
            )
        }
        c => format!("ERROR {} problem={}", c.python_name(), js(&e.problem)),
    }
}

pub(crate) fn events_of_text(text: &str) -> Vec<String> {
    let mut p = Parser::new(text);
    let mut out = Vec::new();
    for _ in 0..(text.len() * 4 + 64) {
        match p.next_event() {
            Ok(ev) => {
                out.push(fmt_event(text, &ev));
                if matches!(ev.kind, EventKind::StreamEnd) {
                    return out;
                }
            }
            Err(e) => {
                out.push(fmt_error(text, &e));
                return out;
            }
        }
    }
    out.push("HANG".to_owned());
    out
}

#[derive(Clone, Debug)]
pub(crate) enum Case {
    Doc(String),
    Bytes(Vec<u8>),
}

impl Case {
    pub(crate) fn from_json(v: &serde_json::Value) -> Case {
        if let Some(b) = v.get("b64").and_then(|b| b.as_str()) {
            Case::Bytes(base64::engine::general_purpose::STANDARD.decode(b).unwrap())
        } else {
            Case::Doc(v["doc"].as_str().unwrap().to_owned())
        }
    }

    pub(crate) fn to_json(&self) -> String {
        match self {
            Case::Doc(d) => serde_json::json!({ "doc": d }).to_string(),
            Case::Bytes(b) => {
                serde_json::json!({ "b64": base64::engine::general_purpose::STANDARD.encode(b) })
                    .to_string()
            }
        }
    }

    pub(crate) fn events(&self) -> Vec<String> {
        match self {
            Case::Doc(d) => events_of_text(d),
            Case::Bytes(b) => match decode_input(b) {
                Ok(t) => events_of_text(&t),
                Err(e) => {
                    let units = |f: fn([u8; 2]) -> u16| -> String {
                        let u: Vec<u16> = b[2..].chunks_exact(2).map(|c| f([c[0], c[1]])).collect();
                        format!("\u{feff}{}", String::from_utf16_lossy(&u))
                    };
                    let text = match b.as_slice() {
                        [0xFF, 0xFE, ..] => units(u16::from_le_bytes),
                        [0xFE, 0xFF, ..] => units(u16::from_be_bytes),
                        _ => String::from_utf8_lossy(b).into_owned(),
                    };
                    vec![fmt_error(&text, &e)]
                }
            },
        }
    }
}

pub(crate) fn repo_root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn report(label: &str, case: &Case, want: &[String], got: &[String]) -> String {
    let mut s = format!("--- {label}: {}\n", case.to_json());
    let n = want.len().max(got.len());
    for i in 0..n {
        let w = want.get(i).map_or("<none>", |s| s.as_str());
        let g = got.get(i).map_or("<none>", |s| s.as_str());
        if w != g {
            s.push_str(&format!(
                "  first difference at event {i}\n  want: {w}\n  got:  {g}\n"
            ));
            break;
        }
    }
    s
}
