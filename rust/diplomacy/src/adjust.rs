//! One power's adjustment options (`docs/diplomacy-rules.md`, "Adjustments of one power"):
//! counted by formula, ranked and unranked in the listing order, and written in slot form.

use stratagem_core::{Error, Result};

use crate::board::{Board, Placement};
use crate::position::{Position, Unit};

stratagem_core::named_enum! {
    /// How many builds a power with open homes may order.
    pub enum Convention: unknown("convention") {
        /// Build the maximum.
        Exact = "exact",
        /// Any number of builds up to the maximum, none included.
        Waives = "waives",
        /// At least one build, as Loeb counts "with waives".
        Article = "article",
    }
}

/// `C(n, k)` exactly (0 when `k > n`).
pub fn binomial(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
}

/// The options of one power.
#[derive(Clone, Debug)]
pub enum Choices {
    /// Nothing to adjust: one option.
    Nothing,
    /// Remove exactly `k` of `units` (indices into the position's units).
    Remove { units: Vec<usize>, k: usize },
    /// Between `least` and `most` builds, one per open home; `homes[i]` lists what may appear
    /// on open home `i`.
    Build {
        homes: Vec<Vec<Placement>>,
        least: usize,
        most: usize,
    },
}

/// The `j`-subsets of `0..n` in lexicographic order, each passed to `visit` until it returns
/// `false`.
fn for_subsets(n: usize, j: usize, mut visit: impl FnMut(&[usize]) -> bool) {
    if j > n {
        return;
    }
    let mut chosen: Vec<usize> = (0..j).collect();
    loop {
        if !visit(&chosen) {
            return;
        }
        // The rightmost index that can still move right.
        let Some(i) = (0..j).rev().find(|&i| chosen[i] < n - j + i) else {
            return;
        };
        chosen[i] += 1;
        for next in i + 1..j {
            chosen[next] = chosen[next - 1] + 1;
        }
    }
}

/// Steps a subset in 0/1 slot form (non-zero: chosen) to the next of its size in
/// lexicographic order of the chosen indices, chosen slots set to 1; `false` after the last.
fn next_subset(slots: &mut [u8]) -> bool {
    let n = slots.len();
    // The chosen slots at the very end cannot move; the chosen one before them moves right.
    let tail = slots.iter().rev().take_while(|&&s| s > 0).count();
    let Some(moving) = slots[..n - tail].iter().rposition(|&s| s > 0) else {
        return false;
    };
    slots[moving..].fill(0);
    slots[moving + 1..=moving + 1 + tail].fill(1);
    true
}

impl Choices {
    pub fn of(board: &Board, position: &Position, power: u8, convention: Convention) -> Self {
        let units: Vec<usize> = position.units_of(power).collect();
        let centres = position.centres_of(power);
        if units.len() > centres {
            return Self::Remove {
                k: units.len() - centres,
                units,
            };
        }
        let open = position.open_homes(board, power);
        let most = (centres - units.len()).min(open.len());
        if most == 0 {
            return Self::Nothing;
        }
        let least = match convention {
            Convention::Exact => most,
            Convention::Waives => 0,
            Convention::Article => 1,
        };
        Self::Build {
            homes: open.iter().map(|&c| board.builds[c].clone()).collect(),
            least,
            most,
        }
    }

    /// How many options.
    pub fn count(&self) -> u128 {
        match self {
            Self::Nothing => 1,
            Self::Remove { units, k } => binomial(units.len(), *k),
            Self::Build { least, most, .. } => {
                (*least..=*most).map(|j| self.builds_of_size(j)).sum()
            }
        }
    }

    /// Options with exactly `j` builds: the `j`-th elementary symmetric polynomial of the
    /// homes' option counts.
    fn builds_of_size(&self, j: usize) -> u128 {
        let Self::Build { homes, .. } = self else {
            return 0;
        };
        let mut total = 0u128;
        for_subsets(homes.len(), j, |set| {
            total += set
                .iter()
                .map(|&h| homes[h].len() as u128)
                .product::<u128>();
            true
        });
        total
    }

    /// The length of the slot form.
    pub fn slots(&self) -> usize {
        match self {
            Self::Nothing => 0,
            Self::Remove { units, .. } => units.len(),
            Self::Build { homes, .. } => homes.len(),
        }
    }

    /// The option at `index` in listing order, in slot form.
    pub fn unrank(&self, mut index: u128, slots: &mut Vec<u8>) -> Result<()> {
        let count = self.count();
        if index >= count {
            return Err(Error::InvalidParameter(format!(
                "option {index} does not exist; this power has {count} options"
            )));
        }
        slots.clear();
        slots.resize(self.slots(), 0);
        match self {
            Self::Nothing => {}
            Self::Remove { units, k } => {
                // Lexicographic unranking: take the smallest next unit whose block of
                // combinations holds the index.
                let n = units.len();
                let mut next = 0;
                for picked in 0..*k {
                    loop {
                        let block = binomial(n - next - 1, k - picked - 1);
                        if index < block {
                            break;
                        }
                        index -= block;
                        next += 1;
                    }
                    slots[next] = 1;
                    next += 1;
                }
            }
            Self::Build { homes, least, most } => {
                for j in *least..=*most {
                    let size = self.builds_of_size(j);
                    if index >= size {
                        index -= size;
                        continue;
                    }
                    let mut found = false;
                    for_subsets(homes.len(), j, |set| {
                        let product: u128 = set.iter().map(|&h| homes[h].len() as u128).product();
                        if index >= product {
                            index -= product;
                            return true;
                        }
                        // Mixed radix, the first home slowest.
                        for &h in set.iter().rev() {
                            let options = homes[h].len() as u128;
                            slots[h] = (index % options) as u8 + 1;
                            index /= options;
                        }
                        found = true;
                        false
                    });
                    if found {
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// Options `start..start + rows` in listing order, in slot form, appended to `out`: the
    /// first unranked, each next one stepped from the one before (no division per option).
    pub fn list(&self, start: u128, rows: usize, out: &mut Vec<u8>) -> Result<()> {
        let count = self.count();
        let last = u128::try_from(rows)
            .ok()
            .and_then(|r| start.checked_add(r))
            .filter(|&end| end <= count);
        if last.is_none() {
            return Err(Error::InvalidParameter(format!(
                "options {start}..{start}+{rows} do not exist; this power has {count} options"
            )));
        }
        if rows == 0 {
            return Ok(());
        }
        let mut slots = Vec::new();
        self.unrank(start, &mut slots)?;
        out.reserve(rows * slots.len());
        out.extend_from_slice(&slots);
        for _ in 1..rows {
            self.advance(&mut slots);
            out.extend_from_slice(&slots);
        }
        Ok(())
    }

    /// Steps `slots` to the next option in listing order; `false` (slots unchanged or
    /// meaningless) after the last.
    pub fn advance(&self, slots: &mut [u8]) -> bool {
        match self {
            Self::Nothing => false,
            Self::Remove { .. } => next_subset(slots),
            Self::Build { homes, most, .. } => {
                // The options of the chosen homes, the last home fastest.
                for (h, options) in homes.iter().enumerate().rev() {
                    if slots[h] == 0 {
                        continue;
                    }
                    if usize::from(slots[h]) < options.len() {
                        slots[h] += 1;
                        return true;
                    }
                    slots[h] = 1;
                }
                // Every chosen home is back at its first option: the next set of homes.
                if next_subset(slots) {
                    return true;
                }
                let size = slots.iter().filter(|&&s| s > 0).count() + 1;
                if size > *most || size > slots.len() {
                    return false;
                }
                for (h, slot) in slots.iter_mut().enumerate() {
                    *slot = u8::from(h < size);
                }
                true
            }
        }
    }

    /// The index of an option in slot form; `None` when the slots are not an option.
    pub fn rank(&self, slots: &[u8]) -> Option<u128> {
        if slots.len() != self.slots() {
            return None;
        }
        match self {
            Self::Nothing => Some(0),
            Self::Remove { units, k } => {
                let n = units.len();
                if slots.iter().any(|&s| s > 1) || slots.iter().filter(|&&s| s == 1).count() != *k {
                    return None;
                }
                let mut index = 0u128;
                let mut picked = 0;
                for (position, &s) in slots.iter().enumerate() {
                    if s == 1 {
                        picked += 1;
                    } else if picked < *k {
                        // Every combination that picks this unit here comes first.
                        index += binomial(n - position - 1, k - picked - 1);
                    }
                }
                Some(index)
            }
            Self::Build { homes, least, most } => {
                if slots
                    .iter()
                    .zip(homes)
                    .any(|(&s, options)| usize::from(s) > options.len())
                {
                    return None;
                }
                let set: Vec<usize> = (0..slots.len()).filter(|&h| slots[h] > 0).collect();
                let j = set.len();
                if j < *least || j > *most {
                    return None;
                }
                let mut index: u128 = (*least..j).map(|size| self.builds_of_size(size)).sum();
                for_subsets(homes.len(), j, |other| {
                    if other == set.as_slice() {
                        return false;
                    }
                    index += other
                        .iter()
                        .map(|&h| homes[h].len() as u128)
                        .product::<u128>();
                    true
                });
                let mut within = 0u128;
                for &h in &set {
                    within = within * homes[h].len() as u128 + u128::from(slots[h] - 1);
                }
                Some(index + within)
            }
        }
    }

    /// Whether slot form `slots` is an option (for the annealing's proposals).
    pub fn allows(&self, slots: &[u8]) -> bool {
        match self {
            Self::Build { least, most, .. } => {
                let j = slots.iter().filter(|&&s| s > 0).count();
                (*least..=*most).contains(&j)
            }
            _ => true,
        }
    }

    /// Adds the units `power` has after playing `slots` (no slots: doing nothing) to `out`.
    pub fn apply(&self, position: &Position, power: u8, slots: Option<&[u8]>, out: &mut Vec<Unit>) {
        match (self, slots) {
            (Self::Remove { units, .. }, Some(slots)) => {
                for (&u, &removed) in units.iter().zip(slots) {
                    if removed == 0 {
                        out.push(position.units[u]);
                    }
                }
            }
            (Self::Build { homes, .. }, Some(slots)) => {
                out.extend(position.units_of(power).map(|u| position.units[u]));
                for (options, &s) in homes.iter().zip(slots) {
                    if let Some(p) = usize::from(s).checked_sub(1).and_then(|i| options.get(i)) {
                        out.push(Unit {
                            power,
                            fleet: p.fleet,
                            location: p.location,
                        });
                    }
                }
            }
            _ => out.extend(position.units_of(power).map(|u| position.units[u])),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(17, 9), 24_310);
        assert_eq!(binomial(17, 8), 24_310);
        assert_eq!(binomial(34, 17), 2_333_606_220);
        assert_eq!(binomial(3, 4), 0);
    }

    fn placements(n: usize) -> Vec<Placement> {
        (0..n)
            .map(|i| Placement {
                fleet: i > 0,
                location: i as u16,
            })
            .collect()
    }

    #[test]
    fn rank_inverts_unrank() {
        let cases = [
            Choices::Remove {
                units: (0..7).collect(),
                k: 3,
            },
            Choices::Build {
                homes: vec![placements(1), placements(3), placements(2), placements(1)],
                least: 0,
                most: 3,
            },
            Choices::Build {
                homes: vec![placements(2), placements(2), placements(2)],
                least: 1,
                most: 2,
            },
        ];
        for choices in &cases {
            let mut slots = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for index in 0..choices.count() {
                choices
                    .unrank(index, &mut slots)
                    .unwrap_or_else(|e| panic!("{e}"));
                assert!(choices.allows(&slots));
                assert_eq!(choices.rank(&slots), Some(index), "{slots:?}");
                assert!(seen.insert(slots.clone()));
                let mut stepped = slots.clone();
                let more = choices.advance(&mut stepped);
                assert_eq!(more, index + 1 < choices.count(), "{slots:?}");
                if more {
                    let mut next = Vec::new();
                    choices
                        .unrank(index + 1, &mut next)
                        .unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(stepped, next, "after {slots:?}");
                }
            }
            let mut listed = Vec::new();
            choices
                .list(1, (choices.count() - 1) as usize, &mut listed)
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                listed.len(),
                (choices.count() as usize - 1) * choices.slots()
            );
            assert!(
                choices
                    .list(1, choices.count() as usize, &mut listed)
                    .is_err()
            );
            assert!(choices.unrank(choices.count(), &mut slots).is_err());
        }
        // Russia with every home open: 7, 17, 17 and 6 options of one to four builds.
        let russia = |least, most| Choices::Build {
            homes: vec![placements(1), placements(1), placements(2), placements(3)],
            least,
            most,
        };
        assert_eq!(russia(1, 1).count(), 7);
        assert_eq!(russia(2, 2).count(), 17);
        assert_eq!(russia(3, 3).count(), 17);
        assert_eq!(russia(4, 4).count(), 6);
        assert_eq!(russia(1, 4).count(), 47);
    }
}
