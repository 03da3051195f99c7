//! NewReno in whole scenarios, against independent references: full utilisation with a
//! one-BDP buffer, the Mathis et al. throughput formula, fairness (Jain's index), RTT bias,
//! and the RFC 6582 / RFC 6298 recovery behaviour read off the cwnd trace.

use crate::common;

use common::{run_spec, spec};
use serde_json::{json, Value};

/// s -- r1 -- r2 -- d with a bottleneck r1-r2.
fn single_flow(bottleneck: &str, delay: &str, queue: &str, duration: &str, warmup: &str) -> Value {
    json!({
        "run": {"duration": duration, "warmup": warmup},
        "links": [
            {"between": ["s", "r1"], "rate": "1Gbps", "delay": "1ms", "queue": "10000p"},
            {"between": ["r1", "r2"], "rate": bottleneck, "delay": delay, "queue": queue},
            {"between": ["r2", "d"], "rate": "1Gbps", "delay": "1ms", "queue": "10000p"}
        ],
        "flows": [{"name": "tcp", "protocol": "newreno", "from": "s", "to": "d"}]
    })
}

#[test]
fn one_flow_fills_a_link_with_a_bdp_buffer() {
    // RTT = 2 * (1 + 20 + 1) ms = 44 ms; BDP at 10 Mbps = 55 000 B = 55 packets.
    let out = run_spec(&spec(single_flow("10Mbps", "20ms", "55p", "60s", "10s")));
    let u = out.summary.links["r1->r2"].utilization;
    assert!(u >= 0.97, "utilisation {u}");
}

/// Goodput over the Mathis et al. prediction MSS/RTT * sqrt(3 / (2 b p)), where b is the
/// number of segments per ACK (2 with delayed ACKs).
fn mathis_ratio(p: f64, delayed_ack: bool, seed: u64) -> f64 {
    // Loss on the bottleneck, in each direction (ACKs are lost too); the path has capacity
    // to spare, so the RTT stays at its propagation value.
    let mut s = single_flow("100Mbps", "48ms", "10000p", "300s", "20s");
    s["run"]["seed"] = json!(seed);
    s["links"][1]["loss"] = json!(p);
    s["flows"][0]["delayed_ack"] = json!(delayed_ack);
    let out = run_spec(&spec(s));
    let goodput = out.summary.flows["tcp"].goodput_bps;
    let rtt = 2.0 * 0.050;
    let mss_bits = 960.0 * 8.0;
    let b = if delayed_ack { 2.0 } else { 1.0 };
    let mathis = mss_bits / rtt * (3.0 / (2.0 * b * p)).sqrt();
    goodput / mathis
}

#[test]
fn goodput_under_random_loss_follows_mathis() {
    for delayed_ack in [false, true] {
        for p in [0.005, 0.01] {
            let ratio = mathis_ratio(p, delayed_ack, 11);
            assert!(
                (ratio - 1.0).abs() <= 0.25,
                "p = {p}, delayed ACKs {delayed_ack}: goodput / Mathis = {ratio}"
            );
        }
    }
}

fn two_flows(delay_b: &str) -> Value {
    json!({
        "run": {"duration": "100s", "warmup": "20s"},
        "links": [
            {"between": ["a", "r1"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"},
            {"between": ["b", "r1"], "rate": "100Mbps", "delay": delay_b, "queue": "1000p"},
            {"between": ["r1", "r2"], "rate": "10Mbps", "delay": "10ms", "queue": "50p"},
            {"between": ["r2", "d"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"}
        ],
        "flows": [
            {"name": "fa", "protocol": "newreno", "from": "a", "to": "d"},
            {"name": "fb", "protocol": "newreno", "from": "b", "to": "d", "start": "0.5s"}
        ]
    })
}

#[test]
fn two_equal_rtt_flows_share_fairly() {
    let out = run_spec(&spec(two_flows("1ms")));
    let jain = out.summary.fairness.jain.expect("two flows");
    assert!(jain >= 0.95, "Jain's index {jain}");
    assert!(out.summary.links["r1->r2"].utilization > 0.9);
}

#[test]
fn shorter_rtt_flow_gets_more() {
    // RTT of fa = 2 * 12 ms = 24 ms; fb with a 25 ms access link: 2 * 36 ms = 72 ms (1:3).
    // Each flow's round trip is its propagation RTT plus the shared bottleneck's mean
    // queueing delay (1000 B at 10 Mbit/s: 0.8 ms a packet). The Mathis et al. model
    // (rate = MSS / RTT * sqrt(3 / (2 p))) gives the ratio from each flow's own loss rate:
    // (RTT_b / RTT_a) sqrt(p_b / p_a). It must also lie between the RTT ratio (equal loss
    // rates) and its square (synchronised losses, Lakshman and Madhow 1997).
    let out = run_spec(&spec(two_flows("25ms")));
    let (fa, fb) = (&out.summary.flows["fa"], &out.summary.flows["fb"]);
    let ratio = fa.goodput_bps / fb.goodput_bps;
    let queue_s = out.summary.links["r1->r2"].mean_queue_packets * 0.0008;
    let rtt_ratio = (0.072 + queue_s) / (0.024 + queue_s);
    let loss =
        |f: &ccsim_scenario::summary::FlowSummary| f.lost_packets as f64 / f.sent_packets as f64;
    let mathis = rtt_ratio * (loss(fb) / loss(fa)).sqrt();
    assert!(
        (ratio / mathis - 1.0).abs() < 0.15,
        "short-RTT over long-RTT goodput {ratio:.2}, Mathis model {mathis:.2}"
    );
    assert!(
        rtt_ratio * 0.95 < ratio && ratio < rtt_ratio * rtt_ratio * 1.05,
        "{ratio:.2} outside [{rtt_ratio:.2}, {:.2}]",
        rtt_ratio * rtt_ratio
    );
}

fn drop_run(seqs: Vec<u64>) -> ccsim_scenario::RunOutcome {
    let mut s = single_flow("10Mbps", "20ms", "200p", "10s", "0s");
    s["drops"] = json!([{"flow": "tcp", "link": "r1->r2", "seqs": seqs}]);
    s["output"] = json!({"series": [], "trace": ["cwnd"]});
    run_spec(&spec(s))
}

fn cwnd_trace(out: &ccsim_scenario::RunOutcome) -> Vec<(u64, f64)> {
    let t = &out.trace;
    (0..t.len()).map(|i| (t.time_ns[i], t.value[i])).collect()
}

#[test]
fn one_lost_segment_is_repaired_by_fast_retransmit() {
    let out = drop_run(vec![100]);
    let f = &out.summary.flows["tcp"];
    assert_eq!(f.lost_packets, 1);
    assert_eq!(f.retransmitted_packets, 1);
    assert_eq!(f.timeouts, 0);
    // The window was halved once (fast recovery), never collapsed to one segment.
    let trace = cwnd_trace(&out);
    assert!(
        trace.iter().skip(1).all(|&(_, w)| w > 960.0),
        "cwnd fell to 1 MSS"
    );
}

#[test]
fn a_lost_window_times_out_and_slow_starts() {
    let out = drop_run((100..400).collect());
    let f = &out.summary.flows["tcp"];
    assert!(f.timeouts >= 1, "{f:?}");
    let trace = cwnd_trace(&out);
    let collapse = trace
        .iter()
        .position(|&(_, w)| w == 960.0)
        .expect("cwnd falls to one MSS after the timeout");
    // Slow start afterwards: the next values grow by one MSS per ACK: 2, 3, 4 MSS.
    let after: Vec<f64> = trace[collapse + 1..collapse + 4]
        .iter()
        .map(|&(_, w)| w)
        .collect();
    assert_eq!(after, vec![2.0 * 960.0, 3.0 * 960.0, 4.0 * 960.0]);
}

/// Utilisation of a link fed by one Reno-style flow whose window saws linearly between
/// (P + B) / 2 and P + B packets (P = bandwidth-delay product, B = buffer): while W < P the
/// link carries W packets per round trip of the empty-queue RTT, above P it is full and the
/// round trip stretches to W / C. Integrating over one sawtooth:
/// U = [(Wmax^2 - Wmin^2) / 2] / [P (P - Wmin) + (Wmax^2 - P^2) / 2]  (3/4 when B = 0).
fn sawtooth_utilisation(p: f64, b: f64) -> f64 {
    let (w_min, w_max) = ((p + b) / 2.0, p + b);
    ((w_max * w_max - w_min * w_min) / 2.0) / (p * (p - w_min) + (w_max * w_max - p * p) / 2.0)
}

#[test]
fn utilisation_with_a_small_buffer_follows_the_sawtooth_model() {
    // 10 Mbps of 1000 B packets = 1250 packets/s; RTT = 2 * 42 ms + serialisation 0.96 ms.
    let p: f64 = 1250.0 * (0.084 + 0.0008 + 2.0 * 0.000_008 + 2.0 * 0.000_000_32);
    for fraction in [0.25_f64, 0.5] {
        let b = (fraction * p).round();
        let mut s = single_flow("10Mbps", "40ms", &format!("{b}p"), "400s", "50s");
        s["output"] = json!({"series": []});
        let out = run_spec(&spec(s));
        let measured = out.summary.links["r1->r2"].utilization;
        // The packet in service is a buffer place too.
        let model = sawtooth_utilisation(p, b + 1.0);
        assert!(
            (measured - model).abs() < 0.02,
            "B = {b}: utilisation {measured}, model {model}"
        );
        assert_eq!(out.summary.flows["tcp"].timeouts, 0);
    }
}
