//! mastermind: the codebreaker's side of Mastermind, as `docs/mastermind-rules.md` states it.
//!
//! [`code`] holds codes and their space, [`score`] the black/white feedback, [`history`] the
//! guesses and feedbacks of a game, [`search`] the depth-first consistent-code search.
//! `python/stratagem/mastermind/oracle.py` is the same rules in plain Python.

pub mod canonical;
pub mod code;
pub mod contradiction;
pub mod evaluate;
pub mod history;
pub mod optimal;
pub mod score;
pub mod search;
pub mod strategy;

pub use code::{Code, Space};
pub use history::History;
pub use score::{Feedback, score};

/// Purposes of the random streams (docs/mastermind-rules.md).
pub mod purpose {
    pub const ESTIMATE: &str = "mastermind.estimate";
    pub const ORDER: &str = "mastermind.order";
    pub const RANDOM: &str = "mastermind.random";
    pub const RANDOM_ORDER: &str = "mastermind.random.order";
    pub const SECRETS: &str = "mastermind.secrets";
}
