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
    match names.iter().position(|&known| known == name) {
        Some(i) => Ok(values[i]),
        None => Err(must_be(what, name, names)),
    }
}

/// The error for a `what` named `name`, not one of `names`: "mode must be 'flood' or
/// 'adjacent', got \"x\"".
pub fn must_be(what: &str, name: &str, names: &[&str]) -> Error {
    let quoted: Vec<String> = names.iter().map(|known| format!("'{known}'")).collect();
    param(format!(
        "{what} must be {}, got {name:?}",
        listed(&quoted, "or")
    ))
}

/// The error for a `what` named `name`, not one of `names`: "unknown convention \"x\"; the
/// conventions are exact, waives and article".
pub fn unknown(what: &str, name: &str, names: &[&str]) -> Error {
    let plain: Vec<String> = names.iter().map(|known| known.to_string()).collect();
    param(format!(
        "unknown {what} {name:?}; the {what}s are {}",
        listed(&plain, "and")
    ))
}

/// `items` as "a, b and c" (with `conjunction` "and").
fn listed(items: &[String], conjunction: &str) -> String {
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, others)) => format!("{} {conjunction} {last}", others.join(", ")),
        None => String::new(),
    }
}

/// An enum of named values (a parameter a user types) whose names are written once: the enum
/// (`Clone, Copy, Debug, PartialEq, Eq`), `ALL` and `NAMES` in declaration order, `name()`,
/// and with `: must_be("what")` or `: unknown("what")` after its name a `parse()` whose error
/// that function of this module words.
///
/// ```
/// stratagem_core::named_enum! {
///     /// How a colour spreads.
///     pub enum Mode: must_be("mode") {
///         /// Through connected cells.
///         Flood = "flood",
///         Adjacent = "adjacent",
///     }
/// }
/// assert_eq!(Mode::NAMES, ["flood", "adjacent"]);
/// assert_eq!(Mode::parse("adjacent"), Ok(Mode::Adjacent));
/// assert_eq!(Mode::ALL.map(Mode::name), Mode::NAMES);
/// ```
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident $(: $error:ident($what:literal))? {
            $($(#[$variant_meta:meta])* $variant:ident = $text:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $name {
            $($(#[$variant_meta])* $variant,)+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: [Self; [$($text),+].len()] = [$(Self::$variant),+];
            /// The values' names, in the order of `ALL`.
            pub const NAMES: [&'static str; [$($text),+].len()] = [$($text),+];

            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => $text,)+
                }
            }

            $(
                pub fn parse(name: &str) -> $crate::Result<Self> {
                    Self::ALL
                        .into_iter()
                        .find(|value| value.name() == name)
                        .ok_or_else(|| $crate::error::$error($what, name, &Self::NAMES))
                }
            )?
        }
    };
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

    #[test]
    fn the_message_for_an_unknown_name() {
        assert_eq!(
            unknown("order", "x", &["lex", "shuffled", "other"]),
            param("unknown order \"x\"; the orders are lex, shuffled and other")
        );
        assert_eq!(
            unknown("order", "x", &["lex"]),
            param("unknown order \"x\"; the orders are lex")
        );
    }
}
