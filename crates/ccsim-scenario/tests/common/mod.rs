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

/// No link carries more than its rate. Arrival counts new payload bytes as they reach the
/// receiver, so on every link the arrivals of the unicast flows whose path crosses it, times
/// the measurement window, add up to at most what the link can send in the window plus what
/// was already past it when the window opened (at most each flow's packets in the network
/// then, at its packet size). Goodput counts bytes as they are delivered in order, which
/// may include bytes that arrived before the window and were held above a gap when it
/// opened: its bound adds those. A flow's path is the route in force at the end, so the check
/// needs routes that never changed: with `[[events]]` it is left to each link's own counters
/// (`property.rs`'s window laws).
#[track_caller]
pub fn assert_within_capacity(spec: &Spec, outcome: &RunOutcome) {
    use ccsim_core::Addr;
    use ccsim_engine::NodeId;
    if !spec.events.is_empty() {
        return;
    }
    let sim = &outcome.built.sim;
    let snapshot = sim.warmup_snapshot();
    let window_s = (sim.now().as_nanos() - snapshot.map_or(0, |s| s.at)) as f64 / 1e9;
    if window_s <= 0.0 {
        return;
    }
    #[derive(Default)]
    struct Carried {
        goodput: f64,
        arrival: f64,
        in_network: f64,
        held: f64,
    }
    let mut carried: std::collections::BTreeMap<u32, Carried> = Default::default();
    for (i, f) in spec.flows.iter().enumerate() {
        let (flow, from, to) = outcome.built.flows[i];
        if to.node == Addr::GROUP_NODE {
            continue;
        }
        let summary = &outcome.summary.flows[&f.name];
        let goodput = summary.goodput_bps * window_s / 8.0;
        let arrival = summary.arrival_bps * window_s / 8.0;
        // What `ccsim run` prints beside a goodput above arrival: the summary's own field.
        let held = summary.held_at_start_bytes as f64;
        assert_eq!(
            summary.held_at_start_bytes,
            snapshot.map_or(0, |s| s.agents[to.agent as usize].app_bytes_held),
            "flow {}: held_at_start_bytes is not what the receiver held at the warm-up's end",
            f.name
        );
        let in_network = snapshot.map_or(0.0, |s| {
            let st = &s.flows[flow.0 as usize];
            // Conservation: sent = delivered + dropped + in the network.
            let packets = (st.sent_packets + st.replicated_packets)
                .saturating_sub(st.delivered_packets + st.dropped_packets);
            packets as f64 * f.packet_size.0 .0 as f64
        });
        for link in sim
            .route(NodeId(from.node), NodeId(to.node))
            .unwrap_or_default()
        {
            let entry = carried.entry(link.0).or_default();
            entry.goodput += goodput;
            entry.arrival += arrival;
            entry.in_network += in_network;
            entry.held += held;
        }
    }
    for (link, c) in carried {
        let config = sim.link_config(ccsim_engine::LinkId(link));
        // A link timed by a delivery trace carries what its opportunities in the window
        // carry, plus the packet that may have been partly sent before it opened.
        let capacity = match &config.trace {
            None => config.rate.0 as f64 / 8.0 * window_s,
            Some(t) => {
                let end = sim.now().as_nanos();
                let start = snapshot.map_or(0, |s| s.at);
                (t.capacity_bytes(start, end) + 65_535) as f64
            }
        };
        let Carried {
            goodput,
            arrival,
            in_network,
            held,
        } = c;
        assert!(
            arrival <= capacity + in_network,
            "flows report {arrival:.0} B arriving through link {link}, which sends at most \
             {capacity:.0} B in the {window_s} s window (+ {in_network:.0} B in the network \
             when it opened)",
        );
        assert!(
            goodput <= capacity + in_network + held,
            "flows report {goodput:.0} B delivered through link {link}, which sends at most \
             {capacity:.0} B in the {window_s} s window (+ {in_network:.0} B in the network \
             and {held:.0} B held above gaps when it opened)",
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
