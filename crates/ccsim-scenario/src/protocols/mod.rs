//! Each protocol family's scenario keys, their checks and the builder of its agents, one
//! module per family: [`tcp`], [`rate`] (rate-based congestion control), [`udp`] (sources
//! without congestion control), [`ticp`] (collection sessions, their own table) and [`tcpm`]
//! (reliable multicast sessions, their own table).
//!
//! A flow is checked by [`crate::spec::flows`] for what every flow has, then here by its
//! family; it is built by [`build_flow`], which hands the family its flow id, the receiver's
//! address and the packet size. docs/adding-a-protocol.md lists every place a new protocol
//! touches.

use ccsim_core::{Addr, FlowId};
use ccsim_engine::NodeId;
use ccsim_protocols::AnyAgent;

use crate::error::ScenarioError;
use crate::run::{NetSim, RunOptions};
use crate::spec::flows::{refuse_keys, FlowSpec, Protocol};

pub mod assist;
pub mod obp;
pub mod rate;
pub mod tcp;
pub mod tcpm;
pub mod ticp;
pub mod udp;
pub mod xcp;

/// The protocol families, as the scenario crate groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Window-controlled TCP variants.
    Tcp,
    /// Rate-based congestion control.
    Rate,
    /// UDP sources without congestion control.
    Udp,
}

/// The family of a flow protocol.
#[must_use]
pub fn family(protocol: Protocol) -> Family {
    match protocol {
        Protocol::Tahoe
        | Protocol::Reno
        | Protocol::Newreno
        | Protocol::Sack
        | Protocol::Vegas
        | Protocol::Xcp => Family::Tcp,
        Protocol::Tfrc
        | Protocol::TcpFriend
        | Protocol::Cbraa
        | Protocol::Primo
        | Protocol::Obp => Family::Rate,
        Protocol::Cbr | Protocol::Poisson => Family::Udp,
    }
}

/// The header bytes of a protocol's data packets (a packet must be larger).
#[must_use]
pub fn header_bytes(protocol: Protocol) -> u32 {
    if protocol == Protocol::Obp {
        return ccsim_protocols::TCP_HEADER_BYTES;
    }
    match family(protocol) {
        Family::Tcp => ccsim_protocols::TCP_HEADER_BYTES,
        Family::Rate => ccsim_protocols::RATE_HEADER_BYTES,
        Family::Udp => ccsim_protocols::UDP_HEADER_BYTES,
    }
}

/// `min_rto` (TCP and OBP): at most the 60 s maximum timeout.
pub(crate) fn validate_min_rto(
    f: &FlowSpec,
    p: &dyn Fn(&str) -> String,
) -> Result<(), ScenarioError> {
    match f.min_rto.filter(|m| m.0 > ccsim_core::Dur::from_secs(60)) {
        Some(min_rto) => crate::spec::err(
            p("min_rto"),
            format!(
                "must be at most the 60 s maximum RTO, found {}",
                crate::spec::show(&min_rto)
            ),
        ),
        None => Ok(()),
    }
}

/// A flow's family checks, and the refusal of the other families' keys.
pub(crate) fn validate_flow(f: &FlowSpec, p: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    match family(f.protocol) {
        Family::Tcp => {
            tcp::validate(f, p)?;
            refuse_keys(f, p, &f.rate_keys_set(), "rate-based flows")
        }
        Family::Rate => {
            rate::validate(f, p)?;
            refuse_keys(f, p, &f.tcp_keys_set(), "TCP flows")
        }
        Family::Udp => {
            udp::validate(f, p)?;
            refuse_keys(f, p, &f.tcp_keys_set(), "TCP flows")?;
            refuse_keys(f, p, &f.rate_keys_set(), "rate-based flows")
        }
    }
}

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
}

/// A flow's sender and receiver agents.
pub(crate) fn build_flow(
    f: &FlowSpec,
    cx: &FlowContext,
) -> Result<(AnyAgent, AnyAgent), ScenarioError> {
    Ok(match family(f.protocol) {
        Family::Tcp => tcp::build(f, cx),
        Family::Rate => rate::build(f, cx),
        Family::Udp => udp::build(f, cx)?,
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
