//! Many games stepped at once: the engine of the Gymnasium envs of annexation
//! (`python/stratagem/annexation/vector.py`, docs/envs.md).
//!
//! Every env plays one seat (the agent's) of a game against built-in opponents, exactly as the
//! Gymnasium env of one game through the protocol does (`python/stratagem/envs/gymnasium.py`):
//! - the board is the same for every episode, or (`Boards::Fresh`) drawn for each episode from
//!   its game seed as `Board.hex(..., seed=game seed)` draws it: colour draw `a` (from 0) is
//!   `uniform_below(colours)` per cell, in cell order, from stream
//!   `(game seed, "annexation.colours", a)`, the first draw that puts the start cells in
//!   different colour regions;
//! - the random opponent's move is legal colour number `uniform_below(legal count)` of the
//!   first cursor of stream `(game seed, "envs.opponent", moves so far, seat)`; any other
//!   opponent is an AI spawned with seed `game seed + moves so far` for its move;
//! - episode `e` of an env seeded `s` has game seed `s` when `e` is 0, else word 0 of block 0
//!   of stream `(s, "envs.episode", e)`;
//! - a step's reward is the agent's win/loss reward when the game ends (+1 win, -1 loss; a
//!   draw 0 when the agent shares the top, else -1), and an illegal action ends the episode
//!   with -1;
//! - autoreset: with `same_step`, an env whose episode ends writes its last observation to
//!   `final_observations` and starts its next episode in the same step (the observation and
//!   mask written are the new episode's); otherwise its next step resets it (that step's
//!   action is ignored, its reward is 0) and the mask written when the episode ends is all
//!   ones, so a masked policy always has an action to pick (so is the mask of a game the
//!   opponents ended before the agent's first move, which the next step ends).
//!
//! The observation of an env is `int8 (2, cells)`: each cell's owner relative to the agent's
//! seat (-1 unowned, 0 the agent, 1 the next seat in turn order, ...), then the colour it
//! shows. Outputs are written into the caller's buffers, env by env (in parallel for large
//! batches); the result does not depend on the thread count.

use std::sync::Arc;

use rayon::prelude::*;
use stratagem_core::rng::Stream;
use stratagem_core::{Cancel, Error, Result};

use crate::ai::AiSpec;
use crate::board::{Board, Regions, with_words};
use crate::state::{Outcome, State, nth_colour};

/// The purposes of the streams the vector env draws from, shared with the Python bridges.
pub const OPPONENT: &str = "envs.opponent";
pub const EPISODE: &str = "envs.episode";
pub const COLOURS: &str = "annexation.colours";
/// Colour draws tried before a fresh board is given up (as `Board.hex` does).
pub const COLOUR_ATTEMPTS: u64 = 1000;
/// Batches up to this size are stepped on the calling thread.
pub const SERIAL_ENVS: usize = 32;

/// The graph every fresh board shares (checked once), as its edges; only the colours are
/// drawn per episode, into the env's own board.
#[derive(Clone, Debug)]
pub struct Layout {
    cells: usize,
    edges: Vec<(u32, u32)>,
}

impl Layout {
    /// The layout of `board`, whose graph is `offsets` and `neighbours`.
    pub fn new(board: &Board, offsets: &[i64], neighbours: &[i64]) -> Result<Self> {
        let cells = stratagem_core::graph::check(offsets, neighbours, &crate::board::GRAPH)?;
        if cells != board.cells() {
            return Err(Error::InvalidParameter(format!(
                "a layout of {cells} cells for a board of {}",
                board.cells()
            )));
        }
        Ok(Self {
            cells,
            edges: crate::board::edges(offsets, neighbours).collect(),
        })
    }

    /// Recolours `board` (a board of this layout) as the board of game seed `seed` (see the
    /// module's docs), in place; `scratch` holds the draw under test.
    fn redraw(
        &self,
        board: &mut Board,
        seed: u64,
        colours_tag: u64,
        scratch: &mut Redraw,
    ) -> Result<()> {
        let k = board.colour_count() as u64;
        scratch.colours.resize(board.cells(), 0);
        for attempt in 0..COLOUR_ATTEMPTS {
            let stream = Stream::with_tag(seed, colours_tag, &[attempt])?;
            draw_below(&stream, k, &mut scratch.colours);
            scratch.regions.label(&self.edges, &scratch.colours);
            if scratch.regions.shared_start(board.starts()).is_none() {
                board.recolour_in_place(&self.edges, &scratch.colours, &scratch.regions);
                return Ok(());
            }
        }
        Err(Error::InvalidBoard(format!(
            "no colour draw out of {COLOUR_ATTEMPTS} (seed {seed}, {k} colours) puts the start \
             cells in different regions"
        )))
    }
}

/// `values[i] = stream.cursor().uniform_below(n)` in turn (the same words and values): the
/// rejection bound worked out once, and for a power-of-two `n` (which rejects nothing) each
/// block's four words taken by a mask instead of a division.
fn draw_below(stream: &Stream, n: u64, values: &mut [u8]) {
    // Below n <= 16 colours: the casts are exact.
    if n.is_power_of_two() {
        for (block, chunk) in (0..).zip(values.chunks_mut(4)) {
            for (value, word) in chunk.iter_mut().zip(stream.block(block)) {
                *value = (word & (n - 1)) as u8;
            }
        }
        return;
    }
    let mut cursor = stream.cursor();
    for value in values {
        *value = cursor.uniform_below(n) as u8;
    }
}

/// The buffers a fresh board is drawn in: the colours under test and their regions.
#[derive(Clone, Debug, Default)]
struct Redraw {
    colours: Vec<u8>,
    regions: Regions,
}

/// Where each episode's board comes from.
#[derive(Clone, Debug)]
pub enum Boards {
    /// One board for every env and episode.
    Fixed(Arc<Board>),
    /// A board drawn from each episode's game seed.
    Fresh(Layout),
}

/// Who plays the seats other than the agent's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Opponent {
    /// The bridges' random opponent (stream `"envs.opponent"`).
    Random,
    /// A built-in AI, spawned for each move with seed `game seed + moves so far`.
    Ai(AiSpec),
}

/// How the envs are set up: boards, opponent, the agent's seat and the autoreset rule.
#[derive(Clone, Debug)]
pub struct Settings {
    pub boards: Boards,
    pub opponent: Opponent,
    pub seat: usize,
    pub same_step: bool,
}

/// One env: its game, the seeds of its episodes and whether its next step resets it.
#[derive(Clone, Debug)]
struct Env {
    board: Arc<Board>,
    state: State,
    history: Vec<u8>,
    base_seed: u64,
    episode: u64,
    game_seed: u64,
    needs_reset: bool,
    /// Each cell's owner relative to the agent's seat (-1: unowned) as of the last
    /// observation, which `synced` (the unowned units then) tells from units taken since.
    cell_owner: Vec<i8>,
    synced: Vec<u64>,
    unit_cells: UnitCells,
    redraw: Redraw,
}

/// The cells of each unit of a board, as CSR.
#[derive(Clone, Debug, Default)]
struct UnitCells {
    offsets: Vec<u32>,
    cells: Vec<u32>,
}

impl UnitCells {
    fn of(board: &Board) -> Self {
        let mut unit_cells = Self::default();
        unit_cells.rebuild(board);
        unit_cells
    }

    /// The cells of each unit of `board`, in the buffers it has: a counting sort of the
    /// cells by unit (counts, their running sums, which are each unit's end, then the cells
    /// placed from the last down, which leaves each unit's start one slot up).
    fn rebuild(&mut self, board: &Board) {
        let units = board.units();
        self.offsets.clear();
        self.offsets.resize(units + 1, 0);
        for &unit in board.unit_of_cell() {
            self.offsets[unit as usize + 1] += 1;
        }
        for unit in 0..units {
            self.offsets[unit + 1] += self.offsets[unit];
        }
        self.cells.resize(board.cells(), 0);
        for (cell, &unit) in board.unit_of_cell().iter().enumerate().rev() {
            let end = &mut self.offsets[unit as usize + 1];
            *end -= 1;
            // Cells number below 2^32 (graph::check).
            self.cells[*end as usize] = cell as u32;
        }
        self.offsets.copy_within(1.., 0);
        self.offsets[units] = board.cells() as u32;
    }

    fn cells_of(&self, unit: usize) -> &[u32] {
        &self.cells[self.offsets[unit] as usize..self.offsets[unit + 1] as usize]
    }
}

/// The caller's output buffers of one step, env-major: `observations` and
/// `final_observations` hold `2 * cells` values per env, `masks` `colours` values per env.
pub struct Outputs<'a> {
    pub observations: &'a mut [i8],
    pub rewards: &'a mut [f64],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub masks: &'a mut [i8],
    pub final_observations: &'a mut [i8],
}

/// One env with its input and its output slots, as the zipped iterators hand them over.
type Slots<'a, T> = (
    (
        (((&'a mut Env, &'a T), &'a mut [i8]), &'a mut [i8]),
        &'a mut f64,
    ),
    (&'a mut bool, &'a mut [i8]),
);

/// The stream tags and settings an env step reads.
struct Shared<'a> {
    settings: &'a Settings,
    players: usize,
    opponent_tag: u64,
    episode_tag: u64,
    colours_tag: u64,
}

/// `num_envs` games of one geometry.
#[derive(Clone, Debug)]
pub struct VectorEnv {
    envs: Vec<Env>,
    settings: Settings,
    cells: usize,
    colours: usize,
    players: usize,
    opponent_tag: u64,
    episode_tag: u64,
    colours_tag: u64,
}

impl VectorEnv {
    /// `num_envs` envs on `board` (the first board, and every board for `Boards::Fixed`),
    /// each at the first position (seeded 0 until [`VectorEnv::reset`]).
    pub fn new(board: &Arc<Board>, num_envs: usize, settings: Settings) -> Result<Self> {
        if num_envs == 0 {
            return Err(Error::InvalidParameter(
                "num_envs must be at least 1".into(),
            ));
        }
        if settings.seat >= board.players() {
            return Err(Error::InvalidParameter(format!(
                "seat must be from 0 to {}, got {}",
                board.players() - 1,
                settings.seat
            )));
        }
        if let Boards::Fresh(layout) = &settings.boards {
            if layout.cells != board.cells() {
                return Err(Error::InvalidParameter(
                    "a fresh-board layout must have the board's cells".into(),
                ));
            }
        }
        let mut env = Env {
            board: Arc::clone(board),
            state: State::initial(board)?,
            history: Vec::new(),
            base_seed: 0,
            episode: 0,
            game_seed: 0,
            needs_reset: false,
            cell_owner: Vec::new(),
            synced: Vec::new(),
            unit_cells: UnitCells::of(board),
            redraw: Redraw::default(),
        };
        env.show_nothing_owned();
        Ok(Self {
            envs: vec![env; num_envs],
            settings,
            cells: board.cells(),
            colours: board.colour_count(),
            players: board.players(),
            opponent_tag: stratagem_core::rng::purpose_tag(OPPONENT),
            episode_tag: stratagem_core::rng::purpose_tag(EPISODE),
            colours_tag: stratagem_core::rng::purpose_tag(COLOURS),
        })
    }

    pub fn num_envs(&self) -> usize {
        self.envs.len()
    }

    /// The board env `env` plays now.
    pub fn board(&self, env: usize) -> Option<&Arc<Board>> {
        self.envs.get(env).map(|env| &env.board)
    }

    /// Starts episode 0 of every env, env `i` seeded `seeds[i]`, and writes the first
    /// observations and masks (rewards 0, no env terminated).
    pub fn reset(&mut self, seeds: &[u64], out: Outputs<'_>) -> Result<()> {
        self.for_each_env(seeds, out, |env, &seed, shared, _| {
            env.base_seed = seed;
            env.episode = 0;
            env.start(shared)?;
            Ok((0.0, false))
        })
    }

    /// One step of every env with the agent's `actions` (see the module's docs).
    pub fn step(&mut self, actions: &[i64], out: Outputs<'_>) -> Result<()> {
        self.for_each_env(actions, out, |env, &action, shared, last| {
            env.step(action, shared, last)
        })
    }

    /// Runs `play(env, input, shared, final observation)` -> `(reward, terminated)` for every
    /// env (in parallel for large batches) and writes its outputs.
    fn for_each_env<T: Sync>(
        &mut self,
        inputs: &[T],
        out: Outputs<'_>,
        play: impl Fn(&mut Env, &T, &Shared<'_>, &mut [i8]) -> Result<(f64, bool)> + Sync,
    ) -> Result<()> {
        self.check_outputs(inputs.len(), &out)?;
        let (cells, colours) = (self.cells, self.colours);
        let shared = Shared {
            settings: &self.settings,
            players: self.players,
            opponent_tag: self.opponent_tag,
            episode_tag: self.episode_tag,
            colours_tag: self.colours_tag,
        };
        let one =
            |(((((env, input), observation), mask), reward), (terminated, last)): Slots<'_, T>| {
                (*reward, *terminated) = play(env, input, &shared, last)?;
                env.write(&shared, observation, mask);
                Ok::<(), Error>(())
            };
        out.truncated.fill(false);
        if self.envs.len() <= SERIAL_ENVS {
            self.envs
                .iter_mut()
                .zip(inputs)
                .zip(out.observations.chunks_mut(2 * cells))
                .zip(out.masks.chunks_mut(colours))
                .zip(out.rewards.iter_mut())
                .zip(
                    out.terminated
                        .iter_mut()
                        .zip(out.final_observations.chunks_mut(2 * cells)),
                )
                .try_for_each(one)
        } else {
            self.envs
                .par_iter_mut()
                .zip(inputs.par_iter())
                .zip(out.observations.par_chunks_mut(2 * cells))
                .zip(out.masks.par_chunks_mut(colours))
                .zip(out.rewards.par_iter_mut())
                .zip(
                    out.terminated
                        .par_iter_mut()
                        .zip(out.final_observations.par_chunks_mut(2 * cells)),
                )
                .with_min_len(SERIAL_ENVS)
                .try_for_each(one)
        }
    }

    fn check_outputs(&self, given: usize, out: &Outputs<'_>) -> Result<()> {
        let n = self.envs.len();
        let sizes = [
            ("actions or seeds", given, n),
            ("observations", out.observations.len(), n * 2 * self.cells),
            ("rewards", out.rewards.len(), n),
            ("terminated", out.terminated.len(), n),
            ("truncated", out.truncated.len(), n),
            ("masks", out.masks.len(), n * self.colours),
            (
                "final_observations",
                out.final_observations.len(),
                n * 2 * self.cells,
            ),
        ];
        for (name, got, expected) in sizes {
            if got != expected {
                return Err(Error::InvalidParameter(format!(
                    "{name} has {got} values for {n} envs; expected {expected}"
                )));
            }
        }
        Ok(())
    }
}

impl Env {
    /// The first position of the current episode, with its game seed (and its board).
    fn start(&mut self, shared: &Shared<'_>) -> Result<()> {
        self.game_seed = if self.episode == 0 {
            self.base_seed
        } else {
            Stream::with_tag(self.base_seed, shared.episode_tag, &[self.episode])?.block(0)[0]
        };
        if let Boards::Fresh(layout) = &shared.settings.boards {
            // The envs share their first board until they draw their own.
            let board = Arc::make_mut(&mut self.board);
            layout.redraw(board, self.game_seed, shared.colours_tag, &mut self.redraw)?;
            self.unit_cells.rebuild(board);
        }
        self.state.restart(&self.board)?;
        self.show_nothing_owned();
        self.history.clear();
        self.needs_reset = false;
        self.play_opponents(shared)
    }

    /// Every cell shown unowned, and every unit too, so that the next observation shows all
    /// the owned ones.
    fn show_nothing_owned(&mut self) {
        self.cell_owner.clear();
        self.cell_owner.resize(self.board.cells(), -1);
        let units = self.board.units();
        self.synced.clear();
        self.synced.resize(units.div_ceil(64), u64::MAX);
        if units % 64 != 0 {
            self.synced[units / 64] = (1u64 << (units % 64)) - 1;
        }
    }

    /// `(reward, terminated)` of the agent's `action`; with same-step autoreset an ended
    /// episode's last observation goes to `last` and the next episode starts.
    fn step(&mut self, action: i64, shared: &Shared<'_>, last: &mut [i8]) -> Result<(f64, bool)> {
        if self.needs_reset {
            self.episode += 1;
            self.start(shared)?;
            return Ok((0.0, false));
        }
        let legal = self.state.legal_mask(&self.board);
        let in_range = (0..self.board.colour_count() as i64).contains(&action);
        let reward = if self.state.is_over() {
            // The opponents ended the game before the agent's first move (tiny boards): the
            // action is ignored and the episode ends with its result.
            agent_reward(&self.state, shared.settings.seat)
        } else if !in_range || legal & (1 << action) == 0 {
            -1.0
        } else {
            self.play(action as usize);
            self.play_opponents(shared)?;
            if !self.state.is_over() {
                return Ok((0.0, false));
            }
            agent_reward(&self.state, shared.settings.seat)
        };
        self.needs_reset = true;
        if shared.settings.same_step {
            let mut no_mask = [0i8; 0];
            self.write(shared, last, &mut no_mask);
            self.episode += 1;
            self.start(shared)?;
        }
        Ok((reward, true))
    }

    fn play(&mut self, colour: usize) {
        let (state, board) = (&mut self.state, &self.board);
        with_words!(board.words(), W => state.play_in::<W>(board, colour));
        // Colours are below 16: the cast is exact.
        self.history.push(colour as u8);
    }

    /// The opponents' moves until the agent is to move or the game is over.
    fn play_opponents(&mut self, shared: &Shared<'_>) -> Result<()> {
        let seat = shared.settings.seat;
        while !self.state.is_over() && self.state.to_move() != seat {
            let colour = match shared.settings.opponent {
                Opponent::Random => {
                    let legal = self.state.legal_mask(&self.board);
                    let ids = [u64::from(self.state.moves()), self.state.to_move() as u64];
                    let mut cursor =
                        Stream::with_tag(self.game_seed, shared.opponent_tag, &ids)?.cursor();
                    let index = cursor.uniform_below(u64::from(legal.count_ones()));
                    nth_colour(legal, index as u32)
                }
                Opponent::Ai(spec) => {
                    let seed = self.game_seed.wrapping_add(u64::from(self.state.moves()));
                    spec.spawn(seed).choose(
                        &self.board,
                        &self.state,
                        &self.history,
                        &Cancel::new(),
                    )?
                }
            };
            self.play(colour);
        }
        Ok(())
    }

    /// Writes the observation of the agent's seat: first the owners of the units taken since
    /// the last observation go into `cell_owner`, then the owners are copied and each cell
    /// shows its owner's colour or its own; then the legal mask goes into `mask` (all ones
    /// when the episode has ended: the next action is ignored).
    fn write(&mut self, shared: &Shared<'_>, observation: &mut [i8], mask: &mut [i8]) {
        let (state, board) = (&self.state, &self.board);
        let (seat, players) = (shared.settings.seat, shared.players);
        // Players are at most 4: the casts are exact.
        let relative = |q: usize| ((q + players - seat) % players) as i8;
        for (w, (synced, &unowned)) in self.synced.iter_mut().zip(state.unowned()).enumerate() {
            let mut taken = *synced & !unowned;
            *synced = unowned;
            while taken != 0 {
                let bit = taken & taken.wrapping_neg();
                let owner = (0..players).find(|&q| state.owned(q)[w] & bit != 0);
                let owner = owner.map_or(-1, relative);
                let unit = w * 64 + bit.trailing_zeros() as usize;
                for &cell in self.unit_cells.cells_of(unit) {
                    self.cell_owner[cell as usize] = owner;
                }
                taken &= taken - 1;
            }
        }
        let (owners, shown) = observation.split_at_mut(board.cells());
        owners.copy_from_slice(&self.cell_owner);
        // Each cell's colour, then each player's over its cells: whole-slice passes that
        // compile to vector selects.
        for (shown, &colour) in shown.iter_mut().zip(board.cell_colours()) {
            // Colours are below 16: the casts are exact.
            *shown = colour as i8;
        }
        for (q, &colour) in state.player_colours().iter().enumerate() {
            let (owner, colour) = (relative(q), colour as i8);
            for (shown, &at) in shown.iter_mut().zip(&self.cell_owner) {
                *shown = if at == owner { colour } else { *shown };
            }
        }
        let legal = if self.needs_reset || state.is_over() {
            u32::MAX
        } else {
            state.legal_mask(board)
        };
        for (colour, slot) in mask.iter_mut().enumerate() {
            *slot = i8::from(legal & (1 << colour) != 0);
        }
    }
}

/// The agent's reward at the end (docs/games.md: +1 win, -1 loss; a draw 0 to the seats at
/// the top, -1 to the rest).
fn agent_reward(state: &State, seat: usize) -> f64 {
    match state.outcome() {
        Outcome::Won(winner) if usize::from(winner) == seat => 1.0,
        Outcome::Won(_) => -1.0,
        Outcome::Drawn => {
            let scores = state.scores();
            let top = scores.iter().copied().max().unwrap_or(0);
            if scores.get(seat) == Some(&top) {
                0.0
            } else {
                -1.0
            }
        }
        Outcome::Ongoing => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Mode, Rules};

    /// A path of 7 cells, 3 colours: a small board both players cover quickly.
    fn path() -> Result<Board> {
        let offsets = [0, 1, 3, 5, 7, 9, 11, 12];
        let neighbours = [1, 0, 2, 1, 3, 2, 4, 3, 5, 4, 6, 5];
        let colours = [0, 1, 2, 0, 1, 2, 1];
        let rules = Rules {
            mode: Mode::Flood,
            allow_opponent_colours: false,
            max_moves: None,
        };
        Board::new(&offsets, &neighbours, &colours, 3, &[0, 6], rules)
    }

    struct Buffers {
        observations: Vec<i8>,
        rewards: Vec<f64>,
        terminated: Vec<bool>,
        truncated: Vec<bool>,
        masks: Vec<i8>,
        final_observations: Vec<i8>,
    }

    impl Buffers {
        fn new(board: &Board, n: usize) -> Self {
            Self {
                observations: vec![0; n * 2 * board.cells()],
                rewards: vec![0.0; n],
                terminated: vec![false; n],
                truncated: vec![false; n],
                masks: vec![0; n * board.colour_count()],
                final_observations: vec![0; n * 2 * board.cells()],
            }
        }

        fn outputs(&mut self) -> Outputs<'_> {
            Outputs {
                observations: &mut self.observations,
                rewards: &mut self.rewards,
                terminated: &mut self.terminated,
                truncated: &mut self.truncated,
                masks: &mut self.masks,
                final_observations: &mut self.final_observations,
            }
        }
    }

    fn settings(boards: Boards, same_step: bool) -> Settings {
        Settings {
            boards,
            opponent: Opponent::Random,
            seat: 0,
            same_step,
        }
    }

    /// `num_envs` envs on `board` (next-step autoreset) and the buffers for their outputs.
    fn envs(board: &Board, num_envs: usize) -> Result<(VectorEnv, Buffers)> {
        let board = Arc::new(board.clone());
        let fixed = settings(Boards::Fixed(Arc::clone(&board)), false);
        Ok((
            VectorEnv::new(&board, num_envs, fixed)?,
            Buffers::new(&board, num_envs),
        ))
    }

    fn run(board: &Board, threads: usize, steps: usize) -> Result<Vec<(Vec<i8>, Vec<f64>)>> {
        let (mut env, mut out) = envs(board, 8)?;
        let seeds: Vec<u64> = (0..8).collect();
        let pool = stratagem_core::parallel::pool(threads)?;
        pool.install(|| env.reset(&seeds, out.outputs()))?;
        let mut trace = Vec::new();
        for _ in 0..steps {
            // The first legal colour of each env (0 for an env about to reset).
            let actions: Vec<i64> = out
                .masks
                .chunks(board.colour_count())
                .map(|m| m.iter().position(|&on| on == 1).unwrap_or(0) as i64)
                .collect();
            pool.install(|| env.step(&actions, out.outputs()))?;
            trace.push((out.observations.clone(), out.rewards.clone()));
        }
        Ok(trace)
    }

    #[test]
    fn any_thread_count_gives_the_same_steps() -> Result<()> {
        let board = path()?;
        let one = run(&board, 1, 30)?;
        assert_eq!(one, run(&board, 2, 30)?);
        assert_eq!(one, run(&board, 3, 30)?);
        // Episodes end, and the envs go on after their reset.
        assert!(
            one.iter()
                .any(|(_, rewards)| rewards.iter().any(|&r| r != 0.0))
        );
        Ok(())
    }

    #[test]
    fn illegal_actions_lose_and_the_next_step_resets() -> Result<()> {
        let board = path()?;
        let (mut env, mut out) = envs(&board, 1)?;
        env.reset(&[5], out.outputs())?;
        let own = out.masks.iter().position(|&on| on == 0).unwrap_or(0) as i64;
        env.step(&[own], out.outputs())?;
        assert_eq!((out.rewards[0], out.terminated[0]), (-1.0, true));
        assert!(
            out.masks.iter().all(|&on| on == 1),
            "any action may be sent to reset"
        );
        env.step(&[99], out.outputs())?;
        assert_eq!((out.rewards[0], out.terminated[0]), (0.0, false));
        assert!(out.masks.contains(&1));
        Ok(())
    }

    #[test]
    fn wrong_buffer_sizes_are_refused() -> Result<()> {
        let board = path()?;
        let (mut env, mut out) = envs(&board, 2)?;
        let refused = env.step(&[0], out.outputs());
        assert!(matches!(refused, Err(Error::InvalidParameter(m)) if m.contains("actions")));
        let board = Arc::new(board);
        let fixed = settings(Boards::Fixed(Arc::clone(&board)), false);
        assert!(VectorEnv::new(&board, 0, fixed.clone()).is_err());
        let far_seat = Settings { seat: 2, ..fixed };
        assert!(VectorEnv::new(&board, 1, far_seat).is_err());
        Ok(())
    }

    /// A path of `n` cells with 4 colours, its ends the starts, and its first board.
    fn long_path(n: usize) -> Result<(Arc<Board>, Layout)> {
        let mut offsets = vec![0i64];
        let mut neighbours = Vec::new();
        for cell in 0..n as i64 {
            neighbours.extend(
                [cell - 1, cell + 1]
                    .into_iter()
                    .filter(|&c| (0..n as i64).contains(&c)),
            );
            offsets.push(neighbours.len() as i64);
        }
        let colours: Vec<u8> = (0..n).map(|cell| (cell % 4) as u8).collect();
        let rules = Rules {
            mode: Mode::Flood,
            allow_opponent_colours: false,
            max_moves: None,
        };
        let starts = vec![0, n as i64 - 1];
        let board = Board::new(&offsets, &neighbours, &colours, 4, &starts, rules)?;
        let layout = Layout::new(&board, &offsets, &neighbours)?;
        Ok((Arc::new(board), layout))
    }

    #[test]
    fn colour_draws_read_the_stream_as_its_cursor_does() -> Result<()> {
        for n in 3..=16u64 {
            let stream = Stream::new(9, COLOURS, &[n])?;
            // 37 values: whole blocks of four and a part of one.
            let mut drawn = vec![0u8; 37];
            draw_below(&stream, n, &mut drawn);
            let mut cursor = stream.cursor();
            let expected: Vec<u8> = (0..37).map(|_| cursor.uniform_below(n) as u8).collect();
            assert_eq!(drawn, expected, "{n} colours");
        }
        Ok(())
    }

    #[test]
    fn fresh_boards_differ_between_episodes_and_keep_the_starts_apart() -> Result<()> {
        let (board, layout) = long_path(20)?;
        let fresh = settings(Boards::Fresh(layout), true);
        let mut env = VectorEnv::new(&board, 16, fresh)?;
        let mut out = Buffers::new(&board, 16);
        env.reset(&(0..16).collect::<Vec<u64>>(), out.outputs())?;
        let colours: std::collections::HashSet<Vec<u8>> = (0..16)
            .filter_map(|i| env.board(i).map(|b| b.cell_colours().to_vec()))
            .collect();
        assert!(colours.len() > 8, "{} distinct boards of 16", colours.len());
        Ok(())
    }

    #[test]
    fn fresh_boards_are_built_boards_and_any_thread_count_plays_them_alike() -> Result<()> {
        // More envs than SERIAL_ENVS, so that the pool splits them.
        let n = 2 * SERIAL_ENVS + 3;
        let (board, layout) = long_path(30)?;
        let (offsets, neighbours) = crate::board::tests::path(30);
        let play = |threads: usize| -> Result<(Vec<Vec<i8>>, Vec<Board>)> {
            let fresh = settings(Boards::Fresh(layout.clone()), true);
            let mut env = VectorEnv::new(&board, n, fresh)?;
            let mut out = Buffers::new(&board, n);
            let pool = stratagem_core::parallel::pool(threads)?;
            pool.install(|| env.reset(&(0..n as u64).collect::<Vec<u64>>(), out.outputs()))?;
            let mut trace = vec![out.observations.clone()];
            for _ in 0..40 {
                let actions: Vec<i64> = out
                    .masks
                    .chunks(4)
                    .map(|m| m.iter().position(|&on| on == 1).unwrap_or(0) as i64)
                    .collect();
                pool.install(|| env.step(&actions, out.outputs()))?;
                trace.push(out.observations.clone());
            }
            let boards = (0..n).filter_map(|i| env.board(i).map(|b| (**b).clone()));
            Ok((trace, boards.collect()))
        };
        let (one, boards) = play(1)?;
        assert_eq!(one, play(2)?.0);
        assert_eq!(one, play(3)?.0);
        // Each env's board, recoloured in place episode after episode, is the board built
        // afresh from its colours.
        for played in &boards {
            let built = board.recoloured(&offsets, &neighbours, played.cell_colours())?;
            // The neighbour pairs too, read from the dense masks on first use.
            assert_eq!(played.unit_neighbours(0), built.unit_neighbours(0));
            assert_eq!(format!("{played:?}"), format!("{built:?}"));
        }
        Ok(())
    }

    #[test]
    fn same_step_autoreset_keeps_the_last_observation_and_a_live_mask() -> Result<()> {
        let (board, layout) = long_path(20)?;
        let fresh = settings(Boards::Fresh(layout), true);
        let mut env = VectorEnv::new(&board, 1, fresh)?;
        let mut out = Buffers::new(&board, 1);
        env.reset(&[3], out.outputs())?;
        let mut ended = 0;
        for _ in 0..200 {
            let action = out.masks.iter().position(|&on| on == 1).unwrap_or(99) as i64;
            assert!(action != 99, "a live env always has a legal colour");
            env.step(&[action], out.outputs())?;
            if out.terminated[0] {
                ended += 1;
                assert_ne!(out.final_observations, out.observations);
            }
        }
        assert!(ended > 3);
        Ok(())
    }
}
