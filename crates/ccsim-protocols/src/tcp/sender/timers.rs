//! The sender's timers: the retransmission timer (RFC 6298), the pacing timer, the SYN's
//! retransmission; RACK's reordering timer and the tail loss probe's are in `rack_loss.rs`
//! and `tlp.rs`.

use super::{Recovery, RecoveryPolicy, TcpSender};
use crate::tcp::cc::{AnyCc, CaState, CongestionControl};
use crate::Hdr;
use ccsim_core::{Ctx, TimerSlot};

/// The sender's timers, each in a slot of its own (`ccsim_core::TimerSlot`). The
/// retransmission timer's deadline is `TcpSender::rto_deadline`, kept for the probe timer,
/// which must not outlast it; the others' are the engine's alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Timer {
    /// The retransmission timer (RFC 6298), and the SYN's before the connection is open.
    Retransmission,
    /// Pacing's release time (`tcp/pacing.rs`) and paced slow start's.
    Pacing,
    /// RACK's reordering timer (RFC 8985 section 6.3).
    Reordering,
    /// The tail loss probe's timer (RFC 8985 section 7.2).
    Probe,
}

impl Timer {
    const ALL: [Timer; 4] = [
        Timer::Retransmission,
        Timer::Pacing,
        Timer::Reordering,
        Timer::Probe,
    ];

    /// Its slot.
    pub(super) fn slot(self) -> TimerSlot {
        TimerSlot(self as u8)
    }

    /// The timer of a slot that fired.
    pub(super) fn of(slot: TimerSlot) -> Option<Timer> {
        Self::ALL.get(usize::from(slot.0)).copied()
    }
}
/// SYN retransmissions before the sender gives up (Linux's `tcp_syn_retries`).
pub(super) const MAX_SYN_RETRIES: u32 = 6;

impl TcpSender {
    pub(super) fn arm_rto<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let deadline = ctx.now() + self.rtt.rto();
        self.rto_deadline = Some(deadline);
        ctx.set_timer(Timer::Retransmission.slot(), deadline);
    }

    /// The SYN's timer expired: send it again, up to Linux's `tcp_syn_retries` (6) times,
    /// then give up (the flow sends nothing).
    pub(super) fn on_syn_timeout<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.rto_deadline = None;
        self.stats.timeouts += 1;
        if self.syn_retries >= MAX_SYN_RETRIES || self.stopped {
            return;
        }
        self.syn_retries += 1;
        self.rtt.back_off();
        self.send_syn(ctx);
    }

    pub(super) fn on_rto<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if !self.established {
            self.on_syn_timeout(ctx);
            return;
        }
        self.rto_deadline = None;
        if self.snd_una == self.snd_max {
            return;
        }
        self.stats.timeouts += 1;
        if let Some(tlp) = self.tlp.as_mut() {
            tlp.end = None;
        }
        self.first_retransmission = None;
        // RFC 5681 eq. 4 on the first timeout of a series; a timeout of the same segment
        // again keeps ssthresh (RFC 5681 section 3.1, note on repeated retransmissions).
        // CHOICE: a SACK sender takes the data in the network as RFC 6675's pipe, not
        // FlightSize, as ns-3 does (`GetSsThresh(tcb, BytesInFlight())`, its pipe): a hole
        // that stalls snd_una through a long recovery would otherwise inflate ssthresh by
        // everything SACKed above it. Linux takes half the window, which the preceding
        // recovery has already reduced to about the same.
        // Linux `tcp_enter_loss`: a timeout inside a recovery or window reduction whose data
        // is not yet all acknowledged keeps the ssthresh already reduced in this window.
        let reduced_in_this_window = self.policy == RecoveryPolicy::Linux
            && match self.state {
                CaState::Recovery => self.recover.is_some_and(|r| self.snd_una <= r),
                CaState::Cwr => self.snd_una <= self.ecn_recover,
                CaState::Open | CaState::Loss => false,
            };
        if self.ns2_rules() {
            // ns-2.35's `timeout`: `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_RESTART)` on every
            // expiry with data outstanding, the window halved again after a back-off.
            // Reno's `timeout` first clears `dupwnd_`: the window halved is cwnd without
            // the recovery's inflation, which ccsim folds into cwnd (at most ssthresh then).
            let window = if self.state == CaState::Recovery
                && matches!(self.recovery, Recovery::Reno | Recovery::NewReno)
            {
                self.cwnd.min(self.ssthresh)
            } else {
                self.cwnd
            };
            self.ssthresh = self.ns2_half(window);
        } else if !self.backed_off && !reduced_in_this_window {
            self.ssthresh = match (self.recovery, self.policy) {
                (Recovery::Sack, RecoveryPolicy::Linux) => self.cwnd_ssthresh(),
                (Recovery::Sack, _) => self.pipe_ssthresh(),
                _ => self.loss_ssthresh(),
            };
        }
        self.backed_off = true;
        let window_before = self.cwnd;
        self.cwnd = self.mss; // loss window, RFC 5681 section 3.1
        let mut w = self.window();
        self.control.cc_mut().on_rto(&mut w);
        if let AnyCc::VegasNs2(v) = self.control.cc_mut() {
            v.timeout(&mut w, window_before, self.max_window, ctx.now());
        }
        self.set_window(w);
        self.recover = Some(self.snd_max - 1); // RFC 6582 section 4, RFC 6675 section 5.1
                                               // CHOICE: the SACK scoreboard survives the timeout, so go-back-N skips what the
                                               // receiver holds, as Linux (`tcp_timeout_mark_lost` keeps SACKed segments unless
                                               // it detects reneging) and ns-3 (`SetSentListLost` keeps the SACKed flags) do;
                                               // RFC 2018 section 8's "clear on timeout" guards against reneging, which this
                                               // simulator's receivers never do, and RFC 6675 section 5.1 allows keeping it.
        self.dupacks = 0;
        self.rtt.back_off();
        self.timed = None;
        if self.sends_by_pipe_after_rto() {
            // ns-3 `SetSentListLost`, then `SendPendingData` by the pipe (recovery.rs).
            self.board.mark_lost_below(self.snd_max);
            self.rxt_next = self.snd_una;
            self.set_state(CaState::Loss);
            self.sack_transmit(ctx);
        } else {
            self.snd_nxt = self.snd_una; // go back N
            self.set_state(CaState::Loss);
            self.send_allowed(ctx);
        }
        if self.rto_deadline.is_none() {
            self.arm_rto(ctx);
        }
    }

    pub(super) fn on_pace_timer<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if let Some(p) = self.pacer.as_mut() {
            p.armed = false;
        }
        if let Some(p) = self.pacing.as_mut() {
            p.armed = false;
            self.transmit(ctx);
        } else {
            self.send_allowed(ctx);
        }
    }
}
