//! The control map: who holds each cell (`docs/outpost-rules.md`, "Control").
//!
//! A separable distance transform: the Manhattan distance is `|dx| + |dy|`, so the distance to
//! the nearest outpost is a pass down and up every column (nearest outpost in the column),
//! then a pass right and left along every row over those values. Each pass carries, with the
//! distance, the set of empires at that distance (a 4-bit mask; equal distances unite their
//! sets), which gives exactly the set of empires whose outposts are nearest. Every pass runs
//! over whole rows at once, which the compiler turns into vector code; the row passes work
//! on a transposed copy for the same reason. O(cells) per map, whatever the number of
//! outposts, never O(cells x outposts).

use crate::game::Outpost;
use crate::grid::{CELLS, Cell, SIZE, Terrain};

pub const NEUTRAL: i8 = -1;
pub const DISPUTED: i8 = -2;
/// Farther than any two cells of the grid (198).
const FAR: u8 = u8::MAX;

/// The control value of each set of empires at the smallest distance.
const OWNER: [i8; 16] = {
    let mut table = [DISPUTED; 16];
    table[0] = NEUTRAL;
    table[1] = 0;
    table[2] = 1;
    table[4] = 2;
    table[8] = 3;
    table
};

/// Reusable buffers of the transform.
#[derive(Default)]
pub struct ControlWork {
    distance: Vec<u8>,
    empires: Vec<u8>,
    distance_t: Vec<u8>,
    empires_t: Vec<u8>,
}

/// One step of a pass: `row` takes the better of itself and `from` one cell farther.
#[inline]
fn relax(distance: &mut [u8], empires: &mut [u8], from_distance: &[u8], from_empires: &[u8]) {
    for (((d, e), &fd), &fe) in distance
        .iter_mut()
        .zip(empires.iter_mut())
        .zip(from_distance)
        .zip(from_empires)
    {
        let through = fd.saturating_add(1);
        let united = if through == *d { *e | fe } else { *e };
        *e = if through < *d { fe } else { united };
        *d = (*d).min(through);
    }
}

/// Passes down and up every column of a row-major `SIZE x SIZE` grid.
fn columns(distance: &mut [u8], empires: &mut [u8]) {
    for y in 1..SIZE {
        let (above_d, rest_d) = distance.split_at_mut(y * SIZE);
        let (above_e, rest_e) = empires.split_at_mut(y * SIZE);
        relax(
            &mut rest_d[..SIZE],
            &mut rest_e[..SIZE],
            &above_d[(y - 1) * SIZE..],
            &above_e[(y - 1) * SIZE..],
        );
    }
    for y in (0..SIZE - 1).rev() {
        let (upto_d, below_d) = distance.split_at_mut((y + 1) * SIZE);
        let (upto_e, below_e) = empires.split_at_mut((y + 1) * SIZE);
        relax(
            &mut upto_d[y * SIZE..],
            &mut upto_e[y * SIZE..],
            &below_d[..SIZE],
            &below_e[..SIZE],
        );
    }
}

fn transpose(from: &[u8], to: &mut [u8]) {
    for (y, row) in from.chunks_exact(SIZE).enumerate() {
        for (x, &value) in row.iter().enumerate() {
            to[x * SIZE + y] = value;
        }
    }
}

impl ControlWork {
    /// The control of every cell of the grid into `control` (`CELLS` long).
    pub fn compute(&mut self, terrain: &Terrain, outposts: &[Outpost], r: u32, control: &mut [i8]) {
        self.compute_cells(
            terrain,
            outposts.iter().map(|o| (o.cell, o.empire)),
            r,
            control,
        );
    }

    /// As [`ControlWork::compute`] from `(cell, empire)` pairs.
    pub fn compute_cells(
        &mut self,
        _terrain: &Terrain,
        outposts: impl Iterator<Item = (Cell, u8)>,
        r: u32,
        control: &mut [i8],
    ) {
        for buffer in [
            &mut self.distance,
            &mut self.empires,
            &mut self.distance_t,
            &mut self.empires_t,
        ] {
            buffer.clear();
            buffer.resize(CELLS, 0);
        }
        self.distance.fill(FAR);
        for (cell, empire) in outposts {
            let c = usize::from(cell);
            self.distance[c] = 0;
            self.empires[c] |= 1 << empire;
        }
        columns(&mut self.distance, &mut self.empires);
        transpose(&self.distance, &mut self.distance_t);
        transpose(&self.empires, &mut self.empires_t);
        // Rows of the grid are columns of the transposed copy.
        columns(&mut self.distance_t, &mut self.empires_t);
        let radius = r.min(u32::from(FAR) - 1) as u8;
        for (x, (row_d, row_e)) in self
            .distance_t
            .chunks_exact(SIZE)
            .zip(self.empires_t.chunks_exact(SIZE))
            .enumerate()
        {
            for (y, (&d, &e)) in row_d.iter().zip(row_e).enumerate() {
                control[y * SIZE + x] = if d <= radius {
                    OWNER[usize::from(e)]
                } else {
                    NEUTRAL
                };
            }
        }
    }
}

/// Land and water cells each empire controls alone.
pub fn tally(terrain: &Terrain, control: &[i8]) -> [[u32; 2]; 4] {
    let mut counts = [[0u32; 2]; 4];
    for (cell, &holder) in control.iter().enumerate() {
        if holder >= 0 {
            counts[holder as usize][usize::from(terrain.is_water(cell))] += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{x_of, y_of};

    fn owner(empires: u8) -> i8 {
        OWNER[usize::from(empires)]
    }

    fn scan(outposts: &[(Cell, u8)], r: u32) -> Vec<i8> {
        (0..CELLS as Cell)
            .map(|c| {
                let d = |o: Cell| (x_of(c) - x_of(o)).abs() + (y_of(c) - y_of(o)).abs();
                let Some(best) = outposts.iter().map(|&(o, _)| d(o)).min() else {
                    return NEUTRAL;
                };
                if best > r as i32 {
                    return NEUTRAL;
                }
                let mask = outposts
                    .iter()
                    .filter(|&&(o, _)| d(o) == best)
                    .fold(0u8, |m, &(_, e)| m | 1 << e);
                owner(mask)
            })
            .collect()
    }

    #[test]
    fn the_search_equals_the_scan() {
        let terrain = Terrain::new(&vec![false; CELLS]).unwrap_or_else(|e| panic!("{e}"));
        let mut work = ControlWork::default();
        let mut control = vec![0i8; CELLS];
        let mut state = 12345u64;
        for case in 0..90usize {
            let count = case % 13;
            let r = [0, 1, 2, 3, 7, 12, 60, 150, 198][case % 9];
            let outposts: Vec<(Cell, u8)> = (0..count)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    // Cluster outposts so that ties and shared cells are common.
                    let x = (state >> 33) % 12 + 40;
                    let y = (state >> 45) % 12 + 40;
                    ((y * 100 + x) as Cell, ((state >> 20) % 4) as u8)
                })
                .collect();
            work.compute_cells(&terrain, outposts.iter().copied(), r, &mut control);
            assert_eq!(control, scan(&outposts, r), "case {case}");
        }
    }
}
