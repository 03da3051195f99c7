//! OBP tests: expressions (1)-(6) at worked points, the router's stamping, the sender's pacing
//! and recovery, the receiver's echo.

use ccsim_core::{Addr, Agent, Dur, Ecn, FlowId, Packet, Rate, SimTime, TimerSlot};

use super::*;
use crate::testing::MockCtx;
use crate::{Hdr, TcpSink};

/// 10 Mbit/s in bytes per second (the paper's Fig. 1 and 2: "1250 packets" of 1000 bytes).
const M: f64 = 1.25e6;
const PACE: TimerSlot = TimerSlot(0);

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

fn data(seq: u64, narrow: f32, tight: f32) -> Packet<Hdr> {
    Packet {
        src: Addr { node: 1, agent: 0 },
        dst: Addr { node: 2, agent: 0 },
        flow: FlowId(0),
        size: 1000,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::ObpData {
            seq,
            retx: false,
            narrow,
            tight,
        },
    }
}

fn ack(ack: u64, narrow: f64, tight: f64) -> Packet<Hdr> {
    Packet {
        src: Addr { node: 2, agent: 0 },
        dst: Addr { node: 1, agent: 0 },
        flow: FlowId(0),
        size: 40,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::ObpAck {
            ack,
            narrow: narrow as f32,
            tight: tight as f32,
        },
    }
}

fn ms(t: u64) -> SimTime {
    SimTime::ZERO + Dur::from_millis(t)
}

/// A sender whose EP is `ep` (its initial rate).
fn sender_at(ep: f64) -> ObpSender {
    let mut p = ObpParams::paper(1000);
    p.initial_rate = ep;
    ObpSender::new(FlowId(0), Addr { node: 2, agent: 0 }, p)
}

#[test]
fn expression_1_at_a_worked_point() {
    // EP = Max.TR / 2, AB = Max.TR / 2: control factor (2) = (0.5 + 0.09) = 0.59; the
    // fairness fraction (3) = 0.9 * 0.5 / sqrt(0.25 + 0.25) = 0.9 / sqrt(2).
    let s = sender_at(M / 2.0);
    let want = 625_000.0 * (1.0 + 0.59 * (1.0 - 0.9 / 2f64.sqrt()));
    assert!(close(want, 759_078.936_993_714_5));
    assert!(
        close(s.rate_for(M / 2.0, M), want),
        "{}",
        s.rate_for(M / 2.0, M)
    );
}

#[test]
fn expression_2_control_factor_at_zero_ab_is_gamma() {
    // AB = 0: the control factor is gamma = 0.09 (Fig. 1's "near zero"), so TR stays near EP.
    let s = sender_at(M / 2.0);
    let want = 625_000.0 * (1.0 + 0.09 * (1.0 - 0.9 / 2f64.sqrt()));
    assert!(close(s.rate_for(0.0, M), want), "{}", s.rate_for(0.0, M));
}

#[test]
fn expression_3_fairness_fraction_at_worked_points() {
    assert!(close(fairness_fraction(M / 2.0, M, 0.9), 0.9 / 2f64.sqrt()));
    // EP = 3/8 Max.TR: sqrt(9/64 + 16/64) = 5/8, so 0.9 * 3/5.
    assert!(close(fairness_fraction(0.375 * M, M, 0.9), 0.54));
}

#[test]
fn expression_4_decrease_at_worked_points() {
    let s = sender_at(1e6);
    // AB = -Max.TR (load twice the capacity): EP + EP (-1 / 2) = EP / 2.
    assert!(close(s.rate_for(-M, M), 5e5), "{}", s.rate_for(-M, M));
    // AB = -Max.TR / 4: EP (1 - 0.25 / 1.25) = 0.8 EP.
    assert!(
        close(s.rate_for(-M / 4.0, M), 8e5),
        "{}",
        s.rate_for(-M / 4.0, M)
    );
}

#[test]
fn tr_is_clamped_to_max_tr() {
    // EP = Max.TR, AB = Max.TR: (1) gives Max.TR (1 + 1.09 * 0.195) > Max.TR.
    let s = sender_at(M);
    assert_eq!(s.rate_for(M, M), M);
}

#[test]
fn fig2_increase_factor_end_points() {
    // Fig. 2: the increase factor near 1 at TR near 0, small at TR near the maximum.
    assert_eq!(increase_factor(0.0, M, 0.9), 1.0);
    assert!(increase_factor(M / 1000.0, M, 0.9) > 0.998);
    let top = increase_factor(M, M, 0.9);
    assert!(close(top, 1.0 - 0.9 / 1.25f64.sqrt()), "{top}");
    assert!(top < 0.2);
    // Monotone in between: a faster flow always gets the smaller share of the increase.
    let mut last = 1.0;
    for i in 1..=100 {
        let f = increase_factor(M * f64::from(i) / 100.0, M, 0.9);
        assert!(f < last);
        last = f;
    }
    // Through the sender: with AB = Max.TR, a slow flow nearly doubles (control factor 1.09),
    // a flow near the maximum grows by about a fifth of that.
    let slow = sender_at(M / 1000.0);
    let g = slow.rate_for(M, M) / (M / 1000.0) - 1.0;
    assert!(g > 1.08 && g < 1.09, "{g}");
}

#[test]
fn expression_5_ep_is_the_mean_of_the_previous_rtts_trs() {
    let mut s = sender_at(1e5);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    s.on_timer(PACE, &mut ctx);
    assert_eq!(ctx.drain().len(), 1);
    // First ACK at 100 ms: RTT 100 ms, the first EP period runs to 200 ms.
    ctx.now = ms(100);
    s.on_packet(&ack(1, M, M), &mut ctx);
    assert_eq!(s.srtt(), Some(0.1));
    ctx.now = ms(120);
    s.on_packet(&ack(1, M, 0.0), &mut ctx);
    ctx.now = ms(150);
    s.on_packet(&ack(1, M, -M), &mut ctx);
    assert_eq!(s.ep(), 1e5, "EP changes only once per RTT");
    assert!(close(s.tr(), 5e4), "{}", s.tr());
    // The three TRs from EP = 1e5 (expressions (1), (1) and (4)), by hand:
    let f = 0.9 * 1e5 / (1e10f64 + 625_000.0f64.powi(2)).sqrt();
    let trs = [
        1e5 * (1.0 + 1.09 * (1.0 - f)),
        1e5 * (1.0 + 0.09 * (1.0 - f)),
        5e4,
    ];
    let mean = trs.iter().sum::<f64>() / 3.0;
    assert!(close(mean, 117_073.802_927_497_44), "{mean}");
    ctx.now = ms(200);
    s.on_packet(&ack(1, M, M / 4.0), &mut ctx);
    assert!(close(s.ep(), mean), "{} vs {mean}", s.ep());
    // And this ACK's TR comes from the new EP.
    let f = 0.9 * mean / (mean * mean + 625_000.0f64.powi(2)).sqrt();
    assert!(close(s.tr(), mean * (1.0 + 0.34 * (1.0 - f))), "{}", s.tr());
}

#[test]
fn unstamped_ack_leaves_tr() {
    let mut s = sender_at(1e5);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    s.on_timer(PACE, &mut ctx);
    ctx.now = ms(100);
    s.on_packet(&ack(1, f64::INFINITY, f64::INFINITY), &mut ctx);
    assert_eq!(s.tr(), 1e5);
}

#[test]
fn packets_are_paced_at_tr() {
    let mut s = sender_at(1e5);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    assert_eq!(ctx.timers[0], Some(SimTime::ZERO));
    let mut t = SimTime::ZERO;
    for i in 0..5 {
        ctx.now = t;
        s.on_timer(PACE, &mut ctx);
        let sent = ctx.drain();
        assert_eq!(sent.len(), 1);
        assert!(matches!(sent[0].header, Hdr::ObpData { seq, retx: false, .. } if seq == i));
        let next = ctx.timers[0].unwrap();
        // 1000 bytes at 1e5 bytes/s: 10 ms.
        assert_eq!(next.since(t), Dur::from_millis(10));
        t = next;
    }
    // An ACK halves TR (AB = -Max.TR): the pending departure moves to last + 20 ms.
    ctx.now = ms(45);
    s.on_packet(&ack(1, M, -M), &mut ctx);
    assert!(close(s.tr(), 5e4));
    assert_eq!(ctx.timers[0], Some(ms(40) + Dur::from_millis(20)));
}

#[test]
fn third_duplicate_ack_retransmits_then_partial_acks_do() {
    let mut s = sender_at(1e6);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    for i in 0..6 {
        ctx.now = SimTime::ZERO + Dur::from_millis(i);
        s.on_timer(PACE, &mut ctx);
    }
    assert_eq!(ctx.drain().len(), 6);
    ctx.now = ms(50);
    for _ in 0..3 {
        s.on_packet(&ack(1, M, 0.0), &mut ctx);
    }
    s.on_packet(&ack(1, M, 0.0), &mut ctx);
    ctx.now = ctx.timers[0].unwrap();
    s.on_timer(PACE, &mut ctx);
    let sent = ctx.drain();
    assert!(matches!(
        sent[0].header,
        Hdr::ObpData {
            seq: 1,
            retx: true,
            ..
        }
    ));
    // A partial ACK (segment 3 lost too) retransmits 3 next.
    s.on_packet(&ack(3, M, 0.0), &mut ctx);
    ctx.now = ctx.timers[0].unwrap();
    s.on_timer(PACE, &mut ctx);
    let sent = ctx.drain();
    assert!(matches!(
        sent[0].header,
        Hdr::ObpData {
            seq: 3,
            retx: true,
            ..
        }
    ));
    assert_eq!(s.stats().retransmitted_packets, 2);
}

#[test]
fn timeout_goes_back_to_the_first_unacknowledged_segment() {
    let mut s = sender_at(1e6);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    for i in 0..3 {
        ctx.now = SimTime::ZERO + Dur::from_millis(i);
        s.on_timer(PACE, &mut ctx);
    }
    ctx.drain();
    let rto_at = ctx.timers[1].unwrap();
    // No sample yet: the RTO is the initial 1 s.
    assert_eq!(rto_at, ms(1000));
    ctx.now = rto_at;
    s.on_timer(TimerSlot(1), &mut ctx);
    s.on_timer(PACE, &mut ctx);
    let sent = ctx.drain();
    assert!(matches!(
        sent[0].header,
        Hdr::ObpData {
            seq: 0,
            retx: true,
            ..
        }
    ));
    assert_eq!(s.stats().timeouts, 1);
}

#[test]
fn finite_transfer_completes() {
    let mut p = ObpParams::paper(1000);
    p.total_packets = Some(2);
    let mut s = ObpSender::new(FlowId(0), Addr { node: 2, agent: 0 }, p);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    s.on_timer(PACE, &mut ctx);
    ctx.now = ctx.timers[0].unwrap();
    s.on_timer(PACE, &mut ctx);
    assert_eq!(ctx.drain().len(), 2);
    assert_eq!(ctx.timers[0], None, "nothing left to pace");
    ctx.now = ms(100);
    s.on_packet(&ack(2, M, 0.0), &mut ctx);
    assert_eq!(s.stats().completed_at, Some(ms(100)));
}

fn port(queue_bytes: u64, bytes_offered: u64) -> ObpPort {
    ObpPort {
        rate: Rate(10_000_000),
        queue_bytes,
        bytes_offered,
    }
}

fn fields(p: &Packet<Hdr>) -> (f32, f32) {
    match p.header {
        Hdr::ObpData { narrow, tight, .. } => (narrow, tight),
        _ => unreachable!(),
    }
}

#[test]
fn router_measures_ab_over_a_period() {
    let mut r = ObpRouter::new(ObpRouterConfig::default());
    // Period 1 opens at 0 with 5000 bytes queued; 5 packets of 1000 bytes in it.
    let mut offered = 0;
    for i in 0..5 {
        offered += 1000;
        let mut p = data(i, f32::INFINITY, f32::INFINITY);
        r.on_packet(ms(2 * i), &mut p, port(5000, offered));
        // Before any period ends: AB = IC.
        assert_eq!(fields(&p), (1.25e6, 1.25e6));
    }
    // A TCP packet counts in BR too, and is left alone.
    offered += 500;
    let mut tcp = Packet {
        size: 500,
        header: Hdr::TcpData {
            seq: 0,
            payload: 460,
            retx: false,
            cwr: false,
            psh: false,
        },
        ..data(0, 0.0, 0.0)
    };
    r.on_packet(ms(9), &mut tcp, port(0, offered));
    assert!(matches!(tcp.header, Hdr::TcpData { .. }));
    assert_eq!(r.periods(), 0);
    // At 10 ms the period ends: BR = 5500 bytes, BI = 5000 bytes, T = 10 ms:
    // AB = 1.25e6 - 10500 / 0.01 = 200000 bytes/s.
    offered += 1000;
    let mut p = data(9, f32::INFINITY, f32::INFINITY);
    r.on_packet(ms(10), &mut p, port(20_000, offered));
    assert_eq!(r.periods(), 1);
    assert!(close(r.available().unwrap(), 2e5), "{:?}", r.available());
    assert_eq!(fields(&p), (1.25e6, 2e5));
    // Period 2 (from 10 ms, BI = 20000, the 10 ms packet in it) ends at 25 ms, T = 15 ms:
    // BR = 1000 + 2000, AB = 1.25e6 - 23000 / 0.015, negative.
    offered += 2000;
    let mut p = data(10, f32::INFINITY, f32::INFINITY);
    r.on_packet(ms(25), &mut p, port(0, offered + 1000));
    let want = 1.25e6 - 23_000.0 / 0.015;
    assert!(close(r.available().unwrap(), want), "{:?}", r.available());
    assert!(want < 0.0);
}

#[test]
fn router_stamps_only_smaller_values() {
    let mut r = ObpRouter::new(ObpRouterConfig::default());
    let mut p = data(0, f32::INFINITY, f32::INFINITY);
    r.on_packet(ms(0), &mut p, port(0, 1000));
    r.on_packet(ms(10), &mut p, port(0, 2000));
    // AB = 1.25e6 - 1000 / 0.01 = 1.15e6.
    assert!(close(r.available().unwrap(), 1.15e6));
    // An upstream narrower link and tighter AB are kept.
    let mut p = data(1, 1e6, -3e5);
    r.on_packet(ms(11), &mut p, port(0, 3000));
    assert_eq!(fields(&p), (1e6, -3e5));
    // Larger upstream values are lowered to this port's.
    let mut p = data(2, 1e9, 1.2e6);
    r.on_packet(ms(12), &mut p, port(0, 4000));
    assert_eq!(fields(&p), (1.25e6, 1.15e6));
    // One lowered, one kept.
    let mut p = data(3, 1e9, 5.0);
    r.on_packet(ms(13), &mut p, port(0, 5000));
    assert_eq!(fields(&p), (1.25e6, 5.0));
}

#[test]
fn receiver_echoes_the_fields_in_40_byte_acks() {
    let mut rx = ObpReceiver::new(TcpSink::new(None));
    let mut ctx = MockCtx::new();
    rx.on_packet(&data(0, 1e6, -5e4), &mut ctx);
    let sent = ctx.drain();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].size, 40);
    assert_eq!(
        sent[0].header,
        Hdr::ObpAck {
            ack: 1,
            narrow: 1e6,
            tight: -5e4
        }
    );
    // Out of order: a duplicate ACK, echoing the latest packet's fields.
    rx.on_packet(&data(2, 2e6, 7e4), &mut ctx);
    let sent = ctx.drain();
    assert_eq!(
        sent[0].header,
        Hdr::ObpAck {
            ack: 1,
            narrow: 2e6,
            tight: 7e4
        }
    );
    assert_eq!(rx.rcv_nxt(), 1);
}

#[test]
fn same_inputs_same_outputs() {
    let run = || {
        let mut s = sender_at(1e5);
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        let mut out = Vec::new();
        for i in 0..50u64 {
            ctx.now = ms(10 * i);
            s.on_timer(PACE, &mut ctx);
            let ab = if i % 3 == 0 { -M / 3.0 } else { M / 5.0 };
            s.on_packet(&ack(i / 2, M, ab), &mut ctx);
            out.push(s.tr().to_bits());
        }
        out
    };
    assert_eq!(run(), run());
}

/// What [`bottleneck`] measured.
#[derive(Debug)]
struct Run {
    /// Utilisation over the last half of the run.
    util: f64,
    /// Largest queue, as a fraction of the buffer.
    max_queue: f64,
    drops: u64,
    /// Jain's index of the flows' deliveries over the last half.
    jain: f64,
}

/// `n` OBP flows (flow i starts at i * `stagger_ms`) over one bottleneck of `rate_bps` with
/// round-trip propagation `rtt_ms` and a buffer of one bandwidth-delay product, stepped every
/// 50 us for `secs`.
fn bottleneck(n: usize, stagger_ms: u64, rate_bps: u64, rtt_ms: u64, secs: u64) -> Run {
    use std::collections::VecDeque;
    let cap = rate_bps as f64 / 8.0;
    let buffer = (cap * rtt_ms as f64 / 1000.0) as u64;
    let one_way = Dur::from_millis(rtt_ms / 2);
    let step = Dur::from_micros(50);
    let mut txs: Vec<ObpSender> = (0..n)
        .map(|i| {
            let mut p = ObpParams::paper(1000);
            p.initial_rate = 1e5;
            ObpSender::new(FlowId(i as u32), Addr { node: 2, agent: 0 }, p)
        })
        .collect();
    let mut rxs: Vec<ObpReceiver> = (0..n)
        .map(|_| ObpReceiver::new(TcpSink::new(None)))
        .collect();
    let mut sctx: Vec<MockCtx> = (0..n).map(|_| MockCtx::new()).collect();
    let mut rctx: Vec<MockCtx> = (0..n).map(|_| MockCtx::new()).collect();
    let mut router = ObpRouter::new(ObpRouterConfig::default());
    let mut queue: VecDeque<Packet<Hdr>> = VecDeque::new();
    let mut queued = 0u64;
    let mut offered = 0u64;
    let mut busy_until = SimTime::ZERO;
    let mut to_rx: VecDeque<(SimTime, Packet<Hdr>)> = VecDeque::new();
    let mut to_tx: VecDeque<(SimTime, Packet<Hdr>)> = VecDeque::new();
    let (mut max_q, mut drops) = (0u64, 0u64);
    let mut delivered = vec![0u64; n];
    let end = SimTime::ZERO + Dur::from_secs(secs);
    let half = SimTime::ZERO + Dur::from_secs(secs / 2);
    let mut t = SimTime::ZERO;
    while t < end {
        for i in 0..n {
            let (tx, c) = (&mut txs[i], &mut sctx[i]);
            c.now = t;
            rctx[i].now = t;
            if t == SimTime::ZERO + Dur::from_millis(stagger_ms * i as u64) {
                tx.on_start(c);
            }
            for slot in 0..2 {
                if c.timers[slot].is_some_and(|at| at <= t) {
                    c.timers[slot] = None;
                    tx.on_timer(TimerSlot(slot as u8), c);
                }
            }
        }
        while to_tx.front().is_some_and(|(at, _)| *at <= t) {
            let (_, a) = to_tx.pop_front().unwrap();
            let i = a.flow.0 as usize;
            txs[i].on_packet(&a, &mut sctx[i]);
        }
        for c in &mut sctx {
            for mut p in c.drain() {
                offered += u64::from(p.size);
                let view = ObpPort {
                    rate: Rate(rate_bps),
                    queue_bytes: queued,
                    bytes_offered: offered,
                };
                router.on_packet(t, &mut p, view);
                if queued + u64::from(p.size) > buffer {
                    drops += 1;
                } else {
                    queued += u64::from(p.size);
                    queue.push_back(p);
                }
            }
        }
        max_q = max_q.max(queued);
        while busy_until <= t {
            let Some(p) = queue.pop_front() else { break };
            queued -= u64::from(p.size);
            busy_until = busy_until.max(t) + Rate(rate_bps).tx_time(u64::from(p.size));
            if busy_until >= half {
                delivered[p.flow.0 as usize] += u64::from(p.size);
            }
            to_rx.push_back((busy_until + one_way, p));
        }
        while to_rx.front().is_some_and(|(at, _)| *at <= t) {
            let (_, p) = to_rx.pop_front().unwrap();
            let i = p.flow.0 as usize;
            rxs[i].on_packet(&p, &mut rctx[i]);
        }
        for c in &mut rctx {
            for a in c.drain() {
                to_tx.push_back((t + one_way, a));
            }
        }
        t = t + step;
    }
    let total: u64 = delivered.iter().sum();
    let x: Vec<f64> = delivered.iter().map(|&d| d as f64).collect();
    let jain = x.iter().sum::<f64>().powi(2) / (n as f64 * x.iter().map(|v| v * v).sum::<f64>());
    Run {
        util: total as f64 / (cap * (secs - secs / 2) as f64),
        max_queue: max_q as f64 / buffer as f64,
        drops,
        jain,
    }
}

#[test]
fn one_flow_fills_one_bottleneck() {
    // Section III, Fig. 3: the TR grows quickly and stabilises at the capacity with a small
    // oscillation; section IV: high utilisation, no drops, a small queue.
    let r = bottleneck(1, 0, 10_000_000, 40, 10);
    eprintln!("{r:?}");
    assert!(r.util > 0.9, "{r:?}");
    assert!(r.max_queue < 0.2, "{r:?}");
    assert_eq!(r.drops, 0);
}

#[test]
fn staggered_flows_share_one_bottleneck() {
    // Section IV: flows started at spaced instants share the link (Jain near 1), high
    // utilisation, no drops, a small queue.
    let r = bottleneck(4, 500, 10_000_000, 40, 20);
    eprintln!("{r:?}");
    assert!(r.util > 0.9, "{r:?}");
    assert!(r.jain > 0.95, "{r:?}");
    assert!(r.max_queue < 0.2, "{r:?}");
    assert_eq!(r.drops, 0);
}

#[test]
fn after_a_whole_empty_period_ab_is_that_empty_periods() {
    // A period with 10 000 bytes in 10 ms, then nothing for 50 ms: a timer would have closed
    // empty periods since, whose AB is IC less the queue they started with.
    let mut r = ObpRouter::new(ObpRouterConfig::default());
    let mut p = data(0, f32::INFINITY, f32::INFINITY);
    r.on_packet(ms(0), &mut p, port(0, 10_000));
    r.on_packet(ms(9), &mut p, port(0, 10_000));
    let mut p = data(1, f32::INFINITY, f32::INFINITY);
    r.on_packet(ms(60), &mut p, port(0, 11_000));
    // The empty queue: IC, exactly what a new port stamps.
    assert_eq!(r.available(), Some(1.25e6));
    assert_eq!(fields(&p), (1.25e6, 1.25e6));
    // With 2500 bytes still queued: IC - 2500 / 0.01.
    let mut p = data(2, f32::INFINITY, f32::INFINITY);
    r.on_packet(ms(100), &mut p, port(2_500, 12_000));
    assert!(close(r.available().unwrap(), 1.25e6 - 2.5e5));
    // 15 ms later (less than two periods): an ordinary period, BR = 1000 B, BI = 2500 B.
    r.on_packet(ms(115), &mut p, port(0, 13_000));
    assert!(close(r.available().unwrap(), 1.25e6 - 3500.0 / 0.015));
}
