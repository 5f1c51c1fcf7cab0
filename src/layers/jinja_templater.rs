//! `JinjaTemplater`: templated `/etc/cloud` files rendered with the instance data by cloudfold's jinja engine.

use super::config_templater::{ConfigTemplater, TemplateOutcome};
use crate::jinja::{
    Engine, InstanceData, JinjaLimits, RenderError, RenderFault, detect_template, template_body,
};
use crate::userdata::Release;

/// Renders a config file as `render_jinja_payload_from_file` does, with one
/// instance's data and the release's Jinja2.
pub struct JinjaTemplater<'a> {
    data: &'a InstanceData,
    engine: Engine,
}

impl std::fmt::Debug for JinjaTemplater<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JinjaTemplater").finish_non_exhaustive()
    }
}

impl<'a> JinjaTemplater<'a> {
    /// A templater for `release` with `data`, bounded by `limits`.
    pub fn new(release: Release, data: &'a InstanceData, limits: JinjaLimits) -> Self {
        JinjaTemplater {
            data,
            engine: Engine::new(release.jinja(), limits),
        }
    }
}

impl ConfigTemplater for JinjaTemplater<'_> {
    fn render(&self, text: &str, _file: &str) -> TemplateOutcome {
        let (kind, content) = detect_template(text);
        match kind.as_deref() {
            Some("jinja") => {}
            Some("basic") | None => return TemplateOutcome::NotJinja,
            Some(other) => return TemplateOutcome::UnknownType(other.to_owned()),
        }
        // jinja_render: the body after the header, `"\n"` added back when it
        // ended with one.
        let (body, add) = template_body(content);
        match self.engine.render(&body, self.data.vars()) {
            Ok(mut out) => {
                if add {
                    out.push('\n');
                }
                if out.is_empty() {
                    TemplateOutcome::Nothing("the template renders to an empty text".to_owned())
                } else {
                    TemplateOutcome::Rendered(out)
                }
            }
            Err(RenderError::Syntax { message, line }) => {
                TemplateOutcome::Syntax(format!("{message} on line {}", line + 1))
            }
            Err(RenderError::Fault(RenderFault::Py(exc, msg))) if exc.caught_by_cloud_init() => {
                TemplateOutcome::Nothing(format!("{}: {msg}", exc.name()))
            }
            Err(RenderError::Fault(RenderFault::Py(exc, msg))) => {
                TemplateOutcome::Raised(format!("{}: {msg}", exc.name()))
            }
            Err(RenderError::Fault(RenderFault::Unsupported(m))) => TemplateOutcome::Unsupported(m),
            Err(RenderError::Limit(m)) => TemplateOutcome::Unsupported(m),
        }
    }
}
