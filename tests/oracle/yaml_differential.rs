//! Differential test of the YAML loader against PyYAML 6.0.3's `safe_load`:
//! seeded generated documents (every scalar form, tags, anchors/aliases,
//! merge keys, block/flow mixes), a share of them byte-mutated, streamed in
//! batches through one `scripts/yaml_oracle.py` process.
//!
//! `CLOUDFOLD_DIFF_CASES` (default 3000), `CLOUDFOLD_DIFF_SEED` (default 1),
//! `CLOUDFOLD_DIFF_DUMP=path` writes disagreeing cases as corpus lines (with
//! PyYAML's outcome as `expect`; all cases with `CLOUDFOLD_DIFF_DUMP_ALL=1`).

use crate::support;

use support::rng::Rng;
use support::yaml_gen::generate;
use support::yaml_outcome::{Input, Oracle, outcome, python_available, same};

#[test]
#[ignore = "needs python3 with PyYAML 6.0.3: scripts/conformance.sh runs it"]
fn generated_documents_match_pyyaml() {
    assert!(
        python_available(),
        "python3 with PyYAML 6.0.3 is not available"
    );
    let cases: usize = std::env::var("CLOUDFOLD_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let seed: u64 = std::env::var("CLOUDFOLD_DIFF_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut rng = Rng::from_state(seed);
    let mut oracle = Oracle::start();
    let (mut done, mut accepted, mut rejected) = (0usize, 0usize, 0usize);
    let mut failures: Vec<String> = Vec::new();
    let mut dump = String::new();
    let mut disagreements = 0usize;
    let mut fast = 0usize;
    let dump_all = std::env::var("CLOUDFOLD_DIFF_DUMP_ALL").is_ok();
    let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
    while done < cases {
        let n = (cases - done).min(2000);
        let batch: Vec<Input> = (0..n).map(|_| generate(&mut rng)).collect();
        let answers = oracle.ask(&batch);
        for (input, want) in batch.iter().zip(&answers) {
            if let Some(e) = want.get("err") {
                let key = format!("{} {}", e["class"], e["problem"]);
                *reasons.entry(key.chars().take(90).collect()).or_default() += 1;
                rejected += 1;
            } else {
                accepted += 1;
            }
            if let Input::Text(t) = input
                && cloudfold::yaml::load_fast(t, &Default::default()).is_some()
            {
                fast += 1;
            }
            let got = outcome(input);
            let agree = same(&got, want);
            if dump_all || !agree {
                let mut line = input.request();
                line["name"] = format!("diff-{seed}-{done}").into();
                line["expect"] = want.clone();
                dump.push_str(&line.to_string());
                dump.push('\n');
            }
            if !agree {
                disagreements += 1;
                if failures.len() < 20 {
                    failures.push(format!(
                        "{}\n   ours:   {got}\n   pyyaml: {want}",
                        input.request()
                    ));
                }
            }
            done += 1;
        }
    }
    if let Ok(path) = std::env::var("CLOUDFOLD_DIFF_DUMP") {
        std::fs::write(path, &dump).unwrap();
    }
    eprintln!(
        "yaml differential: {cases} cases (seed {seed}): {accepted} accepted, {rejected} \
         rejected by PyYAML; {disagreements} disagreements; {fast} taken by the fast loader"
    );
    let mut top: Vec<_> = reasons.into_iter().collect();
    top.sort_by_key(|r| std::cmp::Reverse(r.1));
    for (reason, n) in top.iter().take(12) {
        eprintln!("  {n:6}  {reason}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
