//! UDP traffic: a constant-bit-rate source, a Poisson source and a counting sink.
//!
//! CHOICE: a packet's size is the whole IP packet; the application payload is that size
//! less 28 bytes of IP and UDP header.
//! CHOICE: the CBR source sends packet k at start + floor(k * size * 8 / rate) seconds
//! (computed exactly in integer nanoseconds, so long runs do not drift). The Poisson source
//! draws exponential gaps with mean size * 8 / rate from its own random stream, rounded to
//! the nanosecond; both send their first packet at the start time.

use ccsim_core::{
    Addr, Agent, AgentStats, Ctx, Ecn, FlowId, Packet, Rate, SimTime, TimerSlot, VarId,
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
        }
    }
}

impl Agent<Hdr> for UdpSource {
    fn on_start<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.started_at = ctx.now();
        ctx.trace(VarId::Rate, self.cfg.rate.bps() as f64);
        self.on_timer(SEND_TIMER, ctx);
    }
    fn on_packet<C: Ctx<Hdr>>(&mut self, _pkt: &Packet<Hdr>, _ctx: &mut C) {}
    fn on_timer<C: Ctx<Hdr>>(&mut self, _slot: TimerSlot, ctx: &mut C) {
        if self.stopped {
            return;
        }
        self.send_one(ctx);
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
