//! The `cloudfold` binary from outside: golden cases (trycmd over `fixtures/cli/*.toml`
//! and the README's examples), the man page, hostile inputs, `validate --schema`.

// Test code: a failed unwrap, panic or out-of-range index is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod annotations;
mod golden;
mod hostile;
mod pre_commit;
mod terraform;
mod tools;
mod validate_schema;
