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
