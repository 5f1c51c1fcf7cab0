//! Generated `nickel` dialect cases: layers of plain data with priorities, written as tagged YAML (ours) and as Nickel records (the oracle).

use super::rng::Rng;

#[derive(Debug, Clone)]
pub(crate) enum Prio {
    Default,
    Force,
    Num(&'static str),
}

#[derive(Debug, Clone)]
pub(crate) enum GV {
    Null,
    Bool(bool),
    Int(i64),
    Float(&'static str),
    Str(&'static str),
    Arr(Vec<GV>),
    Rec(Vec<(&'static str, Option<Prio>, GV)>),
}

const KEYS: &[&str] = &["a", "b", "c"];
const FLOATS: &[&str] = &["1.0", "0.5", "2.5", "-1.0", "1.0e+3"];
const STRS: &[&str] = &["x", "y", "", "a b", "%{x}", "é", "q\"\\"];
const PRIOS: &[&str] = &["-1", "0", "1", "2", "1.5", "-1.5", "10", "0.0"];

fn scalar(rng: &mut Rng) -> GV {
    match rng.below(9) {
        0 => GV::Null,
        1 => GV::Bool(rng.chance(50)),
        2..=4 => GV::Int(rng.below(3) as i64),
        5 => GV::Float(FLOATS[rng.below(FLOATS.len())]),
        _ => GV::Str(STRS[rng.below(STRS.len())]),
    }
}

fn value(rng: &mut Rng, depth: usize) -> GV {
    let r = rng.below(10);
    if depth < 3 && r < 4 {
        return record(rng, depth + 1);
    }
    if depth < 3 && r < 5 {
        let n = rng.below(3);
        let items = (0..n)
            .map(|_| {
                if rng.chance(20) {
                    record(rng, depth + 1)
                } else {
                    scalar(rng)
                }
            })
            .collect();
        return GV::Arr(items);
    }
    scalar(rng)
}

fn prio(rng: &mut Rng) -> Option<Prio> {
    match rng.below(10) {
        0 => Some(Prio::Default),
        1 => Some(Prio::Force),
        2 | 3 => Some(Prio::Num(PRIOS[rng.below(PRIOS.len())])),
        _ => None,
    }
}

fn record(rng: &mut Rng, depth: usize) -> GV {
    let mut fields = Vec::new();
    for k in KEYS {
        if rng.chance(55) {
            fields.push((*k, prio(rng), value(rng, depth)));
        }
    }
    GV::Rec(fields)
}

/// 1–4 layers, each a record.
pub(crate) fn case(rng: &mut Rng) -> Vec<GV> {
    let n = 1 + rng.below(4);
    (0..n).map(|_| record(rng, 0)).collect()
}

fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// Flow-style YAML with priority tags.
pub(crate) fn to_yaml(v: &GV) -> String {
    match v {
        GV::Null => "null".into(),
        GV::Bool(b) => b.to_string(),
        GV::Int(i) => i.to_string(),
        GV::Float(f) => f.to_string(),
        GV::Str(s) => q(s),
        GV::Arr(items) => format!(
            "[{}]",
            items.iter().map(to_yaml).collect::<Vec<_>>().join(", ")
        ),
        GV::Rec(fields) => format!(
            "{{{}}}",
            fields
                .iter()
                .map(|(k, p, v)| {
                    let tag = match p {
                        None => String::new(),
                        Some(Prio::Default) => "!default ".into(),
                        Some(Prio::Force) => "!force ".into(),
                        Some(Prio::Num(n)) => format!("!priority:{n} "),
                    };
                    format!("{}: {tag}{}", q(k), to_yaml(v))
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A Nickel string literal: JSON's syntax, `%` escaped (it may start an interpolation).
fn nq(s: &str) -> String {
    q(s).replace('%', "\\%")
}

/// The same value as a Nickel expression (priorities as field metadata).
pub(crate) fn to_nickel(v: &GV) -> String {
    match v {
        GV::Null => "null".into(),
        GV::Bool(b) => b.to_string(),
        GV::Int(i) => i.to_string(),
        GV::Float(f) => f.to_string(),
        GV::Str(s) => nq(s),
        GV::Arr(items) => format!(
            "[{}]",
            items.iter().map(to_nickel).collect::<Vec<_>>().join(", ")
        ),
        GV::Rec(fields) => format!(
            "{{ {} }}",
            fields
                .iter()
                .map(|(k, p, v)| {
                    let meta = match p {
                        None => String::new(),
                        Some(Prio::Default) => " | default".into(),
                        Some(Prio::Force) => " | force".into(),
                        Some(Prio::Num(n)) => format!(" | priority {n}"),
                    };
                    format!("{}{meta} = {}", nq(k), to_nickel(v))
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
