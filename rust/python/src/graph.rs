//! The CSR graphs of `stratagem-core`: the boards' check (`stratagem.graph.check_graph`),
//! which the tests drive with the same graphs as its Python mirror (`graph.check_csr`), and
//! the CSR pair of an edge list (`stratagem.graph.csr`).

use std::borrow::Cow;

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use stratagem_core::graph::{Shape, check, csr_of_edges};

use crate::errors::to_py;
use crate::runtime::{detached_in_pool, thread_count};

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

/// A graph's `(offsets, neighbours)`.
type CsrArrays<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>);

/// `csr(u, v, n, threads=None)`: the CSR pair of the edges `{u[i], v[i]}` on nodes `0..n`,
/// each row ascending, with the GIL released.
#[pyfunction]
#[pyo3(signature = (u, v, n, threads=None))]
fn csr<'py>(
    py: Python<'py>,
    u: PyReadonlyArray1<'py, i64>,
    v: PyReadonlyArray1<'py, i64>,
    n: usize,
    threads: Option<usize>,
) -> PyResult<CsrArrays<'py>> {
    let (u, v) = (in_place(&u), in_place(&v));
    let (offsets, neighbours) =
        detached_in_pool(py, thread_count(threads)?, || csr_of_edges(&u, &v, n))?;
    Ok((offsets.into_pyarray(py), neighbours.into_pyarray(py)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add!(m; functions check_graph, csr);
    Ok(())
}
