//! `RunAside`: a thread that runs a job beside the caller (the render's helper), for stages that split their work in two.

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
