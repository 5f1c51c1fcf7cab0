//! `Args`: a call's positional and keyword arguments, read the way a Python signature binds them.

use super::py_error::{PyExc, py_err};
use minijinja::Error;
use minijinja::value::Value;

/// Arguments of one call of a filter, test, global or method.
#[derive(Debug)]
pub(crate) struct Args<'a> {
    name: &'a str,
    pos: Vec<Value>,
    kw: Vec<(String, Value)>,
}

impl<'a> Args<'a> {
    /// Split `args` (a trailing kwargs map is MiniJinja's keyword arguments).
    pub(crate) fn new(name: &'a str, args: &[Value]) -> Self {
        let mut pos = args.to_vec();
        let mut kw = Vec::new();
        if pos.last().is_some_and(Value::is_kwargs)
            && let Some(map) = pos.pop()
        {
            for (k, v) in super::py_ops::pairs(&map).into_iter() {
                kw.push((k.as_str().unwrap_or_default().to_owned(), v));
            }
        }
        Args { name, pos, kw }
    }

    /// The positional arguments and the keyword ones (a `**kwargs` signature).
    pub(crate) fn pos_and_kw(&self) -> (Vec<Value>, Vec<(String, Value)>) {
        (self.pos.clone(), self.kw.clone())
    }

    /// Positional count.
    pub(crate) fn len(&self) -> usize {
        self.pos.len()
    }

    /// Bind to `params` (name, required): values in order, `None` for absent
    /// optional ones; Python's `TypeError` texts for the rest.
    pub(crate) fn bind(&self, params: &[(&str, bool)]) -> Result<Vec<Option<Value>>, Error> {
        let name = self.name;
        if self.pos.len() > params.len() {
            return py_err(
                PyExc::TypeError,
                format!(
                    "{name}() takes {} positional argument{} but {} were given",
                    params.len(),
                    if params.len() == 1 { "" } else { "s" },
                    self.pos.len()
                ),
            );
        }
        let mut out: Vec<Option<Value>> = params
            .iter()
            .enumerate()
            .map(|(i, _)| self.pos.get(i).cloned())
            .collect();
        for (k, v) in &self.kw {
            match params.iter().position(|(p, _)| p == k) {
                Some(i) => {
                    if let Some(slot) = out.get_mut(i) {
                        if slot.is_some() {
                            return py_err(
                                PyExc::TypeError,
                                format!("{name}() got multiple values for argument '{k}'"),
                            );
                        }
                        *slot = Some(v.clone());
                    }
                }
                None => {
                    return py_err(
                        PyExc::TypeError,
                        format!("{name}() got an unexpected keyword argument '{k}'"),
                    );
                }
            }
        }
        for ((p, required), v) in params.iter().zip(&out) {
            if *required && v.is_none() {
                return py_err(
                    PyExc::TypeError,
                    format!("{name}() missing 1 required positional argument: '{p}'"),
                );
            }
        }
        Ok(out)
    }

    /// No arguments.
    pub(crate) fn none(&self) -> Result<(), Error> {
        if !self.pos.is_empty() || !self.kw.is_empty() {
            return py_err(
                PyExc::TypeError,
                format!(
                    "{}() takes no arguments ({} given)",
                    self.name,
                    self.pos.len() + self.kw.len()
                ),
            );
        }
        Ok(())
    }

    /// Exactly one positional argument.
    pub(crate) fn one(&self) -> Result<Value, Error> {
        match (self.pos.as_slice(), self.kw.is_empty()) {
            ([v], true) => Ok(v.clone()),
            _ => py_err(
                PyExc::TypeError,
                format!(
                    "{}() takes exactly one argument ({} given)",
                    self.name,
                    self.pos.len() + self.kw.len()
                ),
            ),
        }
    }

    /// Zero or one positional argument.
    pub(crate) fn opt_one(&self) -> Result<Option<Value>, Error> {
        match (self.pos.as_slice(), self.kw.is_empty()) {
            ([], true) => Ok(None),
            ([v], true) => Ok(Some(v.clone())),
            _ => py_err(
                PyExc::TypeError,
                format!(
                    "{} expected at most 1 argument, got {}",
                    self.name,
                    self.pos.len() + self.kw.len()
                ),
            ),
        }
    }

    /// One required, one optional positional argument.
    pub(crate) fn two_opt(&self) -> Result<(Value, Option<Value>), Error> {
        if !self.kw.is_empty() || self.pos.is_empty() || self.pos.len() > 2 {
            return py_err(
                PyExc::TypeError,
                format!(
                    "{} expected 1 or 2 arguments, got {}",
                    self.name,
                    self.pos.len() + self.kw.len()
                ),
            );
        }
        Ok((
            self.pos.first().cloned().unwrap_or_default(),
            self.pos.get(1).cloned(),
        ))
    }

    /// One required, two optional positional arguments.
    pub(crate) fn three_opt(&self) -> Result<(Value, Option<Value>, Option<Value>), Error> {
        if !self.kw.is_empty() || self.pos.is_empty() || self.pos.len() > 3 {
            return py_err(
                PyExc::TypeError,
                format!(
                    "{} expected 1 to 3 arguments, got {}",
                    self.name,
                    self.pos.len() + self.kw.len()
                ),
            );
        }
        Ok((
            self.pos.first().cloned().unwrap_or_default(),
            self.pos.get(1).cloned(),
            self.pos.get(2).cloned(),
        ))
    }

    /// Two required, one optional positional argument.
    pub(crate) fn three_opt_req2(&self) -> Result<(Value, Value, Option<Value>), Error> {
        if !self.kw.is_empty() || self.pos.len() < 2 || self.pos.len() > 3 {
            return py_err(
                PyExc::TypeError,
                format!(
                    "{} expected at least 2 arguments, got {}",
                    self.name,
                    self.pos.len() + self.kw.len()
                ),
            );
        }
        Ok((
            self.pos.first().cloned().unwrap_or_default(),
            self.pos.get(1).cloned().unwrap_or_default(),
            self.pos.get(2).cloned(),
        ))
    }

    /// Two optional arguments that may also be given by name.
    pub(crate) fn named2(&self, a: &str, b: &str) -> Result<(Option<Value>, Option<Value>), Error> {
        let v = self.bind(&[(a, false), (b, false)])?;
        let mut it = v.into_iter();
        Ok((it.next().flatten(), it.next().flatten()))
    }
}
