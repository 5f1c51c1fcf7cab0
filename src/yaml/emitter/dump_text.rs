//! `DumpText`: a document's text as written, in pieces or whole, and how much of it is kept ([`Keep`]).
//!
//! A large document written into one string grows it by doubling (a copy
//! of everything written and fresh pages each time), and a split dump's
//! halves are copied once more to be joined. Written in pieces, no byte is
//! copied after it is written: the caller writes the pieces out one after
//! the other. A caller that only needs to know whether the document can be
//! written keeps none of it.

/// How much of a document's text the emitter keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// All of it, in one string.
    Whole,
    /// All of it, in pieces of about this many bytes.
    Pieces(usize),
    /// Only what the split dump checks at its joins: the first piece (of
    /// about this many bytes) and the last few bytes; the length counts all.
    Nothing(usize),
}

impl Keep {
    /// The size of a piece (`None`: one string).
    pub(super) fn piece(self) -> Option<usize> {
        match self {
            Keep::Whole => None,
            Keep::Pieces(n) | Keep::Nothing(n) => Some(n.max(1)),
        }
    }
}

/// Bytes kept at the end of the text when a piece is dropped (the end of a
/// document, `\n...\n`, is checked where two are joined).
pub(super) const KEPT_TAIL: usize = 8;

/// A document's text: its pieces in order (UTF-8 each: a piece ends between
/// two nodes), and the length of all that was written (pieces dropped by
/// [`Keep::Nothing`] included).
#[derive(Debug, Default)]
pub(crate) struct DumpText {
    pub(crate) pieces: Vec<String>,
    pub(crate) len: usize,
}

impl DumpText {
    /// The text in one string (a copy only when it is in several pieces).
    pub(crate) fn into_string(mut self) -> String {
        if self.pieces.len() == 1 {
            return self.pieces.pop().unwrap_or_default();
        }
        self.pieces.concat()
    }

    /// Whether the text kept ends with `s`.
    pub(super) fn ends_with(&self, s: &str) -> bool {
        let mut want = s.as_bytes();
        for p in self.pieces.iter().rev() {
            let p = p.as_bytes();
            let n = want.len().min(p.len());
            let (rest, tail) = want.split_at(want.len() - n);
            if !p.ends_with(tail) {
                return false;
            }
            want = rest;
            if want.is_empty() {
                return true;
            }
        }
        want.is_empty()
    }

    /// Whether the text kept starts with `s` after its first `skip` bytes
    /// (checked in the first piece, which holds at least a piece's worth).
    pub(super) fn starts_with_after(&self, skip: usize, s: &str) -> bool {
        self.pieces
            .first()
            .and_then(|p| p.get(skip..))
            .is_some_and(|p| p.starts_with(s))
    }

    /// Remove `s` from the start (false, nothing removed, when the text
    /// does not start with it).
    pub(super) fn strip_start(&mut self, s: &str) -> bool {
        match self.pieces.first_mut() {
            Some(p) if p.starts_with(s) => {
                p.replace_range(..s.len(), "");
                self.len -= s.len();
                true
            }
            _ => false,
        }
    }

    /// Remove the last `n` bytes, all in the last piece (false, nothing
    /// removed, when they are not, or would split a character).
    pub(super) fn truncate_end(&mut self, n: usize) -> bool {
        match self.pieces.last_mut() {
            Some(p) if p.len() >= n && p.is_char_boundary(p.len() - n) => {
                p.truncate(p.len() - n);
                self.len -= n;
                true
            }
            _ => false,
        }
    }

    /// `other` written after this text.
    pub(super) fn append(&mut self, other: DumpText) {
        self.len += other.len;
        self.pieces
            .extend(other.pieces.into_iter().filter(|p| !p.is_empty()));
    }
}

#[cfg(test)]
mod tests {
    use super::super::{DumpError, DumpOptions, dump_after, dump_text, split_dump};
    use super::Keep;
    use crate::yaml::value::{Entries, Map, Node, Seq, Value, insert};

    fn list(n: usize) -> Node {
        let items = (0..n).map(|i| Node::str(&format!("item {i}"))).collect();
        Node::synthetic(Value::Seq(Seq::new(items)))
    }

    fn map(pairs: Vec<(&str, Node)>) -> Node {
        let mut e = Entries::default();
        for (k, v) in pairs {
            insert(&mut e, Node::str(k), v);
        }
        Node::synthetic(Value::Map(Map::new(e)))
    }

    /// A text kept in no piece is written to the same end as one kept
    /// whole: its length, or the same error, on one thread or two.
    #[test]
    fn nothing_kept_fails_where_whole_fails() {
        let mut deep = Node::str("leaf");
        for _ in 0..50 {
            deep = map(vec![("k", deep)]);
        }
        let doc = map(vec![("a", list(2000)), ("b", deep), ("c", list(3000))]);
        for base in [DumpOptions::cloud_init(), DumpOptions::readable()] {
            let len = dump_after("#head\n", &doc, &base, 0).map(|t| t.len());
            let Ok(full) = len else {
                unreachable!("the document is written");
            };
            for opts in [
                base.clone(),
                DumpOptions {
                    max_output_bytes: full / 2,
                    ..base.clone()
                },
                DumpOptions {
                    max_depth: 20,
                    ..base.clone()
                },
            ] {
                let whole = dump_after("#head\n", &doc, &opts, 0).map(|t| t.len());
                for keep in [Keep::Nothing(1), Keep::Nothing(100), Keep::Pieces(100)] {
                    let one = dump_text("#head\n", &doc, &opts, 0, None, keep).map(|t| t.len);
                    assert_eq!(one, whole, "{keep:?}");
                    let two = split_dump::dump_split("#head\n", &doc, &opts, 0, 0, None, keep);
                    if let Ok(len) = whole {
                        assert_eq!(two.map(|t| t.len), Some(len), "{keep:?}");
                    }
                }
                assert!(matches!(
                    whole,
                    Ok(_) | Err(DumpError::TooLarge(_) | DumpError::TooDeep(_))
                ));
            }
        }
    }
}
