//! diplomacy: the winter adjustments of a Diplomacy position (seed 004).
//!
//! The rules are `docs/diplomacy-rules.md`: [`board`] (the map as graphs and distances),
//! [`position`] (units and centres), [`adjust`] (each power's options: counted, ranked,
//! listed), [`evaluate`] (the heuristic value of a profile), [`search`] (preliminary and
//! sequential searches, annealing, the combined search), [`retreat`] (where a dislodged unit may
//! go) and [`open_problem`] (the largest number of choices).

pub mod adjust;
pub mod board;
pub mod evaluate;
pub mod open_problem;
pub mod position;
pub mod retreat;
pub mod search;

pub use adjust::{Choices, Convention};
pub use board::Board;
pub use evaluate::Weights;
pub use position::{Position, Unit};
