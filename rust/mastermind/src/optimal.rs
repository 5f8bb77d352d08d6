//! The optimal strategy: fewest guesses in total over every consistent code (so fewest
//! expected guesses with the secret uniform), by exhaustive search with branch and bound.
//!
//! `cost(S)` is 1 for one code and `|S| + min over splitting guesses g of sum over the
//! non-winning classes C of cost(C)` otherwise. What keeps the search small without changing
//! its answer:
//! - a lower bound on the cost of any set of `n` codes: one code can be found by the first
//!   guess, at most `m` more by the second, `m^2` by the third... where `m` is the number of
//!   non-winning feedbacks (and `2n` rather than `2n - 1` once no code of the set splits it
//!   into single codes); a guess whose classes' bounds already exceed the budget is skipped,
//!   and each child is searched only with the budget the others' bounds leave it;
//! - a code of the set that splits it into single codes is optimal at once (`2n - 1`);
//! - the exact costs and proven lower bounds of sets already met are remembered (a set no
//!   guess can finish within a budget is remembered at the least bound of any guess);
//! - at every depth, of the guesses that a renaming of spots and colours fixing every guess
//!   played maps onto each other (so they cost the same), only the smallest is tried
//!   ([`symmetries`](crate::canonical::symmetries)); they are tried in order of their bound,
//!   then of the sum of their squared class sizes, so good totals are found early;
//! - feedbacks come from a table of every pair of codes (at most 4096^2 bytes), symmetric, so
//!   the class sizes of every guess are counted reading one contiguous row per code.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use stratagem_core::error::{Error, Result, param};
use stratagem_core::{Cancel, parallel};

use crate::canonical::{canonical_codes, rename_free, symmetries};
use crate::code::{Code, MAX_COLOURS, Space};
use crate::history::History;
use crate::score::{Counted, Feedback, feedback_slots, score_counted};

/// The most symmetries of a history used to prune its guesses (see
/// [`symmetries`](crate::canonical::symmetries): fewer is slower, never wrong).
const SYMMETRY_CAP: usize = 720;

/// The largest space the optimal strategy accepts: 4 x 8, 3 x 16, 2 x 36... (4 x 6 takes
/// seconds; 4 x 7 and up may take hours, but can be interrupted).
pub const OPTIMAL_LIMIT: u64 = 4096;

pub fn check_space(space: Space) -> Result<()> {
    match space.enumerable_size() {
        Some(size) if size <= OPTIMAL_LIMIT => Ok(()),
        _ => Err(param(format!(
            "the optimal strategy is an exhaustive search, so it needs at most \
             {OPTIMAL_LIMIT} codes; {} spots x {} colours has {}",
            space.spots,
            space.colours,
            space.size()
        ))),
    }
}

/// A cost that is either exact or a proven lower bound (the set costs more than a budget).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Known {
    cost: u32,
    exact: bool,
}

/// A set of codes: their ranks, ascending.
type Set = Vec<u32>;

/// A guess worth trying at a node: the lower bound of the total with it, whether it is
/// outside the set, and its rank.
#[derive(Clone, Copy, Debug)]
struct Trial {
    bound: u32,
    outside: bool,
    rank: u32,
}

impl Trial {
    /// One u64 that orders like (bound, spread, outside, rank): 22 + 28 + 1 + 13 bits, where
    /// spread (the sum of squared class sizes) puts even splits first among equal bounds. It
    /// is at most 4096^2 < 2^25, and bounds of sets that size stay far below 2^22.
    fn pack(bound: u32, spread: u64, outside: bool, rank: u32) -> u64 {
        (u64::from(bound.min((1 << 22) - 1)) << 42)
            | (spread.min((1 << 28) - 1) << 14)
            | (u64::from(outside) << 13)
            | u64::from(rank)
    }

    fn unpack(key: u64) -> Self {
        Self {
            bound: (key >> 42) as u32,
            outside: (key >> 13) & 1 == 1,
            rank: (key & ((1 << 13) - 1)) as u32,
        }
    }
}

const _: () = assert!(OPTIMAL_LIMIT <= 1 << 13);

const MEMO_SHARDS: usize = 64;
/// Sets this small are solved again rather than remembered.
const MEMO_MIN_SIZE: usize = 4;

/// The tables, bounds and memo of one optimal search.
struct Solver<'c> {
    space: Space,
    cancel: &'c Cancel,
    size: usize,
    /// `table[a * size + b]`: the feedback of guess rank a against secret rank b (the same
    /// as b against a), numbered densely over the feedbacks that can occur.
    table: Vec<u8>,
    win: u8,
    /// The number of feedbacks that can occur, and each by its dense number.
    slots: usize,
    feedbacks: Vec<Feedback>,
    /// `floor[n]`: the lower bound on the cost of any set of n codes.
    floor: Vec<u32>,
    /// `outcomes + 1`: sets up to this size can be split into single codes.
    splittable: usize,
    /// Guesses with colours no guess used renamed canonically, by the bitmask of used colours.
    by_mask: Mutex<HashMap<u64, Arc<Vec<u32>>>>,
    /// Those of them that are the smallest of their orbit under the symmetries of the
    /// guesses played (ranks, ascending), by the guesses played.
    guesses: Mutex<HashMap<Vec<u32>, Arc<Vec<u32>>>>,
    memo: Vec<Mutex<HashMap<Set, Known>>>,
}

impl<'c> Solver<'c> {
    fn new(space: Space, threads: usize, cancel: &'c Cancel) -> Result<Self> {
        check_space(space)?;
        let size = space.enumerable_size().unwrap_or(0) as usize;
        let codes: Vec<Counted> = (0..size as u64)
            .map(|rank| Counted::new(&space.code_at(rank)))
            .collect();
        // Dense numbers for the feedbacks that occur (black + white <= spots, not
        // (spots - 1, 1)), in the order of their index.
        let spots = space.spots;
        let mut dense = vec![u8::MAX; feedback_slots(spots)];
        let mut slots = 0usize;
        let mut feedbacks = Vec::new();
        for black in 0..=spots {
            for white in 0..=spots - black {
                if black + 1 == spots && white == 1 {
                    continue;
                }
                let feedback = Feedback {
                    black: black as u8,
                    white: white as u8,
                };
                dense[feedback.index(spots)] = slots as u8;
                feedbacks.push(feedback);
                slots += 1;
            }
        }
        let mut table = vec![0u8; size * size];
        parallel::pool(threads)?.install(|| {
            table
                .par_chunks_mut(size.max(1))
                .zip(codes.par_iter())
                .for_each(|(row, guess)| {
                    for (slot, secret) in row.iter_mut().zip(&codes) {
                        *slot = dense[score_counted(space, guess, secret).index(spots)];
                    }
                })
        });
        let outcomes = (slots as u64 - 1).max(1);
        // Level d of a strategy's tree finds at most m^(d-1) codes; fill levels greedily.
        let mut floor = vec![0u32; size + 1];
        let (mut depth, mut capacity, mut filled, mut cost) = (1u64, 1u64, 0u64, 0u64);
        for slot in floor.iter_mut().skip(1) {
            if filled == capacity {
                depth += 1;
                capacity = capacity.saturating_mul(outcomes);
                filled = 0;
            }
            filled += 1;
            cost += depth;
            *slot = cost.min(u64::from(u32::MAX)) as u32;
        }
        Ok(Self {
            space,
            cancel,
            size,
            table,
            win: dense[Feedback::win(spots).index(spots)],
            slots,
            feedbacks,
            floor,
            splittable: outcomes as usize + 1,
            by_mask: Mutex::new(HashMap::new()),
            guesses: Mutex::new(HashMap::new()),
            memo: (0..MEMO_SHARDS)
                .map(|_| Mutex::new(HashMap::new()))
                .collect(),
        })
    }

    #[inline]
    fn feedback(&self, guess: u32, secret: u32) -> u8 {
        self.table[guess as usize * self.size + secret as usize]
    }

    fn floor_of(&self, n: usize) -> u32 {
        self.floor.get(n).copied().unwrap_or(u32::MAX)
    }

    /// The guesses worth trying after the guesses `played` (ranks, ascending): one of each
    /// orbit of the symmetries that fix them, its smallest code.
    fn guesses_for(&self, played: &[u32]) -> Result<Arc<Vec<u32>>> {
        if let Some(found) = lock(&self.guesses).get(played) {
            return Ok(Arc::clone(found));
        }
        let codes: Vec<Code> = played
            .iter()
            .map(|&rank| self.space.code_at(u64::from(rank)))
            .collect();
        let used = codes.iter().fold(0u64, |mask, code| {
            self.space
                .spots_of(code)
                .iter()
                .fold(mask, |m, &c| m | 1 << c)
        });
        let renamed = self.by_mask(used)?;
        let group = symmetries(self.space, &codes, SYMMETRY_CAP);
        let ranks = if group.len() <= 1 {
            renamed
        } else {
            let smallest = |rank: u32| {
                let code = self.space.code_at(u64::from(rank));
                group.iter().all(|symmetry| {
                    let image = rename_free(self.space, used, &symmetry.apply(self.space, &code));
                    self.space.index_of(&image) >= u64::from(rank)
                })
            };
            Arc::new(renamed.iter().copied().filter(|&r| smallest(r)).collect())
        };
        lock(&self.guesses).insert(played.to_vec(), Arc::clone(&ranks));
        Ok(ranks)
    }

    /// Every code with the colours outside `used` renamed canonically (ranks, ascending).
    fn by_mask(&self, used: u64) -> Result<Arc<Vec<u32>>> {
        if let Some(found) = lock(&self.by_mask).get(&used) {
            return Ok(Arc::clone(found));
        }
        let ranks: Vec<u32> = canonical_codes(self.space, used)?
            .iter()
            .map(|code| self.space.index_of(code) as u32)
            .collect();
        let ranks = Arc::new(ranks);
        lock(&self.by_mask).insert(used, Arc::clone(&ranks));
        Ok(ranks)
    }

    /// `played` with `guess` added (ranks, ascending, each once).
    fn after(played: &[u32], guess: u32) -> Vec<u32> {
        let mut after = played.to_vec();
        if let Err(at) = after.binary_search(&guess) {
            after.insert(at, guess);
        }
        after
    }

    /// The first code of `set` that splits it into single codes.
    fn perfect(&self, set: &[u32]) -> Option<u32> {
        if set.len() > self.splittable {
            return None;
        }
        let mut seen = vec![false; self.slots];
        set.iter().copied().find(|&guess| {
            seen.fill(false);
            set.iter().all(|&other| {
                let slot = &mut seen[usize::from(self.feedback(guess, other))];
                !std::mem::replace(slot, true)
            })
        })
    }

    /// Whether some guess splits `set` into single codes (checked after no code of the set
    /// does: such a guess then costs `2n`, the bound).
    fn perfect_outside(&self, set: &[u32], played: &[u32]) -> Result<bool> {
        let guesses = self.guesses_for(played)?;
        let mut seen = vec![false; self.slots];
        Ok(guesses.iter().any(|&guess| {
            seen.fill(false);
            set.iter().all(|&code| {
                let slot = &mut seen[usize::from(self.feedback(guess, code))];
                !std::mem::replace(slot, true)
            })
        }))
    }

    /// The guesses worth trying for `set` within `budget`, best bound first, and the least
    /// bound of any guess that splits the set (a lower bound of its cost, even when no guess
    /// is within the budget).
    fn options(&self, set: &[u32], played: &[u32], budget: u32) -> Result<(Vec<Trial>, u32)> {
        let guesses = self.guesses_for(played)?;
        let n = set.len();
        let win = usize::from(self.win);
        // Class sizes of every guess at once, one code (one contiguous row of the symmetric
        // table) at a time: the table is read in order rather than a guess row per code.
        let mut sizes = vec![0u16; guesses.len() * self.slots];
        for &code in set {
            let row = &self.table[code as usize * self.size..][..self.size];
            for (cell, &guess) in sizes.chunks_exact_mut(self.slots).zip(guesses.iter()) {
                cell[usize::from(row[guess as usize])] += 1;
            }
        }
        let mut keys = Vec::new();
        let mut least = u32::MAX;
        // floor[0] is 0, so every slot can be summed without a branch (the win's taken off).
        let floor = &self.floor[..=n];
        for (cell, &guess) in sizes.chunks_exact(self.slots).zip(guesses.iter()) {
            let (mut total, mut spread, mut parts) = (0u32, 0u64, 0u32);
            for &k in cell {
                let k = usize::from(k).min(n);
                total += floor[k];
                spread += (k * k) as u64;
                parts += u32::from(k != 0);
            }
            let inside = cell[win] > 0;
            if !(inside || parts > 1) {
                continue;
            }
            let bound = (n as u32).saturating_add(total - floor[usize::from(cell[win]).min(n)]);
            least = least.min(bound);
            if bound <= budget {
                keys.push(Trial::pack(bound, spread, !inside, guess));
            }
        }
        keys.sort_unstable();
        Ok((keys.into_iter().map(Trial::unpack).collect(), least))
    }

    /// The non-winning classes of `set` split by `guess`, largest first (ties by feedback).
    fn split(&self, guess: u32, set: &[u32]) -> Vec<(u8, Set)> {
        let mut classes: Vec<(u8, Set)> = Vec::new();
        for &code in set {
            let feedback = self.feedback(guess, code);
            if feedback == self.win {
                continue;
            }
            match classes.iter_mut().find(|(f, _)| *f == feedback) {
                Some((_, class)) => class.push(code),
                None => classes.push((feedback, vec![code])),
            }
        }
        classes.sort_by_key(|(feedback, class)| (std::cmp::Reverse(class.len()), *feedback));
        classes
    }

    fn shard(&self, key: &[u32]) -> &Mutex<HashMap<Set, Known>> {
        let mix = key.iter().fold(0u64, |h, &w| {
            (h ^ u64::from(w)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        });
        &self.memo[(mix >> 58) as usize % MEMO_SHARDS]
    }

    fn recall(&self, set: &[u32]) -> Option<Known> {
        let shard = self.shard(set).lock().unwrap_or_else(|p| p.into_inner());
        shard.get(set).copied()
    }

    fn remember(&self, set: &[u32], known: Known) {
        let mut shard = self.shard(set).lock().unwrap_or_else(|p| p.into_inner());
        let entry = shard.entry(set.to_vec()).or_insert(known);
        if known.exact || (!entry.exact && known.cost > entry.cost) {
            *entry = known;
        }
    }

    /// The cheapest a set of `n` codes could be once no code of it splits it perfectly.
    fn floor_without_perfect(&self, n: usize) -> u32 {
        let floor = self.floor_of(n);
        if n >= 2 && n <= self.splittable {
            floor + 1
        } else {
            floor
        }
    }

    /// The cost of `set` if it is at most `budget`; otherwise a lower bound above `budget`.
    fn cost(&self, set: &[u32], played: &[u32], budget: u32) -> Result<Known> {
        let n = set.len();
        if n <= 2 {
            return Ok(Known {
                cost: self.floor_of(n),
                exact: true,
            });
        }
        if self.floor_of(n) > budget {
            return Ok(Known {
                cost: self.floor_of(n),
                exact: false,
            });
        }
        if self.perfect(set).is_some() {
            return Ok(Known {
                cost: self.floor_of(n),
                exact: true,
            });
        }
        let floor = self.floor_without_perfect(n);
        if floor > budget {
            return Ok(Known {
                cost: floor,
                exact: false,
            });
        }
        if n <= self.splittable && self.perfect_outside(set, played)? {
            return Ok(Known {
                cost: floor,
                exact: true,
            });
        }
        let memoised = n >= MEMO_MIN_SIZE;
        if let Some(known) = memoised.then(|| self.recall(set)).flatten() {
            if known.exact || known.cost > budget {
                return Ok(known);
            }
        }
        if self.cancel.is_cancelled() {
            return Err(Error::Interrupted);
        }
        let mut best = budget.saturating_add(1);
        let (options, least) = self.options(set, played, budget)?;
        for option in options {
            if option.bound >= best {
                break;
            }
            if let Some(total) = self.guess_cost(set, played, option.rank, best - 1)? {
                best = total;
            }
        }
        let known = if best <= budget {
            Known {
                cost: best,
                exact: true,
            }
        } else {
            Known {
                cost: best.max(least.min(u32::MAX - 1)),
                exact: false,
            }
        };
        if memoised {
            self.remember(set, known);
        }
        Ok(known)
    }

    /// The total cost of playing `guess` on `set`, if it is at most `budget`.
    fn guess_cost(
        &self,
        set: &[u32],
        played: &[u32],
        guess: u32,
        budget: u32,
    ) -> Result<Option<u32>> {
        self.guess_cost_with(set, played, guess, budget, false)
    }

    /// [`Solver::guess_cost`]; with `spread`, the classes are searched in parallel, each with
    /// the budget the others' bounds leave it (a looser budget than one after the other, but
    /// both threads busy at the top of the tree). The total is the same either way.
    fn guess_cost_with(
        &self,
        set: &[u32],
        played: &[u32],
        guess: u32,
        budget: u32,
        spread: bool,
    ) -> Result<Option<u32>> {
        let classes = self.split(guess, set);
        // What is already known of each class: its exact cost or a lower bound.
        let known: Vec<Known> = classes
            .iter()
            .map(|(_, class)| {
                let floor = self.floor_of(class.len());
                match (class.len() >= MEMO_MIN_SIZE)
                    .then(|| self.recall(class))
                    .flatten()
                {
                    Some(k) if k.exact || k.cost > floor => k,
                    _ if class.len() <= 2 => Known {
                        cost: floor,
                        exact: true,
                    },
                    // A small set that no code of it splits into single codes costs one more.
                    _ if class.len() <= self.splittable => match self.perfect(class) {
                        Some(_) => Known {
                            cost: floor,
                            exact: true,
                        },
                        None => Known {
                            cost: floor + 1,
                            exact: false,
                        },
                    },
                    _ => Known {
                        cost: floor,
                        exact: false,
                    },
                }
            })
            .collect();
        let mut rest: u32 = known.iter().map(|k| k.cost).fold(0, u32::saturating_add);
        let mut total = set.len() as u32;
        if total.saturating_add(rest) > budget {
            return Ok(None);
        }
        let played = &Self::after(played, guess);
        if spread {
            let slack = budget - total - rest;
            let costs: Vec<Option<u32>> = classes
                .par_iter()
                .zip(&known)
                .with_max_len(1)
                .map(|((_, class), before)| {
                    if before.exact {
                        return Ok(Some(before.cost));
                    }
                    let allowed = before.cost + slack;
                    let known = self.cost(class, played, allowed)?;
                    Ok((known.exact && known.cost <= allowed).then_some(known.cost))
                })
                .collect::<Result<_>>()?;
            let sum = costs
                .iter()
                .try_fold(total, |sum, cost| cost.map(|c| sum.saturating_add(c)));
            return Ok(sum.filter(|&sum| sum <= budget));
        }
        for ((_, class), before) in classes.iter().zip(&known) {
            rest -= before.cost;
            let allowed = budget - total - rest;
            if before.exact {
                total += before.cost;
                continue;
            }
            let known = self.cost(class, played, allowed)?;
            if !known.exact || known.cost > allowed {
                return Ok(None);
            }
            total += known.cost;
        }
        Ok(Some(total))
    }

    /// The total of the strategy that always plays the guess with the best bound (then the
    /// most even split): an upper bound of the optimum.
    fn greedy_total(&self, set: &[u32], played: &[u32]) -> Result<u32> {
        let n = set.len();
        if n <= 2 {
            return Ok(self.floor_of(n));
        }
        if self.perfect(set).is_some() {
            return Ok(self.floor_of(n));
        }
        let option = self
            .options(set, played, u32::MAX - 1)?
            .0
            .into_iter()
            .next()
            .ok_or_else(|| param("no guess splits the candidates".to_string()))?;
        let after = Self::after(played, option.rank);
        let mut total = n as u32;
        for (_, class) in self.split(option.rank, set) {
            total = total.saturating_add(self.greedy_total(&class, &after)?);
        }
        Ok(total)
    }

    /// The optimal guess for `set` and its total: smallest total, then a code of the set,
    /// then the smallest rank. Top-level guesses are shared over threads; each is tried with
    /// the best total found so far as an inclusive budget, so every guess that ties the
    /// optimum is found whatever the schedule.
    fn best(&self, set: &[u32], played: &[u32], threads: usize) -> Result<(u32, u32)> {
        let n = set.len();
        if n <= 2 {
            return set
                .first()
                .map(|&rank| (rank, self.floor_of(n)))
                .ok_or_else(|| param("no candidate codes".to_string()));
        }
        if let Some(perfect) = self.perfect(set) {
            return Ok((perfect, self.floor_of(n)));
        }
        // A greedy strategy's total is an upper bound: every guess starts with a tight budget.
        let greedy = self.greedy_total(set, played)?;
        let (options, _) = self.options(set, played, greedy)?;
        let best_total = AtomicU32::new(greedy);
        let found: Mutex<Vec<(u32, bool, u32)>> = Mutex::new(Vec::new());
        parallel::pool(threads)?.install(|| {
            options.par_iter().with_max_len(1).try_for_each(|option| {
                let budget = best_total.load(Ordering::Relaxed);
                if option.bound > budget {
                    return Ok(());
                }
                if let Some(total) = self.guess_cost_with(set, played, option.rank, budget, true)? {
                    best_total.fetch_min(total, Ordering::Relaxed);
                    let mut found = found.lock().unwrap_or_else(|p| p.into_inner());
                    found.push((total, option.outside, option.rank));
                }
                Ok::<(), Error>(())
            })
        })?;
        let found = found.into_inner().unwrap_or_else(|p| p.into_inner());
        found
            .into_iter()
            .min()
            .map(|(total, _, rank)| (rank, total))
            .ok_or_else(|| param("the optimal search found no guess".to_string()))
    }

    /// The guesses of `history` (ranks, ascending, each once).
    fn played(&self, history: &History) -> Vec<u32> {
        let mut played: Vec<u32> = history
            .guesses
            .iter()
            .map(|guess| self.space.index_of(&guess.code) as u32)
            .collect();
        played.sort_unstable();
        played.dedup();
        played
    }

    fn ranks(&self, candidates: &[Counted]) -> Set {
        let mut set: Set = candidates
            .iter()
            .map(|c| self.space.index_of(&c.code) as u32)
            .collect();
        set.sort_unstable();
        set
    }
}

const _: () = assert!(MAX_COLOURS <= 64);

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// The optimal move after `history`: its guess (rules: smallest total, then a code of the
/// candidates, then the smallest rank) and the optimal total number of guesses to finish
/// every code of the candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Optimum {
    pub guess: Code,
    pub total: u64,
}

/// The [`Optimum`] after `history` over `candidates`.
pub fn optimum(
    history: &History,
    candidates: &[Counted],
    threads: usize,
    cancel: &Cancel,
) -> Result<Optimum> {
    let solver = Solver::new(history.space, threads, cancel)?;
    let set = solver.ranks(candidates);
    let (rank, total) = solver.best(&set, &solver.played(history), threads)?;
    Ok(Optimum {
        guess: history.space.code_at(u64::from(rank)),
        total: u64::from(total),
    })
}

/// One decision of the optimal strategy: after the feedbacks `path` to the guesses of the
/// decisions above it, play `guess`; `wins` when the guess is one of the codes still possible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub path: Vec<Feedback>,
    pub guess: Code,
    pub wins: bool,
}

/// The optimal strategy's whole tree after `history` over `candidates`, its decisions in
/// preorder (children in the order of their feedback, black then white).
pub fn strategy_tree(
    history: &History,
    candidates: &[Counted],
    threads: usize,
    cancel: &Cancel,
) -> Result<Vec<Decision>> {
    let solver = Solver::new(history.space, threads, cancel)?;
    let set = solver.ranks(candidates);
    let mut out = Vec::with_capacity(set.len());
    let mut path = Vec::new();
    walk_tree(
        &solver,
        &set,
        &solver.played(history),
        &mut path,
        threads,
        &mut out,
    )?;
    Ok(out)
}

/// The number of guesses the optimal strategy takes for each candidate, found by walking its
/// whole tree once.
pub fn tree_guesses(
    history: &History,
    candidates: &[Counted],
    threads: usize,
    cancel: &Cancel,
) -> Result<Vec<(Code, u32)>> {
    Ok(strategy_tree(history, candidates, threads, cancel)?
        .into_iter()
        .filter(|decision| decision.wins)
        .map(|decision| (decision.guess, decision.path.len() as u32 + 1))
        .collect())
}

fn walk_tree(
    solver: &Solver<'_>,
    set: &[u32],
    played: &[u32],
    path: &mut Vec<Feedback>,
    threads: usize,
    out: &mut Vec<Decision>,
) -> Result<()> {
    if set.is_empty() {
        return Ok(());
    }
    let (guess, _) = solver.best(set, played, threads)?;
    out.push(Decision {
        path: path.clone(),
        guess: solver.space.code_at(u64::from(guess)),
        wins: set.contains(&guess),
    });
    let played = Solver::after(played, guess);
    let mut classes = solver.split(guess, set);
    classes.sort_by_key(|(feedback, _)| *feedback);
    for (feedback, class) in classes {
        path.push(solver.feedbacks[usize::from(feedback)]);
        walk_tree(solver, &class, &played, path, threads, out)?;
        path.pop();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::Space;

    /// A set refused under a budget too small for every guess must not be remembered as
    /// dearer than it is: asked again with room, it gets its true cost.
    #[test]
    fn a_refused_budget_leaves_a_true_lower_bound() -> Result<()> {
        let space = Space::new(3, 4)?;
        let cancel = Cancel::new();
        let fresh = Solver::new(space, 1, &cancel)?;
        let reused = Solver::new(space, 1, &cancel)?;
        let all: Set = (0..64).collect();
        for guess in [0u32, 1, 6] {
            for (_, class) in fresh.split(guess, &all) {
                let played = [guess];
                let exact = fresh.cost(&class, &played, u32::MAX - 1)?;
                assert!(exact.exact);
                let refused = reused.cost(&class, &played, fresh.floor_of(class.len()))?;
                assert!(refused.cost <= exact.cost);
                assert_eq!(reused.cost(&class, &played, u32::MAX - 1)?, exact);
            }
        }
        Ok(())
    }

    /// The guesses tried after a history are the smallest code of each orbit of every spot
    /// and colour renaming that fixes the history (found here by brute force).
    #[test]
    fn pruned_guesses_are_one_per_orbit() -> Result<()> {
        let space = Space::new(4, 4)?;
        let cancel = Cancel::new();
        let solver = Solver::new(space, 1, &cancel)?;
        let spot_perms = permutations(4);
        let colour_perms = permutations(4);
        for played in [vec![], vec![5u32], vec![5, 27], vec![0, 228]] {
            let codes: Vec<Code> = played
                .iter()
                .map(|&r| space.code_at(u64::from(r)))
                .collect();
            let image = |code: &Code, spots: &[usize], colours: &[usize]| {
                let mut out = *code;
                for (i, &from) in spots.iter().enumerate() {
                    out[i] = colours[usize::from(code[from])] as u8;
                }
                out
            };
            let mut expected = Vec::new();
            for rank in 0..256u32 {
                let code = space.code_at(u64::from(rank));
                let smallest = spot_perms.iter().all(|spots| {
                    colour_perms.iter().all(|colours| {
                        let fixes = codes.iter().all(|g| image(g, spots, colours) == *g);
                        !fixes || space.index_of(&image(&code, spots, colours)) >= rank.into()
                    })
                });
                if smallest {
                    expected.push(rank);
                }
            }
            assert_eq!(*solver.guesses_for(&played)?, expected, "{played:?}");
        }
        Ok(())
    }

    /// The whole tree, guess by guess, is the same on one thread and on three.
    #[test]
    fn the_tree_is_the_same_for_every_thread_count() -> Result<()> {
        let space = Space::new(4, 4)?;
        let all = crate::strategy::counted(&space.all_codes()?);
        let history = History::empty(space);
        let one = strategy_tree(&history, &all, 1, &Cancel::new())?;
        let three = strategy_tree(&history, &all, 3, &Cancel::new())?;
        assert_eq!(one, three);
        let total: usize = one
            .iter()
            .filter(|d| d.wins)
            .map(|d| d.path.len() + 1)
            .sum();
        assert_eq!(total, 905);
        Ok(())
    }

    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for shorter in permutations(n - 1) {
            for at in 0..n {
                let mut p = shorter.clone();
                p.insert(at, n - 1);
                out.push(p);
            }
        }
        out
    }
}
