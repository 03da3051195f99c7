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
//!   defaults).
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
}

impl TrafficKind {
    /// Name used in files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TrafficKind::Web => "web",
            TrafficKind::Voice => "voice",
            TrafficKind::Streaming => "streaming",
        }
    }
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
    pub from: Vec<String>,
    /// Receiving nodes, chosen as `from` is.
    pub to: Vec<String>,
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
                TrafficKind::Web => 0,
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
        for (field, list) in [("from", &t.from), ("to", &t.to)] {
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
        only("protocol", t.protocol.is_some() && !web, "web")?;
        only("arrivals", t.arrivals.is_some() && !web, "web")?;
        only("mean_size", t.mean_size.is_some() && !web, "web")?;
        only("shape", t.shape.is_some() && !web, "web")?;
        only("options", t.options.is_some() && !web, "web")?;
        only("count", t.count.is_some() && web, "voice and streaming")?;
        only("rate", t.rate.is_some() && web, "voice and streaming")?;
        only("on", t.on.is_some() && !voice, "voice")?;
        only("off", t.off.is_some() && !voice, "voice")?;
        let size = t.packet_size();
        if web {
            validate_web(i, t, &p)?;
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
