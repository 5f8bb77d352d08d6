//! Exact battle odds by dynamic programming over the states `(i, j)` of one border battle,
//! and Monte Carlo counts from the engine's own battle sampler.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use stratagem_core::{Cancel, Error, Result};

use crate::turn::battle;

/// The largest side `battle_odds` accepts, and the largest product of the two sides; the
/// dynamic programme costs about `(a d)^2 / 4` steps.
pub const MAX_ODDS_SIDE: u64 = 2000;
pub const MAX_ODDS_PRODUCT: u64 = 40_000;

/// Outcomes of one battle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Odds {
    pub attacker: f64,
    pub defender: f64,
    pub both: f64,
}

/// Binomial(n, 1/2) probabilities, computed outward from the mode and normalised, so they
/// neither underflow nor overflow for large `n`.
fn binomial_half_pmf(n: usize) -> Vec<f64> {
    let mode = n / 2;
    let mut pmf = vec![0.0; n + 1];
    pmf[mode] = 1.0;
    for k in (0..mode).rev() {
        // P(k) / P(k + 1) = (k + 1) / (n - k)
        pmf[k] = pmf[k + 1] * (k + 1) as f64 / (n - k) as f64;
    }
    for k in mode + 1..=n {
        // P(k) / P(k - 1) = (n - k + 1) / k
        pmf[k] = pmf[k - 1] * (n - k + 1) as f64 / k as f64;
    }
    let total: f64 = pmf.iter().sum();
    pmf.iter_mut().for_each(|p| *p /= total);
    pmf
}

/// Distribution of what is left of `left` soldiers after `Binomial(n, 1/2)` hits:
/// `after[r]` = P(left - hits = r) for r > 0, and P(hits >= left) at r = 0.
fn remaining_after_hits(left: usize, pmf: &[f64]) -> Vec<f64> {
    let mut after = vec![0.0; left + 1];
    for (hits, &p) in pmf.iter().enumerate() {
        after[left.saturating_sub(hits)] += p;
    }
    after
}

/// P(attacker side wins), P(defender side wins), P(both annihilated) for `a` against `d`
/// soldiers flipping `coins_a` and `coins_d` coins each per round.
pub fn battle_odds(a: u64, d: u64, coins_a: u64, coins_d: u64) -> Result<Odds> {
    if a > MAX_ODDS_SIDE || d > MAX_ODDS_SIDE || a.saturating_mul(d) > MAX_ODDS_PRODUCT {
        return Err(Error::InvalidParameter(format!(
            "battle_odds is exact by dynamic programming and takes sides up to {MAX_ODDS_SIDE} \
             with a * d <= {MAX_ODDS_PRODUCT}; got a={a}, d={d} (use simulate_battle beyond)"
        )));
    }
    match (a, d) {
        (0, 0) => {
            return Ok(Odds {
                both: 1.0,
                ..Odds::default()
            });
        }
        (_, 0) => {
            return Ok(Odds {
                attacker: 1.0,
                ..Odds::default()
            });
        }
        (0, _) => {
            return Ok(Odds {
                defender: 1.0,
                ..Odds::default()
            });
        }
        _ => {}
    }
    let (a, d) = (a as usize, d as usize);
    let (ca, cd) = (coins_a as usize, coins_d as usize);
    let pmf_a: Vec<Vec<f64>> = (0..=a).map(|i| binomial_half_pmf(i * ca)).collect();
    let pmf_d: Vec<Vec<f64>> = (0..=d).map(|j| binomial_half_pmf(j * cd)).collect();
    let width = d + 1;
    let mut mass = vec![0.0f64; (a + 1) * width];
    mass[a * width + d] = 1.0;
    for i in (1..=a).rev() {
        for j in (1..=d).rev() {
            let q = mass[i * width + j];
            if q == 0.0 {
                continue;
            }
            let defenders_left = remaining_after_hits(j, &pmf_a[i]);
            let attackers_left = remaining_after_hits(i, &pmf_d[j]);
            // The round in which nobody is hit changes nothing: condition it away.
            let stay = defenders_left[j] * attackers_left[i];
            let scale = q / (1.0 - stay);
            for (i2, &pa) in attackers_left.iter().enumerate() {
                let row = &mut mass[i2 * width..i2 * width + j + 1];
                for (j2, &pd) in defenders_left.iter().enumerate() {
                    if i2 != i || j2 != j {
                        row[j2] += scale * pa * pd;
                    }
                }
            }
        }
    }
    let attacker = (1..=a).map(|i| mass[i * width]).sum();
    let defender = mass[1..=d].iter().sum();
    Ok(Odds {
        attacker,
        defender,
        both: mass[0],
    })
}

/// `n` battles of the attacker's against the defender's `(soldiers, coins)`, battle `i`
/// drawn from the engine's stream for border `i` of turn 0: counts of attacker wins, defender
/// wins and mutual annihilation; `done` counts the battles fought so far.
pub fn simulate_battle(
    sides: [(u64, u64); 2],
    n: u64,
    seed: u64,
    cancel: &Cancel,
    done: &AtomicU64,
) -> Result<[u64; 3]> {
    const CHUNK: u64 = 4096;
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            cancel.check()?;
            let mut counts = [0u64; 3];
            let fought = chunk * CHUNK..((chunk + 1) * CHUNK).min(n);
            let count = fought.end - fought.start;
            for i in fought {
                let outcome = match battle(seed, 0, i, sides) {
                    (0, 0) => 2,
                    (_, 0) => 0,
                    _ => 1,
                };
                counts[outcome] += 1;
            }
            done.fetch_add(count, Ordering::Relaxed);
            Ok(counts)
        })
        .try_reduce(
            || [0; 3],
            |x, y| Ok([x[0] + y[0], x[1] + y[1], x[2] + y[2]]),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_against_one() -> Result<()> {
        let odds = battle_odds(1, 1, 1, 2)?;
        assert!((odds.attacker - 1.0 / 7.0).abs() < 1e-15);
        assert!((odds.defender - 3.0 / 7.0).abs() < 1e-15);
        assert!((odds.both - 3.0 / 7.0).abs() < 1e-15);
        Ok(())
    }

    #[test]
    fn probabilities_sum_to_one_and_favour_numbers() -> Result<()> {
        for (a, d) in [(5, 3), (40, 20), (1, 200), (200, 1), (100, 100)] {
            let o = battle_odds(a, d, 1, 2)?;
            assert!(
                (o.attacker + o.defender + o.both - 1.0).abs() < 1e-12,
                "{a} {d}"
            );
        }
        assert!(battle_odds(30, 10, 1, 2)?.attacker > battle_odds(20, 10, 1, 2)?.attacker);
        Ok(())
    }

    #[test]
    fn monte_carlo_agrees_with_the_odds() -> Result<()> {
        let n = 70_000;
        let done = AtomicU64::new(0);
        let counts = simulate_battle([(1, 1), (1, 2)], n, 9, &Cancel::new(), &done)?;
        assert_eq!(done.load(Ordering::Relaxed), n);
        let expected = [1.0 / 7.0, 3.0 / 7.0, 3.0 / 7.0];
        for (c, p) in counts.iter().zip(expected) {
            let sd = (n as f64 * p * (1.0 - p)).sqrt();
            assert!((*c as f64 - n as f64 * p).abs() < 5.0 * sd, "{counts:?}");
        }
        Ok(())
    }

    #[test]
    fn refuses_sides_too_large_for_the_dynamic_programme() {
        assert!(battle_odds(MAX_ODDS_SIDE + 1, 1, 1, 2).is_err());
        assert!(battle_odds(300, 300, 1, 2).is_err());
    }
}
