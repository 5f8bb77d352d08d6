//! The heuristic value of a position for each power (`docs/diplomacy-rules.md`, "The
//! evaluator"): centres, units, centres within reach and own centres under threat.

use crate::board::{Board, FAR};
use crate::position::Unit;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub centre: i64,
    pub unit: i64,
    pub reach: i64,
    pub threat: i64,
}

impl Default for Weights {
    fn default() -> Self {
        Self {
            centre: 12,
            unit: 4,
            reach: 2,
            threat: 3,
        }
    }
}

/// Buffers of the evaluation, reused between calls.
#[derive(Default, Clone)]
pub struct Scratch {
    /// `nearest[power * centres + centre]`: the fewest moves of one of the power's units to
    /// stand on the centre, capped at [`FAR`].
    nearest: Vec<u8>,
    units: Vec<u32>,
}

/// The value of the position (`owner` of each centre, the units after every adjustment) for
/// every power, into `values`.
pub fn values(
    board: &Board,
    owner: &[i8],
    units: &[Unit],
    weights: &Weights,
    scratch: &mut Scratch,
    values: &mut Vec<i64>,
) {
    let (powers, centres) = (board.powers, board.centres());
    let Scratch {
        nearest,
        units: unit_counts,
    } = scratch;
    nearest.clear();
    nearest.resize(powers * centres, FAR);
    unit_counts.clear();
    unit_counts.resize(powers, 0);
    for unit in units {
        let power = usize::from(unit.power);
        if let Some(count) = unit_counts.get_mut(power) {
            *count += 1;
        }
        let row = nearest
            .get_mut(power * centres..(power + 1) * centres)
            .unwrap_or_default();
        for (slot, &province) in row.iter_mut().zip(&board.centre_province) {
            *slot = (*slot).min(board.distance(unit.fleet, unit.location, province));
        }
    }
    values.clear();
    for power in 0..powers {
        let mut held = 0i64;
        let mut reach = 0i64;
        let mut threat = 0i64;
        for (centre, &holder) in owner.iter().enumerate() {
            let own = nearest[power * centres + centre];
            if holder == power as i8 {
                held += 1;
                let enemy = (0..powers)
                    .filter(|&other| other != power)
                    .map(|other| nearest[other * centres + centre])
                    .min()
                    .unwrap_or(FAR);
                if enemy < own {
                    threat += i64::from(FAR - enemy);
                }
            } else {
                reach += i64::from(FAR - own);
            }
        }
        values.push(
            weights.centre * held
                + weights.unit * i64::from(unit_counts[power])
                + weights.reach * reach
                - weights.threat * threat,
        );
    }
}
