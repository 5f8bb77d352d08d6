//! Canonical guesses: colours no guess has used yet are interchangeable, so of every renaming
//! of them only the code that brings them in increasing order is worth trying.

use stratagem_core::Result;

use crate::code::{Code, MAX_COLOURS, Space};
use crate::history::History;

/// The colours the guesses of `history` have used, as a bitmask.
pub fn used_colours(history: &History) -> u64 {
    history.guesses.iter().fold(0u64, |mask, guess| {
        history
            .space
            .spots_of(&guess.code)
            .iter()
            .fold(mask, |m, &c| m | 1 << c)
    })
}

/// The candidate guesses after `history`: every code of the space, except that colours no
/// guess has used yet are interchangeable, so only codes that bring them in increasing order
/// (the smallest of each renaming class) are kept. Rank order.
pub fn canonical_guesses(history: &History) -> Result<Vec<Code>> {
    canonical_codes(history.space, used_colours(history))
}

/// [`canonical_guesses`] for the colours in the bitmask `used`.
pub fn canonical_codes(space: Space, used: u64) -> Result<Vec<Code>> {
    space.require_enumerable("scoring every guess")?;
    let used: [bool; MAX_COLOURS] = std::array::from_fn(|c| used >> c & 1 == 1);
    let free: Vec<u8> = (0..space.colours as u8)
        .filter(|&c| !used[usize::from(c)])
        .collect();
    let mut out = Vec::new();
    let mut code = space.code_at(0);
    extend_canonical(space, &free, 0, 0, &mut code, &mut out);
    Ok(out)
}

fn extend_canonical(
    space: Space,
    free: &[u8],
    spot: usize,
    introduced: usize,
    code: &mut Code,
    out: &mut Vec<Code>,
) {
    if spot == space.spots {
        out.push(*code);
        return;
    }
    for colour in 0..space.colours as u8 {
        let introduces = match free.iter().position(|&f| f == colour) {
            None => false,
            Some(index) if index < introduced => false,
            Some(index) if index == introduced => true,
            Some(_) => continue,
        };
        code[spot] = colour;
        let next = introduced + usize::from(introduces);
        extend_canonical(space, free, spot + 1, next, code, out);
    }
}
