//! The IPv4 (RFC 791), TCP (RFC 9293; SACK option RFC 2018, timestamps RFC 7323, ECN bits
//! RFC 3168, AccECN draft-ietf-tcpm-accurate-ecn) and UDP (RFC 768) headers of a simulated
//! packet, with the address and port mapping (docs/pcap.md has every byte). The pcap writer
//! records these bytes; a real-socket driver sends the same UDP payloads.
//!
//! CHOICE: the segment-to-byte numbering of TCP ([`TcpNumbering`]) lives here with the TCP
//! encoder that needs it; the pcap writer keeps the per-flow table of numberings. A TCP
//! packet encoded without one numbers [`FALLBACK_MSS`]-byte segments of an unbounded flow.
//! CHOICE: the IPv4 total length (and UDP length) is the simulated size, or the encoding's
//! length if that is longer, so that every field of a short message is there; the checksums
//! are computed as if the bytes past the headers were zeros (docs/pcap.md, Checksums).
//! CHOICE: an AccECN option is written with at most 3 counters, whatever its `fields` says.

use ccsim_core::{Addr, Packet};
use ccsim_protocols::{AckOptions, Hdr, ACCECN_OPTION_KIND};

use crate::checksum::{internet_checksum, pseudo_sum};
use crate::ipv4::{
    ecn_bits, FLAG_DF as IP_FLAG_DF, HEADER_LEN as IPV4_BYTES, PROTO_TCP, PROTO_UDP,
};
use crate::private::{encode_private, family_port};
use crate::tcp::{
    FLAG_ACK as TCP_ACK, FLAG_AE as TCP_AE, FLAG_CWR as TCP_CWR, FLAG_ECE as TCP_ECE,
    FLAG_PSH as TCP_PSH, FLAG_SYN as TCP_SYN, HEADER_LEN as TCP_BYTES, OPT_MSS as TCP_OPT_MSS,
    OPT_NOP as TCP_OPT_NOP, OPT_SACK as TCP_OPT_SACK, OPT_SACK_PERMITTED as TCP_OPT_SACK_PERMITTED,
    OPT_TIMESTAMP as TCP_OPT_TIMESTAMP, OPT_WSCALE as TCP_OPT_WSCALE,
};
use crate::udp::HEADER_LEN as UDP_BYTES;

/// CHOICE: the IPv4 TTL of every packet (the simulator has no TTL); Linux's default.
pub const TTL: u8 = 64;
/// CHOICE: the TCP window field of every segment (the simulator's receivers do not advertise
/// a window); the largest value without window scaling.
pub const TCP_WINDOW: u16 = 65_535;
/// CHOICE: agent `a` uses port `AGENT_PORT_BASE + a % AGENT_PORTS` (49152..=65151), in the
/// dynamic range (RFC 6335) where Wireshark has few dissectors registered: unique up to 16000
/// agents; beyond that two agents may share a port (the addresses and the private header
/// still tell them apart).
pub const AGENT_PORT_BASE: u16 = 49_152;
/// Number of distinct agent ports.
pub const AGENT_PORTS: u32 = 16_000;
/// Bytes of the timestamp option with its two NOPs.
pub const TCP_TIMESTAMP_BYTES: usize = 12;
/// The window-scale shift a SYN announces (Linux's for its default buffers).
pub const TCP_WSCALE_SHIFT: u8 = 7;
/// Segment size assumed for a TCP packet encoded without a numbering (the payload of the
/// default 1000-byte packet).
pub const FALLBACK_MSS: u32 = 960;

/// How a TCP flow's segment numbers become byte numbers: segment `k` starts at byte
/// `k * mss`, capped at the flow's size, modulo 2^32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpNumbering {
    /// Payload bytes of a full segment.
    pub mss: u32,
    /// Application bytes of the whole flow, if finite and known.
    pub size: Option<u64>,
}

impl TcpNumbering {
    /// The byte number of the start of segment `seg` (or of the end of the flow).
    #[must_use]
    pub fn byte(self, seg: u64) -> u32 {
        let b = seg.saturating_mul(u64::from(self.mss));
        let b = self.size.map_or(b, |s| b.min(s));
        // Sequence space is 32 bits (RFC 9293 section 3.4): keep the low bits.
        (b & 0xffff_ffff) as u32
    }
}

/// The IPv4 address of node `node` (`10.0.0.0 + node + 1`), or of multicast group `key`
/// (`239.0.0.0 + key`), modulo 2^24 in both cases.
#[must_use]
pub fn ipv4_of(addr: Addr) -> [u8; 4] {
    let (base, n) = match addr.group_key() {
        Some(key) => (0xef00_0000u32, key),
        None => (0x0a00_0000u32, addr.node.wrapping_add(1)),
    };
    (base | (n & 0x00ff_ffff)).to_be_bytes()
}

/// The port of agent `agent`.
#[must_use]
pub fn port_of(agent: u32) -> u16 {
    // The remainder is below 16000, so the cast keeps it whole.
    AGENT_PORT_BASE + (agent % AGENT_PORTS) as u16
}

/// Appends the headers of `pkt` to `buf` (which should be empty: the lengths and checksums
/// are written at fixed offsets): IPv4, then TCP, or UDP and the private header. A TCP
/// packet's numbers are `tcp`'s, or [`FALLBACK_MSS`] segments of an unknown flow size.
pub fn encode_packet(pkt: &Packet<Hdr>, tcp: Option<TcpNumbering>, buf: &mut Vec<u8>) {
    buf.clear();
    buf.resize(IPV4_BYTES, 0);
    let proto = match &pkt.header {
        Hdr::TcpData { .. } | Hdr::TcpAck { .. } | Hdr::TcpSyn { .. } => {
            let n = tcp.unwrap_or(TcpNumbering {
                mss: FALLBACK_MSS,
                size: None,
            });
            encode_tcp(pkt, n, buf);
            PROTO_TCP
        }
        _ => {
            encode_udp(pkt, buf);
            PROTO_UDP
        }
    };
    // Lengths: the simulated size, or the encoding's if that is longer (module CHOICE).
    let ip_len = u16::try_from(buf.len().max(pkt.size as usize)).unwrap_or(u16::MAX);
    let (src, dst) = (ipv4_of(pkt.src), ipv4_of(pkt.dst));
    let l4_len = ip_len - IPV4_BYTES as u16;
    if proto == PROTO_UDP {
        buf[IPV4_BYTES + 4..IPV4_BYTES + 6].copy_from_slice(&l4_len.to_be_bytes());
    }
    let ck_at = IPV4_BYTES + if proto == PROTO_TCP { 16 } else { 6 };
    let mut ck = internet_checksum(&buf[IPV4_BYTES..], pseudo_sum(src, dst, proto, l4_len));
    if proto == PROTO_UDP && ck == 0 {
        ck = 0xffff; // RFC 768: a computed zero is sent as all ones
    }
    buf[ck_at..ck_at + 2].copy_from_slice(&ck.to_be_bytes());

    let ip = &mut buf[..IPV4_BYTES];
    ip[0] = 0x45; // version 4, 5 words
    ip[1] = ecn_bits(pkt.ecn); // DSCP 0
    ip[2..4].copy_from_slice(&ip_len.to_be_bytes());
    // Identification 0 (bytes 4..6): the datagram is atomic (RFC 6864), DF set.
    ip[6..8].copy_from_slice(&IP_FLAG_DF.to_be_bytes());
    ip[8] = TTL;
    ip[9] = proto;
    ip[12..16].copy_from_slice(&src);
    ip[16..20].copy_from_slice(&dst);
    let ck = internet_checksum(ip, 0);
    ip[10..12].copy_from_slice(&ck.to_be_bytes());
}

/// The AE, CWR and ECE flags of an AccECN ACE value (AE the most significant).
fn ace_flags(ace: u8) -> (bool, u8) {
    let cwr = if ace & 2 != 0 { TCP_CWR } else { 0 };
    let ece = if ace & 1 != 0 { TCP_ECE } else { 0 };
    (ace & 4 != 0, cwr | ece)
}

/// Appends the TCP header of a TCP packet `pkt` (its checksum left 0; anything else
/// appends a bare header).
fn encode_tcp(pkt: &Packet<Hdr>, n: TcpNumbering, buf: &mut Vec<u8>) {
    let mut ae = false;
    let (seq, ack, flags, opts) = match &pkt.header {
        Hdr::TcpData { seq, cwr, psh, .. } => {
            // Every segment after the SYN carries ACK (RFC 9293 section 3.10.7.4); the simulated
            // receiver sends no data, so a data segment acknowledges its SYN, byte 0.
            let flags = TCP_ACK | if *psh { TCP_PSH } else { 0 } | if *cwr { TCP_CWR } else { 0 };
            (n.byte(*seq), n.byte(0), flags, None)
        }
        Hdr::TcpAck {
            ack,
            ece,
            opts,
            ace,
        } => {
            let ecn_flags = match ace {
                Some(ace) => {
                    let (a, f) = ace_flags(*ace);
                    ae = a;
                    f
                }
                None if *ece => TCP_ECE,
                None => 0,
            };
            (0, n.byte(*ack), TCP_ACK | ecn_flags, opts.as_deref())
        }
        Hdr::TcpSyn { ack, accecn } => {
            // Each side's initial sequence number is one below its first byte, 0, so the
            // SYN-ACK acknowledges byte 0. An AccECN SYN sets AE, CWR and ECE; its SYN-ACK
            // answers a Not-ECT SYN with CWR alone (the draft's section 3.1.2).
            let mut flags = if *ack { TCP_SYN | TCP_ACK } else { TCP_SYN };
            if *accecn {
                ae = !*ack;
                flags |= if *ack { TCP_CWR } else { TCP_CWR | TCP_ECE };
            }
            // A SYN of a flow with timestamps is 8 bytes longer: SACK-permitted and the
            // timestamp option share a word pair (Linux's layout).
            let timestamps = pkt.size as usize >= IPV4_BYTES + TCP_BYTES + 20;
            let opt_len = if timestamps { 20 } else { 12 };
            let start = buf.len();
            buf.resize(start + TCP_BYTES, 0);
            let h = &mut buf[start..];
            h[0..2].copy_from_slice(&port_of(pkt.src.agent).to_be_bytes());
            h[2..4].copy_from_slice(&port_of(pkt.dst.agent).to_be_bytes());
            h[4..8].copy_from_slice(&u32::MAX.to_be_bytes());
            h[12] = ((((TCP_BYTES + opt_len) / 4) as u8) << 4) | if ae { TCP_AE } else { 0 };
            h[13] = flags;
            h[14..16].copy_from_slice(&TCP_WINDOW.to_be_bytes());
            // MSS, NOP, NOP, SACK-permitted, NOP, window scale: the simulator's 12 bytes;
            // with timestamps MSS, SACK-permitted, timestamps, NOP, window scale.
            let mss = u16::try_from(n.mss).unwrap_or(u16::MAX).to_be_bytes();
            buf.extend_from_slice(&[TCP_OPT_MSS, 4, mss[0], mss[1]]);
            if timestamps {
                buf.extend_from_slice(&[TCP_OPT_SACK_PERMITTED, 2, TCP_OPT_TIMESTAMP, 10]);
                buf.extend_from_slice(&tsval(pkt).to_be_bytes());
                buf.extend_from_slice(&[0; 4]);
            } else {
                buf.extend_from_slice(&[TCP_OPT_NOP, TCP_OPT_NOP, TCP_OPT_SACK_PERMITTED, 2]);
            }
            buf.extend_from_slice(&[TCP_OPT_NOP, TCP_OPT_WSCALE, 3, TCP_WSCALE_SHIFT]);
            return;
        }
        _ => (0, 0, 0, None),
    };
    let blocks = AckOptions::sack_of(opts).unwrap_or(&[]);
    let accecn = opts.and_then(|o| o.accecn.as_ref());
    // NOP, NOP, then SACK (kind 5, length 2 + 8n): the 4-byte aligned layout of RFC 2018's
    // examples and of the simulator's own size accounting; the AccECN option's share as the
    // simulator counted it.
    let sack_len = if blocks.is_empty() {
        0
    } else {
        4 + 8 * blocks.len()
    } + accecn.map_or(0, |a| usize::from(a.wire_bytes));
    // The timestamp option is there when the simulated size has room for it beyond the
    // payload and SACK option (a flow with `timestamps = true`).
    let payload = match &pkt.header {
        Hdr::TcpData { payload, .. } => *payload as usize,
        _ => 0,
    };
    let timestamps =
        pkt.size as usize >= IPV4_BYTES + TCP_BYTES + sack_len + payload + TCP_TIMESTAMP_BYTES;
    let opt_len = sack_len + if timestamps { TCP_TIMESTAMP_BYTES } else { 0 };
    let start = buf.len();
    buf.resize(start + TCP_BYTES, 0);
    let h = &mut buf[start..];
    h[0..2].copy_from_slice(&port_of(pkt.src.agent).to_be_bytes());
    h[2..4].copy_from_slice(&port_of(pkt.dst.agent).to_be_bytes());
    h[4..8].copy_from_slice(&seq.to_be_bytes());
    h[8..12].copy_from_slice(&ack.to_be_bytes());
    h[12] = ((((TCP_BYTES + opt_len) / 4) as u8) << 4) | if ae { TCP_AE } else { 0 };
    h[13] = flags;
    h[14..16].copy_from_slice(&TCP_WINDOW.to_be_bytes());
    // Checksum (16..18) is filled in by `encode`; urgent pointer (18..20) is 0.
    if timestamps {
        // RFC 7323 Appendix A's layout: NOP, NOP, then TSval and TSecr (not modelled: 0).
        buf.extend_from_slice(&[TCP_OPT_NOP, TCP_OPT_NOP, TCP_OPT_TIMESTAMP, 10]);
        buf.extend_from_slice(&tsval(pkt).to_be_bytes());
        buf.extend_from_slice(&[0; 4]);
    }
    // Linux's layout (`tcp_options_write`): the AccECN option after the timestamps, whole
    // words first; its last 1 or 2 bytes take the two NOPs before the SACK option (or
    // start a word of NOPs without one).
    let mut leftover = [TCP_OPT_NOP, TCP_OPT_NOP];
    if let Some(a) = accecn {
        // At most 3 counters, whatever the header says.
        let fields = a.fields.min(3);
        let mut option = vec![ACCECN_OPTION_KIND, 2 + 3 * fields];
        for i in 0..usize::from(fields) {
            option.extend_from_slice(&a.counter(i).to_be_bytes()[1..]);
        }
        let whole = option.len() / 4 * 4;
        match option.len() - whole {
            3 => option.push(TCP_OPT_NOP),
            1 => leftover[0] = option[whole],
            2 => leftover = [option[whole], option[whole + 1]],
            _ => {}
        }
        buf.extend_from_slice(&option[..option.len() / 4 * 4]);
        if blocks.is_empty() && leftover != [TCP_OPT_NOP, TCP_OPT_NOP] {
            buf.extend_from_slice(&[leftover[0], leftover[1], TCP_OPT_NOP, TCP_OPT_NOP]);
        }
    }
    if !blocks.is_empty() {
        buf.extend_from_slice(&[leftover[0], leftover[1], TCP_OPT_SACK]);
        buf.push((2 + 8 * blocks.len()) as u8);
        for b in blocks {
            buf.extend_from_slice(&n.byte(b.start).to_be_bytes());
            buf.extend_from_slice(&n.byte(b.end).to_be_bytes());
        }
    }
}

/// A timestamp option's TSval: the packet's send time in milliseconds, modulo 2^32 (a 1 ms
/// clock, RFC 7323 section 5.4's lower bound).
#[must_use]
pub fn tsval(pkt: &Packet<Hdr>) -> u32 {
    ((pkt.sent_at.0 / 1_000_000) & 0xffff_ffff) as u32
}

/// Appends the UDP header (length and checksum left 0) and the private header of `pkt`.
fn encode_udp(pkt: &Packet<Hdr>, buf: &mut Vec<u8>) {
    let start = buf.len();
    buf.resize(start + UDP_BYTES, 0);
    encode_private(pkt, buf);
    let dst_port = family_port(&pkt.header).unwrap_or_else(|| port_of(pkt.dst.agent));
    let h = &mut buf[start..];
    h[0..2].copy_from_slice(&port_of(pkt.src.agent).to_be_bytes());
    h[2..4].copy_from_slice(&dst_port.to_be_bytes());
    // Length (4..6) and checksum (6..8) are filled in by `encode_packet`.
}
