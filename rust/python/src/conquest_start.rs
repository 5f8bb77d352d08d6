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

/// `regions_of(indptr, indices, first, teams, progress=None)`: the team of every territory in
/// the regions dealt to `teams` teams from the territory `first`
/// (`stratagem.conquest.board.assign_regions`); the board's arrays are read in place.
/// `progress(placed)` counts the territories placed in the order.
#[pyfunction]
#[pyo3(signature = (indptr, indices, first, teams, progress=None))]
fn regions_of<'py>(
    py: Python<'py>,
    indptr: PyReadonlyArray1<'py, i64>,
    indices: PyReadonlyArray1<'py, i64>,
    first: i64,
    teams: usize,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let (indptr, indices) = (indptr.as_slice()?, indices.as_slice()?);
    let team = counted_in_pool(
        py,
        thread_count(None)?,
        progress.as_ref(),
        |cancel, placed| regions(indptr, indices, first, teams, cancel, placed),
    )?;
    Ok(team.into_pyarray(py))
}

/// `board_regions(board, first, teams, progress=None)`: [`regions_of`] on the engine's board
/// (`Board`), for a board Python does not hold as arrays (`Board.grid`).
#[pyfunction]
#[pyo3(name = "board_regions", signature = (board, first, teams, progress=None))]
fn regions_on_board<'py>(
    py: Python<'py>,
    board: &PyBoard,
    first: i64,
    teams: usize,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let board = &board.inner;
    let team = counted_in_pool(
        py,
        thread_count(None)?,
        progress.as_ref(),
        |cancel, placed| board_regions(board, first, teams, cancel, placed),
    )?;
    Ok(team.into_pyarray(py))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add!(m; functions attachment_csr, grid_csr, regions_of, regions_on_board);
    Ok(())
}
