//! Thread pools sized per call.
//!
//! Every parallel entry point takes a thread count; results never depend on it because work is
//! split into items whose outputs are collected in item order. Pools are cached by size so a
//! call does not pay for spawning threads each time.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, OnceLock};

use rayon::ThreadPool;

use crate::cancel::{poll_watch, watching};
use crate::error::{Result, param};

/// A rayon pool whose [`install`](Pool::install) keeps a watched calling thread polling
/// ([`crate::Cancel::watched`]) while the pool works.
#[derive(Debug)]
pub struct Pool {
    threads: ThreadPool,
}

impl Pool {
    /// Runs `op` in this pool and returns its result. A watched thread from outside the pool
    /// waits in slices, running its watch between them, instead of blocking until the end.
    pub fn install<R, F>(&self, op: F) -> R
    where
        R: Send,
        F: FnOnce() -> R + Send,
    {
        if self.threads.current_thread_index().is_some() || !watching() {
            return self.threads.install(op);
        }
        self.threads.in_place_scope(|scope| {
            let (finished, outcome) = channel();
            scope.spawn(move |_| {
                // The receiver outlives the scope, so this send cannot fail.
                let _ = finished.send(catch_unwind(AssertUnwindSafe(op)));
            });
            let mut wait = poll_watch(false).unwrap_or_default();
            loop {
                match outcome.recv_timeout(wait) {
                    Ok(Ok(result)) => return result,
                    Ok(Err(panic)) => resume_unwind(panic),
                    Err(RecvTimeoutError::Timeout) => {
                        wait = poll_watch(false).unwrap_or_default();
                    }
                    // The sender is dropped only after sending.
                    Err(RecvTimeoutError::Disconnected) => {
                        unreachable!("a pool job ended without a result")
                    }
                }
            }
        })
    }

    /// The number of worker threads.
    pub fn current_num_threads(&self) -> usize {
        self.threads.current_num_threads()
    }
}

/// The most threads one call may ask for; far above any sensible machine, it only stops
/// absurd requests before they spawn threads.
pub const MAX_THREADS: usize = 1024;

/// The number of threads to use when the caller does not say: every available core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The processes sharing this host's cores (MPI ranks on one host); 1 outside MPI.
static PROCESSES_ON_HOST: AtomicUsize = AtomicUsize::new(1);

/// Says that `processes` processes (this one included) share this host's cores, so that a
/// call naming no thread count takes its share of them; returns that share. Work that runs on
/// rayon's global pool (sized once, on its first use) takes the share too when this is said
/// before that first use.
pub fn share_cores(processes: usize) -> usize {
    PROCESSES_ON_HOST.store(processes.max(1), Ordering::Relaxed);
    let share = shared_threads();
    // An error means the global pool runs already: it keeps its size.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(share)
        .build_global();
    share
}

/// This process's share of the host's cores: `default_threads() / processes on the host`,
/// at least one.
pub fn shared_threads() -> usize {
    (default_threads() / PROCESSES_ON_HOST.load(Ordering::Relaxed)).max(1)
}

/// The environment variable that sets the thread count when a call does not.
pub const THREADS_ENV: &str = "STRATAGEM_NUM_THREADS";

/// The thread count for a call: the argument if given, else `STRATAGEM_NUM_THREADS`, else
/// this process's share of the cores ([`shared_threads`]: all of them outside MPI).
pub fn resolve_threads(requested: Option<usize>) -> Result<usize> {
    if let Some(threads) = requested {
        return validate_threads(threads);
    }
    match std::env::var(THREADS_ENV) {
        Ok(text) => text
            .trim()
            .parse::<usize>()
            .ok()
            .and_then(|threads| validate_threads(threads).ok())
            .ok_or_else(|| {
                param(format!(
                    "{THREADS_ENV} must be a whole number from 1 to {MAX_THREADS}, got {text:?}"
                ))
            }),
        Err(_) => Ok(shared_threads()),
    }
}

/// Checks a user-supplied thread count.
pub fn validate_threads(threads: usize) -> Result<usize> {
    if threads == 0 || threads > MAX_THREADS {
        return Err(param(format!(
            "threads must be between 1 and {MAX_THREADS}, got {threads}"
        )));
    }
    Ok(threads)
}

/// A rayon pool with exactly `threads` workers, shared by every call that asks for that size.
pub fn pool(threads: usize) -> Result<Arc<Pool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<Pool>>>> = OnceLock::new();
    let threads = validate_threads(threads)?;
    let pools = POOLS.get_or_init(|| Mutex::new(HashMap::new()));
    // A poisoned lock only means another thread panicked while inserting; the map is intact.
    let mut pools = pools
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(existing) = pools.get(&threads) {
        return Ok(Arc::clone(existing));
    }
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("stratagem-{threads}-{i}"))
        .build()
        .map_err(|e| param(format!("cannot start {threads} threads: {e}")))?;
    let built = Arc::new(Pool { threads: built });
    pools.insert(threads, Arc::clone(&built));
    Ok(built)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_have_the_requested_size_and_are_reused() -> Result<()> {
        let two = pool(2)?;
        assert_eq!(two.current_num_threads(), 2);
        assert!(Arc::ptr_eq(&two, &pool(2)?));
        assert_eq!(pool(3)?.current_num_threads(), 3);
        Ok(())
    }

    #[test]
    fn absurd_thread_counts_are_refused() {
        assert!(validate_threads(0).is_err());
        assert!(validate_threads(MAX_THREADS + 1).is_err());
    }
}
