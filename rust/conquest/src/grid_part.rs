//! The `regions` start of one rank's part of a grid ([`crate::share::Share`] of
//! [`crate::share::block_share`] on a [`Grid`]), from the grid's closed-form distances: what
//! a rank computes between the collectives that `stratagem.conquest.distributed.local_board`
//! makes (docs/conquest-mpi.md, "Rank-local boards").
//!
//! `assign_regions` orders the territories by their distance from the far end, ties by id,
//! and cuts the order into `teams` equal pieces. Every rank counts its owned territories at
//! each distance ([`owned_distance_counts`]); once the counts are summed over the ranks,
//! [`level_cuts`] tells at which distance, and at which place among the territories of that
//! distance, each team starts; the ranks list their owned territories at those distances
//! ([`owned_at_distances`]), and the id at that place ends the search. Each rank then deals
//! its territories ([`regions_team`]) in one pass, with no sort and no `i64` key per
//! territory.

use stratagem_core::{Error, Result};

use crate::MAX_TEAMS;
use crate::share::{Grid, Share};

fn invalid(message: String) -> Error {
    Error::InvalidParameter(message)
}

impl Grid {
    /// The largest number of borders a shortest path of the grid crosses.
    pub fn diameter(&self) -> i64 {
        if self.torus {
            self.rows / 2 + self.cols / 2
        } else {
            self.rows - 1 + self.cols - 1
        }
    }

    /// Calls `visit(i, d)` for each of `ids` (its place `i` there, its distance `d` from
    /// `source`); runs of consecutive ids step along the rows without dividing.
    fn distances_of(&self, source: i64, ids: &[u32], mut visit: impl FnMut(usize, i64)) {
        let (rows, cols) = (self.rows, self.cols);
        let (r0, c0) = (source / cols, source % cols);
        let mut last = (-2_i64, 0_i64, 0_i64);
        for (i, &x) in ids.iter().enumerate() {
            let x = i64::from(x);
            let (r, c) = if x == last.0 + 1 {
                if last.2 + 1 == cols {
                    (last.1 + 1, 0)
                } else {
                    (last.1, last.2 + 1)
                }
            } else {
                (x / cols, x % cols)
            };
            last = (x, r, c);
            let (dr, dc) = ((r - r0).abs(), (c - c0).abs());
            let d = if self.torus {
                dr.min(rows - dr) + dc.min(cols - dc)
            } else {
                dr + dc
            };
            visit(i, d);
        }
    }

    fn check_source(&self, source: i64) -> Result<()> {
        if !(0..self.rows * self.cols).contains(&source) {
            return Err(invalid(format!(
                "territory {source} is not on the grid {}x{}",
                self.rows, self.cols
            )));
        }
        Ok(())
    }
}

/// The owned territories' distances from `source`, visited in id order.
fn owned_distances(
    share: &Share,
    grid: &Grid,
    source: i64,
    mut visit: impl FnMut(u32, i64),
) -> Result<()> {
    grid.check_source(source)?;
    let first = share.owned.iter().position(|&o| o).unwrap_or(0);
    let count = share.owned.iter().filter(|&&o| o).count();
    // A block's owned territories are consecutive in local order.
    let owned = &share.local_ids[first..first + count];
    grid.distances_of(source, owned, |i, d| visit(owned[i], d));
    Ok(())
}

/// The farthest owned territory from `source`: `(distance, id)`, the lowest id among the
/// farthest; None when the rank owns none.
pub fn farthest_owned(share: &Share, grid: &Grid, source: i64) -> Result<Option<(i64, u32)>> {
    let mut best: Option<(i64, u32)> = None;
    owned_distances(share, grid, source, |x, d| {
        if best.is_none_or(|(far, _)| d > far) {
            best = Some((d, x));
        }
    })?;
    Ok(best)
}

/// How many owned territories lie at each distance from `source`, 0 to the grid's diameter.
pub fn owned_distance_counts(share: &Share, grid: &Grid, source: i64) -> Result<Vec<u64>> {
    let mut counts = vec![0_u64; grid.diameter() as usize + 1];
    let mut outside = false;
    owned_distances(share, grid, source, |_, d| {
        match counts.get_mut(d as usize) {
            Some(count) => *count += 1,
            None => outside = true,
        }
    })?;
    if outside {
        return Err(invalid("a distance beyond the grid's diameter".into()));
    }
    Ok(counts)
}

/// Where each team but the first starts in the order, from the territories at each distance
/// (`counts`, summed over the ranks: `n` in all): `(distance, place among the territories at
/// that distance)`. Team `t` starts at place `ceil(t n / teams)` of the order.
pub fn level_cuts(counts: &[u64], teams: usize) -> Result<Vec<(i64, u64)>> {
    let n: u64 = counts.iter().sum();
    if !(1..=MAX_TEAMS).contains(&teams) || teams as u64 > n.max(1) {
        return Err(invalid(format!("{teams} teams on {n} territories")));
    }
    let mut cuts = Vec::with_capacity(teams - 1);
    let (mut level, mut before) = (0_usize, 0_u64);
    for t in 1..teams as u64 {
        let place = (t * n).div_ceil(teams as u64);
        while before + counts[level] <= place {
            before += counts[level];
            level += 1;
        }
        cuts.push((level as i64, place - before));
    }
    Ok(cuts)
}

/// The owned territories at each of `levels` (distances from `source`), ascending.
pub fn owned_at_distances(
    share: &Share,
    grid: &Grid,
    source: i64,
    levels: &[i64],
) -> Result<Vec<Vec<u32>>> {
    let mut found = vec![Vec::new(); levels.len()];
    owned_distances(share, grid, source, |x, d| {
        for (list, _) in found.iter_mut().zip(levels).filter(|(_, l)| **l == d) {
            list.push(x);
        }
    })?;
    Ok(found)
}

/// The team of every territory of the share (owned and ghosts, local order): the number of
/// team starts `(distance, id)` (ascending) at or before its own `(distance from source,
/// id)`.
pub fn regions_team(
    share: &Share,
    grid: &Grid,
    source: i64,
    starts: &[(i64, u32)],
) -> Result<Vec<u8>> {
    grid.check_source(source)?;
    if starts.len() >= MAX_TEAMS || starts.windows(2).any(|w| w[1] < w[0]) {
        return Err(invalid(format!(
            "{} team starts, which must ascend (at most {})",
            starts.len(),
            MAX_TEAMS - 1
        )));
    }
    let mut team = vec![0_u8; share.local_ids.len()];
    let ids = &share.local_ids;
    grid.distances_of(source, ids, |i, d| {
        let key = (d, ids[i]);
        team[i] = starts.partition_point(|&start| start <= key) as u8;
    });
    Ok(team)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::block_share;
    use crate::start::regions;
    use std::sync::atomic::AtomicU64;
    use stratagem_core::Cancel;

    /// The regions start of the whole grid from `first`, dealt by the ranks' parts as the
    /// collectives would: counts summed, the start of each team found among the listed ids.
    fn dealt_by_parts(grid: Grid, ranks: i64, first: i64, teams: usize) -> Result<Vec<i64>> {
        let n = grid.rows * grid.cols;
        let cuts: Vec<i64> = (0..=ranks).map(|q| q * n / ranks).collect();
        let shares = (0..ranks as usize)
            .map(|rank| block_share(&grid, &cuts, rank))
            .collect::<Result<Vec<_>>>()?;
        let far = shares
            .iter()
            .map(|share| farthest_owned(share, &grid, first))
            .collect::<Result<Vec<_>>>()?;
        let far_end = far
            .into_iter()
            .flatten()
            .max_by_key(|&(d, x)| (d, std::cmp::Reverse(x)))
            .map_or(0, |(_, x)| i64::from(x));
        let mut counts = vec![0; grid.diameter() as usize + 1];
        for share in &shares {
            for (total, c) in counts
                .iter_mut()
                .zip(owned_distance_counts(share, &grid, far_end)?)
            {
                *total += c;
            }
        }
        let cuts = level_cuts(&counts, teams)?;
        let levels: Vec<i64> = cuts.iter().map(|c| c.0).collect();
        let mut listed = vec![Vec::new(); levels.len()];
        for share in &shares {
            for (all, mine) in listed
                .iter_mut()
                .zip(owned_at_distances(share, &grid, far_end, &levels)?)
            {
                all.extend(mine);
            }
        }
        let starts: Vec<(i64, u32)> = cuts
            .iter()
            .zip(&mut listed)
            .map(|(&(level, place), ids)| {
                ids.sort_unstable();
                (level, ids[place as usize])
            })
            .collect();
        let mut team = vec![-1; n as usize];
        for share in &shares {
            let dealt = regions_team(share, &grid, far_end, &starts)?;
            for (&x, t) in share.local_ids.iter().zip(dealt) {
                let held = &mut team[x as usize];
                assert!(
                    *held == -1 || *held == i64::from(t),
                    "a ghost's team differs"
                );
                *held = i64::from(t);
            }
        }
        Ok(team)
    }

    #[test]
    fn the_parts_deal_the_regions_of_the_whole_grid() -> Result<()> {
        for (rows, cols, torus) in [(1, 1, false), (1, 9, false), (7, 5, false), (6, 8, true)] {
            let grid = Grid { rows, cols, torus };
            let (indptr, indices) = grid.csr()?;
            let n = rows * cols;
            for ranks in 1..=4 {
                for teams in (1..=4).filter(|&t| t as i64 <= n) {
                    for first in [0, n / 2, n - 1] {
                        let whole = regions(
                            &indptr,
                            &indices,
                            first,
                            teams,
                            &Cancel::new(),
                            &AtomicU64::new(0),
                        )?;
                        assert_eq!(
                            dealt_by_parts(grid, ranks, first, teams)?,
                            whole,
                            "{rows}x{cols} {torus} on {ranks} ranks, {teams} teams from {first}"
                        );
                    }
                }
            }
        }
        Ok(())
    }

    #[test]
    fn refuses_a_source_off_the_grid_and_too_many_teams() -> Result<()> {
        let grid = Grid::plane(3, 3);
        let share = block_share(&grid, &[0, 9], 0)?;
        assert!(farthest_owned(&share, &grid, 9).is_err());
        assert!(level_cuts(&[1, 2], 4).is_err());
        assert!(regions_team(&share, &grid, 0, &[(2, 1), (1, 0)]).is_err());
        Ok(())
    }
}
