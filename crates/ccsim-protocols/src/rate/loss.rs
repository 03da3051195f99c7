//! Loss detection at the receiver of a rate-based flow (RFC 5348 section 5.1).
//!
//! A packet is lost once [`REORDER_ALLOWANCE`] packets with higher sequence numbers have
//! arrived without it (TFRC's NDUPACK = 3); each sequence number's fate (received or lost)
//! is decided in order. A lost packet's loss time is interpolated between the arrival times
//! of the last packet received before it and the first received after it (RFC 5348 section
//! 5.2).
//!
//! CHOICE: a packet arriving after it was declared lost is counted as late and otherwise
//! ignored (the loss stands, as in RFC 5348); duplicates are ignored.
//! CHOICE: a packet more than [`MAX_SPAN`] sequence numbers above the oldest undecided one is
//! ignored as implausible (in real mode, a corrupt or hostile sequence number), so that memory
//! stays bounded.

use std::collections::VecDeque;

use ccsim_core::SimTime;

/// Later packets that must arrive before a gap counts as a loss.
pub const REORDER_ALLOWANCE: u32 = 3;
/// The widest span of undecided sequence numbers the detector keeps.
pub const MAX_SPAN: u64 = 1 << 16;

/// What became of one sequence number, decided in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// The packet arrived at `at`.
    Received {
        /// Sequence number.
        seq: u64,
        /// Arrival time.
        at: SimTime,
    },
    /// The packet is lost; `at` is its interpolated arrival time.
    Lost {
        /// Sequence number.
        seq: u64,
        /// Interpolated loss time.
        at: SimTime,
    },
}

/// What an arrival was, besides the fates it decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// A new packet (its fate, or that of earlier ones, may be decided now or later).
    New,
    /// A packet already declared lost, or a duplicate, or implausibly far ahead.
    Ignored,
}

/// The receiver's loss detector.
#[derive(Clone, Debug, Default)]
pub struct LossDetector {
    /// The lowest undecided sequence number.
    base: u64,
    /// Arrival time of each sequence number from `base` on (`None`: not yet arrived).
    window: VecDeque<Option<SimTime>>,
    /// Packets present in `window`.
    present: u32,
    /// The last packet received before `base`: (seq, arrival).
    before: Option<(u64, SimTime)>,
    highest: Option<u64>,
    received: u64,
    lost: u64,
}

impl LossDetector {
    /// An empty detector, expecting sequence number 0 first.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
    /// The highest sequence number received.
    #[must_use]
    pub fn highest(&self) -> Option<u64> {
        self.highest
    }
    /// Packets received (distinct, not late).
    #[must_use]
    pub fn received(&self) -> u64 {
        self.received
    }
    /// Packets declared lost.
    #[must_use]
    pub fn lost(&self) -> u64 {
        self.lost
    }

    /// Packet `seq` arrived at `at`; `on_fate` is called for each sequence number whose fate
    /// this decides, in order.
    pub fn on_arrival(&mut self, seq: u64, at: SimTime, mut on_fate: impl FnMut(Fate)) -> Arrival {
        if seq < self.base || seq - self.base >= MAX_SPAN {
            return Arrival::Ignored;
        }
        let idx = usize::try_from(seq - self.base).unwrap_or(usize::MAX);
        if idx >= self.window.len() {
            self.window.resize(idx + 1, None);
        }
        if self.window[idx].is_some() {
            return Arrival::Ignored;
        }
        self.window[idx] = Some(at);
        self.present += 1;
        self.received += 1;
        self.highest = Some(self.highest.map_or(seq, |h| h.max(seq)));
        while let Some(&front) = self.window.front() {
            match front {
                Some(arrived) => {
                    on_fate(Fate::Received {
                        seq: self.base,
                        at: arrived,
                    });
                    self.before = Some((self.base, arrived));
                    self.present -= 1;
                }
                // The front is missing, so every present packet is above it.
                None if self.present >= REORDER_ALLOWANCE => {
                    let at = self.interpolate(self.base);
                    on_fate(Fate::Lost { seq: self.base, at });
                    self.lost += 1;
                }
                None => break,
            }
            self.window.pop_front();
            self.base += 1;
        }
        Arrival::New
    }

    /// RFC 5348 section 5.2: T_loss = T_before + (T_after - T_before) (S_loss - S_before) /
    /// (S_after - S_before). With no packet before (the flow's first packets lost), T_after.
    fn interpolate(&self, lost: u64) -> SimTime {
        let (after_idx, after_at) = self
            .window
            .iter()
            .enumerate()
            .find_map(|(i, a)| a.map(|t| (i as u64, t)))
            .unwrap_or((0, SimTime::ZERO));
        let after_seq = self.base + after_idx;
        match self.before {
            None => after_at,
            Some((before_seq, before_at)) => {
                let span = after_at.0.saturating_sub(before_at.0);
                let num = u128::from(span) * u128::from(lost - before_seq);
                let den = u128::from(after_seq - before_seq);
                SimTime(before_at.0 + u64::try_from(num / den).unwrap_or(u64::MAX))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(d: &mut LossDetector, arrivals: &[(u64, u64)]) -> Vec<Fate> {
        let mut fates = Vec::new();
        for &(seq, ms) in arrivals {
            d.on_arrival(seq, SimTime(ms * 1_000_000), |f| fates.push(f));
        }
        fates
    }

    fn lost(fates: &[Fate]) -> Vec<(u64, u64)> {
        fates
            .iter()
            .filter_map(|f| match *f {
                Fate::Lost { seq, at } => Some((seq, at.0 / 1_000_000)),
                Fate::Received { .. } => None,
            })
            .collect()
    }

    #[test]
    fn gap_is_a_loss_only_after_three_later_packets() {
        let mut d = LossDetector::new();
        // 0, 1 arrive; 2 is missing; 3, 4 arrive: not yet lost.
        let f = feed(&mut d, &[(0, 0), (1, 10), (3, 30), (4, 40)]);
        assert!(lost(&f).is_empty());
        // The third packet above the gap decides it; interpolated between 1 (10 ms) and 3
        // (30 ms): 20 ms.
        let f = feed(&mut d, &[(5, 50)]);
        assert_eq!(lost(&f), vec![(2, 20)]);
        assert_eq!((d.received(), d.lost()), (5, 1));
    }

    #[test]
    fn reordering_within_the_allowance_is_not_a_loss() {
        let mut d = LossDetector::new();
        let f = feed(
            &mut d,
            &[(0, 0), (2, 10), (3, 20), (1, 25), (4, 30), (5, 40)],
        );
        assert!(lost(&f).is_empty());
        let order: Vec<u64> = f
            .iter()
            .map(|f| match *f {
                Fate::Received { seq, .. } | Fate::Lost { seq, .. } => seq,
            })
            .collect();
        assert_eq!(order, vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_burst_of_losses_is_interpolated_and_late_arrivals_ignored() {
        let mut d = LossDetector::new();
        // 1, 2, 3 lost; 4 at 40 ms; interpolated between 0 (0 ms) and 4 (40 ms).
        let f = feed(&mut d, &[(0, 0), (4, 40), (5, 50), (6, 60)]);
        assert_eq!(lost(&f), vec![(1, 10), (2, 20), (3, 30)]);
        assert_eq!(
            d.on_arrival(2, SimTime(70_000_000), |_| {}),
            Arrival::Ignored
        );
        assert_eq!(
            d.on_arrival(5, SimTime(70_000_000), |_| {}),
            Arrival::Ignored
        );
        assert_eq!((d.received(), d.lost(), d.highest()), (4, 3, Some(6)));
    }

    #[test]
    fn first_packets_lost_take_the_first_arrival_time() {
        let mut d = LossDetector::new();
        let f = feed(&mut d, &[(2, 5), (3, 6), (4, 7)]);
        assert_eq!(lost(&f), vec![(0, 5), (1, 5)]);
    }

    #[test]
    fn implausible_sequence_numbers_are_ignored() {
        let mut d = LossDetector::new();
        assert_eq!(
            d.on_arrival(MAX_SPAN, SimTime::ZERO, |_| {}),
            Arrival::Ignored
        );
        assert_eq!(
            d.on_arrival(u64::MAX, SimTime::ZERO, |_| {}),
            Arrival::Ignored
        );
        assert_eq!(d.on_arrival(0, SimTime::ZERO, |_| {}), Arrival::New);
    }
}
