//! The UDP header (RFC 768), over any byte buffer.
//!
//! CHOICE: `new_checked` requires the length field to be at least the header and at most the
//! buffer; bytes past it are not payload. A checksum field of 0 means "none" over IPv4
//! (RFC 768) and verifies.

use crate::checksum;
use crate::error::need;
use crate::ipv4::PROTO_UDP;
use crate::WireError;

/// Bytes of the UDP header.
pub const HEADER_LEN: usize = 8;

/// A view of a UDP datagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UdpDatagram<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> UdpDatagram<T> {
    /// A view without checks: the accessors panic on a buffer [`UdpDatagram::check`] rejects.
    pub fn new_unchecked(buffer: T) -> Self {
        UdpDatagram { buffer }
    }

    /// A view of `buffer` after [`UdpDatagram::check`].
    ///
    /// # Errors
    /// The buffer is shorter than the header or than its length field.
    pub fn new_checked(buffer: T) -> Result<Self, WireError> {
        let d = UdpDatagram { buffer };
        d.check()?;
        Ok(d)
    }

    /// Checks the header and the length field against the buffer (module CHOICE).
    ///
    /// # Errors
    /// Which check failed.
    pub fn check(&self) -> Result<(), WireError> {
        let b = self.buffer.as_ref();
        need("UDP header", HEADER_LEN, b.len())?;
        let len = usize::from(u16::from_be_bytes([b[4], b[5]]));
        if len < HEADER_LEN {
            return Err(WireError::BadField {
                what: "UDP length",
                value: len as u64,
            });
        }
        need("UDP datagram", len, b.len())
    }

    /// The buffer.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    fn b(&self) -> &[u8] {
        self.buffer.as_ref()
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

    /// The length field: header and payload.
    #[must_use]
    pub fn len(&self) -> u16 {
        u16::from_be_bytes([self.b()[4], self.b()[5]])
    }

    /// Whether the payload is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        usize::from(self.len()) == HEADER_LEN
    }

    /// The checksum field.
    #[must_use]
    pub fn checksum(&self) -> u16 {
        u16::from_be_bytes([self.b()[6], self.b()[7]])
    }

    /// Whether the checksum is absent (0) or correct over the IPv4 pseudo-header of `src`
    /// and `dst` and the datagram's `len()` bytes.
    #[must_use]
    pub fn verify_checksum(&self, src: [u8; 4], dst: [u8; 4]) -> bool {
        if self.checksum() == 0 {
            return true;
        }
        let len = self.len();
        let pseudo = checksum::pseudo_sum(src, dst, PROTO_UDP, len);
        checksum::internet_checksum(&self.b()[..usize::from(len)], pseudo) == 0
    }

    /// The payload, up to the length field.
    #[must_use]
    pub fn payload(&self) -> &[u8] {
        &self.b()[HEADER_LEN..usize::from(self.len())]
    }
}
