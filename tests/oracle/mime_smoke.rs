//! Quick checks of the MIME reader against the Python oracle on a few documents.

// Test code: an out-of-range index is a failed test.
use crate::support::mime as mime_support;

#[test]
#[ignore = "needs python3 (the email package, as cloud-init reads MIME): scripts/conformance.sh runs it"]
fn smoke_against_python() {
    assert!(mime_support::python_available(), "python3 is not available");
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
    let expected = mime_support::oracle(&docs);
    for (d, e) in docs.iter().zip(&expected) {
        let ours = mime_support::describe(d);
        assert!(
            ours == *e,
            "{d:?}: {:?}",
            mime_support::first_diff(&ours, e, "")
        );
    }
}
