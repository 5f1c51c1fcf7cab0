//! `EncodingKind`: payloads or parts encoded twice, or encoded without saying so.

use crate::diagnostic::{DiagnosticKind, Severity};
use std::fmt;

/// An encoding problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodingKind {
    /// `encoding-base64-payload` (warning): the whole payload is base64 text.
    /// cloud-init's user-data code never decodes base64 (some datasources do, before
    /// it); a cloud API that takes base64 encodes it itself, so an encoded file is
    /// encoded twice. Input: `I2Nsb3VkLWNvbmZpZwphOiAxCg==`.
    Base64Payload {
        /// What the decoded text is.
        decoded: &'static str,
    },
    /// `encoding-double-base64` (error): base64 of base64
    /// (`STJOc2IzVmtMV052Ym1acFp3cGhPaUF4Q2c9PQ==`).
    DoubleBase64,
    /// `encoding-double-gzip` (error): the payload is gzip inside gzip; cloud-init
    /// decompresses one layer, so it sees binary data and ignores it (`gzip -c | gzip -c`).
    DoubleGzip,
    /// `encoding-undeclared-base64` (error): a text part holding base64 without
    /// `Content-Transfer-Encoding: base64`, so cloud-init reads the base64 text itself
    /// (a MIME part `Content-Type: text/cloud-config` with body `I2Nsb3VkLWNvbmZpZwo=`).
    UndeclaredBase64 {
        /// Part number.
        part: usize,
        /// What the decoded text is.
        decoded: &'static str,
    },
}

impl fmt::Display for EncodingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodingKind::Base64Payload { decoded } => write!(
                f,
                "the payload is base64-encoded {decoded}: cloud-init does not decode base64 user-data"
            ),
            EncodingKind::DoubleBase64 => {
                f.write_str("the payload is base64-encoded twice")
            }
            EncodingKind::DoubleGzip => f.write_str(
                "the payload is gzip inside gzip: cloud-init decompresses one layer and then sees binary data",
            ),
            EncodingKind::UndeclaredBase64 { part, decoded } => write!(
                f,
                "part {part} is base64-encoded {decoded} without `Content-Transfer-Encoding: base64`: cloud-init reads the base64 text as it is"
            ),
        }
    }
}

impl DiagnosticKind for EncodingKind {
    fn code(&self) -> &'static str {
        match self {
            EncodingKind::Base64Payload { .. } => "encoding-base64-payload",
            EncodingKind::DoubleBase64 => "encoding-double-base64",
            EncodingKind::DoubleGzip => "encoding-double-gzip",
            EncodingKind::UndeclaredBase64 { .. } => "encoding-undeclared-base64",
        }
    }

    fn severity(&self) -> Severity {
        match self {
            EncodingKind::Base64Payload { .. } => Severity::Warning,
            _ => Severity::Error,
        }
    }

    fn help(&self) -> Option<String> {
        Some(
            match self {
                EncodingKind::Base64Payload { .. } => {
                    "pass the decoded payload; let the cloud's API or tool do the base64 encoding"
                }
                EncodingKind::DoubleBase64 => "decode it (at least) once",
                EncodingKind::DoubleGzip => "compress once",
                EncodingKind::UndeclaredBase64 { .. } => {
                    "add `Content-Transfer-Encoding: base64` to the part's headers, or decode the body"
                }
            }
            .to_owned(),
        )
    }
}
