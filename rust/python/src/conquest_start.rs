//! Bindings of what starts a conquest game on a large board: a grid's CSR, the borders of a
//! preferential-attachment board and the regions of `stratagem.conquest.board.assign_regions`
//! (on a CSR or on the engine's board), with the GIL released; the long ones can be
//! interrupted and report how far they are.

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use stratagem_conquest::attachment::barabasi_albert;
use stratagem_conquest::share::Grid;
use stratagem_conquest::start::{board_regions, regions};

use crate::conquest::PyBoard;
use crate::errors::to_py;
use crate::runtime::{counted_in_pool, thread_count};

/// A board's `(indptr, indices)`.
type CsrArrays<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>);

/// `grid_csr(rows, cols, torus)`: `(indptr, indices)` of the grid `grid:{rows}x{cols}`
/// (`:torus`), the arrays of `stratagem.conquest.boards.layouts.grid`.
#[pyfunction]
fn grid_csr(py: Python<'_>, rows: i64, cols: i64, torus: bool) -> PyResult<CsrArrays<'_>> {
    let grid = Grid { rows, cols, torus };
    let (indptr, indices) = py.detach(|| grid.csr()).map_err(to_py)?;
    Ok((indptr.into_pyarray(py), indices.into_pyarray(py)))
}

/// `attachment_csr(n, m, seed, progress=None)`: `(indptr, indices)` of the board `ba:{n}:{m}`
/// with `seed` (`stratagem.conquest.boards.layouts.barabasi_albert`); `progress(added)` counts the
/// territories added.
#[pyfunction]
#[pyo3(signature = (n, m, seed, progress=None))]
fn attachment_csr(
    py: Python<'_>,
    n: usize,
    m: usize,
    seed: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<CsrArrays<'_>> {
    let (indptr, indices) = counted_in_pool(py, 1, progress.as_ref(), |cancel, added| {
        barabasi_albert(n, m, seed, cancel, added)
    })?;
    Ok((indptr.into_pyarray(py), indices.into_pyarray(py)))
}

/// `regions_of(indptr, indices, starts, progress=None)`: the team of every territory when team
/// `t` grows from `starts[t]` (`stratagem.conquest.board.assign_regions`), -1 where no start
/// reaches; the board's arrays are read in place. `progress(reached)` is called as it grows.
#[pyfunction]
#[pyo3(signature = (indptr, indices, starts, progress=None))]
fn regions_of<'py>(
    py: Python<'py>,
    indptr: PyReadonlyArray1<'py, i64>,
    indices: PyReadonlyArray1<'py, i64>,
    starts: PyReadonlyArray1<'py, i64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let (indptr, indices, starts) = (indptr.as_slice()?, indices.as_slice()?, starts.as_slice()?);
    let team = counted_in_pool(
        py,
        thread_count(None)?,
        progress.as_ref(),
        |cancel, reached| regions(indptr, indices, starts, cancel, reached),
    )?;
    Ok(team.into_pyarray(py))
}

/// `board_regions(board, starts, progress=None)`: [`regions_of`] on the engine's board
/// (`Board`), for a board Python does not hold as arrays (`Board.grid`).
#[pyfunction]
#[pyo3(name = "board_regions", signature = (board, starts, progress=None))]
fn regions_on_board<'py>(
    py: Python<'py>,
    board: &PyBoard,
    starts: PyReadonlyArray1<'py, i64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let (board, starts) = (&board.inner, starts.as_slice()?);
    let team = counted_in_pool(
        py,
        thread_count(None)?,
        progress.as_ref(),
        |cancel, reached| board_regions(board, starts, cancel, reached),
    )?;
    Ok(team.into_pyarray(py))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add!(m; functions attachment_csr, grid_csr, regions_of, regions_on_board);
    Ok(())
}
