//! `JsonView`: the explanation as JSON (the `--format json` of `cloudfold explain`; README documents it).
//!
//! Written by hand as it is walked ([`JsonView::write_pretty`]), not built as
//! a `serde_json::Value` first nor serialized token by token through serde:
//! a large payload's explanation is tens of megabytes of JSON, a value tree
//! of it took several times that in memory, and serde's calls per token
//! were a third of the work. The text is the one encoding of the format:
//! the `Serialize` impl and [`to_json`] read it back.

use super::change::{Change, Step};
use super::explanation::{Entry, Explanation, Origin, PartChange, PartSummary};
use crate::json_writer::JsonWriter;
use crate::yaml::typed_json::{WalkLimits, to_typed_json};
use crate::yaml::{Node, Value};
use serde::ser::{Serialize, Serializer};
use serde_json::Value as J;
use std::io;

/// The explanation as one JSON document (format described in the README):
/// written as it is walked by [`JsonView::write_pretty`], or serialized
/// (`serde_json::to_writer_pretty(w, &JsonView(&ex))` writes the same text).
#[derive(Clone, Copy, Debug)]
pub struct JsonView<'a>(pub &'a Explanation);

/// The explanation as a JSON value ([`JsonView`]'s text read back; `null`
/// if it does not read: a typed value nested past serde_json's depth limit).
pub fn to_json(ex: &Explanation) -> J {
    let mut text = Vec::new();
    match JsonView(ex).write_pretty(&mut text) {
        Ok(()) => serde_json::from_slice(&text).unwrap_or(J::Null),
        Err(_) => J::Null,
    }
}

impl Serialize for JsonView<'_> {
    /// The text [`JsonView::write_pretty`] writes, read back as a JSON
    /// value (library use; the CLI writes the text directly).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        to_json(self.0).serialize(s)
    }
}

impl JsonView<'_> {
    /// Write the document as pretty JSON text (2-space indent, as
    /// `serde_json::to_writer_pretty` writes; no final newline) to `w`, each
    /// entry as the walk makes it. `w` needs no buffer of its own: it is
    /// given the text in chunks of tens of kilobytes, then flushed.
    pub fn write_pretty<W: io::Write>(self, w: W) -> io::Result<()> {
        let mut j = JsonWriter::new(w);
        let ex = self.0;
        j.begin_object();
        j.key("format");
        j.str("cloudfold-explain/1");
        j.key("config");
        if ex.has_config {
            j.begin_array();
            for e in ex.entries() {
                j.element();
                entry(&mut j, ex, &e)?;
                j.gathered()?;
            }
            j.end_array();
        } else {
            j.null();
        }
        j.key("parts");
        j.begin_array();
        for p in &ex.parts {
            j.element();
            part(&mut j, p);
            j.gathered()?;
        }
        j.end_array();
        j.key("filtered_out");
        j.begin_array();
        for f in &ex.filtered_out {
            j.element();
            j.str(f);
        }
        j.end_array();
        j.end_object();
        j.finish().map(drop)
    }
}

/// A scalar or key as typed JSON (`null` past the walk limits).
fn typed<W: io::Write>(j: &mut JsonWriter<W>, node: &Node) -> io::Result<()> {
    match node.value() {
        // A string is itself in typed JSON (one per entry: a huge list's
        // million). Without a surrogate its bytes are UTF-8: written as they
        // are, not validated again by `as_str`.
        Value::Str(t) if !t.has_surrogates() => {
            j.utf8(t.as_wtf8());
            Ok(())
        }
        _ => j.serialized(&to_typed_json(node, WalkLimits::default()).unwrap_or(J::Null)),
    }
}

fn origin<W: io::Write>(j: &mut JsonWriter<W>, ex: &Explanation, o: Option<&Origin>) {
    let Some(o) = o else {
        j.null();
        return;
    };
    let part = ex.part(o.part);
    j.begin_object();
    j.key("part");
    j.usize(o.part);
    j.key("filename");
    j.opt_str(part.map(|p| p.filename.as_str()));
    j.key("line");
    j.uint(o.start.line);
    j.key("column");
    j.uint(o.start.column);
    j.key("end_line");
    j.uint(o.end.line);
    j.key("end_column");
    j.uint(o.end.column);
    // A rendered jinja part: line/column are in the rendered text.
    if let Some(t) = part.and_then(|p| p.template_line(o)) {
        j.key("template_line");
        j.usize(t);
    }
    j.end_object();
}

/// The fields a change adds when it has them: why old was kept, the
/// lengths of an index overlay.
fn change_details<W: io::Write>(j: &mut JsonWriter<W>, c: Change) {
    if let Some(r) = c.reason_code() {
        j.key("reason");
        j.str(r);
    }
    if let Change::Truncated { old_len, new_len } = c {
        j.key("old_len");
        j.usize(old_len);
        j.key("new_len");
        j.usize(new_len);
    }
}

fn step<W: io::Write>(j: &mut JsonWriter<W>, st: &Step) {
    j.begin_object();
    j.key("part");
    j.usize(st.part);
    j.key("change");
    j.str(st.change.code());
    change_details(j, st.change);
    if let Some(p) = st.replaced_part {
        j.key("replaced_part");
        j.usize(p);
    }
    if st.inherited {
        j.key("inherited");
        j.bool(true);
    }
    j.end_object();
}

fn entry<W: io::Write>(j: &mut JsonWriter<W>, ex: &Explanation, e: &Entry) -> io::Result<()> {
    j.begin_object();
    j.key("path");
    j.str(&e.path);
    if let Some(k) = &e.key {
        j.key("key");
        typed(j, k)?;
        j.key("key_origin");
        origin(j, ex, e.key_origin.as_ref());
    }
    if let Some(i) = e.index {
        j.key("index");
        j.usize(i);
    }
    j.key("type");
    j.str(e.value.type_name());
    if !matches!(
        e.value.value(),
        Value::Map(_) | Value::Seq(_) | Value::Tuple(_)
    ) {
        j.key("value");
        typed(j, &e.value)?;
    }
    j.key("origin");
    origin(j, ex, e.origin.as_ref());
    j.key("origin_kind");
    j.str(e.kind.code());
    if !e.contributions.is_empty() {
        j.key("contributions");
        j.begin_array();
        for o in &e.contributions {
            j.element();
            origin(j, ex, Some(o));
        }
        j.end_array();
    }
    j.key("decision");
    match &e.placed {
        Some(st) => step(j, st),
        None => j.null(),
    }
    j.key("later");
    j.begin_array();
    for st in &e.later {
        j.element();
        step(j, st);
    }
    j.end_array();
    j.end_object();
    Ok(())
}

fn change<W: io::Write>(j: &mut JsonWriter<W>, c: &PartChange) {
    j.begin_object();
    j.key("path");
    j.str(&c.path);
    j.key("change");
    j.str(c.change.code());
    change_details(j, c.change);
    if let Some(op) = &c.op {
        j.key("op");
        j.str(op);
    }
    j.key("at");
    match c.at {
        Some(at) => {
            j.begin_object();
            j.key("line");
            j.uint(at.line);
            j.key("column");
            j.uint(at.column);
            j.end_object();
        }
        None => j.null(),
    }
    if let Some(p) = c.other_part {
        j.key("other_part");
        j.usize(p);
    }
    j.end_object();
}

fn part<W: io::Write>(j: &mut JsonWriter<W>, p: &PartSummary) {
    j.begin_object();
    j.key("part");
    j.usize(p.number);
    j.key("filename");
    j.str(&p.filename);
    j.key("content_type");
    j.str(&p.content_type);
    j.key("merge_type");
    j.opt_str(p.merge_type.as_deref());
    j.key("mergers");
    j.opt_str(p.mergers.as_deref());
    j.key("status");
    j.str(p.status.code());
    j.key("reason");
    j.opt_str(p.status.reason());
    j.key("changes");
    j.begin_array();
    for c in &p.changes {
        j.element();
        change(j, c);
    }
    j.end_array();
    j.end_object();
}

#[cfg(test)]
mod tests {
    use super::{JsonView, to_json};
    use crate::explain::{ExplainLimits, explain};
    use crate::userdata::{NoIncludes, UserDataOptions};

    /// The written text is serde_json's pretty text of the value it holds,
    /// and the `Serialize` impl writes that same text.
    fn check(payload: &[u8]) -> String {
        let limits = ExplainLimits { max_nodes: 1 << 20 };
        let Ok((_, ex)) = explain(payload, &UserDataOptions::default(), &NoIncludes, limits) else {
            return String::new();
        };
        let mut text = Vec::new();
        JsonView(&ex).write_pretty(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string_pretty(&value).unwrap(), text);
        assert_eq!(serde_json::to_string_pretty(&JsonView(&ex)).unwrap(), text);
        assert_eq!(to_json(&ex), value);
        text
    }

    #[test]
    fn as_serde_json_writes_it() {
        let payloads: &[&[u8]] = &[
            b"#cloud-config\nruncmd: [echo hi, \"a\\\"b\\\\c\\u0001\\u001f\\u2028\\t/\\x7f\"]\n",
            b"#cloud-config\na: 1\nb: 1.5\nc: .nan\nd: -.inf\ne: 123456789012345678901234567890\n\
              f: 2020-01-02\ng: 2020-01-02 03:04:05\nh: !!binary aGk=\ni: !!set {x, y}\n\
              j: null\nk: true\n1: int key\n\"\\udc80\": x\nl: {}\nm: []\n\
              n: \"\\udc80\\ud800\"\n",
            b"#cloud-config\n",
            b"#!/bin/sh\necho hi\n",
            b"## template: jinja\n#cloud-config\na: {{ v1.cloud_name }}\nb: [1, 2]\n",
            b"Content-Type: multipart/mixed; boundary=XX\nMIME-Version: 1.0\n\n--XX\n\
              Content-Type: text/cloud-config\n\nruncmd: [a, b]\ns: x\nd: {k: 1}\n--XX\n\
              Content-Type: text/cloud-config\nMerge-Type: list(append)+dict(recurse_str,recurse_list)+str(append)\n\n\
              runcmd: [c]\ns: y\nd: {k: 2, j: [3]}\n--XX\n\
              Content-Type: text/cloud-config\nMerge-Type: list()+dict(no_replace)\n\n\
              runcmd: [z]\nd: 5\n--XX\n\
              Content-Type: text/cloud-config-jsonp\n\n[{\"op\": \"add\", \"path\": \"/p\", \"value\": 1},\
              {\"op\": \"remove\", \"path\": \"/d/j\"}]\n--XX\n\
              Content-Type: text/x-shellscript\n\n#!/bin/sh\n--XX\n\
              Content-Type: text/cloud-config\n\n- not a mapping\n--XX--\n",
        ];
        let texts: Vec<String> = payloads.iter().map(|p| check(p)).collect();
        let all = texts.concat();
        for marker in [
            "\\u0001",
            "\u{2028}",
            "$float",
            "$bigint",
            "$date",
            "$datetime",
        ] {
            assert!(all.contains(marker), "{marker}");
        }
        for marker in [
            "$bytes_b64",
            "$set",
            "$str_codepoints",
            "\"key\": 1,",
            "kept_old",
        ] {
            assert!(all.contains(marker), "{marker}");
        }
        for marker in ["\"contributions\"", "\"op\": \"add\"", "\"config\": null"] {
            assert!(all.contains(marker), "{marker}");
        }
    }

    #[test]
    fn fixtures_as_serde_json_writes_them() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");
        let mut n = 0;
        for dir in [
            "mime",
            "userdata-rfc822",
            "merge-compose",
            "cli/annotate.in",
        ] {
            let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
                continue;
            };
            for e in entries.flatten() {
                if let Ok(bytes) = std::fs::read(e.path()) {
                    n += usize::from(!check(&bytes).is_empty());
                }
            }
        }
        assert!(n > 100, "{n} fixtures");
    }
}
