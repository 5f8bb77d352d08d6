//! The contiguous regions a game may start from (`stratagem.conquest.board.assign_regions`):
//! every team grows from its start by breadth-first search, all teams one level at a time; a
//! territory reached by several teams in the same level goes to the lowest team id.
//! `regions_of` in `python/stratagem/conquest/oracle.py` is the same rule in plain Python.
//! [`regions`] reads a CSR, [`board_regions`] the engine's board: one rule ([`grow`]) for both.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use stratagem_core::{Cancel, Error, Result};

use crate::{Board, MAX_TEAMS};

fn invalid(message: String) -> Error {
    Error::InvalidBoard(message)
}

/// Marks a territory no team has reached yet.
const FREE: u8 = u8::MAX;

/// The team of every territory when team `t` starts from `starts[t]` on the board of
/// `indptr`, `indices` (CSR), `-1` for a territory no start reaches. Checks what it reads:
/// `indptr` rising from 0 to `len(indices)`, every neighbour reached and every start a
/// territory, the starts distinct and at most [`MAX_TEAMS`]. `reached` counts the territories
/// the teams hold as they grow; `cancel` is checked after every level of every team.
pub fn regions(
    indptr: &[i64],
    indices: &[i64],
    starts: &[i64],
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
    Ok(signed(&grow(n, starts, row, cancel, reached)?))
}

/// [`regions`] on the engine's board (checked when it was built).
pub fn board_regions(
    board: &Board,
    starts: &[i64],
    cancel: &Cancel,
    reached: &AtomicU64,
) -> Result<Vec<i64>> {
    let row = |x: usize| board.neighbours(x).iter().map(|&y| i64::from(y));
    Ok(signed(&grow(board.n(), starts, row, cancel, reached)?))
}

/// The rule itself on a board of `n` territories whose neighbours `row(x)` lists: the team of
/// every territory, [`FREE`] where no start reaches.
fn grow<I>(
    n: usize,
    starts: &[i64],
    row: impl Fn(usize) -> I,
    cancel: &Cancel,
    reached: &AtomicU64,
) -> Result<Vec<u8>>
where
    I: Iterator<Item = i64>,
{
    if starts.len() > MAX_TEAMS {
        return Err(Error::InvalidParameter(format!(
            "at most {MAX_TEAMS} teams start, got {} starts",
            starts.len()
        )));
    }
    // One byte a territory while growing (a tenth of the memory the search walks through).
    let mut team = vec![FREE; n];
    // One frontier per team: each level is grown team by team in increasing id, so the
    // first team to reach a territory is the lowest of those reaching it in that level.
    let mut frontiers: Vec<Vec<usize>> = Vec::with_capacity(starts.len());
    for (t, &start) in starts.iter().enumerate() {
        let x = usize::try_from(start)
            .ok()
            .filter(|&x| x < n)
            .ok_or_else(|| {
                Error::InvalidParameter(format!("the start {start} of team {t} is outside 0..{n}"))
            })?;
        if team[x] != FREE {
            return Err(Error::InvalidParameter(format!(
                "territory {x} is the start of teams {} and {t}",
                team[x]
            )));
        }
        team[x] = t as u8;
        frontiers.push(vec![x]);
    }
    reached.fetch_add(starts.len() as u64, Ordering::Relaxed);
    let mut next: Vec<usize> = Vec::new();
    while frontiers.iter().any(|f| !f.is_empty()) {
        for (t, frontier) in frontiers.iter_mut().enumerate() {
            for &x in frontier.iter() {
                for y in row(x) {
                    let owner = usize::try_from(y)
                        .ok()
                        .and_then(|y| team.get_mut(y))
                        .ok_or_else(|| invalid(format!("a neighbour id {y} is outside 0..{n}")))?;
                    if *owner == FREE {
                        *owner = t as u8;
                        next.push(y as usize);
                    }
                }
            }
            reached.fetch_add(next.len() as u64, Ordering::Relaxed);
            std::mem::swap(frontier, &mut next);
            next.clear();
            cancel.check()?;
        }
    }
    Ok(team)
}

/// The teams of [`grow`] as Python sees them: `-1` where no start reaches.
fn signed(team: &[u8]) -> Vec<i64> {
    team.par_iter()
        .map(|&t| if t == FREE { -1 } else { i64::from(t) })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`regions`] without a count or a Ctrl-C to watch.
    fn plain(indptr: &[i64], indices: &[i64], starts: &[i64]) -> Result<Vec<i64>> {
        regions(indptr, indices, starts, &Cancel::new(), &AtomicU64::new(0))
    }

    /// [`board_regions`] likewise.
    fn on_board(board: &Board, starts: &[i64]) -> Result<Vec<i64>> {
        board_regions(board, starts, &Cancel::new(), &AtomicU64::new(0))
    }

    #[test]
    fn counts_the_territories_reached_and_stops_when_cancelled() -> Result<()> {
        // The path 0-1-2-3-4 and the border 5-6: 5 and 6 are never reached.
        let (indptr, indices) = csr_of(7, &[(0, 1), (1, 2), (2, 3), (3, 4), (5, 6)]);
        let reached = AtomicU64::new(0);
        regions(&indptr, &indices, &[0, 4], &Cancel::new(), &reached)?;
        assert_eq!(reached.load(Ordering::Relaxed), 5);
        let cancel = Cancel::new();
        cancel.cancel();
        let stopped = regions(&indptr, &indices, &[0], &cancel, &AtomicU64::new(0));
        assert!(matches!(stopped, Err(Error::Interrupted)));
        Ok(())
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
    fn a_tie_goes_to_the_lowest_team_and_other_components_stay_unreached() -> Result<()> {
        // The path 0-1-2-3-4 and the border 5-6; territory 7 alone.
        let (indptr, indices) = csr_of(8, &[(0, 1), (1, 2), (2, 3), (3, 4), (5, 6)]);
        // Both teams reach 2 in the second level: it goes to team 0, whichever end it starts.
        assert_eq!(
            plain(&indptr, &indices, &[4, 0])?,
            [1, 1, 0, 0, 0, -1, -1, -1]
        );
        assert_eq!(
            plain(&indptr, &indices, &[0, 4])?,
            [0, 0, 0, 1, 1, -1, -1, -1]
        );
        assert_eq!(
            plain(&indptr, &indices, &[6, 7])?,
            [-1, -1, -1, -1, -1, 0, 0, 1]
        );
        assert_eq!(plain(&indptr, &indices, &[])?, [-1; 8]);
        Ok(())
    }

    #[test]
    fn refuses_bad_starts_and_bad_rows() {
        let (indptr, indices) = csr_of(3, &[(0, 1), (1, 2)]);
        let error = |indptr: &[i64], indices: &[i64], starts: &[i64]| {
            plain(indptr, indices, starts).err().map(|e| e.to_string())
        };
        assert!(error(&indptr, &indices, &[3]).is_some_and(|e| e.contains("outside 0..3")));
        assert!(error(&indptr, &indices, &[-1]).is_some_and(|e| e.contains("outside 0..3")));
        assert!(error(&indptr, &indices, &[1, 1]).is_some_and(|e| e.contains("teams 0 and 1")));
        assert!(error(&[0, 1, 2], &indices, &[0]).is_some_and(|e| e.contains("indptr")));
        assert!(error(&[0, 2, 1, 4], &indices, &[0]).is_some_and(|e| e.contains("indptr")));
        assert!(error(&indptr, &[1, 0, 7, 1], &[0]).is_some_and(|e| e.contains("7")));
        let many: Vec<i64> = (0..65).collect();
        let (indptr, indices) = csr_of(65, &[]);
        assert!(error(&indptr, &indices, &many).is_some_and(|e| e.contains("got 65 starts")));
    }

    #[test]
    fn the_engine_board_grows_the_same_regions() -> Result<()> {
        let (indptr, indices) = csr_of(8, &[(0, 1), (1, 2), (2, 3), (3, 4), (5, 6), (1, 6)]);
        let board = Board::from_csr(&indptr, &indices)?;
        for starts in [&[4, 0][..], &[0, 4], &[6, 7, 2], &[]] {
            assert_eq!(on_board(&board, starts)?, plain(&indptr, &indices, starts)?);
        }
        let error = on_board(&board, &[8]).err().map(|e| e.to_string());
        assert!(error.is_some_and(|e| e.contains("outside 0..8")));
        Ok(())
    }
}
