//! A rank's part made from the share the engine cut for it ([`Share`]): the share's arrays
//! are moved into the part, once its start is checked.

use stratagem_core::{Error, Result};

use crate::game::Params;
use crate::part::{Counts, Part, Setup};
use crate::part_start::check_start;
use crate::policy::Policy;
use crate::share::Share;

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
