//! `Cli`: the clap definition of every subcommand and flag (also the source of the man page).

use super::exit::EXIT_CODES_HELP;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Fold cloud-init user-data offline, exactly as cloud-init does at boot, and explain it.
#[derive(Debug, Parser)]
#[command(name = "cloudfold", version, about, after_help = EXIT_CODES_HELP, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the merged cloud-config cloud-init will end up with.
    #[command(after_help = EXIT_CODES_HELP)]
    Render(RenderArgs),
    /// List the parts of a payload and what cloud-init will do with each.
    #[command(after_help = EXIT_CODES_HELP)]
    Parts(PartsArgs),
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff).
    #[command(hide = true)]
    Man,
}

/// Options shared by every command that reads a payload.
#[derive(Debug, Args)]
pub struct PayloadArgs {
    /// The user-data payload (a path; `-` or nothing reads stdin).
    pub input: Option<PathBuf>,
    /// Emulate this cloud-init release where releases differ.
    #[arg(long = "cloud-init", value_name = "RELEASE", default_value = "22.4", value_parser = ["22.4", "25.1"])]
    pub cloud_init: String,
    /// Keep only the parts for this launch index (cloud-init's launch-index filter).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub launch_index: Option<i64>,
    /// Read `#include` targets that are local paths (or file:// URLs) under DIR. URLs are never fetched.
    #[arg(long, value_name = "DIR")]
    pub include_dir: Option<PathBuf>,
    /// Largest payload accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 256 << 20)]
    pub max_input_size: u64,
    /// Largest size after gunzipping one layer, in bytes (cloud-init has no limit: gzip bombs stop here).
    #[arg(long, value_name = "BYTES", default_value_t = 256 << 20)]
    pub max_decompressed_size: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RenderFormat {
    /// Readable YAML, keys in merge order, starting with `#cloud-config`.
    Yaml,
    /// Exactly what cloud-init writes to cloud-config.txt (header comments included).
    CloudInit,
    /// Type-faithful JSON (see README: values JSON lacks become `$` markers).
    Json,
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub payload: PayloadArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RenderFormat::Yaml)]
    pub format: RenderFormat,
    /// Treat a part cloud-init would ignore or reject as an error (exit 3).
    #[arg(long)]
    pub strict: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PartsFormat {
    /// One line per part.
    Text,
    /// A JSON array.
    Json,
}

#[derive(Debug, Args)]
pub struct PartsArgs {
    #[command(flatten)]
    pub payload: PayloadArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = PartsFormat::Text)]
    pub format: PartsFormat,
    /// Write each part's payload (as cloud-init decodes it) into DIR, as NNN-FILENAME.
    #[arg(long, value_name = "DIR")]
    pub extract: Option<PathBuf>,
}
