//! The game-playing agents (docs/annexation-rules.md, "AIs"): random, greedy, fractal,
//! minimax with alpha-beta, and UCT search ([`crate::mcts`]).

use stratagem_core::rng::{Halves, Stream, purpose_tag};
use stratagem_core::{Cancel, Result};

use crate::board::Board;
use crate::mcts::{Mcts, MctsConfig};
use crate::purpose;
use crate::state::{Outcome, State, nth_colour};

/// The value of a won game in minimax, above any margin.
pub const WIN: i64 = 1_000_000_000;
const INF: i64 = 1 << 62;

stratagem_core::named_enum! {
    /// What minimax scores at its depth limit.
    pub enum Heuristic: must_be("heuristic") {
        /// The root player's margin in cells.
        Cells = "cells",
        /// The margin in cells plus reach (cells each player could take next move).
        Reach = "reach",
    }
}

/// The names of the agents: the stateless ones, then UCT search.
pub const AI_NAMES: [&str; 5] = ["random", "greedy", "fractal", "minimax", "mcts"];

/// The agents that keep nothing between moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stateless {
    Random,
    Greedy,
    Fractal,
    Minimax { depth: u32, heuristic: Heuristic },
}

/// An agent's settings; [`AiSpec::spawn`] makes a fresh player with a seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AiSpec {
    Stateless(Stateless),
    Mcts(MctsConfig),
}

impl AiSpec {
    pub fn spawn(self, seed: u64) -> Agent {
        match self {
            Self::Stateless(kind) => Agent::Stateless { kind, seed },
            Self::Mcts(config) => Agent::Mcts(Box::new(Mcts::new(config, seed))),
        }
    }
}

/// A player: stateless agents and MCTS (which keeps its trees between moves).
#[derive(Clone, Debug)]
pub enum Agent {
    Stateless { kind: Stateless, seed: u64 },
    Mcts(Box<Mcts>),
}

impl Agent {
    /// The colour this agent plays in `state` (not over), whose move history is `history`.
    pub fn choose(
        &mut self,
        board: &Board,
        state: &State,
        history: &[u8],
        cancel: &Cancel,
    ) -> Result<usize> {
        if state.is_over() {
            return Err(stratagem_core::Error::InvalidMove(
                "the game is over: there is no move to choose".into(),
            ));
        }
        Ok(match self {
            Self::Stateless { kind, seed } => match *kind {
                Stateless::Random => choose_random(board, state, *seed),
                Stateless::Greedy => choose_greedy(board, state),
                Stateless::Fractal => choose_fractal(board, state),
                Stateless::Minimax { depth, heuristic } => {
                    choose_minimax(board, state, depth, heuristic, cancel)?
                }
            },
            Self::Mcts(mcts) => mcts.choose(board, state, history, cancel)?,
        })
    }
}

fn legal_colours(board: &Board, state: &State) -> impl Iterator<Item = usize> {
    let mask = state.legal_mask(board);
    (0..board.colour_count()).filter(move |&c| mask & (1 << c) != 0)
}

fn child(board: &Board, state: &State, colour: usize) -> State {
    let mut next = state.clone();
    next.play_unchecked(board, colour);
    next
}

pub fn choose_random(board: &Board, state: &State, seed: u64) -> usize {
    let legal = state.legal_mask(board);
    let stream = Stream::with_ids(
        seed,
        purpose_tag(purpose::RANDOM_AI),
        [u64::from(state.moves()), 0, 0],
    );
    nth_colour(
        legal,
        Halves::new(stream.cursor()).below(legal.count_ones()),
    )
}

pub fn choose_greedy(board: &Board, state: &State) -> usize {
    state.greedy_colour(board)
}

/// Among the colours that gain at least one cell, the one after which the player's reach is
/// largest (ties: the larger gain, then the lowest colour); greedy when no colour gains, since
/// reach alone rewards annexing nothing.
pub fn choose_fractal(board: &Board, state: &State) -> usize {
    let q = state.to_move();
    let mut best: Option<((u32, u32), usize)> = None;
    for c in legal_colours(board, state) {
        let gain = state.gain(board, q, c);
        if gain == 0 {
            continue;
        }
        let reach = child(board, state, c).reach(board, q);
        if best.is_none_or(|(key, _)| (reach, gain) > key) {
            best = Some(((reach, gain), c));
        }
    }
    best.map_or_else(|| choose_greedy(board, state), |(_, c)| c)
}

fn value(board: &Board, state: &State, root: usize, heuristic: Heuristic) -> i64 {
    let margin = state.margin(root);
    match state.outcome() {
        // A win is worth less the later it comes, a loss less bad: among won lines the
        // search takes the quickest, instead of putting off a win it cannot lose.
        Outcome::Won(q) if usize::from(q) == root => WIN + margin - i64::from(state.moves()),
        Outcome::Won(_) => -WIN + margin + i64::from(state.moves()),
        Outcome::Drawn => margin,
        Outcome::Ongoing => match heuristic {
            Heuristic::Cells => margin,
            Heuristic::Reach => {
                let h = |s: usize| i64::from(state.scores()[s]) + i64::from(state.reach(board, s));
                let best_other = (0..state.players())
                    .filter(|&s| s != root)
                    .map(h)
                    .max()
                    .unwrap_or(0);
                h(root) - best_other
            }
        },
    }
}

struct Search<'a> {
    board: &'a Board,
    root: usize,
    heuristic: Heuristic,
    cancel: &'a Cancel,
    nodes: u64,
}

impl Search<'_> {
    fn search(&mut self, state: &State, depth: u32, mut alpha: i64, mut beta: i64) -> Result<i64> {
        self.nodes += 1;
        if self.nodes % 4096 == 0 {
            self.cancel.check()?;
        }
        if state.is_over() || depth == 0 {
            return Ok(value(self.board, state, self.root, self.heuristic));
        }
        let maximising = state.to_move() == self.root;
        let mut best = if maximising { -INF } else { INF };
        for c in legal_colours(self.board, state) {
            let v = self.search(&child(self.board, state, c), depth - 1, alpha, beta)?;
            if maximising {
                best = best.max(v);
                alpha = alpha.max(best);
            } else {
                best = best.min(v);
                beta = beta.min(best);
            }
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }
}

pub fn choose_minimax(
    board: &Board,
    state: &State,
    depth: u32,
    heuristic: Heuristic,
    cancel: &Cancel,
) -> Result<usize> {
    let mut search = Search {
        board,
        root: state.to_move(),
        heuristic,
        cancel,
        nodes: 0,
    };
    let mut alpha = -INF;
    let mut chosen: Option<(i64, usize)> = None;
    for c in legal_colours(board, state) {
        let v = search.search(&child(board, state, c), depth.saturating_sub(1), alpha, INF)?;
        if chosen.is_none_or(|(best, _)| v > best) {
            chosen = Some((v, c));
        }
        alpha = alpha.max(chosen.map_or(v, |(best, _)| best));
    }
    Ok(chosen.map_or(0, |(_, c)| c))
}
