//! `Token`: the scanner's output, consumed by the parser (PyYAML's token model).

use super::event::{ScalarStyle, ScalarText};
use crate::source::Mark;
use std::borrow::Cow;

/// A `%` directive.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Directive<'a> {
    /// `%YAML major.minor` (numbers saturate at `u32::MAX`).
    Yaml(u32, u32),
    /// `%TAG handle prefix`.
    Tag(Cow<'a, str>, Cow<'a, str>),
    /// Any other directive (ignored).
    Other,
}

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TokenKind<'a> {
    StreamStart,
    StreamEnd,
    Directive(Directive<'a>),
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowMappingStart,
    FlowSequenceEnd,
    FlowMappingEnd,
    Key,
    Value,
    BlockEntry,
    FlowEntry,
    Alias(Cow<'a, str>),
    Anchor(Cow<'a, str>),
    /// Handle (`None` for verbatim `!<…>` and a lone `!`) and suffix.
    Tag(Option<Cow<'a, str>>, Cow<'a, str>),
    Scalar(ScalarText<'a>, ScalarStyle),
}

impl TokenKind<'_> {
    /// PyYAML's token `id`, as quoted in parser errors.
    pub(crate) fn id(&self) -> &'static str {
        match self {
            TokenKind::StreamStart => "<stream start>",
            TokenKind::StreamEnd => "<stream end>",
            TokenKind::Directive(_) => "<directive>",
            TokenKind::DocumentStart => "<document start>",
            TokenKind::DocumentEnd => "<document end>",
            TokenKind::BlockSequenceStart => "<block sequence start>",
            TokenKind::BlockMappingStart => "<block mapping start>",
            TokenKind::BlockEnd => "<block end>",
            TokenKind::FlowSequenceStart => "[",
            TokenKind::FlowMappingStart => "{",
            TokenKind::FlowSequenceEnd => "]",
            TokenKind::FlowMappingEnd => "}",
            TokenKind::Key => "?",
            TokenKind::Value => ":",
            TokenKind::BlockEntry => "-",
            TokenKind::FlowEntry => ",",
            TokenKind::Alias(_) => "<alias>",
            TokenKind::Anchor(_) => "<anchor>",
            TokenKind::Tag(..) => "<tag>",
            TokenKind::Scalar(..) => "<scalar>",
        }
    }
}

/// A token and where it is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token<'a> {
    pub(crate) kind: TokenKind<'a>,
    pub(crate) start: Mark,
    pub(crate) end: Mark,
}
