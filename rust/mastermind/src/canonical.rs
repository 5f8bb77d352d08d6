//! Canonical guesses: colours no guess has used yet are interchangeable, so of every renaming
//! of them only the code that brings them in increasing order is worth trying.

use stratagem_core::Result;

use crate::code::{Code, MAX_COLOURS, MAX_SPOTS, Space};
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

/// A renaming of spots and colours that fixes every guess played so far (so it maps the
/// consistent codes onto themselves and gives every guess the same value as its image):
/// spot `i` of the image of `code` is `colour_to[code[spot_of[i]]]`; colours no guess has
/// used are left alone (they are handled by [`canonical_codes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    spot_of: [u8; MAX_SPOTS],
    colour_to: [u8; MAX_COLOURS],
}

impl Symmetry {
    pub fn apply(&self, space: Space, code: &Code) -> Code {
        let mut image = *code;
        for (slot, &from) in image[..space.spots].iter_mut().zip(&self.spot_of) {
            *slot = self.colour_to[usize::from(code[usize::from(from)])];
        }
        image
    }
}

/// Up to `cap` symmetries that fix each of `played` (the identity first), found spot by
/// spot: a spot permutation fixes the guesses exactly when one colour renaming of the used
/// colours maps each guess, permuted, back onto itself. Any subset of the group is safe to
/// use for pruning guesses (the smallest code of each orbit is always kept); the cap only
/// bounds the work where the group is huge (no guess yet on many spots).
pub fn symmetries(space: Space, played: &[Code], cap: usize) -> Vec<Symmetry> {
    let mut found = Vec::new();
    let mut partial = Symmetry {
        spot_of: [0; MAX_SPOTS],
        colour_to: std::array::from_fn(|c| c as u8),
    };
    let mut mapped = [u8::MAX; MAX_COLOURS];
    let mut taken = [false; MAX_SPOTS];
    extend_symmetry(
        space,
        played,
        cap,
        0,
        &mut partial,
        &mut mapped,
        &mut taken,
        &mut found,
    );
    found
}

/// Backtracking over spot images; `mapped[a]` is the colour `a` is renamed to so far.
#[allow(clippy::too_many_arguments)]
fn extend_symmetry(
    space: Space,
    played: &[Code],
    cap: usize,
    spot: usize,
    partial: &mut Symmetry,
    mapped: &mut [u8; MAX_COLOURS],
    taken: &mut [bool; MAX_SPOTS],
    found: &mut Vec<Symmetry>,
) {
    if found.len() >= cap {
        return;
    }
    if spot == space.spots {
        let mut symmetry = partial.clone();
        for (colour, &to) in mapped.iter().enumerate() {
            if to != u8::MAX {
                symmetry.colour_to[colour] = to;
            }
        }
        found.push(symmetry);
        return;
    }
    for from in 0..space.spots {
        if taken[from] {
            continue;
        }
        // Renaming colour g[from] to g[spot] for every guess g, unless it clashes.
        let before = *mapped;
        let fits = played.iter().all(|guess| {
            let (a, b) = (usize::from(guess[from]), guess[spot]);
            if mapped[a] == u8::MAX {
                if mapped.contains(&b) {
                    return false;
                }
                mapped[a] = b;
            }
            mapped[a] == b
        });
        if fits {
            taken[from] = true;
            partial.spot_of[spot] = from as u8;
            extend_symmetry(space, played, cap, spot + 1, partial, mapped, taken, found);
            taken[from] = false;
        }
        *mapped = before;
    }
}

/// `code` with the colours outside `used` renamed, in order of first appearance, to the
/// unused colours in increasing order (the smallest code of its renaming class).
pub fn rename_free(space: Space, used: u64, code: &Code) -> Code {
    let mut renamed = *code;
    let mut to = [u8::MAX; MAX_COLOURS];
    let mut next = 0u8;
    for slot in renamed[..space.spots].iter_mut() {
        let colour = usize::from(*slot);
        if used >> colour & 1 == 1 {
            continue;
        }
        if to[colour] == u8::MAX {
            while used >> next & 1 == 1 {
                next += 1;
            }
            to[colour] = next;
            next += 1;
        }
        *slot = to[colour];
    }
    renamed
}
