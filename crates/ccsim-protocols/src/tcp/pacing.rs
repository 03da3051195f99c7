//! Pacing for every TCP sender: a rate and a release time per flow, as Linux's TCP paces
//! (earliest departure time: `tcp_update_skb_after_send`, and `tcp_pacing_check` with one
//! timer per socket).
//!
//! After each data segment the next release moves `payload / rate` past the later of the
//! previous release and now; a sender that was late (the release lay in the past) gets up to
//! half a segment's time of credit back. A segment may leave when its release time has
//! come; otherwise the sender arms its pacing timer for it. Several segments whose release
//! times have all passed leave in the same event, so the cost is one timer event per release
//! instant, not per segment.
//!
//! The rate comes from the congestion control that asks for it (BBR's pacing gain times its
//! bandwidth estimate; Prague's) or, with `pacing = true` on a window-based flow, Linux's
//! `tcp_update_pacing_rate`: 200 % of cwnd / SRTT in slow start (below half of ssthresh),
//! 120 % otherwise.
//!
//! CHOICE: as Linux (`data_segs_out >= 10`), the first nine data segments of a connection
//! are not paced.
//! CHOICE: the release interval counts the segment's payload, as Linux's `skb->len` there;
//! rates are in payload bytes per second, the unit BBR's estimate is in.
//! CHOICE: segments leave one at a time at their release times (no TSO bursts); the pacing
//! timer is the sender's only one for it. Linux sends its TSO goal at once (two segments back
//! to back for BBR above 1.2 Mbit/s), and with ten BBR flows that makes its flows share more
//! evenly than they do one segment at a time (docs/validation.md, "The kernel suite").

use ccsim_core::{Dur, SimTime};

/// Segments a connection sends before pacing applies (Linux's `data_segs_out >= 10`).
const UNPACED_SEGMENTS: u64 = 9;

/// Linux's `sysctl_tcp_pacing_ss_ratio` and `sysctl_tcp_pacing_ca_ratio`, percent.
const SLOW_START_RATIO: u64 = 200;
const AVOIDANCE_RATIO: u64 = 120;

/// A flow's pacer.
#[derive(Clone, Debug, Default)]
pub struct Pacing {
    /// Payload bytes per second; 0 until a rate is set.
    rate: u64,
    /// Earliest departure time of the next segment (`tcp_wstamp_ns`).
    next_release: SimTime,
    /// Data segments sent (`data_segs_out`).
    segments_out: u64,
    /// Whether the pacing timer is armed.
    pub armed: bool,
}

impl Pacing {
    /// The rate, payload bytes per second (0: none yet).
    #[must_use]
    pub fn rate(&self) -> u64 {
        self.rate
    }

    /// Set the rate (payload bytes per second).
    pub fn set_rate(&mut self, bytes_per_sec: u64) {
        self.rate = bytes_per_sec;
    }

    /// Linux's `tcp_update_pacing_rate` for a window-based flow.
    pub fn set_window_rate(&mut self, cwnd: u64, ssthresh: u64, packets_out: u64, srtt: Dur) {
        let ratio = if cwnd < ssthresh / 2 {
            SLOW_START_RATIO
        } else {
            AVOIDANCE_RATIO
        };
        let window = u128::from(cwnd.max(packets_out));
        let rate = window * u128::from(ratio) * 10_000_000 / u128::from(srtt.0.max(1));
        self.rate = u64::try_from(rate).unwrap_or(u64::MAX);
    }

    /// The earliest departure time of the next segment.
    #[must_use]
    pub fn next_release(&self) -> SimTime {
        self.next_release
    }

    /// Whether a segment may leave now.
    #[must_use]
    pub fn may_send(&self, now: SimTime) -> bool {
        self.next_release <= now
    }

    /// A data segment of `payload` bytes left now.
    pub fn on_send(&mut self, now: SimTime, payload: u32) {
        let prior = self.next_release;
        let release = prior.max(now);
        self.segments_out += 1;
        let mut next = release;
        if self.rate > 0 && self.segments_out > UNPACED_SEGMENTS {
            let len_ns = u128::from(payload) * 1_000_000_000 / u128::from(self.rate);
            let len_ns = u64::try_from(len_ns).unwrap_or(u64::MAX / 4);
            let credit = release.0 - prior.0;
            next = SimTime(release.0 + len_ns - (len_ns / 2).min(credit));
        }
        self.next_release = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past the unpaced start, segments sent back to back are spaced payload / rate apart.
    #[test]
    fn releases_are_spaced_at_the_rate() {
        let mut p = Pacing::default();
        p.set_rate(1_000_000); // 1 MB/s: 1000 bytes per ms
        let now = SimTime(0);
        for _ in 0..UNPACED_SEGMENTS {
            assert!(p.may_send(now));
            p.on_send(now, 1000);
        }
        assert!(p.may_send(now));
        p.on_send(now, 1000);
        assert_eq!(p.next_release(), SimTime(1_000_000));
        assert!(!p.may_send(SimTime(999_999)));
        p.on_send(SimTime(1_000_000), 1000);
        assert_eq!(p.next_release(), SimTime(2_000_000));
    }

    /// A sender that comes back late gets at most half a segment's time of credit.
    #[test]
    fn lateness_credit_is_at_most_half_a_segment() {
        let mut p = Pacing::default();
        p.set_rate(1_000_000);
        for _ in 0..=UNPACED_SEGMENTS {
            p.on_send(SimTime(0), 1000);
        }
        // Released at 1 ms; the sender sends at 5 ms: next at 5 ms + 1 ms - 0.5 ms.
        p.on_send(SimTime(5_000_000), 1000);
        assert_eq!(p.next_release(), SimTime(5_500_000));
    }

    /// Linux's default rate: 2 cwnd / SRTT in slow start, 1.2 cwnd / SRTT after.
    #[test]
    fn window_rate_follows_linux_ratios() {
        let mut p = Pacing::default();
        p.set_window_rate(10_000, u64::MAX, 0, Dur::from_millis(100));
        assert_eq!(p.rate(), 200_000);
        p.set_window_rate(10_000, 10_000, 0, Dur::from_millis(100));
        assert_eq!(p.rate(), 120_000);
    }
}
