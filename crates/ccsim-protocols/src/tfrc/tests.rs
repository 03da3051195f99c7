//! A TFRC sender and receiver in a closed loop over a fixed-delay path that drops every
//! hundredth data packet: the sender must settle at the rate the throughput equation gives
//! for that loss event rate and RTT.

use ccsim_core::{Addr, Agent, Dur, FlowId, Packet, SimTime, TimerSlot};

use super::equation::throughput;
use super::receiver::{TfrcReceiver, TfrcReceiverConfig};
use super::sender::{TfrcConfig, TfrcSender};
use crate::testing::MockCtx;
use crate::Hdr;

const ONE_WAY: Dur = Dur::from_millis(50);

struct Path {
    sender: TfrcSender,
    receiver: TfrcReceiver,
    sctx: MockCtx,
    rctx: MockCtx,
    /// (delivery time, to the receiver, packet)
    flight: Vec<(SimTime, bool, Packet<Hdr>)>,
    dropped: u64,
}

impl Path {
    fn new(cfg: TfrcReceiverConfig) -> Self {
        Path {
            sender: TfrcSender::new(
                FlowId(1),
                Addr { node: 1, agent: 0 },
                &TfrcConfig::default(),
            ),
            receiver: TfrcReceiver::new(cfg),
            sctx: MockCtx::new(),
            rctx: MockCtx::new(),
            flight: Vec::new(),
            dropped: 0,
        }
    }

    fn launch(&mut self) {
        for pkt in self.sctx.drain() {
            if let Hdr::RateData { seq, .. } = pkt.header {
                if seq % 100 == 99 {
                    self.dropped += 1;
                    continue;
                }
            }
            self.flight.push((self.sctx.now + ONE_WAY, true, pkt));
        }
        for pkt in self.rctx.drain() {
            self.flight.push((self.rctx.now + ONE_WAY, false, pkt));
        }
    }

    /// Run the next event (deliveries, then sender timers, then receiver timers, at equal
    /// times); false once nothing is left before `end`.
    fn step(&mut self, end: SimTime) -> bool {
        let flight = self
            .flight
            .iter()
            .enumerate()
            .min_by_key(|(_, (t, _, _))| *t)
            .map(|(i, (t, _, _))| (*t, i));
        let mut next: Option<(SimTime, u8, usize)> = flight.map(|(t, i)| (t, 0, i));
        for (slot, t) in self.sctx.timers.iter().enumerate() {
            if let Some(t) = *t {
                if next.is_none_or(|(n, _, _)| t < n) {
                    next = Some((t, 1, slot));
                }
            }
        }
        if let Some(t) = self.rctx.timers[0] {
            if next.is_none_or(|(n, _, _)| t < n) {
                next = Some((t, 2, 0));
            }
        }
        let Some((t, kind, idx)) = next.filter(|&(t, _, _)| t < end) else {
            return false;
        };
        self.sctx.now = t;
        self.rctx.now = t;
        match kind {
            0 => {
                let (_, to_receiver, pkt) = self.flight.swap_remove(idx);
                if to_receiver {
                    self.receiver.on_packet(&pkt, &mut self.rctx);
                } else {
                    self.sender.on_packet(&pkt, &mut self.sctx);
                }
            }
            1 => {
                self.sctx.timers[idx] = None;
                let slot = TimerSlot(u8::try_from(idx).unwrap());
                self.sender.on_timer(slot, &mut self.sctx);
            }
            _ => {
                self.rctx.timers[0] = None;
                self.receiver.on_timer(TimerSlot(0), &mut self.rctx);
            }
        }
        self.launch();
        true
    }

    fn run(&mut self, end: SimTime) {
        self.sender.on_start(&mut self.sctx);
        self.launch();
        while self.step(end) {}
    }
}

#[test]
fn periodic_loss_settles_at_the_equation_rate() {
    let mut path = Path::new(TfrcReceiverConfig::default());
    path.run(SimTime(30 * 1_000_000_000));
    // RTT 100 ms, no queueing: R = 0.1 s.
    assert!((path.sender.rtt().unwrap() - 0.1).abs() < 1e-9);
    // Losses are about a second apart, so each is its own loss event, 100 packets after the
    // previous one; once the synthetic first interval has left the eight-interval history,
    // I_mean = 100 and p = 0.01.
    assert!(path.dropped >= 20);
    assert_eq!(path.receiver.history().events(), path.receiver.lost());
    assert!(path.receiver.history().closed().iter().all(|&i| i == 100.0));
    assert!((path.receiver.loss_event_rate() - 0.01).abs() < 1e-12);
    assert!((path.sender.loss_event_rate() - 0.01).abs() < 1e-12);
    // X = X_Bps(s = 1000, R = 0.1, p = 0.01) = 112332.23 B/s, below 2 X_recv.
    let expected = throughput(1000.0, 0.1, 0.01);
    assert!((path.sender.allowed_rate() - expected).abs() < 1e-6 * expected);
    assert!((path.sender.rate() - expected).abs() < 1e-6 * expected);
    assert!(path.sender.recv_limit() > path.sender.rate());
    assert_eq!(path.sender.nofeedback_expiries(), 0);
}

#[test]
fn history_discounting_gives_the_same_steady_state_on_regular_losses() {
    let mut path = Path::new(TfrcReceiverConfig {
        history_discounting: true,
    });
    path.run(SimTime(30 * 1_000_000_000));
    // Intervals never exceed twice the mean, so nothing is discounted.
    assert!(path
        .receiver
        .history()
        .discounts()
        .iter()
        .all(|&d| d == 1.0));
    assert!((path.receiver.loss_event_rate() - 0.01).abs() < 1e-12);
}
