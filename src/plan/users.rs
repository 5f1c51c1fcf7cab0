//! `normalize_users_groups`: `ug_util`'s reading of `users`, `user`, `groups` and the image's `default_user` — which users and groups `users_groups` creates.

use super::action::UserPlan;
use super::cloud_util::is_true;
use super::module_config_error::ModuleConfigError;
use crate::merge::cloud_init::{Version, merge_many};
use crate::python::py_strip;
use crate::userdata::Release;
use crate::yaml::value::{Entries, Key, Map, Node, Value, py_eq, py_str};

/// The users (name, settings) and groups (name, members) in creation order.
#[derive(Debug, Default)]
pub struct UsersGroups {
    /// Users, in order.
    pub users: Vec<UserPlan>,
    /// Groups, in order.
    pub groups: Vec<(String, Vec<String>)>,
}

fn dict() -> Node {
    Node::synthetic(Value::Map(Map::default()))
}

fn entries_of(n: &Node) -> Entries {
    n.as_map().map(Map::to_entries).unwrap_or_default()
}

fn node_of(e: Entries) -> Node {
    Node::synthetic(Value::Map(Map::new(e)))
}

fn version(r: Release) -> Version {
    match r {
        Release::V22_4 => Version::V22_4,
        Release::V25_1 => Version::V25_1,
    }
}

fn merge(sources: &[Node], release: Release) -> Result<Node, String> {
    merge_many(sources, version(release)).map_err(|e| e.message)
}

/// `ug_util.normalize_users_groups(cfg, distro)` (`default_user`: the
/// distro's `system_info.default_user`).
pub fn normalize_users_groups(
    cfg: &Node,
    default_user: Option<&Node>,
    release: Release,
) -> Result<UsersGroups, ModuleConfigError> {
    users_groups(cfg, default_user, release).map_err(ModuleConfigError::new)
}

/// [`normalize_users_groups`], the exception as its Python text.
fn users_groups(
    cfg: &Node,
    default_user: Option<&Node>,
    release: Release,
) -> Result<UsersGroups, String> {
    let m = cfg.as_map();
    let get = |k: &str| m.and_then(|m| m.get_str(k)).cloned();
    let mut old_user = dict();
    if let Some(u) = get("user").filter(Node::is_truthy) {
        old_user = match u.value() {
            Value::Str(_) => {
                let mut e = Entries::default();
                e.insert(Key(Node::str("name")), u.clone());
                node_of(e)
            }
            Value::Map(_) => u.clone(),
            _ => dict(),
        };
    }
    let distro_user = default_user
        .cloned()
        .unwrap_or_else(|| Node::synthetic(Value::Null));
    let default_user_config = merge(&[old_user.clone(), distro_user], release)?;
    let mut base_users =
        get("users").unwrap_or_else(|| Node::synthetic(Value::Seq(Default::default())));
    if !matches!(
        base_users.value(),
        Value::Map(_) | Value::Str(_) | Value::Seq(_)
    ) {
        base_users = Node::synthetic(Value::Seq(Default::default()));
    }
    if old_user.is_truthy() {
        base_users = match base_users.value() {
            Value::Seq(items) => {
                let mut v = items.items().to_vec();
                let mut e = Entries::default();
                e.insert(Key(Node::str("name")), Node::str("default"));
                v.push(node_of(e));
                Node::synthetic(Value::Seq(crate::yaml::value::Seq::new(v)))
            }
            Value::Map(bm) => {
                let mut e = bm.to_entries();
                let v = e
                    .get_str("default")
                    .cloned()
                    .unwrap_or_else(|| Node::synthetic(Value::Bool(true)));
                e.insert(Key(Node::str("default")), v);
                node_of(e)
            }
            Value::Str(s) => Node::str(&format!("{},default", s.to_string_lossy())),
            _ => base_users,
        };
    }
    let groups = match get("groups") {
        Some(g) => normalize_groups(&g)?,
        None => Vec::new(),
    };
    let users = normalize_users(&base_users, &default_user_config, release)?;
    Ok(UsersGroups {
        users: users
            .into_iter()
            .map(|(name, conf, default)| UserPlan {
                name: py_str(&name).to_string_lossy().into_owned(),
                default,
                settings: entries_of(&conf)
                    .iter()
                    .filter(|(k, _)| k.0.as_str() != Some("default"))
                    .map(|(k, v)| {
                        (
                            py_str(&k.0).to_string_lossy().into_owned(),
                            py_str(v).to_string_lossy().into_owned(),
                        )
                    })
                    .collect(),
            })
            .collect(),
        groups: groups
            .into_iter()
            .map(|(g, members)| {
                (
                    py_str(&g).to_string_lossy().into_owned(),
                    members
                        .iter()
                        .map(|m| py_str(m).to_string_lossy().into_owned())
                        .collect(),
                )
            })
            .collect(),
    })
}

/// `_normalize_groups(grp_cfg)`.
fn normalize_groups(g: &Node) -> Result<Vec<(Node, Vec<Node>)>, String> {
    let g = match g.value() {
        Value::Str(s) => split_list(py_strip(&s.to_string_lossy()), false),
        _ => g.clone(),
    };
    let mut out: Vec<(Node, Vec<Node>)> = Vec::new();
    let find = |out: &Vec<(Node, Vec<Node>)>, k: &Node| out.iter().position(|(n, _)| py_eq(n, k));
    match g.value() {
        Value::Seq(items) => {
            for i in items.iter() {
                match i.value() {
                    Value::Map(m) => {
                        for (k, v) in m.iter() {
                            let add: Vec<Node> = match v.value() {
                                Value::Seq(s) => s.items().to_vec(),
                                Value::Str(_) => vec![v.clone()],
                                _ => {
                                    return Err(format!(
                                        "TypeError: Bad group member type {}",
                                        v.type_name()
                                    ));
                                }
                            };
                            match find(&out, k) {
                                Some(p) => {
                                    if let Some(e) = out.get_mut(p) {
                                        e.1.extend(add);
                                    }
                                }
                                None => out.push((k.clone(), add)),
                            }
                        }
                    }
                    Value::Str(_) => {
                        if find(&out, i).is_none() {
                            out.push((i.clone(), Vec::new()));
                        }
                    }
                    _ => {
                        return Err(format!(
                            "TypeError: Unknown group name type {}",
                            i.type_name()
                        ));
                    }
                }
            }
            out.into_iter()
                .map(|(k, members)| Ok((k, uniq_merge_sorted(&[list_node(members)])?)))
                .collect()
        }
        Value::Map(m) => m
            .iter()
            .map(|(k, v)| Ok((k.clone(), uniq_merge_sorted(std::slice::from_ref(v))?)))
            .collect(),
        _ => Err(format!(
            "TypeError: Group config must be list, dict or string type only but found {}",
            g.type_name()
        )),
    }
}

fn list_node(items: Vec<Node>) -> Node {
    Node::synthetic(Value::Seq(crate::yaml::value::Seq::new(items)))
}

/// `s.split(",")`, empty pieces dropped when `drop_empty`.
fn split_list(s: &str, drop_empty: bool) -> Node {
    list_node(
        s.split(',')
            .filter(|p| !drop_empty || !p.is_empty())
            .map(Node::str)
            .collect(),
    )
}

/// `util.uniq_merge(*lists)`: strings split on commas (after strip), empty
/// pieces dropped; first occurrences kept.
fn uniq_merge(lists: &[Node]) -> Result<Vec<Node>, String> {
    let mut combined: Vec<Node> = Vec::new();
    for l in lists {
        let items: Vec<Node> = match l.value() {
            Value::Str(s) => split_list(py_strip(&s.to_string_lossy()), true)
                .as_seq()
                .map(|s| s.items().to_vec())
                .unwrap_or_default(),
            Value::Seq(s) | Value::Tuple(s) => s.items().to_vec(),
            Value::Map(m) => m.keys().cloned().collect(),
            _ => {
                return Err(format!(
                    "TypeError: '{}' object is not iterable",
                    l.type_name()
                ));
            }
        };
        for i in items {
            if !combined.iter().any(|c| py_eq(c, &i)) {
                combined.push(i);
            }
        }
    }
    Ok(combined)
}

/// `sorted(uniq_merge(*lists))`: strings only (mixed types raise in Python).
fn uniq_merge_sorted(lists: &[Node]) -> Result<Vec<Node>, String> {
    let mut v = uniq_merge(lists)?;
    if v.iter().any(|n| n.as_py_str().is_none()) {
        if v.len() > 1 {
            return Err(
                "cloudfold cannot plan this: sorting a list that is not all strings".into(),
            );
        }
        return Ok(v);
    }
    v.sort_by(|a, b| a.as_py_str().cmp(&b.as_py_str()));
    Ok(v)
}

/// `_normalize_users(u_cfg, def_user_cfg)`: (name, settings, default?) in order.
fn normalize_users(
    u_cfg: &Node,
    def_user_cfg: &Node,
    release: Release,
) -> Result<Vec<(Node, Node, bool)>, String> {
    let u_list: Vec<Node> = match u_cfg.value() {
        Value::Map(m) => {
            let mut ad = Vec::new();
            for (k, v) in m.iter() {
                match v.value() {
                    Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Str(_) => {
                        if is_true(v) {
                            ad.push(Node::synthetic(Value::Str(py_str(k))));
                        }
                    }
                    Value::Map(_) => {
                        let mut e = entries_of(v);
                        e.insert(Key(Node::str("name")), k.clone());
                        ad.push(node_of(e));
                    }
                    _ => {
                        return Err(format!(
                            "TypeError: Unmappable user value type {} for key {}",
                            v.type_name(),
                            py_str(k)
                        ));
                    }
                }
            }
            ad
        }
        Value::Str(_) => uniq_merge_sorted(std::slice::from_ref(u_cfg))?,
        Value::Seq(s) => s.items().to_vec(),
        _ => Vec::new(),
    };
    // users: name -> config, in insertion order.
    let mut users: Vec<(Node, Node)> = Vec::new();
    let find = |users: &Vec<(Node, Node)>, k: &Node| users.iter().position(|(n, _)| py_eq(n, k));
    for uc in u_list {
        match uc.value() {
            Value::Seq(_) | Value::Str(_) => {
                for u in uniq_merge(std::slice::from_ref(&uc))? {
                    if !u.value().is_hashable() {
                        return Err(format!("TypeError: unhashable type: '{}'", u.type_name()));
                    }
                    if u.is_truthy() && find(&users, &u).is_none() {
                        users.push((u, dict()));
                    }
                }
            }
            Value::Map(_) => {
                let mut e = entries_of(&uc);
                let n = e
                    .shift_remove(&Node::str("name"))
                    .unwrap_or_else(|| Node::str("default"));
                if !n.value().is_hashable() {
                    return Err(format!("TypeError: unhashable type: '{}'", n.type_name()));
                }
                let prev = find(&users, &n)
                    .and_then(|p| users.get(p))
                    .map(|(_, c)| c.clone())
                    .filter(Node::is_truthy)
                    .unwrap_or_else(dict);
                let merged = merge(&[prev, node_of(e)], release)?;
                match find(&users, &n) {
                    Some(p) => {
                        if let Some(slot) = users.get_mut(p) {
                            slot.1 = merged;
                        }
                    }
                    None => users.push((n, merged)),
                }
            }
            _ => {
                return Err(format!(
                    "TypeError: User config must be dictionary/list or string  types only and not {}",
                    uc.type_name()
                ));
            }
        }
    }
    // Keys: '-' to '_', stripped, empty ones dropped.
    let mut canon: Vec<(Node, Node)> = Vec::with_capacity(users.len());
    for (name, conf) in users {
        let mut e = Entries::default();
        for (k, v) in entries_of(&conf).iter() {
            let Some(ks) = k.0.as_py_str() else {
                return Err(format!(
                    "AttributeError: '{}' object has no attribute 'replace'",
                    k.0.type_name()
                ));
            };
            let ks = py_strip(&ks.to_string_lossy().replace('-', "_")).to_owned();
            if !ks.is_empty() {
                e.insert(Key(Node::str(&ks)), v.clone());
            }
        }
        canon.push((name, node_of(e)));
    }
    let mut users = canon;
    let mut def_user: Option<Node> = None;
    let default_key = Node::str("default");
    if let Some(p) = find(&users, &default_key) {
        let (_, def_config) = users.remove(p);
        if def_user_cfg.is_truthy() {
            let mut d = entries_of(def_user_cfg);
            let name = d
                .shift_remove(&Node::str("name"))
                .ok_or_else(|| "KeyError: 'name'".to_owned())?;
            if !name.value().is_hashable() {
                return Err(format!(
                    "TypeError: unhashable type: '{}'",
                    name.type_name()
                ));
            }
            let def_groups = d
                .shift_remove(&Node::str("groups"))
                .unwrap_or_else(|| list_node(Vec::new()));
            let parsed = match find(&users, &name) {
                Some(p) => users.remove(p).1,
                None => dict(),
            };
            let mut pe = entries_of(&parsed);
            let parsed_groups = pe
                .get_str("groups")
                .cloned()
                .unwrap_or_else(|| list_node(Vec::new()));
            let merged_groups = uniq_merge_sorted(&[parsed_groups, def_groups])?;
            let joined = merged_groups
                .iter()
                .map(|g| py_str(g).to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join(",");
            pe.insert(Key(Node::str("groups")), Node::str(&joined));
            let conf = merge(&[node_of(d), def_config, node_of(pe)], release)?;
            users.push((name.clone(), conf));
            def_user = Some(name);
        }
    }
    Ok(users
        .into_iter()
        .map(|(n, c)| {
            let is_default = def_user.as_ref().is_some_and(|d| py_eq(d, &n));
            (n, c, is_default)
        })
        .collect())
}

#[cfg(test)]
// Test code: an out-of-range index is a failed test.
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn load(s: &str) -> Node {
        crate::yaml::load(s, &Default::default()).unwrap().unwrap()
    }

    fn names(cfg: &str, du: &str) -> Vec<(String, bool)> {
        let du = load(du);
        normalize_users_groups(&load(cfg), Some(&du), Release::V25_1)
            .unwrap()
            .users
            .into_iter()
            .map(|u| (u.name, u.default))
            .collect()
    }

    #[test]
    fn default_user_needs_default() {
        let du = "{name: debian, groups: [adm, sudo], shell: /bin/bash}";
        assert_eq!(
            names("users: [default, {name: bob}]", du),
            [("bob".into(), false), ("debian".into(), true)]
        );
        assert_eq!(names("users: [{name: bob}]", du), [("bob".into(), false)]);
        assert_eq!(
            names("users: 'a, b'", du),
            [("b".into(), false), ("a".into(), false)]
        );
        assert_eq!(names("{}", du), Vec::<(String, bool)>::new());
        let ug = normalize_users_groups(
            &load("users: [default]\ngroups: [x, {y: [a, b]}, {y: c}]"),
            Some(&load(du)),
            Release::V25_1,
        )
        .unwrap();
        assert!(
            ug.users[0]
                .settings
                .contains(&("groups".into(), "adm,sudo".into()))
        );
        assert_eq!(
            ug.groups,
            [
                ("x".into(), vec![]),
                ("y".into(), vec!["a".into(), "b".into(), "c".into()])
            ]
        );
    }
}
