//! The checks of a rank's part's start, shared by the part made from the arrays Python holds
//! ([`crate::part::Part::new`]) and the one made from a share the engine cut
//! ([`crate::part_share`]).

use stratagem_core::{Error, Result};

use crate::MAX_TEAMS;
use crate::game::Params;
use crate::turn::troop_limit;

/// Checks a part's start: `k` teams (one policy each) and valid parameters, one team per
/// territory of the part (`team`, territory `x` being `id(x)` of the whole board) below `k`,
/// troops within the limit of a board of `territories`, the whole board's counts per team.
pub(crate) fn check_start(
    team: &[u8],
    troops: &[u64],
    k: usize,
    params: Params,
    territories: u64,
    counts: &(Vec<u64>, Vec<u64>),
    id: impl Fn(usize) -> u64,
) -> Result<()> {
    params.validate()?;
    if !(2..=MAX_TEAMS).contains(&k) {
        return Err(Error::InvalidParameter(format!(
            "a game has 2 to {MAX_TEAMS} teams (one policy each), got {k}"
        )));
    }
    if let Some(x) = team.iter().position(|&t| usize::from(t) >= k) {
        return Err(Error::InvalidParameter(format!(
            "territory {} has team {}, but {k} policies were given: teams run 0..{} (one \
             policy per team)",
            id(x),
            team[x],
            k - 1
        )));
    }
    let limit = troop_limit(territories);
    if let Some(x) = troops.iter().position(|&t| t > limit) {
        return Err(Error::InvalidParameter(format!(
            "territory {} has {} troops, outside 0..{limit}",
            id(x),
            troops[x]
        )));
    }
    if counts.0.len() != k || counts.1.len() != k {
        return Err(Error::InvalidParameter(format!(
            "the whole board's counts need {k} entries per team"
        )));
    }
    Ok(())
}
