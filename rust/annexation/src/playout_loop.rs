//! The random playout's inner loop (docs/annexation-rules.md, "Playouts", policy `random`) on a
//! compact copy of the position: the unowned units and each player's frontier in fixed arrays
//! of `W` words, each player's colour as a bit, the scores and the cells nobody owns. A
//! playout needs nothing else (who owns which unit is never read again), so a move is: one
//! draw, the units taken (`frontier & unowned & colour`), the neighbour masks of those units
//! ORed into the frontier, and the end check. [`State::play_unchecked`] plays the same moves
//! on the full position; the tests compare the two.
//!
//! What costs time in a playout is less the instructions than the branches that depend on the
//! random colour (which units a move takes). On boards of at most 4 words the loop looks up
//! the first two units of every word of the taken mask without a branch (a missing unit reads
//! an empty row) and branches only for the third and later ones; on larger boards, where most
//! words of a move are empty, it visits the nonempty words only. The next Philox block is
//! computed a block ahead, and each playout's first block during the playout before it.

use std::num::NonZeroU64;

use stratagem_core::rng::Stream;

use crate::board::Board;
use crate::state::{Outcome, State, most_cells, nth_colour};
use crate::{MAX_COLOURS, MAX_PLAYERS};

/// A stream's words read as 32-bit halves, low half first, a block at a time: the same draws
/// as [`stratagem_core::rng::Halves`] over a cursor of the stream, with the four words of the
/// current block kept as eight halves so that a draw is an index, a multiplication and a
/// compare.
pub struct HalfDraws {
    stream: Stream,
    /// The block after the current one, computed a block ahead so that its latency (ten
    /// dependent multiplications) overlaps the moves that use the current one.
    ahead: [u64; 4],
    next_block: u64,
    halves: [u32; 8],
    used: usize,
}

impl HalfDraws {
    /// The draws of `stream` from its first block.
    #[inline]
    pub fn new(stream: Stream) -> Self {
        Self {
            stream,
            ahead: stream.block(0),
            next_block: 1,
            halves: [0; 8],
            used: 8,
        }
    }

    #[inline(always)]
    fn refill(&mut self) {
        for (pair, word) in self.halves.chunks_exact_mut(2).zip(self.ahead) {
            pair[0] = word as u32;
            pair[1] = (word >> 32) as u32;
        }
        self.ahead = self.stream.block(self.next_block);
        self.next_block = self.next_block.wrapping_add(1);
        self.used = 0;
    }

    #[inline(always)]
    fn next_u32(&mut self) -> u32 {
        if self.used == 8 {
            self.refill();
        }
        let half = self.halves[self.used & 7];
        self.used += 1;
        half
    }

    /// `below_half(n)` for `n >= 1` (docs/determinism.md): the high half of `half * n`,
    /// redrawn while the low half is below `2^32 mod n`.
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n >= 1);
        let product = u64::from(self.next_u32()) * u64::from(n);
        if (product as u32) < n {
            return self.below_rejecting(n, product);
        }
        (product >> 32) as u32
    }

    /// The rare end of [`HalfDraws::below`]: the low half of `product` is below `n`, so it may
    /// be in the rejected zone.
    #[cold]
    #[inline(never)]
    fn below_rejecting(&mut self, n: u32, first: u64) -> u32 {
        let rejected_below = n.wrapping_neg() % n;
        let mut product = first;
        while (product as u32) < rejected_below {
            product = u64::from(self.next_u32()) * u64::from(n);
        }
        (product >> 32) as u32
    }
}

/// Rows of [`Tables`] per word of units: one per unit of the word, then an empty row that
/// stands for "no unit" (the trailing zeros of an empty word), so that the first unit a move
/// takes in each word is looked up without a branch.
const ROWS_PER_WORD: usize = 65;

/// The board's unit tables for random playouts on `words` words of units: each unit's cells
/// and neighbour mask, at row `65 * word + bit` ([`ROWS_PER_WORD`]; missing units have no
/// cells and no neighbours), and the units of each colour, padded to 16 colours, so that the
/// loop indexes them without bounds checks.
pub struct Tables {
    neighbour_masks: Vec<u64>,
    sizes: Vec<u32>,
    colour_masks: Vec<u64>,
}

impl Tables {
    /// The tables of a board of at most [`crate::board::DENSE_WORDS`] words.
    pub fn new(board: &Board) -> Self {
        let words = board.words();
        let rows = ROWS_PER_WORD * words;
        let mut neighbour_masks = vec![0u64; rows * words];
        let mut sizes = vec![0u32; rows];
        let dense = board.dense_neighbour_masks();
        for unit in 0..board.units() {
            let row = unit / 64 * ROWS_PER_WORD + unit % 64;
            sizes[row] = board.unit_size(unit);
            neighbour_masks[row * words..(row + 1) * words]
                .copy_from_slice(&dense[unit * words..(unit + 1) * words]);
        }
        let mut colour_masks = board.colour_masks().to_vec();
        colour_masks.resize(MAX_COLOURS * words, 0);
        Self {
            neighbour_masks,
            sizes,
            colour_masks,
        }
    }
}

/// What a random playout needs of its start position, for boards of `W` words.
#[derive(Clone, Copy, Debug)]
pub struct Start<const W: usize> {
    unowned: [u64; W],
    frontiers: [[u64; W]; MAX_PLAYERS],
    /// `1 << colour` of each player; 0 past the last player.
    colour_bits: [u32; MAX_PLAYERS],
    scores: [u32; MAX_PLAYERS],
    free_cells: u32,
    to_move: usize,
    moves: u32,
    /// The colours no player may pick besides its own: every player's colour, or none when
    /// opponents' colours are allowed.
    others_block: u32,
    /// A player with more cells than this wins.
    half: u32,
    max_moves: u32,
    players: usize,
    all_colours: u32,
}

impl<const W: usize> Start<W> {
    /// The compact copy of `state`, which must not be over (its board has `W` words).
    pub fn new(board: &Board, state: &State) -> Self {
        debug_assert!(!state.is_over() && board.words() == W);
        let mut unowned = [0u64; W];
        unowned.copy_from_slice(state.unowned());
        let mut frontiers = [[0u64; W]; MAX_PLAYERS];
        let mut colour_bits = [0u32; MAX_PLAYERS];
        let mut scores = [0u32; MAX_PLAYERS];
        for q in 0..state.players() {
            frontiers[q].copy_from_slice(state.frontier(q));
            colour_bits[q] = 1 << state.player_colours()[q];
            scores[q] = state.scores()[q];
        }
        Self {
            unowned,
            frontiers,
            colour_bits,
            scores,
            free_cells: state.free_cells(),
            to_move: state.to_move(),
            moves: state.moves(),
            others_block: if board.allow_opponent_colours() {
                0
            } else {
                u32::MAX
            },
            half: (board.cells() / 2) as u32,
            max_moves: board.max_moves(),
            players: state.players(),
            all_colours: board.all_colours(),
        }
    }

    /// Plays random legal colours from the start to the end of the game; returns the result
    /// and the final scores.
    #[inline(always)]
    pub fn play(&self, tables: &Tables, draws: &mut HalfDraws) -> (Outcome, [u32; MAX_PLAYERS]) {
        let colour_masks = &tables.colour_masks[..MAX_COLOURS * W];
        let neighbour_masks = &tables.neighbour_masks[..ROWS_PER_WORD * W * W];
        let sizes = &tables.sizes[..ROWS_PER_WORD * W];
        let mut unowned = self.unowned;
        let mut frontiers = self.frontiers;
        let mut colour_bits = self.colour_bits;
        let mut scores = self.scores;
        let mut free_cells = self.free_cells;
        let mut q = self.to_move;
        let mut moves = self.moves;
        loop {
            let blocked = colour_bits[q]
                | (self.others_block
                    & (colour_bits[0] | colour_bits[1] | colour_bits[2] | colour_bits[3]));
            let legal = self.all_colours & !blocked;
            let colour = nth_colour(legal, draws.below(legal.count_ones()));
            colour_bits[q] = 1 << colour;
            moves += 1;
            let of_colour = &colour_masks[(colour % MAX_COLOURS) * W..][..W];
            let frontier = &mut frontiers[q];
            let mut took = [0u64; W];
            for w in 0..W {
                took[w] = frontier[w] & unowned[w] & of_colour[w];
                unowned[w] &= !took[w];
            }
            let mut near = *frontier;
            let mut cells = 0;
            // A unit taken: its cells counted, its neighbours added to the frontier.
            let take = |row: usize, cells: &mut u32, near: &mut [u64; W]| {
                *cells += sizes[row];
                let masks = &neighbour_masks[row * W..(row + 1) * W];
                for v in 0..W {
                    near[v] |= masks[v];
                }
            };
            if W <= 4 {
                for (w, &word) in took.iter().enumerate() {
                    // The first two units taken in the word (the empty row for each one
                    // missing), without a branch, then the others.
                    let mut bits = word;
                    for _ in 0..2 {
                        let row = w * ROWS_PER_WORD + bits.trailing_zeros() as usize;
                        take(row, &mut cells, &mut near);
                        bits &= bits.wrapping_sub(1);
                    }
                    while let Some(set) = NonZeroU64::new(bits) {
                        let row = w * ROWS_PER_WORD + set.trailing_zeros() as usize;
                        take(row, &mut cells, &mut near);
                        bits &= bits - 1;
                    }
                }
            } else {
                let mut nonzero = 0u32;
                for (w, &word) in took.iter().enumerate() {
                    nonzero |= u32::from(word != 0) << w;
                }
                while nonzero != 0 {
                    let w = nonzero.trailing_zeros() as usize;
                    nonzero &= nonzero - 1;
                    let Some(&word) = took.get(w) else { break };
                    // The word has a unit: the first without a test, then the others.
                    let mut bits = word;
                    loop {
                        let row = w * ROWS_PER_WORD + bits.trailing_zeros() as usize;
                        take(row, &mut cells, &mut near);
                        bits &= bits.wrapping_sub(1);
                        if bits == 0 {
                            break;
                        }
                    }
                }
            }
            *frontier = near;
            scores[q] += cells;
            free_cells -= cells;
            if scores[q] > self.half {
                return (Outcome::Won(q as u8), scores);
            }
            if free_cells == 0 || moves >= self.max_moves {
                return (most_cells(&scores[..self.players]), scores);
            }
            q = if q + 1 == self.players { 0 } else { q + 1 };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Mode, Rules};
    use crate::playout::random_playout;
    use stratagem_core::Result;
    use stratagem_core::rng::{Halves, purpose_tag};

    #[test]
    fn half_draws_are_the_halves_draws() {
        let stream = Stream::with_ids(3, purpose_tag("test.halves"), [1, 2, 3]);
        // Large bounds reject often, so the redraws are compared too.
        for n in [
            1u32,
            2,
            3,
            7,
            16,
            1 << 31,
            (1 << 31) + 1,
            3_000_000_001,
            u32::MAX,
        ] {
            let mut fast = HalfDraws::new(stream);
            let mut halves = Halves::new(stream.cursor());
            for draw in 0..1000 {
                assert_eq!(fast.below(n), halves.below(n), "n {n}, draw {draw}");
            }
        }
    }

    /// A `side` x `side` grid with colours from a small generator, starts in the corners.
    fn grid(
        side: i64,
        colour_count: usize,
        players: usize,
        mode: Mode,
        allow_opponent_colours: bool,
        max_moves: Option<u32>,
    ) -> Board {
        let (offsets, neighbours) = crate::board::tests::grid(side);
        let corners = [0, side * side - 1, side - 1, side * (side - 1)];
        let rules = Rules {
            mode,
            allow_opponent_colours,
            max_moves,
        };
        let mut x = 12_345u64;
        loop {
            let colours: Vec<u8> = (0..side * side)
                .map(|_| {
                    x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    ((x >> 33) % colour_count as u64) as u8
                })
                .collect();
            let board = Board::new(
                &offsets,
                &neighbours,
                &colours,
                colour_count,
                &corners[..players],
                rules,
            );
            if let Ok(board) = board {
                return board;
            }
        }
    }

    #[test]
    fn the_compact_loop_plays_the_states_moves() -> Result<()> {
        let boards = [
            grid(6, 5, 2, Mode::Flood, false, None),
            grid(12, 6, 3, Mode::Flood, false, None),
            grid(12, 4, 2, Mode::Adjacent, false, None),
            grid(9, 5, 4, Mode::Flood, true, None),
            grid(20, 8, 2, Mode::Adjacent, true, Some(40)),
            grid(30, 7, 3, Mode::Flood, false, Some(90)),
        ];
        let mut words = Vec::new();
        for board in &boards {
            let mut state = State::initial(board)?;
            // From the first position and from one a few moves in.
            for moves in [0, 3] {
                for _ in 0..moves {
                    let legal = state.legal_mask(board);
                    state.play_unchecked(board, nth_colour(legal, 0));
                }
                assert!(!state.is_over());
                match board.words() {
                    1 => compare::<1>(board, &state, moves),
                    2 => compare::<2>(board, &state, moves),
                    3 => compare::<3>(board, &state, moves),
                    7 => compare::<7>(board, &state, moves),
                    11 => compare::<11>(board, &state, moves),
                    other => panic!("no test instance for {other} words"),
                }
            }
            words.push(board.words());
        }
        assert_eq!(words, [1, 2, 3, 1, 7, 11]);
        Ok(())
    }

    /// 300 playouts from `state` in the compact loop and on the state: the same results and
    /// scores.
    fn compare<const W: usize>(board: &Board, state: &State, moves: u64) {
        let tag = purpose_tag("test.compact");
        let (start, tables) = (Start::<W>::new(board, state), Tables::new(board));
        for i in 0..300 {
            let stream = Stream::with_ids(7, tag, [moves, i, 0]);
            let mut scratch = state.clone();
            let outcome = random_playout(board, &mut scratch, &mut Halves::new(stream.cursor()));
            let (fast, scores) = start.play(&tables, &mut HalfDraws::new(stream));
            assert_eq!(
                (fast, &scores[..board.players()]),
                (outcome, scratch.scores()),
                "playout {i} from move {moves}"
            );
        }
    }
}
