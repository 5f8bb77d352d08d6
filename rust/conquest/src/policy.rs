//! Placement: the built-in policies of `docs/conquest-rules.md`, each a pure function of the
//! state at the start of the turn (plus, for `random`, the territory's own random stream).

use std::ops::{Deref, Range};
use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;
use stratagem_core::rng::{Stream, purpose_tag};
use stratagem_core::{Error, Result};

use crate::board::{Board, Layout};
use crate::turn::TERRITORIES_PER_TASK;
use crate::{MAX_TEAMS, TROOP_LIMIT, purpose};

/// Who places a team's troops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Random,
    Aggressive,
    Balanced,
    Opportunist,
    /// Chooses each turn, territory by territory along its front, among
    /// [`crate::search::CANDIDATES`] by playing the next turns out.
    Search(Budget),
    /// A Python callable: its placement arrives with the turn.
    Custom,
}

impl Policy {
    /// The names of the policies the engine plays itself (all but `custom`); `search` takes
    /// options (`search:rollouts=R:depth=D`).
    pub const BUILT_IN: [&'static str; 5] =
        ["random", "aggressive", "balanced", "opportunist", "search"];

    /// The policy a user names: a built-in name, `search` with its options, or `custom`.
    pub fn parse(name: &str) -> Result<Self> {
        let (head, options) = name.split_once(':').unwrap_or((name, ""));
        let plain = |policy: Self| {
            if options.is_empty() {
                Ok(policy)
            } else {
                Err(Error::InvalidParameter(format!(
                    "policy {name:?}: {head:?} takes no options"
                )))
            }
        };
        match head {
            "random" => plain(Self::Random),
            "aggressive" => plain(Self::Aggressive),
            "balanced" => plain(Self::Balanced),
            "opportunist" => plain(Self::Opportunist),
            "custom" => plain(Self::Custom),
            "search" => Budget::parse(name, options).map(Self::Search),
            _ => Err(Error::InvalidParameter(format!(
                "unknown policy {name:?}; built-in policies are {:?} (or 'custom')",
                Self::BUILT_IN
            ))),
        }
    }

    /// Whether the policy moves interior troops to the front (needs frontier distances).
    pub fn moves_to_front(self) -> bool {
        matches!(self, Self::Aggressive | Self::Balanced | Self::Opportunist)
    }
}

/// The search's budget: `rollouts` futures per candidate, each `depth` turns long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub rollouts: u32,
    pub depth: u32,
}

/// The most futures per candidate and turns per future a search accepts: a decision then
/// costs at most 3 * 256 * 32 turns.
pub const MAX_ROLLOUTS: u32 = 256;
pub const MAX_DEPTH: u32 = 32;

impl Default for Budget {
    fn default() -> Self {
        Self {
            rollouts: 2,
            depth: 1,
        }
    }
}

impl Budget {
    /// The budget of `search:rollouts=R:depth=D` (either option may be left out); `name` is the
    /// whole policy name, for the messages.
    pub fn parse(name: &str, options: &str) -> Result<Self> {
        let mut budget = Self::default();
        for option in options.split(':').filter(|o| !o.is_empty()) {
            let bad = |why: String| Error::InvalidParameter(format!("policy {name:?}: {why}"));
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| bad(format!("option {option:?} is not KEY=VALUE")))?;
            let (slot, most) = match key {
                "rollouts" => (&mut budget.rollouts, MAX_ROLLOUTS),
                "depth" => (&mut budget.depth, MAX_DEPTH),
                _ => {
                    return Err(bad(format!(
                        "unknown option {key:?}; search takes rollouts and depth"
                    )));
                }
            };
            *slot = value
                .parse::<u32>()
                .ok()
                .filter(|v| (1..=most).contains(v))
                .ok_or_else(|| {
                    bad(format!(
                        "{key} must be an integer from 1 to {most}, got {value:?}"
                    ))
                })?;
        }
        Ok(budget)
    }
}

/// Marks a territory that has no frontier territory of its own team within reach.
pub const NO_DISTANCE: u32 = u32::MAX;

/// The frontier: the territories with an enemy neighbour, ascending. Every battle is on a
/// border between two of them.
pub fn frontier(
    board: &Board,
    team: &[u8],
    owned: impl Fn(usize) -> bool + Sync,
    out: &mut Vec<u32>,
) {
    out.clear();
    out.par_extend(
        (0..board.n() as u32)
            .into_par_iter()
            .with_min_len(TERRITORIES_PER_TASK)
            .filter(|&x| {
                let x = x as usize;
                owned(x)
                    && board
                        .neighbours(x)
                        .iter()
                        .any(|&y| team[y as usize] != team[x])
            }),
    );
}

/// The frontier after a turn, from the frontier before it: only frontier territories change
/// owner (an interior one receives no other team's troops), so only they and their
/// neighbours can join or leave the frontier. `candidates` is a buffer kept between turns.
pub fn update_frontier(
    board: &Board,
    before: &[u8],
    after: &[u8],
    frontier: &mut Vec<u32>,
    candidates: &mut Vec<u32>,
) {
    candidates.clear();
    candidates.extend_from_slice(frontier);
    for &x in frontier.iter() {
        if before[x as usize] != after[x as usize] {
            candidates.extend(board.neighbours(x as usize).iter());
        }
    }
    candidates.par_sort_unstable();
    candidates.dedup();
    frontier.clear();
    frontier.par_extend(candidates.par_iter().copied().filter(|&x| {
        let x = x as usize;
        board
            .neighbours(x)
            .iter()
            .any(|&y| after[y as usize] != after[x])
    }));
}

/// Frontier distance: 0 for a territory with an enemy neighbour (those of `frontier`), else,
/// for the teams whose policy moves troops to the front, the shortest path to one through
/// territories of its own team; [`NO_DISTANCE`] if none (or if no policy reads it).
///
/// An interior territory borders only its own team, so each team's distances come from its
/// own BFS: the teams' searches run in parallel, each sequential (distances are unique, so the
/// result does not depend on the thread count).
pub fn frontier_distance(
    board: &Board,
    team: &[u8],
    policies: &[Policy],
    frontier: &[u32],
    levels: &mut Levels,
    dist: &mut Vec<u32>,
) {
    // Every entry is reset in parallel (a single-threaded fill of a million distances costs
    // as much as a tenth of the search).
    dist.resize(board.n(), NO_DISTANCE);
    dist.par_chunks_mut(TERRITORIES_PER_TASK * 16)
        .for_each(|chunk| chunk.fill(NO_DISTANCE));
    let levels = &mut levels.0;
    levels.resize_with(policies.len(), Default::default);
    for (level, next) in levels.iter_mut() {
        level.clear();
        next.clear();
    }
    for &x in frontier {
        dist[x as usize] = 0;
        if let Some((level, _)) = levels.get_mut(usize::from(team[x as usize])) {
            level.push(x);
        }
    }
    for ((level, _), policy) in levels.iter_mut().zip(policies) {
        if !policy.moves_to_front() {
            level.clear();
        }
    }
    let marks: &[AtomicU32] = atomic_view(dist);
    levels.par_iter_mut().for_each(|(level, next)| {
        // The level holds the territories at `d`; the search marks theirs at `d + 1`.
        let mut d = 0;
        while !level.is_empty() {
            for (i, &x) in level.iter().enumerate() {
                // A level is scattered over the board: ask for the neighbours of the
                // territory some places ahead, so they are at hand when it comes (a tenth
                // less time on the 1000x1000 grid; only the offset read here waits).
                if let Some(&ahead) = level.get(i + 16) {
                    board.prefetch_row(ahead as usize);
                }
                // Every unmarked neighbour is interior, hence of x's team: no team check.
                for &y in board.neighbours(x as usize).iter() {
                    let mark = &marks[y as usize];
                    if mark.load(Ordering::Relaxed) == NO_DISTANCE {
                        mark.store(d + 1, Ordering::Relaxed);
                        next.push(y);
                    }
                }
            }
            d += 1;
            std::mem::swap(level, next);
            next.clear();
        }
    });
}

/// The buffers of [`frontier_distance`], kept from turn to turn: each team's current and next
/// level of the search.
#[derive(Clone, Debug, Default)]
pub struct Levels(Vec<(Vec<u32>, Vec<u32>)>);

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
    /// What the source's team masses around the target, for the edges whose target's row
    /// this board does not hold whole (a rank's ghosts): `(slot of each edge or NO_SLOT,
    /// value of each slot)`. Empty slots: every row is whole.
    pub given_pressure: (&'a [u32], &'a [u64]),
    /// What each team masses around the frontier territories ([`Pressure`]); empty unless a
    /// team plays a policy that strikes.
    pub pressure: &'a Pressure,
    pub seed: u64,
    pub turn: u64,
}

// The pressure table marks the teams met around a territory with one bit each.
const _: () = assert!(MAX_TEAMS <= 64);

/// The number of `(team, troops)` sums of each territory of a chunk, and the sums.
type SumsOfChunk = (Vec<u32>, Vec<(u8, u64)>);

/// For every frontier territory `y` (the only ones a striking policy looks around: its targets
/// border it), the troops each team holds on `y`'s neighbours, so that a look costs a search
/// in the frontier and not a walk of `y`'s row (which on a star is the whole board).
#[derive(Clone, Debug, Default)]
pub struct Pressure {
    /// Per task of the build: the number of sums of each territory, and the sums (kept from
    /// turn to turn).
    chunks: Vec<SumsOfChunk>,
    /// The frontier territories, ascending.
    ids: Vec<u32>,
    /// `sums[starts[k]..starts[k + 1]]` are `(team, troops)` around `ids[k]`.
    starts: Vec<usize>,
    sums: Vec<(u8, u64)>,
}

impl Pressure {
    /// Sums around every territory of `frontier` (ascending) over its row of `board`.
    pub fn build(&mut self, board: &Board, team: &[u8], troops: &[u64], frontier: &[u32]) {
        // Chunks of the frontier in parallel, each with its own lengths and sums.
        self.chunks.resize_with(
            frontier.len().div_ceil(TERRITORIES_PER_TASK),
            Default::default,
        );
        frontier
            .par_chunks(TERRITORIES_PER_TASK)
            .zip(self.chunks.par_iter_mut())
            .for_each(|(chunk, (lengths, sums))| {
                lengths.clear();
                sums.clear();
                // Per territory: each team's troops around it, and the teams met (a bit each).
                let mut totals = [0u64; MAX_TEAMS];
                for &y in chunk {
                    let mut met = 0u64;
                    for &w in board.neighbours(y as usize).iter() {
                        let who = usize::from(team[w as usize]) % MAX_TEAMS;
                        totals[who] += troops[w as usize];
                        met |= 1 << who;
                    }
                    lengths.push(met.count_ones());
                    while met != 0 {
                        let who = met.trailing_zeros() as usize;
                        sums.push((who as u8, totals[who]));
                        totals[who] = 0;
                        met &= met - 1;
                    }
                }
            });
        self.ids.clear();
        self.ids.extend_from_slice(frontier);
        self.starts.clear();
        self.sums.clear();
        let mut end = 0;
        self.starts.push(end);
        for (lengths, sums) in &self.chunks {
            for &length in lengths {
                end += length as usize;
                self.starts.push(end);
            }
            self.sums.extend_from_slice(sums);
        }
    }

    /// The troops of team `who` around `y`, if `y` is in the table.
    pub fn around(&self, y: usize, who: u8) -> Option<u64> {
        let k = self.ids.binary_search(&(y as u32)).ok()?;
        let sums = &self.sums[self.starts[k]..self.starts[k + 1]];
        Some(sums.iter().find(|(t, _)| *t == who).map_or(0, |&(_, a)| a))
    }
}

/// An edge without a given pressure (see [`View::given_pressure`]).
pub const NO_SLOT: u32 = u32::MAX;

/// `a * b / c` rounded down or (with `up`) up, for `a, b <= 2^40` and `c > 0`: in 64 bits
/// when the product fits (almost always), else in 128.
#[inline]
fn mul_div(a: u64, b: u64, c: u64, up: bool) -> u64 {
    match a.checked_mul(b) {
        Some(p) if up => p.div_ceil(c),
        Some(p) => p / c,
        None if up => (u128::from(a) * u128::from(b)).div_ceil(u128::from(c)) as u64,
        None => (u128::from(a) * u128::from(b) / u128::from(c)) as u64,
    }
}

impl View<'_> {
    fn is_enemy(&self, x: usize, e: usize) -> bool {
        self.team[self.board.target(e)] != self.team[x]
    }

    fn troops_at(&self, e: usize) -> u64 {
        self.troops[self.board.target(e)]
    }

    /// For the edge `x -> y`: the troops of `x`'s team on the territories that border `y`.
    fn around(&self, e: usize) -> u64 {
        let (slots, values) = self.given_pressure;
        // A slot without a value (none given yet) counts what this board sees.
        if let Some(&value) = slots.get(e).and_then(|&slot| values.get(slot as usize)) {
            return value;
        }
        let board = self.board;
        let who = self.team[board.source(e)];
        if let Some(value) = self.pressure.around(board.target(e), who) {
            return value;
        }
        board
            .row(board.target(e))
            .map(|f| board.target(f))
            .filter(|&w| self.team[w] == who)
            .map(|w| self.troops[w])
            .sum()
    }

    /// Defends with `r` soldiers the enemy borders of `x` it does not attack (whose entry of
    /// `row` is still 0), border `y` getting `r * troops[y] // T` where `T` sums `troops[y]`
    /// over those borders.
    fn defend_by_threat(&self, x: usize, r: u64, row: &mut [i64]) {
        let start = self.board.row(x).start;
        let defended: Vec<usize> = self
            .board
            .row(x)
            .filter(|&e| self.is_enemy(x, e) && row[e - start] == 0)
            .collect();
        // Troops of distinct territories: the sum fits in a u64 (turn::troop_limit).
        let threat: u64 = defended.iter().map(|&e| self.troops_at(e)).sum();
        if threat == 0 {
            return;
        }
        for e in defended {
            let share = mul_div(r, self.troops_at(e), threat, false);
            row[e - start] = -(share as i64);
        }
    }

    /// Interior territories (distance `d >= 1`) send all but one troop one step closer to
    /// the front, at most what the neighbour can still hold below [`TROOP_LIMIT`] (more
    /// would die there); the rest of the row is 0.
    #[inline]
    fn move_to_front(&self, x: usize, neighbours: &[u32], row: &mut [i64]) {
        let (d, t) = (self.dist[x], self.troops[x]);
        // Toward its first neighbour one step closer (a territory at d >= 1 has one).
        let k = if d == NO_DISTANCE || t < 2 {
            None
        } else {
            neighbours
                .iter()
                .position(|&y| self.dist[y as usize] == d - 1)
        };
        let sent = match k {
            Some(k) => {
                let held = self.troops[neighbours[k] as usize];
                (t - 1).min(TROOP_LIMIT.saturating_sub(held))
            }
            None => 0,
        };
        // Every entry written (no fill first): most rows on most boards are interior ones.
        for (i, slot) in row.iter_mut().enumerate() {
            *slot = if Some(i) == k { sent as i64 } else { 0 };
        }
    }
}

fn random(view: &View<'_>, x: usize, row: &mut [i64]) {
    let start = view.board.row(x).start;
    // The stream is keyed only when the territory has an enemy to draw for.
    let mut cursor = None;
    let mut remaining = view.troops[x];
    for e in view.board.row(x) {
        if !view.is_enemy(x, e) {
            continue;
        }
        let cursor = cursor.get_or_insert_with(|| {
            Stream::with_ids(
                view.seed,
                purpose_tag(purpose::RANDOM_POLICY),
                [view.turn, view.board.territory_id(x), 0],
            )
            .cursor()
        });
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

/// A stack this large no longer grows at 20% recruitment: it reaches [`TROOP_LIMIT`].
pub const FULL: u64 = TROOP_LIMIT - TROOP_LIMIT / 6;

/// How a policy strikes: `x` (holding `t`) attacks an enemy neighbour `y` with
/// `ceil(share * num / den) + 1` soldiers, `share = ceil(troops[y] * t / P(y))` being the
/// defence `y` can spare for `x`'s border if it defends in proportion to threat (`P(y)`: the
/// troops of `x`'s team around `y`), when the troops left afford it.
struct Strike {
    /// `(num, den)`: attackers per defender of the share. Above sqrt(2) (an attacking soldier
    /// flips one coin, a defending one two) the attack beats that defence and keeps
    /// survivors.
    force: (u64, u64),
    /// Whether the cheapest attacks come first (where the team masses most against the
    /// target) rather than those on the weakest targets.
    cheapest_first: bool,
}

impl View<'_> {
    /// The attack of `x` (holding `t`) on the edge `e`.
    fn attack_on(&self, e: usize, t: u64, (num, den): (u64, u64)) -> u64 {
        let (pressure, held) = (self.around(e), self.troops_at(e));
        // P(y) >= t > 0 when x holds troops (x borders y); share <= t <= 2^40.
        let share = mul_div(held, t, pressure.max(1), true);
        mul_div(share, num, den, true).saturating_add(1)
    }

    /// The strike of `x`: attack its enemy neighbours, weakest first (fewest troops) or
    /// cheapest first (smallest attack), first in CSR order on ties, each only if the troops
    /// left afford the whole attack. A [`FULL`] stack that affords none attacks the first
    /// with everything (the siege). If it attacks every enemy border, half the troops left
    /// join the attacks (an equal share each, the rest to the first); otherwise every troop
    /// left defends the other enemy borders, in proportion to threat.
    fn strike(&self, x: usize, row: &mut [i64], strike: &Strike) {
        let t = self.troops[x];
        let start = self.board.row(x).start;
        let mut targets: Vec<(u64, usize, u64)> = self
            .board
            .row(x)
            .filter(|&e| self.is_enemy(x, e))
            .map(|e| {
                let attack = self.attack_on(e, t, strike.force);
                let key = if strike.cheapest_first {
                    attack
                } else {
                    self.troops_at(e)
                };
                (key, e, attack)
            })
            .collect();
        targets.sort_unstable();
        let mut left = t;
        let mut made = Vec::new();
        for &(_, e, attack) in &targets {
            if attack <= left {
                row[e - start] = attack as i64;
                left -= attack;
                made.push(e);
            }
        }
        if made.is_empty() && t >= FULL {
            // A full stack that cannot strike: waiting gains nothing (it no longer recruits,
            // nor does a full stack facing it), so it trades itself against the first target.
            if let Some(&(_, e, _)) = targets.first() {
                row[e - start] = t as i64;
                return;
            }
        }
        if made.len() == targets.len() && !made.is_empty() {
            // No enemy can then enter x (one that attacks too meets x's attack on that
            // border), and the stack moves on split: one stack that kept everything would
            // stop growing at the troop limit while the other side's kept growing. The row
            // commits at most t <= 2^40 troops.
            let pressing = left / 2;
            let share = pressing / made.len() as u64;
            for &e in &made {
                row[e - start] += share as i64;
            }
            row[made[0] - start] += (pressing - share * made.len() as u64) as i64;
        } else {
            self.defend_by_threat(x, left, row);
        }
    }
}

fn aggressive(view: &View<'_>, x: usize, row: &mut [i64]) {
    let strike = Strike {
        force: (7, 4),
        cheapest_first: false,
    };
    view.strike(x, row, &strike);
}

fn balanced(view: &View<'_>, x: usize, row: &mut [i64]) {
    let strike = Strike {
        force: (2, 1),
        cheapest_first: false,
    };
    view.strike(x, row, &strike);
}

fn opportunist(view: &View<'_>, x: usize, row: &mut [i64]) {
    let strike = Strike {
        force: (2, 1),
        cheapest_first: true,
    };
    view.strike(x, row, &strike);
}

/// Calls `fill(x, neighbours_x, row_x)` for every territory in parallel, `row_x` being `x`'s
/// slice of a per-directed-edge array (tasks take contiguous ranges of rows, so writes never
/// overlap): one loop for each way the board keeps its rows.
fn for_row_chunks<T: Send>(
    board: &Board,
    values: &mut [T],
    fill: impl Fn(usize, &[u32], &mut [T]) + Sync,
) {
    match board.layout() {
        Layout::Stored { targets, .. } => {
            for_rows(board, values, |_, range| &targets[range], fill);
        }
        Layout::Plane(plane) => for_rows(board, values, |x, _| plane.neighbours(x), fill),
    }
}

/// [`for_row_chunks`] with `neighbours(x, row)` the neighbours of `x`.
#[inline(always)]
fn for_rows<T: Send, N: Deref<Target = [u32]>>(
    board: &Board,
    values: &mut [T],
    neighbours: impl Fn(usize, Range<usize>) -> N + Sync,
    fill: impl Fn(usize, &[u32], &mut [T]) + Sync,
) {
    let n = board.n();
    let mut tasks = Vec::with_capacity(n / TERRITORIES_PER_TASK + 1);
    let mut rest = values;
    let mut first = 0;
    while first < n {
        let last = (first + TERRITORIES_PER_TASK).min(n);
        let (head, tail) = rest.split_at_mut(board.row_start(last) - board.row_start(first));
        tasks.push((first..last, head));
        rest = tail;
        first = last;
    }
    tasks.into_par_iter().for_each(|(territories, slice)| {
        let offset = board.row_start(territories.start);
        board.each_row(territories, |x, range| {
            let row = &mut slice[range.start - offset..range.end - offset];
            fill(x, &neighbours(x, range), row);
        });
    });
}

/// Fills the rows of the territories `owned` accepts whose team plays a built-in policy (rows
/// of `Custom` teams are left as they are: the caller put the custom placement there).
pub fn place(
    view: &View<'_>,
    policies: &[Policy],
    placement: &mut [i64],
    owned: impl Fn(usize) -> bool + Sync,
) {
    for_row_chunks(view.board, placement, |x, neighbours, row| {
        if !owned(x) {
            return;
        }
        let policy = policies[usize::from(view.team[x])];
        if policy.moves_to_front() && view.dist[x] != 0 {
            // Interior territories of these teams all do the same.
            view.move_to_front(x, neighbours, row);
            return;
        }
        if policy != Policy::Custom {
            row.fill(0);
        }
        match policy {
            Policy::Random => random(view, x, row),
            Policy::Aggressive => aggressive(view, x, row),
            Policy::Balanced => balanced(view, x, row),
            Policy::Opportunist => opportunist(view, x, row),
            // The game puts its choice in place of a search before placing
            // (search::resolve); a search left here (a rank's part) places nothing.
            Policy::Search(_) | Policy::Custom => {}
        }
    });
}

/// Takes from each territory `owned` accepts all that its row of the (complete, checked)
/// `placement` commits: `troops` then holds the garrisons left at home. Done in place once
/// every row is placed (the rows read the troops of neighbours), so a game needs no second
/// per-territory troop array.
pub fn commit(
    board: &Board,
    placement: &[i64],
    troops: &mut [u64],
    owned: impl Fn(usize) -> bool + Sync,
) {
    troops
        .par_chunks_mut(TERRITORIES_PER_TASK)
        .enumerate()
        .for_each(|(chunk, troops)| {
            let first = chunk * TERRITORIES_PER_TASK;
            board.each_row(first..first + troops.len(), |x, row| {
                if owned(x) {
                    // Checked placements commit at most the territory's troops.
                    troops[x - first] -=
                        placement[row].iter().map(|p| p.unsigned_abs()).sum::<u64>();
                }
            });
        });
}

/// Whether any team's policy needs frontier distances this turn.
pub fn needs_distance(policies: &[Policy]) -> bool {
    policies.iter().any(|p| p.moves_to_front())
}

/// Whether any team's policy needs the pressure around enemies this turn (those that strike).
pub fn needs_pressure(policies: &[Policy]) -> bool {
    policies.iter().any(|p| p.moves_to_front())
}
