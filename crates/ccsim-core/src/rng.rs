//! Deterministic random-number streams, one per named consumer.
//!
//! Every random consumer (a traffic source, a loss model, a queue) draws from its own
//! stream, seeded from the run's master seed and the consumer's stable name. Adding a flow
//! therefore never changes the numbers another flow sees. The generator is PCG64 (`Mcg128Xsl64`);
//! the seed mixing is SplitMix64 over the name's bytes, which is stable across Rust versions
//! (unlike `std`'s hashers). Transcendental functions come from `libm`, so the same seed gives
//! the same numbers on every platform.

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A seeded random stream owned by one component.
#[derive(Clone, Debug)]
pub struct RngStream {
    inner: Pcg64Mcg,
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl RngStream {
    /// The stream for the component called `name` in a run seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64, name: &str) -> RngStream {
        let mut state = seed;
        let mut acc = splitmix64(&mut state);
        for chunk in name.as_bytes().chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            state ^= u64::from_le_bytes(word);
            acc ^= splitmix64(&mut state);
        }
        state ^= name.len() as u64;
        let hi = splitmix64(&mut state) ^ acc;
        let lo = splitmix64(&mut state);
        let seed128 = (u128::from(hi) << 64) | u128::from(lo);
        RngStream {
            inner: Pcg64Mcg::from_seed(seed128.to_le_bytes()),
        }
    }

    /// A uniform 64-bit integer.
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// A uniform float in [0, 1), with 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `true` with probability `p`.
    pub fn bernoulli(&mut self, p: f64) -> bool {
        p > 0.0 && self.uniform() < p
    }

    /// An exponential variate with the given mean (inverse transform, `libm::log`).
    pub fn exponential(&mut self, mean: f64) -> f64 {
        // 1 - U lies in (0, 1], so the logarithm is finite.
        -mean * libm::log(1.0 - self.uniform())
    }

    /// A log-normal variate with the given mean and shape `sigma` (the standard deviation of
    /// its logarithm): `exp(mu + sigma Z)` with `mu = ln(mean) - sigma^2 / 2`, `Z` standard
    /// normal by Box and Muller's transform (`libm`).
    pub fn lognormal(&mut self, mean: f64, sigma: f64) -> f64 {
        let u1 = 1.0 - self.uniform();
        let u2 = self.uniform();
        let z = libm::sqrt(-2.0 * libm::log(u1)) * libm::cos(2.0 * std::f64::consts::PI * u2);
        libm::exp(libm::log(mean) - sigma * sigma / 2.0 + sigma * z)
    }

    /// A uniform integer in `[0, n)`; `n` must be positive.
    pub fn below(&mut self, n: u64) -> u64 {
        // Lemire's multiply-shift; the tiny bias is irrelevant at simulation scales.
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_and_name_give_the_same_stream() {
        let mut a = RngStream::new(7, "flow/tcp1");
        let mut b = RngStream::new(7, "flow/tcp1");
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn names_and_seeds_separate_streams() {
        let first = |seed, name| RngStream::new(seed, name).next_u64();
        assert_ne!(first(7, "a"), first(7, "b"));
        assert_ne!(first(7, "a"), first(8, "a"));
        assert_ne!(first(7, "ab"), first(7, "ab\0"));
    }

    #[test]
    fn uniform_mean_is_one_half() {
        let mut r = RngStream::new(1, "u");
        let n = 100_000;
        let mean = (0..n).map(|_| r.uniform()).sum::<f64>() / f64::from(n);
        assert!((mean - 0.5).abs() < 0.005, "mean {mean}");
    }

    /// Log-normal draws: the mean of a million is within four standard errors of the mean
    /// asked for, and the median is exp(mu) (half the draws below it, within four binomial
    /// standard deviations).
    #[test]
    fn lognormal_draws_have_the_mean_and_median_asked_for() {
        let (mean, sigma) = (5.0, 1.0);
        let mut rng = RngStream::new(3, "lognormal-test");
        let n = 1_000_000;
        let xs: Vec<f64> = (0..n).map(|_| rng.lognormal(mean, sigma)).collect();
        let m = xs.iter().sum::<f64>() / n as f64;
        // Var = mean^2 (e^{sigma^2} - 1).
        let se = (mean * mean * (1f64.exp() - 1.0) / n as f64).sqrt();
        assert!((m - mean).abs() < 4.0 * se, "{m}");
        let median = (mean.ln() - sigma * sigma / 2.0).exp();
        let below = xs.iter().filter(|&&x| x < median).count() as f64;
        assert!(
            (below - n as f64 / 2.0).abs() < 4.0 * (n as f64 / 4.0).sqrt(),
            "{below}"
        );
    }
}
