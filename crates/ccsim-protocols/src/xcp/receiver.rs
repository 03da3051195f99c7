//! The XCP receiver (section 3.4): a TCP receiver ([`TcpSink`], optional delayed ACKs) that
//! copies the congestion header into its 40-byte ACKs.
//!
//! CHOICE: an ACK echoes the sum of the H_feedback of the data packets that arrived since the
//! previous ACK, with H_cwnd and H_rtt of the latest (ns-2.35's `XcpTcpSink` sums the same
//! way). With an ACK per packet this is the paper's copy; with delayed ACKs a copy of one
//! header would drop the other packet's feedback.

use ccsim_core::{Agent, AgentStats, Ctx, Packet, TimerSlot, VarId};

use crate::wrap::Wrapped;
use crate::{Hdr, TcpSink, TCP_HEADER_BYTES};

/// An XCP receiver.
#[derive(Clone, Debug)]
pub struct XcpReceiver {
    sink: TcpSink,
    echo: Echo,
}

/// What the next ACK carries back.
#[derive(Clone, Copy, Debug, Default)]
struct Echo {
    feedback: f64,
    cwnd: u32,
    rtt_us: u32,
}

/// The sink's sends: its ACKs become XCP ACKs carrying the echo.
fn echoing<C: Ctx<Hdr>>(echo: &mut Echo) -> impl FnMut(&mut C, Packet<Hdr>) + '_ {
    move |outer, pkt| {
        let Hdr::TcpAck { ack, .. } = pkt.header else {
            return outer.send(pkt);
        };
        let echo = std::mem::take(echo);
        outer.send(Packet {
            header: Hdr::XcpAck {
                ack,
                cwnd: echo.cwnd,
                rtt_us: echo.rtt_us,
                feedback: echo
                    .feedback
                    .clamp(-f64::from(f32::MAX), f64::from(f32::MAX))
                    as f32,
            },
            ..pkt
        });
    }
}

impl XcpReceiver {
    /// A receiver around `sink` (SACK is not used: XCP recovers as Reno or NewReno).
    #[must_use]
    pub fn new(sink: TcpSink) -> Self {
        XcpReceiver {
            sink: sink.with_sack(false),
            echo: Echo::default(),
        }
    }

    /// Next segment expected.
    #[must_use]
    pub fn rcv_nxt(&self) -> u64 {
        self.sink.rcv_nxt()
    }
}

impl Agent<Hdr> for XcpReceiver {
    fn on_start<C: Ctx<Hdr>>(&mut self, _ctx: &mut C) {}

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        let Hdr::XcpData {
            seq,
            retx,
            cwnd,
            rtt_us,
            feedback,
        } = pkt.header
        else {
            return;
        };
        self.echo.feedback += f64::from(feedback);
        self.echo.cwnd = cwnd;
        self.echo.rtt_us = rtt_us;
        let tcp = Packet {
            header: Hdr::TcpData {
                seq,
                payload: pkt.size.saturating_sub(TCP_HEADER_BYTES),
                retx,
                cwr: false,
                psh: false,
            },
            ..*pkt
        };
        let mut inner = Wrapped::new(ctx, echoing(&mut self.echo));
        self.sink.on_packet(&tcp, &mut inner);
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        let mut inner = Wrapped::new(ctx, echoing(&mut self.echo));
        self.sink.on_timer(slot, &mut inner);
    }

    fn var(&self, var: VarId) -> Option<f64> {
        self.sink.var(var)
    }

    fn stats(&self) -> AgentStats {
        self.sink.stats()
    }
}
