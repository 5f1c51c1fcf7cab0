//! `fold_layers`: the merges cloud-init performs on a first boot, from `fetch_base_config` to the config the modules see.
//!
//! The sequence (both releases; `Init` and `ConfigMerger` in cloud-init):
//! 1. `base = mergemanydict([cmdline, /run/cloud-init/cloud.cfg, /etc, builtin])`;
//! 2. `Init.cfg` before user-data is consumed: `[$CLOUD_CFG, datasource, base]`
//!    (the datasource's config object is one object: the first merges pop
//!    its `merge_how`, then its `merge_type`);
//! 3. user-data is consumed unless `allow_userdata` is false;
//! 4. each vendor payload is consumed unless `vendor_data` (`vendor_data2`)
//!    from `[$CLOUD_CFG, cloud-config.txt, datasource, Init.cfg]` disables it;
//! 5. `Init.cfg = restricted([$CLOUD_CFG, cloud-config.txt, vendor2, vendor, datasource, base])`;
//! 6. the modules see `[$CLOUD_CFG, cloud-config.txt, vendor2, vendor, datasource, Init.cfg]`.

use super::config_templater::ConfigTemplater;
use super::etc_cloud::is_map;
use super::image_profile::builtin_config;
use super::jinja_templater::JinjaTemplater;
use super::layer_inputs::LayerInputs;
use super::layer_note::{LayersError, NoteKind, Trap};
use super::layered::{FlatSource, Layered, VendorOutcome};
use super::merge_many::{merge_many_dict, version_of};
use super::read_conf::{ConfReader, ConfigFile, empty_dict};
use super::source_registry::{LayerKind, SourceInfo, SourceText, Sources};
use crate::merge::cloud_init::{MergerStack, extract_payload_mergers};
use crate::merge::{MergeEvent, MergeObserver};
use crate::source::SourceId;
use crate::userdata::{
    ExcludedTypes, FoldObserver, Folded, IncludeResolver, Release, RenderError, UserDataOptions,
    render_observed,
};
use crate::yaml::value::{Map, Node, Value, py_str};
use std::sync::Arc;

/// Fold every layer as cloud-init does on a first boot: see the module docs.
///
/// `opts` applies to every fold (release, limits, launch index) and gives
/// the instance data (`opts.instance_data`; `None`: the instance-data file
/// is absent) templated `/etc/cloud` files and jinja parts are rendered with.
///
/// ```
/// use cloudfold::layers::{fold_layers, ImageProfile, LayerInputs};
/// use cloudfold::userdata::{NoIncludes, Release, UserDataOptions};
/// let opts = UserDataOptions { release: Release::V22_4, ..UserDataOptions::default() };
/// let mut etc = ImageProfile::Debian12.etc_cloud(opts.release);
/// etc.insert("cloud.cfg.d/90_site.cfg", cloudfold::layers::EtcEntry::File(b"runcmd: [image]\n".to_vec()));
/// let inputs = LayerInputs {
///     etc: Some(etc),
///     user_data: Some(b"#cloud-config\nruncmd: [user]\n".to_vec()),
///     ..LayerInputs::default()
/// };
/// let layered = fold_layers(&inputs, &opts, &NoIncludes).unwrap();
/// let runcmd = layered.config.as_map().unwrap().get_str("runcmd").unwrap();
/// // First wins: user-data's list replaces the image's.
/// assert_eq!(runcmd.as_seq().unwrap().len(), 1);
/// assert_eq!(layered.layer_of(runcmd.span().source), Some(cloudfold::layers::LayerKind::UserData));
/// ```
pub fn fold_layers(
    inputs: &LayerInputs,
    opts: &UserDataOptions,
    includes: &dyn IncludeResolver,
) -> Result<Layered, LayersError> {
    match &opts.instance_data {
        Some(data) => {
            let t = JinjaTemplater::new(opts.release, data, opts.jinja_limits);
            fold_layers_with(inputs, opts, Some(&t), includes)
        }
        None => fold_layers_with(inputs, opts, None, includes),
    }
}

/// [`fold_layers`] with another templater for `/etc/cloud` files (`None`:
/// the instance-data file is absent, templates are loaded unrendered).
pub fn fold_layers_with(
    inputs: &LayerInputs,
    opts: &UserDataOptions,
    templater: Option<&dyn ConfigTemplater>,
    includes: &dyn IncludeResolver,
) -> Result<Layered, LayersError> {
    let mut r = ConfReader {
        release: opts.release,
        sources: Sources::default(),
        notes: Vec::new(),
        templater,
        read: Vec::new(),
        originals: Vec::new(),
    };
    let mut flat_base: Vec<FlatSource> = Vec::new();

    // 1. fetch_base_config.
    let builtin_text = builtin_config(opts.release);
    let builtin_label = format!("built-in config (cloud-init {})", opts.release.as_str());
    let builtin_id = r.sources.push(SourceInfo {
        layer: LayerKind::Builtin,
        label: builtin_label.clone(),
        text: SourceText::Text(Arc::from(builtin_text)),
        part: None,
        shift: (0, 0),
    });
    let builtin = r.load_yaml_dict(builtin_text, builtin_id, &builtin_label)?;
    let etc = match &inputs.etc {
        Some(etc) => {
            let first = r.sources.next_id().0;
            let merged = r.read_conf_with_confd(etc)?;
            // The files read, highest first: conf.d in read order, then cloud.cfg
            // (read first, merged last).
            let mut files = collect_files(&r, first, LayerKind::EtcCloud);
            if let Some(pos) = files
                .iter()
                .position(|f| f.label == etc.label_of("cloud.cfg"))
            {
                let cfg = files.remove(pos);
                files.push(cfg);
            }
            flat_base.extend(files);
            merged
        }
        None => empty_dict(),
    };
    let runtime = read_plain(
        &mut r,
        inputs.run_cloud_cfg.as_ref(),
        LayerKind::RunCloudCfg,
    )?;
    let cmdline = match &inputs.kernel_cmdline {
        Some(line) => {
            let text = read_cc_from_cmdline(line);
            let label = "kernel command line (cc: … end_cc)".to_owned();
            let id = r.sources.push(SourceInfo {
                layer: LayerKind::KernelCmdline,
                label: label.clone(),
                text: SourceText::Text(Arc::from(text.as_str())),
                part: None,
                shift: (0, 0),
            });
            r.load_yaml(&text, id, &label)?
        }
        None => None,
    };
    let mut base_list: Vec<Node> = Vec::new();
    let mut flat_top: Vec<FlatSource> = Vec::new();
    if let Some(c) = &cmdline {
        base_list.push(c.clone());
        flat_top.push(flat(&r, LayerKind::KernelCmdline, c)?);
    }
    if let Some(rt) = &runtime {
        base_list.push(rt.clone());
        flat_top.push(flat(&r, LayerKind::RunCloudCfg, rt)?);
    }
    base_list.push(etc);
    base_list.push(builtin.clone());
    let base = merge_many_dict(
        &r,
        &base_list,
        "merging its base config (fetch_base_config)",
    )?;
    flat_top.extend(flat_base);
    flat_top.push(flat(&r, LayerKind::Builtin, &builtin)?);
    let flat_lower = flat_top;

    // 2. Init.cfg before consumption.
    let env = read_plain(
        &mut r,
        inputs.cloud_cfg_env.as_ref(),
        LayerKind::CloudCfgEnv,
    )?;
    let ds0 = match &inputs.datasource_config {
        Some(file) => read_datasource(&mut r, file)?,
        None => None,
    };
    let version = version_of(opts.release);
    let pop = |n: &Node| -> Result<Node, LayersError> {
        extract_payload_mergers(n, version)
            .map(|(d, _)| d)
            .map_err(|e| {
                r.crash(
                    "merging its config",
                    format!("{}: {}", e.class.python_name(), e.message),
                )
            })
    };
    let ds1 = ds0.as_ref().map(&pop).transpose()?;
    let ds2 = ds1.as_ref().map(&pop).transpose()?;
    // The first merge that sees the datasource (network configuration):
    // its result is dropped, but a bad spec raises there.
    let with = |list: &[Option<&Node>]| {
        list.iter()
            .flatten()
            .map(|n| (*n).clone())
            .collect::<Vec<_>>()
    };
    // Init.read_cfg before the datasource is found (Init.paths follows).
    let boot_cfg = merge_many_dict(
        &r,
        &with(&[env.as_ref(), Some(&base)]),
        "merging its config (Init.cfg)",
    )?;
    check_paths(&r, &boot_cfg)?;
    merge_many_dict(
        &r,
        &with(&[env.as_ref(), ds0.as_ref(), Some(&base)]),
        "merging its config (Init.cfg)",
    )?;
    let pre_full = merge_many_dict(
        &r,
        &with(&[env.as_ref(), ds1.as_ref(), Some(&base)]),
        "merging its config (Init.cfg)",
    )?;
    check_paths(&r, &pre_full)?;
    let pre = restricted(&pre_full);

    // 3. update() processes user-data, then both vendor payloads (enabled
    // or not); a payload cloud-init cannot process stops the init stage
    // before anything is consumed. Then user-data is consumed.
    let mut init_stage_error = None;
    let user_allowed = get_cfg_option_bool(&pre, "allow_userdata", true);
    let mut user_fold = None;
    let mut user_layer: Option<Node> = None;
    let mut merge_specs_in_user = false;
    if let Some(payload) = &inputs.user_data {
        match fold_payload(
            &mut r,
            payload,
            LayerKind::UserData,
            opts,
            ExcludedTypes::Nothing,
            includes,
        )? {
            PayloadFold::Folded(f, specs) => {
                merge_specs_in_user = specs;
                if user_allowed {
                    user_layer = written_layer(&mut r, &f, LayerKind::UserData);
                }
                user_fold = Some(f);
            }
            PayloadFold::Aborted(msg) => init_stage_error = Some(format!("user-data: {msg}")),
        }
    }
    let vendor_opts = UserDataOptions {
        launch_index: None,
        ..opts.clone()
    };
    if init_stage_error.is_none() {
        for (payload, kind) in [
            (&inputs.vendor_data, LayerKind::VendorData),
            (&inputs.vendor_data2, LayerKind::VendorData2),
        ] {
            let Some(p) = payload.as_ref().filter(|p| !p.is_empty()) else {
                continue;
            };
            if let Err(e) = crate::userdata::process(p, &vendor_opts, includes) {
                init_stage_error = Some(format!("{}: {e}", kind.code()));
                user_layer = None;
                break;
            }
        }
    }
    if !user_allowed {
        r.note(
            NoteKind::UserDataDisallowed,
            None,
            "user-data",
            "allow_userdata is false: cloud-init discards user-data".to_owned(),
        );
    }

    // 4. vendor-data, then vendor-data2.
    let mut vendor = VendorOutcome::Absent;
    let mut vendor2 = VendorOutcome::Absent;
    let mut vendor_layers: Vec<Option<Node>> = Vec::new();
    if init_stage_error.is_none() {
        for (i, (payload, kind, name)) in [
            (&inputs.vendor_data, LayerKind::VendorData, "vendor_data"),
            (&inputs.vendor_data2, LayerKind::VendorData2, "vendor_data2"),
        ]
        .into_iter()
        .enumerate()
        {
            vendor_layers.push(None);
            let Some(p) = payload.as_ref().filter(|p| !p.is_empty()) else {
                continue;
            };
            let decide = merge_many_dict(
                &r,
                &with(&[env.as_ref(), user_layer.as_ref(), ds2.as_ref(), Some(&pre)]),
                "deciding whether to consume vendor-data",
            )?;
            let setting = decide.as_map().and_then(|m| m.get_str(name)).cloned();
            let (enabled, excluded, decided_by) = vendor_setting(&mut r, name, setting.as_ref());
            let outcome = if !enabled {
                r.note(
                    NoteKind::VendorDisabled,
                    decided_by,
                    kind.code(),
                    format!(
                        "{name}: enabled is not true: cloud-init does not consume {}",
                        kind.code()
                    ),
                );
                VendorOutcome::Disabled { decided_by }
            } else {
                match fold_payload(&mut r, p, kind, &vendor_opts, excluded, includes)? {
                    PayloadFold::Folded(f, _) => {
                        let layer = written_layer(&mut r, &f, kind);
                        if let Some(slot) = vendor_layers.last_mut() {
                            *slot = layer;
                        }
                        VendorOutcome::Consumed(Box::new(*f))
                    }
                    PayloadFold::Aborted(msg) => {
                        // The walk raised at its first part: the handler still
                        // writes its (empty) file; nothing after runs.
                        if let Some(slot) = vendor_layers.last_mut() {
                            *slot = Some(empty_dict());
                        }
                        init_stage_error = Some(format!("{}: {msg}", kind.code()));
                        VendorOutcome::Consumed(Box::new(Folded {
                            config: None,
                            parts: Vec::new(),
                            filtered_out: Vec::new(),
                            warnings: Vec::new(),
                            cloud_config_txt: String::new(),
                            readable: String::new(),
                            pieces: Vec::new(),
                            file_names: Vec::new(),
                            error_file_names: Vec::new(),
                            spent: Default::default(),
                        }))
                    }
                }
            };
            if i == 0 {
                vendor = outcome;
            } else {
                vendor2 = outcome;
            }
            if init_stage_error.is_some() {
                break;
            }
        }
    }

    // 5. and 6.: what a later stage's Init and Modules read.
    let v1 = vendor_layers.first().cloned().flatten();
    let v2 = vendor_layers.get(1).cloned().flatten();
    // The init stage wrote the instance files under the cloud_dir of the
    // paths it built before consuming (Init.paths from Init.cfg); a later
    // stage's Init reads them at the default cloud_dir (its ConfigMerger gets
    // `Paths({})`), and Modules where that Init's own config puts them.
    // Where the directories differ, the files are not there to read.
    let _ = cloud_dir(&r, &boot_cfg)?;
    let written_at = cloud_dir(&r, &pre_full)?;
    let init_reads = written_at == resolve_dir("/var/lib/cloud");
    let files = [user_layer.as_ref(), v2.as_ref(), v1.as_ref()];
    let none = [None, None, None];
    let init_files = if init_reads { files } else { none };
    // A later stage's Init.read_cfg before its datasource is restored.
    let mut list = with(&[env.as_ref()]);
    list.extend(with(&init_files));
    list.push(base.clone());
    let stage_cfg = merge_many_dict(&r, &list, "merging its config (Init.cfg)")?;
    check_paths(&r, &stage_cfg)?;
    let mut list = with(&[env.as_ref()]);
    list.extend(with(&init_files));
    list.extend(with(&[ds2.as_ref()]));
    list.push(base.clone());
    let init_full = merge_many_dict(&r, &list, "merging its config (Init.cfg)")?;
    check_paths(&r, &init_full)?;
    let modules_read_at = cloud_dir(&r, &init_full)?;
    let modules_read = modules_read_at == written_at;
    let modules_files = if modules_read { files } else { none };
    let init_config = restricted(&init_full);
    let mut list = with(&[env.as_ref()]);
    list.extend(with(&modules_files));
    list.extend(with(&[ds2.as_ref()]));
    list.push(init_config.clone());
    let config = merge_many_dict(&r, &list, "merging the modules' config (Modules.cfg)")?;
    if files.iter().any(Option::is_some) && !(init_reads && modules_read) {
        let missed = match (init_reads, modules_read) {
            (false, false) => "neither a later stage's Init nor its modules read them",
            (false, true) => "a later stage's Init does not read them (its modules do)",
            _ => "the modules do not read them (a later stage's Init does)",
        };
        r.note(
            NoteKind::PathsRelocated,
            None,
            "system_info.paths",
            format!(
                "system_info.paths.cloud_dir moves the instance directory: the init stage writes cloud-config.txt and the vendor cloud-config files under {written_at}, but {missed} (Init reads {}, the modules {modules_read_at})",
                resolve_dir("/var/lib/cloud")
            ),
        );
    }
    let system_info = match init_full.as_map().and_then(|m| m.get_str("system_info")) {
        Some(s) if is_map(s) => s.clone(),
        _ => empty_dict(),
    };

    let mut flat_all = Vec::new();
    // The files count for provenance when either reader saw them.
    let read = init_reads || modules_read;
    for (layer, node) in [
        (LayerKind::CloudCfgEnv, env.as_ref()),
        (LayerKind::UserData, user_layer.as_ref().filter(|_| read)),
        (LayerKind::VendorData2, v2.as_ref().filter(|_| read)),
        (LayerKind::VendorData, v1.as_ref().filter(|_| read)),
        (LayerKind::Datasource, ds2.as_ref()),
    ] {
        if let Some(n) = node {
            flat_all.push(flat(&r, layer, n)?);
        }
    }
    flat_all.extend(flat_lower);
    if merge_specs_in_user {
        r.notes.push(super::layer_note::LayerNote {
            kind: NoteKind::Trap(Trap::UserMergeHowIgnored),
            source: None,
            about: "user-data".to_owned(),
            path: None,
            message: "user-data names merge rules (merge_how / Merge-Type): they apply between user-data parts only; cloud-init pops them before layering, where the higher layer's value wins".to_owned(),
        });
    }
    Ok(Layered {
        release: opts.release,
        config,
        init_config,
        system_info,
        sources: r.sources,
        flat: flat_all,
        user: user_fold,
        user_allowed,
        vendor,
        vendor2,
        notes: r.notes,
        init_stage_error,
        originals: r.originals,
    })
}

/// The files read from source id `first` on, as flat sources of `layer`.
fn collect_files(r: &ConfReader<'_>, first: u32, layer: LayerKind) -> Vec<FlatSource> {
    r.read
        .iter()
        .filter(|(id, _)| id.0 >= first)
        .map(|(id, data)| {
            let (data, spec) = pop_spec(data, r.release);
            FlatSource {
                layer,
                label: r
                    .sources
                    .get(*id)
                    .map_or_else(String::new, |i| i.label.clone()),
                source: Some(*id),
                data,
                spec,
            }
        })
        .collect()
}

fn pop_spec(n: &Node, release: Release) -> (Node, Option<String>) {
    let had = n.as_map().and_then(|m| {
        m.get_str("merge_how")
            .filter(|v| !v.is_null())
            .or_else(|| m.get_str("merge_type"))
            .map(|v| py_str(v).to_string_lossy().into_owned())
    });
    match extract_payload_mergers(n, version_of(release)) {
        Ok((d, _)) => (d, had),
        Err(_) => (n.clone(), had),
    }
}

fn flat(r: &ConfReader<'_>, layer: LayerKind, n: &Node) -> Result<FlatSource, LayersError> {
    let (data, spec) = pop_spec(n, r.release);
    let source =
        Some(n.span().source).filter(|s| r.sources.get(*s).is_some_and(|i| i.part.is_none()));
    let label = match source.and_then(|s| r.sources.get(s)) {
        Some(info) => info.label.clone(),
        None => layer.code().to_owned(),
    };
    Ok(FlatSource {
        layer,
        label,
        source,
        data,
        spec,
    })
}

/// `read_conf` of a file outside /etc (never templated); `None` when not given.
fn read_plain(
    r: &mut ConfReader<'_>,
    file: Option<&ConfigFile>,
    layer: LayerKind,
) -> Result<Option<Node>, LayersError> {
    let Some(file) = file else { return Ok(None) };
    let n = r.read_conf(file, layer, file.path.clone(), false)?;
    Ok(Some(n).filter(|n| n.is_truthy()))
}

/// The datasource's config object: a mapping, else ignored.
fn read_datasource(r: &mut ConfReader<'_>, file: &ConfigFile) -> Result<Option<Node>, LayersError> {
    let text = String::from_utf8_lossy(&file.bytes).into_owned();
    let label = format!("datasource config ({})", file.path);
    let id = r.sources.push(SourceInfo {
        layer: LayerKind::Datasource,
        label: label.clone(),
        text: SourceText::Text(Arc::from(text.as_str())),
        part: None,
        shift: (0, 0),
    });
    let opts = crate::yaml::LoadOptions {
        source: id,
        python_unicode_tag: r.release == Release::V22_4,
        ..crate::yaml::LoadOptions::default()
    };
    match crate::yaml::load(&text, &opts) {
        Ok(Some(n)) if is_map(&n) => Ok(Some(n).filter(Node::is_truthy)),
        Ok(_) => {
            r.note(
                NoteKind::DatasourceNotAMapping,
                Some(id),
                &label,
                "not a mapping: cloud-init ignores a datasource config that is not a dict"
                    .to_owned(),
            );
            Ok(None)
        }
        Err(e) => Err(LayersError::Unsupported(format!("{label}: not YAML: {e}"))),
    }
}

/// `Init._extract_cfg("restricted")`: the config without `system_info`.
pub(crate) fn restricted(cfg: &Node) -> Node {
    match cfg.as_map() {
        Some(m) if m.get_str("system_info").is_some() => {
            let mut entries = m.to_entries();
            entries.shift_remove(&Node::str("system_info"));
            Node::new(Value::Map(Map::new(entries)), cfg.span())
        }
        Some(_) => cfg.clone(),
        None => empty_dict(),
    }
}

/// 25.1's `Init._read_cfg` reads `system_info.paths.run_dir` with `.get`
/// calls that raise on anything but mappings; both releases then use
/// `system_info.paths` for their directories, which cloudfold does not follow.
fn check_paths(r: &ConfReader<'_>, full: &Node) -> Result<(), LayersError> {
    let si = full.as_map().and_then(|m| m.get_str("system_info"));
    if r.release == Release::V22_4 {
        // Init.paths: get_cfg_by_path(cfg, ("system_info", "paths")) tests
        // `"paths" in system_info`, then indexes it.
        let Some(si) = si else { return Ok(()) };
        let fail = |msg: String| {
            Err(r.crash(
                "reading its paths (Init.paths)",
                format!("TypeError: {msg}"),
            ))
        };
        return match si.value() {
            Value::Map(_) => Ok(()),
            Value::Str(s) if s.to_string_lossy().contains("paths") => {
                fail("string indices must be integers".to_owned())
            }
            Value::Str(_) => Ok(()),
            Value::Seq(items) | Value::Tuple(items)
                if items.iter().any(|i| i.as_str() == Some("paths")) =>
            {
                fail(format!(
                    "{} indices must be integers or slices, not str",
                    si.type_name()
                ))
            }
            Value::Seq(_) | Value::Tuple(_) => Ok(()),
            Value::Set(m) if m.get_str("paths").is_some() => {
                fail("'set' object is not subscriptable".to_owned())
            }
            Value::Set(_) => Ok(()),
            Value::Bytes(_) => fail("a bytes-like object is required, not 'str'".to_owned()),
            _ => fail(format!(
                "argument of type '{}' is not iterable",
                si.type_name()
            )),
        };
    }
    if r.release == Release::V25_1 {
        if let Some(si) = si.filter(|s| !is_map(s)) {
            return Err(r.crash(
                "reading its config (Init._read_cfg)",
                format!(
                    "AttributeError: '{}' object has no attribute 'get'",
                    si.type_name()
                ),
            ));
        }
        if let Some(p) = si
            .and_then(|s| s.as_map())
            .and_then(|m| m.get_str("paths"))
            .filter(|p| !is_map(p))
        {
            return Err(r.crash(
                "reading its config (Init._read_cfg)",
                format!(
                    "AttributeError: '{}' object has no attribute 'get'",
                    p.type_name()
                ),
            ));
        }
    }
    Ok(())
}

/// The directory `helpers.Paths(system_info.paths of full)` puts the
/// instance files in (`cloud_dir`, default `/var/lib/cloud`), resolved as the
/// kernel resolves it (lexically; relative to `/`, boot's working directory),
/// or the `TypeError` `Paths` raises joining a `cloud_dir` or `templates_dir`
/// that is not a `str`. (`Init._extract_cfg("paths")`: a `paths` that is not
/// a mapping counts as `{}`; check_paths has already raised where reaching it fails.)
fn cloud_dir(r: &ConfReader<'_>, full: &Node) -> Result<String, LayersError> {
    let paths = full
        .as_map()
        .and_then(|m| m.get_str("system_info"))
        .and_then(Node::as_map)
        .and_then(|m| m.get_str("paths"))
        .and_then(Node::as_map);
    let get = |key: &str, default: &str| -> Result<String, LayersError> {
        match paths.and_then(|p| p.get_str(key)) {
            None => Ok(default.to_owned()),
            Some(v) => match v.as_py_str() {
                Some(s) => Ok(s.to_string_lossy().into_owned()),
                None => Err(r.crash(
                    "building its paths (helpers.Paths)",
                    format!(
                        "TypeError: expected str, bytes or os.PathLike object, not {}",
                        v.type_name()
                    ),
                )),
            },
        }
    };
    get("templates_dir", "/etc/cloud/templates/")?;
    Ok(resolve_dir(&get("cloud_dir", "/var/lib/cloud")?))
}

/// A directory path as the kernel resolves it, lexically: absolute (relative
/// to `/`), no empty or `.` components, `..` removing the one before.
fn resolve_dir(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for c in path.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    format!("/{}", parts.join("/"))
}

/// `util.is_true`: `True`, or `str(value).lower().strip()` in `true 1 on yes`.
pub(crate) fn is_true(v: &Node) -> bool {
    match v.value() {
        Value::Bool(b) => *b,
        _ => {
            let s = py_str(v).to_string_lossy().into_owned();
            matches!(
                crate::python::py_strip(&crate::python::py_lower(&s)),
                "true" | "1" | "on" | "yes"
            )
        }
    }
}

/// `util.get_cfg_option_bool(cfg, key, default)`.
fn get_cfg_option_bool(cfg: &Node, key: &str, default: bool) -> bool {
    match cfg.as_map().and_then(|m| m.get_str(key)) {
        None => default,
        Some(v) if !v.is_truthy() => false,
        Some(v) => is_true(v),
    }
}

/// `_consume_vendordata`'s reading of the `vendor_data` setting: enabled,
/// the excluded content types, and the source that decided.
fn vendor_setting(
    r: &mut ConfReader<'_>,
    name: &str,
    setting: Option<&Node>,
) -> (bool, ExcludedTypes, Option<SourceId>) {
    let Some(v) = setting else {
        // `.get(cfg_name, {})`: no `enabled`, so not consumed.
        return (false, ExcludedTypes::Nothing, None);
    };
    let Some(m) = v.as_map() else {
        r.note(
            NoteKind::VendorSettingInvalid,
            Some(v.span().source),
            name,
            format!("invalid {name} setting. resetting to: {{'enabled': False}}"),
        );
        return (false, ExcludedTypes::Nothing, Some(v.span().source));
    };
    let enabled = m.get_str("enabled");
    let decided_by = enabled.map_or(Some(v.span().source), |e| Some(e.span().source));
    let on = enabled.is_some_and(is_true);
    if on
        && enabled.is_some_and(|e| matches!(e.value(), Value::Str(_)))
        && r.release == Release::V25_1
    {
        r.note(
            NoteKind::VendorEnabledString,
            decided_by,
            name,
            format!("Use of string for '{name}:enabled' field is deprecated; use a boolean"),
        );
    }
    (
        on,
        ExcludedTypes::from_setting(m.get_str("disabled_handlers")),
        decided_by,
    )
}

/// `read_cc_from_cmdline`: every `cc:` … `end_cc` span, URL-unquoted, with
/// `\n` (backslash, n) turned into newlines, joined by newlines.
pub fn read_cc_from_cmdline(cmdline: &str) -> String {
    const BEGIN: &str = "cc:";
    const END: &str = "end_cc";
    let mut tokens = Vec::new();
    let mut begin = cmdline.find(BEGIN);
    while let Some(b) = begin {
        let from = b + BEGIN.len();
        let end = cmdline
            .get(from..)
            .and_then(|s| s.find(END))
            .map_or(cmdline.len(), |e| from + e);
        let body = cmdline.get(from..end).unwrap_or("");
        tokens.push(
            unquote(body.trim_start_matches(crate::python::py_is_space)).replace("\\n", "\n"),
        );
        let next = end + END.len();
        begin = cmdline
            .get(next..)
            .and_then(|s| s.find(BEGIN))
            .map(|i| next + i);
    }
    tokens.join("\n")
}

/// `urllib.parse.unquote`: `%XX` runs decoded as UTF-8 (invalid bytes replaced).
fn unquote(s: &str) -> String {
    if !s.contains('%') {
        return s.to_owned();
    }
    let bytes = s.as_bytes();
    let mut out = String::new();
    let mut run: Vec<u8> = Vec::new();
    let mut i = 0;
    let hex = |b: u8| (b as char).to_digit(16);
    while i < bytes.len() {
        let pct = bytes.get(i) == Some(&b'%');
        let pair = (
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        );
        if let (true, (Some(h), Some(l))) = (pct, pair) {
            run.push(u8::try_from(h * 16 + l).unwrap_or(0));
            i += 3;
            continue;
        }
        if !run.is_empty() {
            out.push_str(&String::from_utf8_lossy(&run));
            run.clear();
        }
        let ch_len = s
            .get(i..)
            .and_then(|t| t.chars().next())
            .map_or(1, char::len_utf8);
        out.push_str(s.get(i..i + ch_len).unwrap_or(""));
        i += ch_len;
    }
    if !run.is_empty() {
        out.push_str(&String::from_utf8_lossy(&run));
    }
    out
}

/// A payload folded for a layer.
enum PayloadFold {
    /// Folded; whether any part named merge rules.
    Folded(Box<Folded>, bool),
    /// cloud-init stops: the message.
    Aborted(String),
}

/// Records whether any cloud-config part names merge rules of its own.
#[derive(Default)]
struct SpecWatch {
    named: bool,
    /// Each part's data (its values' identity tells read values from built ones).
    data: Vec<Node>,
}

impl MergeObserver for SpecWatch {
    fn enabled(&self) -> bool {
        false
    }

    fn event(&mut self, _event: &MergeEvent<'_>) {}
}

impl FoldObserver for SpecWatch {
    fn part_data(&mut self, _source: SourceId, data: &Node) {
        self.data.push(data.clone());
    }

    fn part_mergers(&mut self, _source: SourceId, mergers: &MergerStack) {
        if *mergers != MergerStack::handler_default() {
            self.named = true;
        }
    }
}

fn fold_payload(
    r: &mut ConfReader<'_>,
    payload: &[u8],
    kind: LayerKind,
    base: &UserDataOptions,
    excluded: ExcludedTypes,
    includes: &dyn IncludeResolver,
) -> Result<PayloadFold, LayersError> {
    let first = r.sources.next_id();
    let opts = UserDataOptions {
        first_source: first.0,
        excluded,
        ..base.clone()
    };
    let mut watch = SpecWatch::default();
    let folded = match render_observed(payload, &opts, includes, &mut watch) {
        Ok(f) => f,
        Err(error @ RenderError::Dump(_)) => {
            return Err(LayersError::Payload {
                which: kind.code(),
                error: Box::new(error),
            });
        }
        Err(error) if error.is_limit() => {
            return Err(LayersError::Payload {
                which: kind.code(),
                error: Box::new(error),
            });
        }
        Err(e) => return Ok(PayloadFold::Aborted(e.to_string())),
    };
    let name = match kind {
        LayerKind::VendorData => "vendor-data",
        LayerKind::VendorData2 => "vendor-data2",
        _ => "user-data",
    };
    for p in &folded.parts {
        // A name of cloud-init's own making (`part-001`) says nothing more.
        let own = |f: &str| {
            f.strip_prefix("part-")
                .is_some_and(|n| n.len() == 3 && n.bytes().all(|b| b.is_ascii_digit()))
        };
        let label = match p
            .leaf
            .filename
            .as_deref()
            .filter(|f| !f.is_empty() && !own(f))
        {
            Some(f) => format!("{name} part {} ({f})", p.number),
            None => format!("{name} part {}", p.number),
        };
        let shift = if p.content_type() == "text/cloud-config-jsonp" {
            crate::explain::jsonp_shift(&crate::explain::part_text(&p.leaf.payload()))
        } else {
            (0, 0)
        };
        let id = r.sources.push(SourceInfo {
            layer: kind,
            label,
            text: SourceText::Part(Arc::clone(&p.leaf)),
            part: Some(p.number),
            shift,
        });
        debug_assert_eq!(id, p.source);
    }
    r.originals.extend(watch.data);
    Ok(PayloadFold::Folded(Box::new(folded), watch.named))
}

/// The layer a fold writes: `cloud-config.txt` as `read_conf` reads it back
/// (PyYAML's dump sorts every mapping's keys; an empty file is `{}`, a
/// non-mapping `{}` with a warning). Values keep the spans of the parts they
/// came from wherever the file holds them unchanged.
fn written_layer(r: &mut ConfReader<'_>, f: &Folded, kind: LayerKind) -> Option<Node> {
    let label = format!("{} cloud-config.txt", kind.code());
    let id = r.sources.push(SourceInfo {
        layer: kind,
        label: label.clone(),
        text: SourceText::Text(Arc::from(f.cloud_config_txt.as_str())),
        part: None,
        shift: (0, 0),
    });
    let reloaded = match r.load_yaml(&f.cloud_config_txt, id, &label) {
        Ok(Some(n)) => n,
        // An exception cloud-init's loader does not catch is logged by
        // ConfigMerger ("Failed loading of cloud-config"): no layer.
        Ok(None) | Err(_) => return Some(empty_dict()),
    };
    Some(match &f.config {
        Some(orig) => respan(&reloaded, orig, &mut std::collections::HashMap::new()),
        None => reloaded,
    })
}

/// `reloaded` with the nodes of `orig` wherever they hold the same value
/// (keys matched by Python equality, items by position): spans and identity
/// of the parts' values survive the trip through the file.
fn respan(reloaded: &Node, orig: &Node, memo: &mut std::collections::HashMap<usize, Node>) -> Node {
    if let Some(done) = memo.get(&reloaded.id()) {
        return done.clone();
    }
    let out = match (reloaded.value(), orig.value()) {
        (Value::Map(rm), Value::Map(om)) => {
            let mut entries = crate::yaml::value::Entries::with_capacity(rm.len());
            for (k, v) in rm.iter() {
                let (key, value) = match om.get_key_value(k) {
                    Some((ok, ov)) if same_leaf(k, ok) => (ok.clone(), respan(v, ov, memo)),
                    Some((_, ov)) => (k.clone(), respan(v, ov, memo)),
                    None => (k.clone(), v.clone()),
                };
                crate::yaml::value::insert(&mut entries, key, value);
            }
            Node::new(Value::Map(Map::new(entries)), orig.span())
        }
        (Value::Seq(rs), Value::Seq(os)) if rs.len() == os.len() => {
            let items = rs
                .iter()
                .zip(os.iter())
                .map(|(a, b)| respan(a, b, memo))
                .collect();
            Node::new(Value::Seq(crate::yaml::value::Seq::new(items)), orig.span())
        }
        _ if same_leaf(reloaded, orig) => orig.clone(),
        _ => reloaded.clone(),
    };
    memo.insert(reloaded.id(), out.clone());
    out
}

/// Same type and equal, for a non-container.
fn same_leaf(a: &Node, b: &Node) -> bool {
    let leaf = |n: &Node| {
        !matches!(
            n.value(),
            Value::Map(_) | Value::Seq(_) | Value::Tuple(_) | Value::Set(_)
        )
    };
    leaf(a) && leaf(b) && a.type_name() == b.type_name() && crate::yaml::value::py_eq(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cmdline_tokens() {
        assert_eq!(
            read_cc_from_cmdline("ro cc: a: 1 end_cc x cc:b: %5B2%5D end_cc"),
            "a: 1 \nb: [2] "
        );
        assert_eq!(
            read_cc_from_cmdline("cc: runcmd: [x]\\nb: 1"),
            "runcmd: [x]\nb: 1"
        );
        assert_eq!(read_cc_from_cmdline("quiet"), "");
    }
}
