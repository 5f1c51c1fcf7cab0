//! `Cli`: the clap definition of every subcommand and flag (also the source of the man page).

use super::exit::{
    BUILD_EXIT_CODES_HELP, DIFF_EXIT_CODES_HELP, EXIT_CODES_HELP, MERGE_EXIT_CODES_HELP,
    SEED_EXIT_CODES_HELP, VALIDATE_EXIT_CODES_HELP,
};
use clap::{Args, Parser, Subcommand, ValueEnum};
use cloudfold::diff::DEFAULT_MAX_ALIGN_WORK;
use cloudfold::userdata::{
    DEFAULT_MAX_ALIAS_EXPANSION, DEFAULT_MAX_DECOMPRESSED_SIZE, DEFAULT_MAX_INPUT_SIZE,
    DEFAULT_MAX_SCALAR_SIZE, Limits,
};
use std::path::PathBuf;

/// `plan --help`'s closing text: what is checked against cloud-init, what is not, exit codes.
pub(super) const PLAN_HELP: &str = "\
Without --image or --etc-cloud, the image is debian-13 (debian-12 with --cloud-init 22.4).
The instance id is --instance-id, else the --instance-data's v1.instance_id.

Checked against the real cloud-init (scripts/plan_oracle.py runs its consume_data and module
runner, twice for --boot next): the ordered list of (stage, module, frequency, runs, reason),
boothooks, bootcmd's and runcmd's shell text, run-parts order and script texts, write_files'
writes, users_groups' users and groups; layers from --image/--etc-cloud, user-data,
--vendor-data(2) and --instance-data.
Limits: the packages and power_state lines say what those modules are asked to do (not
checked against cloud-init); other modules are listed with whether they run, not what they
do; part-handlers are not run (assumed to take no later part); --datasource-config,
--run-cloud-cfg, --kernel-cmdline and --cloud-cfg-env change the config as in `render`, but
plans made with them are not in the differential; no datasource-specific steps (network
config, SSH keys from metadata) are shown.

Exit codes:
  0  planned
  1  cloud-init could not read its configuration (nothing runs)
  2  usage or I/O error; --select names no module listed in this boot
  4  a cloudfold safety limit was exceeded (raise it with its flag)
 70  internal error (a bug in cloudfold: please report it)";

/// `cloudfold plan`.
#[derive(Debug, Args)]
pub(super) struct PlanArgs {
    #[command(flatten)]
    pub payload: PayloadArgs,
    #[command(flatten)]
    pub layers: LayerArgs,
    /// The first boot of a new instance, or a later boot of the same instance (the first
    /// boot's semaphores and scripts are there).
    #[arg(long, value_enum, default_value_t = BootArg::First)]
    pub boot: BootArg,
    /// The instance id in paths under /var/lib/cloud/instances/.
    #[arg(long, value_name = "ID")]
    pub instance_id: Option<String>,
    /// Only this module (as listed, `runcmd`, or its cc_ name), or the modules a config key
    /// activates (`packages`, `write_files`), with their actions. Naming none listed in this
    /// boot is an error (exit 2).
    #[arg(long, value_name = "MODULE")]
    pub select: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = PlanFormat::Text)]
    pub format: PlanFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum BootArg {
    /// The first boot of a new instance.
    First,
    /// A later boot of the same instance.
    Next,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum PlanFormat {
    /// The timeline, stage by stage.
    Text,
    /// One JSON document (see README: "plan --format json").
    Json,
}

/// `--version`: ours, and the cloud-init releases whose behaviour `--cloud-init` selects
/// (a CLI test holds this list equal to `Release::ALL`).
pub(super) const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (emulates cloud-init 22.4.2 and 25.1.4)"
);

/// Fold cloud-init user-data offline, exactly as cloud-init does at boot, and explain it.
#[derive(Debug, Parser)]
#[command(name = "cloudfold", version = VERSION, about, after_help = EXIT_CODES_HELP, max_term_width = 100)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(super) enum Command {
    /// Print the merged cloud-config cloud-init will end up with.
    #[command(after_help = EXIT_CODES_HELP)]
    Render(RenderArgs),
    /// Show where every key and list item of the merged cloud-config came from, and what each part did.
    #[command(after_help = EXIT_CODES_HELP)]
    Explain(ExplainArgs),
    /// List the parts of a payload and what cloud-init will do with each.
    #[command(after_help = EXIT_CODES_HELP)]
    Parts(PartsArgs),
    /// Report every problem cloud-init would have with a payload, each at its part and line.
    #[command(after_help = VALIDATE_EXIT_CODES_HELP)]
    Validate(ValidateArgs),
    /// Assemble a multipart payload cloud-init reads exactly as intended.
    #[command(after_help = BUILD_EXIT_CODES_HELP)]
    Build(BuildArgs),
    /// Make a NoCloud seed (ISO, FAT image or directory) from a payload, checked first, for a local VM.
    #[command(after_help = SEED_EXIT_CODES_HELP)]
    Seed(SeedArgs),
    /// Merge YAML/JSON documents with Hiera, Compose, Nickel or keyed cloud-config rules.
    #[command(after_help = MERGE_EXIT_CODES_HELP)]
    Merge(MergeArgs),
    /// Render one `## template: jinja` file with instance data, as `cloud-init devel render` does.
    #[command(after_help = TEMPLATE_EXIT_CODES_HELP)]
    Template(TemplateArgs),
    /// Print instance-data values, keys or a rendered jinja format, as `cloud-init query` does.
    #[command(after_help = TEMPLATE_EXIT_CODES_HELP)]
    Query(QueryArgs),
    /// Show what changing one payload into another does at boot: the merged configs compared
    /// by logical path, each value with the part and line it came from, and the part-level
    /// changes that caused it.
    #[command(after_help = DIFF_EXIT_CODES_HELP)]
    Diff(DiffArgs),
    /// Show what cloud-init does at boot: stage by stage, the parts consume_data hands to their
    /// handlers, each module of the effective lists with its frequency and whether it runs (and
    /// why not), and what the command- and file-acting modules do.
    #[command(after_help = PLAN_HELP)]
    Plan(PlanArgs),
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff).
    #[command(hide = true)]
    Man,
}

/// The exit codes of `template` and `query` (cloud-init's own).
pub(super) const TEMPLATE_EXIT_CODES_HELP: &str = "\
Exit codes (as cloud-init's):
  0  rendered / printed
  1  not rendered: missing or unloadable file, not a jinja template, template error, empty render
  2  usage error
  4  a cloudfold template limit was exceeded (raise it with its flag)";

/// `cloudfold template`.
#[derive(Debug, Args)]
pub(super) struct TemplateArgs {
    /// The template file (its first line `## template: jinja`).
    pub user_data: PathBuf,
    /// The instance data (JSON, as /run/cloud-init/instance-data-sensitive.json).
    #[arg(long, short = 'i', value_name = "FILE")]
    pub instance_data: PathBuf,
    /// Emulate this cloud-init release (its Jinja2: 22.4 → 3.1.2, 25.1 → 3.1.6).
    #[arg(long = "cloud-init", value_name = "RELEASE", default_value = "25.1", value_parser = ["22.4", "25.1"])]
    pub cloud_init: String,
    /// Most steps (MiniJinja fuel) the render may take.
    #[arg(long, value_name = "N", default_value_t = cloudfold::jinja::JinjaLimits::default().max_steps)]
    pub max_template_steps: u64,
    /// Deepest nesting (macro calls, expressions) in the render.
    #[arg(long, value_name = "N", default_value_t = cloudfold::jinja::JinjaLimits::default().max_depth)]
    pub max_template_depth: usize,
    /// Most bytes the render may produce.
    #[arg(long, value_name = "BYTES", default_value_t = cloudfold::jinja::JinjaLimits::default().max_output)]
    pub max_template_output: usize,
}

/// `cloudfold query`.
#[derive(Debug, Args)]
pub(super) struct QueryArgs {
    /// A dotted variable path (`v1.region`, `ds.meta_data.instance_id`; aliases accepted).
    pub varname: Option<String>,
    /// The instance data (JSON, as /run/cloud-init/instance-data-sensitive.json).
    #[arg(long, short = 'i', value_name = "FILE")]
    pub instance_data: PathBuf,
    /// The user-data file whose text becomes the `userdata` key (default: none, as on a
    /// machine without /var/lib/cloud/instance/user-data.txt).
    #[arg(long, short = 'u', value_name = "FILE")]
    pub user_data: Option<PathBuf>,
    /// The vendor-data file whose text becomes the `vendordata` key.
    #[arg(long, short = 'd', value_name = "FILE")]
    pub vendor_data: Option<PathBuf>,
    /// Print every variable (JSON).
    #[arg(long = "all", short = 'a')]
    pub dump_all: bool,
    /// Print the sorted keys (of VARNAME, or of the top level).
    #[arg(long, short = 'l')]
    pub list_keys: bool,
    /// Render this jinja text with the instance data (`{{ v1.region }}`).
    #[arg(long, short = 'f', value_name = "TEMPLATE")]
    pub format: Option<String>,
    /// Emulate this cloud-init release (its Jinja2: 22.4 → 3.1.2, 25.1 → 3.1.6).
    #[arg(long = "cloud-init", value_name = "RELEASE", default_value = "25.1", value_parser = ["22.4", "25.1"])]
    pub cloud_init: String,
}

/// Options shared by every command that reads a payload.
#[derive(Debug, Args)]
pub(super) struct PayloadArgs {
    /// The user-data payload (a path; `-` or nothing reads stdin). A NoCloud seed — an ISO 9660
    /// or FAT image, or a directory — is read for its `user-data`.
    pub input: Option<PathBuf>,
    #[command(flatten)]
    pub fold: FoldArgs,
}

/// How a payload is folded (`diff` applies them to both of its payloads).
#[derive(Debug, Args)]
pub(super) struct FoldArgs {
    /// Emulate this cloud-init release where releases differ [default: 25.1; with --image
    /// debian-12, 22.4].
    #[arg(long = "cloud-init", value_name = "RELEASE", value_parser = ["22.4", "25.1"])]
    pub cloud_init: Option<String>,
    /// Keep only the parts for this launch index (cloud-init's launch-index filter).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub launch_index: Option<i64>,
    /// Read `#include` targets that are local paths (or file:// URLs) under DIR. URLs are never fetched.
    #[arg(long, value_name = "DIR")]
    pub include_dir: Option<PathBuf>,
    /// Largest payload accepted, in bytes (also each `#include`d document).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_INPUT_SIZE)]
    pub max_input_size: u64,
    /// Most bytes gunzipping may produce, in total over every gzip layer (cloud-init has no
    /// limit: gzip bombs stop here).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_DECOMPRESSED_SIZE)]
    pub max_decompressed_size: u64,
    /// Most parts a payload may have after flattening multiparts.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_parts)]
    pub max_parts: usize,
    /// Deepest `#include` nesting (cloud-init follows include loops forever).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_include_depth)]
    pub max_include_depth: usize,
    /// Longest YAML scalar in a cloud-config or archive part, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_SCALAR_SIZE)]
    pub max_scalar_size: usize,
    /// Most nodes a walk of the merged config may visit, counting every alias each time it is
    /// reached (JSON output; an alias bomb stops here).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_ALIAS_EXPANSION)]
    pub max_alias_expansion: usize,
    /// Render `## template: jinja` parts with this instance data (JSON, as cloud-init writes
    /// /run/cloud-init/instance-data-sensitive.json; `sudo cloud-init query --all` prints it).
    /// Without it, cloud-init's behaviour when the file is absent: jinja parts are dropped.
    #[arg(long, value_name = "FILE")]
    pub instance_data: Option<PathBuf>,
    /// Most steps (MiniJinja fuel) one template render may take.
    #[arg(long, value_name = "N", default_value_t = cloudfold::jinja::JinjaLimits::default().max_steps)]
    pub max_template_steps: u64,
    /// Deepest nesting (macro calls, expressions) in one template render.
    #[arg(long, value_name = "N", default_value_t = cloudfold::jinja::JinjaLimits::default().max_depth)]
    pub max_template_depth: usize,
    /// Most bytes one template render may produce.
    #[arg(long, value_name = "BYTES", default_value_t = cloudfold::jinja::JinjaLimits::default().max_output)]
    pub max_template_output: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum RenderFormat {
    /// Readable YAML, keys in merge order, starting with `#cloud-config`.
    Yaml,
    /// Exactly what cloud-init writes to cloud-config.txt (header comments included).
    CloudInit,
    /// Type-faithful JSON (see README: values JSON lacks become `$` markers).
    Json,
    /// With layers: cloud-init 25.1's /run/cloud-init/combined-cloud-config.json, byte for byte.
    CombinedJson,
}

/// The layers cloud-init merges under user-data. With any of them, `render` prints the
/// config the modules see, `explain` names the layer and file:line:col of every value, and
/// `validate` checks every layer. Without user-data (no INPUT), only the layers are folded.
#[derive(Debug, Args, Default, Clone)]
pub(super) struct LayerArgs {
    /// A directory standing for /etc/cloud (cloud.cfg, cloud.cfg.d/*.cfg, `conf_d:` inside it);
    /// `## template: jinja` files are rendered with --instance-data. With --image, its files
    /// are added to (or replace) the image's.
    #[arg(long, value_name = "DIR")]
    pub etc_cloud: Option<PathBuf>,
    /// A built-in image's /etc/cloud: debian-12 (cloud-init 22.4), debian-13 (25.1), ubuntu
    /// (upstream cloud.cfg.tmpl rendered for ubuntu at the release).
    #[arg(long, value_name = "PROFILE", value_parser = ["debian-12", "debian-13", "ubuntu"])]
    pub image: Option<String>,
    /// The vendor-data payload (processed like user-data; vendor_data.enabled decides).
    #[arg(long, value_name = "FILE")]
    pub vendor_data: Option<PathBuf>,
    /// The vendor-data2 payload.
    #[arg(long, value_name = "FILE")]
    pub vendor_data2: Option<PathBuf>,
    /// The datasource's config object (YAML mapping), e.g. Azure's from ovf-env.xml.
    #[arg(long, value_name = "FILE")]
    pub datasource_config: Option<PathBuf>,
    /// /run/cloud-init/cloud.cfg (ds-identify writes datasource_list there).
    #[arg(long, value_name = "FILE")]
    pub run_cloud_cfg: Option<PathBuf>,
    /// The kernel command line (`cc: ... end_cc` spans are config).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub kernel_cmdline: Option<String>,
    /// The file $CLOUD_CFG names (above everything else).
    #[arg(long, value_name = "FILE")]
    pub cloud_cfg_env: Option<PathBuf>,
}

impl LayerArgs {
    /// Whether any layer is given.
    pub(super) fn any(&self) -> bool {
        self.etc_cloud.is_some()
            || self.image.is_some()
            || self.vendor_data.is_some()
            || self.vendor_data2.is_some()
            || self.datasource_config.is_some()
            || self.run_cloud_cfg.is_some()
            || self.kernel_cmdline.is_some()
            || self.cloud_cfg_env.is_some()
    }
}

#[derive(Debug, Args)]
pub(super) struct RenderArgs {
    #[command(flatten)]
    pub payload: PayloadArgs,
    #[command(flatten)]
    pub layers: LayerArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RenderFormat::Yaml)]
    pub format: RenderFormat,
    /// Treat a part cloud-init would ignore or reject as an error (exit 3).
    #[arg(long)]
    pub strict: bool,
    /// Explain the result instead (`cloudfold explain`): text for --format yaml, or json.
    #[arg(long)]
    pub explain: bool,
    /// Print only the value at this logical path of the merged config (`$.runcmd`,
    /// `$.write_files[0].path`, `runcmd`, `$['odd key']`), in --format yaml, json or
    /// cloud-init. A path the config does not have is an error (exit 2) naming the deepest
    /// part of it that exists; a value that is null prints as null.
    #[arg(long, value_name = "PATH", conflicts_with = "explain")]
    pub select: Option<String>,
    /// With --explain: most nodes walked when explaining (values shared by aliases count at every place).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 200_000,
        requires = "explain"
    )]
    pub max_nodes: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum ExplainFormat {
    /// The merged config with a `# part N (FILE):LINE:COL decision` comment per key and item,
    /// then each part's changes.
    Text,
    /// One JSON document (see README: "explain --format json").
    Json,
}

#[derive(Debug, Args)]
pub(super) struct ExplainArgs {
    #[command(flatten)]
    pub payload: PayloadArgs,
    #[command(flatten)]
    pub layers: LayerArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
    pub format: ExplainFormat,
    /// Most nodes walked when explaining (values shared by aliases count at every place).
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    pub max_nodes: usize,
    /// Treat a part cloud-init would ignore or reject as an error (exit 3).
    #[arg(long)]
    pub strict: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum PartsFormat {
    /// One line per part.
    Text,
    /// A JSON array.
    Json,
}

#[derive(Debug, Args)]
pub(super) struct PartsArgs {
    #[command(flatten)]
    pub payload: PayloadArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = PartsFormat::Text)]
    pub format: PartsFormat,
    /// Write each part's payload (as cloud-init decodes it) into DIR, as NNN-FILENAME.
    #[arg(long, value_name = "DIR")]
    pub extract: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum BuildStyle {
    /// `cloud-init devel make-mime`: LF, base64 parts with charset utf-8, `Merge-Type`.
    CloudInit,
    /// Terraform's `cloudinit_config`: `MIMEBOUNDARY`, CRLF, 7bit parts, `X-Merge-Type`
    /// (non-ASCII parts base64, unlike the provider).
    Terraform,
}

/// How `build` (and `seed`, when it assembles the user-data) lays out the payload.
#[derive(Debug, Args)]
pub(super) struct BuildLayout {
    /// Byte layout to produce.
    #[arg(long, value_enum, default_value_t = BuildStyle::CloudInit)]
    pub style: BuildStyle,
    /// Merge type for every cloud-config part without its own: a spec such as `dict(replace)+list(append)`
    /// or a preset: append = list(append)+dict(no_replace,recurse_list)+str(); prepend =
    /// list(prepend)+dict(no_replace,recurse_list)+str(); replace = list()+dict(replace,recurse_list)+str();
    /// default = list()+dict()+str(). Unknown mergers or options are refused.
    #[arg(long, value_name = "SPEC|PRESET")]
    pub merge_type: Option<String>,
    /// MIME boundary (refused if it occurs in any part). Default: cloud-init style
    /// `===============<digits>==` derived from the content; Terraform style `MIMEBOUNDARY`
    /// (another one if that collides).
    #[arg(long, value_name = "B")]
    pub boundary: Option<String>,
    /// gzip the payload (then base64 it, unless --no-base64: Terraform's rule).
    #[arg(long)]
    pub gzip: bool,
    /// base64 the payload (cloud-init decodes base64 only on some datasources).
    #[arg(long, conflicts_with = "no_base64")]
    pub base64: bool,
    /// With --gzip: write raw gzip bytes.
    #[arg(long)]
    pub no_base64: bool,
}

impl BuildLayout {
    /// True when no layout option was given (the defaults).
    pub(super) fn is_default(&self) -> bool {
        self.style == BuildStyle::CloudInit
            && self.merge_type.is_none()
            && self.boundary.is_none()
            && !self.gzip
            && !self.base64
            && !self.no_base64
    }
}

#[derive(Debug, Args)]
pub(super) struct BuildArgs {
    /// Parts, in order: PATH or PATH:TYPE. TYPE is a short name (cloud-config, x-shellscript,
    /// cloud-boothook, jinja2, part-handler, cloud-config-archive, cloud-config-jsonp,
    /// x-include-url, ...) or a media type; without it the type is detected from the first line
    /// with cloud-init's rules. The filename is the base name.
    #[arg(value_name = "PATH[:TYPE]")]
    pub parts: Vec<String>,
    /// A YAML manifest listing parts (`parts:` entries with `path` or `content`, `type`,
    /// `filename`, `merge_type`, `headers`) and an optional top-level `merge_type`; its parts come
    /// before those on the command line.
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
    #[command(flatten)]
    pub layout: BuildLayout,
    /// Accept unknown or undetectable types, and declared types cloud-init would re-detect.
    #[arg(long)]
    pub force: bool,
    /// Write to OUT (atomically, mode 0600; never one of the inputs) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Speak Terraform's `external` data source protocol: read a JSON object of strings on stdin
    /// (`manifest`: the manifest's YAML/JSON text; `base_dir`, `style`, `merge_type`, `boundary`,
    /// `gzip`, `base64`, `force`, `strict`, `cloud_init`, `platform`), print one of strings
    /// (`rendered`: gzip+base64 by default, `size`, ...); invalid user-data fails with
    /// cloud-init's reason on stderr. See README, "Terraform".
    #[arg(long, conflicts_with_all = [
        "parts", "manifest", "style", "merge_type", "boundary", "gzip", "base64", "no_base64",
        "force", "output",
    ])]
    pub terraform_external: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Dialect {
    /// Hiera 5 lookup merge behaviours, as `puppet lookup` applies them to each top-level key.
    Hiera,
    /// Docker Compose multi-file merge rules (compose-go), incl. `!reset` and `!override`.
    Compose,
    /// Nickel's symmetric `&` merge with `!default`, `!priority:N`, `!force` priorities.
    Nickel,
    /// Keyed cloud-config fragments: lists of objects merged by identity key, conflicts are errors.
    CloudConfig,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum HieraStrategyArg {
    /// The highest-priority value.
    First,
    /// Flattened, de-duplicated arrays.
    Unique,
    /// Top-level hash keys merged.
    Hash,
    /// Recursive merge.
    Deep,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum MergeFormat {
    /// Readable YAML.
    Yaml,
    /// Type-faithful JSON (see README: values JSON lacks become `$` markers).
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum MessageFormat {
    /// rustc-style diagnostics with source snippets.
    Human,
    /// One JSON array of diagnostics.
    Json,
}

#[derive(Debug, Args)]
pub(super) struct MergeArgs {
    /// The files, lowest priority first (later files win, in every dialect).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Whose merge rules to apply.
    #[arg(long, value_enum)]
    pub dialect: Dialect,
    /// Output format of the merged document.
    #[arg(long, value_enum, default_value_t = MergeFormat::Yaml)]
    pub format: MergeFormat,
    /// Format of the diagnostics on stderr.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
    /// Annotate every merged value with the file and line it came from.
    #[arg(long)]
    pub explain: bool,
    /// hiera: the merge behaviour for every key (overrides `lookup_options`, like `puppet lookup --merge`).
    #[arg(long, value_enum, value_name = "STRATEGY")]
    pub strategy: Option<HieraStrategyArg>,
    /// hiera (deep): array elements and values starting with P knock out lower-priority ones
    /// (P is a regexp, as in puppet; `--knockout-prefix --` works, alias `--knock-out-prefix`).
    #[arg(
        long,
        value_name = "P",
        allow_hyphen_values = true,
        alias = "knock-out-prefix"
    )]
    pub knockout_prefix: Option<String>,
    /// hiera (deep): sort merged arrays.
    #[arg(long)]
    pub sort_merged_arrays: bool,
    /// hiera (deep): merge arrays of hashes element by element.
    #[arg(long)]
    pub merge_hash_arrays: bool,
    /// Largest input file accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 256 << 20)]
    pub max_input_size: u64,
    /// Most values `--explain` lists (shared aliases can expand a small document enormously).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_explain_values: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum ValidateFormat {
    /// rustc-style diagnostics with source snippets, then a summary line.
    Human,
    /// One JSON document: summary, parts, diagnostics (see README, "validate").
    Json,
    /// GitHub Actions annotations: one `::error`/`::warning`/`::notice` workflow command per
    /// diagnostic, at the payload file's own line.
    Github,
    /// SARIF 2.1.0 (GitHub code scanning and other SARIF viewers).
    Sarif,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Platform {
    /// AWS EC2: 16,384 bytes raw.
    Ec2,
    /// Azure custom data: 65,535 bytes raw.
    Azure,
    /// OpenStack Nova: 65,535 bytes of base64.
    Openstack,
    /// Google Compute Engine: 262,144 bytes (256 KB metadata value).
    Gce,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum ColorChoice {
    /// Never color.
    Never,
    /// Always color.
    Always,
}

#[derive(Debug, Args)]
pub(super) struct ValidateArgs {
    #[command(flatten)]
    pub payload: PayloadArgs,
    #[command(flatten)]
    pub layers: LayerArgs,
    /// More payloads to check, each on its own (the exit code is the worst one's).
    #[arg(value_name = "MORE")]
    pub more_inputs: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ValidateFormat::Human)]
    pub format: ValidateFormat,
    /// Treat warnings as errors (exit 3 when there are warnings but no errors), and parts
    /// another agent reads (EKS nodeadm's application/node.eks.aws) as cloud-init sees
    /// them: part-unknown-type errors, not part-other-agent notes.
    #[arg(long)]
    pub strict: bool,
    /// Check the size against this cloud's documented user-data limit.
    #[arg(long, value_enum, conflicts_with = "max_size")]
    pub platform: Option<Platform>,
    /// Check the size against this many raw bytes.
    #[arg(long, value_name = "BYTES")]
    pub max_size: Option<u64>,
    /// Color the human output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Never)]
    pub color: ColorChoice,
    /// Check the merged config against cloud-init's JSON schema (schema-cloud-config-v1.json).
    /// Without =FILE (or with =auto): the schema of the --cloud-init release, built in.
    #[arg(long, value_name = "FILE", num_args = 0..=1, require_equals = true, default_missing_value = "auto")]
    pub schema: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum SeedFormatArg {
    /// ISO 9660 with Joliet and Rock Ridge, volume id `cidata` (as `cloud-localds` makes it):
    /// `-drive file=seed.iso,media=cdrom`.
    Iso,
    /// FAT labelled `CIDATA`: `-drive file=seed.img,format=raw,if=virtio`.
    Vfat,
    /// A directory with the files, for `ds=nocloud;s=file:///path/` (replaces an earlier seed
    /// directory; refuses a directory holding anything else).
    Dir,
}

#[derive(Debug, Args)]
pub(super) struct SeedArgs {
    /// Where to write the seed: an image file (atomically, mode 0600; never one of the inputs),
    /// or with --format dir a directory (files 0600).
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    /// The user-data: one PATH is used byte for byte; several, a PATH:TYPE, --manifest or a
    /// layout option (--style, --merge-type, --boundary, --gzip, --base64) assemble a multipart
    /// payload exactly as `cloudfold build` does.
    #[arg(long = "user-data", value_name = "PATH[:TYPE]", num_args = 1.., required_unless_present = "manifest")]
    pub user_data: Vec<String>,
    /// A `build` manifest for the user-data (its parts come first).
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
    #[command(flatten)]
    pub layout: BuildLayout,
    /// The meta-data file (YAML; checked to be a mapping; warned about without `instance-id`).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["instance_id", "hostname"])]
    pub meta_data: Option<PathBuf>,
    /// The generated meta-data's `instance-id`. Default: `iid-cloudfold-` and 16 hex digits of a
    /// hash of the user-data, network-config, vendor-data and hostname, so the same inputs give
    /// the same id and a changed payload a new instance (cloud-init re-runs per-instance modules).
    #[arg(long, value_name = "ID")]
    pub instance_id: Option<String>,
    /// The generated meta-data's `local-hostname`.
    #[arg(long, value_name = "NAME")]
    pub hostname: Option<String>,
    /// Network configuration (YAML with `version: 1` or `2`, optionally under `network:`; checked),
    /// or `none`: `config: disabled`, so cloud-init leaves networking alone (a file named `none`
    /// is read as a file).
    #[arg(long, value_name = "FILE|none")]
    pub network_config: Option<PathBuf>,
    /// The vendor-data file (used byte for byte).
    #[arg(long, value_name = "FILE")]
    pub vendor_data: Option<PathBuf>,
    /// The seed's form.
    #[arg(long, value_enum, default_value_t = SeedFormatArg::Iso)]
    pub format: SeedFormatArg,
    /// Write the seed even if the user-data has errors (and accept part types `build` refuses).
    #[arg(long)]
    pub force: bool,
    /// Validate the user-data as this cloud-init release reads it.
    #[arg(long = "cloud-init", value_name = "RELEASE", default_value = "25.1", value_parser = ["22.4", "25.1"])]
    pub cloud_init: String,
    /// When validating, read `#include` targets that are local paths (or file:// URLs) under DIR.
    /// URLs are never fetched.
    #[arg(long, value_name = "DIR")]
    pub include_dir: Option<PathBuf>,
    /// Largest input file accepted (each of them), in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    pub max_input_size: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum DiffFormat {
    /// For people: the changes at boot with each value's part and line, the parts behind them.
    Text,
    /// One JSON document (see README: "diff --format json"): type-faithful values, paths and
    /// pointers, origins, part-level causes.
    Json,
    /// A unified diff of the two merged configs as readable YAML (`render` of each side), for
    /// code-review comments.
    YamlDiff,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum ColorWhen {
    /// Colour when standard output is a terminal and NO_COLOR is not set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

#[derive(Debug, Args)]
pub(super) struct DiffArgs {
    /// The payload before the change (a path; `-` reads stdin). A cloud-config.txt captured from
    /// an instance is a payload too, and so is a NoCloud seed (ISO 9660 or FAT image, directory).
    #[arg(value_name = "OLD")]
    pub old: PathBuf,
    /// The payload after the change (a path; `-` reads stdin, for one side only).
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
    /// Fold options, applied to both payloads.
    #[command(flatten)]
    pub fold: FoldArgs,
    /// Layers, the same under both payloads: the configs compared are then what the modules
    /// see (as `render` with layers prints it).
    #[command(flatten)]
    pub layers: LayerArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub format: DiffFormat,
    /// Colour the text output.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
    /// Compare the merged configs only: changed scripts, boothooks, part-handlers and templates
    /// do not count as changes at boot (on its own when a side is a cloud-config.txt).
    #[arg(long)]
    pub config_only: bool,
    /// Most steps spent aligning lists and texts over the whole diff; past it, the rest of a
    /// list is compared item by item in place (and a note says where).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_ALIGN_WORK)]
    pub max_align_work: u64,
    /// Compare the two boot plans instead (as `cloudfold plan` makes them): per stage, the
    /// parts consume_data handles, modules that start or stop running (each side's reason), and
    /// each module's commands added, removed, moved or changed. Without --etc-cloud or --image,
    /// the release's Debian image lists the modules.
    #[arg(long)]
    pub plan: bool,
    /// With --plan: the first boot of a new instance, or a later boot of the same instance.
    #[arg(long, value_enum, default_value_t = BootArg::First, requires = "plan")]
    pub boot: BootArg,
    /// With --plan: the instance id in paths under /var/lib/cloud/instances/.
    #[arg(long, value_name = "ID", requires = "plan")]
    pub instance_id: Option<String>,
}
