//! The RTCP-style receiver report agent (RFC 3550 section 6.4.2, reduced): the receiving end
//! of TCP-Friend and CBRAA.
//!
//! Every report interval it sends the sender a [`ReceiverReport`]: the packets whose fate was
//! decided in the interval ("expected") and those declared lost, both from the
//! [`LossDetector`], the highest sequence number received, and the send timestamp of the latest
//! data packet with the time it was held (RTCP's LSR and DLSR), from which the sender takes an
//! RTT sample.
//!
//! CHOICE: losses are counted by the detector (a gap is a loss once three later packets have
//! arrived) rather than by RTCP's `expected - received`, so that reordering within three packets
//! is not counted and a late packet is not counted twice.
//! CHOICE: the first report leaves one interval after the first data packet arrives, and
//! reports continue every interval for as long as the run lasts (an interval with no data
//! reports zero expected). The interval is fixed; RTCP's randomisation (RFC 3550 section 6.3.1)
//! is not applied.

use ccsim_core::{Addr, Agent, AgentStats, Ctx, Dur, Ecn, Packet, SimTime, TimerSlot};

use super::loss::{Fate, LossDetector};
use super::pacer::payload_of;
use super::{ReceiverReport, RECEIVER_REPORT_BYTES};
use crate::Hdr;

const REPORT_TIMER: TimerSlot = TimerSlot(0);

/// The receiver of a report-driven rate-based flow.
#[derive(Clone, Debug)]
pub struct ReportReceiver {
    interval: Dur,
    sender: Option<Addr>,
    flow: ccsim_core::FlowId,
    detector: LossDetector,
    expected: u64,
    lost: u64,
    /// (send timestamp, arrival) of the latest data packet.
    latest: Option<(SimTime, SimTime)>,
    reports_sent: u64,
    stats: AgentStats,
}

impl ReportReceiver {
    /// A receiver that reports every `interval`.
    #[must_use]
    pub fn new(interval: Dur) -> Self {
        ReportReceiver {
            interval,
            sender: None,
            flow: ccsim_core::FlowId(0),
            detector: LossDetector::new(),
            expected: 0,
            lost: 0,
            latest: None,
            reports_sent: 0,
            stats: AgentStats::default(),
        }
    }
    /// Packets declared lost so far.
    #[must_use]
    pub fn lost(&self) -> u64 {
        self.detector.lost()
    }
    /// Reports sent so far.
    #[must_use]
    pub fn reports_sent(&self) -> u64 {
        self.reports_sent
    }
}

impl Agent<Hdr> for ReportReceiver {
    fn on_start<C: Ctx<Hdr>>(&mut self, _ctx: &mut C) {}

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        let Hdr::RateData { seq, stamp, .. } = pkt.header else {
            return;
        };
        let now = ctx.now();
        self.stats.data_packets_received += 1;
        if self.sender.is_none() {
            self.sender = Some(pkt.src);
            self.flow = pkt.flow;
            ctx.set_timer(REPORT_TIMER, now + self.interval);
        }
        let (expected, lost) = (&mut self.expected, &mut self.lost);
        let arrival = self.detector.on_arrival(seq, now, |fate| {
            *expected += 1;
            if matches!(fate, Fate::Lost { .. }) {
                *lost += 1;
            }
        });
        if arrival == super::loss::Arrival::New {
            self.stats.app_bytes_delivered += u64::from(payload_of(pkt.size));
        }
        self.latest = Some((stamp, now));
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, _slot: TimerSlot, ctx: &mut C) {
        let Some(sender) = self.sender else {
            return;
        };
        let now = ctx.now();
        let (echo, held) = self.latest.map_or((SimTime::ZERO, Dur(0)), |(stamp, at)| {
            (stamp, now.since(at))
        });
        let report = ReceiverReport {
            expected: self.expected,
            lost: self.lost,
            highest: self.detector.highest(),
            echo,
            held,
        };
        self.expected = 0;
        self.lost = 0;
        self.reports_sent += 1;
        ctx.send(Packet {
            src: Addr::default(),
            dst: sender,
            flow: self.flow,
            size: RECEIVER_REPORT_BYTES,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::ReceiverReport(Box::new(report)),
        });
        ctx.set_timer(REPORT_TIMER, now + self.interval);
    }

    fn stats(&self) -> AgentStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::MockCtx;
    use ccsim_core::FlowId;

    fn data(seq: u64, stamp_ms: u64) -> Packet<Hdr> {
        Packet {
            src: Addr { node: 0, agent: 0 },
            dst: Addr { node: 1, agent: 1 },
            flow: FlowId(0),
            size: 1000,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::RateData {
                seq,
                stamp: SimTime(stamp_ms * 1_000_000),
                rtt_us: 0,
                probe: 0,
            },
        }
    }

    #[test]
    fn reports_count_losses_per_interval_and_echo_the_latest_stamp() {
        let mut r = ReportReceiver::new(Dur::from_secs(1));
        let mut ctx = MockCtx::new();
        // Packets every 10 ms, sent 50 ms before they arrive; 20..=22 and 150 are lost.
        for seq in 0..200u64 {
            if (20..=22).contains(&seq) || seq == 150 {
                continue;
            }
            ctx.now = SimTime((seq * 10 + 50) * 1_000_000);
            if let Some(t) = ctx.timers[0] {
                if t <= ctx.now {
                    let at = ctx.now;
                    ctx.now = t;
                    r.on_timer(REPORT_TIMER, &mut ctx);
                    ctx.now = at;
                }
            }
            r.on_packet(&data(seq, seq * 10), &mut ctx);
        }
        let reports: Vec<ReceiverReport> = ctx
            .drain()
            .into_iter()
            .map(|p| match p.header {
                Hdr::ReceiverReport(r) => *r,
                _ => panic!("not a report"),
            })
            .collect();
        // First report at 1.05 s (one interval after the first arrival at 50 ms): packets
        // 0..=99 arrived by then. The second, at 2.05 s, covers 100..=199.
        assert_eq!(reports.len(), 1);
        assert_eq!((reports[0].expected, reports[0].lost), (100, 3));
        assert_eq!(reports[0].highest, Some(99));
        assert_eq!(reports[0].echo, SimTime(990_000_000));
        assert_eq!(reports[0].held, Dur::from_millis(10));
        ctx.now = ctx.timers[0].unwrap();
        r.on_timer(REPORT_TIMER, &mut ctx);
        let Hdr::ReceiverReport(second) = &ctx.drain()[0].header else {
            panic!("not a report");
        };
        assert_eq!((second.expected, second.lost), (100, 1));
        assert_eq!(r.lost(), 4);
        assert_eq!(r.stats().app_bytes_delivered, 196 * 960);
    }
}
