//! `Slot`: a collection's contents, set when it is built, or once later for
//! one that must exist before its contents (a recursive alias).

use std::sync::OnceLock;

/// Contents set at construction ([`Slot::Ready`]), or filled once later
/// ([`Slot::Later`]).
///
/// Most collections are built with their contents; only the constructor's
/// recursive aliases (`&a [*a]`) need a node that exists before what it
/// holds. Keeping the two apart spares the common case the `OnceLock`'s
/// atomic set: a loaded tree has a collection every few nodes, and those
/// sets were ~2 % of a large render. The rare form is boxed: a slot is then
/// as small as its contents (24 bytes for a list, not 32), which keeps a
/// node within 80 bytes (see `Node`).
pub(super) enum Slot<T> {
    /// Built with its contents; never filled again.
    Ready(T),
    /// Empty until filled, once.
    Later(Box<OnceLock<T>>),
}

impl<T> Slot<T> {
    /// An empty slot, to be filled once with [`Slot::fill`].
    pub(super) fn pending() -> Self {
        Slot::Later(Box::new(OnceLock::new()))
    }

    /// The contents (`None` while pending).
    pub(super) fn get(&self) -> Option<&T> {
        match self {
            Slot::Ready(t) => Some(t),
            Slot::Later(cell) => cell.get(),
        }
    }

    /// Fill a pending slot; gives `value` back if the slot is already set.
    pub(super) fn fill(&self, value: T) -> Result<(), T> {
        match self {
            Slot::Ready(_) => Err(value),
            Slot::Later(cell) => cell.set(value),
        }
    }

    /// The contents, to edit in place (`None` while pending).
    pub(super) fn get_mut(&mut self) -> Option<&mut T> {
        match self {
            Slot::Ready(t) => Some(t),
            Slot::Later(cell) => cell.get_mut(),
        }
    }

    /// The contents, taken out (`None` while pending).
    pub(super) fn into_inner(self) -> Option<T> {
        match self {
            Slot::Ready(t) => Some(t),
            Slot::Later(cell) => (*cell).into_inner(),
        }
    }
}

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Slot::pending()
    }
}

#[cfg(test)]
mod tests {
    use super::Slot;

    #[test]
    fn ready_is_set_once_and_later_fills_once() {
        let ready = Slot::Ready(1);
        assert_eq!(ready.get(), Some(&1));
        assert_eq!(ready.fill(2), Err(2));
        let mut ready = ready;
        if let Some(t) = ready.get_mut() {
            *t = 5;
        }
        assert_eq!(ready.into_inner(), Some(5));

        let later: Slot<i32> = Slot::pending();
        assert_eq!(later.get(), None);
        assert_eq!(later.fill(3), Ok(()));
        assert_eq!(later.fill(4), Err(4));
        assert_eq!(later.get(), Some(&3));
        let mut later = later;
        assert_eq!(later.get_mut(), Some(&mut 3));
        assert_eq!(later.into_inner(), Some(3));
        assert_eq!(Slot::<i32>::default().into_inner(), None);
    }
}
