//! The sender's per-segment record: send times and delivery snapshots for every variant,
//! plus the SACK scoreboard of RFC 6675 (IsLost, SetPipe, and NextSeg's candidates).
//!
//! Segments are numbered, so RFC 6675's octet ranges become segment ranges: "DupThresh
//! discontiguous SACKed sequences above S" is "at least DupThresh SACKed segments above S".
//! CHOICE: a segment counts twice in the pipe while it is unSACKed, not lost, and was
//! retransmitted in this recovery, tracked per segment rather than by RFC 6675's HighRxt
//! bound, which would also count skipped segments below HighRxt.
//!
//! IsLost's bound and the pipe are kept up to date as segments are sent, SACKed and
//! acknowledged, so that SetPipe on every ACK of a recovery costs O(1) rather than a pass over
//! the window (the bound only moves up, so the passes that move it add up to one window per
//! recovery); `tests::the_kept_counts_match_rfc_6675_recomputed` checks them against the
//! definitions.

use std::collections::VecDeque;

use ccsim_core::SimTime;

use super::rack::SegState;
use super::rate::SendSnapshot;
use crate::SackBlock;

/// What the sender remembers about one outstanding segment.
#[derive(Clone, Copy, Debug, Default)]
pub struct Seg {
    /// Delivery-rate state at its last transmission (and its send time).
    pub snap: SendSnapshot,
    /// Ever retransmitted (Karn: no RTT sample from it).
    pub retx: bool,
    /// Retransmitted in the current loss recovery.
    pub rexmit: bool,
    /// Selectively acknowledged.
    pub sacked: bool,
    /// Marked lost by RACK or a timeout (by-time scoreboards only).
    pub lost: bool,
}

/// Segments `base ..` not yet cumulatively acknowledged.
#[derive(Clone, Debug)]
pub struct Scoreboard {
    /// DupThresh of RFC 6675's IsLost.
    dupthresh: u64,
    base: u64,
    segs: VecDeque<Seg>,
    /// One past the highest SACKed segment (`base` when none).
    high_sacked: u64,
    sacked: u64,
    /// IsLost's bound ([`Scoreboard::lost_below`]).
    lost_below: u64,
    /// UnSACKed segments below `lost_below` (the lost ones).
    unsacked_lost: u64,
    /// UnSACKed segments retransmitted in this recovery.
    rexmit_unsacked: u64,
    /// After a timeout, every unSACKed segment below this one is lost
    /// ([`Scoreboard::mark_lost_below`]).
    lost_floor: u64,
    /// UnSACKed segments below `lost_floor`.
    unsacked_below_floor: u64,
    /// Segments ever marked lost (by IsLost or a timeout), to tell whether an ACK marked
    /// more (RFC 9937's SafeACK).
    marked_lost: u64,
    /// Losses are marked per segment by RACK (RFC 8985) and timeouts, not by IsLost's bound.
    by_time: bool,
    /// UnSACKed segments marked lost (by-time scoreboards).
    flagged_lost: u64,
}

impl Scoreboard {
    /// An empty scoreboard; a segment is lost with `dupthresh` SACKed segments above it.
    #[must_use]
    pub fn new(dupthresh: u32) -> Self {
        Scoreboard {
            dupthresh: u64::from(dupthresh),
            base: 0,
            segs: VecDeque::new(),
            high_sacked: 0,
            sacked: 0,
            lost_below: 0,
            unsacked_lost: 0,
            rexmit_unsacked: 0,
            lost_floor: 0,
            unsacked_below_floor: 0,
            marked_lost: 0,
            by_time: false,
            flagged_lost: 0,
        }
    }

    /// An empty scoreboard whose losses are marked per segment ([`Scoreboard::mark_lost`]),
    /// as RACK marks them, instead of by counting SACKed segments above (RFC 8985 replaces
    /// DupThresh).
    #[must_use]
    pub fn by_time() -> Self {
        Scoreboard {
            by_time: true,
            ..Scoreboard::new(u32::MAX)
        }
    }

    fn idx(&self, seq: u64) -> Option<usize> {
        let i = usize::try_from(seq.checked_sub(self.base)?).ok()?;
        (i < self.segs.len()).then_some(i)
    }

    /// Record the (re)transmission of `seq`; new segments must come in order.
    #[inline]
    pub fn on_send(&mut self, seq: u64, snap: SendSnapshot, retx: bool, in_recovery: bool) {
        if let Some(i) = self.idx(seq) {
            let s = &mut self.segs[i];
            s.snap = snap;
            s.retx |= retx;
            if in_recovery && retx && !s.rexmit {
                s.rexmit = true;
                if !s.sacked {
                    self.rexmit_unsacked += 1;
                }
            }
        } else {
            debug_assert_eq!(seq, self.base + self.segs.len() as u64, "new data in order");
            self.segs.push_back(Seg {
                snap,
                retx,
                rexmit: false,
                sacked: false,
                lost: false,
            });
        }
    }

    /// The record of `seq`, if outstanding.
    #[must_use]
    pub fn get(&self, seq: u64) -> Option<&Seg> {
        self.idx(seq).map(|i| &self.segs[i])
    }

    /// Whether `seq` is outstanding and SACKed.
    #[must_use]
    pub fn is_sacked(&self, seq: u64) -> bool {
        self.get(seq).is_some_and(|s| s.sacked)
    }

    /// Drop segments below `ack`, calling `f` for each one not already SACKed (those
    /// were counted delivered when SACKed).
    #[inline]
    pub fn advance(&mut self, ack: u64, mut f: impl FnMut(u64, &Seg)) {
        while self.base < ack {
            if let Some(s) = self.segs.pop_front() {
                if s.sacked {
                    self.sacked -= 1;
                } else {
                    if self.base < self.lost_floor {
                        self.unsacked_below_floor -= 1;
                    }
                    // Below the bound: the bound is a SACKed segment at or above the base.
                    self.unsacked_lost = self.unsacked_lost.saturating_sub(1);
                    if s.rexmit {
                        self.rexmit_unsacked -= 1;
                    }
                    if s.lost {
                        self.flagged_lost -= 1;
                    }
                    f(self.base, &s);
                }
            }
            self.base += 1;
        }
        self.high_sacked = self.high_sacked.max(self.base);
        // The bound is the DupThresh-th highest SACKed segment; removing the lowest ones
        // leaves it in place unless fewer than DupThresh remain.
        if self.sacked < self.dupthresh {
            self.lost_below = self.base;
            self.unsacked_lost = 0;
        }
    }

    /// Mark the blocks SACKed, calling `f` for each newly SACKed segment. Returns whether
    /// any segment was newly SACKed.
    pub fn mark_sacked(&mut self, blocks: &[SackBlock], mut f: impl FnMut(u64, &Seg)) -> bool {
        let mut any = false;
        for b in blocks {
            let end = b.end.min(self.base + self.segs.len() as u64);
            for seq in b.start.max(self.base)..end {
                let i = usize::try_from(seq - self.base).expect("index fits usize");
                let s = &mut self.segs[i];
                if !s.sacked {
                    s.sacked = true;
                    if s.rexmit {
                        self.rexmit_unsacked -= 1;
                    }
                    if seq < self.lost_floor {
                        self.unsacked_below_floor -= 1;
                    }
                    if s.lost {
                        self.flagged_lost -= 1;
                    }
                    self.sacked += 1;
                    any = true;
                    f(seq, s);
                    self.raise_lost_bound(seq);
                }
            }
            self.high_sacked = self.high_sacked.max(end);
        }
        any
    }

    /// Segment `seq` has just been SACKed (and counted): move IsLost's bound, the
    /// DupThresh-th highest SACKed segment, up to where it now is.
    fn raise_lost_bound(&mut self, seq: u64) {
        if self.sacked < self.dupthresh {
            return;
        }
        let sacked_at = |b: &Self, at: u64| {
            b.segs[usize::try_from(at - b.base).expect("index fits usize")].sacked
        };
        let from = if self.sacked == self.dupthresh {
            // The first time there are DupThresh: the bound is the lowest SACKed segment.
            self.unsacked_lost = 0;
            self.base
        } else if seq < self.lost_below {
            // One more SACKed below the bound leaves it, and one fewer lost.
            self.unsacked_lost -= 1;
            return;
        } else {
            // One more above it: the bound moves to the next SACKed segment above.
            self.lost_below + 1
        };
        let mut at = from;
        while !sacked_at(self, at) {
            self.unsacked_lost += 1;
            self.marked_lost += 1;
            at += 1;
        }
        self.lost_below = at;
    }

    /// Start of a loss recovery: no segment has been retransmitted in it yet.
    pub fn start_recovery(&mut self) {
        if self.by_time {
            // Retransmissions still in flight stay counted and are not sent again (Linux
            // keeps `SACKED_RETRANS` across recoveries); RACK marks them lost if they are.
            return;
        }
        for s in &mut self.segs {
            s.rexmit = false;
        }
        self.rexmit_unsacked = 0;
    }

    /// A retransmission timeout: every unSACKed segment below `end` is lost, and none has
    /// been retransmitted since (ns-3 `SetSentListLost`, Linux `tcp_timeout_mark_lost`).
    pub fn mark_lost_below(&mut self, end: u64) {
        self.start_recovery();
        if self.by_time {
            for seq in self.base..end.min(self.base + self.segs.len() as u64) {
                self.mark_lost(seq);
            }
            return;
        }
        self.lost_floor = end;
        let below = usize::try_from(end.saturating_sub(self.base))
            .map_or(self.segs.len(), |n| n.min(self.segs.len()));
        self.unsacked_below_floor =
            self.segs.iter().take(below).filter(|s| !s.sacked).count() as u64;
        self.marked_lost += self.unsacked_below_floor;
    }

    /// Segments marked lost so far, counted once each time IsLost's bound passes them or
    /// a timeout marks them; it grows exactly when an event marks a segment lost.
    #[must_use]
    pub fn marked_lost(&self) -> u64 {
        self.marked_lost
    }

    /// By-time scoreboards: mark `seq` lost (RACK, a timeout); a lost retransmission is
    /// lost again and no longer counted in the pipe (Linux `tcp_mark_skb_lost`). Returns
    /// whether anything changed.
    pub fn mark_lost(&mut self, seq: u64) -> bool {
        debug_assert!(self.by_time, "per-segment losses on a by-time scoreboard");
        let Some(i) = self.idx(seq) else {
            return false;
        };
        let s = &mut self.segs[i];
        if s.sacked || (s.lost && !s.rexmit) {
            return false;
        }
        if s.rexmit {
            s.rexmit = false;
            self.rexmit_unsacked -= 1;
        }
        if !s.lost {
            s.lost = true;
            self.flagged_lost += 1;
        }
        self.marked_lost += 1;
        true
    }

    /// By-time scoreboards: unSACKed segments marked lost.
    #[must_use]
    pub fn flagged_lost(&self) -> u64 {
        self.flagged_lost
    }

    /// Segments SACKed and not yet cumulatively acknowledged.
    #[must_use]
    pub fn sacked(&self) -> u64 {
        self.sacked
    }

    /// What RACK's log entry (`seq` sent at `sent`) stands for now ([`SegState`]).
    #[must_use]
    pub fn rack_state(&self, seq: u64, sent: SimTime) -> SegState {
        match self.get(seq) {
            Some(s) if !s.sacked && s.snap.sent_time == sent => {
                if s.lost && !s.rexmit {
                    SegState::Lost
                } else {
                    SegState::Outstanding
                }
            }
            _ => SegState::Gone,
        }
    }

    /// The highest outstanding unSACKed segment (RFC 6675 NextSeg rule 4's candidate).
    #[must_use]
    pub fn highest_unsacked(&self) -> Option<u64> {
        let i = self.segs.iter().rposition(|s| !s.sacked)?;
        Some(self.base + i as u64)
    }

    /// RFC 6675 IsLost as a bound: every unSACKed segment below the returned one has at
    /// least DupThresh SACKed segments above it (IsLost is monotone in the sequence), or
    /// was outstanding at the last timeout ([`Scoreboard::mark_lost_below`]).
    #[must_use]
    pub fn lost_below(&self) -> u64 {
        self.lost_below.max(self.lost_floor).max(self.base)
    }

    /// RFC 6675 SetPipe, in segments, over the outstanding segments: the unSACKed ones not
    /// lost, plus those retransmitted in this recovery.
    #[must_use]
    pub fn pipe(&self) -> u64 {
        let unsacked = self.segs.len() as u64 - self.sacked;
        let lost = if self.by_time {
            self.flagged_lost
        } else if self.lost_floor > self.lost_below.max(self.base) {
            self.unsacked_below_floor
        } else {
            self.unsacked_lost
        };
        unsacked - lost + self.rexmit_unsacked
    }

    /// RFC 6675 NextSeg rule 1 (`lost_only`) or rule 3: the lowest unSACKed segment from
    /// `from` not yet retransmitted in this recovery, below the highest SACKed segment
    /// (and, for rule 1, lost).
    #[must_use]
    pub fn next_hole(&self, from: u64, lost_only: bool) -> Option<u64> {
        let bound = if lost_only {
            self.lost_below()
        } else {
            self.high_sacked
        };
        let start = from.max(self.base);
        if self.by_time && lost_only {
            let end = self.base + self.segs.len() as u64;
            return (start..end).find(|&seq| {
                self.get(seq)
                    .is_some_and(|s| s.lost && !s.sacked && !s.rexmit)
            });
        }
        (start..bound).find(|&seq| self.get(seq).is_some_and(|s| !s.sacked && !s.rexmit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(n: u64) -> Scoreboard {
        let mut b = Scoreboard::new(3);
        for seq in 0..n {
            b.on_send(seq, SendSnapshot::default(), false, false);
        }
        b
    }

    fn sack(b: &mut Scoreboard, start: u64, end: u64) {
        b.mark_sacked(&[SackBlock { start, end }], |_, _| {});
    }

    #[test]
    fn is_lost_needs_dupthresh_sacked_segments_above() {
        let mut b = board(10);
        sack(&mut b, 3, 5); // 3, 4 SACKed: two above 0..2
        assert_eq!(b.lost_below(), 0, "two SACKed segments are not enough");
        sack(&mut b, 6, 7); // third SACKed segment above 0..2 (and above 5)
                            // Segments 0, 1, 2 have 3 SACKed above; 5 has only one (6) above it.
        assert_eq!(b.lost_below(), 3);
    }

    #[test]
    fn set_pipe_counts_unsacked_not_lost_and_retransmitted() {
        // RFC 6675 section 4, SetPipe, by hand: 10 outstanding, 0..2 lost (3 SACKed above).
        let mut b = board(10);
        sack(&mut b, 3, 6);
        // Unsacked: 0,1,2 (lost) and 6,7,8,9 (not lost): pipe = 4.
        assert_eq!(b.pipe(), 4);
        b.start_recovery();
        b.on_send(0, SendSnapshot::default(), true, true);
        // The retransmission of 0 adds one.
        assert_eq!(b.pipe(), 5);
    }

    #[test]
    fn next_seg_takes_lost_holes_first_then_unsacked_below_the_highest_sack() {
        let mut b = board(10);
        sack(&mut b, 2, 3);
        sack(&mut b, 5, 8);
        // Lost: unsacked below the third-highest SACKed segment (6): 0, 1, 3, 4.
        assert_eq!(b.next_hole(0, true), Some(0));
        b.start_recovery();
        b.on_send(0, SendSnapshot::default(), true, true);
        b.on_send(1, SendSnapshot::default(), true, true);
        assert_eq!(b.next_hole(0, true), Some(3));
        assert_eq!(b.next_hole(5, true), None);
        // Rule 3 reaches up to the highest SACKed segment but not beyond.
        assert_eq!(b.next_hole(8, false), None);
    }

    #[test]
    fn advance_reports_only_segments_not_already_sacked() {
        let mut b = board(5);
        sack(&mut b, 2, 3);
        let mut delivered = 0;
        b.advance(4, |_, _| delivered += 1);
        assert_eq!(delivered, 3);
        assert_eq!(b.pipe(), 1);
    }

    /// The outstanding segments as the test sees them, kept apart from the scoreboard:
    /// (SACKed, retransmitted in this recovery) by sequence number.
    type Model = std::collections::BTreeMap<u64, (bool, bool)>;

    /// RFC 6675's IsLost (section 4: at least DupThresh SACKed segments above, the segment
    /// itself unSACKed, or below `floor`, outstanding at the last timeout) and SetPipe, from
    /// the model alone.
    fn recomputed(model: &Model, dupthresh: u64, floor: u64) -> (Vec<u64>, u64) {
        let mut lost = Vec::new();
        let mut pipe = 0;
        for (&seq, &(sacked, rexmit)) in model {
            if sacked {
                continue;
            }
            let above = model.range(seq + 1..).filter(|(_, &(s, _))| s).count() as u64;
            let is_lost = above >= dupthresh || seq < floor;
            if is_lost {
                lost.push(seq);
            }
            pipe += u64::from(!is_lost) + u64::from(rexmit);
        }
        (lost, pipe)
    }

    #[test]
    fn the_kept_counts_match_rfc_6675_recomputed() {
        // Random sends, retransmissions, SACK blocks, cumulative ACKs and recoveries.
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut rand = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for dupthresh in [1, 3, 5] {
            let mut b = Scoreboard::new(dupthresh);
            let mut model = Model::new();
            let (mut base, mut next, mut floor) = (0u64, 0u64, 0u64);
            for _ in 0..20_000 {
                let outstanding = next - base;
                match rand(11) {
                    0..=2 => {
                        b.on_send(next, SendSnapshot::default(), false, false);
                        model.insert(next, (false, false));
                        next += 1;
                    }
                    3 if outstanding > 0 => {
                        let seq = base + rand(outstanding);
                        let in_recovery = rand(3) > 0;
                        b.on_send(seq, SendSnapshot::default(), true, in_recovery);
                        if in_recovery {
                            model.get_mut(&seq).expect("outstanding").1 = true;
                        }
                    }
                    4..=6 if outstanding > 0 => {
                        let start = base + rand(outstanding);
                        let end = start + 1 + rand(4);
                        sack(&mut b, start, end);
                        for (_, seg) in model.range_mut(start..end) {
                            seg.0 = true;
                        }
                    }
                    7 | 8 if outstanding > 0 => {
                        let ack = base + rand(outstanding.min(6) + 1);
                        b.advance(ack, |_, _| {});
                        model.retain(|&seq, _| seq >= ack);
                        base = base.max(ack);
                    }
                    9 => {
                        b.start_recovery();
                        model.values_mut().for_each(|seg| seg.1 = false);
                    }
                    10 if rand(4) == 0 => {
                        // A timeout: everything outstanding now is lost.
                        b.mark_lost_below(next);
                        floor = next;
                        model.values_mut().for_each(|seg| seg.1 = false);
                    }
                    _ => {}
                }
                let (lost, pipe) = recomputed(&model, u64::from(dupthresh), floor);
                // IsLost is monotone: the lost segments are exactly the unSACKed ones below
                // the scoreboard's bound.
                let below: Vec<u64> = model
                    .iter()
                    .filter(|(&seq, &(sacked, _))| !sacked && seq < b.lost_below())
                    .map(|(&seq, _)| seq)
                    .collect();
                assert_eq!(below, lost);
                assert_eq!(b.pipe(), pipe);
            }
        }
    }
}
