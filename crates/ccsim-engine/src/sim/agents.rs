//! The agent registry, agents' timers and the context an agent sees while it runs.
//!
//! # Agents created and retired during the run
//! An agent id (`Addr::agent`) is never reused; the storage behind it (its slot: the agent
//! value, timers, random stream) is, once the agent is retired ([`Sim::retire_agent`]), so
//! memory follows the number of live agents. Ids equal slots until the first retirement.
//!
//! # Timers
//! Each armed timer slot has at most one queue entry. Re-arming to a later deadline pushes
//! nothing: the entry pops at the old deadline and re-queues itself for the new one; an
//! earlier deadline pushes a new entry and stamps a new generation, making the old one stale.

use super::{Core, NodeId, Sim, Stopped};
use crate::queue::{Event, Scheduler};
use crate::trace::VAR_CHANGE_BASE;
use ccsim_core::{
    Addr, Agent, AgentStats, Ctx, FlowId, Header, Packet, RngStream, SimTime, TimerSlot, VarId,
};

#[derive(Clone, Copy, Debug)]
pub(super) struct TimerState {
    /// When the slot should fire; `u64::MAX` when disarmed.
    pub(super) deadline: u64,
    /// Time of the heap entry outstanding for this slot; `u64::MAX` when none.
    pub(super) queued_at: u64,
    /// Generation of the outstanding entry; older entries are stale.
    pub(super) generation: u32,
}

pub(super) const DISARMED: u64 = u64::MAX;

impl Default for TimerState {
    fn default() -> Self {
        TimerState {
            deadline: DISARMED,
            queued_at: DISARMED,
            generation: 0,
        }
    }
}

/// Marks an agent id whose agent has been retired.
pub(super) const RETIRED: u32 = u32::MAX;

/// The context an agent sees while one of its inputs runs.
pub(super) struct AgentCtx<'a, H> {
    pub(super) core: &'a mut Core<H>,
    pub(super) agent: u32,
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

impl<H: Header, A: Agent<H>> Sim<H, A> {
    /// Start (`start`) or stop agent `id`, unless it has been retired.
    pub(super) fn start_or_stop(&mut self, id: u32, start: bool) {
        let Some(a) = self.core.live_slot(id) else {
            return;
        };
        self.core.processed += 1;
        let mut ctx = AgentCtx {
            core: &mut self.core,
            agent: a,
        };
        let agent = &mut self.agents[a as usize];
        if start {
            agent.on_start(&mut ctx);
        } else {
            agent.on_stop(&mut ctx);
        }
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

    /// Send `pkt` from the agent at `addr` at the current time, as if the agent had sent it:
    /// the entry of packets that come from outside the simulation (a link emulator's
    /// device, `ccsim-emulate`). Call it between [`Sim::run_until`] calls, which leave
    /// `now()` at their limit. Returns `false` (and drops nothing) when no live agent is at
    /// `addr`.
    pub fn send_from(&mut self, addr: Addr, pkt: Packet<H>) -> bool {
        let Some(slot) = self.core.live_slot(addr.agent) else {
            return false;
        };
        self.core.inject(pkt, slot);
        true
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

    pub(super) fn timer(&mut self, agent: u32, slot: u8, generation: u32) {
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

    /// The agent at `addr`, taken out of a simulation that will not run (`ccsim real` builds
    /// a scenario and runs one of its agents over sockets).
    #[must_use]
    pub fn take_agent(mut self, addr: Addr) -> Option<A> {
        let slot = self.core.live_slot(addr.agent)?;
        Some(self.agents.swap_remove(slot as usize))
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
}

impl<H: Header> Core<H> {
    /// The slot of agent `id`, unless it has been retired (or never existed).
    #[inline]
    pub(super) fn live_slot(&self, id: u32) -> Option<u32> {
        match self.agent_slot.get(id as usize) {
            Some(&slot) if slot != RETIRED => Some(slot),
            _ => None,
        }
    }
}
