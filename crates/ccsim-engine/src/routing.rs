//! Shortest-path routing: computed when the simulation is built, and again over the links
//! that are up when the topology changes and the simulation's reroute mode asks for it.
//!
//! For each destination node that some agent lives on, Dijkstra over the reversed graph
//! gives every node's next-hop link toward it. A mask of the links that are up restricts the
//! graph (a link into or out of a down node counts as down). CHOICE: ties between equal-cost paths break
//! on fewer hops, then on the lower link index (links are numbered in the order the scenario
//! lists them), so routes never depend on hash order.
//!
//! With multipath routing ([`Multipath`]) a node keeps every next-hop link that starts a
//! shortest path (equal in the metric and in its tie-break: for `Delay`, equal delay and equal
//! hop count), ascending by link index, and a packet picks one of them at each hop:
//!
//! * ECMP (RFC 2992's hash-threshold idea, per flow): a hash of the packet's addresses
//!   ([`ecmp_hash`]: source and destination node and agent, which are ccsim's five-tuple, since
//!   an agent address is unique and carries one protocol), the node it is at and a salt drawn
//!   from the run's seed, mapped onto the choices by multiply-shift. Every packet of a flow
//!   takes the same path; its acknowledgements hash their own reversed addresses.
//! * Spray: a uniform draw per packet per hop from the simulation's `routing/spray` stream.
//!
//! CHOICE: the node's index enters the hash so that successive switches split a flow set
//! independently (a hash of the addresses alone would send every flow that an edge switch
//! put on its first uplink to the first uplink of the aggregation switch too: polarisation).

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

/// How a node chooses among equal-cost next hops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Multipath {
    /// One path: the lowest-indexed link of the equal-cost set.
    #[default]
    None,
    /// A per-flow hash of the addresses ([`ecmp_hash`]).
    Ecmp,
    /// A uniform draw per packet.
    Spray,
}

impl Multipath {
    /// The name used in files: "none", "ecmp", "spray".
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Multipath::None => "none",
            Multipath::Ecmp => "ecmp",
            Multipath::Spray => "spray",
        }
    }
}

/// One round of SplitMix64's output function over `x` (Steele, Lea and Flood, 2014).
#[inline]
fn mix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The ECMP hash of a packet at `node` from (`src_node`, `src_agent`) to (`dst_node`,
/// `dst_agent`): SplitMix64's mixer chained over the salt, the node, then each address packed
/// as `node << 32 | agent`.
#[inline]
#[must_use]
pub fn ecmp_hash(salt: u64, node: u32, src: (u32, u32), dst: (u32, u32)) -> u64 {
    let pack = |(n, a): (u32, u32)| (u64::from(n) << 32) | u64::from(a);
    let h = mix64(salt ^ u64::from(node));
    let h = mix64(h ^ pack(src));
    mix64(h ^ pack(dst))
}

/// Which of `n` choices a 64-bit hash picks: `floor(hash * n / 2^64)` (Lemire's
/// multiply-shift, no division).
#[inline]
#[must_use]
pub fn pick(hash: u64, n: usize) -> usize {
    ((u128::from(hash) * n as u128) >> 64) as usize
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
    shortest(n_nodes, edges, incoming, dst, metric, up).0
}

/// A path's cost as routing compares it: (metric, tie-break).
type Cost = (u64, u64);

fn cost_of(e: &Edge, metric: RouteMetric) -> Cost {
    match metric {
        RouteMetric::Delay => (e.delay, 1),
        RouteMetric::Hops => (1, e.delay),
    }
}

/// Dijkstra toward `dst` over the usable links: every node's next-hop link (the lowest index
/// among equal-cost ones) and its cost to `dst` (`(u64::MAX, u64::MAX)` if unreachable).
fn shortest(
    n_nodes: usize,
    edges: &[Edge],
    incoming: &[Vec<u32>],
    dst: u32,
    metric: RouteMetric,
    up: Option<&[bool]>,
) -> (Vec<u32>, Vec<Cost>) {
    let usable = |link: u32| up.is_none_or(|u| u[link as usize]);
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
            let (c1, c2) = cost_of(e, metric);
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
    (next, dist)
}

/// Every node's equal-cost next-hop links toward one destination, in compressed rows.
#[derive(Clone, Debug, Default)]
struct Choices {
    /// `links[start[n]..start[n + 1]]`: node `n`'s choices, ascending.
    start: Vec<u32>,
    links: Vec<u32>,
}

impl Choices {
    /// The links out of each node that start a shortest path toward the destination whose
    /// costs are `dist`.
    fn of(edges: &[Edge], outgoing: &[Vec<u32>], dist: &[Cost], metric: RouteMetric) -> Choices {
        let mut c = Choices {
            start: Vec::with_capacity(dist.len() + 1),
            links: Vec::new(),
        };
        for (node, out) in outgoing.iter().enumerate() {
            c.start
                .push(u32::try_from(c.links.len()).expect("choices fit u32"));
            let here = dist[node];
            if here.0 == u64::MAX || here == (0, 0) {
                continue;
            }
            for &link in out {
                let e = &edges[link as usize];
                let there = dist[e.to as usize];
                if there.0 == u64::MAX {
                    continue;
                }
                let (c1, c2) = cost_of(e, metric);
                if (there.0.saturating_add(c1), there.1.saturating_add(c2)) == here {
                    c.links.push(link);
                }
            }
        }
        c.start
            .push(u32::try_from(c.links.len()).expect("choices fit u32"));
        c
    }

    #[inline]
    fn at(&self, node: u32) -> &[u32] {
        let n = node as usize;
        match self.start.get(n..n + 2) {
            Some(&[a, b]) => &self.links[a as usize..b as usize],
            _ => &[],
        }
    }
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
    /// With multipath routing, `choices[node]`: every node's equal-cost next hops toward
    /// `node` (empty where `tables[node]` is, and for every node without multipath).
    choices: Vec<Choices>,
    multipath: Multipath,
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
        Routes::build_over(
            n_nodes,
            edges,
            incoming,
            dsts,
            metric,
            None,
            Multipath::None,
        )
    }

    /// [`Routes::build`] over the links whose entry in `up` is true (all when `None`), keeping
    /// the equal-cost choices when `multipath` asks for them. A destination counts as a leaf
    /// only through links that are up.
    #[must_use]
    pub fn build_over(
        n_nodes: usize,
        edges: &[Edge],
        incoming: &[Vec<u32>],
        dsts: &[u32],
        metric: RouteMetric,
        up: Option<&[bool]>,
        multipath: Multipath,
    ) -> Routes {
        let mut routes = Routes {
            tables: vec![Vec::new(); n_nodes],
            leaf: vec![(NO_ROUTE, NO_ROUTE); n_nodes],
            choices: if multipath == Multipath::None {
                Vec::new()
            } else {
                vec![Choices::default(); n_nodes]
            },
            multipath,
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
            routes.table_toward(edges, incoming, &outgoing, a, metric, up);
        }
        routes
    }

    /// Fill the table (and the choices, with multipath) toward anchor `a`.
    fn table_toward(
        &mut self,
        edges: &[Edge],
        incoming: &[Vec<u32>],
        outgoing: &[Vec<u32>],
        a: u32,
        metric: RouteMetric,
        up: Option<&[bool]>,
    ) {
        let (next, dist) = shortest(self.leaf.len(), edges, incoming, a, metric, up);
        if self.multipath != Multipath::None {
            let choices = Choices::of(edges, outgoing, &dist, metric);
            debug_assert!((0..self.leaf.len() as u32).all(|n| choices
                .at(n)
                .first()
                .copied()
                .unwrap_or(NO_ROUTE)
                == next[n as usize]));
            self.choices[a as usize] = choices;
        }
        self.tables[a as usize] = next;
    }

    /// The multipath mode the routes were built for.
    #[must_use]
    pub fn multipath(&self) -> Multipath {
        self.multipath
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
            self.table_toward(edges, incoming, &outgoing, anchor, metric, up);
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

    /// Every link that starts a shortest path from `node` toward `dst`, ascending (empty
    /// without a route). Without multipath, the one link [`Routes::next_link`] gives.
    #[inline]
    #[must_use]
    pub fn equal_cost(&self, node: u32, dst: u32) -> &[u32] {
        let d = dst as usize;
        let (parent, _) = self.leaf[d];
        let anchor = if parent == NO_ROUTE {
            d
        } else if node == parent {
            return std::slice::from_ref(&self.leaf[d].1);
        } else {
            parent as usize
        };
        if self.multipath == Multipath::None {
            return match self.tables[anchor].get(node as usize) {
                Some(l) if *l != NO_ROUTE => std::slice::from_ref(l),
                _ => &[],
            };
        }
        self.choices[anchor].at(node)
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
            let routes = Routes::build_over(
                n,
                &edges,
                &incoming,
                &all,
                metric,
                Some(&up),
                Multipath::None,
            );
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
        let mut routes = Routes::build_over(
            n,
            &edges,
            &incoming,
            &some,
            RouteMetric::Delay,
            Some(&up),
            Multipath::Ecmp,
        );
        for d in all.iter().copied().filter(|d| !some.contains(d)) {
            routes.add_dst(&edges, &incoming, d, RouteMetric::Delay, Some(&up));
        }
        let full = Routes::build_over(
            n,
            &edges,
            &incoming,
            &all,
            RouteMetric::Delay,
            Some(&up),
            Multipath::Ecmp,
        );
        for dst in 0..n as u32 {
            for node in (0..n as u32).filter(|&x| x != dst) {
                assert_eq!(routes.next_link(node, dst), full.next_link(node, dst));
                assert_eq!(routes.equal_cost(node, dst), full.equal_cost(node, dst));
            }
        }
    }

    /// Two equal two-hop paths 0-1-3 and 0-2-3, and a longer one 0-4-5-3.
    fn diamond() -> (usize, Vec<Edge>, Vec<Vec<u32>>) {
        let duplex = [(0, 1), (0, 2), (1, 3), (2, 3), (0, 4), (4, 5), (5, 3)];
        let mut edges = Vec::new();
        for &(a, b) in &duplex {
            edges.push(Edge {
                from: a,
                to: b,
                delay: 10,
            });
            edges.push(Edge {
                from: b,
                to: a,
                delay: 10,
            });
        }
        let mut incoming = vec![Vec::new(); 6];
        for (i, e) in edges.iter().enumerate() {
            incoming[e.to as usize].push(i as u32);
        }
        (6, edges, incoming)
    }

    #[test]
    fn multipath_keeps_every_shortest_first_hop_and_only_those() {
        let (n, edges, incoming) = diamond();
        let all: Vec<u32> = (0..n as u32).collect();
        for metric in [RouteMetric::Delay, RouteMetric::Hops] {
            let single =
                Routes::build_over(n, &edges, &incoming, &all, metric, None, Multipath::None);
            let multi =
                Routes::build_over(n, &edges, &incoming, &all, metric, None, Multipath::Ecmp);
            // Links 0 (0->1) and 2 (0->2) start the two shortest paths; 8 (0->4) is longer.
            assert_eq!(multi.equal_cost(0, 3), &[0, 2]);
            assert_eq!(single.equal_cost(0, 3), &[0]);
            assert_eq!(multi.next_link(0, 3), 0);
            // One shortest path back from 3 to 0 through each of 1 and 2.
            assert_eq!(multi.equal_cost(3, 0), &[5, 7]);
            assert_eq!(multi.equal_cost(4, 3), &[10]);
            for dst in 0..n as u32 {
                for node in (0..n as u32).filter(|&x| x != dst) {
                    assert_eq!(multi.equal_cost(node, dst)[0], single.next_link(node, dst));
                }
            }
        }
        // With 0->1 down, one choice remains.
        let mut up = vec![true; edges.len()];
        up[0] = false;
        let multi = Routes::build_over(
            n,
            &edges,
            &incoming,
            &all,
            RouteMetric::Delay,
            Some(&up),
            Multipath::Ecmp,
        );
        assert_eq!(multi.equal_cost(0, 3), &[2]);
    }

    #[test]
    fn the_ecmp_hash_splits_flows_as_a_fair_die_would() {
        // 40 000 flows over 4 choices: each count is binomial(40 000, 1/4), standard
        // deviation sqrt(n p (1 - p)) = 86.6; allow 5 of them.
        for node in [3u32, 17] {
            let mut counts = [0u32; 4];
            for f in 0..40_000u32 {
                let h = ecmp_hash(0xC0FFEE, node, (f % 200, f), (200 + f % 97, 1_000_000 + f));
                counts[pick(h, 4)] += 1;
            }
            for c in counts {
                assert!((f64::from(c) - 10_000.0).abs() < 5.0 * 86.6, "{counts:?}");
            }
        }
        // Successive nodes choose independently: the pair of choices at nodes 3 and 17 is
        // uniform over 16 cells (binomial(40 000, 1/16), sd 48.4).
        let mut cells = [0u32; 16];
        for f in 0..40_000u32 {
            let a = pick(ecmp_hash(9, 3, (1, f), (2, 7)), 4);
            let b = pick(ecmp_hash(9, 17, (1, f), (2, 7)), 4);
            cells[a * 4 + b] += 1;
        }
        for c in cells {
            assert!((f64::from(c) - 2500.0).abs() < 5.0 * 48.4, "{cells:?}");
        }
    }
}
