//! The command line from outside: golden cases (`../fixtures/cli/`), the README's examples, the man page.

use std::process::Command;

#[test]
fn cli_golden_cases() {
    // The README's examples name files from the repository root, and trycmd runs a
    // Markdown file's commands in the test's directory: the package's. Every other test
    // of this binary uses absolute paths, so moving the process there is safe.
    std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).unwrap();
    trycmd::TestCases::new()
        .case("fixtures/cli/*.toml")
        .case("README.md");
}

/// `--version` names exactly the cloud-init releases the library emulates.
#[test]
fn version_names_the_emulated_releases() {
    let out = Command::new(env!("CARGO_BIN_EXE_cloudfold"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    let upstream: Vec<&str> = cloudfold::userdata::Release::ALL
        .iter()
        .map(|r| r.upstream())
        .collect();
    let expected = format!(
        "cloudfold {} (emulates cloud-init {})\n",
        env!("CARGO_PKG_VERSION"),
        upstream.join(" and ")
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}

/// `man/cloudfold.1` is generated from the clap definitions; regenerate with
/// `CLOUDFOLD_BLESS=1 cargo test -p cloudfold-cli --test cli`.
#[test]
fn man_page_is_current() {
    let out = Command::new(env!("CARGO_BIN_EXE_cloudfold"))
        .arg("man")
        .output()
        .unwrap();
    assert!(out.status.success());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/man/cloudfold.1");
    if std::env::var_os("CLOUDFOLD_BLESS").is_some() {
        std::fs::write(path, &out.stdout).unwrap();
    }
    let committed = std::fs::read(path).unwrap_or_default();
    assert!(
        committed == out.stdout,
        "man/cloudfold.1 is stale: regenerate it with CLOUDFOLD_BLESS=1 cargo test -p cloudfold-cli --test cli"
    );
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = Command::new(env!("CARGO_BIN_EXE_cloudfold"))
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(out.status.success(), "{shell}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("render"),
            "{shell}"
        );
    }
}

/// `build -o` writes the payload with mode 0600, the same bytes as stdout, and no temp file left.
#[test]
fn build_output_is_private_and_atomic() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("cloudfold-build-o-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/base.yaml");
    let out = dir.join("user-data");
    let run = |extra: &[&std::ffi::OsStr]| {
        Command::new(env!("CARGO_BIN_EXE_cloudfold"))
            .arg("build")
            .arg(input)
            .args(extra)
            .output()
            .unwrap()
    };
    let to_file = run(&[std::ffi::OsStr::new("-o"), out.as_os_str()]);
    assert!(to_file.status.success());
    assert!(to_file.stdout.is_empty());
    let to_stdout = run(&[]);
    assert_eq!(std::fs::read(&out).unwrap(), to_stdout.stdout);
    let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(leftovers.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `build` then `parts --extract` gives every part back byte for byte; `--gzip --no-base64`
/// writes raw gzip that `render` reads like the plain payload.
#[test]
fn build_then_extract_round_trip() {
    let dir = std::env::temp_dir().join(format!("cloudfold-build-x-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let files: [(&str, &[u8]); 3] = [
        (
            "a.yaml",
            b"#cloud-config\nmotd: \"h\xc3\xa9llo \xe2\x82\xac\"\r\n",
        ),
        ("b.sh", b"#!/bin/sh\necho \xff\xfe not utf-8\n"),
        ("c.yaml", b"#cloud-config\nruncmd: [ls]"),
    ];
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let bin = env!("CARGO_BIN_EXE_cloudfold");
    let run = |args: &[&str]| {
        let out = Command::new(bin)
            .current_dir(&dir)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    for style in ["cloud-init", "terraform"] {
        run(&[
            "build",
            "--style",
            style,
            "--merge-type",
            "append",
            "a.yaml",
            "b.sh:x-shellscript",
            "c.yaml",
            "-o",
            "ud",
        ]);
        let x = format!("x-{style}");
        run(&["parts", "ud", "--extract", &x]);
        for (i, (name, bytes)) in files.iter().enumerate() {
            let got = std::fs::read(dir.join(&x).join(format!("{:03}-{name}", i + 1))).unwrap();
            assert_eq!(&got, bytes, "{style} {name}");
        }
    }
    let plain = run(&["render", "ud"]).stdout;
    run(&[
        "build",
        "--style",
        "terraform",
        "--merge-type",
        "append",
        "a.yaml",
        "b.sh:x-shellscript",
        "c.yaml",
        "--gzip",
        "--no-base64",
        "-o",
        "ud.gz",
    ]);
    let gz = std::fs::read(dir.join("ud.gz")).unwrap();
    assert_eq!(&gz[..2], b"\x1f\x8b");
    assert_eq!(run(&["render", "ud.gz"]).stdout, plain);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A reader that stops early (`cloudfold render | head`) is not an error:
/// no "internal error", no message, exit 0 — for every command that prints.
#[test]
fn closed_stdout_is_quiet() {
    use std::io::Write;
    use std::process::Stdio;
    let dir = std::env::temp_dir().join(format!("cloudfold-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.yaml");
    let mut doc = String::from("#cloud-config\nruncmd:\n");
    for i in 0..20_000 {
        doc.push_str(&format!("  - echo line {i}\n"));
    }
    std::fs::File::create(&input)
        .unwrap()
        .write_all(doc.as_bytes())
        .unwrap();
    let input = input.to_str().unwrap();
    let commands: [&[&str]; 5] = [
        &["render", input],
        &["render", "--format", "json", input],
        &["parts", input],
        &["explain", input],
        &["man"],
    ];
    for args in commands {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cloudfold"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Closed before the child writes: its first write fails with EPIPE.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `seed`: every form written with mode 0600 and no temp file left; the same inputs give the
/// same bytes (twice), SOURCE_DATE_EPOCH changes them; a seed directory is replaced, a directory
/// holding anything else is not; each form reads back through `render`.
#[test]
fn seed_is_private_atomic_and_deterministic() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("cloudfold-seed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ud"), "#cloud-config\nhostname: a\n").unwrap();
    let bin = env!("CARGO_BIN_EXE_cloudfold");
    let run = |args: &[&str], epoch: Option<&str>| {
        let mut c = Command::new(bin);
        c.current_dir(&dir)
            .args(args)
            .env_remove("SOURCE_DATE_EPOCH");
        if let Some(e) = epoch {
            c.env("SOURCE_DATE_EPOCH", e);
        }
        let out = c.output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let mode = |p: &str| std::fs::metadata(dir.join(p)).unwrap().permissions().mode() & 0o777;
    for (format, out) in [("iso", "a.iso"), ("vfat", "a.img")] {
        let args = [
            "seed",
            out,
            "--format",
            format,
            "--user-data",
            "ud",
            "--hostname",
            "h",
        ];
        assert_eq!(run(&args, None).0, Some(0));
        let first = std::fs::read(dir.join(out)).unwrap();
        assert_eq!(mode(out), 0o600);
        assert_eq!(run(&args, None).0, Some(0));
        assert_eq!(
            std::fs::read(dir.join(out)).unwrap(),
            first,
            "{format}: two runs differ"
        );
        assert_eq!(run(&args, Some("1700000000")).0, Some(0));
        assert_ne!(
            std::fs::read(dir.join(out)).unwrap(),
            first,
            "{format}: epoch ignored"
        );
        assert_eq!(run(&args, Some("soon")).0, Some(2));
        let render = Command::new(bin)
            .current_dir(&dir)
            .args(["render", out])
            .output()
            .unwrap();
        assert_eq!(render.stdout, b"#cloud-config\nhostname: a\n");
    }
    assert_eq!(
        run(&["seed", "s", "--format", "dir", "--user-data", "ud"], None).0,
        Some(0)
    );
    assert_eq!(mode("s"), 0o700);
    assert_eq!(mode("s/user-data"), 0o600);
    // A seed directory is replaced (network-config gone, new meta-data); any other file stops it.
    assert_eq!(
        run(
            &[
                "seed",
                "s",
                "--format",
                "dir",
                "--user-data",
                "ud",
                "--instance-id",
                "i-2"
            ],
            None
        )
        .0,
        Some(0)
    );
    assert_eq!(
        std::fs::read(dir.join("s/meta-data")).unwrap(),
        b"instance-id: \"i-2\"\n"
    );
    std::fs::write(dir.join("s/keep"), "x").unwrap();
    let (code, err) = run(&["seed", "s", "--format", "dir", "--user-data", "ud"], None);
    assert_eq!(code, Some(2), "{err}");
    assert!(dir.join("s/keep").exists());
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["a.img", "a.iso", "s", "ud"],
        "temp files left behind"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `diff`'s colour on a terminal: on by default, off with `NO_COLOR` (any
/// non-empty value) or `--color never`, on with `--color always` whatever
/// `NO_COLOR` says (the flag is the user's explicit choice). A terminal needs
/// a pty: util-linux `script` (in every Debian base system) provides it.
#[test]
fn diff_colour_on_a_terminal() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/cli/diff.in");
    let bin = env!("CARGO_BIN_EXE_cloudfold");
    let on_tty = |flags: &str, no_color: Option<&str>| -> String {
        let mut cmd = Command::new("script");
        cmd.args([
            "-qec",
            &format!("{bin} diff {flags} base.mime dropped.mime"),
            "/dev/null",
        ])
        .current_dir(dir)
        .env_remove("NO_COLOR");
        if let Some(v) = no_color {
            cmd.env("NO_COLOR", v);
        }
        let out = cmd
            .output()
            .expect("util-linux `script` runs (apt-get install bsdutils)");
        // `diff` exits 1: the payloads differ.
        assert_eq!(out.status.code(), Some(1), "{flags} {no_color:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let red = "\x1b[31m- $.packages[2]";
    assert!(on_tty("", None).contains(red), "{}", on_tty("", None));
    assert!(
        on_tty("", Some("")).contains(red),
        "an empty NO_COLOR is unset"
    );
    let plain = on_tty("", Some("1"));
    assert!(
        !plain.contains('\x1b') && plain.contains("- $.packages[2]"),
        "{plain}"
    );
    assert!(!on_tty("--color never", None).contains('\x1b'));
    assert!(on_tty("--color always", Some("1")).contains(red));
    // Not a terminal: plain.
    let piped = Command::new(bin)
        .args(["diff", "base.mime", "dropped.mime"])
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&piped.stdout).contains('\x1b'));
}
