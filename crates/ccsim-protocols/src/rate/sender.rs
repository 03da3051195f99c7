//! The report-driven rate-based sender: a [`Pacer`] steered by a controller (TCP-Friend or
//! CBRAA) on each RTCP-style receiver report.
//!
//! On a report: an RTT sample `now - echo - held` updates srtt; the mean time between
//! reports (T_RTCP) is updated; the controller computes the new rate from the current rate,
//! srtt and the report; the floor of one packet per srtt (the paper's minimum rate, section
//! 4) is applied with the configured bounds.
//!
//! CHOICE: srtt is an EWMA with gain 1/8 (RFC 6298's), the first sample taken as is; the paper
//! names srtt without saying how it is smoothed.
//! CHOICE: T_RTCP is the mean of the gaps between the reports received so far, and the
//! configured report interval until two reports have arrived.
//! CHOICE: until the first report the sender keeps its initial rate (5 packets/s by default,
//! the paper's).

use ccsim_core::{
    trace_changes, traced_values, Addr, Agent, Ctx, Dur, FlowId, Packet, SimTime, TimerSlot, VarId,
};

use super::cbraa::{Cbraa, CbraaDecision};
use super::friend::{FriendDecision, TcpFriend};
use super::pacer::{Pacer, PacerConfig};
use super::ReceiverReport;
use crate::Hdr;

const TRACED: [VarId; 3] = [VarId::Rate, VarId::Srtt, VarId::Reports];

/// Which controller steers the sender.
#[derive(Clone, Debug)]
pub enum ReportControl {
    /// TCP-Friend (equation (2) with the reported loss, additive increase without loss).
    TcpFriend,
    /// CBRAA (Figure 1).
    Cbraa(Cbraa),
}

/// Parameters of a report-driven sender.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReportSenderConfig {
    /// Packet size, initial rate and bounds.
    pub pacer: PacerConfig,
    /// The receiver's report interval, used as T_RTCP until it is measured.
    pub report_interval: Dur,
}

/// The last decision a report took (for tests and traces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastDecision {
    /// TCP-Friend's decision.
    Friend(FriendDecision),
    /// CBRAA's decision.
    Cbraa(CbraaDecision),
}

/// A rate-based sender driven by receiver reports.
#[derive(Clone, Debug)]
pub struct ReportSender {
    pacer: Pacer,
    control: ReportControl,
    report_interval: Dur,
    srtt: Option<f64>,
    first_report: Option<SimTime>,
    last_report: Option<SimTime>,
    reports: u64,
    reported_expected: u64,
    reported_lost: u64,
    last_decision: Option<LastDecision>,
}

impl ReportSender {
    /// A sender for `flow` toward `peer`.
    #[must_use]
    pub fn new(flow: FlowId, peer: Addr, cfg: ReportSenderConfig, control: ReportControl) -> Self {
        ReportSender {
            pacer: Pacer::new(flow, peer, cfg.pacer),
            control,
            report_interval: cfg.report_interval,
            srtt: None,
            first_report: None,
            last_report: None,
            reports: 0,
            reported_expected: 0,
            reported_lost: 0,
            last_decision: None,
        }
    }
    /// The pacer (rate, packets sent).
    #[must_use]
    pub fn pacer(&self) -> &Pacer {
        &self.pacer
    }
    /// The smoothed RTT, seconds.
    #[must_use]
    pub fn srtt(&self) -> Option<f64> {
        self.srtt
    }
    /// Packets decided and packets lost, summed over the reports received.
    #[must_use]
    pub fn reported(&self) -> (u64, u64) {
        (self.reported_expected, self.reported_lost)
    }
    /// The decision of the last report.
    #[must_use]
    pub fn last_decision(&self) -> Option<LastDecision> {
        self.last_decision
    }

    /// T_RTCP: the mean time between reports so far, seconds.
    fn t_rtcp(&self) -> f64 {
        match (self.first_report, self.last_report) {
            (Some(first), Some(last)) if self.reports >= 2 => {
                last.since(first).as_secs_f64() / (self.reports - 1) as f64
            }
            _ => self.report_interval.as_secs_f64(),
        }
    }

    fn rtt_dur(&self) -> Option<Dur> {
        self.srtt.map(|s| Dur((s * 1e9).round() as u64))
    }

    fn on_report<C: Ctx<Hdr>>(&mut self, r: &ReceiverReport, ctx: &mut C) {
        let now = ctx.now();
        if r.highest.is_some() {
            let sample = now.since(r.echo).as_secs_f64() - r.held.as_secs_f64();
            if sample > 0.0 {
                self.srtt = Some(self.srtt.map_or(sample, |s| 0.875 * s + 0.125 * sample));
            }
        }
        self.first_report.get_or_insert(now);
        self.last_report = Some(now);
        self.reports += 1;
        self.reported_expected += r.expected;
        self.reported_lost += r.lost;
        let Some(srtt) = self.srtt else {
            return;
        };
        let size = f64::from(self.pacer.packet_size());
        let rate = self.pacer.rate() / size;
        let new_rate = match &mut self.control {
            ReportControl::TcpFriend => {
                let (d, new) = TcpFriend::step(rate, srtt, self.t_rtcp(), r.expected, r.lost);
                self.last_decision = Some(LastDecision::Friend(d));
                new
            }
            ReportControl::Cbraa(c) => {
                let step = c.on_report(now, r.expected, r.lost, rate, srtt);
                self.last_decision = Some(LastDecision::Cbraa(step.decision));
                step.rate
            }
        };
        self.pacer.set_floor(size / srtt, ctx);
        self.pacer.set_rate(new_rate * size, ctx);
    }
}

impl Agent<Hdr> for ReportSender {
    fn on_start<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let before = traced_values(self, ctx, TRACED);
        self.pacer.start(ctx, None);
        trace_changes(self, ctx, TRACED, before);
    }
    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        if let Hdr::ReceiverReport(r) = &pkt.header {
            let before = traced_values(self, ctx, TRACED);
            self.on_report(r, ctx);
            trace_changes(self, ctx, TRACED, before);
        }
    }
    fn on_timer<C: Ctx<Hdr>>(&mut self, _slot: TimerSlot, ctx: &mut C) {
        let rtt = self.rtt_dur();
        self.pacer.on_timer(ctx, rtt);
    }
    fn on_stop<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let before = traced_values(self, ctx, TRACED);
        self.pacer.stop(ctx);
        trace_changes(self, ctx, TRACED, before);
    }
    fn var(&self, var: VarId) -> Option<f64> {
        match var {
            VarId::Rate => Some(self.pacer.traced_rate_bps()),
            VarId::Srtt => self.srtt,
            VarId::Reports => Some(self.reports as f64),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::MockCtx;
    use ccsim_core::Ecn;

    fn sender(control: ReportControl) -> ReportSender {
        ReportSender::new(
            FlowId(0),
            Addr { node: 1, agent: 1 },
            ReportSenderConfig {
                pacer: PacerConfig {
                    packet_size: 1000,
                    initial_rate: 5000.0,
                    min_rate: 1.0,
                    max_rate: f64::INFINITY,
                },
                report_interval: Dur::from_secs(5),
            },
            control,
        )
    }

    fn report(expected: u64, lost: u64, echo_ms: u64, held_ms: u64) -> Packet<Hdr> {
        Packet {
            src: Addr { node: 1, agent: 1 },
            dst: Addr::default(),
            flow: FlowId(0),
            size: 60,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::ReceiverReport(Box::new(ReceiverReport {
                expected,
                lost,
                highest: Some(expected),
                echo: SimTime(echo_ms * 1_000_000),
                held: Dur::from_millis(held_ms),
            })),
        }
    }

    #[test]
    fn a_lossless_report_steps_tcp_friend_up_by_t_over_2_srtt_squared() {
        let mut s = sender(ReportControl::TcpFriend);
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        // At 5.1 s a report echoes the packet stamped 5.0 s, held 20 ms: RTT 80 ms.
        ctx.now = SimTime(5_100_000_000);
        s.on_packet(&report(25, 0, 5000, 20), &mut ctx);
        assert!((s.srtt().unwrap() - 0.08).abs() < 1e-9);
        assert_eq!(
            s.last_decision(),
            Some(LastDecision::Friend(FriendDecision::Increase))
        );
        // 5 packets/s + 5 / (2 * 0.0064) = 395.625 packets/s.
        assert!((s.pacer().rate() - 395_625.0).abs() < 1e-6);
    }

    #[test]
    fn the_rate_never_falls_below_one_packet_per_srtt() {
        let mut s = sender(ReportControl::Cbraa(Cbraa::default()));
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        // An empty report (CBRAA holds) measuring RTT 100 ms: the floor of one packet per
        // srtt, 10 packets/s, lifts the initial 5 packets/s.
        ctx.now = SimTime(5_100_000_000);
        s.on_packet(&report(0, 0, 5000, 0), &mut ctx);
        assert_eq!(
            s.last_decision(),
            Some(LastDecision::Cbraa(CbraaDecision::Hold))
        );
        assert!((s.pacer().rate() - 10_000.0).abs() < 1e-6);
    }
}
