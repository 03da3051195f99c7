//! `[[traffic]]`: generators that create flows while the run goes on, the traffic mixes of
//! XCP- and OBP-style evaluations (../shared/research/next.md section 2):
//!
//! * `web`: Poisson arrivals, Pareto sizes (the XCP paper, section 5.2: mean 30 packets,
//!   shape 1.35, as ns-2's `RandomVariable/Pareto` with `avg_` and `shape_`), each flow a
//!   finite transfer over a TCP-family protocol;
//! * `voice`: calls with exponential on/off talk spurts (mean on 1 s, off 1.35 s, the NEC ns-2
//!   TCP evaluation tool after ITU-T P.59's artificial conversational speech), 64 kbit/s in
//!   200 B packets;
//! * `streaming`: constant-rate streams, 640 kbit/s in 840 B packets (the NEC tool's
//!   defaults);
//! * `flows`: a datacenter workload (docs/datacenter.md): sizes from a published flow-size
//!   CDF, arrivals at a load relative to the hosts' link rates, between hosts in a pattern
//!   (all-to-all, a permutation, incast), each flow a finite TCP-family transfer.
//!
//! CHOICE: voice sends 200 B packets at 64 kbit/s, one every 25 ms: the NEC tool's packet size
//! (160 B of G.711 payload with RTP, UDP and IP headers) at its rate; G.711 itself sends that
//! packet every 20 ms (80 kbit/s on the wire). Set `rate = "80kbps"` for the latter.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::flows::{family, validate_family, Family, FlowSpec, Protocol};
use super::{before_end, check_name, err, show, zero_dur, Graph, Spec};
use crate::error::ScenarioError;
use crate::units::{BytesStr, DurStr, RateStr};

/// What a generator makes.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum TrafficKind {
    /// Short transfers: Poisson arrivals, Pareto sizes.
    Web,
    /// Calls: exponential on/off UDP sources.
    Voice,
    /// Constant-rate UDP streams.
    Streaming,
    /// A datacenter workload: CDF sizes, a load, a pattern.
    Flows,
}

impl TrafficKind {
    /// Name used in files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TrafficKind::Web => "web",
            TrafficKind::Voice => "voice",
            TrafficKind::Streaming => "streaming",
            TrafficKind::Flows => "flows",
        }
    }
}

/// `hosts`: every single-homed node, or a list.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(untagged)]
pub enum HostsSpec {
    /// "all": every node with exactly one neighbour, in the order nodes first appear in
    /// `[[links]]`.
    All(String),
    /// The hosts by name.
    List(Vec<String>),
}

/// `sizes`: a vendored distribution's name or the CDF's points.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(untagged)]
pub enum SizesSpec {
    /// A vendored distribution ("websearch", "fb-hadoop", "google-rpc", "ali-storage",
    /// "meta-webserver", "meta-hadoop", "meta-cachefollower", "homa-w1" to "homa-w5";
    /// `crates/ccsim-scenario/workloads/PROVENANCE.md`); a file name is replaced by its points
    /// by the Python front, relative to the scenario's folder.
    Named(String),
    /// `[[bytes, percent], ...]` from `[0, 0]` to 100 percent.
    Points(Vec<(f64, f64)>),
}

/// Who sends to whom.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Pattern {
    /// Each flow from a host drawn by its link rate to another host drawn uniformly.
    #[default]
    AllToAll,
    /// Each host sends only to its image under one random derangement of the hosts.
    Permutation,
    /// Each arrival is `fan_in` flows of one drawn size from distinct hosts to one host.
    Incast,
}

impl Pattern {
    /// The name used in files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Pattern::AllToAll => "all-to-all",
            Pattern::Permutation => "permutation",
            Pattern::Incast => "incast",
        }
    }
}

/// What a workload's `load` is a fraction of.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LoadOf {
    /// The sum of the hosts' link rates.
    #[default]
    Hosts,
    /// The capacity of the cut between the first and the second half of the hosts, as the
    /// busier direction across it is offered (`crate::bisection`).
    Bisection,
}

/// The law of the gaps between arrivals.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ArrivalLaw {
    /// Exponential gaps.
    #[default]
    Poisson,
    /// Log-normal gaps with shape `sigma` (burstier for larger sigma).
    Lognormal,
}

/// A traffic generator. Keys that do not apply to its kind are refused by name.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TrafficSpec {
    /// Unique name (keys the results: `traffic.<name>`; its flows are "<name>/<k>").
    pub name: String,
    /// "web", "voice" or "streaming".
    pub kind: TrafficKind,
    /// Web: the protocol of each transfer, a TCP variant or OBP.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub protocol: Option<Protocol>,
    /// Sending nodes: web draws one per flow (seeded); voice and streaming take them in turn.
    #[serde(default, skip_serializing_if = "crate::spec::omit_empty")]
    pub from: Vec<String>,
    /// Receiving nodes, chosen as `from` is.
    #[serde(default, skip_serializing_if = "crate::spec::omit_empty")]
    pub to: Vec<String>,
    /// Flows: the hosts that send and receive, "all" or a list.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub hosts: Option<HostsSpec>,
    /// Flows: the flow-size distribution.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub sizes: Option<SizesSpec>,
    /// Flows: offered load, a fraction of each host's link rate (0 to 1).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub load: Option<f64>,
    /// Flows: what `load` is a fraction of, "hosts" (default) or "bisection".
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub load_of: Option<LoadOf>,
    /// Flows: replay these flows instead of drawing them, `[from, to, bytes, start_ns]` with
    /// `from` and `to` places in `hosts`, in order of start. The Python front reads HPCC's
    /// flow file (`flow_file = "FILE"`) into this list.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub flow_file: Option<Vec<(u32, u32, u64, u64)>>,
    /// Flows: "all-to-all" (default), "permutation" or "incast".
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub pattern: Option<Pattern>,
    /// Flows: "poisson" (default) or "lognormal" gaps between arrivals.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub arrival: Option<ArrivalLaw>,
    /// Flows with log-normal arrivals: the shape (default 2, Parsimon's).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub sigma: Option<f64>,
    /// Flows with the incast pattern: senders per arrival (default 8).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub fan_in: Option<u32>,
    /// When the generator starts.
    #[serde(default = "zero_dur")]
    pub start: DurStr,
    /// Web: no new flow after this time; voice and streaming: the sources stop (absent: the
    /// end of the run).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub stop: Option<DurStr>,
    /// Web: new flows per second (Poisson).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub arrivals: Option<f64>,
    /// Web: mean flow size (Pareto).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub mean_size: Option<BytesStr>,
    /// Web: Pareto shape (default 1.35, the XCP paper's).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub shape: Option<f64>,
    /// Voice, streaming: number of sources.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub count: Option<u32>,
    /// Voice: the rate during talk spurts (default 64kbps); streaming: the stream's rate
    /// (default 640kbps).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub rate: Option<RateStr>,
    /// Whole-packet size (defaults: web 1000B, voice 200B, streaming 840B).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub packet_size: Option<BytesStr>,
    /// Voice: mean talk spurt (default 1s).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub on: Option<DurStr>,
    /// Voice: mean silence (default 1.35s).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub off: Option<DurStr>,
    /// Web: flow keys given to every transfer (e.g. `{ ecn = true, initial_window = 10 }`).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    #[schemars(with = "Option<BTreeMap<String, serde_json::Value>>")]
    pub options: Option<serde_json::Map<String, serde_json::Value>>,
}

/// Parsimon's log-normal shape for the gaps between arrivals.
pub const DEFAULT_LOGNORMAL_SIGMA: f64 = 2.0;
/// Senders per incast arrival unless `fan_in` says.
pub const DEFAULT_FAN_IN: u32 = 8;
/// Most flows a `flow_file` may list (24 bytes each in memory).
pub const MAX_REPLAYED_FLOWS: usize = 10_000_000;
/// Most flows a `flows` generator may start per second of simulated time.
pub const MAX_FLOW_ARRIVALS: f64 = 100_000_000.0;

/// The XCP paper's Pareto shape for web flow sizes.
pub const DEFAULT_WEB_SHAPE: f64 = 1.35;
/// Most flows a web generator may start per second of simulated time.
pub const MAX_ARRIVALS: f64 = 1_000_000.0;
/// Most sources of all voice and streaming generators together.
pub const MAX_SOURCES: u64 = 1_000_000;

impl TrafficSpec {
    /// Whole-packet size, with the kind's default.
    #[must_use]
    pub fn packet_size(&self) -> u64 {
        self.packet_size.map_or(
            match self.kind {
                TrafficKind::Web => 1000,
                TrafficKind::Flows => 1500,
                TrafficKind::Voice => 200,
                TrafficKind::Streaming => 840,
            },
            |b| b.0 .0,
        )
    }
    /// The sources' rate, bit/s, with the kind's default (web flows have none).
    #[must_use]
    pub fn rate_bps(&self) -> u64 {
        self.rate.map_or(
            match self.kind {
                TrafficKind::Web | TrafficKind::Flows => 0,
                TrafficKind::Voice => 64_000,
                TrafficKind::Streaming => 640_000,
            },
            |r| r.0 .0,
        )
    }
    /// Voice: mean talk spurt and mean silence.
    #[must_use]
    pub fn on_off(&self) -> (ccsim_core::Dur, ccsim_core::Dur) {
        (
            self.on.map_or(ccsim_core::Dur::from_secs(1), |d| d.0),
            self.off.map_or(ccsim_core::Dur::from_millis(1350), |d| d.0),
        )
    }
    /// Flows: the size distribution (`None` for a name that is not vendored, refused by
    /// validation).
    #[must_use]
    pub fn flow_sizes(&self) -> Option<crate::workloads::FlowSizes> {
        match self.sizes.as_ref()? {
            SizesSpec::Named(name) => crate::workloads::FlowSizes::vendored(name),
            SizesSpec::Points(points) => crate::workloads::FlowSizes::from_points(points).ok(),
        }
    }

    /// Flows: the hosts by name (`"all"`: every node with exactly one neighbour, in the order
    /// nodes first appear in `[[links]]`).
    #[must_use]
    pub fn host_names(&self, spec: &Spec) -> Vec<String> {
        match &self.hosts {
            Some(HostsSpec::List(list)) => list.clone(),
            Some(HostsSpec::All(_)) => {
                let mut neighbours: std::collections::HashMap<&str, Vec<&str>> =
                    std::collections::HashMap::new();
                for l in &spec.links {
                    let [a, b] = &l.between;
                    for (x, y) in [(a, b), (b, a)] {
                        let n = neighbours.entry(x.as_str()).or_default();
                        if !n.contains(&y.as_str()) {
                            n.push(y.as_str());
                        }
                    }
                }
                spec.node_names()
                    .into_iter()
                    .filter(|n| neighbours.get(n.as_str()).is_some_and(|v| v.len() == 1))
                    .collect()
            }
            None => Vec::new(),
        }
    }

    /// Flows: the application bytes offered per second, over all hosts (`hosts` by name,
    /// `rates` their link rates): `load` times the sum of the rates, or times the bisection's
    /// capacity over the fraction of the offered bytes that cross it the busier way.
    /// CHOICE: the bisection is the cut between the first floor(n/2) hosts and the rest, in the
    /// order of `hosts`: the topology generators number hosts pod by pod, so for their fabrics
    /// this is the cut through the middle. The fraction crossing is the pattern's expectation:
    /// a receiver other than the sender is uniform for all-to-all and (among derangements) for
    /// permutation; for incast the receiver and each sender are.
    #[must_use]
    pub fn offered_bytes_per_s(&self, spec: &Spec, hosts: &[String], rates: &[u64]) -> f64 {
        let load = self.load.unwrap_or(0.0);
        let total: f64 = rates.iter().map(|&r| r as f64).sum();
        if self.load_of.unwrap_or_default() == LoadOf::Hosts {
            return load * total / 8.0;
        }
        let n = hosts.len();
        let half = n / 2;
        let (a, b) = hosts.split_at(half);
        let links: Vec<(&str, &str, u64)> = spec
            .links
            .iter()
            .map(|l| (l.between[0].as_str(), l.between[1].as_str(), l.rate.0 .0))
            .collect();
        let cut = crate::bisection::cut_bps(&links, a, b) as f64;
        let others = (n.max(2) - 1) as f64;
        let (across_ab, across_ba) = if self.pattern == Some(Pattern::Incast) {
            let x = (a.len() * b.len()) as f64 / (n as f64 * others);
            (x, x)
        } else {
            let sent = |r: &[u64]| r.iter().map(|&x| x as f64).sum::<f64>() / total.max(1.0);
            (
                sent(&rates[..half]) * b.len() as f64 / others,
                sent(&rates[half..]) * a.len() as f64 / others,
            )
        };
        load * cut / 8.0 / across_ab.max(across_ba).max(f64::MIN_POSITIVE)
    }

    /// Flows: each host's rate, bit/s: the sum of the rates of the links at it.
    #[must_use]
    pub fn host_rates(spec: &Spec, hosts: &[String]) -> Vec<u64> {
        let mut rate: std::collections::HashMap<&str, u64> = std::collections::HashMap::new();
        for l in &spec.links {
            for n in &l.between {
                *rate.entry(n.as_str()).or_default() += l.rate.0 .0;
            }
        }
        hosts
            .iter()
            .map(|h| rate.get(h.as_str()).copied().unwrap_or(0))
            .collect()
    }

    /// Web: the Pareto shape.
    #[must_use]
    pub fn shape(&self) -> f64 {
        self.shape.unwrap_or(DEFAULT_WEB_SHAPE)
    }

    /// The flow every web transfer copies: the generator's protocol, packet size and
    /// `options`, with placeholder name, ends and size (set per transfer).
    ///
    /// # Errors
    /// A [`ScenarioError::Spec`] under `traffic[i].options` for a key a flow refuses.
    pub fn web_template(&self, i: usize) -> Result<FlowSpec, ScenarioError> {
        let reserved = [
            "name",
            "protocol",
            "from",
            "to",
            "start",
            "stop",
            "size",
            "packet_size",
        ];
        let protocol = self.protocol.unwrap_or(Protocol::Newreno);
        let packet = format!("{}B", self.packet_size());
        super::flows::flow_from_options(
            &self.options.clone().unwrap_or_default(),
            &reserved,
            &|key| format!("is set by the generator; {key} cannot be an option"),
            &format!("traffic[{i}].options"),
            &|m| {
                m.insert("name".into(), format!("{}/0", self.name).into());
                m.insert("protocol".into(), protocol.name().into());
                m.insert(
                    "from".into(),
                    self.from.first().cloned().unwrap_or_default().into(),
                );
                m.insert(
                    "to".into(),
                    self.to.first().cloned().unwrap_or_default().into(),
                );
                m.insert("packet_size".into(), packet.clone().into());
                m.insert("size".into(), packet.clone().into());
            },
        )
    }
}

/// The generators' checks.
pub(crate) fn validate(
    spec: &Spec,
    graph: &Graph,
    names: &BTreeMap<String, usize>,
) -> Result<(), ScenarioError> {
    let mut generators: BTreeMap<&str, usize> = BTreeMap::new();
    let mut sources: u64 = 0;
    for (i, t) in spec.traffic.iter().enumerate() {
        let p = |field: &str| format!("traffic[{i}].{field}");
        check_name(&p("name"), &t.name)?;
        if t.name.contains('/') {
            return err(
                p("name"),
                format!(
                    "{:?} may not contain \"/\" (its flows are \"<name>/<k>\")",
                    t.name
                ),
            );
        }
        if let Some(first) = generators.insert(&t.name, i) {
            return err(
                p("name"),
                format!(
                    "duplicate generator name {:?} (also traffic[{first}])",
                    t.name
                ),
            );
        }
        if let Some(f) = names.get(&t.name) {
            return err(
                p("name"),
                format!("{:?} is also the name of flows[{f}]", t.name),
            );
        }
        let flows = t.kind == TrafficKind::Flows;
        for (field, list) in [("from", &t.from), ("to", &t.to)] {
            if flows {
                if !list.is_empty() {
                    return err(
                        p(field),
                        "flows generators take hosts, not from and to".into(),
                    );
                }
                continue;
            }
            if list.is_empty() {
                return err(p(field), "at least one node is needed".into());
            }
            for (j, n) in list.iter().enumerate() {
                graph.check_node(format!("traffic[{i}].{field}[{j}]"), n)?;
            }
        }
        for (j, a) in t.from.iter().enumerate() {
            for b in &t.to {
                if a == b {
                    return err(
                        format!("traffic[{i}].from[{j}]"),
                        format!("{a:?} is also in to; a flow needs two different nodes"),
                    );
                }
                if !graph.connected(a, b) {
                    return err(
                        format!("traffic[{i}].from[{j}]"),
                        format!("no route from {a:?} to {b:?}"),
                    );
                }
            }
        }
        before_end(p("start"), t.start, spec)?;
        if let Some(stop) = t.stop {
            if stop.0 <= t.start.0 {
                return err(
                    p("stop"),
                    format!("{} is not after start ({})", show(&stop), show(&t.start)),
                );
            }
        }
        let kind = t.kind.name();
        let only = |key: &str, set: bool, whom: &str| -> Result<(), ScenarioError> {
            if set {
                err(
                    p(key),
                    format!("applies to {whom} generators only, not {kind}"),
                )
            } else {
                Ok(())
            }
        };
        let web = t.kind == TrafficKind::Web;
        let voice = t.kind == TrafficKind::Voice;
        let finite = web || flows;
        only("protocol", t.protocol.is_some() && !finite, "web and flows")?;
        only("arrivals", t.arrivals.is_some() && !web, "web")?;
        only("mean_size", t.mean_size.is_some() && !web, "web")?;
        only("shape", t.shape.is_some() && !web, "web")?;
        only("options", t.options.is_some() && !finite, "web and flows")?;
        only("count", t.count.is_some() && finite, "voice and streaming")?;
        only("rate", t.rate.is_some() && finite, "voice and streaming")?;
        only("hosts", t.hosts.is_some() && !flows, "flows")?;
        only("sizes", t.sizes.is_some() && !flows, "flows")?;
        only("load", t.load.is_some() && !flows, "flows")?;
        only("pattern", t.pattern.is_some() && !flows, "flows")?;
        only("arrival", t.arrival.is_some() && !flows, "flows")?;
        only("sigma", t.sigma.is_some() && !flows, "flows")?;
        only("fan_in", t.fan_in.is_some() && !flows, "flows")?;
        only("load_of", t.load_of.is_some() && !flows, "flows")?;
        only("flow_file", t.flow_file.is_some() && !flows, "flows")?;
        only("on", t.on.is_some() && !voice, "voice")?;
        only("off", t.off.is_some() && !voice, "voice")?;
        let size = t.packet_size();
        if web {
            validate_web(i, t, &p)?;
        } else if flows {
            validate_flows(i, t, spec, graph, &p)?;
        } else {
            let Some(count) = t.count else {
                return err(
                    p("count"),
                    format!("{kind} generators need a count of sources"),
                );
            };
            if count == 0 {
                return err(p("count"), "must be at least 1, found 0".into());
            }
            sources = sources.saturating_add(u64::from(count));
            if sources > MAX_SOURCES {
                return err(
                    p("count"),
                    format!(
                        "the generators' sources come to {sources}; at most {MAX_SOURCES} in all"
                    ),
                );
            }
            let header = u64::from(ccsim_protocols::UDP_HEADER_BYTES);
            if size <= header || size > 65_535 {
                return err(
                    p("packet_size"),
                    format!("must exceed the {header}-byte header and be at most 65535B, found \"{size}B\""),
                );
            }
            let rate = t.rate_bps();
            let most = u128::from(size) * 8 * 1_000_000_000;
            if rate == 0 || u128::from(rate) > most {
                return err(
                    p("rate"),
                    format!("must be positive and at most one packet per nanosecond ({most}bps), found \"{rate}bps\""),
                );
            }
            if voice {
                for (key, d) in [("on", t.on), ("off", t.off)] {
                    if let Some(d) = d {
                        if d.0 .0 == 0 || d.0 > ccsim_core::Dur::from_secs(86_400) {
                            return err(
                                p(key),
                                format!("must be between 1ns and 86400s, found {}", show(&d)),
                            );
                        }
                    }
                }
            }
        }
    }
    for t in &spec.traffic {
        let prefix = format!("{}/", t.name);
        if let Some((name, f)) = names.iter().find(|(n, _)| n.starts_with(&prefix)) {
            return err(
                format!("flows[{f}].name"),
                format!(
                    "{name:?} looks like a flow of generator {:?}, whose flows are \"{}<k>\"",
                    t.name, prefix
                ),
            );
        }
    }
    Ok(())
}

/// A TCP transfer's whole-packet size: above its header, at most 65535 bytes.
fn check_tcp_packet_size(t: &TrafficSpec, p: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    let size = t.packet_size();
    let header = u64::from(ccsim_protocols::TCP_HEADER_BYTES);
    if size <= header || size > 65_535 {
        return err(
            p("packet_size"),
            format!(
                "must exceed the {header}-byte header and be at most 65535B, found \"{size}B\""
            ),
        );
    }
    Ok(())
}

fn validate_flows(
    i: usize,
    t: &TrafficSpec,
    spec: &Spec,
    graph: &Graph,
    p: &dyn Fn(&str) -> String,
) -> Result<(), ScenarioError> {
    if t.flow_file.is_some() {
        let given = [
            ("sizes", t.sizes.is_some()),
            ("load", t.load.is_some()),
            ("load_of", t.load_of.is_some()),
            ("pattern", t.pattern.is_some()),
            ("arrival", t.arrival.is_some()),
            ("sigma", t.sigma.is_some()),
            ("fan_in", t.fan_in.is_some()),
            ("start", t.start.0 .0 != 0),
        ];
        if let Some((key, _)) = given.iter().find(|(_, set)| *set) {
            return err(
                p(key),
                "does not apply with a flow_file, which gives each flow's ends, size and start time".into(),
            );
        }
    }
    match &t.hosts {
        None => {
            return err(
                p("hosts"),
                "flows generators need hosts, \"all\" or a list of nodes".into(),
            )
        }
        Some(HostsSpec::All(s)) if s != "all" => {
            return err(
                p("hosts"),
                format!("expected \"all\" or a list of nodes, found {s:?}"),
            )
        }
        Some(HostsSpec::List(list)) => {
            let mut seen = std::collections::HashSet::new();
            for (j, n) in list.iter().enumerate() {
                graph.check_node(format!("traffic[{i}].hosts[{j}]"), n)?;
                if !seen.insert(n) {
                    return err(
                        format!("traffic[{i}].hosts[{j}]"),
                        format!("{n:?} is listed twice"),
                    );
                }
            }
        }
        Some(HostsSpec::All(_)) => {}
    }
    let hosts = t.host_names(spec);
    let pattern = t.pattern.unwrap_or_default();
    let fan_in = t.fan_in.unwrap_or(DEFAULT_FAN_IN);
    let least = if pattern == Pattern::Incast {
        u64::from(fan_in) + 1
    } else {
        2
    };
    if (hosts.len() as u64) < least {
        return err(
            p("hosts"),
            format!(
                "the {} pattern needs at least {least} hosts, found {}",
                pattern.name(),
                hosts.len()
            ),
        );
    }
    for (j, h) in hosts.iter().enumerate().skip(1) {
        if !graph.connected(&hosts[0], h) || !graph.connected(h, &hosts[0]) {
            return err(
                format!("traffic[{i}].hosts[{j}]"),
                format!("no route between {:?} and {h:?}", hosts[0]),
            );
        }
    }
    if let Some(f) = t.fan_in {
        if f == 0 || pattern != Pattern::Incast {
            return err(
                p("fan_in"),
                if f == 0 {
                    "must be at least 1, found 0".into()
                } else {
                    "applies to the incast pattern only".into()
                },
            );
        }
    }
    if let Some(list) = &t.flow_file {
        validate_flow_file(list, hosts.len(), p)?;
    } else {
        validate_drawn_flows(t, spec, &hosts, p)?;
    }
    let Some(protocol) = t.protocol else {
        return err(
            p("protocol"),
            "flows generators need a protocol, a TCP variant such as \"dctcp\"".into(),
        );
    };
    if family(protocol) != Family::Tcp {
        return err(
            p("protocol"),
            format!(
                "workload flows are finite transfers: a TCP variant is needed, found {:?}",
                protocol.name()
            ),
        );
    }
    check_tcp_packet_size(t, p)?;
    let template = t.web_template(i)?;
    let path = |field: &str| format!("traffic[{i}].options.{field}");
    validate_family(&template, &path)
}

/// The flows of a `flow_file`: ends among the `hosts` and apart, sizes from 1 byte to 1 TB,
/// start times in order.
fn validate_flow_file(
    list: &[(u32, u32, u64, u64)],
    hosts: usize,
    p: &dyn Fn(&str) -> String,
) -> Result<(), ScenarioError> {
    if list.len() > MAX_REPLAYED_FLOWS {
        return err(
            p("flow_file"),
            format!("lists {} flows; at most {MAX_REPLAYED_FLOWS}", list.len()),
        );
    }
    let mut last = 0;
    for (k, &(from, to, bytes, start)) in list.iter().enumerate() {
        let at = |what: String| err(format!("{}[{k}]", p("flow_file")), what);
        for end in [from, to] {
            if end as usize >= hosts {
                return at(format!(
                    "host {end} is not among the {hosts} hosts (numbered from 0 in the order of hosts)"
                ));
            }
        }
        if from == to {
            return at(format!("sends from host {from} to itself"));
        }
        if bytes == 0 || bytes > 1_000_000_000_000 {
            return at(format!(
                "size must be between 1 byte and 1TB, found {bytes}"
            ));
        }
        if start < last {
            return at(format!(
                "starts at {start}ns, before the flow above it ({last}ns): flows are listed in order of start"
            ));
        }
        last = start;
    }
    Ok(())
}

/// A drawn workload's sizes, load and arrival law.
fn validate_drawn_flows(
    t: &TrafficSpec,
    spec: &Spec,
    hosts: &[String],
    p: &dyn Fn(&str) -> String,
) -> Result<(), ScenarioError> {
    match &t.sizes {
        None => {
            return err(
                p("sizes"),
                format!(
                    "flows generators need sizes: {} or a CDF's points",
                    crate::workloads::FlowSizes::vendored_names().join(", ")
                ),
            )
        }
        Some(SizesSpec::Named(name)) if crate::workloads::FlowSizes::vendored(name).is_none() => {
            return err(
                p("sizes"),
                format!(
                    "no vendored distribution {name:?}; expected one of {}, a CDF file (read by the Python front) or [[bytes, percent], ...]",
                    crate::workloads::FlowSizes::vendored_names().join(", ")
                ),
            )
        }
        Some(SizesSpec::Points(points)) => {
            crate::workloads::FlowSizes::from_points(points).map_err(|m| ScenarioError::spec(p("sizes"), m))?;
            if points.last().is_some_and(|&(s, _)| s > 1e12) {
                return err(p("sizes"), "flows above 1TB are refused".into());
            }
        }
        Some(SizesSpec::Named(_)) => {}
    }
    let load = match t.load {
        None => {
            return err(
                p("load"),
                "flows generators need a load, a fraction of each host's link rate such as 0.5"
                    .into(),
            )
        }
        Some(l) if !l.is_finite() || l <= 0.0 || l > 1.0 => {
            return err(
                p("load"),
                format!("must be above 0 and at most 1, found {l}"),
            )
        }
        Some(l) => l,
    };
    if let Some(s) = t.sigma {
        if t.arrival != Some(ArrivalLaw::Lognormal) {
            return err(p("sigma"), "applies to log-normal arrivals only".into());
        }
        if !s.is_finite() || s <= 0.0 || s > 10.0 {
            return err(
                p("sigma"),
                format!("must be above 0 and at most 10, found {s}"),
            );
        }
    }
    let mean = t.flow_sizes().map_or(1.0, |c| c.mean()).max(1.0);
    let rates = TrafficSpec::host_rates(spec, hosts);
    let total_bps: f64 = rates.iter().map(|&r| r as f64).sum();
    let offered = t.offered_bytes_per_s(spec, hosts, &rates);
    if t.load_of == Some(LoadOf::Bisection) && offered * 8.0 > total_bps * (1.0 + 1e-9) {
        return err(
            p("load"),
            format!(
                "{load} of the bisection offers {:.3} of the hosts' link rates; at most 1 (a lower load)",
                offered * 8.0 / total_bps
            ),
        );
    }
    let per_second = offered / mean;
    if per_second > MAX_FLOW_ARRIVALS {
        return err(
            p("load"),
            format!("gives {per_second:.0} flows per second; at most {MAX_FLOW_ARRIVALS} (a larger mean size or a lower load)"),
        );
    }
    Ok(())
}

fn validate_web(
    i: usize,
    t: &TrafficSpec,
    p: &dyn Fn(&str) -> String,
) -> Result<(), ScenarioError> {
    let Some(protocol) = t.protocol else {
        return err(
            p("protocol"),
            "web generators need a protocol, a TCP variant such as \"newreno\", or \"obp\"".into(),
        );
    };
    if family(protocol) != Family::Tcp && protocol != Protocol::Obp {
        return err(
            p("protocol"),
            format!(
                "web transfers are finite, so a TCP variant (tahoe, reno, newreno, sack, vegas, xcp) or obp is needed, found {:?}",
                protocol.name()
            ),
        );
    }
    match t.arrivals {
        None => {
            return err(
                p("arrivals"),
                "web generators need arrivals, new flows per second, e.g. 100.0".into(),
            )
        }
        Some(a) if !a.is_finite() || a <= 0.0 || a > MAX_ARRIVALS => {
            return err(
                p("arrivals"),
                format!(
                    "must be a positive number of flows per second up to {MAX_ARRIVALS}, found {a}"
                ),
            )
        }
        Some(_) => {}
    }
    let Some(mean) = t.mean_size else {
        return err(
            p("mean_size"),
            "web generators need a mean_size, e.g. \"30kB\"".into(),
        );
    };
    let shape = t.shape();
    if !shape.is_finite() || shape <= 1.0 || shape > 100.0 {
        return err(
            p("shape"),
            format!("must be above 1 (a Pareto law with shape 1 or less has no mean) and at most 100, found {shape}"),
        );
    }
    check_tcp_packet_size(t, p)?;
    if mean.0 .0 == 0 || mean.0 .0 > 1_000_000_000_000 {
        return err(
            p("mean_size"),
            format!("must be between 1B and 1TB, found {}", show(&mean)),
        );
    }
    let template = t.web_template(i)?;
    let path = |field: &str| format!("traffic[{i}].options.{field}");
    validate_family(&template, &path)
}
