//! Node-for-node comparison of two loaded trees: values (exact: float bits,
//! key objects, order), spans, and sharing (an alias is the same node in both).

use cloudfold::yaml::{Node, Value};
use std::collections::HashMap;

/// Why `a` and `b` differ, if they do.
pub(crate) fn same_tree(a: &Node, b: &Node) -> Result<(), String> {
    let mut seen = (HashMap::new(), HashMap::new());
    walk(a, b, &mut seen, "$")
}

type Seen = (HashMap<usize, usize>, HashMap<usize, usize>);

fn walk(a: &Node, b: &Node, seen: &mut Seen, at: &str) -> Result<(), String> {
    match (seen.0.get(&a.id()), seen.1.get(&b.id())) {
        (Some(&x), Some(&y)) if x == b.id() && y == a.id() => return Ok(()),
        (None, None) => {
            seen.0.insert(a.id(), b.id());
            seen.1.insert(b.id(), a.id());
        }
        _ => return Err(format!("{at}: sharing differs")),
    }
    if a.span() != b.span() {
        return Err(format!("{at}: span {:?} vs {:?}", a.span(), b.span()));
    }
    let same = match (a.value(), b.value()) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (Value::Date(x), Value::Date(y)) => x == y,
        (Value::DateTime(x), Value::DateTime(y)) => format!("{x:?}") == format!("{y:?}"),
        (Value::Seq(x), Value::Seq(y)) | (Value::Tuple(x), Value::Tuple(y)) => {
            if x.len() != y.len() {
                return Err(format!("{at}: {} vs {} items", x.len(), y.len()));
            }
            for (i, (p, q)) in x.iter().zip(y.iter()).enumerate() {
                walk(p, q, seen, &format!("{at}[{i}]"))?;
            }
            true
        }
        (Value::Map(x), Value::Map(y)) | (Value::Set(x), Value::Set(y)) => {
            if x.len() != y.len() {
                return Err(format!("{at}: {} vs {} entries", x.len(), y.len()));
            }
            for (i, ((k1, v1), (k2, v2))) in x.iter().zip(y.iter()).enumerate() {
                walk(k1, k2, seen, &format!("{at}.key{i}"))?;
                walk(v1, v2, seen, &format!("{at}.value{i}"))?;
            }
            true
        }
        _ => false,
    };
    if same {
        Ok(())
    } else {
        Err(format!("{at}: {:?} vs {:?}", a.value(), b.value()))
    }
}
