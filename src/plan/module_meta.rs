//! `ModuleTable`: every config module's `meta` (frequency, distros, activation keys) per release, as cloudfold's own data.

use super::frequency::Frequency;
use crate::userdata::Release;
use std::collections::HashMap;
use std::sync::OnceLock;

/// One `cc_*` module's `meta`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleMeta {
    /// The name without `cc_` (`write_files`).
    pub name: &'static str,
    /// `meta["frequency"]`.
    pub frequency: Frequency,
    /// `meta["distros"]` (`["all"]`: every distro).
    pub distros: Vec<&'static str>,
    /// `meta["activate_by_schema_keys"]` (empty: always active).
    pub activate_by: Vec<&'static str>,
}

impl ModuleMeta {
    /// `cc_<name>`.
    pub fn module_name(&self) -> String {
        format!("cc_{}", self.name)
    }

    /// Whether the distro check passes without `unverified_modules`
    /// (`worked_distros and worked_distros != [ALL_DISTROS]` guards the check).
    pub fn verified_on(&self, distro: &str) -> bool {
        self.distros.is_empty() || self.distros == ["all"] || self.distros.contains(&distro)
    }
}

/// The modules of one release, plus `modules.py`'s renamed / removed lists
/// and the distro names `distros.fetch` finds.
#[derive(Debug)]
pub struct ModuleTable {
    /// The release.
    pub release: Release,
    /// By name without `cc_`, in file order.
    pub modules: Vec<ModuleMeta>,
    by_name: HashMap<&'static str, usize>,
    /// `REMOVED_MODULES` (25.1; entries as written, `cc_` included).
    pub removed: Vec<&'static str>,
    /// `RENAMED_MODULES` (25.1): old `cc_` name to new.
    pub renamed: Vec<(&'static str, &'static str)>,
    /// The distro modules (`cloudinit/distros/<name>.py` with a `Distro` class).
    pub distros: Vec<&'static str>,
}

const DATA_22_4: &str = include_str!("data/cc-meta-22.4.tsv");
const DATA_25_1: &str = include_str!("data/cc-meta-25.1.tsv");

impl ModuleTable {
    /// The table of a release (parsed once).
    pub fn of(release: Release) -> &'static ModuleTable {
        static T22: OnceLock<ModuleTable> = OnceLock::new();
        static T25: OnceLock<ModuleTable> = OnceLock::new();
        match release {
            Release::V22_4 => T22.get_or_init(|| ModuleTable::parse(release, DATA_22_4)),
            Release::V25_1 => T25.get_or_init(|| ModuleTable::parse(release, DATA_25_1)),
        }
    }

    /// Parse the data format (see `src/plan/data/`); a malformed line is
    /// skipped (the oracle test compares the whole table with the sources).
    fn parse(release: Release, text: &'static str) -> ModuleTable {
        let list = |s: &'static str, sep: char| -> Vec<&'static str> {
            if s == "-" {
                Vec::new()
            } else {
                s.split(sep).filter(|x| !x.is_empty()).collect()
            }
        };
        let mut t = ModuleTable {
            release,
            modules: Vec::new(),
            by_name: HashMap::new(),
            removed: Vec::new(),
            renamed: Vec::new(),
            distros: Vec::new(),
        };
        for line in text.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let cols: Vec<&'static str> = line.split('\t').collect();
            match cols.as_slice() {
                ["@removed", v] => t.removed = list(v, ' '),
                ["@renamed", v] => {
                    t.renamed = list(v, ' ')
                        .into_iter()
                        .filter_map(|kv| kv.split_once('='))
                        .collect();
                }
                ["@distros", v] => t.distros = list(v, ' '),
                [name, freq, distros, keys] => {
                    let Some(frequency) = Frequency::parse(freq) else {
                        continue;
                    };
                    t.by_name.insert(name, t.modules.len());
                    t.modules.push(ModuleMeta {
                        name,
                        frequency,
                        distros: list(distros, ','),
                        activate_by: list(keys, ','),
                    });
                }
                _ => {}
            }
        }
        t
    }

    /// The module `cloudinit.config.<module_name>` (`cc_` included), if it exists.
    pub fn find(&self, module_name: &str) -> Option<&ModuleMeta> {
        let bare = module_name.strip_prefix("cc_")?;
        self.by_name.get(bare).and_then(|&i| self.modules.get(i))
    }

    /// `RENAMED_MODULES[module_name]`.
    pub fn renamed_to(&self, module_name: &str) -> Option<&'static str> {
        self.renamed
            .iter()
            .find(|(old, _)| *old == module_name)
            .map(|(_, new)| *new)
    }

    /// Whether `distros.fetch(name)` finds a distro class.
    pub fn has_distro(&self, name: &str) -> bool {
        self.distros.contains(&name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_parse() {
        let t = ModuleTable::of(Release::V22_4);
        assert!(t.modules.len() > 50);
        let w = t.find("cc_write_files").unwrap();
        assert_eq!(w.frequency, Frequency::PerInstance);
        assert_eq!(w.activate_by, ["write_files"]);
        assert!(t.find("cc_migrator").is_some());
        assert!(t.find("write_files").is_none());
        let t = ModuleTable::of(Release::V25_1);
        assert!(t.find("cc_migrator").is_none());
        assert_eq!(t.renamed_to("cc_ubuntu_advantage"), Some("cc_ubuntu_pro"));
        assert!(t.has_distro("debian"));
        assert_eq!(
            t.find("cc_scripts_per_once").unwrap().frequency,
            Frequency::Once
        );
        assert!(!t.find("cc_snap").unwrap().verified_on("debian"));
        assert!(t.find("cc_runcmd").unwrap().verified_on("debian"));
    }
}
