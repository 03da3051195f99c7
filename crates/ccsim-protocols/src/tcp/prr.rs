//! Proportional Rate Reduction (RFC 9937, which obsoletes RFC 6937): how much a sender in
//! fast recovery may send on each ACK, so that the data in flight falls smoothly from where
//! it was to ssthresh over about one round trip, and is rebuilt toward ssthresh (not by
//! slow start from scratch) when losses have taken it below.
//!
//! In segments (Linux's `tcp_cwnd_reduction` counts packets too): on every ACK in recovery
//! `DeliveredData` (segments newly acknowledged cumulatively or newly SACKed) is added to
//! `prr_delivered`, and then
//!
//! * pipe > ssthresh (proportional part): sndcnt = ceil(prr_delivered × ssthresh / RecoverFS)
//!   − prr_out;
//! * pipe ≤ ssthresh (reduction bound): sndcnt = max(prr_delivered − prr_out, DeliveredData),
//!   one more segment on a "safe" ACK (the ACK point advanced and no new loss was marked:
//!   PRR-SSRB), at most ssthresh − pipe;
//! * sndcnt is at least one while nothing has been sent in this recovery (the fast
//!   retransmit);
//!
//! and cwnd = pipe + sndcnt. `prr_out` counts every segment sent in recovery. Recovery ends
//! with cwnd = ssthresh (RFC 9937 section 6; Linux `tcp_end_cwnd_reduction`).
//!
//! CHOICE: RecoverFS is FlightSize when recovery starts (snd.nxt − snd.una, RFC 6937's
//! initialisation; RFC 9937 refines what it counts of data SACKed before recovery);
//! Linux divides by the congestion window before the reduction (`prior_cwnd`), which is the
//! same for a sender that fills its window. ssthresh enters the proportion in bytes, so a
//! window that is not a whole number of segments is not rounded first.

/// A recovery's PRR state (RFC 9937 section 6, "Initialization on entering recovery").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prr {
    /// FlightSize when recovery started, segments (RFC 9937 `RecoverFS`).
    recover_fs: u64,
    /// Segments delivered in this recovery (`prr_delivered`).
    delivered: u64,
    /// Segments sent in this recovery (`prr_out`).
    out: u64,
}

/// What one ACK in recovery tells PRR.
#[derive(Clone, Copy, Debug)]
pub struct PrrAck {
    /// Segments this ACK newly delivered (`DeliveredData`).
    pub delivered: u64,
    /// RFC 6675 pipe after the ACK is processed, segments.
    pub pipe: u64,
    /// ssthresh, bytes.
    pub ssthresh: u64,
    /// Segment size, bytes.
    pub mss: u64,
    /// The ACK point advanced and the ACK marked no further segment lost (`SafeACK`).
    pub safe: bool,
}

impl Prr {
    /// Start of a recovery with `flight_size` segments outstanding.
    #[must_use]
    pub fn start(flight_size: u64) -> Self {
        Prr {
            recover_fs: flight_size.max(1),
            delivered: 0,
            out: 0,
        }
    }

    /// A segment (new or retransmitted) sent in recovery.
    pub fn on_send(&mut self) {
        self.out += 1;
    }

    /// Segments sent in this recovery (`prr_out`).
    #[cfg(test)]
    #[must_use]
    pub fn out(&self) -> u64 {
        self.out
    }

    /// Segments delivered in this recovery (`prr_delivered`).
    #[cfg(test)]
    #[must_use]
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// RFC 9937 section 6, "On every ACK during recovery": the segments this ACK lets the
    /// sender send (`sndcnt`); the congestion window becomes pipe + sndcnt.
    pub fn on_ack(&mut self, a: &PrrAck) -> u64 {
        self.delivered += a.delivered;
        let ssthresh_segments = a.ssthresh / a.mss;
        let sndcnt = if a.pipe > ssthresh_segments {
            // Proportional Rate Reduction: CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out.
            let allowed = (u128::from(self.delivered) * u128::from(a.ssthresh))
                .div_ceil(u128::from(self.recover_fs) * u128::from(a.mss));
            u64::try_from(allowed)
                .unwrap_or(u64::MAX)
                .saturating_sub(self.out)
        } else {
            // PRR-CRB, PRR-SSRB on a safe ACK, then catch up no further than ssthresh.
            let mut n = self.delivered.saturating_sub(self.out).max(a.delivered);
            if a.safe {
                n += 1;
            }
            n.min(ssthresh_segments - a.pipe)
        };
        if self.out == 0 {
            sndcnt.max(1) // force the fast retransmit on entering recovery
        } else {
            sndcnt
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;

    fn ack(prr: &mut Prr, delivered: u64, pipe: u64, ssthresh_segments: u64, safe: bool) -> u64 {
        prr.on_ack(&PrrAck {
            delivered,
            pipe,
            ssthresh: ssthresh_segments * MSS,
            mss: MSS,
            safe,
        })
    }

    #[test]
    fn above_ssthresh_sends_in_proportion_to_what_is_delivered() {
        // RFC 9937 section 6, by hand: 20 segments outstanding, one lost, ssthresh 10 (Reno
        // halving). The ACK that starts recovery SACKs one segment: pipe 20 - 1 SACKed - 1
        // lost = 18 > 10, prr_delivered 1, ceil(1 * 10 / 20) - 0 = 1: the fast retransmit.
        let mut prr = Prr::start(20);
        assert_eq!(ack(&mut prr, 1, 18, 10, false), 1);
        prr.on_send();
        // Next duplicate ACK: pipe 18 (the retransmission is in flight, one more SACKed),
        // prr_delivered 2: ceil(2 * 10 / 20) - 1 = 0, nothing to send.
        assert_eq!(ack(&mut prr, 1, 18, 10, false), 0);
        // Third: prr_delivered 3: ceil(30 / 20) - 1 = 1.
        assert_eq!(ack(&mut prr, 1, 17, 10, false), 1);
        prr.on_send();
        // One segment for every two delivered, the halving spread over the round trip:
        // after 19 deliveries ceil(190 / 20) = 10 segments in all have gone.
        let mut sent = prr.out();
        for _ in 3..19 {
            let n = ack(&mut prr, 1, 16, 10, false);
            for _ in 0..n {
                prr.on_send();
            }
            sent += n;
        }
        assert_eq!(prr.delivered(), 19);
        assert_eq!(sent, 10);
    }

    #[test]
    fn at_or_below_ssthresh_the_reduction_bound_rebuilds_toward_ssthresh() {
        // Many losses took pipe below ssthresh: pipe 4, ssthresh 10.
        let mut prr = Prr::start(20);
        prr.on_send(); // the fast retransmit went earlier
                       // PRR-CRB: max(prr_delivered - prr_out, DeliveredData) = max(3 - 1, 3) = 3, within
                       // ssthresh - pipe = 6.
        assert_eq!(ack(&mut prr, 3, 4, 10, false), 3);
        for _ in 0..3 {
            prr.on_send();
        }
        // A safe ACK (the ACK point moved, no new loss) adds one segment: PRR-SSRB,
        // max(5 - 4, 2) + 1 = 3.
        assert_eq!(ack(&mut prr, 2, 7, 10, true), 3);
        // The bound: never beyond ssthresh - pipe (here 10 - 9 = 1).
        assert_eq!(ack(&mut prr, 4, 9, 10, true), 1);
        // At ssthresh nothing more.
        assert_eq!(ack(&mut prr, 4, 10, 10, true), 0);
    }

    #[test]
    fn the_first_ack_of_a_recovery_always_allows_the_fast_retransmit() {
        // A SACK-less duplicate delivering nothing, pipe far above ssthresh.
        let mut prr = Prr::start(100);
        assert_eq!(ack(&mut prr, 0, 99, 50, false), 1);
        prr.on_send();
        assert_eq!(ack(&mut prr, 0, 99, 50, false), 0);
    }
}
