//! Scenario tests against closed forms: serialisation and propagation delay, link rate,
//! drop fractions, the exponential distribution. Every run also checks conservation.

use crate::common;

use ccsim_core::SimTime;
use ccsim_protocols::AnyAgent;
use ccsim_scenario::RunOptions;
use common::{run_spec, run_with, spec};
use serde_json::json;

#[test]
fn one_packet_arrives_after_serialisation_plus_propagation() {
    let s = spec(json!({
        "run": {"duration": "1s"},
        "links": [
            {"between": ["a", "b"], "rate": "10Mbps", "delay": "1ms"},
            {"between": ["b", "c"], "rate": "1Gbps", "delay": "5ms"},
            {"between": ["c", "d"], "rate": "2Mbps", "delay": "3ms"}
        ],
        "flows": [{"name": "one", "protocol": "cbr", "from": "a", "to": "d", "rate": "1kbps", "stop": "1ns"}]
    }));
    let out = run_with(
        &s,
        RunOptions {
            record_arrivals: 10,
            ..RunOptions::default()
        },
    );
    let AnyAgent::UdpSink(sink) = &out.built.sim.agents()[1] else {
        panic!("agent 1 is the sink")
    };
    // 1000 B: 800 us at 10 Mbps + 8 us at 1 Gbps + 4000 us at 2 Mbps, plus 9 ms propagation.
    assert_eq!(
        sink.arrivals(),
        &[SimTime(800_000 + 8_000 + 4_000_000 + 9_000_000)]
    );
}

fn cbr_over(link_rate: &str, cbr_rate: &str) -> ccsim_scenario::RunOutcome {
    run_spec(&spec(json!({
        "run": {"duration": "20s"},
        "links": [
            {"between": ["s", "r"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"},
            {"between": ["r", "d"], "rate": link_rate, "delay": "10ms", "queue": "50p"}
        ],
        "flows": [{"name": "cbr", "protocol": "cbr", "from": "s", "to": "d", "rate": cbr_rate}]
    })))
}

#[test]
fn cbr_below_capacity_is_delivered_whole() {
    let out = cbr_over("10Mbps", "8Mbps");
    let f = &out.summary.flows["cbr"];
    let sent_rate = f.sent_packets as f64;
    let received_rate = f.received_packets as f64;
    assert!((received_rate / sent_rate - 1.0).abs() < 0.005, "{f:?}");
    assert_eq!(f.lost_packets, 0);
    assert_eq!(out.summary.links["r->d"].drops, 0);
    // 8 Mbps of 1000-byte packets for 20 s is 20 000 packets.
    assert!((f.sent_packets as i64 - 20_000).abs() <= 1, "{f:?}");
}

#[test]
fn cbr_above_capacity_gets_the_link_rate_and_loses_one_third() {
    let out = cbr_over("10Mbps", "15Mbps");
    let f = &out.summary.flows["cbr"];
    let received_bps = f.received_packets as f64 * 8000.0 / 20.0;
    assert!(
        (received_bps / 10e6 - 1.0).abs() < 0.01,
        "received {received_bps} bit/s"
    );
    let drop_fraction = f.lost_packets as f64 / f.sent_packets as f64;
    assert!(
        (drop_fraction - 1.0 / 3.0).abs() < 0.02,
        "drop fraction {drop_fraction}"
    );
    assert!(out.summary.links["r->d"].utilization > 0.99);
}

#[test]
fn poisson_gaps_are_exponential() {
    // 100 000 packets at a mean 1 ms gap over a fast, idle path: arrivals keep the gaps.
    let s = spec(json!({
        "run": {"duration": "110s", "seed": 3},
        "links": [{"between": ["s", "d"], "rate": "10Gbps", "delay": "1ms", "queue": "10000p"}],
        "flows": [{"name": "p", "protocol": "poisson", "from": "s", "to": "d", "rate": "8Mbps"}]
    }));
    let out = run_with(
        &s,
        RunOptions {
            record_arrivals: 100_001,
            ..RunOptions::default()
        },
    );
    let AnyAgent::UdpSink(sink) = &out.built.sim.agents()[1] else {
        panic!("agent 1 is the sink")
    };
    let t = sink.arrivals();
    assert_eq!(t.len(), 100_001, "the run is long enough for 100 000 gaps");
    let gaps: Vec<f64> = t.windows(2).map(|w| (w[1].0 - w[0].0) as f64).collect();
    let n = gaps.len() as f64;
    let mean = gaps.iter().sum::<f64>() / n;
    let var = gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let cv = var.sqrt() / mean;
    assert!((mean / 1e6 - 1.0).abs() < 0.02, "mean gap {mean} ns");
    assert!((cv - 1.0).abs() < 0.03, "coefficient of variation {cv}");
}

#[test]
fn delay_series_is_serialisation_plus_propagation_on_an_idle_path() {
    let s = spec(json!({
        "run": {"duration": "5s"},
        "links": [{"between": ["a", "b"], "rate": "10Mbps", "delay": "10ms"}],
        "flows": [{"name": "c", "protocol": "cbr", "from": "a", "to": "b", "rate": "1Mbps"}],
        "output": {"series": ["delay"]}
    }));
    let out = run_spec(&s);
    // 1000 B at 10 Mbps = 0.8 ms, plus 10 ms; no queueing at 10% load.
    let expected = 0.0108;
    assert_eq!(out.trace.len(), 5);
    for &v in &out.trace.value {
        assert!((v - expected).abs() < 1e-12, "delay sample {v}");
    }
    let mean = out.summary.flows["c"]
        .mean_delay_s
        .expect("packets were delivered");
    assert!((mean - expected).abs() < 1e-12, "mean delay {mean}");
}

#[test]
fn byte_limited_droptail_never_holds_more_than_its_limit() {
    // 5000 B of 1000-byte packets: at most 5 wait; at 150% load a third is dropped.
    let s = spec(json!({
        "run": {"duration": "20s"},
        "links": [
            {"between": ["s", "r"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"},
            {"between": ["r", "d"], "rate": "10Mbps", "delay": "10ms", "queue": "5000B"}
        ],
        "flows": [{"name": "cbr", "protocol": "cbr", "from": "s", "to": "d", "rate": "15Mbps"}],
        "output": {"interval": "1ms", "series": ["queue"]}
    }));
    let out = run_spec(&s);
    let t = &out.trace;
    let names = ccsim_engine::TraceBuf::var_names();
    let qbytes = names.iter().position(|n| *n == "queue_bytes").unwrap() as u16;
    let max_bytes = (0..t.len())
        .filter(|&i| t.var[i] == qbytes)
        .map(|i| t.value[i])
        .fold(0.0, f64::max);
    assert_eq!(
        max_bytes, 5000.0,
        "the queue fills to exactly its byte limit"
    );
    let f = &out.summary.flows["cbr"];
    let drop_fraction = f.lost_packets as f64 / f.sent_packets as f64;
    assert!(
        (drop_fraction - 1.0 / 3.0).abs() < 0.02,
        "drop fraction {drop_fraction}"
    );
}

#[test]
fn bernoulli_loss_rate_matches_its_probability() {
    // 100 000 packets at p = 0.05: the count of losses is binomial, sd = sqrt(n p (1-p)) = 69.
    let s = spec(json!({
        "run": {"duration": "100s", "seed": 5},
        "links": [{"between": ["s", "d"], "rate": "100Mbps", "delay": "1ms", "loss": 0.05}],
        "flows": [{"name": "cbr", "protocol": "cbr", "from": "s", "to": "d", "rate": "8Mbps"}],
        "output": {"series": []}
    }));
    let out = run_spec(&s);
    let f = &out.summary.flows["cbr"];
    let n = f.sent_packets as f64;
    let expected = 0.05 * n;
    let sd = (n * 0.05 * 0.95).sqrt();
    assert!(
        (f.lost_packets as f64 - expected).abs() < 4.0 * sd,
        "{} losses of {n}",
        f.lost_packets
    );
    assert_eq!(
        out.summary.links["s->d"].drops_by_reason["random_loss"],
        f.lost_packets
    );
}
