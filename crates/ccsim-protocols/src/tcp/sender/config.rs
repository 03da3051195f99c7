//! A sender's configuration: the algorithm and its loss recovery ([`Algorithm`]), the keys
//! a scenario sets ([`TcpConfig`], defaults stated once), and building a sender from them.

use super::{Control, Pacer, RateReduction, RecoveryPolicy, Rescue, TcpSender, Tlp};
use crate::tcp::accecn::AccEcnSender;
use crate::tcp::cc::{
    AnyCc, Bbr, CaState, Cubic, CubicParams, Dctcp, DctcpParams, LinuxReno, Prague, PragueParams,
    Reno, Vegas, VegasNs2, VegasParams, VegasVariant,
};
use crate::tcp::hystart::{HyStart, HyStartKind};
use crate::tcp::pacing::Pacing;
use crate::tcp::rack::Rack;
use crate::tcp::rate::DeliveryRate;
use crate::tcp::rtt::{RtoPolicy, RttEstimator};
use crate::tcp::scoreboard::Scoreboard;
use crate::tcp_header_bytes;
use ccsim_core::{Addr, AgentStats, Dur, Ecn, FlowId, SimTime};

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
pub(super) enum Recovery {
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
            control: Control::new(cc),
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
            prr: cfg.prr.then(RateReduction::default),
            ack_delivered: 0,
            ack_marked_lost: false,
            rescue: cfg.rescue_retransmission.then(Rescue::default),
            rack: cfg.rack.then(|| Box::new(Rack::new(cfg.dupack_threshold))),
            tlp: (cfg.tlp && cfg.rack).then(Tlp::default),
            rto_deadline: None,
            loss_probes: 0,
            established: !cfg.handshake,
            syn_sent_at: SimTime::ZERO,
            syn_retries: 0,
            header_bytes,
            timestamps: cfg.timestamps,
            pacing: (cfg.pacing || cfg.algorithm.sets_pacing_rate()).then(Pacing::default),
            window_pacing: cfg.pacing && !cfg.algorithm.sets_pacing_rate(),
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
}
