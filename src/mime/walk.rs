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

/// Iterator returned by [`Message::into_walk`]: [`Walk`]'s order and depths,
/// by value. Each part comes without its sub-parts (its payload is an empty
/// list of the same kind, so it still reads as a container); they follow it.
#[derive(Debug)]
pub struct IntoWalk {
    root: Option<Message>,
    /// The sub-parts still to come, one iterator per open level.
    levels: Vec<std::vec::IntoIter<Message>>,
}

impl IntoWalk {
    pub(crate) fn new(root: Message) -> Self {
        IntoWalk {
            root: Some(root),
            levels: Vec::new(),
        }
    }
}

impl Iterator for IntoWalk {
    type Item = (usize, Message);

    fn next(&mut self) -> Option<(usize, Message)> {
        let (depth, mut msg) = match self.root.take() {
            Some(root) => (0, root),
            None => loop {
                let level = self.levels.last_mut()?;
                match level.next() {
                    Some(m) => break (self.levels.len(), m),
                    None => {
                        self.levels.pop();
                    }
                }
            },
        };
        if let Some(kids) = msg.children_mut()
            && !kids.is_empty()
        {
            self.levels.push(std::mem::take(kids).into_iter());
        }
        Some((depth, msg))
    }
}

#[cfg(test)]
mod tests {
    use crate::mime::parse;

    /// By value, the walk gives the same parts at the same depths, and each
    /// part's decoded body and headers are what the borrowing accessors say.
    #[test]
    fn into_walk_matches_walk() {
        let doc = "Content-Type: multipart/mixed; boundary=A\n\n--A\n\
                   Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\naGk=\n--A\n\
                   Content-Type: message/rfc822\n\nContent-Type: multipart/alternative; boundary=B\n\n\
                   --B\nX: 1\n\nb\u{e9}\u{20ac}\n--B\nContent-Type: text/x\n\n\n--B--\n--A\n\
                   Content-Type: multipart/mixed\n\nno boundary\n--A--\n";
        let msg = parse(doc).unwrap();
        let want: Vec<_> = msg
            .walk()
            .with_depth()
            .map(|(d, m)| {
                let headers = m.headers().to_vec();
                let ct = m.get_content_type().to_owned();
                (d, headers, ct, m.get_payload_decoded(), m.is_multipart())
            })
            .collect();
        let got: Vec<_> = msg
            .clone()
            .into_walk()
            .map(|(d, m)| {
                let multipart = m.is_multipart();
                assert!(m.children().is_empty());
                let p = m.into_decoded();
                (
                    d,
                    p.headers,
                    p.content_type,
                    p.body.map(|b| b.into_vec()),
                    multipart,
                )
            })
            .collect();
        assert_eq!(got, want);
        assert_eq!(got.len(), 7);
        assert_eq!(
            got.iter().map(|g| g.0).collect::<Vec<_>>(),
            [0, 1, 1, 2, 3, 3, 1]
        );
    }
}
