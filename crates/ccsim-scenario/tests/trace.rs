//! `links[].trace`: a mahimahi delivery trace as a link's rate, through the scenario layer
//! (the engine's closed-form cases are in ccsim-engine's tests/delivery.rs).

use crate::common;

use common::{run_spec, spec, spec_error};
use serde_json::json;

/// tests/data/cellular-2s.trace: synthetic (tests/data/make_cellular_trace.py), 1172
/// opportunities in 2 s, the rate changing every 100 ms between about 2.4 and 14 Mbit/s.
const CELLULAR: &str = include_str!("../../../tests/data/cellular-2s.trace");

fn cellular() -> Vec<u64> {
    CELLULAR.lines().map(|l| l.parse().unwrap()).collect()
}

fn bulk(trace: &[u64]) -> serde_json::Value {
    json!({
        "run": {"duration": "30s", "warmup": "2s"},
        "links": [
            {"between": ["s", "r"], "rate": "100Mbps", "delay": "5ms", "queue": "1000p"},
            {"between": ["r", "d"], "rate": "7Mbps", "delay": "20ms", "queue": "60p",
             "trace": trace}
        ],
        "flows": [{"name": "bulk", "protocol": "cubic", "from": "s", "to": "d",
                   "packet_size": "1500B"}]
    })
}

#[test]
fn bad_traces_name_the_key() {
    for (trace, want) in [
        (json!([]), "at least one timestamp"),
        (json!([1, 3, 2]), "non-decreasing: [2] = 2 follows 3"),
        (json!([0, 0]), "nonzero time"),
        (json!([-1]), "links[0].trace"),
        (json!("cellular.trace"), "links[0].trace"),
    ] {
        let mut v = bulk(&[1]);
        v["links"][0]["trace"] = trace.clone();
        let e = spec_error(v);
        assert!(e.starts_with("links[0].trace"), "{trace}: {e}");
        assert!(e.contains(want), "{trace}: {e}");
    }
}

#[test]
fn bulk_tcp_gets_most_of_a_cellular_trace_and_never_more() {
    let trace = cellular();
    // The trace's mean capacity: 1504 B per opportunity, period its last timestamp.
    let mean_bps = trace.len() as f64 * 1504.0 * 8.0 / (*trace.last().unwrap() as f64 / 1e3);
    assert!((mean_bps / 7.05e6 - 1.0).abs() < 0.01, "{mean_bps}");
    let out = run_spec(&spec(bulk(&trace)));
    let f = &out.summary.flows["bulk"];
    // Goodput counts TCP payload: 1460 of each 1500-byte packet.
    let payload_mean = mean_bps * 1460.0 / 1500.0;
    assert!(
        f.goodput_bps < payload_mean,
        "{} against {payload_mean}",
        f.goodput_bps
    );
    assert!(
        f.goodput_bps > 0.85 * payload_mean,
        "{} against {payload_mean}",
        f.goodput_bps
    );
    let u = out.summary.links["r->d"].utilization;
    assert!(u > 0.0 && u <= 1.0, "{u}");
}

#[test]
fn a_trace_run_is_deterministic_and_the_trace_matters() {
    let trace = cellular();
    let a = run_spec(&spec(bulk(&trace)));
    let b = run_spec(&spec(bulk(&trace)));
    let (sa, sb) = (untimed(&a.summary), untimed(&b.summary));
    assert_eq!(sa, sb);
    // The same link at its nominal 7 Mbit/s without the trace is another run.
    let mut v = bulk(&trace);
    v["links"][1].as_object_mut().unwrap().remove("trace");
    let c = run_spec(&spec(v));
    assert_ne!(untimed(&c.summary)["aggregate"], sa["aggregate"]);
    assert!(sa["aggregate"]["goodput_bps"].as_f64().unwrap() > 0.0);
}

/// A summary without its wall-clock fields.
fn untimed<T: serde::Serialize>(summary: &T) -> serde_json::Value {
    let mut v = serde_json::to_value(summary).unwrap();
    let run = v["run"].as_object_mut().unwrap();
    for k in ["wall_seconds", "events_per_second", "packets_per_second"] {
        run.remove(k);
    }
    v
}
