//! Packets as plain Rust values: addressing, size, flow and a protocol header.
//!
//! The engine moves `Packet<H>` values through queues and links without reading the header
//! beyond the few facts of the [`Header`] trait; protocols define `H` (an enum, one variant
//! per protocol message) and never see bytes.

use crate::units::SimTime;

/// A packet's end point: a node and an agent attached to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Addr {
    /// Index of the node.
    pub node: u32,
    /// Index of the agent (unique across the whole simulation).
    pub agent: u32,
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
    /// Protocol header.
    pub header: H,
}
