//! RACK (RFC 8985 section 6): loss detection by time, not by count. A segment is lost when a
//! segment sent after it has been delivered and more than RACK.rtt + RACK.reo_wnd has passed
//! since it was sent; the reordering window grows with D-SACKs (RFC 2883) that show a loss
//! was only reordering. The tail loss probe (section 7) lives in the sender, which owns the
//! timers; this module keeps RACK's state and the time-ordered view of sent segments.
//!
//! The time-ordered view is a log of (send time, segment) appended on every transmission;
//! an entry is stale once its segment is acknowledged, SACKed or sent again (the caller says
//! which, [`SegState`]), and stale entries are dropped from the front as the walk meets them,
//! so the walk in [`Rack::detect_loss`] starts at the oldest segment still outstanding and
//! stops at the first one sent after RACK.xmit_ts, as Linux's `tcp_rack_detect_loss` does over
//! its `tsorted_sent_queue`.
//!
//! CHOICE: RACK.min_RTT is the least RTT RACK has measured on the connection (Linux keeps a
//! windowed minimum over 5 minutes; runs here are rarely longer).
//! CHOICE: without timestamps, an ACK of a retransmitted segment updates RACK only if its
//! RTT is at least min_RTT (RFC 8985 section 6.2 step 2, the fallback when the timestamp
//! option is not in use).

use std::collections::VecDeque;

use ccsim_core::{Dur, SimTime};

/// What the sender knows of a segment the log names, at the time of the log entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegState {
    /// Acknowledged, SACKed, or sent again since this entry (which is then stale).
    Gone,
    /// Marked lost and not yet retransmitted.
    Lost,
    /// Outstanding, not marked lost.
    Outstanding,
}

/// RFC 8985's `RACK_sent_after`: whether (t1, seq1) was sent after (t2, seq2).
fn sent_after(t1: SimTime, seq1: u64, t2: SimTime, seq2: u64) -> bool {
    t1 > t2 || (t1 == t2 && seq1 > seq2)
}

/// RACK's per-connection state (RFC 8985 section 6.1).
#[derive(Clone, Debug)]
pub struct Rack {
    /// Send time and segment of the most recently sent segment delivered so far
    /// (RACK.xmit_ts, RACK.end_seq as a segment number).
    xmit_ts: SimTime,
    seq: Option<u64>,
    /// The RTT of that segment (RACK.rtt).
    rtt: Dur,
    min_rtt: Option<Dur>,
    /// One past the highest segment delivered (RACK.fack), and its value before the ACK
    /// being processed (Linux's `prior_fack`).
    fack: u64,
    prior_fack: u64,
    reordering_seen: bool,
    reo_wnd_mult: u32,
    reo_wnd_persist: u32,
    /// D-SACK rounds: no further growth of the window until the ACK point passes this.
    dsack_round: Option<u64>,
    /// Sends in time order; see the module docs.
    log: VecDeque<(SimTime, u64)>,
    /// Segments the last [`Rack::detect_loss`] marked lost.
    lost: Vec<u64>,
    /// DupThresh: with this many segments SACKed and no reordering seen, reo_wnd is 0.
    dupthresh: u64,
}

impl Default for Rack {
    fn default() -> Self {
        Rack {
            xmit_ts: SimTime::ZERO,
            seq: None,
            rtt: Dur::ZERO,
            min_rtt: None,
            fack: 0,
            prior_fack: 0,
            reordering_seen: false,
            reo_wnd_mult: 1,
            reo_wnd_persist: 0,
            dsack_round: None,
            log: VecDeque::new(),
            lost: Vec::new(),
            dupthresh: 3,
        }
    }
}

/// RFC 8985 section 6.2: the reordering window is held this many recoveries after a
/// D-SACK grew it.
const REO_WND_PERSIST: u32 = 16;

impl Rack {
    /// RACK for a sender whose DupThresh is `dupthresh`.
    #[must_use]
    pub fn new(dupthresh: u32) -> Self {
        Rack {
            dupthresh: u64::from(dupthresh),
            ..Rack::default()
        }
    }

    /// Segment `seq` was (re)transmitted at `now`.
    pub fn on_send(&mut self, seq: u64, now: SimTime) {
        self.log.push_back((now, seq));
    }

    /// An ACK arrives: what it delivers is compared with the highest segment delivered
    /// before it, so the order in which its segments are handed over does not matter.
    pub fn begin_ack(&mut self) {
        self.prior_fack = self.fack;
    }

    /// RFC 8985 section 6.2 steps 2 and 3 for one segment the current ACK newly delivers
    /// (acknowledged cumulatively or SACKed), after [`Rack::begin_ack`].
    pub fn on_delivered(&mut self, seq: u64, xmit_ts: SimTime, retransmitted: bool, now: SimTime) {
        // Step 3, RACK_detect_reordering: a segment never retransmitted, delivered below the
        // highest one delivered by earlier ACKs, arrived out of order (Linux compares with
        // `prior_fack`: a delayed ACK that covers in-order data and SACKs a later segment
        // is not reordering).
        if seq + 1 < self.prior_fack && !retransmitted {
            self.reordering_seen = true;
        }
        self.fack = self.fack.max(seq + 1);
        // Step 2, RACK_update.
        let rtt = now - xmit_ts;
        if retransmitted && self.min_rtt.is_some_and(|m| rtt < m) {
            return; // possibly the ACK of the original transmission
        }
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
        if self
            .seq
            .is_none_or(|s| sent_after(xmit_ts, seq, self.xmit_ts, s))
        {
            self.rtt = rtt;
            self.xmit_ts = xmit_ts;
            self.seq = Some(seq);
        }
    }

    /// Whether reordering has been seen on the connection.
    #[cfg(test)]
    #[must_use]
    pub fn reordering_seen(&self) -> bool {
        self.reordering_seen
    }

    /// The reordering window multiplier (grown by D-SACK rounds).
    #[cfg(test)]
    #[must_use]
    pub fn reo_wnd_mult(&self) -> u32 {
        self.reo_wnd_mult
    }

    /// A fast or RTO recovery ended (RFC 8985 section 6.2 step 4, the persistence count).
    pub fn on_recovery_end(&mut self) {
        self.reo_wnd_persist = self.reo_wnd_persist.saturating_sub(1);
        if self.reo_wnd_persist == 0 {
            self.reo_wnd_mult = 1;
        }
    }

    /// RFC 8985 section 6.2 step 4, `RACK_update_reo_wnd`, for an ACK: `dsack` whether it
    /// carried a D-SACK, `snd_una` and `snd_nxt` after it, `in_recovery` whether the sender
    /// is in fast or RTO recovery, `sacked` the segments SACKed, `srtt` the smoothed RTT.
    pub fn reo_wnd(
        &mut self,
        dsack: bool,
        snd_una: u64,
        snd_nxt: u64,
        in_recovery: bool,
        sacked: u64,
        srtt: Dur,
    ) -> Dur {
        if self.dsack_round.is_some_and(|r| snd_una >= r) {
            self.dsack_round = None;
        }
        if self.dsack_round.is_none() && dsack {
            self.dsack_round = Some(snd_nxt);
            self.reo_wnd_mult += 1;
            self.reo_wnd_persist = REO_WND_PERSIST;
        }
        if !self.reordering_seen && (in_recovery || sacked >= self.dupthresh) {
            return Dur::ZERO;
        }
        let min_rtt = self.min_rtt.unwrap_or(Dur::ZERO);
        Dur((min_rtt.0 / 4).saturating_mul(u64::from(self.reo_wnd_mult))).min(srtt)
    }

    /// RFC 8985 section 6.2 step 5, `RACK_detect_loss`: walk the outstanding segments in
    /// send order up to RACK.xmit_ts, marking lost those sent more than RACK.rtt + `reo_wnd`
    /// ago; `state` says what each logged segment is now. Returns the segments newly lost
    /// (in send order) and, if some are not yet due, the time until the first is.
    pub fn detect_loss(
        &mut self,
        now: SimTime,
        reo_wnd: Dur,
        state: impl Fn(u64, SimTime) -> SegState,
    ) -> (&[u64], Option<Dur>) {
        self.lost.clear();
        let Some(rack_seq) = self.seq else {
            return (&self.lost, None);
        };
        while let Some(&(t, seq)) = self.log.front() {
            if state(seq, t) != SegState::Gone {
                break;
            }
            self.log.pop_front();
        }
        let mut timeout: Option<Dur> = None;
        for &(t, seq) in &self.log {
            if sent_after(t, seq, self.xmit_ts, rack_seq) {
                break;
            }
            if state(seq, t) != SegState::Outstanding {
                continue;
            }
            let due = t + self.rtt + reo_wnd;
            if due <= now {
                self.lost.push(seq);
            } else {
                let remaining = due - now;
                timeout = Some(timeout.map_or(remaining, |r| r.max(remaining)));
            }
        }
        (&self.lost, timeout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> SimTime {
        SimTime::ZERO + Dur::from_millis(x)
    }

    /// Segments 0..n sent 1 ms apart from t = 0; `delivered` are gone.
    fn sent(n: u64) -> Rack {
        let mut r = Rack::default();
        for seq in 0..n {
            r.on_send(seq, ms(seq));
        }
        r
    }

    #[test]
    fn a_segment_is_lost_by_time_once_a_later_one_is_delivered() {
        // RFC 8985 section 6.2 by hand: 0..5 sent at 0..4 ms, RTT 100 ms. Segment 3 (sent
        // at 3 ms) is SACKed at 103 ms: RACK.rtt = 100 ms, RACK.xmit_ts = 3 ms. With no
        // reordering seen but fewer than DupThresh SACKed, reo_wnd = min_RTT / 4 = 25 ms.
        let mut r = sent(5);
        r.begin_ack();
        r.on_delivered(3, ms(3), false, ms(103));
        let reo = r.reo_wnd(false, 0, 5, false, 1, Dur::from_millis(100));
        assert_eq!(reo, Dur::from_millis(25));
        let gone = |seq: u64, _t: SimTime| {
            if seq == 3 {
                SegState::Gone
            } else {
                SegState::Outstanding
            }
        };
        // At 103 ms none is due: segment 0 is due at 0 + 100 + 25 = 125 ms, 2 at 127 ms; the
        // timer covers the last of them (4 is sent after RACK.xmit_ts and not considered).
        let (lost, timeout) = r.detect_loss(ms(103), reo, gone);
        assert!(lost.is_empty());
        assert_eq!(timeout, Some(Dur::from_millis(24)));
        // At 125 ms segment 0 is lost (by time: only one segment was SACKed above it);
        // 1 and 2 are due 1 and 2 ms later.
        let (lost, timeout) = r.detect_loss(ms(125), reo, gone);
        assert_eq!(lost, &[0]);
        assert_eq!(timeout, Some(Dur::from_millis(2)));
    }

    #[test]
    fn reordering_is_tolerated_within_the_window_and_detected() {
        // Segment 1 arrives after 2 (reordered by 5 ms): SACK of 2 first, then 1.
        let mut r = sent(4);
        r.begin_ack();
        r.on_delivered(2, ms(2), false, ms(102));
        assert!(!r.reordering_seen());
        let reo = r.reo_wnd(false, 0, 4, false, 1, Dur::from_millis(100));
        let state = |seq: u64, _t: SimTime| match seq {
            0 | 2 => SegState::Gone,
            _ => SegState::Outstanding,
        };
        // At 104 ms (1 was sent at 1 ms, due at 126 ms) nothing is lost.
        let (lost, _) = r.detect_loss(ms(104), reo, state);
        assert!(lost.is_empty());
        // 1 is delivered now, below RACK.fack and never retransmitted: reordering.
        r.begin_ack();
        r.on_delivered(1, ms(1), false, ms(107));
        assert!(r.reordering_seen());
        // From now on the window stays min_RTT / 4 even with DupThresh segments SACKed or
        // in recovery (min_RTT is 100 ms: the reordered segment's 106 ms is not less).
        let reo = r.reo_wnd(false, 3, 4, true, 5, Dur::from_millis(100));
        assert_eq!(reo, Dur::from_millis(25));
    }

    #[test]
    fn without_reordering_the_window_closes_in_recovery_or_with_dupthresh_sacked() {
        let mut r = sent(4);
        r.begin_ack();
        r.on_delivered(3, ms(3), false, ms(103));
        let srtt = Dur::from_millis(100);
        assert_eq!(r.reo_wnd(false, 0, 4, true, 1, srtt), Dur::ZERO);
        assert_eq!(r.reo_wnd(false, 0, 4, false, 3, srtt), Dur::ZERO);
        // With reo_wnd 0 every segment sent before RACK.xmit_ts is lost at once.
        let (lost, timeout) = r.detect_loss(ms(103), Dur::ZERO, |seq, _| {
            if seq == 3 {
                SegState::Gone
            } else {
                SegState::Outstanding
            }
        });
        assert_eq!(lost, &[0, 1, 2]);
        assert_eq!(timeout, None);
    }

    #[test]
    fn a_dsack_grows_the_window_once_per_round_and_it_decays_after_16_recoveries() {
        let mut r = sent(10);
        r.begin_ack();
        r.on_delivered(1, ms(1), false, ms(101));
        r.begin_ack();
        r.on_delivered(0, ms(0), false, ms(102)); // reordering seen
        let srtt = Dur::from_secs(1);
        let w = |r: &mut Rack, dsack, una| r.reo_wnd(dsack, una, 10, false, 0, srtt);
        assert_eq!(w(&mut r, false, 2), Dur::from_millis(25));
        // A D-SACK: the multiplier grows to 2 and the round lasts until snd_una >= 10.
        assert_eq!(w(&mut r, true, 2), Dur::from_millis(50));
        assert_eq!(w(&mut r, true, 5), Dur::from_millis(50), "same round");
        assert_eq!(w(&mut r, true, 10), Dur::from_millis(75), "next round");
        // Bounded by SRTT.
        assert_eq!(
            r.reo_wnd(false, 10, 10, false, 0, Dur::from_millis(60)),
            Dur::from_millis(60)
        );
        for _ in 0..15 {
            r.on_recovery_end();
        }
        assert_eq!(r.reo_wnd_mult(), 3);
        r.on_recovery_end();
        assert_eq!(r.reo_wnd_mult(), 1);
    }

    #[test]
    fn an_ack_of_a_retransmission_faster_than_min_rtt_does_not_move_rack() {
        // The ACK may be for the original: RACK keeps the older segment's time and RTT.
        let mut r = sent(3);
        r.begin_ack();
        r.on_delivered(1, ms(1), false, ms(101));
        r.on_send(0, ms(150)); // retransmission of 0
        r.begin_ack();
        r.on_delivered(0, ms(150), true, ms(160)); // 10 ms < min_RTT 100 ms
        let (lost, _) = r.detect_loss(ms(200), Dur::ZERO, |seq, _| {
            if seq == 2 {
                SegState::Outstanding
            } else {
                SegState::Gone
            }
        });
        assert!(lost.is_empty(), "2 was sent after RACK.xmit_ts (1 ms)");
    }
}

#[cfg(test)]
mod order_tests {
    use super::*;

    #[test]
    fn a_delayed_ack_over_in_order_data_with_a_sack_above_is_not_reordering() {
        // Segment 5 arrived in order and waited for a delayed ACK, 6 was lost, 7 arrived:
        // the ACK covers 5 and SACKs 7, handed over SACK first.
        let ms = |x: u64| SimTime::ZERO + Dur::from_millis(x);
        let mut r = Rack::default();
        for seq in 0..8 {
            r.on_send(seq, ms(seq));
        }
        r.begin_ack();
        r.on_delivered(0, ms(0), false, ms(100));
        r.begin_ack();
        r.on_delivered(7, ms(7), false, ms(107));
        r.on_delivered(1, ms(1), false, ms(107));
        assert!(!r.reordering_seen());
        // The next ACK delivers 3, below 7 delivered before it, never retransmitted.
        r.begin_ack();
        r.on_delivered(3, ms(3), false, ms(110));
        assert!(r.reordering_seen());
    }
}
