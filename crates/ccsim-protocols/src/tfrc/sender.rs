//! The TFRC sender (RFC 5348 section 4): a [`Pacer`] whose rate is the allowed sending rate X.
//!
//! * Initialization (4.2): X = s bytes per second (one packet per second) and the nofeedback
//!   timer at 2 seconds; X_recv_set holds the single value Infinity.
//! * On feedback (4.3): the RTT sample R_sample = (t_now - t_recvdata) - t_delay updates
//!   R = q R + (1 - q) R_sample with q = 0.9 (the first sample is taken as is); the reported
//!   X_recv joins X_recv_set, entries older than two RTTs leave it, and recv_limit =
//!   2 max(X_recv_set). The first feedback sets X to the initial rate W_init / R, W_init =
//!   min(4s, max(2s, 4380)), and tld (the time last doubled) to now. After that, with p > 0,
//!   X = max(min(X_Bps, recv_limit), s / t_mbi) with X_Bps the throughput equation and t_mbi =
//!   64 s; with p = 0, once per RTT (t_now - tld >= R), X = max(min(2X, recv_limit),
//!   W_init / R) and tld = now. The nofeedback timer is then set to max(4R, 2s / X).
//! * Nofeedback timer (4.4): with no feedback yet, or p = 0, X = max(X / 2, s / t_mbi);
//!   otherwise, with X_recv = max(X_recv_set), X_recv_set is replaced by half of the limit
//!   X_recv (if X_Bps > 2 X_recv) or X_Bps / 2 (otherwise), that limit raised to s / t_mbi,
//!   and X recomputed as on a feedback (so X falls to that limit). The timer restarts at
//!   max(4R, 2s / X).
//!
//! Every data packet carries the current R (microseconds), from which the receiver paces its
//! feedback and groups losses into loss events.
//!
//! CHOICE: s, the segment size in every formula, is the whole packet size, so that X, the
//! pacer's rate and the receiver's X_recv are all in bytes of whole packets per second and the
//! packet rate is the one the equation gives for a TCP flow with that packet size.
//! CHOICE: the sender always has data, so it is never data-limited nor idle: the data-limited
//! branches of 4.3 step (4) and the idle branches of 4.4 never apply and are left out.
//! CHOICE: the oscillation reduction of 4.5 (the X_inst adjustment from sqrt(R)) is left out,
//! as the RFC allows.
//! CHOICE: before the first RTT sample the nofeedback timer restarts after 2s / X (2 seconds
//! at the initial rate of one packet per second, the 4.2 value).
//! CHOICE: an RTT sample below one microsecond (the resolution of the header's RTT field) is
//! taken as one microsecond.
//! CHOICE: X_recv_set entries are stamped with the sender's clock when the feedback arrived;
//! the initial Infinity is stamped with the start time.
//! CHOICE: the configured `min_rate` and `max_rate` bound the pacer, not X itself; the pacer's
//! floor is at least s / t_mbi.

use std::collections::VecDeque;

use ccsim_core::{
    trace_changes, traced_values, Addr, Agent, AgentStats, Ctx, Dur, FlowId, Packet, SimTime,
    TimerSlot, VarId,
};

use super::equation::throughput;
use crate::rate::pacer::{Pacer, PacerConfig, PACE_TIMER};
use crate::rate::TfrcFeedback;
use crate::Hdr;

const TRACED: [VarId; 2] = [VarId::Rate, VarId::Srtt];

/// The timer slot of the nofeedback timer (the pacer has slot 0).
pub const NOFEEDBACK_TIMER: TimerSlot = TimerSlot(1);
/// t_mbi: the maximum back-off interval, seconds (RFC 5348 section 4.3).
pub const T_MBI: f64 = 64.0;
/// q: the weight of the old RTT estimate in the RTT average (RFC 5348 section 4.3).
pub const RTT_GAIN: f64 = 0.9;
/// The nofeedback timeout before the first RTT sample, seconds (RFC 5348 section 4.2).
pub const INITIAL_NOFEEDBACK: f64 = 2.0;
/// The smallest RTT sample, seconds.
pub const MIN_RTT: f64 = 1e-6;

/// Parameters of a TFRC sender. Rates are in bytes per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TfrcConfig {
    /// Whole-packet size s, bytes.
    pub packet_size: u32,
    /// A configured lower bound on the sending rate; 0 leaves only s / t_mbi.
    pub min_rate: f64,
    /// A configured upper bound on the sending rate (may be infinite).
    pub max_rate: f64,
}

impl Default for TfrcConfig {
    fn default() -> Self {
        TfrcConfig {
            packet_size: 1000,
            min_rate: 0.0,
            max_rate: f64::INFINITY,
        }
    }
}

/// What the last feedback or nofeedback expiry did to X (for tests and traces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateUpdate {
    /// The first feedback: X = W_init / R.
    Initial,
    /// Slow start: X doubled, bounded by recv_limit and at least W_init / R.
    SlowStart,
    /// Slow start, but less than one RTT since the last doubling: X unchanged.
    Hold,
    /// p > 0: X from the throughput equation, bounded by recv_limit.
    Equation,
    /// Nofeedback expiry without feedback or with p = 0: X halved.
    Halved,
    /// Nofeedback expiry with p > 0: X_recv_set replaced, X recomputed.
    Limited,
}

/// A TFRC sender.
#[derive(Clone, Debug)]
pub struct TfrcSender {
    pacer: Pacer,
    /// s, bytes.
    s: f64,
    /// X, the allowed sending rate, bytes per second.
    x: f64,
    /// R, seconds (`None` before the first feedback).
    r: Option<f64>,
    /// p from the last feedback.
    p: f64,
    /// X_recv_set: (time entered, rate).
    x_recv_set: VecDeque<(SimTime, f64)>,
    /// tld, the time of the last doubling in slow start.
    tld: Option<SimTime>,
    feedbacks: u64,
    nofeedback_expiries: u64,
    nofeedback_at: Option<SimTime>,
    last_update: Option<RateUpdate>,
    stopped: bool,
}

impl TfrcSender {
    /// A sender for `flow` toward `peer`; it sends nothing until started.
    #[must_use]
    pub fn new(flow: FlowId, peer: Addr, cfg: &TfrcConfig) -> Self {
        let s = f64::from(cfg.packet_size);
        TfrcSender {
            pacer: Pacer::new(
                flow,
                peer,
                PacerConfig {
                    packet_size: cfg.packet_size,
                    initial_rate: s,
                    min_rate: cfg.min_rate.max(s / T_MBI),
                    max_rate: cfg.max_rate,
                },
            ),
            s,
            x: s,
            r: None,
            p: 0.0,
            x_recv_set: VecDeque::with_capacity(8),
            tld: None,
            feedbacks: 0,
            nofeedback_expiries: 0,
            nofeedback_at: None,
            last_update: None,
            stopped: false,
        }
    }

    /// The pacer (sending rate, packets sent).
    #[must_use]
    pub fn pacer(&self) -> &Pacer {
        &self.pacer
    }
    /// The sending rate, bytes per second (X within the configured bounds).
    #[must_use]
    pub fn rate(&self) -> f64 {
        self.pacer.rate()
    }
    /// X, the allowed sending rate, bytes per second.
    #[must_use]
    pub fn allowed_rate(&self) -> f64 {
        self.x
    }
    /// R, the RTT estimate, seconds.
    #[must_use]
    pub fn rtt(&self) -> Option<f64> {
        self.r
    }
    /// p from the last feedback.
    #[must_use]
    pub fn loss_event_rate(&self) -> f64 {
        self.p
    }
    /// The rates in X_recv_set, oldest first.
    pub fn x_recv_set(&self) -> impl Iterator<Item = f64> + '_ {
        self.x_recv_set.iter().map(|&(_, x)| x)
    }
    /// recv_limit = 2 max(X_recv_set).
    #[must_use]
    pub fn recv_limit(&self) -> f64 {
        2.0 * self.x_recv_max()
    }
    /// W_init / R, the initial rate (`None` before the first RTT sample).
    #[must_use]
    pub fn initial_rate(&self) -> Option<f64> {
        let w_init = (4.0 * self.s).min((2.0 * self.s).max(4380.0));
        self.r.map(|r| w_init / r)
    }
    /// The nofeedback timeout max(4R, 2s / X), seconds.
    #[must_use]
    pub fn nofeedback_timeout(&self) -> f64 {
        let by_rate = 2.0 * self.s / self.x;
        self.r.map_or(by_rate, |r| (4.0 * r).max(by_rate))
    }
    /// When the nofeedback timer will expire.
    #[must_use]
    pub fn nofeedback_at(&self) -> Option<SimTime> {
        self.nofeedback_at
    }
    /// Feedback packets received.
    #[must_use]
    pub fn feedbacks(&self) -> u64 {
        self.feedbacks
    }
    /// Nofeedback timer expiries.
    #[must_use]
    pub fn nofeedback_expiries(&self) -> u64 {
        self.nofeedback_expiries
    }
    /// What the last feedback or expiry did to X.
    #[must_use]
    pub fn last_update(&self) -> Option<RateUpdate> {
        self.last_update
    }

    fn x_recv_max(&self) -> f64 {
        self.x_recv_set.iter().fold(0.0, |m, &(_, x)| m.max(x))
    }

    fn floor(&self) -> f64 {
        self.s / T_MBI
    }

    fn rtt_dur(&self) -> Option<Dur> {
        self.r.map(|r| Dur((r * 1e9).round() as u64))
    }

    fn x_bps(&self, r: f64) -> f64 {
        throughput(self.s, r, self.p)
    }

    fn arm_nofeedback<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let secs = self.nofeedback_timeout();
        let ns = secs * 1e9;
        let at = if ns < 1.8e19 {
            ctx.now() + Dur((ns.round() as u64).max(1))
        } else {
            SimTime::NEVER
        };
        self.nofeedback_at = Some(at);
        ctx.set_timer(NOFEEDBACK_TIMER, at);
    }

    fn apply_rate<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.pacer.set_rate(self.x, ctx);
    }

    fn on_feedback<C: Ctx<Hdr>>(&mut self, fb: &TfrcFeedback, ctx: &mut C) {
        let now = ctx.now();
        // Step 1 and 2: the RTT sample and the average.
        let sample = (now.since(fb.echo).as_secs_f64() - fb.delay.as_secs_f64()).max(MIN_RTT);
        let first = self.r.is_none();
        let r = self
            .r
            .map_or(sample, |r| RTT_GAIN * r + (1.0 - RTT_GAIN) * sample);
        self.r = Some(r);
        self.p = fb.p;
        self.feedbacks += 1;
        // Step 4: X_recv_set and recv_limit (a sender that is never data-limited).
        self.x_recv_set.push_back((now, fb.x_recv));
        let horizon = 2.0 * r;
        self.x_recv_set
            .retain(|&(at, _)| now.since(at).as_secs_f64() <= horizon);
        let recv_limit = self.recv_limit();
        let initial = self.initial_rate().unwrap_or(self.s);
        if self.p > 0.0 {
            self.x = self.x_bps(r).min(recv_limit).max(self.floor());
            self.last_update = Some(RateUpdate::Equation);
        } else if first {
            self.x = initial;
            self.tld = Some(now);
            self.last_update = Some(RateUpdate::Initial);
        } else if self.tld.is_none_or(|tld| now.since(tld).as_secs_f64() >= r) {
            self.x = (2.0 * self.x).min(recv_limit).max(initial);
            self.tld = Some(now);
            self.last_update = Some(RateUpdate::SlowStart);
        } else {
            self.last_update = Some(RateUpdate::Hold);
        }
        self.apply_rate(ctx);
        // Step 6: restart the nofeedback timer.
        self.arm_nofeedback(ctx);
    }

    fn on_nofeedback<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let now = ctx.now();
        self.nofeedback_expiries += 1;
        match self.r {
            Some(r) if self.p > 0.0 => {
                let x_recv = self.x_recv_max();
                let x_bps = self.x_bps(r);
                let limit = if x_bps > 2.0 * x_recv {
                    x_recv
                } else {
                    x_bps / 2.0
                };
                // Update_Limits(limit), then X as in step (4) of section 4.3.
                let limit = limit.max(self.floor());
                self.x_recv_set.clear();
                self.x_recv_set.push_back((now, limit / 2.0));
                self.x = x_bps.min(self.recv_limit()).max(self.floor());
                self.last_update = Some(RateUpdate::Limited);
            }
            _ => {
                self.x = (self.x / 2.0).max(self.floor());
                self.last_update = Some(RateUpdate::Halved);
            }
        }
        self.apply_rate(ctx);
        self.arm_nofeedback(ctx);
    }
}

impl Agent<Hdr> for TfrcSender {
    fn on_start<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let before = traced_values(self, ctx, TRACED);
        self.x_recv_set.clear();
        self.x_recv_set.push_back((ctx.now(), f64::INFINITY));
        self.pacer.start(ctx, None);
        let at = ctx.now() + Dur((INITIAL_NOFEEDBACK * 1e9) as u64);
        self.nofeedback_at = Some(at);
        ctx.set_timer(NOFEEDBACK_TIMER, at);
        trace_changes(self, ctx, TRACED, before);
    }

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        if self.stopped || !self.pacer.running() {
            return;
        }
        if let Hdr::TfrcFeedback(fb) = &pkt.header {
            let before = traced_values(self, ctx, TRACED);
            self.on_feedback(fb, ctx);
            trace_changes(self, ctx, TRACED, before);
        }
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        if self.stopped {
            return;
        }
        if slot == PACE_TIMER {
            let rtt = self.rtt_dur();
            self.pacer.on_timer(ctx, rtt);
        } else if slot == NOFEEDBACK_TIMER {
            // A stale wake-up (the deadline moved later) is ignored.
            if self.nofeedback_at.is_some_and(|at| ctx.now() >= at) {
                let before = traced_values(self, ctx, TRACED);
                self.on_nofeedback(ctx);
                trace_changes(self, ctx, TRACED, before);
            }
        }
    }

    fn on_stop<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let before = traced_values(self, ctx, TRACED);
        self.stopped = true;
        self.pacer.stop(ctx);
        ctx.cancel_timer(NOFEEDBACK_TIMER);
        self.nofeedback_at = None;
        trace_changes(self, ctx, TRACED, before);
    }

    fn var(&self, var: VarId) -> Option<f64> {
        match var {
            VarId::Rate => Some(if self.pacer.running() {
                self.pacer.rate() * 8.0
            } else {
                0.0
            }),
            VarId::Srtt => self.r,
            _ => None,
        }
    }

    fn stats(&self) -> AgentStats {
        AgentStats::default()
    }
}
