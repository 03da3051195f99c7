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

use crate::spec::flows::Protocol;
use crate::spec::Spec;

use super::xcp::XcpRouterSpec;

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

/// Put the router functions the scenario's flows need on every link direction whose link has
/// `assist` (the default). `links` holds both directions of each spec link, in order.
pub(crate) fn install_routers(
    spec: &Spec,
    sim: &mut crate::run::NetSim,
    links: &[ccsim_engine::LinkId],
) {
    let xcp = in_use(spec, Protocol::Xcp).then(|| match spec.run.xcp_router {
        XcpRouterSpec::Paper => XcpRouterConfig::paper(),
        XcpRouterSpec::Ns235 => XcpRouterConfig::ns2_35(),
    });
    let obp = in_use(spec, Protocol::Obp).then(|| ObpRouterConfig {
        period: spec.run.obp_period.0,
    });
    if xcp.is_none() && obp.is_none() {
        return;
    }
    for (link, directions) in spec.links.iter().zip(links.chunks(2)) {
        if link.assist {
            for &l in directions {
                sim.set_router_hook(
                    l,
                    Box::new(AssistHook {
                        xcp: xcp.map(XcpRouter::new),
                        obp: obp.map(ObpRouter::new),
                    }),
                );
            }
        }
    }
}
