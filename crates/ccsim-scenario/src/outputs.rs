//! The results of a run as the output files hold them ([`RunResults`]), and the files of an
//! output folder: `summary.json`, `spec.json` and the Parquet tables (`flows.parquet`,
//! `links.parquet`, `series.parquet`, `ticp_reports.parquet`), and `series.csv` on request.
//! Their layout is documented in docs/scenarios.md.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::Path;

use ccsim_engine::TraceBuf;
use serde::Serialize;

use crate::capture::Captures;
use crate::parquet::{write_parquet, Column, ColumnData};
use crate::protocols::tcpm::TcpmSummary;
use crate::protocols::ticp::{TicpSummary, TicpTable};
use crate::summary::{
    Aggregate, Fairness, FlowSummary, LinkSummary, RunInfo, Summary, TopologyRecord, TrafficSummary,
};

/// CHOICE: a run of at most this many flows (and [`SMALL_RUN_LINKS`] link directions) is
/// small: its `summary.json` also lists every flow and link direction and its `spec.json` is
/// indented for reading. Larger runs keep those tables in Parquet only.
pub const SMALL_RUN_FLOWS: usize = 64;
/// Link directions a small run may have (a 64-flow dumbbell with its own access links has 258).
pub const SMALL_RUN_LINKS: usize = 512;
/// CHOICE: `series.parquet` carries the spec in its footer (`ccsim.spec`) only up to 1 MiB;
/// readers limit footer sizes, and `spec.json` beside it holds the spec anyway.
pub const MAX_FOOTER_SPEC: usize = 1 << 20;

/// The results of a run, as the output files hold them.
pub struct RunResults {
    /// The summary.
    pub summary: Summary,
    /// Recorded series.
    pub trace: TraceBuf,
    /// Names for the trace's entity column.
    pub entity_names: Vec<String>,
    /// Names for the trace's variable column.
    pub var_names: Vec<&'static str>,
    /// Per-source report arrivals of the TICP sessions.
    pub ticp_table: TicpTable,
    /// The spec's canonical JSON (its hash is `summary.run.spec_hash`).
    pub canonical_spec: String,
    /// One row per flow, in spec order (`flows.parquet`).
    pub flow_table: Table,
    /// One row per link direction, in spec order (`links.parquet`).
    pub link_table: Table,
    /// The pcap captures (`[output] pcap`), in temporary files until written.
    pub captures: Captures,
}

/// One column of a results table.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// Numbers.
    F64(Vec<f64>),
    /// Numbers that may be absent.
    OptF64(Vec<Option<f64>>),
    /// Counts.
    U64(Vec<u64>),
    /// Names.
    Str(Vec<String>),
    /// Flags.
    Bool(Vec<bool>),
}

/// A results table, one row per flow or link direction; nested summary keys are dotted
/// (`drops_by_reason.queue_full`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Named columns of equal length.
    pub columns: Vec<(String, Values)>,
}

impl Table {
    fn as_parquet(&self) -> Vec<Column<'_>> {
        self.columns
            .iter()
            .map(|(name, v)| Column {
                name,
                data: match v {
                    Values::F64(x) => ColumnData::F64(x),
                    Values::OptF64(x) => ColumnData::OptF64(x),
                    Values::U64(x) => ColumnData::U64(x),
                    Values::Str(x) => ColumnData::Str(x),
                    Values::Bool(x) => ColumnData::Bool(x),
                },
            })
            .collect()
    }
}

/// One row of the per-flow table: a `[[flows]]` flow or a generated one.
pub struct FlowRow<'a> {
    /// Flow name.
    pub name: &'a str,
    /// Its results.
    pub flow: &'a FlowSummary,
    /// The generator that made it ("" for a `[[flows]]` flow).
    pub generator: &'a str,
    /// Start, seconds.
    pub start_s: f64,
    /// Application bytes of a finite transfer.
    pub size_bytes: Option<f64>,
    /// Completion time over that on an empty network (generated web transfers).
    pub slowdown: Option<f64>,
}

/// The per-flow table (`flows.parquet`): the spec's flows in order, then the generated ones
/// in creation order.
#[must_use]
pub fn flow_table(rows: &[FlowRow]) -> Table {
    let u = |f: fn(&FlowSummary) -> u64| Values::U64(rows.iter().map(|r| f(r.flow)).collect());
    let mut table = Table {
        columns: vec![
            (
                "name".into(),
                Values::Str(rows.iter().map(|r| r.name.to_string()).collect()),
            ),
            (
                "protocol".into(),
                Values::Str(rows.iter().map(|r| r.flow.protocol.to_string()).collect()),
            ),
            (
                "goodput_bps".into(),
                Values::F64(rows.iter().map(|r| r.flow.goodput_bps).collect()),
            ),
            (
                "arrival_bps".into(),
                Values::F64(rows.iter().map(|r| r.flow.arrival_bps).collect()),
            ),
            ("held_at_start_bytes".into(), u(|r| r.held_at_start_bytes)),
            ("sent_packets".into(), u(|r| r.sent_packets)),
            ("sent_bytes".into(), u(|r| r.sent_bytes)),
            ("received_packets".into(), u(|r| r.received_packets)),
            ("received_bytes".into(), u(|r| r.received_bytes)),
            ("lost_packets".into(), u(|r| r.lost_packets)),
            (
                "retransmitted_packets".into(),
                u(|r| r.retransmitted_packets),
            ),
            ("timeouts".into(), u(|r| r.timeouts)),
            (
                "completion_time_s".into(),
                Values::OptF64(rows.iter().map(|r| r.flow.completion_time_s).collect()),
            ),
            (
                "mean_delay_s".into(),
                Values::OptF64(rows.iter().map(|r| r.flow.mean_delay_s).collect()),
            ),
            (
                "greedy".into(),
                Values::Bool(rows.iter().map(|r| r.flow.greedy).collect()),
            ),
            (
                "generator".into(),
                Values::Str(rows.iter().map(|r| r.generator.to_string()).collect()),
            ),
            (
                "start_s".into(),
                Values::F64(rows.iter().map(|r| r.start_s).collect()),
            ),
            (
                "size_bytes".into(),
                Values::OptF64(rows.iter().map(|r| r.size_bytes).collect()),
            ),
            (
                "slowdown".into(),
                Values::OptF64(rows.iter().map(|r| r.slowdown).collect()),
            ),
        ],
    };
    // With multipath routing: each flow's route ("h0 e0 a1 c2 ...", empty with spray) and its
    // count of equal-cost paths.
    if rows.iter().any(|r| r.flow.paths.is_some()) {
        table.columns.push((
            "route".into(),
            Values::Str(
                rows.iter()
                    .map(|r| r.flow.route.clone().unwrap_or_default())
                    .collect(),
            ),
        ));
        table
            .columns
            .push(("paths".into(), u(|r| r.paths.unwrap_or(0))));
    }
    table
}

/// The per-link-direction table, in the order of `names` (the spec's links, each as "a->b"
/// then "b->a").
#[must_use]
pub fn link_table(names: &[String], links: &BTreeMap<String, LinkSummary>) -> Table {
    let rows: Vec<&LinkSummary> = names.iter().map(|n| &links[n]).collect();
    let u = |f: fn(&LinkSummary) -> u64| Values::U64(rows.iter().map(|r| f(r)).collect());
    let mut columns = vec![
        ("name".into(), Values::Str(names.to_vec())),
        (
            "utilization".into(),
            Values::F64(rows.iter().map(|r| r.utilization).collect()),
        ),
        ("drops".into(), u(|r| r.drops)),
    ];
    let reasons: Vec<&str> = rows
        .first()
        .map(|r| r.drops_by_reason.keys().copied().collect())
        .unwrap_or_default();
    for reason in reasons {
        columns.push((
            format!("drops_by_reason.{reason}"),
            Values::U64(rows.iter().map(|r| r.drops_by_reason[reason]).collect()),
        ));
    }
    columns.extend([
        (
            "mean_queue_packets".into(),
            Values::F64(rows.iter().map(|r| r.mean_queue_packets).collect()),
        ),
        ("tx_packets".into(), u(|r| r.tx_packets)),
        ("ecn_marks".into(), u(|r| r.ecn_marks)),
    ]);
    // A run with a DualPI2 link has its per-queue columns (absent for the other links).
    if rows.iter().any(|r| r.dualpi2.is_some()) {
        type Get = fn(&crate::summary::Dualpi2Summary) -> Option<f64>;
        let cols: [(&str, Get); 12] = [
            ("l_packets", |d| Some(d.l_packets as f64)),
            ("c_packets", |d| Some(d.c_packets as f64)),
            ("l_step_marks", |d| Some(d.l_step_marks as f64)),
            ("l_coupled_marks", |d| Some(d.l_coupled_marks as f64)),
            ("c_marks", |d| Some(d.c_marks as f64)),
            ("l_drops", |d| Some(d.l_drops as f64)),
            ("c_drops", |d| Some(d.c_drops as f64)),
            ("l_sojourn_mean_s", |d| d.l_sojourn_mean_s),
            ("l_sojourn_p99_s", |d| d.l_sojourn_p99_s),
            ("c_sojourn_mean_s", |d| d.c_sojourn_mean_s),
            ("c_sojourn_p99_s", |d| d.c_sojourn_p99_s),
            ("base_probability", |d| Some(d.base_probability)),
        ];
        for (name, get) in cols {
            columns.push((
                format!("dualpi2.{name}"),
                Values::OptF64(
                    rows.iter()
                        .map(|r| r.dualpi2.as_ref().and_then(get))
                        .collect(),
                ),
            ));
        }
    }
    Table { columns }
}

/// Whether a run is small enough for its tables to be listed in `summary.json`.
#[must_use]
pub fn is_small(summary: &Summary) -> bool {
    summary.flows.len() <= SMALL_RUN_FLOWS && summary.links.len() <= SMALL_RUN_LINKS
}

#[derive(Serialize)]
struct SmallSummary<'a> {
    flows: &'a BTreeMap<String, FlowSummary>,
    links: &'a BTreeMap<String, LinkSummary>,
    aggregate: &'a Aggregate,
    fairness: &'a Fairness,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    ticp: &'a BTreeMap<String, TicpSummary>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    tcpm: &'a BTreeMap<String, TcpmSummary>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    traffic: &'a BTreeMap<String, TrafficSummary>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    topology: &'a Vec<TopologyRecord>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    node_drops: &'a BTreeMap<String, BTreeMap<&'static str, u64>>,
    run: &'a RunInfo,
}

/// The text of `summary.json`: the aggregates, and for a small run every flow and link.
#[must_use]
pub fn summary_json(summary: &Summary) -> String {
    let text = if is_small(summary) {
        serde_json::to_string_pretty(&SmallSummary {
            flows: &summary.flows,
            links: &summary.links,
            aggregate: &summary.aggregate,
            fairness: &summary.fairness,
            ticp: &summary.ticp,
            tcpm: &summary.tcpm,
            traffic: &summary.traffic,
            topology: &summary.topology,
            node_drops: &summary.node_drops,
            run: &summary.run,
        })
    } else {
        serde_json::to_string_pretty(summary)
    };
    text.expect("a summary always serialises") + "\n"
}

/// The names `keys` refer to, in order of first use, and the keys renumbered into them: a
/// dictionary column holds only the names it uses (a run of a million flows records the
/// series of a few aggregate entities).
fn used_names<S: AsRef<str>>(
    names: &[S],
    keys: impl Iterator<Item = u32>,
) -> (Vec<String>, Vec<u32>) {
    let mut index = vec![u32::MAX; names.len()];
    let mut used = Vec::new();
    let keys = keys
        .map(|k| {
            let slot = &mut index[k as usize];
            if *slot == u32::MAX {
                *slot = used.len() as u32;
                used.push(names[k as usize].as_ref().to_string());
            }
            *slot
        })
        .collect();
    (used, keys)
}

/// Series time stamps in seconds, as the tables give them.
fn seconds(trace: &TraceBuf) -> Vec<f64> {
    trace.time_ns.iter().map(|&t| t as f64 / 1e9).collect()
}

fn write_series_csv(path: &Path, outcome: &RunResults) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    let quote = |s: &str| {
        if s.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let entities: Vec<String> = outcome.entity_names.iter().map(|s| quote(s)).collect();
    writeln!(out, "time,entity,variable,value")?;
    let t = &outcome.trace;
    for i in 0..t.len() {
        writeln!(
            out,
            "{:?},{},{},{:?}",
            t.time_ns[i] as f64 / 1e9,
            entities[t.entity[i] as usize],
            outcome.var_names[t.var[i] as usize],
            t.value[i]
        )?;
    }
    out.flush()
}

/// Write the output files of `outcome` into the existing folder `dir`; return their names.
///
/// # Errors
/// I/O errors.
pub fn write_outputs(dir: &Path, outcome: &RunResults, csv: bool) -> io::Result<Vec<String>> {
    let mut written: Vec<String> = Vec::new();
    for capture in &outcome.captures.files {
        std::fs::copy(&capture.path, dir.join(&capture.name))?;
        written.push(capture.name.clone());
    }
    std::fs::write(dir.join("summary.json"), summary_json(&outcome.summary))?;
    written.push("summary.json".into());
    let spec_text = if is_small(&outcome.summary) {
        let value: serde_json::Value =
            serde_json::from_str(&outcome.canonical_spec).map_err(io::Error::other)?;
        serde_json::to_string_pretty(&value).map_err(io::Error::other)?
    } else {
        outcome.canonical_spec.clone()
    };
    std::fs::write(dir.join("spec.json"), spec_text + "\n")?;
    written.push("spec.json".into());
    write_parquet(
        &dir.join("flows.parquet"),
        &outcome.flow_table.as_parquet(),
        &[],
    )?;
    written.push("flows.parquet".into());
    write_parquet(
        &dir.join("links.parquet"),
        &outcome.link_table.as_parquet(),
        &[],
    )?;
    written.push("links.parquet".into());
    let t = &outcome.trace;
    let (entity_names, entity_keys) = used_names(&outcome.entity_names, t.entity.iter().copied());
    let (var_names, var_keys) = used_names(&outcome.var_names, t.var.iter().map(|&v| u32::from(v)));
    let seed = outcome.summary.run.seed.to_string();
    let mut meta = vec![
        ("ccsim.seed", seed.as_str()),
        ("ccsim.spec_hash", outcome.summary.run.spec_hash.as_str()),
    ];
    if outcome.canonical_spec.len() <= MAX_FOOTER_SPEC {
        meta.push(("ccsim.spec", outcome.canonical_spec.as_str()));
    }
    write_parquet(
        &dir.join("series.parquet"),
        &[
            Column {
                name: "time",
                data: ColumnData::F64(&seconds(t)),
            },
            Column {
                name: "entity",
                data: ColumnData::Dict {
                    values: &entity_names,
                    keys: &entity_keys,
                },
            },
            Column {
                name: "variable",
                data: ColumnData::Dict {
                    values: &var_names,
                    keys: &var_keys,
                },
            },
            Column {
                name: "value",
                data: ColumnData::F64(&t.value),
            },
        ],
        &meta,
    )?;
    written.push("series.parquet".into());
    if csv {
        write_series_csv(&dir.join("series.csv"), outcome)?;
        written.push("series.csv".into());
    }
    let tt = &outcome.ticp_table;
    if !tt.session.is_empty() {
        write_parquet(
            &dir.join("ticp_reports.parquet"),
            &[
                Column {
                    name: "session",
                    data: ColumnData::Str(&tt.session),
                },
                Column {
                    name: "source",
                    data: ColumnData::U32(&tt.source),
                },
                Column {
                    name: "node",
                    data: ColumnData::Str(&tt.node),
                },
                Column {
                    name: "cluster",
                    data: ColumnData::U32(&tt.cluster),
                },
                Column {
                    name: "arrived_s",
                    data: ColumnData::F64(&tt.arrived_s),
                },
                Column {
                    name: "round",
                    data: ColumnData::U32(&tt.round),
                },
                Column {
                    name: "delayed",
                    data: ColumnData::Bool(&tt.delayed),
                },
            ],
            &[],
        )?;
        written.push("ticp_reports.parquet".into());
    }
    Ok(written)
}
