//! `Walk`: depth-first, document-order iteration over a message tree (no recursion).

use super::message::Message;

/// Iterator returned by [`Message::walk`]: the message itself, then each
/// sub-part's walk, in order. Yields `(depth, part)` via [`Walk::with_depth`].
#[derive(Debug, Clone)]
pub struct Walk<'a> {
    stack: Vec<(usize, &'a Message)>,
}

impl<'a> Walk<'a> {
    pub(crate) fn new(root: &'a Message) -> Self {
        Walk {
            stack: vec![(0, root)],
        }
    }

    /// Iterate with the nesting depth of each part (root = 0).
    pub fn with_depth(self) -> WalkWithDepth<'a> {
        WalkWithDepth { inner: self }
    }

    fn next_entry(&mut self) -> Option<(usize, &'a Message)> {
        let (depth, msg) = self.stack.pop()?;
        for child in msg.children().iter().rev() {
            self.stack.push((depth + 1, child));
        }
        Some((depth, msg))
    }
}

impl<'a> Iterator for Walk<'a> {
    type Item = &'a Message;

    fn next(&mut self) -> Option<&'a Message> {
        self.next_entry().map(|(_, m)| m)
    }
}

/// [`Walk`] with depths.
#[derive(Debug, Clone)]
pub struct WalkWithDepth<'a> {
    inner: Walk<'a>,
}

impl<'a> Iterator for WalkWithDepth<'a> {
    type Item = (usize, &'a Message);

    fn next(&mut self) -> Option<(usize, &'a Message)> {
        self.inner.next_entry()
    }
}
