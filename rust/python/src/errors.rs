//! Maps the core's error kinds onto the Python classes of `stratagem.errors`, message intact.

use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;
use stratagem_core::Error;

pyo3::import_exception!(stratagem.errors, InvalidBoard);
pyo3::import_exception!(stratagem.errors, InvalidMove);
pyo3::import_exception!(stratagem.errors, InvalidParameter);
pyo3::import_exception!(stratagem.errors, InconsistentInput);

/// The Python exception for a core error.
pub fn to_py(error: Error) -> PyErr {
    match error {
        Error::InvalidBoard(m) => InvalidBoard::new_err(m),
        Error::InvalidMove(m) => InvalidMove::new_err(m),
        Error::InvalidParameter(m) => InvalidParameter::new_err(m),
        Error::InconsistentInput(m) => InconsistentInput::new_err(m),
        Error::Interrupted => PyKeyboardInterrupt::new_err("interrupted"),
    }
}

/// The error raised when a worker thread panicked: a bug in stratagem, never user input.
pub fn internal(what: &str) -> PyErr {
    PyRuntimeError::new_err(format!(
        "internal error in stratagem ({what}); please report it with the call that caused it"
    ))
}

/// `InvalidParameter` with a message, for checks done in the binding layer.
pub fn param(message: impl Into<String>) -> PyErr {
    InvalidParameter::new_err(message.into())
}
