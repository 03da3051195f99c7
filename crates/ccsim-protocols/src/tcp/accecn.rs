//! Accurate ECN feedback (draft-ietf-tcpm-accurate-ecn, AccECN): the receiver counts the
//! CE-marked packets it receives and returns the count modulo 8 in the ACE field (the AE,
//! CWR and ECE bits) of every ACK, so the sender learns how many segments were marked, not
//! only that some were (RFC 3168's latched ECE).
//!
//! Both ends start the CE packet counter at 5 (section 3.2.2.1: so that a zero ACE is never
//! valid on the first ACK). The sender's estimate of what an ACK reports is the increase of
//! the ACE value modulo 8 since the last ACK that delivered data; when an ACK delivers more
//! than 7 segments the field may have wrapped, and without the AccECN option the sender
//! assumes the largest count consistent with the field (Linux's `tcp_accecn_process`: the
//! "safe" delta, section 3.2.2.5.2's advice to err towards more marks).
//!
//! The receiver sends an ACK at once when a CE-marked packet arrives after one that was not
//! (section 3.2.2.5.1, change-triggered ACKs) and when 2 CE marks have arrived since its last
//! ACK (the section's `n`); otherwise its delayed-ACK rules apply.
//!
//! CHOICE: no AccECN TCP option (the byte counters): the draft makes the option optional and
//! an ACK header stays the size of a classic one; the ACE field alone carries the feedback,
//! with the safe delta above on wrap.
//! CHOICE: both ends of a flow are configured together, so the handshake (when the flow has
//! one) always negotiates AccECN: the SYN carries AE, CWR and ECE set, the SYN-ACK the
//! answer for a Not-ECT SYN (AE = 0, CWR = 1, ECE = 0, section 3.1.2's table 2).
//! CHOICE: an ACK that delivers nothing (a duplicate without new SACK information) is not
//! read, as Linux ignores ACE without forward progress.

/// The CE packet counter's initial value (section 3.2.2.1).
pub const CEP_INIT: u64 = 5;
/// The ACE field's modulus.
const ACE_MASK: u64 = 7;
/// CE marks since the last ACK that trigger an immediate ACK (section 3.2.2.5.1's `n`).
pub const CE_MARKS_PER_ACK: u32 = 2;

/// The ACE value a receiver with `cep` CE packets counted puts in an ACK.
#[must_use]
pub fn ace_of(cep: u64) -> u8 {
    (cep & ACE_MASK) as u8
}

/// The sender's side: its running estimate of the receiver's CE packet counter.
#[derive(Clone, Debug)]
pub struct AccEcnSender {
    cep: u64,
}

impl Default for AccEcnSender {
    fn default() -> Self {
        AccEcnSender { cep: CEP_INIT }
    }
}

impl AccEcnSender {
    /// An ACK with field `ace` that delivered `delivered` segments: the CE-marked segments
    /// it reports.
    pub fn on_ace(&mut self, ace: u8, delivered: u64) -> u64 {
        if delivered == 0 {
            return 0;
        }
        let delta = (u64::from(ace).wrapping_sub(self.cep)) & ACE_MASK;
        let delta = if delivered > ACE_MASK {
            // The field may have wrapped: the largest count below `delivered` with this
            // residue.
            delivered - ((delivered - delta) & ACE_MASK)
        } else {
            delta
        };
        self.cep += delta;
        delta
    }

    /// CE-marked segments reported so far.
    #[cfg(test)]
    #[must_use]
    pub fn ce_reported(&self) -> u64 {
        self.cep - CEP_INIT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The receiver's counter, read by the sender through the 3-bit field, gives the exact
    /// number of marks for ACKs of up to 7 segments.
    #[test]
    fn the_sender_recovers_each_acks_marks() {
        let mut cep = CEP_INIT;
        let mut s = AccEcnSender::default();
        let pattern = [(2, 1), (2, 0), (1, 1), (2, 2), (7, 7), (3, 0), (6, 5)];
        let mut total = 0;
        for (delivered, marks) in pattern {
            cep += marks;
            total += marks;
            assert_eq!(s.on_ace(ace_of(cep), delivered), marks);
        }
        assert_eq!(s.ce_reported(), total);
    }

    /// An ACK of more than 7 segments whose marks wrapped the field is read as the largest
    /// count consistent with it (never fewer marks than happened, if at most `delivered`).
    #[test]
    fn a_wrapped_field_is_read_as_the_safe_count() {
        let mut s = AccEcnSender::default();
        // 20 segments, 11 marked: ACE advances by 11 mod 8 = 3; the safe reading is the
        // largest value <= 20 congruent to 3: 19.
        let ace = ace_of(CEP_INIT + 11);
        assert_eq!(s.on_ace(ace, 20), 19);
        // 9 segments, none marked: residue 0, the safe reading 8.
        let mut s = AccEcnSender::default();
        assert_eq!(s.on_ace(ace_of(CEP_INIT), 9), 8);
    }

    /// An ACK that delivers nothing does not move the estimate.
    #[test]
    fn an_ack_without_progress_is_not_read() {
        let mut s = AccEcnSender::default();
        assert_eq!(s.on_ace(ace_of(CEP_INIT + 3), 0), 0);
        assert_eq!(s.on_ace(ace_of(CEP_INIT + 3), 2), 3);
    }
}
