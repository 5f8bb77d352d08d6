//! UCT search (docs/annexation-rules.md, "mcts"): root-parallel trees, several playouts per
//! leaf, tree reuse between moves, and a plan against an opponent that has only played the
//! greedy colour. With an iteration budget the choice is a pure function of the seed and the
//! game's history, whatever the thread count.

use std::cmp::Reverse;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use stratagem_core::rng::{Halves, Stream, det_ln, purpose_tag};
use stratagem_core::{Cancel, Result, error::param};

use crate::board::Board;
use crate::playout::biased_playout;
use crate::purpose;
use crate::state::{Outcome, State};
use crate::{MAX_COLOURS, MAX_PLAYERS};

/// How long each tree searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Iterations per tree per move: reproducible.
    Iterations(u64),
    /// Wall-clock time per move: not reproducible.
    Time(Duration),
}

/// The default weight of the final margin in a playout's value (docs/annexation.md, "How MCTS
/// values a playout").
pub const DEFAULT_MARGIN_WEIGHT: f64 = 0.5;
/// The default weight of the greedy colour in a playout's move draw ([`biased_playout`]).
pub const DEFAULT_GREEDY_BIAS: u32 = 6;
/// The default weight of a child's gain in its selection score (progressive bias).
pub const DEFAULT_GAIN_BIAS: f64 = 3.0;
/// The default beam width of the plan against greedy replies ([`winning_line`]). The plan is
/// an opponent model: it assumes that an opponent that has played only greedy colours will go
/// on doing so, and is dropped for the game once it does not. It is on by default because
/// against greedy no search wins from every seat (docs/annexation.md, "How MCTS plays to
/// win"); `plan=0` is the search alone.
pub const DEFAULT_PLAN_WIDTH: u32 = 100;
/// The largest beam width a plan may use.
pub const MAX_PLAN_WIDTH: u32 = 65_535;
/// The most own moves a plan looks ahead.
pub const PLAN_DEPTH: usize = 40;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    pub budget: Budget,
    pub exploration: f64,
    pub playouts: u32,
    pub trees: u32,
    pub reuse: bool,
    /// `w` in a playout's value `(1 - w) * result + w * (cells + margin) / (2 * cells)`.
    pub margin_weight: f64,
    /// The playouts' greedy bias ([`biased_playout`]; 0: uniformly random moves).
    pub greedy_bias: u32,
    /// `b` in the selection score's progressive bias `b * gain / (cells * N)`.
    pub gain_bias: f64,
    /// The beam width of the plan against greedy replies (0: no plan).
    pub plan_width: u32,
}

impl MctsConfig {
    pub fn new(
        budget: Budget,
        exploration: f64,
        playouts: u32,
        trees: u32,
        reuse: bool,
    ) -> Result<Self> {
        match budget {
            Budget::Iterations(0) => return Err(param("iterations must be at least 1, got 0")),
            Budget::Time(time) if time.is_zero() => {
                return Err(param("the time budget must be positive"));
            }
            _ => {}
        }
        if !exploration.is_finite() || exploration < 0.0 {
            return Err(param(format!(
                "the exploration constant c must be a finite number >= 0, got {exploration}"
            )));
        }
        if playouts == 0 {
            return Err(param("playouts per leaf must be at least 1, got 0"));
        }
        if trees == 0 {
            return Err(param("trees must be at least 1, got 0"));
        }
        Ok(Self {
            budget,
            exploration,
            playouts,
            trees,
            reuse,
            margin_weight: DEFAULT_MARGIN_WEIGHT,
            greedy_bias: DEFAULT_GREEDY_BIAS,
            gain_bias: DEFAULT_GAIN_BIAS,
            plan_width: DEFAULT_PLAN_WIDTH,
        })
    }

    /// The same settings with another margin weight (from 0 to 1).
    pub fn with_margin_weight(self, margin_weight: f64) -> Result<Self> {
        if !(0.0..=1.0).contains(&margin_weight) {
            return Err(param(format!(
                "the margin weight must be from 0 to 1, got {margin_weight}"
            )));
        }
        Ok(Self {
            margin_weight,
            ..self
        })
    }

    /// The same settings with another progressive bias weight (finite, at least 0).
    pub fn with_gain_bias(self, gain_bias: f64) -> Result<Self> {
        if !gain_bias.is_finite() || gain_bias < 0.0 {
            return Err(param(format!(
                "the gain bias must be a finite number >= 0, got {gain_bias}"
            )));
        }
        Ok(Self { gain_bias, ..self })
    }

    /// The same settings with another plan beam width (0: no plan; at most 65,535).
    pub fn with_plan_width(self, plan_width: u32) -> Result<Self> {
        if plan_width > MAX_PLAN_WIDTH {
            return Err(param(format!(
                "the plan width must be from 0 to {MAX_PLAN_WIDTH}, got {plan_width}"
            )));
        }
        Ok(Self { plan_width, ..self })
    }

    /// The same settings with another greedy bias for the playouts (at most 65,535).
    pub fn with_greedy_bias(self, greedy_bias: u32) -> Result<Self> {
        if greedy_bias > u32::from(u16::MAX) {
            return Err(param(format!(
                "the greedy bias must be from 0 to 65535, got {greedy_bias}"
            )));
        }
        Ok(Self {
            greedy_bias,
            ..self
        })
    }
}

/// What one finished playout is worth to `player`: its result (1 won, 1/2 drawn, 0 lost)
/// blended with its final margin scaled to 0..1, so that among won lines the search prefers
/// the larger win, and a game ends as soon as a player passes half the board, the quicker.
pub fn playout_value(state: &State, player: usize, cells: u32, margin_weight: f64) -> f64 {
    let result = match state.outcome() {
        Outcome::Won(q) if usize::from(q) == player => 1.0,
        Outcome::Won(_) => 0.0,
        _ => 0.5,
    };
    let share = (i64::from(cells) + state.margin(player)) as f64 / (2.0 * f64::from(cells));
    (1.0 - margin_weight) * result + margin_weight * share
}

#[derive(Clone, Debug)]
struct Node {
    colour: u8,
    mover: u8,
    /// Number of children; 0 until expanded (a position that is not over has a legal move).
    children: u8,
    first_child: u32,
    /// The cells `mover` took with this colour.
    gain: u32,
    visits: u64,
    /// The summed [`playout_value`]s for `mover`.
    reward: f64,
}

#[derive(Clone, Debug)]
struct Tree {
    /// `nodes[0]` is the root.
    nodes: Vec<Node>,
    /// The moves that led to the root.
    history: Vec<u8>,
}

impl Tree {
    fn new(history: &[u8]) -> Self {
        Self {
            nodes: vec![Node {
                colour: 0,
                mover: 0,
                children: 0,
                first_child: 0,
                gain: 0,
                visits: 0,
                reward: 0.0,
            }],
            history: history.to_vec(),
        }
    }

    /// The subtree reached by `moves` from the root, if every step is an expanded child.
    fn descendant(&self, moves: &[u8]) -> Option<usize> {
        let mut node = 0usize;
        for &colour in moves {
            let here = &self.nodes[node];
            let first = here.first_child as usize;
            node = (first..first + usize::from(here.children))
                .find(|&child| self.nodes[child].colour == colour)?;
        }
        Some(node)
    }

    /// Makes `node` the root, keeping its subtree (children stay contiguous).
    fn reroot(&mut self, node: usize, history: &[u8]) {
        let mut kept = vec![self.nodes[node].clone()];
        let mut next = 0;
        while next < kept.len() {
            let (first, count) = (kept[next].first_child as usize, kept[next].children);
            if count > 0 {
                kept[next].first_child = kept.len() as u32;
                kept.extend_from_slice(&self.nodes[first..first + usize::from(count)]);
            }
            next += 1;
        }
        self.nodes = kept;
        self.history = history.to_vec();
    }

    fn expand(&mut self, node: usize, board: &Board, state: &State) {
        let legal = state.legal_mask(board);
        let first = self.nodes.len() as u32;
        let mover = state.to_move() as u8;
        for colour in (0..board.colour_count() as u8).filter(|&c| legal & (1 << c) != 0) {
            self.nodes.push(Node {
                colour,
                mover,
                children: 0,
                first_child: 0,
                gain: state.gain(board, usize::from(mover), usize::from(colour)),
                visits: 0,
                reward: 0.0,
            });
        }
        self.nodes[node].first_child = first;
        self.nodes[node].children = legal.count_ones() as u8;
    }

    /// The child with the largest UCT score plus progressive bias, the first unvisited one
    /// if any.
    fn select(&self, node: usize, config: &MctsConfig, cells: u32) -> usize {
        let parent = &self.nodes[node];
        let log_visits = det_ln(parent.visits as f64);
        let first = parent.first_child as usize;
        let mut best = first;
        let mut best_score = f64::NEG_INFINITY;
        for child in first..first + usize::from(parent.children) {
            let Node {
                visits,
                reward,
                gain,
                ..
            } = self.nodes[child];
            if visits == 0 {
                return child;
            }
            let score = reward / visits as f64
                + config.exploration * (log_visits / visits as f64).sqrt()
                + config.gain_bias * f64::from(gain) / (f64::from(cells) * visits as f64);
            if score > best_score {
                best = child;
                best_score = score;
            }
        }
        best
    }
}

/// One tree's part of a move: its iterations from `root`.
struct Run<'a> {
    board: &'a Board,
    root: &'a State,
    config: &'a MctsConfig,
    seed: u64,
    tree_index: u64,
    deadline: Option<Instant>,
    cancel: &'a Cancel,
}

impl Run<'_> {
    fn grow(&self, tree: &mut Tree) -> Result<u64> {
        let tag = purpose_tag(purpose::MCTS);
        let root_moves = u64::from(self.root.moves());
        let mut state = self.root.clone();
        let mut scratch = self.root.clone();
        let mut path = Vec::new();
        let mut iteration = 0u64;
        let (players, cells) = (self.root.players(), self.board.cells() as u32);
        loop {
            match (self.config.budget, self.deadline) {
                (Budget::Iterations(limit), _) if iteration >= limit => break,
                (Budget::Time(_), Some(deadline))
                    if iteration > 0 && Instant::now() >= deadline =>
                {
                    break;
                }
                _ => {}
            }
            if iteration % 64 == 0 {
                self.cancel.check()?;
            }
            let mut draws = Halves::new(
                Stream::with_ids(self.seed, tag, [root_moves, self.tree_index, iteration]).cursor(),
            );
            state.clone_from(self.root);
            path.clear();
            path.push(0usize);
            let mut node = 0usize;
            while !state.is_over() {
                if tree.nodes[node].children == 0 {
                    tree.expand(node, self.board, &state);
                    node = tree.nodes[node].first_child as usize;
                    state.play_unchecked(self.board, usize::from(tree.nodes[node].colour));
                    path.push(node);
                    break;
                }
                node = tree.select(node, self.config, cells);
                state.play_unchecked(self.board, usize::from(tree.nodes[node].colour));
                path.push(node);
                if tree.nodes[node].visits == 0 {
                    break;
                }
            }
            let mut values = [0.0f64; MAX_PLAYERS];
            for _ in 0..self.config.playouts {
                let finished = if state.is_over() {
                    &state
                } else {
                    scratch.clone_from(&state);
                    biased_playout(
                        self.board,
                        &mut scratch,
                        &mut draws,
                        self.config.greedy_bias,
                    );
                    &scratch
                };
                for (player, value) in values[..players].iter_mut().enumerate() {
                    *value += playout_value(finished, player, cells, self.config.margin_weight);
                }
            }
            for &visited in &path {
                let node = &mut tree.nodes[visited];
                node.visits += u64::from(self.config.playouts);
                if visited != 0 {
                    node.reward += values[usize::from(node.mover)];
                }
            }
            iteration += 1;
        }
        Ok(iteration)
    }
}

/// The legal colour that wins the game at once for the player to move, taking the most
/// cells (the lowest colour on ties), if there is one.
pub fn decisive_move(board: &Board, state: &State) -> Option<usize> {
    let mover = state.to_move();
    let legal = state.legal_mask(board);
    let mut best: Option<(u32, usize)> = None;
    for colour in (0..board.colour_count()).filter(|&c| legal & (1 << c) != 0) {
        let mut next = state.clone();
        next.play_unchecked(board, colour);
        let gain = next.scores()[mover] - state.scores()[mover];
        if next.outcome() == Outcome::Won(mover as u8) && best.is_none_or(|(most, _)| gain > most) {
            best = Some((gain, colour));
        }
    }
    best.map(|(_, colour)| colour)
}

/// Whether every move the other players made in `history` (from the start of the game on
/// `board`) was the greedy colour, and they made at least one: then the plan may assume
/// they go on playing it.
pub fn opponents_played_greedy(board: &Board, me: usize, history: &[u8]) -> Result<bool> {
    let mut state = State::initial(board)?;
    let mut seen = false;
    for &colour in history {
        if state.to_move() != me {
            if state.greedy_colour(board) != usize::from(colour) {
                return Ok(false);
            }
            seen = true;
        }
        state.play_unchecked(board, usize::from(colour));
    }
    Ok(seen)
}

/// One step of a plan: an own colour and the greedy replies after it, and the step before.
#[derive(Clone, Copy, Debug)]
struct Step {
    /// The index of the step before in the arena, `u32::MAX` for the first.
    before: u32,
    colours: [u8; MAX_PLAYERS],
    len: u8,
}

impl Step {
    /// Plays `colour` for `me` (to move) in `state`, then the other players' greedy colours up
    /// to `me`'s next turn or the end of the game.
    fn play(board: &Board, state: &mut State, colour: usize, me: usize, before: u32) -> Self {
        let mut step = Self {
            before,
            colours: [colour as u8; MAX_PLAYERS],
            len: 1,
        };
        state.play_unchecked(board, colour);
        while !state.is_over() && state.to_move() != me {
            let reply = state.greedy_colour(board);
            state.play_unchecked(board, reply);
            step.colours[usize::from(step.len)] = reply as u8;
            step.len += 1;
        }
        step
    }

    fn replay(&self, board: &Board, state: &mut State) {
        for &colour in &self.colours[..usize::from(self.len)] {
            state.play_unchecked(board, usize::from(colour));
        }
    }
}

/// The colours of the steps up to `last` in the arena, the first step first.
fn line_of(arena: &[Step], last: Step) -> Vec<u8> {
    let mut steps = vec![last];
    let mut before = last.before;
    while before != u32::MAX {
        let step = arena[before as usize];
        steps.push(step);
        before = step.before;
    }
    steps
        .iter()
        .rev()
        .flat_map(|step| step.colours[..usize::from(step.len)].iter().copied())
        .collect()
}

fn same_position(a: &State, b: &State) -> bool {
    a.player_colours() == b.player_colours() && (0..a.players()).all(|q| a.owned(q) == b.owned(q))
}

/// A beam search for a line that wins for the player to move against greedy replies: every
/// colour of the line from `state` (the replies included), or None. Level after level (one
/// own move and the replies each, at most [`PLAN_DEPTH`]), every position of the beam, in
/// beam order, is followed by each legal colour in ascending order; the first line that wins
/// is returned. The lines still going are ordered by the mover's margin, largest first (a
/// stable sort), a position met again is dropped, and the first `width` make the next beam
/// (a width of 0 finds nothing).
pub fn winning_line(
    board: &Board,
    state: &State,
    width: usize,
    cancel: &Cancel,
) -> Result<Option<Vec<u8>>> {
    let me = state.to_move();
    // The beam: positions, their margins and the arena index of their last step.
    let mut beam: Vec<(State, i64, u32)> = Vec::new();
    if width > 0 {
        beam.push((state.clone(), state.margin(me), u32::MAX));
    }
    let mut arena: Vec<Step> = Vec::new();
    for _ in 0..PLAN_DEPTH {
        if beam.is_empty() {
            return Ok(None);
        }
        // The lines still going: the beam entry they extend, their last step, their margin.
        let mut lines: Vec<(usize, Step, i64)> = Vec::new();
        for (index, (position, _, last)) in beam.iter().enumerate() {
            cancel.check()?;
            let legal = position.legal_mask(board);
            for colour in (0..board.colour_count()).filter(|&c| legal & (1 << c) != 0) {
                let mut next = position.clone();
                let step = Step::play(board, &mut next, colour, me, *last);
                match next.outcome() {
                    Outcome::Won(q) if usize::from(q) == me => {
                        return Ok(Some(line_of(&arena, step)));
                    }
                    Outcome::Ongoing => lines.push((index, step, next.margin(me))),
                    _ => {}
                }
            }
        }
        lines.sort_by_key(|&(_, _, margin)| Reverse(margin));
        let mut next_beam: Vec<(State, i64, u32)> = Vec::with_capacity(width.min(lines.len()));
        for (index, step, margin) in lines {
            let mut next = beam[index].0.clone();
            step.replay(board, &mut next);
            // The lines are sorted by margin, and equal positions have equal margins.
            let seen = next_beam
                .iter()
                .rev()
                .take_while(|(_, kept, _)| *kept == margin)
                .any(|(kept, _, _)| same_position(kept, &next));
            if !seen {
                arena.push(step);
                next_beam.push((next, margin, (arena.len() - 1) as u32));
                if next_beam.len() == width {
                    break;
                }
            }
        }
        beam = next_beam;
    }
    Ok(None)
}

/// An MCTS player: its settings, seed and trees.
#[derive(Clone, Debug)]
pub struct Mcts {
    config: MctsConfig,
    seed: u64,
    trees: Vec<Tree>,
    /// The colours of the board the trees were grown on (trees never cross boards).
    board_colours: Vec<u8>,
    last_iterations: u64,
    /// The winning line being followed, as a whole game's history (empty: none).
    plan: Vec<u8>,
}

impl Mcts {
    pub fn new(config: MctsConfig, seed: u64) -> Self {
        Self {
            config,
            seed,
            trees: Vec::new(),
            board_colours: Vec::new(),
            last_iterations: 0,
            plan: Vec::new(),
        }
    }

    /// Iterations run by all trees in the last `choose`.
    pub fn last_iterations(&self) -> u64 {
        self.last_iterations
    }

    /// Visits of each root colour summed over the trees.
    pub fn root_visits(&self) -> [u64; MAX_COLOURS] {
        let mut visits = [0u64; MAX_COLOURS];
        for tree in &self.trees {
            let root = &tree.nodes[0];
            let first = root.first_child as usize;
            for child in &tree.nodes[first..first + usize::from(root.children)] {
                visits[usize::from(child.colour)] += child.visits;
            }
        }
        visits
    }

    /// The next colour of a line that wins against greedy replies, when the other players
    /// have played only greedy colours: the line being followed if the game has kept to it,
    /// otherwise a new one from [`winning_line`] (kept for the next moves), if any.
    fn planned(
        &mut self,
        board: &Board,
        state: &State,
        history: &[u8],
        same_board: bool,
        cancel: &Cancel,
    ) -> Result<Option<usize>> {
        let following =
            same_board && self.plan.len() > history.len() && self.plan.starts_with(history);
        if !following {
            self.plan.clear();
            if self.config.plan_width == 0
                || !opponents_played_greedy(board, state.to_move(), history)?
            {
                return Ok(None);
            }
            let Some(line) = winning_line(board, state, self.config.plan_width as usize, cancel)?
            else {
                return Ok(None);
            };
            self.plan = [history, line.as_slice()].concat();
            self.board_colours = board.cell_colours().to_vec();
        }
        Ok(Some(usize::from(self.plan[history.len()])))
    }

    /// Searches from `state` (reached by `history`) and returns the colour to play.
    pub fn choose(
        &mut self,
        board: &Board,
        state: &State,
        history: &[u8],
        cancel: &Cancel,
    ) -> Result<usize> {
        if let Some(colour) = decisive_move(board, state) {
            // Nothing to search: the game ends now, and the trees with it.
            self.trees.clear();
            self.last_iterations = 0;
            return Ok(colour);
        }
        let same_board = self.board_colours == board.cell_colours();
        if let Some(colour) = self.planned(board, state, history, same_board, cancel)? {
            // The opponents are taken to go on playing greedily: no search.
            self.trees.clear();
            self.last_iterations = 0;
            return Ok(colour);
        }
        let trees = self.config.trees as usize;
        if !(self.config.reuse && same_board && self.trees.len() == trees) {
            self.trees = vec![Tree::new(history); trees];
            self.board_colours = board.cell_colours().to_vec();
        }
        for tree in &mut self.trees {
            let kept = history
                .strip_prefix(tree.history.as_slice())
                .and_then(|since| tree.descendant(since));
            match kept {
                Some(node) => tree.reroot(node, history),
                None => *tree = Tree::new(history),
            }
        }
        let deadline = match self.config.budget {
            Budget::Time(time) => Some(Instant::now() + time),
            Budget::Iterations(_) => None,
        };
        let (config, seed) = (self.config, self.seed);
        let iterations: Vec<u64> = self
            .trees
            .par_iter_mut()
            .enumerate()
            .map(|(index, tree)| {
                Run {
                    board,
                    root: state,
                    config: &config,
                    seed,
                    tree_index: index as u64,
                    deadline,
                    cancel,
                }
                .grow(tree)
            })
            .collect::<Result<_>>()?;
        self.last_iterations = iterations.iter().sum();
        let visits = self.root_visits();
        let legal = state.legal_mask(board);
        let mut best: Option<(u64, usize)> = None;
        for colour in (0..board.colour_count()).filter(|&c| legal & (1 << c) != 0) {
            if best.is_none_or(|(most, _)| visits[colour] > most) {
                best = Some((visits[colour], colour));
            }
        }
        best.map(|(_, colour)| colour)
            .ok_or_else(|| param("the game is over: there is no move to choose"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Mode;
    use stratagem_core::parallel;

    /// A path 0 - 1 - ... - 6 coloured so that player 0's colour 1 takes cells 1..=3 and wins.
    fn path_board() -> Result<Board> {
        crate::board::tests::path_board(&[0, 1, 1, 1, 2, 3, 4], 5, Mode::Flood)
    }

    /// A fresh search's choice, root visits and iterations from the start of `board`, on 1 and
    /// on 2 threads.
    fn on_one_and_two_threads(
        board: &Board,
        config: MctsConfig,
    ) -> Result<Vec<(usize, [u64; MAX_COLOURS], u64)>> {
        let state = State::initial(board)?;
        let cancel = Cancel::new();
        let mut runs = Vec::new();
        for threads in [1, 2] {
            let mut mcts = Mcts::new(config, 5);
            let colour =
                parallel::pool(threads)?.install(|| mcts.choose(board, &state, &[], &cancel))?;
            runs.push((colour, mcts.root_visits(), mcts.last_iterations()));
        }
        Ok(runs)
    }

    #[test]
    fn finds_the_winning_move_the_same_way_on_any_thread_count() -> Result<()> {
        let config = MctsConfig::new(Budget::Iterations(200), 1.0, 2, 3, true)?;
        let runs = on_one_and_two_threads(&path_board()?, config)?;
        assert_eq!(runs[0].0, 1);
        assert_eq!(runs[0].2, 0, "a decisive move needs no search");
        assert_eq!(runs[0], runs[1]);
        Ok(())
    }

    #[test]
    fn searches_the_same_way_on_any_thread_count() -> Result<()> {
        let board = slow_path_board()?;
        assert_eq!(decisive_move(&board, &State::initial(&board)?), None);
        let config = MctsConfig::new(Budget::Iterations(200), 0.5, 2, 3, true)?;
        let runs = on_one_and_two_threads(&board, config)?;
        assert_eq!(runs[0].2, 600);
        assert_eq!(runs[0], runs[1]);
        Ok(())
    }

    /// A path 0 | 1 2 1 2 3 4 1 2 | 5 where no colour wins at once.
    fn slow_path_board() -> Result<Board> {
        crate::board::tests::path_board(&[0, 1, 2, 1, 2, 3, 4, 1, 2, 5], 6, Mode::Flood)
    }

    /// A path 0 4 0 2 4 5 2 4 5 4 on which either player, moving next, has a line that wins
    /// against greedy replies, and no colour wins at once.
    fn plan_board() -> Result<Board> {
        crate::board::tests::path_board(&[0, 4, 0, 2, 4, 5, 2, 4, 5, 4], 6, Mode::Flood)
    }

    #[test]
    fn a_winning_line_wins_against_greedy_replies() -> Result<()> {
        let board = plan_board()?;
        let mut state = State::initial(&board)?;
        let line = winning_line(&board, &state, 50, &Cancel::new())?
            .ok_or_else(|| param("player 0 wins this board"))?;
        for &colour in &line {
            if state.to_move() == 1 {
                assert_eq!(usize::from(colour), state.greedy_colour(&board));
            }
            state.play(&board, i64::from(colour))?;
        }
        assert_eq!(state.outcome(), Outcome::Won(0));
        let start = State::initial(&board)?;
        assert_eq!(winning_line(&board, &start, 0, &Cancel::new())?, None);
        Ok(())
    }

    #[test]
    fn plans_only_against_an_opponent_that_played_greedily() -> Result<()> {
        let board = plan_board()?;
        let start = State::initial(&board)?;
        let greedy = start.greedy_colour(&board) as u8;
        let other = (0..board.colour_count() as u8)
            .find(|&c| c != greedy && start.legal_mask(&board) & (1 << c) != 0)
            .ok_or_else(|| param("another legal colour"))?;
        assert!(!opponents_played_greedy(&board, 0, &[])?);
        assert!(opponents_played_greedy(&board, 1, &[greedy])?);
        assert!(!opponents_played_greedy(&board, 1, &[other])?);
        let cancel = Cancel::new();
        let config = MctsConfig::new(Budget::Iterations(30), 0.5, 1, 1, true)?;
        for (first, width, planned) in [(greedy, 50, true), (greedy, 0, false), (other, 50, false)]
        {
            let mut state = start.clone();
            state.play(&board, i64::from(first))?;
            let mut mcts = Mcts::new(config.with_plan_width(width)?, 3);
            let colour = mcts.choose(&board, &state, &[first], &cancel)?;
            assert_eq!(decisive_move(&board, &state), None);
            assert_eq!(mcts.last_iterations() == 0, planned, "{first} {width}");
            if planned {
                let line =
                    winning_line(&board, &state, 50, &cancel)?.ok_or_else(|| param("a plan"))?;
                assert_eq!(colour, usize::from(line[0]));
                // The line is followed while the opponent keeps to it, without a search.
                let mut history = vec![first];
                for &step in &line[..2] {
                    state.play(&board, i64::from(step))?;
                    history.push(step);
                }
                if !state.is_over() {
                    assert_eq!(
                        mcts.choose(&board, &state, &history, &cancel)?,
                        usize::from(line[2])
                    );
                    assert_eq!(mcts.last_iterations(), 0);
                }
            }
        }
        assert!(config.with_plan_width(MAX_PLAN_WIDTH + 1).is_err());
        Ok(())
    }

    #[test]
    fn reuse_keeps_the_subtree_of_the_moves_played() -> Result<()> {
        let board = slow_path_board()?;
        let mut state = State::initial(&board)?;
        let config = MctsConfig::new(Budget::Iterations(50), 1.0, 1, 1, true)?;
        let cancel = Cancel::new();
        let mut mcts = Mcts::new(config, 1);
        mcts.choose(&board, &state, &[], &cancel)?;
        let before: u64 = mcts.root_visits().iter().sum();
        assert_eq!(before, 50);
        state.play(&board, 2)?;
        let kept = mcts.trees[0]
            .descendant(&[2])
            .map(|node| mcts.trees[0].nodes[node].visits);
        mcts.choose(&board, &state, &[2], &cancel)?;
        assert_eq!(mcts.trees[0].nodes[0].visits, kept.unwrap_or(0) + 50);
        Ok(())
    }
}
