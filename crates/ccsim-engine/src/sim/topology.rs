//! Link and node state changes, routing tables and rerouting.
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
//!
//! # Rerouting
//! [`Reroute`] chooses when the tables follow the topology. Static tables never change;
//! instant ones are recomputed over the links that are up at each change; delayed ones at
//! the change plus a convergence delay. Multicast trees are rebuilt from the new tables.
//!

use super::{Core, NodeId, NodeStats, Sim};
use crate::link::{DropReason, LinkId};
use crate::queue::{Event, Scheduler};
use crate::routing::{ecmp_hash, pick, Edge, Multipath, RouteMetric, Routes, NO_ROUTE};
use ccsim_core::{Agent, Dur, Header, SimTime};

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

impl<H: Header, A: Agent<H>> Sim<H, A> {
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

    /// Choose how nodes use equal-cost paths (before [`Sim::build_routes`]).
    pub fn set_multipath(&mut self, multipath: Multipath) {
        self.core.multipath = multipath;
    }

    /// The multipath mode.
    #[must_use]
    pub fn multipath(&self) -> Multipath {
        self.core.multipath
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
        core.path_counts.clear();
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
        self.core
            .walk(from.0, to.0, |node| self.core.routes.next_link(node, to.0))
    }

    /// The links a packet from agent `src` to agent `dst` crosses, in order, under the tables
    /// in force: with ECMP the path its hash picks at every hop; without multipath, or with
    /// spray (whose packets differ), the lowest-indexed equal-cost path, as [`Sim::route`].
    /// `None` without a route.
    #[must_use]
    pub fn flow_route(&self, src: ccsim_core::Addr, dst: ccsim_core::Addr) -> Option<Vec<LinkId>> {
        self.core.walk(src.node, dst.node, |node| {
            self.core.next_hop_of(node, src, dst)
        })
    }

    /// Every link of every equal-cost shortest path from `from` to `to` under the tables in
    /// force, in breadth-first order from `from` (links out of a node ascending); `None`
    /// without a route. Without multipath, the links of [`Sim::route`].
    #[must_use]
    pub fn equal_cost_links(&self, from: NodeId, to: NodeId) -> Option<Vec<LinkId>> {
        if from == to {
            return Some(Vec::new());
        }
        let mut seen = vec![false; self.core.node_names.len()];
        let mut queue = std::collections::VecDeque::from([from.0]);
        seen[from.0 as usize] = true;
        let mut links = Vec::new();
        while let Some(node) = queue.pop_front() {
            if node == to.0 {
                continue;
            }
            let choices = self.core.routes.equal_cost(node, to.0);
            if choices.is_empty() {
                return None;
            }
            for &l in choices {
                links.push(LinkId(l));
                let next = self.core.links[l as usize].to;
                if !seen[next as usize] {
                    seen[next as usize] = true;
                    queue.push_back(next);
                }
            }
        }
        Some(links)
    }

    /// How many distinct shortest paths lead from `from` to `to` under the tables in force
    /// (1 without multipath; 0 without a route), saturating at `u64::MAX`. Counts are kept
    /// until the tables change, by the pair of nodes next to single-homed ends, so that a
    /// fabric's hosts share their switches' counts.
    pub fn equal_cost_paths(&mut self, from: NodeId, to: NodeId) -> u64 {
        let core = &mut self.core;
        let (mut from, mut to) = (from.0, to.0);
        if from == to {
            return 1;
        }
        // A single-homed end has one way in and out: count from (to) its neighbour.
        if let [only] = core.routes.equal_cost(from, to) {
            if core.outgoing[from as usize].len() == 1 {
                from = core.links[*only as usize].to;
            }
        }
        if let [only] = core.incoming[to as usize][..] {
            if core.outgoing[to as usize].len() == 1 && core.links[only as usize].up {
                to = core.links[only as usize].from;
            }
        }
        if from == to {
            return 1;
        }
        if let Some(&n) = core.path_counts.get(&(from, to)) {
            return n;
        }
        let mut memo: std::collections::BTreeMap<u32, u64> = std::collections::BTreeMap::new();
        let n = core.paths_from(from, to, &mut memo);
        // A destination that gains its tables later (its first agent) never had a count kept:
        // only counts of pairs with a route are.
        if n > 0 {
            core.path_counts.insert((from, to), n);
        }
        n
    }

    /// The route metric in use.
    #[must_use]
    pub fn route_metric(&self) -> RouteMetric {
        self.core.metric
    }
}

impl<H: Header> Core<H> {
    /// The links from `from` to `to` when each node's next hop is `next(node)`; `None` when a
    /// node has none (or the walk loops).
    fn walk(&self, from: u32, to: u32, next: impl Fn(u32) -> u32) -> Option<Vec<LinkId>> {
        let mut path = Vec::new();
        let mut node = from;
        while node != to {
            let link = next(node);
            if link == NO_ROUTE || path.len() > self.links.len() {
                return None;
            }
            path.push(LinkId(link));
            node = self.links[link as usize].to;
        }
        Some(path)
    }

    /// The link a packet from `src` to `dst` takes at `node` by the ECMP hash (the first
    /// equal-cost link without ECMP), or `NO_ROUTE`.
    pub(super) fn next_hop_of(
        &self,
        node: u32,
        src: ccsim_core::Addr,
        dst: ccsim_core::Addr,
    ) -> u32 {
        let choices = self.routes.equal_cost(node, dst.node);
        match choices.len() {
            0 => NO_ROUTE,
            1 => choices[0],
            n if self.multipath == Multipath::Ecmp => {
                let h = ecmp_hash(
                    self.ecmp_salt,
                    node,
                    (src.node, src.agent),
                    (dst.node, dst.agent),
                );
                choices[pick(h, n)]
            }
            _ => choices[0],
        }
    }

    /// Shortest paths from `node` to `to`, counted over the equal-cost choices.
    fn paths_from(
        &self,
        node: u32,
        to: u32,
        memo: &mut std::collections::BTreeMap<u32, u64>,
    ) -> u64 {
        if node == to {
            return 1;
        }
        if let Some(&n) = memo.get(&node) {
            return n;
        }
        let mut total = 0u64;
        for &l in self.routes.equal_cost(node, to) {
            let next = self.links[l as usize].to;
            total = total.saturating_add(self.paths_from(next, to, memo));
        }
        memo.insert(node, total);
        total
    }

    pub(super) fn edges(&self) -> Vec<Edge> {
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
    pub(super) fn compute_routes(&self) -> Routes {
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
            self.multipath,
        )
    }

    /// Give `node` routes toward it, if the tables exist and do not cover it yet.
    pub(super) fn add_route_dst(&mut self, node: u32) {
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

    pub(super) fn set_link_state(&mut self, link: u32, up: bool) {
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

    pub(super) fn set_node_state(&mut self, node: u32, up: bool) {
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
    pub(super) fn refresh_link(&mut self, l: u32) {
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
    pub(super) fn flush_link(&mut self, l: u32, reason: DropReason) {
        let now = self.now;
        let link = &mut self.links[l as usize];
        link.account_queue(now);
        link.epoch = link.epoch.wrapping_add(1);
        if let Some(c) = link.cursor.as_deref_mut() {
            c.reset();
        }
        let mut queue: Vec<u32> = std::mem::take(&mut link.queue).into();
        if let Some(port) = link.custom.as_deref_mut() {
            port.enqueued_at.clear();
        }
        if let Some(port) = link.dual.as_deref_mut() {
            port.dual.advance(now);
            queue.extend(port.dual.drain());
        }
        link.queue_bytes = 0;
        let mut in_service = link.in_service.take();
        let mut pipe = std::mem::take(&mut link.pipe);
        if link.is_fifo() {
            // A FIFO link's packet in service is the last in its pipe, counted as transmitted
            // when it started: take that back, as for a cut transmission.
            link.end_pending = false;
            if link.busy_until > now {
                in_service = pipe.pop_back().map(|(_, idx)| idx);
                link.stats = link.stats_settled(now);
                link.busy_until = now;
            } else if !link.idle_noted {
                if let Some(port) = link.red.as_deref_mut() {
                    port.red.on_idle(link.busy_until);
                }
            }
            link.idle_noted = in_service.is_none();
        }
        link.stats.dropped_after_tx += pipe.len() as u64;
        if in_service.is_some() {
            link.stats.busy_ns += now - link.service_started_at;
            if let Some(port) = link.red.as_deref_mut() {
                port.red.on_idle(now);
            }
            link.idle_noted = true;
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
    pub(super) fn after_change(&mut self) {
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
    pub(super) fn reroute_now(&mut self) {
        if !self.routes_built {
            return;
        }
        let mask: Vec<bool> = self.links.iter().map(|l| l.up).collect();
        if self.route_mask.as_deref() == Some(mask.as_slice()) {
            return;
        }
        self.route_mask = Some(mask);
        self.routes = self.compute_routes();
        self.path_counts.clear();
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
}
