//! The simulation: nodes, links, agents, the event loop and the counters.
//!
//! Packets live in a pool (`Vec` plus a free list) and events carry pool or component
//! indices, so the steady state allocates nothing. A packet at a node that is not its
//! destination is handed straight to the next-hop link (a function call, no event); only
//! serialisation, propagation, timers and bookkeeping create events.

use std::collections::{BTreeMap, VecDeque};

use ccsim_core::{
    Addr, Agent, AgentStats, Ctx, Ecn, FlowId, Header, Packet, RngStream, SimTime, TimerSlot, VarId,
};

use crate::link::{DropReason, DropRule, Link, LinkConfig, LinkId, LinkStats, Verdict};
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

/// Where a run stands after [`Sim::run_until`] returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Simulated time reached, ns.
    pub now: u64,
    /// Events processed so far.
    pub events: u64,
    /// Whether the horizon was reached.
    pub done: bool,
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

/// A multicast group: its member agents and, per sending node, the cached tree.
#[derive(Clone, Debug, Default)]
struct Group {
    /// Member agents, sorted.
    members: Vec<Addr>,
    /// Per source node: per tree node, the links to copy onto and the member agents there.
    trees: BTreeMap<u32, BTreeMap<u32, TreeHop>>,
}

#[derive(Clone, Debug, Default)]
struct TreeHop {
    links: Vec<u32>,
    members: Vec<Addr>,
}

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
    routes: Routes,
    metric: RouteMetric,
    agent_addr: Vec<Addr>,
    agent_entity: Vec<u32>,
    timers: Vec<[TimerState; TimerSlot::MAX]>,
    rngs: Vec<RngStream>,
    trace_mask: Vec<u32>,
    flows: Vec<FlowStats>,
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
                routes: Routes::default(),
                metric: RouteMetric::default(),
                agent_addr: Vec::new(),
                agent_entity: Vec::new(),
                timers: Vec::new(),
                rngs: Vec::new(),
                trace_mask: Vec::new(),
                flows: Vec::new(),
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
        let entity = self.core.entity(name);
        self.core.link_entity.push(entity);
        LinkId(id)
    }

    /// Register a flow (for counters and series) called `name`.
    pub fn add_flow(&mut self, name: &str) -> FlowId {
        self.core.flows.push(FlowStats::default());
        self.core.flow_receiver.push(None);
        self.core.last_sample_bytes.push(0);
        self.core.last_sample_sent.push(0);
        self.core.last_sample_delay.push((0, 0));
        let entity = self.core.entity(name.to_string());
        self.core.flow_entity.push(entity);
        FlowId(u32::try_from(self.core.flows.len() - 1).expect("flow count fits u32"))
    }

    /// Attach an agent to `node` on behalf of `flow`; `rng_name` names its random stream.
    pub fn add_agent(&mut self, node: NodeId, flow: FlowId, rng_name: &str, agent: A) -> Addr {
        let id = u32::try_from(self.agents.len()).expect("agent count fits u32");
        self.agents.push(agent);
        let addr = Addr {
            node: node.0,
            agent: id,
        };
        self.core.agent_addr.push(addr);
        self.core
            .agent_entity
            .push(self.core.flow_entity[flow.0 as usize]);
        self.core
            .timers
            .push([TimerState::default(); TimerSlot::MAX]);
        self.core
            .rngs
            .push(RngStream::new(self.core.seed, &format!("agent/{rng_name}")));
        self.core.trace_mask.push(0);
        addr
    }

    /// The address the next [`Sim::add_agent`] will return for `node`.
    #[must_use]
    pub fn next_agent_addr(&self, node: NodeId) -> Addr {
        Addr {
            node: node.0,
            agent: u32::try_from(self.agents.len()).expect("agent count fits u32"),
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

    /// The member agents of multicast group `key`, sorted.
    #[must_use]
    pub fn group_members(&self, key: u32) -> &[Addr] {
        self.core
            .groups
            .get(&key)
            .map_or(&[], |g| g.members.as_slice())
    }

    /// Start `agent` at `at`.
    pub fn schedule_start(&mut self, agent: Addr, at: SimTime) {
        self.core.events.push(at.0, Event::Start(agent.agent));
    }

    /// Stop `agent` at `at`.
    pub fn schedule_stop(&mut self, agent: Addr, at: SimTime) {
        self.core.events.push(at.0, Event::Stop(agent.agent));
    }

    /// Drop the first arrival of each of `seqs` (data sequence numbers) of `flow` on `link`.
    pub fn add_drop_rule(&mut self, link: LinkId, flow: FlowId, seqs: &[u64]) {
        let mut pending = seqs.to_vec();
        pending.sort_unstable();
        pending.dedup();
        self.core.links[link.0 as usize]
            .rules
            .push(DropRule { flow, pending });
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

    /// Compute next-hop tables toward every node an agent lives on.
    pub fn build_routes(&mut self) {
        let edges: Vec<Edge> = self
            .core
            .links
            .iter()
            .map(|l| Edge {
                from: l.from,
                to: l.to,
                delay: l.config.delay.0,
            })
            .collect();
        let mut dsts: Vec<u32> = self.core.agent_addr.iter().map(|a| a.node).collect();
        dsts.sort_unstable();
        dsts.dedup();
        let n = self.core.node_names.len();
        self.core.routes = Routes::build(n, &edges, &self.core.incoming, &dsts, self.core.metric);
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
        for m in &mut self.core.trace_mask {
            *m = mask;
        }
        self.core.series = series;
    }

    /// Process events up to the horizon, or until `max_events` more have been processed.
    pub fn run_until_horizon(&mut self, max_events: u64) -> Progress {
        let horizon = self.core.horizon;
        let budget_end = self.core.processed.saturating_add(max_events);
        while self.core.processed < budget_end {
            match self.core.events.peek_time() {
                Some(t) if t <= horizon => {
                    let (time, event) = self.core.events.pop().expect("peeked");
                    self.core.now = time;
                    self.dispatch(event);
                }
                _ => {
                    self.finish();
                    return Progress {
                        now: self.core.now,
                        events: self.core.processed,
                        done: true,
                    };
                }
            }
        }
        Progress {
            now: self.core.now,
            events: self.core.processed,
            done: false,
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
            Event::TxDone(l) => {
                self.core.processed += 1;
                self.core.tx_done(l);
            }
            Event::Arrive(l) => {
                self.core.processed += 1;
                let (idx, node) = self.core.arrive(l);
                self.at_node(idx, node);
            }
            Event::LocalDeliver(idx) => {
                self.core.processed += 1;
                // Local deliveries are scheduled at `now` in send order, so they pop in the
                // order of the `local` list that the conservation check scans.
                let front = self.core.local.pop_front();
                debug_assert_eq!(front, Some(idx), "local deliveries pop in order");
                self.deliver(idx);
            }
            Event::Timer {
                agent,
                slot,
                generation,
            } => self.timer(agent, slot, generation),
            Event::Start(a) => {
                self.core.processed += 1;
                let mut ctx = AgentCtx {
                    core: &mut self.core,
                    agent: a,
                };
                self.agents[a as usize].on_start(&mut ctx);
            }
            Event::Stop(a) => {
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
                    links: self.core.links.iter().map(|l| l.stats).collect(),
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
        let pkt = self.core.pool[idx as usize].clone();
        self.core.release(idx);
        if pkt.header.is_data() {
            let now = self.core.now;
            let f = &mut self.core.flows[pkt.flow.0 as usize];
            f.delivered_packets += 1;
            f.delivered_bytes += u64::from(pkt.size);
            f.delivered_delay_ns += u128::from(now - pkt.sent_at.0);
        }
        let a = pkt.dst.agent;
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
        if core.series.flow_rate {
            for f in 0..core.flows.len() {
                let bytes = match core.flow_receiver[f] {
                    Some(r) => {
                        let stats = self.agents[r as usize].stats();
                        stats.app_bytes_delivered + stats.app_bytes_held
                    }
                    None => core.flows[f].delivered_bytes,
                };
                let delta = bytes - core.last_sample_bytes[f];
                core.last_sample_bytes[f] = bytes;
                let rate = delta as f64 * 8.0 * 1e9 / elapsed as f64;
                core.trace.push(now, core.flow_entity[f], VAR_RATE, rate);
            }
        }
        if core.series.flow_sent_rate {
            for (f, stats) in core.flows.iter().enumerate() {
                let delta = stats.sent_bytes - core.last_sample_sent[f];
                core.last_sample_sent[f] = stats.sent_bytes;
                let rate = delta as f64 * 8.0 * 1e9 / elapsed as f64;
                core.trace
                    .push(now, core.flow_entity[f], VAR_SENT_RATE, rate);
            }
        }
        if core.series.flow_delay {
            for (f, stats) in core.flows.iter().enumerate() {
                let (packets, delay) = core.last_sample_delay[f];
                let dp = stats.delivered_packets - packets;
                if dp > 0 {
                    let mean_s = (stats.delivered_delay_ns - delay) as f64 / dp as f64 / 1e9;
                    core.trace.push(now, core.flow_entity[f], VAR_DELAY, mean_s);
                }
                core.last_sample_delay[f] = (stats.delivered_packets, stats.delivered_delay_ns);
            }
        }
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
    /// The agents, by index.
    #[must_use]
    pub fn agents(&self) -> &[A] {
        &self.agents
    }

    /// The agent at `addr`, to adjust before the run (e.g. from the routes just built).
    ///
    /// # Panics
    /// Panics if no agent has that address.
    pub fn agent_mut(&mut self, addr: Addr) -> &mut A {
        &mut self.agents[addr.agent as usize]
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

    /// Check the conservation laws: for every link, offered = transmitted + dropped + queued
    /// (waiting or in service); for every flow, data sent = delivered + dropped + in flight.
    ///
    /// # Errors
    /// Returns [`SimError::Conservation`] describing the first violation.
    pub fn check_conservation(&self) -> Result<(), SimError> {
        let core = &self.core;
        let mut in_flight = vec![0u64; core.flows.len()];
        let mut count = |idx: u32| {
            let p = &core.pool[idx as usize];
            if p.header.is_data() {
                in_flight[p.flow.0 as usize] += 1;
            }
        };
        for (i, l) in core.links.iter().enumerate() {
            let queued = l.queue.len() as u64 + u64::from(l.in_service.is_some());
            let s = &l.stats;
            if s.offered_packets != s.tx_packets + s.total_drops() + queued {
                return Err(SimError::Conservation(format!(
                    "link {}: offered {} != transmitted {} + dropped {} + queued {queued}",
                    core.entity_names[core.link_entity[i] as usize],
                    s.offered_packets,
                    s.tx_packets,
                    s.total_drops()
                )));
            }
            l.queue.iter().copied().for_each(&mut count);
            l.in_service.into_iter().for_each(&mut count);
            l.pipe.iter().map(|&(_, idx)| idx).for_each(&mut count);
        }
        core.local.iter().copied().for_each(&mut count);
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
            return self.multicast(idx, node);
        }
        let link = self.routes.next_link(node, dst);
        if link == NO_ROUTE {
            // Validation rejects unroutable flows; count rather than lose a stray packet.
            self.count_flow_drop(idx);
            self.release(idx);
            return;
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
    /// one local delivery per member agent at `node`.
    fn multicast(&mut self, idx: u32, node: u32) {
        let (key, source) = {
            let p = &self.pool[idx as usize];
            (p.dst.agent, p.src.node)
        };
        let Some(group) = self.groups.get(&key) else {
            self.count_flow_drop(idx);
            return self.release(idx);
        };
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
            self.count_flow_drop(idx);
            return self.release(idx);
        }
        let extra = (copies - 1) as u64;
        let f = &mut self.flows[self.pool[idx as usize].flow.0 as usize];
        if self.pool[idx as usize].header.is_data() {
            f.replicated_packets += extra;
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
        if !link.rules.is_empty() && rule_matches(&mut link.rules, pkt) {
            return self.drop_at(l, idx, DropReason::Rule);
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
        if link.in_service.is_none() {
            link.in_service = Some(idx);
            let done = now + link.config.rate.tx_time(u64::from(size)).0;
            self.events.push(done, Event::TxDone(l));
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
            .on_arrival(queue, pkt.size, ect, now, &mut port.rng)
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

    fn tx_done(&mut self, l: u32) {
        let now = self.now;
        let link = &mut self.links[l as usize];
        let idx = link
            .in_service
            .take()
            .expect("a packet is in service when TxDone fires");
        let size = self.pool[idx as usize].size;
        link.stats.tx_packets += 1;
        link.stats.tx_bytes += u64::from(size);
        let arrival = now + link.config.delay.0;
        link.pipe.push_back((arrival, idx));
        if link.pipe.len() == 1 {
            self.events.push(arrival, Event::Arrive(l));
        }
        if let Some(next) = link.queue.front().copied() {
            link.account_queue(now);
            link.queue.pop_front();
            let next_size = self.pool[next as usize].size;
            link.queue_bytes -= u64::from(next_size);
            link.in_service = Some(next);
            let done = now + link.config.rate.tx_time(u64::from(next_size)).0;
            self.events.push(done, Event::TxDone(l));
        } else if let Some(port) = link.red.as_deref_mut() {
            // Nothing waits and nothing is in service: RED's idle period begins.
            port.red.on_idle(now);
        }
    }

    fn arrive(&mut self, l: u32) -> (u32, u32) {
        let link = &mut self.links[l as usize];
        let (_, idx) = link
            .pipe
            .pop_front()
            .expect("a packet propagates when Arrive fires");
        if let Some(&(t, _)) = link.pipe.front() {
            self.events.push(t, Event::Arrive(l));
        }
        (idx, link.to)
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
