//! UDP traffic: a constant-bit-rate source, a Poisson source, an exponential on/off source
//! and a counting sink.
//!
//! CHOICE: a packet's size is the whole IP packet; the application payload is that size
//! less 28 bytes of IP and UDP header.
//! CHOICE: the CBR source sends packet k at start + floor(k * size * 8 / rate) seconds
//! (computed exactly in integer nanoseconds, so long runs do not drift). The Poisson source
//! draws exponential gaps with mean size * 8 / rate from its own random stream, rounded to
//! the nanosecond; both send their first packet at the start time.
//! The on/off source is ns-2's `Application/Traffic/Exponential` (tools/expoo.cc): a burst
//! of max(1, round(on / interval)) packets spaced `interval = size * 8 / rate` apart, with
//! `on` drawn exponential, then a silence of `off` drawn exponential added to the next gap.
//! CHOICE: the interval inside a burst is rounded down to the nanosecond (a burst of 50
//! packets at 64 kbit/s drifts by under 50 ns); the first burst starts at the start time.

use ccsim_core::{
    Addr, Agent, AgentStats, Ctx, Dur, Ecn, FlowId, Packet, Rate, SimTime, TimerSlot, VarId,
};

use crate::{Hdr, UDP_HEADER_BYTES};

const SEND_TIMER: TimerSlot = TimerSlot(0);

/// Parameters of a UDP source.
#[derive(Clone, Copy, Debug)]
pub struct UdpConfig {
    /// Mean sending rate.
    pub rate: Rate,
    /// Whole-packet size, bytes.
    pub packet_size: u32,
}

/// How a UDP source spaces its packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Departures {
    /// Constant bit rate: packet k at start + floor(k * size * 8 / rate).
    Constant,
    /// Poisson: exponential gaps with mean size * 8 / rate.
    Poisson,
    /// Exponential on/off: bursts at the rate lasting `mean_on` on average, separated by
    /// silences of `mean_off` on average (ns-2 `Application/Traffic/Exponential`).
    OnOff {
        /// Mean burst length.
        mean_on: Dur,
        /// Mean silence length.
        mean_off: Dur,
    },
}

/// A UDP source: constant-bit-rate or Poisson departures.
#[derive(Clone, Debug)]
pub struct UdpSource {
    flow: FlowId,
    peer: Addr,
    cfg: UdpConfig,
    departures: Departures,
    next_seq: u64,
    started_at: SimTime,
    stopped: bool,
    /// On/off: packets left in the current burst.
    burst_left: u64,
}

impl UdpSource {
    /// A source for `flow` toward `peer`.
    #[must_use]
    pub fn new(flow: FlowId, peer: Addr, cfg: UdpConfig, departures: Departures) -> Self {
        UdpSource {
            flow,
            peer,
            cfg,
            departures,
            next_seq: 0,
            started_at: SimTime::ZERO,
            stopped: false,
            burst_left: 0,
        }
    }

    fn send_one<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let seq = self.next_seq;
        self.next_seq += 1;
        ctx.send(Packet {
            src: Addr::default(),
            dst: self.peer,
            flow: self.flow,
            size: self.cfg.packet_size,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::Udp {
                seq,
                payload: self.cfg.packet_size.saturating_sub(UDP_HEADER_BYTES),
            },
        });
    }

    /// When the next packet (number `self.next_seq`) leaves.
    fn next_departure<C: Ctx<Hdr>>(&mut self, ctx: &mut C) -> SimTime {
        let bits = u128::from(self.cfg.packet_size) * 8;
        match self.departures {
            Departures::Constant => {
                let offset = u128::from(self.next_seq) * bits * 1_000_000_000
                    / u128::from(self.cfg.rate.bps());
                SimTime(
                    self.started_at
                        .0
                        .saturating_add(u64::try_from(offset).unwrap_or(u64::MAX)),
                )
            }
            Departures::Poisson => {
                let mean_ns = bits as f64 * 1e9 / self.cfg.rate.bps() as f64;
                let gap = ctx.rng().exponential(mean_ns).round();
                // A gap beyond u64 nanoseconds (585 years) is as good as never.
                let gap_ns = if gap < 1.8e19 { gap as u64 } else { u64::MAX };
                SimTime(ctx.now().0.saturating_add(gap_ns))
            }
            Departures::OnOff { mean_off, .. } => {
                let interval = self.interval_ns();
                let mut gap = interval;
                if self.burst_left == 0 {
                    gap = gap.saturating_add(draw_ns(ctx, mean_off));
                    self.burst_left = self.burst_packets(ctx);
                }
                SimTime(ctx.now().0.saturating_add(gap))
            }
        }
    }

    /// The spacing of packets inside an on/off burst, ns.
    fn interval_ns(&self) -> u64 {
        let ns =
            u128::from(self.cfg.packet_size) * 8 * 1_000_000_000 / u128::from(self.cfg.rate.bps());
        u64::try_from(ns).unwrap_or(u64::MAX)
    }

    /// The packets of a new burst: max(1, round(on / interval)), `on` drawn exponential.
    fn burst_packets<C: Ctx<Hdr>>(&mut self, ctx: &mut C) -> u64 {
        let Departures::OnOff { mean_on, .. } = self.departures else {
            return 1;
        };
        let on = draw_ns(ctx, mean_on) as f64;
        let packets = (on / self.interval_ns().max(1) as f64).round();
        if packets < 1.0 {
            1
        } else if packets < 1.8e19 {
            packets as u64
        } else {
            u64::MAX
        }
    }
}

/// An exponential draw with mean `mean`, in whole nanoseconds.
fn draw_ns<C: Ctx<Hdr>>(ctx: &mut C, mean: Dur) -> u64 {
    let x = ctx.rng().exponential(mean.0 as f64).round();
    // A draw beyond u64 nanoseconds (585 years) is as good as never.
    if x < 1.8e19 {
        x as u64
    } else {
        u64::MAX
    }
}

impl Agent<Hdr> for UdpSource {
    fn on_start<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.started_at = ctx.now();
        ctx.trace(VarId::Rate, self.cfg.rate.bps() as f64);
        if matches!(self.departures, Departures::OnOff { .. }) {
            self.burst_left = self.burst_packets(ctx);
        }
        self.on_timer(SEND_TIMER, ctx);
    }
    fn on_packet<C: Ctx<Hdr>>(&mut self, _pkt: &Packet<Hdr>, _ctx: &mut C) {}
    fn on_timer<C: Ctx<Hdr>>(&mut self, _slot: TimerSlot, ctx: &mut C) {
        if self.stopped {
            return;
        }
        self.send_one(ctx);
        self.burst_left = self.burst_left.saturating_sub(1);
        let next = self.next_departure(ctx);
        ctx.set_timer(SEND_TIMER, next);
    }
    fn on_stop<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.stopped = true;
        ctx.cancel_timer(SEND_TIMER);
        ctx.trace(VarId::Rate, 0.0);
    }
    fn var(&self, var: VarId) -> Option<f64> {
        (var == VarId::Rate).then(|| {
            if self.stopped {
                0.0
            } else {
                self.cfg.rate.bps() as f64
            }
        })
    }
}

/// A UDP receiver: counts datagrams and bytes, and keeps the arrival
/// times of the first `record_limit` datagrams.
#[derive(Clone, Debug, Default)]
pub struct UdpSink {
    stats: AgentStats,
    highest_seq: Option<u64>,
    record_limit: usize,
    arrivals: Vec<SimTime>,
}

impl UdpSink {
    /// A sink that records the arrival times of up to `record_limit` datagrams.
    #[must_use]
    pub fn new(record_limit: usize) -> Self {
        UdpSink {
            record_limit,
            ..UdpSink::default()
        }
    }
    /// Recorded arrival times.
    #[must_use]
    pub fn arrivals(&self) -> &[SimTime] {
        &self.arrivals
    }
    /// The highest sequence number seen.
    #[must_use]
    pub fn highest_seq(&self) -> Option<u64> {
        self.highest_seq
    }
}

impl Agent<Hdr> for UdpSink {
    fn on_start<C: Ctx<Hdr>>(&mut self, _ctx: &mut C) {}
    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        let Hdr::Udp { seq, payload } = pkt.header else {
            return;
        };
        self.stats.data_packets_received += 1;
        self.stats.app_bytes_delivered += u64::from(payload);
        self.highest_seq = Some(self.highest_seq.map_or(seq, |h| h.max(seq)));
        if self.arrivals.len() < self.record_limit {
            self.arrivals.push(ctx.now());
        }
    }
    fn on_timer<C: Ctx<Hdr>>(&mut self, _slot: TimerSlot, _ctx: &mut C) {}
    fn stats(&self) -> AgentStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::MockCtx;

    /// Drive a source by its own timer for `horizon`; the departure times.
    fn departures(departures: Departures, rate_bps: u64, size: u32, horizon: Dur) -> Vec<u64> {
        let cfg = UdpConfig {
            rate: Rate(rate_bps),
            packet_size: size,
        };
        let mut src = UdpSource::new(FlowId(0), Addr::default(), cfg, departures);
        let mut ctx = MockCtx::new();
        src.on_start(&mut ctx);
        let mut times = Vec::new();
        while let Some(at) = ctx.timers[SEND_TIMER.0 as usize] {
            times.extend(ctx.drain().iter().map(|p| p.sent_at.0));
            if at.0 > horizon.0 {
                break;
            }
            ctx.now = at;
            src.on_timer(SEND_TIMER, &mut ctx);
        }
        times
    }

    #[test]
    fn on_off_bursts_and_silences_have_the_configured_means() {
        // The NEC tool's voice source: 64 kbit/s, 200 B packets (25 ms apart), on 1 s, off 1.35 s.
        let (on, off) = (Dur::from_secs(1), Dur::from_millis(1350));
        let times = departures(
            Departures::OnOff {
                mean_on: on,
                mean_off: off,
            },
            64_000,
            200,
            Dur::from_secs(20_000),
        );
        let interval = 25_000_000u64;
        let mut bursts = vec![1u64];
        let mut silences = Vec::new();
        for w in times.windows(2) {
            let gap = w[1] - w[0];
            if gap == interval {
                *bursts.last_mut().unwrap() += 1;
            } else {
                assert!(gap > interval, "gap {gap} ns inside a burst");
                silences.push((gap - interval) as f64);
                bursts.push(1);
            }
        }
        let n = silences.len() as f64;
        assert!(n > 5000.0, "only {n} silences");
        // Exponential draws: the mean's standard error is mean / sqrt(n); allow 4 of them.
        let mean_off = silences.iter().sum::<f64>() / n;
        let off_ns = off.0 as f64;
        assert!(
            (mean_off - off_ns).abs() < 4.0 * off_ns / n.sqrt(),
            "mean off {mean_off}"
        );
        // Burst packets: round(on / interval), mean 40 packets (the max(1, .) floor adds ~0.01).
        let full = &bursts[..bursts.len() - 1];
        let mean_burst = full.iter().sum::<u64>() as f64 / full.len() as f64;
        let expect = on.0 as f64 / interval as f64;
        assert!(
            (mean_burst - expect).abs() < 4.0 * expect / (full.len() as f64).sqrt(),
            "mean burst {mean_burst}"
        );
        // Duty cycle: the fraction of time spent sending is on / (on + off) = 0.426.
        let span = (times[times.len() - 1] - times[0]) as f64;
        let duty = times.len() as f64 * interval as f64 / span;
        let expect_duty = on.0 as f64 / (on.0 + off.0) as f64;
        assert!(
            (duty - expect_duty).abs() < 0.02,
            "duty {duty}, expected {expect_duty}"
        );
    }

    #[test]
    fn constant_departures_are_exact() {
        let times = departures(Departures::Constant, 640_000, 840, Dur::from_secs(1));
        // 840 B at 640 kbit/s: one packet every 10.5 ms, 96 in the first second (0 .. 997.5 ms).
        assert_eq!(times.len(), 96);
        assert!(times
            .iter()
            .enumerate()
            .all(|(k, &t)| t == k as u64 * 10_500_000));
    }
}
