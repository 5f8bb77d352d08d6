//! The control map: who holds each cell (`docs/outpost-rules.md`, "Control").
//!
//! A separable distance transform: the Manhattan distance is `|dx| + |dy|`, so the distance to
//! the nearest outpost is a pass down and up every column (nearest outpost in the column),
//! then a pass right and left along every row over those values. Each pass carries, with the
//! distance, the set of empires at that distance (a 4-bit mask; equal distances unite their
//! sets), which gives exactly the set of empires whose outposts are nearest. Every pass runs
//! over whole rows at once, which the compiler turns into vector code; the row passes work
//! on a transposed copy for the same reason. O(cells) per map, whatever the number of
//! outposts, never O(cells x outposts).

use crate::grid::{Cell, SIZE};
use crate::params::Outpost;
use crate::rows;
use crate::terrain::Terrain;

pub const NEUTRAL: i8 = -1;
pub const DISPUTED: i8 = -2;

/// The control value of a cell of the transform: arithmetic only (no table) in the cell's
/// own type, so the final pass over the grid runs as vector code, 16 cells at a time for `u8`.
macro_rules! owner {
    ($value:expr, $radius:expr) => {{
        let (value, radius) = ($value, $radius);
        let empires = value & 0xF;
        // For a single empire bit, its index: bit 1 -> 1, bit 2 -> 2, bit 3 -> 3.
        let index = ((empires >> 1) & 1) + 2 * ((empires >> 2) & 1) + 3 * (empires >> 3);
        let alone = if empires & (empires.wrapping_sub(1)) == 0 {
            index as i8
        } else {
            DISPUTED
        };
        if value >> 4 > radius || empires == 0 {
            NEUTRAL
        } else {
            alone
        }
    }};
}

/// A cell of the transform: `distance << 4 | empires at that distance` (a 4-bit set), so one
/// comparison of the high bits orders distances and the low bits unite on ties. `u8` holds
/// distances up to 15, enough for every radius up to 14 (farther cells are neutral whatever
/// their distance): twice the cells per vector operation of `u16`, which the larger radii use.
trait Packed:
    Copy
    + Ord
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    /// Farther than any distance the transform tells apart, with no empire.
    const FAR: Self;
    const EMPIRE_BITS: Self;
    /// One step farther: a distance that reaches the type's largest stays there.
    fn step(self) -> Self;
    fn from_empire(empire: u8) -> Self;
    /// The cell's control for a radius the type serves.
    fn owner(self, radius: u16) -> i8;

    fn transpose(from: &Grid<Self>, to: &mut Grid<Self>) {
        for (y, row) in from.iter().enumerate() {
            for (x, &value) in row.iter().enumerate() {
                to[x][y] = value;
            }
        }
    }
}

impl Packed for u8 {
    const FAR: Self = 15 << 4;
    const EMPIRE_BITS: Self = 0xF;
    #[inline]
    fn step(self) -> Self {
        self.saturating_add(1 << 4)
    }
    #[inline]
    fn from_empire(empire: u8) -> Self {
        1 << empire
    }
    #[inline]
    fn owner(self, radius: u16) -> i8 {
        owner!(self, radius.min(u16::from(u8::MAX)) as u8)
    }

    #[cfg(target_arch = "x86_64")]
    fn transpose(from: &Grid<u8>, to: &mut Grid<u8>) {
        // Blocks of 16 x 16 cells; the last block of a row or column overlaps the one before
        // it (100 = 6 x 16 + 4), which writes the same values twice.
        const STARTS: [usize; 7] = [0, 16, 32, 48, 64, 80, SIZE - 16];
        for &y in &STARTS {
            for &x in &STARTS {
                transpose_block(from, to, y, x);
            }
        }
    }
}

/// Transposes the 16 x 16 block of `from` at row `y`, column `x` into `to` at row `x`, column
/// `y`. Interleaving the bytes of rows `i` and `i + 8` into rows `2i` and `2i + 1` rotates
/// each cell's 8-bit address (4 bits of row, 4 of column) by one bit; four rounds swap the
/// row and column halves.
#[cfg(target_arch = "x86_64")]
#[inline]
fn transpose_block(from: &Grid<u8>, to: &mut Grid<u8>, y: usize, x: usize) {
    use std::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm_storeu_si128, _mm_unpackhi_epi8, _mm_unpacklo_epi8,
    };
    let (Some(source), Some(target)) = (from.get(y..y + 16), to.get_mut(x..x + 16)) else {
        return;
    };
    let mut rows = [[0u8; 16]; 16];
    for (block_row, row) in rows.iter_mut().zip(source) {
        if let Some(cells) = row.get(x..x + 16) {
            block_row.copy_from_slice(cells);
        }
    }
    // SAFETY: SSE2 is part of every x86_64 processor; every load and store is of a 16-byte
    // array, with no alignment requirement.
    unsafe {
        let mut a: [__m128i; 16] = rows.map(|row| _mm_loadu_si128(row.as_ptr().cast()));
        for _ in 0..4 {
            let mut b = a;
            for i in 0..8 {
                b[2 * i] = _mm_unpacklo_epi8(a[i], a[i + 8]);
                b[2 * i + 1] = _mm_unpackhi_epi8(a[i], a[i + 8]);
            }
            a = b;
        }
        for (block_row, value) in rows.iter_mut().zip(a) {
            _mm_storeu_si128(block_row.as_mut_ptr().cast(), value);
        }
    }
    for (row, block_row) in target.iter_mut().zip(&rows) {
        if let Some(cells) = row.get_mut(y..y + 16) {
            cells.copy_from_slice(block_row);
        }
    }
}

impl Packed for u16 {
    /// Farther than any two cells of the grid (198).
    const FAR: Self = 255 << 4;
    const EMPIRE_BITS: Self = 0xF;
    #[inline]
    fn step(self) -> Self {
        self + (1 << 4)
    }
    #[inline]
    fn from_empire(empire: u8) -> Self {
        1 << empire
    }
    #[inline]
    fn owner(self, radius: u16) -> i8 {
        owner!(self, radius)
    }
}

/// The largest radius the `u8` transform serves.
const BYTE_RADIUS: u32 = 14;

type Grid<T> = [[T; SIZE]; SIZE];

/// The grid of a transform and its transpose.
struct Buffers<T> {
    grid: Box<Grid<T>>,
    transposed: Box<Grid<T>>,
}

impl<T: Packed> Default for Buffers<T> {
    fn default() -> Self {
        Self {
            grid: Box::new([[T::FAR; SIZE]; SIZE]),
            transposed: Box::new([[T::FAR; SIZE]; SIZE]),
        }
    }
}

/// Reusable buffers of the transform and of the painter.
#[derive(Default)]
pub struct ControlWork {
    bytes: Buffers<u8>,
    words: Buffers<u16>,
    painter: Option<Painter>,
    pairs: Vec<(Cell, u8)>,
}

/// Cells of a painted diamond row handled at once (a 128-bit vector of `u8`).
const PAINT_LANES: usize = 16;

/// The most diamond chunks [`Painter`] paints: past that the transform, whose cost does not
/// grow with the outposts (about ten times a chunk's cost per grid row and column), is
/// cheaper.
const PAINT_CHUNKS: usize = 2400;

/// The control map from the diamonds themselves, for the radii of the `u8` transform: each
/// outpost's diamond is merged into a padded grid of transform cells (`distance << 4 |
/// empires`), [`PAINT_LANES`] cells per operation, keeping at each cell the smaller distance
/// and uniting the empires of equal ones. The result is the transform's exactly; it costs
/// O(outposts x r^2 / 16) instead of O(cells), less for the few hundred outposts of a game at
/// small radii.
struct Painter {
    r: usize,
    /// Padded width: r cells left, r + [`PAINT_LANES`] right.
    width: usize,
    cells: Vec<u8>,
    /// For each empire, the diamond's rows as chunks: the offset of the chunk's first cell
    /// from the centre's index and its cells' values ([`u8::FAR`] outside the diamond).
    chunks: [Vec<(isize, [u8; PAINT_LANES])>; 4],
}

impl Painter {
    fn new(r: usize) -> Self {
        let width = SIZE + 2 * r + PAINT_LANES;
        let ri = r as isize;
        let chunks = std::array::from_fn(|empire| {
            let mut chunks = Vec::new();
            for dy in -ri..=ri {
                for first in (-ri..=ri).step_by(PAINT_LANES) {
                    let values = std::array::from_fn(|lane| {
                        let dx = first + lane as isize;
                        let distance = dx.abs() + dy.abs();
                        if distance <= ri {
                            ((distance as u8) << 4) | u8::from_empire(empire as u8)
                        } else {
                            u8::FAR
                        }
                    });
                    chunks.push((dy * width as isize + first, values));
                }
            }
            chunks
        });
        Self {
            r,
            width,
            cells: vec![u8::FAR; width * (SIZE + 2 * r)],
            chunks,
        }
    }

    /// Chunks painted per outpost.
    fn chunks_per_outpost(r: usize) -> usize {
        (2 * r + 1) * (2 * r + 1).div_ceil(PAINT_LANES)
    }

    fn compute(&mut self, outposts: &[(Cell, u8)], radius: u16, control: &mut [i8]) {
        let (r, width) = (self.r, self.width);
        self.cells.fill(u8::FAR);
        for &(cell, empire) in outposts {
            let c = usize::from(cell);
            let centre = ((c / SIZE + r) * width + c % SIZE + r) as isize;
            let Some(chunks) = self.chunks.get(usize::from(empire)) else {
                continue;
            };
            for (offset, values) in chunks {
                let first = (centre + offset) as usize;
                let cells = self.cells.get_mut(first..first + PAINT_LANES);
                if let Some(cells) = cells.and_then(|c| <&mut [u8; PAINT_LANES]>::try_from(c).ok())
                {
                    merge(cells, values);
                }
            }
        }
        for (y, cells) in control.chunks_exact_mut(SIZE).enumerate() {
            let first = (y + r) * width + r;
            if let Some(row) = self.cells.get(first..first + SIZE) {
                for (cell, &value) in cells.iter_mut().zip(row) {
                    *cell = value.owner(radius);
                }
            }
        }
    }
}

/// Merges `new` into `cells` (transform cells of the same places): at each place the smaller
/// distance, with the empires of both when they are equal.
#[cfg(target_arch = "x86_64")]
#[inline]
fn merge(cells: &mut [u8; PAINT_LANES], new: &[u8; PAINT_LANES]) {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_or_si128,
        _mm_set1_epi8, _mm_storeu_si128,
    };
    // SAFETY: SSE2 is part of every x86_64 processor; both arrays are 16 bytes and the loads
    // and the store have no alignment requirement.
    unsafe {
        let old = _mm_loadu_si128(cells.as_ptr().cast::<__m128i>());
        let new = _mm_loadu_si128(new.as_ptr().cast::<__m128i>());
        let (distances, empires) = (_mm_set1_epi8(0xF0_u8 as i8), _mm_set1_epi8(0xF));
        let (far_old, far_new) = (_mm_and_si128(old, distances), _mm_and_si128(new, distances));
        let nearest = _mm_min_epu8(far_old, far_new);
        let keep_old = _mm_and_si128(
            _mm_cmpeq_epi8(far_old, nearest),
            _mm_and_si128(old, empires),
        );
        let keep_new = _mm_and_si128(
            _mm_cmpeq_epi8(far_new, nearest),
            _mm_and_si128(new, empires),
        );
        let merged = _mm_or_si128(nearest, _mm_or_si128(keep_old, keep_new));
        _mm_storeu_si128(cells.as_mut_ptr().cast::<__m128i>(), merged);
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn merge(cells: &mut [u8; PAINT_LANES], new: &[u8; PAINT_LANES]) {
    for (old, &new) in cells.iter_mut().zip(new) {
        let (far_old, far_new) = (*old & 0xF0, new & 0xF0);
        let nearest = far_old.min(far_new);
        let keep = |value: u8, distance: u8| if distance == nearest { value & 0xF } else { 0 };
        *old = nearest | keep(*old, far_old) | keep(new, far_new);
    }
}

/// One step of a pass: each cell of `row` takes the better of itself and its neighbour in
/// `from`, one step farther (equal distances unite their empires).
#[inline]
fn relax<T: Packed>(row: &mut [T; SIZE], from: &[T; SIZE]) {
    for (cell, &neighbour) in row.iter_mut().zip(from) {
        let through = neighbour.step();
        let (mine, theirs) = (*cell >> 4, through >> 4);
        let united = if theirs == mine {
            *cell | (through & T::EMPIRE_BITS)
        } else {
            *cell
        };
        *cell = if theirs < mine { through } else { united };
    }
}

/// Passes down and up every column.
fn columns<T: Packed>(grid: &mut Grid<T>) {
    for y in 1..SIZE {
        let (above, rest) = grid.split_at_mut(y);
        relax(&mut rest[0], &above[y - 1]);
    }
    for y in (0..SIZE - 1).rev() {
        let (upto, below) = grid.split_at_mut(y + 1);
        relax(&mut upto[y], &below[0]);
    }
}

impl<T: Packed> Buffers<T> {
    fn compute(
        &mut self,
        outposts: impl Iterator<Item = (Cell, u8)>,
        radius: u16,
        control: &mut [i8],
    ) {
        for row in self.grid.iter_mut() {
            row.fill(T::FAR);
        }
        for (cell, empire) in outposts {
            let c = usize::from(cell);
            let slot = &mut self.grid[c / SIZE][c % SIZE];
            *slot = (*slot & T::EMPIRE_BITS) | T::from_empire(empire);
        }
        columns(&mut self.grid);
        T::transpose(&self.grid, &mut self.transposed);
        // Rows of the grid are columns of the transposed copy.
        columns(&mut self.transposed);
        T::transpose(&self.transposed, &mut self.grid);
        for (cells, row) in control.chunks_exact_mut(SIZE).zip(self.grid.iter()) {
            for (cell, &value) in cells.iter_mut().zip(row) {
                *cell = value.owner(radius);
            }
        }
    }
}

impl ControlWork {
    /// The control of every cell of the grid into `control` (`CELLS` long).
    pub fn compute(&mut self, outposts: &[Outpost], r: u32, control: &mut [i8]) {
        self.compute_cells(outposts.iter().map(|o| (o.cell, o.empire)), r, control);
    }

    /// As [`ControlWork::compute`] from `(cell, empire)` pairs.
    pub fn compute_cells(
        &mut self,
        outposts: impl Iterator<Item = (Cell, u8)>,
        r: u32,
        control: &mut [i8],
    ) {
        let radius = u16::try_from(r).unwrap_or(u16::MAX).min(254);
        if r > BYTE_RADIUS {
            self.words.compute(outposts, radius, control);
            return;
        }
        self.pairs.clear();
        self.pairs.extend(outposts);
        if self.pairs.len() * Painter::chunks_per_outpost(r as usize) <= PAINT_CHUNKS {
            let painter = match &mut self.painter {
                Some(painter) if painter.r == r as usize => painter,
                slot => slot.insert(Painter::new(r as usize)),
            };
            painter.compute(&self.pairs, radius, control);
        } else {
            self.bytes
                .compute(self.pairs.iter().copied(), radius, control);
        }
    }
}

/// Land and water cells each empire controls alone.
pub fn tally(terrain: &Terrain, control: &[i8]) -> [[u32; 2]; 4] {
    let mut counts = [[0u32; 2]; 4];
    for (empire, [land_count, water_count]) in counts.iter_mut().enumerate() {
        let held = rows::matching(control, empire as i8, empire as i8);
        for (row, land) in held.iter().zip(terrain.land_rows()) {
            *land_count += (row & land).count_ones();
            *water_count += (row & !land).count_ones();
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{CELLS, x_of, y_of};

    fn owner(empires: u8) -> i8 {
        empires.owner(0)
    }

    fn scan(outposts: &[(Cell, u8)], r: u32) -> Vec<i8> {
        (0..CELLS as Cell)
            .map(|c| {
                let d = |o: Cell| (x_of(c) - x_of(o)).abs() + (y_of(c) - y_of(o)).abs();
                let Some(best) = outposts.iter().map(|&(o, _)| d(o)).min() else {
                    return NEUTRAL;
                };
                if best > r as i32 {
                    return NEUTRAL;
                }
                let mask = outposts
                    .iter()
                    .filter(|&&(o, _)| d(o) == best)
                    .fold(0u8, |m, &(_, e)| m | 1 << e);
                owner(mask)
            })
            .collect()
    }

    #[test]
    fn byte_grids_transpose() {
        let mut grid: Box<Grid<u8>> = Box::new([[0; SIZE]; SIZE]);
        for (y, row) in grid.iter_mut().enumerate() {
            for (x, cell) in row.iter_mut().enumerate() {
                *cell = (y * 7 + x * 13) as u8;
            }
        }
        let mut transposed: Box<Grid<u8>> = Box::new([[0; SIZE]; SIZE]);
        u8::transpose(&grid, &mut transposed);
        for y in 0..SIZE {
            for x in 0..SIZE {
                assert_eq!(transposed[x][y], grid[y][x], "({x}, {y})");
            }
        }
    }

    #[test]
    fn painted_and_transformed_maps_equal_the_scan() {
        // Few outposts are painted, many go through the transform; both near the borders.
        let mut work = ControlWork::default();
        let mut control = vec![0i8; CELLS];
        let mut state = 777u64;
        for r in [0u32, 1, 2, 6, 7, 8, 14] {
            for count in [1usize, 40, 200, 900] {
                let outposts: Vec<(Cell, u8)> = (0..count)
                    .map(|_| {
                        crate::lcg(&mut state);
                        let (x, y) = ((state >> 33) % 100, (state >> 45) % 100);
                        ((y * 100 + x) as Cell, ((state >> 20) % 4) as u8)
                    })
                    .collect();
                work.compute_cells(outposts.iter().copied(), r, &mut control);
                assert_eq!(control, scan(&outposts, r), "r {r}, {count} outposts");
            }
        }
    }

    #[test]
    fn the_search_equals_the_scan() {
        let mut work = ControlWork::default();
        let mut control = vec![0i8; CELLS];
        let mut state = 12345u64;
        for case in 0..90usize {
            let count = case % 13;
            let r = [0, 1, 2, 3, 7, 14, 15, 60, 198][case % 9];
            let outposts: Vec<(Cell, u8)> = (0..count)
                .map(|_| {
                    crate::lcg(&mut state);
                    // Cluster outposts so that ties and shared cells are common.
                    let x = (state >> 33) % 12 + 40;
                    let y = (state >> 45) % 12 + 40;
                    ((y * 100 + x) as Cell, ((state >> 20) % 4) as u8)
                })
                .collect();
            work.compute_cells(outposts.iter().copied(), r, &mut control);
            assert_eq!(control, scan(&outposts, r), "case {case}");
        }
    }
}
