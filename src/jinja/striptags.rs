//! `striptags`: MarkupSafe 3.0's `Markup.striptags` (the version each oracle imports), then `html.unescape`.
//!
//! cloud-init 22.4's oracle runs Jinja2 3.1.2 beside MarkupSafe 3.0.4 (one
//! pass: a comment or a tag from each `<` in turn); 25.1's runs Jinja2 3.1.6
//! beside MarkupSafe 3.0.3 (every comment first, each time searching the
//! text from its start, then every tag). Both collapse whitespace after
//! removing, then unescape with Python's `html.unescape`. cloudfold knows the
//! entity names HTML allows without a `;` (the only ones `html.unescape`
//! takes as prefixes of a longer name); a `&name;` outside them is refused.

use super::JinjaVersion;
use super::py_error::unsupported;
use crate::userdata::py_is_space;
use minijinja::Error;

/// `html.entities.html5`'s names without a `;` (each also names the same
/// character with one), from Python 3.11's `html/entities.py`.
const LEGACY: [(&str, char); 106] = [
    ("AElig", '\u{c6}'),
    ("AMP", '\u{26}'),
    ("Aacute", '\u{c1}'),
    ("Acirc", '\u{c2}'),
    ("Agrave", '\u{c0}'),
    ("Aring", '\u{c5}'),
    ("Atilde", '\u{c3}'),
    ("Auml", '\u{c4}'),
    ("COPY", '\u{a9}'),
    ("Ccedil", '\u{c7}'),
    ("ETH", '\u{d0}'),
    ("Eacute", '\u{c9}'),
    ("Ecirc", '\u{ca}'),
    ("Egrave", '\u{c8}'),
    ("Euml", '\u{cb}'),
    ("GT", '\u{3e}'),
    ("Iacute", '\u{cd}'),
    ("Icirc", '\u{ce}'),
    ("Igrave", '\u{cc}'),
    ("Iuml", '\u{cf}'),
    ("LT", '\u{3c}'),
    ("Ntilde", '\u{d1}'),
    ("Oacute", '\u{d3}'),
    ("Ocirc", '\u{d4}'),
    ("Ograve", '\u{d2}'),
    ("Oslash", '\u{d8}'),
    ("Otilde", '\u{d5}'),
    ("Ouml", '\u{d6}'),
    ("QUOT", '\u{22}'),
    ("REG", '\u{ae}'),
    ("THORN", '\u{de}'),
    ("Uacute", '\u{da}'),
    ("Ucirc", '\u{db}'),
    ("Ugrave", '\u{d9}'),
    ("Uuml", '\u{dc}'),
    ("Yacute", '\u{dd}'),
    ("aacute", '\u{e1}'),
    ("acirc", '\u{e2}'),
    ("acute", '\u{b4}'),
    ("aelig", '\u{e6}'),
    ("agrave", '\u{e0}'),
    ("amp", '\u{26}'),
    ("aring", '\u{e5}'),
    ("atilde", '\u{e3}'),
    ("auml", '\u{e4}'),
    ("brvbar", '\u{a6}'),
    ("ccedil", '\u{e7}'),
    ("cedil", '\u{b8}'),
    ("cent", '\u{a2}'),
    ("copy", '\u{a9}'),
    ("curren", '\u{a4}'),
    ("deg", '\u{b0}'),
    ("divide", '\u{f7}'),
    ("eacute", '\u{e9}'),
    ("ecirc", '\u{ea}'),
    ("egrave", '\u{e8}'),
    ("eth", '\u{f0}'),
    ("euml", '\u{eb}'),
    ("frac12", '\u{bd}'),
    ("frac14", '\u{bc}'),
    ("frac34", '\u{be}'),
    ("gt", '\u{3e}'),
    ("iacute", '\u{ed}'),
    ("icirc", '\u{ee}'),
    ("iexcl", '\u{a1}'),
    ("igrave", '\u{ec}'),
    ("iquest", '\u{bf}'),
    ("iuml", '\u{ef}'),
    ("laquo", '\u{ab}'),
    ("lt", '\u{3c}'),
    ("macr", '\u{af}'),
    ("micro", '\u{b5}'),
    ("middot", '\u{b7}'),
    ("nbsp", '\u{a0}'),
    ("not", '\u{ac}'),
    ("ntilde", '\u{f1}'),
    ("oacute", '\u{f3}'),
    ("ocirc", '\u{f4}'),
    ("ograve", '\u{f2}'),
    ("ordf", '\u{aa}'),
    ("ordm", '\u{ba}'),
    ("oslash", '\u{f8}'),
    ("otilde", '\u{f5}'),
    ("ouml", '\u{f6}'),
    ("para", '\u{b6}'),
    ("plusmn", '\u{b1}'),
    ("pound", '\u{a3}'),
    ("quot", '\u{22}'),
    ("raquo", '\u{bb}'),
    ("reg", '\u{ae}'),
    ("sect", '\u{a7}'),
    ("shy", '\u{ad}'),
    ("sup1", '\u{b9}'),
    ("sup2", '\u{b2}'),
    ("sup3", '\u{b3}'),
    ("szlig", '\u{df}'),
    ("thorn", '\u{fe}'),
    ("times", '\u{d7}'),
    ("uacute", '\u{fa}'),
    ("ucirc", '\u{fb}'),
    ("ugrave", '\u{f9}'),
    ("uml", '\u{a8}'),
    ("uuml", '\u{fc}'),
    ("yacute", '\u{fd}'),
    ("yen", '\u{a5}'),
    ("yuml", '\u{ff}'),
];

/// `html._invalid_charrefs` for 0x80..=0x9F (windows-1252).
const CP1252: [char; 32] = [
    '\u{20ac}', '\u{81}', '\u{201a}', '\u{192}', '\u{201e}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{2c6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8d}', '\u{17d}', '\u{8f}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{2dc}', '\u{2122}', '\u{161}', '\u{203a}', '\u{153}', '\u{9d}', '\u{17e}', '\u{178}',
];

/// `Markup(text).striptags()` as the release's oracle's MarkupSafe does it.
pub(crate) fn striptags(text: &str, version: JinjaVersion) -> Result<String, Error> {
    let chars: Vec<char> = text.chars().collect();
    let removed = match version {
        JinjaVersion::V3_1_2 => one_pass(&chars),
        JinjaVersion::V3_1_6 => tags(&comments(&chars)),
    };
    let collapsed: Vec<String> = removed
        .split(|c: &char| py_is_space(*c))
        .filter(|w| !w.is_empty())
        .map(|w| w.iter().collect())
        .collect();
    html_unescape(&collapsed.join(" "))
}

fn find(hay: &[char], needle: &[char], from: usize) -> Option<usize> {
    (from..=hay.len().checked_sub(needle.len())?)
        .find(|&i| hay.get(i..i + needle.len()) == Some(needle))
}

const OPEN: [char; 4] = ['<', '!', '-', '-'];
const CLOSE: [char; 3] = ['-', '-', '>'];

/// MarkupSafe 3.0.4: from each `<`, a comment to its `-->` or a tag to its `>`.
fn one_pass(v: &[char]) -> Vec<char> {
    let mut out = Vec::with_capacity(v.len());
    let mut pos = 0;
    while let Some(start) = v.get(pos..).and_then(|t| t.iter().position(|&c| c == '<')) {
        let start = pos + start;
        let end = if v.get(start..start + 4) == Some(&OPEN[..]) {
            find(v, &CLOSE, start + 4).map(|e| e + 3)
        } else {
            v.get(start..)
                .and_then(|t| t.iter().position(|&c| c == '>'))
                .map(|e| start + e + 1)
        };
        let Some(end) = end else { break };
        out.extend_from_slice(v.get(pos..start).unwrap_or_default());
        pos = end;
    }
    out.extend_from_slice(v.get(pos..).unwrap_or_default());
    out
}

/// MarkupSafe 3.0.3's comment loop: remove the first `<!--` through the first
/// `-->` at or after it, and search again from the start. The kept prefix
/// has no `<!--` but may end in part of one, so only its last 3 characters
/// are searched again (linear, not Python's quadratic).
fn comments(v: &[char]) -> Vec<char> {
    let mut out: Vec<char> = Vec::with_capacity(v.len());
    let mut rest = 0;
    loop {
        // The text searched: the kept tail that may start a mark, then v[rest..].
        let keep = out.len().saturating_sub(3);
        let tail: Vec<char> = out.get(keep..).unwrap_or_default().to_vec();
        let t = tail.len();
        let get = |k: usize| {
            if k < t {
                tail.get(k)
            } else {
                v.get(rest + k - t)
            }
        };
        let at =
            |k: usize, mark: &[char]| mark.iter().enumerate().all(|(m, c)| get(k + m) == Some(c));
        let Some(start) = (0..t)
            .find(|&k| at(k, &OPEN))
            .or_else(|| find(v, &OPEN, rest).map(|p| p - rest + t))
        else {
            break;
        };
        let Some(end) = (start..t)
            .find(|&k| at(k, &CLOSE))
            .or_else(|| find(v, &CLOSE, rest + start.saturating_sub(t)).map(|p| p - rest + t))
        else {
            break;
        };
        // Keep the text before the comment, drop it through its `-->`.
        out.truncate(keep);
        out.extend((0..start).filter_map(|k| get(k).copied()));
        rest += (end + 3).saturating_sub(t);
    }
    out.extend_from_slice(v.get(rest..).unwrap_or_default());
    out
}

/// MarkupSafe 3.0.3's tag loop: each `<` with a `>` after it, through that `>`.
fn tags(v: &[char]) -> Vec<char> {
    let mut out = Vec::with_capacity(v.len());
    let mut i = 0;
    while let Some(&c) = v.get(i) {
        if c == '<'
            && let Some(e) = v.get(i..).and_then(|t| t.iter().position(|&c| c == '>'))
        {
            i += e + 1;
            continue;
        }
        if c == '<' {
            // No `>` after: nothing more is removed.
            out.extend_from_slice(v.get(i..).unwrap_or_default());
            return out;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Python's `html.unescape`.
pub(crate) fn html_unescape(s: &str) -> Result<String, Error> {
    if !s.contains('&') {
        return Ok(s.to_owned());
    }
    let v: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while let Some(&c) = v.get(i) {
        i += 1;
        if c != '&' {
            out.push(c);
            continue;
        }
        let at = |k: usize| v.get(k).copied();
        if at(i) == Some('#') {
            let hex = matches!(at(i + 1), Some('x' | 'X'));
            let digits_at = if hex { i + 2 } else { i + 1 };
            let n = v
                .get(digits_at..)
                .unwrap_or_default()
                .iter()
                .take_while(|c| {
                    if hex {
                        c.is_ascii_hexdigit()
                    } else {
                        c.is_ascii_digit()
                    }
                })
                .count();
            if n == 0 {
                // Neither numeric form, and a name cannot start with '#'.
                out.push('&');
                continue;
            }
            let digits: String = v
                .get(digits_at..digits_at + n)
                .unwrap_or_default()
                .iter()
                .collect();
            let num =
                u32::from_str_radix(digits.trim_start_matches('0'), if hex { 16 } else { 10 })
                    .ok()
                    .or(digits.trim_start_matches('0').is_empty().then_some(0))
                    .unwrap_or(u32::MAX);
            i = digits_at + n;
            if at(i) == Some(';') {
                i += 1;
            }
            out.push_str(&charref(num));
            continue;
        }
        let n = v
            .get(i..)
            .unwrap_or_default()
            .iter()
            .take(32)
            .take_while(|c| !matches!(c, '\t' | '\n' | '\u{c}' | ' ' | '<' | '&' | '#' | ';'))
            .count();
        if n == 0 {
            out.push('&');
            continue;
        }
        let name: String = v.get(i..i + n).unwrap_or_default().iter().collect();
        let semi = at(i + n) == Some(';');
        i += n + usize::from(semi);
        let legacy = |k: &str| LEGACY.iter().find(|(l, _)| *l == k).map(|(_, c)| *c);
        if semi {
            match (legacy(&name), name.as_str()) {
                (Some(c), _) => out.push(c),
                (None, "apos") => out.push('\''),
                _ => {
                    return unsupported(format!(
                        "striptags of a text holding the HTML entity '&{name};' (cloudfold \
                         knows only the few HTML names without a ';')"
                    ));
                }
            }
            continue;
        }
        if let Some(c) = legacy(&name) {
            out.push(c);
            continue;
        }
        // The longest name without ';' that starts it, at least 2 characters.
        let prefix = (2..n).rev().find_map(|x| {
            let p: String = name.chars().take(x).collect();
            legacy(&p).map(|c| (c, x))
        });
        match prefix {
            Some((c, x)) => {
                out.push(c);
                out.extend(name.chars().skip(x));
            }
            None => {
                out.push('&');
                out.push_str(&name);
            }
        }
    }
    Ok(out)
}

/// `html._replace_charref` for a numeric reference.
fn charref(num: u32) -> String {
    let invalid_codepoint = matches!(num, 0x1..=0x8 | 0xb | 0xe..=0x1f | 0x7f..=0x9f | 0xfdd0..=0xfdef)
        || (num <= 0x10_FFFF && (num & 0xFFFF) >= 0xFFFE);
    match num {
        0 => "\u{fffd}".to_owned(),
        0xd => "\r".to_owned(),
        0x80..=0x9f => CP1252
            .get(usize::try_from(num - 0x80).unwrap_or(0))
            .map(char::to_string)
            .unwrap_or_default(),
        0xD800..=0xDFFF => "\u{fffd}".to_owned(),
        n if n > 0x10_FFFF => "\u{fffd}".to_owned(),
        _ if invalid_codepoint => String::new(),
        n => char::from_u32(n).map(String::from).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::{JinjaVersion, html_unescape, striptags};

    // Expected values from Python 3.11's html.unescape and MarkupSafe 3.0.4 / 3.0.3.
    #[test]
    fn matches_python() {
        let u = |s: &str| html_unescape(s).unwrap_or_default();
        assert_eq!(
            u("a &amp; b &lt;x&gt; &#65;&#x42; &ampx &#128; &#0; &#1;|"),
            "a & b <x> AB &x \u{20ac} \u{fffd} |"
        );
        assert_eq!(u("&notit & &# &copy"), "\u{ac}it & &# \u{a9}");
        assert!(html_unescape("&hellip;").is_err());
        assert!(html_unescape("&notit;").is_err());
        let s = |t: &str, v| striptags(t, v).unwrap_or_default();
        for v in [JinjaVersion::V3_1_2, JinjaVersion::V3_1_6] {
            assert_eq!(
                s("<b>bold</b> &amp; http://example.com/a?b=1", v),
                "bold & http://example.com/a?b=1"
            );
            assert_eq!(s("  a <i>x</i>\t\n b <unclosed", v), "a x b <unclosed");
        }
        assert_eq!(s("<!-- <b> -->x<!-->y", JinjaVersion::V3_1_2), "x<!-->y");
        assert_eq!(s("<!-- <b> -->x<!-->y", JinjaVersion::V3_1_6), "xy");
    }
}
