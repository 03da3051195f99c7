//! The OBP receiver (Loureiro and Monteiro, section III-B: "the receiver end systems only have
//! to receive the information of the network state in the data packets and send this
//! information back to the source end-systems, through the ACK packets"): a TCP receiver
//! ([`TcpSink`], optional delayed ACKs, no SACK) whose 40-byte ACKs echo the narrow-link and
//! tight-link fields.
//!
//! CHOICE: an ACK echoes the fields of the latest data packet (the freshest path state); with
//! an ACK per packet this is the paper's copy. A duplicate ACK echoes them too.

use ccsim_core::{Agent, AgentStats, Ctx, Packet, TimerSlot, VarId};

use crate::wrap::Wrapped;
use crate::{Hdr, TcpSink, TCP_HEADER_BYTES};

/// An OBP receiver.
#[derive(Clone, Debug)]
pub struct ObpReceiver {
    sink: TcpSink,
    echo: Echo,
}

/// What the next ACK carries back.
#[derive(Clone, Copy, Debug)]
struct Echo {
    narrow: f32,
    tight: f32,
}

/// The sink's sends: its ACKs become OBP ACKs carrying the echo.
fn echoing<C: Ctx<Hdr>>(echo: &Echo) -> impl FnMut(&mut C, Packet<Hdr>) + '_ {
    move |outer, pkt| {
        let Hdr::TcpAck { ack, .. } = pkt.header else {
            return outer.send(pkt);
        };
        outer.send(Packet {
            header: Hdr::ObpAck {
                ack,
                narrow: echo.narrow,
                tight: echo.tight,
            },
            ..pkt
        });
    }
}

impl ObpReceiver {
    /// A receiver around `sink` (SACK is not used: the OBP sender reads cumulative ACKs).
    #[must_use]
    pub fn new(sink: TcpSink) -> Self {
        ObpReceiver {
            sink: sink.with_sack(false),
            echo: Echo {
                narrow: f32::INFINITY,
                tight: f32::INFINITY,
            },
        }
    }

    /// Next segment expected.
    #[must_use]
    pub fn rcv_nxt(&self) -> u64 {
        self.sink.rcv_nxt()
    }
}

impl Agent<Hdr> for ObpReceiver {
    fn on_start<C: Ctx<Hdr>>(&mut self, _ctx: &mut C) {}

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        let Hdr::ObpData {
            seq,
            retx,
            narrow,
            tight,
        } = pkt.header
        else {
            return;
        };
        self.echo = Echo { narrow, tight };
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
        let mut inner = Wrapped::new(ctx, echoing(&self.echo));
        self.sink.on_packet(&tcp, &mut inner);
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        let mut inner = Wrapped::new(ctx, echoing(&self.echo));
        self.sink.on_timer(slot, &mut inner);
    }

    fn var(&self, var: VarId) -> Option<f64> {
        self.sink.var(var)
    }

    fn stats(&self) -> AgentStats {
        self.sink.stats()
    }
}
