//! `Output`: the text being written and the layout state PyYAML's emitter tracks.
//!
//! `column` counts code points (as Python does); `whitespace` says the last
//! thing written was whitespace (so an indicator needs no leading space);
//! `indention` says only indentation was written on the current line.

use super::text_unit::TextUnit;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Output {
    /// UTF-8 by construction (ASCII runs and whole characters only),
    /// validated once at the end.
    pub out: Vec<u8>,
    /// Bytes of `out` that precede the document (not counted against
    /// `max_output_bytes`).
    pub base: usize,
    pub column: usize,
    pub whitespace: bool,
    pub indention: bool,
    /// A plain root scalar or `|+` scalar may be continued by the next
    /// document, so the stream must end with `...`.
    pub open_ended: bool,
    /// Current indentation (`None` before the root node).
    pub indent: Option<usize>,
    pub indents: Vec<Option<usize>>,
    pub best_indent: usize,
    pub best_width: usize,
}

impl Output {
    pub(super) fn new(
        best_indent: usize,
        best_width: usize,
        prefix: &[u8],
        capacity: usize,
    ) -> Output {
        let mut out = Vec::with_capacity(prefix.len().saturating_add(capacity));
        out.extend_from_slice(prefix);
        Output {
            out,
            base: prefix.len(),
            column: 0,
            whitespace: true,
            indention: true,
            open_ended: false,
            indent: None,
            indents: Vec::new(),
            best_indent,
            best_width,
        }
    }

    /// The layout state without the text.
    pub(super) fn state(&self) -> Output {
        Output {
            out: Vec::new(),
            base: 0,
            column: self.column,
            whitespace: self.whitespace,
            indention: self.indention,
            open_ended: self.open_ended,
            indent: self.indent,
            indents: self.indents.clone(),
            best_indent: self.best_indent,
            best_width: self.best_width,
        }
    }

    /// Enter a node: block collections start at column 0 at the root, flow
    /// contexts and scalars one step in; an indentless block sequence (a
    /// sequence as a mapping value) stays where its key is.
    pub(super) fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        self.indent = match self.indent {
            None => Some(if flow { self.best_indent } else { 0 }),
            Some(i) if !indentless => Some(i + self.best_indent),
            same => same,
        };
    }

    /// [`Self::increase_indent`] for a scalar (a flow context), without the
    /// stack: returns the indentation to put back once it is written.
    pub(super) fn scalar_indent(&mut self) -> Option<usize> {
        let saved = self.indent;
        self.indent = Some(saved.map_or(self.best_indent, |i| i + self.best_indent));
        saved
    }

    pub(super) fn decrease_indent(&mut self) {
        self.indent = self.indents.pop().flatten();
    }

    /// Write an indicator, preceded by a space unless whitespace was written last.
    pub(super) fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        whitespace: bool,
        indention: bool,
    ) {
        if !self.whitespace && need_whitespace {
            self.out.push(b' ');
            self.column += 1;
        }
        self.out.extend_from_slice(indicator.as_bytes());
        self.column += indicator.len();
        self.whitespace = whitespace;
        self.indention = self.indention && indention;
        self.open_ended = false;
    }

    /// Go to the current indentation, on a new line unless only indentation
    /// was written so far on this one.
    pub(super) fn write_indent(&mut self) {
        let indent = self.indent.unwrap_or(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.write_line_break(None);
        }
        if self.column < indent {
            self.whitespace = true;
            self.out
                .resize(self.out.len() + (indent - self.column), b' ');
            self.column = indent;
        }
    }

    /// A line break: "\n", or the given break character.
    pub(super) fn write_line_break(&mut self, br: Option<u32>) {
        self.whitespace = true;
        self.indention = true;
        self.column = 0;
        match br.and_then(char::from_u32) {
            Some(c) => self
                .out
                .extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            None => self.out.push(b'\n'),
        }
    }

    /// Text without changing the whitespace/indention state.
    pub(super) fn raw<T: TextUnit>(&mut self, run: &[T]) {
        T::push_run(&mut self.out, run);
        self.column += run.len();
    }

    /// ASCII text without changing the whitespace/indention state.
    pub(super) fn raw_str(&mut self, s: &str) {
        self.out.extend_from_slice(s.as_bytes());
        self.column += s.len();
    }
}
