//! TICP, the Transport Information Collection Protocol (Barakat, Malli and Nonaka, Annals of
//! Telecommunications 2006): a collector probes many sources for one report each, at a rate
//! set by a report-clocked congestion window, in rounds of error recovery.
//!
//! * [`TicpCollector`] is Section IV's main algorithm with Section III's names: `cwnd`, `pipe`,
//!   `torecv`, `recv`, `sent`, `startTO`, `startprevTO`, CT and SCT, the srtt/rttvar timer.
//! * [`TicpSourceHost`] answers requests for the sources attached at one node (one agent per
//!   node, not per source: a request packet reaches a node once, whatever its number of
//!   sources, as with one multicast copy per subnet).
//! * [`LandmarkEcho`] answers the landmark probes of Section III.1's binning.
//!
//! Choices where the paper is silent (each also in docs/protocols.md):
//!
//! * CHOICE: message sizes are whole on-the-wire sizes: a request packet of k messages is
//!   k x `request_size` bytes, a report `report_size` bytes (the paper's Section VI sizes, so
//!   the ideal durations of its experiments follow).
//! * CHOICE: a request packet carries messages for one cluster only; at a cluster boundary
//!   the collector sends the cluster's last (short) packet when the window has room for it.
//!   The paper allows short packets "when there is not enough sources to probe".
//! * CHOICE: a window has room for a packet of k messages when `cwnd - pipe >= k`; `pipe`
//!   is floored at 0 when the timer's loss estimate (`torecv - recv`) exceeds it.
//! * CHOICE: rounds. Sources whose requests were due at a timer expiry (request time at or
//!   before `startTO`) and whose reports are missing are judged lost there; a source judged
//!   lost joins the round after the one in which it was last requested. A round starts when
//!   the previous round's list is exhausted and some source waits for it; the collector
//!   never asks again a source whose report (even delayed) has arrived.
//! * CHOICE: Slow Start has no threshold, as in the paper: it lasts until the first
//!   congestion (halve, then Congestion Avoidance) or severe congestion (back to RS, Slow
//!   Start again).
//! * CHOICE: the timer never goes below `min_to` (1 ms by default), only to keep a collector
//!   next to its sources from spinning; the paper has no floor.
//! * Large reports (the paper's footnote 3): a source whose report is X packets is X virtual
//!   sources of one packet each; the collector counts virtual sources, and a source's report
//!   is complete when all X have arrived.
//! * Delivery of requests: multicast (one group per cluster, the paper's set-up), unicast (one
//!   message per packet, sent whenever the window has room for one), or relay (the request
//!   packet goes by unicast to the cluster's first host, which answers its own sources and
//!   forwards to each other host of the cluster a packet with that host's messages).

mod binning;
mod collector;
mod source;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use ccsim_core::{Addr, SimTime};

pub use binning::{bin_distance, bin_index, bin_levels, BinningConfig};
pub use collector::{
    Arrival, ClusterInfo, ClusterStats, Clustering, Phase, TicpCollector, TicpConfig,
};
pub use source::{LandmarkEcho, TicpSourceHost};

/// A request packet's content: the collector's timestamp and the (virtual) source IDs it
/// probes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicpRequest {
    /// When the collector issued the request; reports echo it (the paper's `reqtime`).
    pub stamp: SimTime,
    /// Source IDs probed.
    pub ids: Vec<u32>,
    /// Whether the receiving host must forward the messages of other hosts (relay delivery).
    pub relay: bool,
}

/// How request packets reach the sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// One multicast group per cluster; a packet carries up to RS messages.
    Multicast,
    /// One message per unicast packet.
    Unicast,
    /// Unicast to one host of the cluster, which forwards to the others.
    Relay,
}

/// One source host: where it is and the contiguous block of (virtual) source IDs it serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostInfo {
    /// The host agent's address.
    pub addr: Addr,
    /// First source ID served.
    pub first: u32,
    /// Number of source IDs served.
    pub count: u32,
}

/// Every host of a session, sorted by first ID; shared by the collector and relays.
#[derive(Clone, Debug)]
pub struct Directory {
    hosts: Arc<[HostInfo]>,
}

impl Directory {
    /// A directory of `hosts`, which must cover IDs 0..n contiguously in order.
    ///
    /// # Panics
    /// If the blocks are not contiguous from 0 (a bug in the caller).
    #[must_use]
    pub fn new(hosts: Vec<HostInfo>) -> Self {
        let mut next = 0;
        for h in &hosts {
            assert_eq!(h.first, next, "host blocks are contiguous");
            next += h.count;
        }
        Directory {
            hosts: hosts.into(),
        }
    }
    /// The hosts, by first ID.
    #[must_use]
    pub fn hosts(&self) -> &[HostInfo] {
        &self.hosts
    }
    /// Number of source IDs in all.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.hosts.last().map_or(0, |h| h.first + h.count)
    }
    /// Index of the host serving `id`.
    #[must_use]
    pub fn host_of(&self, id: u32) -> usize {
        self.hosts.partition_point(|h| h.first + h.count <= id)
    }
}
