//! One rank's share of a board for a distributed game ([`crate::part::Part`]): its territories
//! and their rows, the ghosts with their borders to it, and the exchange plan, cut from the
//! whole board's CSR in time and memory proportional to the share (plus one pass over the
//! owners), or built from the rows of the share alone ([`block_share`] of a grid's closed
//! forms, of a CSR mapped from a file, or of rows generated in parts), in time and memory
//! proportional to the share.
//! `tests/conquest_spread.py` computes the same arrays with numpy.

use stratagem_core::{Error, Result};

use crate::board::Board;
use crate::plan::Plan;
pub use crate::rows::{Grid, Rows};

/// The arrays of a share, in the engine's types: the part's board is made from them without
/// a copy ([`Share::into_part`]); the bindings widen them to `i64` only when Python asks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Share {
    /// Whole-board ids of the part's territories (owned and ghosts), increasing.
    pub local_ids: Vec<u32>,
    /// The part's CSR: owned rows whole, ghost rows holding their borders with owned ones.
    pub indptr: Vec<u32>,
    pub indices: Vec<u32>,
    /// Whole-board position of every directed edge of the part.
    pub edge_ids: Vec<u64>,
    pub owned: Vec<bool>,
    /// The ranks owning ghosts, increasing.
    pub neighbours: Vec<i64>,
    /// Per neighbour: owned territories it sees (by id), its ghosts (by id), and the owned ->
    /// ghost edges between them (by border id), as local indices with offsets.
    pub plan: Plan,
}

impl Share {
    /// The part's board (labelled with the whole board's ids), which territories it owns, its
    /// exchange plan and its neighbour ranks, the arrays moved, not copied.
    pub fn into_part(self) -> Result<(Board, Vec<bool>, Plan, Vec<i64>)> {
        let board = Board::part(self.indptr, self.indices, self.local_ids, self.edge_ids)?;
        Ok((board, self.owned, self.plan, self.neighbours))
    }
}

fn invalid(message: String) -> Error {
    Error::InvalidBoard(message)
}

/// Offsets delimiting the runs of each of `neighbours` in `keys` (sorted).
fn offsets_by(keys: &[i64], neighbours: &[i64]) -> Vec<usize> {
    let mut offsets = Vec::with_capacity(neighbours.len() + 1);
    offsets.push(0);
    for q in neighbours {
        offsets.push(keys.partition_point(|k| k <= q));
    }
    offsets
}

/// A local index or id, which fits `u32` on any board the engine takes.
pub(crate) fn narrow(value: usize, what: &str) -> Result<u32> {
    u32::try_from(value).map_err(|_| invalid(format!("{what} {value} is beyond 2^32")))
}

/// The share of rank `rank` when territory `x` belongs to rank `owner[x]`, on a checked
/// board (`indptr`, `indices`: CSR with sorted, symmetric rows).
pub fn share(indptr: &[i64], indices: &[i64], owner: &[i64], rank: i64) -> Result<Share> {
    let n = indptr.len().saturating_sub(1);
    if owner.len() != n {
        return Err(invalid(format!(
            "owner needs one rank per territory ({n}), got {}",
            owner.len()
        )));
    }
    let ends_ok = indptr.first() == Some(&0) && indptr.last() == Some(&(indices.len() as i64));
    if !ends_ok || indptr.windows(2).any(|w| w[1] < w[0]) {
        return Err(invalid("indptr must rise from 0 to len(indices)".into()));
    }
    if let Some(y) = indices.iter().find(|&&y| !(0..n as i64).contains(&y)) {
        return Err(invalid(format!("a neighbour id {y} is outside 0..{n}")));
    }
    let row = |x: usize| indptr[x] as usize..indptr[x + 1] as usize;
    let owns = |x: usize| owner[x] == rank;
    let owned_ids: Vec<usize> = (0..n).filter(|&x| owns(x)).collect();
    let mut cut_edges: Vec<Cut> = Vec::new();
    for &x in &owned_ids {
        for e in row(x) {
            let y = indices[e] as usize;
            if owns(y) {
                continue;
            }
            let border = if x < y {
                e
            } else {
                let back = indices[row(y)]
                    .binary_search(&(x as i64))
                    .map_err(|_| invalid(format!("border {x} -> {y} has no reverse")))?;
                indptr[y] as usize + back
            };
            cut_edges.push((owner[y], border as i64, x, y, e - indptr[x] as usize));
        }
    }
    let ghost_ids = ghosts_of(&cut_edges);
    let mut local_ids: Vec<usize> = owned_ids.iter().chain(&ghost_ids).copied().collect();
    local_ids.sort_unstable();
    // The local index of every territory of the share (a table: a search per entry cost
    // more than the rest of the cut).
    let mut local_of = vec![u32::MAX; n];
    for (i, &x) in local_ids.iter().enumerate() {
        local_of[x] = narrow(i, "a part's territory")?;
    }
    let local = |id: usize| Ok(local_of[id]);
    // The part's CSR, row by row in local order.
    let mut out = Share {
        indptr: Vec::with_capacity(local_ids.len() + 1),
        owned: local_ids.iter().map(|&x| owns(x)).collect(),
        ..Share::default()
    };
    out.indptr.push(0);
    for &x in &local_ids {
        for e in row(x) {
            let y = indices[e] as usize;
            if owns(x) || owns(y) {
                out.indices.push(local_of[y]);
                out.edge_ids.push(e as u64);
            }
        }
        out.indptr
            .push(narrow(out.indices.len(), "a part's directed border")?);
    }
    out.local_ids = local_ids
        .iter()
        .map(|&x| narrow(x, "a territory id"))
        .collect::<Result<_>>()?;
    let ghosts = ghost_ids.iter().map(|&g| (owner[g], g)).collect();
    add_plan(&mut out, cut_edges, ghosts, local)?;
    Ok(out)
}

/// A cut edge, owned `x` -> ghost `y`: (owner of `y`, border id, `x`, `y`, position of `y`
/// in the row of `x`). Border ids are those of the whole board: the position of the edge
/// from the lower id of the two in the board's CSR.
pub(crate) type Cut = (i64, i64, usize, usize, usize);

/// The ghosts of a share: the targets of its cut edges, ascending.
fn ghosts_of(cut_edges: &[Cut]) -> Vec<usize> {
    let mut ghosts: Vec<usize> = cut_edges.iter().map(|c| c.3).collect();
    ghosts.sort_unstable();
    ghosts.dedup();
    ghosts
}

/// Completes a share whose CSR is built (owned rows whole) with its exchange plan, from its
/// cut edges, its ghosts with their owners (`(owner, id)`) and the local index of every
/// territory of the share.
pub(crate) fn add_plan(
    out: &mut Share,
    mut cut_edges: Vec<Cut>,
    mut ghosts: Vec<(i64, usize)>,
    local: impl Fn(usize) -> Result<u32>,
) -> Result<()> {
    // Owned rows are whole: entry k of x's row is entry k of its local row.
    cut_edges.sort_unstable();
    let plan = &mut out.plan;
    plan.cut = cut_edges
        .iter()
        .map(|&(_, _, x, _, k)| Ok(out.indptr[local(x)? as usize] + k as u32))
        .collect::<Result<_>>()?;
    let cut_owner: Vec<i64> = cut_edges.iter().map(|c| c.0).collect();
    let mut neighbours = cut_owner.clone();
    neighbours.dedup();
    plan.cut_offsets = offsets_by(&cut_owner, &neighbours);
    let mut send: Vec<(i64, usize)> = cut_edges.iter().map(|c| (c.0, c.2)).collect();
    send.sort_unstable();
    send.dedup();
    plan.halo_send = send.iter().map(|&(_, x)| local(x)).collect::<Result<_>>()?;
    let send_owner: Vec<i64> = send.iter().map(|s| s.0).collect();
    plan.halo_send_offsets = offsets_by(&send_owner, &neighbours);
    ghosts.sort_unstable();
    plan.halo_recv = ghosts
        .iter()
        .map(|&(_, g)| local(g))
        .collect::<Result<_>>()?;
    let receive_owner: Vec<i64> = ghosts.iter().map(|r| r.0).collect();
    plan.halo_recv_offsets = offsets_by(&receive_owner, &neighbours);
    out.neighbours = neighbours;
    Ok(())
}

/// A board's CSR that may be read in place from a file (a memory map): only the rows a share
/// asks for are touched, and each is checked as it is read.
#[derive(Clone, Copy, Debug)]
pub struct Csr<'a> {
    pub indptr: &'a [i64],
    pub indices: &'a [i64],
}

impl Rows for Csr<'_> {
    fn n(&self) -> i64 {
        self.indptr.len().saturating_sub(1) as i64
    }

    fn row(&self, x: i64, out: &mut Vec<i64>) -> Result<()> {
        let (start, end) = (self.offset(x)?, self.offset(x + 1)?);
        let row = usize::try_from(start)
            .ok()
            .zip(usize::try_from(end).ok())
            .and_then(|(start, end)| self.indices.get(start..end))
            .ok_or_else(|| {
                invalid(format!(
                    "the row of territory {x} runs from {start} to {end}, outside the {} \
                     borders' ends (indptr must rise from 0 to len(indices))",
                    self.indices.len()
                ))
            })?;
        let n = self.n();
        if let Some(y) = row.iter().find(|&&y| !(0..n).contains(&y)) {
            return Err(invalid(format!("a neighbour id {y} is outside 0..{n}")));
        }
        if row.contains(&x) {
            return Err(invalid(format!("territory {x} borders itself")));
        }
        if row.windows(2).any(|w| w[1] <= w[0]) {
            return Err(invalid(format!(
                "the row of territory {x} is not strictly ascending (a border twice, or \
                 unsorted)"
            )));
        }
        out.extend_from_slice(row);
        Ok(())
    }

    fn offset(&self, x: i64) -> Result<i64> {
        let at = usize::try_from(x).ok().and_then(|x| self.indptr.get(x));
        let offset = at.ok_or_else(|| invalid(format!("territory {x} has no row")))?;
        let end = x == self.n() && *offset != self.indices.len() as i64;
        if (x == 0 && *offset != 0) || end {
            return Err(invalid("indptr must rise from 0 to len(indices)".into()));
        }
        Ok(*offset)
    }

    fn unchecked(&self) -> bool {
        true
    }
}

/// The rows of some territories of a board (`ids`, ascending), with where each starts in
/// the whole board's CSR (`starts`) and their neighbours in a CSR of their own
/// (`indptr`, `indices`: whole-board ids): what a rank builds of a board generated in parts.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    pub n: i64,
    pub ids: &'a [i64],
    pub starts: &'a [i64],
    pub indptr: &'a [i64],
    pub indices: &'a [i64],
}

impl Table<'_> {
    fn position(&self, x: i64) -> Result<usize> {
        self.ids
            .binary_search(&x)
            .map_err(|_| invalid(format!("the row of territory {x} is not among those held")))
    }
}

impl Rows for Table<'_> {
    fn n(&self) -> i64 {
        self.n
    }

    fn row(&self, x: i64, out: &mut Vec<i64>) -> Result<()> {
        let i = self.position(x)?;
        let span = self.indptr.get(i).zip(self.indptr.get(i + 1));
        let row = span
            .and_then(|(&a, &b)| {
                self.indices
                    .get(usize::try_from(a).ok()?..usize::try_from(b).ok()?)
            })
            .ok_or_else(|| invalid(format!("the held row of territory {x} is out of bounds")))?;
        out.extend_from_slice(row);
        Ok(())
    }

    fn offset(&self, x: i64) -> Result<i64> {
        let i = self.position(x)?;
        self.starts
            .get(i)
            .copied()
            .ok_or_else(|| invalid(format!("territory {x} has no row start")))
    }
}

/// The share of rank `rank` when block `q` of the natural order, `offsets[q]..offsets[q +
/// 1]`, belongs to rank `q`: the same arrays as [`share`] of the whole board, built from the
/// rows of the block and of its ghosts only, in memory proportional to the share (the arrays
/// it returns and the cut edges). Rows that may be malformed ([`Rows::unchecked`]) are checked:
/// the ranks' shares together check every row and every border of the board.
pub fn block_share<R: Rows>(rows: &R, offsets: &[i64], rank: usize) -> Result<Share> {
    let n = rows.n();
    let blocks_ok = offsets.first() == Some(&0)
        && offsets.last() == Some(&n)
        && offsets.windows(2).all(|w| w[0] <= w[1])
        && rank + 1 < offsets.len();
    if !blocks_ok {
        return Err(invalid(format!(
            "a board of {n} territories cannot be cut at {offsets:?} for rank {rank}"
        )));
    }
    let (lo, hi) = (offsets[rank], offsets[rank + 1]);
    let mine = |y: i64| (lo..hi).contains(&y);
    let owner = |y: i64| offsets.partition_point(|&o| o <= y) as i64 - 1;
    let mut back = Vec::new();
    // Where `x` sits in the row of `y`, which must hold it.
    let mut place_in = |y: i64, x: i64| -> Result<i64> {
        back.clear();
        rows.row(y, &mut back)?;
        let k = back
            .binary_search(&x)
            .map_err(|_| invalid(format!("border {x} -> {y} has no reverse")))?;
        Ok(rows.offset(y)? + k as i64)
    };
    let mut cut_edges: Vec<Cut> = Vec::new();
    let mut scanned_edges = 0;
    let crossing = rows.may_cross(lo, hi);
    let all_scanned = crossing == [(lo, hi)];
    for (first, end) in crossing {
        rows.each_row(first, end, |x, start, row| {
            scanned_edges += row.len();
            for (k, &y) in row.iter().enumerate() {
                if mine(y) {
                    if rows.unchecked() {
                        place_in(y, x)?;
                    }
                    continue;
                }
                let border = if x < y {
                    if rows.unchecked() {
                        place_in(y, x)?;
                    }
                    start + k as i64
                } else {
                    place_in(y, x)?
                };
                cut_edges.push((owner(y), border, x as usize, y as usize, k));
            }
            Ok(())
        })?;
    }
    // The owned rows' borders (their span in the board's CSR where it is known).
    let owned_edges = if all_scanned {
        scanned_edges
    } else {
        (rows.offset(hi)? - rows.offset(lo)?) as usize
    };
    let ghosts = ghosts_of(&cut_edges);
    let below = ghosts.partition_point(|&g| (g as i64) < lo);
    let owned = (hi - lo) as usize;
    let missing = |y: usize| invalid(format!("territory {y} is neither owned nor a ghost"));
    let local = |y: usize| -> Result<u32> {
        let y64 = y as i64;
        let i = if mine(y64) {
            below + (y64 - lo) as usize
        } else if y64 < lo {
            ghosts[..below].binary_search(&y).map_err(|_| missing(y))?
        } else {
            below + owned + ghosts[below..].binary_search(&y).map_err(|_| missing(y))?
        };
        narrow(i, "a part's territory")
    };
    let ids: Vec<u32> = ghosts[..below]
        .iter()
        .copied()
        .chain(lo as usize..hi as usize)
        .chain(ghosts[below..].iter().copied())
        .map(|x| narrow(x, "a territory id"))
        .collect::<Result<_>>()?;
    let mut out = Share {
        indptr: Vec::with_capacity(ids.len() + 1),
        // The owned rows whole, and a ghost's border for every cut edge.
        indices: Vec::with_capacity(owned_edges + cut_edges.len()),
        edge_ids: Vec::with_capacity(owned_edges + cut_edges.len()),
        owned: ids.iter().map(|&x| mine(i64::from(x))).collect(),
        ..Share::default()
    };
    out.indptr.push(0);
    let mut add_row = |x: i64, start: i64, row: &[i64]| -> Result<()> {
        for (k, &y) in row.iter().enumerate() {
            if mine(x) || mine(y) {
                out.indices.push(local(y as usize)?);
                out.edge_ids.push((start + k as i64) as u64);
            }
        }
        out.indptr
            .push(narrow(out.indices.len(), "a part's directed border")?);
        Ok(())
    };
    for &g in &ghosts[..below] {
        rows.each_row(g as i64, g as i64 + 1, &mut add_row)?;
    }
    rows.each_row(lo, hi, &mut add_row)?;
    for &g in &ghosts[below..] {
        rows.each_row(g as i64, g as i64 + 1, &mut add_row)?;
    }
    out.local_ids = ids;
    let ghost_owners = ghosts.iter().map(|&g| (owner(g as i64), g)).collect();
    add_plan(&mut out, cut_edges, ghost_owners, local)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CSR of a grid, row by row.
    fn grid_csr(grid: Grid) -> Result<(Vec<i64>, Vec<i64>)> {
        let (mut indptr, mut indices) = (vec![0], Vec::new());
        for x in 0..grid.n() {
            grid.row(x, &mut indices)?;
            indptr.push(indices.len() as i64);
        }
        Ok((indptr, indices))
    }

    /// The CSR of the undirected graph of `edges` on `n` territories.
    fn csr_of(n: usize, edges: &[(i64, i64)]) -> (Vec<i64>, Vec<i64>) {
        let mut rows = vec![Vec::new(); n];
        for &(a, b) in edges {
            rows[a as usize].push(b);
            rows[b as usize].push(a);
        }
        let mut indptr = vec![0];
        let mut indices = Vec::new();
        for mut row in rows {
            row.sort_unstable();
            row.dedup();
            indices.extend(row);
            indptr.push(indices.len() as i64);
        }
        (indptr, indices)
    }

    /// A ring of 13 with chords, some territories alone.
    fn chorded() -> (Vec<i64>, Vec<i64>) {
        let mut edges: Vec<(i64, i64)> = (0..13).map(|x| (x, (x + 1) % 13)).collect();
        edges.extend([(0, 6), (2, 11), (3, 9), (5, 12), (7, 1)]);
        csr_of(16, &edges)
    }

    /// The block cuts of `n` territories over `ranks` ranks, and the owner of each.
    fn blocks(n: i64, ranks: i64) -> (Vec<i64>, Vec<i64>) {
        let cuts: Vec<i64> = (0..=ranks).map(|q| q * n / ranks).collect();
        let owner = (0..n)
            .map(|x| cuts.partition_point(|&o| o <= x) as i64 - 1)
            .collect();
        (cuts, owner)
    }

    #[test]
    fn a_mapped_csr_or_a_table_of_rows_gives_the_share_of_the_whole_board() -> Result<()> {
        let (indptr, indices) = chorded();
        let csr = Csr {
            indptr: &indptr,
            indices: &indices,
        };
        let ids: Vec<i64> = (0..16).collect();
        let table = Table {
            n: 16,
            ids: &ids,
            starts: &indptr[..16],
            indptr: &indptr,
            indices: &indices,
        };
        for ranks in 1..=5 {
            let (cuts, owner) = blocks(16, ranks);
            for rank in 0..ranks {
                let whole = share(&indptr, &indices, &owner, rank)?;
                assert_eq!(block_share(&csr, &cuts, rank as usize)?, whole);
                assert_eq!(block_share(&table, &cuts, rank as usize)?, whole);
            }
        }
        Ok(())
    }

    #[test]
    fn a_mapped_csr_is_checked_row_by_row() {
        let (indptr, indices) = chorded();
        let (cuts, _) = blocks(16, 2);
        let fails = |indptr: &[i64], indices: &[i64]| -> Vec<String> {
            let csr = Csr { indptr, indices };
            (0..2)
                .filter_map(|rank| block_share(&csr, &cuts, rank).err())
                .map(|error| error.to_string())
                .collect()
        };
        assert!(fails(&indptr, &indices).is_empty());
        // Territory 0's first neighbour, 1, replaced: 0 -> 2 has no reverse, 1 -> 0 neither.
        let mut one_way = indices.clone();
        one_way[0] = 2;
        assert!(fails(&indptr, &one_way)[0].contains("has no reverse"));
        let mut itself = indices.clone();
        itself[0] = 0;
        assert!(fails(&indptr, &itself)[0].contains("borders itself"));
        let mut unsorted = indices.clone();
        unsorted.swap(0, 1);
        assert!(fails(&indptr, &unsorted)[0].contains("not strictly ascending"));
        let mut outside = indices.clone();
        outside[0] = 99;
        assert!(fails(&indptr, &outside)[0].contains("outside 0..16"));
        let mut short = indptr.clone();
        short[16] -= 1;
        assert!(fails(&short, &indices)[0].contains("indptr must rise"));
        let mut falling = indptr.clone();
        falling[3] = falling[5] + 1;
        assert!(!fails(&falling, &indices).is_empty());
    }

    #[test]
    fn a_table_without_a_ghost_row_is_refused() {
        let (indptr, indices) = chorded();
        // Rank 0 of two owns 0..8 and sees 9, 11 and 12: only 0..8 held.
        let ids: Vec<i64> = (0..8).collect();
        let table = Table {
            n: 16,
            ids: &ids,
            starts: &indptr[..8],
            indptr: &indptr[..9],
            indices: &indices,
        };
        let error = block_share(&table, &[0, 8, 16], 0)
            .err()
            .map(|e| e.to_string());
        assert!(error.is_some_and(|e| e.contains("not among those held")));
    }

    #[test]
    fn a_grid_share_is_the_share_of_the_whole_grid() -> Result<()> {
        for (rows, cols, torus) in [
            (1, 1, false),
            (1, 7, false),
            (5, 4, false),
            (9, 3, false),
            (3, 3, true),
            (10, 4, true),
        ] {
            let grid = Grid { rows, cols, torus };
            let (indptr, indices) = grid_csr(grid)?;
            let offsets = (0..grid.n())
                .map(|x| grid.offset(x))
                .collect::<Result<Vec<_>>>()?;
            assert_eq!(offsets, indptr[..indptr.len() - 1]);
            for ranks in 1..=4_i64 {
                let cuts: Vec<i64> = (0..=ranks).map(|q| q * grid.n() / ranks).collect();
                let owner: Vec<i64> = (0..grid.n())
                    .map(|x| cuts.partition_point(|&o| o <= x) as i64 - 1)
                    .collect();
                for rank in 0..ranks {
                    let whole = share(&indptr, &indices, &owner, rank)?;
                    assert_eq!(block_share(&grid, &cuts, rank as usize)?, whole);
                }
            }
        }
        Ok(())
    }

    #[test]
    fn the_whole_csr_of_a_grid_is_its_rows() -> Result<()> {
        let shapes = [
            (1, 1, false),
            (1, 7, false),
            (9, 1, false),
            (5, 4, false),
            (3, 3, true),
        ];
        let large = [(130, 300, false), (129, 131, true)];
        for (rows, cols, torus) in shapes.into_iter().chain(large) {
            let grid = Grid { rows, cols, torus };
            assert_eq!(grid.csr()?, grid_csr(grid)?);
        }
        for (rows, cols, torus) in [
            (0, 3, false),
            (3, -1, false),
            (2, 5, true),
            (1 << 32, 1 << 32, false),
        ] {
            assert!(Grid { rows, cols, torus }.csr().is_err());
        }
        Ok(())
    }

    #[test]
    fn refuses_blocks_that_do_not_cover_the_grid() {
        let grid = Grid::plane(2, 3);
        assert!(block_share(&grid, &[0, 5], 0).is_err());
        assert!(block_share(&grid, &[0, 6], 1).is_err());
    }

    #[test]
    fn a_path_cut_in_two() -> Result<()> {
        // 0 - 1 - 2 - 3, ranks 0 0 1 1: rank 0 owns 0 and 1 and sees 2.
        let (indptr, indices) = ([0, 1, 3, 5, 6], [1, 0, 2, 1, 3, 2]);
        let share = share(&indptr, &indices, &[0, 0, 1, 1], 0)?;
        assert_eq!(share.local_ids, [0, 1, 2]);
        assert_eq!(share.indptr, [0, 1, 3, 4]);
        assert_eq!(share.indices, [1, 0, 2, 1]);
        assert_eq!(share.edge_ids, [0, 1, 2, 3]);
        assert_eq!(share.owned, [true, true, false]);
        assert_eq!(share.neighbours, [1]);
        let plan = share.plan;
        assert_eq!((plan.halo_send, plan.halo_recv), (vec![1], vec![2]));
        assert_eq!((plan.cut, plan.cut_offsets), (vec![2], vec![0, 1]));
        Ok(())
    }

    #[test]
    fn refuses_an_owner_per_territory_missing() {
        assert!(share(&[0, 1, 2], &[1, 0], &[0], 0).is_err());
    }
}
