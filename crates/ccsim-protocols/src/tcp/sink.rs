//! The TCP receiver: cumulative ACKs, out-of-order buffering, optional delayed ACKs.
//!
//! RFC 5681 section 4.2 and RFC 1122 section 4.2.3.2: with delayed ACKs on, an ACK is sent
//! for at least every second full-sized segment and within 200 ms of the first unacknowledged
//! one; an out-of-order segment, or one that fills a gap, is acknowledged at once.
//! CHOICE: the delayed-ACK timeout is 200 ms (Linux's minimum and ns-2's default), a
//! per-flow option.
//!
//! SACK (RFC 2018 section 4), when enabled: every ACK sent while out-of-order data is held
//! carries up to three blocks; the first holds the segment that triggered the ACK and the
//! others repeat the most recently reported blocks, newest first.
//! CHOICE: three blocks, the number that fits beside the timestamp option (Linux, ns-2).
//!
//! ECN (RFC 3168 section 6.1.3): after a CE-marked data segment every ACK carries ECE until
//! a data segment with CWR arrives.
//! CHOICE: a CE-marked segment is acknowledged at once, not delayed (as Linux does), so the
//! echo is not held back by up to 200 ms.

use std::collections::VecDeque;

use ccsim_core::{Addr, Agent, AgentStats, Ctx, Dur, Ecn, Packet, SimTime, TimerSlot};

/// A SACK block: segments `start .. end` (end exclusive) are held by the receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SackBlock {
    /// First segment of the block.
    pub start: u64,
    /// One past the last segment of the block.
    pub end: u64,
}

/// The SACK blocks of one ACK (at most [`SackBlocks::MAX`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SackBlocks {
    blocks: [SackBlock; SackBlocks::MAX],
    len: u8,
}

impl SackBlocks {
    /// Blocks per ACK.
    pub const MAX: usize = 3;

    /// Blocks from a slice (at most [`SackBlocks::MAX`] are kept).
    #[must_use]
    pub fn new(blocks: &[SackBlock]) -> Self {
        let mut out = SackBlocks {
            blocks: [SackBlock { start: 0, end: 0 }; SackBlocks::MAX],
            len: 0,
        };
        for b in blocks.iter().take(Self::MAX) {
            out.blocks[usize::from(out.len)] = *b;
            out.len += 1;
        }
        out
    }

    /// The blocks, first (most recent) first.
    #[must_use]
    pub fn as_slice(&self) -> &[SackBlock] {
        &self.blocks[..usize::from(self.len)]
    }
}

use crate::{Hdr, TCP_HEADER_BYTES};

const DELACK_TIMER: TimerSlot = TimerSlot(0);

/// A TCP receiver.
#[derive(Clone, Debug)]
pub struct TcpSink {
    delayed_ack: Option<Dur>,
    sack: bool,
    /// Blocks last reported, most recent first.
    reported: Vec<SackBlock>,
    /// Echo ECE on every ACK (a CE segment arrived, no CWR since).
    ece: bool,
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
            sack: false,
            reported: Vec::new(),
            ece: false,
            rcv_nxt: 0,
            reorder: VecDeque::new(),
            unacked: 0,
            peer: None,
            flow: ccsim_core::FlowId(0),
            stats: AgentStats::default(),
        }
    }

    /// The same receiver, sending SACK blocks (RFC 2018) when `sack` is set.
    #[must_use]
    pub fn with_sack(mut self, sack: bool) -> Self {
        self.sack = sack;
        self
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
            size: TCP_HEADER_BYTES + self.sack_option_bytes(),
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::TcpAck {
                ack: self.rcv_nxt,
                ece: self.ece,
                sack: (self.sack && !self.reported.is_empty())
                    .then(|| Box::new(SackBlocks::new(&self.reported))),
            },
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
        self.stats.app_bytes_held += u64::from(payload);
        // In order with nothing buffered behind it; a segment that fills a gap is not.
        let plain_in_order = idx == 0 && self.reorder.len() == 1;
        while let Some(&Some(p)) = self.reorder.front() {
            self.reorder.pop_front();
            self.rcv_nxt += 1;
            self.stats.app_bytes_held -= u64::from(p);
            self.stats.app_bytes_delivered += u64::from(p);
        }
        (true, plain_in_order)
    }

    /// The held block around out-of-order segment `seq` (which is above `rcv_nxt`).
    fn block_around(&self, seq: u64) -> Option<SackBlock> {
        let held = |s: u64| {
            s >= self.rcv_nxt
                && usize::try_from(s - self.rcv_nxt)
                    .ok()
                    .and_then(|i| self.reorder.get(i))
                    .is_some_and(Option::is_some)
        };
        if !held(seq) {
            return None;
        }
        let mut start = seq;
        while start > self.rcv_nxt && held(start - 1) {
            start -= 1;
        }
        let mut end = seq + 1;
        while held(end) {
            end += 1;
        }
        Some(SackBlock { start, end })
    }

    /// Bytes of the SACK option on the next ACK: kind and length, 8 per block, padded
    /// with NOPs to a multiple of 4 (RFC 2018 section 3).
    fn sack_option_bytes(&self) -> u32 {
        if !self.sack || self.reported.is_empty() {
            return 0;
        }
        let n = u32::try_from(self.reported.len()).expect("at most three blocks");
        (2 + 8 * n).div_ceil(4) * 4
    }

    /// RFC 2018 section 4: the block of the segment just received first, then the blocks
    /// reported before (as they stand now), newest first, without repeats.
    fn update_sack(&mut self, seq: u64) {
        let mut blocks = Vec::with_capacity(SackBlocks::MAX);
        let candidates = std::iter::once(seq).chain(self.reported.iter().map(|b| b.start));
        for s in candidates {
            if blocks.len() == SackBlocks::MAX {
                break;
            }
            if let Some(b) = self.block_around(s) {
                if !blocks.contains(&b) {
                    blocks.push(b);
                }
            }
        }
        self.reported = blocks;
    }
}

impl Agent<Hdr> for TcpSink {
    fn on_start<C: Ctx<Hdr>>(&mut self, _ctx: &mut C) {}

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        let Hdr::TcpData {
            seq, payload, cwr, ..
        } = pkt.header
        else {
            return;
        };
        self.peer = Some(pkt.src);
        self.flow = pkt.flow;
        self.stats.data_packets_received += 1;
        if cwr {
            self.ece = false;
        }
        let ce = pkt.ecn == Ecn::Ce;
        self.ece |= ce;
        let (_, in_order) = self.accept(seq, payload);
        if self.sack {
            self.update_sack(seq);
        }
        match self.delayed_ack {
            Some(timeout) if in_order && !ce => {
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
