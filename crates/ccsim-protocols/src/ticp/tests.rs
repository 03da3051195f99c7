//! The collector as a state machine: typed inputs (start, report, timer expiry) and typed
//! outputs (request packets, window, Section III's counters), each expected value worked
//! out by hand from Section IV's algorithm.

use ccsim_core::{Addr, Agent, Dur, Ecn, FlowId, Packet, SimTime, TimerSlot};

use super::*;
use crate::testing::MockCtx;
use crate::Hdr;

const GROUP: u32 = 5;

fn ms(x: u64) -> SimTime {
    SimTime(x * 1_000_000)
}

struct Harness {
    c: TicpCollector,
    ctx: MockCtx,
}

impl Harness {
    /// One host with `n` sources, one cluster, `delivery`, RS = `rs`, 1000-byte messages.
    fn new(n: u32, rs: u32, delivery: Delivery) -> Self {
        let host = HostInfo {
            addr: Addr { node: 3, agent: 9 },
            first: 0,
            count: n,
        };
        let cfg = TicpConfig::new(rs, 1000, delivery, (FlowId(0), FlowId(1)));
        let cluster = ClusterInfo {
            hosts: vec![0],
            group: Some(GROUP),
            bin: None,
        };
        let c = TicpCollector::new(
            cfg,
            Directory::new(vec![host]),
            Clustering::Explicit(vec![cluster]),
        );
        Harness {
            c,
            ctx: MockCtx::new(),
        }
    }
    fn start(&mut self) -> Vec<Vec<u32>> {
        self.c.on_start(&mut self.ctx);
        self.requests()
    }
    /// The ID lists of the request packets sent since the last call.
    fn requests(&mut self) -> Vec<Vec<u32>> {
        self.ctx
            .drain()
            .into_iter()
            .filter_map(|p| match p.header {
                Hdr::TicpRequest(r) => Some(r.ids),
                _ => None,
            })
            .collect()
    }
    fn report(&mut self, id: u32, echo: SimTime, at: SimTime) -> Vec<Vec<u32>> {
        self.ctx.now = at;
        let pkt = Packet {
            src: Addr { node: 3, agent: 9 },
            dst: Addr::default(),
            flow: FlowId(1),
            size: 100,
            sent_at: echo,
            ecn: Ecn::NotEct,
            header: Hdr::TicpReport { source: id, echo },
        };
        self.c.on_packet(&pkt, &mut self.ctx);
        self.requests()
    }
    fn expire(&mut self, at: SimTime) -> Vec<Vec<u32>> {
        self.ctx.now = at;
        self.c.on_timer(TimerSlot(0), &mut self.ctx);
        self.requests()
    }
}

#[test]
fn the_session_opens_with_one_packet_of_rs_messages_and_a_3_s_timer() {
    let mut h = Harness::new(100, 3, Delivery::Multicast);
    let sent = h.ctx.sent.len();
    assert_eq!(sent, 0);
    h.c.on_start(&mut h.ctx);
    let pkts = h.ctx.drain();
    assert_eq!(pkts.len(), 1);
    assert_eq!(pkts[0].dst, Addr::group(GROUP));
    assert_eq!(pkts[0].size, 3000);
    assert!(matches!(&pkts[0].header, Hdr::TicpRequest(r) if r.ids == vec![0, 1, 2]));
    assert_eq!(h.c.cwnd(), 3.0);
    // pipe = RS, torecv = RS, recv = sent = 0.
    assert_eq!(h.c.counters(), (3, 3, 0, 0));
    assert_eq!(h.ctx.timers[0], Some(ms(3000)));
    assert_eq!(h.c.timer_window(), (None, SimTime::ZERO));
}

#[test]
fn slow_start_adds_one_per_timely_report_and_sends_whole_packets() {
    let mut h = Harness::new(100, 3, Delivery::Multicast);
    h.start();
    // cwnd 4, pipe 2: room 2 < RS, nothing sent.
    assert!(h.report(0, ms(0), ms(100)).is_empty());
    // cwnd 5, pipe 1: room 4, one packet of 3 (pipe 4).
    assert_eq!(h.report(1, ms(0), ms(100)), vec![vec![3, 4, 5]]);
    // cwnd 6, pipe 3: room 3, one packet (pipe 6).
    assert_eq!(h.report(2, ms(0), ms(100)), vec![vec![6, 7, 8]]);
    assert_eq!(h.c.cwnd(), 6.0);
    // Three timely reports of requests sent at or before startTO: recv 3; sent 6.
    assert_eq!(h.c.counters(), (6, 3, 3, 6));
    assert_eq!(h.c.phase(), Phase::SlowStart);
}

#[test]
fn the_first_rtt_sample_sets_srtt_and_half_of_it_as_rttvar() {
    let mut h = Harness::new(10, 1, Delivery::Multicast);
    h.start();
    h.report(0, ms(0), ms(200));
    // TO = srtt + 4 rttvar = 200 + 4 x 100 ms.
    assert_eq!(h.c.timeout(), Dur::from_millis(600));
    // Second sample 100 ms: rttvar = 3/4 100 + 1/4 |200 - 100| = 100; srtt = 187.5.
    h.report(1, ms(200), ms(300));
    assert_eq!(h.c.timeout(), Dur::from_micros(587_500));
}

/// RS = 10, one packet of 10 at t = 0, `r` timely reports, then the timer expires: the loss
/// estimate is (10 - r) / 10 against CT = min(0.1, RS/cwnd) = 0.1 and SCT = 0.9.
fn expiry_after(r: u32) -> Harness {
    let mut h = Harness::new(1000, 10, Delivery::Multicast);
    h.start();
    for id in 0..r {
        h.report(id, ms(0), ms(100));
    }
    h.expire(ms(3000));
    h
}

#[test]
fn no_loss_leaves_the_window_alone() {
    let h = expiry_after(10);
    assert_eq!((h.c.cwnd(), h.c.phase()), (20.0, Phase::SlowStart));
    assert_eq!(h.c.reactions(), (0, 0));
}

#[test]
fn loss_at_ct_halves_the_window_and_enters_congestion_avoidance() {
    // Loss 1/10 = CT: cwnd 19 -> 9.5, floored at RS = 10.
    let h = expiry_after(9);
    assert_eq!(
        (h.c.cwnd(), h.c.phase()),
        (10.0, Phase::CongestionAvoidance)
    );
    assert_eq!(h.c.reactions(), (1, 0));
    // Just under SCT: loss 8/10, cwnd 12 -> 10.
    let h = expiry_after(2);
    assert_eq!(
        (h.c.cwnd(), h.c.phase()),
        (10.0, Phase::CongestionAvoidance)
    );
}

#[test]
fn loss_at_sct_resets_the_window_to_rs_and_slow_start() {
    let h = expiry_after(1);
    assert_eq!((h.c.cwnd(), h.c.phase()), (10.0, Phase::SlowStart));
    assert_eq!(h.c.reactions(), (0, 1));
}

#[test]
fn thresholds_follow_the_paper_formulas() {
    // RS = 1: cwnd 40 gives CT = 1/40, SCT = 39/40.
    let mut h = Harness::new(1000, 1, Delivery::Multicast);
    h.start();
    let mut id = 0;
    while h.c.cwnd() < 40.0 {
        h.report(id, ms(0), ms(100));
        id += 1;
    }
    let (ct, sct) = h.c.thresholds();
    assert!((ct - 1.0 / 40.0).abs() < 1e-12 && (sct - 39.0 / 40.0).abs() < 1e-12);
}

#[test]
fn congestion_avoidance_adds_rs_over_cwnd() {
    let mut h = expiry_after(9); // cwnd 10, CA, RS 10
    let before = h.c.cwnd();
    // A request of the current timer (sent at 3 s) answered in time.
    h.report(20, ms(3000), ms(3100));
    assert!((h.c.cwnd() - (before + 10.0 / before)).abs() < 1e-12);
}

#[test]
fn reports_are_timely_or_delayed_by_their_request_time() {
    let mut h = Harness::new(1000, 1, Delivery::Multicast);
    h.start(); // request 0 at t = 0; startTO = 0
    assert_eq!(h.report(0, ms(0), ms(100)), vec![vec![1], vec![2]]); // cwnd 2
    h.ctx.now = ms(1000);
    h.expire(ms(3000)); // startprevTO = 0, startTO = 3 s
    assert_eq!(h.c.timer_window(), (Some(ms(0)), ms(3000)));
    let cwnd = h.c.cwnd();
    let (pipe, _, _, _) = h.c.counters();
    // Request time 0 is not after startprevTO: delayed, no window change, pipe unchanged.
    h.report(1, ms(0), ms(3100));
    assert_eq!(h.c.cwnd(), cwnd);
    assert_eq!(h.c.counters().0, pipe);
    assert_eq!(h.c.delayed_reports(), 1);
    // A request sent after startTO and answered before the next expiry: timely, and it
    // comes off `sent`, not onto `recv`.
    let (_, _, recv, sent) = h.c.counters();
    let new = h.report(2, ms(3050), ms(3200)).concat().len() as i64;
    let (_, _, recv2, sent2) = h.c.counters();
    assert_eq!((recv2, sent2), (recv, sent - 1 + new));
}

#[test]
fn torecv_takes_the_requests_of_the_ended_timer_period() {
    let mut h = Harness::new(1000, 1, Delivery::Multicast);
    h.start();
    h.report(0, ms(0), ms(100)); // two requests sent at 100 ms
    let before_expiry = h.c.counters().3;
    assert_eq!(before_expiry, 2);
    let at_expiry = h.expire(ms(3000)).concat().len() as i64;
    // torecv = requests sent during the period plus those sent at the expiry; sent = recv = 0.
    assert_eq!(h.c.counters().1, before_expiry + at_expiry);
    assert_eq!((h.c.counters().2, h.c.counters().3), (0, 0));
}

#[test]
fn missing_sources_are_asked_again_only_in_the_next_round() {
    let mut h = Harness::new(2, 1, Delivery::Unicast);
    assert_eq!(h.start(), vec![vec![0]]);
    // Nothing comes back: severe congestion, cwnd = RS = 1; pipe 1 - 1 = 0; source 0 is
    // judged lost and waits for round 2; round 1 continues with source 1.
    assert_eq!(h.expire(ms(3000)), vec![vec![1]]);
    assert_eq!(h.c.round(), 1);
    // Source 1's request is due at the next expiry; then round 2 asks both again in order.
    assert_eq!(h.expire(ms(6000)), vec![vec![0]]);
    assert_eq!(h.c.round(), 2);
    h.report(0, ms(6000), ms(6100));
    assert_eq!(h.requests().concat(), Vec::<u32>::new());
    assert_eq!(h.c.received(), 1);
}

#[test]
fn a_delayed_report_is_kept_and_its_source_not_asked_again() {
    let mut h = Harness::new(2, 1, Delivery::Unicast);
    h.start();
    assert_eq!(h.expire(ms(3000)), vec![vec![1]]);
    // Source 0's report arrives late: recorded as delayed, removed from round 2's list.
    h.report(0, ms(0), ms(3100));
    assert_eq!(h.c.arrivals()[0].map(|a| a.delayed), Some(true));
    h.report(1, ms(3000), ms(3200));
    assert_eq!(h.c.received(), 2);
    assert_eq!(h.c.finished(), Some(ms(3200)));
    assert_eq!(h.c.round(), 1);
    // The session is over: the timer is cancelled.
    assert_eq!(h.ctx.timers[0], None);
}

#[test]
fn a_short_packet_ends_a_cluster() {
    let mut h = Harness::new(4, 3, Delivery::Multicast);
    assert_eq!(h.start(), vec![vec![0, 1, 2]]);
    // cwnd 4, pipe 2: room 2 >= the 1 message left.
    assert_eq!(h.report(0, ms(0), ms(50)), vec![vec![3]]);
}

#[test]
fn unicast_sends_one_message_per_packet_to_the_source_host() {
    let mut h = Harness::new(10, 3, Delivery::Unicast);
    h.c.on_start(&mut h.ctx);
    let pkts = h.ctx.drain();
    assert_eq!(pkts.len(), 3);
    assert!(pkts
        .iter()
        .all(|p| p.dst == Addr { node: 3, agent: 9 } && p.size == 1000));
}

fn host(first: u32, count: u32, agent: u32) -> HostInfo {
    HostInfo {
        addr: Addr { node: agent, agent },
        first,
        count,
    }
}

#[test]
fn a_host_answers_its_own_sources_and_a_relay_forwards_the_rest() {
    let dir = Directory::new(vec![host(0, 2, 10), host(2, 2, 11), host(4, 2, 12)]);
    assert_eq!(dir.host_of(3), 1);
    let collector = Addr { node: 1, agent: 1 };
    let mut h = TicpSourceHost::new(
        dir.hosts()[0],
        collector,
        (FlowId(0), FlowId(1)),
        (100, 1000),
        dir.clone(),
        None,
    );
    let mut ctx = MockCtx::new();
    let req = |relay| Packet {
        src: collector,
        dst: Addr::default(),
        flow: FlowId(0),
        size: 500,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::TicpRequest(Box::new(TicpRequest {
            stamp: ms(7),
            ids: vec![1, 2, 5, 4],
            relay,
        })),
    };
    h.on_packet(&req(false), &mut ctx);
    let out = ctx.drain();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].dst, collector);
    assert_eq!(out[0].size, 1000);
    assert_eq!(
        out[0].header,
        Hdr::TicpReport {
            source: 1,
            echo: ms(7)
        }
    );
    h.on_packet(&req(true), &mut ctx);
    let out = ctx.drain();
    // Report for 1, then one packet to host 1 (ID 2) and one to host 2 (IDs 4, 5).
    assert_eq!(out.len(), 3);
    assert_eq!((out[1].dst.agent, out[1].size), (11, 100));
    assert_eq!((out[2].dst.agent, out[2].size), (12, 200));
    assert!(matches!(&out[2].header, Hdr::TicpRequest(r) if r.ids == vec![4, 5] && !r.relay));
}

#[test]
fn binning_levels_and_distance() {
    let t = [Dur::from_millis(100), Dur::from_millis(200)];
    let levels = bin_levels(
        &[
            Some(Dur::from_millis(50)),
            Some(Dur::from_millis(150)),
            None,
        ],
        &t,
    );
    assert_eq!(levels, vec![0, 1, 2]);
    assert_eq!(bin_index(&levels, 3), 2 * 9 + 3);
    assert_eq!(binning::index_levels(21, 3, 3), levels);
    assert!((bin_distance(&[0, 0], &[3, 4]) - 5.0).abs() < 1e-12);
}
