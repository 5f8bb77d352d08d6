//! Bindings of the diplomacy engine: a board and a position built once from the arrays of
//! `stratagem.diplomacy`, then counting, listing, evaluation, the searches and the open
//! problem.

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use stratagem_core::parallel;
use stratagem_diplomacy::board::Board;
use stratagem_diplomacy::evaluate::{Scratch, Weights};
use stratagem_diplomacy::search::{
    self, After, Budget, Combined, CombinedState, Ending, Evaluator, Limits, Outcome, Problem,
};
use stratagem_diplomacy::{Choices, Convention, Position, Unit, open_problem, retreat};

use crate::convert;
use crate::errors::{param, to_py};
use crate::runtime::{interruptible_reporting, thread_count};

fn ints(array: &PyReadonlyArray1<'_, i64>) -> Vec<i64> {
    array.as_array().iter().copied().collect()
}

/// Where a kind of unit may move, as CSR `(offsets, targets)` over its locations.
type Moves<'py> = (PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>);

/// A power's share of the open problem's answer: `(units, centres, open_homes, choices,
/// previous)`.
type ShareTuple = (usize, usize, Vec<usize>, u128, usize);

/// The map as the engine sees it.
#[pyclass(module = "stratagem._core.diplomacy", name = "Board", frozen)]
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
        army_moves: Moves<'_>,
        fleet_moves: Moves<'_>,
    ) -> PyResult<Self> {
        let board = Board::new(
            powers,
            &ints(&kind),
            &ints(&centre_province),
            &ints(&centre_home),
            &ints(&army_province),
            &ints(&fleet_province),
            (&ints(&army_moves.0), &ints(&army_moves.1)),
            (&ints(&fleet_moves.0), &ints(&fleet_moves.1)),
        )
        .map_err(to_py)?;
        Ok(Self {
            board: Arc::new(board),
        })
    }

    /// `open_problem(convention, victory, units=None)`: `(total, shares)`, a share per power
    /// `(units, centres, open_homes, choices, previous)` with open homes as indices into the
    /// power's home centres; `units` fixes each power's units (map order).
    #[pyo3(signature = (convention, victory, units=None))]
    fn open_problem(
        &self,
        py: Python<'_>,
        convention: &str,
        victory: bool,
        units: Option<Vec<usize>>,
    ) -> PyResult<(u128, Vec<ShareTuple>)> {
        let convention = Convention::parse(convention).map_err(to_py)?;
        let board = Arc::clone(&self.board);
        let answer = py
            .detach(move || open_problem::solve(&board, convention, victory, units.as_deref()))
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
#[pyclass(module = "stratagem._core.diplomacy", name = "Position", frozen)]
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

fn budget(max_evaluations: u64, time_limit: Option<f64>) -> PyResult<Budget> {
    let deadline = match time_limit {
        Some(limit) => Some(Instant::now() + convert::seconds("time_limit", limit)?),
        None => None,
    };
    Ok(Budget {
        evaluations: max_evaluations,
        deadline,
    })
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
        if rows > 0 {
            choices.list(start, rows, &mut data).map_err(to_py)?;
        }
        let array = Array2::from_shape_vec((rows, width), data)
            .map_err(|e| param(format!("batch shape: {e}")))?;
        Ok(array.into_pyarray(py))
    }

    /// `retreat_options(fleet, location, attacker, standoffs)`: where a dislodged unit on
    /// `location` may retreat (locations), the position holding the units after the moves;
    /// `attacker` and `standoffs` are provinces.
    fn retreat_options(
        &self,
        fleet: bool,
        location: u16,
        attacker: usize,
        standoffs: Vec<usize>,
    ) -> PyResult<Vec<u16>> {
        let dislodged = Unit {
            power: 0,
            fleet,
            location,
        };
        retreat::options(
            &self.board,
            &self.position.units,
            dislodged,
            attacker,
            &standoffs,
        )
        .map_err(to_py)
    }

    /// `retreat_plan(power, dislodged, standoffs, convention, capture, weights, joint)`: the
    /// power's retreat-then-adjust plan (`joint` false) or disband-and-build plan, as
    /// `(retreat, option, value)`; `dislodged` lists `(fleet, location, attacker)` of its
    /// dislodged units (a retreat: a location each, `None` to disband).
    #[allow(clippy::too_many_arguments)]
    fn retreat_plan(
        &self,
        py: Python<'_>,
        power: u8,
        dislodged: Vec<(bool, u16, usize)>,
        standoffs: Vec<usize>,
        convention: &str,
        capture: bool,
        weights: [i64; 4],
        joint: bool,
    ) -> PyResult<(Vec<Option<u16>>, u128, i64)> {
        let convention = Convention::parse(convention).map_err(to_py)?;
        if usize::from(power) >= self.board.powers {
            return Err(param(format!("power {power} does not exist")));
        }
        let weights = weights_from(weights);
        let retreats = retreat::Retreats {
            board: &self.board,
            position: &self.position,
            power,
            dislodged: dislodged
                .into_iter()
                .map(|(fleet, location, attacker)| retreat::Dislodged {
                    unit: Unit {
                        power,
                        fleet,
                        location,
                    },
                    attacker,
                })
                .collect(),
            standoffs,
            capture,
            convention,
            evaluator: &weights,
        };
        let plan = py
            .detach(|| {
                if joint {
                    retreats.disband_and_build()
                } else {
                    retreats.retreat_then_adjust()
                }
            })
            .map_err(to_py)?;
        Ok((plan.retreat, plan.option, plan.value))
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
        let weights = weights_from(weights);
        let problem = Problem::new(&self.board, &self.position, convention, &weights);
        let values = problem.values_of(&profile).map_err(to_py)?;
        Ok(values.into_pyarray(py))
    }

    /// `search(method, convention, weights, seed, steps, max_evaluations, time_limit, start,
    /// threads, progress, evaluator, order)`: a search of `docs/diplomacy-rules.md` as a dict;
    /// `order` is the sequential search's order of the powers (default: map order).
    #[pyo3(signature = (method, convention, weights, seed, steps, max_evaluations, time_limit=None, start=None, threads=None, progress=None, evaluator=None, order=None))]
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
        evaluator: Option<Py<PyAny>>,
        order: Option<Vec<usize>>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let convention = Convention::parse(convention).map_err(to_py)?;
        if !["preliminary", "sequential", "anneal", "combined"].contains(&method) {
            return Err(param(format!(
                "unknown method {method:?}; the methods are preliminary, sequential, anneal \
                 and combined"
            )));
        }
        let order = order.unwrap_or_else(|| (0..self.board.powers).collect());
        let budget = budget(max_evaluations, time_limit)?;
        let threads = thread_count(threads)?;
        let done = Arc::new(AtomicU64::new(0));
        let report = progress.as_ref().map(|callback| (callback, &done));
        let (board, position) = (&self.board, &self.position);
        let weights = weights_from(weights);
        let python = evaluator.map(PyEvaluator::new);
        let chosen: &dyn Evaluator = match &python {
            Some(python) => python,
            None => &weights,
        };
        let outcome = interruptible_reporting(
            py,
            |cancel| {
                let problem = Problem::new(board, position, convention, chosen);
                let limits = Limits {
                    budget: &budget,
                    cancel,
                    done: &done,
                };
                let pool = parallel::pool(threads)?;
                pool.install(|| match method {
                    "preliminary" => search::preliminary(&problem, limits),
                    "sequential" => search::sequential(&problem, &order, limits),
                    "anneal" => {
                        let start = match &start {
                            Some(profile) => search::start_at(&problem, profile.clone())?,
                            None => search::preliminary(&problem, limits)?,
                        };
                        search::anneal(&problem, start, seed, steps, limits)
                    }
                    _ => search::combined(&problem, limits),
                })
            },
            report,
        );
        match python {
            Some(python) => {
                python.raise_failure()?;
                let outcome = outcome?;
                let values: Vec<f64> = outcome.values.iter().map(|&k| from_order_key(k)).collect();
                let dict = outcome_dict(
                    py,
                    Outcome {
                        values: Vec::new(),
                        ..outcome
                    },
                )?;
                dict.set_item("values", values)?;
                Ok(dict)
            }
            None => outcome_dict(py, outcome?),
        }
    }

    /// `units_after(convention, profile)`: the units when each power plays its option of
    /// `profile`, as `(power, fleet, location)` triples (what a Python evaluator is shown).
    fn units_after(&self, convention: &str, profile: Vec<u128>) -> PyResult<Vec<(u8, bool, u16)>> {
        let convention = Convention::parse(convention).map_err(to_py)?;
        let weights = weights_from([0; 4]);
        let problem = Problem::new(&self.board, &self.position, convention, &weights);
        let slots = profile
            .iter()
            .zip(&problem.choices)
            .map(|(&index, choices)| {
                let mut slots = Vec::new();
                choices.unrank(index, &mut slots).map(|()| slots)
            })
            .collect::<stratagem_core::Result<Vec<_>>>()
            .map_err(to_py)?;
        let mut units = Vec::new();
        problem.units_after(slots.iter().map(|s| Some(s.as_slice())), &mut units);
        Ok(units
            .iter()
            .map(|u| (u.power, u.fleet, u.location))
            .collect())
    }
}

/// A Python callable as the searches' evaluator: shown the units after the adjustments as
/// `(power, fleet, location)` triples, it returns one float per power, which the searches
/// compare through [`order_key`] (exactly the floats' order). An exception it raises (Ctrl-C
/// included) ends the search and is raised again as it was.
struct PyEvaluator {
    callable: Py<PyAny>,
    failure: Mutex<Option<PyErr>>,
}

impl PyEvaluator {
    fn new(callable: Py<PyAny>) -> Self {
        Self {
            callable,
            failure: Mutex::new(None),
        }
    }

    fn raise_failure(&self) -> PyResult<()> {
        match self.failure.lock().map(|mut failure| failure.take()) {
            Ok(Some(error)) => Err(error),
            Ok(None) => Ok(()),
            Err(_) => Err(crate::errors::internal(
                "the evaluator's error slot is poisoned",
            )),
        }
    }
}

impl Evaluator for PyEvaluator {
    fn evaluate(&self, after: After<'_>, _: &mut Scratch) -> stratagem_core::Result<Vec<i64>> {
        let triples: Vec<(u8, bool, u16)> = after
            .units
            .iter()
            .map(|u| (u.power, u.fleet, u.location))
            .collect();
        let answer = Python::attach(|py| {
            self.callable
                .call1(py, (triples,))
                .and_then(|result| result.extract::<Vec<f64>>(py))
        });
        match answer {
            Ok(floats) => Ok(floats.into_iter().map(order_key).collect()),
            Err(error) => {
                if let Ok(mut failure) = self.failure.lock() {
                    failure.get_or_insert(error);
                }
                Err(stratagem_core::Error::Interrupted)
            }
        }
    }
}

/// An integer with the order of the float `value` (finite; -0.0 and 0.0 alike).
fn order_key(value: f64) -> i64 {
    if value == 0.0 {
        return 0;
    }
    let bits = value.to_bits() as i64;
    if bits < 0 { bits ^ i64::MAX } else { bits }
}

fn from_order_key(key: i64) -> f64 {
    let bits = if key < 0 { key ^ i64::MAX } else { key };
    f64::from_bits(bits as u64)
}

/// Option indices as numpy stores them (every power's count fits in 64 bits).
fn index_u64(index: u128) -> PyResult<u64> {
    u64::try_from(index).map_err(|_| param(format!("option index {index} exceeds 64 bits")))
}

/// A combined search that advances a given number of evaluations at a time; its state can be
/// read out and restored, so a long search can be saved and resumed.
#[pyclass(module = "stratagem._core.diplomacy", name = "Combined")]
pub struct DiplomacyCombined {
    board: Arc<Board>,
    position: Position,
    convention: Convention,
    weights: Weights,
    search: Combined,
}

impl DiplomacyCombined {
    /// A search on `position` that `start` makes from the problem.
    fn on(
        position: &DiplomacyPosition,
        convention: &str,
        weights: [i64; 4],
        start: impl FnOnce(&Problem<'_>) -> stratagem_core::Result<Combined>,
    ) -> PyResult<Self> {
        let convention = Convention::parse(convention).map_err(to_py)?;
        let weights = weights_from(weights);
        let problem = Problem::new(&position.board, &position.position, convention, &weights);
        let search = start(&problem).map_err(to_py)?;
        Ok(Self {
            board: Arc::clone(&position.board),
            position: position.position.clone(),
            convention,
            weights,
            search,
        })
    }
}

#[pymethods]
impl DiplomacyCombined {
    /// `DiplomacyCombined(position, convention, weights)`: steps 1 and 2 (one evaluation).
    #[new]
    fn new(position: &DiplomacyPosition, convention: &str, weights: [i64; 4]) -> PyResult<Self> {
        Self::on(position, convention, weights, Combined::new)
    }

    /// `restore(position, convention, weights, state)`: a search from the dict `state()` gave.
    #[staticmethod]
    fn restore(
        position: &DiplomacyPosition,
        convention: &str,
        weights: [i64; 4],
        state: &Bound<'_, pyo3::types::PyDict>,
    ) -> PyResult<Self> {
        let powers = position.board.powers;
        let field = |name: &str| -> PyResult<Bound<'_, PyAny>> {
            state
                .get_item(name)?
                .ok_or_else(|| param(format!("a saved combined search lacks {name:?}")))
        };
        let values: Vec<i64> = field("values")?.extract()?;
        let evaluations: u64 = field("evaluations")?.extract()?;
        let power: usize = field("power")?.extract()?;
        let new_rows: Vec<[u64; 3]> = field("new")?.extract()?;
        let old_rows: Vec<[u64; 2]> = field("old_index")?.extract()?;
        let old_values: Vec<i64> = field("old_value")?.extract()?;
        let history: Vec<Vec<u64>> = field("history")?.extract()?;
        let ending: String = field("ending")?.extract()?;
        let cycle_from: usize = field("cycle_from")?.extract()?;
        if old_rows.len() != old_values.len() {
            return Err(param(
                "a saved combined search has old lists of two lengths",
            ));
        }
        let in_powers = |p: u64| {
            usize::try_from(p)
                .ok()
                .filter(|&p| p < powers)
                .ok_or_else(|| param(format!("a saved combined search names power {p}")))
        };
        let mut new = vec![std::collections::VecDeque::new(); powers];
        for [p, start, end] in new_rows {
            new[in_powers(p)?].push_back((u128::from(start), u128::from(end)));
        }
        let mut old = vec![Vec::new(); powers];
        for ([p, index], value) in old_rows.into_iter().zip(old_values) {
            old[in_powers(p)?].push((value, u128::from(index)));
        }
        let ending = match ending.as_str() {
            "running" => Ending::Running,
            "equilibrium" => Ending::Equilibrium,
            "cycle" => Ending::Cycle { from: cycle_from },
            other => {
                return Err(param(format!(
                    "a saved combined search has the ending {other:?}; the endings are \
                     running, equilibrium and cycle"
                )));
            }
        };
        let state = CombinedState {
            values,
            evaluations,
            power,
            new,
            old,
            history: history
                .into_iter()
                .map(|p| p.into_iter().map(u128::from).collect())
                .collect(),
            ending,
        };
        Self::on(position, convention, weights, |problem| {
            Combined::restore(problem, state)
        })
    }

    /// `advance(max_evaluations, time_limit=None, progress=None)`: evaluations until the search
    /// ends, has made `max_evaluations` in all, or the time is up; the outcome as a dict.
    /// Ctrl-C stops it between two evaluations, with the state intact.
    #[pyo3(signature = (max_evaluations, time_limit=None, progress=None))]
    fn advance<'py>(
        &mut self,
        py: Python<'py>,
        max_evaluations: u64,
        time_limit: Option<f64>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let budget = budget(max_evaluations, time_limit)?;
        let done = Arc::new(AtomicU64::new(0));
        let report = progress.as_ref().map(|callback| (callback, &done));
        let problem = Problem::new(&self.board, &self.position, self.convention, &self.weights);
        let search = &mut self.search;
        interruptible_reporting(
            py,
            |cancel| {
                let limits = Limits {
                    budget: &budget,
                    cancel,
                    done: &done,
                };
                search.run(&problem, limits)
            },
            report,
        )?;
        outcome_dict(py, self.search.outcome())
    }

    /// The whole state as numpy arrays and ints: what `restore` takes.
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let search = &self.search.state;
        let powers = self.board.powers;
        let dict = pyo3::types::PyDict::new(py);
        let profile: Vec<u64> = self
            .search
            .profile
            .iter()
            .map(|&i| index_u64(i))
            .collect::<PyResult<_>>()?;
        dict.set_item("profile", profile.into_pyarray(py))?;
        dict.set_item("values", search.values.clone().into_pyarray(py))?;
        dict.set_item("evaluations", search.evaluations)?;
        dict.set_item("power", search.power)?;
        let mut new = Vec::new();
        for (p, ranges) in search.new.iter().enumerate() {
            for &(start, end) in ranges {
                new.extend([p as u64, index_u64(start)?, index_u64(end)?]);
            }
        }
        let mut old_index = Vec::new();
        let mut old_value = Vec::new();
        for (p, entries) in search.old.iter().enumerate() {
            for &(value, index) in entries {
                old_index.extend([p as u64, index_u64(index)?]);
                old_value.push(value);
            }
        }
        let mut history = Vec::new();
        for profile in &search.history {
            for &index in profile {
                history.push(index_u64(index)?);
            }
        }
        let rows = |data: Vec<u64>, width: usize| {
            Array2::from_shape_vec((data.len() / width, width), data)
                .map_err(|e| param(format!("state shape: {e}")))
        };
        dict.set_item("new", rows(new, 3)?.into_pyarray(py))?;
        dict.set_item("old_index", rows(old_index, 2)?.into_pyarray(py))?;
        dict.set_item("old_value", old_value.into_pyarray(py))?;
        dict.set_item("history", rows(history, powers)?.into_pyarray(py))?;
        let (ending, cycle_from) = match search.ending {
            Ending::Running => ("running", 0),
            Ending::Equilibrium => ("equilibrium", 0),
            Ending::Cycle { from } => ("cycle", from),
        };
        dict.set_item("ending", ending)?;
        dict.set_item("cycle_from", cycle_from)?;
        Ok(dict)
    }

    /// The outcome so far, as `DiplomacyPosition.search` gives it.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        outcome_dict(py, self.search.outcome())
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CONVENTIONS", Convention::NAMES)?;
    add!(m; classes DiplomacyBoard, DiplomacyPosition, DiplomacyCombined);
    Ok(())
}
