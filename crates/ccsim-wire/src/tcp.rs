//! The TCP header (RFC 9293 section 3.1) and its options, over any byte buffer: MSS
//! (RFC 9293 section 3.2), window scale and timestamps (RFC 7323 sections 2.2 and 3.2),
//! SACK-permitted and SACK (RFC 2018 sections 2 and 3), the ECN flags CWR and ECE
//! (RFC 3168 section 6.1), and AccECN's AE flag and option (draft-ietf-tcpm-accurate-ecn
//! sections 3.2.2 and 3.2.3, kinds 172 and 174).
//!
//! CHOICE: `new_checked` requires the data offset to be at least 5 and the header within the
//! buffer; the segment is the whole buffer (the IP payload), so the checksum covers it all.
//! CHOICE: an option whose length is below 2, runs past the header, or differs from its
//! kind's fixed length (MSS 4, window scale 3, SACK-permitted 2, timestamps 10; SACK 2 + 8n
//! with n from 1 to 4; AccECN 2 + 3n with n from 0 to 3) is an error, and the iterator ends
//! after it. End of Option List ends the iterator too (RFC 9293: what follows is padding).

use crate::checksum;
use crate::error::need;
use crate::ipv4::PROTO_TCP;
use crate::WireError;

/// Bytes of a TCP header without options.
pub const HEADER_LEN: usize = 20;
/// FIN.
pub const FLAG_FIN: u8 = 0x01;
/// SYN.
pub const FLAG_SYN: u8 = 0x02;
/// RST.
pub const FLAG_RST: u8 = 0x04;
/// PSH.
pub const FLAG_PSH: u8 = 0x08;
/// ACK.
pub const FLAG_ACK: u8 = 0x10;
/// URG.
pub const FLAG_URG: u8 = 0x20;
/// ECE, ECN-Echo (RFC 3168 section 6.1).
pub const FLAG_ECE: u8 = 0x40;
/// CWR, Congestion Window Reduced.
pub const FLAG_CWR: u8 = 0x80;
/// AE, in the data-offset byte (its low bit, the former NS bit): AccECN's third ACE bit.
pub const FLAG_AE: u8 = 0x01;

/// Option kind: End of Option List.
pub const OPT_EOL: u8 = 0;
/// Option kind: No-Operation.
pub const OPT_NOP: u8 = 1;
/// Option kind: Maximum Segment Size.
pub const OPT_MSS: u8 = 2;
/// Option kind: window scale.
pub const OPT_WSCALE: u8 = 3;
/// Option kind: SACK-permitted.
pub const OPT_SACK_PERMITTED: u8 = 4;
/// Option kind: SACK.
pub const OPT_SACK: u8 = 5;
/// Option kind: timestamps.
pub const OPT_TIMESTAMP: u8 = 8;
/// Option kind: AccECN with its counters in order 0 (ECT(0), CE, ECT(1) bytes).
pub const OPT_ACCECN0: u8 = 172;
/// Option kind: AccECN with its counters in order 1 (ECT(1), CE, ECT(0) bytes).
pub const OPT_ACCECN1: u8 = 174;

/// A view of a TCP segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpSegment<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> TcpSegment<T> {
    /// A view without checks: the accessors panic on a buffer [`TcpSegment::check`] rejects.
    pub fn new_unchecked(buffer: T) -> Self {
        TcpSegment { buffer }
    }

    /// A view of `buffer` after [`TcpSegment::check`].
    ///
    /// # Errors
    /// The buffer is shorter than the header or than its data offset.
    pub fn new_checked(buffer: T) -> Result<Self, WireError> {
        let s = TcpSegment { buffer };
        s.check()?;
        Ok(s)
    }

    /// Checks the header's length against the buffer (module CHOICE).
    ///
    /// # Errors
    /// Which check failed.
    pub fn check(&self) -> Result<(), WireError> {
        let b = self.buffer.as_ref();
        need("TCP header", HEADER_LEN, b.len())?;
        let hl = usize::from(b[12] >> 4) * 4;
        if hl < HEADER_LEN {
            return Err(WireError::BadField {
                what: "TCP data offset",
                value: u64::from(b[12] >> 4),
            });
        }
        need("TCP header with options", hl, b.len())
    }

    /// The buffer.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    fn b(&self) -> &[u8] {
        self.buffer.as_ref()
    }

    fn u32_at(&self, at: usize) -> u32 {
        let b = self.b();
        u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
    }

    /// The source port.
    #[must_use]
    pub fn src_port(&self) -> u16 {
        u16::from_be_bytes([self.b()[0], self.b()[1]])
    }

    /// The destination port.
    #[must_use]
    pub fn dst_port(&self) -> u16 {
        u16::from_be_bytes([self.b()[2], self.b()[3]])
    }

    /// The sequence number.
    #[must_use]
    pub fn seq(&self) -> u32 {
        self.u32_at(4)
    }

    /// The acknowledgement number.
    #[must_use]
    pub fn ack_number(&self) -> u32 {
        self.u32_at(8)
    }

    /// The header's length in bytes (data offset times 4).
    #[must_use]
    pub fn header_len(&self) -> usize {
        usize::from(self.b()[12] >> 4) * 4
    }

    /// The eight flag bits of byte 13 (CWR, ECE, URG, ACK, PSH, RST, SYN, FIN).
    #[must_use]
    pub fn flags(&self) -> u8 {
        self.b()[13]
    }

    /// AE, AccECN's most significant ACE bit.
    #[must_use]
    pub fn ae(&self) -> bool {
        self.b()[12] & FLAG_AE != 0
    }

    /// CWR.
    #[must_use]
    pub fn cwr(&self) -> bool {
        self.flags() & FLAG_CWR != 0
    }

    /// ECE.
    #[must_use]
    pub fn ece(&self) -> bool {
        self.flags() & FLAG_ECE != 0
    }

    /// URG.
    #[must_use]
    pub fn urg(&self) -> bool {
        self.flags() & FLAG_URG != 0
    }

    /// ACK.
    #[must_use]
    pub fn ack(&self) -> bool {
        self.flags() & FLAG_ACK != 0
    }

    /// PSH.
    #[must_use]
    pub fn psh(&self) -> bool {
        self.flags() & FLAG_PSH != 0
    }

    /// RST.
    #[must_use]
    pub fn rst(&self) -> bool {
        self.flags() & FLAG_RST != 0
    }

    /// SYN.
    #[must_use]
    pub fn syn(&self) -> bool {
        self.flags() & FLAG_SYN != 0
    }

    /// FIN.
    #[must_use]
    pub fn fin(&self) -> bool {
        self.flags() & FLAG_FIN != 0
    }

    /// AccECN's ACE field: AE, CWR and ECE as a 3-bit number, AE the most significant.
    #[must_use]
    pub fn ace(&self) -> u8 {
        (u8::from(self.ae()) << 2) | (u8::from(self.cwr()) << 1) | u8::from(self.ece())
    }

    /// The window field.
    #[must_use]
    pub fn window(&self) -> u16 {
        u16::from_be_bytes([self.b()[14], self.b()[15]])
    }

    /// The checksum field.
    #[must_use]
    pub fn checksum(&self) -> u16 {
        u16::from_be_bytes([self.b()[16], self.b()[17]])
    }

    /// The urgent pointer.
    #[must_use]
    pub fn urgent(&self) -> u16 {
        u16::from_be_bytes([self.b()[18], self.b()[19]])
    }

    /// Whether the checksum is correct over the IPv4 pseudo-header of `src` and `dst` and the
    /// whole buffer. `false` for a segment longer than 65535 bytes, which IPv4 cannot carry.
    #[must_use]
    pub fn verify_checksum(&self, src: [u8; 4], dst: [u8; 4]) -> bool {
        let Ok(len) = u16::try_from(self.b().len()) else {
            return false;
        };
        let pseudo = checksum::pseudo_sum(src, dst, PROTO_TCP, len);
        checksum::internet_checksum(self.b(), pseudo) == 0
    }

    /// The option bytes.
    #[must_use]
    pub fn options_bytes(&self) -> &[u8] {
        &self.b()[HEADER_LEN..self.header_len()]
    }

    /// The options, parsed one at a time.
    #[must_use]
    pub fn options(&self) -> TcpOptions<'_> {
        TcpOptions::new(self.options_bytes())
    }

    /// The payload.
    #[must_use]
    pub fn payload(&self) -> &[u8] {
        &self.b()[self.header_len()..]
    }
}

/// The blocks of a SACK option, left and right edges (RFC 2018 section 3), at most 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SackOption {
    blocks: [(u32, u32); 4],
    len: u8,
}

impl SackOption {
    /// The blocks, in the option's order.
    #[must_use]
    pub fn blocks(&self) -> &[(u32, u32)] {
        &self.blocks[..usize::from(self.len).min(4)]
    }
}

/// The counters of an AccECN option, as carried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccEcnCounters {
    /// The option kind: [`OPT_ACCECN0`] or [`OPT_ACCECN1`].
    pub kind: u8,
    /// Counters carried (0 to 3).
    pub fields: u8,
    /// The 24-bit counters in wire order (only the first `fields` are meaningful).
    pub wire: [u32; 3],
}

impl AccEcnCounters {
    /// The counter of (ECT(1) bytes, CE bytes, ECT(0) bytes) at index `i` in the
    /// order-independent sense (0: ECT(1), 1: CE, 2: ECT(0)), if carried.
    #[must_use]
    pub fn counter(&self, i: usize) -> Option<u32> {
        let at = if self.kind == OPT_ACCECN1 {
            i
        } else {
            2 - i.min(2)
        };
        (at < usize::from(self.fields)).then(|| self.wire[at])
    }
}

/// One TCP option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpOption<'a> {
    /// End of Option List (kind 0).
    EndOfList,
    /// No-Operation (kind 1).
    Nop,
    /// Maximum Segment Size (kind 2).
    Mss(u16),
    /// Window scale shift (kind 3).
    WindowScale(u8),
    /// SACK-permitted (kind 4).
    SackPermitted,
    /// SACK blocks (kind 5).
    Sack(SackOption),
    /// Timestamps (kind 8).
    Timestamps {
        /// TSval.
        tsval: u32,
        /// TSecr.
        tsecr: u32,
    },
    /// AccECN (kinds 172 and 174).
    AccEcn(AccEcnCounters),
    /// Any other kind, with the bytes after its length.
    Unknown {
        /// The kind.
        kind: u8,
        /// The option's data.
        data: &'a [u8],
    },
}

/// An iterator over the options of a TCP header; yields an error for a malformed option and
/// then ends (module CHOICE).
#[derive(Clone, Debug)]
pub struct TcpOptions<'a> {
    rest: &'a [u8],
}

impl<'a> TcpOptions<'a> {
    /// The options in `bytes` (a header's option bytes).
    #[must_use]
    pub fn new(bytes: &'a [u8]) -> Self {
        TcpOptions { rest: bytes }
    }
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

/// Parses the option at the start of `b` (non-empty): the option and its length.
fn parse_option(b: &[u8]) -> Result<(TcpOption<'_>, usize), WireError> {
    let kind = b[0];
    match kind {
        OPT_EOL => return Ok((TcpOption::EndOfList, 1)),
        OPT_NOP => return Ok((TcpOption::Nop, 1)),
        _ => {}
    }
    let Some(&len) = b.get(1) else {
        return Err(WireError::BadOption { kind, len: 0 });
    };
    let n = usize::from(len);
    let bad = WireError::BadOption { kind, len };
    if n < 2 || n > b.len() {
        return Err(bad);
    }
    let d = &b[2..n];
    let opt = match kind {
        OPT_MSS if n == 4 => TcpOption::Mss(u16::from_be_bytes([d[0], d[1]])),
        OPT_WSCALE if n == 3 => TcpOption::WindowScale(d[0]),
        OPT_SACK_PERMITTED if n == 2 => TcpOption::SackPermitted,
        OPT_SACK if (10..=34).contains(&n) && (n - 2) % 8 == 0 => {
            let mut s = SackOption {
                blocks: [(0, 0); 4],
                len: 0,
            };
            for (i, c) in d.chunks_exact(8).enumerate() {
                s.blocks[i] = (be32(&c[..4]), be32(&c[4..]));
                s.len += 1;
            }
            TcpOption::Sack(s)
        }
        OPT_TIMESTAMP if n == 10 => TcpOption::Timestamps {
            tsval: be32(&d[..4]),
            tsecr: be32(&d[4..]),
        },
        OPT_ACCECN0 | OPT_ACCECN1 if n <= 11 && (n - 2) % 3 == 0 => {
            let mut c = AccEcnCounters {
                kind,
                fields: 0,
                wire: [0; 3],
            };
            for (i, f) in d.chunks_exact(3).enumerate() {
                c.wire[i] = u32::from_be_bytes([0, f[0], f[1], f[2]]);
                c.fields += 1;
            }
            TcpOption::AccEcn(c)
        }
        OPT_MSS | OPT_WSCALE | OPT_SACK_PERMITTED | OPT_SACK | OPT_TIMESTAMP | OPT_ACCECN0
        | OPT_ACCECN1 => return Err(bad),
        _ => TcpOption::Unknown { kind, data: d },
    };
    Ok((opt, n))
}

impl<'a> Iterator for TcpOptions<'a> {
    type Item = Result<TcpOption<'a>, WireError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        match parse_option(self.rest) {
            Ok((opt, n)) => {
                self.rest = if opt == TcpOption::EndOfList {
                    &[]
                } else {
                    &self.rest[n..]
                };
                Some(Ok(opt))
            }
            Err(e) => {
                self.rest = &[];
                Some(Err(e))
            }
        }
    }
}
