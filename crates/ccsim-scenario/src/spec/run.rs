//! `[run]`: the length of the run, its seed, warm-up and route metric.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use super::xcp::XcpRouterSpec;

use super::{err, show, zero_dur, RerouteSpec};
use crate::error::ScenarioError;
use crate::units::DurStr;

/// Run-wide settings.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    /// Simulated time to run.
    pub duration: DurStr,
    /// Master random seed.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Summary metrics ignore everything before this time.
    #[serde(default = "zero_dur")]
    pub warmup: DurStr,
    /// Route metric: "delay" (sum of propagation delays) or "hops".
    #[serde(default)]
    pub routing: Routing,
    /// Equal-cost paths: "none" (one path, the lowest-indexed link at each tie), "ecmp" (a
    /// per-flow hash of the addresses picks among them at each hop) or "spray" (a draw per
    /// packet).
    #[serde(default, skip_serializing_if = "omit_single_path")]
    pub multipath: MultipathSpec,
    /// What routing does when a link or node changes state: "static" (never recomputed),
    /// "instant", or a convergence delay such as "2s".
    #[serde(default, skip_serializing_if = "omit_static_reroute")]
    pub reroute: RerouteSpec,
    /// The XCP router function's settings when flows run XCP: "paper" or "ns2.35".
    #[serde(default, skip_serializing_if = "omit_paper_router")]
    pub xcp_router: XcpRouterSpec,
    /// The OBP router function's measurement period when flows run OBP (10ms).
    #[serde(
        default = "default_obp_period",
        skip_serializing_if = "is_default_obp_period"
    )]
    pub obp_period: DurStr,
}

fn default_obp_period() -> DurStr {
    DurStr(ccsim_protocols::ObpRouterConfig::default().period)
}
fn is_default_obp_period(d: &DurStr) -> bool {
    super::omitting_defaults() && *d == default_obp_period()
}
fn omit_single_path(m: &MultipathSpec) -> bool {
    super::omitting_defaults() && *m == MultipathSpec::None
}
fn omit_static_reroute(r: &RerouteSpec) -> bool {
    super::omitting_defaults() && r.is_static()
}
fn omit_paper_router(r: &XcpRouterSpec) -> bool {
    super::omitting_defaults() && r.is_paper()
}

fn default_seed() -> u64 {
    1
}

/// Route metric.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Routing {
    /// Shortest total propagation delay.
    #[default]
    Delay,
    /// Fewest hops.
    Hops,
}

/// How routers use equal-cost paths (docs/datacenter.md).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum MultipathSpec {
    /// One path per destination.
    #[default]
    None,
    /// Per-flow hash over the equal-cost next hops.
    Ecmp,
    /// A uniform draw per packet.
    Spray,
}

impl MultipathSpec {
    /// The engine's mode.
    #[must_use]
    pub fn engine(self) -> ccsim_engine::Multipath {
        match self {
            MultipathSpec::None => ccsim_engine::Multipath::None,
            MultipathSpec::Ecmp => ccsim_engine::Multipath::Ecmp,
            MultipathSpec::Spray => ccsim_engine::Multipath::Spray,
        }
    }
}

/// The run-wide checks.
pub(crate) fn validate(run: &RunSpec) -> Result<(), ScenarioError> {
    let duration = run.duration.0;
    if duration.0 == 0 {
        return err(
            "run.duration".into(),
            "must be positive, found \"0s\"".into(),
        );
    }
    if run.warmup.0 >= duration {
        return err(
            "run.warmup".into(),
            format!(
                "{} is not before the end of the run ({})",
                show(&run.warmup),
                show(&run.duration)
            ),
        );
    }
    let period = run.obp_period.0;
    if period < ccsim_core::Dur::from_micros(10) || period > ccsim_core::Dur::from_secs(10) {
        return err(
            "run.obp_period".into(),
            format!(
                "must be between 10us and 10s, found {}",
                show(&run.obp_period)
            ),
        );
    }
    Ok(())
}
