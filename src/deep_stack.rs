//! `with_depth`: a recursive walk takes its first levels on the caller's stack and moves to a thread with a large stack when the input is deeper.
//!
//! Callers of the library may run on any thread (a test harness's, a worker
//! pool's, often 2 MiB of stack or less), and the recursive walks over nested
//! input (YAML values nested to their depth limits) need more than that in a
//! debug build. So no caller has to provide a large stack: a walk runs on
//! the caller's thread with its depth capped at [`INLINE_DEPTH`]; an input
//! deeper than that is walked again, from the start, on a thread of its own
//! with a [`DEEP_STACK`] stack. The second walk gives exactly the result the
//! first would have given without the cap (walks are deterministic), so only
//! the time of deep inputs changes.

/// Levels walked on the caller's stack: at a few KiB per level (debug
/// builds), well inside the smallest thread stack a caller is likely to have.
pub(crate) const INLINE_DEPTH: usize = 100;

/// Stack of the thread a deeper walk moves to. Only the pages a walk touches
/// are ever mapped in, so the size costs address space, not memory.
pub(crate) const DEEP_STACK: usize = 256 << 20;

/// `walk(max_depth)`, run with the cap [`INLINE_DEPTH`] first when
/// `max_depth` is larger; when that stops at the cap (`too_deep`), the full
/// walk runs on a thread with a [`DEEP_STACK`] stack. Should that thread fail
/// to start or die, the capped walk's error is returned.
pub(crate) fn with_depth<R: Send, E: Send>(
    max_depth: usize,
    walk: impl Fn(usize) -> Result<R, E> + Sync,
    too_deep: impl Fn(&E) -> bool,
) -> Result<R, E> {
    if max_depth <= INLINE_DEPTH {
        return walk(max_depth);
    }
    match walk(INLINE_DEPTH) {
        Err(e) if too_deep(&e) => std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("cloudfold-deep-walk".into())
                .stack_size(DEEP_STACK)
                .spawn_scoped(scope, || walk(max_depth))
                .ok()
                .and_then(|t| t.join().ok())
        })
        .unwrap_or(Err(e)),
        r => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_walk(levels: usize, max: usize) -> Result<usize, usize> {
        fn go(at: usize, levels: usize, max: usize) -> Result<usize, usize> {
            if at >= max {
                return Err(max);
            }
            if at == levels {
                return Ok(at);
            }
            // Some stack per level, as a real walk's frames take.
            let pad = std::hint::black_box([0u8; 512]);
            go(at + 1, levels, max).map(|n| n + usize::from(pad[0]))
        }
        go(0, levels, max)
    }

    #[test]
    fn deep_walks_give_the_uncapped_result_on_a_small_stack() {
        let run = |levels: usize, max: usize| {
            std::thread::Builder::new()
                .stack_size(256 << 10)
                .spawn(move || with_depth(max, |m| depth_walk(levels, m), |&e| e == INLINE_DEPTH))
                .unwrap()
                .join()
                .unwrap()
        };
        assert_eq!(run(10, 5000), Ok(10));
        assert_eq!(run(3000, 5000), Ok(3000));
        assert_eq!(run(6000, 5000), Err(5000));
        assert_eq!(run(50, 20), Err(20));
    }
}
