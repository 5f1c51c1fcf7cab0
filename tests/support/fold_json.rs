//! A fold as the JSON the oracle reports (`cloud_config`, `parts`, `cloud-config.txt`), for comparing with it.

use cloudfold::userdata::{
    IncludeResolver, NoIncludes, PartOutcome, Preload, Release, UserDataOptions, render,
};
use cloudfold::yaml::typed_json::{WalkLimits, to_typed_json};
use serde_json::{Value as J, json};

/// cloudfold's fold of `input` in the oracle's shape (`{"error": true, "detail"}` when it aborts).
pub(crate) fn ours(input: &[u8], release: Release, launch_index: Option<i64>) -> J {
    ours_with(input, release, launch_index, &NoIncludes)
}

/// [`ours`] with `#include`s resolved by `includes`.
pub(crate) fn ours_with(
    input: &[u8],
    release: Release,
    launch_index: Option<i64>,
    includes: &dyn IncludeResolver,
) -> J {
    let opts = UserDataOptions {
        release,
        launch_index,
        // The oracle differentials check the helper thread's path; the
        // handler and user-data corpora check loading each part in turn.
        preload: Preload::Always,
        ..UserDataOptions::default()
    };
    match render(input, &opts, includes) {
        Err(e) => json!({"error": true, "detail": e.to_string()}),
        Ok(f) => {
            let cfg = f.config.as_ref().map_or(J::Null, |c| {
                as_oracle_reads(to_typed_json(c, WalkLimits::default()).unwrap_or(J::Null))
            });
            let parts: Vec<J> = f.parts.iter().map(|p| json!({
                "content_type": p.content_type(),
                "filename": p.filename(),
                "merge_type_header": p.merge_type_header(),
                "launch_index": p.launch_index(),
                "handler": p.part_type.handler_name(),
                "merged": match &p.outcome { PartOutcome::Merged => J::Bool(true), PartOutcome::Rejected(_) => J::Bool(false), _ => J::Null },
            })).collect();
            // The oracle reads cloud-config.txt back in text mode (universal newlines):
            // a CR in a listed filename comes back as LF. cloudfold gives the bytes written.
            let txt = f.cloud_config_txt.replace("\r\n", "\n").replace('\r', "\n");
            json!({"error": false, "cloud_config": cfg, "parts": parts, "cloud_config_txt": txt})
        }
    }
}

/// The oracle writes a `str` key holding surrogate escapes as the raw bytes
/// (its encoder maps only values to `$str_surrogateescape_b64`), which reach
/// the tests as lossy UTF-8; cloudfold's mapping tags such a key as
/// `$json:{"$str_surrogateescape_b64": …}`. Rewrite ours the oracle's way.
fn as_oracle_reads(v: J) -> J {
    use base64::Engine;
    match v {
        J::Array(items) => J::Array(items.into_iter().map(as_oracle_reads).collect()),
        J::Object(m) => J::Object(
            m.into_iter()
                .map(|(k, v)| {
                    let raw = k
                        .strip_prefix("$json:")
                        .and_then(|t| serde_json::from_str::<J>(t).ok())
                        .and_then(|t| t["$str_surrogateescape_b64"].as_str().map(str::to_owned))
                        .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok());
                    let k = match raw {
                        Some(bytes) => {
                            let s = String::from_utf8_lossy(&bytes).into_owned();
                            if s.starts_with('$') {
                                format!("$str:{s}")
                            } else {
                                s
                            }
                        }
                        None => k,
                    };
                    (k, as_oracle_reads(v))
                })
                .collect(),
        ),
        other => other,
    }
}
