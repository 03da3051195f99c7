//! The OBP receiver (Loureiro and Monteiro, section III-B: "the receiver end systems only have
//! to receive the information of the network state in the data packets and send this
//! information back to the source end-systems, through the ACK packets"): a TCP receiver
//! ([`TcpSink`], optional delayed ACKs, no SACK) whose 40-byte ACKs echo the narrow-link and
//! tight-link fields.
//!
//! CHOICE: an ACK echoes the fields of the latest data packet (the freshest path state); with
//! an ACK per packet this is the paper's copy. A duplicate ACK echoes them too.

use ccsim_core::{Addr, Agent, AgentStats, Ctx, Packet, RngStream, SimTime, TimerSlot, VarId};

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

/// The sink's context: its ACKs become OBP ACKs carrying the echo.
struct Echoing<'a, C> {
    outer: &'a mut C,
    echo: &'a mut Echo,
}

impl<C: Ctx<Hdr>> Ctx<Hdr> for Echoing<'_, C> {
    fn now(&self) -> SimTime {
        self.outer.now()
    }
    fn addr(&self) -> Addr {
        self.outer.addr()
    }
    fn send(&mut self, pkt: Packet<Hdr>) {
        let Hdr::TcpAck { ack, .. } = pkt.header else {
            return self.outer.send(pkt);
        };
        self.outer.send(Packet {
            header: Hdr::ObpAck {
                ack,
                narrow: self.echo.narrow,
                tight: self.echo.tight,
            },
            ..pkt
        });
    }
    fn set_timer(&mut self, slot: TimerSlot, at: SimTime) {
        self.outer.set_timer(slot, at);
    }
    fn cancel_timer(&mut self, slot: TimerSlot) {
        self.outer.cancel_timer(slot);
    }
    fn rng(&mut self) -> &mut RngStream {
        self.outer.rng()
    }
    fn tracing(&self, var: VarId) -> bool {
        self.outer.tracing(var)
    }
    fn trace(&mut self, var: VarId, value: f64) {
        self.outer.trace(var, value);
    }
    fn relay(&mut self, pkt: Packet<Hdr>) {
        self.outer.relay(pkt);
    }
    fn join_group(&mut self, key: u32) {
        self.outer.join_group(key);
    }
    fn leave_group(&mut self, key: u32) {
        self.outer.leave_group(key);
    }
    fn finish(&mut self) {
        self.outer.finish();
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
            },
            ..*pkt
        };
        let mut inner = Echoing {
            outer: ctx,
            echo: &mut self.echo,
        };
        self.sink.on_packet(&tcp, &mut inner);
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        let mut inner = Echoing {
            outer: ctx,
            echo: &mut self.echo,
        };
        self.sink.on_timer(slot, &mut inner);
    }

    fn var(&self, var: VarId) -> Option<f64> {
        self.sink.var(var)
    }

    fn stats(&self) -> AgentStats {
        self.sink.stats()
    }
}
