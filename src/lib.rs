//! cloudfold: fold cloud-init user-data offline, exactly as cloud-init does, and explain it.
//!
//! Stages (dependencies point one way): [`source`] ← [`mime`], [`source`] ← [`yaml`] ← …

#![forbid(unsafe_code)]

pub mod mime;
pub mod source;
pub mod userdata;
pub mod yaml;
