//! Pairs of payloads for `diff`: a multipart payload A (payload_gen's merge parts, scripts) and B, a mutation of it.

#![allow(dead_code)]

use super::payload_gen::{GOOD_SPECS, merge_part, merge_value, scalar, spec};
use super::rng::Rng;

/// One MIME part of a generated payload.
#[derive(Clone, Debug)]
pub(crate) struct Part {
    pub ctype: String,
    pub merge_type: Option<String>,
    pub filename: String,
    pub body: String,
}

fn new_part(r: &mut Rng, name: usize) -> Part {
    let (ctype, body) = if r.chance(8) {
        (
            "text/x-shellscript",
            format!("#!/bin/sh\necho {}\n", r.below(4)),
        )
    } else {
        merge_part(r)
    };
    let merge_type = if r.chance(55) {
        Some((*r.pick(GOOD_SPECS)).to_owned())
    } else if r.chance(10) {
        Some(spec(r).to_owned())
    } else {
        None
    };
    Part {
        ctype: ctype.to_owned(),
        merge_type,
        filename: format!("p{name}.yaml"),
        body,
    }
}

/// Payload A's parts: one to six.
pub(crate) fn parts(r: &mut Rng) -> Vec<Part> {
    (0..1 + r.below(6)).map(|i| new_part(r, i)).collect()
}

/// One line of `body` edited: the text after its first `: ` or `- ` replaced
/// by a new scalar (a value changed), or a new line after it (an item or key added).
fn edit_line(r: &mut Rng, body: &str) -> String {
    let lines: Vec<&str> = body.lines().collect();
    if lines.len() < 2 {
        return format!(
            "{body}{}:{}",
            r.pick(&["runcmd", "a", "hostname"]),
            merge_value(r)
        );
    }
    let i = 1 + r.below(lines.len() - 1);
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    let line = lines[i];
    match r.below(3) {
        0 => {
            if let Some(p) = line.find(": ").or_else(|| line.find("- ")) {
                out[i] = format!("{} {}", &line[..p + 1], scalar(r));
            }
        }
        1 if line.trim_start().starts_with("- ") => {
            let indent = &line[..line.len() - line.trim_start().len()];
            out.insert(i + 1, format!("{indent}- {}", scalar(r)));
        }
        _ => out.insert(
            i,
            format!(
                "{}:{}",
                r.pick(&["runcmd", "packages", "a", "b"]),
                merge_value(r).trim_end()
            ),
        ),
    }
    let mut s = out.join("\n");
    s.push('\n');
    s
}

/// B: `a` with one to three mutations — parts added, removed, moved, duplicated,
/// retyped or renamed, merge headers changed (to another spec, none, or a broken
/// one), values changed, lines added.
pub(crate) fn mutate(r: &mut Rng, a: &[Part]) -> Vec<Part> {
    let mut b = a.to_vec();
    let mut next_name = a.len() + 10;
    for _ in 0..1 + r.below(3) {
        let n = b.len();
        match r.below(10) {
            0 => {
                let p = new_part(r, next_name);
                next_name += 1;
                b.insert(r.below(n + 1), p);
            }
            1 if n > 1 => {
                b.remove(r.below(n));
            }
            2 if n > 1 => {
                let p = b.remove(r.below(n));
                b.insert(r.below(n), p);
            }
            3 if n > 0 => {
                let i = r.below(n);
                b[i].merge_type = match r.below(4) {
                    0 => None,
                    1 => Some(spec(r).to_owned()),
                    _ => Some((*r.pick(GOOD_SPECS)).to_owned()),
                };
            }
            4 | 5 if n > 0 => {
                let i = r.below(n);
                b[i].body = edit_line(r, &b[i].body);
            }
            6 if n > 0 => {
                let i = r.below(n);
                b[i].filename = format!("renamed{next_name}.yaml");
                next_name += 1;
            }
            7 if n > 0 => {
                let p = b[r.below(n)].clone();
                b.insert(r.below(n + 1), p);
            }
            8 if n > 0 => {
                let i = r.below(n);
                b[i] = new_part(r, next_name);
                next_name += 1;
            }
            _ if n > 0 => {
                let i = r.below(n);
                b[i].ctype = if b[i].ctype == "text/cloud-config" {
                    "text/x-shellscript".to_owned()
                } else {
                    "text/cloud-config".to_owned()
                };
            }
            _ => b.push(new_part(r, next_name)),
        }
    }
    b
}

/// The parts as a multipart payload with `boundary`.
pub(crate) fn payload(parts: &[Part], boundary: &str) -> Vec<u8> {
    let mut s =
        format!("Content-Type: multipart/mixed; boundary=\"{boundary}\"\nMIME-Version: 1.0\n\n");
    for p in parts {
        s.push_str(&format!("--{boundary}\nContent-Type: {}\n", p.ctype));
        if let Some(m) = &p.merge_type {
            s.push_str(&format!("Merge-Type: {m}\n"));
        }
        s.push_str(&format!(
            "Content-Disposition: attachment; filename=\"{}\"\n\n{}\n",
            p.filename, p.body
        ));
    }
    s.push_str(&format!("--{boundary}--\n"));
    s.into_bytes()
}

/// A pair (A, B): B a mutation of A, sometimes only re-framed (another boundary).
pub(crate) fn pair(r: &mut Rng) -> (Vec<u8>, Vec<u8>) {
    let a = parts(r);
    if r.chance(5) {
        return (payload(&a, "AAAA"), payload(&a, "BBBB"));
    }
    let b = mutate(r, &a);
    (payload(&a, "XXXX"), payload(&b, "XXXX"))
}
