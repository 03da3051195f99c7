//! Build a simulation from a validated spec and run it, with progress and interruption.
//!
//! The top of the crate: [`build`] lays out the network and has [`crate::protocols`] build the
//! flows and sessions and [`crate::generators`] the traffic generators, all on the build
//! context of [`crate::netsim`]; [`run`] drives the simulation with the generators and
//! captures ([`crate::capture`]), then hands what it measured to [`crate::summary`] and the
//! output tables ([`crate::outputs`]). Nothing below imports this module.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

use ccsim_core::{Addr, FlowId, SimTime, VarId};
use ccsim_engine::{LinkId, NodeId, Reroute, RouteMetric, SeriesConfig, Stopped, TraceBuf};

use crate::capture::{number_tcp_flow, Captures};
use crate::error::ScenarioError;
use crate::generators::Generators;
use crate::memory::MemoryGuard;
use crate::outputs::{flow_table, link_table, FlowRow};
use crate::paths::FlowPath;
use crate::protocols::tcpm::TcpmHandles;
use crate::protocols::ticp::TicpHandles;
use crate::protocols::{self, add_flow_agents, after_routes};
use crate::registry;
use crate::spec::links::QueueSpec;
use crate::spec::{hash_canonical, LinkRef, LinkState, RerouteSpec, Routing, Spec};
use crate::summary::{percentiles, summarize, Finished};

pub use crate::netsim::{NetSim, RunOptions};
pub use crate::outputs::RunResults;
pub use crate::spec::rate::DEFAULT_REPORT_INTERVAL;

/// Where a run stands, for progress bars.
#[derive(Clone, Copy, Debug)]
pub struct RunProgress {
    /// Simulated seconds reached.
    pub sim_seconds: f64,
    /// Simulated seconds to run in all.
    pub horizon_seconds: f64,
    /// Events processed.
    pub events: u64,
}

/// What a run returns: its results and the finished simulation. Derefs to the results.
pub struct RunOutcome {
    /// Everything the output files hold.
    pub results: RunResults,
    /// The finished simulation, for inspection.
    pub built: Built,
}

impl std::ops::Deref for RunOutcome {
    type Target = RunResults;
    fn deref(&self) -> &RunResults {
        &self.results
    }
}

/// The simulation built from a spec, with the handles the summary needs.
pub struct Built {
    /// The simulation, ready to run.
    pub sim: NetSim,
    /// Per flow: (flow id, sender address, receiver address).
    pub flows: Vec<(FlowId, Addr, Addr)>,
    /// Per simplex link: (name "a->b", id).
    pub links: Vec<(String, LinkId)>,
    /// Per TICP session, its handles.
    pub ticp: Vec<TicpHandles>,
    /// Per TCP-M session, its handles.
    pub tcpm: Vec<TcpmHandles>,
    /// Node names by node index.
    pub node_names: Vec<String>,
    /// The traffic generators and the flows they made.
    pub generators: Generators,
    /// Per flow, its path when routing is multipath (empty otherwise).
    pub paths: Vec<Option<FlowPath>>,
}

/// Build the simulation a validated spec describes.
///
/// # Errors
/// [`ScenarioError::Internal`] if the spec was not validated (a route is missing).
pub fn build(spec: &Spec, options: &RunOptions) -> Result<Built, ScenarioError> {
    let mut sim = NetSim::new(spec.run.seed);
    // Nodes in order of first appearance in `links`.
    let mut node_index: HashMap<&str, NodeId> = HashMap::with_capacity(2 * spec.links.len());
    for l in &spec.links {
        for n in &l.between {
            if !node_index.contains_key(n.as_str()) {
                node_index.insert(n, sim.add_node(n));
            }
        }
    }
    let node = |n: &String| -> NodeId { node_index[n.as_str()] };
    let mut links = Vec::new();
    for (i, l) in spec.links.iter().enumerate() {
        let config = l.config();
        let [a, b] = &l.between;
        links.push((
            format!("{a}->{b}"),
            sim.add_link(node(a), node(b), config.clone()),
        ));
        links.push((format!("{b}->{a}"), sim.add_link(node(b), node(a), config)));
        if let QueueSpec::Custom(c) = &l.queue {
            // Each direction its own instance.
            for (name, id) in &links[links.len() - 2..] {
                let discipline = registry::resolve_queue(&c.class)
                    .and_then(|e| {
                        (e.factory)(&registry::QueueArgs {
                            link: name,
                            options: &c.options,
                        })
                    })
                    .map_err(|m| ScenarioError::spec(format!("links[{i}].queue.class"), m))?;
                sim.set_queue_discipline(*id, discipline);
            }
        }
    }
    let link_list: Vec<LinkId> = links.iter().map(|(_, id)| *id).collect();
    protocols::assist::install_routers(spec, &mut sim, &link_list);
    let mut flows = Vec::new();
    let mut flow_ids = BTreeMap::new();
    for (i, f) in spec.flows.iter().enumerate() {
        let flow = sim.add_flow(&f.name);
        flow_ids.insert(f.name.clone(), flow);
        let (from, to) = (node(&f.from), node(&f.to));
        let path = format!("flows[{i}]");
        let (s, r) = add_flow_agents(&mut sim, f, flow, &f.name, (from, to), options, &path)?;
        if let Some(stop) = f.stop {
            sim.schedule_stop(s, SimTime(stop.0 .0));
        }
        flows.push((flow, s, r));
    }
    let node_ids: BTreeMap<String, NodeId> = if spec.ticp.is_empty() {
        BTreeMap::new()
    } else {
        node_index
            .iter()
            .map(|(n, id)| ((*n).to_string(), *id))
            .collect()
    };
    let ticp = protocols::ticp::add_sessions(spec, &mut sim, &node_ids);
    let by_name = |n: &str| -> NodeId { node_index[n] };
    let mut tcpm = protocols::tcpm::add_sessions(spec, &mut sim, &by_name, options)?;
    let mut node_names = vec![String::new(); node_index.len()];
    for (n, id) in &node_index {
        node_names[id.0 as usize] = (*n).to_string();
    }
    sim.set_route_metric(match spec.run.routing {
        Routing::Delay => RouteMetric::Delay,
        Routing::Hops => RouteMetric::Hops,
    });
    sim.set_multipath(spec.run.multipath.engine());
    let mut generators = Generators::build(spec, &mut sim, &|n: &str| node_index[n], options)?;
    sim.build_routes();
    generators.note_paths(&mut sim);
    protocols::tcpm::add_fusion_nodes(spec, &mut sim, &by_name, &node_names, &mut tcpm);
    schedule_events(spec, &mut sim, &node_index, &links)?;
    for (i, f) in spec.flows.iter().enumerate() {
        let (from, to) = (node(&f.from), node(&f.to));
        if !sim.has_route(from, to) || !sim.has_route(to, from) {
            return Err(ScenarioError::spec(
                format!("flows[{i}].to"),
                format!("no route between {:?} and {:?}", f.from, f.to),
            ));
        }
        after_routes(f, &mut sim, from, to, flows[i].1);
    }
    let link_ids: HashMap<&str, LinkId> = links.iter().map(|(n, id)| (n.as_str(), *id)).collect();
    for (i, d) in spec.drops.iter().enumerate() {
        let link = *link_ids.get(d.link.as_str()).ok_or_else(|| {
            ScenarioError::spec(
                format!("drops[{i}].link"),
                format!("no link direction {:?}", d.link),
            )
        })?;
        let (path, flow) = if let Some(f) = spec.flows.iter().find(|f| f.name == d.flow) {
            (
                sim.route(node(&f.from), node(&f.to)).unwrap_or_default(),
                flow_ids[&d.flow],
            )
        } else if let Some(j) = spec.tcpm.iter().position(|t| t.name == d.flow) {
            // A TCP-M session's data goes down its multicast tree.
            let t = &spec.tcpm[j];
            let mut tree: Vec<LinkId> = Vec::new();
            for r in &t.receivers {
                for l in sim.route(node(&t.source), node(r)).unwrap_or_default() {
                    if !tree.contains(&l) {
                        tree.push(l);
                    }
                }
            }
            (tree, tcpm[j].flow)
        } else {
            return Err(ScenarioError::spec(
                format!("drops[{i}].flow"),
                format!("no flow is called {:?}", d.flow),
            ));
        };
        if !path.contains(&link) {
            let names: Vec<&str> = path
                .iter()
                .map(|l| links[l.0 as usize].0.as_str())
                .collect();
            return Err(ScenarioError::spec(
                format!("drops[{i}].link"),
                format!(
                    "{:?} is not on the path of flow {:?}'s data ({}), so the rule would drop nothing",
                    d.link,
                    d.flow,
                    names.join(", ")
                ),
            ));
        }
        sim.add_drop_rule(link, flow, &d.seqs);
    }
    let o = &spec.output;
    let series = SeriesConfig {
        interval: o.interval.0,
        flow_rate: o.series.iter().any(|s| s == "rate"),
        flow_sent_rate: o.series.iter().any(|s| s == "sent_rate"),
        flow_delay: o.series.iter().any(|s| s == "delay"),
        queue: o.series.iter().any(|s| s == "queue"),
        sampled_vars: o
            .series
            .iter()
            .filter_map(|s| VarId::from_name(s))
            .collect(),
        change_vars: o.trace.iter().filter_map(|s| VarId::from_name(s)).collect(),
    };
    sim.configure_run(
        SimTime(spec.run.duration.0 .0),
        SimTime(spec.run.warmup.0 .0),
        series,
    );
    let paths = flows
        .iter()
        .map(|&(_, s, r)| FlowPath::of(&mut sim, s, r))
        .collect();
    Ok(Built {
        sim,
        paths,
        flows,
        links,
        ticp,
        tcpm,
        node_names,
        generators,
    })
}

/// Schedule `[[events]]` and set `[run] reroute`.
fn schedule_events(
    spec: &Spec,
    sim: &mut NetSim,
    node_index: &HashMap<&str, NodeId>,
    links: &[(String, LinkId)],
) -> Result<(), ScenarioError> {
    sim.set_reroute(match spec.run.reroute {
        RerouteSpec::Static => Reroute::Static,
        RerouteSpec::Instant => Reroute::Instant,
        RerouteSpec::After(d) => Reroute::Delayed(d.0),
    });
    let link_ids: HashMap<&str, LinkId> = links.iter().map(|(n, id)| (n.as_str(), *id)).collect();
    // In time order, ties in file order, as validation read them.
    let mut order: Vec<usize> = (0..spec.events.len()).collect();
    order.sort_by_key(|&i| spec.events[i].at.0);
    for i in order {
        let e = &spec.events[i];
        let at = SimTime(e.at.0 .0);
        let up = e.state == LinkState::Up;
        let directions = match &e.link {
            Some(LinkRef::Both([a, b])) => vec![format!("{a}->{b}"), format!("{b}->{a}")],
            Some(LinkRef::OneWay(a, b)) => vec![format!("{a}->{b}")],
            None => Vec::new(),
        };
        for d in directions {
            let link = *link_ids
                .get(d.as_str())
                .ok_or_else(|| ScenarioError::Internal(format!("events[{i}]: no link {d}")))?;
            sim.schedule_link_state(link, at, up);
        }
        if let Some(n) = &e.node {
            let node = *node_index
                .get(n.as_str())
                .ok_or_else(|| ScenarioError::Internal(format!("events[{i}]: no node {n}")))?;
            sim.schedule_node_state(node, at, up);
        }
    }
    Ok(())
}

/// Everything a run checks before its first event: the spec and the simulation built from it
/// (routes, drop rules on the data path), without running it.
///
/// # Errors
/// The first [`ScenarioError`] found.
pub fn check(spec: &Spec) -> Result<(), ScenarioError> {
    build(spec, &RunOptions::default()).map(|_| ())
}

/// Run a validated spec to its end. `on_progress` is called every `chunk_events` events;
/// returning `false` interrupts the run.
///
/// # Errors
/// [`ScenarioError::Interrupted`] if `on_progress` asked to stop; [`ScenarioError::Resources`]
/// if the run holds more memory than the guard allows ([`crate::memory`]);
/// [`ScenarioError::Internal`] if a conservation law failed.
pub fn run(
    spec: &Spec,
    options: RunOptions,
    on_progress: &mut dyn FnMut(&RunProgress) -> bool,
) -> Result<RunOutcome, ScenarioError> {
    let started = Instant::now();
    let guard = MemoryGuard::from_env()?;
    let mut built = build(spec, &options)?;
    let mut captures = Captures::start(&mut built.sim, &spec.output.pcap, &built.links)?;
    built
        .sim
        .set_stop_on_finish(built.generators.creates_flows());
    if !spec.output.pcap.is_empty() {
        for (f, &(flow, _, _)) in spec.flows.iter().zip(&built.flows) {
            number_tcp_flow(&captures.tcp_flows, flow, f);
        }
        built.generators.tcp_flows = Some(std::sync::Arc::clone(&captures.tcp_flows));
    }
    let horizon_seconds = spec.run.duration.0.as_secs_f64();
    let chunk = options.chunk_events.max(1);
    // Events at the last progress report: web arrivals return from the engine between
    // reports, which come every `chunk` events as without generators.
    let mut reported = 0;
    loop {
        let p = if built.generators.creates_flows() {
            let next = built.generators.next_arrival();
            let budget = chunk
                .saturating_sub(built.sim.events_processed() - reported)
                .max(1);
            let p = built.sim.run_until(SimTime(next), budget);
            match p.stopped {
                // Retired at the instant they finish, whatever the chunk size.
                Stopped::Finished => {
                    built
                        .generators
                        .retire_finished(spec, &mut built.sim, &options);
                }
                Stopped::Limit => built.generators.spawn_due(spec, &mut built.sim, &options)?,
                Stopped::Budget | Stopped::Horizon | Stopped::Series => {}
            }
            p
        } else {
            built.sim.run_until_horizon(chunk)
        };
        // Report (and check memory) every chunk of events, and whenever the series have grown
        // by a chunk of values, which samples can do in few events.
        if !p.done && p.events - reported < chunk && p.stopped != Stopped::Series {
            continue;
        }
        reported = p.events;
        let progress = RunProgress {
            sim_seconds: SimTime(p.now).as_secs_f64(),
            horizon_seconds,
            events: p.events,
        };
        guard.check(progress.sim_seconds)?;
        if !on_progress(&progress) && !p.done {
            return Err(ScenarioError::Interrupted {
                at_seconds: progress.sim_seconds,
            });
        }
        if p.done {
            break;
        }
    }
    built.generators.collect_live(&mut built.sim);
    captures.finish(&mut built.sim)?;
    built
        .sim
        .check_conservation()
        .map_err(|e| ScenarioError::Internal(e.to_string()))?;
    let wall_seconds = started.elapsed().as_secs_f64();
    let canonical_spec = spec.canonical_json();
    let finished = Finished {
        sim: &built.sim,
        flows: &built.flows,
        paths: &built.paths,
        node_names: &built.node_names,
        links: &built.links,
        ticp: protocols::ticp::summaries(spec, &built.sim, &built.ticp),
        tcpm: protocols::tcpm::summaries(spec, &built.sim, &built.node_names, &built.tcpm),
        traffic: built.generators.summaries(spec, &built.sim),
    };
    let summary = summarize(
        spec,
        finished,
        hash_canonical(&canonical_spec),
        wall_seconds,
    );
    let mut entity_names = built.sim.entity_names().to_vec();
    let var_names = TraceBuf::var_names();
    let mut trace = built.sim.take_trace();
    // Generated flows are in the series only with `per_flow_series = true`, and then per flow.
    if !spec
        .output
        .per_flow_series
        .unwrap_or(spec.flows.len() <= PER_FLOW_SERIES_MAX_FLOWS)
    {
        let flow_names: HashSet<&str> = spec.flows.iter().map(|f| f.name.as_str()).collect();
        trace = aggregate_flow_series(&flow_names, trace, &mut entity_names, &var_names);
    }
    let ticp_table = protocols::ticp::table(spec, &built.sim, &built.ticp);
    let generated = built
        .generators
        .flow_summaries(spec, &built.sim, &built.node_names);
    let generated_names: Vec<String> = built
        .generators
        .flows
        .iter()
        .map(|g| g.name(spec))
        .collect();
    let mut rows: Vec<FlowRow> = spec
        .flows
        .iter()
        .map(|f| FlowRow {
            name: &f.name,
            flow: &summary.flows[&f.name],
            generator: "",
            start_s: f.start.0.as_secs_f64(),
            size_bytes: f.size.map(|s| s.0 .0 as f64),
            slowdown: None,
        })
        .collect();
    rows.extend(
        built
            .generators
            .flows
            .iter()
            .zip(&generated)
            .zip(&generated_names)
            .map(|((g, s), name)| FlowRow {
                name,
                flow: s,
                generator: &spec.traffic[g.generator].name,
                start_s: g.start_ns as f64 / 1e9,
                size_bytes: g.size.map(|s| s as f64),
                slowdown: g.slowdown(),
            }),
    );
    let flow_table = flow_table(&rows);
    let link_names: Vec<String> = built.links.iter().map(|(n, _)| n.clone()).collect();
    Ok(RunOutcome {
        results: RunResults {
            ticp_table,
            flow_table,
            captures,
            link_table: link_table(&link_names, &summary.links),
            canonical_spec,
            summary,
            trace,
            entity_names,
            var_names,
        },
        built,
    })
}

/// CHOICE: runs of more flows than this record their flow series aggregated over the flows
/// unless `output.per_flow_series = true` (per-flow series of many flows are large and
/// unreadable).
pub const PER_FLOW_SERIES_MAX_FLOWS: usize = 64;

/// The entities of the aggregate flow series, in the order they are recorded. Their names
/// hold a space, which no flow or node name may, so they never clash with a flow.
pub const AGGREGATE_ENTITIES: [&str; 6] = [
    "flows (sum)",
    "flows (min)",
    "flows (p10)",
    "flows (median)",
    "flows (p90)",
    "flows (max)",
];

/// Replace the sampled series of the spec's flows by their sum and percentiles over the
/// flows at each sampling instant (entities [`AGGREGATE_ENTITIES`]); keep change traces as
/// they are, and the queue series only of link directions that ever held a packet when
/// sampled.
fn aggregate_flow_series(
    flow_names: &HashSet<&str>,
    trace: TraceBuf,
    entity_names: &mut Vec<String>,
    var_names: &[&str],
) -> TraceBuf {
    let is_flow: Vec<bool> = entity_names
        .iter()
        .map(|n| flow_names.contains(n.as_str()))
        .collect();
    let var = |name: &str| var_names.iter().position(|v| *v == name).map(|i| i as u16);
    let (queue, queue_bytes) = (var("queue"), var("queue_bytes"));
    let first_change = var_names
        .iter()
        .position(|v| v.ends_with(":change"))
        .map_or(u16::MAX, |i| i as u16);
    let is_queue = |v: u16| Some(v) == queue || Some(v) == queue_bytes;
    let mut busy = vec![false; entity_names.len()];
    for i in 0..trace.len() {
        if Some(trace.var[i]) == queue && trace.value[i] > 0.0 {
            busy[trace.entity[i] as usize] = true;
        }
    }
    let base = u32::try_from(entity_names.len()).expect("entity count fits u32");
    entity_names.extend(AGGREGATE_ENTITIES.iter().map(|s| (*s).to_string()));
    let mut out = TraceBuf::default();
    let mut by_var: BTreeMap<u16, Vec<f64>> = BTreeMap::new();
    let flush = |out: &mut TraceBuf, by_var: &mut BTreeMap<u16, Vec<f64>>, t: u64| {
        for (&v, values) in by_var.iter() {
            let Some(p) = percentiles(values) else {
                continue;
            };
            let stats = [values.iter().sum(), p.min, p.p10, p.median, p.p90, p.max];
            for (k, x) in stats.into_iter().enumerate() {
                out.push(t, base + k as u32, v, x);
            }
        }
        by_var.clear();
    };
    let mut now = trace.time_ns.first().copied().unwrap_or(0);
    for i in 0..trace.len() {
        let (t, e, v, x) = (
            trace.time_ns[i],
            trace.entity[i],
            trace.var[i],
            trace.value[i],
        );
        if t != now {
            flush(&mut out, &mut by_var, now);
            now = t;
        }
        if is_flow[e as usize] && v < first_change {
            by_var.entry(v).or_default().push(x);
        } else if !is_queue(v) || busy[e as usize] {
            out.push(t, e, v, x);
        }
    }
    flush(&mut out, &mut by_var, now);
    out
}
