//! The command line from outside: golden cases (`fixtures/cli/`), the README's examples, the man page.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

#[test]
fn cli_golden_cases() {
    trycmd::TestCases::new()
        .case("fixtures/cli/*.toml")
        .case("README.md");
}

/// `man/cloudfold.1` is generated from the clap definitions; regenerate with
/// `CLOUDFOLD_BLESS=1 cargo test --test cli`.
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
        "man/cloudfold.1 is stale: regenerate it with CLOUDFOLD_BLESS=1 cargo test --test cli"
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
