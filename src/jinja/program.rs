//! `Program`: a template compiled by MiniJinja, its lookups and loops re-routed through Jinja2's semantics.
//!
//! MiniJinja's `a.b` / `a[b]` on a plain value (an int, a str, a literal
//! dict) give a nameless undefined, and `for` over `None` iterates nothing;
//! Jinja2 names the undefined (`CI_MISSING_JINJA_VAR/b`, "'int object' has
//! no attribute 'b'") and raises `TypeError` for the loop. The compiled
//! instructions are copied with each `GetAttr`/`GetItem` turned into a call
//! of an internal filter ([`GETATTR`], [`GETITEM`]: `lookup.rs`) and each
//! loop's iterable passed through [`ITER`] first, and `-` computed by [`SUB`]
//! (cloud-init's "Jinja tried subtraction") and `==`/`!=` by [`EQ`]/[`NE`]
//! (Python's); jump targets are remapped.

use minijinja::machinery::{CodeGenerator, Instruction, Instructions, parse};
use minijinja::syntax::SyntaxConfig;
use minijinja::value::{Value, ValueKind};
use minijinja::{AutoEscape, Environment, Error};
use std::collections::BTreeMap;

/// The internal filter for `a.b` (the value, then the name).
pub(crate) const GETATTR: &str = "__cloudfold_getattr";
/// The internal filter for `a[b]` (the value, then the key).
pub(crate) const GETITEM: &str = "__cloudfold_getitem";
/// The internal filter for `a - b` (Python's, with cloud-init's undefined).
pub(crate) const SUB: &str = "__cloudfold_sub";
/// `a ~ b`: Jinja2's `str_join`, each side through Python's `str` (MiniJinja's
/// own concatenation writes floats its way: `2.5e300` in full).
pub(crate) const CONCAT: &str = "__cloudfold_concat";
/// The internal filters checking an operand of arithmetic or `<` (an undefined
/// raises `UndefinedError` there, the left operand first, as in Python).
pub(crate) const CHECK_OPERAND: &str = "__cloudfold_operand";
/// The internal filter every `for` loop's iterable goes through.
pub(crate) const ITER: &str = "__cloudfold_iter";
/// The internal filter a list or dict literal goes through: Python makes a
/// new mutable object each time the literal is evaluated
/// ([`fresh`](super::py_object::fresh)).
pub(crate) const FRESH: &str = "__cloudfold_fresh";

/// The internal filter after `a + b`: MiniJinja chains two sequences lazily,
/// Python's `list + list` is a new list ([`concatenated`](super::py_object::concatenated)).
pub(crate) const SUM: &str = "__cloudfold_sum";

/// The internal filters for `a == b` and `a != b`: Python's `==`
/// ([`py_eq`](super::py_ops::py_eq)); MiniJinja's own calls an undefined
/// (an iterable of nothing) equal to an empty list or dict, Jinja2's
/// `Undefined.__eq__` only to another undefined.
pub(crate) const EQ: &str = "__cloudfold_eq";
/// See [`EQ`].
pub(crate) const NE: &str = "__cloudfold_ne";

/// The internal filter for `a in b` (Python's `in`: an unhashable `a`
/// raises for a dict `b`).
pub(crate) const CONTAINS: &str = "__cloudfold_in";

/// Whether the instruction leaves a list, tuple or dict literal on the stack
/// (MiniJinja folds constant ones into `LoadConst`).
fn is_literal(i: &Instruction<'_>) -> bool {
    match i {
        Instruction::BuildList(Some(_)) | Instruction::BuildTuple(Some(_)) => true,
        Instruction::BuildMap(_) => true,
        // (Constant keyword arguments are loaded as a map too: not a literal.)
        Instruction::LoadConst(v) => {
            matches!(v.kind(), ValueKind::Seq | ValueKind::Map) && !v.is_kwargs()
        }
        _ => false,
    }
}

/// MiniJinja's "no cached filter slot" id.
const NO_LOCAL: u8 = !0;

/// A compiled template (borrowing its source).
pub(crate) struct Program<'s> {
    main: Instructions<'s>,
    blocks: BTreeMap<&'s str, Instructions<'s>>,
}

impl<'s> Program<'s> {
    /// Parse and compile `source`; the error is the parser's (a syntax error).
    pub(crate) fn compile(source: &'s str, syntax: SyntaxConfig) -> Result<Self, Error> {
        let ast = parse(source, "<string>", syntax)?;
        let mut g = CodeGenerator::new("<string>", source);
        g.compile_stmt(&ast);
        let (main, blocks) = g.finish();
        Ok(Program {
            main: reroute(&main),
            blocks: blocks
                .into_iter()
                .map(|(name, ins)| (name, reroute(&ins)))
                .collect(),
        })
    }

    /// Render with `root` as the context.
    /// Whether running it can change a value it was given: only a call of a method or of an
    /// object (`x.append(1)`, `(x|attr('update'))(d)`, `x[k](…)`) can, and an attribute set;
    /// filters, tests and globals never change their arguments.
    pub(crate) fn may_mutate(&self) -> bool {
        std::iter::once(&self.main)
            .chain(self.blocks.values())
            .any(|ins| {
                (0u32..).map_while(|i| ins.get(i)).any(|instr| {
                    matches!(
                        instr,
                        Instruction::CallMethod(..)
                            | Instruction::CallObject(_)
                            | Instruction::SetAttr(_)
                    )
                })
            })
    }

    pub(crate) fn render(&self, env: &Environment<'_>, root: Value) -> Result<String, Error> {
        let mut out = String::new();
        let mut output = minijinja::machinery::make_string_output(&mut out);
        minijinja::machinery::eval(
            env,
            &self.main,
            root,
            &self.blocks,
            &mut output,
            AutoEscape::None,
        )?;
        Ok(out)
    }
}

/// Operations an undefined operand makes raise (Jinja2's `Undefined` defines
/// them all as `_fail_with_undefined_error`; `-` is [`SUB`]'s).
fn is_binary_checked(i: &Instruction<'_>) -> bool {
    matches!(
        i,
        Instruction::Add
            | Instruction::Mul
            | Instruction::Div
            | Instruction::IntDiv
            | Instruction::Rem
            | Instruction::Pow
            | Instruction::Lt
            | Instruction::Lte
            | Instruction::Gt
            | Instruction::Gte
    )
}

/// Check the value on top of the stack, leaving it there.
fn check_top<'s>() -> [Instruction<'s>; 3] {
    [
        Instruction::DupTop,
        Instruction::ApplyFilter(CHECK_OPERAND, Some(1), NO_LOCAL),
        Instruction::DiscardTop,
    ]
}

/// A copy of `ins` with lookups and loop iterables re-routed.
fn reroute<'s>(ins: &Instructions<'s>) -> Instructions<'s> {
    let old: Vec<&Instruction<'s>> = (0u32..).map_while(|i| ins.get(i)).collect();
    // Where each old instruction starts in the new list (inserted ones go
    // before it, so a jump to it runs them too).
    let mut start = Vec::with_capacity(old.len() + 1);
    let mut n = 0u32;
    for instr in &old {
        start.push(n);
        n += match instr {
            Instruction::GetAttr(_) | Instruction::PushLoop(_) => 2,
            i if is_literal(i) => 2,
            Instruction::Add => 10,
            Instruction::Neg => 4,
            i if is_binary_checked(i) => 9,
            _ => 1,
        };
    }
    start.push(n);
    let to = |t: &u32| {
        start
            .get(usize::try_from(*t).unwrap_or(usize::MAX))
            .copied()
            .unwrap_or(*t)
    };
    let mut new = Instructions::new(ins.name(), ins.source());
    for (i, instr) in old.iter().enumerate() {
        let i = u32::try_from(i).unwrap_or(u32::MAX);
        let (span, line) = (ins.get_span(i), ins.get_line(i));
        let mut add = |x: Instruction<'s>| match (span, line) {
            (Some(s), _) => new.add_with_span(x, s),
            (None, Some(l)) => new.add_with_line(x, u16::try_from(l).unwrap_or(u16::MAX)),
            (None, None) => new.add(x),
        };
        match instr {
            Instruction::GetAttr(name) => {
                add(Instruction::LoadConst(Value::from(*name)));
                add(Instruction::ApplyFilter(GETATTR, Some(2), NO_LOCAL));
            }
            Instruction::GetItem => {
                add(Instruction::ApplyFilter(GETITEM, Some(2), NO_LOCAL));
            }
            Instruction::Sub => {
                add(Instruction::ApplyFilter(SUB, Some(2), NO_LOCAL));
            }
            Instruction::StringConcat => {
                add(Instruction::ApplyFilter(CONCAT, Some(2), NO_LOCAL));
            }
            Instruction::In => {
                add(Instruction::ApplyFilter(CONTAINS, Some(2), NO_LOCAL));
            }
            Instruction::Eq => {
                add(Instruction::ApplyFilter(EQ, Some(2), NO_LOCAL));
            }
            Instruction::Ne => {
                add(Instruction::ApplyFilter(NE, Some(2), NO_LOCAL));
            }
            Instruction::Neg => {
                for x in check_top() {
                    add(x);
                }
                add(Instruction::Neg);
            }
            i if is_binary_checked(i) => {
                // [a, b] -> check a, then b, leaving [a, b] for the operation.
                add(Instruction::Swap);
                for x in check_top() {
                    add(x);
                }
                add(Instruction::Swap);
                for x in check_top() {
                    add(x);
                }
                add((*i).clone());
                if matches!(i, Instruction::Add) {
                    add(Instruction::ApplyFilter(SUM, Some(1), NO_LOCAL));
                }
            }
            i if is_literal(i) => {
                add((*i).clone());
                add(Instruction::ApplyFilter(FRESH, Some(1), NO_LOCAL));
            }
            Instruction::PushLoop(flags) => {
                add(Instruction::ApplyFilter(ITER, Some(1), NO_LOCAL));
                add(Instruction::PushLoop(*flags));
            }
            Instruction::Jump(t) => {
                add(Instruction::Jump(to(t)));
            }
            Instruction::JumpIfFalse(t) => {
                add(Instruction::JumpIfFalse(to(t)));
            }
            Instruction::JumpIfFalseOrPop(t) => {
                add(Instruction::JumpIfFalseOrPop(to(t)));
            }
            Instruction::JumpIfTrueOrPop(t) => {
                add(Instruction::JumpIfTrueOrPop(to(t)));
            }
            Instruction::Iterate(t) => {
                add(Instruction::Iterate(to(t)));
            }
            Instruction::BuildMacro(name, t, flags) => {
                add(Instruction::BuildMacro(name, to(t), *flags));
            }
            other => {
                add((*other).clone());
            }
        }
    }
    new
}
