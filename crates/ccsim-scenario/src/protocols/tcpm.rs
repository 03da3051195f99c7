//! TCP-M sessions of a scenario (`[[tcpm]]`, checked in [`crate::spec::tcpm`]): building
//! their agents and relays, and summarising them.
//!
//! Each session is one flow, "<name>": data to the group, ACKs and control messages; the
//! flow's rate is the bytes acknowledged at the source by every receiver that counts (the
//! fused ACK stream), and its variables are the embedded TCP's.
//! CHOICE: fusion nodes are placed on the session's multicast tree as the routes stand when
//! the run starts (the nodes on the paths from the source to its receivers, the source
//! excluded: it always fuses, inside the source agent). PATH, which gives fusion nodes their
//! place in the session, is sent only at set-up (section 4.1), so a node that joins the tree
//! after a failure has no role in the paper's design either; ACKs and REVERSE_PATHs to the
//! existing fusion nodes follow the new routes (section 4.5).

use std::collections::{BTreeMap, BTreeSet};

use ccsim_core::{Addr, Agent, FlowId, SimTime};
use ccsim_engine::NodeId;
use ccsim_protocols::tcpm::{DuplicateRule, FailureStage};
use ccsim_protocols::{AnyAgent, FusionNode, TcpmParams, TcpmReceiver, TcpmSource};
use serde::Serialize;

use super::{build_flow, FlowContext};
use crate::error::ScenarioError;
use crate::netsim::{NetSim, RunOptions};
use crate::spec::tcpm::{DuplicateRuleSpec, FusionSpec, TcpmSpec, TCPM_GROUP_BASE};
use crate::spec::Spec;

/// What the summary needs of one built session.
pub struct TcpmHandles {
    /// The session's flow.
    pub flow: FlowId,
    /// The source agent.
    pub source: Addr,
    /// The receivers: node name and agent.
    pub receivers: Vec<(String, Addr)>,
    /// The fusion-node agents: node name and agent.
    pub fusion: Vec<(String, Addr)>,
}

/// A failure the Group Module reported.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TcpmFailure {
    /// The receiver's node.
    pub receiver: String,
    /// When it was reported, seconds.
    pub at_s: f64,
    /// "join", "path" or "timeout".
    pub stage: &'static str,
    /// When a REVERSE_PATH from it arrived again, seconds.
    pub revived_s: Option<f64>,
}

/// A child a fusion node (or the source) declared dead (Figure 6).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TcpmDeath {
    /// The fusion node's node.
    pub node: String,
    /// The child's node.
    pub child: String,
    /// When, seconds.
    pub at_s: f64,
}

/// One session's results (`tcpm.<name>` in `summary.json`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TcpmSummary {
    /// Application bytes acknowledged at the source by every counted receiver, over the data
    /// phase (from its start to the last byte's acknowledgement, or to the end of the run),
    /// bit/s.
    pub throughput_bps: Option<f64>,
    /// Application bytes acknowledged at the source.
    pub acked_bytes: u64,
    /// When the data phase began (set-up done), seconds.
    pub data_start_s: Option<f64>,
    /// When the last byte was acknowledged, seconds.
    pub data_done_s: Option<f64>,
    /// When the fused FIN_ACK arrived (the session closed), seconds.
    pub completion_s: Option<f64>,
    /// Receivers that confirmed the whole transfer (TCP-M_CLOSE).
    pub completed: Vec<String>,
    /// Receivers the application was told failed: once the session closed, every receiver
    /// without a TCP-M_CLOSE; before, those reported failed and not revived.
    pub failed: Vec<String>,
    /// Every failure report, in order.
    pub failures: Vec<TcpmFailure>,
    /// Whether the transfer was abandoned (every receiver failed).
    pub abandoned: bool,
    /// Encapsulated ACKs that reached the source.
    pub acks_at_source: u64,
    /// Fused ACKs the source handed to its TCP.
    pub acks_to_tcp: u64,
    /// ACKs the receivers sent.
    pub acks_from_receivers: u64,
    /// REVERSE_PATH messages the receivers sent.
    pub reverse_paths: u64,
    /// Segments the embedded TCP retransmitted.
    pub retransmissions: u64,
    /// Retransmission timeouts the embedded TCP took.
    pub timeouts: u64,
    /// Per fusion node with children (the source included): the most children its table held.
    pub fusion_nodes: BTreeMap<String, u64>,
    /// The largest table's children.
    pub max_fusion_children: u64,
    /// Section 5.4's memory of the largest table, 3n + 3 words.
    pub max_fusion_memory_words: u64,
    /// Children declared dead by fusion nodes and the source.
    pub deaths: Vec<TcpmDeath>,
}

/// The embedded TCP's sender and its receivers' sink, built as a flow of its protocol.
fn embedded_tcp(
    spec: &Spec,
    i: usize,
    flow: FlowId,
    options: &RunOptions,
) -> Result<(ccsim_protocols::TcpSender, ccsim_protocols::TcpSink, u32), ScenarioError> {
    let t = &spec.tcpm[i];
    let template = t.tcp_template(i)?;
    let packet_size = u32::try_from(t.packet_size.0 .0)
        .map_err(|_| ScenarioError::Internal("packet size".into()))?;
    let cx = FlowContext {
        flow,
        receiver: Addr::group(TCPM_GROUP_BASE + u32::try_from(i).unwrap_or(0)),
        packet_size,
        options,
        spec_path: &format!("tcpm[{i}]"),
    };
    match build_flow(&template, &cx)? {
        (AnyAgent::Tcp(sender), AnyAgent::TcpSink(sink)) => Ok((*sender, sink, packet_size)),
        _ => Err(ScenarioError::Internal(
            "a TCP-M session's protocol is a TCP".into(),
        )),
    }
}

fn params(t: &TcpmSpec) -> TcpmParams {
    TcpmParams {
        rcvr_timeout: t.rcvr_timeout.0,
        tcpm_timeout: t.tcpm_timeout.0,
        max_duplicate: t.max_duplicate,
        duplicates: match t.duplicate_rule {
            DuplicateRuleSpec::Figure4 => DuplicateRule::Figure4,
            DuplicateRuleSpec::Fused => DuplicateRule::Fused,
        },
        join_timeout: t.join_timeout.0,
        join_retries: t.join_retries,
        path_timeout: t.path_timeout.0,
        path_retries: t.path_retries,
    }
}

/// Add every session's flow, source and receivers (before routes are built).
pub(crate) fn add_sessions(
    spec: &Spec,
    sim: &mut NetSim,
    node: &dyn Fn(&str) -> NodeId,
    options: &RunOptions,
) -> Result<Vec<TcpmHandles>, ScenarioError> {
    let mut out = Vec::with_capacity(spec.tcpm.len());
    for (i, t) in spec.tcpm.iter().enumerate() {
        let flow = sim.add_flow(&t.name);
        let group = TCPM_GROUP_BASE + u32::try_from(i).unwrap_or(0);
        let (sender, sink, packet_size) = embedded_tcp(spec, i, flow, options)?;
        let params = params(t);
        let receivers: Vec<(String, Addr)> = t
            .receivers
            .iter()
            .map(|r| {
                let agent = TcpmReceiver::new(flow, group, params.rcvr_timeout, sink.clone());
                let addr = sim.add_agent(
                    node(r),
                    flow,
                    &format!("tcpm/{}/receiver/{r}", t.name),
                    AnyAgent::TcpmReceiver(Box::new(agent)),
                );
                (r.clone(), addr)
            })
            .collect();
        let source = TcpmSource::new(
            flow,
            group,
            params,
            sender,
            (packet_size, t.size.map(|s| s.0 .0)),
            receivers.iter().map(|r| r.1).collect(),
        );
        let s = sim.add_agent(
            node(&t.source),
            flow,
            &format!("tcpm/{}/source", t.name),
            AnyAgent::TcpmSource(Box::new(source)),
        );
        sim.set_flow_receiver(flow, s);
        sim.schedule_start(s, SimTime(t.start.0 .0));
        if let Some(stop) = t.stop {
            sim.schedule_stop(s, SimTime(stop.0 .0));
        }
        out.push(TcpmHandles {
            flow,
            source: s,
            receivers,
            fusion: Vec::new(),
        });
    }
    Ok(out)
}

/// The nodes on the paths from `source` to `receivers` under the routes in force, the source
/// excluded.
pub(crate) fn tree_nodes(sim: &NetSim, source: NodeId, receivers: &[NodeId]) -> BTreeSet<u32> {
    let mut nodes = BTreeSet::new();
    for &r in receivers {
        for l in sim.route(source, r).unwrap_or_default() {
            nodes.insert(sim.link_ends(l).1 .0);
        }
    }
    nodes
}

/// Add each session's fusion nodes on its multicast tree (once routes are built).
pub(crate) fn add_fusion_nodes(
    spec: &Spec,
    sim: &mut NetSim,
    node: &dyn Fn(&str) -> NodeId,
    node_names: &[String],
    handles: &mut [TcpmHandles],
) {
    for (i, (t, h)) in spec.tcpm.iter().zip(handles.iter_mut()).enumerate() {
        let group = TCPM_GROUP_BASE + u32::try_from(i).unwrap_or(0);
        let receivers: Vec<NodeId> = t.receivers.iter().map(|r| node(r)).collect();
        let on_tree = tree_nodes(sim, node(&t.source), &receivers);
        let chosen: BTreeSet<u32> = match &t.fusion {
            FusionSpec::All => on_tree,
            FusionSpec::Source => BTreeSet::new(),
            FusionSpec::Nodes(list) => list
                .iter()
                .map(|n| node(n).0)
                .filter(|n| on_tree.contains(n))
                .collect(),
        };
        for n in chosen {
            let name = &node_names[n as usize];
            let agent = FusionNode::new(h.flow, group, &params(t));
            let addr = sim.add_agent(
                NodeId(n),
                h.flow,
                &format!("tcpm/{}/fusion/{name}", t.name),
                AnyAgent::Fusion(Box::new(agent)),
            );
            sim.add_group_relay(group, addr);
            h.fusion.push((name.clone(), addr));
        }
    }
}

fn secs(t: Option<SimTime>) -> Option<f64> {
    t.map(SimTime::as_secs_f64)
}

/// `tcpm.<name>` of the summary.
pub(crate) fn summaries(
    spec: &Spec,
    sim: &NetSim,
    node_names: &[String],
    handles: &[TcpmHandles],
) -> BTreeMap<String, TcpmSummary> {
    let mut out = BTreeMap::new();
    let end = SimTime(spec.run.duration.0 .0);
    for (t, h) in spec.tcpm.iter().zip(handles) {
        let Some(AnyAgent::TcpmSource(src)) = sim.agent(h.source) else {
            continue;
        };
        let name_of = |a: Addr| node_names.get(a.node as usize).cloned().unwrap_or_default();
        let states = src.receiver_states();
        let closed = src.closed_at().is_some();
        let completed: Vec<String> = h
            .receivers
            .iter()
            .zip(&states)
            .filter(|(_, s)| s.1)
            .map(|(r, _)| r.0.clone())
            .collect();
        let failed: Vec<String> = h
            .receivers
            .iter()
            .zip(&states)
            .filter(|(_, s)| if closed { !s.1 } else { s.2 })
            .map(|(r, _)| r.0.clone())
            .collect();
        let failures = src
            .failures()
            .iter()
            .map(|f| TcpmFailure {
                receiver: h.receivers[f.receiver].0.clone(),
                at_s: f.at.as_secs_f64(),
                stage: match f.stage {
                    FailureStage::Join => "join",
                    FailureStage::Path => "path",
                    FailureStage::Timeout => "timeout",
                },
                revived_s: secs(f.revived_at),
            })
            .collect();
        let (mut acks_from_receivers, mut reverse_paths) = (0, 0);
        for (_, r) in &h.receivers {
            if let Some(AnyAgent::TcpmReceiver(r)) = sim.agent(*r) {
                acks_from_receivers += r.acks_sent();
                reverse_paths += r.reverse_paths();
            }
        }
        let mut fusion_nodes = BTreeMap::new();
        let mut deaths: Vec<TcpmDeath> = src
            .deaths()
            .iter()
            .map(|&(child, at)| TcpmDeath {
                node: t.source.clone(),
                child: name_of(child),
                at_s: at.as_secs_f64(),
            })
            .collect();
        let mut largest = src.table().max_children();
        if largest > 0 {
            fusion_nodes.insert(t.source.clone(), largest as u64);
        }
        for (name, a) in &h.fusion {
            if let Some(AnyAgent::Fusion(f)) = sim.agent(*a) {
                let n = f.table().max_children();
                if n > 0 {
                    fusion_nodes.insert(name.clone(), n as u64);
                }
                largest = largest.max(n);
                deaths.extend(f.deaths().iter().map(|&(child, at)| TcpmDeath {
                    node: name.clone(),
                    child: name_of(child),
                    at_s: at.as_secs_f64(),
                }));
            }
        }
        deaths.sort_by(|a, b| a.at_s.total_cmp(&b.at_s).then(a.node.cmp(&b.node)));
        let (acks_at_source, acks_to_tcp) = src.ack_counts();
        let tcp = src.tcp().stats();
        let throughput_bps = src.data_start().and_then(|start| {
            let stop = src.data_done().unwrap_or(end);
            let span = stop.since(start).as_secs_f64();
            (span > 0.0).then(|| src.acked_bytes() as f64 * 8.0 / span)
        });
        out.insert(
            t.name.clone(),
            TcpmSummary {
                throughput_bps,
                acked_bytes: src.acked_bytes(),
                data_start_s: secs(src.data_start()),
                data_done_s: secs(src.data_done()),
                completion_s: secs(src.closed_at()),
                completed,
                failed,
                failures,
                abandoned: src.abandoned(),
                acks_at_source,
                acks_to_tcp,
                acks_from_receivers,
                reverse_paths,
                retransmissions: tcp.retransmitted_packets,
                timeouts: tcp.timeouts,
                fusion_nodes,
                max_fusion_children: largest as u64,
                max_fusion_memory_words: 3 * largest as u64 + 3,
                deaths,
            },
        );
    }
    out
}
