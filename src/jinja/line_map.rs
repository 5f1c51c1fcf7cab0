//! `LineMap`: which template line produced each place of a rendered text (MiniJinja's output spans).
//!
//! Verbatim template text maps one to one (a newline in it is a newline in
//! the template); the output of an expression (`{{ … }}`, a filter or call
//! block, a macro's output) maps to the line where the expression starts.
//! Lines count the part's `## template: jinja` header as line 1.

use std::ops::Range;

/// One span of output and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Piece {
    output: Range<usize>,
    /// 1-based line in the part's text (header counted) of the span's start.
    line: usize,
    /// Verbatim template text (its own newlines advance the line).
    raw: bool,
}

/// Rendered-text positions to template lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineMap {
    pieces: Vec<Piece>,
    /// Byte offset of each rendered line's start.
    line_starts: Vec<usize>,
    text: String,
}

impl LineMap {
    /// From MiniJinja's spans over `text` (the render, before cloud-init's
    /// trailing newline is added); `header_lines` lines precede the body.
    pub(crate) fn new(text: &str, spans: &[minijinja::OutputSpan], header_lines: usize) -> Self {
        let pieces = spans
            .iter()
            .map(|s| Piece {
                output: s.output_range(),
                line: s.line() + header_lines,
                raw: s.kind() == minijinja::OutputSpanKind::Raw,
            })
            .collect();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineMap {
            pieces,
            line_starts,
            text: text.to_owned(),
        }
    }

    /// The template line (1-based, header counted) that wrote the character at
    /// 1-based `line` and `column` (characters) of the rendered text.
    pub fn template_line(&self, line: u32, column: u32) -> Option<usize> {
        let start = *self
            .line_starts
            .get(usize::try_from(line).ok()?.checked_sub(1)?)?;
        let rest = self.text.get(start..)?;
        let col = usize::try_from(column).ok()?.saturating_sub(1);
        let offset = start + rest.char_indices().nth(col).map_or(rest.len(), |(i, _)| i);
        self.at(offset)
    }

    /// The template line that wrote byte `offset` of the render.
    pub fn at(&self, offset: usize) -> Option<usize> {
        let p = self
            .pieces
            .iter()
            .find(|p| p.output.contains(&offset))
            .or_else(|| self.pieces.iter().rev().find(|p| p.output.start <= offset))?;
        if p.raw {
            let within = self.text.get(p.output.start..offset.min(p.output.end))?;
            Some(p.line + within.matches('\n').count())
        } else {
            Some(p.line)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::jinja::{Engine, InstanceData, JinjaLimits, JinjaVersion};

    #[test]
    fn rendered_places_map_to_template_lines() {
        let data = InstanceData::from_json(br#"{"v1": {"a": "x", "l": [1, 2]}}"#).unwrap();
        let engine = Engine::new(JinjaVersion::V3_1_6, JinjaLimits::default());
        // Part lines: 1 header, 2 "#cloud-config", 3 "{% if %}", 4 "a: ...",
        // 5 "{% endif %}", 6 "b: [...]" (a loop), 7 "c: 1".
        let body = "#cloud-config\n{% if v1.a %}\na: {{ v1.a }}\n{% endif %}\nb: [{% for i in v1.l %}{{ i }},{% endfor %}]\nc: 1\n";
        let (text, map) = engine.render_mapped(body, data.vars(), Some(1)).unwrap();
        let map = map.unwrap();
        assert_eq!(text, "#cloud-config\na: x\nb: [1,2,]\nc: 1");
        assert_eq!(map.template_line(1, 1), Some(2));
        assert_eq!(map.template_line(2, 4), Some(4)); // `x`, from {{ v1.a }}
        assert_eq!(map.template_line(3, 5), Some(6)); // `1`, inside the loop
        assert_eq!(map.template_line(4, 4), Some(7));
    }
}
