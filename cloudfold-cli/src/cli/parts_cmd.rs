//! `cloudfold parts`: list (and extract) the parts of a payload and what cloud-init does with each.

use super::args::{PartsArgs, PartsFormat};
use super::exit::{Exit, Failure};
use super::render_cmd::fold;
use cloudfold::userdata::{FoldText, PartOutcome, PartReport, Payload};
use serde_json::json;

fn action(p: &PartReport) -> String {
    match &p.outcome {
        PartOutcome::Merged => "merged".into(),
        PartOutcome::Rejected(r) => format!("skipped: {r}"),
        PartOutcome::WouldRun => {
            format!("runs ({})", p.part_type.handler_name().unwrap_or("handler"))
        }
        PartOutcome::JinjaDropped => format!(
            "jinja template dropped: {}",
            super::render_cmd::jinja_reason(p)
        ),
        PartOutcome::Unhandled => "ignored: unhandled content type".into(),
        PartOutcome::Empty => "ignored: empty".into(),
        PartOutcome::Excluded => "ignored: excluded by disabled_handlers".into(),
    }
}

/// A file name safe to create inside the extract directory.
fn safe_name(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let s = s.trim_start_matches('.');
    if s.is_empty() {
        "part".into()
    } else {
        s.to_owned()
    }
}

pub(super) fn run(a: &PartsArgs) -> Result<Exit, Failure> {
    // Parts are listed, not the config: no text written.
    let folded = match fold(&a.payload, FoldText::Nothing)? {
        Ok(f) => f,
        Err((code, msg)) => {
            eprintln!("error: {msg}");
            return Ok(code);
        }
    };
    if let Some(dir) = &a.extract {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for p in &folded.parts {
            let bytes = match p.leaf.payload() {
                Payload::Text(t) => t
                    .to_utf8_surrogateescape()
                    .unwrap_or_else(|| t.as_wtf8().to_vec()),
                Payload::Bytes(b) => b,
                Payload::None => Vec::new(),
            };
            let path = dir.join(format!("{:03}-{}", p.number, safe_name(&p.filename())));
            std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    match a.format {
        PartsFormat::Json => {
            let list: Vec<_> = folded
                .parts
                .iter()
                .map(|p| {
                    json!({
                        "number": p.number,
                        "content_type": p.content_type(),
                        "filename": p.filename(),
                        "merge_type_header": p.merge_type_header(),
                        "launch_index": p.launch_index(),
                        "size": p.size,
                        "handler": p.part_type.handler_name(),
                        "action": action(p),
                        "origin": p.origin().to_string(),
                        "occurrence": p.occurrence,
                    })
                })
                .collect();
            let mut s = serde_json::to_string_pretty(&list).map_err(|e| e.to_string())?;
            s.push('\n');
            super::stdout::write_stdout(s.as_bytes())?;
        }
        PartsFormat::Text => {
            let mut out = String::new();
            for p in &folded.parts {
                let mut extra = String::new();
                if let Some(m) = &p.merge_type_header() {
                    extra.push_str(&format!("  merge-type={m}"));
                }
                if let Some(l) = &p.launch_index() {
                    extra.push_str(&format!("  launch-index={l}"));
                }
                if p.occurrence > 1 {
                    // An enclosing message/rfc822 part hands it over again.
                    extra.push_str(&format!("  (again: time {})", p.occurrence));
                }
                out.push_str(&format!(
                    "{:>3}  {:<26} {:<20} {:>7} B  {}{}\n",
                    p.number,
                    p.content_type(),
                    p.filename(),
                    p.size,
                    action(p),
                    extra
                ));
            }
            super::stdout::write_stdout(out.as_bytes())?;
        }
    }
    Ok(Exit::Ok)
}
