//! The consistent-code search: depth-first, spot by spot, with pruning.
//!
//! A partial code (a prefix) is abandoned as soon as, for some past guess, its blacks so far
//! exceed the feedback's, the spots left cannot bring them up to it, or its colour matches
//! with the guess (sum over colours of min(count in guess, count so far)) exceed black +
//! white or cannot reach it with the spots left. Pruning only removes prefixes with no
//! consistent completion, so every answer below is defined without it: [`first`] is the
//! smallest consistent code in the search [`Order`], [`count`] the number of consistent codes.
//!
//! Parallel searches split the space into prefixes (the viable ones of a fixed length, in
//! search order) and hand them to rayon: `find_map_first` keeps the answer of the earliest
//! prefix whatever thread finds what first, so the result never depends on the thread count.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use stratagem_core::error::{Error, Result, param};
use stratagem_core::rng::Stream;
use stratagem_core::{Cancel, parallel};

use crate::code::{Code, MAX_COLOURS, MAX_SPOTS, PAD, Space};
use crate::history::History;
use crate::score::{COUNT_LANES, Counts};

/// A parallel search first runs this many nodes on the calling thread, where most searches
/// end; splitting them into prefixes would cost more than it saves.
const SERIAL_FIRST_NODES: u64 = 1 << 16;

/// How many nodes a search visits between two looks at the cancel token.
const CANCEL_CHECK_NODES: u64 = 1 << 14;

/// The order in which the search tries colours at each spot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    colours: [[u8; MAX_COLOURS]; MAX_SPOTS],
}

impl Order {
    /// Colours in increasing order at every spot: the search order is lexicographic.
    pub fn lexicographic() -> Self {
        let mut colours = [[0u8; MAX_COLOURS]; MAX_SPOTS];
        for spot in colours.iter_mut() {
            for (rank, colour) in spot.iter_mut().enumerate() {
                *colour = rank as u8;
            }
        }
        Self { colours }
    }

    /// One seeded permutation of the colours per spot: Fisher-Yates from the last position
    /// down, position `i` swapped with `uniform_below(i + 1)` of the spot's stream.
    pub fn shuffled(
        space: Space,
        stream_of_spot: impl Fn(usize) -> Result<Stream>,
    ) -> Result<Self> {
        let mut order = Self::lexicographic();
        for (spot, colours) in order.colours[..space.spots].iter_mut().enumerate() {
            let mut cursor = stream_of_spot(spot)?.cursor();
            for i in (1..space.colours).rev() {
                let j = cursor.uniform_below(i as u64 + 1) as usize;
                colours.swap(i, j);
            }
        }
        Ok(order)
    }

    /// An order from explicit per-spot permutations (`spots` rows of `colours` entries).
    pub fn from_rows(space: Space, rows: &[u8]) -> Result<Self> {
        if rows.len() != space.spots * space.colours {
            return Err(param(format!(
                "a search order has {} rows of {} colours",
                space.spots, space.colours
            )));
        }
        let mut order = Self::lexicographic();
        for (spot, row) in rows.chunks(space.colours).enumerate() {
            let mut seen = [false; MAX_COLOURS];
            for (rank, &colour) in row.iter().enumerate() {
                let c = usize::from(colour);
                if c >= space.colours || seen[c] {
                    return Err(param(format!(
                        "search order row {spot} is not a permutation of 0..{}",
                        space.colours
                    )));
                }
                seen[c] = true;
                order.colours[spot][rank] = colour;
            }
        }
        Ok(order)
    }

    /// The colour tried `rank`-th at `spot`.
    #[inline]
    pub fn colour(&self, spot: usize, rank: usize) -> u8 {
        self.colours[spot][rank]
    }

    /// The rows of the order for the first `space.spots` spots.
    pub fn rows(&self, space: Space) -> Vec<u8> {
        self.colours[..space.spots]
            .iter()
            .flat_map(|row| row[..space.colours].iter().copied())
            .collect()
    }
}

/// Bounds on how many times each colour occurs in any consistent code, from the colour
/// matches of every guess (`sum_c min(guess count, code count) = black + white`) and the
/// number of spots, tightened until nothing changes.
#[derive(Clone, Debug)]
struct ColourBounds {
    low: Counts,
    high: Counts,
}

impl ColourBounds {
    fn of(history: &History) -> Self {
        let space = history.space;
        let low = [0u8; COUNT_LANES];
        let mut high = [0u8; COUNT_LANES];
        high[..space.colours].fill(space.spots as u8);
        let mut bounds = Self { low, high };
        let spots = space.spots as i32;
        let mut changed = true;
        while changed && bounds.is_feasible() {
            changed = false;
            for (guess, feedback) in history.guesses.iter().zip(&history.feedback) {
                let matched = i32::from(feedback.black + feedback.white);
                let g = &guess.counts;
                let at_least: i32 = (0..space.colours)
                    .map(|c| i32::from(g[c].min(bounds.low[c])))
                    .sum();
                let at_most: i32 = (0..space.colours)
                    .map(|c| i32::from(g[c].min(bounds.high[c])))
                    .sum();
                for c in (0..space.colours).filter(|&c| g[c] > 0) {
                    let others_low = at_least - i32::from(g[c].min(bounds.low[c]));
                    let others_high = at_most - i32::from(g[c].min(bounds.high[c]));
                    let cap = matched - others_low;
                    if cap < i32::from(g[c]) {
                        changed |= bounds.lower_high(c, cap);
                    }
                    changed |= bounds.raise_low(c, matched - others_high);
                }
            }
            let low_sum: i32 = bounds.low.iter().map(|&x| i32::from(x)).sum();
            let high_sum: i32 = bounds.high.iter().map(|&x| i32::from(x)).sum();
            for c in 0..space.colours {
                changed |= bounds.lower_high(c, spots - (low_sum - i32::from(bounds.low[c])));
                changed |= bounds.raise_low(c, spots - (high_sum - i32::from(bounds.high[c])));
            }
        }
        bounds
    }

    fn lower_high(&mut self, c: usize, cap: i32) -> bool {
        let cap = cap.max(-1);
        if cap < i32::from(self.high[c]) {
            // A negative cap means no count fits: mark the colour impossible (low > high).
            if cap < 0 {
                self.low[c] = self.low[c].max(1);
                self.high[c] = 0;
            } else {
                self.high[c] = cap as u8;
            }
            return true;
        }
        false
    }

    fn raise_low(&mut self, c: usize, floor: i32) -> bool {
        if floor > i32::from(self.low[c]) {
            self.low[c] = floor.min(i32::from(u8::MAX)) as u8;
            return true;
        }
        false
    }

    fn is_feasible(&self) -> bool {
        self.low.iter().zip(&self.high).all(|(lo, hi)| lo <= hi)
    }
}

/// Per past guess, how far a prefix is from its feedback.
#[derive(Clone, Debug)]
struct Level {
    code: Code,
    counts: Counts,
    /// Blacks of the prefix with each guess.
    blacks: Vec<u8>,
    /// Colour matches (black + white so far) of the prefix with each guess.
    matches: Vec<u8>,
    /// How many more codes' colours the colour bounds demand: sum of `low[c] - count[c]`.
    forced: usize,
}

impl Level {
    /// A level that holds a depth's place while its scratch level is in use (allocates
    /// nothing, unlike [`Problem::root`]: the walk takes one per node).
    fn placeholder() -> Self {
        Self {
            code: [PAD; MAX_SPOTS],
            counts: [0; COUNT_LANES],
            blacks: Vec::new(),
            matches: Vec::new(),
            forced: 0,
        }
    }
}

/// The search problem: a history, its space and the search order.
pub struct Problem<'a> {
    history: &'a History,
    order: &'a Order,
    /// The feedback of each guess as (black, black + white).
    targets: Vec<(u8, u8)>,
    /// The distinct colours of each guess.
    guesses_distinct: Vec<Vec<u8>>,
    /// Per guess and spot, how many times each colour occurs in the guess from that spot on.
    suffix_counts: Vec<Vec<Counts>>,
    bounds: ColourBounds,
}

impl<'a> Problem<'a> {
    pub fn new(history: &'a History, order: &'a Order) -> Self {
        let targets = history
            .feedback
            .iter()
            .map(|f| (f.black, f.black + f.white))
            .collect();
        let spots = history.space.spots;
        let guesses_distinct = history
            .guesses
            .iter()
            .map(|guess| {
                (0..COUNT_LANES as u8)
                    .filter(|&c| guess.counts[usize::from(c)] > 0)
                    .collect()
            })
            .collect();
        let suffix_counts = history
            .guesses
            .iter()
            .map(|guess| {
                let mut suffixes = vec![[0u8; COUNT_LANES]; spots + 1];
                for spot in (0..spots).rev() {
                    suffixes[spot] = suffixes[spot + 1];
                    suffixes[spot][usize::from(guess.code[spot])] += 1;
                }
                suffixes
            })
            .collect();
        Self {
            history,
            order,
            targets,
            guesses_distinct,
            suffix_counts,
            bounds: ColourBounds::of(history),
        }
    }

    pub fn space(&self) -> Space {
        self.history.space
    }

    fn root(&self) -> Level {
        let n = self.targets.len();
        Level {
            code: [PAD; MAX_SPOTS],
            counts: [0; COUNT_LANES],
            blacks: vec![0; n],
            matches: vec![0; n],
            forced: self.bounds.low.iter().map(|&x| usize::from(x)).sum(),
        }
    }

    /// The level of a given prefix, or `None` when the prefix is already hopeless.
    fn level_of(&self, prefix: &[u8]) -> Option<Level> {
        if !self.bounds.is_feasible() {
            return None;
        }
        let mut level = self.root();
        let mut child = self.root();
        for (spot, &colour) in prefix.iter().enumerate() {
            if !self.extend(&level, spot, colour, &mut child) {
                return None;
            }
            std::mem::swap(&mut level, &mut child);
        }
        Some(level)
    }

    /// Writes into `child` the prefix `parent + colour` at `spot`; false if it is hopeless.
    #[inline]
    fn extend(&self, parent: &Level, spot: usize, colour: u8, child: &mut Level) -> bool {
        let left = (self.space().spots - spot - 1) as u8;
        let c = usize::from(colour);
        let had = parent.counts[c];
        if had >= self.bounds.high[c] {
            return false;
        }
        let guesses = &self.history.guesses;
        for (i, &(black, matched)) in self.targets.iter().enumerate() {
            let guess = &guesses[i];
            let b = parent.blacks[i] + u8::from(guess.code[spot] == colour);
            let m = parent.matches[i] + u8::from(had < guess.counts[c]);
            if b > black || m > matched || b + left < black || m + left < matched {
                return false;
            }
            child.blacks[i] = b;
            child.matches[i] = m;
        }
        child.code = parent.code;
        child.code[spot] = colour;
        child.counts = parent.counts;
        child.counts[c] += 1;
        child.forced = parent.forced - usize::from(had < self.bounds.low[c]);
        child.forced <= usize::from(left) && (left == 0 || self.completable(child, spot + 1))
    }

    /// Whether every guess can still get its exact blacks and colour matches from the spots
    /// from `spot` on. For colour `c` and a guess, `room` is how many more `c` still add a
    /// match, `under` how many spots left hold `c` in the guess (where a `c` is a black),
    /// `fits` how many more `c` the colour bounds allow and `forced` how many more `c` they
    /// demand. Three necessary conditions:
    /// - blacks: the spots left can hold the blacks still needed (`min(under, fits)` per colour);
    /// - most matches: `c` adds at most `min(room, fits)`, and stands on at most
    ///   `min(under, blacks needed)` of its `under` spots;
    /// - fewest matches: the forced `c` add `min(room, forced)`; each black beyond the ones a
    ///   colour absorbs for free (its forced ones, and those past its room) adds one more.
    #[inline]
    fn completable(&self, level: &Level, spot: usize) -> bool {
        let left = self.space().spots - spot;
        for (i, &(black, matched)) in self.targets.iter().enumerate() {
            let needed = usize::from(matched - level.matches[i]);
            let blacks_left = usize::from(black - level.blacks[i]);
            let guess_counts = &self.history.guesses[i].counts;
            let suffix = &self.suffix_counts[i][spot];
            let (mut black_room, mut most, mut fewest, mut free_blacks) = (0, 0, 0, 0);
            for &colour in &self.guesses_distinct[i] {
                let c = usize::from(colour);
                let have = level.counts[c];
                let room = usize::from(guess_counts[c].saturating_sub(have));
                let under = usize::from(suffix[c]);
                let fits = usize::from(self.bounds.high[c].saturating_sub(have));
                let forced = usize::from(self.bounds.low[c].saturating_sub(have));
                let black_slots = under.min(fits);
                black_room += black_slots;
                most += room.min(fits).min(under.min(blacks_left) + left - under);
                fewest += room.min(forced);
                free_blacks += if room <= forced {
                    black_slots
                } else {
                    forced.min(black_slots) + black_slots.saturating_sub(room)
                };
            }
            if black_room < blacks_left
                || most < needed
                || fewest + blacks_left.saturating_sub(free_blacks) > needed
            {
                return false;
            }
        }
        true
    }

    /// The viable one-spot extensions of `prefix`, in search order.
    pub fn children(&self, prefix: &[u8]) -> Vec<Vec<u8>> {
        let space = self.space();
        let spot = prefix.len();
        let Some(level) = self.level_of(prefix) else {
            return Vec::new();
        };
        if spot >= space.spots {
            return Vec::new();
        }
        let mut child = self.root();
        (0..space.colours)
            .map(|rank| self.order.colour(spot, rank))
            .filter(|&colour| self.extend(&level, spot, colour, &mut child))
            .map(|colour| {
                let mut extended = prefix.to_vec();
                extended.push(colour);
                extended
            })
            .collect()
    }

    /// The viable prefixes of `length` spots below `prefix`, in search order.
    pub fn prefixes(&self, prefix: &[u8], length: usize) -> Vec<Vec<u8>> {
        let mut layer = vec![prefix.to_vec()];
        if self.level_of(prefix).is_none() {
            return Vec::new();
        }
        for _ in prefix.len()..length.min(self.space().spots) {
            layer = layer.iter().flat_map(|p| self.children(p)).collect();
        }
        layer
    }

    /// The first consistent code below `prefix` in search order, searched on this thread.
    pub fn first_below(&self, prefix: &[u8], cancel: &Cancel) -> Result<Option<Code>> {
        let Some(level) = self.level_of(prefix) else {
            return Ok(None);
        };
        let mut walk = Walk::new(self, cancel);
        walk.first(&level, prefix.len())
    }

    /// [`Problem::first_below`] if it takes at most `budget` nodes; `None` if it gives up.
    fn first_below_within(
        &self,
        prefix: &[u8],
        budget: u64,
        cancel: &Cancel,
    ) -> Result<Option<Option<Code>>> {
        let Some(level) = self.level_of(prefix) else {
            return Ok(Some(None));
        };
        let mut walk = Walk::new(self, cancel);
        walk.budget = budget;
        let found = walk.first(&level, prefix.len())?;
        Ok((walk.nodes <= budget).then_some(found))
    }

    /// The number of consistent codes below `prefix`, counted on this thread.
    pub fn count_below(&self, prefix: &[u8], cancel: &Cancel) -> Result<u128> {
        let Some(level) = self.level_of(prefix) else {
            return Ok(0);
        };
        let mut walk = Walk::new(self, cancel);
        walk.count(&level, prefix.len())
    }
}

/// One thread's depth-first walk: scratch levels per depth and a node counter for cancel
/// checks.
struct Walk<'p, 'a> {
    problem: &'p Problem<'a>,
    cancel: &'p Cancel,
    scratch: Vec<Level>,
    nodes: u64,
    /// [`Walk::first`] gives up (answering `None`) after this many nodes.
    budget: u64,
}

impl<'p, 'a> Walk<'p, 'a> {
    fn new(problem: &'p Problem<'a>, cancel: &'p Cancel) -> Self {
        let scratch = (0..=problem.space().spots)
            .map(|_| problem.root())
            .collect();
        Self {
            problem,
            cancel,
            scratch,
            nodes: 0,
            budget: u64::MAX,
        }
    }

    fn tick(&mut self) -> Result<()> {
        self.nodes += 1;
        if self.nodes % CANCEL_CHECK_NODES == 0 && self.cancel.is_cancelled() {
            return Err(Error::Interrupted);
        }
        Ok(())
    }

    fn first(&mut self, level: &Level, spot: usize) -> Result<Option<Code>> {
        let space = self.problem.space();
        if spot == space.spots {
            return Ok(Some(level.code));
        }
        let mut child = std::mem::replace(&mut self.scratch[spot], Level::placeholder());
        let mut found = None;
        for rank in 0..space.colours {
            self.tick()?;
            if self.nodes > self.budget {
                break;
            }
            let colour = self.problem.order.colour(spot, rank);
            if self.problem.extend(level, spot, colour, &mut child) {
                found = self.first(&child, spot + 1)?;
                if found.is_some() {
                    break;
                }
            }
        }
        self.scratch[spot] = child;
        Ok(found)
    }

    fn count(&mut self, level: &Level, spot: usize) -> Result<u128> {
        let space = self.problem.space();
        if spot == space.spots {
            return Ok(1);
        }
        let mut child = std::mem::replace(&mut self.scratch[spot], Level::placeholder());
        let mut total = 0u128;
        for colour in 0..space.colours as u8 {
            self.tick()?;
            if self.problem.extend(level, spot, colour, &mut child) {
                total += self.count(&child, spot + 1)?;
            }
        }
        self.scratch[spot] = child;
        Ok(total)
    }
}

/// How long the prefixes handed to threads are: enough of them for work stealing to even out
/// very unequal subtrees, never the whole code.
fn split_length(space: Space, threads: usize) -> usize {
    if threads <= 1 {
        return 0;
    }
    let wanted = (threads * 64) as u128;
    let mut length = 0;
    let mut width = 1u128;
    while width < wanted && length + 1 < space.spots {
        length += 1;
        width *= space.colours as u128;
    }
    length
}

/// The first consistent code in search order below `prefix` (empty prefix: the whole space),
/// or `None` when no code fits; the same answer for every thread count.
pub fn first(
    history: &History,
    order: &Order,
    prefix: &[u8],
    threads: usize,
    cancel: &Cancel,
) -> Result<Option<Code>> {
    first_after(history, order, prefix, threads, SERIAL_FIRST_NODES, cancel)
}

/// [`first`], trying `serial_nodes` nodes on the calling thread before splitting.
fn first_after(
    history: &History,
    order: &Order,
    prefix: &[u8],
    threads: usize,
    serial_nodes: u64,
    cancel: &Cancel,
) -> Result<Option<Code>> {
    let problem = Problem::new(history, order);
    let length = split_length(history.space, threads).max(prefix.len());
    if length == prefix.len() {
        return problem.first_below(prefix, cancel);
    }
    // Most searches end within a few thousand nodes: try on this thread before splitting.
    if let Some(found) = problem.first_below_within(prefix, serial_nodes, cancel)? {
        return Ok(found);
    }
    let prefixes = problem.prefixes(prefix, length);
    let found = parallel::pool(threads)?.install(|| {
        prefixes
            .par_iter()
            .with_max_len(1)
            .map(|p| problem.first_below(p, cancel))
            .find_map_first(|outcome| match outcome {
                Ok(None) => None,
                other => Some(other),
            })
    });
    found.transpose().map(Option::flatten)
}

/// The units of [`count`]'s progress: `done` reaches this when the count is complete.
pub const COUNT_PROGRESS: u64 = 1 << 16;

/// Spaces of at most this many codes are counted on the calling thread whatever the thread
/// count: a sweep on 2 cores (5x9, 59,049 codes, after two guesses: 0.7 ms on one thread)
/// found a second thread slower up to here (docs/mastermind.md).
pub const SERIAL_COUNT_CODES: u64 = 1 << 16;

/// The exact number of consistent codes below `prefix`; `done` grows towards
/// [`COUNT_PROGRESS`] as the subtrees the count is split into are finished (the subtrees
/// differ in size, so it is a rough guide).
pub fn count(
    history: &History,
    prefix: &[u8],
    threads: usize,
    cancel: &Cancel,
    done: &AtomicU64,
) -> Result<u128> {
    let order = Order::lexicographic();
    let problem = Problem::new(history, &order);
    let small = history
        .space
        .enumerable_size()
        .is_some_and(|size| size <= SERIAL_COUNT_CODES);
    let threads = if small { 1 } else { threads };
    let length = split_length(history.space, threads).max(prefix.len());
    let prefixes = problem.prefixes(prefix, length);
    let parts = prefixes.len() as u128;
    // Subtree i is worth share(i + 1) - share(i) units: together exactly COUNT_PROGRESS.
    let share = |i: u128| (i * u128::from(COUNT_PROGRESS) / parts.max(1)) as u64;
    let count_part = |(i, p): (usize, &Vec<u8>)| {
        let below = problem.count_below(p, cancel)?;
        done.fetch_add(share(i as u128 + 1) - share(i as u128), Ordering::Relaxed);
        Ok(below)
    };
    let counts: Vec<u128> = if threads == 1 {
        prefixes
            .iter()
            .enumerate()
            .map(count_part)
            .collect::<Result<_>>()?
    } else {
        parallel::pool(threads)?.install(|| {
            prefixes
                .par_iter()
                .enumerate()
                .with_max_len(1)
                .map(count_part)
                .collect::<Result<_>>()
        })?
    };
    if prefixes.is_empty() {
        // Nothing below the prefix is consistent: the count is done at once.
        done.fetch_add(COUNT_PROGRESS, Ordering::Relaxed);
    }
    Ok(counts.iter().sum())
}

/// Knuth's estimate of the number of consistent codes (Knuth 1975, "Estimating the efficiency
/// of backtrack programs"): each probe walks from the root to a leaf choosing uniformly among
/// the viable children, and the product of the numbers of viable children is an unbiased
/// estimate (a dead end counts 0). Returns (mean, standard error) over `probes` probes; probe
/// `i` draws from stream `(seed, "mastermind.estimate", i)`.
pub fn estimate(
    history: &History,
    probes: u64,
    seed: u64,
    threads: usize,
    cancel: &Cancel,
) -> Result<(f64, f64)> {
    if probes < 2 {
        return Err(param(format!(
            "an estimate needs at least 2 probes, got {probes}"
        )));
    }
    let order = Order::lexicographic();
    let problem = Problem::new(history, &order);
    let space = history.space;
    let samples: Vec<f64> = parallel::pool(threads)?.install(|| {
        (0..probes)
            .into_par_iter()
            .map(|probe| {
                if probe % 1024 == 0 {
                    cancel.check()?;
                }
                let mut cursor = Stream::new(seed, crate::purpose::ESTIMATE, &[probe])?.cursor();
                let mut level = problem.root();
                let mut child = problem.root();
                let mut weight = 1.0f64;
                let mut viable = Vec::with_capacity(space.colours);
                for spot in 0..space.spots {
                    viable.clear();
                    viable.extend(
                        (0..space.colours as u8)
                            .filter(|&colour| problem.extend(&level, spot, colour, &mut child)),
                    );
                    if viable.is_empty() {
                        return Ok(0.0);
                    }
                    weight *= viable.len() as f64;
                    let pick = viable[cursor.uniform_below(viable.len() as u64) as usize];
                    problem.extend(&level, spot, pick, &mut child);
                    std::mem::swap(&mut level, &mut child);
                }
                Ok(weight)
            })
            .collect::<Result<_>>()
    })?;
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let variance = samples.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    Ok((mean, (variance / n).sqrt()))
}

/// Every consistent code of an enumerable space, in lexicographic order.
pub fn all_consistent(history: &History, threads: usize, cancel: &Cancel) -> Result<Vec<Code>> {
    history
        .space
        .require_enumerable("listing every consistent code")?;
    let order = Order::lexicographic();
    let problem = Problem::new(history, &order);
    if threads == 1 {
        // No pool: this runs inside other parallel work (one game per secret).
        let mut found = Vec::new();
        if let Some(root) = problem.level_of(&[]) {
            Walk::new(&problem, cancel).collect(&root, 0, &mut found)?;
        }
        return Ok(found);
    }
    let prefixes = problem.prefixes(&[], split_length(history.space, threads));
    let lists: Vec<Vec<Code>> = parallel::pool(threads)?.install(|| {
        prefixes
            .par_iter()
            .map(|p| {
                let mut found = Vec::new();
                let level = problem.level_of(p);
                if let Some(level) = level {
                    let mut walk = Walk::new(&problem, cancel);
                    walk.collect(&level, p.len(), &mut found)?;
                }
                Ok(found)
            })
            .collect::<Result<_>>()
    })?;
    Ok(lists.concat())
}

impl Walk<'_, '_> {
    fn collect(&mut self, level: &Level, spot: usize, found: &mut Vec<Code>) -> Result<()> {
        let space = self.problem.space();
        if spot == space.spots {
            found.push(level.code);
            return Ok(());
        }
        let mut child = std::mem::replace(&mut self.scratch[spot], Level::placeholder());
        for colour in 0..space.colours as u8 {
            self.tick()?;
            if self.problem.extend(level, spot, colour, &mut child) {
                self.collect(&child, spot + 1, found)?;
            }
        }
        self.scratch[spot] = child;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{Counted, score};

    /// Histories of random guesses against a random secret, plus random (mostly impossible)
    /// feedbacks, for spaces small enough to scan.
    fn histories(seed: u64) -> Result<Vec<History>> {
        let mut out = Vec::new();
        let mut cursor = Stream::new(seed, "test.histories", &[])?.cursor();
        for (spots, colours) in [
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 4),
            (4, 6),
            (5, 3),
            (6, 2),
            (3, 7),
        ] {
            let space = Space::new(spots, colours)?;
            for _ in 0..40 {
                let size = space.enumerable_size().unwrap_or(1);
                let secret = space.code_at(cursor.uniform_below(size));
                let mut history = History::empty(space);
                let turns = cursor.uniform_below(5);
                for turn in 0..turns {
                    let guess = space.code_at(cursor.uniform_below(size));
                    let mut feedback = score(space, &guess, &secret);
                    if turn + 1 == turns && cursor.uniform_below(3) == 0 {
                        let black = cursor.uniform_below(spots as u64 + 1) as u8;
                        let white = cursor.uniform_below(spots as u64 + 1 - u64::from(black)) as u8;
                        feedback = Feedback { black, white };
                    }
                    history.push(guess, feedback)?;
                }
                out.push(history);
            }
        }
        Ok(out)
    }

    use crate::score::Feedback;

    #[test]
    fn search_agrees_with_a_scan_of_every_code() -> Result<()> {
        let cancel = Cancel::new();
        for history in histories(7)? {
            let space = history.space;
            let consistent: Vec<Code> = space
                .all_codes()?
                .into_iter()
                .filter(|code| history.is_consistent(&Counted::new(code)))
                .collect();
            for threads in [1, 2] {
                let order = Order::lexicographic();
                for serial_nodes in [0, 5, SERIAL_FIRST_NODES] {
                    let found = first_after(&history, &order, &[], threads, serial_nodes, &cancel)?;
                    assert_eq!(found, consistent.first().copied());
                }
                let done = AtomicU64::new(0);
                assert_eq!(
                    count(&history, &[], threads, &cancel, &done)?,
                    consistent.len() as u128
                );
                assert_eq!(done.load(Ordering::Relaxed), COUNT_PROGRESS);
                assert_eq!(all_consistent(&history, threads, &cancel)?, consistent);
            }
            let shuffled =
                Order::shuffled(space, |spot| Stream::new(3, "test.order", &[spot as u64]))?;
            // Codes compare in search order as the positions of their colours in the rows.
            let positions = |code: &&Code| -> Vec<usize> {
                (0..space.spots)
                    .map(|spot| {
                        (0..space.colours)
                            .position(|rank| shuffled.colour(spot, rank) == code[spot])
                            .unwrap_or(0)
                    })
                    .collect()
            };
            let best = consistent.iter().min_by_key(positions);
            assert_eq!(
                first_after(&history, &shuffled, &[], 2, 0, &cancel)?,
                best.copied()
            );
        }
        Ok(())
    }
}
