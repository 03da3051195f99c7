//! The simulator's private header, carried inside UDP for its own protocols and for plain
//! datagrams (docs/pcap.md has the table of offsets).

use ccsim_core::Packet;
use ccsim_protocols::Hdr;

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
}

/// Appends the private header (docs/pcap.md has the table of offsets; all fields are
/// big-endian, times in nanoseconds).
pub(super) fn encode_private(pkt: &Packet<Hdr>, buf: &mut Vec<u8>) {
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
