//! State-machine tests of the NewReno sender and the sink: typed headers in, typed headers
//! and timers out, checked against the RFC rules they implement.

use ccsim_core::{Addr, Agent, Dur, Ecn, FlowId, Packet, SimTime, TimerSlot};

use super::{NewRenoSender, TcpConfig, TcpSink};
use crate::testing::MockCtx;
use crate::Hdr;

const MSS: u64 = 960;
const PEER: Addr = Addr { node: 1, agent: 1 };

pub(super) fn ack(n: u64) -> Packet<Hdr> {
    Packet {
        src: PEER,
        dst: Addr::default(),
        flow: FlowId(0),
        size: 40,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::TcpAck {
            ack: n,
            ece: false,
            opts: None,
            ace: None,
        },
    }
}

fn data(seq: u64) -> Packet<Hdr> {
    Packet {
        src: Addr { node: 0, agent: 0 },
        dst: PEER,
        flow: FlowId(0),
        size: 1000,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::TcpData {
            seq,
            payload: 960,
            retx: false,
            cwr: false,
            psh: false,
        },
    }
}

/// A cumulative ACK without ECE or SACK blocks, as a non-SACK sink sends.
fn plain_ack(ack: u64) -> Hdr {
    Hdr::TcpAck {
        ack,
        ece: false,
        opts: None,
        ace: None,
    }
}

/// (seq, retx) of each data segment sent.
#[track_caller]
pub(super) fn seqs(sent: &[Packet<Hdr>]) -> Vec<(u64, bool)> {
    sent.iter()
        .map(|p| match &p.header {
            Hdr::TcpData { seq, retx, .. } => (*seq, *retx),
            h => panic!("expected data, got {h:?}"),
        })
        .collect()
}

fn established(cfg: &TcpConfig) -> (NewRenoSender, MockCtx) {
    let mut s = NewRenoSender::new(FlowId(0), PEER, cfg);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    (s, ctx)
}

/// A sender in congestion avoidance with `w` segments outstanding (0..w) and snd_una = 0.
fn sender_with_window(w: u64) -> (NewRenoSender, MockCtx) {
    let cfg = TcpConfig {
        initial_window: u32::try_from(w).unwrap(),
        ..TcpConfig::default()
    };
    let (s, mut ctx) = established(&cfg);
    assert_eq!(ctx.drain().len() as u64, w);
    (s, ctx)
}

#[test]
fn start_sends_the_initial_window_and_arms_the_rto() {
    let (s, mut ctx) = established(&TcpConfig::default());
    assert_eq!(seqs(&ctx.drain()), vec![(0, false), (1, false)]);
    assert_eq!(s.cwnd(), 2 * MSS);
    // RFC 6298 2.1: RTO is 1 s before any sample.
    assert_eq!(ctx.timers[0], Some(SimTime(1_000_000_000)));
}

#[test]
fn slow_start_grows_one_mss_per_ack() {
    let (mut s, mut ctx) = established(&TcpConfig::default());
    ctx.drain();
    ctx.now = SimTime(100_000_000);
    s.on_packet(&ack(1), &mut ctx);
    assert_eq!(s.cwnd(), 3 * MSS);
    // Window 3, one outstanding (seq 1): sends 2 and 3.
    assert_eq!(seqs(&ctx.drain()), vec![(2, false), (3, false)]);
    // First RTT sample 100 ms: SRTT = R, RTTVAR = R/2, RTO = R + 4 RTTVAR = 300 ms.
    assert_eq!(s.rtt().srtt(), Some(Dur::from_millis(100)));
    assert_eq!(s.rtt().rto(), Dur::from_millis(300));
}

#[test]
fn slow_start_doubles_the_window_per_round_trip() {
    let (mut s, mut ctx) = sender_with_window(10);
    let start = s.cwnd();
    // RFC 5681 eq. 2: one MSS per ACK, so a window of ten ACKs adds ten MSS.
    for n in 1..=10 {
        s.on_packet(&ack(n), &mut ctx);
    }
    assert_eq!(s.cwnd(), start + 10 * MSS);
}

#[test]
fn three_dup_acks_trigger_fast_retransmit_and_halve() {
    let (mut s, mut ctx) = sender_with_window(10);
    for _ in 0..2 {
        s.on_packet(&ack(0), &mut ctx);
    }
    assert!(ctx.drain().is_empty(), "two duplicates are not enough");
    s.on_packet(&ack(0), &mut ctx);
    // RFC 5681 eq. 4: ssthresh = FlightSize/2 = 5 MSS; cwnd = ssthresh + 3 MSS.
    assert_eq!(s.ssthresh(), 5 * MSS);
    assert_eq!(s.cwnd(), 8 * MSS);
    assert!(s.in_recovery());
    assert_eq!(seqs(&ctx.drain()), vec![(0, true)]);
}

#[test]
fn recovery_inflates_per_dup_ack_and_sends_new_data() {
    let (mut s, mut ctx) = sender_with_window(10);
    for _ in 0..3 {
        s.on_packet(&ack(0), &mut ctx);
    }
    ctx.drain();
    // cwnd 8 MSS with 10 outstanding: each further duplicate adds one MSS; at 11 MSS a new
    // segment (10) may go.
    for _ in 0..3 {
        s.on_packet(&ack(0), &mut ctx);
    }
    assert_eq!(s.cwnd(), 11 * MSS);
    assert_eq!(seqs(&ctx.drain()), vec![(10, false)]);
}

#[test]
fn partial_ack_retransmits_next_hole_and_stays_in_recovery() {
    let (mut s, mut ctx) = sender_with_window(10);
    for _ in 0..3 {
        s.on_packet(&ack(0), &mut ctx);
    }
    ctx.drain();
    let before = s.cwnd();
    s.on_packet(&ack(4), &mut ctx); // segments 0..3 acked, 4 lost too
    assert!(s.in_recovery());
    assert_eq!(seqs(&ctx.drain())[0], (4, true));
    // RFC 6582 3.2 step 5: deflate by 4 MSS acked, add back one MSS.
    assert_eq!(s.cwnd(), before - 4 * MSS + MSS);
}

#[test]
fn full_ack_ends_recovery_with_cwnd_at_most_ssthresh() {
    let (mut s, mut ctx) = sender_with_window(10);
    for _ in 0..3 {
        s.on_packet(&ack(0), &mut ctx);
    }
    s.on_packet(&ack(10), &mut ctx);
    assert!(!s.in_recovery());
    // RFC 6582 3.2 step 3 option 1: min(ssthresh, max(FlightSize, MSS) + MSS); nothing is
    // outstanding, so cwnd = 2 MSS.
    assert_eq!(s.cwnd(), 2 * MSS);
    assert_eq!(s.ssthresh(), 5 * MSS);
}

#[test]
fn timeout_collapses_to_one_segment_and_goes_back_n() {
    let (mut s, mut ctx) = sender_with_window(10);
    let deadline = ctx.timers[0].expect("armed");
    ctx.now = deadline;
    s.on_timer(TimerSlot(0), &mut ctx);
    assert_eq!(s.cwnd(), MSS);
    assert_eq!(s.ssthresh(), 5 * MSS);
    assert_eq!(seqs(&ctx.drain()), vec![(0, true)]);
    // RFC 6298 5.5: back off (1 s -> 2 s).
    assert_eq!(ctx.timers[0], Some(SimTime(deadline.0 + 2_000_000_000)));
    // A second expiry keeps ssthresh and doubles again.
    ctx.now = ctx.timers[0].unwrap();
    s.on_timer(TimerSlot(0), &mut ctx);
    assert_eq!(s.ssthresh(), 5 * MSS);
    assert_eq!(ctx.timers[0], Some(SimTime(ctx.now.0 + 4_000_000_000)));
}

#[test]
fn dup_acks_after_timeout_do_not_start_a_second_recovery() {
    let (mut s, mut ctx) = sender_with_window(10);
    ctx.now = ctx.timers[0].unwrap();
    s.on_timer(TimerSlot(0), &mut ctx);
    s.on_packet(&ack(1), &mut ctx);
    ctx.drain();
    // Duplicates of 1 (covering no more than `recover` = 9): RFC 6582 step 1 forbids recovery.
    for _ in 0..3 {
        s.on_packet(&ack(1), &mut ctx);
    }
    assert!(!s.in_recovery());
}

#[test]
fn karn_no_rtt_sample_from_retransmitted_segment() {
    let (mut s, mut ctx) = sender_with_window(2);
    ctx.now = ctx.timers[0].unwrap();
    s.on_timer(TimerSlot(0), &mut ctx);
    ctx.now = SimTime(ctx.now.0 + 50_000_000);
    s.on_packet(&ack(2), &mut ctx);
    assert_eq!(s.rtt().srtt(), None);
}

#[test]
fn finite_transfer_completes_when_last_segment_acked() {
    let cfg = TcpConfig {
        size: Some(2500),
        ..TcpConfig::default()
    };
    let (mut s, mut ctx) = established(&cfg);
    let sent = ctx.drain();
    assert_eq!(sent.len(), 2);
    s.on_packet(&ack(2), &mut ctx);
    let last = ctx.drain();
    // 2500 B = 960 + 960 + 580.
    assert_eq!(last.len(), 1);
    assert_eq!(last[0].size, 580 + 40);
    assert_eq!(s.completed_at(), None);
    ctx.now = SimTime(7);
    s.on_packet(&ack(3), &mut ctx);
    assert_eq!(s.completed_at(), Some(SimTime(7)));
    assert_eq!(ctx.timers[0], None);
}

#[test]
fn sink_acks_every_segment_without_delayed_ack() {
    let mut sink = TcpSink::new(None);
    let mut ctx = MockCtx::new();
    sink.on_packet(&data(0), &mut ctx);
    sink.on_packet(&data(1), &mut ctx);
    let acks: Vec<_> = ctx.drain().iter().map(|p| p.header.clone()).collect();
    assert_eq!(acks, vec![plain_ack(1), plain_ack(2)]);
}

#[test]
fn sink_delays_acks_to_every_second_segment_or_timeout() {
    let mut sink = TcpSink::new(Some(Dur::from_millis(200)));
    let mut ctx = MockCtx::new();
    sink.on_packet(&data(0), &mut ctx);
    assert!(ctx.sent.is_empty());
    assert_eq!(ctx.timers[0], Some(SimTime(200_000_000)));
    sink.on_packet(&data(1), &mut ctx);
    assert_eq!(ctx.drain()[0].header, plain_ack(2));
    sink.on_packet(&data(2), &mut ctx);
    ctx.now = SimTime(200_000_000);
    sink.on_timer(TimerSlot(0), &mut ctx);
    assert_eq!(ctx.drain()[0].header, plain_ack(3));
}

#[test]
fn sink_acks_out_of_order_segments_at_once_and_buffers_them() {
    let mut sink = TcpSink::new(Some(Dur::from_millis(200)));
    let mut ctx = MockCtx::new();
    sink.on_packet(&data(0), &mut ctx);
    sink.on_packet(&data(2), &mut ctx); // gap at 1
    sink.on_packet(&data(3), &mut ctx);
    let acks: Vec<_> = ctx.drain().iter().map(|p| p.header.clone()).collect();
    assert_eq!(acks, vec![plain_ack(1), plain_ack(1)]);
    sink.on_packet(&data(1), &mut ctx); // fills the gap: immediate cumulative ACK
    assert_eq!(ctx.drain()[0].header, plain_ack(4));
    assert_eq!(sink.stats().app_bytes_delivered, 4 * 960);
}

#[test]
fn an_empty_transfer_is_complete_at_start_and_sends_nothing() {
    let cfg = TcpConfig {
        size: Some(0),
        ..TcpConfig::default()
    };
    let (s, mut ctx) = established(&cfg);
    assert!(ctx.drain().is_empty());
    assert_eq!(s.completed_at(), Some(SimTime::ZERO));
    assert_eq!(ctx.timers[0], None);
}

#[test]
fn an_ack_beyond_what_was_sent_acknowledges_only_what_was_sent() {
    let (mut s, mut ctx) = sender_with_window(2);
    s.on_packet(&ack(2), &mut ctx);
    let cwnd = s.cwnd();
    ctx.drain();
    s.on_packet(&ack(99), &mut ctx);
    // After ack(2) the window is 3 MSS and segments 2, 3, 4 went out (snd_max = 5); the
    // bogus ACK counts as acknowledging exactly those.
    assert_eq!(s.snd_una(), 5);
    // Slow start: RFC 5681 section 3.1 grows cwnd by at most SMSS per ACK, however much it
    // acknowledges: exactly one MSS here.
    assert_eq!(s.cwnd(), cwnd + MSS);
}

#[test]
fn a_minimum_rto_above_the_maximum_raises_the_maximum() {
    // RFC 6298 clamps even the initial timeout to [min, max]; a 90 s minimum over a 60 s
    // maximum raises the maximum.
    let cfg = TcpConfig {
        min_rto: Dur::from_secs(90),
        max_rto: Dur::from_secs(60),
        rto_policy: crate::RtoPolicy::Rfc6298 {
            granularity: Dur::from_millis(1),
        },
        ..TcpConfig::default()
    };
    let (_, ctx) = established(&cfg);
    assert_eq!(ctx.timers[0], Some(SimTime(90_000_000_000)));
}

fn ce_data(seq: u64, ce: bool) -> Packet<Hdr> {
    Packet {
        ecn: if ce { Ecn::Ce } else { Ecn::Ect },
        ..data(seq)
    }
}

fn echoes(ctx: &mut MockCtx) -> Vec<(u64, bool)> {
    ctx.drain()
        .iter()
        .map(|p| match p.header {
            Hdr::TcpAck { ack, ece, .. } => (ack, ece),
            _ => panic!("not an ACK"),
        })
        .collect()
}

#[test]
fn a_dctcp_sink_echoes_each_segments_mark_without_latching() {
    // RFC 8257 section 3.2, ACK per segment: ECE is the acknowledged segment's CE mark; a
    // classic (RFC 3168) sink keeps ECE set until CWR.
    let mut sink = TcpSink::new(None).with_ce_echo(true);
    let mut ctx = MockCtx::new();
    for (seq, ce) in [(0, false), (1, true), (2, false), (3, true), (4, true)] {
        sink.on_packet(&ce_data(seq, ce), &mut ctx);
    }
    assert_eq!(
        echoes(&mut ctx),
        vec![(1, false), (2, true), (3, false), (4, true), (5, true)]
    );
    let mut classic = TcpSink::new(None);
    for (seq, ce) in [(0, false), (1, true), (2, false)] {
        classic.on_packet(&ce_data(seq, ce), &mut ctx);
    }
    assert_eq!(echoes(&mut ctx), vec![(1, false), (2, true), (3, true)]);
}

#[test]
fn a_dctcp_sink_with_delayed_acks_sends_the_old_mark_when_it_changes() {
    // RFC 8257 section 3.2, delayed ACKs (m = 2): segment 0 unmarked waits; 1 is CE, a
    // change: the pending ACK for 0 leaves with ECE = 0, then 1 is acknowledged at once with
    // ECE = 1. 2 and 3 are CE too: no change, one ACK for both, ECE = 1. 4 unmarked: a change
    // again, acknowledged at once.
    let mut sink = TcpSink::new(Some(Dur::from_millis(200))).with_ce_echo(true);
    let mut ctx = MockCtx::new();
    sink.on_packet(&ce_data(0, false), &mut ctx);
    assert!(echoes(&mut ctx).is_empty());
    sink.on_packet(&ce_data(1, true), &mut ctx);
    assert_eq!(echoes(&mut ctx), vec![(1, false), (2, true)]);
    sink.on_packet(&ce_data(2, true), &mut ctx);
    assert!(echoes(&mut ctx).is_empty());
    sink.on_packet(&ce_data(3, true), &mut ctx);
    assert_eq!(echoes(&mut ctx), vec![(4, true)]);
    sink.on_packet(&ce_data(4, false), &mut ctx);
    assert_eq!(echoes(&mut ctx), vec![(5, false)]);
}
