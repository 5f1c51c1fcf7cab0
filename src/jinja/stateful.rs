//! `Joiner` and `Cycler`: Jinja2's two stateful globals (`joiner()`, `cycler()`).

use super::py_error::{PyExc, py_err};
use minijinja::value::{Object, ObjectRepr, Value};
use minijinja::{Error, State};
use std::sync::{Arc, Mutex, MutexGuard};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `joiner(sep=", ")`: called, gives `""` the first time and `sep` after.
#[derive(Debug)]
pub(super) struct Joiner {
    sep: Value,
    used: Mutex<bool>,
}

impl Joiner {
    /// `joiner(*args)`: the separator is the one argument (positional or `sep=`).
    pub(crate) fn new_value(args: &[Value]) -> Result<Value, Error> {
        let v = super::args::Args::new("Joiner", args).bind(&[("sep", false)])?;
        let sep = v
            .into_iter()
            .next()
            .flatten()
            .unwrap_or_else(|| Value::from(", "));
        Ok(Value::from_object(Joiner {
            sep,
            used: Mutex::new(false),
        }))
    }
}

impl Object for Joiner {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Plain
    }

    fn call(self: &Arc<Self>, _state: &mut State<'_, '_>, args: &[Value]) -> Result<Value, Error> {
        if !args.is_empty() {
            return py_err(
                PyExc::TypeError,
                format!(
                    "Joiner.__call__() takes 1 positional argument but {} were given",
                    args.len() + 1
                ),
            );
        }
        let mut used = lock(&self.used);
        if *used {
            Ok(self.sep.clone())
        } else {
            *used = true;
            Ok(Value::from(""))
        }
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        match key {
            "sep" => Some(self.sep.clone()),
            "used" => Some(Value::from(*lock(&self.used))),
            _ => None,
        }
    }
}

/// `cycler(*items)`: `.next()` gives the items in turn, `.current`, `.reset()`.
#[derive(Debug)]
pub(super) struct Cycler {
    items: Vec<Value>,
    pos: Mutex<usize>,
}

impl Cycler {
    /// `cycler(*items)` (at least one).
    pub(crate) fn new_value(args: &[Value]) -> Result<Value, Error> {
        if args.iter().any(Value::is_kwargs) {
            return py_err(
                PyExc::TypeError,
                "Cycler.__init__() got an unexpected keyword argument",
            );
        }
        if args.is_empty() {
            return py_err(
                PyExc::TemplateRuntimeError,
                "at least one item has to be provided",
            );
        }
        Ok(Value::from_object(Cycler {
            items: args.to_vec(),
            pos: Mutex::new(0),
        }))
    }

    fn current(&self) -> Value {
        self.items
            .get(*lock(&self.pos))
            .cloned()
            .unwrap_or_default()
    }
}

impl Object for Cycler {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Plain
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        match key {
            "current" => Some(self.current()),
            "items" => Some(super::py_object::py_tuple(self.items.clone())),
            "pos" => Some(Value::from(*lock(&self.pos))),
            _ => None,
        }
    }

    fn call_method(
        self: &Arc<Self>,
        _state: &mut State<'_, '_>,
        method: &str,
        args: &[Value],
    ) -> Result<Value, Error> {
        if !args.is_empty() && matches!(method, "next" | "__next__" | "reset") {
            return py_err(
                PyExc::TypeError,
                format!(
                    "Cycler.{method}() takes 1 positional argument but {} were given",
                    args.len() + 1
                ),
            );
        }
        match method {
            "next" | "__next__" => {
                let rv = self.current();
                let mut pos = lock(&self.pos);
                *pos = (*pos + 1) % self.items.len().max(1);
                Ok(rv)
            }
            "reset" => {
                *lock(&self.pos) = 0;
                Ok(Value::from(()))
            }
            _ => py_err(
                PyExc::UndefinedError,
                format!("'jinja2.utils.Cycler object' has no attribute '{method}'"),
            ),
        }
    }
}
