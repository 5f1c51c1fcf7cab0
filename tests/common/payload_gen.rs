//! A random user-data payload generator: every payload shape cloud-init reads, merge specs, bad parts.

#![allow(dead_code)]

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

fn scalar(r: &mut Rng) -> String {
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

/// A cloud-config document body (maybe with merge_how / merge_type, maybe broken).
pub fn cloud_config(r: &mut Rng) -> String {
    let mut s = String::from(if r.chance(90) {
        "#cloud-config\n"
    } else {
        "#Cloud-Config\n"
    });
    let bad = r.below(100);
    if bad < 4 {
        s.push_str("a: 1\n\tb: 2\n");
        return s;
    }
    if bad < 7 {
        s.push_str("- just\n- a list\n");
        return s;
    }
    if bad < 9 {
        return s;
    }
    let n = 1 + r.below(5);
    for _ in 0..n {
        let k = r.pick(KEYS);
        s.push_str(&format!("{k}:{}", value(r, 0, 0)));
    }
    match r.below(10) {
        0 | 1 => s.push_str(&format!("merge_how: '{}'\n", r.pick(SPECS))),
        2 => s.push_str("merge_how:\n - name: list\n   settings: [append]\n - name: dict\n   settings: [no_replace, recurse_list]\n"),
        3 => s.push_str("merge_type: 'list(append)+dict(recurse_array)+str()'\n"),
        4 => s.push_str("merge_how:\n - [dict, no_replace, recurse_list]\n - [list, append]\n"),
        _ => {}
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

/// One MIME part: (headers, body) text.
fn mime_part(r: &mut Rng, n: usize) -> String {
    let mut headers = Vec::new();
    let (ctype, body): (&str, String) = match r.below(14) {
        0..=5 => ("text/cloud-config", cloud_config(r)),
        6 => ("text/plain", cloud_config(r)),
        7 => (
            "text/x-shellscript",
            if r.chance(50) {
                "#!/bin/sh\necho hi\n".into()
            } else {
                cloud_config(r)
            },
        ),
        8 => ("text/cloud-boothook", "#cloud-boothook\necho boot\n".into()),
        9 => (
            "text/cloud-config-jsonp",
            r.pick(&[
                "[{\"op\": \"add\", \"path\": \"/jp\", \"value\": [1, 2]}]",
                "#cloud-config-jsonp\n[{\"op\": \"replace\", \"path\": \"/a\", \"value\": \"c\"}]",
                "[{\"op\": \"remove\", \"path\": \"/runcmd\"}]",
                "[{\"op\": \"add\", \"path\": \"/runcmd/-\", \"value\": \"echo jp\"}]",
                "not json",
            ])
            .to_string(),
        ),
        10 => (
            "text/cloud-config-archive",
            format!(
                "#cloud-config-archive\n- type: text/cloud-config\n  content: |\n    #cloud-config\n    arch: {}\n- \"#cloud-config\\nfromstr: 1\\n\"\n- 42\n",
                r.below(9)
            ),
        ),
        11 => ("application/octet-stream", "binary-ish".into()),
        12 => ("text/plain", "just text\n".into()),
        _ => ("text/x-unknown", cloud_config(r)),
    };
    headers.push(format!(
        "Content-Type: {ctype}{}",
        if r.chance(30) {
            "; charset=\"us-ascii\""
        } else {
            ""
        }
    ));
    headers.push("MIME-Version: 1.0".into());
    if r.chance(60) {
        headers.push(format!(
            "Content-Disposition: attachment; filename=\"f{n}.cfg\""
        ));
    }
    if r.chance(40) {
        let name = r.pick(&["Merge-Type", "X-Merge-Type", "merge-type", "Merge-Type"]);
        headers.push(format!("{name}: {}", r.pick(SPECS)));
    }
    if r.chance(10) {
        headers.push(format!("Launch-Index: {}", r.pick(&["0", "1", "2", "abc"])));
    }
    let (cte, encoded) = match r.below(10) {
        0..=2 => ("base64", wrap76(&B64.encode(body.as_bytes()))),
        3 if ctype.starts_with("text/cloud-config") => {
            let gz = gzip(body.as_bytes());
            headers[0] = "Content-Type: application/x-gzip".into();
            ("base64", wrap76(&B64.encode(gz)))
        }
        _ => ("7bit", body),
    };
    headers.push(format!("Content-Transfer-Encoding: {cte}"));
    format!("{}\n\n{}", headers.join("\n"), encoded)
}

/// A whole payload, and the launch index to apply (if any).
pub fn payload(r: &mut Rng) -> (Vec<u8>, Option<i64>) {
    let launch_index = if r.chance(15) {
        Some(r.below(3) as i64)
    } else {
        None
    };
    let bytes = match r.below(10) {
        0..=2 => cloud_config(r).into_bytes(),
        3 => gzip(cloud_config(r).as_bytes()),
        _ => {
            let boundary = format!("==============={}==", r.next_u64() % 1_000_000);
            let n = 1 + r.below(6);
            let mut s = format!(
                "Content-Type: multipart/mixed; boundary=\"{boundary}\"\nMIME-Version: 1.0\n\n"
            );
            for i in 0..n {
                s.push_str(&format!("--{boundary}\n{}\n", mime_part(r, i)));
            }
            s.push_str(&format!("--{boundary}--\n"));
            if r.chance(10) {
                gzip(s.as_bytes())
            } else {
                s.into_bytes()
            }
        }
    };
    (bytes, launch_index)
}
