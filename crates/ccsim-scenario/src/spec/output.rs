//! `[output]`: the sampled series, the change traces and their bounds.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use std::collections::BTreeMap;

use super::{err, pair_key, show, Spec};
use crate::error::ScenarioError;
use crate::units::DurStr;

/// What to record.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// Time-series resolution.
    #[serde(default = "default_interval")]
    pub interval: DurStr,
    /// Series sampled every interval: "rate", "sent_rate" and "delay" (per flow), "queue" (per
    /// link direction), and agent variables "cwnd", "ssthresh", "srtt", "rto", "inflight",
    /// "send_rate", "reports", "round", "cluster", "ca_state", and BBR's "btl_bw", "min_rtt",
    /// "pacing_gain", "cwnd_gain".
    #[serde(default = "default_series")]
    pub series: Vec<String>,
    /// Agent variables recorded at every change (e.g. "cwnd"), beside the sampled series.
    #[serde(default, skip_serializing_if = "crate::spec::omit_empty")]
    pub trace: Vec<String>,
    /// Per-flow series (true) or their aggregate over the flows (false); unset: per flow for
    /// runs of at most 64 flows.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub per_flow_series: Option<bool>,
    /// Link directions ("r1->r2") to capture, one pcap file each (docs/pcap.md).
    #[serde(default, skip_serializing_if = "crate::spec::omit_empty")]
    pub pcap: Vec<String>,
    /// Whether `flows.parquet` has a row per flow a web or flows generator made (default
    /// true); false keeps only the generators' results in `summary.json`, so that a run's
    /// memory follows the flows in flight (docs/datacenter.md, "Memory").
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub generated_rows: Option<bool>,
}

impl Default for OutputSpec {
    fn default() -> Self {
        OutputSpec {
            interval: default_interval(),
            series: default_series(),
            trace: Vec::new(),
            per_flow_series: None,
            pcap: Vec::new(),
            generated_rows: None,
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
// "Bounds", gives each with its reason and the memory measured at the bound). The bounds on
// links and flows sit beside their keys.

/// Most sampling instants a run may ask for (each is an event, and holds one record per
/// entity and series).
pub const MAX_SAMPLES: u64 = 10_000_000;
/// Most values the sampled series may hold in all (22 bytes each in the engine, more once
/// handed to Python): samples times the flows, link directions and agents they cover.
pub const MAX_SERIES_VALUES: u64 = 20_000_000;

/// Engine series names accepted in `output.series` besides the agent variables.
pub const ENGINE_SERIES: [&str; 4] = ["rate", "sent_rate", "delay", "queue"];

/// An upper bound on the values one sampling instant records: each flow's engine series,
/// two queue values per link direction, and each agent variable of each sender (flows and
/// TICP collectors; a TICP session adds three flows; voice and streaming sources with
/// `per_flow_series = true`).
fn series_values_per_sample(spec: &Spec) -> u128 {
    let series: std::collections::BTreeSet<&str> =
        spec.output.series.iter().map(String::as_str).collect();
    // Voice and streaming sources are in the series with `per_flow_series = true` (web
    // transfers too, as many as are alive at once, which no spec can bound).
    let sources = recorded_sources(spec);
    let flows = (spec.flows.len() + 3 * spec.ticp.len() + spec.tcpm.len()) as u128 + sources;
    let senders = (spec.flows.len() + spec.ticp.len() + spec.tcpm.len()) as u128 + sources;
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

/// The voice and streaming sources whose series are recorded: with `per_flow_series = true`.
fn recorded_sources(spec: &Spec) -> u128 {
    if spec.output.per_flow_series == Some(true) {
        spec.traffic
            .iter()
            .map(|t| u128::from(t.count.unwrap_or(0)))
            .sum()
    } else {
        0
    }
}

fn known_series() -> String {
    let mut all: Vec<&str> = ENGINE_SERIES.to_vec();
    all.extend(ccsim_core::VarId::ALL.iter().map(|v| v.name()));
    all.join(", ")
}

/// The output checks: the sampling interval, the series names and their total size.
pub(crate) fn validate(
    spec: &Spec,
    pairs: &BTreeMap<(String, String), usize>,
) -> Result<(), ScenarioError> {
    let o = &spec.output;
    let mut captured = BTreeMap::new();
    let mut files: BTreeMap<String, (&str, usize)> = BTreeMap::new();
    for (i, l) in o.pcap.iter().enumerate() {
        let path = format!("output.pcap[{i}]");
        let Some((a, b)) = l.split_once("->") else {
            return err(
                path,
                format!("{l:?} is not a link direction (write \"a->b\")"),
            );
        };
        if !pairs.contains_key(&pair_key(a, b)) {
            return err(path, format!("there is no link between {a:?} and {b:?}"));
        }
        if let Some(first) = captured.insert(l.as_str(), i) {
            return err(
                path,
                format!("{l:?} is already captured (output.pcap[{first}])"),
            );
        }
        // Two directions must not share a file (case-folded, for case-insensitive disks).
        let file = pcap_file_name(l).to_lowercase();
        if let Some((other, j)) = files.insert(file.clone(), (l.as_str(), i)) {
            return err(
                path,
                format!(
                    "{l:?} would be written to the same file as {other:?} (output.pcap[{j}]), {}; capture one of them",
                    pcap_file_name(l)
                ),
            );
        }
    }
    if o.interval.0 .0 == 0 {
        return err(
            "output.interval".into(),
            "must be positive, found \"0s\"".into(),
        );
    }
    let samples = spec.run.duration.0 .0.div_ceil(o.interval.0 .0);
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
        let sources = recorded_sources(spec);
        let (counted, way_out) = if sources > 0 {
            (
                format!(" (with {sources} voice and streaming sources)"),
                ", fewer series, or per_flow_series = false",
            )
        } else {
            (String::new(), " or fewer series")
        };
        return err(
            "output.series".into(),
            format!(
                "{samples} samples of {:?} over {} flows{counted} and {} link directions make {values} values; at most {MAX_SERIES_VALUES} (use a longer interval{way_out})",
                o.series,
                spec.flows.len() as u128 + 3 * spec.ticp.len() as u128 + sources,
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

/// The file name of the capture of link direction `direction` ("a->b"), in the output folder.
///
/// CHOICE: the file of direction "a->b" is `a-b.pcap`, with any character of a node name other
/// than a letter, digit, `.`, `_` or `-` written `_` (a leading `.` too); [`validate`] refuses
/// two captured directions that would share a file.
#[must_use]
pub fn pcap_file_name(direction: &str) -> String {
    let (a, b) = direction.split_once("->").unwrap_or((direction, ""));
    let clean = |n: &str| -> String {
        n.chars()
            .enumerate()
            .map(|(i, c)| {
                if c.is_ascii_alphanumeric() || c == '_' || c == '-' || (c == '.' && i > 0) {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    format!("{}-{}.pcap", clean(a), clean(b))
}
