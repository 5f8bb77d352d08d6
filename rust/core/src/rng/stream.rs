//! Streams: named, independent sequences of Philox blocks.
//!
//! Layout (also in `docs/determinism.md`):
//! `key = [seed, purpose_tag(purpose)]`, `counter = [block_index, id0, id1, id2]`
//! (missing ids are 0). Streams that differ in seed, purpose or any id use different keys or
//! counters, so they never share a block.

use rayon::prelude::*;

use super::philox::philox4x64_10;
use crate::cancel::Cancel;
use crate::error::{Result, param};
use crate::parallel;

/// A uniform `$word` in `[0, n)` from draws of `$draw` by multiply-shift with exact rejection
/// (Lemire, "Fast random integer generation in an interval", 2019): the high half of
/// `draw * n` widened to `$wide`, redrawn while the low half is below `2^bits mod n`. One
/// multiplication per draw, a division only in the rare case the low half is below `n`.
/// `n = 0` gives 0 and draws nothing.
macro_rules! below_by_multiply_shift {
    ($draw:expr, $n:expr, $word:ty, $wide:ty) => {{
        let n: $word = $n;
        if n == 0 {
            0
        } else {
            let mut product = <$wide>::from($draw) * <$wide>::from(n);
            if (product as $word) < n {
                let rejected_below = n.wrapping_neg() % n;
                while (product as $word) < rejected_below {
                    product = <$wide>::from($draw) * <$wide>::from(n);
                }
            }
            (product >> <$word>::BITS) as $word
        }
    }};
}

/// How many integer ids a stream name may carry beyond seed and purpose.
pub const MAX_IDS: usize = 3;

/// The 64-bit tag of a purpose string: FNV-1a over its UTF-8 bytes.
pub const fn purpose_tag(purpose: &str) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let bytes = purpose.as_bytes();
    let mut hash = OFFSET;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(PRIME);
        i += 1;
    }
    hash
}

/// A stream of random blocks named by `(seed, purpose, ids)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stream {
    key: [u64; 2],
    ids: [u64; MAX_IDS],
}

impl Stream {
    /// The stream for `(seed, purpose, ids)`; at most [`MAX_IDS`] ids.
    pub fn new(seed: u64, purpose: &str, ids: &[u64]) -> Result<Self> {
        Self::with_tag(seed, purpose_tag(purpose), ids)
    }

    /// As [`Stream::new`] with the purpose already hashed (hot loops hash once).
    pub fn with_tag(seed: u64, tag: u64, ids: &[u64]) -> Result<Self> {
        if ids.len() > MAX_IDS {
            return Err(param(format!(
                "a stream takes at most {MAX_IDS} ids, got {}",
                ids.len()
            )));
        }
        let mut padded = [0u64; MAX_IDS];
        padded[..ids.len()].copy_from_slice(ids);
        Ok(Self {
            key: [seed, tag],
            ids: padded,
        })
    }

    /// The same stream with ids `[id0, id1, id2]`, for loops that derive many streams.
    pub const fn with_ids(seed: u64, tag: u64, ids: [u64; MAX_IDS]) -> Self {
        Self {
            key: [seed, tag],
            ids,
        }
    }

    pub fn key(&self) -> [u64; 2] {
        self.key
    }

    /// Block `index` of the stream: Philox of counter `[index, id0, id1, id2]`.
    #[inline]
    pub fn block(&self, index: u64) -> [u64; 4] {
        philox4x64_10([index, self.ids[0], self.ids[1], self.ids[2]], self.key)
    }

    /// A reader of the stream's words from block `start` on.
    pub fn cursor_at(&self, start: u64) -> Cursor {
        Cursor {
            stream: *self,
            next_block: start,
            words: [0; 4],
            used: 4,
        }
    }

    /// A reader of the stream's words from its first block.
    pub fn cursor(&self) -> Cursor {
        self.cursor_at(0)
    }
}

/// Reads a stream word by word (each block's words in order) and turns words into draws.
#[derive(Clone, Debug)]
pub struct Cursor {
    stream: Stream,
    next_block: u64,
    words: [u64; 4],
    used: usize,
}

impl Cursor {
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        if self.used == 4 {
            self.words = self.stream.block(self.next_block);
            self.next_block = self.next_block.wrapping_add(1);
            self.used = 0;
        }
        let word = self.words[self.used];
        self.used += 1;
        word
    }

    /// A uniform double in `[0, 1)`: the top 53 bits of one word times 2^-53.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        const SCALE: f64 = 1.0 / 9_007_199_254_740_992.0; // 2^-53
        (self.next_u64() >> 11) as f64 * SCALE
    }

    /// A uniform integer in `[0, n)` by exact rejection: words below `2^64 mod n` are
    /// redrawn, so every value has probability exactly `1/n`. `n = 0` returns 0 and draws
    /// nothing (callers validate `n >= 1`).
    #[inline]
    pub fn uniform_below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let rejected_below = n.wrapping_neg() % n;
        loop {
            let word = self.next_u64();
            if word >= rejected_below {
                return word % n;
            }
        }
    }

    /// A uniform integer in `[0, n)` by multiply-shift with exact rejection on whole words
    /// (`below_by_multiply_shift!` in this file); the hot loops of the games use it. `n = 0`
    /// returns 0 and draws nothing.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        below_by_multiply_shift!(self.next_u64(), n, u64, u128)
    }

    /// Heads among `k` fair coins: the popcount of `k` bits (whole words, then the low bits
    /// of one more word), which is exactly Binomial(k, 1/2).
    pub fn coin_flips(&mut self, k: u64) -> u64 {
        let mut heads = 0u64;
        for _ in 0..k / 64 {
            heads += u64::from(self.next_u64().count_ones());
        }
        let rest = k % 64;
        if rest > 0 {
            heads += u64::from((self.next_u64() & ((1u64 << rest) - 1)).count_ones());
        }
        heads
    }
}

/// Reads a cursor's words as 32-bit halves, low half first, for draws that need few bits
/// (a colour among at most 16): each takes half a word, so a hot loop runs half as many
/// Philox blocks.
#[derive(Clone, Debug)]
pub struct Halves {
    cursor: Cursor,
    high: Option<u32>,
}

impl Halves {
    pub fn new(cursor: Cursor) -> Self {
        Self { cursor, high: None }
    }

    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        match self.high.take() {
            Some(high) => high,
            None => {
                let word = self.cursor.next_u64();
                self.high = Some((word >> 32) as u32);
                word as u32
            }
        }
    }

    /// A uniform integer in `[0, n)`: multiply-shift with exact rejection on 32-bit halves
    /// (`below_by_multiply_shift!` in this file). `n = 0` returns 0 and draws nothing.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        below_by_multiply_shift!(self.next_u32(), n, u32, u64)
    }
}

/// Heads among `k` coins read from the start of `stream`, counted in parallel over blocks;
/// equal to `stream.cursor().coin_flips(k)`. Polls `cancel` between chunks.
pub fn heads_in_coin_flips(
    stream: &Stream,
    k: u64,
    threads: usize,
    cancel: &Cancel,
) -> Result<u64> {
    const BLOCKS_PER_CHUNK: u64 = 1 << 16;
    let whole_words = k / 64;
    let whole_blocks = whole_words / 4;
    let chunks = whole_blocks.div_ceil(BLOCKS_PER_CHUNK);
    let pool = parallel::pool(threads)?;
    let bulk: u64 = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                cancel.check()?;
                let first = chunk * BLOCKS_PER_CHUNK;
                let last = (first + BLOCKS_PER_CHUNK).min(whole_blocks);
                Ok((first..last)
                    .map(|b| {
                        stream
                            .block(b)
                            .iter()
                            .map(|w| u64::from(w.count_ones()))
                            .sum::<u64>()
                    })
                    .sum::<u64>())
            })
            .sum::<Result<u64>>()
    })?;
    // The words after the last whole block: up to 3 whole words and a partial one.
    let mut tail = stream.cursor_at(whole_blocks);
    Ok(bulk + tail.coin_flips(k - whole_blocks * 256))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn purpose_tag_is_fnv1a() {
        // FNV-1a 64 reference values: "" and "a".
        assert_eq!(purpose_tag(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(purpose_tag("a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn stream_layout() -> Result<()> {
        let s = Stream::new(7, "demo", &[1, 2])?;
        assert_eq!(
            s.block(5),
            philox4x64_10([5, 1, 2, 0], [7, purpose_tag("demo")])
        );
        assert!(Stream::new(7, "demo", &[1, 2, 3, 4]).is_err());
        Ok(())
    }

    #[test]
    fn cursor_reads_blocks_in_order() -> Result<()> {
        let s = Stream::new(1, "x", &[])?;
        let mut c = s.cursor();
        let words: Vec<u64> = (0..8).map(|_| c.next_u64()).collect();
        assert_eq!(&words[..4], &s.block(0));
        assert_eq!(&words[4..], &s.block(1));
        Ok(())
    }

    #[test]
    fn uniform_below_stays_in_range_and_covers_it() -> Result<()> {
        let mut c = Stream::new(3, "u", &[])?.cursor();
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let v = c.uniform_below(7);
            seen[v as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        assert_eq!(c.uniform_below(1), 0);
        Ok(())
    }

    #[test]
    fn parallel_heads_equal_sequential_heads() -> Result<()> {
        let s = Stream::new(11, "coins", &[4])?;
        for k in [0, 1, 63, 64, 65, 255, 256, 257, 1000, 300_000, 17_000_001] {
            let sequential = s.cursor().coin_flips(k);
            for threads in [1, 2, 3] {
                assert_eq!(
                    heads_in_coin_flips(&s, k, threads, &Cancel::new())?,
                    sequential,
                    "k={k}"
                );
            }
        }
        Ok(())
    }

    #[test]
    fn cancelled_coin_count_stops() -> Result<()> {
        let s = Stream::new(1, "c", &[])?;
        let cancel = Cancel::new();
        cancel.cancel();
        assert!(heads_in_coin_flips(&s, 1 << 40, 2, &cancel).is_err());
        Ok(())
    }
}
