//! The `search` player: each turn it plays the next turns out once per candidate placement
//! (the rules, a full defence, and a defence against the attacks the other teams' policies
//! make this turn), mixes the candidates territory by territory along its front, and plays the
//! mix unless a whole candidate's futures end stronger (`docs/conquest-rules.md`).
//! `_search_rows` in `python/stratagem/conquest/oracle.py` is the same rule in plain Python.

use rayon::prelude::*;
use stratagem_core::Result;
use stratagem_core::rng::{Stream, purpose_tag};

use crate::game::{Game, Params, Status};
use crate::policy::{Budget, FULL, Policy};
use crate::purpose;

/// The rules among the candidates, first in the order ties are broken (the first wins); the
/// full defence and the counter follow.
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

/// `team`'s rows of `placement`, 0 on every other row.
fn team_rows(game: &Game, team: usize, placement: &[i64]) -> Vec<i64> {
    let board = game.board();
    let mut rows = vec![0; placement.len()];
    for x in (0..board.n()).filter(|&x| usize::from(game.team()[x]) == team) {
        rows[board.row(x)].copy_from_slice(&placement[board.row(x)]);
    }
    rows
}

/// `base` with each front territory `x` defending its enemy borders with all its troops, border
/// `e` getting `troops[x] * weight(e) // W` (`W` the sum of the weights over them; if `W == 0`,
/// `x` keeps its row of `base`).
fn defence(game: &Game, front: &[usize], base: &[i64], weight: impl Fn(usize) -> u128) -> Vec<i64> {
    let board = game.board();
    let mut rows = base.to_vec();
    for &x in front {
        let enemy = |e: usize| game.team()[board.target(e)] != game.team()[x];
        let total: u128 = board.row(x).filter(|&e| enemy(e)).map(&weight).sum();
        if total == 0 {
            continue;
        }
        let troops = u128::from(game.troops()[x]);
        for e in board.row(x) {
            // At most troops[x] <= 2^40 each.
            rows[e] = if enemy(e) {
                -((troops * weight(e) / total) as i64)
            } else {
                0
            };
        }
    }
    rows
}

/// Writes `team`'s rows into `merged`.
///
/// The candidates: the rows of each rule of [`CANDIDATES`] (the other teams playing their own
/// policies, those that search or play Python code `balanced`), then the *defence* (every
/// front territory defends its enemy borders with all its troops in proportion to their
/// troops), then the *counter* (each front territory that the other teams' policies attack
/// this turn defends its borders with all its troops in proportion to the attacks on them;
/// one not attacked plays `balanced`'s row). A future `r` plays `depth` turns (fewer if the
/// game ends) from the seed drawn from stream `(seed, "conquest.search", turn, team, r)`: this
/// turn the team places the candidate's rows and the other teams the rows their policies
/// place now, after it the team plays `balanced` and the others their policies. A front
/// territory (one with an enemy neighbour) takes the row of the candidate whose futures sum
/// the most over it and its neighbours (the first on ties); the mix is played unless the
/// candidate whose futures sum the most over the whole board (the first on ties) sums more
/// than the mix's futures (the mix plays its own futures). A [`FULL`] front territory whose
/// row so chosen attacks nothing plays `balanced`'s row, which lays siege or strikes.
fn choose(game: &Game, team: usize, budget: Budget, merged: &mut [i64]) -> Result<()> {
    let others = game.policies().iter().map(|&p| match p {
        Policy::Search(_) | Policy::Custom => Policy::Balanced,
        built_in => built_in,
    });
    let model: Vec<Policy> = others.collect();
    let with = |policy: Policy| {
        let mut policies = model.clone();
        policies[team] = policy;
        policies
    };
    let board = game.board();
    let own = |x: usize| usize::from(game.team()[x]) == team;
    let front: Vec<usize> = (0..board.n())
        .filter(|&x| own(x) && board.neighbours(x).iter().any(|&y| !own(y as usize)))
        .collect();
    // The placements of the rules this turn (the rules draw nothing), the team's own rows of
    // each and of the other teams with it playing `balanced` (their rows do not depend on it).
    let placements = CANDIDATES
        .par_iter()
        .map(|&rule| {
            let mut now = game.clone();
            now.set_policies(with(rule))?;
            now.placement(None)
        })
        .collect::<Result<Vec<_>>>()?;
    let mut rows: Vec<Vec<i64>> = placements
        .iter()
        .map(|placement| team_rows(game, team, placement))
        .collect();
    // The other teams' rows: their policies' placement this turn (the same in every future).
    let theirs = &placements[1];
    let mut others = theirs.clone();
    for x in (0..board.n()).filter(|&x| own(x)) {
        others[board.row(x)].fill(0);
    }
    let held = |e: usize| u128::from(game.troops()[board.target(e)]);
    let attacked = |e: usize| u128::try_from(theirs[board.reverse(e)]).unwrap_or(0);
    rows.push(defence(game, &front, &rows[0], held));
    rows.push(defence(game, &front, &rows[1], attacked));

    let tag = purpose_tag(purpose::SEARCH);
    let future = |rows: &[i64], r: u32| -> Result<Game> {
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
        future.set_policies(vec![Policy::Custom; model.len()])?;
        let placement: Vec<i64> = rows.iter().zip(&others).map(|(a, b)| a + b).collect();
        if future.step(Some(&placement))? {
            future.set_policies(with(Policy::Balanced))?;
            for _ in 1..budget.depth {
                if !future.step(None)? {
                    break;
                }
            }
        }
        Ok(future)
    };
    let whole = |future: &Game| {
        (0..board.n())
            .map(|z| signed(future, team, z))
            .sum::<i128>()
    };
    // Equal rows have equal futures: each distinct candidate plays once.
    let first_equal: Vec<usize> = (0..rows.len())
        .map(|c| (0..c).find(|&d| rows[d] == rows[c]).unwrap_or(c))
        .collect();
    let played: Vec<(usize, u32)> = (0..rows.len())
        .filter(|&c| first_equal[c] == c)
        .flat_map(|c| (0..budget.rollouts).map(move |r| (c, r)))
        .collect();
    let outcomes = played
        .into_par_iter()
        .map(|(c, r)| {
            let future = future(&rows[c], r)?;
            let around = |x: usize| {
                signed(&future, team, x)
                    + board
                        .neighbours(x)
                        .iter()
                        .map(|&y| signed(&future, team, y as usize))
                        .sum::<i128>()
            };
            Ok((
                c,
                front.iter().map(|&x| around(x)).collect::<Vec<_>>(),
                whole(&future),
            ))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut local = vec![vec![0i128; rows.len()]; front.len()];
    let mut totals = vec![0i128; rows.len()];
    for (c, scores, total) in outcomes {
        for (sums, score) in local.iter_mut().zip(scores) {
            sums[c] += score;
        }
        totals[c] += total;
    }
    for c in 0..rows.len() {
        let d = first_equal[c];
        totals[c] = totals[d];
        for sums in &mut local {
            sums[c] = sums[d];
        }
    }
    let best = |sums: &[i128]| {
        (0..sums.len())
            .max_by_key(|&c| (sums[c], std::cmp::Reverse(c)))
            .unwrap_or(0)
    };
    let mut mix = rows[0].clone();
    for (&x, sums) in front.iter().zip(&local) {
        mix[board.row(x)].copy_from_slice(&rows[best(sums)][board.row(x)]);
    }
    let strongest = best(&totals);
    // A mix equal to a candidate has that candidate's futures.
    let mixed = match rows.iter().position(|candidate| *candidate == mix) {
        Some(c) => totals[c],
        None => (0..budget.rollouts)
            .into_par_iter()
            .map(|r| future(&mix, r).map(|f| whole(&f)))
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .sum(),
    };
    let mut chosen = if mixed >= totals[strongest] {
        mix
    } else {
        rows[strongest].clone()
    };
    // A full territory never waits (the siege): a future a turn long counts what a siege
    // spends and not the growth that waiting at the limit forgoes.
    for &x in &front {
        let row = board.row(x);
        if game.troops()[x] >= FULL && chosen[row.clone()].iter().all(|&p| p <= 0) {
            chosen[row.clone()].copy_from_slice(&rows[1][row]);
        }
    }
    for x in (0..board.n()).filter(|&x| own(x)) {
        merged[board.row(x)].copy_from_slice(&chosen[board.row(x)]);
    }
    Ok(())
}
