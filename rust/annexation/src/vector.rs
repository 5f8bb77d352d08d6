//! Many games stepped at once: the engine of the Gymnasium vector env
//! (`python/stratagem/annexation/vector.py`, docs/envs.md).
//!
//! Every env plays seat 0 of a game on the same board against random opponents, exactly as the
//! Gymnasium env of one game does (`python/stratagem/envs/gymnasium.py`):
//! - the opponent's move is legal colour number `uniform_below(legal count)` of the first
//!   cursor of stream `(game seed, "envs.opponent", moves so far, seat)`;
//! - episode `e` of an env seeded `s` has game seed `s` when `e` is 0, else word 0 of block 0
//!   of stream `(s, "envs.episode", e)`;
//! - a step's reward is seat 0's win/loss reward when the game ends (+1 win, -1 loss; a draw 0
//!   when seat 0 shares the top, else -1), and an illegal action ends the episode with -1;
//! - an env whose episode ended is reset by its next step (Gymnasium's next-step autoreset:
//!   that step's action is ignored, its reward is 0).
//!
//! The observation of an env is `int8 (2, cells)`: each cell's owner relative to seat 0 (-1
//! unowned), then the colour it shows. Outputs are written into the caller's buffers, env by
//! env in parallel; the result does not depend on the thread count.

use rayon::prelude::*;
use stratagem_core::rng::Stream;
use stratagem_core::{Error, Result};

use crate::board::Board;
use crate::state::{Outcome, State, nth_colour};

/// The purposes of the streams the vector env draws from, shared with the Python bridges.
pub const OPPONENT: &str = "envs.opponent";
pub const EPISODE: &str = "envs.episode";

/// One env: its game, the seeds of its episodes and whether its next step resets it.
#[derive(Clone, Debug)]
struct Env {
    state: State,
    base_seed: u64,
    episode: u64,
    game_seed: u64,
    needs_reset: bool,
    /// Scratch, rebuilt for each observation: the owner of every unit (-1: unowned) and the
    /// colour it shows.
    unit_owner: Vec<i8>,
    unit_shown: Vec<i8>,
}

/// The caller's output buffers of one step, env-major: `observations` holds `2 * cells` values
/// per env, `masks` `colours` values per env.
pub struct Outputs<'a> {
    pub observations: &'a mut [i8],
    pub rewards: &'a mut [f64],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub masks: &'a mut [bool],
}

/// `num_envs` games on one board.
#[derive(Clone, Debug)]
pub struct VectorEnv {
    envs: Vec<Env>,
    /// The colour of every unit (a unit's cells share one colour).
    unit_colour: Vec<i8>,
    opponent_tag: u64,
    episode_tag: u64,
}

impl VectorEnv {
    /// `num_envs` envs, each at the first position (seeded 0 until [`VectorEnv::reset`]).
    pub fn new(board: &Board, num_envs: usize) -> Result<Self> {
        if num_envs == 0 {
            return Err(Error::InvalidParameter(
                "num_envs must be at least 1".into(),
            ));
        }
        let state = State::initial(board)?;
        let env = Env {
            state,
            base_seed: 0,
            episode: 0,
            game_seed: 0,
            needs_reset: false,
            unit_owner: vec![-1; board.units()],
            unit_shown: vec![0; board.units()],
        };
        let mut unit_colour = vec![0i8; board.units()];
        for (&unit, &colour) in board.unit_of_cell().iter().zip(board.cell_colours()) {
            unit_colour[unit as usize] = colour as i8;
        }
        Ok(Self {
            envs: vec![env; num_envs],
            unit_colour,
            opponent_tag: stratagem_core::rng::purpose_tag(OPPONENT),
            episode_tag: stratagem_core::rng::purpose_tag(EPISODE),
        })
    }

    pub fn num_envs(&self) -> usize {
        self.envs.len()
    }

    /// Starts episode 0 of every env, env `i` seeded `seeds[i]`, and writes the first
    /// observations and masks (rewards 0, no env terminated).
    pub fn reset(&mut self, board: &Board, seeds: &[u64], out: Outputs<'_>) -> Result<()> {
        let tags = (self.opponent_tag, self.episode_tag);
        self.for_each_env(board, seeds, out, |env, &seed| {
            env.base_seed = seed;
            env.episode = 0;
            env.start(board, tags.0, tags.1)?;
            Ok((0.0, false))
        })
    }

    /// One step of every env with seat 0's `actions` (see the module's docs).
    pub fn step(&mut self, board: &Board, actions: &[i64], out: Outputs<'_>) -> Result<()> {
        let tags = (self.opponent_tag, self.episode_tag);
        self.for_each_env(board, actions, out, |env, &action| {
            env.step(board, action, tags.0, tags.1)
        })
    }

    /// Runs `play(env, input)` -> `(reward, terminated)` for every env in parallel and writes
    /// its outputs.
    fn for_each_env<T: Sync>(
        &mut self,
        board: &Board,
        inputs: &[T],
        out: Outputs<'_>,
        play: impl Fn(&mut Env, &T) -> Result<(f64, bool)> + Sync,
    ) -> Result<()> {
        self.check_outputs(board, inputs.len(), &out)?;
        let cells = board.cells();
        let colours = board.colour_count();
        let unit_colour = &self.unit_colour;
        self.envs
            .par_iter_mut()
            .zip(inputs.par_iter())
            .zip(out.observations.par_chunks_mut(2 * cells))
            .zip(out.masks.par_chunks_mut(colours))
            .zip(out.rewards.par_iter_mut())
            .zip(
                out.terminated
                    .par_iter_mut()
                    .zip(out.truncated.par_iter_mut()),
            )
            .with_min_len(32)
            .try_for_each(
                |(((((env, input), observation), mask), reward), (terminated, truncated))| {
                    (*reward, *terminated) = play(env, input)?;
                    *truncated = false;
                    env.write(board, unit_colour, observation, mask);
                    Ok(())
                },
            )
    }

    fn check_outputs(&self, board: &Board, given: usize, out: &Outputs<'_>) -> Result<()> {
        let n = self.envs.len();
        let sizes = [
            ("actions or seeds", given, n),
            (
                "observations",
                out.observations.len(),
                n * 2 * board.cells(),
            ),
            ("rewards", out.rewards.len(), n),
            ("terminated", out.terminated.len(), n),
            ("truncated", out.truncated.len(), n),
            ("masks", out.masks.len(), n * board.colour_count()),
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
    /// The first position of the current episode, with its game seed.
    fn start(&mut self, board: &Board, opponent_tag: u64, episode_tag: u64) -> Result<()> {
        self.game_seed = if self.episode == 0 {
            self.base_seed
        } else {
            Stream::with_tag(self.base_seed, episode_tag, &[self.episode])?.block(0)[0]
        };
        self.state = State::initial(board)?;
        self.needs_reset = false;
        self.play_opponents(board, opponent_tag)
    }

    /// `(reward, terminated)` of seat 0's `action`.
    fn step(
        &mut self,
        board: &Board,
        action: i64,
        opponent_tag: u64,
        episode_tag: u64,
    ) -> Result<(f64, bool)> {
        if self.needs_reset {
            self.episode += 1;
            self.start(board, opponent_tag, episode_tag)?;
            return Ok((0.0, false));
        }
        let legal = self.state.legal_mask(board);
        if !(0..board.colour_count() as i64).contains(&action) || legal & (1 << action) == 0 {
            self.needs_reset = true;
            return Ok((-1.0, true));
        }
        self.state.play_unchecked(board, action as usize);
        self.play_opponents(board, opponent_tag)?;
        if !self.state.is_over() {
            return Ok((0.0, false));
        }
        self.needs_reset = true;
        Ok((seat_zero_reward(&self.state), true))
    }

    /// The random opponents' moves until seat 0 is to move or the game is over.
    fn play_opponents(&mut self, board: &Board, opponent_tag: u64) -> Result<()> {
        while !self.state.is_over() && self.state.to_move() != 0 {
            let seat = self.state.to_move() as u64;
            let legal = self.state.legal_mask(board);
            let ids = [u64::from(self.state.moves()), seat];
            let mut cursor = Stream::with_tag(self.game_seed, opponent_tag, &ids)?.cursor();
            let index = cursor.uniform_below(u64::from(legal.count_ones()));
            self.state
                .play_unchecked(board, nth_colour(legal, index as u32));
        }
        Ok(())
    }

    /// Writes the observation of seat 0 and its legal mask: each unit's owner and shown
    /// colour first, then a branch-free gather per cell.
    fn write(
        &mut self,
        board: &Board,
        unit_colour: &[i8],
        observation: &mut [i8],
        mask: &mut [bool],
    ) {
        let state = &self.state;
        self.unit_owner.fill(-1);
        self.unit_shown.copy_from_slice(unit_colour);
        for (q, &colour) in state.player_colours().iter().enumerate() {
            for (w, &bits) in state.owned(q).iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let unit = w * 64 + bits.trailing_zeros() as usize;
                    self.unit_owner[unit] = q as i8;
                    self.unit_shown[unit] = colour as i8;
                    bits &= bits - 1;
                }
            }
        }
        let cells = board.cells();
        let (owners, shown) = observation.split_at_mut(cells);
        let (unit_owner, unit_shown) = (&self.unit_owner, &self.unit_shown);
        for ((&unit, owner), colour) in board.unit_of_cell().iter().zip(owners).zip(shown) {
            *owner = unit_owner[unit as usize];
            *colour = unit_shown[unit as usize];
        }
        let legal = if self.needs_reset {
            0
        } else {
            state.legal_mask(board)
        };
        for (colour, slot) in mask.iter_mut().enumerate() {
            *slot = legal & (1 << colour) != 0;
        }
    }
}

/// Seat 0's reward at the end (docs/games.md: +1 win, -1 loss; a draw 0 to the seats at the
/// top, -1 to the rest).
fn seat_zero_reward(state: &State) -> f64 {
    match state.outcome() {
        Outcome::Won(0) => 1.0,
        Outcome::Won(_) => -1.0,
        Outcome::Drawn => {
            let scores = state.scores();
            let top = scores.iter().copied().max().unwrap_or(0);
            if scores.first() == Some(&top) {
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
        masks: Vec<bool>,
    }

    impl Buffers {
        fn new(board: &Board, n: usize) -> Self {
            Self {
                observations: vec![0; n * 2 * board.cells()],
                rewards: vec![0.0; n],
                terminated: vec![false; n],
                truncated: vec![false; n],
                masks: vec![false; n * board.colour_count()],
            }
        }

        fn outputs(&mut self) -> Outputs<'_> {
            Outputs {
                observations: &mut self.observations,
                rewards: &mut self.rewards,
                terminated: &mut self.terminated,
                truncated: &mut self.truncated,
                masks: &mut self.masks,
            }
        }
    }

    /// `num_envs` envs on `board` and the buffers for their outputs.
    fn envs(board: &Board, num_envs: usize) -> Result<(VectorEnv, Buffers)> {
        Ok((
            VectorEnv::new(board, num_envs)?,
            Buffers::new(board, num_envs),
        ))
    }

    fn run(board: &Board, threads: usize, steps: usize) -> Result<Vec<(Vec<i8>, Vec<f64>)>> {
        let (mut env, mut out) = envs(board, 8)?;
        let seeds: Vec<u64> = (0..8).collect();
        let pool = stratagem_core::parallel::pool(threads)?;
        pool.install(|| env.reset(board, &seeds, out.outputs()))?;
        let mut trace = Vec::new();
        for _ in 0..steps {
            // The first legal colour of each env (0 for an env about to reset).
            let actions: Vec<i64> = out
                .masks
                .chunks(board.colour_count())
                .map(|m| m.iter().position(|&on| on).unwrap_or(0) as i64)
                .collect();
            pool.install(|| env.step(board, &actions, out.outputs()))?;
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
        env.reset(&board, &[5], out.outputs())?;
        let own = out.masks.iter().position(|&on| !on).unwrap_or(0) as i64;
        env.step(&board, &[own], out.outputs())?;
        assert_eq!((out.rewards[0], out.terminated[0]), (-1.0, true));
        assert!(out.masks.iter().all(|&on| !on));
        env.step(&board, &[99], out.outputs())?;
        assert_eq!((out.rewards[0], out.terminated[0]), (0.0, false));
        assert!(out.masks.iter().any(|&on| on));
        Ok(())
    }

    #[test]
    fn wrong_buffer_sizes_are_refused() -> Result<()> {
        let board = path()?;
        let (mut env, mut out) = envs(&board, 2)?;
        let refused = env.step(&board, &[0], out.outputs());
        assert!(matches!(refused, Err(Error::InvalidParameter(m)) if m.contains("actions")));
        assert!(VectorEnv::new(&board, 0).is_err());
        Ok(())
    }
}
