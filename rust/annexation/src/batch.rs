//! Many games at once for learning code (docs/annexation-rules.md, "Batch API"): a step reads
//! each row's position cell by cell, plays its action and writes the new position back.

use rayon::prelude::*;
use stratagem_core::{Error, Result};

use crate::board::Board;
use crate::state::{Outcome, State};

/// One row of a batch, as the caller's arrays hold it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub owner: Vec<i8>,
    pub colours: Vec<u8>,
    pub to_move: usize,
    pub moves: u32,
}

/// What a step returns for a row: the new row, its outcome and the rewards of this step.
#[derive(Clone, Debug, PartialEq)]
pub struct Stepped {
    pub row: Row,
    pub outcome: Outcome,
    pub rewards: Vec<f32>,
    pub legal: u32,
}

pub fn row_of(board: &Board, state: &State) -> Row {
    Row {
        owner: state.cell_owners(board),
        colours: state.player_colours().to_vec(),
        to_move: state.to_move(),
        moves: state.moves(),
    }
}

/// Plays `actions[b]` in every row b not over; rows over are returned as they are.
pub fn step(board: &Board, rows: &[Row], actions: &[i64]) -> Result<Vec<Stepped>> {
    rows.par_iter()
        .zip(actions)
        .enumerate()
        .map(|(b, (row, &action))| {
            let in_row = |e: Error| match e {
                Error::InvalidMove(m) => Error::InvalidMove(format!("row {b}: {m}")),
                Error::InvalidParameter(m) => Error::InvalidParameter(format!("row {b}: {m}")),
                other => other,
            };
            let mut state =
                State::from_cells(board, &row.owner, &row.colours, row.to_move, row.moves)
                    .map_err(in_row)?;
            let players = board.players();
            let mut rewards = vec![0f32; players];
            if !state.is_over() {
                state.play(board, action).map_err(in_row)?;
                if let Outcome::Won(winner) = state.outcome() {
                    for (q, reward) in rewards.iter_mut().enumerate() {
                        *reward = if q == usize::from(winner) { 1.0 } else { -1.0 };
                    }
                }
            }
            Ok(Stepped {
                row: row_of(board, &state),
                outcome: state.outcome(),
                rewards,
                legal: state.legal_mask(board),
            })
        })
        .collect()
}
