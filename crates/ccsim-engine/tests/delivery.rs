//! A link timed by a mahimahi delivery trace, through the whole engine: packets leave at the
//! instants mahimahi's `LinkQueue::rationalize` (src/frontend/link_queue.cc) gives, worked
//! out by hand below from its rule (1504 bytes per opportunity, a packet partly sent
//! continues at the next opportunity, unused bytes are lost, the trace repeats with period
//! its last timestamp).

use crate::common;

use std::sync::Arc;

use ccsim_core::{Addr, Agent, Ctx, Dur, Ecn, FlowId, Packet, Rate, SimTime, TimerSlot};
use ccsim_engine::{DeliveryTrace, LinkConfig, QueueLimit, SeriesConfig, Sim};

use common::H;

/// Sends the scripted (time ns, size B) packets; records what it receives.
#[derive(Default)]
struct Script {
    peer: Option<Addr>,
    plan: Vec<(u64, u32)>,
    next: usize,
    received: Vec<(u64, u64)>,
}

impl Agent<H> for Script {
    fn on_start<C: Ctx<H>>(&mut self, ctx: &mut C) {
        if let Some(&(t, _)) = self.plan.first() {
            ctx.set_timer(TimerSlot(1), SimTime(t));
        }
    }
    fn on_packet<C: Ctx<H>>(&mut self, pkt: &Packet<H>, ctx: &mut C) {
        self.received.push((ctx.now().0, pkt.header.seq));
    }
    fn on_timer<C: Ctx<H>>(&mut self, _slot: TimerSlot, ctx: &mut C) {
        let now = ctx.now().0;
        while let Some(&(t, size)) = self.plan.get(self.next) {
            if t > now {
                ctx.set_timer(TimerSlot(1), SimTime(t));
                break;
            }
            ctx.send(Packet {
                src: Addr::default(),
                dst: self.peer.expect("a sender has a peer"),
                flow: FlowId(0),
                size,
                sent_at: SimTime(now),
                ecn: Ecn::NotEct,
                header: H {
                    seq: self.next as u64,
                },
            });
            self.next += 1;
        }
    }
}

const MS: u64 = 1_000_000;
const DELAY: u64 = 1_000;

/// Run `plan` over a link timed by `trace_ms`; the departure instants (arrival - delay), in
/// sequence order.
fn departures(trace_ms: &[u64], plan: Vec<(u64, u32)>) -> Vec<u64> {
    let mut sim: Sim<H, Script> = Sim::new(1);
    let (a, b) = (sim.add_node("a"), sim.add_node("b"));
    sim.add_link(
        a,
        b,
        LinkConfig {
            rate: Rate(12_032_000),
            delay: Dur(DELAY),
            limit: QueueLimit::Packets(1000),
            loss: 0.0,
            jitter: Dur::ZERO,
            discipline: ccsim_engine::Discipline::DropTail,
            trace: Some(Arc::new(DeliveryTrace::from_ms(trace_ms).unwrap())),
        },
    );
    let f = sim.add_flow("f");
    let s = sim.add_agent(
        a,
        f,
        "s",
        Script {
            peer: Some(Addr {
                node: b.0,
                agent: 1,
            }),
            plan,
            ..Script::default()
        },
    );
    sim.add_agent(b, f, "r", Script::default());
    sim.schedule_start(s, SimTime(0));
    sim.build_routes();
    sim.configure_run(SimTime(100 * MS), SimTime(0), SeriesConfig::default());
    assert!(sim.run_until_horizon(u64::MAX).done);
    sim.check_conservation().unwrap();
    let got = &sim.agents()[1].received;
    assert!(got.windows(2).all(|w| w[0].1 < w[1].1), "in order");
    got.iter().map(|&(t, _)| t - DELAY).collect()
}

#[test]
fn cbr_faster_than_the_trace_leaves_at_mahimahis_instants() {
    // Opportunities 1, 1, 2, 5, 5, 5, 8 ms; period 8 ms (then 9, 9, 10, 13, ...).
    // 1000 B every 0.3 ms from 0 (26.7 Mbit/s against the trace's 10.5 Mbit/s mean), ten
    // packets, then one at 8.5 ms. By hand, opportunity by opportunity:
    //   1 ms: p0 1000 (done), p1 504 of 1000
    //   1 ms: p1 496 (done), p2 1000 (done), p3 8
    //   2 ms: p3 992 (done), p4 512
    //   5 ms: p4 488 (done), p5 1000 (done), p6 16
    //   5 ms: p6 984 (done), p7 520
    //   5 ms: p7 480 (done), p8 1000 (done), p9 24
    //   8 ms: p9 976 (done); 528 bytes lost, the queue is empty
    //   9 ms: p10 (sent at 8.5 ms) 1000 (done)
    let mut plan: Vec<(u64, u32)> = (0..10).map(|k| (k * 3 * MS / 10, 1000)).collect();
    plan.push((85 * MS / 10, 1000));
    let want: Vec<u64> = [1, 1, 1, 2, 5, 5, 5, 5, 5, 8, 9]
        .iter()
        .map(|&m| m * MS)
        .collect();
    assert_eq!(departures(&[1, 1, 2, 5, 5, 5, 8], plan), want);
}

#[test]
fn sizes_against_one_opportunity_per_ms() {
    // "1": an opportunity every ms (12.032 Mbit/s). All sent at 0 except the last.
    //   1 ms: 1504 (a whole opportunity)      2 ms: 752 + 752 (shared)
    //   3 ms: 1504 of 2000                    4 ms: the 2000's last 496; 100 B (sent at 0)
    //   then idle: the 908 bytes left at 4 ms are lost; 1504 B sent at 4.5 ms leaves at 5 ms.
    let plan = vec![
        (0, 1504),
        (0, 752),
        (0, 752),
        (0, 2000),
        (0, 100),
        (45 * MS / 10, 1504),
    ];
    let want: Vec<u64> = [1, 2, 2, 4, 4, 5].iter().map(|&m| m * MS).collect();
    assert_eq!(departures(&[1], plan), want);
}

#[test]
fn the_period_wraps_and_the_run_repeats() {
    // "3, 3": two opportunities at 3 ms, period 3 ms: 3, 3, 6, 6, 9, 9, ...
    let plan: Vec<(u64, u32)> = (0..7).map(|_| (0, 1504)).collect();
    let want: Vec<u64> = [3, 3, 6, 6, 9, 9, 12].iter().map(|&m| m * MS).collect();
    let first = departures(&[3, 3], plan.clone());
    assert_eq!(first, want);
    assert_eq!(departures(&[3, 3], plan), first);
}
