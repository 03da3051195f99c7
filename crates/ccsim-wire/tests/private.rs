//! The private header's contract: every message the encoder writes, padded to its packet's
//! size, decodes to the same flow, agents, size and header; every truncation is an error.

use ccsim_core::{Addr, Dur, Ecn, FlowId, Packet, SimTime};
use ccsim_protocols::{
    AccEcnOption, AckOptions, Hdr, ReceiverReport, SackBlock, SackBlocks, TcpmKind, TfrcFeedback,
    TicpRequest,
};
use ccsim_wire::fuzzing::samples;
use ccsim_wire::private::{decode_private, encode_private, PrivateType};
use ccsim_wire::WireError;

/// The UDP payload of `pkt`: its private header padded with zeros to `size - 28` bytes.
fn payload(pkt: &Packet<Hdr>) -> Vec<u8> {
    let mut buf = Vec::new();
    encode_private(pkt, &mut buf);
    assert!(
        buf.len() + 28 <= pkt.size as usize,
        "{:?} fits its size",
        pkt.header
    );
    buf.resize(pkt.size as usize - 28, 0);
    buf
}

#[track_caller]
fn assert_round_trip(pkt: &Packet<Hdr>) {
    let m = decode_private(&payload(pkt)).unwrap_or_else(|e| panic!("{:?}: {e}", pkt.header));
    assert_eq!(m.flow, pkt.flow);
    assert_eq!((m.src_agent, m.dst_agent), (pkt.src.agent, pkt.dst.agent));
    assert_eq!(m.size, pkt.size);
    assert_eq!(m.header, pkt.header);
}

#[test]
fn every_variant_round_trips() {
    let all = samples();
    let mut types: Vec<u8> = all
        .iter()
        .map(|p| PrivateType::of(&p.header) as u8)
        .collect();
    types.sort_unstable();
    types.dedup();
    assert_eq!(
        types,
        (1..=19).collect::<Vec<u8>>(),
        "one sample per message type"
    );
    for mut pkt in all {
        // Over UDP a message is at least its private header and 28 bytes of IPv4 and UDP
        // (a sample TCP ACK has a real TCP header's 40 bytes).
        let mut enc = Vec::new();
        encode_private(&pkt, &mut enc);
        pkt.size = pkt.size.max(28 + enc.len() as u32);
        assert_round_trip(&pkt);
    }
}

#[test]
fn every_truncation_is_an_error() {
    for pkt in samples() {
        let mut enc = Vec::new();
        encode_private(&pkt, &mut enc);
        for n in 0..enc.len() {
            assert!(
                decode_private(&enc[..n]).is_err(),
                "{:?} cut to {n} bytes decodes",
                pkt.header
            );
        }
        assert!(decode_private(&enc).is_ok());
    }
}

#[test]
fn errors_name_what_is_wrong() {
    let mut enc = Vec::new();
    let all = samples();
    let datagram = all.iter().find(|p| matches!(p.header, Hdr::Udp { .. }));
    encode_private(datagram.expect("a datagram sample"), &mut enc);
    assert_eq!(
        decode_private(&enc[..7]).unwrap_err().to_string(),
        "truncated: private header needs 20 bytes, have 7"
    );
    let mut bad = enc.clone();
    bad[0] = b'X';
    assert_eq!(decode_private(&bad), Err(WireError::BadMagic));
    assert_eq!(WireError::BadMagic.to_string(), "bad private magic");
    bad = enc.clone();
    bad[5] = 42;
    assert_eq!(
        decode_private(&bad).unwrap_err().to_string(),
        "unknown private type 42"
    );
    bad = enc.clone();
    bad[4] = 2;
    assert_eq!(decode_private(&bad), Err(WireError::BadVersion(2)));
    bad = enc;
    bad[7] = 29; // a UDP datagram's header is 28 bytes
    assert!(decode_private(&bad).is_err());
}

/// A flag byte holding anything but 0 or 1, a TCP-M kind past 6, more than three SACK blocks,
/// an ACE above 7 and a TICP count that disagrees with the IDs are errors, not guesses.
#[test]
fn values_the_encoder_never_writes_are_errors() {
    let s = samples();
    let find = |ty: PrivateType| {
        let p = s.iter().find(|p| PrivateType::of(&p.header) == ty).unwrap();
        let mut b = Vec::new();
        encode_private(p, &mut b);
        b
    };
    for (ty, at, value) in [
        (PrivateType::PrimoAck, 40, 2),
        (PrivateType::TcpmControl, 20, 7),
        (PrivateType::TcpmAck, 28, 2),
        (PrivateType::TcpAck, 29, 8),
        (PrivateType::TcpAck, 31, 4),
        (PrivateType::TcpAck, 28, 0x10),
        (PrivateType::TcpData, 32, 8),
        (PrivateType::TcpSyn, 20, 4),
        (PrivateType::TicpRequest, 35, 5),
        (PrivateType::XcpData, 40, 255),
    ] {
        let mut b = find(ty);
        b[at] = value;
        assert!(
            decode_private(&b).is_err(),
            "{ty:?} with {value} at {at} decodes"
        );
    }
    // Four SACK blocks in a TCP-M ACK: the length agrees, the count is still refused.
    let mut b = find(PrivateType::TcpmAck);
    b[29] = 4;
    b.extend_from_slice(&[0; 16]);
    let len = b.len() as u16;
    b[6..8].copy_from_slice(&len.to_be_bytes());
    assert!(decode_private(&b).is_err());
}

/// The derived field: a plain datagram's payload is its size less 28, as `UdpSource` sets it.
#[test]
fn a_datagram_payload_comes_from_the_size() {
    let all = samples();
    let pkt = all
        .iter()
        .find(|p| matches!(p.header, Hdr::Udp { .. }))
        .expect("a datagram sample");
    let Hdr::Udp { payload, .. } = pkt.header else {
        unreachable!()
    };
    assert_eq!(payload, pkt.size - ccsim_protocols::UDP_HEADER_BYTES);
    assert_round_trip(pkt);
}

/// SplitMix64 (Steele, Lea and Flood 2014), for reproducible random field values.
struct Rng(u64);
impl Rng {
    fn u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn u32(&mut self) -> u32 {
        self.u64() as u32
    }
    fn u8(&mut self) -> u8 {
        self.u64() as u8
    }
    fn bool(&mut self) -> bool {
        self.u64() & 1 == 1
    }
    fn below(&mut self, n: u64) -> u64 {
        self.u64() % n
    }
    /// A float of random bits, NaN excepted (NaN is not equal to itself).
    fn f32(&mut self) -> f32 {
        let f = f32::from_bits(self.u32());
        if f.is_nan() {
            f32::INFINITY
        } else {
            f
        }
    }
    fn f64(&mut self) -> f64 {
        let f = f64::from_bits(self.u64());
        if f.is_nan() {
            -0.0
        } else {
            f
        }
    }
    fn time(&mut self) -> SimTime {
        SimTime(self.u64())
    }
    fn sack(&mut self, n: usize) -> SackBlocks {
        let blocks: Vec<SackBlock> = (0..n)
            .map(|_| SackBlock {
                start: self.u64(),
                end: self.u64(),
            })
            .collect();
        SackBlocks::new(&blocks)
    }
}

fn random_header(r: &mut Rng, variant: u64) -> Hdr {
    match variant {
        0 => Hdr::TcpData {
            seq: r.u64(),
            payload: r.u32(),
            retx: r.bool(),
            cwr: r.bool(),
            psh: r.bool(),
        },
        1 => {
            let n = r.below(4) as usize;
            let accecn = r.bool().then(|| AccEcnOption {
                fields: r.below(4) as u8,
                e1b: r.u32(),
                ceb: r.u32(),
                e0b: r.u32(),
                wire_bytes: r.u8(),
            });
            let opts = (n > 0 || accecn.is_some() || r.bool()).then(|| {
                Box::new(AckOptions {
                    sack: r.sack(n),
                    accecn,
                })
            });
            Hdr::TcpAck {
                ack: r.u64(),
                ece: r.bool(),
                opts,
                ace: r.bool().then(|| r.below(8) as u8),
            }
        }
        2 => Hdr::TcpSyn {
            ack: r.bool(),
            accecn: r.bool(),
        },
        3 => Hdr::Udp {
            seq: r.u64(),
            payload: 0, // set from the size below
        },
        4 => Hdr::RateData {
            seq: r.u64(),
            stamp: r.time(),
            rtt_us: r.u32(),
            probe: r.u8(),
        },
        5 => Hdr::PrimoAck {
            echo: r.time(),
            ftt_ns: r.u64() as i64,
            rcv_rate: r.f32(),
            start: r.bool(),
        },
        6 => Hdr::TfrcFeedback(Box::new(TfrcFeedback {
            echo: r.time(),
            delay: Dur(r.u64()),
            x_recv: r.f64(),
            p: r.f64(),
        })),
        7 => Hdr::ReceiverReport(Box::new(ReceiverReport {
            expected: r.u64(),
            lost: r.u64(),
            highest: Some(r.u64()).filter(|&h| h != u64::MAX && r.bool()),
            echo: r.time(),
            held: Dur(r.u64()),
        })),
        8 => Hdr::TicpRequest(Box::new(TicpRequest {
            stamp: r.time(),
            ids: (0..r.below(300)).map(|_| r.u32()).collect(),
            relay: r.bool(),
        })),
        9 => Hdr::TicpReport {
            source: r.u32(),
            echo: r.time(),
        },
        10 => Hdr::TicpPing {
            stamp: r.time(),
            landmark: r.u32(),
            reply: r.bool(),
        },
        11 => Hdr::TicpRegister { bin: r.u32() },
        12 => Hdr::TicpRegisterAck,
        13 => Hdr::TcpmControl {
            kind: [
                TcpmKind::JoinRequest,
                TcpmKind::JoinAck,
                TcpmKind::Path,
                TcpmKind::ReversePath,
                TcpmKind::Fin,
                TcpmKind::FinAck,
                TcpmKind::Close,
            ][r.below(7) as usize],
            about: Addr {
                node: r.u32(),
                agent: r.u32(),
            },
            value: r.u64(),
        },
        14 => {
            let n = r.below(4) as usize;
            Hdr::TcpmAck {
                ack: r.u64(),
                ece: r.bool(),
                sack: (n > 0).then(|| Box::new(r.sack(n))),
            }
        }
        15 => Hdr::XcpData {
            seq: r.u64(),
            retx: r.bool(),
            cwnd: r.u32(),
            rtt_us: r.u32(),
            feedback: r.f32(),
        },
        16 => Hdr::XcpAck {
            ack: r.u64(),
            cwnd: r.u32(),
            rtt_us: r.u32(),
            feedback: r.f32(),
        },
        17 => Hdr::ObpData {
            seq: r.u64(),
            retx: r.bool(),
            narrow: r.f32(),
            tight: r.f32(),
        },
        _ => Hdr::ObpAck {
            ack: r.u64(),
            narrow: r.f32(),
            tight: r.f32(),
        },
    }
}

#[test]
fn random_field_values_round_trip() {
    let mut r = Rng(29);
    for i in 0..20_000u64 {
        let mut header = random_header(&mut r, i % 19);
        let mut pkt = Packet {
            src: Addr {
                node: r.u32(),
                agent: r.u32(),
            },
            dst: Addr {
                node: r.u32(),
                agent: r.u32(),
            },
            flow: FlowId(r.u32()),
            size: 0,
            sent_at: r.time(),
            ecn: Ecn::NotEct,
            header: Hdr::TicpRegisterAck,
        };
        let mut enc = Vec::new();
        pkt.header = header.clone();
        encode_private(&pkt, &mut enc);
        let size = 28 + enc.len() as u32 + r.below(1500) as u32;
        if let Hdr::Udp { payload, .. } = &mut header {
            *payload = size - 28;
        }
        pkt.size = size;
        pkt.header = header;
        assert_round_trip(&pkt);
    }
}
