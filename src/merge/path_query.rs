//! `PathQuery`: a logical path typed by a user or written by [`Path`](super::Path) (`$.write_files[0].path`), parsed, and looked up in a value tree.

use super::path::{Path, PathSeg};
use crate::yaml::value::{Node, Value, py_repr};
use std::fmt;

/// One step of a query, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// `.name` (or the leading `name` of a path without `$`).
    Name(String),
    /// `[…]`: the text between the brackets, as written (`0`, `'a b'`, `True`).
    Bracket(String),
}

/// A parsed logical path: `$`, `$.runcmd`, `$.write_files[0].path`,
/// `$['key with space']`, `$[1]` (as `Path` writes them), or the same
/// without the leading `$.` (`runcmd`, `write_files[0].path`).
///
/// A bracket selects a list item by index, or a mapping key whose Python
/// `repr` is the bracket's text (`[1]`, `['a b']`, `[True]`); a quoted
/// string without escapes also matches a `str` key in either quote style.
///
/// ```
/// use cloudfold::merge::PathQuery;
/// use cloudfold::userdata::{render, NoIncludes, UserDataOptions};
/// let folded = render(b"#cloud-config\nwrite_files: [{path: /etc/x}]\n", &UserDataOptions::default(), &NoIncludes).unwrap();
/// let config = folded.config.unwrap();
/// let q: PathQuery = "write_files[0].path".parse().unwrap();
/// assert_eq!(q.find(&config).unwrap().as_str(), Some("/etc/x"));
/// let e = "$.write_files[3].path".parse::<PathQuery>().unwrap().find(&config).unwrap_err();
/// assert_eq!(e.found, "$.write_files");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathQuery {
    steps: Vec<Step>,
}

/// A query that does not parse: the text and what is wrong at which byte.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad path {text:?} at byte {at}: {what} (write it as $.runcmd, $.write_files[0].path or $['odd key'])"
)]
pub struct PathSyntaxError {
    /// The query as given.
    pub text: String,
    /// 0-based byte offset of the problem.
    pub at: usize,
    /// What is wrong.
    pub what: &'static str,
}

/// A query the tree does not have: the deepest prefix that exists and why
/// the next step fails there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathNotFound {
    /// The deepest prefix that exists, as [`Path`] writes it (`$` at least).
    pub found: String,
    /// The step that does not exist there, as written (`.runcmd`, `[3]`).
    pub missing: String,
    /// What the value at `found` is instead (`a list of 2 items`,
    /// `a mapping without that key`, `a str, which has no children`).
    pub there: String,
}

impl fmt::Display for PathNotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{} does not exist: {} is {}",
            self.found, self.missing, self.found, self.there
        )
    }
}

impl std::error::Error for PathNotFound {}

/// Most steps a query may have (a path deeper than any tree cloudfold builds
/// is a typo, not a request).
const MAX_STEPS: usize = 10_000;

impl std::str::FromStr for PathQuery {
    type Err = PathSyntaxError;

    fn from_str(text: &str) -> Result<PathQuery, PathSyntaxError> {
        let err = |at: usize, what: &'static str| PathSyntaxError {
            text: text.to_owned(),
            at,
            what,
        };
        let bytes = text.as_bytes();
        let mut steps = Vec::new();
        let mut i = match text.strip_prefix('$') {
            Some(_) => 1,
            // `runcmd` or `[0]`: the `$.` is implied.
            None if text.is_empty() => return Err(err(0, "an empty path")),
            None => match bytes.first() {
                Some(b'[') => 0,
                Some(b'.') => return Err(err(0, "a path starts with $ or a key")),
                _ => {
                    let end = name_end(text, 0);
                    steps.push(Step::Name(text.get(..end).unwrap_or_default().to_owned()));
                    end
                }
            },
        };
        while let Some(&b) = bytes.get(i) {
            if steps.len() >= MAX_STEPS {
                return Err(err(i, "more than 10000 steps"));
            }
            match b {
                b'.' => {
                    let end = name_end(text, i + 1);
                    if end == i + 1 {
                        return Err(err(i + 1, "a key name is missing after '.'"));
                    }
                    steps.push(Step::Name(
                        text.get(i + 1..end).unwrap_or_default().to_owned(),
                    ));
                    i = end;
                }
                b'[' => {
                    let close =
                        bracket_end(text, i + 1).ok_or_else(|| err(i, "'[' is not closed"))?;
                    let inner = text.get(i + 1..close).unwrap_or_default().trim();
                    if inner.is_empty() {
                        return Err(err(i + 1, "'[]' selects nothing"));
                    }
                    steps.push(Step::Bracket(inner.to_owned()));
                    i = close + 1;
                }
                _ => return Err(err(i, "expected '.' or '[' here")),
            }
        }
        Ok(PathQuery { steps })
    }
}

/// End of a `.name` step: the next `.` or `[`.
fn name_end(text: &str, from: usize) -> usize {
    text.get(from..)
        .and_then(|rest| rest.find(['.', '[']))
        .map_or(text.len(), |n| from + n)
}

/// The `]` closing a bracket opened before `from`, skipping one quoted
/// string (with backslash escapes) if the bracket starts with a quote.
fn bracket_end(text: &str, from: usize) -> Option<usize> {
    let rest = text.get(from..)?;
    let trimmed = rest.trim_start();
    let lead = rest.len() - trimmed.len();
    let mut chars = trimmed.char_indices();
    if let Some((_, q @ ('\'' | '"'))) = chars.next() {
        let mut escaped = false;
        for (n, c) in chars.by_ref() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                c if c == q => {
                    return trimmed
                        .get(n + 1..)?
                        .find(']')
                        .map(|m| from + lead + n + 1 + m);
                }
                _ => {}
            }
        }
        return None;
    }
    rest.find(']').map(|n| from + n)
}

impl PathQuery {
    /// The node at this path under `root`, or the deepest prefix that exists.
    /// Linear in the path's length times the widest mapping on it.
    pub fn find(&self, root: &Node) -> Result<Node, PathNotFound> {
        let mut node = root.clone();
        let mut path = Path::root();
        for step in &self.steps {
            let next = match (node.value(), step) {
                (Value::Map(m), _) => m
                    .iter()
                    .find(|(k, _)| key_matches(k, step))
                    .map(|(k, v)| (PathSeg::Key(k.clone()), v.clone())),
                (Value::Seq(s) | Value::Tuple(s), Step::Bracket(b)) => b
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| s.items().get(i).map(|v| (PathSeg::Index(i), v.clone()))),
                _ => None,
            };
            match next {
                Some((seg, v)) => {
                    path.push(seg);
                    node = v;
                }
                None => {
                    return Err(PathNotFound {
                        found: path.to_string(),
                        missing: match step {
                            Step::Name(n) => format!(".{n}"),
                            Step::Bracket(b) => format!("[{b}]"),
                        },
                        there: describe(&node, step),
                    });
                }
            }
        }
        Ok(node)
    }
}

fn key_matches(k: &Node, step: &Step) -> bool {
    match step {
        Step::Name(n) => k.as_str() == Some(n.as_str()),
        Step::Bracket(b) => {
            if py_repr(k) == *b {
                return true;
            }
            // `["a b"]` for the key Python writes `'a b'`.
            let unquoted = b
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .or_else(|| b.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')));
            unquoted.is_some_and(|u| !u.contains('\\') && k.as_str() == Some(u))
        }
    }
}

/// What a value is, for the message of a step that fails on it.
fn describe(node: &Node, step: &Step) -> String {
    match node.value() {
        Value::Map(m) => format!(
            "a mapping of {}, none of them that key",
            count(m.len(), "key")
        ),
        Value::Seq(s) | Value::Tuple(s) => match step {
            Step::Name(_) => format!("a list of {} (select one with [N])", count(s.len(), "item")),
            Step::Bracket(_) => format!("a list of {}", count(s.len(), "item")),
        },
        Value::Set(_) => "a set, whose elements have no paths".to_owned(),
        Value::Null => "null".to_owned(),
        Value::Bool(_) => "a bool, which has no children".to_owned(),
        Value::Int(_) => "an int, which has no children".to_owned(),
        Value::Float(_) => "a float, which has no children".to_owned(),
        Value::Str(_) => "a str, which has no children".to_owned(),
        Value::Bytes(_) => "bytes, which have no children".to_owned(),
        Value::Date(_) | Value::DateTime(_) => "a date, which has no children".to_owned(),
    }
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::{LoadOptions, load};

    fn tree(y: &str) -> Node {
        load(y, &LoadOptions::default()).unwrap().unwrap()
    }

    fn get(y: &str, q: &str) -> Result<String, String> {
        let q: PathQuery = q.parse().map_err(|e: PathSyntaxError| e.to_string())?;
        q.find(&tree(y))
            .map(|n| py_repr(&n))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn forms() {
        let y = "runcmd: [a, [b, c]]\nwrite_files: [{path: /x}]\n'a b': 1\n1: int\nt.x: dot\n";
        assert_eq!(get(y, "runcmd").unwrap(), "['a', ['b', 'c']]");
        assert_eq!(get(y, "$.runcmd[1][0]").unwrap(), "'b'");
        assert_eq!(get(y, "runcmd[1]").unwrap(), "['b', 'c']");
        assert_eq!(get(y, "$.write_files[0].path").unwrap(), "'/x'");
        assert_eq!(get(y, "$['a b']").unwrap(), "1");
        assert_eq!(get(y, "$[\"a b\"]").unwrap(), "1");
        assert_eq!(get(y, "$[1]").unwrap(), "'int'");
        assert_eq!(get(y, "$['t.x']").unwrap(), "'dot'");
        assert!(get(y, "$").unwrap().starts_with("{'runcmd'"));
    }

    #[test]
    fn not_found_names_the_deepest_prefix() {
        let y = "write_files: [{path: /x}]\nruncmd: echo\n";
        assert_eq!(
            get(y, "$.write_files[3].path").unwrap_err(),
            "$.write_files[3] does not exist: $.write_files is a list of 1 item"
        );
        assert_eq!(
            get(y, "write_files[0].owner").unwrap_err(),
            "$.write_files[0].owner does not exist: $.write_files[0] is a mapping of 1 key, none of them that key"
        );
        assert_eq!(
            get(y, "runcmd[0]").unwrap_err(),
            "$.runcmd[0] does not exist: $.runcmd is a str, which has no children"
        );
        assert_eq!(
            get(y, "bootcmd").unwrap_err(),
            "$.bootcmd does not exist: $ is a mapping of 2 keys, none of them that key"
        );
    }

    #[test]
    fn syntax_errors() {
        for bad in ["", "$.", "$[", "$[]", "$.a[0", "$x", ".a", "$['a]"] {
            assert!(
                get("a: 1", bad).unwrap_err().starts_with("bad path"),
                "{bad}"
            );
        }
    }

    #[test]
    fn every_path_written_is_found() {
        // Path's own spelling of every node round-trips through the query.
        let y = "a: {'b c': [1, {2: x, 'it''s': y, true: z}]}\n";
        let root = tree(y);
        let mut stack = vec![(Path::root(), root.clone())];
        let mut n = 0;
        while let Some((p, node)) = stack.pop() {
            let q: PathQuery = p.to_string().parse().unwrap();
            assert!(Node::ptr_eq(&q.find(&root).unwrap(), &node), "{p}");
            n += 1;
            match node.value() {
                Value::Map(m) => {
                    for (k, v) in m.iter() {
                        let mut c = p.clone();
                        c.push(PathSeg::Key(k.clone()));
                        stack.push((c, v.clone()));
                    }
                }
                Value::Seq(s) => {
                    for (i, v) in s.iter().enumerate() {
                        let mut c = p.clone();
                        c.push(PathSeg::Index(i));
                        stack.push((c, v.clone()));
                    }
                }
                _ => {}
            }
        }
        assert_eq!(n, 8);
    }
}
