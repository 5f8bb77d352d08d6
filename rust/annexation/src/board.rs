//! A checked board and its bitset units.
//!
//! In `flood` mode a unit is a colour region (a maximal connected set of cells of one colour):
//! a flood always takes whole regions, because neighbouring regions never share a colour. In
//! `adjacent` mode a move takes single cells, so a unit is a cell. Either way a move is
//! `frontier & unowned & colour` over words of 64 units, plus the neighbour masks of what it
//! took.

use std::sync::OnceLock;

use stratagem_core::error::param;
use stratagem_core::graph::{self, Shape};
use stratagem_core::{Error, Result};

use crate::{MAX_COLOURS, MAX_PLAYERS, MIN_COLOURS, MIN_PLAYERS};

stratagem_core::named_enum! {
    /// How a chosen colour spreads (docs/annexation-rules.md, "Annexing a colour").
    pub enum Mode: must_be("mode") {
        /// Every unowned cell of the colour connected to the territory through such cells.
        Flood = "flood",
        /// Only the unowned cells of the colour next to the territory.
        Adjacent = "adjacent",
    }
}

/// The rule options of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub mode: Mode,
    pub allow_opponent_colours: bool,
    /// The move limit (at least 1); `None` means the default, four moves per cell.
    pub max_moves: Option<u32>,
}

/// Boards of at most this many mask words (1,024 units) also keep dense neighbour masks.
pub const DENSE_WORDS: usize = 16;

/// `$call` with `$w` a constant: the board's word count when it is at most 16 (boards up to
/// 1,024 units, which keep dense neighbour masks), else 0 (the count read at run time, sparse
/// neighbour words).
macro_rules! with_words {
    ($words:expr, $w:ident => $call:expr) => {
        with_words!(@ $words, $w, $call, 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    };
    (@ $words:expr, $w:ident, $call:expr, $($n:literal)*) => {
        match $words {
            $($n => {
                const $w: usize = $n;
                $call
            })*
            _ => {
                const $w: usize = 0;
                $call
            }
        }
    };
}
pub(crate) use with_words;

fn invalid(message: String) -> Error {
    Error::InvalidBoard(message)
}

/// A board checked against the rules, with its units.
#[derive(Clone, Debug)]
pub struct Board {
    cells: usize,
    colour_count: usize,
    players: usize,
    starts: Vec<usize>,
    cell_colours: Vec<u8>,
    mode: Mode,
    allow_opponent_colours: bool,
    max_moves: u32,
    unit_of_cell: Vec<u32>,
    unit_size: Vec<u32>,
    /// Words of 64 units in every mask.
    words: usize,
    /// The units next to each unit as (word, bits) pairs: built with a board of more than
    /// [`DENSE_WORDS`] words, else read from the dense masks on first use (the moves of
    /// playouts, of the vector env and of setting up a game read the dense masks, so a board
    /// recoloured per episode often never builds them).
    neighbour_pairs: OnceLock<NeighbourPairs>,
    /// The same as whole masks, `words` words per unit, kept only for boards of at most
    /// [`DENSE_WORDS`] words (at most 128 KiB), where a fixed-length OR beats the pairs.
    dense_neighbours: Vec<u64>,
    /// `words` words per colour: the units of that colour.
    colour_units: Vec<u64>,
}

impl Board {
    /// Checks the CSR graph, colours and start cells (docs/annexation-rules.md, "Board") and
    /// builds the units for `rules.mode`.
    pub fn new(
        offsets: &[i64],
        neighbours: &[i64],
        colours: &[u8],
        colour_count: usize,
        starts: &[i64],
        rules: Rules,
    ) -> Result<Self> {
        let cells = graph::check(offsets, neighbours, &GRAPH)?;
        if !(MIN_COLOURS..=MAX_COLOURS).contains(&colour_count) {
            return Err(param(format!(
                "colour_count must be from {MIN_COLOURS} to {MAX_COLOURS}, got {colour_count}"
            )));
        }
        let players = starts.len();
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(param(format!(
                "a board has {MIN_PLAYERS} to {MAX_PLAYERS} players (start cells), got {players}"
            )));
        }
        if colour_count <= players {
            return Err(param(format!(
                "colour_count must exceed the number of players ({players}) so that a player \
                 always has a legal colour, got {colour_count}"
            )));
        }
        if colours.len() != cells {
            return Err(invalid(format!(
                "colours has {} entries for {cells} cells",
                colours.len()
            )));
        }
        if let Some(cell) = colours.iter().position(|&c| usize::from(c) >= colour_count) {
            return Err(invalid(format!(
                "cell {cell} has colour {}, outside 0..{}",
                colours[cell],
                colour_count - 1
            )));
        }
        let max_moves = match rules.max_moves {
            None => u32::try_from(4 * cells).unwrap_or(u32::MAX),
            Some(0) => return Err(param("max_moves must be at least 1, got 0")),
            Some(limit) => limit,
        };
        let starts = check_starts(starts, cells)?;
        let mut regions = Regions::default();
        let edges: Vec<(u32, u32)> = edges(offsets, neighbours).collect();
        regions.label(&edges, colours);
        if let Some((a, b)) = regions.shared_start(&starts) {
            return Err(invalid(format!(
                "start cells {a} and {b} lie in one region of colour {}",
                colours[a]
            )));
        }
        let mut board = Self {
            cells,
            colour_count,
            players,
            starts,
            cell_colours: colours.to_vec(),
            mode: rules.mode,
            allow_opponent_colours: rules.allow_opponent_colours,
            max_moves,
            unit_of_cell: Vec::new(),
            unit_size: Vec::new(),
            words: 0,
            neighbour_pairs: OnceLock::new(),
            dense_neighbours: Vec::new(),
            colour_units: Vec::new(),
        };
        board.build_units(&edges, &regions);
        Ok(board)
    }

    /// Makes this board the one [`Board::new`] builds with `colours`, whose colour regions
    /// `regions` holds (no two start cells in one), on the same graph (`edges`, from
    /// [`edges`] of the graph the board was built on), starts and rules. The board's buffers
    /// are reused: a layout recoloured per episode allocates nothing.
    pub(crate) fn recolour_in_place(
        &mut self,
        edges: &[(u32, u32)],
        colours: &[u8],
        regions: &Regions,
    ) {
        self.cell_colours.copy_from_slice(colours);
        self.build_units(edges, regions);
    }

    /// The units of the board's colours (`regions` labels their regions; `edges` is the
    /// graph's [`edges`]), into the board's buffers.
    fn build_units(&mut self, edges: &[(u32, u32)], regions: &Regions) {
        let cells = self.cells;
        match self.mode {
            Mode::Flood => refill_from(&mut self.unit_of_cell, &regions.of_cell),
            Mode::Adjacent if self.unit_of_cell.len() == cells => {}
            // Cells number below 2^32 (graph::check): the cast is exact.
            Mode::Adjacent => self.unit_of_cell = (0..cells as u32).collect(),
        }
        let units = match self.mode {
            Mode::Flood => regions.count,
            Mode::Adjacent => cells,
        };
        let words = units.div_ceil(64);
        self.words = words;
        refill(&mut self.unit_size, units, 0);
        refill(&mut self.colour_units, self.colour_count * words, 0);
        let unit_of_cell = &self.unit_of_cell;
        for (&unit, &colour) in unit_of_cell.iter().zip(&self.cell_colours) {
            self.unit_size[unit as usize] += 1;
            set_bit(
                &mut self.colour_units[usize::from(colour) * words..],
                unit as usize,
            );
        }
        // Unit adjacency as bit masks on boards of few words (sorted and free of repeats as
        // read back), else as pairs sorted afterwards.
        let dense = words <= DENSE_WORDS;
        refill(
            &mut self.dense_neighbours,
            if dense { units * words } else { 0 },
            0,
        );
        let mut touching = Vec::new();
        let unit_pairs = edges
            .iter()
            .map(|&(a, b)| (unit_of_cell[a as usize], unit_of_cell[b as usize]));
        if dense {
            // Both ways along every edge, a unit to itself too (cleared below): no branch.
            let masks = self.dense_neighbours.as_mut_slice();
            for (a, b) in unit_pairs {
                let (a, b) = (a as usize, b as usize);
                masks[a * words + b / 64] |= 1u64 << (b % 64);
                masks[b * words + a / 64] |= 1u64 << (a % 64);
            }
        } else {
            touching.extend(
                unit_pairs
                    .filter(|(a, b)| a != b)
                    .flat_map(|(a, b)| [(a, b), (b, a)]),
            );
        }
        if dense {
            for (unit, mask) in self.dense_neighbours.chunks_mut(words).enumerate() {
                mask[unit / 64] &= !(1u64 << (unit % 64));
            }
        }
        self.neighbour_pairs = if dense {
            OnceLock::new()
        } else {
            touching.sort_unstable();
            touching.dedup();
            let mut pairs = self.neighbour_pairs.take().unwrap_or_default();
            pairs.group(&touching, units);
            OnceLock::from(pairs)
        };
    }

    /// The same board with other colours (same graph, starts and rules).
    pub fn recoloured(&self, offsets: &[i64], neighbours: &[i64], colours: &[u8]) -> Result<Self> {
        let starts: Vec<i64> = self.starts.iter().map(|&s| s as i64).collect();
        Self::new(
            offsets,
            neighbours,
            colours,
            self.colour_count,
            &starts,
            self.rules(),
        )
    }

    pub fn rules(&self) -> Rules {
        Rules {
            mode: self.mode,
            allow_opponent_colours: self.allow_opponent_colours,
            max_moves: Some(self.max_moves),
        }
    }

    pub fn cells(&self) -> usize {
        self.cells
    }
    pub fn colour_count(&self) -> usize {
        self.colour_count
    }
    pub fn players(&self) -> usize {
        self.players
    }
    pub fn starts(&self) -> &[usize] {
        &self.starts
    }
    pub fn cell_colours(&self) -> &[u8] {
        &self.cell_colours
    }
    pub fn mode(&self) -> Mode {
        self.mode
    }
    pub fn allow_opponent_colours(&self) -> bool {
        self.allow_opponent_colours
    }
    pub fn max_moves(&self) -> u32 {
        self.max_moves
    }
    pub fn units(&self) -> usize {
        self.unit_size.len()
    }
    pub fn words(&self) -> usize {
        self.words
    }
    pub fn unit_of_cell(&self) -> &[u32] {
        &self.unit_of_cell
    }
    #[inline]
    pub fn unit_size(&self, unit: usize) -> u32 {
        self.unit_size[unit]
    }
    /// Every unit's cell count.
    #[inline]
    pub fn unit_sizes(&self) -> &[u32] {
        &self.unit_size
    }
    /// Every unit's neighbour mask, `words` words each, on boards of at most [`DENSE_WORDS`]
    /// words (empty otherwise).
    #[inline]
    pub fn dense_neighbour_masks(&self) -> &[u64] {
        &self.dense_neighbours
    }

    /// The units next to `unit`, as (word, bits) pairs for the words that have any.
    #[inline]
    pub fn unit_neighbours(&self, unit: usize) -> &[(u32, u64)] {
        let pairs = self
            .neighbour_pairs
            .get_or_init(|| NeighbourPairs::of_dense(&self.dense_neighbours, self.words));
        let start = pairs.offsets[unit] as usize;
        let end = pairs.offsets[unit + 1] as usize;
        &pairs.words[start..end]
    }
    #[inline]
    pub fn colour_units(&self, colour: usize) -> &[u64] {
        &self.colour_units[colour * self.words..(colour + 1) * self.words]
    }
    /// Every colour's unit mask, `words` words each.
    #[inline]
    pub fn colour_masks(&self) -> &[u64] {
        &self.colour_units
    }
    /// The mask with every colour of the board.
    pub fn all_colours(&self) -> u32 {
        (1u32 << self.colour_count) - 1
    }
}

#[inline]
fn set_bit(words: &mut [u64], bit: usize) {
    words[bit / 64] |= 1u64 << (bit % 64);
}

/// Unit adjacency as (word, bits) pairs for the words that have any: unit `u`'s pairs are
/// `words[offsets[u]..offsets[u + 1]]`. Memory grows with the edges, never with units x words.
#[derive(Clone, Debug, Default)]
struct NeighbourPairs {
    offsets: Vec<u32>,
    words: Vec<(u32, u64)>,
}

impl NeighbourPairs {
    /// The pairs of dense masks, `words` words per unit.
    fn of_dense(dense: &[u64], words: usize) -> Self {
        let mut pairs = Self {
            offsets: vec![0],
            words: Vec::new(),
        };
        for mask in dense.chunks(words) {
            // Words number below 2^32 (units are u32 ids).
            let nonzero = mask.iter().enumerate().filter(|(_, bits)| **bits != 0);
            pairs
                .words
                .extend(nonzero.map(|(w, &bits)| (w as u32, bits)));
            pairs.offsets.push(pairs.words.len() as u32);
        }
        pairs
    }

    /// Packs sorted (unit, neighbour unit) pairs of `units` units, in the buffers it has.
    fn group(&mut self, touching: &[(u32, u32)], units: usize) {
        let (offsets, words) = (&mut self.offsets, &mut self.words);
        offsets.clear();
        offsets.resize(units + 1, 0);
        words.clear();
        let mut previous_unit = None;
        for &(unit, other) in touching {
            let (word, bit) = (other / 64, 1u64 << (other % 64));
            match words.last_mut() {
                Some((last, bits)) if previous_unit == Some(unit) && *last == word => *bits |= bit,
                _ => words.push((word, bit)),
            }
            previous_unit = Some(unit);
            offsets[unit as usize + 1] = words.len() as u32;
        }
        for unit in 0..units {
            offsets[unit + 1] = offsets[unit + 1].max(offsets[unit]);
        }
    }
}

/// `values` as `len` copies of `value`, in its own buffer.
fn refill<T: Copy>(values: &mut Vec<T>, len: usize, value: T) {
    values.clear();
    values.resize(len, value);
}

/// `values` as a copy of `from`, in its own buffer.
fn refill_from<T: Copy>(values: &mut Vec<T>, from: &[T]) {
    values.clear();
    values.extend_from_slice(from);
}

/// Each edge of a graph that has passed `graph::check` (so every edge is listed both ways)
/// once, as (lower cell, higher cell).
pub(crate) fn edges<'a>(
    offsets: &'a [i64],
    neighbours: &'a [i64],
) -> impl Iterator<Item = (u32, u32)> + 'a {
    (0..offsets.len().saturating_sub(1)).flat_map(move |cell| {
        row(offsets, neighbours, cell)
            .iter()
            .filter(move |&&other| (other as usize) < cell)
            // Cells number below 2^32 (graph::check): the casts are exact.
            .map(move |&other| (other as u32, cell as u32))
    })
}

fn row<'a>(offsets: &[i64], neighbours: &'a [i64], cell: usize) -> &'a [i64] {
    // graph::check has made offsets monotone and within `neighbours`.
    &neighbours[offsets[cell] as usize..offsets[cell + 1] as usize]
}

/// The shape of an annexation board: cells numbered in 32 bits, each with a neighbour, all in
/// one connected piece.
pub const GRAPH: Shape<'static> = Shape {
    node: "cell",
    offsets: "offsets",
    neighbours: "neighbours",
    min_nodes: 2,
    max_nodes: u32::MAX as usize,
    isolated_ok: false,
    connected: true,
};

fn check_starts(starts: &[i64], cells: usize) -> Result<Vec<usize>> {
    let mut checked = Vec::with_capacity(starts.len());
    for (q, &start) in starts.iter().enumerate() {
        if start < 0 || start as usize >= cells {
            return Err(invalid(format!(
                "start cell {start} of player {q} is outside 0..{}",
                cells - 1
            )));
        }
        if let Some(r) = checked.iter().position(|&s| s == start as usize) {
            return Err(invalid(format!(
                "start cells of players {r} and {q} are both cell {start}"
            )));
        }
        checked.push(start as usize);
    }
    Ok(checked)
}

/// The colour regions of a colouring (a maximal connected set of cells of one colour), with
/// the buffers to label another colouring of the graph without allocating.
#[derive(Clone, Debug, Default)]
pub(crate) struct Regions {
    /// Region id per cell, numbered in order of their lowest cell.
    of_cell: Vec<u32>,
    count: usize,
    /// Union-find links between cells of one region, towards its lowest cell.
    parent: Vec<u32>,
}

impl Regions {
    /// Labels the regions of `colours` on the graph of `edges` ([`edges`]): each edge
    /// between cells of one colour joins their sets (a union-find whose roots are the sets'
    /// lowest cells), then the cells take their root's number in cell order.
    pub(crate) fn label(&mut self, edges: &[(u32, u32)], colours: &[u8]) {
        let cells = colours.len();
        self.parent.clear();
        // Cells number below 2^32 (graph::check): the casts are exact.
        self.parent.extend(0..cells as u32);
        for &(a, b) in edges {
            let (a, b) = (a as usize, b as usize);
            if colours[a] == colours[b] {
                let (a, b) = (root(&mut self.parent, a), root(&mut self.parent, b));
                self.parent[a.max(b) as usize] = a.min(b);
            }
        }
        refill(&mut self.of_cell, cells, 0);
        let mut count = 0u32;
        // A cell's link points to a lower cell of its region, numbered before it.
        for (cell, &up) in self.parent.iter().enumerate() {
            self.of_cell[cell] = if up as usize == cell {
                count += 1;
                count - 1
            } else {
                self.of_cell[up as usize]
            };
        }
        self.count = count as usize;
    }

    /// Two start cells in one region, if any.
    pub(crate) fn shared_start(&self, starts: &[usize]) -> Option<(usize, usize)> {
        starts.iter().enumerate().find_map(|(q, &a)| {
            starts[q + 1..]
                .iter()
                .find(|&&b| self.of_cell[a] == self.of_cell[b])
                .map(|&b| (a, b))
        })
    }
}

/// The root of `cell`'s set, halving the path on the way.
fn root(parent: &mut [u32], cell: usize) -> u32 {
    let mut at = cell as u32;
    while parent[at as usize] != at {
        let up = parent[parent[at as usize] as usize];
        parent[at as usize] = up;
        at = up;
    }
    at
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A `side` x `side` grid (4-neighbour rows) in CSR form.
    pub(crate) fn grid(side: i64) -> (Vec<i64>, Vec<i64>) {
        let mut offsets = vec![0i64];
        let mut neighbours = Vec::new();
        for cell in 0..side * side {
            let (row, col) = (cell / side, cell % side);
            for (r, c) in [
                (row - 1, col),
                (row, col - 1),
                (row, col + 1),
                (row + 1, col),
            ] {
                if (0..side).contains(&r) && (0..side).contains(&c) {
                    neighbours.push(r * side + c);
                }
            }
            offsets.push(neighbours.len() as i64);
        }
        (offsets, neighbours)
    }

    /// A path 0 - 1 - 2 - 3 - 4 in CSR form.
    pub(crate) fn path(n: usize) -> (Vec<i64>, Vec<i64>) {
        let mut offsets = vec![0i64];
        let mut neighbours = Vec::new();
        for cell in 0..n {
            if cell > 0 {
                neighbours.push(cell as i64 - 1);
            }
            if cell + 1 < n {
                neighbours.push(cell as i64 + 1);
            }
            offsets.push(neighbours.len() as i64);
        }
        (offsets, neighbours)
    }

    /// A path of `colours.len()` cells with players at both ends.
    pub(crate) fn path_board(colours: &[u8], colour_count: usize, mode: Mode) -> Result<Board> {
        let (offsets, neighbours) = path(colours.len());
        let rules = Rules {
            mode,
            allow_opponent_colours: false,
            max_moves: None,
        };
        let last = colours.len() as i64 - 1;
        Board::new(
            &offsets,
            &neighbours,
            colours,
            colour_count,
            &[0, last],
            rules,
        )
    }

    const FLOOD: Rules = Rules {
        mode: Mode::Flood,
        allow_opponent_colours: false,
        max_moves: None,
    };

    #[test]
    fn regions_become_units_in_flood_mode() -> Result<()> {
        let (offsets, neighbours) = path(5);
        let board = Board::new(&offsets, &neighbours, &[0, 0, 1, 1, 2], 3, &[0, 4], FLOOD)?;
        assert_eq!(board.units(), 3);
        assert_eq!(board.unit_of_cell(), &[0, 0, 1, 1, 2]);
        assert_eq!(board.unit_size(1), 2);
        assert_eq!(board.unit_neighbours(1), &[(0, 0b101)]);
        assert_eq!(board.max_moves(), 20);
        Ok(())
    }

    #[test]
    fn a_board_recoloured_in_place_is_the_board_built_with_those_colours() -> Result<()> {
        let mut regions = Regions::default();
        let mut recoloured = 0;
        // A 7 x 7 grid keeps dense masks; 40 x 40 single cells (adjacent mode) do not.
        for (side, mode) in [(7, Mode::Flood), (7, Mode::Adjacent), (40, Mode::Adjacent)] {
            let (offsets, neighbours) = grid(side);
            let edges: Vec<(u32, u32)> = edges(&offsets, &neighbours).collect();
            let (rules, starts) = (Rules { mode, ..FLOOD }, [0, side * side - 1]);
            let colouring = |seed: i64| -> Vec<u8> {
                (0..side * side)
                    .map(|cell| ((cell * 7 + seed * 13 + cell * cell * seed) % 5) as u8)
                    .collect()
            };
            let mut board = Board::new(&offsets, &neighbours, &colouring(1), 5, &starts, rules)?;
            for seed in 2..12 {
                let colours = colouring(seed);
                regions.label(&edges, &colours);
                if regions.shared_start(board.starts()).is_some() {
                    continue;
                }
                board.recolour_in_place(&edges, &colours, &regions);
                let built = Board::new(&offsets, &neighbours, &colours, 5, &starts, rules)?;
                // The neighbour pairs too, read from the dense masks on first use.
                assert_eq!(board.unit_neighbours(0), built.unit_neighbours(0));
                let (board, built) = (format!("{board:?}"), format!("{built:?}"));
                assert!(board == built, "{side} {mode:?} {seed}");
                recoloured += 1;
            }
        }
        assert!(recoloured >= 15, "{recoloured} colourings tried");
        Ok(())
    }

    #[test]
    fn bad_boards_name_what_is_wrong() {
        let (offsets, neighbours) = path(4);
        let refused = |colours: &[u8], starts: &[i64], fragment: &str| {
            Board::new(&offsets, &neighbours, colours, 3, starts, FLOOD)
                .err()
                .is_some_and(|e| e.to_string().contains(fragment))
        };
        assert!(refused(&[0, 1, 3, 0], &[0, 3], "cell 2 has colour 3"));
        assert!(refused(&[0, 1, 2, 0], &[1, 1], "both cell 1"));
        assert!(refused(&[0, 0, 2, 0], &[0, 1], "one region of colour 0"));
        let one_way = Board::new(&[0, 1, 1], &[1], &[0, 1], 3, &[0, 1], FLOOD).err();
        assert!(one_way.is_some_and(|e| e.to_string().contains("1 does not list 0")));
        let alone = Board::new(&[0, 1, 2, 2], &[1, 0], &[0, 1, 2], 3, &[0, 1], FLOOD).err();
        assert!(alone.is_some_and(|e| e.to_string().contains("cell 2 has no neighbours")));
        let twice = Board::new(&[0, 2, 4], &[1, 1, 0, 0], &[0, 1], 3, &[0, 1], FLOOD).err();
        assert!(twice.is_some_and(|e| e.to_string().contains("listed twice")));
    }
}
