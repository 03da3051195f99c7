//! The TCP receiver: cumulative ACKs, out-of-order buffering, optional delayed ACKs.
//!
//! RFC 5681 section 4.2 and RFC 1122 section 4.2.3.2: with delayed ACKs on, an ACK is sent
//! for at least every second full-sized segment and within 200 ms of the first unacknowledged
//! one; an out-of-order segment, or one that fills a gap, is acknowledged at once.
//! CHOICE: the delayed-ACK timeout is 200 ms, Linux's `TCP_DELACK_MAX`, a per-flow option
//! (the scenario's `delayed_ack` gives 200 ms). Linux's own timer adapts from `TCP_ATO_MIN`,
//! 40 ms (`tcp_event_data_recv`), and ns-2's DelAck sink waits 100 ms (`interval_`); in bulk
//! transfers the timer rarely fires (40 ms in place of 200 moved the kernel suite's cases by
//! at most 0.04 in Jain's index: docs/validation.md).
//!
//! ACK on PSH (`ack_on_push`), Linux's receiver since 6.6 (commit 4720852ed9af, "tcp: fix
//! delayed ACKs for MSS boundary condition"; backported to 5.15 and 6.1): a full-sized
//! segment with PSH sets `ICSK_ACK_PUSHED` (`tcp_measure_rcv_mss`), and `tcp_cleanup_rbuf`
//! acknowledges at once when the application's read then empties the receive queue. With
//! Linux's sender marking every send of several segments (`tcp/sender/transmit.rs`), the
//! receiver acknowledges at the end of each send as well as every second segment, and a
//! send that follows a one-segment send draws an ACK of one segment.
//! Every PSH segment is acknowledged at once: a short one (the data's last) would be by
//! Linux's other branch of `tcp_measure_rcv_mss`, which sets `ICSK_ACK_PUSHED` for any
//! segment shorter than the MSS.
//! CHOICE: the receiving application reads each segment as it arrives (the queue is then
//! empty), so the ACK leaves with the segment; Linux's leaves when the application has read
//! it, tens of microseconds later in the kernel captures (docs/validation.md, "The
//! receiver's single-segment ACKs").
//!
//! SACK (RFC 2018 section 4), when enabled: every ACK sent while out-of-order data is held
//! carries up to three blocks; the first holds the segment that triggered the ACK and the
//! others repeat the most recently reported blocks, newest first.
//! CHOICE: three blocks, the number that fits beside the timestamp option (Linux, ns-2).
//! D-SACK (RFC 2883), when enabled (senders running RACK): the ACK of a segment that
//! arrives a second time carries that segment as its first block, once, before the usual
//! blocks (section 4, one duplicate per ACK).
//!
//! ECN (RFC 3168 section 6.1.3): after a CE-marked data segment every ACK carries ECE until
//! a data segment with CWR arrives.
//! CHOICE: a CE-marked segment is acknowledged at once, not delayed (as Linux does), so the
//! echo is not held back by up to 200 ms.

use std::collections::{BTreeMap, VecDeque};

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

    /// Keep the first `len` blocks.
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(u8::try_from(len).unwrap_or(u8::MAX));
    }
}

/// The options of an ACK beyond timestamps: its SACK blocks and its AccECN option. An ACK
/// carries them boxed, and only when it has either.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AckOptions {
    /// SACK blocks (none when the receiver holds no out-of-order data).
    pub sack: SackBlocks,
    /// The AccECN option (`tcp/accecn.rs`).
    pub accecn: Option<AccEcnOption>,
}

impl AckOptions {
    /// The SACK blocks of an ACK's options; `None` when it carries none.
    #[must_use]
    pub fn sack_of(opts: Option<&AckOptions>) -> Option<&[SackBlock]> {
        opts.map(|o| o.sack.as_slice()).filter(|b| !b.is_empty())
    }

    /// Bytes the options add to the header: the SACK option (two NOPs, kind and length, 8
    /// per block: RFC 2018 section 3's aligned layout) and the AccECN option's share.
    #[must_use]
    pub fn wire_bytes(&self) -> u32 {
        sack_option_bytes(self.sack.as_slice().len())
            + self.accecn.map_or(0, |a| u32::from(a.wire_bytes))
    }
}

use super::accecn::{AccEcnOption, AccEcnReceiver, TCP_OPTION_SPACE};
use crate::{tcp_header_bytes, tcp_syn_bytes, Hdr, TCP_TIMESTAMP_OPTION_BYTES};

/// Bytes of a SACK option of `blocks` blocks: kind and length, 8 per block, padded with NOPs
/// to a multiple of 4 (RFC 2018 section 3); none without blocks.
fn sack_option_bytes(blocks: usize) -> u32 {
    if blocks == 0 {
        return 0;
    }
    let n = u32::try_from(blocks).expect("at most three blocks");
    (2 + 8 * n).div_ceil(4) * 4
}

const DELACK_TIMER: TimerSlot = TimerSlot(0);

/// A receiver's SACK state (RFC 2018).
#[derive(Clone, Debug, Default)]
struct SackState {
    /// Blocks last reported, most recent first.
    reported: Vec<SackBlock>,
    /// A duplicate segment to report first on the next ACK (RFC 2883), if D-SACK is on.
    dsack: Option<SackBlock>,
    /// Whether duplicates are reported (D-SACK).
    dsack_on: bool,
    /// The held runs above `rcv_nxt`, start to end (exclusive), so that a block is found in
    /// O(log n) rather than by walking a run that may span the whole window.
    held: BTreeMap<u64, u64>,
}

/// A TCP receiver.
#[derive(Clone, Debug)]
pub struct TcpSink {
    delayed_ack: Option<Dur>,
    /// Acknowledge a segment with PSH at once (Linux's receiver since 6.6).
    ack_on_push: bool,
    /// Echo ECE on every ACK (a CE segment arrived, no CWR since; with `ce_echo`, the last
    /// segment was CE).
    ece: bool,
    /// DCTCP's echo (RFC 8257 section 3.2): ECE says whether the segments acknowledged were
    /// CE, not latched until CWR.
    ce_echo: bool,
    /// Next segment expected.
    rcv_nxt: u64,
    /// Payload of segments `rcv_nxt + i` already received (`None` = missing).
    reorder: VecDeque<Option<u32>>,
    /// With SACK on, its state (boxed: most receivers run without it).
    sack: Option<Box<SackState>>,
    /// In-order segments not yet acknowledged (delayed-ACK mode).
    unacked: u32,
    /// Where ACKs go (learned from the first data segment).
    peer: Option<Addr>,
    flow: ccsim_core::FlowId,
    /// RFC 7323 timestamps on the ACKs.
    timestamps: bool,
    /// AccECN feedback (`tcp/accecn.rs`), boxed: most receivers run without it.
    accecn: Option<Box<AccEcnReceiver>>,
    stats: AgentStats,
}

impl TcpSink {
    /// A receiver; `delayed_ack` is the delayed-ACK timeout, `None` to ACK every segment.
    #[must_use]
    pub fn new(delayed_ack: Option<Dur>) -> Self {
        TcpSink {
            delayed_ack,
            ack_on_push: false,
            ece: false,
            ce_echo: false,
            rcv_nxt: 0,
            reorder: VecDeque::new(),
            sack: None,
            unacked: 0,
            peer: None,
            flow: ccsim_core::FlowId(0),
            timestamps: false,
            accecn: None,
            stats: AgentStats::default(),
        }
    }

    /// The same receiver, returning AccECN feedback when `on` is set: the ACE field, and
    /// the AccECN option on every ACK where it fits.
    #[must_use]
    pub fn with_accecn(mut self, on: bool) -> Self {
        self.accecn = on.then(|| Box::new(AccEcnReceiver::new(true)));
        self
    }

    /// The same receiver, acknowledging a segment with PSH at once when `on` is set (Linux's
    /// receiver since 6.6); only a delayed-ACK receiver has ACKs to hold back.
    #[must_use]
    pub fn with_ack_on_push(mut self, on: bool) -> Self {
        self.ack_on_push = on;
        self
    }

    /// The same receiver, sending SACK blocks (RFC 2018) when `sack` is set.
    #[must_use]
    pub fn with_sack(mut self, sack: bool) -> Self {
        self.sack = sack.then(Box::default);
        self
    }

    /// The same receiver, echoing timestamps (RFC 7323): 12 bytes more on every ACK and 8
    /// more on the SYN-ACK.
    #[must_use]
    pub fn with_timestamps(mut self, on: bool) -> Self {
        self.timestamps = on;
        self
    }

    /// The same receiver (with SACK), reporting duplicate segments (RFC 2883 D-SACK).
    #[must_use]
    pub fn with_dsack(mut self, on: bool) -> Self {
        if let Some(state) = self.sack.as_deref_mut() {
            state.dsack_on = on;
        }
        self
    }

    /// The same receiver, echoing CE per segment as DCTCP's (RFC 8257 section 3.2) when
    /// `on` is set: each ACK's ECE is the CE mark of the segments it acknowledges; when the
    /// mark changes while an ACK is delayed, that ACK leaves at once with the old mark.
    #[must_use]
    pub fn with_ce_echo(mut self, on: bool) -> Self {
        self.ce_echo = on;
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
        let dsack = self.sack.as_deref_mut().and_then(|s| s.dsack.take());
        let sack = match (dsack, self.reported()) {
            (Some(d), reported) => {
                let mut blocks = vec![d];
                blocks.extend_from_slice(reported.unwrap_or(&[]));
                Some(SackBlocks::new(&blocks))
            }
            (None, Some(r)) if !r.is_empty() => Some(SackBlocks::new(r)),
            _ => None,
        };
        let (ace, opts) = match self.accecn.as_deref_mut() {
            None => (
                None,
                sack.map(|sack| Box::new(AckOptions { sack, accecn: None })),
            ),
            Some(a) => {
                // The option takes what timestamps and SACK leave, and may take SACK blocks
                // beyond two (`fit_option`).
                let mut sack = sack.unwrap_or_else(|| SackBlocks::new(&[]));
                let timestamps = if self.timestamps {
                    TCP_TIMESTAMP_OPTION_BYTES
                } else {
                    0
                };
                let mut blocks = sack.as_slice().len();
                let remaining = TCP_OPTION_SPACE - timestamps - sack_option_bytes(blocks);
                let accecn = a.on_ack_sent(remaining, &mut blocks);
                sack.truncate(blocks);
                let opts =
                    (blocks > 0 || accecn.is_some()).then(|| Box::new(AckOptions { sack, accecn }));
                (Some(a.ace()), opts)
            }
        };
        ctx.send(Packet {
            src: Addr::default(),
            dst: peer,
            flow: self.flow,
            size: tcp_header_bytes(self.timestamps)
                + opts.as_deref().map_or(0, AckOptions::wire_bytes),
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::TcpAck {
                ack: self.rcv_nxt,
                ece: self.ece,
                opts,
                ace,
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
        self.hold(seq);
        // In order with nothing buffered behind it; a segment that fills a gap is not.
        let plain_in_order = idx == 0 && self.reorder.len() == 1;
        if let (0, Some(state)) = (idx, self.sack.as_deref_mut()) {
            // The run starting at `seq` is delivered now.
            state.held.remove(&seq);
        }
        while let Some(&Some(p)) = self.reorder.front() {
            self.reorder.pop_front();
            self.rcv_nxt += 1;
            self.stats.app_bytes_held -= u64::from(p);
            self.stats.app_bytes_delivered += u64::from(p);
        }
        (true, plain_in_order)
    }

    /// The blocks last reported, most recent first (`None` without SACK).
    fn reported(&self) -> Option<&[SackBlock]> {
        self.sack.as_deref().map(|s| s.reported.as_slice())
    }

    /// Segment `seq` is newly held: join it to the runs ending at it and starting after it.
    fn hold(&mut self, seq: u64) {
        let Some(held) = self.sack.as_deref_mut().map(|s| &mut s.held) else {
            return;
        };
        let mut start = seq;
        let mut end = seq + 1;
        if let Some((&s, &e)) = held.range(..seq).next_back() {
            if e == seq {
                start = s;
            }
        }
        if let Some(e) = held.remove(&(seq + 1)) {
            end = e;
        }
        held.insert(start, end);
    }

    /// The held block around out-of-order segment `seq` (which is above `rcv_nxt`).
    fn block_around(&self, seq: u64) -> Option<SackBlock> {
        if seq < self.rcv_nxt {
            return None;
        }
        let (&start, &end) = self.sack.as_deref()?.held.range(..=seq).next_back()?;
        (seq < end).then_some(SackBlock { start, end })
    }

    /// RFC 2018 section 4: the block of the segment just received first, then the blocks
    /// reported before (as they stand now), newest first, without repeats.
    fn update_sack(&mut self, seq: u64) {
        let mut blocks = Vec::with_capacity(SackBlocks::MAX);
        let Some(state) = self.sack.as_deref() else {
            return;
        };
        let candidates = std::iter::once(seq).chain(state.reported.iter().map(|b| b.start));
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
        if let Some(state) = self.sack.as_deref_mut() {
            state.reported = blocks;
        }
    }
}

impl Agent<Hdr> for TcpSink {
    fn on_start<C: Ctx<Hdr>>(&mut self, _ctx: &mut C) {}

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        if let Hdr::TcpSyn { ack: false, accecn } = pkt.header {
            // RFC 9293 section 3.5: answer a SYN (or its retransmission) with a SYN-ACK.
            self.peer = Some(pkt.src);
            self.flow = pkt.flow;
            ctx.send(Packet {
                src: Addr::default(),
                dst: pkt.src,
                flow: pkt.flow,
                size: tcp_syn_bytes(self.timestamps),
                sent_at: SimTime::ZERO,
                ecn: Ecn::NotEct,
                header: Hdr::TcpSyn {
                    ack: true,
                    accecn: accecn && self.accecn.is_some(),
                },
            });
            return;
        }
        let Hdr::TcpData {
            seq,
            payload,
            cwr,
            psh,
            ..
        } = pkt.header
        else {
            return;
        };
        self.peer = Some(pkt.src);
        self.flow = pkt.flow;
        self.stats.data_packets_received += 1;
        let ce = pkt.ecn == Ecn::Ce;
        // Whether a CE segment is acknowledged at once (RFC 3168 receivers) or delayed like
        // any other (DCTCP's, which acknowledge at once only when the mark changes).
        let mut ack_now = ce;
        if let Some(a) = self.accecn.as_deref_mut() {
            // Section 3.2.2.5.1: an ACK at once on a change to CE and every n marks.
            ack_now = a.on_data(pkt.ecn, payload);
        } else if self.ce_echo {
            if ce != self.ece && self.unacked > 0 {
                self.send_ack(ctx); // the delayed segments, with the mark they had
            }
            ack_now = ce != self.ece;
            self.ece = ce;
        } else {
            if cwr {
                self.ece = false;
            }
            self.ece |= ce;
        }
        ack_now |= psh && self.ack_on_push;
        let (new, in_order) = self.accept(seq, payload);
        if let Some(state) = self.sack.as_deref_mut().filter(|s| s.dsack_on && !new) {
            state.dsack = Some(SackBlock {
                start: seq,
                end: seq + 1,
            });
        }
        if self.sack.is_some() {
            self.update_sack(seq);
        }
        match self.delayed_ack {
            Some(timeout) if in_order && !ack_now => {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The block around `seq` as RFC 2018 defines it: the maximal run of held segments.
    fn walked(sink: &TcpSink, seq: u64) -> Option<SackBlock> {
        let held = |s: u64| {
            s >= sink.rcv_nxt
                && usize::try_from(s - sink.rcv_nxt)
                    .ok()
                    .and_then(|i| sink.reorder.get(i))
                    .is_some_and(Option::is_some)
        };
        if !held(seq) {
            return None;
        }
        let (mut start, mut end) = (seq, seq + 1);
        while start > sink.rcv_nxt && held(start - 1) {
            start -= 1;
        }
        while held(end) {
            end += 1;
        }
        Some(SackBlock { start, end })
    }

    #[test]
    fn the_kept_runs_are_the_held_blocks() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut sink = TcpSink::new(None).with_sack(true);
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Mostly just above rcv_nxt, sometimes the next expected, sometimes old.
            let seq = (sink.rcv_nxt + x % 40).saturating_sub(2);
            sink.accept(seq, 960);
            for s in sink.rcv_nxt.saturating_sub(1)..sink.rcv_nxt + 45 {
                assert_eq!(sink.block_around(s), walked(&sink, s), "segment {s}");
            }
        }
    }
}
