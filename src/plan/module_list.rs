//! `read_section`: `Modules._read_modules` then `_fixup_modules` — a stage's module list as cloud-init reads it, item by item.

use super::cloud_util::py_iter;
use super::frequency::Frequency;
use super::module_config_error::ModuleConfigError;
use super::module_meta::{ModuleMeta, ModuleTable};
use crate::python::py_strip;
use crate::userdata::Release;
use crate::yaml::value::{Node, Value, py_str};

/// One entry of `_read_modules`' result, after `_fixup_modules`.
#[derive(Clone, Debug)]
pub struct ListedModule {
    /// The name as written, stripped (`write-files`): semaphores and
    /// `unverified_modules` use it.
    pub name: String,
    /// The frequency as written (list item 2 / `frequency:`), stripped.
    pub frequency_given: Option<String>,
    /// What `_fixup_modules` made of it.
    pub resolved: Resolved,
    /// What cloud-init logs about it (unknown frequency, renamed module).
    pub warnings: Vec<String>,
}

/// What `_fixup_modules` made of a listed name.
#[derive(Clone, Debug)]
pub enum Resolved {
    /// `form_module_name` gave nothing (a blank name): skipped silently.
    Blank,
    /// No module of that name: skipped with a warning (25.1: an info line
    /// for a module upstream removed).
    NotFound {
        /// `cc_…` as looked up.
        module: String,
        /// Listed in 25.1's `REMOVED_MODULES`.
        removed: bool,
    },
    /// The module, and the frequency it runs with.
    Found {
        /// Its meta.
        meta: ModuleMeta,
        /// The frequency given if valid, else the module's own.
        frequency: Frequency,
    },
}

/// `Modules._read_modules(key)` and `_fixup_modules`: the entries in order,
/// or the exception that ends the section (cloud-init runs none of its
/// modules then).
pub fn read_section(
    cfg: &Node,
    key: &str,
    table: &ModuleTable,
) -> Result<Vec<ListedModule>, ModuleConfigError> {
    section(cfg, key, table).map_err(ModuleConfigError::new)
}

/// [`read_section`], the exception as its Python text.
fn section(cfg: &Node, key: &str, table: &ModuleTable) -> Result<Vec<ListedModule>, String> {
    let Some(list) = cfg.as_map().and_then(|m| m.get_str(key)) else {
        return Ok(Vec::new());
    };
    if !list.is_truthy() {
        return Ok(Vec::new());
    }
    let mut raw: Vec<(String, Option<String>)> = Vec::new();
    for item in py_iter(list)? {
        if !item.is_truthy() {
            continue;
        }
        match item.value() {
            Value::Str(_) => raw.push((strip(&item)?, None)),
            Value::Seq(s) => {
                let name = match s.items().first() {
                    Some(n) => strip(n)?,
                    None => continue,
                };
                let freq = s.items().get(1).map(strip).transpose()?;
                raw.push((name, freq));
            }
            Value::Map(m) => {
                let name = m.get_str("name").map(strip).transpose()?;
                let freq = m.get_str("frequency").map(strip).transpose()?;
                if let Some(name) = name {
                    raw.push((name, freq));
                }
            }
            _ => {
                return Err(format!(
                    "TypeError: Failed to read '{}' item in config, unknown type {}",
                    py_str(&item),
                    item.type_name()
                ));
            }
        }
    }
    raw.into_iter()
        .map(|(name, freq)| fixup(name, freq, table))
        .collect()
}

/// `_fixup_modules` for one entry.
fn fixup(name: String, freq: Option<String>, table: &ModuleTable) -> Result<ListedModule, String> {
    let mut warnings = Vec::new();
    let Some(mut module) = form_module_name(&name) else {
        return Ok(ListedModule {
            name,
            frequency_given: freq,
            resolved: Resolved::Blank,
            warnings,
        });
    };
    let mut valid_freq = None;
    if freq.as_deref() == Some("") {
        valid_freq = Some(Frequency::Empty);
    }
    if let Some(f) = freq.as_deref().filter(|f| !f.is_empty()) {
        match Frequency::parse(f) {
            Some(v) => valid_freq = Some(v),
            None => warnings.push(match table.release {
                Release::V22_4 => {
                    format!("Config specified module {name} has an unknown frequency {f}")
                }
                Release::V25_1 => format!(
                    "Config specified module {name} has an unknown frequency {f} is deprecated in 22.1"
                ),
            }),
        }
    }
    if let Some(new) = table.renamed_to(&module) {
        warnings.push(format!(
            "Module has been renamed from {module} to {new}. Update any references in /etc/cloud/cloud.cfg is deprecated in 24.1"
        ));
        new.clone_into(&mut module);
    }
    // importlib.util.find_spec("cc_a.b") imports the parent package first.
    if let Some((first, _)) = module.split_once('.') {
        return Err(format!("ModuleNotFoundError: No module named '{first}'"));
    }
    let resolved = match table.find(&module) {
        Some(meta) => Resolved::Found {
            meta: meta.clone(),
            frequency: valid_freq.unwrap_or(meta.frequency),
        },
        None => {
            let removed = table.removed.contains(&module.as_str());
            if !removed {
                warnings.push(format!(
                    "Could not find module named {module} (searched ['{module}', 'cloudinit.config.{module}'])"
                ));
            }
            Resolved::NotFound { module, removed }
        }
    };
    Ok(ListedModule {
        name,
        frequency_given: freq,
        resolved,
        warnings,
    })
}

/// `form_module_name`: `-` to `_`, a trailing `.py` (any case) cut, stripped,
/// `cc_` prefixed; `None` when blank.
pub fn form_module_name(name: &str) -> Option<String> {
    let canon = name.replace('-', "_");
    let chars: Vec<char> = canon.chars().collect();
    let cut = match chars.len().checked_sub(3).and_then(|i| chars.get(i..)) {
        Some(tail) if crate::python::py_lower(&tail.iter().collect::<String>()) == ".py" => {
            chars.get(..chars.len() - 3).unwrap_or(&[]).iter().collect()
        }
        _ => canon,
    };
    let stripped = py_strip(&cut);
    if stripped.is_empty() {
        return None;
    }
    Some(if stripped.starts_with("cc_") {
        stripped.to_owned()
    } else {
        format!("cc_{stripped}")
    })
}

/// `x.strip()` of a list item's name or frequency (an `AttributeError` for
/// anything but a string).
fn strip(n: &Node) -> Result<String, String> {
    match n.value() {
        Value::Str(s) => Ok(py_strip(&s.to_string_lossy()).to_owned()),
        _ => Err(format!(
            "AttributeError: '{}' object has no attribute 'strip'",
            n.type_name()
        )),
    }
}

#[cfg(test)]
// Test code: an out-of-range index is a failed test.
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn load(s: &str) -> Node {
        crate::yaml::load(s, &Default::default()).unwrap().unwrap()
    }

    #[test]
    fn names() {
        assert_eq!(form_module_name("write-files").unwrap(), "cc_write_files");
        assert_eq!(
            form_module_name("write_files .PY").unwrap(),
            "cc_write_files"
        );
        assert_eq!(form_module_name("cc_runcmd").unwrap(), "cc_runcmd");
        assert_eq!(form_module_name(" .py"), None);
        assert_eq!(form_module_name("py"), Some("cc_py".into()));
    }

    #[test]
    fn items_of_every_form() {
        let t = ModuleTable::of(Release::V22_4);
        let cfg = load(
            "cloud_final_modules: [runcmd, [bootcmd, always, x], {name: ' write-files ', frequency: weekly}, '', [' '], nope, {frequency: once}]",
        );
        let l = read_section(&cfg, "cloud_final_modules", t).unwrap();
        let names: Vec<&str> = l.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["runcmd", "bootcmd", "write-files", "", "nope"]);
        assert!(matches!(
            l[1].resolved,
            Resolved::Found {
                frequency: Frequency::Always,
                ..
            }
        ));
        assert!(matches!(
            l[2].resolved,
            Resolved::Found {
                frequency: Frequency::PerInstance,
                ..
            }
        ));
        assert_eq!(l[2].warnings.len(), 1);
        assert!(matches!(l[3].resolved, Resolved::Blank));
        assert!(matches!(l[4].resolved, Resolved::NotFound { .. }));
        let err = |s: &str| read_section(&load(s), "k", t).unwrap_err().to_string();
        assert_eq!(
            err("k: [[5]]"),
            "AttributeError: 'int' object has no attribute 'strip'"
        );
        assert_eq!(
            err("k: [3]"),
            "TypeError: Failed to read '3' item in config, unknown type int"
        );
        assert_eq!(err("k: 3"), "TypeError: 'int' object is not iterable");
        assert_eq!(
            err("k: [a.b]"),
            "ModuleNotFoundError: No module named 'cc_a'"
        );
        let chars = read_section(&load("k: ab"), "k", t).unwrap();
        assert_eq!(chars.len(), 2);
    }
}
