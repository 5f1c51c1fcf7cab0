//! `validate --schema` from outside: the built-in schema of each release (cloudfold's own
//! facts, `src/validate/schema/facts/`) with no cloud-init and no oracle cache, its golden
//! outputs (fixtures/validate/schema-*.stdout; regenerate with `CLOUDFOLD_BLESS=1 cargo test
//! -p cloudfold-cli --test cli validate_schema::`), and `--schema=FILE` with the real file of
//! each release saying the same. The facts against the real schema files and against
//! cloud-init's own validator: tests/oracle/schema_oracle.rs.

use std::path::{Path, PathBuf};
use std::process::Command;

const SCHEMA: &str =
    "usr/lib/python3/dist-packages/cloudinit/config/schemas/schema-cloud-config-v1.json";

/// Each release's `--cloud-init` name and the oracle's extraction directory.
const RELEASES: [(&str, &str); 2] = [
    ("22.4", "cloud-init-root"),
    ("25.1", "cloud-init-root-trixie"),
];

/// The oracle's extraction of a release (this test is ignored unless asked for, so a
/// missing one fails it).
fn extraction(dir: &str) -> PathBuf {
    let cache = std::env::var_os("CI_ORACLE_CACHE")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("cloudfold-oracle"))
        })
        .or_else(|| {
            std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/cloudfold-oracle"))
        })
        .unwrap_or_default();
    let root = cache.join(dir);
    assert!(
        root.join(SCHEMA).is_file(),
        "{} is missing (run ../shared/oracle/setup.sh --trixie)",
        root.join(SCHEMA).display()
    );
    root
}

/// `cloudfold validate ARGS FIXTURE` in fixtures/validate, with `env` changed.
fn run(args: &[&str], fixture: &str, env: &[(&str, Option<&Path>)]) -> (String, i32) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/validate");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cloudfold"));
    cmd.current_dir(dir).arg("validate").args(args).arg(fixture);
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn schema_golden_cases() {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/validate"));
    for (release, _) in RELEASES {
        // 25.1 (the default) keeps the plain names.
        let suffix = if release == "25.1" {
            String::new()
        } else {
            format!("-{release}")
        };
        for (name, code) in [("schema-invalid", 5), ("schema-deprecated", 0)] {
            for json in [false, true] {
                let mut args = vec!["--schema", "--cloud-init", release];
                if json {
                    args.extend(["--format", "json"]);
                }
                let (out, status) = run(&args, &format!("{name}.txt"), &[]);
                assert_eq!(status, code, "{name} {release} json={json}\n{out}");
                let golden = dir.join(format!(
                    "{name}{}{suffix}.stdout",
                    if json { "-json" } else { "" }
                ));
                if std::env::var_os("CLOUDFOLD_BLESS").is_some() {
                    std::fs::write(&golden, &out).unwrap();
                }
                let want = std::fs::read_to_string(&golden).unwrap_or_default();
                assert_eq!(
                    out,
                    want,
                    "{} differs (bless with CLOUDFOLD_BLESS=1)",
                    golden.display()
                );
            }
        }
    }
}

/// `--schema` needs no installed cloud-init and no oracle cache: HOME is an empty
/// directory, the cache variables unset; both releases.
#[test]
fn schema_works_offline() {
    let home = std::env::temp_dir().join(format!("cloudfold-empty-home-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let env = [
        ("HOME", Some(home.as_path())),
        ("XDG_CACHE_HOME", None),
        ("CI_ORACLE_CACHE", None),
    ];
    for (release, _) in RELEASES {
        let args = ["--schema", "--cloud-init", release];
        let (out, code) = run(&args, "schema-invalid.txt", &env);
        assert_eq!(code, 5, "{release}\n{out}");
        assert!(
            out.contains("error[schema-invalid]: $.runcmd"),
            "{release}\n{out}"
        );
        let (out, code) = run(&args, "schema-deprecated.txt", &env);
        assert_eq!(code, 0, "{release}\n{out}");
        assert!(
            out.contains("warning[schema-deprecated]: $.apt_update"),
            "{release}\n{out}"
        );
    }
    assert_eq!(
        std::fs::read_dir(&home).unwrap().count(),
        0,
        "HOME was written to"
    );
    std::fs::remove_dir_all(&home).unwrap();
}

/// `--schema=FILE` with the real file of a release says what the built-in facts say.
#[test]
#[ignore = "needs the extracted cloud-init 22.4 and 25.1 (../shared/oracle/setup.sh --trixie): scripts/conformance.sh runs it"]
fn schema_file_agrees_with_builtin() {
    for (release, dir) in RELEASES {
        let file = format!("--schema={}", extraction(dir).join(SCHEMA).display());
        for fixture in ["schema-invalid.txt", "schema-deprecated.txt", "valid.txt"] {
            for format in ["human", "json"] {
                let builtin = run(
                    &["--schema", "--cloud-init", release, "--format", format],
                    fixture,
                    &[],
                );
                let given = run(
                    &[&file, "--cloud-init", release, "--format", format],
                    fixture,
                    &[],
                );
                assert_eq!(builtin, given, "{release} {fixture} {format}");
            }
        }
    }
}

/// A config with no problems passes the schema of both releases.
#[test]
fn schema_accepts_a_typical_config() {
    let dir = std::env::temp_dir().join(format!("cloudfold-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("ok.yaml");
    std::fs::write(
        &f,
        "#cloud-config\npackage_update: true\npackages: [nginx, [git, '1:2.39']]\nruncmd:\n  - [systemctl, start, nginx]\n  - echo done\nusers:\n  - default\n  - name: bob\n    groups: [sudo]\n    shell: /bin/bash\nwrite_files:\n  - path: /etc/motd\n    content: hi\n    permissions: '0644'\nswap:\n  size: 512M\n",
    )
    .unwrap();
    for (release, _) in RELEASES {
        let out = Command::new(env!("CARGO_BIN_EXE_cloudfold"))
            .args(["validate", "--schema", "--cloud-init", release])
            .arg(&f)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{release}: {text}");
        assert!(!text.contains("schema-"), "{release}: {text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
