//! `[[flows]]`: the keys every flow has, the protocol names and their families, and the checks
//! common to all flows; each protocol family checks its own keys in its module of
//! [`crate::spec`] (`tcp`, `rate`, `udp`) and builds its agents in [`crate::protocols`].
//!
//! CHOICE: the TCP and rate-based keys sit flat on the flow table (`initial_window`,
//! `min_rate`, ...), as the first scenario files wrote them; a key that belongs to another
//! family is refused by name. Protocols added since keep their options in a table named after
//! them (`vegas = {...}`, `primo = {...}`), declared in their family's module.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::obp::ObpSpec;
use super::rate::{CbraaSpec, PrimoSpec, TfrcSpec};
use super::tcp::{
    CubicSpec, GrowthSpec, HyStartSpec, PragueSpec, RecoverySpec, RtoSpec, VegasSpec,
};
use super::xcp::XcpSpec;
use super::{
    before_end, check_name, default_true, err, is_false, is_true, show, zero_dur, Graph, Spec,
};
use crate::error::ScenarioError;
use crate::registry::CustomProtocol;
use crate::units::{BytesStr, DurStr, RateStr, SsthreshStr};

/// Transport protocol of a flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// TCP CUBIC (RFC 9438, as Linux computes it) with SACK loss recovery and Linux's HyStart.
    Cubic,
    /// DCTCP (RFC 8257, as Linux computes it): ECN-capable, CE echoed per segment, SACK loss
    /// recovery.
    Dctcp,
    /// BBR v1 (Linux's tcp_bbr.c): paced at its bandwidth estimate, SACK loss recovery.
    Bbr,
    /// BBR v3 (Google's tcp_bbr.c, branch v3): bounds from loss and, with `ecn = true`, CE
    /// marks; paced, SACK loss recovery.
    Bbr3,
    /// TCP Prague (L4S: L4STeam's tcp_prague.c): ECT(1), AccECN, paced, SACK loss recovery.
    Prague,
    /// UDP constant bit rate.
    Cbr,
    /// UDP with exponential inter-departure times.
    Poisson,
    /// TFRC, TCP-Friendly Rate Control (RFC 5348).
    Tfrc,
    /// TCP-Friend: equation (2) of the CBRAA paper on RTCP-style receiver reports.
    TcpFriend,
    /// CBRAA, the Cycle-Based Rate Adaptation Algorithm (Ait-Hellal, Yamamoto, Leduc).
    Cbraa,
    /// Primo, the preventive rate-based protocol (Chatté, Ducourthial, Niculescu).
    Primo,
    /// XCP, the eXplicit Control Protocol (Katabi, Handley, Rohrs 2002): router feedback.
    Xcp,
    /// OBP, the Open Box Transport Protocol (Loureiro and Monteiro): rate from the available
    /// bandwidth routers stamp.
    Obp,
    /// A user's TCP congestion control, registered by name or a Python `"module:Class"`
    /// ([`crate::registry`]).
    Custom(CustomProtocol),
}

impl Protocol {
    /// The built-in protocols, in the order of the docs.
    pub const BUILTIN: [Protocol; 18] = [
        Protocol::Tahoe,
        Protocol::Reno,
        Protocol::Newreno,
        Protocol::Sack,
        Protocol::Vegas,
        Protocol::Cubic,
        Protocol::Dctcp,
        Protocol::Bbr,
        Protocol::Bbr3,
        Protocol::Prague,
        Protocol::Cbr,
        Protocol::Poisson,
        Protocol::Tfrc,
        Protocol::TcpFriend,
        Protocol::Cbraa,
        Protocol::Primo,
        Protocol::Xcp,
        Protocol::Obp,
    ];
    /// Their names in files.
    pub const BUILTIN_NAMES: [&'static str; 18] = [
        "tahoe",
        "reno",
        "newreno",
        "sack",
        "vegas",
        "cubic",
        "dctcp",
        "bbr",
        "bbr3",
        "prague",
        "cbr",
        "poisson",
        "tfrc",
        "tcp-friend",
        "cbraa",
        "primo",
        "xcp",
        "obp",
    ];

    /// The built-in protocol named `name`.
    #[must_use]
    pub fn builtin(name: &str) -> Option<Protocol> {
        Self::BUILTIN_NAMES
            .iter()
            .position(|&n| n == name)
            .map(|i| Self::BUILTIN[i])
    }

    /// The protocol named `name`: built in, or a custom algorithm the registry resolves.
    ///
    /// # Errors
    /// The registry's message for a name it does not know.
    pub fn from_name(name: &str) -> Result<Protocol, String> {
        if let Some(p) = Self::builtin(name) {
            return Ok(p);
        }
        match crate::registry::resolve(name)? {
            Some(c) => Ok(Protocol::Custom(c)),
            None => Err(format!(
                "expected one of: {}, found {name:?} (or a registered algorithm's name, or a Python class as \"module:Class\")",
                Self::BUILTIN_NAMES.join(", ")
            )),
        }
    }

    /// The custom algorithm behind a `Custom` protocol.
    #[must_use]
    pub fn custom(self) -> Option<CustomProtocol> {
        match self {
            Protocol::Custom(c) => Some(c),
            _ => None,
        }
    }
}

/// Register a user's algorithm as `protocol = name` for the scenarios parsed after
/// ([`crate::registry`]); registering a name again replaces its entry.
///
/// # Errors
/// A built-in protocol's name, or a name that is not a plain word (letters, digits, `-`,
/// `_`, `.`; a `:` marks Python's `"module:Class"`).
pub fn register_cc(name: &str, entry: crate::registry::CcEntry) -> Result<(), String> {
    if Protocol::builtin(name).is_some() {
        return Err(format!(
            "{name:?} is a built-in protocol; register the algorithm under another name"
        ));
    }
    crate::registry::check_plain_name(name)?;
    crate::registry::register(name, entry);
    Ok(())
}

impl Serialize for Protocol {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Protocol {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = Protocol;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "one of: {}", Protocol::BUILTIN_NAMES.join(", "))
            }
            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<Protocol, E> {
                Protocol::from_name(name).map_err(E::custom)
            }
        }
        d.deserialize_str(Name)
    }
}

impl JsonSchema for Protocol {
    fn schema_name() -> String {
        "Protocol".into()
    }
    fn json_schema(_: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        use schemars::schema::{InstanceType, Metadata, Schema, SchemaObject, SubschemaValidation};
        let builtin = SchemaObject {
            instance_type: Some(InstanceType::String.into()),
            enum_values: Some(
                Self::BUILTIN_NAMES
                    .iter()
                    .map(|&n| serde_json::Value::from(n))
                    .collect(),
            ),
            ..SchemaObject::default()
        };
        let custom = SchemaObject {
            instance_type: Some(InstanceType::String.into()),
            metadata: Some(Box::new(Metadata {
                description: Some(
                    "a registered algorithm's name, or a Python class as \"module:Class\"".into(),
                ),
                ..Metadata::default()
            })),
            ..SchemaObject::default()
        };
        Schema::Object(SchemaObject {
            subschemas: Some(Box::new(SubschemaValidation {
                any_of: Some(vec![builtin.into(), custom.into()]),
                ..SubschemaValidation::default()
            })),
            ..SchemaObject::default()
        })
    }
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
            Protocol::Cubic => "cubic",
            Protocol::Dctcp => "dctcp",
            Protocol::Bbr => "bbr",
            Protocol::Bbr3 => "bbr3",
            Protocol::Prague => "prague",
            Protocol::Cbr => "cbr",
            Protocol::Poisson => "poisson",
            Protocol::Tfrc => "tfrc",
            Protocol::TcpFriend => "tcp-friend",
            Protocol::Cbraa => "cbraa",
            Protocol::Primo => "primo",
            Protocol::Xcp => "xcp",
            Protocol::Obp => "obp",
            Protocol::Custom(c) => c.name,
        }
    }
    /// Whether this is a TCP variant.
    #[must_use]
    pub fn is_tcp(self) -> bool {
        family(self) == Family::Tcp && self != Protocol::Xcp
    }
    /// Whether this is a rate-based congestion-controlled protocol.
    #[must_use]
    pub fn is_rate_based(self) -> bool {
        matches!(
            self,
            Protocol::Tfrc
                | Protocol::TcpFriend
                | Protocol::Cbraa
                | Protocol::Primo
                | Protocol::Obp
        )
    }
    /// Whether the sender is steered by RTCP-style receiver reports.
    #[must_use]
    pub fn uses_reports(self) -> bool {
        matches!(self, Protocol::TcpFriend | Protocol::Cbraa)
    }
}

/// The protocol families, as the scenario crate groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Window-controlled TCP variants.
    Tcp,
    /// Rate-based congestion control.
    Rate,
    /// UDP sources without congestion control.
    Udp,
}

/// The family of a flow protocol.
#[must_use]
pub fn family(protocol: Protocol) -> Family {
    match protocol {
        Protocol::Tahoe
        | Protocol::Reno
        | Protocol::Newreno
        | Protocol::Sack
        | Protocol::Vegas
        | Protocol::Cubic
        | Protocol::Dctcp
        | Protocol::Bbr
        | Protocol::Bbr3
        | Protocol::Prague
        | Protocol::Xcp
        | Protocol::Custom(_) => Family::Tcp,
        Protocol::Tfrc
        | Protocol::TcpFriend
        | Protocol::Cbraa
        | Protocol::Primo
        | Protocol::Obp => Family::Rate,
        Protocol::Cbr | Protocol::Poisson => Family::Udp,
    }
}

/// The header bytes of a flow's data packets (a packet must be larger): its protocol's, and
/// the timestamp option's on a TCP flow that uses it.
#[must_use]
pub fn flow_header_bytes(f: &FlowSpec) -> u32 {
    if family(f.protocol) == Family::Tcp {
        ccsim_protocols::tcp_header_bytes(f.timestamps)
    } else {
        header_bytes(f.protocol)
    }
}

/// The header bytes of a protocol's data packets (a packet must be larger).
#[must_use]
pub fn header_bytes(protocol: Protocol) -> u32 {
    if protocol == Protocol::Obp {
        return ccsim_protocols::TCP_HEADER_BYTES;
    }
    match family(protocol) {
        Family::Tcp => ccsim_protocols::TCP_HEADER_BYTES,
        Family::Rate => ccsim_protocols::RATE_HEADER_BYTES,
        Family::Udp => ccsim_protocols::UDP_HEADER_BYTES,
    }
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
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub stop: Option<DurStr>,
    /// Application bytes to transfer (TCP); absent for an unending transfer.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub size: Option<BytesStr>,
    /// Sending rate (UDP sources, required there).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
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
    /// TCP: whose arithmetic computes the retransmission timeout: "linux" (the default),
    /// "rfc6298", "ns2" or "ns3" (docs/protocols.md, the retransmission timer).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub rto: Option<RtoSpec>,
    /// TCP: how a SACK sender recovers: "ns3" (the default), "rfc6675" or "linux"; or
    /// "ns2" for Tahoe, Reno and NewReno (ns-2.35's fast-retransmit rules)
    /// (docs/protocols.md, loss recovery).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub recovery: Option<RecoverySpec>,
    /// TCP: RFC 6298's clock granularity G (`rto = "rfc6298"` or `"ns3"`; absent: 1 ms).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub clock_granularity: Option<DurStr>,
    /// TCP: ns-2's clock tick (`rto = "ns2"`; absent: 10 ms, ns-2.35's `tcpTick_`).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub tick: Option<DurStr>,
    /// TCP: the timeout before the first RTT sample (absent: the policy's).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub initial_rto: Option<DurStr>,
    /// TCP, OBP: lower bound on the retransmission timeout (absent: the policy's; OBP 200 ms).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub min_rto: Option<DurStr>,
    /// TCP: receiver window in segments (absent: unbounded).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub max_window: Option<u64>,
    /// TCP: ECN-capable (RFC 3168): ECT data, CE echoed, window halved once per window
    /// (absent: off; always on for DCTCP and Prague, which refuse `ecn = false`).
    #[serde(default, skip_serializing_if = "crate::spec::omit_unset_or_false")]
    pub ecn: Option<bool>,
    /// TCP Vegas thresholds (only with `protocol = "vegas"`).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub vegas: Option<VegasSpec>,
    /// CUBIC's constants (only with `protocol = "cubic"`).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub cubic: Option<CubicSpec>,
    /// Prague's options (only with `protocol = "prague"`).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub prague: Option<PragueSpec>,
    /// TCP: AccECN feedback (draft-ietf-tcpm-accurate-ecn: the receiver's count of CE marks
    /// in every ACK); implies `ecn` (absent: off; always on for Prague).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub accecn: Option<bool>,
    /// TCP: RFC 3042 limited transmit (a new segment on each of the first two duplicate ACKs).
    #[serde(default, skip_serializing_if = "is_false")]
    pub limited_transmit: bool,
    /// TCP with SACK recovery: RFC 9937 Proportional Rate Reduction (absent: on with
    /// `recovery = "linux"`, off otherwise).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub prr: Option<bool>,
    /// TCP with SACK recovery: RFC 6675's rescue retransmission, NextSeg rule 4 (absent: off).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub rescue_retransmission: Option<bool>,
    /// TCP with SACK recovery: RFC 8985 RACK, losses detected by time (absent: on with
    /// `recovery = "linux"`, off otherwise).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub rack: Option<bool>,
    /// TCP: open with the three-way handshake (SYN, SYN-ACK) before data, as real stacks
    /// and ns-3 do (absent: off, data from the start time, as ns-2's agents).
    #[serde(default, skip_serializing_if = "is_false")]
    pub handshake: bool,
    /// TCP: RFC 7323 timestamps, 12 bytes more on every segment and an RTT sample on every
    /// ACK that advances the window (absent: off, as ns-2's agents).
    #[serde(default, skip_serializing_if = "is_false")]
    pub timestamps: bool,
    /// TCP: the delayed-ACK receiver acknowledges a segment with PSH at once, as Linux's
    /// receiver has since 6.6 (absent: off; docs/protocols.md, the receiver).
    #[serde(default, skip_serializing_if = "is_false")]
    pub ack_on_push: bool,
    /// TCP: pace at Linux's default rate, 200 % of cwnd / SRTT in slow start and 120 %
    /// after (absent: off; BBR always paces at its own rate).
    #[serde(default, skip_serializing_if = "is_false")]
    pub pacing: bool,
    /// TCP with RACK: RFC 8985's tail loss probe (absent: on with `recovery = "linux"` and
    /// RACK, off otherwise).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub tlp: Option<bool>,
    /// TCP: how slow start ends before a loss: "linux" (HyStart, the default for CUBIC),
    /// "rfc9406" (HyStart++) or "off" (the default for the others).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub hystart: Option<HyStartSpec>,
    /// TCP (tahoe, reno, newreno, sack): how the window grows, "rfc5681" (the default: per
    /// ACK) or "linux" (acknowledged segments counted, Linux's `tcp_reno_cong_avoid`).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub growth: Option<GrowthSpec>,
    /// XCP options (only with `protocol = "xcp"`).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub xcp: Option<XcpSpec>,
    /// A custom algorithm's options (a registered name or a Python `"module:Class"` as the
    /// protocol), handed to its constructor: keyword arguments in Python.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub cc: Option<crate::registry::CcOptions>,
    /// TCP: initial slow-start threshold, "bdp" (the path's bottleneck rate times its
    /// round-trip propagation delay) or a size such as "64kB" (absent: unbounded).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub initial_ssthresh: Option<SsthreshStr>,
    /// TCP: paced slow start (the segments one ACK releases are spaced, not sent back to
    /// back).
    #[serde(default, skip_serializing_if = "is_false")]
    pub paced_slow_start: bool,
    /// TCP: the spacing of paced slow start (absent: half the estimated inter-ACK time).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub pacing_spacing: Option<DurStr>,
    /// TCP: grow the window only while the sender uses it (Linux `tcp_is_cwnd_limited`);
    /// false for RFC 5681's unconditional growth.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub cwnd_limited_growth: bool,
    /// TCP-Friend, CBRAA: the receiver's report interval (absent: 5 s).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub report_interval: Option<DurStr>,
    /// TCP-Friend, CBRAA: the rate before the first report (absent: 5 packets per second).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub initial_rate: Option<RateStr>,
    /// Rate-based flows: a lower bound on the sending rate (absent: the protocol's own).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub min_rate: Option<RateStr>,
    /// Rate-based flows: an upper bound on the sending rate (absent: none).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub max_rate: Option<RateStr>,
    /// CBRAA constants (only with `protocol = "cbraa"`).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub cbraa: Option<CbraaSpec>,
    /// TFRC options (only with `protocol = "tfrc"`).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub tfrc: Option<TfrcSpec>,
    /// Primo constants (only with `protocol = "primo"`).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub primo: Option<PrimoSpec>,
    /// OBP's constants.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub obp: Option<ObpSpec>,
}

impl FlowSpec {
    /// The TCP-only keys set on this flow, by name.
    pub(crate) fn tcp_keys_set(&self) -> [(&'static str, bool); 28] {
        [
            ("cc", self.cc.is_some()),
            ("growth", self.growth.is_some()),
            ("rto", self.rto.is_some()),
            ("recovery", self.recovery.is_some()),
            ("clock_granularity", self.clock_granularity.is_some()),
            ("tick", self.tick.is_some()),
            ("initial_rto", self.initial_rto.is_some()),
            ("cwnd_limited_growth", !self.cwnd_limited_growth),
            ("delayed_ack", self.delayed_ack),
            ("ecn", self.ecn == Some(true)),
            ("initial_ssthresh", self.initial_ssthresh.is_some()),
            ("paced_slow_start", self.paced_slow_start),
            ("pacing_spacing", self.pacing_spacing.is_some()),
            ("vegas", self.vegas.is_some()),
            ("cubic", self.cubic.is_some()),
            ("hystart", self.hystart.is_some()),
            ("limited_transmit", self.limited_transmit),
            ("prr", self.prr.is_some()),
            (
                "rescue_retransmission",
                self.rescue_retransmission.is_some(),
            ),
            ("rack", self.rack.is_some()),
            ("tlp", self.tlp.is_some()),
            ("handshake", self.handshake),
            ("timestamps", self.timestamps),
            ("ack_on_push", self.ack_on_push),
            ("pacing", self.pacing),
            ("accecn", self.accecn.is_some()),
            ("prague", self.prague.is_some()),
            ("xcp", self.xcp.is_some()),
        ]
    }
    /// The rate-based-only keys set on this flow, by name.
    pub(crate) fn rate_keys_set(&self) -> [(&'static str, bool); 8] {
        [
            ("report_interval", self.report_interval.is_some()),
            ("initial_rate", self.initial_rate.is_some()),
            ("min_rate", self.min_rate.is_some()),
            ("max_rate", self.max_rate.is_some()),
            ("cbraa", self.cbraa.is_some()),
            ("tfrc", self.tfrc.is_some()),
            ("primo", self.primo.is_some()),
            ("obp", self.obp.is_some()),
        ]
    }
}

fn default_packet_size() -> BytesStr {
    BytesStr(ccsim_core::Bytes(1000))
}
fn default_initial_window() -> u32 {
    2
}

/// A flow from `options`, the flow keys of a traffic generator or a session with the keys they
/// set themselves added; an error names its key under `prefix` (`traffic[2].options`).
/// `reserved` lists the keys the caller sets; one of them in `options` is refused with the
/// message `why(key)`.
pub(crate) fn flow_from_options(
    options: &serde_json::Map<String, serde_json::Value>,
    reserved: &[&str],
    why: &dyn Fn(&str) -> String,
    prefix: &str,
    set: &dyn Fn(&mut serde_json::Map<String, serde_json::Value>),
) -> Result<FlowSpec, ScenarioError> {
    if let Some(key) = reserved.iter().find(|k| options.contains_key(**k)) {
        return err(format!("{prefix}.{key}"), why(key));
    }
    let mut m = options.clone();
    set(&mut m);
    crate::error::strict::from_value::<FlowSpec>(&serde_json::Value::Object(m)).map_err(|e| match e
    {
        ScenarioError::Spec { path, message } => ScenarioError::Spec {
            path: format!("{prefix}.{path}"),
            message,
        },
        other => other,
    })
}

/// Refuse the first key of `keys` that is set: it applies to `whom` only.
pub(crate) fn refuse_keys(
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

/// The checks every flow passes, then its family's own.
pub(crate) fn validate(
    i: usize,
    f: &FlowSpec,
    spec: &Spec,
    graph: &Graph,
    names: &mut BTreeMap<String, usize>,
) -> Result<(), ScenarioError> {
    let p = |field: &str| format!("flows[{i}].{field}");
    check_name(&p("name"), &f.name)?;
    if let Some(first) = names.insert(f.name.clone(), i) {
        return err(
            p("name"),
            format!("duplicate flow name {:?} (also flows[{first}])", f.name),
        );
    }
    for (field, node) in [("from", &f.from), ("to", &f.to)] {
        graph.check_node(p(field), node)?;
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
    before_end(p("start"), f.start, spec)?;
    if let Some(stop) = f.stop {
        if stop.0 <= f.start.0 {
            return err(
                p("stop"),
                format!("{} is not after start ({})", show(&stop), show(&f.start)),
            );
        }
    }
    let header = flow_header_bytes(f);
    if f.packet_size.0 .0 <= u64::from(header) || f.packet_size.0 .0 > 65_535 {
        return err(
            p("packet_size"),
            format!(
                "must exceed the {header}-byte header and be at most 65535B, found {}",
                show(&f.packet_size)
            ),
        );
    }
    validate_family(f, &p)
}

/// A flow's family checks, and the refusal of the other families' keys.
pub(crate) fn validate_family(
    f: &FlowSpec,
    p: &dyn Fn(&str) -> String,
) -> Result<(), ScenarioError> {
    match family(f.protocol) {
        Family::Tcp => {
            super::tcp::validate(f, p)?;
            refuse_keys(f, p, &f.rate_keys_set(), "rate-based flows")
        }
        Family::Rate => {
            super::rate::validate(f, p)?;
            refuse_keys(f, p, &f.tcp_keys_set(), "TCP flows")
        }
        Family::Udp => {
            super::udp::validate(f, p)?;
            refuse_keys(f, p, &f.tcp_keys_set(), "TCP flows")?;
            refuse_keys(f, p, &f.rate_keys_set(), "rate-based flows")
        }
    }
}
