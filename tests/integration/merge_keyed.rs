//! The keyed cloud-config dialect: hand-written cases, and the property that fragment order never decides a value.

use crate::support;

use cloudfold::merge::keyed::{IDENTITY_TABLE, ListRule, merge_fragments, rule_for};
use cloudfold::merge::{NoObserver, Path, PathSeg, SymmetricError};
use cloudfold::yaml::typed_json::{WalkLimits, canonical, to_typed_json};
use cloudfold::yaml::value::{Node, Value};
use proptest::prelude::*;
use support::rng::Rng;

fn merge(docs: &[String]) -> Result<Node, SymmetricError> {
    let (roots, maps) = support::tagged_docs::load_docs(docs);
    merge_fragments(&roots, &maps, &mut NoObserver)
}

fn json(n: &Node) -> String {
    canonical(&to_typed_json(n, WalkLimits::default()).unwrap())
}

fn ok(docs: &[&str]) -> String {
    let docs: Vec<String> = docs.iter().map(|s| s.to_string()).collect();
    match merge(&docs) {
        Ok(n) => json(&n),
        Err(e) => panic!("{docs:?}: {e}"),
    }
}

fn err(docs: &[&str]) -> String {
    let docs: Vec<String> = docs.iter().map(|s| s.to_string()).collect();
    match merge(&docs) {
        Ok(n) => panic!("{docs:?} merged to {}", json(&n)),
        Err(e) => e.to_string(),
    }
}

#[test]
fn lists_combine_by_the_table() {
    assert_eq!(
        ok(&[
            "runcmd: [a, b]\npackages: [git, vim]\n",
            "runcmd: [a]\npackages: [vim, curl]\n"
        ]),
        ok(&["runcmd: [a, b, a]\npackages: [git, vim, curl]\n"])
    );
    assert_eq!(
        ok(&[
            "write_files: [{path: /a, content: x}, {path: /b, content: y}]\n",
            "write_files: [{path: /a, permissions: '0600'}]\n",
        ]),
        ok(&[
            "write_files: [{path: /a, content: x, permissions: '0600'}, {path: /b, content: y}]\n"
        ])
    );
    assert_eq!(
        ok(&[
            "users: [default, {name: alice, groups: [sudo]}]\n",
            "users: [{name: alice, groups: [adm], shell: /bin/bash}, default]\n",
        ]),
        ok(&["users: [default, {name: alice, groups: [sudo, adm], shell: /bin/bash}]\n"])
    );
    assert_eq!(
        ok(&[
            "mounts: [[/dev/sdb, /data, auto]]\n",
            "mounts: [[/dev/sdb, /data, auto], [/dev/sdc, /mnt]]\n"
        ]),
        ok(&["mounts: [[/dev/sdb, /data, auto], [/dev/sdc, /mnt]]\n"])
    );
    assert_eq!(
        ok(&[
            "groups: [ops, {admins: [alice]}]\n",
            "groups: [{admins: [bob]}]\n"
        ]),
        ok(&["groups: [ops, {admins: [alice, bob]}]\n"])
    );
    // Two keys make the identity: items merge when both agree.
    assert_eq!(
        ok(&[
            "fs_setup: [{device: /dev/sdb, partition: auto, filesystem: ext4}]\n",
            "fs_setup: [{device: /dev/sdb, partition: auto, label: data}, {device: /dev/sdb, partition: 1}]\n",
        ]),
        ok(&[
            "fs_setup: [{device: /dev/sdb, partition: auto, filesystem: ext4, label: data}, {device: /dev/sdb, partition: 1}]\n"
        ])
    );
    assert_eq!(
        ok(&[
            "fs_setup: [{device: /dev/sdb, label: a}]\n",
            "fs_setup: [{device: /dev/sdb, filesystem: ext4}, {partition: 1, label: b}]\n",
        ]),
        ok(&[
            "fs_setup: [{device: /dev/sdb, label: a, filesystem: ext4}, {partition: 1, label: b}]\n"
        ])
    );
    assert_eq!(
        ok(&[
            "apt: {sources: {a: {source: x}}}\n",
            "apt: {sources: {b: {source: y}}}\n"
        ]),
        ok(&["apt: {sources: {a: {source: x}, b: {source: y}}}\n"])
    );
}

#[test]
fn conflicts_name_both_fragments() {
    let e = err(&["hostname: web\n", "hostname: db\n"]);
    assert!(e.contains("$.hostname"), "{e}");
    assert!(
        e.contains("source 0:1:11") && e.contains("source 1:1:11"),
        "{e}"
    );
    let e = err(&[
        "write_files: [{path: /a, content: x}]\n",
        "write_files: [{path: /a, content: y}]\n",
    ]);
    assert!(e.contains("$.write_files[0].content"), "{e}");
    err(&[
        "mounts: [[/dev/sdb, /data]]\n",
        "mounts: [[/dev/sdc, /data]]\n",
    ]);
    err(&["runcmd: [a]\n", "runcmd: a\n"]);
    // One package, one version.
    err(&["packages: [nginx]\n", "packages: [[nginx, '1.2']]\n"]);
    err(&[
        "packages: [[nginx, '1.3']]\n",
        "packages: [[nginx, '1.2']]\n",
    ]);
    assert_eq!(
        ok(&[
            "packages: [[nginx, '1.2'], git]\n",
            "packages: [git, [nginx, '1.2']]\n"
        ]),
        ok(&["packages: [[nginx, '1.2'], git]\n"])
    );
    let e = err(&["write_files: [{path: /a}, {path: /a}]\n"]);
    assert!(e.contains("second item with identity '/a'"), "{e}");
    let e =
        err(&["fs_setup: [{device: /dev/sdb, partition: 1}, {device: /dev/sdb, partition: 1}]\n"]);
    assert!(
        e.contains("second item with identity ('/dev/sdb', 1)"),
        "{e}"
    );
    let e = err(&[
        "fs_setup: [{device: /dev/sdb, partition: auto, label: a}]\n",
        "fs_setup: [{device: /dev/sdb, partition: auto, label: b}]\n",
    ]);
    assert!(e.contains("$.fs_setup[0].label"), "{e}");
}

/// Long lists (past the pairwise comparison of short ones): the repeat whose
/// second item comes first is the one named, and an error in an item before
/// it still comes first.
#[test]
fn the_first_repeat_of_a_long_list_is_named() {
    let list = |edit: &dyn Fn(&mut Vec<String>)| {
        let mut items: Vec<String> = (0..200).map(|i| format!("p{i}")).collect();
        edit(&mut items);
        format!("packages: [{}]\n", items.join(", "))
    };
    let two = list(&|v| {
        v[150] = "p7".into();
        v[90] = "p40".into();
    });
    let e = err(&[&two]);
    assert!(e.contains("identity 'p40'"), "{e}");
    // A tag error on item 60 comes before the repeat at 90; one on 120 after it.
    let before = list(&|v| {
        v[90] = "p40".into();
        v[60] = "!force p60".into();
    });
    let e = err(&[&before]);
    assert!(e.contains("mapping value") && !e.contains("p40"), "{e}");
    let after = list(&|v| {
        v[90] = "p40".into();
        v[120] = "!force p120".into();
    });
    let e = err(&[&after]);
    assert!(e.contains("identity 'p40'"), "{e}");
    assert_eq!(ok(&[&list(&|_| {})]), ok(&[&list(&|_| {}), &list(&|_| {})]));
}

#[test]
fn tags_settle_conflicts() {
    assert_eq!(
        ok(&["hostname: !default web\n", "hostname: db\n"]),
        ok(&["hostname: db\n"])
    );
    assert_eq!(
        ok(&["hostname: !force web\n", "hostname: db\n"]),
        ok(&["hostname: web\n"])
    );
    assert_eq!(
        ok(&["hostname: !priority:5 web\n", "hostname: !priority:-1 db\n"]),
        ok(&["hostname: web\n"])
    );
    assert_eq!(
        ok(&["runcmd: [a, b]\n", "runcmd: !override [c]\n"]),
        ok(&["runcmd: [c]\n"])
    );
    assert_eq!(
        ok(&["runcmd: [a]\nhostname: x\n", "runcmd: !reset\n"]),
        ok(&["hostname: x\n"])
    );
    // Later fragments merge on top of an override.
    assert_eq!(
        ok(&["runcmd: [a]\n", "runcmd: !override [b]\n", "runcmd: [c]\n"]),
        ok(&["runcmd: [b, c]\n"])
    );
    // Inside items merged by identity too.
    assert_eq!(
        ok(&[
            "write_files: [{path: /a, content: !force x}]\n",
            "write_files: [{path: /a, content: y, owner: root}]\n"
        ]),
        ok(&["write_files: [{path: /a, content: x, owner: root}]\n"])
    );
    assert_eq!(
        ok(&[
            "users: [{name: bob, groups: [adm]}]\n",
            "users: [{name: bob, groups: !override [sudo]}]\n"
        ]),
        ok(&["users: [{name: bob, groups: [sudo]}]\n"])
    );
    assert!(err(&["hostname: !bogus x\n"]).contains("not a cloud-config merge tag"));
    assert!(err(&["runcmd: [!force a]\n"]).contains("belongs on a mapping value"));
    assert!(err(&["[a]\n"]).contains("is a mapping, not a list"));
}

#[test]
fn identity_table_is_in_the_readme() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for row in IDENTITY_TABLE {
        assert!(
            readme.contains(&format!("| `{}` | {} |", row.path, row.rule.describe())),
            "README lacks the identity-table row for {}",
            row.path
        );
    }
}

fn path(text: &str) -> Path {
    let mut p = Path::default();
    for part in text.split('.') {
        let (key, idx) = match part.strip_suffix("[]") {
            Some(k) => (k, true),
            None => (part, false),
        };
        p = push(p, PathSeg::Key(Node::str(key)));
        if idx {
            p = push(p, PathSeg::Index(0));
        }
    }
    p
}

fn push(p: Path, seg: PathSeg) -> Path {
    let mut segs = p.segments().to_vec();
    segs.push(seg);
    Path::from_segments(segs)
}

#[test]
fn rules_by_path() {
    assert_eq!(rule_for(&path("write_files")), ListRule::ByKey(&["path"]));
    assert_eq!(rule_for(&path("users[].groups")), ListRule::Union);
    assert_eq!(rule_for(&path("groups[].admins")), ListRule::Union);
    assert_eq!(rule_for(&path("disk_setup.sdb.layout")), ListRule::Atomic);
    assert_eq!(rule_for(&path("runcmd[]")), ListRule::Atomic);
    assert_eq!(rule_for(&path("whatever")), ListRule::Union);
}

/// The value with every combined list's items sorted: what the order of
/// fragments may change.
fn order_free(n: &Node, p: &Path) -> String {
    match n.value() {
        Value::Map(m) => {
            let mut parts: Vec<String> = m
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}={}",
                        json(k),
                        order_free(v, &push(p.clone(), PathSeg::Key(k.clone())))
                    )
                })
                .collect();
            parts.sort();
            format!("{{{}}}", parts.join(","))
        }
        Value::Seq(s) => {
            let mut parts: Vec<String> = s
                .iter()
                .map(|v| order_free(v, &push(p.clone(), PathSeg::Index(0))))
                .collect();
            if rule_for(p) != ListRule::Atomic {
                parts.sort();
            }
            format!("[{}]", parts.join(","))
        }
        _ => json(n),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("CLOUDFOLD_KEYED_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn fragment_order_changes_only_the_order_of_appended_items(seed in any::<u64>(), perm in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let frags = support::keyed_gen::fragment_set(&mut rng);
        let mut shuffled = frags.clone();
        let mut prng = Rng::new(perm);
        for i in (1..shuffled.len()).rev() {
            let j = prng.below(i + 1);
            shuffled.swap(i, j);
        }
        let a = merge(&frags);
        let b = merge(&shuffled);
        match (&a, &b) {
            (Ok(x), Ok(y)) => prop_assert_eq!(order_free(x, &Path::root()), order_free(y, &Path::root())),
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "{frags:?} vs {shuffled:?}: {:?} / {:?}", a.as_ref().map(json), b.as_ref().map(json)),
        }
    }
}

#[test]
fn long_lists_merge_in_linear_time() {
    let many = |from: usize| {
        let items: Vec<String> = (from..from + 20_000).map(|i| format!("p{i}")).collect();
        format!("packages: [{}]\n", items.join(", "))
    };
    let start = std::time::Instant::now();
    let merged = ok(&[&many(0), &many(10_000)]);
    assert!(merged.contains("p29999"));
    // Identities of two keys hash by both (not all alike, compared pairwise).
    let disks = |from: usize| {
        let items: Vec<String> = (from..from + 20_000)
            .map(|i| format!("{{device: /dev/d{i}, partition: {}}}", i % 7))
            .collect();
        format!("fs_setup: [{}]\n", items.join(", "))
    };
    let merged = ok(&[&disks(0), &disks(10_000)]);
    assert_eq!(
        merged.matches("/dev/d").count(),
        30_000,
        "{}",
        &merged[..200]
    );
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}
