//! cloud-init's user-data pipeline: part kinds, archives, includes, launch index, the cloud-config handler.

pub mod json_patch;
pub mod py_json;
