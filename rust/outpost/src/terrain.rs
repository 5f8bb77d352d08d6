//! The land and water of a game's grid.

use stratagem_core::{Error, Result};

use crate::grid::{CELLS, Cell, HOMES, PerCell, describe, per_cell, step};
use crate::rows::{self, Rows};

/// Land and water of the whole grid, cell by cell and as bit rows of land.
pub struct Terrain {
    water: PerCell<bool>,
    land_rows: Rows,
}

impl Terrain {
    /// The terrain of a `CELLS`-long row-major water mask; the homes must be land.
    pub fn new(water: &[bool]) -> Result<Self> {
        if water.len() != CELLS {
            return Err(Error::InvalidBoard(format!(
                "the water mask has {} cells; the grid has {CELLS} (100 x 100)",
                water.len()
            )));
        }
        for (empire, &home) in HOMES.iter().enumerate() {
            if water[usize::from(home)] {
                return Err(Error::InvalidBoard(format!(
                    "the home cell {} of empire {empire} is water",
                    describe(home)
                )));
            }
        }
        let mut wet = per_cell(false);
        let mut land_rows = rows::EMPTY;
        for cell in 0..CELLS {
            wet[cell] = water[cell];
            if !water[cell] {
                rows::insert(&mut land_rows, cell as Cell);
            }
        }
        Ok(Self {
            water: wet,
            land_rows,
        })
    }

    #[inline]
    pub fn is_water(&self, cell: usize) -> bool {
        self.water[cell]
    }

    /// The land cells as bit rows.
    #[inline]
    pub fn land_rows(&self) -> &Rows {
        &self.land_rows
    }

    /// Where an outpost on `cell` ends up going `direction`: `None` when the move leaves the
    /// grid or enters water.
    #[inline]
    pub fn destination(&self, cell: Cell, direction: u8) -> Option<Cell> {
        step(cell, direction).filter(|&to| !self.water[usize::from(to)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_home_in_water_is_refused() {
        let mut water = vec![false; CELLS];
        water[9999] = true;
        let Err(Error::InvalidBoard(message)) = Terrain::new(&water) else {
            panic!("accepted a home in water");
        };
        assert!(message.contains("(99, 99)"), "{message}");
    }
}
