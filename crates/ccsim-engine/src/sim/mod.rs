//! The simulation: nodes, links, agents, the event loop and the counters.
//!
//! Packets live in a pool (`Vec` plus a free list) and events carry pool or component
//! indices, so the steady state allocates nothing. A packet at a node that is not its
//! destination is handed straight to the next-hop link (a function call, no event); only
//! serialisation, propagation, timers and bookkeeping create events.
//!
//!
//! The simulation is split into rooms around the event loop of this file, each an `impl`
//! of [`Sim`] or of its `Core` (everything but the agents, so an agent can be borrowed
//! beside its context):
//! * `datapath`: the packet pool, injection, forwarding, the links' queues, transmission
//!   ends and arrivals, and drops;
//! * `agents`: the agent registry, timers and the context an agent sees (`Ctx`);
//! * `multicast`: groups, their trees and relays;
//! * `topology`: link and node state changes, routing tables and rerouting;
//! * `sampling`: the time series and the warm-up snapshot;
//! * `conservation`: the conservation check.
//!
//! The event queue ([`crate::queue::EventQueue`]) is behind `push`, `pop` and `peek_time`.
//!
//! # Order of simultaneous events
//! CHOICE: every event, state changes included, runs in (time, insertion) order: a change scheduled
//! before the run precedes whatever the run itself schedules for the same instant (arrivals,
//! transmission ends, timers), and follows or precedes other events scheduled before the run
//! (starts, stops, other changes) in the order they were scheduled. Changes scheduled for
//! one instant back to back are applied together: the tables are recomputed once, after
//! the last of them.
//!

mod agents;
mod conservation;
mod datapath;
mod multicast;
mod sampling;
mod topology;

pub use topology::{Reroute, TopologyChange, TopologyEvent};

use self::agents::{AgentCtx, TimerState};
use self::multicast::Group;
use self::sampling::FinalSample;
use crate::link::{DropReason, Link, LinkConfig, LinkId, LinkStats};
use crate::queue::{Event, EventQueue, Scheduler};
use crate::routing::{Multipath, RouteMetric, Routes};
use crate::trace::{SeriesConfig, TraceBuf};
use ccsim_core::{Addr, Agent, AgentStats, FlowId, Header, Packet, RngStream, SimTime, TimerSlot};
use std::collections::{BTreeMap, VecDeque};

/// Index of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

/// Always-on counters of one flow. Data packets only, except the `control_*` fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowStats {
    /// Data packets handed to the network by the flow's agents.
    pub sent_packets: u64,
    /// Their bytes (headers included).
    pub sent_bytes: u64,
    /// Data packets that were retransmissions.
    pub retransmitted_packets: u64,
    /// Extra data packets made by multicast replication: a packet forwarded as k copies
    /// adds k - 1. Conservation: sent + replicated = delivered + dropped + in flight.
    pub replicated_packets: u64,
    /// Data packets that reached their destination node.
    pub delivered_packets: u64,
    /// Their bytes.
    pub delivered_bytes: u64,
    /// Data packets dropped anywhere (including multicast copies with no member left to
    /// reach).
    pub dropped_packets: u64,
    /// Sum of the one-way delays of delivered data packets, nanoseconds.
    pub delivered_delay_ns: u128,
    /// Control packets (acknowledgements and the like) sent.
    pub control_sent: u64,
    /// Control packets dropped.
    pub control_dropped: u64,
    /// The measurement window's counters: data packets sent at or after the warm-up's end
    /// (every packet without a warm-up), counted when they are delivered, dropped or
    /// replicated, whenever that happens. A packet belongs to the window of the instant it
    /// was sent, on every side of the balance, so that over the window sent + replicated =
    /// delivered + dropped + still in flight, as for the whole run.
    pub window: WindowCounts,
}

/// A flow's data packets sent in the measurement window, by what became of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WindowCounts {
    /// Delivered to their destination node.
    pub delivered_packets: u64,
    /// Their bytes.
    pub delivered_bytes: u64,
    /// Sum of their one-way delays, nanoseconds.
    pub delivered_delay_ns: u128,
    /// Dropped anywhere.
    pub dropped_packets: u64,
    /// Extra copies made of them by multicast replication.
    pub replicated_packets: u64,
}

/// Counters taken at the end of the warm-up; summaries subtract them.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    /// When the snapshot was taken, ns.
    pub at: u64,
    /// Per-flow counters.
    pub flows: Vec<FlowStats>,
    /// Per-link counters (queue integral accounted up to `at`).
    pub links: Vec<LinkStats>,
    /// Per-agent counters.
    pub agents: Vec<AgentStats>,
    /// Per-link DualPI2 counters (`None` for other links).
    pub dualpi2: Vec<Option<crate::dualpi2::DualPi2Stats>>,
}

/// How many recorded series values make a run call return ([`Stopped::Series`]).
pub const SERIES_YIELD_VALUES: usize = 1 << 21;

/// Where a run stands after [`Sim::run_until`] or [`Sim::run_until_horizon`] returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Simulated time reached, ns.
    pub now: u64,
    /// Events processed so far.
    pub events: u64,
    /// Whether the horizon was reached.
    pub done: bool,
    /// Why the call returned.
    pub stopped: Stopped,
}

/// Why a run call returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The event budget of the call was spent; events before the limit remain.
    Budget,
    /// Every event before the limit has run; `now` is the limit.
    Limit,
    /// Every event up to the horizon has run; the run is over.
    Horizon,
    /// An agent called `Ctx::finish` in the last event ([`Sim::set_stop_on_finish`]).
    Finished,
    /// The last event, a sample, brought the recorded series [`SERIES_YIELD_VALUES`] values
    /// past their length at the previous such return: a chance for the caller to look at
    /// its memory, which samples can grow much faster than events.
    Series,
}

/// Counters of one node: drops of packets that were at the node rather than on a link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeStats {
    /// Drops, indexed by [`DropReason`] order (`node_down`, `no_route`, `no_agent`).
    pub drops: [u64; DropReason::COUNT],
}

/// Errors found while building or checking a simulation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// A conservation law failed at the end of a run (an engine bug).
    Conservation(String),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Conservation(m) => write!(f, "conservation violated: {m}"),
        }
    }
}

impl std::error::Error for SimError {}

/// The bit of a flow's packet count that says it is closed (`Core::flow_packets`).
const FLOW_CLOSING: u32 = 1 << 31;

/// Everything but the agents, so an agent can be borrowed beside its context.
struct Core<H> {
    now: u64,
    horizon: u64,
    seed: u64,
    events: EventQueue,
    processed: u64,
    pool: Vec<Packet<H>>,
    free: Vec<u32>,
    node_names: Vec<String>,
    links: Vec<Link<H>>,
    /// Simplex links built so far per (from, to), to name parallel links' random streams.
    link_count: BTreeMap<(u32, u32), u32>,
    incoming: Vec<Vec<u32>>,
    outgoing: Vec<Vec<u32>>,
    node_up: Vec<bool>,
    node_stats: Vec<NodeStats>,
    routes: Routes,
    metric: RouteMetric,
    multipath: Multipath,
    /// The ECMP hash's salt, drawn from the run's seed.
    ecmp_salt: u64,
    /// Spraying's draws.
    spray_rng: RngStream,
    /// Equal-cost path counts by (from, to), for the tables in force.
    path_counts: BTreeMap<(u32, u32), u64>,
    reroute: Reroute,
    routes_built: bool,
    /// Per node: whether the tables hold routes toward it.
    route_dst: Vec<bool>,
    /// The links the tables in force were computed over (`None`: all of them).
    route_mask: Option<Vec<bool>>,
    topology: Vec<TopologyEvent>,
    /// Per agent id: its slot, or `RETIRED`.
    agent_slot: Vec<u32>,
    /// Slots free for the next agent.
    free_slots: Vec<u32>,
    /// Agents not retired.
    live: usize,
    /// Per slot: whether an agent lives there.
    slot_live: Vec<bool>,
    /// Per slot: the agent's address.
    agent_addr: Vec<Addr>,
    /// Per slot: the agent's flow.
    agent_flow: Vec<u32>,
    agent_entity: Vec<u32>,
    timers: Vec<[TimerState; TimerSlot::MAX]>,
    rngs: Vec<RngStream>,
    trace_mask: Vec<u32>,
    /// The change-trace mask given to agents added after `configure_run`.
    change_mask: u32,
    /// Agents that called `Ctx::finish`, not yet taken.
    finished: Vec<Addr>,
    /// Whether a run call returns as soon as an agent calls `Ctx::finish`.
    stop_on_finish: bool,
    /// The run call returns after the current event, for `yield_reason`: an agent finished
    /// (with `stop_on_finish`), or the series grew by [`SERIES_YIELD_VALUES`].
    yield_pending: bool,
    yield_reason: Stopped,
    /// The series' length when the run last yielded for them.
    series_mark: usize,
    /// Flows retired since the last sample, their last values.
    final_samples: Vec<FinalSample>,
    /// Scratch space of `sample`, kept to spare an allocation per sample.
    sample_buffer: Vec<FinalSample>,
    /// Per flow: whether its series and its agents' variables are recorded.
    flow_sampled: Vec<bool>,
    flows: Vec<FlowStats>,
    /// Per flow: its packets in the pool (data and control) in the low bits, kept by `alloc`
    /// and `release`, and [`FLOW_CLOSING`] once [`Sim::close_flow`] closed it (its slot to be
    /// reused when its last packet leaves). One word, so `release` reads one place.
    flow_packets: Vec<u32>,
    /// Closed flows whose last packet has left: their slots, free for new unsampled flows.
    free_flows: Vec<u32>,
    /// Closed flows whose last packet has left since [`Sim::take_closed_flows`], with their
    /// final counters.
    closed_flows: Vec<(FlowId, FlowStats)>,
    /// Per flow: live agents.
    flow_agents: Vec<u32>,
    /// Flows sampled in series, ascending: all but those whose agents have all retired.
    active_flows: Vec<u32>,
    flow_entity: Vec<u32>,
    flow_receiver: Vec<Option<u32>>,
    local: VecDeque<u32>,
    groups: BTreeMap<u32, Group>,
    series: SeriesConfig,
    trace: TraceBuf,
    entity_names: Vec<String>,
    link_entity: Vec<u32>,
    last_sample_bytes: Vec<u64>,
    last_sample_sent: Vec<u64>,
    last_sample_at: u64,
    /// Per flow: (delivered packets, delay sum) at the previous sample.
    last_sample_delay: Vec<(u64, u128)>,
    warmup_at: u64,
    snapshot: Option<Snapshot>,
}

/// A simulation over header type `H` and agent type `A`.
pub struct Sim<H, A> {
    agents: Vec<A>,
    core: Core<H>,
}

impl<H: Header, A: Agent<H>> Sim<H, A> {
    /// An empty simulation whose random streams derive from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Sim {
            agents: Vec::new(),
            core: Core {
                now: 0,
                horizon: u64::MAX,
                seed,
                events: EventQueue::default(),
                processed: 0,
                pool: Vec::new(),
                free: Vec::new(),
                node_names: Vec::new(),
                links: Vec::new(),
                link_count: BTreeMap::new(),
                incoming: Vec::new(),
                outgoing: Vec::new(),
                node_up: Vec::new(),
                node_stats: Vec::new(),
                routes: Routes::default(),
                metric: RouteMetric::default(),
                multipath: Multipath::None,
                ecmp_salt: RngStream::new(seed, "routing/ecmp").next_u64(),
                spray_rng: RngStream::new(seed, "routing/spray"),
                path_counts: BTreeMap::new(),
                reroute: Reroute::default(),
                routes_built: false,
                route_dst: Vec::new(),
                route_mask: None,
                topology: Vec::new(),
                agent_slot: Vec::new(),
                free_slots: Vec::new(),
                live: 0,
                slot_live: Vec::new(),
                agent_addr: Vec::new(),
                agent_flow: Vec::new(),
                agent_entity: Vec::new(),
                timers: Vec::new(),
                rngs: Vec::new(),
                trace_mask: Vec::new(),
                change_mask: 0,
                finished: Vec::new(),
                stop_on_finish: false,
                yield_pending: false,
                yield_reason: Stopped::Finished,
                series_mark: 0,
                final_samples: Vec::new(),
                sample_buffer: Vec::new(),
                flow_sampled: Vec::new(),
                flows: Vec::new(),
                flow_packets: Vec::new(),
                free_flows: Vec::new(),
                closed_flows: Vec::new(),
                flow_agents: Vec::new(),
                active_flows: Vec::new(),
                flow_entity: Vec::new(),
                flow_receiver: Vec::new(),
                local: VecDeque::new(),
                groups: BTreeMap::new(),
                series: SeriesConfig::default(),
                trace: TraceBuf::default(),
                entity_names: Vec::new(),
                link_entity: Vec::new(),
                last_sample_bytes: Vec::new(),
                last_sample_sent: Vec::new(),
                last_sample_at: 0,
                last_sample_delay: Vec::new(),
                warmup_at: 0,
                snapshot: None,
            },
        }
    }

    /// Add a node.
    pub fn add_node(&mut self, name: &str) -> NodeId {
        self.core.node_names.push(name.to_string());
        self.core.incoming.push(Vec::new());
        self.core.outgoing.push(Vec::new());
        self.core.node_up.push(true);
        self.core.node_stats.push(NodeStats::default());
        self.core.route_dst.push(false);
        NodeId(u32::try_from(self.core.node_names.len() - 1).expect("node count fits u32"))
    }

    /// Add a simplex link `from -> to`.
    pub fn add_link(&mut self, from: NodeId, to: NodeId, config: LinkConfig) -> LinkId {
        let name = format!(
            "{}->{}",
            self.core.node_names[from.0 as usize], self.core.node_names[to.0 as usize]
        );
        // Parallel links between the same nodes get distinct streams ("a->b", "a->b#2", ...)
        // without renaming the first, so adding a link never changes another's draws.
        let built = self.core.link_count.entry((from.0, to.0)).or_insert(0);
        let twins = *built;
        *built += 1;
        let stream = if twins == 0 {
            name.clone()
        } else {
            format!("{name}#{}", twins + 1)
        };
        let id = u32::try_from(self.core.links.len()).expect("link count fits u32");
        self.core
            .links
            .push(Link::new(from.0, to.0, config, self.core.seed, &stream));
        self.core.incoming[to.0 as usize].push(id);
        self.core.outgoing[from.0 as usize].push(id);
        if let Some(mask) = &mut self.core.route_mask {
            mask.push(true);
        }
        let entity = self.core.entity(name);
        self.core.link_entity.push(entity);
        LinkId(id)
    }

    /// Register a flow (for counters and series) called `name`; before or during the run.
    /// CHOICE: a flow's counters stay for the whole run, retired or not (a row of about 200
    /// bytes with its name, so results can list every flow); it is sampled in series until
    /// every agent on it has been retired.
    pub fn add_flow(&mut self, name: &str) -> FlowId {
        self.register_flow(name, true)
    }

    /// Register a flow that keeps its counters but is left out of every time series (its
    /// flow series and its agents' sampled and traced variables): for the many short flows of
    /// traffic generators, whose series would grow with the run.
    pub fn add_flow_unsampled(&mut self, name: &str) -> FlowId {
        self.register_flow(name, false)
    }

    fn register_flow(&mut self, name: &str, sampled: bool) -> FlowId {
        if !sampled {
            if let Some(id) = self.core.free_flows.pop() {
                let core = &mut self.core;
                let f = id as usize;
                core.flow_packets[f] = 0;
                let entity = core.flow_entity[f] as usize;
                name.clone_into(&mut core.entity_names[entity]);
                return FlowId(id);
            }
        }
        let id = u32::try_from(self.core.flows.len()).expect("flow count fits u32");
        self.core.flow_packets.push(0);
        self.core.flows.push(FlowStats::default());
        self.core.flow_agents.push(0);
        self.core.flow_sampled.push(sampled);
        if sampled {
            self.core.active_flows.push(id);
        }
        self.core.flow_receiver.push(None);
        self.core.last_sample_bytes.push(0);
        self.core.last_sample_sent.push(0);
        self.core.last_sample_delay.push((0, 0));
        let entity = self.core.entity(name.to_string());
        self.core.flow_entity.push(entity);
        FlowId(id)
    }

    /// Close an unsampled flow whose agents have all been retired: once its last packet has
    /// left the network its final counters go to [`Sim::take_closed_flows`] and its slot (id,
    /// counters, name) is reused by a later [`Sim::add_flow_unsampled`], so that a run's memory
    /// follows the flows alive, not all those ever made. Returns false, doing nothing, for a
    /// sampled flow or one with a live agent.
    /// CHOICE: a flow is closed only when nothing of it is in the network, so that no packet
    /// of a closed flow is ever counted on the flow that reuses its slot.
    pub fn close_flow(&mut self, flow: FlowId) -> bool {
        let core = &mut self.core;
        let f = flow.0 as usize;
        if core.flow_sampled[f]
            || core.flow_agents[f] > 0
            || core.flow_packets[f] & FLOW_CLOSING != 0
        {
            return false;
        }
        core.flow_packets[f] |= FLOW_CLOSING;
        if core.flow_packets[f] == FLOW_CLOSING {
            core.finish_closing(flow.0);
        }
        true
    }

    /// The flows closed since the last call whose last packet has left the network, with
    /// their final counters (their slots may already serve new flows).
    pub fn take_closed_flows(&mut self) -> Vec<(FlowId, FlowStats)> {
        std::mem::take(&mut self.core.closed_flows)
    }

    /// Declare the series to record, the warm-up end and the horizon of the run.
    pub fn configure_run(&mut self, horizon: SimTime, warmup: SimTime, series: SeriesConfig) {
        self.core.horizon = horizon.0;
        self.core.warmup_at = warmup.0;
        if warmup.0 > 0 {
            self.core.events.push(warmup.0, Event::Warmup);
        }
        if series.interval.0 > 0 && series.samples_anything() && horizon.0 > 0 {
            self.core
                .events
                .push(series.interval.0.min(horizon.0), Event::Sample);
        }
        let mask = series.change_vars.iter().fold(0, |m, v| m | v.bit());
        for (slot, m) in self.core.trace_mask.iter_mut().enumerate() {
            let sampled = self.core.flow_sampled[self.core.agent_flow[slot] as usize];
            *m = if self.core.slot_live[slot] && sampled {
                mask
            } else {
                0
            };
        }
        self.core.change_mask = mask;
        self.core.series = series;
    }

    /// The time of the earliest pending event, if any: when a real-time driver must next
    /// run the simulation.
    #[must_use]
    pub fn next_event_time(&self) -> Option<SimTime> {
        self.core.events.peek_time().map(SimTime)
    }

    /// Process events up to the horizon, or until `max_events` more have been processed.
    pub fn run_until_horizon(&mut self, max_events: u64) -> Progress {
        self.run_events(None, max_events)
    }

    /// Process the events before `limit` (time < `limit`), or until `max_events` more have
    /// been processed, or up to the horizon if it comes first (`limit` > horizon).
    ///
    /// CHOICE: the limit is exclusive. On return for the limit, `now()` is `limit` and the
    /// events at `limit` itself have not run: the caller can add flows and agents and
    /// schedule their starts at `limit`, and these run after the events already scheduled
    /// for that instant, as if they had been scheduled before the run reached it.
    pub fn run_until(&mut self, limit: SimTime, max_events: u64) -> Progress {
        self.run_events(Some(limit.0), max_events)
    }

    fn run_events(&mut self, limit: Option<u64>, max_events: u64) -> Progress {
        let horizon = self.core.horizon;
        // Stop before `limit` when it comes no later than the horizon; else at the horizon.
        let before = limit.filter(|&t| t <= horizon);
        let budget_end = self.core.processed.saturating_add(max_events);
        // The last time that may run: just before `limit`, or the horizon.
        let last_time = match before {
            Some(end) => end.checked_sub(1),
            None => Some(horizon),
        };
        if let Some(last_time) = last_time {
            loop {
                if self.core.processed >= budget_end {
                    if self.core.events.peek_time().is_some_and(|t| t <= last_time) {
                        return self.progress(Stopped::Budget);
                    }
                    break;
                }
                let Some((time, event)) = self.core.events.pop_until(last_time) else {
                    break;
                };
                self.core.now = time;
                self.dispatch(event);
                if self.core.yield_pending {
                    return self.yielded();
                }
            }
        }
        if let Some(end) = before {
            self.core.now = self.core.now.max(end);
            self.progress(Stopped::Limit)
        } else {
            self.finish();
            self.progress(Stopped::Horizon)
        }
    }

    /// The return of a run call for `yield_reason` (out of line: the loop above stays as
    /// small as without it).
    #[cold]
    #[inline(never)]
    fn yielded(&mut self) -> Progress {
        self.core.yield_pending = false;
        self.progress(self.core.yield_reason)
    }

    fn progress(&self, stopped: Stopped) -> Progress {
        Progress {
            now: self.core.now,
            events: self.core.processed,
            done: stopped == Stopped::Horizon,
            stopped,
        }
    }

    fn finish(&mut self) {
        let horizon = self.core.horizon;
        if horizon != u64::MAX {
            self.core.now = horizon;
        }
        let now = self.core.now;
        for l in &mut self.core.links {
            l.account_queue(now);
        }
    }

    fn dispatch(&mut self, event: Event) {
        match event {
            Event::TxDone { link, epoch } => self.core.tx_done(link, epoch),
            Event::Arrive { link, epoch } => {
                if let Some((idx, node)) = self.core.arrive(link, epoch) {
                    self.at_node(idx, node);
                }
            }
            Event::LocalDeliver(idx) => {
                self.core.processed += 1;
                // Local deliveries are scheduled at `now` in send order, so they pop in the
                // order of the `local` list that the conservation check scans.
                let front = self.core.local.pop_front();
                debug_assert_eq!(front, Some(idx), "local deliveries pop in order");
                let node = self.core.pool[idx as usize].dst.node;
                if self.core.node_up[node as usize] {
                    self.deliver(idx);
                } else {
                    self.core.drop_at_node(node, idx, DropReason::NodeDown);
                }
            }
            Event::LinkState { link, up } => {
                self.core.processed += 1;
                self.core.set_link_state(link, up);
            }
            Event::NodeState { node, up } => {
                self.core.processed += 1;
                self.core.set_node_state(node, up);
            }
            Event::Reroute => {
                self.core.processed += 1;
                self.core.reroute_now();
            }
            Event::Timer {
                agent,
                slot,
                generation,
            } => self.timer(agent, slot, generation),
            Event::Start(id) => self.start_or_stop(id, true),
            Event::Stop(id) => self.start_or_stop(id, false),
            Event::Sample => {
                self.core.processed += 1;
                self.sample();
                if self.core.trace.len() - self.core.series_mark >= SERIES_YIELD_VALUES {
                    self.core.series_mark = self.core.trace.len();
                    self.core.yield_pending = true;
                    self.core.yield_reason = Stopped::Series;
                }
            }
            Event::Warmup => {
                self.core.processed += 1;
                let now = self.core.now;
                for l in &mut self.core.links {
                    l.account_queue(now);
                }
                self.core.snapshot = Some(Snapshot {
                    at: now,
                    flows: self.core.flows.clone(),
                    links: self.core.links.iter().map(|l| l.stats_at(now)).collect(),
                    agents: self.agents.iter().map(Agent::stats).collect(),
                    dualpi2: self
                        .core
                        .links
                        .iter()
                        .map(|l| l.dual.as_ref().map(|d| d.dual.stats.clone()))
                        .collect(),
                });
            }
        }
    }

    fn at_node(&mut self, idx: u32, node: u32) {
        let dst = self.core.pool[idx as usize].dst.node;
        if dst == node {
            self.deliver(idx);
        } else {
            self.core.forward(idx, node);
        }
    }

    fn deliver(&mut self, idx: u32) {
        let dst = self.core.pool[idx as usize].dst;
        let Some(a) = self.core.live_slot(dst.agent) else {
            return self.core.drop_at_node(dst.node, idx, DropReason::NoAgent);
        };
        let pkt = self.core.pool[idx as usize].clone();
        self.core.release(idx);
        if pkt.header.is_data() {
            let now = self.core.now;
            let in_window = pkt.sent_at.0 >= self.core.warmup_at;
            let f = &mut self.core.flows[pkt.flow.0 as usize];
            let delay = u128::from(now - pkt.sent_at.0);
            f.delivered_packets += 1;
            f.delivered_bytes += u64::from(pkt.size);
            f.delivered_delay_ns += delay;
            if in_window {
                f.window.delivered_packets += 1;
                f.window.delivered_bytes += u64::from(pkt.size);
                f.window.delivered_delay_ns += delay;
            }
        }
        let mut ctx = AgentCtx {
            core: &mut self.core,
            agent: a,
        };
        self.agents[a as usize].on_packet(&pkt, &mut ctx);
    }

    /// Current simulated time.
    #[must_use]
    pub fn now(&self) -> SimTime {
        SimTime(self.core.now)
    }

    /// Events processed so far.
    #[must_use]
    pub fn events_processed(&self) -> u64 {
        self.core.processed
    }

    /// Packet buffers the pool has made so far (in use or free): the packet memory in use.
    #[must_use]
    pub fn packets_allocated(&self) -> usize {
        self.core.pool.len()
    }

    /// Per-flow counters, by flow index.
    #[must_use]
    pub fn flow_stats(&self) -> &[FlowStats] {
        &self.core.flows
    }

    /// Per-link counters, by link index, as they stand at the ends of the transmissions so
    /// far ([`Link::stats_settled`](crate::Link::stats_settled)).
    #[must_use]
    pub fn link_stats(&self, link: LinkId) -> LinkStats {
        self.core.links[link.0 as usize].stats_settled(self.core.now)
    }

    /// `link`'s counters as of now, the occupancy integral and the transmission in progress
    /// accounted up to this instant (what the warm-up snapshot holds for its instant).
    #[must_use]
    pub fn link_stats_now(&self, link: LinkId) -> LinkStats {
        self.core.links[link.0 as usize].stats_at(self.core.now)
    }

    /// Packets waiting in `link`'s queue now.
    #[must_use]
    pub fn queue_len(&self, link: LinkId) -> usize {
        self.core.links[link.0 as usize].waiting()
    }

    /// `link`'s DualPI2 state (its probability, queues and counters); `None` unless the
    /// link runs DualPI2.
    #[must_use]
    pub fn dualpi2(&self, link: LinkId) -> Option<&crate::dualpi2::DualPi2> {
        self.core.links[link.0 as usize]
            .dual
            .as_deref()
            .map(|p| &p.dual)
    }

    /// The RED average queue length of `link` (packets, or bytes in byte mode) as of its last
    /// arrival; `None` unless the link runs RED.
    #[must_use]
    pub fn red_average(&self, link: LinkId) -> Option<f64> {
        self.core.links[link.0 as usize].red_average()
    }

    /// A link's configuration.
    #[must_use]
    pub fn link_config(&self, link: LinkId) -> &LinkConfig {
        &self.core.links[link.0 as usize].config
    }

    /// The number of simplex links (their ids are 0 to this, less one).
    #[must_use]
    pub fn link_count(&self) -> usize {
        self.core.links.len()
    }

    /// A simplex link's end nodes, (from, to).
    #[must_use]
    pub fn link_ends(&self, link: LinkId) -> (NodeId, NodeId) {
        let l = &self.core.links[link.0 as usize];
        (NodeId(l.from), NodeId(l.to))
    }

    /// The recorded series.
    #[must_use]
    pub fn trace(&self) -> &TraceBuf {
        &self.core.trace
    }

    /// Take the recorded series out of the simulation.
    pub fn take_trace(&mut self) -> TraceBuf {
        std::mem::take(&mut self.core.trace)
    }

    /// Entity names, indexed by the trace's entity column.
    #[must_use]
    pub fn entity_names(&self) -> &[String] {
        &self.core.entity_names
    }

    /// Warm-up end, ns.
    #[must_use]
    pub fn warmup_at(&self) -> u64 {
        self.core.warmup_at
    }
}

impl<H: Header> Core<H> {
    /// Hand a closed flow's final counters out and free its slot.
    #[cold]
    #[inline(never)]
    fn finish_closing(&mut self, id: u32) {
        let f = id as usize;
        let stats = std::mem::take(&mut self.flows[f]);
        self.closed_flows.push((FlowId(id), stats));
        self.flow_receiver[f] = None;
        self.last_sample_bytes[f] = 0;
        self.last_sample_sent[f] = 0;
        self.last_sample_delay[f] = (0, 0);
        self.free_flows.push(id);
    }

    fn entity(&mut self, name: String) -> u32 {
        self.entity_names.push(name);
        u32::try_from(self.entity_names.len() - 1).expect("entity count fits u32")
    }
}
