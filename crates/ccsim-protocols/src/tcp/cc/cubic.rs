//! CUBIC (RFC 9438) as Linux computes it: `net/ipv4/tcp_cubic.c` of Linux 6.x (the BIC-era
//! integer arithmetic with `beta = 717/1024`, `bic_scale = 41`, the cube root by table and one
//! Newton step, the once-per-jiffy update and the TCP-friendly (Reno-friendly) estimate).
//!
//! W_cubic(t) = C (t - K)^3 + W_max with C = 41 * 10 / 1024 (0.4004) packets per s^3, K =
//! cbrt(W_max (1 - beta) / C), times in 2^-10 s (`BICTCP_HZ`). The window is counted in whole
//! segments, as Linux's `snd_cwnd`; the sender's byte window is that times the MSS.
//!
//! HyStart is not here: the sender runs it for any algorithm (`tcp::hystart`), since a flow may
//! choose Linux's HyStart, RFC 9406's HyStart++ or none. What Linux's CUBIC does with it that
//! stays here: the minimum RTT (`delay_min`) that the cubic function adds to the time since the
//! epoch began, measured as `bictcp_acked` measures it.
//!
//! CHOICE: Linux's clock for the epoch is jiffies; ccsim takes HZ = 1000 (1 ms jiffies, the
//! common server configuration). RTT samples are in microseconds as Linux's `rtt_us`.
//! CHOICE: no `CA_EVENT_TX_START` epoch shift after an idle period and no `undo_cwnd`: ccsim's
//! sender neither restarts after idle nor undoes spurious reductions.
//! CHOICE: `initial_ssthresh` 0 (Linux's default): the sender's own initial ssthresh applies.

use ccsim_core::{Dur, SimTime};

use super::reno::cong_avoid_ai;
use super::{AckEvent, CaState, CongestionControl, Window};

/// Linux's `BICTCP_BETA_SCALE`.
const BETA_SCALE: u64 = 1024;
/// Linux's `BICTCP_HZ`: the cubic function's time unit is 2^-10 s.
const BICTCP_HZ: u32 = 10;
/// Jiffies per second (CHOICE above).
const HZ: u64 = 1000;

/// CUBIC's constants (Linux's module parameters of the same names).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubicParams {
    /// Multiplicative decrease, in 1024ths (717: 0.7, RFC 9438's beta_cubic).
    pub beta: u32,
    /// C in 1024ths of packets per s^3, over 10 (41: C = 0.4, RFC 9438's C).
    pub bic_scale: u32,
    /// RFC 9438 section 4.7: release bandwidth sooner when W_max shrinks.
    pub fast_convergence: bool,
    /// RFC 9438 section 4.3: never grow slower than a Reno flow would (the Reno-friendly region).
    pub tcp_friendliness: bool,
}

impl Default for CubicParams {
    fn default() -> Self {
        CubicParams {
            beta: 717,
            bic_scale: 41,
            fast_convergence: true,
            tcp_friendliness: true,
        }
    }
}

/// Linux's cube root: a table lookup of the top bits and one Newton-Raphson step (average
/// error about 0.2 %), so that nothing that feeds timing depends on a platform's libm.
#[must_use]
pub fn cubic_root(a: u64) -> u32 {
    // cbrt(x) MSB values for x MSB values in [0..63]: v = cbrt(x << 18) - 1,
    // cbrt(x) = (v[x] + 10) >> 6 (tcp_cubic.c, refined by hand by Willy Tarreau).
    const V: [u8; 64] = [
        0, 54, 54, 54, 118, 118, 118, 118, 123, 129, 134, 138, 143, 147, 151, 156, 157, 161, 164,
        168, 170, 173, 176, 179, 181, 185, 187, 190, 192, 194, 197, 199, 200, 202, 204, 206, 209,
        211, 213, 215, 217, 219, 221, 222, 224, 225, 227, 229, 231, 232, 234, 236, 237, 239, 240,
        242, 244, 245, 246, 248, 250, 251, 252, 254,
    ];
    let fls = 64 - a.leading_zeros();
    if fls < 7 {
        // a in [0..63]
        return (u32::from(V[usize::try_from(a).expect("a < 64")]) + 35) >> 6;
    }
    let b = ((fls * 84) >> 8) - 1;
    let shift = usize::try_from(a >> (b * 3)).expect("the top bits index the table");
    let mut x = ((u32::from(V[shift]) + 10) << b) >> 6;
    // x_{k+1} = (2 x_k + a / x_k^2) / 3, with Linux's x (x - 1) and / 3 as * 341 >> 10.
    let square = u64::from(x) * u64::from(x - 1);
    x = 2 * x + u32::try_from(a / square).unwrap_or(u32::MAX);
    ((u64::from(x) * 341) >> 10) as u32
}

/// CUBIC's state (Linux's `struct bictcp`, with `snd_cwnd_cnt`).
#[derive(Clone, Debug)]
pub struct Cubic {
    params: CubicParams,
    /// Linux's `beta_scale`: the Reno-friendly estimate's ACKs per segment of growth, in 8ths.
    beta_scale: u64,
    /// Linux's `cube_rtt_scale`: C in 1024ths.
    cube_rtt_scale: u64,
    /// Linux's `cube_factor`: 2^40 / C, for K in 2^-10 s.
    cube_factor: u64,
    /// ACKs per segment of growth in congestion avoidance.
    cnt: u32,
    /// W_max, segments.
    last_max_cwnd: u32,
    /// The window when `cnt` was last computed, segments.
    last_cwnd: u32,
    /// When `cnt` was last computed, jiffies.
    last_time: u32,
    /// W_max of the current epoch (the cubic function's plateau), segments.
    origin_point: u32,
    /// K, in 2^-10 s.
    k: u32,
    /// The smallest RTT sample, microseconds (0: none yet).
    delay_min: u32,
    /// When the current epoch began, jiffies (`None` before the first ACK after a reduction).
    epoch_start: Option<u32>,
    /// Segments acknowledged in this epoch not yet counted into `tcp_cwnd`.
    ack_cnt: u32,
    /// The window a Reno flow would have now (RFC 9438's W_est), segments.
    tcp_cwnd: u32,
    /// Linux's `snd_cwnd_cnt`: segments acknowledged toward the next increment.
    cwnd_cnt: u32,
    /// The time of the newest ACK, jiffies.
    now: u32,
}

/// Jiffies at `t` (wrapping, as Linux's `tcp_jiffies32`).
fn jiffies(t: SimTime) -> u32 {
    (t.0 / (1_000_000_000 / HZ)) as u32
}

/// Linux's `usecs_to_jiffies`: rounded up.
fn usecs_to_jiffies(us: u32) -> u64 {
    (u64::from(us) * HZ).div_ceil(1_000_000)
}

impl Cubic {
    /// A flow's CUBIC before its first ACK (Linux's `cubictcp_init`).
    #[must_use]
    pub fn new(params: CubicParams) -> Self {
        let beta = u64::from(params.beta);
        let bic_scale = u64::from(params.bic_scale);
        Cubic {
            params,
            beta_scale: 8 * (BETA_SCALE + beta) / 3 / (BETA_SCALE - beta),
            cube_rtt_scale: bic_scale * 10,
            cube_factor: (1u64 << (10 + 3 * BICTCP_HZ)) / (bic_scale * 10),
            cnt: 0,
            last_max_cwnd: 0,
            last_cwnd: 0,
            last_time: 0,
            origin_point: 0,
            k: 0,
            delay_min: 0,
            epoch_start: None,
            ack_cnt: 0,
            tcp_cwnd: 0,
            cwnd_cnt: 0,
            now: 0,
        }
    }

    /// Linux's `bictcp_reset`, on entering loss (timeout) recovery.
    fn reset(&mut self) {
        *self = Cubic {
            cwnd_cnt: self.cwnd_cnt,
            now: self.now,
            ..Cubic::new(self.params)
        };
    }

    /// W_max, segments (RFC 9438's W_max; 0 before the first reduction).
    #[must_use]
    pub fn w_max(&self) -> u32 {
        self.last_max_cwnd
    }

    /// K of the current epoch, seconds (0 outside an epoch or when it starts at W_max).
    #[must_use]
    pub fn k_seconds(&self) -> f64 {
        f64::from(self.k) / f64::from(1u32 << BICTCP_HZ)
    }

    /// The cubic function's target window `t` after the epoch began plus `delay_min`
    /// (`bic_target` of `bictcp_update`), segments.
    #[must_use]
    pub fn target(&self, t_bictcp: u64) -> u32 {
        let k = u64::from(self.k);
        let offs = t_bictcp.abs_diff(k);
        let delta = ((self.cube_rtt_scale * offs * offs * offs) >> (10 + 3 * BICTCP_HZ)) as u32;
        if t_bictcp < k {
            self.origin_point.saturating_sub(delta)
        } else {
            self.origin_point.saturating_add(delta)
        }
    }

    /// Linux's `bictcp_update`: the ACKs per segment of growth (`cnt`) for window `cwnd`.
    fn update(&mut self, cwnd: u32, acked: u32) {
        self.ack_cnt = self.ack_cnt.saturating_add(acked);
        if self.last_cwnd == cwnd
            && self.now.wrapping_sub(self.last_time) as i32 <= (HZ / 32) as i32
        {
            return;
        }
        // The cubic function updates cnt at most once per jiffy; a reduction clears the epoch
        // and forces a recalculation.
        if !(self.epoch_start.is_some() && self.now == self.last_time) {
            self.last_cwnd = cwnd;
            self.last_time = self.now;
            let epoch_start = if let Some(start) = self.epoch_start {
                start
            } else {
                self.epoch_start = Some(self.now);
                self.ack_cnt = acked;
                self.tcp_cwnd = cwnd;
                if self.last_max_cwnd <= cwnd {
                    self.k = 0;
                    self.origin_point = cwnd;
                } else {
                    self.k = cubic_root(self.cube_factor * u64::from(self.last_max_cwnd - cwnd));
                    self.origin_point = self.last_max_cwnd;
                }
                self.now
            };
            let t = (u64::from(self.now.wrapping_sub(epoch_start))
                + usecs_to_jiffies(self.delay_min))
                << BICTCP_HZ;
            let target = self.target(t / HZ);
            self.cnt = if target > cwnd {
                cwnd / (target - cwnd)
            } else {
                100 * cwnd
            };
            // The initial growth may be too conservative while the bandwidth is unknown.
            if self.last_max_cwnd == 0 && self.cnt > 20 {
                self.cnt = 20; // 5 % per RTT
            }
        }
        if self.params.tcp_friendliness {
            let delta = ((u64::from(cwnd) * self.beta_scale) >> 3).max(1);
            while u64::from(self.ack_cnt) > delta {
                self.ack_cnt -= delta as u32;
                self.tcp_cwnd += 1;
            }
            if self.tcp_cwnd > cwnd {
                let max_cnt = cwnd / (self.tcp_cwnd - cwnd);
                self.cnt = self.cnt.min(max_cnt);
            }
        }
        // At most 1 segment per 2 acknowledged: 1.5 times per RTT.
        self.cnt = self.cnt.max(2);
    }
}

impl CongestionControl for Cubic {
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        self.now = jiffies(ack.now);
        if !w.cwnd_limited {
            return;
        }
        let mss = w.mss;
        let mut cwnd = u32::try_from(w.cwnd / mss).unwrap_or(u32::MAX).max(1);
        let ssthresh = u32::try_from(w.ssthresh / mss).unwrap_or(u32::MAX);
        let mut acked = u32::try_from(ack.acked_segments).unwrap_or(u32::MAX);
        if cwnd < ssthresh {
            // tcp_slow_start: grow by what was acknowledged, up to ssthresh; the rest goes on.
            let grown = cwnd.saturating_add(acked).min(ssthresh);
            acked -= grown - cwnd;
            cwnd = grown;
            if acked == 0 {
                w.cwnd = u64::from(cwnd) * mss;
                return;
            }
        }
        self.update(cwnd, acked);
        let mut count = u64::from(self.cwnd_cnt);
        let grown = cong_avoid_ai(
            u64::from(cwnd),
            &mut count,
            u64::from(self.cnt),
            u64::from(acked),
        );
        self.cwnd_cnt = u32::try_from(count).unwrap_or(u32::MAX);
        w.cwnd = grown * mss;
    }

    fn ssthresh(&mut self, w: &Window) -> u64 {
        let cwnd = u32::try_from(w.cwnd / w.mss).unwrap_or(u32::MAX);
        self.epoch_start = None;
        let beta = u64::from(self.params.beta);
        self.last_max_cwnd = if cwnd < self.last_max_cwnd && self.params.fast_convergence {
            ((u64::from(cwnd) * (BETA_SCALE + beta)) / (2 * BETA_SCALE)) as u32
        } else {
            cwnd
        };
        ((u64::from(cwnd) * beta / BETA_SCALE).max(2)) * w.mss
    }

    fn on_rtt(&mut self, rtt: Dur, now: SimTime) {
        self.now = jiffies(now);
        // bictcp_acked: discard delay samples within a second of a reduction.
        if self
            .epoch_start
            .is_some_and(|e| (self.now.wrapping_sub(e) as i32) < HZ as i32)
        {
            return;
        }
        let delay = u32::try_from(rtt.as_nanos() / 1000)
            .unwrap_or(u32::MAX)
            .max(1);
        if self.delay_min == 0 || self.delay_min > delay {
            self.delay_min = delay;
        }
    }

    fn on_state(&mut self, _w: &mut Window, state: CaState, _snd_nxt: u64) {
        if state == CaState::Loss {
            self.reset();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::test_window as window;

    fn ack_at(ms: u64, acked: u64) -> AckEvent {
        AckEvent {
            now: SimTime(ms * 1_000_000),
            acked_segments: acked,
            snd_una: 0,
            snd_nxt: 0,
        }
    }

    #[test]
    fn the_cube_root_is_within_linuxs_stated_error() {
        // tcp_cubic.c: "Avg err ~= 0.195%"; every value here within 1 %, and exact for cubes.
        for a in [
            64u64,
            1000,
            27_000,
            80_452_070_310,
            1 << 40,
            123_456_789_012,
        ] {
            let exact = (a as f64).cbrt();
            let got = f64::from(cubic_root(a));
            assert!(
                (got - exact).abs() <= 0.01 * exact + 1.0,
                "cbrt({a}) = {got}, exact {exact}"
            );
        }
        assert_eq!(cubic_root(0), 0);
        assert_eq!(cubic_root(27), 3);
    }

    #[test]
    fn linuxs_constants_for_beta_0_7_and_c_0_4() {
        let c = Cubic::new(CubicParams::default());
        assert_eq!(c.beta_scale, 15); // 8 (1024 + 717) / 3 / (1024 - 717)
        assert_eq!(c.cube_rtt_scale, 410); // C = 410 / 1024 = 0.4004
        assert_eq!(c.cube_factor, (1u64 << 40) / 410);
    }

    #[test]
    fn a_loss_at_100_segments_sets_w_max_ssthresh_and_k_as_rfc_9438() {
        // RFC 9438 section 4.6: ssthresh = cwnd * beta = 70 (Linux: 100 * 717 / 1024, floored);
        // section 4.2: K = cbrt(W_max (1 - beta) / C) = cbrt(100 * 0.3 / 0.4) = 4.217 s (the
        // window restarts at 70, so W_max - cwnd = 30).
        let mut c = Cubic::new(CubicParams::default());
        let w = window(100, u64::MAX / 1000);
        assert_eq!(c.ssthresh(&w), 70 * 1000);
        assert_eq!(c.w_max(), 100);
        let mut w = window(70, 70);
        c.on_ack(&mut w, &ack_at(10_000, 1));
        let k = c.k_seconds();
        assert!((k - 4.2172).abs() < 0.01, "K = {k}");
        // A second loss below W_max: fast convergence (section 4.7) sets W_max to
        // cwnd (1 + beta) / 2 = 80 * 1741 / 2048 = 68.
        let _ = c.ssthresh(&window(80, 70));
        assert_eq!(c.w_max(), 68);
    }

    #[test]
    fn the_window_follows_the_cubic_function() {
        // W(t) = C (t - K)^3 + W_max at worked points of the epoch after a loss at 100:
        // t = K: 100; t = K + 2 s: 100 + 0.4004 * 8 = 103.2 (integer 103); t = K + 5 s:
        // 100 + 0.4004 * 125 = 150.05 (150); t = 0: 100 - 0.4004 * 4.2172^3 = 70.0.
        let mut c = Cubic::new(CubicParams::default());
        let _ = c.ssthresh(&window(100, u64::MAX / 1000));
        let mut w = window(70, 70);
        c.on_ack(&mut w, &ack_at(0, 1));
        let k = u64::from(c.k);
        assert_eq!(c.target(k), 100);
        assert_eq!(c.target(k + 2 * 1024), 103);
        assert_eq!(c.target(k + 5 * 1024), 150);
        assert!((69..=71).contains(&c.target(0)), "{}", c.target(0));
    }

    #[test]
    fn congestion_avoidance_tracks_the_target_over_time() {
        // After a loss at 100 segments with a 100 ms RTT, acknowledging a window's worth every
        // RTT: the window climbs toward W_max, flattens near it around K (4.2 s), then probes
        // beyond it (RFC 9438 Figure 1's concave then convex shape).
        let mut c = Cubic::new(CubicParams::default());
        c.on_rtt(Dur::from_millis(100), SimTime(0));
        let ss = c.ssthresh(&window(100, u64::MAX / 1000));
        let mut w = window(ss / 1000, ss / 1000);
        let mut at = |ms: u64, w: &mut Window| {
            let segments = w.cwnd / 1000;
            for i in 0..segments {
                c.on_ack(w, &ack_at(ms + i * 100 / segments, 1));
            }
            w.cwnd / 1000
        };
        let mut history = vec![];
        for r in 0..80 {
            history.push(at(r * 100, &mut w));
        }
        let (early, plateau, late) = (history[10], history[42], history[79]);
        assert!(early > 80 && early < 100, "{history:?}");
        assert!((95..=102).contains(&plateau), "{history:?}");
        assert!(late > 120, "{history:?}");
        // Concave before K: the first second adds more than the second before K.
        assert!(
            history[10] - history[0] > history[42] - history[32],
            "{history:?}"
        );
    }

    #[test]
    fn the_reno_friendly_region_keeps_pace_with_reno_at_small_windows() {
        // RFC 9438 section 4.3: at a small W_max and short RTT CUBIC's curve is flatter than
        // Reno's; the estimate W_est grows 3 (1 - beta) / (1 + beta) = 0.53 segments per RTT
        // and CUBIC follows it. After a loss at 10 segments, 50 RTTs of 10 ms: Reno-like
        // growth gives about 7 + 0.53 * 50 = 33 segments, the cubic function alone about 12.
        let mut c = Cubic::new(CubicParams::default());
        c.on_rtt(Dur::from_millis(10), SimTime(0));
        let ss = c.ssthresh(&window(10, u64::MAX / 1000));
        let mut w = window(ss / 1000, ss / 1000);
        for r in 0..50u64 {
            let segments = w.cwnd / 1000;
            for i in 0..segments {
                c.on_ack(&mut w, &ack_at(1000 + r * 10 + i * 10 / segments, 1));
            }
        }
        let friendly = w.cwnd / 1000;
        let mut off = Cubic::new(CubicParams {
            tcp_friendliness: false,
            ..CubicParams::default()
        });
        off.on_rtt(Dur::from_millis(10), SimTime(0));
        let ss = off.ssthresh(&window(10, u64::MAX / 1000));
        let mut w = window(ss / 1000, ss / 1000);
        for r in 0..50u64 {
            let segments = w.cwnd / 1000;
            for i in 0..segments {
                off.on_ack(&mut w, &ack_at(1000 + r * 10 + i * 10 / segments, 1));
            }
        }
        assert!((28..=36).contains(&friendly), "{friendly}");
        assert!(
            w.cwnd / 1000 < friendly - 10,
            "{} {friendly}",
            w.cwnd / 1000
        );
    }

    #[test]
    fn slow_start_grows_by_what_was_acknowledged_up_to_ssthresh() {
        let mut c = Cubic::new(CubicParams::default());
        let mut w = window(10, 12);
        c.on_ack(&mut w, &ack_at(5, 5)); // 10 + 2 to ssthresh, 3 left for the cubic update
        assert_eq!(w.cwnd / 1000, 12);
        let mut w = window(10, 100);
        c.on_ack(&mut w, &ack_at(6, 2));
        assert_eq!(w.cwnd, 12_000);
        // A window the sender is not using does not grow (tcp_is_cwnd_limited).
        let mut w = Window {
            cwnd_limited: false,
            ..window(10, 100)
        };
        c.on_ack(&mut w, &ack_at(7, 2));
        assert_eq!(w.cwnd, 10_000);
    }

    #[test]
    fn a_timeout_forgets_the_epoch_and_w_max() {
        let mut c = Cubic::new(CubicParams::default());
        c.on_rtt(Dur::from_millis(50), SimTime(0));
        let _ = c.ssthresh(&window(100, u64::MAX / 1000));
        let mut w = window(1, 70);
        c.on_state(&mut w, CaState::Loss, 0);
        assert_eq!((c.w_max(), c.delay_min, c.epoch_start), (0, 0, None));
    }
}
