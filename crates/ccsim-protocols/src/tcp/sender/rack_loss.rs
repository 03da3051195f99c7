//! RFC 8985 RACK: losses detected by time, and the reordering timer.

use super::{TcpSender, Timer};
use crate::tcp::cc::CaState;
use crate::Hdr;
use ccsim_core::{Ctx, Dur};

impl TcpSender {
    /// RFC 8985 section 6.2 step 5 and 6.3: mark what RACK finds lost (`una` is the ACK
    /// point after this ACK) and arm or stop the reordering timer.
    pub(super) fn rack_detect_loss<C: Ctx<Hdr>>(&mut self, una: u64, dsack: bool, ctx: &mut C) {
        let Some(rack) = self.rack.as_deref_mut() else {
            return;
        };
        let now = ctx.now();
        let srtt = self.rtt.srtt().unwrap_or(Dur::from_secs(1));
        let in_recovery = matches!(self.state, CaState::Recovery | CaState::Loss);
        let reo_wnd = rack.reo_wnd(
            dsack,
            una,
            self.snd_max,
            in_recovery,
            self.board.sacked(),
            srtt,
        );
        let board = &self.board;
        let (lost, timeout) = rack.detect_loss(now, reo_wnd, |seq, t| {
            if seq < una {
                crate::tcp::rack::SegState::Gone
            } else {
                board.rack_state(seq, t)
            }
        });
        for &seq in lost {
            if self.board.mark_lost(seq) {
                self.rxt_next = self.rxt_next.min(seq);
            }
        }
        match timeout {
            Some(d) => ctx.set_timer(Timer::Reordering.slot(), now + d),
            None => ctx.cancel_timer(Timer::Reordering.slot()),
        }
    }

    /// RACK's reordering timer (RFC 8985 section 6.3): detect again, and recover.
    pub(super) fn on_reo_timer<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let before = self.board.marked_lost();
        self.rack_detect_loss(self.snd_una, false, ctx);
        if self.board.marked_lost() == before {
            return;
        }
        if matches!(self.state, CaState::Open | CaState::Cwr) {
            self.ack_delivered = 0;
            self.enter_fast_recovery(ctx);
        } else {
            self.transmit(ctx);
        }
    }
}
