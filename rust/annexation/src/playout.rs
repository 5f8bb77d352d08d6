//! Batches of playouts from one position, spread over threads (docs/annexation-rules.md,
//! "Playouts"). Playout `i` reads its own stream, and the tallies are sums of integers, so the
//! result is the same for any thread count.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use stratagem_core::rng::{Halves, Stream, purpose_tag};
use stratagem_core::{Cancel, Result};

use crate::board::{Board, DENSE_WORDS, with_words};
use crate::playout_loop::{HalfDraws, Start, Tables};
use crate::purpose;
use crate::state::{Outcome, State, margin, nth_colour};

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
    with_words!(board.words(), W => playout_in::<W>(board, scratch, uniform(draws)))
}

/// [`random_playout`] compiled for AVX2, so that the mask loops of a move take four words an
/// instruction (same integer operations, so the same results).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn random_playout_avx2(board: &Board, scratch: &mut State, draws: &mut Halves) -> Outcome {
    with_words!(board.words(), W => playout_in::<W>(board, scratch, uniform(draws)))
}

/// Plays from `scratch` to the end, each move the colour `pick(scratch, legal)` (`legal`: the
/// mask of the legal colours).
#[inline(always)]
fn playout_in<const W: usize>(
    board: &Board,
    scratch: &mut State,
    mut pick: impl FnMut(&State, u32) -> usize,
) -> Outcome {
    while !scratch.is_over() {
        let legal = scratch.legal_mask(board);
        let colour = pick(scratch, legal);
        scratch.play_in::<W>(board, colour);
    }
    scratch.outcome()
}

/// A uniformly random legal colour, drawn from `draws`: [`playout_in`]'s random pick.
#[inline(always)]
fn uniform(draws: &mut Halves) -> impl FnMut(&State, u32) -> usize + '_ {
    |_, legal| nth_colour(legal, draws.below(legal.count_ones()))
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
    let legal_or_greedy = |scratch: &State, legal: u32| {
        let count = legal.count_ones();
        let pick = draws.below(count + bias);
        if pick < count {
            nth_colour(legal, pick)
        } else {
            scratch.greedy_colour(board)
        }
    };
    with_words!(board.words(), W => playout_apart::<W>(board, scratch, legal_or_greedy))
}

/// [`playout_in`] in a function of its own for each `W`: the biased playout's move is larger,
/// and inlined into every branch of [`biased_playout`]'s dispatch it ran 1% more instructions.
fn playout_apart<const W: usize>(
    board: &Board,
    scratch: &mut State,
    pick: impl FnMut(&State, u32) -> usize,
) -> Outcome {
    playout_in::<W>(board, scratch, pick)
}

/// The light playout: `steps` random colours, legal or not, then count cells.
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

/// What every chunk of a batch of playouts shares: the board and the start, the light
/// playouts' steps (`None`: random playouts), the compact tables (random playouts from a
/// position not over, on a board of at most 16 words), and the stream names and the player
/// whose margin is summed.
struct Batch<'a> {
    board: &'a Board,
    state: &'a State,
    light_steps: Option<u32>,
    tables: Option<Tables>,
    seed: u64,
    tag: u64,
    start_moves: u64,
    first_player: usize,
}

impl Batch<'_> {
    #[inline(always)]
    fn stream(&self, playout: u64) -> Stream {
        Stream::with_ids(self.seed, self.tag, [self.start_moves, playout, 0])
    }
}

/// Playouts `played` of `batch`: the compact loop of [`crate::playout_loop`] when the batch has
/// tables, else moves on a copy of the start.
fn chunk(batch: &Batch<'_>, played: Range<u64>) -> Tally {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
    {
        // SAFETY: the CPU has AVX2, BMI1 and BMI2, checked just above.
        return unsafe { chunk_avx2(batch, played) };
    }
    with_words!(batch.board.words(), W => chunk_in::<W>(batch, played))
}

/// [`chunk`] compiled for AVX2 (see [`random_playout_avx2`]), BMI1 (a trailing-zero count
/// defined at zero) and BMI2 (Philox's multiplications without fixed registers).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2")]
unsafe fn chunk_avx2(batch: &Batch<'_>, played: Range<u64>) -> Tally {
    with_words!(batch.board.words(), W => chunk_in::<W>(batch, played))
}

#[inline(always)]
fn chunk_in<const W: usize>(batch: &Batch<'_>, played: Range<u64>) -> Tally {
    let (board, state) = (batch.board, batch.state);
    let mut tally = Tally::default();
    match &batch.tables {
        Some(tables) if W > 0 => {
            let start = Start::<W>::new(board, state);
            let players = state.players();
            // Each playout's first block is computed during the playout before it.
            let mut next = HalfDraws::new(batch.stream(played.start));
            for i in played {
                let mut draws = std::mem::replace(&mut next, HalfDraws::new(batch.stream(i + 1)));
                let (outcome, scores) = start.play(tables, &mut draws);
                tally.count(outcome, margin(&scores[..players], batch.first_player));
            }
        }
        _ => {
            let mut scratch = state.clone();
            for i in played {
                scratch.clone_from(state);
                let mut draws = Halves::new(batch.stream(i).cursor());
                let outcome = match batch.light_steps {
                    None => playout_in::<W>(board, &mut scratch, uniform(&mut draws)),
                    Some(steps) => light_playout_in::<W>(board, &mut scratch, &mut draws, steps),
                };
                tally.count(outcome, scratch.margin(batch.first_player));
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
    let (tag, light_steps) = match policy {
        Policy::Random => (purpose_tag(purpose::PLAYOUT), None),
        Policy::Light { steps } => (
            purpose_tag(purpose::LIGHT),
            Some(steps.unwrap_or_else(|| board.max_moves().saturating_sub(state.moves()))),
        ),
    };
    let dense = (1..=DENSE_WORDS).contains(&board.words());
    let batch = Batch {
        board,
        state,
        light_steps,
        tables: (light_steps.is_none() && !state.is_over() && dense).then(|| Tables::new(board)),
        seed,
        tag,
        start_moves: u64::from(state.moves()),
        first_player: state.to_move(),
    };
    let chunks = n.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|chunk_index| {
            cancel.check()?;
            let played = chunk_index * CHUNK..n.min((chunk_index + 1) * CHUNK);
            let count = played.end - played.start;
            let tally = chunk(&batch, played);
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
