//! Round-trip time estimation and the retransmission timeout (RFC 6298).
//!
//! CHOICE: the minimum RTO defaults to 200 ms (Linux's and ns-2's common setting) rather
//! than RFC 6298's 1 s, because congestion-control studies and the Mathis model assume
//! timeouts are rare and short; it is a per-flow option (`min_rto`). The clock granularity
//! G of RFC 6298 is 1 ns here, so the `max(G, K*RTTVAR)` term is `4*RTTVAR`.

use ccsim_core::Dur;

/// RFC 6298 estimator state. All times in nanoseconds.
#[derive(Clone, Debug)]
pub struct RttEstimator {
    srtt: Option<u64>,
    rttvar: u64,
    rto: u64,
    backoff: u32,
    min_rto: u64,
    max_rto: u64,
}

impl RttEstimator {
    /// A fresh estimator: RTO = `initial` until the first sample (RFC 6298 section 2.1).
    /// A maximum below the minimum is raised to the minimum.
    #[must_use]
    pub fn new(initial: Dur, min_rto: Dur, max_rto: Dur) -> Self {
        RttEstimator {
            srtt: None,
            rttvar: 0,
            rto: initial.0,
            backoff: 0,
            min_rto: min_rto.0,
            max_rto: max_rto.0.max(min_rto.0),
        }
    }

    /// Feed one RTT measurement (RFC 6298 sections 2.2 and 2.3); clears the back-off.
    pub fn sample(&mut self, r: Dur) {
        let r = r.0;
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2;
            }
            Some(srtt) => {
                // RTTVAR <- 3/4 RTTVAR + 1/4 |SRTT - R'|; SRTT <- 7/8 SRTT + 1/8 R'.
                self.rttvar = (3 * self.rttvar + srtt.abs_diff(r)) / 4;
                self.srtt = Some((7 * srtt + r) / 8);
            }
        }
        let srtt = self.srtt.expect("set above");
        self.rto = srtt + (4 * self.rttvar).max(1);
        self.backoff = 0;
    }

    /// Double the timeout after an expiry (RFC 6298 section 5.5).
    pub fn back_off(&mut self) {
        self.backoff = (self.backoff + 1).min(16);
    }

    /// The current timeout, with back-off, clamped to [min, max] (RFC 6298 2.4, 2.5).
    #[must_use]
    pub fn rto(&self) -> Dur {
        let base = self.rto.clamp(self.min_rto, self.max_rto);
        Dur(base.saturating_mul(1 << self.backoff).min(self.max_rto))
    }

    /// The smoothed RTT, if a sample has been taken.
    #[must_use]
    pub fn srtt(&self) -> Option<Dur> {
        self.srtt.map(Dur)
    }
}

#[cfg(test)]
mod tests {
    use super::RttEstimator;
    use ccsim_core::Dur;

    fn ms(x: u64) -> Dur {
        Dur::from_millis(x)
    }

    #[test]
    fn the_second_sample_updates_as_rfc_6298_section_2_3_says() {
        let mut e = RttEstimator::new(Dur::from_secs(1), ms(200), Dur::from_secs(60));
        assert_eq!(
            e.rto(),
            Dur::from_secs(1),
            "before a sample: the initial RTO (2.1)"
        );
        // 2.2: SRTT = R = 100 ms, RTTVAR = R/2 = 50 ms, RTO = 100 + 4 * 50 = 300 ms.
        e.sample(ms(100));
        assert_eq!((e.srtt(), e.rto()), (Some(ms(100)), ms(300)));
        // 2.3 with R' = 200 ms: RTTVAR = 3/4 * 50 + 1/4 * |100 - 200| = 62.5 ms (first, with
        // the old SRTT); SRTT = 7/8 * 100 + 1/8 * 200 = 112.5 ms; RTO = 112.5 + 250 = 362.5 ms.
        e.sample(ms(200));
        assert_eq!(e.srtt(), Some(Dur(112_500_000)));
        assert_eq!(e.rto(), Dur(362_500_000));
    }

    #[test]
    fn back_off_doubles_up_to_the_maximum_and_a_sample_clears_it() {
        let mut e = RttEstimator::new(Dur::from_secs(1), ms(200), Dur::from_secs(60));
        e.sample(ms(100)); // RTO 300 ms
        let mut want = 300_u64;
        for _ in 0..7 {
            e.back_off();
            want *= 2;
            assert_eq!(e.rto(), ms(want)); // 5.5: doubled each expiry
        }
        assert_eq!(want, 38_400);
        e.back_off(); // 76.8 s would exceed the 60 s maximum (2.5)
        assert_eq!(e.rto(), Dur::from_secs(60));
        e.sample(ms(100)); // a new sample ends the back-off
        assert!(e.rto() < Dur::from_secs(1), "{:?}", e.rto());
    }

    #[test]
    fn back_off_stops_doubling_after_sixteen_expiries() {
        let max = Dur::from_secs(1_000_000_000);
        let mut e = RttEstimator::new(ms(1), ms(1), max);
        for _ in 0..40 {
            e.back_off();
        }
        assert_eq!(e.rto(), Dur(1_000_000 << 16));
    }

    #[test]
    fn the_rto_is_clamped_to_its_minimum_and_maximum() {
        let mut e = RttEstimator::new(Dur::from_secs(1), ms(200), Dur::from_secs(60));
        e.sample(ms(1)); // 1 + 4 * 0.5 = 3 ms, below the 200 ms floor (2.4)
        assert_eq!(e.rto(), ms(200));
        let mut e = RttEstimator::new(Dur::from_secs(1), ms(200), Dur::from_secs(60));
        e.sample(Dur::from_secs(100)); // 100 + 200 = 300 s, above the 60 s ceiling (2.5)
        assert_eq!(e.rto(), Dur::from_secs(60));
    }
}
