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
use std::sync::atomic::Ordering;
use stratagem_core::{Error, Result};

use crate::plane::{COLUMNS_PER_TASK, atomic_view};
use crate::policy::NO_DISTANCE;
use crate::share::Grid;
use crate::turn::TERRITORIES_PER_TASK;

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

    /// The owned rows.
    fn rows(&self) -> usize {
        self.heights[self.rank] as usize
    }

    /// Whether a row of ghosts lies above the owned rows, and below them.
    fn ghost_rows(&self) -> (bool, bool) {
        (self.top > 0, self.top + self.rows() < self.grid_rows())
    }

    /// Local index of the first owned territory (past the row of ghosts above).
    fn first(&self) -> usize {
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

    /// The distances of the owned rows within the block (`dist`, the part's territories in
    /// local order, ghosts included): 0 on the `frontier` (owned, local indices), the
    /// Manhattan-distance transform of the block's rows elsewhere; the ghosts read
    /// [`NO_DISTANCE`] until [`Self::join`].
    pub fn local_distance(&self, n: usize, frontier: &[u32], dist: &mut Vec<u32>) {
        let (cols, first) = (self.cols, self.first());
        dist.clear();
        dist.resize(n, NO_DISTANCE);
        let owned = &mut dist[first..first + self.rows() * cols];
        for &x in frontier {
            owned[x as usize - first] = 0;
        }
        let rows_per_task = (TERRITORIES_PER_TASK * 16 / cols).max(1);
        owned
            .par_chunks_mut(cols * rows_per_task)
            .for_each(|chunk| {
                for row in chunk.chunks_mut(cols) {
                    for c in 1..row.len() {
                        row[c] = row[c].min(row[c - 1].saturating_add(1));
                    }
                    for c in (0..row.len().saturating_sub(1)).rev() {
                        row[c] = row[c].min(row[c + 1].saturating_add(1));
                    }
                }
            });
        let rows = self.rows();
        let cells = atomic_view(owned);
        let width = cols.div_ceil(8).next_multiple_of(16).min(COLUMNS_PER_TASK);
        (0..cols.div_ceil(width)).into_par_iter().for_each(|block| {
            let columns = block * width..((block + 1) * width).min(cols);
            let step = |from: usize, to: usize| {
                for c in columns.clone() {
                    let carried = cells[from + c].load(Ordering::Relaxed).saturating_add(1);
                    let here = &cells[to + c];
                    if carried < here.load(Ordering::Relaxed) {
                        here.store(carried, Ordering::Relaxed);
                    }
                }
            };
            for r in 1..rows {
                step((r - 1) * cols, r * cols);
            }
            for r in (1..rows).rev() {
                step(r * cols, (r - 1) * cols);
            }
        });
    }

    /// What this rank sends: the top then the bottom row of its block's distances (after
    /// [`Self::local_distance`]).
    pub fn edges(&self, dist: &[u32]) -> Vec<u32> {
        let (cols, first) = (self.cols, self.first());
        let bottom = first + (self.rows() - 1) * cols;
        let mut out = Vec::with_capacity(2 * cols);
        out.extend_from_slice(&dist[first..first + cols]);
        out.extend_from_slice(&dist[bottom..bottom + cols]);
        out
    }

    /// Completes the distances of the owned rows and of the rows of ghosts from every
    /// rank's [`Self::edges`] (rank order), then keeps only the frontier's distances (0) of
    /// the teams that do not move to the front (`moves[team]`).
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
        let rows = self.rows();
        let height = self.heights[self.rank];
        let keep = |d: u32, t: u8| {
            if d == 0 || moves.get(usize::from(t)).copied().unwrap_or(false) {
                d
            } else {
                NO_DISTANCE
            }
        };
        // The rows of ghosts: the rows beyond them on their side, then the block and what
        // lies past it, one row further.
        let (ghost_above, ghost_below) = self.ghost_rows();
        let first = self.first();
        let mut ghost_row = |at: usize, far: &[u32], near: &[u32], past: &[u32]| {
            for c in 0..cols {
                let through = near[c].min(past[c].saturating_add(height));
                let d = far[c].min(through.saturating_add(1));
                dist[at + c] = keep(d, team[at + c]);
            }
        };
        let (mine_top, mine_bottom) = (top_of(self.rank), bottom_of(self.rank));
        if ghost_above {
            ghost_row(0, &above, mine_top, &below);
        }
        if ghost_below {
            ghost_row(first + rows * cols, &below, mine_bottom, &above);
        }
        let owned = &mut dist[first..first + rows * cols];
        let owned_team = &team[first..first + rows * cols];
        let rows_per_task = (TERRITORIES_PER_TASK * 16 / cols).max(1);
        owned
            .par_chunks_mut(cols * rows_per_task)
            .zip(owned_team.par_chunks(cols * rows_per_task))
            .enumerate()
            .for_each(|(task, (chunk, teams))| {
                let rows_done = task * rows_per_task;
                for (i, (row, row_team)) in
                    chunk.chunks_mut(cols).zip(teams.chunks(cols)).enumerate()
                {
                    let r = (rows_done + i) as u32;
                    let (down, up) = (r + 1, rows as u32 - r);
                    for c in 0..cols {
                        let d = row[c]
                            .min(above[c].saturating_add(down))
                            .min(below[c].saturating_add(up));
                        row[c] = keep(d, row_team[c]);
                    }
                }
            });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::plane::frontier_distance;
    use crate::policy::{self, Policy};
    use crate::share::block_share;
    use stratagem_core::rng::Stream;

    /// The distances every rank's block finds for its territories, against the whole grid's.
    fn check_blocks(rows: i64, cols: i64, ranks: i64, team: &[u8], policies: &[Policy]) {
        let grid = Grid {
            rows,
            cols,
            torus: false,
        };
        let board = Board::grid(&grid).unwrap();
        let mut frontier = Vec::new();
        policy::frontier(&board, team, |_| true, &mut frontier);
        let mut whole = Vec::new();
        let shape = (rows as usize, cols as usize);
        frontier_distance(&board, shape, team, policies, &frontier, &mut whole);
        let offsets: Vec<i64> = (0..=ranks).map(|q| q * rows / ranks * cols).collect();
        let moves: Vec<bool> = policies.iter().map(|p| p.moves_to_front()).collect();
        let blocks: Vec<RowBlock> = (0..ranks as usize)
            .map(|q| RowBlock::of(&grid, &offsets, q).unwrap())
            .collect();
        let shares: Vec<_> = (0..ranks as usize)
            .map(|q| block_share(&grid, &offsets, q).unwrap())
            .collect();
        let mut dists = Vec::new();
        let mut edges = Vec::new();
        for (block, share) in blocks.iter().zip(&shares) {
            let n = share.local_ids.len();
            block
                .check_part(n, u64::from(share.local_ids[0]), &share.owned)
                .unwrap();
            let mine: Vec<u32> = share
                .local_ids
                .iter()
                .enumerate()
                .filter(|&(x, &id)| share.owned[x] && frontier.contains(&id))
                .map(|(x, _)| x as u32)
                .collect();
            let mut dist = Vec::new();
            block.local_distance(n, &mine, &mut dist);
            edges.extend(block.edges(&dist));
            dists.push(dist);
        }
        for ((block, share), dist) in blocks.iter().zip(&shares).zip(&mut dists) {
            let local_team: Vec<u8> = share.local_ids.iter().map(|&x| team[x as usize]).collect();
            block.join(&edges, dist, &local_team, &moves).unwrap();
            let expected: Vec<u32> = share.local_ids.iter().map(|&x| whole[x as usize]).collect();
            assert_eq!(
                *dist, expected,
                "{rows}x{cols} on {ranks} ranks, {policies:?}"
            );
        }
    }

    #[test]
    fn the_blocks_find_the_whole_grids_distances() {
        let stream = Stream::new(39, "conquest.test.row_block", &[]).unwrap();
        let mixes = [
            vec![Policy::Balanced, Policy::Opportunist],
            vec![Policy::Random, Policy::Aggressive, Policy::Custom],
            vec![Policy::Balanced; 4],
        ];
        let mut shapes = vec![(3, 50), (50, 3), (1, 9), (2, 2), (7, 5), (31, 17)];
        for k in 0..12 {
            let words = stream.block(k);
            shapes.push((1 + (words[0] % 60) as i64, 1 + (words[1] % 60) as i64));
        }
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
                        check_blocks(rows, cols, ranks, &team, policies);
                    }
                }
            }
        }
    }

    #[test]
    fn only_blocks_of_whole_rows_of_a_plane_grid_qualify() {
        let plane = Grid {
            rows: 4,
            cols: 3,
            torus: false,
        };
        assert!(RowBlock::of(&plane, &[0, 6, 12], 1).is_some());
        assert!(RowBlock::of(&plane, &[0, 5, 12], 1).is_none());
        assert!(RowBlock::of(&plane, &[0, 0, 12], 1).is_none());
        assert!(RowBlock::of(&plane, &[0, 12], 1).is_none());
        let torus = Grid {
            torus: true,
            ..plane
        };
        assert!(RowBlock::of(&torus, &[0, 6, 12], 0).is_none());
        let block = RowBlock::of(&plane, &[0, 6, 12], 1).unwrap();
        assert!(block.check_part(9, 3, &[false; 9]).is_err());
        assert!(block.join(&[0; 5], &mut [0; 9], &[0; 9], &[true]).is_err());
    }
}
