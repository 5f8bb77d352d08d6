//! The `search` player: each turn it plays the next turns out once per candidate policy and
//! plays the candidate whose futures leave its team strongest (`docs/conquest-rules.md`).
//! `_search_choice` in `python/stratagem/conquest/oracle.py` is the same rule in plain Python.

use rayon::prelude::*;
use stratagem_core::Result;
use stratagem_core::rng::{Stream, purpose_tag};

use crate::game::{Game, Params, Status};
use crate::policy::{Budget, Policy};
use crate::purpose;

/// The candidates, in the order ties are broken (the first wins).
pub const CANDIDATES: [Policy; 3] = [Policy::Aggressive, Policy::Balanced, Policy::Opportunist];

/// [`Game::step`] with each searching team playing its search's choice this turn (the game
/// keeps its policies).
pub fn step(game: &mut Game, custom: Option<&[i64]>) -> Result<bool> {
    let own = game.policies().to_vec();
    let limit = game.params().max_turns;
    let playing = game.status() == Status::Running && limit.is_none_or(|l| game.turn() < l);
    if !playing || !own.iter().any(|p| matches!(p, Policy::Search(_))) {
        return game.step(custom);
    }
    game.set_policies(resolve(game)?)?;
    let played = game.step(custom);
    game.set_policies(own)?;
    played
}

/// [`Game::placement`] with each searching team's choice in place of `search`.
pub fn placement(game: &Game, custom: Option<&[i64]>) -> Result<Vec<i64>> {
    if !game
        .policies()
        .iter()
        .any(|p| matches!(p, Policy::Search(_)))
    {
        return game.placement(custom);
    }
    let mut chosen = game.clone();
    chosen.set_policies(resolve(game)?)?;
    chosen.placement(custom)
}

/// The policies the teams play this turn: each searching team's choice in place of `search`.
fn resolve(game: &Game) -> Result<Vec<Policy>> {
    let mut chosen = game.policies().to_vec();
    for (team, policy) in game.policies().iter().enumerate() {
        if let Policy::Search(budget) = *policy {
            chosen[team] = choose(game, team, budget)?;
        }
    }
    Ok(chosen)
}

/// The score of a future for `team`: its troops minus all other teams' troops.
fn score(game: &Game, team: usize) -> i128 {
    let (_, troops) = game.counts();
    let total: i128 = troops.iter().map(|&t| i128::from(t)).sum();
    2 * i128::from(troops[team]) - total
}

/// The candidate whose futures score highest in sum (the first on ties). Future `r` of every
/// candidate plays from the seed drawn from stream `(seed, "conquest.search", turn, team, r)`;
/// the other teams play their own policies, those that search or play Python code `balanced`.
fn choose(game: &Game, team: usize, budget: Budget) -> Result<Policy> {
    let others = game.policies().iter().map(|&p| match p {
        Policy::Search(_) | Policy::Custom => Policy::Balanced,
        built_in => built_in,
    });
    let model: Vec<Policy> = others.collect();
    let tag = purpose_tag(purpose::SEARCH);
    let futures: Vec<(usize, u32)> = (0..CANDIDATES.len())
        .flat_map(|c| (0..budget.rollouts).map(move |r| (c, r)))
        .collect();
    let scores = futures
        .into_par_iter()
        .map(|(c, r)| {
            let ids = [game.turn(), team as u64, u64::from(r)];
            let seed = Stream::with_ids(game.params().seed, tag, ids)
                .cursor()
                .next_u64();
            let params = Params {
                seed,
                max_turns: None,
                ..game.params()
            };
            let mut future = game.with_params(params);
            let mut policies = model.clone();
            policies[team] = CANDIDATES[c];
            future.set_policies(policies)?;
            for _ in 0..budget.depth {
                if !future.step(None)? {
                    break;
                }
            }
            Ok((c, score(&future, team)))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut sums = [0i128; CANDIDATES.len()];
    for (c, s) in scores {
        sums[c] += s;
    }
    let best = (0..CANDIDATES.len())
        .max_by_key(|&c| (sums[c], std::cmp::Reverse(c)))
        .unwrap_or(0);
    Ok(CANDIDATES[best])
}
