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
//! * Oscillation prevention (4.5, on unless `oscillation_prevention` is false): every RTT
//!   sample also updates R_sqmean = q2 R_sqmean + (1 - q2) sqrt(R_sample), q2 = 0.9 (the
//!   first sample: sqrt(R_sample)), and the pacer sends at X_inst = X R_sqmean /
//!   sqrt(R_sample), with R_sample the latest sample: below X while the RTT is above its
//!   long-term mean (a queue is building), above it while the RTT is below. ns-2.35's Agent/TFRC
//!   does the same by default (`ca_ 1`, tfrc.cc `nextpkt`), with its own weight `df_` 0.95.
//!
//! CHOICE: before the first RTT sample the nofeedback timer restarts after 2s / X (2 seconds
//! at the initial rate of one packet per second, the 4.2 value).
//! CHOICE: an RTT sample below one microsecond (the resolution of the header's RTT field) is
//! taken as one microsecond.
//! CHOICE: X_recv_set entries are stamped with the sender's clock when the feedback arrived;
//! the initial Infinity is stamped with the start time.
//! CHOICE: the configured `min_rate` and `max_rate` bound the pacer, not X itself; the pacer's
//! floor is at least s / t_mbi.
//! CHOICE: X_inst replaces X only as the pacer's rate; X, recv_limit, the nofeedback timer and
//! the traced `rate` (the pacer's) follow 4.3 and 4.4 unchanged, and a nofeedback expiry keeps
//! the factor of the last sample (ns-2.35 likewise scales every gap by its last sample's factor).

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
/// q2: the weight of the old value in R_sqmean, the average of sqrt(R_sample) (RFC 5348
/// section 4.5, its recommended default).
pub const SQRT_RTT_GAIN: f64 = 0.9;
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
    /// RFC 5348 section 4.5: pace at X_inst = X R_sqmean / sqrt(R_sample) (the RFC recommends
    /// it; without it, it recommends a q near zero, which this sender does not offer).
    pub oscillation_prevention: bool,
}

impl Default for TfrcConfig {
    fn default() -> Self {
        TfrcConfig {
            packet_size: 1000,
            min_rate: 0.0,
            max_rate: f64::INFINITY,
            oscillation_prevention: true,
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
    /// Section 4.5 in force.
    oscillation_prevention: bool,
    /// R_sqmean, sqrt(seconds) (`None` before the first feedback).
    r_sqmean: Option<f64>,
    /// R_sqmean / sqrt(R_sample) of the last sample (1 without section 4.5 or a sample).
    inst_factor: f64,
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
            oscillation_prevention: cfg.oscillation_prevention,
            r_sqmean: None,
            inst_factor: 1.0,
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
    /// R_sqmean, the average of the square roots of the RTT samples, sqrt(seconds) (`None`
    /// before the first feedback or without section 4.5).
    #[must_use]
    pub fn rtt_sqmean(&self) -> Option<f64> {
        self.r_sqmean
    }
    /// X_inst, the rate the pacer is given before its bounds: X R_sqmean / sqrt(R_sample)
    /// under section 4.5, else X; bytes per second.
    #[must_use]
    pub fn instantaneous_rate(&self) -> f64 {
        self.x * self.inst_factor
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
        self.pacer.set_rate(self.instantaneous_rate(), ctx);
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
        if self.oscillation_prevention {
            let root = sample.sqrt();
            let sqmean = self
                .r_sqmean
                .map_or(root, |m| SQRT_RTT_GAIN * m + (1.0 - SQRT_RTT_GAIN) * root);
            self.r_sqmean = Some(sqmean);
            self.inst_factor = sqmean / root;
        }
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
            VarId::Rate => Some(self.pacer.traced_rate_bps()),
            VarId::Srtt => self.r,
            _ => None,
        }
    }

    fn stats(&self) -> AgentStats {
        AgentStats::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::MockCtx;
    use ccsim_core::Ecn;

    fn sender() -> TfrcSender {
        TfrcSender::new(
            FlowId(3),
            Addr { node: 1, agent: 1 },
            &TfrcConfig::default(),
        )
    }

    fn ms(v: u64) -> SimTime {
        SimTime(v * 1_000_000)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    fn feedback(echo_ms: u64, delay_ms: u64, x_recv: f64, p: f64) -> Packet<Hdr> {
        Packet {
            src: Addr { node: 1, agent: 1 },
            dst: Addr::default(),
            flow: FlowId(3),
            size: 44,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::TfrcFeedback(Box::new(TfrcFeedback {
                echo: ms(echo_ms),
                delay: Dur::from_millis(delay_ms),
                x_recv,
                p,
            })),
        }
    }

    /// Deliver a feedback at `at_ms` that measures an RTT of exactly 100 ms.
    fn fb_at(s: &mut TfrcSender, ctx: &mut MockCtx, at_ms: u64, x_recv: f64, p: f64) {
        ctx.now = ms(at_ms);
        s.on_packet(&feedback(at_ms - 100, 0, x_recv, p), ctx);
    }

    fn expire(s: &mut TfrcSender, ctx: &mut MockCtx) {
        ctx.now = ctx.timers[1].expect("nofeedback timer armed");
        s.on_timer(NOFEEDBACK_TIMER, ctx);
    }

    #[test]
    fn starts_at_one_packet_per_second_with_a_two_second_timer() {
        let mut s = sender();
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        assert_eq!(ctx.drain().len(), 1);
        assert_eq!(s.rate(), 1000.0);
        assert_eq!(ctx.timers[0], Some(ms(1000)));
        assert_eq!(ctx.timers[1], Some(ms(2000)));
        assert_eq!(s.x_recv_set().collect::<Vec<_>>(), vec![f64::INFINITY]);
        assert_eq!(ctx.traces, vec![(VarId::Rate, 8000.0)]);
    }

    #[test]
    fn first_feedback_sets_the_initial_window_rate() {
        let mut s = sender();
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        // Feedback at 130 ms echoing the packet stamped 0, held 30 ms: R = 0.1 s.
        ctx.now = ms(130);
        s.on_packet(&feedback(0, 30, 0.0, 0.0), &mut ctx);
        assert!(close(s.rtt().unwrap(), 0.1));
        // W_init = min(4 * 1000, max(2 * 1000, 4380)) = 4000 bytes; X = 4000 / 0.1.
        assert_eq!(s.last_update(), Some(RateUpdate::Initial));
        assert!(close(s.rate(), 40_000.0));
        // Nofeedback timer: max(4 * 0.1, 2 * 1000 / 40000) = 0.4 s later.
        assert_eq!(ctx.timers[1], Some(ms(530)));
        // The pending departure moved to 0 + 1000 / 40000 s, already past: now.
        assert_eq!(ctx.timers[0], Some(ms(130)));
        ctx.drain();
        s.on_timer(PACE_TIMER, &mut ctx);
        let sent = ctx.drain();
        assert!(matches!(
            sent[0].header,
            Hdr::RateData {
                seq: 1,
                rtt_us: 100_000,
                ..
            }
        ));
        let traced: Vec<(VarId, f64)> = ctx.traces.clone();
        assert_eq!(traced[1].0, VarId::Rate);
        assert!(close(traced[1].1, 320_000.0));
        assert_eq!(traced[2].0, VarId::Srtt);
        assert!(close(traced[2].1, 0.1));
    }

    #[test]
    fn initial_window_follows_rfc_3390() {
        // s = 1460: min(5840, max(2920, 4380)) = 4380; s = 500: min(2000, 4380) = 2000.
        for (size, w_init) in [(1460, 4380.0), (500, 2000.0), (3000, 6000.0)] {
            let cfg = TfrcConfig {
                packet_size: size,
                ..TfrcConfig::default()
            };
            let mut s = TfrcSender::new(FlowId(0), Addr::default(), &cfg);
            let mut ctx = MockCtx::new();
            s.on_start(&mut ctx);
            fb_at(&mut s, &mut ctx, 200, 0.0, 0.0);
            assert!(close(s.allowed_rate(), w_init / 0.1), "s = {size}");
        }
    }

    #[test]
    fn rtt_is_an_ewma_with_q_0_9() {
        let mut s = sender();
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        ctx.now = ms(130);
        s.on_packet(&feedback(0, 30, 0.0, 0.0), &mut ctx);
        assert!(close(s.rtt().unwrap(), 0.1));
        // Sample (400 - 150) - 50 = 200 ms: R = 0.9 * 0.1 + 0.1 * 0.2 = 0.11.
        ctx.now = ms(400);
        s.on_packet(&feedback(150, 50, 0.0, 0.0), &mut ctx);
        assert!(close(s.rtt().unwrap(), 0.11));
        // Sample 100 ms: R = 0.9 * 0.11 + 0.1 * 0.1 = 0.109.
        ctx.now = ms(1000);
        s.on_packet(&feedback(900, 0, 0.0, 0.0), &mut ctx);
        assert!(close(s.rtt().unwrap(), 0.109));
    }

    #[test]
    fn oscillation_prevention_paces_at_x_times_sqmean_over_the_root_of_the_last_sample() {
        // RFC 5348 section 4.5, worked by hand. Samples 100 ms then 400 ms:
        // R_sqmean = sqrt(0.1) = 0.316228, then 0.9 * 0.316228 + 0.1 * sqrt(0.4) = 0.347851;
        // X_inst = X * 0.347851 / 0.632456 = 0.55 X (the RTT quadrupled: send slower).
        // A third sample of 25 ms: R_sqmean = 0.9 * 0.347851 + 0.1 * 0.158114 = 0.328877,
        // X_inst = X * 0.328877 / 0.158114 = 2.08 X (the queue drained: send faster).
        let mut s = sender();
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        fb_at(&mut s, &mut ctx, 200, 0.0, 0.01);
        assert!(close(s.rtt_sqmean().unwrap(), 0.1f64.sqrt()));
        assert!(
            close(s.rate(), s.allowed_rate()),
            "first sample: X_inst = X"
        );
        ctx.now = ms(1000);
        s.on_packet(&feedback(600, 0, 1e9, 0.01), &mut ctx);
        let sqmean = 0.9 * 0.1f64.sqrt() + 0.1 * 0.4f64.sqrt();
        assert!(close(s.rtt_sqmean().unwrap(), sqmean));
        assert!(close(s.rate(), s.allowed_rate() * sqmean / 0.4f64.sqrt()));
        assert!((s.rate() / s.allowed_rate() - 0.55).abs() < 1e-6);
        ctx.now = ms(1100);
        s.on_packet(&feedback(1075, 0, 1e9, 0.01), &mut ctx);
        let sqmean = 0.9 * sqmean + 0.1 * 0.025f64.sqrt();
        assert!(close(s.rate(), s.allowed_rate() * sqmean / 0.025f64.sqrt()));
        assert!(s.rate() > 2.0 * s.allowed_rate());
        // X itself is 4.3's: the equation at R = 0.9 (0.9 * 0.1 + 0.1 * 0.4) + 0.1 * 0.025.
        let r = 0.9 * (0.9 * 0.1 + 0.1 * 0.4) + 0.1 * 0.025;
        assert!(close(s.allowed_rate(), throughput(1000.0, r, 0.01)));
    }

    #[test]
    fn without_oscillation_prevention_the_pacer_sends_at_x() {
        let cfg = TfrcConfig {
            oscillation_prevention: false,
            ..TfrcConfig::default()
        };
        let mut s = TfrcSender::new(FlowId(3), Addr::default(), &cfg);
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        fb_at(&mut s, &mut ctx, 200, 0.0, 0.01);
        ctx.now = ms(1000);
        s.on_packet(&feedback(600, 0, 1e9, 0.01), &mut ctx);
        assert!(close(s.rate(), s.allowed_rate()));
        assert_eq!(s.rtt_sqmean(), None);
    }

    #[test]
    fn slow_start_doubles_once_per_rtt_bounded_by_twice_x_recv() {
        let mut s = sender();
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        fb_at(&mut s, &mut ctx, 100, 0.0, 0.0);
        assert!(close(s.allowed_rate(), 40_000.0));
        // 250 ms: Infinity (entered at 0) is older than 2R and leaves X_recv_set, which holds
        // 0 (100 ms) and 30000: recv_limit = 60000 < 2X = 80000.
        fb_at(&mut s, &mut ctx, 250, 30_000.0, 0.0);
        assert_eq!(s.last_update(), Some(RateUpdate::SlowStart));
        assert_eq!(s.x_recv_set().collect::<Vec<_>>(), vec![0.0, 30_000.0]);
        assert!(close(s.allowed_rate(), 60_000.0));
        // 320 ms: only 70 ms since the last doubling: unchanged.
        fb_at(&mut s, &mut ctx, 320, 100_000.0, 0.0);
        assert_eq!(s.last_update(), Some(RateUpdate::Hold));
        assert!(close(s.allowed_rate(), 60_000.0));
        // 400 ms: set {30000 (250), 100000 (320), 45000}: recv_limit 200000; X doubles.
        fb_at(&mut s, &mut ctx, 400, 45_000.0, 0.0);
        assert_eq!(
            s.x_recv_set().collect::<Vec<_>>(),
            vec![30_000.0, 100_000.0, 45_000.0]
        );
        assert!(close(s.allowed_rate(), 120_000.0));
        // 550 ms: set {45000 (400), 50000}: recv_limit 100000 < 2X = 240000.
        fb_at(&mut s, &mut ctx, 550, 50_000.0, 0.0);
        assert!(close(s.recv_limit(), 100_000.0));
        assert!(close(s.allowed_rate(), 100_000.0));
        // 800 ms: 50000 (550 ms) has aged out; a receive rate far below:
        // X = max(min(200000, 2 * 10000), 40000) = 40000, the initial rate.
        fb_at(&mut s, &mut ctx, 800, 10_000.0, 0.0);
        assert_eq!(s.x_recv_set().collect::<Vec<_>>(), vec![10_000.0]);
        assert!(close(s.allowed_rate(), 40_000.0));
        assert!(close(s.rate(), 40_000.0));
    }

    #[test]
    fn loss_sets_the_rate_from_the_equation_bounded_by_recv_limit() {
        let mut s = sender();
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        fb_at(&mut s, &mut ctx, 100, 0.0, 0.0);
        // p = 0.01, R = 0.1, s = 1000: X_Bps = 112332.23 (see the equation tests), below
        // recv_limit = 2 * 100000.
        fb_at(&mut s, &mut ctx, 250, 100_000.0, 0.01);
        assert_eq!(s.last_update(), Some(RateUpdate::Equation));
        assert_eq!(s.loss_event_rate(), 0.01);
        assert!((s.allowed_rate() - 112_332.23).abs() < 0.01);
        // 500 ms: 100000 (250 ms) has aged out; recv_limit = 2 * 40000 < X_Bps.
        fb_at(&mut s, &mut ctx, 500, 40_000.0, 0.01);
        assert!(close(s.allowed_rate(), 80_000.0));
        // A receive rate of zero: X falls to s / t_mbi = 1000 / 64.
        fb_at(&mut s, &mut ctx, 800, 0.0, 0.01);
        assert!(close(s.allowed_rate(), 15.625));
        assert!(close(s.rate(), 15.625));
        // Nofeedback timer: max(0.4, 2 * 1000 / 15.625) = 128 s.
        assert_eq!(s.nofeedback_at(), Some(ms(800 + 128_000)));
    }

    #[test]
    fn nofeedback_before_any_feedback_halves_down_to_one_packet_per_t_mbi() {
        let mut s = sender();
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        expire(&mut s, &mut ctx);
        assert_eq!(ctx.now, ms(2000));
        assert_eq!(s.last_update(), Some(RateUpdate::Halved));
        assert_eq!(s.allowed_rate(), 500.0);
        // No RTT: the timer restarts after 2s / X = 4 s.
        assert_eq!(ctx.timers[1], Some(ms(6000)));
        expire(&mut s, &mut ctx);
        assert_eq!(s.allowed_rate(), 250.0);
        assert_eq!(ctx.timers[1], Some(ms(14_000)));
        for _ in 0..8 {
            expire(&mut s, &mut ctx);
        }
        // 1000 / 2^6 = 15.625 = s / t_mbi, the floor.
        assert_eq!(s.allowed_rate(), 15.625);
        assert_eq!(s.nofeedback_expiries(), 10);
    }

    #[test]
    fn nofeedback_in_slow_start_halves_x() {
        let mut s = sender();
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        fb_at(&mut s, &mut ctx, 100, 0.0, 0.0);
        expire(&mut s, &mut ctx);
        assert_eq!(ctx.now, ms(500));
        assert_eq!(s.last_update(), Some(RateUpdate::Halved));
        assert!(close(s.allowed_rate(), 20_000.0));
        assert!(close(s.rate(), 20_000.0));
        // max(4R, 2s/X) = max(0.4, 0.1).
        assert_eq!(ctx.timers[1], Some(ms(900)));
    }

    #[test]
    fn nofeedback_with_loss_limited_by_x_recv_halves_to_x_recv() {
        let mut s = sender();
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        fb_at(&mut s, &mut ctx, 100, 0.0, 0.0);
        // X = min(X_Bps = 112332, recv_limit = 2 * 30000) = 60000.
        fb_at(&mut s, &mut ctx, 250, 30_000.0, 0.01);
        assert!(close(s.allowed_rate(), 60_000.0));
        expire(&mut s, &mut ctx);
        assert_eq!(ctx.now, ms(650));
        // X_Bps > 2 X_recv = 60000: Update_Limits(30000): X_recv_set = {15000}, X = 30000.
        assert_eq!(s.last_update(), Some(RateUpdate::Limited));
        assert_eq!(s.x_recv_set().collect::<Vec<_>>(), vec![15_000.0]);
        assert!(close(s.allowed_rate(), 30_000.0));
        // Again: X_recv = 15000, limit 15000, X = 15000.
        expire(&mut s, &mut ctx);
        assert!(close(s.allowed_rate(), 15_000.0));
    }

    #[test]
    fn nofeedback_with_loss_limited_by_the_equation_halves_x_bps() {
        let mut s = sender();
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        fb_at(&mut s, &mut ctx, 100, 0.0, 0.0);
        fb_at(&mut s, &mut ctx, 250, 100_000.0, 0.01);
        let x_bps = 112_332.234_362_993;
        assert!(close(s.allowed_rate(), x_bps));
        expire(&mut s, &mut ctx);
        // X_Bps <= 2 X_recv: Update_Limits(X_Bps / 2): X_recv_set = {X_Bps / 4}, X = X_Bps / 2.
        assert_eq!(s.last_update(), Some(RateUpdate::Limited));
        let set: Vec<f64> = s.x_recv_set().collect();
        assert_eq!(set.len(), 1);
        assert!(close(set[0], x_bps / 4.0));
        assert!(close(s.allowed_rate(), x_bps / 2.0));
    }

    #[test]
    fn feedback_restarts_the_nofeedback_timer() {
        let mut s = sender();
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        fb_at(&mut s, &mut ctx, 100, 0.0, 0.0);
        assert_eq!(ctx.timers[1], Some(ms(500)));
        fb_at(&mut s, &mut ctx, 300, 50_000.0, 0.0);
        assert_eq!(ctx.timers[1], Some(ms(700)));
        // A wake-up for the old deadline is stale and ignored.
        ctx.now = ms(500);
        s.on_timer(NOFEEDBACK_TIMER, &mut ctx);
        assert_eq!(s.nofeedback_expiries(), 0);
    }

    #[test]
    fn stop_silences_the_sender() {
        let mut s = sender();
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        fb_at(&mut s, &mut ctx, 100, 0.0, 0.0);
        ctx.traces.clear();
        s.on_stop(&mut ctx);
        assert_eq!(ctx.traces, vec![(VarId::Rate, 0.0)]);
        assert_eq!(ctx.timers, [None; 4]);
        ctx.drain();
        fb_at(&mut s, &mut ctx, 300, 50_000.0, 0.0);
        s.on_timer(PACE_TIMER, &mut ctx);
        s.on_timer(NOFEEDBACK_TIMER, &mut ctx);
        assert!(ctx.sent.is_empty());
        assert_eq!(s.feedbacks(), 1);
        assert_eq!(ctx.timers, [None; 4]);
    }
}
