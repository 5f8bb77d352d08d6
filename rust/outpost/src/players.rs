//! The built-in players (`docs/outpost-rules.md`, "Players"): `random`, `spread` (greedy
//! area), `frontier` (pushes borders, keeps supply lines safe) and `lookahead` (plans checked by
//! a one-turn simulation).
//!
//! Players keep no state between turns: an answer is a pure function of the view, the seed and
//! the turn, so a saved game continues exactly.

use stratagem_core::rng::{Stream, purpose_tag};

use crate::control::{ControlWork, tally};
use crate::cover::Cover;
use crate::grid::{
    CELLS, Cell, DIRECTIONS, PerCell, SIZE, STAY, for_diamond, for_diamond_rows, per_cell,
};
use crate::params::{EMPIRES, Outpost, Params};
use crate::rows::{self, EMPTY, Row, Rows};
use crate::supply::{self, Reach, cut_off};
use crate::terrain::Terrain;

stratagem_core::named_enum! {
    /// The built-in players.
    #[derive(Hash)]
    pub enum Builtin: unknown("built-in player") {
        Random = "random",
        Spread = "spread",
        Frontier = "frontier",
        Lookahead = "lookahead",
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
/// The largest radius for which the lookahead's simulated supply lines take the passable
/// cells from the outposts ([`supply::passable`]) rather than from a control map.
const PASSABLE_RADIUS: u32 = 14;
/// An outpost of another empire this close could share a cell after one move of each.
const DANGER_RADIUS: u32 = 2;

/// Buffers the players reuse from turn to turn.
pub struct Scratch {
    /// Each empire's cover: a count starts from the empire's last one.
    covers: [Cover; EMPIRES],
    walk: PerCell<u16>,
    /// Steps to the nearest site, for a stranded empire ([`stranded`]).
    site_walk: PerCell<u16>,
    reach: Reach,
    simulation: Simulation,
}

impl Default for Scratch {
    fn default() -> Self {
        Self {
            covers: std::array::from_fn(|_| Cover::new(0)),
            walk: per_cell(UNREACHABLE),
            site_walk: per_cell(UNREACHABLE),
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
    let cover = count_cover(view, empire, &mut scratch.covers);
    let mut best: Option<(usize, u32)> = None;
    for outpost in own {
        let mut alone = 0usize;
        for_diamond(outpost.cell, view.params.r, |c| {
            alone += usize::from(cover.get(c) == 1)
        });
        // Ties go to the largest id: ids increase along `own`.
        if best.is_none_or(|(fewest, _)| alone <= fewest) {
            best = Some((alone, outpost.id));
        }
    }
    best.map_or(0, |(_, id)| id)
}

/// How a cell's index changes with a step in each direction (stay, N, E, S, W).
const STEP_OFFSETS: [i16; DIRECTIONS as usize] = [0, -(SIZE as i16), 1, SIZE as i16, -1];

/// Which of `cell` and its four neighbours (in direction order: the cell, N, E, S, W) are in
/// `rows`, bit `d` for direction `d`; a neighbour off the grid never is.
#[inline]
fn neighbourhood(rows: &Rows, cell: Cell) -> u8 {
    let c = usize::from(cell);
    let (x, y) = (c % SIZE, c / SIZE);
    let bit = |row: Row, x: usize| (row >> x) as u8 & 1;
    // Columns x - 1, x and x + 1 of row y at bits 0, 1 and 2 (column SIZE is never set).
    let middle = rows.get(y).map_or(0, |&row| (row << 1 >> x) as u8 & 0b111);
    let north = if y > 0 { bit(rows[y - 1], x) } else { 0 };
    let south = rows.get(y + 1).map_or(0, |&row| bit(row, x));
    (middle >> 1 & 1) | north << 1 | (middle >> 2 & 1) << 2 | south << 3 | (middle & 1) << 4
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

/// `cover`: how many of `empire`'s diamonds hold each cell, in `empire`'s cover.
fn count_cover<'a>(view: &View<'_>, empire: u8, covers: &'a mut [Cover; EMPIRES]) -> &'a mut Cover {
    let cover = &mut covers[usize::from(empire) % EMPIRES];
    if cover.radius() != view.params.r {
        *cover = Cover::new(view.params.r);
    }
    let own = view.outposts.iter().filter(|o| o.empire == empire);
    cover.count(own.map(|o| (o.id, o.cell)));
    cover
}

/// The cells of the diamonds of radius `r` around `centres`.
fn diamonds(centres: impl Iterator<Item = Cell>, r: u32) -> Rows {
    let mut covered = EMPTY;
    for centre in centres {
        for_diamond_rows(centre, r, |y, left, right| {
            covered[y] |= rows::span(left, right)
        });
    }
    covered
}

/// `walk[c]` for every cell `c` of `wanted`: steps over land from `c` to the nearest land cell
/// of `targets` (0 on one, `UNREACHABLE` when no land path leads to one). A breadth-first
/// search from every target at once, a whole layer of cells per step, that stops once every
/// wanted cell is settled. Other cells of `walk` keep whatever they held.
fn walk_to_targets(terrain: &Terrain, targets: &Rows, wanted: &Rows, walk: &mut PerCell<u16>) {
    let mut unsettled = *wanted;
    search_walks(terrain, targets, &mut unsettled, walk);
    // What the search never reached: no land path leads to a target.
    rows::for_each(&unsettled, |cell| walk[usize::from(cell)] = UNREACHABLE);
}

/// The search of [`walk_to_targets`]: writes the walk of the cells of `unsettled` it reaches
/// and takes them out.
fn search_walks(terrain: &Terrain, targets: &Rows, unsettled: &mut Rows, walk: &mut PerCell<u16>) {
    let land = terrain.land_rows();
    let mut missing: usize = unsettled.iter().map(|row| row.count_ones() as usize).sum();
    // The layer's rows sit one place down, between two rows that stay empty, so a row's
    // neighbours are read without bounds checks. `unseen`: land the search has not reached.
    // The two buffers trade places by reference after each step, never by copy.
    let (mut layer_rows, mut next_rows) = ([0 as Row; SIZE + 2], [0 as Row; SIZE + 2]);
    let (mut layer, mut next) = (&mut layer_rows, &mut next_rows);
    let mut unseen = EMPTY;
    for y in 0..SIZE {
        let row = targets[y] & land[y];
        layer[y + 1] = row;
        unseen[y] = land[y] & !row;
        missing -= settle(walk, &mut unsettled[y], y, row, 0);
    }
    if missing == 0 {
        return;
    }
    // `layer` has cells in rows `first..last` only; `next` is empty outside the rows written.
    let (mut first, mut last): (usize, usize) = (0, SIZE);
    for steps in 1u16.. {
        let wider = first.saturating_sub(1)..(last + 1).min(SIZE);
        let (mut grown_first, mut grown_last) = (SIZE, 0);
        for y in wider.clone() {
            let grown = grow_row(layer, &mut next[y + 1], &mut unseen[y], y);
            if grown != 0 {
                if grown_last == 0 {
                    grown_first = y;
                }
                grown_last = y + 1;
                if grown & unsettled[y] != 0 {
                    missing -= settle(walk, &mut unsettled[y], y, grown, steps);
                    if missing == 0 {
                        return;
                    }
                }
            }
        }
        if grown_first >= grown_last {
            return;
        }
        for row in &mut layer[first + 1..last + 1] {
            *row = 0;
        }
        std::mem::swap(&mut layer, &mut next);
        (first, last) = (grown_first, grown_last);
    }
}

/// One row of a step of the walk search: the cells of `unseen` (row `y`) next to a cell of
/// `layer` (padded: row `y` of the grid is `layer[y + 1]`), written to `next` and taken out of
/// `unseen`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn grow_row(layer: &[Row; SIZE + 2], next: &mut Row, unseen: &mut Row, y: usize) -> Row {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_loadu_si128, _mm_or_si128, _mm_slli_epi64,
        _mm_slli_si128, _mm_srli_epi64, _mm_srli_si128, _mm_storeu_si128,
    };
    let load = |row: &Row| {
        // SAFETY: SSE2 is part of every x86_64 processor; a `Row` is 16 bytes and the load
        // has no alignment requirement.
        unsafe { _mm_loadu_si128(std::ptr::from_ref(row).cast::<__m128i>()) }
    };
    let (above, row, below) = (load(&layer[y]), load(&layer[y + 1]), load(&layer[y + 2]));
    let open = load(unseen);
    // SAFETY: as above: register operations, and stores of 16 bytes into a `Row`.
    unsafe {
        // A 128-bit shift by one is a shift of each 64-bit half, with the bit that crosses
        // between the halves moved on its own.
        let east = _mm_or_si128(
            _mm_slli_epi64(row, 1),
            _mm_srli_epi64(_mm_slli_si128(row, 8), 63),
        );
        let west = _mm_or_si128(
            _mm_srli_epi64(row, 1),
            _mm_slli_epi64(_mm_srli_si128(row, 8), 63),
        );
        let grown = _mm_and_si128(
            _mm_or_si128(_mm_or_si128(east, west), _mm_or_si128(above, below)),
            open,
        );
        _mm_storeu_si128(std::ptr::from_mut(next).cast::<__m128i>(), grown);
        _mm_storeu_si128(
            std::ptr::from_mut(unseen).cast::<__m128i>(),
            _mm_andnot_si128(grown, open),
        );
    }
    *next
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn grow_row(layer: &[Row; SIZE + 2], next: &mut Row, unseen: &mut Row, y: usize) -> Row {
    let row = layer[y + 1];
    let grown = (row << 1 | row >> 1 | layer[y] | layer[y + 2]) & *unseen;
    *next = grown;
    *unseen &= !grown;
    grown
}

/// Writes `steps` into `walk` for the cells of row `y` both in `reached` and in `unsettled`,
/// takes them out of `unsettled` and returns how many there were.
#[inline]
fn settle(
    walk: &mut PerCell<u16>,
    unsettled: &mut Row,
    y: usize,
    reached: Row,
    steps: u16,
) -> usize {
    let mut settled = reached & *unsettled;
    *unsettled &= !settled;
    let count = settled.count_ones() as usize;
    while settled != 0 {
        let x = settled.trailing_zeros() as usize;
        settled &= settled - 1;
        walk[y * SIZE + x] = steps;
    }
    count
}

/// Whether `empire` is stranded: one outpost, and the cells it controls alone pay for no
/// second one. Such an outpost may sit where every step loses cells (a corner walled in by
/// water: the 2014 preset's `lakes` with `L = 40`, `W = 10`) and would never earn another.
fn stranded(view: &View<'_>, empire: u8) -> bool {
    if view.outposts.iter().filter(|o| o.empire == empire).count() != 1 {
        return false;
    }
    let counts = tally(view.terrain, view.control);
    let [land, water] = counts[usize::from(empire) % EMPIRES];
    (land / view.params.land).min(water / view.params.water) == 0
}

/// The sites: land cells whose diamond (cut by the grid) holds at least `L` land and `W` water
/// cells, where one outpost alone pays for a second.
fn sites(terrain: &Terrain, params: &Params) -> Rows {
    let land = terrain.land_rows();
    // prefix[y][x]: land cells of row y left of column x.
    let mut prefix = vec![[0u32; SIZE + 1]; SIZE];
    for (y, row) in prefix.iter_mut().enumerate() {
        for x in 0..SIZE {
            row[x + 1] = row[x] + (land[y] >> x) as u32 % 2;
        }
    }
    let r = params.r as usize;
    let mut found = EMPTY;
    for y in 0..SIZE {
        for x in 0..SIZE {
            if (land[y] >> x) & 1 == 0 {
                continue;
            }
            let (mut land_cells, mut cells) = (0u32, 0u32);
            let rows_near = y.saturating_sub(r)..(y + r + 1).min(SIZE);
            for (row_y, row) in rows_near.clone().zip(&prefix[rows_near]) {
                let reach = r - row_y.abs_diff(y);
                let (left, right) = (x.saturating_sub(reach), (x + reach + 1).min(SIZE));
                land_cells += row[right] - row[left];
                cells += (right - left) as u32;
            }
            if land_cells >= params.land && cells - land_cells >= params.water {
                found[y] |= 1 << x;
            }
        }
    }
    found
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Greed {
    Spread,
    Frontier,
}

/// `spread` and `frontier`: each outpost in id order takes its best option by
/// `(safe, -site walk, gain - loss, -walk)`, `cover` following the moves already chosen; the
/// site walk counts only for a stranded empire.
fn greedy(view: &View<'_>, empire: u8, greed: Greed, scratch: &mut Scratch) -> Vec<u8> {
    let Scratch {
        covers,
        walk,
        site_walk,
        reach,
        ..
    } = scratch;
    let terrain = view.terrain;
    let r = view.params.r;
    let own = || view.outposts.iter().filter(|o| o.empire == empire);
    let cover = count_cover(view, empire, covers);
    // The cells a decision looks at: where each outpost is and where it can step.
    let mut around = EMPTY;
    for outpost in own() {
        rows::insert(&mut around, outpost.cell);
    }
    around = rows::grow(&around);
    rows::intersect(&mut around, terrain.land_rows());
    // Frontier's safe cells: supplied, and no enemy within DANGER_RADIUS.
    let mut safe_rows = EMPTY;
    match greed {
        Greed::Spread => {
            // The land no diamond of the empire covers.
            let mut uncovered = diamonds(own().map(|o| o.cell), r);
            for row in uncovered.iter_mut() {
                *row = !*row;
            }
            walk_to_targets(terrain, &uncovered, &around, walk);
        }
        Greed::Frontier => {
            let mut not_held = rows::matching(view.control, empire as i8, empire as i8);
            for row in not_held.iter_mut() {
                *row = !*row;
            }
            walk_to_targets(terrain, &not_held, &around, walk);
            reach.search_rows(terrain, view.control, empire, false, &around);
            let mut danger = EMPTY;
            for enemy in view.outposts.iter().filter(|o| o.empire != empire) {
                rows::insert(&mut danger, enemy.cell);
            }
            // The diamonds of radius DANGER_RADIUS around them: that many orthogonal steps.
            for _ in 0..DANGER_RADIUS {
                danger = rows::grow(&danger);
            }
            for ((safe, reached), danger) in safe_rows.iter_mut().zip(reach.rows()).zip(&danger) {
                *safe = reached & !danger;
            }
        }
    }
    let stranded = stranded(view, empire);
    if stranded {
        walk_to_targets(terrain, &sites(terrain, view.params), &around, site_walk);
    }
    let walk_at = |cell: Cell| -> i64 { i64::from(walk[usize::from(cell)]) };
    let site_walk_at = |cell: Cell| -> i64 {
        if stranded {
            i64::from(site_walk[usize::from(cell)])
        } else {
            0
        }
    };
    let mut chosen = Vec::new();
    for (index, outpost) in view
        .outposts
        .iter()
        .filter(|o| o.empire == empire)
        .enumerate()
    {
        let from = outpost.cell;
        // The options (stay, then the legal steps) and which are safe, a bit per direction.
        let legal = neighbourhood(terrain.land_rows(), from) | 1;
        let safe = match greed {
            Greed::Spread => u8::MAX,
            Greed::Frontier => neighbourhood(&safe_rows, from),
        };
        let nets = cover.nets(from, legal & !1);
        let mut best = (STAY, from);
        let mut best_key = (safe & 1 == 1, -site_walk_at(from), 0i64, -walk_at(from));
        for direction in 1..DIRECTIONS {
            if legal >> direction & 1 == 0 {
                continue;
            }
            let to = from.wrapping_add_signed(STEP_OFFSETS[usize::from(direction)]);
            let key = (
                safe >> direction & 1 == 1,
                -site_walk_at(to),
                nets[usize::from(direction)],
                -walk_at(to),
            );
            if key > best_key {
                best_key = key;
                best = (direction, to);
            }
        }
        let (best_direction, to) = best;
        if best_direction != STAY {
            cover.step(index, best_direction, to);
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
    /// Whether `control` is the control map of `outposts`.
    control_ready: bool,
    work: ControlWork,
    reach: Reach,
    cut: Vec<bool>,
}

impl Simulation {
    /// The turn's moves with `empire` playing `plan` and everybody else staying: which of
    /// `empire`'s outposts (in id order) lose their supply line. [`Simulation::value`]
    /// finishes the turn when the value is wanted (only when outposts are lost).
    fn cut_by(&mut self, view: &View<'_>, empire: u8, plan: &[u8]) -> Vec<bool> {
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
        let r = view.params.r;
        let own = || self.outposts.iter().filter(|o| o.empire == empire);
        let fringe = view.params.flags.supply_fringe;
        let mut wanted = EMPTY;
        for outpost in own() {
            rows::insert(&mut wanted, outpost.cell);
        }
        // Only the empire's passable cells matter here: for small radii they come cheaper
        // from the outposts than from a control map ([`Simulation::value`] makes the map).
        if r <= PASSABLE_RADIUS {
            let others = self.outposts.iter().filter(|o| o.empire != empire);
            let passable = supply::passable(
                own().map(|o| o.cell),
                others.map(|o| o.cell),
                r,
                terrain.land_rows(),
            );
            self.reach
                .search_passable(terrain, &passable, empire, fringe, &wanted);
            self.control_ready = false;
        } else {
            self.control.resize(CELLS, 0);
            self.work.compute(&self.outposts, r, &mut self.control);
            self.reach
                .search_rows(terrain, &self.control, empire, fringe, &wanted);
            self.control_ready = true;
        }
        own().map(|o| !self.reach.contains(o.cell)).collect()
    }

    /// The rest of the turn [`Simulation::cut_by`] began: every empire's cut-off outposts
    /// removed, the value `3 * own - others`.
    fn value(&mut self, view: &View<'_>, empire: u8) -> i64 {
        let terrain = view.terrain;
        if !self.control_ready {
            self.control.resize(CELLS, 0);
            self.work
                .compute(&self.outposts, view.params.r, &mut self.control);
        }
        let removed = cut_off(
            terrain,
            &self.control,
            &self.outposts,
            view.params.flags.supply_fringe,
            &mut self.reach,
            &mut self.cut,
        );
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
        3 * own - others
    }
}

/// `lookahead`: the frontier plan, checked by a simulated turn; when it would lose outposts,
/// the best of it, it with those outposts staying, and everyone staying.
fn lookahead(view: &View<'_>, empire: u8, scratch: &mut Scratch) -> Vec<u8> {
    let frontier = greedy(view, empire, Greed::Frontier, scratch);
    let cut = scratch.simulation.cut_by(view, empire, &frontier);
    if !cut.iter().any(|&c| c) {
        return frontier;
    }
    let frontier_value = scratch.simulation.value(view, empire);
    let repaired: Vec<u8> = frontier
        .iter()
        .zip(&cut)
        .map(|(&direction, &was_cut)| if was_cut { STAY } else { direction })
        .collect();
    let stay = vec![STAY; frontier.len()];
    let mut best = (frontier_value, frontier);
    for plan in [repaired, stay] {
        scratch.simulation.cut_by(view, empire, &plan);
        let value = scratch.simulation.value(view, empire);
        if value > best.0 {
            best = (value, plan);
        }
    }
    best.1
}
