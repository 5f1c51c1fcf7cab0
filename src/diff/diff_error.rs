//! `DiffError` and `Side`: why there is no difference to show, and which payload it was about.

use crate::userdata::RenderError;

/// One of the two payloads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The payload before the change.
    Old,
    /// The payload after it.
    New,
}

impl Side {
    /// `old` or `new`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Old => "old",
            Side::New => "new",
        }
    }
}

/// Why two payloads could not be compared.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum DiffError {
    /// A side does not fold (cloud-init would abort its user-data processing).
    #[error("{} payload: {error}", side.name())]
    Render {
        /// Which payload.
        side: Side,
        /// Why.
        error: RenderError,
    },
    /// The comparison visited more nodes than allowed (values shared by
    /// aliases count at every place they occur).
    #[error(
        "comparing the merged configs visits more than {limit} nodes (an alias bomb?); raise the limit with --max-alias-expansion"
    )]
    TooManyNodes {
        /// The limit ([`super::DiffOptions::max_nodes`]).
        limit: usize,
    },
    /// The layers do not fold under a side's payload (cloud-init would
    /// crash reading its configuration, or a limit).
    #[error("{} payload with the layers: {error}", side.name())]
    Layers {
        /// Which payload.
        side: Side,
        /// Why.
        error: crate::layers::LayersError,
    },
    /// No thread could be started to fold a payload.
    #[error("cannot start a thread to fold the old payload")]
    NoThread,
    /// A merged config is nested deeper than the comparison goes (or refers
    /// to itself through an alias).
    #[error(
        "a merged config is nested deeper than {limit} levels, or an alias refers to its own ancestor"
    )]
    TooDeep {
        /// The depth limit.
        limit: usize,
    },
}
