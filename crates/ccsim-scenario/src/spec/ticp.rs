//! TICP sessions (the TICP paper; crates/ccsim-protocols/src/ticp): the `[[ticp]]` keys and
//! their checks; the builder and the session summary are in [`crate::protocols::ticp`].

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::ScenarioError;
use crate::spec::{before_end, check_name, err, show, zero_dur, Graph, Spec};
use crate::units::{BytesStr, DurStr};

/// A TICP collection session: a collector probing the sources attached at some nodes.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TicpSpec {
    /// Unique name (keys the results; its flows are "<name>", "<name>/requests" and
    /// "<name>/reports").
    pub name: String,
    /// The collector's node.
    pub collector: String,
    /// Number of sources attached at each node.
    pub sources: BTreeMap<String, u32>,
    /// RS: request messages per request packet.
    #[serde(default = "default_rs")]
    pub rs: u32,
    /// Size of one request message (a request packet of k messages is k times this).
    #[serde(default = "default_request_size")]
    pub request_size: BytesStr,
    /// Size of one report packet.
    #[serde(default = "default_report_size")]
    pub report_size: BytesStr,
    /// Packets per source's report (a report of X packets is X virtual sources).
    #[serde(default = "default_report_packets")]
    pub report_packets: u32,
    /// How requests reach the sources: "multicast", "unicast" or "relay".
    #[serde(default)]
    pub delivery: TicpDelivery,
    /// "explicit" (one cluster per attachment node, nearest first) or "binning".
    #[serde(default)]
    pub clusters: TicpClusters,
    /// Landmark nodes (binning only).
    #[serde(default, skip_serializing_if = "crate::spec::omit_empty")]
    pub landmarks: Vec<String>,
    /// RTT level thresholds of binning, ascending.
    #[serde(default = "default_bin_thresholds")]
    pub bin_thresholds: Vec<DurStr>,
    /// Probes per landmark (binning).
    #[serde(default = "default_probes")]
    pub probes: u32,
    /// Length of the binning phase, which precedes the session proper.
    #[serde(default = "default_binning_phase")]
    pub binning_phase: DurStr,
    /// When the session (or its binning phase) starts.
    #[serde(default = "zero_dur")]
    pub start: DurStr,
    /// Stop collecting this long after the session proper began.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub allotted: Option<DurStr>,
    /// The timer before the first RTT sample.
    #[serde(default = "default_initial_timeout")]
    pub initial_timeout: DurStr,
}

fn default_rs() -> u32 {
    1
}
fn default_request_size() -> BytesStr {
    BytesStr(ccsim_core::Bytes(1000))
}
fn default_report_size() -> BytesStr {
    BytesStr(ccsim_core::Bytes(100))
}
fn default_report_packets() -> u32 {
    1
}
fn default_bin_thresholds() -> Vec<DurStr> {
    vec![
        DurStr(ccsim_core::Dur::from_millis(100)),
        DurStr(ccsim_core::Dur::from_millis(200)),
    ]
}
fn default_probes() -> u32 {
    3
}
fn default_binning_phase() -> DurStr {
    DurStr(ccsim_core::Dur::from_secs(2))
}
fn default_initial_timeout() -> DurStr {
    DurStr(ccsim_core::Dur::from_secs(3))
}

/// How TICP requests reach the sources.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum TicpDelivery {
    /// One multicast group per cluster.
    #[default]
    Multicast,
    /// One unicast packet per request message.
    Unicast,
    /// Unicast to one host per cluster, which forwards to the others.
    Relay,
}

/// How TICP sources are clustered.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum TicpClusters {
    /// One cluster per attachment node, ranked by path delay from the collector.
    #[default]
    Explicit,
    /// Landmark binning with probe packets before the session.
    Binning,
}

/// Most sources of all TICP sessions together, counting a multi-packet report as several:
/// the collector keeps a few words per source and the results a row per source.
pub const MAX_TICP_SOURCES: u64 = 1 << 22;
/// Multicast group keys reserved per TICP session (bins or clusters).
pub const TICP_GROUPS_PER_SESSION: u32 = 1 << 20;

/// The TICP sessions' checks; their flow names join `names`.
pub(crate) fn validate(
    spec: &Spec,
    graph: &Graph,
    names: &mut BTreeMap<String, usize>,
) -> Result<(), ScenarioError> {
    let known = |path: String, node: &String| graph.check_node(path, node);
    if spec.ticp.len() > 4095 {
        return err("ticp".into(), "at most 4095 sessions".into());
    }
    let mut sessions: BTreeMap<String, usize> = BTreeMap::new();
    let mut all_sources: u64 = 0;
    for (i, t) in spec.ticp.iter().enumerate() {
        let p = |field: &str| format!("ticp[{i}].{field}");
        check_name(&p("name"), &t.name)?;
        if let Some(first) = sessions.insert(t.name.clone(), i) {
            return err(
                p("name"),
                format!("duplicate session name {:?} (also ticp[{first}])", t.name),
            );
        }
        for flow in [
            t.name.clone(),
            format!("{}/requests", t.name),
            format!("{}/reports", t.name),
        ] {
            if let Some(f) = names.get(&flow) {
                return err(
                    p("name"),
                    format!(
                        "session {:?} needs the flow name {flow:?}, taken by flows[{f}]",
                        t.name
                    ),
                );
            }
        }
        known(p("collector"), &t.collector)?;
        if t.sources.is_empty() {
            return err(p("sources"), "at least one source node is needed".into());
        }
        let mut total: u64 = 0;
        for (node, &count) in &t.sources {
            known(format!("ticp[{i}].sources.{node}"), node)?;
            if count == 0 {
                return err(
                    format!("ticp[{i}].sources.{node}"),
                    "must be at least 1 source".into(),
                );
            }
            if !graph.connected(&t.collector, node) {
                return err(
                    format!("ticp[{i}].sources.{node}"),
                    format!("no route from the collector {:?} to {node:?}", t.collector),
                );
            }
            total += u64::from(count);
        }
        if t.rs == 0 {
            return err(
                p("rs"),
                "must be at least 1 message per packet, found 0".into(),
            );
        }
        if t.report_packets == 0 {
            return err(p("report_packets"), "must be at least 1, found 0".into());
        }
        all_sources = all_sources.saturating_add(total.saturating_mul(u64::from(t.report_packets)));
        if all_sources > MAX_TICP_SOURCES {
            return err(
                p("sources"),
                format!(
                    "{total} sources of {} packets each bring the sessions to {all_sources} sources; at most {MAX_TICP_SOURCES} in all",
                    t.report_packets
                ),
            );
        }
        let req = t.request_size.0 .0;
        if req == 0 || req.saturating_mul(u64::from(t.rs)) > 65_535 {
            return err(
                p("request_size"),
                format!(
                    "a request packet (rs = {} messages of {}) must be 1B to 65535B",
                    t.rs,
                    show(&t.request_size)
                ),
            );
        }
        if t.report_size.0 .0 == 0 || t.report_size.0 .0 > 65_535 {
            return err(
                p("report_size"),
                format!("must be 1B to 65535B, found {}", show(&t.report_size)),
            );
        }
        before_end(p("start"), t.start, spec)?;
        if t.allotted.is_some_and(|a| a.0 .0 == 0) {
            return err(p("allotted"), "must be positive, found \"0s\"".into());
        }
        if t.initial_timeout.0 .0 == 0 {
            return err(
                p("initial_timeout"),
                "must be positive, found \"0s\"".into(),
            );
        }
        match t.clusters {
            TicpClusters::Explicit => {
                if !t.landmarks.is_empty() {
                    return err(
                        p("landmarks"),
                        "landmarks are used only with clusters = \"binning\"".into(),
                    );
                }
            }
            TicpClusters::Binning => {
                if t.landmarks.is_empty() {
                    return err(
                        p("landmarks"),
                        "binning needs at least one landmark node".into(),
                    );
                }
                for (j, l) in t.landmarks.iter().enumerate() {
                    let path = format!("ticp[{i}].landmarks[{j}]");
                    known(path.clone(), l)?;
                    let unreachable = std::iter::once(&t.collector)
                        .chain(t.sources.keys())
                        .find(|n| !graph.connected(n, l));
                    if let Some(n) = unreachable {
                        return err(path, format!("no route from {n:?} to landmark {l:?}"));
                    }
                }
                if t.bin_thresholds.windows(2).any(|w| w[0].0 >= w[1].0) {
                    return err(p("bin_thresholds"), "must be strictly ascending".into());
                }
                let levels = t.bin_thresholds.len() as f64 + 1.0;
                if levels.powi(i32::try_from(t.landmarks.len()).unwrap_or(i32::MAX))
                    > f64::from(TICP_GROUPS_PER_SESSION)
                {
                    return err(
                        p("bin_thresholds"),
                        format!(
                            "{} levels over {} landmarks make more than {TICP_GROUPS_PER_SESSION} bins",
                            levels,
                            t.landmarks.len()
                        ),
                    );
                }
            }
        }
        // Checked whatever the clusters: a value written is a value checked, even where
        // explicit clusters leave it unused.
        if t.probes == 0 || t.probes > 10 {
            return err(p("probes"), format!("must be 1 to 10, found {}", t.probes));
        }
        if t.binning_phase.0 .0 == 0 {
            return err(p("binning_phase"), "must be positive, found \"0s\"".into());
        }
    }
    Ok(())
}
