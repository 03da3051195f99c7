//! The ECN field of a raw IP packet of either version, as the link emulator reads and
//! marks it: the low two bits of IPv4's TOS byte (RFC 3168 section 5) and of IPv6's traffic
//! class (RFC 8200 section 7), with the IPv4 header checksum updated incrementally
//! (RFC 1624) when a queue marks CE.
//!
//! CHOICE: an IPv4 packet must pass [`Ipv4Packet::new_checked`] to be read or marked; a
//! malformed one crosses as Not-ECT and unmarked, as does anything neither IPv4 nor IPv6.

use ccsim_core::Ecn;

use crate::ipv4::{ecn_from_bits, Ipv4Packet};

/// Bytes of the IPv6 fixed header (RFC 8200 section 3).
const IPV6_HEADER_LEN: usize = 40;

/// The ECN field of `packet`, `None` when it is not a well-formed IPv4 packet or IPv6.
#[must_use]
pub fn ecn_of(packet: &[u8]) -> Option<Ecn> {
    match packet.first()? >> 4 {
        4 => Ipv4Packet::new_checked(packet).ok().map(|p| p.ecn()),
        6 if packet.len() >= IPV6_HEADER_LEN => Some(ecn_from_bits(packet[1] >> 4)),
        _ => None,
    }
}

/// Sets `packet`'s ECN field to CE (a queue marked it), keeping an IPv4 header checksum
/// valid. Does nothing to a packet that is not a well-formed IPv4 packet or IPv6.
pub fn mark_ce(packet: &mut [u8]) {
    match packet.first().map(|b| b >> 4) {
        Some(4) => {
            if let Ok(mut p) = Ipv4Packet::new_checked(packet) {
                p.set_ecn(Ecn::Ce);
            }
        }
        Some(6) if packet.len() >= IPV6_HEADER_LEN => packet[1] |= 0x30,
        _ => {}
    }
}
