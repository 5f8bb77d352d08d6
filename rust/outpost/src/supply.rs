//! Supply lines (`docs/outpost-rules.md`, "A turn", step 3): which cells are reached from an
//! empire's home, and which outposts are cut off.

use crate::control::NEUTRAL;
use crate::grid::{Cell, HOMES, SIZE};
use crate::params::Outpost;
use crate::rows::{self, EMPTY, Row, Rows};
use crate::terrain::Terrain;

/// The cells reached from one empire's home, as bit rows.
#[derive(Clone)]
pub struct Reach {
    reached: Rows,
}

impl Default for Reach {
    fn default() -> Self {
        Self { reached: EMPTY }
    }
}

impl Reach {
    /// Searches from `empire`'s home on `control` until every cell of `wanted` is known to be
    /// reached or not: the passable cells (land held by the empire or by nobody) joined to
    /// the home through passable cells. `fringe`: the 2014 simulator's search, which tested
    /// the cell it expanded from rather than the neighbour, so it also reaches the home itself
    /// and the land next to the passable cells it reached.
    pub fn search(
        &mut self,
        terrain: &Terrain,
        control: &[i8],
        empire: u8,
        fringe: bool,
        wanted: impl Iterator<Item = Cell>,
    ) {
        let mut cells = EMPTY;
        for cell in wanted {
            rows::insert(&mut cells, cell);
        }
        self.search_rows(terrain, control, empire, fringe, &cells);
    }

    /// [`Reach::search`] for the cells of `wanted`, as rows.
    pub fn search_rows(
        &mut self,
        terrain: &Terrain,
        control: &[i8],
        empire: u8,
        fringe: bool,
        wanted: &Rows,
    ) {
        let mut passable = rows::matching(control, NEUTRAL, empire as i8);
        rows::intersect(&mut passable, terrain.land_rows());
        self.search_passable(terrain, &passable, empire, fringe, wanted);
    }

    /// [`Reach::search_rows`] from `empire`'s `passable` cells (land held by the empire or by
    /// nobody).
    pub fn search_passable(
        &mut self,
        terrain: &Terrain,
        passable: &Rows,
        empire: u8,
        fringe: bool,
        wanted: &Rows,
    ) {
        let passable = *passable;
        // A cell that is not passable is never reached by the default rule, so it does not
        // hold the search open; the fringe rule's answers need the whole flood.
        let mut open_wanted = passable;
        if !fringe {
            rows::intersect(&mut open_wanted, wanted);
        }
        let home = HOMES[usize::from(empire)];
        self.reached = EMPTY;
        if rows::contains(&passable, home) {
            rows::insert(&mut self.reached, home);
            rows::flood(&mut self.reached, &passable, &open_wanted);
        }
        if fringe {
            self.reached = rows::grow(&self.reached);
            rows::intersect(&mut self.reached, terrain.land_rows());
            rows::insert(&mut self.reached, home);
        }
    }

    /// The cells the last search reached (all of them for the cells it was asked about).
    pub fn rows(&self) -> &Rows {
        &self.reached
    }

    /// Whether the last search reached `cell` (one of the cells it was asked about).
    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        rows::contains(&self.reached, cell)
    }
}

/// The land cells passable for an empire whose outposts stand on `own` while the other
/// empires' stand on `others` (land neutral or held by the empire), without the control map,
/// for radius `r`: a cell at distance `d` from the nearest of `own` is passable when no other
/// outpost is within `min(d, r)` (the empire holds it alone, or nobody holds it). The cells
/// within `k` of a set of outposts are the set grown `k` times, so this is `2r` growths of
/// bit rows: less than a control map for the small radii.
pub fn passable(
    own: impl Iterator<Item = Cell>,
    others: impl Iterator<Item = Cell>,
    r: u32,
    land: &Rows,
) -> Rows {
    // Rows padded by an empty row on each side: row y of the grid is index y + 1.
    let mut buffers = [[0 as Row; SIZE + 2]; 4];
    let [near_own, near_other, grown_own, grown_other] = &mut buffers;
    let (mut near_own, mut near_other) = (near_own, near_other);
    let (mut grown_own, mut grown_other) = (grown_own, grown_other);
    for cell in own {
        let c = usize::from(cell);
        near_own[c / SIZE + 1] |= 1 << (c % SIZE);
    }
    for cell in others {
        let c = usize::from(cell);
        near_other[c / SIZE + 1] |= 1 << (c % SIZE);
    }
    // Distance 0: own outposts' cells no other outpost shares.
    let mut cells = EMPTY;
    for (y, row) in cells.iter_mut().enumerate() {
        *row = near_own[y + 1] & !near_other[y + 1];
    }
    let grow = |rows: &[Row; SIZE + 2], y: usize| {
        let row = rows[y];
        (row | row << 1 | row >> 1 | rows[y - 1] | rows[y + 1]) & rows::FULL
    };
    for _ in 0..r {
        // One step farther: the cells first within k of own, and no other within k.
        for (y, row) in cells.iter_mut().enumerate() {
            let (own, other) = (grow(near_own, y + 1), grow(near_other, y + 1));
            *row |= own & !near_own[y + 1] & !other;
            grown_own[y + 1] = own;
            grown_other[y + 1] = other;
        }
        std::mem::swap(&mut near_own, &mut grown_own);
        std::mem::swap(&mut near_other, &mut grown_other);
    }
    // Farther than r from every outpost: neutral.
    for (y, row) in cells.iter_mut().enumerate() {
        *row |= !near_own[y + 1] & !near_other[y + 1] & rows::FULL;
        *row &= land[y];
    }
    cells
}

/// Marks `cut[i]` for every outpost not reached from its empire's home; returns how many.
pub fn cut_off(
    terrain: &Terrain,
    control: &[i8],
    outposts: &[Outpost],
    fringe: bool,
    reach: &mut Reach,
    cut: &mut Vec<bool>,
) -> usize {
    cut.clear();
    cut.resize(outposts.len(), false);
    let mut count = 0;
    for empire in 0..4u8 {
        if !outposts.iter().any(|o| o.empire == empire) {
            continue;
        }
        let own = outposts.iter().filter(|o| o.empire == empire);
        reach.search(terrain, control, empire, fringe, own.map(|o| o.cell));
        for (flag, outpost) in cut.iter_mut().zip(outposts) {
            if outpost.empire == empire && !reach.contains(outpost.cell) {
                *flag = true;
                count += 1;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::ControlWork;
    use crate::grid::CELLS;

    #[test]
    fn passable_cells_without_the_control_map() {
        let mut state = 4242u64;
        let mut next = move || crate::lcg(&mut state) >> 33;
        let land: Rows = std::array::from_fn(|_| rows::FULL & !(0b1011 << 40));
        let mut work = ControlWork::default();
        let mut control = vec![0i8; CELLS];
        for r in [0u32, 1, 2, 3, 7, 14] {
            for case in 0..12u64 {
                // Clustered half of the time: ties and shared cells.
                let spread = if case % 2 == 0 { 100 } else { 8 };
                let outposts: Vec<Outpost> = (0..1 + case * 7)
                    .map(|id| Outpost {
                        id: id as u32,
                        empire: (next() % 4) as u8,
                        cell: ((40 + next() % spread) % 100 * 100 + next() % 100) as Cell,
                    })
                    .collect();
                work.compute(&outposts, r, &mut control);
                for empire in 0..4u8 {
                    let mut want = rows::matching(&control, NEUTRAL, empire as i8);
                    rows::intersect(&mut want, &land);
                    let (own, others): (Vec<&Outpost>, Vec<&Outpost>) =
                        outposts.iter().partition(|o| o.empire == empire);
                    let got = passable(
                        own.iter().map(|o| o.cell),
                        others.iter().map(|o| o.cell),
                        r,
                        &land,
                    );
                    assert_eq!(got, want, "r {r} case {case} empire {empire}");
                }
            }
        }
    }
}
