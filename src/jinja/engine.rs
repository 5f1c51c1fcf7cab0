//! `Engine`: MiniJinja configured to be Jinja2 3.1 as cloud-init calls it (`trim_blocks`, `do`, no loop controls).

use super::JinjaVersion;
use super::py_error::{FaultScope, PyExc, RenderFault, py_err, raise, unsupported};
use super::py_format::py_str;
use super::py_object::{Missing, PyDict, PyRange};
use minijinja::value::{Object, ObjectRepr, Rest, Value, ValueOrKwargs};
use minijinja::{Environment, Error, ErrorKind, State};
use std::sync::Arc;

/// Jinja2's default globals.
pub const GLOBALS: [&str; 6] = ["range", "dict", "lipsum", "cycler", "joiner", "namespace"];

/// Bounds on one render (Jinja2 has none; a hostile template would run
/// forever or fill memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JinjaLimits {
    /// MiniJinja fuel: instructions executed, roughly. `--max-template-steps`.
    pub max_steps: u64,
    /// Nesting of macro calls, includes and expressions. `--max-template-depth`.
    pub max_depth: usize,
    /// Bytes one render may produce. `--max-template-output`.
    pub max_output: usize,
}

impl Default for JinjaLimits {
    fn default() -> Self {
        JinjaLimits {
            max_steps: 5_000_000,
            max_depth: 200,
            max_output: 64 << 20,
        }
    }
}

/// Why a render did not produce text.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RenderError {
    /// `TemplateSyntaxError` (or `TemplateAssertionError`): Jinja2's message
    /// as cloudfold words it, and the 1-based line in the template text.
    Syntax {
        /// The message.
        message: String,
        /// Line in the rendered text (header not counted).
        line: usize,
    },
    /// An exception while rendering, or something cloudfold cannot reproduce.
    Fault(RenderFault),
    /// One of cloudfold's limits.
    Limit(String),
}

/// The configured environment for one Jinja2 version.
pub struct Engine {
    env: Environment<'static>,
    limits: JinjaLimits,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// The template context: the converted instance data; a name it lacks is a
/// [`Missing`] (unless a global has it).
#[derive(Debug)]
struct Root(Value);

impl Object for Root {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Plain
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        self.get_value_by_str(key.as_str()?)
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        if let Some(d) = self.0.downcast_object_ref::<PyDict>()
            && let Some(v) = d.get_str(key)
        {
            return Some(v.clone());
        }
        if GLOBALS.contains(&key) || key == COND_UNDEFINED {
            return None;
        }
        Some(Missing::name(key))
    }
}

fn py_range(args: &[Value]) -> Result<Value, Error> {
    let a = super::args::Args::new("range", args);
    if args.iter().any(Value::is_kwargs) {
        return py_err(PyExc::TypeError, "range() takes no keyword arguments");
    }
    let mut ints = Vec::new();
    for v in args {
        match super::py_ops::as_int(v).and_then(|i| i64::try_from(i).ok()) {
            Some(i) => ints.push(i),
            None => {
                if let Some(m) = Missing::of(v) {
                    return py_err(PyExc::UndefinedError, m.message());
                }
                return py_err(
                    PyExc::TypeError,
                    format!(
                        "'{}' object cannot be interpreted as an integer",
                        super::py_ops::type_name(v)
                    ),
                );
            }
        }
    }
    let (start, stop, step) = match ints.as_slice() {
        [stop] => (0, *stop, 1),
        [start, stop] => (*start, *stop, 1),
        [start, stop, step] => (*start, *stop, *step),
        [] => {
            return py_err(
                PyExc::TypeError,
                "range expected at least 1 argument, got 0",
            );
        }
        _ => {
            return py_err(
                PyExc::TypeError,
                format!("range expected at most 3 arguments, got {}", a.len()),
            );
        }
    };
    if step == 0 {
        return py_err(PyExc::ValueError, "range() arg 3 must not be zero");
    }
    Ok(Value::from_object(PyRange { start, stop, step }))
}

fn py_dict(args: &[Value]) -> Result<Value, Error> {
    let mut pairs = Vec::new();
    for v in args {
        if v.is_kwargs() {
            pairs.extend(super::py_ops::pairs(v));
        } else {
            return unsupported("dict() with positional arguments");
        }
    }
    Ok(PyDict::from_pairs(pairs).into_value())
}

/// `lipsum(n=5, html=True, min=20, max=100)`: Jinja2 draws the words at
/// random (different on every boot), so no text can equal cloud-init's;
/// cloudfold writes `n` paragraphs of `min` fixed words in Jinja2's form
/// (capitalised, ending in `.`, each in `<p>…</p>` or blank-line separated).
fn lipsum(args: &[Value]) -> Result<Value, Error> {
    const WORDS: [&str; 8] = [
        "lorem",
        "ipsum",
        "dolor",
        "sit",
        "amet",
        "consectetur",
        "adipiscing",
        "elit",
    ];
    let v = super::args::Args::new("generate_lorem_ipsum", args).bind(&[
        ("n", false),
        ("html", false),
        ("min", false),
        ("max", false),
    ])?;
    let int = |i: usize, default: i128| -> Result<i128, Error> {
        match v.get(i).cloned().flatten() {
            None => Ok(default),
            Some(x) => super::py_ops::as_int(&x).map_or_else(
                || {
                    py_err(
                        PyExc::TypeError,
                        format!(
                            "'{}' object cannot be interpreted as an integer",
                            super::py_ops::type_name(&x)
                        ),
                    )
                },
                Ok,
            ),
        }
    };
    let (n, min, max) = (int(0, 5)?, int(2, 20)?, int(3, 100)?);
    let html = v.get(1).cloned().flatten().is_none_or(|h| h.is_true());
    if n > 0 && min >= max {
        return py_err(
            PyExc::ValueError,
            format!("empty range for randrange() ({min}, {max}, {})", max - min),
        );
    }
    if n > 10_000 || min > 10_000 {
        return unsupported("lipsum() of more than 10,000 paragraphs or words (cloudfold's limit)");
    }
    let words = usize::try_from(min.max(1)).unwrap_or(1);
    let mut text: String = WORDS
        .iter()
        .cycle()
        .take(words)
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    text = crate::python::py_capitalize(&text) + ".";
    let paragraphs = vec![text; usize::try_from(n.max(0)).unwrap_or(0)];
    Ok(if html {
        Value::from_safe_string(
            paragraphs
                .iter()
                .map(|p| format!("<p>{p}</p>"))
                .collect::<Vec<_>>()
                .join("\n"),
        )
    } else {
        Value::from(paragraphs.join("\n\n"))
    })
}

/// A `do` tag's start (`{% do`, `{%- do`).
static DO_RE: std::sync::LazyLock<Option<regex::Regex>> =
    std::sync::LazyLock::new(|| regex::Regex::new(r"(\{%[-+]?\s*)do\b").ok());

/// The most items of a print tag's tuple `compile` joins: the joined
/// expression nests one level per item (MiniJinja's compiler and its drop
/// recurse on it). A longer one keeps MiniJinja's error at its first `,`.
const MAX_PRINT_TUPLE: usize = 100;

/// What `compile` writes for a `do` (after the tag's opening).
const DO_AS_SET: &str = "${1}set __cloudfold_do =";

/// The character position Jinja2's lexer gives the byte offset `at` of the
/// compiled source: the characters `compile`'s `do` rewrite added before it
/// are not in Jinja2's text.
fn jinja2_char_pos(src: &str, at: usize) -> usize {
    let before = src.get(..at).unwrap_or_default();
    let added = "set __cloudfold_do =".len() - "do".len();
    before
        .chars()
        .count()
        .saturating_sub(added * before.matches("set __cloudfold_do =").count())
}

/// Whether `e` is MiniJinja's parser stopping at a `,` in a print tag, where
/// Jinja2's `parse_tuple` reads on (`{{ a, b }}` prints the tuple `(a, b)`).
fn print_comma(e: &Error, src: &str) -> bool {
    e.detail() == Some("unexpected `,`, expected end of variable block")
        && e.range().and_then(|r| src.get(r)) == Some(",")
}

/// `src` with each print tag's top-level `,` written `~` (a space before the
/// tag's end: Jinja2 allows a trailing `,`) and the item's leading `not`s
/// written as unary `-`s (`a ~ not b` does not parse): the same syntax at the
/// same offsets, one expression for MiniJinja. With the spans of the tags
/// holding such a comma.
/// None for a tag of more than [`MAX_PRINT_TUPLE`] items.
fn tuples_joined(src: &str) -> Option<(String, Vec<(usize, usize)>)> {
    use super::bracket_balance::InPrint;
    // Only ASCII is written over ASCII: the bytes stay UTF-8.
    let mut out = src.as_bytes().to_vec();
    let mut spans = Vec::new();
    let mut in_tag = 0;
    for x in super::bracket_balance::in_prints(src) {
        let at = match x {
            InPrint::Span(s, e) => {
                if in_tag > 0 {
                    spans.push((s, e));
                }
                in_tag = 0;
                continue;
            }
            InPrint::Comma(at) => at,
        };
        in_tag += 1;
        if in_tag >= MAX_PRINT_TUPLE {
            return None;
        }
        let rest = src.get(at + 1..).unwrap_or_default().trim_start();
        let trailing = ["}}", "-}}", "+}}"].iter().any(|end| rest.starts_with(end));
        if let Some(c) = out.get_mut(at) {
            *c = if trailing { b' ' } else { b'~' };
        }
        let mut n = at + 1;
        loop {
            let tail = src.get(n..).unwrap_or_default();
            let rest = tail.trim_start();
            // `not` ends where a name cannot go on. Jinja2's name rule is its own
            // `_identifier` table and MiniJinja's is XID_Continue; neither is a
            // Python str predicate, and both agree with this one on ASCII.
            let not = rest
                .strip_prefix("not")
                .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_'));
            if !not {
                break;
            }
            n += tail.len() - rest.len();
            if let Some(w) = out.get_mut(n..n + 3) {
                w.copy_from_slice(b"-  ");
            }
            n += 3;
        }
    }
    Some((String::from_utf8(out).ok()?, spans))
}

impl Engine {
    /// Compile `content`. MiniJinja's `{% do %}` takes only a call; Jinja2's any
    /// expression (evaluated, the value dropped). When MiniJinja refuses one, the
    /// template is compiled again with every `do` written as a `set` of an unused
    /// name (the same evaluation; lines unchanged). A print tag holding a tuple
    /// (`{{ a, b }}`: MiniJinja's parser ends the tag at the `,`) is compiled
    /// with its expression in parentheses, once the template compiles with
    /// the tuples' commas joined (`tuples_joined`); else that error is
    /// returned: the one Jinja2, reading on, meets. The rewritten source is
    /// kept in `slot` and returned with the result.
    fn compile<'a>(
        &'a self,
        content: &'a str,
        slot: &'a mut Option<String>,
    ) -> (&'a str, Result<minijinja::Template<'a, 'a>, Error>) {
        let mut e = match self.env.template_from_str(content) {
            Ok(t) => return (content, Ok(t)),
            Err(e) => e,
        };
        let wants_do = |e: &Error| {
            e.detail()
                .is_some_and(|d| d.starts_with("expected call expression"))
        };
        let mut base = content.to_owned();
        let mut do_done = false;
        // The `do`s rewritten at most once, the tuples joined at most twice.
        for _ in 0..3 {
            if wants_do(&e)
                && !do_done
                && let Some(re) = DO_RE.as_ref()
            {
                do_done = true;
                base = re.replace_all(content, DO_AS_SET).into_owned();
                match self.env.template_from_str(&base) {
                    Ok(_) => break,
                    Err(again) => e = again,
                }
                continue;
            }
            if !print_comma(&e, &base) {
                break;
            }
            let Some((joined, spans)) = tuples_joined(&base) else {
                break;
            };
            match self.env.template_from_str(&joined) {
                Ok(_) => {
                    // Jinja2 reads each such tag as a tuple: parenthesise its expression.
                    let mut wrapped = String::with_capacity(base.len() + 2 * spans.len());
                    let mut from = 0;
                    for &(s, end) in &spans {
                        wrapped.push_str(base.get(from..s).unwrap_or_default());
                        wrapped.push('(');
                        wrapped.push_str(base.get(s..end).unwrap_or_default());
                        wrapped.push(')');
                        from = end;
                    }
                    wrapped.push_str(base.get(from..).unwrap_or_default());
                    base = wrapped;
                    break;
                }
                Err(again) if wants_do(&again) && !do_done => e = again,
                Err(again) => {
                    // Jinja2's error, at the offsets of `base` (the commas back).
                    let src: &'a str = slot.insert(base);
                    return (src, Err(again));
                }
            }
        }
        let src: &'a str = slot.insert(base);
        (src, self.env.template_from_str(src))
    }

    /// The environment for `version`, bounded by `limits`.
    pub fn new(version: JinjaVersion, limits: JinjaLimits) -> Self {
        let mut env = Environment::empty();
        let syntax = syntax_config();
        if let Some(s) = syntax {
            env.set_syntax(s);
        }
        env.set_debug(false);
        env.set_fuel(Some(limits.max_steps));
        env.set_recursion_limit(limits.max_depth);
        env.set_formatter(|out, _state, value| match py_str(value) {
            Ok(s) => out
                .write_str(&s)
                .map_err(|_| Error::from(ErrorKind::WriteFailure)),
            Err(f) => Err(raise(f)),
        });
        env.set_unknown_method_callback(super::methods::unknown_method);
        for name in super::filters::FILTERS {
            env.add_filter(
                name,
                move |state: &State, value: Value, rest: Rest<ValueOrKwargs>| {
                    if super::py_error::faulted() {
                        return Ok(Value::from(()));
                    }
                    super::filters::filter(state, name, value, &rest.into_values(), version)
                },
            );
        }
        for name in super::jtests::TESTS {
            env.add_test(
                name,
                move |state: &State, value: Value, rest: Rest<ValueOrKwargs>| {
                    super::jtests::test(state, name, &value, &rest.into_values(), version)
                },
            );
        }
        env.add_filter(super::program::GETATTR, |obj: Value, name: Value| {
            super::lookup::getattr(&obj, name.as_str().unwrap_or_default())
        });
        env.add_filter(super::program::GETITEM, |obj: Value, key: Value| {
            super::lookup::getitem(&obj, &key)
        });
        env.add_filter(super::program::ITER, super::lookup::iterable);
        env.add_filter(super::program::CONTAINS, |v: Value, seq: Value| {
            super::jtests::contains(&seq, &v).map(Value::from)
        });
        env.add_filter(super::program::EQ, |a: Value, b: Value| {
            Value::from(super::py_ops::py_eq(&a, &b))
        });
        env.add_filter(super::program::NE, |a: Value, b: Value| {
            Value::from(!super::py_ops::py_eq(&a, &b))
        });
        env.add_filter(super::program::SUM, |v: Value| {
            super::py_object::concatenated(&v)
        });
        env.add_filter(super::program::FRESH, |v: Value| {
            super::py_object::fresh(&v)
        });
        env.add_filter(
            super::program::CHECK_OPERAND,
            |v: Value| match Missing::of(&v) {
                Some(m) => super::py_error::py_err(PyExc::UndefinedError, m.message()),
                None => Ok(Value::from(())),
            },
        );
        env.add_filter(super::program::CONCAT, |a: Value, b: Value| {
            let mut s = super::py_format::py_str(&a).map_err(raise)?;
            s.push_str(&super::py_format::py_str(&b).map_err(raise)?);
            Ok::<_, minijinja::Error>(Value::from(s))
        });
        env.add_filter(super::program::SUB, |a: Value, b: Value| {
            super::py_ops::py_sub(&a, &b).map_err(raise)
        });
        env.add_function("range", |args: Rest<ValueOrKwargs>| {
            py_range(&args.into_values())
        });
        env.add_function("dict", |args: Rest<ValueOrKwargs>| {
            py_dict(&args.into_values())
        });
        env.add_function("namespace", minijinja::functions::namespace);
        env.add_function(COND_UNDEFINED, |line: usize| -> Value {
            super::py_object::Missing::cond_expr(line)
        });
        env.add_function("lipsum", |args: Rest<ValueOrKwargs>| {
            lipsum(&args.into_values())
        });
        env.add_function("cycler", |args: Rest<ValueOrKwargs>| {
            super::stateful::Cycler::new_value(&args.into_values())
        });
        env.add_function("joiner", |args: Rest<ValueOrKwargs>| {
            super::stateful::Joiner::new_value(&args.into_values())
        });
        Engine { env, limits }
    }

    /// Compile `content` only: the syntax error Jinja2 raises before rendering, if any
    /// (the message in Jinja2's words where cloudfold knows them, the 1-based line).
    pub fn check_syntax(&self, content: &str) -> Option<(String, usize)> {
        let mut do_set = None;
        let (content, compiled) = self.compile(content, &mut do_set);
        match compiled {
            Ok(_) => match unknown_name_error(&scan(content)) {
                Some(RenderError::Syntax { message, line }) => Some((message, line)),
                _ => None,
            },
            Err(e) => match syntax_error_in(&e, content) {
                RenderError::Syntax { message, line } => Some((message, line)),
                RenderError::Limit(m) => Some((m, e.line().unwrap_or(1))),
                RenderError::Fault(_) => None,
            },
        }
    }

    /// Render `content` (CRLF already normalised, header removed) with `vars`.
    pub fn render(&self, content: &str, vars: &Value) -> Result<String, RenderError> {
        self.render_mapped(content, vars, None).map(|(s, _)| s)
    }

    /// [`Engine::render`], with the `LineMap` of the output when
    /// `header_lines` is given (lines before the body, counted in the map).
    pub fn render_mapped(
        &self,
        content: &str,
        vars: &Value,
        header_lines: Option<usize>,
    ) -> Result<(String, Option<super::LineMap>), RenderError> {
        let scope = FaultScope::begin();
        super::py_error::set_growth_budget(self.limits.max_steps);
        let mut do_set = None;
        let (content, compiled) = self.compile(content, &mut do_set);
        let tmpl = match compiled {
            Ok(t) => t,
            Err(e) => return Err(syntax_error_in(&e, content)),
        };
        let found = scan(content);
        if let Some(e) = unknown_name_error(&found) {
            return Err(e);
        }
        if let Some(m) = &found.refused {
            return Err(RenderError::Fault(RenderFault::unsupported(m.clone())));
        }
        // String literals as Jinja2 decodes them (`string_literal`), then the
        // inline ifs of that text.
        let literal_src = if found.literals.is_empty() {
            None
        } else {
            super::template_scan::with_literals(content, &found.literals)
        };
        let (base, found) = match &literal_src {
            Some(src) => (src.as_str(), scan(src)),
            None => (content, found),
        };
        let rewritten = if found.bare_ifs.is_empty() {
            None
        } else {
            super::template_scan::with_else(base, &found.bare_ifs, COND_UNDEFINED)
        };
        let tmpl = match rewritten.as_deref().or(literal_src.as_deref()) {
            Some(src) => match self.env.template_from_str(src) {
                Ok(t) => t,
                Err(e) => return Err(syntax_error_in(&e, content)),
            },
            None => tmpl,
        };
        let src = rewritten.as_deref().unwrap_or(base);
        let program =
            match super::program::Program::compile(src, syntax_config().unwrap_or_default()) {
                Ok(p) => p,
                Err(e) => return Err(syntax_error_in(&e, content)),
            };
        // cloud-init loads the instance data afresh for each part: what one
        // template changes in it (`v1.update(...)`) the next does not see. A
        // template that calls no method cannot change it, and shares it.
        let mutates = program.may_mutate();
        let fresh = |vars: &Value| {
            if mutates {
                super::py_object::deep_copy(vars)
            } else {
                vars.clone()
            }
        };
        let ctx = Value::from_object(Root(fresh(vars)));
        let result = program.render(&self.env, ctx);
        let fault = scope.take();
        // MiniJinja records output spans only in its own render of the
        // template (lookups not re-routed): used where it wrote the same text.
        let map = match (header_lines, &result) {
            (Some(h), Ok(s)) if fault.is_none() => {
                let _spans_scope = FaultScope::begin();
                super::py_error::set_growth_budget(self.limits.max_steps);
                match tmpl.render_with_spans(Value::from_object(Root(fresh(vars)))) {
                    Ok((t, spans)) if t == *s => Some(super::LineMap::new(s, &spans, h)),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(fault) = fault {
            return Err(RenderError::Fault(fault));
        }
        if let Err(e) = &result
            && e.kind() == ErrorKind::UndefinedError
            && let Some(fault) = self.explain_undefined(content, e, vars)
        {
            return Err(RenderError::Fault(fault));
        }
        match result {
            Ok(s) if s.len() > self.limits.max_output => Err(RenderError::Limit(format!(
                "the template's output exceeds {} bytes (--max-template-output)",
                self.limits.max_output
            ))),
            Ok(s) => Ok((s, map)),
            Err(e) => Err(map_error(&e, self.limits)),
        }
    }
}

/// Jinja2's `describe_token` for the token written as `text`.
fn describe_token(text: &str) -> String {
    let t = text.trim();
    let named = match t {
        "" => "end of template",
        "}}" => "end of print statement",
        "%}" | "-%}" | "+%}" => "end of statement block",
        "{{" | "{{-" => "begin of print statement",
        "{%" | "{%-" => "begin of statement block",
        _ => "",
    };
    if !named.is_empty() {
        return named.to_owned();
    }
    let first = t.chars().next().unwrap_or(' ');
    if first == '"' || first == '\'' {
        return "string".to_owned();
    }
    if first.is_ascii_digit() {
        return if t.contains(['.', 'e', 'E']) {
            "float"
        } else {
            "integer"
        }
        .to_owned();
    }
    t.to_owned()
}

/// The syntax the environment parses with (Jinja2's, `trim_blocks`).
fn syntax_config() -> Option<minijinja::syntax::SyntaxConfig> {
    let mut syntax = minijinja::syntax::SyntaxConfig::builder();
    syntax.trim_blocks(true);
    syntax.build().ok()
}

/// `{% set %}` with nothing to assign.
static EMPTY_SET_RE: std::sync::LazyLock<Option<regex::Regex>> =
    std::sync::LazyLock::new(|| regex::Regex::new(r"\{%[-+]?\s*set\s*[-+]?%\}").ok());

/// The global an inline `if` without `else` is given as its `else`
/// (`template_scan`): Jinja2's plain `Undefined` for that line.
const COND_UNDEFINED: &str = "__cloudfold_cond_expr_undefined";

/// What Jinja2's compiler would see in `content` (see `template_scan`).
fn scan(content: &str) -> super::template_scan::Found<'_> {
    syntax_config()
        .and_then(|s| super::template_scan::scan(content, s))
        .unwrap_or_default()
}

/// Jinja2's compile-time error for an unknown filter or test name, if any.
fn unknown_name_error(found: &super::template_scan::Found) -> Option<RenderError> {
    let (message, line) = found.unknown.clone()?;
    Some(RenderError::Syntax { message, line })
}

/// A MiniJinja syntax error in Jinja2's words where the two correspond.
fn syntax_error_in(e: &Error, content: &str) -> RenderError {
    let detail = e.detail().unwrap_or("");
    let token = e
        .range()
        .and_then(|r| content.get(r))
        .map(describe_token)
        .unwrap_or_default();
    let line = e.line().unwrap_or(1);
    let at = e.range().map_or(0, |r| r.start);
    let syntax = |message: String| RenderError::Syntax { message, line };
    // Errors Jinja2 meets before MiniJinja's (its parser pulls tokens in
    // order): an unbalanced bracket its lexer rejects, an empty `{% set %}`
    // (MiniJinja takes it for a set block), a string left open. The first up
    // to MiniJinja's error.
    let empty_set = EMPTY_SET_RE
        .as_ref()
        .and_then(|re| re.find(content))
        .map(|m| {
            (
                m.start(),
                "Expected an expression, got 'end of statement block'".to_owned(),
            )
        });
    // The string MiniJinja's lexer found open at the end: Jinja2's lexer
    // fails at its quote ("unexpected char"), before the tags inside it.
    let open_string = (detail == "unexpected end of string")
        .then(|| unterminated_string_at(content))
        .flatten()
        .map(|open| {
            let q = content
                .get(open..)
                .and_then(|t| t.chars().next())
                .unwrap_or('\'');
            let pos = jinja2_char_pos(content, open);
            (
                open,
                format!(
                    "unexpected char {} at {pos}",
                    super::py_format::py_repr_text(&q.to_string())
                ),
            )
        });
    let first = [
        super::bracket_balance::bracket_error(content),
        empty_set,
        open_string,
    ]
    .into_iter()
    .flatten()
    .filter(|(pos, _)| e.range().is_none_or(|r| *pos < r.end))
    .min_by_key(|(pos, _)| *pos);
    if let Some((pos, message)) = first {
        let line = content.get(..pos).map_or(0, |b| b.matches('\n').count()) + 1;
        return RenderError::Syntax { message, line };
    }
    if detail == "unexpected end of block, expected in" {
        // `{% for %}` (no target) or `{% for x %}` (no `in`).
        let before = content.get(..at).unwrap_or_default().trim_end();
        let before = before.trim_end_matches(['-', '+']).trim_end();
        let empty = before.strip_suffix("for").is_some_and(|b| {
            b.trim_end_matches([' ', '\t', '\n', '\r', '-', '+'])
                .ends_with("{%")
        });
        return syntax(if empty {
            "Expected an expression, got 'end of statement block'".to_owned()
        } else {
            "expected token 'in', got 'end of statement block'".to_owned()
        });
    }
    if let Some(name) = detail.strip_prefix("unknown statement ") {
        return syntax(super::block_stack::unknown_tag_message(
            content,
            at,
            Some(name),
        ));
    }
    if detail == "unexpected end of input, expected end of block" && !ends_inside_tag(content) {
        // A block left open at the end of the template.
        return syntax(super::block_stack::unknown_tag_message(
            content,
            content.len(),
            None,
        ));
    }
    if detail == "unexpected character"
        && let Some(ch) = content.get(at..).and_then(|t| t.chars().next())
    {
        // The lexer's "unexpected char 'X' at POS", POS counted in characters.
        let pos = jinja2_char_pos(content, at);
        return syntax(format!(
            "unexpected char {} at {pos}",
            super::py_format::py_repr_text(&ch.to_string())
        ));
    }
    if detail.starts_with("unexpected")
        && let Some((_, want)) = detail.rsplit_once(", expected `")
        && let Some(want) = want.strip_suffix('`')
        && want.len() == 1
    {
        // A punctuation token the parser required (`,` in `f(a.1x)`).
        return syntax(format!("expected token '{want}', got '{token}'"));
    }
    if let Some(t) = detail
        .strip_prefix("unexpected `")
        .and_then(|t| t.strip_suffix('`'))
        .filter(|t| !t.contains('`'))
    {
        // `parse_primary`'s error for a token that starts no expression
        // (`{{ a,, b }}`; the token read from `content`, where a tuple's
        // joined `,` is itself again).
        let t = if token.is_empty() {
            describe_token(t)
        } else {
            token
        };
        return syntax(format!("unexpected '{t}'"));
    }
    if detail.ends_with(", expected identifier") {
        return syntax(format!("expected token 'name', got '{token}'"));
    }
    if detail == "unexpected end of block" || detail == "unexpected end of variable block" {
        // `parse_tuple` with nothing before the end: "Expected an expression";
        // an operand missing after an operator: `parse_primary`'s "unexpected".
        let before = content.get(..at).unwrap_or_default().trim_end();
        let before = before.trim_end_matches(['-', '+']);
        // `{% for x in %}`: the iterable is `parse_tuple`'s too.
        let for_in = before.rfind("{%").is_some_and(|t| {
            let tag = before.get(t + 2..).unwrap_or_default();
            let tag = tag.trim_start_matches(['-', '+']).trim_start();
            tag.starts_with("for") && tag.ends_with(" in")
        });
        let empty = for_in
            || before.ends_with("{{")
            || before.ends_with("{%")
            || ["if", "elif", "do", "print"].iter().any(|k| {
                before.strip_suffix(k).is_some_and(|b| {
                    b.trim_end_matches([' ', '\t', '\n', '\r', '-', '+'])
                        .ends_with("{%")
                })
            });
        return syntax(if empty {
            format!("Expected an expression, got '{token}'")
        } else {
            format!("unexpected '{token}'")
        });
    }
    let expected = if detail.ends_with(", expected end of variable block") {
        Some("end of print statement")
    } else if detail.ends_with(", expected end of block") {
        Some("end of statement block")
    } else {
        None
    };
    match expected {
        Some(what) if detail.starts_with("unexpected") => {
            syntax(format!("expected token '{what}', got '{token}'"))
        }
        _ => syntax_error(e),
    }
}

/// Where the string left open at the end of the template starts: a scan of
/// the tags (`{{ }}`, `{% %}`; comments skipped) from the first byte, quotes
/// inside tags opening strings (an unterminated one runs to the end).
fn unterminated_string_at(content: &str) -> Option<usize> {
    let mut rest = content;
    loop {
        let at = rest.find(['{'])?;
        let after = rest.get(at..)?;
        if let Some(c) = after.strip_prefix("{#") {
            rest = c.find("#}").and_then(|e| c.get(e + 2..))?;
            continue;
        }
        let close = if after.starts_with("{{") {
            "}}"
        } else if after.starts_with("{%") {
            "%}"
        } else {
            rest = after.get(1..)?;
            continue;
        };
        let tag = after.get(2..)?;
        let base = content.len() - tag.len();
        let mut open: Option<(usize, char)> = None;
        let mut end = None;
        for (i, c) in tag.char_indices() {
            match open {
                Some((_, q)) if c == q => open = None,
                Some(_) => {}
                None if c == '\'' || c == '"' => open = Some((base + i, c)),
                None if tag.get(i..).is_some_and(|t| t.starts_with(close)) => {
                    end = Some(i + close.len());
                    break;
                }
                None => {}
            }
        }
        if let Some((i, _)) = open {
            return Some(i);
        }
        rest = tag.get(end?..)?;
    }
}

/// The template ends inside an unclosed `{%` tag (not after a complete one).
fn ends_inside_tag(content: &str) -> bool {
    content
        .rfind("{%")
        .is_some_and(|i| !content.get(i..).unwrap_or_default().contains("%}"))
}

/// A plain lookup chain (`root.name["key"][0]`, literal keys only): its
/// root and its steps, `.name` or `[key]`.
fn chain_steps(expr: &str) -> Option<(String, Vec<String>)> {
    let expr = expr.trim();
    let root_len = expr
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(expr.len());
    let root = expr.get(..root_len)?.to_owned();
    if root.is_empty() {
        return None;
    }
    let mut steps = Vec::new();
    let mut rest = expr.get(root_len..)?;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let n = r
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(r.len());
            steps.push(format!(".{}", r.get(..n)?));
            rest = r.get(n..)?;
        } else if rest.starts_with('[') {
            let end = rest.find(']')?;
            let key = rest.get(1..end)?.trim();
            // Only literal keys: re-evaluating anything else could do work.
            let literal = key.parse::<i64>().is_ok()
                || (key.len() >= 2
                    && (key.starts_with('\'') && key.ends_with('\'')
                        || key.starts_with('"') && key.ends_with('"'))
                    && !key.get(1..key.len() - 1)?.contains(['\'', '"', '\\']));
            if !literal {
                return None;
            }
            steps.push(rest.get(..=end)?.to_owned());
            rest = rest.get(end + 1..)?;
        } else {
            // Filters, calls, operators: not a plain chain.
            return None;
        }
    }
    Some((root, steps))
}

impl Engine {
    /// MiniJinja raises when a lookup is made on its own (nameless)
    /// undefined — one that came from a missing attribute of a plain value
    /// (`v1.n.x.y` where `v1.n` is an int). Jinja2's message names that step:
    /// "'int object' has no attribute 'x'".
    fn explain_undefined(&self, content: &str, e: &Error, vars: &Value) -> Option<RenderFault> {
        let src = content.get(e.range()?)?;
        let (root, steps) = chain_steps(src)?;
        let ctx = Value::from_object(Root(vars.clone()));
        let _scope = FaultScope::begin();
        let mut expr = root;
        let mut prev = self.env.compile_expression(&expr).ok()?.eval(&ctx).ok()?;
        for step in steps {
            let next_expr = format!("{expr}{step}");
            let next = self
                .env
                .compile_expression(&next_expr)
                .ok()
                .and_then(|x| x.eval(&ctx).ok());
            match next {
                Some(v) if !v.is_undefined() => {
                    prev = v;
                    expr = next_expr;
                }
                _ => {
                    let key = step
                        .strip_prefix('.')
                        .map(|n| format!("'{n}'"))
                        .or_else(|| {
                            step.strip_prefix('[')
                                .and_then(|k| k.strip_suffix(']'))
                                .map(|k| k.trim().replace('"', "'"))
                        })?;
                    let is_str = key.starts_with('\'');
                    let t = if prev.is_none() {
                        "None".to_owned()
                    } else {
                        format!("{} object", super::py_ops::type_name(&prev))
                    };
                    return Some(RenderFault::undefined(if is_str {
                        format!("'{t}' has no attribute {key}")
                    } else {
                        format!("{t} has no element {key}")
                    }));
                }
            }
        }
        None
    }
}

fn syntax_error(e: &Error) -> RenderError {
    if e.detail().is_some_and(|d| d.contains("maximum recursion")) {
        return RenderError::Limit(
            "the template nests expressions deeper than MiniJinja's parser allows (Jinja2 may accept it)".to_owned(),
        );
    }
    let message = e.detail().unwrap_or("syntax error").to_owned();
    RenderError::Syntax {
        message,
        line: e.line().unwrap_or(1),
    }
}

fn map_error(e: &Error, limits: JinjaLimits) -> RenderError {
    match e.kind() {
        ErrorKind::OutOfFuel => RenderError::Limit(format!(
            "the template ran more than {} steps (--max-template-steps)",
            limits.max_steps
        )),
        ErrorKind::SyntaxError => syntax_error(e),
        ErrorKind::InvalidOperation
            if e.detail()
                .is_some_and(|d| d.ends_with("(--max-template-steps)")) =>
        {
            RenderError::Limit(e.detail().unwrap_or_default().to_owned())
        }
        ErrorKind::UnknownFilter | ErrorKind::UnknownTest => {
            let what = if e.kind() == ErrorKind::UnknownFilter {
                "filter"
            } else {
                "test"
            };
            // MiniJinja: "filter NAME is unknown".
            let name = e
                .detail()
                .and_then(|d| d.split_once(' '))
                .map(|(_, rest)| rest.strip_suffix(" is unknown").unwrap_or(rest))
                .unwrap_or("")
                .to_owned();
            // Names outside an `if` were checked before rendering
            // (`name_check`); one inside fails when reached, as Jinja2's
            // `pull_dependencies` stub does.
            RenderError::Fault(RenderFault::Py(
                super::py_error::PyExc::TemplateRuntimeError,
                format!("No {what} named '{name}' found."),
            ))
        }
        _ if e.detail().is_some_and(|d| d.contains("too large")) => RenderError::Limit(format!(
            "the template builds a value larger than MiniJinja allows ({}; --max-template-output bounds the output)",
            e.detail().unwrap_or("")
        )),
        ErrorKind::TemplateNotFound | ErrorKind::BadInclude => RenderError::Fault(
            RenderFault::type_error("no loader for this environment specified"),
        ),
        ErrorKind::UnknownFunction => RenderError::Fault(RenderFault::undefined(format!(
            "{} is undefined",
            e.detail().unwrap_or("a function")
        ))),
        ErrorKind::InvalidOperation
            if e.detail()
                .is_some_and(|d| d.contains("plain object is not iterable")) =>
        {
            // The only plain objects a template can iterate are bound methods.
            RenderError::Fault(RenderFault::type_error(
                "'builtin_function_or_method' object is not iterable",
            ))
        }
        _ => {
            let detail = e.detail().unwrap_or("").to_owned();
            if detail.contains("recursion") || detail.contains("too deeply") {
                return RenderError::Limit(format!(
                    "the template nests deeper than {} levels (--max-template-depth)",
                    limits.max_depth
                ));
            }
            RenderError::Fault(RenderFault::unsupported(format!(
                "the template fails in MiniJinja where Jinja2's exact error is not reproduced: {e}"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Engine, JinjaLimits, JinjaVersion};

    /// An inline `if` without `else` is Jinja2's plain `Undefined` (probed
    /// with cloud-init's templater on Jinja2 3.1.2 and 3.1.6).
    #[test]
    fn inline_if_without_else_prints_nothing() {
        let e = Engine::new(JinjaVersion::V3_1_2, JinjaLimits::default());
        let t = "{% for x in [1, 2] %}{{ x }}{{ ',' if not loop.last }}{% endfor %}|{{ [1 if false] }}|{{ (1 if false) ~ 'x' }}|{{ (1 if false) is defined }}|{{ 'a' if true }}";
        assert_eq!(
            format!("{:?}", e.render(t, &minijinja::Value::from(()))),
            "Ok(\"1,2|[Undefined]|x|False|a\")"
        );
    }

    /// Lists and dicts change in place and are shared, as in Python: each
    /// expected text is Jinja2 3.1.2's output for the template (probed with
    /// the do extension, cloud-init's environment).
    #[test]
    fn containers_mutate_in_place() {
        let e = Engine::new(JinjaVersion::V3_1_2, JinjaLimits::default());
        let cases: &[(&str, &str)] = &[
            ("{% set l = [] %}{{ l.append(1) }}{{ l }}", "None[1]"),
            (
                "{% set l = [3,1,2] %}{% do l.sort() %}{{ l }}|{{ l.sort(reverse=true) }}{{ l }}",
                "[1, 2, 3]|None[3, 2, 1]",
            ),
            (
                "{% set l = [3,1,2] %}{% set m = l %}{% do m.append(4) %}{{ l }}",
                "[3, 1, 2, 4]",
            ),
            (
                "{% for i in range(3) %}{% set l = [] %}{% do l.append(i) %}{{ l }}{% endfor %}",
                "[0][1][2]",
            ),
            (
                "{% set d = {} %}{% do d.update({'a': 1}, b=2) %}{{ d }}",
                "{'a': 1, 'b': 2}",
            ),
            (
                "{% set d = {'a': 1} %}{{ d.pop('a') }}{{ d }}{{ d.pop('z', 5) }}",
                "1{}5",
            ),
            (
                "{% set d = {'a': 1, 'b': 2} %}{{ d.popitem() }}{{ d }}",
                "('b', 2){'a': 1}",
            ),
            (
                "{% set d = {'a': 1} %}{{ d.setdefault('b', 3) }}{{ d.setdefault('a', 9) }}{{ d }}",
                "31{'a': 1, 'b': 3}",
            ),
            (
                "{% set l = [1,2,3] %}{{ l.pop() }}{{ l.pop(0) }}{{ l }}",
                "31[2]",
            ),
            (
                "{% set l = [1,2] %}{{ l.insert(-10, 0) }}{{ l.insert(99, 9) }}{{ l }}",
                "NoneNone[0, 1, 2, 9]",
            ),
            (
                "{% set l = [1,2] %}{% do l.extend(l) %}{{ l }}",
                "[1, 2, 1, 2]",
            ),
            (
                "{% set t = ([1], 2) %}{% do t[0].append(5) %}{{ t }}",
                "([1, 5], 2)",
            ),
            (
                "{% set d = {'x': []} %}{% do d.x.append(1) %}{{ d }}",
                "{'x': [1]}",
            ),
            (
                "{% set l = [1,2] %}{{ l.clear() }}{{ l }}|{% set d = {'a':1} %}{{ d.clear() }}{{ d }}",
                "None[]|None{}",
            ),
            (
                "{{ {}.fromkeys([1,2]) }}{{ {}.fromkeys('ab', 0) }}",
                "{1: None, 2: None}{'a': 0, 'b': 0}",
            ),
            (
                "{% set d = {} %}{% do d.update([('a', 1), ['b', 2]]) %}{{ d }}",
                "{'a': 1, 'b': 2}",
            ),
            ("{% set l = [1,2] %}{{ l + [3] }}{{ l }}", "[1, 2, 3][1, 2]"),
            (
                "{% set ns = namespace(l=[]) %}{% do ns.l.append(1) %}{{ ns.l }}",
                "[1]",
            ),
            (
                "{% set l = [1,2] %}{% set l2 = l.copy() %}{% do l2.append(3) %}{{ l }}{{ l2 }}",
                "[1, 2][1, 2, 3]",
            ),
            (
                "{% macro m(x) %}{% do x.append(1) %}{% endmacro %}{% set l = [] %}{{ m(l) }}{{ m(l) }}{{ l }}",
                "[1, 1]",
            ),
        ];
        for (t, want) in cases {
            let got = e.render(t, &minijinja::Value::from(()));
            assert_eq!(got.as_deref(), Ok(*want), "{t}");
        }
    }

    /// Python's exceptions for the same methods, and for `in` with an
    /// unhashable left operand (Jinja2 3.1.2's, probed).
    #[test]
    fn container_errors_are_pythons() {
        let e = Engine::new(JinjaVersion::V3_1_2, JinjaLimits::default());
        let cases: &[(&str, &str)] = &[
            ("{% set d = {'a': 1} %}{{ d.pop('z') }}", "'z'"),
            (
                "{% set d = {} %}{{ d.popitem() }}",
                "'popitem(): dictionary is empty'",
            ),
            ("{% set l = [] %}{{ l.pop() }}", "pop from empty list"),
            ("{% set l = [1] %}{{ l.pop(5) }}", "pop index out of range"),
            (
                "{% set l = [1,2] %}{{ l.remove(3) }}",
                "list.remove(x): x not in list",
            ),
            (
                "{% set l = [1,'a'] %}{% do l.sort() %}",
                "'<' not supported between instances of 'str' and 'int'",
            ),
            (
                "{% set d = {'a': 1} %}{{ [1] in d }}",
                "unhashable type: 'list'",
            ),
            (
                "{% set d = {'a': 1} %}{{ [1] is in d }}",
                "unhashable type: 'list'",
            ),
            (
                "{% set d = {'a': 1} %}{{ [1] in d.keys() }}",
                "unhashable type: 'list'",
            ),
            (
                "{% set d = {} %}{{ d.setdefault([1]) }}",
                "unhashable type: 'list'",
            ),
            (
                "{% set d = {} %}{{ d.update({[1]: 2}) }}",
                "unhashable type: 'list'",
            ),
            (
                "{% set d = {} %}{% do d.update([('a', 1, 3)]) %}",
                "dictionary update sequence element #0 has length 3; 2 is required",
            ),
            (
                "{% set d = {} %}{% do d.update([1]) %}",
                "cannot convert dictionary update sequence element #0 to a sequence",
            ),
            (
                "{% set l = [] %}{% do l.extend(5) %}",
                "'int' object is not iterable",
            ),
            (
                "{% set l = [] %}{% do l.append() %}",
                "list.append() takes exactly one argument (0 given)",
            ),
            ("{{ true|reverse }}", "argument must be iterable"),
        ];
        for (t, want) in cases {
            let got = e.render(t, &minijinja::Value::from(()));
            let msg = match &got {
                Err(super::RenderError::Fault(super::RenderFault::Py(_, m))) => m.clone(),
                other => format!("{other:?}"),
            };
            assert_eq!(msg, *want, "{t}");
        }
    }

    /// A list doubling itself in a loop hits the step limit's item budget
    /// long before memory runs out.
    #[test]
    fn growing_containers_are_bounded() {
        let e = Engine::new(JinjaVersion::V3_1_2, JinjaLimits::default());
        let t = "{% set l = [1] %}{% for i in range(64) %}{% do l.extend(l) %}{% endfor %}{{ l|length }}";
        let got = e.render(t, &minijinja::Value::from(()));
        assert!(
            matches!(&got, Err(super::RenderError::Limit(m)) if m.contains("--max-template-steps")),
            "{got:?}"
        );
    }

    /// What one template changes in the instance data the next does not see
    /// (cloud-init loads the file again for each part).
    #[test]
    fn instance_data_changes_stay_in_their_render() {
        let e = Engine::new(JinjaVersion::V3_1_2, JinjaLimits::default());
        let vars = super::super::py_object::PyDict::from_pairs([(
            minijinja::Value::from("l"),
            super::super::py_object::PyList::value(vec![minijinja::Value::from(1)]),
        )])
        .into_value();
        let t = "{% do l.append(2) %}{{ l }}";
        assert_eq!(e.render(t, &vars).as_deref(), Ok("[1, 2]"));
        assert_eq!(e.render(t, &vars).as_deref(), Ok("[1, 2]"));
    }

    /// Each expected text is what Jinja2 3.1.6 raises for the template
    /// (checked against it by the jinja differential's syntax-error cases).
    #[test]
    fn syntax_errors_in_jinja2_words() {
        let e = Engine::new(JinjaVersion::V3_1_6, JinjaLimits::default());
        let cases: &[(&str, &str, usize)] = &[
            (
                "{{ a b }}",
                "expected token 'end of print statement', got 'b'",
                1,
            ),
            (
                "{% if %}x{% endif %}",
                "Expected an expression, got 'end of statement block'",
                1,
            ),
            ("{{ 1 + }}", "unexpected 'end of print statement'", 1),
            ("{% endfor %}", "Encountered unknown tag 'endfor'.", 1),
            (
                "{% for x in y %}{% break %}{% endfor %}",
                "Encountered unknown tag 'break'. Jinja was looking for the following tags: 'endfor' or 'else'. The innermost block that needs to be closed is 'for'.",
                1,
            ),
            (
                "{% if true %}",
                "Unexpected end of template. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
                1,
            ),
            (
                "{% macro %}",
                "expected token 'name', got 'end of statement block'",
                1,
            ),
            ("{{ \"x\" ~ 'y }}", "unexpected char \"'\" at 9", 1),
            ("a\n{{ 'unterminated }}\nb", "unexpected char \"'\" at 5", 2),
            (
                "{{ 'x' }}{# ' #}\n{{ \"y }}\nk: {{ z }}",
                "unexpected char '\"' at 20",
                2,
            ),
            ("{{ $ }}", "unexpected char '$' at 3", 1),
            ("k: {{ x|to_json }}", "No filter named 'to_json'.", 1),
            ("{{ x is foo }}", "No test named 'foo'.", 1),
            ("{{ x|a1|b1 }}", "No filter named 'b1'.", 1),
            (
                "{% if a %}{% for c in d %}\n{{ c|nope }}{% endfor %}{% endif %}",
                "No filter named 'nope'.",
                2,
            ),
        ];
        for (template, message, line) in cases {
            let got = e.check_syntax(template).or_else(|| {
                match e.render(template, &minijinja::Value::from(())) {
                    Err(super::RenderError::Syntax { message, line }) => Some((message, line)),
                    _ => None,
                }
            });
            assert_eq!(got, Some(((*message).to_owned(), *line)), "{template:?}");
        }
        // In an `if` (or a conditional expression) the name is checked when reached.
        for template in [
            "{% if x %}{{ x|nope }}{% endif %}",
            "{{ 1 if x is foo else 2 }}",
        ] {
            assert_eq!(e.check_syntax(template), None, "{template:?}");
        }
    }
}
