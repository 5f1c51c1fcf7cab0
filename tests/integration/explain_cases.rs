//! `explain` on hand-written payloads: decisions, positions in JSON patch parts, the alias budget.

use cloudfold::explain::{
    Change, ExplainError, ExplainLimits, Explanation, OriginKind, PartStatus, explain,
};
use cloudfold::userdata::{NoIncludes, UserDataOptions};

fn run(payload: &str) -> Explanation {
    explain(
        payload.as_bytes(),
        &UserDataOptions::default(),
        &NoIncludes,
        ExplainLimits::default(),
    )
    .unwrap()
    .1
}

fn mime(parts: &[(&str, Option<&str>, &str)]) -> String {
    let mut s =
        String::from("Content-Type: multipart/mixed; boundary=\"B\"\nMIME-Version: 1.0\n\n");
    for (ctype, merge, body) in parts {
        s.push_str(&format!("--B\nContent-Type: {ctype}\n"));
        if let Some(m) = merge {
            s.push_str(&format!("Merge-Type: {m}\n"));
        }
        s.push_str(&format!("\n{body}\n"));
    }
    s.push_str("--B--\n");
    s
}

#[test]
fn prepend_shifts_the_items_an_overlay_recorded() {
    let ex = run(&mime(&[
        ("text/cloud-config", None, "#cloud-config\nl: [a, b]\n"),
        (
            "text/cloud-config",
            Some("list()+dict(no_replace,recurse_list)"),
            "#cloud-config\nl: [A]\n",
        ),
        (
            "text/cloud-config",
            Some("list(prepend)+dict(no_replace,recurse_list)"),
            "#cloud-config\nl: [z]\n",
        ),
    ]));
    let item = |p: &str| ex.entries().find(|e| e.path == p).unwrap();
    let z = item("$.l[0]");
    assert_eq!(z.placed.as_ref().unwrap().change, Change::Prepended);
    assert_eq!(z.origin.unwrap().part, 3);
    let a = item("$.l[1]");
    assert_eq!(a.placed.as_ref().unwrap().change, Change::Overlaid);
    assert_eq!(a.placed.as_ref().unwrap().replaced_part, Some(1));
    let b = item("$.l[2]");
    assert_eq!(b.placed.as_ref().unwrap().change, Change::Added);
    assert_eq!(b.origin.unwrap().part, 1);
}

#[test]
fn json_patch_positions_count_from_the_start_of_the_part() {
    let ex = run(&mime(&[
        ("text/cloud-config", None, "#cloud-config\na: 1\n"),
        (
            "text/cloud-config-jsonp",
            None,
            "#cloud-config-jsonp\n[{\"op\": \"add\", \"path\": \"/b\", \"value\": \"x\"}]",
        ),
    ]));
    let b = ex.entries().find(|e| e.path == "$.b").unwrap();
    let o = b.origin.unwrap();
    assert_eq!((o.part, o.start.line, o.start.column), (2, 2, 39));
    assert_eq!(b.placed.as_ref().unwrap().change, Change::Patched);
    assert_eq!(ex.parts[1].changes[0].op.as_deref(), Some("add"));
}

#[test]
fn string_append_lists_its_contributions() {
    let ex = run(&mime(&[
        ("text/cloud-config", None, "#cloud-config\ns: ab\n"),
        (
            "text/cloud-config",
            Some("dict(no_replace,recurse_str)+str(append)"),
            "#cloud-config\ns: cd\n",
        ),
    ]));
    let s = ex.entries().find(|e| e.path == "$.s").unwrap();
    assert_eq!(s.kind, OriginKind::Concat);
    let parts: Vec<usize> = s.contributions.iter().map(|o| o.part).collect();
    assert_eq!(parts, [1, 2]);
}

#[test]
fn dropped_parts_say_why() {
    let ex = run(&mime(&[
        ("text/cloud-config", None, "#cloud-config\na: 1\n"),
        ("text/cloud-config", None, "#cloud-config\na:\n\t- 1\n"),
    ]));
    assert!(matches!(&ex.parts[1].status, PartStatus::Dropped(r) if r.contains("YAML")));
}

#[test]
fn an_alias_bomb_stops_at_the_budget() {
    let mut doc = String::from("#cloud-config\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let p = i - 1;
        doc.push_str(&format!(
            "l{i}: &l{i} [*l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}]\n"
        ));
    }
    let err = explain(
        doc.as_bytes(),
        &UserDataOptions::default(),
        &NoIncludes,
        ExplainLimits::default(),
    )
    .unwrap_err();
    assert!(matches!(err, ExplainError::TooManyNodes { limit: 200_000 }));
    assert!(err.to_string().contains("--max-nodes"));
}
