//! XCP flows through the engine (Katabi, Handley and Rohrs 2002): the router function on every
//! port fills the bottleneck without loss and shares it fairly, and accounts for other traffic
//! on the port. Bands from the paper's claims (section 4): utilisation near 1, near-zero drops,
//! a small queue, fairness across RTTs.

use crate::common;

use serde_json::{json, Value};

fn dumbbell(rtts_ms: &[u64], rate: &str, duration: &str, extra_flows: Vec<Value>) -> Value {
    // Bottleneck r1-r2 with 1 ms; access delays make each flow's RTT.
    let mut links =
        vec![json!({"between": ["r1", "r2"], "rate": rate, "delay": "1ms", "queue": "1000p"})];
    let mut flows = Vec::new();
    for (i, rtt) in rtts_ms.iter().enumerate() {
        let access = (rtt - 4) / 2;
        links.push(json!({"between": [format!("s{i}"), "r1"], "rate": "1Gbps", "delay": format!("{access}ms"), "queue": "10000p"}));
        links.push(json!({"between": ["r2", format!("d{i}")], "rate": "1Gbps", "delay": "1ms", "queue": "10000p"}));
        flows.push(json!({"name": format!("x{i}"), "protocol": "xcp", "from": format!("s{i}"), "to": format!("d{i}")}));
    }
    flows.extend(extra_flows);
    json!({"run": {"duration": duration, "seed": 1, "warmup": "5s"}, "links": links, "flows": flows,
           "output": {"series": []}})
}

#[test]
fn xcp_fills_the_bottleneck_without_loss_and_shares_it_across_rtts() {
    let spec = common::spec(dumbbell(&[40, 80, 160, 320], "20Mbps", "30s", vec![]));
    let o = common::run_spec(&spec);
    let s = &o.results.summary;
    let link = &s.links["r1->r2"];
    assert!(link.utilization > 0.95, "utilisation {}", link.utilization);
    assert_eq!(link.drops, 0);
    let jain = s.fairness.jain.unwrap();
    assert!(jain > 0.95, "Jain {jain}");
}

#[test]
fn xcp_leaves_room_for_a_cbr_flow_on_the_same_port() {
    let cbr = json!({"name": "cbr", "protocol": "cbr", "from": "s0", "to": "d0", "rate": "5Mbps"});
    let spec = common::spec(dumbbell(&[40, 80], "20Mbps", "30s", vec![cbr]));
    let o = common::run_spec(&spec);
    let s = &o.results.summary;
    let link = &s.links["r1->r2"];
    assert!(link.utilization > 0.95, "utilisation {}", link.utilization);
    assert_eq!(link.drops, 0);
    // The CBR flow gets its 5 Mbit/s (of 1000-byte datagrams, 972 B of payload).
    let cbr = s.flows["cbr"].goodput_bps;
    assert!(cbr > 0.95 * 5e6 * 972.0 / 1000.0, "{cbr}");
}
