//! Multicast: groups of agents, the delivery tree from each sending node (cached, rebuilt
//! when the tables change) and relays, agents that take a group's packets at their node
//! and hand on what they choose.

use super::{Core, Sim};
use crate::link::DropReason;
use crate::queue::{Event, Scheduler};
use crate::routing::NO_ROUTE;
use ccsim_core::{Addr, Agent, Header};
use std::collections::BTreeMap;

/// A multicast group: its member agents and, per sending node, the cached tree.
#[derive(Clone, Debug, Default)]
pub(super) struct Group {
    /// Member agents, sorted.
    pub(super) members: Vec<Addr>,
    /// Per source node: per tree node, the links to copy onto and the member agents there.
    pub(super) trees: BTreeMap<u32, BTreeMap<u32, TreeHop>>,
    /// Relay agents, sorted by node (at most one per node): see [`Sim::add_group_relay`].
    pub(super) relays: Vec<Addr>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct TreeHop {
    pub(super) links: Vec<u32>,
    pub(super) members: Vec<Addr>,
}

impl<H: Header, A: Agent<H>> Sim<H, A> {
    /// Make `agent` a member of multicast group `key` (see [`Addr::group`]).
    pub fn join_group(&mut self, key: u32, agent: Addr) {
        self.core.join_group(key, agent);
    }

    /// Make `relay` the relay of group `key` at its node: a packet to the group whose header
    /// [`Header::stops_at_relays`] reaches that node is delivered to `relay` alone (its
    /// destination rewritten to `relay`), and travels on only when the relay hands it back with
    /// [`Ctx::relay`](ccsim_core::Ctx::relay), which continues the replication at that node along the packet source's
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
}

impl<H: Header> Core<H> {
    pub(super) fn join_group(&mut self, key: u32, agent: Addr) {
        let group = self.groups.entry(key).or_default();
        if let Err(pos) = group.members.binary_search(&agent) {
            group.members.insert(pos, agent);
            group.trees.clear();
        }
    }

    pub(super) fn leave_group(&mut self, key: u32, agent: Addr) {
        if let Some(group) = self.groups.get_mut(&key) {
            if let Ok(pos) = group.members.binary_search(&agent) {
                group.members.remove(pos);
                group.trees.clear();
            }
        }
    }

    /// The shortest-path tree rooted at `source` reaching every member of `group`: the union
    /// of the unicast routes from `source` to each member's node.
    pub(super) fn build_tree(&self, group: &Group, source: u32) -> BTreeMap<u32, TreeHop> {
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
    pub(super) fn multicast(&mut self, idx: u32, node: u32, relayed: bool) {
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
}
