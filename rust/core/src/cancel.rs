//! Cooperative cancellation: long loops poll a [`Cancel`] token between chunks of work so that
//! a Ctrl-C seen by the binding layer stops them within a fraction of a second.
//!
//! The binding layer runs work on the calling thread and lends that thread a watch
//! ([`Cancel::watched`]): a check made on that thread, or a wait for a pool
//! ([`crate::parallel::Pool::install`]), calls the watch's `poll` once it is due, so the thread
//! that can see Python's signals looks at them without any thread being started per call.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// What a watched thread calls when its watch is due: `false` cancels the watched work.
pub type Poll = Box<dyn FnMut() -> bool>;

/// The watch lent to the calling thread for the length of one [`Cancel::watched`] call.
struct Watch {
    cancel: Cancel,
    poll: Poll,
    every: Duration,
    due: Instant,
}

thread_local! {
    static WATCH: RefCell<Option<Watch>> = const { RefCell::new(None) };
}

/// Whether this thread holds a watch (its waits should poll rather than block).
pub(crate) fn watching() -> bool {
    WATCH.with(|watch| watch.borrow().is_some())
}

/// Runs this thread's watch if it is due (or `now` is set); returns how long until it is due
/// again, `None` when the thread holds no watch.
pub(crate) fn poll_watch(now: bool) -> Option<Duration> {
    // Taken out while it runs: `poll` may run Python code that makes a watched call itself.
    let mut watch = WATCH.with(|slot| slot.borrow_mut().take())?;
    let mut clock = Instant::now();
    if now || clock >= watch.due {
        if !(watch.poll)() {
            watch.cancel.cancel();
        }
        clock = Instant::now();
        watch.due = clock + watch.every;
    }
    let left = watch.due.saturating_duration_since(clock);
    WATCH.with(|slot| *slot.borrow_mut() = Some(watch));
    Some(left)
}

/// Puts the previous watch back when a watched call ends, even by unwinding.
struct Restore(Option<Watch>);

impl Drop for Restore {
    fn drop(&mut self) {
        let previous = self.0.take();
        WATCH.with(|slot| *slot.borrow_mut() = previous);
    }
}

/// A cheap, clonable stop flag shared between the caller and the worker threads.
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    flag: Arc<AtomicBool>,
}

impl Cancel {
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every holder of this token to stop at its next check.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// `Err(Error::Interrupted)` once cancelled; use with `?` between chunks of work. On a
    /// watched thread it also runs the watch when due.
    pub fn check(&self) -> Result<()> {
        if !self.is_cancelled() {
            poll_watch(false);
        }
        if self.is_cancelled() {
            Err(Error::Interrupted)
        } else {
            Ok(())
        }
    }

    /// Runs `work` on this thread, calling `poll` about every `every` from this thread's
    /// checks and pool waits (the first time only after `every`, so short work never polls);
    /// when `poll` returns `false` this token is cancelled.
    pub fn watched<T>(&self, every: Duration, poll: Poll, work: impl FnOnce(&Cancel) -> T) -> T {
        let watch = Watch {
            cancel: self.clone(),
            poll,
            every,
            due: Instant::now() + every,
        };
        let _restore = Restore(WATCH.with(|slot| slot.borrow_mut().replace(watch)));
        work(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag() {
        let token = Cancel::new();
        let seen_by_worker = token.clone();
        assert_eq!(seen_by_worker.check(), Ok(()));
        token.cancel();
        assert_eq!(seen_by_worker.check(), Err(Error::Interrupted));
    }

    #[test]
    fn a_watched_check_polls_once_due_and_a_refusal_cancels() {
        let token = Cancel::new();
        let polls = std::rc::Rc::new(std::cell::Cell::new(0));
        let counted = polls.clone();
        let poll: Poll = Box::new(move || {
            counted.set(counted.get() + 1);
            false
        });
        let every = Duration::from_millis(5);
        let outcome = token.watched(every, poll, |cancel| {
            assert_eq!(cancel.check(), Ok(()), "not due yet");
            std::thread::sleep(every * 2);
            cancel.check()
        });
        assert_eq!(outcome, Err(Error::Interrupted));
        assert_eq!(polls.get(), 1);
        assert!(!watching(), "the watch ends with the call");
    }

    #[test]
    fn an_unwatched_thread_never_polls() {
        assert!(!watching());
        assert_eq!(poll_watch(true), None);
        assert_eq!(Cancel::new().check(), Ok(()));
    }
}
