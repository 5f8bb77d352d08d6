//! The built-in players (`docs/outpost-rules.md`, "Players"): `random`, `spread` (greedy
//! area), `frontier` (pushes borders, keeps supply lines safe) and `lookahead` (plans checked by
//! a one-turn simulation).
//!
//! Players keep no state between turns: an answer is a pure function of the view, the seed and
//! the turn, so a saved game continues exactly.

use stratagem_core::rng::{Stream, purpose_tag};
use stratagem_core::{Error, Result};

use crate::control::{ControlWork, tally};
use crate::game::{Outpost, Params};
use crate::grid::{
    CELLS, Cell, DIRECTIONS, NONE, PerCell, STAY, Terrain, for_diamond, for_diamond_edges, per_cell,
};
use crate::supply::{Reach, cut_off};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Random,
    Spread,
    Frontier,
    Lookahead,
}

impl Builtin {
    pub const ALL: [Builtin; 4] = [
        Builtin::Random,
        Builtin::Spread,
        Builtin::Frontier,
        Builtin::Lookahead,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Builtin::Random => "random",
            Builtin::Spread => "spread",
            Builtin::Frontier => "frontier",
            Builtin::Lookahead => "lookahead",
        }
    }

    pub fn parse(name: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "unknown built-in player {name:?}; the built-in players are random, \
                     spread, frontier and lookahead"
                ))
            })
    }
}

/// What a player sees: the whole state, and the turn being played.
#[derive(Clone, Copy)]
pub struct View<'a> {
    pub terrain: &'a Terrain,
    pub outposts: &'a [Outpost],
    pub control: &'a [i8],
    pub params: &'a Params,
    pub seed: u64,
    pub turn: u32,
}

const RANDOM_MOVES: u64 = purpose_tag("outpost.random");
const RANDOM_DISBAND: u64 = purpose_tag("outpost.disband");
const UNREACHABLE: u16 = u16::MAX;
/// An outpost of another empire this close could share a cell after one move of each.
const DANGER_RADIUS: u32 = 2;

/// Buffers the players reuse from turn to turn.
pub struct Scratch {
    cover: PerCell<u16>,
    walk: PerCell<u16>,
    queue: Vec<Cell>,
    around: Vec<Cell>,
    needed: PerCell<bool>,
    danger: PerCell<bool>,
    reach: Reach,
    simulation: Simulation,
}

impl Default for Scratch {
    fn default() -> Self {
        Self {
            cover: per_cell(0),
            walk: per_cell(UNREACHABLE),
            queue: Vec::new(),
            around: Vec::new(),
            needed: per_cell(false),
            danger: per_cell(false),
            reach: Reach::default(),
            simulation: Simulation::default(),
        }
    }
}

/// The directions `kind` plays for `empire`'s outposts (in id order).
pub fn moves(kind: Builtin, view: &View<'_>, empire: u8, scratch: &mut Scratch) -> Vec<u8> {
    match kind {
        Builtin::Random => random_moves(view, empire),
        Builtin::Spread => greedy(view, empire, Greed::Spread, scratch),
        Builtin::Frontier => greedy(view, empire, Greed::Frontier, scratch),
        Builtin::Lookahead => lookahead(view, empire, scratch),
    }
}

/// The id of the outpost `kind` disbands for `empire` (which has at least one).
pub fn disband(kind: Builtin, view: &View<'_>, empire: u8, scratch: &mut Scratch) -> u32 {
    let own: Vec<&Outpost> = view
        .outposts
        .iter()
        .filter(|o| o.empire == empire)
        .collect();
    if kind == Builtin::Random {
        let mut cursor = Stream::with_ids(
            view.seed,
            RANDOM_DISBAND,
            [u64::from(empire), u64::from(view.turn), 0],
        )
        .cursor();
        let index = cursor.below(own.len() as u64) as usize;
        return own.get(index).map_or(0, |o| o.id);
    }
    count_cover(view, empire, &mut scratch.cover);
    let cover = &scratch.cover;
    let mut best: Option<(usize, u32)> = None;
    for outpost in own {
        let mut alone = 0usize;
        for_diamond(outpost.cell, view.params.r, |c| {
            alone += usize::from(cover[usize::from(c)] == 1)
        });
        // Ties go to the largest id: ids increase along `own`.
        if best.is_none_or(|(fewest, _)| alone <= fewest) {
            best = Some((alone, outpost.id));
        }
    }
    best.map_or(0, |(_, id)| id)
}

/// The legal options of an outpost on `cell`: stay, then the legal directions N, E, S, W.
fn options(terrain: &Terrain, cell: Cell) -> impl Iterator<Item = (u8, Cell)> + '_ {
    std::iter::once((STAY, cell))
        .chain((1..DIRECTIONS).filter_map(move |d| terrain.destination(cell, d).map(|to| (d, to))))
}

fn random_moves(view: &View<'_>, empire: u8) -> Vec<u8> {
    let mut cursor = Stream::with_ids(
        view.seed,
        RANDOM_MOVES,
        [u64::from(empire), u64::from(view.turn), 0],
    )
    .cursor();
    let mut chosen = Vec::new();
    let mut legal: Vec<u8> = Vec::with_capacity(5);
    for outpost in view.outposts.iter().filter(|o| o.empire == empire) {
        legal.clear();
        legal.extend(options(view.terrain, outpost.cell).map(|(d, _)| d));
        chosen.push(legal[cursor.below(legal.len() as u64) as usize]);
    }
    chosen
}

/// `cover[c]`: how many of `empire`'s diamonds contain `c`.
fn count_cover(view: &View<'_>, empire: u8, cover: &mut PerCell<u16>) {
    cover[..CELLS].fill(0);
    for outpost in view.outposts.iter().filter(|o| o.empire == empire) {
        for_diamond(outpost.cell, view.params.r, |c| cover[usize::from(c)] += 1);
    }
}

/// `walk[c]`: steps over land from `c` to the nearest target. Targets get 0, the land next
/// to them 1, and a breadth-first search over the other land fills the rest; it stops once
/// every cell of `wanted` is settled (the others keep whatever they have). The search works
/// in the land that is not a target (an empire's own ground), not the whole grid.
fn walk_to_targets(
    terrain: &Terrain,
    is_target: impl Fn(usize) -> bool,
    wanted: &[Cell],
    walk: &mut PerCell<u16>,
    queue: &mut Vec<Cell>,
    needed: &mut PerCell<bool>,
) {
    for (cell, steps) in walk[..CELLS].iter_mut().enumerate() {
        *steps = if !terrain.is_water(cell) && is_target(cell) {
            0
        } else {
            UNREACHABLE
        };
    }
    queue.clear();
    for cell in 0..CELLS {
        if walk[cell] == UNREACHABLE && !terrain.is_water(cell) {
            let next_to_target = terrain
                .land_neighbours(cell)
                .iter()
                .any(|&n| n != NONE && walk[usize::from(n)] == 0);
            if next_to_target {
                queue.push(cell as Cell);
            }
        }
    }
    for &cell in queue.iter() {
        walk[usize::from(cell)] = 1;
    }
    needed[..CELLS].fill(false);
    let mut missing = 0usize;
    for &cell in wanted {
        let c = usize::from(cell);
        if !needed[c] && walk[c] == UNREACHABLE {
            needed[c] = true;
            missing += 1;
        }
    }
    let mut next = 0;
    while next < queue.len() && missing > 0 {
        let cell = usize::from(queue[next]);
        next += 1;
        let steps = walk[cell] + 1;
        for &n in terrain.land_neighbours(cell) {
            if n == NONE {
                continue;
            }
            let n = usize::from(n);
            if walk[n] == UNREACHABLE {
                walk[n] = steps;
                queue.push(n as Cell);
                missing -= usize::from(needed[n]);
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Greed {
    Spread,
    Frontier,
}

/// `spread` and `frontier`: each outpost in id order takes its best option by
/// `(safe, gain - loss, -walk)`, `cover` following the moves already chosen.
fn greedy(view: &View<'_>, empire: u8, greed: Greed, scratch: &mut Scratch) -> Vec<u8> {
    let Scratch {
        cover,
        walk,
        queue,
        around,
        needed,
        danger,
        reach,
        ..
    } = scratch;
    let terrain = view.terrain;
    let r = view.params.r;
    count_cover(view, empire, cover);
    // The cells a decision looks at: where each outpost is and where it can step.
    around.clear();
    for outpost in view.outposts.iter().filter(|o| o.empire == empire) {
        around.extend(options(terrain, outpost.cell).map(|(_, to)| to));
    }
    match greed {
        Greed::Spread => {
            walk_to_targets(terrain, |c| cover[c] == 0, around, walk, queue, needed);
        }
        Greed::Frontier => {
            let not_held = |c| view.control[c] != empire as i8;
            walk_to_targets(terrain, not_held, around, walk, queue, needed);
            reach.search(terrain, view.control, empire, false, around.iter().copied());
            danger[..CELLS].fill(false);
            for enemy in view.outposts.iter().filter(|o| o.empire != empire) {
                for_diamond(enemy.cell, DANGER_RADIUS, |c| danger[usize::from(c)] = true);
            }
        }
    }
    let safe = |cell: Cell| -> bool {
        greed == Greed::Spread || (reach.contains(cell) && !danger[usize::from(cell)])
    };
    let mut chosen = Vec::new();
    for outpost in view.outposts.iter().filter(|o| o.empire == empire) {
        let from = outpost.cell;
        let mut best_direction = STAY;
        let mut best_key = (safe(from), 0i64, -i64::from(walk[usize::from(from)]));
        for (direction, to) in options(terrain, from).skip(1) {
            let mut net = 0i64;
            for_diamond_edges(from, direction, r, |c, gained| {
                let c = usize::from(c);
                if gained {
                    net += i64::from(cover[c] == 0);
                } else {
                    net -= i64::from(cover[c] == 1);
                }
            });
            let key = (safe(to), net, -i64::from(walk[usize::from(to)]));
            if key > best_key {
                best_key = key;
                best_direction = direction;
            }
        }
        if best_direction != STAY {
            for_diamond_edges(from, best_direction, r, |c, gained| {
                let c = usize::from(c);
                if gained {
                    cover[c] += 1;
                } else {
                    cover[c] -= 1;
                }
            });
        }
        chosen.push(best_direction);
    }
    chosen
}

/// Buffers of the lookahead's simulated turns.
#[derive(Default)]
struct Simulation {
    outposts: Vec<Outpost>,
    control: Vec<i8>,
    work: ControlWork,
    reach: Reach,
    cut: Vec<bool>,
}

impl Simulation {
    /// The rest of the turn with `empire` playing `plan` and everybody else staying: the value
    /// `3 * own - others` and which of `empire`'s outposts (in id order) were cut off.
    fn run(&mut self, view: &View<'_>, empire: u8, plan: &[u8]) -> (i64, Vec<bool>) {
        let terrain = view.terrain;
        self.outposts.clear();
        self.outposts.extend_from_slice(view.outposts);
        let mut directions = plan.iter();
        for outpost in self.outposts.iter_mut().filter(|o| o.empire == empire) {
            let direction = directions.next().copied().unwrap_or(STAY);
            if let Some(to) = terrain.destination(outpost.cell, direction) {
                outpost.cell = to;
            }
        }
        self.control.resize(CELLS, 0);
        self.work
            .compute(&self.outposts, view.params.r, &mut self.control);
        let removed = cut_off(
            terrain,
            &self.control,
            &self.outposts,
            view.params.flags.supply_fringe,
            &mut self.reach,
            &mut self.cut,
        );
        let own_cut: Vec<bool> = self
            .outposts
            .iter()
            .zip(&self.cut)
            .filter(|(o, _)| o.empire == empire)
            .map(|(_, &cut)| cut)
            .collect();
        if removed > 0 {
            let mut flags = self.cut.iter();
            self.outposts
                .retain(|_| !flags.next().copied().unwrap_or(false));
            self.work
                .compute(&self.outposts, view.params.r, &mut self.control);
        }
        let counts = tally(terrain, &self.control);
        let cells = |e: usize| i64::from(counts[e][0] + counts[e][1]);
        let own = cells(usize::from(empire));
        let others: i64 = (0..4)
            .filter(|&e| e != usize::from(empire))
            .map(cells)
            .sum();
        (3 * own - others, own_cut)
    }
}

/// `lookahead`: the frontier plan, checked by a simulated turn; when it would lose outposts,
/// the best of it, it with those outposts staying, and everyone staying.
fn lookahead(view: &View<'_>, empire: u8, scratch: &mut Scratch) -> Vec<u8> {
    let frontier = greedy(view, empire, Greed::Frontier, scratch);
    let (frontier_value, cut) = scratch.simulation.run(view, empire, &frontier);
    if !cut.iter().any(|&c| c) {
        return frontier;
    }
    let repaired: Vec<u8> = frontier
        .iter()
        .zip(&cut)
        .map(|(&direction, &was_cut)| if was_cut { STAY } else { direction })
        .collect();
    let stay = vec![STAY; frontier.len()];
    let mut best = (frontier_value, frontier);
    for plan in [repaired, stay] {
        let (value, _) = scratch.simulation.run(view, empire, &plan);
        if value > best.0 {
            best = (value, plan);
        }
    }
    best.1
}
