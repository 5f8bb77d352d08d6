//! The frontier distances of a grid that is not a torus ([`Board::plane`]) without a
//! search: the distances [`crate::policy::frontier_distance`] finds, in passes over the board in
//! memory order.
//!
//! Why they are the same: a territory with no enemy neighbour has only neighbours of its own
//! team, so a path from it meets a frontier territory of its own team before any territory of
//! another: its distance to the nearest frontier territory of any team, over the whole board,
//! is its distance to its own team's frontier within its team's territories, which the search
//! finds. On a plane grid the distance to the nearest of a set of territories is the least
//! Manhattan distance, found by a sweep along each row and then down and up each column. A
//! search on a board of 10^8 territories reads the rows of each level scattered over memory;
//! the passes read it in order.

use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use crate::board::Board;
use crate::policy::{NO_DISTANCE, Policy};
use crate::turn::TERRITORIES_PER_TASK;

/// The most columns a task of the column passes sweeps (a page of `u32` per row); narrower
/// grids are cut in 8 blocks of whole cache lines, so that a 1000-column grid's passes are
/// shared too.
const COLUMNS_PER_TASK: usize = 1024;

/// [`crate::policy::frontier_distance`] on the board of a grid of `(rows, cols)`
/// ([`Board::plane`]): `dist[x]` is the distance from `x` to the nearest `frontier`
/// territory when `x`'s team moves to the front, 0 on the frontier, [`NO_DISTANCE`] for the
/// others.
pub fn frontier_distance(
    board: &Board,
    (rows, cols): (usize, usize),
    team: &[u8],
    policies: &[Policy],
    frontier: &[u32],
    dist: &mut Vec<u32>,
) {
    let n = board.n();
    debug_assert_eq!(rows * cols, n);
    dist.resize(n, NO_DISTANCE);
    let mut sources = frontier.to_vec();
    sources.par_sort_unstable();
    // Each block of rows at once: unreached, its frontier at 0, then along each row both
    // ways (NO_DISTANCE is u32::MAX: one more stays unreached).
    let rows_per_task = (TERRITORIES_PER_TASK * 16 / cols).max(1);
    dist.par_chunks_mut(cols * rows_per_task)
        .enumerate()
        .for_each(|(task, chunk)| {
            let first = task * rows_per_task * cols;
            chunk.fill(NO_DISTANCE);
            let from = sources.partition_point(|&x| (x as usize) < first);
            let to = sources.partition_point(|&x| (x as usize) < first + chunk.len());
            for &x in &sources[from..to] {
                chunk[x as usize - first] = 0;
            }
            for row in chunk.chunks_mut(cols) {
                for c in 1..row.len() {
                    row[c] = row[c].min(row[c - 1].saturating_add(1));
                }
                for c in (0..row.len().saturating_sub(1)).rev() {
                    row[c] = row[c].min(row[c + 1].saturating_add(1));
                }
            }
        });
    // Down and up each column, a block of columns per task, a row of the block at a time.
    // A row is final once the pass up has left it: then the teams that do not move to the
    // front keep only their frontier's distances (an interior territory's neighbours are all
    // of its team, so what the pass carries on from such a row reaches only its team).
    let moves: Vec<bool> = policies.iter().map(|p| p.moves_to_front()).collect();
    let cells = atomic_view(dist);
    column_blocks(cols).for_each(|columns| {
        let step = |from: usize, to: usize| {
            for c in columns.clone() {
                let above = cells[from + c].load(Ordering::Relaxed).saturating_add(1);
                let here = &cells[to + c];
                if above < here.load(Ordering::Relaxed) {
                    here.store(above, Ordering::Relaxed);
                }
            }
        };
        let settle = |row: usize| {
            for x in columns.clone().map(|c| row + c) {
                let moving = moves.get(usize::from(team[x])).copied().unwrap_or(false);
                if !moving && cells[x].load(Ordering::Relaxed) != 0 {
                    cells[x].store(NO_DISTANCE, Ordering::Relaxed);
                }
            }
        };
        for r in 1..rows {
            step((r - 1) * cols, r * cols);
        }
        settle((rows - 1) * cols);
        for r in (1..rows).rev() {
            step(r * cols, (r - 1) * cols);
            settle((r - 1) * cols);
        }
    });
}

/// The blocks of columns the column passes share among tasks (a task sweeps its columns down
/// or up the rows; one row's columns are read while they are in the cache): at most
/// [`COLUMNS_PER_TASK`], and 8 blocks of whole cache lines on narrower grids.
pub(crate) fn column_blocks(cols: usize) -> impl IndexedParallelIterator<Item = Range<usize>> {
    let width = cols.div_ceil(8).next_multiple_of(16).min(COLUMNS_PER_TASK);
    (0..cols.div_ceil(width))
        .into_par_iter()
        .map(move |block| block * width..((block + 1) * width).min(cols))
}

/// The same memory seen as atomics, so that the tasks of the column passes, each of its own
/// columns, can write a row that others write too.
fn atomic_view(values: &mut [u32]) -> &[AtomicU32] {
    // SAFETY: AtomicU32 has the size and alignment of u32, and the exclusive borrow
    // guarantees no other access while the view lives; each task touches its own columns.
    unsafe { &*(std::ptr::from_mut::<[u32]>(values) as *const [AtomicU32]) }
}

/// Grid shapes for tests: `fixed`, then `drawn` more of 1 to `most` rows and columns from
/// `stream`.
#[cfg(test)]
pub(crate) fn test_shapes(
    stream: &stratagem_core::rng::Stream,
    fixed: &[(i64, i64)],
    drawn: u64,
    most: u64,
) -> Vec<(i64, i64)> {
    let side = |word: u64| 1 + (word % most) as i64;
    let drawn = (0..drawn)
        .map(|k| stream.block(k))
        .map(|w| (side(w[0]), side(w[1])));
    fixed.iter().copied().chain(drawn).collect()
}

/// Teams' policies for tests: movers and non-movers to the front, alone and together.
#[cfg(test)]
pub(crate) fn test_mixes() -> [Vec<Policy>; 4] {
    [
        vec![Policy::Balanced, Policy::Opportunist],
        vec![Policy::Random, Policy::Aggressive, Policy::Custom],
        vec![Policy::Random, Policy::Custom],
        vec![Policy::Balanced; 5],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid_start::grid_teams;
    use crate::policy::{self, Levels};
    use crate::share::Grid;
    use stratagem_core::rng::Stream;
    use stratagem_core::{Cancel, Result};

    /// The distances of the search and of the passes on the same state.
    fn both(board: &Board, team: &[u8], policies: &[Policy]) -> (Vec<u32>, Vec<u32>) {
        let mut frontier = Vec::new();
        policy::frontier(board, team, |_| true, &mut frontier);
        let (mut searched, mut swept) = (Vec::new(), vec![7; 3]);
        let mut levels = Levels::default();
        policy::frontier_distance(board, team, policies, &frontier, &mut levels, &mut searched);
        let shape = board.plane().unwrap_or((0, 0));
        frontier_distance(board, shape, team, policies, &frontier, &mut swept);
        (searched, swept)
    }

    #[test]
    fn the_passes_find_the_searchs_distances() -> Result<()> {
        let stream = Stream::new(39, "conquest.test.plane", &[])?;
        let mixes = test_mixes();
        let fixed = [(1, 1), (1, 40), (40, 1), (2, 2), (3, 1500), (1500, 3)];
        let shapes = test_shapes(&stream, &fixed, 30, 90);
        for (k, &(rows, cols)) in shapes.iter().enumerate() {
            let grid = Grid::plane(rows, cols);
            let board = Board::grid(&grid)?;
            assert_eq!(board.plane(), Some((rows as usize, cols as usize)));
            let n = board.n() as u64;
            for policies in &mixes {
                let teams = policies.len() as u64;
                // Regions (bands of diagonals), and teams drawn at random per territory, in
                // patches or everywhere (a few territories of a team in another's land).
                let words = stream.block(1000 + k as u64);
                let regions = grid_teams(&grid, words[0] % n, teams as usize, &Cancel::new())?;
                let scattered: Vec<u8> = (0..n)
                    .map(|x| (stream.block(x + n * k as u64)[0] % teams) as u8)
                    .collect();
                let patches: Vec<u8> = (0..n)
                    .map(|x| {
                        let patch = (x / cols as u64 / 7) * 31 + (x % cols as u64) / 5;
                        let odd = stream.block(x)[1] % 23 == 0;
                        ((patch + u64::from(odd)) % teams) as u8
                    })
                    .collect();
                for team in [regions, scattered, patches, vec![0; n as usize]] {
                    let (searched, swept) = both(&board, &team, policies);
                    assert_eq!(swept, searched, "{rows}x{cols}, {policies:?}");
                }
            }
        }
        Ok(())
    }
}
