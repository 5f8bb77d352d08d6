//! Naming the feedbacks that contradict each other when no code fits a history.

use rayon::prelude::*;
use stratagem_core::error::Result;
use stratagem_core::{Cancel, parallel};

use crate::history::History;
use crate::search::{self, Order};

/// Subsets are tried in batches of this many, each batch in parallel.
const BATCH: usize = 1024;

/// A smallest set of turns whose feedbacks no code satisfies together (the first in
/// lexicographic order among the smallest), or `None` when some code fits the whole history.
pub fn smallest_contradiction(
    history: &History,
    threads: usize,
    cancel: &Cancel,
) -> Result<Option<Vec<usize>>> {
    let order = Order::lexicographic();
    let fits = |turns: &[usize]| -> Result<bool> {
        Ok(search::first(&history.subset(turns), &order, &[], 1, cancel)?.is_some())
    };
    let n = history.len();
    let all: Vec<usize> = (0..n).collect();
    if fits(&all)? {
        return Ok(None);
    }
    // Every contradicting set contains the newest turn when the turns before it fit.
    let newest_required = n > 0 && fits(&all[..n - 1])?;
    // Deleting turns one at a time leaves a contradicting set: its size bounds the search.
    let mut kept = all.clone();
    for turn in (0..n).rev() {
        let trial: Vec<usize> = kept.iter().copied().filter(|&t| t != turn).collect();
        if !fits(&trial)? {
            kept = trial;
        }
    }
    let pool = parallel::pool(threads)?;
    for size in 1..=kept.len() {
        let mut subsets = Subsets::new(n, size, newest_required);
        loop {
            let batch: Vec<Vec<usize>> = subsets.by_ref().take(BATCH).collect();
            if batch.is_empty() {
                break;
            }
            let found = pool.install(|| {
                batch
                    .par_iter()
                    .map(|turns| fits(turns).map(|ok| (!ok).then(|| turns.clone())))
                    .find_map_first(|outcome| outcome.transpose())
            });
            if let Some(result) = found {
                return result.map(Some);
            }
        }
    }
    Ok(Some(kept))
}

/// The `size`-subsets of `0..n` in lexicographic order (only those containing `n - 1` when
/// `with_last`).
struct Subsets {
    n: usize,
    current: Option<Vec<usize>>,
    with_last: bool,
}

impl Subsets {
    fn new(n: usize, size: usize, with_last: bool) -> Self {
        let current = (size <= n).then(|| (0..size).collect());
        Self {
            n,
            current,
            with_last,
        }
    }

    fn advance(&mut self) {
        let n = self.n;
        let Some(current) = self.current.as_mut() else {
            return;
        };
        let size = current.len();
        let mut i = size;
        while i > 0 && current[i - 1] == n - size + i - 1 {
            i -= 1;
        }
        if i == 0 {
            self.current = None;
            return;
        }
        current[i - 1] += 1;
        for j in i..size {
            current[j] = current[j - 1] + 1;
        }
    }
}

impl Iterator for Subsets {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        loop {
            let current = self.current.clone()?;
            self.advance();
            if !self.with_last || current.last() == Some(&(self.n - 1)) {
                return Some(current);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_come_in_lexicographic_order() {
        let all: Vec<Vec<usize>> = Subsets::new(4, 2, false).collect();
        assert_eq!(
            all,
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![0, 3],
                vec![1, 2],
                vec![1, 3],
                vec![2, 3]
            ]
        );
        let last: Vec<Vec<usize>> = Subsets::new(4, 2, true).collect();
        assert_eq!(last, vec![vec![0, 3], vec![1, 3], vec![2, 3]]);
        assert_eq!(Subsets::new(2, 3, false).count(), 0);
    }
}

#[cfg(test)]
mod finding {
    use super::*;
    use crate::code::Space;
    use crate::score::{Feedback, score};

    #[test]
    fn names_the_smallest_contradicting_turns() -> Result<()> {
        let space = Space::new(4, 6)?;
        let secret = space.code(&[2, 1, 0, 0])?;
        let mut history = History::empty(space);
        for guess in [[0, 0, 1, 1], [2, 2, 3, 3], [4, 4, 5, 5]] {
            let code = space.code(&guess)?;
            history.push(code, score(space, &code, &secret))?;
        }
        let cancel = Cancel::new();
        assert_eq!(smallest_contradiction(&history, 2, &cancel)?, None);
        // 4455 scored 0/0 says no 4 and no 5; claiming 0011 has no 0 and no 1 either leaves
        // only colours 2 and 3, which 2233 (one black: one 2) cannot be all of.
        let mut wrong = history.clone();
        wrong.feedback[0] = Feedback { black: 0, white: 0 };
        assert_eq!(
            smallest_contradiction(&wrong, 2, &cancel)?,
            Some(vec![0, 1, 2])
        );
        // A feedback no code can give contradicts itself.
        let mut impossible = history.clone();
        impossible.push(space.code(&[1, 2, 3, 4])?, Feedback { black: 3, white: 1 })?;
        assert_eq!(
            smallest_contradiction(&impossible, 1, &cancel)?,
            Some(vec![3])
        );
        Ok(())
    }
}
