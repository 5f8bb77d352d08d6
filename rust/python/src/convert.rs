//! Values between Python and the engines: 2-D arrays, which the engines take and give flat,
//! row by row, and time budgets.

use numpy::ndarray::Array2;
use numpy::{Element, IntoPyArray, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;

use std::time::Duration;

use crate::errors::{internal, param};

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

/// The longest time budget a search takes: about 116 days (a longer one, like an infinite or
/// NaN one, is a mistake, and `Duration` cannot hold every float).
const LONGEST_SECONDS: f64 = 1e7;

/// `seconds` as a `Duration`, refused naming `name` unless positive, finite and at most
/// `LONGEST_SECONDS`.
pub fn seconds(name: &str, seconds: f64) -> PyResult<Duration> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= LONGEST_SECONDS {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(param(format!(
            "{name} must be a positive number of seconds, got {seconds:?} (at most {LONGEST_SECONDS:e})"
        )))
    }
}
