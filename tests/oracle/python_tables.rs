//! `src/python`'s Unicode tables against the interpreter cloud-init runs on (python3 3.11):
//! `str.isprintable()` (the generated table, so `repr` escapes what CPython escapes, U+0378
//! included), `str.isspace()`, and `str.isalnum()`/`str.isdecimal()` (`re`'s `\w`/`\d`).

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
