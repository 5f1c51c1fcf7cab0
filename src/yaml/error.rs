//! `YamlError`: why a document was rejected, with PyYAML's positions and meaning.

use crate::source::Mark;
use std::fmt;

/// The Python exception class PyYAML (or Python) raises for a rejected input.
///
/// cloud-init reacts differently by class: `yaml.YAMLError`, `ValueError` and
/// `TypeError` are caught by its YAML loader (the part is reported as invalid),
/// anything else escapes to the part handler (the part is skipped silently).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
