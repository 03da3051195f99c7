//! Packets as plain Rust values: addressing, size, flow and a protocol header.
//!
//! The engine moves `Packet<H>` values through queues and links without reading the header
//! beyond the few facts of the [`Header`] trait; protocols define `H` (an enum, one variant
//! per protocol message) and never see bytes.

use crate::units::SimTime;

/// A packet's end point: a node and an agent attached to it, or a multicast group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Addr {
    /// Index of the node ([`Addr::GROUP_NODE`] for a multicast group).
    pub node: u32,
    /// Index of the agent (unique across the whole simulation), or the group's key.
    pub agent: u32,
}

impl Addr {
    /// The `node` value that marks a multicast group address.
    pub const GROUP_NODE: u32 = u32::MAX;

    /// The address of multicast group `key`: a packet sent to it is replicated along the
    /// sender-rooted shortest-path tree to every agent that joined the group.
    #[must_use]
    pub const fn group(key: u32) -> Addr {
        Addr {
            node: Self::GROUP_NODE,
            agent: key,
        }
    }

    /// The group key, if this is a group address.
    #[must_use]
    pub const fn group_key(self) -> Option<u32> {
        if self.node == Self::GROUP_NODE {
            Some(self.agent)
        } else {
            None
        }
    }
}

/// Index of a flow, used for per-flow counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FlowId(pub u32);

/// What the engine may ask of a protocol header.
pub trait Header: Clone {
    /// Whether the packet carries application data (counted in the flow's conservation
    /// law `sent = delivered + dropped + in flight`); acknowledgements are not data.
    fn is_data(&self) -> bool;
    /// Whether this data packet is a retransmission.
    fn is_retransmission(&self) -> bool {
        false
    }
    /// The data sequence number, if the protocol numbers its data; deterministic drop rules
    /// ("drop segments 333..337 of flow f on link l") match on it.
    fn data_seq(&self) -> Option<u64> {
        None
    }
    /// Whether a group-addressed packet stops at the group's relays to be handed on by them
    /// (hop-by-hop set-up messages); others are replicated past relays.
    fn stops_at_relays(&self) -> bool {
        false
    }
}

/// The ECN field of the IP header (RFC 3168 section 5).
///
/// RFC 3168 senders mark ECT(0); L4S senders mark ECT(1) (RFC 9331), which an L4S queue
/// (DualPI2, RFC 9332) classifies into its low-latency queue. Every other queue treats the
/// two alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ecn {
    /// Not ECN-capable transport.
    #[default]
    NotEct,
    /// ECN-capable transport, ECT(0).
    Ect,
    /// ECN-capable transport, ECT(1): the L4S identifier (RFC 9331 section 4).
    Ect1,
    /// Congestion experienced: set by a router instead of dropping an ECT packet.
    Ce,
}

/// A packet in flight.
#[derive(Clone, Debug)]
pub struct Packet<H> {
    /// Sender.
    pub src: Addr,
    /// Receiver.
    pub dst: Addr,
    /// The flow this packet belongs to (its counters).
    pub flow: FlowId,
    /// Size on the wire in bytes, headers included.
    pub size: u32,
    /// When the packet was handed to the network by its sender (set by the engine).
    pub sent_at: SimTime,
    /// ECN codepoint of the IP header.
    pub ecn: Ecn,
    /// Protocol header.
    pub header: H,
}
