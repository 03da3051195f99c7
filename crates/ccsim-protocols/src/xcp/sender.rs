//! The XCP sender (section 3.3): a TCP sender of our family whose window follows router
//! feedback, with Reno or NewReno loss recovery.
//!
//! CHOICE: a thin wrapper around [`TcpSender`] with [`XcpWindow`] as its congestion control,
//! rather than a second sender: sequence numbers, the retransmission timer, fast retransmit
//! and recovery are TCP's ("in a similar manner to TCP", section 3.3). The wrapper turns the
//! TCP segments into XCP data, stamping the congestion header when they leave, and hands each
//! ACK's feedback to the window before TCP processes the ACK.
//! CHOICE: feedback applies on the ACKs on which TCP would grow its window: those that
//! advance the cumulative ACK point outside fast recovery and not reduced for ECN (ECN is off
//! for XCP). Duplicate ACKs and ACKs in recovery leave the window to Reno's or NewReno's
//! recovery, and their feedback is dropped. After a timeout the window restarts at one
//! packet, and feedback alone grows it: there is no slow start (section 3.3 grows cwnd by
//! feedback only; ns-2.35's `opencwnd` is a no-op too).
//! CHOICE: feedback applies whether or not the sender is using its window (TCP's window
//! validation does not apply): section 3.3's rule has no such condition, and the router already
//! scales positive feedback down by H_cwnd.
//! CHOICE: the header counts whole-packet bytes, as the router measures capacity and queues:
//! H_cwnd = cwnd * packet_size / MSS, and feedback is scaled by MSS / packet_size into the
//! window, which counts payload bytes as TCP's does. The floor "one packet" is one MSS of
//! window. Fractions of a byte of feedback are carried over, not lost.
//! CHOICE: H_rtt is TCP's smoothed RTT (RFC 6298); until the first sample H_rtt = 0 and
//! H_feedback = 0, so those packets ask for nothing and get nothing (routers skip them).
//! CHOICE: without a desired rate the sender asks for any increase (H_feedback = the largest
//! f32), as ns-2.35 asks for 1e24 bytes/s; with a desired rate r it asks for
//! (r rtt - cwnd) / (cwnd / s) (section 3.3). On a path without XCP routers the request comes
//! back unchanged, so the window is capped at `max_window` segments (and 2^40 bytes).

use ccsim_core::{Addr, Agent, AgentStats, Ctx, FlowId, Packet, Rate, TimerSlot, VarId};

use crate::tcp::{AckEvent, AnyCc, CongestionControl, Window};
use crate::wrap::Wrapped;
use crate::{Algorithm, Hdr, TcpConfig, TcpSender, TCP_HEADER_BYTES};

/// Loss recovery of an XCP sender.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum XcpRecovery {
    /// RFC 5681 fast recovery.
    Reno,
    /// RFC 6582 fast recovery with partial acknowledgements.
    #[default]
    NewReno,
}

/// XCP sender options beyond TCP's.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct XcpParams {
    /// Loss recovery (NewReno by default).
    pub recovery: XcpRecovery,
    /// The application's desired rate (section 3.3); `None` asks for any increase.
    pub desired_rate: Option<Rate>,
}

/// XCP's window rule as a congestion-control algorithm: cwnd = max(cwnd + H_feedback, s) on
/// each ACK (section 3.3). The sender sets the feedback of the ACK at hand before TCP
/// processes it.
#[derive(Clone, Debug, PartialEq)]
pub struct XcpWindow {
    /// The feedback of the ACK being processed, payload bytes.
    pending: Option<f64>,
    /// Fraction of a byte carried over.
    frac: f64,
    max_cwnd: u64,
}

impl XcpWindow {
    /// A window no larger than `max_cwnd` bytes.
    #[must_use]
    pub fn new(max_cwnd: u64) -> Self {
        XcpWindow {
            pending: None,
            frac: 0.0,
            max_cwnd,
        }
    }

    /// The feedback (payload bytes) of the ACK about to be processed; `None` clears it.
    pub fn set_feedback(&mut self, feedback: Option<f64>) {
        self.pending = feedback;
    }
}

impl CongestionControl for XcpWindow {
    fn on_ack(&mut self, w: &mut Window, _ack: &AckEvent) {
        let Some(fb) = self.pending.take() else {
            return;
        };
        let target = (w.cwnd as f64 + self.frac + fb)
            .max(w.mss as f64)
            .min(self.max_cwnd as f64);
        let whole = target.floor();
        w.cwnd = whole as u64;
        self.frac = target - whole;
    }
}

/// An XCP sender.
#[derive(Debug)]
pub struct XcpSender {
    tcp: TcpSender,
    packet_size: u32,
    mss: u64,
    desired_rate: Option<Rate>,
    /// TCP's segments of the current input, stamped when it is done.
    outbox: Vec<Packet<Hdr>>,
    /// Feedback received, whole-packet bytes: sum of the positive and of the negative values.
    feedback_up: f64,
    feedback_down: f64,
}

/// TCP's sends: data segments are held back to be stamped; the rest passes through.
fn hold<C: Ctx<Hdr>>(outbox: &mut Vec<Packet<Hdr>>) -> impl FnMut(&mut C, Packet<Hdr>) + '_ {
    move |outer, pkt| {
        if matches!(pkt.header, Hdr::TcpData { .. }) {
            outbox.push(pkt);
        } else {
            outer.send(pkt);
        }
    }
}

impl XcpSender {
    /// A sender for `flow` toward the receiver at `peer`: TCP's parameters from `cfg` (its
    /// `algorithm` is replaced by XCP's window and `params.recovery`; ECN is off).
    ///
    /// # Panics
    /// Panics if `packet_size` does not exceed the 40-byte header (validation prevents it).
    #[must_use]
    pub fn new(flow: FlowId, peer: Addr, cfg: &TcpConfig, params: XcpParams) -> Self {
        assert!(
            cfg.packet_size > TCP_HEADER_BYTES,
            "invariant: packet size validated above header size"
        );
        let mss = u64::from(cfg.packet_size - TCP_HEADER_BYTES);
        let tcp_cfg = TcpConfig {
            algorithm: match params.recovery {
                XcpRecovery::Reno => Algorithm::Reno,
                XcpRecovery::NewReno => Algorithm::NewReno,
            },
            ecn: false,
            ..cfg.clone()
        };
        let max_cwnd = cfg.max_window.saturating_mul(mss).min(1 << 40);
        let cc = AnyCc::Xcp(XcpWindow::new(max_cwnd));
        XcpSender {
            tcp: TcpSender::with_controller(flow, peer, &tcp_cfg, cc),
            packet_size: cfg.packet_size,
            mss,
            desired_rate: params.desired_rate,
            outbox: Vec::new(),
            feedback_up: 0.0,
            feedback_down: 0.0,
        }
    }

    /// The embedded TCP sender.
    #[must_use]
    pub fn tcp(&self) -> &TcpSender {
        &self.tcp
    }
    /// Congestion window, payload bytes.
    #[must_use]
    pub fn cwnd(&self) -> u64 {
        self.tcp.cwnd()
    }
    /// Feedback received so far, whole-packet bytes: (sum of increases, sum of decreases).
    #[must_use]
    pub fn feedback_received(&self) -> (f64, f64) {
        (self.feedback_up, self.feedback_down)
    }

    /// The congestion header for a packet leaving now: (H_cwnd, H_rtt in microseconds,
    /// H_feedback), whole-packet bytes.
    #[must_use]
    pub fn header_fields(&self) -> (u32, u32, f32) {
        let cwnd =
            u128::from(self.tcp.cwnd()) * u128::from(self.packet_size) / u128::from(self.mss);
        let cwnd = u32::try_from(cwnd).unwrap_or(u32::MAX);
        let Some(srtt) = self.tcp.rtt().srtt() else {
            return (cwnd, 0, 0.0);
        };
        let rtt_us = u32::try_from(srtt.as_nanos() / 1000)
            .unwrap_or(u32::MAX)
            .max(1);
        let request = match self.desired_rate {
            None => f32::MAX,
            Some(rate) => {
                let bytes_per_rtt = rate.bps() as f64 / 8.0 * srtt.as_secs_f64();
                let packets = f64::from(cwnd) / f64::from(self.packet_size);
                ((bytes_per_rtt - f64::from(cwnd)) / packets) as f32
            }
        };
        (cwnd, rtt_us, request)
    }

    /// Stamp and send what TCP sent during the input just handled.
    fn flush<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.outbox.is_empty() {
            return;
        }
        let (cwnd, rtt_us, feedback) = self.header_fields();
        for pkt in self.outbox.drain(..) {
            let Hdr::TcpData { seq, retx, .. } = pkt.header else {
                unreachable!("invariant: only data segments are held")
            };
            ctx.send(Packet {
                header: Hdr::XcpData {
                    seq,
                    retx,
                    cwnd,
                    rtt_us,
                    feedback,
                },
                ..pkt
            });
        }
    }

    fn window(&mut self) -> &mut XcpWindow {
        match self.tcp.controller_mut() {
            AnyCc::Xcp(w) => w,
            _ => unreachable!("invariant: an XCP sender's controller is XCP's window"),
        }
    }
}

impl Agent<Hdr> for XcpSender {
    fn on_start<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let mut inner = Wrapped::new(ctx, hold(&mut self.outbox));
        self.tcp.on_start(&mut inner);
        drop(inner);
        self.flush(ctx);
    }

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        let Hdr::XcpAck { ack, feedback, .. } = pkt.header else {
            return;
        };
        let fb = f64::from(feedback);
        if fb >= 0.0 {
            self.feedback_up += fb;
        } else {
            self.feedback_down -= fb;
        }
        let scale = self.mss as f64 / f64::from(self.packet_size);
        self.window().set_feedback(Some(fb * scale));
        let tcp_ack = Packet {
            header: Hdr::TcpAck {
                ack,
                ece: false,
                opts: None,
                ace: None,
            },
            ..*pkt
        };
        let mut inner = Wrapped::new(ctx, hold(&mut self.outbox));
        self.tcp.on_packet(&tcp_ack, &mut inner);
        drop(inner);
        self.window().set_feedback(None);
        self.flush(ctx);
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        let mut inner = Wrapped::new(ctx, hold(&mut self.outbox));
        self.tcp.on_timer(slot, &mut inner);
        drop(inner);
        self.flush(ctx);
    }

    fn on_stop<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let mut inner = Wrapped::new(ctx, hold(&mut self.outbox));
        self.tcp.on_stop(&mut inner);
        drop(inner);
        self.flush(ctx);
    }

    fn var(&self, var: VarId) -> Option<f64> {
        self.tcp.var(var)
    }

    fn stats(&self) -> AgentStats {
        self.tcp.stats()
    }
}
