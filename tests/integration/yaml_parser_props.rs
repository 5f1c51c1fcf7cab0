//! Robustness of the YAML front end: any input is parsed to its end or to its
//! first error without panicking or hanging, and deep nesting costs no stack.

use cloudfold::yaml::{EventKind, Parser, ScalarText, decode_input};
use proptest::prelude::*;
use std::borrow::Cow;

/// Drive a parser to the stream end or the first error; returns the event count.
fn drive(text: &str) -> Result<usize, String> {
    let mut p = Parser::new(text);
    // Every event consumes input or closes something opened earlier, so the
    // count is bounded by a small multiple of the length.
    let cap = text.len() * 8 + 16;
    for n in 0..cap {
        match p.next_event() {
            Ok(ev) if matches!(ev.kind, EventKind::StreamEnd) => {
                // Stays at the end.
                assert!(matches!(p.next_event().unwrap().kind, EventKind::StreamEnd));
                return Ok(n + 1);
            }
            Ok(ev) => assert!(ev.start <= ev.end, "marks out of order: {ev:?}"),
            Err(e) => {
                // The same error again, never a panic.
                assert_eq!(p.next_event().unwrap_err(), e);
                return Err(e.to_string());
            }
        }
    }
    panic!("no stream end after {cap} events: {text:?}");
}

/// Fragments that matter to YAML's grammar, to build dense inputs from.
const PIECES: &[&str] = &[
    "-",
    "?",
    ":",
    ",",
    "[",
    "]",
    "{",
    "}",
    "#",
    "&",
    "*",
    "!",
    "|",
    ">",
    "'",
    "\"",
    "%",
    "@",
    "`",
    " ",
    "\t",
    "\n",
    "\r",
    ".",
    "a",
    "b",
    "0",
    "9",
    "\\",
    "\u{85}",
    "\u{2028}",
    "\u{feff}",
    "é",
    "😀",
    "---",
    "...",
    "  - ",
    ": ",
    "!!",
    "!<",
    "%YAML 1.1",
    "%TAG ! x",
    "\\x4",
    "\\U",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        if let Ok(text) = decode_input(&bytes) {
            let _ = drive(&text);
        }
    }

    #[test]
    fn yamlish_strings_never_panic(
        parts in proptest::collection::vec(proptest::sample::select(PIECES), 0..80)
    ) {
        let _ = drive(&parts.concat());
    }

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        let _ = drive(&s);
    }
}

#[test]
fn deep_flow_nesting_uses_no_stack() {
    let n = 200_000;
    let text = format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert_eq!(drive(&text).unwrap(), 2 * n + 4);
    let unclosed = "{a: [".repeat(n / 2);
    assert!(drive(&unclosed).is_err());
}

#[test]
fn deep_block_nesting_uses_no_stack() {
    let n = 200_000;
    let text = format!("{}x\n", "- ".repeat(n));
    assert_eq!(drive(&text).unwrap(), 2 * n + 5);
}

#[test]
fn plain_and_simple_quoted_scalars_borrow_the_input() {
    let text = "key: some value\nq: 'single quoted'\nd: \"double\"\nm: two\n  lines\n";
    let mut p = Parser::new(text);
    let mut borrowed = Vec::new();
    loop {
        let ev = p.next_event().unwrap();
        match ev.kind {
            EventKind::StreamEnd => break,
            EventKind::Scalar {
                value: ScalarText::Text(t),
                ..
            } => {
                borrowed.push((t.to_string(), matches!(t, Cow::Borrowed(_))));
            }
            _ => {}
        }
    }
    assert_eq!(
        borrowed,
        [
            ("key", true),
            ("some value", true),
            ("q", true),
            ("single quoted", true),
            ("d", true),
            ("double", true),
            ("m", true),
            ("two lines", false),
        ]
        .map(|(s, b)| (s.to_owned(), b))
    );
}
