//! Leaving slow start before the first loss: Linux's HyStart and RFC 9406's HyStart++.
//!
//! Both watch the RTT samples of each round (a window of data, from the ACK that passes the
//! round's end to the next) and end slow start when the round's smallest RTT grows; they run
//! in the sender for any congestion control (`hystart = "linux" | "rfc9406" | "off"`).
//!
//! **Linux** (`net/ipv4/tcp_cubic.c` of Linux 6.x, `hystart_update`, where CUBIC runs it):
//! from a window of `hystart_low_window` = 16 segments on, slow start ends (ssthresh = cwnd)
//! when either
//! - the ACK train: ACKs no more than `hystart_ack_delta_us` = 2 ms apart have arrived for
//!   longer than half the minimum RTT since the round began, or
//! - the delay increase: after 8 samples of the round, its smallest RTT exceeds the minimum by
//!   delay_min / 8 clamped to [4 ms, 16 ms].
//!
//! A timeout resets it (and the minimum), so it runs again in the slow start that follows.
//! The ACK-train threshold is the minimum RTT for a paced sender (`pacing = true`) and half of
//! it otherwise, as Linux's `hystart_ack_delay` logic decides by `sk_pacing_status`.
//! CHOICE: no TSO/GRO cushion (`hystart_ack_delay` is 0: ccsim has no segmentation offload).
//!
//! **RFC 9406** (HyStart++): per round the smallest RTT of at least N_RTT_SAMPLE = 8 samples;
//! when it exceeds the previous round's by RttThresh = clamp(previous / 8, 4 ms, 16 ms), slow
//! start gives way to Conservative Slow Start (CSS): growth divided by CSS_GROWTH_DIVISOR = 4;
//! if a CSS round's smallest RTT falls below the baseline that started CSS, slow start
//! resumes; after CSS_ROUNDS = 5 rounds, ssthresh = cwnd and congestion avoidance begins.
//! Growth per ACK is at most L = 8 segments (the RFC's value for an unpaced sender). It runs
//! for the initial slow start only (section 4.2: "SHOULD use HyStart++ only for the initial
//! slow start"); a loss or ECN echo in slow start or CSS ends it as it ends slow start.
//! CHOICE: the round in which CSS begins counts as the first of its CSS_ROUNDS.

use ccsim_core::{Dur, SimTime};

/// Which slow-start exit a flow runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HyStartKind {
    /// Slow start until a loss or ECN echo (RFC 5681).
    #[default]
    Off,
    /// Linux's HyStart.
    Linux,
    /// RFC 9406's HyStart++.
    Rfc9406,
}

/// Linux's `hystart_low_window`, segments.
pub const LINUX_LOW_WINDOW: u64 = 16;
/// Linux's `hystart_ack_delta_us`.
pub const LINUX_ACK_DELTA: Dur = Dur::from_micros(2000);
/// Linux's `HYSTART_MIN_SAMPLES` and RFC 9406's N_RTT_SAMPLE.
pub const MIN_SAMPLES: u32 = 8;
/// The clamp of the delay threshold: Linux's `HYSTART_DELAY_MIN`/`MAX`, RFC 9406's
/// MIN_RTT_THRESH/MAX_RTT_THRESH.
pub const DELAY_THRESH_MIN: Dur = Dur::from_millis(4);
/// See [`DELAY_THRESH_MIN`].
pub const DELAY_THRESH_MAX: Dur = Dur::from_millis(16);
/// RFC 9406's CSS_GROWTH_DIVISOR.
pub const CSS_GROWTH_DIVISOR: u64 = 4;
/// RFC 9406's CSS_ROUNDS.
pub const CSS_ROUNDS: u32 = 5;
/// RFC 9406's L for a sender that does not pace, segments.
pub const RFC9406_L: u64 = 8;

/// delay / 8 clamped to [4 ms, 16 ms] (Linux's `HYSTART_DELAY_THRESH(delay_min >> 3)`, RFC
/// 9406's RttThresh).
#[must_use]
pub fn delay_threshold(base: Dur) -> Dur {
    Dur((base.0 / 8).clamp(DELAY_THRESH_MIN.0, DELAY_THRESH_MAX.0))
}

/// What the sender learns from one ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Go on as before.
    Continue,
    /// Slow start ends here: set ssthresh to cwnd.
    Exit,
}

/// The slow-start exit state of one sender.
#[derive(Clone, Debug)]
pub struct HyStart {
    kind: HyStartKind,
    /// Whether the sender paces (the ACK train must then last the whole minimum RTT).
    paced: bool,
    /// The sequence number whose acknowledgement ends the round (Linux's `end_seq`, RFC
    /// 9406's windowEnd); `None` before the first round.
    round_end: Option<u64>,
    /// When the round began (Linux's `round_start`).
    round_start: SimTime,
    /// The last ACK of the current ACK train (Linux's `last_ack`).
    last_ack: SimTime,
    /// The round's smallest RTT and its sample count.
    round_min: Option<Dur>,
    samples: u32,
    /// The previous round's smallest RTT (RFC 9406's lastRoundMinRTT).
    last_round_min: Option<Dur>,
    /// The smallest RTT since the start or the last timeout (Linux's `delay_min`).
    delay_min: Option<Dur>,
    /// Linux: an exit was found; RFC 9406: the algorithm has ended.
    done: bool,
    /// RFC 9406: in CSS, with the baseline that started it and the rounds so far.
    css: Option<(Dur, u32)>,
    /// RFC 9406: quarter segments acknowledged in CSS not yet passed on as growth.
    css_carry: u64,
}

impl HyStart {
    /// A sender's slow-start exit before its first segment.
    #[must_use]
    pub fn new(kind: HyStartKind) -> Self {
        HyStart {
            kind,
            paced: false,
            round_end: None,
            round_start: SimTime::ZERO,
            last_ack: SimTime::ZERO,
            round_min: None,
            samples: 0,
            last_round_min: None,
            delay_min: None,
            done: kind == HyStartKind::Off,
            css: None,
            css_carry: 0,
        }
    }
    /// The same, for a sender that paces (`tcp/pacing.rs`) when `paced` is set.
    #[must_use]
    pub fn paced(mut self, paced: bool) -> Self {
        self.paced = paced;
        self
    }

    /// Which exit this is.
    #[must_use]
    pub fn kind(&self) -> HyStartKind {
        self.kind
    }

    /// Whether RFC 9406's Conservative Slow Start is running.
    #[must_use]
    pub fn in_css(&self) -> bool {
        self.css.is_some()
    }

    fn new_round(&mut self, now: SimTime, snd_nxt: u64) {
        self.round_end = Some(snd_nxt);
        self.round_start = now;
        self.last_ack = now;
        self.last_round_min = self.round_min;
        self.round_min = None;
        self.samples = 0;
        if let Some((base, rounds)) = self.css {
            self.css = Some((base, rounds + 1));
        }
    }

    /// An ACK in slow start that advanced the ACK point to `snd_una`, with the RTT `sample`
    /// of the newest segment it covers (if never retransmitted); `cwnd` in segments.
    pub fn on_ack(
        &mut self,
        now: SimTime,
        sample: Option<Dur>,
        snd_una: u64,
        snd_nxt: u64,
        cwnd: u64,
    ) -> Verdict {
        if self.done {
            return Verdict::Continue;
        }
        if self.round_end.is_none_or(|end| snd_una > end) {
            self.new_round(now, snd_nxt);
            if self.kind == HyStartKind::Rfc9406 && self.css.is_some_and(|(_, r)| r >= CSS_ROUNDS) {
                self.finish();
                return Verdict::Exit;
            }
        }
        let Some(rtt) = sample else {
            return Verdict::Continue;
        };
        let rtt = Dur(rtt.0.max(1));
        self.delay_min = Some(self.delay_min.map_or(rtt, |d| d.min(rtt)));
        match self.kind {
            HyStartKind::Off => Verdict::Continue,
            // Linux neither counts nor judges samples below hystart_low_window.
            HyStartKind::Linux if cwnd < LINUX_LOW_WINDOW => Verdict::Continue,
            HyStartKind::Linux => {
                self.note_sample(rtt);
                self.linux(now)
            }
            HyStartKind::Rfc9406 => {
                self.note_sample(rtt);
                self.rfc9406();
                Verdict::Continue
            }
        }
    }

    fn note_sample(&mut self, rtt: Dur) {
        self.round_min = Some(self.round_min.map_or(rtt, |d| d.min(rtt)));
        self.samples = self.samples.saturating_add(1);
    }

    /// Linux's `hystart_update` after the round bookkeeping.
    fn linux(&mut self, now: SimTime) -> Verdict {
        let delay_min = self.delay_min.expect("a sample was just taken");
        if now - self.last_ack <= LINUX_ACK_DELTA {
            self.last_ack = now;
            let threshold = if self.paced {
                delay_min
            } else {
                Dur(delay_min.0 / 2)
            };
            if now - self.round_start > threshold {
                self.done = true;
                return Verdict::Exit;
            }
        }
        let round_min = self.round_min.expect("a sample was just taken");
        // Linux counts a round's first eight samples before it judges.
        if self.samples > MIN_SAMPLES && round_min > delay_min + delay_threshold(delay_min) {
            self.done = true;
            return Verdict::Exit;
        }
        Verdict::Continue
    }

    /// RFC 9406 section 4.2's tests on a sample.
    fn rfc9406(&mut self) {
        if self.samples < MIN_SAMPLES {
            return;
        }
        let (Some(current), Some(last)) = (self.round_min, self.last_round_min) else {
            return;
        };
        match self.css {
            None => {
                if current >= last + delay_threshold(last) {
                    self.css = Some((current, 0));
                    self.css_carry = 0;
                }
            }
            Some((baseline, _)) => {
                if current < baseline {
                    self.css = None; // the RTT increase was spurious: back to slow start
                }
            }
        }
    }

    /// The segments of growth slow start may take for `acked` segments acknowledged: all of
    /// them (Off, Linux); at most L, and a quarter of that in CSS (RFC 9406).
    pub fn slow_start_acked(&mut self, acked: u64) -> u64 {
        if self.kind != HyStartKind::Rfc9406 || self.done {
            return acked;
        }
        let acked = acked.min(RFC9406_L);
        if self.css.is_none() {
            return acked;
        }
        self.css_carry += acked;
        let pass = self.css_carry / CSS_GROWTH_DIVISOR;
        self.css_carry %= CSS_GROWTH_DIVISOR;
        pass
    }

    fn finish(&mut self) {
        self.done = true;
        self.css = None;
    }

    /// A loss or ECN echo ended slow start (RFC 9406: HyStart++ is over; Linux: nothing).
    pub fn on_congestion(&mut self) {
        if self.kind == HyStartKind::Rfc9406 {
            self.finish();
        }
    }

    /// A retransmission timeout: Linux resets HyStart (`bictcp_reset`, `bictcp_hystart_reset`
    /// on `TCP_CA_Loss`), so it runs in the next slow start; HyStart++ stays over.
    pub fn on_timeout(&mut self) {
        match self.kind {
            HyStartKind::Linux => *self = HyStart::new(HyStartKind::Linux),
            HyStartKind::Rfc9406 => self.finish(),
            HyStartKind::Off => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Dur {
        Dur::from_millis(x)
    }

    fn at_us(us: u64) -> SimTime {
        SimTime(us * 1000)
    }

    #[test]
    fn the_delay_threshold_is_an_eighth_clamped_to_4_and_16_ms() {
        assert_eq!(delay_threshold(ms(10)), ms(4));
        assert_eq!(delay_threshold(ms(80)), ms(10));
        assert_eq!(delay_threshold(ms(400)), ms(16));
    }

    /// A round of `n` ACKs, `spacing_us` apart from `start_us`, each with RTT `rtt`; the
    /// round ends at `end` (snd_nxt when it began) and the ACKs cover `una0 + 1 ..`.
    fn round(
        h: &mut HyStart,
        start_us: u64,
        spacing_us: u64,
        n: u64,
        rtt: Dur,
        una0: u64,
        cwnd: u64,
    ) -> Option<u64> {
        for i in 0..n {
            let v = h.on_ack(
                at_us(start_us + i * spacing_us),
                Some(rtt),
                una0 + i + 1,
                una0 + 2 * n,
                cwnd,
            );
            if v == Verdict::Exit {
                return Some(i);
            }
        }
        None
    }

    #[test]
    fn linux_exits_on_the_delay_increase_after_eight_samples() {
        // delay_min 100 ms: the threshold is 12.5 ms. ACKs 5 ms apart (no train). A round at
        // 110 ms does not exit; one at 113 ms exits on its ninth sample.
        let mut h = HyStart::new(HyStartKind::Linux);
        assert_eq!(round(&mut h, 0, 5000, 20, ms(100), 0, 20), None);
        assert_eq!(round(&mut h, 200_000, 5000, 20, ms(110), 40, 40), None);
        assert_eq!(round(&mut h, 400_000, 5000, 20, ms(113), 80, 80), Some(8));
    }

    #[test]
    fn linux_exits_on_an_ack_train_longer_than_half_the_minimum_rtt() {
        // delay_min 40 ms, ACKs 1 ms apart (a train): the round's train passes 20 ms at its
        // 22nd ACK (21 ms after the round began).
        let mut h = HyStart::new(HyStartKind::Linux);
        assert_eq!(round(&mut h, 0, 5000, 10, ms(40), 0, 20), None);
        assert_eq!(round(&mut h, 100_000, 1000, 40, ms(40), 20, 40), Some(21));
    }
    #[test]
    fn a_paced_sender_needs_an_ack_train_of_the_whole_minimum_rtt() {
        // The same rounds from a pacing sender: the train must pass 40 ms, so its 41st ACK
        // (40 ms after the round began) is not enough and the 42nd (41 ms) is.
        let mut h = HyStart::new(HyStartKind::Linux).paced(true);
        assert_eq!(round(&mut h, 0, 5000, 10, ms(40), 0, 20), None);
        assert_eq!(round(&mut h, 100_000, 1000, 60, ms(40), 20, 60), Some(41));
    }

    #[test]
    fn linux_waits_for_16_segments_and_starts_again_after_a_timeout() {
        let mut h = HyStart::new(HyStartKind::Linux);
        assert_eq!(round(&mut h, 0, 1000, 40, ms(10), 0, 8), None); // below hystart_low_window
        assert_eq!(round(&mut h, 100_000, 1000, 40, ms(10), 80, 16), Some(6)); // train past 5 ms
        assert_eq!(round(&mut h, 200_000, 1000, 40, ms(10), 160, 32), None); // found: done
        h.on_timeout();
        assert_eq!(round(&mut h, 300_000, 1000, 40, ms(10), 240, 16), Some(6));
    }

    #[test]
    fn rfc9406_enters_css_divides_growth_and_exits_after_five_rounds() {
        // Rounds of 10 ACKs at 60 ms (RttThresh 7.5 ms); then 68 ms: CSS from the 8th sample.
        let mut h = HyStart::new(HyStartKind::Rfc9406);
        round(&mut h, 0, 5000, 10, ms(60), 0, 20);
        assert_eq!(h.slow_start_acked(20), 8); // at most L = 8 per ACK
        round(&mut h, 100_000, 5000, 10, ms(68), 20, 30);
        assert!(h.in_css());
        // A quarter of the growth in CSS.
        let grown: u64 = (0..8).map(|_| h.slow_start_acked(1)).sum();
        assert_eq!(grown, 2);
        // Rounds 1-4 of CSS at the baseline: still CSS; the fifth round's first ACK exits.
        for r in 0..4 {
            assert_eq!(
                round(
                    &mut h,
                    200_000 + r * 100_000,
                    5000,
                    10,
                    ms(68),
                    40 + 20 * r,
                    40
                ),
                None
            );
            assert!(h.in_css());
        }
        assert_eq!(round(&mut h, 700_000, 5000, 10, ms(68), 120, 40), Some(0));
        assert!(!h.in_css());
        assert_eq!(h.slow_start_acked(4), 4); // over: growth is the congestion control's
    }

    #[test]
    fn rfc9406_returns_to_slow_start_when_the_rtt_falls_below_the_baseline() {
        let mut h = HyStart::new(HyStartKind::Rfc9406);
        round(&mut h, 0, 5000, 10, ms(60), 0, 20);
        round(&mut h, 100_000, 5000, 10, ms(70), 20, 30);
        assert!(h.in_css());
        round(&mut h, 200_000, 5000, 10, ms(61), 40, 40);
        assert!(!h.in_css());
        assert_eq!(h.slow_start_acked(1), 1);
        // A loss ends HyStart++ for good.
        h.on_congestion();
        round(&mut h, 300_000, 5000, 10, ms(90), 60, 40);
        assert!(!h.in_css());
    }

    #[test]
    fn off_never_exits_or_slows_growth() {
        let mut h = HyStart::new(HyStartKind::Off);
        assert_eq!(round(&mut h, 0, 1000, 40, ms(10), 0, 64), None);
        assert_eq!(round(&mut h, 100_000, 1000, 40, ms(90), 80, 64), None);
        assert_eq!(h.slow_start_acked(20), 20);
    }
}
