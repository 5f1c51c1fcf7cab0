//! `src/merge/ruby`'s `String#inspect` against the Ruby that runs the Hiera oracle's puppet: the
//! generated print table, and every scalar value's inspect (alone and after `#`, as `#{` is
//! escaped) as Ruby writes it.

use std::process::Command;

fn ruby(script: &str, args: &[&str]) -> String {
    let out = Command::new("ruby")
        .arg("-e")
        .arg(script)
        .args(args)
        .env("LANG", "C.UTF-8")
        .output()
        .expect("ruby (puppet's, ../shared/oracle/dialects/setup-hiera.sh) must be installed");
    assert!(
        out.status.success(),
        "ruby failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
#[ignore = "needs ruby (puppet's, as the hiera oracle): scripts/conformance.sh runs it"]
fn ruby_print_table_is_rubys() {
    let root = env!("CARGO_MANIFEST_DIR");
    let generated = ruby(
        "load ARGV[0]",
        &[&format!("{root}/scripts/gen_ruby_print_table.rb")],
    );
    let ours = std::fs::read_to_string(format!("{root}/src/merge/ruby/print_table.rs")).unwrap();
    assert!(
        generated == ours,
        "src/merge/ruby/print_table.rs is stale: regenerate it with scripts/gen_ruby_print_table.rb"
    );
}

#[test]
#[ignore = "needs ruby (puppet's, as the hiera oracle): scripts/conformance.sh runs it"]
fn inspect_matches_ruby() {
    use cloudfold::merge::ruby_inspect_str;
    // One line per scalar value: inspect of "c" and of "#c" (an inspect escapes every line break).
    let expected = ruby(
        "Encoding.default_external = 'UTF-8'\n\
         (0..0x10FFFF).each { |cp| next if cp.between?(0xD800, 0xDFFF); c = [cp].pack('U'); \
         $stdout.write(c.inspect, ' ', ('#' + c).inspect, \"\\n\") }",
        &[],
    );
    let mut checked = 0;
    let mut lines = expected.lines();
    for c in (0u32..0x11_0000).filter_map(char::from_u32) {
        let line = lines.next().expect("ruby printed a line per scalar value");
        let ours = format!(
            "{} {}",
            ruby_inspect_str(&c.to_string()),
            ruby_inspect_str(&format!("#{c}"))
        );
        assert_eq!(ours, line, "inspect of U+{:04X}", u32::from(c));
        checked += 1;
    }
    assert_eq!(lines.next(), None);
    assert_eq!(checked, 0x11_0000 - 0x800);
    eprintln!("ruby_text: {checked} code points, String#inspect as ruby's");
}
