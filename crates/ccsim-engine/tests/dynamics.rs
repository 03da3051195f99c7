//! Networks that change and agents that come and go: link and node failures with the exact
//! losses they cause, the three reroute modes, `run_until`, agents created and retired during
//! the run, and link taps. A toy header (data or acknowledgement) and a toy agent stand in
//! for real protocols; expected values follow from the link rates and delays by hand.

use std::sync::{Arc, Mutex};

use ccsim_core::{
    Addr, Agent, AgentStats, Ctx, Dur, Ecn, FlowId, Header, Packet, Rate, SimTime, TimerSlot, VarId,
};
use ccsim_engine::{
    Discipline, DropReason, LinkConfig, LinkId, LinkTap, NodeId, QueueLimit, Reroute, SeriesConfig,
    Sim, Stopped, TopologyChange,
};

const MS: u64 = 1_000_000;
const US: u64 = 1_000;

#[derive(Clone, Debug)]
struct Hd {
    seq: u64,
    ack: bool,
}

impl Header for Hd {
    fn is_data(&self) -> bool {
        !self.ack
    }
    fn data_seq(&self) -> Option<u64> {
        (!self.ack).then_some(self.seq)
    }
}

const SEND: TimerSlot = TimerSlot(0);
const ALARM: TimerSlot = TimerSlot(2);

/// Sends `count` data packets of 1000 B to `peer`, all at start (`gap` 0) or one every `gap`
/// ns from start; acknowledges data it receives when `acks`; calls `finish` once `count`
/// acknowledgements are back when `finish`.
#[derive(Default)]
struct Toy {
    peer: Option<Addr>,
    flow: u32,
    count: u64,
    gap: u64,
    acks: bool,
    finish: bool,
    /// Arm the alarm slot for this absolute time at start.
    alarm: Option<u64>,
    /// Trace this cwnd value at start.
    trace_at_start: Option<f64>,
    sent: u64,
    acked: u64,
    completed_at: Option<u64>,
    received: Vec<(u64, u64)>,
    alarms: Vec<u64>,
    starts: u32,
}

impl Toy {
    fn sender(peer: Addr, flow: FlowId, count: u64, gap: u64) -> Toy {
        Toy {
            peer: Some(peer),
            flow: flow.0,
            count,
            gap,
            ..Toy::default()
        }
    }
    fn send_one<C: Ctx<Hd>>(&mut self, ctx: &mut C) {
        let peer = self.peer.expect("a sender has a peer");
        ctx.send(Packet {
            src: Addr::default(),
            dst: peer,
            flow: FlowId(self.flow),
            size: 1000,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hd {
                seq: self.sent,
                ack: false,
            },
        });
        self.sent += 1;
    }
}

impl Agent<Hd> for Toy {
    fn on_start<C: Ctx<Hd>>(&mut self, ctx: &mut C) {
        self.starts += 1;
        if let Some(v) = self.trace_at_start {
            ctx.trace(VarId::Cwnd, v);
        }
        if let Some(at) = self.alarm {
            ctx.set_timer(ALARM, SimTime(at));
        }
        if self.peer.is_none() {
            return;
        }
        if self.gap == 0 {
            while self.sent < self.count {
                self.send_one(ctx);
            }
        } else {
            self.send_one(ctx);
            ctx.set_timer(SEND, SimTime(ctx.now().0 + self.gap));
        }
    }
    fn on_packet<C: Ctx<Hd>>(&mut self, pkt: &Packet<Hd>, ctx: &mut C) {
        if pkt.header.ack {
            self.acked += 1;
            if self.acked == self.count {
                self.completed_at = Some(ctx.now().0);
                if self.finish {
                    ctx.finish();
                }
            }
            return;
        }
        self.received.push((ctx.now().0, pkt.header.seq));
        if self.acks {
            ctx.send(Packet {
                src: Addr::default(),
                dst: pkt.src,
                flow: pkt.flow,
                size: 40,
                sent_at: SimTime::ZERO,
                ecn: Ecn::NotEct,
                header: Hd {
                    seq: pkt.header.seq,
                    ack: true,
                },
            });
        }
    }
    fn on_timer<C: Ctx<Hd>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        if slot == ALARM {
            self.alarms.push(ctx.now().0);
            return;
        }
        if self.sent < self.count {
            self.send_one(ctx);
            ctx.set_timer(SEND, SimTime(ctx.now().0 + self.gap));
        }
    }
    fn stats(&self) -> AgentStats {
        AgentStats {
            data_packets_received: self.received.len() as u64,
            completed_at: self.completed_at.map(SimTime),
            ..AgentStats::default()
        }
    }
}

type S = Sim<Hd, Toy>;

fn cfg(rate_bps: u64, delay_ns: u64) -> LinkConfig {
    LinkConfig {
        rate: Rate(rate_bps),
        delay: Dur(delay_ns),
        limit: QueueLimit::Packets(10_000),
        loss: 0.0,
        jitter: Dur::ZERO,
        discipline: Discipline::DropTail,
        trace: None,
    }
}

/// Both directions of `x - y`; returns (x->y, y->x).
fn duplex(sim: &mut S, x: NodeId, y: NodeId, c: LinkConfig) -> (LinkId, LinkId) {
    (sim.add_link(x, y, c.clone()), sim.add_link(y, x, c))
}

/// A receiver at `to` (added first) and a stream sender at `from` on a new flow; returns
/// (sender, receiver). The sender starts at `start`.
fn stream(sim: &mut S, from: NodeId, to: NodeId, count: u64, gap: u64, start: u64) -> (Addr, Addr) {
    let f = sim.add_flow("stream");
    let r = sim.add_agent(to, f, "r", Toy::default());
    let s = sim.add_agent(from, f, "s", Toy::sender(r, f, count, gap));
    sim.schedule_start(s, SimTime(start));
    (s, r)
}

fn run(sim: &mut S, horizon: u64) {
    sim.build_routes();
    sim.configure_run(SimTime(horizon), SimTime::ZERO, SeriesConfig::default());
    assert!(sim.run_until_horizon(u64::MAX).done);
    sim.check_conservation().unwrap();
}

fn received(sim: &S, addr: Addr) -> Vec<(u64, u64)> {
    sim.agent(addr).unwrap().received.clone()
}

fn seqs(sim: &S, addr: Addr) -> Vec<u64> {
    received(sim, addr).iter().map(|r| r.1).collect()
}

fn drops(sim: &S, link: LinkId, reason: DropReason) -> u64 {
    sim.link_stats(link).drops[reason as usize]
}

// ---------------------------------------------------------------------------------------
// Link failures

/// a -> b at 8 Mbit/s (1000 B take 1 ms), 10 ms delay; one packet every 2 ms from 0 for
/// 101 packets (the last at 200 ms); the link goes down at 50.5 ms and up at 100.5 ms.
/// At 50.5 ms the link holds the packet sent at 50 ms (in service) and those sent at 40..48
/// ms (propagating: sent at t, on the wire from t + 1 to t + 11); the 25 sent at 52..100 ms
/// are offered while it is down. 31 lost, 5 of them after transmission. Of the rest, those
/// sent after 189 ms are still in flight at the 200 ms horizon.
#[test]
fn a_stream_across_a_failed_and_restored_link_is_counted_exactly() {
    let mut sim = S::new(1);
    let (a, b) = (sim.add_node("a"), sim.add_node("b"));
    let (ab, _) = duplex(&mut sim, a, b, cfg(8_000_000, 10 * MS));
    let (_, r) = stream(&mut sim, a, b, 101, 2 * MS, 0);
    sim.schedule_link_state(ab, SimTime(50 * MS + MS / 2), false);
    sim.schedule_link_state(ab, SimTime(100 * MS + MS / 2), true);
    run(&mut sim, 200 * MS);
    let expect: Vec<(u64, u64)> = (0..20u64)
        .chain(51..=94)
        .map(|s| (2 * s * MS + 11 * MS, s))
        .collect();
    assert_eq!(received(&sim, r), expect);
    assert_eq!(drops(&sim, ab, DropReason::LinkDown), 31);
    assert_eq!(sim.link_stats(ab).total_drops(), 31);
    assert_eq!(sim.link_stats(ab).dropped_after_tx, 5);
    let f = sim.flow_stats()[0];
    assert_eq!(
        (f.sent_packets, f.delivered_packets, f.dropped_packets),
        (101, 64, 31)
    );
    let changes: Vec<_> = sim
        .topology_events()
        .iter()
        .map(|e| (e.at, e.change))
        .collect();
    assert_eq!(
        changes,
        vec![
            (
                50 * MS + MS / 2,
                TopologyChange::Link {
                    link: ab,
                    up: false
                }
            ),
            (
                100 * MS + MS / 2,
                TopologyChange::Link { link: ab, up: true }
            ),
        ]
    );
}

/// The link flaps down and up within one packet time, so the transmission end and the
/// arrival scheduled before the failure are still pending when the next packet starts: they
/// must neither finish the new packet early nor deliver one. a -> b at 8 Mbit/s, 10 ms; one
/// packet per ms (the link is exactly busy). Down at 50.5 ms (the packet of 50 ms in service,
/// those of 40..49 ms propagating: 11 lost), up at 50.6 ms; the packet of 51 ms starts at
/// 51 ms, ends at 52 ms and arrives at 62 ms.
#[test]
fn stale_events_of_a_flapped_link_are_ignored() {
    let mut sim = S::new(1);
    let (a, b) = (sim.add_node("a"), sim.add_node("b"));
    let (ab, _) = duplex(&mut sim, a, b, cfg(8_000_000, 10 * MS));
    let (_, r) = stream(&mut sim, a, b, 100, MS, 0);
    sim.schedule_link_state(ab, SimTime(50 * MS + MS / 2), false);
    sim.schedule_link_state(ab, SimTime(50 * MS + 6 * MS / 10), true);
    run(&mut sim, 200 * MS);
    let expect: Vec<(u64, u64)> = (0..40u64)
        .chain(51..100)
        .map(|s| (s * MS + 11 * MS, s))
        .collect();
    assert_eq!(received(&sim, r), expect);
    assert_eq!(drops(&sim, ab, DropReason::LinkDown), 11);
    assert_eq!(sim.link_stats(ab).dropped_after_tx, 10);
}

// ---------------------------------------------------------------------------------------
// Node failures

/// a -> r -> b, each hop 8 Mbit/s and 1 ms; a sends every 0.5 ms, so packets queue at a.
/// While r is down, nothing crosses it; every packet lost is counted `node_down` on one of
/// r's links or a's link into r; the flow's books balance; r comes back and traffic resumes.
#[test]
fn a_node_going_down_loses_what_it_holds_and_stops_forwarding() {
    let mut sim = S::new(1);
    let [a, r, b] = ["a", "r", "b"].map(|n| sim.add_node(n));
    let (ar, _) = duplex(&mut sim, a, r, cfg(16_000_000, MS));
    let (rb, _) = duplex(&mut sim, r, b, cfg(8_000_000, MS));
    let (_, rx) = stream(&mut sim, a, b, 400, MS / 2, 0);
    let (down, up) = (50 * MS, 120 * MS);
    sim.schedule_node_state(r, SimTime(down), false);
    sim.schedule_node_state(r, SimTime(up), true);
    run(&mut sim, 1000 * MS);
    let got = received(&sim, rx);
    // Sent at s/2 ms: nothing sent while r was down arrives, everything sent after it came
    // back does (the horizon leaves time for the queue to drain).
    assert!(got
        .iter()
        .all(|&(_, s)| s * MS / 2 < down || s * MS / 2 >= up));
    let after: Vec<u64> = got
        .iter()
        .map(|g| g.1)
        .filter(|&s| s * MS / 2 >= up)
        .collect();
    assert_eq!(after, (240..400).collect::<Vec<u64>>());
    assert!(got.iter().all(|&(t, s)| t < down || s * MS / 2 >= up));
    let f = sim.flow_stats()[0];
    let node_down = drops(&sim, ar, DropReason::NodeDown) + drops(&sim, rb, DropReason::NodeDown);
    assert_eq!(f.dropped_packets, node_down);
    assert_eq!(f.delivered_packets + f.dropped_packets, 400);
    // The 140 sent while r was down are dropped at a's port, offered to a dead link.
    let offered_while_down = (down..up).step_by((MS / 2) as usize).count() as u64;
    assert_eq!(offered_while_down, 140);
    assert!(drops(&sim, ar, DropReason::NodeDown) >= offered_while_down);
    // r->b held a queue when r died: some loss there, on the wire or waiting.
    assert!(drops(&sim, rb, DropReason::NodeDown) > 0);
    assert!(sim.node_up(r) && sim.link_up(ar) && sim.link_up(rb));
}

/// The agents of a down node keep their timers but what they send is lost at the first
/// hop, counted on that link; a packet between two agents of the down node is lost on the
/// node. a -> b at 8 Mbit/s, 1 ms; a sends every ms; a is down from 10.5 to 20.5 ms.
#[test]
fn a_down_node_s_agents_run_but_send_nothing_and_receive_nothing() {
    let mut sim = S::new(1);
    let (a, b) = (sim.add_node("a"), sim.add_node("b"));
    let (ab, _) = duplex(&mut sim, a, b, cfg(8_000_000, MS));
    let (s, r) = stream(&mut sim, a, b, 30, MS, 0);
    // A local pair on a: one packet per ms to a neighbour on the same node.
    let (_, local_r) = stream(&mut sim, a, a, 30, MS, 0);
    sim.schedule_node_state(a, SimTime(10 * MS + MS / 2), false);
    sim.schedule_node_state(a, SimTime(20 * MS + MS / 2), true);
    run(&mut sim, 100 * MS);
    // Sent at 11..20 ms: the 10 sends of the down interval; at 10.5 ms the packet of 10 ms
    // is in service (10-11 ms) and that of 9 ms propagating (10-11 ms): 12 lost.
    let lost: Vec<u64> = (9..=20).collect();
    let got = seqs(&sim, r);
    assert_eq!(
        got,
        (0..30).filter(|s| !lost.contains(s)).collect::<Vec<_>>()
    );
    assert_eq!(drops(&sim, ab, DropReason::NodeDown), 12);
    assert_eq!(sim.agent(s).unwrap().sent, 30, "timers fired while down");
    let local = seqs(&sim, local_r);
    assert_eq!(
        local,
        (0..30)
            .filter(|s| !(11..=20).contains(s))
            .collect::<Vec<_>>()
    );
    assert_eq!(sim.node_stats(a).drops[DropReason::NodeDown as usize], 10);
}

// ---------------------------------------------------------------------------------------
// Rerouting

/// a - c directly (1 ms) and a - b - c (5 ms each); 1 Gbit/s everywhere (8 us per packet).
/// a sends to c every ms from 0 to 99 ms; a - c fails at 20.5 ms and returns at 60.5 ms.
/// The failure catches the packet of 20 ms on the wire (20.008 to 21.008 ms): lost in every
/// mode.
fn triangle(reroute: Reroute) -> (S, Addr, LinkId) {
    let mut sim = S::new(3);
    let [a, b, c] = ["a", "b", "c"].map(|n| sim.add_node(n));
    let (ac, ca) = duplex(&mut sim, a, c, cfg(1_000_000_000, MS));
    duplex(&mut sim, a, b, cfg(1_000_000_000, 5 * MS));
    duplex(&mut sim, b, c, cfg(1_000_000_000, 5 * MS));
    let (_, r) = stream(&mut sim, a, c, 100, MS, 0);
    sim.set_reroute(reroute);
    for l in [ac, ca] {
        sim.schedule_link_state(l, SimTime(20 * MS + MS / 2), false);
        sim.schedule_link_state(l, SimTime(60 * MS + MS / 2), true);
    }
    run(&mut sim, 1000 * MS);
    (sim, r, ac)
}

const DIRECT: u64 = MS + 8 * US;
const AROUND: u64 = 10 * MS + 16 * US;

#[test]
fn static_routes_drop_everything_sent_while_the_link_is_down() {
    let (sim, r, ac) = triangle(Reroute::Static);
    let expect: Vec<(u64, u64)> = (0..20u64)
        .chain(61..100)
        .map(|s| (s * MS + DIRECT, s))
        .collect();
    assert_eq!(received(&sim, r), expect);
    assert_eq!(drops(&sim, ac, DropReason::LinkDown), 41);
    assert_eq!(sim.link_stats(ac).dropped_after_tx, 1);
    assert!(sim
        .topology_events()
        .iter()
        .all(|e| !matches!(e.change, TopologyChange::Routes { .. })));
}

#[test]
fn instant_rerouting_takes_the_other_path_at_the_instant_of_the_change() {
    let (sim, r, ac) = triangle(Reroute::Instant);
    // Only the packet on the wire is lost; the next one already takes the detour.
    let mut expect: Vec<(u64, u64)> = (0..100u64)
        .filter(|&s| s != 20)
        .map(|s| {
            let path = if (21..=60).contains(&s) {
                AROUND
            } else {
                DIRECT
            };
            (s * MS + path, s)
        })
        .collect();
    expect.sort_unstable();
    assert_eq!(received(&sim, r), expect);
    assert_eq!(sim.link_stats(ac).total_drops(), 1);
    // Both directions change back to back: one table change per instant.
    let routes: Vec<(u64, u64)> = sim
        .topology_events()
        .iter()
        .filter_map(|e| match e.change {
            TopologyChange::Routes { unreachable } => Some((e.at, unreachable)),
            _ => None,
        })
        .collect();
    assert_eq!(routes, vec![(20 * MS + MS / 2, 0), (60 * MS + MS / 2, 0)]);
    assert_eq!(sim.topology_events().len(), 6);
}

#[test]
fn delayed_rerouting_loses_what_is_sent_until_the_new_tables_take_effect() {
    // The new tables take effect 5 ms after the failure: the packets of 21..25 ms are lost
    // on the dead link; from 26 ms the detour. After the repair, the detour stays in use
    // until 65.5 ms, without loss.
    let (sim, r, ac) = triangle(Reroute::Delayed(Dur(5 * MS)));
    let mut expect: Vec<(u64, u64)> = (0..100u64)
        .filter(|s| !(20..=25).contains(s))
        .map(|s| {
            let path = if (26..=65).contains(&s) {
                AROUND
            } else {
                DIRECT
            };
            (s * MS + path, s)
        })
        .collect();
    expect.sort_unstable();
    assert_eq!(received(&sim, r), expect);
    assert_eq!(drops(&sim, ac, DropReason::LinkDown), 6);
    let routes: Vec<u64> = sim
        .topology_events()
        .iter()
        .filter(|e| matches!(e.change, TopologyChange::Routes { .. }))
        .map(|e| e.at)
        .collect();
    assert_eq!(routes, vec![25 * MS + MS / 2, 65 * MS + MS / 2]);
}

#[test]
fn delayed_rerouting_ignores_a_flap_shorter_than_the_delay() {
    let mut sim = S::new(3);
    let [a, b, c] = ["a", "b", "c"].map(|n| sim.add_node(n));
    let (ac, _) = duplex(&mut sim, a, c, cfg(1_000_000_000, MS));
    duplex(&mut sim, a, b, cfg(1_000_000_000, 5 * MS));
    duplex(&mut sim, b, c, cfg(1_000_000_000, 5 * MS));
    let (_, r) = stream(&mut sim, a, c, 100, MS, 0);
    sim.set_reroute(Reroute::Delayed(Dur(20 * MS)));
    sim.schedule_link_state(ac, SimTime(20 * MS + MS / 2), false);
    sim.schedule_link_state(ac, SimTime(30 * MS + MS / 2), true);
    run(&mut sim, 1000 * MS);
    // The packet on the wire and the 10 sent while down.
    assert_eq!(drops(&sim, ac, DropReason::LinkDown), 11);
    assert_eq!(seqs(&sim, r).len(), 89);
    assert!(sim
        .topology_events()
        .iter()
        .all(|e| !matches!(e.change, TopologyChange::Routes { .. })));
}

/// A crashed router is routed around (TCP-M's "R3 crashed at 1.0 s", which needs a dynamic
/// strategy in ns-2): a - r1 - r3 - r2 - b (1 ms hops) with a longer r1 - r4 - r2 (3 ms
/// hops), 1 Gbit/s; one packet per ms; r3 down at 20.5 ms under instant rerouting. What r3
/// and its links held is lost; everything sent afterwards takes r4; r3 back at 40.5 ms
/// takes the traffic back.
#[test]
fn a_crashed_router_is_routed_around() {
    let mut sim = S::new(1);
    let [a, r1, r2, r3, r4, b] = ["a", "r1", "r2", "r3", "r4", "b"].map(|n| sim.add_node(n));
    let fast = cfg(1_000_000_000, MS);
    let slow = cfg(1_000_000_000, 3 * MS);
    duplex(&mut sim, a, r1, fast.clone());
    let (r1r3, _) = duplex(&mut sim, r1, r3, fast.clone());
    let (r3r2, _) = duplex(&mut sim, r3, r2, fast.clone());
    duplex(&mut sim, r2, b, fast);
    let (r1r4, _) = duplex(&mut sim, r1, r4, slow.clone());
    duplex(&mut sim, r4, r2, slow);
    let (_, r) = stream(&mut sim, a, b, 60, MS, 0);
    sim.set_reroute(Reroute::Instant);
    sim.schedule_node_state(r3, SimTime(20 * MS + MS / 2), false);
    sim.schedule_node_state(r3, SimTime(40 * MS + MS / 2), true);
    run(&mut sim, 1000 * MS);
    let lost = drops(&sim, r1r3, DropReason::NodeDown) + drops(&sim, r3r2, DropReason::NodeDown);
    // At 20.5 ms the packets of 18 ms (on r3 -> r2, 20.024 to 21.024 ms) and 19 ms (on
    // r1 -> r3, 20.016 to 21.016 ms) are on r3's links; that of 20 ms is on a -> r1 and
    // reaches r1 after the tables changed.
    assert_eq!(lost, 2);
    assert_eq!(seqs(&sim, r).len(), 58);
    assert_eq!(sim.link_stats(r1r4).tx_packets, 20, "sent at 20..39 ms");
    assert_eq!(sim.flow_stats()[0].dropped_packets, 2);
}

/// With instant rerouting and no other path, packets are dropped `no_route` at the sender's
/// node; with the path back, they flow again.
#[test]
fn a_destination_cut_off_gets_no_route_drops_on_the_node() {
    let mut sim = S::new(1);
    let (a, b) = (sim.add_node("a"), sim.add_node("b"));
    let (ab, ba) = duplex(&mut sim, a, b, cfg(1_000_000_000, MS));
    let (_, r) = stream(&mut sim, a, b, 50, MS, 0);
    sim.set_reroute(Reroute::Instant);
    for l in [ab, ba] {
        sim.schedule_link_state(l, SimTime(10 * MS + MS / 2), false);
        sim.schedule_link_state(l, SimTime(20 * MS + MS / 2), true);
    }
    run(&mut sim, 100 * MS);
    // The packet of 10 ms is on the wire at the cut; those of 11..20 ms find no route.
    assert_eq!(drops(&sim, ab, DropReason::LinkDown), 1);
    assert_eq!(sim.node_stats(a).drops[DropReason::NoRoute as usize], 10);
    assert_eq!(seqs(&sim, r).len(), 39);
    let unreachable: Vec<u64> = sim
        .topology_events()
        .iter()
        .filter_map(|e| match e.change {
            TopologyChange::Routes { unreachable } => Some(unreachable),
            _ => None,
        })
        .collect();
    // Cut: a cannot reach b nor b a (both host agents, so both are destinations).
    assert_eq!(unreachable, vec![2, 0]);
}

/// Multicast copies follow the new unicast routes: s sends to a group whose member is at c;
/// after a - c fails under instant rerouting, copies go through b.
#[test]
fn multicast_trees_follow_the_new_routes() {
    let mut sim = S::new(1);
    let [a, b, c] = ["a", "b", "c"].map(|n| sim.add_node(n));
    let (ac, ca) = duplex(&mut sim, a, c, cfg(1_000_000_000, MS));
    let (ab, _) = duplex(&mut sim, a, b, cfg(1_000_000_000, 5 * MS));
    let (bc, _) = duplex(&mut sim, b, c, cfg(1_000_000_000, 5 * MS));
    let f = sim.add_flow("m");
    let member = sim.add_agent(c, f, "m", Toy::default());
    sim.join_group(4, member);
    let s = sim.add_agent(a, f, "s", Toy::sender(Addr::group(4), f, 40, MS));
    sim.schedule_start(s, SimTime(0));
    sim.set_reroute(Reroute::Instant);
    sim.schedule_link_state(ac, SimTime(20 * MS + MS / 2), false);
    sim.schedule_link_state(ca, SimTime(20 * MS + MS / 2), false);
    run(&mut sim, 1000 * MS);
    // The copy of 20 ms is on the wire at the failure; the next ones go through b.
    assert_eq!(seqs(&sim, member).len(), 39);
    assert_eq!(sim.link_stats(ac).tx_packets, 21);
    assert_eq!(sim.link_stats(ab).tx_packets, 19);
    assert_eq!(sim.link_stats(bc).tx_packets, 19);
}

#[test]
fn runs_with_failures_are_deterministic() {
    let digest = |sim: &S, r: Addr| {
        (
            received(sim, r),
            sim.flow_stats().to_vec(),
            sim.topology_events().to_vec(),
        )
    };
    let (s1, r1, _) = triangle(Reroute::Delayed(Dur(3 * MS)));
    let (s2, r2, _) = triangle(Reroute::Delayed(Dur(3 * MS)));
    assert_eq!(digest(&s1, r1), digest(&s2, r2));
}

// ---------------------------------------------------------------------------------------
// run_until

#[test]
fn run_until_stops_before_the_limit_and_reports_why() {
    let mut sim = S::new(1);
    let (a, b) = (sim.add_node("a"), sim.add_node("b"));
    duplex(&mut sim, a, b, cfg(8_000_000, MS));
    // One packet per ms from 0: sends at 0..=9 ms, each arriving 2 ms later.
    let (s, r) = stream(&mut sim, a, b, 10, MS, 0);
    sim.build_routes();
    sim.configure_run(SimTime(20 * MS), SimTime::ZERO, SeriesConfig::default());
    let p = sim.run_until(SimTime(5 * MS), u64::MAX);
    assert_eq!((p.stopped, p.now, p.done), (Stopped::Limit, 5 * MS, false));
    // The send at 5 ms has not happened yet; the arrival at 5 ms (sent at 3 ms) neither.
    assert_eq!(sim.agent(s).unwrap().sent, 5);
    assert_eq!(seqs(&sim, r), vec![0, 1, 2]);
    let p = sim.run_until(SimTime(8 * MS), 2);
    assert_eq!((p.stopped, p.done), (Stopped::Budget, false));
    let p = sim.run_until(SimTime(8 * MS), u64::MAX);
    assert_eq!((p.stopped, p.now), (Stopped::Limit, 8 * MS));
    let p = sim.run_until(SimTime(50 * MS), u64::MAX);
    assert_eq!(
        (p.stopped, p.now, p.done),
        (Stopped::Horizon, 20 * MS, true)
    );
    assert_eq!(seqs(&sim, r), (0..10).collect::<Vec<_>>());
    sim.check_conservation().unwrap();
}

// ---------------------------------------------------------------------------------------
// Agents created and retired during the run

/// 10 000 short flows (5 packets, acknowledged one by one) start one every 100 us over
/// a - r - b at 1 Gbit/s (40 % load); each sender finishes when all is acknowledged and the test retires both ends.
/// The agent table grows to the peak number of live agents, not to 20 000.
#[test]
fn ten_thousand_short_flows_reuse_a_bounded_agent_table() {
    let mut sim = S::new(9);
    let [a, r, b] = ["a", "r", "b"].map(|n| sim.add_node(n));
    duplex(&mut sim, a, r, cfg(1_000_000_000, 20 * US));
    duplex(&mut sim, r, b, cfg(1_000_000_000, 50 * US));
    sim.build_routes();
    let flows = 10_000u64;
    let gap = 100 * US;
    sim.configure_run(
        SimTime(flows * gap + 100 * MS),
        SimTime::ZERO,
        SeriesConfig::default(),
    );
    let mut peers = std::collections::BTreeMap::new();
    let mut done: Vec<(u64, AgentStats, AgentStats)> = Vec::new();
    let mut peak = 0;
    let mut retire = |sim: &mut S, peers: &mut std::collections::BTreeMap<u32, Addr>| {
        for s in sim.take_finished() {
            let r = peers.remove(&s.agent).expect("a sender");
            let ss = sim.retire_agent(s).expect("live");
            let rs = sim.retire_agent(r).expect("live");
            done.push((u64::from(s.agent), ss, rs));
        }
    };
    for i in 0..flows {
        let p = sim.run_until(SimTime(i * gap), u64::MAX);
        assert_eq!(p.stopped, Stopped::Limit);
        retire(&mut sim, &mut peers);
        let f = sim.add_flow(&format!("short{i}"));
        let rx = sim.add_agent(
            b,
            f,
            &format!("r{i}"),
            Toy {
                acks: true,
                ..Toy::default()
            },
        );
        let mut tx = Toy::sender(rx, f, 5, 0);
        tx.finish = true;
        let s = sim.add_agent(a, f, &format!("s{i}"), tx);
        peers.insert(s.agent, rx);
        sim.schedule_start(s, SimTime(i * gap));
        peak = peak.max(sim.live_agents());
    }
    assert!(sim.run_until_horizon(u64::MAX).done);
    retire(&mut sim, &mut peers);
    sim.check_conservation().unwrap();
    assert_eq!(done.len() as u64, flows);
    assert!(done
        .iter()
        .all(|(_, s, r)| s.completed_at.is_some() && r.data_packets_received == 5));
    assert_eq!(sim.live_agents(), 0);
    // Each flow lives about 5 x 8 us + 2 x 70 us, less than two arrival gaps: at most two
    // flows (four agents) at once.
    assert!(peak <= 4, "peak {peak}");
    assert!(sim.agents().len() <= peak, "{} slots", sim.agents().len());
    assert!(sim.packets_allocated() < 200, "{}", sim.packets_allocated());
    let total = sim
        .flow_stats()
        .iter()
        .map(|f| f.delivered_packets)
        .sum::<u64>();
    assert_eq!(total, 5 * flows);
}

/// A retired agent's pending timer and start never reach the agent that takes its slot,
/// and packets still on their way to it are dropped `no_agent` on its node.
#[test]
fn a_reused_slot_gets_nothing_meant_for_its_former_occupant() {
    let mut sim = S::new(1);
    let (a, b) = (sim.add_node("a"), sim.add_node("b"));
    duplex(&mut sim, a, b, cfg(8_000_000, 10 * MS));
    sim.build_routes();
    sim.configure_run(SimTime(100 * MS), SimTime::ZERO, SeriesConfig::default());
    let f = sim.add_flow("old");
    let old_r = sim.add_agent(b, f, "old_r", Toy::default());
    let old = Toy {
        alarm: Some(30 * MS),
        ..Toy::sender(old_r, f, 3, 0)
    };
    let old_s = sim.add_agent(a, f, "old", old);
    sim.schedule_start(old_s, SimTime::ZERO);
    sim.schedule_stop(old_s, SimTime(40 * MS));
    let late = sim.add_agent(a, f, "late", Toy::default());
    sim.schedule_start(late, SimTime(20 * MS));
    // At 5 ms: the three packets are on their way (they arrive at 11, 12 and 13 ms).
    sim.run_until(SimTime(5 * MS), u64::MAX);
    assert_eq!(sim.agent(old_s).unwrap().sent, 3);
    for x in [old_r, late, old_s] {
        sim.retire_agent(x).unwrap();
    }
    assert!(sim.retire_agent(old_s).is_none());
    let g = sim.add_flow("new");
    let new = (0..3)
        .map(|i| sim.add_agent(b, g, &format!("n{i}"), Toy::default()))
        .collect::<Vec<_>>();
    assert_eq!(sim.agents().len(), 3, "the three slots are reused");
    assert!(new.iter().all(|n| n.agent >= 3), "ids are never reused");
    assert!(sim.run_until_horizon(u64::MAX).done);
    sim.check_conservation().unwrap();
    for n in &new {
        let t = sim.agent(*n).unwrap();
        assert!(t.alarms.is_empty() && t.received.is_empty() && t.starts == 0);
    }
    assert_eq!(sim.node_stats(b).drops[DropReason::NoAgent as usize], 3);
    assert_eq!(sim.flow_stats()[0].dropped_packets, 3);
}

/// An agent added after `configure_run`, during the run, on a node that had no agent: it
/// gets routes, and its change traces are recorded like those of agents added before.
#[test]
fn an_agent_added_mid_run_is_routed_and_traced() {
    let mut sim = S::new(1);
    let [a, r, b] = ["a", "r", "b"].map(|n| sim.add_node(n));
    duplex(&mut sim, a, r, cfg(8_000_000, MS));
    duplex(&mut sim, r, b, cfg(8_000_000, MS));
    let f0 = sim.add_flow("idle");
    sim.add_agent(a, f0, "idle", Toy::default());
    sim.build_routes();
    let series = SeriesConfig {
        change_vars: vec![VarId::Cwnd],
        ..SeriesConfig::default()
    };
    sim.configure_run(SimTime(100 * MS), SimTime::ZERO, series);
    sim.run_until(SimTime(10 * MS), u64::MAX);
    let (s, r) = stream(&mut sim, a, b, 3, 0, 10 * MS);
    let _ = s;
    let f = FlowId(1);
    let tracer = sim.add_agent(
        b,
        f,
        "t",
        Toy {
            trace_at_start: Some(7.0),
            ..Toy::default()
        },
    );
    sim.schedule_start(tracer, SimTime(10 * MS));
    assert!(sim.run_until_horizon(u64::MAX).done);
    sim.check_conservation().unwrap();
    assert_eq!(seqs(&sim, r), vec![0, 1, 2]);
    let t = sim.trace();
    assert_eq!(t.len(), 1);
    assert_eq!((t.time_ns[0], t.value[0]), (10 * MS, 7.0));
}

// ---------------------------------------------------------------------------------------
// Link taps

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<(u64, u64)>>>);

impl LinkTap<Hd> for Capture {
    fn on_transmit(&mut self, now_ns: u64, pkt: &Packet<Hd>) {
        self.0.lock().unwrap().push((now_ns, pkt.header.seq));
    }
}

/// A burst of 4 at 0 over 8 Mbit/s: transmissions start at 0, 1, 2 and 3 ms; the last one,
/// offered to a full queue of 2, is dropped and never seen; nothing crosses the other way.
#[test]
fn a_tap_sees_each_packet_when_its_transmission_starts() {
    let mut sim = S::new(1);
    let (a, b) = (sim.add_node("a"), sim.add_node("b"));
    let mut c = cfg(8_000_000, 10 * MS);
    c.limit = QueueLimit::Packets(2);
    let (ab, ba) = duplex(&mut sim, a, b, c);
    stream(&mut sim, a, b, 4, 0, 0);
    let (fwd, back) = (Capture::default(), Capture::default());
    sim.set_link_tap(ab, Box::new(fwd.clone()));
    sim.set_link_tap(ba, Box::new(back.clone()));
    run(&mut sim, 100 * MS);
    assert_eq!(*fwd.0.lock().unwrap(), vec![(0, 0), (MS, 1), (2 * MS, 2)]);
    assert!(back.0.lock().unwrap().is_empty());
    let taps = sim.take_link_taps();
    assert_eq!(taps.iter().map(|t| t.0).collect::<Vec<_>>(), vec![ab, ba]);
    assert!(sim.take_link_taps().is_empty());
}

#[test]
fn with_stop_on_finish_a_run_call_returns_at_the_instant_an_agent_finishes() {
    let build = || {
        let mut sim = S::new(4);
        let [a, b] = ["a", "b"].map(|n| sim.add_node(n));
        duplex(&mut sim, a, b, cfg(10_000_000, MS));
        sim.build_routes();
        let f = sim.add_flow("f");
        let rx = sim.add_agent(
            b,
            f,
            "r",
            Toy {
                acks: true,
                ..Toy::default()
            },
        );
        let mut tx = Toy::sender(rx, f, 3, 0);
        tx.finish = true;
        let s = sim.add_agent(a, f, "s", tx);
        sim.schedule_start(s, SimTime::ZERO);
        sim.configure_run(SimTime(100 * MS), SimTime::ZERO, SeriesConfig::default());
        (sim, s)
    };
    // Three 1000 B packets back to back at 10 Mbit/s (0.8 ms each), 1 ms away; the third
    // acknowledgement (40 B, 32 us) is back at 3 x 0.8 + 1 + 0.032 + 1 ms.
    let finished_at = 3 * 800 * US + MS + 32 * US + MS;
    let (mut sim, s) = build();
    sim.set_stop_on_finish(true);
    let p = sim.run_until_horizon(u64::MAX);
    assert_eq!((p.stopped, p.now), (Stopped::Finished, finished_at));
    assert_eq!(sim.take_finished(), vec![s]);
    assert!(sim.run_until_horizon(u64::MAX).done);
    // Without it the call runs on to the horizon; the agent is listed all the same.
    let (mut sim, s) = build();
    assert!(sim.run_until_horizon(u64::MAX).done);
    assert_eq!(sim.take_finished(), vec![s]);
}

#[test]
fn an_unsampled_flow_keeps_its_counters_but_is_in_no_series() {
    let mut sim = S::new(5);
    let [a, b] = ["a", "b"].map(|n| sim.add_node(n));
    duplex(&mut sim, a, b, cfg(10_000_000, MS));
    sim.build_routes();
    let mut flows = Vec::new();
    for (name, sampled) in [("seen", true), ("unseen", false)] {
        let f = if sampled {
            sim.add_flow(name)
        } else {
            sim.add_flow_unsampled(name)
        };
        let rx = sim.add_agent(b, f, &format!("{name}/r"), Toy::default());
        sim.set_flow_receiver(f, rx);
        let tx = Toy {
            trace_at_start: Some(7.0),
            ..Toy::sender(rx, f, 20, MS)
        };
        let s = sim.add_agent(a, f, &format!("{name}/s"), tx);
        sim.schedule_start(s, SimTime::ZERO);
        flows.push(f);
    }
    let series = SeriesConfig {
        interval: Dur(5 * MS),
        flow_rate: true,
        change_vars: vec![VarId::Cwnd],
        ..SeriesConfig::default()
    };
    sim.configure_run(SimTime(50 * MS), SimTime::ZERO, series);
    assert!(sim.run_until_horizon(u64::MAX).done);
    assert_eq!(sim.flow_stats()[flows[1].0 as usize].sent_packets, 20);
    let trace = sim.trace();
    let names = sim.entity_names();
    let entities: std::collections::BTreeSet<&str> = (0..trace.len())
        .map(|i| names[trace.entity[i] as usize].as_str())
        .collect();
    assert!(entities.contains("seen"));
    assert!(!entities.contains("unseen"), "{entities:?}");
}

#[test]
fn a_run_call_returns_when_the_series_grow_by_a_chunk_of_values() {
    use ccsim_engine::sim::SERIES_YIELD_VALUES;
    // 3000 idle flows sampled every microsecond: a sample records 3000 values and no other
    // event happens, so only the series can make the call return before its budget.
    let mut sim = S::new(6);
    let [a, b] = ["a", "b"].map(|n| sim.add_node(n));
    duplex(&mut sim, a, b, cfg(10_000_000, MS));
    sim.build_routes();
    for i in 0..3000 {
        sim.add_flow(&format!("f{i}"));
    }
    let series = SeriesConfig {
        interval: Dur(US),
        flow_rate: true,
        ..SeriesConfig::default()
    };
    sim.configure_run(SimTime(10 * MS), SimTime::ZERO, series);
    let p = sim.run_until_horizon(u64::MAX);
    assert_eq!(p.stopped, Stopped::Series);
    // The first sample past the mark: ceil(2^21 / 3000) = 700 samples.
    assert_eq!(p.events, SERIES_YIELD_VALUES.div_ceil(3000) as u64);
    assert_eq!(sim.trace().len(), 700 * 3000);
    let p = sim.run_until_horizon(u64::MAX);
    assert_eq!((p.stopped, p.events), (Stopped::Series, 1400));
}
