//! RED and ECN in whole scenarios, against RFC 3168 and the RED design: ECN over RED
//! replaces drops by marks at the same goodput, the sender halves at most once per round
//! trip, and the queue description (`queue = { kind = "red", ... }`) is validated.

use crate::common;

use common::{run_spec, spec, spec_error};
use serde_json::{json, Value};

/// Four NewReno flows through a 10 Mbps RED bottleneck, RTT 2 * (1 + 20 + 1) = 44 ms.
fn red_dumbbell(ecn: bool) -> Value {
    red_dumbbell_n(ecn, 4)
}

/// `n` NewReno flows through a 10 Mbps RED bottleneck, RTT 44 ms.
fn red_dumbbell_n(ecn: bool, n: usize) -> Value {
    let mut links = vec![
        json!({"between": ["r1", "r2"], "rate": "10Mbps", "delay": "20ms",
                                "queue": {"kind": "red", "limit": "100p"}}),
    ];
    let mut flows = Vec::new();
    for i in 0..n {
        links.push(json!({"between": [format!("s{i}"), "r1"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"}));
        links.push(json!({"between": ["r2", format!("d{i}")], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"}));
        flows.push(
            json!({"name": format!("f{i}"), "protocol": "newreno", "from": format!("s{i}"),
                           "to": format!("d{i}"), "start": format!("{}ms", 100 * i), "ecn": ecn}),
        );
    }
    json!({"run": {"duration": "60s", "warmup": "10s", "seed": 2}, "links": links, "flows": flows,
           "output": {"series": [], "trace": ["ssthresh"]}})
}

fn total_goodput(out: &ccsim_scenario::RunOutcome) -> f64 {
    out.summary.flows.values().map(|f| f.goodput_bps).sum()
}

#[test]
fn ecn_over_red_marks_instead_of_dropping_at_the_same_goodput() {
    let plain = run_spec(&spec(red_dumbbell(false)));
    let ecn = run_spec(&spec(red_dumbbell(true)));
    let (lp, le) = (&plain.summary.links["r1->r2"], &ecn.summary.links["r1->r2"]);
    assert!(lp.drops > 0, "RED drops without ECN: {lp:?}");
    assert_eq!(le.drops, 0, "no drops with ECN: {le:?}");
    assert!(le.ecn_marks > 0, "RED marks instead: {le:?}");
    assert_eq!(
        lp.ecn_marks, 0,
        "no marks without ECN-capable flows: {lp:?}"
    );
    let ratio = total_goodput(&ecn) / total_goodput(&plain);
    assert!(
        (0.9..=1.1).contains(&ratio),
        "goodput with / without ECN = {ratio}"
    );
    for (name, f) in &ecn.summary.flows {
        assert_eq!(f.retransmitted_packets, 0, "{name}: {f:?}");
    }
}

#[test]
fn an_ecn_sender_halves_at_most_once_per_round_trip() {
    let out = run_spec(&spec(red_dumbbell(true)));
    let v = out
        .var_names
        .iter()
        .position(|n| *n == "ssthresh:change")
        .expect("traced");
    let t = &out.trace;
    let base_rtt = 0.044;
    for flow in ["f0", "f1", "f2", "f3"] {
        let e = out
            .entity_names
            .iter()
            .position(|n| n == flow)
            .expect("flow");
        let times: Vec<f64> = (0..t.len())
            .filter(|&i| {
                t.entity[i] as usize == e && t.var[i] as usize == v && !t.value[i].is_nan()
            })
            .map(|i| t.time_ns[i] as f64 / 1e9)
            .collect();
        assert!(times.len() > 5, "{flow} reduced {} times", times.len());
        let min_gap = times
            .windows(2)
            .map(|w| w[1] - w[0])
            .fold(f64::INFINITY, f64::min);
        assert!(
            min_gap >= base_rtt,
            "{flow}: two reductions {min_gap} s apart"
        );
    }
}

#[test]
fn under_constant_load_the_red_average_settles_between_the_thresholds() {
    // FJ93 section 4: with constant load the average queue settles in [min_th, max_th]
    // (5 and 15 packets by default). Sampled every 0.1 s of simulated time after warm-up.
    // Sixteen flows keep the load up (with four, their windows are small enough that the
    // average sits at min_th).
    let s = spec(red_dumbbell_n(true, 16));
    let mut built =
        ccsim_scenario::run::build(&s, &ccsim_scenario::RunOptions::default()).expect("builds");
    let link = built
        .links
        .iter()
        .find(|(n, _)| n == "r1->r2")
        .map(|(_, id)| *id)
        .expect("bottleneck");
    let horizon = ccsim_core::SimTime(60_000_000_000);
    built
        .sim
        .configure_run(horizon, ccsim_core::SimTime::ZERO, Default::default());
    let mut samples = Vec::new();
    let mut next = 10_000_000_000;
    loop {
        let p = built.sim.run_until_horizon(500);
        if p.now >= next {
            samples.push(built.sim.red_average(link).expect("a RED link"));
            next += 100_000_000;
        }
        if p.done {
            break;
        }
    }
    assert!(samples.len() > 400, "{} samples", samples.len());
    let mean = samples.iter().sum::<f64>() / samples.len() as f64;
    let inside = samples.iter().filter(|a| (5.0..=15.0).contains(*a)).count();
    assert!((5.0..=15.0).contains(&mean), "mean average queue {mean}");
    assert!(
        inside * 10 >= samples.len() * 9,
        "{inside} of {} samples inside",
        samples.len()
    );
}

#[test]
fn red_parameters_are_checked_with_their_path() {
    let mut s = red_dumbbell(true);
    s["links"][0]["queue"] = json!({"kind": "red", "min_th": 20, "max_th": 10});
    assert!(
        spec_error(s.clone()).contains("links[0].queue.max_th"),
        "{}",
        spec_error(s)
    );
    let mut s = red_dumbbell(true);
    s["links"][0]["queue"] = json!({"kind": "red", "w_q": 0});
    assert!(spec_error(s).contains("links[0].queue.w_q"));
    let mut s = red_dumbbell(true);
    s["links"][0]["queue"] = json!({"kind": "codel"});
    assert!(spec_error(s).contains("links[0].queue"));
    let mut s = red_dumbbell(true);
    s["links"][0]["queue"] = json!({"kind": "red", "maxp": 0.1});
    let e = spec_error(s);
    assert!(e.contains("links[0].queue") && e.contains("maxp"), "{e}");
}
