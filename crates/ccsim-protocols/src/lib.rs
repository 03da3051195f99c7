//! ccsim-protocols: the transport protocols, as sans-IO agents over [`ccsim_core`].
//!
//! One module per protocol. [`Hdr`] is the header enum the engine carries (one variant per
//! protocol message) and [`AnyAgent`] the enum of built-in agents, so the engine dispatches
//! statically.
#![forbid(unsafe_code)]

pub mod obp;
pub mod primo;
pub mod rate;
pub mod tcp;
pub mod tcpm;
pub mod tfrc;
pub mod ticp;
pub mod udp;
pub(crate) mod wrap;
pub mod xcp;

use ccsim_core::{Agent, AgentStats, Ctx, Header, Packet, SimTime, TimerSlot, VarId};

pub use obp::{ObpParams, ObpPort, ObpReceiver, ObpRouter, ObpRouterConfig, ObpSender};
pub use primo::{PrimoConfig, PrimoParams, PrimoReceiver, PrimoSender};
pub use rate::{
    Cbraa, CbraaParams, PacerConfig, ReceiverReport, ReportControl, ReportReceiver, ReportSender,
    ReportSenderConfig, TfrcFeedback,
};

pub use tcp::{
    AccEcnOption, AckOptions, Algorithm, CaState, CubicParams, DctcpParams, HyStartKind,
    LossRecovery, NewRenoSender, PacedSlowStart, PragueParams, RecoveryPolicy, RtoPolicy,
    RttEstimator, SackBlock, SackBlocks, TcpConfig, TcpSender, TcpSink, VegasParams, VegasVariant,
    ACCECN_OPTION_KIND,
};
pub use tcpm::{FusionNode, TcpmKind, TcpmParams, TcpmReceiver, TcpmSource};
pub use tfrc::{TfrcConfig, TfrcReceiver, TfrcReceiverConfig, TfrcSender};
pub use ticp::{LandmarkEcho, TicpCollector, TicpRequest, TicpSourceHost};
pub use udp::{Departures, UdpConfig, UdpSink, UdpSource};
pub use xcp::{
    XcpParams, XcpPort, XcpReceiver, XcpRecovery, XcpRouter, XcpRouterConfig, XcpSender,
};

/// Bytes of IP and TCP header on every TCP packet (no options).
pub const TCP_HEADER_BYTES: u32 = 40;
/// Bytes of options on a SYN and a SYN-ACK: MSS (4), NOP, NOP, SACK-permitted (4), NOP,
/// window scale (4).
pub const TCP_SYN_OPTION_BYTES: u32 = 12;
/// Bytes of the timestamp option (RFC 7323 section 3) on every segment of a flow that uses
/// it, with its two NOPs of alignment; a SYN carries it in 8 more bytes than
/// [`TCP_SYN_OPTION_BYTES`] (SACK-permitted and timestamps share one word pair).
pub const TCP_TIMESTAMP_OPTION_BYTES: u32 = 12;

/// Bytes of IP and TCP header on a data segment or ACK (before any SACK option).
#[must_use]
pub const fn tcp_header_bytes(timestamps: bool) -> u32 {
    TCP_HEADER_BYTES
        + if timestamps {
            TCP_TIMESTAMP_OPTION_BYTES
        } else {
            0
        }
}

/// Bytes of a SYN or SYN-ACK: the header, [`TCP_SYN_OPTION_BYTES`], and 8 more with
/// timestamps.
#[must_use]
pub const fn tcp_syn_bytes(timestamps: bool) -> u32 {
    TCP_HEADER_BYTES + TCP_SYN_OPTION_BYTES + if timestamps { 8 } else { 0 }
}
/// Bytes of IP and UDP header on every UDP packet.
pub const UDP_HEADER_BYTES: u32 = 28;
/// Bytes of header on a rate-based data packet: IP and UDP, then 12 bytes of sequence
/// number, send timestamp and the sender's RTT estimate (the size of RTP's fixed header).
pub const RATE_HEADER_BYTES: u32 = UDP_HEADER_BYTES + 12;

/// Every protocol header the simulator carries.
#[derive(Clone, Debug, PartialEq)]
pub enum Hdr {
    /// A TCP data segment. Sequence numbers count segments, not bytes.
    TcpData {
        /// Segment number (0, 1, 2, ...).
        seq: u64,
        /// Application bytes carried.
        payload: u32,
        /// Whether this is a retransmission.
        retx: bool,
        /// Congestion Window Reduced (RFC 3168 section 6.1.2): the sender has reacted to ECE.
        cwr: bool,
        /// PSH (RFC 9293 section 3.9.1): set as Linux's sender sets it, on the last segment of
        /// a send of several segments and on the last segment of the data
        /// (`tcp/sender/transmit.rs`); a receiver with `ack_on_push` acknowledges it at once.
        psh: bool,
    },
    /// A cumulative TCP acknowledgement: the next segment number expected.
    TcpAck {
        /// Next expected segment.
        ack: u64,
        /// ECN-Echo (RFC 3168 section 6.1.3): a CE-marked segment arrived and no CWR since.
        ece: bool,
        /// Options beyond timestamps: SACK blocks (RFC 2018), present when the receiver
        /// holds out-of-order data, and the AccECN option. Boxed so that plain ACKs stay
        /// small.
        opts: Option<Box<AckOptions>>,
        /// AccECN's ACE field (the AE, CWR and ECE bits): the receiver's count of CE-marked
        /// packets modulo 8 (draft-ietf-tcpm-accurate-ecn section 3.2.2); `None` on a flow
        /// without AccECN.
        ace: Option<u8>,
    },
    /// A TCP connection request (SYN) or its answer (SYN-ACK), of the three-way handshake
    /// (RFC 9293 section 3.5); only flows with the handshake option send them.
    TcpSyn {
        /// Whether this is the SYN-ACK.
        ack: bool,
        /// Whether it requests (SYN) or confirms (SYN-ACK) AccECN: the AE, CWR and ECE flags
        /// of draft-ietf-tcpm-accurate-ecn section 3.1.
        accecn: bool,
    },
    /// A UDP datagram with a sender sequence number.
    Udp {
        /// Datagram number (0, 1, 2, ...).
        seq: u64,
        /// Application bytes carried.
        payload: u32,
    },
    /// A data packet of a rate-based sender (TFRC, TCP-Friend, CBRAA, Primo). Its application
    /// payload is the packet size less [`RATE_HEADER_BYTES`].
    RateData {
        /// Packet number (0, 1, 2, ...).
        seq: u64,
        /// The sender's clock when the packet left.
        stamp: SimTime,
        /// The sender's current RTT estimate, microseconds (0 before the first estimate).
        rtt_us: u32,
        /// Position (1, 2, ...) in a back-to-back probing burst (Primo's start burst); 0 for
        /// a paced packet.
        probe: u8,
    },
    /// A Primo acknowledgement: one per data packet (Chatté et al., section III-A).
    PrimoAck {
        /// The send timestamp of the packet acknowledged (the sender's clock), for its RTT.
        echo: SimTime,
        /// That packet's forward trip time, nanoseconds: the receiver's clock at arrival
        /// minus the send timestamp; the clocks need not agree, so it may be negative.
        ftt_ns: i64,
        /// The instantaneous reception rate, bytes per second; for the start burst's
        /// acknowledgement, the bandwidth the burst measured.
        rcv_rate: f32,
        /// Whether this acknowledges the start burst.
        start: bool,
    },
    /// TFRC feedback from the receiver (RFC 5348 section 3.2.2); boxed, as it is sent
    /// once per round trip.
    TfrcFeedback(Box<TfrcFeedback>),
    /// An RTCP-style receiver report (boxed: it is sent once per report interval).
    ReceiverReport(Box<ReceiverReport>),
    /// A TICP request packet (boxed: it carries a list of source IDs).
    TicpRequest(Box<TicpRequest>),
    /// A TICP report from one (virtual) source.
    TicpReport {
        /// The source ID.
        source: u32,
        /// The request timestamp it answers.
        echo: SimTime,
    },
    /// A landmark probe for TICP binning, or its answer.
    TicpPing {
        /// The prober's send time.
        stamp: SimTime,
        /// Index of the landmark in the prober's list.
        landmark: u32,
        /// Whether this is the landmark's answer.
        reply: bool,
    },
    /// A source host's bin, sent to the collector.
    TicpRegister {
        /// The bin index.
        bin: u32,
    },
    /// The collector's acknowledgement of a registration.
    TicpRegisterAck,
    /// A TCP-M control message (Ghosh and Varghese 1998, section 4), carried in UDP.
    TcpmControl {
        /// Which message.
        kind: TcpmKind,
        /// PATH: the sender's fusion-node parent address; REVERSE_PATH and TCP-M_CLOSE: the
        /// receiver it is about.
        about: ccsim_core::Addr,
        /// FIN: the segments in the transfer; REVERSE_PATH and TCP-M_CLOSE: the receiver's
        /// next expected segment; 0 otherwise.
        value: u64,
    },
    /// A receiver's TCP acknowledgement encapsulated toward its parent fusion node, or a
    /// fusion node's fused one (section 4.2).
    TcpmAck {
        /// Next expected segment.
        ack: u64,
        /// ECN-Echo.
        ece: bool,
        /// SACK blocks.
        sack: Option<Box<SackBlocks>>,
    },
    /// An XCP data segment (Katabi et al. 2002, section 3.2): a TCP segment numbered as
    /// [`Hdr::TcpData`] (payload = packet size less 40 bytes) with the congestion header.
    XcpData {
        /// Segment number (0, 1, 2, ...).
        seq: u64,
        /// Whether this is a retransmission.
        retx: bool,
        /// H_cwnd: the sender's congestion window, whole-packet bytes.
        cwnd: u32,
        /// H_rtt: the sender's RTT estimate, microseconds (0: none yet).
        rtt_us: u32,
        /// H_feedback: the desired window change, whole-packet bytes; routers only lower it.
        feedback: f32,
    },
    /// An XCP acknowledgement: cumulative, with the congestion header echoed (section 3.4).
    XcpAck {
        /// Next expected segment.
        ack: u64,
        /// H_cwnd of the latest data packet.
        cwnd: u32,
        /// H_rtt of the latest data packet.
        rtt_us: u32,
        /// The H_feedback of the data packets this ACK answers, summed.
        feedback: f32,
    },
    /// An OBP data segment (Loureiro and Monteiro, "What if the end systems knew the bandwidth
    /// available in the network?", section III):
    /// a segment numbered as [`Hdr::TcpData`] (payload = packet size less 40 bytes) carrying
    /// the two path-state fields, which routers only lower.
    ObpData {
        /// Segment number (0, 1, 2, ...).
        seq: u64,
        /// Whether this is a retransmission.
        retx: bool,
        /// Narrow link: the smallest link capacity on the path so far, bytes per second
        /// (infinite until a router stamps it).
        narrow: f32,
        /// Tight link: the smallest available bandwidth AB on the path so far, bytes per
        /// second, negative when a link is overloaded (infinite until a router stamps it).
        tight: f32,
    },
    /// An OBP acknowledgement (40 bytes): cumulative, echoing the path-state fields.
    ObpAck {
        /// Next expected segment.
        ack: u64,
        /// The narrow-link field of the latest data packet.
        narrow: f32,
        /// The tight-link field of the latest data packet.
        tight: f32,
    },
}

impl Header for Hdr {
    #[inline]
    fn is_data(&self) -> bool {
        matches!(
            self,
            Hdr::TcpData { .. }
                | Hdr::XcpData { .. }
                | Hdr::ObpData { .. }
                | Hdr::Udp { .. }
                | Hdr::RateData { .. }
                | Hdr::TicpRequest(_)
                | Hdr::TicpReport { .. }
        )
    }
    #[inline]
    fn is_retransmission(&self) -> bool {
        matches!(
            self,
            Hdr::TcpData { retx: true, .. }
                | Hdr::XcpData { retx: true, .. }
                | Hdr::ObpData { retx: true, .. }
        )
    }
    #[inline]
    fn data_seq(&self) -> Option<u64> {
        match *self {
            Hdr::TcpData { seq, .. }
            | Hdr::XcpData { seq, .. }
            | Hdr::ObpData { seq, .. }
            | Hdr::Udp { seq, .. }
            | Hdr::RateData { seq, .. } => Some(seq),
            Hdr::TicpReport { source, .. } => Some(u64::from(source)),
            _ => None,
        }
    }
    #[inline]
    fn stops_at_relays(&self) -> bool {
        matches!(
            self,
            Hdr::TcpmControl {
                kind: TcpmKind::Path,
                ..
            }
        )
    }
}

/// The built-in agents.
#[derive(Debug)]
pub enum AnyAgent {
    /// TCP sender (any congestion-control algorithm); boxed, as it is the largest agent.
    Tcp(Box<TcpSender>),
    /// TCP receiver.
    TcpSink(TcpSink),
    /// UDP source (constant bit rate or Poisson).
    Udp(UdpSource),
    /// UDP receiver.
    UdpSink(UdpSink),
    /// Rate-based sender steered by receiver reports (TCP-Friend, CBRAA); boxed.
    ReportSender(Box<ReportSender>),
    /// RTCP-style receiver-report agent; boxed, to keep the common agents small.
    ReportReceiver(Box<ReportReceiver>),
    /// TFRC sender (RFC 5348); boxed.
    TfrcSender(Box<TfrcSender>),
    /// TFRC receiver (RFC 5348); boxed.
    TfrcReceiver(Box<TfrcReceiver>),
    /// Primo sender; boxed.
    PrimoSender(Box<PrimoSender>),
    /// Primo receiver; boxed.
    PrimoReceiver(Box<PrimoReceiver>),
    /// TICP collector.
    TicpCollector(Box<TicpCollector>),
    /// TICP sources attached at one node.
    TicpSource(Box<TicpSourceHost>),
    /// TICP binning landmark.
    Landmark(LandmarkEcho),
    /// TCP-M source: Group Module, embedded TCP and fusion table; boxed.
    TcpmSource(Box<TcpmSource>),
    /// TCP-M receiver; boxed.
    TcpmReceiver(Box<TcpmReceiver>),
    /// TCP-M fusion function of one session at one router; boxed.
    Fusion(Box<FusionNode>),
    /// XCP sender; boxed.
    XcpSender(Box<XcpSender>),
    /// XCP receiver; boxed.
    XcpReceiver(Box<XcpReceiver>),
    /// OBP sender; boxed.
    ObpSender(Box<ObpSender>),
    /// OBP receiver; boxed.
    ObpReceiver(Box<ObpReceiver>),
}

macro_rules! each_agent {
    ($self:expr, $a:ident => $body:expr) => {
        match $self {
            AnyAgent::Tcp($a) => $body,
            AnyAgent::TcpSink($a) => $body,
            AnyAgent::Udp($a) => $body,
            AnyAgent::UdpSink($a) => $body,
            AnyAgent::ReportSender($a) => $body,
            AnyAgent::ReportReceiver($a) => $body,
            AnyAgent::TfrcSender($a) => $body,
            AnyAgent::TfrcReceiver($a) => $body,
            AnyAgent::PrimoSender($a) => $body,
            AnyAgent::PrimoReceiver($a) => $body,
            AnyAgent::TicpCollector($a) => $body,
            AnyAgent::TicpSource($a) => $body,
            AnyAgent::Landmark($a) => $body,
            AnyAgent::TcpmSource($a) => $body,
            AnyAgent::TcpmReceiver($a) => $body,
            AnyAgent::Fusion($a) => $body,
            AnyAgent::XcpSender($a) => $body,
            AnyAgent::XcpReceiver($a) => $body,
            AnyAgent::ObpSender($a) => $body,
            AnyAgent::ObpReceiver($a) => $body,
        }
    };
}

impl Agent<Hdr> for AnyAgent {
    #[inline]
    fn on_start<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        each_agent!(self, a => a.on_start(ctx));
    }
    #[inline]
    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        each_agent!(self, a => a.on_packet(pkt, ctx));
    }
    #[inline]
    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        each_agent!(self, a => a.on_timer(slot, ctx));
    }
    fn on_stop<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        each_agent!(self, a => a.on_stop(ctx));
    }
    fn var(&self, var: VarId) -> Option<f64> {
        each_agent!(self, a => a.var(var))
    }
    fn stats(&self) -> AgentStats {
        each_agent!(self, a => a.stats())
    }
}

#[cfg(test)]
pub(crate) mod testing;

#[cfg(test)]
mod tests {
    use super::{AnyAgent, Hdr};

    #[test]
    fn headers_and_agents_stay_small() {
        // Every packet carries an Hdr and the engine stores every agent in an AnyAgent: the
        // rare, large variants are boxed to keep these sizes.
        assert!(
            std::mem::size_of::<Hdr>() <= 24,
            "{}",
            std::mem::size_of::<Hdr>()
        );
        assert!(
            std::mem::size_of::<AnyAgent>() <= 160,
            "{}",
            std::mem::size_of::<AnyAgent>()
        );
    }
}
