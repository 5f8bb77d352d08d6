//! A game's history: the guesses made and the feedback each one got.

use stratagem_core::error::{Result, param};

use crate::code::{Code, Space};
use crate::score::{Counted, Feedback, score_counted};

/// Checked guesses and feedbacks of one space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    pub space: Space,
    pub guesses: Vec<Counted>,
    pub feedback: Vec<Feedback>,
}

impl History {
    pub fn empty(space: Space) -> Self {
        Self {
            space,
            guesses: Vec::new(),
            feedback: Vec::new(),
        }
    }

    /// A history from flat guess colours (`len * spots`) and (black, white) pairs; names the
    /// first bad guess or feedback. Feedbacks must be in range (black + white <= spots);
    /// in-range feedbacks that no secret can give are left to the consistency checks.
    pub fn new(space: Space, guesses: &[u8], feedback: &[(u8, u8)]) -> Result<Self> {
        if guesses.len() != feedback.len() * space.spots {
            return Err(param(format!(
                "{} feedbacks need {} guesses of {} spots",
                feedback.len(),
                feedback.len(),
                space.spots
            )));
        }
        let mut history = Self::empty(space);
        for (turn, (colours, &(black, white))) in
            guesses.chunks(space.spots).zip(feedback).enumerate()
        {
            let code = space
                .code(colours)
                .map_err(|e| param(format!("guess {turn}: {e}")))?;
            history
                .push(code, Feedback { black, white })
                .map_err(|e| param(format!("feedback {turn}: {e}")))?;
        }
        Ok(history)
    }

    /// Appends a guess and its feedback; the feedback must be in range.
    pub fn push(&mut self, guess: Code, feedback: Feedback) -> Result<()> {
        let spots = self.space.spots;
        if usize::from(feedback.black) + usize::from(feedback.white) > spots {
            return Err(param(format!(
                "{feedback}: black + white must be at most {spots}"
            )));
        }
        self.guesses.push(Counted::new(&guess));
        self.feedback.push(feedback);
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.feedback.len()
    }

    pub fn is_empty(&self) -> bool {
        self.feedback.is_empty()
    }

    /// Whether `code` would have produced every feedback.
    pub fn is_consistent(&self, code: &Counted) -> bool {
        self.guesses
            .iter()
            .zip(&self.feedback)
            .all(|(guess, &feedback)| score_counted(self.space, guess, code) == feedback)
    }

    /// The history restricted to the given entries (in the given order).
    pub fn subset(&self, entries: &[usize]) -> Self {
        Self {
            space: self.space,
            guesses: entries.iter().map(|&i| self.guesses[i]).collect(),
            feedback: entries.iter().map(|&i| self.feedback[i]).collect(),
        }
    }

    /// Whether the last guess was answered with all blacks.
    pub fn is_won(&self) -> bool {
        self.feedback.last() == Some(&Feedback::win(self.space.spots))
    }
}
