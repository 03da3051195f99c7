//! The scenario spec: serde types, parsing with field paths, semantic validation, schema.
//!
//! Unknown keys are rejected everywhere (`deny_unknown_fields`): a typo must not be
//! silently ignored. Defaults are stated once, on the field.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::ScenarioError;
use crate::units::{BytesStr, DurStr, QueueStr, RateStr, SsthreshStr};

/// A whole scenario.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// Run-wide settings.
    pub run: RunSpec,
    /// Duplex links; nodes are created by naming them.
    pub links: Vec<LinkSpec>,
    /// Traffic.
    #[serde(default)]
    pub flows: Vec<FlowSpec>,
    /// TICP information-collection sessions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ticp: Vec<TicpSpec>,
    /// Deterministic drop rules (tests and experiments).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drops: Vec<DropSpec>,
    /// What to record.
    #[serde(default)]
    pub output: OutputSpec,
}

/// Run-wide settings.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    /// Simulated time to run.
    pub duration: DurStr,
    /// Master random seed.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Summary metrics ignore everything before this time.
    #[serde(default = "zero_dur")]
    pub warmup: DurStr,
    /// Route metric: "delay" (sum of propagation delays) or "hops".
    #[serde(default)]
    pub routing: Routing,
}

fn default_seed() -> u64 {
    1
}
fn zero_dur() -> DurStr {
    DurStr(ccsim_core::Dur::ZERO)
}

/// Route metric.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Routing {
    /// Shortest total propagation delay.
    #[default]
    Delay,
    /// Fewest hops.
    Hops,
}

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
}

/// `between`: exactly two node names, said so whatever else is found.
fn node_pair<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[String; 2], D::Error> {
    let v = serde_json::Value::deserialize(d)?;
    if let serde_json::Value::Array(a) = &v {
        if let [serde_json::Value::String(x), serde_json::Value::String(y)] = a.as_slice() {
            return Ok([x.clone(), y.clone()]);
        }
    }
    let mut found = v.to_string();
    if found.chars().count() > 80 {
        found = found.chars().take(77).collect::<String>() + "...";
    }
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
fn default_true() -> bool {
    true
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
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// Transport protocol of a flow.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// TCP Tahoe: fast retransmit, no fast recovery (RFC 5681, Jacobson 1988).
    Tahoe,
    /// TCP Reno (RFC 5681 fast recovery, left on the first new ACK).
    Reno,
    /// TCP NewReno (RFC 5681, 6582, 6298).
    Newreno,
    /// TCP SACK (RFC 2018 blocks, RFC 6675 loss recovery).
    Sack,
    /// TCP Vegas (Brakmo and Peterson 1995), NewReno loss recovery.
    Vegas,
    /// UDP constant bit rate.
    Cbr,
    /// UDP with exponential inter-departure times.
    Poisson,
    /// TFRC, TCP-Friendly Rate Control (RFC 5348).
    Tfrc,
    /// TCP-Friend: equation (2) of the CBRAA paper on RTCP-style receiver reports.
    #[serde(rename = "tcp-friend")]
    TcpFriend,
    /// CBRAA, the Cycle-Based Rate Adaptation Algorithm (Ait-Hellal, Yamamoto, Leduc).
    Cbraa,
    /// Primo, the preventive rate-based protocol (Chatté, Ducourthial, Niculescu).
    Primo,
}

impl Protocol {
    /// Name used in files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Tahoe => "tahoe",
            Protocol::Reno => "reno",
            Protocol::Newreno => "newreno",
            Protocol::Sack => "sack",
            Protocol::Vegas => "vegas",
            Protocol::Cbr => "cbr",
            Protocol::Poisson => "poisson",
            Protocol::Tfrc => "tfrc",
            Protocol::TcpFriend => "tcp-friend",
            Protocol::Cbraa => "cbraa",
            Protocol::Primo => "primo",
        }
    }
    /// Whether this is a TCP variant.
    #[must_use]
    pub fn is_tcp(self) -> bool {
        matches!(
            self,
            Protocol::Tahoe | Protocol::Reno | Protocol::Newreno | Protocol::Sack | Protocol::Vegas
        )
    }
    /// Whether this is a rate-based congestion-controlled protocol.
    #[must_use]
    pub fn is_rate_based(self) -> bool {
        matches!(
            self,
            Protocol::Tfrc | Protocol::TcpFriend | Protocol::Cbraa | Protocol::Primo
        )
    }
    /// Whether the sender is steered by RTCP-style receiver reports.
    #[must_use]
    pub fn uses_reports(self) -> bool {
        matches!(self, Protocol::TcpFriend | Protocol::Cbraa)
    }
}

/// Vegas thresholds, in segments queued in the network.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct VegasSpec {
    /// Grow the window while fewer segments are queued.
    #[serde(default = "default_vegas_alpha")]
    pub alpha: f64,
    /// Shrink the window while more segments are queued.
    #[serde(default = "default_vegas_beta")]
    pub beta: f64,
    /// Leave slow start once more segments are queued.
    #[serde(default = "default_vegas_gamma")]
    pub gamma: f64,
}

/// CBRAA's constants (Figure 1 and section 3.2 of the paper).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CbraaSpec {
    /// Decrease when the observed loss exceeds a times the theoretical loss.
    #[serde(default = "default_cbraa_a")]
    pub a: f64,
    /// Increase when the observed loss is under b times the theoretical loss.
    #[serde(default = "default_cbraa_b")]
    pub b: f64,
    /// Weight of the old rate in the rate's moving average.
    #[serde(default = "default_cbraa_alpha")]
    pub alpha: f64,
    /// Weight of the theoretical loss in increase() and decrease() (ours; the paper does
    /// not give it).
    #[serde(default = "default_cbraa_beta")]
    pub beta: f64,
}

fn default_cbraa_a() -> f64 {
    ccsim_protocols::CbraaParams::default().a
}
fn default_cbraa_b() -> f64 {
    ccsim_protocols::CbraaParams::default().b
}
fn default_cbraa_alpha() -> f64 {
    ccsim_protocols::CbraaParams::default().alpha
}
fn default_cbraa_beta() -> f64 {
    ccsim_protocols::CbraaParams::default().beta
}

/// Primo's constants (section III-E of the paper; thresholds are fractions of FTT_ref).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PrimoSpec {
    /// D = tau RTT_ref: how long ago the FTT excess Algorithm 1 reads was recorded.
    #[serde(default = "default_primo_tau")]
    pub tau: f64,
    /// Strong congestion at or above this FTT excess.
    #[serde(default = "default_primo_th_str")]
    pub th_str: f64,
    /// Moderate congestion at or above this FTT excess.
    #[serde(default = "default_primo_th_mod")]
    pub th_mod: f64,
    /// Bandwidth release below this FTT excess.
    #[serde(default = "default_primo_th_rel")]
    pub th_rel: f64,
    /// Factor on the reception rate under strong congestion.
    #[serde(default = "default_primo_f_str")]
    pub f_str: f64,
    /// Factor on the reception rate under moderate congestion.
    #[serde(default = "default_primo_f_mod")]
    pub f_mod: f64,
    /// Factor on the reception rate when bandwidth is released.
    #[serde(default = "default_primo_f_rel")]
    pub f_rel: f64,
    /// Gain of the correction of the rate one RTT ago.
    #[serde(default = "default_primo_w1")]
    pub w1: f64,
    /// Weight of the current rate in the final average.
    #[serde(default = "default_primo_w2")]
    pub w2: f64,
    /// Inter-arrival gaps the receiver measures the reception rate over (the paper: 1, the
    /// instantaneous rate).
    #[serde(default = "default_primo_rcv_samples")]
    pub rcv_samples: u32,
    /// How far the receiver's clock runs ahead of the sender's (it must not matter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receiver_clock_offset: Option<DurStr>,
}

macro_rules! primo_defaults {
    ($($name:ident => $field:ident),* $(,)?) => {
        $(fn $name() -> f64 {
            ccsim_protocols::PrimoParams::default().$field
        })*
    };
}
primo_defaults!(
    default_primo_tau => tau,
    default_primo_th_str => th_str,
    default_primo_th_mod => th_mod,
    default_primo_th_rel => th_rel,
    default_primo_f_str => f_str,
    default_primo_f_mod => f_mod,
    default_primo_f_rel => f_rel,
    default_primo_w1 => w1,
    default_primo_w2 => w2,
);

fn default_primo_rcv_samples() -> u32 {
    1
}

impl PrimoSpec {
    /// Algorithm 1's constants.
    #[must_use]
    pub fn params(&self) -> ccsim_protocols::PrimoParams {
        ccsim_protocols::PrimoParams {
            tau: self.tau,
            th_str: self.th_str,
            th_mod: self.th_mod,
            th_rel: self.th_rel,
            f_str: self.f_str,
            f_mod: self.f_mod,
            f_rel: self.f_rel,
            w1: self.w1,
            w2: self.w2,
        }
    }
}

/// TFRC options.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TfrcSpec {
    /// Discount old loss intervals after a long loss-free period (RFC 5348 section 5.5).
    #[serde(default)]
    pub history_discounting: bool,
}

fn default_vegas_alpha() -> f64 {
    ccsim_protocols::VegasParams::default().alpha
}
fn default_vegas_beta() -> f64 {
    ccsim_protocols::VegasParams::default().beta
}
fn default_vegas_gamma() -> f64 {
    ccsim_protocols::VegasParams::default().gamma
}

/// One flow: a sender at `from`, a receiver at `to`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    /// Unique name (keys the results).
    pub name: String,
    /// Protocol.
    pub protocol: Protocol,
    /// Sending node.
    pub from: String,
    /// Receiving node.
    pub to: String,
    /// Start time.
    #[serde(default = "zero_dur")]
    pub start: DurStr,
    /// Stop offering new data at this time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<DurStr>,
    /// Application bytes to transfer (TCP); absent for an unending transfer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<BytesStr>,
    /// Sending rate (UDP sources, required there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<RateStr>,
    /// Whole-packet size of data packets.
    #[serde(default = "default_packet_size")]
    pub packet_size: BytesStr,
    /// TCP: delayed ACKs at the receiver (every second segment or 200 ms).
    #[serde(default)]
    pub delayed_ack: bool,
    /// TCP: initial window, segments.
    #[serde(default = "default_initial_window")]
    pub initial_window: u32,
    /// TCP: lower bound on the retransmission timeout.
    #[serde(default = "default_min_rto")]
    pub min_rto: DurStr,
    /// TCP: receiver window in segments (absent: unbounded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_window: Option<u64>,
    /// TCP: ECN-capable (RFC 3168): ECT data, CE echoed, window halved once per window.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ecn: bool,
    /// TCP Vegas thresholds (only with `protocol = "vegas"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vegas: Option<VegasSpec>,
    /// TCP: initial slow-start threshold, "bdp" (the path's bottleneck rate times its
    /// round-trip propagation delay) or a size such as "64kB" (absent: unbounded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_ssthresh: Option<SsthreshStr>,
    /// TCP: paced slow start (the segments one ACK releases are spaced, not sent back to
    /// back).
    #[serde(default, skip_serializing_if = "is_false")]
    pub paced_slow_start: bool,
    /// TCP: the spacing of paced slow start (absent: half the estimated inter-ACK time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pacing_spacing: Option<DurStr>,
    /// TCP: grow the window only while the sender uses it (Linux `tcp_is_cwnd_limited`);
    /// false for RFC 5681's unconditional growth.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub cwnd_limited_growth: bool,
    /// TCP-Friend, CBRAA: the receiver's report interval (absent: 5 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report_interval: Option<DurStr>,
    /// TCP-Friend, CBRAA: the rate before the first report (absent: 5 packets per second).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_rate: Option<RateStr>,
    /// Rate-based flows: a lower bound on the sending rate (absent: the protocol's own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rate: Option<RateStr>,
    /// Rate-based flows: an upper bound on the sending rate (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rate: Option<RateStr>,
    /// CBRAA constants (only with `protocol = "cbraa"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cbraa: Option<CbraaSpec>,
    /// TFRC options (only with `protocol = "tfrc"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tfrc: Option<TfrcSpec>,
    /// Primo constants (only with `protocol = "primo"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primo: Option<PrimoSpec>,
}

impl FlowSpec {
    /// The TCP-only keys set on this flow, by name.
    fn tcp_keys_set(&self) -> [(&'static str, bool); 7] {
        [
            ("cwnd_limited_growth", !self.cwnd_limited_growth),
            ("delayed_ack", self.delayed_ack),
            ("ecn", self.ecn),
            ("initial_ssthresh", self.initial_ssthresh.is_some()),
            ("paced_slow_start", self.paced_slow_start),
            ("pacing_spacing", self.pacing_spacing.is_some()),
            ("vegas", self.vegas.is_some()),
        ]
    }
    /// The rate-based-only keys set on this flow, by name.
    fn rate_keys_set(&self) -> [(&'static str, bool); 7] {
        [
            ("report_interval", self.report_interval.is_some()),
            ("initial_rate", self.initial_rate.is_some()),
            ("min_rate", self.min_rate.is_some()),
            ("max_rate", self.max_rate.is_some()),
            ("cbraa", self.cbraa.is_some()),
            ("tfrc", self.tfrc.is_some()),
            ("primo", self.primo.is_some()),
        ]
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(b: &bool) -> bool {
    !*b
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_true(b: &bool) -> bool {
    *b
}

fn default_packet_size() -> BytesStr {
    BytesStr(ccsim_core::Bytes(1000))
}
fn default_initial_window() -> u32 {
    2
}
fn default_min_rto() -> DurStr {
    DurStr(ccsim_core::Dur::from_millis(200))
}

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
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
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

/// What to record.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// Time-series resolution.
    #[serde(default = "default_interval")]
    pub interval: DurStr,
    /// Series sampled every interval: "rate", "sent_rate" and "delay" (per flow), "queue" (per
    /// link direction), and agent variables "cwnd", "ssthresh", "srtt", "rto", "inflight",
    /// "send_rate", "reports", "round", "cluster", "ca_state".
    #[serde(default = "default_series")]
    pub series: Vec<String>,
    /// Agent variables recorded at every change (e.g. "cwnd"), beside the sampled series.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trace: Vec<String>,
    /// Per-flow series (true) or their aggregate over the flows (false); unset: per flow for
    /// runs of at most 64 flows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_flow_series: Option<bool>,
}

impl Default for OutputSpec {
    fn default() -> Self {
        OutputSpec {
            interval: default_interval(),
            series: default_series(),
            trace: Vec::new(),
            per_flow_series: None,
        }
    }
}

fn default_interval() -> DurStr {
    DurStr(ccsim_core::Dur::from_secs(1))
}
fn default_series() -> Vec<String> {
    vec!["rate".into(), "cwnd".into(), "queue".into()]
}

// CHOICE: the bounds below are ours (no source gives them): each keeps what one key can make
// the simulator hold to about a gigabyte, far above what the experiments use (docs/scenarios.md,
// "Bounds", gives each with its reason and the memory measured at the bound).

/// Most sampling instants a run may ask for (each is an event, and holds one record per
/// entity and series).
pub const MAX_SAMPLES: u64 = 10_000_000;
/// Most values the sampled series may hold in all (22 bytes each in the engine, more once
/// handed to Python): samples times the flows, link directions and agents they cover.
pub const MAX_SERIES_VALUES: u64 = 20_000_000;
/// Most segments of a TCP initial window: the whole window leaves at once, one packet each.
pub const MAX_INITIAL_WINDOW: u32 = 100_000;
/// Most packets a queue may be configured to hold.
pub const MAX_QUEUE_PACKETS: u64 = 1_000_000;
/// Most bytes a queue may be configured to hold.
pub const MAX_QUEUE_BYTES: u64 = 1_000_000_000;
/// Most bytes one direction of a link may hold in flight (rate times delay): each packet on
/// the wire is a live event.
pub const MAX_LINK_BDP_BYTES: u64 = 1_000_000_000;

/// Engine series names accepted in `output.series` besides the agent variables.
pub const ENGINE_SERIES: [&str; 4] = ["rate", "sent_rate", "delay", "queue"];

/// Parse a TOML document into a validated spec.
///
/// # Errors
/// [`ScenarioError::Syntax`] with line and column, or [`ScenarioError::Spec`] with a path.
pub fn parse_spec_toml(text: &str) -> Result<Spec, ScenarioError> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let (line, column) = e.span().map_or((0, 0), |span| line_col(text, span.start));
        ScenarioError::Syntax {
            line,
            column,
            message: syntax_message(e.message()),
        }
    })?;
    parse_spec_value(toml_to_json(toml::Value::Table(table), "")?)
}

/// The TOML parser's message on one line, quoted with `"`, without Rust's "target type".
fn syntax_message(message: &str) -> String {
    let one_line = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(": ")
        .replace('`', "\"");
    if one_line.contains("too large to fit in target type") {
        return format!(
            "a number too large for TOML (whole numbers are at most {})",
            i64::MAX
        );
    }
    if one_line.contains("too small to fit in target type") {
        return format!(
            "a number too small for TOML (whole numbers are at least {})",
            i64::MIN
        );
    }
    one_line
}

/// The JSON form of a TOML document. A JSON number cannot be `nan` or `inf` and a scenario
/// holds no dates, so both are refused here with their path rather than turned into `null`.
fn toml_to_json(v: toml::Value, path: &str) -> Result<serde_json::Value, ScenarioError> {
    use serde_json::Value as J;
    let here = || {
        if path.is_empty() {
            "(document)".to_string()
        } else {
            path.to_string()
        }
    };
    Ok(match v {
        toml::Value::String(s) => J::String(s),
        toml::Value::Integer(i) => J::from(i),
        toml::Value::Float(x) => match serde_json::Number::from_f64(x) {
            Some(n) => J::Number(n),
            None => return err(here(), format!("expected a finite number, found {x}")),
        },
        toml::Value::Boolean(b) => J::Bool(b),
        toml::Value::Datetime(d) => {
            return err(
                here(),
                format!("a scenario holds no dates, found {d} (write durations such as \"20ms\")"),
            )
        }
        toml::Value::Array(a) => J::Array(
            a.into_iter()
                .enumerate()
                .map(|(i, x)| toml_to_json(x, &format!("{path}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        toml::Value::Table(t) => J::Object(
            t.into_iter()
                .map(|(k, x)| {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    toml_to_json(x, &p).map(|j| (k, j))
                })
                .collect::<Result<_, _>>()?,
        ),
    })
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Parse a JSON document (what the Python builder sends) into a validated spec.
///
/// # Errors
/// [`ScenarioError::Spec`] naming the field path.
pub fn parse_spec_json(text: &str) -> Result<Spec, ScenarioError> {
    // A byte-order mark, which some editors write, is not part of the document.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let UniqueKeys(value) = serde_json::from_str(text)
        .map_err(|e| ScenarioError::spec("(document)", format!("not valid JSON: {e}")))?;
    parse_spec_value(value)
}

/// A JSON value whose objects have unique keys. serde_json's own `Value` keeps the last of
/// two equal keys without a word; TOML refuses them, and so does this reader.
struct UniqueKeys(serde_json::Value);

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(UniqueKeysVisitor).map(UniqueKeys)
    }
}

struct UniqueKeysVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueKeysVisitor {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Self::Value, E> {
        serde_json::Number::from_f64(v)
            .map(serde_json::Value::Number)
            .ok_or_else(|| E::custom(format!("{v} is not a finite number")))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(serde_json::Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(serde_json::Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(UniqueKeys(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(serde_json::Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key {key:?} appears twice"
                )));
            }
            let UniqueKeys(v) = map.next_value()?;
            object.insert(key, v);
        }
        Ok(serde_json::Value::Object(object))
    }
}

/// Turn a JSON value into a validated spec.
///
/// # Errors
/// [`ScenarioError::Spec`] naming the field path.
pub fn parse_spec_value(value: serde_json::Value) -> Result<Spec, ScenarioError> {
    let spec: Spec = crate::error::strict::from_value(&value)?;
    validate(&spec)?;
    Ok(spec)
}

/// The JSON Schema of the spec.
#[must_use]
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(Spec);
    serde_json::to_string_pretty(&schema).expect("a schema always serialises")
}

impl Spec {
    /// Node names in order of first appearance in `links`.
    #[must_use]
    pub fn node_names(&self) -> Vec<String> {
        let mut seen = std::collections::HashSet::with_capacity(2 * self.links.len());
        let mut order = Vec::new();
        for l in &self.links {
            for n in &l.between {
                if seen.insert(n.as_str()) {
                    order.push(n.clone());
                }
            }
        }
        order
    }

    /// The canonical JSON form (defaults filled in, units normalised).
    #[must_use]
    pub fn canonical_json(&self) -> String {
        serde_json::to_string(self).expect("a spec always serialises")
    }

    /// A stable 64-bit FNV-1a hash of the canonical form, as 16 hex digits.
    #[must_use]
    pub fn hash(&self) -> String {
        hash_canonical(&self.canonical_json())
    }
}

/// [`Spec::hash`] of a spec whose canonical JSON is `canonical` (spares serialising it again).
#[must_use]
pub fn hash_canonical(canonical: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in canonical.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

fn err<T>(path: String, message: String) -> Result<T, ScenarioError> {
    Err(ScenarioError::Spec { path, message })
}

/// The TCP-variant keys: Vegas thresholds, the slow-start options.
fn validate_tcp_options(f: &FlowSpec, p: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    if let Some(v) = &f.vegas {
        if f.protocol != Protocol::Vegas {
            return err(
                p("vegas"),
                format!(
                    "Vegas thresholds need protocol = \"vegas\", found {:?}",
                    f.protocol.name()
                ),
            );
        }
        for (key, x) in [("alpha", v.alpha), ("beta", v.beta), ("gamma", v.gamma)] {
            if !x.is_finite() || x < 0.0 {
                return err(
                    p(&format!("vegas.{key}")),
                    format!("must be a non-negative number of segments, found {x}"),
                );
            }
        }
        if v.alpha > v.beta {
            return err(
                p("vegas.beta"),
                format!("must be at least alpha ({}), found {}", v.alpha, v.beta),
            );
        }
    }
    if let Some(SsthreshStr::Bytes(b)) = f.initial_ssthresh {
        if b == 0 {
            return err(
                p("initial_ssthresh"),
                "must be positive, found \"0B\"".into(),
            );
        }
    }
    if f.pacing_spacing.is_some() && !f.paced_slow_start {
        return err(p("pacing_spacing"), "needs paced_slow_start = true".into());
    }
    if let Some(d) = f.pacing_spacing {
        if d.0 .0 == 0 || d.0 > ccsim_core::Dur::from_secs(10) {
            return err(
                p("pacing_spacing"),
                format!("must be between 1ns and 10s, found {}", show(&d)),
            );
        }
    }
    Ok(())
}

/// Refuse the first key of `keys` that is set: it applies to `whom` only.
fn refuse_keys(
    f: &FlowSpec,
    p: &dyn Fn(&str) -> String,
    keys: &[(&'static str, bool)],
    whom: &str,
) -> Result<(), ScenarioError> {
    match keys.iter().find(|(_, set)| *set) {
        Some((key, _)) => err(
            p(key),
            format!("applies to {whom} only, not {}", f.protocol.name()),
        ),
        None => Ok(()),
    }
}

/// The keys of rate-based flows (TFRC, TCP-Friend, CBRAA).
fn validate_rate_options(f: &FlowSpec, p: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    let name = f.protocol.name();
    if f.rate.is_some() {
        return err(
            p("rate"),
            format!("{name} flows set their own rate; bound it with min_rate and max_rate"),
        );
    }
    if f.size.is_some() {
        return err(
            p("size"),
            format!("{name} flows always have data to send; use stop to end them"),
        );
    }
    if !f.protocol.uses_reports() {
        if f.report_interval.is_some() {
            return err(
                p("report_interval"),
                format!("applies to tcp-friend and cbraa flows only, not {name}"),
            );
        }
        if f.initial_rate.is_some() {
            return err(
                p("initial_rate"),
                format!(
                    "applies to tcp-friend and cbraa flows only ({name} sets its first rate itself)"
                ),
            );
        }
    }
    if f.cbraa.is_some() && f.protocol != Protocol::Cbraa {
        return err(
            p("cbraa"),
            format!("CBRAA constants need protocol = \"cbraa\", found {name:?}"),
        );
    }
    if f.tfrc.is_some() && f.protocol != Protocol::Tfrc {
        return err(
            p("tfrc"),
            format!("TFRC options need protocol = \"tfrc\", found {name:?}"),
        );
    }
    if f.primo.is_some() && f.protocol != Protocol::Primo {
        return err(
            p("primo"),
            format!("Primo constants need protocol = \"primo\", found {name:?}"),
        );
    }
    if let Some(c) = &f.primo {
        validate_primo(c, p)?;
    }
    if let Some(d) = f.report_interval {
        if d.0 < ccsim_core::Dur::from_millis(1) || d.0 > ccsim_core::Dur::from_secs(3600) {
            return err(
                p("report_interval"),
                format!("must be between 1ms and 3600s, found {}", show(&d)),
            );
        }
    }
    for (key, r) in [
        ("initial_rate", f.initial_rate),
        ("min_rate", f.min_rate),
        ("max_rate", f.max_rate),
    ] {
        if let Some(r) = r {
            if r.0 .0 == 0 {
                return err(p(key), format!("must be positive, found {}", show(&r)));
            }
            // As for CBR: faster than one packet per nanosecond is many packets at one instant.
            let most = u128::from(f.packet_size.0 .0) * 8 * 1_000_000_000;
            if u128::from(r.0 .0) > most {
                return err(
                    p(key),
                    format!(
                        "must be at most one packet per nanosecond ({most}bps with {} packets), found {}",
                        show(&f.packet_size),
                        show(&r)
                    ),
                );
            }
        }
    }
    if let (Some(lo), Some(hi)) = (f.min_rate, f.max_rate) {
        if lo.0 .0 > hi.0 .0 {
            return err(
                p("max_rate"),
                format!(
                    "must be at least min_rate ({}), found {}",
                    show(&lo),
                    show(&hi)
                ),
            );
        }
    }
    if let Some(c) = &f.cbraa {
        let checks = [
            (
                "a",
                c.a,
                c.a >= 1.0,
                "at least 1 (decrease above a times the theoretical loss)",
            ),
            (
                "b",
                c.b,
                c.b > 0.0 && c.b <= 1.0,
                "in (0, 1] (increase below b times it)",
            ),
            ("alpha", c.alpha, (0.0..1.0).contains(&c.alpha), "in [0, 1)"),
            ("beta", c.beta, (0.0..=1.0).contains(&c.beta), "in [0, 1]"),
        ];
        for (key, x, ok, what) in checks {
            if !x.is_finite() || !ok {
                return err(
                    p(&format!("cbraa.{key}")),
                    format!("must be {what}, found {x}"),
                );
            }
        }
    }
    Ok(())
}

/// Primo's constants: finite, the thresholds ordered TH_rel <= TH_mod <= TH_str and the
/// factors 0 < F_str <= F_mod <= F_rel, the weights in [0, 1] (the paper, III-D, has
/// 0 < F_str < F_mod < 1 < F_rel; equal values are let through for experiments).
fn validate_primo(c: &PrimoSpec, p: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    let checks = [
        (
            "tau",
            c.tau,
            (0.0..=100.0).contains(&c.tau),
            "in [0, 100]".to_string(),
        ),
        (
            "th_rel",
            c.th_rel,
            c.th_rel >= 0.0,
            "at least 0".to_string(),
        ),
        (
            "th_mod",
            c.th_mod,
            c.th_mod >= c.th_rel,
            format!("at least th_rel ({})", c.th_rel),
        ),
        (
            "th_str",
            c.th_str,
            c.th_str >= c.th_mod,
            format!("at least th_mod ({})", c.th_mod),
        ),
        ("f_str", c.f_str, c.f_str > 0.0, "positive".to_string()),
        (
            "f_mod",
            c.f_mod,
            c.f_mod >= c.f_str,
            format!("at least f_str ({})", c.f_str),
        ),
        (
            "f_rel",
            c.f_rel,
            c.f_rel >= c.f_mod,
            format!("at least f_mod ({})", c.f_mod),
        ),
        (
            "w1",
            c.w1,
            c.w1 > 0.0 && c.w1 <= 1.0,
            "in (0, 1]".to_string(),
        ),
        (
            "w2",
            c.w2,
            (0.0..1.0).contains(&c.w2),
            "in [0, 1)".to_string(),
        ),
    ];
    for (key, x, ok, what) in checks {
        if !x.is_finite() || !ok {
            return err(
                p(&format!("primo.{key}")),
                format!("must be {what}, found {x}"),
            );
        }
    }
    if !(1..=4096).contains(&c.rcv_samples) {
        return err(
            p("primo.rcv_samples"),
            format!("must be between 1 and 4096, found {}", c.rcv_samples),
        );
    }
    if let Some(d) = c.receiver_clock_offset {
        if d.0 > ccsim_core::Dur::from_secs(86_400) {
            return err(
                p("primo.receiver_clock_offset"),
                format!("must be at most 86400s, found {}", show(&d)),
            );
        }
    }
    Ok(())
}

/// Semantic checks that serde cannot express.
fn validate(spec: &Spec) -> Result<(), ScenarioError> {
    let duration = spec.run.duration.0;
    if duration.0 == 0 {
        return err(
            "run.duration".into(),
            "must be positive, found \"0s\"".into(),
        );
    }
    if spec.run.warmup.0 >= duration {
        return err(
            "run.warmup".into(),
            format!(
                "{} is not before the end of the run ({})",
                show(&spec.run.warmup),
                show(&spec.run.duration)
            ),
        );
    }
    if spec.links.is_empty() {
        return err("links".into(), "at least one link is needed".into());
    }
    let mut pairs: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (i, l) in spec.links.iter().enumerate() {
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
            if let Err(e) = r.config().validate() {
                return err(format!("links[{i}].queue.{}", e.field), e.message);
            }
            if r.mean_packet_size.0 .0 == 0 || r.mean_packet_size.0 .0 > 65_535 {
                return err(
                    format!("links[{i}].queue.mean_packet_size"),
                    format!(
                        "must be between 1B and 65535B, found {}",
                        show(&r.mean_packet_size)
                    ),
                );
            }
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
    let nodes = spec.node_names();
    let node_set: std::collections::BTreeSet<&String> = nodes.iter().collect();
    let graph = Components::new(spec);
    let mut names = BTreeMap::new();
    for (i, f) in spec.flows.iter().enumerate() {
        let p = |field: &str| format!("flows[{i}].{field}");
        check_name(&p("name"), &f.name)?;
        if let Some(first) = names.insert(f.name.clone(), i) {
            return err(
                p("name"),
                format!("duplicate flow name {:?} (also flows[{first}])", f.name),
            );
        }
        for (field, node) in [("from", &f.from), ("to", &f.to)] {
            if !node_set.contains(node) {
                return err(
                    p(field),
                    format!(
                        "node {node:?} is in no link (known nodes: {})",
                        nodes.join(", ")
                    ),
                );
            }
        }
        if f.from == f.to {
            return err(
                p("to"),
                format!("a flow needs two different nodes, found {:?} twice", f.to),
            );
        }
        if !graph.connected(&f.from, &f.to) {
            return err(p("to"), format!("no route from {:?} to {:?}", f.from, f.to));
        }
        if f.start.0 >= duration {
            return err(
                p("start"),
                format!(
                    "{} is not before the end of the run ({})",
                    show(&f.start),
                    show(&spec.run.duration)
                ),
            );
        }
        if let Some(stop) = f.stop {
            if stop.0 <= f.start.0 {
                return err(
                    p("stop"),
                    format!("{} is not after start ({})", show(&stop), show(&f.start)),
                );
            }
        }
        let header = if f.protocol.is_tcp() {
            ccsim_protocols::TCP_HEADER_BYTES
        } else if f.protocol.is_rate_based() {
            ccsim_protocols::RATE_HEADER_BYTES
        } else {
            ccsim_protocols::UDP_HEADER_BYTES
        };
        if f.packet_size.0 .0 <= u64::from(header) || f.packet_size.0 .0 > 65_535 {
            return err(
                p("packet_size"),
                format!(
                    "must exceed the {header}-byte header and be at most 65535B, found {}",
                    show(&f.packet_size)
                ),
            );
        }
        match f.protocol {
            Protocol::Tahoe
            | Protocol::Reno
            | Protocol::Newreno
            | Protocol::Sack
            | Protocol::Vegas => {
                if f.rate.is_some() {
                    return err(
                        p("rate"),
                        format!(
                            "{} flows are window-controlled; remove rate",
                            f.protocol.name()
                        ),
                    );
                }
                if f.initial_window == 0 || f.initial_window > MAX_INITIAL_WINDOW {
                    return err(
                        p("initial_window"),
                        format!(
                            "must be 1 to {MAX_INITIAL_WINDOW} segments (the initial window is sent at once), found {}",
                            f.initial_window
                        ),
                    );
                }
                if f.max_window == Some(0) {
                    return err(
                        p("max_window"),
                        "must be at least 1 segment, found 0".into(),
                    );
                }
                if f.min_rto.0 > ccsim_core::Dur::from_secs(60) {
                    return err(
                        p("min_rto"),
                        format!(
                            "must be at most the 60 s maximum RTO, found {}",
                            show(&f.min_rto)
                        ),
                    );
                }
                if f.size.is_some_and(|s| s.0 .0 == 0) {
                    return err(p("size"), "must be positive, found \"0B\"".into());
                }
                validate_tcp_options(f, &p)?;
                refuse_keys(f, &p, &f.rate_keys_set(), "rate-based flows")?;
            }
            Protocol::Tfrc | Protocol::TcpFriend | Protocol::Cbraa | Protocol::Primo => {
                validate_rate_options(f, &p)?;
                refuse_keys(f, &p, &f.tcp_keys_set(), "TCP flows")?;
            }
            Protocol::Cbr | Protocol::Poisson => {
                match f.rate {
                    None => {
                        return err(
                            p("rate"),
                            format!(
                                "{} flows need a rate, e.g. rate = \"5Mbps\"",
                                f.protocol.name()
                            ),
                        )
                    }
                    Some(r) if r.0 .0 == 0 => {
                        return err(p("rate"), format!("must be positive, found {}", show(&r)))
                    }
                    Some(r)
                        if u128::from(r.0 .0)
                            > u128::from(f.packet_size.0 .0) * 8 * 1_000_000_000 =>
                    {
                        return err(
                            p("rate"),
                            format!(
                                "must be at most one packet per nanosecond ({}bps with {} packets), found {}",
                                u128::from(f.packet_size.0 .0) * 8 * 1_000_000_000,
                                show(&f.packet_size),
                                show(&r)
                            ),
                        )
                    }
                    Some(_) => {}
                }
                if f.size.is_some() {
                    return err(
                        p("size"),
                        format!(
                            "{} flows have no size; use stop to end them",
                            f.protocol.name()
                        ),
                    );
                }
                refuse_keys(f, &p, &f.tcp_keys_set(), "TCP flows")?;
                refuse_keys(f, &p, &f.rate_keys_set(), "rate-based flows")?;
            }
        }
    }
    validate_ticp(spec, &node_set, &nodes, &graph, &mut names)?;
    for (i, d) in spec.drops.iter().enumerate() {
        if !names.contains_key(&d.flow) {
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
    let o = &spec.output;
    if o.interval.0 .0 == 0 {
        return err(
            "output.interval".into(),
            "must be positive, found \"0s\"".into(),
        );
    }
    let samples = duration.0.div_ceil(o.interval.0 .0);
    if !o.series.is_empty() && samples > MAX_SAMPLES {
        return err(
            "output.interval".into(),
            format!(
                "{} gives {samples} samples over {}; at most {MAX_SAMPLES} (use a longer interval)",
                show(&o.interval),
                show(&spec.run.duration)
            ),
        );
    }
    let values = u128::from(samples) * series_values_per_sample(spec);
    if values > u128::from(MAX_SERIES_VALUES) {
        return err(
            "output.series".into(),
            format!(
                "{samples} samples of {:?} over {} flows and {} link directions make {values} values; at most {MAX_SERIES_VALUES} (use a longer interval or fewer series)",
                o.series,
                spec.flows.len() + 3 * spec.ticp.len(),
                2 * spec.links.len()
            ),
        );
    }
    for (i, s) in o.series.iter().enumerate() {
        if !ENGINE_SERIES.contains(&s.as_str()) && ccsim_core::VarId::from_name(s).is_none() {
            return err(
                format!("output.series[{i}]"),
                format!("unknown series {s:?} (known: {})", known_series()),
            );
        }
    }
    for (i, s) in o.trace.iter().enumerate() {
        if ccsim_core::VarId::from_name(s).is_none() {
            let known: Vec<_> = ccsim_core::VarId::ALL.iter().map(|v| v.name()).collect();
            return err(
                format!("output.trace[{i}]"),
                format!("unknown variable {s:?} (known: {})", known.join(", ")),
            );
        }
    }
    Ok(())
}

fn validate_ticp(
    spec: &Spec,
    node_set: &std::collections::BTreeSet<&String>,
    nodes: &[String],
    graph: &Components,
    names: &mut BTreeMap<String, usize>,
) -> Result<(), ScenarioError> {
    let duration = spec.run.duration.0;
    let known = |path: String, node: &String| -> Result<(), ScenarioError> {
        if node_set.contains(node) {
            Ok(())
        } else {
            err(
                path,
                format!(
                    "node {node:?} is in no link (known nodes: {})",
                    nodes.join(", ")
                ),
            )
        }
    };
    if spec.ticp.len() > 4096 {
        return err("ticp".into(), "at most 4096 sessions".into());
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
        if t.start.0 >= duration {
            return err(
                p("start"),
                format!(
                    "{} is not before the end of the run ({})",
                    show(&t.start),
                    show(&spec.run.duration)
                ),
            );
        }
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
                if t.probes == 0 || t.probes > 10 {
                    return err(p("probes"), format!("must be 1 to 10, found {}", t.probes));
                }
                if t.binning_phase.0 .0 == 0 {
                    return err(p("binning_phase"), "must be positive, found \"0s\"".into());
                }
            }
        }
    }
    Ok(())
}

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

/// An upper bound on the values one sampling instant records: each flow's engine series,
/// two queue values per link direction, and each agent variable of each sender (flows and
/// TICP collectors; a TICP session adds three flows).
fn series_values_per_sample(spec: &Spec) -> u128 {
    let series: std::collections::BTreeSet<&str> =
        spec.output.series.iter().map(String::as_str).collect();
    let flows = (spec.flows.len() + 3 * spec.ticp.len()) as u128;
    let senders = (spec.flows.len() + spec.ticp.len()) as u128;
    let directions = 2 * spec.links.len() as u128;
    let per_flow = ["rate", "sent_rate", "delay"]
        .iter()
        .filter(|s| series.contains(*s))
        .count() as u128;
    let queue = if series.contains("queue") { 2 } else { 0 };
    let vars = series
        .iter()
        .filter(|s| ccsim_core::VarId::from_name(s).is_some())
        .count() as u128;
    flows * per_flow + directions * queue + senders * vars
}

/// The key of the duplex link between `a` and `b`, whichever way round they are named.
fn pair_key(a: &str, b: &str) -> (String, String) {
    if a < b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

fn known_series() -> String {
    let mut all: Vec<&str> = ENGINE_SERIES.to_vec();
    all.extend(ccsim_core::VarId::ALL.iter().map(|v| v.name()));
    all.join(", ")
}

fn show<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn check_name(path: &str, name: &str) -> Result<(), ScenarioError> {
    if name.is_empty() || name.contains("->") || name.chars().any(char::is_whitespace) {
        return err(
            path.into(),
            format!("{name:?} is not a usable name (non-empty, no spaces, no \"->\")"),
        );
    }
    Ok(())
}

/// Connected components of the undirected link graph (union-find), for the "no route" check.
struct Components {
    index: std::collections::HashMap<String, usize>,
    root: Vec<usize>,
}

impl Components {
    fn new(spec: &Spec) -> Self {
        let index: std::collections::HashMap<String, usize> = spec
            .node_names()
            .into_iter()
            .enumerate()
            .map(|(i, n)| (n, i))
            .collect();
        let mut parent: Vec<usize> = (0..index.len()).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for l in &spec.links {
            let (a, b) = (
                find(&mut parent, index[&l.between[0]]),
                find(&mut parent, index[&l.between[1]]),
            );
            parent[a.max(b)] = a.min(b);
        }
        let root = (0..parent.len()).map(|x| find(&mut parent, x)).collect();
        Components { index, root }
    }

    fn connected(&self, from: &str, to: &str) -> bool {
        match (self.index.get(from), self.index.get(to)) {
            (Some(&a), Some(&b)) => self.root[a] == self.root[b],
            _ => false,
        }
    }
}
