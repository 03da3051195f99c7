//! The capacity of a cut through a fabric, for a workload's `load_of = "bisection"`
//! (docs/datacenter.md): the maximum flow from one set of hosts to another over the links'
//! rates, a duplex link carrying its rate each way. By the max-flow min-cut theorem this is
//! the capacity of the narrowest cut that separates the two sets, which for the halves of a
//! fabric's hosts is its bisection bandwidth (one direction). Dinic's algorithm (E. A. Dinic,
//! "Algorithm for solution of a problem of maximum flow in a network with power estimation",
//! Soviet Math. Doklady 11, 1970): breadth-first levels, then blocking flows along them.

use std::collections::{BTreeMap, VecDeque};

/// One arc of the residual network: its head, its residual capacity (bit/s) and the index of
/// its reverse arc.
struct Arc {
    to: usize,
    residual: u64,
    reverse: usize,
}

/// The residual network of the links, with a source and a sink.
struct Network {
    arcs: Vec<Arc>,
    /// The arcs leaving each vertex.
    out: Vec<Vec<usize>>,
}

impl Network {
    fn new(vertices: usize) -> Network {
        Network {
            arcs: Vec::new(),
            out: vec![Vec::new(); vertices],
        }
    }

    fn add(&mut self, from: usize, to: usize, capacity: u64) {
        let k = self.arcs.len();
        self.arcs.push(Arc {
            to,
            residual: capacity,
            reverse: k + 1,
        });
        self.arcs.push(Arc {
            to: from,
            residual: 0,
            reverse: k,
        });
        self.out[from].push(k);
        self.out[to].push(k + 1);
    }

    /// The largest flow from `source` to `sink`.
    fn max_flow(&mut self, source: usize, sink: usize) -> u64 {
        let n = self.out.len();
        let mut total: u64 = 0;
        loop {
            // Levels by breadth-first search over arcs with residual capacity.
            let mut level = vec![usize::MAX; n];
            level[source] = 0;
            let mut queue = VecDeque::from([source]);
            while let Some(v) = queue.pop_front() {
                for &a in &self.out[v] {
                    let w = self.arcs[a].to;
                    if self.arcs[a].residual > 0 && level[w] == usize::MAX {
                        level[w] = level[v] + 1;
                        queue.push_back(w);
                    }
                }
            }
            if level[sink] == usize::MAX {
                return total;
            }
            // A blocking flow along the level graph, each vertex's next arc kept across paths.
            let mut next = vec![0usize; n];
            loop {
                let pushed = self.augment(source, sink, u64::MAX, &level, &mut next);
                if pushed == 0 {
                    break;
                }
                total = total.saturating_add(pushed);
            }
        }
    }

    /// One augmenting path of the level graph from `v`, at most `limit`; the flow it carries.
    /// Iterative, so that a deep fabric cannot exhaust the stack.
    fn augment(
        &mut self,
        source: usize,
        sink: usize,
        limit: u64,
        level: &[usize],
        next: &mut [usize],
    ) -> u64 {
        let mut path: Vec<usize> = Vec::new();
        let mut v = source;
        loop {
            if v == sink {
                let pushed = path
                    .iter()
                    .map(|&a| self.arcs[a].residual)
                    .fold(limit, u64::min);
                for &a in &path {
                    self.arcs[a].residual -= pushed;
                    let r = self.arcs[a].reverse;
                    self.arcs[r].residual += pushed;
                }
                return pushed;
            }
            let mut advanced = false;
            while next[v] < self.out[v].len() {
                let a = self.out[v][next[v]];
                let w = self.arcs[a].to;
                if self.arcs[a].residual > 0 && level[w] == level[v] + 1 {
                    path.push(a);
                    v = w;
                    advanced = true;
                    break;
                }
                next[v] += 1;
            }
            if !advanced {
                // A dead end: retreat, and never try the arc into it again this phase.
                let Some(a) = path.pop() else {
                    return 0;
                };
                v = self.arcs[self.arcs[a].reverse].to;
                next[v] += 1;
            }
        }
    }
}

/// The capacity, bit/s, of the narrowest cut between the nodes `from` and the nodes `to` of
/// the duplex `links` (two ends and a rate, bit/s, each way): the largest flow from the first
/// set to the second. Names that no link joins carry nothing.
#[must_use]
pub fn cut_bps(links: &[(&str, &str, u64)], from: &[String], to: &[String]) -> u64 {
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for &(a, b, _) in links {
        for n in [a, b] {
            let next = index.len();
            index.entry(n).or_insert(next);
        }
    }
    let (source, sink) = (index.len(), index.len() + 1);
    let mut net = Network::new(index.len() + 2);
    for &(a, b, rate) in links {
        let (a, b) = (index[a], index[b]);
        net.add(a, b, rate);
        net.add(b, a, rate);
    }
    for h in from {
        if let Some(&v) = index.get(h.as_str()) {
            net.add(source, v, u64::MAX / 4);
        }
    }
    for h in to {
        if let Some(&v) = index.get(h.as_str()) {
            net.add(v, sink, u64::MAX / 4);
        }
    }
    net.max_flow(source, sink)
}

#[cfg(test)]
mod tests {
    use super::Network;

    #[test]
    fn a_textbook_network_has_its_known_maximum_flow() {
        // The network of Cormen et al., Introduction to Algorithms, 3rd ed., figure 26.1, whose
        // maximum flow is 23 (figure 26.6).
        let (s, v1, v2, v3, v4, t) = (0, 1, 2, 3, 4, 5);
        let mut net = Network::new(6);
        for (a, b, c) in [
            (s, v1, 16),
            (s, v2, 13),
            (v2, v1, 4),
            (v1, v3, 12),
            (v3, v2, 9),
            (v2, v4, 14),
            (v4, v3, 7),
            (v3, t, 20),
            (v4, t, 4),
        ] {
            net.add(a, b, c);
        }
        assert_eq!(net.max_flow(s, t), 23);
    }

    #[test]
    fn a_disconnected_sink_receives_nothing() {
        let mut net = Network::new(3);
        net.add(0, 1, 5);
        assert_eq!(net.max_flow(0, 2), 0);
    }
}
