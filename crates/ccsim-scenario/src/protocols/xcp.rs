//! XCP flows (Katabi, Handley and Rohrs 2002; crates/ccsim-protocols/src/xcp): the `xcp` table
//! of a flow, its checks and builder, and the router function on every link.
//!
//! XCP is a window protocol on our TCP machinery, so it is in the TCP family: the TCP keys
//! (`initial_window`, `max_window`, `min_rto`, `delayed_ack`, ...) apply. `ecn` and the Vegas,
//! slow-start and pacing options do not.
//! CHOICE: when any flow or web generator of a scenario runs XCP, every link direction's egress
//! port runs the XCP router function (`[run] xcp_router` chooses the paper's or ns-2.35's
//! settings); it sees every packet offered to the port, so other traffic on the link counts in
//! the input rate, and it changes only packets with an XCP header.

use ccsim_core::SimTime;
use ccsim_engine::{PortState, RouterHook, Verdict};
use ccsim_protocols::{
    AnyAgent, Hdr, TcpConfig, TcpSink, XcpParams, XcpPort, XcpReceiver, XcpRecovery, XcpRouter,
    XcpRouterConfig, XcpSender,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::FlowContext;
use crate::error::ScenarioError;
use crate::spec::flows::{FlowSpec, Protocol};
use crate::spec::{err, show, Spec};
use crate::units::RateStr;

/// An XCP flow's own keys.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct XcpSpec {
    /// The application's desired rate (section 3.3: the sender asks for the increase that
    /// reaches it); absent: any increase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desired_rate: Option<RateStr>,
    /// Loss recovery: "newreno" (default) or "reno".
    #[serde(default)]
    pub recovery: XcpRecoverySpec,
}

/// An XCP sender's loss recovery.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum XcpRecoverySpec {
    /// RFC 6582.
    #[default]
    Newreno,
    /// RFC 5681.
    Reno,
}

/// The XCP router function's settings, `[run] xcp_router`.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
pub enum XcpRouterSpec {
    /// The paper's algorithm.
    #[default]
    #[serde(rename = "paper")]
    Paper,
    /// ns-2.35's RTT cap and queue-measurement window.
    #[serde(rename = "ns2.35")]
    Ns235,
}

impl XcpRouterSpec {
    /// Whether this is the default.
    #[must_use]
    pub fn is_paper(&self) -> bool {
        *self == XcpRouterSpec::Paper
    }
}

/// An XCP flow's checks (after the TCP family's).
pub(crate) fn validate(f: &FlowSpec, p: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    if f.protocol != Protocol::Xcp {
        if f.xcp.is_some() {
            return err(
                p("xcp"),
                format!(
                    "XCP options need protocol = \"xcp\", found {:?}",
                    f.protocol.name()
                ),
            );
        }
        return Ok(());
    }
    for (key, set) in [
        ("ecn", f.ecn),
        ("paced_slow_start", f.paced_slow_start),
        ("initial_ssthresh", f.initial_ssthresh.is_some()),
    ] {
        if set {
            return err(
                p(key),
                "XCP grows its window by the routers' feedback alone; remove it".into(),
            );
        }
    }
    if let Some(RateStr(r)) = f.xcp.and_then(|x| x.desired_rate) {
        if r.0 == 0 {
            return err(
                p("xcp.desired_rate"),
                format!("must be positive, found {}", show(&RateStr(r))),
            );
        }
    }
    Ok(())
}

/// An XCP flow's sender and receiver.
pub(crate) fn build(f: &FlowSpec, cx: &FlowContext, cfg: &TcpConfig) -> (AnyAgent, AnyAgent) {
    let x = f.xcp.unwrap_or_default();
    let params = XcpParams {
        recovery: match x.recovery {
            XcpRecoverySpec::Newreno => XcpRecovery::NewReno,
            XcpRecoverySpec::Reno => XcpRecovery::Reno,
        },
        desired_rate: x.desired_rate.map(|r| r.0),
    };
    let delack = f.delayed_ack.then_some(ccsim_core::Dur::from_millis(200));
    (
        AnyAgent::XcpSender(Box::new(XcpSender::new(cx.flow, cx.receiver, cfg, params))),
        AnyAgent::XcpReceiver(Box::new(XcpReceiver::new(TcpSink::new(delack)))),
    )
}

/// Whether any flow or web generator runs XCP.
pub(crate) fn in_use(spec: &Spec) -> bool {
    spec.flows.iter().any(|f| f.protocol == Protocol::Xcp)
        || spec
            .traffic
            .iter()
            .any(|t| t.protocol == Some(Protocol::Xcp))
}

/// The XCP router function at one egress port.
struct XcpHook(XcpRouter);

impl RouterHook<Hdr> for XcpHook {
    fn on_enqueue(
        &mut self,
        now: u64,
        pkt: &mut ccsim_core::Packet<Hdr>,
        port: &PortState,
    ) -> Verdict {
        self.0.on_packet(
            SimTime(now),
            pkt,
            XcpPort {
                rate: port.rate,
                queue_bytes: port.queue_bytes,
                bytes_offered: port.bytes_offered,
            },
        );
        Verdict::Forward
    }
}

/// Put the XCP router function on every link direction whose link has `assist` (the
/// default), if any flow runs XCP. `links` holds both directions of each spec link, in order.
pub(crate) fn install_routers(
    spec: &Spec,
    sim: &mut crate::run::NetSim,
    links: &[ccsim_engine::LinkId],
) {
    if !in_use(spec) {
        return;
    }
    let cfg = match spec.run.xcp_router {
        XcpRouterSpec::Paper => XcpRouterConfig::paper(),
        XcpRouterSpec::Ns235 => XcpRouterConfig::ns2_35(),
    };
    for (link, directions) in spec.links.iter().zip(links.chunks(2)) {
        if link.assist {
            for &l in directions {
                sim.set_router_hook(l, Box::new(XcpHook(XcpRouter::new(cfg))));
            }
        }
    }
}
