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
            QueueSpec::Red(r) => Discipline::Red(r.config()),
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
    /// The physical limit.
    #[must_use]
    pub fn limit(&self) -> QueueStr {
        match self {
            QueueSpec::DropTail(q) => *q,
            QueueSpec::Red(r) => r.limit,
        }
    }
}

/// The only queue kind written as a table.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum QueueKind {
    /// Random Early Detection.
    Red,
}

/// A RED queue. Defaults are ns-2's classic RED (docs/queues.md), except `ecn`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RedSpec {
    /// Always "red".
    pub kind: QueueKind,
    /// Physical limit of the queue.
    #[serde(default = "default_red_limit")]
    pub limit: QueueStr,
    /// Average queue (packets) below which nothing is dropped or marked.
    #[serde(default = "default_red_min_th")]
    pub min_th: f64,
    /// Average queue (packets) at which the early probability reaches max_p.
    #[serde(default = "default_red_max_th")]
    pub max_th: f64,
    /// Weight of the newest sample in the average queue.
    #[serde(default = "default_red_w_q")]
    pub w_q: f64,
    /// Early drop (or mark) probability at max_th.
    #[serde(default = "default_red_max_p")]
    pub max_p: f64,
    /// Gentle variant: the probability rises to 1 between max_th and 2 max_th.
    #[serde(default = "default_true")]
    pub gentle: bool,
    /// Byte mode: the queue is measured in bytes (thresholds converted with
    /// mean_packet_size) and the probability scaled by packet size / mean_packet_size.
    #[serde(default)]
    pub bytes: bool,
    /// Typical packet size: the idle-time unit and the byte-mode scale.
    #[serde(default = "default_red_mean_packet_size")]
    pub mean_packet_size: BytesStr,
    /// Mark ECN-capable packets CE instead of dropping them early (RFC 3168).
    #[serde(default = "default_true")]
    pub ecn: bool,
}

fn default_red_limit() -> QueueStr {
    QueueStr::Packets(100)
}
fn default_red_min_th() -> f64 {
    ccsim_engine::RedConfig::default().min_th
}
fn default_red_max_th() -> f64 {
    ccsim_engine::RedConfig::default().max_th
}
fn default_red_w_q() -> f64 {
    ccsim_engine::RedConfig::default().w_q
}
fn default_red_max_p() -> f64 {
    ccsim_engine::RedConfig::default().max_p
}
fn default_red_mean_packet_size() -> BytesStr {
    BytesStr(ccsim_core::Bytes(u64::from(
        ccsim_engine::RedConfig::default().mean_packet_size,
    )))
}

impl RedSpec {
    /// The engine's configuration (thresholds converted to bytes in byte mode).
    #[must_use]
    pub fn config(&self) -> ccsim_engine::RedConfig {
        let c = ccsim_engine::RedConfig {
            min_th: self.min_th,
            max_th: self.max_th,
            w_q: self.w_q,
            max_p: self.max_p,
            gentle: self.gentle,
            bytes: false,
            mean_packet_size: u32::try_from(self.mean_packet_size.0 .0).unwrap_or(u32::MAX),
            ecn: self.ecn,
        };
        if self.bytes {
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
                f.write_str("a DropTail limit such as \"100p\" or \"20kB\", or a table { kind = \"red\", ... }")
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
fn validate_red_limit(i: usize, r: &RedSpec) -> Result<(), ScenarioError> {
    let min_bytes = r.min_th * r.mean_packet_size.0 .0 as f64;
    let refusal = match r.limit {
        QueueStr::Packets(n) if (n as f64) < r.min_th => {
            Some(format!("\"{n}p\" is below min_th = {} packets", r.min_th))
        }
        QueueStr::Bytes(b) if (b as f64) < min_bytes => Some(format!(
            "{} is below min_th = {} packets of mean_packet_size {} ({} bytes)",
            show(&BytesStr(ccsim_core::Bytes(b))),
            r.min_th,
            show(&r.mean_packet_size),
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
            // Before the thresholds: byte mode converts them with it.
            if r.mean_packet_size.0 .0 == 0 || r.mean_packet_size.0 .0 > 65_535 {
                return err(
                    format!("links[{i}].queue.mean_packet_size"),
                    format!(
                        "must be between 1B and 65535B, found {}",
                        show(&r.mean_packet_size)
                    ),
                );
            }
            if let Err(e) = r.config().validate() {
                return err(format!("links[{i}].queue.{}", e.field), e.message);
            }
            validate_red_limit(i, r)?;
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
