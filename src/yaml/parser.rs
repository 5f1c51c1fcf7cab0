//! `Parser`: tokens to [`Event`]s with PyYAML's grammar, as an explicit state
//! machine (no recursion: nesting depth costs heap, never stack).

use super::error::{PyErrorClass, YamlError};
use super::event::{Event, EventKind, Props, ScalarStyle, ScalarText};
use super::reader::check_printable;
use super::scanner::Scanner;
use super::token::{Directive, Token, TokenKind};
use crate::python::py_repr_str;
use crate::source::Mark;
use std::borrow::Cow;

type Res<T> = Result<T, Box<YamlError>>;

/// What the parser expects next (PyYAML's `parse_*` states).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentEnd,
    DocumentContent,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
    End,
}

/// Token kinds the parser tests for, without their payloads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum K {
    StreamEnd,
    Directive,
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
    Alias,
    Anchor,
    Tag,
    Scalar,
    Other,
}

fn kind_of(t: &TokenKind<'_>) -> K {
    match t {
        TokenKind::StreamEnd => K::StreamEnd,
        TokenKind::Directive(_) => K::Directive,
        TokenKind::DocumentStart => K::DocumentStart,
        TokenKind::DocumentEnd => K::DocumentEnd,
        TokenKind::BlockSequenceStart => K::BlockSequenceStart,
        TokenKind::BlockMappingStart => K::BlockMappingStart,
        TokenKind::BlockEnd => K::BlockEnd,
        TokenKind::FlowSequenceStart => K::FlowSequenceStart,
        TokenKind::FlowMappingStart => K::FlowMappingStart,
        TokenKind::FlowSequenceEnd => K::FlowSequenceEnd,
        TokenKind::FlowMappingEnd => K::FlowMappingEnd,
        TokenKind::Key => K::Key,
        TokenKind::Value => K::Value,
        TokenKind::BlockEntry => K::BlockEntry,
        TokenKind::FlowEntry => K::FlowEntry,
        TokenKind::Alias(_) => K::Alias,
        TokenKind::Anchor(_) => K::Anchor,
        TokenKind::Tag(..) => K::Tag,
        TokenKind::Scalar(..) => K::Scalar,
        TokenKind::StreamStart => K::Other,
    }
}

/// The next token's kind, PyYAML id and marks.
#[derive(Clone, Copy, Debug)]
struct Peeked {
    k: K,
    id: &'static str,
    start: Mark,
    end: Mark,
}

/// A taken token's marks.
#[derive(Clone, Copy, Debug)]
struct Marks {
    start: Mark,
    end: Mark,
}

fn parser_error(problem: String, mark: Mark) -> Box<YamlError> {
    Box::new(YamlError::new(PyErrorClass::Parser, problem, mark))
}

fn parser_error_ctx(context: &str, cmark: Mark, problem: String, mark: Mark) -> Box<YamlError> {
    Box::new(YamlError::new(PyErrorClass::Parser, problem, mark).with_context(context, cmark))
}

/// YAML text to events, exactly as PyYAML's `SafeLoader` parses it.
///
/// The whole text is checked for characters PyYAML refuses before the first
/// event (as PyYAML does for `str` input). After the stream end, or an error,
/// the same result is returned again.
#[derive(Debug)]
pub struct Parser<'a> {
    text: &'a str,
    scanner: Scanner<'a>,
    state: State,
    states: Vec<State>,
    marks: Vec<Mark>,
    tag_handles: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    checked: bool,
    failed: Option<YamlError>,
    stream_end: Option<(Mark, Mark)>,
    /// The head token's summary, until it is taken.
    peeked: Option<Peeked>,
}

const DEFAULT_TAGS: [(&str, &str); 2] = [("!", "!"), ("!!", "tag:yaml.org,2002:")];

impl<'a> Parser<'a> {
    /// A parser over `text`.
    pub fn new(text: &'a str) -> Self {
        Parser {
            text,
            scanner: Scanner::new(text),
            state: State::StreamStart,
            states: Vec::new(),
            marks: Vec::new(),
            tag_handles: Vec::new(),
            checked: false,
            failed: None,
            stream_end: None,
            peeked: None,
        }
    }

    /// The next event, or why the text is rejected.
    pub fn next_event(&mut self) -> Result<Event<'a>, YamlError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if let Some((start, end)) = self.stream_end {
            return Ok(Event {
                kind: EventKind::StreamEnd,
                start,
                end,
            });
        }
        if !self.checked {
            self.checked = true;
            if let Err(e) = check_printable(self.text) {
                self.failed = Some(e.clone());
                return Err(e);
            }
        }
        match self.step() {
            Ok(ev) => {
                if matches!(ev.kind, EventKind::StreamEnd) {
                    self.stream_end = Some((ev.start, ev.end));
                }
                Ok(ev)
            }
            Err(e) => {
                self.failed = Some((*e).clone());
                Err(*e)
            }
        }
    }

    // ----- tokens -----

    fn peek(&mut self) -> Res<Peeked> {
        if let Some(p) = self.peeked {
            return Ok(p);
        }
        match self.scanner.peek_token()? {
            Some(t) => {
                let p = Peeked {
                    k: kind_of(&t.kind),
                    id: t.kind.id(),
                    start: t.start,
                    end: t.end,
                };
                self.peeked = Some(p);
                Ok(p)
            }
            None => Err(parser_error(
                "unexpected end of the token stream".to_owned(),
                Mark::default(),
            )),
        }
    }

    fn check(&mut self, kinds: &[K]) -> Res<bool> {
        let p = self.peek()?;
        Ok(kinds.contains(&p.k))
    }

    /// Take the next token's marks, dropping it.
    fn skip(&mut self) -> Res<(Mark, Mark)> {
        self.peeked = None;
        match self.scanner.skip_token()? {
            Some(m) => Ok(m),
            None => Err(parser_error(
                "unexpected end of the token stream".to_owned(),
                Mark::default(),
            )),
        }
    }

    fn skip_marks(&mut self) -> Res<Marks> {
        let (start, end) = self.skip()?;
        Ok(Marks { start, end })
    }

    fn get(&mut self) -> Res<Token<'a>> {
        self.peeked = None;
        match self.scanner.get_token()? {
            Some(t) => Ok(t),
            None => Err(parser_error(
                "unexpected end of the token stream".to_owned(),
                Mark::default(),
            )),
        }
    }

    fn pop_state(&mut self) -> State {
        self.states.pop().unwrap_or(State::End)
    }

    fn empty_scalar(mark: Mark) -> Event<'a> {
        Event {
            kind: EventKind::Scalar {
                props: Props::default(),
                implicit: (true, false),
                value: ScalarText::Text(Cow::Borrowed("")),
                style: ScalarStyle::Plain,
            },
            start: mark,
            end: mark,
        }
    }

    fn ev(kind: EventKind<'a>, start: Mark, end: Mark) -> Event<'a> {
        Event { kind, start, end }
    }

    /// Takes an indicator token; then a node follows (parsed with `block` and
    /// `indentless`) unless the next token is one of `empty_before`, which
    /// makes it an empty scalar at the indicator's end. Either way the parser
    /// goes on in state `next` after it.
    #[inline]
    fn node_or_empty(
        &mut self,
        empty_before: &[K],
        next: State,
        block: bool,
        indentless: bool,
    ) -> Res<Event<'a>> {
        let t = self.skip_marks()?;
        if !self.check(empty_before)? {
            self.states.push(next);
            return self.node(block, indentless);
        }
        self.state = next;
        Ok(Self::empty_scalar(t.end))
    }

    /// A mapping value: after a `:` token as [`Self::node_or_empty`] does
    /// (in block context it may be an indentless sequence); without one, an
    /// empty scalar where the next token starts.
    #[inline]
    fn value_or_empty(&mut self, empty_before: &[K], next: State, block: bool) -> Res<Event<'a>> {
        let p = self.peek()?;
        if p.k == K::Value {
            return self.node_or_empty(empty_before, next, block, block);
        }
        self.state = next;
        Ok(Self::empty_scalar(p.start))
    }

    /// Takes a collection's start token, keeping its mark as the context of
    /// the collection's errors.
    #[inline]
    fn collection_start(&mut self) -> Res<()> {
        let t = self.skip_marks()?;
        self.marks.push(t.start);
        Ok(())
    }

    /// The innermost open collection's start mark (the context of its errors).
    fn collection_mark(&self) -> Mark {
        self.marks.last().copied().unwrap_or_default()
    }

    /// Takes the closing token of the innermost collection and emits `kind`
    /// (its end event) over it, returning to the enclosing state.
    #[inline]
    fn collection_end(&mut self, kind: EventKind<'a>) -> Res<Event<'a>> {
        let t = self.skip_marks()?;
        self.state = self.pop_state();
        self.marks.pop();
        Ok(Self::ev(kind, t.start, t.end))
    }

    /// Takes the `,` between flow entries; anything else is an error naming
    /// the collection (`context`) and its `closer`.
    #[inline]
    fn flow_entry_separator(&mut self, context: &str, closer: char) -> Res<()> {
        let p = self.peek()?;
        if p.k != K::FlowEntry {
            return Err(parser_error_ctx(
                context,
                self.collection_mark(),
                format!("expected ',' or '{closer}', but got '{}'", p.id),
                p.start,
            ));
        }
        self.skip()?;
        Ok(())
    }

    /// A block collection's error when `p` is neither an entry nor its end.
    fn expected_block_end(&self, context: &str, p: Peeked) -> Box<YamlError> {
        parser_error_ctx(
            context,
            self.collection_mark(),
            format!("expected <block end>, but found '{}'", p.id),
            p.start,
        )
    }

    // ----- states -----

    fn step(&mut self) -> Res<Event<'a>> {
        match self.state {
            State::StreamStart => {
                let t = self.skip_marks()?;
                self.state = State::ImplicitDocumentStart;
                Ok(Self::ev(EventKind::StreamStart, t.start, t.end))
            }
            State::ImplicitDocumentStart => {
                if self.check(&[K::Directive, K::DocumentStart, K::StreamEnd])? {
                    return self.document_start();
                }
                self.tag_handles = DEFAULT_TAGS
                    .iter()
                    .map(|&(h, p)| (Cow::Borrowed(h), Cow::Borrowed(p)))
                    .collect();
                let m = self.peek()?.start;
                self.states.push(State::DocumentEnd);
                self.state = State::BlockNode;
                Ok(Self::ev(
                    EventKind::DocumentStart {
                        explicit: false,
                        version: None,
                    },
                    m,
                    m,
                ))
            }
            State::DocumentStart => self.document_start(),
            State::DocumentEnd => {
                let p = self.peek()?;
                let (start, mut end) = (p.start, p.start);
                let explicit = p.k == K::DocumentEnd;
                if explicit {
                    end = self.skip()?.1;
                }
                self.state = State::DocumentStart;
                Ok(Self::ev(EventKind::DocumentEnd { explicit }, start, end))
            }
            State::DocumentContent => {
                let p = self.peek()?;
                if matches!(
                    p.k,
                    K::Directive | K::DocumentStart | K::DocumentEnd | K::StreamEnd
                ) {
                    self.state = self.pop_state();
                    Ok(Self::empty_scalar(p.start))
                } else {
                    self.node(true, false)
                }
            }
            State::BlockNode => self.node(true, false),
            State::BlockSequenceFirstEntry => {
                self.collection_start()?;
                self.block_sequence_entry()
            }
            State::BlockSequenceEntry => self.block_sequence_entry(),
            State::IndentlessSequenceEntry => {
                let p = self.peek()?;
                if p.k == K::BlockEntry {
                    return self.node_or_empty(
                        &[K::BlockEntry, K::Key, K::Value, K::BlockEnd],
                        State::IndentlessSequenceEntry,
                        true,
                        false,
                    );
                }
                self.state = self.pop_state();
                Ok(Self::ev(EventKind::SequenceEnd, p.start, p.start))
            }
            State::BlockMappingFirstKey => {
                self.collection_start()?;
                self.block_mapping_key()
            }
            State::BlockMappingKey => self.block_mapping_key(),
            State::BlockMappingValue => self.value_or_empty(
                &[K::Key, K::Value, K::BlockEnd],
                State::BlockMappingKey,
                true,
            ),
            State::FlowSequenceFirstEntry => {
                self.collection_start()?;
                self.flow_sequence_entry(true)
            }
            State::FlowSequenceEntry => self.flow_sequence_entry(false),
            State::FlowSequenceEntryMappingKey => self.node_or_empty(
                &[K::Value, K::FlowEntry, K::FlowSequenceEnd],
                State::FlowSequenceEntryMappingValue,
                false,
                false,
            ),
            State::FlowSequenceEntryMappingValue => self.value_or_empty(
                &[K::FlowEntry, K::FlowSequenceEnd],
                State::FlowSequenceEntryMappingEnd,
                false,
            ),
            State::FlowSequenceEntryMappingEnd => {
                self.state = State::FlowSequenceEntry;
                let p = self.peek()?;
                Ok(Self::ev(EventKind::MappingEnd, p.start, p.start))
            }
            State::FlowMappingFirstKey => {
                self.collection_start()?;
                self.flow_mapping_key(true)
            }
            State::FlowMappingKey => self.flow_mapping_key(false),
            State::FlowMappingValue => self.value_or_empty(
                &[K::FlowEntry, K::FlowMappingEnd],
                State::FlowMappingKey,
                false,
            ),
            State::FlowMappingEmptyValue => {
                self.state = State::FlowMappingKey;
                let p = self.peek()?;
                Ok(Self::empty_scalar(p.start))
            }
            State::End => {
                let m = Mark::new(self.text.len(), 0, 0);
                Ok(Self::ev(EventKind::StreamEnd, m, m))
            }
        }
    }

    fn document_start(&mut self) -> Res<Event<'a>> {
        while self.check(&[K::DocumentEnd])? {
            self.skip()?;
        }
        let p = self.peek()?;
        if p.k == K::StreamEnd {
            let t = self.skip_marks()?;
            self.state = State::End;
            return Ok(Self::ev(EventKind::StreamEnd, t.start, t.end));
        }
        let start = p.start;
        let version = self.process_directives()?;
        let p = self.peek()?;
        if p.k != K::DocumentStart {
            return Err(parser_error(
                format!("expected '<document start>', but found '{}'", p.id),
                p.start,
            ));
        }
        let t = self.skip_marks()?;
        self.states.push(State::DocumentEnd);
        self.state = State::DocumentContent;
        Ok(Self::ev(
            EventKind::DocumentStart {
                explicit: true,
                version,
            },
            start,
            t.end,
        ))
    }

    fn process_directives(&mut self) -> Res<Option<(u32, u32)>> {
        let mut version = None;
        self.tag_handles.clear();
        while self.check(&[K::Directive])? {
            let t = self.get()?;
            match t.kind {
                TokenKind::Directive(Directive::Yaml(major, minor)) => {
                    if version.is_some() {
                        return Err(parser_error(
                            "found duplicate YAML directive".to_owned(),
                            t.start,
                        ));
                    }
                    if major != 1 {
                        return Err(parser_error(
                            "found incompatible YAML document (version 1.* is required)".to_owned(),
                            t.start,
                        ));
                    }
                    version = Some((major, minor));
                }
                TokenKind::Directive(Directive::Tag(handle, prefix)) => {
                    if self.tag_handles.iter().any(|(h, _)| *h == handle) {
                        return Err(parser_error(
                            format!("duplicate tag handle {}", py_repr_str(&handle)),
                            t.start,
                        ));
                    }
                    self.tag_handles.push((handle, prefix));
                }
                _ => {}
            }
        }
        for (h, p) in DEFAULT_TAGS {
            if !self.tag_handles.iter().any(|(x, _)| x == h) {
                self.tag_handles.push((Cow::Borrowed(h), Cow::Borrowed(p)));
            }
        }
        Ok(version)
    }

    fn node(&mut self, block: bool, indentless: bool) -> Res<Event<'a>> {
        let p = self.peek()?;
        if p.k == K::Scalar {
            // The common case, without properties.
            let t = self.get()?;
            self.state = self.pop_state();
            let (value, style) = match t.kind {
                TokenKind::Scalar(v, s) => (v, s),
                _ => (ScalarText::Text(Cow::Borrowed("")), ScalarStyle::Plain),
            };
            let implicit = if style == ScalarStyle::Plain {
                (true, false)
            } else {
                (false, true)
            };
            return Ok(Self::ev(
                EventKind::Scalar {
                    props: Props::default(),
                    implicit,
                    value,
                    style,
                },
                t.start,
                t.end,
            ));
        }
        if p.k == K::Alias {
            let t = self.get()?;
            self.state = self.pop_state();
            let anchor = match t.kind {
                TokenKind::Alias(a) => a,
                _ => Cow::Borrowed(""),
            };
            return Ok(Self::ev(EventKind::Alias { anchor }, t.start, t.end));
        }
        let mut anchor: Option<Cow<'a, str>> = None;
        let mut tag: Option<(Option<Cow<'a, str>>, Cow<'a, str>)> = None;
        let mut marks: Option<(Mark, Mark)> = None;
        let mut tag_mark = p.start;
        if p.k == K::Anchor {
            let t = self.get()?;
            marks = Some((t.start, t.end));
            if let TokenKind::Anchor(a) = t.kind {
                anchor = Some(a);
            }
            if self.check(&[K::Tag])? {
                let t = self.get()?;
                tag_mark = t.start;
                marks = marks.map(|(s, _)| (s, t.end));
                if let TokenKind::Tag(h, s) = t.kind {
                    tag = Some((h, s));
                }
            }
        } else if p.k == K::Tag {
            let t = self.get()?;
            tag_mark = t.start;
            marks = Some((t.start, t.end));
            if let TokenKind::Tag(h, s) = t.kind {
                tag = Some((h, s));
            }
            if self.check(&[K::Anchor])? {
                let t = self.get()?;
                marks = marks.map(|(s, _)| (s, t.end));
                if let TokenKind::Anchor(a) = t.kind {
                    anchor = Some(a);
                }
            }
        }
        let tag: Option<Cow<'a, str>> = match tag {
            None => None,
            Some((None, suffix)) => Some(suffix),
            Some((Some(handle), suffix)) => {
                let Some((_, prefix)) = self.tag_handles.iter().find(|(h, _)| *h == handle) else {
                    let start = marks.map_or(tag_mark, |m| m.0);
                    return Err(parser_error_ctx(
                        "while parsing a node",
                        start,
                        format!("found undefined tag handle {}", py_repr_str(&handle)),
                        tag_mark,
                    ));
                };
                let mut s = String::with_capacity(prefix.len() + suffix.len());
                s.push_str(prefix);
                s.push_str(&suffix);
                Some(Cow::Owned(s))
            }
        };
        let (start, mut end) = match marks {
            Some(m) => m,
            None => {
                let s = self.peek()?.start;
                (s, s)
            }
        };
        let implicit = tag.as_deref().is_none_or(|t| t == "!");
        let has_props = anchor.is_some() || tag.is_some();
        let props = Props { anchor, tag };
        let p = self.peek()?;
        if indentless && p.k == K::BlockEntry {
            self.state = State::IndentlessSequenceEntry;
            return Ok(Self::ev(
                EventKind::SequenceStart {
                    props,
                    implicit,
                    flow: false,
                },
                start,
                p.end,
            ));
        }
        match p.k {
            K::Scalar => {
                let t = self.get()?;
                end = t.end;
                let (value, style) = match t.kind {
                    TokenKind::Scalar(v, s) => (v, s),
                    _ => (ScalarText::Text(Cow::Borrowed("")), ScalarStyle::Plain),
                };
                let plain = style == ScalarStyle::Plain;
                let implicit = match props.tag.as_deref() {
                    None if plain => (true, false),
                    Some("!") => (true, false),
                    None => (false, true),
                    Some(_) => (false, false),
                };
                self.state = self.pop_state();
                Ok(Self::ev(
                    EventKind::Scalar {
                        props,
                        implicit,
                        value,
                        style,
                    },
                    start,
                    end,
                ))
            }
            K::FlowSequenceStart => {
                self.state = State::FlowSequenceFirstEntry;
                Ok(Self::ev(
                    EventKind::SequenceStart {
                        props,
                        implicit,
                        flow: true,
                    },
                    start,
                    p.end,
                ))
            }
            K::FlowMappingStart => {
                self.state = State::FlowMappingFirstKey;
                Ok(Self::ev(
                    EventKind::MappingStart {
                        props,
                        implicit,
                        flow: true,
                    },
                    start,
                    p.end,
                ))
            }
            K::BlockSequenceStart if block => {
                self.state = State::BlockSequenceFirstEntry;
                Ok(Self::ev(
                    EventKind::SequenceStart {
                        props,
                        implicit,
                        flow: false,
                    },
                    start,
                    p.start,
                ))
            }
            K::BlockMappingStart if block => {
                self.state = State::BlockMappingFirstKey;
                Ok(Self::ev(
                    EventKind::MappingStart {
                        props,
                        implicit,
                        flow: false,
                    },
                    start,
                    p.start,
                ))
            }
            _ if has_props => {
                self.state = self.pop_state();
                Ok(Self::ev(
                    EventKind::Scalar {
                        props,
                        implicit: (implicit, false),
                        value: ScalarText::Text(Cow::Borrowed("")),
                        style: ScalarStyle::Plain,
                    },
                    start,
                    end,
                ))
            }
            _ => Err(parser_error_ctx(
                if block {
                    "while parsing a block node"
                } else {
                    "while parsing a flow node"
                },
                start,
                format!("expected the node content, but found '{}'", p.id),
                p.start,
            )),
        }
    }

    fn block_sequence_entry(&mut self) -> Res<Event<'a>> {
        let p = self.peek()?;
        if p.k == K::BlockEntry {
            return self.node_or_empty(
                &[K::BlockEntry, K::BlockEnd],
                State::BlockSequenceEntry,
                true,
                false,
            );
        }
        if p.k != K::BlockEnd {
            return Err(self.expected_block_end("while parsing a block collection", p));
        }
        self.collection_end(EventKind::SequenceEnd)
    }

    fn block_mapping_key(&mut self) -> Res<Event<'a>> {
        let p = self.peek()?;
        if p.k == K::Key {
            return self.node_or_empty(
                &[K::Key, K::Value, K::BlockEnd],
                State::BlockMappingValue,
                true,
                true,
            );
        }
        if p.k != K::BlockEnd {
            return Err(self.expected_block_end("while parsing a block mapping", p));
        }
        self.collection_end(EventKind::MappingEnd)
    }

    fn flow_sequence_entry(&mut self, first: bool) -> Res<Event<'a>> {
        if !self.check(&[K::FlowSequenceEnd])? {
            if !first {
                self.flow_entry_separator("while parsing a flow sequence", ']')?;
            }
            let p = self.peek()?;
            if p.k == K::Key {
                self.state = State::FlowSequenceEntryMappingKey;
                return Ok(Self::ev(
                    EventKind::MappingStart {
                        props: Props::default(),
                        implicit: true,
                        flow: true,
                    },
                    p.start,
                    p.end,
                ));
            }
            if p.k != K::FlowSequenceEnd {
                self.states.push(State::FlowSequenceEntry);
                return self.node(false, false);
            }
        }
        self.collection_end(EventKind::SequenceEnd)
    }

    fn flow_mapping_key(&mut self, first: bool) -> Res<Event<'a>> {
        if !self.check(&[K::FlowMappingEnd])? {
            if !first {
                self.flow_entry_separator("while parsing a flow mapping", '}')?;
            }
            let p = self.peek()?;
            if p.k == K::Key {
                return self.node_or_empty(
                    &[K::Value, K::FlowEntry, K::FlowMappingEnd],
                    State::FlowMappingValue,
                    false,
                    false,
                );
            }
            if p.k != K::FlowMappingEnd {
                self.states.push(State::FlowMappingEmptyValue);
                return self.node(false, false);
            }
        }
        self.collection_end(EventKind::MappingEnd)
    }
}
