//! `ScalarAnalysis`: which quoting styles can write a scalar's text faithfully.

use super::text_unit::TextUnit;

/// Line breaks as the YAML 1.1 reader sees them (`\r` is escaped instead).
pub(super) fn is_break(c: u32) -> bool {
    matches!(c, 0x0A | 0x85 | 0x2028 | 0x2029)
}

/// Whitespace for the "preceded/followed by whitespace" indicator rules.
fn is_blank_or_break(c: u32) -> bool {
    matches!(c, 0x00 | 0x20 | 0x09 | 0x0D | 0x0A | 0x85 | 0x2028 | 0x2029)
}

/// Non-ASCII characters a YAML stream may hold unescaped (BOM excluded).
/// U+10FFFF is left out, as PyYAML does.
pub(super) fn is_unicode_printable(c: u32) -> bool {
    (c == 0x85
        || (0xA0..=0xD7FF).contains(&c)
        || (0xE000..=0xFFFD).contains(&c)
        || (0x1_0000..0x10_FFFF).contains(&c))
        && c != 0xFEFF
}

/// What the text of a scalar allows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct ScalarAnalysis {
    /// The text is empty.
    pub empty: bool,
    /// The text holds a line break.
    pub multiline: bool,
    /// Plain style is possible in block context.
    pub allow_block_plain: bool,
    /// Single quotes are possible.
    pub allow_single_quoted: bool,
    /// A block scalar (`|`) is possible.
    pub allow_block: bool,
}

impl ScalarAnalysis {
    /// Analyse `text` (code points). `allow_unicode` lets printable non-ASCII
    /// stay unescaped; `escape_nel` treats U+0085 as needing an escape anyway.
    pub(super) fn of<T: TextUnit>(
        text: &[T],
        allow_unicode: bool,
        escape_nel: bool,
    ) -> ScalarAnalysis {
        if text.is_empty() {
            return ScalarAnalysis {
                empty: true,
                multiline: false,
                allow_block_plain: true,
                allow_single_quoted: true,
                allow_block: false,
            };
        }
        let n = text.len();
        // A document marker at the start would end the document if written plain.
        let at = |i: usize| text.get(i).map(|&c| c.into());
        let mut block_indicators = matches!(
            (at(0), at(1), at(2)),
            (Some(0x2D), Some(0x2D), Some(0x2D)) | (Some(0x2E), Some(0x2E), Some(0x2E))
        );
        let mut line_breaks = false;
        let mut special = false;
        let (mut leading_space, mut leading_break) = (false, false);
        let (mut trailing_space, mut trailing_break) = (false, false);
        let (mut break_space, mut space_break) = (false, false);
        let (mut prev_space, mut prev_break) = (false, false);
        let followed_by_ws = |i: usize| at(i + 1).is_none_or(is_blank_or_break);
        let mut preceded_by_ws = true;

        let mut i = 0;
        while let Some(&c) = text.get(i) {
            let c: u32 = c.into();
            if i == 0 {
                match c {
                    // # , [ ] { } & * ! | > ' " % @ `
                    0x23 | 0x2C | 0x5B | 0x5D | 0x7B | 0x7D | 0x26 | 0x2A | 0x21 | 0x7C | 0x3E
                    | 0x27 | 0x22 | 0x25 | 0x40 | 0x60 => block_indicators = true,
                    // ? : -
                    0x3F | 0x3A | 0x2D if followed_by_ws(i) => block_indicators = true,
                    _ => {}
                }
            } else if (c == 0x3A && followed_by_ws(i)) || (c == 0x23 && preceded_by_ws) {
                block_indicators = true;
            }
            if is_break(c) {
                line_breaks = true;
            }
            if !(c == 0x0A || (0x20..=0x7E).contains(&c)) {
                let printable = is_unicode_printable(c) && !(escape_nel && c == 0x85);
                if !(printable && allow_unicode) {
                    special = true;
                }
            }
            if c == 0x20 {
                leading_space |= i == 0;
                trailing_space |= i == n - 1;
                break_space |= prev_break;
                prev_space = true;
                prev_break = false;
            } else if is_break(c) {
                leading_break |= i == 0;
                trailing_break |= i == n - 1;
                space_break |= prev_space;
                prev_space = false;
                prev_break = true;
            } else {
                prev_space = false;
                prev_break = false;
            }
            preceded_by_ws = is_blank_or_break(c);
            i += 1;
            // Fast path past the first position: printable ASCII that is no
            // indicator, and inner spaces, only update the neighbour flags.
            while let Some(&c) = text.get(i) {
                match c.into() {
                    0x3A | 0x23 => break,
                    0x21..=0x7E => {
                        prev_space = false;
                        prev_break = false;
                        preceded_by_ws = false;
                    }
                    0x20 if i + 1 < n => {
                        break_space |= prev_break;
                        prev_space = true;
                        prev_break = false;
                        preceded_by_ws = true;
                    }
                    _ => break,
                }
                i += 1;
            }
        }

        let mut a = ScalarAnalysis {
            empty: false,
            multiline: line_breaks,
            allow_block_plain: true,
            allow_single_quoted: true,
            allow_block: true,
        };
        if leading_space || leading_break || trailing_space || trailing_break {
            a.allow_block_plain = false;
        }
        if trailing_space {
            a.allow_block = false;
        }
        if break_space {
            a.allow_block_plain = false;
            a.allow_single_quoted = false;
        }
        if space_break || special {
            a.allow_block_plain = false;
            a.allow_single_quoted = false;
            a.allow_block = false;
        }
        if line_breaks || block_indicators {
            a.allow_block_plain = false;
        }
        a
    }
}
