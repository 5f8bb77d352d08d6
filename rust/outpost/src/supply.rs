//! Supply lines (`docs/outpost-rules.md`, "A turn", step 3): which cells are reached from an
//! empire's home, and which outposts are cut off.

use crate::control::NEUTRAL;
use crate::game::Outpost;
use crate::grid::{CELLS, Cell, HOMES, SIZE, Terrain};

/// Words of a bit set with a bit for every cell: a power of two above `CELLS / 64`, so that
/// masking a word index (cheaper than a bounds check) keeps it in range.
const WORDS: usize = 256;
const _: () = assert!(WORDS * 64 >= CELLS && WORDS.is_power_of_two());

/// One bit per cell (2 kB), so a search's marks stay in the fastest cache.
#[derive(Clone)]
struct CellBits([u64; WORDS]);

impl CellBits {
    #[inline]
    fn get(&self, cell: usize) -> bool {
        self.0[(cell >> 6) & (WORDS - 1)] >> (cell & 63) & 1 == 1
    }

    #[inline]
    fn set(&mut self, cell: usize) {
        self.0[(cell >> 6) & (WORDS - 1)] |= 1 << (cell & 63);
    }

    fn clear(&mut self) {
        self.0.fill(0);
    }
}

/// The cells reached from one empire's home. A search stops once every cell it was asked
/// about is settled: the answers about those cells are the same, and the search stays near
/// the empire's outposts instead of flooding the neutral land beyond.
#[derive(Clone)]
pub struct Reach {
    reached: CellBits,
    wanted: CellBits,
    queue: Vec<Cell>,
    missing: usize,
}

impl Default for Reach {
    fn default() -> Self {
        Self {
            reached: CellBits([0; WORDS]),
            wanted: CellBits([0; WORDS]),
            queue: Vec::new(),
            missing: 0,
        }
    }
}

#[inline]
fn passable(terrain: &Terrain, control: &[i8], empire: u8, cell: usize) -> bool {
    !terrain.is_water(cell) && (control[cell] == NEUTRAL || control[cell] == empire as i8)
}

impl Reach {
    fn start(&mut self, wanted: impl Iterator<Item = Cell>) {
        self.reached.clear();
        self.wanted.clear();
        self.queue.clear();
        self.missing = 0;
        for cell in wanted {
            let c = usize::from(cell);
            if !self.wanted.get(c) {
                self.wanted.set(c);
                self.missing += 1;
            }
        }
    }

    #[inline]
    fn mark(&mut self, cell: usize) {
        self.reached.set(cell);
        self.queue.push(cell as Cell);
        if self.wanted.get(cell) {
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
        let home = usize::from(HOMES[usize::from(empire)]);
        if fringe || passable(terrain, control, empire, home) {
            self.mark(home);
        }
        let mut next = 0;
        while next < self.queue.len() && self.missing > 0 {
            let cell = usize::from(self.queue[next]);
            next += 1;
            if fringe && !passable(terrain, control, empire, cell) {
                continue;
            }
            // The orthogonal neighbours inside the grid, computed rather than looked up.
            let x = cell % SIZE;
            let around = [
                (cell >= SIZE, cell.wrapping_sub(SIZE)),
                (x + 1 < SIZE, cell + 1),
                (cell + SIZE < CELLS, cell + SIZE),
                (x > 0, cell.wrapping_sub(1)),
            ];
            for (inside, n) in around {
                if inside
                    && !self.reached.get(n)
                    && (if fringe {
                        !terrain.is_water(n)
                    } else {
                        passable(terrain, control, empire, n)
                    })
                {
                    self.mark(n);
                }
            }
        }
    }

    /// Whether `cell` (one of the wanted cells) was reached by the last search.
    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        self.reached.get(usize::from(cell))
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
