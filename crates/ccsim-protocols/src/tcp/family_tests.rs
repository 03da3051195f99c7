//! State-machine tests of the TCP variants, ECN, SACK and the slow-start options: typed
//! headers in, typed headers and timers out, each expectation worked out by hand from the
//! RFC or paper clause named in the test.

use ccsim_core::{Addr, Agent, Dur, Ecn, FlowId, Packet, SimTime, TimerSlot};

use super::cc::{AckEvent, CongestionControl, Vegas, VegasNs2, VegasParams, VegasVariant, Window};
use super::tests::{ack, seqs};
use super::{AckOptions, TcpSink};
use super::{
    Algorithm, CaState, PacedSlowStart, RecoveryPolicy, SackBlock, SackBlocks, TcpConfig, TcpSender,
};
use crate::testing::MockCtx;
use crate::Hdr;

const MSS: u64 = 960;
const PEER: Addr = Addr { node: 1, agent: 1 };

fn ack_with(n: u64, ece: bool, blocks: &[(u64, u64)]) -> Packet<Hdr> {
    let sack = (!blocks.is_empty()).then(|| {
        let b: Vec<SackBlock> = blocks
            .iter()
            .map(|&(start, end)| SackBlock { start, end })
            .collect();
        Box::new(AckOptions {
            sack: SackBlocks::new(&b),
            accecn: None,
        })
    });
    Packet {
        src: PEER,
        dst: Addr::default(),
        flow: FlowId(0),
        size: 40,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::TcpAck {
            ack: n,
            ece,
            opts: sack,
            ace: None,
        },
    }
}

fn data(seq: u64, ecn: Ecn, cwr: bool) -> Packet<Hdr> {
    Packet {
        src: Addr { node: 0, agent: 0 },
        dst: PEER,
        flow: FlowId(0),
        size: 1000,
        sent_at: SimTime::ZERO,
        ecn,
        header: Hdr::TcpData {
            seq,
            payload: 960,
            retx: false,
            cwr,
            psh: false,
        },
    }
}

/// A sender of `algorithm` with `w` segments (0..w) outstanding, in congestion avoidance
/// territory as far as the tests go (ssthresh unbounded, nothing acknowledged). A SACK
/// sender recovers as RFC 6675 writes it (`recovery = "rfc6675"`), the clauses these tests
/// work by hand; [`ns3_sender`] gives the default.
fn sender(algorithm: Algorithm, w: u64, ecn: bool) -> (TcpSender, MockCtx) {
    sender_with(algorithm, w, ecn, RecoveryPolicy::Rfc6675)
}

/// A SACK sender with the default recovery, ns-3's, and `w` segments outstanding.
fn ns3_sender(w: u64) -> (TcpSender, MockCtx) {
    sender_with(Algorithm::Sack, w, false, RecoveryPolicy::Ns3)
}

fn sender_with(
    algorithm: Algorithm,
    w: u64,
    ecn: bool,
    recovery_policy: RecoveryPolicy,
) -> (TcpSender, MockCtx) {
    started(TcpConfig {
        initial_window: u32::try_from(w).unwrap(),
        algorithm,
        recovery_policy,
        ecn,
        ..TcpConfig::default()
    })
}

/// A sender of `cfg` after its start, with its initial window sent.
fn started(cfg: TcpConfig) -> (TcpSender, MockCtx) {
    let mut s = TcpSender::new(FlowId(0), PEER, &cfg);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    assert_eq!(ctx.drain().len() as u64, u64::from(cfg.initial_window));
    (s, ctx)
}

#[test]
fn tahoe_three_dup_acks_collapse_to_one_segment_and_go_back_n() {
    let (mut s, mut ctx) = sender(Algorithm::Tahoe, 10, false);
    for _ in 0..3 {
        s.on_packet(&ack(0), &mut ctx);
    }
    // Jacobson 1988 / RFC 5681 eq. 4: ssthresh = FlightSize/2 = 5 MSS, cwnd = 1 MSS, and
    // only the first outstanding segment goes (go back N, slow start).
    assert_eq!(s.ssthresh(), 5 * MSS);
    assert_eq!(s.cwnd(), MSS);
    assert_eq!(s.state(), CaState::Loss);
    assert_eq!(seqs(&ctx.drain()), vec![(0, true)]);
    // Further duplicates neither inflate the window nor retransmit again.
    s.on_packet(&ack(0), &mut ctx);
    assert_eq!(s.cwnd(), MSS);
    assert!(ctx.drain().is_empty());
    // The ACK of the retransmission (receiver held 1..9): slow start resumes at 2 MSS.
    s.on_packet(&ack(10), &mut ctx);
    assert_eq!(s.cwnd(), 2 * MSS);
    assert_eq!(seqs(&ctx.drain()), vec![(10, false), (11, false)]);
}

#[test]
fn reno_halves_once_per_loss_event_and_leaves_recovery_on_the_first_new_ack() {
    let (mut s, mut ctx) = sender(Algorithm::Reno, 10, false);
    for _ in 0..3 {
        s.on_packet(&ack(0), &mut ctx);
    }
    assert_eq!(seqs(&ctx.drain()), vec![(0, true)]);
    assert_eq!(s.ssthresh(), 5 * MSS);
    assert_eq!(s.cwnd(), 8 * MSS); // RFC 5681 3.2 step 3: ssthresh + 3 MSS
                                   // More duplicates of the same loss inflate (step 4) but do not halve again.
    for _ in 0..4 {
        s.on_packet(&ack(0), &mut ctx);
    }
    assert_eq!(s.ssthresh(), 5 * MSS);
    assert_eq!(s.cwnd(), 12 * MSS);
    // A partial ACK (4 lost too) ends Reno's recovery: cwnd = ssthresh (step 6), and
    // nothing is retransmitted for the second hole.
    ctx.drain();
    s.on_packet(&ack(4), &mut ctx);
    assert!(!s.in_recovery());
    assert_eq!(s.cwnd(), 5 * MSS);
    assert!(seqs(&ctx.drain()).iter().all(|&(_, retx)| !retx));
}

#[test]
fn newreno_partial_ack_retransmits_where_reno_does_not() {
    let (mut s, mut ctx) = sender(Algorithm::NewReno, 10, false);
    for _ in 0..3 {
        s.on_packet(&ack(0), &mut ctx);
    }
    ctx.drain();
    s.on_packet(&ack(4), &mut ctx);
    assert!(s.in_recovery());
    assert_eq!(seqs(&ctx.drain())[0], (4, true));
}

/// The receiver of segments 0..10 with 1, 3 and 5 lost ACKs 2..9 with these blocks
/// (RFC 2018 section 4: newest first).
fn sack_dupacks() -> Vec<Packet<Hdr>> {
    vec![
        ack_with(1, false, &[(2, 3)]),
        ack_with(1, false, &[(4, 5), (2, 3)]),
        ack_with(1, false, &[(6, 7), (4, 5), (2, 3)]),
        ack_with(1, false, &[(6, 8), (4, 5), (2, 3)]),
        ack_with(1, false, &[(6, 9), (4, 5), (2, 3)]),
        ack_with(1, false, &[(6, 10), (4, 5), (2, 3)]),
    ]
}

#[test]
fn sack_retransmits_all_three_holes_within_one_round_trip() {
    let (mut s, mut ctx) = sender(Algorithm::Sack, 10, false);
    s.on_packet(&ack(1), &mut ctx); // segment 0 arrived: cwnd 11 MSS, sends 10 and 11
    ctx.drain();
    let mut sent = Vec::new();
    for a in sack_dupacks() {
        s.on_packet(&a, &mut ctx);
        sent.extend(seqs(&ctx.drain()));
    }
    assert!(s.in_recovery());
    // RFC 6675: recovery starts at the third duplicate (IsLost(1) holds then: 2, 4, 6
    // SACKed above it); ssthresh = cwnd = FlightSize/2 = 11*MSS/2.
    assert_eq!(s.ssthresh(), 11 * MSS / 2);
    // All three holes are retransmitted before any of them is cumulatively acknowledged,
    // i.e. within the round trip of the duplicates, lowest first.
    let retx: Vec<u64> = sent.iter().filter(|p| p.1).map(|p| p.0).collect();
    assert_eq!(retx, vec![1, 3, 5]);
    assert!(ctx.timers[0].is_some());
}

#[test]
fn newreno_repairs_the_same_three_holes_one_per_round_trip() {
    let (mut s, mut ctx) = sender(Algorithm::NewReno, 10, false);
    s.on_packet(&ack(1), &mut ctx);
    ctx.drain();
    let mut retx = Vec::new();
    for _ in 0..6 {
        s.on_packet(&ack(1), &mut ctx);
        retx.extend(seqs(&ctx.drain()).into_iter().filter(|p| p.1).map(|p| p.0));
    }
    // Only the first hole goes in the first round trip; 3 waits for the partial ACK.
    assert_eq!(retx, vec![1]);
    s.on_packet(&ack(3), &mut ctx);
    assert_eq!(seqs(&ctx.drain())[0], (3, true));
}

#[test]
fn sack_recovery_ends_when_the_ack_passes_the_recovery_point() {
    let (mut s, mut ctx) = sender(Algorithm::Sack, 10, false);
    s.on_packet(&ack(1), &mut ctx);
    for a in sack_dupacks() {
        s.on_packet(&a, &mut ctx);
    }
    let high = s.snd_max();
    s.on_packet(&ack(high - 1), &mut ctx);
    assert!(s.in_recovery(), "RecoveryPoint itself not yet acknowledged");
    s.on_packet(&ack(high), &mut ctx);
    assert!(!s.in_recovery());
    assert_eq!(s.cwnd(), s.ssthresh());
}

#[test]
fn ecn_echo_halves_once_per_window_and_sets_cwr_on_the_next_new_segment() {
    let (mut s, mut ctx) = sender(Algorithm::NewReno, 10, true);
    // RFC 3168 6.1.2: ECE halves the window (ssthresh = FlightSize/2 with the 10
    // segments outstanding when the ACK arrived, cwnd = ssthresh) and the ACK does not
    // grow it.
    s.on_packet(&ack_with(1, true, &[]), &mut ctx);
    assert_eq!(s.ssthresh(), 5 * MSS);
    assert_eq!(s.cwnd(), 5 * MSS);
    assert_eq!(s.state(), CaState::Cwr);
    // More ECE within the same window of data: no second reduction.
    for n in 2..=6 {
        s.on_packet(&ack_with(n, true, &[]), &mut ctx);
    }
    assert_eq!(s.ssthresh(), 5 * MSS);
    let sent = ctx.drain();
    let cwr: Vec<bool> = sent
        .iter()
        .map(|p| matches!(p.header, Hdr::TcpData { cwr: true, .. }))
        .collect();
    assert_eq!(
        cwr.iter().filter(|c| **c).count(),
        1,
        "CWR on exactly one segment"
    );
    assert!(cwr[0], "CWR on the first new segment after the reduction");
    assert!(sent.iter().all(|p| p.ecn == Ecn::Ect), "new data is ECT");
    // The window outstanding at the reduction (0..9) is acknowledged, but not segment 10,
    // the first new one, which carried CWR: the chosen rule keeps the reduction window open
    // (RFC 3168's "once per window of data" read as "until CWR is acknowledged"), where
    // ending it with the old window would halve again here.
    s.on_packet(&ack_with(10, true, &[]), &mut ctx);
    assert_eq!(
        s.ssthresh(),
        5 * MSS,
        "no second reduction before CWR is acknowledged"
    );
    assert_eq!(s.state(), CaState::Cwr);
    // Once segment 10 is acknowledged, ECE reduces again: ssthresh = FlightSize / 2, the
    // segments outstanding when the ACK arrived (10 .. snd_max).
    let flight = s.snd_max() - s.snd_una();
    s.on_packet(&ack_with(11, true, &[]), &mut ctx);
    assert_eq!(s.ssthresh(), (flight * MSS / 2).max(2 * MSS));
    assert_eq!(s.cwnd(), s.ssthresh());
}

#[test]
fn retransmissions_are_not_ect() {
    let (mut s, mut ctx) = sender(Algorithm::NewReno, 10, true);
    for _ in 0..3 {
        s.on_packet(&ack(0), &mut ctx);
    }
    let sent = ctx.drain();
    assert_eq!(seqs(&sent), vec![(0, true)]);
    assert_eq!(sent[0].ecn, Ecn::NotEct); // RFC 3168 section 6.1.5
}

#[test]
fn sink_echoes_ece_from_ce_until_cwr() {
    let mut sink = TcpSink::new(Some(Dur::from_millis(200)));
    let mut ctx = MockCtx::new();
    let eces = |ctx: &mut MockCtx| -> Vec<bool> {
        ctx.drain()
            .iter()
            .map(|p| matches!(p.header, Hdr::TcpAck { ece: true, .. }))
            .collect()
    };
    sink.on_packet(&data(0, Ecn::Ect, false), &mut ctx);
    sink.on_packet(&data(1, Ecn::Ect, false), &mut ctx);
    assert_eq!(eces(&mut ctx), vec![false]);
    // A CE segment is acknowledged at once, with ECE.
    sink.on_packet(&data(2, Ecn::Ce, false), &mut ctx);
    assert_eq!(eces(&mut ctx), vec![true]);
    sink.on_packet(&data(3, Ecn::Ect, false), &mut ctx);
    sink.on_packet(&data(4, Ecn::Ect, false), &mut ctx);
    assert_eq!(eces(&mut ctx), vec![true]);
    // CWR stops the echo.
    sink.on_packet(&data(5, Ecn::Ect, true), &mut ctx);
    sink.on_packet(&data(6, Ecn::Ect, false), &mut ctx);
    assert_eq!(eces(&mut ctx), vec![false]);
}

#[test]
fn sink_reports_the_newest_block_first_and_repeats_older_ones() {
    // RFC 2018 section 4's rules, on segments 0, 2, 4, 5, 3 with 1 missing.
    let mut sink = TcpSink::new(None).with_sack(true);
    let mut ctx = MockCtx::new();
    let blocks = |ctx: &mut MockCtx| -> Vec<Vec<(u64, u64)>> {
        ctx.drain()
            .iter()
            .map(|p| match &p.header {
                Hdr::TcpAck { opts, .. } => AckOptions::sack_of(opts.as_deref())
                    .map(|b| b.iter().map(|b| (b.start, b.end)).collect())
                    .unwrap_or_default(),
                h => panic!("expected an ACK, got {h:?}"),
            })
            .collect()
    };
    for seq in [0, 2, 4, 5, 3] {
        sink.on_packet(&data(seq, Ecn::NotEct, false), &mut ctx);
    }
    assert_eq!(
        blocks(&mut ctx),
        vec![
            vec![],
            vec![(2, 3)],
            vec![(4, 5), (2, 3)],
            vec![(4, 6), (2, 3)],
            vec![(2, 6)], // 3 joins the two blocks
        ]
    );
    sink.on_packet(&data(1, Ecn::NotEct, false), &mut ctx);
    assert_eq!(blocks(&mut ctx), vec![vec![]], "no blocks once in order");
}

#[test]
fn sack_acks_carry_the_option_bytes() {
    let mut sink = TcpSink::new(None).with_sack(true);
    let mut ctx = MockCtx::new();
    sink.on_packet(&data(1, Ecn::NotEct, false), &mut ctx);
    // RFC 2018 section 3: 2 + 8 bytes for one block, padded to 12.
    assert_eq!(ctx.drain()[0].size, 40 + 12);
}

fn vegas_window(cwnd_segments: u64) -> Window {
    Window {
        cwnd: cwnd_segments * MSS,
        ssthresh: 2 * MSS,
        mss: MSS,
        cwnd_limited: true,
        flight: cwnd_segments * MSS,
    }
}

/// Run one Vegas round: `samples` RTT samples of `rtt_ms`, then the ACK that ends it.
fn vegas_round(v: &mut Vegas, w: &mut Window, rtt_ms: u64, round_end: u64) {
    for _ in 0..3 {
        v.on_rtt(Dur::from_millis(rtt_ms), SimTime::ZERO);
    }
    let ev = AckEvent {
        now: SimTime::ZERO,
        acked_segments: 1,
        snd_una: round_end + 1,
        snd_nxt: round_end + 20,
    };
    v.on_ack(w, &ev);
}

#[test]
fn vegas_adjusts_by_one_segment_per_round_by_the_queued_estimate() {
    // Brakmo and Peterson 3.2: diff = cwnd (RTT - BaseRTT) / RTT segments.
    let mut v = Vegas::new(VegasParams::default());
    let mut w = vegas_window(10);
    // First round at 100 ms sets BaseRTT = 100 ms: diff 0 < alpha: grow by one.
    vegas_round(&mut v, &mut w, 100, 0);
    assert_eq!(w.cwnd, 11 * MSS);
    // RTT 110 ms with cwnd 11: diff = 11 * 10 / 110 = 1.0, between alpha and beta: hold.
    vegas_round(&mut v, &mut w, 110, 40);
    assert_eq!(w.cwnd, 11 * MSS);
    assert!((v.last_diff() - 1.0).abs() < 1e-12);
    // RTT 150 ms: diff = 11 * 50 / 150 = 3.67 > beta: shrink by one.
    vegas_round(&mut v, &mut w, 150, 60);
    assert_eq!(w.cwnd, 10 * MSS);
}

#[test]
fn vegas_slow_start_doubles_every_other_round_and_ends_above_gamma() {
    let mut v = Vegas::new(VegasParams::default());
    let mut w = Window {
        ssthresh: u64::MAX,
        ..vegas_window(4)
    };
    let ack = |v: &mut Vegas, w: &mut Window, una: u64| {
        let ev = AckEvent {
            now: SimTime::ZERO,
            acked_segments: 1,
            snd_una: una,
            snd_nxt: una + 4,
        };
        v.on_ack(w, &ev);
    };
    // Round 1 (growing): each ACK inside the round adds one segment.
    vegas_round(&mut v, &mut w, 100, 0); // ends round 0; diff 0: the next round holds
    let held = w.cwnd;
    ack(&mut v, &mut w, 2);
    assert_eq!(w.cwnd, held, "a holding round keeps the window fixed");
    vegas_round(&mut v, &mut w, 100, 20); // diff 0 again: the next round grows
    ack(&mut v, &mut w, 22);
    assert_eq!(w.cwnd, held + MSS);
    // RTT 150 ms on cwnd 5: diff = 5 * 50/150 = 1.67 > gamma: leave slow start with
    // cwnd = min(cwnd, cwnd*Base/RTT + 1) = min(5, 3.33 + 1) segments.
    vegas_round(&mut v, &mut w, 150, 40);
    assert!(!w.in_slow_start());
    assert_eq!(w.cwnd, 5 * MSS * 100 / 150 + MSS);
}

#[test]
fn paced_slow_start_delays_the_second_segment_of_each_ack() {
    let cfg = TcpConfig {
        initial_window: 4,
        paced_slow_start: Some(PacedSlowStart::default()),
        ..TcpConfig::default()
    };
    let mut s = TcpSender::new(FlowId(0), PEER, &cfg);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    assert_eq!(ctx.drain().len(), 4);
    // ACKs 10 ms apart: the first two set the inter-ACK estimate (no spacing before).
    ctx.now = SimTime(100_000_000);
    s.on_packet(&ack(1), &mut ctx);
    assert_eq!(ctx.drain().len(), 2);
    ctx.now = SimTime(110_000_000);
    s.on_packet(&ack(2), &mut ctx);
    // One segment now, the second after half the 10 ms inter-ACK time.
    assert_eq!(seqs(&ctx.drain()), vec![(6, false)]);
    assert_eq!(ctx.timers[1], Some(SimTime(115_000_000)));
    ctx.now = SimTime(115_000_000);
    s.on_timer(TimerSlot(1), &mut ctx);
    assert_eq!(seqs(&ctx.drain()), vec![(7, false)]);
}

#[test]
fn a_given_initial_ssthresh_ends_slow_start_there() {
    let cfg = TcpConfig {
        initial_window: 4,
        initial_ssthresh: Some(4 * MSS),
        ..TcpConfig::default()
    };
    let mut s = TcpSender::new(FlowId(0), PEER, &cfg);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    s.on_packet(&ack(1), &mut ctx);
    // cwnd = ssthresh: congestion avoidance, MSS*MSS/cwnd per ACK (RFC 5681 eq. 3).
    assert_eq!(s.cwnd(), 4 * MSS + MSS / 4);
}

#[test]
fn a_receiver_limited_window_grows_to_twice_its_use_and_no_further() {
    // Linux tcp_is_cwnd_limited: in slow start the window may grow while it is below twice
    // the most segments outstanding; a receiver window of 4 segments caps that use at 4.
    for (validate, expected) in [(true, 8 * MSS), (false, (2 + 200) * MSS)] {
        let cfg = TcpConfig {
            initial_window: 2,
            max_window: 4,
            cwnd_limited_growth: validate,
            ..TcpConfig::default()
        };
        let mut s = TcpSender::new(FlowId(0), PEER, &cfg);
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        for n in 1..=200 {
            s.on_packet(&ack(n), &mut ctx);
            assert!(s.snd_max() - s.snd_una() <= 4, "the receiver window holds");
        }
        assert_eq!(s.cwnd(), expected, "cwnd_limited_growth = {validate}");
    }
}

#[test]
fn a_window_that_is_filled_keeps_growing() {
    // The same sender without a receiver limit fills its window on every ACK, so window
    // validation never holds it back: RFC 5681 slow start, one MSS per ACK.
    let cfg = TcpConfig {
        initial_window: 2,
        ..TcpConfig::default()
    };
    let mut s = TcpSender::new(FlowId(0), PEER, &cfg);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    for n in 1..=50 {
        s.on_packet(&ack(n), &mut ctx);
    }
    assert_eq!(s.cwnd(), 52 * MSS);
}

#[test]
fn a_timeout_after_sack_recovery_takes_ssthresh_from_the_pipe_and_keeps_the_scoreboard() {
    // Segments 0..10 outstanding; 0 and 5 are lost, 1-4 and 6-9 arrive and are SACKed.
    let (mut s, mut ctx) = sender(Algorithm::Sack, 10, false);
    for blocks in [&[(1, 2)][..], &[(1, 3)], &[(1, 4)]] {
        s.on_packet(&ack_with(0, false, blocks), &mut ctx);
    }
    // RFC 6675: recovery at the third duplicate, ssthresh = FlightSize/2 = 5 MSS,
    // segment 0 retransmitted.
    assert!(s.in_recovery());
    assert_eq!(s.ssthresh(), 5 * MSS);
    assert_eq!(seqs(&ctx.drain()), vec![(0, true)]);
    // One (stretch) ACK SACKs 4 and 6-9. SetPipe: 9, 8, 7 SACKed make everything below 7
    // lost, so the pipe holds only the retransmitted 0: cwnd 5 sends hole 5, then new
    // segments 10, 11, 12.
    s.on_packet(&ack_with(0, false, &[(6, 10), (1, 5)]), &mut ctx);
    assert_eq!(
        seqs(&ctx.drain()),
        vec![(5, true), (10, false), (11, false), (12, false)]
    );
    // Everything sent in recovery is lost; the timer fires. The pipe is then 0 and 5
    // (retransmitted) plus 10, 11, 12: 5 segments, so ssthresh = 5/2 MSS (ns-3's
    // GetSsThresh(BytesInFlight)), where FlightSize (13 segments, held up by the hole at
    // 0) would give 6.5 MSS.
    ctx.now = SimTime(2_000_000_000);
    s.on_timer(TimerSlot(0), &mut ctx);
    assert_eq!(s.ssthresh(), 5 * MSS / 2);
    assert_eq!(s.cwnd(), MSS);
    assert_eq!(seqs(&ctx.drain()), vec![(0, true)]);
    // The receiver now holds 0-4 and 6-9. Go-back-N resends the hole at 5 and skips what
    // the SACK scoreboard still records as held: 6-9 are not sent again.
    ctx.now = SimTime(2_100_000_000);
    s.on_packet(&ack_with(5, false, &[(6, 10)]), &mut ctx);
    assert_eq!(s.cwnd(), 2 * MSS);
    assert_eq!(seqs(&ctx.drain()), vec![(5, true)]);
    ctx.now = SimTime(2_200_000_000);
    s.on_packet(&ack_with(10, false, &[]), &mut ctx);
    let next: Vec<u64> = seqs(&ctx.drain()).iter().map(|p| p.0).collect();
    assert_eq!(
        next,
        vec![10, 11, 12],
        "resumes at the first segment not held"
    );
}

#[test]
fn ns3_recovery_takes_ssthresh_from_the_pipe_not_from_flight_size() {
    // The duplicates of `sack_retransmits_all_three_holes_within_one_round_trip`: 1..=11
    // outstanding, 2, 4 and 6 SACKed at the third duplicate. SetPipe by hand: unSACKed 1, 3,
    // 5, 7, 8, 9, 10, 11; IsLost only for 1 (2, 4, 6 above it; 3 has only two above), so
    // pipe = 8 - 1 = 7 segments and ssthresh = cwnd = 7/2 MSS (ns-3 `EnterRecovery`:
    // `GetSsThresh(tcb, BytesInFlight())`), where RFC 6675 step 4.2 takes FlightSize, 11.
    let (mut s, mut ctx) = ns3_sender(10);
    s.on_packet(&ack(1), &mut ctx);
    ctx.drain();
    let mut sent = Vec::new();
    for a in &sack_dupacks()[..3] {
        s.on_packet(a, &mut ctx);
        sent.extend(seqs(&ctx.drain()));
    }
    assert!(s.in_recovery());
    assert_eq!(s.ssthresh(), 7 * MSS / 2);
    assert_eq!(s.cwnd(), 7 * MSS / 2);
    // Step 4.3 retransmits 1; the pipe (8 with it) is above cwnd: nothing more.
    assert_eq!(sent, vec![(1, true)]);
    let (mut rfc, mut rctx) = sender(Algorithm::Sack, 10, false);
    rfc.on_packet(&ack(1), &mut rctx);
    for a in &sack_dupacks()[..3] {
        rfc.on_packet(a, &mut rctx);
    }
    assert_eq!(rfc.ssthresh(), 11 * MSS / 2);
}

#[test]
fn ns3_after_a_timeout_counts_retransmissions_in_flight_not_sequence_numbers() {
    // The losses of `a_timeout_after_sack_recovery_takes_ssthresh_from_the_pipe_and_keeps_
    // the_scoreboard`: 0..10 sent, 0 and 5 lost, 1-4 and 6-9 SACKed.
    let (mut s, mut ctx) = ns3_sender(10);
    for blocks in [&[(1, 2)][..], &[(1, 3)], &[(1, 4)]] {
        s.on_packet(&ack_with(0, false, blocks), &mut ctx);
    }
    // Pipe at the third duplicate: unSACKed 0, 4..9 (7), 0 lost: 6, so ssthresh = 3 MSS.
    assert_eq!(s.ssthresh(), 3 * MSS);
    assert_eq!(seqs(&ctx.drain()), vec![(0, true)]);
    // One ACK SACKs 4 and 6-9: everything below 7 unSACKed is lost, the pipe is the
    // retransmitted 0: cwnd 3 sends hole 5 and new segment 10.
    s.on_packet(&ack_with(0, false, &[(6, 10), (1, 5)]), &mut ctx);
    assert_eq!(seqs(&ctx.drain()), vec![(5, true), (10, false)]);
    // Everything sent in recovery is lost; the timer fires. Pipe then: 0 and 5
    // (retransmitted, lost and counted once each) and 10: 3 segments, ssthresh 3/2 -> 2 MSS.
    ctx.now = SimTime(2_000_000_000);
    s.on_timer(TimerSlot(0), &mut ctx);
    assert_eq!(s.ssthresh(), 2 * MSS);
    assert_eq!(s.cwnd(), MSS);
    // ns-3 `SetSentListLost`: 0, 5 and 10 are lost, none retransmitted since: pipe 0,
    // and cwnd 1 sends the first lost segment.
    assert_eq!(seqs(&ctx.drain()), vec![(0, true)]);
    // 0 arrives: ACK 5 with 6-9 SACKed. Slow start: cwnd 2. The pipe is empty (5 and 10
    // lost, 6-9 SACKed), so both lost segments go at once. RFC 6675's go-back-N counts
    // cwnd from the ACK point: [5, 7) holds 5 and the SACKed 6, so it sends 5 alone.
    ctx.now = SimTime(2_100_000_000);
    s.on_packet(&ack_with(5, false, &[(6, 10)]), &mut ctx);
    assert_eq!(s.cwnd(), 2 * MSS);
    assert_eq!(seqs(&ctx.drain()), vec![(5, true), (10, true)]);
    // 5 arrives: ACK 10. cwnd = ssthresh, so congestion avoidance adds MSS^2 / cwnd = MSS/2;
    // the pipe is the retransmitted 10 (lost before the timeout, sent since): one new
    // segment fits.
    ctx.now = SimTime(2_200_000_000);
    s.on_packet(&ack_with(10, false, &[]), &mut ctx);
    assert_eq!(s.cwnd(), 2 * MSS + MSS / 2);
    assert_eq!(seqs(&ctx.drain()), vec![(11, false)]);
    // 10 arrives: ACK 11 passes the recovery point (10): the flow is open again.
    s.on_packet(&ack_with(11, false, &[]), &mut ctx);
    assert_eq!(s.state(), CaState::Open);
}

#[test]
fn the_sink_counts_held_bytes_so_every_new_byte_counts_once_at_arrival() {
    let mut sink = TcpSink::new(None);
    let mut ctx = MockCtx::new();
    let counts = |s: &TcpSink| {
        let st = s.stats();
        (st.app_bytes_delivered / MSS, st.app_bytes_held / MSS)
    };
    sink.on_packet(&data(0, Ecn::NotEct, false), &mut ctx);
    assert_eq!(counts(&sink), (1, 0));
    // Segment 1 is missing: 2 and 3 wait in the reassembly queue.
    sink.on_packet(&data(2, Ecn::NotEct, false), &mut ctx);
    sink.on_packet(&data(3, Ecn::NotEct, false), &mut ctx);
    assert_eq!(counts(&sink), (1, 2));
    // A duplicate adds nothing; the gap filling releases all three.
    sink.on_packet(&data(2, Ecn::NotEct, false), &mut ctx);
    assert_eq!(counts(&sink), (1, 2));
    sink.on_packet(&data(1, Ecn::NotEct, false), &mut ctx);
    assert_eq!(counts(&sink), (4, 0));
}

// --- ns-2's Vegas (tcp/tcp-vegas.cc), worked by hand from its arithmetic -------------------------

fn ns2_vegas() -> VegasParams {
    VegasParams {
        variant: VegasVariant::Ns2,
        ..VegasParams::default()
    }
}

#[test]
fn ns2_vegas_retransmits_on_an_early_duplicate_once_the_fine_grained_timer_expires() {
    let (mut s, mut ctx) = sender(Algorithm::Vegas(ns2_vegas()), 8, false);
    // t = 100 ms: segment 0 acknowledged, the first sample (100 ms): v_sa = 0.8, v_sd = 0.1,
    // then the update with the same sample: v_sd = 0.1 + (0 - 0.025) = 0.075, v_timeout =
    // (0.8 / 4 + 0.075) / 2 = 0.1375, plus a sixteenth: 0.14609375 s. The first round ends
    // here with delta 0 in slow start: the next round holds, so the window stays at 8 and
    // the ACK releases one new segment (8).
    ctx.now = SimTime::ZERO + Dur::from_millis(100);
    s.on_packet(&ack(1), &mut ctx);
    assert_eq!(s.cwnd(), 8 * MSS);
    assert_eq!(seqs(&ctx.drain()), vec![(8, false)]);
    // A duplicate at 140 ms: segment 1 (sent at 0) is 140 ms old, below v_timeout: nothing.
    ctx.now = SimTime::ZERO + Dur::from_millis(140);
    s.on_packet(&ack(1), &mut ctx);
    assert!(ctx.drain().is_empty());
    // The second duplicate at 150 ms: 150 ms >= 146.1 ms, so segment 1 goes at once (Reno
    // would wait for a third), and the window of 8 loses a quarter (6) and is inflated by
    // the two duplicates: 8.
    ctx.now = SimTime::ZERO + Dur::from_millis(150);
    s.on_packet(&ack(1), &mut ctx);
    assert_eq!(seqs(&ctx.drain()), vec![(1, true)]);
    assert_eq!(s.cwnd(), 8 * MSS);
    // The next duplicate inflates by one (dupacks is now past three): 9, which leaves room
    // for one new segment beside the 8 outstanding.
    ctx.now = SimTime::ZERO + Dur::from_millis(160);
    s.on_packet(&ack(1), &mut ctx);
    assert_eq!(s.cwnd(), 9 * MSS);
    assert_eq!(seqs(&ctx.drain()), vec![(9, false)]);
    // 250 ms: a partial ACK (segment 2 lost too). The window deflates to the reduced 6 and
    // ssthresh becomes 2 segments; Reno-style, the partial ACK alone retransmits nothing,
    // but the first ACK after the retransmission checks the next segment against the
    // fine-grained timer (backed off by an eighth at the retransmission: 164.4 ms), and
    // segment 2, sent at 0, has outlived it: it goes without a second reduction.
    ctx.now = SimTime::ZERO + Dur::from_millis(250);
    s.on_packet(&ack(2), &mut ctx);
    assert_eq!(s.cwnd(), 6 * MSS);
    assert_eq!(s.ssthresh(), 2 * MSS);
    let sent = seqs(&ctx.drain());
    assert_eq!(sent.first(), Some(&(2, true)), "{sent:?}");
    assert!(sent[1..].iter().all(|&(_, retx)| !retx), "{sent:?}");
    // Duplicates after that retransmission inflate again (dupacks was set to three), and the
    // next ACK of new data deflates to the reduced window whatever the state: 6 segments
    // (the round that ends there, RTT 100 ms over 2 segments sent, gives delta 0 and a
    // growth of 1/cwnd that waits while the window exceeds what is in flight by 2).
    for (ms, cwnd) in [(260, 7), (270, 8)] {
        ctx.now = SimTime::ZERO + Dur::from_millis(ms);
        s.on_packet(&ack(2), &mut ctx);
        assert_eq!(s.cwnd(), cwnd * MSS, "at {ms} ms");
    }
    ctx.now = SimTime::ZERO + Dur::from_millis(350);
    s.on_packet(&ack(10), &mut ctx);
    assert_eq!(s.cwnd(), 6 * MSS);
}

#[test]
fn ns2_vegas_measures_base_rtt_afresh_in_a_round_with_one_segment_in_transit() {
    let window = Window {
        cwnd: 4 * MSS,
        ssthresh: 2 * MSS,
        mss: MSS,
        flight: 4 * MSS,
        cwnd_limited: true,
    };
    let event = |ms: u64, una: u64, nxt: u64| AckEvent {
        now: (SimTime::ZERO + Dur::from_millis(ms)),
        acked_segments: 1,
        snd_una: una,
        snd_nxt: nxt,
    };
    for (next, expected_base_ms) in [(5, 74.5), (6, 50.0)] {
        let mut v = VegasNs2::new(ns2_vegas());
        let mut w = window;
        // Round 1 ends on the first ACK (50 ms): BaseRTT 50 ms; the next round begins at 4.
        v.on_rtt(Dur::from_millis(50), SimTime::ZERO + Dur::from_millis(50));
        v.on_ack(&mut w, &event(50, 1, 4));
        // Two more samples of 99 ms; ns-2 folds each ACK's sample in after the round's
        // decision, so the round that ends at the second holds 50 and 99 ms: mean 74.5 ms.
        v.on_rtt(Dur::from_millis(99), SimTime::ZERO + Dur::from_millis(149));
        v.on_ack(&mut w, &event(149, 2, 4));
        v.on_rtt(Dur::from_millis(99), SimTime::ZERO + Dur::from_millis(248));
        v.on_ack(&mut w, &event(248, 5, next));
        // With one segment sent in the round (t_seqno_ - v_begseq_ = 1) BaseRTT becomes the
        // round's RTT although it is larger; with two, it stays the minimum.
        let base = v.base_rtt().unwrap().0 as f64 / 1e6;
        assert!(
            (base - expected_base_ms).abs() < 1e-6,
            "{base} ms with snd_nxt {next}"
        );
    }
}

#[test]
fn ns2_vegas_times_out_to_two_segments_and_half_the_window() {
    let (mut s, mut ctx) = sender(Algorithm::Vegas(ns2_vegas()), 8, false);
    ctx.now = SimTime::ZERO + Dur::from_secs(4);
    s.on_timer(TimerSlot(0), &mut ctx);
    // ns-2: slowdown(CLOSE_SSTHRESH_HALF) then cwnd_ = v_slowstart_ = 2.
    assert_eq!(s.ssthresh(), 4 * MSS);
    assert_eq!(s.cwnd(), 2 * MSS);
    assert_eq!(seqs(&ctx.drain()), vec![(0, true), (1, true)]);
}

/// A sender with RFC 3042's limited transmit on (or off), `w` segments outstanding and a
/// receiver window of `max_window` segments.
fn limited_sender(algorithm: Algorithm, w: u64, on: bool, max_window: u64) -> (TcpSender, MockCtx) {
    started(TcpConfig {
        initial_window: u32::try_from(w).unwrap(),
        algorithm,
        recovery_policy: RecoveryPolicy::Rfc6675,
        limited_transmit: on,
        max_window,
        ..TcpConfig::default()
    })
}

#[test]
fn limited_transmit_sends_a_new_segment_on_each_of_the_first_two_duplicates() {
    // RFC 3042 section 2: 4 segments outstanding, cwnd 4: the first two duplicate ACKs each
    // release one new segment (outstanding 5, then 6 = cwnd + 2), cwnd unchanged; the third
    // is the fast retransmit, whose ssthresh leaves the two out of FlightSize (RFC 5681 3.2
    // step 2): max(4 / 2, 2) = 2 segments, not 3.
    for algorithm in [Algorithm::NewReno, Algorithm::Sack] {
        let (mut s, mut ctx) = limited_sender(algorithm, 4, true, u64::MAX / 4);
        s.on_packet(&ack(0), &mut ctx);
        assert_eq!(seqs(&ctx.drain()), vec![(4, false)]);
        s.on_packet(&ack(0), &mut ctx);
        assert_eq!(seqs(&ctx.drain()), vec![(5, false)]);
        assert_eq!(s.cwnd(), 4 * MSS);
        s.on_packet(&ack(0), &mut ctx);
        assert_eq!(seqs(&ctx.drain())[0], (0, true));
        assert_eq!(s.ssthresh(), 2 * MSS, "{algorithm:?}");
    }
}

#[test]
fn limited_transmit_is_off_by_default_and_bounded_by_the_receiver_window() {
    // Off (RFC 5681 alone): nothing on the first two duplicates.
    let (mut s, mut ctx) = limited_sender(Algorithm::NewReno, 4, false, u64::MAX / 4);
    s.on_packet(&ack(0), &mut ctx);
    s.on_packet(&ack(0), &mut ctx);
    assert!(ctx.drain().is_empty());
    // On, with a receiver window of 5 segments: the first duplicate fills it, the second
    // sends nothing (RFC 3042: "the receiver's advertised window allows").
    let (mut s, mut ctx) = limited_sender(Algorithm::NewReno, 4, true, 5);
    s.on_packet(&ack(0), &mut ctx);
    assert_eq!(seqs(&ctx.drain()), vec![(4, false)]);
    s.on_packet(&ack(0), &mut ctx);
    assert!(ctx.drain().is_empty());
}

/// A SACK sender recovering as RFC 6675 writes it, with `w` segments outstanding and the
/// options `cfg` sets.
fn sack_sender_with(w: u64, cfg: TcpConfig) -> (TcpSender, MockCtx) {
    started(TcpConfig {
        initial_window: u32::try_from(w).unwrap(),
        algorithm: Algorithm::Sack,
        recovery_policy: RecoveryPolicy::Rfc6675,
        ..cfg
    })
}

#[test]
fn prr_spreads_the_halving_over_the_round_trip_above_ssthresh() {
    // RFC 9937 section 6, worked by hand: 20 segments outstanding, segment 0 lost, each
    // duplicate ACK SACKs one more (1..k). ssthresh = FlightSize / 2 = 10, RecoverFS = 20.
    let (mut s, mut ctx) = sack_sender_with(
        20,
        TcpConfig {
            prr: true,
            ..TcpConfig::default()
        },
    );
    let mut sent_per_ack = Vec::new();
    for k in 1..20 {
        s.on_packet(&ack_with(0, false, &[(1, k + 1)]), &mut ctx);
        sent_per_ack.push(seqs(&ctx.drain()));
    }
    assert_eq!(s.ssthresh(), 10 * MSS);
    // k = 3 starts recovery: pipe 20 - 3 SACKed - 1 lost = 16 > 10, prr_delivered 1,
    // ceil(1 x 10 / 20) - 0 = 1: the fast retransmit alone. Then, while pipe > ssthresh,
    // ceil(prr_delivered x 10 / 20) - prr_out: one new segment every second ACK. From
    // k = 15 pipe is at ssthresh and the reduction bound holds it there: at k = 15,
    // min(ssthresh - pipe, ...) = 0, then one segment per ACK.
    let expected: Vec<Vec<(u64, bool)>> = vec![
        vec![],
        vec![],
        vec![(0, true)],
        vec![],
        vec![(20, false)],
        vec![],
        vec![(21, false)],
        vec![],
        vec![(22, false)],
        vec![],
        vec![(23, false)],
        vec![],
        vec![(24, false)],
        vec![],
        vec![],
        vec![(25, false)],
        vec![(26, false)],
        vec![(27, false)],
        vec![(28, false)],
    ];
    assert_eq!(sent_per_ack, expected);
    // The ACK of the retransmission passes RecoveryPoint: cwnd = ssthresh.
    s.on_packet(&ack(20), &mut ctx);
    assert_eq!(s.state(), CaState::Open);
    assert_eq!(s.cwnd(), 10 * MSS);
}

#[test]
fn rfc6675_without_prr_sends_nothing_until_the_pipe_falls_below_ssthresh() {
    // The same ACKs without PRR: cwnd = ssthresh = 10 at once, so nothing new leaves until
    // pipe < 10 (k = 11: pipe 20 - 11 SACKed - 1 lost + 1 retransmitted = 9), half a round
    // trip of silence, then one segment per ACK.
    let (mut s, mut ctx) = sack_sender_with(20, TcpConfig::default());
    let mut sent_per_ack = Vec::new();
    for k in 1..20 {
        s.on_packet(&ack_with(0, false, &[(1, k + 1)]), &mut ctx);
        sent_per_ack.push(ctx.drain().len());
    }
    assert_eq!(
        sent_per_ack,
        vec![0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    );
}

#[test]
fn prr_rebuilds_a_collapsed_pipe_by_the_slow_start_reduction_bound() {
    // RFC 9937 section 6, pipe <= ssthresh: of 10 segments 0..6 are lost and 7, 8, 9
    // SACKed. ssthresh = 5. At the third duplicate pipe = 10 - 3 - 7 = 0, DeliveredData 1:
    // sndcnt = min(ssthresh - pipe, max(prr_delivered - prr_out, DeliveredData)) = 1: only
    // the fast retransmit (RFC 6675 alone would send five at once).
    let (mut s, mut ctx) = sack_sender_with(
        10,
        TcpConfig {
            prr: true,
            ..TcpConfig::default()
        },
    );
    for k in 8..=10 {
        s.on_packet(&ack_with(0, false, &[(7, k)]), &mut ctx);
    }
    assert_eq!(seqs(&ctx.drain()), vec![(0, true)]);
    // Its ACK advances the ACK point and marks nothing new lost (a safe ACK): PRR-SSRB,
    // max(2 - 1, 1) + 1 = 2 retransmissions.
    s.on_packet(&ack_with(1, false, &[(7, 10)]), &mut ctx);
    assert_eq!(seqs(&ctx.drain()), vec![(1, true), (2, true)]);
    // Again: prr_delivered 3, prr_out 3, max(0, 1) + 1 = 2, pipe 1 (segment 2 in flight).
    s.on_packet(&ack_with(2, false, &[(7, 10)]), &mut ctx);
    assert_eq!(seqs(&ctx.drain()), vec![(3, true), (4, true)]);
    assert_eq!(s.cwnd(), 3 * MSS);
}

#[test]
fn rescue_retransmission_resends_the_highest_unsacked_segment_once() {
    // RFC 6675 NextSeg rule 4: a 10-segment transfer loses 0 and the last one, 9; SACKs
    // cover 1..8. Rule 1 has only 0 (9 has nothing SACKed above it), rule 2 no new data,
    // rule 3 nothing below the highest SACK; with the option, 9 goes once as a rescue.
    for rescue in [false, true] {
        let (mut s, mut ctx) = sack_sender_with(
            10,
            TcpConfig {
                size: Some(10 * MSS),
                rescue_retransmission: rescue,
                ..TcpConfig::default()
            },
        );
        let mut sent = Vec::new();
        for k in 2..=9 {
            s.on_packet(&ack_with(0, false, &[(1, k)]), &mut ctx);
            sent.extend(seqs(&ctx.drain()));
        }
        // cwnd = ssthresh = 5; the pipe at the last ACK: 10 - 8 SACKed - 1 lost + 1
        // retransmitted = 2, so the window has room.
        let expected = if rescue {
            vec![(0, true), (9, true)]
        } else {
            vec![(0, true)]
        };
        assert_eq!(sent, expected, "rescue_retransmission = {rescue}");
    }
}

fn at(ms: u64) -> SimTime {
    SimTime::ZERO + Dur::from_millis(ms)
}

/// A SACK sender with RACK (and the tail loss probe if `tlp`), `w` segments of a
/// `size`-segment transfer sent at t = 0.
fn rack_sender(w: u64, size: Option<u64>, tlp: bool) -> (TcpSender, MockCtx) {
    sack_sender_with(
        w,
        TcpConfig {
            rack: true,
            tlp,
            size: size.map(|n| n * MSS),
            ..TcpConfig::default()
        },
    )
}

#[test]
fn rack_marks_a_segment_lost_by_time_not_by_count() {
    // RFC 8985 section 6.2, by hand: 0..9 sent at 0 ms; at 100 ms one SACK for segment 1
    // arrives (RTT 100 ms). DupThresh would need three SACKed segments above 0; RACK waits
    // RACK.rtt + reo_wnd = 100 + min_RTT / 4 = 125 ms from 0's send time, and its
    // reordering timer fires then.
    let (mut s, mut ctx) = rack_sender(10, None, false);
    ctx.now = at(100);
    s.on_packet(&ack_with(0, false, &[(1, 2)]), &mut ctx);
    assert!(ctx.drain().is_empty());
    assert_eq!(s.state(), CaState::Open);
    let reo = ctx.timers[2].expect("reordering timer armed");
    assert_eq!(reo, at(125));
    ctx.now = reo;
    s.on_timer(TimerSlot(2), &mut ctx);
    assert_eq!(s.state(), CaState::Recovery);
    assert_eq!(seqs(&ctx.drain()), vec![(0, true)]);
    assert_eq!(s.ssthresh(), 5 * MSS);
}

#[test]
fn rack_waits_out_reordering_within_its_window() {
    // The same first SACK, then segment 0 arrives 10 ms late (reordered, not lost): the
    // cumulative ACK covers it before the timer, and nothing is retransmitted.
    let (mut s, mut ctx) = rack_sender(10, None, false);
    ctx.now = at(100);
    s.on_packet(&ack_with(0, false, &[(1, 2)]), &mut ctx);
    ctx.now = at(110);
    s.on_packet(&ack_with(2, false, &[]), &mut ctx);
    let sent = seqs(&ctx.drain());
    assert!(sent.iter().all(|&(_, retx)| !retx), "{sent:?}");
    assert_eq!(s.state(), CaState::Open);
    // Three SACKed segments above a hole with no reordering seen before would close the
    // window (reo_wnd = 0): here reordering was seen, so 25 ms still applies.
    ctx.now = at(111);
    s.on_packet(&ack_with(2, false, &[(3, 6)]), &mut ctx);
    assert_eq!(
        s.state(),
        CaState::Open,
        "segment 2 still within its window"
    );
}

#[test]
fn a_tail_loss_probe_repairs_the_last_segments_without_a_timeout() {
    // RFC 8985 section 7, by hand: a 10-segment transfer, 8 and 9 lost. The ACKs of 0..7
    // arrive at 100 ms (SRTT 100 ms); no duplicate ACK follows, so RFC 6675 would wait for
    // the retransmission timer. The probe timeout is 2 SRTT = 200 ms: at 300 ms the
    // highest segment, 9, is sent again as a probe.
    let (mut s, mut ctx) = rack_sender(10, Some(10), true);
    ctx.now = at(100);
    for n in 1..=8 {
        s.on_packet(&ack(n), &mut ctx);
    }
    assert!(ctx.drain().is_empty());
    let pto = ctx.timers[3].expect("probe timer armed");
    assert_eq!(pto, at(300));
    assert!(ctx.timers[0].expect("rto armed") > pto);
    ctx.now = pto;
    s.on_timer(TimerSlot(3), &mut ctx);
    assert_eq!(seqs(&ctx.drain()), vec![(9, true)]);
    assert_eq!(s.loss_probes(), 1);
    // The probe's ACK SACKs 9: 8 was sent before the probe, and is due at its send time
    // plus RACK.rtt (the probe's, 100 ms) plus reo_wnd (25 ms), long past: RACK marks it
    // lost and fast recovery retransmits it at once.
    ctx.now = at(400);
    s.on_packet(&ack_with(8, false, &[(9, 10)]), &mut ctx);
    assert_eq!(seqs(&ctx.drain()), vec![(8, true)]);
    assert_eq!(s.state(), CaState::Recovery);
    ctx.now = at(500);
    s.on_packet(&ack(10), &mut ctx);
    assert!(s.completed_at().is_some());
    assert_eq!(s.stats().timeouts, 0);
}

#[test]
fn without_the_probe_the_same_tail_loss_waits_for_the_timeout() {
    let (mut s, mut ctx) = rack_sender(10, Some(10), false);
    ctx.now = at(100);
    for n in 1..=8 {
        s.on_packet(&ack(n), &mut ctx);
    }
    assert_eq!(ctx.timers[3], None);
    let rto = ctx.timers[0].expect("rto armed");
    ctx.now = rto;
    s.on_timer(TimerSlot(0), &mut ctx);
    assert_eq!(s.stats().timeouts, 1);
}

#[test]
fn the_receiver_reports_a_duplicate_segment_as_a_dsack_block_once() {
    // RFC 2883 section 4.1.1: a segment below the ACK point arriving again is reported as
    // the first block of the next ACK, and not repeated after.
    let mut sink = TcpSink::new(None).with_sack(true).with_dsack(true);
    let mut ctx = MockCtx::new();
    for seq in 0..3 {
        sink.on_packet(&data(seq, Ecn::NotEct, false), &mut ctx);
    }
    ctx.drain();
    sink.on_packet(&data(1, Ecn::NotEct, false), &mut ctx);
    let blocks = |p: &Packet<Hdr>| match &p.header {
        Hdr::TcpAck { ack, opts, .. } => (
            *ack,
            AckOptions::sack_of(opts.as_deref()).map(<[_]>::to_vec),
        ),
        h => panic!("{h:?}"),
    };
    let acks = ctx.drain();
    assert_eq!(
        blocks(&acks[0]),
        (3, Some(vec![SackBlock { start: 1, end: 2 }]))
    );
    assert_eq!(acks[0].size, 40 + 12, "2 + 8 option bytes padded to 12");
    sink.on_packet(&data(3, Ecn::NotEct, false), &mut ctx);
    assert_eq!(blocks(&ctx.drain()[0]), (4, None));
}

fn syn_ack() -> Packet<Hdr> {
    Packet {
        src: PEER,
        dst: Addr::default(),
        flow: FlowId(0),
        size: 52,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::TcpSyn {
            ack: true,
            accecn: false,
        },
    }
}

fn handshake_sender() -> (TcpSender, MockCtx) {
    let cfg = TcpConfig {
        initial_window: 4,
        handshake: true,
        ..TcpConfig::default()
    };
    let mut s = TcpSender::new(FlowId(0), PEER, &cfg);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    (s, ctx)
}

#[test]
fn the_handshake_sends_data_one_round_trip_after_the_syn() {
    // RFC 9293 section 3.5: SYN, SYN-ACK, then data; the SYN (12 bytes of options, not
    // ECN-capable) carries no data, and its round trip is the first RTT sample (RFC 6298
    // section 2.2).
    let (mut s, mut ctx) = handshake_sender();
    let out = ctx.drain();
    assert_eq!(out.len(), 1);
    assert_eq!(
        out[0].header,
        Hdr::TcpSyn {
            ack: false,
            accecn: false
        }
    );
    assert_eq!((out[0].size, out[0].ecn), (52, Ecn::NotEct));
    assert_eq!(
        ctx.timers[0],
        Some(at(1000)),
        "the initial RTO guards the SYN"
    );
    // An ACK before the SYN-ACK means nothing.
    s.on_packet(&ack(1), &mut ctx);
    assert!(ctx.drain().is_empty());
    ctx.now = at(100);
    s.on_packet(&syn_ack(), &mut ctx);
    assert_eq!(
        seqs(&ctx.drain()),
        vec![(0, false), (1, false), (2, false), (3, false)]
    );
    assert_eq!(s.rtt().srtt(), Some(Dur::from_millis(100)));
    // A duplicate SYN-ACK changes nothing.
    s.on_packet(&syn_ack(), &mut ctx);
    assert!(ctx.drain().is_empty());
}

#[test]
fn a_lost_syn_is_sent_again_with_the_timer_backed_off_then_one_segment_and_no_rtt_sample() {
    let (mut s, mut ctx) = handshake_sender();
    ctx.drain();
    ctx.now = at(1000);
    s.on_timer(TimerSlot(0), &mut ctx);
    assert_eq!(
        ctx.drain()[0].header,
        Hdr::TcpSyn {
            ack: false,
            accecn: false
        }
    );
    assert_eq!(ctx.timers[0], Some(at(3000)), "RFC 6298 5.5: 1 s doubled");
    ctx.now = at(1100);
    s.on_packet(&syn_ack(), &mut ctx);
    // RFC 5681 section 3.1: after a lost SYN the initial window is one segment.
    assert_eq!(seqs(&ctx.drain()), vec![(0, false)]);
    // Karn: the SYN-ACK may answer either SYN, so no sample.
    assert_eq!(s.rtt().srtt(), None);
    assert_eq!(s.stats().timeouts, 1);
}

#[test]
fn the_receiver_answers_every_syn_with_a_syn_ack() {
    let mut sink = TcpSink::new(None).with_sack(true);
    let mut ctx = MockCtx::new();
    let syn = Packet {
        src: Addr { node: 0, agent: 0 },
        dst: PEER,
        flow: FlowId(0),
        size: 52,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::TcpSyn {
            ack: false,
            accecn: false,
        },
    };
    for _ in 0..2 {
        sink.on_packet(&syn, &mut ctx);
        let out = ctx.drain();
        assert_eq!(out.len(), 1);
        assert_eq!(
            out[0].header,
            Hdr::TcpSyn {
                ack: true,
                accecn: false
            }
        );
        assert_eq!((out[0].dst, out[0].size), (syn.src, 52));
    }
    assert_eq!(sink.stats().data_packets_received, 0);
}

#[test]
fn timestamps_add_12_bytes_and_give_an_rtt_sample_on_every_ack() {
    // RFC 7323: with timestamps every ACK of new data echoes the send time of the segment it
    // starts with, so the timer is fed per ACK (Linux's estimator: srtt = 7/8 srtt + 1/8 m):
    // samples of 100 and 110 ms give 101.25 ms. Without, one segment is timed per round
    // trip (RFC 6298 section 3) and the second ACK gives no sample.
    for timestamps in [true, false] {
        let cfg = TcpConfig {
            packet_size: 1052,
            initial_window: 4,
            timestamps,
            ..TcpConfig::default()
        };
        let mut s = TcpSender::new(FlowId(0), PEER, &cfg);
        let mut ctx = MockCtx::new();
        s.on_start(&mut ctx);
        let sizes: Vec<u32> = ctx.drain().iter().map(|p| p.size).collect();
        let header = if timestamps { 52 } else { 40 };
        assert_eq!(sizes, vec![1052; 4]);
        ctx.now = at(100);
        s.on_packet(&ack(1), &mut ctx);
        ctx.now = at(110);
        s.on_packet(&ack(2), &mut ctx);
        let srtt = s.rtt().srtt().unwrap();
        if timestamps {
            assert_eq!(srtt, Dur::from_micros(101_250));
        } else {
            assert_eq!(srtt, Dur::from_millis(100));
        }
        // The payload is what the header leaves: 1000 or 1012 bytes.
        let first = ctx.drain();
        match first[0].header {
            Hdr::TcpData { payload, .. } => assert_eq!(payload, 1052 - header),
            ref h => panic!("{h:?}"),
        }
    }
}

#[test]
fn a_receiver_with_timestamps_adds_12_bytes_to_every_ack() {
    let mut sink = TcpSink::new(None).with_sack(true).with_timestamps(true);
    let mut ctx = MockCtx::new();
    sink.on_packet(&data(0, Ecn::NotEct, false), &mut ctx);
    sink.on_packet(&data(2, Ecn::NotEct, false), &mut ctx);
    let sizes: Vec<u32> = ctx.drain().iter().map(|p| p.size).collect();
    // 40 + 12; then 40 + 12 + one SACK block (2 + 8, padded to 12).
    assert_eq!(sizes, vec![52, 64]);
}

#[test]
fn an_ack_over_sacked_data_grows_the_window_by_what_it_newly_delivers() {
    // Linux `tcp_cong_avoid(sk, ack, acked_sacked)`: after a timeout, slow start from one
    // segment; the retransmission of hole 0 is acknowledged together with 1..19, SACKed
    // before. Only segment 0 is newly delivered: CUBIC's slow start adds one segment, not 20.
    let (mut s, mut ctx) = started(TcpConfig {
        initial_window: 20,
        algorithm: Algorithm::Cubic(super::CubicParams::default()),
        hystart: super::HyStartKind::Off,
        ..TcpConfig::default()
    });
    s.on_packet(&ack_with(0, false, &[(1, 20)]), &mut ctx);
    ctx.drain();
    let rto = ctx.timers[0].expect("rto armed");
    ctx.now = rto;
    s.on_timer(TimerSlot(0), &mut ctx);
    assert_eq!(s.state(), CaState::Loss);
    let cwnd = s.cwnd();
    assert_eq!(cwnd, MSS);
    ctx.now = rto + Dur::from_millis(50);
    s.on_packet(&ack(20), &mut ctx);
    assert_eq!(
        s.cwnd(),
        2 * MSS,
        "one segment newly delivered, one segment of growth"
    );
}

#[test]
fn the_linux_policy_lets_a_sacked_segment_free_window_before_recovery() {
    // Linux `tcp_cwnd_test`: in flight = packets_out - (sacked_out + lost_out) + retrans_out
    // in every state. 10 segments out, cwnd 10: each of the first two duplicate ACKs SACKs
    // one segment, so one new segment leaves on each (RFC 5681 counts FlightSize and sends
    // nothing without limited transmit).
    for (policy, expected) in [
        (
            RecoveryPolicy::Linux,
            vec![vec![(10, false)], vec![(11, false)]],
        ),
        (RecoveryPolicy::Rfc6675, vec![vec![], vec![]]),
    ] {
        let (mut s, mut ctx) = sender_with(Algorithm::Sack, 10, false, policy);
        let mut sent = Vec::new();
        for k in 2..=3 {
            s.on_packet(&ack_with(0, false, &[(1, k)]), &mut ctx);
            sent.push(seqs(&ctx.drain()));
        }
        assert_eq!(sent, expected, "{policy:?}");
        assert_eq!(s.state(), CaState::Open);
    }
}

#[test]
fn under_the_linux_policy_a_timeout_in_recovery_keeps_the_reduced_ssthresh() {
    // Linux `tcp_enter_loss`: ssthresh is recomputed only if it was not already reduced in
    // this window. Recovery from 10 segments sets ssthresh = 5; the timeout that follows
    // inside the same window keeps 5. The other policies take it again from the pipe at the
    // timeout (7 segments: 6 unSACKed and not lost, plus the retransmission), 3.5.
    for (policy, after) in [
        (RecoveryPolicy::Linux, 5 * MSS),
        (RecoveryPolicy::Rfc6675, 7 * MSS / 2),
    ] {
        let (mut s, mut ctx) = sender_with(Algorithm::Sack, 10, false, policy);
        for k in 2..=4 {
            s.on_packet(&ack_with(0, false, &[(1, k)]), &mut ctx);
        }
        assert_eq!(s.state(), CaState::Recovery);
        assert_eq!(s.ssthresh(), 5 * MSS, "{policy:?}");
        ctx.now = ctx.timers[0].expect("rto armed");
        s.on_timer(TimerSlot(0), &mut ctx);
        assert_eq!(s.state(), CaState::Loss);
        assert_eq!(s.ssthresh(), after, "{policy:?}");
    }
}

#[test]
fn a_one_segment_tail_is_probed_before_the_timeout_fires() {
    // RFC 8985 7.2: with one segment outstanding PTO = 2 SRTT + 200 ms, but never after the
    // retransmission timer: the probe goes 1 ns before it, and no timeout follows.
    let (mut s, mut ctx) = rack_sender(10, Some(10), true);
    ctx.now = at(100);
    for n in 1..=9 {
        s.on_packet(&ack(n), &mut ctx);
    }
    let (pto, rto) = (ctx.timers[3].expect("probe"), ctx.timers[0].expect("rto"));
    assert!(
        pto < rto && pto <= at(100) + Dur::from_millis(400),
        "{pto:?} {rto:?}"
    );
    ctx.now = pto;
    s.on_timer(TimerSlot(3), &mut ctx);
    assert_eq!(seqs(&ctx.drain()), vec![(9, true)]);
    assert_eq!(s.stats().timeouts, 0);
    assert!(ctx.timers[0].expect("rto re-armed") > pto);
}

/// AccECN's receiver (draft-ietf-tcpm-accurate-ecn section 3.2): the ACE field of every ACK
/// is the count of CE-marked packets (from 5) modulo 8; a CE packet after a non-CE one is
/// acknowledged at once, and so is every second CE mark since the last ACK; other packets
/// follow the delayed-ACK rule.
#[test]
fn accecn_sink_counts_ce_marks_in_the_ace_field() {
    let mut sink = TcpSink::new(Some(Dur::from_millis(200))).with_accecn(true);
    let mut ctx = MockCtx::new();
    let aces = |ctx: &mut MockCtx| -> Vec<Option<u8>> {
        ctx.drain()
            .iter()
            .map(|p| match p.header {
                Hdr::TcpAck { ace, ece, .. } => {
                    assert!(!ece, "AccECN ACKs carry the count, not RFC 3168's ECE");
                    ace
                }
                _ => None,
            })
            .collect()
    };
    sink.on_packet(&data(0, Ecn::Ect1, false), &mut ctx);
    sink.on_packet(&data(1, Ecn::Ect1, false), &mut ctx);
    assert_eq!(aces(&mut ctx), vec![Some(5)]);
    // A change to CE: an ACK at once, counting it.
    sink.on_packet(&data(2, Ecn::Ce, false), &mut ctx);
    assert_eq!(aces(&mut ctx), vec![Some(6)]);
    // Two more marks: the second since the last ACK triggers one.
    sink.on_packet(&data(3, Ecn::Ce, false), &mut ctx);
    assert_eq!(aces(&mut ctx), vec![]);
    sink.on_packet(&data(4, Ecn::Ce, false), &mut ctx);
    assert_eq!(aces(&mut ctx), vec![Some(0)], "8 mod 8");
    sink.on_packet(&data(5, Ecn::Ect1, false), &mut ctx);
    sink.on_packet(&data(6, Ecn::Ect1, false), &mut ctx);
    assert_eq!(aces(&mut ctx), vec![Some(0)]);
}

/// An AccECN sender reads the marks from the ACE field: a Prague flow's CE count drives its
/// alpha, and the sender sets no CWR (the count replaces RFC 3168's latch).
#[test]
fn accecn_sender_reads_the_count_and_sends_no_cwr() {
    let cfg = TcpConfig {
        algorithm: Algorithm::Prague(crate::tcp::cc::PragueParams::default()),
        initial_window: 10,
        ..TcpConfig::default()
    };
    let mut s = TcpSender::new(FlowId(0), PEER, &cfg);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    let sent = ctx.drain();
    assert_eq!(sent.len(), 10);
    assert!(
        sent.iter().all(|p| p.ecn == Ecn::Ect1),
        "Prague's data is ECT(1)"
    );
    let ace_ack = |n: u64, ace: u8| Packet {
        header: Hdr::TcpAck {
            ack: n,
            ece: false,
            opts: None,
            ace: Some(ace),
        },
        ..ack(n)
    };
    ctx.now = SimTime::ZERO + Dur::from_millis(20);
    // Two segments acknowledged, both marked (ACE 5 -> 7): the CWR state and, alpha being 1
    // before any mark, half the window; with no unmarked segment to grow by, the window steps
    // down one segment toward it and slow start ends. No CWR flag on what follows.
    s.on_packet(&ace_ack(2, 7), &mut ctx);
    assert_eq!(s.state(), CaState::Cwr);
    let crate::tcp::cc::AnyCc::Prague(p) = s.controller() else {
        panic!("Prague")
    };
    assert_eq!(p.frac_cwnd(), 5.0);
    assert_eq!((s.cwnd(), s.ssthresh()), (9 * 960, 9 * 960));
    ctx.now = SimTime::ZERO + Dur::from_millis(21);
    s.on_packet(&ace_ack(4, 6), &mut ctx);
    let out = ctx.drain();
    assert!(out
        .iter()
        .all(|p| matches!(p.header, Hdr::TcpData { cwr: false, .. })));
}

/// A sender with ns-2.35's fast-retransmit rules (`recovery = "ns2"`) and `w` segments out.
fn ns2_sender(algorithm: Algorithm, w: u64, ns2: bool) -> (TcpSender, MockCtx) {
    started(TcpConfig {
        initial_window: u32::try_from(w).unwrap(),
        algorithm,
        recovery_policy: if ns2 {
            RecoveryPolicy::Ns2
        } else {
            RecoveryPolicy::default()
        },
        ..TcpConfig::default()
    })
}

#[test]
fn ns2_reno_makes_no_second_fast_retransmit_in_the_window_of_the_first() {
    // tcp-reno.cc `dupack_action` with bug_fix_: recover_ = maxseq_ (9) at the fast
    // retransmit; the next one needs highest_ack_ > recover_. Segments 0 and 4 lost of 0..9.
    for ns2 in [false, true] {
        let (mut s, mut ctx) = ns2_sender(Algorithm::Reno, 10, ns2);
        for _ in 0..3 {
            s.on_packet(&ack(0), &mut ctx);
        }
        s.on_packet(&ack(4), &mut ctx); // the partial ACK ends Reno's recovery
        ctx.drain();
        for _ in 0..3 {
            s.on_packet(&ack(4), &mut ctx);
        }
        let retransmitted = seqs(&ctx.drain()).contains(&(4, true));
        // RFC 5681's Reno retransmits 4 at once; ns-2.35's waits for the timer.
        assert_eq!(retransmitted, !ns2, "ns2 = {ns2}");
        assert_eq!(s.in_recovery(), !ns2);
    }
}

#[test]
fn ns2_tahoe_ignores_duplicates_of_its_own_go_back_n() {
    // Tahoe's fast retransmit goes back N over 0..9 although only 0 was lost: the ACK of the
    // retransmission covers 0..9 (10), and the resent segments 1, 2, 3 then arrive again as
    // duplicates of 10. RFC 6582's test (ACK 10 > recover 9) lets them start a fast
    // retransmit; ns-2.35's (`highest_ack_` 9 > `recover_` 9) does not.
    for ns2 in [false, true] {
        let (mut s, mut ctx) = ns2_sender(Algorithm::Tahoe, 10, ns2);
        for _ in 0..3 {
            s.on_packet(&ack(0), &mut ctx);
        }
        s.on_packet(&ack(10), &mut ctx);
        ctx.drain();
        for _ in 0..3 {
            s.on_packet(&ack(10), &mut ctx);
        }
        assert_eq!(
            seqs(&ctx.drain()).contains(&(10, true)),
            !ns2,
            "ns2 = {ns2}"
        );
    }
}

#[test]
fn ns2_fast_retransmit_restarts_the_timer_and_halves_the_window() {
    // reno_action: slowdown(CLOSE_SSTHRESH_HALF) from the window, then reset_rtx_timer.
    for ns2 in [false, true] {
        let (mut s, mut ctx) = ns2_sender(Algorithm::NewReno, 11, ns2);
        let armed = ctx.timers[0].expect("the first segment arms the timer");
        ctx.now = SimTime(500_000_000);
        for _ in 0..3 {
            s.on_packet(&ack(0), &mut ctx);
        }
        // ssthresh: (int) (11 / 2) = 5 segments in ns-2.35; RFC 5681 max(FlightSize / 2, 2):
        // 5.5 segments.
        let expected = if ns2 { 5 * MSS } else { 11 * MSS / 2 };
        assert_eq!(s.ssthresh(), expected, "ns2 = {ns2}");
        let deadline = ctx.timers[0].unwrap();
        if ns2 {
            assert_eq!(deadline, SimTime(500_000_000) + s.rtt().rto());
        } else {
            assert_eq!(deadline, armed);
        }
    }
}

/// The PSH flags of the data segments sent.
fn pushes(sent: &[Packet<Hdr>]) -> Vec<bool> {
    sent.iter()
        .map(|p| match p.header {
            Hdr::TcpData { psh, .. } => psh,
            ref h => panic!("expected data, got {h:?}"),
        })
        .collect()
}

#[test]
fn psh_marks_the_last_segment_of_a_send_of_several_and_of_the_data() {
    // Linux's `__tcp_transmit_skb` (4.9) sets PSH on every send (skb) of more than one
    // segment; `tcp_push` marks the end of the application's write. Before an RTT sample
    // Linux's pacing rate is unlimited, but `tcp_cwnd_test` gives a send half the window at
    // most, so the initial window of ten is two sends of five; in congestion avoidance an
    // ACK of one segment opens one segment, a send without PSH, unless it is the data's last.
    let cfg = TcpConfig {
        initial_window: 10,
        initial_ssthresh: Some(10 * MSS),
        size: Some(12 * MSS),
        ..TcpConfig::default()
    };
    let mut s = TcpSender::new(FlowId(0), PEER, &cfg);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    let half = [false, false, false, false, true];
    assert_eq!(pushes(&ctx.drain()), [half, half].concat());
    ctx.now = SimTime::ZERO + Dur::from_millis(100);
    s.on_packet(&ack(1), &mut ctx);
    assert_eq!(seqs(&ctx.sent), vec![(10, false)]);
    assert_eq!(pushes(&ctx.drain()), vec![false]);
    s.on_packet(&ack(2), &mut ctx);
    assert_eq!(seqs(&ctx.sent), vec![(11, false)]);
    assert_eq!(pushes(&ctx.drain()), vec![true], "the data's last segment");
}

#[test]
fn a_window_opening_leaves_in_sends_of_the_tso_goal() {
    // Slow start at 100 ms SRTT: Linux's pacing rate, 200 % of cwnd / SRTT, is about
    // 200 kB/s, 0.2 kB per ms: below one segment, so the goal is tcp_min_tso_segs, two. An
    // ACK of two segments in slow start opens three: a send of two with PSH on its second,
    // then a send of one without (the kernel capture's ".P." pattern).
    let (mut s, mut ctx) = started(TcpConfig {
        initial_window: 10,
        ..TcpConfig::default()
    });
    ctx.now = SimTime::ZERO + Dur::from_millis(100);
    s.on_packet(&ack(2), &mut ctx);
    assert_eq!(seqs(&ctx.sent), vec![(10, false), (11, false), (12, false)]);
    assert_eq!(pushes(&ctx.drain()), vec![false, true, false]);
}

#[test]
fn a_receiver_with_ack_on_push_acknowledges_a_pushed_segment_at_once() {
    // Linux 6.6's receiver (commit 4720852ed9af): a full-sized segment with PSH is
    // acknowledged as soon as the application has read it, even alone; without the option
    // the same segment waits for a second (RFC 1122 section 4.2.3.2).
    let pushed = |seq: u64, psh: bool| {
        let mut p = data(seq, Ecn::NotEct, false);
        if let Hdr::TcpData {
            psh: ref mut mark, ..
        } = p.header
        {
            *mark = psh;
        }
        p
    };
    let acks = |push: bool| -> Vec<Vec<u64>> {
        let mut sink = TcpSink::new(Some(Dur::from_millis(200))).with_ack_on_push(push);
        let mut ctx = MockCtx::new();
        // Sends of two (PSH on the second), one (none), then two again: Linux's ".P . .P".
        [(0, false), (1, true), (2, false), (3, false), (4, true)]
            .iter()
            .map(|&(seq, psh)| {
                sink.on_packet(&pushed(seq, psh), &mut ctx);
                ctx.drain()
                    .iter()
                    .map(|p| match p.header {
                        Hdr::TcpAck { ack, .. } => ack,
                        ref h => panic!("expected an ACK, got {h:?}"),
                    })
                    .collect()
            })
            .collect()
    };
    // Every second segment: ACKs of 2 and 4; segment 4 waits for its timer.
    assert_eq!(acks(false), vec![vec![], vec![2], vec![], vec![4], vec![]]);
    // PSH too: segment 4, after the second-segment ACK of 2 and 3, is acknowledged alone.
    assert_eq!(acks(true), vec![vec![], vec![2], vec![], vec![4], vec![5]]);
}

#[test]
fn a_window_of_three_segments_or_less_sends_one_segment_at_a_time() {
    // `tcp_cwnd_test`: a send takes at most half the window, at least one segment; with a
    // window of three that is one, so no send carries PSH (none is the data's last here).
    let (s, mut ctx) = (
        TcpSender::new(
            FlowId(0),
            PEER,
            &TcpConfig {
                initial_window: 3,
                ..TcpConfig::default()
            },
        ),
        MockCtx::new(),
    );
    let mut s = s;
    s.on_start(&mut ctx);
    assert_eq!(pushes(&ctx.drain()), vec![false; 3]);
}

#[test]
fn a_pushed_segment_draws_one_ack_whatever_else_calls_for_one() {
    // ack_on_push only adds a reason to acknowledge at once: a segment that RFC 1122's
    // rules or DCTCP's echo already acknowledge at once (the second of two, one out of order,
    // one that fills a gap) draws one ACK, not two.
    let pushed = |seq: u64, ecn: Ecn, psh: bool| {
        let mut p = data(seq, ecn, false);
        if let Hdr::TcpData {
            psh: ref mut mark, ..
        } = p.header
        {
            *mark = psh;
        }
        p
    };
    for ce_echo in [false, true] {
        let mut sink = TcpSink::new(Some(Dur::from_millis(200)))
            .with_ack_on_push(true)
            .with_sack(true)
            .with_ce_echo(ce_echo);
        let mut ctx = MockCtx::new();
        let mut per_segment = Vec::new();
        // 0 alone; 1 with PSH, the second; 3 with PSH above the hole at 2; 2, filling it.
        for seq in [0, 1, 3, 2] {
            sink.on_packet(&pushed(seq, Ecn::Ect, seq % 2 == 1), &mut ctx);
            per_segment.push(ctx.drain().len());
        }
        assert_eq!(per_segment, vec![0, 1, 1, 1], "ce_echo {ce_echo}");
    }
}

#[test]
fn new_data_in_sack_recovery_leaves_in_sends_with_psh() {
    // RFC 6675 recovery without PRR (cwnd = ssthresh = 10 of 20 outstanding, segment 0 lost):
    // from k = 11 SACKed segments one new segment per ACK, a send of one without PSH; an ACK
    // that SACKs three more at once frees three, which leave as one send (Linux's
    // `tcp_write_xmit` in recovery too), PSH on its last.
    let (mut s, mut ctx) = sack_sender_with(20, TcpConfig::default());
    for k in 1..12 {
        s.on_packet(&ack_with(0, false, &[(1, k + 1)]), &mut ctx);
    }
    let sent = ctx.drain();
    assert_eq!(seqs(&sent).last(), Some(&(20, false)));
    assert_eq!(pushes(&sent[sent.len() - 1..]), vec![false]);
    s.on_packet(&ack_with(0, false, &[(1, 15)]), &mut ctx);
    let sent = ctx.drain();
    assert_eq!(seqs(&sent), vec![(21, false), (22, false), (23, false)]);
    assert_eq!(pushes(&sent), vec![false, false, true]);
}
