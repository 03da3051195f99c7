//! The simulation: nodes, links, agents, the event loop and the counters.
//!
//! Packets live in a pool (`Vec` plus a free list) and events carry pool or component
//! indices, so the steady state allocates nothing. A packet at a node that is not its
//! destination is handed straight to the next-hop link (a function call, no event); only
//! serialisation, propagation, timers and bookkeeping create events.
//!
//! # Failures
//! A simplex link carries traffic while its own state and the states of both its end nodes
//! are up ([`Sim::schedule_link_state`], [`Sim::schedule_node_state`]). When it stops, it
//! loses everything it holds (waiting, in service and propagating), counted as drops with
//! reason `link_down`, or `node_down` when an end node went down; while stopped, packets
//! offered to it are dropped with the same reason, and it restarts empty and idle.
//! CHOICE: a node going down stops every link into and out of it (ns-2's
//! `rtmodel-at t down $n`), so a packet on its way to a down node is lost on the link that
//! leads there, counted on that link, at the instant the node goes down or when it is offered.
//! CHOICE: the agents of a down node keep running: their timers fire and they may send, but
//! what they send is lost at their first hop (counted `node_down` on that link, or on the node
//! in [`NodeStats`] when the tables in force give no next hop) and nothing reaches them: a
//! host whose interfaces are dead but whose state survives, as ns-2 models a down node.
//! Local deliveries to an agent on a down node are dropped `node_down`, counted on the node.
//!
//! # Rerouting
//! [`Reroute`] chooses when the tables follow the topology. Static tables never change;
//! instant ones are recomputed over the links that are up at each change; delayed ones at
//! the change plus a convergence delay. Multicast trees are rebuilt from the new tables.
//!
//! # Order of simultaneous events
//! CHOICE: every event, state changes included, runs in (time, insertion) order: a change scheduled
//! before the run precedes whatever the run itself schedules for the same instant (arrivals,
//! transmission ends, timers), and follows or precedes other events scheduled before the run
//! (starts, stops, other changes) in the order they were scheduled. Changes scheduled for
//! one instant back to back are applied together: the tables are recomputed once, after
//! the last of them.
//!
//! # Agents created and retired during the run
//! An agent id (`Addr::agent`) is never reused; the storage behind it (its slot: the agent
//! value, timers, random stream) is, once the agent is retired ([`Sim::retire_agent`]), so
//! memory follows the number of live agents. Ids equal slots until the first retirement.

use std::collections::{BTreeMap, VecDeque};

use ccsim_core::{
    Addr, Agent, AgentStats, Ctx, Dur, Ecn, FlowId, Header, Packet, RngStream, SimTime, TimerSlot,
    VarId,
};

use crate::link::{DropReason, DropRule, Link, LinkConfig, LinkId, LinkStats, LinkTap, Verdict};
use crate::queue::{Event, EventQueue};
use crate::red::RedDecision;
use crate::routing::{Edge, RouteMetric, Routes, NO_ROUTE};
use crate::trace::{
    SeriesConfig, TraceBuf, VAR_CHANGE_BASE, VAR_DELAY, VAR_QUEUE, VAR_QUEUE_BYTES, VAR_RATE,
    VAR_SENT_RATE,
};

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

/// When routing tables follow a change of the topology.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reroute {
    /// Computed once when the simulation is built, never changed; packets routed onto a
    /// link that is down are dropped there (ns-2's default, ns-3 without recomputation).
    #[default]
    Static,
    /// Recomputed over the links and nodes that are up at the instant of each change (ns-2
    /// session routing, ns-3 `RecomputeRoutingTables`).
    Instant,
    /// Recomputed this long after each change, an approximation of a distance-vector
    /// protocol's convergence; until then the old tables stay in force.
    ///
    /// CHOICE: the new tables are computed over the topology at the instant they take effect,
    /// not at the change, so a link that flaps within the delay leaves the tables as they
    /// were, and tables never route onto a link known to be down when they take effect.
    Delayed(Dur),
}

/// One change of the topology or of the routing tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TopologyEvent {
    /// When, ns.
    pub at: u64,
    /// What changed.
    pub change: TopologyChange,
}

/// What a [`TopologyEvent`] changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopologyChange {
    /// A simplex link's own state was set (whether or not it was already in that state).
    Link {
        /// The link.
        link: LinkId,
        /// The new state.
        up: bool,
    },
    /// A node's state was set.
    Node {
        /// The node.
        node: NodeId,
        /// The new state.
        up: bool,
    },
    /// New routing tables took effect.
    Routes {
        /// (node, destination) pairs with no route under the new tables, over the nodes that
        /// host agents as destinations.
        unreachable: u64,
    },
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

#[derive(Clone, Copy, Debug)]
struct TimerState {
    /// When the slot should fire; `u64::MAX` when disarmed.
    deadline: u64,
    /// Time of the heap entry outstanding for this slot; `u64::MAX` when none.
    queued_at: u64,
    /// Generation of the outstanding entry; older entries are stale.
    generation: u32,
}

const DISARMED: u64 = u64::MAX;

impl Default for TimerState {
    fn default() -> Self {
        TimerState {
            deadline: DISARMED,
            queued_at: DISARMED,
            generation: 0,
        }
    }
}

/// A flow's series values for one sampling interval (for a retired flow: since the sample
/// before it retired, recorded at the next one).
#[derive(Clone, Copy, Debug, Default)]
struct FinalSample {
    flow: u32,
    /// Application bytes delivered (rate series).
    delivered: Option<u64>,
    /// Bytes sent (sent-rate series).
    sent: Option<u64>,
    /// Packets delivered and their delay sum, ns (delay series).
    delay: Option<(u64, u128)>,
}

/// A multicast group: its member agents and, per sending node, the cached tree.
#[derive(Clone, Debug, Default)]
struct Group {
    /// Member agents, sorted.
    members: Vec<Addr>,
    /// Per source node: per tree node, the links to copy onto and the member agents there.
    trees: BTreeMap<u32, BTreeMap<u32, TreeHop>>,
    /// Relay agents, sorted by node (at most one per node): see [`Sim::add_group_relay`].
    relays: Vec<Addr>,
}

#[derive(Clone, Debug, Default)]
struct TreeHop {
    links: Vec<u32>,
    members: Vec<Addr>,
}

/// Marks an agent id whose agent has been retired.
const RETIRED: u32 = u32::MAX;

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
        let id = u32::try_from(self.core.flows.len()).expect("flow count fits u32");
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

    /// Attach an agent to `node` on behalf of `flow`; `rng_name` names its random stream.
    /// Works before and during the run; during it, the agent takes the slot of a retired one
    /// if there is one, and a node without agents so far gets its routes.
    pub fn add_agent(&mut self, node: NodeId, flow: FlowId, rng_name: &str, agent: A) -> Addr {
        let core = &mut self.core;
        let id = u32::try_from(core.agent_slot.len()).expect("agent count fits u32");
        let addr = Addr {
            node: node.0,
            agent: id,
        };
        let entity = core.flow_entity[flow.0 as usize];
        let rng = RngStream::new(core.seed, &format!("agent/{rng_name}"));
        let slot = if let Some(slot) = core.free_slots.pop() {
            // Its timers were disarmed, with their generations advanced, at retirement.
            let i = slot as usize;
            self.agents[i] = agent;
            core.slot_live[i] = true;
            core.agent_addr[i] = addr;
            core.agent_flow[i] = flow.0;
            core.agent_entity[i] = entity;
            core.rngs[i] = rng;
            core.trace_mask[i] = if core.flow_sampled[flow.0 as usize] {
                core.change_mask
            } else {
                0
            };
            slot
        } else {
            self.agents.push(agent);
            core.slot_live.push(true);
            core.agent_addr.push(addr);
            core.agent_flow.push(flow.0);
            core.agent_entity.push(entity);
            core.timers.push([TimerState::default(); TimerSlot::MAX]);
            core.rngs.push(rng);
            core.trace_mask.push(if core.flow_sampled[flow.0 as usize] {
                core.change_mask
            } else {
                0
            });
            u32::try_from(self.agents.len() - 1).expect("agent count fits u32")
        };
        core.agent_slot.push(slot);
        core.live += 1;
        let f = flow.0 as usize;
        core.flow_agents[f] += 1;
        if core.flow_agents[f] == 1 && core.flow_sampled[f] {
            if let Err(pos) = core.active_flows.binary_search(&flow.0) {
                core.active_flows.insert(pos, flow.0);
            }
        }
        core.add_route_dst(node.0);
        addr
    }

    /// Retire the agent at `addr`: it gets no more inputs, leaves its multicast groups, its
    /// pending timers, start and stop never fire, and its slot goes to the next
    /// [`Sim::add_agent`]. Returns its final counters, or `None` if it was already retired.
    ///
    /// CHOICE: a packet that reaches a retired agent is discarded and counted as a drop with
    /// reason `no_agent`, on its node ([`Sim::node_stats`]) and in its flow's counters (data
    /// in `dropped_packets`, control in `control_dropped`), so flow conservation holds; in
    /// practice these are retransmissions and acknowledgements still in flight when a
    /// finished flow's agents retire.
    pub fn retire_agent(&mut self, addr: Addr) -> Option<AgentStats> {
        let core = &mut self.core;
        let slot = *core.agent_slot.get(addr.agent as usize)?;
        if slot == RETIRED {
            return None;
        }
        let i = slot as usize;
        let stats = self.agents[i].stats();
        core.final_samples(core.agent_flow[i], addr.agent, &stats);
        core.agent_slot[addr.agent as usize] = RETIRED;
        core.live -= 1;
        core.slot_live[i] = false;
        for t in &mut core.timers[i] {
            t.generation = t.generation.wrapping_add(1);
            t.deadline = DISARMED;
            t.queued_at = DISARMED;
        }
        core.trace_mask[i] = 0;
        for group in core.groups.values_mut() {
            // A retired relay hands nothing on: its node replicates as if it had none.
            if let Ok(pos) = group.relays.binary_search_by_key(&addr.node, |r| r.node) {
                if group.relays[pos] == addr {
                    group.relays.remove(pos);
                }
            }
            if let Ok(pos) = group.members.binary_search(&addr) {
                group.members.remove(pos);
                group.trees.clear();
            }
        }
        let f = core.agent_flow[i];
        core.flow_agents[f as usize] -= 1;
        if core.flow_agents[f as usize] == 0 {
            if let Ok(pos) = core.active_flows.binary_search(&f) {
                core.active_flows.remove(pos);
            }
        }
        core.free_slots.push(slot);
        Some(stats)
    }

    /// Make each run call return ([`Stopped::Finished`]) right after the event in which an
    /// agent calls `Ctx::finish`, so the caller retires it at that instant, whatever the event
    /// budget of the call.
    pub fn set_stop_on_finish(&mut self, stop: bool) {
        self.core.stop_on_finish = stop;
    }

    /// The agents that have called `Ctx::finish` since the last call, in the order they did.
    /// CHOICE: finishing does not retire an agent; the caller retires it (and its peer) when
    /// it chooses, so it can read the agent first.
    pub fn take_finished(&mut self) -> Vec<Addr> {
        std::mem::take(&mut self.core.finished)
    }

    /// The address the next [`Sim::add_agent`] will return for `node`.
    #[must_use]
    pub fn next_agent_addr(&self, node: NodeId) -> Addr {
        Addr {
            node: node.0,
            agent: u32::try_from(self.core.agent_slot.len()).expect("agent count fits u32"),
        }
    }

    /// Use `agent`'s application-byte counter for `flow`'s rate series.
    pub fn set_flow_receiver(&mut self, flow: FlowId, agent: Addr) {
        self.core.flow_receiver[flow.0 as usize] = Some(agent.agent);
    }

    /// Make `agent` a member of multicast group `key` (see [`Addr::group`]).
    pub fn join_group(&mut self, key: u32, agent: Addr) {
        self.core.join_group(key, agent);
    }

    /// Make `relay` the relay of group `key` at its node: a packet to the group whose header
    /// [`Header::stops_at_relays`] reaches that node is delivered to `relay` alone (its
    /// destination rewritten to `relay`), and travels on only when the relay hands it back with
    /// [`Ctx::relay`], which continues the replication at that node along the packet source's
    /// tree. A router function that rewrites set-up messages hop by hop (TCP-M's fusion nodes
    /// rewriting PATH) is such a relay. A later relay at the same node replaces the earlier.
    pub fn add_group_relay(&mut self, key: u32, relay: Addr) {
        let relays = &mut self.core.groups.entry(key).or_default().relays;
        match relays.binary_search_by_key(&relay.node, |r| r.node) {
            Ok(i) => relays[i] = relay,
            Err(i) => relays.insert(i, relay),
        }
    }

    /// The member agents of multicast group `key`, sorted.
    #[must_use]
    pub fn group_members(&self, key: u32) -> &[Addr] {
        self.core
            .groups
            .get(&key)
            .map_or(&[], |g| g.members.as_slice())
    }

    /// Start `agent` at `at` (at the current time if `at` has passed).
    pub fn schedule_start(&mut self, agent: Addr, at: SimTime) {
        let at = at.0.max(self.core.now);
        self.core.events.push(at, Event::Start(agent.agent));
    }

    /// Stop `agent` at `at` (at the current time if `at` has passed).
    pub fn schedule_stop(&mut self, agent: Addr, at: SimTime) {
        let at = at.0.max(self.core.now);
        self.core.events.push(at, Event::Stop(agent.agent));
    }

    /// Set simplex `link`'s own state at `at` (at the current time if `at` has passed).
    /// A duplex link is two calls.
    pub fn schedule_link_state(&mut self, link: LinkId, at: SimTime, up: bool) {
        let at = at.0.max(self.core.now);
        self.core
            .events
            .push(at, Event::LinkState { link: link.0, up });
    }

    /// Set `node`'s state at `at` (at the current time if `at` has passed).
    pub fn schedule_node_state(&mut self, node: NodeId, at: SimTime, up: bool) {
        let at = at.0.max(self.core.now);
        self.core
            .events
            .push(at, Event::NodeState { node: node.0, up });
    }

    /// Choose when routing follows topology changes (before the run).
    pub fn set_reroute(&mut self, reroute: Reroute) {
        self.core.reroute = reroute;
    }

    /// The reroute mode.
    #[must_use]
    pub fn reroute(&self) -> Reroute {
        self.core.reroute
    }

    /// Every state change applied and every routing-table change, in order.
    #[must_use]
    pub fn topology_events(&self) -> &[TopologyEvent] {
        &self.core.topology
    }

    /// Whether `link` carries traffic now (its own state and both end nodes up).
    #[must_use]
    pub fn link_up(&self, link: LinkId) -> bool {
        self.core.links[link.0 as usize].up
    }

    /// Whether `node` is up now.
    #[must_use]
    pub fn node_up(&self, node: NodeId) -> bool {
        self.core.node_up[node.0 as usize]
    }

    /// Drops counted on `node` (packets at the node rather than on a link).
    #[must_use]
    pub fn node_stats(&self, node: NodeId) -> &NodeStats {
        &self.core.node_stats[node.0 as usize]
    }

    /// Capture every packet that starts transmission on `link` (replacing an earlier tap).
    pub fn set_link_tap(&mut self, link: LinkId, tap: Box<dyn LinkTap<H> + Send>) {
        self.core.links[link.0 as usize].tap = Some(tap);
    }

    /// Take the taps out of the simulation (after the run, to flush and close them), by link.
    pub fn take_link_taps(&mut self) -> Vec<(LinkId, Box<dyn LinkTap<H> + Send>)> {
        let mut taps = Vec::new();
        for (i, l) in self.core.links.iter_mut().enumerate() {
            if let Some(tap) = l.tap.take() {
                taps.push((LinkId(u32::try_from(i).expect("link count fits u32")), tap));
            }
        }
        taps
    }

    /// Drop the first arrival of each of `seqs` (data sequence numbers) of `flow` on `link`.
    pub fn add_drop_rule(&mut self, link: LinkId, flow: FlowId, seqs: &[u64]) {
        let mut pending = seqs.to_vec();
        pending.sort_unstable();
        pending.dedup();
        let l = &mut self.core.links[link.0 as usize];
        l.rules.push(DropRule { flow, pending });
        l.refresh_guard();
    }

    /// Install a router function on `link`'s egress port.
    pub fn set_router_hook(
        &mut self,
        link: LinkId,
        hook: Box<dyn crate::link::RouterHook<H> + Send>,
    ) {
        self.core.links[link.0 as usize].hook = Some(hook);
    }

    /// Choose the routing metric (before [`Sim::build_routes`]).
    pub fn set_route_metric(&mut self, metric: RouteMetric) {
        self.core.metric = metric;
    }

    /// Compute next-hop tables toward every node an agent lives on (nodes that get their
    /// first agent later get theirs then). Static tables cover every link; the others cover
    /// the links up now.
    pub fn build_routes(&mut self) {
        let core = &mut self.core;
        for d in &mut core.route_dst {
            *d = false;
        }
        for (slot, addr) in core.agent_addr.iter().enumerate() {
            if core.slot_live[slot] {
                core.route_dst[addr.node as usize] = true;
            }
        }
        core.route_mask = match core.reroute {
            Reroute::Static => None,
            Reroute::Instant | Reroute::Delayed(_) => {
                Some(core.links.iter().map(|l| l.up).collect())
            }
        };
        core.routes = core.compute_routes();
        core.routes_built = true;
    }

    /// Whether a packet from `from` can reach `to` (after [`Sim::build_routes`]).
    #[must_use]
    pub fn has_route(&self, from: NodeId, to: NodeId) -> bool {
        if from == to {
            return true;
        }
        self.core.routes.next_link(from.0, to.0) != NO_ROUTE
    }

    /// The links a packet from `from` to `to` crosses, in order (after [`Sim::build_routes`]);
    /// `None` without a route.
    #[must_use]
    pub fn route(&self, from: NodeId, to: NodeId) -> Option<Vec<LinkId>> {
        let mut path = Vec::new();
        let mut node = from.0;
        while node != to.0 {
            let link = self.core.routes.next_link(node, to.0);
            if link == NO_ROUTE || path.len() > self.core.links.len() {
                return None;
            }
            path.push(LinkId(link));
            node = self.core.links[link as usize].to;
        }
        Some(path)
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
        loop {
            let runnable = match (self.core.events.peek_time(), before) {
                (Some(t), Some(end)) => t < end,
                (Some(t), None) => t <= horizon,
                (None, _) => false,
            };
            if !runnable {
                break;
            }
            if self.core.processed >= budget_end {
                return self.progress(Stopped::Budget);
            }
            let (time, event) = self.core.events.pop().expect("peeked");
            self.core.now = time;
            self.dispatch(event);
            if self.core.yield_pending {
                return self.yielded();
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
            Event::Start(id) => {
                let Some(a) = self.core.live_slot(id) else {
                    return;
                };
                self.core.processed += 1;
                let mut ctx = AgentCtx {
                    core: &mut self.core,
                    agent: a,
                };
                self.agents[a as usize].on_start(&mut ctx);
            }
            Event::Stop(id) => {
                let Some(a) = self.core.live_slot(id) else {
                    return;
                };
                self.core.processed += 1;
                let mut ctx = AgentCtx {
                    core: &mut self.core,
                    agent: a,
                };
                self.agents[a as usize].on_stop(&mut ctx);
            }
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

    fn timer(&mut self, agent: u32, slot: u8, generation: u32) {
        let now = self.core.now;
        let t = &mut self.core.timers[agent as usize][slot as usize];
        if t.generation != generation {
            return;
        }
        t.queued_at = DISARMED;
        if t.deadline == DISARMED {
            return;
        }
        if t.deadline > now {
            t.queued_at = t.deadline;
            t.generation = t.generation.wrapping_add(1);
            let (at, generation) = (t.deadline, t.generation);
            self.core.events.push(
                at,
                Event::Timer {
                    agent,
                    slot,
                    generation,
                },
            );
            return;
        }
        t.deadline = DISARMED;
        self.core.processed += 1;
        let mut ctx = AgentCtx {
            core: &mut self.core,
            agent,
        };
        self.agents[agent as usize].on_timer(TimerSlot(slot), &mut ctx);
    }

    fn sample(&mut self) {
        let core = &mut self.core;
        let now = core.now;
        let elapsed = now - core.last_sample_at;
        core.last_sample_at = now;
        // Each sampled flow's values for the interval, then those of flows retired during it.
        let mut samples = std::mem::take(&mut core.sample_buffer);
        for i in 0..core.active_flows.len() {
            let f = core.active_flows[i];
            let delivered = match core.flow_receiver[f as usize] {
                // A retired receiver's last bytes were taken when it retired.
                Some(r) => core.live_slot(r).map(|slot| {
                    let stats = self.agents[slot as usize].stats();
                    stats.app_bytes_delivered + stats.app_bytes_held
                }),
                None => Some(core.flows[f as usize].delivered_bytes),
            };
            samples.push(core.take_flow_sample(f, delivered, true));
        }
        samples.append(&mut core.final_samples);
        let per_second = 8.0 * 1e9 / elapsed as f64;
        for x in &samples {
            if let Some(bytes) = x.delivered {
                let entity = core.flow_entity[x.flow as usize];
                core.trace
                    .push(now, entity, VAR_RATE, bytes as f64 * per_second);
            }
        }
        for x in &samples {
            if let Some(bytes) = x.sent {
                let entity = core.flow_entity[x.flow as usize];
                core.trace
                    .push(now, entity, VAR_SENT_RATE, bytes as f64 * per_second);
            }
        }
        for x in &samples {
            if let Some((packets, delay)) = x.delay.filter(|&(packets, _)| packets > 0) {
                let entity = core.flow_entity[x.flow as usize];
                let mean_s = delay as f64 / packets as f64 / 1e9;
                core.trace.push(now, entity, VAR_DELAY, mean_s);
            }
        }
        samples.clear();
        core.sample_buffer = samples;
        if core.series.queue {
            for (l, link) in core.links.iter().enumerate() {
                let e = core.link_entity[l];
                core.trace.push(now, e, VAR_QUEUE, link.queue.len() as f64);
                core.trace
                    .push(now, e, VAR_QUEUE_BYTES, link.queue_bytes as f64);
            }
        }
        if !core.series.sampled_vars.is_empty() {
            for (a, agent) in self.agents.iter().enumerate() {
                if !core.slot_live[a] || !core.flow_sampled[core.agent_flow[a] as usize] {
                    continue;
                }
                for &v in &core.series.sampled_vars {
                    if let Some(value) = agent.var(v) {
                        core.trace.push(now, core.agent_entity[a], v as u16, value);
                    }
                }
            }
        }
        // The last interval may be partial: it ends at the horizon, so the rate series always
        // accounts for every delivered byte.
        if now < core.horizon {
            let next = (now + core.series.interval.0).min(core.horizon);
            core.events.push(next, Event::Sample);
        }
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
    /// The agents, by slot: the slot of an agent is its id (`Addr::agent`) until the first
    /// retirement; a retired agent's slot keeps it until the slot is reused.
    #[must_use]
    pub fn agents(&self) -> &[A] {
        &self.agents
    }

    /// The agent at `addr`, if it has not been retired.
    #[must_use]
    pub fn agent(&self, addr: Addr) -> Option<&A> {
        let slot = self.core.live_slot(addr.agent)?;
        Some(&self.agents[slot as usize])
    }

    /// Agents not retired.
    #[must_use]
    pub fn live_agents(&self) -> usize {
        self.core.live
    }

    /// The agent at `addr`, to adjust before the run (e.g. from the routes just built).
    ///
    /// # Panics
    /// Panics if no agent has that address or it has been retired.
    pub fn agent_mut(&mut self, addr: Addr) -> &mut A {
        let slot = self.core.live_slot(addr.agent).expect("a live agent");
        &mut self.agents[slot as usize]
    }
    /// Per-flow counters, by flow index.
    #[must_use]
    pub fn flow_stats(&self) -> &[FlowStats] {
        &self.core.flows
    }
    /// Per-link counters, by link index.
    #[must_use]
    pub fn link_stats(&self, link: LinkId) -> &LinkStats {
        &self.core.links[link.0 as usize].stats
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
        self.core.links[link.0 as usize].queue.len()
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
    /// The route metric in use.
    #[must_use]
    pub fn route_metric(&self) -> RouteMetric {
        self.core.metric
    }
    /// The counters at the end of the warm-up, if one was configured and reached.
    #[must_use]
    pub fn warmup_snapshot(&self) -> Option<&Snapshot> {
        self.core.snapshot.as_ref()
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

    /// Check the conservation laws: for every link, offered = transmitted + dropped before
    /// transmission + queued (waiting or in service); for every flow, data sent + replicated
    /// = delivered + dropped + in flight; and every packet of the pool is either free or held
    /// by a link or a pending local delivery.
    ///
    /// # Errors
    /// Returns [`SimError::Conservation`] describing the first violation.
    pub fn check_conservation(&self) -> Result<(), SimError> {
        let core = &self.core;
        let mut in_flight = vec![0u64; core.flows.len()];
        let mut held = 0usize;
        let mut count = |idx: u32| {
            let p = &core.pool[idx as usize];
            held += 1;
            if p.header.is_data() {
                in_flight[p.flow.0 as usize] += 1;
            }
        };
        for (i, l) in core.links.iter().enumerate() {
            let queued = l.queue.len() as u64 + u64::from(l.in_service.is_some());
            let s = &l.stats;
            let dropped_before_tx = s.total_drops() - s.dropped_after_tx;
            if s.offered_packets != s.tx_packets + dropped_before_tx + queued {
                return Err(SimError::Conservation(format!(
                    "link {}: offered {} != transmitted {} + dropped before transmission \
                     {dropped_before_tx} + queued {queued}",
                    core.entity_names[core.link_entity[i] as usize],
                    s.offered_packets,
                    s.tx_packets,
                )));
            }
            l.queue.iter().copied().for_each(&mut count);
            l.in_service.into_iter().for_each(&mut count);
            l.pipe.iter().map(|&(_, idx)| idx).for_each(&mut count);
        }
        core.local.iter().copied().for_each(&mut count);
        let allocated = core.pool.len() - core.free.len();
        if held != allocated {
            return Err(SimError::Conservation(format!(
                "packet pool: {allocated} packets allocated, {held} held by links and local \
                 deliveries"
            )));
        }
        for (f, s) in core.flows.iter().enumerate() {
            let flight = in_flight[f];
            if s.sent_packets + s.replicated_packets
                != s.delivered_packets + s.dropped_packets + flight
            {
                return Err(SimError::Conservation(format!(
                    "flow {}: sent {} + replicated {} != delivered {} + dropped {} + in flight \
                     {flight}",
                    core.entity_names[core.flow_entity[f] as usize],
                    s.sent_packets,
                    s.replicated_packets,
                    s.delivered_packets,
                    s.dropped_packets
                )));
            }
        }
        Ok(())
    }
}

impl<H: Header> Core<H> {
    fn entity(&mut self, name: String) -> u32 {
        self.entity_names.push(name);
        u32::try_from(self.entity_names.len() - 1).expect("entity count fits u32")
    }

    /// The flow series of `flow` since the last sample, taken as agent `id` retires (its
    /// rate as its receiver goes, its sent rate and delay as its last agent goes) and
    /// recorded at the next sampling instant, as the flow's values for that interval: the
    /// series stay on the sampling grid and still account for every byte of a flow that
    /// ends between two samples.
    fn final_samples(&mut self, flow: u32, id: u32, stats: &AgentStats) {
        let f = flow as usize;
        if !self.flow_sampled[f] || self.series.interval.0 == 0 {
            return;
        }
        let delivered = (self.flow_receiver[f] == Some(id))
            .then(|| stats.app_bytes_delivered + stats.app_bytes_held);
        let last = self.take_flow_sample(flow, delivered, self.flow_agents[f] == 1);
        if last.delivered.is_some() || last.sent.is_some() || last.delay.is_some() {
            self.final_samples.push(last);
        }
    }

    /// Flow `flow`'s series values since its last sample, marking them taken: the rate's
    /// bytes when `delivered` (the receiver's application bytes so far) is given, the sent
    /// bytes and delays when `whole`; each only if its series is recorded.
    fn take_flow_sample(&mut self, flow: u32, delivered: Option<u64>, whole: bool) -> FinalSample {
        let f = flow as usize;
        let mut x = FinalSample {
            flow,
            ..FinalSample::default()
        };
        if let Some(bytes) = delivered.filter(|_| self.series.flow_rate) {
            x.delivered = Some(bytes - self.last_sample_bytes[f]);
            self.last_sample_bytes[f] = bytes;
        }
        let stats = &self.flows[f];
        if whole && self.series.flow_sent_rate {
            x.sent = Some(stats.sent_bytes - self.last_sample_sent[f]);
            self.last_sample_sent[f] = stats.sent_bytes;
        }
        if whole && self.series.flow_delay {
            let (packets, delay) = self.last_sample_delay[f];
            x.delay = Some((
                stats.delivered_packets - packets,
                stats.delivered_delay_ns - delay,
            ));
            self.last_sample_delay[f] = (stats.delivered_packets, stats.delivered_delay_ns);
        }
        x
    }

    /// The slot of agent `id`, unless it has been retired (or never existed).
    #[inline]
    fn live_slot(&self, id: u32) -> Option<u32> {
        match self.agent_slot.get(id as usize) {
            Some(&slot) if slot != RETIRED => Some(slot),
            _ => None,
        }
    }

    fn edges(&self) -> Vec<Edge> {
        self.links
            .iter()
            .map(|l| Edge {
                from: l.from,
                to: l.to,
                delay: l.config.delay.0,
            })
            .collect()
    }

    /// Tables toward every node in `route_dst`, over `route_mask`.
    fn compute_routes(&self) -> Routes {
        let dsts: Vec<u32> = (0..self.route_dst.len())
            .filter(|&n| self.route_dst[n])
            .map(|n| u32::try_from(n).expect("node count fits u32"))
            .collect();
        Routes::build_over(
            self.node_names.len(),
            &self.edges(),
            &self.incoming,
            &dsts,
            self.metric,
            self.route_mask.as_deref(),
        )
    }

    /// Give `node` routes toward it, if the tables exist and do not cover it yet.
    fn add_route_dst(&mut self, node: u32) {
        if !self.routes_built || self.route_dst[node as usize] {
            return;
        }
        self.route_dst[node as usize] = true;
        let edges = self.edges();
        self.routes.add_dst(
            &edges,
            &self.incoming,
            node,
            self.metric,
            self.route_mask.as_deref(),
        );
    }

    fn set_link_state(&mut self, link: u32, up: bool) {
        self.topology.push(TopologyEvent {
            at: self.now,
            change: TopologyChange::Link {
                link: LinkId(link),
                up,
            },
        });
        self.links[link as usize].admin_up = up;
        self.refresh_link(link);
        self.after_change();
    }

    fn set_node_state(&mut self, node: u32, up: bool) {
        self.topology.push(TopologyEvent {
            at: self.now,
            change: TopologyChange::Node {
                node: NodeId(node),
                up,
            },
        });
        self.node_up[node as usize] = up;
        for i in 0..self.outgoing[node as usize].len() {
            self.refresh_link(self.outgoing[node as usize][i]);
        }
        for i in 0..self.incoming[node as usize].len() {
            self.refresh_link(self.incoming[node as usize][i]);
        }
        self.after_change();
    }

    /// Bring link `l` in line with its own state and its end nodes'.
    fn refresh_link(&mut self, l: u32) {
        let link = &self.links[l as usize];
        let node_down = !self.node_up[link.from as usize] || !self.node_up[link.to as usize];
        let up = link.admin_up && !node_down;
        // CHOICE: a link down for both reasons drops `node_down`: the node's failure is the
        // larger event, and the count follows it when only the link is restored.
        let reason = if node_down {
            DropReason::NodeDown
        } else {
            DropReason::LinkDown
        };
        let was_up = link.up;
        let link = &mut self.links[l as usize];
        link.down_reason = reason;
        link.up = up;
        link.refresh_guard();
        if was_up && !up {
            self.flush_link(l, reason);
        }
    }

    /// Drop everything link `l` holds, for `reason`, and make its pending events stale.
    fn flush_link(&mut self, l: u32, reason: DropReason) {
        let now = self.now;
        let link = &mut self.links[l as usize];
        link.account_queue(now);
        link.epoch = link.epoch.wrapping_add(1);
        let queue = std::mem::take(&mut link.queue);
        link.queue_bytes = 0;
        let in_service = link.in_service.take();
        let pipe = std::mem::take(&mut link.pipe);
        link.stats.dropped_after_tx += pipe.len() as u64;
        if in_service.is_some() {
            link.stats.busy_ns += now - link.service_started_at;
            if let Some(port) = link.red.as_deref_mut() {
                port.red.on_idle(now);
            }
        }
        let lost = queue
            .into_iter()
            .chain(in_service)
            .chain(pipe.into_iter().map(|(_, idx)| idx));
        for idx in lost {
            self.drop_at(l, idx, reason);
        }
    }

    /// After a state change: reroute as the mode says. Changes scheduled back to back for
    /// the same instant are applied together, the tables once after the last.
    fn after_change(&mut self) {
        let more = matches!(
            self.events.peek(),
            Some((t, Event::LinkState { .. } | Event::NodeState { .. })) if t == self.now
        );
        match self.reroute {
            Reroute::Static => {}
            Reroute::Instant if !more => self.reroute_now(),
            Reroute::Delayed(d) if !more => self.events.push(self.now + d.0, Event::Reroute),
            Reroute::Instant | Reroute::Delayed(_) => {}
        }
    }

    /// Recompute the tables over the links up now, unless they already are.
    fn reroute_now(&mut self) {
        if !self.routes_built {
            return;
        }
        let mask: Vec<bool> = self.links.iter().map(|l| l.up).collect();
        if self.route_mask.as_deref() == Some(mask.as_slice()) {
            return;
        }
        self.route_mask = Some(mask);
        self.routes = self.compute_routes();
        for group in self.groups.values_mut() {
            group.trees.clear();
        }
        let mut unreachable = 0;
        for dst in (0..self.route_dst.len()).filter(|&d| self.route_dst[d]) {
            let dst = u32::try_from(dst).expect("node count fits u32");
            let nodes = u32::try_from(self.node_names.len()).expect("node count fits u32");
            unreachable += (0..nodes)
                .filter(|&n| n != dst && self.routes.next_link(n, dst) == NO_ROUTE)
                .count() as u64;
        }
        self.topology.push(TopologyEvent {
            at: self.now,
            change: TopologyChange::Routes { unreachable },
        });
    }

    /// Drop a packet that is at `node` (not on a link), counting it on the node.
    #[cold]
    fn drop_at_node(&mut self, node: u32, idx: u32, reason: DropReason) {
        self.node_stats[node as usize].drops[reason as usize] += 1;
        self.count_flow_drop(idx);
        self.release(idx);
    }

    /// A packet at `node` with no next hop in the tables in force.
    #[cold]
    #[inline(never)]
    fn no_route(&mut self, idx: u32, node: u32) {
        let reason = if self.node_up[node as usize] {
            DropReason::NoRoute
        } else {
            DropReason::NodeDown
        };
        self.drop_at_node(node, idx, reason);
    }

    #[inline]
    fn alloc(&mut self, pkt: Packet<H>) -> u32 {
        if let Some(idx) = self.free.pop() {
            self.pool[idx as usize] = pkt;
            idx
        } else {
            if self.pool.len() == self.pool.capacity() {
                self.grow_pool();
            }
            self.pool.push(pkt);
            u32::try_from(self.pool.len() - 1).expect("pool fits u32")
        }
    }

    /// CHOICE: the pool grows by an eighth, not by doubling, so that when millions of
    /// packets wait in queues the memory reserved runs at most an eighth ahead of the memory
    /// used, and the memory guard (`ccsim_scenario::memory`), which looks between chunks of
    /// events, sees the growth before a doubling overshoots a limit.
    #[cold]
    fn grow_pool(&mut self) {
        self.pool.reserve_exact((self.pool.len() / 8).max(4096));
    }

    #[inline]
    fn release(&mut self, idx: u32) {
        self.free.push(idx);
    }

    fn inject(&mut self, mut pkt: Packet<H>, agent: u32) {
        pkt.src = self.agent_addr[agent as usize];
        pkt.sent_at = SimTime(self.now);
        let f = &mut self.flows[pkt.flow.0 as usize];
        if pkt.header.is_data() {
            f.sent_packets += 1;
            f.sent_bytes += u64::from(pkt.size);
            f.retransmitted_packets += u64::from(pkt.header.is_retransmission());
        } else {
            f.control_sent += 1;
        }
        let node = pkt.src.node;
        let local = pkt.dst.node == node;
        let idx = self.alloc(pkt);
        if local {
            self.local.push_back(idx);
            self.events.push(self.now, Event::LocalDeliver(idx));
        } else {
            self.forward(idx, node);
        }
    }

    #[inline]
    fn forward(&mut self, idx: u32, node: u32) {
        let dst = self.pool[idx as usize].dst.node;
        if dst == Addr::GROUP_NODE {
            return self.multicast(idx, node, false);
        }
        let link = self.routes.next_link(node, dst);
        if link == NO_ROUTE {
            return self.no_route(idx, node);
        }
        self.offer(link, idx);
    }

    fn join_group(&mut self, key: u32, agent: Addr) {
        let group = self.groups.entry(key).or_default();
        if let Err(pos) = group.members.binary_search(&agent) {
            group.members.insert(pos, agent);
            group.trees.clear();
        }
    }

    fn leave_group(&mut self, key: u32, agent: Addr) {
        if let Some(group) = self.groups.get_mut(&key) {
            if let Ok(pos) = group.members.binary_search(&agent) {
                group.members.remove(pos);
                group.trees.clear();
            }
        }
    }

    /// The shortest-path tree rooted at `source` reaching every member of `group`: the union
    /// of the unicast routes from `source` to each member's node.
    fn build_tree(&self, group: &Group, source: u32) -> BTreeMap<u32, TreeHop> {
        let mut tree: BTreeMap<u32, TreeHop> = BTreeMap::new();
        for &member in &group.members {
            let mut node = source;
            let mut hops = 0;
            while node != member.node && hops <= self.links.len() {
                let link = self.routes.next_link(node, member.node);
                if link == NO_ROUTE {
                    break;
                }
                let links = &mut tree.entry(node).or_default().links;
                if !links.contains(&link) {
                    links.push(link);
                }
                node = self.links[link as usize].to;
                hops += 1;
            }
            if node == member.node {
                tree.entry(node).or_default().members.push(member);
            }
        }
        tree
    }

    /// Replicate a group-addressed packet at `node`: one copy per outgoing tree link and
    /// one local delivery per member agent at `node`; or, unless `relayed`, hand it to the
    /// group's relay at `node` if it has one and the header stops at relays.
    fn multicast(&mut self, idx: u32, node: u32, relayed: bool) {
        let (key, source) = {
            let p = &self.pool[idx as usize];
            (p.dst.agent, p.src.node)
        };
        let Some(group) = self.groups.get(&key) else {
            return self.drop_at_node(node, idx, DropReason::NoRoute);
        };
        if !relayed && !group.relays.is_empty() && self.pool[idx as usize].header.stops_at_relays()
        {
            if let Ok(i) = group.relays.binary_search_by_key(&node, |r| r.node) {
                self.pool[idx as usize].dst = group.relays[i];
                self.local.push_back(idx);
                self.events.push(self.now, Event::LocalDeliver(idx));
                return;
            }
        }
        if !group.trees.contains_key(&source) {
            let tree = self.build_tree(group, source);
            self.groups
                .get_mut(&key)
                .expect("group exists")
                .trees
                .insert(source, tree);
        }
        let hop = self.groups[&key].trees[&source]
            .get(&node)
            .cloned()
            .unwrap_or_default();
        let copies = hop.links.len() + hop.members.len();
        if copies == 0 {
            return self.drop_at_node(node, idx, DropReason::NoRoute);
        }
        let extra = (copies - 1) as u64;
        let p = &self.pool[idx as usize];
        let f = &mut self.flows[p.flow.0 as usize];
        if p.header.is_data() {
            f.replicated_packets += extra;
            if p.sent_at.0 >= self.warmup_at {
                f.window.replicated_packets += extra;
            }
        } else {
            f.control_sent += extra;
        }
        let mut targets = hop
            .links
            .iter()
            .map(|&l| (Some(l), None))
            .chain(hop.members.iter().map(|&m| (None, Some(m))))
            .peekable();
        while let Some((link, member)) = targets.next() {
            let copy = if targets.peek().is_some() {
                let pkt = self.pool[idx as usize].clone();
                self.alloc(pkt)
            } else {
                idx
            };
            if let Some(l) = link {
                self.offer(l, copy);
            } else if let Some(m) = member {
                self.pool[copy as usize].dst = m;
                self.local.push_back(copy);
                self.events.push(self.now, Event::LocalDeliver(copy));
            }
        }
    }

    fn count_flow_drop(&mut self, idx: u32) {
        let p = &self.pool[idx as usize];
        let f = &mut self.flows[p.flow.0 as usize];
        if p.header.is_data() {
            f.dropped_packets += 1;
            if p.sent_at.0 >= self.warmup_at {
                f.window.dropped_packets += 1;
            }
        } else {
            f.control_dropped += 1;
        }
    }

    fn drop_at(&mut self, link: u32, idx: u32, reason: DropReason) {
        self.links[link as usize].stats.drops[reason as usize] += 1;
        self.count_flow_drop(idx);
        self.release(idx);
    }

    fn offer(&mut self, l: u32, idx: u32) {
        let now = self.now;
        let link = &mut self.links[l as usize];
        let pkt = &mut self.pool[idx as usize];
        link.stats.offered_packets += 1;
        link.bytes_offered += u64::from(pkt.size);
        if link.guard {
            if !link.up {
                let reason = link.down_reason;
                return self.drop_at(l, idx, reason);
            }
            if rule_matches(&mut link.rules, pkt) {
                return self.drop_at(l, idx, DropReason::Rule);
            }
        }
        if let Some(rng) = &mut link.loss_rng {
            if rng.bernoulli(link.config.loss) {
                return self.drop_at(l, idx, DropReason::RandomLoss);
            }
        }
        if link.hook.is_some() {
            let port = link.port_state();
            if let Some(hook) = link.hook.as_mut() {
                if hook.on_enqueue(now, pkt, &port) == Verdict::Drop {
                    return self.drop_at(l, idx, DropReason::Router);
                }
            }
        }
        let size = pkt.size;
        if link.red.is_some() && self.red_drops(l, idx) {
            return;
        }
        let link = &mut self.links[l as usize];
        if link.queue.len() as u64 > link.mark_above {
            // Step marking: count the mark only for a packet the limit accepts.
            let pkt = &mut self.pool[idx as usize];
            if pkt.ecn != Ecn::NotEct && link.fits(pkt.size) {
                pkt.ecn = Ecn::Ce;
                link.stats.ecn_marks += 1;
            }
        }
        if link.in_service.is_none() {
            link.in_service = Some(idx);
            link.service_started_at = now;
            if let Some(tap) = link.tap.as_deref_mut() {
                tap.on_transmit(now, &self.pool[idx as usize]);
            }
            let done = now + link.config.rate.tx_time(u64::from(size)).0;
            let epoch = link.epoch;
            self.events.push(done, Event::TxDone { link: l, epoch });
        } else if link.fits(size) {
            link.account_queue(now);
            link.queue.push_back(idx);
            link.queue_bytes += u64::from(size);
        } else {
            self.drop_at(l, idx, DropReason::QueueFull);
        }
    }

    /// RED's decision for a packet offered to RED link `l` (after loss, rules and the router
    /// hook, before the physical limit): marks it, or drops and counts it. Returns whether
    /// the packet was dropped. Out of line, so the DropTail path of [`Core::offer`] stays
    /// small.
    #[cold]
    #[inline(never)]
    fn red_drops(&mut self, l: u32, idx: u32) -> bool {
        let now = self.now;
        let link = &mut self.links[l as usize];
        let pkt = &mut self.pool[idx as usize];
        // A RED drop at an idle link leaves it idle; `Red` restarts its idle period itself.
        let fits = link.in_service.is_none() || link.fits(pkt.size);
        let Some(port) = link.red.as_deref_mut() else {
            return false;
        };
        let queue = if port.red.config().bytes {
            link.queue_bytes
        } else {
            link.queue.len() as u64
        };
        let ect = pkt.ecn != Ecn::NotEct;
        let reason = match port
            .red
            .on_arrival(queue, pkt.size, ect, now, fits, &mut port.rng)
        {
            RedDecision::Enqueue => return false,
            RedDecision::Mark => {
                // Count the mark only for a packet the physical limit accepts.
                if fits {
                    pkt.ecn = Ecn::Ce;
                    link.stats.ecn_marks += 1;
                    return false;
                }
                DropReason::QueueFull
            }
            RedDecision::EarlyDrop => DropReason::RedEarly,
            RedDecision::ForcedDrop => DropReason::RedForced,
        };
        self.drop_at(l, idx, reason);
        true
    }

    /// The transmission on link `l` ends, unless the entry is stale (`epoch` is older than
    /// the link's: it went down since).
    fn tx_done(&mut self, l: u32, epoch: u32) {
        let now = self.now;
        let link = &mut self.links[l as usize];
        if link.epoch != epoch {
            return;
        }
        self.processed += 1;
        let idx = link
            .in_service
            .take()
            .expect("a packet is in service when TxDone fires");
        let size = self.pool[idx as usize].size;
        link.stats.tx_packets += 1;
        link.stats.tx_bytes += u64::from(size);
        link.stats.busy_ns += now - link.service_started_at;
        let arrival = now + link.config.delay.0;
        link.pipe.push_back((arrival, idx));
        if link.pipe.len() == 1 {
            self.events.push(arrival, Event::Arrive { link: l, epoch });
        }
        if let Some(next) = link.queue.front().copied() {
            link.account_queue(now);
            link.queue.pop_front();
            let next_size = self.pool[next as usize].size;
            link.queue_bytes -= u64::from(next_size);
            link.in_service = Some(next);
            link.service_started_at = now;
            if let Some(tap) = link.tap.as_deref_mut() {
                tap.on_transmit(now, &self.pool[next as usize]);
            }
            let done = now + link.config.rate.tx_time(u64::from(next_size)).0;
            self.events.push(done, Event::TxDone { link: l, epoch });
        } else if let Some(port) = link.red.as_deref_mut() {
            // Nothing waits and nothing is in service: RED's idle period begins.
            port.red.on_idle(now);
        }
    }

    /// The head packet of link `l` arrives: (packet, node), unless the entry is stale.
    fn arrive(&mut self, l: u32, epoch: u32) -> Option<(u32, u32)> {
        let link = &mut self.links[l as usize];
        if link.epoch != epoch {
            return None;
        }
        self.processed += 1;
        let (_, idx) = link
            .pipe
            .pop_front()
            .expect("a packet propagates when Arrive fires");
        if let Some(&(t, _)) = link.pipe.front() {
            self.events.push(t, Event::Arrive { link: l, epoch });
        }
        Some((idx, link.to))
    }
}

fn rule_matches<H: Header>(rules: &mut [DropRule], pkt: &Packet<H>) -> bool {
    let Some(seq) = pkt.header.data_seq() else {
        return false;
    };
    for rule in rules.iter_mut().filter(|r| r.flow == pkt.flow) {
        if let Ok(pos) = rule.pending.binary_search(&seq) {
            rule.pending.remove(pos);
            return true;
        }
    }
    false
}

/// The context an agent sees while one of its inputs runs.
struct AgentCtx<'a, H> {
    core: &'a mut Core<H>,
    agent: u32,
}

impl<H: Header> Ctx<H> for AgentCtx<'_, H> {
    #[inline]
    fn now(&self) -> SimTime {
        SimTime(self.core.now)
    }
    fn addr(&self) -> Addr {
        self.core.agent_addr[self.agent as usize]
    }
    #[inline]
    fn send(&mut self, pkt: Packet<H>) {
        self.core.inject(pkt, self.agent);
    }
    #[inline]
    fn set_timer(&mut self, slot: TimerSlot, at: SimTime) {
        let at = at.0.max(self.core.now);
        let t = &mut self.core.timers[self.agent as usize][slot.0 as usize];
        t.deadline = at;
        if t.queued_at <= at {
            // The outstanding entry fires first and re-arms itself for the new deadline.
            return;
        }
        t.generation = t.generation.wrapping_add(1);
        t.queued_at = at;
        let generation = t.generation;
        self.core.events.push(
            at,
            Event::Timer {
                agent: self.agent,
                slot: slot.0,
                generation,
            },
        );
    }
    #[inline]
    fn cancel_timer(&mut self, slot: TimerSlot) {
        self.core.timers[self.agent as usize][slot.0 as usize].deadline = DISARMED;
    }
    fn relay(&mut self, pkt: Packet<H>) {
        let node = self.core.agent_addr[self.agent as usize].node;
        let group = pkt.dst.group_key().is_some();
        // The relay consumed its copy (a delivery); what it hands on is one more copy, as a
        // replication is.
        let f = &mut self.core.flows[pkt.flow.0 as usize];
        if pkt.header.is_data() {
            f.replicated_packets += 1;
            if pkt.sent_at.0 >= self.core.warmup_at {
                f.window.replicated_packets += 1;
            }
        } else {
            f.control_sent += 1;
        }
        let local = pkt.dst.node == node;
        let idx = self.core.alloc(pkt);
        if group {
            self.core.multicast(idx, node, true);
        } else if local {
            self.core.local.push_back(idx);
            self.core
                .events
                .push(self.core.now, Event::LocalDeliver(idx));
        } else {
            self.core.forward(idx, node);
        }
    }
    fn join_group(&mut self, key: u32) {
        let me = self.core.agent_addr[self.agent as usize];
        self.core.join_group(key, me);
    }
    fn leave_group(&mut self, key: u32) {
        let me = self.core.agent_addr[self.agent as usize];
        self.core.leave_group(key, me);
    }
    fn rng(&mut self) -> &mut RngStream {
        &mut self.core.rngs[self.agent as usize]
    }
    fn finish(&mut self) {
        let me = self.core.agent_addr[self.agent as usize];
        self.core.finished.push(me);
        if self.core.stop_on_finish {
            self.core.yield_pending = true;
            self.core.yield_reason = Stopped::Finished;
        }
    }
    #[inline]
    fn tracing(&self, var: VarId) -> bool {
        self.core.trace_mask[self.agent as usize] & var.bit() != 0
    }
    #[inline]
    fn trace(&mut self, var: VarId, value: f64) {
        if self.tracing(var) {
            let e = self.core.agent_entity[self.agent as usize];
            self.core
                .trace
                .push(self.core.now, e, VAR_CHANGE_BASE + var as u16, value);
        }
    }
}
