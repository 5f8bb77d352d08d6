//! The regions a game may start from (`stratagem.conquest.board.assign_regions`): the
//! territories in one breadth-first order of the board, cut into `teams` consecutive pieces
//! of equal size (sizes differ by at most one).
//!
//! The order: a breadth-first search from the first territory `first` (drawn from the seed)
//! finds the territory farthest from it (the lowest id among the farthest); the territories
//! are then ordered by their distance from that territory, ties by id, and those it does not
//! reach (other components) come last, by id. The territory at place `p` of `n` goes to team
//! `p * teams / n`. The first piece is connected; on a grid every piece is a band of whole
//! diagonals (or rings about the far point on a torus) once a piece holds two diagonals.
//! `regions_of` in `python/stratagem/conquest/oracle.py` is the same rule in plain Python.
//! [`regions`] reads a CSR, [`board_regions`] the engine's board: one rule ([`deal`]) for both.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use stratagem_core::{Cancel, Error, Result};

use crate::{Board, MAX_TEAMS, MAX_TERRITORIES};

fn invalid(message: String) -> Error {
    Error::InvalidBoard(message)
}

/// The team of every territory of the board of `indptr`, `indices` (CSR) dealt in `teams`
/// regions from the territory `first`. Checks what it reads: `indptr` rising from 0 to
/// `len(indices)`, every neighbour a territory, `first` a territory, 1 to [`MAX_TEAMS`] teams.
/// `reached` counts the territories placed in the order; `cancel` is checked after every
/// level of both searches.
pub fn regions(
    indptr: &[i64],
    indices: &[i64],
    first: i64,
    teams: usize,
    cancel: &Cancel,
    reached: &AtomicU64,
) -> Result<Vec<i64>> {
    let n = indptr.len().saturating_sub(1);
    let ends_ok = indptr.first() == Some(&0) && indptr.last() == Some(&(indices.len() as i64));
    if !ends_ok || indptr.windows(2).any(|w| w[1] < w[0]) {
        return Err(invalid("indptr must rise from 0 to len(indices)".into()));
    }
    // x < n, and indptr rises from 0 to len(indices): its row is in bounds.
    let row = |x: usize| {
        indices[indptr[x] as usize..indptr[x + 1] as usize]
            .iter()
            .copied()
    };
    Ok(widened(&deal(n, first, teams, row, cancel, reached)?))
}

/// [`regions`] on the engine's board (checked when it was built).
pub fn board_regions(
    board: &Board,
    first: i64,
    teams: usize,
    cancel: &Cancel,
    reached: &AtomicU64,
) -> Result<Vec<i64>> {
    Ok(widened(&board_teams(board, first, teams, cancel, reached)?))
}

/// [`board_regions`] in one byte a territory, as a game holds its teams.
pub fn board_teams(
    board: &Board,
    first: i64,
    teams: usize,
    cancel: &Cancel,
    reached: &AtomicU64,
) -> Result<Vec<u8>> {
    let row = |x: usize| {
        let ids = board.neighbours(x);
        (0..ids.len()).map(move |k| i64::from(ids[k]))
    };
    deal(board.n(), first, teams, row, cancel, reached)
}

/// Marks a territory the search has not reached yet.
const UNSEEN: u8 = 0;
/// Marks a territory the search has reached.
const SEEN: u8 = 1;

/// The territories reached from `source` in breadth-first order, written into `queue`, and
/// where each level starts in it (the last entry is `queue.len()`); `seen` marks them.
fn search<I>(
    source: usize,
    row: &impl Fn(usize) -> I,
    seen: &mut [u8],
    queue: &mut Vec<u32>,
    cancel: &Cancel,
) -> Result<Vec<usize>>
where
    I: Iterator<Item = i64>,
{
    let n = seen.len();
    queue.clear();
    seen.fill(UNSEEN);
    seen[source] = SEEN;
    queue.push(source as u32);
    let mut levels = vec![0];
    let mut head = 0;
    while head < queue.len() {
        let end = queue.len();
        for i in head..end {
            for y in row(queue[i] as usize) {
                let mark = usize::try_from(y)
                    .ok()
                    .and_then(|y| seen.get_mut(y))
                    .ok_or_else(|| invalid(format!("a neighbour id {y} is outside 0..{n}")))?;
                if *mark == UNSEEN {
                    *mark = SEEN;
                    queue.push(y as u32);
                }
            }
        }
        levels.push(end);
        head = end;
        cancel.check()?;
    }
    Ok(levels)
}

/// The rule itself on a board of `n` territories whose neighbours `row(x)` lists: the team of
/// every territory.
fn deal<I>(
    n: usize,
    first: i64,
    teams: usize,
    row: impl Fn(usize) -> I,
    cancel: &Cancel,
    reached: &AtomicU64,
) -> Result<Vec<u8>>
where
    I: Iterator<Item = i64>,
{
    if !(1..=MAX_TEAMS).contains(&teams) {
        return Err(Error::InvalidParameter(format!(
            "regions are dealt to 1 to {MAX_TEAMS} teams, got {teams}"
        )));
    }
    if n > MAX_TERRITORIES {
        return Err(invalid(format!(
            "a board has at most {MAX_TERRITORIES} territories, got {n}"
        )));
    }
    let source = usize::try_from(first)
        .ok()
        .filter(|&x| x < n)
        .ok_or_else(|| {
            Error::InvalidParameter(format!("the first territory {first} is outside 0..{n}"))
        })?;
    let mut seen = vec![UNSEEN; n];
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    let levels = search(source, &row, &mut seen, &mut queue, cancel)?;
    // The last level is the farthest from `source`; it is never empty.
    let last = levels[levels.len() - 2];
    let root = queue[last..].iter().copied().min().unwrap_or(source as u32);
    let levels = search(root as usize, &row, &mut seen, &mut queue, cancel)?;
    // Within a level, by id: one sort of each level's slice, the slices in parallel.
    let mut slices = Vec::with_capacity(levels.len());
    let mut rest = queue.as_mut_slice();
    for pair in levels.windows(2) {
        let (slice, tail) = rest.split_at_mut(pair[1] - pair[0]);
        slices.push(slice);
        rest = tail;
    }
    slices
        .into_par_iter()
        .for_each(|slice| slice.sort_unstable());
    reached.fetch_add(queue.len() as u64, Ordering::Relaxed);
    let unreached = (0..n).filter(|&x| seen[x] == UNSEEN).map(|x| x as u32);
    queue.extend(unreached);
    cancel.check()?;
    let mut team = vec![0u8; n];
    let (count, total) = (teams as u64, n as u64);
    for (place, &x) in queue.iter().enumerate() {
        // place < n and teams <= 64: the product fits, and the quotient is below teams.
        team[x as usize] = (place as u64 * count / total) as u8;
    }
    reached.fetch_add((n - levels[levels.len() - 1]) as u64, Ordering::Relaxed);
    Ok(team)
}

/// The teams of [`deal`] as Python reads them.
fn widened(team: &[u8]) -> Vec<i64> {
    team.par_iter().map(|&t| i64::from(t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`regions`] without a count or a Ctrl-C to watch.
    fn plain(indptr: &[i64], indices: &[i64], first: i64, teams: usize) -> Result<Vec<i64>> {
        regions(
            indptr,
            indices,
            first,
            teams,
            &Cancel::new(),
            &AtomicU64::new(0),
        )
    }

    /// [`board_regions`] likewise.
    fn on_board(board: &Board, first: i64, teams: usize) -> Result<Vec<i64>> {
        board_regions(board, first, teams, &Cancel::new(), &AtomicU64::new(0))
    }

    /// The CSR of the undirected graph of `edges` on `n` territories.
    fn csr_of(n: usize, edges: &[(usize, usize)]) -> (Vec<i64>, Vec<i64>) {
        let mut rows = vec![Vec::new(); n];
        for &(a, b) in edges {
            rows[a].push(b as i64);
            rows[b].push(a as i64);
        }
        let mut indptr = vec![0];
        let mut indices = Vec::new();
        for mut row in rows {
            row.sort_unstable();
            indices.extend(row);
            indptr.push(indices.len() as i64);
        }
        (indptr, indices)
    }

    #[test]
    fn counts_the_territories_placed_and_stops_when_cancelled() -> Result<()> {
        // The path 0-1-2-3-4 and the border 5-6: 5 and 6 come last.
        let (indptr, indices) = csr_of(7, &[(0, 1), (1, 2), (2, 3), (3, 4), (5, 6)]);
        let reached = AtomicU64::new(0);
        regions(&indptr, &indices, 2, 2, &Cancel::new(), &reached)?;
        assert_eq!(reached.load(Ordering::Relaxed), 7);
        let cancel = Cancel::new();
        cancel.cancel();
        let stopped = regions(&indptr, &indices, 0, 2, &cancel, &AtomicU64::new(0));
        assert!(matches!(stopped, Err(Error::Interrupted)));
        Ok(())
    }

    #[test]
    fn cuts_the_order_from_the_far_end_into_equal_pieces() -> Result<()> {
        // The path 0-1-2-3-4 and the border 5-6; territory 7 alone. From 2 the farthest are
        // 0 and 4: the order starts at 0, then 5, 6, 7 by id.
        let (indptr, indices) = csr_of(8, &[(0, 1), (1, 2), (2, 3), (3, 4), (5, 6)]);
        assert_eq!(plain(&indptr, &indices, 2, 2)?, [0, 0, 0, 0, 1, 1, 1, 1]);
        assert_eq!(plain(&indptr, &indices, 2, 3)?, [0, 0, 0, 1, 1, 1, 2, 2]);
        // From 0 the farthest is 4, the order 4, 3, 2, 1, 0, 5, 6, 7.
        assert_eq!(plain(&indptr, &indices, 0, 3)?, [1, 1, 0, 0, 0, 1, 2, 2]);
        // From 6 the order is 5, 6, then the rest by id.
        assert_eq!(plain(&indptr, &indices, 6, 2)?, [0, 0, 1, 1, 1, 0, 0, 1]);
        assert_eq!(plain(&indptr, &indices, 7, 1)?, [0; 8]);
        // A star: the leaves 1..5 are a level, cut by id.
        let (indptr, indices) = csr_of(6, &[(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]);
        assert_eq!(plain(&indptr, &indices, 0, 3)?, [0, 0, 1, 1, 2, 2]);
        Ok(())
    }

    #[test]
    fn a_grid_is_cut_into_bands_of_diagonals() -> Result<()> {
        // grid:3x4 from its centre-left 4: the farthest is the corner 3, whose diagonals are
        // {3}, {2, 7}, {1, 6, 11}, {0, 5, 10}, {4, 9}, {8}.
        let (indptr, indices) = crate::share::Grid::plane(3, 4).csr()?;
        assert_eq!(
            plain(&indptr, &indices, 4, 2)?,
            [1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0]
        );
        Ok(())
    }

    #[test]
    fn refuses_bad_starts_teams_and_rows() {
        let (indptr, indices) = csr_of(3, &[(0, 1), (1, 2)]);
        let error = |indptr: &[i64], indices: &[i64], first: i64, teams: usize| {
            plain(indptr, indices, first, teams)
                .err()
                .map(|e| e.to_string())
        };
        assert!(error(&indptr, &indices, 3, 2).is_some_and(|e| e.contains("outside 0..3")));
        assert!(error(&indptr, &indices, -1, 2).is_some_and(|e| e.contains("outside 0..3")));
        assert!(error(&indptr, &indices, 0, 0).is_some_and(|e| e.contains("got 0")));
        assert!(error(&indptr, &indices, 0, 65).is_some_and(|e| e.contains("got 65")));
        assert!(error(&[0, 1, 2], &indices, 0, 2).is_some_and(|e| e.contains("indptr")));
        assert!(error(&[0, 2, 1, 4], &indices, 0, 2).is_some_and(|e| e.contains("indptr")));
        assert!(error(&indptr, &[1, 0, 7, 1], 0, 2).is_some_and(|e| e.contains("7")));
    }

    #[test]
    fn the_engine_board_deals_the_same_regions() -> Result<()> {
        let (indptr, indices) = csr_of(8, &[(0, 1), (1, 2), (2, 3), (3, 4), (5, 6), (1, 6)]);
        let board = Board::from_csr(&indptr, &indices)?;
        for (first, teams) in [(4, 2), (0, 3), (7, 2), (2, 8), (6, 1)] {
            assert_eq!(
                on_board(&board, first, teams)?,
                plain(&indptr, &indices, first, teams)?
            );
        }
        let error = on_board(&board, 8, 2).err().map(|e| e.to_string());
        assert!(error.is_some_and(|e| e.contains("outside 0..8")));
        Ok(())
    }
}
