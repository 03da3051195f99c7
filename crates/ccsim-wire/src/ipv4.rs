//! The IPv4 header (RFC 791 section 3.1), its ECN field (RFC 3168 section 5) and DSCP
//! (RFC 2474 section 3), over any byte buffer.
//!
//! CHOICE: `new_checked` accepts options (IHL above 5) and fragments as RFC 791 allows; it
//! checks only what the accessors need: version 4, IHL at least 5 and within the buffer, the
//! total length at least the header and at most the buffer (bytes past it, a link layer's
//! padding, are not payload). The header checksum is checked on request
//! ([`Ipv4Packet::verify_checksum`]), as a receiver decides what a bad one means.

use ccsim_core::Ecn;

use crate::checksum;
use crate::error::need;
use crate::WireError;

/// Bytes of an IPv4 header without options.
pub const HEADER_LEN: usize = 20;
/// Protocol number of TCP.
pub const PROTO_TCP: u8 = 6;
/// Protocol number of UDP.
pub const PROTO_UDP: u8 = 17;
/// The Don't Fragment flag in the flags and fragment offset word.
pub const FLAG_DF: u16 = 0x4000;
/// The More Fragments flag.
pub const FLAG_MF: u16 = 0x2000;

/// The two ECN bits of `ecn` (RFC 3168 section 5: ECT(0) is `10`, ECT(1) `01`, CE `11`).
#[must_use]
pub fn ecn_bits(ecn: Ecn) -> u8 {
    match ecn {
        Ecn::NotEct => 0b00,
        Ecn::Ect => 0b10,
        Ecn::Ect1 => 0b01,
        Ecn::Ce => 0b11,
    }
}

/// The codepoint of two ECN bits (the low two bits of `bits`).
#[must_use]
pub fn ecn_from_bits(bits: u8) -> Ecn {
    match bits & 3 {
        0 => Ecn::NotEct,
        1 => Ecn::Ect1,
        2 => Ecn::Ect,
        _ => Ecn::Ce,
    }
}

/// A view of an IPv4 packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ipv4Packet<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> Ipv4Packet<T> {
    /// A view without checks: the accessors panic on a buffer [`Ipv4Packet::check`] rejects.
    pub fn new_unchecked(buffer: T) -> Self {
        Ipv4Packet { buffer }
    }

    /// A view of `buffer` after [`Ipv4Packet::check`].
    ///
    /// # Errors
    /// The buffer is not an IPv4 packet whose header and total length fit in it.
    pub fn new_checked(buffer: T) -> Result<Self, WireError> {
        let p = Ipv4Packet { buffer };
        p.check()?;
        Ok(p)
    }

    /// Checks the lengths every accessor relies on (module CHOICE).
    ///
    /// # Errors
    /// Which check failed.
    pub fn check(&self) -> Result<(), WireError> {
        let b = self.buffer.as_ref();
        need("IPv4 header", HEADER_LEN, b.len())?;
        if b[0] >> 4 != 4 {
            return Err(WireError::BadField {
                what: "IPv4 version",
                value: u64::from(b[0] >> 4),
            });
        }
        let ihl = usize::from(b[0] & 0x0f) * 4;
        if ihl < HEADER_LEN {
            return Err(WireError::BadField {
                what: "IPv4 header length",
                value: ihl as u64,
            });
        }
        need("IPv4 header with options", ihl, b.len())?;
        let total = usize::from(u16::from_be_bytes([b[2], b[3]]));
        if total < ihl {
            return Err(WireError::BadField {
                what: "IPv4 total length",
                value: total as u64,
            });
        }
        need("IPv4 packet", total, b.len())
    }

    /// The buffer.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    fn b(&self) -> &[u8] {
        self.buffer.as_ref()
    }

    /// The version field (4 after a successful check).
    #[must_use]
    pub fn version(&self) -> u8 {
        self.b()[0] >> 4
    }

    /// The header's length in bytes (IHL times 4).
    #[must_use]
    pub fn header_len(&self) -> usize {
        usize::from(self.b()[0] & 0x0f) * 4
    }

    /// The Differentiated Services codepoint (the high six bits of the second byte).
    #[must_use]
    pub fn dscp(&self) -> u8 {
        self.b()[1] >> 2
    }

    /// The ECN codepoint.
    #[must_use]
    pub fn ecn(&self) -> Ecn {
        ecn_from_bits(self.b()[1])
    }

    /// The total length field: header and payload.
    #[must_use]
    pub fn total_len(&self) -> u16 {
        u16::from_be_bytes([self.b()[2], self.b()[3]])
    }

    /// The identification field.
    #[must_use]
    pub fn ident(&self) -> u16 {
        u16::from_be_bytes([self.b()[4], self.b()[5]])
    }

    /// The flags and fragment offset word.
    #[must_use]
    pub fn flags_and_offset(&self) -> u16 {
        u16::from_be_bytes([self.b()[6], self.b()[7]])
    }

    /// Whether Don't Fragment is set.
    #[must_use]
    pub fn dont_frag(&self) -> bool {
        self.flags_and_offset() & FLAG_DF != 0
    }

    /// Whether this is a fragment (More Fragments set or an offset other than 0).
    #[must_use]
    pub fn is_fragment(&self) -> bool {
        self.flags_and_offset() & (FLAG_MF | 0x1fff) != 0
    }

    /// The time to live.
    #[must_use]
    pub fn ttl(&self) -> u8 {
        self.b()[8]
    }

    /// The protocol number ([`PROTO_TCP`], [`PROTO_UDP`], ...).
    #[must_use]
    pub fn protocol(&self) -> u8 {
        self.b()[9]
    }

    /// The header checksum field.
    #[must_use]
    pub fn checksum(&self) -> u16 {
        u16::from_be_bytes([self.b()[10], self.b()[11]])
    }

    /// Whether the header checksum is correct (RFC 791: the ones' complement sum of the
    /// header's words, the checksum included, is all ones).
    #[must_use]
    pub fn verify_checksum(&self) -> bool {
        checksum::internet_checksum(&self.b()[..self.header_len()], 0) == 0
    }

    /// The source address.
    #[must_use]
    pub fn src(&self) -> [u8; 4] {
        let b = self.b();
        [b[12], b[13], b[14], b[15]]
    }

    /// The destination address.
    #[must_use]
    pub fn dst(&self) -> [u8; 4] {
        let b = self.b();
        [b[16], b[17], b[18], b[19]]
    }

    /// The options (empty without them).
    #[must_use]
    pub fn options(&self) -> &[u8] {
        &self.b()[HEADER_LEN..self.header_len()]
    }

    /// The payload: from the header's end to the total length.
    #[must_use]
    pub fn payload(&self) -> &[u8] {
        &self.b()[self.header_len()..usize::from(self.total_len())]
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> Ipv4Packet<T> {
    fn m(&mut self) -> &mut [u8] {
        self.buffer.as_mut()
    }

    /// Sets the ECN codepoint and updates the header checksum incrementally (RFC 1624), so
    /// a correct checksum stays correct and the other header bytes are not read.
    pub fn set_ecn(&mut self, ecn: Ecn) {
        let old = u16::from_be_bytes([self.b()[0], self.b()[1]]);
        let tos = (self.b()[1] & !3) | ecn_bits(ecn);
        self.m()[1] = tos;
        let new = u16::from_be_bytes([self.b()[0], self.b()[1]]);
        let hc = checksum::update(self.checksum(), old, new);
        self.m()[10..12].copy_from_slice(&hc.to_be_bytes());
    }

    /// Sets the DSCP (the high six bits of `dscp` are ignored); the checksum is not updated.
    pub fn set_dscp(&mut self, dscp: u8) {
        let tos = (dscp << 2) | (self.b()[1] & 3);
        self.m()[1] = tos;
    }

    /// Sets the time to live; the checksum is not updated.
    pub fn set_ttl(&mut self, ttl: u8) {
        self.m()[8] = ttl;
    }

    /// Recomputes the header checksum over the header.
    pub fn fill_checksum(&mut self) {
        let hl = self.header_len();
        self.m()[10..12].copy_from_slice(&[0, 0]);
        let ck = checksum::internet_checksum(&self.b()[..hl], 0);
        self.m()[10..12].copy_from_slice(&ck.to_be_bytes());
    }

    /// The payload, writable.
    pub fn payload_mut(&mut self) -> &mut [u8] {
        let (hl, tl) = (self.header_len(), usize::from(self.total_len()));
        &mut self.m()[hl..tl]
    }
}
