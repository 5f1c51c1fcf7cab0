//! Robustness: big and deep inputs parse fast, without panics or stack overflow.

// Test code: an out-of-range index is a failed test.
#![allow(clippy::indexing_slicing)]
use cloudfold::mime::{self, MAX_DEPTH, ParseError};
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

#[test]
fn nesting_up_to_the_limit_parses() {
    let doc = nested(MAX_DEPTH);
    let m = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || mime::parse(&doc).map(|m| m.walk().count()))
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(m, Ok(MAX_DEPTH + 1));
}

#[test]
fn nesting_at_the_limit_fits_a_small_stack() {
    // Margin check: the deepest accepted document parses on a 1 MiB stack (debug build).
    let doc = nested(MAX_DEPTH);
    let n = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || mime::parse(&doc).map(|m| m.walk().count()))
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(n, Ok(MAX_DEPTH + 1));
}

#[test]
fn nesting_beyond_the_limit_is_an_error() {
    for doc in [
        nested(MAX_DEPTH + 1),
        nested(100_000),
        "Content-Type: message/rfc822\n\n".repeat(10_000),
    ] {
        let r = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || mime::parse(&doc).err())
            .unwrap()
            .join()
            .unwrap();
        assert!(matches!(r, Some(ParseError::TooDeep { .. })), "{r:?}");
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
