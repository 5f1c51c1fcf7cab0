//! `to_text`: the difference for people — the changes at boot with where each value came from, the parts that caused them, and what did not matter.

use super::layered_diff::layer_place;
use super::part_cause::{PartCause, PartDelta};
use super::payload_diff::PayloadDiff;
use super::value_change::{ChangeKind, ValueChange};
use crate::explain::{Origin, PartStatus, PartSummary, inline, status_words};
use crate::merge::PathSeg;
use crate::yaml::{Node, Value};
use std::collections::HashMap;
use std::fmt::Write;

/// Comments start at this column at most (longer lines push theirs right).
const COMMENT_COLUMN: usize = 44;

/// Terminal colours (ANSI escapes), or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Removed things.
    pub red: &'static str,
    /// Added things.
    pub green: &'static str,
    /// Changed things.
    pub yellow: &'static str,
    /// Headings.
    pub bold: &'static str,
    /// Provenance comments.
    pub dim: &'static str,
    /// Back to plain.
    pub reset: &'static str,
}

impl Palette {
    /// No colour at all.
    pub const PLAIN: Palette = Palette {
        red: "",
        green: "",
        yellow: "",
        bold: "",
        dim: "",
        reset: "",
    };

    /// ANSI colours.
    pub const ANSI: Palette = Palette {
        red: "\x1b[31m",
        green: "\x1b[32m",
        yellow: "\x1b[33m",
        bold: "\x1b[1m",
        dim: "\x1b[2m",
        reset: "\x1b[0m",
    };
}

/// Longest value written on one line; the rest is elided (`--format json`
/// has it all). An alias bomb stops here too.
const MAX_INLINE: usize = 10_000;

/// A value on one line: a scalar as `explain` writes it, a container in
/// YAML flow style (items that flow syntax would misread double-quoted).
pub(crate) fn flow(n: &Node) -> String {
    let mut out = String::new();
    flow_into(n, &mut out, &mut Inlined::default());
    out
}

/// The inline text of scalar strings already written (a diff writes the
/// same `owner`, `permissions`, package names thousands of times).
type Inlined = HashMap<String, String, foldhash::fast::FixedState>;

/// [`flow`] into `out` (which must be empty: the cut counts from its start).
fn flow_into(n: &Node, out: &mut String, memo: &mut Inlined) {
    write_flow(n, out, 0, memo);
    if out.len() > MAX_INLINE {
        let mut cut = MAX_INLINE;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push_str(" … (cut here: --format json has the whole value)");
    }
}

fn write_flow(n: &Node, out: &mut String, depth: usize, memo: &mut Inlined) {
    // Deeper than this, or past the line's length, the rest is elided.
    if depth > 64 || out.len() > MAX_INLINE {
        out.push('…');
        return;
    }
    let items = |out: &mut String, it: &mut dyn Iterator<Item = &Node>, memo: &mut Inlined| {
        for (i, x) in it.enumerate() {
            if out.len() > MAX_INLINE {
                break;
            }
            if i > 0 {
                out.push_str(", ");
            }
            write_flow(x, out, depth + 1, memo);
        }
    };
    match n.value() {
        Value::Seq(s) => {
            out.push('[');
            items(out, &mut s.iter(), memo);
            out.push(']');
        }
        Value::Tuple(s) => {
            out.push_str("!!python/tuple [");
            items(out, &mut s.iter(), memo);
            out.push(']');
        }
        Value::Set(m) => {
            out.push_str("!!set {");
            items(out, &mut m.keys(), memo);
            out.push('}');
        }
        Value::Map(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if out.len() > MAX_INLINE {
                    break;
                }
                if i > 0 {
                    out.push_str(", ");
                }
                write_flow(k, out, depth + 1, memo);
                out.push_str(": ");
                write_flow(v, out, depth + 1, memo);
            }
            out.push('}');
        }
        _ => {
            let owned;
            let s: &str = match n.value() {
                Value::Str(text) => match text.as_str() {
                    Some(t) if t.len() <= 256 => {
                        if !memo.contains_key(t) {
                            memo.insert(t.to_owned(), inline(n));
                        }
                        memo.get(t).map_or("", String::as_str)
                    }
                    _ => {
                        owned = inline(n);
                        &owned
                    }
                },
                _ => {
                    owned = inline(n);
                    &owned
                }
            };
            let quoted = s.starts_with('\'') || s.starts_with('"');
            if depth > 0 && !quoted && s.contains([',', '[', ']', '{', '}']) {
                out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"?\"".to_owned()));
            } else {
                out.push_str(s);
            }
        }
    }
}

fn write_place(out: &mut String, parts: &[PartSummary], o: Option<Origin>) {
    match o {
        Some(o) => {
            let name = o
                .part
                .checked_sub(1)
                .and_then(|i| parts.get(i))
                .map_or("?", |p| p.filename.as_str());
            // Pieces pushed (no `write!`): a diff writes thousands of these.
            let mut num = itoa::Buffer::new();
            out.push_str("part ");
            out.push_str(num.format(o.part));
            out.push_str(" (");
            out.push_str(name);
            out.push_str("):");
            out.push_str(num.format(o.start.line));
            out.push(':');
            out.push_str(num.format(o.start.column));
        }
        None => out.push_str("built by the merge"),
    }
}

/// A part cause in a few words, for the changes it explains.
fn cause_words(c: &PartCause) -> String {
    let (number, file) = c
        .new
        .as_ref()
        .or(c.old.as_ref())
        .map_or((0, ""), |p| (p.number, p.filename.as_str()));
    let what = c
        .deltas
        .iter()
        .filter(|d| !matches!(d, PartDelta::Content(_)) || c.deltas.len() == 1)
        .map(|d| match d {
            PartDelta::Added => "added".to_owned(),
            PartDelta::Removed => "removed".to_owned(),
            PartDelta::Moved => "moved".to_owned(),
            PartDelta::Renamed => "renamed".to_owned(),
            PartDelta::ContentType => "content type changed".to_owned(),
            PartDelta::MergeHeader => "Merge-Type changed".to_owned(),
            PartDelta::Mergers => "mergers changed".to_owned(),
            PartDelta::Status => match c.new.as_ref().map(|p| p.status.code()) {
                Some("merged") => "now merged".to_owned(),
                Some("dropped") => "now dropped".to_owned(),
                _ => "handled differently".to_owned(),
            },
            PartDelta::Content(_) => "edited".to_owned(),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let side = if c.new.is_some() { "" } else { "old " };
    format!("{side}part {number} ({file}) {what}")
}

/// Characters shown of `s` (ANSI colour sequences take no room).
fn visible_width(s: &str) -> usize {
    if !s.contains('\x1b') {
        return s.chars().count();
    }
    let mut n = 0;
    let mut in_escape = false;
    for c in s.chars() {
        match (in_escape, c) {
            (false, '\x1b') => in_escape = true,
            (false, _) => n += 1,
            (true, 'm') => in_escape = false,
            (true, _) => {}
        }
    }
    n
}

/// What cloud-init does with a part (`explain`'s status and reason).
fn status_text(p: &PartSummary) -> String {
    match &p.status {
        PartStatus::Merged => match &p.mergers {
            Some(m) => format!("merged with {m}"),
            None => "merged".to_owned(),
        },
        PartStatus::Dropped(r) => format!("DROPPED, cloud-init skips it: {r}"),
        PartStatus::WouldRun => "cloud-init runs it".to_owned(),
        PartStatus::Ignored(r) => format!("ignored: {r}"),
    }
}

struct Writer<'a> {
    d: &'a PayloadDiff,
    pal: Palette,
    causes: Vec<Vec<usize>>,
    /// Each part cause in a few words (`cause_words`), written once.
    cause_words: Vec<String>,
    inlined: Inlined,
    /// A value's inline text, before it joins `out` (reused).
    scratch: String,
    out: String,
}

fn key_list(keys: &[Node]) -> String {
    let shown: Vec<String> = keys.iter().take(12).map(flow).collect();
    let more = keys.len().saturating_sub(12);
    if more > 0 {
        format!("{}, … ({more} more)", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

impl Writer<'_> {
    /// Ends the line begun at `start`: in the comment column, where the
    /// value was read; on the new side's line (or the only line), the
    /// part-level changes behind it.
    fn comment(&mut self, start: usize, i: usize, old_side: bool, with_causes: bool) {
        let Some(ch) = self.d.changes.get(i) else {
            self.out.push('\n');
            return;
        };
        let visible = visible_width(self.out.get(start..).unwrap_or_default());
        let pad = COMMENT_COLUMN.saturating_sub(visible).max(2);
        let p = self.pal;
        self.out.extend(std::iter::repeat_n(' ', pad));
        self.out.push_str(p.dim);
        self.out.push_str("# ");
        let (parts, origin, layer) = if old_side {
            (&self.d.old.parts, ch.old_origin, ch.old_layer.as_ref())
        } else {
            (&self.d.new.parts, ch.new_origin, ch.new_layer.as_ref())
        };
        if old_side {
            self.out.push_str("was ");
        }
        // With layers, a value no user-data part holds is named by its layer's file.
        match (origin, layer) {
            (None, Some(l)) => self.out.push_str(&layer_place(l)),
            _ => write_place(&mut self.out, parts, origin),
        }
        if with_causes {
            for &k in self.causes.get(i).map(Vec::as_slice).unwrap_or_default() {
                if let Some(words) = self.cause_words.get(k) {
                    self.out.push_str("; ");
                    self.out.push_str(words);
                }
            }
        }
        self.out.push_str(p.reset);
        self.out.push('\n');
    }

    fn change(&mut self, i: usize, ch: &ValueChange) {
        let p = self.pal;
        // Written in place (a diff has thousands of lines): no string per piece.
        match ch.kind {
            ChangeKind::Added | ChangeKind::Removed => {
                let added = ch.kind == ChangeKind::Added;
                let start = self.out.len();
                let (colour, sign) = if added { (p.green, "+") } else { (p.red, "-") };
                self.out.push_str("  ");
                self.out.push_str(colour);
                self.out.push_str(sign);
                self.out.push(' ');
                ch.write_path(&mut self.out);
                self.out.push_str(": ");
                if ch.in_set {
                    let element = match ch.path().segments().last() {
                        Some(PathSeg::Key(k)) => flow(k),
                        _ => String::new(),
                    };
                    let _ = write!(self.out, "(set element {element})");
                } else {
                    self.flow_out(if added {
                        ch.new.as_ref()
                    } else {
                        ch.old.as_ref()
                    });
                }
                self.out.push_str(p.reset);
                self.comment(start, i, !added, true);
            }
            ChangeKind::Changed => {
                self.out.push_str("  ");
                self.out.push_str(p.yellow);
                self.out.push_str("~ ");
                ch.write_path(&mut self.out);
                self.out.push_str(p.reset);
                self.out.push('\n');
                for (old_side, colour, sign, n) in [
                    (true, p.red, "-", ch.old.as_ref()),
                    (false, p.green, "+", ch.new.as_ref()),
                ] {
                    let start = self.out.len();
                    self.out.push_str("      ");
                    self.out.push_str(colour);
                    self.out.push_str(sign);
                    self.out.push(' ');
                    self.flow_out(n);
                    self.out.push_str(p.reset);
                    self.comment(start, i, old_side, !old_side);
                }
            }
            ChangeKind::Retyped => {
                let names = |n: Option<&Node>| n.map_or("?", Node::type_name);
                let _ = writeln!(
                    self.out,
                    "  {}~ {}: {} → {}{}",
                    p.yellow,
                    ch.path(),
                    names(ch.old.as_ref()),
                    names(ch.new.as_ref()),
                    p.reset
                );
            }
            ChangeKind::Reordered => {
                let _ = writeln!(
                    self.out,
                    "  {}~ {}: key order {} → {}{}",
                    p.yellow,
                    ch.path(),
                    key_list(&ch.old_keys),
                    key_list(&ch.new_keys),
                    p.reset
                );
            }
        }
        if let Some(why) = ch.not_at_boot {
            let _ = writeln!(self.out, "      {}({}){}", p.dim, why.words(), p.reset);
        }
    }

    /// A value on one line ([`flow`]), appended to the text.
    fn flow_out(&mut self, n: Option<&Node>) {
        if let Some(n) = n {
            let mut scratch = std::mem::take(&mut self.scratch);
            scratch.clear();
            flow_into(n, &mut scratch, &mut self.inlined);
            self.out.push_str(&scratch);
            self.scratch = scratch;
        }
    }

    fn part(&mut self, c: &PartCause) {
        let p = self.pal;
        let Some(s) = c.new.as_ref().or(c.old.as_ref()) else {
            return;
        };
        let head = format!("part {} ({}) {}", s.number, s.filename, s.content_type);
        if c.has("added") {
            let _ = writeln!(
                self.out,
                "  {}+ {head}, added{}{}",
                p.green,
                status_words(s),
                p.reset
            );
            return;
        }
        if c.has("removed") {
            let _ = writeln!(
                self.out,
                "  {}- {head}, removed (it was{}){}",
                p.red,
                status_words(s).trim_start_matches(':'),
                p.reset
            );
            return;
        }
        let before = match (&c.old, &c.new) {
            (Some(o), Some(n)) if o.number != n.number => format!(" (part {} before)", o.number),
            _ => String::new(),
        };
        let _ = writeln!(self.out, "  {}~ {head}{before}{}", p.yellow, p.reset);
        let (Some(o), Some(n)) = (&c.old, &c.new) else {
            return;
        };
        if !c.has("status") {
            let _ = writeln!(
                self.out,
                "      {}",
                status_words(n).trim_start_matches(": ")
            );
        }
        for d in &c.deltas {
            match d {
                PartDelta::Moved => {
                    let _ = writeln!(self.out, "      moved among the other parts");
                }
                PartDelta::Renamed => {
                    let _ = writeln!(self.out, "      renamed from {}", o.filename);
                }
                PartDelta::ContentType => {
                    let _ = writeln!(self.out, "      content type was {}", o.content_type);
                }
                PartDelta::MergeHeader => {
                    let show =
                        |m: &Option<String>| m.clone().unwrap_or_else(|| "(none)".to_owned());
                    let _ = writeln!(
                        self.out,
                        "      Merge-Type: {} → {}",
                        show(&o.merge_type),
                        show(&n.merge_type)
                    );
                }
                PartDelta::Mergers => {
                    let _ = writeln!(
                        self.out,
                        "      mergers: {} → {}",
                        o.mergers.as_deref().unwrap_or("?"),
                        n.mergers.as_deref().unwrap_or("?")
                    );
                }
                PartDelta::Status => {
                    let _ = writeln!(self.out, "      now: {}", status_text(n));
                    let _ = writeln!(self.out, "      before: {}", status_text(o));
                }
                PartDelta::Content(hunks) => {
                    let _ = writeln!(self.out, "      content changed:");
                    for h in hunks {
                        let _ = writeln!(
                            self.out,
                            "        {}@@ -{},{} +{},{} @@{}",
                            p.dim,
                            h.old_start,
                            h.old_lines.len(),
                            h.new_start,
                            h.new_lines.len(),
                            p.reset
                        );
                        for l in &h.old_lines {
                            let _ = writeln!(self.out, "        {}-{l}{}", p.red, p.reset);
                        }
                        for l in &h.new_lines {
                            let _ = writeln!(self.out, "        {}+{l}{}", p.green, p.reset);
                        }
                    }
                }
                PartDelta::Added | PartDelta::Removed => {}
            }
        }
    }

    fn heading(&mut self, h: &str) {
        let p = self.pal;
        let _ = writeln!(self.out, "{}{h}{}", p.bold, p.reset);
    }
}

/// The difference as text: `--- OLD` / `+++ NEW`, then the changes at boot
/// (each value with the part and line:column it was read from, and the
/// part-level change behind it), the parts that changed, and what changed
/// without mattering at boot. Identical configs read "no change at boot".
pub fn to_text(d: &PayloadDiff, names: (&str, &str), pal: Palette) -> String {
    let mut w = Writer {
        d,
        pal,
        causes: d.causes(),
        cause_words: d.parts.iter().map(cause_words).collect(),
        inlined: Inlined::default(),
        scratch: String::new(),
        out: String::with_capacity(d.changes.len().saturating_mul(160)),
    };
    let _ = writeln!(w.out, "{}--- {}{}", pal.red, names.0, pal.reset);
    let _ = writeln!(w.out, "{}+++ {}{}", pal.green, names.1, pal.reset);
    if d.config_only {
        let why = match (d.old.is_cloud_config_txt, d.new.is_cloud_config_txt) {
            (true, true) => "both are cloud-config.txt files as cloud-init writes them",
            (true, false) => "OLD is a cloud-config.txt as cloud-init writes it",
            (false, true) => "NEW is a cloud-config.txt as cloud-init writes it",
            (false, false) => "--config-only",
        };
        let what = if d.old.is_cloud_config_txt || d.new.is_cloud_config_txt {
            "it is compared as the config it holds, and parts are not compared"
        } else {
            "parts cloud-init runs are not compared"
        };
        let _ = writeln!(w.out, "(merged configs only: {why}; {what})");
    }
    let boot: Vec<usize> = (0..d.changes.len())
        .filter(|&i| d.changes.get(i).is_some_and(ValueChange::at_boot))
        .collect();
    let quiet: Vec<usize> = (0..d.changes.len())
        .filter(|&i| d.changes.get(i).is_some_and(|c| !c.at_boot()))
        .collect();
    if d.same_at_boot() {
        let why = if d.identical_payloads {
            " (the payloads are identical)"
        } else {
            ""
        };
        w.heading(&format!("no change at boot{why}"));
        if !d.identical_payloads {
            let txt = d.old.is_cloud_config_txt || d.new.is_cloud_config_txt;
            if d.parts.is_empty() && quiet.is_empty() && txt {
                let _ = writeln!(w.out, "the merged configs are the same");
            } else if d.parts.is_empty() && quiet.is_empty() {
                let _ = writeln!(
                    w.out,
                    "the payloads differ only in how they are framed (MIME boundaries, headers, encoding): every part is the same"
                );
            } else {
                w.heading("differences that did not matter:");
                for c in &d.parts {
                    w.part(c);
                }
                for i in quiet {
                    if let Some(c) = d.changes.get(i) {
                        w.change(i, c);
                    }
                }
            }
        }
    } else {
        if !boot.is_empty() {
            w.heading("changes at boot:");
            for i in boot {
                if let Some(c) = d.changes.get(i) {
                    w.change(i, c);
                }
            }
        }
        let runs: Vec<&PartCause> = d.parts.iter().filter(|c| c.at_boot).collect();
        if !runs.is_empty() {
            w.heading("parts cloud-init runs:");
            for c in runs {
                w.part(c);
            }
        }
        let rest: Vec<&PartCause> = d.parts.iter().filter(|c| !c.at_boot).collect();
        if !rest.is_empty() {
            w.heading("parts:");
            for c in rest {
                w.part(c);
            }
        }
        if !quiet.is_empty() {
            w.heading("did not matter at boot:");
            for i in quiet {
                if let Some(c) = d.changes.get(i) {
                    w.change(i, c);
                }
            }
        }
    }
    for p in &d.by_position {
        let _ = writeln!(
            w.out,
            "note: {p}: too different to align within --max-align-work: the rest of it is compared item by item in place"
        );
    }
    w.out
}
