//! Property test: random valid scenarios (connected random topologies, every protocol,
//! DropTail and RED queues, random loss, staggered starts) must keep both conservation laws
//! (checked by `run`), stay within every link's capacity, and give the same summary bit for
//! bit when run twice. A failure prints the generated spec.

mod common;

use ccsim_core::RngStream;
use serde_json::{json, Value};

const CASES: u64 = 200;

const PROTOCOLS: [&str; 11] = [
    "tahoe",
    "reno",
    "newreno",
    "sack",
    "vegas",
    "cbr",
    "poisson",
    "tfrc",
    "tcp-friend",
    "cbraa",
    "primo",
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
            match rng.below(4) {
                0 => link["queue"] = json!(pick(&mut rng, &["3p", "20p", "200p"])),
                1 => link["queue"] = json!(pick(&mut rng, &["3kB", "30kB"])),
                2 => {
                    link["queue"] = json!({"kind": "red", "limit": "60p", "min_th": 5.0,
                                           "max_th": 15.0, "ecn": rng.bernoulli(0.5)})
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
                "tahoe" | "reno" | "newreno" | "sack" | "vegas" => {
                    flow["delayed_ack"] = json!(rng.bernoulli(0.5));
                    if rng.bernoulli(0.3) {
                        flow["size"] = json!(pick(&mut rng, &["1B", "20kB", "300kB"]));
                    }
                    if rng.bernoulli(0.2) {
                        flow["max_window"] = json!(1 + rng.below(40));
                    }
                }
                _ => {}
            }
            flow
        })
        .collect();
    json!({
        "run": {"duration": "3s", "seed": case, "warmup": pick(&mut rng, &["0s", "1s"])},
        "links": links,
        "flows": flows,
        "output": {"interval": "0.5s", "series": ["rate", "queue"]},
    })
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
        let value = random_spec(case);
        let shown = serde_json::to_string_pretty(&value).expect("json");
        let spec = ccsim_scenario::parse_spec_value(value)
            .unwrap_or_else(|e| panic!("case {case}: generated spec refused: {e}\n{shown}"));
        let first = std::panic::catch_unwind(|| common::run_spec(&spec))
            .unwrap_or_else(|_| panic!("case {case} failed; spec:\n{shown}"));
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
