//! Loading test documents as the merge dialects see them: YAML with local tags kept, one source id each.

use cloudfold::source::SourceId;
use cloudfold::yaml::value::Node;
use cloudfold::yaml::{LoadOptions, TagMap, load_tagged};

/// Each document (source id = its index) loaded with its tags; empty documents are not allowed.
pub(crate) fn load_docs<S: AsRef<str>>(docs: &[S]) -> (Vec<Node>, Vec<TagMap>) {
    docs.iter()
        .enumerate()
        .map(|(i, d)| {
            let opts = LoadOptions {
                keep_local_tags: true,
                source: SourceId(u32::try_from(i).unwrap()),
                ..LoadOptions::default()
            };
            load_tagged(d.as_ref(), &opts).unwrap().unwrap()
        })
        .unzip()
}
