//! Fuzz target: `build` arbitrary parts with arbitrary options, read the payload back, assert the round trip.
//!
//! The property is the one `tests/integration/build_roundtrip.rs` checks with proptest:
//! whatever `build` accepts, cloud-init's pipeline (our `render`) reads back
//! as exactly the parts meant — same count, types, filenames, merge headers,
//! extra headers and payload bytes — and the other layout style reads the
//! same. `build` refusing an input is fine; a wrong read-back is a crash.
#![no_main]

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::build::{BuildOptions, PartSpec, Style, build};
use cloudfold::userdata::{Folded, NoIncludes, Payload, UserDataOptions, render};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

/// Content starts that steer cloud-init's type detection.
const STARTS: &[&str] = &[
    "#cloud-config\n",
    "#cloud-config\r\n",
    "#!/bin/sh\n",
    "#cloud-boothook\n",
    "#part-handler\n",
    "#upstart-job\n",
    "## template: jinja\n",
    "#cloud-config-archive\n",
    "#include\n",
    "",
];

/// Declared types: short names, full types, odd ones the builder must refuse.
const TYPES: &[&str] = &[
    "cloud-config",
    "text/cloud-config",
    "x-shellscript",
    "x-shellscript-per-boot",
    "cloud-boothook",
    "text/plain",
    "jinja2",
    "part-handler",
    "cloud-config-jsonp",
    "application/octet-stream",
    "TEXT/Cloud-Config",
    "text/x-not-multipart",
];

/// Types whose parts cloud-init expands instead of keeping.
const EXPANDED: &[&str] = &[
    "text/cloud-config-archive",
    "text/x-include-url",
    "text/x-include-once-url",
];

const MERGES: &[&str] = &[
    "append",
    "prepend",
    "replace",
    "default",
    "dict(replace)+list(append)",
    "list(append)+dict(no_replace,recurse_list)+str()",
];

fn pick<'a>(u: &mut Unstructured<'_>, from: &[&'a str]) -> Result<&'a str> {
    Ok(*u.choose(from)?)
}

fn text(u: &mut Unstructured<'_>) -> Result<String> {
    // Mostly short, sometimes anything arbitrary gives.
    if u.ratio(1, 4)? {
        u.arbitrary::<String>()
    } else {
        let n = u.int_in_range(0..=12)?;
        let mut s = String::new();
        for _ in 0..n {
            s.push(*u.choose(&['a', 'z', ' ', '-', '.', '\t', 'é', '€', '😀', '\r', '\n', ':', '"', '=', ';'])?);
        }
        Ok(s)
    }
}

fn part(u: &mut Unstructured<'_>) -> Result<PartSpec> {
    let mut content = pick(u, STARTS)?.as_bytes().to_vec();
    if u.ratio(1, 3)? {
        content.extend_from_slice(u.arbitrary::<&[u8]>()?);
    } else {
        content.extend_from_slice(text(u)?.as_bytes());
    }
    let content_type = if u.arbitrary()? {
        Some(if u.ratio(1, 8)? { text(u)? } else { pick(u, TYPES)?.to_owned() })
    } else {
        None
    };
    let filename = if u.arbitrary()? { Some(text(u)?) } else { None };
    let merge_type = if u.ratio(1, 3)? {
        Some(if u.ratio(1, 6)? { text(u)? } else { pick(u, MERGES)?.to_owned() })
    } else {
        None
    };
    let mut headers = Vec::new();
    for _ in 0..u.int_in_range(0..=2)? {
        let name = if u.arbitrary()? { "X-Note".to_owned() } else { text(u)? };
        headers.push((name, text(u)?));
    }
    Ok(PartSpec { content, content_type, filename, merge_type, headers })
}

fn options(u: &mut Unstructured<'_>) -> Result<BuildOptions> {
    Ok(BuildOptions {
        style: if u.arbitrary()? { Style::Terraform } else { Style::CloudInit },
        boundary: if u.ratio(1, 5)? { Some(text(u)?) } else { None },
        merge_type: if u.ratio(1, 4)? { Some(pick(u, MERGES)?.to_owned()) } else { None },
        gzip: u.arbitrary()?,
        base64: *u.choose(&[None, Some(true), Some(false)])?,
        force: u.ratio(1, 8)?,
    })
}

fn payload_bytes(p: Payload) -> Option<Vec<u8>> {
    match p {
        Payload::Text(t) => t.to_utf8_surrogateescape(),
        Payload::Bytes(b) => Some(b),
        Payload::None => Some(Vec::new()),
    }
}

fn summary(f: &Folded) -> Vec<(String, String, Option<String>, Option<Vec<u8>>)> {
    f.parts
        .iter()
        .map(|p| {
            (
                p.content_type().to_owned(),
                p.filename().into_owned(),
                p.merge_type_header(),
                payload_bytes(p.leaf.payload()),
            )
        })
        .collect()
}

fn run(data: &[u8]) -> Result<()> {
    let mut u = Unstructured::new(data);
    let opts = options(&mut u)?;
    let n = u.int_in_range(1..=4)?;
    let mut specs = Vec::new();
    for _ in 0..n {
        specs.push(part(&mut u)?);
    }
    let Ok(built) = build(&specs, &opts) else {
        return Ok(());
    };
    // Parts cloud-init replaces by what they point to (an archive's entries,
    // an include's fetched documents): not read back as themselves, by design.
    if built.parts.iter().any(|p| EXPANDED.contains(&p.content_type.as_str())) {
        return Ok(());
    }
    if opts.force {
        // Forced parts may be re-typed by cloud-init (even into an include or
        // an archive): nothing is promised beyond a clean fold or abort.
        let mut input = built.bytes.clone();
        if opts.base64_output() {
            input = B64.decode(&input).expect("build's base64 decodes");
        }
        let _ = render(&input, &UserDataOptions::default(), &NoIncludes);
        return Ok(());
    }
    assert_eq!(build(&specs, &opts).ok().as_ref(), Some(&built), "build is not deterministic");
    let mut input = built.bytes.clone();
    if opts.base64_output() {
        input = B64.decode(&input).expect("build's base64 decodes");
    }
    let folded = render(&input, &UserDataOptions::default(), &NoIncludes).expect("a built payload folds");
    assert_eq!(folded.parts.len(), specs.len(), "part count");
    for (i, (spec, got)) in specs.iter().zip(&folded.parts).enumerate() {
        let want = &built.parts[i];
        assert_eq!(
            payload_bytes(got.leaf.payload()).as_deref(),
            Some(spec.content.as_slice()),
            "part {} bytes",
            i + 1
        );
        assert_eq!(got.content_type(), want.content_type, "part {} type: {spec:?} {opts:?}", i + 1);
        let name = spec.filename.clone().unwrap_or_else(|| format!("part-{:03}", i + 1));
        assert_eq!(got.filename(), name, "part {} filename", i + 1);
        assert_eq!(got.merge_type_header(), want.merge_type, "part {} merge type", i + 1);
        for (k, (h, v)) in spec.headers.iter().enumerate() {
            // `get` is Python's `msg[name]`: the first header of that name.
            if spec.headers.iter().take(k).any(|(e, _)| e.eq_ignore_ascii_case(h)) {
                continue;
            }
            let read = got.leaf.get(h).map(|x| x.to_py_str().to_string_lossy().into_owned());
            assert_eq!(read.as_deref(), Some(v.as_str()), "part {} header {h}", i + 1);
        }
    }
    // cloud-init reads the other layout style identically.
    let other = BuildOptions {
        style: match opts.style {
            Style::CloudInit => Style::Terraform,
            Style::Terraform => Style::CloudInit,
        },
        gzip: false,
        base64: Some(false),
        ..opts.clone()
    };
    if let Ok(other) = build(&specs, &other) {
        let other = render(&other.bytes, &UserDataOptions::default(), &NoIncludes).expect("the other style folds");
        assert_eq!(summary(&other), summary(&folded), "styles read differently");
        assert_eq!(other.cloud_config_txt, folded.cloud_config_txt, "styles fold differently");
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(data);
});
