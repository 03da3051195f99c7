//! Rate-based flows (TCP-Friend, CBRAA, TFRC, Primo) in whole scenarios: the receiver reports count
//! exactly the losses a deterministic drop pattern injects, CBRAA climbs as its Figure 1 and
//! equation (2) predict on a loss-free path, and every protocol conserves packets and is
//! deterministic.

use crate::common;

use ccsim_protocols::AnyAgent;
use common::{run_spec, spec, spec_error};
use serde_json::{json, Value};

/// s -(10 Mbps, 5 ms)- a -(bottleneck)- b -(10 Mbps, 5 ms)- d.
fn line(protocol: &str, bottleneck: &str, loss: f64, duration: &str) -> Value {
    json!({
        "run": {"duration": duration, "seed": 7},
        "links": [
            {"between": ["s", "a"], "rate": "10Mbps", "delay": "5ms"},
            {"between": ["a", "b"], "rate": bottleneck, "delay": "40ms", "queue": "20000B", "loss": loss},
            {"between": ["b", "d"], "rate": "10Mbps", "delay": "5ms"},
        ],
        "flows": [{"name": "f", "protocol": protocol, "from": "s", "to": "d"}],
        "output": {"interval": "1s", "series": ["rate"]},
    })
}

#[test]
fn reports_carry_exactly_the_injected_losses() {
    for protocol in ["tcp-friend", "cbraa"] {
        let mut s = line(protocol, "4Mbps", 0.0, "30s");
        s["flows"][0]["report_interval"] = json!("1s");
        // Capped at half the bottleneck, so the queue never overflows: only the rule drops.
        s["flows"][0]["max_rate"] = json!("2Mbps");
        let dropped: Vec<u64> = vec![3, 4, 5, 40, 41, 77, 120, 200, 201, 202, 203, 260];
        s["drops"] = json!([{"flow": "f", "link": "a->b", "seqs": dropped}]);
        let mut out = run_spec(&spec(s));
        assert_eq!(out.summary.flows["f"].lost_packets, dropped.len() as u64);
        let sender = out.built.flows[0].1;
        let AnyAgent::ReportSender(tx) = out.built.sim.agent_mut(sender) else {
            panic!("not a report-driven sender");
        };
        let (expected, lost) = tx.reported();
        assert_eq!(lost, dropped.len() as u64, "{protocol}");
        // Every packet decided by the last report was counted once: the reports account
        // for at most the packets sent, and for all but the last second's.
        let sent = out.summary.flows["f"].sent_packets;
        assert!(
            expected <= sent && expected + sent / 10 >= sent,
            "{protocol}: {expected} of {sent}"
        );
    }
}

#[test]
fn cbraa_climbs_from_its_initial_rate_as_figure_1_predicts() {
    // A loss-free 10 Mbps path: every report takes the increase branch with Loss_obs = 0,
    // so Rate <- (Rate + 1.27 / (srtt sqrt(beta Loss_th))) / 2, from 5 packets/s. The
    // closed-form iteration, with srtt = 100 ms plus serialisation, gives the rate after
    // each 5 s report; the measured send rate follows it within 3 %.
    let mut s = line("cbraa", "10Mbps", 0.0, "31s");
    s["output"] = json!({"interval": "1s", "series": ["send_rate"]});
    let out = run_spec(&spec(s));
    let srtt = 0.1 + 1000.0 * 8.0 * (2.0 / 10e6 + 1.0 / 10e6) + 3.0 * 60.0 * 8.0 / 10e6;
    let mut rate: f64 = 5.0;
    let mut predicted = Vec::new();
    for _ in 0..5 {
        let cycle = srtt * (0.62 * rate * srtt + 0.96);
        let loss_th = 1.0 / (rate * cycle);
        rate = 0.5 * rate + 0.5 * 1.27 / (srtt * (0.5 * loss_th).sqrt());
        predicted.push(rate * 1000.0 * 8.0);
    }
    // send_rate samples at 1 s, 2 s, ...; the k-th report arrives just after 5k s plus
    // one-way delays, so the sample at 5k + 2 s shows the rate it set.
    let t = &out.trace;
    let var = out
        .var_names
        .iter()
        .position(|n| *n == "send_rate")
        .expect("send_rate");
    let samples: Vec<(f64, f64)> = (0..t.len())
        .filter(|&i| t.var[i] as usize == var)
        .map(|i| (t.time_ns[i] as f64 / 1e9, t.value[i]))
        .collect();
    for (k, want) in predicted.iter().enumerate() {
        let at = 5.0 * (k + 1) as f64 + 2.0;
        let got = samples
            .iter()
            .find(|(time, _)| (time - at).abs() < 1e-6)
            .map(|&(_, v)| v)
            .unwrap_or_else(|| panic!("no sample at {at}: {samples:?}"));
        assert!(
            (got / want - 1.0).abs() < 0.03,
            "report {}: {got} vs {want}",
            k + 1
        );
    }
}

#[test]
fn rate_based_flows_conserve_packets_and_are_deterministic() {
    for protocol in ["tfrc", "tcp-friend", "cbraa", "primo"] {
        let s = spec(line(protocol, "4Mbps", 0.01, "60s"));
        let a = run_spec(&s);
        let b = run_spec(&s);
        let (fa, fb) = (&a.summary.flows["f"], &b.summary.flows["f"]);
        assert!(fa.goodput_bps > 1e5, "{protocol}: {fa:?}");
        assert!(fa.lost_packets > 0, "{protocol}");
        assert_eq!(
            fa.goodput_bps.to_bits(),
            fb.goodput_bps.to_bits(),
            "{protocol}"
        );
        assert_eq!(a.summary.run.events, b.summary.run.events, "{protocol}");
    }
}

#[test]
fn bad_rate_keys_are_refused_with_their_path() {
    let with = |protocol: &str, key: &str, value: Value| {
        let mut s = line(protocol, "4Mbps", 0.0, "10s");
        s["flows"][0][key] = value;
        spec_error(s)
    };
    let e = with("cbraa", "rate", json!("1Mbps"));
    assert!(e.contains("flows[0].rate") && e.contains("min_rate"), "{e}");
    let e = with("cbraa", "size", json!("1MB"));
    assert!(e.contains("flows[0].size"), "{e}");
    let e = with("tfrc", "report_interval", json!("5s"));
    assert!(e.contains("flows[0].report_interval"), "{e}");
    let e = with("reno", "report_interval", json!("5s"));
    assert!(
        e.contains("flows[0].report_interval") && e.contains("rate-based"),
        "{e}"
    );
    let mut s = line("cbr", "4Mbps", 0.0, "10s");
    s["flows"][0]["rate"] = json!("1Mbps");
    s["flows"][0]["cbraa"] = json!({"beta": 0.5});
    let e = spec_error(s);
    assert!(e.contains("flows[0].cbraa"), "{e}");
    let e = with("tcp-friend", "cbraa", json!({"beta": 0.5}));
    assert!(
        e.contains("flows[0].cbraa") && e.contains("protocol = \"cbraa\""),
        "{e}"
    );
    let e = with("cbraa", "cbraa", json!({"beta": 1.5}));
    assert!(e.contains("flows[0].cbraa.beta"), "{e}");
    let e = with("cbraa", "cbraa", json!({"a": 0.5}));
    assert!(e.contains("flows[0].cbraa.a"), "{e}");
    let e = with("cbraa", "report_interval", json!("0s"));
    assert!(e.contains("flows[0].report_interval"), "{e}");
    let e = with("cbraa", "min_rate", json!("0bps"));
    assert!(e.contains("flows[0].min_rate"), "{e}");
    let e = with("cbraa", "ecn", json!(true));
    assert!(e.contains("flows[0].ecn") && e.contains("TCP"), "{e}");
    let mut s = line("cbraa", "4Mbps", 0.0, "10s");
    s["flows"][0]["min_rate"] = json!("2Mbps");
    s["flows"][0]["max_rate"] = json!("1Mbps");
    let e = spec_error(s);
    assert!(e.contains("flows[0].max_rate"), "{e}");
    let e = with("cbraa", "cbraa", json!({"gamma": 1}));
    assert!(e.contains("gamma"), "{e}");
}
