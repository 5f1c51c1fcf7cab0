//! `plan`: one boot of an instance simulated as `cmd/main.py` runs it — `consume_data`, then each stage's `Modules.run_section`, with semaphores and written files carried from the first boot to the next.

use super::boot_plan::{
    Boot, BootPlan, ConsumeData, ModuleStep, SectionPlan, Skip, Stage, StagePlan,
};
use super::cloud_fs::CloudFs;
use super::cloud_util::py_contains;
use super::consume::consume_payload;
use super::frequency::Frequency;
use super::module_actions::module_actions;
use super::module_list::{Resolved, read_section};
use super::module_meta::ModuleTable;
use crate::layers::{LayerKind, Layered, VendorOutcome};
use crate::userdata::Release;
use crate::yaml::value::Node;

/// What to plan.
#[derive(Clone, Debug, Default)]
pub struct PlanOptions {
    /// The first boot of the instance, or a later one.
    pub boot: Boot,
    /// The instance id (paths under `/var/lib/cloud/instances/`); `None`:
    /// a placeholder.
    pub instance_id: Option<String>,
}

/// The placeholder instance id.
pub const UNKNOWN_INSTANCE_ID: &str = "<instance-id>";

/// Plan a boot: for [`Boot::Next`], the first boot is simulated first (its
/// semaphores and files persist), then the next one is returned.
///
/// ```
/// use cloudfold::layers::{fold_layers, ImageProfile, LayerInputs};
/// use cloudfold::plan::{plan, Boot, PlanOptions};
/// use cloudfold::userdata::{NoIncludes, Release, UserDataOptions};
/// let opts = UserDataOptions { release: Release::V25_1, ..UserDataOptions::default() };
/// let inputs = LayerInputs {
///     etc: Some(ImageProfile::Debian13.etc_cloud(opts.release)),
///     user_data: Some(b"#cloud-config\nruncmd: [[echo, hi]]\n".to_vec()),
///     ..LayerInputs::default()
/// };
/// let layered = fold_layers(&inputs, &opts, &NoIncludes).unwrap();
/// let first = plan(&layered, &PlanOptions::default());
/// let runcmd = first.stages.iter().flat_map(|s| s.section.iter())
///     .flat_map(|s| s.modules.iter()).find(|m| m.name == "runcmd").unwrap();
/// assert!(runcmd.runs);
/// let next = plan(&layered, &PlanOptions { boot: Boot::Next, ..PlanOptions::default() });
/// let runcmd = next.stages.iter().flat_map(|s| s.section.iter())
///     .flat_map(|s| s.modules.iter()).find(|m| m.name == "runcmd").unwrap();
/// assert!(!runcmd.runs); // once per instance
/// ```
pub fn plan(layered: &Layered, opts: &PlanOptions) -> BootPlan {
    let mut sim = Simulator::new(layered, opts);
    let first = sim.boot(Boot::First);
    match opts.boot {
        Boot::First => first,
        Boot::Next => sim.boot(Boot::Next),
    }
}

struct Simulator<'a> {
    layered: &'a Layered,
    table: &'static ModuleTable,
    fs: CloudFs,
    instance_id: String,
    distro: Result<String, String>,
}

impl<'a> Simulator<'a> {
    fn new(layered: &'a Layered, opts: &PlanOptions) -> Simulator<'a> {
        let si = layered.system_info.as_map();
        let cloud_dir = si
            .and_then(|m| m.get_str("paths"))
            .and_then(Node::as_map)
            .and_then(|p| p.get_str("cloud_dir"))
            .and_then(Node::as_str)
            .unwrap_or("/var/lib/cloud")
            .to_owned();
        let instance_id = opts
            .instance_id
            .clone()
            .unwrap_or_else(|| UNKNOWN_INSTANCE_ID.to_owned());
        let table = ModuleTable::of(layered.release);
        // Init.distro: system_info's `distro`, "ubuntu" without one.
        let distro = match si.and_then(|m| m.get_str("distro")) {
            None => Ok("ubuntu".to_owned()),
            Some(d) => match d.as_str() {
                Some(name) if table.has_distro(name) => Ok(name.to_owned()),
                Some(name) => Err(format!(
                    "ImportError: No distribution found for distro {name} (searched ['{name}', 'cloudinit.distros.{name}'])"
                )),
                None => Err(format!(
                    "cloudfold cannot plan with a system_info.distro that is a {}",
                    d.type_name()
                )),
            },
        };
        Simulator {
            layered,
            table,
            fs: CloudFs::new(&cloud_dir, &instance_id),
            instance_id,
            distro,
        }
    }

    fn boot(&mut self, boot: Boot) -> BootPlan {
        let mut notes = Vec::new();
        let mut stages = vec![StagePlan {
            stage: Stage::InitLocal,
            consume: None,
            section: None,
        }];
        // Init stage: consume_data under the `consume_data` semaphore.
        let sem = format!("{}/consume_data", self.fs.ipath("sem"));
        let frequency = if self.fs.exists(&sem) {
            Frequency::Always
        } else {
            let _ = self.fs.write_file(&sem, b"", 0o644, false);
            Frequency::PerInstance
        };
        let consume = self.consume(boot, frequency, &mut notes);
        let init_ok = consume.stopped.is_none();
        stages.push(StagePlan {
            stage: Stage::Init,
            section: Some(if init_ok {
                self.section(Stage::Init)
            } else {
                SectionPlan {
                    key: "cloud_init_modules",
                    list_from: self.list_from("cloud_init_modules"),
                    error: Some(
                        "the init stage ended before its modules (see consume_data)".to_owned(),
                    ),
                    modules: Vec::new(),
                }
            }),
            consume: Some(consume),
        });
        for stage in [Stage::Config, Stage::Final] {
            stages.push(StagePlan {
                stage,
                consume: None,
                section: Some(self.section(stage)),
            });
        }
        BootPlan {
            release: self.layered.release,
            boot,
            instance_id: self.instance_id.clone(),
            distro: self.distro.clone().unwrap_or_default(),
            stages,
            notes,
        }
    }

    /// `consume_data(frequency)`: user-data (unless `allow_userdata` is
    /// false), then vendor-data, then vendor-data2.
    fn consume(
        &mut self,
        boot: Boot,
        frequency: Frequency,
        notes: &mut Vec<String>,
    ) -> ConsumeData {
        let l = self.layered;
        let v25 = l.release == Release::V25_1;
        if let Err(e) = &self.distro {
            return ConsumeData {
                frequency,
                stopped: Some(e.clone()),
                parts: Vec::new(),
            };
        }
        // A payload cloud-init could not process stops the init stage in
        // update(), before anything is consumed; a vendor payload whose
        // walk raised stops it inside consume_data.
        let consumed_vendor = |v: &VendorOutcome| matches!(v, VendorOutcome::Consumed(_));
        let walk_failed = l.init_stage_error.is_some()
            && (consumed_vendor(&l.vendor) || consumed_vendor(&l.vendor2));
        if let (Some(e), false) = (&l.init_stage_error, walk_failed) {
            return ConsumeData {
                frequency,
                stopped: Some(format!(
                    "cloud-init cannot process {e}: the init stage stops before consume_data"
                )),
                parts: Vec::new(),
            };
        }
        // A later boot's Init.cfg already holds the first boot's
        // cloud-config.txt and vendor-cloud-config.txt: user-data's own
        // `allow_userdata` and vendor-data's own `vendor_data` now count.
        let later = |key: &str, default: bool| {
            boot == Boot::First || setting_on(&l.init_config, key, default)
        };
        let user_allowed = match boot {
            Boot::First => l.user_allowed,
            Boot::Next => later("allow_userdata", true),
        };
        let mut parts = Vec::new();
        if let Some(user) = l.user.as_deref().filter(|_| user_allowed) {
            parts.extend(consume_payload(
                LayerKind::UserData,
                user,
                frequency,
                v25,
                &mut self.fs,
                notes,
            ));
        }
        for (kind, v, key) in [
            (LayerKind::VendorData, &l.vendor, "vendor_data"),
            (LayerKind::VendorData2, &l.vendor2, "vendor_data2"),
        ] {
            if let VendorOutcome::Consumed(f) = v {
                if !later(key, false) {
                    notes.push(format!(
                        "{}: not consumed on this boot: the first boot's config (now in Init.cfg) sets {key}.enabled to false; its scripts and boothooks are not written or run again",
                        kind.code()
                    ));
                    continue;
                }
                parts.extend(consume_payload(
                    kind,
                    f,
                    frequency,
                    v25,
                    &mut self.fs,
                    notes,
                ));
            }
        }
        ConsumeData {
            frequency,
            stopped: walk_failed.then(|| {
                format!(
                    "Consuming user data failed! ({}): the init stage ends here",
                    l.init_stage_error.clone().unwrap_or_default()
                )
            }),
            parts,
        }
    }

    fn list_from(&self, key: &str) -> Option<(LayerKind, String)> {
        let o = self
            .layered
            .module_lists()
            .into_iter()
            .find(|o| o.key == key)?;
        let layer = o.layer?;
        let label = o
            .source
            .and_then(|s| self.layered.sources.get(s))
            .map(|s| s.label.clone())
            .unwrap_or_default();
        Some((layer, label))
    }

    /// `Modules.run_section(key)`.
    fn section(&mut self, stage: Stage) -> SectionPlan {
        let key = stage.section().unwrap_or("cloud_init_modules");
        let mut plan = SectionPlan {
            key,
            list_from: self.list_from(key),
            error: None,
            modules: Vec::new(),
        };
        let cfg = &self.layered.config;
        let listed = match read_section(cfg, key, self.table) {
            Ok(l) => l,
            Err(e) => {
                plan.error = Some(e.to_string());
                return plan;
            }
        };
        let distro = match &self.distro {
            Ok(d) => d.clone(),
            Err(e) => {
                plan.error = Some(e.clone());
                return plan;
            }
        };
        let overridden = cfg
            .as_map()
            .and_then(|m| m.get_str("unverified_modules"))
            .cloned();
        let cfg_map = cfg.as_map();
        // First the filter (it may raise before anything runs), then the runs.
        let mut steps = Vec::new();
        for m in listed {
            let mut step = ModuleStep {
                name: m.name.clone(),
                module: None,
                frequency: None,
                runs: false,
                skip: None,
                activated_by: Vec::new(),
                actions: Vec::new(),
                fails: None,
                warnings: m.warnings,
            };
            match m.resolved {
                Resolved::Blank => step.skip = Some(Skip::Blank),
                Resolved::NotFound { module, removed } => {
                    step.skip = Some(Skip::Unknown { module, removed });
                }
                Resolved::Found { meta, frequency } => {
                    step.module = Some(meta.module_name());
                    step.frequency = Some(frequency);
                    step.activated_by = meta
                        .activate_by
                        .iter()
                        .filter(|k| cfg_map.is_some_and(|c| c.get_str(k).is_some()))
                        .map(|k| (*k).to_owned())
                        .collect();
                    if !meta.activate_by.is_empty() && step.activated_by.is_empty() {
                        step.skip = Some(Skip::NoActivatingKey(
                            meta.activate_by.iter().map(|k| (*k).to_owned()).collect(),
                        ));
                    } else if !meta.verified_on(&distro) {
                        let forced = match &overridden {
                            None => false,
                            Some(o) => match py_contains(o, &m.name) {
                                Ok(b) => b,
                                Err(e) => {
                                    plan.error = Some(e);
                                    return plan;
                                }
                            },
                        };
                        if forced {
                            step.warnings
                                .push(format!("running unverified_modules: '{}'", m.name));
                        } else {
                            step.skip = Some(Skip::Distro {
                                distro: distro.clone(),
                                verified: meta.distros.iter().map(|d| (*d).to_owned()).collect(),
                            });
                        }
                    }
                }
            }
            steps.push(step);
        }
        for step in &mut steps {
            if step.skip.is_some() {
                continue;
            }
            let (Some(module), Some(freq)) = (step.module.clone(), step.frequency) else {
                continue;
            };
            if let Some(sem) = self.has_run(&step.name, freq) {
                step.skip = Some(Skip::AlreadyRan { semaphore: sem });
                continue;
            }
            if let Err(e) = self.lock(&step.name, freq) {
                step.fails = Some(format!("LockFailure: Failed to acquire lock ({e})"));
                continue;
            }
            step.runs = true;
            let run = module_actions(
                module.strip_prefix("cc_").unwrap_or(&module),
                &step.name,
                cfg,
                self.layered,
                &mut self.fs,
            );
            step.actions = run.actions;
            step.fails = run.error;
        }
        plan.modules = steps;
        plan
    }

    /// The semaphore file of a run name and frequency (`None`: always).
    fn sem_path(&self, name: &str, freq: Frequency) -> Option<String> {
        match freq {
            Frequency::Always | Frequency::Empty => None,
            Frequency::PerInstance => Some(format!("{}/{name}", self.fs.ipath("sem"))),
            Frequency::Once => Some(format!("{}/{name}.once", self.fs.cpath("sem"))),
        }
    }

    /// `FileSemaphores.has_run("config-<name>", freq)`: the canonical name's
    /// file, or the raw name's.
    fn has_run(&self, name: &str, freq: Frequency) -> Option<String> {
        let raw = format!("config-{name}");
        let canon = raw.replace('-', "_");
        [canon, raw]
            .into_iter()
            .filter_map(|n| self.sem_path(&n, freq))
            .find(|p| self.fs.exists(p))
    }

    /// `FileSemaphores._acquire`: the semaphore file written before the module runs.
    fn lock(&mut self, name: &str, freq: Frequency) -> Result<(), String> {
        let canon = format!("config-{name}").replace('-', "_");
        match self.sem_path(&canon, freq) {
            Some(p) => self
                .fs
                .write_file(&p, b"", 0o644, false)
                .map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }
}

/// `allow_userdata` (`util.get_cfg_option_bool`), or `vendor_data.enabled`
/// (`util.is_true` of the mapping's `enabled`; not a mapping: disabled).
fn setting_on(cfg: &Node, key: &str, default: bool) -> bool {
    let Some(v) = cfg.as_map().and_then(|m| m.get_str(key)) else {
        return default;
    };
    if key == "allow_userdata" {
        return super::cloud_util::translate_bool(v);
    }
    match v.as_map() {
        Some(m) => m.get_str("enabled").is_some_and(super::cloud_util::is_true),
        None => false,
    }
}
