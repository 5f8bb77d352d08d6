//! Supply lines (`docs/outpost-rules.md`, "A turn", step 3): which cells are reached from an
//! empire's home, and which outposts are cut off.

use crate::control::NEUTRAL;
use crate::game::Outpost;
use crate::grid::{Cell, HOMES, NONE, PerCell, Terrain, per_cell};

/// The cells reached from one empire's home, marked by a generation stamp so that a new search
/// does not clear the whole grid. A search stops once every cell it was asked about is
/// reached: the answers about those cells are the same, and the search stays within the
/// empire's outposts instead of flooding the neutral land beyond.
pub struct Reach {
    stamp: PerCell<u32>,
    wanted: PerCell<u32>,
    generation: u32,
    queue: Vec<Cell>,
    missing: usize,
}

#[inline]
fn passable(terrain: &Terrain, control: &[i8], empire: u8, cell: usize) -> bool {
    !terrain.is_water(cell) && (control[cell] == NEUTRAL || control[cell] == empire as i8)
}

impl Default for Reach {
    fn default() -> Self {
        Self {
            stamp: per_cell(0),
            wanted: per_cell(0),
            generation: 0,
            queue: Vec::new(),
            missing: 0,
        }
    }
}

impl Reach {
    fn start(&mut self, wanted: impl Iterator<Item = Cell>) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.wanted.fill(0);
            self.generation = 1;
        }
        self.queue.clear();
        self.missing = 0;
        for cell in wanted {
            let c = usize::from(cell);
            if self.wanted[c] != self.generation {
                self.wanted[c] = self.generation;
                self.missing += 1;
            }
        }
    }

    #[inline]
    fn mark(&mut self, cell: Cell) {
        let c = usize::from(cell);
        self.stamp[c] = self.generation;
        self.queue.push(cell);
        if self.wanted[c] == self.generation {
            self.missing -= 1;
        }
    }

    /// Searches from `empire`'s home on `control` until every cell of `wanted` is known to be
    /// reached or not. `fringe`: the 2014 simulator's search, which tested the cell it
    /// expanded from rather than the neighbour.
    pub fn search(
        &mut self,
        terrain: &Terrain,
        control: &[i8],
        empire: u8,
        fringe: bool,
        wanted: impl Iterator<Item = Cell>,
    ) {
        // Under the default rule a cell that is not passable is never reached: leaving it out
        // of the wanted cells keeps it from holding the search open to the end.
        self.start(
            wanted.filter(|&c| fringe || passable(terrain, control, empire, usize::from(c))),
        );
        let home = HOMES[usize::from(empire)];
        if fringe || passable(terrain, control, empire, usize::from(home)) {
            self.mark(home);
        }
        let mut next = 0;
        while next < self.queue.len() && self.missing > 0 {
            let cell = usize::from(self.queue[next]);
            next += 1;
            if fringe && !passable(terrain, control, empire, cell) {
                continue;
            }
            for &n in terrain.land_neighbours(cell) {
                if n == NONE {
                    continue;
                }
                let n_index = usize::from(n);
                if self.stamp[n_index] != self.generation
                    && (fringe || passable(terrain, control, empire, n_index))
                {
                    self.mark(n);
                }
            }
        }
    }

    /// Whether `cell` (one of the wanted cells) was reached by the last search.
    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        self.stamp[usize::from(cell)] == self.generation
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
