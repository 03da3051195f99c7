//! TCP Vegas (Brakmo and Peterson, "TCP Vegas: End to End Congestion Avoidance on a Global
//! Internet", IEEE JSAC 13(8), 1995), sections 3.2 and 3.3.
//!
//! Once per round trip (when the ACK point passes the first segment sent in the previous
//! round), Vegas compares the expected rate cwnd/BaseRTT with the actual rate cwnd/RTT.
//! `diff = (Expected - Actual) * BaseRTT` is the number of this flow's segments queued in
//! the network. In congestion avoidance the window grows by one segment in the next round
//! when diff < alpha, shrinks by one when diff > beta, and stays otherwise. In slow start
//! the window doubles only every other round trip (it stays fixed in between so that the
//! comparison is valid) and slow start ends as soon as diff > gamma.
//!
//! The published variant followed is the one of Brakmo's own ns-2 code as carried into
//! Linux (`tcp_vegas.c`) and ns-3 (`TcpVegas`):
//! CHOICE: in congestion avoidance RTT is the minimum of the per-ACK RTT samples of the
//! last round trip (Linux, ns-3), robust to ACK noise. In slow start it is the RTT of the
//! round's distinguished segment, as in the paper's section 3.2: the first segment sent in
//! the round, whose ACK ends the round. The minimum would miss the queue that a doubling
//! round leaves behind, because the first segments of every round find it empty; the
//! distinguished segment of a holding round finds it, so slow start ends before the next
//! doubling overflows the buffer. BaseRTT is the minimum over the connection.
//! CHOICE: with fewer than three RTT samples in a round (few ACKs, e.g. delayed ACKs on a
//! small window) the round falls back to RFC 5681 growth, as Linux does.
//! CHOICE: on leaving slow start, cwnd = min(cwnd, target + 1 segment) with target =
//! cwnd * BaseRTT / RTT and ssthresh = cwnd - 1 segment (Linux); the paper does not say by
//! how much the window is reduced.
//! CHOICE: loss recovery is NewReno's and a loss halves the window (RFC 5681 equation 4);
//! the paper's fine-grained retransmission timer (section 3.1) and its 3/4 reduction are
//! not modelled. Defaults alpha = 1, beta = 3, gamma = 1 as in the paper and ns-2.

use ccsim_core::{Dur, SimTime};

use super::reno::Reno;
use super::{AckEvent, CaState, CongestionControl, Window};

/// Vegas thresholds, in segments queued in the network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VegasParams {
    /// Grow the window while fewer than `alpha` segments are queued.
    pub alpha: f64,
    /// Shrink the window while more than `beta` segments are queued.
    pub beta: f64,
    /// Leave slow start once more than `gamma` segments are queued.
    pub gamma: f64,
    /// Whose Vegas: Brakmo's as Linux and ns-3 carry it, or ns-2's `Agent/TCP/Vegas`.
    pub variant: VegasVariant,
}

/// The Vegas implementations ccsim offers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VegasVariant {
    /// This module: Brakmo's algorithm as Linux (`tcp_vegas.c`) and ns-3 run it, with
    /// NewReno loss recovery.
    #[default]
    Linux,
    /// ns-2's `Agent/TCP/Vegas` (`vegas_ns2.rs`): Reno-style recovery with the fine-grained
    /// retransmission check, BaseRTT measured afresh in rounds with one segment in transit.
    Ns2,
}

impl Default for VegasParams {
    fn default() -> Self {
        VegasParams {
            alpha: 1.0,
            beta: 3.0,
            gamma: 1.0,
            variant: VegasVariant::Linux,
        }
    }
}

/// Vegas state.
#[derive(Clone, Debug)]
pub struct Vegas {
    params: VegasParams,
    /// Smallest RTT seen on the connection, ns.
    base_rtt: u64,
    /// Smallest RTT seen in the current round, ns.
    round_min_rtt: u64,
    /// RTT samples in the current round.
    round_samples: u32,
    /// The latest RTT sample, ns (at a round's end: its distinguished segment's).
    last_rtt: u64,
    /// The round ends when the ACK point passes this segment.
    round_end: u64,
    /// Slow start: whether this round is a growing one (the other rounds hold).
    grow_this_round: bool,
    /// The last measured diff, segments (NaN before the first full round).
    last_diff: f64,
}

impl Vegas {
    /// Vegas with `params`.
    #[must_use]
    pub fn new(params: VegasParams) -> Self {
        Vegas {
            params,
            base_rtt: u64::MAX,
            round_min_rtt: u64::MAX,
            round_samples: 0,
            last_rtt: u64::MAX,
            round_end: 0,
            grow_this_round: true,
            last_diff: f64::NAN,
        }
    }

    /// BaseRTT, if measured.
    #[must_use]
    pub fn base_rtt(&self) -> Option<Dur> {
        (self.base_rtt != u64::MAX).then_some(Dur(self.base_rtt))
    }

    /// The last per-round estimate of this flow's queued segments.
    #[must_use]
    pub fn last_diff(&self) -> f64 {
        self.last_diff
    }

    fn new_round(&mut self, snd_nxt: u64) {
        self.round_end = snd_nxt;
        self.round_min_rtt = u64::MAX;
        self.round_samples = 0;
    }

    /// The once-per-round decision (sections 3.2 and 3.3).
    fn end_of_round(&mut self, w: &mut Window) {
        let rtt = if w.in_slow_start() {
            self.last_rtt.max(self.base_rtt)
        } else {
            self.round_min_rtt
        };
        let base = self.base_rtt;
        let mss = w.mss;
        // diff = cwnd * (RTT - BaseRTT) / RTT, in segments.
        let diff = (w.cwnd as f64 / mss as f64) * ((rtt - base) as f64) / rtt as f64;
        self.last_diff = diff;
        if w.in_slow_start() {
            if diff > self.params.gamma {
                let target = u64::try_from(u128::from(w.cwnd) * u128::from(base) / u128::from(rtt))
                    .expect("target window is below cwnd");
                w.cwnd = w.cwnd.min(target + mss).max(2 * mss);
                w.ssthresh = w.ssthresh.min(w.cwnd - mss).max(mss);
                self.grow_this_round = false;
            } else {
                self.grow_this_round = !self.grow_this_round;
            }
        } else if diff > self.params.beta {
            w.cwnd = w.cwnd.saturating_sub(mss).max(2 * mss);
            w.ssthresh = w.ssthresh.min(w.cwnd - mss).max(mss);
        } else if diff < self.params.alpha {
            w.cwnd += mss;
        }
    }
}

impl CongestionControl for Vegas {
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        if ack.snd_una > self.round_end {
            if self.round_samples <= 2 || self.base_rtt == u64::MAX {
                Reno::grow(w, ack.acked_segments);
            } else {
                self.end_of_round(w);
            }
            self.new_round(ack.snd_nxt);
        } else if w.in_slow_start() && self.grow_this_round && w.cwnd_limited {
            w.cwnd += (ack.acked_segments * w.mss).min(w.mss);
        }
    }

    fn on_rtt(&mut self, rtt: Dur, _now: SimTime) {
        let r = rtt.0.max(1);
        self.base_rtt = self.base_rtt.min(r);
        self.round_min_rtt = self.round_min_rtt.min(r);
        self.round_samples += 1;
        self.last_rtt = r;
    }

    fn on_rto(&mut self, _w: &mut Window) {
        self.grow_this_round = true;
    }

    fn on_state(&mut self, _w: &mut Window, state: CaState, snd_nxt: u64) {
        if matches!(state, CaState::Open | CaState::Loss) {
            self.new_round(snd_nxt);
        }
    }
}
