//! Deterministic randomness: the same seed and time always give the same value, so history
//! can be replayed and tests are repeatable.

/// A well-mixed 64-bit hash (SplitMix64 finaliser).
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Uniform in [0, 1) for (seed, n).
pub fn unit(seed: u64, n: u64) -> f64 {
    (mix(seed ^ mix(n)) >> 11) as f64 / (1u64 << 53) as f64
}

/// Smooth noise in [0, 1): values at knots `period` seconds apart, eased in between, so clouds
/// drift rather than flicker.
pub fn smooth(seed: u64, t_secs: i64, period: i64) -> f64 {
    let period = period.max(1);
    let knot = t_secs.div_euclid(period);
    let frac = t_secs.rem_euclid(period) as f64 / period as f64;
    let eased = frac * frac * (3.0 - 2.0 * frac);
    let a = unit(seed, knot as u64);
    let b = unit(seed, (knot + 1) as u64);
    a + (b - a) * eased
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_repeatable_bounded_and_smooth() {
        assert_eq!(smooth(7, 12_345, 900), smooth(7, 12_345, 900));
        assert_ne!(unit(1, 2), unit(2, 2));
        for t in (0..100_000).step_by(37) {
            let v = smooth(3, t, 600);
            assert!((0.0..1.0).contains(&v));
            assert!((smooth(3, t + 1, 600) - v).abs() < 0.01, "smooth at {t}");
        }
    }
}
