//! RFC 8985 section 7: the tail loss probe.

use super::{TcpSender, Timer};
use crate::tcp::cc::CaState;
use crate::{Hdr, SackBlock};
use ccsim_core::{Ctx, Dur, SimTime};

/// RFC 8985 section 7.2's WCDelAckT, the worst-case delayed-ACK time, added to the probe
/// timeout when one segment is outstanding.
const WORST_CASE_DELAYED_ACK: Dur = Dur::from_millis(200);

/// The probe's state, for a sender that probes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tlp {
    /// TLP.end_seq: a probe is out until the ACK point reaches it.
    pub(super) end: Option<u64>,
    /// Whether the probe was a retransmission, and of which segment.
    retrans: bool,
    seq: u64,
}

impl TcpSender {
    /// RFC 8985 section 7.2: arm the probe timeout while the sender is in the open state with
    /// data outstanding and no probe out: 2 SRTT (plus the worst-case delayed-ACK time with
    /// one segment outstanding; 1 s before an RTT sample), unless the retransmission timer
    /// expires first.
    pub(super) fn schedule_probe<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if !matches!(self.state, CaState::Open | CaState::Cwr)
            || self.tlp.is_none_or(|t| t.end.is_some())
            || self.snd_una == self.snd_max
        {
            ctx.cancel_timer(Timer::Probe.slot());
            return;
        }
        let pto = match self.rtt.srtt() {
            Some(srtt) if self.snd_max - self.snd_una == 1 => {
                Dur(2 * srtt.0) + WORST_CASE_DELAYED_ACK
            }
            Some(srtt) => Dur(2 * srtt.0),
            None => Dur::from_secs(1),
        };
        // RFC 8985 7.2: no later than the retransmission timer would fire. CHOICE: 1 ns
        // before it, so the probe goes first (Linux runs the probe on the RTO's timer).
        let mut at = ctx.now() + pto;
        if let Some(deadline) = self.rto_deadline {
            at = at.min(SimTime(deadline.0.saturating_sub(1)));
        }
        if at <= ctx.now() {
            ctx.cancel_timer(Timer::Probe.slot());
        } else {
            ctx.set_timer(Timer::Probe.slot(), at);
        }
    }

    /// RFC 8985 section 7.3: send one probe, new data if the receiver window allows, else
    /// the highest unSACKed segment again, and re-arm the retransmission timer.
    pub(super) fn on_probe_timer<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let Some(mut tlp) = self.tlp else { return };
        if !matches!(self.state, CaState::Open | CaState::Cwr)
            || tlp.end.is_some()
            || self.snd_una == self.snd_max
        {
            return;
        }
        if self.snd_nxt == self.snd_max
            && self.snd_max < self.data_limit()
            && self.snd_max - self.snd_una < self.max_window
        {
            let seq = self.snd_nxt;
            self.send_segment(seq, ctx);
            self.snd_nxt += 1;
            self.snd_max = self.snd_nxt;
            tlp.retrans = false;
        } else if let Some(seq) = self.board.highest_unsacked() {
            self.send_segment(seq, ctx);
            tlp.retrans = true;
            tlp.seq = seq;
        } else {
            return;
        }
        self.loss_probes += 1;
        tlp.end = Some(self.snd_max);
        self.tlp = Some(tlp);
        self.arm_rto(ctx);
    }

    /// RFC 8985 section 7.4 (as Linux's `tcp_process_tlp_ack`): end the probe's episode, and
    /// reduce the window if the probe repaired a loss.
    pub(super) fn tlp_process_ack(
        &mut self,
        ack: u64,
        una_before: u64,
        had_sack: bool,
        dsack: Option<SackBlock>,
    ) {
        let Some(tlp) = self.tlp.as_mut() else { return };
        let Some(end) = tlp.end else { return };
        if ack < end {
            return;
        }
        if !tlp.retrans || dsack.is_some_and(|d| d.start <= tlp.seq && tlp.seq < d.end) {
            tlp.end = None; // new data, or the original and the probe both arrived
        } else if ack > end {
            // The probe repaired a loss: reduce as for a congestion event (Linux: CWR; a
            // model-based algorithm keeps its window, `tcp_end_cwnd_reduction`).
            tlp.end = None;
            if self.state == CaState::Open {
                self.ssthresh = self.cwnd_ssthresh();
                self.reduce_window(self.ssthresh);
            }
        } else if ack == una_before && !had_sack {
            tlp.end = None; // a pure duplicate: both arrived
        }
    }
}
