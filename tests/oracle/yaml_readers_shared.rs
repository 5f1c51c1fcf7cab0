//! The loader's readers held equal (`support::yaml_readers::readers_agree`)
//! on the conformance corpora under `../shared`: every text file of
//! `conformance/`, `corpora/realworld/` and the oracle's samples, and every
//! multi-line string (the payloads) of the recorded vector files. The
//! repository's fixtures and generated documents: `tests/integration/yaml_readers.rs`.

use crate::support;

use std::path::{Path, PathBuf};
use support::yaml_readers::ReadersTally;

#[test]
#[ignore = "needs ../shared (the conformance and real-world corpora): scripts/conformance.sh runs it"]
fn readers_agree_on_the_shared_corpora() {
    let mut files = Vec::new();
    for dir in ["conformance", "corpora/realworld", "oracle/samples"] {
        walk(&support::shared(dir), &mut files);
    }
    files.sort();
    let mut tally = ReadersTally::new("../shared corpora");
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if f.extension().is_some_and(|x| x == "json")
            && let Ok(json) = serde_json::from_str::<serde_json::Value>(&text)
        {
            for_strings(&json, &mut |s| {
                if s.contains('\n') {
                    tally.check(s);
                }
            });
        }
        tally.check(&text);
    }
    tally.report();
    tally.assert_agree();
    assert!(tally.texts > 300, "{} texts", tally.texts);
    assert!(tally.fast > 0 && tally.direct > tally.fast);
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn for_strings(j: &serde_json::Value, f: &mut impl FnMut(&str)) {
    match j {
        serde_json::Value::String(s) => f(s),
        serde_json::Value::Array(a) => a.iter().for_each(|v| for_strings(v, f)),
        serde_json::Value::Object(m) => m.values().for_each(|v| for_strings(v, f)),
        _ => {}
    }
}
