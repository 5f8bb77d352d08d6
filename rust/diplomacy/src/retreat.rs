//! Retreats (`docs/diplomacy-rules.md`, "Retreats"): where a dislodged unit may go.

use stratagem_core::{Error, Result};

use crate::adjust::{Choices, Convention};
use crate::board::Board;
use crate::position::{Position, Unit};
use crate::search::{Evaluator, Problem};

/// The locations `dislodged` may retreat to, in the order of its moves: those whose province
/// no unit of `units` (the units after the moves) stands on, that its attacker did not come
/// from (`attacker`, a province) and that no standoff left empty (`standoffs`, provinces).
pub fn options(
    board: &Board,
    units: &[Unit],
    dislodged: Unit,
    attacker: usize,
    standoffs: &[usize],
) -> Result<Vec<u16>> {
    let provinces = board.provinces();
    let moves = if dislodged.fleet {
        &board.fleet_moves
    } else {
        &board.army_moves
    };
    let reach = moves.get(usize::from(dislodged.location)).ok_or_else(|| {
        Error::InvalidParameter(format!(
            "location {} is not a {} location of the map",
            dislodged.location,
            if dislodged.fleet { "fleet" } else { "army" }
        ))
    })?;
    if let Some(&bad) = standoffs
        .iter()
        .chain([&attacker])
        .find(|&&p| p >= provinces)
    {
        return Err(Error::InvalidParameter(format!(
            "province {bad} does not exist; the map has {provinces}"
        )));
    }
    let mut blocked = vec![false; provinces];
    for unit in units {
        blocked[board.province(unit.fleet, unit.location)] = true;
    }
    for &province in standoffs.iter().chain([&attacker]) {
        blocked[province] = true;
    }
    let province_of = if dislodged.fleet {
        &board.fleet_province
    } else {
        &board.army_province
    };
    Ok(reach
        .iter()
        .filter(|&&location| !blocked[province_of[location]])
        .map(|&location| location as u16)
        .collect())
}

/// A dislodged unit of the power that plans, and the province its attacker came from.
#[derive(Clone, Copy, Debug)]
pub struct Dislodged {
    pub unit: Unit,
    pub attacker: usize,
}

/// One power's retreat (a location per dislodged unit, `None` to disband), its adjustment (an
/// index into the listing of the position after the retreat) and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub retreat: Vec<Option<u16>>,
    pub option: u128,
    pub value: i64,
}

/// The retreat phase of one power: the position after the moves (the power's dislodged units
/// not in it), its dislodged units, the standoffs, and whether a retreat onto a centre takes it.
pub struct Retreats<'a> {
    pub board: &'a Board,
    pub position: &'a Position,
    pub power: u8,
    pub dislodged: Vec<Dislodged>,
    pub standoffs: Vec<usize>,
    pub capture: bool,
    pub convention: Convention,
    pub evaluator: &'a dyn Evaluator,
}

impl Retreats<'_> {
    /// Every retreat choice in order: each unit's options in the order of its moves, then
    /// disbanding; the first unit varies slowest; no two units to one province.
    fn choices(&self) -> Result<Vec<Vec<Option<u16>>>> {
        let mut per_unit = Vec::with_capacity(self.dislodged.len());
        for d in &self.dislodged {
            let mut options: Vec<Option<u16>> = options(
                self.board,
                &self.position.units,
                d.unit,
                d.attacker,
                &self.standoffs,
            )?
            .into_iter()
            .map(Some)
            .collect();
            options.push(None);
            per_unit.push(options);
        }
        let mut all: Vec<Vec<Option<u16>>> = vec![Vec::new()];
        for (d, options) in self.dislodged.iter().zip(&per_unit) {
            let mut next = Vec::with_capacity(all.len() * options.len());
            for partial in &all {
                for &option in options {
                    let clash = option.is_some_and(|loc| {
                        let here = self.board.province(d.unit.fleet, loc);
                        partial.iter().zip(&self.dislodged).any(|(other, o)| {
                            other.is_some_and(|l| self.board.province(o.unit.fleet, l) == here)
                        })
                    });
                    if !clash {
                        let mut extended = partial.clone();
                        extended.push(option);
                        next.push(extended);
                    }
                }
            }
            all = next;
        }
        Ok(all)
    }

    /// The position after `retreat`, the power's centres taken by its retreats with `capture`.
    fn after(&self, retreat: &[Option<u16>]) -> Result<Position> {
        let mut units = self.position.units.clone();
        let mut owner = self.position.owner.clone();
        for (d, location) in self.dislodged.iter().zip(retreat) {
            let Some(location) = *location else { continue };
            units.push(Unit {
                power: self.power,
                fleet: d.unit.fleet,
                location,
            });
            let province = self.board.province(d.unit.fleet, location);
            if let (true, Some(centre)) = (self.capture, self.board.centre_of[province]) {
                owner[centre] = self.power as i8;
            }
        }
        Position::new(self.board, units, owner)
    }

    /// The power's value after `retreat` and its adjustment `option` (`None`: nobody adjusts),
    /// the other powers doing nothing.
    fn value(&self, after: &Position, option: Option<u128>) -> Result<i64> {
        let problem = Problem::new(self.board, after, self.convention, self.evaluator);
        let power = usize::from(self.power);
        let mut profile = vec![None; problem.choices.len()];
        profile[power] = option;
        Ok(problem.values_of(&profile)?[power])
    }

    /// The power's best adjustment after `retreat` (ties to the smallest index).
    fn best_adjustment(&self, retreat: &[Option<u16>]) -> Result<(u128, i64)> {
        let after = self.after(retreat)?;
        let count = Choices::of(self.board, &after, self.power, self.convention).count();
        let mut best: Option<(u128, i64)> = None;
        for option in 0..count {
            let value = self.value(&after, Some(option))?;
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((option, value));
            }
        }
        best.ok_or_else(|| Error::InvalidParameter("a power with no adjustment option".into()))
    }

    /// First the retreat best for the power with nobody adjusting, then its best adjustment
    /// (ties to the first retreat and the smallest index).
    pub fn retreat_then_adjust(&self) -> Result<Plan> {
        let mut best: Option<(Vec<Option<u16>>, i64)> = None;
        for retreat in self.choices()? {
            let value = self.value(&self.after(&retreat)?, None)?;
            if best.as_ref().is_none_or(|(_, v)| value > *v) {
                best = Some((retreat, value));
            }
        }
        let (retreat, _) = best.ok_or_else(|| Error::InvalidParameter("no retreat".into()))?;
        let (option, value) = self.best_adjustment(&retreat)?;
        Ok(Plan {
            retreat,
            option,
            value,
        })
    }

    /// Every retreat with every adjustment after it: the best pair for the power (ties to the
    /// first retreat and the smallest index).
    pub fn disband_and_build(&self) -> Result<Plan> {
        let mut best: Option<Plan> = None;
        for retreat in self.choices()? {
            let (option, value) = self.best_adjustment(&retreat)?;
            if best.as_ref().is_none_or(|p| value > p.value) {
                best = Some(Plan {
                    retreat,
                    option,
                    value,
                });
            }
        }
        best.ok_or_else(|| Error::InvalidParameter("no retreat".into()))
    }
}
