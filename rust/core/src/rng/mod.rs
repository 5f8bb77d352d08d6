//! The one random number generator of stratagem (the determinism contract).
//!
//! Every random draw is a pure function of `(seed, purpose, ids..., index)`: a [`Stream`] is
//! named by the seed, a purpose string and up to [`MAX_IDS`] integer ids; its blocks are
//! Philox4x64-10 outputs addressed by a 64-bit block index. `docs/determinism.md` gives the
//! key/counter layout; `python/stratagem/rng/oracle.py` is the same code in plain Python.

mod binomial;
mod detmath;
mod philox;
mod stream;

pub use binomial::{BINOMIAL_POPCOUNT_LIMIT, BTRS_CHUNK};
pub use detmath::det_ln;
pub use philox::philox4x64_10;
pub use stream::{Cursor, Halves, MAX_IDS, Stream, heads_in_coin_flips, purpose_tag};
