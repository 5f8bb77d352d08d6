//! Batches of playouts from one position, spread over threads (docs/annexation-rules.md,
//! "Playouts"). Playout `i` reads its own stream, and the tallies are sums of integers, so the
//! result is the same for any thread count.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use stratagem_core::rng::{Halves, Stream, purpose_tag};
use stratagem_core::{Cancel, Result};

use crate::board::{Board, DENSE_WORDS};
use crate::playout_loop::{HalfDraws, Start, Tables};
use crate::purpose;
use crate::state::{Outcome, State, margin, nth_colour};

/// Calls `function::<W>(args)` with the board's word count as a constant when it is at most
/// 16 (boards up to 1,024 units, which keep dense neighbour masks), else with `W = 0` (the
/// count read at run time, sparse neighbour words).
macro_rules! with_words {
    ($words:expr, $function:ident, $($arg:expr),*) => {
        match $words {
            1 => $function::<1>($($arg),*),
            2 => $function::<2>($($arg),*),
            3 => $function::<3>($($arg),*),
            4 => $function::<4>($($arg),*),
            5 => $function::<5>($($arg),*),
            6 => $function::<6>($($arg),*),
            7 => $function::<7>($($arg),*),
            8 => $function::<8>($($arg),*),
            9 => $function::<9>($($arg),*),
            10 => $function::<10>($($arg),*),
            11 => $function::<11>($($arg),*),
            12 => $function::<12>($($arg),*),
            13 => $function::<13>($($arg),*),
            14 => $function::<14>($($arg),*),
            15 => $function::<15>($($arg),*),
            16 => $function::<16>($($arg),*),
            _ => $function::<0>($($arg),*),
        }
    };
}

/// How a playout picks its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// A uniformly random legal colour every move, to the end of the game.
    Random,
    /// The seed's GPU shortcut: any colour, no end check, `steps` steps (or to the move limit).
    Light { steps: Option<u32> },
}

/// Wins per player, draws and the summed margin of the player to move at the start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: [u64; crate::MAX_PLAYERS],
    pub draws: u64,
    pub margin_sum: i64,
    pub playouts: u64,
}

impl Tally {
    fn add(mut self, other: Self) -> Self {
        for (mine, theirs) in self.wins.iter_mut().zip(other.wins) {
            *mine += theirs;
        }
        self.draws += other.draws;
        self.margin_sum += other.margin_sum;
        self.playouts += other.playouts;
        self
    }

    fn count(&mut self, outcome: Outcome, margin: i64) {
        match outcome {
            Outcome::Won(q) => self.wins[usize::from(q)] += 1,
            _ => self.draws += 1,
        }
        self.margin_sum += margin;
        self.playouts += 1;
    }
}

/// Plays random legal colours from `scratch` (a copy of the start) to the end.
pub fn random_playout(board: &Board, scratch: &mut State, draws: &mut Halves) -> Outcome {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { random_playout_avx2(board, scratch, draws) };
    }
    with_words!(board.words(), random_playout_in, board, scratch, draws)
}

/// [`random_playout`] compiled for AVX2, so that the mask loops of a move take four words an
/// instruction (same integer operations, so the same results).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn random_playout_avx2(board: &Board, scratch: &mut State, draws: &mut Halves) -> Outcome {
    with_words!(board.words(), random_playout_in, board, scratch, draws)
}

#[inline(always)]
fn random_playout_in<const W: usize>(
    board: &Board,
    scratch: &mut State,
    draws: &mut Halves,
) -> Outcome {
    while !scratch.is_over() {
        let legal = scratch.legal_mask(board);
        let pick = draws.below(legal.count_ones());
        scratch.play_in::<W>(board, nth_colour(legal, pick));
    }
    scratch.outcome()
}

/// Plays from `scratch` to the end, each move drawing `j = below(len(legal) + bias)` and
/// playing `legal[j]`, or the greedy colour when `j >= len(legal)`: a playout that leans
/// towards greedy play (MCTS's default policy). `bias = 0` is [`random_playout`].
pub fn biased_playout(
    board: &Board,
    scratch: &mut State,
    draws: &mut Halves,
    bias: u32,
) -> Outcome {
    if bias == 0 {
        return random_playout(board, scratch, draws);
    }
    with_words!(
        board.words(),
        biased_playout_in,
        board,
        scratch,
        draws,
        bias
    )
}

fn biased_playout_in<const W: usize>(
    board: &Board,
    scratch: &mut State,
    draws: &mut Halves,
    bias: u32,
) -> Outcome {
    while !scratch.is_over() {
        let legal = scratch.legal_mask(board);
        let count = legal.count_ones();
        let pick = draws.below(count + bias);
        let colour = if pick < count {
            nth_colour(legal, pick)
        } else {
            scratch.greedy_colour(board)
        };
        scratch.play_in::<W>(board, colour);
    }
    scratch.outcome()
}

/// The light playout: `steps` random colours, legal or not, then count cells.
pub fn light_playout(
    board: &Board,
    scratch: &mut State,
    draws: &mut Halves,
    steps: u32,
) -> Outcome {
    with_words!(
        board.words(),
        light_playout_in,
        board,
        scratch,
        draws,
        steps
    )
}

fn light_playout_in<const W: usize>(
    board: &Board,
    scratch: &mut State,
    draws: &mut Halves,
    steps: u32,
) -> Outcome {
    if scratch.is_over() {
        return scratch.outcome();
    }
    let colours = board.colour_count() as u32;
    for _ in 0..steps {
        if scratch.all_owned() {
            break;
        }
        scratch.step_in::<W>(board, draws.below(colours) as usize);
    }
    scratch.most_cells()
}

/// The chunk of playouts one task plays between Ctrl-C checks.
const CHUNK: u64 = 512;

/// What a chunk of playouts needs besides its range: the stream names and the player whose
/// margin is summed.
#[derive(Clone, Copy)]
struct Names {
    seed: u64,
    tag: u64,
    start_moves: u64,
    first_player: usize,
}

impl Names {
    #[inline(always)]
    fn stream(&self, playout: u64) -> Stream {
        Stream::with_ids(self.seed, self.tag, [self.start_moves, playout, 0])
    }
}

/// Random playouts `played` from `state` (not over): the compact loop of
/// [`crate::playout_loop`] with `tables` (boards of at most 16 words), else moves on a copy of
/// the state.
fn random_chunk(
    board: &Board,
    tables: Option<&Tables>,
    state: &State,
    names: Names,
    played: Range<u64>,
) -> Tally {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
    {
        // SAFETY: the CPU has AVX2, BMI1 and BMI2, checked just above.
        return unsafe { random_chunk_avx2(board, tables, state, names, played) };
    }
    with_words!(
        board.words(),
        random_chunk_in,
        board,
        tables,
        state,
        names,
        played
    )
}

/// [`random_chunk`] compiled for AVX2 (see [`random_playout_avx2`]), BMI1 (a trailing-zero
/// count defined at zero) and BMI2 (Philox's multiplications without fixed registers).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2")]
unsafe fn random_chunk_avx2(
    board: &Board,
    tables: Option<&Tables>,
    state: &State,
    names: Names,
    played: Range<u64>,
) -> Tally {
    with_words!(
        board.words(),
        random_chunk_in,
        board,
        tables,
        state,
        names,
        played
    )
}

#[inline(always)]
fn random_chunk_in<const W: usize>(
    board: &Board,
    tables: Option<&Tables>,
    state: &State,
    names: Names,
    played: Range<u64>,
) -> Tally {
    let mut tally = Tally::default();
    match tables {
        Some(tables) if W > 0 => {
            let start = Start::<W>::new(board, state);
            let players = state.players();
            // Each playout's first block is computed during the playout before it.
            let mut next = HalfDraws::new(names.stream(played.start));
            for i in played {
                let mut draws = std::mem::replace(&mut next, HalfDraws::new(names.stream(i + 1)));
                let (outcome, scores) = start.play(tables, &mut draws);
                tally.count(outcome, margin(&scores[..players], names.first_player));
            }
        }
        _ => {
            let mut scratch = state.clone();
            for i in played {
                scratch.clone_from(state);
                let mut draws = Halves::new(names.stream(i).cursor());
                let outcome = random_playout_in::<W>(board, &mut scratch, &mut draws);
                tally.count(outcome, scratch.margin(names.first_player));
            }
        }
    }
    tally
}

/// `n` playouts from `state` with `policy`, on the current rayon pool; `done` counts the
/// playouts finished so far (for a progress bar).
pub fn playouts(
    board: &Board,
    state: &State,
    n: u64,
    policy: Policy,
    seed: u64,
    cancel: &Cancel,
    done: &AtomicU64,
) -> Result<Tally> {
    let (tag, steps) = match policy {
        Policy::Random => (purpose_tag(purpose::PLAYOUT), 0),
        Policy::Light { steps } => (
            purpose_tag(purpose::LIGHT),
            steps.unwrap_or_else(|| board.max_moves().saturating_sub(state.moves())),
        ),
    };
    let names = Names {
        seed,
        tag,
        start_moves: u64::from(state.moves()),
        first_player: state.to_move(),
    };
    let tables = (policy == Policy::Random && (1..=DENSE_WORDS).contains(&board.words()))
        .then(|| Tables::new(board));
    let chunks = n.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            cancel.check()?;
            let played = chunk * CHUNK..n.min((chunk + 1) * CHUNK);
            let count = played.end - played.start;
            let tally = if policy == Policy::Random && !state.is_over() {
                random_chunk(board, tables.as_ref(), state, names, played)
            } else {
                let mut tally = Tally::default();
                let mut scratch = state.clone();
                for i in played {
                    scratch.clone_from(state);
                    let mut draws = Halves::new(names.stream(i).cursor());
                    let outcome = match policy {
                        Policy::Random => random_playout(board, &mut scratch, &mut draws),
                        Policy::Light { .. } => {
                            light_playout(board, &mut scratch, &mut draws, steps)
                        }
                    };
                    tally.count(outcome, scratch.margin(names.first_player));
                }
                tally
            };
            done.fetch_add(count, Ordering::Relaxed);
            Ok(tally)
        })
        .try_reduce(Tally::default, |a, b| Ok(a.add(b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Mode, Rules};
    use stratagem_core::parallel;

    /// A 6x6 grid with colours from a fixed pattern, players in opposite corners.
    fn grid_board() -> Result<Board> {
        let side = 6i64;
        let (offsets, neighbours) = crate::board::tests::grid(side);
        let colours: Vec<u8> = (0..side * side)
            .map(|i| ((i * 7 + i / 5) % 5) as u8)
            .collect();
        let rules = Rules {
            mode: Mode::Flood,
            allow_opponent_colours: false,
            max_moves: None,
        };
        Board::new(
            &offsets,
            &neighbours,
            &colours,
            5,
            &[0, side * side - 1],
            rules,
        )
    }

    #[test]
    fn tallies_do_not_depend_on_the_thread_count() -> Result<()> {
        let board = grid_board()?;
        let state = State::initial(&board)?;
        let (cancel, done) = (Cancel::new(), AtomicU64::new(0));
        for policy in [Policy::Random, Policy::Light { steps: Some(40) }] {
            let run = |threads| {
                parallel::pool(threads)?
                    .install(|| playouts(&board, &state, 3000, policy, 9, &cancel, &done))
            };
            let one = run(1)?;
            assert_eq!(one, run(3)?);
            assert_eq!(one.wins[0] + one.wins[1] + one.draws, 3000);
        }
        // Two runs of each policy, every playout counted once.
        assert_eq!(done.load(Ordering::Relaxed), 4 * 3000);
        Ok(())
    }

    #[test]
    fn a_cancelled_batch_stops() -> Result<()> {
        let board = grid_board()?;
        let state = State::initial(&board)?;
        let cancel = Cancel::new();
        cancel.cancel();
        let done = AtomicU64::new(0);
        let stopped = playouts(&board, &state, 1 << 40, Policy::Random, 1, &cancel, &done);
        assert_eq!(stopped, Err(stratagem_core::Error::Interrupted));
        Ok(())
    }
}
