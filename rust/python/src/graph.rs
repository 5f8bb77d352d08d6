//! The CSR graph check of `stratagem-core`: the boards' check (`stratagem.graph.check_graph`),
//! which the tests drive with the same graphs as its Python mirror (`graph.check_csr`).

use std::borrow::Cow;

use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use stratagem_core::graph::{Shape, check};

use crate::errors::to_py;

/// `check_graph(offsets, neighbours, node, offsets_name, neighbours_name, min_nodes,
/// max_nodes, isolated_ok, connected)`: raises `InvalidBoard` naming the first defect. Reads
/// the arrays in place (contiguous or not) with the GIL released.
#[pyfunction]
#[pyo3(name = "check")]
#[allow(clippy::too_many_arguments)]
fn check_graph(
    py: Python<'_>,
    offsets: PyReadonlyArray1<'_, i64>,
    neighbours: PyReadonlyArray1<'_, i64>,
    node: &str,
    offsets_name: &str,
    neighbours_name: &str,
    min_nodes: usize,
    max_nodes: usize,
    isolated_ok: bool,
    connected: bool,
) -> PyResult<usize> {
    let shape = Shape {
        node,
        offsets: offsets_name,
        neighbours: neighbours_name,
        min_nodes,
        max_nodes,
        isolated_ok,
        connected,
    };
    let (offsets, neighbours) = (in_place(&offsets), in_place(&neighbours));
    py.detach(|| check(&offsets, &neighbours, &shape))
        .map_err(to_py)
}

/// The array's values, borrowed when it is contiguous, else copied.
fn in_place<'a>(array: &'a PyReadonlyArray1<'_, i64>) -> Cow<'a, [i64]> {
    array.as_slice().map_or_else(
        |_| Cow::Owned(array.as_array().iter().copied().collect()),
        Cow::Borrowed,
    )
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_graph, m)?)
}
