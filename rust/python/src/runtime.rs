//! Running long work from Python: a rayon pool sized per call, the GIL released, and Ctrl-C
//! honoured within about a tenth of a second.
//!
//! The calling thread lends the work to a scoped worker thread, then waits on a channel with
//! the GIL released, waking every [`SIGNAL_POLL`] to let Python run its signal handlers. When
//! a handler raises (KeyboardInterrupt), the [`Cancel`] token is set, the worker stops at its
//! next check, and the handler's exception is returned.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use pyo3::prelude::*;
use stratagem_core::{Cancel, parallel};

use crate::errors::{internal, to_py};

/// How often a waiting call checks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// The thread count for a call: `threads` if given, else `STRATAGEM_NUM_THREADS`, else all
/// cores; an invalid value raises `InvalidParameter`.
pub fn thread_count(requested: Option<usize>) -> PyResult<usize> {
    parallel::resolve_threads(requested).map_err(to_py)
}

/// A checked thread count that a game keeps as its `threads` attribute: set from Python to an
/// int or None (resolved by [`thread_count`]), read back as the resolved int.
#[derive(Clone, Copy, IntoPyObject)]
pub struct Threads(pub usize);

impl Threads {
    pub fn new(requested: Option<usize>) -> PyResult<Self> {
        thread_count(requested).map(Self)
    }
}

impl FromPyObject<'_, '_> for Threads {
    type Error = PyErr;

    fn extract(requested: Borrowed<'_, '_, PyAny>) -> PyResult<Self> {
        Self::new(requested.extract()?)
    }
}

/// Runs `work` with the GIL released and Ctrl-C forwarded to its [`Cancel`] token. Inputs
/// must already be owned Rust data: nothing Python-owned may be touched inside `work`.
pub fn interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Cancel) -> stratagem_core::Result<T> + Send,
{
    interruptible_reporting(py, work, None)
}

/// [`interruptible`] with `work` run inside a rayon pool of `threads` threads.
pub fn interruptible_in_pool<T, F>(py: Python<'_>, threads: usize, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Cancel) -> stratagem_core::Result<T> + Send,
{
    interruptible(py, |cancel| {
        parallel::pool(threads)?.install(|| work(cancel))
    })
}

/// [`interruptible_in_pool`] for work that counts what it has done in its `&AtomicU64`:
/// `progress(done)`, when given, is called at every signal check with that count.
pub fn counted_in_pool<T, F>(
    py: Python<'_>,
    threads: usize,
    progress: Option<&Py<PyAny>>,
    work: F,
) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Cancel, &AtomicU64) -> stratagem_core::Result<T> + Send,
{
    let done = AtomicU64::new(0);
    let report = progress.map(|callback| (callback, &done));
    interruptible_reporting(
        py,
        |cancel| parallel::pool(threads)?.install(|| work(cancel, &done)),
        report,
    )
}

/// `work` inside a rayon pool of `threads` threads with the GIL released but no Ctrl-C watch:
/// for work that ends sooner than starting the watching thread would take.
pub fn detached_in_pool<T, F>(py: Python<'_>, threads: usize, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> stratagem_core::Result<T> + Send,
{
    py.detach(|| parallel::pool(threads)?.install(work))
        .map_err(to_py)
}

/// [`interruptible`], also calling `report(done)` (a Python callable) at every signal check
/// with the value of `done`'s counter, so a progress bar can follow the work.
pub fn interruptible_reporting<T, F>(
    py: Python<'_>,
    work: F,
    report: Option<(&Py<PyAny>, &AtomicU64)>,
) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Cancel) -> stratagem_core::Result<T> + Send,
{
    let cancel = Cancel::new();
    py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = channel();
            let worker_cancel = cancel.clone();
            scope.spawn(move || {
                let outcome = catch_unwind(AssertUnwindSafe(|| work(&worker_cancel)));
                // The receiver outlives the scope, so this send cannot fail.
                let _ = done.send(outcome);
            });
            loop {
                match finished.recv_timeout(SIGNAL_POLL) {
                    Ok(Ok(result)) => return result.map_err(to_py),
                    Ok(Err(_panic)) => return Err(internal("a worker thread panicked")),
                    Err(RecvTimeoutError::Timeout) => {
                        let checked = Python::attach(|py| {
                            py.check_signals()?;
                            if let Some((callback, done)) = report {
                                callback.call1(py, (done.load(Ordering::Relaxed),))?;
                            }
                            Ok::<(), PyErr>(())
                        });
                        if let Err(signal_error) = checked {
                            cancel.cancel();
                            // Wait for the worker to notice, so no thread outlives the call.
                            let _ = finished.recv();
                            return Err(signal_error);
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(internal("a worker thread vanished"));
                    }
                }
            }
        })
    })
}

/// `resolve_threads(threads=None)`: the thread count a call would use.
#[pyfunction]
#[pyo3(signature = (threads=None))]
fn resolve_threads(threads: Option<usize>) -> PyResult<usize> {
    thread_count(threads)
}

/// `share_cores(processes)`: `processes` processes (MPI ranks on this host, this one
/// included) share the cores; a call naming no thread count (and finding no
/// `STRATAGEM_NUM_THREADS`) then takes this process's share. Returns that share.
#[pyfunction]
fn share_cores(processes: usize) -> usize {
    parallel::share_cores(processes)
}

/// `default_threads()`: the number of cores rayon sees.
#[pyfunction]
fn default_threads() -> usize {
    parallel::default_threads()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add!(m; functions resolve_threads, default_threads, share_cores);
    m.add("MAX_THREADS", parallel::MAX_THREADS)?;
    Ok(())
}
