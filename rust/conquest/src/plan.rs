//! The exchange plan of a rank's part (`docs/conquest-mpi.md`): which owned territories,
//! ghosts and cut borders it shares with each neighbour rank, and the check that a plan covers
//! the part's board exactly.

use stratagem_core::{Error, Result};

use crate::board::Board;

/// Who talks to whom about what, one list per neighbour rank (concatenated in neighbour order,
/// `*_offsets` of length `neighbours + 1` delimiting them). Both ranks of a pair list the
/// shared items in the same order: territories by id, borders by border id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Owned territories whose state the neighbour needs.
    pub halo_send: Vec<u32>,
    pub halo_send_offsets: Vec<usize>,
    /// Ghosts owned by the neighbour.
    pub halo_recv: Vec<u32>,
    pub halo_recv_offsets: Vec<usize>,
    /// The directed edge `owned -> ghost` of every border shared with the neighbour.
    pub cut: Vec<u32>,
    pub cut_offsets: Vec<usize>,
}

impl Plan {
    /// How many neighbour ranks the plan lists.
    pub fn neighbours(&self) -> usize {
        self.cut_offsets.len().saturating_sub(1)
    }
}

/// The plan must list every owned territory a ghost borders, every ghost, and every cut
/// border exactly once, each in range and on the right side.
pub(crate) fn check_plan(board: &Board, owned: &[bool], plan: &Plan) -> Result<()> {
    let bad = |what: &str| Err(Error::InvalidParameter(format!("exchange plan: {what}")));
    let offsets_ok = |offsets: &[usize], len: usize| {
        offsets.len() == plan.neighbours() + 1
            && offsets.first() == Some(&0)
            && offsets.last() == Some(&len)
            && offsets.windows(2).all(|w| w[0] <= w[1])
    };
    if plan.cut_offsets.is_empty()
        || !offsets_ok(&plan.cut_offsets, plan.cut.len())
        || !offsets_ok(&plan.halo_send_offsets, plan.halo_send.len())
        || !offsets_ok(&plan.halo_recv_offsets, plan.halo_recv.len())
    {
        return bad("offsets must run from 0 to each list's length, one range per neighbour");
    }
    let n = board.n();
    if plan
        .halo_send
        .iter()
        .any(|&x| x as usize >= n || !owned[x as usize])
    {
        return bad("halo_send lists a territory this rank does not own");
    }
    let mut seen = vec![false; n];
    for &g in &plan.halo_recv {
        let g = g as usize;
        if g >= n || owned[g] || seen[g] {
            return bad("halo_recv must list each ghost once");
        }
        seen[g] = true;
    }
    if let Some(g) = (0..n).find(|&x| !owned[x] && !seen[x]) {
        return bad(&format!(
            "ghost territory {} is in no halo_recv list",
            board.territory_id(g)
        ));
    }
    let mut cut_seen = vec![false; board.n_edges()];
    for &e in &plan.cut {
        let e = e as usize;
        if e >= board.n_edges() || cut_seen[e] || !owned[board.source(e)] || owned[board.target(e)]
        {
            return bad("cut must list each owned -> ghost edge once");
        }
        cut_seen[e] = true;
    }
    let cut_edges = (0..n)
        .filter(|&x| owned[x])
        .flat_map(|x| board.row(x))
        .filter(|&e| !owned[board.target(e)])
        .count();
    let orphan = (0..n)
        .filter(|&g| !owned[g])
        .any(|g| board.row(g).any(|e| !owned[board.target(e)]));
    if cut_edges != plan.cut.len() || orphan {
        return bad("every border must touch an owned territory and every cut border be listed");
    }
    Ok(())
}
