//! Undirected simple graphs in CSR form and their one check, shared by the graph games
//! (annexation's cells, conquest's territories); `python/stratagem/graph.py` mirrors it with
//! the same messages.
//!
//! A graph on nodes `0..n` is `offsets` (`n + 1` entries from 0 to `neighbours.len()`, never
//! decreasing) and `neighbours`, row `x` being `neighbours[offsets[x]..offsets[x + 1]]`: each
//! row strictly ascending, no node its own neighbour, every edge listed in both rows.

use std::collections::VecDeque;

use rayon::prelude::*;

use crate::error::{Error, Result};

/// How a game names the pieces of its graph, and what it asks of it beyond being simple.
#[derive(Clone, Copy, Debug)]
pub struct Shape<'a> {
    /// The word for a node ("cell", "territory").
    pub node: &'a str,
    /// The names of the two arrays ("offsets" and "neighbours", "indptr" and "indices").
    pub offsets: &'a str,
    pub neighbours: &'a str,
    pub min_nodes: usize,
    pub max_nodes: usize,
    /// Whether a node may have no neighbour.
    pub isolated_ok: bool,
    /// Whether every node must be reachable from node 0.
    pub connected: bool,
}

/// A checked graph: `offsets` as positions into `neighbours`, node ids as `u32`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Csr {
    offsets: Vec<usize>,
    neighbours: Vec<u32>,
}

impl Csr {
    /// The graph of `offsets` and `neighbours` once [`check`] accepts them.
    pub fn checked(offsets: &[i64], neighbours: &[i64], shape: &Shape<'_>) -> Result<Self> {
        check(offsets, neighbours, shape)?;
        Ok(Self {
            offsets: offsets.iter().map(|&o| o as usize).collect(),
            neighbours: neighbours.iter().map(|&y| y as u32).collect(),
        })
    }

    pub fn nodes(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Directed edges: twice the number of edges.
    pub fn entries(&self) -> usize {
        self.neighbours.len()
    }

    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    pub fn neighbours(&self) -> &[u32] {
        &self.neighbours
    }

    /// The offsets and the neighbours, for a structure built on the graph.
    pub fn into_parts(self) -> (Vec<usize>, Vec<u32>) {
        (self.offsets, self.neighbours)
    }

    /// The neighbours of node `x`, ascending.
    pub fn row(&self, x: usize) -> &[u32] {
        &self.neighbours[self.offsets[x]..self.offsets[x + 1]]
    }
}

fn refuse(message: String) -> Error {
    Error::InvalidBoard(message)
}

/// `1 territory`, `2 cells`, `5 territories`.
fn counted(count: usize, node: &str) -> String {
    match (count, node.strip_suffix('y')) {
        (1, _) => format!("1 {node}"),
        (_, Some(stem)) => format!("{count} {stem}ies"),
        _ => format!("{count} {node}s"),
    }
}

/// Refuses `offsets` and `neighbours` that are not an undirected simple graph of the shape
/// asked for. The defects are checked kind by kind in a fixed order, and each names its first
/// offender (lowest node, then lowest entry): 1. too few nodes; 2. too many; 3. `offsets` not
/// from 0 to `neighbours.len()`; 4. `offsets` decreasing; 5. a neighbour out of range; 6. a
/// node its own neighbour; 7. an edge listed twice; 8. a row not ascending; 9. an edge listed
/// one way only; 10. a node without neighbours (unless `isolated_ok`); 11. a node out of reach
/// of node 0 (if `connected`). Returns the number of nodes.
pub fn check(offsets: &[i64], neighbours: &[i64], shape: &Shape<'_>) -> Result<usize> {
    let node = shape.node;
    let n = offsets.len().saturating_sub(1);
    if n < shape.min_nodes {
        return Err(refuse(format!(
            "a board needs at least {}, got {n}",
            counted(shape.min_nodes, node)
        )));
    }
    if n > shape.max_nodes {
        return Err(refuse(format!(
            "a board has at most {}, got {n}",
            counted(shape.max_nodes, node)
        )));
    }
    let m = neighbours.len();
    let (Some(&first), Some(&last)) = (offsets.first(), offsets.last()) else {
        return Err(refuse(format!(
            "{} must start at 0 and end at len({}) = {m}, got an empty array",
            shape.offsets, shape.neighbours
        )));
    };
    if first != 0 || last != m as i64 {
        return Err(refuse(format!(
            "{} must start at 0 and end at len({}) = {m}, got {first} and {last}",
            shape.offsets, shape.neighbours
        )));
    }
    if let Some(x) = offsets.windows(2).position(|pair| pair[1] < pair[0]) {
        return Err(refuse(format!(
            "{} decreases at {node} {x}: {} then {}",
            shape.offsets,
            offsets[x],
            offsets[x + 1]
        )));
    }
    // The offsets are now monotone from 0 to m: every row is a slice of `neighbours`.
    let row = |x: usize| &neighbours[offsets[x] as usize..offsets[x + 1] as usize];
    let first_in_rows = |defect: &(dyn Fn(usize, &[i64]) -> Option<String> + Sync)| {
        (0..n)
            .into_par_iter()
            .find_map_first(|x| defect(x, row(x)))
            .map_or(Ok(()), |message| Err(refuse(message)))
    };
    // Kinds 5 to 8 in one pass when every row is clean (the usual case); the passes kind by
    // kind, which name the first offender, run only when some row is not.
    let clean = |x: usize, r: &[i64]| {
        r.iter().all(|&y| y >= 0 && y < n as i64 && y != x as i64)
            && r.windows(2).all(|pair| pair[0] < pair[1])
    };
    if !(0..n).into_par_iter().all(|x| clean(x, row(x))) {
        first_in_rows(&|x, r| {
            r.iter()
                .find(|&&y| y < 0 || y >= n as i64)
                .map(|&y| format!("{node} {x} has neighbour {y}, outside 0..{}", n as i64 - 1))
        })?;
        first_in_rows(&|x, r| {
            r.contains(&(x as i64))
                .then(|| format!("{node} {x} lists itself as a neighbour"))
        })?;
        first_in_rows(&|x, r| {
            repeated(r).map(|y| {
                let y = y as usize;
                format!("edge ({}, {}) is listed twice", x.min(y), x.max(y))
            })
        })?;
        first_in_rows(&|x, r| {
            r.windows(2).find(|pair| pair[1] <= pair[0]).map(|pair| {
                format!(
                    "the neighbours of {node} {x} are not in ascending order: {} then {}",
                    pair[0], pair[1]
                )
            })
        })?;
    }
    first_in_rows(&|x, r| {
        r.iter()
            .find(|&&y| row(y as usize).binary_search(&(x as i64)).is_err())
            .map(|&y| format!("{node} {x} lists {y} as a neighbour but {y} does not list {x}"))
    })?;
    if !shape.isolated_ok {
        if let Some(x) = offsets.windows(2).position(|pair| pair[1] == pair[0]) {
            return Err(refuse(format!("{node} {x} has no neighbours")));
        }
    }
    if shape.connected && n > 0 {
        let mut seen = vec![false; n];
        let mut queue = VecDeque::from([0usize]);
        seen[0] = true;
        while let Some(x) = queue.pop_front() {
            for &y in row(x) {
                if !seen[y as usize] {
                    seen[y as usize] = true;
                    queue.push_back(y as usize);
                }
            }
        }
        if let Some(x) = seen.iter().position(|&reached| !reached) {
            return Err(refuse(format!(
                "{node} {x} cannot be reached from {node} 0"
            )));
        }
    }
    Ok(n)
}

/// The first entry of `row` equal to an earlier one, if any. An ascending row has none, so
/// only rows out of order pay for the sort.
fn repeated(row: &[i64]) -> Option<i64> {
    if row.windows(2).all(|pair| pair[0] < pair[1]) {
        return None;
    }
    let mut sorted = row.to_vec();
    sorted.sort_unstable();
    let twice: Vec<i64> = sorted
        .windows(2)
        .filter(|pair| pair[0] == pair[1])
        .map(|pair| pair[0])
        .collect();
    // Of the values present twice, the one whose second appearance comes first.
    let mut seen = Vec::with_capacity(twice.len());
    row.iter().copied().find(|y| {
        if twice.binary_search(y).is_err() {
            return false;
        }
        if seen.contains(y) {
            return true;
        }
        seen.push(*y);
        false
    })
}

/// Rows sorted per task of [`csr_of_edges`].
const ROWS_PER_TASK: usize = 1 << 14;

/// The CSR pair `(offsets, neighbours)` of the edges `{u[i], v[i]}` on nodes `0..n`: every
/// edge listed in both its rows, each row ascending (`python/stratagem/graph.py`'s `csr`,
/// which the boards' builders call). The entries are placed by counting, then the rows are
/// sorted in parallel. An end outside `0..n` is refused; loops and repeats are kept as given.
pub fn csr_of_edges(u: &[i64], v: &[i64], n: usize) -> Result<(Vec<i64>, Vec<i64>)> {
    if u.len() != v.len() {
        return Err(Error::InvalidParameter(format!(
            "an edge list needs as many first ends as second ends, got {} and {}",
            u.len(),
            v.len()
        )));
    }
    if let Some(&end) = u.iter().chain(v).find(|&&x| !(0..n as i64).contains(&x)) {
        return Err(Error::InvalidBoard(format!(
            "an edge end {end} is outside 0..{n}"
        )));
    }
    // Every end is now a node below n.
    let mut offsets = vec![0i64; n + 1];
    for &x in u.iter().chain(v) {
        offsets[x as usize + 1] += 1;
    }
    for x in 0..n {
        offsets[x + 1] += offsets[x];
    }
    let mut next: Vec<i64> = offsets[..n].to_vec();
    let mut neighbours = vec![0i64; 2 * u.len()];
    for (&a, &b) in u.iter().zip(v) {
        for (x, y) in [(a, b), (b, a)] {
            let slot = &mut next[x as usize];
            neighbours[*slot as usize] = y;
            *slot += 1;
        }
    }
    drop(next);
    // Blocks of whole rows, each sorted by one task.
    let mut blocks: Vec<(&[i64], &mut [i64])> = Vec::new();
    let mut rest: &mut [i64] = &mut neighbours;
    for first in (0..n).step_by(ROWS_PER_TASK) {
        let last = (first + ROWS_PER_TASK).min(n);
        let (block, tail) = rest.split_at_mut((offsets[last] - offsets[first]) as usize);
        blocks.push((&offsets[first..=last], block));
        rest = tail;
    }
    blocks.into_par_iter().for_each(|(bounds, block)| {
        let base = bounds[0];
        for row in bounds.windows(2) {
            block[(row[0] - base) as usize..(row[1] - base) as usize].sort_unstable();
        }
    });
    Ok((offsets, neighbours))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edge_list_becomes_ascending_rows_listing_every_edge_twice() -> Result<()> {
        let (offsets, neighbours) = csr_of_edges(&[2, 0, 1, 3], &[0, 3, 2, 1], 5)?;
        assert_eq!(offsets, [0, 2, 4, 6, 8, 8]);
        assert_eq!(neighbours, [2, 3, 2, 3, 0, 1, 0, 1]);
        assert!(csr_of_edges(&[0], &[5], 5).is_err());
        assert!(csr_of_edges(&[-1], &[0], 5).is_err());
        assert!(csr_of_edges(&[0, 1], &[1], 5).is_err());
        assert_eq!(csr_of_edges(&[], &[], 0)?, (vec![0], vec![]));
        Ok(())
    }

    const CELLS: Shape<'static> = Shape {
        node: "cell",
        offsets: "offsets",
        neighbours: "neighbours",
        min_nodes: 2,
        max_nodes: 5,
        isolated_ok: false,
        connected: true,
    };
    const TERRITORIES: Shape<'static> = Shape {
        node: "territory",
        offsets: "indptr",
        neighbours: "indices",
        min_nodes: 1,
        max_nodes: 5,
        isolated_ok: true,
        connected: false,
    };

    fn refused(offsets: &[i64], neighbours: &[i64], shape: &Shape<'_>) -> String {
        match check(offsets, neighbours, shape) {
            Err(Error::InvalidBoard(message)) => message,
            other => panic!("expected InvalidBoard, got {other:?}"),
        }
    }

    #[test]
    fn a_path_passes_and_reads_back() -> Result<()> {
        let csr = Csr::checked(&[0, 1, 3, 4], &[1, 0, 2, 1], &CELLS)?;
        assert_eq!((csr.nodes(), csr.entries()), (3, 4));
        assert_eq!(csr.row(1), &[0, 2]);
        assert_eq!(check(&[0, 0, 0], &[], &TERRITORIES)?, 2);
        Ok(())
    }

    #[test]
    fn each_defect_has_its_message() {
        let cases: [(&[i64], &[i64], &Shape<'_>, &str); 13] = [
            (
                &[0, 0],
                &[],
                &CELLS,
                "a board needs at least 2 cells, got 1",
            ),
            (
                &[],
                &[],
                &TERRITORIES,
                "a board needs at least 1 territory, got 0",
            ),
            (
                &[0; 7],
                &[],
                &TERRITORIES,
                "a board has at most 5 territories, got 6",
            ),
            (
                &[1, 1, 2],
                &[1, 0],
                &CELLS,
                "offsets must start at 0 and end at len(neighbours) = 2, got 1 and 2",
            ),
            (
                &[0, 2, 1, 2],
                &[1, 2],
                &TERRITORIES,
                "indptr decreases at territory 1: 2 then 1",
            ),
            (
                &[0, 1, 2],
                &[1, 5],
                &CELLS,
                "cell 1 has neighbour 5, outside 0..1",
            ),
            (
                &[0, 1, 2],
                &[0, 0],
                &CELLS,
                "cell 0 lists itself as a neighbour",
            ),
            (
                &[0, 3, 4, 5],
                &[2, 1, 2, 0, 0],
                &CELLS,
                "edge (0, 2) is listed twice",
            ),
            (
                &[0, 2, 3, 4],
                &[2, 1, 0, 0],
                &CELLS,
                "the neighbours of cell 0 are not in ascending order: 2 then 1",
            ),
            (
                &[0, 1, 1],
                &[1],
                &TERRITORIES,
                "territory 0 lists 1 as a neighbour but 1 does not list 0",
            ),
            (&[0, 1, 2, 2], &[1, 0], &CELLS, "cell 2 has no neighbours"),
            (
                &[0, 1, 2, 3, 4],
                &[1, 0, 3, 2],
                &CELLS,
                "cell 2 cannot be reached from cell 0",
            ),
            (&[0, 1, 2, 2], &[1, 0], &TERRITORIES, ""),
        ];
        for (offsets, neighbours, shape, message) in cases {
            if message.is_empty() {
                assert!(check(offsets, neighbours, shape).is_ok());
            } else {
                assert_eq!(refused(offsets, neighbours, shape), message);
            }
        }
    }

    #[test]
    fn the_first_offender_of_the_first_kind_is_named() {
        // Row 0 repeats 2 and row 1 is out of order: the repeat (kind 7) wins.
        assert_eq!(
            refused(&[0, 3, 5, 6], &[2, 1, 2, 2, 0, 0], &CELLS),
            "edge (0, 2) is listed twice"
        );
        // Two rows out of range: the lower node is named.
        assert_eq!(
            refused(&[0, 1, 2], &[9, -1], &CELLS),
            "cell 0 has neighbour 9, outside 0..1"
        );
    }

    #[test]
    fn nouns_are_counted() {
        assert_eq!(counted(1, "territory"), "1 territory");
        assert_eq!(counted(2, "territory"), "2 territories");
        assert_eq!(counted(4294967295, "cell"), "4294967295 cells");
    }
}
