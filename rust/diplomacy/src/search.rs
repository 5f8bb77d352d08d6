//! The strategy finder (`docs/diplomacy-rules.md`): preliminary search, simulated annealing
//! and the combined search, each under a budget of evaluations and time.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use stratagem_core::rng::{Stream, purpose_tag};
use stratagem_core::{Cancel, Error, Result};

use crate::adjust::{Choices, Convention};
use crate::board::Board;
use crate::evaluate::{Scratch, Weights, values};
use crate::position::{Position, Unit};

const ANNEAL: u64 = purpose_tag("diplomacy.anneal");

/// How far a search may go: evaluations, and optionally a deadline.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub evaluations: u64,
    pub deadline: Option<Instant>,
}

impl Budget {
    fn spent(&self, used: u64) -> bool {
        used >= self.evaluations || self.past_deadline()
    }

    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// What a search runs under: its budget, the Ctrl-C flag it polls and the counter it adds each
/// evaluation to (for a progress bar).
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    pub budget: &'a Budget,
    pub cancel: &'a Cancel,
    pub done: &'a AtomicU64,
}

/// What a search returns: one option per power (its index), the values of that profile, whether
/// the search ended by its own rule, the evaluations it made, and the profiles of a cycle.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub profile: Vec<u128>,
    pub values: Vec<i64>,
    pub finished: bool,
    pub evaluations: u64,
    pub cycle: Option<Vec<Vec<u128>>>,
}

/// A position after the adjustments, as an evaluator sees it: the centres keep their owners
/// (`owner`), the units are `units`.
#[derive(Clone, Copy)]
pub struct After<'a> {
    pub board: &'a Board,
    pub owner: &'a [i8],
    pub units: &'a [Unit],
}

/// What the searches maximise: every power's value of the position after the adjustments.
/// The built-in evaluator is the weighted count of [`crate::evaluate`]; the binding plugs in a
/// Python callable.
pub trait Evaluator: Sync {
    fn evaluate(&self, after: After<'_>, scratch: &mut Scratch) -> Result<Vec<i64>>;
}

impl Evaluator for Weights {
    fn evaluate(&self, after: After<'_>, scratch: &mut Scratch) -> Result<Vec<i64>> {
        let After {
            board,
            owner,
            units,
        } = after;
        let mut out = Vec::with_capacity(board.powers);
        values(board, owner, units, self, scratch, &mut out);
        Ok(out)
    }
}

/// A position with every power's options: the common ground of the searches.
pub struct Problem<'a> {
    pub board: &'a Board,
    pub position: &'a Position,
    pub choices: Vec<Choices>,
    pub evaluator: &'a dyn Evaluator,
}

/// Buffers of one evaluating thread.
#[derive(Default, Clone)]
pub struct Work {
    scratch: Scratch,
    units: Vec<Unit>,
}

impl<'a> Problem<'a> {
    pub fn new(
        board: &'a Board,
        position: &'a Position,
        convention: Convention,
        evaluator: &'a dyn Evaluator,
    ) -> Self {
        let choices = (0..board.powers as u8)
            .map(|power| Choices::of(board, position, power, convention))
            .collect();
        Self {
            board,
            position,
            choices,
            evaluator,
        }
    }

    /// The values of a profile given in slot form (`None`: the power does nothing).
    pub fn evaluate<'s>(
        &self,
        profile: impl Iterator<Item = Option<&'s [u8]>>,
        work: &mut Work,
    ) -> Result<Vec<i64>> {
        self.units_after(profile, &mut work.units);
        let after = After {
            board: self.board,
            owner: &self.position.owner,
            units: &work.units,
        };
        self.evaluator.evaluate(after, &mut work.scratch)
    }

    /// The units after a profile given in slot form (`None`: the power does nothing).
    pub fn units_after<'s>(
        &self,
        profile: impl Iterator<Item = Option<&'s [u8]>>,
        units: &mut Vec<Unit>,
    ) {
        units.clear();
        for (power, slots) in profile.enumerate() {
            self.choices[power].apply(self.position, power as u8, slots, units);
        }
    }

    fn slots_of(&self, profile: &[u128]) -> Result<Vec<Vec<u8>>> {
        profile
            .iter()
            .zip(&self.choices)
            .map(|(&index, choices)| unranked(choices, index))
            .collect()
    }

    /// The values of a profile of option indices (`None`: the power does nothing).
    pub fn values_of(&self, profile: &[Option<u128>]) -> Result<Vec<i64>> {
        let slots = profile
            .iter()
            .zip(&self.choices)
            .map(|(index, choices)| index.map(|i| unranked(choices, i)).transpose())
            .collect::<Result<Vec<_>>>()?;
        self.evaluate(slots.iter().map(Option::as_deref), &mut Work::default())
    }

    fn evaluate_profile(&self, slots: &[Vec<u8>], work: &mut Work) -> Result<Vec<i64>> {
        self.evaluate(slots.iter().map(|s| Some(s.as_slice())), work)
    }

    /// The values when `power` plays `deviation` and every other power its option of `slots`.
    fn evaluate_deviation(
        &self,
        slots: &[Vec<u8>],
        power: usize,
        deviation: &[u8],
        work: &mut Work,
    ) -> Result<Vec<i64>> {
        let profile = slots
            .iter()
            .enumerate()
            .map(|(p, s)| Some(if p == power { deviation } else { s.as_slice() }));
        self.evaluate(profile, work)
    }
}

/// Option `index` of `choices` in slot form.
fn unranked(choices: &Choices, index: u128) -> Result<Vec<u8>> {
    let mut slots = Vec::new();
    choices.unrank(index, &mut slots)?;
    Ok(slots)
}

/// Evaluates options `0..count` of `power` in parallel, every other power playing its option
/// of `decided` (`None`: doing nothing); the best for the power, ties to the smallest index.
fn best_alone(
    problem: &Problem<'_>,
    power: usize,
    count: u64,
    decided: &[Option<Vec<u8>>],
    limits: Limits<'_>,
) -> Result<(i64, u64)> {
    // Blocks of options, each evaluated in order by one thread; the best of each block
    // reduced in block order, so the answer does not depend on the threads.
    const BLOCK: u64 = 1024;
    let blocks = usize::try_from(count.div_ceil(BLOCK)).unwrap_or(usize::MAX);
    let best = (0..blocks)
        .into_par_iter()
        .map(|block| -> Result<Option<(i64, std::cmp::Reverse<u64>)>> {
            let mut work = Work::default();
            let mut slots = Vec::new();
            let mut best: Option<(i64, std::cmp::Reverse<u64>)> = None;
            let first = block as u64 * BLOCK;
            for index in first..(first + BLOCK).min(count) {
                if limits.cancel.is_cancelled() || limits.budget.past_deadline() {
                    break;
                }
                // The block's first option unranked, each next one stepped from the last.
                let choices = &problem.choices[power];
                let ready = if index == first {
                    choices.unrank(u128::from(index), &mut slots).is_ok()
                } else {
                    choices.advance(&mut slots)
                };
                if !ready {
                    break;
                }
                let profile = decided.iter().enumerate().map(|(p, fixed)| {
                    if p == power {
                        Some(slots.as_slice())
                    } else {
                        fixed.as_deref()
                    }
                });
                let value = problem.evaluate(profile, &mut work)?[power];
                limits.done.fetch_add(1, Ordering::Relaxed);
                best = best.max(Some((value, std::cmp::Reverse(index))));
            }
            Ok(best)
        })
        .try_reduce(|| None, |a, b| Ok(a.max(b)))?;
    limits.cancel.check()?;
    let Some((value, std::cmp::Reverse(index))) = best else {
        return Err(Error::InvalidParameter(
            "the time budget ran out before the first evaluation".into(),
        ));
    };
    Ok((value, index))
}

/// Each power's best option while the others do nothing (ties to the smallest index).
pub fn preliminary(problem: &Problem<'_>, limits: Limits<'_>) -> Result<Outcome> {
    let order: Vec<usize> = (0..problem.choices.len()).collect();
    decide(problem, &order, false, limits)
}

/// The sequential preliminary search: the powers decide in `order` (a permutation of the
/// powers), each taking its best option while the powers before it play theirs and the powers
/// after it do nothing (ties to the smallest index).
pub fn sequential(problem: &Problem<'_>, order: &[usize], limits: Limits<'_>) -> Result<Outcome> {
    let mut sorted = order.to_vec();
    sorted.sort_unstable();
    if !sorted.into_iter().eq(0..problem.choices.len()) {
        return Err(Error::InvalidParameter(format!(
            "the order {order:?} is not a permutation of the {} powers",
            problem.choices.len()
        )));
    }
    decide(problem, order, true, limits)
}

/// The powers decide in `order`; with `remember`, a power plays its decision for the powers
/// after it (the sequential search), else every other power does nothing (the preliminary).
fn decide(
    problem: &Problem<'_>,
    order: &[usize],
    remember: bool,
    limits: Limits<'_>,
) -> Result<Outcome> {
    let mut profile = vec![0u128; problem.choices.len()];
    let mut decided: Vec<Option<Vec<u8>>> = vec![None; problem.choices.len()];
    let mut used = 0u64;
    let mut finished = true;
    for &power in order {
        let choices = &problem.choices[power];
        let count = choices.count();
        if count <= 1 {
            if remember {
                decided[power] = Some(unranked(choices, 0)?);
            }
            continue;
        }
        let left = limits.budget.evaluations.saturating_sub(used);
        let allowed = u64::try_from(count).unwrap_or(u64::MAX).min(left);
        if allowed < u64::try_from(count).unwrap_or(u64::MAX) || allowed == 0 {
            finished = false;
        }
        if allowed == 0 {
            break;
        }
        let (_, index) = best_alone(problem, power, allowed, &decided, limits)?;
        used += allowed;
        profile[power] = u128::from(index);
        if remember {
            decided[power] = Some(unranked(choices, profile[power])?);
        }
        if limits.budget.past_deadline() {
            finished = false;
            break;
        }
    }
    let slots = problem.slots_of(&profile)?;
    let values = problem.evaluate_profile(&slots, &mut Work::default())?;
    Ok(Outcome {
        profile,
        values,
        finished,
        evaluations: used + 1,
        cycle: None,
    })
}

/// Fisher-Yates from the last position down.
fn shuffle(items: &mut [usize], cursor: &mut stratagem_core::rng::Cursor) {
    for i in (1..items.len()).rev() {
        let j = cursor.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// Where annealing starts: the preliminary search's outcome, or a given profile evaluated once.
pub fn start_at(problem: &Problem<'_>, profile: Vec<u128>) -> Result<Outcome> {
    let slots = problem.slots_of(&profile)?;
    Ok(Outcome {
        values: problem.evaluate_profile(&slots, &mut Work::default())?,
        profile,
        finished: true,
        evaluations: 1,
        cycle: None,
    })
}

/// Loeb's secondary search from `start`: `steps` proposals of shrinking size. The evaluations
/// and the budget count those that found `start` too.
pub fn anneal(
    problem: &Problem<'_>,
    start: Outcome,
    seed: u64,
    steps: u64,
    limits: Limits<'_>,
) -> Result<Outcome> {
    let mut slots = problem.slots_of(&start.profile)?;
    let mut work = Work::default();
    let mut current = start.values;
    let mut used = start.evaluations;
    let active: Vec<usize> = (0..problem.choices.len())
        .filter(|&p| problem.choices[p].count() > 1)
        .collect();
    let mut finished = start.finished;
    let mut proposal = Vec::new();
    let mut order = Vec::new();
    for t in 0..steps {
        if active.is_empty() {
            break;
        }
        if t % 256 == 0 {
            limits.cancel.check()?;
        }
        if limits.budget.spent(used) {
            finished = false;
            break;
        }
        let power = active[(t % active.len() as u64) as usize];
        let choices = &problem.choices[power];
        let mut cursor = Stream::with_ids(seed, ANNEAL, [t, 0, 0]).cursor();
        proposal.clone_from(&slots[power]);
        let largest = match choices {
            Choices::Remove { units, k } => (*k).min(units.len() - k),
            Choices::Build { homes, .. } => homes.len(),
            Choices::Nothing => 0,
        } as u64;
        let size = ((largest * (steps - t)).div_ceil(steps)).max(1) as usize;
        match choices {
            Choices::Remove { .. } => {
                let mut removed: Vec<usize> =
                    (0..proposal.len()).filter(|&i| proposal[i] == 1).collect();
                let mut kept: Vec<usize> =
                    (0..proposal.len()).filter(|&i| proposal[i] == 0).collect();
                shuffle(&mut removed, &mut cursor);
                shuffle(&mut kept, &mut cursor);
                for (&r, &k) in removed.iter().zip(&kept).take(size) {
                    proposal[r] = 0;
                    proposal[k] = 1;
                }
            }
            Choices::Build { homes, .. } => {
                order.clear();
                order.extend(0..homes.len());
                shuffle(&mut order, &mut cursor);
                for &h in order.iter().take(size) {
                    proposal[h] = cursor.below(homes[h].len() as u64 + 1) as u8;
                }
            }
            Choices::Nothing => {}
        }
        if !choices.allows(&proposal) {
            continue;
        }
        let values = problem.evaluate_deviation(&slots, power, &proposal, &mut work)?;
        used += 1;
        limits.done.fetch_add(1, Ordering::Relaxed);
        if values[power] > current[power] {
            slots[power].clone_from(&proposal);
            current = values;
        }
    }
    let profile = slots
        .iter()
        .zip(&problem.choices)
        .map(|(s, c)| c.rank(s).unwrap_or(0))
        .collect();
    Ok(Outcome {
        profile,
        values: current,
        finished,
        evaluations: used,
        cycle: None,
    })
}

/// How a combined search stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Running,
    /// Every new list is empty: the profile is a pure Nash equilibrium.
    Equilibrium,
    /// The profile became one it was before: the cycle is `history[from..]`.
    Cycle {
        from: usize,
    },
}

/// Everything a combined search needs to go on: what `Combined::restore` takes back.
#[derive(Clone, Debug)]
pub struct CombinedState {
    /// The values of the current profile `P`.
    pub values: Vec<i64>,
    pub evaluations: u64,
    /// The power whose turn it is.
    pub power: usize,
    /// Each power's new list as ranges `[start, end)` of option indices, in order.
    pub new: Vec<VecDeque<(u128, u128)>>,
    /// Each power's old list as `(value, index)`, best first.
    pub old: Vec<Vec<(i64, u128)>>,
    /// Every profile the search has been at, in order: `P` is the last, or for a cycle the
    /// one it starts with.
    pub history: Vec<Vec<u128>>,
    pub ending: Ending,
}

/// Loeb's combined search as a state that advances one evaluation at a time, so that a run can
/// be budgeted, saved, resumed and checked step by step.
#[derive(Clone, Debug)]
pub struct Combined {
    pub state: CombinedState,
    pub profile: Vec<u128>,
    seen: HashMap<Vec<u128>, usize>,
    slots: Vec<Vec<u8>>,
}

fn corrupt(what: impl std::fmt::Display) -> Error {
    Error::InvalidParameter(format!("a saved combined search is corrupt: {what}"))
}

impl Combined {
    /// Steps 1 and 2: every power plays its first option, whose value starts each old list.
    pub fn new(problem: &Problem<'_>) -> Result<Self> {
        let powers = problem.choices.len();
        let profile = vec![0u128; powers];
        let values =
            problem.evaluate_profile(&problem.slots_of(&profile)?, &mut Work::default())?;
        let new = problem
            .choices
            .iter()
            .map(|c| match c.count() {
                count if count > 1 => VecDeque::from([(1, count)]),
                _ => VecDeque::new(),
            })
            .collect();
        let old = (0..powers).map(|p| vec![(values[p], 0)]).collect();
        let state = CombinedState {
            values,
            evaluations: 1,
            power: 0,
            new,
            old,
            history: vec![profile],
            ending: Ending::Running,
        };
        Self::restore(problem, state)
    }

    /// A search going on from `state`, checked against the problem's options.
    pub fn restore(problem: &Problem<'_>, state: CombinedState) -> Result<Self> {
        let powers = problem.choices.len();
        let counts: Vec<u128> = problem.choices.iter().map(Choices::count).collect();
        if state.values.len() != powers || state.new.len() != powers || state.old.len() != powers {
            return Err(corrupt(format!("it does not have {powers} powers")));
        }
        if state.power >= powers {
            return Err(corrupt(format!("the power to move is {}", state.power)));
        }
        for (p, ranges) in state.new.iter().enumerate() {
            if let Some(&(start, end)) = ranges.iter().find(|&&(s, e)| s >= e || e > counts[p]) {
                return Err(corrupt(format!(
                    "power {p}'s new list holds options {start}..{end} of {}",
                    counts[p]
                )));
            }
        }
        for (p, entries) in state.old.iter().enumerate() {
            if entries.iter().any(|&(_, i)| i >= counts[p]) {
                return Err(corrupt(format!(
                    "power {p}'s old list holds an unknown option"
                )));
            }
        }
        let mut seen = HashMap::new();
        for (at, visited) in state.history.iter().enumerate() {
            let valid =
                visited.len() == powers && visited.iter().zip(&counts).all(|(&i, &n)| i < n);
            if !valid {
                return Err(corrupt(format!("profile {at} of its history is not one")));
            }
            if seen.insert(visited.clone(), at).is_some() {
                return Err(corrupt(format!("profile {at} of its history repeats")));
            }
        }
        let current = match state.ending {
            Ending::Cycle { from } => state.history.get(from),
            Ending::Equilibrium if state.new.iter().any(|n| !n.is_empty()) => {
                return Err(corrupt(
                    "it ended at an equilibrium with options left to try",
                ));
            }
            _ => state.history.last(),
        };
        let Some(profile) = current.cloned() else {
            return Err(corrupt("its history does not hold the current profile"));
        };
        let slots = problem.slots_of(&profile)?;
        let mut search = Self {
            state,
            profile,
            seen,
            slots,
        };
        search.settle();
        Ok(search)
    }

    /// Step 4, and step 3's skipping of powers whose new list is empty.
    fn settle(&mut self) {
        let state = &mut self.state;
        if state.ending != Ending::Running {
            return;
        }
        if state.new.iter().all(VecDeque::is_empty) {
            state.ending = Ending::Equilibrium;
            return;
        }
        while state.new[state.power].is_empty() {
            state.power = (state.power + 1) % state.new.len();
        }
    }

    /// One evaluation of step 3 (and the cycle check of step 5); nothing once ended.
    pub fn step(
        &mut self,
        problem: &Problem<'_>,
        work: &mut Work,
        candidate: &mut Vec<u8>,
    ) -> Result<()> {
        // `new`, `restore` and every step end settled: the power to move has options left.
        let state = &mut self.state;
        let power = state.power;
        let (Ending::Running, Some(&(option, end))) = (state.ending, state.new[power].front())
        else {
            return Ok(());
        };
        problem.choices[power].unrank(option, candidate)?;
        let values = problem.evaluate_deviation(&self.slots, power, candidate, work)?;
        state.evaluations += 1;
        if option + 1 < end {
            state.new[power][0].0 += 1;
        } else {
            state.new[power].pop_front();
        }
        let value = values[power];
        if value > state.values[power] {
            self.profile[power] = option;
            self.slots[power].clone_from(candidate);
            state.values = values;
            for (fresh, tried) in state.new.iter_mut().zip(state.old.iter_mut()) {
                fresh.extend(tried.drain(..).map(|(_, index)| (index, index + 1)));
            }
            if let Some(&from) = self.seen.get(&self.profile) {
                state.ending = Ending::Cycle { from };
                return Ok(());
            }
            self.seen.insert(self.profile.clone(), state.history.len());
            state.history.push(self.profile.clone());
        }
        let tried = &mut state.old[power];
        let at = tried
            .iter()
            .position(|&(v, _)| v < value)
            .unwrap_or(tried.len());
        tried.insert(at, (value, option));
        state.power = (power + 1) % state.new.len();
        self.settle();
        Ok(())
    }

    /// Steps until the search ends or the budget (counting every evaluation since the search
    /// began) is spent.
    pub fn run(&mut self, problem: &Problem<'_>, limits: Limits<'_>) -> Result<()> {
        let mut work = Work::default();
        let mut candidate = Vec::new();
        while self.state.ending == Ending::Running && !limits.budget.spent(self.state.evaluations) {
            if self.state.evaluations % 1024 == 0 {
                limits.cancel.check()?;
            }
            self.step(problem, &mut work, &mut candidate)?;
            limits.done.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    pub fn outcome(&self) -> Outcome {
        let state = &self.state;
        Outcome {
            profile: self.profile.clone(),
            values: state.values.clone(),
            finished: state.ending != Ending::Running,
            evaluations: state.evaluations,
            cycle: match state.ending {
                Ending::Cycle { from } => Some(state.history[from..].to_vec()),
                _ => None,
            },
        }
    }
}

/// Loeb's combined search run to its end or its budget.
pub fn combined(problem: &Problem<'_>, limits: Limits<'_>) -> Result<Outcome> {
    let mut search = Combined::new(problem)?;
    search.run(problem, limits)?;
    Ok(search.outcome())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ring of eight land provinces, three powers: power 0 removes one of three armies,
    /// power 1 builds on an open home, power 2 removes one of two; centre 5 is nobody's.
    fn ring() -> Result<(Board, Position)> {
        let provinces = 8;
        let offsets: Vec<i64> = (0..=provinces).map(|i| 2 * i).collect();
        let targets: Vec<i64> = (0..provinces)
            .flat_map(|p| [(p + provinces - 1) % provinces, (p + 1) % provinces])
            .collect();
        let board = Board::new(
            3,
            &[0; 8],
            &[0, 1, 2, 3, 4, 5, 6],
            &[0, 0, 1, 1, 2, 2, -1],
            &(0..provinces).collect::<Vec<_>>(),
            &[],
            (&offsets, &targets),
            (&[0], &[]),
        )?;
        let army = |power, location| Unit {
            power,
            fleet: false,
            location,
        };
        let units = vec![
            army(0, 0),
            army(0, 1),
            army(0, 7),
            army(1, 2),
            army(2, 4),
            army(2, 5),
        ];
        let position = Position::new(&board, units, vec![0, 0, 1, 1, 2, -1, 1])?;
        Ok((board, position))
    }

    /// The built-in weights behind another type: what a user's evaluator equal to them is.
    struct Twin(Weights);

    impl Evaluator for Twin {
        fn evaluate(&self, after: After<'_>, scratch: &mut Scratch) -> Result<Vec<i64>> {
            self.0.evaluate(after, scratch)
        }
    }

    /// Fails from its `after`-th call on.
    struct Failing {
        after: u64,
        calls: AtomicU64,
    }

    impl Evaluator for Failing {
        fn evaluate(&self, after: After<'_>, _scratch: &mut Scratch) -> Result<Vec<i64>> {
            if self.calls.fetch_add(1, Ordering::Relaxed) + 1 >= self.after {
                return Err(Error::InvalidParameter("the evaluator failed".into()));
            }
            let units = after.units;
            Ok((0..3)
                .map(|p| units.iter().filter(|u| u.power == p).count() as i64)
                .collect())
        }
    }

    fn run(problem: &Problem<'_>, method: &str, evaluations: u64) -> Result<Outcome> {
        let budget = Budget {
            evaluations,
            deadline: None,
        };
        let (cancel, done) = (Cancel::new(), AtomicU64::new(0));
        let limits = Limits {
            budget: &budget,
            cancel: &cancel,
            done: &done,
        };
        match method {
            "preliminary" => preliminary(problem, limits),
            "anneal" => {
                let start = preliminary(problem, limits)?;
                anneal(problem, start, 7, 50, limits)
            }
            _ => combined(problem, limits),
        }
    }

    /// An outcome's profile, values, ending, evaluations and cycle.
    type Summary = (Vec<u128>, Vec<i64>, bool, u64, Option<Vec<Vec<u128>>>);

    fn summary(outcome: &Outcome) -> Summary {
        (
            outcome.profile.clone(),
            outcome.values.clone(),
            outcome.finished,
            outcome.evaluations,
            outcome.cycle.clone(),
        )
    }

    #[test]
    fn another_evaluator_equal_to_the_weights_gives_the_same_outcome_on_any_threads() -> Result<()>
    {
        let (board, position) = ring()?;
        let other = Weights {
            centre: -3,
            unit: 5,
            reach: 1,
            threat: -2,
        };
        for weights in [Weights::default(), other] {
            let twin = Twin(weights);
            for convention in [Convention::Exact, Convention::Waives, Convention::Article] {
                let built_in = Problem::new(&board, &position, convention, &weights);
                let user = Problem::new(&board, &position, convention, &twin);
                for method in ["preliminary", "anneal", "combined"] {
                    for evaluations in [1, 3, 1000] {
                        let want = summary(&run(&built_in, method, evaluations)?);
                        for threads in [1, 3] {
                            let pool = stratagem_core::parallel::pool(threads)?;
                            let got = pool.install(|| run(&user, method, evaluations))?;
                            assert_eq!(summary(&got), want, "{method} {threads}");
                        }
                    }
                }
            }
        }
        Ok(())
    }

    #[test]
    fn an_evaluator_s_error_ends_every_search() -> Result<()> {
        let (board, position) = ring()?;
        for method in ["preliminary", "anneal", "combined"] {
            for after in [1, 2, 4] {
                for threads in [1, 3] {
                    let failing = Failing {
                        after,
                        calls: AtomicU64::new(0),
                    };
                    let problem = Problem::new(&board, &position, Convention::Waives, &failing);
                    let pool = stratagem_core::parallel::pool(threads)?;
                    let got = pool.install(|| run(&problem, method, 1000));
                    assert!(
                        matches!(&got, Err(Error::InvalidParameter(m)) if m == "the evaluator failed"),
                        "{method} after {after} on {threads} threads: {got:?}"
                    );
                }
            }
        }
        Ok(())
    }
}
