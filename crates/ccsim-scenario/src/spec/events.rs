//! `[[events]]`: links and nodes that go down and come back up at given times, and
//! `[run] reroute`, what routing does about it.
//!
//! The semantics follow ns-2's `rtmodel-at` (a link fails in both directions; queued and
//! propagating packets are lost) with ns-3's per-direction interface failure as the one-way
//! form; routing is ns-2's static (never recomputed), session (recomputed at the instant) or a
//! distance-vector-like delay (../shared/research/next.md section 3; docs/scenarios.md
//! "Failures and rerouting").

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{before_end, err, pair_key, show, Graph, Spec};
use crate::error::ScenarioError;
use crate::units::DurStr;

/// The convergence delay `reroute = "dv"` stands for: ns-2's DV `advertInterval` (2 s).
pub const DV_CONVERGENCE: ccsim_core::Dur = ccsim_core::Dur(2_000_000_000);

/// What routing does when a link or node changes state (`[run] reroute`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RerouteSpec {
    /// Tables never change: packets routed onto a dead link are lost (ns-2's default, ns-3
    /// without recomputation).
    #[default]
    Static,
    /// Tables recomputed at the instant of each change (ns-2 session routing, ns-3
    /// `RecomputeRoutingTables`).
    Instant,
    /// The new tables take effect this long after each change (a distance-vector-like
    /// approximation: ns-2's DV advertises every 2 s).
    After(DurStr),
}

impl RerouteSpec {
    /// Whether this is the default, static routing.
    #[must_use]
    pub fn is_static(&self) -> bool {
        *self == RerouteSpec::Static
    }
}

impl<'de> Deserialize<'de> for RerouteSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = RerouteSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "\"static\", \"instant\", \"dv\", or a convergence delay such as \"2s\"",
                )
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RerouteSpec, E> {
                match v {
                    "static" => Ok(RerouteSpec::Static),
                    "instant" => Ok(RerouteSpec::Instant),
                    "dv" => Ok(RerouteSpec::After(DurStr(DV_CONVERGENCE))),
                    _ => DurStr::deserialize(serde::de::value::StrDeserializer::<E>::new(v))
                        .map(RerouteSpec::After)
                        .map_err(|_| {
                            E::custom(format!(
                                "expected \"static\", \"instant\", \"dv\" (a 2s convergence delay), or a convergence delay such as \"2s\", found {v:?}"
                            ))
                        }),
                }
            }
        }
        d.deserialize_str(V)
    }
}

impl Serialize for RerouteSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RerouteSpec::Static => s.serialize_str("static"),
            RerouteSpec::Instant => s.serialize_str("instant"),
            RerouteSpec::After(d) => d.serialize(s),
        }
    }
}

impl JsonSchema for RerouteSpec {
    fn schema_name() -> String {
        "RerouteSpec".to_string()
    }
    fn json_schema(_gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        schemars::schema::SchemaObject {
            instance_type: Some(schemars::schema::InstanceType::String.into()),
            metadata: Some(Box::new(schemars::schema::Metadata {
                description: Some(
                    "\"static\", \"instant\", \"dv\" (\"2s\"), or a convergence delay such as \"2s\"".into(),
                ),
                ..Default::default()
            })),
            ..Default::default()
        }
        .into()
    }
}

/// The state an event sets.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LinkState {
    /// Failed: carries nothing, loses what it holds.
    Down,
    /// Working.
    Up,
}

/// Which link an event changes: both directions (`["a", "c"]`) or one (`"a->c"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkRef {
    /// Both directions of the link between two nodes.
    Both([String; 2]),
    /// One direction, from the first node to the second.
    OneWay(String, String),
}

impl<'de> Deserialize<'de> for LinkRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        match &v {
            serde_json::Value::Array(a) => {
                if let [serde_json::Value::String(x), serde_json::Value::String(y)] = a.as_slice() {
                    return Ok(LinkRef::Both([x.clone(), y.clone()]));
                }
            }
            serde_json::Value::String(s) => {
                if let Some((a, b)) = s.split_once("->") {
                    return Ok(LinkRef::OneWay(a.to_string(), b.to_string()));
                }
            }
            _ => {}
        }
        let found = super::shown_briefly(&v);
        Err(serde::de::Error::custom(format!(
            "expected two node names such as [\"a\", \"c\"] (both directions) or one direction such as \"a->c\", found {found}"
        )))
    }
}

impl Serialize for LinkRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LinkRef::Both(pair) => pair.serialize(s),
            LinkRef::OneWay(a, b) => s.serialize_str(&format!("{a}->{b}")),
        }
    }
}

impl JsonSchema for LinkRef {
    fn schema_name() -> String {
        "LinkRef".to_string()
    }
    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        let mut obj = schemars::schema::SchemaObject::default();
        obj.subschemas().any_of = Some(vec![
            gen.subschema_for::<[String; 2]>(),
            gen.subschema_for::<String>(),
        ]);
        schemars::schema::Schema::Object(obj)
    }
}

/// A scheduled change of a link's or a node's state.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventSpec {
    /// When.
    pub at: DurStr,
    /// The link: `["a", "c"]` for both directions, `"a->c"` for one.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub link: Option<LinkRef>,
    /// The node: down loses what it holds, forwards nothing, and its agents neither send nor
    /// receive.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub node: Option<String>,
    /// "down" or "up".
    pub state: LinkState,
}

/// Most events a scenario may schedule (each is an event in the queue and, with rerouting, a
/// recomputation of every routing table).
pub const MAX_EVENTS: usize = 100_000;

/// The events' checks: a known link or node, inside the run, and a state that changes
/// something (down when up, up when down) in time order.
pub(crate) fn validate(
    spec: &Spec,
    graph: &Graph,
    pairs: &BTreeMap<(String, String), usize>,
) -> Result<(), ScenarioError> {
    if let super::RerouteSpec::After(d) = spec.run.reroute {
        if d.0 .0 == 0 || d.0 > ccsim_core::Dur::from_secs(3600) {
            return err(
                "run.reroute".into(),
                format!(
                    "a convergence delay must be between 1ns and 3600s (or \"instant\"), found {}",
                    show(&d)
                ),
            );
        }
    }
    if spec.events.len() > MAX_EVENTS {
        return err(
            "events".into(),
            format!("at most {MAX_EVENTS} events, found {}", spec.events.len()),
        );
    }
    // The state of each element that an event names, in time order (ties in file order, as
    // the run applies them), to refuse an event that changes nothing.
    let mut order: Vec<usize> = (0..spec.events.len()).collect();
    order.sort_by_key(|&i| spec.events[i].at.0);
    let mut down: BTreeMap<String, usize> = BTreeMap::new();
    for &i in &order {
        let e = &spec.events[i];
        let p = |field: &str| format!("events[{i}].{field}");
        before_end(p("at"), e.at, spec)?;
        let elements: Vec<String> = match (&e.link, &e.node) {
            (Some(_), Some(_)) => {
                return err(
                    p("node"),
                    "an event names a link or a node, not both".into(),
                )
            }
            (None, None) => {
                return err(
                    format!("events[{i}]"),
                    "an event needs a link (link = [\"a\", \"c\"] or \"a->c\") or a node".into(),
                )
            }
            (None, Some(n)) => {
                graph.check_node(p("node"), n)?;
                vec![format!("node {n:?}")]
            }
            (Some(l), None) => {
                let (a, b) = match l {
                    LinkRef::Both([a, b]) | LinkRef::OneWay(a, b) => (a, b),
                };
                if !pairs.contains_key(&pair_key(a, b)) {
                    return err(
                        p("link"),
                        format!("there is no link between {a:?} and {b:?}"),
                    );
                }
                match l {
                    LinkRef::Both(_) => vec![format!("{a}->{b}"), format!("{b}->{a}")],
                    LinkRef::OneWay(..) => vec![format!("{a}->{b}")],
                }
            }
        };
        for el in elements {
            let was_down = down.get(&el).copied();
            match (e.state, was_down) {
                (LinkState::Down, Some(first)) => {
                    return err(
                        p("state"),
                        format!("{el} is already down at {} (events[{first}])", show(&e.at)),
                    )
                }
                (LinkState::Up, None) => {
                    return err(
                        p("state"),
                        format!("{el} is not down at {}; nothing brings it up", show(&e.at)),
                    )
                }
                (LinkState::Down, None) => {
                    down.insert(el, i);
                }
                (LinkState::Up, Some(_)) => {
                    down.remove(&el);
                }
            }
        }
    }
    Ok(())
}
