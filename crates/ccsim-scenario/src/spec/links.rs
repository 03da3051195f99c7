//! `[[links]]` and their queues (DropTail, RED with ECN: docs/queues.md), and `[[drops]]`,
//! the deterministic drop rules on link directions.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{check_name, default_true, err, is_zero, pair_key, show};
use crate::error::ScenarioError;
use crate::units::{BytesStr, DurStr, QueueStr, RateStr};

/// A duplex link: two simplex channels with the same settings.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// The two end nodes.
    #[serde(deserialize_with = "node_pair")]
    #[schemars(with = "[String; 2]")]
    pub between: [String; 2],
    /// Rate of each direction.
    pub rate: RateStr,
    /// One-way propagation delay.
    pub delay: DurStr,
    /// Each direction's egress queue: a DropTail limit ("100p", "20kB") or a table
    /// `{ kind = "red", ... }` (see [`RedSpec`]).
    #[serde(default = "default_queue")]
    pub queue: QueueSpec,
    /// Probability that a packet is lost, per direction.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub loss: f64,
    /// Whether the link's routers run the router-assisted protocols' functions (XCP); false
    /// leaves their headers untouched here (partial deployment).
    #[serde(default = "default_true", skip_serializing_if = "is_yes")]
    pub assist: bool,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_yes(b: &bool) -> bool {
    super::omitting_defaults() && *b
}

impl LinkSpec {
    /// The engine's settings of each direction.
    #[must_use]
    pub fn config(&self) -> ccsim_engine::LinkConfig {
        use ccsim_engine::{Discipline, QueueLimit};
        let limit = match self.queue.limit() {
            QueueStr::Packets(n) => QueueLimit::Packets(n),
            QueueStr::Bytes(b) => QueueLimit::Bytes(b),
        };
        let discipline = match &self.queue {
            QueueSpec::DropTail(_) => Discipline::DropTail,
            QueueSpec::Red(r) if r.kind == QueueKind::Step => Discipline::Step {
                threshold: r.threshold.unwrap_or(u64::MAX),
            },
            QueueSpec::Red(r) => Discipline::Red(r.config(self.rate.0, self.delay.0)),
        };
        ccsim_engine::LinkConfig {
            rate: self.rate.0,
            delay: self.delay.0,
            limit,
            loss: self.loss,
            discipline,
        }
    }
}

/// `between`: exactly two node names, said so whatever else is found.
fn node_pair<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[String; 2], D::Error> {
    let v = serde_json::Value::deserialize(d)?;
    if let serde_json::Value::Array(a) = &v {
        if let [serde_json::Value::String(x), serde_json::Value::String(y)] = a.as_slice() {
            return Ok([x.clone(), y.clone()]);
        }
    }
    let found = super::shown_briefly(&v);
    Err(serde::de::Error::custom(format!(
        "expected exactly two node names, such as [\"s1\", \"r1\"], found {found}"
    )))
}

fn default_queue() -> QueueSpec {
    QueueSpec::DropTail(QueueStr::Packets(100))
}

/// An egress queue: DropTail with a limit, or RED.
#[derive(Clone, Debug, PartialEq)]
pub enum QueueSpec {
    /// Tail drop at the limit.
    DropTail(QueueStr),
    /// Random Early Detection (Floyd and Jacobson 1993, gentle variant) with ECN marking.
    Red(RedSpec),
}

impl QueueSpec {
    /// The RED table, if this is one (not a step-marking table nor a DropTail limit).
    #[must_use]
    pub fn as_red(self) -> Option<RedSpec> {
        match self {
            QueueSpec::Red(r) if r.kind == QueueKind::Red => Some(r),
            _ => None,
        }
    }

    /// The physical limit.
    #[must_use]
    pub fn limit(&self) -> QueueStr {
        match self {
            QueueSpec::DropTail(q) => *q,
            QueueSpec::Red(r) => r.limit,
        }
    }
}

/// The queue kinds written as a table.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum QueueKind {
    /// Random Early Detection.
    Red,
    /// Step marking at a threshold of waiting packets (DCTCP's, RFC 8257 section 3.1).
    Step,
}

/// Whose RED a `{ kind = "red" }` queue runs (docs/queues.md).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
pub enum RedProfile {
    /// Floyd and Jacobson 1993, Figure 2, with the gentle variant; ns-2's classic parameters.
    #[default]
    #[serde(rename = "fj93")]
    Fj93,
    /// ns-2.35's `Queue/RED` as its `ns-default.tcl` configures it: byte mode, thresholds and
    /// weight set from the link, `wait_`, marking only up to `mark_p`.
    #[serde(rename = "ns2.35")]
    Ns2_35,
}

/// A queue written as a table: RED (`kind = "red"`; every key but `kind` is optional, absent
/// keys take the profile's values) or step marking (`kind = "step"`: `limit` and `threshold`
/// only).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RedSpec {
    /// "red" or "step".
    pub kind: QueueKind,
    /// Step marking: CE on ECN-capable packets that arrive while more than this many packets
    /// wait (K).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub threshold: Option<u64>,
    /// Whose RED: "fj93" (the default) or "ns2.35".
    #[serde(default, skip_serializing_if = "is_fj93")]
    pub profile: RedProfile,
    /// Physical limit of the queue.
    #[serde(default = "default_red_limit")]
    pub limit: QueueStr,
    /// Average queue (packets) below which nothing is dropped or marked (fj93: 5; ns2.35:
    /// max(5, 5 ms of the link's packets / 2)).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub min_th: Option<f64>,
    /// Average queue (packets) at which the early probability reaches max_p (fj93: 15;
    /// ns2.35: 3 min_th).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub max_th: Option<f64>,
    /// Weight of the newest sample in the average (fj93: 0.002; ns2.35: from the link's rate
    /// and delay).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub w_q: Option<f64>,
    /// Early drop (or mark) probability at max_th (0.1).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub max_p: Option<f64>,
    /// Gentle variant: the probability rises to 1 between max_th and 2 max_th (true).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub gentle: Option<bool>,
    /// Byte mode: the queue is measured in bytes (thresholds converted with
    /// mean_packet_size) and the probability scaled by packet size / mean_packet_size
    /// (fj93: false; ns2.35: true).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub bytes: Option<bool>,
    /// Typical packet size: the idle-time unit and the byte-mode scale (500B).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub mean_packet_size: Option<BytesStr>,
    /// Mark ECN-capable packets CE instead of dropping them early (RFC 3168) (fj93: true;
    /// ns2.35: false, its `setbit_`).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub ecn: Option<bool>,
    /// ns2.35: an ECN-capable packet is marked only while the probability is at most this,
    /// dropped above it (0.1, its `mark_p_`).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub mark_p: Option<f64>,
}

fn is_fj93(v: &RedProfile) -> bool {
    super::omitting_defaults() && *v == RedProfile::Fj93
}

fn default_red_limit() -> QueueStr {
    QueueStr::Packets(100)
}

impl RedSpec {
    /// The typical packet size, bytes.
    #[must_use]
    pub fn mean_packet_size(&self) -> u64 {
        self.mean_packet_size.map_or(
            u64::from(ccsim_engine::RedConfig::default().mean_packet_size),
            |b| b.0 .0,
        )
    }

    /// The engine's configuration on a link of `rate` and one-way `delay` (thresholds in
    /// bytes in byte mode): the profile's values, each key given replacing its own.
    #[must_use]
    pub fn config(
        &self,
        rate: ccsim_core::Rate,
        delay: ccsim_core::Dur,
    ) -> ccsim_engine::RedConfig {
        let base = match self.profile {
            RedProfile::Fj93 => ccsim_engine::RedConfig {
                ecn: true,
                ..ccsim_engine::RedConfig::default()
            },
            RedProfile::Ns2_35 => {
                // Back to packets: the keys, like ns-2's thresh_ and maxthresh_, count them.
                let b = ccsim_engine::RedConfig::ns2_35(rate, delay);
                let mean = f64::from(b.mean_packet_size);
                ccsim_engine::RedConfig {
                    min_th: b.min_th / mean,
                    max_th: b.max_th / mean,
                    bytes: false,
                    ..b
                }
            }
        };
        let c = ccsim_engine::RedConfig {
            min_th: self.min_th.unwrap_or(base.min_th),
            max_th: self.max_th.unwrap_or(base.max_th),
            w_q: self.w_q.unwrap_or(base.w_q),
            max_p: self.max_p.unwrap_or(base.max_p),
            gentle: self.gentle.unwrap_or(base.gentle),
            bytes: false,
            mean_packet_size: u32::try_from(self.mean_packet_size()).unwrap_or(u32::MAX),
            ecn: self.ecn.unwrap_or(base.ecn),
            ns2: base.ns2,
            mark_p: self.mark_p.unwrap_or(base.mark_p),
        };
        let bytes = self.bytes.unwrap_or(self.profile == RedProfile::Ns2_35);
        if bytes {
            c.in_bytes()
        } else {
            c
        }
    }
}

impl<'de> Deserialize<'de> for QueueSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = QueueSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a DropTail limit such as \"100p\" or \"20kB\", or a table { kind = \"red\", ... } or { kind = \"step\", ... }")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<QueueSpec, E> {
                QueueStr::deserialize(serde::de::value::StrDeserializer::<E>::new(v))
                    .map(QueueSpec::DropTail)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<QueueSpec, A::Error> {
                RedSpec::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(QueueSpec::Red)
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for QueueSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            QueueSpec::DropTail(q) => q.serialize(s),
            QueueSpec::Red(r) => r.serialize(s),
        }
    }
}

impl JsonSchema for QueueSpec {
    fn schema_name() -> String {
        "QueueSpec".to_string()
    }
    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        let mut obj = schemars::schema::SchemaObject::default();
        obj.subschemas().any_of = Some(vec![
            gen.subschema_for::<QueueStr>(),
            gen.subschema_for::<RedSpec>(),
        ]);
        schemars::schema::Schema::Object(obj)
    }
}

/// Drop given data packets of a flow on one direction of a link, the first time each passes.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DropSpec {
    /// The flow.
    pub flow: String,
    /// The link direction, as "a->b".
    pub link: String,
    /// Data sequence numbers (TCP segment numbers, UDP datagram numbers, from 0).
    pub seqs: Vec<u64>,
}

// CHOICE: the bounds below are ours (no source gives them): each keeps what one key can make
// the simulator hold to about a gigabyte (docs/scenarios.md, "Bounds").

/// Most packets a queue may be configured to hold.
pub const MAX_QUEUE_PACKETS: u64 = 1_000_000;
/// Most bytes a queue may be configured to hold.
pub const MAX_QUEUE_BYTES: u64 = 1_000_000_000;
/// Most bytes one direction of a link may hold in flight (rate times delay): each packet on
/// the wire is a live event.
pub const MAX_LINK_BDP_BYTES: u64 = 1_000_000_000;

/// The bounds on what a link holds: its queue and what is in flight on the wire.
fn validate_link_size(i: usize, l: &LinkSpec) -> Result<(), ScenarioError> {
    let path = match l.queue {
        QueueSpec::DropTail(_) => format!("links[{i}].queue"),
        QueueSpec::Red(_) => format!("links[{i}].queue.limit"),
    };
    match l.queue.limit() {
        QueueStr::Packets(n) if n > MAX_QUEUE_PACKETS => {
            return err(
                path,
                format!("must be at most {MAX_QUEUE_PACKETS} packets (\"{MAX_QUEUE_PACKETS}p\"), found \"{n}p\""),
            )
        }
        QueueStr::Bytes(b) if b > MAX_QUEUE_BYTES => {
            return err(
                path,
                format!(
                    "must be at most {MAX_QUEUE_BYTES} bytes (\"1GB\"), found {}",
                    show(&BytesStr(ccsim_core::Bytes(b)))
                ),
            )
        }
        _ => {}
    }
    let bdp = u128::from(l.rate.0 .0) * u128::from(l.delay.0 .0) / 8 / 1_000_000_000;
    if bdp > u128::from(MAX_LINK_BDP_BYTES) {
        return err(
            format!("links[{i}].delay"),
            format!(
                "{} at {} holds {bdp} bytes in flight in each direction; at most {MAX_LINK_BDP_BYTES} (1GB)",
                show(&l.delay),
                show(&l.rate)
            ),
        );
    }
    Ok(())
}

/// A RED queue whose physical limit lies below `min_th` never lets the average reach the
/// threshold where RED acts: it is a DropTail queue that only looks like RED.
fn validate_red_limit(
    i: usize,
    r: &RedSpec,
    config: &ccsim_engine::RedConfig,
) -> Result<(), ScenarioError> {
    let mean = r.mean_packet_size() as f64;
    // min_th in packets, whichever way the engine counts it.
    let min_pkts = if config.bytes {
        config.min_th / mean
    } else {
        config.min_th
    };
    let min_bytes = min_pkts * mean;
    let refusal = match r.limit {
        QueueStr::Packets(n) if (n as f64) < min_pkts => {
            Some(format!("\"{n}p\" is below min_th = {min_pkts} packets"))
        }
        QueueStr::Bytes(b) if (b as f64) < min_bytes => Some(format!(
            "{} is below min_th = {min_pkts} packets of mean_packet_size {}B ({} bytes)",
            show(&BytesStr(ccsim_core::Bytes(b))),
            r.mean_packet_size(),
            min_bytes.ceil()
        )),
        _ => None,
    };
    if let Some(what) = refusal {
        return err(
            format!("links[{i}].queue.limit"),
            format!(
                "{what}: the queue can never reach the average where RED acts; raise limit or \
                 lower min_th"
            ),
        );
    }
    Ok(())
}

/// The links' checks; returns each duplex link's index by its (sorted) node pair.
/// A step-marking queue has `threshold` and `limit` and no RED key; a RED queue no
/// `threshold`.
fn validate_step(i: usize, r: &RedSpec) -> Result<(), ScenarioError> {
    let p = |key: &str| format!("links[{i}].queue.{key}");
    if r.kind == QueueKind::Red {
        if r.threshold.is_some() {
            return err(p("threshold"), "applies to kind = \"step\" only".into());
        }
        return Ok(());
    }
    let red_keys = [
        ("profile", r.profile != RedProfile::Fj93),
        ("min_th", r.min_th.is_some()),
        ("max_th", r.max_th.is_some()),
        ("w_q", r.w_q.is_some()),
        ("max_p", r.max_p.is_some()),
        ("gentle", r.gentle.is_some()),
        ("bytes", r.bytes.is_some()),
        ("mean_packet_size", r.mean_packet_size.is_some()),
        ("ecn", r.ecn.is_some()),
        ("mark_p", r.mark_p.is_some()),
    ];
    if let Some((key, _)) = red_keys.iter().find(|(_, set)| *set) {
        return err(
            p(key),
            "is a RED key; a step-marking queue takes limit and threshold".into(),
        );
    }
    let QueueStr::Packets(limit) = r.limit else {
        return err(
            p("limit"),
            format!(
                "a step-marking queue counts packets, found {}",
                show(&r.limit)
            ),
        );
    };
    match r.threshold {
        None => err(
            p("threshold"),
            "is needed: the waiting packets above which it marks".into(),
        ),
        Some(k) if k >= limit => err(
            p("threshold"),
            format!("must be below the limit ({limit} packets), found {k}"),
        ),
        Some(_) => Ok(()),
    }
}

pub(crate) fn validate(
    links: &[LinkSpec],
) -> Result<BTreeMap<(String, String), usize>, ScenarioError> {
    if links.is_empty() {
        return err("links".into(), "at least one link is needed".into());
    }
    let mut pairs: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (i, l) in links.iter().enumerate() {
        let [a, b] = &l.between;
        for (j, n) in l.between.iter().enumerate() {
            check_name(&format!("links[{i}].between[{j}]"), n)?;
        }
        if a == b {
            return err(
                format!("links[{i}].between"),
                format!("a link needs two different nodes, found {a:?} twice"),
            );
        }
        if l.rate.0 .0 == 0 {
            return err(
                format!("links[{i}].rate"),
                format!("must be positive, found {}", show(&l.rate)),
            );
        }
        if let QueueSpec::Red(r) = &l.queue {
            validate_step(i, r)?;
        }
        if let Some(r) = l.queue.clone().as_red() {
            // Before the thresholds: byte mode converts them with it.
            if let Some(m) = r
                .mean_packet_size
                .filter(|m| m.0 .0 == 0 || m.0 .0 > 65_535)
            {
                return err(
                    format!("links[{i}].queue.mean_packet_size"),
                    format!("must be between 1B and 65535B, found {}", show(&m)),
                );
            }
            if r.mark_p.is_some() && r.profile != RedProfile::Ns2_35 {
                return err(
                    format!("links[{i}].queue.mark_p"),
                    "applies to profile = \"ns2.35\" only".into(),
                );
            }
            if let Some(p) = r.mark_p.filter(|p| !(0.0..=1.0).contains(p)) {
                return err(
                    format!("links[{i}].queue.mark_p"),
                    format!("expected a probability in [0, 1], found {p}"),
                );
            }
            let config = r.config(l.rate.0, l.delay.0);
            if let Err(e) = config.validate() {
                return err(format!("links[{i}].queue.{}", e.field), e.message);
            }
            validate_red_limit(i, &r, &config)?;
        }
        validate_link_size(i, l)?;
        if !(0.0..1.0).contains(&l.loss) || l.loss.is_nan() {
            return err(
                format!("links[{i}].loss"),
                format!("must be a probability in [0, 1), found {}", l.loss),
            );
        }
        let key = pair_key(a, b);
        if let Some(first) = pairs.insert(key, i) {
            return err(
                format!("links[{i}].between"),
                format!("a link between {a:?} and {b:?} already exists (links[{first}])"),
            );
        }
    }
    Ok(pairs)
}

/// The drop rules' checks: a known flow and an existing link direction.
pub(crate) fn validate_drops(
    drops: &[DropSpec],
    flow_names: &BTreeMap<String, usize>,
    pairs: &BTreeMap<(String, String), usize>,
) -> Result<(), ScenarioError> {
    for (i, d) in drops.iter().enumerate() {
        if !flow_names.contains_key(&d.flow) {
            return err(
                format!("drops[{i}].flow"),
                format!("no flow is called {:?}", d.flow),
            );
        }
        let Some((a, b)) = d.link.split_once("->") else {
            return err(
                format!("drops[{i}].link"),
                format!("{:?} is not a link direction (write \"a->b\")", d.link),
            );
        };
        let key = pair_key(a, b);
        if !pairs.contains_key(&key) {
            return err(
                format!("drops[{i}].link"),
                format!("there is no link between {a:?} and {b:?}"),
            );
        }
    }
    Ok(())
}
