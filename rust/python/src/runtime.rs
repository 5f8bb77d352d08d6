//! Running long work from Python: a rayon pool sized per call, the GIL released, and Ctrl-C
//! honoured within about a tenth of a second.
//!
//! The calling thread runs the work itself with the GIL released, so a short call costs no
//! more than releasing and taking back the GIL. It holds a watch ([`Cancel::watched`]): every
//! [`SIGNAL_POLL`], at its next cancellation check or while it waits for a pool, it takes the
//! GIL back to let Python run its signal handlers (only the main thread can). When a handler
//! raises (KeyboardInterrupt), the [`Cancel`] token is set, the work stops at its next check,
//! and the handler's exception is returned.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use pyo3::prelude::*;
use stratagem_core::cancel::Poll;
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
    let done = Arc::new(AtomicU64::new(0));
    let report = progress.map(|callback| (callback, &done));
    interruptible_reporting(
        py,
        |cancel| parallel::pool(threads)?.install(|| work(cancel, &done)),
        report,
    )
}

/// `work` inside a rayon pool of `threads` threads with the GIL released but no Ctrl-C watch:
/// for work too short to ever need one.
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
    report: Option<(&Py<PyAny>, &Arc<AtomicU64>)>,
) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Cancel) -> stratagem_core::Result<T> + Send,
{
    let report = report.map(|(callback, done)| (callback.clone_ref(py), Arc::clone(done)));
    let (raised, outcome) = py.detach(move || {
        // The watch runs on this thread with the GIL taken back; it keeps the error a signal
        // handler or the progress callback raised, which ends the call.
        let raised: Rc<Cell<Option<PyErr>>> = Rc::default();
        let kept = Rc::clone(&raised);
        let poll: Poll = Box::new(move || {
            let checked = Python::attach(|py| {
                py.check_signals()?;
                if let Some((callback, done)) = &report {
                    callback.call1(py, (done.load(Ordering::Relaxed),))?;
                }
                Ok::<(), PyErr>(())
            });
            let carry_on = checked.is_ok();
            if let Err(error) = checked {
                kept.set(Some(error));
            }
            carry_on
        });
        let outcome = Cancel::new().watched(SIGNAL_POLL, poll, |cancel| {
            catch_unwind(AssertUnwindSafe(|| work(cancel)))
        });
        (raised.take(), outcome)
    });
    if let Some(signal_error) = raised {
        return Err(signal_error);
    }
    match outcome {
        Ok(result) => result.map_err(to_py),
        Err(_panic) => Err(internal("a worker thread panicked")),
    }
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
