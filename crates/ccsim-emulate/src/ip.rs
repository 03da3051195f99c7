//! The two things the emulator reads or writes in an IP packet: its ECN field (RFC 3168
//! section 5; the low two bits of IPv4's TOS byte and of IPv6's traffic class), and, when a
//! queue marks CE, the IPv4 header checksum (RFC 1624's incremental update). Everything else
//! passes through untouched.

use ccsim_core::Ecn;

/// The ECN field of `packet`, `None` when it is not an IPv4 or IPv6 packet.
#[must_use]
pub fn ecn_of(packet: &[u8]) -> Option<Ecn> {
    let bits = match packet.first()? >> 4 {
        4 if packet.len() >= 20 => packet[1] & 3,
        6 if packet.len() >= 40 => (packet[1] >> 4) & 3,
        _ => return None,
    };
    Some(match bits {
        0 => Ecn::NotEct,
        1 => Ecn::Ect1,
        2 => Ecn::Ect,
        _ => Ecn::Ce,
    })
}

/// Set `packet`'s ECN field to CE (a queue marked it), keeping an IPv4 header checksum
/// valid. Does nothing to a packet that is not IPv4 or IPv6.
pub fn mark_ce(packet: &mut [u8]) {
    match packet.first().map(|b| b >> 4) {
        Some(4) if packet.len() >= 20 => {
            let old = u16::from_be_bytes([packet[0], packet[1]]);
            packet[1] |= 3;
            let new = u16::from_be_bytes([packet[0], packet[1]]);
            // RFC 1624 equation 3: HC' = ~(~HC + ~m + m').
            let hc = u16::from_be_bytes([packet[10], packet[11]]);
            let mut sum = u32::from(!hc) + u32::from(!old) + u32::from(new);
            while sum > 0xffff {
                sum = (sum & 0xffff) + (sum >> 16);
            }
            packet[10..12].copy_from_slice(&(!(sum as u16)).to_be_bytes());
        }
        Some(6) if packet.len() >= 40 => packet[1] |= 0x30,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 1071's checksum of a header, computed in full.
    fn checksum(h: &[u8]) -> u16 {
        let mut sum: u32 = h
            .chunks(2)
            .map(|c| u32::from(u16::from_be_bytes([c[0], c[1]])))
            .sum();
        while sum > 0xffff {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        !(sum as u16)
    }

    fn ipv4(tos: u8) -> Vec<u8> {
        let mut h = vec![
            0x45, tos, 0, 40, 0x12, 0x34, 0x40, 0, 64, 6, 0, 0, 10, 77, 0, 1, 10, 77, 0, 2,
        ];
        let ck = checksum(&h);
        h[10..12].copy_from_slice(&ck.to_be_bytes());
        h.extend_from_slice(&[0; 20]);
        h
    }

    /// Marking CE keeps the header checksum what a full recomputation gives, for every
    /// TOS byte (DSCP bits kept).
    #[test]
    fn marking_keeps_the_ipv4_checksum_valid() {
        for tos in 0..=255u8 {
            let mut p = ipv4(tos);
            mark_ce(&mut p);
            assert_eq!(p[1], tos | 3);
            assert_eq!(checksum(&p[..20]), 0, "tos {tos:#x}");
            assert_eq!(ecn_of(&p), Some(Ecn::Ce));
        }
    }

    #[test]
    fn the_ecn_field_is_read_from_both_versions() {
        assert_eq!(ecn_of(&ipv4(0x01)), Some(Ecn::Ect1));
        assert_eq!(ecn_of(&ipv4(0x02)), Some(Ecn::Ect));
        assert_eq!(ecn_of(&ipv4(0xb8)), Some(Ecn::NotEct));
        let mut v6 = vec![0x60, 0x20, 0, 0];
        v6.resize(40, 0);
        assert_eq!(ecn_of(&v6), Some(Ecn::Ect));
        mark_ce(&mut v6);
        assert_eq!((v6[0], v6[1]), (0x60, 0x30));
        assert_eq!(ecn_of(&[0x45, 0, 0]), None, "truncated");
        assert_eq!(ecn_of(&[]), None);
    }
}
