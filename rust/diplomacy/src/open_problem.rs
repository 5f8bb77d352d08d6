//! The article's open problem (`docs/diplomacy-rules.md`, "The open problem"): the largest
//! product over powers of their numbers of adjustment choices, over every position that can
//! follow a previous winter, by dynamic programming over the powers.
//!
//! Both limits (centres now, centres needed at the previous winter) are upper bounds, so the
//! programme keeps, for every budget `(Q, C)`, the best product of the powers so far that
//! needs at most `Q` previous and `C` present centres. A power's shares that another share
//! beats on both resources and count can never be needed, so only the undominated ones (about
//! 290 of about 920 on the standard map) enter the programme, and the last power is a single
//! pass over its shares. The products are exact: 64-bit while they fit, 128-bit otherwise.

use stratagem_core::{Error, Result};

use crate::adjust::Convention;
use crate::board::{Board, MAX_HOMES};

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

/// A power's resources and count, its open homes as a bit set over its home centres.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    units: usize,
    centres: usize,
    open: u32,
    choices: u128,
    previous: usize,
}

impl Candidate {
    fn share(&self) -> Share {
        Share {
            units: self.units,
            centres: self.centres,
            open_homes: (0..MAX_HOMES)
                .filter(|&h| self.open >> h & 1 == 1)
                .collect(),
            choices: self.choices,
            previous: self.previous,
        }
    }
}

fn overflow() -> Error {
    Error::InvalidParameter("the product of choices overflows 128 bits".into())
}

/// `rows[n][k]` = C(n, k) for `n <= most`, by Pascal's rule (no division).
fn pascal(most: usize) -> Result<Vec<Vec<u128>>> {
    let mut rows: Vec<Vec<u128>> = Vec::with_capacity(most + 1);
    for n in 0..=most {
        let mut row = vec![1u128; n + 1];
        for k in 1..n {
            row[k] = rows[n - 1][k - 1]
                .checked_add(rows[n - 1][k])
                .ok_or_else(overflow)?;
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The elementary symmetric polynomials of the open homes' option counts: `ways[j]` is the
/// number of ways to build on `j` of those homes (`j <= opened`).
fn build_ways(options: &[usize], open: u32) -> [u128; MAX_HOMES + 1] {
    let mut ways = [0u128; MAX_HOMES + 1];
    ways[0] = 1;
    let mut opened = 0;
    for (h, &o) in options.iter().enumerate() {
        if open >> h & 1 == 1 {
            opened += 1;
            for j in (1..=opened).rev() {
                ways[j] += ways[j - 1] * o as u128;
            }
        }
    }
    ways
}

/// The count of a power with `units` and `centres` that may build on `opened` homes in
/// `ways[j]` ways for `j` builds (a power that removes has no open homes).
fn choices(
    units: usize,
    centres: usize,
    opened: usize,
    ways: &[u128],
    binomials: &[Vec<u128>],
    convention: Convention,
) -> u128 {
    if units > centres {
        return binomials[units][units - centres];
    }
    let most = (centres - units).min(opened);
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

/// How many kinds of unit each home centre of `power` can take.
fn options(board: &Board, power: usize) -> Vec<usize> {
    board.homes[power]
        .iter()
        .map(|&c| board.builds[c].len())
        .collect()
}

/// A power's undominated shares in order of previous centres, then centres: for each
/// `(previous, centres)` with at most `cap` of each the best count (the first found of equal
/// counts), kept only when it beats every share that needs no more of either.
fn shares_of(
    board: &Board,
    power: usize,
    convention: Convention,
    cap: usize,
    units: Option<usize>,
    binomials: &[Vec<u128>],
) -> Vec<Candidate> {
    let options = options(board, power);
    let most_units = binomials.len() - 1;
    let side = cap + 1;
    let mut table: Vec<Option<Candidate>> = vec![None; side * side];
    for open in 0u32..1 << options.len() {
        let opened = open.count_ones() as usize;
        let ways = build_ways(&options, open);
        for centres in opened..=cap {
            // Open homes only matter to a power that builds (units <= centres).
            let (low, high) = match units {
                Some(fixed) => (fixed, fixed),
                None if opened > 0 => (0, centres),
                None => (0, most_units),
            };
            if opened > 0 && high > centres {
                continue;
            }
            for units in low..=high {
                let previous = units.max(centres.saturating_sub(units)).max(opened);
                if previous > cap {
                    continue;
                }
                let count = choices(units, centres, opened, &ways, binomials, convention);
                let slot = &mut table[previous * side + centres];
                if slot.is_none_or(|s| count > s.choices) {
                    *slot = Some(Candidate {
                        units,
                        centres,
                        open,
                        choices: count,
                        previous,
                    });
                }
            }
        }
    }
    // best[q][c]: the best count needing at most q previous and c present centres.
    let mut best = vec![0u128; side * side];
    let mut kept = Vec::new();
    for q in 0..side {
        for c in 0..side {
            let below = if q > 0 { best[(q - 1) * side + c] } else { 0 };
            let left = if c > 0 { best[q * side + c - 1] } else { 0 };
            let beaten = below.max(left);
            best[q * side + c] = beaten;
            if let Some(candidate) = table[q * side + c] {
                if candidate.choices > beaten {
                    best[q * side + c] = candidate.choices;
                    kept.push(candidate);
                }
            }
        }
    }
    kept
}

/// The exact integers the programme multiplies: 64-bit first, 128-bit when a product does not
/// fit.
trait Count: Copy + Ord {
    const ZERO: Self;
    const ONE: Self;
    fn from_count(count: u128) -> Option<Self>;
    fn times(self, other: Self) -> (Self, bool);
    fn widen(self) -> u128;
}

impl Count for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    fn from_count(count: u128) -> Option<Self> {
        u64::try_from(count).ok()
    }
    fn times(self, other: Self) -> (Self, bool) {
        self.overflowing_mul(other)
    }
    fn widen(self) -> u128 {
        u128::from(self)
    }
}

impl Count for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    fn from_count(count: u128) -> Option<Self> {
        Some(count)
    }
    fn times(self, other: Self) -> (Self, bool) {
        self.overflowing_mul(other)
    }
    fn widen(self) -> u128 {
        self
    }
}

/// Where a budget's best product comes from: the power's share and the budget it was placed at
/// (a budget that a smaller one matches holds that one's origin).
#[derive(Clone, Copy, Debug, Default)]
struct Origin {
    share: u32,
    cell: u32,
}

/// The shares of one power with the same previous centres are consecutive, by centres: each
/// such run as `(previous, start, end)`.
fn runs(shares: &[Candidate]) -> Vec<(usize, usize, usize)> {
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    for (at, share) in shares.iter().enumerate() {
        match runs.last_mut() {
            Some((previous, _, end)) if *previous == share.previous => *end = at + 1,
            _ => runs.push((share.previous, at, at + 1)),
        }
    }
    runs
}

/// The programme over the powers' shares within `total` centres now and before, in `T`;
/// `None` when a product overflows `T`.
///
/// `best[Q * side + C]` is the best product of the powers so far within the budget `(Q, C)`.
/// Only the budgets that no smaller budget matches (a few hundred of 1,225) are extended by
/// the next power's shares, and a pass of running maxima then fills the others. Of equal
/// products the first found wins: budgets in order, then shares in order; a smaller budget
/// before a larger one.
fn programme<T: Count>(shares: &[Vec<Candidate>], total: usize) -> Option<Answer> {
    let side = total + 1;
    let cells = side * side;
    let Some((last, before)) = shares.split_last() else {
        return Some(Answer {
            total: 1,
            shares: Vec::new(),
        });
    };
    let counts: Vec<Vec<T>> = shares
        .iter()
        .map(|s| s.iter().map(|share| T::from_count(share.choices)).collect())
        .collect::<Option<_>>()?;
    // Before any power every budget holds the empty product.
    let mut best = vec![T::ONE; cells];
    let mut next = vec![T::ZERO; cells];
    let mut origins = vec![Origin::default(); before.len() * cells];
    let mut sources: Vec<usize> = Vec::with_capacity(cells);
    sources.push(0);
    let mut overflowed = false;
    for (power, power_shares) in before.iter().enumerate() {
        let power_counts = &counts[power];
        let power_runs = runs(power_shares);
        let origin = &mut origins[power * cells..(power + 1) * cells];
        next.fill(T::ZERO);
        for &cell in &sources {
            let (used_q, used_c) = (cell / side, cell % side);
            let value = best[cell];
            for &(previous, start, end) in &power_runs {
                if previous > total - used_q {
                    break;
                }
                for index in start..end {
                    let centres = power_shares[index].centres;
                    if centres > total - used_c {
                        break;
                    }
                    let (product, over) = value.times(power_counts[index]);
                    overflowed |= over;
                    let target = cell + previous * side + centres;
                    if product > next[target] {
                        next[target] = product;
                        origin[target] = Origin {
                            share: index as u32,
                            cell: target as u32,
                        };
                    }
                }
            }
        }
        if overflowed {
            return None;
        }
        // Running maxima: a budget holds the best of any budget within it, and only the
        // budgets that beat both smaller neighbours are worth extending.
        sources.clear();
        for cell in 0..cells {
            let below = cell.checked_sub(side);
            let left = (cell % side > 0).then(|| cell - 1);
            let neighbour = match (below, left) {
                (Some(b), Some(l)) => Some(if next[l] > next[b] { l } else { b }),
                (b, l) => b.or(l),
            };
            match neighbour {
                Some(n) if next[n] >= next[cell] => {
                    next[cell] = next[n];
                    origin[cell] = origin[n];
                }
                _ if next[cell] > T::ZERO => sources.push(cell),
                _ => {}
            }
        }
        std::mem::swap(&mut best, &mut next);
    }
    // The last power takes what the others leave: one pass over its shares.
    let mut winner: Option<(T, usize)> = None;
    for (index, share) in last.iter().enumerate() {
        let (product, over) = best[(total - share.previous) * side + total - share.centres]
            .times(counts[before.len()][index]);
        if over {
            return None;
        }
        if product > T::ZERO && winner.is_none_or(|(v, _)| product > v) {
            winner = Some((product, index));
        }
    }
    let Some((product, index)) = winner else {
        return Some(Answer {
            total: 0,
            shares: Vec::new(),
        });
    };
    let mut chosen = vec![last[index]];
    let mut cell = (total - last[index].previous) * side + total - last[index].centres;
    for (power, power_shares) in before.iter().enumerate().rev() {
        let Origin {
            share,
            cell: placed,
        } = origins[power * cells + cell];
        let share = power_shares[share as usize];
        chosen.push(share);
        cell = placed as usize - (share.previous * side + share.centres);
    }
    chosen.reverse();
    Some(Answer {
        total: product.widen(),
        shares: chosen.iter().map(Candidate::share).collect(),
    })
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
    // A power needs as many previous centres as units, so no power has more than `total`.
    if units.is_some_and(|fixed| fixed.iter().any(|&u| u > total)) {
        return Err(Error::InvalidParameter(
            "no position satisfies the limits".into(),
        ));
    }
    let binomials = pascal(total)?;
    // Powers whose homes offer the same options (England, Italy and Turkey; France and
    // Germany) have the same shares.
    let mut shares: Vec<Vec<Candidate>> = Vec::with_capacity(board.powers);
    for power in 0..board.powers {
        let fixed = units.map(|fixed| fixed[power]);
        let same = (0..power).find(|&other| {
            units.map(|f| f[other]) == fixed && options(board, other) == options(board, power)
        });
        shares.push(match same {
            Some(other) => shares[other].clone(),
            None => shares_of(board, power, convention, cap, fixed, &binomials),
        });
    }
    let answer = match programme::<u64>(&shares, total) {
        Some(answer) => answer,
        None => programme::<u128>(&shares, total).ok_or_else(overflow)?,
    };
    if answer.total == 0 {
        return Err(Error::InvalidParameter(
            "no position satisfies the limits".into(),
        ));
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pascal_rows_are_binomials() -> Result<()> {
        let rows = pascal(34)?;
        assert_eq!(rows[17][8], 24_310);
        assert_eq!(rows[34][17], 2_333_606_220);
        assert_eq!(rows[0], vec![1]);
        Ok(())
    }

    #[test]
    fn build_ways_count_subsets_of_open_homes() {
        // Russia's homes: 1, 1, 2 and 3 options; all open.
        let ways = build_ways(&[1, 1, 2, 3], 0b1111);
        assert_eq!(&ways[..5], &[1, 7, 17, 17, 6]);
        // Only the 2- and 3-option homes open.
        let ways = build_ways(&[1, 1, 2, 3], 0b1100);
        assert_eq!(&ways[..3], &[1, 5, 6]);
    }

    #[test]
    fn a_product_too_large_for_64_bits_is_computed_in_128() -> Result<()> {
        let share = Candidate {
            units: 1,
            centres: 0,
            open: 0,
            choices: 1 << 40,
            previous: 1,
        };
        let shares = vec![vec![share]; 3];
        assert!(programme::<u64>(&shares, 3).is_none());
        let answer = programme::<u128>(&shares, 3).ok_or_else(overflow)?;
        assert_eq!(answer.total, 1 << 120);
        assert_eq!(answer.shares.len(), 3);
        Ok(())
    }
}
