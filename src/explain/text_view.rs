//! `to_text`: the explanation for people — the merged YAML with a comment per key and item, then each part's changes.

use super::change::{Change, Step, keep_words};
use super::explanation::{
    Entry, Explanation, Origin, OriginKind, PartStatus, PartSummary, shows_children,
};
use crate::yaml::value::{Seq, py_repr};
use crate::yaml::{DumpOptions, Node, Value, dump};
use std::collections::HashSet;
use std::fmt::Write;

/// Comments start at this column at most (longer lines push theirs right).
const COMMENT_COLUMN: usize = 40;

/// A value on one line: YAML as the dumper writes it inside a list, or a
/// double-quoted string when that would take several lines.
///
/// ```
/// use cloudfold::explain::inline;
/// use cloudfold::yaml::Node;
/// assert_eq!(inline(&Node::str("echo hi")), "echo hi");
/// assert_eq!(inline(&Node::str("yes")), "'yes'");
/// ```
pub fn inline(n: &Node) -> String {
    match n.value() {
        Value::Map(m) if m.is_empty() => return "{}".to_owned(),
        Value::Seq(s) | Value::Tuple(s) if s.is_empty() => return "[]".to_owned(),
        // Most strings are written as they are: no dump needed (`diff` writes thousands).
        Value::Str(s) if s.as_str().is_some_and(crate::yaml::writes_as_itself) => {
            return s.as_str().unwrap_or_default().to_owned();
        }
        _ => {}
    }
    inline_dumped(n)
}

/// [`inline`] by dumping the value inside a one-item list.
fn inline_dumped(n: &Node) -> String {
    let opts = DumpOptions {
        width: 1 << 20,
        ..DumpOptions::readable()
    };
    let wrapped = Node::synthetic(Value::Seq(Seq::new(vec![n.clone()])));
    if let Ok(text) = dump(&wrapped, &opts)
        && let Some(one) = text.strip_prefix("- ").and_then(|t| t.strip_suffix('\n'))
        && !one.contains('\n')
    {
        return one.to_owned();
    }
    match n.value() {
        Value::Str(s) => {
            serde_json::to_string(&s.to_string_lossy()).unwrap_or_else(|_| "\"?\"".to_owned())
        }
        _ => py_repr(n),
    }
}

/// Pushes where `o` is: `part N (FILENAME):LINE:COL`.
fn push_place(c: &mut String, ex: &Explanation, o: &Origin) {
    let name = ex.part(o.part).map_or("?", |p| p.filename.as_str());
    let _ = write!(
        c,
        "part {} ({name}):{}:{}",
        o.part, o.start.line, o.start.column
    );
    // A rendered template: the place in the rendered text, and the
    // template line that wrote it.
    if let Some(t) = ex.part(o.part).and_then(|p| p.template_line(o)) {
        let _ = write!(c, " (template line {t})");
    }
}

/// Pushes the words for the step that placed a value.
fn push_step_words(c: &mut String, s: &Step, origin_part: Option<usize>) {
    if s.inherited {
        // It came inside the value the decision was about.
        match s.change {
            Change::Added => {
                let _ = s.change.write_describe(c);
            }
            Change::Replaced => c.push_str("part of the replacing value"),
            Change::Overlaid => c.push_str("part of the overlaid item"),
            Change::Appended => c.push_str("part of the appended item"),
            Change::Prepended => c.push_str("part of the prepended item"),
            Change::Patched => c.push_str("part of the patched value"),
            _ => {
                c.push_str("part of a value ");
                let _ = s.change.write_describe(c);
            }
        }
    } else {
        let _ = s.change.write_describe(c);
        if let Some(r) = s.replaced_part {
            let _ = write!(c, " part {r}'s value");
        }
    }
    if origin_part != Some(s.part) {
        let _ = write!(c, " by part {}", s.part);
    }
}

/// Consecutive parts that took the same later decision at one place, from
/// which on they are named as a range (a list that every part of a large
/// payload appends to would otherwise list thousands of them).
const RUN_FROM: usize = 3;

/// Who took a later decision: one part, or parts `first..=last`.
#[derive(Clone, Copy)]
enum Who {
    One(usize),
    Run(usize, usize),
}

impl std::fmt::Display for Who {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Who::One(p) => write!(f, "part {p}"),
            Who::Run(a, b) => write!(f, "parts {a}-{b}"),
        }
    }
}

fn later_words(who: Who, change: Change) -> String {
    match (change, who) {
        (Change::KeptOld(r), Who::One(_)) => format!("{who}'s value ignored ({})", keep_words(r)),
        (Change::KeptOld(r), Who::Run(..)) => {
            format!("{who}'s values ignored ({})", keep_words(r))
        }
        (Change::Merged, _) => format!("merged with {who}'s"),
        (Change::StrAppended, _) => format!("{who} appended to it"),
        _ => format!("{who}: {}", change.describe()),
    }
}

/// `; `-separated words for `steps` (each part's decision once), a run of
/// [`RUN_FROM`] or more consecutive parts with one decision as a range.
fn push_later<'s>(c: &mut String, steps: impl Iterator<Item = &'s Step>) {
    let flush = |c: &mut String, run: Option<(usize, usize, Change)>| {
        let Some((first, last, change)) = run else {
            return;
        };
        if last - first + 1 >= RUN_FROM {
            c.push_str("; ");
            c.push_str(&later_words(Who::Run(first, last), change));
        } else {
            for p in first..=last {
                c.push_str("; ");
                c.push_str(&later_words(Who::One(p), change));
            }
        }
    };
    let mut run: Option<(usize, usize, Change)> = None;
    for s in steps {
        match &mut run {
            Some((_, last, change)) if *change == s.change && s.part == *last + 1 => {
                *last = s.part;
            }
            _ => {
                flush(c, run.take());
                run = Some((s.part, s.part, s.change));
            }
        }
    }
    flush(c, run);
}

/// Pushes an entry's comment: where its value came from and what each part
/// did to it.
fn push_comment(c: &mut String, ex: &Explanation, e: &Entry) {
    match (&e.origin, e.kind) {
        (_, OriginKind::Concat) => {
            c.push_str("str append of ");
            for (i, o) in e.contributions.iter().enumerate() {
                if i > 0 {
                    c.push_str(" + ");
                }
                push_place(c, ex, o);
            }
        }
        (Some(o), OriginKind::Element) => {
            c.push_str("a character of ");
            push_place(c, ex, o);
        }
        (Some(o), _) => push_place(c, ex, o),
        (None, _) => c.push_str("built by the merge"),
    }
    if let Some(s) = &e.placed
        && e.kind != OriginKind::Concat
    {
        c.push(' ');
        push_step_words(c, s, e.origin.map(|o| o.part));
    }
    if e.later.is_empty() {
        return;
    }
    // Hashed: a list that thousands of parts appended to has as many
    // later steps, and a scan of those seen for each was quadratic.
    let mut seen: HashSet<(usize, Change)> = HashSet::new();
    let later = e.later.iter().filter(|s| {
        // The contributions already name every appending part.
        !(e.kind == OriginKind::Concat && s.change == Change::StrAppended)
            && seen.insert((s.part, s.change))
    });
    push_later(c, later);
}

#[cfg(test)]
fn left(e: &Entry) -> String {
    let mut s = String::new();
    push_left(&mut s, e.depth, e.key.as_ref(), &e.value);
    s
}

/// Pushes the YAML an entry's line starts with: its key or dash, and its
/// value unless children follow.
fn push_left(c: &mut String, depth: usize, key: Option<&Node>, value: &Node) {
    for _ in 0..depth {
        c.push_str("  ");
    }
    match key {
        Some(k) => {
            push_inline(c, k);
            c.push(':');
        }
        None => c.push('-'),
    }
    if !shows_children(value) {
        let at = c.len();
        c.push(' ');
        push_inline(c, value);
        // An empty inline text writes nothing after the key or dash.
        if c.len() == at + 1 {
            c.truncate(at);
        }
    }
}

/// Pushes [`inline`], without a `String` for a string written as itself.
fn push_inline(c: &mut String, n: &Node) {
    match n.value() {
        Value::Str(s) if s.as_str().is_some_and(crate::yaml::writes_as_itself) => {
            c.push_str(s.as_str().unwrap_or_default());
        }
        _ => c.push_str(&inline(n)),
    }
}

/// The width [`push_left`] writes, in code points, without making the text when the key and
/// value are written as themselves.
fn left_width(depth: usize, key: Option<&Node>, value: &Node) -> usize {
    let tail = if shows_children(value) {
        0
    } else {
        inline_width(value)
    };
    let head = key.map_or(1, |k| inline_width(k) + 1);
    2 * depth + head + if tail == 0 { 0 } else { 1 + tail }
}

/// `inline(n).chars().count()`.
fn inline_width(n: &Node) -> usize {
    match n.value() {
        Value::Str(s) => match s.as_str() {
            Some(t) if crate::yaml::writes_as_itself(t) => t.chars().count(),
            _ => inline(n).chars().count(),
        },
        _ => inline(n).chars().count(),
    }
}

/// Where the comments start: after the widest left side that is at most
/// [`COMMENT_COLUMN`] wide. It walks the config itself, not its entries: the
/// widths need no history, and a million-item list's entries were the
/// cost of the text view.
fn comment_column(root: &Node) -> usize {
    let mut width = 0;
    let mut stack = vec![(root, 0usize)];
    while let Some((node, depth)) = stack.pop() {
        let mut take = |key: Option<&Node>, value| {
            let w = left_width(depth, key, value);
            if w <= COMMENT_COLUMN {
                width = width.max(w);
            }
        };
        // Only values with children are stacked: a huge list's items were
        // a stack entry each, fresh memory for nothing.
        match node.value() {
            Value::Map(m) => {
                for (k, v) in m.iter() {
                    take(Some(k), v);
                    if shows_children(v) {
                        stack.push((v, depth + 1));
                    }
                }
            }
            Value::Seq(s) | Value::Tuple(s) => {
                for i in s.iter() {
                    take(None, i);
                    if shows_children(i) {
                        stack.push((i, depth + 1));
                    }
                }
            }
            _ => {}
        }
        if width == COMMENT_COLUMN {
            break;
        }
    }
    width
}

/// The explanation as text: the merged config (YAML, each key and item
/// followed by `# part N (FILENAME):LINE:COL decision`), then per part what
/// it did, then the parts left out.
pub fn to_text(ex: &Explanation) -> String {
    let mut out = String::new();
    // Writing into a `String` cannot fail.
    let _ = write_text(ex, &mut out);
    out
}

/// [`to_text`] written to `out` as it is made (a large payload's text is
/// not held whole).
pub fn write_text<W: Write>(ex: &Explanation, out: &mut W) -> std::fmt::Result {
    out.write_str("#cloud-config\n")?;
    if !ex.has_config {
        out.write_str("# (no cloud-config part: nothing is merged)\n")?;
    } else if ex.entries().next().is_none() {
        out.write_str("{}\n")?;
    }
    // Items of a list under a key sit at the key's indentation, as the
    // dumper writes them; nested lists indent.
    // The entries are made as they are written, not held: a million-item
    // list's entries and left sides were ~250 MB.
    let width = ex.config().map_or(0, comment_column);
    // One line buffer for all: a huge list's million lines were a `String`
    // or more each.
    let mut line = String::new();
    for e in ex.text_entries() {
        line.clear();
        push_left(&mut line, e.depth, e.key.as_ref(), &e.value);
        for _ in line.chars().count()..width {
            line.push(' ');
        }
        line.push_str("  # ");
        push_comment(&mut line, ex, &e);
        line.push('\n');
        out.write_str(&line)?;
    }
    out.write_str("\n# Parts\n")?;
    for p in &ex.parts {
        write!(
            out,
            "# part {} ({}) {}",
            p.number, p.filename, p.content_type
        )?;
        writeln!(out, "{}", status_words(p))?;
        if p.status == PartStatus::Merged && p.changes.is_empty() {
            out.write_str("#   (changed nothing)\n")?;
        }
        for c in &p.changes {
            let mut line = format!("#   {:<12} {}", c.change.code(), c.path);
            if let Some(op) = &c.op {
                line = format!("#   {:<12} {op} {}", c.change.code(), c.path);
            }
            match c.change {
                Change::KeptOld(r) => {
                    let _ = write!(line, " ({}", keep_words(r));
                    if let Some(o) = c.other_part {
                        let _ = write!(line, ": part {o}'s value stays");
                    }
                    line.push(')');
                }
                Change::Replaced | Change::Deleted => {
                    if let Some(o) = c.other_part {
                        let _ = write!(line, " (part {o}'s value)");
                    }
                }
                Change::Truncated { .. } => {
                    let _ = write!(line, " ({})", c.change.describe());
                }
                _ => {}
            }
            if let Some(a) = c.at {
                let _ = write!(line, " at {}:{}", a.line, a.column);
            }
            out.write_str(&line)?;
            out.write_char('\n')?;
        }
    }
    for f in &ex.filtered_out {
        writeln!(out, "# {f}: left out by the launch-index filter")?;
    }
    Ok(())
}

/// What cloud-init does with a part, in words, after its name and type
/// (`: merged with … (its Merge-Type)`, ` (Merge-Type: …): DROPPED, …`).
pub fn status_words(p: &PartSummary) -> String {
    match &p.status {
        PartStatus::Merged => match &p.mergers {
            Some(m) if p.merge_type.is_some() => format!(": merged with {m} (its Merge-Type)"),
            Some(m) => format!(": merged with {m} (no Merge-Type header)"),
            None => ": merged".to_owned(),
        },
        PartStatus::Dropped(r) => {
            let header = p
                .merge_type
                .as_ref()
                .map(|m| format!(" (Merge-Type: {m})"))
                .unwrap_or_default();
            format!("{header}: DROPPED, cloud-init skips it: {r}")
        }
        PartStatus::WouldRun => ": not a config part (cloud-init runs it)".to_owned(),
        PartStatus::Ignored(r) => format!(": ignored: {r}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The comment column taken from the config alone is the one the
    /// entries' left sides give: keys and items of every kind, widths around
    /// [`COMMENT_COLUMN`], empty strings and containers, wide characters.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn comment_column_is_the_entries_widest_left_side() {
        use crate::explain::{ExplainLimits, explain};
        use crate::userdata::{NoIncludes, UserDataOptions};
        let docs = [
            "a: 1\n",
            "a: ''\nb: []\nc: {}\n'': x\n",
            "runcmd:\n  - [echo, 'yes', null, 1.5]\n  - ~\n  - {k: v}\n",
            "k: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
            "k: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
            "k: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\nj: 2\n",
            "é: ünïcødé wïdé 文字\nnest:\n  deeper:\n    - - - x: 'multi\n\n        line'\n",
            "? [a, b]\n: 1\n? {k: v}\n: 2\n3: true\n",
            "anchors: &a [1, 2, {x: y}]\nagain: *a\n",
            "b: !!binary aGVsbG8=\nt: 2001-12-14\nf: .inf\n",
        ];
        for d in docs {
            let payload = format!("#cloud-config\n{d}");
            let (_, ex) = explain(
                payload.as_bytes(),
                &UserDataOptions::default(),
                &NoIncludes,
                ExplainLimits::default(),
            )
            .unwrap();
            let from_entries = ex
                .entries()
                .map(|e| left(&e).chars().count())
                .filter(|w| *w <= COMMENT_COLUMN)
                .max()
                .unwrap_or(0);
            assert_eq!(ex.config().map_or(0, comment_column), from_entries, "{d}");
            for e in ex.entries() {
                if let Some(k) = &e.key {
                    assert_eq!(inline_width(k), inline(k).chars().count(), "{d}");
                }
                let w = left_width(e.depth, e.key.as_ref(), &e.value);
                assert_eq!(w, left(&e).chars().count(), "{d}: {}", e.path);
            }
        }
    }

    /// The shortcut for strings writes what the dump writes, on strings
    /// built from the characters it admits and the ones it refuses.
    #[test]
    // Test code: an out-of-range index is a failed test.
    #[allow(clippy::indexing_slicing)]
    fn strings_written_as_themselves_are_what_the_dump_writes() {
        let alphabet: Vec<char> = "aynNoTf0159_./-=+ :#,'~xe".chars().collect();
        let mut seed = 0x2545_f491_u64;
        let mut shortcut = 0;
        for i in 0..60_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = 1 + (seed % 7) as usize;
            let s: String = (0..len)
                .map(|k| alphabet[((seed >> (k * 5 + 3)) as usize + i) % alphabet.len()])
                .collect();
            let n = Node::str(&s);
            if crate::yaml::writes_as_itself(&s) {
                shortcut += 1;
            }
            assert_eq!(inline(&n), inline_dumped(&n), "{s:?}");
        }
        for s in [
            "yes",
            "No",
            "null",
            "1_000",
            "0o17",
            "1e3",
            "2001-12-14",
            "=",
            ".5",
            "Infinity",
            "a  b",
            "/etc/x.conf",
            "echo delta-0-0",
        ] {
            let n = Node::str(s);
            assert_eq!(inline(&n), inline_dumped(&n), "{s:?}");
        }
        assert!(shortcut > 1_000, "{shortcut}");
    }

    fn step(part: usize, change: Change) -> Step {
        Step {
            part,
            change,
            replaced_part: None,
            inherited: false,
        }
    }

    fn words(steps: &[Step]) -> String {
        let mut c = String::new();
        push_later(&mut c, steps.iter());
        c
    }

    /// Three or more consecutive parts with one decision read as a range;
    /// two, a gap, or another decision between them end it.
    #[test]
    fn consecutive_parts_with_one_decision_are_a_range() {
        use Change::{Appended, KeptOld, Merged};
        let ignored = KeptOld(crate::merge::KeepReason::NotRecursed);
        let steps: Vec<Step> = [(2, Appended), (3, Appended), (4, Appended), (5, Appended)]
            .into_iter()
            .chain([
                (6, ignored),
                (7, ignored),
                (9, ignored),
                (10, ignored),
                (11, ignored),
            ])
            .chain([(12, Merged), (13, Appended), (14, Merged)])
            .map(|(p, c)| step(p, c))
            .collect();
        assert_eq!(
            words(&steps),
            "; parts 2-5: appended\
             ; part 6's value ignored (dict(no_replace))\
             ; part 7's value ignored (dict(no_replace))\
             ; parts 9-11's values ignored (dict(no_replace))\
             ; merged with part 12's; part 13: appended; merged with part 14's"
        );
        assert_eq!(words(&[]), "");
        assert_eq!(words(&[step(4, Appended)]), "; part 4: appended");
    }
}
