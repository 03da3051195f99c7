//! Loss events, loss intervals and the loss event rate at the TFRC receiver (RFC 5348 sections
//! 5.2 to 5.5).
//!
//! * Loss events (5.2): a lost packet starts a new loss event if its (interpolated) loss time
//!   is more than one RTT after the loss time of the packet that started the current loss
//!   event; otherwise it belongs to the current one.
//! * Loss intervals (5.3): a closed interval runs from the first lost packet of one loss event
//!   to the packet before the first lost packet of the next, so its length is the difference
//!   of the two sequence numbers; the open interval I_0 runs from the first lost packet of the
//!   latest loss event to the highest sequence number received, both included.
//! * The average loss interval (5.4) over the last n = 8 closed intervals with weights 1, 1, 1,
//!   1, 0.8, 0.6, 0.4, 0.2: I_tot1 weighs I_1..I_k, I_tot0 weighs I_0..I_(k-1) (k the closed
//!   intervals held, at most n); I_mean = max(I_tot0, I_tot1) / W_tot, so I_0 counts only when
//!   it raises the average; p = 1 / I_mean.
//! * History discounting (5.5), an option: when I_0 exceeds twice the (discounted) mean of the
//!   closed intervals, the closed intervals' weights in I_tot0 are scaled by the general
//!   discount factor DF = max(2 I_mean / I_0, 0.5); at the next loss event DF is folded into
//!   each closed interval's own discount factor DF_i. Then p = min(W_tot0 / I_tot0, W_tot1 /
//!   I_tot1), which without discounting is the 5.4 value.
//! * The first loss event (6.3.1) has no interval before it; the caller supplies a synthetic
//!   one (the interval the throughput equation associates with the receive rate) as I_1.
//!
//! CHOICE: the discount threshold (the RFC's THRESHOLD) is 0.5, the RFC's recommendation.
//! CHOICE: the general discount factor folded in at a new loss event is the one computed at
//! the last [`LossHistory::update`] before it (the RFC updates DF on every packet arrival).
//! CHOICE: without an RTT (no data packet has carried one yet) every lost packet whose loss
//! time is later than the current loss event's start begins a new loss event (RTT taken as 0).

use ccsim_core::{Dur, SimTime};

/// Closed loss intervals averaged (RFC 5348's n).
pub const N_INTERVALS: usize = 8;
/// The weights w_0..w_(n-1) of RFC 5348 section 5.4.
pub const WEIGHTS: [f64; N_INTERVALS] = [1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2];
/// The lower bound on the general discount factor (RFC 5348 section 5.5's THRESHOLD).
pub const DISCOUNT_THRESHOLD: f64 = 0.5;

/// The average loss interval I_mean of RFC 5348 section 5.4 (no discounting): `open` is I_0,
/// `closed` holds I_1, I_2, ... (most recent first; only the first [`N_INTERVALS`] count).
/// With no closed interval, I_0 alone.
#[must_use]
pub fn mean_interval(open: f64, closed: &[f64]) -> f64 {
    let k = closed.len().min(N_INTERVALS);
    if k == 0 {
        return open;
    }
    let mut tot0 = open * WEIGHTS[0];
    let mut tot1 = 0.0;
    let mut w_tot = 0.0;
    for i in 0..k {
        // closed[i] is I_(i+1).
        if i + 1 < k {
            tot0 += closed[i] * WEIGHTS[i + 1];
        }
        tot1 += closed[i] * WEIGHTS[i];
        w_tot += WEIGHTS[i];
    }
    tot0.max(tot1) / w_tot
}

/// The loss event rate of RFC 5348 section 5.5 (which is section 5.4's when every discount
/// factor is 1): `open` is I_0, `closed` I_1, I_2, ... (most recent first), `df` their
/// discount factors DF_1, DF_2, ..., `general` the general discount factor DF.
#[must_use]
pub fn loss_event_rate(open: f64, closed: &[f64], df: &[f64], general: f64) -> f64 {
    let k = closed.len().min(df.len()).min(N_INTERVALS);
    let mut i_tot0 = open * WEIGHTS[0];
    let mut w_tot0 = WEIGHTS[0];
    let mut i_tot1 = 0.0;
    let mut w_tot1 = 0.0;
    for i in 0..k {
        // closed[i] is I_(i+1), weighted w_(i+1) in I_tot0 and w_i in I_tot1.
        if i + 1 < k {
            let w = WEIGHTS[i + 1] * df[i] * general;
            i_tot0 += closed[i] * w;
            w_tot0 += w;
        }
        let w = WEIGHTS[i] * df[i];
        i_tot1 += closed[i] * w;
        w_tot1 += w;
    }
    let p0 = w_tot0 / i_tot0;
    if k == 0 {
        return p0;
    }
    p0.min(w_tot1 / i_tot1)
}

/// The start of a loss event: its first lost packet and that packet's loss time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LossEvent {
    /// Sequence number of the first lost packet.
    pub seq: u64,
    /// Its interpolated loss time.
    pub at: SimTime,
}

/// The receiver's loss history: the current loss event and the last [`N_INTERVALS`] closed
/// loss intervals, with their discount factors. Fixed size: no allocation.
#[derive(Clone, Debug)]
pub struct LossHistory {
    discounting: bool,
    /// I_1, I_2, ... (most recent first); the first `len` are valid.
    closed: [f64; N_INTERVALS],
    /// DF_1, DF_2, ... (all 1 without discounting).
    df: [f64; N_INTERVALS],
    len: usize,
    /// The general discount factor DF.
    general: f64,
    current: Option<LossEvent>,
    events: u64,
}

impl LossHistory {
    /// An empty history; `discounting` turns on RFC 5348 section 5.5.
    #[must_use]
    pub fn new(discounting: bool) -> Self {
        LossHistory {
            discounting,
            closed: [0.0; N_INTERVALS],
            df: [1.0; N_INTERVALS],
            len: 0,
            general: 1.0,
            current: None,
            events: 0,
        }
    }

    /// The closed intervals I_1, I_2, ... (most recent first).
    #[must_use]
    pub fn closed(&self) -> &[f64] {
        &self.closed[..self.len]
    }
    /// Their discount factors DF_1, DF_2, ...
    #[must_use]
    pub fn discounts(&self) -> &[f64] {
        &self.df[..self.len]
    }
    /// The general discount factor DF as of the last [`LossHistory::update`].
    #[must_use]
    pub fn general_discount(&self) -> f64 {
        self.general
    }
    /// The current (latest) loss event.
    #[must_use]
    pub fn current(&self) -> Option<LossEvent> {
        self.current
    }
    /// Loss events so far.
    #[must_use]
    pub fn events(&self) -> u64 {
        self.events
    }

    /// The open interval I_0 given the highest sequence number received (`None` before the
    /// first loss event).
    #[must_use]
    pub fn open_interval(&self, highest: u64) -> Option<f64> {
        self.current
            .map(|e| (highest.saturating_sub(e.seq) + 1) as f64)
    }

    /// Packet `seq` was lost at `at` (losses are reported in sequence order); `rtt` is the
    /// RTT the sender last reported. `first_interval` gives the synthetic interval that
    /// precedes the first loss event (called only then). Returns whether `seq` began a new
    /// loss event.
    pub fn on_loss(
        &mut self,
        seq: u64,
        at: SimTime,
        rtt: Option<Dur>,
        first_interval: impl FnOnce() -> f64,
    ) -> bool {
        let interval = match self.current {
            None => first_interval().max(1.0),
            Some(cur) => {
                let r = rtt.map_or(0, |d| d.0);
                if at.0 <= cur.at.0.saturating_add(r) {
                    return false;
                }
                seq.saturating_sub(cur.seq) as f64
            }
        };
        self.close_interval(interval);
        self.current = Some(LossEvent { seq, at });
        self.events += 1;
        true
    }

    /// Shift the history: `interval` becomes I_1, the oldest beyond n is forgotten, and the
    /// general discount factor is folded into the older intervals' own (section 5.5).
    fn close_interval(&mut self, interval: f64) {
        if self.discounting {
            for d in &mut self.df[..self.len] {
                *d *= self.general;
            }
        }
        self.closed.copy_within(..N_INTERVALS - 1, 1);
        self.df.copy_within(..N_INTERVALS - 1, 1);
        self.closed[0] = interval;
        self.df[0] = 1.0;
        self.len = (self.len + 1).min(N_INTERVALS);
        self.general = 1.0;
    }

    /// The loss event rate p given the highest sequence number received (0 before the first
    /// loss event); with discounting, also updates the general discount factor from I_0.
    pub fn update(&mut self, highest: u64) -> f64 {
        let Some(open) = self.open_interval(highest) else {
            return 0.0;
        };
        if self.discounting && self.len > 0 {
            let (mut tot, mut w_tot) = (0.0, 0.0);
            for ((&len, &df), &w) in self.closed().iter().zip(self.discounts()).zip(&WEIGHTS) {
                tot += len * w * df;
                w_tot += w * df;
            }
            let mean = tot / w_tot;
            self.general = if open > 2.0 * mean {
                (2.0 * mean / open).max(DISCOUNT_THRESHOLD)
            } else {
                1.0
            };
        }
        loss_event_rate(open, self.closed(), self.discounts(), self.general)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    fn ms(v: u64) -> SimTime {
        SimTime(v * 1_000_000)
    }

    #[test]
    fn average_without_the_open_interval() {
        // Closed I_1..I_8 = 100, 80, 120, 90, 110, 70, 130, 60; open I_0 = 20 (short).
        // I_tot1 = 100 + 80 + 120 + 90 + 0.8*110 + 0.6*70 + 0.4*130 + 0.2*60
        //        = 390 + 88 + 42 + 52 + 12 = 584
        // I_tot0 = 20 + 100 + 80 + 120 + 0.8*90 + 0.6*110 + 0.4*70 + 0.2*130
        //        = 320 + 72 + 66 + 28 + 26 = 512
        // W_tot = 4 + 0.8 + 0.6 + 0.4 + 0.2 = 6; I_mean = max(512, 584) / 6 = 97.333...
        let closed = [100.0, 80.0, 120.0, 90.0, 110.0, 70.0, 130.0, 60.0];
        assert!(close(mean_interval(20.0, &closed), 584.0 / 6.0));
        let p = loss_event_rate(20.0, &closed, &[1.0; 8], 1.0);
        assert!(close(p, 6.0 / 584.0));
    }

    #[test]
    fn average_with_the_open_interval() {
        // Same closed intervals, I_0 = 500:
        // I_tot0 = 500 + 100 + 80 + 120 + 72 + 66 + 28 + 26 = 992 > I_tot1 = 584;
        // I_mean = 992 / 6 = 165.333...
        let closed = [100.0, 80.0, 120.0, 90.0, 110.0, 70.0, 130.0, 60.0];
        assert!(close(mean_interval(500.0, &closed), 992.0 / 6.0));
        assert!(close(
            loss_event_rate(500.0, &closed, &[1.0; 8], 1.0),
            6.0 / 992.0
        ));
    }

    #[test]
    fn fewer_than_n_intervals_use_their_own_weights() {
        // k = 3: I_1..I_3 = 100, 80, 120; W_tot = 3.
        // I_0 = 10:  I_tot0 = 10 + 100 + 80 = 190, I_tot1 = 300: I_mean = 100.
        // I_0 = 400: I_tot0 = 400 + 180 = 580: I_mean = 193.333...
        let closed = [100.0, 80.0, 120.0];
        assert!(close(mean_interval(10.0, &closed), 100.0));
        assert!(close(mean_interval(400.0, &closed), 580.0 / 3.0));
    }

    #[test]
    fn history_keeps_the_last_eight_intervals() {
        let mut h = LossHistory::new(false);
        let rtt = Some(Dur::from_millis(10));
        // First event at seq 1000 (synthetic I = 50), then events 100 packets apart with
        // growing gaps: intervals 100, 101, ..., 108 (nine closed besides the synthetic one).
        assert!(h.on_loss(1000, ms(0), rtt, || 50.0));
        let mut seq = 1000;
        for (i, gap) in (100..=108).enumerate() {
            seq += gap;
            assert!(h.on_loss(seq, ms(100 * (i as u64 + 1)), rtt, || unreachable!()));
        }
        // Ten intervals were closed (50, 100..=108); the eight most recent remain.
        assert_eq!(
            h.closed(),
            &[108.0, 107.0, 106.0, 105.0, 104.0, 103.0, 102.0, 101.0]
        );
        assert_eq!(h.events(), 10);
        // I_0 with highest = seq + 9: 10 packets. I_tot1 = 108 + 107 + 106 + 105 + 0.8*104 +
        // 0.6*103 + 0.4*102 + 0.2*101 = 426 + 83.2 + 61.8 + 40.8 + 20.2 = 632;
        // I_tot0 = 10 + 108 + 107 + 106 + 0.8*105 + 0.6*104 + 0.4*103 + 0.2*102
        //        = 331 + 84 + 62.4 + 41.2 + 20.4 = 539; p = 6 / 632.
        assert_eq!(h.open_interval(seq + 9), Some(10.0));
        assert!(close(h.update(seq + 9), 6.0 / 632.0));
    }

    #[test]
    fn losses_within_one_rtt_are_one_event() {
        let mut h = LossHistory::new(false);
        let rtt = Some(Dur::from_millis(100));
        assert!(h.on_loss(10, ms(100), rtt, || 40.0));
        // 120 ms and exactly 200 ms are within one RTT of 100 ms.
        assert!(!h.on_loss(12, ms(120), rtt, || unreachable!()));
        assert!(!h.on_loss(20, ms(200), rtt, || unreachable!()));
        assert_eq!(h.events(), 1);
        assert_eq!(h.closed(), &[40.0]);
        // 250 ms is more than one RTT after the event's start: a new event, closing the
        // interval 30 - 10 = 20.
        assert!(h.on_loss(30, ms(250), rtt, || unreachable!()));
        assert_eq!(h.events(), 2);
        assert_eq!(h.closed(), &[20.0, 40.0]);
        assert_eq!(
            h.current(),
            Some(LossEvent {
                seq: 30,
                at: ms(250)
            })
        );
        // Measured from the new event's start (250 ms), 340 ms is within, 360 ms is not.
        assert!(!h.on_loss(35, ms(340), rtt, || unreachable!()));
        assert!(h.on_loss(40, ms(360), rtt, || unreachable!()));
    }

    #[test]
    fn no_loss_no_rate_and_first_event_uses_the_synthetic_interval() {
        let mut h = LossHistory::new(false);
        assert_eq!(h.update(500), 0.0);
        assert!(h.on_loss(50, ms(10), None, || 250.0));
        // I_0 = 53 - 50 + 1 = 4 < I_1 = 250: p = 1 / 250.
        assert!(close(h.update(53), 1.0 / 250.0));
        // I_0 = 549 - 50 + 1 = 500 > 250: p = 1 / max(500, 250).
        assert!(close(h.update(549), 1.0 / 500.0));
    }

    #[test]
    fn history_discounting_follows_section_5_5() {
        let mut h = LossHistory::new(true);
        let rtt = Some(Dur::from_millis(1));
        // Closed intervals I_1 = 100, I_2 = 100 (synthetic 100, then an event 100 later).
        assert!(h.on_loss(100, ms(0), rtt, || 100.0));
        assert!(h.on_loss(200, ms(10), rtt, || unreachable!()));
        // I_0 = 150 (highest 349): not above 2 * I_mean = 200, so DF = 1 and p is 5.4's:
        // I_tot0 = 150 + 100 = 250 > I_tot1 = 200: p = 2 / 250.
        assert!(close(h.update(349), 2.0 / 250.0));
        assert_eq!(h.general_discount(), 1.0);
        // I_0 = 300 (highest 499): DF = 2 * 100 / 300 = 2/3.
        // I_tot0 = 300 + 100 * (2/3) = 366.67, W_tot0 = 1 + 2/3; W_tot1 / I_tot1 = 2 / 200.
        // p = min((5/3) / (1100/3), 0.01) = min(5 / 1100, 0.01) = 5 / 1100.
        assert!(close(h.update(499), 5.0 / 1100.0));
        assert!(close(h.general_discount(), 2.0 / 3.0));
        // I_0 = 1000: DF would be 0.2, held at the threshold 0.5.
        // p = min(1.5 / (1000 + 50), 0.01) = 1.5 / 1050.
        assert!(close(h.update(1199), 1.5 / 1050.0));
        assert_eq!(h.general_discount(), DISCOUNT_THRESHOLD);
        // A new loss event at 1300: the closed intervals get DF_i = 0.5 folded in, the new
        // I_1 = 1300 - 200 = 1100 has DF_1 = 1, and DF resets to 1.
        assert!(h.on_loss(1300, ms(100), rtt, || unreachable!()));
        assert_eq!(h.closed(), &[1100.0, 100.0, 100.0]);
        assert_eq!(h.discounts(), &[1.0, 0.5, 0.5]);
        // I_0 = 10 (highest 1309). Discounted I_mean = (1100 + 50 + 50) / 2 = 600; I_0 is
        // small so DF = 1.
        // I_tot1 = 1100 * 1 + 100 * 1 * 0.5 + 100 * 1 * 0.5 = 1200, W_tot1 = 2;
        // I_tot0 = 10 + 1100 + 100 * 0.5 = 1160, W_tot0 = 1 + 1 + 0.5 = 2.5;
        // p = min(2.5 / 1160, 2 / 1200) = 2 / 1200.
        assert!(close(h.update(1309), 2.0 / 1200.0));
    }

    #[test]
    fn without_discounting_the_weights_never_change() {
        let mut h = LossHistory::new(false);
        assert!(h.on_loss(100, ms(0), None, || 100.0));
        assert!(h.on_loss(200, ms(10), None, || unreachable!()));
        // I_0 = 1000: 5.4's mean: I_tot0 = 1000 + 100 = 1100 over W_tot = 2.
        assert!(close(h.update(1199), 2.0 / 1100.0));
        assert!(h.on_loss(1300, ms(20), None, || unreachable!()));
        assert_eq!(h.discounts(), &[1.0, 1.0, 1.0]);
    }
}
