//! Whole games between agents, many at once (docs/annexation-rules.md, "Matches"). Each game
//! is independent and seeded by the caller, so results do not depend on the thread count.

use rayon::prelude::*;
use stratagem_core::{Cancel, Result};

use crate::ai::{Agent, AiSpec};
use crate::board::Board;
use crate::state::{Outcome, State};

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    pub outcome: Outcome,
    pub scores: Vec<u32>,
    pub history: Vec<u8>,
}

/// Plays a game on `board` with one agent per player (player q is `agents[q]`).
pub fn play_game(board: &Board, agents: &mut [Agent], cancel: &Cancel) -> Result<Finished> {
    let mut state = State::initial(board)?;
    let mut history = Vec::new();
    while !state.is_over() {
        cancel.check()?;
        let colour = agents[state.to_move()].choose(board, &state, &history, cancel)?;
        state.play_unchecked(board, colour);
        history.push(colour as u8);
    }
    Ok(Finished {
        outcome: state.outcome(),
        scores: state.scores().to_vec(),
        history,
    })
}

/// One game of a match: its board, which spec plays first, and the two agents' seeds.
#[derive(Clone, Debug)]
pub struct Fixture {
    pub board: std::sync::Arc<Board>,
    pub first: usize,
    pub seeds: [u64; 2],
}

/// Plays every fixture between `specs[0]` and `specs[1]` (two-player boards) on the current
/// rayon pool; result `g` is fixture `g`, with player 0 being `specs[first]`.
pub fn play_fixtures(
    specs: [AiSpec; 2],
    fixtures: &[Fixture],
    cancel: &Cancel,
) -> Result<Vec<Finished>> {
    fixtures
        .par_iter()
        .map(|fixture| {
            let (first, second) = (fixture.first, 1 - fixture.first);
            let mut agents = [
                specs[first].spawn(fixture.seeds[first]),
                specs[second].spawn(fixture.seeds[second]),
            ];
            play_game(&fixture.board, &mut agents, cancel)
        })
        .collect()
}
