//! Supply lines (`docs/outpost-rules.md`, "A turn", step 3): which cells are reached from an
//! empire's home, and which outposts are cut off.

use crate::control::NEUTRAL;
use crate::grid::{Cell, HOMES};
use crate::params::Outpost;
use crate::rows::{self, EMPTY, Rows};
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
