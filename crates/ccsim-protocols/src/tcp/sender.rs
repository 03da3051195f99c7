//! The TCP sender: sequence numbers, the retransmission timer, ECN, the satellite
//! slow-start options, and dispatch to a congestion-control algorithm ([`super::cc`]) and
//! a loss-recovery flavour (`sender/recovery.rs`).
//!
//! `cwnd` and `ssthresh` are in bytes, as in RFC 5681; sequence numbers are segments.
//! CHOICE: RTT for the retransmission timer is measured on one timed segment at a time
//! (the classic BSD scheme, which RFC 6298 section 3 allows); a retransmission cancels the
//! measurement (Karn's rule). Congestion control gets one RTT sample per ACK that advances
//! the ACK point (the newest segment it covers, if never retransmitted).
//! Limited transmit (RFC 3042, `limited_transmit`, off by default; ns-2.35's agents run it,
//! their `singledup_ 1`): on each
//! of the first two duplicate ACKs in the open state, one new segment, if the receiver window
//! allows and what is outstanding stays within cwnd + 2 segments; cwnd is unchanged, and the
//! FlightSize that sets ssthresh at the fast retransmit leaves those segments out (RFC 5681
//! section 3.2, step 2). The receiver window is `max_window` (unbounded by default).
//!
//! Window validation (RFC 7661's problem, solved as Linux's `tcp_is_cwnd_limited` does):
//! the window grows on an ACK only if the sender filled it during the last window of data,
//! or, in slow start, while it is below twice the most segments outstanding in that window.
//! A sender held back by pacing, the receiver window or the application therefore keeps
//! its window near what it uses instead of growing it without bound.
//! CHOICE: Linux's rule rather than RFC 7661's pipeACK measurement and non-validated phase
//! (the rule ns-3 and Linux users meet in practice); `cwnd_limited_growth = false` restores
//! RFC 5681's unconditional growth. Vegas's once-per-round adjustment is not gated, as in
//! Linux's `tcp_vegas_cong_avoid`.
//!
//! ECN (RFC 3168 section 6.1): data segments of an ECN-capable flow are ECT, except
//! retransmissions (section 6.1.5); an ACK with ECE halves the window (the algorithm's
//! ssthresh) at most once per window of data, the ACK does not grow the window, and the
//! next new segment carries CWR.
//! CHOICE: the reduction window ends when the first new segment sent after the reduction
//! (the one carrying CWR) is acknowledged, not when the data outstanding at the reduction
//! is: ACKs that leave the receiver before CWR reaches it still echo the old CE mark, and a
//! small window acknowledged in one burst would otherwise be halved twice within a round
//! trip. Reductions are thus at least one round trip apart (RFC 3168 section 6.1.2, "more
//! loosely, once every round-trip time").
//! CHOICE: a fast retransmit while the window is already reduced for ECN in the same
//! window, or an ECE during loss recovery or after a timeout, does not reduce it again
//! (section 6.1.2: react at most once per window of data).
//!
//! Satellite slow-start options (Barakat, Chafer, Dabbous and Altman, "Improving TCP/IP
//! over geostationary satellite links"): an initial ssthresh (set from the path's
//! bandwidth-delay product by the scenario, or given), and paced slow start: in slow
//! start, segments leave at least a spacing apart, so the second segment of each
//! ACK-triggered pair waits; the spacing is by default half the estimated time between
//! ACKs.
//! CHOICE: the spacing applies between any two slow-start transmissions, not only within
//! a pair, so ACKs that arrive bunched do not release bursts either; a spacing at or above
//! the inter-ACK time lowers the slow-start sending rate to the ACK rate.
//! CHOICE: the inter-ACK time is an EWMA (gain 1/8, as SRTT) of the gaps between ACKs
//! that advance the ACK point; until two such ACKs have arrived there is no spacing.

mod recovery;
mod vegas_ns2;

pub use recovery::RecoveryPolicy;

use ccsim_core::{
    trace_changes, traced_values, Addr, Agent, AgentStats, Ctx, Dur, Ecn, FlowId, Packet, SimTime,
    TimerSlot, VarId,
};

use super::accecn::{AccEcnOption, AccEcnSender};
use super::cc::{
    AckEvent, AnyCc, Bbr, CaState, CongestionControl, Conn, Cubic, CubicParams, Dctcp, DctcpParams,
    Delivery, LinuxReno, Prague, PragueParams, Reno, Vegas, VegasNs2, VegasParams, VegasVariant,
    Window,
};
use super::hystart::{HyStart, HyStartKind, Verdict};
use super::pacing::Pacing;
use super::prr::Prr;
use super::rack::Rack;
use super::rate::DeliveryRate;
use super::rtt::{RtoPolicy, RttEstimator};
use super::scoreboard::Scoreboard;
use crate::{tcp_header_bytes, tcp_syn_bytes, AckOptions, Hdr, SackBlock};

const RTO_TIMER: TimerSlot = TimerSlot(0);
const PACE_TIMER: TimerSlot = TimerSlot(1);
/// RACK's reordering timer (RFC 8985 section 6.3).
const REO_TIMER: TimerSlot = TimerSlot(2);
/// The tail loss probe's timer (RFC 8985 section 7.2).
const PROBE_TIMER: TimerSlot = TimerSlot(3);
/// RFC 8985 section 7.2's WCDelAckT, the worst-case delayed-ACK time, added to the probe
/// timeout when one segment is outstanding.
const WORST_CASE_DELAYED_ACK: Dur = Dur::from_millis(200);
/// SYN retransmissions before the sender gives up (Linux's `tcp_syn_retries`).
const MAX_SYN_RETRIES: u32 = 6;

/// A congestion-control algorithm with its loss recovery.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algorithm {
    /// Tahoe: fast retransmit, then slow start from one segment (no fast recovery).
    Tahoe,
    /// Reno: RFC 5681 fast recovery, left on the first ACK of new data.
    Reno,
    /// NewReno: RFC 6582 fast recovery with partial acknowledgements.
    NewReno,
    /// SACK: RFC 2018 blocks and RFC 6675 loss recovery with the pipe estimate.
    Sack,
    /// Vegas congestion avoidance and slow start: NewReno loss recovery (Linux's variant) or
    /// ns-2's (`VegasVariant::Ns2`).
    Vegas(VegasParams),
    /// CUBIC (RFC 9438, Linux's arithmetic) with SACK loss recovery, as Linux runs it.
    Cubic(CubicParams),
    /// DCTCP (RFC 8257, Linux's arithmetic) with SACK loss recovery; ECN-capable, its
    /// receiver echoing CE per segment.
    Dctcp(DctcpParams),
    /// BBR v1 (Linux's `tcp_bbr.c`) with SACK loss recovery, paced.
    Bbr,
    /// BBR v3 (Google's `tcp_bbr.c`, branch v3) with SACK loss recovery, paced; it reacts to
    /// ECN when the flow is ECN-capable.
    Bbr3,
    /// TCP Prague (L4STeam's `tcp_prague.c`) with SACK loss recovery: ECT(1), AccECN,
    /// paced.
    Prague(PragueParams),
    /// An algorithm from outside the built-in set ([`AnyCc::Custom`]) under its registered
    /// name, with the loss recovery it runs with; the sender is built with
    /// [`TcpSender::with_controller`].
    Custom {
        /// The registered name (`protocol = "..."`).
        name: &'static str,
        /// Its loss recovery.
        recovery: LossRecovery,
        /// It sets the window and the pacing rate itself (`cong_control`), as BBR.
        model_based: bool,
    },
}

/// The loss recovery a custom algorithm runs with: the built-in senders' (RFC 5681, 6582,
/// 6675), named as the protocols that use them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossRecovery {
    /// Tahoe's: fast retransmit, then slow start from one segment.
    Tahoe,
    /// Reno's (RFC 5681 fast recovery).
    Reno,
    /// NewReno's (RFC 6582).
    NewReno,
    /// SACK's (RFC 2018, RFC 6675); the receiver sends SACK blocks.
    Sack,
}

impl LossRecovery {
    /// The name used in files and in Python (`"tahoe"`, `"reno"`, `"newreno"`, `"sack"`).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "tahoe" => Some(LossRecovery::Tahoe),
            "reno" => Some(LossRecovery::Reno),
            "newreno" => Some(LossRecovery::NewReno),
            "sack" => Some(LossRecovery::Sack),
            _ => None,
        }
    }
}

impl Algorithm {
    /// The name used in scenario files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Tahoe => "tahoe",
            Algorithm::Reno => "reno",
            Algorithm::NewReno => "newreno",
            Algorithm::Sack => "sack",
            Algorithm::Vegas(_) => "vegas",
            Algorithm::Cubic(_) => "cubic",
            Algorithm::Dctcp(_) => "dctcp",
            Algorithm::Bbr => "bbr",
            Algorithm::Bbr3 => "bbr3",
            Algorithm::Prague(_) => "prague",
            Algorithm::Custom { name, .. } => name,
        }
    }

    /// Whether the receiver must send SACK blocks.
    #[must_use]
    pub fn uses_sack(self) -> bool {
        matches!(
            self,
            Algorithm::Sack
                | Algorithm::Cubic(_)
                | Algorithm::Dctcp(_)
                | Algorithm::Bbr
                | Algorithm::Bbr3
                | Algorithm::Prague(_)
                | Algorithm::Custom {
                    recovery: LossRecovery::Sack,
                    ..
                }
        )
    }

    /// Whether the algorithm sets the window and the pacing rate itself (`cong_control`).
    #[must_use]
    pub fn sets_pacing_rate(self) -> bool {
        matches!(
            self,
            Algorithm::Bbr
                | Algorithm::Bbr3
                | Algorithm::Prague(_)
                | Algorithm::Custom {
                    model_based: true,
                    ..
                }
        )
    }

    /// Whether the flow is an L4S flow: ECT(1) and AccECN (RFC 9331).
    #[must_use]
    pub fn is_l4s(self) -> bool {
        matches!(self, Algorithm::Prague(_))
    }

    fn recovery(self) -> Recovery {
        match self {
            Algorithm::Tahoe => Recovery::Tahoe,
            Algorithm::Reno => Recovery::Reno,
            Algorithm::Vegas(p) if p.variant == VegasVariant::Ns2 => Recovery::VegasNs2,
            Algorithm::NewReno | Algorithm::Vegas(_) => Recovery::NewReno,
            Algorithm::Sack
            | Algorithm::Cubic(_)
            | Algorithm::Dctcp(_)
            | Algorithm::Bbr
            | Algorithm::Bbr3
            | Algorithm::Prague(_) => Recovery::Sack,
            Algorithm::Custom { recovery, .. } => match recovery {
                LossRecovery::Tahoe => Recovery::Tahoe,
                LossRecovery::Reno => Recovery::Reno,
                LossRecovery::NewReno => Recovery::NewReno,
                LossRecovery::Sack => Recovery::Sack,
            },
        }
    }

    fn controller(self, ecn: bool, linux_growth: bool) -> AnyCc {
        match self {
            Algorithm::Custom { name, .. } => {
                panic!("invariant: the custom algorithm {name:?} is built with with_controller")
            }
            Algorithm::Vegas(p) if p.variant == VegasVariant::Ns2 => {
                AnyCc::VegasNs2(VegasNs2::new(p))
            }
            Algorithm::Vegas(p) => AnyCc::Vegas(Vegas::new(p)),
            Algorithm::Cubic(p) => AnyCc::Cubic(Cubic::new(p)),
            Algorithm::Dctcp(p) => AnyCc::Dctcp(Dctcp::new(p)),
            Algorithm::Bbr => AnyCc::Bbr(Box::new(Bbr::new())),
            Algorithm::Bbr3 => AnyCc::Bbr(Box::new(Bbr::v3(ecn))),
            Algorithm::Prague(p) => AnyCc::Prague(Box::new(Prague::new(p))),
            _ if linux_growth => AnyCc::LinuxReno(LinuxReno::default()),
            _ => AnyCc::Reno(Reno),
        }
    }
}

/// Loss-recovery flavours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Recovery {
    Tahoe,
    Reno,
    NewReno,
    Sack,
    /// ns-2's Vegas agent (`sender/vegas_ns2.rs`).
    VegasNs2,
}

/// Paced slow start (the second satellite option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacedSlowStart {
    /// Delay between the segments one ACK releases; `None` for half the estimated
    /// inter-ACK time.
    pub spacing: Option<Dur>,
}

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
    /// Whose arithmetic computes the timeout ([`RtoPolicy`]).
    pub rto_policy: RtoPolicy,
    /// Duplicate ACKs that trigger fast retransmit (DupThresh).
    pub dupack_threshold: u32,
    /// Congestion control and loss recovery.
    pub algorithm: Algorithm,
    /// How a SACK sender recovers, or ns-2.35's rules for Tahoe, Reno and NewReno
    /// ([`RecoveryPolicy`]).
    pub recovery_policy: RecoveryPolicy,
    /// ECN-capable (RFC 3168).
    pub ecn: bool,
    /// Initial slow-start threshold, bytes (`None`: unbounded, RFC 5681).
    pub initial_ssthresh: Option<u64>,
    /// Paced slow start (`None`: off).
    pub paced_slow_start: Option<PacedSlowStart>,
    /// Grow the window only while the sender uses it (see the module docs).
    pub cwnd_limited_growth: bool,
    /// For the Reno family: Linux's growth, acknowledged segments counted
    /// (`cc::LinuxReno`), instead of RFC 5681's per-ACK rule.
    pub linux_growth: bool,
    /// How slow start ends before a loss ([`HyStartKind`]).
    pub hystart: HyStartKind,
    /// RFC 3042 limited transmit.
    pub limited_transmit: bool,
    /// RFC 9937 Proportional Rate Reduction in SACK recovery (else RFC 6675's cwnd =
    /// ssthresh throughout).
    pub prr: bool,
    /// RFC 6675 NextSeg rule 4: one rescue retransmission of the highest unSACKed segment
    /// per recovery when rules 1-3 offer nothing.
    pub rescue_retransmission: bool,
    /// RFC 8985 RACK: losses detected by time instead of DupThresh (SACK recovery only).
    pub rack: bool,
    /// RFC 8985 section 7: the tail loss probe (with `rack`).
    pub tlp: bool,
    /// Open with the three-way handshake (SYN, SYN-ACK) before sending data.
    pub handshake: bool,
    /// RFC 7323 timestamps: 12 bytes more per segment, an RTT sample on every ACK.
    pub timestamps: bool,
    /// Pace a window-based flow at Linux's default rate (`tcp/pacing.rs`); algorithms that
    /// set their own rate (BBR) always pace.
    pub pacing: bool,
    /// Accurate ECN feedback (`tcp/accecn.rs`); implies ECN.
    pub accecn: bool,
}

impl Default for TcpConfig {
    fn default() -> Self {
        TcpConfig {
            packet_size: 1000,
            initial_window: 2,
            size: None,
            max_window: u64::MAX / 4,
            // Linux's timer and its bounds (RtoPolicy::defaults).
            min_rto: Dur::from_millis(200),
            max_rto: Dur::from_secs(120),
            initial_rto: Dur::from_secs(1),
            rto_policy: RtoPolicy::Linux,
            dupack_threshold: 3,
            algorithm: Algorithm::NewReno,
            recovery_policy: RecoveryPolicy::Ns3,
            ecn: false,
            initial_ssthresh: None,
            paced_slow_start: None,
            cwnd_limited_growth: true,
            hystart: HyStartKind::Off,
            limited_transmit: false,
            prr: false,
            rescue_retransmission: false,
            rack: false,
            tlp: false,
            handshake: false,
            timestamps: false,
            pacing: false,
            accecn: false,
            linux_growth: false,
        }
    }
}

/// Paced slow-start state.
#[derive(Clone, Debug)]
struct Pacer {
    spacing: Option<Dur>,
    /// EWMA of the time between ACKs, ns.
    inter_ack: Option<u64>,
    last_ack_at: Option<SimTime>,
    /// The earliest time the next slow-start segment may go.
    next_at: SimTime,
    armed: bool,
}

impl Pacer {
    fn spacing(&self) -> Option<u64> {
        self.spacing.map(|d| d.0).or(self.inter_ack.map(|g| g / 2))
    }
}

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
    cc: AnyCc,
    recovery: Recovery,
    policy: RecoveryPolicy,
    board: Scoreboard,
    rate: DeliveryRate,
    rtt: RttEstimator,
    timed: Option<(u64, SimTime)>,
    rto_armed: bool,
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
    /// RFC 9937: on, and the state of the current recovery.
    prr_enabled: bool,
    prr: Option<Prr>,
    /// What the ACK being processed delivered (segments) and whether it marked a segment
    /// lost, for PRR.
    ack_delivered: u64,
    ack_marked_lost: bool,
    /// RFC 6675 rule 4: on, and `RescueRxt`.
    rescue_enabled: bool,
    rescue_rxt: Option<u64>,
    /// RFC 8985: RACK's state, when on.
    rack: Option<Box<Rack>>,
    /// RFC 8985 section 7: on, the probe outstanding (TLP.end_seq, whether it was a
    /// retransmission, of which segment), and when the retransmission timer expires.
    tlp_enabled: bool,
    tlp_end: Option<u64>,
    tlp_retrans: bool,
    tlp_seq: u64,
    rto_deadline: SimTime,
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
    /// The algorithm sets the window on every ACK (`AnyCc::sets_window`).
    model_based: bool,
    /// While an ACK is processed for a model-based algorithm, sending waits until the
    /// algorithm has set the window; the first retransmission of a recovery waits here.
    sending_deferred: bool,
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
    /// A sender for `flow` toward the receiver at `peer`.
    ///
    /// # Panics
    /// Panics if `packet_size` does not exceed the 40-byte header (validation prevents it).
    /// Panics if `cfg.algorithm` is [`Algorithm::Custom`] (build it with
    /// [`TcpSender::with_controller`]).
    #[must_use]
    pub fn new(flow: FlowId, peer: Addr, cfg: &TcpConfig) -> Self {
        Self::build(
            flow,
            peer,
            cfg,
            cfg.algorithm.controller(cfg.ecn, cfg.linux_growth),
        )
    }

    fn build(flow: FlowId, peer: Addr, cfg: &TcpConfig, cc: AnyCc) -> Self {
        let header_bytes = tcp_header_bytes(cfg.timestamps);
        assert!(
            cfg.packet_size > header_bytes,
            "invariant: packet size validated above header size"
        );
        let mss = u64::from(cfg.packet_size - header_bytes);
        let (total_segments, last_payload) = match cfg.size {
            None => (u64::MAX, cfg.packet_size - header_bytes),
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
        TcpSender {
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
            ssthresh: cfg.initial_ssthresh.map_or(u64::MAX, |s| s.max(2 * mss)),
            dupacks: 0,
            state: CaState::Open,
            recover: None,
            partial_acks: 0,
            rxt_next: 0,
            model_based: cc.sets_window(),
            cc,
            recovery: cfg.algorithm.recovery(),
            policy: cfg.recovery_policy,
            board: if cfg.rack {
                Scoreboard::by_time()
            } else {
                Scoreboard::new(cfg.dupack_threshold)
            },
            rate: DeliveryRate::default(),
            rtt: RttEstimator::new(cfg.rto_policy, cfg.initial_rto, cfg.min_rto, cfg.max_rto),
            timed: None,
            rto_armed: false,
            backed_off: false,
            ecn: cfg.ecn
                || cfg.accecn
                || matches!(cfg.algorithm, Algorithm::Dctcp(_) | Algorithm::Prague(_)),
            ecn_recover: 0,
            send_cwr: false,
            pacer: cfg.paced_slow_start.map(|p| Pacer {
                spacing: p.spacing,
                inter_ack: None,
                last_ack_at: None,
                next_at: SimTime::ZERO,
                armed: false,
            }),
            cwnd_limited_growth: cfg.cwnd_limited_growth,
            cwnd_limited: false,
            max_packets_out: 0,
            cwnd_usage_seq: 0,
            stopped: false,
            last_sent: None,
            vegas_ns2_worried: 0,
            hystart: HyStart::new(cfg.hystart).paced(cfg.pacing),
            limited_transmit: cfg.limited_transmit,
            limited_sent: 0,
            prr_enabled: cfg.prr,
            prr: None,
            ack_delivered: 0,
            ack_marked_lost: false,
            rescue_enabled: cfg.rescue_retransmission,
            rescue_rxt: None,
            rack: cfg.rack.then(|| Box::new(Rack::new(cfg.dupack_threshold))),
            tlp_enabled: cfg.tlp && cfg.rack,
            tlp_end: None,
            tlp_retrans: false,
            tlp_seq: 0,
            rto_deadline: SimTime::ZERO,
            loss_probes: 0,
            established: !cfg.handshake,
            syn_sent_at: SimTime::ZERO,
            syn_retries: 0,
            header_bytes,
            timestamps: cfg.timestamps,
            pacing: (cfg.pacing || cfg.algorithm.sets_pacing_rate()).then(Pacing::default),
            window_pacing: cfg.pacing && !cfg.algorithm.sets_pacing_rate(),
            sending_deferred: false,
            first_retransmission: None,
            accecn: (cfg.accecn || cfg.algorithm.is_l4s())
                .then(|| AccEcnSender::new(mss, cfg.algorithm.uses_sack())),
            ect: if cfg.algorithm.is_l4s() {
                Ecn::Ect1
            } else {
                Ecn::Ect
            },
            stats: AgentStats::default(),
        }
    }

    /// A sender whose window algorithm is `cc` instead of `cfg.algorithm`'s; loss recovery
    /// stays `cfg.algorithm`'s (XCP's window follows router feedback, its losses Reno's; a
    /// custom algorithm's recovery is [`Algorithm::Custom`]'s). Whether the sender paces and
    /// leaves the window to `cc` follows `cfg.algorithm` and [`AnyCc::sets_window`].
    ///
    /// # Panics
    /// Panics if `packet_size` does not exceed the 40-byte header (validation prevents it).
    #[must_use]
    pub fn with_controller(flow: FlowId, peer: Addr, cfg: &TcpConfig, cc: AnyCc) -> Self {
        Self::build(flow, peer, cfg, cc)
    }

    /// The congestion-control algorithm's state, to hand it what an ACK carries beyond TCP.
    pub(crate) fn controller_mut(&mut self) -> &mut AnyCc {
        &mut self.cc
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
        &self.cc
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

    fn window(&self) -> Window {
        Window {
            cwnd: self.cwnd,
            ssthresh: self.ssthresh,
            mss: self.mss,
            flight: self.flight_size(),
            cwnd_limited: self.may_grow(),
        }
    }

    /// Linux `tcp_is_cwnd_limited`: whether an ACK may grow the window.
    fn may_grow(&self) -> bool {
        !self.cwnd_limited_growth
            || self.cwnd_limited
            || (self.cwnd < self.ssthresh && self.cwnd < 2 * self.max_packets_out * self.mss)
    }

    /// Linux `tcp_cwnd_validate`, after a round of transmissions: remember for the current
    /// window of data whether the window was full (`limited`), or else the most segments
    /// outstanding.
    fn note_window_use(&mut self, limited: bool) {
        let packets_out = self.snd_nxt.saturating_sub(self.snd_una);
        if self.snd_una >= self.cwnd_usage_seq
            || limited
            || (!self.cwnd_limited && packets_out > self.max_packets_out)
        {
            self.cwnd_limited = limited;
            self.max_packets_out = packets_out;
            self.cwnd_usage_seq = self.snd_nxt;
        }
    }

    fn set_window(&mut self, w: Window) {
        self.cwnd = w.cwnd;
        self.ssthresh = w.ssthresh;
    }

    /// The algorithm's slow-start threshold for an ECN echo now.
    fn congestion_ssthresh(&mut self) -> u64 {
        let w = self.window();
        self.cc.ssthresh(&w)
    }

    /// The algorithm's slow-start threshold for a loss now, from a FlightSize without the
    /// segments limited transmit sent (RFC 5681 section 3.2, step 2).
    fn loss_ssthresh(&mut self) -> u64 {
        let mut w = self.window();
        w.flight = w.flight.saturating_sub(self.limited_sent * self.mss);
        self.cc.loss_ssthresh(&w)
    }

    /// RFC 3042: one new segment on a duplicate ACK, if the receiver window allows and what
    /// is outstanding stays within cwnd + 2 segments.
    fn limited_transmit<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let outstanding = self.snd_max - self.snd_una;
        if self.snd_nxt == self.snd_max
            && self.snd_max < self.data_limit()
            && outstanding < self.max_window
            && outstanding < self.cwnd / self.mss + 2
        {
            let seq = self.snd_nxt;
            self.send_segment(seq, ctx);
            self.snd_nxt += 1;
            self.snd_max = self.snd_nxt;
            self.limited_sent += 1;
        }
    }

    fn set_state(&mut self, state: CaState) {
        if self.state != state {
            match state {
                CaState::Loss => self.hystart.on_timeout(),
                CaState::Recovery | CaState::Cwr => self.hystart.on_congestion(),
                CaState::Open => {}
            }
            if state != CaState::Recovery {
                self.prr = None;
            }
            if state == CaState::Open && matches!(self.state, CaState::Recovery | CaState::Loss) {
                if let Some(rack) = self.rack.as_mut() {
                    rack.on_recovery_end();
                }
            }
            self.state = state;
            let mut w = self.window();
            self.cc
                .on_state(&mut w, state, self.snd_nxt.max(self.snd_max));
            self.set_window(w);
        }
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
        let now = ctx.now();
        if retx {
            self.stats.retransmitted_packets += 1;
            self.timed = None; // Karn: never time across a retransmission.
        } else if self.timed.is_none() {
            self.timed = Some((seq, now));
        }
        let snap = self.rate.on_send(
            now,
            self.snd_una == self.snd_max,
            self.board.marked_lost(),
            self.board.pipe() + 1,
        );
        if let Some(p) = self.pacing.as_mut() {
            p.on_send(now, payload);
        }
        if let Some(rack) = self.rack.as_mut() {
            rack.on_send(seq, now);
        }
        let counted = self.state == CaState::Recovery
            || (self.state == CaState::Loss && self.sends_by_pipe_after_rto());
        if let Some(prr) = self.prr.as_mut() {
            prr.on_send();
        }
        self.board.on_send(seq, snap, retx, counted);
        let cwr = self.send_cwr && !retx;
        self.send_cwr &= !cwr;
        self.last_sent = Some(seq);
        if ctx.tracing(VarId::Seq) {
            ctx.trace(VarId::Seq, seq as f64);
        }
        ctx.send(Packet {
            src: Addr::default(),
            dst: self.peer,
            flow: self.flow,
            size: payload + self.header_bytes,
            sent_at: SimTime::ZERO,
            ecn: if self.ecn && !retx {
                self.ect
            } else {
                Ecn::NotEct
            },
            header: Hdr::TcpData {
                seq,
                payload,
                retx,
                cwr,
            },
        });
        if !self.rto_armed {
            self.arm_rto(ctx);
        }
    }

    fn arm_rto<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.rto_deadline = ctx.now() + self.rtt.rto();
        ctx.set_timer(RTO_TIMER, self.rto_deadline);
        self.rto_armed = true;
    }

    /// The segment after the last one the application offers.
    fn data_limit(&self) -> u64 {
        if self.stopped {
            self.snd_max
        } else {
            self.total_segments
        }
    }

    /// Pacing and paced slow start: whether one more segment may go now; arms the pacing
    /// timer if not.
    fn pace_allows<C: Ctx<Hdr>>(&mut self, ctx: &mut C) -> bool {
        if let Some(p) = self.pacing.as_mut() {
            if !p.may_send(ctx.now()) {
                if !p.armed {
                    p.armed = true;
                    ctx.set_timer(PACE_TIMER, p.next_release());
                }
                return false;
            }
        }
        let slow_start = self.cwnd < self.ssthresh && self.state == CaState::Open;
        let Some(p) = self.pacer.as_mut() else {
            return true;
        };
        let Some(spacing) = p.spacing().filter(|_| slow_start) else {
            return true;
        };
        let now = ctx.now();
        if now >= p.next_at {
            p.next_at = now + Dur(spacing);
            return true;
        }
        if !p.armed {
            p.armed = true;
            ctx.set_timer(PACE_TIMER, p.next_at);
        }
        false
    }

    /// Send new (or go-back-N) segments while the window allows (RFC 5681 section 3.1): the
    /// data outstanding, FlightSize, against cwnd; under `RecoveryPolicy::Linux` the pipe, as
    /// Linux's `tcp_cwnd_test` counts `tcp_packets_in_flight` in every state, so a SACKed
    /// segment frees window before recovery starts. The receiver window always bounds
    /// FlightSize.
    fn send_allowed<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.sending_deferred {
            return;
        }
        let cwnd_segments = self.cwnd / self.mss;
        let by_pipe = self.recovery == Recovery::Sack && self.policy == RecoveryPolicy::Linux;
        let mut cwnd_full = false;
        loop {
            // Go-back-N skips what the receiver already holds (SACKed after a timeout).
            while self.snd_nxt < self.snd_max && self.board.is_sacked(self.snd_nxt) {
                self.snd_nxt += 1;
            }
            if self.snd_nxt >= self.data_limit() {
                self.check_app_limited();
                break;
            }
            let outstanding = self.snd_nxt - self.snd_una;
            let in_flight = if by_pipe {
                self.board.pipe()
            } else {
                outstanding
            };
            if in_flight >= cwnd_segments || outstanding >= self.max_window {
                cwnd_full = in_flight >= cwnd_segments;
                break;
            }
            if !self.pace_allows(ctx) {
                break;
            }
            let seq = self.snd_nxt;
            self.send_segment(seq, ctx);
            self.snd_nxt += 1;
            self.snd_max = self.snd_max.max(self.snd_nxt);
        }
        self.note_window_use(cwnd_full);
    }

    /// Linux's `tcp_rate_check_app_limited` when the application has nothing more to send:
    /// application-limited if the window has room and no lost segment waits.
    fn check_app_limited(&mut self) {
        let in_flight = self.board.pipe();
        if in_flight < self.cwnd / self.mss && matches!(self.state, CaState::Open | CaState::Cwr) {
            self.rate.mark_app_limited(in_flight);
        }
    }

    fn on_ack<C: Ctx<Hdr>>(
        &mut self,
        ack: u64,
        ece: bool,
        ace: Option<u8>,
        sack: Option<&[SackBlock]>,
        accecn_option: Option<&AccEcnOption>,
        ctx: &mut C,
    ) {
        let now = ctx.now();
        let mut newly_sacked = 0;
        // Whether this ACK newly SACKs the flow's short last segment (AccECN's byte count).
        let mut last_sacked = false;
        let last = self.total_segments.wrapping_sub(1);
        let marked_lost = self.board.marked_lost();
        let prior_in_flight = if self.model_based {
            self.board.pipe()
        } else {
            0
        };
        let old_ack = ack < self.snd_una;
        self.sending_deferred = self.model_based;
        if let Some(rack) = self.rack.as_deref_mut() {
            rack.begin_ack();
        }
        // An ACK for data never sent is treated as acknowledging everything sent.
        let ack = ack.min(self.snd_max);
        // RFC 2883 section 4: a first block below the ACK point or inside the second is a
        // D-SACK, a segment that arrived twice.
        let dsack = sack.and_then(|b| {
            let first = b.first()?;
            let inside_second = b
                .get(1)
                .is_some_and(|s| s.start <= first.start && first.end <= s.end);
            (first.end <= ack.max(self.snd_una) || inside_second).then_some(*first)
        });
        if let Some(blocks) = sack {
            let rate = &mut self.rate;
            let mut rack = self.rack.as_deref_mut();
            self.board.mark_sacked(blocks, |seq, s| {
                newly_sacked += 1;
                last_sacked |= seq == last;
                rate.on_delivered(seq, &s.snap, s.retx, now);
                if let Some(r) = rack.as_mut() {
                    r.on_delivered(seq, s.snap.sent_time, s.retx, now);
                }
            });
        }
        if let Some(rack) = self.rack.as_deref_mut() {
            for seq in self.snd_una..ack.max(self.snd_una) {
                if let Some(s) = self.board.get(seq).filter(|s| !s.sacked) {
                    rack.on_delivered(seq, s.snap.sent_time, s.retx, now);
                }
            }
            self.rack_detect_loss(ack.max(self.snd_una), dsack.is_some(), ctx);
        }
        self.ack_marked_lost = self.board.marked_lost() > marked_lost;
        // Segments this ACK delivers: newly SACKed, or acknowledged and not SACKed before
        // (Linux's `acked_sacked`): what PRR counts, DCTCP watches and the window grows by.
        let cumulative = (self.snd_una..ack.max(self.snd_una))
            .filter(|&q| !self.board.is_sacked(q))
            .count() as u64;
        self.ack_delivered = newly_sacked + cumulative;
        // The segments this ACK reports CE-marked: AccECN's count, or (an RFC 3168 or
        // per-segment echo) every segment it delivered when it carries ECE.
        let (ece, ce) = match (self.accecn.as_mut(), ace) {
            (Some(a), Some(ace)) => {
                let last_delivered = last_sacked
                    || ((self.snd_una..ack).contains(&last) && !self.board.is_sacked(last));
                let mut bytes = self.ack_delivered * self.mss;
                if last_delivered {
                    bytes -= self.mss - u64::from(self.last_payload);
                }
                let open = matches!(self.state, CaState::Open | CaState::Cwr);
                let ce = a.on_ack(ace, self.ack_delivered, bytes, accecn_option, open);
                (ce > 0, ce)
            }
            _ => (ece, if ece { self.ack_delivered } else { 0 }),
        };
        if self.cc.wants_deliveries() {
            self.cc.on_delivery(&Delivery {
                segments: self.ack_delivered,
                ece,
                ce,
                snd_una: ack.max(self.snd_una),
                snd_nxt: self.snd_nxt.max(ack),
            });
        }
        let reduced_for_ecn = ece && self.on_ece(ack);
        let una_before = self.snd_una;
        if ack > self.snd_una {
            self.on_new_ack(ack, reduced_for_ecn, ctx);
        } else if ack == self.snd_una && self.snd_max > self.snd_una {
            self.on_dup_ack(ctx);
        }
        let losses = self.board.marked_lost() - marked_lost;
        let sample = self
            .rate
            .generate(now, losses, self.board.marked_lost(), prior_in_flight, ce);
        if self.model_based {
            self.sending_deferred = false;
            if !old_ack {
                self.model_control(&sample, ctx);
            }
            self.transmit(ctx);
        } else if self.window_pacing && !old_ack {
            if let (Some(p), Some(srtt)) = (self.pacing.as_mut(), self.rtt.srtt()) {
                let packets_out = self.snd_max - self.snd_una;
                p.set_window_rate(self.cwnd, self.ssthresh, packets_out * self.mss, srtt);
            }
        }
        if self.tlp_enabled {
            self.tlp_process_ack(ack, una_before, sack.is_some(), dsack);
            self.schedule_probe(ctx);
        }
    }

    /// The connection as a model-based algorithm reads it (`cc::Conn`).
    fn conn(&self, now: SimTime) -> Conn {
        Conn {
            now,
            state: self.state,
            in_flight: self.board.pipe(),
            delivered: self.rate.delivered(),
            delivered_time: self.rate.delivered_time(),
            delivered_ce: self.rate.delivered_ce(),
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt.max(self.snd_una),
            packet_size: self.mss + u64::from(self.header_bytes),
            lost: self.board.marked_lost(),
            srtt: self.rtt.srtt(),
            min_rtt: self.rate.min_rtt(),
            next_release: self
                .pacing
                .as_ref()
                .map_or(SimTime::ZERO, Pacing::next_release),
        }
    }

    /// Linux's `cong_control`: the algorithm sets the window and the pacing rate from this
    /// ACK's sample.
    fn model_control<C: Ctx<Hdr>>(&mut self, sample: &super::rate::RateSample, ctx: &mut C) {
        let conn = self.conn(ctx.now());
        let mut w = self.window();
        let control = self.cc.cong_control(&mut w, sample, &conn, ctx.rng());
        self.set_window(w);
        if let (Some(rate), Some(p)) = (control.pacing_rate, self.pacing.as_mut()) {
            p.set_rate(rate);
        }
        if control.mark_app_limited {
            self.rate.mark_app_limited(conn.in_flight);
        }
    }

    /// The connection is open: the algorithm's initial state and pacing rate.
    fn init_controller(&mut self, now: SimTime) {
        let conn = self.conn(now);
        let mut w = self.window();
        let rate = self.cc.on_init(&mut w, &conn);
        self.set_window(w);
        if let (Some(rate), Some(p)) = (rate, self.pacing.as_mut()) {
            p.set_rate(rate);
        }
    }

    /// RFC 8985 section 6.2 step 5 and 6.3: mark what RACK finds lost (`una` is the ACK
    /// point after this ACK) and arm or stop the reordering timer.
    fn rack_detect_loss<C: Ctx<Hdr>>(&mut self, una: u64, dsack: bool, ctx: &mut C) {
        let Some(rack) = self.rack.as_deref_mut() else {
            return;
        };
        let now = ctx.now();
        let srtt = self.rtt.srtt().unwrap_or(Dur::from_secs(1));
        let in_recovery = matches!(self.state, CaState::Recovery | CaState::Loss);
        let reo_wnd = rack.reo_wnd(
            dsack,
            una,
            self.snd_max,
            in_recovery,
            self.board.sacked(),
            srtt,
        );
        let board = &self.board;
        let (lost, timeout) = rack.detect_loss(now, reo_wnd, |seq, t| {
            if seq < una {
                super::rack::SegState::Gone
            } else {
                board.rack_state(seq, t)
            }
        });
        for &seq in lost {
            if self.board.mark_lost(seq) {
                self.rxt_next = self.rxt_next.min(seq);
            }
        }
        match timeout {
            Some(d) => ctx.set_timer(REO_TIMER, now + d),
            None => ctx.cancel_timer(REO_TIMER),
        }
    }

    /// RACK's reordering timer (RFC 8985 section 6.3): detect again, and recover.
    fn on_reo_timer<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let before = self.board.marked_lost();
        self.rack_detect_loss(self.snd_una, false, ctx);
        if self.board.marked_lost() == before {
            return;
        }
        if matches!(self.state, CaState::Open | CaState::Cwr) {
            self.ack_delivered = 0;
            self.enter_fast_recovery(ctx);
        } else {
            self.transmit(ctx);
        }
    }

    /// RFC 8985 section 7.2: arm the probe timeout while the sender is in the open state with
    /// data outstanding and no probe out: 2 SRTT (plus the worst-case delayed-ACK time with
    /// one segment outstanding; 1 s before an RTT sample), unless the retransmission timer
    /// expires first.
    fn schedule_probe<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if !matches!(self.state, CaState::Open | CaState::Cwr)
            || self.tlp_end.is_some()
            || self.snd_una == self.snd_max
        {
            ctx.cancel_timer(PROBE_TIMER);
            return;
        }
        let pto = match self.rtt.srtt() {
            Some(srtt) if self.snd_max - self.snd_una == 1 => {
                Dur(2 * srtt.0) + WORST_CASE_DELAYED_ACK
            }
            Some(srtt) => Dur(2 * srtt.0),
            None => Dur::from_secs(1),
        };
        // RFC 8985 7.2: no later than the retransmission timer would fire. CHOICE: 1 ns
        // before it, so the probe goes first (Linux runs the probe on the RTO's timer).
        let mut at = ctx.now() + pto;
        if self.rto_armed {
            at = at.min(SimTime(self.rto_deadline.0.saturating_sub(1)));
        }
        if at <= ctx.now() {
            ctx.cancel_timer(PROBE_TIMER);
        } else {
            ctx.set_timer(PROBE_TIMER, at);
        }
    }

    /// RFC 8985 section 7.3: send one probe, new data if the receiver window allows, else
    /// the highest unSACKed segment again, and re-arm the retransmission timer.
    fn on_probe_timer<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if !matches!(self.state, CaState::Open | CaState::Cwr)
            || self.tlp_end.is_some()
            || self.snd_una == self.snd_max
        {
            return;
        }
        if self.snd_nxt == self.snd_max
            && self.snd_max < self.data_limit()
            && self.snd_max - self.snd_una < self.max_window
        {
            let seq = self.snd_nxt;
            self.send_segment(seq, ctx);
            self.snd_nxt += 1;
            self.snd_max = self.snd_nxt;
            self.tlp_retrans = false;
        } else if let Some(seq) = self.board.highest_unsacked() {
            self.send_segment(seq, ctx);
            self.tlp_retrans = true;
            self.tlp_seq = seq;
        } else {
            return;
        }
        self.loss_probes += 1;
        self.tlp_end = Some(self.snd_max);
        self.arm_rto(ctx);
    }

    /// RFC 8985 section 7.4 (as Linux's `tcp_process_tlp_ack`): end the probe's episode, and
    /// reduce the window if the probe repaired a loss.
    fn tlp_process_ack(
        &mut self,
        ack: u64,
        una_before: u64,
        had_sack: bool,
        dsack: Option<SackBlock>,
    ) {
        let Some(end) = self.tlp_end else { return };
        if ack < end {
            return;
        }
        if !self.tlp_retrans
            || dsack.is_some_and(|d| d.start <= self.tlp_seq && self.tlp_seq < d.end)
        {
            self.tlp_end = None; // new data, or the original and the probe both arrived
        } else if ack > end {
            // The probe repaired a loss: reduce as for a congestion event (Linux: CWR; a
            // model-based algorithm keeps its window, `tcp_end_cwnd_reduction`).
            self.tlp_end = None;
            if self.state == CaState::Open {
                self.ssthresh = self.cwnd_ssthresh();
                if !self.model_based {
                    self.cwnd = self.ssthresh;
                }
            }
        } else if ack == una_before && !had_sack {
            self.tlp_end = None; // a pure duplicate: both arrived
        }
    }

    /// RFC 3168 section 6.1.2 for an ACK up to `ack` with ECE; returns whether the window
    /// was reduced.
    fn on_ece(&mut self, ack: u64) -> bool {
        if !self.ecn {
            return false;
        }
        if self.state == CaState::Cwr && ack > self.ecn_recover {
            self.set_state(CaState::Open);
        }
        if self.state != CaState::Open {
            return false;
        }
        self.ssthresh = self.congestion_ssthresh();
        if !self.model_based {
            self.cwnd = self.ssthresh;
        }
        self.ecn_recover = self.snd_max;
        // AccECN senders do not signal CWR: the count replaces the echo's latch.
        self.send_cwr = self.accecn.is_none();
        self.set_state(CaState::Cwr);
        true
    }

    fn on_new_ack<C: Ctx<Hdr>>(&mut self, ack: u64, no_growth: bool, ctx: &mut C) {
        let now = ctx.now();
        self.backed_off = false;
        self.limited_sent = 0;
        // The window grows by what this ACK newly delivered, not by the distance the ACK
        // point moved: a hole repaired under a long SACKed run moves it far, but the SACKed
        // segments were delivered (and counted) before (Linux `tcp_cong_avoid(sk, ack,
        // acked_sacked)`). RFC 5681's growth of at most one segment per ACK reads the same.
        let acked_segments = self.ack_delivered;
        if self.timestamps {
            // RFC 7323 section 4: the ACK echoes the timestamp of the segment that started
            // at the left edge of the window when it arrived (section 4.3: TS.Recent), the
            // last transmission of the oldest segment it acknowledges; no Karn ambiguity.
            if let Some(seg) = self.board.get(self.snd_una) {
                let sent = seg.snap.sent_time;
                self.rtt.sample(now - sent, sent, ack, self.snd_max);
            }
        } else if let Some((seq, sent)) = self.timed {
            if ack > seq {
                self.rtt.sample(now - sent, sent, ack, self.snd_max);
                self.timed = None;
            }
        }
        let cc_sample = self
            .board
            .get(ack - 1)
            .filter(|s| !s.retx)
            .map(|seg| now - seg.snap.sent_time);
        if let Some(sample) = cc_sample {
            self.cc.on_rtt(sample, now);
        }
        let rate = &mut self.rate;
        self.board
            .advance(ack, |seq, s| rate.on_delivered(seq, &s.snap, s.retx, now));
        if let Some(p) = self.pacer.as_mut() {
            if let Some(last) = p.last_ack_at {
                let gap = (now - last).0;
                p.inter_ack = Some(p.inter_ack.map_or(gap, |g| g - g / 8 + gap / 8));
            }
            p.last_ack_at = Some(now);
        }
        if self.recovery == Recovery::VegasNs2 {
            self.vegas_ns2_deflate();
        }
        let reset_timer = if self.state == CaState::Recovery {
            self.recovery_new_ack(ack, ctx)
        } else {
            self.snd_una = ack;
            self.dupacks = 0;
            if self.state == CaState::Loss && self.recover.is_some_and(|r| ack > r) {
                self.set_state(CaState::Open);
            }
            if self.state == CaState::Cwr && ack > self.ecn_recover {
                self.set_state(CaState::Open);
            }
            // An ACK on which RACK marked a loss starts recovery below without growing the
            // window first (Linux enters recovery before `tcp_cong_control`).
            let entering_recovery = self.rack.is_some() && self.board.flagged_lost() > 0;
            if !no_growth && !entering_recovery && !self.model_based {
                let acked_segments = self.slow_start_exit(now, cc_sample, ack, acked_segments);
                let mut w = self.window();
                let event = AckEvent {
                    now,
                    acked_segments,
                    snd_una: ack,
                    snd_nxt: self.snd_nxt.max(ack),
                };
                self.cc.on_ack(&mut w, &event);
                self.set_window(w);
            }
            true
        };
        self.snd_nxt = self.snd_nxt.max(self.snd_una);
        if self.recovery == Recovery::VegasNs2 {
            self.vegas_ns2_worried_check(ctx);
        }
        if self.snd_una >= self.total_segments && self.stats.completed_at.is_none() {
            self.stats.completed_at = Some(now);
            ctx.finish();
        }
        if self.snd_una == self.snd_max {
            // Everything acknowledged: stop the timer (RFC 6298 5.2).
            ctx.cancel_timer(RTO_TIMER);
            self.rto_armed = false;
        } else if reset_timer {
            self.arm_rto(ctx); // RFC 6298 5.3
        }
        // RACK marks losses on any ACK, also one that advances the ACK point.
        if self.rack.is_some()
            && matches!(self.state, CaState::Open | CaState::Cwr)
            && self.board.flagged_lost() > 0
        {
            self.enter_fast_recovery(ctx);
            return;
        }
        self.transmit(ctx);
    }

    /// HyStart on an ACK of new data in slow start: end slow start where it says so, and
    /// return the acknowledged segments slow start may grow by (fewer in RFC 9406's CSS).
    fn slow_start_exit(
        &mut self,
        now: SimTime,
        sample: Option<Dur>,
        ack: u64,
        acked_segments: u64,
    ) -> u64 {
        if self.hystart.kind() == HyStartKind::Off
            || self.state != CaState::Open
            || self.cwnd >= self.ssthresh
        {
            return acked_segments;
        }
        let snd_nxt = self.snd_nxt.max(ack);
        if self
            .hystart
            .on_ack(now, sample, ack, snd_nxt, self.cwnd / self.mss)
            == Verdict::Exit
        {
            self.ssthresh = self.cwnd;
            return acked_segments;
        }
        self.hystart.slow_start_acked(acked_segments)
    }

    /// Send what the state allows: by the pipe in SACK recovery, by the window otherwise.
    fn transmit<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if (self.state == CaState::Recovery && self.recovery == Recovery::Sack)
            || (self.state == CaState::Loss && self.sends_by_pipe_after_rto())
        {
            self.sack_transmit(ctx);
        } else {
            self.send_allowed(ctx);
        }
    }

    /// Send the SYN (again) with the retransmission timer, backed off per attempt (RFC 6298
    /// sections 5.5 and 5.7 apply to the SYN as to data).
    fn send_syn<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.syn_sent_at = ctx.now();
        ctx.send(Packet {
            src: Addr::default(),
            dst: self.peer,
            flow: self.flow,
            size: tcp_syn_bytes(self.timestamps),
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct, // RFC 3168 section 6.1.1: a SYN is not ECN-capable
            header: Hdr::TcpSyn {
                ack: false,
                accecn: self.accecn.is_some(),
            },
        });
        self.arm_rto(ctx);
    }

    /// The SYN-ACK: the connection is open; the handshake's round trip is the first RTT
    /// sample unless the SYN was sent again (Karn), and data starts.
    fn on_syn_ack<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.established {
            return; // a duplicate SYN-ACK
        }
        self.established = true;
        let now = ctx.now();
        if self.syn_retries == 0 {
            self.rtt
                .sample(now - self.syn_sent_at, self.syn_sent_at, 0, 0);
        } else {
            // RFC 5681 section 3.1: after a lost SYN or SYN-ACK the initial window is one
            // segment.
            self.cwnd = self.mss;
        }
        ctx.cancel_timer(RTO_TIMER);
        self.rto_armed = false;
        self.init_controller(now);
        self.send_allowed(ctx);
    }

    /// The SYN's timer expired: send it again, up to Linux's `tcp_syn_retries` (6) times,
    /// then give up (the flow sends nothing).
    fn on_syn_timeout<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.rto_armed = false;
        self.stats.timeouts += 1;
        if self.syn_retries >= MAX_SYN_RETRIES || self.stopped {
            return;
        }
        self.syn_retries += 1;
        self.rtt.back_off();
        self.send_syn(ctx);
    }

    fn on_rto<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if !self.established {
            self.on_syn_timeout(ctx);
            return;
        }
        self.rto_armed = false;
        if self.snd_una == self.snd_max {
            return;
        }
        self.stats.timeouts += 1;
        self.tlp_end = None;
        self.first_retransmission = None;
        // RFC 5681 eq. 4 on the first timeout of a series; a timeout of the same segment
        // again keeps ssthresh (RFC 5681 section 3.1, note on repeated retransmissions).
        // CHOICE: a SACK sender takes the data in the network as RFC 6675's pipe, not
        // FlightSize, as ns-3 does (`GetSsThresh(tcb, BytesInFlight())`, its pipe): a hole
        // that stalls snd_una through a long recovery would otherwise inflate ssthresh by
        // everything SACKed above it. Linux takes half the window, which the preceding
        // recovery has already reduced to about the same.
        // Linux `tcp_enter_loss`: a timeout inside a recovery or window reduction whose data
        // is not yet all acknowledged keeps the ssthresh already reduced in this window.
        let reduced_in_this_window = self.policy == RecoveryPolicy::Linux
            && match self.state {
                CaState::Recovery => self.recover.is_some_and(|r| self.snd_una <= r),
                CaState::Cwr => self.snd_una <= self.ecn_recover,
                CaState::Open | CaState::Loss => false,
            };
        if self.ns2_rules() {
            // ns-2.35's `timeout`: `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_RESTART)` on every
            // expiry with data outstanding, the window halved again after a back-off.
            // Reno's `timeout` first clears `dupwnd_`: the window halved is cwnd without
            // the recovery's inflation, which ccsim folds into cwnd (at most ssthresh then).
            let window = if self.state == CaState::Recovery
                && matches!(self.recovery, Recovery::Reno | Recovery::NewReno)
            {
                self.cwnd.min(self.ssthresh)
            } else {
                self.cwnd
            };
            self.ssthresh = self.ns2_half(window);
        } else if !self.backed_off && !reduced_in_this_window {
            self.ssthresh = match (self.recovery, self.policy) {
                (Recovery::Sack, RecoveryPolicy::Linux) => self.cwnd_ssthresh(),
                (Recovery::Sack, _) => self.pipe_ssthresh(),
                _ => self.loss_ssthresh(),
            };
        }
        self.backed_off = true;
        let window_before = self.cwnd;
        self.cwnd = self.mss; // loss window, RFC 5681 section 3.1
        let mut w = self.window();
        self.cc.on_rto(&mut w);
        if let AnyCc::VegasNs2(v) = &mut self.cc {
            v.timeout(&mut w, window_before, self.max_window, ctx.now());
        }
        self.set_window(w);
        self.recover = Some(self.snd_max - 1); // RFC 6582 section 4, RFC 6675 section 5.1
                                               // CHOICE: the SACK scoreboard survives the timeout, so go-back-N skips what the
                                               // receiver holds, as Linux (`tcp_timeout_mark_lost` keeps SACKed segments unless
                                               // it detects reneging) and ns-3 (`SetSentListLost` keeps the SACKed flags) do;
                                               // RFC 2018 section 8's "clear on timeout" guards against reneging, which this
                                               // simulator's receivers never do, and RFC 6675 section 5.1 allows keeping it.
        self.dupacks = 0;
        self.rtt.back_off();
        self.timed = None;
        if self.sends_by_pipe_after_rto() {
            // ns-3 `SetSentListLost`, then `SendPendingData` by the pipe (recovery.rs).
            self.board.mark_lost_below(self.snd_max);
            self.rxt_next = self.snd_una;
            self.set_state(CaState::Loss);
            self.sack_transmit(ctx);
        } else {
            self.snd_nxt = self.snd_una; // go back N
            self.set_state(CaState::Loss);
            self.send_allowed(ctx);
        }
        if !self.rto_armed {
            self.arm_rto(ctx);
        }
    }

    fn on_pace_timer<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if let Some(p) = self.pacer.as_mut() {
            p.armed = false;
        }
        if let Some(p) = self.pacing.as_mut() {
            p.armed = false;
            self.transmit(ctx);
        } else {
            self.send_allowed(ctx);
        }
    }
}

/// The variables a sender records on change when asked.
const TRACED: [VarId; 7] = [
    VarId::Cwnd,
    VarId::Ssthresh,
    VarId::Srtt,
    VarId::Rto,
    VarId::BytesInFlight,
    VarId::CaState,
    VarId::Rate,
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
        if slot == RTO_TIMER {
            self.on_rto(ctx);
        } else if slot == PACE_TIMER {
            self.on_pace_timer(ctx);
        } else if slot == REO_TIMER {
            self.on_reo_timer(ctx);
        } else if slot == PROBE_TIMER {
            self.on_probe_timer(ctx);
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
            VarId::Reports | VarId::Round | VarId::Cluster => None,
        }
    }

    fn stats(&self) -> AgentStats {
        self.stats
    }
}
