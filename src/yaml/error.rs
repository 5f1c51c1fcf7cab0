//! `YamlError`: why a document was rejected, with PyYAML's positions and meaning.

use crate::source::Mark;
use std::fmt;

/// The Python exception class PyYAML (or Python) raises for a rejected input.
///
/// cloud-init reacts differently by class: `yaml.YAMLError`, `ValueError` and
/// `TypeError` are caught by its YAML loader (the part is reported as invalid),
/// anything else escapes to the part handler (the part is skipped silently).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PyErrorClass {
    /// `yaml.reader.ReaderError` (bad character or encoding).
    Reader,
    /// `yaml.scanner.ScannerError`.
    Scanner,
    /// `yaml.parser.ParserError`.
    Parser,
    /// `yaml.composer.ComposerError` (undefined alias, several documents).
    Composer,
    /// `yaml.constructor.ConstructorError` (unknown tag, unhashable key, …).
    Constructor,
    /// A plain `ValueError` (bad `!!int` literal, invalid date, …).
    Value,
    /// A plain `TypeError`.
    Type,
    /// A plain `KeyError` (`!!bool maybe`).
    Key,
    /// A plain `AttributeError` (`!!timestamp junk`).
    Attribute,
    /// A plain `IndexError` (`!!int ""`: PyYAML indexes the empty string).
    Index,
    /// `OverflowError` (a float literal too large for some conversions).
    Overflow,
    /// `RecursionError`: nesting deeper than Python's stack allows.
    Recursion,
    /// Not Python's: a scalar longer than [`super::LoadOptions::max_scalar_size`]
    /// (cloudfold's safety limit; PyYAML would load it).
    Limit,
}

impl PyErrorClass {
    /// Whether this is a subclass of `yaml.YAMLError`.
    pub fn is_yaml_error(self) -> bool {
        matches!(
            self,
            PyErrorClass::Reader
                | PyErrorClass::Scanner
                | PyErrorClass::Parser
                | PyErrorClass::Composer
                | PyErrorClass::Constructor
        )
    }

    /// Whether cloud-init's `util.load_yaml` catches it (`yaml.YAMLError`,
    /// `ValueError`, `TypeError`): anything else escapes to its caller.
    pub fn caught_by_load_yaml(self) -> bool {
        self.is_yaml_error() || matches!(self, PyErrorClass::Value | PyErrorClass::Type)
    }

    /// The Python class name.
    pub fn python_name(self) -> &'static str {
        match self {
            PyErrorClass::Reader => "ReaderError",
            PyErrorClass::Scanner => "ScannerError",
            PyErrorClass::Parser => "ParserError",
            PyErrorClass::Composer => "ComposerError",
            PyErrorClass::Constructor => "ConstructorError",
            PyErrorClass::Value => "ValueError",
            PyErrorClass::Type => "TypeError",
            PyErrorClass::Key => "KeyError",
            PyErrorClass::Attribute => "AttributeError",
            PyErrorClass::Index => "IndexError",
            PyErrorClass::Overflow => "OverflowError",
            PyErrorClass::Recursion => "RecursionError",
            PyErrorClass::Limit => "a cloudfold limit",
        }
    }
}

/// A rejected YAML document: what went wrong and where.
///
/// `problem` and `context` use PyYAML's wording ("found character '\t' that
/// cannot start any token"); `Display` writes it in one line:
/// `found character '\t' that cannot start any token at line 3, column 9`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    /// Which Python exception this corresponds to.
    pub class: PyErrorClass,
    /// What PyYAML calls the context ("while scanning a simple key") and where it began.
    pub context: Option<(String, Mark)>,
    /// What went wrong.
    pub problem: String,
    /// Where it went wrong (`None` for errors Python raises without a mark).
    pub mark: Option<Mark>,
}

impl YamlError {
    /// An error with a problem and a mark.
    pub fn new(class: PyErrorClass, problem: impl Into<String>, mark: Mark) -> Self {
        YamlError {
            class,
            context: None,
            problem: problem.into(),
            mark: Some(mark),
        }
    }

    /// Add PyYAML's context ("while parsing a block mapping") and its mark.
    pub fn with_context(mut self, context: impl Into<String>, mark: Mark) -> Self {
        self.context = Some((context.into(), mark));
        self
    }

    /// `str()` of the exception Python raises for this error in a document loaded from
    /// the `str` `source` (which PyYAML names `<unicode string>`): a `ReaderError`'s
    /// message and code-point position; a `MarkedYAMLError`'s context, the context mark
    /// unless it is the problem's, the problem and its mark, each mark with PyYAML's
    /// snippet of its line; else the plain exception's message. cloud-init logs it.
    pub fn python_str(&self, source: &str) -> String {
        match self.class {
            PyErrorClass::Reader => {
                let at = self.mark.map_or(0, |m| code_points_before(source, m.index));
                format!("{}\n  in \"<unicode string>\", position {at}", self.problem)
            }
            class if class.is_yaml_error() => {
                let mut lines = Vec::new();
                if let Some((context, cm)) = &self.context {
                    lines.push(context.clone());
                    if self
                        .mark
                        .is_none_or(|pm| (pm.line, pm.column) != (cm.line, cm.column))
                    {
                        lines.push(python_mark(source, *cm));
                    }
                }
                lines.push(self.problem.clone());
                if let Some(pm) = self.mark {
                    lines.push(python_mark(source, pm));
                }
                lines.join("\n")
            }
            _ => self.problem.clone(),
        }
    }
}

/// Code points of `source` before byte `index` (all of them past its end).
fn code_points_before(source: &str, index: usize) -> usize {
    let mut at = index.min(source.len());
    while !source.is_char_boundary(at) {
        at -= 1;
    }
    source.get(..at).map_or(0, |s| s.chars().count())
}

/// `str()` of a PyYAML `Mark` in a `str` document: where, and `get_snippet()`: the
/// mark's line, cut to 32 characters each side of it with ` ... `, and a caret.
fn python_mark(source: &str, m: Mark) -> String {
    const BREAKS: &[char] = &['\0', '\r', '\n', '\u{85}', '\u{2028}', '\u{2029}'];
    let mut at = m.index.min(source.len());
    while !source.is_char_boundary(at) {
        at -= 1;
    }
    let (before, after) = source.split_at(at);
    // Backwards from the mark: at most 36 characters, else the last 32 after ` ... `.
    let mut back: Vec<char> = Vec::new();
    let mut head = "";
    for c in before.chars().rev() {
        if BREAKS.contains(&c) {
            break;
        }
        back.push(c);
        if back.len() > 36 {
            head = " ... ";
            back.truncate(back.len() - 5);
            break;
        }
    }
    back.reverse();
    // Forwards (PyYAML's buffer ends in `\0`, a break).
    let mut fwd: Vec<char> = Vec::new();
    let mut tail = "";
    for c in after.chars() {
        if BREAKS.contains(&c) {
            break;
        }
        fwd.push(c);
        if fwd.len() > 36 {
            tail = " ... ";
            fwd.truncate(fwd.len() - 5);
            break;
        }
    }
    let snippet: String = back.iter().chain(&fwd).collect();
    format!(
        "  in \"<unicode string>\", line {}, column {}:\n    {head}{snippet}{tail}\n{}^",
        m.line + 1,
        m.column + 1,
        " ".repeat(4 + back.len() + head.len())
    )
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problem)?;
        if let Some(m) = self.mark {
            write!(f, " at {m}")?;
        }
        if let Some((ctx, m)) = &self.context {
            write!(f, " ({ctx} at {m})")?;
        }
        Ok(())
    }
}

impl std::error::Error for YamlError {}

#[cfg(test)]
mod tests {
    use crate::yaml::{LoadOptions, load};

    /// `str(e)` as PyYAML 6.0.3 gives it for each document (recorded from `yaml.safe_load`).
    #[test]
    fn python_str_is_pyyamls() {
        let long = format!("a: b\nk: {} y: z{}\n", "x".repeat(50), "w".repeat(50));
        let wide = format!("{}: [1,\n\t2]\n", "é".repeat(45));
        let cases: [(&str, &str); 4] = [
            (
                &long,
                "mapping values are not allowed here\n  in \"<unicode string>\", line 2, column 56:\n     ... xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx y: zwwwwwwwwwwwwwwwwwwwwwwwwwwwww ... \n                                         ^",
            ),
            (
                &wide,
                "while scanning for the next token\nfound character '\\t' that cannot start any token\n  in \"<unicode string>\", line 2, column 1:\n    \t2]\n    ^",
            ),
            (
                "a: &x 1\nb: *y\n",
                "found undefined alias 'y'\n  in \"<unicode string>\", line 2, column 4:\n    b: *y\n       ^",
            ),
            (
                "a: 'abc\u{1}'\n",
                "unacceptable character #x0001: special characters are not allowed\n  in \"<unicode string>\", position 7",
            ),
        ];
        for (doc, want) in cases {
            let Err(e) = load(doc, &LoadOptions::default()) else {
                panic!("{doc:?} loads");
            };
            assert_eq!(e.python_str(doc), want, "{doc:?}");
        }
    }
}
