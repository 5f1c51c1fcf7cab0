//! `build`'s Terraform layout (fixtures/build/terraform, from the provider's documented
//! layout) byte for byte. The `make-mime` layout, run live, is in tests/oracle/build_fixtures.rs.

use cloudfold::build::{BuildOptions, PartSpec, Style, build};
use serde_json::Value as J;

fn spec_of(p: &J) -> PartSpec {
    let s = |k: &str| p[k].as_str().map(str::to_owned);
    PartSpec {
        content: s("content").unwrap().into_bytes(),
        content_type: s("type"),
        filename: s("filename"),
        merge_type: s("merge_type"),
        headers: Vec::new(),
    }
}

#[test]
fn terraform_layout_byte_for_byte() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/build/terraform");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let case: J = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let specs: Vec<PartSpec> = case["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(spec_of)
            .collect();
        let opts = BuildOptions {
            style: Style::Terraform,
            boundary: case["boundary"].as_str().map(str::to_owned),
            ..BuildOptions::default()
        };
        let built = build(&specs, &opts).unwrap();
        let expected = std::fs::read(path.with_extension("expected")).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&built.bytes),
            String::from_utf8_lossy(&expected),
            "{}",
            path.display()
        );
        assert_eq!(built.bytes, expected);
        n += 1;
    }
    assert!(n >= 4, "only {n} fixtures");
}
