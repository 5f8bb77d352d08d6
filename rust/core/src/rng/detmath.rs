//! Floating-point functions whose every step is an IEEE-754 basic operation (+, -, *, /), so
//! that Rust and the Python oracle compute bit-identical values on every platform. The C
//! library's `log` is not guaranteed to round the same way everywhere, so samplers use these.

const LN2: f64 = std::f64::consts::LN_2;
const SQRT2: f64 = std::f64::consts::SQRT_2;
/// Terms of the atanh series; |s| <= 0.1716 makes term 12 smaller than 2^-60.
const ATANH_TERMS: i32 = 12;

/// Splits a finite `x > 0` into `(f, e)` with `x = f * 2^e` and `f` in `[1, 2)`.
fn split_binary(x: f64) -> (f64, i64) {
    const SUBNORMAL_SCALE: f64 = 18_014_398_509_481_984.0; // 2^54
    let (x, bias) = if x < f64::MIN_POSITIVE {
        (x * SUBNORMAL_SCALE, 54)
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1023 - bias;
    let mantissa = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    (mantissa, exponent)
}

/// Natural logarithm from basic operations only: `ln x = e ln 2 + 2 atanh((f-1)/(f+1))`
/// with `f` in `[sqrt(1/2), sqrt(2))`. Accurate to a few ulps; `det_ln(0) = -inf`.
pub fn det_ln(x: f64) -> f64 {
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    let (mut f, mut e) = split_binary(x);
    if f > SQRT2 {
        f *= 0.5;
        e += 1;
    }
    let s = (f - 1.0) / (f + 1.0);
    let z = s * s;
    let mut series = 1.0 / f64::from(2 * ATANH_TERMS + 1);
    for j in (0..ATANH_TERMS).rev() {
        series = series * z + 1.0 / f64::from(2 * j + 1);
    }
    (e as f64) * LN2 + 2.0 * s * series
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_c_library_to_a_few_ulps() {
        let mut x = 1e-310;
        while x < 1e300 {
            let ours = det_ln(x);
            let libm = x.ln();
            assert!(
                (ours - libm).abs() <= 4.0 * f64::EPSILON * libm.abs().max(1.0),
                "ln({x}): {ours} vs {libm}"
            );
            x *= 1.37;
        }
    }

    #[test]
    fn edge_values() {
        assert_eq!(det_ln(1.0), 0.0);
        assert_eq!(det_ln(0.0), f64::NEG_INFINITY);
        assert!(det_ln(-1.0).is_nan());
    }
}
