//! A game on a whole grid started in the engine, in parallel, in one byte a territory: the
//! `regions` start's first territory drawn from the random order without sorting it, the
//! regions dealt in closed form ([`grid_teams`]; on a torus by the searches of
//! [`crate::start::board_teams`]), every territory the same troops.
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
use crate::turn::{TERRITORIES_PER_TASK, troop_limit};

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
    let team = if grid.torus {
        crate::start::board_teams(&board, first, teams, cancel, &AtomicU64::new(0))?
    } else {
        grid_teams(grid, first as u64, teams, cancel)?
    };
    let troops = memory::filled_on(n as usize, troops, Pages::Small);
    Game::started_checked(board, team, troops, policies, params)
}

/// The regions of [`crate::start::board_teams`] on the grid `grid` (not a torus) from the
/// territory `first`, without a search: the farthest territory from `(r, c)` is the corner
/// of the farther row and the farther column (the lower one on a tie: the lowest id), the
/// distance from a corner is the Manhattan distance, and a territory's place in the order
/// (distance, id) is the count of the nearer diagonals plus its rank in its own diagonal,
/// where ids follow the rows. Each task writes a block of territories.
pub fn grid_teams(grid: &Grid, first: u64, teams: usize, cancel: &Cancel) -> Result<Vec<u8>> {
    // At most MAX_TERRITORIES.
    let n = grid.checked_n()? as usize;
    if !(1..=crate::MAX_TEAMS).contains(&teams) {
        return Err(Error::InvalidParameter(format!(
            "regions are dealt to 1 to {} teams, got {teams}",
            crate::MAX_TEAMS
        )));
    }
    if first >= n as u64 {
        return Err(Error::InvalidParameter(format!(
            "the first territory {first} is outside 0..{n}"
        )));
    }
    // checked_n: rows, cols >= 1 and rows * cols fits.
    let (rows, cols) = (grid.rows as u64, grid.cols as u64);
    let (r0, c0) = (first / cols, first % cols);
    let corner_row = if r0 >= rows - 1 - r0 { 0 } else { rows - 1 };
    let corner_col = if c0 >= cols - 1 - c0 { 0 } else { cols - 1 };
    // Territories at a distance below d from a corner: the triangle u + v < d less the
    // parts beyond the last row and column (added back where both are cut).
    // In u128: on a grid of one row the triangle outgrows a u64 before the difference.
    let triangle = |k: u64| u128::from(k) * u128::from(k + 1) / 2;
    let nearer = |d: u64| {
        let inside =
            triangle(d) - triangle(d.saturating_sub(rows)) - triangle(d.saturating_sub(cols))
                + triangle(d.saturating_sub(rows + cols));
        // At most n territories.
        inside as u64
    };
    let place = |r: u64, c: u64| {
        let (u, v) = (r.abs_diff(corner_row), c.abs_diff(corner_col));
        let d = u + v;
        // Diagonal d holds the rows u of max(0, d - cols + 1)..=min(d, rows - 1); by id it
        // runs down the rows from the top corner, up them from the bottom one.
        let rank = if corner_row == 0 {
            u - d.saturating_sub(cols - 1)
        } else {
            d.min(rows - 1) - u
        };
        nearer(d) + rank
    };
    // Team t holds the places from ceil(t * n / teams).
    let (count, total) = (teams as u64, n as u64);
    let starts: Vec<u64> = (0..=count).map(|t| (t * total).div_ceil(count)).collect();
    let mut team = vec![0u8; n];
    team.par_chunks_mut(TERRITORIES_PER_TASK)
        .enumerate()
        .try_for_each(|(task, out)| {
            cancel.check()?;
            let from = (task * TERRITORIES_PER_TASK) as u64;
            let (mut r, mut c) = (from / cols, from % cols);
            let mut t = 0;
            for owner in out.iter_mut() {
                // Along a row the places run one way: `t` moves a step or two.
                let p = place(r, c);
                c += 1;
                if c == cols {
                    (r, c) = (r + 1, 0);
                }
                while p >= starts[t + 1] {
                    t += 1;
                }
                while p < starts[t] {
                    t -= 1;
                }
                *owner = t as u8;
            }
            Ok::<(), Error>(())
        })?;
    Ok(team)
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

    /// Checks that the closed form deals the regions of both searches on the engine's board
    /// of `grid`.
    fn assert_deals_as_searched(grid: &Grid, first: u64, teams: usize) -> Result<()> {
        let board = Board::grid(grid)?;
        let none = (&Cancel::new(), &AtomicU64::new(0));
        let searched = crate::start::board_teams(&board, first as i64, teams, none.0, none.1)?;
        assert_eq!(
            grid_teams(grid, first, teams, &Cancel::new())?,
            searched,
            "{}x{} from {first}, {teams} teams",
            grid.rows,
            grid.cols
        );
        Ok(())
    }

    fn plane(rows: i64, cols: i64) -> Grid {
        Grid::plane(rows, cols)
    }

    #[test]
    fn the_closed_form_deals_the_searches_regions_on_every_small_grid() -> Result<()> {
        for (rows, cols) in (1..=7).flat_map(|r| (1..=7).map(move |c| (r, c))) {
            let grid = plane(rows, cols);
            for first in 0..(rows * cols) as u64 {
                for teams in [1, 2, 3, 4, 5, 7, 64] {
                    assert_deals_as_searched(&grid, first, teams)?;
                }
            }
        }
        Ok(())
    }

    #[test]
    fn the_closed_form_deals_the_searches_regions_on_larger_grids() -> Result<()> {
        // Shapes, starts and team counts drawn from the seed's words, with the thin and the
        // odd shapes (one row, one column, a few blocks of a task) among them.
        let stream = Stream::new(39, "conquest.test.grid_teams", &[])?;
        let mut shapes = vec![(1, 9000), (9000, 1), (2, 4097), (65, 63), (128, 128)];
        for k in 0..40 {
            let words = stream.block(k);
            shapes.push((1 + (words[0] % 150) as i64, 1 + (words[1] % 150) as i64));
        }
        for (k, &(rows, cols)) in shapes.iter().enumerate() {
            let grid = plane(rows, cols);
            let words = stream.block(1000 + k as u64);
            let n = (rows * cols) as u64;
            for first in [
                0,
                n - 1,
                words[0] % n,
                words[1] % n,
                (rows as u64 / 2) * cols as u64,
            ] {
                let teams = 1 + (words[2] % 64) as usize;
                for teams in [teams, 1 + teams % 6] {
                    assert_deals_as_searched(&grid, first, teams)?;
                }
            }
        }
        Ok(())
    }

    #[test]
    fn the_closed_form_refuses_what_the_searches_refuse_and_stops_when_cancelled() {
        let grid = plane(3, 4);
        let error = |first, teams| {
            grid_teams(&grid, first, teams, &Cancel::new())
                .err()
                .map(|e| e.to_string())
        };
        assert!(error(12, 2).is_some_and(|e| e.contains("outside 0..12")));
        assert!(error(0, 0).is_some_and(|e| e.contains("got 0")));
        assert!(error(0, 65).is_some_and(|e| e.contains("got 65")));
        let cancel = Cancel::new();
        cancel.cancel();
        assert!(matches!(
            grid_teams(&grid, 0, 2, &cancel),
            Err(Error::Interrupted)
        ));
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
