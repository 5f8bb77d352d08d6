//! A position: who owns which units, each player's colour, whose move it is, and the result.

use stratagem_core::{Error, Result};

use crate::MAX_PLAYERS;
use crate::board::{Board, with_words};

/// The result of a game so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    Won(u8),
    Drawn,
}

/// A position on a [`Board`]. The masks live in one buffer, `words` words each: the unowned
/// units, then each player's owned units, then each player's frontier (units next to its
/// territory), then a scratch mask for the units a move takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    masks: Vec<u64>,
    words: usize,
    players: usize,
    colours: [u8; MAX_PLAYERS],
    scores: [u32; MAX_PLAYERS],
    /// Cells nobody owns.
    free_cells: u32,
    to_move: u8,
    moves: u32,
    outcome: Outcome,
}

impl State {
    /// No buffers yet: [`State::clear`] or [`State::restart`] sizes them.
    fn blank() -> Self {
        Self {
            masks: Vec::new(),
            words: 0,
            players: 0,
            colours: [0; MAX_PLAYERS],
            scores: [0; MAX_PLAYERS],
            free_cells: 0,
            to_move: 0,
            moves: 0,
            outcome: Outcome::Ongoing,
        }
    }

    fn empty(board: &Board) -> Self {
        let mut state = Self::blank();
        state.clear(board);
        state
    }

    /// No cell owned, no move played, in the buffers the state has.
    fn clear(&mut self, board: &Board) {
        let mut masks = std::mem::take(&mut self.masks);
        masks.clear();
        masks.resize(board.words() * (2 + 2 * board.players()), 0);
        // The unowned mask: every unit.
        let units = board.units();
        masks[..units / 64].fill(u64::MAX);
        if units % 64 != 0 {
            masks[units / 64] = (1u64 << (units % 64)) - 1;
        }
        *self = Self {
            masks,
            words: board.words(),
            players: board.players(),
            free_cells: board.cells() as u32,
            ..Self::blank()
        };
    }

    /// The position before the first move: each player in turn takes its start cell and
    /// annexes the start cell's colour (docs/annexation-rules.md, "Setup").
    pub fn initial(board: &Board) -> Result<Self> {
        let mut state = Self::blank();
        state.restart(board)?;
        Ok(state)
    }

    /// Makes this state [`State::initial`] of `board`, reusing its buffers.
    pub fn restart(&mut self, board: &Board) -> Result<()> {
        self.clear(board);
        for (q, &start) in board.starts().iter().enumerate() {
            let unit = board.unit_of_cell()[start] as usize;
            if !self.is_unowned(unit) {
                return Err(Error::InvalidBoard(format!(
                    "start cell {start} of player {q} lies in another player's starting territory"
                )));
            }
            self.take(board, q, unit);
            let colour = board.cell_colours()[start];
            self.colours[q] = colour;
            with_words!(board.words(), W => self.annex_in::<W>(board, q, usize::from(colour)));
        }
        self.settle(board);
        Ok(())
    }

    /// A position given cell by cell (the batch API): `owner[cell]` is -1 or a player.
    pub fn from_cells(
        board: &Board,
        owner: &[i8],
        colours: &[u8],
        to_move: usize,
        moves: u32,
    ) -> Result<Self> {
        let bad = |message: String| Error::InvalidParameter(message);
        let players = board.players();
        if owner.len() != board.cells() {
            return Err(bad(format!(
                "owner has {} cells, the board {}",
                owner.len(),
                board.cells()
            )));
        }
        if colours.len() != players {
            return Err(bad(format!(
                "player colours has {} entries for {players} players",
                colours.len()
            )));
        }
        if to_move >= players {
            return Err(bad(format!(
                "player to move {to_move} is outside 0..{}",
                players - 1
            )));
        }
        let mut state = Self::empty(board);
        state.to_move = to_move as u8;
        state.moves = moves;
        for (q, &colour) in colours.iter().enumerate() {
            if usize::from(colour) >= board.colour_count() {
                return Err(bad(format!(
                    "player {q} has colour {colour}, outside 0..{}",
                    board.colour_count() - 1
                )));
            }
            state.colours[q] = colour;
        }
        let mut unit_owner = vec![i8::MIN; board.units()];
        for (cell, &who) in owner.iter().enumerate() {
            if who < -1 || who as isize >= players as isize {
                return Err(bad(format!(
                    "cell {cell} has owner {who}, outside -1..{}",
                    players - 1
                )));
            }
            let unit = board.unit_of_cell()[cell] as usize;
            if unit_owner[unit] == i8::MIN {
                unit_owner[unit] = who;
            } else if unit_owner[unit] != who {
                return Err(bad(format!(
                    "cell {cell} is owned by {who} but its colour region by {}; in flood mode a \
                     region is owned whole",
                    unit_owner[unit]
                )));
            }
        }
        for (unit, &who) in unit_owner.iter().enumerate() {
            if who >= 0 {
                state.take(board, who as usize, unit);
            }
        }
        if let Some(q) = (0..players).find(|&q| state.scores[q] == 0) {
            return Err(bad(format!("player {q} owns no cell")));
        }
        state.settle(board);
        Ok(state)
    }

    #[inline]
    pub(crate) fn unowned(&self) -> &[u64] {
        &self.masks[..self.words]
    }
    #[inline]
    pub fn owned(&self, player: usize) -> &[u64] {
        let start = self.words * (1 + player);
        &self.masks[start..start + self.words]
    }
    /// The units next to `player`'s territory (its own and other players' included).
    #[inline]
    pub(crate) fn frontier(&self, player: usize) -> &[u64] {
        let start = self.words * (1 + self.players + player);
        &self.masks[start..start + self.words]
    }

    #[inline]
    fn is_unowned(&self, unit: usize) -> bool {
        self.masks[unit / 64] & (1u64 << (unit % 64)) != 0
    }

    /// Gives `unit` to `player`: score, ownership and frontier.
    fn take(&mut self, board: &Board, player: usize, unit: usize) {
        let words = self.words;
        let bit = 1u64 << (unit % 64);
        self.masks[unit / 64] &= !bit;
        self.masks[words * (1 + player) + unit / 64] |= bit;
        self.scores[player] += board.unit_size(unit);
        self.free_cells -= board.unit_size(unit);
        let frontier = words * (1 + self.players + player);
        let dense = board.dense_neighbour_masks();
        if dense.is_empty() {
            for &(word, bits) in board.unit_neighbours(unit) {
                self.masks[frontier + word as usize] |= bits;
            }
        } else {
            let near = &dense[unit * words..(unit + 1) * words];
            for (mask, &bits) in self.masks[frontier..frontier + words].iter_mut().zip(near) {
                *mask |= bits;
            }
        }
    }

    /// `annex(q, c)`: takes every unowned unit of colour `c` on q's frontier; returns the
    /// cells taken. The units are found first and taken after, so a move never chains.
    #[inline]
    pub fn annex(&mut self, board: &Board, player: usize, colour: usize) -> u32 {
        self.annex_in::<0>(board, player, colour)
    }

    /// [`State::annex`] for masks of `W` words (`W = 0`: the board's count, read at run
    /// time). Playouts use a constant `W` so the word loops unroll.
    #[inline(always)]
    fn annex_in<const W: usize>(&mut self, board: &Board, player: usize, colour: usize) -> u32 {
        if W > 0 {
            return self.annex_fixed::<W>(board, player, colour);
        }
        let words = self.words;
        let players = self.players;
        let (unowned, rest) = self.masks.split_at_mut(words);
        let (owned, rest) = rest.split_at_mut(players * words);
        let (frontiers, taken) = rest.split_at_mut(players * words);
        let owned = &mut owned[player * words..(player + 1) * words];
        let frontier = &mut frontiers[player * words..(player + 1) * words];
        let colour_units = &board.colour_masks()[colour * words..(colour + 1) * words];
        let mut any = 0u64;
        for (((took, free), &near), &of_colour) in taken[..words]
            .iter_mut()
            .zip(unowned.iter_mut())
            .zip(frontier.iter())
            .zip(colour_units)
        {
            *took = near & *free & of_colour;
            *free &= !*took;
            any |= *took;
        }
        if any == 0 {
            return 0;
        }
        let mut cells = 0;
        for (w, (&took, mine)) in taken[..words].iter().zip(owned.iter_mut()).enumerate() {
            *mine |= took;
            let mut bits = took;
            while bits != 0 {
                let unit = w * 64 + bits.trailing_zeros() as usize;
                cells += board.unit_size(unit);
                for &(word, near) in board.unit_neighbours(unit) {
                    frontier[word as usize] |= near;
                }
                bits &= bits - 1;
            }
        }
        self.scores[player] += cells;
        self.free_cells -= cells;
        cells
    }

    /// [`State::annex_in`] for a constant `W > 0`: the taken units and the frontier live in
    /// registers (arrays of `W` words) while the neighbour masks are ORed in, and go back to
    /// the state once.
    #[inline(always)]
    fn annex_fixed<const W: usize>(&mut self, board: &Board, player: usize, colour: usize) -> u32 {
        let players = self.players;
        let (unowned, rest) = self.masks.split_at_mut(W);
        let (owned, frontiers) = rest.split_at_mut(players * W);
        let owned = &mut owned[player * W..(player + 1) * W];
        let frontier = &mut frontiers[player * W..(player + 1) * W];
        let colour_units = &board.colour_masks()[colour * W..(colour + 1) * W];
        let mut took = [0u64; W];
        let mut any = 0u64;
        for w in 0..W {
            took[w] = frontier[w] & unowned[w] & colour_units[w];
            any |= took[w];
        }
        if any == 0 {
            return 0;
        }
        let mut near = [0u64; W];
        near.copy_from_slice(frontier);
        let neighbour_masks = board.dense_neighbour_masks();
        let sizes = board.unit_sizes();
        let mut cells = 0;
        for w in 0..W {
            unowned[w] &= !took[w];
            owned[w] |= took[w];
            let mut bits = took[w];
            while bits != 0 {
                let unit = w * 64 + bits.trailing_zeros() as usize;
                cells += sizes[unit];
                let masks = &neighbour_masks[unit * W..(unit + 1) * W];
                for v in 0..W {
                    near[v] |= masks[v];
                }
                bits &= bits - 1;
            }
        }
        frontier.copy_from_slice(&near);
        self.scores[player] += cells;
        self.free_cells -= cells;
        cells
    }

    /// The cells `annex(player, colour)` would take now.
    pub fn gain(&self, board: &Board, player: usize, colour: usize) -> u32 {
        let colour_units = board.colour_units(colour);
        let frontier = self.frontier(player);
        let mut cells = 0;
        for (w, &free) in self.unowned().iter().enumerate() {
            cells += cells_in(board, w, frontier[w] & free & colour_units[w]);
        }
        cells
    }

    /// The greedy colour: the legal colour that takes the most cells now, the lowest on ties
    /// (0 when none is legal). The greedy AI plays it, and biased playouts and MCTS draw it.
    pub fn greedy_colour(&self, board: &Board) -> usize {
        let q = self.to_move();
        let legal = self.legal_mask(board);
        let mut best: Option<(u32, usize)> = None;
        for c in (0..board.colour_count()).filter(|&c| legal & (1 << c) != 0) {
            let gain = self.gain(board, q, c);
            if best.is_none_or(|(g, _)| gain > g) {
                best = Some((gain, c));
            }
        }
        best.map_or(0, |(_, c)| c)
    }

    /// The cells `player` could take with its next move, over all colours.
    pub fn reach(&self, board: &Board, player: usize) -> u32 {
        let frontier = self.frontier(player);
        let mut cells = 0;
        for (w, &free) in self.unowned().iter().enumerate() {
            cells += cells_in(board, w, frontier[w] & free);
        }
        cells
    }

    /// The colours the player to move may choose, as a bit mask.
    #[inline]
    pub fn legal_mask(&self, board: &Board) -> u32 {
        if self.outcome != Outcome::Ongoing {
            return 0;
        }
        let q = usize::from(self.to_move);
        let mut mask = board.all_colours() & !(1u32 << self.colours[q]);
        if !board.allow_opponent_colours() {
            for r in (0..self.players).filter(|&r| r != q) {
                mask &= !(1u32 << self.colours[r]);
            }
        }
        mask
    }

    /// Plays `colour` for the player to move, refusing an illegal move with the state intact.
    pub fn play(&mut self, board: &Board, colour: i64) -> Result<()> {
        let refuse = |why: String| Err(Error::InvalidMove(why));
        if self.outcome != Outcome::Ongoing {
            return refuse(format!("colour {colour}: the game is over"));
        }
        let k = board.colour_count();
        if colour < 0 || colour as usize >= k {
            return refuse(format!("colour {colour} is out of range 0..{}", k - 1));
        }
        let q = usize::from(self.to_move);
        if colour as usize == usize::from(self.colours[q]) {
            return refuse(format!("colour {colour} is player {q}'s own colour"));
        }
        if self.legal_mask(board) & (1u32 << colour) == 0 {
            let holder = (0..self.players)
                .find(|&r| r != q && i64::from(self.colours[r]) == colour)
                .unwrap_or(q);
            return refuse(format!(
                "colour {colour} is player {holder}'s colour (opponents' colours are not allowed)"
            ));
        }
        self.play_unchecked(board, colour as usize);
        Ok(())
    }

    /// Plays a colour known to be legal.
    #[inline]
    pub fn play_unchecked(&mut self, board: &Board, colour: usize) {
        self.play_in::<0>(board, colour);
    }

    /// [`State::play_unchecked`] for masks of `W` words (see [`State::annex_in`]).
    #[inline(always)]
    pub fn play_in<const W: usize>(&mut self, board: &Board, colour: usize) {
        let mover = usize::from(self.to_move);
        self.step_in::<W>(board, colour);
        self.settle_after(board, mover);
    }

    /// A move without the end check (the light playout's step), for `W` words.
    #[inline(always)]
    pub fn step_in<const W: usize>(&mut self, board: &Board, colour: usize) {
        let q = usize::from(self.to_move);
        self.colours[q] = colour as u8;
        self.annex_in::<W>(board, q, colour);
        self.moves += 1;
        self.to_move = if q + 1 == self.players {
            0
        } else {
            q as u8 + 1
        };
    }

    /// The end check (docs/annexation-rules.md, "A move", step 3).
    #[inline(always)]
    fn settle(&mut self, board: &Board) {
        let cells = board.cells() as u64;
        if let Some(q) = (0..self.players).find(|&q| 2 * u64::from(self.scores[q]) > cells) {
            self.outcome = Outcome::Won(q as u8);
        } else if self.free_cells == 0 || self.moves >= board.max_moves() {
            self.outcome = self.most_cells();
        }
    }

    /// [`State::settle`] after a move of `mover` in a game that was not over: only the
    /// mover's score has grown, so only the mover can have passed half the board.
    #[inline(always)]
    fn settle_after(&mut self, board: &Board, mover: usize) {
        if 2 * u64::from(self.scores[mover]) > board.cells() as u64 {
            self.outcome = Outcome::Won(mover as u8);
        } else if self.free_cells == 0 || self.moves >= board.max_moves() {
            self.outcome = self.most_cells();
        }
    }

    /// True once every cell is owned.
    #[inline]
    pub fn all_owned(&self) -> bool {
        self.free_cells == 0
    }

    /// The cells nobody owns.
    #[inline]
    pub(crate) fn free_cells(&self) -> u32 {
        self.free_cells
    }

    /// The unique player with the most cells wins; several at the top draw.
    pub fn most_cells(&self) -> Outcome {
        most_cells(self.scores())
    }

    /// `scores[q] - max over r != q of scores[r]`.
    pub fn margin(&self, player: usize) -> i64 {
        margin(self.scores(), player)
    }

    pub fn outcome(&self) -> Outcome {
        self.outcome
    }
    pub fn is_over(&self) -> bool {
        self.outcome != Outcome::Ongoing
    }
    pub fn to_move(&self) -> usize {
        usize::from(self.to_move)
    }
    pub fn moves(&self) -> u32 {
        self.moves
    }
    pub fn players(&self) -> usize {
        self.players
    }
    pub fn scores(&self) -> &[u32] {
        &self.scores[..self.players]
    }
    pub fn player_colours(&self) -> &[u8] {
        &self.colours[..self.players]
    }

    /// The owner of every cell: -1 or a player.
    pub fn cell_owners(&self, board: &Board) -> Vec<i8> {
        let mut unit_owner = vec![-1i8; board.units()];
        for q in 0..self.players {
            for (w, &bits) in self.owned(q).iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    unit_owner[w * 64 + bits.trailing_zeros() as usize] = q as i8;
                    bits &= bits - 1;
                }
            }
        }
        board
            .unit_of_cell()
            .iter()
            .map(|&u| unit_owner[u as usize])
            .collect()
    }

    /// The colour every cell shows: its owner's colour, or its own when unowned.
    pub fn cell_colours(&self, board: &Board) -> Vec<u8> {
        self.cell_owners(board)
            .iter()
            .zip(board.cell_colours())
            .map(|(&who, &own)| {
                if who < 0 {
                    own
                } else {
                    self.colours[who as usize]
                }
            })
            .collect()
    }
}

/// The result when the game ends on the move limit or a full board: the unique player with
/// the most cells (`scores`, one per player) wins; several at the top draw.
pub(crate) fn most_cells(scores: &[u32]) -> Outcome {
    let best = scores.iter().copied().max().unwrap_or(0);
    let mut leaders = (0..scores.len()).filter(|&q| scores[q] == best);
    match (leaders.next(), leaders.next()) {
        (Some(q), None) => Outcome::Won(q as u8),
        _ => Outcome::Drawn,
    }
}

/// `scores[q] - max over r != q of scores[r]` (`scores`, one per player).
pub(crate) fn margin(scores: &[u32], player: usize) -> i64 {
    let best_other = (0..scores.len())
        .filter(|&r| r != player)
        .map(|r| scores[r])
        .max()
        .unwrap_or(0);
    i64::from(scores[player]) - i64::from(best_other)
}

#[inline]
fn cells_in(board: &Board, word: usize, bits: u64) -> u32 {
    let mut bits = bits;
    let mut cells = 0;
    while bits != 0 {
        cells += board.unit_size(word * 64 + bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
    cells
}

/// `SELECT_IN_BYTE[byte][i]`: the position of the `i`-th set bit of `byte` (0 past its last).
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut found) = (0, 0);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte][found] = bit as u8;
                found += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The `index`-th set bit of `mask` (0-based; `mask` has at most 16 bits and more than
/// `index` set), for drawing a colour among the legal ones: one table look-up per byte, and
/// on boards of at most 8 colours the branch always goes the same way.
#[inline]
pub fn nth_colour(mask: u32, index: u32) -> usize {
    let low = (mask & 0xFF) as usize;
    let below = low.count_ones();
    if index < below {
        usize::from(SELECT_IN_BYTE[low][index as usize])
    } else {
        let high = ((mask >> 8) & 0xFF) as usize;
        8 + usize::from(SELECT_IN_BYTE[high][((index - below) & 7) as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Mode;

    fn path_board(colours: &[u8], mode: Mode) -> Result<Board> {
        crate::board::tests::path_board(colours, 4, mode)
    }

    #[test]
    fn flood_takes_the_whole_region_adjacent_one_step() -> Result<()> {
        // 0 | 2 2 2 | 3 3 3 | 1: player 0 at cell 0 picks colour 2.
        let colours = [0, 2, 2, 2, 3, 3, 3, 1];
        let flood = path_board(&colours, Mode::Flood)?;
        let mut state = State::initial(&flood)?;
        state.play(&flood, 2)?;
        assert_eq!(state.scores(), &[4, 1]);
        let adjacent = path_board(&colours, Mode::Adjacent)?;
        let mut state = State::initial(&adjacent)?;
        state.play(&adjacent, 2)?;
        assert_eq!(state.scores(), &[2, 1]);
        assert_eq!(state.cell_owners(&adjacent)[..3], [0, 0, -1]);
        Ok(())
    }

    #[test]
    fn illegal_moves_leave_the_state_alone() -> Result<()> {
        let board = path_board(&[0, 2, 2, 3, 1], Mode::Flood)?;
        let mut state = State::initial(&board)?;
        let before = state.clone();
        for (colour, fragment) in [
            (0, "own colour"),
            (1, "player 1's colour"),
            (4, "out of range"),
            (-1, "out of range"),
        ] {
            let refused = state.play(&board, colour).err();
            assert!(refused.is_some_and(|e| e.to_string().contains(fragment)));
            assert_eq!(state, before);
        }
        Ok(())
    }

    #[test]
    fn nth_colour_finds_the_indexth_set_bit() {
        for mask in 1u32..1 << 16 {
            let set: Vec<usize> = (0..16).filter(|&b| mask & (1 << b) != 0).collect();
            for (index, &bit) in set.iter().enumerate() {
                assert_eq!(
                    nth_colour(mask, index as u32),
                    bit,
                    "mask {mask:#x} index {index}"
                );
            }
        }
    }

    #[test]
    fn more_than_half_wins() -> Result<()> {
        let board = path_board(&[0, 2, 2, 3, 1], Mode::Flood)?;
        let mut state = State::initial(&board)?;
        state.play(&board, 2)?;
        assert_eq!(state.outcome(), Outcome::Won(0));
        assert!(state.play(&board, 3).is_err());
        Ok(())
    }
}
