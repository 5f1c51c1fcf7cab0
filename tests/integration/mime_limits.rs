//! Robustness: big and deep inputs parse fast, without panics or stack overflow.

// Test code: an out-of-range index or a failed unwrap is a failed test.
use cloudfold::mime::{self, MAX_DEPTH, MAX_MULTIPART_DEPTH, ParseError, PyError};
use std::time::{Duration, Instant};

fn quick<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let v = f();
    assert!(t.elapsed() < limit, "took {:?}", t.elapsed());
    v
}

#[test]
fn ten_thousand_empty_parts() {
    let mut doc = String::from("Content-Type: multipart/mixed; boundary=B\n\n");
    for _ in 0..10_000 {
        doc.push_str("--B\n");
        doc.push('\n');
    }
    doc.push_str("--B--\n");
    let m = quick(Duration::from_secs(5), || mime::parse(&doc).unwrap());
    assert_eq!(m.walk().count(), 10_001);
}

#[test]
fn ten_thousand_duplicate_boundaries() {
    let doc = format!(
        "Content-Type: multipart/mixed; boundary=B\n\n{}x\n",
        "--B\n".repeat(10_000)
    );
    let m = quick(Duration::from_secs(5), || mime::parse(&doc).unwrap());
    assert_eq!(m.walk().count(), 2);
}

#[test]
fn megabyte_header_line() {
    let mut doc = String::from("Content-Type: text/plain; name=\"");
    doc.push_str(&"a;\"".repeat(350_000));
    doc.push_str("\"\nX: ");
    doc.push_str(&"b".repeat(1_000_000));
    doc.push_str("\n\nbody\n");
    let m = quick(Duration::from_secs(5), || mime::parse(&doc).unwrap());
    let _ = quick(Duration::from_secs(5), || m.get_filename());
    assert_eq!(m.get("x").map(str::len), Some(1_000_000));
}

#[test]
fn megabyte_of_base64_and_qp() {
    let body = "QUJD".repeat(250_000);
    let doc = format!("Content-Transfer-Encoding: base64\n\n{body}\n");
    let m = mime::parse(&doc).unwrap();
    let d = quick(Duration::from_secs(5), || m.get_payload_decoded().unwrap());
    assert_eq!(d.len(), 750_000);
}

fn nested(depth: usize) -> String {
    let mut s = String::new();
    for i in 0..depth {
        s.push_str(&format!(
            "Content-Type: multipart/mixed; boundary=b{i}\n\n--b{i}\n"
        ));
    }
    s.push_str("\nhi\n");
    s
}

/// Parse `doc` on a thread with a small stack (1 MiB): deep documents must not need
/// the caller to have more (the parser moves them to a thread of its own).
fn parse_on_small_stack(doc: String) -> Result<usize, ParseError> {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || mime::parse(&doc).map(|m| m.walk().count()))
        .unwrap()
        .join()
        .unwrap()
}

fn is_recursion_error(r: &Result<usize, ParseError>) -> bool {
    matches!(
        r,
        Err(ParseError::Python {
            error: PyError::RecursionError { .. },
            ..
        })
    )
}

#[test]
fn nesting_up_to_pythons_limit_parses_on_a_small_stack() {
    // Multiparts at levels 0..=976, their leaf at 977.
    let n = MAX_MULTIPART_DEPTH + 1;
    assert_eq!(parse_on_small_stack(nested(n)), Ok(n + 1));
    // message/rfc822 containers at levels 0..=980, their (empty) leaf at 981.
    let doc = "Content-Type: message/rfc822\n\n".repeat(MAX_DEPTH);
    assert_eq!(parse_on_small_stack(doc), Ok(MAX_DEPTH + 1));
}

#[test]
fn nesting_beyond_pythons_limit_raises_its_recursion_error() {
    for doc in [
        nested(MAX_MULTIPART_DEPTH + 2),
        nested(100_000),
        "Content-Type: message/rfc822\n\n".repeat(MAX_DEPTH + 1),
        "Content-Type: message/rfc822\n\n".repeat(10_000),
    ] {
        let r = parse_on_small_stack(doc);
        assert!(is_recursion_error(&r), "{r:?}");
    }
}

#[test]
fn arbitrary_text_never_panics() {
    let samples = [
        "",
        "\r",
        "\r\n\r\n",
        ":",
        " ",
        "From ",
        "--",
        "Content-Type: multipart/x; boundary=\n\n--\n--\n------\n",
    ];
    for s in samples {
        let m = mime::parse(s).unwrap();
        for p in m.walk() {
            let _ = p.get_payload_decoded();
            let _ = p.get_filename();
        }
    }
}
