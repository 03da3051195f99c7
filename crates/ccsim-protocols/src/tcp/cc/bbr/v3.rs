//! BBR v3 as Google's Linux branch runs it: `net/ipv4/tcp_bbr.c` of github.com/google/bbr,
//! branch `v3` (BBR_VERSION 3; Cardwell, Cheng, Yang, Morley, Hassas Yeganeh, Jha, Seung,
//! Jacobson, Swett, Wu, Vasiliev; IETF 117 ccwg slides "BBRv3: Algorithm Bug Fixes and Public
//! Internet Deployment"), and draft-ietf-ccwg-bbr (the IETF description of the same
//! algorithm, used here for names and its "Example Test Cases" appendix).
//!
//! What changes from v1 ([`super`]):
//! - STARTUP paces at 4 ln 2 = 2.77 and keeps a window of twice the BDP; it ends on a
//!   bandwidth plateau (three rounds without 25 % growth of the round's own sample), on a
//!   round in recovery with at least six loss events and a loss rate above 2 %, or on two
//!   rounds whose CE fraction is at least 50 %.
//! - PROBE_BW is four phases instead of an eight-phase gain cycle: DOWN (gain 0.91, until
//!   what is in flight leaves 15 % headroom below `inflight_hi` and is at most one BDP),
//!   CRUISE (gain 1), REFILL (gain 1 for one round, with the lower bounds reset) and UP
//!   (gain 1.25, cwnd gain 2.25, raising `inflight_hi` by an exponentially growing slope).
//!   The next probe starts after a wall-clock wait drawn in [2 s, 3 s), or after
//!   min(63, BDP) packet-timed rounds (Reno coexistence), whichever comes first.
//! - The bandwidth estimate is the larger of two per-cycle maxima (`bw_hi[2]`), bounded
//!   by `bw_lo`; the window is bounded by `inflight_hi` (the long-term volume at which loss
//!   exceeded 2 % or the CE fraction 50 %: cut to max(tx_in_flight, 0.7 x target inflight))
//!   and by `inflight_lo` (short term: on a round with loss, 0.7 x, never below the latest
//!   round's delivery; on a round with CE marks, 1 - alpha/3 with alpha the EWMA (gain 1/16)
//!   of the per-round CE fraction).
//! - PROBE_RTT is entered when the RTT has not been at its minimum for 5 s (the min_rtt
//!   estimate itself still spans 10 s) and holds the window at half the BDP (at least four
//!   packets) for 200 ms and a round.
//! - ECN is used only where Linux's `bbr_can_use_ecn` holds (the flow negotiated ECN,
//!   `ecn = true`, with per-segment CE echo, Linux's `TCP_ECN_LOW`) and the min_rtt is at
//!   most 5 ms (`bbr_ecn_max_rtt_us`, the `ecn_eligible` rule).
//! - No packet conservation in recovery; the window saved at a congestion event is restored
//!   when a timeout's recovery ends, and a timeout bounds `inflight_lo` by that window.
//!
//! The arithmetic is Linux's, as for v1: bandwidth in packets per microsecond scaled by 2^24
//! (samples rounded up), gains and fractions in 256ths, the two min-RTT windows and
//! PROBE_RTT's 200 ms in milliseconds (jiffies at HZ = 1000), the probe wait in
//! microseconds; the bounds are 32-bit with `u32::MAX` for "none".
//!
//! CHOICE: the per-segment loss hook (`skb_marked_lost`: the loss-rate check on each lost
//! segment's own send state, and `bbr_inflight_hi_from_lost_skb`'s prefix) is not ported:
//! the sender has no per-segment loss callback. Loss is noted at the ACK that marked it
//! (rounds and cycles flagged as Linux's `bbr_note_loss` does) and the 2 % check runs on each
//! ACK's sample, as `bbr_adapt_upper_bounds` also does in Linux.
//! CHOICE: an ACK carries ECE (`rs->is_ece`) when it added CE-marked deliveries.
//! CHOICE: no Protective Load Balancing (the simulator has one path per flow), no undo of a
//! spurious recovery (the sender never undoes), no TLP-repaired-loss event
//! (`CA_EVENT_TLP_RECOVERY`: the sender does not signal it), no idle restart (as v1).
//! CHOICE: min_rtt and its 5 s companion start empty, as v1 here (Linux seeds them from
//! `tcp_min_rtt`, which the handshake may have set).
//! CHOICE: the two random draws of each PROBE_DOWN (rounds, then microseconds) come from the
//! flow's random stream, in Linux's order.
//! CHOICE: `ilog2(0)`, undefined in Linux, is taken as 0 for the ECN re-probe slope.

use ccsim_core::RngStream;

use super::{
    after, Bbr, BbrMode, CaState, Conn, Control, RateSample, Tp, Window, BBR_SCALE, BW_UNIT,
    CWND_GAIN, CWND_MIN_TARGET, DRAIN_GAIN, EXTRA_ACKED_MAX_US, EXTRA_ACKED_WIN_RTTS, FULL_BW_CNT,
    FULL_BW_THRESH, MIN_RTT_WIN_MS, PACING_SHIFT, PROBE_RTT_MODE_MS, TSO_MAX_BYTES, UNIT,
};

/// "None" for the 32-bit bounds (`~0U`).
const INF: u64 = u32::MAX as u64;
/// 4 ln 2: the smallest gain that doubles the delivery rate each round as slow start does.
pub(super) const STARTUP_PACING_GAIN: u32 = UNIT * 277 / 100 + 1;
const STARTUP_CWND_GAIN: u32 = UNIT * 2;
/// PROBE_BW's pacing gains, by phase (Linux's `cycle_idx` order: UP, DOWN, CRUISE, REFILL).
const PROBE_GAIN: [u32; 4] = [UNIT * 5 / 4, UNIT * 91 / 100, UNIT, UNIT];
const UP: usize = 0;
const DOWN: usize = 1;
const CRUISE: usize = 2;
const REFILL: usize = 3;
/// The cwnd gain added in PROBE_UP, in quarters of a unit.
const BW_PROBE_CWND_GAIN: u32 = 1;
/// PROBE_RTT is due when the RTT has not been at its 5 s minimum for this long.
const PROBE_RTT_WIN_MS: u32 = 5000;
const PROBE_RTT_CWND_GAIN: u32 = UNIT / 2;
/// The min_rtt-based TSO allowance halves every 2^9 us of min_rtt.
const TSO_RTT_SHIFT: u32 = 9;
const GSO_LEGACY_MAX_SIZE: u64 = 65_536;
/// `sysctl_tcp_min_tso_segs`.
const MIN_TSO_SEGS: u64 = 2;
const ECN_MAX_RTT_US: u32 = 5000;
/// Loss response: bounds cut to 1 - beta = 0.7.
const BETA: u64 = (UNIT * 30 / 100) as u64;
const ECN_ALPHA_GAIN: u64 = (UNIT / 16) as u64;
const ECN_ALPHA_INIT: u64 = UNIT as u64;
const ECN_FACTOR: u64 = (UNIT / 3) as u64;
const ECN_THRESH: u64 = (UNIT / 2) as u64;
const ECN_REPROBE_GAIN: u64 = (UNIT / 2) as u64;
const LOSS_THRESH: u64 = (UNIT * 2 / 100) as u64;
const FULL_LOSS_CNT: u32 = 6;
const FULL_ECN_CNT: u32 = 2;
const INFLIGHT_HEADROOM: u64 = (UNIT * 15 / 100) as u64;
const BW_PROBE_MAX_ROUNDS: u64 = 63;
const BW_PROBE_RAND_ROUNDS: u64 = 2;
const BW_PROBE_BASE_US: u64 = 2_000_000;
const BW_PROBE_RAND_US: u64 = 1_000_000;
const UNIT64: u64 = UNIT as u64;

/// PROBE_BW's phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeBwPhase {
    /// Pacing at 1.25 x bw, raising `inflight_hi`.
    Up,
    /// Pacing at 0.91 x bw until the queue is drained and headroom left.
    Down,
    /// Pacing at the estimate, bounded by the short-term bounds.
    Cruise,
    /// One round at the estimate with the short-term bounds lifted, before UP.
    Refill,
}

/// How the ACKs relate to bandwidth probing (`enum bbr_ack_phase`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AckPhase {
    Init,
    Refilling,
    ProbeStarting,
    ProbeFeedback,
    ProbeStopping,
}

/// BBR v3's state beyond v1's (the v3 fields of Linux's `struct bbr`).
#[derive(Clone, Debug)]
pub(super) struct V3 {
    /// `bbr_can_use_ecn`: ECN negotiated with per-segment echo.
    ecn_capable: bool,
    probe_rtt_min_us: u32,
    probe_rtt_min_stamp: u32,
    init_cwnd: u64,
    try_fast_path: bool,
    full_bw_now: bool,
    startup_ecn_rounds: u32,
    loss_in_cycle: bool,
    ecn_in_cycle: bool,
    loss_round_delivered: u64,
    bw_latest: u64,
    bw_lo: u64,
    bw_hi: [u64; 2],
    inflight_latest: u64,
    inflight_lo: u64,
    inflight_hi: u64,
    bw_probe_up_cnt: u64,
    bw_probe_up_acks: u64,
    bw_probe_up_rounds: u32,
    probe_wait_us: u64,
    ecn_eligible: bool,
    ecn_alpha: u64,
    bw_probe_samples: bool,
    prev_probe_too_high: bool,
    stopped_risky_probe: bool,
    rounds_since_probe: u64,
    loss_round_start: bool,
    loss_in_round: bool,
    ecn_in_round: bool,
    ack_phase: AckPhase,
    loss_events_in_round: u32,
    alpha_last_delivered: u64,
    alpha_last_delivered_ce: u64,
    /// This ACK's bandwidth sample (`bbr_context.sample_bw`).
    sample_bw: u64,
    /// `tp->delivered_ce` at the previous ACK, to tell an ECE ACK.
    last_delivered_ce: u64,
}

impl V3 {
    fn new(ecn_capable: bool) -> Self {
        V3 {
            ecn_capable,
            probe_rtt_min_us: u32::MAX,
            probe_rtt_min_stamp: 0,
            init_cwnd: 10,
            try_fast_path: false,
            full_bw_now: false,
            startup_ecn_rounds: 0,
            loss_in_cycle: false,
            ecn_in_cycle: false,
            loss_round_delivered: 0,
            bw_latest: 0,
            bw_lo: INF,
            bw_hi: [0; 2],
            inflight_latest: 0,
            inflight_lo: INF,
            inflight_hi: INF,
            bw_probe_up_cnt: INF,
            bw_probe_up_acks: 0,
            bw_probe_up_rounds: 0,
            probe_wait_us: 0,
            ecn_eligible: false,
            ecn_alpha: ECN_ALPHA_INIT,
            bw_probe_samples: false,
            prev_probe_too_high: false,
            stopped_risky_probe: false,
            rounds_since_probe: 0,
            loss_round_start: false,
            loss_in_round: false,
            ecn_in_round: false,
            ack_phase: AckPhase::Init,
            loss_events_in_round: 0,
            alpha_last_delivered: 0,
            alpha_last_delivered_ce: 0,
            sample_bw: 0,
            last_delivered_ce: 0,
        }
    }

    /// `bbr_max_bw`.
    fn max_bw(&self) -> u64 {
        self.bw_hi[0].max(self.bw_hi[1])
    }

    /// `bbr_bw`: the estimate bounded by `bw_lo`.
    pub(super) fn bw(&self) -> u64 {
        self.max_bw().min(self.bw_lo)
    }

    /// `bbr_ecn_cut`.
    fn ecn_cut(&self) -> u64 {
        UNIT64 - ((self.ecn_alpha * ECN_FACTOR) >> BBR_SCALE)
    }

    /// `bbr_inflight_with_headroom`.
    fn inflight_with_headroom(&self) -> u64 {
        if self.inflight_hi == INF {
            return INF;
        }
        let headroom = ((self.inflight_hi * INFLIGHT_HEADROOM) >> BBR_SCALE).max(1);
        self.inflight_hi
            .saturating_sub(headroom)
            .max(CWND_MIN_TARGET)
    }

    /// `bbr_is_inflight_too_high`: loss above 2 % of what was in flight when the sampled
    /// segment left, or (ECN-eligible) CE marks on more than half of its deliveries.
    fn is_inflight_too_high(&self, rs: &RateSample) -> bool {
        if rs.lost > 0 && rs.tx_in_flight > 0 {
            let loss_thresh = (rs.tx_in_flight * LOSS_THRESH) >> BBR_SCALE;
            if rs.lost > loss_thresh {
                return true;
            }
        }
        if rs.delivered_ce > 0 && rs.delivered > 0 && self.ecn_eligible {
            let ecn_thresh = (rs.delivered * ECN_THRESH) >> BBR_SCALE;
            if rs.delivered_ce > ecn_thresh {
                return true;
            }
        }
        false
    }

    fn reset_full_bw(&mut self, b: &mut Bbr) {
        b.full_bw = 0;
        b.full_bw_cnt = 0;
        self.full_bw_now = false;
    }

    fn reset_lower_bounds(&mut self) {
        self.bw_lo = INF;
        self.inflight_lo = INF;
    }

    fn reset_congestion_signals(&mut self) {
        self.loss_in_round = false;
        self.ecn_in_round = false;
        self.loss_in_cycle = false;
        self.ecn_in_cycle = false;
        self.bw_latest = 0;
        self.inflight_latest = 0;
    }

    /// `bbr_note_loss`.
    fn note_loss(&mut self, delivered: u64) {
        if !self.loss_in_round {
            self.loss_round_delivered = delivered;
        }
        self.loss_in_round = true;
        self.loss_in_cycle = true;
    }
}

impl Bbr {
    /// A flow's BBR v3 before the connection is established; `ecn`: the flow negotiated ECN
    /// with per-segment CE echo.
    #[must_use]
    pub fn v3(ecn: bool) -> Self {
        Bbr {
            pacing_gain: STARTUP_PACING_GAIN,
            cwnd_gain: STARTUP_CWND_GAIN,
            v3: Some(Box::new(V3::new(ecn))),
            is_v3: true,
            ..Bbr::new()
        }
    }

    /// Whether this is BBR v3.
    #[must_use]
    pub fn is_v3(&self) -> bool {
        self.is_v3
    }

    /// BBR v3's PROBE_BW phase (`None` outside PROBE_BW or for v1).
    #[must_use]
    pub fn probe_bw_phase(&self) -> Option<ProbeBwPhase> {
        if self.v3.is_none() || self.mode != BbrMode::ProbeBw {
            return None;
        }
        Some(match self.cycle_idx {
            UP => ProbeBwPhase::Up,
            DOWN => ProbeBwPhase::Down,
            CRUISE => ProbeBwPhase::Cruise,
            _ => ProbeBwPhase::Refill,
        })
    }

    /// BBR v3's long-term bound on what is in flight, packets (`None` while unset).
    #[must_use]
    pub fn inflight_hi(&self) -> Option<u64> {
        self.v3
            .as_ref()
            .and_then(|v| (v.inflight_hi != INF).then_some(v.inflight_hi))
    }

    /// BBR v3's short-term bound on what is in flight, packets (`None` while unset).
    #[must_use]
    pub fn inflight_lo(&self) -> Option<u64> {
        self.v3
            .as_ref()
            .and_then(|v| (v.inflight_lo != INF).then_some(v.inflight_lo))
    }

    /// BBR v3's ECN alpha, in 256ths (`None` for v1).
    #[must_use]
    pub fn ecn_alpha(&self) -> Option<u64> {
        self.v3.as_ref().map(|v| v.ecn_alpha)
    }

    /// Whether BBR v3 reacts to ECN on this connection (`ecn_eligible`).
    #[must_use]
    pub fn ecn_eligible(&self) -> bool {
        self.v3.as_ref().is_some_and(|v| v.ecn_eligible)
    }

    fn with_v3<R>(&mut self, f: impl FnOnce(&mut Bbr, &mut V3) -> R) -> R {
        let mut v = self.v3.take().expect("BBR v3 state");
        let r = f(self, &mut v);
        self.v3 = Some(v);
        r
    }

    // --- Pacing and window arithmetic -------------------------------------------------

    /// `bbr_tso_segs_goal`: about 1 ms of data at the pacing rate plus an allowance that
    /// halves every 512 us of min_rtt.
    fn v3_tso_segs_goal(&self, mss: u64) -> u64 {
        let mut bytes = self.pacing_rate >> PACING_SHIFT;
        let r = self.min_rtt_us >> TSO_RTT_SHIFT;
        if r < 32 {
            bytes += GSO_LEGACY_MAX_SIZE >> r;
        }
        let bytes = bytes.min(TSO_MAX_BYTES);
        (bytes / mss).max(MIN_TSO_SEGS)
    }

    fn v3_bdp(&self, v: &V3, bw: u64, gain: u32) -> u64 {
        if self.min_rtt_us == u32::MAX {
            return v.init_cwnd;
        }
        let w = u128::from(bw) * u128::from(self.min_rtt_us);
        let bdp = ((w * u128::from(gain)) >> BBR_SCALE).div_ceil(u128::from(BW_UNIT));
        u64::try_from(bdp).unwrap_or(INF).min(INF)
    }

    fn v3_quantization_budget(&self, cwnd: u64, mss: u64) -> u64 {
        let mut cwnd = cwnd
            .max(3 * self.v3_tso_segs_goal(mss))
            .max(CWND_MIN_TARGET);
        if self.mode == BbrMode::ProbeBw && self.cycle_idx == UP {
            cwnd += 2;
        }
        cwnd
    }

    fn v3_inflight(&self, v: &V3, bw: u64, gain: u32, mss: u64) -> u64 {
        self.v3_quantization_budget(self.v3_bdp(v, bw, gain), mss)
    }

    fn v3_packets_in_net_at_edt(&self, v: &V3, tp: &Tp, inflight_now: u64) -> u64 {
        let edt = tp.wstamp_ns.max(tp.now_ns);
        let interval_us = (edt - tp.now_ns) / 1000;
        let interval_delivered =
            u64::try_from((u128::from(v.bw()) * u128::from(interval_us)) >> super::BW_SCALE)
                .unwrap_or(u64::MAX);
        let mut at_edt = inflight_now;
        if self.pacing_gain > UNIT {
            at_edt += self.v3_tso_segs_goal(tp.mss);
        }
        at_edt.saturating_sub(interval_delivered)
    }

    fn v3_ack_aggregation_cwnd(&self, v: &V3) -> u64 {
        let max_aggr = v.bw() * EXTRA_ACKED_MAX_US / BW_UNIT;
        let aggr = (super::EXTRA_ACKED_GAIN * self.extra_acked()) >> BBR_SCALE;
        aggr.min(max_aggr)
    }

    fn v3_probe_rtt_cwnd(&self, v: &V3) -> u64 {
        self.v3_bdp(v, v.bw(), PROBE_RTT_CWND_GAIN)
            .max(CWND_MIN_TARGET)
    }

    /// `bbr_target_inflight`: the BDP, unless congestion cut the window below it.
    fn v3_target_inflight(&self, v: &V3, tp: &Tp) -> u64 {
        self.v3_inflight(v, v.bw(), UNIT, tp.mss).min(tp.cwnd)
    }

    fn v3_is_probing_bandwidth(&self) -> bool {
        self.mode == BbrMode::Startup
            || (self.mode == BbrMode::ProbeBw && (self.cycle_idx == REFILL || self.cycle_idx == UP))
    }

    fn v3_set_cwnd(&mut self, v: &mut V3, tp: &mut Tp, acked: u64, bw: u64, gain: u32) {
        let mut cwnd = tp.cwnd;
        if acked > 0 {
            let target = self.v3_bdp(v, bw, gain) + self.v3_ack_aggregation_cwnd(v);
            let target = self.v3_quantization_budget(target, tp.mss);
            v.try_fast_path = false;
            if self.full_bw_reached {
                cwnd += acked;
                if cwnd >= target {
                    cwnd = target;
                    v.try_fast_path = true;
                }
            } else if cwnd < target || cwnd < 2 * v.init_cwnd {
                cwnd += acked;
            } else {
                v.try_fast_path = true;
            }
            cwnd = cwnd.max(CWND_MIN_TARGET);
        }
        tp.cwnd = cwnd;
        if self.mode == BbrMode::ProbeRtt {
            tp.cwnd = tp.cwnd.min(self.v3_probe_rtt_cwnd(v));
        }
    }

    /// `bbr_bound_cwnd_for_inflight_model`.
    fn v3_bound_cwnd(&self, v: &V3, tp: &mut Tp) {
        let mut cap = INF;
        if self.mode == BbrMode::ProbeBw && self.cycle_idx != CRUISE {
            cap = v.inflight_hi;
        } else if self.mode == BbrMode::ProbeRtt
            || (self.mode == BbrMode::ProbeBw && self.cycle_idx == CRUISE)
        {
            cap = v.inflight_with_headroom();
        }
        cap = cap.min(v.inflight_lo).max(CWND_MIN_TARGET);
        tp.cwnd = tp.cwnd.min(cap);
    }

    // --- The model -------------------------------------------------------------------

    fn v3_update_round_start(&mut self, tp: &Tp, rs: &RateSample) {
        self.round_start = false;
        if rs.interval.is_some_and(|i| i.0 / 1000 > 0)
            && rs.prior_delivered >= self.next_rtt_delivered
        {
            self.next_rtt_delivered = tp.delivered;
            self.round_start = true;
        }
    }

    /// `bbr_update_ecn_alpha`: the per-round CE fraction, if ECN is in use.
    fn v3_update_ecn_alpha(&mut self, v: &mut V3, tp: &Tp) -> Option<u64> {
        if !v.ecn_eligible && v.ecn_capable && self.min_rtt_us <= ECN_MAX_RTT_US {
            v.ecn_eligible = true;
        }
        if !v.ecn_eligible {
            return None;
        }
        let delivered = tp.delivered - v.alpha_last_delivered;
        let delivered_ce = tp.delivered_ce - v.alpha_last_delivered_ce;
        if delivered == 0 {
            return None;
        }
        let ce_ratio = (delivered_ce << BBR_SCALE) / delivered;
        let mut alpha = ((UNIT64 - ECN_ALPHA_GAIN) * v.ecn_alpha) >> BBR_SCALE;
        alpha += (ECN_ALPHA_GAIN * ce_ratio) >> BBR_SCALE;
        v.ecn_alpha = alpha.min(UNIT64);
        v.alpha_last_delivered = tp.delivered;
        v.alpha_last_delivered_ce = tp.delivered_ce;
        // bbr_check_ecn_too_high_in_startup
        if !self.full_bw_reached {
            if ce_ratio >= ECN_THRESH {
                v.startup_ecn_rounds += 1;
            } else {
                v.startup_ecn_rounds = 0;
            }
            if v.startup_ecn_rounds >= FULL_ECN_CNT {
                self.v3_queue_too_high_in_startup(v, tp);
            }
        }
        Some(ce_ratio)
    }

    /// `bbr_handle_queue_too_high_in_startup`.
    fn v3_queue_too_high_in_startup(&mut self, v: &mut V3, tp: &Tp) {
        self.full_bw_reached = true;
        let bdp = self.v3_inflight(v, v.max_bw(), UNIT, tp.mss);
        v.inflight_hi = bdp.max(v.inflight_latest);
    }

    fn v3_update_latest_delivery_signals(&mut self, v: &mut V3, tp: &Tp, rs: &RateSample) {
        v.loss_round_start = false;
        if rs.interval.is_none_or(|i| i.0 / 1000 == 0) || rs.acked_sacked == 0 {
            return;
        }
        v.bw_latest = v.bw_latest.max(v.sample_bw);
        v.inflight_latest = v.inflight_latest.max(rs.delivered);
        if rs.prior_delivered >= v.loss_round_delivered {
            v.loss_round_delivered = tp.delivered;
            v.loss_round_start = true;
        }
    }

    /// `bbr_adapt_lower_bounds`: once per round outside bandwidth probing, cut the
    /// short-term bounds for the loss or CE marks of the round.
    fn v3_adapt_lower_bounds(&self, v: &mut V3, tp: &Tp) {
        if self.v3_is_probing_bandwidth() {
            return;
        }
        let mut ecn_inflight_lo = INF;
        if v.ecn_in_round {
            if v.inflight_lo == INF {
                v.inflight_lo = tp.cwnd;
            }
            ecn_inflight_lo = (v.inflight_lo * v.ecn_cut()) >> BBR_SCALE;
        }
        if v.loss_in_round {
            if v.bw_lo == INF {
                v.bw_lo = v.max_bw();
            }
            if v.inflight_lo == INF {
                v.inflight_lo = tp.cwnd;
            }
            let loss_cut = UNIT64 - BETA;
            v.bw_lo = v.bw_latest.max((v.bw_lo * loss_cut) >> BBR_SCALE);
            v.inflight_lo = v
                .inflight_latest
                .max((v.inflight_lo * loss_cut) >> BBR_SCALE);
        }
        v.inflight_lo = v.inflight_lo.min(ecn_inflight_lo);
        v.bw_lo = v.bw_lo.max(1);
    }

    fn v3_update_congestion_signals(&mut self, v: &mut V3, tp: &Tp, rs: &RateSample) {
        if rs.interval.is_none_or(|i| i.0 / 1000 == 0) || rs.acked_sacked == 0 {
            return;
        }
        let bw = v.sample_bw;
        if !rs.is_app_limited || bw >= v.max_bw() {
            v.bw_hi[1] = v.bw_hi[1].max(bw);
        }
        v.loss_in_round |= rs.losses > 0;
        if !v.loss_round_start {
            return;
        }
        self.v3_adapt_lower_bounds(v, tp);
        v.loss_in_round = false;
        v.ecn_in_round = false;
    }

    fn v3_update_ack_aggregation(&mut self, tp: &Tp, rs: &RateSample, bw: u64) {
        let win_rtts = if self.full_bw_reached {
            EXTRA_ACKED_WIN_RTTS
        } else {
            1
        };
        self.estimate_ack_aggregation(tp, rs, bw, win_rtts);
    }

    /// `bbr_check_loss_too_high_in_startup`.
    fn v3_check_loss_too_high_in_startup(&mut self, v: &mut V3, tp: &Tp, rs: &RateSample) {
        if self.full_bw_reached {
            return;
        }
        if rs.losses > 0 && v.loss_events_in_round < 0xf {
            v.loss_events_in_round += 1;
        }
        if v.loss_round_start
            && tp.state == CaState::Recovery
            && v.loss_events_in_round >= FULL_LOSS_CNT
            && v.is_inflight_too_high(rs)
        {
            self.v3_queue_too_high_in_startup(v, tp);
            return;
        }
        if v.loss_round_start {
            v.loss_events_in_round = 0;
        }
    }

    /// `bbr_check_full_bw_reached`: three rounds without 25 % growth of the sample.
    fn v3_check_full_bw_reached(&mut self, v: &mut V3, rs: &RateSample) {
        if v.full_bw_now || rs.is_app_limited {
            return;
        }
        let bw_thresh = (self.full_bw * FULL_BW_THRESH) >> BBR_SCALE;
        if v.sample_bw >= bw_thresh {
            v.reset_full_bw(self);
            self.full_bw = v.sample_bw;
            return;
        }
        if !self.round_start {
            return;
        }
        self.full_bw_cnt += 1;
        v.full_bw_now = self.full_bw_cnt >= FULL_BW_CNT;
        self.full_bw_reached |= v.full_bw_now;
    }

    fn v3_check_drain(&mut self, v: &mut V3, tp: &mut Tp, rng: &mut RngStream) {
        if self.mode == BbrMode::Startup && self.full_bw_reached {
            self.mode = BbrMode::Drain;
            tp.ssthresh = self.v3_inflight(v, v.max_bw(), UNIT, tp.mss);
            v.reset_congestion_signals();
        }
        if self.mode == BbrMode::Drain
            && self.v3_packets_in_net_at_edt(v, tp, tp.in_flight)
                <= self.v3_inflight(v, v.max_bw(), UNIT, tp.mss)
        {
            self.mode = BbrMode::ProbeBw;
            self.v3_start_probe_down(v, tp, rng);
        }
    }

    fn v3_raise_inflight_hi_slope(&self, v: &mut V3, tp: &Tp) {
        let growth_this_round = 1u64 << v.bw_probe_up_rounds;
        v.bw_probe_up_rounds = (v.bw_probe_up_rounds + 1).min(30);
        v.bw_probe_up_cnt = (tp.cwnd / growth_this_round).max(1);
    }

    fn v3_probe_inflight_hi_upward(&self, v: &mut V3, tp: &Tp, rs: &RateSample) {
        if !tp.cwnd_limited || tp.cwnd < v.inflight_hi {
            return;
        }
        v.bw_probe_up_acks += rs.acked_sacked;
        if v.bw_probe_up_acks >= v.bw_probe_up_cnt {
            let delta = v.bw_probe_up_acks / v.bw_probe_up_cnt;
            v.bw_probe_up_acks -= delta * v.bw_probe_up_cnt;
            v.inflight_hi += delta;
            v.try_fast_path = false;
        }
        if self.round_start {
            self.v3_raise_inflight_hi_slope(v, tp);
        }
    }

    /// `bbr_pick_probe_wait`.
    fn v3_pick_probe_wait(v: &mut V3, rng: &mut RngStream) {
        v.rounds_since_probe = rng.below(BW_PROBE_RAND_ROUNDS);
        v.probe_wait_us = BW_PROBE_BASE_US + rng.below(BW_PROBE_RAND_US);
    }

    fn v3_start_probe_refill(&mut self, v: &mut V3, tp: &Tp, up_rounds: u32) {
        v.reset_lower_bounds();
        v.bw_probe_up_rounds = up_rounds;
        v.bw_probe_up_acks = 0;
        v.stopped_risky_probe = false;
        v.ack_phase = AckPhase::Refilling;
        self.next_rtt_delivered = tp.delivered;
        self.cycle_idx = REFILL;
        v.try_fast_path = false;
    }

    fn v3_start_probe_up(&mut self, v: &mut V3, tp: &Tp) {
        v.ack_phase = AckPhase::ProbeStarting;
        self.next_rtt_delivered = tp.delivered;
        self.cycle_mstamp = tp.now_ns / 1000;
        v.reset_full_bw(self);
        self.full_bw = v.sample_bw;
        self.cycle_idx = UP;
        v.try_fast_path = false;
        self.v3_raise_inflight_hi_slope(v, tp);
    }

    fn v3_start_probe_down(&mut self, v: &mut V3, tp: &Tp, rng: &mut RngStream) {
        v.reset_congestion_signals();
        v.bw_probe_up_cnt = INF;
        Self::v3_pick_probe_wait(v, rng);
        self.cycle_mstamp = tp.now_ns / 1000;
        v.ack_phase = AckPhase::ProbeStopping;
        self.next_rtt_delivered = tp.delivered;
        self.cycle_idx = DOWN;
        v.try_fast_path = false;
    }

    fn v3_start_probe_cruise(&mut self, v: &mut V3) {
        if v.inflight_lo != INF {
            v.inflight_lo = v.inflight_lo.min(v.inflight_hi);
        }
        self.cycle_idx = CRUISE;
        v.try_fast_path = false;
    }

    /// `bbr_handle_inflight_too_high`: cut `inflight_hi` once per probe and stop probing.
    fn v3_handle_inflight_too_high(
        &mut self,
        v: &mut V3,
        tp: &Tp,
        rs: &RateSample,
        rng: &mut RngStream,
    ) {
        v.prev_probe_too_high = true;
        v.bw_probe_samples = false;
        if !rs.is_app_limited {
            let target = self.v3_target_inflight(v, tp);
            v.inflight_hi = rs.tx_in_flight.max((target * (UNIT64 - BETA)) >> BBR_SCALE);
        }
        if self.mode == BbrMode::ProbeBw && self.cycle_idx == UP {
            self.v3_start_probe_down(v, tp, rng);
        }
    }

    /// `bbr_adapt_upper_bounds`; true if it decided a phase change.
    fn v3_adapt_upper_bounds(
        &mut self,
        v: &mut V3,
        tp: &Tp,
        rs: &RateSample,
        rng: &mut RngStream,
    ) -> bool {
        if v.ack_phase == AckPhase::ProbeStarting && self.round_start {
            v.ack_phase = AckPhase::ProbeFeedback;
        }
        if v.ack_phase == AckPhase::ProbeStopping && self.round_start {
            v.bw_probe_samples = false;
            v.ack_phase = AckPhase::Init;
            if self.mode == BbrMode::ProbeBw && !rs.is_app_limited && v.bw_hi[1] != 0 {
                // bbr_advance_max_bw_filter: keep the max of the last one or two cycles.
                v.bw_hi[0] = v.bw_hi[1];
                v.bw_hi[1] = 0;
            }
            if self.mode == BbrMode::ProbeBw && v.stopped_risky_probe && !v.prev_probe_too_high {
                self.v3_start_probe_refill(v, tp, 0);
                return true;
            }
        }
        if v.is_inflight_too_high(rs) {
            if v.bw_probe_samples {
                self.v3_handle_inflight_too_high(v, tp, rs, rng);
            }
        } else {
            if v.inflight_hi == INF {
                return false;
            }
            if rs.tx_in_flight > v.inflight_hi {
                v.inflight_hi = rs.tx_in_flight;
            }
            if self.mode == BbrMode::ProbeBw && self.cycle_idx == UP {
                self.v3_probe_inflight_hi_upward(v, tp, rs);
            }
        }
        false
    }

    /// `bbr_check_time_to_probe_bw`.
    fn v3_check_time_to_probe_bw(&mut self, v: &mut V3, tp: &Tp) -> bool {
        if v.ecn_eligible && v.ecn_in_cycle && !v.loss_in_cycle && tp.state == CaState::Open {
            // Marks but no loss: once they cease, re-probe with a first step of about
            // inflight_hi x ecn_reprobe_gain.
            let x = (v.inflight_hi * ECN_REPROBE_GAIN) >> BBR_SCALE;
            let n = if x == 0 { 0 } else { x.ilog2() };
            self.v3_start_probe_refill(v, tp, n);
            return true;
        }
        let elapsed = tp.now_ns / 1000 > self.cycle_mstamp + v.probe_wait_us;
        let reno_rounds = BW_PROBE_MAX_ROUNDS.min(self.v3_target_inflight(v, tp));
        if elapsed || v.rounds_since_probe >= reno_rounds {
            self.v3_start_probe_refill(v, tp, 0);
            return true;
        }
        false
    }

    /// `bbr_update_cycle_phase`: PROBE_BW's DOWN -> CRUISE -> REFILL -> UP -> DOWN.
    fn v3_update_cycle_phase(&mut self, v: &mut V3, tp: &Tp, rs: &RateSample, rng: &mut RngStream) {
        if !self.full_bw_reached {
            return;
        }
        if self.v3_adapt_upper_bounds(v, tp, rs, rng) {
            return;
        }
        if self.mode != BbrMode::ProbeBw {
            return;
        }
        let inflight = self.v3_packets_in_net_at_edt(v, tp, rs.prior_in_flight);
        let bw = v.max_bw();
        match self.cycle_idx {
            CRUISE => {
                self.v3_check_time_to_probe_bw(v, tp);
            }
            REFILL => {
                if self.round_start {
                    v.bw_probe_samples = true;
                    self.v3_start_probe_up(v, tp);
                }
            }
            UP => {
                let mut done = false;
                if v.prev_probe_too_high && inflight >= v.inflight_hi {
                    v.stopped_risky_probe = true;
                    done = true;
                } else if tp.cwnd_limited && tp.cwnd >= v.inflight_hi {
                    // inflight_hi limits the growth: restart the plateau detector.
                    v.reset_full_bw(self);
                    self.full_bw = v.sample_bw;
                } else if v.full_bw_now {
                    done = true;
                }
                if done {
                    v.prev_probe_too_high = false;
                    self.v3_start_probe_down(v, tp, rng);
                }
            }
            _ => {
                // DOWN
                if self.v3_check_time_to_probe_bw(v, tp) {
                    return;
                }
                if inflight <= v.inflight_with_headroom()
                    && inflight <= self.v3_inflight(v, bw, UNIT, tp.mss)
                {
                    self.v3_start_probe_cruise(v);
                }
            }
        }
    }

    fn v3_exit_probe_rtt(&mut self, v: &mut V3, tp: &Tp, rng: &mut RngStream) {
        v.reset_lower_bounds();
        if self.full_bw_reached {
            self.mode = BbrMode::ProbeBw;
            self.v3_start_probe_down(v, tp, rng);
            self.v3_start_probe_cruise(v);
        } else {
            self.mode = BbrMode::Startup;
        }
    }

    fn v3_check_probe_rtt_done(&mut self, v: &mut V3, tp: &mut Tp, rng: &mut RngStream) {
        if !(self.probe_rtt_done_stamp != 0 && after(tp.jiffies, self.probe_rtt_done_stamp)) {
            return;
        }
        v.probe_rtt_min_stamp = tp.jiffies;
        tp.cwnd = tp.cwnd.max(self.prior_cwnd);
        self.v3_exit_probe_rtt(v, tp, rng);
    }

    /// `bbr_update_min_rtt`: the 5 s and 10 s minima, and PROBE_RTT.
    fn v3_update_min_rtt(
        &mut self,
        v: &mut V3,
        tp: &mut Tp,
        rs: &RateSample,
        ctl: &mut Control,
        rng: &mut RngStream,
    ) {
        let probe_rtt_expired = after(
            tp.jiffies,
            v.probe_rtt_min_stamp.wrapping_add(PROBE_RTT_WIN_MS),
        );
        if let Some(rtt) = rs.rtt {
            let rtt_us = u32::try_from(rtt.0 / 1000).unwrap_or(u32::MAX - 1);
            if rtt_us < v.probe_rtt_min_us || probe_rtt_expired {
                v.probe_rtt_min_us = rtt_us;
                v.probe_rtt_min_stamp = tp.jiffies;
            }
        }
        let min_rtt_expired = after(tp.jiffies, self.min_rtt_stamp.wrapping_add(MIN_RTT_WIN_MS));
        if v.probe_rtt_min_us <= self.min_rtt_us || min_rtt_expired {
            self.min_rtt_us = v.probe_rtt_min_us;
            self.min_rtt_stamp = v.probe_rtt_min_stamp;
        }
        if probe_rtt_expired && !self.idle_restart && self.mode != BbrMode::ProbeRtt {
            self.mode = BbrMode::ProbeRtt;
            self.save_cwnd(tp.cwnd);
            self.probe_rtt_done_stamp = 0;
            v.ack_phase = AckPhase::ProbeStopping;
            self.next_rtt_delivered = tp.delivered;
        }
        if self.mode == BbrMode::ProbeRtt {
            ctl.mark_app_limited = true;
            if self.probe_rtt_done_stamp == 0 && tp.in_flight <= self.v3_probe_rtt_cwnd(v) {
                self.probe_rtt_done_stamp = tp.jiffies.wrapping_add(PROBE_RTT_MODE_MS);
                self.probe_rtt_round_done = false;
                self.next_rtt_delivered = tp.delivered;
            } else if self.probe_rtt_done_stamp != 0 {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done {
                    self.v3_check_probe_rtt_done(v, tp, rng);
                }
            }
        }
        if rs.delivered > 0 {
            self.idle_restart = false;
        }
    }

    fn v3_update_gains(&mut self) {
        let (pacing, cwnd) = match self.mode {
            BbrMode::Startup => (STARTUP_PACING_GAIN, STARTUP_CWND_GAIN),
            BbrMode::Drain => (DRAIN_GAIN, STARTUP_CWND_GAIN),
            BbrMode::ProbeBw => {
                let mut cwnd = CWND_GAIN;
                if self.cycle_idx == UP {
                    cwnd += UNIT * BW_PROBE_CWND_GAIN / 4;
                }
                (PROBE_GAIN[self.cycle_idx], cwnd)
            }
            BbrMode::ProbeRtt => (UNIT, UNIT),
        };
        self.pacing_gain = pacing;
        self.cwnd_gain = cwnd;
    }

    /// `bbr_run_fast_path`: an application-limited ACK without congestion and with a
    /// lower sample skips the model update.
    fn v3_fast_path(
        &mut self,
        v: &mut V3,
        tp: &mut Tp,
        rs: &RateSample,
        ctl: &mut Control,
        rng: &mut RngStream,
        update_model: &mut bool,
    ) -> bool {
        if v.try_fast_path
            && rs.is_app_limited
            && v.sample_bw < v.max_bw()
            && !v.loss_in_round
            && !v.ecn_in_round
        {
            let prev_mode = self.mode;
            let prev_min_rtt = self.min_rtt_us;
            self.v3_check_drain(v, tp, rng);
            self.v3_update_cycle_phase(v, tp, rs, rng);
            self.v3_update_min_rtt(v, tp, rs, ctl, rng);
            if self.mode == prev_mode && self.min_rtt_us == prev_min_rtt && v.try_fast_path {
                return true;
            }
            *update_model = false;
        }
        false
    }

    /// `bbr_main`.
    pub(super) fn v3_main(
        &mut self,
        w: &mut Window,
        rs: &RateSample,
        conn: &Conn,
        rng: &mut RngStream,
    ) -> Control {
        self.with_v3(|b, v| {
            let mut tp = Self::tp(w, conn);
            let mut ctl = Control::default();
            let is_ece = tp.delivered_ce > v.last_delivered_ce;
            v.last_delivered_ce = tp.delivered_ce;
            if rs.losses > 0 {
                v.note_loss(tp.delivered);
            }
            b.v3_update_round_start(&tp, rs);
            if b.round_start {
                v.rounds_since_probe = (v.rounds_since_probe + 1).min(0xff);
                b.v3_update_ecn_alpha(v, &tp);
            }
            v.ecn_in_round |= v.ecn_eligible && is_ece;
            v.sample_bw = match rs.interval.map(|i| i.0 / 1000) {
                Some(us) if us > 0 => {
                    let bw =
                        (u128::from(rs.delivered) * u128::from(BW_UNIT)).div_ceil(u128::from(us));
                    u64::try_from(bw).unwrap_or(INF).min(INF)
                }
                _ => 0,
            };
            b.v3_update_latest_delivery_signals(v, &tp, rs);
            let mut update_model = true;
            if !b.v3_fast_path(v, &mut tp, rs, &mut ctl, rng, &mut update_model) {
                if update_model {
                    b.v3_update_congestion_signals(v, &tp, rs);
                    b.v3_update_ack_aggregation(&tp, rs, v.bw());
                    b.v3_check_loss_too_high_in_startup(v, &tp, rs);
                    b.v3_check_full_bw_reached(v, rs);
                    b.v3_check_drain(v, &mut tp, rng);
                    b.v3_update_cycle_phase(v, &tp, rs, rng);
                    b.v3_update_min_rtt(v, &mut tp, rs, &mut ctl, rng);
                }
                b.v3_update_gains();
                let bw = v.bw();
                b.set_pacing_rate(&tp, bw, b.pacing_gain);
                b.v3_set_cwnd(v, &mut tp, rs.acked_sacked, bw, b.cwnd_gain);
                b.v3_bound_cwnd(v, &mut tp);
            }
            // bbr_advance_latest_delivery_signals
            if v.loss_round_start {
                v.bw_latest = v.sample_bw;
                v.inflight_latest = rs.delivered;
            }
            b.prev_ca_state = tp.state;
            v.loss_in_cycle |= rs.lost > 0;
            v.ecn_in_cycle |= rs.delivered_ce > 0;
            w.cwnd = tp.cwnd * tp.mss;
            if tp.ssthresh != w.ssthresh / w.mss {
                w.ssthresh = tp.ssthresh * tp.mss;
            }
            b.last = Some(tp);
            ctl.pacing_rate = Some(b.pacing_rate);
            ctl
        })
    }

    /// `bbr_init`.
    pub(super) fn v3_init(&mut self, w: &mut Window, conn: &Conn) -> Option<u64> {
        let now = conn.now;
        let tp = Self::tp(w, conn);
        let ecn = self.v3.as_ref().is_some_and(|v| v.ecn_capable);
        let mut v = V3::new(ecn);
        v.init_cwnd = tp.cwnd.min(0x7f);
        v.probe_rtt_min_us = Self::conn_min_rtt_us(conn);
        v.probe_rtt_min_stamp = tp.jiffies;
        v.loss_round_delivered = tp.delivered + 1;
        w.ssthresh = u64::MAX;
        self.next_rtt_delivered = tp.delivered;
        self.prev_ca_state = CaState::Open;
        self.min_rtt_us = Self::conn_min_rtt_us(conn);
        self.min_rtt_stamp = tp.jiffies;
        self.has_seen_rtt = false;
        self.init_pacing_rate_from_rtt(&tp);
        self.mode = BbrMode::Startup;
        self.ack_epoch_mstamp = now.0 / 1000;
        self.last = Some(tp);
        self.v3 = Some(Box::new(v));
        Some(self.pacing_rate)
    }

    /// `bbr_set_state`: a timeout resets the plateau detector and bounds `inflight_lo` by
    /// the window before it; the end of its recovery restores that window.
    pub(super) fn v3_set_state(&mut self, w: &mut Window, state: CaState) {
        self.with_v3(|b, v| {
            let cwnd = w.cwnd / w.mss;
            if state == CaState::Loss {
                if let Some(tp) = b.last {
                    v.note_loss(tp.delivered);
                }
                b.prev_ca_state = CaState::Loss;
                v.reset_full_bw(b);
                if !b.v3_is_probing_bandwidth() && v.inflight_lo == INF {
                    v.inflight_lo = cwnd.max(b.prior_cwnd);
                }
            } else if b.prev_ca_state == CaState::Loss {
                w.cwnd = cwnd.max(b.prior_cwnd) * w.mss;
                v.try_fast_path = false;
            }
        });
    }
}

#[cfg(test)]
mod tests;
