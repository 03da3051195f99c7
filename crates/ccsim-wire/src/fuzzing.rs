//! The body of the `wire` fuzz target (fuzz/README.md), here so that the target and the
//! corpus replay (`tests/fuzz_corpus.rs`) run the same code.
//!
//! Any bytes go through every parser: the IPv4 view, then the UDP or TCP view of its payload,
//! the TCP options and the private header; and the same bytes straight into the UDP and TCP
//! views and the private decoder. Nothing may panic, and three properties must hold: setting
//! the ECN field keeps a correct IPv4 checksum correct and reads back; a UDP datagram the
//! encoders wrote verifies; every private message accepted, encoded again and padded to its
//! size, decodes to the same message (floats compared by their bits, through the encoding).

use ccsim_core::{Addr, Ecn, Packet, SimTime};
use ccsim_protocols::Hdr;

use crate::ipv4::{Ipv4Packet, PROTO_TCP, PROTO_UDP};
use crate::private::{decode_private, encode_private, PrivateMessage};
use crate::tcp::TcpSegment;
use crate::udp::UdpDatagram;

/// Runs every parser over `data`, panicking if a property fails (module doc).
pub fn check(data: &[u8]) {
    if let Ok(ip) = Ipv4Packet::new_checked(data) {
        let _ = (
            ip.dscp(),
            ip.ttl(),
            ip.ident(),
            ip.is_fragment(),
            ip.options(),
        );
        let ok = ip.verify_checksum();
        for ecn in [Ecn::NotEct, Ecn::Ect, Ecn::Ect1, Ecn::Ce] {
            let mut copy = data.to_vec();
            let mut p = Ipv4Packet::new_unchecked(&mut copy[..]);
            p.set_ecn(ecn);
            assert_eq!(p.ecn(), ecn, "set_ecn reads back");
            assert_eq!(
                p.verify_checksum(),
                ok,
                "set_ecn keeps the checksum's verdict"
            );
        }
        let (src, dst) = (ip.src(), ip.dst());
        match ip.protocol() {
            PROTO_UDP => udp(ip.payload(), Some((src, dst))),
            PROTO_TCP => tcp(ip.payload(), Some((src, dst))),
            _ => {}
        }
    }
    udp(data, None);
    tcp(data, None);
    private(data);
}

fn udp(bytes: &[u8], addrs: Option<([u8; 4], [u8; 4])>) {
    let Ok(d) = UdpDatagram::new_checked(bytes) else {
        return;
    };
    let _ = (d.src_port(), d.dst_port(), d.is_empty());
    if let Some((src, dst)) = addrs {
        let _ = d.verify_checksum(src, dst);
    }
    private(d.payload());
}

fn tcp(bytes: &[u8], addrs: Option<([u8; 4], [u8; 4])>) {
    let Ok(s) = TcpSegment::new_checked(bytes) else {
        return;
    };
    let _ = (
        s.seq(),
        s.ack_number(),
        s.ace(),
        s.window(),
        s.urgent(),
        s.payload(),
    );
    let _ = (s.fin(), s.syn(), s.rst(), s.psh(), s.ack(), s.urg());
    if let Some((src, dst)) = addrs {
        let _ = s.verify_checksum(src, dst);
    }
    let mut n = 0;
    for opt in s.options() {
        n += 1;
        assert!(n <= 40, "at most one option per option byte");
        if let Ok(crate::tcp::TcpOption::AccEcn(c)) = opt {
            let _ = (c.counter(0), c.counter(1), c.counter(2));
        }
    }
}

fn private(bytes: &[u8]) {
    if let Ok(m) = decode_private(bytes) {
        round_trip(&m);
    }
}

/// Encodes `m` again, pads it to its size and decodes it: the same message (floats compared by
/// their bits), and the same bytes when encoded once more.
pub fn round_trip(m: &PrivateMessage) {
    let first = encode(m);
    let again = decode_private(&first).expect("a re-encoded message decodes");
    assert_eq!(
        (again.flow, again.src_agent, again.dst_agent, again.size),
        (m.flow, m.src_agent, m.dst_agent, m.size)
    );
    assert_eq!(encode(&again), first, "the encoding is stable");
    // Equal headers; through their debug form, where every NaN reads alike (the bytes
    // compared above hold the bits).
    assert_eq!(format!("{:?}", again.header), format!("{:?}", m.header));
}

/// The UDP payload of `m`: its private header padded with zeros to `size - 28` bytes.
fn encode(m: &PrivateMessage) -> Vec<u8> {
    let pkt = Packet {
        src: Addr {
            node: 0,
            agent: m.src_agent,
        },
        dst: Addr {
            node: 1,
            agent: m.dst_agent,
        },
        flow: m.flow,
        size: m.size,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: m.header.clone(),
    };
    let mut buf = Vec::new();
    encode_private(&pkt, &mut buf);
    let len = (m.size as usize).saturating_sub(28);
    assert!(buf.len() <= len, "an accepted message fits its own size");
    buf.resize(len, 0);
    buf
}

/// One packet of every [`Hdr`] variant (TCP ACKs with and without SACK blocks, ACE and the
/// AccECN option; SYNs with and without timestamps), each of a size its encoding fits.
#[must_use]
pub fn samples() -> Vec<Packet<Hdr>> {
    use ccsim_core::{Dur, FlowId};
    use ccsim_protocols::{
        AccEcnOption, AckOptions, ReceiverReport, SackBlock, SackBlocks, TcpmKind, TfrcFeedback,
        TicpRequest,
    };
    let sack = SackBlocks::new(&[
        SackBlock { start: 9, end: 12 },
        SackBlock { start: 5, end: 7 },
        SackBlock {
            start: 1 << 40,
            end: (1 << 40) + 3,
        },
    ]);
    let accecn = AccEcnOption {
        fields: 2,
        e1b: 0x00ab_cdef,
        ceb: 7,
        e0b: 1,
        wire_bytes: 8,
    };
    let headers: Vec<(Hdr, u32)> = vec![
        (
            Hdr::TcpData {
                seq: 3,
                payload: 960,
                retx: true,
                cwr: true,
                psh: true,
            },
            1000,
        ),
        (
            Hdr::TcpAck {
                ack: 4,
                ece: true,
                opts: None,
                ace: None,
            },
            40,
        ),
        // Timestamps, two blocks and two AccECN counters fill the 40 option bytes.
        (
            Hdr::TcpAck {
                ack: 4,
                ece: false,
                opts: Some(Box::new(AckOptions {
                    sack: SackBlocks::new(&sack.as_slice()[..2]),
                    accecn: Some(accecn),
                })),
                ace: Some(5),
            },
            80,
        ),
        // Three blocks and one counter, whose last byte takes a NOP of the SACK option.
        (
            Hdr::TcpAck {
                ack: 4,
                ece: false,
                opts: Some(Box::new(AckOptions {
                    sack: sack.clone(),
                    accecn: Some(AccEcnOption {
                        fields: 1,
                        wire_bytes: 4,
                        ..accecn
                    }),
                })),
                ace: Some(2),
            },
            72,
        ),
        (
            Hdr::TcpAck {
                ack: 4,
                ece: false,
                opts: Some(Box::new(AckOptions {
                    sack: SackBlocks::new(&[]),
                    accecn: None,
                })),
                ace: Some(0),
            },
            52,
        ),
        (
            Hdr::TcpSyn {
                ack: false,
                accecn: true,
            },
            52,
        ),
        (
            Hdr::TcpSyn {
                ack: true,
                accecn: false,
            },
            60,
        ),
        (
            Hdr::Udp {
                seq: 77,
                payload: 972,
            },
            1000,
        ),
        (
            Hdr::RateData {
                seq: 8,
                stamp: SimTime(123_456_789),
                rtt_us: 40_000,
                probe: 2,
            },
            1000,
        ),
        (
            Hdr::PrimoAck {
                echo: SimTime(99),
                ftt_ns: -5_000,
                rcv_rate: 1.25e6,
                start: true,
            },
            72,
        ),
        (
            Hdr::TfrcFeedback(Box::new(TfrcFeedback {
                echo: SimTime(5),
                delay: Dur(6),
                x_recv: 12_500.5,
                p: 0.01,
            })),
            80,
        ),
        (
            Hdr::ReceiverReport(Box::new(ReceiverReport {
                expected: 100,
                lost: 3,
                highest: None,
                echo: SimTime(7),
                held: Dur(8),
            })),
            88,
        ),
        (
            Hdr::TicpRequest(Box::new(TicpRequest {
                stamp: SimTime(9),
                ids: vec![1, 2, 3, 70_000],
                relay: true,
            })),
            80,
        ),
        (
            Hdr::TicpReport {
                source: 12,
                echo: SimTime(9),
            },
            100,
        ),
        (
            Hdr::TicpPing {
                stamp: SimTime(10),
                landmark: 2,
                reply: true,
            },
            64,
        ),
        (Hdr::TicpRegister { bin: 5 }, 52),
        (Hdr::TicpRegisterAck, 48),
        (
            Hdr::TcpmControl {
                kind: TcpmKind::ReversePath,
                about: Addr { node: 4, agent: 9 },
                value: 17,
            },
            68,
        ),
        (
            Hdr::TcpmAck {
                ack: 6,
                ece: true,
                sack: Some(Box::new(sack)),
            },
            108,
        ),
        (
            Hdr::XcpData {
                seq: 1,
                retx: false,
                cwnd: 15_000,
                rtt_us: 80_000,
                feedback: -12.5,
            },
            1000,
        ),
        (
            Hdr::XcpAck {
                ack: 2,
                cwnd: 15_000,
                rtt_us: 80_000,
                feedback: 3.0,
            },
            68,
        ),
        (
            Hdr::ObpData {
                seq: 1,
                retx: true,
                narrow: f32::INFINITY,
                tight: -1.0e5,
            },
            1000,
        ),
        (
            Hdr::ObpAck {
                ack: 2,
                narrow: 1.25e6,
                tight: 2.0,
            },
            64,
        ),
    ];
    headers
        .into_iter()
        .enumerate()
        .map(|(i, (header, size))| Packet {
            src: Addr {
                node: 0,
                agent: 3 + i as u32,
            },
            dst: Addr {
                node: 2,
                agent: 70_000,
            },
            flow: FlowId(i as u32),
            size,
            sent_at: SimTime(1_500_000_000),
            ecn: [Ecn::NotEct, Ecn::Ect, Ecn::Ect1, Ecn::Ce][i % 4],
            header,
        })
        .collect()
}
