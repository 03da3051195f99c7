//! A TCP-M receiver (Ghosh and Varghese 1998, sections 4.1, 4.2, 4.4 and 4.5): a TCP sink
//! ([`TcpSink`], optional delayed ACKs) that joins the group on JOIN_REQUEST, records its
//! parent from PATH, sends REVERSE_PATH to the parent at once and then every RCVR_TMOUT, sends
//! its ACKs encapsulated to the parent, and on FIN leaves the group and answers with FIN_ACK
//! (to the parent, fused on the way) and TCP-M_CLOSE (to the source, not fused).
//! CHOICE: a receiver that has no parent yet (no PATH) sends no ACKs; it has not been told
//! where they go.

use ccsim_core::{Addr, Agent, AgentStats, Ctx, Dur, FlowId, Packet, TimerSlot};

use super::{control, control_with, TcpmKind, ENCAPSULATION_BYTES};
use crate::wrap::Wrapped;
use crate::{AckOptions, Hdr, SackBlocks, TcpSink};

/// The sink's delayed-ACK timer is slot 0.
const REVERSE_PATH_TIMER: TimerSlot = TimerSlot(1);

/// One receiver of a TCP-M session.
#[derive(Clone, Debug)]
pub struct TcpmReceiver {
    flow: FlowId,
    group: u32,
    rcvr_timeout: Dur,
    sink: TcpSink,
    source: Option<Addr>,
    parent: Option<Addr>,
    joined: bool,
    closed: bool,
    /// ACKs sent to the parent.
    acks_sent: u64,
    reverse_paths: u64,
}

impl TcpmReceiver {
    /// A receiver of the session of `flow` (data to group `group`).
    #[must_use]
    pub fn new(flow: FlowId, group: u32, rcvr_timeout: Dur, sink: TcpSink) -> Self {
        TcpmReceiver {
            flow,
            group,
            rcvr_timeout,
            sink,
            source: None,
            parent: None,
            joined: false,
            closed: false,
            acks_sent: 0,
            reverse_paths: 0,
        }
    }

    /// ACKs this receiver sent.
    #[must_use]
    pub fn acks_sent(&self) -> u64 {
        self.acks_sent
    }

    /// REVERSE_PATH messages this receiver sent.
    #[must_use]
    pub fn reverse_paths(&self) -> u64 {
        self.reverse_paths
    }

    /// The parent learned from PATH.
    #[must_use]
    pub fn parent(&self) -> Option<Addr> {
        self.parent
    }

    /// Next segment expected.
    #[must_use]
    pub fn rcv_nxt(&self) -> u64 {
        self.sink.rcv_nxt()
    }

    fn reverse_path<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if let Some(parent) = self.parent {
            self.reverse_paths += 1;
            let me = ctx.addr();
            let have = self.sink.rcv_nxt();
            ctx.send(control_with(
                self.flow,
                parent,
                TcpmKind::ReversePath,
                me,
                have,
            ));
            ctx.set_timer(REVERSE_PATH_TIMER, ctx.now() + self.rcvr_timeout);
        }
    }
}

/// The sink's ACKs go encapsulated to the parent (none without one); `acks` counts them.
fn encapsulate<C: Ctx<Hdr>>(
    parent: Option<Addr>,
    acks: &mut u64,
) -> impl FnMut(&mut C, Packet<Hdr>) + '_ {
    move |outer, pkt| {
        let Hdr::TcpAck { ack, ece, opts, .. } = pkt.header else {
            return outer.send(pkt);
        };
        let sack = AckOptions::sack_of(opts.as_deref()).map(|b| Box::new(SackBlocks::new(b)));
        if let Some(parent) = parent {
            *acks += 1;
            outer.send(Packet {
                dst: parent,
                size: pkt.size + ENCAPSULATION_BYTES,
                header: Hdr::TcpmAck { ack, ece, sack },
                ..pkt
            });
        }
    }
}

impl Agent<Hdr> for TcpmReceiver {
    fn on_start<C: Ctx<Hdr>>(&mut self, _ctx: &mut C) {}

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        match &pkt.header {
            Hdr::TcpmControl { kind, about, .. } => match kind {
                TcpmKind::JoinRequest => {
                    self.source = Some(pkt.src);
                    if !self.joined && !self.closed {
                        self.joined = true;
                        ctx.join_group(self.group);
                    }
                    ctx.send(control(
                        self.flow,
                        pkt.src,
                        TcpmKind::JoinAck,
                        Addr::default(),
                    ));
                }
                TcpmKind::Path if !self.closed => {
                    self.parent = Some(*about);
                    self.reverse_path(ctx);
                }
                TcpmKind::Fin => {
                    if self.joined {
                        self.joined = false;
                        ctx.leave_group(self.group);
                    }
                    self.closed = true;
                    ctx.cancel_timer(REVERSE_PATH_TIMER);
                    let me = ctx.addr();
                    if let Some(parent) = self.parent {
                        ctx.send(control(self.flow, parent, TcpmKind::FinAck, me));
                    }
                    let source = self.source.unwrap_or(pkt.src);
                    let have = self.sink.rcv_nxt();
                    ctx.send(control_with(self.flow, source, TcpmKind::Close, me, have));
                }
                _ => {}
            },
            Hdr::TcpData { .. } => {
                let mut inner =
                    Wrapped::catching_finish(ctx, encapsulate(self.parent, &mut self.acks_sent));
                self.sink.on_packet(pkt, &mut inner);
            }
            _ => {}
        }
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        if slot == REVERSE_PATH_TIMER {
            if !self.closed {
                self.reverse_path(ctx);
            }
        } else {
            let mut inner =
                Wrapped::catching_finish(ctx, encapsulate(self.parent, &mut self.acks_sent));
            self.sink.on_timer(slot, &mut inner);
        }
    }

    fn stats(&self) -> AgentStats {
        self.sink.stats()
    }
}
