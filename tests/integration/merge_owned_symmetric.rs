//! Symmetric mappings merged in place (`merge_owned_with`) agree with the copying merge (`merge_with`): value, events and errors, with `old` restored on error.

// Test harness: a failed unwrap is a failed test.

use cloudfold::merge::{
    DictMode, DictStrategy, Limits, MergeEvent, MergeObserver, Path, Precedence, Recurse, Rules,
    Strategy, UnifyStrategy, merge_owned_with, merge_with,
};
use cloudfold::yaml::typed_json::{WalkLimits, from_typed_json, to_typed_json};
use cloudfold::yaml::value::Node;
use serde_json::{Value as J, json};

const RECORD: Strategy = Strategy::Dict(DictStrategy {
    mode: DictMode::Symmetric,
    allow_delete: false,
    recurse: Recurse {
        dict: true,
        list: true,
        str: true,
    },
});
const UNIFY: Strategy = Strategy::Unify(UnifyStrategy {});

/// Mappings merge symmetrically, everything else unifies (unequal values
/// fail); a new string starting with `N`, `O` or `D` takes precedence as
/// new, old, or drops the key.
struct Sym;

impl Rules for Sym {
    fn strategy_for(&self, _path: &Path, old: &Node) -> Option<&Strategy> {
        Some(if old.as_map().is_some() {
            &RECORD
        } else {
            &UNIFY
        })
    }

    fn uses_path(&self) -> bool {
        true
    }

    fn precedence(&self, _path: &Path, _old: Option<&Node>, new: &Node) -> Precedence {
        match new.as_str().and_then(|s| s.chars().next()) {
            Some('N') => Precedence::New,
            Some('O') => Precedence::Old,
            Some('D') => Precedence::Drop,
            _ => Precedence::Merge,
        }
    }
}

fn j(n: &Node) -> J {
    to_typed_json(n, WalkLimits::default()).unwrap()
}

/// A tree of its own: every node unique, as a fold's accumulator is.
fn fresh(v: &J) -> Node {
    from_typed_json(v).unwrap()
}

/// Every event, as text (nothing of the trees kept).
#[derive(Default)]
struct Events(Vec<String>);

impl MergeObserver for Events {
    fn event(&mut self, e: &MergeEvent<'_>) {
        self.0.push(format!(
            "{} {:?} {:?} {:?}",
            e.path,
            e.decision,
            e.old.map(j),
            e.new.map(j)
        ));
    }
}

/// A small deterministic generator (xorshift).
struct Gen(u64);

impl Gen {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn value(&mut self, depth: usize) -> J {
        match self.next(if depth == 0 { 6 } else { 9 }) {
            0 => json!("x"),
            1 => json!("y"),
            2 => json!(["N", "O", "D", "Nz"][self.next(4) as usize]),
            3 => json!(self.next(3)),
            4 => json!(null),
            5 => json!([self.next(2)]),
            _ => self.map(depth - 1),
        }
    }

    fn map(&mut self, depth: usize) -> J {
        let mut m = serde_json::Map::new();
        for _ in 0..self.next(5) {
            let k = ["a", "b", "c", "d", "e"][self.next(5) as usize];
            m.insert(k.to_owned(), self.value(depth));
        }
        J::Object(m)
    }
}

/// One merge both ways: the same result, events and error; on error the
/// owned merge hands back `old` as it was.
fn agree(old: &J, new: &J, limits: &Limits) -> Option<J> {
    let (old_n, new_n) = (fresh(old), fresh(new));
    let mut copying = Events::default();
    let want = merge_with(&Sym, &old_n, &new_n, limits, &mut copying);
    drop(old_n);
    let mut in_place = Events::default();
    let got = merge_owned_with(&Sym, fresh(old), &new_n, limits, &mut in_place);
    assert_eq!(copying.0, in_place.0, "events of {old} & {new}");
    match (want, got) {
        (Ok(a), Ok(b)) => {
            assert_eq!(j(&a), j(&b), "{old} & {new}");
            Some(j(&b))
        }
        (Err(a), Err((b, back))) => {
            assert_eq!(a.to_string(), b.to_string(), "{old} & {new}");
            assert_eq!(&j(&back), old, "restored after {b}");
            None
        }
        (a, b) => panic!("{old} & {new}: copying {a:?}, in place {b:?}"),
    }
}

#[test]
fn in_place_symmetric_merges_agree_with_copying_ones() {
    let mut g = Gen(0x5EED_0042);
    let (mut merged, mut failed) = (0, 0);
    for round in 0..4000 {
        // Some merges run out of work half way (the charge is per key).
        let limits = Limits {
            max_work: if round % 5 == 0 { 12 } else { 1 << 20 },
            ..Limits::default()
        };
        let (old, new) = (g.map(3), g.map(3));
        match agree(&old, &new, &limits) {
            Some(_) => merged += 1,
            None => failed += 1,
        }
    }
    assert!(
        merged > 1000 && failed > 500,
        "{merged} merged, {failed} failed"
    );
}

#[test]
fn a_fold_of_many_layers_in_place_agrees() {
    // The accumulator stays owned from layer to layer, as the dialects fold.
    let mut g = Gen(0xF01D);
    for _ in 0..200 {
        let mut acc = g.map(3);
        for _ in 0..8 {
            let layer = g.map(3);
            match agree(&acc, &layer, &Limits::default()) {
                Some(next) => acc = next,
                None => break,
            }
        }
    }
}
