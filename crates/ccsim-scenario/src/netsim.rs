//! The build context: the simulation type of the built-in protocols, the knobs of a run that
//! are not part of the scenario, and how a flow's two agents join a simulation.
//!
//! Everything that adds to a simulation (the protocol builders, the traffic generators, the
//! captures and [`crate::run`], which assembles them) shares these, and they depend on the
//! engine and the protocols crate only, so nothing below the run ever imports the run.

use ccsim_core::{Addr, FlowId, SimTime};
use ccsim_engine::{NodeId, Sim};
use ccsim_protocols::{AnyAgent, Hdr};

use crate::error::ScenarioError;

/// The concrete simulation type of built-in protocols.
pub type NetSim = Sim<Hdr, AnyAgent>;

/// Knobs of a run that are not part of the scenario.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// Events between two progress callbacks.
    pub chunk_events: u64,
    /// Arrival times each UDP sink keeps (for inspecting inter-arrival statistics).
    pub record_arrivals: usize,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            chunk_events: 1 << 18,
            record_arrivals: 0,
        }
    }
}

/// Add a flow's sender at `ends.0` and receiver at `ends.1` on `flow`, as `make` builds them
/// for the receiver's address: their random streams are "<name>/sender" and
/// "<name>/receiver", the receiver's counters feed the flow's rate series, and both start at
/// `start`, the receiver first. Returns (sender, receiver).
pub(crate) fn add_agent_pair(
    sim: &mut NetSim,
    flow: FlowId,
    name: &str,
    (from, to): (NodeId, NodeId),
    start: SimTime,
    make: impl FnOnce(Addr) -> Result<(AnyAgent, AnyAgent), ScenarioError>,
) -> Result<(Addr, Addr), ScenarioError> {
    let receiver = Addr {
        node: to.0,
        agent: sim.next_agent_addr(from).agent + 1,
    };
    let (sender_agent, receiver_agent) = make(receiver)?;
    let s = sim.add_agent(from, flow, &format!("{name}/sender"), sender_agent);
    let r = sim.add_agent(to, flow, &format!("{name}/receiver"), receiver_agent);
    debug_assert_eq!(r, receiver);
    sim.set_flow_receiver(flow, r);
    sim.schedule_start(r, start);
    sim.schedule_start(s, start);
    Ok((s, r))
}
