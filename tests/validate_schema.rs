//! `validate --schema` against cloud-init's own schema file, found where the oracle setup
//! extracts cloud-init (never committed). Golden outputs: fixtures/validate/schema-*.stdout;
//! regenerate with `CLOUDFOLD_BLESS=1 cargo test --test validate_schema`.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::Command;

const SCHEMA: &str =
    "usr/lib/python3/dist-packages/cloudinit/config/schemas/schema-cloud-config-v1.json";

/// The trixie (25.1) schema from the oracle's cache, or `None` after a loud message
/// (a failure in CI, where ../shared/oracle/setup.sh --trixie has run).
fn schema() -> Option<PathBuf> {
    let cache = std::env::var_os("CI_ORACLE_CACHE")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("cloudfold-oracle"))
        })
        .or_else(|| {
            std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/cloudfold-oracle"))
        })?;
    let p = cache.join("cloud-init-root-trixie").join(SCHEMA);
    if p.is_file() {
        return Some(p);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!(
            "CI: {} is missing (run ../shared/oracle/setup.sh --trixie)",
            p.display()
        );
    }
    eprintln!(
        "\n*** SKIPPED: {} not found (run ../shared/oracle/setup.sh --trixie) ***\n",
        p.display()
    );
    None
}

fn run(schema: &std::path::Path, fixture: &str, json: bool) -> (String, i32) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/validate");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cloudfold"));
    cmd.current_dir(dir)
        .arg("validate")
        .arg(format!("--schema={}", schema.display()))
        .arg(fixture);
    if json {
        cmd.args(["--format", "json"]);
    }
    let out = cmd.output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn schema_golden_cases() {
    let Some(schema) = schema() else { return };
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/validate"));
    for (name, code) in [("schema-invalid", 5), ("schema-deprecated", 0)] {
        for json in [false, true] {
            let (out, status) = run(&schema, &format!("{name}.txt"), json);
            assert_eq!(status, code, "{name} json={json}\n{out}");
            let golden = dir.join(format!("{name}{}.stdout", if json { "-json" } else { "" }));
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

/// A config with no problems passes the real schema; every sample the oracle merges
/// cleanly has no schema *error* on a key cloud-init's own docs use.
#[test]
fn schema_accepts_a_typical_config() {
    let Some(schema) = schema() else { return };
    let dir = std::env::temp_dir().join(format!("cloudfold-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("ok.yaml");
    std::fs::write(
        &f,
        "#cloud-config\npackage_update: true\npackages: [nginx, [git, '1:2.39']]\nruncmd:\n  - [systemctl, start, nginx]\n  - echo done\nusers:\n  - default\n  - name: bob\n    groups: [sudo]\n    shell: /bin/bash\nwrite_files:\n  - path: /etc/motd\n    content: hi\n    permissions: '0644'\nswap:\n  size: 512M\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cloudfold"))
        .arg("validate")
        .arg(format!("--schema={}", schema.display()))
        .arg(&f)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("schema-"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
