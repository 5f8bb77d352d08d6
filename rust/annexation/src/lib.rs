//! annexation: the Filler-style colour game, as `docs/annexation-rules.md` states it.
//!
//! [`Board`] groups cells into bitset "units" (colour regions in `flood` mode, single cells in
//! `adjacent` mode) so that a move is a few word operations; [`State`] is a position and plays
//! moves. [`playout`] runs batches of random games, [`ai`] the game-playing agents (with
//! [`mcts`] for UCT search), [`matches`] whole games between agents and [`batch`] the
//! many-games-at-once step for learning code. `python/stratagem/annexation/oracle.py` is the
//! same rules in plain Python, cell by cell.

pub mod ai;
pub mod batch;
pub mod board;
pub mod matches;
pub mod mcts;
pub mod playout;
pub mod playout_loop;
pub mod state;
pub mod vector;

pub use board::{Board, Mode, Rules};
pub use state::{Outcome, State};

/// The fewest and most colours a board may have.
pub const MIN_COLOURS: usize = 3;
pub const MAX_COLOURS: usize = 16;
/// The fewest and most players.
pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 4;

/// Purposes of the random streams (docs/annexation-rules.md).
pub mod purpose {
    pub const PLAYOUT: &str = "annexation.playout";
    pub const LIGHT: &str = "annexation.light";
    pub const RANDOM_AI: &str = "annexation.ai.random";
    pub const MCTS: &str = "annexation.mcts";
}
