//! `PortSpecError`: why compose-go refuses a short port spec.

/// Why [`super::parse_ports`] refuses a spec; the messages are compose-go's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PortSpecError {
    /// A `[` without its `]`.
    #[error("invalid IP address {0}")]
    UnclosedBracket(String),
    /// Not an IP address.
    #[error("invalid IP address: {0}")]
    BadIp(String),
    /// No container port.
    #[error("no port specified: {0}<empty>")]
    NoPort(String),
    /// Not a port or a range of ports.
    #[error("invalid port range: {0}")]
    BadRange(String),
    /// Host and container ranges of different lengths.
    #[error("invalid ranges specified for container and host Ports: {container} and {host}")]
    RangeMismatch {
        /// The container ports.
        container: String,
        /// The host ports.
        host: String,
    },
    /// Not `tcp`, `udp` or `sctp`.
    #[error("invalid proto: {0}")]
    BadProto(String),
}
