//! The extension module `stratagem._core`: a thin PyO3 layer over `stratagem-core`.
//!
//! Each file binds one area of the core into its own submodule (`_core.rng`, `_core.graph`, one
//! per game); conversions and validation of Python objects happen here, the work happens in
//! plain Rust.

use pyo3::prelude::*;

/// Adds `#[pyclass]` types and `#[pyfunction]`s to the module `m`:
/// `add!(m; classes A, B; functions f, g)` (either part may be left out).
macro_rules! add {
    ($m:ident $(; classes $($class:ty),+)? $(; functions $($function:ident),+)? $(;)?) => {
        $($($m.add_class::<$class>()?;)+)?
        $($($m.add_function(wrap_pyfunction!($function, $m)?)?;)+)?
    };
}

mod annexation;
mod conquest;
mod conquest_part;
mod conquest_start;
mod convert;
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
    submodule(m, "rng", &[rng::register])?;
    submodule(m, "graph", &[graph::register])?;
    submodule(m, "annexation", &[annexation::register])?;
    submodule(
        m,
        "conquest",
        &[
            conquest::register,
            conquest_part::register,
            conquest_start::register,
        ],
    )?;
    submodule(m, "diplomacy", &[diplomacy::register])?;
    submodule(m, "mastermind", &[mastermind::register])?;
    submodule(m, "outpost", &[outpost::register])?;
    Ok(())
}

type Register = fn(&Bound<'_, PyModule>) -> PyResult<()>;

/// `stratagem._core.<name>`, filled by `registers`; entered in `sys.modules` so that
/// `import stratagem._core.<name>` works as for a Python package.
fn submodule(parent: &Bound<'_, PyModule>, name: &str, registers: &[Register]) -> PyResult<()> {
    let py = parent.py();
    let module = PyModule::new(py, name)?;
    for register in registers {
        register(&module)?;
    }
    parent.add_submodule(&module)?;
    let qualified = format!("stratagem._core.{name}");
    module.setattr("__name__", &qualified)?;
    py.import("sys")?
        .getattr("modules")?
        .set_item(qualified, &module)?;
    Ok(())
}
