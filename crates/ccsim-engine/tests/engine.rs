//! Engine behaviour with a minimal header and agent, independent of any real protocol:
//! timer slots (re-arm, cancel), router hooks, loss accounting and routing choices.

use crate::common;

use ccsim_core::{Addr, Agent, Ctx, Dur, Ecn, FlowId, Packet, Rate, SimTime, TimerSlot};
use ccsim_engine::{LinkConfig, NodeId, QueueLimit, RouterHook, SeriesConfig, Sim, Verdict};

use common::H;

/// Scripted behaviour: at start, send `burst` packets to `peer` and arm the timer `plan`
/// (a list of (set or cancel, time) steps applied in order). Records what it sees.
#[derive(Default)]
struct Probe {
    peer: Option<Addr>,
    burst: u64,
    plan: Vec<Option<u64>>,
    /// Multicast group to join at start.
    join: Option<u32>,
    fired: Vec<u64>,
    received: Vec<(u64, u64)>,
    /// As a group relay: hand each packet on with `seq` raised by this much.
    relay_add: Option<u64>,
    /// Sources of the packets received.
    sources: Vec<Addr>,
}

impl Agent<H> for Probe {
    fn on_start<C: Ctx<H>>(&mut self, ctx: &mut C) {
        if let Some(group) = self.join {
            ctx.join_group(group);
        }
        if let Some(peer) = self.peer {
            for seq in 0..self.burst {
                ctx.send(Packet {
                    src: Addr::default(),
                    dst: peer,
                    flow: FlowId(0),
                    size: 1000,
                    sent_at: SimTime::ZERO,
                    ecn: Ecn::NotEct,
                    header: H { seq },
                });
            }
        }
        for step in self.plan.clone() {
            match step {
                Some(at) => ctx.set_timer(TimerSlot(1), SimTime(at)),
                None => ctx.cancel_timer(TimerSlot(1)),
            }
        }
    }
    fn on_packet<C: Ctx<H>>(&mut self, pkt: &Packet<H>, ctx: &mut C) {
        self.received.push((ctx.now().0, pkt.header.seq));
        self.sources.push(pkt.src);
        if let Some(k) = self.relay_add {
            let mut onward = pkt.clone();
            onward.dst = Addr::group(9);
            onward.header.seq += k;
            ctx.relay(onward);
        }
    }
    fn on_timer<C: Ctx<H>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        assert_eq!(slot, TimerSlot(1));
        self.fired.push(ctx.now().0);
    }
}

fn link(rate_bps: u64, delay_ns: u64) -> LinkConfig {
    LinkConfig {
        rate: Rate(rate_bps),
        delay: Dur(delay_ns),
        limit: QueueLimit::Packets(100),
        loss: 0.0,
        jitter: Dur::ZERO,
        discipline: ccsim_engine::Discipline::DropTail,
        trace: None,
    }
}

fn timer_run(plan: Vec<Option<u64>>) -> Vec<u64> {
    let mut sim: Sim<H, Probe> = Sim::new(1);
    let a = sim.add_node("a");
    let f = sim.add_flow("f");
    let addr = sim.add_agent(
        a,
        f,
        "probe",
        Probe {
            plan,
            ..Probe::default()
        },
    );
    sim.schedule_start(addr, SimTime(0));
    sim.build_routes();
    sim.configure_run(SimTime(1_000), SimTime(0), SeriesConfig::default());
    assert!(sim.run_until_horizon(u64::MAX).done);
    sim.agents()[0].fired.clone()
}

#[test]
fn a_timer_fires_once_at_its_deadline() {
    assert_eq!(timer_run(vec![Some(10)]), vec![10]);
}

#[test]
fn rearming_later_moves_the_deadline() {
    assert_eq!(timer_run(vec![Some(10), Some(20)]), vec![20]);
}

#[test]
fn rearming_earlier_fires_early_and_only_once() {
    assert_eq!(timer_run(vec![Some(20), Some(5)]), vec![5]);
}

#[test]
fn a_cancelled_timer_never_fires() {
    assert_eq!(timer_run(vec![Some(10), None]), Vec::<u64>::new());
    assert_eq!(timer_run(vec![Some(10), None, Some(30)]), vec![30]);
}

/// Attach a sender (agent 0) at `from` that sends `burst` packets at `start` to a receiver
/// (agent 1) at `to`, on one flow.
fn add_sender_receiver(sim: &mut Sim<H, Probe>, from: NodeId, to: NodeId, burst: u64, start: u64) {
    let f = sim.add_flow("f");
    let peer = Addr {
        node: to.0,
        agent: 1,
    };
    let s = sim.add_agent(
        from,
        f,
        "s",
        Probe {
            peer: Some(peer),
            burst,
            ..Probe::default()
        },
    );
    sim.add_agent(to, f, "r", Probe::default());
    sim.schedule_start(s, SimTime(start));
}

/// Build routes, run to `horizon_ns`, check conservation; return the receiver's arrivals.
fn run_to(sim: &mut Sim<H, Probe>, horizon_ns: u64) -> Vec<(u64, u64)> {
    sim.build_routes();
    sim.configure_run(SimTime(horizon_ns), SimTime(0), SeriesConfig::default());
    assert!(sim.run_until_horizon(u64::MAX).done);
    sim.check_conservation().unwrap();
    sim.agents()[1].received.clone()
}

#[test]
fn a_burst_is_serialised_back_to_back_in_order() {
    let mut sim: Sim<H, Probe> = Sim::new(1);
    let (a, b) = (sim.add_node("a"), sim.add_node("b"));
    sim.add_link(a, b, link(8_000_000, 1_000)); // 1000 B take 1 ms
    add_sender_receiver(&mut sim, a, b, 3, 0);
    let ms = 1_000_000;
    assert_eq!(
        run_to(&mut sim, 1_000_000_000),
        vec![(ms + 1_000, 0), (2 * ms + 1_000, 1), (3 * ms + 1_000, 2)]
    );
}

/// A burst of `n` packets of 1000 B over one link of 8 Mbit/s (1 ms each) and 1 us of delay
/// whose propagation is jittered by up to `jitter_ns`: the receiver's arrivals.
fn jittered_burst(n: u64, jitter_ns: u64, seed: u64) -> Vec<(u64, u64)> {
    let mut sim: Sim<H, Probe> = Sim::new(seed);
    let (a, b) = (sim.add_node("a"), sim.add_node("b"));
    let config = LinkConfig {
        limit: QueueLimit::Packets(n),
        jitter: Dur(jitter_ns),
        ..link(8_000_000, 1_000)
    };
    sim.add_link(a, b, config);
    add_sender_receiver(&mut sim, a, b, n, 0);
    run_to(&mut sim, u64::MAX / 4)
}

#[test]
fn jitter_adds_a_uniform_draw_below_its_bound_to_each_packets_delay() {
    // 0.25 ms of jitter on packets 1 ms apart: no packet can catch up with the one ahead, so
    // each arrival is its serialisation end and delay plus its own draw.
    let (n, bound) = (2_000, 250_000);
    let got = jittered_burst(n, bound, 1);
    assert_eq!(got.len() as u64, n);
    let extra: Vec<f64> = got
        .iter()
        .enumerate()
        .map(|(k, &(t, seq))| {
            assert_eq!(seq, k as u64);
            let base = (k as u64 + 1) * 1_000_000 + 1_000;
            assert!((base..base + bound).contains(&t), "packet {k} at {t}");
            (t - base) as f64
        })
        .collect();
    // Uniform on [0, bound): mean bound / 2, standard error bound / sqrt(12 n).
    let mean = extra.iter().sum::<f64>() / n as f64;
    let se = bound as f64 / (12.0 * n as f64).sqrt();
    assert!(
        (mean - bound as f64 / 2.0).abs() < 4.0 * se,
        "mean extra delay {mean} ns"
    );
    // Each quarter of the range holds about a quarter of the draws (n / 4 = 500, sd 19).
    for q in 0..4 {
        let lo = q as f64 * bound as f64 / 4.0;
        let count = extra
            .iter()
            .filter(|&&e| (lo..lo + bound as f64 / 4.0).contains(&e))
            .count();
        assert!((420..580).contains(&count), "quarter {q}: {count}");
    }
}

#[test]
fn jitter_longer_than_the_packets_spacing_keeps_their_order() {
    // Up to 5 ms of jitter on packets 1 ms apart: a packet that draws less than the one ahead
    // of it waits for it, so arrivals never go back and the sequence stays in order.
    let got = jittered_burst(500, 5_000_000, 3);
    assert_eq!(got.len(), 500);
    assert!(got
        .windows(2)
        .all(|w| w[0].0 <= w[1].0 && w[0].1 + 1 == w[1].1));
    let held = got.windows(2).filter(|w| w[0].0 == w[1].0).count();
    assert!(held > 0, "no packet was held behind another");
}

#[test]
fn jitter_is_seeded_and_none_leaves_the_delay_exact() {
    assert_eq!(
        jittered_burst(50, 100_000, 7),
        jittered_burst(50, 100_000, 7)
    );
    assert_ne!(
        jittered_burst(50, 100_000, 7),
        jittered_burst(50, 100_000, 8)
    );
    let exact: Vec<(u64, u64)> = (0..50).map(|k| ((k + 1) * 1_000_000 + 1_000, k)).collect();
    assert_eq!(jittered_burst(50, 0, 7), exact);
}

struct DropOdd;
impl RouterHook<H> for DropOdd {
    fn on_enqueue(
        &mut self,
        _now: u64,
        pkt: &mut Packet<H>,
        _port: &ccsim_engine::link::PortState,
    ) -> Verdict {
        if pkt.header.seq % 2 == 1 {
            Verdict::Drop
        } else {
            Verdict::Forward
        }
    }
}

#[test]
fn router_hook_drops_are_counted_and_conserved() {
    let mut sim: Sim<H, Probe> = Sim::new(1);
    let (a, b) = (sim.add_node("a"), sim.add_node("b"));
    let l = sim.add_link(a, b, link(1_000_000_000, 0));
    sim.set_router_hook(l, Box::new(DropOdd));
    add_sender_receiver(&mut sim, a, b, 10, 0);
    let got: Vec<u64> = run_to(&mut sim, 1_000_000).iter().map(|r| r.1).collect();
    assert_eq!(got, vec![0, 2, 4, 6, 8]);
    assert_eq!(
        sim.link_stats(l).drops[ccsim_engine::DropReason::Router as usize],
        5
    );
    assert_eq!(sim.flow_stats()[0].dropped_packets, 5);
}

#[test]
fn routes_prefer_lower_delay_and_hops_metric_prefers_fewer_hops() {
    // a-b-c (2 hops, 2 ms in all) versus a-c directly (10 ms). Delay route: 2 hops of 8 us
    // serialisation + 2 ms; hops route: 1 hop + 10 ms.
    for (metric, expect_at) in [
        (ccsim_engine::RouteMetric::Delay, 2_000_000 + 2 * 8_000),
        (ccsim_engine::RouteMetric::Hops, 10_000_000 + 8_000),
    ] {
        let mut sim: Sim<H, Probe> = Sim::new(1);
        let (a, b, c) = (sim.add_node("a"), sim.add_node("b"), sim.add_node("c"));
        for (x, y, d) in [(a, b, 1_000_000), (b, c, 1_000_000), (a, c, 10_000_000)] {
            sim.add_link(x, y, link(1_000_000_000, d));
            sim.add_link(y, x, link(1_000_000_000, d));
        }
        add_sender_receiver(&mut sim, a, c, 1, 0);
        sim.set_route_metric(metric);
        assert_eq!(
            run_to(&mut sim, 1_000_000_000),
            vec![(expect_at, 0)],
            "{metric:?}"
        );
    }
}

#[test]
fn packets_to_an_agent_on_the_same_node_arrive_at_once_in_order() {
    let mut sim: Sim<H, Probe> = Sim::new(1);
    let a = sim.add_node("a");
    add_sender_receiver(&mut sim, a, a, 3, 7);
    assert_eq!(run_to(&mut sim, 100), vec![(7, 0), (7, 1), (7, 2)]);
    assert_eq!(sim.flow_stats()[0].delivered_packets, 3);
}

/// s - r, then r fans out to a (two member agents), b (one member) and c (no member); the
/// group is sent `n` packets from s. Returns the simulation after the run.
fn multicast_tree(n: u64, join_at_runtime: bool, loss_to_b: f64) -> (Sim<H, Probe>, Vec<u64>) {
    let mut sim: Sim<H, Probe> = Sim::new(7);
    let [s, r, a, b, c] = ["s", "r", "a", "b", "c"].map(|x| sim.add_node(x));
    let mut links = Vec::new();
    for (x, y) in [(s, r), (r, a), (r, b), (r, c)] {
        let mut cfg = link(1_000_000_000, 1_000);
        cfg.limit = QueueLimit::Packets(10_000);
        if y == b {
            cfg.loss = loss_to_b;
        }
        links.push(sim.add_link(x, y, cfg).0);
        sim.add_link(y, x, link(1_000_000_000, 1_000));
    }
    let f = sim.add_flow("mcast");
    let sender = sim.add_agent(
        s,
        f,
        "s",
        Probe {
            peer: Some(Addr::group(9)),
            burst: n,
            ..Probe::default()
        },
    );
    for (node, name) in [(a, "a1"), (a, "a2"), (b, "b1")] {
        let probe = Probe {
            join: join_at_runtime.then_some(9),
            ..Probe::default()
        };
        let addr = sim.add_agent(node, f, name, probe);
        if join_at_runtime {
            sim.schedule_start(addr, SimTime(0));
        } else {
            sim.join_group(9, addr);
        }
    }
    sim.add_agent(c, f, "c1", Probe::default());
    sim.schedule_start(sender, SimTime(10));
    sim.build_routes();
    sim.configure_run(SimTime(1_000_000_000), SimTime(0), SeriesConfig::default());
    assert!(sim.run_until_horizon(u64::MAX).done);
    sim.check_conservation().unwrap();
    (sim, links.into_iter().map(u64::from).collect())
}

#[test]
fn multicast_sends_one_copy_per_tree_link_and_one_delivery_per_member() {
    for join_at_runtime in [false, true] {
        let (sim, links) = multicast_tree(5, join_at_runtime, 0.0);
        let tx = |i: usize| {
            sim.link_stats(ccsim_engine::LinkId(links[i] as u32))
                .tx_packets
        };
        // s->r, r->a, r->b carry each packet once; r->c is off the tree.
        assert_eq!([tx(0), tx(1), tx(2), tx(3)], [5, 5, 5, 0]);
        for member in 1..=3 {
            let seqs: Vec<u64> = sim.agents()[member].received.iter().map(|r| r.1).collect();
            assert_eq!(seqs, vec![0, 1, 2, 3, 4], "member {member}");
        }
        assert!(sim.agents()[4].received.is_empty());
        let f = sim.flow_stats()[0];
        // At r: 2 links (1 extra copy); at a: 2 members (1 extra).
        assert_eq!((f.sent_packets, f.replicated_packets), (5, 10));
        assert_eq!(f.delivered_packets, 15);
        assert_eq!(sim.group_members(9).len(), 3);
    }
}

#[test]
fn group_relays_take_the_packets_that_stop_at_them_and_hand_them_on_hop_by_hop() {
    // The tree of `multicast_tree` with relays at r (+100) and at a (+1000); odd packets stop
    // at relays, even ones pass.
    let mut sim: Sim<H, Probe> = Sim::new(7);
    let [s, r, a, b, c] = ["s", "r", "a", "b", "c"].map(|x| sim.add_node(x));
    let mut links = Vec::new();
    for (x, y) in [(s, r), (r, a), (r, b), (r, c)] {
        links.push(sim.add_link(x, y, link(1_000_000_000, 1_000)).0);
        sim.add_link(y, x, link(1_000_000_000, 1_000));
    }
    let f = sim.add_flow("mcast");
    let sender = sim.add_agent(
        s,
        f,
        "s",
        Probe {
            peer: Some(Addr::group(9)),
            burst: 4,
            ..Probe::default()
        },
    );
    for (node, name) in [(a, "a1"), (a, "a2"), (b, "b1")] {
        let addr = sim.add_agent(node, f, name, Probe::default());
        sim.join_group(9, addr);
    }
    for (node, name, add) in [(r, "relay-r", 100), (a, "relay-a", 1000)] {
        let addr = sim.add_agent(
            node,
            f,
            name,
            Probe {
                relay_add: Some(add),
                ..Probe::default()
            },
        );
        sim.add_group_relay(9, addr);
    }
    sim.schedule_start(sender, SimTime(10));
    sim.build_routes();
    relay_run(sim, sender, &links);
}

#[test]
fn a_retired_relay_no_longer_takes_its_groups_packets() {
    let mut sim: Sim<H, Probe> = Sim::new(7);
    let [s, r, a] = ["s", "r", "a"].map(|x| sim.add_node(x));
    for (x, y) in [(s, r), (r, a)] {
        sim.add_link(x, y, link(1_000_000_000, 1_000));
        sim.add_link(y, x, link(1_000_000_000, 1_000));
    }
    let f = sim.add_flow("mcast");
    let sender = sim.add_agent(
        s,
        f,
        "s",
        Probe {
            peer: Some(Addr::group(9)),
            burst: 4,
            ..Probe::default()
        },
    );
    let member = sim.add_agent(a, f, "a1", Probe::default());
    sim.join_group(9, member);
    let relay = sim.add_agent(
        r,
        f,
        "relay-r",
        Probe {
            relay_add: Some(100),
            ..Probe::default()
        },
    );
    sim.add_group_relay(9, relay);
    sim.retire_agent(relay);
    sim.schedule_start(sender, SimTime(10));
    sim.build_routes();
    sim.configure_run(SimTime(1_000_000_000), SimTime(0), SeriesConfig::default());
    assert!(sim.run_until_horizon(u64::MAX).done);
    let seqs: Vec<u64> = sim
        .agent(member)
        .unwrap()
        .received
        .iter()
        .map(|r| r.1)
        .collect();
    assert_eq!(seqs, vec![0, 1, 2, 3], "odd packets pass r untouched");
    sim.check_conservation().unwrap();
}

fn relay_run(mut sim: Sim<H, Probe>, sender: Addr, links: &[u32]) {
    sim.configure_run(SimTime(1_000_000_000), SimTime(0), SeriesConfig::default());
    assert!(sim.run_until_horizon(u64::MAX).done);
    let seqs = |i: usize| -> Vec<u64> {
        let mut v: Vec<u64> = sim.agents()[i].received.iter().map(|r| r.1).collect();
        v.sort_unstable();
        v
    };
    assert_eq!(
        seqs(1),
        vec![0, 2, 1101, 1103],
        "a1: rewritten at r, then at a"
    );
    assert_eq!(seqs(2), vec![0, 2, 1101, 1103], "a2");
    assert_eq!(seqs(3), vec![0, 2, 101, 103], "b1: rewritten at r only");
    assert_eq!(
        seqs(4),
        vec![1, 3],
        "the relay at r sees the odd packets alone"
    );
    assert_eq!(
        seqs(5),
        vec![101, 103],
        "the relay at a sees them as r handed them on"
    );
    // The source is kept through the relays; no copy goes off the tree.
    assert!(sim.agents()[1].sources.iter().all(|&x| x == sender));
    let tx = |i: usize| sim.link_stats(ccsim_engine::LinkId(links[i])).tx_packets;
    assert_eq!([tx(0), tx(1), tx(2), tx(3)], [4, 4, 4, 0]);
    sim.check_conservation().unwrap();
}

#[test]
fn multicast_loss_on_one_branch_spares_the_others() {
    let (sim, _) = multicast_tree(2000, false, 0.1);
    let f = sim.flow_stats()[0];
    let at_b = sim.agents()[3].received.len() as u64;
    assert_eq!(sim.agents()[1].received.len(), 2000);
    assert_eq!(sim.agents()[2].received.len(), 2000);
    assert_eq!(f.dropped_packets, 2000 - at_b);
    // 10 % loss over 2000 copies: 200 expected, sd about 13.
    assert!(
        (140..=260).contains(&f.dropped_packets),
        "{}",
        f.dropped_packets
    );
}
