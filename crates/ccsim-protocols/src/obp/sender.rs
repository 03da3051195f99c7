//! The OBP sender (Loureiro and Monteiro, section III-B-1): MICMDC, multiplicative increase
//! conditioned, multiplicative decrease conditioned.
//!
//! On each ACK, with AB the tight-link field and Max.TR the narrow-link field:
//! * AB > 0, expression (1): TR = EP + EP c (1 - delta EP / sqrt(EP^2 + (Max.TR / 2)^2)),
//!   c = (AB + gamma Max.TR) / Max.TR the control factor (2); EP c delta EP / sqrt(...) is the
//!   fairness factor (3), the part of the increase taken back from a fast flow;
//! * AB < 0, expression (4): TR = EP + EP AB / (Max.TR - AB) (a decrease: AB = -Max.TR halves
//!   EP, the paper's "AB near the double of the bottleneck capacity" example);
//! * once per RTT, expression (5): EP = sum(TR) / T over the TRs computed in the previous RTT.
//!
//! Packets leave paced at TR (one every size / TR seconds), numbered as TCP segments; delta
//! 0.9, gamma 0.09.
//!
//! CHOICE: the fairness factor uses EP, as expressions (1) and (3) write it; the text says it
//! "is proportional to the TR of each flow" and Fig. 2 plots it against TR (EP is the mean
//! TR of the previous RTT, so the two agree at equilibrium).
//! Fig. 1's text ("AB near zero, the control factor is near zero"; "AB around 50%, near 0.5")
//! describes (AB / Max.TR) alone; (2) as printed adds gamma (0.09 and 0.59): we follow (2).
//! CHOICE: expression (4) names its result PR; we read it as TR (the text: "the end systems
//! decrease the TR using expression (4)").
//! CHOICE: T in expression (5) is the number of TRs summed, so EP is their mean (the text
//! says "the sum of all the TRs calculated in the previous RTT period"; a sum would grow with
//! the ACK rate, and EP must be a rate comparable to TR in (1) and (4)). An RTT with no ACK
//! keeps EP. The mean is per ACK, not over time (the integral of TR over the RTT, divided by
//! its length): where ACKs come faster, their TRs count more. The paper's "sum of all the TRs
//! calculated" names the per-ACK values.
//! CHOICE: AB = 0 takes expression (1) (TR = EP (1 + gamma (...)), the paper's "small
//! oscillation" around EP); the paper gives (1) for positive and (4) for negative AB.
//! CHOICE: TR is clamped to [min_rate, Max.TR]: the paper calls the narrow-link capacity
//! "Max.TR", and no flow can send faster than its narrowest link; the floor (one packet per
//! second by default) keeps a flow alive through repeated decreases.
//! CHOICE: an ACK whose fields are unstamped (no OBP router on the path) leaves TR unchanged
//! and computes no TR for EP; the paper assumes every node stamps.
//! CHOICE: the RTT that paces EP updates is the smoothed RTT of RFC 6298 (one timed segment
//! at a time, Karn's rule), `initial_rtt` (1 s, RFC 6298's initial RTO base) before the first
//! sample. The first EP period starts at the first ACK.
//! CHOICE: EP and TR start at `initial_rate` (one packet per 10 ms by default); the paper does
//! not say how a flow starts (Fig. 3 starts from a small rate that "grows quickly").
//! CHOICE: losses. The paper says nothing of them (OBP aims for none). Loss does not change
//! TR or EP (the rate follows the path state only); lost segments are retransmitted ahead of
//! new data, at the paced rate: on the third duplicate ACK the first unacknowledged segment,
//! then one per partial ACK until the highest segment sent at the loss is acknowledged
//! (NewReno's recovery, RFC 6582, without its window); on a retransmission timeout (RFC 6298:
//! srtt + 4 rttvar, at least `min_rto`, doubled per expiry) sending goes back to the first
//! unacknowledged segment.

use ccsim_core::{
    trace_changes, traced_values, Addr, Agent, AgentStats, Ctx, Dur, Ecn, FlowId, Packet, SimTime,
    TimerSlot, VarId,
};

use crate::Hdr;

const PACE_TIMER: TimerSlot = TimerSlot(0);
const RTO_TIMER: TimerSlot = TimerSlot(1);
const TRACED: [VarId; 3] = [VarId::Rate, VarId::Srtt, VarId::Rto];

/// Sender parameters. Rates are in bytes per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObpParams {
    /// Whole-packet size of a data packet, bytes (1000 in the paper's runs).
    pub packet_size: u32,
    /// delta of expression (1) (0.9).
    pub delta: f64,
    /// gamma of expression (1) (0.09).
    pub gamma: f64,
    /// TR and EP before the first ACK.
    pub initial_rate: f64,
    /// Lower bound on TR.
    pub min_rate: f64,
    /// The RTT assumed before the first sample.
    pub initial_rtt: Dur,
    /// Shortest retransmission timeout.
    pub min_rto: Dur,
    /// Segments to send, `None` for an unlimited transfer.
    pub total_packets: Option<u64>,
}

impl ObpParams {
    /// The paper's constants for `packet_size`-byte packets and an unlimited transfer.
    #[must_use]
    pub fn paper(packet_size: u32) -> Self {
        let ps = f64::from(packet_size);
        ObpParams {
            packet_size,
            delta: 0.9,
            gamma: 0.09,
            initial_rate: ps * 100.0,
            min_rate: ps,
            initial_rtt: Dur::from_secs(1),
            min_rto: Dur::from_millis(200),
            total_packets: None,
        }
    }
}

/// The fraction of the control factor that expression (3) takes back at `ep` against
/// `max_tr`: delta EP / sqrt(EP^2 + (Max.TR / 2)^2).
#[must_use]
pub fn fairness_fraction(ep: f64, max_tr: f64, delta: f64) -> f64 {
    delta * ep / (ep * ep + (max_tr / 2.0) * (max_tr / 2.0)).sqrt()
}

/// The paper's Fig. 2 "increase factor" per unit of control factor: 1 - [`fairness_fraction`]
/// (1 at EP = 0, 1 - delta / sqrt(1.25), about 0.195, at EP = Max.TR).
#[must_use]
pub fn increase_factor(ep: f64, max_tr: f64, delta: f64) -> f64 {
    1.0 - fairness_fraction(ep, max_tr, delta)
}

/// An OBP sender.
#[derive(Clone, Debug)]
pub struct ObpSender {
    flow: FlowId,
    peer: Addr,
    p: ObpParams,
    tr: f64,
    ep: f64,
    sum_tr: f64,
    n_tr: u64,
    epoch_end: Option<SimTime>,
    srtt: Option<f64>,
    rttvar: f64,
    backoff: u32,
    /// The segment being timed and when it left.
    timed: Option<(u64, SimTime)>,
    next_seq: u64,
    high_seq: u64,
    snd_una: u64,
    dupacks: u32,
    /// The highest segment sent when recovery started.
    recover: Option<u64>,
    retx_pending: Option<u64>,
    last_send: Option<SimTime>,
    rto_armed: bool,
    running: bool,
    last_narrow: f32,
    last_tight: f32,
    stats: AgentStats,
}

impl ObpSender {
    /// A sender of `flow` toward `peer`.
    #[must_use]
    pub fn new(flow: FlowId, peer: Addr, params: ObpParams) -> Self {
        ObpSender {
            flow,
            peer,
            p: params,
            tr: params.initial_rate,
            ep: params.initial_rate,
            sum_tr: 0.0,
            n_tr: 0,
            epoch_end: None,
            srtt: None,
            rttvar: 0.0,
            backoff: 0,
            timed: None,
            next_seq: 0,
            high_seq: 0,
            snd_una: 0,
            dupacks: 0,
            recover: None,
            retx_pending: None,
            last_send: None,
            rto_armed: false,
            running: false,
            last_narrow: f32::INFINITY,
            last_tight: f32::INFINITY,
            stats: AgentStats::default(),
        }
    }

    /// The transmission rate TR, bytes per second.
    #[must_use]
    pub fn tr(&self) -> f64 {
        self.tr
    }
    /// The equilibrium point EP, bytes per second.
    #[must_use]
    pub fn ep(&self) -> f64 {
        self.ep
    }
    /// The first unacknowledged segment.
    #[must_use]
    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }
    /// The smoothed RTT, seconds, once sampled.
    #[must_use]
    pub fn srtt(&self) -> Option<f64> {
        self.srtt
    }
    /// The path state of the latest ACK: (narrow link, tight link), bytes per second.
    #[must_use]
    pub fn path_state(&self) -> (f32, f32) {
        (self.last_narrow, self.last_tight)
    }

    /// TR for the path state (`ab`, `max_tr`) at the current EP: expression (1) or (4).
    #[must_use]
    pub fn rate_for(&self, ab: f64, max_tr: f64) -> f64 {
        let ep = self.ep;
        let tr = if ab >= 0.0 {
            let control = (ab + self.p.gamma * max_tr) / max_tr;
            ep + ep * control * increase_factor(ep, max_tr, self.p.delta)
        } else {
            ep + ep * (ab / (max_tr - ab))
        };
        tr.min(max_tr).max(self.p.min_rate)
    }

    fn gap(&self) -> Dur {
        let ns = f64::from(self.p.packet_size) * 1e9 / self.tr;
        Dur(if ns < 1.8e19 {
            (ns.round() as u64).max(1)
        } else {
            u64::MAX
        })
    }

    fn rto(&self) -> Dur {
        let base = match self.srtt {
            Some(s) => s + 4.0 * self.rttvar,
            None => self.p.initial_rtt.as_secs_f64(),
        };
        let secs = base.max(self.p.min_rto.as_secs_f64()) * f64::from(1u32 << self.backoff.min(6));
        Dur((secs * 1e9).round() as u64)
    }

    fn has_new_data(&self) -> bool {
        self.p.total_packets.is_none_or(|n| self.next_seq < n)
    }

    /// Arm the pacing timer for the next departure, if there is something to send.
    fn arm<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if !self.running || (self.retx_pending.is_none() && !self.has_new_data()) {
            ctx.cancel_timer(PACE_TIMER);
            return;
        }
        let now = ctx.now();
        let at = match self.last_send {
            Some(t) => (t + self.gap()).max(now),
            None => now,
        };
        ctx.set_timer(PACE_TIMER, at);
    }

    fn send_one<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let now = ctx.now();
        let (seq, retx) = if let Some(s) = self.retx_pending.take() {
            (s, true)
        } else if self.has_new_data() {
            let s = self.next_seq;
            self.next_seq += 1;
            (s, s < self.high_seq)
        } else {
            return;
        };
        if retx {
            self.stats.retransmitted_packets += 1;
            // Karn: a retransmission spoils the timed segment's sample.
            if self.timed.is_some_and(|(t, _)| t >= seq) {
                self.timed = None;
            }
        } else if self.timed.is_none() {
            self.timed = Some((seq, now));
        }
        self.high_seq = self.high_seq.max(seq + 1);
        ctx.send(Packet {
            src: Addr::default(),
            dst: self.peer,
            flow: self.flow,
            size: self.p.packet_size,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::ObpData {
                seq,
                retx,
                narrow: f32::INFINITY,
                tight: f32::INFINITY,
            },
        });
        self.last_send = Some(now);
        if !self.rto_armed {
            self.rto_armed = true;
            ctx.set_timer(RTO_TIMER, now + self.rto());
        }
    }

    fn sample_rtt(&mut self, r: f64) {
        // RFC 6298 section 2.
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2.0;
            }
            Some(s) => {
                self.rttvar = 0.75 * self.rttvar + 0.25 * (s - r).abs();
                self.srtt = Some(0.875 * s + 0.125 * r);
            }
        }
    }

    /// The path state of one ACK: a TR from (1) or (4), and EP from (5) once per RTT.
    fn on_path_state(&mut self, now: SimTime, narrow: f32, tight: f32) {
        self.last_narrow = narrow;
        self.last_tight = tight;
        let rtt = self
            .srtt
            .map_or(self.p.initial_rtt, |s| Dur((s * 1e9).round() as u64));
        match self.epoch_end {
            None => self.epoch_end = Some(now + rtt),
            Some(end) if now >= end => {
                if self.n_tr > 0 {
                    self.ep = self.sum_tr / self.n_tr as f64;
                }
                self.sum_tr = 0.0;
                self.n_tr = 0;
                self.epoch_end = Some(now + rtt);
            }
            Some(_) => {}
        }
        if !narrow.is_finite() || !tight.is_finite() || narrow <= 0.0 {
            return;
        }
        self.tr = self.rate_for(f64::from(tight), f64::from(narrow));
        self.sum_tr += self.tr;
        self.n_tr += 1;
    }
}

impl Agent<Hdr> for ObpSender {
    fn on_start<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.running = true;
        self.arm(ctx);
    }

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        let Hdr::ObpAck { ack, narrow, tight } = pkt.header else {
            return;
        };
        let before = traced_values(self, ctx, TRACED);
        let now = ctx.now();
        if ack > self.snd_una {
            if let Some((seq, at)) = self.timed {
                if ack > seq {
                    self.sample_rtt(now.since(at).as_secs_f64());
                    self.timed = None;
                }
            }
            self.snd_una = ack;
            self.next_seq = self.next_seq.max(ack);
            self.dupacks = 0;
            self.backoff = 0;
            if let Some(r) = self.recover {
                if ack > r {
                    self.recover = None;
                } else {
                    // A partial ACK: the next hole.
                    self.retx_pending = Some(ack);
                }
            }
            if self.retx_pending.is_some_and(|s| s < ack) {
                self.retx_pending = None;
            }
            if self.snd_una < self.high_seq {
                self.rto_armed = true;
                ctx.set_timer(RTO_TIMER, now + self.rto());
            } else {
                self.rto_armed = false;
                ctx.cancel_timer(RTO_TIMER);
            }
            if self.p.total_packets.is_some_and(|n| ack >= n) && self.stats.completed_at.is_none() {
                self.stats.completed_at = Some(now);
                self.running = false;
                ctx.cancel_timer(PACE_TIMER);
                ctx.finish();
            }
        } else if ack == self.snd_una && self.snd_una < self.high_seq {
            self.dupacks += 1;
            if self.dupacks == 3 && self.recover.is_none() {
                self.recover = Some(self.high_seq - 1);
                self.retx_pending = Some(self.snd_una);
            }
        }
        self.on_path_state(now, narrow, tight);
        // A new rate, or a retransmission to send: the next departure moves to match.
        self.arm(ctx);
        trace_changes(self, ctx, TRACED, before);
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        if slot == PACE_TIMER {
            if self.running {
                self.send_one(ctx);
                self.arm(ctx);
            }
        } else if slot == RTO_TIMER {
            self.rto_armed = false;
            if self.snd_una >= self.high_seq || !self.running {
                return;
            }
            self.stats.timeouts += 1;
            self.backoff += 1;
            self.timed = None;
            self.recover = None;
            self.dupacks = 0;
            self.retx_pending = None;
            self.next_seq = self.snd_una;
            self.rto_armed = true;
            ctx.set_timer(RTO_TIMER, ctx.now() + self.rto());
            self.arm(ctx);
        }
    }

    fn on_stop<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.running = false;
        ctx.cancel_timer(PACE_TIMER);
        ctx.cancel_timer(RTO_TIMER);
    }

    fn var(&self, var: VarId) -> Option<f64> {
        match var {
            VarId::Rate => Some(if self.running { self.tr * 8.0 } else { 0.0 }),
            VarId::Srtt => Some(self.srtt.unwrap_or(f64::NAN)),
            VarId::Rto => Some(self.rto().as_secs_f64()),
            VarId::Seq => Some(self.next_seq as f64),
            _ => None,
        }
    }

    fn stats(&self) -> AgentStats {
        self.stats
    }
}
