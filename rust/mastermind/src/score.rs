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
            .par_chunks(spots)
            .with_min_len(4096)
            .position_first(|row| row.iter().any(|&c| usize::from(c) >= space.colours));
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
    parallel::pool(threads)?.install(|| {
        check(guesses, "guesses")?;
        check(secrets, "secrets")?;
        cancel.check()?;
        let counted = |flat: &[u8], i: usize| {
            let row = if flat.len() == spots { 0 } else { i };
            let mut code = [PAD; MAX_SPOTS];
            code[..spots].copy_from_slice(&flat[row * spots..(row + 1) * spots]);
            Counted::new(&code)
        };
        let scores: Vec<Feedback> = (0..n)
            .into_par_iter()
            .with_min_len(4096)
            .map(|i| score_counted(space, &counted(guesses, i), &counted(secrets, i)))
            .collect();
        Ok(scores.iter().map(|f| (f.black, f.white)).unzip())
    })
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
}
