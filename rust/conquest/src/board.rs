//! The board: an undirected simple graph in CSR form, checked once, with the reverse of every
//! directed edge. Ids and positions are `u32`; the reverse of an edge `x -> y` is kept as the
//! place of `x` in `y`'s row, one byte, when no row has more than 256 borders (its position,
//! four bytes, otherwise): 5 bytes per directed edge (8 otherwise) and 4 per territory. A
//! large grid that is not a torus keeps nothing: its rows and reverses have closed forms
//! ([`Plane`]). A border is its upward edge `x -> y`, `x < y`, and needs no table of its own.

use std::ops::Range;

use rayon::prelude::*;
use stratagem_core::memory::{self, Pages};
use stratagem_core::{Cancel, Error, Result};

use stratagem_core::graph::{Shape, check};

use crate::MAX_TERRITORIES;
use crate::rows::{Grid, Neighbours, Plane, Rows};

/// The shape of a conquest board: territories may stand alone and in several pieces.
pub const GRAPH: Shape<'static> = Shape {
    node: "territory",
    offsets: "indptr",
    neighbours: "indices",
    min_nodes: 1,
    max_nodes: MAX_TERRITORIES,
    isolated_ok: true,
    connected: false,
};

/// The most directed borders a board (or one rank's part of it) may have: positions in
/// `indices` are `u32`.
pub const MAX_EDGES: usize = u32::MAX as usize;

#[derive(Clone, Debug)]
pub struct Board {
    rows: Kept,
    /// Ids in a larger board when this board is one rank's part of it (see [`Board::labelled`]).
    labels: Option<Labels>,
    /// `(rows, cols)` when [`Board::grid`] built the board of a grid that is not a torus:
    /// what reads the board may then use the grid's closed forms ([`Board::plane`]).
    plane: Option<(usize, usize)>,
}

/// Boards are equal when their rows are kept alike and are the same: knowing that a board is
/// a grid changes nothing of it.
impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        (&self.rows, &self.labels) == (&other.rows, &other.labels)
    }
}

impl Eq for Board {}

/// How a board holds its rows.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kept {
    /// The CSR arrays and where the reverse of every directed edge is.
    Stored {
        indptr: Vec<u32>,
        indices: Vec<u32>,
        reverse: Reverse,
    },
    /// Nothing: a grid that is not a torus, of more than [`SLOT_EDGES`] directed edges, whose
    /// offsets, rows and reverses are closed forms.
    Plane(Plane),
}

/// Where the reverse of every directed edge `x -> y` is.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Reverse {
    /// The place of `x` in `y`'s row (every row has at most [`SLOTS`] borders).
    Slot(Vec<u8>),
    /// The position of `y -> x` among the directed edges.
    Position(Vec<u32>),
}

/// Boards of more directed edges than this keep one-byte reverses (when no row is longer
/// than `SLOTS`; a grid that is not a torus keeps no rows at all: 12 bytes less a directed
/// edge and 4 a territory, 2.8 GB on `grid:10000x10000`). Smaller
/// boards keep the positions, which spare occupation a read of the neighbour's offset (a
/// tenth of the processor time of a turn on the 1000x1000 grid).
pub const SLOT_EDGES: usize = 1 << 26;

/// Rows a task of the reverse table's build writes.
const ROWS_PER_TASK: usize = 1 << 12;

/// The longest row whose places fit in a [`Reverse::Slot`] byte.
const SLOTS: usize = 1 << 8;

/// The whole board's ids of a part's territories and directed edges: random streams are drawn
/// with these, so a part plays exactly what the whole board would.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Labels {
    territory: Vec<u32>,
    edge: Vec<u64>,
}

/// Refuses territory ids that do not increase (a part lists its territories in the whole
/// board's order).
fn check_increasing<T: PartialOrd + std::fmt::Display>(territory: &[T]) -> Result<()> {
    match territory.windows(2).position(|pair| pair[1] <= pair[0]) {
        Some(k) => Err(invalid(format!(
            "territory ids must increase, got {} then {} at territory {}",
            territory[k],
            territory[k + 1],
            k + 1
        ))),
        None => Ok(()),
    }
}

fn invalid(message: String) -> Error {
    Error::InvalidBoard(message)
}

/// Refuses more directed borders than `u32` positions can list.
fn check_edges(edges: usize) -> Result<()> {
    if edges > MAX_EDGES {
        return Err(invalid(format!(
            "too many borders: {} (at most {} directed borders, listed in indices, per \
             process; spread a larger board over MPI ranks)",
            edges / 2,
            MAX_EDGES
        )));
    }
    Ok(())
}

impl Board {
    /// Checks a CSR graph (rows sorted ascending, symmetric, no self-loops, no repeats) and
    /// builds the reverse-edge table. Errors name the offending territory.
    pub fn from_csr(indptr: &[i64], indices: &[i64]) -> Result<Self> {
        Self::built(indptr, indices, &GRAPH)
    }

    /// Like [`Self::from_csr`], but a rank's part of a board may hold no territory at all
    /// (when there are more ranks than territories).
    pub fn part_from_csr(indptr: &[i64], indices: &[i64]) -> Result<Self> {
        let part = Shape {
            min_nodes: 0,
            ..GRAPH
        };
        Self::built(indptr, indices, &part)
    }

    /// The compact arrays and the reverse-edge table of a graph, once checked.
    fn built(indptr: &[i64], indices: &[i64], shape: &Shape<'_>) -> Result<Self> {
        check_edges(indices.len())?;
        check(indptr, indices, shape)?;
        // Checked: offsets run from 0 to indices.len() <= u32::MAX, ids below n <= u32::MAX.
        let indptr: Vec<u32> = memory::collect(indptr.par_iter().map(|&o| o as u32));
        let indices: Vec<u32> = memory::collect(indices.par_iter().map(|&y| y as u32));
        Self::with_reverse(indptr, indices)
    }

    /// The board `grid:RxC` (`:torus`) straight from its closed forms, as `u32` arrays: the
    /// board [`Self::from_csr`] builds from the grid's CSR ([`Grid::csr`]), without the `i64`
    /// arrays. Refuses a shape `stratagem.conquest.boards.layouts.grid_shape` refuses.
    pub fn grid(grid: &Grid) -> Result<Self> {
        Self::grid_watched(grid, &Cancel::new())
    }

    /// [`Self::grid`], stopping with [`Error::Interrupted`] when `cancel` is set (checked
    /// by every task writing the rows of a grid that is not a torus, and once the rows of a
    /// torus are written).
    pub fn grid_watched(grid: &Grid, cancel: &Cancel) -> Result<Self> {
        Self::grid_above(grid, SLOT_EDGES, cancel)
    }

    /// [`Self::grid`], keeping one-byte reverses on a board of more than `slot_edges`
    /// directed edges. A grid that is not a torus is written in one pass, its reverses in
    /// closed form too; a torus's rows are sorted, and its reverses searched.
    fn grid_above(grid: &Grid, slot_edges: usize, cancel: &Cancel) -> Result<Self> {
        let n = grid.checked_n()?;
        let edges = usize::try_from(grid.offset(n)?).unwrap_or(usize::MAX);
        check_edges(edges)?;
        if grid.torus {
            let (indptr, indices) = grid.csr_as::<u32>()?;
            cancel.check()?;
            return Self::with_reverse_above(indptr, indices, slot_edges);
        }
        // Checked: n and the offsets fit in u32; rows and cols are at least 1.
        let shape = (grid.rows as usize, grid.cols as usize);
        if edges > slot_edges {
            return Ok(Self {
                rows: Kept::Plane(Plane::new(shape.0, shape.1)),
                labels: None,
                plane: Some(shape),
            });
        }
        // Small pages: every pass over a plane grid reads its rows in order (its distances
        // too, `plane::frontier_distance`), and huge pages would cost their clearing and
        // compaction for no fewer misses (docs/conquest.md, "A plane grid's closed forms").
        let mut indptr = Vec::with_capacity(n as usize + 1);
        (0..n as usize + 1)
            .into_par_iter()
            .map(|x| grid.offset(x as i64).map_or(0, |o| o as u32))
            .collect_into_vec(&mut indptr);
        let mut indices = memory::filled_on(edges, 0u32, Pages::Small);
        // The positions of the reverses spare occupation the read of the neighbour's offset.
        let mut position = memory::filled_on(edges, 0u32, Pages::Small);
        plane_rows(shape, &indptr, &mut indices, &mut position, cancel)?;
        Ok(Self {
            rows: Kept::Stored {
                indptr,
                indices,
                reverse: Reverse::Position(position),
            },
            labels: None,
            plane: Some(shape),
        })
    }

    /// The board of checked CSR arrays, with its reverse-edge table: the place of every
    /// edge's source in its target's (sorted) row, by binary search, written in place a
    /// block of rows per task.
    fn with_reverse(indptr: Vec<u32>, indices: Vec<u32>) -> Result<Self> {
        Self::with_reverse_above(indptr, indices, SLOT_EDGES)
    }

    /// [`Self::with_reverse`], keeping one-byte reverses on a board of more than
    /// `slot_edges` directed edges.
    fn with_reverse_above(indptr: Vec<u32>, indices: Vec<u32>, slot_edges: usize) -> Result<Self> {
        let longest = indptr
            .par_windows(2)
            .map(|w| (w[1] - w[0]) as usize)
            .max()
            .unwrap_or(0);
        let reverse = if longest <= SLOTS && indices.len() > slot_edges {
            Reverse::Slot(reverse_table(&indptr, &indices, |_, k| k as u8)?)
        } else {
            Reverse::Position(reverse_table(&indptr, &indices, |start, k| {
                (start + k) as u32
            })?)
        };
        Ok(Self {
            rows: Kept::Stored {
                indptr,
                indices,
                reverse,
            },
            labels: None,
            plane: None,
        })
    }

    /// The same board as a part of a larger one: territory `x` is territory `territory[x]`
    /// there and directed edge `e` is edge `edge[e]`. Territory ids must increase, so that
    /// every row lists its neighbours in the larger board's order too.
    pub fn labelled(mut self, territory: &[i64], edge: &[i64]) -> Result<Self> {
        if territory.len() != self.n() || edge.len() != self.n_edges() {
            return Err(invalid(format!(
                "labels need one territory id per territory ({}) and one edge id per directed \
                 border ({}), got {} and {}",
                self.n(),
                self.n_edges(),
                territory.len(),
                edge.len()
            )));
        }
        if let Some(x) = territory
            .iter()
            .position(|&id| !(0..MAX_TERRITORIES as i64).contains(&id))
        {
            return Err(invalid(format!(
                "territory {x} has id {} outside 0..{MAX_TERRITORIES}",
                territory[x]
            )));
        }
        check_increasing(territory)?;
        if let Some(e) = edge.iter().position(|&id| id < 0) {
            return Err(invalid(format!("directed border {e} has id {}", edge[e])));
        }
        self.labels = Some(Labels {
            territory: territory.iter().map(|&id| id as u32).collect(),
            edge: edge.iter().map(|&id| id as u64).collect(),
        });
        Ok(self)
    }

    /// `(rows, cols)` of the grid this board is, when [`Board::grid`] built it from a grid
    /// that is not a torus (territory `x` at row `x / cols`, column `x % cols`).
    #[inline]
    pub fn plane(&self) -> Option<(usize, usize)> {
        self.plane
    }

    /// A rank's part as the engine cut it ([`crate::share::Share`]): its `u32` CSR, labelled
    /// with the whole board's territory ids (increasing) and directed edge ids, the arrays
    /// taken without a copy.
    pub fn part(
        indptr: Vec<u32>,
        indices: Vec<u32>,
        territory: Vec<u32>,
        edge: Vec<u64>,
    ) -> Result<Self> {
        check_edges(indices.len())?;
        let n = territory.len();
        let shaped = indptr.len() == n + 1
            && indptr.first() == Some(&0)
            && indptr.last().map(|&o| o as usize) == Some(indices.len())
            && indptr.par_windows(2).all(|w| w[0] <= w[1])
            && edge.len() == indices.len();
        if !shaped || indices.par_iter().any(|&y| y as usize >= n) {
            return Err(invalid(format!(
                "a part's CSR of {n} territories and {} directed borders is malformed",
                indices.len()
            )));
        }
        check_increasing(&territory)?;
        let mut board = Self::with_reverse(indptr, indices)?;
        board.labels = Some(Labels { territory, edge });
        Ok(board)
    }

    /// The id of territory `x` in the random streams (its own index unless labelled).
    #[inline]
    pub fn territory_id(&self, x: usize) -> u64 {
        self.labels
            .as_ref()
            .map_or(x as u64, |labels| u64::from(labels.territory[x]))
    }

    /// The border id of the rules for the upward edge `e` (`x -> y`, `x < y`): its position
    /// in the whole board's CSR.
    #[inline]
    pub fn border_id(&self, e: usize) -> u64 {
        self.labels
            .as_ref()
            .map_or(e as u64, |labels| labels.edge[e])
    }

    pub fn n(&self) -> usize {
        match &self.rows {
            Kept::Stored { indptr, .. } => indptr.len() - 1,
            Kept::Plane(plane) => plane.n(),
        }
    }

    /// Number of directed edges (twice the number of borders).
    pub fn n_edges(&self) -> usize {
        match &self.rows {
            Kept::Stored { indices, .. } => indices.len(),
            Kept::Plane(plane) => plane.n_edges(),
        }
    }

    /// Number of (undirected) borders.
    pub fn n_borders(&self) -> usize {
        self.n_edges() / 2
    }

    /// How the board keeps its rows, for loops that take each way apart.
    #[inline]
    pub fn layout(&self) -> Layout<'_> {
        match &self.rows {
            Kept::Stored {
                indptr,
                indices,
                reverse,
            } => Layout::Stored {
                offsets: indptr,
                targets: indices,
                reverses: match reverse {
                    Reverse::Slot(slot) => Reverses::Slot {
                        slot,
                        offsets: indptr,
                    },
                    Reverse::Position(position) => Reverses::Position(position),
                },
            },
            &Kept::Plane(plane) => Layout::Plane(plane),
        }
    }

    /// Directed edge positions of territory `x`'s row.
    #[inline]
    pub fn row(&self, x: usize) -> Range<usize> {
        match &self.rows {
            Kept::Stored { indptr, .. } => indptr[x] as usize..indptr[x + 1] as usize,
            Kept::Plane(plane) => plane.row(x),
        }
    }

    /// The position of the first edge of territory `x`'s row (`n_edges()` for `x = n`).
    #[inline]
    pub fn row_start(&self, x: usize) -> usize {
        match &self.rows {
            Kept::Stored { indptr, .. } => indptr[x] as usize,
            Kept::Plane(plane) => plane.offset(x),
        }
    }

    /// Calls `visit(x, row)` for every territory `x` of `territories` in order, with its row:
    /// a stored board's offsets read once each, a plane grid's stepped along without a
    /// division.
    #[inline]
    pub fn each_row(&self, territories: Range<usize>, mut visit: impl FnMut(usize, Range<usize>)) {
        match &self.rows {
            Kept::Stored { indptr, .. } => {
                let offsets = &indptr[territories.start..=territories.end];
                for (x, ends) in territories.zip(offsets.windows(2)) {
                    visit(x, ends[0] as usize..ends[1] as usize);
                }
            }
            Kept::Plane(plane) => {
                let cols = plane.shape().1;
                let (mut r, mut c) = plane.cell(territories.start);
                let mut start = plane.offset_at(r, c);
                for x in territories {
                    let end = start + plane.degree_at(r, c);
                    visit(x, start..end);
                    start = end;
                    c += 1;
                    if c == cols {
                        (r, c) = (r + 1, 0);
                    }
                }
            }
        }
    }

    /// Asks the processor for the row of `x` where it is stored.
    #[inline]
    pub fn prefetch_row(&self, x: usize) {
        if let Kept::Stored {
            indptr, indices, ..
        } = &self.rows
        {
            prefetch(indices, indptr[x] as usize);
        }
    }

    /// The neighbours of territory `x`, ascending.
    #[inline(always)]
    pub fn neighbours(&self, x: usize) -> Neighbours<'_> {
        match &self.rows {
            Kept::Stored {
                indptr, indices, ..
            } => Neighbours::Stored(&indices[indptr[x] as usize..indptr[x + 1] as usize]),
            Kept::Plane(plane) => plane.neighbours(x),
        }
    }

    #[inline]
    pub fn target(&self, e: usize) -> usize {
        match &self.rows {
            Kept::Stored { indices, .. } => indices[e] as usize,
            Kept::Plane(plane) => plane.edge(e).1,
        }
    }

    /// The territory directed edge `e` leaves from.
    #[inline]
    pub fn source(&self, e: usize) -> usize {
        match &self.rows {
            Kept::Stored { .. } => self.target(self.reverse(e)),
            Kept::Plane(plane) => plane.edge(e).0,
        }
    }

    #[inline]
    pub fn reverse(&self, e: usize) -> usize {
        match &self.rows {
            Kept::Stored {
                indptr,
                indices,
                reverse,
            } => match reverse {
                Reverse::Slot(slot) => indptr[indices[e] as usize] as usize + usize::from(slot[e]),
                Reverse::Position(position) => position[e] as usize,
            },
            Kept::Plane(plane) => {
                let (x, y) = plane.edge(e);
                plane.reverse(x, y)
            }
        }
    }

    /// The position of the reverse of directed edge `e`, from `x` to `y`.
    #[inline]
    pub fn reverse_of(&self, e: usize, x: usize, y: usize) -> usize {
        match &self.rows {
            Kept::Stored { .. } => self.reverse(e),
            Kept::Plane(plane) => plane.reverse(x, y),
        }
    }

    /// Bytes the board's arrays take (labels included).
    pub fn heap_bytes(&self) -> usize {
        let labels = self
            .labels
            .as_ref()
            .map_or(0, |l| 4 * l.territory.capacity() + 8 * l.edge.capacity());
        let rows = match &self.rows {
            Kept::Stored {
                indptr,
                indices,
                reverse,
            } => {
                let reverse = match reverse {
                    Reverse::Slot(slot) => slot.capacity(),
                    Reverse::Position(position) => 4 * position.capacity(),
                };
                4 * (indptr.capacity() + indices.capacity()) + reverse
            }
            Kept::Plane(_) => 0,
        };
        rows + labels
    }
}

/// How a board keeps its rows ([`Board::layout`]).
#[derive(Clone, Copy, Debug)]
pub enum Layout<'a> {
    /// Every row's offset and the target of every directed edge, in CSR order, and their
    /// reverses.
    Stored {
        offsets: &'a [u32],
        targets: &'a [u32],
        reverses: Reverses<'a>,
    },
    /// A grid that is not a torus, in closed form.
    Plane(Plane),
}

/// The reverses of a board's stored directed edges ([`Layout::Stored`]).
#[derive(Clone, Copy, Debug)]
pub enum Reverses<'a> {
    /// The place of the source in the target's row, and every row's offset.
    Slot { slot: &'a [u8], offsets: &'a [u32] },
    /// The position of every reverse.
    Position(&'a [u32]),
}

/// `entry(start, k)` for every directed edge `x -> y`, where `y`'s row starts at `start` and
/// lists `x` at its place `k`; in place, a block of rows per task. Fails on an edge listed
/// one way only.
fn reverse_table<T: Copy + Default + Send + Sync>(
    indptr: &[u32],
    indices: &[u32],
    entry: impl Fn(usize, usize) -> T + Sync,
) -> Result<Vec<T>> {
    let n = indptr.len().saturating_sub(1);
    let mut table = memory::filled(indices.len(), T::default());
    let mut blocks = Vec::with_capacity(n.div_ceil(ROWS_PER_TASK));
    let mut rest = table.as_mut_slice();
    for first in (0..n).step_by(ROWS_PER_TASK) {
        let last = (first + ROWS_PER_TASK).min(n);
        // Checked: the offsets rise to indices.len().
        let (block, tail) = rest.split_at_mut((indptr[last] - indptr[first]) as usize);
        blocks.push((first..last, block));
        rest = tail;
    }
    blocks.into_par_iter().try_for_each(|(rows, block)| {
        let base = indptr[rows.start] as usize;
        for x in rows {
            for e in indptr[x] as usize..indptr[x + 1] as usize {
                let y = indices[e] as usize;
                let (start, end) = (indptr[y] as usize, indptr[y + 1] as usize);
                // The check found every edge listed both ways.
                let k = indices[start..end]
                    .binary_search(&(x as u32))
                    .map_err(|_| invalid(format!("border {x} -> {y} has no reverse")))?;
                block[e - base] = entry(start, k);
            }
        }
        Ok(())
    })?;
    Ok(table)
}

/// The neighbours of every territory of the grid of `(rows, cols)` (not a torus) whose
/// offsets are `indptr`, and the position of the reverse of every directed edge, in place, a
/// block of territories per task. A row lists up, left, right, down (ascending); `x`'s place
/// in its neighbour's row is the count of that neighbour's neighbours below `x`.
fn plane_rows(
    (rows, cols): (usize, usize),
    indptr: &[u32],
    indices: &mut [u32],
    position: &mut [u32],
    cancel: &Cancel,
) -> Result<()> {
    let n = indptr.len() - 1;
    let mut blocks = Vec::with_capacity(n.div_ceil(ROWS_PER_TASK));
    let (mut targets, mut reverses) = (indices, position);
    for first in (0..n).step_by(ROWS_PER_TASK) {
        let last = (first + ROWS_PER_TASK).min(n);
        let length = (indptr[last] - indptr[first]) as usize;
        let (block, tail) = std::mem::take(&mut targets).split_at_mut(length);
        let (reverse_block, reverse_tail) = std::mem::take(&mut reverses).split_at_mut(length);
        blocks.push((first..last, block, reverse_block));
        (targets, reverses) = (tail, reverse_tail);
    }
    blocks
        .into_par_iter()
        .try_for_each(|(territories, targets, reverses)| {
            cancel.check()?;
            let base = indptr[territories.start] as usize;
            let (mut r, mut c) = (territories.start / cols, territories.start % cols);
            for x in territories {
                let (up, left, right, down) = (r > 0, c > 0, c + 1 < cols, r + 1 < rows);
                let neighbours = [
                    (
                        up,
                        x.wrapping_sub(cols),
                        usize::from(r > 1) + usize::from(left) + usize::from(right),
                    ),
                    (
                        left,
                        x.wrapping_sub(1),
                        usize::from(up) + usize::from(c > 1),
                    ),
                    (right, x + 1, usize::from(up)),
                    (down, x + cols, 0),
                ];
                let mut e = indptr[x] as usize - base;
                for (present, y, k) in neighbours {
                    if present {
                        targets[e] = y as u32;
                        reverses[e] = indptr[y] + k as u32;
                        e += 1;
                    }
                }
                c += 1;
                if c == cols {
                    (r, c) = (r + 1, 0);
                }
            }
            Ok(())
        })
}

/// Asks the processor to bring `values[i]` into its cache (nothing when `i` is out of range,
/// nor on targets other than x86-64).
#[inline(always)]
pub(crate) fn prefetch<T>(values: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(value) = values.get(i) {
        // SAFETY: a prefetch neither reads nor writes memory as the program sees it, and the
        // pointer comes from a reference.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast::<i8>());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (values, i);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path3() -> Result<Board> {
        // 0 - 1 - 2
        Board::from_csr(&[0, 1, 3, 4], &[1, 0, 2, 1])
    }

    #[test]
    fn builds_reverse_edges() -> Result<()> {
        let b = path3()?;
        assert_eq!(b.n(), 3);
        assert_eq!(b.n_borders(), 2);
        assert_eq!(b.reverse(0), 1);
        assert_eq!(b.reverse(2), 3);
        assert_eq!((b.source(2), b.target(2)), (1, 2));
        assert_eq!(b.row(1), 1..3);
        Ok(())
    }

    #[test]
    fn one_byte_reverses_play_the_game_of_positions() -> Result<()> {
        use crate::game::{Game, Params};
        use crate::policy::{Budget, Policy};
        use std::sync::Arc;
        for grid in [
            Grid::plane(40, 37),
            Grid {
                rows: 9,
                cols: 12,
                torus: true,
            },
        ] {
            let (indptr, indices) = grid.csr_as::<u32>()?;
            let slots = Board::with_reverse_above(indptr.clone(), indices.clone(), 0)?;
            let positions = Board::with_reverse_above(indptr, indices, usize::MAX)?;
            let kept = |board: &Board| match &board.rows {
                Kept::Stored { reverse, .. } => Some(reverse.clone()),
                Kept::Plane(_) => None,
            };
            assert!(matches!(kept(&slots), Some(Reverse::Slot(_))));
            assert!(matches!(kept(&positions), Some(Reverse::Position(_))));
            for e in 0..slots.n_edges() {
                assert_eq!(slots.reverse(e), positions.reverse(e));
                let (x, y, back) = (slots.source(e), slots.target(e), slots.reverse(e));
                assert_eq!(slots.reverse_of(e, x, y), back);
                assert_eq!(positions.reverse_of(e, x, y), back);
            }
            // A plane grid's rows and reverses in closed form (the torus keeps its slots).
            let closed = Board::grid_above(&grid, 0, &Cancel::new())?;
            let n = slots.n();
            let team: Vec<i64> = (0..n as i64).map(|x| (x * 7 / n as i64) % 3).collect();
            let troops: Vec<i64> = (0..n as i64).map(|x| 1 + x % 9).collect();
            let params = Params {
                seed: 5,
                rate_ppm: 200_000,
                cap: 1 << 20,
                max_turns: None,
            };
            let searching = Policy::Search(Budget {
                rollouts: 2,
                depth: 2,
            });
            for policies in [
                vec![Policy::Balanced, Policy::Aggressive, Policy::Random],
                vec![Policy::Opportunist, searching, Policy::Balanced],
            ] {
                let boards = [&slots, &positions, &closed].map(|board| Arc::new(board.clone()));
                let mut games =
                    boards.map(|board| Game::new(board, &team, &troops, policies.clone(), params));
                for _ in 0..12 {
                    for game in games.iter_mut() {
                        crate::search::step(game.as_mut().map_err(|e| e.clone())?, None)?;
                    }
                }
                let [a, b, c] = games;
                let (a, b, c) = (a?, b?, c?);
                assert_eq!((a.team(), a.troops()), (b.team(), b.troops()));
                assert_eq!((c.team(), c.troops()), (b.team(), b.troops()));
                assert_eq!(c.history(), b.history());
            }
        }
        Ok(())
    }

    #[test]
    fn refuses_malformed_graphs() {
        let cases: [(&[i64], &[i64], &str); 5] = [
            (&[0, 1, 1], &[1], "1 does not list 0"),
            (&[0, 1, 2], &[0, 0], "lists itself"),
            (&[0, 2, 3], &[1, 1, 0], "edge (0, 1) is listed twice"),
            (&[0, 1, 2], &[5, 0], "outside 0..1"),
            (&[0, 2, 1], &[1, 0], "indptr"),
        ];
        for (indptr, indices, fragment) in cases {
            match Board::from_csr(indptr, indices) {
                Err(Error::InvalidBoard(m)) => assert!(m.contains(fragment), "{m}"),
                other => panic!("expected InvalidBoard({fragment}), got {other:?}"),
            }
        }
    }

    #[test]
    fn a_grid_is_the_board_of_its_csr() -> Result<()> {
        let mut shapes = Vec::new();
        for rows in 1..7 {
            for cols in 1..7 {
                shapes.push(Grid::plane(rows, cols));
                if rows >= 3 && cols >= 3 {
                    shapes.push(Grid {
                        rows,
                        cols,
                        torus: true,
                    });
                }
            }
        }
        shapes.push(Grid::plane(1, 40_000));
        shapes.push(Grid {
            rows: 129,
            cols: 257,
            torus: true,
        });
        shapes.push(Grid::plane(17, 23));
        for grid in shapes {
            let (indptr, indices) = grid.csr()?;
            assert_eq!(
                Board::grid(&grid)?,
                Board::from_csr(&indptr, &indices)?,
                "{grid:?}"
            );
            // No rows kept on a plane grid as large as the largest boards: every row, offset,
            // neighbour and reverse in closed form is the stored one.
            let positions = Board::from_csr(&indptr, &indices)?;
            let found = Board::grid_above(&grid, 0, &Cancel::new())?;
            let plane = matches!(found.rows, Kept::Plane(_));
            assert_eq!(plane, !grid.torus && found.n_edges() > 0, "{grid:?}");
            assert_eq!(
                (found.n(), found.n_edges()),
                (positions.n(), positions.n_edges())
            );
            for x in 0..=found.n() {
                assert_eq!(found.row_start(x), positions.row_start(x), "{grid:?}, {x}");
            }
            for x in 0..found.n() {
                assert_eq!(found.row(x), positions.row(x), "{grid:?}, {x}");
                assert_eq!(
                    *found.neighbours(x),
                    *positions.neighbours(x),
                    "{grid:?}, {x}"
                );
            }
            for e in 0..found.n_edges() {
                let (x, y) = (positions.source(e), positions.target(e));
                assert_eq!((found.source(e), found.target(e)), (x, y), "{grid:?}, {e}");
                assert_eq!(found.reverse(e), positions.reverse(e), "{grid:?}, {e}");
                assert_eq!(found.reverse_of(e, x, y), positions.reverse(e), "{grid:?}");
            }
            if let Layout::Plane(closed) = found.layout() {
                for x in 0..found.n() {
                    let (r, c) = closed.cell(x);
                    assert_eq!((r, c), (x / closed.shape().1, x % closed.shape().1));
                    let (edges, len) = closed.edges_at(x, r, c, found.row_start(x));
                    let expected: Vec<(u32, usize)> = positions
                        .row(x)
                        .map(|e| (positions.target(e) as u32, positions.reverse(e)))
                        .collect();
                    assert_eq!(edges[..len], expected, "{grid:?}, {x}");
                }
            }
        }
        Ok(())
    }

    #[test]
    fn a_grid_stops_when_cancelled() {
        let cancel = Cancel::new();
        cancel.cancel();
        for torus in [false, true] {
            let grid = Grid {
                rows: 50,
                cols: 60,
                torus,
            };
            let built = Board::grid_watched(&grid, &cancel);
            assert!(matches!(built, Err(Error::Interrupted)), "{grid:?}");
        }
    }

    #[test]
    fn refuses_grids_the_generator_refuses() {
        let cases = [
            (0, 3, false, "1 to"),
            (3, -1, false, "1 to"),
            (1 << 32, 1 << 32, false, "1 to"),
            (2, 5, true, "at least 3 rows"),
        ];
        for (rows, cols, torus, fragment) in cases {
            match Board::grid(&Grid { rows, cols, torus }) {
                Err(Error::InvalidParameter(m)) => assert!(m.contains(fragment), "{m}"),
                other => panic!("expected InvalidParameter({fragment}), got {other:?}"),
            }
        }
        // Fits in u32 territories, but not its directed borders.
        match Board::grid(&Grid {
            rows: 1 << 16,
            cols: 1 << 15,
            torus: true,
        }) {
            Err(Error::InvalidBoard(m)) => assert!(m.contains("too many borders"), "{m}"),
            other => panic!("expected too many borders, got {other:?}"),
        }
    }
}
