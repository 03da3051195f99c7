//! The sender's per-segment record: send times and delivery snapshots for every variant,
//! plus the SACK scoreboard of RFC 6675 (IsLost, SetPipe, and NextSeg's candidates).
//!
//! Segments are numbered, so RFC 6675's octet ranges become segment ranges: "DupThresh
//! discontiguous SACKed sequences above S" is "at least DupThresh SACKed segments above S".
//! CHOICE: a segment counts twice in the pipe while it is unSACKed, not lost, and was
//! retransmitted in this recovery, tracked per segment rather than by RFC 6675's HighRxt
//! bound, which would also count skipped segments below HighRxt.

use std::collections::VecDeque;

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
}

/// Segments `base ..` not yet cumulatively acknowledged.
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    base: u64,
    segs: VecDeque<Seg>,
    /// One past the highest SACKed segment (`base` when none).
    high_sacked: u64,
    sacked: u64,
}

impl Scoreboard {
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
            s.rexmit |= in_recovery && retx;
        } else {
            debug_assert_eq!(seq, self.base + self.segs.len() as u64, "new data in order");
            self.segs.push_back(Seg {
                snap,
                retx,
                rexmit: false,
                sacked: false,
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
    pub fn advance(&mut self, ack: u64, mut f: impl FnMut(&Seg)) {
        while self.base < ack {
            if let Some(s) = self.segs.pop_front() {
                if s.sacked {
                    self.sacked -= 1;
                } else {
                    f(&s);
                }
            }
            self.base += 1;
        }
        self.high_sacked = self.high_sacked.max(self.base);
    }

    /// Mark the blocks SACKed, calling `f` for each newly SACKed segment. Returns whether
    /// any segment was newly SACKed.
    pub fn mark_sacked(&mut self, blocks: &[SackBlock], mut f: impl FnMut(&Seg)) -> bool {
        let mut any = false;
        for b in blocks {
            let end = b.end.min(self.base + self.segs.len() as u64);
            for seq in b.start.max(self.base)..end {
                let i = usize::try_from(seq - self.base).expect("index fits usize");
                let s = &mut self.segs[i];
                if !s.sacked {
                    s.sacked = true;
                    self.sacked += 1;
                    any = true;
                    f(s);
                }
            }
            self.high_sacked = self.high_sacked.max(end);
        }
        any
    }

    /// Start of a loss recovery: no segment has been retransmitted in it yet.
    pub fn start_recovery(&mut self) {
        for s in &mut self.segs {
            s.rexmit = false;
        }
    }

    /// RFC 6675 IsLost as a bound: every unSACKed segment below the returned one has at
    /// least `dupthresh` SACKed segments above it (IsLost is monotone in the sequence).
    #[must_use]
    pub fn lost_below(&self, dupthresh: u32) -> u64 {
        if self.sacked < u64::from(dupthresh) {
            return self.base;
        }
        let mut seen = 0;
        for (i, s) in self.segs.iter().enumerate().rev() {
            if s.sacked {
                seen += 1;
                if seen == dupthresh {
                    return self.base + i as u64;
                }
            }
        }
        self.base
    }

    /// RFC 6675 SetPipe, in segments, over the outstanding segments.
    #[must_use]
    pub fn pipe(&self, dupthresh: u32) -> u64 {
        let lost_below = self.lost_below(dupthresh);
        let mut pipe = 0;
        for (i, s) in self.segs.iter().enumerate() {
            if s.sacked {
                continue;
            }
            if self.base + i as u64 >= lost_below {
                pipe += 1;
            }
            if s.rexmit {
                pipe += 1;
            }
        }
        pipe
    }

    /// RFC 6675 NextSeg rule 1 (`lost_only`) or rule 3: the lowest unSACKed segment from
    /// `from` not yet retransmitted in this recovery, below the highest SACKed segment
    /// (and, for rule 1, lost).
    #[must_use]
    pub fn next_hole(&self, from: u64, dupthresh: u32, lost_only: bool) -> Option<u64> {
        let bound = if lost_only {
            self.lost_below(dupthresh)
        } else {
            self.high_sacked
        };
        let start = from.max(self.base);
        (start..bound).find(|&seq| self.get(seq).is_some_and(|s| !s.sacked && !s.rexmit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(n: u64) -> Scoreboard {
        let mut b = Scoreboard::default();
        for seq in 0..n {
            b.on_send(seq, SendSnapshot::default(), false, false);
        }
        b
    }

    fn sack(b: &mut Scoreboard, start: u64, end: u64) {
        b.mark_sacked(&[SackBlock { start, end }], |_| {});
    }

    #[test]
    fn is_lost_needs_dupthresh_sacked_segments_above() {
        let mut b = board(10);
        sack(&mut b, 3, 5); // 3, 4 SACKed: two above 0..2
        assert_eq!(b.lost_below(3), 0, "two SACKed segments are not enough");
        sack(&mut b, 6, 7); // third SACKed segment above 0..2 (and above 5)
                            // Segments 0, 1, 2 have 3 SACKed above; 5 has only one (6) above it.
        assert_eq!(b.lost_below(3), 3);
    }

    #[test]
    fn set_pipe_counts_unsacked_not_lost_and_retransmitted() {
        // RFC 6675 section 4, SetPipe, by hand: 10 outstanding, 0..2 lost (3 SACKed above).
        let mut b = board(10);
        sack(&mut b, 3, 6);
        // Unsacked: 0,1,2 (lost) and 6,7,8,9 (not lost): pipe = 4.
        assert_eq!(b.pipe(3), 4);
        b.start_recovery();
        b.on_send(0, SendSnapshot::default(), true, true);
        // The retransmission of 0 adds one.
        assert_eq!(b.pipe(3), 5);
    }

    #[test]
    fn next_seg_takes_lost_holes_first_then_unsacked_below_the_highest_sack() {
        let mut b = board(10);
        sack(&mut b, 2, 3);
        sack(&mut b, 5, 8);
        // Lost: unsacked below the third-highest SACKed segment (6): 0, 1, 3, 4.
        assert_eq!(b.next_hole(0, 3, true), Some(0));
        b.start_recovery();
        b.on_send(0, SendSnapshot::default(), true, true);
        b.on_send(1, SendSnapshot::default(), true, true);
        assert_eq!(b.next_hole(0, 3, true), Some(3));
        assert_eq!(b.next_hole(5, 3, true), None);
        // Rule 3 reaches up to the highest SACKed segment but not beyond.
        assert_eq!(b.next_hole(8, 3, false), None);
    }

    #[test]
    fn advance_reports_only_segments_not_already_sacked() {
        let mut b = board(5);
        sack(&mut b, 2, 3);
        let mut delivered = 0;
        b.advance(4, |_| delivered += 1);
        assert_eq!(delivered, 3);
        assert_eq!(b.pipe(3), 1);
    }
}
