//! The Primo sender (section III).
//!
//! Start (III-B): four packets back to back; the acknowledgement of the burst gives the first
//! FTT (FTT_ref), the bandwidth the burst measured (the first rate) and the first RTT. Until it
//! arrives the sender waits; if it does not arrive within the start timeout, the burst is sent
//! again.
//!
//! Then before each packet (III-C, III-D): ΔFTT_D, the FTT excess recorded D = τ RTT_ref ago,
//! is compared with the thresholds and [`algorithm1`] gives the new rate from the rate one RTT
//! ago, the current rate and the last reception rate; the packet leaves and the next is paced
//! one gap at the new rate later.
//!
//! Timeout (III-A, III-D): TO = 2 RTT_ref; when no acknowledgement arrives for TO, the rate is
//! halved and TO doubled.
//!
//! CHOICE: the thresholds scale with RTT_ref / 2 rather than with FTT_ref itself. FTT_ref is
//! only known up to the receiver's clock offset (the paper, II-B, lets the clocks disagree);
//! half the smallest RTT is the offset-free estimate of the one-way delay, exact on symmetric
//! paths like the paper's. ΔFTT itself is FTT - FTT_ref, where the offset cancels.
//! CHOICE: ΔFTT_D is the last ΔFTT recorded at or before now - D (the oldest one kept while
//! the flow is younger than D); ΔFTT is recorded at each acknowledgement's arrival.
//! CHOICE: "the rate one RTT ago" is the rate in force one latest RTT sample ago (the oldest
//! rate kept while the flow is younger than that).
//! CHOICE: TO is 2 RTT_ref from the burst's acknowledgement on (the paper first sets TO to the
//! first RTT, which the first paced packet's acknowledgement would always outlast) and returns
//! to 2 RTT_ref at each acknowledgement. The timeout runs from the first packet sent after the
//! last acknowledgement, so a slow sender whose gap exceeds TO does not time out while its
//! packet is in flight. TO is at most 60 s (RFC 6298's upper bound).
//! CHOICE: after a timeout Algorithm 1 is suspended until an acknowledgement arrives, so the
//! halved rate is not pulled back up by the stale reception rate.
//! CHOICE: the start timeout is 1 s (RFC 6298's initial RTO), doubled at each new burst.
//! CHOICE: the rate never falls below one packet per 60 s, so that halving leaves a probe.

use std::collections::VecDeque;

use ccsim_core::{
    trace_changes, traced_values, Addr, Agent, AgentStats, Ctx, Dur, FlowId, Packet, SimTime,
    TimerSlot, VarId,
};

use super::{algorithm1, Branch, PrimoParams, START_BURST};
use crate::rate::pacer::{Pacer, PacerConfig, PACE_TIMER};
use crate::Hdr;

/// The timeout's slot (the pacer uses slot 0).
pub const TIMEOUT_TIMER: TimerSlot = TimerSlot(1);

/// The start burst's first timeout.
const START_TIMEOUT: Dur = Dur::from_secs(1);
/// The longest timeout.
const MAX_TIMEOUT: Dur = Dur::from_secs(60);

const TRACED: [VarId; 3] = [VarId::Rate, VarId::Srtt, VarId::Rto];

/// Parameters of a Primo sender.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrimoConfig {
    /// Packet size and bounds on the rate (the initial rate is unused: the burst sets it).
    pub pacer: PacerConfig,
    /// Algorithm 1's constants.
    pub params: PrimoParams,
}

/// Where the sender is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The start burst is out; `bursts` sent so far.
    Starting { bursts: u32 },
    /// Paced sending under Algorithm 1.
    Running,
    /// Stopped by the scenario; acknowledgements still in flight are ignored.
    Stopped,
}

/// A Primo sender.
#[derive(Clone, Debug)]
pub struct PrimoSender {
    pacer: Pacer,
    params: PrimoParams,
    phase: Phase,
    /// The smallest FTT seen, nanoseconds (on the receiver's clock less the sender's).
    ftt_ref: i64,
    rtt_ref: Dur,
    last_rtt: Dur,
    /// The last reception rate reported, bytes per second.
    rcv_rate: f64,
    /// (arrival of an acknowledgement, its ΔFTT in nanoseconds), oldest first.
    dftt: VecDeque<(SimTime, i64)>,
    /// (time, rate set then), oldest first.
    rates: VecDeque<(SimTime, f64)>,
    timeout: Dur,
    /// When the first packet after the last acknowledgement left.
    unacked_since: Option<SimTime>,
    timer_armed: bool,
    stalled: bool,
    timeouts: u64,
    last_branch: Option<Branch>,
}

impl PrimoSender {
    /// A sender for `flow` toward `peer`.
    #[must_use]
    pub fn new(flow: FlowId, peer: Addr, cfg: &PrimoConfig) -> Self {
        PrimoSender {
            pacer: Pacer::new(flow, peer, cfg.pacer),
            params: cfg.params,
            phase: Phase::Starting { bursts: 0 },
            ftt_ref: 0,
            rtt_ref: Dur(0),
            last_rtt: Dur(0),
            rcv_rate: 0.0,
            dftt: VecDeque::new(),
            rates: VecDeque::new(),
            timeout: START_TIMEOUT,
            unacked_since: None,
            timer_armed: false,
            stalled: false,
            timeouts: 0,
            last_branch: None,
        }
    }

    /// The sending rate, bytes per second.
    #[must_use]
    pub fn rate(&self) -> f64 {
        self.pacer.rate()
    }
    /// The pacer (packets sent).
    #[must_use]
    pub fn pacer(&self) -> &Pacer {
        &self.pacer
    }
    /// Whether the start burst has been acknowledged.
    #[must_use]
    pub fn running(&self) -> bool {
        self.phase == Phase::Running
    }
    /// Start bursts sent so far.
    #[must_use]
    pub fn bursts(&self) -> u32 {
        match self.phase {
            Phase::Starting { bursts } => bursts,
            Phase::Running | Phase::Stopped => 0,
        }
    }
    /// The current timeout.
    #[must_use]
    pub fn timeout(&self) -> Dur {
        self.timeout
    }
    /// RTT_ref, the smallest RTT seen.
    #[must_use]
    pub fn rtt_ref(&self) -> Dur {
        self.rtt_ref
    }
    /// The branch Algorithm 1 took before the last packet.
    #[must_use]
    pub fn last_branch(&self) -> Option<Branch> {
        self.last_branch
    }

    fn send_burst<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let Phase::Starting { bursts } = self.phase else {
            return;
        };
        let wait = Dur(START_TIMEOUT.0.saturating_mul(1 << bursts.min(6))).min(MAX_TIMEOUT);
        self.phase = Phase::Starting { bursts: bursts + 1 };
        self.pacer.send_burst(START_BURST, ctx);
        ctx.set_timer(TIMEOUT_TIMER, ctx.now() + wait);
    }

    fn on_ack<C: Ctx<Hdr>>(
        &mut self,
        echo: SimTime,
        ftt: i64,
        rcv_rate: f32,
        start: bool,
        ctx: &mut C,
    ) {
        let now = ctx.now();
        let rtt = now.since(echo);
        let rcv_rate = f64::from(rcv_rate);
        match self.phase {
            Phase::Starting { .. } if start => {
                self.phase = Phase::Running;
                self.ftt_ref = ftt;
                self.rtt_ref = rtt;
                self.last_rtt = rtt;
                self.rcv_rate = rcv_rate;
                self.timeout = self.base_timeout();
                self.pacer.set_rate(rcv_rate, ctx);
                self.dftt.push_back((now, 0));
                self.rates.push_back((now, self.pacer.rate()));
                ctx.cancel_timer(TIMEOUT_TIMER);
                self.timer_armed = false;
                self.pacer.start(ctx, Some(rtt));
                self.note_send(now, ctx);
            }
            Phase::Running if !start => {
                self.last_rtt = rtt;
                if rtt < self.rtt_ref {
                    self.rtt_ref = rtt;
                }
                self.ftt_ref = self.ftt_ref.min(ftt);
                self.dftt.push_back((now, ftt - self.ftt_ref));
                if rcv_rate > 0.0 && rcv_rate.is_finite() {
                    self.rcv_rate = rcv_rate;
                }
                self.timeout = self.base_timeout();
                self.unacked_since = None;
                self.stalled = false;
            }
            _ => {}
        }
    }

    fn base_timeout(&self) -> Dur {
        Dur(self.rtt_ref.0.saturating_mul(2)).min(MAX_TIMEOUT)
    }

    /// After a paced packet left: start the timeout's clock if no packet was awaiting an
    /// acknowledgement.
    fn note_send<C: Ctx<Hdr>>(&mut self, now: SimTime, ctx: &mut C) {
        if self.unacked_since.is_none() {
            self.unacked_since = Some(now);
            if !self.timer_armed {
                ctx.set_timer(TIMEOUT_TIMER, now + self.timeout);
                self.timer_armed = true;
            }
        }
    }

    /// The value recorded at or before `at` in a time-ordered queue (the oldest if all are
    /// later), dropping what is older than it.
    fn value_at<T: Copy>(queue: &mut VecDeque<(SimTime, T)>, at: SimTime) -> Option<T> {
        while queue.len() > 1 && queue[1].0 <= at {
            queue.pop_front();
        }
        queue.front().map(|&(_, v)| v)
    }

    /// Algorithm 1, before a packet leaves at `now`.
    fn next_rate(&mut self, now: SimTime) -> f64 {
        let rate = self.pacer.rate();
        let d = Dur((self.rtt_ref.0 as f64 * self.params.tau).round() as u64);
        let Some(dftt_d) = Self::value_at(&mut self.dftt, SimTime(now.0.saturating_sub(d.0)))
        else {
            return rate;
        };
        let old_rate = Self::value_at(
            &mut self.rates,
            SimTime(now.0.saturating_sub(self.last_rtt.0)),
        )
        .unwrap_or(rate);
        let ftt_ref = self.rtt_ref.as_secs_f64() / 2.0;
        let (branch, new_rate) = algorithm1(
            &self.params,
            ftt_ref,
            dftt_d as f64 * 1e-9,
            old_rate,
            rate,
            self.rcv_rate,
        );
        self.last_branch = Some(branch);
        new_rate
    }

    fn on_pace<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.phase != Phase::Running || !self.pacer.running() {
            return;
        }
        let now = ctx.now();
        let rate = if self.stalled {
            self.pacer.rate()
        } else {
            self.next_rate(now)
        };
        let before = self.pacer.rate();
        self.pacer.send_at_rate(rate, ctx, Some(self.last_rtt));
        if self.pacer.rate().to_bits() != before.to_bits() {
            self.rates.push_back((now, self.pacer.rate()));
        }
        self.note_send(now, ctx);
    }

    fn on_timeout<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.timer_armed = false;
        let now = ctx.now();
        match self.phase {
            Phase::Starting { .. } => self.send_burst(ctx),
            Phase::Stopped => {}
            Phase::Running => {
                let Some(since) = self.unacked_since else {
                    return;
                };
                let due = since + self.timeout;
                if now < due {
                    ctx.set_timer(TIMEOUT_TIMER, due);
                    self.timer_armed = true;
                    return;
                }
                self.timeouts += 1;
                self.stalled = true;
                self.pacer.set_rate(self.pacer.rate() / 2.0, ctx);
                self.rates.push_back((now, self.pacer.rate()));
                self.timeout = Dur(self.timeout.0.saturating_mul(2)).min(MAX_TIMEOUT);
                self.unacked_since = Some(now);
                ctx.set_timer(TIMEOUT_TIMER, now + self.timeout);
                self.timer_armed = true;
            }
        }
    }
}

impl Agent<Hdr> for PrimoSender {
    fn on_start<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let before = traced_values(self, ctx, TRACED);
        let one_packet_per_max_timeout =
            f64::from(self.pacer.packet_size()) / MAX_TIMEOUT.as_secs_f64();
        self.pacer.set_floor(one_packet_per_max_timeout, ctx);
        self.send_burst(ctx);
        trace_changes(self, ctx, TRACED, before);
    }

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        if let Hdr::PrimoAck {
            echo,
            ftt_ns,
            rcv_rate,
            start,
        } = pkt.header
        {
            let before = traced_values(self, ctx, TRACED);
            self.on_ack(echo, ftt_ns, rcv_rate, start, ctx);
            trace_changes(self, ctx, TRACED, before);
        }
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        let before = traced_values(self, ctx, TRACED);
        if slot == PACE_TIMER {
            self.on_pace(ctx);
        } else if slot == TIMEOUT_TIMER {
            self.on_timeout(ctx);
        }
        trace_changes(self, ctx, TRACED, before);
    }

    fn on_stop<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let before = traced_values(self, ctx, TRACED);
        self.pacer.stop(ctx);
        self.phase = Phase::Stopped;
        ctx.cancel_timer(TIMEOUT_TIMER);
        self.timer_armed = false;
        trace_changes(self, ctx, TRACED, before);
    }

    fn var(&self, var: VarId) -> Option<f64> {
        match var {
            VarId::Rate => Some(self.pacer.traced_rate_bps()),
            VarId::Srtt => (self.last_rtt.0 > 0).then(|| self.last_rtt.as_secs_f64()),
            VarId::Rto => Some(self.timeout.as_secs_f64()),
            _ => None,
        }
    }

    fn stats(&self) -> AgentStats {
        AgentStats {
            timeouts: self.timeouts,
            ..AgentStats::default()
        }
    }
}
