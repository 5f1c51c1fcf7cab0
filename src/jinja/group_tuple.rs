//! `GroupTuple`: Jinja2's `_GroupTuple` (what `groupby` yields), a 2-tuple that also answers `.grouper` and `.list`.
//!
//! Jinja2's `_GroupTuple` is a `NamedTuple` whose `repr`/`str` are the plain
//! tuple's, so cloudfold makes it a tuple; which tuples are group tuples is
//! remembered for the render (they are kept alive, so an address names one
//! tuple only), and only they answer the two field names.

use minijinja::value::{Tuple, Value};
use std::cell::RefCell;
use std::collections::HashSet;

thread_local! {
    /// The group tuples made by this thread's render, and their addresses.
    static GROUPS: RefCell<(Vec<Value>, HashSet<usize>)> = RefCell::new((Vec::new(), HashSet::new()));
}

fn address(t: &Tuple) -> usize {
    std::ptr::from_ref(t) as usize
}

/// `_GroupTuple(grouper, list)`.
pub(crate) fn group_tuple(grouper: Value, list: Value) -> Value {
    let v = super::py_object::py_tuple(vec![grouper, list]);
    if let Some(t) = v.downcast_object_ref::<Tuple>() {
        let at = address(t);
        GROUPS.with(|g| {
            let mut g = g.borrow_mut();
            g.1.insert(at);
            g.0.push(v.clone());
        });
    }
    v
}

/// `obj.grouper` / `obj.list` of a group tuple.
pub(crate) fn field(obj: &Value, name: &str) -> Option<Value> {
    let index = match name {
        "grouper" => 0,
        "list" => 1,
        _ => return None,
    };
    let t = obj.downcast_object_ref::<Tuple>()?;
    if !GROUPS.with(|g| g.borrow().1.contains(&address(t))) {
        return None;
    }
    obj.get_item_by_index(index).ok()
}

/// Forget this thread's group tuples (a render starts or ends).
pub(crate) fn clear() {
    GROUPS.with(|g| {
        let mut g = g.borrow_mut();
        g.0.clear();
        g.1.clear();
    });
}
