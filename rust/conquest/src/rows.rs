//! A board's rows told apart without the board held: the [`Rows`] a share is built from
//! ([`crate::share::block_share`]), a grid's rows and offsets in closed form ([`Grid`]), and
//! the board of a grid that is not a torus in closed form ([`Plane`]).

use std::ops::{Deref, Range};

use rayon::prelude::*;
use stratagem_core::{Error, Result, memory};

fn invalid(message: String) -> Error {
    Error::InvalidBoard(message)
}

/// The rows of a board, each told apart: what a share is built from when the whole board is
/// not held ([`crate::share::block_share`]).
pub trait Rows {
    /// The board's territories.
    fn n(&self) -> i64;
    /// Appends the neighbours of `x`, ascending, to `out`.
    fn row(&self, x: i64, out: &mut Vec<i64>) -> Result<()>;
    /// Where the row of `x` starts in the board's CSR.
    fn offset(&self, x: i64) -> Result<i64>;
    /// Whether the rows may be malformed (read from a file) and must be checked: every row
    /// [`Rows::row`] gives ascending, without `x`, and every border present from both ends.
    fn unchecked(&self) -> bool {
        false
    }
    /// The territories of the block `lo..hi` that may border one outside it, as `(first,
    /// end)` runs (every one, unless the board's shape tells).
    fn may_cross(&self, lo: i64, hi: i64) -> Vec<(i64, i64)> {
        vec![(lo, hi)]
    }
    /// Calls `visit(x, start, row)` for every territory `x` of `lo..hi` in order, with where
    /// its row starts in the board's CSR ([`Rows::offset`]) and its row ([`Rows::row`]).
    fn each_row(
        &self,
        lo: i64,
        hi: i64,
        mut visit: impl FnMut(i64, i64, &[i64]) -> Result<()>,
    ) -> Result<()>
    where
        Self: Sized,
    {
        let mut row = Vec::new();
        for x in lo..hi {
            row.clear();
            self.row(x, &mut row)?;
            visit(x, self.offset(x)?, &row)?;
        }
        Ok(())
    }
}

/// A grid board (`grid:RxC`, `:torus` joining the first and last row and column) known by
/// its shape alone: territory `r * cols + c`, its row and its CSR offset in closed form, the
/// same as the generator's (`stratagem.conquest.boards.layouts.grid`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    pub rows: i64,
    pub cols: i64,
    pub torus: bool,
}

impl Rows for Grid {
    fn n(&self) -> i64 {
        self.rows * self.cols
    }

    fn row(&self, x: i64, out: &mut Vec<i64>) -> Result<()> {
        self.row_at(x / self.cols, x % self.cols, out);
        Ok(())
    }

    /// Only a block's first and last `cols` territories border others: a neighbour is in
    /// the same row (a torus wraps a row onto itself) or the next or last row (or, on a
    /// torus, the far row, which only the grid's first and last rows border).
    fn may_cross(&self, lo: i64, hi: i64) -> Vec<(i64, i64)> {
        if hi - lo <= 2 * self.cols {
            return vec![(lo, hi)];
        }
        vec![(lo, lo + self.cols), (hi - self.cols, hi)]
    }

    /// The rows one after the other, stepping along the grid's rows without dividing.
    fn each_row(
        &self,
        lo: i64,
        hi: i64,
        mut visit: impl FnMut(i64, i64, &[i64]) -> Result<()>,
    ) -> Result<()> {
        if lo >= hi {
            return Ok(());
        }
        let (mut r, mut c) = (lo / self.cols, lo % self.cols);
        let mut start = self.offset(lo)?;
        let mut row = Vec::with_capacity(4);
        for x in lo..hi {
            row.clear();
            self.row_at(r, c, &mut row);
            visit(x, start, &row)?;
            start += row.len() as i64;
            c += 1;
            if c == self.cols {
                (r, c) = (r + 1, 0);
            }
        }
        Ok(())
    }

    /// The degrees of the territories before `x`, summed in closed form.
    fn offset(&self, x: i64) -> Result<i64> {
        if self.torus {
            return Ok(4 * x);
        }
        let (rows, cols) = (self.rows, self.cols);
        let (r, c) = (x / cols, x % cols);
        // Up and down borders of the rows above r, left and right ones of their cells, then
        // the borders of the cells before c in row r.
        let above = (r - 1).max(0) + r.min(rows - 1);
        let vertical = i64::from(r > 0) + i64::from(r < rows - 1);
        Ok(cols * above + r * 2 * (cols - 1) + c * vertical + (c - 1).max(0) + c.min(cols - 1))
    }
}

impl Grid {
    /// The grid of `rows x cols` territories that is not a torus.
    pub const fn plane(rows: i64, cols: i64) -> Self {
        Self {
            rows,
            cols,
            torus: false,
        }
    }

    /// Appends the neighbours of the territory in row `r`, column `c`, ascending.
    fn row_at(&self, r: i64, c: i64, out: &mut Vec<i64>) {
        let (rows, cols) = (self.rows, self.cols);
        let x = r * cols + c;
        if self.torus {
            let first = out.len();
            out.extend([
                (r + rows - 1) % rows * cols + c,
                r * cols + (c + cols - 1) % cols,
                r * cols + (c + 1) % cols,
                (r + 1) % rows * cols + c,
            ]);
            out[first..].sort_unstable();
            return;
        }
        // Up, left, right, down is ascending order.
        let candidates = [
            (r > 0, x - cols),
            (c > 0, x - 1),
            (c < cols - 1, x + 1),
            (r < rows - 1, x + cols),
        ];
        out.extend(
            candidates
                .iter()
                .filter(|(present, _)| *present)
                .map(|&(_, y)| y),
        );
    }

    /// The whole CSR of the grid (`indptr`, `indices`), the arrays of
    /// `stratagem.conquest.boards.layouts.grid`: offsets in closed form, rows written block by block
    /// in parallel (the same arrays for any number of threads). Refuses a shape
    /// `layouts.grid_shape` refuses.
    pub fn csr(&self) -> Result<(Vec<i64>, Vec<i64>)> {
        self.csr_as()
    }

    /// The territories of the grid, refusing a shape `layouts.grid_shape` refuses.
    pub fn checked_n(&self) -> Result<i64> {
        let (rows, cols) = (self.rows, self.cols);
        let n = rows.checked_mul(cols).filter(|_| rows >= 1 && cols >= 1);
        let n = n
            .filter(|&n| n <= crate::MAX_TERRITORIES as i64)
            .ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "a grid needs 1 to {} territories, got {rows}x{cols}",
                    crate::MAX_TERRITORIES
                ))
            })?;
        if self.torus && (rows < 3 || cols < 3) {
            return Err(Error::InvalidParameter(format!(
                "a torus needs at least 3 rows and 3 columns, got {rows}x{cols}"
            )));
        }
        Ok(n)
    }

    /// [`Self::csr`] with offsets and ids of type `T` (`u32` for the engine's board, which
    /// then needs no `i64` copy); an offset or id that does not fit in `T` is refused.
    pub fn csr_as<T>(&self) -> Result<(Vec<T>, Vec<T>)>
    where
        T: TryFrom<i64> + Copy + Default + Send + Sync,
    {
        /// Territories a task writes the rows of.
        const BLOCK: i64 = 1 << 14;
        let n = self.checked_n()?;
        let narrow = |v: i64| {
            T::try_from(v).map_err(|_| invalid(format!("the grid's offset or id {v} is too large")))
        };
        // Offsets and ids rise with the territory: when the last of each fits, all do.
        narrow(self.offset(n)?)?;
        narrow(n - 1)?;
        let fits = |v: Result<i64>| v.ok().and_then(|v| T::try_from(v).ok());
        let indptr = memory::collect(
            (0..n as usize + 1)
                .into_par_iter()
                .map(|x| fits(self.offset(x as i64)).unwrap_or_default()),
        );
        let mut indices = memory::filled(self.offset(n)? as usize, T::default());
        // Cut `indices` at the first row of every block.
        let mut blocks = Vec::new();
        let mut rest = indices.as_mut_slice();
        for first in (0..n).step_by(BLOCK as usize) {
            let last = (first + BLOCK).min(n);
            let length = (self.offset(last)? - self.offset(first)?) as usize;
            let (block, tail) = rest
                .split_at_mut_checked(length)
                .ok_or_else(|| invalid(format!("the rows {first}..{last} overrun the grid")))?;
            blocks.push((first..last, block));
            rest = tail;
        }
        blocks
            .into_par_iter()
            .try_for_each(|(territories, block)| {
                let mut written = Vec::with_capacity(block.len());
                for x in territories {
                    self.row(x, &mut written)?;
                }
                if written.len() != block.len() {
                    return Err(invalid("a grid's rows disagree with its offsets".into()));
                }
                for (slot, &y) in block.iter_mut().zip(&written) {
                    *slot = narrow(y)?;
                }
                Ok(())
            })?;
        Ok((indptr, indices))
    }
}

/// The neighbours of a territory ([`crate::board::Board::neighbours`]): a slice of a stored
/// board's row, or the row of a plane grid written out.
#[derive(Clone, Copy, Debug)]
pub enum Neighbours<'a> {
    Stored(&'a [u32]),
    /// The first `len` ids of the array.
    Plane([u32; 4], usize),
}

impl Deref for Neighbours<'_> {
    type Target = [u32];

    #[inline]
    fn deref(&self) -> &[u32] {
        match self {
            Self::Stored(ids) => ids,
            Self::Plane(ids, len) => &ids[..*len],
        }
    }
}

/// The board of a grid of `rows x cols` that is not a torus, its CSR in closed form (the
/// arrays [`Grid::csr`] writes, which a board this large need not hold: [`crate::board`]).
/// Territory `x` sits at row `x / cols`, column `x % cols`; its row lists up, left, right,
/// down (ascending).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plane {
    rows: usize,
    cols: usize,
    /// `2^64 / cols` rounded up (0 for one column): the row and column of a `u32` id by a
    /// multiplication, not a division (Lemire, Kaser and Kurz, "Faster remainder by direct
    /// computation", 2019).
    magic: u64,
    /// What an id adds to reach its up, left, right and down neighbours (modulo 2^32).
    steps: [u32; 4],
}

impl Plane {
    /// The plane of `rows x cols` territories (at least one of each, at most `u32::MAX` in
    /// all: a checked [`Grid`]).
    pub fn new(rows: usize, cols: usize) -> Self {
        debug_assert!(rows >= 1 && cols >= 1 && rows * cols <= u32::MAX as usize);
        let magic = if cols == 1 {
            0
        } else {
            u64::MAX / cols as u64 + 1
        };
        let steps = [(cols as u32).wrapping_neg(), u32::MAX, 1, cols as u32];
        Self {
            rows,
            cols,
            magic,
            steps,
        }
    }

    /// `(rows, cols)`.
    #[inline]
    pub fn shape(self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    #[inline]
    pub fn n(self) -> usize {
        self.rows * self.cols
    }

    /// Directed edges: two along each row's `cols - 1` borders and each column's `rows - 1`.
    #[inline]
    pub fn n_edges(self) -> usize {
        2 * (self.rows * (self.cols - 1) + self.cols * (self.rows - 1))
    }

    /// The row and column of territory `x` (`x <= n`).
    #[inline]
    pub fn cell(self, x: usize) -> (usize, usize) {
        if self.magic == 0 {
            return (x, 0);
        }
        // Exact for every 32-bit x (the paper's theorem 1): ids and n fit in u32.
        let x = x as u64;
        let r = (u128::from(self.magic) * u128::from(x)) >> 64;
        let low = self.magic.wrapping_mul(x);
        let c = (u128::from(low) * self.cols as u128) >> 64;
        (r as usize, c as usize)
    }

    /// The borders of the territory at `(r, c)`.
    #[inline]
    pub fn degree_at(self, r: usize, c: usize) -> usize {
        let vertical = usize::from(r > 0) + usize::from(r + 1 < self.rows);
        vertical + usize::from(c > 0) + usize::from(c + 1 < self.cols)
    }

    /// Where the row of the territory at `(r, c)` starts: the up and down borders of the
    /// rows above `r`, the left and right ones of their cells, then the borders of the cells
    /// before `c` in row `r` (`(rows, 0)` gives the number of directed edges).
    #[inline]
    pub fn offset_at(self, r: usize, c: usize) -> usize {
        let (rows, cols) = (self.rows, self.cols);
        let above = r.saturating_sub(1) + r.min(rows - 1);
        let vertical = usize::from(r > 0) + usize::from(r + 1 < rows);
        cols * above + r * 2 * (cols - 1) + c * vertical + c.saturating_sub(1) + c.min(cols - 1)
    }

    /// Where the row of `x` starts (`n_edges()` for `x = n`).
    #[inline]
    pub fn offset(self, x: usize) -> usize {
        let (r, c) = self.cell(x);
        self.offset_at(r, c)
    }

    /// The positions of the directed edges of `x`'s row.
    #[inline]
    pub fn row(self, x: usize) -> std::ops::Range<usize> {
        let (r, c) = self.cell(x);
        let start = self.offset_at(r, c);
        start..start + self.degree_at(r, c)
    }

    /// The rows of `territories` one after the other, stepping along the grid's rows without
    /// dividing.
    #[inline]
    pub fn rows(self, territories: Range<usize>) -> impl Iterator<Item = Range<usize>> {
        let (r, c) = self.cell(territories.start);
        let start = self.offset_at(r, c);
        territories.scan((r, c, start), move |(r, c, start), _| {
            let end = *start + self.degree_at(*r, *c);
            let row = *start..end;
            *start = end;
            *c += 1;
            if *c == self.cols {
                (*r, *c) = (*r + 1, 0);
            }
            Some(row)
        })
    }

    /// The neighbours of `x`, ascending.
    #[inline(always)]
    pub fn neighbours(self, x: usize) -> Neighbours<'static> {
        let (r, c) = self.cell(x);
        let (rows, cols) = (self.rows, self.cols);
        // Ids fit in u32. The four written at once (one vector addition): stores a place at a
        // time, read back whole, would stall the processor's store forwarding.
        let around = self.steps.map(|step| (x as u32).wrapping_add(step));
        // Most territories have all four.
        if r > 0 && r + 1 < rows && c > 0 && c + 1 < cols {
            return Neighbours::Plane(around, 4);
        }
        let present = [r > 0, c > 0, c + 1 < cols, r + 1 < rows];
        let mut ids = [0u32; 4];
        let mut len = 0;
        for (y, here) in around.into_iter().zip(present) {
            if here {
                ids[len] = y;
                len += 1;
            }
        }
        Neighbours::Plane(ids, len)
    }

    /// The edges of `x`'s row (starting at `start`, `x` at `(r, c)`) in the first `len`
    /// places, and `len`: each as its target and the position of its reverse. `x` is the last
    /// of the row of the territory above it, the first of the one below, the right of its
    /// left neighbour (last but its down) and the left of its right one (first but its up).
    #[inline]
    pub fn edges_at(
        self,
        x: usize,
        r: usize,
        c: usize,
        start: usize,
    ) -> ([(u32, usize); 4], usize) {
        let (rows, cols) = (self.rows, self.cols);
        // Most territories: four borders, and the rows above and below of four borders a
        // territory but at their ends (two borders a row less), so that the next row starts
        // 4 cols - 2 edges on.
        if r >= 2 && r + 2 < rows && c >= 1 && c + 1 < cols {
            let span = 4 * cols - 2;
            let edges = [
                ((x - cols) as u32, start - span + 3),
                ((x - 1) as u32, start - 2),
                ((x + 1) as u32, start + 5),
                ((x + cols) as u32, start + span),
            ];
            return (edges, 4);
        }
        let end = start + self.degree_at(r, c);
        let (up, down) = (usize::from(r > 0), usize::from(r + 1 < rows));
        let mut edges = [(0u32, 0usize); 4];
        let mut len = 0;
        let mut push = |y: usize, back: usize| {
            edges[len] = (y as u32, back);
            len += 1;
        };
        if r > 0 {
            push(
                x - cols,
                self.offset_at(r - 1, c) + self.degree_at(r - 1, c) - 1,
            );
        }
        if c > 0 {
            push(x - 1, start - 1 - down);
        }
        if c + 1 < cols {
            push(x + 1, end + up);
        }
        if r + 1 < rows {
            push(x + cols, self.offset_at(r + 1, c));
        }
        (edges, len)
    }

    /// The source and target of directed edge `e`: the grid row from the first row's and
    /// the middle rows' border counts, then the column from the first cell's and the middle
    /// cells'.
    #[inline]
    pub fn edge(self, e: usize) -> (usize, usize) {
        let (rows, cols) = (self.rows, self.cols);
        let across = 2 * (cols - 1);
        let (first, middle) = (across + cols * usize::from(rows > 1), across + 2 * cols);
        let (r, within) = if e < first {
            (0, e)
        } else {
            let r = (1 + (e - first) / middle).min(rows - 1);
            (r, e - first - (r - 1) * middle)
        };
        let vertical = usize::from(r > 0) + usize::from(r + 1 < rows);
        let c = if cols == 1 || within < vertical + 1 {
            0
        } else {
            (1 + (within - vertical - 1) / (vertical + 2)).min(cols - 1)
        };
        let x = r * cols + c;
        let neighbours = self.neighbours(x);
        (x, neighbours[e - self.offset_at(r, c)] as usize)
    }

    /// The position of the edge `y -> x` (a border).
    #[inline]
    pub fn reverse(self, x: usize, y: usize) -> usize {
        let (r, c) = self.cell(y);
        let start = self.offset_at(r, c);
        if y + self.cols == x {
            start + self.degree_at(r, c) - 1
        } else if y == x + self.cols {
            start
        } else if y + 1 == x {
            start + self.degree_at(r, c) - 1 - usize::from(r + 1 < self.rows)
        } else {
            start + usize::from(r > 0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plane_finds_row_and_column_as_a_division_does() {
        // Ids up to u32::MAX (a board's largest), on narrow and wide grids.
        for cols in [
            1usize,
            2,
            3,
            7,
            1000,
            10_000,
            65_537,
            99_991,
            1 << 31,
            u32::MAX as usize,
        ] {
            let rows = (u32::MAX as usize / cols).max(1);
            let plane = Plane::new(rows, cols);
            let mut x = 0usize;
            while x <= rows * cols {
                assert_eq!(plane.cell(x), (x / cols, x % cols), "{cols}, {x}");
                x = x * 3 + 1 + (x >> 7);
            }
            let last = rows * cols;
            for x in [last.saturating_sub(1), last, cols - 1, cols] {
                assert_eq!(plane.cell(x), (x / cols, x % cols), "{cols}, {x}");
            }
        }
    }
}
