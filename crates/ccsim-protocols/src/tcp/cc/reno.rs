//! RFC 5681 window growth: slow start and congestion avoidance.
//!
//! CHOICE: slow start adds min(bytes acknowledged, MSS) per ACK (RFC 5681 equation 2, no
//! appropriate byte counting); congestion avoidance adds max(1, MSS*MSS/cwnd) bytes per ACK
//! (RFC 5681 equation 3). Tahoe, Reno, NewReno and SACK share this growth; they differ in
//! loss recovery only.
//! Neither grows a window the sender is not using ([`Window::cwnd_limited`]).
//!
//! [`LinuxReno`] (`growth = "linux"`) is Linux's `tcp_reno_cong_avoid` instead: slow start
//! adds every segment an ACK acknowledges (up to ssthresh, `tcp_slow_start`), and congestion
//! avoidance adds one segment per cwnd segments acknowledged (`tcp_cong_avoid_ai`), so a
//! receiver that delays its ACKs does not halve the growth (the effect of RFC 3465's
//! appropriate byte counting).

use super::{AckEvent, CongestionControl, Window};

/// RFC 5681 slow start and congestion avoidance.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reno;

impl Reno {
    /// One ACK's worth of RFC 5681 growth (shared with algorithms that fall back to it).
    #[inline]
    pub fn grow(w: &mut Window, acked_segments: u64) {
        if !w.cwnd_limited {
            return;
        }
        if w.in_slow_start() {
            w.cwnd += (acked_segments * w.mss).min(w.mss);
        } else {
            w.cwnd += (w.mss * w.mss / w.cwnd).max(1);
        }
    }
}

/// Linux's `tcp_cong_avoid_ai(tp, w, acked)` in whole segments: one segment of growth per
/// `per` segments acknowledged, `count` carrying the acknowledged segments between calls.
#[inline]
pub fn cong_avoid_ai(cwnd: u64, count: &mut u64, per: u64, acked: u64) -> u64 {
    let per = per.max(1);
    let mut cwnd = cwnd;
    // Credits accumulated at a higher `per` are applied gently now.
    if *count >= per {
        *count = 0;
        cwnd += 1;
    }
    *count += acked;
    if *count >= per {
        let delta = *count / per;
        *count -= delta * per;
        cwnd += delta;
    }
    cwnd
}

impl CongestionControl for Reno {
    #[inline]
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        Reno::grow(w, ack.acked_segments);
    }
}

/// Linux's Reno growth (`tcp_reno_cong_avoid`): acknowledged segments counted, not ACKs.
#[derive(Clone, Copy, Debug, Default)]
pub struct LinuxReno {
    /// Segments acknowledged towards the next one of growth (Linux's `snd_cwnd_cnt`).
    cwnd_cnt: u64,
}

impl CongestionControl for LinuxReno {
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        if !w.cwnd_limited {
            return;
        }
        let mss = w.mss;
        let mut cwnd = (w.cwnd / mss).max(1);
        let ssthresh = w.ssthresh / mss;
        let mut acked = ack.acked_segments;
        if cwnd < ssthresh {
            // tcp_slow_start: grow by what was acknowledged, up to ssthresh; the rest goes on.
            let grown = (cwnd + acked).min(ssthresh);
            acked -= grown - cwnd;
            cwnd = grown;
            if acked == 0 {
                w.cwnd = cwnd * mss;
                return;
            }
        }
        w.cwnd = cong_avoid_ai(cwnd, &mut self.cwnd_cnt, cwnd, acked) * mss;
    }

    fn on_state(&mut self, _w: &mut Window, state: super::CaState, _snd_nxt: u64) {
        if state != super::CaState::Open {
            self.cwnd_cnt = 0; // Linux's tcp_init_cwnd_reduction
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccsim_core::SimTime;

    fn window(cwnd_segments: u64, ssthresh_segments: u64) -> Window {
        Window {
            cwnd: cwnd_segments * 1000,
            ssthresh: ssthresh_segments * 1000,
            mss: 1000,
            flight: cwnd_segments * 1000,
            cwnd_limited: true,
        }
    }

    fn ack(acked_segments: u64) -> AckEvent {
        AckEvent {
            now: SimTime::ZERO,
            acked_segments,
            snd_una: 0,
            snd_nxt: 0,
        }
    }

    /// With ACKs of two segments (a delaying receiver), Linux's growth adds one segment per
    /// window acknowledged, RFC 5681's per-ACK rule half of one.
    #[test]
    fn delayed_acks_do_not_halve_linux_growth() {
        let (mut linux, mut rfc) = (window(20, 10), window(20, 10));
        let mut cc = LinuxReno::default();
        for _ in 0..10 {
            cc.on_ack(&mut linux, &ack(2));
            Reno.on_ack(&mut rfc, &ack(2));
        }
        assert_eq!(linux.cwnd, 21_000, "20 segments acknowledged: one more");
        assert!(rfc.cwnd >= 20_400 && rfc.cwnd < 20_600, "{}", rfc.cwnd);
    }

    /// Slow start adds every acknowledged segment, up to ssthresh, and the rest goes to
    /// congestion avoidance.
    #[test]
    fn slow_start_adds_the_acknowledged_segments_up_to_ssthresh() {
        let mut w = window(10, 100);
        let mut cc = LinuxReno::default();
        cc.on_ack(&mut w, &ack(2));
        assert_eq!(w.cwnd, 12_000);
        let mut w = window(10, 11);
        cc.on_ack(&mut w, &ack(2));
        assert_eq!(
            w.cwnd, 11_000,
            "one to ssthresh; the other is one of the 11 needed"
        );
        let mut idle = window(10, 100);
        idle.cwnd_limited = false;
        cc.on_ack(&mut idle, &ack(2));
        assert_eq!(idle.cwnd, 10_000);
    }
}
