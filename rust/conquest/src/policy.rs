//! Placement: the built-in policies of `docs/conquest-rules.md`, each a pure function of the
//! state at the start of the turn (plus, for `random`, the territory's own random stream).

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;
use stratagem_core::rng::{Stream, purpose_tag};
use stratagem_core::{Error, Result};

use crate::board::Board;
use crate::purpose;

/// Who places a team's troops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Random,
    Aggressive,
    Balanced,
    Opportunist,
    /// A Python callable: its placement arrives with the turn.
    Custom,
}

impl Policy {
    pub const BUILT_IN: [&'static str; 4] = ["random", "aggressive", "balanced", "opportunist"];

    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "random" => Ok(Self::Random),
            "aggressive" => Ok(Self::Aggressive),
            "balanced" => Ok(Self::Balanced),
            "opportunist" => Ok(Self::Opportunist),
            "custom" => Ok(Self::Custom),
            other => Err(Error::InvalidParameter(format!(
                "unknown policy {other:?}; built-in policies are {:?} (or 'custom')",
                Self::BUILT_IN
            ))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Random => "random",
            Self::Aggressive => "aggressive",
            Self::Balanced => "balanced",
            Self::Opportunist => "opportunist",
            Self::Custom => "custom",
        }
    }

    /// Whether the policy moves interior troops to the front (needs frontier distances).
    fn moves_to_front(self) -> bool {
        matches!(self, Self::Aggressive | Self::Balanced | Self::Opportunist)
    }
}

/// Marks a territory that has no frontier territory of its own team within reach.
pub const NO_DISTANCE: u32 = u32::MAX;

/// Frontier distance: 0 for a territory with an enemy neighbour, else the shortest path to
/// one through territories of its own team; [`NO_DISTANCE`] if none.
///
/// An interior territory borders only its own team, so each team's distances come from its
/// own BFS: the teams' searches run in parallel, each sequential (distances are unique, so the
/// result does not depend on the thread count).
pub fn frontier_distance(board: &Board, team: &[u8], dist: &mut Vec<u32>) {
    let n = board.n();
    dist.clear();
    dist.par_extend((0..n).into_par_iter().map(|x| {
        let frontier = board.row(x).any(|e| team[board.target(e)] != team[x]);
        if frontier { 0 } else { NO_DISTANCE }
    }));
    let teams = usize::from(team.iter().copied().max().unwrap_or(0)) + 1;
    let mut sources: Vec<Vec<u32>> = vec![Vec::new(); teams];
    for (x, (&d, &t)) in dist.iter().zip(team).enumerate() {
        if d == 0 {
            sources[usize::from(t)].push(x as u32);
        }
    }
    let marks: &[AtomicU32] = atomic_view(dist);
    sources.into_par_iter().for_each(|mut level| {
        let mut next = Vec::new();
        let mut d = 0;
        while !level.is_empty() {
            d += 1;
            for &x in &level {
                // Every unmarked neighbour is interior, hence of x's team: no team check.
                for e in board.row(x as usize) {
                    let y = board.target(e);
                    if marks[y].load(Ordering::Relaxed) == NO_DISTANCE {
                        marks[y].store(d, Ordering::Relaxed);
                        next.push(y as u32);
                    }
                }
            }
            std::mem::swap(&mut level, &mut next);
            next.clear();
        }
    });
}

/// The same memory seen as atomics, so parallel BFS workers can claim territories.
fn atomic_view(values: &mut [u32]) -> &[AtomicU32] {
    // SAFETY: AtomicU32 has the size and alignment of u32, and the exclusive borrow guarantees
    // no other access to `values` while the atomic view lives. Each team's search writes only
    // its own territories, so the views never race.
    unsafe { &*(std::ptr::from_mut::<[u32]>(values) as *const [AtomicU32]) }
}

/// What a policy may look at.
pub struct View<'a> {
    pub board: &'a Board,
    pub team: &'a [u8],
    pub troops: &'a [u64],
    pub dist: &'a [u32],
    /// See [`pressure`]; empty unless a team plays `opportunist`.
    pub pressure: &'a [u64],
    pub seed: u64,
    pub turn: u64,
}

impl View<'_> {
    fn is_enemy(&self, x: usize, e: usize) -> bool {
        self.team[self.board.target(e)] != self.team[x]
    }

    fn troops_at(&self, e: usize) -> u64 {
        self.troops[self.board.target(e)]
    }

    /// The enemy neighbour with the fewest troops (first in CSR order on ties) among the
    /// edges `e` of `x`'s row that `keep` accepts, as an offset in the row.
    fn weakest(&self, x: usize, keep: impl Fn(usize) -> bool) -> Option<usize> {
        let start = self.board.row(x).start;
        self.board
            .row(x)
            .filter(|&e| self.is_enemy(x, e) && keep(e))
            .min_by_key(|&e| (self.troops_at(e), e))
            .map(|e| e - start)
    }

    /// Defends with `r` soldiers the enemy borders of `x` that `keep` accepts, border `y`
    /// getting `r * troops[y] // T` where `T` sums `troops[y]` over those borders.
    fn defend_by_threat(&self, x: usize, r: u64, row: &mut [i64], keep: impl Fn(usize) -> bool) {
        let start = self.board.row(x).start;
        let defended = || {
            self.board
                .row(x)
                .filter(|&e| self.is_enemy(x, e) && keep(e))
        };
        let threat: u128 = defended().map(|e| u128::from(self.troops_at(e))).sum();
        if threat == 0 {
            return;
        }
        for e in defended() {
            let share = u128::from(r) * u128::from(self.troops_at(e)) / threat;
            row[e - start] = -(share as i64);
        }
    }

    /// Interior territories send all but one troop one step closer to the front.
    fn move_to_front(&self, x: usize, row: &mut [i64]) {
        let (d, t) = (self.dist[x], self.troops[x]);
        if d == NO_DISTANCE || d == 0 || t < 2 {
            return;
        }
        let start = self.board.row(x).start;
        if let Some(e) = self
            .board
            .row(x)
            .find(|&e| self.dist[self.board.target(e)] == d - 1)
        {
            row[e - start] = (t - 1) as i64;
        }
    }
}

fn random(view: &View<'_>, x: usize, row: &mut [i64]) {
    let start = view.board.row(x).start;
    let mut cursor = Stream::with_ids(
        view.seed,
        purpose_tag(purpose::RANDOM_POLICY),
        [view.turn, view.board.territory_id(x), 0],
    )
    .cursor();
    let mut remaining = view.troops[x];
    for e in view.board.row(x) {
        if !view.is_enemy(x, e) {
            continue;
        }
        let choice = cursor.uniform_below(3);
        if choice == 0 {
            continue;
        }
        let amount = cursor.uniform_below(remaining + 1);
        remaining -= amount;
        row[e - start] = if choice == 1 {
            amount as i64
        } else {
            -(amount as i64)
        };
    }
}

fn aggressive(view: &View<'_>, x: usize, row: &mut [i64]) {
    let t = view.troops[x];
    if view.dist[x] != 0 {
        return view.move_to_front(x, row);
    }
    if t >= 2
        && let Some(w) = view.weakest(x, |_| true)
    {
        row[w] = (t - 1) as i64;
    }
}

fn balanced(view: &View<'_>, x: usize, row: &mut [i64]) {
    if view.dist[x] != 0 {
        return view.move_to_front(x, row);
    }
    let t = view.troops[x];
    let Some(w) = view.weakest(x, |_| true) else {
        return;
    };
    let start = view.board.row(x).start;
    let weakest_troops = view.troops_at(start + w);
    if t >= 1 && t - 1 > 2 * weakest_troops {
        let attack = (t - 1) / 2;
        row[w] = attack as i64;
        view.defend_by_threat(x, t - 1 - attack, row, |e| e != start + w);
    } else {
        view.defend_by_threat(x, t, row, |_| true);
    }
}

fn opportunist(view: &View<'_>, x: usize, row: &mut [i64]) {
    if view.dist[x] != 0 {
        return view.move_to_front(x, row);
    }
    let t = view.troops[x];
    let board = view.board;
    let around = |e: usize| view.pressure[board.reverse(e)];
    // An enemy is breakable when the troops of x's team around it exceed 2.5 times its own: a
    // defence in proportion to threat then leaves it outnumbered on every border.
    let breakable = |e: usize| 2 * around(e) > 5 * view.troops_at(e);
    let Some(target) = view.weakest(x, breakable) else {
        return view.defend_by_threat(x, t, row, |_| true);
    };
    let start = board.row(x).start;
    let e = start + target;
    // Its expected defence on this border, and an attack twice as large (plus one): enough to
    // win with about 1.4 times that defence left, without emptying x.
    let share = (u128::from(view.troops_at(e)) * u128::from(t)).div_ceil(u128::from(around(e)));
    let attack = (2 * share + 1).min(u128::from(t)) as u64;
    row[target] = attack as i64;
    view.defend_by_threat(x, t - attack, row, |other| other != e);
}

/// For every directed edge `y -> z`: the troops of the territories of `z`'s team that border
/// `y` (so for `x -> y`, `pressure[reverse(x -> y)]` is what `x`'s team masses around `y`).
pub fn pressure(board: &Board, team: &[u8], troops: &[u64], pressure: &mut Vec<u64>) {
    pressure.clear();
    pressure.resize(board.n_edges(), 0);
    for_row_chunks(board, pressure, |y, row| {
        let mut around: Vec<(u8, u64)> = Vec::new();
        for e in board.row(y) {
            let (who, amount) = (team[board.target(e)], troops[board.target(e)]);
            match around.iter_mut().find(|(t, _)| *t == who) {
                Some(slot) => slot.1 += amount,
                None => around.push((who, amount)),
            }
        }
        for (slot, e) in row.iter_mut().zip(board.row(y)) {
            let who = team[board.target(e)];
            *slot = around
                .iter()
                .find(|(t, _)| *t == who)
                .map_or(0, |&(_, a)| a);
        }
    });
}

/// Calls `fill(x, row_x)` for every territory in parallel, `row_x` being `x`'s slice of a
/// per-directed-edge array (tasks take contiguous ranges of rows, so writes never overlap).
fn for_row_chunks<T: Send>(board: &Board, values: &mut [T], fill: impl Fn(usize, &mut [T]) + Sync) {
    const TERRITORIES_PER_TASK: usize = 2048;
    let n = board.n();
    let mut tasks = Vec::with_capacity(n / TERRITORIES_PER_TASK + 1);
    let mut rest = values;
    let mut first = 0;
    while first < n {
        let last = (first + TERRITORIES_PER_TASK).min(n);
        let len = board.indptr()[last] - board.indptr()[first];
        let (head, tail) = rest.split_at_mut(len);
        tasks.push((first, last, head));
        rest = tail;
        first = last;
    }
    tasks.into_par_iter().for_each(|(first, last, slice)| {
        let offset = board.indptr()[first];
        for x in first..last {
            let range = board.row(x);
            fill(x, &mut slice[range.start - offset..range.end - offset]);
        }
    });
}

/// Fills the rows of the territories `owned` accepts whose team plays a built-in policy; rows
/// of `Custom` teams are left as they are (the caller put the custom placement there).
pub fn place(
    view: &View<'_>,
    policies: &[Policy],
    placement: &mut [i64],
    owned: impl Fn(usize) -> bool + Sync,
) {
    for_row_chunks(view.board, placement, |x, row| {
        let policy = policies[usize::from(view.team[x])];
        if policy == Policy::Custom || !owned(x) {
            return;
        }
        row.fill(0);
        match policy {
            Policy::Random => random(view, x, row),
            Policy::Aggressive => aggressive(view, x, row),
            Policy::Balanced => balanced(view, x, row),
            Policy::Opportunist => opportunist(view, x, row),
            Policy::Custom => {}
        }
    });
}

/// Whether any team's policy needs frontier distances this turn.
pub fn needs_distance(policies: &[Policy]) -> bool {
    policies.iter().any(|p| p.moves_to_front())
}

/// Whether any team's policy needs the pressure around enemies this turn.
pub fn needs_pressure(policies: &[Policy]) -> bool {
    policies.contains(&Policy::Opportunist)
}
