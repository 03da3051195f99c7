//! Traffic generators at scale: web transfers are created and retired during the run, so the
//! agents, timers and packets a run holds follow the transfers alive at once, not all those
//! ever started (the 100 web flows/s for 100 s over 1 Gbps).

use crate::common;

use serde_json::json;

#[test]
fn ten_thousand_web_transfers_hold_only_the_live_ones() {
    let spec = common::spec(json!({
        "run": {"duration": "100s", "seed": 3},
        "links": [
            {"between": ["s", "r1"], "rate": "10Gbps", "delay": "1ms", "queue": "10000p"},
            {"between": ["r1", "r2"], "rate": "1Gbps", "delay": "18ms", "queue": "5000p"},
            {"between": ["r2", "d"], "rate": "10Gbps", "delay": "1ms", "queue": "10000p"}
        ],
        "traffic": [{"name": "web", "kind": "web", "protocol": "newreno", "from": ["s"], "to": ["d"],
                     "arrivals": 100.0, "mean_size": "30kB"}],
        "output": {"series": []}
    }));
    let outcome = common::run_spec(&spec);
    let generated = &outcome.built.generators.flows;
    // Poisson with mean 10 000: within 4 standard deviations.
    assert!(
        (generated.len() as f64 - 10_000.0).abs() < 400.0,
        "{} transfers",
        generated.len()
    );
    let sim = &outcome.built.sim;
    // Each transfer lasts a few round trips (40 ms each) at 100 arrivals per second: a few
    // tens alive at once. The agent table is sized by the peak, not by the 20 000 agents made.
    assert!(
        sim.agents().len() < 400,
        "{} agent slots",
        sim.agents().len()
    );
    assert!(sim.live_agents() < 400, "{} live agents", sim.live_agents());
    assert!(
        sim.packets_allocated() < 20_000,
        "{} packets",
        sim.packets_allocated()
    );
    let completed = generated.iter().filter(|f| f.fct_ns().is_some()).count();
    assert!(
        completed + 50 > generated.len(),
        "{completed} of {} completed",
        generated.len()
    );
}
