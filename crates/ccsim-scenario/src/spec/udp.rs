//! The UDP sources' checks: constant bit rate and Poisson departures
//! (crates/ccsim-protocols/src/udp.rs), with no congestion control. The agents are built in
//! [`crate::protocols::udp`].

use crate::error::ScenarioError;
use crate::spec::flows::{refuse_keys, FlowSpec};
use crate::spec::{err, show};

/// A UDP flow's checks.
pub(crate) fn validate(f: &FlowSpec, p: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    match f.rate {
        None => {
            return err(
                p("rate"),
                format!(
                    "{} flows need a rate, e.g. rate = \"5Mbps\"",
                    f.protocol.name()
                ),
            )
        }
        Some(r) if r.0 .0 == 0 => {
            return err(p("rate"), format!("must be positive, found {}", show(&r)))
        }
        Some(r) if u128::from(r.0 .0) > u128::from(f.packet_size.0 .0) * 8 * 1_000_000_000 => {
            return err(
                p("rate"),
                format!(
                    "must be at most one packet per nanosecond ({}bps with {} packets), found {}",
                    u128::from(f.packet_size.0 .0) * 8 * 1_000_000_000,
                    show(&f.packet_size),
                    show(&r)
                ),
            )
        }
        Some(_) => {}
    }
    if f.size.is_some() {
        return err(
            p("size"),
            format!(
                "{} flows have no size; use stop to end them",
                f.protocol.name()
            ),
        );
    }
    refuse_keys(f, p, &f.tcp_keys_set(), "TCP flows")?;
    refuse_keys(f, p, &f.rate_keys_set(), "rate-based flows")?;
    Ok(())
}
