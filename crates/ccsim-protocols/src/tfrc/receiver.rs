//! The TFRC receiver (RFC 5348 section 6).
//!
//! On each data packet (6.1) the [`LossDetector`] decides the fate of earlier sequence numbers
//! (a gap is a loss once three later packets have arrived, with the loss time interpolated,
//! 5.1 and 5.2); each loss goes to the [`LossHistory`], which groups losses into loss events
//! with the RTT the sender wrote in the packet header and keeps the loss intervals; the loss
//! event rate p is recomputed. Feedback (3.2.2) carries t_recvdata (the send stamp of the
//! latest data packet), t_delay (the time since that packet arrived), X_recv and p. It is sent
//!
//! * on the first data packet (6.3);
//! * at once when a new loss event raises p (6.1 step 4);
//! * when the feedback timer expires (6.2), one RTT after the previous feedback, if data
//!   arrived since; the timer then restarts.
//!
//! X_recv is the bytes received since the previous feedback over the time since it. The first
//! loss event has no interval before it: I_1 is the interval 1/p for which the throughput
//! equation gives the current receive rate (6.3.1).
//!
//! CHOICE: until a data packet carries the sender's RTT (the sender has had no feedback), the
//! receiver answers every data packet at once; these arrive at no more than one packet per
//! second (the sender's rate before its first RTT sample).
//! CHOICE: X_recv is measured over the time since the previous feedback, also when a loss
//! event sends feedback early (the RFC measures over the last R_m seconds); with feedback once
//! per RTT the two agree, and no per-packet arrival record is needed.
//! CHOICE: the first feedback reports X_recv = 0 (nothing has been measured yet); later
//! feedback reports the bytes received since the previous one over the time since it, and a
//! feedback sent at the same instant as the previous one repeats its X_recv.
//! CHOICE: X_recv counts whole packets (the sender's s is the whole packet size), and only new
//! packets (not duplicates nor packets that arrive after being declared lost).
//! CHOICE: the receive rate that seeds the first loss interval (6.3.1's X_target) is the rate
//! measured since the last feedback (as the next feedback would report it), or the last
//! reported X_recv if none can be measured; R is the RTT in the latest header and s the size of
//! the latest packet. With no RTT or no rate yet, I_1 is the number of packets sent before the
//! first lost one (at least 1).
//! CHOICE: when the feedback timer expires with no data since the last feedback, no feedback
//! is sent and the timer stays idle until the next data packet, which arms it one RTT ahead.
//! CHOICE: t_recvdata and t_delay come from the latest data packet to arrive, whatever its
//! sequence number.

use ccsim_core::{Addr, Agent, AgentStats, Ctx, Dur, Ecn, FlowId, Packet, SimTime, TimerSlot};

use super::equation::loss_rate_for;
use super::intervals::LossHistory;
use crate::rate::loss::{Arrival, Fate, LossDetector};
use crate::rate::pacer::payload_of;
use crate::rate::TfrcFeedback;
use crate::{Hdr, UDP_HEADER_BYTES};

/// The receiver's feedback timer slot.
pub const FEEDBACK_TIMER: TimerSlot = TimerSlot(0);
/// Bytes of a feedback packet: IP and UDP, then t_recvdata, t_delay, X_recv and p (4 bytes
/// each).
pub const FEEDBACK_BYTES: u32 = UDP_HEADER_BYTES + 16;

/// Parameters of a TFRC receiver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TfrcReceiverConfig {
    /// Apply history discounting (RFC 5348 section 5.5) to the loss intervals.
    pub history_discounting: bool,
}

/// Why a feedback packet was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeedbackCause {
    /// The first data packet.
    First,
    /// No RTT is known yet: every data packet is answered.
    NoRtt,
    /// A new loss event raised p.
    LossEvent,
    /// The feedback timer expired.
    Timer,
}

/// A TFRC receiver.
#[derive(Clone, Debug)]
pub struct TfrcReceiver {
    cfg: TfrcReceiverConfig,
    /// The sender's address and the flow, from the first data packet.
    peer: Option<(Addr, FlowId)>,
    detector: LossDetector,
    history: LossHistory,
    /// The RTT in the latest header that carried one.
    rtt: Option<Dur>,
    /// The size of the latest data packet, bytes.
    s: u32,
    /// (send stamp, arrival) of the latest data packet.
    latest: Option<(SimTime, SimTime)>,
    /// Bytes of new packets since the last feedback.
    bytes_since: u64,
    /// Data packets (of any kind) since the last feedback.
    packets_since: u64,
    last_feedback: Option<SimTime>,
    last_x_recv: f64,
    p: f64,
    feedback_due: Option<SimTime>,
    feedbacks_sent: u64,
    last_cause: Option<FeedbackCause>,
    stats: AgentStats,
}

impl TfrcReceiver {
    /// A receiver; it learns its sender from the first data packet.
    #[must_use]
    pub fn new(cfg: TfrcReceiverConfig) -> Self {
        TfrcReceiver {
            cfg,
            peer: None,
            detector: LossDetector::new(),
            history: LossHistory::new(cfg.history_discounting),
            rtt: None,
            s: 0,
            latest: None,
            bytes_since: 0,
            packets_since: 0,
            last_feedback: None,
            last_x_recv: 0.0,
            p: 0.0,
            feedback_due: None,
            feedbacks_sent: 0,
            last_cause: None,
            stats: AgentStats::default(),
        }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> TfrcReceiverConfig {
        self.cfg
    }
    /// The current loss event rate p.
    #[must_use]
    pub fn loss_event_rate(&self) -> f64 {
        self.p
    }
    /// The loss history.
    #[must_use]
    pub fn history(&self) -> &LossHistory {
        &self.history
    }
    /// Packets declared lost so far.
    #[must_use]
    pub fn lost(&self) -> u64 {
        self.detector.lost()
    }
    /// Feedback packets sent so far.
    #[must_use]
    pub fn feedbacks_sent(&self) -> u64 {
        self.feedbacks_sent
    }
    /// Why the last feedback was sent.
    #[must_use]
    pub fn last_cause(&self) -> Option<FeedbackCause> {
        self.last_cause
    }
    /// The X_recv of the last feedback, bytes per second.
    #[must_use]
    pub fn last_x_recv(&self) -> f64 {
        self.last_x_recv
    }

    /// The receive rate since the last feedback, bytes per second (`None` if no time has
    /// passed or there was no feedback yet).
    fn measured_rate(&self, now: SimTime) -> Option<f64> {
        let since = now.since(self.last_feedback?);
        (since.0 > 0).then(|| self.bytes_since as f64 / since.as_secs_f64())
    }

    fn send_feedback<C: Ctx<Hdr>>(&mut self, cause: FeedbackCause, ctx: &mut C) {
        let (Some((dst, flow)), Some((stamp, arrival))) = (self.peer, self.latest) else {
            return;
        };
        let now = ctx.now();
        let x_recv = match cause {
            FeedbackCause::First => 0.0,
            _ => self.measured_rate(now).unwrap_or(self.last_x_recv),
        };
        ctx.send(Packet {
            src: Addr::default(),
            dst,
            flow,
            size: FEEDBACK_BYTES,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::TfrcFeedback(Box::new(TfrcFeedback {
                echo: stamp,
                delay: now.since(arrival),
                x_recv,
                p: self.p,
            })),
        });
        self.last_x_recv = x_recv;
        self.last_feedback = Some(now);
        self.bytes_since = 0;
        self.packets_since = 0;
        self.feedbacks_sent += 1;
        self.last_cause = Some(cause);
        match self.rtt {
            Some(r) => {
                let at = now + r;
                self.feedback_due = Some(at);
                ctx.set_timer(FEEDBACK_TIMER, at);
            }
            None => {
                self.feedback_due = None;
                ctx.cancel_timer(FEEDBACK_TIMER);
            }
        }
    }
}

impl Agent<Hdr> for TfrcReceiver {
    fn on_start<C: Ctx<Hdr>>(&mut self, _ctx: &mut C) {}

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        let Hdr::RateData {
            seq, stamp, rtt_us, ..
        } = pkt.header
        else {
            return;
        };
        let now = ctx.now();
        self.stats.data_packets_received += 1;
        let first = self.peer.is_none();
        if first {
            self.peer = Some((pkt.src, pkt.flow));
        }
        if rtt_us > 0 {
            self.rtt = Some(Dur::from_micros(u64::from(rtt_us)));
        }
        self.s = pkt.size;
        self.latest = Some((stamp, now));
        self.packets_since += 1;

        // The losses this arrival decides; the first loss event is seeded from the receive
        // rate so far.
        let x_target = self
            .measured_rate(now)
            .filter(|&x| x > 0.0)
            .unwrap_or(self.last_x_recv);
        let (rtt, s) = (self.rtt, self.s);
        let history = &mut self.history;
        let mut new_event = false;
        let arrival = self.detector.on_arrival(seq, now, |fate| {
            if let Fate::Lost { seq, at } = fate {
                new_event |=
                    history.on_loss(seq, at, rtt, || first_interval(rtt, s, x_target, seq));
            }
        });
        if arrival == Arrival::New {
            self.bytes_since += u64::from(pkt.size);
            self.stats.app_bytes_delivered += u64::from(payload_of(pkt.size));
        }
        let p_prev = self.p;
        self.p = self.history.update(self.detector.highest().unwrap_or(seq));

        if first {
            self.send_feedback(FeedbackCause::First, ctx);
        } else if new_event && self.p > p_prev {
            self.send_feedback(FeedbackCause::LossEvent, ctx);
        } else if self.rtt.is_none() {
            self.send_feedback(FeedbackCause::NoRtt, ctx);
        } else if self.feedback_due.is_none() {
            if let Some(r) = self.rtt {
                let at = now + r;
                self.feedback_due = Some(at);
                ctx.set_timer(FEEDBACK_TIMER, at);
            }
        }
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, _slot: TimerSlot, ctx: &mut C) {
        // A stale wake-up (the deadline moved later) is ignored.
        let Some(due) = self.feedback_due else {
            return;
        };
        if ctx.now() < due {
            return;
        }
        self.feedback_due = None;
        if self.packets_since > 0 {
            self.send_feedback(FeedbackCause::Timer, ctx);
        }
    }

    fn stats(&self) -> AgentStats {
        self.stats
    }
}

/// Section 6.3.1: the synthetic loss interval before the first loss event, whose first lost
/// packet is `seq`: 1/p for the p at which the throughput equation, with packet size `s` and
/// RTT `rtt`, gives `x_target`; without an RTT or a rate, the packets before `seq`.
fn first_interval(rtt: Option<Dur>, s: u32, x_target: f64, seq: u64) -> f64 {
    match rtt {
        Some(r) if x_target > 0.0 && s > 0 => {
            let p = loss_rate_for(f64::from(s), r.as_secs_f64(), x_target);
            if p > 0.0 {
                1.0 / p
            } else {
                f64::MAX
            }
        }
        _ => (seq as f64).max(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::MockCtx;
    use crate::tfrc::equation::throughput;

    const SENDER: Addr = Addr { node: 2, agent: 5 };

    fn ms(v: u64) -> SimTime {
        SimTime(v * 1_000_000)
    }

    fn data(seq: u64, stamp: SimTime, rtt_us: u32) -> Packet<Hdr> {
        Packet {
            src: SENDER,
            dst: Addr { node: 0, agent: 0 },
            flow: FlowId(7),
            size: 1000,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::RateData {
                seq,
                stamp,
                rtt_us,
                probe: 0,
            },
        }
    }

    /// A receiver fed a constant-rate flow: packet k is sent at 10k ms and arrives 40 ms
    /// later, carrying an RTT of 100 ms. Timers due at or before an arrival fire first.
    struct Run {
        r: TfrcReceiver,
        ctx: MockCtx,
        /// (send time in ms, feedback)
        fbs: Vec<(u64, TfrcFeedback)>,
    }

    impl Run {
        fn new(cfg: TfrcReceiverConfig) -> Self {
            Run {
                r: TfrcReceiver::new(cfg),
                ctx: MockCtx::new(),
                fbs: Vec::new(),
            }
        }

        fn fire_until(&mut self, t: SimTime) {
            while let Some(due) = self.ctx.timers[0].filter(|&d| d <= t) {
                self.ctx.now = due;
                self.ctx.timers[0] = None;
                self.r.on_timer(FEEDBACK_TIMER, &mut self.ctx);
                self.collect();
            }
        }

        fn arrive(&mut self, seq: u64) {
            let at = ms(10 * seq + 40);
            self.fire_until(at);
            self.ctx.now = at;
            self.r
                .on_packet(&data(seq, ms(10 * seq), 100_000), &mut self.ctx);
            self.collect();
        }

        fn collect(&mut self) {
            for pkt in self.ctx.drain() {
                assert_eq!(pkt.dst, SENDER);
                assert_eq!(pkt.flow, FlowId(7));
                assert_eq!(pkt.size, 44);
                let Hdr::TfrcFeedback(fb) = pkt.header else {
                    panic!("not feedback");
                };
                self.fbs.push((pkt.sent_at.0 / 1_000_000, *fb));
            }
        }
    }

    #[test]
    fn feedback_on_the_first_packet_and_every_packet_until_an_rtt_is_known() {
        let mut r = TfrcReceiver::new(TfrcReceiverConfig::default());
        let mut ctx = MockCtx::new();
        ctx.now = ms(50);
        r.on_packet(&data(0, ms(0), 0), &mut ctx);
        let sent = ctx.drain();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].dst, SENDER);
        assert_eq!(
            sent[0].header,
            Hdr::TfrcFeedback(Box::new(TfrcFeedback {
                echo: ms(0),
                delay: Dur::ZERO,
                x_recv: 0.0,
                p: 0.0,
            }))
        );
        assert_eq!(r.last_cause(), Some(FeedbackCause::First));
        assert_eq!(ctx.timers[0], None);
        // The sender, without an RTT, sends one packet per second: each is answered, with
        // X_recv = 1000 bytes over 1 s.
        ctx.now = ms(1050);
        r.on_packet(&data(1, ms(1000), 0), &mut ctx);
        let sent = ctx.drain();
        assert_eq!(sent.len(), 1);
        let Hdr::TfrcFeedback(fb) = &sent[0].header else {
            panic!("not feedback");
        };
        assert_eq!((fb.echo, fb.x_recv), (ms(1000), 1000.0));
        assert_eq!(r.last_cause(), Some(FeedbackCause::NoRtt));
        // Once a packet carries the RTT, feedback waits for the timer, one RTT ahead.
        ctx.now = ms(1100);
        r.on_packet(&data(2, ms(1050), 100_000), &mut ctx);
        assert!(ctx.drain().is_empty());
        assert_eq!(ctx.timers[0], Some(ms(1200)));
    }

    #[test]
    fn feedback_once_per_rtt_measures_the_receive_rate() {
        let mut run = Run::new(TfrcReceiverConfig::default());
        for seq in 0..100 {
            run.arrive(seq);
        }
        run.fire_until(ms(2000));
        // First at 40 ms (the first arrival), then every 100 ms while data flows; the timer
        // at 1140 ms finds nothing new and stays idle.
        let times: Vec<u64> = run.fbs.iter().map(|(t, _)| *t).collect();
        assert_eq!(
            times,
            vec![40, 140, 240, 340, 440, 540, 640, 740, 840, 940, 1040]
        );
        assert_eq!(run.ctx.timers[0], None);
        // X_recv: 0 in the first; the timer at 140 ms fires before the arrival at 140 ms, so
        // 9 packets (50..=130 ms) in 0.1 s; then 10 packets (1000 bytes each) per 0.1 s.
        let x: Vec<f64> = run.fbs.iter().map(|(_, fb)| fb.x_recv).collect();
        assert_eq!(x[0], 0.0);
        assert!((x[1] - 90_000.0).abs() < 1e-6);
        for &v in &x[2..] {
            assert!((v - 100_000.0).abs() < 1e-6, "{v}");
        }
        // Each echoes the stamp of the latest packet (sent 50 ms before the feedback, 10 ms
        // before it arrived) and the 10 ms it was held.
        for (t, fb) in &run.fbs[1..] {
            assert_eq!(fb.echo, ms(t - 50));
            assert_eq!(fb.delay, Dur::from_millis(10));
            assert_eq!(fb.p, 0.0);
        }
        assert_eq!(run.r.stats().data_packets_received, 100);
        assert_eq!(run.r.stats().app_bytes_delivered, 100 * 960);
    }

    #[test]
    fn a_new_loss_event_is_reported_at_once() {
        let mut run = Run::new(TfrcReceiverConfig::default());
        // Packets 50 and 52 are lost (one loss event: 50 at 540 ms, 52 at 560 ms); then 70
        // (740 ms), more than one RTT after 540 ms: a second loss event.
        for seq in (0..100).filter(|s| ![50, 52, 70].contains(s)) {
            run.arrive(seq);
        }
        let causes: Vec<(u64, f64)> = run.fbs.iter().map(|(t, fb)| (*t, fb.p)).collect();
        // Periodic feedback at 40..=540 ms with p = 0; the loss of 50 is decided when 54
        // arrives (580 ms), the third packet above it: feedback at once.
        assert!(causes[..6].iter().all(|&(_, p)| p == 0.0));
        assert_eq!(causes[6].0, 580);
        let (_, first) = &run.fbs[6];
        // I_1 is synthesized from the receive rate since the last feedback (540 ms): packets
        // 51 and 53, 2000 bytes in 40 ms, 50000 B/s; I_0 = 54 - 50 + 1 = 5 is shorter, so
        // p = 1 / I_1: the p at which the equation gives 50000 B/s with R = 0.1 s, s = 1000.
        assert!((throughput(1000.0, 0.1, first.p) - 50_000.0).abs() < 1e-6);
        // X_recv counts 54 too: 3000 bytes in 40 ms.
        assert!((first.x_recv - 75_000.0).abs() < 1e-6);
        let i1 = 1.0 / first.p;
        // The loss of 52 (decided at 590 ms) joins the same event: no feedback; the timer
        // restarted at 580 ms fires at 680 ms. The loss of 70 is decided when 73 arrives
        // (770 ms): I_1 = 70 - 50 = 20, I_2 = the synthetic one, I_0 = 4:
        // I_tot1 = 20 + I_2 > I_tot0 = 4 + 20; p = 2 / (20 + I_2), above 1 / I_2: feedback.
        let times: Vec<u64> = causes.iter().map(|&(t, _)| t).collect();
        assert_eq!(&times[6..9], &[580, 680, 770]);
        let second = &run.fbs[8].1;
        assert!((second.p - 2.0 / (20.0 + i1)).abs() < 1e-12);
        assert_eq!(run.r.history().events(), 2);
        assert_eq!(run.r.lost(), 3);
        // Periodic feedback resumes one RTT after the last.
        assert_eq!(times[9], 870);
    }

    #[test]
    fn duplicates_count_as_received_but_not_delivered() {
        let mut r = TfrcReceiver::new(TfrcReceiverConfig {
            history_discounting: true,
        });
        let mut ctx = MockCtx::new();
        for (i, seq) in [0, 1, 1, 2].into_iter().enumerate() {
            ctx.now = ms(10 * i as u64 + 40);
            r.on_packet(&data(seq, ms(10 * i as u64), 100_000), &mut ctx);
        }
        assert_eq!(r.stats().data_packets_received, 4);
        assert_eq!(r.stats().app_bytes_delivered, 3 * 960);
        assert!(r.config().history_discounting);
    }
}
