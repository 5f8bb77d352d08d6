//! The extension module `stratagem._core`: a thin PyO3 layer over `stratagem-core`.
//!
//! Each file binds one area of the core; conversions and validation of Python objects happen
//! here, the work happens in plain Rust.

use pyo3::prelude::*;

mod annexation;
mod conquest;
mod conquest_part;
mod diplomacy;
mod errors;
mod graph;
mod mastermind;
mod outpost;
mod rng;
mod runtime;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "BUILD_PROFILE",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
    )?;
    runtime::register(m)?;
    rng::register(m)?;
    graph::register(m)?;
    annexation::register(m)?;
    conquest::register(m)?;
    conquest_part::register(m)?;
    diplomacy::register(m)?;
    mastermind::register(m)?;
    outpost::register(m)?;
    Ok(())
}
