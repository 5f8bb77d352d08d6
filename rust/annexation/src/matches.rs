//! Whole games between agents, many at once (docs/annexation-rules.md, "Matches"). Each game
//! is independent and seeded by the caller, so results do not depend on the thread count.

use rayon::prelude::*;
use stratagem_core::{Cancel, Error, Result};

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

/// A match as the caller's arrays hold it: one recolouring of `board` per game (row-major,
/// `colours.1 = [games, cells]`), which side moves first (0: A), and each game's two seeds.
pub struct MatchArrays<'a> {
    pub colours: (&'a [u8], [usize; 2]),
    pub first: &'a [u8],
    pub seeds: (&'a [u64], [usize; 2]),
}

/// A match's games from the sides' point of view: the winning side (-1 drawn), the cells of
/// A and B (row-major, two per game) and the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchTable {
    pub winner: Vec<i8>,
    pub cells: Vec<i64>,
    pub moves: Vec<i64>,
}

/// The fixtures of `arrays` on `board` (whose graph is `offsets`/`neighbours`), checked.
pub fn match_fixtures(
    board: &Board,
    offsets: &[i64],
    neighbours: &[i64],
    arrays: &MatchArrays<'_>,
) -> Result<Vec<Fixture>> {
    if board.players() != 2 {
        return Err(Error::InvalidParameter(format!(
            "a match is between two players; the board has {}",
            board.players()
        )));
    }
    let [games, cells] = arrays.colours.1;
    if arrays.first.len() != games || arrays.seeds.1 != [games, 2] {
        return Err(Error::InvalidParameter(format!(
            "colours has {games} rows, first {} entries and seeds shape {:?}; expected \
             ({games},) and ({games}, 2)",
            arrays.first.len(),
            arrays.seeds.1
        )));
    }
    let mut fixtures = Vec::with_capacity(games);
    for g in 0..games {
        let row = &arrays.colours.0[g * cells..(g + 1) * cells];
        let recoloured = board
            .recoloured(offsets, neighbours, row)
            .map_err(|e| in_game(e, g))?;
        let first = arrays.first[g];
        if first > 1 {
            return Err(Error::InvalidParameter(format!(
                "first[{g}] must be 0 or 1, got {first}"
            )));
        }
        fixtures.push(Fixture {
            board: std::sync::Arc::new(recoloured),
            first: usize::from(first),
            seeds: [arrays.seeds.0[2 * g], arrays.seeds.0[2 * g + 1]],
        });
    }
    Ok(fixtures)
}

fn in_game(error: Error, game: usize) -> Error {
    match error {
        Error::InvalidBoard(m) => Error::InvalidBoard(format!("game {game}: {m}")),
        Error::InvalidParameter(m) => Error::InvalidParameter(format!("game {game}: {m}")),
        other => other,
    }
}

/// The finished games of `fixtures` from the sides' point of view: player 0 is side `first`,
/// so player q is side `(q + first) % 2`.
pub fn match_table(finished: &[Finished], fixtures: &[Fixture]) -> MatchTable {
    let mut table = MatchTable {
        winner: Vec::with_capacity(finished.len()),
        cells: vec![0; 2 * finished.len()],
        moves: Vec::with_capacity(finished.len()),
    };
    for (g, (game, fixture)) in finished.iter().zip(fixtures).enumerate() {
        let side = |q: usize| (q + fixture.first) % 2;
        table.winner.push(match game.outcome {
            Outcome::Won(q) => side(usize::from(q)) as i8,
            _ => -1,
        });
        for (q, &score) in game.scores.iter().enumerate() {
            table.cells[2 * g + side(q)] = i64::from(score);
        }
        table.moves.push(game.history.len() as i64);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Mode;
    use crate::board::tests::{path, path_board};

    #[test]
    fn match_arrays_are_checked_before_any_game() -> Result<()> {
        let board = path_board(&[0, 1, 2, 1], 3, Mode::Flood)?;
        let (offsets, neighbours) = path(4);
        let colours = [0u8, 1, 2, 1, 0, 2, 1, 2];
        let seeds = [1u64, 2, 3, 4];
        let arrays = MatchArrays {
            colours: (&colours, [2, 4]),
            first: &[0, 1],
            seeds: (&seeds, [2, 2]),
        };
        let fixtures = match_fixtures(&board, &offsets, &neighbours, &arrays)?;
        assert_eq!(fixtures.len(), 2);
        assert_eq!((fixtures[1].first, fixtures[1].seeds), (1, [3, 4]));
        let refused = |arrays: &MatchArrays<'_>| match match_fixtures(
            &board,
            &offsets,
            &neighbours,
            arrays,
        ) {
            Err(Error::InvalidParameter(m) | Error::InvalidBoard(m)) => m,
            other => panic!("accepted: {other:?}"),
        };
        let bad_first = MatchArrays {
            first: &[0, 2],
            ..arrays
        };
        assert_eq!(refused(&bad_first), "first[1] must be 0 or 1, got 2");
        let short = MatchArrays {
            first: &[0],
            ..arrays
        };
        assert!(refused(&short).contains("first 1 entries"));
        let bad_colour = [0u8, 1, 2, 1, 0, 9, 1, 2];
        let recoloured = MatchArrays {
            colours: (&bad_colour, [2, 4]),
            ..arrays
        };
        assert!(refused(&recoloured).starts_with("game 1: "));
        Ok(())
    }
}
