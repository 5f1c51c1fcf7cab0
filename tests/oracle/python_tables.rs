//! `src/python`'s Unicode tables against the interpreter cloud-init runs on (python3 3.11):
//! `str.isprintable()` (the generated table, so `repr` escapes what CPython escapes, U+0378
//! included), `str.isspace()`, `isalpha`/`isalnum`/`isdecimal`/`isdigit`/`isnumeric` (`re`'s
//! `\w`/`\d` among them), and the case methods (`lower`, `upper`, `title`, `capitalize`,
//! `swapcase`, `casefold`, `islower`, `isupper`, `istitle`, the final-sigma context).

use std::process::Command;

fn python(script: &str, args: &[&str]) -> String {
    let out = Command::new("python3")
        .args(["-c", script])
        .args(args)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
#[ignore = "needs python3 (the CPython whose tables src/python mirrors): scripts/conformance.sh runs it"]
fn printable_table_is_pythons() {
    let root = env!("CARGO_MANIFEST_DIR");
    let generated = python(
        "import runpy,sys; runpy.run_path(sys.argv[1], run_name='__main__')",
        &[&format!("{root}/scripts/gen_printable_table.py")],
    );
    let ours = std::fs::read_to_string(format!("{root}/src/python/printable_table.rs")).unwrap();
    assert!(
        generated == ours,
        "src/python/printable_table.rs is stale: regenerate it with scripts/gen_printable_table.py"
    );
}

#[test]
#[ignore = "needs python3 (the CPython whose re classes src/python mirrors): scripts/conformance.sh runs it"]
fn word_table_is_pythons() {
    let root = env!("CARGO_MANIFEST_DIR");
    let generated = python(
        "import runpy,sys; runpy.run_path(sys.argv[1], run_name='__main__')",
        &[&format!("{root}/scripts/gen_word_table.py")],
    );
    let ours = std::fs::read_to_string(format!("{root}/src/python/word_table.rs")).unwrap();
    assert!(
        generated == ours,
        "src/python/word_table.rs is stale: regenerate it with scripts/gen_word_table.py"
    );
}

#[test]
#[ignore = "needs python3 (the CPython whose tables src/python mirrors): scripts/conformance.sh runs it"]
fn case_table_is_pythons() {
    let root = env!("CARGO_MANIFEST_DIR");
    let generated = python(
        "import runpy,sys; runpy.run_path(sys.argv[1], run_name='__main__')",
        &[&format!("{root}/scripts/gen_case_table.py")],
    );
    let ours = std::fs::read_to_string(format!("{root}/src/python/case_table.rs")).unwrap();
    assert!(
        generated == ours,
        "src/python/case_table.rs is stale: regenerate it with scripts/gen_case_table.py"
    );
}

/// Each code point's case results as python3 gives them, in the order `case_results` lists;
/// only code points whose results are not those of an uncased, non-ignorable one
/// (`uncased_results`) are printed, as `hex\tjson`.
const CASE_SCRIPT: &str = r#"
import json, sys
sys.stdout.reconfigure(encoding="utf-8")
S = "\u03a3"
for cp in range(0x110000):
    if 0xD800 <= cp <= 0xDFFF:
        continue
    c = chr(cp)
    r = [
        c.lower(), c.upper(), c.title(), c.capitalize(), c.swapcase(), c.casefold(),
        ("A" + c + S).lower(), ("A" + S + c + "A").lower(), (" " + c + S).lower(),
        ("a" + c + "b").title(), (S + c).swapcase(), ("x" + c + S + "y").capitalize(),
        str(int(c.islower())) + str(int(c.isupper())) + str(int(c.istitle()))
        + str(int(("A" + c + "b").istitle())) + str(int(("a" + c).islower()))
        + str(int(("A" + c).isupper())),
    ]
    if r != [c, c, c, c, c, c, "a" + c + "\u03c3", "a\u03c2" + c + "a", " " + c + "\u03c3",
             "A" + c + "B", "\u03c3" + c, "X" + c + "\u03c3y", "000011"]:
        print("%X\t%s" % (cp, json.dumps(r, ensure_ascii=False)))
"#;

/// The results of `CASE_SCRIPT` for a code point that is neither cased nor case-ignorable.
fn uncased_results(c: char) -> Vec<String> {
    [
        c.to_string(),
        c.to_string(),
        c.to_string(),
        c.to_string(),
        c.to_string(),
        c.to_string(),
        format!("a{c}\u{3c3}"),
        format!("a\u{3c2}{c}a"),
        format!(" {c}\u{3c3}"),
        format!("A{c}B"),
        format!("\u{3c3}{c}"),
        format!("X{c}\u{3c3}y"),
        "000011".to_owned(),
    ]
    .into()
}

/// Ours, in `CASE_SCRIPT`'s order.
fn case_results(c: char) -> Vec<String> {
    use cloudfold::python::{
        py_capitalize, py_casefold, py_islower, py_istitle, py_isupper, py_lower, py_swapcase,
        py_title, py_upper,
    };
    const S: char = '\u{03a3}';
    let c1 = c.to_string();
    let bit = |b: bool| if b { '1' } else { '0' };
    let bits: String = [
        py_islower(&c1),
        py_isupper(&c1),
        py_istitle(&c1),
        py_istitle(&format!("A{c}b")),
        py_islower(&format!("a{c}")),
        py_isupper(&format!("A{c}")),
    ]
    .into_iter()
    .map(bit)
    .collect();
    vec![
        py_lower(&c1),
        py_upper(&c1),
        py_title(&c1),
        py_capitalize(&c1),
        py_swapcase(&c1),
        py_casefold(&c1),
        py_lower(&format!("A{c}{S}")),
        py_lower(&format!("A{S}{c}A")),
        py_lower(&format!(" {c}{S}")),
        py_title(&format!("a{c}b")),
        py_swapcase(&format!("{S}{c}")),
        py_capitalize(&format!("x{c}{S}y")),
        bits,
    ]
}

#[test]
#[ignore = "needs python3 (the CPython whose tables src/python mirrors): scripts/conformance.sh runs it"]
fn case_methods_match_python() {
    let printed = python(CASE_SCRIPT, &[]);
    let mut cased = std::collections::HashMap::new();
    for line in printed.lines() {
        let (cp, json) = line.split_once('\t').unwrap();
        let results: Vec<String> = serde_json::from_str(json).unwrap();
        cased.insert(u32::from_str_radix(cp, 16).unwrap(), results);
    }
    // A floor so a broken script (printing nothing) cannot pass: Unicode 14 has
    // thousands of cased and case-ignorable code points.
    assert!(cased.len() > 4000, "{} code points printed", cased.len());
    let mut checked = 0;
    for c in (0u32..0x11_0000).filter_map(char::from_u32) {
        let theirs = cased
            .remove(&u32::from(c))
            .unwrap_or_else(|| uncased_results(c));
        assert_eq!(
            case_results(c),
            theirs,
            "case methods of U+{:04X}",
            u32::from(c)
        );
        checked += 1;
    }
    assert!(cased.is_empty());
    assert_eq!(checked, 0x11_0000 - 0x800);
    eprintln!("python_tables: {checked} code points, 13 case results each as python3's");
}

#[test]
#[ignore = "needs python3 (the CPython whose repr src/python mirrors): scripts/conformance.sh runs it"]
fn repr_and_isspace_match_python() {
    use cloudfold::source::Span;
    use cloudfold::yaml::value::{Node, PyStr, Value, py_repr};
    // One line per code point (surrogates included): repr(chr(cp)) and isspace. A repr
    // escapes every line break, so each fits on its line.
    let expected = python(
        "import sys\nsys.stdout.reconfigure(encoding='utf-8')\nfor cp in range(0x110000):\n    \
         c = chr(cp)\n    sys.stdout.write(repr(c) + ' ' + str(int(c.isspace())) + '\\n')",
        &[],
    );
    let mut checked = 0;
    for (cp, line) in (0u32..).zip(expected.lines()) {
        let (repr, space) = line.rsplit_once(' ').unwrap();
        let ours = py_repr(&Node::new(
            Value::Str(PyStr::from_code_points([cp])),
            Span::unknown(),
        ));
        assert_eq!(ours, repr, "repr of U+{cp:04X}");
        let is_space = char::from_u32(cp).is_some_and(cloudfold::userdata::py_is_space);
        assert_eq!(is_space, space == "1", "isspace of U+{cp:04X}");
        checked += 1;
    }
    assert_eq!(checked, 0x11_0000);
    eprintln!("python_tables: {checked} code points, repr and isspace as python3's");
}

#[test]
#[ignore = "needs python3 (the CPython whose tables src/python mirrors): scripts/conformance.sh runs it"]
fn char_classes_match_python() {
    use cloudfold::python::{py_isalnum, py_isalpha, py_isdecimal, py_isdigit, py_isnumeric};
    // One letter per scalar value: isalpha, isalnum, isdecimal, isdigit, isnumeric as the
    // bits of `A`+n (0..32), in code point order.
    let expected = python(
        "import sys\nout = []\nfor cp in range(0x110000):\n    if 0xD800 <= cp <= 0xDFFF:\n        \
         continue\n    c = chr(cp)\n    out.append(chr(65 + c.isalpha() + 2 * c.isalnum() + 4 * \
         c.isdecimal() + 8 * c.isdigit() + 16 * c.isnumeric()))\nsys.stdout.write(''.join(out))",
        &[],
    );
    let mut checked = 0;
    let mut members = 0;
    for (c, theirs) in (0u32..0x11_0000)
        .filter_map(char::from_u32)
        .zip(expected.chars())
    {
        let ours = u32::from(py_isalpha(c))
            + 2 * u32::from(py_isalnum(c))
            + 4 * u32::from(py_isdecimal(c))
            + 8 * u32::from(py_isdigit(c))
            + 16 * u32::from(py_isnumeric(c));
        assert_eq!(
            char::from_u32(65 + ours),
            Some(theirs),
            "isalpha/isalnum/isdecimal/isdigit/isnumeric of U+{:04X}",
            u32::from(c)
        );
        checked += 1;
        members += usize::from(ours != 0);
    }
    assert_eq!(checked, 0x11_0000 - 0x800);
    // A floor so a script printing only `A`s cannot pass: Unicode 14 has ~130,000 letters.
    assert!(members > 100_000, "{members} code points in a class");
    eprintln!("python_tables: {checked} code points, 5 str predicates each as python3's");
}
