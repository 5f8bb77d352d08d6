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

/// Where the best product of one cell came from: the cell before the power was added, and the
/// power's share (its index among the power's shares).
#[derive(Clone, Copy, Debug, Default)]
struct Source {
    cell: usize,
    at: usize,
}

/// The best total and each power's share.
#[derive(Clone, Debug)]
pub struct Answer {
    pub total: u128,
    pub shares: Vec<Share>,
}

/// The elementary symmetric polynomials of the open homes' option counts: `e[j]` is the
/// number of ways to build on `j` of those homes.
fn build_ways(options: &[usize]) -> Vec<u128> {
    let mut e = vec![0u128; options.len() + 1];
    e[0] = 1;
    for &o in options {
        for j in (1..e.len()).rev() {
            e[j] += e[j - 1] * o as u128;
        }
    }
    e
}

/// The count of one power with `units` and `centres` whose open homes can be built on in
/// `ways[j]` ways for `j` builds.
fn choices(units: usize, centres: usize, ways: &[u128], convention: Convention) -> u128 {
    if units > centres {
        return binomial(units, units - centres);
    }
    let most = (centres - units).min(ways.len() - 1);
    if most == 0 {
        return 1;
    }
    let least = match convention {
        Convention::Exact => most,
        Convention::Waives => 0,
        Convention::Article => 1,
    };
    ways[least..=most].iter().sum()
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
            let ways = build_ways(&options);
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
                    let count = choices(units, centres, &ways, convention);
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
    // dp over powers: (previous centres used, centres used) -> the best product, and for each
    // power where it came from; the iteration order and the strict comparisons decide ties
    // (the first best source wins, and of equal totals the last cell).
    let size = total + 1;
    let mut dp: Vec<Option<u128>> = vec![None; size * size];
    dp[0] = Some(1);
    // Each power's shares in table order, and for each dp cell after it, where it came from.
    let mut candidates: Vec<Vec<&Share>> = Vec::with_capacity(best.len());
    let mut sources: Vec<Vec<Source>> = Vec::with_capacity(best.len());
    for table in &best {
        let shares: Vec<&Share> = table.iter().flatten().collect();
        // The shares with the same previous centres are consecutive, by centres: each such
        // run is `[start, end)` with its previous centres.
        let mut runs: Vec<(usize, usize, usize)> = Vec::new();
        for (at, share) in shares.iter().enumerate() {
            match runs.last_mut() {
                Some((previous, _, end)) if *previous == share.previous => *end = at + 1,
                _ => runs.push((share.previous, at, at + 1)),
            }
        }
        let mut next: Vec<Option<u128>> = vec![None; size * size];
        let mut from = vec![Source::default(); size * size];
        for q in 0..size {
            for c in 0..size {
                let Some(product) = dp[q * size + c] else {
                    continue;
                };
                // The shares in table order, skipping only those that do not fit: past the
                // first run whose previous centres do not fit none does, and within a run past
                // the first share whose centres do not fit.
                for &(dq, start, end) in &runs {
                    if q + dq >= size {
                        break;
                    }
                    for (at, share) in shares.iter().enumerate().take(end).skip(start) {
                        if c + share.centres >= size {
                            break;
                        }
                        let value = product.checked_mul(share.choices).ok_or_else(|| {
                            Error::InvalidParameter(
                                "the product of choices overflows 128 bits".into(),
                            )
                        })?;
                        let cell = (q + dq) * size + c + share.centres;
                        if next[cell].is_none_or(|v| value > v) {
                            next[cell] = Some(value);
                            from[cell] = Source {
                                cell: q * size + c,
                                at,
                            };
                        }
                    }
                }
            }
        }
        dp = next;
        candidates.push(shares);
        sources.push(from);
    }
    // Of equal totals `max_by` keeps the last.
    let (mut cell, total) = dp
        .iter()
        .enumerate()
        .filter_map(|(cell, value)| value.map(|v| (cell, v)))
        .max_by(|a, b| a.1.cmp(&b.1))
        .ok_or_else(|| Error::InvalidParameter("no position satisfies the limits".into()))?;
    let mut shares = Vec::with_capacity(best.len());
    for (power_shares, from) in candidates.iter().zip(&sources).rev() {
        let source = from[cell];
        shares.push(power_shares[source.at].clone());
        cell = source.cell;
    }
    shares.reverse();
    Ok(Answer { total, shares })
}
