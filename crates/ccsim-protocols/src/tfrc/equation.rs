//! The TCP throughput equation (RFC 5348 section 3.1) and its inverse in p.
//!
//! X_Bps = s / (R sqrt(2bp/3) + t_RTO (3 sqrt(3bp/8)) p (1 + 32 p^2)), with b = 1 (one
//! packet acknowledged per ACK, as the RFC recommends) and t_RTO = 4R (the RFC's simplification).
//!
//! The inverse (the p at which the equation gives a target rate) seeds the first loss interval
//! (RFC 5348 section 6.3.1).
//!
//! CHOICE: the inverse is found by bisection on p over (0, 1] with a fixed number of steps
//! ([`INVERSE_STEPS`]), so it is deterministic and far tighter than the 5% the RFC allows.

/// Bisection steps of [`loss_rate_for`]: the bracket shrinks to 2^-100 of (0, 1].
pub const INVERSE_STEPS: u32 = 100;

/// The TCP throughput equation: the rate in bytes per second of a TCP flow with segment size
/// `s` bytes, round-trip time `r` seconds and loss event rate `p`. Infinite when `p` is zero
/// (or negative); zero when `r` is infinite.
#[must_use]
pub fn throughput(s: f64, r: f64, p: f64) -> f64 {
    if p <= 0.0 {
        return f64::INFINITY;
    }
    let t_rto = 4.0 * r;
    let denom = r * (2.0 * p / 3.0).sqrt()
        + t_rto * (3.0 * (3.0 * p / 8.0).sqrt()) * p * (1.0 + 32.0 * p * p);
    s / denom
}

/// The loss event rate p in (0, 1] at which [`throughput`]`(s, r, p)` equals `x` bytes per
/// second (the equation falls as p grows). A rate at or below the equation's value at p = 1
/// gives 1; an infinite rate gives 0.
#[must_use]
pub fn loss_rate_for(s: f64, r: f64, x: f64) -> f64 {
    if x.is_nan() || x <= throughput(s, r, 1.0) {
        return 1.0;
    }
    if x.is_infinite() {
        return 0.0;
    }
    // Invariant: throughput(lo) > x >= throughput(hi), with throughput(0) infinite.
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for _ in 0..INVERSE_STEPS {
        let mid = 0.5 * (lo + hi);
        if throughput(s, r, mid) > x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs()
    }

    #[test]
    fn equation_matches_hand_computed_points() {
        // s = 1000, R = 0.1, p = 0.01:
        //   R sqrt(2p/3)            = 0.1 * sqrt(0.0066667)       = 0.0081649658
        //   4R * 3 sqrt(3p/8)       = 0.4 * 3 * sqrt(0.00375)     = 0.0734846923
        //   ... * p * (1 + 32p^2)   = 0.0734846923 * 0.01 * 1.0032 = 0.0007371984
        //   X = 1000 / (0.0081649658 + 0.0007371984) = 1000 / 0.0089021642 = 112332.23
        assert!(close(throughput(1000.0, 0.1, 0.01), 112_332.23, 1e-6));
        // s = 1460, R = 0.05, p = 0.001:
        //   0.05 * sqrt(0.00066667)                      = 0.0012909944
        //   0.2 * 3 * sqrt(0.000375) * 0.001 * 1.000032  = 0.0000116193
        //   X = 1460 / 0.0013026138 = 1120823.4
        assert!(close(throughput(1460.0, 0.05, 0.001), 1_120_823.4, 1e-6));
        // s = 500, R = 0.2, p = 0.1 (the timeout term dominates):
        //   0.2 * sqrt(0.066667)                     = 0.0516397779
        //   0.8 * 3 * sqrt(0.0375) * 0.1 * 1.32      = 0.0613480562
        //   X = 500 / 0.1129878342 = 4425.255
        assert!(close(throughput(500.0, 0.2, 0.1), 4425.255, 1e-6));
    }

    #[test]
    fn no_loss_is_unbounded() {
        assert!(throughput(1000.0, 0.1, 0.0).is_infinite());
    }

    #[test]
    fn inverse_round_trips() {
        for &(s, r, p) in &[
            (1000.0, 0.1, 0.01),
            (1460.0, 0.05, 0.001),
            (500.0, 0.2, 0.1),
            (1000.0, 0.3, 1e-7),
            (1000.0, 0.01, 0.7),
        ] {
            let x = throughput(s, r, p);
            let back = loss_rate_for(s, r, x);
            assert!(close(back, p, 1e-9), "p {p}: got {back}");
            assert!(close(throughput(s, r, back), x, 1e-9));
        }
    }

    #[test]
    fn inverse_saturates_at_the_ends() {
        // Below the rate at p = 1: 1000 / (0.1 * 0.8165 + 0.4 * 3 * 0.6124 * 33) = 41.1 B/s.
        assert_eq!(loss_rate_for(1000.0, 0.1, 10.0), 1.0);
        assert_eq!(loss_rate_for(1000.0, 0.1, 0.0), 1.0);
        assert_eq!(loss_rate_for(1000.0, 0.1, f64::INFINITY), 0.0);
    }
}
