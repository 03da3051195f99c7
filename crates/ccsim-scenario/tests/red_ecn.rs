//! RED and ECN in whole scenarios, against RFC 3168 and the RED design: ECN over RED
//! replaces drops by marks at the same goodput, the sender halves at most once per round
//! trip, and the queue description (`queue = { kind = "red", ... }`) is validated.

mod common;

use common::{run_spec, spec, spec_error};
use serde_json::{json, Value};

/// Four NewReno flows through a 10 Mbps RED bottleneck, RTT 2 * (1 + 20 + 1) = 44 ms.
fn red_dumbbell(ecn: bool) -> Value {
    let mut links = vec![
        json!({"between": ["r1", "r2"], "rate": "10Mbps", "delay": "20ms",
                                "queue": {"kind": "red", "limit": "100p"}}),
    ];
    let mut flows = Vec::new();
    for i in 0..4 {
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
