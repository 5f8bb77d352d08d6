//! A game: outposts, seasons, moves, supply lines and the history (`docs/outpost-rules.md`,
//! "A turn").
//!
//! A turn runs in three phases so that players outside Rust can answer in between:
//! [`Game::begin_turn`] (the season), [`Game::apply_moves`] (once for all empires, or once per
//! empire with `sequential_moves`) and [`Game::end_turn`] (supply lines, history).
//! [`Game::play_turn`] runs all three when every player is built in. [`Game::abort_turn`] puts
//! a turn that was begun back as it was.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use stratagem_core::error::param;
use stratagem_core::{Cancel, Error, Result};

use crate::control::{ControlWork, tally};
use crate::grid::{CELLS, DIRECTION_NAMES, DIRECTIONS, HOMES, STAY, describe, step};
use crate::players::{self, Builtin, Scratch, View};
use crate::supply::{Reach, cut_off};
use crate::terrain::Terrain;

use crate::params::{EMPIRES, Outpost, Params, SEASON};

/// What a season asks of an empire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Demand {
    Nothing,
    Build,
    Disband,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    Build,
    Disband,
    Illegal,
    Cut,
}

impl EventKind {
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Build => "build",
            EventKind::Disband => "disband",
            EventKind::Illegal => "illegal",
            EventKind::Cut => "cut",
        }
    }
}

/// One line of the game's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub turn: u32,
    pub empire: u8,
    pub kind: EventKind,
    pub outpost: u32,
    pub message: String,
}

/// Land cells, water cells and outposts of each empire after a turn.
pub type Tally = [[u32; 3]; EMPIRES];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    BetweenTurns,
    Moving([bool; EMPIRES]),
}

/// What a begun turn restores if it is aborted.
#[derive(Clone)]
struct TurnStart {
    outposts: Vec<Outpost>,
    next_id: u32,
    control: Vec<i8>,
    log_len: usize,
}

/// Buffers reused from turn to turn; not part of the game's state.
#[derive(Default)]
struct Work {
    control: ControlWork,
    reach: Reach,
    cut: Vec<bool>,
    players: Scratch,
}

pub struct Game {
    terrain: Arc<Terrain>,
    params: Params,
    seed: u64,
    players: [Option<Builtin>; EMPIRES],
    turn: u32,
    outposts: Vec<Outpost>,
    next_id: u32,
    control: Vec<i8>,
    history: Vec<Tally>,
    log: Vec<Event>,
    phase: Phase,
    turn_start: Option<TurnStart>,
    work: Work,
}

impl Clone for Game {
    fn clone(&self) -> Self {
        Self {
            terrain: Arc::clone(&self.terrain),
            params: self.params,
            seed: self.seed,
            players: self.players,
            turn: self.turn,
            outposts: self.outposts.clone(),
            next_id: self.next_id,
            control: self.control.clone(),
            history: self.history.clone(),
            log: self.log.clone(),
            phase: self.phase,
            turn_start: self.turn_start.clone(),
            work: Work::default(),
        }
    }
}

impl Game {
    /// A new game: one outpost per empire on its home (ids 0..3). `players[e]` is `None` when
    /// empire `e` is played from outside (its answers are passed to the phase calls).
    pub fn new(
        terrain: Arc<Terrain>,
        params: Params,
        players: [Option<Builtin>; EMPIRES],
        seed: u64,
    ) -> Self {
        let outposts = (0..EMPIRES)
            .map(|e| Outpost {
                id: e as u32,
                empire: e as u8,
                cell: HOMES[e],
            })
            .collect();
        let mut game = Self {
            terrain,
            params,
            seed,
            players,
            turn: 0,
            outposts,
            next_id: EMPIRES as u32,
            control: vec![0; CELLS],
            history: Vec::new(),
            log: Vec::new(),
            phase: Phase::BetweenTurns,
            turn_start: None,
            work: Work::default(),
        };
        game.recompute_control();
        game.history.push(game.tally());
        game
    }

    /// A game restored between turns (a saved game). Everything is checked: outposts on land,
    /// ids increasing and below `next_id`, a history row per turn ending with the tally of the
    /// restored position.
    #[allow(clippy::too_many_arguments)]
    pub fn restore(
        terrain: Arc<Terrain>,
        params: Params,
        players: [Option<Builtin>; EMPIRES],
        seed: u64,
        turn: u32,
        outposts: Vec<Outpost>,
        next_id: u32,
        history: Vec<Tally>,
    ) -> Result<Self> {
        if turn > params.last_turn() {
            return Err(Error::InconsistentInput(format!(
                "turn {turn} is past the game's last turn {}",
                params.last_turn()
            )));
        }
        let mut previous: Option<u32> = None;
        for outpost in &outposts {
            let described = format!("outpost {} at {}", outpost.id, describe(outpost.cell));
            if usize::from(outpost.empire) >= EMPIRES || usize::from(outpost.cell) >= CELLS {
                return Err(Error::InconsistentInput(format!(
                    "outpost {} has empire {} and cell {}; empires are 0..3 and cells 0..9999",
                    outpost.id, outpost.empire, outpost.cell
                )));
            }
            if terrain.is_water(usize::from(outpost.cell)) {
                return Err(Error::InconsistentInput(format!("{described} is on water")));
            }
            if previous.is_some_and(|p| p >= outpost.id) || outpost.id >= next_id {
                return Err(Error::InconsistentInput(format!(
                    "{described}: ids must increase and stay below the next id {next_id}"
                )));
            }
            previous = Some(outpost.id);
        }
        if history.len() != turn as usize + 1 {
            return Err(Error::InconsistentInput(format!(
                "the history has {} rows; a game at turn {turn} has {}",
                history.len(),
                turn + 1
            )));
        }
        let mut game = Self {
            terrain,
            params,
            seed,
            players,
            turn,
            outposts,
            next_id,
            control: vec![0; CELLS],
            history,
            log: Vec::new(),
            phase: Phase::BetweenTurns,
            turn_start: None,
            work: Work::default(),
        };
        game.recompute_control();
        if game.history.last() != Some(&game.tally()) {
            return Err(Error::InconsistentInput(format!(
                "the last history row does not match the outposts of turn {turn}"
            )));
        }
        Ok(game)
    }

    pub fn terrain(&self) -> &Arc<Terrain> {
        &self.terrain
    }
    pub fn params(&self) -> &Params {
        &self.params
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn players(&self) -> &[Option<Builtin>; EMPIRES] {
        &self.players
    }

    /// Seats other players from the next turn on. Built-in players keep nothing between
    /// turns (their draws are named by the seed, the turn and the empire), so the game goes
    /// on as a game started with these players would from this state.
    pub fn set_players(&mut self, players: [Option<Builtin>; EMPIRES]) -> Result<()> {
        if self.in_turn() {
            return Err(param("players can change only between turns"));
        }
        self.players = players;
        Ok(())
    }
    pub fn turn(&self) -> u32 {
        self.turn
    }
    pub fn outposts(&self) -> &[Outpost] {
        &self.outposts
    }
    pub fn next_id(&self) -> u32 {
        self.next_id
    }
    pub fn control(&self) -> &[i8] {
        &self.control
    }
    pub fn history(&self) -> &[Tally] {
        &self.history
    }
    pub fn finished(&self) -> bool {
        self.turn >= self.params.last_turn() && self.phase == Phase::BetweenTurns
    }
    /// Whether a turn has begun and not ended.
    pub fn in_turn(&self) -> bool {
        self.phase != Phase::BetweenTurns
    }
    /// Which empires have moved in the current turn.
    pub fn moved(&self) -> [bool; EMPIRES] {
        match self.phase {
            Phase::BetweenTurns => [false; EMPIRES],
            Phase::Moving(moved) => moved,
        }
    }

    /// Empties the log, returning what it held.
    pub fn take_log(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.log)
    }

    /// Cells each empire controls (land + water).
    pub fn scores(&self) -> [u32; EMPIRES] {
        let counts = tally(&self.terrain, &self.control);
        counts.map(|[land, water]| land + water)
    }

    fn tally(&self) -> Tally {
        let counts = tally(&self.terrain, &self.control);
        let mut row = [[0u32; 3]; EMPIRES];
        for (e, slot) in row.iter_mut().enumerate() {
            *slot = [counts[e][0], counts[e][1], self.outposts_of(e as u8) as u32];
        }
        row
    }

    fn outposts_of(&self, empire: u8) -> usize {
        self.outposts.iter().filter(|o| o.empire == empire).count()
    }

    fn recompute_control(&mut self) {
        let Self {
            outposts,
            control,
            work,
            params,
            ..
        } = self;
        work.control.compute(outposts, params.r, control);
    }

    /// The view a player of turn `turn` sees, and the players' buffers.
    fn view(&mut self, turn: u32) -> (View<'_>, &mut Scratch) {
        let view = View {
            terrain: &self.terrain,
            outposts: &self.outposts,
            control: &self.control,
            params: &self.params,
            seed: self.seed,
            turn,
        };
        (view, &mut self.work.players)
    }

    /// What the season of the next turn asks of each empire (all `Nothing` off season).
    pub fn season_demands(&self) -> [Demand; EMPIRES] {
        let mut demands = [Demand::Nothing; EMPIRES];
        let next = self.turn + 1;
        if self.in_turn() || self.finished() || next % SEASON != 0 {
            return demands;
        }
        let Some(last) = self.history.last() else {
            return demands;
        };
        for (e, demand) in demands.iter_mut().enumerate() {
            let [land, water, count] = last[e];
            let afford = 1 + (land / self.params.land).min(water / self.params.water);
            *demand = match count.cmp(&afford) {
                std::cmp::Ordering::Less => Demand::Build,
                std::cmp::Ordering::Greater => Demand::Disband,
                std::cmp::Ordering::Equal => Demand::Nothing,
            };
        }
        demands
    }

    /// Starts the next turn and plays its season. `disbands[e]` answers for an outside player
    /// asked to disband (`None`: its outpost with the largest id goes); built-in players choose
    /// here. Nothing changes when an answer is refused.
    pub fn begin_turn(&mut self, disbands: &[Option<u32>; EMPIRES]) -> Result<()> {
        if self.in_turn() {
            return Err(param("a turn is already in progress; end it first"));
        }
        if self.finished() {
            return Err(param(format!(
                "the game is over: it ended after turn {}",
                self.params.last_turn()
            )));
        }
        let demands = self.season_demands();
        let mut chosen: [Option<u32>; EMPIRES] = [None; EMPIRES];
        for e in 0..EMPIRES {
            let empire = e as u8;
            if demands[e] != Demand::Disband {
                if disbands[e].is_some() {
                    return Err(param(format!(
                        "empire {e} has nothing to disband on turn {}",
                        self.turn + 1
                    )));
                }
                continue;
            }
            chosen[e] = Some(match (self.players[e], disbands[e]) {
                (Some(kind), None) => {
                    let (view, scratch) = self.view(self.turn + 1);
                    players::disband(kind, &view, empire, scratch)
                }
                (Some(kind), Some(_)) => {
                    return Err(param(format!(
                        "empire {e} is played by the built-in player {}, which chooses itself",
                        kind.name()
                    )));
                }
                (None, Some(id)) => {
                    if !self
                        .outposts
                        .iter()
                        .any(|o| o.id == id && o.empire == empire)
                    {
                        return Err(Error::InvalidMove(format!(
                            "empire {e} has no outpost {id} to disband"
                        )));
                    }
                    id
                }
                (None, None) => self
                    .outposts
                    .iter()
                    .rev()
                    .find(|o| o.empire == empire)
                    .map_or(0, |o| o.id),
            });
        }
        self.turn_start = Some(TurnStart {
            outposts: self.outposts.clone(),
            next_id: self.next_id,
            control: self.control.clone(),
            log_len: self.log.len(),
        });
        self.turn += 1;
        let turn = self.turn;
        let mut changed = false;
        for (e, demand) in demands.iter().enumerate() {
            let empire = e as u8;
            match demand {
                Demand::Nothing => {}
                Demand::Build => {
                    let id = self.next_id;
                    self.next_id += 1;
                    self.outposts.push(Outpost {
                        id,
                        empire,
                        cell: HOMES[e],
                    });
                    self.log.push(Event {
                        turn,
                        empire,
                        kind: EventKind::Build,
                        outpost: id,
                        message: format!("built outpost {id} at home {}", describe(HOMES[e])),
                    });
                    changed = true;
                }
                Demand::Disband => {
                    let Some(id) = chosen[e] else { continue };
                    if let Some(index) = self.outposts.iter().position(|o| o.id == id) {
                        let gone = self.outposts.remove(index);
                        self.log.push(Event {
                            turn,
                            empire,
                            kind: EventKind::Disband,
                            outpost: id,
                            message: format!("disbanded outpost {id} at {}", describe(gone.cell)),
                        });
                        changed = true;
                    }
                }
            }
        }
        if changed {
            self.recompute_control();
        }
        self.phase = Phase::Moving([false; EMPIRES]);
        Ok(())
    }

    /// Moves `empires` (all four at once by default; one at a time, in order, with
    /// `sequential_moves`). Built-in players choose here, all from the same state; `answers[e]`
    /// holds an outside player's directions, one per outpost in id order (`None`: all stay).
    pub fn apply_moves(
        &mut self,
        empires: &[u8],
        answers: &[Option<Vec<u8>>; EMPIRES],
    ) -> Result<()> {
        let Phase::Moving(mut moved) = self.phase else {
            return Err(param("no turn in progress: begin a turn before moving"));
        };
        let expected: Vec<u8> = if self.params.flags.sequential_moves {
            (0..EMPIRES as u8)
                .find(|&e| !moved[usize::from(e)])
                .into_iter()
                .collect()
        } else if moved == [false; EMPIRES] {
            (0..EMPIRES as u8).collect()
        } else {
            Vec::new()
        };
        if empires != expected.as_slice() {
            return Err(param(format!(
                "empires {empires:?} cannot move now; expected {expected:?}"
            )));
        }
        for &empire in empires {
            let e = usize::from(empire);
            match (self.players[e], &answers[e]) {
                (Some(kind), Some(_)) => {
                    return Err(param(format!(
                        "empire {e} is played by the built-in player {}, which chooses itself",
                        kind.name()
                    )));
                }
                (None, Some(directions)) => {
                    let count = self.outposts_of(empire);
                    if directions.len() != count {
                        return Err(Error::InvalidMove(format!(
                            "empire {e} gave {} directions for its {count} outposts",
                            directions.len()
                        )));
                    }
                    if let Some(i) = directions.iter().position(|&d| d >= DIRECTIONS) {
                        return Err(Error::InvalidMove(format!(
                            "empire {e}: direction {} for its outpost number {i} is not 0..4",
                            directions[i]
                        )));
                    }
                }
                _ => {}
            }
        }
        let mut plans: Vec<(u8, Vec<u8>)> = Vec::with_capacity(empires.len());
        for &empire in empires {
            let e = usize::from(empire);
            let directions = match (self.players[e], &answers[e]) {
                (Some(kind), _) => {
                    let (view, scratch) = self.view(self.turn);
                    players::moves(kind, &view, empire, scratch)
                }
                (None, Some(directions)) => directions.clone(),
                (None, None) => vec![STAY; self.outposts_of(empire)],
            };
            plans.push((empire, directions));
        }
        for (empire, directions) in plans {
            let turn = self.turn;
            let mut own = self.outposts.iter_mut().filter(|o| o.empire == empire);
            for &direction in &directions {
                let Some(outpost) = own.next() else { break };
                if direction == STAY {
                    continue;
                }
                match self.terrain.destination(outpost.cell, direction) {
                    Some(to) => outpost.cell = to,
                    None => {
                        let reason = if step(outpost.cell, direction).is_some() {
                            "onto water"
                        } else {
                            "off the grid"
                        };
                        self.log.push(Event {
                            turn,
                            empire,
                            kind: EventKind::Illegal,
                            outpost: outpost.id,
                            message: format!(
                                "outpost {} at {} cannot move {} {reason}",
                                outpost.id,
                                describe(outpost.cell),
                                DIRECTION_NAMES[usize::from(direction)]
                            ),
                        });
                    }
                }
            }
            moved[usize::from(empire)] = true;
        }
        self.recompute_control();
        self.phase = Phase::Moving(moved);
        Ok(())
    }

    /// Ends the turn: cut-off outposts removed, control recomputed, the history row written.
    pub fn end_turn(&mut self) -> Result<()> {
        match self.phase {
            Phase::Moving(moved) if moved == [true; EMPIRES] => {}
            _ => return Err(param("the turn cannot end before every empire has moved")),
        }
        let removed = {
            let Self {
                terrain,
                outposts,
                control,
                work,
                params,
                ..
            } = self;
            cut_off(
                terrain,
                control,
                outposts,
                params.flags.supply_fringe,
                &mut work.reach,
                &mut work.cut,
            )
        };
        if removed > 0 {
            let turn = self.turn;
            for (outpost, &cut) in self.outposts.iter().zip(&self.work.cut) {
                if cut {
                    self.log.push(Event {
                        turn,
                        empire: outpost.empire,
                        kind: EventKind::Cut,
                        outpost: outpost.id,
                        message: format!(
                            "outpost {} at {} cut off from home",
                            outpost.id,
                            describe(outpost.cell)
                        ),
                    });
                }
            }
            let mut flags = self.work.cut.iter();
            self.outposts
                .retain(|_| !flags.next().copied().unwrap_or(false));
            self.recompute_control();
        }
        let row = self.tally();
        self.history.push(row);
        self.phase = Phase::BetweenTurns;
        self.turn_start = None;
        Ok(())
    }

    /// Puts a begun turn back as it was before [`Game::begin_turn`].
    pub fn abort_turn(&mut self) {
        if let Some(start) = self.turn_start.take() {
            self.outposts = start.outposts;
            self.next_id = start.next_id;
            self.control = start.control;
            self.log.truncate(start.log_len);
            self.turn -= 1;
            self.phase = Phase::BetweenTurns;
        }
    }

    /// One whole turn with every player built in.
    pub fn play_turn(&mut self) -> Result<()> {
        if let Some(e) = self.players.iter().position(Option::is_none) {
            return Err(param(format!(
                "empire {e} is played from outside; play its turns phase by phase"
            )));
        }
        const NO_ANSWERS: [Option<Vec<u8>>; EMPIRES] = [None, None, None, None];
        self.begin_turn(&[None; EMPIRES])?;
        if self.params.flags.sequential_moves {
            for empire in 0..EMPIRES as u8 {
                self.apply_moves(&[empire], &NO_ANSWERS)?;
            }
        } else {
            self.apply_moves(&[0, 1, 2, 3], &NO_ANSWERS)?;
        }
        self.end_turn()
    }

    /// Plays up to `turns` turns (to the end of the game at most), counting them in `done`.
    /// Stops between turns when cancelled, the game intact.
    pub fn run(&mut self, turns: u32, cancel: &Cancel, done: &AtomicU64) -> Result<u32> {
        let mut played = 0;
        while played < turns && !self.finished() {
            cancel.check()?;
            self.play_turn()?;
            played += 1;
            done.fetch_add(1, Ordering::Relaxed);
        }
        Ok(played)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Flags;

    fn open_game(players: [Option<Builtin>; EMPIRES], turns: u32) -> Game {
        let terrain = Arc::new(Terrain::new(&vec![false; CELLS]).unwrap_or_else(|e| panic!("{e}")));
        let params =
            Params::new(3, 4, 1, turns, Flags::default()).unwrap_or_else(|e| panic!("{e}"));
        Game::new(terrain, params, players, 7)
    }

    fn state(game: &Game) -> (u32, Vec<Outpost>, u32, Vec<i8>, usize) {
        (
            game.turn(),
            game.outposts().to_vec(),
            game.next_id(),
            game.control().to_vec(),
            game.history().len(),
        )
    }

    #[test]
    fn an_aborted_turn_leaves_the_game_as_it_was() {
        let all = [Some(Builtin::Spread); EMPIRES];
        let mut game = open_game(
            [None, Some(Builtin::Frontier), None, Some(Builtin::Random)],
            30,
        );
        let mut reference = open_game(all, 30);
        for _ in 0..9 {
            game.begin_turn(&[None; EMPIRES])
                .unwrap_or_else(|e| panic!("{e}"));
            game.apply_moves(&[0, 1, 2, 3], &[None, None, None, None])
                .unwrap_or_else(|e| panic!("{e}"));
            game.end_turn().unwrap_or_else(|e| panic!("{e}"));
            reference.play_turn().unwrap_or_else(|e| panic!("{e}"));
        }
        let before = state(&game);
        // Turn 10 is a season: builds happen in begin_turn, then the turn is abandoned.
        game.begin_turn(&[None; EMPIRES])
            .unwrap_or_else(|e| panic!("{e}"));
        game.apply_moves(&[0, 1, 2, 3], &[Some(vec![2; 2]), None, None, None])
            .ok();
        game.abort_turn();
        assert_eq!(state(&game), before);
        assert!(!game.in_turn());
    }

    #[test]
    fn phases_are_refused_out_of_order() {
        let mut game = open_game([None; EMPIRES], 2);
        assert!(game.end_turn().is_err());
        assert!(
            game.apply_moves(&[0, 1, 2, 3], &[None, None, None, None])
                .is_err()
        );
        game.begin_turn(&[None; EMPIRES])
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(game.begin_turn(&[None; EMPIRES]).is_err());
        let Err(Error::InvalidMove(message)) =
            game.apply_moves(&[0, 1, 2, 3], &[Some(vec![9]), None, None, None])
        else {
            panic!("a direction of 9 was accepted");
        };
        assert!(message.contains("direction 9"), "{message}");
        assert!(
            game.play_turn().is_err(),
            "outside players cannot be played by play_turn"
        );
    }

    #[test]
    fn a_restored_game_continues_exactly() {
        let players = [
            Some(Builtin::Spread),
            Some(Builtin::Frontier),
            Some(Builtin::Random),
            Some(Builtin::Lookahead),
        ];
        let mut whole = open_game(players, 40);
        let mut first = open_game(players, 40);
        let cancel = Cancel::new();
        let done = AtomicU64::new(0);
        first
            .run(17, &cancel, &done)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut second = Game::restore(
            Arc::clone(first.terrain()),
            *first.params(),
            players,
            first.seed(),
            first.turn(),
            first.outposts().to_vec(),
            first.next_id(),
            first.history().to_vec(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        whole
            .run(40, &cancel, &done)
            .unwrap_or_else(|e| panic!("{e}"));
        second
            .run(40, &cancel, &done)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(state(&whole), state(&second));
        assert_eq!(whole.history(), second.history());
    }

    #[test]
    fn restore_refuses_inconsistent_parts() {
        let game = open_game([Some(Builtin::Random); EMPIRES], 5);
        let restore = |outposts: Vec<Outpost>, next_id: u32, history: Vec<Tally>| {
            Game::restore(
                Arc::clone(game.terrain()),
                *game.params(),
                *game.players(),
                0,
                0,
                outposts,
                next_id,
                history,
            )
        };
        let outposts = game.outposts().to_vec();
        let history = game.history().to_vec();
        assert!(restore(outposts.clone(), 4, history.clone()).is_ok());
        let mut swapped = outposts.clone();
        swapped.swap(0, 1);
        assert!(
            restore(swapped, 4, history.clone()).is_err(),
            "ids out of order"
        );
        assert!(
            restore(outposts.clone(), 3, history.clone()).is_err(),
            "id above next id"
        );
        let mut wrong = history.clone();
        wrong[0][0][0] += 1;
        assert!(
            restore(outposts, 4, wrong).is_err(),
            "history row off by one cell"
        );
    }
}
