//! TCP-M: reliable multicast with a TCP sender and acknowledgement fusion in routers (Ghosh and
//! Varghese, "Congestion Control in Multicast Transport Protocols", WUCS-98-19, 1998).
//!
//! The parts, in the paper's order:
//! * [`TcpmSource`]: the Group Module (section 4.1: JOIN_REQUEST, JOIN_ACK, JOIN_TMOUT, PATH,
//!   REVERSE_PATH, PATH_TMOUT, failed receivers reported to the application) around an
//!   unmodified TCP sender of our TCP family (section 4.2) that sends to the group address and
//!   receives one fused ACK stream; the source is always a fusion node (section 3).
//! * [`TcpmReceiver`]: a TCP sink that joins on JOIN_REQUEST, records its parent from PATH,
//!   sends REVERSE_PATH every RCVR_TMOUT (section 4.5) and sends its ACKs encapsulated to the
//!   parent (section 4.2).
//! * [`FusionNode`]: the router function (section 4.3): the ack-table of Figure 4, PATH parent
//!   rewriting (section 4.1), REVERSE_PATH forwarding and the failure detector of Figure 6. It
//!   is an agent at the router that is the group's relay there (the engine hands it each PATH
//!   and replicates the rewritten one along the source's tree); ACKs and REVERSE_PATHs are
//!   addressed to it, hop by hop, so they follow whatever unicast routes are in force
//!   (section 4.5, routing changes).
//! * [`FusionTable`]: the state machine of Figures 4 and 6 that both fusion nodes and the
//!   source run, with no I/O.
//!
//! Connection set-up and tear-down. Our TCP models no SYN or FIN (it starts at segment 0 and
//! ends when the last byte is acknowledged, as ns-2's one-way TCP does), so section 4.2's
//! three-way handshake is not simulated: the data phase begins when every joined receiver's
//! REVERSE_PATH has reached the source (or PATH_TMOUT's retries are spent), which is when the
//! paper's SYN would be multicast. CHOICE: the SYN_ACK's minimum window and MSS are the
//! session's configuration (all receivers are alike). Tear-down (section 4.4) is modelled:
//! when the embedded TCP has the last byte acknowledged, the Group Module multicasts FIN; each
//! receiver leaves the group and answers with a FIN_ACK, fused on the way like an ACK (a
//! fusion node forwards one FIN_ACK once every counted child has sent one), and a TCP-M_CLOSE
//! that is not fused; the session closes at the fused FIN_ACK, and the receivers whose
//! TCP-M_CLOSE arrived are the ones that received everything.
//! CHOICE: FIN carries the number of segments in the transfer, and a receiver's TCP-M_CLOSE
//! its next expected segment: the source counts as complete only a receiver that has every
//! segment (section 4.4: "all the receivers who successfully received all packets").
//! CHOICE: FIN is retransmitted after the embedded TCP's retransmission timeout, doubling,
//! at most [`FIN_RETRIES`] times ("treated identical to loss of data packets", section 4.4),
//! by unicast to each receiver whose TCP-M_CLOSE has not arrived: the receivers left the group
//! on the first FIN. A receiver answers every FIN with a FIN_ACK and a TCP-M_CLOSE.
//! CHOICE: the session also closes when every receiver not reported failed has confirmed with
//! TCP-M_CLOSE, so a fused FIN_ACK lost for good (its fusion node's children all timed out
//! after the FIN) does not hold the session open.
//!
//! Messages. CHOICE: the control messages (JOIN_REQUEST, JOIN_ACK, PATH, REVERSE_PATH, FIN,
//! FIN_ACK, TCP-M_CLOSE) are UDP datagrams of [`CONTROL_BYTES`] bytes (IP and UDP headers and a
//! 12-byte body: type and two addresses); an encapsulated ACK is the receiver's TCP ACK inside
//! an outer IP header ([`ENCAPSULATION_BYTES`], IP in IP as the paper's [Sim85] does).

mod fusion;
mod receiver;
mod source;

#[cfg(test)]
mod tests;

use ccsim_core::{Addr, Dur};

pub use fusion::{FusionNode, FusionTable, Sent};
pub use receiver::TcpmReceiver;
pub use source::{FailureStage, ReceiverFailure, TcpmSource};

/// Bytes of a TCP-M control message on the wire.
pub const CONTROL_BYTES: u32 = 40;
/// Bytes the outer IP header adds to an encapsulated ACK.
pub const ENCAPSULATION_BYTES: u32 = 20;
/// Most FIN retransmissions before the session gives up on the missing FIN_ACKs.
pub const FIN_RETRIES: u32 = 8;

/// A TCP-M control message's type (section 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TcpmKind {
    /// Source to receiver, unicast: join the group.
    JoinRequest,
    /// Receiver to source: joined.
    JoinAck,
    /// Source to the group: `about` is the sender's fusion-node parent address, rewritten by
    /// every fusion node on the way.
    Path,
    /// Receiver or fusion node to its parent: `about` is the receiver that originated it.
    ReversePath,
    /// Source to the group: the transfer is over.
    Fin,
    /// Receiver or fusion node to its parent: FIN received (fused).
    FinAck,
    /// Receiver to source, unicast and not fused: `about` is the receiver, which has every byte.
    Close,
}

impl TcpmKind {
    /// Name used in captures and results.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TcpmKind::JoinRequest => "JOIN_REQUEST",
            TcpmKind::JoinAck => "JOIN_ACK",
            TcpmKind::Path => "PATH",
            TcpmKind::ReversePath => "REVERSE_PATH",
            TcpmKind::Fin => "FIN",
            TcpmKind::FinAck => "FIN_ACK",
            TcpmKind::Close => "TCP-M_CLOSE",
        }
    }
}

/// Which ACKs from a child count as duplicates at a fusion node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DuplicateRule {
    /// Figure 4 as printed: any ACK that is not fresh for its child ("An acknowledgment is a
    /// duplicate if it is not a fresh one for that particular receiver", section 4.3).
    #[default]
    Figure4,
    /// Duplicates fused as ACKs are, by the minimum: the k-th duplicate of `last_acked` goes
    /// up once every counted child at the minimum has sent k duplicates of it. A child ahead of
    /// the minimum says nothing about the segment the minimum waits for, and one segment
    /// multicast to N receivers that all hold it makes N duplicates but one event. Not in the
    /// paper: our remedy for the cycle Figure 4 starts (docs/protocols.md, TCP-M).
    Fused,
}

/// The timers and limits of a session (section 4.5 and Figure 4); the defaults are the
/// paper's values where it gives them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TcpmParams {
    /// RCVR_TMOUT: a receiver's REVERSE_PATH period (1 s in section 6.4).
    pub rcvr_timeout: Dur,
    /// TCP-M_TMOUT: a child with no REVERSE_PATH for this long is dead (2 s in section 6.4).
    pub tcpm_timeout: Dur,
    /// MAX_DUPLICATE: duplicate ACKs a fusion node forwards in a row (5, footnote 2).
    pub max_duplicate: u32,
    /// Which ACKs count as duplicates.
    pub duplicates: DuplicateRule,
    /// JOIN_TMOUT. CHOICE: 1 s; the paper names the timer without a value.
    pub join_timeout: Dur,
    /// JOIN_REQUEST retransmissions ("a few times"). CHOICE: 3.
    pub join_retries: u32,
    /// PATH_TMOUT. CHOICE: 1 s.
    pub path_timeout: Dur,
    /// PATH retransmissions. CHOICE: 3.
    pub path_retries: u32,
}

impl Default for TcpmParams {
    fn default() -> Self {
        TcpmParams {
            rcvr_timeout: Dur::from_secs(1),
            tcpm_timeout: Dur::from_secs(2),
            max_duplicate: 5,
            duplicates: DuplicateRule::Figure4,
            join_timeout: Dur::from_secs(1),
            join_retries: 3,
            path_timeout: Dur::from_secs(1),
            path_retries: 3,
        }
    }
}

/// A control message addressed to `dst`.
pub(crate) fn control(
    flow: ccsim_core::FlowId,
    dst: Addr,
    kind: TcpmKind,
    about: Addr,
) -> ccsim_core::Packet<crate::Hdr> {
    control_with(flow, dst, kind, about, 0)
}

/// A control message addressed to `dst` carrying `value` (see [`crate::Hdr::TcpmControl`]).
pub(crate) fn control_with(
    flow: ccsim_core::FlowId,
    dst: Addr,
    kind: TcpmKind,
    about: Addr,
    value: u64,
) -> ccsim_core::Packet<crate::Hdr> {
    ccsim_core::Packet {
        src: Addr::default(),
        dst,
        flow,
        size: CONTROL_BYTES,
        sent_at: ccsim_core::SimTime::ZERO,
        ecn: ccsim_core::Ecn::NotEct,
        header: crate::Hdr::TcpmControl { kind, about, value },
    }
}
