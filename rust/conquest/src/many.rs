//! Independent games played in parallel: game `g` uses the seed given by word 0 of block 0 of
//! stream `(seed, "conquest.games", g)`.

use rayon::prelude::*;
use stratagem_core::rng::Stream;
use stratagem_core::{Cancel, Result};

use crate::game::{Game, Params, Status};
use crate::{purpose, search};

/// The seed of game `g` of a batch started from `seed`.
pub fn game_seed(seed: u64, g: u64) -> Result<u64> {
    Ok(Stream::new(seed, purpose::GAMES, &[g])?.block(0)[0])
}

/// How one game of a batch ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub status: Status,
    pub turns: u64,
}

/// Plays `games` copies of `template` (same board, state and policies; seeds per game) to the
/// end, in parallel; endings come back in game order.
pub fn simulate_many(template: &Game, games: u64, cancel: &Cancel) -> Result<Vec<Ending>> {
    let base = template.params();
    (0..games)
        .into_par_iter()
        .map(|g| {
            let params = Params {
                seed: game_seed(base.seed, g)?,
                ..base
            };
            let mut game = template.with_params(params);
            while search::step(&mut game, None)? {
                cancel.check()?;
            }
            Ok(Ending {
                status: game.status(),
                turns: game.turn(),
            })
        })
        .collect()
}
