//! A game on a whole grid started in the engine, in parallel, in one byte a territory: the
//! `regions` start's first territory drawn from the random order without sorting it, the
//! regions dealt on the engine's board ([`crate::start::board_teams`]), every territory the
//! same troops.
//! `Game.from_spec` on a grid calls it; the arrays are those of `assign_regions` and
//! `troops_uniform` on the built board (the tests compare them).

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use rayon::prelude::*;
use stratagem_core::memory::{self, Pages};
use stratagem_core::rng::Stream;
use stratagem_core::{Cancel, Error, Result};

use crate::board::Board;
use crate::game::{Game, Params};
use crate::policy::Policy;
use crate::share::Grid;
use crate::turn::troop_limit;

/// The stream whose words order the territories for the `regions` start.
pub const REGIONS: &str = "conquest.assign.regions";

/// Territories whose words a task reads (a multiple of the four words of a block).
const WORDS_PER_TASK: u64 = 1 << 16;

/// `(word, id)` of the first `count` territories of `lo..hi` in the random order of the
/// stream `(seed, purpose)` (word `x` is territory `x`'s; ties, almost impossible, by id), in
/// that order: `stratagem.conquest.boards.layouts.first_in_order`. Each task keeps its first `count`,
/// so memory does not grow with the board.
pub fn first_in_order(
    seed: u64,
    purpose: &str,
    lo: u64,
    hi: u64,
    count: usize,
) -> Result<Vec<(u64, u64)>> {
    let stream = Stream::new(seed, purpose, &[])?;
    let tasks = hi.saturating_sub(lo).div_ceil(WORDS_PER_TASK);
    let keep = |mut kept: Vec<(u64, u64)>, pair: (u64, u64)| {
        if kept.len() < count || kept.last().is_some_and(|&last| pair < last) {
            let at = kept.partition_point(|&held| held < pair);
            kept.insert(at, pair);
            kept.truncate(count);
        }
        kept
    };
    Ok((0..tasks)
        .into_par_iter()
        .map(|task| {
            let first = lo + task * WORDS_PER_TASK;
            let last = (first + WORDS_PER_TASK).min(hi);
            let mut kept = Vec::with_capacity(count + 1);
            let mut block = (first / 4, stream.block(first / 4));
            for x in first..last {
                if block.0 != x / 4 {
                    block = (x / 4, stream.block(x / 4));
                }
                kept = keep(kept, (block.1[(x % 4) as usize], x));
            }
            kept
        })
        .reduce(Vec::new, |a, b| b.into_iter().fold(a, keep)))
}

/// The game `Game(Board.grid(...), assign_regions(board, teams, seed), troops everywhere)` on
/// the engine's board of `grid`, with the state made here: one team per territory, one
/// troop count for all. `teams` (at most the policies) start; `cancel` is checked as the
/// regions are dealt.
pub fn regions_game(
    board: Arc<Board>,
    grid: &Grid,
    teams: usize,
    troops: u64,
    policies: Vec<Policy>,
    params: Params,
    cancel: &Cancel,
) -> Result<Game> {
    let n = grid.checked_n()? as u64;
    if board.n() as u64 != n {
        return Err(Error::InvalidParameter(format!(
            "the board has {} territories, the grid {n}",
            board.n()
        )));
    }
    let limit = troop_limit(n);
    if troops > limit {
        return Err(Error::InvalidParameter(format!(
            "{troops} troops a territory, outside 0..{limit}"
        )));
    }
    if !(1..=policies.len()).contains(&teams) || teams as u64 > n {
        return Err(Error::InvalidParameter(format!(
            "{teams} teams start on {n} territories with {} policies",
            policies.len()
        )));
    }
    let first = first_in_order(params.seed, REGIONS, 0, n, 1)?;
    let first = first.first().map_or(0, |&(_, x)| x as i64);
    let team = crate::start::board_teams(&board, first, teams, cancel, &AtomicU64::new(0))?;
    let troops = memory::filled_on(n as usize, troops, Pages::Small);
    Game::started_checked(board, team, troops, policies, params)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first `count` by sorting every word, as the Python function does.
    fn sorted_first(seed: u64, lo: u64, hi: u64, count: usize) -> Result<Vec<(u64, u64)>> {
        let stream = Stream::new(seed, REGIONS, &[])?;
        let mut all: Vec<(u64, u64)> = (lo..hi)
            .map(|x| (stream.block(x / 4)[(x % 4) as usize], x))
            .collect();
        all.sort_unstable();
        all.truncate(count);
        Ok(all)
    }

    #[test]
    fn the_first_in_order_are_those_of_the_sorted_words() -> Result<()> {
        for (lo, hi, count) in [(0, 1, 1), (0, 10, 4), (3, 200_001, 7), (5, 5, 3), (0, 3, 8)] {
            for seed in [0, 1, 17] {
                assert_eq!(
                    first_in_order(seed, REGIONS, lo, hi, count)?,
                    sorted_first(seed, lo, hi, count)?,
                    "{lo}..{hi}, {count}"
                );
            }
        }
        Ok(())
    }
}
