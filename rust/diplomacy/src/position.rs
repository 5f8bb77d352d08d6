//! A position: units and the owner of each centre. `stratagem.diplomacy.Position` checks the
//! rules with full messages; the engine checks again what it relies on, so that no input can
//! make it index out of range.

use stratagem_core::{Error, Result};

use crate::board::{Board, Kind};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub power: u8,
    pub fleet: bool,
    /// Index into the board's army or fleet locations.
    pub location: u16,
}

#[derive(Clone, Debug)]
pub struct Position {
    /// Sorted by power, then province.
    pub units: Vec<Unit>,
    /// The owning power of each centre, -1 for nobody.
    pub owner: Vec<i8>,
}

fn inconsistent(message: String) -> Error {
    Error::InconsistentInput(message)
}

impl Position {
    pub fn new(board: &Board, mut units: Vec<Unit>, owner: Vec<i8>) -> Result<Self> {
        if owner.len() != board.centres() {
            return Err(Error::InvalidParameter(format!(
                "owners are given for {} centres; the map has {}",
                owner.len(),
                board.centres()
            )));
        }
        if let Some((centre, &o)) = owner
            .iter()
            .enumerate()
            .find(|&(_, &o)| o < -1 || i64::from(o) >= board.powers as i64)
        {
            return Err(Error::InvalidParameter(format!(
                "centre {centre} is owned by power {o}; powers are 0 to {}",
                board.powers - 1
            )));
        }
        let mut taken = vec![false; board.provinces()];
        for unit in &units {
            let locations = if unit.fleet {
                board.fleet_province.len()
            } else {
                board.army_province.len()
            };
            if usize::from(unit.power) >= board.powers || usize::from(unit.location) >= locations {
                return Err(Error::InvalidParameter(format!(
                    "unit {unit:?} names a power or location the map does not have"
                )));
            }
            let province = board.province(unit.fleet, unit.location);
            if std::mem::replace(&mut taken[province], true) {
                return Err(inconsistent(format!(
                    "one unit per province: province {province} has two"
                )));
            }
            if unit.fleet && board.kind[province] == Kind::Land {
                return Err(inconsistent(format!(
                    "fleets stand on coasts or at sea: province {province}"
                )));
            }
        }
        units.sort_by_key(|u| (u.power, board.province(u.fleet, u.location)));
        Ok(Self { units, owner })
    }

    /// Indices (into `units`) of `power`'s units, in province order.
    pub fn units_of(&self, power: u8) -> impl Iterator<Item = usize> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter(move |(_, u)| u.power == power)
            .map(|(i, _)| i)
    }

    pub fn centres_of(&self, power: u8) -> usize {
        self.owner.iter().filter(|&&o| o == power as i8).count()
    }

    /// `power`'s home centres that it owns and no unit stands on, in centre order.
    pub fn open_homes(&self, board: &Board, power: u8) -> Vec<usize> {
        let occupied: Vec<usize> = self
            .units
            .iter()
            .map(|u| board.province(u.fleet, u.location))
            .collect();
        board.homes[usize::from(power)]
            .iter()
            .copied()
            .filter(|&c| {
                self.owner[c] == power as i8 && !occupied.contains(&board.centre_province[c])
            })
            .collect()
    }
}
