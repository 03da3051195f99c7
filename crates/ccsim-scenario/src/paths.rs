//! The path a flow takes, as its row reports it when routing is multipath
//! (`[run] multipath`, docs/datacenter.md).
//!
//! CHOICE: a flow's route is read under the tables in force when it starts (a failure and
//! rerouting later may move it) and is its data direction, sender first; with spray, whose
//! packets each take their own path, only the number of equal-cost paths is reported.

use ccsim_core::Addr;
use ccsim_engine::{Multipath, NodeId};

use crate::netsim::NetSim;

/// A flow's path with multipath routing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowPath {
    /// The nodes its data crosses, the sender's first (ECMP); `None` with spray or without a
    /// route.
    pub nodes: Option<Box<[u32]>>,
    /// Equal-cost shortest paths between its ends.
    pub paths: u64,
}

impl FlowPath {
    /// The path of the flow from `s` to `r` under the tables in force, or `None` when
    /// routing is single-path.
    #[must_use]
    pub fn of(sim: &mut NetSim, s: Addr, r: Addr) -> Option<FlowPath> {
        let mode = sim.multipath();
        if mode == Multipath::None {
            return None;
        }
        let nodes = if mode == Multipath::Ecmp {
            sim.flow_route(s, r).map(|links| {
                std::iter::once(s.node)
                    .chain(links.iter().map(|&l| sim.link_ends(l).1 .0))
                    .collect()
            })
        } else {
            None
        };
        Some(FlowPath {
            nodes,
            paths: sim.equal_cost_paths(NodeId(s.node), NodeId(r.node)),
        })
    }

    /// The route by node names, separated by spaces.
    #[must_use]
    pub fn names(&self, node_names: &[String]) -> Option<String> {
        self.nodes.as_ref().map(|nodes| {
            nodes
                .iter()
                .map(|&n| node_names[n as usize].as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
    }
}
