//! Differential test: seeded random MIME documents (cloud-init-like layouts plus
//! mutations) parsed by us and by CPython's `email` (scripts/mime_oracle.py).
//! `CLOUDFOLD_DIFF_CASES` sets the count (default 2000); `CLOUDFOLD_DIFF_SEED` the seed.

use crate::support::mime as mime_support;
use crate::support::rng::Rng;

use base64::Engine as _;

const WORDS: &[&str] = &[
    "#cloud-config",
    "runcmd:",
    "- echo hi",
    "packages: [git]",
    "a: 1",
    "hostname: h",
    "#!/bin/sh",
    "echo \"x\"",
    "caf\u{e9}",
    "\u{20ac}uro",
    "\u{1f600}",
    "na\u{ef}ve",
    "x=y",
    "=3D",
    "--",
    "--MIMEBOUNDARY",
    "From me",
    "Content-Type: text/plain",
    "  indented",
    "\ttab",
    "",
    "key: 'v; w'",
    "\u{a0}nbsp",
    "\u{1c}sep",
    "end",
    "begin 644 f",
];

fn text_body(rng: &mut Rng) -> String {
    let n = rng.below(6);
    let mut lines = Vec::new();
    for _ in 0..n {
        let k = 1 + rng.below(3);
        let mut l = String::new();
        for i in 0..k {
            if i > 0 {
                l.push(' ');
            }
            l.push_str(rng.pick_copy(WORDS));
        }
        lines.push(l);
    }
    let mut s = lines.join("\n");
    if rng.chance(70) {
        s.push('\n');
    }
    s
}

fn qp_encode(rng: &mut Rng, data: &[u8]) -> String {
    let mut out = String::new();
    let mut col = 0;
    for &b in data {
        let enc = if b == b'\n' {
            col = 0;
            out.push('\n');
            continue;
        } else if b == b'=' || !(0x20..0x7f).contains(&b) || rng.chance(5) {
            if rng.chance(50) {
                format!("={b:02X}")
            } else {
                format!("={b:02x}")
            }
        } else {
            (b as char).to_string()
        };
        if col + enc.len() > 20 && rng.chance(50) {
            out.push_str(if rng.chance(80) { "=\n" } else { "=\r\n" });
            col = 0;
        }
        col += enc.len();
        out.push_str(&enc);
    }
    if rng.chance(10) {
        out.push_str(rng.pick_copy(&["=", "=G1", "==", "= \n", "=\rx\n", "=4"]));
    }
    out
}

fn uu_encode(rng: &mut Rng, data: &[u8]) -> String {
    let mut out = format!(
        "{}\n",
        rng.pick_copy(&["begin 644 f.txt", "begin 0o600 x", "begin x y", "begin 755"])
    );
    for chunk in data.chunks(45) {
        out.push((b' ' + chunk.len() as u8) as char);
        for g in chunk.chunks(3) {
            let b = [g[0], *g.get(1).unwrap_or(&0), *g.get(2).unwrap_or(&0)];
            let v = [
                b[0] >> 2,
                ((b[0] & 3) << 4) | (b[1] >> 4),
                ((b[1] & 15) << 2) | (b[2] >> 6),
                b[2] & 63,
            ];
            for c in v {
                out.push(if c == 0 && rng.chance(50) {
                    '`'
                } else {
                    (b' ' + c) as char
                });
            }
        }
        out.push('\n');
    }
    out.push_str(rng.pick_copy(&["`\nend\n", "end\n", "", " end \n", "\n"]));
    out
}

fn b64_body(rng: &mut Rng, data: &[u8]) -> String {
    let mut enc = base64::engine::general_purpose::STANDARD.encode(data);
    if rng.chance(20) {
        enc = enc.trim_end_matches('=').to_string();
    }
    if rng.chance(15) {
        let at = rng.below(enc.len() + 1);
        enc.insert_str(
            at,
            rng.pick_copy(&["!", " ", "*", "\u{e9}", "=", "==", "A", "?"]),
        );
    }
    let width = rng.pick_copy(&[76usize, 60, 4, 1000]);
    let mut out = String::new();
    let chars: Vec<char> = enc.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if i > 0 && i % width == 0 {
            out.push('\n');
        }
        out.push(*c);
    }
    out.push('\n');
    out
}

fn boundary(rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => format!(
            "==============={}==",
            rng.next_u64() % 10_000_000_000_000_000_000
        ),
        1 => "MIMEBOUNDARY".to_string(),
        2 => "B".to_string(),
        3 => format!("b{}.x+y_z", rng.below(1000)),
        _ => "a b".to_string(),
    }
}

fn boundary_param(rng: &mut Rng, b: &str) -> String {
    match rng.below(8) {
        0 if !b.contains(' ') => format!("boundary={b}"),
        1 => format!("boundary*=utf-8''{}", b.replace(' ', "%20")),
        2 if b.len() > 1 => {
            let (x, y) = b.split_at(1);
            format!("boundary*0=\"{x}\"; boundary*1=\"{y}\"")
        }
        3 => format!("BOUNDARY = \"{b}\""),
        4 => format!("boundary=\"{b}\" "),
        _ => format!("boundary=\"{b}\""),
    }
}

fn filename_header(rng: &mut Rng) -> String {
    let name = rng.pick_copy(&[
        "part.yaml",
        "caf\u{e9}.sh",
        "a b.txt",
        "x;y",
        "\u{20ac}.txt",
    ]);
    match rng.below(7) {
        0 => format!("Content-Disposition: attachment; filename=\"{name}\""),
        1 => format!("Content-Disposition: attachment; filename={name}"),
        2 => format!(
            "Content-Disposition: attachment; filename*=utf-8''{}",
            name.replace(' ', "%20").replace('\u{e9}', "%C3%A9")
        ),
        3 => format!("Content-Disposition: attachment; filename*0=\"{name}\"; filename*1=\"x\""),
        4 => format!("content-disposition: inline; FILENAME=\" {name} \""),
        5 => "Content-Disposition: attachment; filename*=iso-8859-1'en'caf%E9".to_string(),
        _ => "Content-Disposition: attachment".to_string(),
    }
}

fn extra_headers(rng: &mut Rng) -> Vec<String> {
    let mut h = Vec::new();
    for _ in 0..rng.below(4) {
        h.push(match rng.below(9) {
            0 => "Merge-Type: list(append)+dict(recurse_array)+str()".to_string(),
            1 => "X-Merge-Type: list()+dict()+str()".to_string(),
            2 => format!("Launch-Index: {}", rng.below(4)),
            3 => "merge-type: dict(replace)".to_string(),
            4 => "X-Odd!#$%&'*+-.^_`|~: yes".to_string(),
            5 => "Subject: folded\n continued\n\tagain".to_string(),
            6 => "MIME-Version: 1.0".to_string(),
            7 => "Content-Disposition: attachment; filename=\"dup.txt\"".to_string(),
            _ => "X-Empty:".to_string(),
        });
    }
    h
}

fn leaf(rng: &mut Rng, depth: usize) -> String {
    let ctype = rng.pick_copy(&[
        "text/cloud-config",
        "text/x-shellscript",
        "text/plain",
        "Text/Cloud-Config; charset=\"utf-8\"",
        "text/text/cloud-config",
        "cloudconfig",
        "application/x-gzip",
        "text/x-include-url",
        "text/jinja2",
        "message/rfc822",
        "text/cloud-config-archive",
    ]);
    let mut headers = Vec::new();
    if !rng.chance(10) {
        headers.push(format!("Content-Type: {ctype}"));
    }
    if ctype == "message/rfc822" && depth < 3 {
        headers.extend(extra_headers(rng));
        let inner = if rng.chance(50) {
            leaf(rng, depth + 1)
        } else {
            multipart(rng, depth + 1)
        };
        return format!("{}\n\n{}", headers.join("\n"), inner);
    }
    let body = text_body(rng);
    let (cte, enc) = match rng.below(9) {
        0 | 1 => (Some("base64"), b64_body(rng, body.as_bytes())),
        2 => (Some("quoted-printable"), qp_encode(rng, body.as_bytes())),
        3 => (
            Some(rng.pick_copy(&["x-uuencode", "uue", "UUENCODE", "x-uue"])),
            uu_encode(rng, body.as_bytes()),
        ),
        4 => (Some("7bit"), body),
        5 => (
            Some(rng.pick_copy(&["8bit", "binary", "Base64 ", "weird", "BASE64"])),
            body,
        ),
        _ => (None, body),
    };
    if let Some(c) = cte {
        headers.push(format!("Content-Transfer-Encoding: {c}"));
    }
    if rng.chance(40) {
        headers.push(filename_header(rng));
    }
    headers.extend(extra_headers(rng));
    if rng.chance(10) {
        let i = rng.below(headers.len() + 1);
        headers.insert(
            i,
            rng.pick_copy(&["From nobody", ":bad", " leading", "Bad Header: x", "x"])
                .to_string(),
        );
    }
    let sep = if rng.chance(5) { "" } else { "\n" };
    if headers.is_empty() {
        format!("{sep}{enc}")
    } else {
        format!("{}\n{sep}{enc}", headers.join("\n"))
    }
}

fn multipart(rng: &mut Rng, depth: usize) -> String {
    let b = boundary(rng);
    let sub = rng.pick_copy(&["mixed", "mixed", "alternative", "digest"]);
    let mut headers = vec![format!(
        "Content-Type: multipart/{sub}; {}",
        boundary_param(rng, &b)
    )];
    if rng.chance(70) {
        headers.push("MIME-Version: 1.0".to_string());
    }
    if rng.chance(5) {
        headers.push("Content-Transfer-Encoding: base64".to_string());
    }
    headers.extend(extra_headers(rng));
    let mut out = headers.join("\n");
    out.push_str("\n\n");
    if rng.chance(20) {
        out.push_str(rng.pick_copy(&[
            "This is a multi-part message in MIME format.\n",
            "preamble\n\n",
            "\n",
        ]));
    }
    let n = rng.below(4) + usize::from(depth == 0);
    for _ in 0..n {
        out.push_str(&format!(
            "--{b}{}\n",
            if rng.chance(10) { " \t" } else { "" }
        ));
        if depth < 3 && rng.chance(15) {
            out.push_str(&multipart(rng, depth + 1));
        } else {
            out.push_str(&leaf(rng, depth + 1));
        }
        if !out.ends_with('\n') || rng.chance(30) {
            out.push('\n');
        }
    }
    if rng.chance(90) {
        out.push_str(&format!("--{b}--"));
        if rng.chance(85) {
            out.push('\n');
        }
        if rng.chance(20) {
            out.push_str(rng.pick_copy(&["epilogue\n", "\n", "\n\ntrailing", "--\n"]));
        }
    }
    out
}

/// The Terraform layout: first header line LF, rest CRLF, MIMEBOUNDARY.
fn terraform(rng: &mut Rng) -> String {
    let mut out = String::from(
        "Content-Type: multipart/mixed; boundary=\"MIMEBOUNDARY\"\nMIME-Version: 1.0\r\n\r\n",
    );
    for _ in 0..1 + rng.below(3) {
        out.push_str("--MIMEBOUNDARY\r\n");
        if rng.chance(50) {
            out.push_str("Content-Disposition: attachment; filename=\"f.sh\"\r\n");
        }
        out.push_str("Content-Transfer-Encoding: 7bit\r\n");
        out.push_str(&format!(
            "Content-Type: {}\r\n",
            rng.pick_copy(&["text/cloud-config", "text/x-shellscript", "text/plain"])
        ));
        out.push_str("Mime-Version: 1.0\r\n");
        if rng.chance(50) {
            out.push_str("X-Merge-Type: list(append)+dict(recurse_array)+str()\r\n");
        }
        out.push_str("\r\n");
        out.push_str(&text_body(rng).replace('\n', "\r\n"));
        out.push_str("\r\n");
    }
    out.push_str("--MIMEBOUNDARY--\r\n");
    out
}

/// `cloud-init devel make-mime` output: Python's generator, LF, base64 parts
/// with charset utf-8, random `===============<19 digits>==` boundary.
fn make_mime(rng: &mut Rng) -> String {
    let b = format!(
        "==============={:019}==",
        rng.next_u64() % 10_000_000_000_000_000_000
    );
    let mut out = format!("Content-Type: multipart/mixed; boundary=\"{b}\"\nMIME-Version: 1.0\n\n");
    for _ in 0..1 + rng.below(3) {
        let t = rng.pick_copy(&[
            "cloud-config",
            "x-shellscript",
            "cloud-boothook",
            "text/cloud-config",
            "jinja2",
        ]);
        let f = rng.pick_copy(&["config.yaml", "run.sh", "dir/caf\u{e9}.yaml", "a\"b"]);
        out.push_str(&format!(
            "--{b}\nContent-Type: text/{t}; charset=\"utf-8\"\nMIME-Version: 1.0\nContent-Transfer-Encoding: base64\nContent-Disposition: attachment; filename=\"{f}\"\n\n"
        ));
        let body = text_body(rng);
        let enc = base64::engine::general_purpose::STANDARD.encode(body.as_bytes());
        for chunk in enc.as_bytes().chunks(76) {
            out.push_str(std::str::from_utf8(chunk).unwrap());
            out.push('\n');
        }
        out.push('\n');
    }
    out.push_str(&format!("--{b}--\n"));
    if rng.chance(50) {
        out.push('\n');
    }
    out
}

fn mutate(rng: &mut Rng, doc: String) -> String {
    let mut lines: Vec<String> = doc.split_inclusive('\n').map(str::to_string).collect();
    let m = rng.below(12);
    match m {
        0 if !lines.is_empty() => {
            // drop a line (often a boundary)
            let idx: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].starts_with("--"))
                .collect();
            let i = if idx.is_empty() {
                rng.below(lines.len())
            } else {
                rng.pick_copy(&idx)
            };
            lines.remove(i);
        }
        1 if !lines.is_empty() => {
            let idx: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].starts_with("--"))
                .collect();
            let i = if idx.is_empty() {
                rng.below(lines.len())
            } else {
                rng.pick_copy(&idx)
            };
            let l = lines[i].clone();
            lines.insert(i, l);
        }
        2 => return doc.replace('\n', "\r\n"),
        3 => return doc.replace('\n', "\r"),
        4 => {
            let mut out = String::new();
            for l in lines {
                match rng.below(3) {
                    0 => out.push_str(&l.replace('\n', "\r\n")),
                    1 => out.push_str(&l.replace('\n', "\r")),
                    _ => out.push_str(&l),
                }
            }
            return out;
        }
        5 => {
            let cut = rng.below(doc.len() + 1);
            let mut c = cut;
            while !doc.is_char_boundary(c) {
                c -= 1;
            }
            return doc[..c].to_string();
        }
        6 => {
            let i = rng.below(lines.len() + 1);
            lines.insert(
                i,
                rng.pick_copy(&[
                    "garbage\n",
                    "\n",
                    "--\n",
                    "From x\n",
                    " cont\n",
                    ":\n",
                    "a:b\n",
                    "\r\n",
                ])
                .to_string(),
            );
        }
        7 => {
            // fold a header line at a space
            let idx: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].contains(": "))
                .collect();
            if !idx.is_empty() {
                let i = rng.pick_copy(&idx);
                let l = lines[i].replacen("; ", ";\n ", 1).replacen(
                    ": ",
                    ":\n\t",
                    usize::from(rng.chance(30)),
                );
                lines[i] = l;
            }
        }
        8 => {
            // remove a blank line
            let idx: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].trim().is_empty())
                .collect();
            if !idx.is_empty() {
                let i = rng.pick_copy(&idx);
                lines.remove(i);
            }
        }
        9 => {
            // trailing whitespace after a boundary line, or junk
            let idx: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].starts_with("--"))
                .collect();
            if !idx.is_empty() {
                let i = rng.pick_copy(&idx);
                let l = lines[i].trim_end_matches('\n').to_string();
                lines[i] = format!("{l}{}\n", rng.pick_copy(&[" ", "\t ", "x", "--", " --"]));
            }
        }
        _ => {}
    }
    lines.concat()
}

fn document(rng: &mut Rng) -> String {
    let doc = match rng.below(10) {
        0 => terraform(rng),
        9 => make_mime(rng),
        1 => leaf(rng, 0),
        2 => format!("{}\n\n{}", "MIME-Version: 1.0", text_body(rng)),
        3 => make_mime(rng),
        _ => multipart(rng, 0),
    };
    let mut doc = doc;
    for _ in 0..rng.below(3) {
        doc = mutate(rng, doc);
    }
    doc
}

#[test]
#[ignore = "needs python3 (the email package, as cloud-init reads MIME): scripts/conformance.sh runs it"]
fn differential_against_python_email() {
    against_python("mime differential", 0x5eed, document);
}

/// Bodies from a nasty alphabet under every transfer encoding: exercises the
/// lenient base64 / quoted-printable / uuencode decoders byte for byte.
fn decoder_document(rng: &mut Rng) -> String {
    const ALPHABET: &[&str] = &[
        "A",
        "Q",
        "g",
        "/",
        "+",
        "=",
        "==",
        "!",
        " ",
        "\t",
        "\n",
        "\r\n",
        "\r",
        "\u{e9}",
        "\u{20ac}",
        "3D",
        "=3d",
        "=\n",
        "=\r",
        "=G",
        "`",
        "M",
        "begin 644 x\n",
        "end\n",
        "#",
        "5",
        "f",
    ];
    let cte = rng.pick_copy(&[
        "base64",
        "quoted-printable",
        "x-uuencode",
        "uue",
        "7bit",
        "BASE64",
    ]);
    let mut body = String::new();
    if cte.contains("uu") && rng.chance(80) {
        body.push_str("begin 644 x\n");
    }
    for _ in 0..rng.below(40) {
        body.push_str(rng.pick_copy(ALPHABET));
    }
    format!("Content-Type: text/plain\nContent-Transfer-Encoding: {cte}\n\n{body}")
}

#[test]
#[ignore = "needs python3 (the email package, as cloud-init reads MIME): scripts/conformance.sh runs it"]
fn decoders_against_python() {
    against_python("mime decoders", 0xdec0de, decoder_document);
}

/// Line soup: documents assembled line by line from a pool of headers,
/// boundaries of three nested-looking multiparts, blank lines and body text.
/// Finds parser-state bugs the structured generator does not reach.
fn chaos_document(rng: &mut Rng) -> String {
    const POOL: &[&str] = &[
        "Content-Type: multipart/mixed; boundary=A",
        "Content-Type: multipart/mixed; boundary=\"AA\"",
        "Content-Type: multipart/digest; boundary=D",
        "Content-Type: message/rfc822",
        "Content-Type: message/delivery-status",
        "Content-Type: multipart/alternative",
        "Content-Type: multipart/mixed; boundary=\"\"",
        "Content-Type: text/plain; name*=utf-8''x; name*0=y",
        "Content-Type: multipart/mixed; boundary*0=A; boundary*1=A",
        "Content-Type: multipart/mixed; boundary*=''A",
        "Content-Type: text/plain; name=\"a\\\"b;c\"",
        "Content-Disposition: attachment; filename*0*=utf-8''%C3; filename*1*=%A9",
        "Content-Disposition: attachment; filename*=x'y; filename=z",
        "Content-Disposition: attachment; filename*=foo''bar",
        "Content-Disposition: attachment; filename=<angle>",
        "Content-Transfer-Encoding: base64",
        "Content-Transfer-Encoding: quoted-printable",
        "MIME-Version: 1.0",
        "From someone",
        " continuation",
        "\tcontinuation",
        ":novalue",
        "X-A: 1",
        "--A",
        "--A--",
        "--AA",
        "--AA--",
        "--D",
        "--D--",
        "-- ",
        "----",
        "--A \t",
        "--A--x",
        "",
        "",
        "",
        "body text",
        "QUJD",
        "=41=\r",
        "caf\u{e9} \u{20ac}",
        "Content-Type: multipart/mixed; boundary=A; x*=1; x*0=2",
        "Content-Transfer-Encoding: x-uuencode",
        "begin 644 f",
        "#:&D*",
        "end",
        "   ",
        "Content-Type: multipart/mixed; boundary=\"A\"; boundary=\"AA\"",
        "Content-Type: text/plain\u{2028}x",
        "\u{feff}Content-Type: multipart/mixed; boundary=A",
        "X-Nul: a\0b",
        "\u{b}\u{c}\u{1c}\u{85}",
        "Content-Type: multipart/mixed; boundary=\"A\u{85}\"",
        "--A\u{85}",
    ];
    let mut out = String::new();
    if rng.chance(15) {
        // Python feeds the parser 8192 characters at a time: put line breaks
        // (and CR/LF pairs) right at the chunk edges.
        let pad = 8170 + rng.below(40);
        out.push_str("X-Pad: ");
        out.push_str(&"p".repeat(pad));
        out.push_str(rng.pick_copy(&["\r\n", "\r", "\n"]));
    }
    for _ in 0..rng.below(25) {
        out.push_str(rng.pick_copy(POOL));
        out.push_str(rng.pick_copy(&["\n", "\n", "\n", "\r\n", "\r"]));
    }
    if rng.chance(20) {
        out.pop();
    }
    out
}

#[test]
#[ignore = "needs python3 (the email package, as cloud-init reads MIME): scripts/conformance.sh runs it"]
fn chaos_against_python() {
    against_python("mime chaos", 0xc4a05, chaos_document);
}

/// RFC 2231 filenames: charsets (with odd spellings), %-escapes of random
/// bytes, sections, quoting.
fn filename_document(rng: &mut Rng) -> String {
    let charset = rng.pick_copy(&[
        "utf-8",
        "UTF8",
        "utf_8",
        " Utf-8 ",
        "u8",
        "utf-8-sig",
        "us-ascii",
        "ASCII",
        "latin-1",
        "ISO-8859-1",
        "iso8859_1",
        "l1",
        "",
        "foo",
        "base64",
        "utf-\u{e9}8",
        "cp1252x",
        "utf..8",
    ]);
    let mut value = String::new();
    for _ in 0..rng.below(8) {
        match rng.below(6) {
            0 => value.push_str(&format!("%{:02X}", rng.below(256))),
            1 => value.push_str(&format!("%{:02x}", 0x80 + rng.below(128))),
            2 => value.push_str(rng.pick_copy(&["%", "%4", "%G1", "'", "\"", " "])),
            3 => value.push_str(rng.pick_copy(&["\u{e9}", "\u{20ac}", "\u{1f600}"])),
            4 => value.push_str("%EF%BB%BF"),
            _ => value.push_str(rng.pick_copy(&["a", "b.txt", "x"])),
        }
    }
    let param = match rng.below(5) {
        0 => format!("filename*={charset}'en'{value}"),
        1 => format!("filename*=\"{charset}''{value}\""),
        2 => format!("filename*0*={charset}''{value}; filename*1*={value}; filename*2=\"{value}\""),
        3 => format!("filename*={value}"),
        _ => format!("filename*={charset}''{value}"),
    };
    format!("Content-Disposition: attachment; {param}\n\nx\n")
}

#[test]
#[ignore = "needs python3 (the email package, as cloud-init reads MIME): scripts/conformance.sh runs it"]
fn filenames_against_python() {
    against_python("mime filenames", 0xf11e, filename_document);
}

/// Generate `$CLOUDFOLD_DIFF_CASES` documents (default 2,000) from `$CLOUDFOLD_DIFF_SEED`
/// (default `seed`), parse each with Python's `email` and with ours, and fail on any
/// difference (the first five are printed with their documents).
fn against_python(label: &str, seed: u64, generate: fn(&mut Rng) -> String) {
    assert!(
        mime_support::python_available(),
        "python3 with the email package is not available"
    );
    let cases: usize = std::env::var("CLOUDFOLD_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let seed: u64 = std::env::var("CLOUDFOLD_DIFF_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(seed);
    let mut rng = Rng::from_state(seed);
    let docs: Vec<String> = (0..cases).map(|_| generate(&mut rng)).collect();
    let expected = mime_support::oracle(&docs);
    let mut failures = Vec::new();
    for (i, (d, e)) in docs.iter().zip(&expected).enumerate() {
        let ours = mime_support::describe(d);
        if ours != *e {
            failures.push((i, d, mime_support::first_diff(&ours, e, "")));
        }
    }
    eprintln!(
        "{label}: {cases} cases, {} disagreements (seed {seed})",
        failures.len()
    );
    for (i, d, diff) in failures.iter().take(5) {
        eprintln!("case {i}: {d:?}\n  {diff:?}");
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} documents differ from Python",
        failures.len()
    );
}
