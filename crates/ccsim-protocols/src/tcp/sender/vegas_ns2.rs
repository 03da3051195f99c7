//! The loss half of TCP Vegas as ns-2 runs it (tcp/tcp-vegas.cc, `VegasTcpAgent::recv`); the
//! window half and the fine-grained timer are `cc/vegas_ns2.rs`.
//!
//! * On every duplicate ACK, if the oldest unacknowledged segment has outlived the
//!   fine-grained timer (`vegas_expire`), or on the third duplicate, it is retransmitted at
//!   once: Vegas's early retransmission, without waiting for three duplicates. Unless the
//!   window was reduced after the segment left, it is reduced (by a quarter, or by half for a
//!   segment already retransmitted) and inflated by the duplicates; further duplicates
//!   inflate it by one segment each (Reno).
//! * The first ACK of new data deflates the window and ends the episode (Reno, not NewReno:
//!   a partial ACK does not retransmit by itself). Instead, on each of the first two ACKs of
//!   new data after the retransmission (`v_worried_`), the segment the ACK asks for next is
//!   retransmitted if it has outlived the fine-grained timer; the window is not reduced again.
//! * A fast retransmit backs off the coarse timer and restarts it (`reset_rtx_timer(1)`).
//!
//! After a timeout no fast retransmit starts before the ACK point passes the data outstanding
//! at the timeout (ns-2's `bug_fix_`, on by default: `highest_ack_ > recover_`).
//! CHOICE: the worried count survives a timeout, as ns-2's `timeout()` leaves `v_worried_`.

use ccsim_core::Ctx;

use super::{AnyCc, CaState, TcpSender};
use crate::Hdr;

impl TcpSender {
    fn vegas_ns2_expired(&self, seq: u64, now: ccsim_core::SimTime) -> Option<bool> {
        let AnyCc::VegasNs2(v) = self.control.cc() else {
            return None;
        };
        let seg = self.board.get(seq)?;
        Some(v.expired(seg.snap.sent_time, now))
            .filter(|&e| e)
            .map(|_| seg.retx)
    }

    /// A duplicate ACK (`VegasTcpAgent::recv`, the `seqno == last_ack_` branch).
    pub(super) fn vegas_ns2_dup_ack<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let now = ctx.now();
        self.dupacks += 1;
        let threshold = self.dupack_threshold;
        let expired = self.vegas_ns2_expired(self.snd_una, now);
        // bug_fix_: no fast retransmit on duplicates of data sent before a timeout, until
        // highest_ack_ > recover_ (ns-2's numbering: snd_una - 1 > snd_max - 1 then).
        let after_timeout = self.recover.is_some_and(|r| self.snd_una <= r + 1);
        let segment = self
            .board
            .get(self.snd_una)
            .map(|s| (s.snap.sent_time, s.retx));
        if expired.is_some() || self.dupacks == threshold {
            if let (false, Some((sent, retransmitted_before))) = (after_timeout, segment) {
                // t_seqno_ - last_ack_ in ns-2's numbering: the segments outstanding plus one.
                self.vegas_ns2_worried = (self.snd_nxt + 1 - self.snd_una).min(2);
                let mut w = self.window();
                let (dupacks, max_window) = (self.dupacks, self.max_window);
                if let AnyCc::VegasNs2(v) = self.control.cc_mut() {
                    v.fast_retransmit(&mut w, max_window, sent, retransmitted_before, dupacks, now);
                }
                self.set_window(w);
                self.rtt.back_off();
                self.timed = None;
                self.arm_rto(ctx);
                self.set_state(CaState::Recovery);
                self.send_segment(self.snd_una, ctx);
                if !retransmitted_before {
                    self.dupacks = threshold;
                }
            }
        } else if self.dupacks > threshold {
            self.cwnd += self.mss;
        }
        if self.dupacks >= threshold {
            self.send_allowed(ctx);
        }
    }

    /// An ACK of new data (before the ACK point moves): after a fast retransmit's inflation,
    /// deflate, whether the retransmission came on duplicates or from the worried check; and
    /// leave fast recovery.
    pub(super) fn vegas_ns2_deflate(&mut self) {
        if self.dupacks > self.dupack_threshold {
            let mut w = self.window();
            if let AnyCc::VegasNs2(v) = self.control.cc_mut() {
                v.deflate(&mut w);
            }
            self.set_window(w);
        }
        self.dupacks = 0;
        if self.state == CaState::Recovery {
            self.set_state(CaState::Open);
        }
    }

    /// After the window update of an ACK of new data: the check of `v_worried_`.
    pub(super) fn vegas_ns2_worried_check<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.vegas_ns2_worried == 0 {
            return;
        }
        self.vegas_ns2_worried -= 1;
        if self.snd_una < self.snd_max && self.vegas_ns2_expired(self.snd_una, ctx.now()).is_some()
        {
            self.dupacks = self.dupack_threshold;
            self.send_segment(self.snd_una, ctx);
        } else {
            self.vegas_ns2_worried = 0;
        }
    }
}
