//! A rank's part made from the share the engine cut for it ([`Share`]): the share's arrays
//! are moved into the part, once its start is checked.

use stratagem_core::{Error, Result};

use crate::MAX_TEAMS;
use crate::game::Params;
use crate::part::{Counts, Part, Setup};
use crate::policy::Policy;
use crate::share::Share;
use crate::turn::troop_limit;

impl Part {
    /// The part of a share the engine cut ([`Share`]), every territory with `troops`: its
    /// exchange plan is right by construction (the share's tests compare it with the whole
    /// board's cut) and is not checked again. The share's arrays are moved into the part
    /// (`share` is left empty) once the start is found good; a refused start leaves it whole.
    pub fn of_share(
        share: &mut Share,
        team: Vec<u8>,
        troops: u64,
        policies: Vec<Policy>,
        params: Params,
        territories: u64,
        counts: Counts,
    ) -> Result<Self> {
        let n = share.local_ids.len();
        // Checked before the share is taken apart: a refused start leaves nothing half made.
        let id = |x: usize| u64::from(share.local_ids[x]);
        if team.len() != n {
            return Err(Error::InvalidParameter(format!(
                "team needs one entry per territory of the part ({n}), got {}",
                team.len()
            )));
        }
        let k = policies.len();
        check_start(&team, &[troops], k, params, territories, &counts, id)?;
        let (board, owned, plan, _) = std::mem::take(share).into_part()?;
        let setup = Setup {
            board,
            owned,
            team,
            troops: vec![troops; n],
            policies,
            params,
            plan,
            territories,
            counts,
        };
        Self::assemble(setup, false)
    }
}

/// Checks a part's start: `k` teams (one policy each) and valid parameters, one team per
/// territory of the part (`team`, territory `x` being `id(x)` of the whole board) below `k`,
/// troops within the limit of a board of `territories`, the whole board's counts per team.
pub(crate) fn check_start(
    team: &[u8],
    troops: &[u64],
    k: usize,
    params: Params,
    territories: u64,
    counts: &Counts,
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
