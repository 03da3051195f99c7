//! TCP-M sessions end to end on the reconstructed topology of the paper's Figure 7 (Ghosh and
//! Varghese 1998, section 6): set-up, fusion along the tree, the R3-D4 bottleneck, a crash
//! detected by Figure 6's timer, and tear-down. Numbers come from the topology: link rates
//! and the paper's timers.

use crate::common;

use serde_json::{json, Value};

/// Figure 7, reconstructed (docs/experiments.md): S-R1-{D1, R2-R4-{D2, D3}, R3-{D4, D5}}, and
/// the alternate D4-R4.
fn figure7() -> Value {
    let l = |a: &str, b: &str, rate: &str, delay: &str| json!({"between": [a, b], "rate": rate, "delay": delay, "queue": "50p"});
    json!([
        l("S", "R1", "10Mbps", "2ms"),
        l("R1", "D1", "10Mbps", "5ms"),
        l("R1", "R2", "10Mbps", "5ms"),
        l("R2", "R4", "10Mbps", "5ms"),
        l("R4", "D2", "10Mbps", "5ms"),
        l("R4", "D3", "10Mbps", "5ms"),
        l("R1", "R3", "10Mbps", "5ms"),
        l("R3", "D4", "2Mbps", "10ms"),
        l("R3", "D5", "1.5Mbps", "10ms"),
        l("D4", "R4", "1Mbps", "20ms"),
    ])
}

fn session(extra: Value) -> Value {
    let mut s = json!({"name": "m", "source": "S", "receivers": ["D1", "D2", "D3", "D4", "D5"],
                       "protocol": "newreno"});
    for (k, v) in extra.as_object().unwrap() {
        s[k] = v.clone();
    }
    s
}

fn run(duration: &str, sessions: Vec<Value>, more: Value) -> ccsim_scenario::RunOutcome {
    let mut spec = json!({"run": {"duration": duration, "seed": 1}, "links": figure7(),
                          "tcpm": sessions, "output": {"series": [], "trace": ["seq"]}});
    for (k, v) in more.as_object().unwrap() {
        spec[k] = v.clone();
    }
    common::run_spec(&common::spec(spec))
}

fn summary(o: &ccsim_scenario::RunOutcome) -> Value {
    serde_json::to_value(&o.results.summary.tcpm["m"]).unwrap()
}

#[test]
fn a_finite_transfer_reaches_every_receiver_at_the_slowest_branch_rate() {
    // 500 kB to D1..D5: the tree's bottleneck is R3-D5 at 1.5 Mbit/s, so the transfer cannot
    // beat 1.5 Mbit/s of 1000-byte packets (1.44 Mbit/s of payload), and with a TCP it
    // should get most of it.
    let o = run("30s", vec![session(json!({"size": "500kB"}))], json!({}));
    let s = summary(&o);
    assert_eq!(s["completed"], json!(["D1", "D2", "D3", "D4", "D5"]));
    assert_eq!(s["failed"], json!([]));
    assert_eq!(s["acked_bytes"], json!(500_000));
    let rate = s["throughput_bps"].as_f64().unwrap();
    assert!((0.9e6..=1.44e6).contains(&rate), "{rate}");
    assert!(s["completion_s"].as_f64().unwrap() > s["data_done_s"].as_f64().unwrap());
    // Every receiver's data got through: each delivered 500 kB to its application.
    for (_, r) in &o.built.tcpm[0].receivers {
        let st = ccsim_core::Agent::stats(o.built.sim.agent(*r).unwrap());
        assert_eq!(st.app_bytes_delivered, 500_000);
    }
    // Fusion along the tree: R1 fuses D1, R2 (or R4) and R3; the source sees only R1.
    assert_eq!(s["fusion_nodes"]["S"], json!(1));
    assert_eq!(s["fusion_nodes"]["R1"], json!(3));
    assert_eq!(s["fusion_nodes"]["R3"], json!(2));
    assert_eq!(s["max_fusion_memory_words"], json!(12));
    // After FIN_ACK the fusion nodes release the session (section 4.4): no child is declared
    // dead when the receivers stop sending REVERSE_PATH.
    assert_eq!(s["deaths"], json!([]));
    // Fewer ACKs reach the source than the receivers send: fusion.
    let at_source = s["acks_at_source"].as_u64().unwrap();
    let from_receivers = s["acks_from_receivers"].as_u64().unwrap();
    assert!(
        at_source * 4 < from_receivers,
        "{at_source} vs {from_receivers}"
    );
}

#[test]
fn an_unending_transfer_runs_at_the_bottleneck_and_the_seq_trace_has_every_segment() {
    // Receivers D1..D4 only: R3-D4 (2 Mbit/s) is the bottleneck.
    let o = run(
        "10s",
        vec![session(json!({"receivers": ["D1", "D2", "D3", "D4"]}))],
        json!({}),
    );
    let s = summary(&o);
    let rate = s["throughput_bps"].as_f64().unwrap();
    // Payload rate ceiling 2 Mbit/s x 960/1000; slow start costs a little.
    assert!((1.6e6..=1.92e6).contains(&rate), "{rate}");
    let trace = &o.results.trace;
    let seq_var = o
        .results
        .var_names
        .iter()
        .position(|v| *v == "seq:change")
        .unwrap();
    let seqs = (0..trace.len())
        .filter(|&i| usize::from(trace.var[i]) == seq_var)
        .count() as u64;
    let sent = o.built.sim.flow_stats()[o.built.tcpm[0].flow.0 as usize].sent_packets;
    assert_eq!(seqs, sent, "one trace point per transmitted segment");
}

#[test]
fn a_crashed_router_is_declared_dead_and_the_others_resume() {
    // R3 crashes at 1 s. Receivers send REVERSE_PATH every second from set-up (a few tens of
    // ms), so R1 last hears of R3 just after 0 s and declares it dead 2 s later.
    let o = run(
        "6s",
        vec![session(json!({}))],
        json!({"events": [{"at": "1s", "node": "R3", "state": "down"}]}),
    );
    let s = summary(&o);
    let deaths = s["deaths"].as_array().unwrap();
    let r1 = deaths.iter().find(|d| d["node"] == "R1").unwrap();
    assert_eq!(r1["child"], "R3");
    let at = r1["at_s"].as_f64().unwrap();
    assert!((2.0..2.1).contains(&at), "{at}");
    let failed: Vec<&str> = s["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["receiver"].as_str().unwrap())
        .collect();
    assert_eq!(failed, vec!["D4", "D5"]);
    assert_eq!(s["failed"], json!(["D4", "D5"]));
    // The others resume: D1..D3 keep receiving after the declaration.
    let d1 = o.built.tcpm[0].receivers[0].1;
    let got = ccsim_core::Agent::stats(o.built.sim.agent(d1).unwrap()).app_bytes_delivered;
    let acked = s["acked_bytes"].as_u64().unwrap();
    assert!(acked > 3 * 1_250_000 / 2, "{acked}");
    assert!(got >= acked);
}

#[test]
fn losses_at_the_slowest_receiver_are_repaired_by_fast_retransmit_without_timeout() {
    // D4, behind the bottleneck, loses segments 333..337: its duplicate ACKs arrive at R3 and
    // R1 when the minimum there is its own 333, so Figure 4 passes them on and the sender
    // retransmits on the third (section 6.5). Vegas keeps the queue short, so no loss else.
    let o = run(
        "5s",
        vec![session(
            json!({"receivers": ["D1", "D2", "D3", "D4"], "protocol": "vegas"}),
        )],
        json!({"drops": [{"flow": "m", "link": "R3->D4", "seqs": [333, 334, 335, 336, 337]}]}),
    );
    let s = summary(&o);
    assert_eq!(s["timeouts"], json!(0));
    assert_eq!(s["retransmissions"], json!(5));
    assert_eq!(s["completed"], json!([]));
    assert_eq!(s["failed"], json!([]));
}

#[test]
fn duplicates_from_a_receiver_ahead_of_the_minimum_are_wasted() {
    // D1, the nearest receiver, loses the same segments: its duplicates reach R1 while R3's
    // ACKs still hold the minimum below 333, so each goes up as an isolated duplicate of an
    // older ACK and no three arrive in a row; the sender times out, the case section 6.5
    // warns of ("they are wasted and the sender ultimately times out").
    let o = run(
        "5s",
        vec![session(
            json!({"receivers": ["D1", "D2", "D3", "D4"], "protocol": "vegas"}),
        )],
        json!({"drops": [{"flow": "m", "link": "R1->D1", "seqs": [333, 334, 335, 336, 337]}]}),
    );
    let s = summary(&o);
    assert!(s["timeouts"].as_u64().unwrap() >= 1);
}

#[test]
fn source_only_fusion_has_every_receiver_as_a_child_of_the_source() {
    let o = run(
        "5s",
        vec![session(json!({"fusion": "source", "size": "100kB"}))],
        json!({}),
    );
    let s = summary(&o);
    assert_eq!(s["fusion_nodes"], json!({"S": 5}));
    assert_eq!(s["completed"].as_array().unwrap().len(), 5);
    assert_eq!(
        s["acks_at_source"], s["acks_from_receivers"],
        "no fusion on the way"
    );
}

#[test]
fn sessions_are_deterministic() {
    let a = run("3s", vec![session(json!({}))], json!({}));
    let b = run("3s", vec![session(json!({}))], json!({}));
    assert_eq!(summary(&a), summary(&b));
}

#[test]
fn figure4s_duplicates_start_a_cycle_of_spurious_retransmissions_fused_duplicates_end_it() {
    // D1 loses 333..337 under a 20-segment window (ns-2's default), NewReno: each
    // retransmission reaches every receiver, those that hold it send duplicates, Figure 4
    // passes them on and the sender retransmits again, for the rest of the run. Fusing the
    // duplicates by the minimum ends the cycle after the recovery (docs/protocols.md).
    let retx = |rule: &str| {
        let o = run(
            "10s",
            vec![session(
                json!({"receivers": ["D1", "D2", "D3", "D4"], "protocol": "newreno",
                                 "duplicate_rule": rule, "options": {"max_window": 20}}),
            )],
            json!({"drops": [{"flow": "m", "link": "R1->D1", "seqs": [333, 334, 335, 336, 337]}]}),
        );
        summary(&o)["retransmissions"].as_u64().unwrap()
    };
    let (figure4, fused) = (retx("figure4"), retx("fused"));
    assert!(figure4 > 500, "{figure4}");
    assert!(fused < 50, "{fused}");
}

#[test]
fn a_receiver_cut_off_for_a_while_is_not_reported_complete() {
    // R3-D5 is down from 1 s to 4 s: D5 misses data the sender will not send again. Its
    // REVERSE_PATHs come back at 4 s, but it never catches up, so it is neither revived nor
    // complete; the others complete.
    let o = run(
        "40s",
        vec![session(json!({"size": "2MB", "protocol": "vegas"}))],
        json!({"events": [{"at": "1s", "link": ["R3", "D5"], "state": "down"},
                          {"at": "4s", "link": ["R3", "D5"], "state": "up"}]}),
    );
    let s = summary(&o);
    assert_eq!(s["completed"], json!(["D1", "D2", "D3", "D4"]));
    assert_eq!(s["failed"], json!(["D5"]));
    assert!(s["completion_s"].as_f64().is_some());
    let d5 = &s["failures"].as_array().unwrap()[0];
    assert_eq!(
        (d5["receiver"].as_str(), d5["stage"].as_str()),
        (Some("D5"), Some("timeout"))
    );
    assert!(d5["revived_s"].is_null(), "{d5}");
}

#[test]
fn a_lost_fin_ack_is_recovered_by_fin_sent_again_to_the_receiver() {
    // First run: when the last byte is acknowledged (FIN leaves then).
    let base = run(
        "30s",
        vec![session(json!({"size": "2MB", "protocol": "vegas"}))],
        json!({}),
    );
    let done = summary(&base)["data_done_s"].as_f64().unwrap();
    // Same run with D1's uplink down for 0.1 s from that instant: D1's FIN_ACK and
    // TCP-M_CLOSE are lost; D1 has left the group, so FIN goes again to it alone.
    let o = run(
        "30s",
        vec![session(json!({"size": "2MB", "protocol": "vegas"}))],
        json!({"events": [{"at": format!("{done}s"), "link": "D1->R1", "state": "down"},
                          {"at": format!("{}s", done + 0.1), "link": "D1->R1", "state": "up"}]}),
    );
    let s = summary(&o);
    assert_eq!(s["completed"], json!(["D1", "D2", "D3", "D4", "D5"]));
    let closed = s["completion_s"].as_f64().unwrap();
    assert!(closed > done + 0.1 && closed < done + 5.0, "{closed}");
}
