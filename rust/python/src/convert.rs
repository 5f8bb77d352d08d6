//! 2-D arrays between numpy and the engines, which take and give them flat, row by row.

use numpy::ndarray::Array2;
use numpy::{Element, IntoPyArray, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::errors::internal;

/// A 2-D array's values row by row, with its `[rows, columns]`.
pub fn flat_rows<T: Element + Copy>(array: &PyReadonlyArray2<'_, T>) -> (Vec<T>, [usize; 2]) {
    let view = array.as_array();
    (view.iter().copied().collect(), [view.nrows(), view.ncols()])
}

/// An engine's row-by-row `values` as a `(rows, columns)` array; values that do not fill it
/// exactly are a bug in stratagem.
pub fn rows_array<T: Element>(
    py: Python<'_>,
    (rows, columns): (usize, usize),
    values: Vec<T>,
) -> PyResult<Bound<'_, PyArray2<T>>> {
    Array2::from_shape_vec((rows, columns), values)
        .map(|array| array.into_pyarray(py))
        .map_err(|e| internal(&e.to_string()))
}
