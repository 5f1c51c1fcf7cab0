//! `ConfigTemplater`: the seam through which a `## template: jinja` config file is rendered with instance data.

/// What rendering a config file with the instance data gave, in the terms
/// of cloud-init's `render_jinja_payload_from_file` (what `util.read_conf`
/// then does with each differs between releases, see `super::read_conf`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateOutcome {
    /// Not a jinja template (`NotJinjaError`): the text is loaded as it is.
    NotJinja,
    /// The rendered text (header line removed).
    Rendered(String),
    /// Rendering gave nothing: a `TypeError` or undefined-variable error
    /// ("Ignoring jinja template for …"), or an empty result.
    Nothing(String),
    /// A jinja syntax error (cloud-init's message).
    Syntax(String),
    /// The instance data could not be loaded (`JinjaLoadError`).
    LoadFailed(String),
    /// `## template: X` with X neither `jinja` nor `basic` (`ValueError`).
    UnknownType(String),
    /// Another exception escapes the render: nobody catches it.
    Raised(String),
    /// cloudfold cannot reproduce this render (or a template limit): an error, never a guess.
    Unsupported(String),
}

/// Renders templated config files with one instance's data. Only called
/// when the instance-data file exists (`--instance-data`): without it
/// cloud-init loads every file as it is.
pub trait ConfigTemplater {
    /// Render `text` (the whole file, header line included) as
    /// `render_jinja_payload_from_file(text, file, instance_data_file)` does.
    fn render(&self, text: &str, file: &str) -> TemplateOutcome;
}

/// `templater.detect_template`'s verdict on the first line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateKind {
    /// No `## template:` line, or `## template: basic`.
    Plain,
    /// `## template: jinja` (any case, any spacing): the rest of the text after the first line.
    Jinja,
    /// Another type: cloud-init raises `ValueError`.
    Unknown(String),
}

/// Classify a text by its first line, as `detect_template` does.
pub fn template_kind(text: &str) -> TemplateKind {
    match crate::jinja::detect_template(text).0.as_deref() {
        None | Some("basic") => TemplateKind::Plain,
        Some("jinja") => TemplateKind::Jinja,
        Some(other) => TemplateKind::Unknown(other.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_line_decides() {
        assert_eq!(
            template_kind("## template: jinja\na: 1\n"),
            TemplateKind::Jinja
        );
        assert_eq!(
            template_kind("##Template:JINJA \r\na: 1"),
            TemplateKind::Jinja
        );
        assert_eq!(template_kind("## template: basic\n"), TemplateKind::Plain);
        assert_eq!(template_kind("# template: jinja\n"), TemplateKind::Plain);
        assert_eq!(
            template_kind("a: 1\n## template: jinja\n"),
            TemplateKind::Plain
        );
        assert_eq!(
            template_kind("## template: mustache\n"),
            TemplateKind::Unknown("mustache".to_owned())
        );
    }
}
