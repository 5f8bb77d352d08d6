//! Codebreaker strategies: which code to guess next, given the history.
//!
//! `first` and `random` only need the consistent-code search and work on every space; the
//! heuristics split the consistent codes by feedback for every candidate guess and need an
//! enumerable space. `docs/mastermind-rules.md` states each rule and tie-break.

use rayon::prelude::*;
use stratagem_core::error::{Result, named, param};
use stratagem_core::rng::{Stream, det_ln};
use stratagem_core::{Cancel, parallel};

use crate::canonical::canonical_guesses;
use crate::code::{Code, Space};
use crate::history::History;
use crate::optimal;
use crate::purpose;
use crate::score::{Counted, feedback_slots, score_counted};
use crate::search::{self, Order};

/// The heuristics that score a guess by how it splits the consistent codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heuristic {
    /// Smallest largest class (Knuth 1976).
    Knuth,
    /// Smallest sum of squared class sizes: expected size (Irving 1979).
    Irving,
    /// Largest entropy of the split (Neuwirth 1982).
    Entropy,
    /// Most classes (Kooi 2005).
    MostParts,
}

impl Heuristic {
    pub fn name(self) -> &'static str {
        match self {
            Self::Knuth => "knuth",
            Self::Irving => "irving",
            Self::Entropy => "entropy",
            Self::MostParts => "most_parts",
        }
    }
}

/// How the order of the `first` strategy is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstOrder {
    Lexicographic,
    Shuffled,
}

/// A codebreaker strategy and its seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    First(FirstOrder),
    Random,
    Heuristic(Heuristic),
    Optimal,
}

impl Strategy {
    pub const NAMES: [&'static str; 7] = [
        "first",
        "random",
        "knuth",
        "irving",
        "entropy",
        "most_parts",
        "optimal",
    ];

    /// The strategy of a name: `first`, `first:shuffled`, `random`, `knuth`, `irving`,
    /// `entropy`, `most_parts`, `optimal`.
    pub fn parse(name: &str, order: &str) -> Result<Self> {
        let first_order = named(
            "order",
            order,
            &["lex", "shuffled"],
            [FirstOrder::Lexicographic, FirstOrder::Shuffled],
        )?;
        Ok(match name {
            "first" => Self::First(first_order),
            "random" => Self::Random,
            "knuth" => Self::Heuristic(Heuristic::Knuth),
            "irving" => Self::Heuristic(Heuristic::Irving),
            "entropy" => Self::Heuristic(Heuristic::Entropy),
            "most_parts" => Self::Heuristic(Heuristic::MostParts),
            "optimal" => Self::Optimal,
            other => {
                return Err(param(format!(
                    "unknown strategy {other:?}; strategies are first, random, knuth, irving, \
                     entropy, most_parts, optimal"
                )));
            }
        })
    }

    /// Checks the strategy can play on a space.
    pub fn check_space(self, space: Space) -> Result<()> {
        match self {
            Self::Heuristic(heuristic) => space
                .require_enumerable(&format!("strategy '{}'", heuristic.name()))
                .map(|_| ()),
            Self::Optimal => optimal::check_space(space),
            Self::First(_) | Self::Random => Ok(()),
        }
    }
}

/// The guess a strategy makes after `history`, or `None` when no code is consistent with it.
pub fn next_guess(
    history: &History,
    strategy: Strategy,
    seed: u64,
    threads: usize,
    cancel: &Cancel,
) -> Result<Option<Code>> {
    let space = history.space;
    strategy.check_space(space)?;
    let turn = history.len() as u64;
    match strategy {
        Strategy::First(FirstOrder::Lexicographic) => {
            search::first(history, &Order::lexicographic(), &[], threads, cancel)
        }
        Strategy::First(FirstOrder::Shuffled) => {
            let order = Order::shuffled(space, |spot| {
                Stream::new(seed, purpose::ORDER, &[spot as u64])
            })?;
            search::first(history, &order, &[], threads, cancel)
        }
        Strategy::Random if space.enumerable_size().is_some() => {
            let consistent = search::all_consistent(history, threads, cancel)?;
            if consistent.is_empty() {
                return Ok(None);
            }
            let mut cursor = Stream::new(seed, purpose::RANDOM, &[turn])?.cursor();
            let pick = cursor.uniform_below(consistent.len() as u64) as usize;
            Ok(consistent.get(pick).copied())
        }
        Strategy::Random => {
            let order = Order::shuffled(space, |spot| {
                Stream::new(seed, purpose::RANDOM_ORDER, &[turn, spot as u64])
            })?;
            search::first(history, &order, &[], threads, cancel)
        }
        Strategy::Heuristic(heuristic) => {
            let candidates = counted(&search::all_consistent(history, threads, cancel)?);
            if candidates.is_empty() {
                return Ok(None);
            }
            choose(history, &candidates, heuristic, threads, cancel).map(Some)
        }
        Strategy::Optimal => {
            let candidates = counted(&search::all_consistent(history, threads, cancel)?);
            if candidates.is_empty() {
                return Ok(None);
            }
            optimal::optimum(history, &candidates, threads, cancel).map(|best| Some(best.guess))
        }
    }
}

/// Codes with their colour counts.
pub fn counted(codes: &[Code]) -> Vec<Counted> {
    codes.iter().map(Counted::new).collect()
}

/// Class sizes of the split of `candidates` by their feedback to `guess`, indexed by
/// feedback index; `sizes` must be zeroed and [`feedback_slots`] long.
pub fn split_sizes(space: Space, guess: &Counted, candidates: &[Counted], sizes: &mut [u32]) {
    for candidate in candidates {
        sizes[score_counted(space, guess, candidate).index(space.spots)] += 1;
    }
}

/// A guess's rank for a heuristic: smaller is better. Keys of different guesses are compared
/// as (metric, not in the candidates, rank).
fn metric(heuristic: Heuristic, sizes: &[u32]) -> u64 {
    let classes = sizes.iter().filter(|&&n| n > 0);
    match heuristic {
        Heuristic::Knuth => classes.copied().max().map_or(0, u64::from),
        Heuristic::Irving => classes.map(|&n| u64::from(n) * u64::from(n)).sum(),
        // Non-negative floats order like their bit patterns.
        Heuristic::Entropy => classes
            .map(|&n| f64::from(n) * det_ln(f64::from(n)))
            .sum::<f64>()
            .to_bits(),
        Heuristic::MostParts => (sizes.len() - classes.count()) as u64,
    }
}

/// The heuristic's guess among every canonical guess for the candidates (at least one).
pub fn choose(
    history: &History,
    candidates: &[Counted],
    heuristic: Heuristic,
    threads: usize,
    cancel: &Cancel,
) -> Result<Code> {
    parallel::pool(threads)?.install(|| choose_here(history, candidates, heuristic, cancel))
}

/// [`choose`] on the rayon pool the caller is running in.
pub fn choose_here(
    history: &History,
    candidates: &[Counted],
    heuristic: Heuristic,
    cancel: &Cancel,
) -> Result<Code> {
    let space = history.space;
    if let Some(perfect) = perfect_candidate(space, candidates) {
        return Ok(perfect);
    }
    let members = membership(space, candidates);
    let guesses = canonical_guesses(history)?;
    let slots = feedback_slots(space.spots);
    let best = guesses
        .par_iter()
        .with_min_len(64)
        .map_init(
            || vec![0u32; slots],
            |sizes, guess| {
                if cancel.is_cancelled() {
                    return None;
                }
                sizes.fill(0);
                split_sizes(space, &Counted::new(guess), candidates, sizes);
                let rank = space.index_of(guess);
                let outside = !members.contains(rank);
                Some((metric(heuristic, sizes), outside, rank, *guess))
            },
        )
        .min_by_key(|key| key.map(|(m, o, r, _)| (m, o, r)));
    cancel.check()?;
    best.flatten()
        .map(|(_, _, _, guess)| guess)
        .ok_or_else(|| param("no guess to choose from".to_string()))
}

/// The smallest candidate that splits the candidates into single codes, when the set is small
/// enough to look: such a guess is the best possible under every heuristic (and the
/// tie-break prefers candidates, then smaller ranks).
pub fn perfect_candidate(space: Space, candidates: &[Counted]) -> Option<Code> {
    const LOOK_LIMIT: usize = 256;
    if candidates.len() > LOOK_LIMIT {
        return None;
    }
    let mut seen = vec![false; feedback_slots(space.spots)];
    candidates
        .iter()
        .find(|guess| {
            seen.fill(false);
            candidates.iter().all(|other| {
                let slot = &mut seen[score_counted(space, guess, other).index(space.spots)];
                !std::mem::replace(slot, true)
            })
        })
        .map(|guess| guess.code)
}

/// A bitmap of code ranks, for "is this guess a candidate".
pub struct Membership {
    words: Vec<u64>,
}

impl Membership {
    pub fn contains(&self, rank: u64) -> bool {
        self.words
            .get((rank / 64) as usize)
            .is_some_and(|word| word >> (rank % 64) & 1 == 1)
    }
}

/// The ranks of the candidates as a bitmap (enumerable spaces).
pub fn membership(space: Space, candidates: &[Counted]) -> Membership {
    let size = space.enumerable_size().unwrap_or(0);
    let mut words = vec![0u64; size.div_ceil(64) as usize];
    for candidate in candidates {
        let rank = space.index_of(&candidate.code);
        if let Some(word) = words.get_mut((rank / 64) as usize) {
            *word |= 1 << (rank % 64);
        }
    }
    Membership { words }
}
