//! The views against the RFCs' layouts: a hand-written Linux SYN, the RFC 1071 example,
//! the encoders' own output read back, every truncation and hostile option lengths.

use ccsim_core::{Ecn, Packet};
use ccsim_protocols::Hdr;
use ccsim_wire::checksum::{internet_checksum, update};
use ccsim_wire::ecn::{ecn_of, mark_ce};
use ccsim_wire::fuzzing::samples;
use ccsim_wire::ipv4::{PROTO_TCP, PROTO_UDP};
use ccsim_wire::packet::{encode_packet, ipv4_of, port_of, TcpNumbering};
use ccsim_wire::private::decode_private;
use ccsim_wire::tcp::{AccEcnCounters, TcpOptions, OPT_ACCECN1};
use ccsim_wire::{Ipv4Packet, TcpOption, TcpSegment, UdpDatagram, WireError};

/// A Linux SYN from 192.168.0.104:41532 to 192.168.0.1:80, written from the layouts of
/// RFC 791 section 3.1 (IPv4: IHL 5, total length 60, DF, TTL 64), RFC 9293 section 3.1
/// (TCP: data offset 10, SYN, window 64240) and Linux's option order for a SYN
/// (`tcp_options_write`): MSS 1460 (RFC 9293 3.2), SACK-permitted (RFC 2018 2), timestamps
/// TSval 0x000a1b2c TSecr 0 (RFC 7323 3.2), NOP, window scale 7 (RFC 7323 2.2). The two
/// checksums were computed apart from this crate (a Python RFC 1071 sum).
const LINUX_SYN: [u8; 60] = [
    0x45, 0x00, 0x00, 0x3c, 0x1c, 0x46, 0x40, 0x00, 0x40, 0x06, 0x9c, 0xbc, 0xc0, 0xa8, 0x00, 0x68,
    0xc0, 0xa8, 0x00, 0x01, // IPv4
    0xa2, 0x3c, 0x00, 0x50, 0x1a, 0x2b, 0x3c, 0x4d, 0x00, 0x00, 0x00, 0x00, 0xa0, 0x02, 0xfa, 0xf0,
    0xb7, 0x1a, 0x00, 0x00, // TCP
    0x02, 0x04, 0x05, 0xb4, 0x04, 0x02, 0x08, 0x0a, 0x00, 0x0a, 0x1b, 0x2c, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x03, 0x03, 0x07, // options
];

#[test]
fn a_linux_syn_parses() {
    let ip = Ipv4Packet::new_checked(&LINUX_SYN[..]).unwrap();
    assert!(ip.verify_checksum());
    assert_eq!((ip.version(), ip.header_len(), ip.total_len()), (4, 20, 60));
    assert_eq!(
        (ip.ttl(), ip.protocol(), ip.ecn(), ip.dscp()),
        (64, PROTO_TCP, Ecn::NotEct, 0)
    );
    assert!(ip.dont_frag() && !ip.is_fragment());
    assert_eq!((ip.src(), ip.dst()), ([192, 168, 0, 104], [192, 168, 0, 1]));
    let tcp = TcpSegment::new_checked(ip.payload()).unwrap();
    assert!(tcp.verify_checksum(ip.src(), ip.dst()));
    assert_eq!((tcp.src_port(), tcp.dst_port()), (41532, 80));
    assert_eq!(
        (tcp.seq(), tcp.ack_number(), tcp.header_len()),
        (0x1a2b_3c4d, 0, 40)
    );
    assert!(tcp.syn() && !tcp.ack() && !tcp.ece() && !tcp.cwr() && !tcp.ae());
    assert_eq!(tcp.window(), 64240);
    assert!(tcp.payload().is_empty());
    let opts: Vec<_> = tcp.options().collect::<Result<_, _>>().unwrap();
    assert_eq!(
        opts,
        [
            TcpOption::Mss(1460),
            TcpOption::SackPermitted,
            TcpOption::Timestamps {
                tsval: 0x000a_1b2c,
                tsecr: 0
            },
            TcpOption::Nop,
            TcpOption::WindowScale(7),
        ]
    );
    // A flipped bit anywhere fails one of the two checksums.
    for i in 0..LINUX_SYN.len() {
        let mut p = LINUX_SYN;
        p[i] ^= 0x10;
        let Ok(ip) = Ipv4Packet::new_checked(&p[..]) else {
            continue;
        };
        let tcp_ok = TcpSegment::new_checked(ip.payload())
            .is_ok_and(|t| t.verify_checksum(ip.src(), ip.dst()));
        assert!(
            !(ip.verify_checksum() && tcp_ok),
            "flip at byte {i} verifies"
        );
    }
}

/// RFC 1071 section 3's numerical example: the words 0001 f203 f4f5 f6f7 sum to ddf2, whose
/// complement is the checksum.
#[test]
fn the_rfc_1071_example() {
    let bytes = [0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7];
    assert_eq!(internet_checksum(&bytes, 0), !0xddf2);
    // With the checksum appended the sum is all ones, so the checksum of the whole is 0.
    let mut whole = bytes.to_vec();
    whole.extend_from_slice(&(!0xddf2u16).to_be_bytes());
    assert_eq!(internet_checksum(&whole, 0), 0);
    // An odd length pads with a zero byte (RFC 1071 section 4.1).
    assert_eq!(
        internet_checksum(&[0xab], 0),
        internet_checksum(&[0xab, 0], 0)
    );
}

/// RFC 1624's incremental update equals a full recomputation, for every old and new word of
/// a header's TOS position.
#[test]
fn the_incremental_update_equals_a_full_sum() {
    let mut h = LINUX_SYN[..20].to_vec();
    for tos in 0..=255u8 {
        for ecn in [Ecn::NotEct, Ecn::Ect, Ecn::Ect1, Ecn::Ce] {
            h[1] = tos;
            h[10..12].copy_from_slice(&[0, 0]);
            let ck = internet_checksum(&h, 0);
            h[10..12].copy_from_slice(&ck.to_be_bytes());
            let mut p = Ipv4Packet::new_unchecked(&mut h[..]);
            p.set_ecn(ecn);
            assert_eq!(p.ecn(), ecn);
            assert_eq!(p.dscp(), tos >> 2, "DSCP kept");
            assert!(p.verify_checksum(), "tos {tos:#x} to {ecn:?}");
        }
    }
    assert_eq!(update(0xffff, 0x4500, 0x4503), !(0u16.wrapping_add(0x0003)));
}

/// The emulator's reading and marking, both IP versions (RFC 3168 section 5, RFC 8200
/// section 7).
#[test]
fn the_emulator_reads_and_marks_both_versions() {
    let mut v4 = LINUX_SYN.to_vec();
    assert_eq!(ecn_of(&v4), Some(Ecn::NotEct));
    v4[1] = 0xb8 | 2;
    Ipv4Packet::new_unchecked(&mut v4[..]).fill_checksum();
    assert_eq!(ecn_of(&v4), Some(Ecn::Ect));
    mark_ce(&mut v4);
    assert_eq!(v4[1], 0xbb);
    assert!(Ipv4Packet::new_checked(&v4[..]).unwrap().verify_checksum());
    let mut v6 = vec![0x60, 0x20, 0, 0];
    v6.resize(40, 0);
    assert_eq!(ecn_of(&v6), Some(Ecn::Ect));
    mark_ce(&mut v6);
    assert_eq!((v6[0], v6[1]), (0x60, 0x30));
    assert_eq!(ecn_of(&[0x45, 0, 0]), None, "truncated");
    assert_eq!(ecn_of(&v4[..30]), None, "shorter than its total length");
    assert_eq!(ecn_of(&[]), None);
    let mut short = [0x45u8, 0, 0];
    mark_ce(&mut short);
    assert_eq!(short, [0x45, 0, 0], "a malformed packet is left alone");
}

/// The encoders' output, padded to each packet's size with the zeros the checksums assume
/// (docs/pcap.md, Checksums), parses back: both checksums verify, the addresses and ports
/// are the mapping's, and a UDP payload decodes to the packet's message.
#[test]
fn the_encoders_output_parses_and_verifies() {
    for pkt in samples() {
        let mut buf = Vec::new();
        let n = TcpNumbering {
            mss: 960,
            size: None,
        };
        encode_packet(&pkt, Some(n), &mut buf);
        let headers = buf.len();
        buf.resize(buf.len().max(pkt.size as usize), 0);
        let ip = Ipv4Packet::new_checked(&buf[..]).unwrap();
        assert!(ip.verify_checksum(), "{:?}", pkt.header);
        assert_eq!((ip.src(), ip.dst()), (ipv4_of(pkt.src), ipv4_of(pkt.dst)));
        assert_eq!(ip.ecn(), pkt.ecn);
        match ip.protocol() {
            PROTO_UDP => {
                let udp = UdpDatagram::new_checked(ip.payload()).unwrap();
                assert!(udp.verify_checksum(ip.src(), ip.dst()), "{:?}", pkt.header);
                assert_ne!(udp.checksum(), 0);
                assert_eq!(udp.src_port(), port_of(pkt.src.agent));
                let m = decode_private(udp.payload()).unwrap();
                assert_eq!(m.header, pkt.header);
                assert_eq!(m.size, pkt.size.max(headers as u32));
            }
            PROTO_TCP => tcp_matches(&pkt, &ip, n),
            p => panic!("protocol {p}"),
        }
        // Every truncation of the IPv4 packet is an error.
        for cut in 0..buf.len() {
            assert!(
                Ipv4Packet::new_checked(&buf[..cut]).is_err(),
                "cut at {cut}"
            );
        }
    }
}

fn tcp_matches(pkt: &Packet<Hdr>, ip: &Ipv4Packet<&[u8]>, n: TcpNumbering) {
    let tcp = TcpSegment::new_checked(ip.payload()).unwrap();
    assert!(tcp.verify_checksum(ip.src(), ip.dst()), "{:?}", pkt.header);
    for cut in 0..tcp.header_len() {
        assert!(TcpSegment::new_checked(&ip.payload()[..cut]).is_err());
    }
    let opts: Vec<TcpOption> = tcp.options().collect::<Result<_, _>>().unwrap();
    match &pkt.header {
        Hdr::TcpData { seq, cwr, psh, .. } => {
            assert_eq!(tcp.seq(), n.byte(*seq));
            assert_eq!(tcp.cwr(), *cwr);
            assert_eq!(tcp.psh(), *psh);
            // After the SYN every segment carries ACK (RFC 9293); the data acknowledges the
            // receiver's SYN, byte 0.
            assert!(tcp.ack());
            assert_eq!(tcp.ack_number(), 0);
        }
        Hdr::TcpAck {
            ack,
            ece,
            opts: o,
            ace,
        } => {
            assert!(tcp.ack());
            assert_eq!(tcp.ack_number(), n.byte(*ack));
            match ace {
                Some(a) => assert_eq!(tcp.ace(), *a),
                None => assert_eq!(tcp.ece(), *ece),
            }
            let want_sack: Vec<(u32, u32)> = o
                .as_deref()
                .map(|o| {
                    o.sack
                        .as_slice()
                        .iter()
                        .map(|b| (n.byte(b.start), n.byte(b.end)))
                        .collect()
                })
                .unwrap_or_default();
            let got_sack: Vec<(u32, u32)> = opts
                .iter()
                .find_map(|o| match o {
                    TcpOption::Sack(s) => Some(s.blocks().to_vec()),
                    _ => None,
                })
                .unwrap_or_default();
            assert_eq!(got_sack, want_sack);
            if let Some(a) = o.as_deref().and_then(|o| o.accecn) {
                let got = opts.iter().find_map(|o| match o {
                    TcpOption::AccEcn(c) => Some(*c),
                    _ => None,
                });
                let c = got.expect("the AccECN option is there");
                assert_eq!(c.kind, OPT_ACCECN1);
                assert_eq!(c.fields, a.fields);
                // Order 1: ECT(1), CE, ECT(0) bytes, the first `fields` of them, 24 bits each.
                for (i, v) in [a.e1b, a.ceb, a.e0b].into_iter().enumerate() {
                    let want = (i < usize::from(a.fields)).then_some(v & 0x00ff_ffff);
                    assert_eq!(c.counter(i), want, "counter {i}");
                }
            }
        }
        Hdr::TcpSyn { ack, .. } => {
            assert!(tcp.syn());
            assert_eq!(tcp.ack(), *ack);
            assert!(opts.contains(&TcpOption::SackPermitted));
            assert!(opts.contains(&TcpOption::Mss(960)));
        }
        h => panic!("{h:?} is not TCP"),
    }
}

/// Options whose length is below 2, runs past the header or is not its kind's are errors,
/// and the iterator stops after one.
#[test]
fn hostile_option_lengths_are_errors() {
    let cases: &[&[u8]] = &[
        &[2],                                           // MSS without a length byte
        &[2, 0, 1, 1],                                  // length 0
        &[30, 1, 1, 1],                                 // length 1, unknown kind
        &[2, 5, 5, 0xb4, 0],                            // MSS of length 5
        &[3, 4, 7, 0],                                  // window scale of length 4
        &[4, 3, 0, 0],                                  // SACK-permitted of length 3
        &[8, 9, 0, 0, 0, 0, 0, 0, 0],                   // timestamps of length 9
        &[5, 2, 0, 0],                                  // SACK with no block
        &[5, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0],            // SACK of 9 bytes of blocks
        &[5, 10, 0, 0, 0, 0],                           // SACK past the header
        &[174, 4, 0, 0],                                // AccECN of 2 bytes of counters
        &[172, 14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], // AccECN of 4 counters
        &[1, 1, 99, 200, 1],                            // unknown kind past the header
    ];
    for bytes in cases {
        let all: Vec<_> = TcpOptions::new(bytes).collect();
        let last = all.last().expect("at least one item");
        assert!(
            matches!(last, Err(WireError::BadOption { .. })),
            "{bytes:?} gives {all:?}"
        );
    }
    // Within bounds: an unknown kind with its bytes, and EOL ending the list.
    let ok: Vec<_> = TcpOptions::new(&[99, 4, 0xaa, 0xbb, 0, 2, 0])
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        ok,
        [
            TcpOption::Unknown {
                kind: 99,
                data: &[0xaa, 0xbb]
            },
            TcpOption::EndOfList
        ]
    );
    // AccECN order 0 (kind 172) carries ECT(0) first: counter 2 is the first field.
    let Some(Ok(TcpOption::AccEcn(c))) = TcpOptions::new(&[172, 5, 0, 0, 9]).next() else {
        panic!("an AccECN option")
    };
    assert_eq!(
        c,
        AccEcnCounters {
            kind: 172,
            fields: 1,
            wire: [9, 0, 0]
        }
    );
    assert_eq!(
        (c.counter(2), c.counter(1), c.counter(0)),
        (Some(9), None, None)
    );
}

/// Lengths the views refuse: IHL below 5, total length below the header or past the buffer,
/// a TCP data offset below 5, a UDP length below 8 or past the buffer.
#[test]
fn inconsistent_lengths_are_errors() {
    let mut p = LINUX_SYN;
    p[0] = 0x44;
    assert!(Ipv4Packet::new_checked(&p[..]).is_err());
    p = LINUX_SYN;
    p[0] = 0x65;
    assert_eq!(
        Ipv4Packet::new_checked(&p[..]),
        Err(WireError::BadField {
            what: "IPv4 version",
            value: 6
        })
    );
    p = LINUX_SYN;
    p[3] = 19;
    assert!(Ipv4Packet::new_checked(&p[..]).is_err());
    p = LINUX_SYN;
    p[3] = 61;
    assert_eq!(
        Ipv4Packet::new_checked(&p[..]).unwrap_err().to_string(),
        "truncated: IPv4 packet needs 61 bytes, have 60"
    );
    assert_eq!(
        Ipv4Packet::new_checked(&p[..7]).unwrap_err().to_string(),
        "truncated: IPv4 header needs 20 bytes, have 7"
    );
    p = LINUX_SYN;
    p[32] = 0x40;
    assert!(TcpSegment::new_checked(&p[20..]).is_err());
    p[32] = 0xf0;
    assert!(
        TcpSegment::new_checked(&p[20..]).is_err(),
        "60-byte header in 40"
    );
    let udp = [0u8, 1, 0, 2, 0, 7, 0, 0];
    assert!(UdpDatagram::new_checked(&udp[..]).is_err());
    let udp = [0u8, 1, 0, 2, 0, 9, 0, 0];
    assert!(UdpDatagram::new_checked(&udp[..]).is_err());
    let udp = [0u8, 1, 0, 2, 0, 8, 0, 0, 0xff];
    let d = UdpDatagram::new_checked(&udp[..]).unwrap();
    assert!(
        d.payload().is_empty() && d.verify_checksum([0; 4], [0; 4]),
        "checksum 0: none"
    );
}
