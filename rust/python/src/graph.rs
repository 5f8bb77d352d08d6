//! The CSR graph check of `stratagem-core`, bound so that the tests can drive it and its
//! Python mirror (`stratagem.graph.check_csr`) with the same graphs.

use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use stratagem_core::graph::{Shape, check};

use crate::errors::to_py;

/// `check_graph(offsets, neighbours, node, offsets_name, neighbours_name, min_nodes,
/// max_nodes, isolated_ok, connected)`: raises `InvalidBoard` naming the first defect.
#[pyfunction]
#[pyo3(name = "check")]
#[allow(clippy::too_many_arguments)]
fn check_graph(
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
    let (offsets, neighbours) = (offsets.as_array(), neighbours.as_array());
    let offsets: Vec<i64> = offsets.iter().copied().collect();
    let neighbours: Vec<i64> = neighbours.iter().copied().collect();
    check(&offsets, &neighbours, &shape).map_err(to_py)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_graph, m)?)
}
