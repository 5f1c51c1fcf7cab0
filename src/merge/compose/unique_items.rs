//! `check_unique_items`: the merged model's appended-but-never-de-duplicated lists, which compose-go's schema then rejects when items repeat.
//!
//! compose-go validates the model after every merge against the Compose
//! schema. Most of that is out of scope here (`merge` merges; it does not
//! validate), but one failure comes from the merge rules themselves:
//! top-level volume, secret and config `labels` are appended without
//! de-duplication, so two files giving the same label make the merge fail
//! with "array items[i,j] must be unique".

use super::ComposeError;
use crate::yaml::value::{Node, py_eq};

/// The sections whose entries' `labels` lists are checked.
const SECTIONS: &[&str] = &["volumes", "secrets", "configs"];

/// Fail as compose-go's schema does when a labels list repeats an item.
pub fn check_unique_items(model: &Node, file: &str) -> Result<(), ComposeError> {
    let Some(top) = model.as_map() else {
        return Ok(());
    };
    for section in SECTIONS {
        let Some(entries) = top.get_str(section).and_then(Node::as_map) else {
            continue;
        };
        for (name, def) in entries.iter() {
            let Some(labels) = def
                .as_map()
                .and_then(|d| d.get_str("labels"))
                .and_then(Node::as_seq)
            else {
                continue;
            };
            let items = labels.items();
            for (j, b) in items.iter().enumerate() {
                if let Some(i) = items.iter().take(j).position(|a| py_eq(a, b)) {
                    return Err(ComposeError::Invalid {
                        message: format!(
                            "validating {file}: {section}.{}.labels array items[{i},{j}] must be unique",
                            super::compose_path::key_text(name)
                        ),
                        span: b.span(),
                    });
                }
            }
        }
    }
    Ok(())
}
