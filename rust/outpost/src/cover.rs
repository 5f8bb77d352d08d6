//! How many of an empire's diamonds (radius r) hold each cell, and what one step of one
//! outpost gains and loses: the greedy players' inner loop.
//!
//! The counts live on the grid padded by r + 1 cells on every side, so the cells a step adds
//! to or takes from a diamond are fixed offsets from the outpost's index, wherever it stands:
//! no clipping at the border, and a diamond is the same spans of offsets from its centre.
//! Cells of the padding hold [`OFF_GRID`] give or take the diamonds over them, never 0 or 1,
//! so they count as neither gained nor lost.

use crate::grid::{Cell, DIRECTIONS, SIZE, x_of, y_of};

/// The count of a cell outside the grid: far from 0 and 1 whatever an empire's steps add or
/// take (an empire has fewer outposts than the grid has cells).
const OFF_GRID: u16 = 0x8000;

/// Cells added at once when counting: a diamond row is one or more chunks, the cells past
/// its end adding 0.
const CHUNK: usize = 16;

const DX: [isize; DIRECTIONS as usize] = [0, 0, 1, 0, -1];
const DY: [isize; DIRECTIONS as usize] = [0, -1, 0, 1, 0];

pub struct Cover {
    r: u32,
    pad: usize,
    width: usize,
    /// Row-major over the padded grid: 0 on the grid and [`OFF_GRID`] on the padding outside
    /// `dirty`.
    counts: Vec<u16>,
    /// Padded rows and columns that counting and stepping may have changed since the counts
    /// were last all 0 and [`OFF_GRID`]: the box around the diamonds, one cell wider.
    dirty: Option<([usize; 2], [usize; 2])>,
    /// `gained[d]`, `lost[d]`: offsets of the cells a step in direction `d` adds to the
    /// outpost's diamond and takes from it.
    gained: [Vec<isize>; DIRECTIONS as usize],
    lost: [Vec<isize>; DIRECTIONS as usize],
    /// The rows of a diamond as chunks of [`CHUNK`] cells: the offset of a chunk's first cell
    /// from the centre and 1 for each of its cells in the diamond.
    diamond: Vec<(isize, [u16; CHUNK])>,
}

impl Cover {
    pub fn new(r: u32) -> Self {
        // Room for a step's edges (r + 1) and for a diamond row's last chunk (r + 15).
        let pad = r as usize + CHUNK;
        let width = SIZE + 2 * pad;
        let mut cover = Self {
            r,
            pad,
            width,
            counts: vec![OFF_GRID; width * width],
            dirty: Some(([pad, pad + SIZE - 1], [pad, pad + SIZE - 1])),
            gained: Default::default(),
            lost: Default::default(),
            diamond: Vec::new(),
        };
        let r = r as isize;
        let at = |dx: isize, dy: isize| dy * width as isize + dx;
        for d in 1..DIRECTIONS as usize {
            let (dx, dy) = (DX[d], DY[d]);
            for offset in -r..=r {
                let reach = r - offset.abs();
                // Along the step's axis the new edge lies `reach` beyond the new centre, the
                // old edge `reach` behind the old centre.
                let (gained, lost) = if dx != 0 {
                    (at(dx + dx * reach, offset), at(-dx * reach, offset))
                } else {
                    (at(offset, dy + dy * reach), at(offset, -dy * reach))
                };
                cover.gained[d].push(gained);
                cover.lost[d].push(lost);
            }
        }
        for dy in -r..=r {
            let half = r - dy.abs();
            for first in (-half..=half).step_by(CHUNK) {
                let mut ones = [0u16; CHUNK];
                for (dx, one) in (first..).zip(ones.iter_mut()) {
                    *one = u16::from(dx <= half);
                }
                cover.diamond.push((at(first, dy), ones));
            }
        }
        cover.clean();
        cover
    }

    pub fn radius(&self) -> u32 {
        self.r
    }

    #[inline]
    fn index(&self, cell: Cell) -> usize {
        (y_of(cell) as usize + self.pad) * self.width + x_of(cell) as usize + self.pad
    }

    /// Puts the dirty box back to 0 on the grid and [`OFF_GRID`] on the padding.
    fn clean(&mut self) {
        let Some(([top, bottom], [left, right])) = self.dirty.take() else {
            return;
        };
        let grid = self.pad..self.pad + SIZE;
        for y in top..=bottom {
            let base = y * self.width;
            if let Some(cells) = self.counts.get_mut(base + left..=base + right) {
                cells.fill(OFF_GRID);
                if grid.contains(&y) {
                    let (from, to) = (left.max(grid.start), right.min(grid.end - 1));
                    if let Some(inside) = cells.get_mut(from - left..=to - left) {
                        inside.fill(0);
                    }
                }
            }
        }
    }

    /// Counts the diamonds around `centres` (the previous counts are dropped). A diamond's
    /// rows are fixed spans of offsets from its centre, on the grid or on the padding.
    pub fn count(&mut self, centres: impl Iterator<Item = Cell>) {
        self.clean();
        let mut centre_box = [SIZE, 0, SIZE, 0];
        for centre in centres {
            let (cx, cy) = (x_of(centre) as usize, y_of(centre) as usize);
            centre_box = [
                centre_box[0].min(cy),
                centre_box[1].max(cy),
                centre_box[2].min(cx),
                centre_box[3].max(cx),
            ];
            let base = self.index(centre) as isize;
            for (offset, ones) in &self.diamond {
                let first = (base + offset) as usize;
                let chunk = self.counts.get_mut(first..first + CHUNK);
                if let Some(chunk) = chunk.and_then(|c| <&mut [u16; CHUNK]>::try_from(c).ok()) {
                    *chunk = std::array::from_fn(|i| chunk[i].wrapping_add(ones[i]));
                }
            }
        }
        let [north, south, west, east] = centre_box;
        if north <= south {
            // Steps reach r + 1 cells from the centres, the last chunk of a row r + 15 east.
            let (pad, r) = (self.pad, self.r as usize);
            self.dirty = Some((
                [north + pad - r - 1, south + pad + r + 1],
                [west + pad - r - 1, east + pad + r + CHUNK],
            ));
        }
    }

    /// How many diamonds hold `cell` (a cell of the grid).
    #[inline]
    pub fn get(&self, cell: Cell) -> u16 {
        self.counts
            .get(self.index(cell))
            .copied()
            .unwrap_or(OFF_GRID)
    }

    /// Cells nobody else covers that a step from `from` in `direction` (1..4) adds, minus the
    /// cells only this diamond covered that it gives up.
    #[inline]
    pub fn net(&self, from: Cell, direction: u8) -> i64 {
        let d = usize::from(direction);
        let (Some(gained), Some(lost)) = (self.gained.get(d), self.lost.get(d)) else {
            return 0;
        };
        let base = self.index(from) as isize;
        let count = |offset: &isize| {
            self.counts
                .get((base + offset) as usize)
                .copied()
                .unwrap_or(OFF_GRID)
        };
        let won = gained.iter().filter(|o| count(o) == 0).count();
        let given_up = lost.iter().filter(|o| count(o) == 1).count();
        won as i64 - given_up as i64
    }

    /// Moves one diamond from `from` one step in `direction` (1..4).
    #[inline]
    pub fn step(&mut self, from: Cell, direction: u8) {
        let d = usize::from(direction);
        let base = self.index(from) as isize;
        let Self {
            counts,
            gained,
            lost,
            ..
        } = self;
        for (offsets, change) in [(&gained[d], 1u16), (&lost[d], u16::MAX)] {
            for offset in offsets {
                if let Some(count) = counts.get_mut((base + offset) as usize) {
                    *count = count.wrapping_add(change);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{CELLS, for_diamond, step};

    /// Counts the diamonds by visiting every cell of each.
    fn recount(centres: &[Cell], r: u32) -> Vec<u16> {
        let mut counts = vec![0u16; CELLS];
        for &centre in centres {
            for_diamond(centre, r, |c| counts[usize::from(c)] += 1);
        }
        counts
    }

    #[test]
    fn steps_gain_and_lose_what_a_recount_says() {
        let mut state = 99u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        for r in [0u32, 1, 3, 7, 12, 60] {
            let mut cover = Cover::new(r);
            for case in 0..40 {
                // Near the border half of the time: there the diamonds are clipped.
                let spread = if case % 2 == 0 { 100 } else { 6 };
                let mut centres: Vec<Cell> = (0..1 + case % 9)
                    .map(|_| ((next() % spread) * 100 + next() % 100) as Cell)
                    .collect();
                cover.count(centres.iter().copied());
                let counts = recount(&centres, r);
                // Every cell, the padding too: earlier steps leave nothing behind.
                for (i, &count) in cover.counts.iter().enumerate() {
                    let (y, x) = (i / cover.width, i % cover.width);
                    let on_grid = |v: usize| (cover.pad..cover.pad + SIZE).contains(&v);
                    if on_grid(x) && on_grid(y) {
                        let want = counts[(y - cover.pad) * SIZE + x - cover.pad];
                        assert_eq!(count, want, "r {r} case {case} ({x}, {y}) padded");
                    } else {
                        // The padding's counts never come near 0 or 1.
                        let drift = count.abs_diff(OFF_GRID);
                        assert!(drift < 64, "r {r} case {case} padded ({x}, {y}): {count}");
                    }
                }
                let mover = (next() % centres.len() as u64) as usize;
                let from = centres[mover];
                for direction in 1..DIRECTIONS {
                    let Some(to) = step(from, direction) else {
                        continue;
                    };
                    let mut moved = centres.clone();
                    moved[mover] = to;
                    let after = recount(&moved, r);
                    let want: i64 = (0..CELLS)
                        .map(|c| match (counts[c], after[c]) {
                            (0, a) if a > 0 => 1,
                            (1, 0) => -1,
                            _ => 0,
                        })
                        .sum();
                    assert_eq!(cover.net(from, direction), want, "r {r} case {case}");
                }
                let direction = (1..DIRECTIONS)
                    .find(|&d| step(from, d).is_some())
                    .unwrap_or(1);
                if let Some(to) = step(from, direction) {
                    cover.step(from, direction);
                    centres[mover] = to;
                    let counts = recount(&centres, r);
                    for cell in 0..CELLS as Cell {
                        assert_eq!(cover.get(cell), counts[usize::from(cell)], "r {r}");
                    }
                }
            }
        }
    }
}
