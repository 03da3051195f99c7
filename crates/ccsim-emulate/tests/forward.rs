//! The emulator's forwarding against the link model's closed form, without root: each end
//! is a Unix datagram socket, which, like a TUN device without packet information, carries
//! one IP packet per read and write. A burst crosses a link of known rate and delay: the
//! k-th packet leaves after k serialisation times plus the propagation delay; a DropTail
//! queue keeps its limit; step marking sets CE in the packets themselves with a valid
//! checksum.

use std::fs::File;
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixDatagram;
use std::time::{Duration, Instant};

use ccsim_core::{Dur, Rate};
use ccsim_emulate::Emulator;
use ccsim_engine::{Discipline, LinkConfig, QueueLimit};

/// A 1000-byte IPv4 packet with TOS byte `tos`, its header checksum valid, numbered `seq`.
fn packet(seq: u8, tos: u8) -> Vec<u8> {
    let mut p = vec![0u8; 1000];
    p[..20].copy_from_slice(&[
        0x45, tos, 0x03, 0xe8, 0, seq, 0x40, 0, 64, 17, 0, 0, 10, 77, 0, 1, 10, 77, 0, 2,
    ]);
    let ck = checksum(&p[..20]);
    p[10..12].copy_from_slice(&ck.to_be_bytes());
    p[20] = seq;
    p
}

fn checksum(h: &[u8]) -> u16 {
    let mut sum: u32 = h
        .chunks(2)
        .map(|c| u32::from(u16::from_be_bytes([c[0], c[1]])))
        .sum();
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// An emulator between two socket pairs: (client application end, server application end).
fn emulator(config: &LinkConfig) -> (Emulator, UnixDatagram, UnixDatagram) {
    let (client_app, client_dev) = UnixDatagram::pair().unwrap();
    let (server_app, server_dev) = UnixDatagram::pair().unwrap();
    for s in [&client_dev, &server_dev] {
        s.set_nonblocking(true).unwrap();
    }
    let file = |s: UnixDatagram| File::from(OwnedFd::from(s));
    let e = Emulator::start(config, 1, file(client_dev), file(server_dev)).unwrap();
    (e, client_app, server_app)
}

fn link(limit: u64, discipline: Discipline) -> LinkConfig {
    LinkConfig {
        rate: Rate(8_000_000), // 1000 bytes take 1 ms
        delay: Dur(5_000_000),
        limit: QueueLimit::Packets(limit),
        loss: 0.0,
        jitter: Dur::ZERO,
        discipline,
        trace: None,
    }
}

/// Read `n` packets (or until `patience` passes), with their arrival instants after `t0`.
fn receive(sock: &UnixDatagram, n: usize, t0: Instant, patience: Duration) -> Vec<(f64, Vec<u8>)> {
    sock.set_read_timeout(Some(patience)).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 2000];
    while got.len() < n {
        match sock.recv(&mut buf) {
            Ok(len) => got.push((t0.elapsed().as_secs_f64(), buf[..len].to_vec())),
            Err(_) => break,
        }
    }
    got
}

#[test]
fn a_burst_leaves_one_serialisation_time_apart_after_the_delay() {
    let (e, client, server) = emulator(&link(100, Discipline::DropTail));
    let t0 = Instant::now();
    for seq in 0..10 {
        client.send(&packet(seq, 0)).unwrap();
    }
    let got = receive(&server, 10, t0, Duration::from_secs(2));
    let reports = e.stop().unwrap();
    assert_eq!(got.len(), 10);
    for (k, (t, bytes)) in got.iter().enumerate() {
        assert_eq!(
            bytes,
            &packet(k as u8, 0),
            "packet {k} unchanged and in order"
        );
        // Written at 5 ms + (k + 1) ms; the sends themselves and the thread's wake-up take
        // a little: allow 3 ms of lateness on a shared machine.
        let expected = 0.005 + (k as f64 + 1.0) * 0.001;
        assert!(
            *t >= expected - 0.0002 && *t <= expected + 0.003,
            "packet {k} at {t} s, expected {expected} s"
        );
    }
    let up = &reports[0];
    assert_eq!(up.name, "client->server");
    assert_eq!(
        (up.packets_in, up.packets_out, up.bytes_out),
        (10, 10, 10_000)
    );
    assert_eq!(up.lateness.count, 10);
    assert!(up.drops.is_empty());
    assert_eq!(reports[1].packets_in, 0);
}

#[test]
fn a_droptail_queue_keeps_its_limit() {
    let (e, client, server) = emulator(&link(3, Discipline::DropTail));
    let t0 = Instant::now();
    for seq in 0..10 {
        client.send(&packet(seq, 0)).unwrap();
    }
    let got = receive(&server, 10, t0, Duration::from_millis(300));
    let reports = e.stop().unwrap();
    // One in service and three waiting: the other six dropped at the tail.
    let seqs: Vec<u8> = got.iter().map(|(_, b)| b[20]).collect();
    assert_eq!(seqs, vec![0, 1, 2, 3]);
    assert_eq!(reports[0].drops, vec![("queue_full", 6)]);
    assert_eq!(reports[0].in_link_at_stop, 0);
}

#[test]
fn step_marking_sets_ce_in_the_packet_with_a_valid_checksum() {
    let (e, client, server) = emulator(&link(100, Discipline::Step { threshold: 2 }));
    let t0 = Instant::now();
    for seq in 0..6 {
        client.send(&packet(seq, 0x02)).unwrap(); // ECT(0)
    }
    let got = receive(&server, 6, t0, Duration::from_secs(2));
    let reports = e.stop().unwrap();
    assert_eq!(got.len(), 6);
    // Packet 0 is served at once; 1, 2 and 3 find 0, 1 and 2 waiting; 4 and 5 find more
    // than 2.
    let ecn: Vec<u8> = got.iter().map(|(_, b)| b[1] & 3).collect();
    assert_eq!(ecn, vec![2, 2, 2, 2, 3, 3]);
    for (_, b) in &got {
        assert_eq!(checksum(&b[..20]), 0, "valid IPv4 checksum");
    }
    assert_eq!(reports[0].ecn_marks, 2);
}

#[test]
fn both_directions_forward_independently() {
    let (e, client, server) = emulator(&link(100, Discipline::DropTail));
    let t0 = Instant::now();
    server.send(&packet(7, 0)).unwrap();
    let got = receive(&client, 1, t0, Duration::from_secs(2));
    let reports = e.stop().unwrap();
    assert_eq!(got.len(), 1);
    assert!(
        got[0].0 >= 0.0058,
        "one serialisation time and the delay: {} s",
        got[0].0
    );
    assert_eq!(reports[1].name, "server->client");
    assert_eq!(reports[1].packets_out, 1);
}
