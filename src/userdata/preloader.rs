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
//!
//! A large payload gets its helper before the MIME stage starts: a new thread
//! takes a millisecond or more to run on this kind of machine (a virtual CPU
//! that was idle), time the MIME stage would otherwise not hide. Until its
//! first job it faults in memory for its own later allocations
//! ([`Shared::prefault`]): the kernel's zeroing of fresh pages then happens
//! while the payload is being read.
//!
//! Between the MIME parse and the fold, the processor types the parts on its
//! own for a few milliseconds. Meanwhile the helper loads the parts that look
//! like cloud-config at the positions they will likely have
//! ([`Helper::guess`]). When the fold begins, each guess whose position and
//! text are those of the part actually there stands as that part's load; the
//! others are dropped. A guess is the same load of the same text, so the
//! result cannot differ.

use super::accumulated_message::HandledPart;
use super::cloud_config_handler::Loaded;
use super::leaf::{Body, Leaf};
use super::part_type::PartType;
use super::user_data_options::UserDataOptions;
use super::yaml_text::load_str_in;
use crate::source::SharedText;
use crate::yaml::{AsideJob, Node, RunAside};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::thread::Scope;
use std::time::{Duration, Instant};

/// When cloud-config parts are loaded on a helper thread.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Preload {
    /// When the payload is large enough to gain from it: at least two
    /// cloud-config parts and [`Preload::MIN_BYTES`] of them.
    #[default]
    Auto,
    /// Never: every part is loaded as the fold reaches it.
    Off,
    /// Whenever there are cloud-config parts, and the fold begins only once
    /// the helper has loaded every part it guessed (for tests: the guesses
    /// are then always put to the test, not only when the helper is quick).
    Always,
}

impl Preload {
    /// Cloud-config bytes below which a helper thread costs more to start
    /// than it saves.
    pub const MIN_BYTES: usize = 32 << 10;
}

/// Parts loaded but not merged yet, at most: enough that the helper, woken
/// at half this lead, is back at work before the fold has used the other
/// half (a sleeping virtual CPU can take ~100 µs to wake; the fold merges a
/// part in 2–3 µs), few enough that memory stays at a few hundred parts'
/// trees. With 32, the fold loaded a third of the parts itself while the
/// helper slept.
const AHEAD: usize = 256;

/// Parts guessed and loaded before the fold begins, at most: while the
/// processor types and numbers thousands of parts, the helper has time for
/// about twice the lead it keeps during the fold (at [`AHEAD`] it then
/// waited); the fold soon takes it back to [`AHEAD`].
pub(crate) const MAX_GUESSES: usize = 2 * AHEAD;

/// How long the helper, its parts all loaded, stays awake for a job (the
/// dump's second half comes right after the last merges): an idle virtual
/// CPU can take a millisecond to wake again.
const SPIN: Duration = Duration::from_millis(1);

/// The helper thread's stack: the same as a main thread's, so that a document
/// loads (or fails) there exactly as it would on the caller's thread.
const HELPER_STACK: usize = 8 << 20;

/// Memory the helper faults in for its own later use while it waits for the
/// payload, at most: below the allocator's large-object size, so that it
/// stays in the helper's own heap, where its loads and its half of the dump
/// allocate next.
const MAX_PREFAULT: usize = 8 << 20;

/// Bytes between two checks for work while the helper faults memory in.
const PREFAULT_STEP: usize = 1 << 20;

/// A memory page (the unit the kernel faults in and zeroes).
const PAGE: usize = 4096;

/// One part's load (`None` when its text is not UTF-8: the handler then
/// loads it as a Python string), and whether the helper did it.
type Slot = Option<(Option<Loaded>, bool)>;

/// What both threads see.
struct Shared<'env> {
    opts: &'env UserDataOptions,
    /// The cloud-config parts (handler position, part), in handler order;
    /// set when the fold begins.
    parts: OnceLock<Vec<(usize, Arc<Leaf>)>>,
    state: Mutex<State>,
    /// The fold waits here for a part the helper is loading.
    loaded: Condvar,
    /// The helper waits here for the parts, while it is [`AHEAD`] parts
    /// ahead, and for a job.
    room: Condvar,
    /// A job came or the fold closed (read while the helper spins).
    poke: AtomicBool,
}

#[derive(Default)]
struct State {
    /// Next part to load (claimed by whichever thread gets there first).
    next: usize,
    /// Parts the fold has taken.
    taken: usize,
    /// Finished loads not taken yet, by part.
    slots: Vec<Slot>,
    /// The fold is done (or gone): the helper stops.
    closed: bool,
    /// The fold waits on `loaded` (waking a thread that does not wait is a
    /// system call per part, so each side says when it sleeps).
    fold_waits: bool,
    /// The helper waits on `room`.
    helper_waits: bool,
    /// A job for the helper (see [`RunAside`]).
    job: Option<AsideJob>,
    /// The helper has returned: it takes no more jobs.
    helper_gone: bool,
    /// The helper returns after its next job (see [`Preloader::last_job`]).
    last_job: bool,
    /// Parts guessed to be cloud-config, not loaded yet: (handler position,
    /// text).
    guesses: VecDeque<(usize, SharedText)>,
    /// Guesses loaded, in order: (handler position, text, load).
    guessed: Vec<(usize, SharedText, Loaded)>,
    /// The helper is loading a guess.
    guessing: bool,
    /// Parts the helper loaded and the fold has merged, for the helper to
    /// free (see [`Preloader::spent`]).
    spent: Vec<Node>,
    /// The helper is freeing spent parts.
    freeing: bool,
}

/// The helper as the processor sees it, before the fold: it runs jobs (the
/// MIME parse's second half) and loads guessed parts.
pub(crate) trait Helper: RunAside {
    /// Parts that will likely be cloud-config parts at these handler
    /// positions (ascending), with their texts: the helper loads them while
    /// the processor works. Only the first call counts.
    fn guess(&self, guesses: Vec<(usize, SharedText)>);
}

/// The fold's side: starts the helper, then takes each part's load in
/// handler order.
pub(crate) struct Preloader<'scope, 'env> {
    scope: &'scope Scope<'scope, 'env>,
    opts: &'env UserDataOptions,
    /// The helper, once started.
    shared: Option<Arc<Shared<'env>>>,
    /// Spent parts not handed to the helper yet.
    spent: Vec<Node>,
}

impl<'scope, 'env> Preloader<'scope, 'env> {
    /// A preloader for a payload of `payload_len` bytes. The helper starts now
    /// if the payload is large enough to want one (a gzip payload may turn out
    /// larger: its helper starts in [`Preloader::begin`]).
    pub(crate) fn new(
        scope: &'scope Scope<'scope, 'env>,
        opts: &'env UserDataOptions,
        payload_len: usize,
    ) -> Self {
        let mut p = Preloader {
            scope,
            opts,
            shared: None,
            spent: Vec::new(),
        };
        let early = match opts.preload {
            Preload::Off => false,
            Preload::Always => true,
            Preload::Auto => payload_len >= Preload::MIN_BYTES,
        };
        if early {
            p.spawn(payload_len);
        }
        p
    }

    /// Start the helper; a payload of `payload_len` bytes is on its way
    /// (0: it is here already).
    fn spawn(&mut self, payload_len: usize) {
        // The helper's share of the loads and of the dump allocates about
        // twice the payload.
        let prefault = payload_len.saturating_mul(2).min(MAX_PREFAULT);
        let shared = Arc::new(Shared {
            opts: self.opts,
            parts: OnceLock::new(),
            state: Mutex::new(State::default()),
            loaded: Condvar::new(),
            room: Condvar::new(),
            poke: AtomicBool::new(false),
        });
        let helper = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("cloudfold-preload".into())
            .stack_size(HELPER_STACK)
            .spawn_scoped(self.scope, move || {
                let _ = helper.prefault(prefault);
                helper.help();
            });
        // No thread to be had: the handler loads every part itself.
        self.shared = spawned.ok().map(|_| shared);
    }

    /// The fold begins with these parts (in handler order): hand the
    /// cloud-config ones to the helper, or stop it if they are too few.
    pub(crate) fn begin(&mut self, handled: &[HandledPart]) {
        let parts: Vec<(usize, Arc<Leaf>)> = handled
            .iter()
            .enumerate()
            .filter(|(_, h)| {
                matches!(h.leaf.body, Body::Bytes(_))
                    && PartType::of(&h.leaf.content_type) == PartType::CloudConfig
            })
            .map(|(i, h)| (i, Arc::clone(&h.leaf)))
            .collect();
        let wanted = match self.opts.preload {
            Preload::Off => false,
            Preload::Always => !parts.is_empty(),
            Preload::Auto => parts.len() >= 2 && reaches(&parts, Preload::MIN_BYTES),
        };
        if !wanted {
            self.close();
            return;
        }
        if self.shared.is_none() {
            self.spawn(0);
        }
        let Some(shared) = &self.shared else {
            return;
        };
        // The helper reads the parts only under the lock, and finds their
        // slots ready.
        let mut st = shared.lock();
        if shared.parts.get().is_some() {
            // Begun twice: keep what the helper has.
            return;
        }
        if self.opts.preload != Preload::Always {
            st.guesses.clear();
        }
        while st.guessing || (!st.guesses.is_empty() && st.guessed.len() < MAX_GUESSES) {
            st.fold_waits = true;
            st = shared.loaded.wait(st).unwrap_or_else(|e| e.into_inner());
            st.fold_waits = false;
        }
        st.guesses.clear();
        let (slots, right) = adopt_guesses(&parts, std::mem::take(&mut st.guessed));
        st.slots = slots;
        st.next = right;
        let _ = shared.parts.set(parts);
        if st.helper_waits {
            st.helper_waits = false;
            shared.room.notify_one();
        }
    }

    /// The load of the part at handler position `i`, if it is a cloud-config
    /// part with a UTF-8 text, and whether the helper loaded it (its tree
    /// then goes back to the helper: [`Preloader::spent`]). Parts must be
    /// asked for in handler order.
    pub(crate) fn take(&mut self, i: usize) -> Option<(Loaded, bool)> {
        let shared = self.shared.as_ref()?;
        let parts = shared.parts.get()?;
        let mut st = shared.lock();
        if !self.spent.is_empty() {
            st.spent.append(&mut self.spent);
        }
        let k = st.taken;
        if parts.get(k).map(|p| p.0) != Some(i) {
            return None;
        }
        loop {
            if let Some((slot, by_helper)) = st.slots.get_mut(k).and_then(Option::take) {
                st.taken = k + 1;
                // Woken at half the lead, the helper loads a run of parts
                // before it waits again (not one wake-up per part).
                if st.helper_waits && st.next < parts.len() && st.next - st.taken <= AHEAD / 2 {
                    st.helper_waits = false;
                    shared.room.notify_one();
                }
                return slot.map(|loaded| (loaded, by_helper));
            }
            if st.next < parts.len() && st.next - st.taken < AHEAD {
                // Rather than wait for the helper, load the next part here.
                st = shared.load_next(st, false);
            } else {
                st.fold_waits = true;
                st = shared.loaded.wait(st).unwrap_or_else(|e| e.into_inner());
                st.fold_waits = false;
            }
        }
    }

    /// Where the fold puts a part's tree, once merged, when the helper loaded
    /// it and the fold does not keep it ([`super::spent_trees::SpentTrees`]): the helper
    /// frees it. Freeing a node on another thread than the one
    /// that allocated it costs the allocator more (the block goes back to its
    /// owner's page through a shared list) than a free on the owner's thread,
    /// and the helper loads about two parts in three.
    ///
    /// A tree not freed yet still holds the nodes the merged config took
    /// from it: such a node looks shared, so a merge copies it rather than
    /// extending it in place (the result is the same), and the dump must not
    /// start before [`Preloader::settle`].
    pub(crate) fn spent(&mut self) -> &mut Vec<Node> {
        &mut self.spent
    }

    /// Free every spent tree, here or on the helper, before this returns:
    /// the merged config's nodes are then referenced only by it (and by the
    /// trees the fold keeps).
    pub(crate) fn settle(&mut self) {
        let Some(shared) = &self.shared else {
            self.spent.clear();
            return;
        };
        let mut st = shared.lock();
        let mut spent = std::mem::take(&mut st.spent);
        while st.freeing {
            st.fold_waits = true;
            st = shared.loaded.wait(st).unwrap_or_else(|e| e.into_inner());
            st.fold_waits = false;
        }
        drop(st);
        spent.append(&mut self.spent);
    }

    /// The next job is the helper's last (the dump's second half: nothing
    /// follows it). The helper returns as soon as it is done, so that its
    /// thread ends while this one still writes its own half, not after.
    pub(crate) fn last_job(&mut self) {
        if let Some(shared) = &self.shared {
            shared.lock().last_job = true;
        }
    }

    /// Stop the helper (it finishes the part in hand).
    fn close(&mut self) {
        if let Some(shared) = self.shared.take() {
            let mut st = shared.lock();
            st.closed = true;
            shared.wake(&mut st);
        }
    }
}

impl RunAside for Preloader<'_, '_> {
    fn run_aside(&self, job: AsideJob) -> Result<(), AsideJob> {
        let Some(shared) = &self.shared else {
            return Err(job);
        };
        let mut st = shared.lock();
        if st.helper_gone || st.closed || st.job.is_some() {
            return Err(job);
        }
        st.job = Some(job);
        shared.wake(&mut st);
        Ok(())
    }
}

impl Helper for Preloader<'_, '_> {
    fn guess(&self, guesses: Vec<(usize, SharedText)>) {
        let Some(shared) = &self.shared else {
            return;
        };
        let mut st = shared.lock();
        if shared.parts.get().is_some() || !st.guesses.is_empty() || !st.guessed.is_empty() {
            return;
        }
        st.guesses = guesses.into();
        shared.wake(&mut st);
    }
}

/// The slots of `parts` (cloud-config parts, handler position and leaf) as
/// far as `guessed` got them right, and how many that is: the guesses stand
/// for a prefix of the parts, each with the position and the text of its
/// part, so each is the load the fold would do.
fn adopt_guesses(
    parts: &[(usize, Arc<Leaf>)],
    guessed: Vec<(usize, SharedText, Loaded)>,
) -> (Vec<Slot>, usize) {
    let mut slots: Vec<Slot> = (0..parts.len()).map(|_| None).collect();
    let mut guessed = guessed.into_iter().peekable();
    let mut right = 0;
    for ((i, leaf), slot) in parts.iter().zip(&mut slots) {
        // Guesses for parts that are not cloud-config parts after all.
        while guessed.next_if(|(at, ..)| at < i).is_some() {}
        let text = text_of(leaf);
        match guessed.next_if(|(at, t, _)| at == i && text == Some(t.as_str())) {
            Some((.., loaded)) => *slot = Some((Some(loaded), true)),
            None => break,
        }
        right += 1;
    }
    (slots, right)
}

/// Whether the payloads of `parts` add up to `min` bytes, counted only that
/// far: each size looks at a part's text, cold by now, and the fold waits
/// for the count (thousands of parts).
fn reaches(parts: &[(usize, Arc<Leaf>)], min: usize) -> bool {
    let mut bytes = 0usize;
    parts.iter().any(|(_, l)| {
        bytes = bytes.saturating_add(l.payload_size().0);
        bytes >= min
    })
}

/// A part's text as the fold loads it: its body, if UTF-8 (the handler
/// loads any other body itself, as a Python string).
fn text_of(leaf: &Leaf) -> Option<&str> {
    match &leaf.body {
        Body::Bytes(b) => b.as_str(),
        Body::None => None,
    }
}

impl Drop for Preloader<'_, '_> {
    fn drop(&mut self) {
        self.close();
    }
}

impl Shared<'_> {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing panics while holding the lock; if it did, the state is
        // still consistent (slots are filled whole).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Claim the next part, load it without the lock, and store the result
    /// (`by_helper`: on the helper's thread).
    fn load_next<'a>(
        &'a self,
        mut st: MutexGuard<'a, State>,
        by_helper: bool,
    ) -> MutexGuard<'a, State> {
        let k = st.next;
        st.next += 1;
        drop(st);
        let loaded = self
            .parts
            .get()
            .and_then(|parts| parts.get(k))
            .map(|(i, leaf)| {
                text_of(leaf).map(|text| load_str_in(text, self.opts, self.opts.source_of(*i)))
            });
        let mut st = self.lock();
        if let (Some(slot), Some(loaded)) = (st.slots.get_mut(k), loaded) {
            *slot = Some((loaded, by_helper));
        }
        st
    }

    /// Load a guessed part without the lock, and keep the result.
    fn load_guess<'a>(
        &'a self,
        mut st: MutexGuard<'a, State>,
        at: usize,
        text: SharedText,
    ) -> MutexGuard<'a, State> {
        st.guessing = true;
        drop(st);
        let loaded = load_str_in(text.as_str(), self.opts, self.opts.source_of(at));
        let mut st = self.lock();
        st.guessing = false;
        st.guessed.push((at, text, loaded));
        if st.fold_waits {
            self.loaded.notify_one();
        }
        st
    }

    /// The helper: wait for the parts, then load them from the front until
    /// all are claimed or the fold is done, staying at most [`AHEAD`] parts
    /// before the fold.
    fn help(&self) {
        let mut st = self.lock();
        loop {
            if let Some(job) = st.job.take() {
                self.poke.store(false, Ordering::Relaxed);
                let last = st.last_job;
                drop(st);
                job();
                st = self.lock();
                if last {
                    st.helper_gone = true;
                    return;
                }
                continue;
            }
            if !st.spent.is_empty() {
                let spent = std::mem::take(&mut st.spent);
                st.freeing = true;
                drop(st);
                drop(spent);
                st = self.lock();
                st.freeing = false;
                if st.fold_waits {
                    self.loaded.notify_one();
                }
                continue;
            }
            if st.closed {
                st.helper_gone = true;
                return;
            }
            let todo = self.parts.get().map(|parts| parts.len() - st.next);
            match todo {
                Some(n) if n > 0 && st.next - st.taken < AHEAD => {
                    st = self.load_next(st, true);
                    if st.fold_waits {
                        self.loaded.notify_one();
                    }
                    continue;
                }
                Some(0) => {
                    // All loaded: a job may follow at once.
                    drop(st);
                    self.spin();
                    st = self.lock();
                    if st.job.is_some() || st.closed || !st.spent.is_empty() {
                        continue;
                    }
                }
                Some(_) => {}
                None => {
                    if st.guessed.len() < MAX_GUESSES
                        && let Some((at, text)) = st.guesses.pop_front()
                    {
                        st = self.load_guess(st, at, text);
                        continue;
                    }
                }
            }
            st.helper_waits = true;
            st = self.room.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Fault in up to `bytes` of memory and free it, stopping as soon as
    /// there is work: the kernel zeroes every fresh page at its first write
    /// (a tenth of a large render's time), and the helper's own later
    /// allocations reuse these pages, already zeroed, instead of taking
    /// fresh ones. Until the payload is read and its MIME parse hands the
    /// helper a job, the helper has nothing else to do.
    ///
    /// Returns the bytes faulted in.
    fn prefault(&self, bytes: usize) -> usize {
        let work = || self.poke.load(Ordering::Relaxed) || self.parts.get().is_some();
        // Zeroed: fresh memory from the system is not written here yet.
        let mut memory = vec![0u8; bytes];
        let mut done = 0;
        for step in memory.chunks_mut(PREFAULT_STEP) {
            if work() {
                break;
            }
            for page in step.chunks_mut(PAGE) {
                if let Some(first) = page.first_mut() {
                    *first = 1;
                }
            }
            // Keep the writes: the memory is freed unread.
            std::hint::black_box(&mut *step);
            done += step.len();
        }
        done
    }

    /// Stay awake up to [`SPIN`] for a job or the end.
    fn spin(&self) {
        let start = Instant::now();
        while !self.poke.load(Ordering::Relaxed) && start.elapsed() < SPIN {
            for _ in 0..64 {
                std::hint::spin_loop();
            }
        }
    }

    /// Tell the helper something changed (a job, the end).
    fn wake(&self, st: &mut State) {
        self.poke.store(true, Ordering::Relaxed);
        if st.helper_waits {
            st.helper_waits = false;
            self.room.notify_one();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::userdata::accumulated_message::HandledPart;

    fn cloud_config(text: &str) -> HandledPart {
        let mut leaf = Leaf::empty();
        leaf.content_type = "text/cloud-config".into();
        leaf.body = Body::Bytes(SharedText::from(text).into());
        HandledPart {
            node: 0,
            leaf: Arc::new(leaf),
            occurrence: 1,
            attached: true,
        }
    }

    /// After the job marked last, the helper is gone: it takes no other.
    #[test]
    fn the_helper_returns_after_its_last_job() {
        let opts = UserDataOptions {
            preload: Preload::Always,
            ..UserDataOptions::default()
        };
        std::thread::scope(|scope| {
            let mut p = Preloader::new(scope, &opts, 0);
            p.last_job();
            let (tx, rx) = std::sync::mpsc::channel();
            assert!(p.run_aside(Box::new(move || tx.send(7).unwrap())).is_ok());
            assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok(7));
            let start = Instant::now();
            while !p.shared.as_ref().unwrap().lock().helper_gone {
                assert!(
                    start.elapsed() < Duration::from_secs(10),
                    "the helper stayed"
                );
                std::thread::sleep(Duration::from_millis(1));
            }
            assert!(p.run_aside(Box::new(|| {})).is_err());
        });
    }

    /// The helper faults memory in only while it has nothing else to do.
    #[test]
    fn prefault_stops_at_the_first_work() {
        let opts = UserDataOptions::default();
        let shared = Shared {
            opts: &opts,
            parts: OnceLock::new(),
            state: Mutex::new(State::default()),
            loaded: Condvar::new(),
            room: Condvar::new(),
            poke: AtomicBool::new(false),
        };
        let bytes = 3 * PREFAULT_STEP + PAGE + 1;
        assert_eq!(shared.prefault(bytes), bytes);
        assert_eq!(shared.prefault(0), 0);
        // A job (or a guess, or the end) came.
        shared.poke.store(true, Ordering::Relaxed);
        assert_eq!(shared.prefault(bytes), 0);
        // The parts came.
        shared.poke.store(false, Ordering::Relaxed);
        let _ = shared.parts.set(Vec::new());
        assert_eq!(shared.prefault(bytes), 0);
    }

    /// Once `settle` returns, every spent tree is freed, whichever thread
    /// freed it: a node the merged config took from one is then referenced
    /// by the config alone (the dump aliases nothing it should not look at).
    #[test]
    fn settle_frees_every_spent_tree() {
        let opts = UserDataOptions {
            preload: Preload::Always,
            ..UserDataOptions::default()
        };
        // More parts than the helper may load ahead of the fold.
        let parts: Vec<HandledPart> = (0..3 * AHEAD)
            .map(|i| cloud_config(&format!("k{i}: [a, b]\n")))
            .collect();
        std::thread::scope(|scope| {
            let mut p = Preloader::new(scope, &opts, 0);
            p.begin(&parts);
            let mut kept = Vec::new();
            for i in 0..parts.len() {
                let (loaded, _) = p.take(i).unwrap();
                let root = loaded.unwrap().unwrap();
                // What a merge keeps of a part: a node of its tree.
                let (_, value) = root.as_map().unwrap().iter().next().unwrap();
                kept.push(value.clone());
                p.spent().push(root);
            }
            p.settle();
            assert!(kept.iter().all(|n| !n.is_shared()));
        });
    }
}
