//! TICP sessions end to end: reliability under loss, multicast replication, binning on the
//! paper's topology, virtual sources, determinism.

use crate::common;

use common::{run_spec, spec, spec_error};
use serde_json::{json, Value};

/// The paper's Fig. 2 network with `n` sources per bin and a per-direction loss on every
/// bottleneck; `ticp` overrides fields of the session.
fn paper(n: u32, loss: f64, ticp: Value) -> Value {
    let mut links = vec![
        json!({"between": ["c", "core"], "rate": "10Gbps", "delay": "10ms", "queue": "1000p"}),
    ];
    for i in 1..=5 {
        links.push(
            json!({"between": ["core", format!("b{i}")], "rate": format!("{}kbps", 1150 - 150 * i),
                          "delay": format!("{}ms", 20 * i), "queue": "20p", "loss": loss}),
        );
    }
    for (l, d) in [("l1", "1ms"), ("l2", "15ms"), ("l3", "40ms")] {
        links.push(json!({"between": ["core", l], "rate": "100Mbps", "delay": d}));
    }
    let mut session = json!({"name": "census", "collector": "c",
        "sources": (1..=5).map(|i| (format!("b{i}"), json!(n))).collect::<serde_json::Map<_, _>>()});
    for (k, v) in ticp.as_object().unwrap() {
        session[k] = v.clone();
    }
    json!({"run": {"duration": "400s"}, "links": links, "ticp": [session],
           "output": {"series": []}})
}

fn ticp_summary(out: &ccsim_scenario::RunOutcome) -> &ccsim_scenario::ticp::TicpSummary {
    &out.summary.ticp["census"]
}

/// Every source appears once in the table, with an arrival time.
fn assert_each_report_once(out: &ccsim_scenario::RunOutcome, sources: usize) {
    let t = &out.ticp_table;
    assert_eq!(t.source.len(), sources);
    let mut ids = t.source.clone();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), sources, "a source is listed twice");
    assert!(
        t.arrived_s.iter().all(|a| a.is_finite()),
        "a report is missing"
    );
    let s = ticp_summary(out);
    assert_eq!(s.reports_received, s.reports_expected);
    assert!(s.duration_s.is_some());
}

#[test]
fn every_report_arrives_exactly_once_under_loss_on_both_paths() {
    for delivery in ["multicast", "unicast", "relay"] {
        let out = run_spec(&spec(paper(
            100,
            0.05,
            json!({"delivery": delivery, "rs": 3}),
        )));
        assert_each_report_once(&out, 500);
        let s = ticp_summary(&out);
        // 5 % loss on each bottleneck direction: a request or its report is lost about one
        // time in ten, so round 1 cannot collect everything.
        assert!(s.rounds >= 2, "{delivery}: {} rounds", s.rounds);
        assert!(
            s.requests_sent > 500,
            "{delivery}: {} requests",
            s.requests_sent
        );
    }
}

#[test]
fn a_multicast_request_crosses_each_tree_link_once() {
    // Two hosts behind one router r, in one bin: each request packet crosses c->core and
    // core->r once and is copied at r onto r->h1 and r->h2.
    let links = json!([
        {"between": ["c", "core"], "rate": "100Mbps", "delay": "5ms"},
        {"between": ["core", "r"], "rate": "10Mbps", "delay": "20ms"},
        {"between": ["r", "h1"], "rate": "100Mbps", "delay": "1ms"},
        {"between": ["r", "h2"], "rate": "100Mbps", "delay": "1ms"},
        {"between": ["core", "l1"], "rate": "100Mbps", "delay": "1ms"},
    ]);
    let doc = json!({"run": {"duration": "60s"}, "links": links,
        "ticp": [{"name": "census", "collector": "c", "sources": {"h1": 50, "h2": 50}, "rs": 4,
                  "clusters": "binning", "landmarks": ["l1"], "bin_thresholds": ["30ms", "100ms"]}],
        "output": {"series": []}});
    let out = run_spec(&spec(doc));
    assert_each_report_once(&out, 100);
    let s = ticp_summary(&out);
    assert_eq!(s.clusters.len(), 1, "{:?}", s.clusters);
    assert_eq!(s.clusters[0].nodes, vec!["h1", "h2"]);
    // Each request packet leaves the collector once and is copied once, at r: two
    // deliveries per packet, nothing lost.
    let requests = out.built.ticp[0].flows.0;
    let f = out.built.sim.flow_stats()[requests.0 as usize];
    assert_eq!(f.sent_packets, s.request_packets);
    assert_eq!(f.replicated_packets, s.request_packets);
    assert_eq!(f.delivered_packets, 2 * s.request_packets);
    assert_eq!(f.dropped_packets, 0);
    let tx = |l: &str| out.summary.links[l].tx_packets;
    assert_eq!(tx("r->h1"), tx("r->h2"));
}

#[test]
fn binning_groups_the_sources_of_each_bottleneck_and_ranks_them_by_distance() {
    let doc = paper(
        50,
        0.0,
        json!({"clusters": "binning", "landmarks": ["l1", "l2", "l3"],
               "bin_thresholds": ["60ms", "100ms", "140ms", "180ms", "220ms", "260ms"]}),
    );
    let out = run_spec(&spec(doc));
    assert_each_report_once(&out, 250);
    let s = ticp_summary(&out);
    let nodes: Vec<Vec<String>> = s.clusters.iter().map(|c| c.nodes.clone()).collect();
    let expect: Vec<Vec<String>> = (1..=5).map(|i| vec![format!("b{i}")]).collect();
    assert_eq!(nodes, expect);
    // The session proper starts after the 2 s binning phase.
    assert_eq!(s.began_s, Some(2.0));
    assert!(s.clusters.iter().all(|c| c.bin.is_some()));
}

#[test]
fn a_report_of_several_packets_is_collected_as_that_many_virtual_sources() {
    let out = run_spec(&spec(paper(
        40,
        0.02,
        json!({"report_packets": 3, "rs": 2}),
    )));
    let s = ticp_summary(&out);
    assert_eq!(s.reports_expected, 3 * 200);
    assert_each_report_once(&out, 200);
}

#[test]
fn sessions_are_deterministic() {
    let doc = spec(paper(60, 0.03, json!({"rs": 2})));
    let (a, b) = (run_spec(&doc), run_spec(&doc));
    assert_eq!(a.summary.ticp, b.summary.ticp);
    assert_eq!(a.summary.links, b.summary.links);
    let bits = |o: &ccsim_scenario::RunOutcome| -> Vec<u64> {
        o.ticp_table.arrived_s.iter().map(|x| x.to_bits()).collect()
    };
    assert_eq!(bits(&a), bits(&b));
}

#[test]
fn an_allotted_time_ends_an_incomplete_session() {
    let out = run_spec(&spec(paper(2000, 0.0, json!({"allotted": "10s"}))));
    let s = ticp_summary(&out);
    assert!(s.duration_s.is_none());
    assert!(s.reports_received > 0 && s.reports_received < s.reports_expected);
}

#[test]
fn bad_sessions_are_rejected_with_their_path() {
    let e = spec_error(paper(10, 0.0, json!({"rs": 0})));
    assert!(e.contains("ticp[0].rs"), "{e}");
    let e = spec_error(paper(10, 0.0, json!({"clusters": "binning"})));
    assert!(
        e.contains("ticp[0].landmarks") && e.contains("at least one landmark"),
        "{e}"
    );
    let e = spec_error(paper(10, 0.0, json!({"landmarks": ["l1"]})));
    assert!(e.contains("only with clusters"), "{e}");
    let e = spec_error(paper(10, 0.0, json!({"sources": {"nowhere": 3}})));
    assert!(
        e.contains("ticp[0].sources.nowhere") && e.contains("in no link"),
        "{e}"
    );
    let e = spec_error(paper(10, 0.0, json!({"rs": 100, "request_size": "1000B"})));
    assert!(e.contains("ticp[0].request_size"), "{e}");
    let e = spec_error(paper(
        10,
        0.0,
        json!({"clusters": "binning", "landmarks": ["l1"],
                                             "bin_thresholds": ["50ms", "20ms"]}),
    ));
    assert!(e.contains("strictly ascending"), "{e}");
}
