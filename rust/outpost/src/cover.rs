//! How many of an empire's diamonds (radius r) hold each cell, and what one step of one
//! outpost gains and loses: the greedy players' inner loop.
//!
//! The counts are kept twice, along the two diagonals: `by_sum` has a row per `x + y` and
//! `by_difference` a row per `x - y`, each indexed by `x` along the row. In those layouts a
//! diamond is a parallelogram of rows of at most r + 1 cells, and the cells a step adds to or
//! takes from a diamond (its edges: two half-diagonals of r + 1 cells) are two runs of
//! consecutive cells, one in each layout: a step's gain or loss is a few vector comparisons
//! of [`LANES`] counts at a time instead of 2r + 1 scattered reads.
//!
//! Both layouts are padded so that every run and diamond row is a fixed offset from the
//! outpost's index, wherever it stands: no clipping at the border. Cells off the grid hold
//! [`OFF_GRID`] give or take the diamonds over them, never 0 or 1, so they count as neither
//! gained nor lost.

use crate::grid::{Cell, DIRECTIONS, SIZE, x_of, y_of};

/// The count of a cell outside the grid: far from 0 and 1 whatever an empire's steps add or
/// take (an empire has fewer outposts than the grid has cells).
const OFF_GRID: u16 = 0x8000;

/// Counts handled at once: a 128-bit vector of `u16`.
const LANES: usize = 8;

const DX: [isize; DIRECTIONS as usize] = [0, 0, 1, 0, -1];
const DY: [isize; DIRECTIONS as usize] = [0, -1, 0, 1, 0];

/// Up to [`LANES`] consecutive cells of one layout: the offset of the first from the centre's
/// index, and for each lane whether its cell belongs (`ones`, 1 or 0) as 2 bits of a
/// byte-compare mask (`bits`).
#[derive(Clone, Copy)]
struct Chunk {
    offset: isize,
    ones: [u16; LANES],
    bits: u32,
}

/// A chunk of the cells a step gains or loses, in one of the layouts.
#[derive(Clone, Copy)]
struct Probe {
    chunk: Chunk,
    /// In `by_sum` (else in `by_difference`).
    by_sum: bool,
    /// Cells the step loses (counted when 1), else cells it gains (counted when 0).
    lost: bool,
}

/// Cells as chunks of the two layouts.
#[derive(Clone, Default)]
struct Runs {
    by_sum: Vec<Chunk>,
    by_difference: Vec<Chunk>,
}

/// `cells` (sorted by `dx` within each row) as chunks of consecutive cells of a row.
fn chunks(mut cells: Vec<(isize, isize)>, width: isize) -> Vec<Chunk> {
    cells.sort_unstable();
    cells.dedup();
    let mut out: Vec<Chunk> = Vec::new();
    let mut i = 0;
    while let Some(&(row, first)) = cells.get(i) {
        let mut chunk = Chunk {
            offset: row * width + first,
            ones: [0; LANES],
            bits: 0,
        };
        let mut lane = 0;
        while lane < LANES && cells.get(i) == Some(&(row, first + lane as isize)) {
            chunk.ones[lane] = 1;
            chunk.bits |= 0b11 << (2 * lane);
            lane += 1;
            i += 1;
        }
        out.push(chunk);
    }
    out
}

/// The cells `(dx, dy)` relative to a centre split between the layouts: the largest group of
/// one `dx + dy` in `by_sum`, the others by `dx - dy` in `by_difference`. A step's edge is one
/// run in each.
fn runs(cells: &[(isize, isize)], width: isize) -> Runs {
    let mut sums: Vec<isize> = cells.iter().map(|&(dx, dy)| dx + dy).collect();
    sums.sort_unstable();
    let mut best = (0usize, 0isize);
    for &sum in &sums {
        let count = sums.iter().filter(|&&s| s == sum).count();
        if count > best.0 {
            best = (count, sum);
        }
    }
    let (in_sum, rest): (Vec<_>, Vec<_>) = cells.iter().partition(|&&(dx, dy)| dx + dy == best.1);
    Runs {
        by_sum: chunks(
            in_sum.iter().map(|&(dx, dy)| (dx + dy, dx)).collect(),
            width,
        ),
        by_difference: chunks(rest.iter().map(|&(dx, dy)| (dx - dy, dx)).collect(), width),
    }
}

pub struct Cover {
    r: u32,
    /// Rows of padding before the first diagonal and columns before `x = 0`.
    row_pad: usize,
    col_pad: usize,
    width: usize,
    /// `by_sum[(x + y + row_pad) * width + x + col_pad]`: 0 on the grid and [`OFF_GRID`] off
    /// it, outside the dirty rows.
    by_sum: Vec<u16>,
    /// `by_difference[(x - y + SIZE - 1 + row_pad) * width + x + col_pad]`, the same.
    by_difference: Vec<u16>,
    /// The diamonds counted, `(id, centre)` in increasing id, moved by the steps since: the
    /// next count starts from them.
    centres: Vec<(u32, Cell)>,
    /// The buffer of the next count's centres.
    spare: Vec<(u32, Cell)>,
    /// `probes[d]`: the cells a step in direction `d` adds to the outpost's diamond (counted
    /// when 0) and takes from it (counted when 1), as chunks of the layouts.
    probes: [Vec<Probe>; DIRECTIONS as usize],
    /// The same cells as offsets in both layouts.
    gained_cells: [Vec<(isize, isize)>; DIRECTIONS as usize],
    lost_cells: [Vec<(isize, isize)>; DIRECTIONS as usize],
    /// The diamond, as chunks of each layout.
    diamond: Runs,
}

impl Cover {
    pub fn new(r: u32) -> Self {
        let ri = r as isize;
        // Runs and diamond rows reach r + 1 cells from the centre along a row, a chunk's
        // last lane LANES - 1 beyond; diagonals r + 1 rows.
        let row_pad = r as usize + 1;
        let col_pad = r as usize + 1;
        let width = SIZE + 2 * col_pad + LANES;
        let rows = 2 * SIZE - 1 + 2 * row_pad;
        let w = width as isize;
        let mut gained_list: [Vec<(isize, isize)>; DIRECTIONS as usize] = Default::default();
        let mut lost_list: [Vec<(isize, isize)>; DIRECTIONS as usize] = Default::default();
        for d in 1..DIRECTIONS as usize {
            let (dx, dy) = (DX[d], DY[d]);
            for offset in -ri..=ri {
                let reach = ri - offset.abs();
                // Along the step's axis the new edge lies `reach` beyond the new centre, the
                // old edge `reach` behind the old centre.
                let (gained, lost) = if dx != 0 {
                    ((dx + dx * reach, offset), (-dx * reach, offset))
                } else {
                    ((offset, dy + dy * reach), (offset, -dy * reach))
                };
                gained_list[d].push(gained);
                lost_list[d].push(lost);
            }
        }
        let both = |cells: &Vec<(isize, isize)>| -> Vec<(isize, isize)> {
            cells
                .iter()
                .map(|&(dx, dy)| ((dx + dy) * w + dx, (dx - dy) * w + dx))
                .collect()
        };
        let mut diamond_sum = Vec::new();
        let mut diamond_difference = Vec::new();
        for dy in -ri..=ri {
            let half = ri - dy.abs();
            for dx in -half..=half {
                diamond_sum.push((dx + dy, dx));
                diamond_difference.push((dx - dy, dx));
            }
        }
        let mut cover = Self {
            r,
            row_pad,
            col_pad,
            width,
            by_sum: vec![OFF_GRID; width * rows],
            by_difference: vec![OFF_GRID; width * rows],
            centres: Vec::new(),
            spare: Vec::new(),
            probes: std::array::from_fn(|d| {
                let (gained, lost) = (runs(&gained_list[d], w), runs(&lost_list[d], w));
                let mut probes = Vec::new();
                for (runs, lost) in [(gained, false), (lost, true)] {
                    for (chunks, by_sum) in [(runs.by_sum, true), (runs.by_difference, false)] {
                        probes.extend(chunks.into_iter().map(|chunk| Probe {
                            chunk,
                            by_sum,
                            lost,
                        }));
                    }
                }
                probes
            }),
            gained_cells: std::array::from_fn(|d| both(&gained_list[d])),
            lost_cells: std::array::from_fn(|d| both(&lost_list[d])),
            diamond: Runs {
                by_sum: chunks(diamond_sum, w),
                by_difference: chunks(diamond_difference, w),
            },
        };
        cover.clear();
        cover
    }

    pub fn radius(&self) -> u32 {
        self.r
    }

    /// The index of `cell` in `by_sum` and in `by_difference`.
    #[inline]
    fn indices(&self, cell: Cell) -> (usize, usize) {
        self.indices_at(x_of(cell) as usize, y_of(cell) as usize)
    }

    /// Puts every count to 0 on the grid and [`OFF_GRID`] off it.
    fn clear(&mut self) {
        let last = SIZE as isize - 1;
        let (width, row_pad, col_pad) = (self.width, self.row_pad as isize, self.col_pad);
        for (counts, is_sum) in [(&mut self.by_sum, true), (&mut self.by_difference, false)] {
            counts.fill(OFF_GRID);
            for (row, cells) in counts.chunks_exact_mut(width).enumerate() {
                // The columns x of the row's cells on the grid: y = s - x or y = x - t.
                let diagonal = row as isize - row_pad;
                let (from, to) = if is_sum {
                    ((diagonal - last).max(0), diagonal.min(last))
                } else {
                    let t = diagonal - last;
                    (t.max(0), (last + t).min(last))
                };
                if from <= to
                    && let Some(inside) =
                        cells.get_mut(from as usize + col_pad..=to as usize + col_pad)
                {
                    inside.fill(0);
                }
            }
        }
    }

    /// The indices of the cell `(x, y)` in `by_sum` and `by_difference`.
    #[inline]
    fn indices_at(&self, x: usize, y: usize) -> (usize, usize) {
        let column = x + self.col_pad;
        (
            (x + y + self.row_pad) * self.width + column,
            (x + SIZE - 1 - y + self.row_pad) * self.width + column,
        )
    }

    /// Counts the diamonds around `centres`, `(id, cell)` pairs of outposts (the previous
    /// counts are dropped). Steps then name a diamond by its place in `centres`.
    ///
    /// The counts start from those of the last count, moved by the steps since: the diamonds
    /// of the ids that went or moved are taken away and those of the ids that came or moved
    /// are added, which gives the counts of a count from nothing, for a fraction of its cost
    /// when the outposts are mostly where the last count and steps left them (a player's next
    /// turn). Without increasing ids every diamond is taken away and added again.
    pub fn count(&mut self, centres: impl Iterator<Item = (u32, Cell)>) {
        let old = std::mem::take(&mut self.centres);
        let mut new = std::mem::take(&mut self.spare);
        new.clear();
        new.extend(centres);
        let increasing = |list: &[(u32, Cell)]| list.windows(2).all(|w| w[0].0 < w[1].0);
        if increasing(&old) && increasing(&new) {
            let (mut i, mut j) = (0, 0);
            loop {
                match (old.get(i), new.get(j)) {
                    (Some(&(was, from)), Some(&(id, to))) if was == id => {
                        if from != to {
                            self.add_diamond(from, false);
                            self.add_diamond(to, true);
                        }
                        i += 1;
                        j += 1;
                    }
                    (Some(&(was, from)), next) if next.is_none_or(|&(id, _)| was < id) => {
                        self.add_diamond(from, false);
                        i += 1;
                    }
                    (_, Some(&(_, to))) => {
                        self.add_diamond(to, true);
                        j += 1;
                    }
                    _ => break,
                }
            }
        } else {
            for &(_, from) in &old {
                self.add_diamond(from, false);
            }
            for &(_, to) in &new {
                self.add_diamond(to, true);
            }
        }
        self.centres = new;
        self.spare = old;
    }

    /// Adds the diamond around `centre` to the counts, or takes it away.
    #[inline]
    fn add_diamond(&mut self, centre: Cell, add: bool) {
        let (sum, difference) = self.indices_at(x_of(centre) as usize, y_of(centre) as usize);
        add_chunks(&mut self.by_sum, sum, &self.diamond.by_sum, add);
        add_chunks(
            &mut self.by_difference,
            difference,
            &self.diamond.by_difference,
            add,
        );
    }

    /// How many diamonds hold `cell` (a cell of the grid).
    #[inline]
    pub fn get(&self, cell: Cell) -> u16 {
        let (sum, _) = self.indices(cell);
        self.by_sum.get(sum).copied().unwrap_or(OFF_GRID)
    }

    /// For each direction `d` of `directions` (bit `d` set, 1..4): the cells nobody else
    /// covers that a step from `from` in direction `d` adds, minus the cells only this diamond
    /// covered that it gives up; 0 for the other directions.
    #[inline]
    pub fn nets(&self, from: Cell, directions: u8) -> [i64; DIRECTIONS as usize] {
        let (sum, difference) = self.indices(from);
        let mut nets = [0i64; DIRECTIONS as usize];
        for (d, (net, probes)) in nets.iter_mut().zip(&self.probes).enumerate() {
            if directions >> d & 1 == 0 {
                continue;
            }
            for probe in probes {
                let (counts, base) = if probe.by_sum {
                    (&self.by_sum, sum)
                } else {
                    (&self.by_difference, difference)
                };
                let found = i64::from(matching(counts, base, &probe.chunk, u16::from(probe.lost)));
                *net += if probe.lost { -found } else { found };
            }
        }
        nets
    }

    /// Moves diamond number `index` (its place in the centres counted) one step in
    /// `direction` (1..4) onto `to`.
    #[inline]
    pub fn step(&mut self, index: usize, direction: u8, to: Cell) {
        let Some((_, centre)) = self.centres.get_mut(index) else {
            return;
        };
        let from = std::mem::replace(centre, to);
        let d = usize::from(direction);
        let (sum, difference) = self.indices(from);
        let (sum, difference) = (sum as isize, difference as isize);
        let Self {
            by_sum,
            by_difference,
            gained_cells,
            lost_cells,
            ..
        } = self;
        for (offsets, change) in [(&gained_cells[d], 1u16), (&lost_cells[d], u16::MAX)] {
            for &(in_sum, in_difference) in offsets {
                if let Some(count) = by_sum.get_mut((sum + in_sum) as usize) {
                    *count = count.wrapping_add(change);
                }
                if let Some(count) = by_difference.get_mut((difference + in_difference) as usize) {
                    *count = count.wrapping_add(change);
                }
            }
        }
    }
}

/// Adds 1 to the cells of `chunks` around `base`, or takes 1 away.
#[inline]
fn add_chunks(counts: &mut [u16], base: usize, chunks: &[Chunk], add: bool) {
    for chunk in chunks {
        let first = (base as isize + chunk.offset) as usize;
        let cells = counts.get_mut(first..first + LANES);
        if let Some(cells) = cells.and_then(|c| <&mut [u16; LANES]>::try_from(c).ok()) {
            *cells = if add {
                std::array::from_fn(|i| cells[i].wrapping_add(chunk.ones[i]))
            } else {
                std::array::from_fn(|i| cells[i].wrapping_sub(chunk.ones[i]))
            };
        }
    }
}

/// How many cells of `chunk` around `base` hold `value`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn matching(counts: &[u16], base: usize, chunk: &Chunk, value: u16) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi16, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi16,
    };
    let first = (base as isize + chunk.offset) as usize;
    let Some(cells) = counts.get(first..first + LANES) else {
        return 0;
    };
    // SAFETY: SSE2 is part of every x86_64 processor; `cells` is LANES = 8 counts (16 bytes)
    // and the load has no alignment requirement.
    let hits = unsafe {
        let cells = _mm_loadu_si128(cells.as_ptr().cast::<__m128i>());
        _mm_movemask_epi8(_mm_cmpeq_epi16(cells, _mm_set1_epi16(value as i16)))
    };
    // Two mask bits per count.
    (hits as u32 & chunk.bits).count_ones() / 2
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn matching(counts: &[u16], base: usize, chunk: &Chunk, value: u16) -> u32 {
    let first = (base as isize + chunk.offset) as usize;
    counts.get(first..first + LANES).map_or(0, |cells| {
        cells
            .iter()
            .zip(chunk.ones)
            .filter(|&(&count, one)| one == 1 && count == value)
            .count() as u32
    })
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

    /// Every slot of both layouts: the cells of the grid hold `counts`, the padding stays near
    /// [`OFF_GRID`].
    fn check_layouts(cover: &Cover, counts: &[u16], what: &str) {
        let mut on_grid = [
            vec![false; cover.by_sum.len()],
            vec![false; cover.by_sum.len()],
        ];
        for cell in 0..CELLS as Cell {
            let (sum, difference) = cover.indices(cell);
            let want = counts[usize::from(cell)];
            assert_eq!(cover.by_sum[sum], want, "{what}: cell {cell} by sum");
            assert_eq!(
                cover.by_difference[difference], want,
                "{what}: cell {cell} by difference"
            );
            on_grid[0][sum] = true;
            on_grid[1][difference] = true;
        }
        for (layout, (counts, inside)) in [&cover.by_sum, &cover.by_difference]
            .into_iter()
            .zip(&on_grid)
            .enumerate()
        {
            for (i, (&count, &inside)) in counts.iter().zip(inside).enumerate() {
                // The padding's counts never come near 0 or 1.
                let drift = count.abs_diff(OFF_GRID);
                assert!(
                    inside || drift < 64,
                    "{what}: layout {layout} slot {i}: {count}"
                );
            }
        }
    }

    #[test]
    fn steps_gain_and_lose_what_a_recount_says() {
        let mut state = 99u64;
        let mut next = move || crate::lcg(&mut state) >> 33;
        for r in [0u32, 1, 3, 7, 8, 12, 60] {
            let mut cover = Cover::new(r);
            for case in 0..40 {
                // Near the border half of the time: there the diamonds are clipped.
                let spread = if case % 2 == 0 { 100 } else { 6 };
                let mut centres: Vec<Cell> = (0..1 + case % 9)
                    .map(|_| ((next() % spread) * 100 + next() % 100) as Cell)
                    .collect();
                // Ids from 0 most of the time (diamonds carried over from the last case),
                // sometimes decreasing (every diamond recounted).
                let ids: Vec<u32> = if case % 5 == 4 {
                    (0..centres.len() as u32).rev().collect()
                } else {
                    (0..centres.len() as u32)
                        .map(|i| i * (1 + case % 3))
                        .collect()
                };
                cover.count(ids.into_iter().zip(centres.iter().copied()));
                let counts = recount(&centres, r);
                // Every slot: earlier steps leave nothing behind.
                check_layouts(&cover, &counts, &format!("r {r} case {case}"));
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
                    let nets = cover.nets(from, 1 << direction);
                    assert_eq!(nets[usize::from(direction)], want, "r {r} case {case}");
                    let others: i64 = nets.iter().sum::<i64>() - want;
                    assert_eq!(others, 0, "r {r} case {case}: directions not asked");
                }
                let direction = (1..DIRECTIONS)
                    .find(|&d| step(from, d).is_some())
                    .unwrap_or(1);
                if let Some(to) = step(from, direction) {
                    cover.step(mover, direction, to);
                    centres[mover] = to;
                    let counts = recount(&centres, r);
                    check_layouts(&cover, &counts, &format!("r {r} case {case} stepped"));
                    for cell in 0..CELLS as Cell {
                        assert_eq!(cover.get(cell), counts[usize::from(cell)], "r {r}");
                    }
                }
            }
        }
    }
}
