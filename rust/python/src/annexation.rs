//! Bindings of the annexation engine: a board, a game, playouts, agents, matches and the
//! batch step.

use std::sync::Arc;

use numpy::ndarray::Array1;
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2, PyReadwriteArray1,
    PyReadwriteArray2, PyReadwriteArray3,
};
use pyo3::prelude::*;
use stratagem_annexation::ai::{AI_NAMES, Agent, AiSpec, Heuristic, Stateless};
use stratagem_annexation::batch::{Arrays, step_arrays};
use stratagem_annexation::matches::{MatchArrays, match_fixtures, match_table, play_fixtures};
use stratagem_annexation::mcts::{Budget, MctsConfig};
use stratagem_annexation::playout::{Policy, playouts};
use stratagem_annexation::vector::{
    Boards, Layout, Opponent, Outputs, SERIAL_ENVS, Settings, VectorEnv,
};
use stratagem_annexation::{Board, Mode, Outcome, Rules, State};
use stratagem_core::Cancel;
use stratagem_core::error::named;

use crate::convert::{self, flat_rows, rows_array};
use crate::errors::{param, to_py};
use crate::runtime::{counted_in_pool, detached_in_pool, interruptible_in_pool, thread_count};

/// A checked board with its rules and bitset units, shared by every game on it.
#[pyclass(module = "stratagem._core.annexation", name = "Board", frozen)]
pub struct PyBoard {
    inner: Arc<Board>,
    offsets: Vec<i64>,
    neighbours: Vec<i64>,
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (offsets, neighbours, colours, colour_count, starts, mode="flood", allow_opponent_colours=false, max_moves=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        offsets: PyReadonlyArray1<'_, i64>,
        neighbours: PyReadonlyArray1<'_, i64>,
        colours: PyReadonlyArray1<'_, u8>,
        colour_count: usize,
        starts: PyReadonlyArray1<'_, i64>,
        mode: &str,
        allow_opponent_colours: bool,
        max_moves: Option<u32>,
    ) -> PyResult<Self> {
        let rules = Rules {
            mode: Mode::parse(mode).map_err(to_py)?,
            allow_opponent_colours,
            max_moves,
        };
        let offsets = offsets.as_array().to_vec();
        let neighbours = neighbours.as_array().to_vec();
        let colours = colours.as_array().to_vec();
        let starts = starts.as_array().to_vec();
        let board = py
            .detach(|| {
                Board::new(
                    &offsets,
                    &neighbours,
                    &colours,
                    colour_count,
                    &starts,
                    rules,
                )
            })
            .map_err(to_py)?;
        Ok(Self {
            inner: Arc::new(board),
            offsets,
            neighbours,
        })
    }
}

fn outcome_parts(outcome: Outcome) -> (&'static str, Option<u8>) {
    match outcome {
        Outcome::Ongoing => ("ongoing", None),
        Outcome::Won(q) => ("won", Some(q)),
        Outcome::Drawn => ("drawn", None),
    }
}

/// A game in progress: the board, the position and the colours played.
#[pyclass(module = "stratagem._core.annexation", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    board: Arc<Board>,
    state: State,
    history: Vec<u8>,
}

#[pymethods]
impl PyGame {
    #[new]
    fn new(board: &PyBoard) -> PyResult<Self> {
        Ok(Self {
            board: board.inner.clone(),
            state: State::initial(&board.inner).map_err(to_py)?,
            history: Vec::new(),
        })
    }

    /// The legal colours, ascending.
    fn legal_moves(&self) -> Vec<usize> {
        let mask = self.state.legal_mask(&self.board);
        (0..self.board.colour_count())
            .filter(|&c| mask & (1 << c) != 0)
            .collect()
    }

    fn play(&mut self, colour: i64) -> PyResult<()> {
        self.state.play(&self.board, colour).map_err(to_py)?;
        // play() accepted it, so it is in 0..16.
        self.history.push(colour as u8);
        Ok(())
    }

    fn owner<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.state.cell_owners(&self.board).into_pyarray(py)
    }

    fn cell_colours<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.state.cell_colours(&self.board).into_pyarray(py)
    }

    #[getter]
    fn player_colours(&self) -> Vec<u8> {
        self.state.player_colours().to_vec()
    }
    #[getter]
    fn scores(&self) -> Vec<u32> {
        self.state.scores().to_vec()
    }
    #[getter]
    fn to_move(&self) -> usize {
        self.state.to_move()
    }
    #[getter]
    fn moves(&self) -> u32 {
        self.state.moves()
    }
    #[getter]
    fn history(&self) -> Vec<u8> {
        self.history.clone()
    }
    /// `("ongoing" | "won" | "drawn", winner or None)`.
    #[getter]
    fn outcome(&self) -> (&'static str, Option<u8>) {
        outcome_parts(self.state.outcome())
    }

    fn gain(&self, player: usize, colour: usize) -> PyResult<u32> {
        self.check_player(player)?;
        if colour >= self.board.colour_count() {
            return Err(param(format!(
                "colour {colour} is out of range 0..{}",
                self.board.colour_count() - 1
            )));
        }
        Ok(self.state.gain(&self.board, player, colour))
    }

    fn reach(&self, player: usize) -> PyResult<u32> {
        self.check_player(player)?;
        Ok(self.state.reach(&self.board, player))
    }

    fn margin(&self, player: usize) -> PyResult<i64> {
        self.check_player(player)?;
        Ok(self.state.margin(player))
    }

    fn copy(&self) -> Self {
        self.clone()
    }
}

impl PyGame {
    fn check_player(&self, player: usize) -> PyResult<()> {
        if player >= self.board.players() {
            return Err(param(format!(
                "player {player} is outside 0..{}",
                self.board.players() - 1
            )));
        }
        Ok(())
    }
}

/// `annexation_playouts(game, n, policy, steps, seed, threads, progress)`:
/// `(wins per player, draws, margin_sum)`; `progress(done)` is called about every 20 ms with
/// the number of playouts finished.
#[pyfunction]
#[pyo3(name = "playouts", signature = (game, n, policy, steps, seed, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn annexation_playouts(
    py: Python<'_>,
    game: &PyGame,
    n: u64,
    policy: &str,
    steps: Option<u32>,
    seed: u64,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<(Vec<u64>, u64, i64)> {
    let policy = named(
        "policy",
        policy,
        &["random", "light"],
        [Policy::Random, Policy::Light { steps }],
    )
    .map_err(to_py)?;
    let threads = thread_count(threads)?;
    let (board, state) = (game.board.clone(), game.state.clone());
    let tally = counted_in_pool(py, threads, progress.as_ref(), |cancel, done| {
        playouts(&board, &state, n, policy, seed, cancel, done)
    })?;
    Ok((
        tally.wins[..board.players()].to_vec(),
        tally.draws,
        tally.margin_sum,
    ))
}

/// An agent: its settings and, for MCTS, the trees it keeps between moves.
#[pyclass(module = "stratagem._core.annexation", name = "Agent")]
#[derive(Clone)]
pub struct PyAgent {
    spec: AiSpec,
    seed: u64,
    agent: Agent,
    threads: Option<usize>,
}

#[pymethods]
impl PyAgent {
    #[new]
    // margin, greedy, bias and plan default to mcts::DEFAULT_{MARGIN_WEIGHT, GREEDY_BIAS,
    // GAIN_BIAS, PLAN_WIDTH} (a signature shows literals only).
    #[pyo3(signature = (kind, seed=0, depth=3, heuristic="reach", iterations=None, time=None, c=0.5, playouts=1, trees=1, reuse=true, margin=0.5, greedy=6, bias=3.0, plan=100, threads=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        kind: &str,
        seed: u64,
        depth: u32,
        heuristic: &str,
        iterations: Option<u64>,
        time: Option<f64>,
        c: f64,
        playouts: u32,
        trees: u32,
        reuse: bool,
        margin: f64,
        greedy: u32,
        bias: f64,
        plan: u32,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let spec = match kind {
            "random" => AiSpec::Stateless(Stateless::Random),
            "greedy" => AiSpec::Stateless(Stateless::Greedy),
            "fractal" => AiSpec::Stateless(Stateless::Fractal),
            "minimax" => {
                if !(1..=12).contains(&depth) {
                    return Err(param(format!("depth must be from 1 to 12, got {depth}")));
                }
                let heuristic = Heuristic::parse(heuristic).map_err(to_py)?;
                AiSpec::Stateless(Stateless::Minimax { depth, heuristic })
            }
            "mcts" => {
                let budget = match (iterations, time) {
                    (Some(iterations), None) => Budget::Iterations(iterations),
                    (None, Some(seconds)) => Budget::Time(convert::seconds("time", seconds)?),
                    _ => {
                        return Err(param("mcts takes either iterations or time, not both"));
                    }
                };
                let config = MctsConfig::new(budget, c, playouts, trees, reuse)
                    .and_then(|config| config.with_margin_weight(margin))
                    .and_then(|config| config.with_greedy_bias(greedy))
                    .and_then(|config| config.with_gain_bias(bias))
                    .and_then(|config| config.with_plan_width(plan))
                    .map_err(to_py)?;
                AiSpec::Mcts(config)
            }
            other => {
                return Err(param(format!(
                    "unknown AI {other:?}; choose one of {}",
                    AI_NAMES.join(", ")
                )));
            }
        };
        thread_count(threads)?;
        Ok(Self {
            spec,
            seed,
            agent: spec.spawn(seed),
            threads,
        })
    }

    /// The colour this agent plays in `game`.
    fn choose(&mut self, py: Python<'_>, game: &PyGame) -> PyResult<usize> {
        let searches = matches!(
            self.spec,
            AiSpec::Mcts(_) | AiSpec::Stateless(Stateless::Minimax { .. })
        );
        if !searches {
            return self
                .agent
                .choose(&game.board, &game.state, &game.history, &Cancel::new())
                .map_err(to_py);
        }
        let threads = thread_count(self.threads)?;
        let agent = &mut self.agent;
        interruptible_in_pool(py, threads, |cancel| {
            agent.choose(&game.board, &game.state, &game.history, cancel)
        })
    }

    /// A fresh copy of this agent with another seed (no trees kept).
    fn spawn(&self, seed: u64) -> Self {
        Self {
            spec: self.spec,
            seed,
            agent: self.spec.spawn(seed),
            threads: self.threads,
        }
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Iterations all trees ran during the last move (MCTS; 0 otherwise).
    #[getter]
    fn last_iterations(&self) -> u64 {
        match &self.agent {
            Agent::Mcts(mcts) => mcts.last_iterations(),
            Agent::Stateless { .. } => 0,
        }
    }

    /// Visits of every colour at the root after the last move (MCTS; zeros otherwise).
    fn root_visits(&self) -> Vec<u64> {
        match &self.agent {
            Agent::Mcts(mcts) => mcts.root_visits().to_vec(),
            Agent::Stateless { .. } => vec![0; stratagem_annexation::MAX_COLOURS],
        }
    }
}

/// `annexation_play_fixtures(board, colours, first, seeds, a, b, threads)`: one game per row
/// of `colours` (the board recoloured), `first[g]` = 0 when A moves first. Returns
/// `(winner side per game (-1 drawn), cells of A and B, moves)`.
#[pyfunction]
#[pyo3(name = "play_fixtures", signature = (board, colours, first, seeds, a, b, threads=None))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn annexation_play_fixtures<'py>(
    py: Python<'py>,
    board: &PyBoard,
    colours: PyReadonlyArray2<'py, u8>,
    first: PyReadonlyArray1<'py, u8>,
    seeds: PyReadonlyArray2<'py, u64>,
    a: &PyAgent,
    b: &PyAgent,
    threads: Option<usize>,
) -> PyResult<(
    Bound<'py, PyArray1<i8>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray1<i64>>,
)> {
    let (colours, seeds, first) = (
        flat_rows(&colours),
        flat_rows(&seeds),
        first.as_array().to_vec(),
    );
    let arrays = MatchArrays {
        colours: (&colours.0, colours.1),
        first: &first,
        seeds: (&seeds.0, seeds.1),
    };
    let fixtures =
        match_fixtures(&board.inner, &board.offsets, &board.neighbours, &arrays).map_err(to_py)?;
    let threads = thread_count(threads)?;
    let specs = [a.spec, b.spec];
    let finished = interruptible_in_pool(py, threads, |cancel| {
        play_fixtures(specs, &fixtures, cancel)
    })?;
    let table = match_table(&finished, &fixtures);
    Ok((
        Array1::from_vec(table.winner).into_pyarray(py),
        rows_array(py, (fixtures.len(), 2), table.cells)?,
        Array1::from_vec(table.moves).into_pyarray(py),
    ))
}

/// The arrays of a batch of positions (see `stratagem.annexation.batch`).
type BatchArrays<'py> = (
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<i8>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i8>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
);

/// The positions of a batch, read by attribute from a `stratagem.annexation.batch.BatchState`.
#[derive(FromPyObject)]
struct BatchPositions<'py> {
    owner: PyReadonlyArray2<'py, i8>,
    player_colours: PyReadonlyArray2<'py, u8>,
    current_player: PyReadonlyArray1<'py, i8>,
    moves: PyReadonlyArray1<'py, i64>,
}

/// `annexation_batch_step(board, state, actions, threads)`: the next positions of `state`'s
/// batch, `(owner, colours, to_move, moves, winner (-1 none), terminated, rewards, legal)`.
#[pyfunction]
#[pyo3(name = "batch_step", signature = (board, state, actions, threads=None))]
fn annexation_batch_step<'py>(
    py: Python<'py>,
    board: &PyBoard,
    state: BatchPositions<'py>,
    actions: PyReadonlyArray1<'py, i64>,
    threads: Option<usize>,
) -> PyResult<BatchArrays<'py>> {
    let (owner, colours) = (flat_rows(&state.owner), flat_rows(&state.player_colours));
    let (to_move, moves, actions) = (
        state.current_player.as_array().to_vec(),
        state.moves.as_array().to_vec(),
        actions.as_array().to_vec(),
    );
    let inner = board.inner.clone();
    let threads = thread_count(threads)?;
    let arrays = Arrays {
        owner: (&owner.0, owner.1),
        colours: (&colours.0, colours.1),
        to_move: &to_move,
        moves: &moves,
        actions: &actions,
    };
    let out = detached_in_pool(py, threads, || step_arrays(&inner, &arrays))?;
    let (batch, cells, players, k) = (
        out.batch,
        inner.cells(),
        inner.players(),
        inner.colour_count(),
    );
    Ok((
        rows_array(py, (batch, cells), out.owner)?,
        rows_array(py, (batch, players), out.colours)?,
        Array1::from_vec(out.to_move).into_pyarray(py),
        Array1::from_vec(out.moves).into_pyarray(py),
        Array1::from_vec(out.winner).into_pyarray(py),
        Array1::from_vec(out.terminated).into_pyarray(py),
        rows_array(py, (batch, players), out.rewards)?,
        rows_array(py, (batch, k), out.legal)?,
    ))
}

/// The engine of the Gymnasium vector env: `num_envs` games on one board, seat 0 against
/// random opponents, stepped together over threads into the caller's numpy buffers.
#[pyclass(module = "stratagem._core.annexation", name = "Vector")]
pub struct PyVector {
    inner: VectorEnv,
    threads: usize,
}

/// The caller's output buffers (a tuple of the six arrays), checked C-contiguous and borrowed
/// for one call.
#[derive(FromPyObject)]
struct Buffers<'py>(
    PyReadwriteArray3<'py, i8>,
    PyReadwriteArray1<'py, f64>,
    PyReadwriteArray1<'py, bool>,
    PyReadwriteArray1<'py, bool>,
    PyReadwriteArray2<'py, i8>,
    PyReadwriteArray3<'py, i8>,
);

impl Buffers<'_> {
    fn outputs(&mut self) -> PyResult<Outputs<'_>> {
        let contiguous = |name: &str| param(format!("{name} must be a C-contiguous array"));
        let Self(observations, rewards, terminated, truncated, masks, last) = self;
        Ok(Outputs {
            observations: observations
                .as_slice_mut()
                .map_err(|_| contiguous("observations"))?,
            rewards: rewards.as_slice_mut().map_err(|_| contiguous("rewards"))?,
            terminated: terminated
                .as_slice_mut()
                .map_err(|_| contiguous("terminated"))?,
            truncated: truncated
                .as_slice_mut()
                .map_err(|_| contiguous("truncated"))?,
            masks: masks.as_slice_mut().map_err(|_| contiguous("masks"))?,
            final_observations: last
                .as_slice_mut()
                .map_err(|_| contiguous("final_observations"))?,
        })
    }
}

#[pymethods]
impl PyVector {
    /// `num_envs` envs on `board`; `fresh`: a board drawn from each episode's seed with
    /// `board`'s cells, starts, colour count and rules; `opponent`: an `Agent` (None: the
    /// bridges' random opponent); `seat`: the agent's seat; `same_step`: same-step autoreset.
    #[new]
    #[pyo3(signature = (board, num_envs, threads=None, *, fresh=false, opponent=None, seat=0, same_step=false))]
    fn new(
        board: &PyBoard,
        num_envs: usize,
        threads: Option<usize>,
        fresh: bool,
        opponent: Option<PyRef<'_, PyAgent>>,
        seat: usize,
        same_step: bool,
    ) -> PyResult<Self> {
        let inner = &board.inner;
        let boards = if fresh {
            Boards::Fresh(Layout::new(inner, &board.offsets, &board.neighbours).map_err(to_py)?)
        } else {
            Boards::Fixed(Arc::clone(inner))
        };
        let settings = Settings {
            boards,
            opponent: opponent.map_or(Opponent::Random, |agent| Opponent::Ai(agent.spec)),
            seat,
            same_step,
        };
        Ok(Self {
            inner: VectorEnv::new(inner, num_envs, settings).map_err(to_py)?,
            threads: thread_count(threads)?,
        })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.inner.num_envs()
    }

    /// The cell colours of the board env `env` plays now.
    fn board_colours<'py>(
        &self,
        py: Python<'py>,
        env: usize,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let board = self
            .inner
            .board(env)
            .ok_or_else(|| param(format!("env {env} is out of range")))?;
        Ok(board.cell_colours().to_vec().into_pyarray(py))
    }

    /// Starts episode 0 of every env (env `i` seeded `seeds[i]`) and writes its outputs into
    /// `buffers` (observations, rewards, terminated, truncated, masks, final observations).
    fn reset(&mut self, seeds: PyReadonlyArray1<'_, u64>, buffers: Buffers<'_>) -> PyResult<()> {
        self.run(&seeds, "seeds", buffers, VectorEnv::reset)
    }

    /// One step of every env with the agent's `actions`, written into `buffers`.
    fn step(&mut self, actions: PyReadonlyArray1<'_, i64>, buffers: Buffers<'_>) -> PyResult<()> {
        self.run(&actions, "actions", buffers, VectorEnv::step)
    }
}

impl PyVector {
    /// Runs `work` on the envs, the values of `input` (which must be C-contiguous; `name`
    /// names it in errors) and the buffers with the GIL released: small batches on this
    /// thread, larger ones in the pool. A step is short (a few moves per env), so there is no
    /// Ctrl-C watch.
    fn run<T: numpy::Element + Sync>(
        &mut self,
        input: &PyReadonlyArray1<'_, T>,
        name: &str,
        mut buffers: Buffers<'_>,
        work: impl FnOnce(&mut VectorEnv, &[T], Outputs<'_>) -> stratagem_core::Result<()> + Send,
    ) -> PyResult<()> {
        let py = input.py();
        let input = input
            .as_slice()
            .map_err(|_| param(format!("{name} must be C-contiguous")))?;
        let outputs = buffers.outputs()?;
        let env = &mut self.inner;
        if env.num_envs() <= SERIAL_ENVS {
            return py.detach(|| work(env, input, outputs)).map_err(to_py);
        }
        detached_in_pool(py, self.threads, || work(env, input, outputs))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("AIS", AI_NAMES)?;
    m.add("MODES", Mode::NAMES)?;
    m.add("HEURISTICS", Heuristic::NAMES)?;
    add!(m; classes PyVector, PyBoard, PyGame, PyAgent; functions annexation_playouts,
        annexation_play_fixtures, annexation_batch_step);
    Ok(())
}
