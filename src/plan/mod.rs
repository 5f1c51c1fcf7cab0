//! `plan`: what cloud-init does at boot with the layered config and payloads — each stage, the parts `consume_data` hands to handlers, each module of the effective lists in order with its frequency, whether it runs and why not, and what the command- and file-acting modules do.
//!
//! [`plan`] simulates a boot as `cmd/main.py` runs it, over the
//! [`Layered`](crate::layers::Layered) fold: `consume_data` (boothooks run at
//! their position, scripts written), then `Modules.run_section` for each
//! stage with cloud-init's own rules (`_read_modules`, `_fixup_modules`,
//! activation keys, the distro check, semaphores), the module metadata
//! being cloudfold's data per release (`ModuleTable`, checked against the
//! `cc_*.py` sources). Files written (scripts, `runcmd`, `write_files`,
//! semaphores) go into a map of `/var/lib/cloud` (`CloudFs`) that
//! run-parts then lists in Python's order; a [`Boot::Next`] plan keeps the
//! first boot's.

mod action;
mod boot_plan;
mod cloud_fs;
mod cloud_util;
mod consume;
mod frequency;
mod fs_error;
mod module_actions;
mod module_config_error;
mod module_list;
mod module_meta;
mod plan_json;
mod plan_text;
mod planner;
mod shellify;
mod shellify_error;
mod users;
mod write_files;

internal! { use action::{Action, FileWrite, RunPart, UserPlan}; }
pub use boot_plan::{Boot, BootPlan};
internal! { use boot_plan::{ConsumeData, PartEffect, SectionPlan, Skip}; }
pub use boot_plan::ModuleStep;
pub use boot_plan::PartStep;
pub use boot_plan::Stage;
pub use boot_plan::StagePlan;
internal! { use cloud_fs::{CloudFs, FsEntry}; }
internal! { use fs_error::FsError; }
pub(crate) use cloud_util::clean_filename;
internal! { use frequency::Frequency; }
internal! { use module_list::{ListedModule, Resolved, form_module_name, read_section}; }
internal! { use module_meta::{ModuleMeta, ModuleTable}; }
pub use plan_json::to_json;
pub use plan_text::{selects, to_text};
pub use planner::{PlanOptions, plan};
internal! { use planner::UNKNOWN_INSTANCE_ID; }
internal! { use shellify::shellify; }
internal! { use shellify_error::ShellifyError; }
internal! { use module_config_error::ModuleConfigError; }
internal! { use users::{UsersGroups, normalize_users_groups}; }
