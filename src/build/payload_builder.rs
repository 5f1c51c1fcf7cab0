//! `build`: checked part specs → the bytes of a multipart payload, in the cloud-init or Terraform layout.

use super::merge_preset::{check_merge_type, expand_merge_type};
use super::part_spec::resolve_type;
use super::{BuildError, BuildOptions, PartSpec, Style};
use crate::content_hash::fnv1a;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use std::io::Write;

/// Headers `build` writes itself; extra headers may not override them.
const RESERVED: &[&str] = &[
    "content-type",
    "content-transfer-encoding",
    "content-disposition",
    "mime-version",
    "merge-type",
    "x-merge-type",
];

/// One part after checking: what cloud-init will read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedPart {
    /// The full media type.
    pub content_type: String,
    /// The filename, if any.
    pub filename: Option<String>,
    /// The merge header value (presets expanded), if any.
    pub merge_type: Option<String>,
    /// Extra headers.
    pub headers: Vec<(String, String)>,
    /// The content.
    pub content: Vec<u8>,
}

/// A built payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    /// The MIME document before gzip/base64.
    pub mime: Vec<u8>,
    /// The final bytes (after gzip and base64 when asked).
    pub bytes: Vec<u8>,
    /// The boundary used.
    pub boundary: String,
    /// The parts, checked.
    pub parts: Vec<ResolvedPart>,
}

fn is_bchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"'()+_,-./:=? ".contains(&b)
}

fn check_boundary(b: &str) -> Result<(), BuildError> {
    if b.is_empty() || b.len() > 70 || !b.bytes().all(is_bchar) || b.ends_with(' ') {
        return Err(BuildError::BadBoundary(b.to_owned()));
    }
    Ok(())
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
}

/// Go's `textproto.CanonicalMIMEHeaderKey` for a valid token.
fn go_canonical(name: &str) -> String {
    let mut upper = true;
    name.chars()
        .map(|c| {
            let out = if upper {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            };
            upper = c == '-';
            out
        })
        .collect()
}

fn check_part(
    spec: &PartSpec,
    part: usize,
    opts: &BuildOptions,
) -> Result<ResolvedPart, BuildError> {
    let content_type = resolve_type(spec, part, opts.force)?;
    if let Some(name) = &spec.filename
        // Python's get_filename() strips surrounding whitespace (found by
        // the build_roundtrip fuzzer: " " came back as part-001).
        && (name.is_empty()
            || name.trim_matches(|c: char| c.is_ascii_whitespace()) != name
            || !name
                .bytes()
                .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\'))
    {
        return Err(BuildError::BadFilename {
            part,
            name: name.clone(),
        });
    }
    let merge_given = spec.merge_type.as_deref().or(opts
        .merge_type
        .as_deref()
        .filter(|_| content_type == "text/cloud-config"));
    let merge_type = match merge_given {
        None => None,
        Some(given) => {
            let exp = expand_merge_type(given.trim());
            check_merge_type(exp).map_err(|reason| BuildError::BadMergeType {
                part,
                spec: given.to_owned(),
                reason,
            })?;
            Some(exp.to_owned())
        }
    };
    for (name, value) in &spec.headers {
        let bad = |reason: &str| BuildError::BadHeader {
            part,
            name: name.clone(),
            reason: reason.to_owned(),
        };
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
        {
            return Err(bad("not a valid header name"));
        }
        if RESERVED.contains(&name.to_ascii_lowercase().as_str()) {
            return Err(bad(
                "build writes this header itself (use the type, filename or merge type fields)",
            ));
        }
        if !value
            .bytes()
            .all(|b| (0x20..0x7f).contains(&b) || b == b'\t')
        {
            return Err(bad("the value must be printable ASCII on one line"));
        }
        if value.trim() != value || value.is_empty() {
            // Python strips surrounding blanks when reading a header back.
            return Err(bad("the value must not be empty or start/end with blanks"));
        }
    }
    Ok(ResolvedPart {
        content_type,
        filename: spec.filename.clone(),
        merge_type,
        headers: spec.headers.clone(),
        content: spec.content.clone(),
    })
}

/// base64 in lines of 76 characters, each ending in `eol` (Python's `encodebytes`).
fn b64_lines(content: &[u8], eol: &str) -> String {
    let text = B64.encode(content);
    let mut out = String::with_capacity(text.len() + text.len() / 76 * eol.len() + eol.len());
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let (line, tail) = rest.split_at(rest.len().min(76));
        out.push_str(line);
        out.push_str(eol);
        rest = tail;
    }
    out
}

/// The body of a part as written (after its transfer encoding).
fn encoded_body(p: &ResolvedPart, style: Style) -> Vec<u8> {
    match style {
        Style::CloudInit => b64_lines(&p.content, "\n").into_bytes(),
        Style::Terraform if p.content.is_ascii() => p.content.clone(),
        Style::Terraform => {
            let mut s = b64_lines(&p.content, "\r\n");
            // The CRLF before the next boundary ends the last line.
            s.truncate(s.len().saturating_sub(2));
            s.into_bytes()
        }
    }
}

fn collides(boundary: &str, parts: &[ResolvedPart], bodies: &[Vec<u8>]) -> Option<usize> {
    let b = boundary.as_bytes();
    parts
        .iter()
        .zip(bodies)
        .position(|(p, body)| {
            contains(&p.content, b)
                || contains(body, b)
                || p.headers
                    .iter()
                    .any(|(n, v)| contains(n.as_bytes(), b) || contains(v.as_bytes(), b))
        })
        .map(|i| i + 1)
}

fn default_boundary(style: Style, parts: &[ResolvedPart], bodies: &[Vec<u8>]) -> String {
    let mut h = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        h = fnv1a(h, &p.content);
        h = fnv1a(h, p.content_type.as_bytes());
    }
    let mut attempt: u64 = 0;
    loop {
        let candidate = match (style, attempt) {
            (Style::Terraform, 0) => "MIMEBOUNDARY".to_owned(),
            (Style::Terraform, _) => format!("MIMEBOUNDARY-{:016x}", h),
            (Style::CloudInit, _) => {
                format!("==============={:019}==", h % 10_000_000_000_000_000_000)
            }
        };
        // A colliding candidate needs the content to contain it; after a few
        // rehashes that is impossible in practice, but stay bounded anyway.
        if collides(&candidate, parts, bodies).is_none() || attempt > 64 {
            return candidate;
        }
        attempt += 1;
        h = fnv1a(h, &attempt.to_le_bytes());
    }
}

fn write_cloud_init(out: &mut Vec<u8>, boundary: &str, parts: &[ResolvedPart], bodies: &[Vec<u8>]) {
    out.extend_from_slice(
        format!("Content-Type: multipart/mixed; boundary=\"{boundary}\"\nMIME-Version: 1.0\n\n")
            .as_bytes(),
    );
    for (p, body) in parts.iter().zip(bodies) {
        out.extend_from_slice(format!("--{boundary}\n").as_bytes());
        if p.content_type.starts_with("text/") {
            out.extend_from_slice(
                format!("Content-Type: {}; charset=\"utf-8\"\n", p.content_type).as_bytes(),
            );
        } else {
            out.extend_from_slice(format!("Content-Type: {}\n", p.content_type).as_bytes());
        }
        out.extend_from_slice(b"MIME-Version: 1.0\nContent-Transfer-Encoding: base64\n");
        if let Some(f) = &p.filename {
            out.extend_from_slice(
                format!("Content-Disposition: attachment; filename=\"{f}\"\n").as_bytes(),
            );
        }
        if let Some(m) = &p.merge_type {
            out.extend_from_slice(format!("Merge-Type: {m}\n").as_bytes());
        }
        for (n, v) in &p.headers {
            out.extend_from_slice(format!("{n}: {v}\n").as_bytes());
        }
        out.push(b'\n');
        out.extend_from_slice(body);
        out.push(b'\n');
    }
    // make-mime `print`s the message, whose text already ends in a newline.
    out.extend_from_slice(format!("--{boundary}--\n\n").as_bytes());
}

fn write_terraform(out: &mut Vec<u8>, boundary: &str, parts: &[ResolvedPart], bodies: &[Vec<u8>]) {
    // The provider writes the top headers itself (LF after the first, CRLF
    // after the second); the parts come from Go's multipart writer.
    out.extend_from_slice(
        format!(
            "Content-Type: multipart/mixed; boundary=\"{boundary}\"\nMIME-Version: 1.0\r\n\r\n"
        )
        .as_bytes(),
    );
    for (i, (p, body)) in parts.iter().zip(bodies).enumerate() {
        if i > 0 {
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        let cte = if p.content.is_ascii() {
            "7bit"
        } else {
            "base64"
        };
        let mut headers: Vec<(String, String)> = vec![
            ("Content-Transfer-Encoding".into(), cte.into()),
            ("Content-Type".into(), p.content_type.clone()),
            ("Mime-Version".into(), "1.0".into()),
        ];
        if let Some(f) = &p.filename {
            headers.push((
                "Content-Disposition".into(),
                format!("attachment; filename=\"{f}\""),
            ));
        }
        if let Some(m) = &p.merge_type {
            headers.push(("X-Merge-Type".into(), m.clone()));
        }
        headers.extend(p.headers.iter().map(|(n, v)| (go_canonical(n), v.clone())));
        // Go sorts the keys; values of one key keep their order (stable sort).
        headers.sort_by(|a, b| a.0.cmp(&b.0));
        for (n, v) in &headers {
            out.extend_from_slice(format!("{n}: {v}\r\n").as_bytes());
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(body);
    }
    out.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
}

fn gzip(data: &[u8]) -> Result<Vec<u8>, BuildError> {
    // mtime 0 and no name: the same input gives the same bytes.
    let mut enc = flate2::GzBuilder::new()
        .mtime(0)
        .operating_system(255)
        .write(Vec::new(), flate2::Compression::default());
    enc.write_all(data)
        .map_err(|e| BuildError::Gzip(e.to_string()))?;
    enc.finish().map_err(|e| BuildError::Gzip(e.to_string()))
}

/// Check every part and build the payload. Deterministic: the same specs and
/// options give the same bytes.
pub fn build(specs: &[PartSpec], opts: &BuildOptions) -> Result<Built, BuildError> {
    if specs.is_empty() {
        return Err(BuildError::NoParts);
    }
    let parts = specs
        .iter()
        .enumerate()
        .map(|(i, s)| check_part(s, i + 1, opts))
        .collect::<Result<Vec<_>, _>>()?;
    let bodies: Vec<Vec<u8>> = parts.iter().map(|p| encoded_body(p, opts.style)).collect();
    let boundary = match &opts.boundary {
        Some(b) => {
            check_boundary(b)?;
            if let Some(part) = collides(b, &parts, &bodies) {
                return Err(BuildError::BoundaryCollision {
                    boundary: b.clone(),
                    part,
                });
            }
            b.clone()
        }
        None => default_boundary(opts.style, &parts, &bodies),
    };
    let mut mime = Vec::new();
    match opts.style {
        Style::CloudInit => write_cloud_init(&mut mime, &boundary, &parts, &bodies),
        Style::Terraform => write_terraform(&mut mime, &boundary, &parts, &bodies),
    }
    let mut bytes = if opts.gzip {
        gzip(&mime)?
    } else {
        mime.clone()
    };
    if opts.base64_output() {
        bytes = B64.encode(&bytes).into_bytes();
    }
    Ok(Built {
        mime,
        bytes,
        boundary,
        parts,
    })
}
