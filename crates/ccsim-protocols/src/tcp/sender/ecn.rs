//! ECN on the sender: what an ACK reports CE-marked (RFC 3168's echo, DCTCP's per-segment
//! echo, AccECN's count, `tcp/accecn.rs`) and the reaction to it (RFC 3168 section 6.1).
//!
//! ECN (RFC 3168 section 6.1): data segments of an ECN-capable flow are ECT, except
//! retransmissions (section 6.1.5); an ACK with ECE halves the window (the algorithm's
//! ssthresh) at most once per window of data, the ACK does not grow the window, and the
//! next new segment carries CWR.
//! CHOICE: the reduction window ends when the first new segment sent after the reduction
//! (the one carrying CWR) is acknowledged, not when the data outstanding at the reduction
//! is: ACKs that leave the receiver before CWR reaches it still echo the old CE mark, and a
//! small window acknowledged in one burst would otherwise be halved twice within a round
//! trip. Reductions are thus at least one round trip apart (RFC 3168 section 6.1.2, "more
//! loosely, once every round-trip time").
//! CHOICE: a fast retransmit while the window is already reduced for ECN in the same
//! window, or an ECE during loss recovery or after a timeout, does not reduce it again
//! (section 6.1.2: react at most once per window of data).

use super::TcpSender;
use crate::tcp::accecn::AccEcnOption;
use crate::tcp::cc::CaState;

impl TcpSender {
    /// The segments the ACK being processed reports CE-marked, and whether it echoes ECE:
    /// AccECN's count (its bytes counted with the flow's short last segment when this ACK
    /// delivers it), or, for an RFC 3168 or per-segment echo, every segment it delivered
    /// when it carries ECE.
    pub(super) fn ce_reported(
        &mut self,
        ece: bool,
        ace: Option<u8>,
        accecn_option: Option<&AccEcnOption>,
        last_delivered: bool,
    ) -> (bool, u64) {
        match (self.accecn.as_mut(), ace) {
            (Some(a), Some(ace)) => {
                let mut bytes = self.ack_delivered * self.mss;
                if last_delivered {
                    bytes -= self.mss - u64::from(self.last_payload);
                }
                let open = matches!(self.state, CaState::Open | CaState::Cwr);
                let ce = a.on_ack(ace, self.ack_delivered, bytes, accecn_option, open);
                (ce > 0, ce)
            }
            _ => (ece, if ece { self.ack_delivered } else { 0 }),
        }
    }

    /// RFC 3168 section 6.1.2 for an ACK up to `ack` with ECE; returns whether the window
    /// was reduced.
    pub(super) fn on_ece(&mut self, ack: u64) -> bool {
        if !self.ecn {
            return false;
        }
        if self.state == CaState::Cwr && ack > self.ecn_recover {
            self.set_state(CaState::Open);
        }
        if self.state != CaState::Open {
            return false;
        }
        self.ssthresh = self.congestion_ssthresh();
        self.reduce_window(self.ssthresh);
        self.ecn_recover = self.snd_max;
        // AccECN senders do not signal CWR: the count replaces the echo's latch.
        self.send_cwr = self.accecn.is_none();
        self.set_state(CaState::Cwr);
        true
    }
}
