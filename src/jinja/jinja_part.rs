//! `JinjaPart`: what cloud-init's `JinjaTemplatePartHandler` does with one part, and the warnings it logs.

use super::LineMap;
use super::MISSING_JINJA_PREFIX;
use super::engine::{Engine, RenderError};
use super::instance_data::InstanceData;
use super::py_error::RenderFault;
use crate::python::py_is_space as is_py_space;

/// Where cloud-init reads instance data from.
pub const INSTANCE_DATA_PATH: &str = "/run/cloud-init/instance-data-sensitive.json";

/// A warning cloud-init logs, as `LEVEL [logger] message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CloudInitLog {
    /// The logger (`cloudinit.handlers.jinja_template`).
    pub logger: &'static str,
    /// The formatted message.
    pub message: String,
}

impl std::fmt::Display for CloudInitLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "WARNING [{}] {}", self.logger, self.message)
    }
}

const LOGGER: &str = "cloudinit.handlers.jinja_template";
const RUN_PART_LOGGER: &str = "cloudinit.handlers";

/// Why a jinja part reaches no sub-handler.
#[derive(Debug, Clone, PartialEq)]
pub enum JinjaDrop {
    /// No instance data was given: cloud-init's `JinjaLoadError` ("Instance
    /// data not yet present at …").
    NoInstanceData,
    /// The instance data could not be loaded (`JinjaLoadError`).
    BadInstanceData(String),
    /// The payload does not start with a `## template: jinja` line (`NotJinjaError`).
    NotJinja,
    /// `## template: X` with X neither jinja nor basic (`ValueError`).
    UnknownTemplateType(String),
    /// `TemplateSyntaxError`: the message and the line in the part (header counted).
    Syntax {
        /// Jinja2's message.
        message: String,
        /// 1-based line in the part's text, the header line being 1.
        line: usize,
        /// That line, stripped (25.1 prints it).
        source_line: String,
    },
    /// `TypeError` / `UndefinedError`: caught, part dropped with a warning.
    Ignored(String),
    /// Another exception: `run_part` logs "Failed calling handler".
    Raised(String),
    /// The render is empty (`if not rendered_payload: return`, no warning).
    Empty,
    /// The rendered text's first line selects no sub-handler.
    NoSubHandler(Option<&'static str>),
}

/// The outcome of rendering one jinja part.
#[derive(Debug, Clone, PartialEq)]
pub enum JinjaRender {
    /// Rendered; to be handled by the sub-handler its first line selects.
    Rendered {
        /// The text (cloud-init's `rendered_payload`).
        text: String,
        /// The content type it starts with (`type_from_starts_with`).
        subtype: &'static str,
        /// `CI_MISSING_JINJA_VAR/<name>` names found in it.
        missing: Vec<String>,
        /// Which template line wrote each place of the text (cloud-config renders).
        lines: Option<LineMap>,
    },
    /// Not handed on.
    Dropped {
        /// Why.
        why: JinjaDrop,
        /// Missing-variable names found before dropping (an empty or unhandled render).
        missing: Vec<String>,
    },
    /// cloudfold cannot reproduce this template's result exactly.
    Unsupported(String),
    /// One of cloudfold's template limits.
    Limit(String),
}

/// What a jinja part was rendered with.
#[derive(Debug, Clone, Copy)]
pub struct JinjaContext<'a> {
    /// The instance data (`None`: the file is absent).
    pub data: Option<&'a InstanceData>,
    /// Whether cloud-init 25.1 (boothook sub-handler, syntax errors caught).
    pub v25: bool,
    /// The engine.
    pub engine: &'a Engine,
    /// Record which template line wrote each place of the render (`LineMap`;
    /// explain wants it, a plain render does not pay for it).
    pub line_maps: bool,
}

/// `detect_template`: the header's type and the rest, or `None` when the
/// first line is no `## template:` line (basic).
pub fn detect_template(text: &str) -> (Option<String>, &str) {
    let (ident, rest) = match text.split_once('\n') {
        Some((a, b)) => (a, b),
        None => (text, ""),
    };
    // re.match(r"##\s*template:(.*)", ident, re.I)
    let Some(after) = ident.strip_prefix("##") else {
        return (None, text);
    };
    let after = after.trim_start_matches(is_py_space);
    let lower = after.get(..9).map(str::to_ascii_lowercase);
    if lower.as_deref() != Some("template:") {
        return (None, text);
    }
    let kind = after
        .get(9..)
        .map_or_else(String::new, crate::python::py_lower)
        .trim_matches(is_py_space)
        .to_owned();
    (Some(kind), rest)
}

/// The first of the code points that stand for bytes that are not UTF-8.
pub(crate) const ESCAPE_BASE: u32 = 0x10_FF00;

/// Whether `c` is one of [`decode_escaped`]'s stand-ins (U+10FF80–U+10FFFF).
pub(crate) fn is_escape(c: char) -> bool {
    (ESCAPE_BASE + 0x80..=ESCAPE_BASE + 0xFF).contains(&u32::from(c))
}

/// A part's bytes as the handler's text, or `None` when the bytes hold a
/// stand-in code point themselves (it could not be told from an escaped byte).
///
/// Python decodes a text part with `surrogateescape` (`fully_decoded_payload`;
/// a stray byte 0x80–0xFF becomes a lone surrogate U+DC80–U+DCFF, e.g. an 8-bit
/// `é` that `get_payload(decode=True)` re-encoded with raw-unicode-escape).
/// Rust text cannot hold those, so each stands here as a private-use code
/// point (U+10FF80–U+10FFFF), which upper/lower/strip leave alone just as
/// Python leaves surrogates; `repr` and `tojson` write them as the surrogates.
pub fn decode_escaped(bytes: &[u8]) -> Option<std::borrow::Cow<'_, str>> {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return (!s.contains(is_escape)).then_some(std::borrow::Cow::Borrowed(s));
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        if chunk.valid().contains(is_escape) {
            return None;
        }
        out.push_str(chunk.valid());
        for &b in chunk.invalid() {
            out.push(char::from_u32(ESCAPE_BASE + u32::from(b)).unwrap_or('\u{FFFD}'));
        }
    }
    Some(std::borrow::Cow::Owned(out))
}

/// The bytes of a text [`decode_escaped`] made (its stand-ins back to the bytes).
pub fn encode_escaped(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        if is_escape(c) {
            out.push(u8::try_from(u32::from(c) - ESCAPE_BASE).unwrap_or(b'?'));
        } else {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    out
}

/// Names in `CI_MISSING_JINJA_VAR/[^\s]+` matches, prefix removed.
pub fn missing_vars(rendered: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = rendered;
    while let Some(i) = rest.find(MISSING_JINJA_PREFIX) {
        let tail = &rest[i + MISSING_JINJA_PREFIX.len()..];
        let end = tail.find(is_py_space).unwrap_or(tail.len());
        if end == 0 {
            rest = tail;
            continue;
        }
        let m = &tail[..end];
        out.push(m.replace(MISSING_JINJA_PREFIX, ""));
        rest = &tail[end..];
    }
    out
}

/// The text cloud-init renders: header removed, newlines normalised (Jinja2's
/// lexer does this), and whether cloud-init appends `"\n"`.
pub fn template_body(content: &str) -> (String, bool) {
    let add = content.ends_with('\n');
    (content.replace("\r\n", "\n").replace('\r', "\n"), add)
}

/// Render one jinja part's payload as `JinjaTemplatePartHandler.handle_part` does.
pub fn render_part(payload: &str, ctx: &JinjaContext<'_>) -> JinjaRender {
    let drop = |why| JinjaRender::Dropped {
        why,
        missing: Vec::new(),
    };
    let (kind, content) = detect_template(payload);
    match kind.as_deref() {
        Some("jinja") => {}
        Some("basic") | None => return drop(JinjaDrop::NotJinja),
        Some(other) => return drop(JinjaDrop::UnknownTemplateType(other.to_owned())),
    }
    let Some(data) = ctx.data else {
        return drop(JinjaDrop::NoInstanceData);
    };
    let (body, add) = template_body(content);
    match ctx
        .engine
        .render_mapped(&body, data.vars(), ctx.line_maps.then_some(1))
    {
        Ok((mut text, lines)) => {
            if add {
                text.push('\n');
            }
            let missing = missing_vars(&text);
            if text.is_empty() {
                return JinjaRender::Dropped {
                    why: JinjaDrop::Empty,
                    missing,
                };
            }
            let subtype = crate::userdata::type_from_starts_with(text.as_bytes());
            if matches!(subtype, Some("text/x-shellscript"))
                || (ctx.v25 && matches!(subtype, Some("text/cloud-boothook")))
            {
                // The script and boothook sub-handlers write the text to a file
                // (`util.write_file`, UTF-8): a lone surrogate (a stray byte of
                // the part) raises, and `run_part` logs "Failed calling handler".
                if let Some(c) = text.chars().find(|c| is_escape(*c)) {
                    return JinjaRender::Dropped {
                        why: JinjaDrop::Raised(format!(
                            "UnicodeEncodeError: 'utf-8' codec can't encode character '\\u{:x}': \
                             surrogates not allowed (writing the script file)",
                            u32::from(c) - ESCAPE_BASE + 0xDC00
                        )),
                        missing,
                    };
                }
            }
            match subtype {
                Some(
                    t @ ("text/cloud-config" | "text/cloud-config-jsonp" | "text/x-shellscript"),
                ) => JinjaRender::Rendered {
                    text,
                    subtype: t,
                    missing,
                    lines,
                },
                Some(t @ "text/cloud-boothook") if ctx.v25 => JinjaRender::Rendered {
                    text,
                    subtype: t,
                    missing,
                    lines,
                },
                other => JinjaRender::Dropped {
                    why: JinjaDrop::NoSubHandler(other),
                    missing,
                },
            }
        }
        Err(RenderError::Syntax { message, line }) => {
            // The part's line: the header is line 1. cloud-init 25.1 prints
            // `source.splitlines()[lineno - 1]` of the header-less text.
            let source_line = crate::python::py_splitlines(content)
                .get(line.saturating_sub(1))
                .map(|l| l.trim_matches(is_py_space).to_owned())
                .unwrap_or_default();
            drop(JinjaDrop::Syntax {
                message,
                line: line + 1,
                source_line,
            })
        }
        Err(RenderError::Fault(RenderFault::Py(exc, msg))) => {
            if exc.caught_by_cloud_init() {
                drop(JinjaDrop::Ignored(msg))
            } else {
                drop(JinjaDrop::Raised(format!("{}: {msg}", exc.name())))
            }
        }
        Err(RenderError::Fault(RenderFault::Unsupported(m))) => JinjaRender::Unsupported(m),
        Err(RenderError::Limit(m)) => JinjaRender::Limit(m),
    }
}

/// The warnings cloud-init logs for this outcome of part `filename`.
pub fn cloud_init_logs(r: &JinjaRender, filename: &str, v25: bool) -> Vec<CloudInitLog> {
    let log = |message: String| CloudInitLog {
        logger: LOGGER,
        message,
    };
    let run_part = || CloudInitLog {
        logger: RUN_PART_LOGGER,
        message: format!(
            "Failed calling handler JinjaTemplatePartHandler: [['text/jinja2']] (text/jinja2, {filename}, 3) with frequency once-per-instance"
        ),
    };
    let missing_log = |missing: &[String]| {
        (!missing.is_empty()).then(|| {
            log(format!(
                "Could not render jinja template variables in file '{filename}': {}",
                missing
                    .iter()
                    .map(|m| format!("'{m}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
    };
    match r {
        JinjaRender::Rendered { missing, .. } => missing_log(missing).into_iter().collect(),
        JinjaRender::Dropped { why, missing } => {
            let mut out: Vec<CloudInitLog> = missing_log(missing).into_iter().collect();
            match why {
                JinjaDrop::NoInstanceData
                | JinjaDrop::BadInstanceData(_)
                | JinjaDrop::NotJinja
                | JinjaDrop::UnknownTemplateType(_)
                | JinjaDrop::Raised(_) => out.push(run_part()),
                JinjaDrop::Syntax {
                    message,
                    line,
                    source_line,
                } => {
                    if v25 {
                        let content = if source_line.is_empty() {
                            String::new()
                        } else {
                            format!(": {source_line}")
                        };
                        out.push(log(format!(
                            "Ignoring jinja template for {filename}. Failed to render template. Unable to parse Jinja template due to syntax error: {message} on line {line}{content}"
                        )));
                    } else {
                        out.push(run_part());
                    }
                }
                JinjaDrop::Ignored(msg) => {
                    out.push(log(format!("Ignoring jinja template for {filename}: {msg}")));
                }
                JinjaDrop::Empty => {}
                JinjaDrop::NoSubHandler(t) => out.push(log(format!(
                    "Ignoring jinja template for {filename}. Could not find supported sub-handler for type {}",
                    t.unwrap_or("None")
                ))),
            }
            out
        }
        JinjaRender::Unsupported(_) | JinjaRender::Limit(_) => Vec::new(),
    }
}

impl JinjaDrop {
    /// What cloudfold tells the user (cloud-init's reason, in words).
    pub fn describe(&self) -> String {
        match self {
            JinjaDrop::NoInstanceData => format!(
                "cloud-init renders this template with the instance data in {INSTANCE_DATA_PATH}; without it (JinjaLoadError \"Cannot render jinja template vars. Instance data not yet present at {INSTANCE_DATA_PATH}\") the part is dropped. Give the file with --instance-data FILE (on an instance: `sudo cloud-init query --all > FILE`)"
            ),
            JinjaDrop::BadInstanceData(e) => format!("the instance data cannot be loaded ({e}): cloud-init raises JinjaLoadError and drops the part"),
            JinjaDrop::NotJinja => "the payload's first line is not `## template: jinja` (NotJinjaError): the part is dropped".to_owned(),
            JinjaDrop::UnknownTemplateType(t) => format!("unknown template type '{t}' (ValueError): the part is dropped"),
            JinjaDrop::Syntax { message, line, .. } => format!("template syntax error at line {line}: {message}; the part is dropped"),
            JinjaDrop::Ignored(m) => format!("the template raised ({m}); cloud-init ignores the part"),
            JinjaDrop::Raised(m) => format!("the template raised {m}; cloud-init drops the part"),
            JinjaDrop::Empty => "the template renders to nothing; cloud-init drops the part silently".to_owned(),
            JinjaDrop::NoSubHandler(t) => format!(
                "the rendered text starts with no type a jinja part can become ({}); cloud-init ignores it",
                t.unwrap_or("none")
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_detection() {
        assert_eq!(
            detect_template("## template: jinja\nX").0.as_deref(),
            Some("jinja")
        );
        assert_eq!(
            detect_template("##template:JINJA \nX").0.as_deref(),
            Some("jinja")
        );
        assert_eq!(detect_template("\n## template: jinja\nX").0, None);
        assert_eq!(
            detect_template("## template: jinja2\n").0.as_deref(),
            Some("jinja2")
        );
    }

    // Seed 2 case 638 of the differential (25.1): a boothook rendered with a
    // stray byte (`é` re-encoded as 0xE9) raises in `util.write_file`.
    #[test]
    fn scripts_holding_stray_bytes_fail_in_the_sub_handler() {
        let data = InstanceData::from_json(b"{}").unwrap_or_else(|e| panic!("{e}"));
        let engine = Engine::new(super::super::JinjaVersion::V3_1_6, Default::default());
        let payload = decode_escaped(b"## template: jinja\n#cloud-boothook\necho '\xe9'\n")
            .unwrap_or_default();
        for (v25, raised) in [(true, true), (false, false)] {
            let ctx = JinjaContext {
                data: Some(&data),
                v25,
                engine: &engine,
                line_maps: false,
            };
            let r = render_part(&payload, &ctx);
            let is_raised = matches!(
                r,
                JinjaRender::Dropped {
                    why: JinjaDrop::Raised(_),
                    ..
                }
            );
            assert_eq!(is_raised, raised, "{r:?}");
            let script = payload.replace("#cloud-boothook", "#!/bin/sh");
            assert!(matches!(
                render_part(&script, &ctx),
                JinjaRender::Dropped {
                    why: JinjaDrop::Raised(_),
                    ..
                }
            ));
        }
    }

    #[test]
    fn missing_names_take_trailing_punctuation() {
        assert_eq!(
            missing_vars("a: CI_MISSING_JINJA_VAR/x, CI_MISSING_JINJA_VAR/y\n"),
            ["x,", "y"]
        );
    }
}
