//! `Explanation` and `explain`: where every key and item of the merged config came from, and what each part did.

use super::change::{Change, Step};
use super::history::{Run, Slot, part_of};
use super::locator::Locator;
use super::node_set::NodeSet;
use super::recorder::{PartRecord, Recorder};
use crate::merge::{Decision, PathSeg};
use crate::python::py_is_space;
use crate::source::Span;
use crate::userdata::{
    FoldText, Folded, IncludeResolver, PartOutcome, PartReport, Payload, RenderError,
    UserDataOptions, render_observed_writing,
};
use crate::yaml::Node;
use crate::yaml::value::{PyStr, Value};
use std::borrow::Cow;
use std::fmt::Write as _;

/// Bounds on walking the merged config.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExplainLimits {
    /// Most nodes visited when walking the merged config; a value shared by
    /// aliases is visited (and explained) at every place it occurs.
    pub max_nodes: usize,
}

impl Default for ExplainLimits {
    fn default() -> Self {
        ExplainLimits { max_nodes: 200_000 }
    }
}

/// Why there is no explanation.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ExplainError {
    /// The fold itself failed.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// The merged config has more nodes than the walk may visit (a huge config, or an alias bomb).
    #[error(
        "the merged config has more than {limit} nodes, an alias's value counted at each place it is used (raise the limit with --max-nodes)"
    )]
    TooManyNodes {
        /// The limit ([`ExplainLimits::max_nodes`]).
        limit: usize,
    },
}

impl ExplainError {
    /// Whether this is one of cloudfold's own safety limits (raised with the flag its message
    /// names), not a failure cloud-init would have.
    pub fn is_limit(&self) -> bool {
        match self {
            ExplainError::Render(e) => e.is_limit(),
            ExplainError::TooManyNodes { .. } => true,
        }
    }
}

/// A position in a part's decoded text, 1-based (lines count `\n`, `\r\n`
/// and the other YAML line breaks; columns count code points).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// Where a value was read: a part and a range of its decoded text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    /// 1-based part number (handler order).
    pub part: usize,
    /// First position.
    pub start: Position,
    /// Position just after the value.
    pub end: Position,
}

/// How the value relates to the source value at its origin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OriginKind {
    /// It is that value, unchanged.
    Whole,
    /// A container the merge built from the one at the origin (items or keys
    /// added, replaced, removed since).
    Container,
    /// A string `str(append)` built: the concatenation of the contributions.
    Concat,
    /// A character (or byte value) of the string at the origin, which a list
    /// merger iterated.
    Element,
}

impl OriginKind {
    /// A stable machine name.
    pub fn code(self) -> &'static str {
        match self {
            OriginKind::Whole => "whole",
            OriginKind::Container => "container",
            OriginKind::Concat => "concat",
            OriginKind::Element => "element",
        }
    }
}

/// One key or list item of the merged config.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its logical path (`$.runcmd[2]`).
    pub path: String,
    /// Nesting depth (top-level keys: 0).
    pub depth: usize,
    /// The key, for a mapping entry.
    pub key: Option<Node>,
    /// The index, for a list item.
    pub index: Option<usize>,
    /// The merged value.
    pub value: Node,
    /// Where the key was read.
    pub key_origin: Option<Origin>,
    /// Where the value was read (`None`: built by cloudfold or cloud-init).
    pub origin: Option<Origin>,
    /// How the value relates to its origin.
    pub kind: OriginKind,
    /// For [`OriginKind::Concat`]: the strings joined, in order.
    pub contributions: Vec<Origin>,
    /// The decision that put the value here.
    pub placed: Option<Step>,
    /// What later parts did to it (or tried to).
    pub later: Vec<Step>,
}

impl Entry {
    /// Whether the value is a container shown with child entries.
    pub fn has_children(&self) -> bool {
        shows_children(&self.value)
    }
}

/// Whether `value` is a container shown with child entries.
pub(crate) fn shows_children(value: &Node) -> bool {
    match value.value() {
        Value::Map(m) => !m.is_empty(),
        Value::Seq(s) | Value::Tuple(s) => !s.is_empty(),
        _ => false,
    }
}

/// What cloud-init does with a part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartStatus {
    /// Merged into the config.
    Merged,
    /// A cloud-config part cloud-init skips, and why.
    Dropped(String),
    /// Not a config part: a script, boothook or part-handler cloud-init runs.
    WouldRun,
    /// Ignored (unknown type, empty, an unrendered template), and why.
    Ignored(String),
}

impl PartStatus {
    /// A stable machine name.
    pub fn code(&self) -> &'static str {
        match self {
            PartStatus::Merged => "merged",
            PartStatus::Dropped(_) => "dropped",
            PartStatus::WouldRun => "would_run",
            PartStatus::Ignored(_) => "ignored",
        }
    }

    /// The reason, for dropped and ignored parts.
    pub fn reason(&self) -> Option<&str> {
        match self {
            PartStatus::Dropped(r) | PartStatus::Ignored(r) => Some(r),
            _ => None,
        }
    }
}

/// One thing a part did to the config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartChange {
    /// Where in the config (`$.runcmd`); a JSON pointer for a patch part.
    pub path: String,
    /// What.
    pub change: Change,
    /// Where the part's own value is, in this part.
    pub at: Option<Position>,
    /// For a replacement or a kept old value: the part the old value came from.
    pub other_part: Option<usize>,
    /// For a patch part: the operation (`add`, `remove`, …).
    pub op: Option<String>,
}

/// One part and what it did.
#[derive(Clone, Debug)]
pub struct PartSummary {
    /// 1-based number (handler order).
    pub number: usize,
    /// Filename (`part-NNN` when cloud-init assigned it).
    pub filename: String,
    /// Content type.
    pub content_type: String,
    /// The `Merge-Type` header the handler uses.
    pub merge_type: Option<String>,
    /// The mergers a merged YAML part used, as a canonical spec
    /// (`dict(replace)+list()+str()` when neither `merge_how` nor a header set them).
    pub mergers: Option<String>,
    /// What cloud-init does with it.
    pub status: PartStatus,
    /// What it changed, in merge order (merged cloud-config parts only).
    pub changes: Vec<PartChange>,
    /// A rendered jinja part: which template line wrote each place of the
    /// rendered text (origins point into the rendered text).
    pub template_lines: Option<crate::jinja::LineMap>,
}

impl PartSummary {
    /// The template line (header counted) that wrote the value at `o`, for a
    /// rendered jinja part.
    pub fn template_line(&self, o: &Origin) -> Option<usize> {
        self.template_lines
            .as_ref()
            .and_then(|m| m.template_line(o.start.line, o.start.column))
    }
}

/// The whole explanation.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The merged config and what is needed to explain its values, walked
    /// anew by each [`Explanation::entries`] (`None`: no config).
    walk: Option<EntryWalk>,
    /// Every part, in handler order.
    pub parts: Vec<PartSummary>,
    /// Parts the launch-index filter removed (their filenames).
    pub filtered_out: Vec<String>,
    /// Whether there is a config at all (some cloud-config part was handled).
    pub has_config: bool,
}

impl PartSummary {
    /// A part as the fold reported it, before its changes are known
    /// (`mergers` unset, `changes` empty).
    pub fn of(p: &PartReport) -> PartSummary {
        PartSummary {
            template_lines: match p.jinja.as_deref() {
                Some(crate::jinja::JinjaRender::Rendered { lines, .. }) => lines.clone(),
                _ => None,
            },
            number: p.number,
            filename: p.filename().into_owned(),
            content_type: p.content_type().to_owned(),
            merge_type: p.merge_type_header(),
            mergers: None,
            status: match &p.outcome {
                PartOutcome::Merged => PartStatus::Merged,
                PartOutcome::Rejected(r) => PartStatus::Dropped(r.to_string()),
                PartOutcome::WouldRun => PartStatus::WouldRun,
                PartOutcome::JinjaDropped => PartStatus::Ignored(match p.jinja.as_deref() {
                    Some(crate::jinja::JinjaRender::Dropped { why, .. }) => why.describe(),
                    Some(crate::jinja::JinjaRender::Unsupported(m)) => {
                        format!("a jinja template cloudfold cannot reproduce exactly: {m}")
                    }
                    Some(crate::jinja::JinjaRender::Limit(m)) => m.clone(),
                    _ => "a jinja template".to_owned(),
                }),
                PartOutcome::Unhandled => {
                    PartStatus::Ignored(format!("unhandled content type {}", p.content_type()))
                }
                PartOutcome::Empty => PartStatus::Ignored("empty part".to_owned()),
                PartOutcome::Excluded => {
                    PartStatus::Ignored("excluded by disabled_handlers".to_owned())
                }
            },
            changes: Vec::new(),
        }
    }
}

impl Explanation {
    /// The part with this 1-based number.
    pub fn part(&self, number: usize) -> Option<&PartSummary> {
        number.checked_sub(1).and_then(|i| self.parts.get(i))
    }

    /// The merged config (`None`: no cloud-config part was handled).
    pub(crate) fn config(&self) -> Option<&Node> {
        self.walk.as_ref().map(|w| &w.root)
    }

    /// Every key and item of the merged config, in document order, each made
    /// as it is taken: a million-item list is not held as a million entries
    /// (the walk's size was checked against [`ExplainLimits::max_nodes`]
    /// when the explanation was made).
    pub fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.walk_entries(true)
    }

    /// [`Explanation::entries`] with every `path` left empty: the text view
    /// does not show paths, and building one per entry was a fifth of its time.
    pub(crate) fn text_entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.walk_entries(false)
    }

    fn walk_entries(&self, named: bool) -> Entries<'_> {
        let stack = self
            .walk
            .as_ref()
            .and_then(|w| Frame::of(&w.root, "$", 0, Some(&w.history), None));
        Entries {
            walk: self.walk.as_ref(),
            stack: stack.into_iter().collect(),
            named,
        }
    }
}

/// Fold `payload` as [`crate::userdata::render`] does and explain the result: the
/// fold (its `cloud_config_txt` left empty: the explanation does not read it, and a
/// config `render` cannot write fails here too) and the explanation.
///
/// ```
/// use cloudfold::explain::{explain, ExplainLimits, OriginKind};
/// use cloudfold::userdata::{NoIncludes, UserDataOptions};
/// let payload = b"#cloud-config\nruncmd: [echo hi]\n";
/// let (_, ex) = explain(payload, &UserDataOptions::default(), &NoIncludes, ExplainLimits::default()).unwrap();
/// let item = ex.entries().find(|e| e.path == "$.runcmd[0]").unwrap();
/// assert_eq!(item.origin.unwrap().part, 1);
/// assert_eq!((item.origin.unwrap().start.line, item.origin.unwrap().start.column), (2, 10));
/// assert_eq!(item.kind, OriginKind::Whole);
/// ```
///
/// `payload` is borrowed (`&[u8]`, `&Vec<u8>`) or given away (`Vec<u8>`): a
/// payload given away that is one valid UTF-8 part becomes that part's text
/// rather than a copy of it (less memory to copy and to fault in).
pub fn explain<'a>(
    payload: impl Into<Cow<'a, [u8]>>,
    opts: &UserDataOptions,
    includes: &dyn IncludeResolver,
    limits: ExplainLimits,
) -> Result<(Folded, Explanation), ExplainError> {
    let mut rec = Recorder::default();
    // Values from rendered templates are placed by template line too.
    let with_lines;
    let opts = if opts.jinja_line_maps {
        opts
    } else {
        with_lines = UserDataOptions {
            jinja_line_maps: true,
            ..opts.clone()
        };
        &with_lines
    };
    // Nothing here reads cloud-config.txt: it is written only to find a dump
    // error (as `render` finds it), and none of it kept.
    let folded = render_observed_writing(payload, opts, includes, &mut rec, FoldText::Checked)?;
    let ex = build(&folded, &rec, limits)?;
    Ok((folded, ex))
}

/// The decoded text of a part, as the cloud-config handler reads it.
pub fn part_text(payload: &Payload) -> PyStr {
    match payload {
        Payload::Text(t) => t.clone(),
        Payload::Bytes(b) => PyStr::from_utf8_surrogateescape(b),
        Payload::None => PyStr::from(""),
    }
}

/// Line and column shift of a JSON patch part: its JSON is read after the
/// leading blanks and the `#cloud-config-jsonp` marker.
pub fn jsonp_shift(text: &PyStr) -> (u32, u32) {
    let text = text.to_string_lossy();
    let rest = text.trim_start_matches(py_is_space);
    let rest = rest.strip_prefix("#cloud-config-jsonp").unwrap_or(rest);
    let prefix = text.get(..text.len() - rest.len()).unwrap_or("");
    let lines = prefix.bytes().filter(|&b| b == b'\n').count();
    let last = prefix.rfind('\n').map_or(0, |i| i + 1);
    let cols = prefix.get(last..).map_or(0, |t| t.chars().count());
    (
        u32::try_from(lines).unwrap_or(u32::MAX),
        u32::try_from(cols).unwrap_or(u32::MAX),
    )
}

/// What places a value: its part and position, and whether it is a part's
/// own data.
#[derive(Clone, Debug)]
struct Sources {
    locator: Locator,
    /// Every node of every merged part's data.
    data: NodeSet,
}

impl Sources {
    fn origin(&self, span: Span) -> Option<Origin> {
        self.locator.origin(span)
    }

    fn is_patch_part(&self, part: usize) -> bool {
        self.locator.is_patch_part(part)
    }
}

struct Ctx<'a> {
    sources: Sources,
    records: &'a [PartRecord],
}

impl Ctx<'_> {
    fn origin(&self, span: Span) -> Option<Origin> {
        self.sources.origin(span)
    }

    fn is_patch_part(&self, part: usize) -> bool {
        self.sources.is_patch_part(part)
    }
}

/// The merged config with its history: all [`Explanation::entries`] needs.
#[derive(Clone, Debug)]
struct EntryWalk {
    root: Node,
    history: Slot,
    sources: Sources,
}

fn build(
    folded: &Folded,
    rec: &Recorder,
    limits: ExplainLimits,
) -> Result<Explanation, ExplainError> {
    let data = NodeSet::reachable(
        rec.parts
            .iter()
            .filter(|r| r.merged)
            .filter_map(|r| r.data.as_ref()),
    );
    let ctx = Ctx {
        sources: Sources {
            locator: Locator::new(folded),
            data,
        },
        records: &rec.parts,
    };
    let history = history(&ctx);
    let mut parts: Vec<PartSummary> = folded.parts.iter().map(PartSummary::of).collect();
    for r in ctx.records.iter().filter(|r| r.merged) {
        let Some(number) = part_of(r.source) else {
            continue;
        };
        let changes = if ctx.is_patch_part(number) {
            patch_changes(&ctx, number, r.data.as_ref())
        } else {
            merge_changes(&ctx, number, r)
        };
        if let Some(p) = number.checked_sub(1).and_then(|i| parts.get_mut(i)) {
            p.changes = changes;
            p.mergers.clone_from(&r.mergers);
        }
    }
    let walk = match &folded.config {
        Some(root) => {
            if count_entries(root, limits.max_nodes).is_none() {
                return Err(ExplainError::TooManyNodes {
                    limit: limits.max_nodes,
                });
            }
            Some(EntryWalk {
                root: root.clone(),
                history,
                sources: ctx.sources,
            })
        }
        None => None,
    };
    Ok(Explanation {
        walk,
        parts,
        filtered_out: folded
            .filtered_out
            .iter()
            .map(|(_, l)| l.filename.clone().unwrap_or_default())
            .collect(),
        has_config: folded.config.is_some(),
    })
}

/// The history of every position, replaying each merged part's decisions.
fn history(ctx: &Ctx<'_>) -> Slot {
    let mut root = Slot::default();
    for r in ctx.records.iter().filter(|r| r.merged) {
        let Some(number) = part_of(r.source) else {
            continue;
        };
        if ctx.is_patch_part(number) {
            for (_, pointer, from) in patch_ops(r.data.as_ref()) {
                if let Some(f) = from {
                    root.patched(&pointer_tokens(&f));
                }
                root.patched(&pointer_tokens(&pointer));
            }
        } else {
            for ev in &r.events {
                root.apply(number, ev);
            }
        }
    }
    root
}

/// The operations of a JSON patch document: (op, path, from).
fn patch_ops(patch: Option<&Node>) -> Vec<(String, String, Option<String>)> {
    let text = |m: &crate::yaml::value::Map, k: &str| {
        m.get_str(k).and_then(|v| match v.value() {
            Value::Str(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
    };
    let Some(ops) = patch.and_then(Node::as_seq) else {
        return Vec::new();
    };
    ops.iter()
        .filter_map(|op| {
            let m = op.as_map()?;
            Some((text(m, "op")?, text(m, "path")?, text(m, "from")))
        })
        .collect()
}

/// A JSON pointer's reference tokens (`~1` is `/`, `~0` is `~`).
fn pointer_tokens(p: &str) -> Vec<String> {
    p.split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

fn patch_changes(ctx: &Ctx<'_>, number: usize, patch: Option<&Node>) -> Vec<PartChange> {
    let mut out = Vec::new();
    let Some(ops) = patch.and_then(Node::as_seq) else {
        return out;
    };
    for (op_node, (op, path, _)) in ops.iter().zip(patch_ops(patch)) {
        if op == "test" {
            continue;
        }
        out.push(PartChange {
            path,
            change: Change::Patched,
            at: ctx.origin(op_node.span()).map(|o| o.start),
            other_part: None,
            op: Some(op),
        });
    }
    let _ = number;
    out
}

fn merge_changes(ctx: &Ctx<'_>, number: usize, r: &PartRecord) -> Vec<PartChange> {
    let mut out = Vec::new();
    for ev in &r.events {
        let at_index = matches!(ev.path.last(), Some(PathSeg::Index(_)));
        let change = match ev.decision {
            // Structure, and items of an overlay (the list's own entry says it).
            // Symmetric dialects only (cloud-init's mergers never conflict).
            Decision::Recursed | Decision::Conflict => continue,
            Decision::Replaced if at_index => continue,
            Decision::Added => Change::Added,
            Decision::Replaced => Change::Replaced,
            Decision::Appended if ev.old.as_ref().is_some_and(|o| o.is_str) => Change::StrAppended,
            Decision::Appended => Change::Appended,
            Decision::Prepended => Change::Prepended,
            Decision::OverlaidTruncated { old_len, new_len } => {
                Change::Truncated { old_len, new_len }
            }
            Decision::KeptOld(k) => Change::KeptOld(k),
            Decision::Deleted => Change::Deleted,
        };
        let at = ev
            .new
            .as_ref()
            .filter(|n| part_of(n.span.source) == Some(number))
            .and_then(|n| ctx.origin(n.span))
            .map(|o| o.start);
        let other_part = match change {
            Change::Replaced | Change::KeptOld(_) | Change::Deleted => {
                ev.old.as_ref().and_then(|o| part_of(o.span.source))
            }
            _ => None,
        };
        // A recursion's inner decision repeats the path: keep the last.
        if let Some(prev) = out.last()
            && let PartChange { path, .. } = prev
            && *path == ev.path_text
            && matches!(change, Change::KeptOld(_))
        {
            out.pop();
        }
        out.push(PartChange {
            path: ev.path_text.clone(),
            change,
            at,
            other_part,
            op: None,
        });
    }
    out
}

/// One key or item of the walk, about to become an [`Entry`].
struct Visit<'h> {
    node: Node,
    path: String,
    depth: usize,
    key: Option<Node>,
    index: Option<usize>,
    slot: Option<&'h Slot>,
    inherited: Option<Step>,
    element: bool,
}

/// A map or list whose keys or items the walk is taking, in order, one at a
/// time: a frame per open container rather than a pending visit per child
/// (a list of a million items queued a million visits, ~140 MB), holding the
/// container rather than a copy of its children (a huge list's copy was
/// fresh memory twice the size of the list's own item vector).
struct Frame<'h> {
    /// The map or list.
    container: Node,
    /// The index of the next child.
    next: usize,
    path: String,
    /// The children's depth.
    depth: usize,
    slot: Option<&'h Slot>,
    /// What the children inherit of the step that placed the container.
    inherit: Option<Step>,
    /// For a list: the run each item belongs to.
    runs: Vec<Option<&'h Run>>,
}

impl<'h> Frame<'h> {
    /// The frame of `node`'s keys or items (`None`: it has none).
    fn of(
        node: &Node,
        path: &str,
        depth: usize,
        slot: Option<&'h Slot>,
        placed: Option<Step>,
    ) -> Option<Frame<'h>> {
        let runs = match node.value() {
            Value::Map(m) if !m.is_empty() => Vec::new(),
            Value::Seq(s) | Value::Tuple(s) if !s.is_empty() => {
                slot.map(|sl| sl.runs_by_item(s.len())).unwrap_or_default()
            }
            _ => return None,
        };
        Some(Frame {
            container: node.clone(),
            next: 0,
            path: path.to_owned(),
            depth,
            slot,
            inherit: placed.map(|p| Step {
                inherited: true,
                ..p
            }),
            runs,
        })
    }

    /// The next key or item, with its path when `named`.
    fn next_visit(&mut self, named: bool) -> Option<Visit<'h>> {
        let i = self.next;
        let (key, node) = match self.container.value() {
            Value::Map(m) => m.get_index(i).map(|(k, v)| (Some(k.clone()), v.clone()))?,
            Value::Seq(s) | Value::Tuple(s) => (None, s.items().get(i)?.clone()),
            _ => return None,
        };
        self.next += 1;
        let parent = &self.path;
        // Sized once, not grown by `format!`'s guess (a huge list's million paths).
        let path = |seg: Seg<'_>| {
            let mut p = String::new();
            if named {
                p.reserve(parent.len() + 24);
                p.push_str(parent);
                match seg {
                    Seg::Key(k) => {
                        // Writing to a String does not fail.
                        let _ = write!(p, "{}", PathSeg::Key(k.clone()));
                    }
                    Seg::Index(i) => {
                        p.push('[');
                        p.push_str(itoa::Buffer::new().format(i));
                        p.push(']');
                    }
                }
            }
            p
        };
        Some(match key {
            Some(k) => Visit {
                node,
                path: path(Seg::Key(&k)),
                depth: self.depth,
                slot: self.slot.and_then(|s| s.key(&k)),
                key: Some(k),
                index: None,
                inherited: self.inherit.clone(),
                element: false,
            },
            None => {
                let run = self.runs.get(i).copied().flatten();
                let child = self.slot.and_then(|s| s.items.get(&i));
                Visit {
                    node,
                    path: path(Seg::Index(i)),
                    depth: self.depth,
                    key: None,
                    index: Some(i),
                    slot: child,
                    inherited: match run {
                        Some(r) => Some(Step {
                            part: r.part,
                            change: r.change,
                            replaced_part: None,
                            inherited: false,
                        }),
                        None => self.inherit.clone(),
                    },
                    element: run.is_some_and(|r| r.element) || child.is_some_and(|c| c.element),
                }
            }
        })
    }
}

/// The last step of a path [`Frame::next_visit`] writes (as [`PathSeg`]
/// displays it).
#[derive(Clone, Copy)]
enum Seg<'a> {
    Key(&'a Node),
    Index(usize),
}

/// How many entries the walk makes (`None` past `cap`): a value shared by
/// aliases counts at every place it occurs, as the walk visits it.
fn count_entries(root: &Node, cap: usize) -> Option<usize> {
    let mut n = 0usize;
    // Only containers are stacked: a huge list's items add nothing more.
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node.value() {
            Value::Map(m) => {
                n += m.len();
                stack.extend(m.iter().map(|(_, v)| v).filter(|v| shows_children(v)));
            }
            Value::Seq(s) | Value::Tuple(s) => {
                n += s.len();
                stack.extend(s.iter().filter(|i| shows_children(i)));
            }
            _ => {}
        }
        if n > cap {
            return None;
        }
    }
    Some(n)
}

/// The walk of [`Explanation::entries`]: a frame per open container.
struct Entries<'a> {
    walk: Option<&'a EntryWalk>,
    stack: Vec<Frame<'a>>,
    /// Whether entries carry their paths.
    named: bool,
}

impl Iterator for Entries<'_> {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        let src = &self.walk?.sources;
        let v = loop {
            let top = self.stack.last_mut()?;
            match top.next_visit(self.named) {
                Some(v) => break v,
                None => {
                    self.stack.pop();
                }
            }
        };
        let origin = src.origin(v.node.span());
        let concat = v.slot.map(|s| s.concat.as_slice()).unwrap_or_default();
        let is_container = matches!(
            v.node.value(),
            Value::Map(_) | Value::Seq(_) | Value::Tuple(_) | Value::Set(_)
        );
        let kind = if src.data.contains(&v.node) {
            OriginKind::Whole
        } else if !concat.is_empty() && matches!(v.node.value(), Value::Str(_)) {
            OriginKind::Concat
        } else if is_container && !v.element {
            OriginKind::Container
        } else {
            OriginKind::Element
        };
        let contributions = if kind == OriginKind::Concat {
            concat.iter().filter_map(|s| src.origin(*s)).collect()
        } else {
            Vec::new()
        };
        let (mut placed, later) = match v.slot.and_then(Slot::placing) {
            Some((i, step)) => (
                Some(step.clone()),
                v.slot
                    .map(|s| s.steps.get(i + 1..).unwrap_or_default().to_vec())
                    .unwrap_or_default(),
            ),
            None => (
                v.inherited.clone(),
                v.slot.map(|s| s.steps.clone()).unwrap_or_default(),
            ),
        };
        // Values a JSON patch brought have no merge decision: the patch put them.
        if let Some(o) = origin
            && src.is_patch_part(o.part)
            && kind != OriginKind::Container
            && placed.as_ref().is_none_or(|p| p.part != o.part)
        {
            placed = Some(Step {
                part: o.part,
                change: Change::Patched,
                replaced_part: None,
                inherited: false,
            });
        }
        // Its keys or items come next, before its siblings (document order).
        let children = Frame::of(&v.node, &v.path, v.depth + 1, v.slot, placed.clone());
        self.stack.extend(children);
        Some(Entry {
            path: v.path,
            depth: v.depth,
            key_origin: v.key.as_ref().and_then(|k| src.origin(k.span())),
            key: v.key,
            index: v.index,
            value: v.node,
            origin,
            kind,
            contributions,
            placed,
            later,
        })
    }
}
