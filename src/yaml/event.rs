//! `Event`: the parser's output, consumed by the composer (PyYAML's event model).

use super::value::PyStr;
use crate::source::Mark;
use std::borrow::Cow;

/// How a scalar was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarStyle {
    /// Unquoted.
    Plain,
    /// `'…'`.
    SingleQuoted,
    /// `"…"`.
    DoubleQuoted,
    /// `|`.
    Literal,
    /// `>`.
    Folded,
}

/// A scalar's text: borrowed from the input where no unescaping or folding
/// was needed, owned otherwise; `Wide` when escapes produced lone surrogates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScalarText<'a> {
    /// Valid Unicode text.
    Text(Cow<'a, str>),
    /// Text holding lone surrogates (from `\uD83D`-style escapes); boxed,
    /// as it is rare, to keep events small.
    Wide(Box<PyStr>),
}

impl ScalarText<'_> {
    /// The text as `&str`, if it holds no lone surrogate.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            ScalarText::Text(t) => Some(t),
            ScalarText::Wide(p) => p.as_str(),
        }
    }

    /// Into a Python string.
    pub fn into_py(self) -> PyStr {
        match self {
            ScalarText::Text(t) => PyStr::from(t.as_ref()),
            ScalarText::Wide(p) => *p,
        }
    }
}

/// Node properties shared by scalars and collections.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Props<'a> {
    /// `&name`.
    pub anchor: Option<Cow<'a, str>>,
    /// The tag after handle expansion (`tag:yaml.org,2002:str`, `!foo`, `!`),
    /// `None` when no tag was written.
    pub tag: Option<Cow<'a, str>>,
}

/// One parser event.
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind<'a> {
    /// Start of the stream.
    StreamStart,
    /// End of the stream.
    StreamEnd,
    /// Start of a document (`explicit`: a `---` was written).
    DocumentStart {
        /// Whether `---` was written.
        explicit: bool,
        /// `%YAML` directive.
        version: Option<(u32, u32)>,
    },
    /// End of a document (`explicit`: a `...` was written).
    DocumentEnd {
        /// Whether `...` was written.
        explicit: bool,
    },
    /// `*name`.
    Alias {
        /// The anchor name.
        anchor: Cow<'a, str>,
    },
    /// A scalar.
    Scalar {
        /// Anchor and tag.
        props: Props<'a>,
        /// PyYAML's `implicit` pair: (plain and untagged, or tagged `!`;
        /// quoted and untagged).
        implicit: (bool, bool),
        /// The text.
        value: ScalarText<'a>,
        /// How it was written.
        style: ScalarStyle,
    },
    /// Start of a sequence.
    SequenceStart {
        /// Anchor and tag.
        props: Props<'a>,
        /// Untagged (or tagged `!`).
        implicit: bool,
        /// `[…]` rather than block `- …`.
        flow: bool,
    },
    /// End of a sequence.
    SequenceEnd,
    /// Start of a mapping.
    MappingStart {
        /// Anchor and tag.
        props: Props<'a>,
        /// Untagged (or tagged `!`).
        implicit: bool,
        /// `{…}` rather than block.
        flow: bool,
    },
    /// End of a mapping.
    MappingEnd,
}

/// An event and where it is in the input.
#[derive(Clone, Debug, PartialEq)]
pub struct Event<'a> {
    /// What happened.
    pub kind: EventKind<'a>,
    /// Start position (PyYAML's `start_mark`).
    pub start: Mark,
    /// End position (PyYAML's `end_mark`).
    pub end: Mark,
}
