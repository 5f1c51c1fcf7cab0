//! `SharedBytes`: bytes that are a [`SharedText`]'s own (no copy) or owned outright.

use super::SharedText;
use std::fmt;
use std::ops::Deref;

/// A byte string: the UTF-8 bytes of a [`SharedText`] (a body with no
/// transfer encoding to undo is the text it was cut from), or a vector.
#[derive(Clone)]
pub struct SharedBytes(Repr);

#[derive(Clone)]
enum Repr {
    Text(SharedText),
    Owned(Vec<u8>),
}

impl SharedBytes {
    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Text(t) => t.as_bytes(),
            Repr::Owned(v) => v,
        }
    }

    /// The bytes as text if they are UTF-8 (known without a scan when they
    /// came from a text).
    pub fn as_str(&self) -> Option<&str> {
        match &self.0 {
            Repr::Text(t) => Some(t.as_str()),
            Repr::Owned(v) => std::str::from_utf8(v).ok(),
        }
    }

    /// The text these bytes are, when they are a text's own (not a copy).
    pub fn as_text(&self) -> Option<&SharedText> {
        match &self.0 {
            Repr::Text(t) => Some(t),
            Repr::Owned(_) => None,
        }
    }

    /// The bytes as an owned vector (copied if shared).
    pub fn into_vec(self) -> Vec<u8> {
        match self.0 {
            Repr::Text(t) => t.into_string().into_bytes(),
            Repr::Owned(v) => v,
        }
    }
}

impl Default for SharedBytes {
    fn default() -> Self {
        SharedBytes(Repr::Owned(Vec::new()))
    }
}

impl Deref for SharedBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl From<Vec<u8>> for SharedBytes {
    fn from(v: Vec<u8>) -> Self {
        SharedBytes(Repr::Owned(v))
    }
}

impl From<SharedText> for SharedBytes {
    fn from(t: SharedText) -> Self {
        SharedBytes(Repr::Text(t))
    }
}

impl PartialEq for SharedBytes {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for SharedBytes {}

impl fmt::Debug for SharedBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_bytes(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn text_bytes_are_the_text_and_known_utf8() {
        let src = Arc::new("abc\u{e9}".to_owned());
        let b = SharedBytes::from(SharedText::slice(&src, 1..5).unwrap());
        assert_eq!(&*b, "bc\u{e9}".as_bytes());
        assert_eq!(b.as_str(), Some("bc\u{e9}"));
        let o = SharedBytes::from(vec![0xff, b'a']);
        assert_eq!(o.as_str(), None);
        assert_eq!(b.clone().into_vec(), "bc\u{e9}".as_bytes());
        assert_eq!(o.into_vec(), vec![0xff, b'a']);
    }
}
