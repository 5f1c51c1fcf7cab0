//! Source positions of parts and headers, and the API surface on a typical document.

// Test code: an out-of-range index is a failed test.
use cloudfold::mime::{self, DefectKind, Payload};
use proptest::prelude::*;

const DOC: &str = "Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\npre\n--B\nContent-Type: text/cloud-config\nMerge-Type: list(append)\nmerge-type: x\n\n#cloud-config\na: 1\n--B\n\nplain\n--B--\n";

#[test]
fn positions_point_into_the_source() {
    let m = mime::parse(DOC).unwrap();
    let parts: Vec<_> = m.walk().collect();
    assert_eq!(parts.len(), 3);
    let p1 = parts[1];
    assert_eq!(p1.start().line, 5);
    assert_eq!(p1.body_start().line, 9);
    assert_eq!(
        &DOC[p1.body_start().index..p1.end().index],
        "#cloud-config\na: 1\n"
    );
    assert_eq!(p1.payload_text(), Some("#cloud-config\na: 1"));
    assert_eq!(p1.headers()[1].at.line, 6);
    assert_eq!(p1.get("MERGE-TYPE"), Some("list(append)"));
    assert_eq!(p1.get_all("merge-type"), vec!["list(append)", "x"]);
    assert_eq!(p1.dict_get("merge-type"), Some("list(append)"));
    assert_eq!(p1.dict_get("MERGE-TYPE"), None);
    assert_eq!(parts[2].body_line(), 13);
    assert_eq!(m.preamble(), Some("pre"));
    assert_eq!(m.epilogue(), Some(""));
    assert!(matches!(m.payload(), Payload::Multipart(v) if v.len() == 2));
}

#[test]
fn defects_carry_positions() {
    let m = mime::parse("A: 1\nnot a header\n").unwrap();
    assert_eq!(m.defects()[0].kind, DefectKind::MissingHeaderBodySeparator);
    assert_eq!(m.defects()[0].at.line, 1);
    assert_eq!(m.body_start().line, 1);
}

#[test]
fn eight_bit_quirk() {
    let m = mime::parse("Content-Type: text/plain\n\na: \u{20ac}\u{e9}\n").unwrap();
    assert_eq!(m.get_payload_decoded().unwrap(), b"a: \\u20ac\xe9\n");
}

proptest! {
    #[test]
    fn never_panics(s in "(Content-Type: multipart/mixed; boundary=B|--B|--B--|\\r|\\n|From x|:|A: b| |base64|=|[a-zA-Z\u{e9}\u{20ac}]){0,40}") {
        if let Ok(m) = mime::parse(&s) {
            for p in m.walk() {
                let _ = p.get_payload_decoded();
                let _ = p.get_filename();
                let _ = p.get_boundary();
                prop_assert!(p.body_start().index <= p.end().index);
                prop_assert!(p.end().index <= s.len());
            }
        }
    }
}

#[test]
fn structure_like_python() {
    let m = mime::parse(
        "Content-Type: multipart/digest; boundary=D\n\n--D\n\nSubject: x\n\nbody\n--D--\n",
    )
    .unwrap();
    assert_eq!(
        m.structure(true),
        "multipart/digest [text/plain]\n    message/rfc822 [message/rfc822]\n        text/plain [text/plain]\n"
    );
}
