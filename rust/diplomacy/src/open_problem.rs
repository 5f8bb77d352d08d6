//! The article's open problem (`docs/diplomacy-rules.md`, "The open problem"): the largest
//! product over powers of their numbers of adjustment choices, over every position that can
//! follow a previous winter, by dynamic programming over the powers.

use stratagem_core::{Error, Result};

use crate::adjust::{Convention, binomial};
use crate::board::Board;

/// What one power brings to the best position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Share {
    pub units: usize,
    pub centres: usize,
    /// The open homes, as indices into the power's home centres.
    pub open_homes: Vec<usize>,
    pub choices: u128,
    /// The fewest centres the power needed at the previous winter.
    pub previous: usize,
}

/// The best total and each power's share.
#[derive(Clone, Debug)]
pub struct Answer {
    pub total: u128,
    pub shares: Vec<Share>,
}

/// The count of one power with `units`, `centres` and open homes with `options` each.
fn choices(units: usize, centres: usize, options: &[usize], convention: Convention) -> u128 {
    if units > centres {
        return binomial(units, units - centres);
    }
    let most = (centres - units).min(options.len());
    if most == 0 {
        return 1;
    }
    // Elementary symmetric polynomials of the option counts.
    let mut e = vec![0u128; options.len() + 1];
    e[0] = 1;
    for &o in options {
        for j in (1..e.len()).rev() {
            e[j] += e[j - 1] * o as u128;
        }
    }
    let least = match convention {
        Convention::Exact => most,
        Convention::Waives => 0,
        Convention::Article => 1,
    };
    e[least..=most].iter().sum()
}

/// Solves the problem on `board` with `centres` supply centres in all; `victory` caps every
/// power at 17 centres now and before (18 wins the game); `units`, when given, fixes each
/// power's number of units (map order).
pub fn solve(
    board: &Board,
    convention: Convention,
    victory: bool,
    units: Option<&[usize]>,
) -> Result<Answer> {
    if let Some(fixed) = units {
        if fixed.len() != board.powers {
            return Err(Error::InvalidParameter(format!(
                "units gives {} numbers for {} powers",
                fixed.len(),
                board.powers
            )));
        }
    }
    let total = board.centres();
    let cap = if victory { total.min(17) } else { total };
    // best[power][q * (cap + 1) + c]: the best share of a power with exactly `c` centres that needed
    // exactly `q` centres at the previous winter.
    let mut best: Vec<Vec<Option<Share>>> = Vec::with_capacity(board.powers);
    for power in 0..board.powers {
        let homes: Vec<usize> = board.homes[power]
            .iter()
            .map(|&c| board.builds[c].len())
            .collect();
        let mut table = vec![None::<Share>; (cap + 1) * (cap + 1)];
        for subset in 0u32..1 << homes.len() {
            let open: Vec<usize> = (0..homes.len()).filter(|&h| subset >> h & 1 == 1).collect();
            let options: Vec<usize> = open.iter().map(|&h| homes[h]).collect();
            let unit_range = match units {
                Some(fixed) => fixed[power]..=fixed[power],
                None => 0..=total,
            };
            for centres in open.len()..=cap {
                for units in unit_range.clone() {
                    let previous = units.max(centres.saturating_sub(units)).max(open.len());
                    if previous > cap {
                        continue;
                    }
                    // Open homes only matter to a power that builds.
                    if units > centres && !open.is_empty() {
                        continue;
                    }
                    let count = choices(units, centres, &options, convention);
                    let slot = &mut table[previous * (cap + 1) + centres];
                    if slot.as_ref().is_none_or(|s| count > s.choices) {
                        *slot = Some(Share {
                            units,
                            centres,
                            open_homes: open.clone(),
                            choices: count,
                            previous,
                        });
                    }
                }
            }
        }
        best.push(table);
    }
    // dp over powers: (previous centres used, centres used) -> best product and shares.
    let size = total + 1;
    let mut dp: Vec<Option<(u128, Vec<Share>)>> = vec![None; size * size];
    dp[0] = Some((1, Vec::new()));
    for table in &best {
        let mut next: Vec<Option<(u128, Vec<Share>)>> = vec![None; size * size];
        for q in 0..size {
            for c in 0..size {
                let Some((product, shares)) = &dp[q * size + c] else {
                    continue;
                };
                for (at, share) in table.iter().enumerate() {
                    let Some(share) = share else { continue };
                    let (dq, dc) = (at / (cap + 1), at % (cap + 1));
                    if q + dq >= size || c + dc >= size {
                        continue;
                    }
                    let value = product.checked_mul(share.choices).ok_or_else(|| {
                        Error::InvalidParameter("the product of choices overflows 128 bits".into())
                    })?;
                    let slot = &mut next[(q + dq) * size + c + dc];
                    if slot.as_ref().is_none_or(|(v, _)| value > *v) {
                        let mut extended = shares.clone();
                        extended.push(share.clone());
                        *slot = Some((value, extended));
                    }
                }
            }
        }
        dp = next;
    }
    dp.into_iter()
        .flatten()
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(total, shares)| Answer { total, shares })
        .ok_or_else(|| Error::InvalidParameter("no position satisfies the limits".into()))
}
