//! `cloud-init query`'s lookups: a dotted variable path (aliases accepted, un-aliased value printed) and its JSON output.

use super::instance_data::{InstanceData, jinja_alias};
use super::py_object::PyDict;
use super::query_error::QueryError;
use minijinja::value::{Value, ValueKind};

/// `_find_instance_data_leaf_by_varname_path`: the value at `varname`
/// (`ds.meta_data.region`, aliases such as `v1_0` accepted) in `plain`
/// (un-aliased), walking `aliased` to check each step; the error is
/// cloud-init's message.
pub fn find_var(plain: &Value, aliased: &Value, varname: &str) -> Result<Value, QueryError> {
    let mut walked = String::new();
    let mut response = plain.clone();
    let mut with = aliased.clone();
    for part in varname.split('.') {
        let next = with
            .downcast_object_ref::<PyDict>()
            .and_then(|d| d.get_str(part));
        let Some(next) = next else {
            return Err(if walked.is_empty() {
                QueryError::UndefinedKey {
                    varname: varname.to_owned(),
                }
            } else {
                QueryError::NoKey {
                    walked,
                    key: part.to_owned(),
                }
            });
        };
        with = next;
        if let Some(d) = response.downcast_object_ref::<PyDict>() {
            let found = match d.get_str(part) {
                Some(v) => Some(v),
                None => d.pairs().into_iter().find_map(|(k, v)| {
                    let key = k.as_str()?;
                    (jinja_alias(key).as_deref() == Some(part)).then(|| v.clone())
                }),
            };
            if let Some(v) = found {
                response = v;
            }
        }
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(part);
    }
    Ok(response)
}

/// What `cloud-init query` prints for a value: a str as it is, anything
/// else as `json_dumps` (indent 1, sorted keys).
pub fn query_text(v: &Value) -> Result<String, QueryError> {
    if v.kind() == ValueKind::String {
        return Ok(v.as_str().unwrap_or_default().to_owned());
    }
    super::tojson::json_dumps(v, Some(1)).map_err(|e| QueryError::NotJson(e.to_string()))
}

/// `--list-keys`: the sorted keys of a dict, one a line.
pub fn list_keys(v: &Value) -> Option<String> {
    let d = v.downcast_object_ref::<PyDict>()?;
    let mut keys: Vec<String> = d
        .keys()
        .iter()
        .map(|k| super::py_format::py_str(k).unwrap_or_default())
        .collect();
    keys.sort();
    Some(keys.join("\n"))
}

impl InstanceData {
    /// The instance data with `cloud-init query`'s extra keys
    /// (`userdata`, `vendordata`, and on 25.1 `combined_cloud_config`).
    pub fn with_query_keys(&self, extra: &[(&str, Option<String>)]) -> (Value, Value) {
        (self.unaliased(extra), self.aliased(extra))
    }
}
