//! Codes and the space they live in.
//!
//! A code is stored as a fixed `[u8; MAX_SPOTS]`; spots past `spots` hold [`PAD`] so that
//! fixed-length loops over all sixteen bytes give the same answer as loops over the real spots.

use stratagem_core::error::{Result, param};

/// The most spots and colours a game may have.
pub const MAX_SPOTS: usize = 16;
pub const MAX_COLOURS: usize = 36;
/// The fewest spots and colours.
pub const MIN_SPOTS: usize = 1;
pub const MIN_COLOURS: usize = 2;

/// The filler of unused spots (never a colour).
pub const PAD: u8 = u8::MAX;

/// A code: one colour per spot, unused spots [`PAD`].
pub type Code = [u8; MAX_SPOTS];

/// Spaces with at most this many codes are "enumerable": strategies that score every code
/// against every candidate, uniform random choice and exact counting by enumeration use them.
pub const ENUMERABLE_LIMIT: u64 = 1 << 21;

/// The game's size: `spots` spots of `colours` colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Space {
    pub spots: usize,
    pub colours: usize,
}

impl Space {
    /// A checked space: 1..=16 spots, 2..=36 colours.
    pub fn new(spots: usize, colours: usize) -> Result<Self> {
        if !(MIN_SPOTS..=MAX_SPOTS).contains(&spots) {
            return Err(param(format!(
                "spots must be between {MIN_SPOTS} and {MAX_SPOTS}, got {spots}"
            )));
        }
        if !(MIN_COLOURS..=MAX_COLOURS).contains(&colours) {
            return Err(param(format!(
                "colours must be between {MIN_COLOURS} and {MAX_COLOURS}, got {colours}"
            )));
        }
        Ok(Self { spots, colours })
    }

    /// The number of codes, `colours^spots`, exactly (36^16 fits in a u128).
    pub fn size(&self) -> u128 {
        (self.colours as u128).pow(self.spots as u32)
    }

    /// The number of codes if the space is enumerable.
    pub fn enumerable_size(&self) -> Option<u64> {
        let size = self.size();
        (size <= u128::from(ENUMERABLE_LIMIT)).then_some(size as u64)
    }

    /// [`Space::enumerable_size`] or an error naming `what` needs enumeration.
    pub fn require_enumerable(&self, what: &str) -> Result<u64> {
        self.enumerable_size().ok_or_else(|| {
            param(format!(
                "{what} scores every code, so it needs at most {ENUMERABLE_LIMIT} codes; \
                 {} spots x {} colours has {}",
                self.spots,
                self.colours,
                self.size()
            ))
        })
    }

    /// A checked code from its colours, naming the first bad spot.
    pub fn code(&self, colours: &[u8]) -> Result<Code> {
        if colours.len() != self.spots {
            return Err(param(format!(
                "a code has {} spots, got {} colours",
                self.spots,
                colours.len()
            )));
        }
        let mut code = [PAD; MAX_SPOTS];
        for (spot, (&colour, slot)) in colours.iter().zip(code.iter_mut()).enumerate() {
            if usize::from(colour) >= self.colours {
                return Err(param(format!(
                    "spot {spot} has colour {colour}; colours are 0 to {}",
                    self.colours - 1
                )));
            }
            *slot = colour;
        }
        Ok(code)
    }

    /// The code with lexicographic rank `index` (spot 0 most significant).
    pub fn code_at(&self, mut index: u64) -> Code {
        let mut code = [PAD; MAX_SPOTS];
        let colours = self.colours as u64;
        for slot in code[..self.spots].iter_mut().rev() {
            *slot = (index % colours) as u8;
            index /= colours;
        }
        code
    }

    /// The lexicographic rank of a code of an enumerable space.
    pub fn index_of(&self, code: &Code) -> u64 {
        code[..self.spots].iter().fold(0, |index, &colour| {
            index * self.colours as u64 + u64::from(colour)
        })
    }

    /// Every code in lexicographic order (enumerable spaces only).
    pub fn all_codes(&self) -> Result<Vec<Code>> {
        let size = self.require_enumerable("listing every code")?;
        Ok((0..size).map(|index| self.code_at(index)).collect())
    }

    /// The real spots of a code.
    pub fn spots_of<'a>(&self, code: &'a Code) -> &'a [u8] {
        &code[..self.spots]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_round_trip_in_lexicographic_order() -> Result<()> {
        let space = Space::new(3, 4)?;
        let codes = space.all_codes()?;
        assert_eq!(codes.len(), 64);
        for (index, code) in codes.iter().enumerate() {
            assert_eq!(space.index_of(code), index as u64);
        }
        assert!(codes.windows(2).all(|pair| pair[0] < pair[1]));
        Ok(())
    }

    #[test]
    fn bad_codes_and_spaces_are_named() {
        assert!(Space::new(0, 6).is_err());
        assert!(Space::new(17, 6).is_err());
        assert!(Space::new(4, 37).is_err());
        let space = Space::new(4, 6).ok();
        let message = space.map(|s| s.code(&[0, 1, 6, 2]).err());
        assert_eq!(
            message.flatten().map(|e| e.to_string()),
            Some("spot 2 has colour 6; colours are 0 to 5".to_string())
        );
    }
}
