//! TICP sessions of a scenario (`[[ticp]]`, checked in [`crate::spec::ticp`]): building their
//! agents and groups, and summarising them.
//!
//! Each session adds three flows: "<name>" (the collector's entity: its variables, and the
//! report throughput at the collector as its rate), "<name>/requests" and "<name>/reports".
//! CHOICE: with explicit clusters, source IDs follow the clusters' rank: nodes nearest the
//! collector (by the run's route metric: total propagation delay, or hops) first, ties by
//! name, as the paper numbers its sources.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use ccsim_core::{Addr, Dur, FlowId, SimTime};
use ccsim_engine::NodeId;
use ccsim_protocols::ticp::{
    BinningConfig, ClusterInfo, Clustering, Delivery, Directory, HostInfo, TicpConfig,
};
use ccsim_protocols::{AnyAgent, LandmarkEcho, TicpCollector, TicpSourceHost};
use serde::Serialize;

use crate::netsim::NetSim;
use crate::spec::ticp::{TicpClusters, TicpDelivery, TICP_GROUPS_PER_SESSION};
use crate::spec::{Routing, Spec};

/// What the summary needs of one built session.
pub struct TicpHandles {
    /// The collector agent.
    pub collector: Addr,
    /// Per host: its node's name and block of (virtual) source IDs.
    pub hosts: Vec<(String, HostInfo)>,
    /// Requests and reports flows.
    pub flows: (FlowId, FlowId),
}

/// Per-cluster results of a session's first round.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TicpClusterSummary {
    /// The cluster's nodes.
    pub nodes: Vec<String>,
    /// Sources in the cluster.
    pub sources: u64,
    /// The bin's level vector (binning only).
    pub bin: Option<Vec<u32>>,
    /// First and last request of round 1 to the cluster, seconds.
    pub first_request_s: Option<f64>,
    /// Last request of round 1, seconds.
    pub last_request_s: Option<f64>,
    /// Request bytes of round 1 over [first, last request], bit/s.
    pub request_rate_bps: Option<f64>,
    /// Report bytes received during round 1 over [first, last report], bit/s.
    pub report_rate_bps: Option<f64>,
}

/// One session's results (`ticp.<name>` in `summary.json`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TicpSummary {
    /// Seconds from the first request to the last report; absent if incomplete.
    pub duration_s: Option<f64>,
    /// When the session proper began (after binning), seconds.
    pub began_s: Option<f64>,
    /// Reports expected (sources times report packets).
    pub reports_expected: u64,
    /// Distinct reports received.
    pub reports_received: u64,
    /// Rounds of probing.
    pub rounds: u32,
    /// Reports that arrived after their deadline.
    pub delayed_reports: u64,
    /// Reports for sources already collected.
    pub duplicate_reports: u64,
    /// Request messages sent.
    pub requests_sent: u64,
    /// Request packets sent.
    pub request_packets: u64,
    /// Window halvings (congestion).
    pub window_halvings: u64,
    /// Window resets to RS (severe congestion).
    pub window_resets: u64,
    /// The collector's bin (binning only).
    pub collector_bin: Option<Vec<u32>>,
    /// Clusters in probing order.
    pub clusters: Vec<TicpClusterSummary>,
}

/// Shortest-path distance from `from` to every node (by delay or hops), from the spec.
fn distances(spec: &Spec, from: &str) -> BTreeMap<String, u64> {
    let mut adj: BTreeMap<&str, Vec<(&str, u64)>> = BTreeMap::new();
    for l in &spec.links {
        let w = match spec.run.routing {
            Routing::Delay => l.delay.0 .0,
            Routing::Hops => 1,
        };
        let [a, b] = &l.between;
        adj.entry(a).or_default().push((b, w));
        adj.entry(b).or_default().push((a, w));
    }
    let mut dist: BTreeMap<String, u64> = BTreeMap::new();
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((0u64, from.to_string())));
    while let Some(Reverse((d, n))) = heap.pop() {
        if dist.contains_key(&n) {
            continue;
        }
        dist.insert(n.clone(), d);
        for &(m, w) in adj.get(n.as_str()).map_or(&[][..], Vec::as_slice) {
            if !dist.contains_key(m) {
                heap.push(Reverse((d + w, m.to_string())));
            }
        }
    }
    dist
}

/// Add every session's flows, agents and groups (before routes are built).
pub(crate) fn add_sessions(
    spec: &Spec,
    sim: &mut NetSim,
    node_ids: &BTreeMap<String, NodeId>,
) -> Vec<TicpHandles> {
    let mut out = Vec::new();
    for (i, t) in spec.ticp.iter().enumerate() {
        let session = sim.add_flow(&t.name);
        let requests = sim.add_flow(&format!("{}/requests", t.name));
        let reports = sim.add_flow(&format!("{}/reports", t.name));
        let group_base = u32::try_from(i).unwrap_or(0) * TICP_GROUPS_PER_SESSION;
        let dist = distances(spec, &t.collector);
        let mut nodes: Vec<(&String, u32)> = t.sources.iter().map(|(n, &c)| (n, c)).collect();
        nodes.sort_by_key(|(n, _)| (dist.get(*n).copied().unwrap_or(u64::MAX), (*n).clone()));
        let collector_node = node_ids[&t.collector];
        let collector = sim.next_agent_addr(collector_node);
        let mut hosts = Vec::new();
        let mut first = 0u32;
        for (j, (name, count)) in nodes.iter().enumerate() {
            let addr = Addr {
                node: node_ids[*name].0,
                agent: collector.agent + 1 + u32::try_from(j).unwrap_or(0),
            };
            let count = count * t.report_packets;
            hosts.push(((*name).clone(), HostInfo { addr, first, count }));
            first += count;
        }
        let landmark_addrs: Vec<Addr> = t
            .landmarks
            .iter()
            .enumerate()
            .map(|(k, l)| Addr {
                node: node_ids[l].0,
                agent: collector.agent + 1 + u32::try_from(hosts.len() + k).unwrap_or(0),
            })
            .collect();
        let dir = Directory::new(hosts.iter().map(|(_, h)| *h).collect());
        let delivery = match t.delivery {
            TicpDelivery::Multicast => Delivery::Multicast,
            TicpDelivery::Unicast => Delivery::Unicast,
            TicpDelivery::Relay => Delivery::Relay,
        };
        let binning = (t.clusters == TicpClusters::Binning).then(|| BinningConfig {
            landmarks: landmark_addrs.clone(),
            thresholds: t.bin_thresholds.iter().map(|d| d.0).collect(),
            probes: t.probes,
            phase: t.binning_phase.0,
            group_base,
        });
        let clustering = match &binning {
            Some(b) => Clustering::Binning(b.clone()),
            None => Clustering::Explicit(
                (0..hosts.len())
                    .map(|j| ClusterInfo {
                        hosts: vec![j],
                        group: Some(group_base + u32::try_from(j).unwrap_or(0)),
                        bin: None,
                    })
                    .collect(),
            ),
        };
        let request_size = u32::try_from(t.request_size.0 .0).unwrap_or(u32::MAX);
        let report_size = u32::try_from(t.report_size.0 .0).unwrap_or(u32::MAX);
        let mut cfg = TicpConfig::new(t.rs, request_size, delivery, (requests, reports));
        cfg.initial_to = t.initial_timeout.0;
        cfg.allotted = t.allotted.map(|a| a.0);
        let start = SimTime(t.start.0 .0);
        let c = sim.add_agent(
            collector_node,
            session,
            &format!("ticp/{}/collector", t.name),
            AnyAgent::TicpCollector(Box::new(TicpCollector::new(cfg, dir.clone(), clustering))),
        );
        debug_assert_eq!(c, collector);
        sim.set_flow_receiver(session, c);
        sim.schedule_start(c, start);
        for (j, (name, info)) in hosts.iter().enumerate() {
            let host = TicpSourceHost::new(
                *info,
                collector,
                (requests, reports),
                (request_size, report_size),
                dir.clone(),
                binning.clone(),
            );
            let a = sim.add_agent(
                node_ids[name],
                reports,
                &format!("ticp/{}/host/{name}", t.name),
                AnyAgent::TicpSource(Box::new(host)),
            );
            debug_assert_eq!(a, info.addr);
            if binning.is_some() {
                sim.schedule_start(a, start);
            } else if delivery == Delivery::Multicast {
                sim.join_group(group_base + u32::try_from(j).unwrap_or(0), a);
            }
        }
        for (k, l) in t.landmarks.iter().enumerate() {
            let a = sim.add_agent(
                node_ids[l],
                reports,
                &format!("ticp/{}/landmark/{l}", t.name),
                AnyAgent::Landmark(LandmarkEcho),
            );
            debug_assert_eq!(a, landmark_addrs[k]);
        }
        out.push(TicpHandles {
            collector,
            hosts,
            flows: (requests, reports),
        });
    }
    out
}

fn secs(t: Option<SimTime>) -> Option<f64> {
    t.map(SimTime::as_secs_f64)
}

fn rate(bytes: u64, from: Option<SimTime>, to: Option<SimTime>) -> Option<f64> {
    let span = to?.since(from?);
    (span > Dur::ZERO).then(|| bytes as f64 * 8.0 / span.as_secs_f64())
}

fn collector(sim: &NetSim, addr: Addr) -> Option<&TicpCollector> {
    match sim.agents().get(addr.agent as usize)? {
        AnyAgent::TicpCollector(c) => Some(c),
        _ => None,
    }
}

/// `ticp.<name>` of the summary.
pub(crate) fn summaries(
    spec: &Spec,
    sim: &NetSim,
    handles: &[TicpHandles],
) -> BTreeMap<String, TicpSummary> {
    let mut out = BTreeMap::new();
    for (t, h) in spec.ticp.iter().zip(handles) {
        let Some(c) = collector(sim, h.collector) else {
            continue;
        };
        let clusters = c
            .clusters()
            .iter()
            .zip(c.cluster_stats())
            .map(|(info, st)| TicpClusterSummary {
                nodes: info.hosts.iter().map(|&j| h.hosts[j].0.clone()).collect(),
                sources: info
                    .hosts
                    .iter()
                    .map(|&j| u64::from(h.hosts[j].1.count / t.report_packets))
                    .sum(),
                bin: info.bin.clone(),
                first_request_s: secs(st.first_request),
                last_request_s: secs(st.last_request),
                request_rate_bps: rate(st.request_bytes, st.first_request, st.last_request),
                report_rate_bps: rate(st.report_bytes, st.first_report, st.last_report),
            })
            .collect();
        let (requests_sent, request_packets) = c.requests_sent();
        let (halvings, resets) = c.reactions();
        out.insert(
            t.name.clone(),
            TicpSummary {
                duration_s: c
                    .finished()
                    .zip(c.began())
                    .map(|(f, b)| f.since(b).as_secs_f64()),
                began_s: secs(c.began()),
                reports_expected: u64::from(c.expected()),
                reports_received: u64::from(c.received()),
                rounds: c.round(),
                delayed_reports: c.delayed_reports(),
                duplicate_reports: c.duplicate_reports(),
                requests_sent,
                request_packets,
                window_halvings: halvings,
                window_resets: resets,
                collector_bin: c.own_bin(),
                clusters,
            },
        );
    }
    out
}

/// Per-source rows of every session: (session, source, node, cluster rank, arrival seconds
/// or NaN, round, delayed). A source of several report packets arrives with its last packet
/// and counts as delayed if any packet was.
pub struct TicpTable {
    /// Session name per row.
    pub session: Vec<String>,
    /// Source number within the session (0-based, in probing order of explicit clusters).
    pub source: Vec<u32>,
    /// Node the source is attached at.
    pub node: Vec<String>,
    /// Rank of the source's cluster.
    pub cluster: Vec<u32>,
    /// Arrival of its (last) report packet, seconds; NaN if missing.
    pub arrived_s: Vec<f64>,
    /// Round of the request that produced it (0 if missing).
    pub round: Vec<u32>,
    /// Whether any of its packets was delayed.
    pub delayed: Vec<bool>,
}

pub(crate) fn table(spec: &Spec, sim: &NetSim, handles: &[TicpHandles]) -> TicpTable {
    let mut tab = TicpTable {
        session: Vec::new(),
        source: Vec::new(),
        node: Vec::new(),
        cluster: Vec::new(),
        arrived_s: Vec::new(),
        round: Vec::new(),
        delayed: Vec::new(),
    };
    for (t, h) in spec.ticp.iter().zip(handles) {
        let Some(c) = collector(sim, h.collector) else {
            continue;
        };
        let x = t.report_packets;
        for (node, info) in &h.hosts {
            for s in info.first / x..(info.first + info.count) / x {
                let parts: Vec<_> = (s * x..(s + 1) * x)
                    .map(|v| c.arrivals()[v as usize])
                    .collect();
                let all = parts.iter().all(Option::is_some);
                let last = parts.iter().flatten().max_by_key(|a| a.at);
                tab.session.push(t.name.clone());
                tab.source.push(s);
                tab.node.push(node.clone());
                tab.cluster.push(c.cluster_of(s * x).unwrap_or(u32::MAX));
                tab.arrived_s.push(match (all, last) {
                    (true, Some(a)) => a.at.as_secs_f64(),
                    _ => f64::NAN,
                });
                tab.round
                    .push(if all { last.map_or(0, |a| a.round) } else { 0 });
                tab.delayed.push(parts.iter().flatten().any(|a| a.delayed));
            }
        }
    }
    tab
}
