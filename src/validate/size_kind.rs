//! `SizeKind`: the payload against a cloud's user-data size limit.

use super::Platform;
use crate::diagnostic::{DiagnosticKind, Severity};
use std::fmt;

/// The payload's size against a limit (`--platform` or `--max-size`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeKind {
    /// `size-over-limit` (error): the payload, measured as the platform measures it,
    /// is over the limit; the launch fails (`--platform ec2` with 20,000 bytes).
    OverLimit {
        /// The platform (`None`: `--max-size`).
        platform: Option<Platform>,
        /// Measured size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// `size-near-limit` (warning): over 90 % of the limit.
    NearLimit {
        /// The platform (`None`: `--max-size`).
        platform: Option<Platform>,
        /// Measured size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// `size-budget` (note): the sizes, when within the limit.
    Budget {
        /// The platform (`None`: `--max-size`).
        platform: Option<Platform>,
        /// Measured size.
        size: u64,
        /// The limit.
        limit: u64,
    },
}

fn who(p: &Option<Platform>) -> String {
    match p {
        Some(p) => format!("the {} limit", p.name()),
        None => "--max-size".to_owned(),
    }
}

fn what(p: &Option<Platform>) -> &'static str {
    p.map_or("raw", |p| p.measure().as_str())
}

impl fmt::Display for SizeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizeKind::OverLimit {
                platform,
                size,
                limit,
            } => write!(
                f,
                "the payload is {size} bytes ({}), over {} of {limit} bytes",
                what(platform),
                who(platform)
            ),
            SizeKind::NearLimit {
                platform,
                size,
                limit,
            }
            | SizeKind::Budget {
                platform,
                size,
                limit,
            } => write!(
                f,
                "the payload is {size} bytes ({}), {}% of {} of {limit} bytes",
                what(platform),
                size * 100 / (*limit).max(1),
                who(platform)
            ),
        }
    }
}

impl DiagnosticKind for SizeKind {
    fn code(&self) -> &'static str {
        match self {
            SizeKind::OverLimit { .. } => "size-over-limit",
            SizeKind::NearLimit { .. } => "size-near-limit",
            SizeKind::Budget { .. } => "size-budget",
        }
    }

    fn severity(&self) -> Severity {
        match self {
            SizeKind::OverLimit { .. } => Severity::Error,
            SizeKind::NearLimit { .. } => Severity::Warning,
            SizeKind::Budget { .. } => Severity::Note,
        }
    }
}
