//! Random Early Detection (Floyd and Jacobson 1993, "Random Early Detection Gateways for
//! Congestion Avoidance", IEEE/ACM ToN 1(4), here FJ93) with the "gentle" variant (Floyd,
//! "Recommendations on using the gentle_ variant of RED", 2000) and ECN marking (RFC 3168
//! sections 5 and 7).
//!
//! The decision path follows FJ93 Figure 2 ("Detailed algorithm for RED gateways"):
//!
//! ```text
//! on each arrival:
//!     if the link was idle:  m = floor((now - idle_start) / s);  avg = (1 - w_q)^m avg
//!     avg = (1 - w_q) avg + w_q q
//!     if avg < min_th:                 count = -1; enqueue
//!     else if avg < max_th:            count += 1
//!                                      p_b = max_p (avg - min_th) / (max_th - min_th)
//!                                      probabilistic(p_b)
//!     else if gentle and avg < 2 max_th:
//!                                      count += 1
//!                                      p_b = max_p + (1 - max_p) (avg - max_th) / max_th
//!                                      probabilistic(p_b)
//!     else:                            count = 0; forced drop
//! probabilistic(p_b):
//!     in byte mode p_b = p_b * size / mean_packet_size
//!     p_a = p_b / (1 - count p_b)      (1 once count p_b >= 1 - p_b)
//!     with probability p_a: count = 0; mark (ECN on and the packet ECN-capable) or early drop
//!     otherwise enqueue
//! ```
//!
//! `s` is the transmission time of a packet of `mean_packet_size` bytes at the link rate, so
//! `m` is the number of such packets the link could have sent while idle.
//!
//! Every arithmetic operation in the decision path is an IEEE basic operation (`+ - * /`,
//! comparisons) on `f64`, so results are bit-identical on every platform. The idle correction
//! `(1 - w_q)^m` uses [`pow_u64`], exponentiation by squaring with plain multiplications; no
//! `powf`, `powi` or `exp` (whose results may differ between platforms and library versions).
//!
//! Choices where FJ93 is silent or where ns-2's `Queue/RED` (ns-2.35 `queue/red.cc`, the
//! reference implementation by the same author) differs:
//!
//! * CHOICE (count): FJ93 Figure 2 literally: `count` starts at -1, is incremented before
//!   `p_a` is computed, is reset to 0 after a mark or drop and to -1 when `avg < min_th`.
//!   The `n`-th arrival after a mark therefore sees `count = n` and the gap between marks at
//!   constant `p_b` is uniform on `{1, ..., 1/p_b - 1}` (for integer `1/p_b`; mean
//!   `1/(2 p_b)`, long-run marking fraction `2 p_b`). FJ93 Section 7's analysis counts the
//!   unmarked packets *before* the arrival (`count = n - 1`), which gives gaps uniform on
//!   `{1, ..., 1/p_b}` and a fraction `2 p_b / (1 + p_b)`; the algorithm of Figure 2, and
//!   ns-2 with `wait_ false`, behave as implemented here. ns-2 additionally skips the test on
//!   the first arrival above `min_th` (its `old` flag sets `count = 1` instead); we do not.
//! * CHOICE (spacing): ns-2's default `wait_ true` uses `p_a = p_b / (2 - count p_b)` and
//!   `p_a = 0` while `count p_b < 1` (gaps uniform on `{1/p_b, ..., 2/p_b}`); FJ93 has no
//!   such option and we follow FJ93 (as ns-2 with `wait_ false`).
//! * CHOICE (idle): the idle period is the time the link has nothing waiting *and* nothing
//!   in service; it starts when a transmission ends with an empty queue (as ns-2's `deque`
//!   finding nothing) and at time 0. An arrival while a packet is in service and nothing
//!   waits is a normal EWMA sample with `q = 0`. `m` is rounded down, as ns-2's
//!   `int(ptc * idle)`. After the decay the arrival is also an ordinary sample (of `q = 0`,
//!   the queue of an idle link), so the average after an idle period is
//!   `(1 - w_q)^(m + 1) avg`, as in ns-2's estimator; FJ93 Figure 2 applies only
//!   `(1 - w_q)^m`. Without the extra sample, arrivals less than `s` apart at an idle link
//!   (light traffic of small packets, or arrivals that RED itself drops) would have `m = 0`
//!   and never move the average, which could then stay above `min_th`, or above the forced
//!   threshold, indefinitely. An arrival that RED drops at an idle link leaves the link idle;
//!   a new idle period starts at that arrival (ns-2's dequeue finds the queue empty again
//!   and restarts its idle clock). ns-2 can use a separate `idle_pktsize_` (100 B, only with
//!   `cautious_ 3`); we use `mean_packet_size`.
//! * CHOICE (tiny queue): ns-2 never drops early while the instantaneous queue holds at most
//!   one packet (`qlen > 1`); FJ93 has no such rule and neither do we.
//! * CHOICE (byte mode): one switch measures the queue and the thresholds in bytes and scales
//!   `p_b` by `size / mean_packet_size` (ns-2 has two switches, `queue_in_bytes_` and
//!   `bytes_`). FJ93 Section 4 scales by `size / MaximumPacketSize` and does so *before* the
//!   count correction; we scale by the mean size, as ns-2, and before the correction, as FJ93
//!   (ns-2 scales the final `p_a` and counts bytes since the last drop in units of the mean
//!   size). The count stays in packets.
//! * CHOICE (gentle): the count correction applies in the gentle region too (as ns-2).
//! * CHOICE (forced drops): at or above `max_th` (not gentle) or `2 max_th` (gentle) every
//!   arrival is dropped and `count = 0` (FJ93 "mark ... count <- 0", the ns-2 bug fix by
//!   Philip Liu). A drop by the physical queue limit after RED let a packet through is a
//!   DropTail drop (`queue_full`) and leaves `count` alone (ns-2 resets `count` there too;
//!   FJ93 does not consider a full buffer).
//! * CHOICE (ECN): with `ecn` on, an ECN-capable packet (ECT or already CE) that the
//!   probabilistic test selects is marked CE instead of dropped, in the gentle region too
//!   (RFC 3168 section 5: while the buffer is not full, a router that would drop a packet to
//!   signal incipient congestion may set CE in an ECT packet instead). Forced drops stay
//!   drops: past the forced threshold RED sheds load rather than signals, and a sender that
//!   ignores CE (RFC 3168 section 7, non-compliant end nodes) cannot fill the queue with
//!   marked packets. ns-2's default `use_mark_p_ true` / `mark_p_ 0.1` would drop instead of
//!   marking whenever `p_b >= 0.1`, i.e. throughout the gentle region. A packet already CE
//!   stays CE (a router never resets CE) and counts as a mark.
//! * CHOICE (the drawn number): one uniform draw from the link's own stream per
//!   probabilistic decision with `p_a > 0`; the packet is selected when `u < p_a`.
//!
//! ns-2.35's `Queue/RED` ([`RedConfig::ns2`], `ns2 = true`) takes its decision path instead,
//! read from ns-2.35 `queue/red.cc` (`enque`, `drop_early`, `calculate_p_new`, `modify_p`)
//! with its defaults of `tcl/lib/ns-default.tcl` (`wait_ true`, `use_mark_p_ true`,
//! `mark_p_ 0.1`): `count` and `count_bytes` grow on every arrival; nothing is dropped early
//! while the instantaneous queue holds at most one packet (one byte in byte mode); the first
//! arrival with the average at or above `min_th` only restarts the count (`old`); the
//! probability is `p_b` spaced by `wait_` (0 while `count p_b < 1`, `p_b / (2 - count p_b)`
//! below 2, else 1), where the count is `count_bytes / mean_packet_size` (whole packets) in
//! byte mode and the spaced value is then scaled by `size / mean_packet_size`; there are no
//! forced drops on the average (`use_mark_p_`: past `2 max_th` the probability is 1), and a
//! selected ECN-capable packet is marked only while `p_b <= mark_p`, dropped above it; a drop
//! by the physical limit restarts the count too. The automatic thresholds and weight ns-2
//! derives from the link (`thresh_ 0`, `q_weight_ -1`) are computed by the scenario layer.
//!
//! PERFORMANCE: every function here is `#[inline]`, so it is compiled where the generic
//! link code uses it and the engine crate's own code-generation units stay as they were.
//! Out-of-line code here shifted how `EventQueue::pop` was inlined into the event loop and
//! cost 35% of the `cbr-4hop` benchmark's speed, with no RED link in it.

use ccsim_core::{Rate, RngStream};

/// Parameters of a RED queue. Thresholds are in packets, or in bytes in byte mode.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedConfig {
    /// `min_th`: no early drops or marks while the average is below it.
    pub min_th: f64,
    /// `max_th`: the average at which the early probability reaches `max_p`.
    pub max_th: f64,
    /// `w_q`: weight of the newest sample in the average, in (0, 1].
    pub w_q: f64,
    /// `max_p`: early drop probability at `max_th`, in [0, 1].
    pub max_p: f64,
    /// Gentle variant: between `max_th` and `2 max_th` the probability rises linearly from
    /// `max_p` to 1 instead of jumping to forced drops.
    pub gentle: bool,
    /// Byte mode: queue and thresholds in bytes, `p_b` scaled by `size / mean_packet_size`.
    pub bytes: bool,
    /// Typical packet size in bytes: sets the idle-time unit (its transmission time at the
    /// link rate) and, in byte mode, the size scaling.
    pub mean_packet_size: u32,
    /// Mark ECN-capable packets CE instead of dropping them early (RFC 3168).
    pub ecn: bool,
    /// ns-2.35's decision path (see the module docs) instead of FJ93's.
    pub ns2: bool,
    /// ns-2's `mark_p_`: with `ns2`, an ECN-capable packet is marked only while the
    /// probability is at most this, else dropped.
    pub mark_p: f64,
}

impl Default for RedConfig {
    /// ns-2's classic RED parameters (`tcl/lib/ns-default.tcl`, the values before the 2001
    /// automatic configuration): `thresh_ 5`, `maxthresh_ 15`, `q_weight_ 0.002`,
    /// `linterm_ 10` (max_p = 0.1), `gentle_ true` (the default since 2001),
    /// `mean_pktsize_ 500`, packet mode (`bytes_ false`, `queue_in_bytes_ false`, the
    /// defaults before 2004), `setbit_ false` (no ECN).
    #[inline]
    fn default() -> Self {
        RedConfig {
            min_th: 5.0,
            max_th: 15.0,
            w_q: 0.002,
            max_p: 0.1,
            gentle: true,
            bytes: false,
            mean_packet_size: 500,
            ecn: false,
            ns2: false,
            mark_p: 0.1,
        }
    }
}

/// A parameter of [`RedConfig`] out of range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedConfigError {
    /// The field at fault (`"min_th"`, `"max_th"`, `"w_q"`, `"max_p"`, `"mean_packet_size"`).
    pub field: &'static str,
    /// What was expected and what was found.
    pub message: String,
}

impl std::fmt::Display for RedConfigError {
    #[inline]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}
impl std::error::Error for RedConfigError {}

impl RedConfig {
    /// ns-2.35's `Queue/RED` as `tcl/lib/ns-default.tcl` configures it, on a link of `rate`
    /// and one-way `delay` (`initialize_params` in `queue/red.cc`): byte mode (`bytes_`,
    /// `queue_in_bytes_`), `mean_pktsize_ 500`, `linterm_ 10`, `gentle_ true`, `setbit_ false`,
    /// `mark_p_ 0.1`, and the automatic settings of `thresh_ 0`, `maxthresh_ 0` and
    /// `q_weight_ -1`: with `ptc` = rate / (8 x 500) packets a second, min_th = max(5,
    /// `targetdelay_` (5 ms) x ptc / 2) packets, max_th = 3 min_th (both then in bytes), and
    /// w_q = 1 - exp(-1 / (10 rtt ptc)) with rtt = max(0.1 s, 3 (delay + 1 / ptc)).
    #[must_use]
    pub fn ns2_35(rate: Rate, delay: ccsim_core::Dur) -> RedConfig {
        let mean = 500.0;
        let ptc = rate.bps() as f64 / (8.0 * mean);
        let min_pkts = (0.005 * ptc / 2.0).max(5.0);
        let rtt = (3.0 * (delay.as_secs_f64() + 1.0 / ptc)).max(0.1);
        RedConfig {
            min_th: min_pkts,
            max_th: 3.0 * min_pkts,
            w_q: 1.0 - ccsim_core::math::exp(-1.0 / (10.0 * rtt * ptc)),
            max_p: 0.1,
            gentle: true,
            bytes: false,
            mean_packet_size: 500,
            ecn: false,
            ns2: true,
            mark_p: 0.1,
        }
        .in_bytes()
    }

    /// The same configuration in byte mode, thresholds converted from packets to bytes by
    /// `mean_packet_size` (as ns-2 does with `queue_in_bytes_`).
    #[inline]
    #[must_use]
    pub fn in_bytes(self) -> RedConfig {
        let mean = f64::from(self.mean_packet_size);
        RedConfig {
            min_th: self.min_th * mean,
            max_th: self.max_th * mean,
            bytes: true,
            ..self
        }
    }

    /// Check the ranges: `0 <= min_th < max_th` (finite), `0 < w_q <= 1`, `0 <= max_p <= 1`,
    /// `mean_packet_size > 0`.
    ///
    /// # Errors
    /// The first parameter out of range.
    #[inline]
    pub fn validate(&self) -> Result<(), RedConfigError> {
        let err = |field, message: String| Err(RedConfigError { field, message });
        if !(self.min_th.is_finite() && self.min_th >= 0.0) {
            return err(
                "min_th",
                format!("expected a finite value >= 0, found {}", self.min_th),
            );
        }
        if !(self.max_th.is_finite() && self.max_th > self.min_th) {
            return err(
                "max_th",
                format!(
                    "expected a finite value above min_th ({}), found {}",
                    self.min_th, self.max_th
                ),
            );
        }
        if !(self.w_q > 0.0 && self.w_q <= 1.0) {
            return err(
                "w_q",
                format!("expected a weight in (0, 1], found {}", self.w_q),
            );
        }
        if !(0.0..=1.0).contains(&self.max_p) {
            return err(
                "max_p",
                format!("expected a probability in [0, 1], found {}", self.max_p),
            );
        }
        if self.mean_packet_size == 0 {
            return err(
                "mean_packet_size",
                "expected a size above 0 bytes, found 0".into(),
            );
        }
        Ok(())
    }
}

/// What RED decides about one arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedDecision {
    /// Let the packet through (to the physical queue limit).
    Enqueue,
    /// Set CE and let the packet through.
    Mark,
    /// Drop: selected by the probabilistic test.
    EarlyDrop,
    /// Drop: the average is at or above `max_th` (`2 max_th` when gentle).
    ForcedDrop,
}

/// The state of one RED queue.
#[derive(Clone, Debug)]
pub struct Red {
    config: RedConfig,
    avg: f64,
    count: i64,
    /// ns-2: bytes arrived since the last drop or mark.
    count_bytes: u64,
    /// ns-2's `old`: the average was at or above `min_th` at the last arrival.
    old: bool,
    /// When the current idle period began; `None` while the link is busy.
    idle_since: Option<u64>,
    /// Transmission time of a `mean_packet_size` packet at the link rate, ns (at least 1).
    typical_tx_ns: u64,
}

impl Red {
    /// A RED queue for a link of `rate`, idle since time 0 with an average of 0.
    ///
    /// # Panics
    /// Panics if `rate` is zero (rates are validated to be positive before a run is built).
    #[inline]
    #[must_use]
    pub fn new(config: RedConfig, rate: Rate) -> Red {
        let typical_tx_ns = rate
            .tx_time(u64::from(config.mean_packet_size))
            .as_nanos()
            .max(1);
        Red {
            config,
            avg: 0.0,
            count: if config.ns2 { 0 } else { -1 },
            count_bytes: 0,
            old: false,
            idle_since: Some(0),
            typical_tx_ns,
        }
    }

    /// The configuration.
    #[inline]
    #[must_use]
    pub fn config(&self) -> &RedConfig {
        &self.config
    }

    /// The average queue length (packets, or bytes in byte mode) as of the last arrival.
    #[inline]
    #[must_use]
    pub fn avg(&self) -> f64 {
        self.avg
    }

    /// Arrivals since the last mark or drop, counted as FJ93 Figure 2 does (-1 below
    /// `min_th`).
    #[inline]
    #[must_use]
    pub fn count(&self) -> i64 {
        self.count
    }

    /// The idle-time unit `s`: transmission time of a `mean_packet_size` packet, ns.
    #[inline]
    #[must_use]
    pub fn typical_tx_ns(&self) -> u64 {
        self.typical_tx_ns
    }

    /// The link went idle (nothing waiting, nothing in service) at `now`.
    #[inline]
    pub fn on_idle(&mut self, now: u64) {
        self.idle_since = Some(now);
    }

    /// Decide about a packet of `size` bytes arriving at `now` while `queue` packets (bytes
    /// in byte mode) wait; `ect` says whether it is ECN-capable (ECT or CE). Draws from
    /// `rng` only in the probabilistic region.
    #[inline]
    pub fn on_arrival(
        &mut self,
        queue: u64,
        size: u32,
        ect: bool,
        now: u64,
        fits: bool,
        rng: &mut RngStream,
    ) -> RedDecision {
        let was_idle = self.idle_since.is_some();
        let decision = if self.config.ns2 {
            self.decide_ns2(queue, size, ect, now, fits, rng)
        } else {
            self.decide(queue, size, ect, now, rng)
        };
        if was_idle && matches!(decision, RedDecision::EarlyDrop | RedDecision::ForcedDrop) {
            // The packet never reaches the link, which stays idle: a new idle period starts
            // now (as in ns-2, whose dequeue then finds the queue empty again).
            self.idle_since = Some(now);
        }
        decision
    }

    /// The idle decay and the new sample of the average (both paths).
    #[inline]
    fn average(&mut self, queue: u64, now: u64) -> f64 {
        let one_minus_w = 1.0 - self.config.w_q;
        if let Some(since) = self.idle_since.take() {
            let m = now.saturating_sub(since) / self.typical_tx_ns;
            self.avg *= pow_u64(one_minus_w, m);
        }
        self.avg = one_minus_w * self.avg + self.config.w_q * queue as f64;
        self.avg
    }

    /// ns-2.35's `enque` and `drop_early` (module docs).
    #[inline]
    fn decide_ns2(
        &mut self,
        queue: u64,
        size: u32,
        ect: bool,
        now: u64,
        fits: bool,
        rng: &mut RngStream,
    ) -> RedDecision {
        let c = self.config;
        let avg = self.average(queue, now);
        self.count += 1;
        self.count_bytes += u64::from(size);
        let mut decision = RedDecision::Enqueue;
        if avg >= c.min_th && queue > 1 {
            if self.old {
                // calculate_p_new
                let p1 = if c.gentle && avg >= c.max_th {
                    (1.0 - c.max_p) / c.max_th * avg + (2.0 * c.max_p - 1.0)
                } else if !c.gentle && avg >= c.max_th {
                    1.0
                } else {
                    (avg - c.min_th) / (c.max_th - c.min_th) * c.max_p
                }
                .min(1.0);
                // modify_p with wait_
                let mean = u64::from(c.mean_packet_size);
                let count1 = if c.bytes {
                    (self.count_bytes / mean) as f64
                } else {
                    self.count as f64
                };
                let mut p = if count1 * p1 < 1.0 {
                    0.0
                } else if count1 * p1 < 2.0 {
                    p1 / (2.0 - count1 * p1)
                } else {
                    1.0
                };
                if c.bytes && p < 1.0 {
                    p = p * f64::from(size) / f64::from(c.mean_packet_size);
                }
                if p > 0.0 && rng.bernoulli(p.min(1.0)) {
                    self.count = 0;
                    self.count_bytes = 0;
                    decision = if c.ecn && ect && p1 <= c.mark_p {
                        RedDecision::Mark
                    } else {
                        RedDecision::EarlyDrop
                    };
                }
            } else {
                // The average has just crossed min_th (or the queue just filled past one
                // packet): the count restarts at this arrival.
                self.count = 1;
                self.count_bytes = u64::from(size);
                self.old = true;
            }
        } else {
            self.old = false;
        }
        if !fits {
            // A drop by the physical limit restarts the count (ns-2's forced drop).
            self.count = 0;
            self.count_bytes = 0;
        }
        decision
    }

    #[inline]
    fn decide(
        &mut self,
        queue: u64,
        size: u32,
        ect: bool,
        now: u64,
        rng: &mut RngStream,
    ) -> RedDecision {
        let avg = self.average(queue, now);
        let c = &self.config;
        let p_b = if avg < c.min_th {
            self.count = -1;
            return RedDecision::Enqueue;
        } else if avg < c.max_th {
            c.max_p * (avg - c.min_th) / (c.max_th - c.min_th)
        } else if c.gentle && avg < 2.0 * c.max_th {
            c.max_p + (1.0 - c.max_p) * (avg - c.max_th) / c.max_th
        } else {
            self.count = 0;
            return RedDecision::ForcedDrop;
        };
        self.count += 1;
        let p_b = if c.bytes {
            p_b * f64::from(size) / f64::from(c.mean_packet_size)
        } else {
            p_b
        };
        let denom = 1.0 - self.count as f64 * p_b;
        let p_a = if p_b >= denom { 1.0 } else { p_b / denom };
        if !rng.bernoulli(p_a) {
            return RedDecision::Enqueue;
        }
        self.count = 0;
        if c.ecn && ect {
            RedDecision::Mark
        } else {
            RedDecision::EarlyDrop
        }
    }
}

/// `base^exp` by binary exponentiation: only IEEE multiplications, so the result is the same
/// on every platform (it may differ in the last bits from a libm `pow`).
#[inline]
#[must_use]
pub fn pow_u64(mut base: f64, mut exp: u64) -> f64 {
    let mut acc = 1.0;
    while exp > 0 {
        if exp & 1 == 1 {
            acc *= base;
        }
        exp >>= 1;
        if exp > 0 {
            base *= base;
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn red(config: RedConfig) -> Red {
        Red::new(config, Rate(10_000_000))
    }

    #[test]
    fn defaults_are_ns2_classic_red() {
        let c = RedConfig::default();
        assert_eq!(
            (c.min_th, c.max_th, c.w_q, c.max_p),
            (5.0, 15.0, 0.002, 0.1)
        );
        assert!(c.gentle && !c.bytes && !c.ecn);
        assert_eq!(c.mean_packet_size, 500);
        assert_eq!(c.validate(), Ok(()));
    }

    #[test]
    fn validation_names_the_field() {
        let bad = |f: fn(&mut RedConfig)| {
            let mut c = RedConfig::default();
            f(&mut c);
            c.validate().unwrap_err().field
        };
        assert_eq!(bad(|c| c.min_th = -1.0), "min_th");
        assert_eq!(bad(|c| c.max_th = 5.0), "max_th");
        assert_eq!(bad(|c| c.max_th = f64::NAN), "max_th");
        assert_eq!(bad(|c| c.w_q = 0.0), "w_q");
        assert_eq!(bad(|c| c.max_p = 1.5), "max_p");
        assert_eq!(bad(|c| c.mean_packet_size = 0), "mean_packet_size");
    }

    #[test]
    fn in_bytes_scales_the_thresholds_by_the_mean_size() {
        let c = RedConfig::default().in_bytes();
        assert_eq!((c.min_th, c.max_th, c.bytes), (2500.0, 7500.0, true));
    }

    #[test]
    fn pow_u64_matches_repeated_multiplication() {
        // Oracle: the loop ns-2's estimator runs; squaring rounds differently, so compare to
        // a relative 1e-13.
        for m in [0u64, 1, 2, 3, 7, 64, 1000, 4097] {
            let mut slow = 1.0f64;
            for _ in 0..m {
                slow *= 0.998;
            }
            let fast = pow_u64(0.998, m);
            assert!(
                (fast - slow).abs() <= 1e-13 * slow,
                "m {m}: {fast} vs {slow}"
            );
        }
        assert_eq!(pow_u64(0.5, 3), 0.125);
        assert_eq!(pow_u64(0.998, u64::MAX), 0.0);
    }

    #[test]
    fn below_min_th_nothing_is_dropped_or_drawn() {
        let mut r = red(RedConfig::default());
        let mut rng = RngStream::new(1, "t");
        let mut twin = rng.clone();
        for _ in 0..10_000 {
            assert_eq!(
                r.on_arrival(4, 1000, false, 0, true, &mut rng),
                RedDecision::Enqueue
            );
            assert_eq!(r.count(), -1);
        }
        // No draw was taken from the stream.
        assert_eq!(rng.next_u64(), twin.next_u64());
    }

    #[test]
    fn first_arrival_above_min_th_uses_p_b_itself() {
        // count -1 -> 0, so p_a = p_b / (1 - 0) = p_b: one Bernoulli(p_b) trial per fresh
        // queue. w_q = 1 makes avg the sampled queue (14 packets, p_b = 0.09).
        let c = RedConfig {
            w_q: 1.0,
            ..RedConfig::default()
        };
        let mut drops = 0;
        let n = 20_000;
        let mut rng = RngStream::new(3, "t");
        for _ in 0..n {
            let mut r = red(c);
            r.on_arrival(0, 1000, false, 0, true, &mut rng); // idle arrival: avg stays 0
            let d = r.on_arrival(14, 1000, false, 0, true, &mut rng);
            assert_eq!(r.count(), 0);
            drops += u32::from(d == RedDecision::EarlyDrop);
        }
        // p_b = 0.1 * 9 / 10 = 0.09; sd of the count = sqrt(n p (1 - p)) = 40.5.
        let expect = 0.09 * f64::from(n);
        assert!(
            (f64::from(drops) - expect).abs() < 4.0 * 40.5,
            "{drops} vs {expect}"
        );
    }

    // ns-2.35 (`queue/red.cc`, `ns-default.tcl`), worked by hand.

    fn ns2_packets() -> RedConfig {
        // w_q = 1: the average is the queue the arrival sees, so each case sets it directly.
        RedConfig {
            w_q: 1.0,
            ns2: true,
            ecn: true,
            ..RedConfig::default()
        }
    }

    #[test]
    fn ns2_35_configures_itself_from_the_link() {
        // 10 Mbit/s: ptc = 1e7 / 4000 = 2500 packets a second; targetdelay x ptc / 2 = 6.25
        // packets, above 5; max 18.75 packets; in bytes of 500: 3125 and 9375. rtt = 3 (20 ms
        // + 0.4 ms) = 61.2 ms, raised to 0.1 s: w_q = 1 - exp(-1 / (10 x 0.1 x 2500)).
        let c = RedConfig::ns2_35(Rate(10_000_000), ccsim_core::Dur::from_millis(20));
        assert_eq!((c.min_th, c.max_th), (3125.0, 9375.0));
        assert!(
            (c.w_q - (1.0 - (-0.0004_f64).exp())).abs() < 1e-15,
            "{}",
            c.w_q
        );
        assert!(c.bytes && c.gentle && c.ns2 && !c.ecn);
        assert_eq!((c.max_p, c.mark_p, c.mean_packet_size), (0.1, 0.1, 500));
        // 1 Mbit/s: 250 packets a second, targetdelay x ptc / 2 = 0.625: the 5-packet floor;
        // rtt = 3 (0.3 s + 4 ms) = 0.912 s: w_q = 1 - exp(-1 / (10 x 0.912 x 250)).
        let c = RedConfig::ns2_35(Rate(1_000_000), ccsim_core::Dur::from_millis(300));
        assert_eq!((c.min_th, c.max_th), (2500.0, 7500.0));
        assert!(
            (c.w_q - (1.0 - (-1.0 / 2280.0_f64).exp())).abs() < 1e-15,
            "{}",
            c.w_q
        );
    }

    #[test]
    fn ns2_waits_count_p_of_one_before_the_first_drop_and_drops_by_two() {
        // avg 10 between 5 and 15: p_b = 0.1 x (10 - 5) / 10 = 0.05. The first arrival above
        // min_th restarts the count at 1; with wait_ the probability is 0 while count p_b < 1
        // (count < 20), p_b / (2 - count p_b) up to count 39, where it is 1.
        let mut rng = RngStream::new(1, "ns2-wait");
        for trial in 0..200 {
            let mut r = red(ns2_packets());
            assert_eq!(
                r.on_arrival(10, 1000, false, 0, true, &mut rng),
                RedDecision::Enqueue
            );
            assert_eq!(r.count(), 1, "the crossing restarts the count");
            let mut dropped_at = None;
            for n in 2..=39 {
                if r.on_arrival(10, 1000, false, 0, true, &mut rng) != RedDecision::Enqueue {
                    dropped_at = Some(n);
                    break;
                }
            }
            let n = dropped_at.unwrap_or_else(|| panic!("trial {trial}: no drop by count 39"));
            assert!(
                (20..=39).contains(&n),
                "trial {trial}: dropped at count {n}"
            );
            assert_eq!(r.count(), 0);
        }
    }

    #[test]
    fn ns2_marks_only_below_mark_p_and_never_forces_on_the_average() {
        let mut rng = RngStream::new(2, "ns2-mark");
        // avg 20, gentle region: p_b = 0.9 / 15 x 20 - 0.8 = 0.4, above mark_p (0.1): a
        // selected ECN-capable packet is dropped, not marked.
        let mut r = red(ns2_packets());
        r.on_arrival(20, 1000, true, 0, true, &mut rng);
        let mut seen = Vec::new();
        for _ in 0..20 {
            seen.push(r.on_arrival(20, 1000, true, 0, true, &mut rng));
        }
        assert!(
            seen.contains(&RedDecision::EarlyDrop) && !seen.contains(&RedDecision::Mark),
            "{seen:?}"
        );
        // avg 12: p_b = 0.07 <= mark_p: marked.
        let mut r = red(ns2_packets());
        r.on_arrival(12, 1000, true, 0, true, &mut rng);
        let marks = (0..60)
            .map(|_| r.on_arrival(12, 1000, true, 0, true, &mut rng))
            .filter(|d| *d == RedDecision::Mark)
            .count();
        assert!(marks >= 1);
        // avg 40, past 2 max_th: probability 1, an early drop, never a forced one.
        let mut r = red(ns2_packets());
        r.on_arrival(40, 1000, false, 0, true, &mut rng);
        assert_eq!(
            r.on_arrival(40, 1000, false, 0, true, &mut rng),
            RedDecision::EarlyDrop
        );
    }

    #[test]
    fn ns2_spares_a_queue_of_one_and_restarts_the_count_after_a_full_buffer() {
        let mut rng = RngStream::new(3, "ns2-small");
        let slow = RedConfig {
            w_q: 0.5,
            ..ns2_packets()
        };
        let mut r = red(slow);
        for _ in 0..10 {
            r.on_arrival(40, 1000, false, 0, true, &mut rng);
        }
        // The average is far above 2 max_th, but one packet waiting: no drop, and the next
        // arrival above min_th restarts the count instead of dropping.
        assert_eq!(
            r.on_arrival(1, 1000, false, 0, true, &mut rng),
            RedDecision::Enqueue
        );
        assert_eq!(
            r.on_arrival(40, 1000, false, 0, true, &mut rng),
            RedDecision::Enqueue
        );
        assert_eq!(r.count(), 1);
        // A drop by the physical limit restarts the count.
        r.on_arrival(40, 1000, false, 0, false, &mut rng);
        assert_eq!(r.count(), 0);
    }

    #[test]
    fn ns2_byte_mode_counts_whole_mean_packets_then_scales_by_size() {
        // Byte mode, mean 500 B, avg 10 packets (5000 B): p_b = 0.05. 40-byte packets add
        // 40 B each: count1 = count_bytes / 500 reaches 20 (p_b count1 = 1) only after
        // 10 000 B, 250 packets; until then nothing is dropped.
        let mut rng = RngStream::new(4, "ns2-bytes");
        let c = RedConfig {
            w_q: 1.0,
            ns2: true,
            ..RedConfig::default()
        }
        .in_bytes();
        let mut r = red(c);
        r.on_arrival(5000, 40, false, 0, true, &mut rng);
        for n in 2..250 {
            assert_eq!(
                r.on_arrival(5000, 40, false, 0, true, &mut rng),
                RedDecision::Enqueue,
                "{n}"
            );
        }
    }
}
