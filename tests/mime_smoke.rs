//! Quick checks of the MIME reader against the Python oracle on a few documents.

// Test code: an out-of-range index is a failed test.
#![allow(clippy::indexing_slicing)]
mod mime_common;
use mime_common as common;

#[test]
fn smoke_against_python() {
    if !common::python_available() {
        eprintln!("SKIPPED: python3 not available");
        return;
    }
    let docs: Vec<String> = vec![
        "Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\npre\n--B\nContent-Type: text/plain\n\nhello\n--B--\nepi\n".into(),
        "#cloud-config\na: 1\n".into(),
        "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\naGVsbG8=\n".into(),
        "Content-Type: text/plain\n\na: \u{20ac}\u{e9}\n".into(),
    ];
    let mut docs = docs;
    // Unicode case mapping in content types (final sigma, dotted I, Kelvin...).
    for t in [
        "ΑΣ/ΣΑ",
        "İ/x",
        "ẞ/K",
        "Ꭰ/Å",
        "text/ΣΣ Σ",
        "a/ǅ",
        "ﬃ/x",
        "Ⅷ/ⓐⒶ",
    ] {
        docs.push(format!("Content-Type: {t}\n\nx\n"));
    }
    let expected = common::oracle(&docs);
    for (d, e) in docs.iter().zip(&expected) {
        let ours = common::describe(d);
        assert!(ours == *e, "{d:?}: {:?}", common::first_diff(&ours, e, ""));
    }
}
