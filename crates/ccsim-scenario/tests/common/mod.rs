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

/// No link carries more than its rate. On every link, the goodputs of the unicast flows
/// whose path crosses it, times the measurement window, add up to at most what the link can
/// transmit in the window plus what the receivers held out of order when the window opened
/// (bounded by the bytes that had arrived but were not yet delivered in order), which
/// in-order delivery may release inside the window.
#[track_caller]
pub fn assert_within_capacity(spec: &Spec, outcome: &RunOutcome) {
    use ccsim_core::Addr;
    use ccsim_engine::NodeId;
    let sim = &outcome.built.sim;
    let snapshot = sim.warmup_snapshot();
    let start = snapshot.map_or(0, |s| s.at);
    let window_s = (sim.now().as_nanos() - start) as f64 / 1e9;
    if window_s <= 0.0 {
        return;
    }
    let mut carried: std::collections::BTreeMap<u32, (f64, f64)> = Default::default();
    for (i, f) in spec.flows.iter().enumerate() {
        let (flow, from, to) = outcome.built.flows[i];
        if to.node == Addr::GROUP_NODE {
            continue;
        }
        let delivered = outcome.summary.flows[&f.name].goodput_bps * window_s / 8.0;
        let held = snapshot.map_or(0.0, |s| {
            let arrived = s.flows[flow.0 as usize].delivered_bytes;
            let in_order = s.agents[to.agent as usize].app_bytes_delivered;
            arrived.saturating_sub(in_order) as f64
        });
        for link in sim
            .route(NodeId(from.node), NodeId(to.node))
            .unwrap_or_default()
        {
            let entry = carried.entry(link.0).or_default();
            entry.0 += delivered;
            entry.1 += held;
        }
    }
    for (link, (bytes, held)) in carried {
        let capacity = sim.link_config(ccsim_engine::LinkId(link)).rate.0 as f64 / 8.0 * window_s;
        assert!(
            bytes <= capacity + held + 1.0,
            "flows report {bytes:.0} B delivered through link {link}, which carries at most \
             {capacity:.0} B in the {window_s} s window (+ {held:.0} B held out of order at its start)",
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
