//! Helpers shared by the scenario tests.
#![allow(dead_code)]

use ccsim_scenario::{parse_spec_value, run, RunOptions, RunOutcome, Spec};

/// Parse a JSON spec or fail the test with the error.
#[track_caller]
pub fn spec(value: serde_json::Value) -> Spec {
    parse_spec_value(value).unwrap_or_else(|e| panic!("spec rejected: {e}"))
}

/// Run to the end; `run` checks both conservation laws and fails on a violation.
#[track_caller]
pub fn run_spec(spec: &Spec) -> RunOutcome {
    run_with(spec, RunOptions::default())
}

#[track_caller]
pub fn run_with(spec: &Spec, options: RunOptions) -> RunOutcome {
    let outcome = run(spec, options, &mut |_| true).unwrap_or_else(|e| panic!("run failed: {e}"));
    assert_within_capacity(spec, &outcome);
    outcome
}

/// No link carries more than its rate: on every link, the goodputs of the unicast flows whose
/// path crosses it add up to at most its rate (goodput counts payload bytes as they arrive,
/// headers excluded, so this holds over any window).
#[track_caller]
pub fn assert_within_capacity(spec: &Spec, outcome: &RunOutcome) {
    use ccsim_core::Addr;
    use ccsim_engine::NodeId;
    let sim = &outcome.built.sim;
    let mut carried: std::collections::BTreeMap<u32, f64> = Default::default();
    for (i, f) in spec.flows.iter().enumerate() {
        let (_, from, to) = outcome.built.flows[i];
        if to.node == Addr::GROUP_NODE {
            continue;
        }
        let goodput = outcome.summary.flows[&f.name].goodput_bps;
        for link in sim
            .route(NodeId(from.node), NodeId(to.node))
            .unwrap_or_default()
        {
            *carried.entry(link.0).or_default() += goodput;
        }
    }
    for (link, bps) in carried {
        let rate = sim.link_config(ccsim_engine::LinkId(link)).rate.0 as f64;
        assert!(
            bps <= rate,
            "flows report {:.4} Mbit/s through link {link} of {:.4} Mbit/s",
            bps / 1e6,
            rate / 1e6
        );
    }
}

/// The spec-level error message for a bad document.
#[track_caller]
pub fn spec_error(value: serde_json::Value) -> String {
    match parse_spec_value(value) {
        Ok(_) => panic!("spec unexpectedly accepted"),
        Err(e) => e.to_string(),
    }
}
