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

#[cfg(test)]
mod tests {
    use super::*;

    fn distance(a: Cell, b: Cell) -> i32 {
        (x_of(a) - x_of(b)).abs() + (y_of(a) - y_of(b)).abs()
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
