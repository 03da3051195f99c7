//! OBP flows (Loureiro and Monteiro, "What if the end systems knew the bandwidth available in
//! the network?", section III; crates/ccsim-protocols/src/obp): the `obp` table of a flow, its
//! checks. The agents are built in [`crate::protocols::obp`].
//!
//! OBP is rate-based (the sender paces at its transmission rate TR), so it is in the
//! rate-based family: `initial_rate` and `min_rate` bound TR. Unlike the other rate-based
//! protocols it repairs losses with TCP-style ACKs and can send a finite transfer (`size`),
//! so web generators may run it. `min_rto` is its shortest retransmission timeout.
//! The router function on every link is in [`crate::protocols::assist`].

use ccsim_core::Dur;
use ccsim_protocols::ObpParams;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::ScenarioError;
use crate::spec::flows::{FlowSpec, Protocol};
use crate::spec::{err, show};
use crate::units::DurStr;

/// An OBP flow's own constants (section III-B-1 of the paper).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ObpSpec {
    /// delta of expressions (1) and (3): how much of the control factor the fairness factor
    /// takes back at the equilibrium point (0.9).
    #[serde(default = "default_delta")]
    pub delta: f64,
    /// gamma of the control factor, expression (2): (AB + gamma Max.TR) / Max.TR, the
    /// increase still granted at AB = 0 (0.09).
    #[serde(default = "default_gamma")]
    pub gamma: f64,
    /// The round-trip time assumed before the first sample (1s, RFC 6298's initial RTO).
    #[serde(default = "default_initial_rtt")]
    pub initial_rtt: DurStr,
}

impl Default for ObpSpec {
    fn default() -> Self {
        ObpSpec {
            delta: default_delta(),
            gamma: default_gamma(),
            initial_rtt: default_initial_rtt(),
        }
    }
}

fn default_delta() -> f64 {
    ObpParams::paper(1000).delta
}
fn default_gamma() -> f64 {
    ObpParams::paper(1000).gamma
}
fn default_initial_rtt() -> DurStr {
    DurStr(ObpParams::paper(1000).initial_rtt)
}

/// An OBP flow's checks (the rate-based family's shared keys are checked there).
pub(crate) fn validate(f: &FlowSpec, p: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    if f.protocol != Protocol::Obp {
        if f.obp.is_some() {
            return err(
                p("obp"),
                format!(
                    "OBP constants need protocol = \"obp\", found {:?}",
                    f.protocol.name()
                ),
            );
        }
        return Ok(());
    }
    if f.size.is_some_and(|s| s.0 .0 == 0) {
        return err(p("size"), "must be positive, found \"0B\"".into());
    }
    crate::spec::tcp::validate_min_rto(f, p)?;
    if f.max_rate.is_some() {
        return err(
            p("max_rate"),
            "OBP takes its top rate from the narrow-link field the routers stamp; remove it".into(),
        );
    }
    if let (Some(lo), Some(first)) = (f.min_rate, f.initial_rate) {
        if first.0 .0 < lo.0 .0 {
            return err(
                p("initial_rate"),
                format!(
                    "must be at least min_rate ({}), found {}",
                    show(&lo),
                    show(&first)
                ),
            );
        }
    }
    let c = f.obp.unwrap_or_default();
    let checks = [
        (
            "delta",
            c.delta,
            c.delta > 0.0 && c.delta < 1.0,
            "in (0, 1)",
        ),
        (
            "gamma",
            c.gamma,
            c.gamma > 0.0 && c.gamma <= 1.0,
            "in (0, 1]",
        ),
    ];
    for (key, x, ok, what) in checks {
        if !x.is_finite() || !ok {
            return err(
                p(&format!("obp.{key}")),
                format!("must be {what}, found {x}"),
            );
        }
    }
    let rtt = c.initial_rtt.0;
    if rtt < Dur::from_micros(1) || rtt > Dur::from_secs(60) {
        return err(
            p("obp.initial_rtt"),
            format!(
                "must be between 1us and 60s, found {}",
                show(&c.initial_rtt)
            ),
        );
    }
    Ok(())
}
