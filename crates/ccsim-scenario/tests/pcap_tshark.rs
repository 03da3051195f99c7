//! The pcap writer read back by a real reader: tshark (Wireshark's command-line reader)
//! parses a written file, and every field it reports matches what was written. The test
//! fails, not skips, when tshark is missing: `make install` installs it.

use std::path::PathBuf;
use std::process::Command;

use ccsim_core::{Addr, Dur, Ecn, FlowId, Packet, SimTime};
use ccsim_protocols::{
    AccEcnOption, AckOptions, Hdr, ReceiverReport, SackBlock, SackBlocks, TfrcFeedback, TicpRequest,
};
use ccsim_scenario::pcap::{PcapWriter, RATE_PORT};

const MSS: u32 = 960;

fn tcp_sender() -> Addr {
    Addr { node: 0, agent: 10 }
}
fn tcp_sink() -> Addr {
    Addr { node: 5, agent: 11 }
}

fn data(seq: u64, ecn: Ecn, cwr: bool) -> Packet<Hdr> {
    Packet {
        src: tcp_sender(),
        dst: tcp_sink(),
        flow: FlowId(1),
        size: MSS + 40,
        sent_at: SimTime::ZERO,
        ecn,
        header: Hdr::TcpData {
            seq,
            payload: MSS,
            retx: false,
            cwr,
            psh: seq % 2 == 1,
        },
    }
}

fn ack(ack: u64, ece: bool, blocks: &[(u64, u64)]) -> Packet<Hdr> {
    let blocks: Vec<SackBlock> = blocks
        .iter()
        .map(|&(start, end)| SackBlock { start, end })
        .collect();
    let opt = if blocks.is_empty() {
        0
    } else {
        4 + 8 * blocks.len() as u32
    };
    Packet {
        src: tcp_sink(),
        dst: tcp_sender(),
        flow: FlowId(1),
        size: 40 + opt,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::TcpAck {
            ack,
            ece,
            opts: (!blocks.is_empty()).then(|| {
                Box::new(AckOptions {
                    sack: SackBlocks::new(&blocks),
                    accecn: None,
                })
            }),
            ace: None,
        },
    }
}

/// An AccECN ACK whose ACE field is `ace` (draft-ietf-tcpm-accurate-ecn: AE, CWR, ECE), with
/// SACK `blocks` and an AccECN option of `fields` counters taking `wire_bytes` (as the
/// receiver fits it: `tcp/accecn.rs`), counters ECT(1) 0x123456, CE 7000, ECT(0) 1.
fn accecn_ack(n: u64, ace: u8, blocks: &[(u64, u64)], option: Option<(u8, u8)>) -> Packet<Hdr> {
    let mut p = ack(n, false, blocks);
    let accecn = option.map(|(fields, wire_bytes)| AccEcnOption {
        fields,
        e1b: 0x12_3456,
        ceb: 7000,
        e0b: 1,
        wire_bytes,
    });
    let sack = match &p.header {
        Hdr::TcpAck { opts, .. } => opts.as_ref().map(|o| o.sack.clone()),
        _ => None,
    };
    p.size += accecn.map_or(0, |a| u32::from(a.wire_bytes));
    p.header = Hdr::TcpAck {
        ack: n,
        ece: false,
        opts: (sack.is_some() || accecn.is_some()).then(|| {
            Box::new(AckOptions {
                sack: sack.unwrap_or_else(|| SackBlocks::new(&[])),
                accecn,
            })
        }),
        ace: Some(ace),
    };
    p
}

fn other(header: Hdr, size: u32) -> Packet<Hdr> {
    Packet {
        src: Addr {
            node: 300,
            agent: 20,
        },
        dst: Addr { node: 7, agent: 21 },
        flow: FlowId(2),
        size,
        sent_at: SimTime::ZERO,
        ecn: Ecn::Ect,
        header,
    }
}

fn temp_file(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pcap_tshark");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// tshark's fields for every packet of `file`, one `Vec` per packet.
fn tshark(file: &PathBuf, fields: &[&str]) -> Vec<Vec<String>> {
    tshark_with(file, fields, &[])
}

/// As [`tshark`], with extra command-line arguments.
fn tshark_with(file: &PathBuf, fields: &[&str], extra: &[&str]) -> Vec<Vec<String>> {
    let mut cmd = Command::new("tshark");
    cmd.arg("-r").arg(file).args(extra);
    for pref in [
        "tcp.relative_sequence_numbers:FALSE",
        "ip.check_checksum:TRUE",
        "tcp.check_checksum:TRUE",
        "udp.check_checksum:TRUE",
    ] {
        cmd.args(["-o", pref]);
    }
    cmd.args(["-T", "fields", "-E", "separator=|", "-E", "occurrence=a"]);
    cmd.args(["-E", "aggregator=,"]);
    for f in fields {
        cmd.args(["-e", f]);
    }
    let out = cmd.output().unwrap_or_else(|e| {
        panic!("cannot run tshark ({e}); `make install` installs it (Debian package tshark)")
    });
    assert!(
        out.status.success(),
        "tshark failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('|').map(str::to_owned).collect())
        .collect()
}

#[test]
fn pcap_read_by_tshark_matches_what_was_written() {
    let path = temp_file("mixed.pcap");
    // (time in ns, packet): a window of TCP data with ECN marks, ACKs with SACK blocks after
    // a loss of segment 2, a UDP datagram, a rate-based data packet and a TFRC feedback.
    let pkts: Vec<(u64, Packet<Hdr>)> = vec![
        (1_000_000_001, data(0, Ecn::Ect, false)),
        (1_000_008_001, data(1, Ecn::Ce, false)),
        (1_000_016_001, data(3, Ecn::Ect, true)),
        (1_020_000_000, ack(2, true, &[(3, 4)])),
        (1_020_500_000, ack(2, false, &[(5, 7), (3, 4)])),
        (1_021_000_000, ack(2, false, &[(9, 10), (5, 8), (3, 4)])),
        (1_030_000_000, ack(10, false, &[])),
        (1_031_000_000, accecn_ack(11, 5, &[], None)),
        (1_032_000_000, accecn_ack(12, 2, &[], Some((3, 12)))),
        (1_032_100_000, accecn_ack(12, 2, &[], Some((2, 8)))),
        (1_032_200_000, accecn_ack(12, 2, &[], Some((1, 8)))),
        (1_032_300_000, accecn_ack(12, 2, &[], Some((0, 4)))),
        // Beside SACK: an option of 5 or 2 bytes ends in the NOPs before the SACK option.
        (1_032_400_000, accecn_ack(12, 3, &[(14, 15)], Some((3, 12)))),
        (
            1_032_500_000,
            accecn_ack(12, 3, &[(16, 17), (14, 15)], Some((1, 4))),
        ),
        (
            1_032_600_000,
            accecn_ack(12, 3, &[(18, 19), (16, 17), (14, 15)], Some((0, 0))),
        ),
        (
            2_500_000_000,
            other(
                Hdr::Udp {
                    seq: 4242,
                    payload: 472,
                },
                500,
            ),
        ),
        (
            3_000_000_999,
            other(
                Hdr::RateData {
                    seq: 17,
                    stamp: SimTime(2_999_000_000),
                    rtt_us: 51_000,
                    probe: 0,
                },
                1000,
            ),
        ),
        (
            3_100_000_000,
            other(
                Hdr::TfrcFeedback(Box::new(TfrcFeedback {
                    echo: SimTime(3_000_000_999),
                    delay: Dur(1_000),
                    x_recv: 125_000.0,
                    p: 0.01,
                })),
                44,
            ),
        ),
    ];
    let mut w = PcapWriter::create(&path).unwrap();
    w.set_tcp_flow(FlowId(1), MSS, None);
    for (t, p) in &pkts {
        w.record(*t, p);
    }
    assert_eq!(w.packets(), pkts.len() as u64);
    w.finish().unwrap();

    let fields = [
        "frame.time_epoch",
        "frame.len",
        "frame.cap_len",
        "ip.src",
        "ip.dst",
        "ip.len",
        "ip.dsfield.ecn",
        "ip.checksum.status",
        "tcp.srcport",
        "tcp.dstport",
        "tcp.seq_raw",
        "tcp.ack_raw",
        "tcp.flags.ack",
        "tcp.flags.ece",
        "tcp.flags.cwr",
        "tcp.flags.push",
        "tcp.flags.ae",
        "tcp.flags.ace",
        "tcp.options.sack_le",
        "tcp.options.sack_re",
        "tcp.options.acc_ecn.ee1b",
        "tcp.options.acc_ecn.eceb",
        "tcp.options.acc_ecn.ee0b",
        "tcp.checksum.status",
        "udp.srcport",
        "udp.dstport",
        "udp.length",
        "udp.checksum.status",
        "data.data",
        "_ws.malformed",
    ];
    let rows = tshark(&path, &fields);
    assert_eq!(rows.len(), pkts.len(), "one row per packet");
    let col = |name: &str| fields.iter().position(|f| *f == name).unwrap();
    for (row, (t, p)) in rows.iter().zip(&pkts) {
        let get = |name: &str| row[col(name)].as_str();
        let what = format!("packet at {t} ns");
        let epoch = format!("{}.{:09}", t / 1_000_000_000, t % 1_000_000_000);
        assert_eq!(get("frame.time_epoch"), epoch, "{what}");
        assert_eq!(get("_ws.malformed"), "", "{what}");
        assert_eq!(get("ip.checksum.status"), "1", "good IPv4 checksum: {what}");
        let ecn = match p.ecn {
            Ecn::NotEct => "0",
            Ecn::Ect => "2",
            Ecn::Ect1 => "1",
            Ecn::Ce => "3",
        };
        assert_eq!(get("ip.dsfield.ecn"), ecn, "{what}");
        match &p.header {
            Hdr::TcpData { seq, cwr, psh, .. } => {
                assert_eq!(get("frame.len"), "1000", "{what}");
                assert_eq!(get("frame.cap_len"), "40", "{what}");
                assert_eq!(get("ip.len"), "1000", "{what}");
                assert_eq!((get("ip.src"), get("ip.dst")), ("10.0.0.1", "10.0.0.6"));
                assert_eq!((get("tcp.srcport"), get("tcp.dstport")), ("49162", "49163"));
                assert_eq!(get("tcp.seq_raw"), (seq * u64::from(MSS)).to_string());
                // ACK set after the SYN (RFC 9293), acknowledging the receiver's SYN, byte 0.
                assert_eq!(get("tcp.flags.ack"), "1", "{what}");
                assert_eq!(get("tcp.ack_raw"), "0", "{what}");
                assert_eq!(get("tcp.flags.cwr"), if *cwr { "1" } else { "0" }, "{what}");
                assert_eq!(
                    get("tcp.flags.push"),
                    if *psh { "1" } else { "0" },
                    "{what}"
                );
            }
            Hdr::TcpAck {
                ack,
                ece,
                opts,
                ace,
            } => {
                assert_eq!(get("frame.len"), p.size.to_string(), "{what}");
                assert_eq!(get("frame.cap_len"), p.size.to_string(), "{what}");
                assert_eq!((get("ip.src"), get("ip.dst")), ("10.0.0.6", "10.0.0.1"));
                assert_eq!((get("tcp.srcport"), get("tcp.dstport")), ("49163", "49162"));
                assert_eq!(get("tcp.ack_raw"), (ack * u64::from(MSS)).to_string());
                assert_eq!(get("tcp.flags.ack"), "1", "{what}");
                // RFC 3168's ECE, or AccECN's ACE count in AE (most significant), CWR, ECE.
                let bit = |b: bool| if b { "1" } else { "0" };
                let (ae, cwr, ece) = match ace {
                    Some(a) => (a & 4 != 0, a & 2 != 0, a & 1 != 0),
                    None => (false, false, *ece),
                };
                if get("tcp.flags.ace").is_empty() {
                    assert_eq!(get("tcp.flags.ece"), bit(ece), "{what}");
                    assert_eq!(get("tcp.flags.cwr"), bit(cwr), "{what}");
                    assert_eq!(get("tcp.flags.ae"), bit(ae), "{what}");
                } else {
                    // tshark reads the three bits as one ACE value on a segment with the
                    // AccECN option.
                    assert_eq!(
                        Some(get("tcp.flags.ace")),
                        ace.map(|a| a.to_string()).as_deref(),
                        "{what}"
                    );
                }
                let blocks = AckOptions::sack_of(opts.as_deref()).unwrap_or(&[]);
                // The AccECN option's counters, those it carries (ECT(1), CE, ECT(0)).
                let accecn = opts.as_ref().and_then(|o| o.accecn);
                let fields = accecn.map_or(0, |a| a.fields);
                let counter = |i: u8, v: u32| {
                    if fields > i {
                        v.to_string()
                    } else {
                        String::new()
                    }
                };
                assert_eq!(
                    get("tcp.options.acc_ecn.ee1b"),
                    counter(0, 0x12_3456),
                    "{what}"
                );
                assert_eq!(get("tcp.options.acc_ecn.eceb"), counter(1, 7000), "{what}");
                assert_eq!(get("tcp.options.acc_ecn.ee0b"), counter(2, 1), "{what}");
                let edges = |f: fn(&SackBlock) -> u64| {
                    blocks
                        .iter()
                        .map(|b| (f(b) * u64::from(MSS)).to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                };
                assert_eq!(get("tcp.options.sack_le"), edges(|b| b.start), "{what}");
                assert_eq!(get("tcp.options.sack_re"), edges(|b| b.end), "{what}");
                // Captured whole, so tshark can verify the checksum.
                assert_eq!(get("tcp.checksum.status"), "1", "good TCP checksum: {what}");
            }
            Hdr::Udp { seq, .. } => {
                assert_eq!((get("frame.len"), get("frame.cap_len")), ("500", "56"));
                assert_eq!((get("ip.src"), get("ip.dst")), ("10.0.1.45", "10.0.0.8"));
                assert_eq!((get("udp.srcport"), get("udp.dstport")), ("49172", "49173"));
                assert_eq!(get("udp.length"), "480", "{what}");
                // "CCSM", version 1, type 1, 28 header bytes, flow 2, agents 20 and 21, then
                // the datagram's sequence number.
                let private = format!("4343534d0101001c000000020000001400000015{seq:016x}");
                assert_eq!(get("data.data"), private, "{what}");
            }
            Hdr::RateData { .. } => {
                assert_eq!((get("frame.len"), get("frame.cap_len")), ("1000", "72"));
                assert_eq!(get("udp.dstport"), RATE_PORT.to_string(), "{what}");
                assert_eq!(get("udp.length"), "980", "{what}");
                // "CCSM", version 1, type 2, 44 header bytes, flow 2, agents 20 and 21, then
                // the sequence number 17, the stamp, the RTT and the probe position.
                assert_eq!(
                    get("data.data"),
                    concat!(
                        "4343534d",
                        "01",
                        "02",
                        "002c",
                        "00000002",
                        "00000014",
                        "00000015",
                        "0000000000000011",
                        "00000000b2c11bc0",
                        "0000c738",
                        "00000000"
                    ),
                    "{what}"
                );
            }
            Hdr::TfrcFeedback(_) => {
                assert_eq!((get("frame.len"), get("frame.cap_len")), ("80", "80"));
                assert_eq!(get("udp.dstport"), RATE_PORT.to_string(), "{what}");
                assert_eq!(get("udp.checksum.status"), "1", "good UDP checksum: {what}");
                let d = get("data.data");
                assert_eq!(&d[..12], "4343534d0104", "{what}");
                // x_recv and p as IEEE 754 doubles, big-endian.
                assert_eq!(&d[72..88], format!("{:016x}", 125_000f64.to_bits()));
                assert_eq!(&d[88..104], format!("{:016x}", 0.01f64.to_bits()));
            }
            _ => unreachable!(),
        }
    }
}

#[test]
fn pcap_tcp_stream_and_retransmission_as_tshark_analyses_them() {
    // tshark's own TCP analysis, an independent reader of the byte numbering: segment 2 sent
    // again after segments 3 and 4 is a retransmission (or fast retransmission), and the
    // stream's bytes in flight follow the byte numbers.
    let path = temp_file("stream.pcap");
    let mut w = PcapWriter::create(&path).unwrap();
    w.set_tcp_flow(FlowId(1), MSS, None);
    for (i, seq) in [0u64, 1, 2, 3, 4, 2].iter().enumerate() {
        let mut p = data(*seq, Ecn::NotEct, false);
        if i == 5 {
            p.header = Hdr::TcpData {
                seq: 2,
                payload: MSS,
                retx: true,
                cwr: false,
                psh: false,
            };
        }
        w.record(i as u64 * 1_000_000, &p);
    }
    w.finish().unwrap();
    let rows = tshark(
        &path,
        &[
            "tcp.stream",
            "tcp.seq",
            "tcp.nxtseq",
            "tcp.analysis.retransmission",
            "tcp.analysis.fast_retransmission",
            "tcp.analysis.out_of_order",
        ],
    );
    assert_eq!(rows.len(), 6);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[0], "0", "one stream");
        let seq = [0u64, 1, 2, 3, 4, 2][i] * u64::from(MSS);
        assert_eq!(row[1], seq.to_string(), "packet {i}");
        assert_eq!(row[2], (seq + u64::from(MSS)).to_string(), "packet {i}");
    }
    assert!(
        rows[..5]
            .iter()
            .all(|r| r[3..].iter().all(String::is_empty)),
        "{rows:?}"
    );
    assert!(
        rows[5][3..].iter().any(|f| !f.is_empty()),
        "the resent segment is flagged: {:?}",
        rows[5]
    );
}

/// The Lua dissector docs/pcap.md gives (its one `lua` code block), written to a file.
fn documented_dissector() -> PathBuf {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/pcap.md"))
        .unwrap();
    let start = doc.find("```lua\n").expect("docs/pcap.md has a lua block") + 7;
    let len = doc[start..].find("```").unwrap();
    let path = temp_file("ccsim.lua");
    std::fs::write(&path, &doc[start..start + len]).unwrap();
    path
}

#[test]
fn pcap_private_headers_decode_with_the_documented_dissector() {
    let path = temp_file("private.pcap");
    let mut ticp = other(
        Hdr::TicpRequest(Box::new(TicpRequest {
            stamp: SimTime(9),
            ids: vec![7, 8, 9],
            relay: true,
        })),
        1000,
    );
    ticp.dst = Addr::group(3);
    let pkts = [
        other(
            Hdr::Udp {
                seq: 4242,
                payload: 472,
            },
            500,
        ),
        other(
            Hdr::PrimoAck {
                echo: SimTime(11),
                ftt_ns: -5,
                rcv_rate: 1.5e6,
                start: true,
            },
            40,
        ),
        other(
            Hdr::ReceiverReport(Box::new(ReceiverReport {
                expected: 10,
                lost: 2,
                highest: None,
                echo: SimTime(5),
                held: Dur(6),
            })),
            60,
        ),
        ticp,
        other(
            Hdr::TicpReport {
                source: 3,
                echo: SimTime(4),
            },
            40,
        ),
        other(
            Hdr::TicpPing {
                stamp: SimTime(1),
                landmark: 2,
                reply: true,
            },
            40,
        ),
        other(Hdr::TicpRegister { bin: 6 }, 40),
        other(Hdr::TicpRegisterAck, 40),
    ];
    let mut w = PcapWriter::create(&path).unwrap();
    for (i, p) in pkts.iter().enumerate() {
        w.record(i as u64, p);
    }
    w.finish().unwrap();
    let lua = documented_dissector();
    let script = format!("lua_script:{}", lua.display());
    let fields = [
        "ccsim.type",
        "ccsim.flow",
        "ccsim.src_agent",
        "ccsim.dst_agent",
        "ccsim.seq",
        "ccsim.echo_ns",
        "ccsim.ftt_ns",
        "ccsim.rcv_rate",
        "ccsim.start",
        "ccsim.expected",
        "ccsim.lost",
        "ccsim.highest",
        "ccsim.held_ns",
        "ccsim.stamp_ns",
        "ccsim.relay",
        "ccsim.count",
        "ccsim.id",
        "ccsim.source",
        "ccsim.landmark",
        "ccsim.reply",
        "ccsim.bin",
        "ip.dst",
        "_ws.malformed",
    ];
    let rows = tshark_with(&path, &fields, &["-X", &script]);
    let got: Vec<Vec<(&str, &str)>> = rows
        .iter()
        .map(|r| {
            fields
                .iter()
                .zip(r)
                .filter(|(_, v)| !v.is_empty())
                .map(|(f, v)| (*f, v.as_str()))
                .collect()
        })
        .collect();
    // The common fields, the message's own, then the IP destination (the row's order).
    let row = |ty, dst_agent, rest: &[(&'static str, &'static str)], ip_dst| {
        let mut v = vec![
            ("ccsim.type", ty),
            ("ccsim.flow", "2"),
            ("ccsim.src_agent", "20"),
            ("ccsim.dst_agent", dst_agent),
        ];
        v.extend_from_slice(rest);
        v.push(("ip.dst", ip_dst));
        v
    };
    let expect = |ty, rest: &[(&'static str, &'static str)]| row(ty, "21", rest, "10.0.0.8");
    let ticp_row = row(
        "6",
        "3",
        &[
            ("ccsim.stamp_ns", "9"),
            ("ccsim.relay", "1"),
            ("ccsim.count", "3"),
            ("ccsim.id", "7,8,9"),
        ],
        "239.0.0.3",
    );
    let want = vec![
        expect("1", &[("ccsim.seq", "4242")]),
        expect(
            "3",
            &[
                ("ccsim.echo_ns", "11"),
                ("ccsim.ftt_ns", "-5"),
                ("ccsim.rcv_rate", "1.5e+06"),
                ("ccsim.start", "1"),
            ],
        ),
        expect(
            "5",
            &[
                ("ccsim.echo_ns", "5"),
                ("ccsim.expected", "10"),
                ("ccsim.lost", "2"),
                ("ccsim.highest", "18446744073709551615"),
                ("ccsim.held_ns", "6"),
            ],
        ),
        ticp_row,
        expect("7", &[("ccsim.echo_ns", "4"), ("ccsim.source", "3")]),
        expect(
            "8",
            &[
                ("ccsim.stamp_ns", "1"),
                ("ccsim.landmark", "2"),
                ("ccsim.reply", "1"),
            ],
        ),
        expect("9", &[("ccsim.bin", "6")]),
        expect("10", &[]),
    ];
    assert_eq!(got, want);
}
