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
//!
//! The file format and the writer are here; the IPv4, TCP and UDP encoders and the
//! simulator's private header are in ccsim-wire (named here by `ip` and `private`), which a
//! real-socket driver shares.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use ccsim_core::{FlowId, Packet};
use ccsim_protocols::Hdr;

mod ip;
mod private;
#[cfg(test)]
mod tests;

use ip::{encode, TcpNumbering};

pub use ip::{internet_checksum, ipv4_of, port_of, AGENT_PORTS, AGENT_PORT_BASE, TCP_WINDOW, TTL};
pub use private::{
    PrivateType, OBP_PORT, PRIVATE_COMMON_BYTES, PRIVATE_MAGIC, PRIVATE_NONE, PRIVATE_VERSION,
    RATE_PORT, TCPM_PORT, TICP_PORT, XCP_PORT,
};

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
/// Segment size assumed for a TCP flow whose first packet in the capture is an ACK and of
/// which the writer was not told (the payload of the default 1000-byte packet).
pub const FALLBACK_MSS: u32 = ccsim_wire::packet::FALLBACK_MSS;

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
