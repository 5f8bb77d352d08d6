//! One rank's part of a distributed game (`docs/conquest-mpi.md`): the territories it owns,
//! the *ghosts* (other ranks' territories that border them), and the turn cut into phases
//! between which the ranks exchange what crosses the partition. Python moves the buffers
//! (mpi4py); everything here is the per-rank work, on the same rule functions as [`Game`].
//!
//! The part's board is labelled with the whole board's ids ([`Board::labelled`]) and its
//! territories are numbered in the whole board's order, so every random draw, every "first in
//! CSR order" and every tie is exactly what the single-process engine does.
//!
//! [`Game`]: crate::Game

use rayon::prelude::*;
use stratagem_core::rng::{Stream, purpose_tag};
use stratagem_core::{Error, Result};

use crate::board::Board;
use crate::game::{History, Params, Record, Status, check_committed};
use crate::part_start::check_start;
use crate::plan::{Plan, check_plan};
use crate::policy::{self, NO_DISTANCE, NO_SLOT, Policy, Pressure, View};
use crate::row_block::RowBlock;
use crate::turn::troop_limit;
use crate::{TROOP_LIMIT, purpose, turn};

/// Which phase comes next, so that calls out of order fail instead of mixing two turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Idle,
    Begun,
    Placed,
    Fought,
    Occupied,
    Ended,
}

/// The start state of a part: its board (labelled), which territories it owns, and the
/// state of every territory it sees (owned and ghosts).
pub struct Setup {
    pub board: Board,
    pub owned: Vec<bool>,
    pub team: Vec<u8>,
    pub troops: Vec<u64>,
    pub policies: Vec<Policy>,
    pub params: Params,
    pub plan: Plan,
    /// Territories of the whole board.
    pub territories: u64,
    /// Territories and troops per team on the whole board.
    pub counts: (Vec<u64>, Vec<u64>),
}

#[derive(Debug)]
pub struct Part {
    board: Board,
    owned: Vec<bool>,
    policies: Vec<Policy>,
    params: Params,
    plan: Plan,
    team: Vec<u8>,
    troops: Vec<u64>,
    record: Record,
    phase: Phase,
    /// Per cut border (in plan order): whether this rank resolves it this turn.
    resolves_cut: Vec<bool>,
    /// Per directed edge: its place in the plan's cut list if it is a cut edge (`owned ->
    /// ghost`), else [`NO_SLOT`].
    cut_slot: Vec<u32>,
    /// The owned frontier territories (ascending), kept from turn to turn once known.
    frontier: Vec<u32>,
    frontier_known: bool,
    /// A buffer of [`Self::update_frontier`].
    candidates: Vec<u32>,
    /// The owned frontier territories, then every ghost: the rows battles start from.
    fronts: Vec<u32>,
    /// Frontier distances. While the search runs, every ghost reads 0 here, so that the
    /// search never enters one (its distance is its owner's to find) and needs no ownership
    /// test; the ghosts' own distances are in `ghost_dist` until [`Self::place`] reads them.
    dist: Vec<u32>,
    /// The ghosts' frontier distances from their owners (halo order).
    ghost_dist: Vec<u32>,
    /// A block of whole rows of a plane grid finds its distances by passes over its rows.
    rows: Option<RowBlock>,
    /// The top and bottom rows of the block's own distances, which every rank sends.
    edges: Vec<u32>,
    /// Buffers of the distance search, kept from turn to turn.
    seeds: Vec<(u32, u32)>,
    level: Vec<u32>,
    next: Vec<u32>,
    /// Per cut edge `x -> ghost`: what `x`'s team masses around the ghost (from its owner).
    pressure: Vec<u64>,
    /// What each team masses around the owned frontier territories.
    owned_pressure: Pressure,
    /// The placement, then the signed survivors ([`turn::battles`]).
    placement: Vec<i64>,
    next_team: Vec<u8>,
    /// The garrisons of the owned territories, then their next troops.
    next_troops: Vec<u64>,
}

/// Territories and troops per team.
pub type Counts = (Vec<u64>, Vec<u64>);

fn inconsistent(message: String) -> Error {
    Error::InconsistentInput(message)
}

/// Troops and team of a territory in one word (troops <= 2^40 < 2^48, teams < 64).
fn pack_state(team: u8, troops: u64) -> u64 {
    (u64::from(team) << 48) | troops
}

impl Part {
    pub fn new(setup: Setup) -> Result<Self> {
        Self::assemble(setup, true)
    }

    /// The part of `setup`, its exchange plan checked when `check_exchanges`.
    pub(crate) fn assemble(setup: Setup, check_exchanges: bool) -> Result<Self> {
        let Setup {
            board,
            owned,
            team,
            troops,
            policies,
            params,
            plan,
            territories,
            counts,
        } = setup;
        let n = board.n();
        if owned.len() != n || team.len() != n || troops.len() != n {
            return Err(Error::InvalidParameter(format!(
                "owned, team and troops need one entry per territory of the part ({n}), \
                 got {}, {} and {}",
                owned.len(),
                team.len(),
                troops.len()
            )));
        }
        let id = |x: usize| board.territory_id(x);
        let k = policies.len();
        check_start(&team, &troops, k, params, territories, &counts, id)?;
        if check_exchanges {
            check_plan(&board, &owned, &plan)?;
        } else if plan.cut.iter().any(|&e| e as usize >= board.n_edges()) {
            return Err(inconsistent("a cut edge beyond the part's borders".into()));
        }
        let mut cut_slot = vec![NO_SLOT; board.n_edges()];
        for (slot, &e) in plan.cut.iter().enumerate() {
            cut_slot[e as usize] = slot as u32;
        }
        Ok(Self {
            record: Record::start(territories, params.max_turns, counts),
            team,
            troops,
            resolves_cut: vec![false; plan.cut.len()],
            cut_slot,
            frontier: Vec::new(),
            frontier_known: false,
            candidates: Vec::new(),
            fronts: Vec::new(),
            dist: Vec::new(),
            ghost_dist: Vec::new(),
            rows: None,
            edges: Vec::new(),
            seeds: Vec::new(),
            level: Vec::new(),
            next: Vec::new(),
            pressure: Vec::new(),
            owned_pressure: Pressure::default(),
            placement: vec![0; board.n_edges()],
            next_team: vec![0; board.n()],
            next_troops: vec![0; board.n()],
            phase: Phase::Idle,
            board,
            owned,
            policies,
            params,
            plan,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn owned(&self) -> &[bool] {
        &self.owned
    }
    pub fn team(&self) -> &[u8] {
        &self.team
    }
    pub fn troops(&self) -> &[u64] {
        &self.troops
    }
    pub fn plan(&self) -> &Plan {
        &self.plan
    }
    pub fn record(&self) -> &Record {
        &self.record
    }
    pub fn params(&self) -> Params {
        self.params
    }
    pub fn policies(&self) -> &[Policy] {
        &self.policies
    }

    /// Territories and troops per team over the owned territories.
    pub fn counts(&self) -> (Vec<u64>, Vec<u64>) {
        self.owned_counts(&self.team, &self.troops)
    }

    fn owned_counts(&self, team: &[u8], troops: &[u64]) -> (Vec<u64>, Vec<u64>) {
        let mut territories = vec![0u64; self.policies.len()];
        let mut totals = vec![0u64; self.policies.len()];
        for x in (0..self.board.n()).filter(|&x| self.owned[x]) {
            territories[usize::from(team[x])] += 1;
            totals[usize::from(team[x])] += troops[x];
        }
        (territories, totals)
    }

    /// Restores a saved game's turn, status and history; `whole` are the whole board's
    /// current counts (summed over the ranks), which the history's last row must match.
    pub fn resume(
        &mut self,
        turn: u64,
        status: Status,
        history: History,
        whole: (&[u64], &[u64]),
    ) -> Result<()> {
        self.record.resume(turn, status, history, whole)?;
        self.phase = Phase::Idle;
        Ok(())
    }

    /// Distances and pressure exist only when a team's policy needs them.
    fn require_use(&self, needed: bool, what: &str) -> Result<()> {
        if !needed {
            return Err(Error::InvalidParameter(format!(
                "no team's policy uses {what} in this game"
            )));
        }
        Ok(())
    }

    /// The distance exchange: in a begun turn, only when a policy reads the distances, and
    /// by the search's rounds or by rows (`by_rows`) as the part is made.
    fn require_distances(&self, call: &str, by_rows: bool) -> Result<()> {
        self.require(Phase::Begun, call)?;
        self.require_use(policy::needs_distance(&self.policies), "frontier distances")?;
        if self.rows.is_some() != by_rows {
            return Err(Error::InvalidParameter(format!(
                "{call}: this part finds its distances {}",
                if by_rows {
                    "by the search's rounds"
                } else {
                    "by rows"
                }
            )));
        }
        Ok(())
    }

    /// Makes a part of a block of whole rows of a plane grid find its frontier distances by
    /// passes over its rows ([`RowBlock`]): [`Self::row_edges`] and [`Self::join_rows`]
    /// then replace the search's rounds.
    pub fn use_rows(&mut self, block: RowBlock) -> Result<()> {
        let first_id = if self.board.n() == 0 {
            0
        } else {
            self.board.territory_id(0)
        };
        block.check_part(self.board.n(), first_id, &self.owned)?;
        self.rows = Some(block);
        Ok(())
    }

    /// Whether the part finds its distances by rows ([`Self::use_rows`]).
    pub fn by_rows(&self) -> bool {
        self.rows.is_some()
    }

    /// The top and bottom rows of the block's distances, which every rank sends every other.
    pub fn row_edges(&self) -> Result<Vec<u32>> {
        self.require_distances("row_edges", true)?;
        Ok(self.edges.clone())
    }

    /// Takes every rank's [`Self::row_edges`] (rank order) and completes the distances of the
    /// owned territories and the ghosts.
    pub fn join_rows(&mut self, edges: &[u32]) -> Result<()> {
        self.require_distances("join_rows", true)?;
        let moves: Vec<bool> = self.policies.iter().map(|p| p.moves_to_front()).collect();
        if let Some(rows) = &self.rows {
            rows.join(edges, &mut self.dist, &self.team, &moves)?;
        }
        self.ghost_dist.clear();
        self.ghost_dist
            .extend(self.plan.halo_recv.iter().map(|&g| self.dist[g as usize]));
        Ok(())
    }

    /// The pressure exchange: in a begun turn, and only when a policy reads the pressure.
    fn require_pressure(&self, call: &str) -> Result<()> {
        self.require(Phase::Begun, call)?;
        self.require_use(policy::needs_pressure(&self.policies), "pressure")
    }

    fn require(&self, phase: Phase, call: &str) -> Result<()> {
        if self.phase != phase {
            return Err(Error::InvalidParameter(format!(
                "{call} called out of order (the part is at {:?}; it needs {phase:?})",
                self.phase
            )));
        }
        Ok(())
    }

    /// Starts a turn: returns false when the game is over. Decides who resolves each cut
    /// border (the coin flips), and computes the local frontier distances and pressure; the
    /// caller then completes them with [`Self::distance_update`] and [`Self::pressure_in`].
    pub fn begin_turn(&mut self) -> Result<bool> {
        self.phase = Phase::Idle;
        if !self.record.may_play() {
            return Ok(false);
        }
        self.flip_coins();
        self.pressure.clear();
        if !self.frontier_known {
            let owned = &self.owned;
            policy::frontier(&self.board, &self.team, |x| owned[x], &mut self.frontier);
            self.frontier_known = true;
        }
        self.fronts.clear();
        self.fronts.extend_from_slice(&self.frontier);
        if let Some(rows) = self
            .rows
            .as_ref()
            .filter(|_| policy::needs_distance(&self.policies))
        {
            self.edges = rows.local_distance(self.board.n(), &self.frontier, &mut self.dist);
        } else if policy::needs_distance(&self.policies) {
            self.local_distance();
        }
        if policy::needs_pressure(&self.policies) {
            let (board, team, troops) = (&self.board, &self.team, &self.troops);
            self.owned_pressure.build(board, team, troops, &self.fronts);
        }
        // The ghosts start battles on the borders whose upward edge is in their rows.
        self.fronts.extend_from_slice(&self.plan.halo_recv);
        self.phase = Phase::Begun;
        Ok(true)
    }

    /// The seed's rule: each territory flips a coin (stream `(seed, "conquest.flip", turn,
    /// territory)`, low bit of the first word); on equal flips the owner of the lower id
    /// resolves the border, on different flips the owner of the higher id.
    fn flip_coins(&mut self) {
        let tag = purpose_tag(purpose::FLIP);
        let (seed, turn) = (self.params.seed, self.record.turn());
        let flip = |x: usize| {
            Stream::with_ids(seed, tag, [turn, self.board.territory_id(x), 0]).block(0)[0] & 1
        };
        let board = &self.board;
        self.resolves_cut.clear();
        self.resolves_cut
            .par_extend(self.plan.cut.par_iter().map(|&e| {
                let e = e as usize;
                let (mine, theirs) = (board.source(e), board.target(e));
                (flip(mine) == flip(theirs)) == (mine < theirs)
            }));
    }

    /// Frontier distances from the owned frontier territories alone (ghosts unknown yet).
    fn local_distance(&mut self) {
        self.dist.clear();
        self.dist.resize(self.board.n(), NO_DISTANCE);
        for &g in &self.plan.halo_recv {
            self.dist[g as usize] = 0;
        }
        self.ghost_dist.clear();
        self.ghost_dist
            .resize(self.plan.halo_recv.len(), NO_DISTANCE);
        let mut seeds = std::mem::take(&mut self.seeds);
        seeds.clear();
        for &x in &self.fronts {
            self.dist[x as usize] = 0;
            // Only the teams whose policy reads the distances need them beyond the frontier.
            if self.policies[usize::from(self.team[x as usize])].moves_to_front() {
                seeds.push((0, x));
            }
        }
        self.relax(&seeds);
        self.seeds = seeds;
    }

    /// Lowers the distances of owned interior territories from `seeds`, `(distance,
    /// territory)` pairs of territories whose distance just fell (each once), sorted by
    /// distance: a breadth-first search level by level, each level joined by the seeds of its
    /// distance. Frontier territories and ghosts read 0, so the search never enters them.
    fn relax(&mut self, seeds: &[(u32, u32)]) {
        let Some(&(mut d, _)) = seeds.first() else {
            return;
        };
        let (board, dist) = (&self.board, &mut self.dist);
        let (mut level, mut next) = (
            std::mem::take(&mut self.level),
            std::mem::take(&mut self.next),
        );
        level.clear();
        let mut pending = seeds.iter().peekable();
        loop {
            while let Some(&(_, x)) = pending.next_if(|&&(seed_d, _)| seed_d == d) {
                level.push(x);
            }
            if level.is_empty() {
                match pending.peek() {
                    Some(&&(seed_d, _)) => d = seed_d,
                    None => break,
                }
                continue;
            }
            for (i, &x) in level.iter().enumerate() {
                // A level is scattered over the part: ask for the neighbours of the territory
                // some places ahead, as the whole board's search does.
                if let Some(&ahead) = level.get(i + 16) {
                    board.prefetch_row(ahead as usize);
                }
                for &y in board.neighbours(x as usize).iter() {
                    let y = y as usize;
                    if dist[y] > d + 1 {
                        dist[y] = d + 1;
                        next.push(y as u32);
                    }
                }
            }
            std::mem::swap(&mut level, &mut next);
            next.clear();
            d += 1;
        }
        self.level = level;
        self.next = next;
    }

    /// Distances of the owned territories the neighbours see as ghosts (halo order).
    pub fn distance_halo(&self) -> Result<Vec<u32>> {
        self.require_distances("distance_halo", false)?;
        Ok(gather(&self.plan.halo_send, &self.dist))
    }

    /// Takes the ghosts' distances (halo order) and relaxes from those that fell; returns
    /// whether any did. Repeated until no rank reports a change, the distances are those of
    /// the whole board's breadth-first search.
    pub fn distance_update(&mut self, ghosts: &[u32]) -> Result<bool> {
        self.require_distances("distance_update", false)?;
        check_len("ghost distances", ghosts.len(), self.plan.halo_recv.len())?;
        let mut fallen = std::mem::take(&mut self.seeds);
        fallen.clear();
        let policies = &self.policies;
        for ((&g, &d), known) in self
            .plan
            .halo_recv
            .iter()
            .zip(ghosts)
            .zip(&mut self.ghost_dist)
        {
            // Only the teams whose policy reads the distances search beyond their frontier.
            let searched = policies[usize::from(self.team[g as usize])].moves_to_front();
            if searched && d < *known {
                *known = d;
                fallen.push((d, g));
            }
        }
        fallen.sort_unstable();
        self.relax(&fallen);
        let lowered = !fallen.is_empty();
        self.seeds = fallen;
        Ok(lowered)
    }

    /// For every cut border: what the ghost's team masses around the owned territory (the
    /// pressure the neighbour's policy needs), in cut order.
    pub fn pressure_out(&self) -> Result<Vec<u64>> {
        self.require_pressure("pressure_out")?;
        let (board, team) = (&self.board, &self.team);
        Ok(self
            .plan
            .cut
            .iter()
            .map(|&e| {
                let (x, g) = (board.source(e as usize), board.target(e as usize));
                // Only an enemy's look is used (an opportunist looks around its targets), and
                // then x is on the frontier, in the table.
                if team[x] == team[g] {
                    0
                } else {
                    self.owned_pressure.around(x, team[g]).unwrap_or(0)
                }
            })
            .collect())
    }

    /// Takes the neighbours' [`Self::pressure_out`] (cut order).
    pub fn pressure_in(&mut self, values: &[u64]) -> Result<()> {
        self.require_pressure("pressure_in")?;
        check_len("pressure values", values.len(), self.plan.cut.len())?;
        self.pressure.clear();
        self.pressure.extend_from_slice(values);
        Ok(())
    }

    /// Number of cut borders this rank resolves this turn, per neighbour.
    pub fn resolved_per_neighbour(&self) -> Vec<usize> {
        (0..self.plan.neighbours())
            .map(|q| {
                let range = self.plan.cut_offsets[q]..self.plan.cut_offsets[q + 1];
                self.resolves_cut[range].iter().filter(|&&r| r).count()
            })
            .collect()
    }

    /// Checks a custom placement of the part (one entry per local directed edge): nonzero only
    /// on rows of owned territories of custom teams, never committing more troops than a
    /// territory holds. Errors name the whole board's territory.
    fn check_custom(&self, placement: &[i64]) -> Result<()> {
        let board = &self.board;
        check_len("custom placement entries", placement.len(), board.n_edges())?;
        for x in 0..board.n() {
            let row = &placement[board.row(x)];
            let id = board.territory_id(x);
            let custom =
                self.owned[x] && self.policies[usize::from(self.team[x])] == Policy::Custom;
            if !custom {
                if let Some(k) = row.iter().position(|&p| p != 0) {
                    let y = board.territory_id(board.neighbours(x)[k] as usize);
                    return Err(Error::InvalidMove(format!(
                        "placement on border {id} -> {y}, but territory {id} is not a territory \
                         of a custom team on this rank"
                    )));
                }
                continue;
            }
            check_committed(row, self.troops[x], id)?;
        }
        Ok(())
    }

    /// Whether some team's placement must come from the caller.
    pub fn has_custom(&self) -> bool {
        self.policies.contains(&Policy::Custom)
    }

    /// Placement of the owned territories (the rows of custom teams from `custom`, checked);
    /// returns this rank's placements on the cut borders the neighbours resolve (cut order),
    /// which they need to fight them.
    pub fn place(&mut self, custom: Option<&[i64]>) -> Result<Vec<i64>> {
        self.require(Phase::Begun, "place")?;
        match custom {
            Some(given) => {
                self.check_custom(given)?;
                self.placement.copy_from_slice(given);
            }
            None if self.has_custom() => {
                return Err(Error::InvalidParameter(
                    "a team plays a custom policy: its placement must be given".into(),
                ));
            }
            None => {}
        }
        if policy::needs_distance(&self.policies) {
            // The search is over: the ghosts' distances join the owned ones.
            for (&g, &d) in self.plan.halo_recv.iter().zip(&self.ghost_dist) {
                self.dist[g as usize] = d;
            }
        }
        let view = View {
            board: &self.board,
            team: &self.team,
            troops: &self.troops,
            dist: &self.dist,
            given_pressure: (&self.cut_slot, &self.pressure),
            pressure: &self.owned_pressure,
            seed: self.params.seed,
            turn: self.record.turn(),
        };
        let owned = &self.owned;
        policy::place(&view, &self.policies, &mut self.placement, |x| owned[x]);
        // The owned territories' garrisons (a part keeps the troops it started the turn with).
        self.next_troops.copy_from_slice(&self.troops);
        policy::commit(&self.board, &self.placement, &mut self.next_troops, |x| {
            owned[x]
        });
        self.phase = Phase::Placed;
        Ok(self.cut_where(false).map(|e| self.placement[e]).collect())
    }

    /// Cut edges (`owned -> ghost`) whose border this rank resolves (`here`) or does not.
    fn cut_where(&self, here: bool) -> impl Iterator<Item = usize> + '_ {
        self.plan
            .cut
            .iter()
            .zip(&self.resolves_cut)
            .filter(move |&(_, &r)| r == here)
            .map(|(&e, _)| e as usize)
    }

    /// Takes the neighbours' placements on the borders this rank resolves (cut order), fights
    /// every battle this rank resolves, and returns the report cards: for each border it
    /// resolved (cut order), `[the neighbour's signed survivors, its own]` ([`turn::battles`]).
    pub fn fight(&mut self, theirs: &[i64]) -> Result<Vec<i64>> {
        self.require(Phase::Placed, "fight")?;
        let resolved: Vec<usize> = self.cut_where(true).collect();
        check_len("placements", theirs.len(), resolved.len())?;
        if let Some(p) = theirs.iter().find(|p| p.unsigned_abs() > TROOP_LIMIT) {
            return Err(inconsistent(format!("a received placement of {p} troops")));
        }
        for (&e, &p) in resolved.iter().zip(theirs) {
            let back = self.board.reverse(e);
            self.placement[back] = p;
        }
        let (board, cut_slot, resolves_cut) = (&self.board, &self.cut_slot, &self.resolves_cut);
        // A cut border's upward edge is a cut edge or the reverse of one.
        let resolves = |e: usize| {
            let slot = match cut_slot[e] {
                NO_SLOT => cut_slot[board.reverse(e)],
                slot => slot,
            };
            slot == NO_SLOT || resolves_cut[slot as usize]
        };
        turn::battles(
            board,
            &self.team,
            &mut self.placement,
            &self.fronts,
            self.params.seed,
            self.record.turn(),
            resolves,
        );
        let mut reports = Vec::with_capacity(REPORT_WORDS * resolved.len());
        for &e in &resolved {
            reports.extend([self.placement[self.board.reverse(e)], self.placement[e]]);
        }
        self.phase = Phase::Fought;
        Ok(reports)
    }

    /// Takes the report cards of the borders the neighbours resolved (cut order), then
    /// occupies and recruits the owned territories; returns the new state of the territories
    /// the neighbours see as ghosts (halo order, team and troops packed in one word), and the
    /// new per-team territories and troops of the owned territories, which the caller sums
    /// over the ranks for [`Self::commit`] (while the ghosts' state travels).
    pub fn occupy(&mut self, reports: &[i64]) -> Result<(Vec<u64>, Counts)> {
        self.require(Phase::Fought, "occupy")?;
        let reported: Vec<usize> = self.cut_where(false).collect();
        check_len(
            "report values",
            reports.len(),
            REPORT_WORDS * reported.len(),
        )?;
        // Survivors keep the sign of what their side placed and are never more: this rank
        // knows its own placement on the border.
        let possible = |placed: i64, survivors: i64| {
            survivors == 0
                || (survivors.signum() == placed.signum()
                    && survivors.unsigned_abs() <= placed.unsigned_abs())
        };
        if let Some((&e, card)) = reported
            .iter()
            .zip(reports.chunks_exact(REPORT_WORDS))
            .find(|(e, card)| {
                !possible(self.placement[**e], card[0]) || card[1].unsigned_abs() > TROOP_LIMIT
            })
        {
            return Err(inconsistent(format!(
                "a report card reads {card:?}: signed survivors of territory {}'s side (which \
                 placed {}) and of the other side (at most {TROOP_LIMIT})",
                self.board.territory_id(self.board.source(e)),
                self.placement[e]
            )));
        }
        for (&e, card) in reported.iter().zip(reports.chunks_exact(REPORT_WORDS)) {
            self.placement[e] = card[0];
            self.placement[self.board.reverse(e)] = card[1];
        }
        let limit = troop_limit(self.record.territories());
        let before = turn::Before {
            board: &self.board,
            team: &self.team,
            placement: &self.placement,
            seed: self.params.seed,
            turn: self.record.turn(),
            rate_ppm: self.params.rate_ppm,
            cap: self.params.cap.min(limit),
            limit,
        };
        let owned = &self.owned;
        let counts = turn::occupy_and_recruit(
            &before,
            self.policies.len(),
            &mut self.next_team,
            &mut self.next_troops,
            |x| owned[x],
        );
        self.phase = Phase::Occupied;
        let halo = self
            .plan
            .halo_send
            .iter()
            .map(|&x| pack_state(self.next_team[x as usize], self.next_troops[x as usize]))
            .collect();
        Ok((halo, counts))
    }

    /// Takes the ghosts' new state (halo order).
    pub fn end_turn(&mut self, ghosts: &[u64]) -> Result<()> {
        self.require(Phase::Occupied, "end_turn")?;
        check_len("ghost states", ghosts.len(), self.plan.halo_recv.len())?;
        let k = self.policies.len() as u64;
        for (&g, &word) in self.plan.halo_recv.iter().zip(ghosts) {
            let (team, troops) = (word >> 48, word & ((1 << 48) - 1));
            if team >= k || troops > TROOP_LIMIT {
                return Err(inconsistent(format!(
                    "territory {} received team {team} with {troops} troops",
                    self.board.territory_id(g as usize)
                )));
            }
            self.next_team[g as usize] = team as u8;
            self.next_troops[g as usize] = troops;
        }
        self.phase = Phase::Ended;
        Ok(())
    }

    /// Makes the turn's state current and records the whole board's counts.
    pub fn commit(&mut self, territories: &[u64], troops: &[u64]) -> Result<()> {
        self.require(Phase::Ended, "commit")?;
        let k = self.policies.len();
        check_len("territory counts", territories.len(), k)?;
        check_len("troop counts", troops.len(), k)?;
        self.update_frontier();
        std::mem::swap(&mut self.team, &mut self.next_team);
        std::mem::swap(&mut self.troops, &mut self.next_troops);
        self.record.push(territories, troops);
        self.phase = Phase::Idle;
        Ok(())
    }

    /// The owned frontier after the turn (`next_team`), from the one before it, as
    /// [`policy::update_frontier`] does on the whole board: only frontier territories change
    /// team (owned ones, and ghosts, which are on their owner's frontier), so only owned
    /// territories that were on the frontier or border one that changed can be on it now.
    fn update_frontier(&mut self) {
        let (board, owned, before, after) = (&self.board, &self.owned, &self.team, &self.next_team);
        let candidates = &mut self.candidates;
        candidates.clear();
        candidates.extend_from_slice(&self.frontier);
        let changed = self.frontier.iter().chain(&self.plan.halo_recv);
        for &x in changed.filter(|&&x| before[x as usize] != after[x as usize]) {
            let neighbours = board.row(x as usize).map(|e| board.target(e));
            candidates.extend(neighbours.filter(|&y| owned[y]).map(|y| y as u32));
        }
        candidates.sort_unstable();
        candidates.dedup();
        self.frontier.clear();
        self.frontier
            .extend(candidates.iter().copied().filter(|&x| {
                let x = x as usize;
                board.row(x).any(|e| after[board.target(e)] != after[x])
            }));
    }
}

/// `values` at each of `indices`, in their order (what a rank sends its neighbours).
fn gather<T: Copy>(indices: &[u32], values: &[T]) -> Vec<T> {
    indices.iter().map(|&i| values[i as usize]).collect()
}

/// Words of a report card: the signed survivors of both sides of a border.
pub const REPORT_WORDS: usize = 2;

fn check_len(what: &str, got: usize, expected: usize) -> Result<()> {
    if got != expected {
        return Err(inconsistent(format!(
            "expected {expected} {what} from the neighbour ranks, got {got}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
