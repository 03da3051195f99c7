//! `[[links]]` and their queues (DropTail, RED with ECN, step marking, DualPI2:
//! docs/queues.md), and `[[drops]]`, the deterministic drop rules on link directions.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{check_name, default_true, err, is_zero, pair_key, show};
use crate::error::strict::nested_error;
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
    /// Each packet's propagation lengthened by a uniform random amount below this, per
    /// direction, in the link's order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jitter: Option<DurStr>,
    /// Whether the link's routers run the router-assisted protocols' functions (XCP); false
    /// leaves their headers untouched here (partial deployment).
    #[serde(default = "default_true", skip_serializing_if = "is_yes")]
    pub assist: bool,
    /// A mahimahi packet-delivery trace timing each direction (`ccsim_engine::delivery`):
    /// millisecond timestamps, non-decreasing, the last positive, each one opportunity of
    /// 1504 bytes; repeated with period the last. The Python loader replaces
    /// `trace = "FILE"` with the file's list.
    /// CHOICE: `rate` stays required and is the nominal rate: RED's parameters, the BDP of
    /// `initial_ssthresh = "bdp"`, the emulator's lateness bound and the reading of
    /// `utilization` use it; the trace's mean is not substituted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<u64>>,
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
            QueueSpec::Red(r) if r.kind == QueueKind::Dualpi2 => {
                Discipline::DualPi2(r.dualpi2_config())
            }
            QueueSpec::Red(r) => Discipline::Red(r.config(self.rate.0, self.delay.0)),
            // The user's discipline is installed on the built link (`run::build`).
            QueueSpec::Custom(_) => Discipline::DropTail,
        };
        ccsim_engine::LinkConfig {
            rate: self.rate.0,
            delay: self.delay.0,
            limit,
            loss: self.loss,
            jitter: self.jitter.as_ref().map_or(ccsim_core::Dur::ZERO, |j| j.0),
            discipline,
            trace: self.trace.as_deref().map(|ms| {
                std::sync::Arc::new(
                    ccsim_engine::DeliveryTrace::from_ms(ms)
                        .expect("invariant: validate checked the trace"),
                )
            }),
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

/// An egress queue: DropTail with a limit, or a table (RED, step marking, DualPI2).
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // read once per link when a run is built
pub enum QueueSpec {
    /// Tail drop at the limit.
    DropTail(QueueStr),
    /// Random Early Detection (Floyd and Jacobson 1993, gentle variant) with ECN marking.
    Red(RedSpec),
    /// A user's discipline (`kind = "python"` or `"custom"`).
    Custom(CustomQueueSpec),
}

/// A queue run by a user's discipline ([`crate::registry`]): `{ kind = "python", class =
/// "module:Class", limit = "100p", ... }`; every other key is the class's (keyword arguments
/// in Python).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
pub struct CustomQueueSpec {
    /// "python" or "custom".
    pub kind: QueueKind,
    /// The discipline: a Python `"module:Class"` or a registered name.
    pub class: String,
    /// Physical limit of the queue (100 packets), applied after the discipline's decision.
    #[serde(default = "default_red_limit")]
    pub limit: LimitKey,
    /// The discipline's own keys.
    #[serde(flatten)]
    pub options: crate::registry::CcOptions,
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
            QueueSpec::Red(r) => r.limit.value,
            QueueSpec::Custom(c) => c.limit.value,
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
    /// DualPI2, the DualQ Coupled AQM (RFC 9332), as Linux's `sch_dualpi2`.
    Dualpi2,
    /// A Python class's discipline (`class = "module:Class"`, or a name Python registered).
    Python,
    /// A discipline registered from Rust (`class = "NAME"`).
    Custom,
}

/// A queue table's `limit`, and whether it was written (a DualPI2 queue's default, Linux's
/// 10000 packets, differs from RED's and step marking's 100). Compares and serialises as
/// its value.
#[derive(Clone, Copy, Debug)]
pub struct LimitKey {
    /// The limit.
    pub value: QueueStr,
    /// Whether the spec wrote it.
    pub given: bool,
}

impl PartialEq for LimitKey {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl Serialize for LimitKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

impl<'de> Deserialize<'de> for LimitKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        QueueStr::deserialize(d).map(|value| LimitKey { value, given: true })
    }
}

impl JsonSchema for LimitKey {
    fn schema_name() -> String {
        QueueStr::schema_name()
    }
    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        QueueStr::json_schema(gen)
    }
}

/// Which packets a DualPI2 queue puts in its L queue (tc-dualpi2 `l4s_ect` | `any_ect`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
pub enum Dualpi2Classify {
    /// ECT(1) and CE (the default).
    #[serde(rename = "l4s_ect")]
    L4sEct,
    /// ECT(0), ECT(1) and CE.
    #[serde(rename = "any_ect")]
    AnyEct,
}

/// What a DualPI2 queue does on overload (tc-dualpi2 `drop_on_overload` | `overflow`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
pub enum Dualpi2Overload {
    /// Drop with p_C whatever the ECN field (the default).
    #[serde(rename = "drop_on_overload")]
    DropOnOverload,
    /// Cap the probability and let the queues grow to the limit.
    #[serde(rename = "overflow")]
    Overflow,
}

/// When a DualPI2 queue decides (tc-dualpi2 `drop_dequeue` | `drop_enqueue`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
pub enum Dualpi2DropAt {
    /// At dequeue (the default).
    #[serde(rename = "drop_dequeue")]
    DropDequeue,
    /// At enqueue.
    #[serde(rename = "drop_enqueue")]
    DropEnqueue,
}

/// DualPI2's `step_thresh`: a duration ("1ms") or packets ("5p").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepThreshStr {
    /// A sojourn time.
    Time(DurStr),
    /// Packets in the L queue.
    Packets(u64),
}

impl Serialize for StepThreshStr {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            StepThreshStr::Time(d) => d.serialize(s),
            StepThreshStr::Packets(n) => s.serialize_str(&format!("{n}p")),
        }
    }
}

impl<'de> Deserialize<'de> for StepThreshStr {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = StepThreshStr;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a duration such as \"1ms\" or a packet count such as \"5p\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<StepThreshStr, E> {
                if v.trim_end().ends_with('p') {
                    return QueueStr::deserialize(serde::de::value::StrDeserializer::<E>::new(v))
                        .and_then(|q| match q {
                            QueueStr::Packets(n) => Ok(StepThreshStr::Packets(n)),
                            QueueStr::Bytes(_) => Err(E::custom(format!(
                                "expected a duration such as \"1ms\" or packets such as \"5p\", found {v:?}"
                            ))),
                        });
                }
                // The duration's own message names only time units; this key also takes packets.
                DurStr::deserialize(serde::de::value::StrDeserializer::<E>::new(v))
                    .map(StepThreshStr::Time)
                    .map_err(|_| {
                        E::custom(format!(
                            "expected a duration such as \"1ms\" (units: ns, us, ms, s) or packets such as \"5p\", found {v:?}"
                        ))
                    })
            }
        }
        d.deserialize_str(V)
    }
}

impl JsonSchema for StepThreshStr {
    fn schema_name() -> String {
        "StepThresh".to_string()
    }
    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        let mut obj = schemars::schema::SchemaObject::default();
        obj.subschemas().any_of = Some(vec![
            gen.subschema_for::<DurStr>(),
            gen.subschema_for::<QueueStr>(),
        ]);
        schemars::schema::Schema::Object(obj)
    }
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
/// keys take the profile's values), step marking (`kind = "step"`: `limit` and `threshold`
/// only) or DualPI2 (`kind = "dualpi2"`: `limit` and the tc-dualpi2 keys, each optional with
/// Linux's default).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RedSpec {
    /// "red", "step" or "dualpi2".
    pub kind: QueueKind,
    /// Step marking: CE on ECN-capable packets that arrive while more than this many packets
    /// wait (K).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub threshold: Option<u64>,
    /// Whose RED: "fj93" (the default) or "ns2.35".
    #[serde(default, skip_serializing_if = "is_fj93")]
    pub profile: RedProfile,
    /// Physical limit of the queue (100 packets; DualPI2: 10000 packets, both queues).
    #[serde(default = "default_red_limit")]
    pub limit: LimitKey,
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
    /// DualPI2: the PI target queue delay ("15ms").
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub target: Option<DurStr>,
    /// DualPI2: the PI update interval ("16ms", at least 1us).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub tupdate: Option<DurStr>,
    /// DualPI2: the PI integral gain, Hz (0.16).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub alpha: Option<f64>,
    /// DualPI2: the PI proportional gain, Hz (3.2).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub beta: Option<f64>,
    /// DualPI2: k, the L queue's marking probability is k p' (2).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub coupling_factor: Option<u8>,
    /// DualPI2: the L queue's step, a sojourn time ("1ms") or packets ("5p").
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub step_thresh: Option<StepThreshStr>,
    /// DualPI2: the step applies to a packet that found at least this many packets in the L
    /// queue (0).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub min_qlen_step: Option<u32>,
    /// DualPI2: the C queue's share of the WRR scheduler, percent (10).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub classic_protection: Option<u8>,
    /// DualPI2: "l4s_ect" (ECT(1) and CE to the L queue, the default) or "any_ect".
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub classify: Option<Dualpi2Classify>,
    /// DualPI2: "drop_on_overload" (the default) or "overflow".
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub overload: Option<Dualpi2Overload>,
    /// DualPI2: "drop_dequeue" (the default) or "drop_enqueue".
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub drop_at: Option<Dualpi2DropAt>,
}

fn is_fj93(v: &RedProfile) -> bool {
    super::omitting_defaults() && *v == RedProfile::Fj93
}

fn default_red_limit() -> LimitKey {
    LimitKey {
        value: QueueStr::Packets(100),
        given: false,
    }
}

/// Linux's DualPI2 `limit` (10000 packets).
pub const DUALPI2_DEFAULT_LIMIT: u64 = 10_000;

/// tc's unit of alpha and beta, 1/256 Hz, to the nearest (0.16 Hz is Linux's 41).
fn tc_gain(hz: f64) -> u32 {
    let v = (hz * 256.0).round();
    if v >= 1.0 && v <= f64::from(ccsim_engine::dualpi2::ALPHA_BETA_MAX) {
        v as u32
    } else {
        0
    }
}

impl RedSpec {
    /// The DualPI2 keys written, by name.
    fn dualpi2_keys(&self) -> [(&'static str, bool); 11] {
        [
            ("target", self.target.is_some()),
            ("tupdate", self.tupdate.is_some()),
            ("alpha", self.alpha.is_some()),
            ("beta", self.beta.is_some()),
            ("coupling_factor", self.coupling_factor.is_some()),
            ("step_thresh", self.step_thresh.is_some()),
            ("min_qlen_step", self.min_qlen_step.is_some()),
            ("classic_protection", self.classic_protection.is_some()),
            ("classify", self.classify.is_some()),
            ("overload", self.overload.is_some()),
            ("drop_at", self.drop_at.is_some()),
        ]
    }

    /// The engine's DualPI2 settings: Linux's defaults, each key given replacing its own.
    #[must_use]
    pub fn dualpi2_config(&self) -> ccsim_engine::DualPi2Config {
        use ccsim_engine::{L4sClass, StepThresh};
        let d = ccsim_engine::DualPi2Config::default();
        ccsim_engine::DualPi2Config {
            target: self.target.map_or(d.target, |t| t.0 .0),
            tupdate: self.tupdate.map_or(d.tupdate, |t| t.0 .0),
            alpha: self.alpha.map_or(d.alpha, tc_gain),
            beta: self.beta.map_or(d.beta, tc_gain),
            step_thresh: match self.step_thresh {
                None => d.step_thresh,
                Some(StepThreshStr::Time(t)) => StepThresh::Time(t.0 .0),
                Some(StepThreshStr::Packets(n)) => StepThresh::Packets(n),
            },
            min_qlen_step: self.min_qlen_step.map_or(d.min_qlen_step, u64::from),
            coupling_factor: self.coupling_factor.unwrap_or(d.coupling_factor),
            classic_protection: self.classic_protection.unwrap_or(d.classic_protection),
            class: match self.classify {
                Some(Dualpi2Classify::AnyEct) => L4sClass::AnyEct,
                _ => L4sClass::L4sEct,
            },
            drop_on_overload: self.overload != Some(Dualpi2Overload::Overflow),
            drop_enqueue: self.drop_at == Some(Dualpi2DropAt::DropEnqueue),
        }
    }

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
                f.write_str("a DropTail limit such as \"100p\" or \"20kB\", or a table { kind = \"red\", ... }, { kind = \"step\", ... } or { kind = \"dualpi2\", ... }")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<QueueSpec, E> {
                QueueStr::deserialize(serde::de::value::StrDeserializer::<E>::new(v))
                    .map(QueueSpec::DropTail)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<QueueSpec, A::Error> {
                // The table is read whole, then as the struct its kind names: a user's
                // discipline takes keys the built-in tables refuse.
                let mut table = serde_json::Map::new();
                while let Some((k, v)) = map.next_entry::<String, serde_json::Value>()? {
                    table.insert(k, v);
                }
                let user = matches!(
                    table.get("kind").and_then(serde_json::Value::as_str),
                    Some("python" | "custom")
                );
                let value = serde_json::Value::Object(table);
                let nested = |e: ScenarioError| serde::de::Error::custom(nested_error(&e));
                if user {
                    return crate::error::strict::from_value::<CustomQueueSpec>(&value)
                        .map(QueueSpec::Custom)
                        .map_err(nested);
                }
                let mut r = crate::error::strict::from_value::<RedSpec>(&value).map_err(nested)?;
                if r.kind == QueueKind::Dualpi2 && !r.limit.given {
                    r.limit.value = QueueStr::Packets(DUALPI2_DEFAULT_LIMIT);
                }
                Ok(QueueSpec::Red(r))
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
            QueueSpec::Custom(c) => c.serialize(s),
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
            gen.subschema_for::<CustomQueueSpec>(),
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
        QueueSpec::Red(_) | QueueSpec::Custom(_) => format!("links[{i}].queue.limit"),
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
    // A packet may propagate for up to delay + jitter: the same bound on what the link holds.
    if let Some(jitter) = &l.jitter {
        let longest = u128::from(l.delay.0 .0) + u128::from(jitter.0 .0);
        let held = u128::from(l.rate.0 .0) * longest / 8 / 1_000_000_000;
        if held > u128::from(MAX_LINK_BDP_BYTES) {
            return err(
                format!("links[{i}].jitter"),
                format!(
                    "{} of jitter beside {} of delay at {} holds up to {held} bytes in flight in each \
                     direction; at most {MAX_LINK_BDP_BYTES} (1GB)",
                    show(jitter),
                    show(&l.delay),
                    show(&l.rate)
                ),
            );
        }
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
    let refusal = match r.limit.value {
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
    if r.kind != QueueKind::Dualpi2 {
        if let Some((key, _)) = r.dualpi2_keys().iter().find(|(_, set)| *set) {
            return err(p(key), "applies to kind = \"dualpi2\" only".into());
        }
    }
    if r.kind != QueueKind::Step && r.threshold.is_some() {
        return err(p("threshold"), "applies to kind = \"step\" only".into());
    }
    if r.kind == QueueKind::Red {
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
        let takes = if r.kind == QueueKind::Step {
            "a step-marking queue takes limit and threshold"
        } else {
            "a DualPI2 queue takes limit and the tc-dualpi2 keys (docs/queues.md)"
        };
        return err(p(key), format!("is a RED key; {takes}"));
    }
    if r.kind == QueueKind::Dualpi2 {
        return validate_dualpi2(i, r);
    }
    let QueueStr::Packets(limit) = r.limit.value else {
        return err(
            p("limit"),
            format!(
                "a step-marking queue counts packets, found {}",
                show(&r.limit.value)
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

/// A DualPI2 queue's keys, each against Linux's range (its netlink policy), or ours where
/// Linux has none that a simulation can honour.
fn validate_dualpi2(i: usize, r: &RedSpec) -> Result<(), ScenarioError> {
    let p = |key: &str| format!("links[{i}].queue.{key}");
    if let QueueStr::Bytes(_) = r.limit.value {
        return err(
            p("limit"),
            format!(
                "a DualPI2 queue counts packets (both queues together), found {}",
                show(&r.limit.value)
            ),
        );
    }
    if r.limit.value == QueueStr::Packets(0) {
        return err(p("limit"), "must be at least 1 packet, found \"0p\"".into());
    }
    // CHOICE: tupdate at least 1us (Linux takes microseconds, at least 1): each update is a
    // step of work, so a shorter interval would only make the run slower.
    if let Some(t) = r.tupdate.filter(|t| t.0 .0 < 1_000) {
        return err(
            p("tupdate"),
            format!("must be at least 1us, found {}", show(&t)),
        );
    }
    for (key, v) in [("alpha", r.alpha), ("beta", r.beta)] {
        if let Some(v) = v.filter(|v| tc_gain(*v) == 0 || !v.is_finite()) {
            return err(
                p(key),
                format!(
                    "must be a gain in Hz from 1/256 (0.00390625) to {}, found {v}",
                    ccsim_engine::dualpi2::ALPHA_BETA_MAX / 256
                ),
            );
        }
    }
    if r.coupling_factor == Some(0) {
        return err(p("coupling_factor"), "must be at least 1, found 0".into());
    }
    if let Some(c) = r.classic_protection.filter(|c| *c > 100) {
        return err(
            p("classic_protection"),
            format!("must be a percentage from 0 to 100, found {c}"),
        );
    }
    if let Err(e) = r.dualpi2_config().validate() {
        return err(p(e.field), e.message);
    }
    Ok(())
}

/// A user's discipline: its class resolves, its keys fit it.
fn validate_custom_queue(i: usize, c: &CustomQueueSpec) -> Result<(), ScenarioError> {
    let entry = crate::registry::resolve_queue(&c.class)
        .or_else(|m| err(format!("links[{i}].queue.class"), m))?;
    if let Some(check) = entry.check {
        check(&c.options).or_else(|m| err(format!("links[{i}].queue"), m))?;
    }
    Ok(())
}

pub(crate) fn validate(
    links: &[LinkSpec],
) -> Result<BTreeMap<(String, String), usize>, ScenarioError> {
    if links.is_empty() {
        return err("links".into(), "at least one link is needed".into());
    }
    let mut pairs: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (i, l) in links.iter().enumerate() {
        if let QueueSpec::Custom(c) = &l.queue {
            validate_custom_queue(i, c)?;
        }
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
        if let Some(ms) = &l.trace {
            if let Err(e) = ccsim_engine::DeliveryTrace::from_ms(ms) {
                return err(format!("links[{i}].trace"), e);
            }
        }
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
