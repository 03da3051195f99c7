//! TCP-M sessions (Ghosh and Varghese 1998; crates/ccsim-protocols/src/tcpm): the `[[tcpm]]`
//! keys and their checks; the builder and the session summary are in [`crate::protocols::tcpm`].
//!
//! A session's embedded TCP takes the flow keys of its protocol from `options`, checked as a
//! flow's are, at `tcpm[i].options.<key>`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::ScenarioError;
use crate::spec::flows::{family, validate_family, Family, FlowSpec, Protocol};
use crate::spec::{before_end, check_name, err, show, zero_dur, Graph, Spec};
use crate::units::{BytesStr, DurStr, SsthreshStr};

/// Which routers fuse ACKs.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum FusionSpec {
    /// Every node on the multicast tree.
    #[default]
    All,
    /// The source alone (the paper's SCE-like extreme, section 5.3).
    Source,
    /// These nodes (and the source, which always fuses).
    Nodes(Vec<String>),
}

impl<'de> Deserialize<'de> for FusionSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        match &v {
            serde_json::Value::String(s) if s == "all" => return Ok(FusionSpec::All),
            serde_json::Value::String(s) if s == "source" => return Ok(FusionSpec::Source),
            serde_json::Value::Array(a) => {
                let names: Option<Vec<String>> =
                    a.iter().map(|x| x.as_str().map(String::from)).collect();
                if let Some(names) = names {
                    return Ok(FusionSpec::Nodes(names));
                }
            }
            _ => {}
        }
        let found = crate::spec::shown_briefly(&v);
        Err(serde::de::Error::custom(format!(
            "expected \"all\", \"source\" or a list of node names, found {found}"
        )))
    }
}

impl Serialize for FusionSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            FusionSpec::All => s.serialize_str("all"),
            FusionSpec::Source => s.serialize_str("source"),
            FusionSpec::Nodes(n) => n.serialize(s),
        }
    }
}

impl JsonSchema for FusionSpec {
    fn schema_name() -> String {
        "FusionSpec".to_string()
    }
    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        let mut obj = schemars::schema::SchemaObject::default();
        obj.subschemas().any_of = Some(vec![
            gen.subschema_for::<String>(),
            gen.subschema_for::<Vec<String>>(),
        ]);
        schemars::schema::Schema::Object(obj)
    }
}

/// Which ACKs a fusion node counts as duplicates.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum DuplicateRuleSpec {
    /// Figure 4 as printed.
    #[default]
    Figure4,
    /// Duplicates fused by the minimum.
    Fused,
}

/// A TCP-M session: one source multicasting a transfer to its receivers.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpmSpec {
    /// Unique name; also the session's flow (its counters, series, `[[drops]]`).
    pub name: String,
    /// The source's node.
    pub source: String,
    /// The receivers' nodes (one receiver each).
    pub receivers: Vec<String>,
    /// The embedded TCP: "tahoe", "reno", "newreno", "sack" or "vegas".
    #[serde(default = "default_protocol")]
    pub protocol: Protocol,
    /// Fusion nodes: "all", "source" or a list of node names.
    #[serde(default)]
    pub fusion: FusionSpec,
    /// When the Group Module starts (set-up precedes data).
    #[serde(default = "zero_dur")]
    pub start: DurStr,
    /// When the TCP stops offering new data.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub stop: Option<DurStr>,
    /// Bytes to transfer; absent for an unending transfer.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub size: Option<BytesStr>,
    /// Whole-packet size of data segments.
    #[serde(default = "default_packet_size")]
    pub packet_size: BytesStr,
    /// Receivers delay their ACKs (RFC 1122, 200 ms).
    #[serde(default)]
    pub delayed_ack: bool,
    /// RCVR_TMOUT: the REVERSE_PATH period.
    #[serde(default = "default_rcvr_timeout")]
    pub rcvr_timeout: DurStr,
    /// TCP-M_TMOUT: a child silent this long is dead.
    #[serde(default = "default_tcpm_timeout")]
    pub tcpm_timeout: DurStr,
    /// MAX_DUPLICATE: duplicate ACKs a fusion node passes on in a row.
    #[serde(default = "default_max_duplicate")]
    pub max_duplicate: u32,
    /// How a fusion node passes duplicate ACKs on: "figure4" (the paper's: any ACK not fresh
    /// for its child counts, up to MAX_DUPLICATE in a row) or "fused" (ours: duplicates fused
    /// by the minimum, as ACKs are).
    #[serde(default)]
    pub duplicate_rule: DuplicateRuleSpec,
    /// JOIN_TMOUT.
    #[serde(default = "default_phase_timeout")]
    pub join_timeout: DurStr,
    /// JOIN_REQUEST retransmissions.
    #[serde(default = "default_retries")]
    pub join_retries: u32,
    /// PATH_TMOUT.
    #[serde(default = "default_phase_timeout")]
    pub path_timeout: DurStr,
    /// PATH retransmissions.
    #[serde(default = "default_retries")]
    pub path_retries: u32,
    /// The embedded TCP's other flow keys (`initial_window`, `max_window`, `min_rto`, `ecn`,
    /// `vegas`, ...).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub options: Option<serde_json::Map<String, serde_json::Value>>,
}

fn default_protocol() -> Protocol {
    Protocol::Vegas
}
fn default_packet_size() -> BytesStr {
    BytesStr(ccsim_core::Bytes(1000))
}
fn default_rcvr_timeout() -> DurStr {
    DurStr(ccsim_protocols::TcpmParams::default().rcvr_timeout)
}
fn default_tcpm_timeout() -> DurStr {
    DurStr(ccsim_protocols::TcpmParams::default().tcpm_timeout)
}
fn default_max_duplicate() -> u32 {
    ccsim_protocols::TcpmParams::default().max_duplicate
}
fn default_phase_timeout() -> DurStr {
    DurStr(ccsim_protocols::TcpmParams::default().join_timeout)
}
fn default_retries() -> u32 {
    ccsim_protocols::TcpmParams::default().join_retries
}

/// The flow keys a session's `options` may set (the embedded TCP's).
pub const TCP_OPTIONS: [&str; 13] = [
    "initial_window",
    "max_window",
    "min_rto",
    "rto",
    "clock_granularity",
    "tick",
    "initial_rto",
    "ecn",
    "vegas",
    "initial_ssthresh",
    "paced_slow_start",
    "pacing_spacing",
    "cwnd_limited_growth",
];

/// Multicast group keys of TCP-M sessions start here (TICP's sessions use the keys below).
pub const TCPM_GROUP_BASE: u32 = 4095 * crate::spec::TICP_GROUPS_PER_SESSION;
/// Most TCP-M sessions in a scenario.
pub const MAX_TCPM_SESSIONS: usize = 4096;
/// Most receivers of all sessions together (each is an agent, and each fusion node of a
/// session keeps a word or three per child).
pub const MAX_TCPM_RECEIVERS: usize = 1 << 20;

impl TcpmSpec {
    /// The embedded TCP as a flow: the session's protocol, packet size, size, delayed ACKs
    /// and `options`.
    ///
    /// # Errors
    /// A [`ScenarioError::Spec`] under `tcpm[i].options` for a key a flow refuses or that the
    /// session sets itself.
    pub fn tcp_template(&self, i: usize) -> Result<FlowSpec, ScenarioError> {
        let reserved = [
            "name",
            "protocol",
            "from",
            "to",
            "start",
            "stop",
            "size",
            "packet_size",
            "delayed_ack",
        ];
        let why = |key: &str| {
            let hint = if ["name", "from", "to"].contains(&key) {
                "the session sets it".to_string()
            } else {
                format!("set tcpm[{i}].{key} instead")
            };
            format!("is a key of the session, not an option ({hint})")
        };
        crate::spec::flows::flow_from_options(
            &self.options.clone().unwrap_or_default(),
            &reserved,
            &why,
            &format!("tcpm[{i}].options"),
            &|m| {
                m.insert("name".into(), self.name.clone().into());
                m.insert("protocol".into(), self.protocol.name().into());
                m.insert("from".into(), self.source.clone().into());
                m.insert(
                    "to".into(),
                    self.receivers.first().cloned().unwrap_or_default().into(),
                );
                m.insert(
                    "packet_size".into(),
                    show(&self.packet_size).trim_matches('"').into(),
                );
                if let Some(size) = self.size {
                    m.insert("size".into(), show(&size).trim_matches('"').into());
                }
                m.insert("delayed_ack".into(), self.delayed_ack.into());
            },
        )
        .map_err(|e| match e {
            // A flow's key list names keys the session sets or refuses: list the TCP options.
            ScenarioError::Spec { path, message } => ScenarioError::Spec {
                path,
                message: match message.split_once(" (known keys:") {
                    Some((head, _)) => {
                        format!("{head} (TCP options: {})", TCP_OPTIONS.join(", "))
                    }
                    None => message,
                },
            },
            other => other,
        })
    }
}

/// The TCP-M sessions' checks; their flow names join `names`.
pub(crate) fn validate(
    spec: &Spec,
    graph: &Graph,
    names: &mut BTreeMap<String, usize>,
) -> Result<(), ScenarioError> {
    if spec.tcpm.len() > MAX_TCPM_SESSIONS {
        return err(
            "tcpm".into(),
            format!(
                "at most {MAX_TCPM_SESSIONS} sessions, found {}",
                spec.tcpm.len()
            ),
        );
    }
    let mut all_receivers = 0usize;
    for (i, t) in spec.tcpm.iter().enumerate() {
        let p = |field: &str| format!("tcpm[{i}].{field}");
        check_name(&p("name"), &t.name)?;
        if let Some(&f) = names.get(&t.name) {
            return err(
                p("name"),
                format!("{:?} is already a flow or session name ({f})", t.name),
            );
        }
        names.insert(t.name.clone(), usize::MAX);
        graph.check_node(p("source"), &t.source)?;
        if t.receivers.is_empty() {
            return err(p("receivers"), "at least one receiver is needed".into());
        }
        all_receivers += t.receivers.len();
        if all_receivers > MAX_TCPM_RECEIVERS {
            return err(
                p("receivers"),
                format!("at most {MAX_TCPM_RECEIVERS} receivers in all sessions"),
            );
        }
        let mut seen = std::collections::BTreeSet::new();
        for (j, r) in t.receivers.iter().enumerate() {
            let path = format!("tcpm[{i}].receivers[{j}]");
            graph.check_node(path.clone(), r)?;
            if r == &t.source {
                return err(path, format!("{r:?} is the source"));
            }
            if !seen.insert(r.as_str()) {
                return err(path, format!("{r:?} is listed twice"));
            }
            if !graph.connected(&t.source, r) {
                return err(
                    path,
                    format!("no route from the source {:?} to {r:?}", t.source),
                );
            }
        }
        if let FusionSpec::Nodes(nodes) = &t.fusion {
            let mut seen = std::collections::BTreeSet::new();
            for (j, n) in nodes.iter().enumerate() {
                let path = format!("tcpm[{i}].fusion[{j}]");
                graph.check_node(path.clone(), n)?;
                if !seen.insert(n.as_str()) {
                    return err(path, format!("{n:?} is listed twice"));
                }
            }
        }
        if family(t.protocol) != Family::Tcp {
            return err(
                p("protocol"),
                format!(
                    "the embedded sender is a TCP (tahoe, reno, newreno, sack or vegas), found {:?}",
                    t.protocol.name()
                ),
            );
        }
        before_end(p("start"), t.start, spec)?;
        if let Some(stop) = t.stop {
            if stop.0 <= t.start.0 {
                return err(
                    p("stop"),
                    format!(
                        "must come after start ({}), found {}",
                        show(&t.start),
                        show(&stop)
                    ),
                );
            }
        }
        for (key, d) in [
            ("rcvr_timeout", t.rcvr_timeout),
            ("tcpm_timeout", t.tcpm_timeout),
            ("join_timeout", t.join_timeout),
            ("path_timeout", t.path_timeout),
        ] {
            if d.0 .0 < 1_000_000 || d.0 > ccsim_core::Dur::from_secs(3600) {
                return err(
                    p(key),
                    format!("must be between 1ms and 1h, found {}", show(&d)),
                );
            }
        }
        if t.tcpm_timeout.0 <= t.rcvr_timeout.0 {
            return err(
                p("tcpm_timeout"),
                format!(
                    "must exceed rcvr_timeout ({}), or every child is declared dead between two REVERSE_PATHs; found {}",
                    show(&t.rcvr_timeout),
                    show(&t.tcpm_timeout)
                ),
            );
        }
        if t.max_duplicate > 1000 {
            return err(
                p("max_duplicate"),
                format!("must be at most 1000, found {}", t.max_duplicate),
            );
        }
        for (key, n) in [
            ("join_retries", t.join_retries),
            ("path_retries", t.path_retries),
        ] {
            if n > 100 {
                return err(p(key), format!("must be at most 100, found {n}"));
            }
        }
        let template = t.tcp_template(i)?;
        if template.initial_ssthresh == Some(SsthreshStr::Bdp) {
            return err(
                p("options.initial_ssthresh"),
                "\"bdp\" needs one path; give a size such as \"64kB\" for a session".into(),
            );
        }
        let path = |field: &str| {
            if ["packet_size", "size"].contains(&field) {
                format!("tcpm[{i}].{field}")
            } else {
                format!("tcpm[{i}].options.{field}")
            }
        };
        let header = u64::from(ccsim_protocols::TCP_HEADER_BYTES);
        if t.packet_size.0 .0 <= header || t.packet_size.0 .0 > 65_535 {
            return err(
                p("packet_size"),
                format!(
                    "must exceed the {header}-byte header and be at most 65535B, found {}",
                    show(&t.packet_size)
                ),
            );
        }
        validate_family(&template, &path)?;
    }
    Ok(())
}
