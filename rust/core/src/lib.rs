//! Pure-Rust core of stratagem: the pieces every game shares.
//!
//! Nothing here knows about Python. The binding crate (`rust/python`) turns [`Error`] into the
//! Python exception classes, releases the GIL around long calls and forwards Ctrl-C through a
//! [`Cancel`] token.

pub mod cancel;
pub mod error;
pub mod graph;
pub mod memory;
pub mod parallel;
pub mod rng;

pub use cancel::Cancel;
pub use error::{Error, Result};
