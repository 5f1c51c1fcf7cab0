//! What Jinja2's compiler sees in a template that MiniJinja's does not: unknown filter/test names, inline ifs without else.
//!
//! **Names.**
//! Jinja2's code generator fails with "No filter named 'x'." (or test) for
//! an unknown name while compiling, before anything renders — unless the
//! name is used in a "soft" frame: the test, branches and `else` of an `if`
//! statement or a conditional expression (`_filter_test_common`,
//! `visit_If`, `visit_CondExpr` in `jinja2/compiler.py`). A new inner frame
//! (a loop body, macro, `with`, `filter` or `set` block) is hard again.
//! There the error waits for run time ("No filter named 'x' found.").
//! MiniJinja checks names only when it calls them, so this walks its AST.
//!
//! **Inline ifs.** `x if c` without `else` yields, when `c` is false, a plain
//! `jinja2.Undefined` (`cond_expr_undefined = Undefined`), not cloud-init's
//! subclass: it prints as nothing. MiniJinja yields its own nameless
//! undefined, which cloudfold cannot tell from others; so the template is
//! given an explicit `else` that makes Jinja2's value.

use super::string_literal::{LiteralError, decode_run, minijinja_literal};
use minijinja::machinery::ast::{BinOpKind, CallArg, Expr, Stmt};
use minijinja::value::{Value, ValueKind};

/// What a scan of a template found.
#[derive(Debug, Default)]
pub(crate) struct Found<'s> {
    /// The template's text.
    source: &'s str,
    /// Each literal (or constant `~` chain) whose MiniJinja value is not
    /// Jinja2's: its byte range and the MiniJinja literal of Jinja2's value
    /// (`string_literal`; MiniJinja folds `'x' ~ 1e16` its own way).
    pub literals: Vec<(usize, usize, String)>,
    /// A literal Jinja2 decodes in a way cloudfold does not reproduce.
    pub refused: Option<String>,
    /// The first unknown filter or test outside a soft frame, in Jinja2's
    /// compile order: its message and 1-based line.
    pub unknown: Option<(String, usize)>,
    /// Each inline `if` without `else`: the byte offset where its test ends
    /// and its 1-based line.
    pub bare_ifs: Vec<(usize, usize)>,
}

impl Found<'_> {
    fn is_some(&self) -> bool {
        self.unknown.is_some()
    }
}

/// Scan `source` (`None` when it does not parse).
pub(crate) fn scan(source: &str, syntax: minijinja::syntax::SyntaxConfig) -> Option<Found<'_>> {
    let ast = minijinja::machinery::parse(source, "<string>", syntax).ok()?;
    let mut found = Found {
        source,
        ..Found::default()
    };
    stmt(&ast, false, &mut found);
    Some(found)
}

/// `source` with each of `literals` (byte ranges, in any order, not
/// overlapping) replaced.
pub(crate) fn with_literals(source: &str, literals: &[(usize, usize, String)]) -> Option<String> {
    let mut spans: Vec<&(usize, usize, String)> = literals.iter().collect();
    spans.sort_by_key(|(start, _, _)| *start);
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    for (start, end, text) in spans {
        if *start < at {
            continue;
        }
        out.push_str(source.get(at..*start)?);
        out.push_str(text);
        at = *end;
    }
    out.push_str(source.get(at..)?);
    Some(out)
}

/// The Python value of a constant expression made of literals and `~`
/// (`None`: something else, or a literal cloudfold cannot decode).
fn python_const(e: &Expr<'_>, found: &mut Found<'_>) -> Option<Value> {
    match e {
        Expr::Const(c) if c.value.kind() == ValueKind::String => {
            let span = c.span();
            let src = found
                .source
                .get(offset(span.start_offset)..offset(span.end_offset))?;
            match decode_run(src)? {
                Ok(s) => Some(Value::from(s)),
                Err(LiteralError::Python(m)) => {
                    found
                        .refused
                        .get_or_insert_with(|| format!("a string literal Jinja2 rejects ({m})"));
                    None
                }
                Err(LiteralError::Unsupported(m)) => {
                    found.refused.get_or_insert_with(|| m.to_owned());
                    None
                }
            }
        }
        Expr::Const(c) => Some(c.value.clone()),
        Expr::BinOp(b) if matches!(b.op, BinOpKind::Concat) => {
            let l = python_const(&b.left, found)?;
            let r = python_const(&b.right, found)?;
            let mut s = super::py_format::py_str(&l).ok()?;
            s.push_str(&super::py_format::py_str(&r).ok()?);
            Some(Value::from(s))
        }
        _ => None,
    }
}

fn offset(o: u32) -> usize {
    usize::try_from(o).unwrap_or(usize::MAX)
}

/// Record `e` (a literal or a constant `~` chain) when Jinja2's value differs from MiniJinja's.
fn check_const(e: &Expr<'_>, folded: &Value, found: &mut Found<'_>) {
    let span = e.span();
    let (start, end) = (offset(span.start_offset), offset(span.end_offset));
    let Some(py) = python_const(e, found) else {
        return;
    };
    if (py.as_str() != folded.as_str() || folded.kind() != ValueKind::String)
        && let (Some(s), Some(orig)) = (py.as_str(), found.source.get(start..end))
    {
        let newlines = orig.matches('\n').count();
        found
            .literals
            .push((start, end, minijinja_literal(s, newlines)));
    }
}

/// `source` with ` else <global>(line)` after each bare inline `if`'s test.
pub(crate) fn with_else(source: &str, bare_ifs: &[(usize, usize)], global: &str) -> Option<String> {
    let mut out = String::with_capacity(source.len() + bare_ifs.len() * 32);
    let mut at = 0;
    let mut ends: Vec<(usize, usize)> = bare_ifs.to_vec();
    ends.sort_unstable();
    for (end, line) in ends {
        out.push_str(source.get(at..end)?);
        out.push_str(&format!(" else {global}({line})"));
        at = end;
    }
    out.push_str(source.get(at..)?);
    Some(out)
}

fn body(stmts: &[Stmt<'_>], soft: bool, found: &mut Found<'_>) {
    for s in stmts {
        stmt(s, soft, found);
    }
}

fn stmt(s: &Stmt<'_>, soft: bool, found: &mut Found<'_>) {
    if found.is_some() {
        return;
    }
    match s {
        Stmt::Template(t) => body(&t.children, soft, found),
        Stmt::EmitExpr(e) => expr(&e.expr, soft, found),
        Stmt::ForLoop(f) => {
            expr(&f.iter, soft, found);
            if let Some(c) = &f.filter_expr {
                expr(c, false, found);
            }
            body(&f.body, false, found);
            body(&f.else_body, soft, found);
        }
        Stmt::IfCond(i) => {
            expr(&i.expr, true, found);
            body(&i.true_body, true, found);
            body(&i.false_body, true, found);
        }
        Stmt::WithBlock(w) => {
            for (_, value) in &w.assignments {
                expr(value, soft, found);
            }
            body(&w.body, false, found);
        }
        Stmt::Set(set) => expr(&set.expr, soft, found),
        Stmt::SetBlock(set) => {
            body(&set.body, false, found);
            if let Some(f) = &set.filter {
                expr(f, false, found);
            }
        }
        Stmt::AutoEscape(a) => {
            expr(&a.enabled, soft, found);
            body(&a.body, soft, found);
        }
        Stmt::FilterBlock(f) => {
            expr(&f.filter, false, found);
            body(&f.body, false, found);
        }
        Stmt::Macro(m) => {
            for d in &m.defaults {
                expr(d, false, found);
            }
            body(&m.body, false, found);
        }
        Stmt::CallBlock(c) => {
            expr(&c.call.expr, soft, found);
            args(&c.call.args, soft, found);
            body(&c.macro_decl.body, false, found);
        }
        Stmt::Do(d) => {
            expr(&d.call.expr, soft, found);
            args(&d.call.args, soft, found);
        }
        Stmt::Block(b) => body(&b.body, false, found),
        Stmt::EmitRaw(_)
        | Stmt::Import(_)
        | Stmt::FromImport(_)
        | Stmt::Extends(_)
        | Stmt::Include(_) => {}
    }
}

fn args(a: &[CallArg<'_>], soft: bool, found: &mut Found<'_>) {
    for arg in a {
        match arg {
            CallArg::Pos(e)
            | CallArg::Kwarg(_, e)
            | CallArg::PosSplat(e)
            | CallArg::KwargSplat(e) => {
                expr(e, soft, found);
            }
        }
    }
}

fn expr(e: &Expr<'_>, soft: bool, found: &mut Found<'_>) {
    if found.is_some() {
        return;
    }
    match e {
        Expr::Var(_) => {}
        Expr::Const(c) => {
            if c.value.kind() == ValueKind::String {
                check_const(e, &c.value, found);
            }
        }
        Expr::BinOp(b) if matches!(b.op, BinOpKind::Concat) && e.as_const().is_some() => {
            if let Some(folded) = e.as_const() {
                check_const(e, &folded, found);
            }
        }
        Expr::Slice(s) => {
            expr(&s.expr, soft, found);
            for part in [&s.start, &s.stop, &s.step].into_iter().flatten() {
                expr(part, soft, found);
            }
        }
        Expr::UnaryOp(u) => expr(&u.expr, soft, found),
        Expr::BinOp(b) => {
            expr(&b.left, soft, found);
            expr(&b.right, soft, found);
        }
        Expr::Compare(c) => {
            expr(&c.expr, soft, found);
            for op in &c.ops {
                expr(&op.expr, soft, found);
            }
        }
        Expr::IfExpr(i) => {
            if i.false_expr.is_none() {
                let span = i.span();
                found.bare_ifs.push((
                    usize::try_from(span.end_offset).unwrap_or(usize::MAX),
                    usize::from(span.start_line),
                ));
            }
            expr(&i.test_expr, true, found);
            expr(&i.true_expr, true, found);
            if let Some(f) = &i.false_expr {
                expr(f, true, found);
            }
        }
        // The name is checked before the operand is visited: in `x|a|b`, `b` first.
        Expr::Filter(f) => {
            if !soft && !super::filters::FILTERS.contains(&f.name) {
                found.unknown = Some((format!("No filter named '{}'.", f.name), line(f.span())));
                return;
            }
            if let Some(inner) = &f.expr {
                expr(inner, soft, found);
            }
            args(&f.args, soft, found);
        }
        Expr::Test(t) => {
            if !soft && !super::jtests::TESTS.contains(&t.name) {
                found.unknown = Some((format!("No test named '{}'.", t.name), line(t.span())));
                return;
            }
            expr(&t.expr, soft, found);
            args(&t.args, soft, found);
        }
        Expr::GetAttr(g) => expr(&g.expr, soft, found),
        Expr::GetItem(g) => {
            expr(&g.expr, soft, found);
            expr(&g.subscript_expr, soft, found);
        }
        Expr::Call(c) => {
            expr(&c.expr, soft, found);
            args(&c.args, soft, found);
        }
        Expr::List(l) => l.items.iter().for_each(|i| expr(i, soft, found)),
        Expr::Tuple(t) => t.items.iter().for_each(|i| expr(i, soft, found)),
        Expr::Map(m) => {
            for (k, v) in m.keys.iter().zip(&m.values) {
                expr(k, soft, found);
                expr(v, soft, found);
            }
        }
    }
}

fn line(span: minijinja::machinery::Span) -> usize {
    usize::from(span.end_line)
}
