//! The paced sender shared by every rate-based protocol: one packet every `size / rate`
//! seconds, each numbered and time-stamped.
//!
//! CHOICE: a rate change takes effect at once: the pending departure is moved to the last
//! departure plus the new gap (or now, if that is past), as ns-2's TFRC agent reschedules its
//! send timer. Gaps are rounded to the nanosecond and are at least one nanosecond.
//! CHOICE: the rate is clamped to `[min_rate, max_rate]` from the configuration, and to a
//! floor the protocol may raise (TFRC's one packet per t_mbi, CBRAA's one packet per srtt).

use ccsim_core::{Addr, Ctx, Dur, Ecn, FlowId, Packet, SimTime, TimerSlot};

use crate::{Hdr, RATE_HEADER_BYTES};

/// The timer slot the pacer uses; protocols built on it use the other slots.
pub const PACE_TIMER: TimerSlot = TimerSlot(0);

/// Parameters of a paced sender. Rates are in bytes per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PacerConfig {
    /// Whole-packet size, bytes.
    pub packet_size: u32,
    /// Rate before the protocol sets one.
    pub initial_rate: f64,
    /// Lower bound on the rate (must be positive).
    pub min_rate: f64,
    /// Upper bound on the rate (may be infinite).
    pub max_rate: f64,
}

/// A paced sender of numbered, time-stamped packets.
#[derive(Clone, Debug)]
pub struct Pacer {
    flow: FlowId,
    peer: Addr,
    cfg: PacerConfig,
    rate: f64,
    floor: f64,
    next_seq: u64,
    last_send: Option<SimTime>,
    running: bool,
}

impl Pacer {
    /// A pacer for `flow` toward `peer`; it sends nothing until [`Pacer::start`].
    #[must_use]
    pub fn new(flow: FlowId, peer: Addr, cfg: PacerConfig) -> Self {
        let mut p = Pacer {
            flow,
            peer,
            cfg,
            rate: cfg.initial_rate,
            floor: 0.0,
            next_seq: 0,
            last_send: None,
            running: false,
        };
        p.rate = p.clamp(cfg.initial_rate);
        p
    }

    /// The current rate, bytes per second.
    #[must_use]
    pub fn rate(&self) -> f64 {
        self.rate
    }
    /// The sending rate as traced (`send_rate`): bits per second, 0 once stopped.
    #[must_use]
    pub fn traced_rate_bps(&self) -> f64 {
        if self.running {
            self.rate * 8.0
        } else {
            0.0
        }
    }
    /// The whole-packet size, bytes.
    #[must_use]
    pub fn packet_size(&self) -> u32 {
        self.cfg.packet_size
    }
    /// Packets sent so far (also the next sequence number).
    #[must_use]
    pub fn sent(&self) -> u64 {
        self.next_seq
    }
    /// Whether the pacer is sending.
    #[must_use]
    pub fn running(&self) -> bool {
        self.running
    }
    /// The time between two packets at the current rate.
    #[must_use]
    pub fn gap(&self) -> Dur {
        let ns = f64::from(self.cfg.packet_size) * 1e9 / self.rate;
        // A gap beyond u64 nanoseconds (585 years) is as good as never.
        Dur(if ns < 1.8e19 {
            (ns.round() as u64).max(1)
        } else {
            u64::MAX
        })
    }

    fn clamp(&self, rate: f64) -> f64 {
        let lo = self.cfg.min_rate.max(self.floor);
        if rate.is_nan() {
            return lo;
        }
        rate.min(self.cfg.max_rate).max(lo)
    }

    /// Send the first packet now and keep sending at the current rate.
    pub fn start<C: Ctx<Hdr>>(&mut self, ctx: &mut C, rtt: Option<Dur>) {
        self.running = true;
        self.send_one(ctx, rtt);
    }

    /// Stop sending.
    pub fn stop<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.running = false;
        ctx.cancel_timer(PACE_TIMER);
    }

    /// The pacing timer fired: send one packet and arm the next departure.
    pub fn on_timer<C: Ctx<Hdr>>(&mut self, ctx: &mut C, rtt: Option<Dur>) {
        if self.running {
            self.send_one(ctx, rtt);
        }
    }

    /// Raise or lower the protocol's floor on the rate (bytes per second), then re-clamp.
    pub fn set_floor<C: Ctx<Hdr>>(&mut self, floor: f64, ctx: &mut C) {
        self.floor = floor.max(0.0);
        self.set_rate(self.rate, ctx);
    }

    /// Set the rate (bytes per second, clamped); the pending departure moves to match.
    pub fn set_rate<C: Ctx<Hdr>>(&mut self, rate: f64, ctx: &mut C) {
        let rate = self.clamp(rate);
        if rate.to_bits() == self.rate.to_bits() {
            return;
        }
        self.rate = rate;
        if let (true, Some(last)) = (self.running, self.last_send) {
            let next = SimTime(last.0.saturating_add(self.gap().0)).max(ctx.now());
            ctx.set_timer(PACE_TIMER, next);
        }
    }

    /// Set the rate (bytes per second, clamped) and send one packet now, the next to leave
    /// one gap at that rate later: for protocols that compute the rate before each packet.
    pub fn send_at_rate<C: Ctx<Hdr>>(&mut self, rate: f64, ctx: &mut C, rtt: Option<Dur>) {
        self.rate = self.clamp(rate);
        self.send_one(ctx, rtt);
    }

    /// Send `n` packets back to back now, marked 1..=n as a probing burst, without starting
    /// the paced stream.
    pub fn send_burst<C: Ctx<Hdr>>(&mut self, n: u8, ctx: &mut C) {
        for probe in 1..=n {
            self.emit(ctx, None, probe);
        }
    }

    fn send_one<C: Ctx<Hdr>>(&mut self, ctx: &mut C, rtt: Option<Dur>) {
        let now = ctx.now();
        self.emit(ctx, rtt, 0);
        ctx.set_timer(PACE_TIMER, SimTime(now.0.saturating_add(self.gap().0)));
    }

    fn emit<C: Ctx<Hdr>>(&mut self, ctx: &mut C, rtt: Option<Dur>, probe: u8) {
        let now = ctx.now();
        let seq = self.next_seq;
        self.next_seq += 1;
        let rtt_us = rtt.map_or(0, |r| u32::try_from(r.0 / 1000).unwrap_or(u32::MAX));
        ctx.send(Packet {
            src: Addr::default(),
            dst: self.peer,
            flow: self.flow,
            size: self.cfg.packet_size.max(RATE_HEADER_BYTES),
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::RateData {
                seq,
                stamp: now,
                rtt_us,
                probe,
            },
        });
        self.last_send = Some(now);
    }
}

/// Application bytes a rate-based data packet of `size` bytes carries.
#[must_use]
pub fn payload_of(size: u32) -> u32 {
    size.saturating_sub(RATE_HEADER_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::MockCtx;

    fn pacer(rate: f64) -> Pacer {
        Pacer::new(
            FlowId(0),
            Addr { node: 1, agent: 1 },
            PacerConfig {
                packet_size: 1000,
                initial_rate: rate,
                min_rate: 10.0,
                max_rate: 1e6,
            },
        )
    }

    #[test]
    fn gap_is_size_over_rate() {
        // 1000 B at 125 000 B/s (1 Mbit/s) is 8 ms.
        assert_eq!(pacer(125_000.0).gap(), Dur::from_millis(8));
    }

    #[test]
    fn sends_numbered_stamped_packets_at_the_rate() {
        let mut p = pacer(125_000.0);
        let mut ctx = MockCtx::new();
        p.start(&mut ctx, None);
        for _ in 0..3 {
            ctx.now = ctx.timers[0].unwrap();
            p.on_timer(&mut ctx, Some(Dur::from_millis(100)));
        }
        let sent = ctx.drain();
        let stamps: Vec<(u64, u64, u32)> = sent
            .iter()
            .map(|pkt| match pkt.header {
                Hdr::RateData {
                    seq, stamp, rtt_us, ..
                } => (seq, stamp.0, rtt_us),
                _ => panic!("not rate data"),
            })
            .collect();
        assert_eq!(
            stamps,
            vec![
                (0, 0, 0),
                (1, 8_000_000, 100_000),
                (2, 16_000_000, 100_000),
                (3, 24_000_000, 100_000)
            ]
        );
        assert!(sent.iter().all(|pkt| pkt.size == 1000));
    }

    #[test]
    fn rate_change_moves_the_pending_departure() {
        let mut p = pacer(125_000.0);
        let mut ctx = MockCtx::new();
        p.start(&mut ctx, None);
        ctx.now = SimTime(2_000_000);
        // Doubling the rate: the next packet leaves 4 ms after the last, not 8.
        p.set_rate(250_000.0, &mut ctx);
        assert_eq!(ctx.timers[0], Some(SimTime(4_000_000)));
        // Halving it well after the last departure: last + 16 ms.
        p.set_rate(62_500.0, &mut ctx);
        assert_eq!(ctx.timers[0], Some(SimTime(16_000_000)));
        // A gap already past: send now.
        ctx.now = SimTime(20_000_000);
        p.set_rate(1e6, &mut ctx);
        assert_eq!(ctx.timers[0], Some(SimTime(20_000_000)));
    }

    #[test]
    fn rate_is_clamped_to_bounds_and_floor() {
        let mut p = pacer(125_000.0);
        let mut ctx = MockCtx::new();
        p.set_rate(1.0, &mut ctx);
        assert_eq!(p.rate(), 10.0);
        p.set_rate(1e9, &mut ctx);
        assert_eq!(p.rate(), 1e6);
        p.set_floor(5000.0, &mut ctx);
        p.set_rate(100.0, &mut ctx);
        assert_eq!(p.rate(), 5000.0);
        p.set_rate(f64::NAN, &mut ctx);
        assert_eq!(p.rate(), 5000.0);
    }
}
