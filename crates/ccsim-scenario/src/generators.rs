//! Traffic generators at run time (`[[traffic]]`, [`crate::spec::traffic`]): voice and
//! streaming sources built with the simulation, web transfers created at their Poisson
//! arrival instants while the run goes on and retired when they complete, so that memory
//! follows the transfers alive at once, not all those ever started.
//!
//! A web transfer's slowdown is its completion time over the completion time of the same
//! transfer alone on an empty network: the same path (the links of its route each way when it
//! started: its ECMP path with `multipath = "ecmp"`, and with `"spray"` every equal-cost path,
//! sprayed over as in the run) and the same protocol settings, simulated by itself once the
//! transfer has completed (so that work is never spent on transfers the run itself does not
//! finish).
//! CHOICE: a transfer that started with no route (a failure, rerouted tables) is compared with
//! its run on the whole topology, every link up.
//! The engine stops the moment a sender finishes ([`ccsim_engine::Sim::set_stop_on_finish`]),
//! so a transfer is retired at that instant whatever the run's chunking.
//! CHOICE: the empty network keeps the links' rates, delays and queues but not their random
//! loss, and its routes are those in force when the transfer starts.
//! CHOICE: a transfer's completion time runs from its start to the sender's receipt of the
//! acknowledgement of its last byte (the TCP sender's `completed_at`), as for `[[flows]]`.
//! CHOICE: web sizes are application bytes drawn from a Pareto law with the given mean and
//! shape (x_m = mean (shape - 1) / shape, as ns-2's `RandomVariable/Pareto`), rounded to the
//! byte, at least one byte; the sender and the receiver are drawn uniformly from `from` and
//! `to`, all from the generator's own random stream.
//! CHOICE: a `flows` generator offers `load` times the sum of its hosts' link rates in
//! application bytes (HPCC's traffic generator states load the same way, from the CDF's mean):
//! arrivals at rate `load * sum(rates) / (8 * mean size)` per second (divided by `fan_in` for
//! incast, whose arrivals carry `fan_in` flows each); a sender is drawn in proportion to its
//! host's rate, the receiver uniformly among the other hosts (all-to-all), as its image under
//! one derangement of the hosts drawn at the start, uniform among derangements (permutation),
//! or, for incast, one receiver uniformly and `fan_in` distinct senders uniformly among the
//! rest, all sending one drawn size.
//! CHOICE: empty-network completion times are cached by (generator, the links' settings along
//! both routes, size): flows of the same size on paths alike (every inter-pod path of a
//! fat-tree) are simulated alone once. The cache holds at most [`IDEAL_CACHE_ENTRIES`] and is
//! cleared when full.
//! CHOICE: voice and streaming source k runs from `from[k mod len]` to `to[k mod len]` and
//! starts at the generator's start plus a uniform fraction of one packet interval, so that
//! sources do not send in lockstep (ns-2's CBR `random_ 1` jitters every interval instead).

use std::collections::{BTreeMap, HashMap};

use ccsim_core::{Addr, AgentStats, Dur, FlowId, RngStream, SimTime};
use ccsim_engine::{LinkId, NodeId, SeriesConfig};
use ccsim_protocols::{AnyAgent, Departures, UdpConfig, UdpSink, UdpSource};

use crate::capture::{number_tcp_flow, TcpFlows};
use crate::error::ScenarioError;
use crate::netsim::{add_agent_pair, NetSim, RunOptions};
use crate::paths::FlowPath;
use crate::protocols::assist::{assisted, RouterPlan};
use crate::protocols::{add_flow_agents, after_routes};
use crate::spec::traffic::{ArrivalLaw, Pattern, DEFAULT_FAN_IN, DEFAULT_LOGNORMAL_SIGMA};
use crate::spec::{FlowSpec, Spec, TrafficKind};
use crate::summary::{percentiles, slowdown_buckets, FlowSummary, TrafficSummary, WebTransfers};
use crate::units::{BytesStr, DurStr};
use crate::workloads::FlowSizes;

/// One flow a generator made.
#[derive(Clone, Debug)]
pub struct GeneratedFlow {
    /// Index of its generator in `spec.traffic`.
    pub generator: usize,
    /// Its number in its generator: its name is "<generator>/<k>".
    pub k: u64,
    /// Start, ns.
    pub start_ns: u64,
    /// Application bytes (web transfers).
    pub size: Option<u64>,
    /// Its flow id.
    pub flow: FlowId,
    /// Sender agent.
    pub sender: Addr,
    /// Receiver agent.
    pub receiver: Addr,
    /// The sender's counters when it was retired.
    pub sender_stats: Option<AgentStats>,
    /// The receiver's counters when it was retired.
    pub receiver_stats: Option<AgentStats>,
    /// Completion time of the same transfer alone on an empty network, ns (web).
    pub ideal_fct_ns: Option<u64>,
    /// Its path when it started, with multipath routing.
    pub path: Option<FlowPath>,
    /// Its flow's final counters, once it was closed and its slot handed on
    /// ([`ccsim_engine::Sim::close_flow`]).
    pub final_stats: Option<Box<ccsim_engine::FlowStats>>,
}

impl GeneratedFlow {
    /// A flow just made, with nothing measured yet.
    fn new(
        generator: usize,
        k: u64,
        start_ns: u64,
        size: Option<u64>,
        flow: FlowId,
        (sender, receiver): (Addr, Addr),
    ) -> GeneratedFlow {
        GeneratedFlow {
            generator,
            k,
            start_ns,
            size,
            flow,
            sender,
            receiver,
            sender_stats: None,
            receiver_stats: None,
            ideal_fct_ns: None,
            path: None,
            final_stats: None,
        }
    }

    /// "<generator>/<k>".
    #[must_use]
    pub fn name(&self, spec: &Spec) -> String {
        format!("{}/{}", spec.traffic[self.generator].name, self.k)
    }

    /// Its flow's counters: final once closed, else the simulation's.
    #[must_use]
    pub fn stats<'a>(&'a self, sim: &'a NetSim) -> &'a ccsim_engine::FlowStats {
        self.final_stats
            .as_deref()
            .unwrap_or(&sim.flow_stats()[self.flow.0 as usize])
    }

    /// Completion time, ns, if the transfer completed.
    #[must_use]
    pub fn fct_ns(&self) -> Option<u64> {
        self.sender_stats
            .and_then(|s| s.completed_at)
            .map(|t| t.0 - self.start_ns)
    }
}

/// What a live web transfer needs for its empty-network completion time once it completes.
struct LiveTransfer {
    row: usize,
    flow: FlowSpec,
    from: NodeId,
    to: NodeId,
    /// Its route each way when it started.
    forward: Vec<LinkId>,
    back: Vec<LinkId>,
}

/// A node that sends or receives, with its name.
type Endpoint = (NodeId, String);

/// How a generator draws flow sizes.
enum SizeLaw {
    /// Web: Pareto with scale x_m and shape.
    Pareto { scale: f64, shape: f64 },
    /// Flows: an empirical CDF.
    Cdf(FlowSizes),
    /// Flows of a `flow_file`: each carries its size.
    Listed,
}

/// Who sends to whom.
enum Ends {
    /// Web: sender uniform over `from`, receiver over `to`.
    Uniform {
        from: Vec<(NodeId, String)>,
        to: Vec<(NodeId, String)>,
    },
    /// Flows: the hosts, their cumulative rates (the sender's draw), and the pattern.
    Hosts {
        hosts: Vec<(NodeId, String)>,
        cumulative: Vec<f64>,
        pattern: HostPattern,
    },
    /// A `flow_file`: the hosts its places name, and the next listed flow to start.
    Listed {
        hosts: Vec<(NodeId, String)>,
        next: usize,
    },
}

enum HostPattern {
    AllToAll,
    /// Host i sends to `image[i]`.
    Permutation {
        image: Vec<usize>,
    },
    Incast {
        fan_in: usize,
    },
}

/// The state of one generator that creates transfers while the run goes on.
struct Web {
    generator: usize,
    rng: RngStream,
    /// Next arrival, ns (`u64::MAX` when the generator is done).
    next_at: u64,
    /// No arrival at or after this instant, ns.
    stop_at: u64,
    /// Mean gap between arrivals, ns.
    mean_gap_ns: f64,
    /// Log-normal gaps' shape (`None`: exponential gaps).
    sigma: Option<f64>,
    sizes: SizeLaw,
    ends: Ends,
    template: FlowSpec,
    started: u64,
}

impl Web {
    /// The state of `[[traffic]]` entry `i`, a `flows` generator, at its start: hosts by
    /// `node`, arrivals until `stop_at`.
    fn workload(
        spec: &Spec,
        i: usize,
        mut rng: RngStream,
        node: &dyn Fn(&str) -> NodeId,
        stop_at: u64,
    ) -> Result<Web, ScenarioError> {
        let t = &spec.traffic[i];
        let template = t.web_template(i)?;
        let names = t.host_names(spec);
        if let Some(list) = &t.flow_file {
            let mut w = Web {
                generator: i,
                rng,
                next_at: u64::MAX,
                stop_at,
                mean_gap_ns: 0.0,
                sigma: None,
                sizes: SizeLaw::Listed,
                ends: Ends::Listed {
                    hosts: names.iter().map(|n| (node(n), n.clone())).collect(),
                    next: 0,
                },
                template,
                started: 0,
            };
            w.next_at = list.first().map_or(u64::MAX, |f| f.3);
            if w.next_at >= stop_at {
                w.next_at = u64::MAX;
            }
            return Ok(w);
        }
        let cdf = t
            .flow_sizes()
            .ok_or_else(|| ScenarioError::Internal("flow sizes".into()))?;
        let rates = crate::spec::TrafficSpec::host_rates(spec, &names);
        let mut cumulative = Vec::with_capacity(rates.len());
        let mut total = 0.0;
        for r in &rates {
            total += *r as f64;
            cumulative.push(total);
        }
        let offered = t.offered_bytes_per_s(spec, &names, &rates);
        let pattern = match t.pattern.unwrap_or_default() {
            Pattern::AllToAll => HostPattern::AllToAll,
            Pattern::Permutation => HostPattern::Permutation {
                image: derangement(&mut rng, names.len()),
            },
            Pattern::Incast => HostPattern::Incast {
                fan_in: t.fan_in.unwrap_or(DEFAULT_FAN_IN) as usize,
            },
        };
        let per_arrival = match pattern {
            HostPattern::Incast { fan_in } => fan_in as f64,
            _ => 1.0,
        };
        let arrivals_per_s = offered / cdf.mean().max(1.0) / per_arrival;
        let sigma = (t.arrival == Some(ArrivalLaw::Lognormal))
            .then(|| t.sigma.unwrap_or(DEFAULT_LOGNORMAL_SIGMA));
        let mut w = Web {
            generator: i,
            rng,
            next_at: u64::MAX,
            stop_at,
            mean_gap_ns: 1e9 / arrivals_per_s.max(1e-9),
            sigma,
            sizes: SizeLaw::Cdf(cdf),
            ends: Ends::Hosts {
                hosts: names.iter().map(|n| (node(n), n.clone())).collect(),
                cumulative,
                pattern,
            },
            template,
            started: 0,
        };
        let first = t.start.0 .0.saturating_add(w.gap());
        w.next_at = if first < stop_at { first } else { u64::MAX };
        Ok(w)
    }

    /// The gap to the next arrival, ns.
    fn gap(&mut self) -> u64 {
        match self.sigma {
            None => draw(&mut self.rng, self.mean_gap_ns),
            Some(sigma) => whole_ns(self.rng.lognormal(self.mean_gap_ns, sigma).round()),
        }
    }

    /// Set `next_at` to the arrival after the one at `next_at`.
    fn advance(&mut self, spec: &Spec) {
        let next = match &self.ends {
            Ends::Listed { next, .. } => spec.traffic[self.generator]
                .flow_file
                .as_ref()
                .and_then(|list| list.get(*next))
                .map_or(u64::MAX, |f| f.3),
            _ => self.next_at.saturating_add(self.gap().max(1)),
        };
        self.next_at = if next < self.stop_at { next } else { u64::MAX };
    }

    /// The (sender, receiver, size) of each flow of one arrival: for a `flow_file`, every
    /// listed flow that starts at `next_at`.
    fn arrival(&mut self, spec: &Spec) -> Vec<(Endpoint, Endpoint, u64)> {
        let Web {
            rng,
            sizes,
            ends,
            generator,
            next_at,
            ..
        } = self;
        match ends {
            Ends::Listed { hosts, next } => {
                let list = spec.traffic[*generator].flow_file.as_deref().unwrap_or(&[]);
                let mut out = Vec::new();
                while let Some(&(from, to, bytes, start)) = list.get(*next) {
                    if start > *next_at {
                        break;
                    }
                    *next += 1;
                    out.push((
                        hosts[from as usize].clone(),
                        hosts[to as usize].clone(),
                        bytes,
                    ));
                }
                out
            }
            Ends::Uniform { from, to } => {
                let a = from[rng.below(from.len() as u64) as usize].clone();
                let b = to[rng.below(to.len() as u64) as usize].clone();
                let size = sizes.draw(rng);
                vec![(a, b, size)]
            }
            Ends::Hosts {
                hosts,
                cumulative,
                pattern,
            } => {
                let n = hosts.len();
                let weighted = |rng: &mut RngStream| -> usize {
                    let x = rng.uniform() * cumulative[n - 1];
                    cumulative.partition_point(|&c| c <= x).min(n - 1)
                };
                let other = |rng: &mut RngStream, not: usize| -> usize {
                    let k = rng.below(n as u64 - 1) as usize;
                    if k >= not {
                        k + 1
                    } else {
                        k
                    }
                };
                let pairs: Vec<(usize, usize)> = match pattern {
                    HostPattern::AllToAll => {
                        let a = weighted(rng);
                        vec![(a, other(rng, a))]
                    }
                    HostPattern::Permutation { image } => {
                        let a = weighted(rng);
                        vec![(a, image[a])]
                    }
                    HostPattern::Incast { fan_in } => {
                        let b = rng.below(n as u64) as usize;
                        let mut senders: Vec<usize> = Vec::with_capacity(*fan_in);
                        while senders.len() < *fan_in {
                            let a = other(rng, b);
                            if !senders.contains(&a) {
                                senders.push(a);
                            }
                        }
                        senders.into_iter().map(|a| (a, b)).collect()
                    }
                };
                let size = sizes.draw(rng);
                pairs
                    .into_iter()
                    .map(|(a, b)| (hosts[a].clone(), hosts[b].clone(), size))
                    .collect()
            }
        }
    }
}

impl SizeLaw {
    fn draw(&self, rng: &mut RngStream) -> u64 {
        match self {
            SizeLaw::Pareto { scale, shape } => {
                let u = 1.0 - rng.uniform();
                let size = (scale * u.powf(-1.0 / shape)).round();
                if size < 1.0 {
                    1
                } else if size < 1.8e19 {
                    size as u64
                } else {
                    u64::MAX
                }
            }
            SizeLaw::Cdf(cdf) => cdf.draw(rng),
            SizeLaw::Listed => unreachable!("invariant: a flow file's flows carry their sizes"),
        }
    }
}

/// A uniformly random derangement of `0..n` (`n >= 2`): Fisher-Yates shuffles drawn until
/// one has no fixed point (about e of them on average).
fn derangement(rng: &mut RngStream, n: usize) -> Vec<usize> {
    loop {
        let mut image: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            image.swap(i, j);
        }
        if image.iter().enumerate().all(|(i, &j)| i != j) {
            return image;
        }
    }
}

/// A generator's transfers folded into what its summary needs, once their rows are given up
/// (`[output] generated_rows = false`): 8 bytes per completed transfer for its completion time
/// and 16 for its size and slowdown, nothing per transfer for the counters.
#[derive(Clone, Debug, Default)]
struct Tally {
    started: u64,
    sent_packets: u64,
    delivered_packets: u64,
    dropped_packets: u64,
    delivered_delay_ns: u128,
    app_bytes_delivered: u64,
    bytes_started: u64,
    fcts_s: Vec<f64>,
    /// (size, slowdown) of the completed transfers that have a slowdown.
    slowdowns: Vec<(u64, f64)>,
}

impl Tally {
    fn add(&mut self, f: &GeneratedFlow, sim: &NetSim) {
        let s = f.stats(sim);
        self.started += 1;
        self.sent_packets += s.sent_packets;
        self.delivered_packets += s.delivered_packets;
        self.dropped_packets += s.dropped_packets;
        self.delivered_delay_ns += s.delivered_delay_ns;
        self.app_bytes_delivered += f.receiver_stats.map_or(0, |r| r.app_bytes_delivered);
        self.bytes_started += f.size.unwrap_or(0);
        if let Some(fct) = f.fct_ns() {
            self.fcts_s.push(fct as f64 / 1e9);
        }
        if let (Some(size), Some(x)) = (f.size, f.slowdown()) {
            self.slowdowns.push((size, x));
        }
    }
}

/// Every generator of a run and the flows they made.
#[derive(Default)]
pub struct Generators {
    web: Vec<Web>,
    /// Every generated flow whose row is kept, in creation order.
    pub flows: Vec<GeneratedFlow>,
    /// Whether the transfers' rows are kept (`[output] generated_rows`, default true).
    keep_rows: bool,
    /// Without rows: the transfers not yet folded, by their number in creation order.
    unfolded: HashMap<usize, GeneratedFlow>,
    /// Without rows: the next transfer's number.
    next_row: usize,
    /// Without rows: each generator's folded transfers.
    folded: BTreeMap<usize, Tally>,
    /// Each live web transfer, by its sender's agent id.
    live: HashMap<u32, LiveTransfer>,
    /// Flows closed whose last packet may still be in the network: their rows, by flow id.
    closing: HashMap<u32, usize>,
    /// Whether generated flows are in the time series (`output.per_flow_series = true`).
    sampled: bool,
    /// The pcap captures' TCP byte numbering, when the run captures links.
    pub tcp_flows: Option<TcpFlows>,
    /// Each distinct path class (the links' settings along both routes), numbered.
    path_classes: HashMap<String, u32>,
    /// Empty-network completion times by (generator, path class, size).
    ideal_cache: HashMap<(usize, u32, u64), Option<u64>>,
    /// Per generator: (empty-network runs simulated, completion times found in the cache).
    ideal_counts: BTreeMap<usize, (u64, u64)>,
}

/// Most entries the empty-network cache holds before it is cleared.
pub const IDEAL_CACHE_ENTRIES: usize = 1 << 20;

impl Generators {
    /// Build the voice and streaming sources and prepare the web generators.
    pub(crate) fn build(
        spec: &Spec,
        sim: &mut NetSim,
        node: &dyn Fn(&str) -> NodeId,
        options: &RunOptions,
    ) -> Result<Generators, ScenarioError> {
        let mut g = Generators {
            sampled: spec.output.per_flow_series == Some(true),
            keep_rows: spec.output.generated_rows != Some(false),
            ..Generators::default()
        };
        let end = spec.run.duration.0 .0;
        for (i, t) in spec.traffic.iter().enumerate() {
            let stop_at = t.stop.map_or(end, |s| s.0 .0.min(end));
            let packet_size = u32::try_from(t.packet_size())
                .map_err(|_| ScenarioError::Internal("packet size".into()))?;
            let mut rng = RngStream::new(spec.run.seed, &format!("traffic/{}", t.name));
            match t.kind {
                TrafficKind::Web => {
                    let template = t.web_template(i)?;
                    let mean = t.mean_size.map_or(1.0, |b| b.0 .0 as f64);
                    let shape = t.shape();
                    let rate = t.arrivals.unwrap_or(1.0);
                    let mean_gap_ns = 1e9 / rate;
                    let first = t.start.0 .0.saturating_add(draw(&mut rng, mean_gap_ns));
                    let nodes = |names: &[String]| -> Vec<(NodeId, String)> {
                        names.iter().map(|n| (node(n), n.clone())).collect()
                    };
                    g.web.push(Web {
                        generator: i,
                        rng,
                        next_at: if first < stop_at { first } else { u64::MAX },
                        stop_at,
                        mean_gap_ns,
                        sigma: None,
                        sizes: SizeLaw::Pareto {
                            scale: mean * (shape - 1.0) / shape,
                            shape,
                        },
                        ends: Ends::Uniform {
                            from: nodes(&t.from),
                            to: nodes(&t.to),
                        },
                        template,
                        started: 0,
                    });
                }
                TrafficKind::Flows => g.web.push(Web::workload(spec, i, rng, node, stop_at)?),
                TrafficKind::Voice | TrafficKind::Streaming => {
                    let cfg = UdpConfig {
                        rate: ccsim_core::Rate(t.rate_bps()),
                        packet_size,
                    };
                    let departures = if t.kind == TrafficKind::Voice {
                        let (mean_on, mean_off) = t.on_off();
                        Departures::OnOff { mean_on, mean_off }
                    } else {
                        Departures::Constant
                    };
                    let interval_ns =
                        u128::from(packet_size) * 8 * 1_000_000_000 / u128::from(t.rate_bps());
                    for k in 0..t.count.unwrap_or(0) as usize {
                        let (from, to) = (&t.from[k % t.from.len()], &t.to[k % t.to.len()]);
                        let name = format!("{}/{k}", t.name);
                        let flow = if g.sampled {
                            sim.add_flow(&name)
                        } else {
                            sim.add_flow_unsampled(&name)
                        };
                        let phase = (rng.uniform() * interval_ns as f64) as u64;
                        let start = t.start.0 .0.saturating_add(phase).min(end);
                        let (s, r) = add_agent_pair(
                            sim,
                            flow,
                            &name,
                            (node(from), node(to)),
                            SimTime(start),
                            |receiver| {
                                Ok((
                                    AnyAgent::Udp(UdpSource::new(flow, receiver, cfg, departures)),
                                    AnyAgent::UdpSink(UdpSink::new(options.record_arrivals)),
                                ))
                            },
                        )?;
                        if stop_at < end {
                            sim.schedule_stop(s, SimTime(stop_at));
                        }
                        g.flows
                            .push(GeneratedFlow::new(i, k as u64, start, None, flow, (s, r)));
                    }
                }
            }
        }
        Ok(g)
    }

    /// Whether any generator creates flows during the run.
    #[must_use]
    pub fn creates_flows(&self) -> bool {
        !self.web.is_empty()
    }

    /// The next instant a web generator creates a flow (`u64::MAX` when none will).
    #[must_use]
    pub fn next_arrival(&self) -> u64 {
        self.web.iter().map(|w| w.next_at).min().unwrap_or(u64::MAX)
    }

    /// Create the transfers due at `now` (the simulation stands at `now`).
    pub(crate) fn spawn_due(
        &mut self,
        spec: &Spec,
        sim: &mut NetSim,
        options: &RunOptions,
    ) -> Result<(), ScenarioError> {
        let now = sim.now().0;
        for w in &mut self.web {
            while w.next_at <= now {
                for ((a, from), (b, to), size) in w.arrival(spec) {
                    let k = w.started;
                    w.started += 1;
                    let name = format!("{}/{k}", spec.traffic[w.generator].name);
                    let mut f = w.template.clone();
                    f.name.clone_from(&name);
                    f.from = from;
                    f.to = to;
                    f.size = Some(BytesStr(ccsim_core::Bytes(size)));
                    f.start = DurStr(Dur(now));
                    let flow = if self.sampled {
                        sim.add_flow(&name)
                    } else {
                        sim.add_flow_unsampled(&name)
                    };
                    let path = format!("traffic[{}]", w.generator);
                    let (s, r) = add_flow_agents(sim, &f, flow, &name, (a, b), options, &path)?;
                    if let Some(flows) = &self.tcp_flows {
                        number_tcp_flow(flows, flow, &f);
                    }
                    after_routes(&f, sim, a, b, s);
                    let row = if self.keep_rows {
                        self.flows.len()
                    } else {
                        self.next_row += 1;
                        self.next_row - 1
                    };
                    self.live.insert(
                        s.agent,
                        LiveTransfer {
                            row,
                            forward: alone_links(sim, s, r),
                            back: alone_links(sim, r, s),
                            flow: f,
                            from: a,
                            to: b,
                        },
                    );
                    let mut record =
                        GeneratedFlow::new(w.generator, k, now, Some(size), flow, (s, r));
                    record.path = FlowPath::of(sim, s, r);
                    if self.keep_rows {
                        self.flows.push(record);
                    } else {
                        self.unfolded.insert(row, record);
                    }
                }
                w.advance(spec);
            }
        }
        Ok(())
    }

    /// Retire the web transfers whose senders have finished, keeping their counters, and
    /// find each one's completion time on the empty network.
    pub(crate) fn retire_finished(&mut self, spec: &Spec, sim: &mut NetSim, options: &RunOptions) {
        self.collect_closed(sim);
        for addr in sim.take_finished() {
            let Some(t) = self.live.remove(&addr.agent) else {
                continue;
            };
            let keep_rows = self.keep_rows;
            let Some(f) = (if keep_rows {
                self.flows.get_mut(t.row)
            } else {
                self.unfolded.get_mut(&t.row)
            }) else {
                continue;
            };
            f.sender_stats = sim.retire_agent(f.sender);
            f.receiver_stats = sim.retire_agent(f.receiver);
            // Without pcap captures (which number TCP bytes by flow id) the flow's slot is
            // handed on once its last packet has left; without rows, the transfer is folded
            // then (or now, if its slot is kept).
            let closing = self.tcp_flows.is_none() && sim.close_flow(f.flow);
            if closing {
                self.closing.insert(f.flow.0, t.row);
            }
            if f.fct_ns().is_some() {
                let classes = self.path_classes.len() as u32;
                let class = *self
                    .path_classes
                    .entry(path_class(spec, sim, &t))
                    .or_insert(classes);
                let key = (f.generator, class, f.size.unwrap_or(0));
                let counts = self.ideal_counts.entry(f.generator).or_default();
                f.ideal_fct_ns = if let Some(&known) = self.ideal_cache.get(&key) {
                    counts.1 += 1;
                    known
                } else {
                    if self.ideal_cache.len() >= IDEAL_CACHE_ENTRIES {
                        self.ideal_cache.clear();
                    }
                    counts.0 += 1;
                    let ideal = ideal_fct(spec, sim, &t, options);
                    self.ideal_cache.insert(key, ideal);
                    ideal
                };
            }
            if !keep_rows && !closing {
                self.fold(t.row, sim);
            }
        }
    }

    /// Without rows: fold transfer `row` into its generator's tally and forget it.
    fn fold(&mut self, row: usize, sim: &NetSim) {
        if let Some(f) = self.unfolded.remove(&row) {
            self.folded.entry(f.generator).or_default().add(&f, sim);
        }
    }

    /// Note the paths of the sources built with the simulation, once its routes exist.
    pub(crate) fn note_paths(&mut self, sim: &mut NetSim) {
        for f in &mut self.flows {
            if f.path.is_none() {
                f.path = FlowPath::of(sim, f.sender, f.receiver);
            }
        }
    }

    /// Keep the final counters of the flows whose slots the simulation has handed on (and,
    /// without rows, fold them).
    pub(crate) fn collect_closed(&mut self, sim: &mut NetSim) {
        for (id, stats) in sim.take_closed_flows() {
            let Some(row) = self.closing.remove(&id.0) else {
                continue;
            };
            if self.keep_rows {
                self.flows[row].final_stats = Some(Box::new(stats));
            } else if let Some(f) = self.unfolded.get_mut(&row) {
                f.final_stats = Some(Box::new(stats));
                self.fold(row, sim);
            }
        }
    }

    /// Fill in the counters of the agents still alive at the end of the run.
    pub(crate) fn collect_live(&mut self, sim: &mut NetSim) {
        use ccsim_core::Agent;
        self.collect_closed(sim);
        for f in self.flows.iter_mut().chain(self.unfolded.values_mut()) {
            if f.sender_stats.is_none() {
                f.sender_stats = sim.agent(f.sender).map(Agent::stats);
            }
            if f.receiver_stats.is_none() {
                f.receiver_stats = sim.agent(f.receiver).map(Agent::stats);
            }
        }
        // Without rows, the transfers still going (or whose last packet is still out) are
        // folded as they stand, in creation order.
        let mut left: Vec<usize> = self.unfolded.keys().copied().collect();
        left.sort_unstable();
        for row in left {
            self.fold(row, sim);
        }
    }

    /// Web transfers started by generator `i`.
    #[must_use]
    pub fn started(&self, i: usize) -> u64 {
        self.web
            .iter()
            .find(|w| w.generator == i)
            .map_or(0, |w| w.started)
    }
}

/// An exponential draw with mean `mean_ns`, whole nanoseconds.
fn draw(rng: &mut RngStream, mean_ns: f64) -> u64 {
    whole_ns(rng.exponential(mean_ns).round())
}

/// A non-negative whole number of nanoseconds as an integer, saturating.
fn whole_ns(x: f64) -> u64 {
    if x < 1.8e19 {
        x as u64
    } else {
        u64::MAX
    }
}

/// The links a transfer from `s` to `r` has on the empty network, one direction: its own route
/// (single-path routing, or its ECMP hash's), or with spray every equal-cost path, which its
/// packets share out as they do in the run. Empty without a route.
fn alone_links(sim: &NetSim, s: Addr, r: Addr) -> Vec<LinkId> {
    if sim.multipath() == ccsim_engine::Multipath::Spray {
        sim.equal_cost_links(NodeId(s.node), NodeId(r.node))
            .unwrap_or_default()
    } else {
        sim.flow_route(s, r).unwrap_or_default()
    }
}

/// What decides a transfer's empty-network run besides its size and protocol: the settings of
/// each link of its routes, in order, and how the routes share nodes (nodes numbered in order
/// of first appearance). Transfers with the same class and size complete alike.
fn path_class(spec: &Spec, sim: &NetSim, t: &LiveTransfer) -> String {
    use std::fmt::Write;
    let mut nodes: Vec<u32> = vec![t.from.0, t.to.0];
    let mut label = |n: u32| -> usize {
        if let Some(i) = nodes.iter().position(|&x| x == n) {
            i
        } else {
            nodes.push(n);
            nodes.len() - 1
        }
    };
    let mut key = String::new();
    let every: Vec<LinkId>;
    let (forward, back): (&[LinkId], &[LinkId]) = if t.forward.is_empty() || t.back.is_empty() {
        every = (0..sim.link_count() as u32).map(LinkId).collect();
        (&every, &[])
    } else {
        (&t.forward, &t.back)
    };
    for (side, links) in [("f", forward), ("b", back)] {
        key.push_str(side);
        for &l in links {
            let (a, b) = sim.link_ends(l);
            let c = sim.link_config(l);
            let _ = write!(
                key,
                "{}>{}:{}/{}/{:?}/{:?}/{};",
                label(a.0),
                label(b.0),
                c.rate.0,
                c.delay.0,
                c.limit,
                c.discipline,
                assisted(spec, l)
            );
        }
    }
    key
}

/// Most events the empty-network run of one transfer may take before it is given up.
const IDEAL_EVENT_BUDGET: u64 = 50_000_000;

/// The completion time of a transfer alone on an empty network: the links of its route each
/// way when it started, without random loss, simulated by themselves. `None` if it has no
/// route or does not complete within [`IDEAL_EVENT_BUDGET`] events. Links keep their router
/// functions (XCP, OBP), fresh.
fn ideal_fct(spec: &Spec, sim: &NetSim, t: &LiveTransfer, options: &RunOptions) -> Option<u64> {
    let (f, from, to) = (&t.flow, t.from, t.to);
    // A transfer that started with no route (a failure, rerouted tables) is compared with its
    // run on the whole topology intact.
    let every: Vec<LinkId>;
    let (forward, back): (&[LinkId], &[LinkId]) = if t.forward.is_empty() || t.back.is_empty() {
        every = (0..sim.link_count() as u32).map(LinkId).collect();
        (&every, &[])
    } else {
        (&t.forward, &t.back)
    };
    let mut lone = NetSim::new(spec.run.seed);
    let routers = RouterPlan::of(spec);
    let mut nodes: HashMap<u32, NodeId> = HashMap::new();
    let mut node = |lone: &mut NetSim, n: u32| -> NodeId {
        *nodes
            .entry(n)
            .or_insert_with(|| lone.add_node(&format!("n{n}")))
    };
    for &l in forward.iter().chain(back) {
        let (a, b) = sim.link_ends(l);
        let mut config = sim.link_config(l).clone();
        config.loss = 0.0;
        let (a, b) = (node(&mut lone, a.0), node(&mut lone, b.0));
        let lone_link = lone.add_link(a, b, config);
        if assisted(spec, l) {
            routers.install(&mut lone, lone_link);
        }
    }
    let (a, b) = (node(&mut lone, from.0), node(&mut lone, to.0));
    let flow = lone.add_flow("lone");
    let mut lone_flow = f.clone();
    lone_flow.start = DurStr(Dur::ZERO);
    let (s, _) = add_flow_agents(
        &mut lone,
        &lone_flow,
        flow,
        "lone",
        (a, b),
        options,
        "traffic",
    )
    .ok()?;
    lone.set_route_metric(sim.route_metric());
    lone.set_multipath(sim.multipath());
    lone.build_routes();
    after_routes(&lone_flow, &mut lone, a, b, s);
    lone.configure_run(
        SimTime(u64::MAX / 2),
        SimTime::ZERO,
        SeriesConfig::default(),
    );
    let mut spent = 0;
    loop {
        use ccsim_core::Agent;
        if let Some(done) = lone.agent(s).and_then(|x| x.stats().completed_at) {
            return Some(done.0);
        }
        let p = lone.run_until_horizon(1 << 16);
        spent += 1 << 16;
        if p.done || spent > IDEAL_EVENT_BUDGET {
            return lone
                .agent(s)
                .and_then(|x| x.stats().completed_at)
                .map(|t| t.0);
        }
    }
}

impl Generators {
    /// Per generator, by name.
    #[must_use]
    pub fn summaries(&self, spec: &Spec, sim: &NetSim) -> BTreeMap<String, TrafficSummary> {
        let seconds = sim.now().as_secs_f64().max(1e-9);
        let mut out = BTreeMap::new();
        for (i, t) in spec.traffic.iter().enumerate() {
            // Without rows the folded tally is read in place: a copy would double, at the end
            // of the run, the memory the finished transfers hold.
            let empty = Tally::default();
            let mut rows = self.flows.iter().filter(|f| f.generator == i).peekable();
            let tally: std::borrow::Cow<'_, Tally> = if rows.peek().is_none() {
                std::borrow::Cow::Borrowed(self.folded.get(&i).unwrap_or(&empty))
            } else {
                let mut t = self.folded.get(&i).cloned().unwrap_or_default();
                for f in rows {
                    t.add(f, sim);
                }
                std::borrow::Cow::Owned(t)
            };
            let web = matches!(t.kind, TrafficKind::Web | TrafficKind::Flows);
            let fcts = &tally.fcts_s;
            let slowdowns: Vec<f64> = tally.slowdowns.iter().map(|&(_, x)| x).collect();
            let mean =
                |xs: &[f64]| (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64);
            let delivered = tally.delivered_packets;
            out.insert(
                t.name.clone(),
                TrafficSummary {
                    kind: t.kind.name(),
                    started: tally.started,
                    web: web.then(|| WebTransfers {
                        completed: fcts.len() as u64,
                        mean_fct_s: mean(fcts),
                        fct_s: percentiles(fcts),
                        mean_slowdown: mean(&slowdowns),
                        slowdown: percentiles(&slowdowns),
                        bytes_started: tally.bytes_started,
                    }),
                    offered_bps: (t.kind == TrafficKind::Flows && t.flow_file.is_none()).then(
                        || {
                            let hosts = t.host_names(spec);
                            let rates = crate::spec::TrafficSpec::host_rates(spec, &hosts);
                            t.offered_bytes_per_s(spec, &hosts, &rates) * 8.0
                        },
                    ),
                    alone_runs: (t.kind == TrafficKind::Flows)
                        .then(|| self.ideal_counts.get(&i).map_or(0, |c| c.0)),
                    alone_cached: (t.kind == TrafficKind::Flows)
                        .then(|| self.ideal_counts.get(&i).map_or(0, |c| c.1)),
                    slowdown_buckets: (t.kind == TrafficKind::Flows)
                        .then(|| slowdown_buckets(&tally.slowdowns)),
                    sent_packets: tally.sent_packets,
                    received_packets: delivered,
                    lost_packets: tally.dropped_packets,
                    goodput_bps: tally.app_bytes_delivered as f64 * 8.0 / seconds,
                    mean_delay_s: (delivered > 0)
                        .then(|| tally.delivered_delay_ns as f64 / 1e9 / delivered as f64),
                },
            );
        }
        out
    }

    /// Each generated flow's results, as `[[flows]]` flows have them (over the whole run).
    #[must_use]
    pub fn flow_summaries(
        &self,
        spec: &Spec,
        sim: &NetSim,
        node_names: &[String],
    ) -> Vec<FlowSummary> {
        let seconds = sim.now().as_secs_f64().max(1e-9);
        self.flows
            .iter()
            .map(|f| {
                let s = f.stats(sim);
                let t = &spec.traffic[f.generator];
                let sender = f.sender_stats.unwrap_or_default();
                let arrived = f
                    .receiver_stats
                    .map_or(0, |r| r.app_bytes_delivered + r.app_bytes_held);
                let delivered = f.receiver_stats.map_or(0, |r| r.app_bytes_delivered);
                let alive_s = f
                    .fct_ns()
                    .map_or(seconds - f.start_ns as f64 / 1e9, |n| n as f64 / 1e9);
                FlowSummary {
                    protocol: match t.kind {
                        TrafficKind::Web | TrafficKind::Flows => {
                            t.protocol.map_or("newreno", |p| p.name())
                        }
                        TrafficKind::Voice | TrafficKind::Streaming => "udp",
                    },
                    goodput_bps: delivered as f64 * 8.0 / alive_s.max(1e-9),
                    arrival_bps: arrived as f64 * 8.0 / alive_s.max(1e-9),
                    held_at_start_bytes: 0,
                    sent_packets: s.sent_packets,
                    sent_bytes: s.sent_bytes,
                    received_packets: s.delivered_packets,
                    received_bytes: s.delivered_bytes,
                    lost_packets: s.dropped_packets,
                    retransmitted_packets: s.retransmitted_packets,
                    timeouts: sender.timeouts,
                    completion_time_s: f.fct_ns().map(|n| n as f64 / 1e9),
                    greedy: false,
                    mean_delay_s: (s.delivered_packets > 0)
                        .then(|| s.delivered_delay_ns as f64 / 1e9 / s.delivered_packets as f64),
                    route: f.path.as_ref().and_then(|p| p.names(node_names)),
                    paths: f.path.as_ref().map(|p| p.paths),
                }
            })
            .collect()
    }
}

impl GeneratedFlow {
    /// Completion time over that on an empty network, if both are known.
    #[must_use]
    pub fn slowdown(&self) -> Option<f64> {
        match (self.fct_ns(), self.ideal_fct_ns) {
            (Some(fct), Some(ideal)) if ideal > 0 => Some(fct as f64 / ideal as f64),
            _ => None,
        }
    }
}

/// Most flows one flow file may list.
pub const MAX_FLOW_FILE_FLOWS: u64 = 100_000_000;

/// The flows the `flows` generator named `name` makes in a run of `spec`, in HPCC's flow-file
/// format (its `traffic_gen/README.md`): the number of flows on the first line, then one flow
/// a line, `<source host> <destination host> 3 100 <bytes> <start, seconds>`, hosts numbered by
/// their place in the generator's `hosts`, in arrival order. The draws are the run's own (its
/// seed, its generator's stream): what the run would start, before anything of the network
/// intervenes, so the same flows can be replayed in ns-3 or HPCC's simulator.
/// CHOICE: HPCC's priority group and destination port are written as its generator writes them,
/// 3 and 100; start times to the nanosecond (`%.9f`).
///
/// # Errors
/// A [`ScenarioError::Spec`] naming `traffic` when no `flows` generator has that name, or when
/// the file would list more than [`MAX_FLOW_FILE_FLOWS`] flows.
pub fn hpcc_flow_file(spec: &Spec, name: &str) -> Result<String, ScenarioError> {
    use std::fmt::Write;
    let Some(i) = spec
        .traffic
        .iter()
        .position(|t| t.name == name && t.kind == TrafficKind::Flows)
    else {
        let names: Vec<&str> = spec
            .traffic
            .iter()
            .filter(|t| t.kind == TrafficKind::Flows)
            .map(|t| t.name.as_str())
            .collect();
        return Err(ScenarioError::spec(
            "traffic",
            format!(
                "no flows generator {name:?}; the scenario has {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        ));
    };
    let t = &spec.traffic[i];
    let end = spec.run.duration.0 .0;
    let stop_at = t.stop.map_or(end, |s| s.0 .0.min(end));
    let hosts = t.host_names(spec);
    let index: HashMap<&str, u32> = hosts
        .iter()
        .enumerate()
        .map(|(k, h)| (h.as_str(), k as u32))
        .collect();
    let rng = RngStream::new(spec.run.seed, &format!("traffic/{}", t.name));
    let mut w = Web::workload(spec, i, rng, &|h: &str| NodeId(index[h]), stop_at)?;
    let mut lines = String::new();
    let mut count: u64 = 0;
    while w.next_at < u64::MAX {
        let at = w.next_at;
        for ((a, _), (b, _), size) in w.arrival(spec) {
            count += 1;
            if count > MAX_FLOW_FILE_FLOWS {
                return Err(ScenarioError::spec(
                    format!("traffic[{i}]"),
                    format!(
                        "more than {MAX_FLOW_FILE_FLOWS} flows; shorten the run or lower the load"
                    ),
                ));
            }
            let _ = writeln!(
                lines,
                "{} {} 3 100 {size} {}.{:09}",
                a.0,
                b.0,
                at / 1_000_000_000,
                at % 1_000_000_000
            );
        }
        w.advance(spec);
    }
    Ok(format!("{count}\n{lines}"))
}
