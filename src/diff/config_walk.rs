//! `ConfigWalk`: the walk over two merged configs that finds their [`ValueChange`]s.
//!
//! Mappings are compared key by key (a key matches only the same key:
//! `1` and `1.0` are one dict key to Python but are written differently);
//! lists are aligned item by item ([`super::align_symmetric`] on the items'
//! classes), so one inserted `runcmd` line is one addition. Within a run of
//! removed and inserted items, the first ones are paired and compared in
//! depth (a changed `write_files` entry shows as its changed field). A list
//! whose items are all scalars and share none with the other list changes
//! as a whole.

use super::alignment::{Budget, Run, align_symmetric};
use super::diff_error::DiffError;
use super::value_change::{ChangeKind, NotAtBoot, Place, ValueChange};
use super::value_classes::{MAX_DEPTH, Meter, ValueClasses, same, scalar_same};
use crate::merge::{Path, PathSeg};
use crate::yaml::Node;
use crate::yaml::value::{Map, Value};

/// The changes between two configs, and the lists aligned by position for
/// want of budget.
#[derive(Debug, Default)]
pub(crate) struct ConfigChanges {
    pub changes: Vec<ValueChange>,
    pub by_position: Vec<Path>,
}

pub(crate) struct ConfigWalk<'b> {
    classes: ValueClasses,
    meter: Meter,
    budget: &'b mut Budget,
    old_path: Vec<PathSeg>,
    new_path: Vec<PathSeg>,
    /// Why changes here make no difference at boot (under a hidden key).
    hidden: Option<NotAtBoot>,
    out: ConfigChanges,
    /// The containers entered, on each side (the innermost last).
    old_containers: Vec<Node>,
    new_containers: Vec<Node>,
}

/// The changes from `old` to `new` (`None`: no config at all on that side),
/// and what is left of `budget`. Nesting past `deep_stack`'s inline depth is
/// walked again on its large-stack thread (with the budget as it was).
pub(crate) fn diff_configs(
    old: Option<&Node>,
    new: Option<&Node>,
    max_nodes: usize,
    budget: Budget,
) -> Result<(ConfigChanges, Budget), DiffError> {
    crate::deep_stack::with_depth(
        MAX_DEPTH,
        |max_depth| {
            let mut budget = budget;
            let mut w = ConfigWalk {
                classes: ValueClasses::default(),
                meter: Meter::new(max_nodes, max_depth),
                budget: &mut budget,
                old_path: Vec::new(),
                new_path: Vec::new(),
                hidden: None,
                out: ConfigChanges::default(),
                old_containers: Vec::new(),
                new_containers: Vec::new(),
            };
            match (old, new) {
                (None, None) => {}
                (Some(a), None) => w.emit(ChangeKind::Removed, Place::Root, Some(a), None),
                (None, Some(b)) => w.emit(ChangeKind::Added, Place::Root, None, Some(b)),
                (Some(a), Some(b)) => w.compare(a, b, Place::Root, 0)?,
            }
            let out = w.out;
            Ok((out, budget))
        },
        |e| matches!(e, DiffError::TooDeep { limit } if *limit < MAX_DEPTH),
    )
}

fn is_scalar(n: &Node) -> bool {
    !matches!(
        n.value(),
        Value::Seq(_) | Value::Tuple(_) | Value::Map(_) | Value::Set(_)
    )
}

/// The top-level keys cloud-init pops when it reads `cloud-config.txt`
/// back: `merge_how`, and `merge_type` when `merge_how` is absent or null
/// (`mergers.dict_extract_mergers`).
fn hidden_at_root(m: &Map, key: &Node) -> bool {
    match key.as_str() {
        Some("merge_how") => true,
        Some("merge_type") => m.get_str("merge_how").is_none_or(Node::is_null),
        _ => false,
    }
}

impl ConfigWalk<'_> {
    fn emit(&mut self, kind: ChangeKind, place: Place, old: Option<&Node>, new: Option<&Node>) {
        let not_at_boot = match kind {
            ChangeKind::Retyped => Some(NotAtBoot::TupleAsList),
            ChangeKind::Reordered => Some(NotAtBoot::KeyOrder),
            _ => self.hidden,
        };
        self.out.changes.push(ValueChange {
            kind,
            place,
            old_parent: self.old_path.clone(),
            new_parent: self.new_path.clone(),
            old: old.cloned(),
            new: new.cloned(),
            in_set: false,
            not_at_boot,
            old_keys: Vec::new(),
            new_keys: Vec::new(),
            old_container: self.old_containers.last().cloned(),
            new_container: self.new_containers.last().cloned(),
            old_origin: None,
            new_origin: None,
            old_layer: None,
            new_layer: None,
        });
    }

    /// Run `f` inside the containers `old` and `new` at `place`.
    fn enter<T>(
        &mut self,
        place: &Place,
        old: &Node,
        new: &Node,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        self.old_containers.push(old.clone());
        self.new_containers.push(new.clone());
        let pushed = match place {
            Place::Key(k) => {
                self.old_path.push(PathSeg::Key(k.clone()));
                self.new_path.push(PathSeg::Key(k.clone()));
                true
            }
            Place::Index {
                old: Some(i),
                new: Some(j),
            } => {
                self.old_path.push(PathSeg::Index(*i));
                self.new_path.push(PathSeg::Index(*j));
                true
            }
            _ => false,
        };
        let r = f(self);
        if pushed {
            self.old_path.pop();
            self.new_path.pop();
        }
        self.old_containers.pop();
        self.new_containers.pop();
        r
    }

    fn compare(
        &mut self,
        old: &Node,
        new: &Node,
        place: Place,
        depth: usize,
    ) -> Result<(), DiffError> {
        if Node::ptr_eq(old, new) {
            return Ok(());
        }
        self.meter.visit(depth)?;
        if let Some(s) = scalar_same(old.value(), new.value()) {
            if !s {
                self.emit(ChangeKind::Changed, place, Some(old), Some(new));
            }
            return Ok(());
        }
        match (old.value(), new.value()) {
            (Value::Map(a), Value::Map(b)) => {
                let root = matches!(place, Place::Root);
                self.enter(&place, old, new, |w| {
                    w.mapping(old, new, a, b, false, root, depth + 1)
                })
            }
            (Value::Set(a), Value::Set(b)) => self.enter(&place, old, new, |w| {
                w.mapping(old, new, a, b, true, false, depth + 1)
            }),
            (Value::Seq(a) | Value::Tuple(a), Value::Seq(b) | Value::Tuple(b)) => {
                self.list(old, new, a.items(), b.items(), place, depth)
            }
            _ => {
                self.emit(ChangeKind::Changed, place, Some(old), Some(new));
                Ok(())
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn mapping(
        &mut self,
        old: &Node,
        new: &Node,
        a: &Map,
        b: &Map,
        is_set: bool,
        root: bool,
        depth: usize,
    ) -> Result<(), DiffError> {
        // Common keys in old's order and in new's; whether a key only one
        // side has comes before a common one (then the order differs too).
        let mut common_old: Vec<&Node> = Vec::new();
        let mut common_new: Vec<&Node> = Vec::new();
        let (mut removed_seen, mut removed_early) = (false, false);
        for (k, v) in a.iter() {
            let hidden_old = root && hidden_at_root(a, k);
            match b.get_key_value(k) {
                Some((k2, w)) if same(k, k2, &mut self.meter, depth)? => {
                    if removed_seen {
                        removed_early = true;
                    }
                    common_old.push(k);
                    if is_set {
                        continue;
                    }
                    let hidden_new = root && hidden_at_root(b, k2);
                    if hidden_old != hidden_new {
                        // Seen at boot on one side only: a change whatever the values.
                        self.emit(ChangeKind::Changed, Place::Key(k.clone()), Some(v), Some(w));
                        continue;
                    }
                    let outer = self.hidden;
                    if hidden_old {
                        self.hidden = Some(NotAtBoot::MergeKey);
                    }
                    let r = self.compare(v, w, Place::Key(k.clone()), depth);
                    self.hidden = outer;
                    r?;
                }
                _ => {
                    removed_seen = true;
                    self.entry(ChangeKind::Removed, k, v, is_set, hidden_old);
                }
            }
        }
        let (mut added_seen, mut added_early) = (false, false);
        for (k, w) in b.iter() {
            match a.get_key_value(k) {
                Some((k1, _)) if same(k1, k, &mut self.meter, depth)? => {
                    if added_seen {
                        added_early = true;
                    }
                    common_new.push(k);
                }
                _ => {
                    added_seen = true;
                    let hidden_new = root && hidden_at_root(b, k);
                    self.entry(ChangeKind::Added, k, w, is_set, hidden_new);
                }
            }
        }
        let mut reordered = removed_early || added_early;
        if !reordered {
            for (p, q) in common_old.iter().zip(&common_new) {
                if !same(p, q, &mut self.meter, depth)? {
                    reordered = true;
                    break;
                }
            }
        }
        if reordered {
            self.emit(
                ChangeKind::Reordered,
                Place::Container,
                Some(old),
                Some(new),
            );
            if let Some(c) = self.out.changes.last_mut() {
                c.in_set = is_set;
                c.old_keys = a.keys().cloned().collect();
                c.new_keys = b.keys().cloned().collect();
            }
        }
        Ok(())
    }

    /// An entry only one side has (`value` is that side's).
    fn entry(&mut self, kind: ChangeKind, key: &Node, value: &Node, is_set: bool, hidden: bool) {
        let (old, new) = match (kind, is_set) {
            (_, true) => (None, None),
            (ChangeKind::Removed, false) => (Some(value), None),
            _ => (None, Some(value)),
        };
        let outer = self.hidden;
        if hidden {
            self.hidden = Some(NotAtBoot::MergeKey);
        }
        self.emit(kind, Place::Key(key.clone()), old, new);
        self.hidden = outer;
        if let Some(c) = self.out.changes.last_mut() {
            c.in_set = is_set;
        }
    }

    fn list(
        &mut self,
        old: &Node,
        new: &Node,
        a: &[Node],
        b: &[Node],
        place: Place,
        depth: usize,
    ) -> Result<(), DiffError> {
        let retyped =
            matches!(old.value(), Value::Tuple(_)) != matches!(new.value(), Value::Tuple(_));
        let (n, m) = (a.len(), b.len());
        let mut p = 0;
        while let (Some(x), Some(y)) = (a.get(p), b.get(p)) {
            if !self.same_item(x, y, depth + 1)? {
                break;
            }
            p += 1;
        }
        let mut s = 0;
        while s < n.min(m) - p
            && let (Some(x), Some(y)) = (a.get(n - 1 - s), b.get(m - 1 - s))
        {
            if !self.same_item(x, y, depth + 1)? {
                break;
            }
            s += 1;
        }
        let (ma, mb) = (
            a.get(p..n - s).unwrap_or_default(),
            b.get(p..m - s).unwrap_or_default(),
        );
        if ma.is_empty() && mb.is_empty() {
            if retyped {
                self.enter(&place, old, new, |w| {
                    w.emit(ChangeKind::Retyped, Place::Container, Some(old), Some(new));
                });
            }
            return Ok(());
        }
        let numbered = self.classes.number(ma, mb, &mut self.meter, depth + 1)?;
        // Class numbers are dense from 0: a flag per class says whether `a` has it.
        let shared = {
            let mut in_a = vec![false; numbered.a.len() + numbered.b.len()];
            for &c in &numbered.a {
                if let Some(f) = in_a.get_mut(c as usize) {
                    *f = true;
                }
            }
            numbered
                .b
                .iter()
                .any(|&c| in_a.get(c as usize).copied().unwrap_or(false))
        };
        if !shared
            && ma.len() == n
            && mb.len() == m
            && a.iter().all(is_scalar)
            && b.iter().all(is_scalar)
        {
            self.emit(ChangeKind::Changed, place, Some(old), Some(new));
            return Ok(());
        }
        self.enter(&place, old, new, |w| {
            if retyped {
                w.emit(ChangeKind::Retyped, Place::Container, Some(old), Some(new));
            }
            let runs = if shared {
                let was = w.budget.exhausted;
                let runs = align_symmetric(
                    &numbered.a,
                    &numbered.b,
                    &numbered.a_fp,
                    &numbered.b_fp,
                    w.budget,
                );
                if w.budget.exhausted && !was {
                    w.out
                        .by_position
                        .push(Path::from_segments(w.new_path.clone()));
                }
                runs
            } else {
                vec![
                    Run::Removed {
                        old: 0,
                        len: ma.len(),
                    },
                    Run::Inserted {
                        new: 0,
                        len: mb.len(),
                    },
                ]
            };
            w.hunks(&runs, ma, mb, p, depth)
        })
    }

    /// Whether two list items are the same: their fingerprints first (memoized,
    /// so a deep difference is not walked again at every level above it), then
    /// in full.
    fn same_item(&mut self, x: &Node, y: &Node, depth: usize) -> Result<bool, DiffError> {
        if Node::ptr_eq(x, y) {
            return Ok(true);
        }
        let fx = self.classes.fingerprint(x, &mut self.meter, depth)?;
        let fy = self.classes.fingerprint(y, &mut self.meter, depth)?;
        Ok(fx == fy && same(x, y, &mut self.meter, depth)?)
    }

    /// Walk an edit script of the middle of two lists (`offset` items before
    /// it on both sides): pair the removed and inserted items of each hunk.
    fn hunks(
        &mut self,
        runs: &[Run],
        a: &[Node],
        b: &[Node],
        offset: usize,
        depth: usize,
    ) -> Result<(), DiffError> {
        let mut removed: Vec<usize> = Vec::new();
        let mut inserted: Vec<usize> = Vec::new();
        for run in runs.iter().chain(std::iter::once(&Run::Same {
            old: 0,
            new: 0,
            len: 0,
        })) {
            match *run {
                Run::Removed { old, len } => removed.extend(old..old + len),
                Run::Inserted { new, len } => inserted.extend(new..new + len),
                Run::Same { .. } => {
                    let pairs = removed.len().min(inserted.len());
                    for (&i, &j) in removed.iter().zip(&inserted) {
                        if let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
                            let place = Place::Index {
                                old: Some(offset + i),
                                new: Some(offset + j),
                            };
                            self.compare(x, y, place, depth + 1)?;
                        }
                    }
                    for &i in removed.get(pairs..).unwrap_or_default() {
                        let place = Place::Index {
                            old: Some(offset + i),
                            new: None,
                        };
                        self.emit(ChangeKind::Removed, place, a.get(i), None);
                    }
                    for &j in inserted.get(pairs..).unwrap_or_default() {
                        let place = Place::Index {
                            old: None,
                            new: Some(offset + j),
                        };
                        self.emit(ChangeKind::Added, place, None, b.get(j));
                    }
                    removed.clear();
                    inserted.clear();
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::{LoadOptions, load};

    fn changes(old: &str, new: &str) -> Vec<(ChangeKind, String, bool)> {
        let l = |t: &str| load(t, &LoadOptions::default()).unwrap();
        let (a, b) = (l(old), l(new));
        diff_configs(a.as_ref(), b.as_ref(), 100_000, Budget::new(1_000_000))
            .unwrap()
            .0
            .changes
            .iter()
            .map(|c| (c.kind, c.path().to_string(), c.at_boot()))
            .collect()
    }

    use ChangeKind::{Added, Changed, Removed, Reordered, Retyped};

    /// Python's `==` calls these equal; cloud-config.txt and the modules do not.
    #[test]
    fn values_differ_by_type_and_bits() {
        for (a, b) in [
            ("1", "1.0"),
            ("1", "true"),
            ("1", "'1'"),
            ("0.0", "-0.0"),
            ("2001-12-14", "'2001-12-14'"),
            ("2001-12-14t21:59:43.10-05:00", "2001-12-15 2:59:43.10"),
            ("!!binary aGk=", "hi"),
            (
                "123456789012345678901234567890",
                "123456789012345678901234567891",
            ),
            ("~", "''"),
        ] {
            assert_eq!(
                changes(&format!("x: {a}\n"), &format!("x: {b}\n")),
                [(Changed, "$.x".to_owned(), true)],
                "{a} vs {b}"
            );
        }
        for same in [
            "123456789012345678901234567890",
            ".nan",
            "2001-12-14t21:59:43.10-05:00",
        ] {
            assert!(
                changes(&format!("x: {same}\n"), &format!("x: {same}\n")).is_empty(),
                "{same}"
            );
        }
        // Two NaNs load as one value back from cloud-config.txt (`.nan`).
        assert!(changes("x: .nan\n", "x: !!float nan\n").is_empty());
    }

    #[test]
    fn an_inserted_item_is_one_addition() {
        let old = "runcmd: [a, b, c, d]\n";
        let new = "runcmd: [a, b, x, c, d]\n";
        assert_eq!(changes(old, new), [(Added, "$.runcmd[2]".to_owned(), true)]);
        assert_eq!(
            changes(new, old),
            [(Removed, "$.runcmd[2]".to_owned(), true)]
        );
        // Nothing in common, all scalars: the list as a whole.
        assert_eq!(
            changes("runcmd: [a, b]\n", "runcmd: [c]\n"),
            [(Changed, "$.runcmd".to_owned(), true)]
        );
        // A changed field of a list item, not the item.
        assert_eq!(
            changes(
                "write_files: [{path: /a, content: x}, {path: /b}]\n",
                "write_files: [{path: /a, content: y}, {path: /b}]\n"
            ),
            [(Changed, "$.write_files[0].content".to_owned(), true)]
        );
    }

    #[test]
    fn what_the_modules_cannot_see() {
        assert_eq!(
            changes("a: 1\nb: 2\n", "b: 2\na: 1\n"),
            [(Reordered, "$".to_owned(), false)]
        );
        // `!!omap` items are tuples; a list of lists is written alike.
        assert_eq!(
            changes("x: !!omap [{a: 1}]\n", "x: [[a, 1]]\n"),
            [(Retyped, "$.x[0]".to_owned(), false)]
        );
        // (A removed key before a kept one also reorders: the other way round
        // the key comes back at the end.)
        assert_eq!(
            changes("a: 1\nmerge_type: 'list(append)'\n", "a: 1\n"),
            [(Removed, "$.merge_type".to_owned(), false)]
        );
        // Seen when merge_how is there too (only merge_how is popped).
        assert_eq!(
            changes(
                "merge_how: x\nmerge_type: y\n",
                "merge_how: x\nmerge_type: z\n"
            ),
            [(Changed, "$.merge_type".to_owned(), true)]
        );
        assert_eq!(
            changes("s: !!set {a, b}\n", "s: !!set {a, c}\n"),
            [
                (Removed, "$.s.b".to_owned(), true),
                (Added, "$.s.c".to_owned(), true)
            ]
        );
        // Python-equal keys written differently: one removed, one added.
        assert_eq!(
            changes("1: a\n", "1.0: a\n"),
            [
                (Removed, "$[1]".to_owned(), true),
                (Added, "$[1.0]".to_owned(), true)
            ]
        );
    }

    /// Deep nesting on a small caller stack: the walk moves to the library's deep-stack thread.
    #[test]
    fn deep_configs_on_a_small_stack() {
        let nest = |leaf: &str| format!("x: {}{leaf}{}\n", "[".repeat(400), "]".repeat(400));
        let (old, new) = (nest("1"), nest("2"));
        let got = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || changes(&old, &new))
            .unwrap()
            .join()
            .unwrap();
        // The innermost lists share no item: changed as a whole.
        let path = format!("$.x{}", "[0]".repeat(399));
        assert_eq!(got, [(Changed, path, true)]);
    }
}
