//! The scenario spec: serde types, parsing with field paths, semantic validation, schema.
//!
//! Unknown keys are rejected everywhere (`deny_unknown_fields`): a typo must not be
//! silently ignored. Defaults are stated once, on the field.
//!
//! One module per concern, each holding its serde types beside their validation: [`run`]
//! (`[run]`), [`links`] (`[[links]]`, queues, `[[drops]]`), [`events`] (`[[events]]`),
//! [`flows`] (`[[flows]]`: the keys common to every flow, the protocol names and families),
//! [`traffic`] (`[[traffic]]`), [`output`] (`[output]`) and [`parse`] (TOML and JSON readers).
//! Each protocol family's own keys and checks are a module here ([`tcp`], [`xcp`], [`rate`],
//! [`obp`], [`udp`]), as are the session tables ([`ticp`], [`tcpm`]); their agents are built in
//! [`crate::protocols`]. docs/adding-a-protocol.md is the map.
//!
//! The spec sits below every other module of the crate but `units` and `error`: it names no
//! simulation, so reading and checking a scenario needs nothing that runs one.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::ScenarioError;
use crate::units::DurStr;

pub mod events;
pub mod flows;
pub mod links;
pub mod obp;
pub mod output;
pub mod parse;
pub mod rate;
pub mod run;
pub mod tcp;
pub mod tcpm;
pub mod ticp;
pub mod traffic;
pub mod udp;
pub mod xcp;

pub use events::{EventSpec, LinkRef, LinkState, RerouteSpec};
pub use flows::{FlowSpec, Protocol};
pub use links::{
    DropSpec, Dualpi2Classify, Dualpi2DropAt, Dualpi2Overload, LimitKey, LinkSpec, QueueKind,
    QueueSpec, RedSpec, StepThreshStr, DUALPI2_DEFAULT_LIMIT, MAX_LINK_BDP_BYTES, MAX_QUEUE_BYTES,
    MAX_QUEUE_PACKETS,
};
pub use output::{OutputSpec, ENGINE_SERIES, MAX_SAMPLES, MAX_SERIES_VALUES};
pub use parse::{parse_spec_json, parse_spec_toml, parse_spec_value};
pub use rate::{CbraaSpec, PrimoSpec, TfrcSpec};
pub use run::{MultipathSpec, Routing, RunSpec};
pub use tcp::{VegasSpec, MAX_INITIAL_WINDOW};
pub use tcpm::{FusionSpec, TcpmSpec, TCPM_GROUP_BASE};
pub use ticp::{TicpClusters, TicpDelivery, TicpSpec, MAX_TICP_SOURCES, TICP_GROUPS_PER_SESSION};
pub use traffic::{TrafficKind, TrafficSpec};

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
    #[serde(default, skip_serializing_if = "crate::spec::omit_empty")]
    pub ticp: Vec<TicpSpec>,
    /// TCP-M reliable multicast sessions.
    #[serde(default, skip_serializing_if = "crate::spec::omit_empty")]
    pub tcpm: Vec<TcpmSpec>,
    /// Deterministic drop rules (tests and experiments).
    #[serde(default, skip_serializing_if = "crate::spec::omit_empty")]
    pub drops: Vec<DropSpec>,
    /// Links and nodes going down and up during the run.
    #[serde(default, skip_serializing_if = "crate::spec::omit_empty")]
    pub events: Vec<EventSpec>,
    /// Generators of web, voice and streaming traffic.
    #[serde(default, skip_serializing_if = "crate::spec::omit_empty")]
    pub traffic: Vec<TrafficSpec>,
    /// What to record.
    #[serde(default)]
    pub output: OutputSpec,
}

/// The JSON Schema of the spec.
#[must_use]
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(Spec);
    serde_json::to_string_pretty(&schema).expect("a schema always serialises")
}

impl Spec {
    /// Whether the run calls code from outside ccsim: a flow, a traffic template or a TCP-M
    /// session whose protocol is a registered or Python algorithm, or a user's queue.
    #[must_use]
    pub fn runs_custom_code(&self) -> bool {
        self.flows.iter().any(|f| f.protocol.custom().is_some())
            || self
                .traffic
                .iter()
                .any(|t| t.protocol.is_some_and(|p| p.custom().is_some()))
            || self.tcpm.iter().any(|t| t.protocol.custom().is_some())
            || self
                .links
                .iter()
                .any(|l| matches!(l.queue, links::QueueSpec::Custom(_)))
    }

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

    /// Every key, those at their defaults included (absent optional keys as `null`, empty
    /// tables as `[]`), pretty-printed: what `ccsim validate --print` shows. It parses back to
    /// the same spec; the canonical form ([`Spec::canonical_json`]) leaves those keys out so
    /// that its hash does not change when a key is added with a default.
    #[must_use]
    pub fn full_json(&self) -> String {
        struct Restore;
        impl Drop for Restore {
            fn drop(&mut self) {
                OMIT_DEFAULTS.with(|c| c.set(true));
            }
        }
        OMIT_DEFAULTS.with(|c| c.set(false));
        let _restore = Restore;
        serde_json::to_string_pretty(self).expect("a spec always serialises")
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

/// Semantic checks that serde cannot express, concern by concern.
pub(crate) fn validate(spec: &Spec) -> Result<(), ScenarioError> {
    run::validate(&spec.run)?;
    let pairs = links::validate(&spec.links)?;
    let graph = Graph::new(spec);
    let mut names = BTreeMap::new();
    for (i, f) in spec.flows.iter().enumerate() {
        flows::validate(i, f, spec, &graph, &mut names)?;
    }
    ticp::validate(spec, &graph, &mut names)?;
    tcpm::validate(spec, &graph, &mut names)?;
    links::validate_drops(&spec.drops, &names, &pairs)?;
    events::validate(spec, &graph, &pairs)?;
    traffic::validate(spec, &graph, &names)?;
    output::validate(spec, &pairs)
}

pub(crate) fn err<T>(path: String, message: String) -> Result<T, ScenarioError> {
    Err(ScenarioError::Spec { path, message })
}

/// `Ok` if `at` comes before the end of the run, else the error at `path`.
pub(crate) fn before_end(path: String, at: DurStr, spec: &Spec) -> Result<(), ScenarioError> {
    if at.0 < spec.run.duration.0 {
        return Ok(());
    }
    err(
        path,
        format!(
            "{} is not before the end of the run ({})",
            show(&at),
            show(&spec.run.duration)
        ),
    )
}

/// A JSON value for a message, cut to 80 characters.
pub(crate) fn shown_briefly(v: &serde_json::Value) -> String {
    let found = v.to_string();
    if found.chars().count() > 80 {
        found.chars().take(77).collect::<String>() + "..."
    } else {
        found
    }
}

/// A value as the spec writes it (units included), for messages.
pub(crate) fn show<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

pub(crate) fn zero_dur() -> DurStr {
    DurStr(ccsim_core::Dur::ZERO)
}

pub(crate) fn default_true() -> bool {
    true
}

thread_local! {
    /// Whether serialising a spec leaves out the keys at their defaults (the canonical form,
    /// which the spec hash and the result cache key on) or writes every key (the full form).
    static OMIT_DEFAULTS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether keys at their defaults are left out (see [`Spec::full_json`]).
pub(crate) fn omitting_defaults() -> bool {
    OMIT_DEFAULTS.with(std::cell::Cell::get)
}

pub(crate) fn omit_none<T>(v: &Option<T>) -> bool {
    omitting_defaults() && v.is_none()
}

pub(crate) fn omit_empty<T>(v: &[T]) -> bool {
    omitting_defaults() && v.is_empty()
}

#[allow(clippy::trivially_copy_pass_by_ref)]
pub(crate) fn is_zero(x: &f64) -> bool {
    omitting_defaults() && *x == 0.0
}

#[allow(clippy::trivially_copy_pass_by_ref)]
/// An optional flag left out of the canonical form when absent or false, so that writing
/// `false` gives the hash its absence gives.
#[allow(clippy::ref_option)]
pub(crate) fn omit_unset_or_false(v: &Option<bool>) -> bool {
    omitting_defaults() && *v != Some(true)
}

pub(crate) fn is_false(b: &bool) -> bool {
    omitting_defaults() && !*b
}

#[allow(clippy::trivially_copy_pass_by_ref)]
pub(crate) fn is_true(b: &bool) -> bool {
    omitting_defaults() && *b
}

/// The key of the duplex link between `a` and `b`, whichever way round they are named.
pub(crate) fn pair_key(a: &str, b: &str) -> (String, String) {
    if a < b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

pub(crate) fn check_name(path: &str, name: &str) -> Result<(), ScenarioError> {
    if name.is_empty() || name.contains("->") || name.chars().any(char::is_whitespace) {
        return err(
            path.into(),
            format!("{name:?} is not a usable name (non-empty, no spaces, no \"->\")"),
        );
    }
    Ok(())
}

/// The nodes the links name and the connected components of the undirected link graph
/// (union-find), for "unknown node" and "no route" checks.
pub(crate) struct Graph {
    /// Node names in order of first appearance in `links`.
    pub(crate) nodes: Vec<String>,
    index: std::collections::HashMap<String, usize>,
    root: Vec<usize>,
}

impl Graph {
    fn new(spec: &Spec) -> Self {
        let nodes = spec.node_names();
        let index: std::collections::HashMap<String, usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i))
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
        Graph { nodes, index, root }
    }

    /// Whether a link names `node`.
    pub(crate) fn has(&self, node: &str) -> bool {
        self.index.contains_key(node)
    }

    /// `Ok` if a link names `node`, else the error at `path` that lists the known nodes.
    pub(crate) fn check_node(&self, path: String, node: &str) -> Result<(), ScenarioError> {
        if self.has(node) {
            Ok(())
        } else {
            err(
                path,
                format!(
                    "node {node:?} is in no link (known nodes: {})",
                    self.nodes.join(", ")
                ),
            )
        }
    }

    /// Whether a path of links joins `from` and `to`.
    pub(crate) fn connected(&self, from: &str, to: &str) -> bool {
        match (self.index.get(from), self.index.get(to)) {
            (Some(&a), Some(&b)) => self.root[a] == self.root[b],
            _ => false,
        }
    }
}
