//! Retreats (`docs/diplomacy-rules.md`, "Retreats"): where a dislodged unit may go.

use stratagem_core::{Error, Result};

use crate::board::Board;
use crate::position::Unit;

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
