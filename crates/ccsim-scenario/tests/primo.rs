//! Primo in whole scenarios: the receiver's clock offset changes nothing, two flows that
//! start together share the bottleneck without loss and with a short queue, packets are
//! conserved, and bad constants are refused with their path.

use crate::common;

use common::{run_spec, spec, spec_error};
use serde_json::{json, Value};

/// The paper's dumbbell (Figure 1, top): S1, S2 -(10 Mbps, 1 ms)- R1 -(5 Mbps, 10 ms)- R2
/// -(10 Mbps, 1 ms)- D1, D2; DropTail of 30 packets.
fn dumbbell(duration: &str, primo: Value) -> Value {
    let link = |a: &str, b: &str, rate: &str, delay: &str| json!({"between": [a, b], "rate": rate, "delay": delay, "queue": "30p"});
    let flow = |name: &str, from: &str, to: &str| json!({"name": name, "protocol": "primo", "from": from, "to": to, "primo": primo});
    json!({
        "run": {"duration": duration, "seed": 3, "warmup": "5s"},
        "links": [
            link("S1", "R1", "10Mbps", "1ms"), link("S2", "R1", "10Mbps", "1ms"),
            link("R1", "R2", "5Mbps", "10ms"),
            link("R2", "D1", "10Mbps", "1ms"), link("R2", "D2", "10Mbps", "1ms"),
        ],
        "flows": [flow("f1", "S1", "D1"), flow("f2", "S2", "D2")],
        "output": {"interval": "1s", "series": ["rate", "sent_rate", "queue"]},
    })
}

#[test]
fn the_receivers_clock_offset_changes_nothing() {
    let base = run_spec(&spec(dumbbell("20s", json!({}))));
    let shifted = run_spec(&spec(dumbbell(
        "20s",
        json!({"receiver_clock_offset": "3600s"}),
    )));
    assert_eq!(base.summary.run.events, shifted.summary.run.events);
    for f in ["f1", "f2"] {
        let (a, b) = (&base.summary.flows[f], &shifted.summary.flows[f]);
        assert_eq!(a.sent_packets, b.sent_packets, "{f}");
        assert_eq!(a.goodput_bps.to_bits(), b.goodput_bps.to_bits(), "{f}");
    }
    assert_eq!(base.trace.value, shifted.trace.value);
}

#[test]
fn two_flows_fill_the_bottleneck_without_loss_and_with_a_short_queue() {
    let out = run_spec(&spec(dumbbell("30s", json!({}))));
    let link = &out.summary.links["R1->R2"];
    // Preventive: the queue stays far below its 30 packets and nothing is dropped, while
    // the link is kept busy.
    assert!(link.utilization > 0.97, "{link:?}");
    assert_eq!(link.drops, 0);
    assert!(link.mean_queue_packets < 6.0, "{link:?}");
    let mut sent = 0;
    for f in ["f1", "f2"] {
        let s = &out.summary.flows[f];
        assert_eq!(s.lost_packets, 0);
        assert_eq!(s.timeouts, 0);
        sent += s.sent_packets;
    }
    assert!(sent > 0);
}

#[test]
fn bad_primo_constants_are_refused_with_their_path() {
    let with = |primo: Value| spec_error(dumbbell("10s", primo));
    for (key, value) in [
        ("th_mod", json!(0.1)),
        ("f_str", json!(0.0)),
        ("f_rel", json!(0.5)),
        ("w1", json!(1.5)),
        ("w2", json!(1.0)),
        ("tau", json!(-1.0)),
        ("rcv_samples", json!(0)),
    ] {
        let e = with(json!({ key: value }));
        assert!(e.contains(&format!("flows[0].primo.{key}")), "{key}: {e}");
    }
    let e = with(json!({"gain": 1}));
    assert!(e.contains("gain"), "{e}");
    let mut s = dumbbell("10s", json!({}));
    s["flows"][0]["protocol"] = json!("vegas");
    let e = spec_error(s);
    assert!(e.contains("flows[0].primo"), "{e}");
    let mut s = dumbbell("10s", json!({}));
    s["flows"][0]["initial_rate"] = json!("1Mbps");
    let e = spec_error(s);
    assert!(e.contains("flows[0].initial_rate"), "{e}");
}
