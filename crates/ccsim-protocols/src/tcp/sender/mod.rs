//! The TCP sender: sequence numbers, the retransmission timer, ECN, the satellite
//! slow-start options, and dispatch to a congestion-control algorithm ([`super::cc`]) and
//! a loss-recovery flavour (`sender/recovery.rs`).
//!
//! `cwnd` and `ssthresh` are in bytes, as in RFC 5681; sequence numbers are segments.
//!
//! The sender is in rooms, one file per concern: `config.rs` (the algorithm, the keys, building
//! a sender), `ack.rs` (an ACK: what it delivers, one rate sample, the algorithm's hooks),
//! `window.rs` (who sets the window, its validation, limited transmit), `transmit.rs`
//! (sending, pacing, the handshake), `ecn.rs` (CE feedback and the reaction to it), `timers.rs`, `recovery.rs` (loss recovery, PRR, the rescue
//! retransmission), `rack_loss.rs` (RACK), `tlp.rs` (the tail loss probe) and `vegas_ns2.rs`
//! (ns-2's Vegas recovery).

mod ack;
mod config;
mod ecn;
mod rack_loss;
mod recovery;
mod timers;
mod tlp;
mod transmit;
mod vegas_ns2;
mod window;

use ccsim_core::{
    trace_changes, traced_values, Addr, Agent, AgentStats, Ctx, Dur, Ecn, FlowId, Packet, SimTime,
    TimerSlot, VarId,
};
pub use config::{Algorithm, LossRecovery, PacedSlowStart, TcpConfig};
pub use recovery::RecoveryPolicy;

use super::accecn::AccEcnSender;
use super::cc::{AnyCc, CaState, CongestionControl, Window};
use super::hystart::HyStart;
use super::pacing::Pacing;
use super::rack::Rack;
use super::rate::DeliveryRate;
use super::rtt::RttEstimator;
use super::scoreboard::Scoreboard;
use crate::{AckOptions, Hdr};
use config::Recovery;
use recovery::{RateReduction, Rescue};
use timers::Timer;
use tlp::Tlp;
use transmit::Pacer;
use window::Control;

/// A TCP sender.
#[derive(Debug)]
pub struct TcpSender {
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
    state: CaState,
    /// Highest segment outstanding when the last recovery or timeout began (RFC 6582
    /// `recover`, RFC 6675 RecoveryPoint).
    recover: Option<u64>,
    partial_acks: u32,
    /// RFC 6675: retransmission candidates start here.
    rxt_next: u64,
    /// Who sets the window ([`Control`]).
    control: Control,
    recovery: Recovery,
    policy: RecoveryPolicy,
    board: Scoreboard,
    rate: DeliveryRate,
    rtt: RttEstimator,
    timed: Option<(u64, SimTime)>,
    /// Whether the last timer expiry has not yet been followed by a new ACK.
    backed_off: bool,
    ecn: bool,
    /// The first new segment sent after the last ECN reduction; the reduction window ends
    /// when it is acknowledged.
    ecn_recover: u64,
    /// Set CWR on the next new segment.
    send_cwr: bool,
    pacer: Option<Pacer>,
    /// Window validation (Linux `tcp_cwnd_validate`): whether the window was filled in the
    /// current window of data, the most segments outstanding in it, and where it ends.
    cwnd_limited_growth: bool,
    cwnd_limited: bool,
    max_packets_out: u64,
    cwnd_usage_seq: u64,
    stopped: bool,
    /// The segment transmitted last (the `seq` trace variable).
    last_sent: Option<u64>,
    /// ns-2 Vegas: ACKs of new data still to check against the fine-grained timer.
    vegas_ns2_worried: u64,
    /// How slow start ends before a loss (`tcp::hystart`).
    hystart: HyStart,
    /// RFC 3042: on, and the segments it sent since the last ACK of new data.
    limited_transmit: bool,
    limited_sent: u64,
    /// RFC 9937, when on.
    prr: Option<RateReduction>,
    /// What the ACK being processed delivered (segments) and whether it marked a segment
    /// lost, for PRR.
    ack_delivered: u64,
    ack_marked_lost: bool,
    /// RFC 6675 NextSeg rule 4, when on.
    rescue: Option<Rescue>,
    /// RFC 8985: RACK's state, when on.
    rack: Option<Box<Rack>>,
    /// RFC 8985 section 7, when on.
    tlp: Option<Tlp>,
    /// When the retransmission timer expires, while it is armed.
    rto_deadline: Option<SimTime>,
    loss_probes: u64,
    /// The handshake: whether the connection is open, when the SYN last left, and how many
    /// times it was sent again.
    established: bool,
    syn_sent_at: SimTime,
    syn_retries: u32,
    /// IP and TCP header bytes of a data segment (with the timestamp option, if used).
    header_bytes: u32,
    timestamps: bool,
    /// Pacing (`tcp/pacing.rs`), when on; `window_pacing` when the rate is Linux's default
    /// from the window rather than the algorithm's.
    pacing: Option<Pacing>,
    window_pacing: bool,
    first_retransmission: Option<u64>,
    /// AccECN's sender side, when on.
    accecn: Option<AccEcnSender>,
    /// The ECN codepoint of ECN-capable data: ECT(0), or ECT(1) for an L4S sender.
    ect: Ecn,
    stats: AgentStats,
}

/// The historical name of the default sender (NewReno is [`TcpConfig::default`]'s algorithm).
pub type NewRenoSender = TcpSender;

impl TcpSender {
    /// The congestion-control algorithm's state, to hand it what an ACK carries beyond TCP.
    pub(crate) fn controller_mut(&mut self) -> &mut AnyCc {
        self.control.cc_mut()
    }

    /// Set the initial slow-start threshold (bytes, at least two segments) before the
    /// sender starts, e.g. from the path's bandwidth-delay product.
    pub fn set_initial_ssthresh(&mut self, bytes: u64) {
        self.ssthresh = bytes.max(2 * self.mss);
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

    /// One past the highest segment sent.
    #[must_use]
    pub fn snd_max(&self) -> u64 {
        self.snd_max
    }

    /// Whether the sender is in fast recovery.
    #[must_use]
    pub fn in_recovery(&self) -> bool {
        self.state == CaState::Recovery
    }

    /// The congestion-avoidance state.
    #[must_use]
    pub fn state(&self) -> CaState {
        self.state
    }

    /// The RTT estimator.
    #[must_use]
    pub fn rtt(&self) -> &RttEstimator {
        &self.rtt
    }

    /// The congestion-control algorithm's state.
    #[must_use]
    pub fn controller(&self) -> &AnyCc {
        self.control.cc()
    }

    /// Segments delivered (cumulatively or selectively acknowledged) so far.
    #[must_use]
    pub fn delivered(&self) -> u64 {
        self.rate.delivered()
    }

    /// RFC 5681 FlightSize: bytes sent and not cumulatively acknowledged.
    #[must_use]
    pub fn flight_size(&self) -> u64 {
        (self.snd_max - self.snd_una) * self.mss
    }

    /// The pacing rate, payload bytes per second, when the sender paces and has a rate.
    #[must_use]
    pub fn pacing_rate(&self) -> Option<u64> {
        self.pacing.as_ref().map(Pacing::rate).filter(|&r| r > 0)
    }

    /// Tail loss probes sent (RFC 8985 section 7).
    #[must_use]
    pub fn loss_probes(&self) -> u64 {
        self.loss_probes
    }

    /// When a finite transfer finished (last byte acknowledged).
    #[must_use]
    pub fn completed_at(&self) -> Option<SimTime> {
        self.stats.completed_at
    }

    fn set_state(&mut self, state: CaState) {
        if self.state != state {
            match state {
                CaState::Loss => self.hystart.on_timeout(),
                CaState::Recovery | CaState::Cwr => self.hystart.on_congestion(),
                CaState::Open => {}
            }
            if state != CaState::Recovery {
                if let Some(prr) = self.prr.as_mut() {
                    prr.episode = None;
                }
            }
            if state == CaState::Open && matches!(self.state, CaState::Recovery | CaState::Loss) {
                if let Some(rack) = self.rack.as_mut() {
                    rack.on_recovery_end();
                }
            }
            self.state = state;
            let mut w = self.window();
            self.control
                .cc_mut()
                .on_state(&mut w, state, self.snd_nxt.max(self.snd_max));
            self.set_window(w);
        }
    }
}

/// The variables a sender records on change when asked.
const TRACED: [VarId; 11] = [
    VarId::Cwnd,
    VarId::Ssthresh,
    VarId::Srtt,
    VarId::Rto,
    VarId::BytesInFlight,
    VarId::CaState,
    VarId::Rate,
    VarId::BtlBw,
    VarId::MinRtt,
    VarId::PacingGain,
    VarId::CwndGain,
];

impl Agent<Hdr> for TcpSender {
    fn on_start<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.total_segments == 0 {
            self.stats.completed_at = Some(ctx.now()); // an empty transfer is done at once
            ctx.finish();
        }
        let before = [f64::NAN; TRACED.len()];
        if self.established {
            self.init_controller(ctx.now());
            self.send_allowed(ctx);
        } else if self.total_segments > 0 {
            self.send_syn(ctx);
        }
        trace_changes(self, ctx, TRACED, before);
    }

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        match &pkt.header {
            Hdr::TcpAck {
                ack,
                ece,
                opts,
                ace,
            } if self.established => {
                let before = traced_values(self, ctx, TRACED);
                let blocks = AckOptions::sack_of(opts.as_deref());
                let accecn = opts.as_deref().and_then(|o| o.accecn.as_ref());
                self.on_ack(*ack, *ece, *ace, blocks, accecn, ctx);
                trace_changes(self, ctx, TRACED, before);
            }
            Hdr::TcpSyn { ack: true, .. } => {
                let before = traced_values(self, ctx, TRACED);
                self.on_syn_ack(ctx);
                trace_changes(self, ctx, TRACED, before);
            }
            _ => {}
        }
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        let before = traced_values(self, ctx, TRACED);
        match Timer::of(slot) {
            Some(Timer::Retransmission) => self.on_rto(ctx),
            Some(Timer::Pacing) => self.on_pace_timer(ctx),
            Some(Timer::Reordering) => self.on_reo_timer(ctx),
            Some(Timer::Probe) => self.on_probe_timer(ctx),
            None => {}
        }
        trace_changes(self, ctx, TRACED, before);
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
            VarId::CaState => Some(match self.state {
                CaState::Open => 0.0,
                CaState::Cwr => 1.0,
                CaState::Recovery => 2.0,
                CaState::Loss => 3.0,
            }),
            VarId::Seq => self.last_sent.map(|s| s as f64),
            // The pacing rate, payload bit/s, of a sender that paces.
            VarId::Rate => self.pacing_rate().map(|r| r as f64 * 8.0),
            VarId::BtlBw | VarId::MinRtt | VarId::PacingGain | VarId::CwndGain => {
                self.control.cc().model_var(var)
            }
            VarId::Reports | VarId::Round | VarId::Cluster => None,
        }
    }

    fn stats(&self) -> AgentStats {
        self.stats
    }
}
