//! The share of a rank owning a block of whole rows of a grid that is not a torus
//! ([`RowBlock`]), written in closed form: the same arrays as [`crate::share::block_share`]
//! of the grid, without walking the rows one territory and one border at a time (the part's
//! territories are a range of ids, every owned row lists its four or fewer neighbours in
//! order, and a ghost borders one owned territory).

use stratagem_core::Result;

use crate::row_block::RowBlock;
use crate::share::{Cut, Grid, Rows, Share, add_plan, narrow};

/// The share of `rank` when `offsets` cut `grid` into blocks of whole rows ([`RowBlock::of`]),
/// with the block; None for any other cut.
pub fn row_share(grid: &Grid, offsets: &[i64], rank: usize) -> Result<Option<(Share, RowBlock)>> {
    let Some(block) = RowBlock::of(grid, offsets, rank) else {
        return Ok(None);
    };
    let (rows, cols) = (grid.rows as usize, grid.cols as usize);
    let (above, below) = block.ghost_rows();
    let top = block.top();
    let bottom = top + block.rows();
    let base = (top - usize::from(above)) * cols;
    let end = (bottom + usize::from(below)) * cols;
    narrow(end, "a territory id")?;
    let (lo, hi) = (top * cols, bottom * cols);
    let owned_edges = (grid.offset(hi as i64)? - grid.offset(lo as i64)?) as usize;
    let ghosts = end - base - (hi - lo);
    let mut out = Share {
        local_ids: (base as u32..end as u32).collect(),
        indptr: Vec::with_capacity(end - base + 1),
        indices: Vec::with_capacity(owned_edges + ghosts),
        edge_ids: Vec::with_capacity(owned_edges + ghosts),
        owned: (base..end).map(|x| (lo..hi).contains(&x)).collect(),
        ..Share::default()
    };
    narrow(owned_edges + ghosts, "a part's directed border")?;
    let degree = |x: usize| {
        let (r, c) = (x / cols, x % cols);
        usize::from(r > 0)
            + usize::from(c > 0)
            + usize::from(c + 1 < cols)
            + usize::from(r + 1 < rows)
    };
    let offset = |x: usize| grid.offset(x as i64).map(|o| o as u64);
    out.indptr.push(0);
    let mut cut_edges: Vec<Cut> = Vec::with_capacity(ghosts);
    // The row of ghosts above: each borders the owned territory below it, the last entry of
    // its row of the board.
    if above {
        for x in base..lo {
            out.indices.push((x + cols - base) as u32);
            out.edge_ids.push(offset(x)? + degree(x) as u64 - 1);
            out.indptr.push(out.indices.len() as u32);
        }
    }
    // The owned rows, whole: up, left, right, down is ascending order.
    let mut edge = offset(lo)?;
    for r in top..bottom {
        for c in 0..cols {
            let x = r * cols + c;
            let local = (x - base) as u32;
            let neighbours = [
                (r > 0, local.wrapping_sub(cols as u32)),
                (c > 0, local.wrapping_sub(1)),
                (c + 1 < cols, local + 1),
                (r + 1 < rows, local + cols as u32),
            ];
            for (_, y) in neighbours.into_iter().filter(|&(on, _)| on) {
                out.indices.push(y);
                out.edge_ids.push(edge);
                edge += 1;
            }
            out.indptr.push(out.indices.len() as u32);
        }
    }
    // The row of ghosts below: each borders the owned territory above it, the first entry.
    if below {
        for x in hi..end {
            out.indices.push((x - cols - base) as u32);
            out.edge_ids.push(offset(x)?);
            out.indptr.push(out.indices.len() as u32);
        }
    }
    // The cut edges: (owner of the ghost, border id, owned, ghost, place of the ghost in the
    // owned territory's row), the border's id that of the edge from the lower id.
    if above {
        for x in lo..lo + cols {
            let y = x - cols;
            cut_edges.push((
                rank as i64 - 1,
                (offset(y)? + degree(y) as u64 - 1) as i64,
                x,
                y,
                0,
            ));
        }
    }
    if below {
        for x in hi - cols..hi {
            let y = x + cols;
            let k = degree(x) - 1;
            cut_edges.push((rank as i64 + 1, (offset(x)? + k as u64) as i64, x, y, k));
        }
    }
    let owners = |g: usize| {
        if g < lo {
            rank as i64 - 1
        } else {
            rank as i64 + 1
        }
    };
    let ghost_ids = (base..lo).chain(hi..end).map(|g| (owners(g), g)).collect();
    add_plan(&mut out, cut_edges, ghost_ids, |y| Ok((y - base) as u32))?;
    Ok(Some((out, block)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::block_share;
    use stratagem_core::Error;

    #[test]
    fn the_closed_forms_give_the_shares_of_the_rows() -> Result<()> {
        for (rows, cols) in [
            (1, 1),
            (1, 7),
            (7, 1),
            (2, 2),
            (3, 50),
            (50, 3),
            (9, 6),
            (31, 17),
        ] {
            let grid = Grid::plane(rows, cols);
            for ranks in (1..=5).filter(|&q| q <= rows) {
                let offsets: Vec<i64> = (0..=ranks).map(|q| q * rows / ranks * cols).collect();
                for rank in 0..ranks as usize {
                    let (share, block) = row_share(&grid, &offsets, rank)?
                        .ok_or_else(|| Error::InvalidParameter("not whole rows".into()))?;
                    assert_eq!(share, block_share(&grid, &offsets, rank)?, "{rows}x{cols}");
                    assert_eq!(Some(block), RowBlock::of(&grid, &offsets, rank));
                }
            }
        }
        let torus = Grid {
            rows: 6,
            cols: 6,
            torus: true,
        };
        assert!(row_share(&torus, &[0, 18, 36], 0)?.is_none());
        Ok(())
    }
}
