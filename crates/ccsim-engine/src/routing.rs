//! Shortest-path routing: computed when the simulation is built, and again over the links
//! that are up when the topology changes and the simulation's reroute mode asks for it.
//!
//! For each destination node that some agent lives on, Dijkstra over the reversed graph
//! gives every node's next-hop link toward it. A mask of the links that are up restricts the
//! graph (a link into or out of a down node counts as down). CHOICE: ties between equal-cost paths break
//! on fewer hops, then on the lower link index (links are numbered in the order the scenario
//! lists them), so routes never depend on hash order.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What "shortest" means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RouteMetric {
    /// Sum of propagation delays (ties: fewer hops).
    #[default]
    Delay,
    /// Number of hops (ties: smaller delay).
    Hops,
}

/// Sentinel for "no route".
pub const NO_ROUTE: u32 = u32::MAX;

/// A simplex edge as routing sees it: (from, to, delay in ns).
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    /// Sending node.
    pub from: u32,
    /// Receiving node.
    pub to: u32,
    /// Propagation delay, ns.
    pub delay: u64,
}

/// Next-hop links toward `dst` for every node (`NO_ROUTE` where unreachable or at `dst`).
#[must_use]
pub fn next_hops(
    n_nodes: usize,
    edges: &[Edge],
    incoming: &[Vec<u32>],
    dst: u32,
    metric: RouteMetric,
) -> Vec<u32> {
    next_hops_over(n_nodes, edges, incoming, dst, metric, None)
}

/// [`next_hops`] over the links whose entry in `up` is true (all links when `None`).
#[must_use]
pub fn next_hops_over(
    n_nodes: usize,
    edges: &[Edge],
    incoming: &[Vec<u32>],
    dst: u32,
    metric: RouteMetric,
    up: Option<&[bool]>,
) -> Vec<u32> {
    let usable = |link: u32| up.is_none_or(|u| u[link as usize]);
    let cost = |e: &Edge| -> (u64, u64) {
        match metric {
            RouteMetric::Delay => (e.delay, 1),
            RouteMetric::Hops => (1, e.delay),
        }
    };
    let mut dist = vec![(u64::MAX, u64::MAX); n_nodes];
    let mut next = vec![NO_ROUTE; n_nodes];
    let mut heap = BinaryHeap::new();
    dist[dst as usize] = (0, 0);
    heap.push(Reverse((0u64, 0u64, dst)));
    while let Some(Reverse((d1, d2, node))) = heap.pop() {
        if (d1, d2) > dist[node as usize] {
            continue;
        }
        for &link in incoming[node as usize].iter().filter(|&&l| usable(l)) {
            let e = &edges[link as usize];
            let (c1, c2) = cost(e);
            let cand = (d1.saturating_add(c1), d2.saturating_add(c2));
            let from = e.from as usize;
            let better = cand < dist[from] || (cand == dist[from] && link < next[from]);
            if better {
                let improved = cand < dist[from];
                dist[from] = cand;
                next[from] = link;
                if improved {
                    heap.push(Reverse((cand.0, cand.1, e.from)));
                }
            }
        }
    }
    next
}

/// Next-hop routing toward every destination that needs it.
///
/// A destination with a single duplex neighbour (a host hanging off one router: a "leaf")
/// gets no table of its own: every path to it ends with the link from that neighbour, so a
/// packet follows the neighbour's table and then takes that link. The shortest paths are
/// exactly those of a table built for the leaf, and memory and build time scale with the
/// number of routers rather than hosts (a 10 000-host dumbbell needs two tables, not 10 000).
#[derive(Clone, Debug, Default)]
pub struct Routes {
    /// `tables[node]`: next-hop link of every node toward `node` (empty if not needed).
    tables: Vec<Vec<u32>>,
    /// For a leaf node: (its neighbour, the neighbour's link to it); `(NO_ROUTE, NO_ROUTE)`
    /// otherwise.
    leaf: Vec<(u32, u32)>,
}

impl Routes {
    /// Build routes toward each node of `dsts` over `edges` (`incoming[n]`: links into `n`).
    #[must_use]
    pub fn build(
        n_nodes: usize,
        edges: &[Edge],
        incoming: &[Vec<u32>],
        dsts: &[u32],
        metric: RouteMetric,
    ) -> Routes {
        Routes::build_over(n_nodes, edges, incoming, dsts, metric, None)
    }

    /// [`Routes::build`] over the links whose entry in `up` is true (all when `None`). A
    /// destination counts as a leaf only through links that are up.
    #[must_use]
    pub fn build_over(
        n_nodes: usize,
        edges: &[Edge],
        incoming: &[Vec<u32>],
        dsts: &[u32],
        metric: RouteMetric,
        up: Option<&[bool]>,
    ) -> Routes {
        let mut routes = Routes {
            tables: vec![Vec::new(); n_nodes],
            leaf: vec![(NO_ROUTE, NO_ROUTE); n_nodes],
        };
        let outgoing = outgoing_of(n_nodes, edges, up);
        let mut anchors = Vec::new();
        for &d in dsts {
            match leaf_of(edges, incoming, &outgoing, d, up) {
                Some((parent, link)) => {
                    routes.leaf[d as usize] = (parent, link);
                    anchors.push(parent);
                }
                None => anchors.push(d),
            }
        }
        anchors.sort_unstable();
        anchors.dedup();
        for a in anchors {
            routes.tables[a as usize] = next_hops_over(n_nodes, edges, incoming, a, metric, up);
        }
        routes
    }

    /// Add destination `dst` to routes built by [`Routes::build_over`] with the same
    /// arguments (a node that gained its first agent during the run); a no-op if it has one.
    pub fn add_dst(
        &mut self,
        edges: &[Edge],
        incoming: &[Vec<u32>],
        dst: u32,
        metric: RouteMetric,
        up: Option<&[bool]>,
    ) {
        let d = dst as usize;
        if self.leaf[d].0 != NO_ROUTE || !self.tables[d].is_empty() {
            return;
        }
        let n_nodes = self.leaf.len();
        let outgoing = outgoing_of(n_nodes, edges, up);
        let anchor = match leaf_of(edges, incoming, &outgoing, dst, up) {
            Some((parent, link)) => {
                self.leaf[d] = (parent, link);
                parent
            }
            None => dst,
        };
        if self.tables[anchor as usize].is_empty() {
            self.tables[anchor as usize] =
                next_hops_over(n_nodes, edges, incoming, anchor, metric, up);
        }
    }

    /// The link a packet at `node` takes toward `dst` (`node != dst`), or `NO_ROUTE`.
    #[inline]
    #[must_use]
    pub fn next_link(&self, node: u32, dst: u32) -> u32 {
        let (parent, last) = self.leaf[dst as usize];
        let table = if parent == NO_ROUTE {
            &self.tables[dst as usize]
        } else if node == parent {
            return last;
        } else {
            &self.tables[parent as usize]
        };
        table.get(node as usize).copied().unwrap_or(NO_ROUTE)
    }
}

/// Per node, its outgoing links that are up.
fn outgoing_of(n_nodes: usize, edges: &[Edge], up: Option<&[bool]>) -> Vec<Vec<u32>> {
    let mut outgoing: Vec<Vec<u32>> = vec![Vec::new(); n_nodes];
    for (i, e) in edges.iter().enumerate() {
        if up.is_none_or(|u| u[i]) {
            outgoing[e.from as usize].push(u32::try_from(i).expect("link count fits u32"));
        }
    }
    outgoing
}

/// For a leaf `d` (exactly one link out and one link in that is up, to and from the same
/// neighbour): that neighbour and its link to `d`.
fn leaf_of(
    edges: &[Edge],
    incoming: &[Vec<u32>],
    outgoing: &[Vec<u32>],
    d: u32,
    up: Option<&[bool]>,
) -> Option<(u32, u32)> {
    let [out] = outgoing[d as usize][..] else {
        return None;
    };
    let mut inc = incoming[d as usize]
        .iter()
        .copied()
        .filter(|&l| up.is_none_or(|u| u[l as usize]));
    let (Some(inc), None) = (inc.next(), inc.next()) else {
        return None;
    };
    let parent = edges[out as usize].to;
    (edges[inc as usize].from == parent).then_some((parent, inc))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ring of 6 routers with chords, 12 single-homed hosts, and a dual-homed host.
    fn graph() -> (usize, Vec<Edge>, Vec<Vec<u32>>) {
        let mut duplex = Vec::new();
        for r in 0..6u32 {
            duplex.push((r, (r + 1) % 6, 1 + u64::from(r % 3)));
        }
        duplex.push((0, 3, 2));
        duplex.push((1, 4, 5));
        for h in 0..12u32 {
            duplex.push((6 + h, h % 6, 1 + u64::from(h % 4)));
        }
        duplex.push((18, 2, 1));
        duplex.push((18, 5, 1));
        let n = 19;
        let mut edges = Vec::new();
        for &(a, b, d) in &duplex {
            edges.push(Edge {
                from: a,
                to: b,
                delay: d,
            });
            edges.push(Edge {
                from: b,
                to: a,
                delay: d,
            });
        }
        let mut incoming = vec![Vec::new(); n];
        for (i, e) in edges.iter().enumerate() {
            incoming[e.to as usize].push(i as u32);
        }
        (n, edges, incoming)
    }

    #[test]
    fn leaf_compression_gives_the_same_next_hops_as_full_tables() {
        let (n, edges, incoming) = graph();
        let all: Vec<u32> = (0..n as u32).collect();
        for metric in [RouteMetric::Delay, RouteMetric::Hops] {
            let routes = Routes::build(n, &edges, &incoming, &all, metric);
            for dst in 0..n as u32 {
                let full = next_hops(n, &edges, &incoming, dst, metric);
                for node in (0..n as u32).filter(|&x| x != dst) {
                    assert_eq!(
                        routes.next_link(node, dst),
                        full[node as usize],
                        "{metric:?}: {node} -> {dst}"
                    );
                }
            }
        }
    }

    #[test]
    fn only_routers_get_tables() {
        let (n, edges, incoming) = graph();
        let hosts: Vec<u32> = (6..18).collect();
        let routes = Routes::build(n, &edges, &incoming, &hosts, RouteMetric::Delay);
        let with_tables = routes.tables.iter().filter(|t| !t.is_empty()).count();
        assert_eq!(with_tables, 6, "one table per access router, none per host");
    }

    /// The incoming lists without the links whose mask entry is false (numbering unchanged).
    fn without(incoming: &[Vec<u32>], up: &[bool]) -> Vec<Vec<u32>> {
        incoming
            .iter()
            .map(|inc| inc.iter().copied().filter(|&l| up[l as usize]).collect())
            .collect()
    }

    #[test]
    fn tables_over_a_mask_match_full_tables_of_the_graph_without_those_links() {
        let (n, edges, incoming) = graph();
        let all: Vec<u32> = (0..n as u32).collect();
        // Down: a ring link both ways, one chord one way, and a host's access link both ways
        // (the host at 6 hangs off router 0: its duplex pair is the first after the 8 router
        // links, links 16 and 17).
        let mut up = vec![true; edges.len()];
        for l in [0, 1, 13, 16, 17] {
            up[l] = false;
        }
        let pruned = without(&incoming, &up);
        for metric in [RouteMetric::Delay, RouteMetric::Hops] {
            let routes = Routes::build_over(n, &edges, &incoming, &all, metric, Some(&up));
            for dst in 0..n as u32 {
                let full = next_hops(n, &edges, &pruned, dst, metric);
                for node in (0..n as u32).filter(|&x| x != dst) {
                    let got = routes.next_link(node, dst);
                    assert_eq!(got, full[node as usize], "{metric:?}: {node} -> {dst}");
                    assert!(got == NO_ROUTE || up[got as usize]);
                }
            }
            // The host whose access link is down is unreachable and reaches nobody.
            assert_eq!(routes.next_link(3, 6), NO_ROUTE);
            assert_eq!(routes.next_link(6, 3), NO_ROUTE);
        }
    }

    #[test]
    fn a_destination_added_later_gets_the_routes_a_full_build_gives() {
        let (n, edges, incoming) = graph();
        let mut up = vec![true; edges.len()];
        up[4] = false;
        let some: Vec<u32> = vec![7, 18];
        let all: Vec<u32> = (0..n as u32).collect();
        let mut routes =
            Routes::build_over(n, &edges, &incoming, &some, RouteMetric::Delay, Some(&up));
        for d in all.iter().copied().filter(|d| !some.contains(d)) {
            routes.add_dst(&edges, &incoming, d, RouteMetric::Delay, Some(&up));
        }
        let full = Routes::build_over(n, &edges, &incoming, &all, RouteMetric::Delay, Some(&up));
        for dst in 0..n as u32 {
            for node in (0..n as u32).filter(|&x| x != dst) {
                assert_eq!(routes.next_link(node, dst), full.next_link(node, dst));
            }
        }
    }
}
