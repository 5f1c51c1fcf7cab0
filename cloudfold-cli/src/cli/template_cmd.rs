//! `cloudfold template` (= `cloud-init devel render`) and `cloudfold query` (= `cloud-init query`): messages and exit codes as cloud-init's.

use super::args::{QueryArgs, TemplateArgs};
use super::exit::{Exit, Failure};
use cloudfold::jinja::{
    Engine, InstanceData, JinjaContext, JinjaDrop, JinjaLimits, JinjaRender, cloud_init_logs,
    find_var, list_keys, query_text, render_part,
};
use cloudfold::userdata::Release;

/// cloud-init's CLI log line (`LEVEL: message`, as its stderr handler writes it).
fn log(level: &str, msg: &str) {
    eprintln!("{level}: {msg}");
}

/// `cloud-init devel render USER_DATA -i INSTANCE_DATA`.
pub(super) fn run_template(a: &TemplateArgs) -> Result<Exit, Failure> {
    let release: Release = a.cloud_init.parse()?;
    let data = match std::fs::read(&a.instance_data) {
        Err(_) => {
            log(
                "ERROR",
                &format!(
                    "Missing instance-data.json file: {}",
                    a.instance_data.display()
                ),
            );
            return Ok(Exit::Aborted);
        }
        Ok(bytes) => match InstanceData::from_json(&bytes) {
            Ok(d) => d,
            Err(e) => {
                log(
                    "ERROR",
                    "Cannot render from instance data due to exception: JinjaLoadError('Loading Jinja instance data failed')",
                );
                eprintln!("cloudfold: {e}");
                return Ok(Exit::Aborted);
            }
        },
    };
    // `open(path).read()`: text mode, universal newlines.
    let text = match std::fs::read(&a.user_data) {
        Ok(b) => String::from_utf8_lossy(&b)
            .replace("\r\n", "\n")
            .replace('\r', "\n"),
        Err(_) => {
            log(
                "ERROR",
                &format!("Missing user-data file: {}", a.user_data.display()),
            );
            return Ok(Exit::Aborted);
        }
    };
    let engine = Engine::new(
        release.jinja(),
        JinjaLimits {
            max_steps: a.max_template_steps,
            max_depth: a.max_template_depth,
            max_output: a.max_template_output,
        },
    );
    let ctx = JinjaContext {
        data: Some(&data),
        v25: release == Release::V25_1,
        engine: &engine,
        line_maps: false,
    };
    let name = a.user_data.display().to_string();
    let r = render_part(&text, &ctx);
    if let JinjaRender::Dropped {
        why: JinjaDrop::NoSubHandler(_),
        missing,
    } = &r
    {
        // devel render prints the render whatever its first line.
        warn_missing(missing, &name);
        return emit(&rendered_text(&text, &ctx), true);
    }
    render_result(&r, &name, release, true)
}

/// Report a render the way `devel render` (`allow_any_type`) or `query
/// --format` does; print the text on success.
fn render_result(
    r: &JinjaRender,
    name: &str,
    release: Release,
    devel: bool,
) -> Result<Exit, Failure> {
    let v25 = release == Release::V25_1;
    match r {
        JinjaRender::Rendered { text, missing, .. } => {
            warn_missing(missing, name);
            emit(text, devel)
        }
        JinjaRender::Dropped { why, missing } => {
            match why {
                JinjaDrop::NotJinja => {
                    log(
                        "ERROR",
                        "Cannot render from instance data due to exception: NotJinjaError('Payload is not a jinja template')",
                    );
                }
                JinjaDrop::Syntax { .. } if v25 => {
                    let line = cloud_init_logs(r, name, true)
                        .into_iter()
                        .last()
                        .map(|l| l.message)
                        .unwrap_or_default();
                    let detail = line
                        .split_once("Failed to render template. ")
                        .map_or(line.as_str(), |x| x.1)
                        .to_owned();
                    if devel {
                        log(
                            "ERROR",
                            &format!(
                                "Failed to render templated user-data file '{name}'. {detail}"
                            ),
                        );
                    } else {
                        log(
                            "ERROR",
                            &format!("Failed to render templated data. {detail}"),
                        );
                    }
                }
                JinjaDrop::Ignored(msg) => {
                    log(
                        "WARNING",
                        &format!("Ignoring jinja template for {name}: {msg}"),
                    );
                    if devel {
                        log("ERROR", &format!("Unable to render user-data file: {name}"));
                    }
                }
                JinjaDrop::Empty => {
                    warn_missing(missing, name);
                    if devel {
                        log("ERROR", &format!("Unable to render user-data file: {name}"));
                    }
                }
                other => {
                    // cloud-init ends in a traceback here.
                    log(
                        "ERROR",
                        &format!("cloud-init raises (a traceback): {}", other.describe()),
                    );
                }
            }
            Ok(Exit::Aborted)
        }
        JinjaRender::Unsupported(m) => {
            eprintln!("error: cloudfold cannot reproduce this template's result exactly: {m}");
            Ok(Exit::Aborted)
        }
        JinjaRender::Limit(m) => {
            eprintln!("error: {m}");
            Ok(Exit::Limit)
        }
    }
}

fn warn_missing(missing: &[String], name: &str) {
    if !missing.is_empty() {
        log(
            "WARNING",
            &format!(
                "Could not render jinja template variables in file '{name}': {}",
                missing
                    .iter()
                    .map(|m| format!("'{m}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
}

fn emit(text: &str, devel: bool) -> Result<Exit, Failure> {
    let out = if devel {
        text.to_owned()
    } else {
        format!("{text}\n")
    };
    super::stdout::write_stdout(out.as_bytes())?;
    Ok(Exit::Ok)
}

fn read_userdata(p: Option<&std::path::Path>) -> Option<String> {
    // `load_userdata`: UTF-8, else gunzipped; an absent file reads as "".
    let Some(p) = p else {
        return Some(String::new());
    };
    let bytes = std::fs::read(p).unwrap_or_default();
    match String::from_utf8(bytes.clone()) {
        Ok(s) => Some(s),
        Err(_) => cloudfold::userdata::gunzip(&bytes, u64::MAX)
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned()),
    }
}

/// `cloud-init query -i INSTANCE_DATA [VARNAME | --format | --list-keys | --all]`.
pub(super) fn run_query(a: &QueryArgs) -> Result<Exit, Failure> {
    let release: Release = a.cloud_init.parse()?;
    if !(a.list_keys || a.varname.is_some() || a.format.is_some() || a.dump_all) {
        log(
            "ERROR",
            "Expected one of the options: --all, --format, --list-keys or varname",
        );
        return Ok(Exit::Aborted);
    }
    let bytes = match std::fs::read(&a.instance_data) {
        Ok(b) => b,
        Err(_) => {
            log(
                "ERROR",
                &format!("Missing instance-data file: {}", a.instance_data.display()),
            );
            return Ok(Exit::Aborted);
        }
    };
    let data = InstanceData::from_json(&bytes)
        .map_err(|e| format!("--instance-data: {e} (cloud-init raises here)"))?;
    // 22.4 reads /var/lib/cloud/instance/{user,vendor}-data.txt with
    // `load_file` (not quiet): absent, `query` exits 1 without a word.
    if release == Release::V22_4
        && (a.user_data.as_ref().is_none_or(|p| !p.exists())
            || a.vendor_data.as_ref().is_none_or(|p| !p.exists()))
    {
        eprintln!(
            "cloudfold: cloud-init 22.4's query fails (exit 1, no message) without a readable user-data and vendor-data file: give --user-data FILE and --vendor-data FILE"
        );
        return Ok(Exit::Aborted);
    }
    let mut extra = vec![
        ("userdata", read_userdata(a.user_data.as_deref())),
        ("vendordata", read_userdata(a.vendor_data.as_deref())),
    ];
    if release == Release::V25_1 {
        extra.push(("combined_cloud_config", None));
    }
    if let Some(fmt) = &a.format {
        // The payload is "## template: jinja\n" + fmt, rendered with the
        // query's instance data (its extra keys included).
        let with_keys =
            InstanceData::from_node(query_node(&data, &extra)).map_err(|e| e.to_string())?;
        let engine = Engine::new(release.jinja(), JinjaLimits::default());
        let ctx = JinjaContext {
            data: Some(&with_keys),
            v25: release == Release::V25_1,
            engine: &engine,
            line_maps: false,
        };
        let name = if release == Release::V25_1 {
            "query command line"
        } else {
            "query commandline"
        };
        let payload = format!("## template: jinja\n{fmt}");
        let r = render_part(&payload, &ctx);
        return match &r {
            JinjaRender::Rendered { text, missing, .. } => {
                warn_missing(missing, name);
                emit(text, false)
            }
            JinjaRender::Dropped {
                why: JinjaDrop::NoSubHandler(_),
                missing,
            } => {
                warn_missing(missing, name);
                // query prints any non-empty render.
                let text = rendered_text(&payload, &ctx);
                emit(&text, false)
            }
            _ => render_result(&r, name, release, false),
        };
    }
    let (plain, aliased) = data.with_query_keys(&extra);
    let mut response = plain;
    if let Some(v) = &a.varname {
        match find_var(&response, &aliased, v) {
            Ok(r) => response = r,
            Err(e) => {
                log("ERROR", &e.to_string());
                return Ok(Exit::Aborted);
            }
        }
    }
    let text = if a.list_keys {
        match list_keys(&response) {
            Some(t) => t,
            None => {
                log(
                    "ERROR",
                    &format!(
                        "--list-keys provided but '{}' is not a dict",
                        a.varname.as_deref().unwrap_or("None")
                    ),
                );
                return Ok(Exit::Aborted);
            }
        }
    } else {
        query_text(&response).map_err(|e| e.to_string())?
    };
    super::stdout::write_stdout(format!("{text}\n").as_bytes())?;
    Ok(Exit::Ok)
}

fn query_node(data: &InstanceData, extra: &[(&str, Option<String>)]) -> cloudfold::yaml::Node {
    use cloudfold::yaml::{Map, Node, Value};
    let mut entries = data.raw().as_map().map(Map::to_entries).unwrap_or_default();
    for (k, v) in extra {
        let value = match v {
            Some(t) => Node::str(t),
            None => Node::synthetic(Value::Null),
        };
        cloudfold::yaml::insert(&mut entries, Node::str(k), value);
    }
    Node::synthetic(Value::Map(Map::new(entries)))
}

fn rendered_text(payload: &str, ctx: &JinjaContext<'_>) -> String {
    let (_, content) = cloudfold::jinja::detect_template(payload);
    let (body, add) = cloudfold::jinja::template_body(content);
    let data = ctx.data.map(|d| d.vars().clone()).unwrap_or_default();
    let mut t = ctx.engine.render(&body, &data).unwrap_or_default();
    if add {
        t.push('\n');
    }
    t
}
