//! The driver between two real UDP sockets on the loopback interface (no root needed): the
//! simulator's agents, unchanged, move real datagrams. A CBR source's packets all arrive at
//! its rate; a finite TCP transfer over UDP delivers exactly its bytes and ends; TFRC on a
//! lossless path reaches its configured ceiling; a malformed datagram is counted, never
//! handed to the agent; the ECN field set on a socket is the one read on the other.

use std::net::{SocketAddrV4, UdpSocket};
use std::sync::atomic::AtomicBool;
use std::thread;

use ccsim_core::{Agent, Dur, FlowId, Rate, RngStream};
use ccsim_protocols::{
    AnyAgent, Departures, TcpConfig, TcpSender, TcpSink, TfrcConfig, TfrcReceiver,
    TfrcReceiverConfig, TfrcSender, UdpConfig, UdpSink, UdpSource,
};
use ccsim_udp::{addr_of, sys, Driver, Report, Schedule};

const SENDER: u32 = 1;
const RECEIVER: u32 = 2;

fn socket() -> UdpSocket {
    UdpSocket::bind("127.0.0.1:0").expect("bind loopback")
}

fn v4(s: &UdpSocket) -> SocketAddrV4 {
    match s.local_addr().expect("address") {
        std::net::SocketAddr::V4(a) => a,
        std::net::SocketAddr::V6(_) => unreachable!("bound to 127.0.0.1"),
    }
}

fn sender_schedule(end_ms: u64, warmup_ms: u64, end_when_finished: bool) -> Schedule {
    Schedule {
        start: Dur::ZERO,
        stop: None,
        end: Dur::from_millis(end_ms),
        warmup: Dur::from_millis(warmup_ms),
        idle_end: None,
        end_when_finished,
        from_first_arrival: false,
        first_arrival_timeout: None,
    }
}

fn receiver_schedule(end_ms: u64, warmup_ms: u64) -> Schedule {
    Schedule {
        start: Dur::ZERO,
        stop: None,
        end: Dur::from_millis(end_ms),
        warmup: Dur::from_millis(warmup_ms),
        idle_end: Some(Dur::from_millis(500)),
        end_when_finished: false,
        from_first_arrival: true,
        first_arrival_timeout: Some(Dur::from_secs(10)),
    }
}

/// Run `sender` against `receiver` over loopback; (sender's report, receiver's report).
fn pair(
    sender: AnyAgent,
    receiver: AnyAgent,
    s_sched: Schedule,
    r_sched: Schedule,
) -> (Report, Report) {
    let (s_sock, r_sock) = (socket(), socket());
    let r_addr = v4(&r_sock);
    let mut rx = Driver::new(receiver, RECEIVER, r_sock, RngStream::new(1, "r")).expect("rx");
    let mut tx = Driver::new(sender, SENDER, s_sock, RngStream::new(1, "s")).expect("tx");
    tx.add_peer(RECEIVER, r_addr);
    let stop = AtomicBool::new(false);
    thread::scope(|scope| {
        let r = scope.spawn(|| rx.run(&r_sched, &stop).expect("receiver run"));
        let s = tx.run(&s_sched, &stop).expect("sender run");
        (s, r.join().expect("receiver thread"))
    })
}

#[test]
fn cbr_packets_all_arrive_at_the_source_rate() {
    // 1000-byte packets at 2 Mbit/s: one every 4 ms, 250 in a second.
    let cfg = UdpConfig {
        rate: Rate(2_000_000),
        packet_size: 1000,
    };
    let source = AnyAgent::Udp(UdpSource::new(
        FlowId(0),
        addr_of(RECEIVER),
        cfg,
        Departures::Constant,
    ));
    let sink = AnyAgent::UdpSink(UdpSink::new(0));
    let (s, r) = pair(
        source,
        sink,
        sender_schedule(1000, 0, false),
        receiver_schedule(2000, 0),
    );
    assert!(
        (249..=251).contains(&s.sent_data_packets),
        "{}",
        s.sent_data_packets
    );
    assert_eq!(
        s.sent_bytes,
        s.sent_data_packets * 1000,
        "every datagram is a 1000-byte IP packet"
    );
    assert_eq!(
        r.received_data_packets, s.sent_data_packets,
        "loopback loses nothing"
    );
    assert_eq!(r.received_bytes, s.sent_bytes);
    assert_eq!(r.malformed + r.misaddressed, 0);
    // The sink counts the application bytes of what it received (1000 - 28).
    assert_eq!(r.stats.app_bytes_delivered, r.received_data_packets * 972);
    // The source's pacing timer fires on time: the median late by well under a packet time.
    let p50 = s.timer_lateness.quantile_s(0.5).expect("timers fired");
    assert!(p50 < 1e-3, "median timer lateness {p50} s");
}

#[test]
fn a_finite_tcp_transfer_over_udp_delivers_its_bytes_and_ends() {
    let size = 300_000;
    let cfg = TcpConfig {
        size: Some(size),
        ..TcpConfig::default()
    };
    let sender = AnyAgent::Tcp(Box::new(TcpSender::new(FlowId(0), addr_of(RECEIVER), &cfg)));
    let sink = AnyAgent::TcpSink(TcpSink::new(None));
    let (s, r) = pair(
        sender,
        sink,
        sender_schedule(20_000, 0, true),
        receiver_schedule(30_000, 0),
    );
    assert!(s.finished_at.is_some(), "the transfer completed");
    assert!(s.stats.completed_at.is_some());
    assert_eq!(
        r.stats.app_bytes_delivered, size,
        "every byte, once, in order"
    );
    assert_eq!(s.received_packets, r.sent_packets, "every ACK arrived");
    assert!(s.elapsed < Dur::from_secs(10), "{:?}", s.elapsed);
}

#[test]
fn tfrc_on_a_lossless_path_reaches_its_ceiling() {
    // RFC 5348 section 4.3: without loss the allowed rate doubles each round trip up to
    // twice the receive rate; a configured maximum caps it. 4 Mbit/s of 1000-byte packets.
    let max_bps = 4_000_000.0;
    let cfg = TfrcConfig {
        packet_size: 1000,
        min_rate: 0.0,
        max_rate: max_bps / 8.0,
        oscillation_prevention: true,
    };
    let sender = AnyAgent::TfrcSender(Box::new(TfrcSender::new(
        FlowId(0),
        addr_of(RECEIVER),
        &cfg,
    )));
    let receiver = AnyAgent::TfrcReceiver(Box::new(TfrcReceiver::new(TfrcReceiverConfig {
        history_discounting: false,
    })));
    let (s, r) = pair(
        sender,
        receiver,
        sender_schedule(3000, 1000, false),
        receiver_schedule(3000, 1000),
    );
    let (a, b) = s.window.expect("window");
    let rate = s.sent_data_bytes_after_warmup as f64 * 8.0 / ((b.0 - a.0) as f64 / 1e9);
    assert!(
        (rate / max_bps - 1.0).abs() < 0.05,
        "TFRC sent at {rate} bit/s in the window, its ceiling is {max_bps}"
    );
    assert!(r.sent_packets > 10, "feedback flowed: {}", r.sent_packets);
    assert_eq!(s.malformed + r.malformed, 0);
}

#[test]
fn a_malformed_datagram_is_counted_not_delivered() {
    let r_sock = socket();
    let r_addr = v4(&r_sock);
    let mut rx = Driver::new(
        AnyAgent::UdpSink(UdpSink::new(0)),
        RECEIVER,
        r_sock,
        RngStream::new(1, "r"),
    )
    .expect("rx");
    let junk = socket();
    for bytes in [
        &b""[..],
        b"CCSM",
        b"not a ccsim datagram at all",
        &[0xff; 1500],
    ] {
        junk.send_to(bytes, r_addr).expect("send junk");
    }
    let stop = AtomicBool::new(false);
    let mut sched = receiver_schedule(300, 0);
    sched.from_first_arrival = false;
    let r = rx.run(&sched, &stop).expect("run");
    assert_eq!(r.malformed, 4);
    assert_eq!(r.received_packets, 0);
    assert_eq!(rx.agent().stats().data_packets_received, 0);
}

#[test]
fn the_ecn_field_set_on_one_socket_is_read_on_the_other() {
    use std::os::fd::AsRawFd;
    let (a, b) = (socket(), socket());
    sys::enable_recv_tos(b.as_raw_fd()).expect("IP_RECVTOS");
    let mut buf = [0u8; 64];
    for tos in [0b00u8, 0b10, 0b01, 0b11] {
        sys::set_tos(a.as_raw_fd(), tos).expect("IP_TOS");
        a.send_to(b"x", v4(&b)).expect("send");
        assert!(
            sys::wait_readable(b.as_raw_fd(), std::time::Duration::from_secs(1)).expect("poll")
        );
        let got = sys::recv_with_tos(b.as_raw_fd(), &mut buf)
            .expect("recv")
            .expect("a datagram");
        assert_eq!((got.len, got.tos & 0b11, got.from), (1, tos, v4(&a)));
    }
}

/// A TICP session between a collector and two source hosts on loopback (with `binning`, two
/// landmarks answer the hosts' and the collector's probes first); the collector's outcome.
fn ticp_session(binning: bool) -> ccsim_udp::ticp::CollectorOutcome {
    use ccsim_udp::ticp::{
        run_collector, run_landmark, run_sources, Binning, SessionParams, SourceHost,
    };
    let secret = b"the session's shared secret".to_vec();
    let (a, b, c) = (socket(), socket(), socket());
    let collector_at = v4(&c);
    let hosts = [
        SourceHost {
            address: v4(&a),
            first: 0,
            count: 300,
        },
        SourceHost {
            address: v4(&b),
            first: 300,
            count: 200,
        },
    ];
    let (l1, l2) = (socket(), socket());
    let bins = Binning {
        landmarks: vec![v4(&l1), v4(&l2)],
        thresholds: vec![Dur::from_millis(100), Dur::from_millis(200)],
        probes: 3,
        phase: Dur::from_millis(500),
    };
    let binning = binning.then_some(&bins);
    let stop = AtomicBool::new(false);
    let landmarks_stop = AtomicBool::new(false);
    let params = SessionParams {
        rs: 1,
        request_size: 100,
        initial_timeout: Dur::from_secs(1),
        allotted: None,
    };
    let content = |id: u32| format!("source {id}: load 0.{id}").into_bytes();
    let idle = (Dur::from_secs(3), Dur::from_secs(10));
    let source_binning = binning.map(|b| (b, collector_at));
    thread::scope(|scope| {
        let lm1 = scope.spawn(|| run_landmark(l1, &landmarks_stop));
        let lm2 = scope.spawn(|| run_landmark(l2, &landmarks_stop));
        let s1 = scope.spawn(|| {
            run_sources(
                a,
                0,
                300,
                (100, 500),
                &secret,
                content,
                source_binning,
                idle,
                &stop,
            )
        });
        let s2 = scope.spawn(|| {
            run_sources(
                b,
                300,
                200,
                (100, 500),
                &secret,
                content,
                source_binning,
                idle,
                &stop,
            )
        });
        let outcome = run_collector(
            c,
            &hosts,
            params,
            &secret,
            42,
            binning,
            Dur::from_secs(20),
            &stop,
        )
        .expect("collector");
        let (r1, p1) = s1.join().expect("thread").expect("sources 1");
        let (r2, p2) = s2.join().expect("thread").expect("sources 2");
        landmarks_stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for lm in [lm1, lm2] {
            lm.join().expect("thread").expect("landmark");
        }
        assert!(
            p1.reports >= 300 && p2.reports >= 200,
            "{} {}",
            p1.reports,
            p2.reports
        );
        assert_eq!(r1.rejected + r2.rejected, 0);
        let p = &outcome.payload;
        assert_eq!((outcome.expected, outcome.received), (500, 500));
        assert!(outcome.completed.is_some());
        assert_eq!((p.forged, p.replayed, p.malformed), (0, 0, 0));
        let mut ids: Vec<u32> = p.reports.iter().map(|r| r.source).collect();
        ids.sort_unstable();
        assert_eq!(ids, (0..500).collect::<Vec<_>>(), "each source once");
        for r in &p.reports {
            assert_eq!(r.content, content(r.source));
        }
        outcome
    })
}

#[test]
fn a_ticp_session_collects_every_report_of_two_source_hosts() {
    let outcome = ticp_session(false);
    // Every report datagram is 500 bytes on the wire.
    assert_eq!(
        outcome.report.received_bytes,
        500 * outcome.report.received_packets
    );
    assert_eq!(outcome.host_bins, vec![None, None]);
}

#[test]
fn with_binning_each_host_registers_its_bin_before_the_session() {
    // On loopback every round trip is far below the first threshold (100 ms): both hosts
    // measure level 0 to both landmarks, bin 0, and register it before the collector begins
    // (half a phase after their start; the collector begins a phase after its own).
    let outcome = ticp_session(true);
    assert_eq!(outcome.host_bins, vec![Some(0), Some(0)]);
    let began = outcome.began.expect("began").as_secs_f64();
    assert!(
        (0.5..0.6).contains(&began),
        "the session began {began} s after the collector started"
    );
}
