//! The board: an undirected simple graph in CSR form, checked once, with the reverse of every
//! directed edge and the list of borders (each undirected edge once, `x < y`).

use rayon::prelude::*;
use stratagem_core::{Error, Result};

use stratagem_core::graph::{Csr, Shape};

use crate::MAX_TERRITORIES;

/// The shape of a conquest board: territories may stand alone and in several pieces.
pub const GRAPH: Shape<'static> = Shape {
    node: "territory",
    offsets: "indptr",
    neighbours: "indices",
    min_nodes: 1,
    max_nodes: MAX_TERRITORIES,
    isolated_ok: true,
    connected: false,
};

/// One undirected border `{x, y}` with `x < y` and the positions of both directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Border {
    pub x: u32,
    pub y: u32,
    /// Position of `x -> y` in `indices` (this is the border id of the rules).
    pub xy: usize,
    /// Position of `y -> x`.
    pub yx: usize,
}

#[derive(Clone, Debug)]
pub struct Board {
    indptr: Vec<usize>,
    indices: Vec<u32>,
    reverse: Vec<usize>,
    /// Index into `borders` of each directed edge.
    edge_border: Vec<u32>,
    borders: Vec<Border>,
    /// Ids in a larger board when this board is one rank's part of it (see [`Board::labelled`]).
    labels: Option<Labels>,
}

/// The whole board's ids of a part's territories and directed edges: random streams are drawn
/// with these, so a part plays exactly what the whole board would.
#[derive(Clone, Debug)]
struct Labels {
    territory: Vec<u32>,
    edge: Vec<u64>,
}

fn invalid(message: String) -> Error {
    Error::InvalidBoard(message)
}

impl Board {
    /// Checks a CSR graph (rows sorted ascending, symmetric, no self-loops, no repeats) and
    /// builds the reverse-edge and border tables. Errors name the offending territory.
    pub fn from_csr(indptr: &[i64], indices: &[i64]) -> Result<Self> {
        Self::built(Csr::checked(indptr, indices, &GRAPH)?)
    }

    /// Like [`Self::from_csr`], but a rank's part of a board may hold no territory at all
    /// (when there are more ranks than territories).
    pub fn part_from_csr(indptr: &[i64], indices: &[i64]) -> Result<Self> {
        let part = Shape {
            min_nodes: 0,
            ..GRAPH
        };
        Self::built(Csr::checked(indptr, indices, &part)?)
    }

    /// The reverse-edge and border tables of a checked graph.
    fn built(graph: Csr) -> Result<Self> {
        let n = graph.nodes();
        if graph.entries() > u32::MAX as usize {
            return Err(invalid(format!(
                "too many borders: {}",
                graph.entries() / 2
            )));
        }
        let (indptr, indices) = graph.into_parts();
        // Reverse edges by binary search in the (sorted) neighbour's row.
        let reverse: Vec<usize> = (0..n)
            .into_par_iter()
            .flat_map_iter(|x| {
                let (indptr, indices) = (&indptr, &indices);
                (indptr[x]..indptr[x + 1]).map(move |e| {
                    let y = indices[e] as usize;
                    let row = &indices[indptr[y]..indptr[y + 1]];
                    // The check found every edge listed both ways.
                    row.binary_search(&(x as u32))
                        .map(|k| indptr[y] + k)
                        .map_err(|_| invalid(format!("border {x} -> {y} has no reverse")))
                })
            })
            .collect::<Result<Vec<usize>>>()?;
        let mut borders = Vec::with_capacity(indices.len() / 2);
        let mut edge_border = vec![0u32; indices.len()];
        for x in 0..n {
            for e in indptr[x]..indptr[x + 1] {
                let y = indices[e];
                if (x as u32) < y {
                    let id = borders.len() as u32;
                    edge_border[e] = id;
                    edge_border[reverse[e]] = id;
                    borders.push(Border {
                        x: x as u32,
                        y,
                        xy: e,
                        yx: reverse[e],
                    });
                }
            }
        }
        Ok(Self {
            indptr,
            indices,
            reverse,
            edge_border,
            borders,
            labels: None,
        })
    }

    /// The same board as a part of a larger one: territory `x` is territory `territory[x]`
    /// there and directed edge `e` is edge `edge[e]`. Territory ids must increase, so that
    /// every row lists its neighbours in the larger board's order too.
    pub fn labelled(mut self, territory: &[i64], edge: &[i64]) -> Result<Self> {
        if territory.len() != self.n() || edge.len() != self.n_edges() {
            return Err(invalid(format!(
                "labels need one territory id per territory ({}) and one edge id per directed \
                 border ({}), got {} and {}",
                self.n(),
                self.n_edges(),
                territory.len(),
                edge.len()
            )));
        }
        if let Some(x) = territory
            .iter()
            .position(|&id| !(0..=MAX_TERRITORIES as i64).contains(&id))
        {
            return Err(invalid(format!(
                "territory {x} has id {} outside 0..{MAX_TERRITORIES}",
                territory[x]
            )));
        }
        if let Some(k) = territory.windows(2).position(|pair| pair[1] <= pair[0]) {
            return Err(invalid(format!(
                "territory ids must increase, got {} then {} at territory {}",
                territory[k],
                territory[k + 1],
                k + 1
            )));
        }
        if let Some(e) = edge.iter().position(|&id| id < 0) {
            return Err(invalid(format!("directed border {e} has id {}", edge[e])));
        }
        self.labels = Some(Labels {
            territory: territory.iter().map(|&id| id as u32).collect(),
            edge: edge.iter().map(|&id| id as u64).collect(),
        });
        Ok(self)
    }

    /// The id of territory `x` in the random streams (its own index unless labelled).
    #[inline]
    pub fn territory_id(&self, x: usize) -> u64 {
        self.labels
            .as_ref()
            .map_or(x as u64, |labels| u64::from(labels.territory[x]))
    }

    /// The border id of the rules (position of `x -> y`, `x < y`, in the whole board's CSR).
    #[inline]
    pub fn border_id(&self, border: &Border) -> u64 {
        self.labels
            .as_ref()
            .map_or(border.xy as u64, |labels| labels.edge[border.xy])
    }

    pub fn n(&self) -> usize {
        self.indptr.len() - 1
    }

    /// Number of directed edges (twice the number of borders).
    pub fn n_edges(&self) -> usize {
        self.indices.len()
    }

    pub fn borders(&self) -> &[Border] {
        &self.borders
    }

    /// Directed edge positions of territory `x`'s row.
    #[inline]
    pub fn row(&self, x: usize) -> std::ops::Range<usize> {
        self.indptr[x]..self.indptr[x + 1]
    }

    #[inline]
    pub fn target(&self, e: usize) -> usize {
        self.indices[e] as usize
    }

    /// The territory directed edge `e` leaves from.
    #[inline]
    pub fn source(&self, e: usize) -> usize {
        self.target(self.reverse[e])
    }

    #[inline]
    pub fn reverse(&self, e: usize) -> usize {
        self.reverse[e]
    }

    #[inline]
    pub fn border_of(&self, e: usize) -> usize {
        self.edge_border[e] as usize
    }

    pub fn indptr(&self) -> &[usize] {
        &self.indptr
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path3() -> Result<Board> {
        // 0 - 1 - 2
        Board::from_csr(&[0, 1, 3, 4], &[1, 0, 2, 1])
    }

    #[test]
    fn builds_reverse_and_borders() -> Result<()> {
        let b = path3()?;
        assert_eq!(b.n(), 3);
        assert_eq!(b.borders().len(), 2);
        assert_eq!(b.reverse(0), 1);
        assert_eq!(b.reverse(2), 3);
        assert_eq!(b.border_of(0), b.border_of(1));
        assert_eq!(
            b.borders()[1],
            Border {
                x: 1,
                y: 2,
                xy: 2,
                yx: 3
            }
        );
        Ok(())
    }

    #[test]
    fn refuses_malformed_graphs() {
        let cases: [(&[i64], &[i64], &str); 5] = [
            (&[0, 1, 1], &[1], "1 does not list 0"),
            (&[0, 1, 2], &[0, 0], "lists itself"),
            (&[0, 2, 3], &[1, 1, 0], "edge (0, 1) is listed twice"),
            (&[0, 1, 2], &[5, 0], "outside 0..1"),
            (&[0, 2, 1], &[1, 0], "indptr"),
        ];
        for (indptr, indices, fragment) in cases {
            match Board::from_csr(indptr, indices) {
                Err(Error::InvalidBoard(m)) => assert!(m.contains(fragment), "{m}"),
                other => panic!("expected InvalidBoard({fragment}), got {other:?}"),
            }
        }
    }
}
