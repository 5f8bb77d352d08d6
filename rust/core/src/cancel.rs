//! Cooperative cancellation: long loops poll a [`Cancel`] token between chunks of work so that
//! a Ctrl-C seen by the binding layer stops them within a fraction of a second.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};

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

    /// `Err(Error::Interrupted)` once cancelled; use with `?` between chunks of work.
    pub fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            Err(Error::Interrupted)
        } else {
            Ok(())
        }
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
}
