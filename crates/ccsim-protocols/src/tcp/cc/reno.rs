//! RFC 5681 window growth: slow start and congestion avoidance.
//!
//! CHOICE: slow start adds min(bytes acknowledged, MSS) per ACK (RFC 5681 equation 2, no
//! appropriate byte counting); congestion avoidance adds max(1, MSS*MSS/cwnd) bytes per ACK
//! (RFC 5681 equation 3). Tahoe, Reno, NewReno and SACK share this growth; they differ in
//! loss recovery only.
//! Neither grows a window the sender is not using ([`Window::cwnd_limited`]).

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
