//! Algorithm 1 worked by hand, the sender's state machine, and a sender and receiver in a
//! closed loop over a DropTail bottleneck.

use std::collections::VecDeque;

use ccsim_core::{Addr, Agent, Dur, Ecn, FlowId, Packet, SimTime, TimerSlot};

use super::sender::{PrimoConfig, PrimoSender, TIMEOUT_TIMER};
use super::{algorithm1, Branch, PrimoParams, PrimoReceiver, START_BURST};
use crate::rate::pacer::{PacerConfig, PACE_TIMER};
use crate::testing::MockCtx;
use crate::Hdr;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn algorithm1_takes_the_branch_of_the_threshold_and_its_factor() {
    let p = PrimoParams::default();
    // FTT_ref 1 s, so the thresholds are the constants themselves: TH_rel 0.15 s, TH_mod
    // 0.17 s, TH_str 0.34 s. Old rate 100, rate 90, reception rate 80.
    let run = |dftt: f64| algorithm1(&p, 1.0, dftt, 100.0, 90.0, 80.0);
    // Strong: 100 - 0.5 (100 - 0.95 * 80) = 88; 0.9 * 90 + 0.1 * 88 = 89.8.
    for dftt in [0.34, 2.0] {
        let (b, r) = run(dftt);
        assert_eq!(b, Branch::Strong);
        assert!(close(r, 89.8), "{r}");
    }
    // Moderate: 100 - 0.5 (100 - 0.99 * 80) = 89.6; 81 + 8.96 = 89.96.
    for dftt in [0.17, 0.3399] {
        let (b, r) = run(dftt);
        assert_eq!(b, Branch::Moderate);
        assert!(close(r, 89.96), "{r}");
    }
    // Between TH_rel and TH_mod the rate is kept.
    for dftt in [0.15, 0.1699] {
        let (b, r) = run(dftt);
        assert_eq!(b, Branch::Hold);
        assert!(close(r, 90.0));
    }
    // Release: 100 - 0.5 (100 - 1.05 * 80) = 92; 81 + 9.2 = 90.2.
    for dftt in [0.1499, 0.0, -5.0] {
        let (b, r) = run(dftt);
        assert_eq!(b, Branch::Release);
        assert!(close(r, 90.2), "{r}");
    }
    // The thresholds scale with FTT_ref: 3.4 ms is strong for FTT_ref 10 ms, 2 ms moderate.
    let small = |dftt: f64| algorithm1(&p, 0.01, dftt, 100.0, 90.0, 80.0).0;
    assert_eq!(small(0.0035), Branch::Strong);
    assert_eq!(small(0.002), Branch::Moderate);
    assert_eq!(small(0.0016), Branch::Hold);
    assert_eq!(small(0.0014), Branch::Release);
}

const PEER: Addr = Addr { node: 1, agent: 1 };

fn sender() -> PrimoSender {
    PrimoSender::new(
        FlowId(0),
        PEER,
        &PrimoConfig {
            pacer: PacerConfig {
                packet_size: 1000,
                initial_rate: 1000.0,
                min_rate: 1.0,
                max_rate: f64::INFINITY,
            },
            params: PrimoParams::default(),
        },
    )
}

fn ack(echo: SimTime, ftt_ns: i64, rcv_rate: f32, start: bool) -> Packet<Hdr> {
    Packet {
        src: PEER,
        dst: Addr::default(),
        flow: FlowId(0),
        size: 40,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::PrimoAck {
            echo,
            ftt_ns,
            rcv_rate,
            start,
        },
    }
}

fn ms(x: u64) -> SimTime {
    SimTime(x * 1_000_000)
}

fn probes(sent: &[Packet<Hdr>]) -> Vec<(u64, u8)> {
    sent.iter()
        .map(|p| match p.header {
            Hdr::RateData { seq, probe, .. } => (seq, probe),
            _ => panic!("not data"),
        })
        .collect()
}

#[test]
fn the_start_burst_is_four_packets_and_is_sent_again_until_acknowledged() {
    let mut s = sender();
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    assert_eq!(probes(&ctx.drain()), vec![(0, 1), (1, 2), (2, 3), (3, 4)]);
    assert_eq!(ctx.timers[PACE_TIMER.0 as usize], None);
    assert_eq!(ctx.timers[TIMEOUT_TIMER.0 as usize], Some(ms(1000)));
    // No acknowledgement within 1 s: a new burst, and the next wait is 2 s.
    ctx.now = ms(1000);
    s.on_timer(TIMEOUT_TIMER, &mut ctx);
    assert_eq!(probes(&ctx.drain()), vec![(4, 1), (5, 2), (6, 3), (7, 4)]);
    assert_eq!(ctx.timers[TIMEOUT_TIMER.0 as usize], Some(ms(3000)));
    assert_eq!(s.bursts(), 2);
    // A plain acknowledgement does not start the flow; the burst's does. RTT 40 ms, the
    // burst measured 125 000 B/s: the rate, and TO = 80 ms.
    ctx.now = ms(1040);
    s.on_packet(&ack(ms(1000), 20_000_000, 9e9, false), &mut ctx);
    assert!(!s.running());
    s.on_packet(&ack(ms(1000), 20_000_000, 125_000.0, true), &mut ctx);
    assert!(s.running());
    assert!(close(s.rate(), 125_000.0));
    assert_eq!(s.timeout(), Dur::from_millis(80));
    assert_eq!(probes(&ctx.drain()), vec![(8, 0)]);
    // The next packet one gap (8 ms) later; the timeout counts from the first paced packet.
    assert_eq!(ctx.timers[PACE_TIMER.0 as usize], Some(ms(1048)));
    assert_eq!(ctx.timers[TIMEOUT_TIMER.0 as usize], Some(ms(1120)));
}

/// A sender started at 0 whose burst was acknowledged at 40 ms (RTT_ref 40 ms, so the
/// thresholds scale with 20 ms: TH_str 6.8 ms; first FTT 20 ms; 125 000 B/s), with its timers.
fn running_sender() -> (PrimoSender, MockCtx) {
    let mut s = sender();
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    ctx.now = ms(40);
    s.on_packet(&ack(ms(0), 20_000_000, 125_000.0, true), &mut ctx);
    ctx.drain();
    (s, ctx)
}

fn fire(s: &mut PrimoSender, ctx: &mut MockCtx, slot: TimerSlot) {
    ctx.now = ctx.timers[slot.0 as usize].expect("timer armed");
    ctx.timers[slot.0 as usize] = None;
    s.on_timer(slot, ctx);
}

#[test]
fn without_acknowledgements_the_rate_halves_and_the_timeout_doubles() {
    let (mut s, mut ctx) = running_sender();
    // Keep pacing without acknowledgements until the timeout fires at 40 + 80 ms.
    while ctx.timers[TIMEOUT_TIMER.0 as usize] > ctx.timers[PACE_TIMER.0 as usize] {
        fire(&mut s, &mut ctx, PACE_TIMER);
    }
    let before = s.rate();
    fire(&mut s, &mut ctx, TIMEOUT_TIMER);
    assert_eq!(ctx.now, ms(120));
    assert!(close(s.rate(), before / 2.0));
    assert_eq!(s.timeout(), Dur::from_millis(160));
    assert_eq!(ctx.timers[TIMEOUT_TIMER.0 as usize], Some(ms(280)));
    // Suspended: pacing at the halved rate does not move it.
    fire(&mut s, &mut ctx, PACE_TIMER);
    assert!(close(s.rate(), before / 2.0));
    while ctx.timers[TIMEOUT_TIMER.0 as usize] > ctx.timers[PACE_TIMER.0 as usize] {
        fire(&mut s, &mut ctx, PACE_TIMER);
    }
    fire(&mut s, &mut ctx, TIMEOUT_TIMER);
    assert!(close(s.rate(), before / 4.0));
    assert_eq!(s.timeout(), Dur::from_millis(320));
    assert_eq!(s.stats().timeouts, 2);
    // An acknowledgement brings TO back to 2 RTT_ref.
    let t = ctx.now;
    s.on_packet(
        &ack(SimTime(t.0 - 40_000_000), 20_000_000, 60_000.0, false),
        &mut ctx,
    );
    assert_eq!(s.timeout(), Dur::from_millis(80));
}

#[test]
fn algorithm1_reads_the_ftt_excess_recorded_one_rtt_ref_ago() {
    let (mut s, mut ctx) = running_sender();
    // At 41 ms an acknowledgement reports 8 ms of queueing (above TH_str = 6.8 ms).
    ctx.now = ms(41);
    s.on_packet(&ack(ms(1), 28_000_000, 125_000.0, false), &mut ctx);
    // The packet at 48 ms reads the excess recorded at or before 8 ms: the burst's 0.
    fire(&mut s, &mut ctx, PACE_TIMER);
    assert_eq!(ctx.now, ms(48));
    assert_eq!(s.last_branch(), Some(Branch::Release));
    // From 81 ms on it reads the 8 ms excess.
    while ctx.now < ms(81) {
        fire(&mut s, &mut ctx, PACE_TIMER);
    }
    assert_eq!(s.last_branch(), Some(Branch::Strong));
}

#[test]
fn the_first_release_step_follows_algorithm1_by_hand() {
    let (mut s, mut ctx) = running_sender();
    // An acknowledgement at 45 ms: RTT 40 ms, no excess, reception rate 100 000 B/s.
    ctx.now = ms(45);
    s.on_packet(&ack(ms(5), 20_000_000, 100_000.0, false), &mut ctx);
    fire(&mut s, &mut ctx, PACE_TIMER);
    // Old rate 125 000 (the only rate so far): 125 000 - 0.5 (125 000 - 1.05 * 100 000)
    // = 115 000; 0.9 * 125 000 + 0.1 * 115 000 = 124 000.
    assert_eq!(s.last_branch(), Some(Branch::Release));
    assert!(close(s.rate(), 124_000.0), "{}", s.rate());
    // The next packet leaves one gap at that rate later.
    let gap = (1000.0 / 124_000.0 * 1e9_f64).round() as u64;
    assert_eq!(
        ctx.timers[PACE_TIMER.0 as usize],
        Some(SimTime(ms(48).0 + gap))
    );
}

/// One Primo flow over a DropTail bottleneck of `capacity` bytes per second and `buffer`
/// packets, `one_way` of propagation each way, the receiver's clock `offset_ns` ahead.
struct Loop {
    sender: PrimoSender,
    receiver: PrimoReceiver,
    sctx: MockCtx,
    rctx: MockCtx,
    capacity: f64,
    buffer: usize,
    one_way: Dur,
    /// Departure times from the bottleneck of the packets in it.
    in_queue: VecDeque<SimTime>,
    /// (delivery time, to the receiver, packet)
    flight: Vec<(SimTime, bool, Packet<Hdr>)>,
    dropped: u64,
    /// (send time, sequence number) of every data packet.
    log: Vec<(SimTime, u64)>,
}

impl Loop {
    fn new(capacity: f64, buffer: usize, one_way: Dur, offset_ns: i64) -> Self {
        Loop {
            sender: sender(),
            receiver: PrimoReceiver::with_clock_offset(offset_ns),
            sctx: MockCtx::new(),
            rctx: MockCtx::new(),
            capacity,
            buffer,
            one_way,
            in_queue: VecDeque::new(),
            flight: Vec::new(),
            dropped: 0,
            log: Vec::new(),
        }
    }

    fn launch(&mut self) {
        for pkt in self.sctx.drain() {
            let now = self.sctx.now;
            if let Hdr::RateData { seq, .. } = pkt.header {
                self.log.push((now, seq));
            }
            while self.in_queue.front().is_some_and(|&t| t <= now) {
                self.in_queue.pop_front();
            }
            if self.in_queue.len() > self.buffer {
                self.dropped += 1;
                continue;
            }
            let start = self.in_queue.back().map_or(now, |&t| t.max(now));
            let tx = Dur((f64::from(pkt.size) / self.capacity * 1e9).round() as u64);
            let done = start + tx;
            self.in_queue.push_back(done);
            self.flight.push((done + self.one_way, true, pkt));
        }
        for pkt in self.rctx.drain() {
            self.flight.push((self.rctx.now + self.one_way, false, pkt));
        }
    }

    fn run(&mut self, end: SimTime) {
        self.sender.on_start(&mut self.sctx);
        self.launch();
        loop {
            let flight = self
                .flight
                .iter()
                .enumerate()
                .min_by_key(|(_, (t, _, _))| *t)
                .map(|(i, (t, _, _))| (*t, None, i));
            let mut next = flight;
            for (slot, t) in self.sctx.timers.iter().enumerate() {
                if let Some(t) = *t {
                    if next.is_none_or(|(n, _, _)| t < n) {
                        next = Some((t, Some(slot), 0));
                    }
                }
            }
            let Some((t, slot, idx)) = next.filter(|&(t, _, _)| t < end) else {
                return;
            };
            match slot {
                None => {
                    let (_, to_receiver, pkt) = self.flight.swap_remove(idx);
                    if to_receiver {
                        self.rctx.now = t;
                        self.receiver.on_packet(&pkt, &mut self.rctx);
                    } else {
                        self.sctx.now = t;
                        self.sender.on_packet(&pkt, &mut self.sctx);
                    }
                }
                Some(slot) => {
                    self.sctx.now = t;
                    self.sctx.timers[slot] = None;
                    self.sender.on_timer(TimerSlot(slot as u8), &mut self.sctx);
                }
            }
            self.launch();
        }
    }

    /// Mean sending rate between two times, bytes per second.
    fn sent_rate(&self, from: SimTime, to: SimTime) -> f64 {
        let n = self
            .log
            .iter()
            .filter(|(t, _)| *t >= from && *t < to)
            .count();
        n as f64 * 1000.0 / to.since(from).as_secs_f64()
    }
}

#[test]
fn a_lone_flow_settles_at_the_bottleneck_rate_with_a_short_queue() {
    // 250 000 B/s (2 Mbit/s), 20 ms each way, 30 packets of buffer.
    let mut l = Loop::new(250_000.0, 30, Dur::from_millis(20), 0);
    l.run(ms(20_000));
    let rate = l.sent_rate(ms(10_000), ms(20_000));
    assert!(
        (0.97..=1.03).contains(&(rate / 250_000.0)),
        "sending rate {rate} B/s against 250 000"
    );
    assert_eq!(
        l.dropped, 0,
        "a preventive protocol should not overflow 30 packets"
    );
    assert_eq!(l.sender.bursts(), 0);
    assert_eq!(l.sender.stats().timeouts, 0);
}

#[test]
fn the_receivers_clock_offset_does_not_change_a_single_departure() {
    let end = ms(5000);
    let mut base = Loop::new(250_000.0, 10, Dur::from_millis(20), 0);
    base.run(end);
    for offset in [7_000_000_000i64, -7_000_000_000, 1] {
        let mut shifted = Loop::new(250_000.0, 10, Dur::from_millis(20), offset);
        shifted.run(end);
        assert_eq!(shifted.log, base.log, "offset {offset} ns");
    }
    assert!(base.log.len() > 500);
}

#[test]
fn a_lost_start_burst_is_sent_again() {
    // A one-packet buffer loses the burst's third and fourth packets every time, until the
    // burst is sent through; here the burst can never pass, so bursts keep coming, spaced
    // 1, 2, 4 ... s apart.
    let mut l = Loop::new(250_000.0, 0, Dur::from_millis(20), 0);
    l.buffer = 1;
    l.run(ms(7500));
    let bursts: Vec<SimTime> = l
        .log
        .iter()
        .filter(|(_, seq)| seq % u64::from(START_BURST) == 0)
        .map(|(t, _)| *t)
        .collect();
    assert_eq!(bursts, vec![ms(0), ms(1000), ms(3000), ms(7000)]);
    assert!(!l.sender.running());
}

#[test]
fn a_stopped_sender_ignores_a_late_burst_acknowledgement() {
    let mut s = sender();
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    ctx.now = ms(20);
    s.on_stop(&mut ctx);
    ctx.drain();
    ctx.now = ms(40);
    s.on_packet(&ack(ms(0), 20_000_000, 125_000.0, true), &mut ctx);
    assert!(!s.running());
    assert!(ctx.drain().is_empty());
    assert_eq!(ctx.timers, [None; TimerSlot::MAX]);
}
