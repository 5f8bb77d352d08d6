//! The `search` player: each turn it plays the next turns out once per candidate rule and,
//! territory by territory along its front, plays the candidate whose futures leave the
//! territory's neighbourhood strongest (`docs/conquest-rules.md`). `_search_rows` in
//! `python/stratagem/conquest/oracle.py` is the same rule in plain Python.

use rayon::prelude::*;
use stratagem_core::Result;
use stratagem_core::rng::{Stream, purpose_tag};

use crate::game::{Game, Params, Status};
use crate::policy::{Budget, Policy};
use crate::purpose;

/// The candidates, in the order ties are broken (the first wins).
pub const CANDIDATES: [Policy; 3] = [Policy::Aggressive, Policy::Balanced, Policy::Opportunist];

fn searches(policies: &[Policy]) -> bool {
    policies.iter().any(|p| matches!(p, Policy::Search(_)))
}

/// [`Game::step`] with each searching team playing its search's rows this turn (the game
/// keeps its policies).
pub fn step(game: &mut Game, custom: Option<&[i64]>) -> Result<bool> {
    let own = game.policies().to_vec();
    let limit = game.params().max_turns;
    let playing = game.status() == Status::Running && limit.is_none_or(|l| game.turn() < l);
    if !playing || !searches(&own) {
        return game.step(custom);
    }
    let (policies, merged) = resolve(game, custom)?;
    game.set_policies(policies)?;
    let played = game.step(Some(&merged));
    game.set_policies(own)?;
    played
}

/// [`Game::placement`] with each searching team's rows in place of `search`.
pub fn placement(game: &Game, custom: Option<&[i64]>) -> Result<Vec<i64>> {
    if !searches(game.policies()) {
        return game.placement(custom);
    }
    let (policies, merged) = resolve(game, custom)?;
    let mut chosen = game.clone();
    chosen.set_policies(policies)?;
    chosen.placement(Some(&merged))
}

/// The policies the teams play this turn, each searching team's as `custom`, and the custom
/// placement: the caller's rows (checked first) and each searching team's chosen rows.
fn resolve(game: &Game, custom: Option<&[i64]>) -> Result<(Vec<Policy>, Vec<i64>)> {
    let mut merged = match custom {
        Some(given) => {
            game.check_custom(given)?;
            given.to_vec()
        }
        None => {
            if game.has_custom() {
                // Refused as the game refuses it: a custom team's rows must be given.
                game.placement(None)?;
            }
            vec![0; game.board().n_edges()]
        }
    };
    let mut policies = game.policies().to_vec();
    for (team, policy) in game.policies().iter().enumerate() {
        if let Policy::Search(budget) = *policy {
            choose(game, team, budget, &mut merged)?;
            policies[team] = Policy::Custom;
        }
    }
    Ok((policies, merged))
}

/// The value of a future state at territory `z` for `team`: its troops, counted against the
/// team when another team holds `z`.
fn signed(future: &Game, team: usize, z: usize) -> i128 {
    let troops = i128::from(future.troops()[z]);
    if usize::from(future.team()[z]) == team {
        troops
    } else {
        -troops
    }
}

/// Writes `team`'s rows into `merged`. Future `r` of every candidate plays `depth` turns (fewer
/// if the game ends) from the seed drawn from stream `(seed, "conquest.search", turn, team, r)`,
/// the team playing the candidate and the other teams their own policies (those that search
/// or play Python code: `balanced`). A front territory `x` of the team (one with an enemy
/// neighbour) plays the row of the candidate whose futures sum the most over `x` and its
/// neighbours (the first on ties); the other territories of the team move to the front as
/// every candidate does.
fn choose(game: &Game, team: usize, budget: Budget, merged: &mut [i64]) -> Result<()> {
    let others = game.policies().iter().map(|&p| match p {
        Policy::Search(_) | Policy::Custom => Policy::Balanced,
        built_in => built_in,
    });
    let model: Vec<Policy> = others.collect();
    let with_candidate = |c: usize| {
        let mut policies = model.clone();
        policies[team] = CANDIDATES[c];
        policies
    };
    let board = game.board();
    let own = |x: usize| usize::from(game.team()[x]) == team;
    let front: Vec<usize> = (0..board.n())
        .filter(|&x| own(x) && board.neighbours(x).iter().any(|&y| !own(y as usize)))
        .collect();
    // Each candidate's rows this turn (the rules the search chooses among draw nothing).
    let rows = (0..CANDIDATES.len())
        .into_par_iter()
        .map(|c| {
            let mut now = game.clone();
            now.set_policies(with_candidate(c))?;
            now.placement(None)
        })
        .collect::<Result<Vec<_>>>()?;
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
            future.set_policies(with_candidate(c))?;
            for _ in 0..budget.depth {
                if !future.step(None)? {
                    break;
                }
            }
            let around = |x: usize| {
                let neighbours = board.neighbours(x).iter();
                signed(&future, team, x)
                    + neighbours
                        .map(|&y| signed(&future, team, y as usize))
                        .sum::<i128>()
            };
            Ok((c, front.iter().map(|&x| around(x)).collect::<Vec<_>>()))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut sums = vec![[0i128; CANDIDATES.len()]; front.len()];
    for (c, local) in scores {
        for (sum, value) in sums.iter_mut().zip(local) {
            sum[c] += value;
        }
    }
    for x in (0..board.n()).filter(|&x| own(x)) {
        merged[board.row(x)].copy_from_slice(&rows[0][board.row(x)]);
    }
    for (&x, sum) in front.iter().zip(&sums) {
        let best = (0..CANDIDATES.len())
            .max_by_key(|&c| (sum[c], std::cmp::Reverse(c)))
            .unwrap_or(0);
        merged[board.row(x)].copy_from_slice(&rows[best][board.row(x)]);
    }
    Ok(())
}
