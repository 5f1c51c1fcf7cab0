//! cloud-init's user-data pipeline: part kinds, archives, includes, launch index, the cloud-config handler.

pub mod gzip;
pub mod include;
pub mod json_patch;
pub mod leaf;
pub mod part_type;
pub mod py_int;
pub mod py_json;
