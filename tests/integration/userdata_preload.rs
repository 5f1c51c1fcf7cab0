//! Loading cloud-config parts on a helper thread changes nothing: the same
//! config, spans, part outcomes and warnings as loading each part in turn.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use cloudfold::userdata::{Folded, NoIncludes, Preload, Release, UserDataOptions, render};
use cloudfold::yaml::Node;
use std::fmt::Write as _;

/// Every node's span and value kind, depth first, keys before values.
fn spans(node: &Node, out: &mut String) {
    let s = node.span();
    let _ = write!(
        out,
        "{}:{}:{}-{}:{}:{} ",
        node.type_name(),
        s.source.0,
        s.start.index,
        s.end.index,
        s.start.line,
        s.start.column
    );
    if let Some(m) = node.as_map() {
        for (k, v) in m.iter() {
            spans(k, out);
            spans(v, out);
        }
    } else if let Some(items) = node.as_seq() {
        for v in items {
            spans(v, out);
        }
    }
}

/// All of a fold that a user or `explain` can see.
fn seen(f: &Folded) -> String {
    let mut out = f.cloud_config_txt.clone();
    if let Some(c) = &f.config {
        spans(c, &mut out);
    }
    for p in &f.parts {
        let _ = writeln!(out, "{} {} {:?}", p.number, p.filename(), p.outcome);
    }
    for w in &f.warnings {
        let _ = writeln!(out, "{}: {}", w.origin, w.message);
    }
    let _ = writeln!(out, "{:?} {:?}", f.file_names, f.error_file_names);
    out
}

/// A small deterministic generator (no dependency on the run's seed).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// One part of a generated payload: its headers and body.
fn part(rng: &mut Lcg, i: usize) -> (String, Vec<u8>) {
    let merge = match rng.below(3) {
        0 => "",
        1 => "Merge-Type: list(append)+dict(recurse_array)+str()\n",
        _ => "X-Merge-Type: dict(no_replace,recurse_list)\n",
    };
    let ctype = "Content-Type: text/cloud-config\n";
    let body: Vec<u8> = match rng.below(10) {
        0 => b"runcmd: [unclosed\n".to_vec(),
        1 => b"- a list\n- not a map\n".to_vec(),
        2 => b"".to_vec(),
        3 => format!("#cloud-config\nwrite_files:\n- path: /f{i}\n  content: café\n")
            .into_bytes(),
        4 => {
            // Not UTF-8: the handler loads it as a Python string itself.
            let mut b = format!("#cloud-config\nbad_utf8_{i}: \"").into_bytes();
            b.extend_from_slice(b"\xff\xfe\"\n");
            return (
                format!("{ctype}{merge}Content-Transfer-Encoding: base64\n"),
                STANDARD.encode(b).into_bytes(),
            );
        }
        5 => {
            return (
                "Content-Type: application/json-patch+json\n".to_owned(),
                format!(r#"[{{"op": "add", "path": "/patched_{i}", "value": {i}}}]"#).into_bytes(),
            );
        }
        6 => return ("Content-Type: text/x-shellscript\n".to_owned(), b"#!/bin/sh\necho hi\n".to_vec()),
        7 => format!(
            "merge_how:\n - name: list\n   settings: [prepend]\nruncmd:\n- [echo, {i}]\nbase: &b {{k: {i}}}\nuse: *b\n"
        )
        .into_bytes(),
        _ => format!(
            "#cloud-config\nruncmd:\n- echo {i}\n- [sh, -c, 'x={i}']\npackages: [p{i}]\nusers:\n- name: u{i}\n  groups: [adm]\nkey_{}: {{a: [1, 2], b: yes}}\n",
            rng.below(4)
        )
        .into_bytes(),
    };
    (format!("{ctype}{merge}"), body)
}

fn payload(rng: &mut Lcg, parts: usize) -> Vec<u8> {
    let mut out =
        b"Content-Type: multipart/mixed; boundary=\"==B==\"\nMIME-Version: 1.0\n\n".to_vec();
    for i in 0..parts {
        let (headers, body) = part(rng, i);
        out.extend_from_slice(b"--==B==\n");
        out.extend_from_slice(headers.as_bytes());
        out.extend_from_slice(b"\n");
        out.extend_from_slice(&body);
        out.extend_from_slice(b"\n");
    }
    out.extend_from_slice(b"--==B==--\n");
    out
}

fn opts(release: Release, preload: Preload) -> UserDataOptions {
    UserDataOptions {
        release,
        preload,
        ..UserDataOptions::default()
    }
}

#[test]
fn preloading_changes_nothing() {
    let mut rng = Lcg(7);
    // More parts than the helper may run ahead, and payloads over the
    // automatic threshold, so every path of the hand-over is taken.
    for &parts in &[1, 2, 3, 17, 40, 100, 400] {
        for release in [Release::V22_4, Release::V25_1] {
            let input = payload(&mut rng, parts);
            if parts >= 400 {
                // Over the threshold: `Auto` takes the helper path too.
                assert!(input.len() > Preload::MIN_BYTES);
            }
            let off = render(&input, &opts(release, Preload::Off), &NoIncludes);
            let off = off.expect("a multipart payload folds");
            for preload in [Preload::Always, Preload::Auto] {
                let on = render(&input, &opts(release, preload), &NoIncludes)
                    .expect("a multipart payload folds");
                assert_eq!(seen(&off), seen(&on), "{parts} parts, {preload:?}");
            }
        }
    }
}

/// Parts that append to the same keys: a merged config large enough for the
/// helper, done loading, to write the second half of its dump (and a MIME
/// body large enough for it to parse the second half of, before that).
#[test]
fn the_helper_writes_half_of_a_large_dump() {
    let mut out =
        b"Content-Type: multipart/mixed; boundary=\"==B==\"\nMIME-Version: 1.0\n\n".to_vec();
    for i in 0..1500 {
        let part = format!(
            "--==B==\nContent-Type: text/cloud-config\nMerge-Type: list(append)+dict(recurse_array)+str()\n\n\
             runcmd:\n- echo {i}\n- [sh, -c, 'printf \"%s\\n\" {i} >> /var/log/x']\n\
             packages: [pkg-{i}]\nwrite_files:\n- path: /etc/part-{i}.conf\n  content: |\n    line {i}\n    other\n\
             key_{i}: {{a: [1, 2], b: yes, c: \"quoted # {i}\"}}\n"
        );
        out.extend_from_slice(part.as_bytes());
    }
    out.extend_from_slice(b"--==B==--\n");
    for release in [Release::V22_4, Release::V25_1] {
        let off = render(&out, &opts(release, Preload::Off), &NoIncludes).unwrap();
        assert!(off.cloud_config_txt.len() > 256 << 10);
        assert!(!off.cloud_config_txt.contains("&id"));
        for preload in [Preload::Always, Preload::Auto] {
            let on = render(&out, &opts(release, preload), &NoIncludes).unwrap();
            assert_eq!(seen(&off), seen(&on), "{preload:?}");
        }
    }
}

/// A payload whose parts do not keep the handler positions their place in
/// the document suggests: message/rfc822 parts (handed over again), parts
/// filtered by launch index, scripts and plain text that begin like
/// cloud-config. The helper loads parts guessed from the document before
/// the fold knows the positions; a wrong guess must not count.
fn shifting_payload(rng: &mut Lcg, parts: usize) -> Vec<u8> {
    let mut out =
        b"Content-Type: multipart/mixed; boundary=\"==B==\"\nMIME-Version: 1.0\n\n".to_vec();
    for i in 0..parts {
        let cc = format!(
            "#cloud-config\nruncmd:\n- echo {i}\npackages: [p{i}]\nkey_{}: {i}\n",
            rng.below(3)
        );
        // The first part filtered out is never one of the guesses: those
        // after it are then guessed one place off.
        let choice = if i == 1 { 7 } else { rng.below(9) };
        let part = match choice {
            // Not guessed, but filtered out by launch index 1.
            7 => format!(
                "Content-Type: text/x-shellscript\nLaunch-Index: 2\n\n#!/bin/sh\necho {i}\n"
            ),
            0 => format!("Content-Type: message/rfc822\n\nContent-Type: text/cloud-config\n\n{cc}"),
            1 => format!(
                "Content-Type: text/cloud-config\nLaunch-Index: {}\n\n{cc}",
                rng.below(3)
            ),
            2 => format!("Content-Type: text/x-shellscript\n\n{cc}"),
            3 => format!("Content-Type: text/plain\n\n{cc}"),
            4 => format!(
                "Content-Type: text/cloud-config\n\nlaunch-index: {}\n{cc}",
                rng.below(3)
            ),
            _ => format!("Content-Type: text/cloud-config\n\n{cc}"),
        };
        out.extend_from_slice(b"--==B==\n");
        out.extend_from_slice(part.as_bytes());
        out.extend_from_slice(b"\n");
    }
    out.extend_from_slice(b"--==B==--\n");
    out
}

#[test]
fn parts_guessed_at_the_wrong_place_change_nothing() {
    let mut rng = Lcg(11);
    for &parts in &[5, 70, 300, 700] {
        let input = shifting_payload(&mut rng, parts);
        for launch_index in [None, Some(1)] {
            let base = UserDataOptions {
                launch_index,
                ..opts(Release::V22_4, Preload::Off)
            };
            let off = render(&input, &base, &NoIncludes).expect("the payload folds");
            for preload in [Preload::Always, Preload::Auto] {
                let with = UserDataOptions {
                    preload,
                    ..base.clone()
                };
                let on = render(&input, &with, &NoIncludes).expect("the payload folds");
                assert_eq!(
                    seen(&off),
                    seen(&on),
                    "{parts} parts, {launch_index:?}, {preload:?}"
                );
            }
        }
    }
}
