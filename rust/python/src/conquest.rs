//! Bindings of the conquest engine: a board, a game, battle odds and batches of games.

use std::sync::Arc;

use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use stratagem_conquest::board::SLOT_EDGES;
use stratagem_conquest::game::{Game, History, Params, Record, SEQUENTIAL_TERRITORIES, Status};
use stratagem_conquest::many::simulate_many;
use stratagem_conquest::share::Grid;
use stratagem_conquest::{
    Board, MAX_TEAMS, MAX_TERRITORIES, Policy, TROOP_LIMIT, exact, grid_start, odds, search,
};

use crate::convert::rows_array;
use crate::errors::{param, to_py};
use crate::runtime::{
    Threads, counted_in_pool, interruptible, interruptible_in_pool, thread_count,
};

/// A checked board (CSR with reverse edges and borders), shared by every game on it.
#[pyclass(module = "stratagem._core.conquest", name = "Board", frozen)]
pub struct PyBoard {
    pub(crate) inner: Arc<Board>,
    /// Territories.
    #[pyo3(get)]
    n: usize,
    /// Borders (undirected edges).
    #[pyo3(get)]
    n_borders: usize,
}

#[pymethods]
impl PyBoard {
    #[new]
    fn new(
        py: Python<'_>,
        indptr: PyReadonlyArray1<'_, i64>,
        indices: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<Self> {
        // Read in place (a board's arrays are contiguous): no copy of a large board.
        let copies;
        let (indptr, indices) = match (indptr.as_slice(), indices.as_slice()) {
            (Ok(indptr), Ok(indices)) => (indptr, indices),
            _ => {
                copies = (indptr.as_array().to_vec(), indices.as_array().to_vec());
                (copies.0.as_slice(), copies.1.as_slice())
            }
        };
        let board = py
            .detach(|| Board::from_csr(indptr, indices))
            .map_err(to_py)?;
        Ok(Self::of(board))
    }

    /// `Board.grid(rows, cols, torus)`: the board `grid:{rows}x{cols}` (`:torus`) built from
    /// its closed forms, never as int64 arrays: the board of `grid_csr(rows, cols, torus)`.
    #[staticmethod]
    fn grid(py: Python<'_>, rows: i64, cols: i64, torus: bool) -> PyResult<Self> {
        let grid = Grid { rows, cols, torus };
        let board = interruptible(py, |cancel| Board::grid_watched(&grid, cancel))?;
        Ok(Self::of(board))
    }
}

impl PyBoard {
    fn of(board: Board) -> Self {
        Self {
            n: board.n(),
            n_borders: board.n_borders(),
            inner: Arc::new(board),
        }
    }
}

/// A game's parameters as Python passes them: one tuple `(seed, rate_ppm, cap, max_turns)`.
#[derive(FromPyObject)]
pub(crate) struct ParamsArg(u64, u64, u64, Option<u64>);

impl From<ParamsArg> for Params {
    fn from(ParamsArg(seed, rate_ppm, cap, max_turns): ParamsArg) -> Self {
        Self {
            seed,
            rate_ppm,
            cap,
            max_turns,
        }
    }
}

/// The policies of the teams, one name each.
pub(crate) fn policies_from(names: &[String]) -> PyResult<Vec<Policy>> {
    names
        .iter()
        .map(|name| Policy::parse(name))
        .collect::<stratagem_core::Result<_>>()
        .map_err(to_py)
}

fn status_from(name: &str, winner: Option<u8>) -> PyResult<Status> {
    match (name, winner) {
        ("running", None) => Ok(Status::Running),
        ("won", Some(team)) => Ok(Status::Won(team)),
        ("draw", None) => Ok(Status::Draw),
        ("unfinished", None) => Ok(Status::Unfinished),
        _ => Err(param(format!(
            "status {name:?} with winner {winner:?} is not a game status"
        ))),
    }
}

/// Territories and troops per team after each turn, as two `(turns + 1, teams)` arrays.
pub(crate) type Tables<'py> = (Bound<'py, PyArray2<i64>>, Bound<'py, PyArray2<i64>>);

fn table<'py>(
    py: Python<'py>,
    values: &[u64],
    teams: usize,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let rows = values.len() / teams.max(1);
    let signed: Vec<i64> = values.iter().map(|&v| v as i64).collect();
    rows_array(py, (rows, teams), signed)
}

/// A history as the two `(turns + 1, teams)` arrays Python sees.
pub(crate) fn tables<'py>(
    py: Python<'py>,
    history: &History,
    teams: usize,
) -> PyResult<Tables<'py>> {
    Ok((
        table(py, &history.territories, teams)?,
        table(py, &history.troops, teams)?,
    ))
}

/// `check_policy(name)`: refuses a policy name the engine does not know (or a `search` with a
/// bad option), naming it; returns nothing.
#[pyfunction]
fn check_policy(name: &str) -> PyResult<()> {
    Policy::parse(name).map(|_| ()).map_err(to_py)
}

/// A saved game's record as Python passes it to `resume`: one tuple `(turn, status, winner,
/// territories, troops)`, the last two one row per turn.
#[derive(FromPyObject)]
pub(crate) struct SavedRecord<'py>(
    u64,
    String,
    Option<u8>,
    PyReadonlyArray2<'py, i64>,
    PyReadonlyArray2<'py, i64>,
);

impl SavedRecord<'_> {
    /// The turn, status and history, checked for a game of `teams` teams.
    pub(crate) fn checked(self, teams: usize) -> PyResult<(u64, Status, History)> {
        let Self(turn, status, winner, territories, troops) = self;
        let status = status_from(&status, winner)?;
        Ok((turn, status, history_from(territories, troops, teams)?))
    }
}

/// A saved history from its two arrays, checked to hold non-negative counts of `teams` teams.
fn history_from(
    territories: PyReadonlyArray2<'_, i64>,
    troops: PyReadonlyArray2<'_, i64>,
    teams: usize,
) -> PyResult<History> {
    Ok(History {
        territories: unsigned("territories", territories, teams)?,
        troops: unsigned("troops", troops, teams)?,
    })
}

fn unsigned(name: &str, values: PyReadonlyArray2<'_, i64>, teams: usize) -> PyResult<Vec<u64>> {
    let values = values.as_array();
    if values.ncols() != teams || values.iter().any(|&v| v < 0) {
        return Err(param(format!(
            "{name} must have {teams} columns of non-negative counts, got shape {:?}",
            values.shape()
        )));
    }
    Ok(values.iter().map(|&v| v as u64).collect())
}

/// Status codes (0 won, 1 draw, 2 unfinished), winners (-1 for none) and turns of a batch.
type Endings<'py> = (
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
);

/// Where a game stands (a snapshot of its record): the turns played, the status and the winner.
#[pyclass(
    module = "stratagem._core.conquest",
    name = "Standing",
    frozen,
    get_all
)]
pub struct PyStanding {
    turn: u64,
    status: &'static str,
    winner: Option<u8>,
}

impl From<&Record> for PyStanding {
    fn from(record: &Record) -> Self {
        Self {
            turn: record.turn(),
            status: record.status().name(),
            winner: record.status().winner(),
        }
    }
}

/// A game on the Rust engine; `stratagem.conquest.Game` wraps it.
#[pyclass(module = "stratagem._core.conquest", name = "Game")]
pub struct PyGame {
    game: Game,
    #[pyo3(get, set)]
    threads: Threads,
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (board, team, troops, policies, params, threads=None))]
    fn new(
        board: &PyBoard,
        team: PyReadonlyArray1<'_, i64>,
        troops: PyReadonlyArray1<'_, i64>,
        policies: Vec<String>,
        params: ParamsArg,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let policies = policies_from(&policies)?;
        let game = Game::new(
            Arc::clone(&board.inner),
            team.as_slice()?,
            troops.as_slice()?,
            policies,
            params.into(),
        )
        .map_err(to_py)?;
        Ok(Self {
            game,
            threads: Threads::new(threads)?,
        })
    }

    /// `Game.regions_on_grid(board, rows, cols, torus, teams, troops, policies, params,
    /// threads)`: the game on `board` (`Board.grid(rows, cols, torus)`) started by
    /// `assign_regions(board, teams, seed)` with the game's seed and `troops` troops on every
    /// territory, the state made in the engine.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (board, rows, cols, torus, teams, troops, policies, params, threads=None))]
    fn regions_on_grid(
        py: Python<'_>,
        board: &PyBoard,
        rows: i64,
        cols: i64,
        torus: bool,
        teams: usize,
        troops: u64,
        policies: Vec<String>,
        params: ParamsArg,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let policies = policies_from(&policies)?;
        let threads = Threads::new(threads)?;
        let grid = Grid { rows, cols, torus };
        let board = Arc::clone(&board.inner);
        let game = interruptible_in_pool(py, threads.0, |cancel| {
            grid_start::regions_game(board, &grid, teams, troops, policies, params.into(), cancel)
        })?;
        Ok(Self { game, threads })
    }

    /// Puts a loaded game back at its saved turn, status and history.
    fn resume(&mut self, saved: SavedRecord<'_>) -> PyResult<()> {
        let (turn, status, history) = saved.checked(self.game.policies().len())?;
        self.game.resume(turn, status, history).map_err(to_py)
    }

    /// The placement of the coming turn (built-in policies; custom rows from `custom`).
    #[pyo3(signature = (custom=None))]
    fn placement<'py>(
        &self,
        py: Python<'py>,
        custom: Option<PyReadonlyArray1<'py, i64>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let custom = custom.map(|c| c.as_array().to_vec());
        let game = &self.game;
        let threads = game.threads_for(self.threads.0);
        let placement =
            interruptible_in_pool(py, threads, |_| search::placement(game, custom.as_deref()))?;
        Ok(placement.into_pyarray(py))
    }

    /// Plays one turn (custom teams' rows from `custom`); returns whether a turn was played.
    #[pyo3(signature = (custom=None))]
    fn step(
        &mut self,
        py: Python<'_>,
        custom: Option<PyReadonlyArray1<'_, i64>>,
    ) -> PyResult<bool> {
        let custom = custom.map(|c| c.as_array().to_vec());
        let threads = self.game.threads_for(self.threads.0);
        let game = &mut self.game;
        interruptible_in_pool(py, threads, |_| search::step(game, custom.as_deref()))
    }

    /// Plays up to `turns` turns (built-in policies only), stopping early when the game
    /// ends; returns the number of turns played. Every turn played is in the history, even
    /// when Ctrl-C stops the run.
    fn run(&mut self, py: Python<'_>, turns: u64) -> PyResult<u64> {
        if self.game.has_custom() {
            return Err(param(
                "run() plays built-in policies only; step() takes custom placements",
            ));
        }
        let threads = self.game.threads_for(self.threads.0);
        let game = &mut self.game;
        interruptible_in_pool(py, threads, |cancel| {
            let mut played = 0;
            while played < turns {
                cancel.check()?;
                if !search::step(game, None)? {
                    break;
                }
                played += 1;
            }
            Ok(played)
        })
    }

    /// Changes every team's policy from the next turn on (one name per team).
    fn set_policies(&mut self, policies: Vec<String>) -> PyResult<()> {
        self.game
            .set_policies(policies_from(&policies)?)
            .map_err(to_py)
    }

    /// An independent copy of the game (the board is shared).
    fn copy(&self) -> Self {
        Self {
            game: self.game.clone(),
            threads: self.threads,
        }
    }

    /// Territories and troops per team after every turn (row 0: the start).
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Tables<'py>> {
        tables(py, self.game.history(), self.game.policies().len())
    }

    #[getter]
    fn team<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.game
            .team()
            .iter()
            .map(|&t| i64::from(t))
            .collect::<Vec<_>>()
            .into_pyarray(py)
    }

    #[getter]
    fn troops<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.game
            .troops()
            .iter()
            .map(|&t| t as i64)
            .collect::<Vec<_>>()
            .into_pyarray(py)
    }

    #[getter]
    fn standing(&self) -> PyStanding {
        self.game.record().into()
    }
}

/// `conquest_battle_odds(a, d, coins_a, coins_d)`: exact (attacker, defender, both) odds.
#[pyfunction]
#[pyo3(name = "battle_odds")]
fn conquest_battle_odds(
    py: Python<'_>,
    a: u64,
    d: u64,
    coins_a: u64,
    coins_d: u64,
) -> PyResult<(f64, f64, f64)> {
    let odds = py
        .detach(|| odds::battle_odds(a, d, coins_a, coins_d))
        .map_err(to_py)?;
    Ok((odds.attacker, odds.defender, odds.both))
}

/// `conquest_battle_odds_exact(a, d, coins_a, coins_d)`: the same odds as (numerator,
/// denominator) pairs, or None when the fractions do not fit in 128 bits.
#[pyfunction]
#[pyo3(name = "battle_odds_exact")]
fn conquest_battle_odds_exact(
    a: u64,
    d: u64,
    coins_a: u64,
    coins_d: u64,
) -> Option<[(u128, u128); 3]> {
    exact::battle_odds_exact(a, d, coins_a, coins_d)
        .map(|odds| odds.map(|p| (p.numerator, p.denominator)))
}

/// `conquest_simulate_battle(a, d, coins_a, coins_d, n, seed, threads=None, progress=None)`:
/// Monte Carlo counts of (attacker wins, defender wins, both annihilated); `progress(done)` is
/// called about every 20 ms with the number of battles fought.
#[pyfunction]
#[pyo3(name = "simulate_battle", signature = (a, d, coins_a, coins_d, n, seed, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn conquest_simulate_battle(
    py: Python<'_>,
    a: u64,
    d: u64,
    coins_a: u64,
    coins_d: u64,
    n: u64,
    seed: u64,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<(u64, u64, u64)> {
    let threads = thread_count(threads)?;
    let [w, l, b] = counted_in_pool(py, threads, progress.as_ref(), |cancel, done| {
        odds::simulate_battle([(a, coins_a), (d, coins_d)], n, seed, cancel, done)
    })?;
    Ok((w, l, b))
}

/// `conquest_simulate_many(game, games, threads=None)`: plays `games` copies of `game` to the
/// end; returns (status codes: 0 won / 1 draw / 2 unfinished, winners or -1, turns).
#[pyfunction]
#[pyo3(name = "simulate_many", signature = (game, games, threads=None))]
fn conquest_simulate_many<'py>(
    py: Python<'py>,
    game: &PyGame,
    games: u64,
    threads: Option<usize>,
) -> PyResult<Endings<'py>> {
    if game.game.has_custom() {
        return Err(param("simulate_many plays built-in policies only"));
    }
    if game.game.params().max_turns.is_none() {
        return Err(param(
            "simulate_many needs max_turns, so that every game ends",
        ));
    }
    let threads = thread_count(threads)?;
    let template = &game.game;
    let endings =
        interruptible_in_pool(py, threads, |cancel| simulate_many(template, games, cancel))?;
    let mut codes = Vec::with_capacity(endings.len());
    let mut winners = Vec::with_capacity(endings.len());
    let mut turns = Vec::with_capacity(endings.len());
    for ending in endings {
        codes.push(match ending.status {
            Status::Won(_) => 0,
            Status::Draw => 1,
            Status::Unfinished | Status::Running => 2,
        });
        winners.push(ending.status.winner().map_or(-1, i64::from));
        turns.push(ending.turns as i64);
    }
    Ok((
        codes.into_pyarray(py),
        winners.into_pyarray(py),
        turns.into_pyarray(py),
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("POLICIES", Policy::BUILT_IN)?;
    add!(m; classes PyBoard, PyGame, PyStanding; functions check_policy, conquest_battle_odds,
        conquest_battle_odds_exact, conquest_simulate_battle, conquest_simulate_many);
    m.add("TROOP_LIMIT", TROOP_LIMIT)?;
    m.add("MAX_TEAMS", MAX_TEAMS)?;
    m.add("MAX_TERRITORIES", MAX_TERRITORIES)?;
    m.add("SEQUENTIAL_TERRITORIES", SEQUENTIAL_TERRITORIES)?;
    m.add("SLOT_EDGES", SLOT_EDGES)?;
    m.add("MAX_ODDS_SIDE", odds::MAX_ODDS_SIDE)?;
    m.add("MAX_ODDS_PRODUCT", odds::MAX_ODDS_PRODUCT)?;
    Ok(())
}
