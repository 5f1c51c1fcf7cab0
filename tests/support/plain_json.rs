//! A merged value as plain JSON (what `nickel export` prints): ints, floats, strings, lists, objects.

use cloudfold::yaml::value::{Int, Node, Value};
use serde_json::Value as J;

pub(crate) fn plain_json(n: &Node) -> J {
    match n.value() {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(Int::Small(i)) => J::from(*i),
        Value::Int(i) => J::from(i.to_f64().unwrap_or(f64::NAN)),
        Value::Float(f) => J::from(*f),
        Value::Str(s) => J::String(s.to_string_lossy().into_owned()),
        Value::Seq(s) | Value::Tuple(s) => J::Array(s.iter().map(plain_json).collect()),
        Value::Map(m) => J::Object(
            m.iter()
                .map(|(k, v)| (k.as_str().unwrap_or("?").to_string(), plain_json(v)))
                .collect(),
        ),
        other => J::String(format!("<{}>", other.type_name())),
    }
}
