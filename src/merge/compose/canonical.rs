//! `canonicalize`: one file put in compose-go's canonical form before merging (short syntax to long, in-file de-duplication).
//!
//! compose-go rewrites each file before merging it (`transform.Canonical`):
//! short ports, volumes, secrets, configs, devices, `depends_on`, service
//! `networks`, `env_file`, `build`, `dns`, `extends` and the old
//! `external: {name: …}` become long syntax; then every sequence it keeps
//! unique ([`super::unicity`]) is de-duplicated. Merging canonical forms is
//! what makes `"80:80"` and `{target: 80, published: "80"}` the same port.
//! New nodes carry the span of what they were written from.

use super::ComposeError;
use super::compose_path::key_text;
use super::node_build::{boolean, int, map, map_of, seq, text};
use super::port_spec::parse_ports;
use super::unicity::unique_indexer;
use super::volume_spec::parse_volume;
use crate::merge::{Path, PathSeg};
use crate::yaml::value::{Entries, Node, Value, insert};

/// Deepest nesting walked (the loader already stops at 491).
const MAX_DEPTH: usize = 1000;

/// `root` (a file's mapping) in canonical form.
pub fn canonicalize(root: &Node) -> Result<Node, ComposeError> {
    let Some(m) = root.as_map() else {
        return Ok(root.clone());
    };
    let mut entries = Entries::with_capacity(m.len());
    for (k, v) in m.iter() {
        let v = match (key_text(k).as_str(), v.value()) {
            ("services", Value::Map(services)) => {
                let mut out = Entries::with_capacity(services.len());
                for (name, svc) in services.iter() {
                    insert(&mut out, name.clone(), service(svc)?);
                }
                map_of(out, v.span())
            }
            ("volumes" | "networks" | "secrets" | "configs", Value::Map(items)) => {
                let mut out = Entries::with_capacity(items.len());
                for (name, item) in items.iter() {
                    insert(&mut out, name.clone(), maybe_external(item));
                }
                map_of(out, v.span())
            }
            _ => v.clone(),
        };
        insert(&mut entries, k.clone(), v);
    }
    let canon = map_of(entries, root.span());
    let mut path = Path::root();
    dedup(&canon, &mut path, 0)
}

/// `external: {name: x}` (the old syntax) as `external: true, name: x`.
fn maybe_external(item: &Node) -> Node {
    let Some(m) = item.as_map() else {
        return item.clone();
    };
    let Some(name) = m
        .get_str("external")
        .and_then(Node::as_map)
        .and_then(|e| e.get_str("name"))
    else {
        return item.clone();
    };
    let mut out = m.to_entries();
    let ext = m.get_key_value(&text("external", item.span()));
    if let Some((k, e)) = ext {
        insert(&mut out, k.clone(), boolean(true, e.span()));
    }
    insert(&mut out, text("name", name.span()), name.clone());
    map_of(out, item.span())
}

fn service(svc: &Node) -> Result<Node, ComposeError> {
    let Some(m) = svc.as_map() else {
        return Ok(svc.clone());
    };
    let mut out = Entries::with_capacity(m.len());
    for (k, v) in m.iter() {
        let field = key_text(k);
        let sp = v.span();
        let nv = match (field.as_str(), v.value()) {
            ("build", Value::Str(_)) => map(vec![("context", v.clone())], sp),
            ("extends", Value::Str(_)) => map(vec![("service", v.clone())], sp),
            ("dns" | "label_file", Value::Str(_)) => seq(vec![v.clone()], sp),
            ("depends_on", _) => depends_on(v)?,
            // An empty command is no command.
            ("command" | "entrypoint", Value::Seq(items)) if items.is_empty() => {
                Node::new(Value::Null, sp)
            }
            ("env_file", _) => env_file(v),
            ("networks", Value::Seq(items)) => {
                let mut e = Entries::with_capacity(items.len());
                for n in items.iter() {
                    insert(&mut e, n.clone(), Node::new(Value::Null, n.span()));
                }
                map_of(e, sp)
            }
            ("ports", Value::Seq(items)) => ports(items.items(), sp)?,
            ("volumes", Value::Seq(items)) => each(items.items(), sp, volume)?,
            ("devices", Value::Seq(items)) => each(items.items(), sp, device)?,
            ("secrets", Value::Seq(items)) => each(items.items(), sp, |i| Ok(secret(i)))?,
            ("configs", Value::Seq(items)) => each(items.items(), sp, |i| Ok(config(i)))?,
            _ => v.clone(),
        };
        insert(&mut out, k.clone(), nv);
    }
    Ok(map_of(out, svc.span()))
}

fn each(
    items: &[Node],
    span: crate::source::Span,
    f: impl Fn(&Node) -> Result<Node, ComposeError>,
) -> Result<Node, ComposeError> {
    let out: Result<Vec<Node>, ComposeError> = items.iter().map(f).collect();
    Ok(seq(out?, span))
}

fn invalid(item: &Node, message: String) -> ComposeError {
    ComposeError::Invalid {
        message,
        span: item.span(),
    }
}

fn depends_on(v: &Node) -> Result<Node, ComposeError> {
    let sp = v.span();
    let default = |at: &Node| {
        map(
            vec![
                ("condition", text("service_started", at.span())),
                ("required", boolean(true, at.span())),
            ],
            at.span(),
        )
    };
    match v.value() {
        Value::Seq(items) => {
            let mut e = Entries::with_capacity(items.len());
            for n in items.iter() {
                insert(&mut e, n.clone(), default(n));
            }
            Ok(map_of(e, sp))
        }
        Value::Map(m) => {
            let mut e = Entries::with_capacity(m.len());
            for (name, d) in m.iter() {
                let Some(dm) = d.as_map() else {
                    return Err(invalid(
                        d,
                        format!("depends_on.{}: unsupported value", key_text(name)),
                    ));
                };
                let mut de = dm.to_entries();
                if dm.get_str("condition").is_none() {
                    insert(
                        &mut de,
                        text("condition", d.span()),
                        text("service_started", d.span()),
                    );
                }
                if dm.get_str("required").is_none() {
                    insert(&mut de, text("required", d.span()), boolean(true, d.span()));
                }
                insert(&mut e, name.clone(), map_of(de, d.span()));
            }
            Ok(map_of(e, sp))
        }
        _ => Ok(v.clone()),
    }
}

fn env_file(v: &Node) -> Node {
    let one = |item: &Node| match item.value() {
        Value::Str(_) => map(
            vec![
                ("path", item.clone()),
                ("required", boolean(true, item.span())),
            ],
            item.span(),
        ),
        Value::Map(m) if m.get_str("required").is_none() => {
            let mut e = m.to_entries();
            insert(
                &mut e,
                text("required", item.span()),
                boolean(true, item.span()),
            );
            map_of(e, item.span())
        }
        _ => item.clone(),
    };
    match v.value() {
        Value::Str(_) => seq(vec![one(v)], v.span()),
        Value::Seq(items) => seq(items.iter().map(one).collect(), v.span()),
        _ => v.clone(),
    }
}

fn ports(items: &[Node], span: crate::source::Span) -> Result<Node, ComposeError> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let spec = match item.value() {
            Value::Int(i) => i.to_big().to_string(),
            Value::Str(_) => item.as_str().unwrap_or_default().to_string(),
            Value::Map(m) => {
                // Long syntax gets the defaults the short one spells out.
                let mut e = m.to_entries();
                if m.get_str("mode").is_none() {
                    insert(
                        &mut e,
                        text("mode", item.span()),
                        text("ingress", item.span()),
                    );
                }
                if m.get_str("protocol").is_none() {
                    insert(
                        &mut e,
                        text("protocol", item.span()),
                        text("tcp", item.span()),
                    );
                }
                out.push(map_of(e, item.span()));
                continue;
            }
            _ => {
                return Err(invalid(
                    item,
                    format!("invalid type {} for port", item.type_name()),
                ));
            }
        };
        let sp = item.span();
        for p in parse_ports(&spec).map_err(|m| invalid(item, m.to_string()))? {
            let mut e = vec![("mode", text("ingress", sp))];
            if !p.host_ip.is_empty() {
                e.push(("host_ip", text(&p.host_ip, sp)));
            }
            e.push((
                "target",
                int(i64::try_from(p.target).unwrap_or_default(), sp),
            ));
            if !p.published.is_empty() {
                e.push(("published", text(&p.published, sp)));
            }
            e.push(("protocol", text(&p.protocol, sp)));
            out.push(map(e, sp));
        }
    }
    Ok(seq(out, span))
}

fn volume(item: &Node) -> Result<Node, ComposeError> {
    let Some(s) = item.as_str() else {
        return Ok(item.clone());
    };
    let sp = item.span();
    let v = parse_volume(s).map_err(|m| invalid(item, m.to_string()))?;
    let mut e = vec![("type", text(if v.bind { "bind" } else { "volume" }, sp))];
    if !v.source.is_empty() {
        e.push(("source", text(&v.source, sp)));
    }
    e.push(("target", text(&v.target, sp)));
    if v.read_only {
        e.push(("read_only", boolean(true, sp)));
    }
    let mut bind = Vec::new();
    if let Some(p) = &v.propagation {
        bind.push(("propagation", text(p, sp)));
    }
    if v.bind {
        bind.push(("create_host_path", boolean(true, sp)));
    }
    if let Some(z) = &v.selinux {
        bind.push(("selinux", text(z, sp)));
    }
    if !bind.is_empty() {
        e.push(("bind", map(bind, sp)));
    }
    if v.nocopy {
        e.push(("volume", map(vec![("nocopy", boolean(true, sp))], sp)));
    } else if !v.bind && !v.bare {
        e.push(("volume", map(vec![], sp)));
    }
    Ok(map(e, sp))
}

fn device(item: &Node) -> Result<Node, ComposeError> {
    let Some(s) = item.as_str() else {
        return Ok(item.clone());
    };
    let sp = item.span();
    let parts: Vec<&str> = s.split(':').collect();
    let (src, dst, perm) = match parts.as_slice() {
        [a] => (*a, *a, "rwm"),
        [a, b] => (*a, *b, "rwm"),
        [a, b, c] => (*a, *b, *c),
        _ => return Err(invalid(item, format!("invalid device mapping {s}"))),
    };
    let dst = if dst.is_empty() { src } else { dst };
    Ok(map(
        vec![
            ("source", text(src, sp)),
            ("target", text(dst, sp)),
            ("permissions", text(perm, sp)),
        ],
        sp,
    ))
}

fn secret(item: &Node) -> Node {
    let sp = item.span();
    let long = match item.value() {
        Value::Str(_) => map(vec![("source", item.clone())], sp),
        _ => item.clone(),
    };
    // Secrets without a target are mounted at /run/secrets/<source>.
    let Some(m) = long.as_map() else {
        return long;
    };
    if m.get_str("target").is_some() {
        return long;
    }
    let Some(source) = m.get_str("source").and_then(Node::as_str) else {
        return long;
    };
    let mut e = m.to_entries();
    insert(
        &mut e,
        text("target", sp),
        text(&format!("/run/secrets/{source}"), sp),
    );
    map_of(e, sp)
}

fn config(item: &Node) -> Node {
    match item.value() {
        Value::Str(_) => map(vec![("source", item.clone())], item.span()),
        _ => item.clone(),
    }
}

/// De-duplicate every unique sequence (first position, last value).
fn dedup(node: &Node, path: &mut Path, depth: usize) -> Result<Node, ComposeError> {
    if depth > MAX_DEPTH {
        return Err(invalid(node, "nesting too deep".into()));
    }
    match node.value() {
        Value::Map(m) => {
            let mut out = Entries::with_capacity(m.len());
            for (k, v) in m.iter() {
                path.push(PathSeg::Key(k.clone()));
                let r = dedup(v, path, depth + 1);
                path.pop();
                insert(&mut out, k.clone(), r?);
            }
            Ok(map_of(out, node.span()))
        }
        Value::Seq(items) => {
            let Some(indexer) = unique_indexer(path) else {
                return Ok(node.clone());
            };
            let mut out: Vec<Node> = Vec::with_capacity(items.len());
            let mut seen: std::collections::HashMap<String, usize> = Default::default();
            for (i, item) in items.iter().enumerate() {
                let at = format!("{}.[{i}]", super::ComposePath::of(path));
                match indexer.key(item, &at).map_err(|m| invalid(item, m))? {
                    Some(key) => match seen.get(&key) {
                        Some(&j) => {
                            if let Some(slot) = out.get_mut(j) {
                                *slot = item.clone();
                            }
                        }
                        None => {
                            seen.insert(key, out.len());
                            out.push(item.clone());
                        }
                    },
                    None => out.push(item.clone()),
                }
            }
            Ok(seq(out, node.span()))
        }
        _ => Ok(node.clone()),
    }
}
