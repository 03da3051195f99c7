//! TCP Vegas as ns-2 runs it (`Agent/TCP/Vegas`, tcp/tcp-vegas.cc of ns-2.35, unchanged in
//! its algorithm since the 1997 port of USC's NetBSD Vegas): the window half. The loss half
//! (Reno-style fast recovery, the fine-grained retransmission check on duplicate ACKs and on
//! the first two ACKs after a retransmission) is the sender's `Recovery::VegasNs2`
//! (`sender/vegas_ns2.rs`), which reads this module's fine-grained timer.
//!
//! Where it differs from [`super::Vegas`] (Brakmo's algorithm as Linux and ns-3 carry it):
//! - Once per round (when the ACK reaches the first segment sent after the previous round
//!   ended), with `rttLen` the segments sent in the round that just ended:
//!   RTT = the mean of the round's fine-grained samples (else the round's duration);
//!   BaseRTT = RTT whenever RTT < BaseRTT **or rttLen <= 1** (a round with at most one segment
//!   in transit measures the path afresh: BaseRTT is not the connection's minimum forever);
//!   delta = round((segments outstanding + 1) / BaseRTT - rttLen / RTT) * BaseRTT).
//! - Slow start alternates a holding round and a growing round (one segment per ACK); a
//!   growing round with delta > gamma instead cuts cwnd by an eighth and sets ssthresh = 2.
//! - Congestion avoidance: delta > beta takes one segment off at once; delta < alpha grows
//!   by 1/cwnd per ACK through the next round. Growth waits while cwnd exceeds what is in
//!   flight by more than two segments.
//! - A timeout leaves cwnd at 2 segments (`v_slowstart_`) and ssthresh at half the window.
//! - Fine-grained timer: v_sa, v_sd as BSD's srtt x8 and mdev x4 in seconds, v_timeout =
//!   ((v_sa / 4) + v_sd) / 2 plus a sixteenth; at a fast retransmit it grows by an eighth,
//!   or doubles if the segment had been retransmitted before.
//!
//! CHOICE: ns-2 starts its fine-grained estimator from the absolute time of the first ACK
//! (`firstrecv_`), which is the first RTT for a flow started at time 0; here it starts from
//! the first RTT sample, the same for such a flow and sensible for one started later. The
//! first round likewise ends on the first ACK with that sample as its RTT.
//! CHOICE: ns-2's window is a float in segments; here it is bytes, so 1/cwnd per ACK is
//! mss * mss / cwnd bytes, rounded down.

use ccsim_core::{Dur, SimTime};

use super::vegas::VegasParams;
use super::{AckEvent, CongestionControl, Window};

/// `s` seconds as a duration, rounded down to the nanosecond.
fn seconds(s: f64) -> Dur {
    // Finite and non-negative by construction; `as` saturates otherwise.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Dur((s * 1e9) as u64)
}

/// ns-2 Vegas's window state and fine-grained timer.
#[derive(Clone, Debug)]
pub struct VegasNs2 {
    params: VegasParams,
    /// BaseRTT, seconds (`v_baseRTT_`); infinite before the first sample.
    base_rtt: f64,
    /// The round ends when the ACK point passes this segment (`v_begseq_`).
    round_begin_seq: u64,
    /// When the round began (`v_begtime_`), if it has.
    round_begin_time: Option<SimTime>,
    /// Fine-grained samples of the round (`v_sumRTT_`, `v_cntRTT_`).
    round_sum: f64,
    round_count: u32,
    /// This ACK's sample, folded into the round after the round's decision, as ns-2 orders it.
    pending_sample: Option<f64>,
    /// The increment per ACK until the next round (`v_incr_`): one segment in a growing
    /// slow-start round, 1/cwnd of the round's end in congestion avoidance; bytes.
    increment: u64,
    /// Whether `increment` is slow start's whole segment (`v_incr_ == 1`).
    increment_is_segment: bool,
    /// Slow start: whether the coming round grows (`v_inc_flag_`).
    grow_flag: bool,
    /// Fine-grained estimator, seconds (`v_sa_`, `v_sd_`, `v_timeout_`).
    sa: f64,
    sd: f64,
    timeout: f64,
    /// The window a fast retransmit reduced to, bytes (`v_newcwnd_`).
    reduced_window: u64,
    /// When the window was last reduced (`t_cwnd_changed_`).
    window_changed_at: Option<SimTime>,
    /// The last per-round delta, segments (NaN before the first round).
    last_delta: f64,
}

impl VegasNs2 {
    /// ns-2 Vegas with `params` (alpha, beta, gamma).
    #[must_use]
    pub fn new(params: VegasParams) -> Self {
        VegasNs2 {
            params,
            base_rtt: f64::INFINITY,
            round_begin_seq: 0,
            round_begin_time: None,
            round_sum: 0.0,
            round_count: 0,
            pending_sample: None,
            increment: 0,
            increment_is_segment: false,
            grow_flag: true,
            sa: 0.0,
            sd: 0.0,
            timeout: f64::INFINITY,
            reduced_window: 0,
            window_changed_at: None,
            last_delta: f64::NAN,
        }
    }

    /// BaseRTT, if measured.
    #[must_use]
    pub fn base_rtt(&self) -> Option<Dur> {
        self.base_rtt.is_finite().then(|| seconds(self.base_rtt))
    }

    /// The last per-round delta, segments.
    #[must_use]
    pub fn last_delta(&self) -> f64 {
        self.last_delta
    }

    /// The fine-grained timeout (`v_timeout_`), once an RTT has been measured.
    #[must_use]
    pub fn fine_timeout(&self) -> Option<Dur> {
        self.timeout.is_finite().then(|| seconds(self.timeout))
    }

    /// Whether a segment sent at `sent` has outlived the fine-grained timer at `now`
    /// (`vegas_expire`).
    #[must_use]
    pub fn expired(&self, sent: SimTime, now: SimTime) -> bool {
        self.timeout.is_finite() && (now - sent).as_secs_f64() >= self.timeout
    }

    /// A fast retransmit of a segment sent at `sent`, retransmitted before if
    /// `retransmitted_before`, on the `dupacks`-th duplicate: backs the fine-grained timer off
    /// and, unless the window was already reduced after the segment left, reduces it (by a
    /// quarter, by half for a segment already retransmitted, to 2 segments from 3 or fewer)
    /// and inflates it by the duplicates. The window cut is ns-2's `window()`, the smaller of
    /// cwnd and the receiver's window of `max_window` segments. Returns whether it reduced.
    pub fn fast_retransmit(
        &mut self,
        w: &mut Window,
        max_window: u64,
        sent: SimTime,
        retransmitted_before: bool,
        dupacks: u32,
        now: SimTime,
    ) -> bool {
        if retransmitted_before {
            self.timeout *= 2.0;
        } else {
            self.timeout += self.timeout / 8.0;
        }
        if self.window_changed_at.is_some_and(|t| t >= sent) {
            return false;
        }
        let win = (w.cwnd / w.mss).min(max_window);
        let reduced = if win <= 3 {
            2
        } else if retransmitted_before {
            win / 2
        } else {
            win - win / 4
        };
        self.reduced_window = reduced * w.mss;
        w.cwnd = self.reduced_window + u64::from(dupacks) * w.mss;
        self.window_changed_at = Some(now);
        true
    }

    /// The first ACK of new data after a fast retransmit's inflation: back to the reduced
    /// window, and out of slow start for good (ns-2 sets ssthresh = 2).
    /// CHOICE: not after a timeout, where ns-2's `v_newcwnd_` is 0 and its deflation would
    /// leave a window of 0 segments.
    pub fn deflate(&mut self, w: &mut Window) {
        if self.reduced_window > 0 && w.cwnd > self.reduced_window {
            w.cwnd = self.reduced_window;
            w.ssthresh = 2 * w.mss;
        }
    }

    /// A retransmission timeout at `now`: cwnd 2 segments, ssthresh half the window before
    /// (`slowdown(CLOSE_SSTHRESH_HALF)`: half of `window()`, the smaller of cwnd and the
    /// receiver's `max_window` segments).
    pub fn timeout(&mut self, w: &mut Window, window_before: u64, max_window: u64, now: SimTime) {
        w.ssthresh = ((window_before / w.mss).min(max_window) / 2).max(2) * w.mss;
        w.cwnd = 2 * w.mss;
        self.reduced_window = 0;
        self.window_changed_at = Some(now);
    }

    fn fold_pending(&mut self) {
        if let Some(rtt) = self.pending_sample.take() {
            self.round_sum += rtt;
            self.round_count += 1;
        }
    }

    /// The once-per-round decision, at the ACK that reaches the round's first segment.
    fn end_of_round(&mut self, w: &mut Window, ack: &AckEvent) {
        let rtt = if self.round_count > 0 {
            self.round_sum / f64::from(self.round_count)
        } else if let Some(begun) = self.round_begin_time {
            (ack.now - begun).as_secs_f64()
        } else {
            self.pending_sample.unwrap_or(0.0)
        };
        self.round_sum = 0.0;
        self.round_count = 0;
        // Segments sent in the round that just ended: t_seqno_ - v_begseq_.
        let rtt_len = ack.snd_nxt.saturating_sub(self.round_begin_seq);
        if rtt > 0.0 {
            if rtt < self.base_rtt || rtt_len <= 1 {
                self.base_rtt = rtt;
            }
            let actual = rtt_len as f64 / rtt;
            // t_seqno_ - last_ack_: outstanding segments plus one (ns-2's last_ack_ is the
            // highest segment acknowledged, this ACK point less one).
            let expect = (ack.snd_nxt + 1).saturating_sub(ack.snd_una) as f64 / self.base_rtt;
            // C's int() truncates toward zero.
            let delta = ((expect - actual) * self.base_rtt + 0.5).trunc();
            self.last_delta = delta;
            self.increment_is_segment = false;
            self.increment = 0;
            if w.in_slow_start() {
                self.grow_flag = !self.grow_flag;
                if self.grow_flag && delta > self.params.gamma {
                    w.ssthresh = 2 * w.mss;
                    w.cwnd = (w.cwnd - w.cwnd / 8).max(2 * w.mss);
                } else if self.grow_flag {
                    self.increment_is_segment = true;
                    self.increment = w.mss;
                }
            } else if delta > self.params.beta {
                w.cwnd = w.cwnd.saturating_sub(w.mss).max(2 * w.mss);
            } else if delta < self.params.alpha {
                // 1/cwnd segments, fixed for the round as ns-2's v_incr_.
                self.increment = w.mss * w.mss / w.cwnd.max(1);
            }
        }
        self.round_begin_seq = ack.snd_nxt;
        self.round_begin_time = Some(ack.now);
    }
}

impl CongestionControl for VegasNs2 {
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        // ns-2's seqno (the highest segment acknowledged) >= v_begseq_.
        if ack.snd_una > self.round_begin_seq {
            self.end_of_round(w, ack);
        }
        self.fold_pending();
        if self.increment_is_segment && w.cwnd >= w.ssthresh {
            self.increment_is_segment = false;
            self.increment = 0;
        }
        // Grow only while the window is in use: cwnd - (t_seqno_ - last_ack_) <= 2.
        let in_use = (ack.snd_nxt + 1).saturating_sub(ack.snd_una);
        if self.increment > 0 && w.cwnd <= (in_use + 2) * w.mss {
            w.cwnd += self.increment;
        }
    }

    /// The sender's RFC 5681 halving is not used by this variant's fast retransmit; a
    /// timeout takes half the window ([`VegasNs2::timeout`]).
    fn ssthresh(&mut self, w: &Window) -> u64 {
        (w.cwnd / w.mss / 2).max(2) * w.mss
    }

    fn on_rtt(&mut self, rtt: Dur, _now: SimTime) {
        self.fold_pending();
        let r = rtt.as_secs_f64();
        if r <= 0.0 {
            return;
        }
        if !self.timeout.is_finite() {
            // ns-2's first ACK: v_sa = 8 rtt, v_sd = rtt.
            self.base_rtt = r;
            self.sa = 8.0 * r;
            self.sd = r;
            self.timeout = ((self.sa / 4.0) + self.sd) / 2.0;
        }
        self.pending_sample = Some(r);
        if r < self.base_rtt {
            self.base_rtt = r;
        }
        let mut n = r - self.sa / 8.0;
        self.sa += n;
        n = n.abs() - self.sd / 4.0;
        self.sd += n;
        self.timeout = ((self.sa / 4.0) + self.sd) / 2.0;
        self.timeout += self.timeout / 16.0;
    }
}
