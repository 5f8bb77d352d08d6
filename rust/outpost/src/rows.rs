//! Sets of cells as bit rows: one `u128` per grid row, bit `x` for column `x`. Searches over
//! the grid (supply lines, walking distances) then work on a hundred cells per operation
//! instead of one.

use crate::grid::{Cell, SIZE};

pub type Row = u128;
/// A set of cells: `rows[y]` holds the cells of row `y`.
pub type Rows = [Row; SIZE];

/// The columns of the grid.
pub const FULL: Row = (1 << SIZE) - 1;
pub const EMPTY: Rows = [0; SIZE];

#[inline]
pub fn contains(rows: &Rows, cell: Cell) -> bool {
    let c = usize::from(cell);
    rows.get(c / SIZE)
        .is_some_and(|row| row >> (c % SIZE) & 1 == 1)
}

#[inline]
pub fn insert(rows: &mut Rows, cell: Cell) {
    let c = usize::from(cell);
    if let Some(row) = rows.get_mut(c / SIZE) {
        *row |= 1 << (c % SIZE);
    }
}

/// The columns `left..=right` (both inside the grid, `left <= right`).
#[inline]
pub fn span(left: usize, right: usize) -> Row {
    (FULL >> (SIZE - 1 - right)) & (FULL << left)
}

/// The cells of `open` reached from `seed` (a subset of `open`) going east along the row:
/// adding `seed` to `open` carries through each run of `open` above its lowest seed, and the
/// bits the carry flips are those cells (a seed met by the carry is kept by the final `|`).
#[inline]
fn fill_east(seed: Row, open: Row) -> Row {
    ((open + seed) ^ open) & open | seed
}

/// The cells of `open` reached from `seed` going west: each round doubles the distance the
/// seeds spread, over the cells whose whole way is open (`open` shifted onto itself).
#[inline]
fn fill_west(seed: Row, open: Row) -> Row {
    let (mut reached, mut way) = (seed, open);
    for shift in [1, 2, 4, 8, 16, 32, 64] {
        reached |= (reached >> shift) & way;
        way &= way >> shift;
    }
    reached
}

/// The cells of `open` joined along the row to a cell of `seed`: every run of `open` that
/// holds a seed, whole.
#[inline]
pub fn fill_row(seed: Row, open: Row) -> Row {
    let seed = seed & open;
    fill_east(seed, open) | fill_west(seed, open)
}

/// Grows `reached` (a subset of `open`) to every cell of `open` connected to it through
/// orthogonal steps inside `open`, or stops sooner, once every cell of `wanted` (a subset of
/// `open`) is reached. Rows are filled whole along their runs, so a row of `reached` is always
/// whole runs of `open`: a row whose neighbour changed is filled again only from the cells the
/// neighbours bring that it does not hold yet, and not at all when there are none.
pub fn flood(reached: &mut Rows, open: &Rows, wanted: &Rows) {
    let mut missing: u32 = wanted
        .iter()
        .zip(reached.iter())
        .map(|(want, got)| (want & !got).count_ones())
        .sum();
    // Rows waiting to be filled: bit y for row y.
    let mut pending: Row = 0;
    for (y, (row, open)) in reached.iter_mut().zip(open).enumerate() {
        if *row != 0 {
            let filled = fill_row(*row, *open);
            missing -= (filled & !*row & wanted[y]).count_ones();
            *row = filled;
            pending |= 0b101 << y >> 1;
        }
    }
    pending &= FULL;
    while pending != 0 && missing > 0 {
        let y = pending.trailing_zeros() as usize;
        pending &= pending - 1;
        let above = if y > 0 { reached[y - 1] } else { 0 };
        let below = reached.get(y + 1).copied().unwrap_or(0);
        let seeds = (above | below) & open[y] & !reached[y];
        if seeds != 0 {
            // Runs of `open` disjoint from the row's: all of it is new.
            let added = fill_row(seeds, open[y]);
            missing -= (added & wanted[y]).count_ones();
            reached[y] |= added;
            pending |= (0b101 << y >> 1) & FULL;
        }
    }
}

/// Keeps only the cells of `rows` that are also in `other`.
#[inline]
pub fn intersect(rows: &mut Rows, other: &Rows) {
    for (row, keep) in rows.iter_mut().zip(other) {
        *row &= keep;
    }
}

/// The cells of `rows` and their orthogonal neighbours.
pub fn grow(rows: &Rows) -> Rows {
    let mut grown = EMPTY;
    for (y, out) in grown.iter_mut().enumerate() {
        let row = rows[y];
        let above = if y > 0 { rows[y - 1] } else { 0 };
        let below = rows.get(y + 1).copied().unwrap_or(0);
        *out = (row | row << 1 | row >> 1 | above | below) & FULL;
    }
    grown
}

/// The cells whose byte in `cells` (row-major, `SIZE * SIZE` long) is `a` or `b`.
pub fn matching(cells: &[i8], a: i8, b: i8) -> Rows {
    let mut rows = EMPTY;
    for (row, line) in rows.iter_mut().zip(cells.chunks_exact(SIZE)) {
        *row = matching_row(line, a, b);
    }
    rows
}

/// Sixteen bytes compared at once, their results gathered into sixteen bits.
#[cfg(target_arch = "x86_64")]
#[inline]
fn matching_row(line: &[i8], a: i8, b: i8) -> Row {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    let mut row: Row = 0;
    let mut chunks = line.chunks_exact(16);
    for (k, chunk) in chunks.by_ref().enumerate() {
        // SAFETY: SSE2 is part of every x86_64 processor; `chunk` is 16 bytes long and the
        // load has no alignment requirement.
        let hits = unsafe {
            let bytes = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
            let hits = _mm_or_si128(
                _mm_cmpeq_epi8(bytes, _mm_set1_epi8(a)),
                _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b)),
            );
            _mm_movemask_epi8(hits)
        };
        row |= Row::from(hits as u16) << (16 * k);
    }
    let rest = chunks.remainder().len();
    let done = line.len() - rest;
    if rest > 0 && line.len() >= 16 {
        // The last 16 bytes, overlapping the chunk before: their top `rest` results.
        let last = &line[line.len() - 16..];
        // SAFETY: as above; `last` is 16 bytes long.
        let hits = unsafe {
            let bytes = _mm_loadu_si128(last.as_ptr().cast::<__m128i>());
            let hits = _mm_or_si128(
                _mm_cmpeq_epi8(bytes, _mm_set1_epi8(a)),
                _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b)),
            );
            _mm_movemask_epi8(hits) as u16
        };
        return row | Row::from(hits >> (16 - rest)) << done;
    }
    row | matching_scalar(chunks.remainder(), a, b) << done
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn matching_row(line: &[i8], a: i8, b: i8) -> Row {
    matching_scalar(line, a, b)
}

#[inline]
fn matching_scalar(line: &[i8], a: i8, b: i8) -> Row {
    line.iter()
        .enumerate()
        .fold(0, |row, (x, &c)| row | Row::from(c == a || c == b) << x)
}

/// Calls `visit` for every cell of `rows`, row by row.
#[inline]
pub fn for_each(rows: &Rows, mut visit: impl FnMut(Cell)) {
    for (y, &row) in rows.iter().enumerate() {
        let mut left = row;
        while left != 0 {
            let x = left.trailing_zeros() as usize;
            left &= left - 1;
            visit((y * SIZE + x) as Cell);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{CELLS, DIRECTIONS, step};

    fn random_rows(state: &mut u64, percent: u64) -> Rows {
        let mut rows = EMPTY;
        for cell in 0..CELLS {
            if (crate::lcg(state) >> 33) % 100 < percent {
                insert(&mut rows, cell as Cell);
            }
        }
        rows
    }

    /// A plain breadth-first search, one cell at a time.
    fn search(seeds: &Rows, open: &Rows) -> Rows {
        let mut reached = EMPTY;
        let mut queue: Vec<Cell> = Vec::new();
        for_each(seeds, |c| {
            if contains(open, c) {
                insert(&mut reached, c);
                queue.push(c);
            }
        });
        while let Some(cell) = queue.pop() {
            for direction in 1..DIRECTIONS {
                if let Some(n) = step(cell, direction)
                    && contains(open, n)
                    && !contains(&reached, n)
                {
                    insert(&mut reached, n);
                    queue.push(n);
                }
            }
        }
        reached
    }

    #[test]
    fn the_flood_equals_a_search() {
        let mut state = 7;
        for case in 0..200u64 {
            // From sparse to nearly full: mazes, islands and open fields.
            let open = random_rows(&mut state, 30 + case % 7 * 10);
            let mut seeds = random_rows(&mut state, case % 4);
            for row in seeds.iter_mut().zip(&open) {
                *row.0 &= row.1;
            }
            let want = search(&seeds, &open);
            let mut early = seeds;
            flood(&mut seeds, &open, &open);
            assert_eq!(seeds, want, "case {case}");
            // Stopping once a few cells are settled: those cells get the same answer.
            let asked = random_rows(&mut state, 5);
            let mut wanted = EMPTY;
            for (y, row) in wanted.iter_mut().enumerate() {
                *row = asked[y] & want[y];
            }
            flood(&mut early, &open, &wanted);
            for (y, row) in early.iter().enumerate() {
                assert_eq!(
                    row & want[y],
                    *row,
                    "case {case}: reached outside the flood"
                );
                assert_eq!(row & asked[y], want[y] & asked[y], "case {case}: row {y}");
            }
        }
    }

    #[test]
    fn a_row_fills_its_seeded_runs_whole() {
        // Runs {0, 1}, {3, 4, 5}, {7, 8, 9} and {98, 99}.
        let open: Row = 0b11_1011_1011 | 1 << 99 | 1 << 98;
        assert_eq!(fill_row(1 << 4, open), 0b11_1000);
        assert_eq!(fill_row(1 << 3 | 1 << 5, open), 0b11_1000);
        assert_eq!(fill_row(1 << 5 | 1 << 6 | 1 << 9, open), 0b11_1011_1000);
        assert_eq!(fill_row(1 << 99, open), 1 << 99 | 1 << 98);
        assert_eq!(fill_row(1 << 0 | 1 << 8, open), 0b11_1000_0011);
        assert_eq!(fill_row(1 << 2, open), 0);
    }

    #[test]
    fn matching_finds_every_byte() {
        let mut state = 3;
        let cells: Vec<i8> = (0..CELLS)
            .map(|_| ((crate::lcg(&mut state) >> 33) % 6) as i8 - 2)
            .collect();
        let rows = matching(&cells, -1, 2);
        for (cell, &c) in cells.iter().enumerate() {
            assert_eq!(
                contains(&rows, cell as Cell),
                c == -1 || c == 2,
                "cell {cell}"
            );
        }
    }

    #[test]
    fn spans_and_growth() {
        assert_eq!(span(0, 99), FULL);
        assert_eq!(span(3, 5), 0b111000);
        let mut one = EMPTY;
        insert(&mut one, 0);
        insert(&mut one, 5050);
        let mut cells = Vec::new();
        for_each(&grow(&one), |c| cells.push(c));
        assert_eq!(cells, vec![0, 1, 100, 4950, 5049, 5050, 5051, 5150]);
    }
}
