//! The loader's readers held equal, one text at a time: the fast loader and
//! the direct builder each either decline or build exactly what the node
//! graph (composer + constructor, the reference) builds — values, spans and
//! sharing — and `yaml::load` gives the graph's result, errors included; so
//! do the readers under `keep_local_tags` against `yaml::load_tagged`. The
//! readers and when each runs: `src/yaml/load.rs`.

use super::same_tree::same_tree;
use cloudfold::yaml::{
    LoadOptions, Node, TagMap, YamlError, load, load_direct, load_fast, load_tagged,
    load_tagged_via_graph, load_via_graph,
};

/// Which readers took a text (counted by the tests, which print them).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Taken {
    pub(crate) fast: bool,
    pub(crate) direct: bool,
}

/// The option sets every text is read under: a plain `yaml.safe_load`, and
/// the cloud-config handler's (its frames move the depth limit the direct
/// builder must stay clear of; 22.4's `!!python/unicode`).
pub(crate) fn option_sets() -> [LoadOptions; 2] {
    [
        LoadOptions::default(),
        LoadOptions {
            caller_frames: 13,
            python_unicode_tag: true,
            ..LoadOptions::default()
        },
    ]
}

/// Check every reader on `text` under `opts`: which fast readers took it, or
/// why they differ from the node graph.
pub(crate) fn readers_agree(text: &str, opts: &LoadOptions) -> Result<Taken, String> {
    let reference = load_via_graph(text, opts);
    same_result("yaml::load", &load(text, opts), &reference)?;
    let fast = load_fast(text, opts);
    let direct = load_direct(text, opts);
    let taken = Taken {
        fast: fast.is_some(),
        direct: direct.is_some(),
    };
    if let Some(built) = &fast {
        same_result("fast loader", &Ok(built.clone()), &reference)?;
    }
    if let Some(built) = &direct {
        same_result("direct builder", &Ok(built.clone()), &reference)?;
    }
    // Tagged loads (the merge dialects) take the same shortcuts: they decline
    // on any tag, so what they built above must also be what the node graph
    // builds under `keep_local_tags`, with no tags; and `load_tagged` must
    // give the graph's result, tags and errors included.
    let keep = LoadOptions {
        keep_local_tags: true,
        ..opts.clone()
    };
    let graph_tagged = load_tagged_via_graph(text, &keep);
    let tagged = load_tagged(text, &keep);
    let roots = |r: &Result<Option<(Node, TagMap)>, YamlError>| -> Loaded {
        match r {
            Ok(Some((root, _))) => Ok(Some(root.clone())),
            Ok(None) => Ok(None),
            Err(e) => Err(e.clone()),
        }
    };
    let tagged_root = roots(&graph_tagged);
    if reference.is_ok() {
        same_result("load_tagged (node graph)", &tagged_root, &reference)?;
    }
    same_result("load_tagged", &roots(&tagged), &tagged_root)?;
    let tag_list =
        |r: &Result<Option<(Node, TagMap)>, YamlError>| -> Vec<(String, Option<String>)> {
            let mut v: Vec<(String, Option<String>)> = match r {
                Ok(Some((_, tags))) => tags
                    .iter()
                    .map(|(_, t)| {
                        (
                            t.tag.to_string(),
                            t.scalar_text.as_deref().map(str::to_owned),
                        )
                    })
                    .collect(),
                _ => Vec::new(),
            };
            v.sort();
            v
        };
    if tag_list(&tagged) != tag_list(&graph_tagged) {
        return Err(format!(
            "load_tagged kept tags {:?}, the node graph {:?}",
            tag_list(&tagged),
            tag_list(&graph_tagged)
        ));
    }
    for (name, built) in [
        ("fast loader (local tags kept)", fast),
        ("direct builder (local tags kept)", direct),
    ] {
        let Some(built) = built else { continue };
        same_result(name, &Ok(built), &tagged_root)?;
        if let Ok(Some((_, tags))) = &graph_tagged
            && !tags.is_empty()
        {
            return Err(format!("{name} took a text with {} local tags", tags.len()));
        }
    }
    Ok(taken)
}

type Loaded = Result<Option<Node>, YamlError>;

/// `got` is `want`: the same tree node for node, or the same error.
fn same_result(reader: &str, got: &Loaded, want: &Loaded) -> Result<(), String> {
    match (got, want) {
        (Ok(Some(a)), Ok(Some(b))) => same_tree(a, b).map_err(|why| format!("{reader}: {why}")),
        (Ok(None), Ok(None)) => Ok(()),
        (Err(a), Err(b)) if a == b => Ok(()),
        _ => Err(format!("{reader}: {got:?} vs the node graph's {want:?}")),
    }
}

/// Texts checked under every option set, what the fast readers took, and
/// the disagreements (the first few kept).
pub(crate) struct ReadersTally {
    label: &'static str,
    pub(crate) texts: usize,
    /// Reads (text × option set) the fast loader took.
    pub(crate) fast: usize,
    /// Reads the direct builder took.
    pub(crate) direct: usize,
    reads: usize,
    failures: Vec<String>,
    failed: usize,
}

impl ReadersTally {
    pub(crate) fn new(label: &'static str) -> Self {
        ReadersTally {
            label,
            texts: 0,
            fast: 0,
            direct: 0,
            reads: 0,
            failures: Vec::new(),
            failed: 0,
        }
    }

    /// Check `text` under every option set.
    pub(crate) fn check(&mut self, text: &str) {
        self.texts += 1;
        for opts in option_sets() {
            self.reads += 1;
            match readers_agree(text, &opts) {
                Ok(t) => {
                    self.fast += usize::from(t.fast);
                    self.direct += usize::from(t.direct);
                }
                Err(why) => {
                    self.failed += 1;
                    if self.failures.len() < 10 {
                        let short: String = text.chars().take(300).collect();
                        self.failures.push(format!("{short:?}: {why}"));
                    }
                }
            }
        }
    }

    /// Print the counts.
    pub(crate) fn report(&self) {
        eprintln!(
            "yaml readers, {}: {} texts, {} reads ({} option sets): fast loader took {}, \
             direct builder {}; {} disagreements",
            self.label,
            self.texts,
            self.reads,
            option_sets().len(),
            self.fast,
            self.direct,
            self.failed
        );
    }

    /// Fail listing the disagreements.
    pub(crate) fn assert_agree(&self) {
        assert!(
            self.failed == 0,
            "{}: {} reads disagree with the node graph:\n{}",
            self.label,
            self.failed,
            self.failures.join("\n")
        );
    }
}
