//! The simulator's private header, carried inside UDP (RFC 768) for its own protocols and
//! for plain datagrams: its encoder and its checked decoder (docs/pcap.md has the table of
//! offsets). The messages are those of the papers ccsim reproduces: TFRC's feedback
//! (RFC 5348 section 3.2.2), RTCP-style receiver reports (RFC 3550 section 6.4.2's fields),
//! TICP, Primo, XCP, OBP and TCP-M; types 17 to 19 carry ccsim's own TCP (RFC 9293 segments
//! as the simulator numbers them, with SACK blocks, RFC 2018, and AccECN's counters,
//! draft-ietf-tcpm-accurate-ecn) over UDP, for `ccsim real`.
//!
//! CHOICE: a field the layout does not carry is derived from the UDP payload's size as the
//! agents set it: [`Hdr::Udp`]'s payload is the IP size less 28 (`UdpSource`); every other
//! message's size is the packet's, reported in [`PrivateMessage::size`].
//! CHOICE: the decoder is strict: the header length must be its type's (for a TICP request,
//! 36 plus 4 per ID, and the ID count must match; for a TCP-M ACK, 32 plus 16 per SACK
//! block, at most 3), a flag byte must be 0 or 1 (the TCP types: only their defined bits),
//! an ACE at most 7 and AccECN fields at most 3. Padding bytes are not read.
//! CHOICE: TCP over UDP (types 17 to 19) goes to the receiving agent's own port, as plain
//! datagrams do ([`family_port`]): a TCP flow's two agents are a connection's two ends.
//! CHOICE: a TICP request whose IDs would take its IPv4 packet past 65535 bytes is cut there
//! by the encoder (its count still the full list's); the decoder refuses it.
//! CHOICE: a TCP-M ACK without SACK blocks decodes as `sack: None` (the layout has a count
//! only); a TCP ACK records whether its options are there, so `Some` of no blocks survives.

use ccsim_core::{Addr, Dur, FlowId, Packet, SimTime};
use ccsim_protocols::{
    AccEcnOption, AckOptions, Hdr, ReceiverReport, SackBlock, SackBlocks, TcpmKind, TfrcFeedback,
    TicpRequest, UDP_HEADER_BYTES,
};

use crate::error::need;
use crate::WireError;

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
    /// [`Hdr::TcpData`], carried over UDP.
    TcpData = 17,
    /// [`Hdr::TcpAck`], carried over UDP.
    TcpAck = 18,
    /// [`Hdr::TcpSyn`], carried over UDP.
    TcpSyn = 19,
}

impl PrivateType {
    /// The type of message `hdr`.
    #[must_use]
    pub fn of(hdr: &Hdr) -> PrivateType {
        match hdr {
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
            Hdr::TcpData { .. } => PrivateType::TcpData,
            Hdr::TcpAck { .. } => PrivateType::TcpAck,
            Hdr::TcpSyn { .. } => PrivateType::TcpSyn,
        }
    }
}

/// The destination port of `hdr`'s family, or `None` for the messages that go to the
/// receiving agent's own port (plain datagrams and TCP over UDP).
#[must_use]
pub fn family_port(hdr: &Hdr) -> Option<u16> {
    match hdr {
        Hdr::Udp { .. } | Hdr::TcpData { .. } | Hdr::TcpAck { .. } | Hdr::TcpSyn { .. } => None,
        Hdr::RateData { .. }
        | Hdr::PrimoAck { .. }
        | Hdr::TfrcFeedback(_)
        | Hdr::ReceiverReport(_) => Some(RATE_PORT),
        Hdr::TcpmControl { .. } | Hdr::TcpmAck { .. } => Some(TCPM_PORT),
        Hdr::XcpData { .. } | Hdr::XcpAck { .. } => Some(XCP_PORT),
        Hdr::ObpData { .. } | Hdr::ObpAck { .. } => Some(OBP_PORT),
        Hdr::TicpRequest(_)
        | Hdr::TicpReport { .. }
        | Hdr::TicpPing { .. }
        | Hdr::TicpRegister { .. }
        | Hdr::TicpRegisterAck => Some(TICP_PORT),
    }
}

/// Flag bits of a TCP data message (type 17).
const TCPD_RETX: u8 = 1;
const TCPD_CWR: u8 = 2;
const TCPD_PSH: u8 = 4;
/// Flag bits of a TCP ACK message (type 18).
const TCPA_ECE: u8 = 1;
const TCPA_ACE: u8 = 2;
const TCPA_OPTS: u8 = 4;
const TCPA_ACCECN: u8 = 8;
/// Flag bits of a TCP SYN message (type 19).
const TCPS_ACK: u8 = 1;
const TCPS_ACCECN: u8 = 2;

/// A private message read back: the common fields and the header.
#[derive(Clone, Debug, PartialEq)]
pub struct PrivateMessage {
    /// The flow index.
    pub flow: FlowId,
    /// The sending agent's index.
    pub src_agent: u32,
    /// The receiving agent's index (a multicast request's group key).
    pub dst_agent: u32,
    /// The IP packet's size: the UDP payload's length plus 28 (IPv4 and UDP headers).
    pub size: u32,
    /// The message.
    pub header: Hdr,
}

/// Appends the private header of `pkt` (its fields only, no padding; docs/pcap.md has the
/// table of offsets; all fields are big-endian, times in nanoseconds).
pub fn encode_private(pkt: &Packet<Hdr>, buf: &mut Vec<u8>) {
    let start = buf.len();
    let ty = PrivateType::of(&pkt.header);
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
            // The list is cut where the IPv4 packet (this header after 28 bytes of IPv4 and
            // UDP) would pass 65535 bytes.
            let used = UDP_HEADER_BYTES as usize + (buf.len() - start);
            let room = (usize::from(u16::MAX) - used) / 4;
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
        Hdr::TcpData {
            seq,
            payload,
            retx,
            cwr,
            psh,
        } => {
            u64be(buf, *seq);
            u32be(buf, *payload);
            let flags = if *retx { TCPD_RETX } else { 0 }
                | if *cwr { TCPD_CWR } else { 0 }
                | if *psh { TCPD_PSH } else { 0 };
            buf.extend_from_slice(&[flags, 0, 0, 0]);
        }
        Hdr::TcpAck {
            ack,
            ece,
            opts,
            ace,
        } => {
            let blocks = opts.as_deref().map_or(&[][..], |o| o.sack.as_slice());
            let accecn = opts.as_deref().and_then(|o| o.accecn);
            let flags = if *ece { TCPA_ECE } else { 0 }
                | if ace.is_some() { TCPA_ACE } else { 0 }
                | if opts.is_some() { TCPA_OPTS } else { 0 }
                | if accecn.is_some() { TCPA_ACCECN } else { 0 };
            u64be(buf, *ack);
            let a = accecn.unwrap_or(AccEcnOption {
                fields: 0,
                e1b: 0,
                ceb: 0,
                e0b: 0,
                wire_bytes: 0,
            });
            buf.extend_from_slice(&[
                flags,
                ace.unwrap_or(0),
                blocks.len() as u8,
                a.fields,
                a.wire_bytes,
                0,
                0,
                0,
            ]);
            u32be(buf, a.e1b);
            u32be(buf, a.ceb);
            u32be(buf, a.e0b);
            for b in blocks {
                u64be(buf, b.start);
                u64be(buf, b.end);
            }
        }
        Hdr::TcpSyn { ack, accecn } => {
            let flags = if *ack { TCPS_ACK } else { 0 } | if *accecn { TCPS_ACCECN } else { 0 };
            buf.extend_from_slice(&[flags, 0, 0, 0]);
        }
        Hdr::TicpRegisterAck => {}
    }
    let len = u16::try_from(buf.len() - start).unwrap_or(u16::MAX);
    buf[start + 6..start + 8].copy_from_slice(&len.to_be_bytes());
}

/// A cursor over the private header's bytes (its length already checked against the
/// buffer): every read is bounds-checked all the same.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], WireError> {
        need("private header field", self.at + N, self.b.len())?;
        let mut out = [0u8; N];
        out.copy_from_slice(&self.b[self.at..self.at + N]);
        self.at += N;
        Ok(out)
    }
    fn u8(&mut self) -> Result<u8, WireError> {
        Ok(self.take::<1>()?[0])
    }
    fn u32(&mut self) -> Result<u32, WireError> {
        Ok(u32::from_be_bytes(self.take()?))
    }
    fn u64(&mut self) -> Result<u64, WireError> {
        Ok(u64::from_be_bytes(self.take()?))
    }
    fn f32(&mut self) -> Result<f32, WireError> {
        Ok(f32::from_bits(self.u32()?))
    }
    fn time(&mut self) -> Result<SimTime, WireError> {
        Ok(SimTime(self.u64()?))
    }
    fn skip(&mut self, n: usize) {
        self.at += n;
    }
    /// A flag byte: 0 or 1.
    fn bool(&mut self, what: &'static str) -> Result<bool, WireError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(WireError::BadField {
                what,
                value: u64::from(v),
            }),
        }
    }
    /// A flag byte whose set bits are all within `allowed`.
    fn flags(&mut self, what: &'static str, allowed: u8) -> Result<u8, WireError> {
        let v = self.u8()?;
        if v & !allowed != 0 {
            return Err(WireError::BadField {
                what,
                value: u64::from(v),
            });
        }
        Ok(v)
    }
    fn sack(&mut self, n: usize) -> Result<SackBlocks, WireError> {
        let mut blocks = [SackBlock { start: 0, end: 0 }; SackBlocks::MAX];
        for b in blocks.iter_mut().take(n) {
            b.start = self.u64()?;
            b.end = self.u64()?;
        }
        Ok(SackBlocks::new(&blocks[..n.min(SackBlocks::MAX)]))
    }
}

/// The header length a message of type `ty` must have: its fixed length, or for a variable
/// one, what its count (read from the header `b`) gives.
fn expected_len(ty: PrivateType, b: &[u8]) -> Result<usize, WireError> {
    let fixed = |n: usize| Ok(n);
    match ty {
        PrivateType::Udp => fixed(28),
        PrivateType::RateData | PrivateType::PrimoAck => fixed(44),
        PrivateType::TfrcFeedback => fixed(52),
        PrivateType::ReceiverReport => fixed(60),
        PrivateType::TicpRequest => {
            need("TICP request", 36, b.len())?;
            Ok(36 + (b.len() - 36) / 4 * 4)
        }
        PrivateType::TicpReport => fixed(32),
        PrivateType::TicpPing => fixed(36),
        PrivateType::TicpRegister => fixed(24),
        PrivateType::TicpRegisterAck => fixed(20),
        PrivateType::TcpmControl => fixed(40),
        PrivateType::TcpmAck => {
            need("TCP-M ACK", 32, b.len())?;
            sack_count(b[29]).map(|n| 32 + 16 * n)
        }
        PrivateType::XcpData => fixed(44),
        PrivateType::XcpAck => fixed(40),
        PrivateType::ObpData => fixed(40),
        PrivateType::ObpAck => fixed(36),
        PrivateType::TcpData => fixed(36),
        PrivateType::TcpAck => {
            need("TCP ACK", 48, b.len())?;
            sack_count(b[30]).map(|n| 48 + 16 * n)
        }
        PrivateType::TcpSyn => fixed(24),
    }
}

/// A SACK block count, at most [`SackBlocks::MAX`].
fn sack_count(n: u8) -> Result<usize, WireError> {
    if usize::from(n) > SackBlocks::MAX {
        return Err(WireError::BadField {
            what: "private SACK block count",
            value: u64::from(n),
        });
    }
    Ok(usize::from(n))
}

fn private_type(t: u8) -> Result<PrivateType, WireError> {
    use PrivateType as P;
    Ok(match t {
        1 => P::Udp,
        2 => P::RateData,
        3 => P::PrimoAck,
        4 => P::TfrcFeedback,
        5 => P::ReceiverReport,
        6 => P::TicpRequest,
        7 => P::TicpReport,
        8 => P::TicpPing,
        9 => P::TicpRegister,
        10 => P::TicpRegisterAck,
        11 => P::TcpmControl,
        12 => P::TcpmAck,
        13 => P::XcpData,
        14 => P::XcpAck,
        15 => P::ObpData,
        16 => P::ObpAck,
        17 => P::TcpData,
        18 => P::TcpAck,
        19 => P::TcpSyn,
        _ => return Err(WireError::UnknownType(t)),
    })
}

fn tcpm_kind(k: u8) -> Result<TcpmKind, WireError> {
    use TcpmKind as K;
    Ok(match k {
        0 => K::JoinRequest,
        1 => K::JoinAck,
        2 => K::Path,
        3 => K::ReversePath,
        4 => K::Fin,
        5 => K::FinAck,
        6 => K::Close,
        _ => {
            return Err(WireError::BadField {
                what: "TCP-M message kind",
                value: u64::from(k),
            })
        }
    })
}

/// Reads a UDP payload that starts with the private header; bytes after the header's own
/// length are padding and ignored. `size` of the result is the IP packet's size: the UDP
/// payload's length + 28 (IPv4 and UDP headers).
///
/// # Errors
/// The payload is shorter than its header, the magic, version or type is not one this crate
/// writes, the header's length is not its type's, or a field holds a value the encoder never
/// writes (module CHOICE).
pub fn decode_private(udp_payload: &[u8]) -> Result<PrivateMessage, WireError> {
    let p = udp_payload;
    need("private header", PRIVATE_COMMON_BYTES, p.len())?;
    if p[0..4] != PRIVATE_MAGIC {
        return Err(WireError::BadMagic);
    }
    if p[4] != PRIVATE_VERSION {
        return Err(WireError::BadVersion(p[4]));
    }
    let ty = private_type(p[5])?;
    let len = u16::from_be_bytes([p[6], p[7]]);
    need("private header", usize::from(len), p.len())?;
    let b = &p[..usize::from(len)];
    let bad_len = WireError::BadLength { ty: p[5], len };
    if usize::from(len) < PRIVATE_COMMON_BYTES || expected_len(ty, b)? != b.len() {
        return Err(bad_len);
    }
    let size = u32::try_from(p.len())
        .ok()
        .and_then(|n| n.checked_add(UDP_HEADER_BYTES))
        .ok_or(WireError::BadField {
            what: "UDP payload length",
            value: p.len() as u64,
        })?;
    let mut r = Reader { b, at: 8 };
    let flow = FlowId(r.u32()?);
    let src_agent = r.u32()?;
    let dst_agent = r.u32()?;
    let header = match ty {
        PrivateType::Udp => Hdr::Udp {
            seq: r.u64()?,
            payload: size.saturating_sub(UDP_HEADER_BYTES),
        },
        PrivateType::RateData => Hdr::RateData {
            seq: r.u64()?,
            stamp: r.time()?,
            rtt_us: r.u32()?,
            probe: r.u8()?,
        },
        PrivateType::PrimoAck => Hdr::PrimoAck {
            echo: r.time()?,
            ftt_ns: i64::from_be_bytes(r.take()?),
            rcv_rate: r.f32()?,
            start: r.bool("Primo start flag")?,
        },
        PrivateType::TfrcFeedback => Hdr::TfrcFeedback(Box::new(TfrcFeedback {
            echo: r.time()?,
            delay: Dur(r.u64()?),
            x_recv: f64::from_bits(r.u64()?),
            p: f64::from_bits(r.u64()?),
        })),
        PrivateType::ReceiverReport => Hdr::ReceiverReport(Box::new(ReceiverReport {
            expected: r.u64()?,
            lost: r.u64()?,
            highest: Some(r.u64()?).filter(|&h| h != PRIVATE_NONE),
            echo: r.time()?,
            held: Dur(r.u64()?),
        })),
        PrivateType::TicpRequest => {
            let stamp = r.time()?;
            let relay = r.bool("TICP relay flag")?;
            r.skip(3);
            let count = r.u32()?;
            let present = (b.len() - 36) / 4;
            if count as usize != present {
                return Err(WireError::BadField {
                    what: "TICP request ID count",
                    value: u64::from(count),
                });
            }
            let mut ids = Vec::with_capacity(present);
            for _ in 0..present {
                ids.push(r.u32()?);
            }
            Hdr::TicpRequest(Box::new(TicpRequest { stamp, ids, relay }))
        }
        PrivateType::TicpReport => Hdr::TicpReport {
            source: r.u32()?,
            echo: r.time()?,
        },
        PrivateType::TicpPing => Hdr::TicpPing {
            stamp: r.time()?,
            landmark: r.u32()?,
            reply: r.bool("TICP reply flag")?,
        },
        PrivateType::TicpRegister => Hdr::TicpRegister { bin: r.u32()? },
        PrivateType::TicpRegisterAck => Hdr::TicpRegisterAck,
        PrivateType::TcpmControl => {
            let kind = tcpm_kind(r.u8()?)?;
            r.skip(3);
            Hdr::TcpmControl {
                kind,
                about: Addr {
                    node: r.u32()?,
                    agent: r.u32()?,
                },
                value: r.u64()?,
            }
        }
        PrivateType::TcpmAck => {
            let ack = r.u64()?;
            let ece = r.bool("TCP-M ECN-Echo flag")?;
            let n = sack_count(r.u8()?)?;
            r.skip(2);
            let sack = if n == 0 {
                None
            } else {
                Some(Box::new(r.sack(n)?))
            };
            Hdr::TcpmAck { ack, ece, sack }
        }
        PrivateType::XcpData => {
            let seq = r.u64()?;
            let cwnd = r.u32()?;
            let rtt_us = r.u32()?;
            let feedback = r.f32()?;
            let retx = r.bool("XCP retransmission flag")?;
            Hdr::XcpData {
                seq,
                retx,
                cwnd,
                rtt_us,
                feedback,
            }
        }
        PrivateType::XcpAck => Hdr::XcpAck {
            ack: r.u64()?,
            cwnd: r.u32()?,
            rtt_us: r.u32()?,
            feedback: r.f32()?,
        },
        PrivateType::ObpData => {
            let seq = r.u64()?;
            let narrow = r.f32()?;
            let tight = r.f32()?;
            let retx = r.bool("OBP retransmission flag")?;
            Hdr::ObpData {
                seq,
                retx,
                narrow,
                tight,
            }
        }
        PrivateType::ObpAck => Hdr::ObpAck {
            ack: r.u64()?,
            narrow: r.f32()?,
            tight: r.f32()?,
        },
        PrivateType::TcpData => {
            let seq = r.u64()?;
            let payload = r.u32()?;
            let f = r.flags("TCP data flags", TCPD_RETX | TCPD_CWR | TCPD_PSH)?;
            Hdr::TcpData {
                seq,
                payload,
                retx: f & TCPD_RETX != 0,
                cwr: f & TCPD_CWR != 0,
                psh: f & TCPD_PSH != 0,
            }
        }
        PrivateType::TcpAck => {
            let ack = r.u64()?;
            let f = r.flags(
                "TCP ACK flags",
                TCPA_ECE | TCPA_ACE | TCPA_OPTS | TCPA_ACCECN,
            )?;
            let ace = r.u8()?;
            let n = sack_count(r.u8()?)?;
            let fields = r.u8()?;
            let wire_bytes = r.u8()?;
            r.skip(3);
            let (e1b, ceb, e0b) = (r.u32()?, r.u32()?, r.u32()?);
            let sack = r.sack(n)?;
            if ace > 7 || (f & TCPA_ACE == 0 && ace != 0) {
                return Err(WireError::BadField {
                    what: "TCP ACK ACE",
                    value: u64::from(ace),
                });
            }
            if fields > 3 {
                return Err(WireError::BadField {
                    what: "TCP ACK AccECN fields",
                    value: u64::from(fields),
                });
            }
            let has_opts = f & TCPA_OPTS != 0;
            if !has_opts && (n > 0 || f & TCPA_ACCECN != 0) {
                return Err(WireError::BadField {
                    what: "TCP ACK flags",
                    value: u64::from(f),
                });
            }
            let accecn = (f & TCPA_ACCECN != 0).then_some(AccEcnOption {
                fields,
                e1b,
                ceb,
                e0b,
                wire_bytes,
            });
            Hdr::TcpAck {
                ack,
                ece: f & TCPA_ECE != 0,
                opts: has_opts.then(|| Box::new(AckOptions { sack, accecn })),
                ace: (f & TCPA_ACE != 0).then_some(ace),
            }
        }
        PrivateType::TcpSyn => {
            let f = r.flags("TCP SYN flags", TCPS_ACK | TCPS_ACCECN)?;
            Hdr::TcpSyn {
                ack: f & TCPS_ACK != 0,
                accecn: f & TCPS_ACCECN != 0,
            }
        }
    };
    Ok(PrivateMessage {
        flow,
        src_agent,
        dst_agent,
        size,
        header,
    })
}
