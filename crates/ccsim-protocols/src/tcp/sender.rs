//! The NewReno sender (RFC 5681, RFC 6582, RFC 6298).
//!
//! `cwnd` and `ssthresh` are in bytes, as in RFC 5681; sequence numbers are segments.
//! CHOICE: RTT is measured on one timed segment at a time (the classic BSD scheme, which
//! RFC 6298 section 3 allows); a retransmission cancels the measurement (Karn's rule).
//! CHOICE: on the first partial ACK of a recovery the retransmission timer is reset, on
//! later ones it is not (RFC 6582 section 3.2 step 5, the "impatient" variant).
//! CHOICE: after a full ACK, cwnd = min(ssthresh, max(FlightSize, MSS) + MSS) (RFC 6582
//! section 3.2 step 3, option 1).
//! CHOICE: congestion avoidance adds max(1, MSS*MSS/cwnd) bytes per ACK (RFC 5681 eq. 3);
//! slow start adds min(bytes acked, MSS) per ACK (RFC 5681 eq. 2).
//! CHOICE: no limited transmit, no SACK; the receiver window is `max_window` (unbounded by
//! default).

use ccsim_core::{
    trace_changes, traced_values, Addr, Agent, AgentStats, Ctx, Dur, Ecn, FlowId, Packet, SimTime,
    TimerSlot, VarId,
};

use super::rtt::RttEstimator;
use crate::{Hdr, TCP_HEADER_BYTES};

const RTO_TIMER: TimerSlot = TimerSlot(0);

/// Sender parameters. Defaults are stated once, in [`TcpConfig::default`].
#[derive(Clone, Debug)]
pub struct TcpConfig {
    /// Whole-packet size of a full data segment, bytes.
    pub packet_size: u32,
    /// Initial window, segments.
    pub initial_window: u32,
    /// Application bytes to send; `None` for an unending (bulk) transfer.
    pub size: Option<u64>,
    /// Receiver's window, segments.
    pub max_window: u64,
    /// Lower bound on the retransmission timeout.
    pub min_rto: Dur,
    /// Upper bound on the retransmission timeout.
    pub max_rto: Dur,
    /// Timeout before the first RTT sample.
    pub initial_rto: Dur,
    /// Duplicate ACKs that trigger fast retransmit.
    pub dupack_threshold: u32,
}

impl Default for TcpConfig {
    fn default() -> Self {
        TcpConfig {
            packet_size: 1000,
            initial_window: 2,
            size: None,
            max_window: u64::MAX / 4,
            min_rto: Dur::from_millis(200),
            max_rto: Dur::from_secs(60),
            initial_rto: Dur::from_secs(1),
            dupack_threshold: 3,
        }
    }
}

/// A TCP NewReno sender.
#[derive(Clone, Debug)]
pub struct NewRenoSender {
    flow: FlowId,
    peer: Addr,
    mss: u64,
    /// Segments in the transfer (`u64::MAX` for bulk).
    total_segments: u64,
    /// Payload of the last segment of a finite transfer.
    last_payload: u32,
    max_window: u64,
    dupack_threshold: u32,
    /// Oldest unacknowledged segment.
    snd_una: u64,
    /// Next segment to send.
    snd_nxt: u64,
    /// One past the highest segment ever sent.
    snd_max: u64,
    cwnd: u64,
    ssthresh: u64,
    dupacks: u32,
    in_recovery: bool,
    /// Highest segment outstanding when the last recovery or timeout began (RFC 6582).
    recover: Option<u64>,
    partial_acks: u32,
    rtt: RttEstimator,
    timed: Option<(u64, SimTime)>,
    rto_armed: bool,
    /// Whether the last timer expiry has not yet been followed by a new ACK.
    backed_off: bool,
    stopped: bool,
    stats: AgentStats,
}

impl NewRenoSender {
    /// A sender for `flow` toward the receiver at `peer`.
    ///
    /// # Panics
    /// Panics if `packet_size` does not exceed the 40-byte header (validation prevents it).
    #[must_use]
    pub fn new(flow: FlowId, peer: Addr, cfg: &TcpConfig) -> Self {
        assert!(
            cfg.packet_size > TCP_HEADER_BYTES,
            "invariant: packet size validated above header size"
        );
        let mss = u64::from(cfg.packet_size - TCP_HEADER_BYTES);
        let (total_segments, last_payload) = match cfg.size {
            None => (u64::MAX, cfg.packet_size - TCP_HEADER_BYTES),
            Some(0) => (0, 0),
            Some(size) => {
                let n = size.div_ceil(mss);
                let last = size - (n - 1) * mss;
                (
                    n,
                    u32::try_from(last).expect("last payload is at most one MSS"),
                )
            }
        };
        NewRenoSender {
            flow,
            peer,
            mss,
            total_segments,
            last_payload,
            max_window: cfg.max_window,
            dupack_threshold: cfg.dupack_threshold,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            cwnd: u64::from(cfg.initial_window) * mss,
            ssthresh: u64::MAX,
            dupacks: 0,
            in_recovery: false,
            recover: None,
            partial_acks: 0,
            rtt: RttEstimator::new(cfg.initial_rto, cfg.min_rto, cfg.max_rto),
            timed: None,
            rto_armed: false,
            backed_off: false,
            stopped: false,
            stats: AgentStats::default(),
        }
    }

    /// Congestion window, bytes.
    #[must_use]
    pub fn cwnd(&self) -> u64 {
        self.cwnd
    }
    /// Slow-start threshold, bytes (`u64::MAX` until the first loss).
    #[must_use]
    pub fn ssthresh(&self) -> u64 {
        self.ssthresh
    }
    /// Oldest unacknowledged segment.
    #[must_use]
    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }
    /// Whether the sender is in fast recovery.
    #[must_use]
    pub fn in_recovery(&self) -> bool {
        self.in_recovery
    }
    /// The RTT estimator.
    #[must_use]
    pub fn rtt(&self) -> &RttEstimator {
        &self.rtt
    }
    /// RFC 5681 FlightSize: bytes sent and not cumulatively acknowledged.
    #[must_use]
    pub fn flight_size(&self) -> u64 {
        (self.snd_max - self.snd_una) * self.mss
    }
    /// When a finite transfer finished (last byte acknowledged).
    #[must_use]
    pub fn completed_at(&self) -> Option<SimTime> {
        self.stats.completed_at
    }

    fn payload_of(&self, seq: u64) -> u32 {
        if seq + 1 == self.total_segments {
            self.last_payload
        } else {
            u32::try_from(self.mss).expect("mss fits u32")
        }
    }

    fn send_segment<C: Ctx<Hdr>>(&mut self, seq: u64, ctx: &mut C) {
        let retx = seq < self.snd_max;
        let payload = self.payload_of(seq);
        if retx {
            self.stats.retransmitted_packets += 1;
            self.timed = None; // Karn: never time across a retransmission.
        } else if self.timed.is_none() {
            self.timed = Some((seq, ctx.now()));
        }
        ctx.send(Packet {
            src: Addr::default(),
            dst: self.peer,
            flow: self.flow,
            size: payload + TCP_HEADER_BYTES,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::TcpData { seq, payload, retx },
        });
        if !self.rto_armed {
            self.arm_rto(ctx);
        }
    }

    fn arm_rto<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        ctx.set_timer(RTO_TIMER, ctx.now() + self.rtt.rto());
        self.rto_armed = true;
    }

    /// Send new (or go-back-N) segments while the window allows (RFC 5681 section 3.1).
    fn send_allowed<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let window_segments = (self.cwnd / self.mss).min(self.max_window);
        loop {
            let limit = if self.stopped {
                self.snd_max
            } else {
                self.total_segments
            };
            if self.snd_nxt >= limit || self.snd_nxt - self.snd_una >= window_segments {
                break;
            }
            let seq = self.snd_nxt;
            self.send_segment(seq, ctx);
            self.snd_nxt += 1;
            self.snd_max = self.snd_max.max(self.snd_nxt);
        }
    }

    fn on_ack<C: Ctx<Hdr>>(&mut self, ack: u64, ctx: &mut C) {
        // An ACK for data never sent is treated as acknowledging everything sent.
        let ack = ack.min(self.snd_max);
        if ack > self.snd_una {
            self.on_new_ack(ack, ctx);
        } else if ack == self.snd_una && self.snd_max > self.snd_una {
            self.on_dup_ack(ctx);
        }
    }

    fn on_new_ack<C: Ctx<Hdr>>(&mut self, ack: u64, ctx: &mut C) {
        self.backed_off = false;
        let acked_segments = ack - self.snd_una;
        if let Some((seq, sent)) = self.timed {
            if ack > seq {
                self.rtt.sample(ctx.now() - sent);
                self.timed = None;
            }
        }
        let mut reset_timer = true;
        if self.in_recovery {
            if self.recover.is_some_and(|r| ack > r) {
                // Full ACK (RFC 6582 3.2 step 3).
                self.snd_una = ack;
                let flight = self.flight_size();
                self.cwnd = self.ssthresh.min(flight.max(self.mss) + self.mss);
                self.in_recovery = false;
                self.dupacks = 0;
            } else {
                // Partial ACK (RFC 6582 3.2 step 5): retransmit the first unacknowledged
                // segment, deflate by the amount acknowledged, add back one MSS.
                self.snd_una = ack;
                self.snd_nxt = self.snd_nxt.max(ack);
                self.send_segment(ack, ctx);
                let acked = acked_segments * self.mss;
                self.cwnd = self.cwnd.saturating_sub(acked).max(self.mss);
                if acked >= self.mss {
                    self.cwnd += self.mss;
                }
                self.partial_acks += 1;
                reset_timer = self.partial_acks == 1;
            }
        } else {
            self.snd_una = ack;
            self.dupacks = 0;
            if self.cwnd < self.ssthresh {
                self.cwnd += (acked_segments * self.mss).min(self.mss);
            } else {
                self.cwnd += (self.mss * self.mss / self.cwnd).max(1);
            }
        }
        self.snd_nxt = self.snd_nxt.max(self.snd_una);
        if self.snd_una >= self.total_segments && self.stats.completed_at.is_none() {
            self.stats.completed_at = Some(ctx.now());
        }
        if self.snd_una == self.snd_max {
            // Everything acknowledged: stop the timer (RFC 6298 5.2).
            ctx.cancel_timer(RTO_TIMER);
            self.rto_armed = false;
        } else if reset_timer {
            self.arm_rto(ctx); // RFC 6298 5.3
        }
        self.send_allowed(ctx);
    }

    fn on_dup_ack<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.dupacks += 1;
        if self.in_recovery {
            self.cwnd += self.mss; // RFC 6582 3.2 step 4: inflate per additional dup ACK.
            self.send_allowed(ctx);
            return;
        }
        if self.dupacks != self.dupack_threshold {
            return;
        }
        // RFC 6582 3.2 step 1: enter recovery only if this ACK covers more than `recover`,
        // so a burst of duplicates from data sent before a timeout does not trigger it.
        if self.recover.is_some_and(|r| self.snd_una <= r) {
            return;
        }
        self.ssthresh = (self.flight_size() / 2).max(2 * self.mss); // RFC 5681 eq. 4
        self.recover = Some(self.snd_max - 1);
        self.in_recovery = true;
        self.partial_acks = 0;
        self.send_segment(self.snd_una, ctx);
        self.cwnd = self.ssthresh + 3 * self.mss;
        self.send_allowed(ctx);
    }

    fn on_rto<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.rto_armed = false;
        if self.snd_una == self.snd_max {
            return;
        }
        self.stats.timeouts += 1;
        // RFC 5681 eq. 4 on the first timeout of a series; a timeout of the same segment
        // again keeps ssthresh (RFC 5681 section 3.1, note on repeated retransmissions).
        if !self.backed_off {
            self.ssthresh = (self.flight_size() / 2).max(2 * self.mss);
        }
        self.backed_off = true;
        self.cwnd = self.mss; // loss window, RFC 5681 section 3.1
        self.recover = Some(self.snd_max - 1); // RFC 6582 section 4
        self.in_recovery = false;
        self.dupacks = 0;
        self.rtt.back_off();
        self.timed = None;
        self.snd_nxt = self.snd_una; // go back N
        self.send_allowed(ctx);
        if !self.rto_armed {
            self.arm_rto(ctx);
        }
    }
}

/// The variables a sender records on change when asked.
const TRACED: [VarId; 5] = [
    VarId::Cwnd,
    VarId::Ssthresh,
    VarId::Srtt,
    VarId::Rto,
    VarId::BytesInFlight,
];

impl Agent<Hdr> for NewRenoSender {
    fn on_start<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.total_segments == 0 {
            self.stats.completed_at = Some(ctx.now()); // an empty transfer is done at once
        }
        let before = [f64::NAN; TRACED.len()];
        self.send_allowed(ctx);
        trace_changes(self, ctx, TRACED, before);
    }

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        if let Hdr::TcpAck { ack } = pkt.header {
            let before = traced_values(self, ctx, TRACED);
            self.on_ack(ack, ctx);
            trace_changes(self, ctx, TRACED, before);
        }
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        if slot == RTO_TIMER {
            let before = traced_values(self, ctx, TRACED);
            self.on_rto(ctx);
            trace_changes(self, ctx, TRACED, before);
        }
    }

    fn on_stop<C: Ctx<Hdr>>(&mut self, _ctx: &mut C) {
        self.stopped = true;
    }

    fn var(&self, var: VarId) -> Option<f64> {
        match var {
            VarId::Cwnd => Some(self.cwnd as f64),
            VarId::Ssthresh => Some(if self.ssthresh == u64::MAX {
                f64::NAN
            } else {
                self.ssthresh as f64
            }),
            VarId::Srtt => Some(self.rtt.srtt().map_or(f64::NAN, Dur::as_secs_f64)),
            VarId::Rto => Some(self.rtt.rto().as_secs_f64()),
            VarId::BytesInFlight => Some(self.flight_size() as f64),
            VarId::Rate | VarId::Reports | VarId::Round | VarId::Cluster => None,
        }
    }

    fn stats(&self) -> AgentStats {
        self.stats
    }
}
