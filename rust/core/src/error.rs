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

/// The value `name` stands for, `values[i]` for `names[i]`; any other name is an
/// `InvalidParameter` listing them: "mode must be 'flood' or 'adjacent', got \"x\"".
pub fn named<T: Copy, const N: usize>(
    what: &str,
    name: &str,
    names: &[&str; N],
    values: [T; N],
) -> Result<T> {
    if let Some(i) = names.iter().position(|&known| known == name) {
        return Ok(values[i]);
    }
    let quoted: Vec<String> = names.iter().map(|known| format!("'{known}'")).collect();
    let choices = match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, others)) => format!("{} or {last}", others.join(", ")),
        None => String::new(),
    };
    Err(param(format!("{what} must be {choices}, got {name:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_values_and_the_message_for_an_unknown_name() {
        let names = ["lex", "shuffled", "other"];
        assert_eq!(named("order", "shuffled", &names, [1, 2, 3]), Ok(2));
        assert_eq!(
            named("order", "x", &["lex", "shuffled"], [1, 2]),
            Err(param("order must be 'lex' or 'shuffled', got \"x\""))
        );
        assert_eq!(
            named("order", "x", &names, [1, 2, 3]),
            Err(param(
                "order must be 'lex', 'shuffled' or 'other', got \"x\""
            ))
        );
    }
}
