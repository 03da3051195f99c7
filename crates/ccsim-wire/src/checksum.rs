//! The Internet checksum (RFC 1071), the TCP/UDP pseudo-header (RFC 9293 section 3.1,
//! RFC 768) and the incremental update of a checksum after a 16-bit field changes (RFC 1624).

/// Folds a 32-bit ones'-complement accumulator to 16 bits (RFC 1071 section 4.1's loop).
#[must_use]
pub fn fold(mut sum: u32) -> u16 {
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    sum as u16
}

/// The ones'-complement sum of `bytes` as 16-bit big-endian words, added to `sum`, not yet
/// folded (a trailing odd byte is padded with zero, RFC 1071 section 4.1). The accumulator
/// cannot overflow for any buffer up to 128 kB beyond a 32-bit `sum` start below 2^31.
#[must_use]
pub fn sum(bytes: &[u8], sum: u32) -> u32 {
    let mut acc = u64::from(sum);
    let mut chunks = bytes.chunks_exact(2);
    for c in &mut chunks {
        acc += u64::from(u16::from_be_bytes([c[0], c[1]]));
    }
    if let [last] = chunks.remainder() {
        acc += u64::from(*last) << 8;
    }
    while acc > 0xffff_ffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    acc as u32
}

/// The checksum of RFC 1071 over `bytes`, starting from the partial sum `sum`: the ones'
/// complement of the folded ones'-complement sum. A buffer that holds its own correct
/// checksum gives 0.
#[must_use]
pub fn internet_checksum(bytes: &[u8], partial: u32) -> u16 {
    !fold(sum(bytes, partial))
}

/// The partial sum of the TCP/UDP pseudo-header over IPv4: source and destination
/// addresses, zero, the protocol number and the TCP/UDP length (RFC 9293 section 3.1,
/// RFC 768).
#[must_use]
pub fn pseudo_sum(src: [u8; 4], dst: [u8; 4], proto: u8, len: u16) -> u32 {
    let w = |a: [u8; 4]| {
        u32::from(u16::from_be_bytes([a[0], a[1]])) + u32::from(u16::from_be_bytes([a[2], a[3]]))
    };
    w(src) + w(dst) + u32::from(proto) + u32::from(len)
}

/// The checksum `hc` after one 16-bit word of the covered data changed from `old` to `new`:
/// RFC 1624 equation 3, `HC' = ~(~HC + ~m + m')`, which unlike equation 2 never yields
/// `0x0000` from a checksum that was not zero's complement (RFC 1624 section 3).
#[must_use]
pub fn update(hc: u16, old: u16, new: u16) -> u16 {
    !fold(u32::from(!hc) + u32::from(!old) + u32::from(new))
}
