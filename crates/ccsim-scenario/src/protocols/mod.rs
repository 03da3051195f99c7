//! The builders of each protocol family's agents from a checked spec, one module per family:
//! [`tcp`] (with [`xcp`]), [`rate`] (rate-based congestion control, with [`obp`]), [`udp`]
//! (sources without congestion control); the sessions with a table of their own, [`ticp`]
//! (collection) and [`tcpm`] (reliable multicast), with their summaries; and [`assist`], the
//! router functions of XCP and OBP on the links.
//!
//! A family's keys and their checks are its module of [`crate::spec`]; here a flow is built by
//! [`build_flow`], which hands the family its flow id, the receiver's address and the packet
//! size. The builders add to the simulation through [`crate::netsim`] and never see the run.
//! docs/adding-a-protocol.md lists every place a new protocol touches.

use ccsim_core::{Addr, FlowId, SimTime};
use ccsim_engine::NodeId;
use ccsim_protocols::AnyAgent;

use crate::error::ScenarioError;
use crate::netsim::{add_agent_pair, NetSim, RunOptions};
use crate::spec::flows::{family, Family, FlowSpec};

pub mod assist;
pub mod obp;
pub mod rate;
pub mod tcp;
pub mod tcpm;
pub mod ticp;
pub mod udp;
pub mod xcp;

/// What a family builder is given to make one flow's agents.
pub(crate) struct FlowContext<'a> {
    /// The flow's id.
    pub flow: FlowId,
    /// Where the sender sends: the receiver agent's address.
    pub receiver: Addr,
    /// Whole-packet size of data packets.
    pub packet_size: u32,
    /// The run's knobs.
    pub options: &'a RunOptions,
    /// The spec entry the flow comes from (`flows[3]`, `traffic[0]`), for errors.
    pub spec_path: &'a str,
}

/// A flow's sender and receiver agents.
pub(crate) fn build_flow(
    f: &FlowSpec,
    cx: &FlowContext,
) -> Result<(AnyAgent, AnyAgent), ScenarioError> {
    Ok(match family(f.protocol) {
        Family::Tcp => tcp::build(f, cx)?,
        Family::Rate => rate::build(f, cx),
        Family::Udp => udp::build(f, cx)?,
    })
}

/// [`add_agent_pair`] for flow spec `f`, its agents built by its protocol family, starting at
/// `f.start`.
pub(crate) fn add_flow_agents(
    sim: &mut NetSim,
    f: &FlowSpec,
    flow: FlowId,
    name: &str,
    ends: (NodeId, NodeId),
    options: &RunOptions,
    spec_path: &str,
) -> Result<(Addr, Addr), ScenarioError> {
    let packet_size = u32::try_from(f.packet_size.0 .0)
        .map_err(|_| ScenarioError::Internal("packet size".into()))?;
    add_agent_pair(sim, flow, name, ends, SimTime(f.start.0 .0), |receiver| {
        build_flow(
            f,
            &FlowContext {
                flow,
                receiver,
                packet_size,
                options,
                spec_path,
            },
        )
    })
}

/// What a flow's agents need of the routes, once they are built.
pub(crate) fn after_routes(f: &FlowSpec, sim: &mut NetSim, from: NodeId, to: NodeId, sender: Addr) {
    if family(f.protocol) == Family::Tcp {
        tcp::after_routes(f, sim, from, to, sender);
    }
}

/// The bandwidth-delay product of the round trip `from -> to -> from`, bytes: the
/// forward path's bottleneck rate times the sum of the propagation delays both ways.
pub(crate) fn path_bdp(sim: &NetSim, from: NodeId, to: NodeId) -> u64 {
    let forward = sim.route(from, to).unwrap_or_default();
    let back = sim.route(to, from).unwrap_or_default();
    let bottleneck = forward
        .iter()
        .map(|&l| sim.link_config(l).rate.0)
        .min()
        .unwrap_or(0);
    let rtt_ns: u64 = forward
        .iter()
        .chain(&back)
        .map(|&l| sim.link_config(l).delay.0)
        .sum();
    u64::try_from(u128::from(bottleneck) * u128::from(rtt_ns) / 8 / 1_000_000_000)
        .unwrap_or(u64::MAX)
}
