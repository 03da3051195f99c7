//! Accurate ECN feedback (draft-ietf-tcpm-accurate-ecn, AccECN): the receiver counts the
//! CE-marked packets it receives and returns the count modulo 8 in the ACE field (the AE,
//! CWR and ECE bits) of every ACK, so the sender learns how many segments were marked, not
//! only that some were (RFC 3168's latched ECE).
//!
//! Both ends start the CE packet counter at 5 (section 3.2.2.1: so that a zero ACE is never
//! valid on the first ACK). The sender's estimate of what an ACK reports is the increase of
//! the ACE value modulo 8 since the last ACK that delivered data; when an ACK delivers more
//! than 7 segments the field may have wrapped, and the sender assumes the largest count
//! consistent with the field (the "safe" delta, section 3.2.2.5.2's advice to err towards
//! more marks) unless the AccECN option says otherwise.
//!
//! The receiver sends an ACK at once when a CE-marked packet arrives after one that was not
//! (section 3.2.2.5.1, change-triggered ACKs) and when 2 CE marks have arrived since its last
//! ACK (the section's `n`); otherwise its delayed-ACK rules apply.
//!
//! The AccECN option (section 3.2.3): the receiver also counts the payload bytes of the
//! packets it receives with each ECN codepoint, 24 bits each, ECT(0) and ECT(1) from 1 and CE
//! from 0 (section 3.2.1), and echoes them in a TCP option of kind 174 (order 1: the ECT(1),
//! CE and ECT(0) counters, each field optional from the end; 2, 5, 8 or 11 bytes). As Linux
//! (`tcp_options_fit_accecn`, `tcp_ecn_option = 2`, its default) it tries all three fields on
//! every ACK, fewer when they do not fit beside SACK and timestamps, never fewer than the
//! fields whose counters changed since the last option (section 3.2.3.2), and removes SACK
//! blocks, down to two, to make room for those; an option whose length leaves 1 or 2 bytes
//! over a 4-byte word takes them from the two NOPs that pad a SACK option. The sender keeps
//! its own copy of the counters and, when an ACK may have wrapped the ACE field, reads the CE
//! byte increase as Linux's `__tcp_accecn_process` does (the draft's appendix A.2.2): no CE
//! bytes means no wrap; with SACK (or outside recovery) and 16 or more segments delivered, the
//! CE segments estimated from the bytes decide the wraps; otherwise more CE bytes than the
//! unwrapped count of segments could carry means the safe count, fewer than half the safe
//! count's bytes the unwrapped one.
//!
//! CHOICE: both ends of a flow are configured together, so the handshake (when the flow has
//! one) always negotiates AccECN: the SYN carries AE, CWR and ECE set, the SYN-ACK the
//! answer for a Not-ECT SYN (AE = 0, CWR = 1, ECE = 0, section 3.1.2's table 2).
//! CHOICE: an ACK that delivers nothing (a duplicate without new SACK information) is not
//! read, as Linux ignores ACE without forward progress.
//! CHOICE: the SYN-ACK carries no option (its counters would all be initial values); the
//! first ACK of the data phase does. Linux's estimate of which counter an ACK without the
//! option advanced (`est_ecnfield`) is kept, though every ACK here carries the option when it
//! fits.

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

/// TCP option kind of the AccECN option in order 1 (ECT(1), CE, ECT(0)), as Linux sends it.
pub const ACCECN_OPTION_KIND: u8 = 174;
/// The option's kind and length bytes.
const OPTION_BASE_BYTES: u32 = 2;
/// Bytes per counter field.
const FIELD_BYTES: u32 = 3;
/// The counters' modulus (24-bit fields).
const FIELD_MASK: u32 = 0xff_ffff;
/// Initial values of the byte counters (section 3.2.1), by field in order 1.
const E1B_INIT: u32 = 1;
const CEB_INIT: u32 = 0;
const E0B_INIT: u32 = 1;
/// Bytes of option space in a TCP header (RFC 9293 section 3.1).
pub const TCP_OPTION_SPACE: u32 = 40;
/// Bytes of one SACK block.
const SACK_BLOCK_BYTES: u32 = 8;
/// Linux's `TCP_ACCECN_SAFETY_SHIFT` (the draft's SAFETY_FACTOR of 2).
const SAFETY_SHIFT: u32 = 1;

/// One AccECN option as the receiver sent it: the byte counters (24-bit wire values, their
/// initial offsets included) and how many of them it carries, in order 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccEcnOption {
    /// Fields carried (0 to 3): ECT(1) bytes, then CE bytes, then ECT(0) bytes.
    pub fields: u8,
    /// The ECT(1) byte counter (r.e1b) modulo 2^24.
    pub e1b: u32,
    /// The CE byte counter (r.ceb) modulo 2^24.
    pub ceb: u32,
    /// The ECT(0) byte counter (r.e0b) modulo 2^24.
    pub e0b: u32,
    /// Bytes the option adds to the header: its length rounded to a 4-byte word, or rounded
    /// down when the 1 or 2 bytes over take the NOPs of a SACK option.
    pub wire_bytes: u8,
}

impl AccEcnOption {
    /// The option's length field: 2 + 3 per counter.
    #[must_use]
    pub fn length(&self) -> u8 {
        (OPTION_BASE_BYTES + FIELD_BYTES * u32::from(self.fields)) as u8
    }

    /// The counters carried, in wire order (ECT(1), CE, ECT(0)).
    #[must_use]
    pub fn counters(&self) -> &'static [usize] {
        &[0, 1, 2][..usize::from(self.fields)]
    }

    /// Counter `i` in wire order.
    #[must_use]
    pub fn counter(&self, i: usize) -> u32 {
        [self.e1b, self.ceb, self.e0b][i]
    }
}

/// Linux's `tcp_options_fit_accecn` for an ACK: the most fields (at least `required`) that
/// fit in `remaining` option bytes, and the option's size there; when `required` fields do not
/// fit beside more than two SACK blocks, blocks are removed one at a time (`sack_blocks` is
/// lowered) until they do. `None` (and `sack_blocks` unchanged) when they cannot fit.
#[must_use]
pub fn fit_option(required: u8, remaining: u32, sack_blocks: &mut usize) -> Option<(u8, u32)> {
    // The 1 or 2 bytes past a word can share the two NOPs before a SACK option.
    let combine_saving = if *sack_blocks > 0 { 2 } else { 0 };
    let mut removed = 0u32;
    let mut room = remaining;
    let mut fields: u8 = 3;
    loop {
        let size = OPTION_BASE_BYTES + FIELD_BYTES * u32::from(fields);
        let aligned = if size % 4 > combine_saving {
            size.div_ceil(4) * 4
        } else {
            size / 4 * 4
        };
        if room >= aligned {
            *sack_blocks -= removed as usize;
            return Some((fields, aligned));
        }
        if fields == required && *sack_blocks - removed as usize > 2 && required > 0 {
            removed += 1;
            room += SACK_BLOCK_BYTES;
            fields = 3;
            continue;
        }
        if fields == 0 || fields <= required {
            return None;
        }
        fields -= 1;
    }
}

/// The receiver's side: the CE packet counter of the ACE field, the byte counters of the
/// option, and its change-triggered ACK state.
#[derive(Clone, Debug)]
pub struct AccEcnReceiver {
    /// CE-marked packets received, from [`CEP_INIT`].
    cep: u64,
    /// Payload bytes received with ECT(1), CE and ECT(0) (order 1), from their initial
    /// values, modulo 2^32 (sent modulo 2^24).
    bytes: [u32; 3],
    /// The highest field (1 to 3) whose counter changed since the last option sent.
    changed_fields: u8,
    /// Whether the last data packet was CE-marked.
    last_ce: bool,
    /// CE marks since the last ACK.
    ce_since_ack: u32,
    /// Whether ACKs carry the option.
    option: bool,
}

impl AccEcnReceiver {
    /// A receiver that sends the option on every ACK where it fits when `option` is set.
    #[must_use]
    pub fn new(option: bool) -> Self {
        AccEcnReceiver {
            cep: CEP_INIT,
            bytes: [E1B_INIT, CEB_INIT, E0B_INIT],
            changed_fields: 0,
            last_ce: false,
            ce_since_ack: 0,
            option,
        }
    }

    /// A data packet arrived with codepoint `ecn` and `payload` bytes: whether it calls for
    /// an ACK at once (section 3.2.2.5.1).
    pub fn on_data(&mut self, ecn: ccsim_core::Ecn, payload: u32) -> bool {
        use ccsim_core::Ecn;
        let ce = ecn == Ecn::Ce;
        let field = match ecn {
            Ecn::NotEct => None,
            Ecn::Ect1 => Some(0),
            Ecn::Ce => Some(1),
            Ecn::Ect => Some(2),
        };
        if let (Some(i), true) = (field, payload > 0) {
            self.bytes[i] = self.bytes[i].wrapping_add(payload);
            self.changed_fields = self.changed_fields.max(i as u8 + 1);
        }
        let mut ack_now = false;
        if ce {
            self.cep += 1;
            self.ce_since_ack += 1;
            ack_now = !self.last_ce || self.ce_since_ack >= CE_MARKS_PER_ACK;
        }
        self.last_ce = ce;
        ack_now
    }

    /// The ACE field for the next ACK.
    #[must_use]
    pub fn ace(&self) -> u8 {
        ace_of(self.cep)
    }

    /// The option for the next ACK, given the option bytes left beside timestamps and the
    /// SACK blocks about to be sent (`sack_blocks` may be lowered to make room); `None` when
    /// the option is off or does not fit. Resets the ACK's per-ACK state.
    pub fn on_ack_sent(&mut self, remaining: u32, sack_blocks: &mut usize) -> Option<AccEcnOption> {
        self.ce_since_ack = 0;
        if !self.option {
            return None;
        }
        let (fields, wire_bytes) = fit_option(self.changed_fields, remaining, sack_blocks)?;
        self.changed_fields = 0;
        Some(AccEcnOption {
            fields,
            e1b: self.bytes[0] & FIELD_MASK,
            ceb: self.bytes[1] & FIELD_MASK,
            e0b: self.bytes[2] & FIELD_MASK,
            wire_bytes: wire_bytes as u8,
        })
    }
}

/// The sender's side: its running estimates of the receiver's CE packet counter and byte
/// counters.
#[derive(Clone, Debug)]
pub struct AccEcnSender {
    cep: u64,
    /// The byte counters as last read (order 1: ECT(1), CE, ECT(0)).
    bytes: [u32; 3],
    /// Linux's `est_ecnfield`: the counter (1 to 3) that ACKs without the option are
    /// assumed to advance, 0 for none.
    estimated_field: u8,
    /// The flow's segment payload, bytes (Linux's `mss_cache`).
    mss: u64,
    /// Whether the flow uses SACK (its delivered counts are then exact in recovery too).
    sack: bool,
}

impl AccEcnSender {
    /// A sender whose segments carry `mss` payload bytes, using SACK when `sack` is set.
    #[must_use]
    pub fn new(mss: u64, sack: bool) -> Self {
        AccEcnSender {
            cep: CEP_INIT,
            bytes: [E1B_INIT, CEB_INIT, E0B_INIT],
            estimated_field: 0,
            mss,
            sack,
        }
    }

    /// An ACK with field `ace` that delivered `delivered` segments of `delivered_bytes`
    /// payload bytes: the CE-marked segments it reports. `option` is the ACK's AccECN option;
    /// `open` says whether the sender is out of loss recovery (state Open or CWR): with SACK
    /// or then, the delivered counts are exact, as Linux requires for its multi-wrap estimate.
    pub fn on_ack(
        &mut self,
        ace: u8,
        delivered: u64,
        delivered_bytes: u64,
        option: Option<&AccEcnOption>,
        open: bool,
    ) -> u64 {
        let sack_or_open = self.sack || open;
        if delivered == 0 {
            return 0;
        }
        let old_ceb = self.bytes[1];
        let option_valid = self.read_option(option, delivered_bytes);
        let delta = (u64::from(ace).wrapping_sub(self.cep)) & ACE_MASK;
        let delta = if delivered <= ACE_MASK {
            delta
        } else {
            // The field may have wrapped: the largest count below `delivered` with this
            // residue, unless the CE bytes say fewer.
            let safe = delivered - ((delivered - delta) & ACE_MASK);
            if option_valid {
                self.disambiguate(
                    delta,
                    safe,
                    delivered,
                    delivered_bytes,
                    old_ceb,
                    sack_or_open,
                )
            } else {
                safe
            }
        };
        self.cep += delta;
        delta
    }

    /// Linux's `tcp_accecn_process_option`: update the byte counters from the option (or, on
    /// an ACK without it, add the delivered bytes to the estimated counter); whether the CE
    /// byte increase can be trusted.
    fn read_option(&mut self, option: Option<&AccEcnOption>, delivered_bytes: u64) -> bool {
        let Some(opt) = option else {
            if self.estimated_field > 0 {
                let i = usize::from(self.estimated_field - 1);
                self.bytes[i] = self.bytes[i].wrapping_add(delivered_bytes as u32);
                return true;
            }
            return false;
        };
        // Each counter's change is judged against the estimate the ACK arrived with.
        let estimate = self.estimated_field;
        let mut valid = estimate > 0;
        let mut ambiguous = false;
        let mut first_changed = false;
        for &i in opt.counters() {
            // The 24-bit difference, read as signed: a decrease means a reordered option.
            let diff = opt.counter(i).wrapping_sub(self.bytes[i]) & FIELD_MASK;
            let diff = ((diff << 8) as i32) >> 8;
            self.bytes[i] = self.bytes[i].wrapping_add(diff as u32);
            if diff < 0 {
                valid = false;
                ambiguous = true;
            }
            let field = i as u8 + 1;
            if diff != 0 && field != estimate {
                if first_changed {
                    valid = false;
                    ambiguous = true;
                } else {
                    self.estimated_field = field;
                    first_changed = true;
                }
            }
        }
        if ambiguous {
            self.estimated_field = 0;
        }
        valid
    }

    /// The CE count of an ACK that may have wrapped the ACE field, from the CE bytes
    /// (the draft's appendix A.2.2 as Linux applies it).
    fn disambiguate(
        &self,
        delta: u64,
        safe: u64,
        delivered: u64,
        delivered_bytes: u64,
        old_ceb: u32,
        sack_or_open: bool,
    ) -> u64 {
        let d_ceb = u64::from(self.bytes[1].wrapping_sub(old_ceb));
        if d_ceb == 0 {
            return delta;
        }
        if delivered >= 2 * (ACE_MASK + 1) && sack_or_open {
            if delivered_bytes <= d_ceb {
                return safe;
            }
            let estimated = (d_ceb * delivered).div_ceil(delivered_bytes);
            return safe.min(delta + (estimated & !ACE_MASK));
        }
        let mss = self.mss;
        if d_ceb > delta * mss {
            return safe;
        }
        if d_ceb < (safe * mss) >> SAFETY_SHIFT {
            return delta;
        }
        safe
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

    const MSS: u64 = 1448;

    /// The receiver's counter, read by the sender through the 3-bit field, gives the exact
    /// number of marks for ACKs of up to 7 segments.
    #[test]
    fn the_sender_recovers_each_acks_marks() {
        let mut cep = CEP_INIT;
        let mut s = AccEcnSender::new(MSS, false);
        let pattern = [(2, 1), (2, 0), (1, 1), (2, 2), (7, 7), (3, 0), (6, 5)];
        let mut total = 0;
        for (delivered, marks) in pattern {
            cep += marks;
            total += marks;
            assert_eq!(
                s.on_ack(ace_of(cep), delivered, delivered * MSS, None, true),
                marks
            );
        }
        assert_eq!(s.ce_reported(), total);
    }

    /// An ACK of more than 7 segments whose marks wrapped the field is read as the largest
    /// count consistent with it (never fewer marks than happened, if at most `delivered`).
    #[test]
    fn a_wrapped_field_is_read_as_the_safe_count() {
        let mut s = AccEcnSender::new(MSS, false);
        // 20 segments, 11 marked: ACE advances by 11 mod 8 = 3; the safe reading is the
        // largest value <= 20 congruent to 3: 19.
        let ace = ace_of(CEP_INIT + 11);
        assert_eq!(s.on_ack(ace, 20, 20 * MSS, None, true), 19);
        // 9 segments, none marked: residue 0, the safe reading 8.
        let mut s = AccEcnSender::new(MSS, false);
        assert_eq!(s.on_ack(ace_of(CEP_INIT), 9, 9 * MSS, None, true), 8);
    }

    /// An ACK that delivers nothing does not move the estimate.
    #[test]
    fn an_ack_without_progress_is_not_read() {
        let mut s = AccEcnSender::new(MSS, false);
        assert_eq!(s.on_ack(ace_of(CEP_INIT + 3), 0, 0, None, true), 0);
        assert_eq!(s.on_ack(ace_of(CEP_INIT + 3), 2, 2 * MSS, None, true), 3);
    }

    /// Option sizes as Linux fits them: all three fields (11 bytes, padded to 12) beside
    /// timestamps alone; beside SACK the fields that fit, sharing the SACK option's NOPs.
    #[test]
    fn the_option_takes_the_fields_that_fit() {
        let mut blocks = 0;
        // Timestamps only: 28 bytes left.
        assert_eq!(fit_option(0, 28, &mut blocks), Some((3, 12)));
        // Timestamps and one SACK block (12 bytes): 16 left; 11 bytes need 12.
        let mut blocks = 1;
        assert_eq!(fit_option(0, 16, &mut blocks), Some((3, 12)));
        // Two blocks (20 bytes): 8 left: two fields, exactly 8.
        let mut blocks = 2;
        assert_eq!(fit_option(0, 8, &mut blocks), Some((2, 8)));
        // Three blocks fill the space: an empty option in the SACK option's two NOPs.
        let mut blocks = 3;
        assert_eq!(fit_option(0, 0, &mut blocks), Some((0, 0)));
        assert_eq!(blocks, 3);
        // One field (5 bytes) in 4 bytes: 1 byte shares a NOP of the SACK option.
        let mut blocks = 3;
        assert_eq!(fit_option(0, 4, &mut blocks), Some((1, 4)));
        // Without SACK, one field needs a whole 8.
        let mut blocks = 0;
        assert_eq!(fit_option(1, 7, &mut blocks), None);
        assert_eq!(fit_option(1, 8, &mut blocks), Some((2, 8)));
    }

    /// Linux's table (net-next "tcp: accecn: try to fit AccECN option with SACK"): with
    /// three SACK blocks, a required field that does not fit takes one block's room; never
    /// below two blocks.
    #[test]
    fn sack_blocks_give_way_to_required_fields_down_to_two() {
        for (required, remaining, fields, size, left) in [
            (0, 0, 0, 0, 3),
            (1, 0, 2, 8, 2),
            (1, 4, 1, 4, 3),
            (2, 0, 2, 8, 2),
            (2, 8, 2, 8, 3),
            (3, 4, 3, 12, 2),
            (3, 12, 3, 12, 3),
        ] {
            let mut blocks = 3;
            let fit = fit_option(required, remaining, &mut blocks);
            // The size returned is the option's; the removed block's 8 bytes come back
            // as room the SACK option no longer takes.
            assert_eq!(
                fit,
                Some((fields, size)),
                "required {required}, remaining {remaining}"
            );
            assert_eq!(blocks, left, "required {required}, remaining {remaining}");
        }
        // Three required fields in 0 bytes: two blocks leave 8, too few; nothing is sent and
        // the blocks stay.
        let mut blocks = 3;
        assert_eq!(fit_option(3, 0, &mut blocks), None);
        assert_eq!(blocks, 3);
    }

    /// The receiver counts payload bytes per codepoint from the draft's initial values, and
    /// an option carries at least the fields that changed since the last one.
    #[test]
    fn the_receiver_counts_bytes_per_codepoint() {
        use ccsim_core::Ecn;
        let mut r = AccEcnReceiver::new(true);
        r.on_data(Ecn::Ect1, 1000);
        r.on_data(Ecn::Ce, 1000);
        r.on_data(Ecn::NotEct, 1000);
        r.on_data(Ecn::Ect1, 0);
        let mut blocks = 0;
        let opt = r.on_ack_sent(28, &mut blocks).expect("fits");
        assert_eq!((opt.e1b, opt.ceb, opt.e0b), (1001, 1000, 1));
        assert_eq!((opt.fields, opt.length(), opt.wire_bytes), (3, 11, 12));
        assert_eq!(r.ace(), ace_of(CEP_INIT + 1));
        // ECT(0) bytes changed: all three fields are required; they do not fit in 8 bytes.
        r.on_data(Ecn::Ect, 500);
        assert_eq!(r.on_ack_sent(8, &mut blocks), None);
        assert_eq!(r.on_ack_sent(12, &mut blocks).map(|o| o.e0b), Some(501));
        // Nothing changed: an empty option fits where there is room for one.
        assert_eq!(r.on_ack_sent(4, &mut blocks).map(|o| o.fields), Some(0));
        // The counters wrap at 2^24.
        for _ in 0..17_000 {
            r.on_data(Ecn::Ce, 1000);
        }
        let opt = r.on_ack_sent(28, &mut blocks).expect("fits");
        assert_eq!(opt.ceb, (1000 + 17_000 * 1000) & 0xff_ffff);
        assert_eq!(
            AccEcnReceiver::new(false).on_ack_sent(28, &mut blocks),
            None
        );
    }

    /// An ACK of many segments that wrapped the ACE field: without the option the safe
    /// reading, with it the CE bytes give the count (Linux's `__tcp_accecn_process`).
    #[test]
    fn the_option_resolves_a_wrapped_field() {
        /// A Prague-like flow's counters: ECT(1) bytes for unmarked segments, CE bytes for
        /// marked ones; `ack` delivers `n` segments of which `ce` are marked.
        struct Path {
            cep: u64,
            e1b: u64,
            ceb: u64,
            sender: AccEcnSender,
        }
        impl Path {
            fn new() -> Self {
                let mut p = Path {
                    cep: CEP_INIT,
                    e1b: 1,
                    ceb: 0,
                    sender: AccEcnSender::new(MSS, false),
                };
                // A first ACK of one unmarked segment: the sender learns that ACKs advance
                // the ECT(1) counter, so the next option's deltas are trusted.
                assert_eq!(p.ack(1, 0, true, true), 0);
                p
            }
            fn ack(&mut self, n: u64, ce: u64, option: bool, open: bool) -> u64 {
                self.cep += ce;
                self.e1b += (n - ce) * MSS;
                self.ceb += ce * MSS;
                let opt = AccEcnOption {
                    fields: 3,
                    e1b: (self.e1b & 0xff_ffff) as u32,
                    ceb: (self.ceb & 0xff_ffff) as u32,
                    e0b: 1,
                    wire_bytes: 12,
                };
                let opt = option.then_some(&opt);
                self.sender.on_ack(ace_of(self.cep), n, n * MSS, opt, open)
            }
        }
        // 20 segments, 3 marked: ACE advances by 3; the bytes say 3 (without any option the
        // safe reading, 19: `a_wrapped_field_is_read_as_the_safe_count`).
        assert_eq!(Path::new().ack(20, 3, true, true), 3);
        // An ACK without the option on a flow that sent it before: its bytes are taken to
        // advance the counter the last option advanced (ECT(1)), so no CE bytes: the residue.
        assert_eq!(Path::new().ack(20, 3, false, true), 3);
        // 11 of 20 marked: residue 3 again; the bytes say 11.
        assert_eq!(Path::new().ack(20, 11, true, true), 11);
        // 8 of 9 marked: residue 0; the bytes say 8.
        assert_eq!(Path::new().ack(9, 8, true, true), 8);
        // No CE bytes: no wrap, the residue (0).
        assert_eq!(Path::new().ack(9, 0, true, true), 0);
        // Fewer than 16 segments (or in recovery without SACK): the one-wrap test by bytes.
        // 10 segments, 9 marked: residue 1; 9 segments of CE bytes exceed one: safe, 9.
        assert_eq!(Path::new().ack(10, 9, true, false), 9);
        // 10 segments, 1 marked: one segment of CE bytes, under half the safe 9: 1.
        assert_eq!(Path::new().ack(10, 1, true, false), 1);
        // A run of ACKs: each reads only its own increase, and the total is exact.
        let mut p = Path::new();
        let mut total = 0;
        for (n, ce) in [(2, 2), (20, 3), (30, 17), (16, 0), (40, 40), (3, 1)] {
            assert_eq!(p.ack(n, ce, true, true), ce, "{n} segments, {ce} marked");
            total += ce;
        }
        assert_eq!(p.sender.ce_reported(), total);
        // The first option that shows CE bytes where only ECT(1) bytes grew before is
        // trusted; one that shows two new counters growing at once is not (the safe count).
        let mut s = AccEcnSender::new(MSS, false);
        let both = AccEcnOption {
            fields: 3,
            e1b: 1 + 10 * MSS as u32,
            ceb: 10 * MSS as u32,
            e0b: 1,
            wire_bytes: 12,
        };
        assert_eq!(
            s.on_ack(ace_of(CEP_INIT + 10), 20, 20 * MSS, Some(&both), true),
            18
        );
    }
}
