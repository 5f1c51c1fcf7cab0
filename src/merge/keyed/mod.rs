//! The keyed cloud-config dialect (placeholder).
