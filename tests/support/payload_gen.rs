//! A random user-data payload generator: every payload shape cloud-init reads, merge specs, bad parts.

// `*r.pick(..)` picks a `&'static str`; auto-deref would borrow the slice instead.
#![allow(clippy::explicit_auto_deref)]

use super::rng::Rng;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use std::io::Write;

const KEYS: &[&str] = &[
    "runcmd",
    "packages",
    "bootcmd",
    "users",
    "write_files",
    "hostname",
    "a",
    "b",
    "nested",
    "merge_type",
    "ssh_authorized_keys",
    "launch-index",
];
const SCALARS: &[&str] = &[
    "1",
    "0755",
    "yes",
    "no",
    "~",
    "null",
    "1.5",
    "'0644'",
    "\"quoted\"",
    "text",
    "2001-12-14",
    "1:30",
    "-3",
    "0x1F",
    "1e3",
    "on",
    "''",
    "[]",
    "{}",
];
const SPECS: &[&str] = &[
    "list(append)+dict(no_replace,recurse_list)+str()",
    "list(append)+dict(recurse_array)+str()",
    "dict(replace)+list()+str()",
    "dict()+list(prepend)",
    "list(append)",
    "dict(recurse_str)+str(append)",
    "dict(allow_delete,no_replace)+list(append)",
    "dict(no_replace,recurse_list)+list(no_replace)",
    "list(replace,recurse_dict)+dict(no_replace,recurse_list)",
    "DICT(No-Replace, Recurse_List)+LIST(APPEND)",
    "dict(",
    "list(apend)+dict()",
    "dikt()",
    "dict",
    "",
    "+",
    "dict(replace))",
    "str(append)+dict(recurse_str,recurse_list)+list(prepend)",
];

pub(crate) fn scalar(r: &mut Rng) -> String {
    if r.chance(30) {
        format!("v{}", r.below(5))
    } else {
        (*r.pick(SCALARS)).to_owned()
    }
}

fn value(r: &mut Rng, depth: usize, indent: usize) -> String {
    let pad = " ".repeat(indent);
    match if depth > 2 { 0 } else { r.below(4) } {
        0 => format!(" {}\n", scalar(r)),
        1 => {
            let n = r.below(4);
            if n == 0 {
                return " []\n".into();
            }
            let mut s = String::from("\n");
            for _ in 0..n {
                s.push_str(&format!("{pad}-{}", value(r, depth + 1, indent + 2)));
            }
            s
        }
        2 => {
            let n = 1 + r.below(3);
            let mut s = String::from("\n");
            for _ in 0..n {
                s.push_str(&format!(
                    "{pad}  {}:{}",
                    r.pick(&["x", "y", "z", "w"]),
                    value(r, depth + 1, indent + 2)
                ));
            }
            s
        }
        _ => format!(" [{}, {}]\n", scalar(r), scalar(r)),
    }
}

/// Values a `launch-index` key may carry in a cloud-config payload.
const LI_VALUES: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "true",
    "false",
    "1.0",
    "1.9",
    "'1'",
    "\" 2 \"",
    "'+1'",
    "'1_0'",
    "abc",
    ".inf",
    "-.inf",
    ".nan",
    "~",
    "[1]",
    "{a: 1}",
    "0x1",
    "01",
    "1_0",
    "'1.5'",
    "2001-01-01",
];
/// Extra merge specs (beyond SPECS): every option, odd spellings.
const MORE_SPECS: &[&str] = &[
    "dict(allow_delete)+list()+str()",
    "dict(allow_delete,recurse_list)+list(append)",
    "dict(recurse_dict)+list(recurse_list)",
    "dict(no_replace,recurse_str,recurse_array)",
    "list(no_replace)+dict(no_replace)",
    "list(prepend,recurse_str)",
    "list(append,recurse_array,recurse_dict)",
    "list(replace)",
    "str(append)",
    "str(replace)",
    "str()+list(append)+dict()",
    " list ( append ) + dict ( ) ",
    "list(append )+ dict(no_replace , recurse_list)",
    "set()",
    "dict(unknown_opt)+list(append)",
    "dict()dict()",
    "dict()+dict(no_replace)",
    "list(append,append)",
    "list(append)+list(prepend)",
    "dict(recurse_list)+list(append)+str(append)",
    "Dict()+List(Append)",
    "dict(no-replace)",
    "list(,)",
    "()",
    "list)(",
];

/// A random merge spec.
pub(crate) fn spec(r: &mut Rng) -> &'static str {
    if r.chance(50) {
        *r.pick(SPECS)
    } else {
        *r.pick(MORE_SPECS)
    }
}

/// A `merge_how`/`merge_type` key in one of its forms.
pub(crate) fn merge_key(r: &mut Rng) -> String {
    let key = if r.chance(70) {
        "merge_how"
    } else {
        "merge_type"
    };
    let opts = [
        "append",
        "prepend",
        "no_replace",
        "recurse_list",
        "recurse_dict",
        "recurse_str",
        "allow_delete",
        "replace",
        "recurse_array",
        "bogus",
    ];
    let names = ["list", "dict", "str", "List", "DICT", "bogus", " dict "];
    match r.below(10) {
        0..=3 => format!("{key}: '{}'\n", spec(r)),
        4 => {
            let mut s = format!("{key}:\n");
            for _ in 0..1 + r.below(3) {
                s.push_str(&format!(" - name: {}\n", r.pick(&names)));
                match r.below(4) {
                    0 => s.push_str(&format!(
                        "   settings: [{}, {}]\n",
                        r.pick(&opts),
                        r.pick(&opts)
                    )),
                    1 => s.push_str(&format!("   settings: {}\n", r.pick(&opts))),
                    2 => s.push_str("   settings: []\n"),
                    _ => s.push_str(&format!("   settings: [{}]\n", r.pick(&opts))),
                }
            }
            s
        }
        5 => {
            let mut s = format!("{key}:\n");
            for _ in 0..1 + r.below(3) {
                s.push_str(&format!(" - [{}, {}]\n", r.pick(&names), r.pick(&opts)));
            }
            s
        }
        6 => format!(
            "{key}: [{}]\n",
            r.pick(&[
                "'list(append)'",
                "42",
                "~",
                "[]",
                "{}",
                "[list]",
                "'dict(no_replace)+list(append)'"
            ])
        ),
        7 => format!(
            "{key}: {}\n",
            r.pick(&["42", "~", "[]", "{}", "true", "''"])
        ),
        8 => format!("merge_how: '{}'\nmerge_type: '{}'\n", spec(r), spec(r)),
        _ => format!(
            "{key}:\n - name: list\n   settings: [append]\n - name: dict\n   settings: [no_replace, recurse_list]\n"
        ),
    }
}

/// A YAML mapping body (no header line), maybe with a merge spec and a launch-index key.
fn mapping_body(r: &mut Rng) -> String {
    let mut s = String::new();
    let n = 1 + r.below(5);
    for _ in 0..n {
        let k = r.pick(KEYS);
        if *k == "launch-index" {
            s.push_str(&format!("launch-index: {}\n", r.pick(LI_VALUES)));
        } else if r.chance(8) {
            s.push_str(&format!(
                "{k}: {}\n",
                r.pick(&[
                    "\"é\"",
                    "ü-text",
                    "'€uro'",
                    "\"\\U0001F600\"",
                    "\"tab\\there\""
                ])
            ));
        } else {
            s.push_str(&format!("{k}:{}", value(r, 0, 0)));
        }
    }
    if r.chance(8) {
        s.push_str("anch: &x [1, 2]\nref: *x\n");
    }
    if r.chance(5) {
        s.push_str("base: &b {x: 1}\nder:\n  <<: *b\n  y: 2\n");
    }
    if r.chance(45) {
        s.push_str(&merge_key(r));
    }
    s
}

/// A cloud-config header line (usually the canonical one).
fn cc_header(r: &mut Rng) -> String {
    if r.chance(75) {
        return "#cloud-config\n".into();
    }
    (*r.pick(&[
        "#Cloud-Config\n",
        "#CLOUD-CONFIG\n",
        "#cloud-config \n",
        "#cloud-config\r\n",
        "#cloud-configfoo\n",
        "#cloud-config # trailing\n",
        "\n\n#cloud-config\n",
        "   #cloud-config\n",
        "\t\n #cloud-config\n",
        "\u{feff}#cloud-config\n",
        "# a comment\n#cloud-config\n",
        "#cloud-config",
        "#cloud-config-\n",
        "\u{a0}#cloud-config\n",
        "\u{2028}#cloud-config\n",
    ]))
    .to_owned()
}

/// A cloud-config document body (maybe with merge_how / merge_type, maybe broken).
pub(crate) fn cloud_config(r: &mut Rng) -> String {
    let mut s = cc_header(r);
    if s.is_empty() || !s.ends_with('\n') {
        return s;
    }
    match r.below(100) {
        0..=2 => s.push_str("a: 1\n\tb: 2\n"),
        3 => s.push_str("a:\n  b: 1\n c: 2\n"),
        4 => s.push_str("- just\n- a list\n"),
        5 => s.push_str(*r.pick(&[
            "42\n",
            "hello\n",
            "~\n",
            "[]\n",
            "{}\n",
            "!!set {a, b}\n",
            "!!omap [a: 1]\n",
        ])),
        6 => {}
        7 => s.push_str("# only a comment\n"),
        8 => s.push_str("a: 1\n---\nb: 2\n"),
        9 => s.push_str(&format!("---\n{}...\n", mapping_body(r))),
        10 => s.push_str("a: 1\na: 2\n"),
        11 => s.push_str("key: [unclosed\n"),
        12 => s.push_str("a: !!python/unicode 'x'\n"),
        13 => s.push_str("a: *undefined\n"),
        14 => s.push_str("\t\n"),
        _ => s.push_str(&mapping_body(r)),
    }
    s
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let _ = e.write_all(data);
    e.finish().unwrap_or_default()
}

fn wrap76(s: &str) -> String {
    s.as_bytes()
        .chunks(76)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Quoted-printable encoding of UTF-8 text (soft line breaks at 76).
fn qp(body: &[u8]) -> String {
    let mut out = String::new();
    let mut col = 0;
    for &b in body {
        let piece = if b == b'\n' {
            col = 0;
            out.push('\n');
            continue;
        } else if (33..=126).contains(&b) && b != b'=' || b == b' ' {
            (b as char).to_string()
        } else {
            format!("={b:02X}")
        };
        if col + piece.len() > 75 {
            out.push_str("=\n");
            col = 0;
        }
        col += piece.len();
        out.push_str(&piece);
    }
    out
}

/// A jsonp document (with or without its header line).
fn jsonp(r: &mut Rng) -> String {
    let ops = [
        "{\"op\": \"add\", \"path\": \"/jp\", \"value\": [1, 2]}",
        "{\"op\": \"add\", \"path\": \"/runcmd/-\", \"value\": \"echo jp\"}",
        "{\"op\": \"add\", \"path\": \"/runcmd/0\", \"value\": \"first\"}",
        "{\"op\": \"add\", \"path\": \"/nested/x\", \"value\": {\"k\": null}}",
        "{\"op\": \"add\", \"path\": \"\", \"value\": {\"root\": 1}}",
        "{\"op\": \"replace\", \"path\": \"\", \"value\": [1]}",
        "{\"op\": \"replace\", \"path\": \"/a\", \"value\": \"c\"}",
        "{\"op\": \"replace\", \"path\": \"/hostname\", \"value\": 1.5}",
        "{\"op\": \"remove\", \"path\": \"/runcmd\"}",
        "{\"op\": \"remove\", \"path\": \"/runcmd/0\"}",
        "{\"op\": \"move\", \"from\": \"/a\", \"path\": \"/moved\"}",
        "{\"op\": \"move\", \"from\": \"/runcmd/0\", \"path\": \"/runcmd/-\"}",
        "{\"op\": \"copy\", \"from\": \"/packages\", \"path\": \"/pk2\"}",
        "{\"op\": \"copy\", \"from\": \"\", \"path\": \"/self\"}",
        "{\"op\": \"test\", \"path\": \"/a\", \"value\": 1}",
        "{\"op\": \"test\", \"path\": \"/hostname\", \"value\": \"text\"}",
        "{\"op\": \"test\", \"path\": \"/nothere\", \"value\": null}",
        "{\"op\": \"add\", \"path\": \"/n\", \"value\": NaN}",
        "{\"op\": \"add\", \"path\": \"/i\", \"value\": Infinity}",
        "{\"op\": \"add\", \"path\": \"/big\", \"value\": 123456789012345678901234567890}",
        "{\"op\": \"add\", \"path\": \"/f\", \"value\": 1e400}",
        "{\"op\": \"add\", \"path\": \"/d\", \"value\": 1, \"value\": 2}",
        "{\"op\": \"add\", \"path\": \"/u\", \"value\": \"\\u00e9\\udce9\"}",
        "{\"op\": \"add\", \"path\": \"/e~1s~0\", \"value\": 3}",
        "{\"op\": \"bogus\", \"path\": \"/a\"}",
        "{\"path\": \"/a\", \"value\": 1}",
        "{\"op\": \"add\", \"value\": 1}",
        "{\"op\": \"add\", \"path\": \"a\", \"value\": 1}",
        "{\"op\": \"add\", \"path\": \"/runcmd/x\", \"value\": 1}",
        "{\"op\": \"add\", \"path\": \"/runcmd/01\", \"value\": 1}",
        "{\"op\": \"add\", \"path\": \"/runcmd/99\", \"value\": 1}",
        "{\"op\": \"add\", \"path\": \"/a/b\", \"value\": 1}",
        "{\"op\": \"remove\", \"path\": \"\"}",
        "{\"op\": \"replace\", \"path\": \"/missing\", \"value\": 1}",
        "42",
    ];
    let head = match r.below(4) {
        0 => "",
        1 => "#cloud-config-jsonp\n",
        2 => "#Cloud-Config-JSONP\n",
        _ => "#cloud-config-jsonp\n",
    };
    let body = match r.below(20) {
        0 => "not json".to_string(),
        1 => "{\"op\": \"add\", \"path\": \"/a\", \"value\": 1}".to_string(),
        2 => "[]".to_string(),
        3 => "".to_string(),
        4 => "[{\"op\": \"add\", \"path\": \"/a\", \"value\": 1},]".to_string(),
        _ => {
            let n = 1 + r.below(4);
            let v: Vec<&str> = (0..n).map(|_| *r.pick(&ops)).collect();
            format!("[{}]", v.join(",\n "))
        }
    };
    format!("{head}{body}")
}

/// A YAML double-quoted scalar holding `s` exactly.
fn yq(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20
                || (0x7f..=0x9f).contains(&(c as u32))
                || matches!(c, '\u{feff}' | '\u{2028}' | '\u{2029}' | '\u{a0}') =>
            {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A `#cloud-config-archive` document.
fn archive(r: &mut Rng, depth: usize) -> String {
    let mut s = String::from(if r.chance(90) {
        "#cloud-config-archive\n"
    } else {
        "#Cloud-Config-Archive\n"
    });
    if r.chance(5) {
        s.push_str(*r.pick(&[
            "a: 1\n",
            "42\n",
            "",
            "- [unclosed\n",
            "\t- x\n",
            "!!set {a, b}\n",
            "~\n",
        ]));
        return s;
    }
    let n = 1 + r.below(4);
    for _ in 0..n {
        match r.below(14) {
            0 => s.push_str(&format!("- {}\n", yq(&cloud_config(r)))),
            1 => s.push_str(*r.pick(&[
                "- 42\n",
                "- [1, 2]\n",
                "- ~\n",
                "- true\n",
                "- {}\n",
                "- content: 42\n",
                "- content: ~\n  type: application/octet-stream\n",
                "- content: ~\n",
                "- type: text/cloud-config\n",
                "- content: \"#cloud-config\\na: 1\\n\"\n  type: textplain\n",
                "- content: \"#cloud-config\\na: 1\\n\"\n  1: x\n",
                "- content: \"#cloud-config\\na: 1\\n\"\n  type: 42\n",
                "- content: [1]\n  type: application/json\n",
                "- content: !!binary /w==\n  type: text/plain\n",
                "- content: \"#cloud-config\\na: 1\\n\"\n  X-Extra: ~\n",
                "- content: \"#cloud-config\\na: 1\\n\"\n  launch-index: .inf\n",
            ])),
            2 => s.push_str(&format!(
                "- {}\n",
                yq(*r.pick(&[
                    "#!/bin/sh\necho a\n",
                    "plain words",
                    "",
                    "#cloud-boothook\necho\n",
                    "#include\n"
                ]))
            )),
            3 => s.push_str(&format!(
                "- content: !!binary |\n    {}\n  type: {}\n",
                B64.encode(gzip(cloud_config(r).as_bytes())),
                r.pick(&[
                    "application/x-gzip",
                    "application/octet-stream",
                    "text/plain",
                    "text/cloud-config"
                ]),
            )),
            4 => s.push_str(&format!(
                "- content: !!binary |\n    {}\n",
                B64.encode(cloud_config(r).as_bytes()),
            )),
            _ => {
                let body = match r.below(6) {
                    0 if depth == 0 => archive(r, depth + 1),
                    1 => jsonp(r),
                    2 => "#!/bin/sh\necho x\n".into(),
                    _ => cloud_config(r),
                };
                s.push_str(&format!("- content: {}\n", yq(&body)));
                if r.chance(70) {
                    s.push_str(&format!(
                        "  type: {}\n",
                        r.pick(&[
                            "text/cloud-config",
                            "text/cloud-config",
                            "Text/Cloud-Config",
                            "text/plain",
                            "text/x-shellscript",
                            "text/cloud-config-archive",
                            "text/x-include-url",
                            "text/cloud-config-jsonp",
                            "application/octet-stream",
                            "''",
                            "~",
                            "text/cloud-boothook",
                            "TEXT/cloud-config",
                        ])
                    ));
                }
                if r.chance(30) {
                    s.push_str(&format!(
                        "  filename: {}\n",
                        r.pick(&["a.cfg", "42", "''", "x y", "~"])
                    ));
                }
                if r.chance(20) {
                    s.push_str(&format!(
                        "  launch-index: {}\n",
                        r.pick(&["0", "1", "2", "-1", "abc", "'1'", "true", "1.5"])
                    ));
                }
                if r.chance(40) {
                    let name = r.pick(&[
                        "Merge-Type",
                        "X-Merge-Type",
                        "merge-type",
                        "MERGE-TYPE",
                        "Merge-type",
                        "x-merge-type",
                    ]);
                    if r.chance(85) {
                        s.push_str(&format!("  {name}: '{}'\n", spec(r)));
                    } else {
                        s.push_str(&format!(
                            "  {name}: {}\n",
                            r.pick(&["42", "''", "[list]", "true"])
                        ));
                    }
                }
                if r.chance(10) {
                    s.push_str(&format!(
                        "  {}: {}\n",
                        r.pick(&[
                            "X-Extra",
                            "Content-Disposition",
                            "Number-Attachments",
                            "Content-Type",
                            "Launch-Index"
                        ]),
                        r.pick(&["v", "'attachment; filename=\"zz\"'", "7", "text/plain"])
                    ));
                }
            }
        }
    }
    s
}

/// A random MIME boundary.
fn boundary(r: &mut Rng) -> String {
    match r.below(5) {
        0 => format!("==============={}==", r.next_u64() % 1_000_000),
        1 => format!("b{}", r.below(100)),
        2 => format!("'()+_,-./:=? {}", r.below(10)),
        3 => "-".repeat(1 + r.below(10)) + "x",
        _ => format!("MIMEBOUNDARY{:x}", r.next_u64()),
    }
}

/// A body for a MIME part of declared type `ctype`.
fn body_for(r: &mut Rng, ctype: &str) -> String {
    match ctype {
        "text/cloud-config" | "text/plain" | "text/x-unknown" | "Text/Cloud-Config"
        | "TEXT/PLAIN" => match r.below(12) {
            0 => "just text\n".into(),
            1 => "#!/bin/sh\necho hi\n".into(),
            2 => jsonp(r),
            3 => archive(r, 1),
            4 => "#include\n# nothing\n".into(),
            5 => String::new(),
            _ => cloud_config(r),
        },
        "text/x-shellscript" => {
            if r.chance(50) {
                "#!/bin/sh\necho hi\n".into()
            } else {
                cloud_config(r)
            }
        }
        "text/cloud-boothook" => "#cloud-boothook\necho boot\n".into(),
        "text/cloud-config-jsonp" => jsonp(r),
        "text/cloud-config-archive" => archive(r, 0),
        "text/x-include-url" | "text/x-include-once-url" => r
            .pick(&["#include\n", "", "#include-once\n# c\n", "\n"])
            .to_string(),
        _ => {
            if r.chance(50) {
                "binary-ish".into()
            } else {
                cloud_config(r)
            }
        }
    }
}

const CTYPES: &[&str] = &[
    "text/cloud-config",
    "text/cloud-config",
    "text/cloud-config",
    "text/cloud-config",
    "text/plain",
    "text/x-shellscript",
    "text/cloud-boothook",
    "text/cloud-config-jsonp",
    "text/cloud-config-archive",
    "application/octet-stream",
    "text/x-unknown",
    "Text/Cloud-Config",
    "TEXT/PLAIN",
    "text/x-include-url",
    "garbage",
    "text/cloud-config/extra",
    "",
    "text/x-shellscript-per-boot",
];
const GZ_TYPES: &[&str] = &[
    "application/x-gzip",
    "application/gzip",
    "application/gzip-compressed",
    "application/gzipped",
    "application/x-compress",
    "application/x-compressed",
    "application/x-gunzip",
    "application/x-gzip-compressed",
    "Application/X-Gzip",
];

/// One MIME part: (headers, body) text. `depth` bounds nesting.
fn mime_part(r: &mut Rng, n: usize, depth: usize) -> String {
    if depth < 2 && r.chance(8) {
        return multipart(r, depth + 1, false);
    }
    if depth < 3 && r.chance(5) {
        let levels = 1 + r.below(4);
        return rfc822(r, n, depth + 1, levels);
    }
    let mut headers = Vec::new();
    let ctype = *r.pick(CTYPES);
    let mut body = body_for(r, ctype).into_bytes();
    // Non-ASCII in the body: Latin-1 range and above (the 8-bit quirk).
    if r.chance(10) && ctype != "text/cloud-config-archive" {
        let extra = r.pick(&["x: é\n", "y: €\n", "z: \u{1F600}\n", "w: ÿ\u{100}\n"]);
        body.extend_from_slice(extra.as_bytes());
    }
    let cname = r.pick(&[
        "Content-Type",
        "Content-Type",
        "content-type",
        "CONTENT-TYPE",
    ]);
    let mut ct_line = if ctype.is_empty() {
        None
    } else {
        Some(format!(
            "{cname}: {ctype}{}",
            match r.below(10) {
                0..=1 => "; charset=\"us-ascii\"",
                2 => "; charset=utf-8",
                3 => ";\n\tcharset=\"latin-1\"",
                _ => "",
            }
        ))
    };
    let mut cte: Option<&str> = None;
    let mut encoded: Vec<u8> = body.clone();
    match r.below(12) {
        0..=2 => {
            cte = Some("base64");
            encoded = wrap76(&B64.encode(&body)).into_bytes();
        }
        3 => {
            cte = Some(*r.pick(&["quoted-printable", "Quoted-Printable"]));
            encoded = qp(&body).into_bytes();
        }
        4 => {
            let gz = match r.below(6) {
                0 => b"not gzip at all".to_vec(),
                1 => {
                    let g = gzip(&body);
                    g[..g.len() / 2].to_vec()
                }
                2 => gzip(&gzip(&body)),
                3 => gzip(&[0xff, 0xfe, b'a']),
                _ => gzip(&body),
            };
            ct_line = Some(format!("Content-Type: {}", r.pick(GZ_TYPES)));
            cte = Some("base64");
            encoded = wrap76(&B64.encode(gz)).into_bytes();
        }
        5 => cte = Some(*r.pick(&["7bit", "8bit", "8BIT", "binary", "x-unknown"])),
        6 => {
            cte = Some("base64");
            encoded = format!("{}\n!!garbage*", B64.encode(&body)).into_bytes();
        }
        _ => {}
    }
    if let Some(l) = ct_line {
        headers.push(l);
    }
    if r.chance(50) {
        headers.push("MIME-Version: 1.0".into());
    }
    if r.chance(50) {
        headers.push(match r.below(12) {
            8 => "Content-Disposition: attachment; filename*=bogus''x%FF.cfg".into(),
            9 => "Content-Disposition: attachment; filename=\"multi\n line.cfg\"".into(),
            10 => {
                "Content-Disposition: attachment; filename*0=\"ab\"; filename*1=\"cd.cfg\"".into()
            }
            11 => "Content-Disposition: attachment; filename=\"ü.cfg\"".into(),
            0 => format!("Content-Disposition: attachment; filename*=utf-8''f%C3%A9{n}.cfg"),
            1 => "Content-Disposition: attachment; filename=\"\"".into(),
            2 => "Content-Disposition: attachment; filename=\"a\tb.cfg\"".into(),
            3 => "Content-Disposition: attachment;\n filename=\"folded.cfg\"".into(),
            4 => format!("Content-Disposition: attachment; filename=plain{n}.cfg"),
            5 => "Content-Disposition: inline".into(),
            _ => format!("Content-Disposition: attachment; filename=\"f{n}.cfg\""),
        });
    }
    if r.chance(40) {
        let name = r.pick(&[
            "Merge-Type",
            "X-Merge-Type",
            "merge-type",
            "MERGE-TYPE",
            "x-merge-type",
            "Merge-type",
        ]);
        if r.chance(15) {
            headers.push(format!("{name}:"));
        } else if r.chance(10) {
            headers.push(format!("{name}: list(append)+\n dict(no_replace)"));
        } else {
            headers.push(format!("{name}: {}", spec(r)));
        }
        if r.chance(30) {
            let other = r.pick(&["Merge-Type", "X-Merge-Type"]);
            headers.push(format!(
                "{other}: {}",
                if r.chance(30) { "" } else { spec(r) }
            ));
        }
    }
    if r.chance(12) {
        headers.push(format!(
            "Launch-Index: {}",
            r.pick(&["0", "1", "2", "-1", "abc", " 1 ", "1.5", "+2"])
        ));
        if r.chance(20) {
            headers.push("Launch-Index: 2".into());
        }
    }
    if let Some(c) = cte {
        headers.push(format!("Content-Transfer-Encoding: {c}"));
    }
    if r.chance(10) {
        headers.push("X-Dup: a".into());
        headers.push("X-Dup: b".into());
    }
    let mut s = headers.join("\n").into_bytes();
    s.extend_from_slice(b"\n\n");
    s.extend_from_slice(&encoded);
    String::from_utf8_lossy(&s).into_owned()
}

/// A `message/rfc822` part around `levels` nested messages, the innermost a
/// part or a multipart (cloud-init hands the parts inside once per level).
fn rfc822(r: &mut Rng, n: usize, depth: usize, levels: usize) -> String {
    let mut s = format!(
        "{}\n",
        r.pick(&[
            "Content-Type: message/rfc822",
            "Content-Type: message/rfc822",
            "content-type: Message/RFC822",
        ])
    );
    if r.chance(30) {
        s.push_str("MIME-Version: 1.0\n");
    }
    if r.chance(10) {
        s.push_str(&format!("Launch-Index: {}\n", r.pick(&["0", "1", "x"])));
    }
    if r.chance(15) {
        s.push_str(&format!("Merge-Type: {}\n", spec(r)));
    }
    if r.chance(10) {
        s.push_str(&format!(
            "Content-Disposition: attachment; filename=\"msg{n}.eml\"\n"
        ));
    }
    if r.chance(5) {
        // An empty message: the inner message has no headers and no body.
        return s + "\n";
    }
    s.push('\n');
    let inner = if levels > 1 {
        rfc822(r, n, depth, levels - 1)
    } else if depth < 3 && r.chance(30) {
        multipart(r, depth + 1, false)
    } else {
        mime_part(r, n, 3)
    };
    s + &inner
}

/// A multipart document (`top`: with the MIME-Version header usually).
fn multipart(r: &mut Rng, depth: usize, top: bool) -> String {
    let b = boundary(r);
    let quoted = if r.chance(80) || b.contains(' ') {
        format!("\"{b}\"")
    } else {
        b.clone()
    };
    let sub = if r.chance(85) {
        "mixed"
    } else {
        *r.pick(&["alternative", "related", "MIXED"])
    };
    let mut s = format!("Content-Type: multipart/{sub}; boundary={quoted}\n");
    if !top || r.chance(92) {
        s.push_str("MIME-Version: 1.0\n");
    }
    if top && r.chance(5) {
        s.push_str("Number-Attachments: 3\n");
    }
    s.push('\n');
    if r.chance(15) {
        s.push_str("This is a preamble.\n\n");
    }
    let n = 1 + r.below(5);
    for i in 0..n {
        s.push_str(&format!("--{b}\n{}\n", mime_part(r, i, depth)));
    }
    if r.chance(90) {
        s.push_str(&format!("--{b}--\n"));
        if r.chance(15) {
            s.push_str("epilogue text\n");
        }
    }
    s
}

/// A single-part (non-multipart) MIME message.
fn single_mime(r: &mut Rng) -> String {
    let ctype = *r.pick(CTYPES);
    let body = body_for(r, ctype);
    let mut s = String::from("MIME-Version: 1.0\n");
    if !ctype.is_empty() {
        s.push_str(&format!("Content-Type: {ctype}\n"));
    }
    if r.chance(40) {
        s.push_str(&format!("Merge-Type: {}\n", spec(r)));
    }
    if r.chance(30) {
        s.push_str("Content-Transfer-Encoding: base64\n\n");
        s.push_str(&wrap76(&B64.encode(body.as_bytes())));
    } else {
        s.push('\n');
        s.push_str(&body);
    }
    s
}

/// A non-MIME top-level payload.
fn plain(r: &mut Rng) -> Vec<u8> {
    match r.below(24) {
        0..=9 => cloud_config(r).into_bytes(),
        10 => "#!/bin/sh\necho hi\n".into(),
        11 => "#cloud-boothook\necho boot\n".into(),
        12 | 13 => jsonp(r).into_bytes(),
        14..=16 => archive(r, 0).into_bytes(),
        17 => r
            .pick(&[
                "#include\n",
                "#include\n# just a comment\n\n",
                "#include-once\n",
                "#Include\n#include-once\n",
            ])
            .as_bytes()
            .to_vec(),
        18 => r
            .pick(&[
                "#include http://127.0.0.1:9/none\n",
                "#include\n  # indented comment\n",
            ])
            .as_bytes()
            .to_vec(),
        19 => r
            .pick(&[
                "just some words\n",
                "",
                " ",
                "\n",
                "#part-handler\ndef list_types(): return []\n",
                "## template:jinja\n#cloud-config\na: 1\n",
            ])
            .as_bytes()
            .to_vec(),
        20 => format!("{}# mime-version: 1.0\n", cloud_config(r)).into_bytes(),
        21 => {
            // Latin-1 bytes (not UTF-8) in a plain cloud-config.
            let mut v = b"#cloud-config\na: ".to_vec();
            v.extend_from_slice(&[0xe9, b'\n']);
            v
        }
        22 => cloud_config(r).replace('\n', "\r\n").into_bytes(),
        _ => format!("{}\n", multipart(r, 0, true))
            .replace("MIME-Version: 1.0\n", "")
            .into_bytes(),
    }
}

/// A whole payload, and the launch index to apply (if any).
pub(crate) fn payload(r: &mut Rng) -> (Vec<u8>, Option<i64>) {
    let launch_index = if r.chance(20) {
        Some(*r.pick(&[0, 1, 2, -1]))
    } else {
        None
    };
    let mut bytes = match r.below(10) {
        0..=3 => plain(r),
        4..=8 => multipart(r, 0, true).into_bytes(),
        _ if r.chance(30) => {
            let levels = 1 + r.below(4);
            format!("MIME-Version: 1.0\n{}", rfc822(r, 0, 1, levels)).into_bytes()
        }
        _ => single_mime(r).into_bytes(),
    };
    if r.chance(8) {
        bytes = String::from_utf8_lossy(&bytes)
            .replace('\n', "\r\n")
            .into_bytes();
    }
    if r.chance(3) {
        // A stray Latin-1 byte: a MIME document must be UTF-8.
        let at = r.below(bytes.len() + 1);
        bytes.insert(at, 0xe9);
    }
    match r.below(40) {
        0..=2 => bytes = gzip(&bytes),
        3 => bytes = gzip(&gzip(&bytes)),
        4 => {
            let g = gzip(&bytes);
            bytes = g[..g.len() * 2 / 3].to_vec();
        }
        5 => {
            bytes = gzip(&bytes);
            bytes.extend_from_slice(b"trailing garbage");
        }
        _ => {}
    }
    (bytes, launch_index)
}

/// Merge specs that resolve, for payloads meant to merge (the spread of decisions).
pub(crate) const GOOD_SPECS: &[&str] = &[
    "list(append)+dict(no_replace,recurse_list)+str()",
    "list(prepend)+dict(no_replace,recurse_list)+str()",
    "list()+dict(replace,recurse_list)+str()",
    "list(replace,recurse_dict)+dict(no_replace,recurse_list,recurse_dict)",
    "dict(allow_delete,no_replace)+list(append)",
    "dict(allow_delete,replace)+list(prepend)",
    "dict(recurse_str)+str(append)+list(append)",
    "dict(recurse_str,recurse_list)+str(append)+list(no_replace)",
    "list(no_replace)+dict(recurse_list)",
    "list(append,recurse_str)+dict(recurse_array,recurse_str)+str(append)",
    "dict(replace)",
    "list()+dict(no_replace,recurse_list)+str()",
    "list(replace)+dict(recurse_list,recurse_dict)",
    "",
];

/// A value for a merge-heavy part: scalars, strings to append, nulls to delete with,
/// nested mappings holding lists.
pub(crate) fn merge_value(r: &mut Rng) -> String {
    match r.below(10) {
        0 | 1 => format!(" s{}\n", r.below(4)),
        2 => " ~\n".into(),
        3 => format!(
            "\n  x: [{}, {}]\n  y: {}\n",
            scalar(r),
            scalar(r),
            scalar(r)
        ),
        4 => format!("\n  - s{}\n  - {{k: s{}}}\n", r.below(3), r.below(3)),
        _ => value(r, 0, 0),
    }
}

/// One part of a [`merge_payload`]: its content type and body (a cloud-config
/// touching the common keys, maybe with `merge_how`; sometimes a JSON patch or
/// a random, possibly broken, cloud-config).
pub(crate) fn merge_part(r: &mut Rng) -> (&'static str, String) {
    match r.below(20) {
        0 => ("text/cloud-config-jsonp", jsonp(r)),
        1 => ("text/cloud-config", cloud_config(r)),
        _ => {
            let mut body = String::from("#cloud-config\n");
            for _ in 0..1 + r.below(5) {
                let k = r.pick(&["runcmd", "packages", "hostname", "a", "nested", "users"]);
                body.push_str(&format!("{k}:{}", merge_value(r)));
            }
            if r.chance(10) {
                body.push_str("anch: &x [1, s2]\nref: *x\n");
            }
            if r.chance(15) {
                body.push_str(&format!("merge_how: '{}'\n", r.pick(GOOD_SPECS)));
            } else if r.chance(5) {
                body.push_str(&merge_key(r));
            }
            ("text/cloud-config", body)
        }
    }
}

/// A multipart payload of several cloud-config parts that touch the same keys
/// with varied merge specs (headers and `merge_how`), sometimes a JSON patch or a
/// broken part: what `explain` has to attribute.
pub(crate) fn merge_payload(r: &mut Rng) -> (Vec<u8>, Option<i64>) {
    let b = "MERGEBOUNDARY";
    let mut s = format!("Content-Type: multipart/mixed; boundary=\"{b}\"\nMIME-Version: 1.0\n\n");
    let n = 2 + r.below(4);
    for i in 0..n {
        let (ctype, body) = merge_part(r);
        s.push_str(&format!("--{b}\nContent-Type: {ctype}\n"));
        if r.chance(60) {
            s.push_str(&format!("Merge-Type: {}\n", r.pick(GOOD_SPECS)));
        } else if r.chance(10) {
            s.push_str(&format!("Merge-Type: {}\n", spec(r)));
        }
        s.push_str(&format!(
            "Content-Disposition: attachment; filename=\"p{i}.yaml\"\n\n{body}\n"
        ));
    }
    s.push_str(&format!("--{b}--\n"));
    (s.into_bytes(), None)
}
