//! DCTCP over a step-marking queue in whole scenarios, against the fluid model of Alizadeh et
//! al. ("Data Center TCP", SIGCOMM 2010, section 3.3, the analysis RFC 8257 cites): N
//! synchronised flows over a link of C packets per second with round trip RTT and marking
//! threshold K keep the queue between Q_max = K + N and Q_max - A, A = (1/2) sqrt(2 N (C RTT +
//! K)), and the link full.

mod common;

use common::{run_spec, spec};
use serde_json::json;

/// `n` DCTCP flows through a 1 Gbps bottleneck with step marking at `k` packets; round-trip
/// propagation 100 us; 1500 B packets.
fn dumbbell(n: usize, k: u64, queue: serde_json::Value) -> serde_json::Value {
    let mut links =
        vec![json!({"between": ["r1", "r2"], "rate": "1Gbps", "delay": "20us", "queue": queue})];
    let mut flows = vec![];
    for i in 0..n {
        links.push(json!({"between": [format!("s{i}"), "r1"], "rate": "10Gbps", "delay": "10us", "queue": "10000p"}));
        links.push(json!({"between": ["r2", format!("d{i}")], "rate": "10Gbps", "delay": "20us", "queue": "10000p"}));
        flows.push(json!({"name": format!("f{i}"), "protocol": "dctcp", "from": format!("s{i}"),
                          "to": format!("d{i}"), "packet_size": "1500B", "start": format!("{}us", 10 * i)}));
    }
    let _ = k;
    json!({"run": {"duration": "2s", "seed": 1, "warmup": "0.5s"}, "links": links, "flows": flows,
           "output": {"series": []}})
}

#[test]
fn dctcp_keeps_the_queue_in_the_fluid_models_band_and_the_link_full() {
    // C = 1 Gbps / 1500 B = 83 333 packets/s; RTT = 2 x (10 + 20 + 20) us = 100 us plus
    // serialisation: C RTT = 8.3 packets. N = 10, K = 20: Q_max = 30, A = (1/2) sqrt(2 x 10 x
    // 28.3) = 11.9, Q_min = 18.1. The mean queue lies between them; the link never idles.
    let (n, k) = (10, 20);
    let out = run_spec(&spec(dumbbell(
        n,
        k,
        json!({"kind": "step", "limit": "1000p", "threshold": k}),
    )));
    let link = &out.summary.links["r1->r2"];
    let c_rtt = 1e9 / 8.0 / 1500.0 * 100e-6;
    let q_max = (k + n as u64) as f64;
    let amplitude = 0.5 * (2.0 * n as f64 * (c_rtt + k as f64)).sqrt();
    let q_min = q_max - amplitude;
    assert!(link.utilization > 0.99, "{link:?}");
    assert_eq!(link.drops, 0, "{link:?}");
    assert!(link.ecn_marks > 0, "{link:?}");
    let mean = link.mean_queue_packets;
    assert!(
        (q_min - 2.0..=q_max + 2.0).contains(&mean),
        "mean queue {mean:.1} packets, fluid model [{q_min:.1}, {q_max:.1}]"
    );
    // Jain's index of the ten flows near 1 (the paper's Figure 16 shows fair sharing).
    assert!(out.summary.fairness.jain.expect("ten flows") > 0.95);
}

#[test]
fn dctcp_halves_on_a_loss_where_nothing_marks() {
    // RFC 8257 section 3.5: with no ECN marks alpha decays toward 0, and a loss must still
    // halve the window (ns-3.44's DCTCP does not). Over a DropTail queue of 30 packets two
    // DCTCP flows then fill the link and lose packets, as Reno would.
    let out = run_spec(&spec(dumbbell(2, 0, json!("30p"))));
    let link = &out.summary.links["r1->r2"];
    assert!(link.drops > 0 && link.ecn_marks == 0, "{link:?}");
    assert!(link.utilization > 0.9, "{link:?}");
    for f in ["f0", "f1"] {
        let flow = &out.summary.flows[f];
        // Without the halving the window would grow until every round trip overflowed the
        // queue: losses would be a large share of what is sent.
        assert!(
            (flow.lost_packets as f64) < 0.01 * flow.sent_packets as f64,
            "{f}: {flow:?}"
        );
    }
}
