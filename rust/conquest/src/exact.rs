//! Exact battle odds as fractions, for battles small enough that the fractions fit in 128
//! bits (the command line shows them beside the floating-point odds).
//!
//! From a state `(i, j)` with both sides alive, `N = i coins_a` and `M = j coins_d` coins are
//! flipped; heads `h` of the attackers and `g` of the defenders lead to
//! `(max(i - g, 0), max(j - h, 0))` with weight `C(N, h) C(M, g)`, and the round where nothing
//! changes (`h = g = 0`) is conditioned away, so the weights of a state sum to `2^(N+M) - 1`.

/// A fraction in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    pub numerator: u128,
    pub denominator: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    const ZERO: Self = Self {
        numerator: 0,
        denominator: 1,
    };
    const ONE: Self = Self {
        numerator: 1,
        denominator: 1,
    };

    fn new(numerator: u128, denominator: u128) -> Option<Self> {
        let common = gcd(numerator, denominator);
        (denominator != 0).then(|| Self {
            numerator: numerator / common.max(1),
            denominator: denominator / common.max(1),
        })
    }

    fn add(self, other: Self) -> Option<Self> {
        let common = gcd(self.denominator, other.denominator);
        let (left, right) = (self.denominator / common, other.denominator / common);
        let numerator = self
            .numerator
            .checked_mul(right)?
            .checked_add(other.numerator.checked_mul(left)?)?;
        Self::new(numerator, self.denominator.checked_mul(right)?)
    }

    /// `self * weight / total` for integers `weight <= total`.
    fn scaled(self, weight: u128, total: u128) -> Option<Self> {
        let (a, b) = (gcd(self.numerator, total), gcd(weight, self.denominator));
        let numerator = (self.numerator / a.max(1)).checked_mul(weight / b.max(1))?;
        let denominator = (self.denominator / b.max(1)).checked_mul(total / a.max(1))?;
        Self::new(numerator, denominator)
    }
}

/// The largest number of coins one round may flip (`2^(N+M)` must fit in 128 bits).
const MAX_COINS: u64 = 126;

/// (attacker wins, defender wins, both annihilated) exactly, or `None` when the battle is
/// too large for 128-bit fractions.
pub fn battle_odds_exact(a: u64, d: u64, coins_a: u64, coins_d: u64) -> Option<[Ratio; 3]> {
    if a.checked_mul(coins_a)?
        .checked_add(d.checked_mul(coins_d)?)?
        > MAX_COINS
    {
        return None;
    }
    let (a, d) = (a as usize, d as usize);
    let choose = pascal((a as u64 * coins_a).max(d as u64 * coins_d) as usize);
    // odds[i][j], filled in order of i + j so that every successor is known.
    let mut odds = vec![vec![[Ratio::ZERO; 3]; d + 1]; a + 1];
    for total in 0..=a + d {
        for i in total.saturating_sub(d)..=total.min(a) {
            let j = total - i;
            odds[i][j] = match (i, j) {
                (0, 0) => [Ratio::ZERO, Ratio::ZERO, Ratio::ONE],
                (_, 0) => [Ratio::ONE, Ratio::ZERO, Ratio::ZERO],
                (0, _) => [Ratio::ZERO, Ratio::ONE, Ratio::ZERO],
                _ => state(&odds, &choose, i, j, coins_a, coins_d)?,
            };
        }
    }
    Some(odds[a][d])
}

fn state(
    odds: &[Vec<[Ratio; 3]>],
    choose: &[Vec<u128>],
    i: usize,
    j: usize,
    coins_a: u64,
    coins_d: u64,
) -> Option<[Ratio; 3]> {
    let (n, m) = (i * coins_a as usize, j * coins_d as usize);
    let total = (1u128 << (n + m)) - 1;
    // The weight of each successor state, summed over the heads that lead to it.
    let mut weights = vec![vec![0u128; j + 1]; i + 1];
    for h in 0..=n {
        for g in 0..=m {
            if h == 0 && g == 0 {
                continue;
            }
            let weight = choose[n][h].checked_mul(choose[m][g])?;
            let cell = &mut weights[i.saturating_sub(g)][j.saturating_sub(h)];
            *cell = cell.checked_add(weight)?;
        }
    }
    let mut result = [Ratio::ZERO; 3];
    for (next_i, row) in weights.iter().enumerate() {
        for (next_j, &weight) in row.iter().enumerate() {
            if weight == 0 {
                continue;
            }
            for (slot, &p) in result.iter_mut().zip(&odds[next_i][next_j]) {
                *slot = slot.add(p.scaled(weight, total)?)?;
            }
        }
    }
    Some(result)
}

/// Binomial coefficients `C(n, k)` for `n <= top` (exact in 128 bits for `top <= 126`).
fn pascal(top: usize) -> Vec<Vec<u128>> {
    let mut rows: Vec<Vec<u128>> = Vec::with_capacity(top + 1);
    for n in 0..=top {
        let row = (0..=n)
            .map(|k| match (k, rows.last()) {
                (0, _) | (_, None) => 1,
                (k, Some(above)) if k == n => above[k - 1],
                (k, Some(above)) => above[k - 1] + above[k],
            })
            .collect();
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(numerator: u128, denominator: u128) -> Ratio {
        Ratio {
            numerator,
            denominator,
        }
    }

    #[test]
    fn one_against_one() {
        // Attack (1 coin) against defend (2 coins): 1/7, 3/7, 3/7 (docs/conquest.md).
        assert_eq!(
            battle_odds_exact(1, 1, 1, 2),
            Some([ratio(1, 7), ratio(3, 7), ratio(3, 7)])
        );
    }

    #[test]
    fn the_odds_sum_to_one_and_match_the_floating_point_programme() {
        for (a, d) in [(2, 3), (4, 1), (3, 3)] {
            let Some(exact) = battle_odds_exact(a, d, 1, 2) else {
                panic!("({a}, {d}) fits in 128 bits");
            };
            let sum = exact.iter().try_fold(Ratio::ZERO, |s, &p| s.add(p));
            assert_eq!(sum, Some(Ratio::ONE));
            let Ok(float) = crate::odds::battle_odds(a, d, 1, 2) else {
                panic!("({a}, {d}) is a valid battle");
            };
            let value = |r: Ratio| r.numerator as f64 / r.denominator as f64;
            assert!((value(exact[0]) - float.attacker).abs() < 1e-12);
            assert!((value(exact[1]) - float.defender).abs() < 1e-12);
        }
    }

    #[test]
    fn too_many_coins_give_none() {
        assert_eq!(battle_odds_exact(64, 64, 1, 2), None);
        assert_eq!(battle_odds_exact(u64::MAX, 1, 2, 2), None);
    }
}
