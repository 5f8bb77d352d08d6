//! A game: board, policies, parameters and state, played one turn at a time.

use std::sync::Arc;

use rayon::prelude::*;
use stratagem_core::memory::{self, Pages};
use stratagem_core::{Error, Result};

use crate::board::Board;
use crate::plane;
use crate::policy::{self, Levels, Policy, Pressure, View};
use crate::turn::{self, TERRITORIES_PER_TASK, troop_limit};
use crate::{MAX_TEAMS, TROOP_LIMIT};

/// Boards of fewer territories play their turns on one thread, whatever the thread count:
/// two tasks' worth of the passes over rows ([`TERRITORIES_PER_TASK`]), the sweep in
/// docs/conquest.md.
pub const SEQUENTIAL_TERRITORIES: usize = 2 * TERRITORIES_PER_TASK;

/// Fixed parameters of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub seed: u64,
    /// Recruitment rate in parts per million.
    pub rate_ppm: u64,
    /// Per-territory troop cap (at most [`TROOP_LIMIT`]).
    pub cap: u64,
    /// The turn after which an undecided game ends as unfinished.
    pub max_turns: Option<u64>,
}

/// The largest recruitment rate accepted: 10 (1000% per turn).
pub const MAX_RATE_PPM: u64 = 10_000_000;

impl Params {
    pub fn validate(&self) -> Result<()> {
        if self.rate_ppm > MAX_RATE_PPM {
            return Err(Error::InvalidParameter(format!(
                "rate must be between 0 and 10, got {} ppm",
                self.rate_ppm
            )));
        }
        if self.cap == 0 || self.cap > TROOP_LIMIT {
            return Err(Error::InvalidParameter(format!(
                "cap must be between 1 and {TROOP_LIMIT}, got {}",
                self.cap
            )));
        }
        if self.max_turns == Some(0) {
            return Err(Error::InvalidParameter(
                "max_turns must be at least 1 (the limit is checked after each turn)".into(),
            ));
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Running,
    Won(u8),
    Draw,
    Unfinished,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Self::Running => "running",
            Self::Won(_) => "won",
            Self::Draw => "draw",
            Self::Unfinished => "unfinished",
        }
    }

    pub fn winner(self) -> Option<u8> {
        match self {
            Self::Won(team) => Some(team),
            _ => None,
        }
    }
}

/// Buffers reused from turn to turn, so a turn does not allocate (and fault in) fresh pages.
#[derive(Debug, Default)]
struct Scratch {
    /// The placement, then the signed survivors ([`turn::battles`]).
    placement: Vec<i64>,
    /// The territories with an enemy neighbour, kept up to date from turn to turn once
    /// `frontier_known`.
    frontier: Vec<u32>,
    frontier_known: bool,
    candidates: Vec<u32>,
    levels: Levels,
    dist: Vec<u32>,
    pressure: Pressure,
    /// The next turn's owners.
    team: Vec<u8>,
}

impl Clone for Scratch {
    /// A copy starts with empty buffers: they hold no state.
    fn clone(&self) -> Self {
        Self::default()
    }
}

#[derive(Clone, Debug)]
pub struct Game {
    board: Arc<Board>,
    policies: Vec<Policy>,
    params: Params,
    team: Vec<u8>,
    troops: Vec<u64>,
    record: Record,
    scratch: Scratch,
}

/// Territories and troops per team after every turn (row 0: the start), row-major with one
/// column per team. Kept by the game, so an interrupted run loses no turn it played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    pub territories: Vec<u64>,
    pub troops: Vec<u64>,
}

/// Where a game stands: its turn counter, status and history, and the end rules (section 5)
/// that move them on. Shared by [`Game`] and by the ranks of a distributed game
/// ([`crate::part::Part`]), which record the same per-team counts.
#[derive(Clone, Debug)]
pub struct Record {
    territories: u64,
    teams: usize,
    max_turns: Option<u64>,
    turn: u64,
    status: Status,
    history: History,
}

impl Record {
    /// A record at turn 0 of a game on `territories` territories with the given counts.
    pub fn start(territories: u64, max_turns: Option<u64>, counts: (Vec<u64>, Vec<u64>)) -> Self {
        let teams = counts.0.len();
        Self {
            territories,
            teams,
            max_turns,
            turn: 0,
            status: Status::Running,
            history: History {
                territories: counts.0,
                troops: counts.1,
            },
        }
    }

    pub fn turn(&self) -> u64 {
        self.turn
    }
    /// Territories of the whole board.
    pub fn territories(&self) -> u64 {
        self.territories
    }
    pub fn status(&self) -> Status {
        self.status
    }
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Whether another turn may be played; a game at its turn limit becomes unfinished.
    pub fn may_play(&mut self) -> bool {
        if self.status != Status::Running {
            return false;
        }
        if self.max_turns.is_some_and(|limit| self.turn >= limit) {
            self.status = Status::Unfinished;
            return false;
        }
        true
    }

    /// Records a played turn: its per-team counts, then the end rules in their order.
    pub fn push(&mut self, territories: &[u64], troops: &[u64]) {
        self.turn += 1;
        self.history.territories.extend_from_slice(territories);
        self.history.troops.extend_from_slice(troops);
        self.status = if let Some(team) = territories.iter().position(|&c| c == self.territories) {
            Status::Won(team as u8)
        } else {
            let mut armed = troops.iter().enumerate().filter(|&(_, &n)| n > 0);
            match (armed.next(), armed.next()) {
                (Some((team, _)), None) => Status::Won(team as u8),
                (None, _) => Status::Draw,
                _ if self.max_turns.is_some_and(|limit| self.turn >= limit) => Status::Unfinished,
                _ => Status::Running,
            }
        };
    }

    /// Restores the turn counter, status and history of a saved game; the history must have
    /// one row per turn played plus the start, and its last row must match `counts`.
    pub fn resume(
        &mut self,
        turn: u64,
        status: Status,
        history: History,
        counts: (&[u64], &[u64]),
    ) -> Result<()> {
        let k = self.teams;
        let rows = usize::try_from(turn).ok().and_then(|t| t.checked_add(1));
        let shape_ok = rows.is_some_and(|rows| {
            history.territories.len() == rows * k && history.troops.len() == rows * k
        });
        if !shape_ok {
            return Err(Error::InconsistentInput(format!(
                "a history of turn {turn} has {} rows of {k} teams, got {} and {} values",
                turn.saturating_add(1),
                history.territories.len(),
                history.troops.len()
            )));
        }
        let last = history.territories.len() - k;
        if history.territories[last..] != *counts.0 || history.troops[last..] != *counts.1 {
            return Err(Error::InconsistentInput(
                "the last row of the history does not match the territories and troops".into(),
            ));
        }
        self.turn = turn;
        self.status = status;
        self.history = history;
        Ok(())
    }
}

impl Game {
    /// A game at turn `turn` with the given state. Errors name the offending territory.
    pub fn new(
        board: Arc<Board>,
        team: &[i64],
        troops: &[i64],
        policies: Vec<Policy>,
        params: Params,
    ) -> Result<Self> {
        let n = board.n();
        let k = policies.len();
        check_setup(k, params)?;
        if team.len() != n || troops.len() != n {
            return Err(Error::InvalidParameter(format!(
                "team and troops need one entry per territory ({n}), got {} and {}",
                team.len(),
                troops.len()
            )));
        }
        if let Some(x) = team.iter().position(|&t| t < 0 || t as usize >= k) {
            return Err(Error::InvalidParameter(format!(
                "territory {x} has team {}, but {k} policies were given: teams run 0..{} \
                 (one policy per team)",
                team[x],
                k - 1
            )));
        }
        let limit = troop_limit(n as u64);
        if let Some(x) = troops.iter().position(|&t| t < 0 || t as u64 > limit) {
            return Err(Error::InvalidParameter(format!(
                "territory {x} has {} troops, outside 0..{limit}",
                troops[x]
            )));
        }
        let team: Vec<u8> = memory::collect(team.par_iter().map(|&t| t as u8));
        let troops: Vec<u64> = troops.par_iter().map(|&t| t as u64).collect();
        Ok(Self::started(board, team, troops, policies, params))
    }

    /// [`Self::started`] after checking the teams and the parameters, and that the state
    /// has one entry per territory (its values are the caller's to check).
    pub(crate) fn started_checked(
        board: Arc<Board>,
        team: Vec<u8>,
        troops: Vec<u64>,
        policies: Vec<Policy>,
        params: Params,
    ) -> Result<Self> {
        check_setup(policies.len(), params)?;
        if team.len() != board.n() || troops.len() != board.n() {
            return Err(Error::InvalidParameter(format!(
                "team and troops need one entry per territory ({}), got {} and {}",
                board.n(),
                team.len(),
                troops.len()
            )));
        }
        Ok(Self::started(board, team, troops, policies, params))
    }

    /// A game at turn 0 from checked state: one team below `policies.len()` and troops up to
    /// the board's [`troop_limit`] per territory.
    fn started(
        board: Arc<Board>,
        team: Vec<u8>,
        troops: Vec<u64>,
        policies: Vec<Policy>,
        params: Params,
    ) -> Self {
        let (n, k) = (board.n(), policies.len());
        let counts = counts(k, &team, &troops);
        Self {
            record: Record::start(n as u64, params.max_turns, counts),
            board,
            policies,
            params,
            team,
            troops,
            scratch: Scratch::default(),
        }
    }

    /// The same game with other parameters (used to give each game of a batch its seed).
    pub fn with_params(&self, params: Params) -> Self {
        let mut game = Self {
            params,
            ..self.clone()
        };
        game.record.max_turns = params.max_turns;
        game
    }

    /// Restores the turn counter, status and history of a saved game; the history must have
    /// one row per turn played plus the start, and its last row must match the state.
    pub fn resume(&mut self, turn: u64, status: Status, history: History) -> Result<()> {
        let (territories, troops) = self.counts();
        self.record
            .resume(turn, status, history, (&territories, &troops))
    }

    pub fn history(&self) -> &History {
        self.record.history()
    }
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The threads worth using for this board's turns out of `threads`: one below
    /// [`SEQUENTIAL_TERRITORIES`].
    pub fn threads_for(&self, threads: usize) -> usize {
        if self.board.n() < SEQUENTIAL_TERRITORIES {
            1
        } else {
            threads
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn team(&self) -> &[u8] {
        &self.team
    }
    pub fn troops(&self) -> &[u64] {
        &self.troops
    }
    pub fn turn(&self) -> u64 {
        self.record.turn()
    }
    pub fn status(&self) -> Status {
        self.record.status()
    }
    pub fn params(&self) -> Params {
        self.params
    }
    pub fn policies(&self) -> &[Policy] {
        &self.policies
    }

    /// Changes the teams' policies from the next turn on (one per team, as at the start):
    /// every policy draws from streams named by the seed, the turn and the territory, so the
    /// game goes on as a game started with these policies would from this state.
    pub fn set_policies(&mut self, policies: Vec<Policy>) -> Result<()> {
        if policies.len() != self.policies.len() {
            return Err(Error::InvalidParameter(format!(
                "the game has {} teams, so it takes {} policies, got {}",
                self.policies.len(),
                self.policies.len(),
                policies.len()
            )));
        }
        self.policies = policies;
        Ok(())
    }

    /// Whether some team's placement must come from the caller.
    pub fn has_custom(&self) -> bool {
        self.policies.contains(&Policy::Custom)
    }

    /// Checks a caller's placement: one entry per directed edge, nonzero only on rows of
    /// territories of custom teams, never committing more troops than a territory holds.
    pub fn check_custom(&self, placement: &[i64]) -> Result<()> {
        let board = &*self.board;
        if placement.len() != board.n_edges() {
            return Err(Error::InvalidParameter(format!(
                "a placement has one entry per directed border ({}), got {}",
                board.n_edges(),
                placement.len()
            )));
        }
        for x in 0..board.n() {
            let team = self.team[x];
            let row = &placement[board.row(x)];
            if self.policies[usize::from(team)] != Policy::Custom {
                if let Some(k) = row.iter().position(|&p| p != 0) {
                    return Err(Error::InvalidMove(format!(
                        "placement on border {x} -> {} but territory {x} belongs to team {team}, \
                         which does not play a custom policy",
                        board.target(board.row(x).start + k)
                    )));
                }
                continue;
            }
            check_committed(row, self.troops[x], x as u64)?;
        }
        Ok(())
    }

    /// The placement of this turn: built-in policies computed here, custom rows taken from
    /// `custom` (validated first).
    pub fn placement(&self, custom: Option<&[i64]>) -> Result<Vec<i64>> {
        let mut scratch = Scratch::default();
        self.fill_placement(custom, &mut scratch)?;
        Ok(scratch.placement)
    }

    fn fill_placement(&self, custom: Option<&[i64]>, scratch: &mut Scratch) -> Result<()> {
        let Scratch {
            placement,
            frontier,
            frontier_known,
            levels,
            dist,
            pressure,
            ..
        } = scratch;
        let board = &*self.board;
        match custom {
            Some(given) => {
                self.check_custom(given)?;
                placement.clear();
                placement.extend_from_slice(given);
            }
            None if self.has_custom() => {
                return Err(Error::InvalidParameter(
                    "a team plays a custom policy: its placement must be given".into(),
                ));
            }
            // Every row is written by its policy: no need to clear the last turn's.
            None => memory::resize(placement, board.n_edges(), 0, Pages::Small),
        }
        if !*frontier_known {
            policy::frontier(board, &self.team, |_| true, frontier);
            *frontier_known = true;
        }
        if policy::needs_distance(&self.policies) {
            // Sized here, where it gets huge pages for the search's scattered reads (a plane
            // grid's passes read it in order): the search then only resets it.
            let pages = if board.plane().is_some() {
                Pages::Small
            } else {
                Pages::Huge
            };
            memory::resize(dist, board.n(), policy::NO_DISTANCE, pages);
            let policies = &self.policies;
            match board.plane() {
                Some(shape) => {
                    plane::frontier_distance(board, shape, &self.team, policies, frontier, dist);
                }
                None => {
                    policy::frontier_distance(board, &self.team, policies, frontier, levels, dist);
                }
            }
        }
        if policy::needs_pressure(&self.policies) {
            pressure.build(board, &self.team, &self.troops, frontier);
        }
        let view = View {
            board,
            team: &self.team,
            troops: &self.troops,
            dist,
            given_pressure: (&[], &[]),
            pressure,
            seed: self.params.seed,
            turn: self.turn(),
        };
        policy::place(&view, &self.policies, placement, |_| true);
        Ok(())
    }

    /// Plays one turn unless the game is over; returns whether a turn was played.
    pub fn step(&mut self, custom: Option<&[i64]>) -> Result<bool> {
        if !self.record.may_play() {
            return Ok(false);
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let placed = self.fill_placement(custom, &mut scratch);
        if placed.is_ok() {
            self.play(&mut scratch);
        }
        self.scratch = scratch;
        placed.map(|()| true)
    }

    /// Phases 2-5 for the complete, valid placement in `scratch`.
    fn play(&mut self, scratch: &mut Scratch) {
        let p = self.params;
        let board = &*self.board;
        // The troops become the garrisons, then (occupation) the next turn's troops.
        policy::commit(board, &scratch.placement, &mut self.troops, |_| true);
        turn::battles(
            board,
            &self.team,
            &mut scratch.placement,
            &scratch.frontier,
            p.seed,
            self.turn(),
            |_| true,
        );
        let limit = troop_limit(board.n() as u64);
        let before = turn::Before {
            board,
            team: &self.team,
            placement: &scratch.placement,
            seed: p.seed,
            turn: self.turn(),
            rate_ppm: p.rate_ppm,
            cap: p.cap.min(limit),
            limit,
        };
        memory::resize(&mut scratch.team, board.n(), 0, Pages::Small);
        let (territories, troops) = turn::occupy_and_recruit(
            &before,
            self.policies.len(),
            &mut scratch.team,
            &mut self.troops,
            |_| true,
        );
        policy::update_frontier(
            board,
            &self.team,
            &scratch.team,
            &mut scratch.frontier,
            &mut scratch.candidates,
        );
        std::mem::swap(&mut self.team, &mut scratch.team);
        self.record.push(&territories, &troops);
    }

    /// Territories and troops per team.
    pub fn counts(&self) -> (Vec<u64>, Vec<u64>) {
        counts(self.policies.len(), &self.team, &self.troops)
    }
}

/// Refuses a game of `k` teams (one policy each) outside 2 to [`MAX_TEAMS`], or bad
/// parameters.
fn check_setup(k: usize, params: Params) -> Result<()> {
    if !(2..=MAX_TEAMS).contains(&k) {
        return Err(Error::InvalidParameter(format!(
            "a game has 2 to {MAX_TEAMS} teams (one policy each), got {k}"
        )));
    }
    params.validate()
}

/// Territories and troops per team of `k` teams (summed a block at a time in parallel:
/// integer sums, the same for any thread count).
pub fn counts(k: usize, team: &[u8], troops: &[u64]) -> (Vec<u64>, Vec<u64>) {
    const BLOCK: usize = 1 << 16;
    let zeros = || (vec![0u64; k], vec![0u64; k]);
    team.par_chunks(BLOCK)
        .zip(troops.par_chunks(BLOCK))
        .fold(zeros, |(mut territories, mut totals), (team, troops)| {
            for (&t, &n) in team.iter().zip(troops) {
                territories[usize::from(t)] += 1;
                totals[usize::from(t)] += n;
            }
            (territories, totals)
        })
        .reduce(zeros, |(mut a, mut b), (c, d)| {
            a.iter_mut().zip(c).for_each(|(sum, add)| *sum += add);
            b.iter_mut().zip(d).for_each(|(sum, add)| *sum += add);
            (a, b)
        })
}

/// Refuses a custom placement row that commits more troops than territory `id` holds
/// (`held`): the rule for [`Game::check_custom`] and a rank's part alike.
pub(crate) fn check_committed(row: &[i64], held: u64, id: u64) -> Result<()> {
    let committed: u128 = row.iter().map(|p| u128::from(p.unsigned_abs())).sum();
    if committed > u128::from(held) {
        return Err(Error::InvalidMove(format!(
            "territory {id} places {committed} troops but holds {held}"
        )));
    }
    Ok(())
}
