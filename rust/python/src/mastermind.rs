//! Bindings of the mastermind engine: scoring, the consistent-code search, strategies,
//! evaluation and contradiction finding. Codes travel as uint8 arrays, a history as a
//! `(k, spots)` array of guesses and a `(k, 2)` array of (black, white).

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use stratagem_core::Cancel;
use stratagem_mastermind::code::{Code, ENUMERABLE_LIMIT};
use stratagem_mastermind::score;
use stratagem_mastermind::search::{self, Order, Problem};
use stratagem_mastermind::strategy::{Strategy, counted, next_guess};
use stratagem_mastermind::{History, Space, contradiction, evaluate, optimal, purpose};

use crate::convert::flat_rows;
use crate::errors::{param, to_py};
use crate::runtime::{interruptible, interruptible_reporting, thread_count};

/// A uint8 column returned to Python.
type Column<'py> = Bound<'py, PyArray1<u8>>;
/// Rows of uint8 (codes, or feedback pairs) returned to Python.
type Rows<'py> = Bound<'py, PyArray2<u8>>;

fn space(spots: usize, colours: usize) -> PyResult<Space> {
    Space::new(spots, colours).map_err(to_py)
}

/// Rows of a `(n, spots)` uint8 array as checked codes; `what` names the array in errors.
fn codes(space: Space, array: &PyReadonlyArray2<'_, u8>, what: &str) -> PyResult<Vec<Code>> {
    let view = array.as_array();
    if view.ncols() != space.spots {
        return Err(param(format!(
            "{what} must have {} columns (one per spot), got shape {:?}",
            space.spots,
            view.shape()
        )));
    }
    view.rows()
        .into_iter()
        .enumerate()
        .map(|(i, row)| {
            let checked = match row.as_slice() {
                Some(colours) => space.code(colours),
                None => space.code(&row.to_vec()),
            };
            checked.map_err(|e| param(format!("{what} row {i}: {e}")))
        })
        .collect()
}

/// A checked space and history: guesses `(k, spots)` and their (black, white) feedback
/// `(k, 2)`. Python checks a history once into this object and hands it to every search.
#[pyclass(module = "stratagem._core.mastermind", name = "History", frozen)]
pub struct PyHistory(History);

#[pymethods]
impl PyHistory {
    #[new]
    fn new(
        spots: usize,
        colours: usize,
        guesses: PyReadonlyArray2<'_, u8>,
        feedback: PyReadonlyArray2<'_, u8>,
    ) -> PyResult<Self> {
        let space = space(spots, colours)?;
        let guesses = codes(space, &guesses, "guesses")?;
        let feedback = feedback.as_array();
        if feedback.ncols() != 2 || feedback.nrows() != guesses.len() {
            return Err(param(format!(
                "feedback must have shape ({}, 2) for {} guesses, got {:?}",
                guesses.len(),
                guesses.len(),
                feedback.shape()
            )));
        }
        let flat: Vec<u8> = guesses
            .iter()
            .flat_map(|g| space.spots_of(g).iter().copied())
            .collect();
        let pairs: Vec<(u8, u8)> = feedback.rows().into_iter().map(|r| (r[0], r[1])).collect();
        History::new(space, &flat, &pairs).map(Self).map_err(to_py)
    }

    #[getter]
    fn spots(&self) -> usize {
        self.0.space.spots
    }

    #[getter]
    fn colours(&self) -> usize {
        self.0.space.colours
    }

    /// The guesses, `(k, spots)`.
    #[getter]
    fn guesses<'py>(&self, py: Python<'py>) -> Rows<'py> {
        guesses_array(py, &self.0)
    }

    /// The (black, white) feedback of each guess, `(k, 2)`.
    #[getter]
    fn feedback<'py>(&self, py: Python<'py>) -> Rows<'py> {
        feedback_array(py, &self.0)
    }

    /// The number of turns.
    fn __len__(&self) -> usize {
        self.0.len()
    }
}

fn prefix_of(space: Space, prefix: Option<PyReadonlyArray1<'_, u8>>) -> PyResult<Vec<u8>> {
    let Some(prefix) = prefix else {
        return Ok(Vec::new());
    };
    let prefix: Vec<u8> = prefix.as_array().iter().copied().collect();
    if prefix.len() > space.spots {
        return Err(param(format!(
            "a prefix has at most {} spots, got {}",
            space.spots,
            prefix.len()
        )));
    }
    if let Some((spot, colour)) = prefix
        .iter()
        .enumerate()
        .find(|&(_, &c)| usize::from(c) >= space.colours)
    {
        return Err(param(format!(
            "prefix spot {spot} has colour {colour}; colours are 0 to {}",
            space.colours - 1
        )));
    }
    Ok(prefix)
}

fn order_of(space: Space, order: Option<PyReadonlyArray2<'_, u8>>) -> PyResult<Order> {
    match order {
        None => Ok(Order::lexicographic()),
        Some(rows) => {
            let view = rows.as_array();
            if view.shape() != [space.spots, space.colours] {
                return Err(param(format!(
                    "a search order has shape ({}, {}), got {:?}",
                    space.spots,
                    space.colours,
                    view.shape()
                )));
            }
            let flat: Vec<u8> = view.iter().copied().collect();
            Order::from_rows(space, &flat).map_err(to_py)
        }
    }
}

fn code_array<'py>(py: Python<'py>, space: Space, code: &Code) -> Bound<'py, PyArray1<u8>> {
    Array1::from(space.spots_of(code).to_vec()).into_pyarray(py)
}

fn codes_array<'py>(py: Python<'py>, space: Space, codes: &[Code]) -> Bound<'py, PyArray2<u8>> {
    let flat: Vec<u8> = codes
        .iter()
        .flat_map(|c| space.spots_of(c).iter().copied())
        .collect();
    Array2::from_shape_vec((codes.len(), space.spots), flat)
        .unwrap_or_else(|_| Array2::zeros((0, space.spots)))
        .into_pyarray(py)
}

/// A history's guesses as `(k, spots)` rows.
fn guesses_array<'py>(py: Python<'py>, history: &History) -> Rows<'py> {
    let guesses: Vec<Code> = history.guesses.iter().map(|g| g.code).collect();
    codes_array(py, history.space, &guesses)
}

/// A history's (black, white) feedback as `(k, 2)` rows.
fn feedback_array<'py>(py: Python<'py>, history: &History) -> Rows<'py> {
    let pairs: Vec<[u8; 2]> = history
        .feedback
        .iter()
        .map(|f| [f.black, f.white])
        .collect();
    Array2::from(pairs).into_pyarray(py)
}

/// `mastermind_score(guesses, secrets, colours)`: black and white of each guess row against
/// the secret row of the same index; either array may have a single row (broadcast).
#[pyfunction]
#[pyo3(name = "score", signature = (guesses, secrets, colours, threads=None))]
fn mastermind_score<'py>(
    py: Python<'py>,
    guesses: PyReadonlyArray2<'py, u8>,
    secrets: PyReadonlyArray2<'py, u8>,
    colours: usize,
    threads: Option<usize>,
) -> PyResult<(Column<'py>, Column<'py>)> {
    let spots = guesses.as_array().ncols();
    let space = space(spots, colours)?;
    if secrets.as_array().ncols() != spots {
        return Err(param(format!(
            "guesses have {spots} spots but secrets have {}",
            secrets.as_array().ncols()
        )));
    }
    // Contiguous arrays (what stratagem.mastermind.score passes) are read in place.
    let (guesses, secrets) = (rows_of(&guesses), rows_of(&secrets));
    let threads = thread_count(threads)?;
    // Small batches are scored on the calling thread: a watched worker thread costs more
    // (~60 us) than scoring them, and they end long before Ctrl-C could matter.
    let rows = guesses.len().max(secrets.len()) / spots.max(1);
    let (black, white) = if rows < score::PARALLEL_ROWS {
        py.detach(|| score::score_rows(space, &guesses, &secrets, 1, &Cancel::new()))
            .map_err(to_py)?
    } else {
        interruptible(py, |cancel| {
            score::score_rows(space, &guesses, &secrets, threads, cancel)
        })?
    };
    Ok((black.into_pyarray(py), white.into_pyarray(py)))
}

/// The rows of `array` flat: borrowed when it is contiguous, else copied.
fn rows_of<'a>(array: &'a PyReadonlyArray2<'_, u8>) -> std::borrow::Cow<'a, [u8]> {
    match array.as_slice() {
        Ok(rows) => std::borrow::Cow::Borrowed(rows),
        Err(_) => std::borrow::Cow::Owned(flat_rows(array).0),
    }
}

/// `mastermind_first(...)`: the first consistent code in the search order (below `prefix`),
/// or None.
#[pyfunction]
#[pyo3(name = "first", signature = (history, prefix=None, order=None, threads=None))]
fn mastermind_first<'py>(
    py: Python<'py>,
    history: &PyHistory,
    prefix: Option<PyReadonlyArray1<'py, u8>>,
    order: Option<PyReadonlyArray2<'py, u8>>,
    threads: Option<usize>,
) -> PyResult<Option<Bound<'py, PyArray1<u8>>>> {
    let (history, space) = (&history.0, history.0.space);
    let prefix = prefix_of(space, prefix)?;
    let order = order_of(space, order)?;
    let threads = thread_count(threads)?;
    let found = interruptible(py, |cancel| {
        search::first(history, &order, &prefix, threads, cancel)
    })?;
    Ok(found.map(|code| code_array(py, space, &code)))
}

/// `mastermind_children(...)`: the viable one-spot extensions of `prefix`, in search order.
#[pyfunction]
#[pyo3(name = "children", signature = (history, prefix, order=None))]
fn mastermind_children<'py>(
    py: Python<'py>,
    history: &PyHistory,
    prefix: PyReadonlyArray1<'py, u8>,
    order: Option<PyReadonlyArray2<'py, u8>>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let (history, space) = (&history.0, history.0.space);
    let prefix = prefix_of(space, Some(prefix))?;
    let order = order_of(space, order)?;
    let children = Problem::new(history, &order).children(&prefix);
    let width = prefix.len() + 1;
    let flat: Vec<u8> = children.concat();
    let rows = if width > space.spots {
        0
    } else {
        children.len()
    };
    Ok(Array2::from_shape_vec((rows, width.min(space.spots)), flat)
        .unwrap_or_else(|_| Array2::zeros((0, width.min(space.spots))))
        .into_pyarray(py))
}

/// `mastermind_count(...)`: the exact number of consistent codes (below `prefix`);
/// `progress(done)` is called about every 20 ms, `done` growing to `COUNT_PROGRESS`.
#[pyfunction]
#[pyo3(name = "count", signature = (history, prefix=None, threads=None, progress=None))]
fn mastermind_count(
    py: Python<'_>,
    history: &PyHistory,
    prefix: Option<PyReadonlyArray1<'_, u8>>,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<u128> {
    let prefix = prefix_of(history.0.space, prefix)?;
    let threads = thread_count(threads)?;
    let done = Arc::new(AtomicU64::new(0));
    let small = history
        .0
        .space
        .enumerable_size()
        .is_some_and(|size| size <= search::SERIAL_COUNT_CODES);
    small_or_watched(py, small, progress.as_ref(), &done, |cancel| {
        search::count(&history.0, &prefix, threads, cancel, &done)
    })
}

/// Runs `work`: small work on the calling thread (the GIL released) and with one report of
/// `done` at the end, since it ends long before Ctrl-C or a progress bar could matter; other
/// work watched.
fn small_or_watched<T, F>(
    py: Python<'_>,
    small: bool,
    progress: Option<&Py<PyAny>>,
    done: &Arc<AtomicU64>,
    work: F,
) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Cancel) -> stratagem_core::Result<T> + Send,
{
    if !small {
        return interruptible_reporting(py, work, progress.map(|callback| (callback, done)));
    }
    let result = py.detach(|| work(&Cancel::new())).map_err(to_py)?;
    if let Some(callback) = progress {
        callback.call1(py, (done.load(std::sync::atomic::Ordering::Relaxed),))?;
    }
    Ok(result)
}

/// `mastermind_estimate(...)`: Knuth's estimate of the number of consistent codes, as
/// (mean, standard error).
#[pyfunction]
#[pyo3(name = "estimate", signature = (history, probes, seed, threads=None))]
fn mastermind_estimate(
    py: Python<'_>,
    history: &PyHistory,
    probes: u64,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<(f64, f64)> {
    let threads = thread_count(threads)?;
    interruptible(py, |cancel| {
        search::estimate(&history.0, probes, seed, threads, cancel)
    })
}

/// `mastermind_consistent(...)`: every consistent code, lexicographic (enumerable spaces).
#[pyfunction]
#[pyo3(name = "consistent", signature = (history, threads=None))]
fn mastermind_consistent<'py>(
    py: Python<'py>,
    history: &PyHistory,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let space = history.0.space;
    let small = space
        .enumerable_size()
        .is_some_and(|size| size <= search::SERIAL_COUNT_CODES);
    let threads = thread_count(threads)?;
    let threads = if small { 1 } else { threads };
    let found = small_or_watched(py, small, None, &Arc::default(), |cancel| {
        search::all_consistent(&history.0, threads, cancel)
    })?;
    Ok(codes_array(py, space, &found))
}

/// `mastermind_shuffled_order(spots, colours, seed)`: the `first` strategy's shuffled order.
#[pyfunction]
#[pyo3(name = "shuffled_order")]
fn mastermind_shuffled_order<'py>(
    py: Python<'py>,
    spots: usize,
    colours: usize,
    seed: u64,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let space = space(spots, colours)?;
    let order = Order::shuffled(space, |spot| {
        stratagem_core::rng::Stream::new(seed, purpose::ORDER, &[spot as u64])
    })
    .map_err(to_py)?;
    Array2::from_shape_vec((spots, colours), order.rows(space))
        .map_err(|e| param(e.to_string()))
        .map(|a| a.into_pyarray(py))
}

/// `mastermind_next_guess(...)`: the strategy's guess after the history, or None when no code
/// is consistent with it.
#[pyfunction]
#[pyo3(name = "next_guess", signature = (history, strategy, seed=0, order="lex", threads=None))]
fn mastermind_next_guess<'py>(
    py: Python<'py>,
    history: &PyHistory,
    strategy: &str,
    seed: u64,
    order: &str,
    threads: Option<usize>,
) -> PyResult<Option<Bound<'py, PyArray1<u8>>>> {
    let (history, space) = (&history.0, history.0.space);
    let strategy = Strategy::parse(strategy, order).map_err(to_py)?;
    let threads = thread_count(threads)?;
    let found = interruptible(py, |cancel| {
        next_guess(history, strategy, seed, threads, cancel)
    })?;
    Ok(found.map(|code| code_array(py, space, &code)))
}

/// `mastermind_solve(secret, colours, strategy, seed=0, order="lex", threads=None,
/// progress=None)`: plays the strategy against the secret until it is found; the guesses
/// `(k, spots)` and their feedbacks `(k, 2)`. `progress(blacks)` is called about every 20 ms
/// with the most black pegs a guess has had so far.
#[pyfunction]
#[pyo3(name = "solve", signature = (secret, colours, strategy, seed=0, order="lex", threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn mastermind_solve<'py>(
    py: Python<'py>,
    secret: PyReadonlyArray1<'py, u8>,
    colours: usize,
    strategy: &str,
    seed: u64,
    order: &str,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<(Rows<'py>, Rows<'py>)> {
    let colours_of_secret: Vec<u8> = secret.as_array().iter().copied().collect();
    let space = space(colours_of_secret.len(), colours)?;
    let secret = space
        .code(&colours_of_secret)
        .map_err(|e| param(format!("secret: {e}")))?;
    let strategy = Strategy::parse(strategy, order).map_err(to_py)?;
    let threads = thread_count(threads)?;
    let blacks = Arc::new(AtomicU64::new(0));
    let report = progress.as_ref().map(|callback| (callback, &blacks));
    let history = interruptible_reporting(
        py,
        |cancel| evaluate::play(space, strategy, seed, &secret, threads, cancel, &blacks),
        report,
    )?;
    Ok((guesses_array(py, &history), feedback_array(py, &history)))
}

/// `mastermind_contradiction(...)`: a smallest set of turns whose feedbacks contradict each
/// other, or None when some code fits.
#[pyfunction]
#[pyo3(name = "contradiction", signature = (history, threads=None))]
fn mastermind_contradiction(
    py: Python<'_>,
    history: &PyHistory,
    threads: Option<usize>,
) -> PyResult<Option<Vec<usize>>> {
    let threads = thread_count(threads)?;
    interruptible(py, |cancel| {
        contradiction::smallest_contradiction(&history.0, threads, cancel)
    })
}

/// `mastermind_sample_secrets(spots, colours, count, seed)`: the seeded sample of secrets.
#[pyfunction]
#[pyo3(name = "sample_secrets")]
fn mastermind_sample_secrets<'py>(
    py: Python<'py>,
    spots: usize,
    colours: usize,
    count: u64,
    seed: u64,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let space = space(spots, colours)?;
    const MOST: u64 = 1 << 26;
    if count > MOST {
        return Err(param(format!(
            "a sample has at most {MOST} secrets, got {count}"
        )));
    }
    let secrets = evaluate::sample_secrets(space, count, seed).map_err(to_py)?;
    Ok(codes_array(py, space, &secrets))
}

/// `mastermind_evaluate(...)`: the number of guesses the strategy takes for each secret row;
/// `progress(done)` is called about every 20 ms with the number of secrets finished.
#[pyfunction]
#[pyo3(name = "evaluate", signature = (spots, colours, strategy, secrets, seed=0, order="lex", threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn mastermind_evaluate<'py>(
    py: Python<'py>,
    spots: usize,
    colours: usize,
    strategy: &str,
    secrets: PyReadonlyArray2<'py, u8>,
    seed: u64,
    order: &str,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let space = space(spots, colours)?;
    let strategy = Strategy::parse(strategy, order).map_err(to_py)?;
    let secrets = codes(space, &secrets, "secrets")?;
    let threads = thread_count(threads)?;
    let done = Arc::new(AtomicU64::new(0));
    let small = evaluate::is_small(space, strategy);
    let guesses = small_or_watched(py, small, progress.as_ref(), &done, |cancel| {
        evaluate::evaluate(space, strategy, seed, &secrets, threads, cancel, &done)
    })?;
    Ok(guesses.into_pyarray(py))
}

/// `mastermind_optimal_cost(...)`: the optimal total number of guesses over every code
/// consistent with the history.
#[pyfunction]
#[pyo3(name = "optimal_cost", signature = (history, threads=None))]
fn mastermind_optimal_cost(
    py: Python<'_>,
    history: &PyHistory,
    threads: Option<usize>,
) -> PyResult<u64> {
    let history = &history.0;
    optimal::check_space(history.space).map_err(to_py)?;
    let threads = thread_count(threads)?;
    interruptible(py, |cancel| {
        let candidates = counted(&search::all_consistent(history, threads, cancel)?);
        optimal::optimum(history, &candidates, threads, cancel).map(|best| best.total)
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("STRATEGIES", Strategy::NAMES)?;
    add!(m; classes PyHistory; functions mastermind_score, mastermind_first, mastermind_children,
        mastermind_count, mastermind_estimate, mastermind_consistent, mastermind_shuffled_order,
        mastermind_next_guess, mastermind_solve, mastermind_contradiction,
        mastermind_sample_secrets, mastermind_evaluate, mastermind_optimal_cost);
    m.add("ENUMERABLE_LIMIT", ENUMERABLE_LIMIT)?;
    m.add("OPTIMAL_LIMIT", optimal::OPTIMAL_LIMIT)?;
    m.add("COUNT_PROGRESS", search::COUNT_PROGRESS)?;
    Ok(())
}
