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
//! Sends of several segments: Linux hands its device an skb of up to the TSO goal's segments
//! (`tcp_tso_segs`: BBR's `bbr_tso_segs_goal`, two segments above 1.2 Mbit/s, about 1 ms of
//! data above that), and GSO puts them on the wire back to back; the release time then
//! moves by the whole skb's payload over the rate (`tcp_update_skb_after_send`). With a
//! quantum of n segments ([`Pacing::set_quantum`]) a segment that leaves at its release time
//! opens a send that up to n - 1 more segments join at the same instant, each moving the
//! release time by its own payload's time. The kernel suite measured why it matters: ten BBR
//! flows share a link far more evenly in Linux with its two-segment sends than held to one
//! segment per send (docs/validation.md, "The kernel suite").
//!
//! CHOICE: the quantum is the congestion control's (`CongestionControl::tso_segs`): BBR v1
//! gives Linux's TSO goal; BBR v3 (see its CHOICE in `cc/bbr.rs`), every other algorithm and
//! a window-based flow paced with `pacing = true` send one segment at a time (Linux's
//! `tcp_tso_autosize` would give them two as well; their sends are clocked by ACKs that
//! already release two segments at once with delayed ACKs). The pacing timer is the sender's
//! only one for it.
//! CHOICE: the credit of a late sender is computed on a send's first segment (half of that
//! segment's time at most), where Linux takes half of the whole skb's.

use ccsim_core::{Dur, SimTime};

/// Segments a connection sends before pacing applies (Linux's `data_segs_out >= 10`).
const UNPACED_SEGMENTS: u64 = 9;

/// Linux's `sysctl_tcp_pacing_ss_ratio` and `sysctl_tcp_pacing_ca_ratio`, percent.
const SLOW_START_RATIO: u64 = 200;
const AVOIDANCE_RATIO: u64 = 120;
/// `sk_pacing_shift`: Linux's TSO goal is 2^-10 s of data at the pacing rate.
const PACING_SHIFT: u32 = 10;
/// Linux's GSO limit less the TCP header room (`GSO_MAX_SIZE - 1 - MAX_TCP_HEADER`).
const TSO_MAX_BYTES: u64 = 65_536 - 1 - 320;
/// `sysctl_tcp_min_tso_segs`.
const MIN_TSO_SEGS: u64 = 2;

/// Linux's `tcp_update_pacing_rate` for a window-based flow, payload bytes per second:
/// 200 % of the window over SRTT in slow start (below half of ssthresh), 120 % otherwise.
/// `cwnd`, `ssthresh` and `packets_out` are in bytes.
#[must_use]
pub fn window_rate(cwnd: u64, ssthresh: u64, packets_out: u64, srtt: Dur) -> u64 {
    let ratio = if cwnd < ssthresh / 2 {
        SLOW_START_RATIO
    } else {
        AVOIDANCE_RATIO
    };
    let window = u128::from(cwnd.max(packets_out));
    let rate = window * u128::from(ratio) * 10_000_000 / u128::from(srtt.0.max(1));
    u64::try_from(rate).unwrap_or(u64::MAX)
}

/// Linux's `tcp_tso_autosize` with `tcp_min_tso_segs`: the segments of one send (skb) at
/// pacing rate `rate` (payload bytes per second), about 1 ms of data and at least two.
/// CHOICE: without the small-RTT allowance of `sysctl_tcp_tso_rtt_log` (Linux 5.18), which
/// adds to the goal only below 16 ms of minimum RTT; BBR's goal (`cc/bbr.rs`) omits it too.
#[must_use]
pub fn tso_autosize(rate: u64, mss: u64) -> u64 {
    let bytes = (rate >> PACING_SHIFT).min(TSO_MAX_BYTES);
    (bytes / mss.max(1)).max(MIN_TSO_SEGS)
}

/// A flow's pacer.
#[derive(Clone, Debug, Default)]
pub struct Pacing {
    /// Payload bytes per second; 0 until a rate is set.
    rate: u64,
    /// Earliest departure time of the next segment (`tcp_wstamp_ns`).
    next_release: SimTime,
    /// Data segments sent (`data_segs_out`).
    segments_out: u64,
    /// Segments per send (the TSO goal); 0 or 1: one at a time.
    quantum: u64,
    /// Segments that may still join the send opened at `send_at`.
    joinable: u64,
    /// When the current send was opened.
    send_at: SimTime,
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

    /// Segments per send: up to `segments` leave back to back at one release time.
    pub fn set_quantum(&mut self, segments: u64) {
        self.quantum = segments;
    }

    /// Segments per send (at least 1).
    #[must_use]
    pub fn quantum(&self) -> u64 {
        self.quantum.max(1)
    }

    /// Linux's `tcp_update_pacing_rate` for a window-based flow.
    pub fn set_window_rate(&mut self, cwnd: u64, ssthresh: u64, packets_out: u64, srtt: Dur) {
        self.rate = window_rate(cwnd, ssthresh, packets_out, srtt);
    }

    /// The earliest departure time of the next segment.
    #[must_use]
    pub fn next_release(&self) -> SimTime {
        self.next_release
    }

    /// Whether a segment may leave now: its release time has come, or it joins the send
    /// opened at this instant.
    #[must_use]
    pub fn may_send(&self, now: SimTime) -> bool {
        self.next_release <= now || self.joins(now)
    }

    fn joins(&self, now: SimTime) -> bool {
        self.joinable > 0 && self.send_at == now
    }

    /// A data segment of `payload` bytes left now.
    pub fn on_send(&mut self, now: SimTime, payload: u32) {
        let joins = self.joins(now);
        let prior = self.next_release;
        let release = if joins { prior } else { prior.max(now) };
        self.segments_out += 1;
        let mut next = release;
        if self.rate > 0 && self.segments_out > UNPACED_SEGMENTS {
            let len_ns = u128::from(payload) * 1_000_000_000 / u128::from(self.rate);
            let len_ns = u64::try_from(len_ns).unwrap_or(u64::MAX / 4);
            let credit = if joins { 0 } else { release.0 - prior.0 };
            next = SimTime(release.0 + len_ns - (len_ns / 2).min(credit));
        }
        self.next_release = next;
        if joins {
            self.joinable -= 1;
        } else {
            self.joinable = self.quantum() - 1;
            self.send_at = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tcp_tso_autosize` by hand: `sk_pacing_rate >> 10` bytes, in whole segments, at least
    /// `tcp_min_tso_segs` (2) and at most the GSO limit's.
    #[test]
    fn the_tso_goal_is_a_millisecond_of_data_at_least_two_segments() {
        assert_eq!(tso_autosize(0, 1448), 2);
        assert_eq!(tso_autosize(1_250_000, 1448), 2); // 10 Mbit/s: 1220 B per 2^-10 s
        assert_eq!(tso_autosize(12_500_000, 1448), 8); // 100 Mbit/s: 12207 B
        assert_eq!(tso_autosize(u64::MAX, 1448), 45); // 65215 B, the GSO limit

        // 120 % of 45 segments over 90 ms, the kernel capture's long flow: two.
        let rate = window_rate(45 * 1448, 0, 0, Dur::from_millis(90));
        assert_eq!(rate, 868_800);
        assert_eq!(tso_autosize(rate, 1448), 2);
    }

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

    /// With a quantum of two, segments leave in pairs at one release time, and the release
    /// time moves by both segments' time: the same rate, in sends of two (Linux's skb of the
    /// TSO goal's segments).
    #[test]
    fn a_quantum_of_two_sends_pairs_at_the_same_rate() {
        let mut p = Pacing::default();
        p.set_rate(1_000_000);
        p.set_quantum(2);
        for _ in 0..UNPACED_SEGMENTS {
            p.on_send(SimTime(0), 1000);
        }
        // From 1 ns on (the unpaced segments' own send at 0 would take one more).
        let mut sent = Vec::new();
        let mut now = SimTime(1);
        while sent.len() < 6 {
            if p.may_send(now) {
                p.on_send(now, 1000);
                sent.push(now.0);
            } else {
                now = p.next_release();
            }
        }
        // The first send is 1 ns late and gets that 1 ns of credit back.
        assert_eq!(sent, [1, 1, 2_000_000, 2_000_000, 4_000_000, 4_000_000]);
        // A segment that comes later than its send's instant opens a send of its own.
        let mut q = Pacing::default();
        q.set_rate(1_000_000);
        q.set_quantum(2);
        for _ in 0..=UNPACED_SEGMENTS {
            q.on_send(SimTime(0), 1000);
        }
        assert!(
            !q.may_send(SimTime(1)),
            "the pair's second segment only at the same instant"
        );
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
