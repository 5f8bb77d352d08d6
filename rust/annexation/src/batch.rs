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

/// A batch as the caller's arrays hold it: row-major values and the array's shape.
pub struct Arrays<'a> {
    pub owner: (&'a [i8], [usize; 2]),
    pub colours: (&'a [u8], [usize; 2]),
    pub to_move: &'a [i8],
    pub moves: &'a [i64],
    pub actions: &'a [i64],
}

/// What a step writes back, row-major: the new positions, each row's winner (-1 none),
/// whether it is over, the rewards of this step and the legal colours after it.
#[derive(Clone, Debug, PartialEq)]
pub struct SteppedArrays {
    pub batch: usize,
    pub owner: Vec<i8>,
    pub colours: Vec<u8>,
    pub to_move: Vec<i8>,
    pub moves: Vec<i64>,
    pub winner: Vec<i8>,
    pub terminated: Vec<bool>,
    pub rewards: Vec<f32>,
    pub legal: Vec<bool>,
}

/// [`step`] on the caller's arrays: checks their shapes, reads the rows, plays and lays the
/// results out as arrays again.
pub fn step_arrays(board: &Board, arrays: &Arrays<'_>) -> Result<SteppedArrays> {
    let batch = arrays.owner.1[0];
    let (cells, players, k) = (board.cells(), board.players(), board.colour_count());
    let shapes_agree = arrays.owner.1 == [batch, cells]
        && arrays.colours.1 == [batch, players]
        && arrays.owner.0.len() == batch * cells
        && arrays.colours.0.len() == batch * players
        && [
            arrays.to_move.len(),
            arrays.moves.len(),
            arrays.actions.len(),
        ] == [batch; 3];
    if !shapes_agree {
        return Err(Error::InvalidParameter(format!(
            "a batch of {batch} rows on {cells} cells and {players} players needs owner \
             ({batch}, {cells}), colours ({batch}, {players}), to_move, moves and actions \
             ({batch},); got owner {:?}, colours {:?}, to_move {}, moves {}, actions {}",
            arrays.owner.1,
            arrays.colours.1,
            arrays.to_move.len(),
            arrays.moves.len(),
            arrays.actions.len()
        )));
    }
    let mut rows = Vec::with_capacity(batch);
    for b in 0..batch {
        let (mover, played) = (arrays.to_move[b], arrays.moves[b]);
        let to_move = usize::try_from(mover).map_err(|_| {
            Error::InvalidParameter(format!("row {b}: player to move {mover} is negative"))
        })?;
        let moves = u32::try_from(played).map_err(|_| {
            Error::InvalidParameter(format!("row {b}: moves {played} is outside 0..2^32-1"))
        })?;
        rows.push(Row {
            owner: arrays.owner.0[b * cells..(b + 1) * cells].to_vec(),
            colours: arrays.colours.0[b * players..(b + 1) * players].to_vec(),
            to_move,
            moves,
        });
    }
    let stepped = step(board, &rows, arrays.actions)?;
    let mut out = SteppedArrays {
        batch,
        owner: Vec::with_capacity(batch * cells),
        colours: Vec::with_capacity(batch * players),
        to_move: Vec::with_capacity(batch),
        moves: Vec::with_capacity(batch),
        winner: Vec::with_capacity(batch),
        terminated: Vec::with_capacity(batch),
        rewards: Vec::with_capacity(batch * players),
        legal: Vec::with_capacity(batch * k),
    };
    for row in stepped {
        out.owner.extend_from_slice(&row.row.owner);
        out.colours.extend_from_slice(&row.row.colours);
        out.to_move.push(row.row.to_move as i8);
        out.moves.push(i64::from(row.row.moves));
        let (winner, over) = match row.outcome {
            Outcome::Ongoing => (-1, false),
            Outcome::Won(q) => (q as i8, true),
            Outcome::Drawn => (-1, true),
        };
        out.winner.push(winner);
        out.terminated.push(over);
        out.rewards.extend_from_slice(&row.rewards);
        out.legal.extend((0..k).map(|c| row.legal & (1 << c) != 0));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Mode;
    use crate::board::tests::path_board;

    #[test]
    fn a_step_of_arrays_plays_each_row_and_refuses_wrong_shapes() -> Result<()> {
        let board = path_board(&[0, 1, 2, 1], 3, Mode::Flood)?;
        let first = row_of(&board, &State::initial(&board)?);
        let owner: Vec<i8> = [first.owner.clone(), first.owner.clone()].concat();
        let colours: Vec<u8> = [first.colours.clone(), first.colours.clone()].concat();
        let arrays = Arrays {
            owner: (&owner, [2, 4]),
            colours: (&colours, [2, 2]),
            to_move: &[0, 0],
            moves: &[0, 0],
            actions: &[2, 2],
        };
        let stepped = step_arrays(&board, &arrays)?;
        assert_eq!(stepped.batch, 2);
        assert_eq!(stepped.owner[..4], stepped.owner[4..]);
        assert_eq!(stepped.to_move, vec![1, 1]);
        assert_eq!(stepped.legal.len(), 2 * 3);
        let wrong = Arrays {
            owner: (&owner, [2, 4]),
            colours: (&colours, [2, 2]),
            to_move: &[0],
            moves: &[0, 0],
            actions: &[2, 2],
        };
        let Err(Error::InvalidParameter(message)) = step_arrays(&board, &wrong) else {
            panic!("a short to_move was accepted");
        };
        assert!(message.contains("to_move 1"), "{message}");
        let negative = Arrays {
            to_move: &[0, -1],
            ..arrays
        };
        let Err(Error::InvalidParameter(message)) = step_arrays(&board, &negative) else {
            panic!("a negative player was accepted");
        };
        assert_eq!(message, "row 1: player to move -1 is negative");
        Ok(())
    }
}
