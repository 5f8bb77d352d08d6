//! The error kinds of the core. Each maps onto one Python exception class of
//! `stratagem.errors`; the message must name the offending item.

use std::fmt;

/// What went wrong, with a message that names the offending item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A board, map or graph is malformed.
    InvalidBoard(String),
    /// A move, placement or order breaks the rules.
    InvalidMove(String),
    /// A parameter is out of range, or an array has the wrong shape.
    InvalidParameter(String),
    /// Pieces of input contradict each other.
    InconsistentInput(String),
    /// The caller asked the computation to stop (Ctrl-C).
    Interrupted,
}

pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidBoard(m)
            | Error::InvalidMove(m)
            | Error::InvalidParameter(m)
            | Error::InconsistentInput(m) => f.write_str(m),
            Error::Interrupted => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for Error {}

/// Shorthand for the most common error: `param("threads must be at least 1, got 0")`.
pub fn param(message: impl Into<String>) -> Error {
    Error::InvalidParameter(message.into())
}
