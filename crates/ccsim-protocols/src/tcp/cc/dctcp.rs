//! DCTCP (RFC 8257) as Linux computes it: `net/ipv4/tcp_dctcp.c` of Linux 6.x.
//!
//! Once per window of data (when the ACK point passes the `snd_nxt` of the last update) the
//! sender updates alpha = (1 - g) alpha + g F, with F the fraction of the segments delivered in
//! that window whose ACKs echoed CE, g = 1/16 (`dctcp_shift_g = 4`), alpha in 1024ths
//! starting at 1024 (`dctcp_alpha_on_init`). An ECN echo reduces the window, once per window
//! of data as RFC 3168's reaction, to cwnd (1 - alpha / 2); a loss halves it (RFC 8257 section
//! 3.5, Linux's `dctcp_react_to_loss`: the response ns-3.44's DCTCP lacks). Growth is Reno's
//! in whole segments (`tcp_reno_cong_avoid`: slow start by the segments acknowledged,
//! congestion avoidance one segment per window).
//!
//! The receiver echoes CE per segment (`TcpSink::with_ce_echo`, RFC 8257 section 3.2) and the
//! sender counts a segment as marked when the ACK that delivers it carries ECE, as Linux's
//! `delivered_ce`.
//! CHOICE: segments delivered by a SACK block count as delivered when the block arrives, as
//! Linux's `tcp_count_delivered`.

use super::reno::LinuxReno;
use super::{AckEvent, CaState, CongestionControl, Delivery, Window};

/// alpha's scale (Linux's `DCTCP_MAX_ALPHA`).
pub const MAX_ALPHA: u32 = 1024;

/// DCTCP's constants (Linux's module parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DctcpParams {
    /// g = 2^-shift_g (4: 1/16, RFC 8257 section 4.2's recommendation).
    pub shift_g: u32,
    /// alpha before the first update, in 1024ths (1024: assume full congestion).
    pub initial_alpha: u32,
}

impl Default for DctcpParams {
    fn default() -> Self {
        DctcpParams {
            shift_g: 4,
            initial_alpha: MAX_ALPHA,
        }
    }
}

/// DCTCP's state (Linux's `struct dctcp`, with `snd_cwnd_cnt`).
#[derive(Clone, Debug)]
pub struct Dctcp {
    params: DctcpParams,
    alpha: u32,
    /// The ACK point that ends the current observation window.
    next_seq: u64,
    /// Segments delivered, and of those marked, since the flow began.
    delivered: u64,
    delivered_ce: u64,
    /// The same at the start of the observation window.
    old_delivered: u64,
    old_delivered_ce: u64,
    /// The window's growth: Linux's `tcp_reno_cong_avoid`, as `dctcp_cong_avoid` calls it.
    growth: LinuxReno,
}

impl Dctcp {
    /// A flow's DCTCP before its first ACK.
    #[must_use]
    pub fn new(params: DctcpParams) -> Self {
        Dctcp {
            params,
            alpha: params.initial_alpha.min(MAX_ALPHA),
            next_seq: 0,
            delivered: 0,
            delivered_ce: 0,
            old_delivered: 0,
            old_delivered_ce: 0,
            growth: LinuxReno::default(),
        }
    }

    /// alpha, in 1024ths.
    #[must_use]
    pub fn alpha(&self) -> u32 {
        self.alpha
    }

    /// Linux's `dctcp_update_alpha` (its `in_ack_event`).
    fn update_alpha(&mut self, snd_una: u64, snd_nxt: u64) {
        if snd_una < self.next_seq {
            return;
        }
        let delivered = self.delivered - self.old_delivered;
        let delivered_ce = self.delivered_ce - self.old_delivered_ce;
        let mut alpha = self.alpha;
        // alpha = (1 - g) alpha + g F; min_not_zero keeps a small alpha decaying to 0.
        let decay = alpha >> self.params.shift_g;
        alpha -= if decay == 0 { alpha } else { decay };
        if delivered_ce > 0 {
            let f = (delivered_ce << (10 - self.params.shift_g)) / delivered.max(1);
            alpha = (alpha + u32::try_from(f).unwrap_or(MAX_ALPHA)).min(MAX_ALPHA);
        }
        self.alpha = alpha;
        self.next_seq = snd_nxt;
        self.old_delivered = self.delivered;
        self.old_delivered_ce = self.delivered_ce;
    }
}

impl CongestionControl for Dctcp {
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        self.growth.on_ack(w, ack);
    }

    /// The reduction on an ECN echo: cwnd (1 - alpha / 2), at least 2 segments.
    fn ssthresh(&mut self, w: &Window) -> u64 {
        let cwnd = w.cwnd / w.mss;
        (cwnd - ((cwnd * u64::from(self.alpha)) >> 11)).max(2) * w.mss
    }

    /// RFC 8257 section 3.5: a loss halves the window, whatever alpha.
    fn loss_ssthresh(&mut self, w: &Window) -> u64 {
        ((w.cwnd / w.mss) >> 1).max(2) * w.mss
    }

    fn on_delivery(&mut self, d: &Delivery) {
        self.delivered += d.segments;
        self.delivered_ce += d.ce.min(d.segments);
        self.update_alpha(d.snd_una, d.snd_nxt);
    }

    fn on_state(&mut self, w: &mut Window, state: CaState, snd_nxt: u64) {
        self.growth.on_state(w, state, snd_nxt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::test_window as window;

    fn delivery(segments: u64, ece: bool, snd_una: u64, snd_nxt: u64) -> Delivery {
        Delivery {
            segments,
            ece,
            ce: if ece { segments } else { 0 },
            snd_una,
            snd_nxt,
        }
    }

    #[test]
    fn alpha_moves_a_sixteenth_of_the_way_to_the_marked_fraction_once_per_window() {
        // RFC 8257 section 3.3: alpha = (1 - g) alpha + g F. From alpha = 1024 with no marks:
        // 1024 - 64 = 960, then 900, ... (Linux: alpha -= alpha >> 4). With a quarter of a
        // window marked from alpha = 0: 0 + (256 << 6) / 1024... F = 1/4 gives g F = 16.
        let mut d = Dctcp::new(DctcpParams::default());
        d.on_delivery(&delivery(10, false, 10, 20)); // the first ACK ends window [0, 0)
        assert_eq!(d.alpha(), 960);
        d.on_delivery(&delivery(9, false, 19, 30)); // inside the window ending at 20
        assert_eq!(d.alpha(), 960);
        d.on_delivery(&delivery(1, false, 20, 30)); // ends it: no marks
        assert_eq!(d.alpha(), 900);
        let mut d = Dctcp::new(DctcpParams {
            initial_alpha: 0,
            ..DctcpParams::default()
        });
        d.on_delivery(&delivery(1, false, 0, 100));
        d.on_delivery(&delivery(75, false, 75, 100));
        d.on_delivery(&delivery(25, true, 100, 200));
        // The window [0, 100) held 100 segments, 25 of them marked: g F = (25 << 6) / 100 = 16.
        assert_eq!(d.alpha(), 16);
        // Every segment marked for long: alpha converges to 1024 (F = 1).
        for k in 0..200u64 {
            d.on_delivery(&delivery(
                100,
                true,
                200 + 100 * (k + 1),
                300 + 100 * (k + 1),
            ));
        }
        assert!(d.alpha() > 1000, "{}", d.alpha());
    }

    #[test]
    fn an_ecn_echo_takes_alpha_half_and_a_loss_takes_half() {
        // RFC 8257 section 3.3: cwnd = cwnd (1 - alpha / 2); section 3.5: a loss halves it.
        let mut d = Dctcp::new(DctcpParams {
            initial_alpha: 256,
            ..DctcpParams::default()
        });
        let w = window(100, 50);
        assert_eq!(d.ssthresh(&w), 88 * 1000); // 100 - 100 * 256 / 2048 = 87.5, floored 100 - 12
        assert_eq!(d.loss_ssthresh(&w), 50 * 1000);
        let mut full = Dctcp::new(DctcpParams::default());
        assert_eq!(full.ssthresh(&w), 50 * 1000); // alpha = 1: halve
        let mut none = Dctcp::new(DctcpParams {
            initial_alpha: 0,
            ..DctcpParams::default()
        });
        assert_eq!(none.ssthresh(&w), 100 * 1000);
        assert_eq!(none.loss_ssthresh(&w), 50 * 1000); // ns-3.44 would keep 100 here
        assert_eq!(none.ssthresh(&window(2, 2)), 2 * 1000);
    }

    #[test]
    fn growth_is_renos_in_whole_segments() {
        let mut d = Dctcp::new(DctcpParams::default());
        let ack = |n| AckEvent {
            now: ccsim_core::SimTime::ZERO,
            acked_segments: n,
            snd_una: 0,
            snd_nxt: 0,
        };
        let mut w = window(10, 100);
        d.on_ack(&mut w, &ack(2)); // slow start: + 2
        assert_eq!(w.cwnd, 12_000);
        let mut w = window(10, 10);
        for _ in 0..10 {
            d.on_ack(&mut w, &ack(1)); // one segment per window in congestion avoidance
        }
        assert_eq!(w.cwnd, 11_000);
    }
}
