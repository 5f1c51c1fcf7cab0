//! `Exit`: the documented exit codes.

/// Exit codes (also listed in `--help` and the man page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 1 (`diff`): the payloads differ at boot (as `diff(1)` says its inputs differ).
    Differ,
    /// 0: done (warnings may have been printed).
    Ok,
    /// 1: cloud-init would abort user-data processing: no cloud-config at all.
    Aborted,
    /// 2: usage or I/O error.
    Usage,
    /// 3: with `--strict`: a part cloud-init would ignore or reject.
    Strict,
    /// 4: a cloudfold safety limit was exceeded (raise it with its flag).
    Limit,
    /// 5: `validate` found errors.
    Invalid,
    /// 70: an internal error (a bug in cloudfold; never expected).
    Internal,
}

impl Exit {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Aborted | Exit::Differ => 1,
            Exit::Usage => 2,
            Exit::Strict => 3,
            Exit::Limit => 4,
            Exit::Invalid => 5,
            Exit::Internal => 70,
        }
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(e: Exit) -> Self {
        std::process::ExitCode::from(e.code())
    }
}

/// The exit-code table for `--help`.
pub(super) const EXIT_CODES_HELP: &str = "\
Exit codes:
  0  done (warnings may have been printed)
  1  cloud-init would abort user-data processing (nothing merged, no cloud-config)
  2  usage or I/O error; render --select: the merged config has no such path
  3  --strict: a part cloud-init would ignore or reject
  4  a cloudfold safety limit was exceeded (raise it with its flag)
 70  internal error (a bug in cloudfold: please report it)";

/// The exit-code table for `build --help`.
pub(super) const BUILD_EXIT_CODES_HELP: &str = "\
Exit codes:
  0  built (the size is reported on stderr)
  2  usage or I/O error, or a refusal (unknown type, bad merge type, boundary collision,
     overwriting an input): nothing is written
 70  internal error (a bug in cloudfold: please report it)";

/// The exit-code table for `merge --help`.
pub(super) const MERGE_EXIT_CODES_HELP: &str = "\
Exit codes:
  0  merged (warnings may have been printed)
  1  the dialect refuses the merge (a conflict or an invalid value; see the diagnostics)
  2  usage or I/O error, or an input that is not YAML
 70  internal error (a bug in cloudfold: please report it)";

/// The exit-code table for `validate --help`.
pub(super) const VALIDATE_EXIT_CODES_HELP: &str = "\
Exit codes:
  0  valid: no errors (warnings and notes may have been printed); with --strict, no warnings either
  1  cloud-init would abort all user-data processing (nothing merged, nothing run)
  2  usage or I/O error
  3  --strict: warnings but no errors
  4  a cloudfold safety limit was exceeded (raise it with its flag)
  5  errors: cloud-init would drop or ignore something, or the payload is over the size limit
 70  internal error (a bug in cloudfold: please report it)";

/// The exit-code table for `seed --help`.
pub(super) const SEED_EXIT_CODES_HELP: &str = "\
Exit codes:
  0  written (warnings may have been printed)
  2  usage or I/O error, or a refusal (a network-config or meta-data cloud-init cannot use,
     a part type build refuses, overwriting an input): nothing is written
  4  an input is over --max-input-size, or the user-data over a cloudfold safety limit
  5  the user-data has errors (as `cloudfold validate` reports them): nothing is written
     unless --force
 70  internal error (a bug in cloudfold: please report it)

Timestamps in images are SOURCE_DATE_EPOCH if set, else 1980-01-01T00:00:00Z: the same inputs
give the same bytes.";

/// The exit-code table for `diff --help` (those of `diff(1)`).
pub(super) const DIFF_EXIT_CODES_HELP: &str = "\
Exit codes (as diff(1)):
  0  no change at boot (the payloads may still differ in ways that do not matter: listed)
  1  the payloads differ at boot
  2  trouble: usage or I/O error, a payload cloud-init would abort on, a safety limit
 70  internal error (a bug in cloudfold: please report it)";

/// Why a command stopped: its message and the exit code it earns. A bare message is a usage or
/// I/O error (exit 2); a typed input error keeps its own code (over `--max-input-size`: exit 4).
#[derive(Debug)]
pub(super) struct Failure {
    pub(super) exit: Exit,
    pub(super) message: String,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure {
            exit: Exit::Usage,
            message,
        }
    }
}

impl From<super::input::InputError> for Failure {
    fn from(e: super::input::InputError) -> Self {
        Failure {
            exit: e.exit(),
            message: e.to_string(),
        }
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Failure::from(message.to_owned())
    }
}
