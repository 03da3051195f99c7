//! DualPI2, the DualQ Coupled AQM of RFC 9332 ("DualQ Coupled AQMs for Low Latency, Low Loss,
//! and Scalable Throughput (L4S)"), as Linux implements it in `net/sched/sch_dualpi2.c`
//! (merged for Linux 6.17), with Linux's defaults and option names (`tc-dualpi2(8)`).
//!
//! Two FIFOs share one link (RFC 9332 section 2.4): the L queue takes the packets whose ECN
//! field carries the L4S identifier (ECT(1) or CE, RFC 9331 section 4; Linux `l4s_ect`; with
//! `any_ect` also ECT(0)), the C queue everything else. One PI controller (RFC 9332 appendix
//! A.1, the base AQM) computes the probability `p'` every `tupdate` from the queue delay, the
//! larger of the two head packets' sojourn times (Linux `calculate_probability`):
//!
//! ```text
//! p' += alpha (qdelay - target) + beta (qdelay - qdelay_prev)      (clamped to [0, 1])
//! p_C  = p'^2          classic drop (Not-ECT) or mark (ECT) in the C queue (section 2.4)
//! p_CL = k p'          coupled marking of the L queue (section 2.4, equation (1))
//! p_L  = max(p_CL, step)  the L queue's native step AQM: mark when the packet's sojourn
//!                      exceeds step_thresh (appendix A.1, lines on the L queue)
//! ```
//!
//! Every decision is taken as Linux's defaults take it: at dequeue (`drop_dequeue`), never
//! while fewer than two MTUs wait (the `must_drop` guard); once `k p'` exceeds 1 the AQM is
//! overloaded (RFC 9332 section 4.2.3) and ECN-capable packets of either queue are dropped
//! with `p_C` instead of marked (`drop_on_overload`; with `overflow` the probability is capped
//! at `1/k` and the queues grow to the limit instead). The scheduler between the queues is
//! Linux's weighted round robin on bytes with `classic_protection` (10 %) for the C queue
//! (RFC 9332 section 4.2.2, "time-shifted FIFO or WRR": Linux uses WRR).
//!
//! Probabilities are Linux's: 32-bit integers (`MAX_PROB = 2^32 - 1` is 1), `alpha` and
//! `beta` in tc's units of 1/256 Hz scaled as `dualpi2_scale_alpha_beta`, the update divided
//! by 64 as `__scale_delta`, a random test `u32 <= p` as `dualpi2_roll`, and `p_C` as two
//! independent tests of `p'`. All integer arithmetic: bit-identical everywhere.
//!
//! The PI update is not a timer event. Its instants are `n tupdate` after the link's creation
//! (Linux arms its timer `tupdate` after `dualpi2_init` and re-arms it `tupdate` later on each
//! expiry); the queues change only when a packet is enqueued or dequeued, so before each such
//! change [`DualPi2::advance`] applies every update whose instant has come, computing the
//! queue delay at that instant from the head packets' enqueue times, exactly as a timer would
//! have seen them.
//!
//! * CHOICE: an update due at the same nanosecond as a packet event is applied before it (the
//!   timer fires first).
//! * CHOICE: the MTU of the two-MTU guard and of the WRR credit is 1500 bytes (Linux takes
//!   `psched_mtu`, the device MTU plus its link-layer header: 1514 on Ethernet; ccsim's
//!   packet sizes have no link-layer header).
//! * CHOICE: `alpha` and `beta` are written in Hz and converted to tc's 1/256 Hz to the
//!   nearest unit (0.16 Hz gives Linux's default 41, 3.2 Hz its 819).
//! * CHOICE: an empty queue contributes a delay of 0 (Linux marks an empty queue by a zero
//!   head timestamp; here emptiness is tested directly, so a packet enqueued at time 0
//!   counts).
//! * CHOICE: a mark is counted only when it changes ECT(0) or ECT(1) to CE, as Linux's
//!   `dualpi2_mark` counts only a successful `INET_ECN_set_ce`; a CE packet stays CE and is
//!   not counted again.
//! * CHOICE: a packet that finds the link idle goes straight into service, as on every ccsim
//!   link; Linux would enqueue and dequeue it at once, and its decisions there are void (no
//!   backlog for the two-MTU guard, a sojourn of 0 for the step), so nothing differs. Its
//!   sojourn time, 0, counts in its queue's statistics.
//! * CHOICE: the step compares strictly (`sojourn > step_thresh`), as Linux's `do_step_aqm`;
//!   RFC 9332 appendix A.1 writes `>=` in some lines; the difference is one nanosecond.
//! * CHOICE: the queue delay difference in the update is computed in 128 bits, where Linux's
//!   64 bits would overflow for delays above about 4 seconds at the largest gains.
//! * CHOICE: Linux's `memory_limit` and `split_gso` have no counterpart (ccsim packets are
//!   single segments without socket-buffer overhead); the `limit` counts the waiting packets
//!   of both queues, not the one being sent, as every ccsim limit.

use std::collections::VecDeque;

use ccsim_core::{Ecn, RngStream};

/// Probability 1 in Linux's fixed point.
pub const MAX_PROB: u32 = u32::MAX;
/// The MTU of the two-MTU guard and the WRR credit, bytes (see the module's CHOICE).
pub const MTU: u64 = 1500;
/// tc's alpha and beta unit: 1/256 Hz (Linux `ALPHA_BETA_SHIFT`).
const ALPHA_BETA_SHIFT: u32 = 8;
/// Linux's internal alpha and beta unit (`ALPHA_BETA_GRANULARITY`).
const ALPHA_BETA_GRANULARITY: u32 = 6;
/// Largest tc value of alpha or beta (Linux `ALPHA_BETA_MAX`).
pub const ALPHA_BETA_MAX: u32 = (1 << 31) - 1;

/// Which ECN codepoints the L queue takes (Linux `ecn_mask`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum L4sClass {
    /// ECT(1) and CE (`l4s_ect`, the default; RFC 9331 section 4).
    #[default]
    L4sEct,
    /// Any ECN-capable packet: ECT(0), ECT(1) and CE (`any_ect`).
    AnyEct,
}

/// The step threshold of the L queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepThresh {
    /// Sojourn time, ns (Linux's default, 1 ms).
    Time(u64),
    /// Packets left in the L queue behind the departing one (tc `step_thresh Np`).
    Packets(u64),
}

/// A DualPI2 queue's settings, Linux's names; [`Default`] is Linux's `dualpi2_reset_default`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DualPi2Config {
    /// PI target queue delay, ns (`target`, 15 ms).
    pub target: u64,
    /// PI update interval, ns (`tupdate`, 16 ms).
    pub tupdate: u64,
    /// Integral gain in tc's 1/256 Hz (`alpha`, 41: 0.16 Hz).
    pub alpha: u32,
    /// Proportional gain in tc's 1/256 Hz (`beta`, 819: 3.2 Hz).
    pub beta: u32,
    /// The L queue's step (`step_thresh`, 1 ms).
    pub step_thresh: StepThresh,
    /// The step applies to a packet only if at least this many packets were in the L queue
    /// when it arrived (`min_qlen_step`, 0).
    pub min_qlen_step: u64,
    /// k, `p_CL = k p'` (`coupling_factor`, 2).
    pub coupling_factor: u8,
    /// The C queue's WRR weight, percent (`classic_protection`, 10).
    pub classic_protection: u8,
    /// Classification (`l4s_ect`).
    pub class: L4sClass,
    /// On overload drop with `p_C` (`drop_on_overload`, true) or cap the probability and let
    /// the queues overflow (`overflow`).
    pub drop_on_overload: bool,
    /// Decide at enqueue (`drop_enqueue`) instead of at dequeue (`drop_dequeue`, false).
    pub drop_enqueue: bool,
}

impl Default for DualPi2Config {
    fn default() -> Self {
        DualPi2Config {
            target: 15_000_000,
            tupdate: 16_000_000,
            alpha: 41,
            beta: 819,
            step_thresh: StepThresh::Time(1_000_000),
            min_qlen_step: 0,
            coupling_factor: 2,
            classic_protection: 10,
            class: L4sClass::L4sEct,
            drop_on_overload: true,
            drop_enqueue: false,
        }
    }
}

/// A field of [`DualPi2Config`] out of range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DualPi2ConfigError {
    /// The field's name.
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
}

impl DualPi2Config {
    /// Linux's ranges (its netlink policy): `tupdate` > 0, alpha and beta in
    /// [1, 2^31 - 1] (tc units), `coupling_factor` >= 1, `classic_protection` <= 100.
    ///
    /// # Errors
    /// The first field out of range.
    pub fn validate(&self) -> Result<(), DualPi2ConfigError> {
        let e = |field, message| Err(DualPi2ConfigError { field, message });
        if self.tupdate == 0 {
            return e("tupdate", "must be positive, found 0".into());
        }
        for (field, v) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(1..=ALPHA_BETA_MAX).contains(&v) {
                return e(
                    field,
                    format!(
                        "must be between 1/256 Hz and {} Hz, found {}/256 Hz",
                        ALPHA_BETA_MAX / 256,
                        v
                    ),
                );
            }
        }
        if self.coupling_factor == 0 {
            return e("coupling_factor", "must be at least 1, found 0".into());
        }
        if self.classic_protection > 100 {
            return e(
                "classic_protection",
                format!(
                    "must be a percentage in [0, 100], found {}",
                    self.classic_protection
                ),
            );
        }
        Ok(())
    }
}

/// Linux's `dualpi2_scale_alpha_beta`: tc's 1/256 Hz to probability units per 64 ns of
/// delay.
#[must_use]
pub fn scale_alpha_beta(param: u32) -> u64 {
    ((u64::from(param) * u64::from(MAX_PROB)) >> (ALPHA_BETA_SHIFT - ALPHA_BETA_GRANULARITY))
        / 1_000_000_000
}

/// Which queue a packet is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Queue {
    /// The low-latency (L4S) queue.
    L,
    /// The classic queue.
    C,
}

/// A waiting packet.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Pool index.
    pub idx: u32,
    /// Bytes.
    pub size: u32,
    /// Enqueue time, ns.
    pub ts: u64,
    /// ECN field (kept up to date with marks).
    pub ecn: Ecn,
    /// Whether the step may mark it (`apply_step`).
    pub apply_step: bool,
}

/// What the AQM did to a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Nothing.
    Pass,
    /// Set CE (ECT to CE: counted).
    Mark,
    /// Drop.
    Drop,
}

/// Sojourn times of the packets one queue sent: count, sum and a log-linear histogram
/// (64 buckets per octave), in nanoseconds.
pub type Sojourn = ccsim_core::LogHistogram;

/// A DualPI2 queue's counters, marks and drops by cause (Linux's `step_marks` and
/// `ecn_mark` split by queue) and sojourn times by queue.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DualPi2Stats {
    /// Packets classified into the L queue (Linux `packets_in_l`), those sent straight into
    /// service included.
    pub packets_in_l: u64,
    /// Packets classified into the C queue (`packets_in_c`).
    pub packets_in_c: u64,
    /// L packets marked by the step.
    pub l_step_marks: u64,
    /// L packets marked by the coupled probability `k p'` (and, on overload, the L packets
    /// the `p_C` test spared).
    pub l_coupled_marks: u64,
    /// ECT packets of the C queue marked with `p_C`.
    pub c_marks: u64,
    /// L packets dropped (overload with `drop_on_overload`).
    pub l_drops: u64,
    /// C packets dropped with `p_C` (Not-ECT, and ECT on overload).
    pub c_drops: u64,
    /// Sojourn times of the L queue's packets that were sent.
    pub l_sojourn: Sojourn,
    /// Sojourn times of the C queue's packets that were sent.
    pub c_sojourn: Sojourn,
}

impl DualPi2Stats {
    /// These counters less `earlier`'s (a window's).
    #[must_use]
    pub fn since(&self, e: &DualPi2Stats) -> DualPi2Stats {
        DualPi2Stats {
            packets_in_l: self.packets_in_l - e.packets_in_l,
            packets_in_c: self.packets_in_c - e.packets_in_c,
            l_step_marks: self.l_step_marks - e.l_step_marks,
            l_coupled_marks: self.l_coupled_marks - e.l_coupled_marks,
            c_marks: self.c_marks - e.c_marks,
            l_drops: self.l_drops - e.l_drops,
            c_drops: self.c_drops - e.c_drops,
            l_sojourn: self.l_sojourn.since(&e.l_sojourn),
            c_sojourn: self.c_sojourn.since(&e.c_sojourn),
        }
    }
}

/// The DualPI2 state machine: the two queues, the PI2 controller and the WRR scheduler.
#[derive(Clone, Debug)]
pub struct DualPi2 {
    config: DualPi2Config,
    alpha: i128,
    beta: i128,
    /// p' (Linux `pi2_prob`).
    prob: u32,
    /// The queue delay at the last update (`last_qdelay`), ns.
    last_qdelay: u64,
    /// The next update's instant, ns.
    next_update: u64,
    /// WRR credit (`c_protection_credit`): the L queue is served while it is <= 0.
    credit: i64,
    credit_init: i64,
    l: VecDeque<Entry>,
    c: VecDeque<Entry>,
    /// Bytes waiting in both queues (`qstats.backlog`).
    backlog: u64,
    /// Counters.
    pub stats: DualPi2Stats,
}

impl DualPi2 {
    /// A new, empty DualPI2 created at `now`: its first update is due at `now + tupdate`.
    #[must_use]
    pub fn new(config: DualPi2Config, now: u64) -> Self {
        let wc = i64::from(config.classic_protection);
        let credit_init = MTU as i64 * (wc - (100 - wc));
        DualPi2 {
            config,
            alpha: i128::from(scale_alpha_beta(config.alpha)),
            beta: i128::from(scale_alpha_beta(config.beta)),
            prob: 0,
            last_qdelay: 0,
            next_update: now.saturating_add(config.tupdate),
            credit: credit_init,
            credit_init,
            l: VecDeque::new(),
            c: VecDeque::new(),
            backlog: 0,
            stats: DualPi2Stats::default(),
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &DualPi2Config {
        &self.config
    }

    /// p', in Linux's fixed point ([`MAX_PROB`] is 1).
    #[must_use]
    pub fn prob(&self) -> u32 {
        self.prob
    }

    /// p' as a probability.
    #[must_use]
    pub fn base_probability(&self) -> f64 {
        f64::from(self.prob) / f64::from(MAX_PROB)
    }

    /// Packets waiting in both queues.
    #[must_use]
    pub fn len(&self) -> usize {
        self.l.len() + self.c.len()
    }

    /// Whether both queues are empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.l.is_empty() && self.c.is_empty()
    }

    /// Packets waiting in the L queue and in the C queue.
    #[must_use]
    pub fn lens(&self) -> (usize, usize) {
        (self.l.len(), self.c.len())
    }

    /// Bytes waiting in both queues.
    #[must_use]
    pub fn backlog(&self) -> u64 {
        self.backlog
    }

    /// The waiting packets' pool indices, L queue first.
    pub fn indices(&self) -> impl Iterator<Item = u32> + '_ {
        self.l.iter().chain(self.c.iter()).map(|e| e.idx)
    }

    /// The queue a packet with this ECN field joins.
    #[must_use]
    pub fn classify(&self, ecn: Ecn) -> Queue {
        match (ecn, self.config.class) {
            (Ecn::Ect1 | Ecn::Ce, _) | (Ecn::Ect, L4sClass::AnyEct) => Queue::L,
            _ => Queue::C,
        }
    }

    /// The queue delay (the larger head sojourn time of the two queues) at `t`, ns.
    fn qdelay_at(&self, t: u64) -> u64 {
        let head = |q: &VecDeque<Entry>| q.front().map_or(0, |e| t.saturating_sub(e.ts));
        head(&self.l).max(head(&self.c))
    }

    /// `n` PI updates with both queues empty and the last queue delay 0: each adds the same
    /// `alpha (0 - target)` (the beta term is 0), clamped as one update is.
    fn idle_updates(&mut self, n: u64) {
        let delta = -i128::from(self.config.target) * self.alpha;
        let step = (delta.unsigned_abs() >> ALPHA_BETA_GRANULARITY).saturating_mul(u128::from(n));
        self.move_prob(delta > 0, step);
    }

    /// p' moved up or down by `step`, within [0, 1] (and under 1/k when L packets are never
    /// dropped on overload).
    fn move_prob(&mut self, up: bool, step: u128) {
        let p = u128::from(self.prob);
        let new = if up {
            (p + step).min(u128::from(MAX_PROB))
        } else {
            p.saturating_sub(step)
        };
        let mut new = u32::try_from(new).unwrap_or(MAX_PROB);
        if !self.config.drop_on_overload {
            new = new.min(MAX_PROB / u32::from(self.config.coupling_factor));
        }
        self.prob = new;
    }

    /// One PI update at instant `t` (Linux `calculate_probability`; RFC 9332 appendix A.1).
    fn update(&mut self, t: u64) {
        let qdelay = self.qdelay_at(t);
        let delta = (i128::from(qdelay) - i128::from(self.config.target)) * self.alpha
            + (i128::from(qdelay) - i128::from(self.last_qdelay)) * self.beta;
        self.last_qdelay = qdelay;
        self.move_prob(delta > 0, delta.unsigned_abs() >> ALPHA_BETA_GRANULARITY);
    }

    /// Apply every PI update due at or before `now`. Call before the queues change.
    ///
    /// While both queues are empty every update after the first sees a queue delay of 0 and
    /// changes p' by the same step, so those are applied together: the work stays bounded by
    /// the packets, not by the idle time over `tupdate`.
    pub fn advance(&mut self, now: u64) {
        while self.next_update <= now {
            if self.is_empty() && self.last_qdelay == 0 {
                let n = (now - self.next_update) / self.config.tupdate + 1;
                self.idle_updates(n);
                self.next_update = self
                    .next_update
                    .saturating_add(n.saturating_mul(self.config.tupdate));
                break;
            }
            let t = self.next_update;
            self.update(t);
            self.next_update = t.saturating_add(self.config.tupdate);
            if self.next_update == u64::MAX {
                break;
            }
        }
    }

    fn roll(rng: &mut RngStream, p: u64) -> bool {
        // Linux `dualpi2_roll`: a uniform u32 at most p.
        (rng.next_u64() >> 32) <= p
    }

    /// Linux `must_drop`: the PI2 decision on a packet of queue `q` with ECN field `ecn`,
    /// with `backlog` bytes waiting (the packet itself excluded at dequeue).
    fn decide(&mut self, q: Queue, ecn: Ecn, rng: &mut RngStream) -> Action {
        if self.backlog < 2 * MTU {
            return Action::Pass;
        }
        let prob = u64::from(self.prob);
        let l_prob = prob * u64::from(self.config.coupling_factor);
        let overload = l_prob > u64::from(MAX_PROB);
        let ect = ecn != Ecn::NotEct;
        match q {
            Queue::C => {
                // p_C = p'^2: two independent tests (RFC 9332 section 2.4).
                if Self::roll(rng, prob) && Self::roll(rng, prob) {
                    if overload || !ect {
                        self.stats.c_drops += 1;
                        return Action::Drop;
                    }
                    return self.mark(ecn, Queue::C, false);
                }
                Action::Pass
            }
            Queue::L => {
                if overload {
                    // RFC 9332 section 4.2.3: drop with p_C, mark the rest.
                    if self.config.drop_on_overload
                        && Self::roll(rng, prob)
                        && Self::roll(rng, prob)
                    {
                        self.stats.l_drops += 1;
                        return Action::Drop;
                    }
                    return self.mark(ecn, Queue::L, false);
                }
                if Self::roll(rng, l_prob) {
                    if !ect {
                        self.stats.l_drops += 1;
                        return Action::Drop;
                    }
                    return self.mark(ecn, Queue::L, false);
                }
                Action::Pass
            }
        }
    }

    fn mark(&mut self, ecn: Ecn, q: Queue, step: bool) -> Action {
        if !matches!(ecn, Ecn::Ect | Ecn::Ect1) {
            return Action::Pass;
        }
        match (q, step) {
            (Queue::C, _) => self.stats.c_marks += 1,
            (Queue::L, true) => self.stats.l_step_marks += 1,
            (Queue::L, false) => self.stats.l_coupled_marks += 1,
        }
        Action::Mark
    }

    /// A packet that finds the link idle and goes straight into service: counted in its
    /// queue, sojourn 0, no decision (see the module's CHOICE).
    pub fn bypass(&mut self, ecn: Ecn) {
        match self.classify(ecn) {
            Queue::L => {
                self.stats.packets_in_l += 1;
                self.stats.l_sojourn.record(0);
            }
            Queue::C => {
                self.stats.packets_in_c += 1;
                self.stats.c_sojourn.record(0);
            }
        }
    }

    /// Enqueue a packet at `now` (the caller has applied the limit and [`DualPi2::advance`]d).
    /// With `drop_enqueue` the PI2 decision is taken here: returns [`Action::Drop`] (the
    /// packet is not enqueued), [`Action::Mark`] (enqueued as CE) or [`Action::Pass`].
    pub fn enqueue(
        &mut self,
        idx: u32,
        size: u32,
        ecn: Ecn,
        now: u64,
        rng: &mut RngStream,
    ) -> Action {
        let q = self.classify(ecn);
        let mut action = Action::Pass;
        let mut ecn = ecn;
        if self.config.drop_enqueue {
            action = self.decide(q, ecn, rng);
            match action {
                Action::Drop => return action,
                Action::Mark => ecn = Ecn::Ce,
                Action::Pass => {}
            }
        }
        let mut e = Entry {
            idx,
            size,
            ts: now,
            ecn,
            apply_step: false,
        };
        self.backlog += u64::from(size);
        match q {
            Queue::L => {
                e.apply_step = self.l.len() as u64 >= self.config.min_qlen_step;
                self.stats.packets_in_l += 1;
                self.l.push_back(e);
            }
            Queue::C => {
                self.stats.packets_in_c += 1;
                self.c.push_back(e);
            }
        }
        action
    }

    /// Linux `dequeue_packet`: the WRR's next packet and the credit change it brings if
    /// sent; resets the credit when both queues are empty.
    fn pick(&mut self) -> Option<(Queue, Entry, i64)> {
        let (l_len, c_len) = (self.l.len(), self.c.len());
        let (q, e, change) = if l_len > 0 && (c_len == 0 || self.credit <= 0) {
            let e = self.l.pop_front()?;
            let wc = if c_len > 0 {
                i64::from(self.config.classic_protection)
            } else {
                0
            };
            (Queue::L, e, wc * i64::from(e.size))
        } else if c_len > 0 {
            let e = self.c.pop_front()?;
            let wl = if l_len > 0 {
                100 - i64::from(self.config.classic_protection)
            } else {
                0
            };
            (Queue::C, e, -wl * i64::from(e.size))
        } else {
            self.credit = self.credit_init;
            return None;
        };
        self.backlog -= u64::from(e.size);
        Some((q, e, change))
    }

    /// The next packet out at `now` (the caller has [`DualPi2::advance`]d), Linux
    /// `dualpi2_qdisc_dequeue`: `Some((entry, queue, Action::Drop))` for a packet dropped on
    /// the way (call again), `Some((entry, queue, Pass | Mark))` for the packet to send (its
    /// `ecn` is CE if marked here), `None` when both queues are empty.
    pub fn dequeue(&mut self, now: u64, rng: &mut RngStream) -> Option<(Entry, Queue, Action)> {
        let (q, mut e, change) = self.pick()?;
        let mut action = Action::Pass;
        if !self.config.drop_enqueue {
            action = self.decide(q, e.ecn, rng);
            match action {
                Action::Drop => return Some((e, q, Action::Drop)),
                Action::Mark => e.ecn = Ecn::Ce,
                Action::Pass => {}
            }
        }
        let sojourn = now.saturating_sub(e.ts);
        if q == Queue::L {
            // The step (Linux `do_step_aqm`; RFC 9332 appendix A.1).
            let over = match self.config.step_thresh {
                StepThresh::Time(t) => sojourn > t,
                StepThresh::Packets(n) => self.l.len() as u64 > n,
            };
            if e.apply_step && over {
                if e.ecn == Ecn::NotEct {
                    self.stats.l_drops += 1;
                    return Some((e, q, Action::Drop));
                }
                if self.mark(e.ecn, Queue::L, true) == Action::Mark {
                    e.ecn = Ecn::Ce;
                    action = Action::Mark;
                }
            }
            self.stats.l_sojourn.record(sojourn);
        } else {
            self.stats.c_sojourn.record(sojourn);
        }
        self.credit += change;
        Some((e, q, action))
    }

    /// Remove every waiting packet (the link went down), after [`DualPi2::advance`].
    pub fn drain(&mut self) -> Vec<u32> {
        let out: Vec<u32> = self.indices().collect();
        self.l.clear();
        self.c.clear();
        self.backlog = 0;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linux_scaled_gains() {
        // 41 * (2^32 - 1) / 4 / 1e9 = 44.02; 819 * ... = 879.43.
        assert_eq!(scale_alpha_beta(41), 44);
        assert_eq!(scale_alpha_beta(819), 879);
    }

    /// Updates over an idle gap applied together equal the same updates one at a time, and a
    /// gap of a million seconds at a 1 us `tupdate` costs no more than one update.
    #[test]
    fn idle_updates_at_once_equal_one_at_a_time() {
        let config = DualPi2Config::default();
        let mut one = DualPi2::new(config, 0);
        one.prob = MAX_PROB / 3;
        let mut all = one.clone();
        let tupdate = config.tupdate;
        for k in 1..=5000 {
            one.update(k * tupdate);
        }
        all.advance(5000 * tupdate + tupdate / 2);
        assert_eq!(one.prob, all.prob);
        assert_eq!(all.next_update, 5001 * tupdate);
        assert!(
            one.prob < MAX_PROB / 3,
            "p' falls while the queues are empty"
        );
        let fast = DualPi2Config {
            tupdate: 1_000,
            ..config
        };
        let mut idle = DualPi2::new(fast, 0);
        idle.prob = MAX_PROB;
        idle.advance(1_000_000 * 1_000_000_000);
        assert_eq!(idle.prob, 0);
        assert_eq!(idle.next_update, 1_000_000 * 1_000_000_000 + 1_000);
    }
}
