//! Bindings of the diplomacy engine: a board and a position built once from the arrays of
//! `stratagem.diplomacy`, then counting, listing, evaluation, the searches and the open
//! problem.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use stratagem_core::parallel;
use stratagem_diplomacy::board::Board;
use stratagem_diplomacy::evaluate::Weights;
use stratagem_diplomacy::search::{self, Budget, Outcome, Problem};
use stratagem_diplomacy::{Choices, Convention, Position, Unit, open_problem};

use crate::errors::{param, to_py};
use crate::runtime::{interruptible_reporting, thread_count};

fn ints(array: &PyReadonlyArray1<'_, i64>) -> Vec<i64> {
    array.as_array().iter().copied().collect()
}

/// A power's share of the open problem's answer: `(units, centres, open_homes, choices,
/// previous)`.
type ShareTuple = (usize, usize, Vec<usize>, u128, usize);

/// The map as the engine sees it.
#[pyclass(module = "stratagem._core", frozen)]
pub struct DiplomacyBoard {
    board: Arc<Board>,
}

#[pymethods]
impl DiplomacyBoard {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        powers: usize,
        kind: PyReadonlyArray1<'_, i64>,
        centre_province: PyReadonlyArray1<'_, i64>,
        centre_home: PyReadonlyArray1<'_, i64>,
        army_province: PyReadonlyArray1<'_, i64>,
        fleet_province: PyReadonlyArray1<'_, i64>,
        army_offsets: PyReadonlyArray1<'_, i64>,
        army_targets: PyReadonlyArray1<'_, i64>,
        fleet_offsets: PyReadonlyArray1<'_, i64>,
        fleet_targets: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<Self> {
        let board = Board::new(
            powers,
            &ints(&kind),
            &ints(&centre_province),
            &ints(&centre_home),
            &ints(&army_province),
            &ints(&fleet_province),
            (&ints(&army_offsets), &ints(&army_targets)),
            (&ints(&fleet_offsets), &ints(&fleet_targets)),
        )
        .map_err(to_py)?;
        Ok(Self {
            board: Arc::new(board),
        })
    }

    /// `open_problem(convention, victory)`: `(total, shares)`, a share per power
    /// `(units, centres, open_homes, choices, previous)` with open homes as indices into the
    /// power's home centres.
    fn open_problem(
        &self,
        py: Python<'_>,
        convention: &str,
        victory: bool,
    ) -> PyResult<(u128, Vec<ShareTuple>)> {
        let convention = Convention::parse(convention).map_err(to_py)?;
        let board = Arc::clone(&self.board);
        let answer = py
            .detach(move || open_problem::solve(&board, convention, victory))
            .map_err(to_py)?;
        Ok((
            answer.total,
            answer
                .shares
                .into_iter()
                .map(|s| (s.units, s.centres, s.open_homes, s.choices, s.previous))
                .collect(),
        ))
    }
}

fn weights_from(weights: [i64; 4]) -> Weights {
    let [centre, unit, reach, threat] = weights;
    Weights {
        centre,
        unit,
        reach,
        threat,
    }
}

/// A checked position on a board.
#[pyclass(module = "stratagem._core", frozen)]
pub struct DiplomacyPosition {
    board: Arc<Board>,
    position: Position,
}

impl DiplomacyPosition {
    fn choices(&self, power: usize, convention: &str) -> PyResult<Choices> {
        let convention = Convention::parse(convention).map_err(to_py)?;
        if power >= self.board.powers {
            return Err(param(format!(
                "power {power} does not exist; the map has {} powers",
                self.board.powers
            )));
        }
        Ok(Choices::of(
            &self.board,
            &self.position,
            power as u8,
            convention,
        ))
    }
}

fn outcome_dict<'py>(
    py: Python<'py>,
    outcome: Outcome,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let dict = pyo3::types::PyDict::new(py);
    dict.set_item("profile", outcome.profile)?;
    dict.set_item("values", outcome.values.into_pyarray(py))?;
    dict.set_item("finished", outcome.finished)?;
    dict.set_item("evaluations", outcome.evaluations)?;
    dict.set_item("cycle", outcome.cycle)?;
    Ok(dict)
}

#[pymethods]
impl DiplomacyPosition {
    #[new]
    fn new(
        board: &DiplomacyBoard,
        unit_power: PyReadonlyArray1<'_, i64>,
        unit_fleet: PyReadonlyArray1<'_, bool>,
        unit_location: PyReadonlyArray1<'_, i64>,
        owner: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<Self> {
        let (powers, fleets, locations) = (
            ints(&unit_power),
            unit_fleet.as_array().to_vec(),
            ints(&unit_location),
        );
        if powers.len() != fleets.len() || powers.len() != locations.len() {
            return Err(param(
                "unit_power, unit_fleet and unit_location differ in length",
            ));
        }
        let mut units = Vec::with_capacity(powers.len());
        for (i, ((&p, &fleet), &l)) in powers.iter().zip(&fleets).zip(&locations).enumerate() {
            match (u8::try_from(p), u16::try_from(l)) {
                (Ok(power), Ok(location)) => units.push(Unit {
                    power,
                    fleet,
                    location,
                }),
                _ => {
                    return Err(param(format!(
                        "unit {i} has power {p} and location {l}, out of range"
                    )));
                }
            }
        }
        let owner: Vec<i8> = ints(&owner)
            .iter()
            .map(|&o| i8::try_from(o).unwrap_or(i8::MIN))
            .collect();
        let position = Position::new(&board.board, units, owner).map_err(to_py)?;
        Ok(Self {
            board: Arc::clone(&board.board),
            position,
        })
    }

    /// `counts(convention)`: the number of options of each power (exact integers).
    fn counts(&self, convention: &str) -> PyResult<Vec<u128>> {
        (0..self.board.powers)
            .map(|p| Ok(self.choices(p, convention)?.count()))
            .collect()
    }

    /// `options(power, convention, start, stop)`: options `start..stop` of `power` in listing
    /// order, in slot form, as an `(n, slots)` uint8 array.
    fn options<'py>(
        &self,
        py: Python<'py>,
        power: usize,
        convention: &str,
        start: u128,
        stop: u128,
    ) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let choices = self.choices(power, convention)?;
        let stop = stop.min(choices.count());
        let rows = usize::try_from(stop.saturating_sub(start))
            .map_err(|_| param("too many options for one batch"))?;
        let width = choices.slots();
        let mut data = Vec::with_capacity(rows * width);
        let mut slots = Vec::new();
        for index in start..start + rows as u128 {
            choices.unrank(index, &mut slots).map_err(to_py)?;
            data.extend_from_slice(&slots);
        }
        let array = Array2::from_shape_vec((rows, width), data)
            .map_err(|e| param(format!("batch shape: {e}")))?;
        Ok(array.into_pyarray(py))
    }

    /// `rank(power, convention, slots)`: the index of an option given in slot form.
    fn rank(&self, power: usize, convention: &str, slots: Vec<u8>) -> PyResult<u128> {
        self.choices(power, convention)?
            .rank(&slots)
            .ok_or_else(|| param(format!("{slots:?} is not an option of power {power}")))
    }

    /// `values(convention, profile, weights)`: every power's value when each plays its option
    /// of `profile` (indices; `None` for doing nothing).
    fn values<'py>(
        &self,
        py: Python<'py>,
        convention: &str,
        profile: Vec<Option<u128>>,
        weights: [i64; 4],
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        if profile.len() != self.board.powers {
            return Err(param(format!(
                "a profile has one entry per power ({}), got {}",
                self.board.powers,
                profile.len()
            )));
        }
        let convention = Convention::parse(convention).map_err(to_py)?;
        let problem = Problem::new(
            &self.board,
            &self.position,
            convention,
            weights_from(weights),
        );
        let values = problem.values_of(&profile).map_err(to_py)?;
        Ok(values.into_pyarray(py))
    }

    /// `search(method, convention, weights, seed, steps, max_evaluations, time_limit, start,
    /// threads, progress)`: a search of `docs/diplomacy-rules.md` as a dict.
    #[pyo3(signature = (method, convention, weights, seed, steps, max_evaluations, time_limit=None, start=None, threads=None, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &self,
        py: Python<'py>,
        method: &str,
        convention: &str,
        weights: [i64; 4],
        seed: u64,
        steps: u64,
        max_evaluations: u64,
        time_limit: Option<f64>,
        start: Option<Vec<u128>>,
        threads: Option<usize>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let convention = Convention::parse(convention).map_err(to_py)?;
        if !["preliminary", "anneal", "combined"].contains(&method) {
            return Err(param(format!(
                "unknown method {method:?}; the methods are preliminary, anneal and combined"
            )));
        }
        let deadline = match time_limit {
            Some(seconds) if seconds.is_finite() && seconds > 0.0 => {
                Some(Instant::now() + Duration::from_secs_f64(seconds))
            }
            Some(seconds) => {
                return Err(param(format!(
                    "time_limit must be a positive number of seconds, got {seconds}"
                )));
            }
            None => None,
        };
        let budget = Budget {
            evaluations: max_evaluations,
            deadline,
        };
        let threads = thread_count(threads)?;
        let done = AtomicU64::new(0);
        let report = progress.as_ref().map(|callback| (callback, &done));
        let (board, position) = (&self.board, &self.position);
        let outcome = interruptible_reporting(
            py,
            |cancel| {
                let problem = Problem::new(board, position, convention, weights_from(weights));
                let pool = parallel::pool(threads)?;
                pool.install(|| match method {
                    "preliminary" => search::preliminary(&problem, &budget, cancel, &done),
                    "anneal" => {
                        let start = match &start {
                            Some(s) => s.clone(),
                            None => search::preliminary(&problem, &budget, cancel, &done)?.profile,
                        };
                        search::anneal(&problem, &start, seed, steps, &budget, cancel, &done)
                    }
                    _ => search::combined(&problem, &budget, cancel, &done),
                })
            },
            report,
        )?;
        outcome_dict(py, outcome)
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<DiplomacyBoard>()?;
    m.add_class::<DiplomacyPosition>()?;
    Ok(())
}
