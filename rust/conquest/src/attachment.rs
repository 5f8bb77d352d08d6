//! The preferential-attachment board `ba:N:M` (`stratagem.conquest.boards.layouts.barabasi_albert`):
//! territories `0..=M` start as the star of `0`, and every later territory `v` borders `M`
//! distinct territories picked in proportion to their degree. `barabasi_albert_ends` in
//! `python/stratagem/conquest/oracle.py` is the same rule in plain Python.

use std::sync::atomic::{AtomicU64, Ordering};

use stratagem_core::rng::Stream;
use stratagem_core::{Cancel, Error, Result};

/// The stream the picks are drawn from (with the board's seed, no ids).
pub const PURPOSE: &str = "conquest.board.ba";

/// Territories added between two checks of `cancel` (and reports to `added`).
const CHECK_EVERY: usize = 1 << 16;

/// The ends of every border of `ba:n:m` with `seed`, two a border, in the order they were
/// added: the star `(0, 1) .. (0, m)`, then for `v = m + 1 .. n - 1` its `m` borders
/// `(target, v)` in the order the targets were picked. A pick is `ends[i]` with `i` uniform
/// below the number of ends so far (exact rejection: [`stratagem_core::rng::Cursor::uniform_below`]
/// on the stream's words in order), so a territory is picked in proportion to its degree;
/// a target already picked for `v` is drawn again. `added` counts the territories added.
pub fn barabasi_albert_ends(
    n: usize,
    m: usize,
    seed: u64,
    cancel: &Cancel,
    added: &AtomicU64,
) -> Result<Vec<u32>> {
    if m == 0 || n <= m || u32::try_from(n).is_err() {
        return Err(Error::InvalidParameter(format!(
            "a preferential-attachment board needs 1 <= m < n < 2^32, got n = {n}, m = {m}"
        )));
    }
    let total = m
        .checked_mul(n - m)
        .and_then(|borders| borders.checked_mul(2))
        .ok_or_else(|| Error::InvalidParameter(format!("ba:{n}:{m} has too many borders")))?;
    let mut ends: Vec<u32> = Vec::new();
    ends.try_reserve_exact(total)
        .map_err(|_| Error::InvalidParameter(format!("ba:{n}:{m} does not fit in memory")))?;
    for leaf in 1..=m {
        ends.extend([0, leaf as u32]);
    }
    let mut cursor = Stream::new(seed, PURPOSE, &[])?.cursor();
    let mut targets: Vec<u32> = Vec::with_capacity(m);
    for v in m + 1..n {
        let size = ends.len() as u64;
        targets.clear();
        while targets.len() < m {
            // Below size < 2^64 ends, so the index fits.
            let target = ends[cursor.uniform_below(size) as usize];
            if !targets.contains(&target) {
                targets.push(target);
            }
        }
        for &target in &targets {
            ends.extend([target, v as u32]);
        }
        if v % CHECK_EVERY == 0 {
            added.store(v as u64, Ordering::Relaxed);
            cancel.check()?;
        }
    }
    added.store(n as u64, Ordering::Relaxed);
    Ok(ends)
}

/// The board `ba:n:m` with `seed` as a CSR pair `(indptr, indices)`, each row ascending: the
/// borders of [`barabasi_albert_ends`] (no border twice: a new territory's targets are
/// distinct), filled row by row in counted places, then each row sorted.
pub fn barabasi_albert(
    n: usize,
    m: usize,
    seed: u64,
    cancel: &Cancel,
    added: &AtomicU64,
) -> Result<(Vec<i64>, Vec<i64>)> {
    let ends = barabasi_albert_ends(n, m, seed, cancel, added)?;
    // Every end is a territory below n (the generator adds no other).
    let mut indptr = vec![0i64; n + 1];
    for &x in &ends {
        indptr[x as usize + 1] += 1;
    }
    for x in 0..n {
        indptr[x + 1] += indptr[x];
    }
    let mut next: Vec<i64> = indptr[..n].to_vec();
    let mut indices = vec![0i64; ends.len()];
    for pair in ends.chunks_exact(2) {
        for (x, y) in [(pair[0], pair[1]), (pair[1], pair[0])] {
            let slot = &mut next[x as usize];
            indices[*slot as usize] = i64::from(y);
            *slot += 1;
        }
    }
    drop((ends, next));
    for x in 0..n {
        indices[indptr[x] as usize..indptr[x + 1] as usize].sort_unstable();
    }
    Ok((indptr, indices))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ends(n: usize, m: usize, seed: u64) -> Result<Vec<u32>> {
        barabasi_albert_ends(n, m, seed, &Cancel::new(), &AtomicU64::new(0))
    }

    #[test]
    fn every_new_territory_borders_m_distinct_older_ones() -> Result<()> {
        let (n, m) = (500, 3);
        let all = ends(n, m, 7)?;
        assert_eq!(all.len(), 2 * m * (n - m));
        for (v, borders) in all[2 * m..].chunks(2 * m).enumerate() {
            let v = (v + m + 1) as u32;
            let mut targets: Vec<u32> = borders.chunks(2).map(|pair| pair[0]).collect();
            assert!(borders.chunks(2).all(|pair| pair[1] == v && pair[0] < v));
            targets.sort_unstable();
            targets.dedup();
            assert_eq!(targets.len(), m);
        }
        assert_eq!(ends(n, m, 7)?, all);
        assert_ne!(ends(n, m, 8)?, all);
        Ok(())
    }

    #[test]
    fn the_csr_lists_every_border_both_ways_in_ascending_rows() -> Result<()> {
        let (n, m) = (300, 2);
        let all = ends(n, m, 3)?;
        let (indptr, indices) = barabasi_albert(n, m, 3, &Cancel::new(), &AtomicU64::new(0))?;
        assert_eq!((indptr.len(), indices.len()), (n + 1, all.len()));
        let row = |x: usize| &indices[indptr[x] as usize..indptr[x + 1] as usize];
        for pair in all.chunks(2) {
            let (a, b) = (pair[0] as usize, pair[1] as usize);
            assert!(row(a).binary_search(&(b as i64)).is_ok());
            assert!(row(b).binary_search(&(a as i64)).is_ok());
        }
        assert!((0..n).all(|x| row(x).windows(2).all(|w| w[0] < w[1])));
        Ok(())
    }

    #[test]
    fn refuses_bad_sizes_and_stops_when_cancelled() {
        assert!(ends(3, 3, 0).is_err());
        assert!(ends(3, 0, 0).is_err());
        let cancel = Cancel::new();
        cancel.cancel();
        let stopped = barabasi_albert_ends(1 << 17, 1, 0, &cancel, &AtomicU64::new(0));
        assert!(matches!(stopped, Err(Error::Interrupted)));
    }
}
