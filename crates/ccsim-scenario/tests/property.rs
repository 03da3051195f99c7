//! Property test: random valid scenarios (connected random topologies, every flow protocol,
//! router-assisted ones included, TCP with and without ECN, AccECN and pacing, DropTail, RED
//! and DualPI2 queues, random loss, staggered starts, random warm-ups, link failures with
//! every rerouting mode, drop rules, web and voice generators, TICP and TCP-M sessions) must
//! keep both conservation laws (checked by `run`), keep them in the measurement window too
//! (received + lost <= sent for every flow), keep every link direction within its capacity by
//! its own counters (utilisation <= 1, bytes sent in the window <= what the rate allows) and
//! by the flows' arrivals and goodputs (`common::assert_within_capacity`), and give the same
//! summary bit for bit when run twice. A failure prints the generated spec.
use crate::common;

use ccsim_core::RngStream;
use serde_json::{json, Value};

const CASES: u64 = 200;

const PROTOCOLS: [&str; 18] = [
    "tahoe",
    "reno",
    "newreno",
    "sack",
    "vegas",
    "cubic",
    "dctcp",
    "bbr",
    "bbr3",
    "prague",
    "cbr",
    "poisson",
    "tfrc",
    "tcp-friend",
    "cbraa",
    "primo",
    "xcp",
    "obp",
];

fn pick<'a, T>(rng: &mut RngStream, xs: &'a [T]) -> &'a T {
    &xs[rng.below(xs.len() as u64) as usize]
}

fn random_spec(case: u64) -> Value {
    let mut rng = RngStream::new(case, "property");
    let nodes = 2 + rng.below(7) as usize;
    let name = |i: usize| format!("n{i}");
    let mut edges = Vec::new();
    // A random spanning tree keeps the graph connected; a few chords add alternative paths.
    for i in 1..nodes {
        edges.push((rng.below(i as u64) as usize, i));
    }
    for _ in 0..rng.below(3) {
        let (a, b) = (
            rng.below(nodes as u64) as usize,
            rng.below(nodes as u64) as usize,
        );
        if a != b
            && !edges
                .iter()
                .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
        {
            edges.push((a, b));
        }
    }
    let links: Vec<Value> = edges
        .iter()
        .map(|&(a, b)| {
            let mut link = json!({
                "between": [name(a), name(b)],
                "rate": pick(&mut rng, &["500kbps", "2Mbps", "10Mbps", "45Mbps"]),
                "delay": pick(&mut rng, &["100us", "2ms", "10ms", "30ms"]),
            });
            match rng.below(5) {
                0 => link["queue"] = json!(pick(&mut rng, &["3p", "20p", "200p"])),
                1 => link["queue"] = json!(pick(&mut rng, &["3kB", "30kB"])),
                2 => {
                    link["queue"] = json!({"kind": "red", "limit": "60p", "min_th": 5.0,
                                           "max_th": 15.0, "ecn": rng.bernoulli(0.5)})
                }
                3 => {
                    link["queue"] = json!({"kind": "dualpi2",
                                           "limit": pick(&mut rng, &["10p", "100p"])})
                }
                _ => {}
            }
            if rng.bernoulli(0.2) {
                link["loss"] = json!(0.02);
            }
            link
        })
        .collect();
    let flows: Vec<Value> = (0..1 + rng.below(6))
        .map(|i| {
            let from = rng.below(nodes as u64) as usize;
            let to = (from + 1 + rng.below(nodes as u64 - 1) as usize) % nodes;
            let protocol = *pick(&mut rng, &PROTOCOLS);
            let mut flow = json!({
                "name": format!("f{i}"),
                "protocol": protocol,
                "from": name(from),
                "to": name(to),
                "start": format!("{}ms", rng.below(1000)),
            });
            match protocol {
                "cbr" | "poisson" => {
                    flow["rate"] = json!(pick(&mut rng, &["100kbps", "1Mbps", "20Mbps"]))
                }
                "tahoe" | "reno" | "newreno" | "sack" | "vegas" | "cubic" | "dctcp" | "bbr"
                | "bbr3" | "prague" => {
                    flow["delayed_ack"] = json!(rng.bernoulli(0.5));
                    if rng.bernoulli(0.3) {
                        flow["size"] = json!(pick(&mut rng, &["1B", "20kB", "300kB"]));
                    }
                    if rng.bernoulli(0.2) {
                        flow["max_window"] = json!(1 + rng.below(40));
                    }
                    if rng.bernoulli(0.3) {
                        flow["ecn"] = json!(true);
                    }
                    if protocol != "prague" && rng.bernoulli(0.2) {
                        flow["accecn"] = json!(true);
                    }
                    if !matches!(protocol, "bbr" | "bbr3" | "prague") && rng.bernoulli(0.2) {
                        flow["pacing"] = json!(true);
                    }
                }
                _ => {}
            }
            flow
        })
        .collect();
    let two_nodes = |rng: &mut RngStream| {
        let a = rng.below(nodes as u64) as usize;
        (a, (a + 1 + rng.below(nodes as u64 - 1) as usize) % nodes)
    };
    let mut events = Vec::new();
    if rng.bernoulli(0.3) {
        let &(a, b) = pick(&mut rng, &edges);
        let down = 200 + rng.below(2000);
        events
            .push(json!({"at": format!("{down}ms"), "link": [name(a), name(b)], "state": "down"}));
        if rng.bernoulli(0.5) {
            let up = down + 1 + rng.below(700);
            events
                .push(json!({"at": format!("{up}ms"), "link": [name(a), name(b)], "state": "up"}));
        }
    }
    // A drop rule's link must lie on its flow's path: `with_drop_on_path` tries the links
    // in turn, starting at a random one.
    let mut drops = Vec::new();
    if rng.bernoulli(0.2) {
        let first = rng.below(2 * edges.len() as u64) as usize;
        let candidates: Vec<String> = (0..2 * edges.len())
            .map(|k| {
                let (a, b) = edges[(first + k) % (2 * edges.len()) / 2];
                if (first + k) % 2 == 0 {
                    format!("{}->{}", name(a), name(b))
                } else {
                    format!("{}->{}", name(b), name(a))
                }
            })
            .collect();
        let flow = format!("f{}", rng.below(flows.len() as u64));
        drops.push(json!({"flow": flow, "link": candidates[0],
                          "seqs": [1, 2, 5 + rng.below(20)], "candidates": candidates}));
    }
    let mut traffic = Vec::new();
    if rng.bernoulli(0.3) {
        let (a, b) = two_nodes(&mut rng);
        traffic.push(json!({"name": "web", "kind": "web",
            "protocol": pick(&mut rng, &["newreno", "sack", "xcp", "obp"]),
            "from": [name(a)], "to": [name(b)], "arrivals": 5.0, "mean_size": "20kB"}));
    }
    if rng.bernoulli(0.2) {
        let (a, b) = two_nodes(&mut rng);
        traffic.push(json!({"name": "calls", "kind": "voice", "from": [name(a)],
                            "to": [name(b)], "count": 1 + rng.below(3)}));
    }
    let mut ticp = Vec::new();
    if rng.bernoulli(0.1) {
        let (a, b) = two_nodes(&mut rng);
        ticp.push(
            json!({"name": "census", "collector": name(a), "sources": {name(b): 30},
            "delivery": pick(&mut rng, &["multicast", "unicast", "relay"])}),
        );
    }
    let mut tcpm = Vec::new();
    if nodes >= 3 && rng.bernoulli(0.1) {
        let (a, b) = two_nodes(&mut rng);
        let c = (0..nodes).find(|&c| c != a && c != b).expect("three nodes");
        tcpm.push(
            json!({"name": "m1", "source": name(a), "receivers": [name(b), name(c)],
            "protocol": pick(&mut rng, &["reno", "vegas"]), "size": "50kB"}),
        );
    }
    let reroute = *pick(&mut rng, &["static", "instant", "300ms"]);
    // Warm-ups at any instant, most off the packet grid.
    let warmup = if rng.bernoulli(0.25) {
        "0s".to_string()
    } else {
        format!("{}ns", rng.below(2_800_000_000))
    };
    json!({
        "run": {"duration": "3s", "seed": case, "warmup": warmup, "reroute": reroute},
        "links": links,
        "flows": flows,
        "events": events,
        "drops": drops,
        "traffic": traffic,
        "ticp": ticp,
        "tcpm": tcpm,
        "output": {"interval": "0.5s", "series": ["rate", "queue"]},
    })
}

/// The spec with its drop rule (if any) on a link of its flow's path: the first candidate
/// the run accepts.
fn with_drop_on_path(mut value: Value) -> (Value, ccsim_scenario::Spec) {
    let candidates: Vec<Value> = value["drops"]
        .get(0)
        .and_then(|d| d.as_object())
        .and_then(|d| d.get("candidates"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if let Some(d) = value["drops"].get_mut(0).and_then(Value::as_object_mut) {
        d.remove("candidates");
    }
    for link in candidates {
        value["drops"][0]["link"] = link;
        let spec = ccsim_scenario::parse_spec_value(value.clone()).expect("generated spec");
        match ccsim_scenario::check(&spec) {
            Err(e) if e.to_string().contains("is not on the path") => continue,
            _ => return (value, spec),
        }
    }
    value["drops"] = json!([]);
    let spec = ccsim_scenario::parse_spec_value(value.clone()).expect("generated spec");
    (value, spec)
}

/// The measurement window's laws, from the counters themselves: every flow's received and
/// lost packets are among those it sent in the window, and no link direction sent more than
/// its rate allows (by its busy time, and by its byte counter with one packet of slack for the
/// transmission in progress when the window opened).
fn assert_window_laws(case: u64, outcome: &ccsim_scenario::RunOutcome, shown: &str) {
    let summary = &outcome.summary;
    for (name, f) in &summary.flows {
        assert!(
            f.received_packets + f.lost_packets <= f.sent_packets,
            "case {case}: flow {name} received {} + lost {} > sent {} in the window; spec:\n{shown}",
            f.received_packets,
            f.lost_packets,
            f.sent_packets
        );
    }
    let sim = &outcome.built.sim;
    let start = sim.warmup_snapshot().map_or(0, |s| s.at);
    let window_s = (sim.now().as_nanos() - start) as f64 / 1e9;
    for (name, id) in &outcome.built.links {
        let l = &summary.links[name];
        assert!(
            (0.0..=1.0).contains(&l.utilization),
            "case {case}: link {name} utilisation {}; spec:\n{shown}",
            l.utilization
        );
        let sent = sim.link_stats(*id).tx_bytes
            - sim
                .warmup_snapshot()
                .map_or(0, |s| s.links[id.0 as usize].tx_bytes);
        let rate = sim.link_config(*id).rate.bps() as f64;
        let largest = 1500.0 * 8.0;
        assert!(
            sent as f64 * 8.0 <= rate * window_s + largest,
            "case {case}: link {name} sent {sent} B in {window_s} s at {rate} bit/s; spec:\n{shown}"
        );
    }
}

/// The summary without its wall-clock fields.
fn comparable(summary: &ccsim_scenario::summary::Summary) -> Value {
    let mut v = serde_json::to_value(summary).expect("summary serialises");
    let run = v["run"].as_object_mut().expect("run table");
    run.retain(|k, _| !k.starts_with("wall") && !k.ends_with("per_second"));
    v
}

#[test]
fn random_scenarios_conserve_stay_within_capacity_and_repeat_bit_for_bit() {
    for case in 0..CASES {
        let (value, spec) = with_drop_on_path(random_spec(case));
        let shown = serde_json::to_string_pretty(&value).expect("json");
        let first = std::panic::catch_unwind(|| common::run_spec(&spec))
            .unwrap_or_else(|_| panic!("case {case} failed; spec:\n{shown}"));
        assert_window_laws(case, &first, &shown);
        let second = common::run_spec(&spec);
        assert_eq!(
            comparable(&first.summary),
            comparable(&second.summary),
            "case {case} is not deterministic; spec:\n{shown}"
        );
        assert_eq!(first.trace.value.len(), second.trace.value.len());
        assert!(
            first
                .trace
                .value
                .iter()
                .zip(&second.trace.value)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "case {case}: series differ"
        );
    }
}
