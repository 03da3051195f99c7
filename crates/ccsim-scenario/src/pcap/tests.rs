//! The pcap writer and encoders against the RFCs' layouts, parsed back by hand.

use super::ip::*;
use super::private::*;
use super::*;
use ccsim_core::{Addr, Dur, Ecn, SimTime};
use ccsim_protocols::{
    AckOptions, ReceiverReport, SackBlock, SackBlocks, TfrcFeedback, TicpRequest,
};

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
            psh: true,
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
            opts: (!blocks.is_empty()).then(|| {
                Box::new(AckOptions {
                    sack: SackBlocks::new(&blocks),
                    accecn: None,
                })
            }),
            ace: None,
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

fn write(pkts: &[(u64, Packet<Hdr>)], setup: impl FnOnce(&mut PcapWriter<Vec<u8>>)) -> Vec<Rec> {
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
        0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8, 0x00,
        0x01, 0xc0, 0xa8, 0x00, 0xc7,
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
    assert_eq!(tcp[13], TCP_ACK | TCP_PSH);
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
