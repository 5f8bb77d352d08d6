//! Playing whole games: one secret at a time, or every secret at once by walking the
//! strategy's decision tree (the heuristics and the optimal strategy choose from the history
//! alone, so one tree serves every secret).

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use stratagem_core::error::{Result, param};
use stratagem_core::{Cancel, parallel};

use crate::code::{Code, Space};
use crate::history::History;
use crate::score::{Counted, Feedback, score_counted};
use crate::strategy::{Heuristic, Strategy, choose_here, counted, next_guess};
use crate::{optimal, score};

/// Plays `strategy` against `secret` until it is found: the guesses and their feedbacks.
/// `blacks` holds the most black pegs a guess has had so far (for a progress bar: it reaches
/// the number of spots when the code is broken).
pub fn play(
    space: Space,
    strategy: Strategy,
    seed: u64,
    secret: &Code,
    threads: usize,
    cancel: &Cancel,
    blacks: &AtomicU64,
) -> Result<History> {
    let mut history = History::empty(space);
    while !history.is_won() {
        let guess = next_guess(&history, strategy, seed, threads, cancel)?
            .ok_or_else(|| param("the strategy found no consistent code".to_string()))?;
        let feedback = score(space, &guess, secret);
        blacks.fetch_max(u64::from(feedback.black), Ordering::Relaxed);
        history.push(guess, feedback)?;
    }
    Ok(history)
}

/// A heuristic's tree over a space of at most this many codes is walked on one thread: a
/// sweep on 2 cores found a second thread slower up to 4x5 (625 codes, 3 ms) and faster on
/// 4x6 (docs/mastermind.md).
pub const SERIAL_TREE_CODES: u64 = 625;

/// Whether [`evaluate`] of `strategy` on `space` is small enough for one thread.
pub fn is_small(space: Space, strategy: Strategy) -> bool {
    matches!(strategy, Strategy::Heuristic(_))
        && space
            .enumerable_size()
            .is_some_and(|size| size <= SERIAL_TREE_CODES)
}

/// The number of guesses `strategy` takes for each secret, in the secrets' order. `done`
/// counts finished secrets as they finish (for a progress bar).
pub fn evaluate(
    space: Space,
    strategy: Strategy,
    seed: u64,
    secrets: &[Code],
    threads: usize,
    cancel: &Cancel,
    done: &AtomicU64,
) -> Result<Vec<u32>> {
    strategy.check_space(space)?;
    let threads = if is_small(space, strategy) {
        1
    } else {
        threads
    };
    let pool = parallel::pool(threads)?;
    match strategy {
        Strategy::Heuristic(heuristic) => {
            let by_rank = pool.install(|| heuristic_tree(space, heuristic, cancel, done))?;
            Ok(lookup(space, &by_rank, secrets))
        }
        Strategy::Optimal => {
            let history = History::empty(space);
            let all = counted(&space.all_codes()?);
            let tree = optimal::tree_guesses(&history, &all, threads, cancel)?;
            let mut by_rank = vec![0u32; all.len()];
            for (code, guesses) in tree {
                if let Some(slot) = by_rank.get_mut(space.index_of(&code) as usize) {
                    *slot = guesses;
                }
            }
            done.fetch_add(all.len() as u64, Ordering::Relaxed);
            Ok(lookup(space, &by_rank, secrets))
        }
        Strategy::First(_) | Strategy::Random => pool.install(|| {
            secrets
                .par_iter()
                .with_max_len(1)
                .map(|secret| {
                    let history =
                        play(space, strategy, seed, secret, 1, cancel, &AtomicU64::new(0))?;
                    done.fetch_add(1, Ordering::Relaxed);
                    Ok(history.len() as u32)
                })
                .collect()
        }),
    }
}

fn lookup(space: Space, by_rank: &[u32], secrets: &[Code]) -> Vec<u32> {
    secrets
        .iter()
        .map(|s| {
            by_rank
                .get(space.index_of(s) as usize)
                .copied()
                .unwrap_or(0)
        })
        .collect()
}

/// Guesses per secret rank for a heuristic, by walking its tree from the empty history.
fn heuristic_tree(
    space: Space,
    heuristic: Heuristic,
    cancel: &Cancel,
    done: &AtomicU64,
) -> Result<Vec<u32>> {
    let all = counted(&space.all_codes()?);
    let mut by_rank = vec![0u32; all.len()];
    let found = walk(&History::empty(space), all, heuristic, cancel, done)?;
    for (code, guesses) in found {
        if let Some(slot) = by_rank.get_mut(space.index_of(&code) as usize) {
            *slot = guesses;
        }
    }
    Ok(by_rank)
}

/// (secret, guesses) for every candidate below `history`, classes walked in parallel.
fn walk(
    history: &History,
    candidates: Vec<Counted>,
    heuristic: Heuristic,
    cancel: &Cancel,
    done: &AtomicU64,
) -> Result<Vec<(Code, u32)>> {
    cancel.check()?;
    let space = history.space;
    let turn = history.len() as u32 + 1;
    let guess = Counted::new(&choose_here(history, &candidates, heuristic, cancel)?);
    let win = Feedback::win(space.spots);
    let mut classes: Vec<(Feedback, Vec<Counted>)> = Vec::new();
    let mut found = Vec::new();
    for candidate in candidates {
        let feedback = score_counted(space, &guess, &candidate);
        if feedback == win {
            found.push((candidate.code, turn));
            done.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        match classes.iter_mut().find(|(f, _)| *f == feedback) {
            Some((_, class)) => class.push(candidate),
            None => classes.push((feedback, vec![candidate])),
        }
    }
    let below: Vec<Vec<(Code, u32)>> = classes
        .into_par_iter()
        .map(|(feedback, class)| {
            let mut child = history.clone();
            child.guesses.push(guess);
            child.feedback.push(feedback);
            walk(&child, class, heuristic, cancel, done)
        })
        .collect::<Result<_>>()?;
    found.extend(below.into_iter().flatten());
    Ok(found)
}

/// Secret `i` of a seeded sample: its spots drawn in order, each `uniform_below(colours)`, from
/// one cursor of stream `(seed, "mastermind.secrets", i)`.
pub fn sample_secrets(space: Space, count: u64, seed: u64) -> Result<Vec<Code>> {
    (0..count)
        .map(|i| {
            let mut cursor =
                stratagem_core::rng::Stream::new(seed, crate::purpose::SECRETS, &[i])?.cursor();
            let mut code = space.code_at(0);
            for slot in code[..space.spots].iter_mut() {
                *slot = cursor.uniform_below(space.colours as u64) as u8;
            }
            Ok(code)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{FirstOrder, Heuristic};

    fn total(space: Space, strategy: Strategy) -> Result<(u64, u32)> {
        let secrets = space.all_codes()?;
        let done = AtomicU64::new(0);
        let guesses = evaluate(space, strategy, 0, &secrets, 2, &Cancel::new(), &done)?;
        assert_eq!(done.load(Ordering::Relaxed), secrets.len() as u64);
        let worst = guesses.iter().copied().max().unwrap_or(0);
        Ok((guesses.iter().map(|&g| u64::from(g)).sum(), worst))
    }

    #[test]
    fn published_totals_on_four_by_six() -> Result<()> {
        let space = Space::new(4, 6)?;
        assert_eq!(
            total(space, Strategy::Heuristic(Heuristic::Knuth))?,
            (5801, 5)
        );
        assert_eq!(
            total(space, Strategy::Heuristic(Heuristic::Irving))?.0,
            5696
        );
        assert_eq!(
            total(space, Strategy::Heuristic(Heuristic::Entropy))?.0,
            5722
        );
        assert_eq!(
            total(space, Strategy::Heuristic(Heuristic::MostParts))?.0,
            5668
        );
        Ok(())
    }

    /// The optimum by plain recursion over every guess, for tiny spaces.
    fn brute_optimum(space: Space, set: &[Counted], all: &[Counted]) -> u32 {
        if set.len() <= 1 {
            return set.len() as u32;
        }
        let win = Feedback::win(space.spots);
        all.iter()
            .filter_map(|guess| {
                let mut classes: Vec<(Feedback, Vec<Counted>)> = Vec::new();
                for code in set {
                    let f = score_counted(space, guess, code);
                    match classes.iter_mut().find(|(g, _)| *g == f) {
                        Some((_, class)) => class.push(*code),
                        None => classes.push((f, vec![*code])),
                    }
                }
                let splits = classes.len() > 1 || classes[0].0 == win;
                splits.then(|| {
                    set.len() as u32
                        + classes
                            .iter()
                            .filter(|(f, _)| *f != win)
                            .map(|(_, class)| brute_optimum(space, class, all))
                            .sum::<u32>()
                })
            })
            .min()
            .unwrap_or(u32::MAX)
    }

    #[test]
    fn optimal_matches_plain_recursion_and_beats_every_heuristic() -> Result<()> {
        for (spots, colours) in [(2, 3), (2, 4), (3, 3)] {
            let space = Space::new(spots, colours)?;
            let all = counted(&space.all_codes()?);
            let brute = brute_optimum(space, &all, &all);
            let (optimal, _) = total(space, Strategy::Optimal)?;
            assert_eq!(optimal, u64::from(brute), "{spots}x{colours}");
            for heuristic in [Heuristic::Knuth, Heuristic::Irving, Heuristic::Entropy] {
                assert!(total(space, Strategy::Heuristic(heuristic))?.0 >= optimal);
            }
        }
        Ok(())
    }

    #[test]
    fn every_first_and_random_guess_is_consistent() -> Result<()> {
        let space = Space::new(4, 5)?;
        for strategy in [
            Strategy::First(FirstOrder::Lexicographic),
            Strategy::First(FirstOrder::Shuffled),
            Strategy::Random,
        ] {
            for secret in space.all_codes()?.iter().step_by(7) {
                let blacks = AtomicU64::new(0);
                let history = play(space, strategy, 3, secret, 1, &Cancel::new(), &blacks)?;
                assert_eq!(blacks.load(Ordering::Relaxed), space.spots as u64);
                for turn in 0..history.len() {
                    let before = history.subset(&(0..turn).collect::<Vec<_>>());
                    assert!(before.is_consistent(&history.guesses[turn]));
                }
            }
        }
        Ok(())
    }
}
