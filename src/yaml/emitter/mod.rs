//! The emitter: a value tree back to YAML text, as PyYAML's `SafeDumper` writes it.
//!
//! Two passes: [`representer`] builds the representation graph (sorting
//! keys, sharing nodes for objects referenced more than once, numbering
//! anchors), then [`document_emitter`] writes it. Neither recurses.

mod document_emitter;
mod dump_error;
mod dump_options;
mod implicit_resolver;
mod output;
mod py_order;
mod repr_graph;
mod representer;
mod scalar_analysis;
mod scalar_writer;
mod text_unit;

pub use dump_error::DumpError;
pub use dump_options::DumpOptions;

use crate::yaml::value::Node;

/// Write `node` as one YAML document.
///
/// With [`DumpOptions::cloud_init`] the text is byte-identical to cloud-init's
/// `safeyaml.dumps(node)`; with [`DumpOptions::readable`] it is block YAML
/// that `yaml.safe_load` reads back to an equal value.
pub fn dump(node: &Node, opts: &DumpOptions) -> Result<String, DumpError> {
    let graph = representer::represent(node, opts)?;
    document_emitter::emit(&graph, opts)
}
