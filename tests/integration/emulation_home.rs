//! Python and Ruby emulation is defined once, in its home (`src/python/`, `src/merge/ruby/`):
//! a scan of `src/**/*.rs` for the helpers' definitions and for Rust's own Unicode predicates.
//!
//! Equivalent grep (what issue 29 asks for):
//! `grep -rnE 'fn (py_(is_?space|[lr]?strip|lower|upper|…)|ruby_(to_s|inspect…))\b' src`
//! must list each name once, under its home.

use regex::Regex;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Each helper family: what it emulates, the `fn` names that define it, and its home.
const HELPERS: &[(&str, &str, &str)] = &[
    (
        "str.isspace",
        r"py_is_space|is_py_space|(py_)?isspace",
        "src/python/",
    ),
    (
        "str.strip/lstrip/rstrip",
        r"py_[lr]?strip(_code_points)?",
        "src/python/",
    ),
    (
        "str case methods",
        r"py_(lower|upper|casefold|title|capitalize|swapcase|eq_lower|is_?lower|is_?upper|is_?title)",
        "src/python/",
    ),
    (
        "repr of str/bytes",
        r"py_repr_(str|char|code_points|bytes)",
        "src/python/",
    ),
    (
        "str.isprintable",
        r"py_is_?printable|(py_)?isprintable",
        "src/python/",
    ),
    ("str.splitlines", r"(py_)?splitlines(_keep)?", "src/python/"),
    (
        "str.isalpha/isalnum/isdecimal/isdigit/isnumeric",
        r"py_is_?(alpha|alnum|decimal|digit|numeric)",
        "src/python/",
    ),
    (
        "int() of text",
        r"py_int_text|py_int_big|(parse_)?py_int_str",
        "src/python/",
    ),
    ("float repr", r"py_float_repr", "src/python/"),
    (
        "json.dumps text",
        r"py_json_(str\w*|float|escape\w*)",
        "src/python/",
    ),
    ("Ruby strip", r"ruby_[lr]?strip", "src/merge/ruby/"),
    (
        "Ruby to_s/inspect",
        r"ruby_(to_s|inspect\w*|float_to_s)",
        "src/merge/ruby/",
    ),
];

/// Rust's Unicode-table predicates and case mappings: a newer Unicode than CPython 3.11's, and
/// other properties. Outside the homes each use says why it stays (a comment just above).
const RUST_UNICODE: &str = r"\b(to_lowercase|to_uppercase|is_alphanumeric|is_alphabetic|is_numeric|is_lowercase|is_uppercase|is_whitespace)\b";

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `(path relative to the crate, text)` of every `src/**/*.rs`, sorted.
fn sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    files
        .iter()
        .map(|p| {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(p).unwrap())
        })
        .collect()
}

/// Where a helper family is defined more than once or outside its home, as messages.
fn misplaced_definitions(files: &[(String, String)]) -> (Vec<String>, usize) {
    let mut problems = Vec::new();
    let mut found = 0;
    for (what, names, home) in HELPERS {
        let def = Regex::new(&format!(r"\bfn\s+({names})\s*[<(]")).unwrap();
        let def_exact = Regex::new(&format!(r"^({names})$")).unwrap();
        let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (path, text) in files {
            for (n, line) in text.lines().enumerate() {
                for c in def.captures_iter(line) {
                    let name = c[1].to_owned();
                    if def_exact.is_match(&name) {
                        by_name
                            .entry(name)
                            .or_default()
                            .push(format!("{path}:{}", n + 1));
                    }
                }
            }
        }
        if by_name.is_empty() {
            problems.push(format!(
                "{what}: no definition found (is the pattern stale?)"
            ));
        }
        for (name, places) in by_name {
            found += 1;
            if places.len() > 1 {
                problems.push(format!(
                    "{what}: `{name}` defined {} times: {places:?}",
                    places.len()
                ));
            }
            for p in places.iter().filter(|p| !p.starts_with(home)) {
                problems.push(format!("{what}: `{name}` defined outside {home}: {p}"));
            }
        }
    }
    (problems, found)
}

/// Uses of Rust's Unicode predicates outside the homes with no comment in the 4 lines above.
fn unexplained_rust_unicode(files: &[(String, String)]) -> Vec<String> {
    let re = Regex::new(RUST_UNICODE).unwrap();
    let mut problems = Vec::new();
    for (path, text) in files {
        if path.starts_with("src/python/") || path.starts_with("src/merge/ruby/") {
            continue;
        }
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if !re.is_match(code) {
                continue;
            }
            let explained = lines[n.saturating_sub(4)..n]
                .iter()
                .any(|l| l.trim_start().starts_with("//"));
            if !explained {
                problems.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    problems
}

#[test]
fn python_and_ruby_helpers_are_defined_once_in_their_home() {
    let files = sources();
    assert!(files.len() > 100, "only {} source files found", files.len());
    let (problems, found) = misplaced_definitions(&files);
    eprintln!(
        "emulation_home: {} source files, {found} helper definitions in {} families",
        files.len(),
        HELPERS.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn rust_unicode_predicates_say_why_they_stay() {
    let problems = unexplained_rust_unicode(&sources());
    assert!(
        problems.is_empty(),
        "Rust's own Unicode predicate where the emulated code is Python's or Ruby's? Use \
         crate::python's (CPython 3.11's tables), an ASCII method where the original is \
         ASCII-only, or say in a comment just above why Rust's stays:\n{}",
        problems.join("\n")
    );
}

/// The scan finds a planted copy: a second definition, one outside the home, an unexplained
/// Rust predicate.
#[test]
fn the_scan_finds_planted_copies() {
    let mut files = sources();
    let (clean, _) = misplaced_definitions(&files);
    assert!(clean.is_empty(), "{clean:?}");
    files.push((
        "src/jinja/planted.rs".to_owned(),
        "pub(crate) fn py_is_space(c: char) -> bool { c.is_whitespace() }\n\
         fn ruby_to_s(n: &Node) -> String { todo!() }\n\
         fn py_rstrip(s: &str) -> &str { s }\n"
            .to_owned(),
    ));
    let (problems, _) = misplaced_definitions(&files);
    assert_eq!(problems.len(), 6, "{problems:#?}");
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`py_is_space` defined 2 times"))
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`ruby_to_s` defined outside src/merge/ruby/"))
    );
    let unexplained = unexplained_rust_unicode(&files);
    assert_eq!(unexplained.len(), 1, "{unexplained:?}");
}
