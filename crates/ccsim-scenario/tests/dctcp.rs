//! DCTCP over a step-marking queue in whole scenarios, against the fluid model of Alizadeh et
//! al. ("Data Center TCP", SIGCOMM 2010, section 3.3, the analysis RFC 8257 cites): N
//! synchronised flows over a link of C packets per second with round trip RTT and marking
//! threshold K keep the queue between Q_max = K + N and Q_max - A, A = (1/2) sqrt(2 N (C RTT +
//! K)), and the link full; the queue cycles in T_C = (1/2) sqrt(2 (C RTT + K) / N) round trips
//! (checked at 10 Gbps, where the paper sets K = 65 and its guideline K > C RTT / 7).

use crate::common;

use ccsim_scenario::RunOutcome;
use common::{run_spec, spec};
use serde_json::json;

/// `n` DCTCP flows through a `rate` bottleneck with queue `queue`: 10 Gbps access links,
/// round-trip propagation 100 us, 1500 B packets, starts 10 us apart; 2 s, 0.5 s of warm-up.
fn dumbbell(n: usize, rate: &str, queue: serde_json::Value) -> serde_json::Value {
    let mut links =
        vec![json!({"between": ["r1", "r2"], "rate": rate, "delay": "20us", "queue": queue})];
    let mut flows = vec![];
    for i in 0..n {
        links.push(json!({"between": [format!("s{i}"), "r1"], "rate": "10Gbps", "delay": "10us", "queue": "10000p"}));
        links.push(json!({"between": ["r2", format!("d{i}")], "rate": "10Gbps", "delay": "20us", "queue": "10000p"}));
        flows.push(json!({"name": format!("f{i}"), "protocol": "dctcp", "from": format!("s{i}"),
                          "to": format!("d{i}"), "packet_size": "1500B", "start": format!("{}us", 10 * i)}));
    }
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
        "1Gbps",
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
    let out = run_spec(&spec(dumbbell(2, "1Gbps", json!("30p"))));
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

/// `n` DCTCP flows over a 10 Gbps bottleneck with step marking at `k` packets (the paper's
/// section 3.3 set-up): 10 Gbps access links, round-trip propagation 100 us, 1500 B packets;
/// 0.3 s with the first 0.1 s left out, the bottleneck queue sampled every 5 us.
fn ten_gig(n: usize, k: u64) -> RunOutcome {
    let mut s = dumbbell(
        n,
        "10Gbps",
        json!({"kind": "step", "limit": "1000p", "threshold": k}),
    );
    s["run"] = json!({"duration": "0.3s", "seed": 1, "warmup": "0.1s"});
    s["output"] = json!({"series": ["queue"], "interval": "5us"});
    run_spec(&spec(s))
}

/// The bottleneck queue after the warm-up: (time s, packets).
fn queue_series(out: &RunOutcome) -> Vec<(f64, f64)> {
    let t = &out.trace;
    let e = out.entity_names.iter().position(|n| n == "r1->r2").unwrap() as u32;
    let names = ccsim_engine::TraceBuf::var_names();
    let q = names.iter().position(|n| *n == "queue").unwrap() as u16;
    (0..t.len())
        .filter(|&i| t.entity[i] == e && t.var[i] == q && t.time_ns[i] >= 100_000_000)
        .map(|i| (t.time_ns[i] as f64 / 1e9, t.value[i]))
        .collect()
}

/// The queue's oscillation: (mean cycle time s, mean peak-to-trough amplitude, packets); a
/// cycle starts each time the queue rises above its mean + 3 packets after having been below
/// the mean - 3 (the hysteresis keeps packet-scale jitter from counting as cycles).
fn oscillation(q: &[(f64, f64)]) -> (f64, f64) {
    let mean = q.iter().map(|p| p.1).sum::<f64>() / q.len() as f64;
    let mut starts = vec![];
    let mut low = false;
    for (i, &(_, v)) in q.iter().enumerate() {
        if v < mean - 3.0 {
            low = true;
        } else if v > mean + 3.0 && low {
            low = false;
            starts.push(i);
        }
    }
    let amplitudes: Vec<f64> = starts
        .windows(2)
        .map(|w| {
            let cycle = &q[w[0]..w[1]];
            let max = cycle.iter().map(|p| p.1).fold(f64::MIN, f64::max);
            let min = cycle.iter().map(|p| p.1).fold(f64::MAX, f64::min);
            max - min
        })
        .collect();
    let period = (q[*starts.last().unwrap()].0 - q[starts[0]].0) / (starts.len() - 1) as f64;
    (
        period,
        amplitudes.iter().sum::<f64>() / amplitudes.len() as f64,
    )
}

/// The fluid model at 10 Gbps, 1500 B, RTT 100 us: (Q_max, amplitude A, period T_C in
/// seconds at the round trip that the mean queue `mean_q` adds to).
fn model(n: usize, k: u64, mean_q: f64) -> (f64, f64, f64) {
    let c = 10e9 / 8.0 / 1500.0;
    let c_rtt = c * 100e-6;
    let n = n as f64;
    let k = k as f64;
    let a = 0.5 * (2.0 * n * (c_rtt + k)).sqrt();
    let t_c_rtts = 0.5 * (2.0 * (c_rtt + k) / n).sqrt();
    // Round trip: propagation, three serialisations of a 1500 B packet, the mean queue.
    let rtt = 100e-6 + 3.0 * 1.2e-6 + mean_q / c;
    (k + n, a, t_c_rtts * rtt)
}

fn check_against_the_fluid_model(n: usize) {
    let k = 65; // the paper's K for 10 Gbps, above its guideline C RTT / 7 = 11.9
    let out = ten_gig(n, k);
    let link = &out.summary.links["r1->r2"];
    assert!(link.utilization > 0.999, "{link:?}");
    assert_eq!(link.drops, 0, "{link:?}");
    let q = queue_series(&out);
    let peak = q.iter().map(|p| p.1).fold(0.0, f64::max);
    let (period, amplitude) = oscillation(&q);
    let (q_max, a, t_c) = model(n, k, link.mean_queue_packets);
    let measured = format!(
        "N = {n}: peak {peak} (Q_max {q_max}), amplitude {amplitude:.1} (A {a:.1}), period {:.0} us (T_C {:.0} us)",
        period * 1e6,
        t_c * 1e6
    );
    assert!((peak - q_max).abs() <= 3.0, "{measured}");
    assert!((amplitude / a - 1.0).abs() < 0.2, "{measured}");
    assert!((period / t_c - 1.0).abs() < 0.15, "{measured}");
}

#[test]
fn at_10_gbps_the_queue_oscillates_with_the_fluid_models_amplitude_and_period() {
    // Alizadeh et al. 2010 section 3.3 with N synchronised flows, C RTT = 83.3 packets, K = 65:
    // Q_max = K + N, A = (1/2) sqrt(2 N (C RTT + K)), T_C = (1/2) sqrt(2 (C RTT + K) / N) round
    // trips. Measured: N = 2, peak 69 (model 67), amplitude 11.5 (12.2), period 1067 us
    // (1086 us); N = 5, peak 72 (70), amplitude 16.2 (19.3), period 706 us (688 us); the link
    // stays full and nothing is dropped.
    check_against_the_fluid_model(2);
    check_against_the_fluid_model(5);
}

#[test]
#[should_panic(expected = "period")]
fn at_10_gbps_with_10_flows_the_cycle_is_longer_than_the_models() {
    // Known difference, measured: with N = 10 the peak (77 against K + N = 75) and the
    // amplitude (22.8 against 27.2) follow the model but a cycle lasts about 650 us against
    // T_C = 491 us: each flow reduces its window 1.38 times per queue cycle (N = 5: 1.03,
    // N = 20: 2.04; counted from the per-flow cwnd traces), where the analysis assumes all N
    // flows are marked exactly once per cycle; the queue stays above K longer than one round
    // trip, so some flows are marked in two successive windows.
    check_against_the_fluid_model(10);
}

#[test]
fn the_link_stays_full_with_k_at_the_papers_guideline_and_idles_below_it() {
    // Section 3.4: K > C RTT / 7 (11.9 packets here) keeps a 10 Gbps link full; with K = 1 the
    // queue empties in each cycle and the link idles (two flows).
    for (k, full) in [(12, true), (1, false)] {
        let out = ten_gig(2, k);
        let u = out.summary.links["r1->r2"].utilization;
        assert_eq!(u > 0.999, full, "K = {k}: utilisation {u}");
        if !full {
            assert!(u < 0.98, "K = {k}: utilisation {u}");
        }
    }
}
