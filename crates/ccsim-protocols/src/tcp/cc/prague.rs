//! TCP Prague as the L4S team's Linux module runs it (`net/ipv4/tcp_prague.c` of
//! L4STeam/linux, version 0.6; draft-briscoe-iccrg-prague-congestion-control).
//!
//! A DCTCP-like scalable control for L4S paths: data is ECT(1) (RFC 9331), feedback is
//! AccECN's count of CE marks (`tcp/accecn.rs`), and the sender paces.
//! - **alpha**: once per round trip (and, once RTT-independent, at most once per target RTT)
//!   alpha = (1 - g) alpha + g F, g = 1/16, F the fraction of the segments delivered in the
//!   round that were CE-marked, kept upscaled by 1/g in 2^-20 units so its remainder carries;
//!   alpha starts at 1 and is not updated before the first mark ("proof of an AQM").
//! - **Reduction**: on entering CWR (the first ECN echo in a window, the sender's RFC 3168
//!   state machine) the fractional window loses alpha/2 of itself, rounded without bias;
//!   once RTT-independent, at most once per target RTT. A loss (fast recovery or a timeout)
//!   halves it.
//! - **Increase** on every ACK, marked or not: slow start by the unmarked segments
//!   acknowledged; then the fractional window (2^-20 segments) grows by `acked x ai / cwnd`,
//!   ai = 1 segment, or, RTT-independent (`RTT_CONTROL_RATE`, the default: after 500 rounds
//!   out of slow start, below the 25 ms target RTT), ai = (RTT / target)^2 segments, so a
//!   flow grows by one segment per target RTT whatever its own RTT. Only unmarked segments
//!   count (the increase "unsaturates" the marking).
//! - **The window** follows the fractional window one segment per ACK (down to 2 segments;
//!   each step down also sets ssthresh, which ends slow start).
//! - **Pacing** at the fractional window times the packet size per SRTT: 100 %, or 200 %
//!   while cwnd is below half of ssthresh.
//! - **Classic ECN fallback** (`prague_ecn_fallback`, off by default as in the module): a
//!   score from the RTT's mean deviation and the queue depth (SRTT above the minimum RTT),
//!   each on a log scale against a reference (750 us, 2 ms), with smoothing gains set from
//!   ssthresh; above its threshold the reduction takes at least the score's alpha, to compete
//!   fairly with classic flows at an RFC 3168 AQM.
//!
//! The arithmetic is the module's: fixed point in 2^-20, times in microseconds (RTTs in
//! 128-microsecond units for the scaling).
//!
//! CHOICE: in slow start the fractional window follows cwnd (as the L4S team's module version
//! 0.7, for Linux 6.x, does); version 0.6 leaves it at the initial window there, so the first
//! reduction would collapse the window to about ten segments. As in both, an ACK with
//! unmarked segments in slow start grows cwnd and the fractional window with it, so slow
//! start ends at the first ACK whose segments are all marked.
//! CHOICE: pacing counts the packet (`tcp_mss_to_mtu`) as the module does; the pacer releases
//! payload bytes, so the rate handed to it is scaled by payload / packet.
//! CHOICE: the reduction on entering CWR reads the clock and the RTT-independence state as
//! of the previous ACK (the sender enters CWR before the algorithm sees the ACK's sample).
//! CHOICE: the classic-ECN detector's RTT samples are the delivery-rate sample's (the newest
//! segment an ACK delivers, never retransmitted), the module's `pkts_acked` RTT.

use ccsim_core::RngStream;

use super::{AckEvent, CaState, CongestionControl, Conn, Control, RateSample, Window};

const ALPHA_BITS: u32 = 20;
const MAX_ALPHA: u64 = 1 << ALPHA_BITS;
const CWND_UNIT: u32 = 20;
const ONE_CWND: u64 = 1 << CWND_UNIT;
const SHIFT_G: u32 = 4;
const MIN_CWND: u64 = 2;
/// Rounds out of slow start before RTT independence (`prague_rtt_transition`).
const RTT_TRANSITION: u32 = 500;
const MAX_SCALED_RTT: u64 = 100 * 1000;
const RTT_UNIT: u32 = 7;
/// The RTT-scaling target, microseconds (`prague_rtt_target`).
const RTT_TARGET_US: u64 = 25_000;
const MAX_SRTT_BITS: u32 = 18;
const MAX_MDEV_BITS: u32 = MAX_SRTT_BITS + 1;
const INIT_MDEV_CARRY: u64 = 741_455;
const INIT_ADJ_US: u64 = 262_144;
/// Weights of the classic-ECN score, 1/2^x.
const V: u32 = 1;
const D: u32 = 1;
const L_STICKY: u64 = 16 << (ALPHA_BITS - V);
const CLASSIC_ECN: u64 = L_STICKY + MAX_ALPHA;
const C_STICKY: u64 = CLASSIC_ECN + L_STICKY;
/// Reference queue variation (~750 us) and depth (~2 ms), on the score's log scale.
const V0_LG: i64 = 10_014_683 >> V;
const D0_LG: i64 = 11_498_458 >> D;

fn us2rtt(us: u64) -> u64 {
    us >> RTT_UNIT
}

fn rtt2us(rtt: u64) -> u64 {
    rtt << RTT_UNIT
}

fn ilog2(x: u64) -> u32 {
    63 - x.max(1).leading_zeros()
}

/// Prague's constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PragueParams {
    /// RTT independence (`prague_rtt_scaling`: `RTT_CONTROL_RATE` when on, none when off).
    pub rtt_independence: bool,
    /// The classic-ECN detection and fallback (`prague_ecn_fallback = 1`).
    pub classic_ecn_fallback: bool,
}

impl Default for PragueParams {
    fn default() -> Self {
        PragueParams {
            rtt_independence: true,
            classic_ecn_fallback: false,
        }
    }
}

/// The connection fields Prague reads, in the module's units.
#[derive(Clone, Copy, Debug, Default)]
struct Tp {
    now_us: u64,
    /// cwnd and ssthresh, segments.
    cwnd: u64,
    ssthresh: u64,
    /// `srtt_us`: eight times the smoothed RTT in microseconds (0 before a sample).
    srtt_us8: u64,
    min_rtt_us: Option<u64>,
    snd_una: u64,
    snd_nxt: u64,
    delivered: u64,
    delivered_ce: u64,
    mss: u64,
    mtu: u64,
    cwnd_limited: bool,
}

/// Prague's state (the module's `struct prague` and the `tcp_sock` fields it adds).
#[derive(Clone, Debug)]
pub struct Prague {
    params: PragueParams,
    cwr_stamp: u64,
    alpha_stamp: u64,
    upscaled_alpha: u64,
    ai_ack_increase: u64,
    frac_cwnd: u64,
    loss_frac_cwnd: u64,
    rest_depth_us: u64,
    rest_mdev_us: u64,
    old_delivered: u64,
    old_delivered_ce: u64,
    next_seq: u64,
    round: u32,
    saw_ce: bool,
    in_loss: bool,
    /// The classic-ECN detector: score, paced SRTT and deviation with their gains.
    classic_ecn: u64,
    srtt_pace_us: u64,
    mdev_pace_us: u64,
    g_srtt_shift: u32,
    g_mdev_shift: u32,
    pacing_rate: u64,
    /// The connection as of the last call, for the state changes.
    last: Tp,
}

impl Prague {
    /// A flow's Prague before the connection is established.
    #[must_use]
    pub fn new(params: PragueParams) -> Self {
        Prague {
            params,
            cwr_stamp: 0,
            alpha_stamp: 0,
            upscaled_alpha: MAX_ALPHA << SHIFT_G,
            ai_ack_increase: ONE_CWND,
            frac_cwnd: 0,
            loss_frac_cwnd: 0,
            rest_depth_us: INIT_MDEV_CARRY >> 1,
            rest_mdev_us: INIT_MDEV_CARRY,
            old_delivered: 0,
            old_delivered_ce: 0,
            next_seq: 0,
            round: 0,
            saw_ce: false,
            in_loss: false,
            classic_ecn: 0,
            srtt_pace_us: 0,
            mdev_pace_us: 0,
            g_srtt_shift: MAX_SRTT_BITS,
            g_mdev_shift: MAX_MDEV_BITS,
            pacing_rate: 0,
            last: Tp::default(),
        }
    }

    /// alpha, as a fraction.
    #[must_use]
    pub fn alpha(&self) -> f64 {
        (self.upscaled_alpha >> SHIFT_G) as f64 / MAX_ALPHA as f64
    }

    /// The fractional window, segments.
    #[must_use]
    pub fn frac_cwnd(&self) -> f64 {
        self.frac_cwnd as f64 / ONE_CWND as f64
    }

    /// The classic-ECN score, as a fraction of its transition band (0: L4S, 1: classic).
    #[must_use]
    pub fn classic_ecn_score(&self) -> f64 {
        (self.classic_ecn.saturating_sub(L_STICKY)) as f64 / MAX_ALPHA as f64
    }

    /// Rounds counted out of slow start.
    #[must_use]
    pub fn rounds(&self) -> u32 {
        self.round
    }

    fn in_slow_start(tp: &Tp) -> bool {
        tp.cwnd < tp.ssthresh
    }

    fn rtt_target(&self) -> u64 {
        us2rtt(RTT_TARGET_US)
    }

    fn is_rtt_indep(&self, tp: &Tp) -> bool {
        self.params.rtt_independence && !Self::in_slow_start(tp) && self.round >= RTT_TRANSITION
    }

    fn e2e_rtt_elapsed(&self, tp: &Tp) -> bool {
        tp.snd_una >= self.next_seq
    }

    fn target_rtt_elapsed(&self, tp: &Tp) -> bool {
        rtt2us(self.rtt_target()) <= tp.now_us.saturating_sub(self.alpha_stamp)
    }

    fn should_update_ewma(&self, tp: &Tp) -> bool {
        self.e2e_rtt_elapsed(tp) && (!self.is_rtt_indep(tp) || self.target_rtt_elapsed(tp))
    }

    fn frac_to_cwnd(&self) -> u64 {
        ((self.frac_cwnd + ONE_CWND - 1) >> CWND_UNIT).max(1)
    }

    /// `prague_ai_ack_increase` with `RTT_CONTROL_RATE`.
    fn update_ai_ack_increase(&mut self, tp: &Tp) {
        let rtt = us2rtt(tp.srtt_us8 >> 3);
        let target = self.rtt_target();
        self.ai_ack_increase = if !self.params.rtt_independence
            || self.round < RTT_TRANSITION
            || rtt == 0
            || rtt > MAX_SCALED_RTT
            || rtt >= target
        {
            ONE_CWND
        } else {
            let divisor = target * target;
            ((rtt << CWND_UNIT) * rtt + (divisor >> 1)) / divisor
        };
    }

    fn update_pacing_rate(&mut self, tp: &Tp) {
        let mut rate = u128::from((1_000_000u64) << 3) * u128::from(tp.mtu);
        if tp.cwnd < tp.ssthresh / 2 {
            rate <<= 1;
        }
        if tp.srtt_us8 > 0 {
            rate /= u128::from(tp.srtt_us8);
        }
        rate = (rate * u128::from(self.frac_cwnd) + u128::from(ONE_CWND >> 1)) >> CWND_UNIT;
        // Payload bytes per second for the pacer.
        rate = rate * u128::from(tp.mss) / u128::from(tp.mtu.max(1));
        self.pacing_rate = u64::try_from(rate).unwrap_or(u64::MAX);
    }

    fn new_round(&mut self, tp: &Tp) {
        self.next_seq = tp.snd_nxt;
        self.old_delivered_ce = tp.delivered_ce;
        self.old_delivered = tp.delivered;
        if !Self::in_slow_start(tp) {
            self.round = self.round.wrapping_add(1);
            if self.round == 0 {
                self.round = RTT_TRANSITION;
            }
        }
        self.update_ai_ack_increase(tp);
    }

    /// `prague_classic_ecn_detection`.
    fn classic_ecn_detection(&mut self, tp: &Tp) {
        let Some(min_rtt_us) = tp.min_rtt_us else {
            return;
        };
        let srtt_us = self.srtt_pace_us >> self.g_srtt_shift;
        if srtt_us == 0 {
            return;
        }
        let mdev_us = self.mdev_pace_us >> self.g_mdev_shift;
        let adj_us = INIT_ADJ_US >> (MAX_MDEV_BITS - self.g_mdev_shift);
        let mut score = self.classic_ecn as i64;
        let mdev_us = mdev_us * self.rest_mdev_us + adj_us;
        let mdev_lg = ilog2(mdev_us).max(self.g_mdev_shift) - self.g_mdev_shift;
        self.rest_mdev_us = mdev_us >> mdev_lg;
        score += (i64::from(mdev_lg) << (ALPHA_BITS - V)) - V0_LG;
        if srtt_us > min_rtt_us {
            let depth_us = (srtt_us - min_rtt_us) * self.rest_depth_us + (adj_us >> 1);
            let depth_lg = ilog2(depth_us).max(self.g_srtt_shift) - self.g_srtt_shift;
            self.rest_depth_us = depth_us >> depth_lg;
            let depth_lg = i64::from(depth_lg) << (ALPHA_BITS - D);
            if depth_lg > D0_LG {
                score += depth_lg - D0_LG;
            }
        }
        self.classic_ecn = u64::try_from(score.max(0)).unwrap_or(0).min(C_STICKY);
    }

    fn update_alpha(&mut self, tp: &Tp) {
        if self.saw_ce {
            if self.params.classic_ecn_fallback {
                self.classic_ecn_detection(tp);
            }
            let mut alpha = self.upscaled_alpha;
            let mut ecn_segs = tp.delivered_ce - self.old_delivered_ce;
            if ecn_segs > 0 {
                let acked = (tp.delivered - self.old_delivered).max(1);
                ecn_segs = (ecn_segs << ALPHA_BITS) / acked;
            }
            alpha = alpha - (alpha >> SHIFT_G) + ecn_segs;
            self.alpha_stamp = tp.now_us;
            self.upscaled_alpha = alpha.min(MAX_ALPHA << SHIFT_G);
        }
        self.new_round(tp);
    }

    /// `prague_update_cwnd`: grow the fractional window by the unmarked segments, then move
    /// cwnd one segment toward it.
    fn update_cwnd(&mut self, tp: &mut Tp, w: &mut Window, rs: &RateSample) {
        let mut acked = rs.acked_sacked as i64;
        if rs.ece_delta > 0 {
            self.saw_ce = true;
            acked -= rs.ece_delta as i64;
        }
        if acked > 0 && !self.in_loss && tp.cwnd_limited {
            let mut acked = acked as u64;
            if Self::in_slow_start(tp) {
                // tcp_slow_start
                let cwnd = (tp.cwnd + acked).min(tp.ssthresh);
                acked -= cwnd - tp.cwnd;
                tp.cwnd = cwnd;
                self.frac_cwnd = tp.cwnd << CWND_UNIT;
                if acked == 0 {
                    self.update_ai_ack_increase(tp);
                    self.write(tp, w);
                    return;
                }
            }
            let mut increase = acked * self.ai_ack_increase;
            let cwnd = self.frac_to_cwnd();
            increase = (increase + (cwnd >> 1)) / cwnd;
            self.frac_cwnd += acked.max(increase);
        }
        let target = self.frac_to_cwnd();
        if tp.cwnd > target && tp.cwnd > MIN_CWND {
            tp.cwnd -= 1;
            tp.ssthresh = tp.cwnd;
            self.update_ai_ack_increase(tp);
        } else if tp.cwnd < target {
            tp.cwnd += 1;
            self.update_ai_ack_increase(tp);
        }
        self.write(tp, w);
    }

    fn write(&self, tp: &Tp, w: &mut Window) {
        w.cwnd = tp.cwnd * tp.mss;
        if tp.ssthresh != w.ssthresh / w.mss {
            w.ssthresh = tp.ssthresh.saturating_mul(tp.mss);
        }
    }

    fn enter_loss(&mut self) {
        self.loss_frac_cwnd = self.frac_cwnd;
        self.frac_cwnd -= self.frac_cwnd >> 1;
        self.in_loss = true;
    }

    fn enter_cwr(&mut self, tp: &Tp) {
        if self.is_rtt_indep(tp)
            && rtt2us(self.rtt_target()) > tp.now_us.saturating_sub(self.cwr_stamp)
        {
            return;
        }
        self.cwr_stamp = tp.now_us;
        let mut alpha = self.upscaled_alpha >> SHIFT_G;
        if self.params.classic_ecn_fallback && self.classic_ecn > L_STICKY {
            let c = self.classic_ecn.min(CLASSIC_ECN) - L_STICKY;
            alpha = alpha.max((c >> 1) + (c >> 3));
        }
        let reduction = (u128::from(alpha) * u128::from(self.frac_cwnd) + u128::from(MAX_ALPHA))
            >> (ALPHA_BITS + 1);
        self.frac_cwnd -= u64::try_from(reduction).unwrap_or(self.frac_cwnd);
    }

    /// `prague_rtt_estimator`: SRTT and deviation with gains from ssthresh.
    fn rtt_estimator(&mut self, mrtt_us: u64) {
        let mut srtt = self.srtt_pace_us;
        if srtt != 0 {
            let mut m = mrtt_us as i64 - (srtt >> self.g_srtt_shift) as i64;
            srtt = srtt.wrapping_add_signed(m);
            m = m.abs();
            m -= (self.mdev_pace_us >> self.g_mdev_shift) as i64;
            self.mdev_pace_us = self.mdev_pace_us.wrapping_add_signed(m);
        } else {
            srtt = mrtt_us << self.g_srtt_shift;
            self.mdev_pace_us = 1 << self.g_mdev_shift;
        }
        self.srtt_pace_us = srtt.max(1);
    }

    /// `prague_update_rtt_scaling`: the detector's gains follow ssthresh (segments).
    fn update_rtt_scaling(&mut self, ssthresh: u64) {
        let old = self.g_srtt_shift;
        let mut shift = ilog2(ssthresh.min(u64::from(u32::MAX)));
        shift += (shift >> 1) + 1;
        self.g_srtt_shift = shift.min(MAX_SRTT_BITS);
        self.g_mdev_shift = self.g_srtt_shift + 1;
        if self.g_srtt_shift > old {
            let d = self.g_srtt_shift - old;
            self.srtt_pace_us <<= d;
            self.mdev_pace_us <<= d;
            self.rest_depth_us <<= d;
            self.rest_mdev_us <<= d;
        } else if self.g_srtt_shift < old {
            let d = old - self.g_srtt_shift;
            self.srtt_pace_us >>= d;
            self.mdev_pace_us >>= d;
            self.rest_depth_us >>= d;
            self.rest_mdev_us >>= d;
        }
    }

    fn tp(w: &Window, conn: &Conn) -> Tp {
        Tp {
            now_us: conn.now.0 / 1000,
            cwnd: w.cwnd / w.mss,
            ssthresh: w.ssthresh / w.mss,
            srtt_us8: conn.srtt.map_or(0, |s| (s.0 / 1000) << 3),
            min_rtt_us: conn.min_rtt.map(|m| m.0 / 1000),
            snd_una: conn.snd_una,
            snd_nxt: conn.snd_nxt,
            delivered: conn.delivered,
            delivered_ce: conn.delivered_ce,
            mss: w.mss,
            mtu: conn.packet_size,
            cwnd_limited: w.cwnd_limited,
        }
    }
}

impl CongestionControl for Prague {
    /// Never called: Prague sets the window in `cong_control`.
    fn on_ack(&mut self, _w: &mut Window, _ack: &AckEvent) {}

    /// `prague_ssthresh`: ssthresh stays; the detector's gains follow it.
    fn ssthresh(&mut self, w: &Window) -> u64 {
        self.update_rtt_scaling(w.ssthresh / w.mss);
        w.ssthresh
    }

    /// A timeout (`CA_EVENT_LOSS`): halve the fractional window.
    fn on_rto(&mut self, _w: &mut Window) {
        self.enter_loss();
    }

    /// `prague_state`.
    fn on_state(&mut self, _w: &mut Window, state: CaState, _snd_nxt: u64) {
        match state {
            CaState::Recovery => self.enter_loss(),
            CaState::Cwr => {
                let tp = self.last;
                self.enter_cwr(&tp);
            }
            CaState::Open => self.in_loss = false,
            CaState::Loss => {}
        }
    }

    fn on_init(&mut self, w: &mut Window, conn: &Conn) -> Option<u64> {
        let tp = Self::tp(w, conn);
        self.alpha_stamp = tp.now_us;
        self.frac_cwnd = tp.cwnd << CWND_UNIT;
        let mrtt = tp.srtt_us8 >> 3;
        self.srtt_pace_us = mrtt << self.g_srtt_shift;
        self.mdev_pace_us = 1 << self.g_mdev_shift;
        self.new_round(&tp);
        self.last = tp;
        if tp.srtt_us8 > 0 {
            self.update_pacing_rate(&tp);
            Some(self.pacing_rate)
        } else {
            None
        }
    }

    /// `prague_cong_control`.
    fn cong_control(
        &mut self,
        w: &mut Window,
        rs: &RateSample,
        conn: &Conn,
        _rng: &mut RngStream,
    ) -> Control {
        let mut tp = Self::tp(w, conn);
        if let Some(rtt) = rs.rtt {
            self.rtt_estimator(rtt.0 / 1000);
        }
        self.update_cwnd(&mut tp, w, rs);
        if self.should_update_ewma(&tp) {
            self.update_alpha(&tp);
        }
        self.update_pacing_rate(&tp);
        self.last = tp;
        Control {
            pacing_rate: Some(self.pacing_rate),
            mark_app_limited: false,
        }
    }
}

#[cfg(test)]
mod tests;
