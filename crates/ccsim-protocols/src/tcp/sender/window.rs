//! Who sets the window ([`Control`]: a window algorithm or a model-based one), the window
//! the algorithm sees and sets ([`Window`]), window validation, and limited transmit.
//!
//! Window validation (RFC 7661's problem, solved as Linux's `tcp_is_cwnd_limited` does):
//! the window grows on an ACK only if the sender filled it during the last window of data,
//! or, in slow start, while it is below twice the most segments outstanding in that window.
//! A sender held back by pacing, the receiver window or the application therefore keeps
//! its window near what it uses instead of growing it without bound.
//! CHOICE: Linux's rule rather than RFC 7661's pipeACK measurement and non-validated phase
//! (the rule ns-3 and Linux users meet in practice); `cwnd_limited_growth = false` restores
//! RFC 5681's unconditional growth. Vegas's once-per-round adjustment is not gated, as in
//! Linux's `tcp_vegas_cong_avoid`.
//!
//! Limited transmit (RFC 3042, `limited_transmit`, off by default; ns-2.35's agents run it,
//! their `singledup_ 1`): on each
//! of the first two duplicate ACKs in the open state, one new segment, if the receiver window
//! allows and what is outstanding stays within cwnd + 2 segments; cwnd is unchanged, and the
//! FlightSize that sets ssthresh at the fast retransmit leaves those segments out (RFC 5681
//! section 3.2, step 2). The receiver window is `max_window` (unbounded by default).

use super::TcpSender;
use crate::tcp::cc::{AnyCc, CongestionControl, Window};
use crate::Hdr;
use ccsim_core::Ctx;

/// Who sets the window, as Linux's `tcp_cong_control` chooses: a window algorithm, which the
/// sender asks how to grow the window on an ACK and what the threshold is after a congestion
/// event, and whose window the loss recovery cuts (`tcp_cong_avoid`, `tcp_cwnd_reduction`); or
/// a model-based algorithm, which sets the window and the pacing rate itself on every ACK from
/// its rate sample (`cong_control`) and which congestion events only inform.
#[derive(Debug)]
pub(super) enum Control {
    /// A window algorithm.
    Window(AnyCc),
    /// A model-based algorithm ([`AnyCc::sets_window`]).
    Model(ModelControl),
}

/// A model-based algorithm and the sender's wait for it.
#[derive(Debug)]
pub(super) struct ModelControl {
    pub(super) cc: AnyCc,
    /// While an ACK is processed, sending waits until the algorithm has set the window for
    /// it; the first retransmission of a recovery waits in `first_retransmission`.
    pub(super) deferred: bool,
}

impl Control {
    pub(super) fn new(cc: AnyCc) -> Self {
        if cc.sets_window() {
            Control::Model(ModelControl {
                cc,
                deferred: false,
            })
        } else {
            Control::Window(cc)
        }
    }

    /// The algorithm.
    pub(super) fn cc(&self) -> &AnyCc {
        match self {
            Control::Window(cc) | Control::Model(ModelControl { cc, .. }) => cc,
        }
    }

    pub(super) fn cc_mut(&mut self) -> &mut AnyCc {
        match self {
            Control::Window(cc) | Control::Model(ModelControl { cc, .. }) => cc,
        }
    }

    /// Whether sending waits for a model-based algorithm's decision on this ACK.
    pub(super) fn deferred(&self) -> bool {
        matches!(self, Control::Model(ModelControl { deferred: true, .. }))
    }
}

impl TcpSender {
    /// Cut the window to `cwnd` on a congestion event, unless a model-based algorithm sets
    /// it (Linux leaves such a window to `cong_control`).
    pub(super) fn reduce_window(&mut self, cwnd: u64) {
        if let Control::Window(_) = self.control {
            self.cwnd = cwnd;
        }
    }

    /// Whether the loss recovery sets the window (a window algorithm's, not a model's).
    pub(super) fn recovery_sets_window(&self) -> bool {
        matches!(self.control, Control::Window(_))
    }

    pub(super) fn window(&self) -> Window {
        Window {
            cwnd: self.cwnd,
            ssthresh: self.ssthresh,
            mss: self.mss,
            flight: self.flight_size(),
            cwnd_limited: self.may_grow(),
        }
    }

    /// Linux `tcp_is_cwnd_limited`: whether an ACK may grow the window.
    pub(super) fn may_grow(&self) -> bool {
        !self.cwnd_limited_growth
            || self.cwnd_limited
            || (self.cwnd < self.ssthresh && self.cwnd < 2 * self.max_packets_out * self.mss)
    }

    /// Linux `tcp_cwnd_validate`, after a round of transmissions: remember for the current
    /// window of data whether the window was full (`limited`), or else the most segments
    /// outstanding.
    pub(super) fn note_window_use(&mut self, limited: bool) {
        let packets_out = self.snd_nxt.saturating_sub(self.snd_una);
        if self.snd_una >= self.cwnd_usage_seq
            || limited
            || (!self.cwnd_limited && packets_out > self.max_packets_out)
        {
            self.cwnd_limited = limited;
            self.max_packets_out = packets_out;
            self.cwnd_usage_seq = self.snd_nxt;
        }
    }

    pub(super) fn set_window(&mut self, w: Window) {
        self.cwnd = w.cwnd;
        self.ssthresh = w.ssthresh;
    }

    /// The algorithm's slow-start threshold for an ECN echo now.
    pub(super) fn congestion_ssthresh(&mut self) -> u64 {
        let w = self.window();
        self.control.cc_mut().ssthresh(&w)
    }

    /// The algorithm's slow-start threshold for a loss now, from a FlightSize without the
    /// segments limited transmit sent (RFC 5681 section 3.2, step 2).
    pub(super) fn loss_ssthresh(&mut self) -> u64 {
        let mut w = self.window();
        w.flight = w.flight.saturating_sub(self.limited_sent * self.mss);
        self.control.cc_mut().loss_ssthresh(&w)
    }

    /// RFC 3042: one new segment on a duplicate ACK, if the receiver window allows and what
    /// is outstanding stays within cwnd + 2 segments.
    pub(super) fn limited_transmit<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let outstanding = self.snd_max - self.snd_una;
        if self.snd_nxt == self.snd_max
            && self.snd_max < self.data_limit()
            && outstanding < self.max_window
            && outstanding < self.cwnd / self.mss + 2
        {
            let seq = self.snd_nxt;
            self.send_segment(seq, ctx);
            self.snd_nxt += 1;
            self.snd_max = self.snd_nxt;
            self.limited_sent += 1;
        }
    }
}
