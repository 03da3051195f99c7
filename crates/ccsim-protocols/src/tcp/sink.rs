//! The TCP receiver: cumulative ACKs, out-of-order buffering, optional delayed ACKs.
//!
//! RFC 5681 section 4.2 and RFC 1122 section 4.2.3.2: with delayed ACKs on, an ACK is sent
//! for at least every second full-sized segment and within 200 ms of the first unacknowledged
//! one; an out-of-order segment, or one that fills a gap, is acknowledged at once.
//! CHOICE: the delayed-ACK timeout is 200 ms (Linux's minimum and ns-2's default), a
//! per-flow option.

use std::collections::VecDeque;

use ccsim_core::{Addr, Agent, AgentStats, Ctx, Dur, Ecn, Packet, SimTime, TimerSlot};

use crate::{Hdr, TCP_HEADER_BYTES};

const DELACK_TIMER: TimerSlot = TimerSlot(0);

/// A TCP receiver.
#[derive(Clone, Debug)]
pub struct TcpSink {
    delayed_ack: Option<Dur>,
    /// Next segment expected.
    rcv_nxt: u64,
    /// Payload of segments `rcv_nxt + i` already received (`None` = missing).
    reorder: VecDeque<Option<u32>>,
    /// In-order segments not yet acknowledged (delayed-ACK mode).
    unacked: u32,
    /// Where ACKs go (learned from the first data segment).
    peer: Option<Addr>,
    flow: ccsim_core::FlowId,
    stats: AgentStats,
}

impl TcpSink {
    /// A receiver; `delayed_ack` is the delayed-ACK timeout, `None` to ACK every segment.
    #[must_use]
    pub fn new(delayed_ack: Option<Dur>) -> Self {
        TcpSink {
            delayed_ack,
            rcv_nxt: 0,
            reorder: VecDeque::new(),
            unacked: 0,
            peer: None,
            flow: ccsim_core::FlowId(0),
            stats: AgentStats::default(),
        }
    }

    /// Next segment expected.
    #[must_use]
    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }

    fn send_ack<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.unacked = 0;
        ctx.cancel_timer(DELACK_TIMER);
        let Some(peer) = self.peer else { return };
        ctx.send(Packet {
            src: Addr::default(),
            dst: peer,
            flow: self.flow,
            size: TCP_HEADER_BYTES,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::TcpAck { ack: self.rcv_nxt },
        });
    }

    /// Record segment `seq`; returns (was new, arrived in order with no gap behind it).
    fn accept(&mut self, seq: u64, payload: u32) -> (bool, bool) {
        if seq < self.rcv_nxt {
            return (false, false);
        }
        let idx = usize::try_from(seq - self.rcv_nxt).expect("reorder window fits usize");
        if idx >= self.reorder.len() {
            self.reorder.resize(idx + 1, None);
        }
        if self.reorder[idx].is_some() {
            return (false, false);
        }
        self.reorder[idx] = Some(payload);
        // In order with nothing buffered behind it; a segment that fills a gap is not.
        let plain_in_order = idx == 0 && self.reorder.len() == 1;
        while let Some(&Some(p)) = self.reorder.front() {
            self.reorder.pop_front();
            self.rcv_nxt += 1;
            self.stats.app_bytes_delivered += u64::from(p);
        }
        (true, plain_in_order)
    }
}

impl Agent<Hdr> for TcpSink {
    fn on_start<C: Ctx<Hdr>>(&mut self, _ctx: &mut C) {}

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        let Hdr::TcpData { seq, payload, .. } = pkt.header else {
            return;
        };
        self.peer = Some(pkt.src);
        self.flow = pkt.flow;
        self.stats.data_packets_received += 1;
        let (_, in_order) = self.accept(seq, payload);
        match self.delayed_ack {
            Some(timeout) if in_order => {
                self.unacked += 1;
                if self.unacked >= 2 {
                    self.send_ack(ctx);
                } else {
                    ctx.set_timer(DELACK_TIMER, ctx.now() + timeout);
                }
            }
            _ => self.send_ack(ctx),
        }
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        if slot == DELACK_TIMER && self.unacked > 0 {
            self.send_ack(ctx);
        }
    }

    fn stats(&self) -> AgentStats {
        self.stats
    }
}
