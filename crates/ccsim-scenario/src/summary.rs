//! The run summary: per-flow, per-link, fairness and run statistics after the warm-up, with
//! the sessions' and traffic generators' own records.
//!
//! The summary is computed from what a finished run hands it ([`Finished`]): the simulation
//! after its last event, the handles of the spec's flows and links, and the records the
//! sessions ([`crate::protocols::ticp`], [`crate::protocols::tcpm`]) and the generators
//! ([`crate::generators`]) made of themselves. It never reads the run or its build.

use std::collections::BTreeMap;

use ccsim_core::{Addr, Agent, AgentStats, FlowId};
use ccsim_engine::{DropReason, FlowStats, LinkId, LinkStats, NodeId, TopologyChange};
use serde::Serialize;

use crate::netsim::NetSim;
use crate::paths::FlowPath;
use crate::protocols::tcpm::TcpmSummary;
use crate::protocols::ticp::TicpSummary;
use crate::spec::flows::{family, Family};
use crate::spec::Spec;

/// Per-flow results over the measurement window [warmup, duration].
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FlowSummary {
    /// Protocol name.
    pub protocol: &'static str,
    /// Application bytes delivered in order to the receiving application in the window, per
    /// second of the window, in bit/s (ns-3's PacketSink, iperf).
    pub goodput_bps: f64,
    /// New application bytes that reached the receiver in the window, delivered in order or
    /// held above a gap, per second of the window, in bit/s.
    pub arrival_bps: f64,
    /// Application bytes the receiver held above a gap when the window began: they reached it
    /// before the window and count in `goodput_bps` when released in order inside it, so
    /// goodput can exceed what the path carried in the window by up to this much.
    pub held_at_start_bytes: u64,
    /// Data packets sent (retransmissions included).
    pub sent_packets: u64,
    /// Their bytes, headers included.
    pub sent_bytes: u64,
    /// Data packets sent in the window that reached the receiver.
    pub received_packets: u64,
    /// Their bytes, headers included.
    pub received_bytes: u64,
    /// Data packets sent in the window and dropped in the network.
    pub lost_packets: u64,
    /// Data packets retransmitted.
    pub retransmitted_packets: u64,
    /// Retransmission timeouts (TCP).
    pub timeouts: u64,
    /// Seconds from start to the last byte acknowledged (finite TCP transfers that finished).
    pub completion_time_s: Option<f64>,
    /// Whether the flow always has data to send (a bulk TCP transfer, a rate-based flow), so
    /// that its goodput is what the network gave it; a CBR or Poisson source or a finite
    /// transfer wants only so much, and is never counted as starved.
    pub greedy: bool,
    /// Mean one-way delay of the data packets sent in the window and delivered, seconds.
    pub mean_delay_s: Option<f64>,
    /// With `[run] multipath = "ecmp"`: the nodes its data crosses when it starts, sender
    /// first, separated by spaces ("h0 p0e0 p0a1 c2 p1a1 p1e0 h4").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
    /// With multipath routing: the number of equal-cost paths between its ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paths: Option<u64>,
}

/// Per-link-direction results over the measurement window.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LinkSummary {
    /// Fraction of the window the link spent transmitting: serialisation time within the
    /// window (the transmissions in progress at its edges cut there) over its length.
    pub utilization: f64,
    /// Packets dropped, all reasons.
    pub drops: u64,
    /// Drops by reason.
    pub drops_by_reason: BTreeMap<&'static str, u64>,
    /// Time-averaged number of waiting packets.
    pub mean_queue_packets: f64,
    /// Packets transmitted.
    pub tx_packets: u64,
    /// Packets marked CE by RED instead of dropped (RFC 3168).
    pub ecn_marks: u64,
    /// A DualPI2 link's counters by queue (absent for other links).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dualpi2: Option<Dualpi2Summary>,
}

/// A DualPI2 link's results over the window, by queue (docs/queues.md, "DualPI2").
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Dualpi2Summary {
    /// Packets classified into the L queue.
    pub l_packets: u64,
    /// Packets classified into the C queue.
    pub c_packets: u64,
    /// L packets marked by the step (sojourn above step_thresh).
    pub l_step_marks: u64,
    /// L packets marked with the coupled probability k p'.
    pub l_coupled_marks: u64,
    /// ECT packets of the C queue marked with p_C = p'^2.
    pub c_marks: u64,
    /// L packets dropped (overload).
    pub l_drops: u64,
    /// C packets dropped with p_C.
    pub c_drops: u64,
    /// Mean sojourn time of the L queue's sent packets, seconds.
    pub l_sojourn_mean_s: Option<f64>,
    /// 99th percentile of the L queue's sojourn times, seconds (within 0.8 %).
    pub l_sojourn_p99_s: Option<f64>,
    /// Mean sojourn time of the C queue's sent packets, seconds.
    pub c_sojourn_mean_s: Option<f64>,
    /// 99th percentile of the C queue's sojourn times, seconds (within 0.8 %).
    pub c_sojourn_p99_s: Option<f64>,
    /// The base probability p' at the end of the run.
    pub base_probability: f64,
}

/// Fairness over the flows' goodputs.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Fairness {
    /// Jain's index, (sum x)^2 / (n sum x^2); absent without flows or when all got nothing.
    pub jain: Option<f64>,
}

/// Run statistics.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RunInfo {
    /// Master seed.
    pub seed: u64,
    /// Hash of the canonical spec.
    pub spec_hash: String,
    /// Events processed.
    pub events: u64,
    /// Simulated seconds.
    pub sim_seconds: f64,
    /// Warm-up, seconds.
    pub warmup_seconds: f64,
    /// Wall-clock seconds (building and running).
    pub wall_seconds: f64,
    /// Events per wall-clock second.
    pub events_per_second: f64,
    /// Packet transmissions (all links) per wall-clock second.
    pub packets_per_second: f64,
}

/// Goodput percentiles over the flows (linear interpolation between closest ranks).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Percentiles {
    /// Smallest.
    pub min: f64,
    /// 10th percentile.
    pub p10: f64,
    /// Median.
    pub median: f64,
    /// 90th percentile.
    pub p90: f64,
    /// Largest.
    pub max: f64,
}

/// Totals and spread over the flows of the spec, for runs of any size.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Aggregate {
    /// Number of flows.
    pub flows: usize,
    /// Sum of the flows' goodputs, bit/s.
    pub goodput_bps: f64,
    /// Spread of the flows' goodputs, bit/s (absent without flows).
    pub goodput_bps_percentiles: Option<Percentiles>,
    /// The flow with the least goodput (the first in spec order on ties).
    pub lowest_flow: Option<String>,
    /// The flow with the most goodput (the first in spec order on ties).
    pub highest_flow: Option<String>,
    /// Flows whose goodput is under [`STARVED_SHARE`] of an equal share of the sum.
    pub starved_flows: usize,
    /// Sums of the per-flow counters.
    pub sent_packets: u64,
    /// Received data packets, all flows.
    pub received_packets: u64,
    /// Lost data packets, all flows.
    pub lost_packets: u64,
    /// Retransmitted data packets, all flows.
    pub retransmitted_packets: u64,
    /// Retransmission timeouts, all flows.
    pub timeouts: u64,
}

/// CHOICE: a greedy flow ([`FlowSummary::greedy`]) is starved when its goodput is under
/// 10 % of an equal share (the greedy flows' goodputs summed, over their number); flows that
/// want only so much (CBR, Poisson, finite transfers) are never starved.
pub const STARVED_SHARE: f64 = 0.1;

/// The whole summary. `summary.json` holds `flows` and `links` only for small runs
/// (see [`crate::outputs`]); the Parquet tables hold them always.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    /// Per flow, by name.
    #[serde(skip)]
    pub flows: BTreeMap<String, FlowSummary>,
    /// Per link direction, by "a->b".
    #[serde(skip)]
    pub links: BTreeMap<String, LinkSummary>,
    /// Totals and spread over the flows.
    pub aggregate: Aggregate,
    /// Fairness.
    pub fairness: Fairness,
    /// TICP sessions, by name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub ticp: BTreeMap<String, TicpSummary>,
    /// Per TCP-M session.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub tcpm: BTreeMap<String, TcpmSummary>,
    /// Traffic generators, by name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub traffic: BTreeMap<String, TrafficSummary>,
    /// Every change of a link's or node's state and every change of the routing tables, in
    /// time order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub topology: Vec<TopologyRecord>,
    /// Packets lost at nodes rather than on links (a down node, no route, a retired agent),
    /// by node and reason; only nodes that lost any.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub node_drops: BTreeMap<String, BTreeMap<&'static str, u64>>,
    /// Run statistics.
    pub run: RunInfo,
}

/// One generator's results (`traffic.<name>` in `summary.json`), over the whole run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TrafficSummary {
    /// "web", "voice" or "streaming".
    pub kind: &'static str,
    /// Flows started (web transfers, or voice and streaming sources).
    pub started: u64,
    /// Web generators only: their transfers' completion times and slowdowns.
    #[serde(flatten)]
    pub web: Option<WebTransfers>,
    /// Flows generators that draw their flows: the application bits per second offered, the
    /// `load` of the hosts' link rates or of the bisection.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offered_bps: Option<f64>,
    /// Flows generators only: empty-network runs simulated for the slowdowns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alone_runs: Option<u64>,
    /// Flows generators only: slowdowns whose empty-network time came from the cache (a
    /// flow of the same size on a path of the same class).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alone_cached: Option<u64>,
    /// Flows generators only: slowdown by size bucket ([`slowdown_buckets`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slowdown_buckets: Option<Vec<SlowdownBucket>>,
    /// Data packets sent.
    pub sent_packets: u64,
    /// Data packets that reached their receivers.
    pub received_packets: u64,
    /// Data packets dropped in the network.
    pub lost_packets: u64,
    /// Application bytes received per second of the run, bit/s.
    pub goodput_bps: f64,
    /// Mean one-way delay of the data packets delivered, seconds.
    pub mean_delay_s: Option<f64>,
}

/// A web generator's transfers. Every key is present for a web generator, `null` when no
/// transfer completed (or none has a slowdown), so that a table of runs keeps its columns.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct WebTransfers {
    /// Transfers completed.
    pub completed: u64,
    /// Mean completion time of the completed transfers, seconds.
    pub mean_fct_s: Option<f64>,
    /// Spread of their completion times, seconds.
    pub fct_s: Option<Percentiles>,
    /// Mean slowdown (completion time over that on an empty network).
    pub mean_slowdown: Option<f64>,
    /// Spread of the slowdowns.
    pub slowdown: Option<Percentiles>,
    /// Application bytes of the transfers started.
    pub bytes_started: u64,
}

/// The completed flows of one size bucket and their slowdowns: flows sorted by size, the
/// `[from, to)` percent of them by rank.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SlowdownBucket {
    /// The bucket's first rank, percent of the flows.
    pub from_percent: u32,
    /// Its end, percent.
    pub to_percent: u32,
    /// Its largest flow, bytes.
    pub max_size_bytes: u64,
    /// Its flows.
    pub flows: u64,
    /// Mean slowdown.
    pub mean: f64,
    /// Median slowdown (HPCC's rank rule: the value at index floor(n p) of the sorted list).
    pub p50: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
}

/// Percent of the flows per size bucket (HPCC's `fct_analysis.py` default step).
pub const BUCKET_STEP_PERCENT: u32 = 5;

/// Slowdown by size, as HPCC's `fct_analysis.py` reports it: the (size, slowdown) pairs of the
/// completed flows sorted by size, cut into buckets of [`BUCKET_STEP_PERCENT`] percent of them
/// by rank (bucket i holds ranks floor(n i s / 100) to floor(n (i + 1) s / 100)); per bucket
/// its largest size, the mean, and the values at index floor(m p) of its m sorted slowdowns for
/// p = 0.5, 0.95, 0.99. Empty buckets (fewer flows than buckets) are left out.
/// CHOICE: flows of equal size are ordered by slowdown, so that the cut does not depend on the
/// order the flows come in; a slowdown below 1 is reported as it is, not raised to 1 as HPCC's
/// script does (it would be a fault to find, not hide).
#[must_use]
pub fn slowdown_buckets(flows: &[(u64, f64)]) -> Vec<SlowdownBucket> {
    let mut sorted = flows.to_vec();
    sorted.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let n = sorted.len();
    let mut out = Vec::new();
    let mut from = 0;
    while from < 100 {
        let to = (from + BUCKET_STEP_PERCENT).min(100);
        let (l, r) = (n * from as usize / 100, n * to as usize / 100);
        if r > l {
            let bucket = &sorted[l..r];
            let mut s: Vec<f64> = bucket.iter().map(|&(_, x)| x).collect();
            s.sort_by(f64::total_cmp);
            let at = |p: f64| s[((s.len() as f64 * p) as usize).min(s.len() - 1)];
            out.push(SlowdownBucket {
                from_percent: from,
                to_percent: to,
                max_size_bytes: bucket[bucket.len() - 1].0,
                flows: bucket.len() as u64,
                mean: s.iter().sum::<f64>() / s.len() as f64,
                p50: at(0.5),
                p95: at(0.95),
                p99: at(0.99),
            });
        }
        from = to;
    }
    out
}

/// One change of the topology or of the routing tables.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TopologyRecord {
    /// When, seconds.
    pub at_s: f64,
    /// "link", "node" or "routes".
    pub what: &'static str,
    /// The link direction ("a->b") or node; absent for routes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// "down" or "up"; absent for routes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<&'static str>,
    /// Routes: (node, destination) pairs left without a route by the new tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreachable: Option<u64>,
}

/// What a finished run hands the summary.
pub(crate) struct Finished<'a> {
    /// The simulation after its last event.
    pub sim: &'a NetSim,
    /// Per `[[flows]]` entry, in spec order: (flow id, sender address, receiver address).
    pub flows: &'a [(FlowId, Addr, Addr)],
    /// Per `[[flows]]` entry, its path with multipath routing.
    pub paths: &'a [Option<FlowPath>],
    /// Node names by index.
    pub node_names: &'a [String],
    /// Per simplex link, in the order the run added them: (name "a->b", id).
    pub links: &'a [(String, LinkId)],
    /// The TICP sessions' records, by name.
    pub ticp: BTreeMap<String, TicpSummary>,
    /// The TCP-M sessions' records, by name.
    pub tcpm: BTreeMap<String, TcpmSummary>,
    /// The traffic generators' records, by name.
    pub traffic: BTreeMap<String, TrafficSummary>,
}

fn node_drops(spec: &Spec, run: &Finished) -> BTreeMap<String, BTreeMap<&'static str, u64>> {
    let mut out = BTreeMap::new();
    for (i, name) in spec.node_names().into_iter().enumerate() {
        let stats = run.sim.node_stats(NodeId(i as u32));
        let reasons: BTreeMap<&'static str, u64> = DropReason::ALL
            .iter()
            .map(|r| (r.name(), stats.drops[*r as usize]))
            .filter(|(_, n)| *n > 0)
            .collect();
        if !reasons.is_empty() {
            out.insert(name, reasons);
        }
    }
    out
}

fn topology(spec: &Spec, run: &Finished) -> Vec<TopologyRecord> {
    let events = run.sim.topology_events();
    if events.is_empty() {
        return Vec::new();
    }
    let nodes = spec.node_names();
    let state = |up: bool| Some(if up { "up" } else { "down" });
    events
        .iter()
        .map(|e| {
            let at_s = e.at as f64 / 1e9;
            match e.change {
                TopologyChange::Link { link, up } => TopologyRecord {
                    at_s,
                    what: "link",
                    name: run.links.get(link.0 as usize).map(|(n, _)| n.clone()),
                    state: state(up),
                    unreachable: None,
                },
                TopologyChange::Node { node, up } => TopologyRecord {
                    at_s,
                    what: "node",
                    name: nodes.get(node.0 as usize).cloned(),
                    state: state(up),
                    unreachable: None,
                },
                TopologyChange::Routes { unreachable } => TopologyRecord {
                    at_s,
                    what: "routes",
                    name: None,
                    state: None,
                    unreachable: Some(unreachable),
                },
            }
        })
        .collect()
}

/// Jain's fairness index of `xs`, (sum x)^2 / (n sum x^2); `None` when it is undefined
/// (no flows, or every flow got nothing).
#[must_use]
pub fn jain(xs: &[f64]) -> Option<f64> {
    let sum: f64 = xs.iter().sum();
    let sq: f64 = xs.iter().map(|x| x * x).sum();
    (sq > 0.0).then(|| sum * sum / (xs.len() as f64 * sq))
}

/// The `q` quantile (0..=1) of sorted `xs`, interpolating linearly between closest ranks.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Min, 10th, 50th, 90th percentile and max of `xs` (`None` if empty).
#[must_use]
pub fn percentiles(xs: &[f64]) -> Option<Percentiles> {
    if xs.is_empty() {
        return None;
    }
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    Some(Percentiles {
        min: sorted[0],
        p10: quantile(&sorted, 0.1),
        median: quantile(&sorted, 0.5),
        p90: quantile(&sorted, 0.9),
        max: sorted[sorted.len() - 1],
    })
}

fn aggregate(spec: &Spec, flows: &BTreeMap<String, FlowSummary>, goodputs: &[f64]) -> Aggregate {
    let total: f64 = goodputs.iter().sum();
    // Starvation is judged among the greedy flows only, against their equal share.
    let greedy: Vec<f64> = spec
        .flows
        .iter()
        .zip(goodputs)
        .filter(|(f, _)| flows[&f.name].greedy)
        .map(|(_, &g)| g)
        .collect();
    let share = greedy.iter().sum::<f64>() / greedy.len().max(1) as f64;
    let pick = |better: fn(f64, f64) -> bool| {
        let mut best: Option<usize> = None;
        for (i, &g) in goodputs.iter().enumerate() {
            if best.is_none_or(|b| better(g, goodputs[b])) {
                best = Some(i);
            }
        }
        best.map(|i| spec.flows[i].name.clone())
    };
    let sum = |f: fn(&FlowSummary) -> u64| flows.values().map(f).sum();
    Aggregate {
        flows: goodputs.len(),
        goodput_bps: total,
        goodput_bps_percentiles: percentiles(goodputs),
        lowest_flow: pick(|a, b| a < b),
        highest_flow: pick(|a, b| a > b),
        starved_flows: greedy
            .iter()
            .filter(|&&g| g < STARVED_SHARE * share)
            .count(),
        sent_packets: sum(|f| f.sent_packets),
        received_packets: sum(|f| f.received_packets),
        lost_packets: sum(|f| f.lost_packets),
        retransmitted_packets: sum(|f| f.retransmitted_packets),
        timeouts: sum(|f| f.timeouts),
    }
}

/// The summary of a finished run of `spec`.
pub(crate) fn summarize(
    spec: &Spec,
    run: Finished,
    spec_hash: String,
    wall_seconds: f64,
) -> Summary {
    let sim = run.sim;
    let end = sim.now().as_nanos();
    let snapshot = sim.warmup_snapshot();
    let start = snapshot.map_or(0, |s| s.at);
    let window_s = (end - start) as f64 / 1e9;
    let agents = sim.agents();
    let zero_flow = FlowStats::default();
    let zero_agent = AgentStats::default();
    let zero_link = LinkStats::default();
    let mut flows = BTreeMap::new();
    let mut goodputs = Vec::new();
    for (i, f) in spec.flows.iter().enumerate() {
        let (flow, s, r) = run.flows[i];
        let fs = &sim.flow_stats()[flow.0 as usize];
        let f0 = snapshot.map_or(&zero_flow, |sn| &sn.flows[flow.0 as usize]);
        let (ss, rs) = (
            agents[s.agent as usize].stats(),
            agents[r.agent as usize].stats(),
        );
        let ss0 = snapshot.map_or(&zero_agent, |sn| &sn.agents[s.agent as usize]);
        let rs0 = snapshot.map_or(&zero_agent, |sn| &sn.agents[r.agent as usize]);
        // Goodput is in-order delivery to the application, as every reference measures it;
        // arrival also counts bytes held above a gap, so that data that reached the receiver
        // before the window and was released inside it does not count there.
        let arrived = |a: &AgentStats| a.app_bytes_delivered + a.app_bytes_held;
        let arrival = (arrived(&rs) - arrived(rs0)) as f64 * 8.0 / window_s;
        let goodput = (rs.app_bytes_delivered - rs0.app_bytes_delivered) as f64 * 8.0 / window_s;
        goodputs.push(goodput);
        // Packets count in the window of the instant they were sent (docs/metrics.md): a
        // packet sent before the warm-up's end and delivered or dropped after it counts
        // nowhere, so received + lost <= sent in the window as over the whole run.
        let window = &fs.window;
        let received = window.delivered_packets;
        let delay_ns = window.delivered_delay_ns;
        flows.insert(
            f.name.clone(),
            FlowSummary {
                protocol: f.protocol.name(),
                goodput_bps: goodput,
                arrival_bps: arrival,
                held_at_start_bytes: rs0.app_bytes_held,
                sent_packets: fs.sent_packets - f0.sent_packets,
                sent_bytes: fs.sent_bytes - f0.sent_bytes,
                received_packets: received,
                received_bytes: window.delivered_bytes,
                lost_packets: window.dropped_packets,
                retransmitted_packets: fs.retransmitted_packets - f0.retransmitted_packets,
                timeouts: ss.timeouts - ss0.timeouts,
                completion_time_s: ss.completed_at.map(|t| (t.0 - f.start.0 .0) as f64 / 1e9),
                greedy: f.size.is_none() && family(f.protocol) != Family::Udp,
                mean_delay_s: (received > 0).then(|| delay_ns as f64 / 1e9 / received as f64),
                route: run
                    .paths
                    .get(i)
                    .and_then(|p| p.as_ref()?.names(run.node_names)),
                paths: run.paths.get(i).and_then(|p| p.as_ref().map(|p| p.paths)),
            },
        );
    }
    let mut links = BTreeMap::new();
    let mut tx_total = 0;
    // DualPI2's drop reasons are listed only in runs with a DualPI2 link, so that every
    // other run's summary stays as it was.
    let any_dual = run.links.iter().any(|(_, id)| sim.dualpi2(*id).is_some());
    // Likewise the reason of a user's queue discipline.
    let any_custom = run
        .links
        .iter()
        .any(|(_, id)| sim.has_queue_discipline(*id));
    for (name, id) in run.links {
        let ls = &sim.link_stats_now(*id);
        tx_total += ls.tx_packets;
        let l0 = snapshot.map_or(&zero_link, |sn| &sn.links[id.0 as usize]);
        let drops_by_reason = DropReason::ALL
            .iter()
            .filter(|r| any_dual || !r.dualpi2_only())
            .filter(|r| any_custom || !r.custom_only())
            .map(|r| (r.name(), ls.drops[*r as usize] - l0.drops[*r as usize]))
            .collect();
        let dualpi2 = sim.dualpi2(*id).map(|d| {
            let zero = ccsim_engine::DualPi2Stats::default();
            let d0 = snapshot
                .and_then(|sn| sn.dualpi2.get(id.0 as usize))
                .and_then(Option::as_ref)
                .unwrap_or(&zero);
            let w = d.stats.since(d0);
            Dualpi2Summary {
                l_packets: w.packets_in_l,
                c_packets: w.packets_in_c,
                l_step_marks: w.l_step_marks,
                l_coupled_marks: w.l_coupled_marks,
                c_marks: w.c_marks,
                l_drops: w.l_drops,
                c_drops: w.c_drops,
                l_sojourn_mean_s: w.l_sojourn.mean_s(),
                l_sojourn_p99_s: w.l_sojourn.quantile_s(0.99),
                c_sojourn_mean_s: w.c_sojourn.mean_s(),
                c_sojourn_p99_s: w.c_sojourn.quantile_s(0.99),
                base_probability: d.base_probability(),
            }
        });
        links.insert(
            name.clone(),
            LinkSummary {
                utilization: (ls.busy_ns - l0.busy_ns) as f64 / (end - start) as f64,
                drops: ls.total_drops() - l0.total_drops(),
                drops_by_reason,
                mean_queue_packets: (ls.queue_integral - l0.queue_integral) as f64
                    / (end - start) as f64,
                tx_packets: ls.tx_packets - l0.tx_packets,
                ecn_marks: ls.ecn_marks - l0.ecn_marks,
                dualpi2,
            },
        );
    }
    let events = sim.events_processed();
    Summary {
        aggregate: aggregate(spec, &flows, &goodputs),
        flows,
        links,
        fairness: Fairness {
            jain: jain(&goodputs),
        },
        node_drops: node_drops(spec, &run),
        topology: topology(spec, &run),
        ticp: run.ticp,
        tcpm: run.tcpm,
        traffic: run.traffic,
        run: RunInfo {
            seed: spec.run.seed,
            spec_hash,
            events,
            sim_seconds: end as f64 / 1e9,
            warmup_seconds: start as f64 / 1e9,
            wall_seconds,
            events_per_second: events as f64 / wall_seconds.max(1e-9),
            packets_per_second: tx_total as f64 / wall_seconds.max(1e-9),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{jain, percentiles};

    #[test]
    fn percentiles_interpolate_between_closest_ranks() {
        // numpy.percentile's default ("linear") on 0..=10: p10 = 1, median = 5, p90 = 9.
        let xs: Vec<f64> = (0..=10).rev().map(f64::from).collect();
        let p = percentiles(&xs).unwrap();
        assert_eq!(
            (p.min, p.p10, p.median, p.p90, p.max),
            (0.0, 1.0, 5.0, 9.0, 10.0)
        );
        // Two values: the 10th percentile lies a tenth of the way.
        assert_eq!(percentiles(&[0.0, 10.0]).unwrap().p10, 1.0);
        assert!(percentiles(&[]).is_none());
    }

    #[test]
    fn jain_index_follows_its_definition() {
        assert_eq!(jain(&[5.0, 5.0, 5.0]), Some(1.0));
        // One flow of n takes everything: 1/n.
        assert_eq!(jain(&[8.0, 0.0, 0.0, 0.0]), Some(0.25));
        assert_eq!(jain(&[1.0, 3.0]), Some(16.0 / 20.0));
        assert_eq!(jain(&[]), None);
        assert_eq!(jain(&[0.0, 0.0]), None);
    }
}
