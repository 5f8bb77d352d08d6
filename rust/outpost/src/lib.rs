//! outpost: four empires on a 100x100 land and water grid (seed 002).
//!
//! The rules are `docs/outpost-rules.md`: [`control`] (who holds each cell), [`supply`] (which
//! outposts keep a line home), [`game`] (seasons, moves, a whole game), [`players`] (the
//! built-in players) and [`tournament`] (many games over threads). [`grid`] holds the geometry.

pub mod control;
pub mod cover;
pub mod game;
pub mod grid;
pub mod params;
pub mod players;
pub mod rows;
pub mod supply;
pub mod terrain;
pub mod tournament;

pub use game::{Demand, Event, EventKind, Game};
pub use params::{Flags, Outpost, Params};
pub use players::Builtin;
pub use terrain::Terrain;

/// The tests' random cases: one step of a 64-bit linear congruential generator (Knuth's MMIX
/// constants); returns the new state, whose high bits are the random ones.
#[cfg(test)]
fn lcg(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state
}
