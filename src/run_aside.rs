//! `RunAside`: a thread that runs a job beside the caller (the render's helper), for stages that split their work in two.

use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};

/// A thread that runs a job beside the caller: a stage hands it one half of
/// its work (the MIME parse of a large multipart, the dump of a large
/// mapping). A thread that is already running starts the job at once, where
/// a new one may take a millisecond to be scheduled.
pub trait RunAside {
    /// Run `job` on the other thread, or give it back.
    fn run_aside(&self, job: AsideJob) -> Result<(), AsideJob>;
}

/// A job for [`RunAside`].
pub type AsideJob = Box<dyn FnOnce() + Send>;

/// Work offered to another thread that the caller does itself if that
/// thread has not begun it by the time the result is wanted: a helper that
/// went to sleep can take milliseconds to wake, longer than the work.
///
/// ```
/// use cloudfold::Offload;
/// let (half, job) = Offload::new(|| 6 * 7);
/// drop(job); // never run elsewhere: `result` does the work here
/// assert_eq!(half.result(), Some(42));
/// ```
pub struct Offload<R> {
    work: Arc<Mutex<Option<Work<R>>>>,
    done: Receiver<R>,
}

type Work<R> = Box<dyn FnOnce() -> R + Send>;

impl<R: Send + 'static> Offload<R> {
    /// The work, and the job that does it on another thread (to give to
    /// [`RunAside::run_aside`], or to a thread of its own).
    pub fn new(work: impl FnOnce() -> R + Send + 'static) -> (Offload<R>, AsideJob) {
        let work: Arc<Mutex<Option<Work<R>>>> = Arc::new(Mutex::new(Some(Box::new(work))));
        let (tx, done) = sync_channel(1);
        let job: AsideJob = {
            let work = Arc::clone(&work);
            Box::new(move || {
                if let Some(w) = take(&work) {
                    // The caller may be gone (it failed): nothing to tell.
                    let _ = tx.send(w());
                }
            })
        };
        (Offload { work, done }, job)
    }

    /// The result: worked out here if no other thread has begun, else
    /// waited for. `None` if the thread that began it died.
    pub fn result(self) -> Option<R> {
        match take(&self.work) {
            Some(w) => Some(w()),
            None => self.done.recv().ok(),
        }
    }
}

impl<R> std::fmt::Debug for Offload<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Offload").finish_non_exhaustive()
    }
}

/// The work, if no thread has taken it yet.
fn take<R>(work: &Mutex<Option<Work<R>>>) -> Option<Work<R>> {
    work.lock().unwrap_or_else(|e| e.into_inner()).take()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_is_done_once_by_whichever_thread_comes_first() {
        // Run by the other thread first.
        let (half, job) = Offload::new(|| 1);
        std::thread::scope(|s| {
            s.spawn(job).join().ok();
        });
        assert_eq!(half.result(), Some(1));
        // Taken back before the other thread runs: its job finds nothing.
        let (half, job) = Offload::new(|| 2);
        assert_eq!(half.result(), Some(2));
        job();
        // Raced: either way one result.
        for _ in 0..100 {
            let (half, job) = Offload::new(|| 3);
            std::thread::scope(|s| {
                s.spawn(job);
                assert_eq!(half.result(), Some(3));
            });
        }
    }
}
