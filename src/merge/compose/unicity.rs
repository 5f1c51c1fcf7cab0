//! `Indexer`: the identity of items in the sequences compose-go de-duplicates (`EnforceUnicity`), by path.

use super::compose_path::path_matches;
use super::go_text::go_value_text;
use super::volume_spec::parse_volume;
use crate::merge::Path;
use crate::yaml::value::{Node, Value};

/// How an item's key is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Indexer {
    /// `key=value` strings by key (the text before `=`).
    KeyValue,
    /// Service volumes by target.
    Volume,
    /// Devices by target.
    Device,
    /// Secrets and configs: by target, else `<default>/<source>`.
    Mount(&'static str),
    /// `env_file` by path.
    EnvFile,
    /// `expose` by the port's text.
    Expose,
    /// Ports by `host_ip:published:target/protocol` (`mode` is not part of it).
    Port,
    /// The whole item's text (`extra_hosts` when merged: exact duplicates dropped).
    Whole,
    /// IPAM pools by subnet.
    Subnet,
}

/// The sequences compose-go de-duplicates after every merge, with their indexers.
const UNIQUE: &[(&str, Indexer)] = &[
    ("networks.*.labels", Indexer::KeyValue),
    ("networks.*.ipam.options", Indexer::KeyValue),
    ("services.*.annotations", Indexer::KeyValue),
    ("services.*.build.args", Indexer::KeyValue),
    ("services.*.build.additional_contexts", Indexer::KeyValue),
    ("services.*.build.tags", Indexer::KeyValue),
    ("services.*.build.labels", Indexer::KeyValue),
    ("services.*.cap_add", Indexer::KeyValue),
    ("services.*.cap_drop", Indexer::KeyValue),
    ("services.*.devices", Indexer::Device),
    ("services.*.configs", Indexer::Mount("")),
    ("services.*.deploy.labels", Indexer::KeyValue),
    ("services.*.dns", Indexer::KeyValue),
    ("services.*.dns_opt", Indexer::KeyValue),
    ("services.*.dns_search", Indexer::KeyValue),
    ("services.*.environment", Indexer::KeyValue),
    ("services.*.env_file", Indexer::EnvFile),
    ("services.*.expose", Indexer::Expose),
    ("services.*.labels", Indexer::KeyValue),
    ("services.*.links", Indexer::KeyValue),
    ("services.*.networks.*.aliases", Indexer::KeyValue),
    ("services.*.networks.*.link_local_ips", Indexer::KeyValue),
    ("services.*.ports", Indexer::Port),
    ("services.*.profiles", Indexer::KeyValue),
    ("services.*.secrets", Indexer::Mount("/run/secrets")),
    ("services.*.sysctls", Indexer::KeyValue),
    ("services.*.tmpfs", Indexer::KeyValue),
    ("services.*.volumes", Indexer::Volume),
];

/// The indexer compose-go's `EnforceUnicity` uses for the sequence at `path`.
pub(super) fn unique_indexer(path: &Path) -> Option<Indexer> {
    UNIQUE
        .iter()
        .find(|(p, _)| path_matches(path, p))
        .map(|(_, i)| *i)
}

impl Indexer {
    /// The key of `item`; `Err` with compose-go's message when the item
    /// cannot have one (`at` is the item's path text).
    pub(super) fn key(self, item: &Node, at: &str) -> Result<Option<String>, String> {
        let field = |k: &str| item.as_map().and_then(|m| m.get_str(k));
        match self {
            Indexer::KeyValue => match item.as_str() {
                Some(s) => Ok(Some(s.split_once('=').map_or(s, |(k, _)| k).to_string())),
                None => Err(format!("{at}: unexpected type {}", go_type(item))),
            },
            Indexer::Whole => Ok(Some(go_value_text(item).to_string_lossy().into_owned())),
            Indexer::Expose => match item.value() {
                Value::Str(_) | Value::Int(_) => {
                    Ok(Some(go_value_text(item).to_string_lossy().into_owned()))
                }
                _ => Err(format!("{at}: unsupported expose value {}", go_v(item))),
            },
            Indexer::EnvFile => match item.value() {
                Value::Str(_) => Ok(item.as_str().map(str::to_string)),
                Value::Map(_) => Ok(Some(field("path").map(go_s).unwrap_or_default())),
                _ => Ok(Some(String::new())),
            },
            Indexer::Volume => match item.value() {
                Value::Map(_) => match field("target").and_then(Node::as_str) {
                    Some(t) => Ok(Some(t.to_string())),
                    None => Err(format!("service volume {at} is missing a mount target")),
                },
                Value::Str(_) => parse_volume(item.as_str().unwrap_or_default())
                    .map(|v| Some(v.target))
                    .map_err(|e| e.to_string()),
                _ => Ok(Some(String::new())),
            },
            Indexer::Device => match item.value() {
                Value::Map(_) => Ok(Some(field("target").map(go_s).unwrap_or_default())),
                Value::Str(_) => Ok(item.as_str().map(|s| {
                    let mut parts = s.split(':');
                    let src = parts.next().unwrap_or_default();
                    parts
                        .next()
                        .filter(|d| !d.is_empty())
                        .unwrap_or(src)
                        .to_string()
                })),
                _ => Ok(Some(String::new())),
            },
            Indexer::Mount(default) => match item.value() {
                Value::Str(_) => Ok(Some(format!("{default}/{}", go_s(item)))),
                Value::Map(_) => match field("target") {
                    Some(t) => Ok(Some(go_s(t))),
                    None => Ok(Some(format!(
                        "{default}/{}",
                        field("source").map_or_else(|| "%!s(<nil>)".to_string(), go_s)
                    ))),
                },
                _ => Err(format!("{at}: unsupported expose value {}", go_v(item))),
            },
            Indexer::Port => match item.value() {
                Value::Int(_) => Ok(Some(go_value_text(item).to_string_lossy().into_owned())),
                Value::Str(_) => Ok(item.as_str().map(str::to_string)),
                Value::Map(_) => {
                    let Some(target) = field("target") else {
                        return Err(format!("service ports {at} is missing a target port"));
                    };
                    let host = field("host_ip").map_or_else(|| "0.0.0.0".to_string(), go_s);
                    let published = field("published").map_or_else(|| "%!s(<nil>)".into(), go_s);
                    let protocol = field("protocol").map_or_else(|| "tcp".to_string(), go_s);
                    Ok(Some(format!(
                        "{host}:{published}:{}/{protocol}",
                        go_d(target)
                    )))
                }
                _ => Ok(Some(String::new())),
            },
            Indexer::Subnet => Ok(Some(field("subnet").map_or_else(|| "<nil>".into(), go_v))),
        }
    }
}

/// Go's type name of a decoded YAML value.
fn go_type(node: &Node) -> &'static str {
    match node.value() {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Int(_) => "int",
        Value::Float(_) => "float64",
        Value::Str(_) => "string",
        Value::Seq(_) | Value::Tuple(_) => "[]interface {}",
        Value::Map(_) => "map[string]interface {}",
        _ => "string",
    }
}

/// `%v`.
fn go_v(node: &Node) -> String {
    go_value_text(node).to_string_lossy().into_owned()
}

/// `%s`: strings as they are, anything else as Go's `%!s(type=value)`.
fn go_s(node: &Node) -> String {
    match node.value() {
        Value::Str(_) => go_v(node),
        Value::Null => "%!s(<nil>)".into(),
        _ => format!("%!s({}={})", go_type(node), go_v(node)),
    }
}

/// `%d`: integers in decimal, anything else as Go's `%!d(type=value)`.
fn go_d(node: &Node) -> String {
    match node.value() {
        Value::Int(_) => go_v(node),
        Value::Null => "%!d(<nil>)".into(),
        _ => format!("%!d({}={})", go_type(node), go_v(node)),
    }
}
