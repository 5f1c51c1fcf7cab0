//! `PyError`: the Python exception a Jinja2 render raises (class and message), and the render's first-error slot.
//!
//! MiniJinja aborts a render with its own error kinds; Jinja2 raises Python
//! exceptions whose class decides cloud-init's path (`TypeError` and
//! `UndefinedError` drop the part with a warning, anything else reaches
//! `run_part`'s `logexc`) and whose text is in the warning. cloudfold's
//! filters, tests, methods and objects raise a [`PyError`]: it is kept in a
//! per-render slot (the first one wins, as the first raise ends a Python
//! render) and the render is aborted with a MiniJinja error pointing at it.

use std::cell::RefCell;

/// A Python exception class a template render can raise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(
    clippy::enum_variant_names,
    reason = "the variants are Python's exception class names"
)]
#[non_exhaustive]
pub enum PyExc {
    /// `TypeError` (cloud-init drops the part: "Ignoring jinja template for …").
    TypeError,
    /// `jinja2.exceptions.UndefinedError` (dropped the same way).
    UndefinedError,
    /// `ValueError` (reaches `run_part`).
    ValueError,
    /// `OverflowError` (reaches `run_part`; `'1e500'|int` on Jinja2 3.1.2).
    OverflowError,
    /// `ZeroDivisionError` (reaches `run_part`).
    ZeroDivisionError,
    /// `jinja2.exceptions.TemplateRuntimeError` and its subclasses (reaches `run_part`).
    TemplateRuntimeError,
    /// `KeyError`, `IndexError`, `AttributeError` and other lookups (reach `run_part`).
    LookupError,
}

impl PyExc {
    /// Whether cloud-init's `render_jinja_payload` catches it (`except
    /// (TypeError, JUndefinedError)`): the part is dropped with a warning
    /// naming the message, rather than through `run_part`'s traceback.
    pub fn caught_by_cloud_init(self) -> bool {
        matches!(self, PyExc::TypeError | PyExc::UndefinedError)
    }

    /// The class name Python prints.
    pub fn name(self) -> &'static str {
        match self {
            PyExc::TypeError => "TypeError",
            PyExc::UndefinedError => "UndefinedError",
            PyExc::ValueError => "ValueError",
            PyExc::OverflowError => "OverflowError",
            PyExc::ZeroDivisionError => "ZeroDivisionError",
            PyExc::TemplateRuntimeError => "TemplateRuntimeError",
            PyExc::LookupError => "LookupError",
        }
    }
}

/// What went wrong inside a render, in Python's terms — or a construct
/// cloudfold cannot reproduce exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RenderFault {
    /// Jinja2 raises this exception.
    Py(PyExc, String),
    /// The template uses something whose Jinja2 result cloudfold cannot
    /// reproduce exactly (named in the message); cloudfold says so rather
    /// than guess.
    Unsupported(String),
}

impl RenderFault {
    /// A `TypeError`.
    pub fn type_error(msg: impl Into<String>) -> Self {
        RenderFault::Py(PyExc::TypeError, msg.into())
    }

    /// An `UndefinedError`.
    pub fn undefined(msg: impl Into<String>) -> Self {
        RenderFault::Py(PyExc::UndefinedError, msg.into())
    }

    /// Something cloudfold does not reproduce.
    pub fn unsupported(msg: impl Into<String>) -> Self {
        RenderFault::Unsupported(msg.into())
    }
}

thread_local! {
    /// The first fault of the render running on this thread (`None` outside a render).
    static SLOT: RefCell<Option<Option<RenderFault>>> = const { RefCell::new(None) };
}

thread_local! {
    /// Items the render running on this thread may still add to its lists
    /// and dicts (`None`: no budget set).
    static GROWTH: std::cell::Cell<Option<(u64, u64)>> = const { std::cell::Cell::new(None) };
}

/// Give the renders on this thread a budget of `limit` added items (until
/// [`FaultScope`]'s drop).
pub(crate) fn set_growth_budget(limit: u64) {
    GROWTH.with(|g| g.set(Some((limit, limit))));
}

/// Spend `n` of the budget; `Err(limit)` when it is used up.
pub(crate) fn grow(n: usize) -> Result<(), u64> {
    GROWTH.with(|g| match g.get() {
        None => Ok(()),
        Some((left, limit)) => {
            let n = u64::try_from(n).unwrap_or(u64::MAX);
            match left.checked_sub(n) {
                Some(rest) => {
                    g.set(Some((rest, limit)));
                    Ok(())
                }
                None => Err(limit),
            }
        }
    })
}

/// Marks a render in progress on this thread; its drop ends it.
#[derive(Debug)]
pub(crate) struct FaultScope(());

impl FaultScope {
    /// Start collecting faults for a render on this thread.
    pub(crate) fn begin() -> Self {
        SLOT.with(|s| *s.borrow_mut() = Some(None));
        super::group_tuple::clear();
        FaultScope(())
    }

    /// The first fault raised so far.
    pub(crate) fn take(&self) -> Option<RenderFault> {
        SLOT.with(|s| s.borrow_mut().as_mut().and_then(Option::take))
    }
}

impl Drop for FaultScope {
    fn drop(&mut self) {
        SLOT.with(|s| *s.borrow_mut() = None);
        super::group_tuple::clear();
        GROWTH.with(|g| g.set(None));
    }
}

/// Record `fault` (unless an earlier one is there) and return the MiniJinja
/// error that aborts the render.
pub(crate) fn raise(fault: RenderFault) -> minijinja::Error {
    let text = match &fault {
        RenderFault::Py(exc, msg) => format!("{}: {msg}", exc.name()),
        RenderFault::Unsupported(msg) => format!("unsupported: {msg}"),
    };
    note(fault);
    minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, text)
}

/// Record `fault` without aborting (a lookup that Python would have raised
/// on returns a value so MiniJinja goes on; the fault decides the outcome).
pub(crate) fn note(fault: RenderFault) {
    SLOT.with(|s| {
        if let Some(slot) = s.borrow_mut().as_mut()
            && slot.is_none()
        {
            *slot = Some(fault);
        }
    });
}

/// Whether a fault has been recorded in this render (work after it is moot).
pub(crate) fn faulted() -> bool {
    SLOT.with(|s| s.borrow().as_ref().is_some_and(Option::is_some))
}

/// `Err(raise(fault))`.
pub(crate) fn py_err<T>(exc: PyExc, msg: impl Into<String>) -> Result<T, minijinja::Error> {
    Err(raise(RenderFault::Py(exc, msg.into())))
}

/// `Err(raise(Unsupported))`.
pub(crate) fn unsupported<T>(msg: impl Into<String>) -> Result<T, minijinja::Error> {
    Err(raise(RenderFault::Unsupported(msg.into())))
}
