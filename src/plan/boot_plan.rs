//! `BootPlan`: one boot's timeline — each stage, the parts `consume_data` hands to handlers, each listed module with its frequency, whether it runs and what it does.

use super::action::Action;
use super::frequency::Frequency;
use crate::layers::LayerKind;
use crate::userdata::Release;

/// Which boot of the instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Boot {
    /// The first boot of a new instance (no semaphores yet).
    #[default]
    First,
    /// A later boot of the same instance: the first boot's semaphores and
    /// files are there.
    Next,
}

impl Boot {
    /// `first` / `next`.
    pub fn as_str(self) -> &'static str {
        match self {
            Boot::First => "first",
            Boot::Next => "next",
        }
    }
}

/// The four stages (systemd units) of a boot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// `cloud-init init --local`.
    InitLocal,
    /// `cloud-init init`: consume_data, then `cloud_init_modules`.
    Init,
    /// `cloud-init modules --mode=config`.
    Config,
    /// `cloud-init modules --mode=final`.
    Final,
}

impl Stage {
    /// `init-local`, `init`, `config`, `final`.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::InitLocal => "init-local",
            Stage::Init => "init",
            Stage::Config => "config",
            Stage::Final => "final",
        }
    }

    /// The command the unit runs (22.4; 25.1 runs them from one
    /// `cloud-init --all-stages` process, stage by stage).
    pub fn command(self) -> &'static str {
        match self {
            Stage::InitLocal => "cloud-init init --local",
            Stage::Init => "cloud-init init",
            Stage::Config => "cloud-init modules --mode=config",
            Stage::Final => "cloud-init modules --mode=final",
        }
    }

    /// The module list it runs.
    pub fn section(self) -> Option<&'static str> {
        match self {
            Stage::InitLocal => None,
            Stage::Init => Some("cloud_init_modules"),
            Stage::Config => Some("cloud_config_modules"),
            Stage::Final => Some("cloud_final_modules"),
        }
    }
}

/// A whole boot.
#[derive(Clone, Debug)]
pub struct BootPlan {
    /// The cloud-init release emulated.
    pub release: Release,
    /// Which boot.
    pub boot: Boot,
    /// The instance id in paths (from the instance data, else a placeholder).
    pub instance_id: String,
    /// `system_info.distro` (the distro class's name).
    pub distro: String,
    /// The stages in order.
    pub stages: Vec<StagePlan>,
    /// Things cloudfold could not predict, or that cloud-init warns about
    /// outside any module.
    pub notes: Vec<String>,
}

/// One stage.
#[derive(Clone, Debug)]
pub struct StagePlan {
    /// Which.
    pub stage: Stage,
    /// `consume_data` (the init stage only).
    pub consume: Option<ConsumeData>,
    /// The module section (not for init-local).
    pub section: Option<SectionPlan>,
}

/// `Init.consume_data`: every part handed to its handler, user-data first,
/// then vendor-data, then vendor-data2.
#[derive(Clone, Debug)]
pub struct ConsumeData {
    /// `once-per-instance` on the first boot (under the `consume_data`
    /// semaphore), `always` on later boots.
    pub frequency: Frequency,
    /// Whether it happens at all (`None`), or why not / where it stopped.
    pub stopped: Option<String>,
    /// The parts, in handler order.
    pub parts: Vec<PartStep>,
}

/// One part as its handler takes it.
#[derive(Clone, Debug)]
pub struct PartStep {
    /// `user-data`, `vendor-data`, `vendor-data2`.
    pub payload: LayerKind,
    /// 1-based position in its payload's walk.
    pub number: usize,
    /// The filename handlers see (`part-NNN` when the part has none).
    pub filename: String,
    /// The dispatched content type.
    pub content_type: String,
    /// cloud-init's handler (`ShellScriptPartHandler`), if any.
    pub handler: Option<&'static str>,
    /// What it does.
    pub effect: PartEffect,
}

/// What a handler does with a part.
#[derive(Clone, Debug, PartialEq)]
pub enum PartEffect {
    /// Merged into the cloud-config (or applied as a JSON patch).
    Merged,
    /// A cloud-config part cloud-init skips; why.
    Skipped(String),
    /// Written to a script directory; run later by the module named.
    WritesScript {
        /// The path written (0700).
        path: String,
        /// The module that runs it (`None`: nothing does).
        run_by: Option<&'static str>,
    },
    /// A boothook: written to `path` and run at once.
    RunsBoothook {
        /// The file (0700).
        path: String,
        /// Its text.
        text: String,
    },
    /// The handler raised (logged; the walk goes on).
    Fails(String),
    /// A part-handler: Python code cloud-init imports and registers.
    RegistersHandler {
        /// Where it is written.
        path: String,
    },
    /// Nothing happens; why.
    Ignored(String),
}

/// One stage's module section.
#[derive(Clone, Debug)]
pub struct SectionPlan {
    /// `cloud_init_modules`, ….
    pub key: &'static str,
    /// The layer whose list the modules see, and its label.
    pub list_from: Option<(LayerKind, String)>,
    /// The exception that ends the section before any module runs.
    pub error: Option<String>,
    /// The entries in order.
    pub modules: Vec<ModuleStep>,
}

/// One listed module.
#[derive(Clone, Debug)]
pub struct ModuleStep {
    /// The name as written in the list.
    pub name: String,
    /// `cc_…` (`None`: blank or unknown).
    pub module: Option<String>,
    /// The frequency it runs with (`None`: it is no module).
    pub frequency: Option<Frequency>,
    /// Whether its `handle` is called.
    pub runs: bool,
    /// Why not.
    pub skip: Option<Skip>,
    /// The keys present that activate it.
    pub activated_by: Vec<String>,
    /// What it does (when it runs).
    pub actions: Vec<Action>,
    /// Its `handle` raises (logged; the section goes on); the message.
    pub fails: Option<String>,
    /// What cloud-init logs about the entry (unknown frequency, renamed).
    pub warnings: Vec<String>,
}

/// Why a listed module does not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// A blank name.
    Blank,
    /// No module of that name (`removed`: 25.1's list of removed modules).
    Unknown {
        /// `cc_…`.
        module: String,
        /// Upstream removed it.
        removed: bool,
    },
    /// None of its `activate_by_schema_keys` is a top-level key.
    NoActivatingKey(Vec<String>),
    /// The distro is not in its `meta["distros"]` (and the module is not in
    /// `unverified_modules`).
    Distro {
        /// The distro.
        distro: String,
        /// Where it is verified.
        verified: Vec<String>,
    },
    /// Its semaphore exists.
    AlreadyRan {
        /// The semaphore file.
        semaphore: String,
    },
}

impl Skip {
    /// A stable machine code.
    pub fn code(&self) -> &'static str {
        match self {
            Skip::Blank => "blank-name",
            Skip::Unknown { .. } => "unknown-module",
            Skip::NoActivatingKey(_) => "no-activating-key",
            Skip::Distro { .. } => "distro-not-verified",
            Skip::AlreadyRan { .. } => "already-ran",
        }
    }

    /// The reason, for people.
    pub fn reason(&self) -> String {
        match self {
            Skip::Blank => "blank module name (ignored)".to_owned(),
            Skip::Unknown {
                module,
                removed: true,
            } => format!("{module} was removed from cloud-init"),
            Skip::Unknown { module, .. } => format!("no module named {module}"),
            Skip::NoActivatingKey(keys) => format!("no {} key in the config", keys.join(" / ")),
            Skip::Distro { distro, verified } => format!(
                "not verified on distro {distro} (only {}); add it to unverified_modules to run it",
                verified.join(", ")
            ),
            Skip::AlreadyRan { semaphore } if semaphore.ends_with(".once") => {
                format!("already ran once on this machine (semaphore {semaphore})")
            }
            Skip::AlreadyRan { semaphore } => {
                format!("already ran for this instance (semaphore {semaphore})")
            }
        }
    }
}
