//! The 100x100 grid: cells, directions, diamonds and the land/water terrain.
//!
//! A cell is its flat index `100 * y + x` (a `u16`); arrays are row-major `[y][x]`.

pub const SIZE: usize = 100;
pub const CELLS: usize = SIZE * SIZE;
pub type Cell = u16;

/// Arrays indexed by cell have a slot for every `u16`, so indexing one with a `Cell` needs no
/// bounds check in the hot loops (only the first `CELLS` slots are ever used).
pub const SLOTS: usize = 1 << 16;
pub type PerCell<T> = Box<[T; SLOTS]>;

/// A per-cell array holding `value` everywhere.
pub fn per_cell<T: Copy>(value: T) -> PerCell<T> {
    let slots: Box<[T]> = vec![value; SLOTS].into_boxed_slice();
    match slots.try_into() {
        Ok(array) => array,
        Err(_) => unreachable!("a vector of SLOTS values converts to an array of SLOTS"),
    }
}

/// Home cells of empires 0..3: the four corners, clockwise from the top left.
pub const HOMES: [Cell; 4] = [0, 99, 9999, 9900];

/// Direction numbers: 0 stay, 1 north (y - 1), 2 east (x + 1), 3 south (y + 1), 4 west.
pub const STAY: u8 = 0;
pub const DIRECTIONS: u8 = 5;
pub const DIRECTION_NAMES: [&str; 5] = ["stay", "north", "east", "south", "west"];
const DX: [i32; 5] = [0, 0, 1, 0, -1];
const DY: [i32; 5] = [0, -1, 0, 1, 0];

#[inline]
pub fn x_of(cell: Cell) -> i32 {
    i32::from(cell) % SIZE as i32
}

#[inline]
pub fn y_of(cell: Cell) -> i32 {
    i32::from(cell) / SIZE as i32
}

/// The cell at `(x, y)`, or `None` outside the grid.
#[inline]
pub fn cell_at(x: i32, y: i32) -> Option<Cell> {
    if (0..SIZE as i32).contains(&x) && (0..SIZE as i32).contains(&y) {
        Some((y * SIZE as i32 + x) as Cell)
    } else {
        None
    }
}

/// The cell one step from `cell` in `direction` (stay gives the cell), or `None` off the grid.
#[inline]
pub fn step(cell: Cell, direction: u8) -> Option<Cell> {
    let d = usize::from(direction);
    cell_at(x_of(cell) + DX[d], y_of(cell) + DY[d])
}

/// `(x, y)` as written in messages.
pub fn describe(cell: Cell) -> String {
    format!("({}, {})", x_of(cell), y_of(cell))
}

/// Calls `visit(y, left, right)` for every row `y` of the diamond of radius `r` around
/// `centre`, with the columns `left..=right` it covers there (clipped to the grid).
#[inline]
pub fn for_diamond_rows(centre: Cell, r: u32, mut visit: impl FnMut(usize, usize, usize)) {
    let (cx, cy) = (x_of(centre), y_of(centre));
    let r = r as i32;
    let top = (cy - r).max(0);
    let bottom = (cy + r).min(SIZE as i32 - 1);
    for y in top..=bottom {
        let half = r - (y - cy).abs();
        let left = (cx - half).max(0);
        let right = (cx + half).min(SIZE as i32 - 1);
        visit(y as usize, left as usize, right as usize);
    }
}

/// Calls `visit` for every cell of the diamond of radius `r` around `centre`, row by row.
#[inline]
pub fn for_diamond(centre: Cell, r: u32, mut visit: impl FnMut(Cell)) {
    for_diamond_rows(centre, r, |y, left, right| {
        for x in left..=right {
            visit((y * SIZE + x) as Cell);
        }
    });
}

/// For a step of one cell from `from` in `direction` (1..4): calls `visit(cell, true)` for
/// every cell of the new diamond that is not in the old one and `visit(cell, false)` for every
/// cell of the old diamond that is not in the new one (both at distance exactly r from their
/// own centre, on the far sides).
#[inline]
pub fn for_diamond_edges(from: Cell, direction: u8, r: u32, mut visit: impl FnMut(Cell, bool)) {
    let d = usize::from(direction);
    let (px, py) = (x_of(from), y_of(from));
    let (dx, dy) = (DX[d], DY[d]);
    let r = r as i32;
    for offset in -r..=r {
        let reach = r - offset.abs();
        // Along the step's axis the new edge lies `reach` beyond the new centre, the old edge
        // `reach` behind the old centre.
        let (gain_cell, lost_cell) = if dx != 0 {
            (
                cell_at(px + dx + dx * reach, py + offset),
                cell_at(px - dx * reach, py + offset),
            )
        } else {
            (
                cell_at(px + offset, py + dy + dy * reach),
                cell_at(px + offset, py - dy * reach),
            )
        };
        if let Some(c) = gain_cell {
            visit(c, true);
        }
        if let Some(c) = lost_cell {
            visit(c, false);
        }
    }
}

/// The cells [`for_diamond_edges`] visits, as offsets from the step's start, for starts far
/// enough from the border that every one of them is inside the grid (most outposts): the
/// players' inner loop then reads a table instead of clipping each cell.
pub struct Edges {
    r: u32,
    /// `gained[d]`, `lost[d]`: the offsets for direction `d`.
    gained: [Vec<i32>; DIRECTIONS as usize],
    lost: [Vec<i32>; DIRECTIONS as usize],
}

impl Edges {
    pub fn new(r: u32) -> Self {
        let mut edges = Self {
            r,
            gained: Default::default(),
            lost: Default::default(),
        };
        let centre = (SIZE / 2 * (SIZE + 1)) as Cell;
        if edges.fits(centre) {
            for direction in 1..DIRECTIONS {
                let d = usize::from(direction);
                for_diamond_edges(centre, direction, r, |c, gained| {
                    let offset = i32::from(c) - i32::from(centre);
                    if gained {
                        edges.gained[d].push(offset);
                    } else {
                        edges.lost[d].push(offset);
                    }
                });
            }
        }
        edges
    }

    pub fn radius(&self) -> u32 {
        self.r
    }

    /// Whether the diamonds of radius r around `from` and its four neighbours lie inside the
    /// grid.
    #[inline]
    fn fits(&self, from: Cell) -> bool {
        let r = self.r as i32;
        let inside = |v: i32| v > r && v + r + 1 < SIZE as i32;
        inside(x_of(from)) && inside(y_of(from))
    }

    /// The same visits as [`for_diamond_edges`], gained cells first.
    #[inline]
    pub fn visit(&self, from: Cell, direction: u8, mut visit: impl FnMut(Cell, bool)) {
        if !self.fits(from) {
            return for_diamond_edges(from, direction, self.r, visit);
        }
        let d = usize::from(direction);
        let (Some(gained), Some(lost)) = (self.gained.get(d), self.lost.get(d)) else {
            return;
        };
        for &offset in gained {
            visit((i32::from(from) + offset) as Cell, true);
        }
        for &offset in lost {
            visit((i32::from(from) + offset) as Cell, false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distance(a: Cell, b: Cell) -> i32 {
        (x_of(a) - x_of(b)).abs() + (y_of(a) - y_of(b)).abs()
    }

    #[test]
    fn diamond_edges_are_the_set_differences() {
        for &from in &[0u16, 5, 99, 505, 4950, 9999, 1234] {
            for r in [0u32, 1, 3, 7] {
                for direction in 1..DIRECTIONS {
                    let Some(to) = step(from, direction) else {
                        continue;
                    };
                    let mut gained = Vec::new();
                    let mut lost = Vec::new();
                    for_diamond_edges(from, direction, r, |c, gain| {
                        if gain {
                            gained.push(usize::from(c))
                        } else {
                            lost.push(usize::from(c))
                        }
                    });
                    gained.sort_unstable();
                    lost.sort_unstable();
                    let within = |c: usize, centre: Cell| distance(c as Cell, centre) <= r as i32;
                    let want_gained: Vec<usize> = (0..CELLS)
                        .filter(|&c| within(c, to) && !within(c, from))
                        .collect();
                    let want_lost: Vec<usize> = (0..CELLS)
                        .filter(|&c| within(c, from) && !within(c, to))
                        .collect();
                    assert_eq!(gained, want_gained, "from {from} dir {direction} r {r}");
                    assert_eq!(lost, want_lost, "from {from} dir {direction} r {r}");
                }
            }
        }
    }

    #[test]
    fn edge_tables_visit_the_same_cells() {
        for r in [0u32, 1, 7, 12, 48, 49, 60] {
            let edges = Edges::new(r);
            for from in (0..CELLS as Cell).step_by(37) {
                for direction in 1..DIRECTIONS {
                    let mut want = Vec::new();
                    for_diamond_edges(from, direction, r, |c, g| want.push((c, g)));
                    let mut got = Vec::new();
                    edges.visit(from, direction, |c, g| got.push((c, g)));
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, want, "r {r} from {from} direction {direction}");
                }
            }
        }
    }

    #[test]
    fn diamond_is_the_ball() {
        for &centre in &[0u16, 99, 4545, 9950] {
            let mut seen = Vec::new();
            for_diamond(centre, 7, |c| seen.push(usize::from(c)));
            let want: Vec<usize> = (0..CELLS)
                .filter(|&c| distance(c as Cell, centre) <= 7)
                .collect();
            assert_eq!(seen, want);
        }
    }
}
