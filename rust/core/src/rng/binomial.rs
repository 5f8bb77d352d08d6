//! Binomial(n, 1/2) for any `n`, identical in Rust and in the Python oracle.
//!
//! Small `n`: the popcount of `n` random bits, exact by construction. Large `n`: BTRS, the
//! transformed rejection sampler with squeeze of Hörmann ("The generation of binomial random
//! variates", J. Statist. Comput. Simul. 46, 1993), specialised to p = 1/2. It is an exact
//! method (accept/reject against the binomial mass function, no normal approximation); every
//! step is an IEEE basic operation or [`det_ln`], so the oracle reproduces each draw bit for
//! bit. Above [`BTRS_CHUNK`] trials, where doubles stop holding every integer, `n` is split into
//! chunks whose draws are summed.

use super::detmath::det_ln;
use super::stream::Cursor;

/// Up to this many trials the draw is a popcount (at most one block of four words).
pub const BINOMIAL_POPCOUNT_LIMIT: u64 = 256;
/// Largest number of trials given to one BTRS draw: 2^52, so every quantity is an exact double.
pub const BTRS_CHUNK: u64 = 1 << 52;

/// `ln k! - [(k + 1/2) ln(k + 1) - (k + 1) + ln(2 pi)/2]` for k = 0..9 (Hörmann's table).
const STIRLING_TAIL: [f64; 10] = [
    0.081_061_466_795_327_26,
    0.041_340_695_955_409_29,
    0.027_677_925_684_998_34,
    0.020_790_672_103_765_09,
    0.016_644_691_189_821_19,
    0.013_876_128_823_070_75,
    0.011_896_709_945_891_77,
    0.010_411_265_261_972_09,
    0.009_255_462_182_712_733,
    0.008_330_563_433_362_87,
];

/// The Stirling series tail of `ln k!` (exact table below 10, three terms above).
fn stirling_tail(k: f64) -> f64 {
    if k < 10.0 {
        return STIRLING_TAIL[k as usize];
    }
    let kp1 = k + 1.0;
    let kp1sq = kp1 * kp1;
    (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / 1260.0 / kp1sq) / kp1sq) / kp1
}

impl Cursor {
    /// A Binomial(n, 1/2) draw for any `n`: coin flips up to [`BINOMIAL_POPCOUNT_LIMIT`], the
    /// BTRS rejection sampler above (in chunks of at most [`BTRS_CHUNK`]).
    pub fn binomial_half(&mut self, n: u64) -> u64 {
        if n <= BINOMIAL_POPCOUNT_LIMIT {
            return self.coin_flips(n);
        }
        let mut remaining = n;
        let mut heads = 0u64;
        while remaining > BTRS_CHUNK {
            heads += btrs_half(self, BTRS_CHUNK);
            remaining -= BTRS_CHUNK;
        }
        heads + btrs_half(self, remaining)
    }
}

/// BTRS for p = 1/2 and `BINOMIAL_POPCOUNT_LIMIT < n <= BTRS_CHUNK`. Each attempt reads two
/// words (u then v); the expected number of attempts is below 1.2.
fn btrs_half(cursor: &mut Cursor, n: u64) -> u64 {
    let nf = n as f64;
    let spq = (nf * 0.25).sqrt();
    let b = 1.15 + 2.53 * spq;
    let a = -0.0873 + 0.0248 * b + 0.005;
    let c = nf * 0.5 + 0.5;
    let v_r = 0.92 - 4.2 / b;
    let alpha = (2.83 + 5.1 / b) * spq;
    let m = n.div_ceil(2) as f64;
    let log_mode_part =
        (m + 0.5) * det_ln((m + 1.0) / (nf - m + 1.0)) + stirling_tail(m) + stirling_tail(nf - m);
    loop {
        let u = cursor.next_f64() - 0.5;
        let v = cursor.next_f64();
        let us = 0.5 - u.abs();
        let k = ((2.0 * a / us + b) * u + c).floor();
        if k < 0.0 || k > nf {
            continue;
        }
        if us >= 0.07 && v <= v_r {
            return k as u64;
        }
        let log_v = det_ln(v * alpha / (a / (us * us) + b));
        let log_bound = log_mode_part
            + (nf + 1.0) * det_ln((nf - m + 1.0) / (nf - k + 1.0))
            + (k + 0.5) * det_ln((nf - k + 1.0) / (k + 1.0))
            - stirling_tail(k)
            - stirling_tail(nf - k);
        if log_v <= log_bound {
            return k as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::error::Result;
    use crate::rng::Stream;

    /// Mean and variance of many draws match n/2 and n/4 within 5 standard errors.
    #[test]
    fn moments_match_for_small_and_large_n() -> Result<()> {
        for &n in &[
            10u64,
            256,
            257,
            1000,
            123_456_789,
            1 << 40,
            (1 << 53) + 12345,
        ] {
            let draws = 20_000u32;
            let mut sum = 0f64;
            let mut sum_sq = 0f64;
            for i in 0..draws {
                let x = Stream::new(5, "moments", &[n, u64::from(i)])?
                    .cursor()
                    .binomial_half(n);
                assert!(x <= n);
                let centred = x as f64 - n as f64 / 2.0;
                sum += centred;
                sum_sq += centred * centred;
            }
            let var = n as f64 / 4.0;
            let mean_err = (sum / f64::from(draws)).abs() / (var / f64::from(draws)).sqrt();
            assert!(
                mean_err < 5.0,
                "n={n}: mean off by {mean_err} standard errors"
            );
            let var_ratio = sum_sq / f64::from(draws) / var;
            assert!(
                (var_ratio - 1.0).abs() < 0.1,
                "n={n}: variance ratio {var_ratio}"
            );
        }
        Ok(())
    }
}
