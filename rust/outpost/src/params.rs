//! The pieces of a game every part of the engine reads: the parameters and their limits, and
//! an outpost.

use stratagem_core::Result;
use stratagem_core::error::param;

use crate::grid::Cell;

pub const EMPIRES: usize = 4;
pub const MAX_RADIUS: u32 = 198;
pub const MAX_CELLS_PER_OUTPOST: u32 = 10_000;
pub const MAX_TURNS: u32 = 1_000_000;
/// Seasons fall on the turns that are multiples of this.
pub const SEASON: u32 = 10;

/// An outpost: a stable id, its empire and its cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outpost {
    pub id: u32,
    pub empire: u8,
    pub cell: Cell,
}

/// The 2014 simulator's behaviours, off by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub supply_fringe: bool,
    pub sequential_moves: bool,
    pub extra_turn: bool,
}

/// The parameters of a game: radius, land and water cells per extra outpost, turns, flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub r: u32,
    pub land: u32,
    pub water: u32,
    pub turns: u32,
    pub flags: Flags,
}

impl Params {
    pub fn new(r: u32, land: u32, water: u32, turns: u32, flags: Flags) -> Result<Self> {
        if r > MAX_RADIUS {
            return Err(param(format!("r must be from 0 to {MAX_RADIUS}, got {r}")));
        }
        for (name, value) in [("L", land), ("W", water)] {
            if !(1..=MAX_CELLS_PER_OUTPOST).contains(&value) {
                return Err(param(format!(
                    "{name} must be from 1 to {MAX_CELLS_PER_OUTPOST}, got {value}"
                )));
            }
        }
        if turns > MAX_TURNS {
            return Err(param(format!(
                "T must be from 0 to {MAX_TURNS}, got {turns}"
            )));
        }
        Ok(Self {
            r,
            land,
            water,
            turns,
            flags,
        })
    }

    /// The last turn played: `T`, or `T + 1` with `extra_turn`.
    pub fn last_turn(&self) -> u32 {
        self.turns + u32::from(self.flags.extra_turn)
    }
}
