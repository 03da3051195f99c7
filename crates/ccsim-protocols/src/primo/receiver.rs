//! The Primo receiver (section III-A and III-B): one acknowledgement per data packet, carrying
//! the packet's forward trip time and the instantaneous reception rate; the start burst's
//! acknowledgement carries the bandwidth the burst measured instead.
//!
//! The FTT is the receiver's clock at arrival minus the sender's timestamp. The receiver's
//! clock may be offset from the sender's by a constant ([`PrimoReceiver::with_clock_offset`]);
//! the sender only ever uses differences of FTTs, so the offset cancels.
//!
//! CHOICE: rates are whole-packet bytes per second, as the sender paces them.
//! CHOICE: the instantaneous rate is this packet's size over the time since the previous
//! arrival (of any packet of the flow, burst packets included); a packet arriving in the same
//! nanosecond as the previous one repeats the last rate. `rcv_samples` > 1 (ours; the paper
//! has 1) measures it over the last `rcv_samples` gaps instead: the bytes of the packets that
//! ended them over their total time. The per-packet rate is biased upward for a flow whose
//! gaps vary more (the mean of size / gap exceeds size / mean gap), which, with equal
//! multiplicative factors for every flow, favours the flow that already has more.
//! CHOICE: the start burst is recognised by its position marks (1..=4); its acknowledgement
//! leaves when all four packets of one burst have arrived, echoes the fourth packet's
//! timestamp and carries the first packet's FTT and 3 sizes / (t4 - t1). A burst with a packet
//! missing is never acknowledged: the sender times out and sends a new one; so is one whose
//! four packets arrive in the same nanosecond, which measured nothing.

use std::collections::VecDeque;

use ccsim_core::{Addr, Agent, AgentStats, Ctx, Ecn, Packet, SimTime, TimerSlot};

use super::{PRIMO_ACK_BYTES, START_BURST};
use crate::rate::pacer::payload_of;
use crate::Hdr;

/// The start burst being received.
#[derive(Clone, Copy, Debug)]
struct BurstProgress {
    /// Sequence number of the burst's first packet.
    first_seq: u64,
    /// Positions received, one bit each.
    seen: u8,
    /// Arrival of the first packet and its FTT, nanoseconds.
    first: Option<(SimTime, i64)>,
}

/// The receiving end of a Primo flow.
#[derive(Clone, Debug)]
pub struct PrimoReceiver {
    clock_offset_ns: i64,
    burst: Option<BurstProgress>,
    /// The last `rcv_samples + 1` arrivals (time, size), oldest first.
    arrivals: VecDeque<(SimTime, u32)>,
    /// Bytes of all but the oldest of `arrivals`.
    window_bytes: u64,
    rcv_samples: usize,
    last_rate: f32,
    stats: AgentStats,
}

impl Default for PrimoReceiver {
    fn default() -> Self {
        Self::new()
    }
}

impl PrimoReceiver {
    /// A receiver whose clock agrees with the sender's.
    #[must_use]
    pub fn new() -> Self {
        PrimoReceiver {
            clock_offset_ns: 0,
            burst: None,
            arrivals: VecDeque::new(),
            window_bytes: 0,
            rcv_samples: 1,
            last_rate: 0.0,
            stats: AgentStats::default(),
        }
    }

    /// A receiver whose clock reads `offset_ns` nanoseconds ahead of the sender's (behind if
    /// negative).
    #[must_use]
    pub fn with_clock_offset(offset_ns: i64) -> Self {
        PrimoReceiver {
            clock_offset_ns: offset_ns,
            ..Self::new()
        }
    }

    /// Measure the reception rate over the last `n` inter-arrival gaps (at least 1).
    #[must_use]
    pub fn with_rcv_samples(mut self, n: usize) -> Self {
        self.rcv_samples = n.max(1);
        self
    }

    fn ack<C: Ctx<Hdr>>(
        &self,
        to: &Packet<Hdr>,
        echo: SimTime,
        ftt_ns: i64,
        rate: f32,
        start: bool,
        ctx: &mut C,
    ) {
        ctx.send(Packet {
            src: Addr::default(),
            dst: to.src,
            flow: to.flow,
            size: PRIMO_ACK_BYTES,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::PrimoAck {
                echo,
                ftt_ns,
                rcv_rate: rate,
                start,
            },
        });
    }

    /// Record a start-burst packet; the burst's bandwidth estimate and first FTT once all of
    /// it has arrived.
    fn on_probe(
        &mut self,
        seq: u64,
        probe: u8,
        now: SimTime,
        ftt: i64,
        size: u32,
    ) -> Option<(f32, i64)> {
        let first_seq = seq.checked_sub(u64::from(probe - 1))?;
        let b = match &mut self.burst {
            Some(b) if b.first_seq == first_seq => b,
            slot => slot.insert(BurstProgress {
                first_seq,
                seen: 0,
                first: None,
            }),
        };
        b.seen |= 1 << (probe - 1);
        if probe == 1 {
            b.first = Some((now, ftt));
        }
        let full = (1u8 << START_BURST) - 1;
        if probe != START_BURST || b.seen != full {
            return None;
        }
        let (t1, ftt1) = b.first?;
        self.burst = None;
        let span = now.since(t1).as_secs_f64();
        let bytes = f64::from(START_BURST - 1) * f64::from(size);
        (span > 0.0).then(|| ((bytes / span) as f32, ftt1))
    }
}

impl Agent<Hdr> for PrimoReceiver {
    fn on_start<C: Ctx<Hdr>>(&mut self, _ctx: &mut C) {}

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        let Hdr::RateData {
            seq, stamp, probe, ..
        } = pkt.header
        else {
            return;
        };
        let now = ctx.now();
        self.stats.data_packets_received += 1;
        self.stats.app_bytes_delivered += u64::from(payload_of(pkt.size));
        let local_now = i128::from(now.0) + i128::from(self.clock_offset_ns);
        let ftt = (local_now - i128::from(stamp.0))
            .clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        if !self.arrivals.is_empty() {
            self.window_bytes += u64::from(pkt.size);
        }
        self.arrivals.push_back((now, pkt.size));
        if self.arrivals.len() > self.rcv_samples + 1 {
            self.arrivals.pop_front();
            if let Some(&(_, size)) = self.arrivals.front() {
                self.window_bytes -= u64::from(size);
            }
        }
        if let Some(&(first, _)) = self.arrivals.front() {
            let span = now.since(first).as_secs_f64();
            if span > 0.0 {
                self.last_rate = (self.window_bytes as f64 / span) as f32;
            }
        }
        if probe == 0 {
            self.ack(pkt, stamp, ftt, self.last_rate, false, ctx);
        } else if probe <= START_BURST {
            if let Some((estimate, ftt1)) = self.on_probe(seq, probe, now, ftt, pkt.size) {
                self.ack(pkt, stamp, ftt1, estimate, true, ctx);
            }
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
    use ccsim_core::{Dur, FlowId};

    fn data(seq: u64, stamp: SimTime, probe: u8) -> Packet<Hdr> {
        Packet {
            src: Addr { node: 0, agent: 0 },
            dst: Addr { node: 1, agent: 1 },
            flow: FlowId(0),
            size: 1000,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::RateData {
                seq,
                stamp,
                rtt_us: 0,
                probe,
            },
        }
    }

    fn acks(ctx: &mut MockCtx) -> Vec<(SimTime, i64, f32, bool)> {
        ctx.drain()
            .into_iter()
            .map(|p| match p.header {
                Hdr::PrimoAck {
                    echo,
                    ftt_ns,
                    rcv_rate,
                    start,
                } => (echo, ftt_ns, rcv_rate, start),
                _ => panic!("not a Primo ACK"),
            })
            .collect()
    }

    #[test]
    fn the_start_burst_measures_the_bottleneck_rate() {
        // Four 1000-byte packets sent together at 0 through a 2 Mbit/s bottleneck arrive 4 ms
        // apart after 20 ms of propagation: 3000 bytes over 12 ms is 250 000 B/s.
        let mut r = PrimoReceiver::new();
        let mut ctx = MockCtx::new();
        for k in 0..4u64 {
            ctx.now = SimTime::ZERO + Dur::from_millis(24 + 4 * k);
            r.on_packet(&data(10 + k, SimTime::ZERO, k as u8 + 1), &mut ctx);
        }
        let a = acks(&mut ctx);
        assert_eq!(a.len(), 1);
        let (echo, ftt, rate, start) = a[0];
        assert!(start);
        assert_eq!(echo, SimTime::ZERO);
        assert_eq!(ftt, 24_000_000);
        assert!((f64::from(rate) - 250_000.0).abs() < 0.1);
    }

    #[test]
    fn a_burst_missing_a_packet_is_not_acknowledged_and_the_next_one_is() {
        let mut r = PrimoReceiver::new();
        let mut ctx = MockCtx::new();
        for (seq, probe, ms) in [
            (0, 1, 10),
            (1, 2, 11),
            (3, 4, 13),
            (4, 1, 1010),
            (5, 2, 1012),
            (6, 3, 1014),
            (7, 4, 1016),
        ] {
            ctx.now = SimTime::ZERO + Dur::from_millis(ms);
            r.on_packet(
                &data(seq, SimTime::ZERO + Dur::from_millis(ms - 10), probe),
                &mut ctx,
            );
        }
        let a = acks(&mut ctx);
        assert_eq!(a.len(), 1, "only the complete second burst is acknowledged");
        assert!((f64::from(a[0].2) - 500_000.0).abs() < 0.1);
        assert_eq!(a[0].1, 10_000_000);
    }

    #[test]
    fn every_packet_is_acknowledged_with_its_ftt_and_instantaneous_rate() {
        // A receiver clock 3 s behind: FTTs are negative, their differences exact.
        let mut r = PrimoReceiver::with_clock_offset(-3_000_000_000);
        let mut ctx = MockCtx::new();
        for (seq, sent_ms, arrive_ms) in [(0u64, 0u64, 15u64), (1, 5, 20), (2, 10, 28)] {
            ctx.now = SimTime::ZERO + Dur::from_millis(arrive_ms);
            r.on_packet(
                &data(seq, SimTime::ZERO + Dur::from_millis(sent_ms), 0),
                &mut ctx,
            );
        }
        let a = acks(&mut ctx);
        let ftts: Vec<i64> = a.iter().map(|x| x.1).collect();
        assert_eq!(ftts, vec![-2_985_000_000, -2_985_000_000, -2_982_000_000]);
        // 1000 B over 5 ms, then over 8 ms; the first has no predecessor.
        assert_eq!(a[0].2, 0.0);
        assert!((f64::from(a[1].2) - 200_000.0).abs() < 0.1);
        assert!((f64::from(a[2].2) - 125_000.0).abs() < 0.1);
        assert_eq!(r.stats().app_bytes_delivered, 3 * 960);
    }

    #[test]
    fn over_several_samples_the_rate_is_bytes_over_time() {
        let mut r = PrimoReceiver::new().with_rcv_samples(2);
        let mut ctx = MockCtx::new();
        for (seq, arrive_ms) in [(0u64, 10u64), (1, 15), (2, 23), (3, 24)] {
            ctx.now = SimTime::ZERO + Dur::from_millis(arrive_ms);
            r.on_packet(&data(seq, SimTime::ZERO, 0), &mut ctx);
        }
        let rates: Vec<f64> = acks(&mut ctx).iter().map(|a| f64::from(a.2)).collect();
        // 1000 B over 5 ms; then 2000 B over 13 ms; then 2000 B over 9 ms.
        let want = [0.0, 200_000.0, 2000.0 / 0.013, 2000.0 / 0.009];
        for (got, want) in rates.iter().zip(want) {
            assert!((got - want).abs() < 0.05, "{got} against {want}");
        }
    }
}
