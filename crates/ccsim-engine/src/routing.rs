//! Static shortest-path routing, computed once when the simulation is built.
//!
//! For each destination node that some agent lives on, Dijkstra over the reversed graph
//! gives every node's next-hop link toward it. CHOICE: ties between equal-cost paths break
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
        for &link in &incoming[node as usize] {
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
