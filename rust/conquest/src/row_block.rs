//! The frontier distances of a rank's part that is a block of whole rows of a grid that is
//! not a torus (`docs/conquest-mpi.md`, "Distances on a grid"): the passes of [`crate::plane`]
//! over the block's rows, then one exchange of two rows a rank instead of the search's
//! rounds of halos.
//!
//! Why it is exact: the distances are the Manhattan-distance transform of the frontier
//! (plane.rs says why), `D(r, c) = min over rows r' of h(r', c) + |r - r'|`, `h` being the
//! distance along row `r'` to the frontier in that row. The passes over a block give the
//! transform of its own rows; rows beyond the block need of it only its top row `U` (the
//! least `h(r', c) + r' - top` over its rows) and its bottom row `L`. The carry into a block
//! from above, `a(c)` (the transform of the rows above it, on the row just above), is folded
//! over the blocks above in order, `a = min(L_q, a + H_q)` for a block of `H_q` rows, and the
//! carry from below `b(c)` likewise with `U_q`; then each row of the block takes
//! `min(its own, a + rows down from the row above, b + rows up from the row below)`, and each
//! ghost row the same from the other side. The teams that do not move to the front keep only
//! their frontier's distances, 0 (what the search and plane.rs give them).

use rayon::prelude::*;
use stratagem_core::{Error, Result};

use crate::plane::column_blocks;
use crate::policy::NO_DISTANCE;
use crate::share::Grid;

/// Where a part's rows lie on a grid cut into blocks of whole rows, one per rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowBlock {
    cols: usize,
    /// Rows of each rank's block, in rank order (every one at least 1).
    heights: Vec<u32>,
    rank: usize,
    /// The owned rows' first row of the grid.
    top: usize,
}

impl RowBlock {
    /// The block of `rank` when `offsets` cut `grid` into blocks of whole rows, none empty,
    /// on a grid that is not a torus; None for any other cut (the search's rounds serve it).
    /// Every rank finds the same answer from the same grid and offsets.
    pub fn of(grid: &Grid, offsets: &[i64], rank: usize) -> Option<Self> {
        let (rows, cols) = (grid.rows, grid.cols);
        let whole_rows = !grid.torus
            && cols > 0
            && offsets.first() == Some(&0)
            && offsets.last() == Some(&(rows * cols))
            && offsets.iter().all(|&o| o % cols == 0)
            && offsets.windows(2).all(|w| w[0] < w[1]);
        if !whole_rows || rank + 1 >= offsets.len() {
            return None;
        }
        let heights = offsets
            .windows(2)
            .map(|w| u32::try_from((w[1] - w[0]) / cols).ok())
            .collect::<Option<Vec<u32>>>()?;
        Some(Self {
            cols: cols as usize,
            heights,
            rank,
            top: (offsets[rank] / cols) as usize,
        })
    }

    /// Rows of the grid.
    fn grid_rows(&self) -> usize {
        self.heights.iter().map(|&h| h as usize).sum()
    }

    /// The owned rows' first row of the grid.
    pub(crate) fn top(&self) -> usize {
        self.top
    }

    /// The owned rows.
    pub(crate) fn rows(&self) -> usize {
        self.heights[self.rank] as usize
    }

    /// Whether a row of ghosts lies above the owned rows, and below them.
    pub(crate) fn ghost_rows(&self) -> (bool, bool) {
        (self.top > 0, self.top + self.rows() < self.grid_rows())
    }

    /// Local index of the first owned territory (past the row of ghosts above).
    pub(crate) fn first(&self) -> usize {
        if self.ghost_rows().0 { self.cols } else { 0 }
    }

    /// Checks that a part of `n` territories, the first of id `first_id`, owning `owned`, is
    /// this block with its rows of ghosts, in the grid's order.
    pub fn check_part(&self, n: usize, first_id: u64, owned: &[bool]) -> Result<()> {
        let (above, below) = self.ghost_rows();
        let rows = self.rows() + usize::from(above) + usize::from(below);
        let first = self.first();
        let owned_range = first..first + self.rows() * self.cols;
        let fits = n == rows * self.cols
            && first_id == ((self.top - usize::from(above)) * self.cols) as u64
            && owned.len() == n
            && owned
                .iter()
                .enumerate()
                .all(|(x, &o)| o == owned_range.contains(&x));
        if !fits {
            return Err(Error::InconsistentInput(format!(
                "the part is not rank {}'s block of whole rows of the grid (rows {}..{} and \
                 their neighbours)",
                self.rank,
                self.top,
                self.top + self.rows()
            )));
        }
        Ok(())
    }

    /// Words a rank sends in the exchange, and the words of all the ranks together.
    pub fn edge_words(&self) -> (usize, usize) {
        (2 * self.cols, 2 * self.cols * self.heights.len())
    }

    /// The owned rows' distances from the frontier of the rows at or above each (`dist`, the
    /// part's territories in local order, ghosts included; `frontier`, owned, local indices
    /// ascending), in one pass down the rows; returns the top and bottom rows of the block's
    /// own transform, which every rank sends every other ([`Self::join`]). The ghosts read
    /// [`NO_DISTANCE`] until the join.
    pub fn local_distance(&self, n: usize, frontier: &[u32], dist: &mut Vec<u32>) -> Vec<u32> {
        let (cols, first, rows) = (self.cols, self.first(), self.rows());
        dist.clear();
        dist.resize(n, NO_DISTANCE);
        let mut edges = vec![NO_DISTANCE; 2 * cols];
        let (top, bottom) = edges.split_at_mut(cols);
        let owned = Cells::new(&mut dist[first..first + rows * cols]);
        let (top, bottom) = (Cells::new(top), Cells::new(bottom));
        column_blocks(self.cols).for_each(|columns| {
            let (c0, width) = (columns.start, columns.len());
            for r in 0..rows {
                let start = first + r * cols;
                let from = frontier.partition_point(|&x| (x as usize) < start);
                let to = frontier.partition_point(|&x| (x as usize) < start + cols);
                let sources = frontier[from..to].iter().map(|&x| x as usize - start);
                // SAFETY: each task touches its own columns of each row (Cells).
                let row = unsafe { owned.columns(r * cols + c0, width) };
                along_row(row, c0, sources);
                if r > 0 {
                    let above = unsafe { owned.columns((r - 1) * cols + c0, width) };
                    for (here, &up) in row.iter_mut().zip(above.iter()) {
                        *here = (*here).min(up.saturating_add(1));
                    }
                }
                // The top row of the block's transform: the least h(r, c) + r (the row pass
                // of row r is at most what it holds now, and what it holds came down from
                // rows above, which already count here).
                let reach = unsafe { top.columns(c0, width) };
                for (t, &d) in reach.iter_mut().zip(row.iter()) {
                    *t = (*t).min(d.saturating_add(r as u32));
                }
            }
            let last = unsafe { owned.columns((rows - 1) * cols + c0, width) };
            unsafe { bottom.columns(c0, width) }.copy_from_slice(last);
        });
        edges
    }

    /// Completes the distances of the owned rows and of the rows of ghosts from every
    /// rank's edges ([`Self::local_distance`], rank order), in one pass up the rows, then
    /// keeps only the frontier's distances (0) of the teams that do not move to the front
    /// (`moves[team]`).
    pub fn join(&self, edges: &[u32], dist: &mut [u32], team: &[u8], moves: &[bool]) -> Result<()> {
        let cols = self.cols;
        if edges.len() != self.edge_words().1 {
            return Err(Error::InconsistentInput(format!(
                "expected {} distances of the blocks' edge rows, got {}",
                self.edge_words().1,
                edges.len()
            )));
        }
        let top_of = |q: usize| &edges[2 * q * cols..(2 * q + 1) * cols];
        let bottom_of = |q: usize| &edges[(2 * q + 1) * cols..(2 * q + 2) * cols];
        let fold = |carry: &mut [u32], q: usize, row: &[u32]| {
            for (a, &l) in carry.iter_mut().zip(row) {
                *a = l.min(a.saturating_add(self.heights[q]));
            }
        };
        // The transform of the rows above the block, on the row just above it; and below.
        let mut above = vec![NO_DISTANCE; cols];
        for q in 0..self.rank {
            fold(&mut above, q, bottom_of(q));
        }
        let mut below = vec![NO_DISTANCE; cols];
        for q in (self.rank + 1..self.heights.len()).rev() {
            fold(&mut below, q, top_of(q));
        }
        let mut moving = [false; 256];
        moving[..moves.len().min(256)].copy_from_slice(&moves[..moves.len().min(256)]);
        // When every team moves to the front (the usual game) nothing is masked, and the
        // pass up has no lookup per territory.
        let all_move = moves.iter().all(|&m| m);
        let keep = |d: u32, t: u8| {
            if all_move || d == 0 || moving[usize::from(t)] {
                d
            } else {
                NO_DISTANCE
            }
        };
        let (first, rows) = (self.first(), self.rows());
        let (ghost_above, ghost_below) = self.ghost_rows();
        let cells = Cells::new(dist);
        column_blocks(self.cols).for_each(|columns| {
            let (c0, width) = (columns.start, columns.len());
            let (above, below) = (&above[columns.clone()], &below[columns.clone()]);
            // Up the rows, the carry holding the whole transform of the row just left.
            let mut carry = below.to_vec();
            // SAFETY: each task touches its own columns of each row (Cells).
            let ghost_row = |at: usize, far: &[u32], carry: &[u32]| {
                let row = unsafe { cells.columns(at + c0, width) };
                let teams = &team[at + c0..at + c0 + width];
                for (((d, &f), &near), &t) in row.iter_mut().zip(far).zip(carry).zip(teams) {
                    *d = keep(f.min(near.saturating_add(1)), t);
                }
            };
            for r in (0..rows).rev() {
                let at = first + r * cols + c0;
                let row = unsafe { cells.columns(at, width) };
                let teams = &team[at..at + width];
                let down = r as u32 + 1;
                if all_move {
                    for ((d, c), &a) in row.iter_mut().zip(&mut carry).zip(above) {
                        let whole = (*d).min(c.saturating_add(1)).min(a.saturating_add(down));
                        (*c, *d) = (whole, whole);
                    }
                } else {
                    for (((d, c), &a), &t) in row.iter_mut().zip(&mut carry).zip(above).zip(teams) {
                        let whole = (*d).min(c.saturating_add(1)).min(a.saturating_add(down));
                        *c = whole;
                        *d = keep(whole, t);
                    }
                }
                if r + 1 == rows && ghost_below {
                    ghost_row(first + rows * cols, below, &carry);
                }
            }
            if ghost_above {
                ghost_row(0, above, &carry);
            }
        });
        Ok(())
    }
}

/// The distances along one row from its sources (`sources`, columns ascending), for the
/// columns `c0..c0 + row.len()`: to the nearest source on either side, [`NO_DISTANCE`] in a row
/// without one. Each cell is written once, from the two sources around it.
fn along_row(row: &mut [u32], c0: usize, sources: impl Iterator<Item = usize>) {
    let end = c0 + row.len();
    let (mut left, mut c) = (None::<usize>, c0);
    for right in sources.chain(std::iter::once(usize::MAX)) {
        if right < c0 {
            left = Some(right);
            continue;
        }
        let upto = if right == usize::MAX {
            end
        } else {
            (right + 1).min(end)
        };
        let cells = &mut row[c - c0..upto - c0];
        match left {
            Some(l) => {
                for (k, d) in cells.iter_mut().enumerate() {
                    let x = c + k;
                    *d = (x - l).min(right - x).min(NO_DISTANCE as usize) as u32;
                }
            }
            None => {
                for (k, d) in cells.iter_mut().enumerate() {
                    *d = right.saturating_sub(c + k).min(NO_DISTANCE as usize) as u32;
                }
            }
        }
        c = upto;
        if c == end {
            return;
        }
        left = Some(right);
    }
}

/// A block's distances shared by the tasks of the passes, each of which reads and writes
/// its own columns of every row only (so no two hold the same cell at once).
struct Cells {
    start: *mut u32,
    len: usize,
}

// SAFETY: the tasks touch disjoint cells ([`Cells::columns`]).
unsafe impl Sync for Cells {}

impl Cells {
    fn new(values: &mut [u32]) -> Self {
        Self {
            start: values.as_mut_ptr(),
            len: values.len(),
        }
    }

    /// `width` cells from `at`.
    ///
    /// # Safety
    /// No other live slice from this view may overlap them, and the values they view must
    /// outlive the slice.
    #[allow(clippy::mut_from_ref)]
    unsafe fn columns(&self, at: usize, width: usize) -> &mut [u32] {
        assert!(
            at + width <= self.len,
            "cells {at}..{} of {}",
            at + width,
            self.len
        );
        // SAFETY: in bounds (checked), disjoint from other tasks' cells (the caller's promise).
        unsafe { std::slice::from_raw_parts_mut(self.start.add(at), width) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::plane::{frontier_distance, test_mixes, test_shapes};
    use crate::policy::{self, Policy};
    use crate::share::block_share;
    use stratagem_core::rng::Stream;

    /// The block, which the test's cut must give.
    fn some<T>(value: Option<T>) -> Result<T> {
        value.ok_or_else(|| Error::InvalidParameter("not a block of whole rows".into()))
    }

    /// The distances every rank's block finds for its territories, against the whole grid's.
    fn check_blocks(
        rows: i64,
        cols: i64,
        ranks: i64,
        team: &[u8],
        policies: &[Policy],
    ) -> Result<()> {
        let grid = Grid::plane(rows, cols);
        let board = Board::grid(&grid)?;
        let mut frontier = Vec::new();
        policy::frontier(&board, team, |_| true, &mut frontier);
        let mut whole = Vec::new();
        let shape = (rows as usize, cols as usize);
        frontier_distance(&board, shape, team, policies, &frontier, &mut whole);
        let offsets: Vec<i64> = (0..=ranks).map(|q| q * rows / ranks * cols).collect();
        let moves: Vec<bool> = policies.iter().map(|p| p.moves_to_front()).collect();
        let blocks: Vec<RowBlock> = (0..ranks as usize)
            .map(|q| some(RowBlock::of(&grid, &offsets, q)))
            .collect::<Result<_>>()?;
        let shares: Vec<_> = (0..ranks as usize)
            .map(|q| block_share(&grid, &offsets, q))
            .collect::<Result<_>>()?;
        let mut dists = Vec::new();
        let mut edges = Vec::new();
        for (block, share) in blocks.iter().zip(&shares) {
            let n = share.local_ids.len();
            block.check_part(n, u64::from(share.local_ids[0]), &share.owned)?;
            let mine: Vec<u32> = share
                .local_ids
                .iter()
                .enumerate()
                .filter(|&(x, &id)| share.owned[x] && frontier.contains(&id))
                .map(|(x, _)| x as u32)
                .collect();
            let mut dist = Vec::new();
            edges.extend(block.local_distance(n, &mine, &mut dist));
            dists.push(dist);
        }
        for ((block, share), dist) in blocks.iter().zip(&shares).zip(&mut dists) {
            let local_team: Vec<u8> = share.local_ids.iter().map(|&x| team[x as usize]).collect();
            block.join(&edges, dist, &local_team, &moves)?;
            let expected: Vec<u32> = share.local_ids.iter().map(|&x| whole[x as usize]).collect();
            assert_eq!(
                *dist, expected,
                "{rows}x{cols} on {ranks} ranks, {policies:?}"
            );
        }
        Ok(())
    }

    #[test]
    fn the_blocks_find_the_whole_grids_distances() -> Result<()> {
        let stream = Stream::new(39, "conquest.test.row_block", &[])?;
        let mixes = test_mixes();
        let fixed = [(3, 50), (50, 3), (1, 9), (2, 2), (7, 5), (31, 17)];
        let shapes = test_shapes(&stream, &fixed, 12, 60);
        for (k, &(rows, cols)) in shapes.iter().enumerate() {
            let n = (rows * cols) as u64;
            for policies in &mixes {
                let teams = policies.len() as u64;
                let scattered: Vec<u8> = (0..n)
                    .map(|x| (stream.block(x + n * k as u64)[0] % teams) as u8)
                    .collect();
                // Bands across the rows (a team cut by the blocks' edges), and patches.
                let bands: Vec<u8> = (0..n)
                    .map(|x| ((x * teams / n.max(1) + x % 3 / 2) % teams) as u8)
                    .collect();
                let patches: Vec<u8> = (0..n)
                    .map(|x| (((x / cols as u64 / 4) * 7 + (x % cols as u64) / 6) % teams) as u8)
                    .collect();
                for team in [scattered, bands, patches, vec![0; n as usize]] {
                    for ranks in (1..=4).filter(|&q| q <= rows) {
                        check_blocks(rows, cols, ranks, &team, policies)?;
                    }
                }
            }
        }
        Ok(())
    }

    #[test]
    fn only_blocks_of_whole_rows_of_a_plane_grid_qualify() -> Result<()> {
        let plane = Grid::plane(4, 3);
        assert!(RowBlock::of(&plane, &[0, 6, 12], 1).is_some());
        assert!(RowBlock::of(&plane, &[0, 5, 12], 1).is_none());
        assert!(RowBlock::of(&plane, &[0, 0, 12], 1).is_none());
        assert!(RowBlock::of(&plane, &[0, 12], 1).is_none());
        let torus = Grid {
            torus: true,
            ..plane
        };
        assert!(RowBlock::of(&torus, &[0, 6, 12], 0).is_none());
        let block = some(RowBlock::of(&plane, &[0, 6, 12], 1))?;
        assert!(block.check_part(9, 3, &[false; 9]).is_err());
        assert!(block.join(&[0; 5], &mut [0; 9], &[0; 9], &[true]).is_err());
        Ok(())
    }
}
