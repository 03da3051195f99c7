//! The fixed benchmark scenarios of `ccsim bench`.
//!
//! * `dumbbell-100`: 100 NewReno flows through a 1 Gbps bottleneck, 40 ms round trip,
//!   one-BDP buffer (5000 packets), 10 simulated seconds.
//! * `sack-100`, `vegas-100`, `cubic-100`: the same dumbbell with SACK (RFC 6675), Vegas or
//!   CUBIC (RFC 9438, with Linux's HyStart) flows.
//! * `dctcp-100`: the same dumbbell with DCTCP flows and step marking at 65 packets (RFC
//!   8257; the DCTCP paper's K for 10 Gbit/s, ample at 1 Gbit/s).
//! * `linux-100`: the same dumbbell with CUBIC flows as Linux runs them: `recovery = "linux"`
//!   (PRR, RACK, the tail loss probe), timestamps and the three-way handshake.
//! * `bbr-100`: the same dumbbell with BBR v1 flows (paced; 1500-byte packets, an initial
//!   window of 10, as Linux).
//! * `prague-100`: the same dumbbell with TCP Prague flows (ECT(1), AccECN, paced) through a
//!   DualPI2 bottleneck with Linux's defaults (1500-byte packets, initial window 10).
//! * `cbr-4hop`: one 1 Gbps CBR flow over a 4-hop path of 1 Gbps links, 10 simulated seconds.
//! * `web-1g`: the 1 Gbps dumbbell with 20 long NewReno flows and 100 web transfers per second
//!   (Pareto sizes, mean 30 kB, shape 1.35, the XCP paper's mix), 30 simulated seconds.
//! * `ticp-10k`: the TICP paper's ticp-fwd run: 10 000 sources in 5 bins behind 1000..400
//!   kbit/s bottlenecks, RS = 1, 1000 B requests, 100 B reports, to completion (about 127 s).
//!
//! Series are off, so the numbers measure the engine and the protocols alone.

use ccsim_engine::queue::{hold, simulation_like_delay, EventQueue, HeapQueue};
use serde_json::json;

use crate::error::ScenarioError;
use crate::spec::{parse_spec_value, Spec};

/// Names of the benchmark scenarios, in the order `ccsim bench` runs them.
pub const BENCH_NAMES: [&str; 11] = [
    "dumbbell-100",
    "sack-100",
    "vegas-100",
    "cubic-100",
    "dctcp-100",
    "linux-100",
    "bbr-100",
    "prague-100",
    "cbr-4hop",
    "web-1g",
    "ticp-10k",
];

/// 100 TCP flows of `protocol` through a 1 Gbps bottleneck, 40 ms round trip, a one-BDP
/// buffer, starting 10 ms apart.
fn dumbbell_100(protocol: &str) -> serde_json::Value {
    let mut links =
        vec![json!({"between": ["r1", "r2"], "rate": "1Gbps", "delay": "18ms", "queue": "5000p"})];
    let mut flows = Vec::new();
    for i in 0..100 {
        links.push(json!({"between": [format!("s{i}"), "r1"], "rate": "10Gbps", "delay": "1ms", "queue": "10000p"}));
        links.push(json!({"between": ["r2", format!("d{i}")], "rate": "10Gbps", "delay": "1ms", "queue": "10000p"}));
        flows.push(
            json!({"name": format!("tcp{i}"), "protocol": protocol, "from": format!("s{i}"),
                           "to": format!("d{i}"), "start": format!("{}ms", i * 10)}),
        );
    }
    json!({"run": {"duration": "10s", "seed": 1}, "links": links, "flows": flows, "output": {"series": []}})
}

/// 20 long NewReno flows and 100 web transfers per second through the 1 Gbps dumbbell.
fn web_1g() -> serde_json::Value {
    let mut links =
        vec![json!({"between": ["r1", "r2"], "rate": "1Gbps", "delay": "18ms", "queue": "5000p"})];
    let mut flows = Vec::new();
    let (mut from, mut to) = (Vec::new(), Vec::new());
    for i in 0..20 {
        links.push(json!({"between": [format!("s{i}"), "r1"], "rate": "10Gbps", "delay": "1ms", "queue": "10000p"}));
        links.push(json!({"between": ["r2", format!("d{i}")], "rate": "10Gbps", "delay": "1ms", "queue": "10000p"}));
        flows.push(
            json!({"name": format!("tcp{i}"), "protocol": "newreno", "from": format!("s{i}"),
                   "to": format!("d{i}"), "start": format!("{}ms", i * 10)}),
        );
        from.push(format!("s{i}"));
        to.push(format!("d{i}"));
    }
    json!({"run": {"duration": "30s", "seed": 1}, "links": links, "flows": flows,
           "traffic": [{"name": "web", "kind": "web", "protocol": "newreno", "from": from, "to": to,
                        "arrivals": 100.0, "mean_size": "30kB", "shape": 1.35}],
           "output": {"series": []}})
}

/// The spec of the benchmark called `name`, or `None`.
///
/// # Errors
/// Never for a known name (the specs are fixed and valid).
pub fn bench_spec(name: &str) -> Result<Option<Spec>, ScenarioError> {
    let value = match name {
        "dumbbell-100" => dumbbell_100("newreno"),
        "sack-100" => dumbbell_100("sack"),
        "vegas-100" => dumbbell_100("vegas"),
        "cubic-100" => dumbbell_100("cubic"),
        "dctcp-100" => {
            let mut spec = dumbbell_100("dctcp");
            spec["links"][0]["queue"] = json!({"kind": "step", "limit": "5000p", "threshold": 65});
            spec
        }
        "linux-100" => {
            let mut spec = dumbbell_100("cubic");
            for f in spec["flows"].as_array_mut().expect("flows") {
                f["recovery"] = json!("linux");
                f["timestamps"] = json!(true);
                f["handshake"] = json!(true);
                f["packet_size"] = json!("1052B");
            }
            spec
        }
        "bbr-100" => {
            let mut spec = dumbbell_100("bbr");
            for f in spec["flows"].as_array_mut().expect("flows") {
                f["packet_size"] = json!("1500B");
                f["initial_window"] = json!(10);
            }
            spec
        }
        "prague-100" => {
            let mut spec = dumbbell_100("prague");
            spec["links"][0]["queue"] = json!({"kind": "dualpi2", "limit": "5000p"});
            for f in spec["flows"].as_array_mut().expect("flows") {
                f["packet_size"] = json!("1500B");
                f["initial_window"] = json!(10);
            }
            spec
        }
        "web-1g" => web_1g(),
        "cbr-4hop" => json!({
            "run": {"duration": "10s", "seed": 1},
            "links": [
                {"between": ["h0", "h1"], "rate": "1Gbps", "delay": "1ms"},
                {"between": ["h1", "h2"], "rate": "1Gbps", "delay": "1ms"},
                {"between": ["h2", "h3"], "rate": "1Gbps", "delay": "1ms"},
                {"between": ["h3", "h4"], "rate": "1Gbps", "delay": "1ms"}
            ],
            "flows": [{"name": "cbr", "protocol": "cbr", "from": "h0", "to": "h4", "rate": "1Gbps"}],
            "output": {"series": []}
        }),
        "ticp-10k" => {
            let mut links = vec![
                json!({"between": ["c", "core"], "rate": "10Gbps", "delay": "10ms", "queue": "1000p"}),
            ];
            let mut sources = serde_json::Map::new();
            for i in 1..=5 {
                links.push(json!({"between": ["core", format!("b{i}")], "rate": format!("{}kbps", 1150 - 150 * i),
                                  "delay": format!("{}ms", 20 * i), "queue": "20p"}));
                sources.insert(format!("b{i}"), json!(2000));
            }
            json!({"run": {"duration": "140s", "seed": 1}, "links": links,
                   "ticp": [{"name": "census", "collector": "c", "sources": sources}],
                   "output": {"series": []}})
        }
        _ => return Ok(None),
    };
    parse_spec_value(value).map(Some)
}

/// The event queues `ccsim bench event-queue` measures: the simulation's (a binary heap while
/// small, a radix heap once large), the radix heap alone and the binary heap alone.
pub const EVENT_QUEUES: [&str; 3] = ["queue", "radix", "heap"];

/// The hold model on event queue `queue` (one of [`EVENT_QUEUES`]), `pending` entries and `operations` pops,
/// each followed by a push [`simulation_like_delay`] ahead: (checksum of the popped times,
/// seconds). The checksums of the queues agree when they pop in the same order.
///
/// # Panics
/// For an unknown queue name.
#[must_use]
pub fn event_queue_hold(queue: &str, pending: u32, operations: u64) -> (u64, f64) {
    let start = std::time::Instant::now();
    let sum = match queue {
        "queue" => hold(
            &mut EventQueue::default(),
            pending,
            operations,
            simulation_like_delay,
        ),
        "radix" => hold(
            &mut EventQueue::with_thresholds(0, 0),
            pending,
            operations,
            simulation_like_delay,
        ),
        "heap" => hold(
            &mut HeapQueue::default(),
            pending,
            operations,
            simulation_like_delay,
        ),
        other => panic!("unknown event queue {other:?}"),
    };
    (sum, start.elapsed().as_secs_f64())
}
