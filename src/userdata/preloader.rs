//! `Preloader`: cloud-config parts' YAML loaded on two threads while the fold merges them in order.
//!
//! Loading a part depends on nothing but its own text, while merging must go
//! in part order. So for a payload with many parts a helper thread loads
//! parts from the front of the queue, and the fold, whenever the part it is
//! to merge next is not loaded yet, loads the next unclaimed one itself
//! instead of waiting: the loads spread over both threads and the merges stay
//! in order. A part the helper did not load (not valid UTF-8, or no helper at
//! all) is loaded by the handler as usual, so the result never depends on the
//! helper.

use super::cloud_config_handler::Loaded;
use super::leaf::{Body, Leaf};
use super::part_type::PartType;
use super::user_data_options::UserDataOptions;
use super::yaml_text::load_str_in;
use crate::source::SourceId;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::Scope;

/// When cloud-config parts are loaded on a helper thread.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Preload {
    /// When the payload is large enough to gain from it: at least two
    /// cloud-config parts and [`Preload::MIN_BYTES`] of them.
    #[default]
    Auto,
    /// Never: every part is loaded as the fold reaches it.
    Off,
    /// Whenever there are cloud-config parts (for tests).
    Always,
}

impl Preload {
    /// Cloud-config bytes below which a helper thread costs more to start
    /// (tens of microseconds) than it saves.
    pub const MIN_BYTES: usize = 32 << 10;
}

/// Parts loaded but not merged yet, at most: enough to keep both threads
/// busy, few enough that memory stays near a few parts' trees.
const AHEAD: usize = 32;

/// The helper thread's stack: the same as a main thread's, so that a document
/// loads (or fails) there exactly as it would on the caller's thread.
const HELPER_STACK: usize = 8 << 20;

/// One part's load: `None` when its text is not UTF-8 (the handler then
/// loads it as a Python string).
type Slot = Option<Option<Loaded>>;

/// What both threads see.
struct Shared<'env> {
    /// The cloud-config parts' handler positions and texts, in handler order.
    texts: Vec<(usize, &'env [u8])>,
    opts: &'env UserDataOptions,
    state: Mutex<State>,
    /// The fold waits here for a part the helper is loading.
    loaded: Condvar,
    /// The helper waits here while it is [`AHEAD`] parts ahead.
    room: Condvar,
}

struct State {
    /// Next text to load (claimed by whichever thread gets there first).
    next: usize,
    /// Texts the fold has taken.
    taken: usize,
    /// Finished loads not taken yet, by text index.
    slots: Vec<Slot>,
    /// The fold is done (or gone): the helper stops.
    closed: bool,
    /// The fold waits on `loaded` (waking a thread that does not wait is a
    /// system call per part, so each side says when it sleeps).
    fold_waits: bool,
    /// The helper waits on `room`.
    helper_waits: bool,
}

/// The fold's side: takes each part's load in handler order.
pub(crate) struct Preloader<'env> {
    shared: Option<Arc<Shared<'env>>>,
}

impl<'env> Preloader<'env> {
    /// A preloader that loads nothing.
    pub(crate) fn none() -> Preloader<'env> {
        Preloader { shared: None }
    }

    /// Start the helper on `scope` for the cloud-config parts among `leaves`
    /// (in handler order), if `opts` and the payload call for one.
    pub(crate) fn start<'scope>(
        scope: &'scope Scope<'scope, 'env>,
        leaves: &[&'env Leaf],
        opts: &'env UserDataOptions,
    ) -> Preloader<'env> {
        let texts: Vec<(usize, &'env [u8])> = leaves
            .iter()
            .enumerate()
            .filter_map(
                |(i, leaf)| match (&leaf.body, PartType::of(&leaf.content_type)) {
                    (Body::Bytes(b), PartType::CloudConfig) => Some((i, b.as_slice())),
                    _ => None,
                },
            )
            .collect();
        let bytes: usize = texts.iter().map(|(_, t)| t.len()).sum();
        let wanted = match opts.preload {
            Preload::Off => false,
            Preload::Always => !texts.is_empty(),
            Preload::Auto => texts.len() >= 2 && bytes >= Preload::MIN_BYTES,
        };
        if !wanted {
            return Preloader::none();
        }
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                next: 0,
                taken: 0,
                slots: (0..texts.len()).map(|_| None).collect(),
                closed: false,
                fold_waits: false,
                helper_waits: false,
            }),
            texts,
            opts,
            loaded: Condvar::new(),
            room: Condvar::new(),
        });
        let helper = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("cloudfold-preload".into())
            .stack_size(HELPER_STACK)
            .spawn_scoped(scope, move || helper.help());
        match spawned {
            Ok(_) => Preloader {
                shared: Some(shared),
            },
            // No thread to be had: the handler loads every part itself.
            Err(_) => Preloader::none(),
        }
    }

    /// The load of the part at handler position `i`, if it is a cloud-config
    /// part with a UTF-8 text. Parts must be asked for in handler order.
    pub(crate) fn take(&mut self, i: usize) -> Option<Loaded> {
        let shared = self.shared.as_ref()?;
        let mut st = shared.lock();
        let k = st.taken;
        if shared.texts.get(k).map(|t| t.0) != Some(i) {
            return None;
        }
        loop {
            if let Some(slot) = st.slots.get_mut(k).and_then(Option::take) {
                st.taken = k + 1;
                // Woken at half the lead, the helper loads a run of parts
                // before it waits again (not one wake-up per part).
                if st.helper_waits && st.next - st.taken <= AHEAD / 2 {
                    st.helper_waits = false;
                    shared.room.notify_one();
                }
                return slot;
            }
            if st.next < shared.texts.len() && st.next - st.taken < AHEAD {
                // Rather than wait for the helper, load the next part here.
                st = shared.load_next(st);
            } else {
                st.fold_waits = true;
                st = shared.loaded.wait(st).unwrap_or_else(|e| e.into_inner());
                st.fold_waits = false;
            }
        }
    }
}

impl Drop for Preloader<'_> {
    fn drop(&mut self) {
        if let Some(shared) = &self.shared {
            let mut st = shared.lock();
            st.closed = true;
            if st.helper_waits {
                shared.room.notify_one();
            }
        }
    }
}

impl Shared<'_> {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing panics while holding the lock; if it did, the state is
        // still consistent (slots are filled whole).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Claim the next text, load it without the lock, and store the result.
    fn load_next<'a>(&'a self, mut st: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        let k = st.next;
        st.next += 1;
        drop(st);
        let loaded = self.texts.get(k).map(|&(i, bytes)| {
            std::str::from_utf8(bytes)
                .ok()
                .map(|text| load_str_in(text, self.opts, SourceId(i as u32)))
        });
        let mut st = self.lock();
        if let (Some(slot), Some(loaded)) = (st.slots.get_mut(k), loaded) {
            *slot = Some(loaded);
        }
        st
    }

    /// The helper: load parts from the front until all are claimed or the
    /// fold is done, staying at most [`AHEAD`] parts before the fold.
    fn help(&self) {
        let mut st = self.lock();
        loop {
            if st.closed || st.next >= self.texts.len() {
                return;
            }
            if st.next - st.taken >= AHEAD {
                st.helper_waits = true;
                st = self.room.wait(st).unwrap_or_else(|e| e.into_inner());
                continue;
            }
            st = self.load_next(st);
            if st.fold_waits {
                self.loaded.notify_one();
            }
        }
    }
}
