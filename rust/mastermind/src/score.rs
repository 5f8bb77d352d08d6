//! Black/white feedback.
//!
//! `black` = spots where guess and secret agree; `white` = sum over colours of
//! min(count in guess, count in secret), minus `black`. Both are computed with fixed-length
//! loops (16 spots, 48 colour lanes) that the compiler turns into a few vector instructions.

use rayon::prelude::*;
use stratagem_core::error::{Result, param};
use stratagem_core::{Cancel, parallel};

use crate::code::{Code, MAX_COLOURS, MAX_SPOTS, PAD, Space};

/// Colour counts, padded to a multiple of 16 lanes.
pub const COUNT_LANES: usize = 48;
const _: () = assert!(COUNT_LANES >= MAX_COLOURS);

/// How many times each colour occurs in a code.
pub type Counts = [u8; COUNT_LANES];

/// The codemaker's answer to a guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Feedback {
    pub black: u8,
    pub white: u8,
}

impl Feedback {
    /// The dense index `black * (spots + 1) + white`, below [`feedback_slots`].
    #[inline]
    pub fn index(self, spots: usize) -> usize {
        usize::from(self.black) * (spots + 1) + usize::from(self.white)
    }

    /// The feedback that ends the game.
    pub fn win(spots: usize) -> Self {
        Self {
            black: spots as u8,
            white: 0,
        }
    }
}

impl std::fmt::Display for Feedback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} black {} white", self.black, self.white)
    }
}

/// The number of dense feedback indices for `spots` spots.
pub fn feedback_slots(spots: usize) -> usize {
    (spots + 1) * (spots + 1)
}

/// Colour counts of a code (pad spots are not counted).
#[inline]
pub fn colour_counts(code: &Code) -> Counts {
    let mut counts = [0u8; COUNT_LANES];
    for &colour in code.iter().filter(|&&colour| colour != PAD) {
        counts[usize::from(colour) % COUNT_LANES] += 1;
    }
    counts
}

/// Spots where two codes agree (pad spots agree in every pair and are subtracted).
#[inline]
pub fn blacks(space: Space, a: &Code, b: &Code) -> u8 {
    let equal = a.iter().zip(b.iter()).filter(|(x, y)| x == y).count();
    (equal - (MAX_SPOTS - space.spots)) as u8
}

/// Sum over colours of min(count in a, count in b): black + white.
#[inline]
pub fn colour_matches(a: &Counts, b: &Counts) -> u8 {
    a.iter()
        .zip(b.iter())
        .map(|(&x, &y)| x.min(y))
        .fold(0u8, u8::wrapping_add)
}

/// The feedback of `guess` against `secret`.
pub fn score(space: Space, guess: &Code, secret: &Code) -> Feedback {
    score_counted(space, &Counted::new(guess), &Counted::new(secret))
}

/// A code with its colour counts, for scoring one code against many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    pub code: Code,
    pub counts: Counts,
}

impl Counted {
    pub fn new(code: &Code) -> Self {
        Self {
            code: *code,
            counts: colour_counts(code),
        }
    }
}

/// [`score`] on codes whose counts are already known.
#[inline]
pub fn score_counted(space: Space, guess: &Counted, secret: &Counted) -> Feedback {
    let black = blacks(space, &guess.code, &secret.code);
    let matched = colour_matches(&guess.counts, &secret.counts);
    Feedback {
        black,
        white: matched - black,
    }
}

/// Black and white of each guess row against the secret row of the same index, rows given
/// flat (`spots` colours each); one row on either side is scored against every row of the
/// other. Rows are checked (and the first bad one named) before anything is scored.
pub fn score_rows(
    space: Space,
    guesses: &[u8],
    secrets: &[u8],
    threads: usize,
    cancel: &Cancel,
) -> Result<(Vec<u8>, Vec<u8>)> {
    let spots = space.spots;
    let (g_rows, s_rows) = (guesses.len() / spots, secrets.len() / spots);
    let n = match (g_rows, s_rows) {
        (a, b) if a == b => a,
        (1, b) => b,
        (a, 1) => a,
        (a, b) => {
            return Err(param(format!(
                "guesses and secrets must have the same number of rows or one row, got {a} and {b}"
            )));
        }
    };
    let check = |flat: &[u8], what: &str| -> Result<()> {
        let bad = flat
            .chunks(spots)
            .position(|row| row.iter().any(|&c| usize::from(c) >= space.colours));
        match bad {
            Some(row) => {
                let error = space.code(&flat[row * spots..(row + 1) * spots]).err();
                Err(param(format!(
                    "{what} row {row}: {}",
                    error.map(|e| e.to_string()).unwrap_or_default()
                )))
            }
            None => Ok(()),
        }
    };
    let mut black = vec![0u8; n];
    let mut white = vec![0u8; n];
    // A single row on either side is scored against every row of the other.
    let row = |flat: &[u8], i: usize| if flat.len() == spots { 0 } else { i };
    let score_block = |start: usize, black: &mut [u8], white: &mut [u8]| {
        for (k, (b, w)) in black.iter_mut().zip(white.iter_mut()).enumerate() {
            let (g, s) = (row(guesses, start + k), row(secrets, start + k));
            (*b, *w) = score_flat(
                &guesses[g * spots..(g + 1) * spots],
                &secrets[s * spots..(s + 1) * spots],
            );
        }
    };
    if n < PARALLEL_ROWS || threads == 1 {
        check(guesses, "guesses")?;
        check(secrets, "secrets")?;
        cancel.check()?;
        score_block(0, &mut black, &mut white);
        return Ok((black, white));
    }
    parallel::pool(threads)?.install(|| {
        check(guesses, "guesses")?;
        check(secrets, "secrets")?;
        cancel.check()?;
        black
            .par_chunks_mut(CHUNK_ROWS)
            .zip(white.par_chunks_mut(CHUNK_ROWS))
            .enumerate()
            .for_each(|(chunk, (b, w))| score_block(chunk * CHUNK_ROWS, b, w));
        Ok((black, white))
    })
}

/// Below this many rows [`score_rows`] scores on the calling thread: in a sweep on 2 cores
/// (`examples/score_bench`, 4x6, least of 20 calls, machine loaded) two threads broke even
/// between 2^15 and 2^16 rows.
pub const PARALLEL_ROWS: usize = 1 << 15;

/// The rows a thread takes at a time.
const CHUNK_ROWS: usize = 4096;

/// Black and white of one guess row against one secret row (at most 16 spots).
#[inline]
fn score_flat(guess: &[u8], secret: &[u8]) -> (u8, u8) {
    match guess.len() {
        0..=4 => score_lanes::<4>(guess, secret),
        5..=8 => score_lanes::<8>(guess, secret),
        _ => score_lanes::<16>(guess, secret),
    }
}

/// [`score_flat`] with both rows padded to `N` lanes by different fillers, so that every
/// count is a fixed-length byte compare (a few vector instructions, no colour table to
/// clear). A colour's k-th occurrence in the guess (k from 0) is matched when the secret
/// holds it more than k times; white is the matches minus black.
#[inline]
fn score_lanes<const N: usize>(guess: &[u8], secret: &[u8]) -> (u8, u8) {
    let g: [u8; N] = std::array::from_fn(|k| guess.get(k).copied().unwrap_or(PAD - 1));
    let s: [u8; N] = std::array::from_fn(|k| secret.get(k).copied().unwrap_or(PAD));
    let black: u8 = g.iter().zip(&s).map(|(a, b)| u8::from(a == b)).sum();
    let mut matched = 0u8;
    // Padding lanes of the guess never occur in the secret: only real spots can match.
    for (i, &colour) in g.iter().enumerate().take(guess.len()) {
        let before: u8 = (0..N).map(|k| u8::from(k < i && g[k] == colour)).sum();
        let in_secret: u8 = s.iter().map(|&c| u8::from(c == colour)).sum();
        matched += u8::from(in_secret > before);
    }
    (black, matched - black)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feedback(space: Space, guess: &[u8], secret: &[u8]) -> Result<(u8, u8)> {
        let f = score(space, &space.code(guess)?, &space.code(secret)?);
        Ok((f.black, f.white))
    }

    #[test]
    fn known_feedbacks() -> Result<()> {
        let space = Space::new(4, 6)?;
        assert_eq!(feedback(space, &[0, 0, 1, 1], &[1, 1, 0, 0])?, (0, 4));
        assert_eq!(feedback(space, &[0, 0, 1, 1], &[0, 1, 2, 3])?, (1, 1));
        assert_eq!(feedback(space, &[2, 1, 0, 0], &[2, 1, 0, 0])?, (4, 0));
        assert_eq!(feedback(space, &[5, 5, 5, 5], &[0, 1, 2, 3])?, (0, 0));
        let wide = Space::new(16, 36)?;
        let a: Vec<u8> = (0..16).map(|i| 35 - i).collect();
        assert_eq!(feedback(wide, &a, &a)?, (16, 0));
        Ok(())
    }

    /// The row scorer of [`score_rows`] agrees with [`score`] on every pair of a small space
    /// and on wide codes with many repeats.
    #[test]
    fn rows_score_like_codes() -> Result<()> {
        let small = Space::new(3, 4)?;
        let codes = small.all_codes()?;
        for g in &codes {
            for s in &codes {
                let f = score(small, g, s);
                assert_eq!(score_flat(&g[..3], &s[..3]), (f.black, f.white));
            }
        }
        let wide = Space::new(16, 36)?;
        let mut state = 7u64;
        for _ in 0..2000 {
            let mut draw = || {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 59) as u8 % 5 * 7
            };
            let (g, s): (Vec<u8>, Vec<u8>) = (0..16).map(|_| (draw(), draw())).unzip();
            let f = score(wide, &wide.code(&g)?, &wide.code(&s)?);
            assert_eq!(score_flat(&g, &s), (f.black, f.white));
        }
        Ok(())
    }
}
