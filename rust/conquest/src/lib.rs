//! conquest: the RISK-like war on a graph, as `docs/conquest-rules.md` states it.
//!
//! [`Board`] holds the CSR graph with the reverse of every directed edge and the list of
//! borders; [`Game`] holds the state and plays turns: placement ([`policy`]), battles,
//! occupation and recruitment ([`turn`]). [`odds`] computes exact battle odds; [`many`] plays
//! independent games in parallel; [`part`] is one rank's share of a game spread over MPI
//! ranks, [`share`] cuts its board and [`plan`] lists what it exchanges ([`row_share`] writes
//! the share of a block of whole grid rows, whose distances [`row_block`] finds by passes over
//! them); [`start`] grows the regions a game may start from ([`grid_start`] on a whole grid)
//! and [`attachment`] the preferential-attachment boards; [`plane`] holds a grid's frontier
//! distances in closed form.
//! `python/stratagem/conquest/oracle.py` is the same rules in plain Python.

pub mod attachment;
pub mod board;
pub mod exact;
pub mod game;
pub mod grid_part;
pub mod grid_start;
pub mod many;
pub mod odds;
pub mod part;
pub mod part_share;
pub mod part_start;
pub mod plan;
pub mod plane;
pub mod policy;
pub mod row_block;
pub mod row_share;
pub mod rows;
pub mod search;
pub mod share;
pub mod start;
pub mod turn;

pub use board::Board;
pub use game::{Game, Params, Status};
pub use policy::Policy;

/// The most troops a territory holds; recruitment and occupation clamp here.
pub const TROOP_LIMIT: u64 = 1 << 40;
/// The most territories a board may have: ids are `u32`. (Troops per territory stop below
/// [`TROOP_LIMIT`] on boards of 2^23 territories or more, so that per-team totals stay below
/// 2^63: see [`turn::troop_limit`].)
pub const MAX_TERRITORIES: usize = u32::MAX as usize;
/// The most teams a game may have.
pub const MAX_TEAMS: usize = 64;

/// Purposes of the random streams (docs/conquest-rules.md).
pub mod purpose {
    pub const BATTLE: &str = "conquest.battle";
    pub const TIE: &str = "conquest.tie";
    pub const RANDOM_POLICY: &str = "conquest.random";
    /// The seeds of the futures a `search` player plays out.
    pub const SEARCH: &str = "conquest.search";
    pub const GAMES: &str = "conquest.games";
    /// The coin each territory flips to decide who resolves a border between two ranks.
    pub const FLIP: &str = "conquest.flip";
}
