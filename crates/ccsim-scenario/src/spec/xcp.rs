//! XCP flows (Katabi, Handley and Rohrs 2002; crates/ccsim-protocols/src/xcp): the `xcp` table
//! of a flow and its checks, and the settings of the router function on every link. The agents
//! are built in [`crate::protocols::xcp`].
//!
//! XCP is a window protocol on our TCP machinery, so it is in the TCP family: the TCP keys
//! (`initial_window`, `max_window`, `min_rto`, `delayed_ack`, ...) apply. `ecn` and the Vegas,
//! slow-start and pacing options do not.
//! The router function on every link is in [`crate::protocols::assist`] (`[run] xcp_router` chooses the
//! paper's or ns-2.35's settings).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::ScenarioError;
use crate::spec::flows::{FlowSpec, Protocol};
use crate::spec::{err, show};
use crate::units::RateStr;

/// An XCP flow's own keys.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct XcpSpec {
    /// The application's desired rate (section 3.3: the sender asks for the increase that
    /// reaches it); absent: any increase.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
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
        ("ecn", f.ecn == Some(true)),
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
