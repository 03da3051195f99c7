//! The router functions of router-assisted congestion control on every link direction: XCP's
//! (crates/ccsim-protocols/src/xcp/router.rs) when any flow or web generator runs XCP, OBP's
//! (crates/ccsim-protocols/src/obp/router.rs) when any runs OBP, both when both do.
//!
//! CHOICE: every link direction's egress port runs them, unless its link sets
//! `assist = false` (partial deployment). Each sees every packet offered to the port, so other
//! traffic on the link counts in its input rate, and each changes only packets with its own
//! header.
//! CHOICE: the engine allows one hook per link direction, so one hook holds both functions;
//! they read the port's state and write disjoint headers, so their order does not matter.

use ccsim_core::SimTime;
use ccsim_engine::{PortState, RouterHook, Verdict};
use ccsim_protocols::{
    Hdr, ObpPort, ObpRouter, ObpRouterConfig, XcpPort, XcpRouter, XcpRouterConfig,
};

use crate::netsim::NetSim;
use crate::spec::flows::Protocol;
use crate::spec::xcp::XcpRouterSpec;
use crate::spec::Spec;

/// Whether any flow or web generator runs `protocol`.
fn in_use(spec: &Spec, protocol: Protocol) -> bool {
    spec.flows.iter().any(|f| f.protocol == protocol)
        || spec.traffic.iter().any(|t| t.protocol == Some(protocol))
}

/// The router functions at one egress port.
struct AssistHook {
    xcp: Option<XcpRouter>,
    obp: Option<ObpRouter>,
}

impl RouterHook<Hdr> for AssistHook {
    fn on_enqueue(
        &mut self,
        now: u64,
        pkt: &mut ccsim_core::Packet<Hdr>,
        port: &PortState,
    ) -> Verdict {
        if let Some(x) = &mut self.xcp {
            x.on_packet(
                SimTime(now),
                pkt,
                XcpPort {
                    rate: port.rate,
                    queue_bytes: port.queue_bytes,
                    bytes_offered: port.bytes_offered,
                },
            );
        }
        if let Some(o) = &mut self.obp {
            o.on_packet(
                SimTime(now),
                pkt,
                ObpPort {
                    rate: port.rate,
                    queue_bytes: port.queue_bytes,
                    bytes_offered: port.bytes_offered,
                },
            );
        }
        Verdict::Forward
    }
}

/// The router functions a scenario's flows need, with their settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RouterPlan {
    xcp: Option<XcpRouterConfig>,
    obp: Option<ObpRouterConfig>,
}

impl RouterPlan {
    /// XCP's when any flow or web generator runs XCP, OBP's when any runs OBP.
    pub(crate) fn of(spec: &Spec) -> Self {
        RouterPlan {
            xcp: in_use(spec, Protocol::Xcp).then(|| match spec.run.xcp_router {
                XcpRouterSpec::Paper => XcpRouterConfig::paper(),
                XcpRouterSpec::Ns235 => XcpRouterConfig::ns2_35(),
            }),
            obp: in_use(spec, Protocol::Obp).then_some(ObpRouterConfig {
                period: spec.run.obp_period.0,
            }),
        }
    }

    /// Run fresh router functions at link direction `l`'s egress port (nothing if none is needed).
    pub(crate) fn install(&self, sim: &mut NetSim, l: ccsim_engine::LinkId) {
        if self.xcp.is_none() && self.obp.is_none() {
            return;
        }
        sim.set_router_hook(
            l,
            Box::new(AssistHook {
                xcp: self.xcp.map(XcpRouter::new),
                obp: self.obp.map(ObpRouter::new),
            }),
        );
    }
}

/// Whether the spec link that link direction `l` of the run's network belongs to is assisted:
/// `run::build` adds both directions of each spec link, in spec order, and no other links.
pub(crate) fn assisted(spec: &Spec, l: ccsim_engine::LinkId) -> bool {
    spec.links
        .get(l.0 as usize / 2)
        .is_some_and(|link| link.assist)
}

/// Put the router functions the scenario's flows need on every link direction whose link has
/// `assist` (the default). `links` holds both directions of each spec link, in order.
pub(crate) fn install_routers(spec: &Spec, sim: &mut NetSim, links: &[ccsim_engine::LinkId]) {
    let plan = RouterPlan::of(spec);
    for &l in links {
        if assisted(spec, l) {
            plan.install(sim, l);
        }
    }
}
