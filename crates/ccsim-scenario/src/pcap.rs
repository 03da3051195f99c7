//! pcap files of the packets that enter transmission on a link direction: real IPv4 headers
//! (RFC 791) carrying TCP (RFC 793, SACK option RFC 2018, ECN bits RFC 3168) or UDP (RFC 768),
//! and for the simulator's own protocols a private header inside UDP. The layout of every
//! byte, the address and port mapping and how to open the files are in docs/pcap.md.
//!
//! The file is classic libpcap (not pcapng): the nanosecond magic `0xa1b23c4d`, written
//! little-endian, and link type `LINKTYPE_RAW` (101): each record starts at the IPv4 header,
//! with no invented link layer. A record holds the headers only: its captured length is the
//! header bytes and its original length the simulated packet's size, so files stay small.
//!
//! The writer is a wrapper around a link, never inside a protocol: the run hands it each
//! packet as it starts transmission ([`PcapWriter::record`]) and it reads nothing but the
//! packet's fields. Simulated time 0 is the Unix epoch.
//!
//! CHOICE: link type 101 (`LINKTYPE_RAW`) rather than 228 (`LINKTYPE_IPV4`): both mean "raw
//! IPv4 here", and 101 is the one every pcap reader knows.
//! CHOICE: the simulator numbers TCP segments, a pcap numbers bytes: segment `k` of a flow
//! starts at byte `k * mss` (the initial sequence number is 0; no SYN is shown) and an ACK of
//! segment `k` acknowledges byte `min(k * mss, flow size)`, modulo 2^32. The run tells the
//! writer each TCP flow's segment size and size ([`PcapWriter::set_tcp_flow`]); for a flow
//! it was not told of, the first packet seen fixes the segment size: a data segment's
//! payload, or [`FALLBACK_MSS`] if an ACK comes first.
//! CHOICE: a packet whose encoding is longer than its simulated size (Primo's ACK, TFRC
//! feedback, receiver reports, TICP's small messages, a tiny datagram) is shown at the
//! encoding's length, in the IP header and in the record, so that every field is readable; a
//! record's captured length never exceeds its original length, which many readers require.
//! CHOICE: plain UDP datagrams carry the private header too (type 1, their sequence number):
//! Wireshark's heuristic dissectors took a bare 8-byte sequence number for DNS, and one
//! layout for every UDP payload makes one dissector enough.
//! CHOICE: data segments carry no acknowledgement in the simulator, so their ACK flag is
//! clear and their acknowledgement number 0.
//! CHOICE: checksums are computed as if the payload that is not captured were zero bytes
//! (which add nothing to a ones'-complement sum), so a fully captured packet (an ACK, a
//! private message) verifies, and a truncated one is consistent with a zero payload.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use ccsim_core::{Addr, Ecn, FlowId, Packet};
use ccsim_protocols::Hdr;

/// Magic number of a classic pcap file with nanosecond timestamps.
pub const MAGIC_NANOS: u32 = 0xa1b2_3c4d;
/// `LINKTYPE_RAW`: each record begins with an IP header.
pub const LINKTYPE_RAW: u32 = 101;
/// The snap length written in the file header; no record is longer (the IPv4 maximum).
pub const SNAPLEN: u32 = 65_535;
/// Bytes of the pcap file header.
pub const FILE_HEADER_BYTES: usize = 24;
/// Bytes of a pcap record header.
pub const RECORD_HEADER_BYTES: usize = 16;

/// CHOICE: the IPv4 TTL of every packet (the simulator has no TTL); Linux's default.
pub const TTL: u8 = 64;
/// CHOICE: the TCP window field of every segment (the simulator's receivers do not advertise
/// a window); the largest value without window scaling.
pub const TCP_WINDOW: u16 = 65_535;
/// Segment size assumed for a TCP flow whose first packet in the capture is an ACK and of
/// which the writer was not told (the payload of the default 1000-byte packet).
pub const FALLBACK_MSS: u32 = 960;
/// CHOICE: agent `a` uses port `AGENT_PORT_BASE + a % AGENT_PORTS` (49152..=65151), in the
/// dynamic range (RFC 6335) where Wireshark has few dissectors registered: unique up to 16000
/// agents; beyond that two agents may share a port (the addresses and the private header
/// still tell them apart).
pub const AGENT_PORT_BASE: u16 = 49_152;
/// Number of distinct agent ports.
pub const AGENT_PORTS: u32 = 16_000;
/// Destination port of the rate-based family's messages (data, Primo ACKs, TFRC feedback,
/// receiver reports), outside the agent port range.
pub const RATE_PORT: u16 = 65_201;
/// Destination port of TICP's messages.
pub const TICP_PORT: u16 = 65_202;
/// Destination port of TCP-M's control messages and encapsulated ACKs.
pub const TCPM_PORT: u16 = 65_203;
/// Destination port of XCP's data and ACKs (their congestion header is in the private header).
pub const XCP_PORT: u16 = 65_204;
/// Destination port of OBP's data and ACKs (their path fields are in the private header).
pub const OBP_PORT: u16 = 65_205;
/// The first four bytes of the private header: ASCII "CCSM".
pub const PRIVATE_MAGIC: [u8; 4] = *b"CCSM";
/// Version of the private header layout.
pub const PRIVATE_VERSION: u8 = 1;
/// Bytes of the private header before a message's own fields.
pub const PRIVATE_COMMON_BYTES: usize = 20;
/// The "no value" of an optional 64-bit field of the private header.
pub const PRIVATE_NONE: u64 = u64::MAX;

const IPV4_BYTES: usize = 20;
const TCP_BYTES: usize = 20;
const UDP_BYTES: usize = 8;
const PROTO_TCP: u8 = 6;
const PROTO_UDP: u8 = 17;
const IP_FLAG_DF: u16 = 0x4000;
const TCP_CWR: u8 = 0x80;
const TCP_ECE: u8 = 0x40;
const TCP_ACK: u8 = 0x10;
const TCP_PSH: u8 = 0x08;
const TCP_SYN: u8 = 0x02;
const TCP_OPT_NOP: u8 = 1;
const TCP_OPT_MSS: u8 = 2;
const TCP_OPT_WSCALE: u8 = 3;
const TCP_OPT_SACK_PERMITTED: u8 = 4;
const TCP_OPT_TIMESTAMP: u8 = 8;
/// Bytes of the timestamp option with its two NOPs.
const TCP_TIMESTAMP_BYTES: usize = 12;
/// The window-scale shift a SYN announces (Linux's for its default buffers).
const TCP_WSCALE_SHIFT: u8 = 7;
const TCP_OPT_SACK: u8 = 5;

/// Message types of the private header (byte 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PrivateType {
    /// [`Hdr::Udp`].
    Udp = 1,
    /// [`Hdr::RateData`].
    RateData = 2,
    /// [`Hdr::PrimoAck`].
    PrimoAck = 3,
    /// [`Hdr::TfrcFeedback`].
    TfrcFeedback = 4,
    /// [`Hdr::ReceiverReport`].
    ReceiverReport = 5,
    /// [`Hdr::TicpRequest`].
    TicpRequest = 6,
    /// [`Hdr::TicpReport`].
    TicpReport = 7,
    /// [`Hdr::TicpPing`].
    TicpPing = 8,
    /// [`Hdr::TicpRegister`].
    TicpRegister = 9,
    /// [`Hdr::TicpRegisterAck`].
    TicpRegisterAck = 10,
    /// [`Hdr::TcpmControl`].
    TcpmControl = 11,
    /// [`Hdr::TcpmAck`].
    TcpmAck = 12,
    /// [`Hdr::XcpData`].
    XcpData = 13,
    /// [`Hdr::XcpAck`].
    XcpAck = 14,
    /// [`Hdr::ObpData`].
    ObpData = 15,
    /// [`Hdr::ObpAck`].
    ObpAck = 16,
}

/// How a TCP flow's segment numbers become byte numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TcpNumbering {
    /// Payload bytes of a full segment.
    mss: u32,
    /// Application bytes of the whole flow, if finite and known.
    size: Option<u64>,
}

impl TcpNumbering {
    /// The byte number of the start of segment `seg` (or of the end of the flow).
    fn byte(self, seg: u64) -> u32 {
        let b = seg.saturating_mul(u64::from(self.mss));
        let b = self.size.map_or(b, |s| b.min(s));
        // Sequence space is 32 bits (RFC 793 section 3.3): keep the low bits.
        (b & 0xffff_ffff) as u32
    }
}

/// Writes one classic pcap file of IPv4 packets.
///
/// Build it with [`PcapWriter::new`] (or [`PcapWriter::create`] for a file), tell it the TCP
/// flows ([`PcapWriter::set_tcp_flow`]), hand it packets, then call
/// [`PcapWriter::finish`]. [`PcapWriter::write_packet`] returns each write's error;
/// [`PcapWriter::record`] keeps the first error and stops writing, for a caller (a link tap)
/// that cannot return one, and `finish` returns it.
#[derive(Debug)]
pub struct PcapWriter<W: Write> {
    out: W,
    tcp: BTreeMap<FlowId, TcpNumbering>,
    buf: Vec<u8>,
    packets: u64,
    error: Option<io::Error>,
}

impl PcapWriter<BufWriter<File>> {
    /// Creates (or truncates) the file at `path` and writes the pcap file header.
    ///
    /// # Errors
    /// The file cannot be created or written.
    pub fn create(path: &Path) -> io::Result<Self> {
        PcapWriter::new(BufWriter::new(File::create(path)?))
    }
}

impl<W: Write> PcapWriter<W> {
    /// A writer over `out`; writes the pcap file header at once.
    ///
    /// # Errors
    /// Writing the header fails.
    pub fn new(mut out: W) -> io::Result<Self> {
        let mut h = [0u8; FILE_HEADER_BYTES];
        h[0..4].copy_from_slice(&MAGIC_NANOS.to_le_bytes());
        h[4..6].copy_from_slice(&2u16.to_le_bytes()); // version 2.4
        h[6..8].copy_from_slice(&4u16.to_le_bytes());
        // thiszone (8..12) and sigfigs (12..16) are 0.
        h[16..20].copy_from_slice(&SNAPLEN.to_le_bytes());
        h[20..24].copy_from_slice(&LINKTYPE_RAW.to_le_bytes());
        out.write_all(&h)?;
        Ok(PcapWriter {
            out,
            tcp: BTreeMap::new(),
            buf: Vec::with_capacity(128),
            packets: 0,
            error: None,
        })
    }

    /// Tells the writer how TCP flow `flow` numbers its bytes: `mss` payload bytes per full
    /// segment (the packet size less [`ccsim_protocols::TCP_HEADER_BYTES`]) and `size` application bytes in all
    /// (`None` for an unlimited flow).
    pub fn set_tcp_flow(&mut self, flow: FlowId, mss: u32, size: Option<u64>) {
        self.tcp.insert(flow, TcpNumbering { mss, size });
    }

    /// Whether the numbering of TCP flow `flow` is known (given, or learned from its data).
    #[must_use]
    pub fn knows_tcp_flow(&self, flow: FlowId) -> bool {
        self.tcp.contains_key(&flow)
    }

    /// Packets written so far.
    #[must_use]
    pub fn packets(&self) -> u64 {
        self.packets
    }

    /// Writes `pkt` as it starts transmission at `now_ns`; after an error, does nothing. The
    /// first error is returned by [`PcapWriter::finish`].
    pub fn record(&mut self, now_ns: u64, pkt: &Packet<Hdr>) {
        if self.error.is_none() {
            if let Err(e) = self.write_packet(now_ns, pkt) {
                self.error = Some(e);
            }
        }
    }

    /// Writes one record: `pkt` as it starts transmission at `now_ns`.
    ///
    /// # Errors
    /// The time is past the pcap format's range (year 2106) or the write fails.
    pub fn write_packet(&mut self, now_ns: u64, pkt: &Packet<Hdr>) -> io::Result<()> {
        let secs = u32::try_from(now_ns / 1_000_000_000).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("time {now_ns} ns is past the pcap format's range"),
            )
        })?;
        let nanos = (now_ns % 1_000_000_000) as u32;
        let numbering = self.numbering(pkt);
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        encode(pkt, numbering, &mut buf);
        let incl = u32::try_from(buf.len()).expect("invariant: an encoding is at most 65535 bytes");
        let orig = pkt.size.max(incl);
        let mut rec = [0u8; RECORD_HEADER_BYTES];
        rec[0..4].copy_from_slice(&secs.to_le_bytes());
        rec[4..8].copy_from_slice(&nanos.to_le_bytes());
        rec[8..12].copy_from_slice(&incl.to_le_bytes());
        rec[12..16].copy_from_slice(&orig.to_le_bytes());
        let result = self
            .out
            .write_all(&rec)
            .and_then(|()| self.out.write_all(&buf));
        self.buf = buf;
        result?;
        self.packets += 1;
        Ok(())
    }

    /// Flushes the output and returns it, or the first error [`PcapWriter::record`] met.
    ///
    /// # Errors
    /// A write failed earlier, or the flush fails.
    pub fn finish(mut self) -> io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok(self.out)
    }

    /// The byte numbering of a TCP packet's flow (learning it if it was not given).
    fn numbering(&mut self, pkt: &Packet<Hdr>) -> Option<TcpNumbering> {
        let mss = match pkt.header {
            Hdr::TcpData { payload, .. } => payload,
            Hdr::TcpAck { .. } | Hdr::TcpSyn { .. } => FALLBACK_MSS,
            _ => return None,
        };
        Some(
            *self
                .tcp
                .entry(pkt.flow)
                .or_insert(TcpNumbering { mss, size: None }),
        )
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
    AGENT_PORT_BASE + u16::try_from(agent % AGENT_PORTS).expect("invariant: below 16000")
}

/// The ones'-complement checksum of RFC 1071 over `bytes`, starting from the partial sum
/// `sum` (a trailing odd byte is padded with zero).
#[must_use]
pub fn internet_checksum(bytes: &[u8], mut sum: u32) -> u16 {
    let mut chunks = bytes.chunks_exact(2);
    for c in &mut chunks {
        sum += u32::from(u16::from_be_bytes([c[0], c[1]]));
    }
    if let [last] = chunks.remainder() {
        sum += u32::from(*last) << 8;
    }
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// The partial sum of the TCP/UDP pseudo-header (RFC 793 section 3.1, RFC 768).
fn pseudo_sum(src: [u8; 4], dst: [u8; 4], proto: u8, len: u16) -> u32 {
    let w = |a: [u8; 4]| {
        u32::from(u16::from_be_bytes([a[0], a[1]])) + u32::from(u16::from_be_bytes([a[2], a[3]]))
    };
    w(src) + w(dst) + u32::from(proto) + u32::from(len)
}

fn ecn_bits(ecn: Ecn) -> u8 {
    match ecn {
        Ecn::NotEct => 0b00,
        Ecn::Ect => 0b10,
        Ecn::Ce => 0b11,
    }
}

/// Appends the headers of `pkt` to `buf`: IPv4, then TCP, or UDP and the private header.
fn encode(pkt: &Packet<Hdr>, tcp: Option<TcpNumbering>, buf: &mut Vec<u8>) {
    buf.resize(IPV4_BYTES, 0);
    let proto = match &pkt.header {
        Hdr::TcpData { .. } | Hdr::TcpAck { .. } | Hdr::TcpSyn { .. } => {
            let n = tcp.expect("invariant: TCP packets have a numbering");
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

fn encode_tcp(pkt: &Packet<Hdr>, n: TcpNumbering, buf: &mut Vec<u8>) {
    let (seq, ack, flags, sack) = match &pkt.header {
        Hdr::TcpData { seq, cwr, .. } => {
            // Data segments carry no acknowledgement in the simulator: ACK stays clear.
            let flags = TCP_PSH | if *cwr { TCP_CWR } else { 0 };
            (n.byte(*seq), 0, flags, None)
        }
        Hdr::TcpAck { ack, ece, sack } => {
            let flags = TCP_ACK | if *ece { TCP_ECE } else { 0 };
            (0, n.byte(*ack), flags, sack.as_deref())
        }
        Hdr::TcpSyn { ack } => {
            // Each side's initial sequence number is one below its first byte, 0, so the
            // SYN-ACK acknowledges byte 0.
            let flags = if *ack { TCP_SYN | TCP_ACK } else { TCP_SYN };
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
            h[12] = (((TCP_BYTES + opt_len) / 4) as u8) << 4;
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
        _ => unreachable!("invariant: called for TCP headers only"),
    };
    let blocks = sack.map_or(&[][..], |s| s.as_slice());
    // NOP, NOP, then SACK (kind 5, length 2 + 8n): the 4-byte aligned layout of RFC 2018's
    // examples and of the simulator's own size accounting.
    let sack_len = if blocks.is_empty() {
        0
    } else {
        4 + 8 * blocks.len()
    };
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
    h[12] = (((TCP_BYTES + opt_len) / 4) as u8) << 4;
    h[13] = flags;
    h[14..16].copy_from_slice(&TCP_WINDOW.to_be_bytes());
    // Checksum (16..18) is filled in by `encode`; urgent pointer (18..20) is 0.
    if timestamps {
        // RFC 7323 Appendix A's layout: NOP, NOP, then TSval and TSecr (not modelled: 0).
        buf.extend_from_slice(&[TCP_OPT_NOP, TCP_OPT_NOP, TCP_OPT_TIMESTAMP, 10]);
        buf.extend_from_slice(&tsval(pkt).to_be_bytes());
        buf.extend_from_slice(&[0; 4]);
    }
    if !blocks.is_empty() {
        buf.extend_from_slice(&[TCP_OPT_NOP, TCP_OPT_NOP, TCP_OPT_SACK]);
        buf.push((2 + 8 * blocks.len()) as u8);
        for b in blocks {
            buf.extend_from_slice(&n.byte(b.start).to_be_bytes());
            buf.extend_from_slice(&n.byte(b.end).to_be_bytes());
        }
    }
}

/// A timestamp option's TSval: the packet's send time in milliseconds, modulo 2^32 (a 1 ms
/// clock, RFC 7323 section 5.4's lower bound).
fn tsval(pkt: &Packet<Hdr>) -> u32 {
    ((pkt.sent_at.0 / 1_000_000) & 0xffff_ffff) as u32
}

fn encode_udp(pkt: &Packet<Hdr>, buf: &mut Vec<u8>) {
    let start = buf.len();
    buf.resize(start + UDP_BYTES, 0);
    let family_port = match &pkt.header {
        Hdr::Udp { .. } => {
            encode_private(pkt, buf);
            None
        }
        Hdr::RateData { .. }
        | Hdr::PrimoAck { .. }
        | Hdr::TfrcFeedback(_)
        | Hdr::ReceiverReport(_) => {
            encode_private(pkt, buf);
            Some(RATE_PORT)
        }
        Hdr::TcpmControl { .. } | Hdr::TcpmAck { .. } => {
            encode_private(pkt, buf);
            Some(TCPM_PORT)
        }
        Hdr::XcpData { .. } | Hdr::XcpAck { .. } => {
            encode_private(pkt, buf);
            Some(XCP_PORT)
        }
        Hdr::ObpData { .. } | Hdr::ObpAck { .. } => {
            encode_private(pkt, buf);
            Some(OBP_PORT)
        }
        _ => {
            encode_private(pkt, buf);
            Some(TICP_PORT)
        }
    };
    let dst_port = family_port.unwrap_or_else(|| port_of(pkt.dst.agent));
    let h = &mut buf[start..];
    h[0..2].copy_from_slice(&port_of(pkt.src.agent).to_be_bytes());
    h[2..4].copy_from_slice(&dst_port.to_be_bytes());
    // Length (4..6) and checksum (6..8) are filled in by `encode`.
}

/// Appends the private header (docs/pcap.md has the table of offsets; all fields are
/// big-endian, times in nanoseconds).
fn encode_private(pkt: &Packet<Hdr>, buf: &mut Vec<u8>) {
    let start = buf.len();
    let ty = match &pkt.header {
        Hdr::Udp { .. } => PrivateType::Udp,
        Hdr::RateData { .. } => PrivateType::RateData,
        Hdr::PrimoAck { .. } => PrivateType::PrimoAck,
        Hdr::TfrcFeedback(_) => PrivateType::TfrcFeedback,
        Hdr::ReceiverReport(_) => PrivateType::ReceiverReport,
        Hdr::TicpRequest(_) => PrivateType::TicpRequest,
        Hdr::TicpReport { .. } => PrivateType::TicpReport,
        Hdr::TicpPing { .. } => PrivateType::TicpPing,
        Hdr::TicpRegister { .. } => PrivateType::TicpRegister,
        Hdr::TicpRegisterAck => PrivateType::TicpRegisterAck,
        Hdr::TcpmControl { .. } => PrivateType::TcpmControl,
        Hdr::TcpmAck { .. } => PrivateType::TcpmAck,
        Hdr::XcpData { .. } => PrivateType::XcpData,
        Hdr::XcpAck { .. } => PrivateType::XcpAck,
        Hdr::ObpData { .. } => PrivateType::ObpData,
        Hdr::ObpAck { .. } => PrivateType::ObpAck,
        Hdr::TcpData { .. } | Hdr::TcpAck { .. } | Hdr::TcpSyn { .. } => {
            unreachable!("invariant: TCP has a real header")
        }
    };
    buf.extend_from_slice(&PRIVATE_MAGIC);
    buf.push(PRIVATE_VERSION);
    buf.push(ty as u8);
    buf.extend_from_slice(&[0, 0]); // header length, filled in below
    buf.extend_from_slice(&pkt.flow.0.to_be_bytes());
    buf.extend_from_slice(&pkt.src.agent.to_be_bytes());
    buf.extend_from_slice(&pkt.dst.agent.to_be_bytes());
    let u64be = |buf: &mut Vec<u8>, v: u64| buf.extend_from_slice(&v.to_be_bytes());
    let u32be = |buf: &mut Vec<u8>, v: u32| buf.extend_from_slice(&v.to_be_bytes());
    match &pkt.header {
        Hdr::Udp { seq, .. } => u64be(buf, *seq),
        Hdr::RateData {
            seq,
            stamp,
            rtt_us,
            probe,
        } => {
            u64be(buf, *seq);
            u64be(buf, stamp.as_nanos());
            u32be(buf, *rtt_us);
            buf.extend_from_slice(&[*probe, 0, 0, 0]);
        }
        Hdr::PrimoAck {
            echo,
            ftt_ns,
            rcv_rate,
            start: burst,
        } => {
            u64be(buf, echo.as_nanos());
            buf.extend_from_slice(&ftt_ns.to_be_bytes());
            u32be(buf, rcv_rate.to_bits());
            buf.extend_from_slice(&[u8::from(*burst), 0, 0, 0]);
        }
        Hdr::TfrcFeedback(f) => {
            u64be(buf, f.echo.as_nanos());
            u64be(buf, f.delay.as_nanos());
            u64be(buf, f.x_recv.to_bits());
            u64be(buf, f.p.to_bits());
        }
        Hdr::ReceiverReport(r) => {
            u64be(buf, r.expected);
            u64be(buf, r.lost);
            u64be(buf, r.highest.unwrap_or(PRIVATE_NONE));
            u64be(buf, r.echo.as_nanos());
            u64be(buf, r.held.as_nanos());
        }
        Hdr::TicpRequest(r) => {
            u64be(buf, r.stamp.as_nanos());
            buf.extend_from_slice(&[u8::from(r.relay), 0, 0, 0]);
            u32be(buf, u32::try_from(r.ids.len()).unwrap_or(u32::MAX));
            // The list is cut where the IPv4 packet would pass 65535 bytes.
            let room = (usize::from(u16::MAX) - buf.len()) / 4;
            for id in r.ids.iter().take(room) {
                u32be(buf, *id);
            }
        }
        Hdr::TicpReport { source, echo } => {
            u32be(buf, *source);
            u64be(buf, echo.as_nanos());
        }
        Hdr::TicpPing {
            stamp,
            landmark,
            reply,
        } => {
            u64be(buf, stamp.as_nanos());
            u32be(buf, *landmark);
            buf.extend_from_slice(&[u8::from(*reply), 0, 0, 0]);
        }
        Hdr::TicpRegister { bin } => u32be(buf, *bin),
        Hdr::TcpmControl { kind, about, value } => {
            buf.extend_from_slice(&[*kind as u8, 0, 0, 0]);
            u32be(buf, about.node);
            u32be(buf, about.agent);
            u64be(buf, *value);
        }
        Hdr::XcpData {
            seq,
            retx,
            cwnd,
            rtt_us,
            feedback,
        } => {
            u64be(buf, *seq);
            u32be(buf, *cwnd);
            u32be(buf, *rtt_us);
            u32be(buf, feedback.to_bits());
            buf.extend_from_slice(&[u8::from(*retx), 0, 0, 0]);
        }
        Hdr::XcpAck {
            ack,
            cwnd,
            rtt_us,
            feedback,
        } => {
            u64be(buf, *ack);
            u32be(buf, *cwnd);
            u32be(buf, *rtt_us);
            u32be(buf, feedback.to_bits());
        }
        Hdr::ObpData {
            seq,
            retx,
            narrow,
            tight,
        } => {
            u64be(buf, *seq);
            u32be(buf, narrow.to_bits());
            u32be(buf, tight.to_bits());
            buf.extend_from_slice(&[u8::from(*retx), 0, 0, 0]);
        }
        Hdr::ObpAck { ack, narrow, tight } => {
            u64be(buf, *ack);
            u32be(buf, narrow.to_bits());
            u32be(buf, tight.to_bits());
        }
        Hdr::TcpmAck { ack, ece, sack } => {
            let blocks = sack.as_deref().map_or(&[][..], |s| s.as_slice());
            u64be(buf, *ack);
            buf.extend_from_slice(&[u8::from(*ece), blocks.len() as u8, 0, 0]);
            for b in blocks {
                u64be(buf, b.start);
                u64be(buf, b.end);
            }
        }
        _ => {}
    }
    let len = u16::try_from(buf.len() - start).unwrap_or(u16::MAX);
    buf[start + 6..start + 8].copy_from_slice(&len.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccsim_core::{Dur, SimTime};
    use ccsim_protocols::{ReceiverReport, SackBlock, SackBlocks, TfrcFeedback, TicpRequest};

    fn pkt(header: Hdr, size: u32) -> Packet<Hdr> {
        Packet {
            src: Addr { node: 0, agent: 3 },
            dst: Addr { node: 2, agent: 7 },
            flow: FlowId(4),
            size,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header,
        }
    }

    fn data(seq: u64, payload: u32) -> Packet<Hdr> {
        pkt(
            Hdr::TcpData {
                seq,
                payload,
                retx: false,
                cwr: false,
            },
            payload + 40,
        )
    }

    fn ack(ack: u64, blocks: &[(u64, u64)]) -> Packet<Hdr> {
        let blocks: Vec<SackBlock> = blocks
            .iter()
            .map(|&(start, end)| SackBlock { start, end })
            .collect();
        let mut p = pkt(
            Hdr::TcpAck {
                ack,
                ece: false,
                sack: (!blocks.is_empty()).then(|| Box::new(SackBlocks::new(&blocks))),
            },
            // RFC 2018 section 3: 2 + 8n option bytes, plus two NOPs for alignment.
            if blocks.is_empty() {
                40
            } else {
                40 + 4 + 8 * blocks.len() as u32
            },
        );
        std::mem::swap(&mut p.src, &mut p.dst);
        p
    }

    fn be16(b: &[u8], at: usize) -> u16 {
        u16::from_be_bytes([b[at], b[at + 1]])
    }
    fn be32(b: &[u8], at: usize) -> u32 {
        u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
    }
    fn be64(b: &[u8], at: usize) -> u64 {
        u64::from_be_bytes(b[at..at + 8].try_into().unwrap())
    }
    fn le32(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }

    /// One record of a written file: (seconds, nanoseconds, original length, bytes).
    type Rec = (u32, u32, u32, Vec<u8>);

    /// Parses a whole file by hand: the file header's fields, then each record.
    fn parse(file: &[u8]) -> Vec<Rec> {
        assert_eq!(
            le32(file, 0),
            0xa1b2_3c4d,
            "nanosecond magic, little-endian"
        );
        assert_eq!(&file[4..8], &[2, 0, 4, 0], "version 2.4");
        assert_eq!(&file[8..16], &[0; 8], "thiszone and sigfigs");
        assert_eq!(le32(file, 16), 65_535, "snaplen");
        assert_eq!(le32(file, 20), 101, "LINKTYPE_RAW");
        let mut at = 24;
        let mut out = Vec::new();
        while at < file.len() {
            let incl = le32(file, at + 8) as usize;
            let orig = le32(file, at + 12);
            assert!(incl as u32 <= orig, "captured {incl} > original {orig}");
            let bytes = file[at + 16..at + 16 + incl].to_vec();
            out.push((le32(file, at), le32(file, at + 4), orig, bytes));
            at += 16 + incl;
        }
        assert_eq!(at, file.len(), "records end where the file ends");
        out
    }

    fn write(
        pkts: &[(u64, Packet<Hdr>)],
        setup: impl FnOnce(&mut PcapWriter<Vec<u8>>),
    ) -> Vec<Rec> {
        let mut w = PcapWriter::new(Vec::new()).unwrap();
        setup(&mut w);
        for (t, p) in pkts {
            w.write_packet(*t, p).unwrap();
        }
        assert_eq!(w.packets(), pkts.len() as u64);
        parse(&w.finish().unwrap())
    }

    /// The sum over a header that includes its checksum is 0xffff: the checksum is 0 again.
    fn verifies(bytes: &[u8], pseudo: u32) -> bool {
        internet_checksum(bytes, pseudo) == 0
    }

    fn l4_pseudo(ip: &[u8]) -> u32 {
        let total = be16(ip, 2);
        pseudo_sum(
            ip[12..16].try_into().unwrap(),
            ip[16..20].try_into().unwrap(),
            ip[9],
            total - 20,
        )
    }

    #[test]
    fn checksum_matches_rfc_1071_worked_example() {
        // RFC 1071 section 3: the bytes 00 01 f2 03 f4 f5 f6 f7 sum to ddf2 (one's
        // complement), so the checksum is its complement, 220d.
        let bytes = [0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7];
        assert_eq!(internet_checksum(&bytes, 0), !0xddf2);
        assert_eq!(internet_checksum(&bytes, 0), 0x220d);
    }

    #[test]
    fn checksum_matches_a_known_ipv4_header() {
        // 192.168.0.1 -> 192.168.0.199, UDP, total length 0x73, DF, TTL 64: the header
        // checksum is b861 (the widely reproduced example of the IPv4 header checksum).
        let h = [
            0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8,
            0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
        ];
        assert_eq!(internet_checksum(&h, 0), 0xb861);
        // An odd length pads with a zero byte.
        assert_eq!(internet_checksum(&[0xab], 0), !0xab00);
    }

    #[test]
    fn addresses_and_ports_follow_the_documented_mapping() {
        assert_eq!(ipv4_of(Addr { node: 0, agent: 9 }), [10, 0, 0, 1]);
        assert_eq!(
            ipv4_of(Addr {
                node: 255,
                agent: 0
            }),
            [10, 0, 1, 0]
        );
        assert_eq!(
            ipv4_of(Addr {
                node: 70_000,
                agent: 0
            }),
            [10, 1, 17, 113]
        );
        assert_eq!(ipv4_of(Addr::group(5)), [239, 0, 0, 5]);
        assert_eq!(ipv4_of(Addr::group(0x0102_0304)), [239, 2, 3, 4]);
        assert_eq!(port_of(0), 49_152);
        assert_eq!(port_of(15_999), 65_151);
        assert_eq!(port_of(16_000), 49_152);
        assert!(port_of(15_999) < RATE_PORT && RATE_PORT < TICP_PORT);
    }

    #[test]
    fn file_and_record_layout_parse_back_by_hand() {
        let mut p = data(3, 960);
        p.ecn = Ecn::Ce;
        let recs = write(&[(1_500_000_123, p), (2_000_000_000, ack(4, &[]))], |w| {
            w.set_tcp_flow(FlowId(4), 960, None);
        });
        assert_eq!(recs.len(), 2);
        let (sec, ns, orig, ip) = &recs[0];
        assert_eq!((*sec, *ns, *orig), (1, 500_000_123, 1000));
        assert_eq!(ip.len(), 40, "headers only: the payload is not captured");
        assert_eq!(ip[0], 0x45);
        assert_eq!(ip[1] & 0b11, 0b11, "CE");
        assert_eq!(be16(ip, 2), 1000, "total length is the simulated size");
        assert_eq!(be16(ip, 6), 0x4000, "DF");
        assert_eq!((ip[8], ip[9]), (64, 6));
        assert_eq!(&ip[12..16], &[10, 0, 0, 1]);
        assert_eq!(&ip[16..20], &[10, 0, 0, 3]);
        assert!(verifies(&ip[..20], 0), "IPv4 header checksum");
        let tcp = &ip[20..];
        assert_eq!((be16(tcp, 0), be16(tcp, 2)), (49_155, 49_159));
        assert_eq!(be32(tcp, 4), 3 * 960);
        assert_eq!(tcp[12] >> 4, 5);
        assert_eq!(tcp[13], TCP_PSH);
        assert_eq!(be16(tcp, 14), 65_535);
        // The TCP checksum holds for a payload of zeros, which adds nothing to the sum.
        assert!(verifies(tcp, l4_pseudo(ip)));

        let (sec, ns, orig, ip) = &recs[1];
        assert_eq!((*sec, *ns, *orig), (2, 0, 40));
        assert_eq!(ip.len(), 40, "a plain ACK is captured whole");
        assert_eq!(ip[1] & 0b11, 0, "not ECT");
        assert_eq!(&ip[12..16], &[10, 0, 0, 3]);
        assert_eq!(be32(&ip[20..], 8), 4 * 960);
        assert_eq!(ip[20 + 13], TCP_ACK);
        assert!(verifies(&ip[20..], l4_pseudo(ip)));
    }

    #[test]
    fn sack_blocks_become_byte_ranges_in_a_kind_5_option() {
        let mut a = ack(10, &[(14, 16), (12, 13)]);
        if let Hdr::TcpAck { ece, .. } = &mut a.header {
            *ece = true;
        }
        let recs = write(&[(0, a)], |w| w.set_tcp_flow(FlowId(4), 1000, None));
        let (_, _, orig, ip) = &recs[0];
        assert_eq!(ip.len(), 60);
        assert_eq!(*orig, 60);
        let tcp = &ip[20..];
        assert_eq!(tcp[12] >> 4, 10, "data offset covers 20 option bytes");
        assert_eq!(tcp[13], TCP_ACK | TCP_ECE);
        assert_eq!(be32(tcp, 8), 10_000);
        assert_eq!(&tcp[20..24], &[1, 1, 5, 18]);
        assert_eq!(
            [be32(tcp, 24), be32(tcp, 28), be32(tcp, 32), be32(tcp, 36)],
            [14_000, 16_000, 12_000, 13_000]
        );
        assert!(verifies(tcp, l4_pseudo(ip)));
    }

    #[test]
    fn a_finite_flow_acknowledges_its_last_short_segment_exactly() {
        // 2500 bytes in segments of 1000: the last segment holds 500 bytes, and the ACK of
        // everything acknowledges byte 2500, not 3000.
        let pkts = [(0, data(2, 500)), (1, ack(3, &[(2, 3)]))];
        let recs = write(&pkts, |w| w.set_tcp_flow(FlowId(4), 1000, Some(2500)));
        assert_eq!(be32(&recs[0].3, 24), 2000);
        assert_eq!(be32(&recs[1].3, 28), 2500);
        assert_eq!(be32(&recs[1].3, 44), 2000, "SACK left edge");
        assert_eq!(be32(&recs[1].3, 48), 2500, "SACK right edge");
    }

    #[test]
    fn an_unannounced_flow_takes_its_segment_size_from_its_first_packet() {
        let recs = write(&[(0, data(5, 700)), (1, data(6, 700))], |_| {});
        assert_eq!(be32(&recs[0].3, 24), 3500);
        assert_eq!(be32(&recs[1].3, 24), 4200);
        let recs = write(&[(0, ack(5, &[])), (1, data(6, 700))], |_| {});
        assert_eq!(be32(&recs[0].3, 28), 5 * FALLBACK_MSS);
        assert_eq!(
            be32(&recs[1].3, 24),
            6 * FALLBACK_MSS,
            "fixed by the ACK seen first"
        );
    }

    #[test]
    fn sequence_numbers_wrap_modulo_2_pow_32() {
        let seg = (1u64 << 32) / 1000 + 1; // the first segment past 2^32 bytes
        let recs = write(&[(0, data(seg, 1000))], |_| {});
        assert_eq!(u64::from(be32(&recs[0].3, 24)), (seg * 1000) % (1 << 32));
    }

    #[test]
    fn udp_datagrams_carry_their_sequence_number() {
        let mut p = pkt(
            Hdr::Udp {
                seq: 0x0102_0304_0506,
                payload: 972,
            },
            1000,
        );
        p.ecn = Ecn::Ect;
        let recs = write(&[(7, p)], |_| {});
        let (_, ns, orig, ip) = &recs[0];
        assert_eq!((*ns, *orig, ip.len()), (7, 1000, 56));
        assert_eq!(ip[1] & 0b11, 0b10, "ECT(0)");
        assert_eq!(ip[9], 17);
        let udp = &ip[20..];
        assert_eq!(
            (be16(udp, 0), be16(udp, 2), be16(udp, 4)),
            (49_155, 49_159, 980)
        );
        let h = &udp[8..];
        assert_eq!(&h[0..4], b"CCSM");
        assert_eq!((h[4], h[5], be16(h, 6)), (1, 1, 28));
        assert_eq!(be64(h, 20), 0x0102_0304_0506);
        assert!(verifies(udp, l4_pseudo(ip)));
    }

    #[test]
    fn private_header_fields_sit_at_the_documented_offsets() {
        let rate = pkt(
            Hdr::RateData {
                seq: 77,
                stamp: SimTime(123_456_789),
                rtt_us: 40_000,
                probe: 2,
            },
            1000,
        );
        let recs = write(&[(0, rate)], |_| {});
        let ip = &recs[0].3;
        let udp = &ip[20..];
        assert_eq!(be16(udp, 2), RATE_PORT);
        let h = &udp[8..];
        assert_eq!(&h[0..4], b"CCSM");
        assert_eq!((h[4], h[5], be16(h, 6)), (1, 2, 44));
        assert_eq!((be32(h, 8), be32(h, 12), be32(h, 16)), (4, 3, 7));
        assert_eq!(be64(h, 20), 77);
        assert_eq!(be64(h, 28), 123_456_789);
        assert_eq!(be32(h, 36), 40_000);
        assert_eq!(h[40], 2);
        assert_eq!(h.len(), 44);
        assert!(verifies(udp, l4_pseudo(ip)));

        let report = pkt(
            Hdr::ReceiverReport(Box::new(ReceiverReport {
                expected: 10,
                lost: 2,
                highest: None,
                echo: SimTime(5),
                held: Dur(6),
            })),
            60,
        );
        let recs = write(&[(0, report)], |_| {});
        let (_, _, orig, ip) = &recs[0];
        let h = &ip[28..];
        assert_eq!((h[5], be16(h, 6)), (5, 60));
        assert_eq!(
            *orig, 88,
            "the encoding is longer than the 60 simulated bytes"
        );
        assert_eq!(be16(ip, 2), 88);
        assert_eq!(
            [
                be64(h, 20),
                be64(h, 28),
                be64(h, 36),
                be64(h, 44),
                be64(h, 52)
            ],
            [10, 2, u64::MAX, 5, 6]
        );
    }

    #[test]
    fn every_header_encodes_with_consistent_lengths_and_checksums() {
        let headers = vec![
            (data(1, 960).header, 1000),
            (ack(1, &[(3, 4)]).header, 52),
            (Hdr::Udp { seq: 1, payload: 2 }, 30),
            (
                Hdr::RateData {
                    seq: 1,
                    stamp: SimTime(2),
                    rtt_us: 3,
                    probe: 0,
                },
                40,
            ),
            (
                Hdr::PrimoAck {
                    echo: SimTime(1),
                    ftt_ns: -5,
                    rcv_rate: 1.5e6,
                    start: true,
                },
                40,
            ),
            (
                Hdr::TfrcFeedback(Box::new(TfrcFeedback {
                    echo: SimTime(1),
                    delay: Dur(2),
                    x_recv: 3.5,
                    p: 0.01,
                })),
                44,
            ),
            (
                Hdr::TicpRequest(Box::new(TicpRequest {
                    stamp: SimTime(9),
                    ids: (0..20_000).collect(),
                    relay: true,
                })),
                60_000,
            ),
            (
                Hdr::TicpReport {
                    source: 3,
                    echo: SimTime(4),
                },
                1,
            ),
            (
                Hdr::TicpPing {
                    stamp: SimTime(1),
                    landmark: 2,
                    reply: true,
                },
                40,
            ),
            (Hdr::TicpRegister { bin: 3 }, 40),
            (Hdr::TicpRegisterAck, 40),
        ];
        let pkts: Vec<_> = headers
            .into_iter()
            .enumerate()
            .map(|(i, (h, size))| (i as u64, pkt(h, size)))
            .collect();
        let recs = write(&pkts, |_| {});
        for ((_, p), (_, _, orig, ip)) in pkts.iter().zip(&recs) {
            let what = format!("{:?}", p.header)
                .chars()
                .take(40)
                .collect::<String>();
            assert_eq!(*orig, p.size.max(ip.len() as u32), "{what}");
            assert_eq!(u32::from(be16(ip, 2)), *orig, "{what}");
            assert!(verifies(&ip[..20], 0), "{what}");
            if ip.len() as u32 == *orig {
                assert!(verifies(&ip[20..], l4_pseudo(ip)), "{what}");
            }
            if ip[9] == 17 {
                assert_eq!(u32::from(be16(ip, 24)), orig - 20, "UDP length: {what}");
            }
        }
        let ticp = &recs[6].3;
        assert_eq!(be16(&ticp[20..], 2), TICP_PORT);
        assert_eq!(be32(ticp, 28 + 32), 20_000, "the count of IDs is whole");
        assert!(
            ticp.len() <= 65_535 && ticp.len() > 65_000,
            "the list is cut at 65535 bytes"
        );
        assert_eq!(be32(ticp, 28 + 36 + 4 * 100), 100);
        let primo = &recs[4].3[28..];
        assert_eq!(primo[5], PrivateType::PrimoAck as u8);
        assert_eq!(be64(primo, 28) as i64, -5);
        assert_eq!(f32::from_bits(be32(primo, 36)), 1.5e6);
    }

    #[derive(Debug)]
    struct Failing;
    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("disk full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Accepts the file header, then fails.
    #[derive(Debug)]
    struct FailsAfter(usize);
    impl Write for FailsAfter {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            if self.0 < b.len() {
                return Err(io::Error::other("disk full"));
            }
            self.0 -= b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn write_errors_surface() {
        assert!(PcapWriter::new(Failing).is_err());
        let mut w = PcapWriter::new(FailsAfter(FILE_HEADER_BYTES)).unwrap();
        assert!(w.write_packet(0, &data(0, 960)).is_err());
        let mut w = PcapWriter::new(FailsAfter(FILE_HEADER_BYTES)).unwrap();
        w.record(0, &data(0, 960));
        w.record(1, &data(1, 960));
        assert_eq!(w.packets(), 0);
        let e = w.finish().unwrap_err();
        assert_eq!(e.to_string(), "disk full");
        let mut w = PcapWriter::new(Vec::new()).unwrap();
        let e = w.write_packet(u64::MAX, &data(0, 960)).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn the_same_packets_give_the_same_bytes() {
        let run = || {
            let mut w = PcapWriter::new(Vec::new()).unwrap();
            for k in 0..50 {
                w.record(k * 1000, &data(k, 960));
                w.record(k * 1000 + 500, &ack(k, &[(k + 2, k + 3)]));
            }
            w.finish().unwrap()
        };
        assert_eq!(run(), run());
    }
}
