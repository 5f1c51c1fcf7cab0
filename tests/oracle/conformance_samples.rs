//! Conformance: the oracle's sample payloads and its recorded outputs (both releases).

use crate::support;

use base64::Engine;
use cloudfold::userdata::{
    Fetched, IncludeResolver, NoIncludes, PartOutcome, Release, UserDataOptions, render,
};

/// One URL served from a file, as the oracle's `--url-map URL=FILE`.
struct UrlMap(&'static str, Vec<u8>);

impl IncludeResolver for UrlMap {
    fn fetch(&self, url: &str) -> Fetched {
        if url.trim() == self.0 {
            Fetched::Content(self.1.clone())
        } else {
            NoIncludes.fetch(url)
        }
    }
}
use cloudfold::yaml::typed_json::{WalkLimits, canonical, to_typed_json};
use serde_json::{Value as J, json};

#[test]
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn conformance_oracle_samples() {
    let dir = support::shared("oracle/samples");
    let mut checked = 0;
    let mut failures = Vec::new();
    for (release, sub) in [(Release::V22_4, "bookworm"), (Release::V25_1, "trixie")] {
        let exp_dir = dir.join("expected").join(sub);
        let Ok(entries) = std::fs::read_dir(&exp_dir) else {
            continue;
        };
        let mut names: Vec<_> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name())
            .collect();
        names.sort();
        for name in names {
            let name = name.to_string_lossy().into_owned();
            let sample = name.trim_end_matches(".json");
            // 07 is recorded with `--url-map https://example.invalid/extra.yaml=07-extra.yaml
            // --instance-data 07-instance-data.json` (samples/regen.sh): the same here.
            let sample07 = sample.starts_with("07-");
            let expected: J =
                serde_json::from_str(&std::fs::read_to_string(exp_dir.join(&name)).unwrap())
                    .unwrap();
            let mut input = std::fs::read(dir.join(sample)).unwrap();
            if sample.starts_with("06-") {
                let text: String = String::from_utf8(input)
                    .unwrap()
                    .split_whitespace()
                    .collect();
                input = base64::engine::general_purpose::STANDARD
                    .decode(text)
                    .unwrap();
            }
            let instance_data = sample07.then(|| {
                std::sync::Arc::new(
                    cloudfold::jinja::InstanceData::from_json(
                        &std::fs::read(dir.join("07-instance-data.json")).unwrap(),
                    )
                    .unwrap(),
                )
            });
            let opts = UserDataOptions {
                release,
                instance_data,
                ..UserDataOptions::default()
            };
            checked += 1;
            let includes = UrlMap(
                "https://example.invalid/extra.yaml",
                std::fs::read(dir.join("07-extra.yaml")).unwrap_or_default(),
            );
            let resolver: &dyn IncludeResolver = if sample07 { &includes } else { &NoIncludes };
            let folded = match render(&input, &opts, resolver) {
                Ok(f) => f,
                Err(e) => {
                    if expected["error"].is_null() {
                        failures.push(format!("{sub}/{sample}: unexpected error {e}"));
                    }
                    continue;
                }
            };
            let cfg = match &folded.config {
                Some(c) => to_typed_json(c, WalkLimits::default()).unwrap(),
                None => J::Null,
            };
            if canonical(&cfg) != canonical(&expected["cloud_config"]) {
                failures.push(format!(
                    "{sub}/{sample}: config\n  got      {}\n  expected {}",
                    canonical(&cfg),
                    canonical(&expected["cloud_config"])
                ));
            }
            let parts: Vec<J> = folded
                .parts
                .iter()
                .map(|p| {
                    json!({
                        "content_type": p.content_type(),
                        "filename": p.filename(),
                        "merge_type_header": p.merge_type_header(),
                        "launch_index": p.launch_index(),
                        "handler": p.part_type.handler_name(),
                        "merged": match &p.outcome {
                            PartOutcome::Merged => J::Bool(true),
                            PartOutcome::Rejected(_) => J::Bool(false),
                            _ => J::Null,
                        },
                    })
                })
                .collect();
            if canonical(&J::Array(parts.clone())) != canonical(&expected["parts"]) {
                failures.push(format!(
                    "{sub}/{sample}: parts\n  got      {}\n  expected {}",
                    canonical(&J::Array(parts)),
                    canonical(&expected["parts"])
                ));
            }
        }
    }
    eprintln!(
        "conformance samples: {}/{checked} agree",
        checked - failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
