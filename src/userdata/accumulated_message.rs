//! `AccumulatedMessage`: cloud-init's accumulating message — the parts it attached, the message objects they share, and the handlers' walk over them.
//!
//! cloud-init's processor attaches part *objects*. A `message/rfc822` part is
//! attached together with the message inside it, whose own parts are attached
//! again right after it; the handlers then walk the accumulated message, so
//! every part inside a message is handed to them once for itself and once
//! more for each enclosing message. The walk also meets the objects the
//! processor expanded instead of attaching (the original of a gzip part, an
//! include or archive part). Nodes are therefore kept in one arena, shared by
//! the attached list and the messages' subtrees, as Python shares the objects.

use super::launch_index::selects;
use super::leaf::Body;
use super::leaf::Leaf;
use super::processor::ProcessError;
use super::user_data_options::Limits;
use std::sync::Arc;

/// One message object.
#[derive(Debug, Clone)]
pub struct MessageNode {
    /// Its headers and payload (as mutated by the processor).
    pub leaf: Arc<Leaf>,
    /// Arena ids of its sub-messages (a multipart's parts, a message/*'s message).
    pub children: Vec<usize>,
    /// A `multipart/*` container: both walks pass over it (not its parts).
    pub container: bool,
}

/// The accumulated message.
#[derive(Debug, Clone, Default)]
pub struct AccumulatedMessage {
    nodes: Vec<MessageNode>,
    attached: Vec<usize>,
}

/// One part as the handler walk hands it over.
#[derive(Debug, Clone)]
pub struct HandledPart {
    /// Arena id of the message object.
    pub node: usize,
    /// The part.
    pub leaf: Arc<Leaf>,
    /// 1 the first time the walk meets this object, 2… for each repetition.
    pub occurrence: usize,
    /// Whether the processor attached it (else it is only inside a message).
    pub attached: bool,
}

/// The handlers' walk after the launch-index filter.
#[derive(Debug, Clone, Default)]
pub struct HandlerWalk {
    /// The parts in the order handlers see them.
    pub parts: Vec<HandledPart>,
    /// Attached parts the launch-index filter removed, with the 1-based
    /// number each was attached as (its `part-NNN`).
    pub filtered_out: Vec<(usize, Arc<Leaf>)>,
}

impl AccumulatedMessage {
    /// Add a message object; returns its id.
    pub(crate) fn push(&mut self, leaf: Leaf, children: Vec<usize>, container: bool) -> usize {
        self.nodes.push(MessageNode {
            leaf: Arc::new(leaf),
            children,
            container,
        });
        self.nodes.len() - 1
    }

    /// Make `child` the last sub-message of `parent`.
    pub(crate) fn add_child(&mut self, parent: usize, child: usize) {
        if let Some(n) = self.nodes.get_mut(parent) {
            n.children.push(child);
        }
    }

    /// The node `id` (ids come from `push`).
    pub fn node(&self, id: usize) -> Option<&MessageNode> {
        self.nodes.get(id)
    }

    /// The part `id` for changing (it is not shared while processing).
    pub(crate) fn leaf_mut(&mut self, id: usize) -> Option<&mut Leaf> {
        self.nodes.get_mut(id).map(|n| Arc::make_mut(&mut n.leaf))
    }

    /// Move part `id` out to change it without copying its body; an empty part
    /// stands in until [`put_leaf`](Self::put_leaf) puts it back.
    pub(crate) fn take_leaf(&mut self, id: usize) -> Option<Leaf> {
        self.leaf_mut(id)
            .map(|slot| std::mem::replace(slot, Leaf::empty()))
    }

    /// Put back a part taken with [`take_leaf`](Self::take_leaf).
    pub(crate) fn put_leaf(&mut self, id: usize, leaf: Leaf) {
        if let Some(slot) = self.leaf_mut(id) {
            *slot = leaf;
        }
    }

    /// `outer_msg.attach(part)`.
    pub(crate) fn attach(&mut self, id: usize) {
        self.attached.push(id);
    }

    /// How many parts are attached (the last `part-NNN` number).
    pub fn attached_count(&self) -> usize {
        self.attached.len()
    }

    /// The attached parts in order.
    pub fn attached(&self) -> impl Iterator<Item = &Arc<Leaf>> {
        self.attached
            .iter()
            .filter_map(|&id| self.nodes.get(id).map(|n| &n.leaf))
    }

    /// The launch-index filter (`wanted`: `None` keeps everything), then
    /// `handlers.walk`: depth first over the attached parts and, for a
    /// message part, the message inside it; multipart containers are passed
    /// over. The filter drops a non-matching object with everything inside it.
    /// The repetition grows with the square of the nesting depth, so it is
    /// bounded: more than `limits.max_parts` handled parts is an error, and so
    /// is handing over again (repeated parts, expanded originals) more than
    /// `limits.max_input_size` payload bytes in total.
    pub fn handler_walk(
        &self,
        wanted: Option<i64>,
        limits: &Limits,
    ) -> Result<HandlerWalk, ProcessError> {
        let max_parts = limits.max_parts;
        let mut again_bytes: u64 = 0;
        let mut out = HandlerWalk::default();
        let mut seen = vec![0usize; self.nodes.len()];
        let mut is_attached = vec![false; self.nodes.len()];
        for &id in &self.attached {
            if let Some(a) = is_attached.get_mut(id) {
                *a = true;
            }
        }
        // Each id with, for an attached part, its 1-based attach number.
        let mut stack: Vec<(usize, Option<usize>)> = self
            .attached
            .iter()
            .enumerate()
            .rev()
            .map(|(k, &id)| (id, Some(k + 1)))
            .collect();
        while let Some((id, top)) = stack.pop() {
            let Some(node) = self.nodes.get(id) else {
                continue;
            };
            if let Some(w) = wanted
                && !selects(&node.leaf, w)
            {
                if let Some(number) = top {
                    out.filtered_out.push((number, node.leaf.clone()));
                }
                continue;
            }
            stack.extend(node.children.iter().rev().map(|&c| (c, None)));
            if node.container {
                continue;
            }
            if out.parts.len() >= max_parts {
                return Err(ProcessError::Limit(format!(
                    "more than the limit of {max_parts} parts handed to the handlers (parts inside message/rfc822 parts are handed once more for each enclosing message) (raise it with --max-parts)"
                )));
            }
            let occurrence = match seen.get_mut(id) {
                Some(n) => {
                    *n += 1;
                    *n
                }
                None => 1,
            };
            let attached = is_attached.get(id).copied().unwrap_or(false);
            if occurrence > 1 || !attached {
                again_bytes = again_bytes.saturating_add(payload_len(&node.leaf));
                if again_bytes > limits.max_input_size {
                    return Err(ProcessError::Limit(format!(
                        "parts inside message/rfc822 parts, handed to the handlers again, add up to more than the limit of {} bytes (raise it with --max-input-size)",
                        limits.max_input_size
                    )));
                }
            }
            out.parts.push(HandledPart {
                node: id,
                leaf: node.leaf.clone(),
                occurrence,
                attached,
            });
        }
        Ok(out)
    }
}

/// The bytes a handler reads from `leaf`.
fn payload_len(leaf: &Leaf) -> u64 {
    match &leaf.body {
        Body::Bytes(b) => b.len() as u64,
        Body::None => 0,
    }
}
