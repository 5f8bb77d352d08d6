//! Bindings of the outpost engine: a game driven phase by phase or run to the end, the control
//! and supply rules on their own (for tests and tools), and tournaments over threads.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use numpy::ndarray::{Array2, Array3};
use numpy::{
    Element, IntoPyArray, PyArray1, PyArray2, PyArray3, PyReadonlyArray1, PyReadonlyArray2,
};
use pyo3::prelude::*;
use stratagem_outpost::control::ControlWork;
use stratagem_outpost::game::Tally;
use stratagem_outpost::grid::{CELLS, Cell, SIZE, cell_at, x_of, y_of};
use stratagem_outpost::params::EMPIRES;
use stratagem_outpost::players::{self, View};
use stratagem_outpost::supply::{Reach, cut_off};
use stratagem_outpost::tournament::{Fixture, SEQUENTIAL_TURNS, play};
use stratagem_outpost::{Builtin, Demand, Flags, Game, Outpost, Params, Terrain};

use crate::errors::{param, to_py};
use crate::runtime::{interruptible_reporting, thread_count};

/// `(n, 4)` int32 rows `[id, empire, x, y]`.
type OutpostRows<'py> = Bound<'py, PyArray2<i32>>;

/// The cells of a `(100, 100)` grid, row by row; `name` names the array in errors.
fn grid_cells<T: Element + Copy>(name: &str, grid: &PyReadonlyArray2<'_, T>) -> PyResult<Vec<T>> {
    let view = grid.as_array();
    if view.shape() != [SIZE, SIZE] {
        return Err(param(format!(
            "{name} must have shape (100, 100), got {:?}",
            view.shape()
        )));
    }
    Ok(view.iter().copied().collect())
}

fn terrain(water: &PyReadonlyArray2<'_, bool>) -> PyResult<Terrain> {
    Terrain::new(&grid_cells("water", water)?).map_err(to_py)
}

/// The checked terrain and parameters `[r, L, W, T]` of a game, with its flags
/// `[supply_fringe, sequential_moves, extra_turn]`.
fn setup(
    water: &PyReadonlyArray2<'_, bool>,
    [r, land, water_per_outpost, turns]: [u32; 4],
    [supply_fringe, sequential_moves, extra_turn]: [bool; 3],
) -> PyResult<(Arc<Terrain>, Params)> {
    let flags = Flags {
        supply_fringe,
        sequential_moves,
        extra_turn,
    };
    let params = Params::new(r, land, water_per_outpost, turns, flags).map_err(to_py)?;
    Ok((Arc::new(terrain(water)?), params))
}

fn builtin(name: &str) -> PyResult<Builtin> {
    Builtin::parse(name).map_err(to_py)
}

fn seats(players: &[Option<String>]) -> PyResult<[Option<Builtin>; EMPIRES]> {
    if players.len() != EMPIRES {
        return Err(param(format!(
            "players must name 4 players (one per empire), got {}",
            players.len()
        )));
    }
    let mut seats = [None; EMPIRES];
    for (seat, name) in seats.iter_mut().zip(players) {
        *seat = name.as_deref().map(builtin).transpose()?;
    }
    Ok(seats)
}

/// Outposts from `(n, 4)` rows `[id, empire, x, y]`, each checked.
fn outposts_from(rows: &PyReadonlyArray2<'_, i64>) -> PyResult<Vec<Outpost>> {
    let view = rows.as_array();
    if view.ncols() != 4 {
        return Err(param(format!(
            "outposts must have 4 columns (id, empire, x, y), got shape {:?}",
            view.shape()
        )));
    }
    view.rows()
        .into_iter()
        .enumerate()
        .map(|(i, row)| {
            let (id, empire, x, y) = (row[0], row[1], row[2], row[3]);
            let cell = i32::try_from(x)
                .ok()
                .zip(i32::try_from(y).ok())
                .and_then(|(x, y)| cell_at(x, y));
            match (u32::try_from(id), u8::try_from(empire), cell) {
                (Ok(id), Ok(empire), Some(cell)) if usize::from(empire) < EMPIRES => {
                    Ok(Outpost { id, empire, cell })
                }
                _ => Err(param(format!(
                    "outpost row {i} [{id}, {empire}, {x}, {y}]: ids are >= 0, empires 0..3, \
                     cells inside the 100x100 grid"
                ))),
            }
        })
        .collect()
}

fn outpost_rows<'py>(py: Python<'py>, outposts: &[Outpost]) -> OutpostRows<'py> {
    let mut rows = Array2::<i32>::zeros((outposts.len(), 4));
    for (mut row, outpost) in rows.rows_mut().into_iter().zip(outposts) {
        row[0] = outpost.id as i32;
        row[1] = i32::from(outpost.empire);
        row[2] = x_of(outpost.cell);
        row[3] = y_of(outpost.cell);
    }
    rows.into_pyarray(py)
}

fn grid_i8<'py>(py: Python<'py>, cells: &[i8]) -> PyResult<Bound<'py, PyArray2<i8>>> {
    Array2::from_shape_vec((SIZE, SIZE), cells.to_vec())
        .map(|a| a.into_pyarray(py))
        .map_err(|e| param(e.to_string()))
}

fn history_array<'py>(py: Python<'py>, history: &[Tally]) -> Bound<'py, PyArray3<u32>> {
    let mut array = Array3::<u32>::zeros((history.len(), EMPIRES, 3));
    for (t, row) in history.iter().enumerate() {
        for (e, counts) in row.iter().enumerate() {
            for (k, &value) in counts.iter().enumerate() {
                array[[t, e, k]] = value;
            }
        }
    }
    array.into_pyarray(py)
}

fn history_from(history: &PyReadonlyArray2<'_, u32>) -> PyResult<Vec<Tally>> {
    let view = history.as_array();
    if view.ncols() != EMPIRES * 3 {
        return Err(param(format!(
            "history must have 12 columns (land, water, outposts of each empire), got shape {:?}",
            view.shape()
        )));
    }
    Ok(view
        .rows()
        .into_iter()
        .map(|row| {
            let mut tally = [[0u32; 3]; EMPIRES];
            for (e, counts) in tally.iter_mut().enumerate() {
                for (k, value) in counts.iter_mut().enumerate() {
                    *value = row[e * 3 + k];
                }
            }
            tally
        })
        .collect())
}

fn empire_index(empire: usize) -> PyResult<u8> {
    if empire < EMPIRES {
        Ok(empire as u8)
    } else {
        Err(param(format!("empire must be 0..3, got {empire}")))
    }
}

/// A game in progress.
#[pyclass(module = "stratagem._core.outpost", name = "Game")]
pub struct PyGame {
    inner: Game,
}

impl PyGame {
    /// What a player sees now, as on turn `turn`.
    fn view(&self, turn: u32) -> View<'_> {
        let game = &self.inner;
        View {
            terrain: game.terrain(),
            outposts: game.outposts(),
            control: game.control(),
            params: game.params(),
            seed: game.seed(),
            turn,
        }
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (water, r, land, water_per_outpost, turns, players, seed, supply_fringe=false, sequential_moves=false, extra_turn=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        water: PyReadonlyArray2<'_, bool>,
        r: u32,
        land: u32,
        water_per_outpost: u32,
        turns: u32,
        players: Vec<Option<String>>,
        seed: u64,
        supply_fringe: bool,
        sequential_moves: bool,
        extra_turn: bool,
    ) -> PyResult<Self> {
        let flags = [supply_fringe, sequential_moves, extra_turn];
        let (terrain, params) = setup(&water, [r, land, water_per_outpost, turns], flags)?;
        Ok(Self {
            inner: Game::new(terrain, params, seats(&players)?, seed),
        })
    }

    /// Puts the game between turns at a saved position (its turn, outposts, next outpost id and
    /// history) on the same map, rules and players; everything is checked.
    fn resume(
        &mut self,
        turn: u32,
        outposts: PyReadonlyArray2<'_, i64>,
        next_id: u32,
        history: PyReadonlyArray2<'_, u32>,
    ) -> PyResult<()> {
        let game = &self.inner;
        self.inner = Game::restore(
            Arc::clone(game.terrain()),
            *game.params(),
            *game.players(),
            game.seed(),
            turn,
            outposts_from(&outposts)?,
            next_id,
            history_from(&history)?,
        )
        .map_err(to_py)?;
        Ok(())
    }

    #[getter]
    fn turn(&self) -> u32 {
        self.inner.turn()
    }
    #[getter]
    fn last_turn(&self) -> u32 {
        self.inner.params().last_turn()
    }
    #[getter]
    fn finished(&self) -> bool {
        self.inner.finished()
    }
    #[getter]
    fn in_turn(&self) -> bool {
        self.inner.in_turn()
    }
    #[getter]
    fn next_id(&self) -> u32 {
        self.inner.next_id()
    }

    /// Control of every cell, int8 `(100, 100)` `[y, x]`: the empire, -1 neutral, -2 disputed.
    fn control<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        grid_i8(py, self.inner.control())
    }

    /// Every outpost as int32 rows `[id, empire, x, y]`, in increasing id.
    fn outposts<'py>(&self, py: Python<'py>) -> OutpostRows<'py> {
        outpost_rows(py, self.inner.outposts())
    }

    /// uint32 `(turn + 1, 4, 3)`: land, water and outposts of each empire after each turn.
    fn history<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray3<u32>> {
        history_array(py, self.inner.history())
    }

    /// Cells each empire controls now.
    fn scores(&self) -> [u32; EMPIRES] {
        self.inner.scores()
    }

    /// What the next turn's season asks: 0 nothing, 1 a build, 2 a disbandment, per empire.
    fn season_demands(&self) -> Vec<u8> {
        self.inner
            .season_demands()
            .iter()
            .map(|d| match d {
                Demand::Nothing => 0,
                Demand::Build => 1,
                Demand::Disband => 2,
            })
            .collect()
    }

    fn begin_turn(&mut self, disbands: [Option<u32>; EMPIRES]) -> PyResult<()> {
        self.inner.begin_turn(&disbands).map_err(to_py)
    }

    /// Moves `empires`; `answers[e]` holds the directions of an outside player (uint8, one per
    /// outpost in id order) or None.
    fn apply_moves(
        &mut self,
        empires: Vec<u8>,
        answers: Vec<Option<PyReadonlyArray1<'_, u8>>>,
    ) -> PyResult<()> {
        if answers.len() != EMPIRES {
            return Err(param(format!(
                "answers must have 4 entries, got {}",
                answers.len()
            )));
        }
        let mut owned: [Option<Vec<u8>>; EMPIRES] = [None, None, None, None];
        for (slot, answer) in owned.iter_mut().zip(&answers) {
            *slot = answer.as_ref().map(|a| a.as_array().to_vec());
        }
        self.inner.apply_moves(&empires, &owned).map_err(to_py)
    }

    fn end_turn(&mut self) -> PyResult<()> {
        self.inner.end_turn().map_err(to_py)
    }

    fn abort_turn(&mut self) {
        self.inner.abort_turn();
    }

    /// The log since the last call: `(turn, empire, kind, outpost, message)` tuples.
    fn take_log(&mut self) -> Vec<(u32, u8, &'static str, u32, String)> {
        self.inner
            .take_log()
            .into_iter()
            .map(|e| (e.turn, e.empire, e.kind.name(), e.outpost, e.message))
            .collect()
    }

    /// Plays up to `turns` turns (every player built in) with the GIL released; `progress`
    /// is called with the turns done so far. Returns the turns played.
    #[pyo3(signature = (turns, progress=None))]
    fn run(&mut self, py: Python<'_>, turns: u32, progress: Option<Py<PyAny>>) -> PyResult<u32> {
        let done = Arc::new(AtomicU64::new(0));
        let report = progress.as_ref().map(|callback| (callback, &done));
        let game = &mut self.inner;
        interruptible_reporting(py, |cancel| game.run(turns, cancel, &done), report)
    }

    /// The directions the built-in player `kind` would give `empire`'s outposts (in id order)
    /// in the current state, as on turn `turn`.
    fn builtin_moves<'py>(
        &mut self,
        py: Python<'py>,
        kind: &str,
        empire: usize,
        turn: u32,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let kind = builtin(kind)?;
        let empire = empire_index(empire)?;
        let mut scratch = players::Scratch::default();
        Ok(players::moves(kind, &self.view(turn), empire, &mut scratch).into_pyarray(py))
    }

    /// The outpost the built-in player `kind` would disband for `empire` on turn `turn`.
    fn builtin_disband(&self, kind: &str, empire: usize, turn: u32) -> PyResult<u32> {
        let kind = builtin(kind)?;
        let empire = empire_index(empire)?;
        if !self.inner.outposts().iter().any(|o| o.empire == empire) {
            return Err(param(format!("empire {empire} has no outposts to disband")));
        }
        let mut scratch = players::Scratch::default();
        Ok(players::disband(
            kind,
            &self.view(turn),
            empire,
            &mut scratch,
        ))
    }

    fn copy(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }

    /// Seats other players from the next turn on (a name per empire; None: a Python player).
    fn set_players(&mut self, players: Vec<Option<String>>) -> PyResult<()> {
        self.inner.set_players(seats(&players)?).map_err(to_py)
    }
}

/// `outpost_control(water, outposts, r)`: the control map of outposts `[id, empire, x, y]`.
#[pyfunction]
#[pyo3(name = "control")]
fn outpost_control<'py>(
    py: Python<'py>,
    water: PyReadonlyArray2<'_, bool>,
    outposts: PyReadonlyArray2<'_, i64>,
    r: u32,
) -> PyResult<Bound<'py, PyArray2<i8>>> {
    // The map plays no part in control; it is checked like everywhere else.
    terrain(&water)?;
    let outposts = outposts_from(&outposts)?;
    let mut control = vec![0i8; CELLS];
    ControlWork::default().compute(&outposts, r, &mut control);
    grid_i8(py, &control)
}

/// `outpost_cut_off(water, control, outposts, fringe)`: ids of the outposts whose supply line
/// is cut on `control`.
#[pyfunction]
#[pyo3(name = "cut_off")]
fn outpost_cut_off(
    water: PyReadonlyArray2<'_, bool>,
    control: PyReadonlyArray2<'_, i8>,
    outposts: PyReadonlyArray2<'_, i64>,
    fringe: bool,
) -> PyResult<Vec<u32>> {
    let terrain = terrain(&water)?;
    let control = grid_cells("control", &control)?;
    if let Some(cell) = control.iter().position(|&c| !(-2..=3).contains(&c)) {
        return Err(param(format!(
            "control at ({}, {}) is {}; values are -2, -1 or 0..3",
            x_of(cell as Cell),
            y_of(cell as Cell),
            control[cell]
        )));
    }
    let outposts = outposts_from(&outposts)?;
    let mut cut = Vec::new();
    cut_off(
        &terrain,
        &control,
        &outposts,
        fringe,
        &mut Reach::default(),
        &mut cut,
    );
    Ok(outposts
        .iter()
        .zip(&cut)
        .filter(|(_, c)| **c)
        .map(|(o, _)| o.id)
        .collect())
}

/// `outpost_tournament(waters, games, players, seeds, threads=None, progress=None)`: plays
/// every game to the end. `games` rows are `[map index, r, L, W, T, supply_fringe,
/// sequential_moves, extra_turn]`, `players` rows four built-in names. Returns uint32
/// `(games, 4, 3)`: each empire's final land, water and outposts.
#[pyfunction]
#[pyo3(name = "tournament", signature = (waters, games, players, seeds, threads=None, progress=None))]
fn outpost_tournament<'py>(
    py: Python<'py>,
    waters: Vec<PyReadonlyArray2<'_, bool>>,
    games: PyReadonlyArray2<'_, i64>,
    players: Vec<[String; EMPIRES]>,
    seeds: PyReadonlyArray1<'_, u64>,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyArray3<u32>>> {
    let terrains: Vec<Arc<Terrain>> = waters
        .iter()
        .map(|w| terrain(w).map(Arc::new))
        .collect::<PyResult<_>>()?;
    let games = games.as_array();
    let seeds = seeds.as_array();
    if games.ncols() != 8 || games.nrows() != players.len() || games.nrows() != seeds.len() {
        return Err(param(format!(
            "games must be (n, 8) with n player rows and n seeds; got games {:?}, {} player \
             rows, {} seeds",
            games.shape(),
            players.len(),
            seeds.len()
        )));
    }
    let mut fixtures = Vec::with_capacity(games.nrows());
    for (i, row) in games.rows().into_iter().enumerate() {
        let value = |k: usize| {
            u32::try_from(row[k])
                .map_err(|_| param(format!("game {i}: {} is negative or too large", row[k])))
        };
        let map = usize::try_from(row[0])
            .ok()
            .and_then(|m| terrains.get(m))
            .ok_or_else(|| {
                param(format!(
                    "game {i}: map index {} is not 0..{}",
                    row[0],
                    terrains.len()
                ))
            })?;
        let flags = Flags {
            supply_fringe: row[5] != 0,
            sequential_moves: row[6] != 0,
            extra_turn: row[7] != 0,
        };
        let params =
            Params::new(value(1)?, value(2)?, value(3)?, value(4)?, flags).map_err(to_py)?;
        let mut seats = [Builtin::Random; EMPIRES];
        for (seat, name) in seats.iter_mut().zip(&players[i]) {
            *seat = builtin(name)?;
        }
        fixtures.push(Fixture {
            terrain: Arc::clone(map),
            params,
            players: seats,
            seed: seeds[i],
        });
    }
    let threads = thread_count(threads)?;
    let done = Arc::new(AtomicU64::new(0));
    let report = progress.as_ref().map(|callback| (callback, &done));
    let tallies =
        interruptible_reporting(py, |cancel| play(&fixtures, threads, cancel, &done), report)?;
    Ok(history_array(py, &tallies))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("PLAYERS", Builtin::NAMES)?;
    m.add("SEQUENTIAL_TURNS", SEQUENTIAL_TURNS)?;
    add!(m; classes PyGame; functions outpost_control, outpost_cut_off, outpost_tournament);
    Ok(())
}
