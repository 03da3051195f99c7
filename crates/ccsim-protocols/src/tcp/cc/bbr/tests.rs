//! BBR's state machine on scripted ACK sequences: the IETF draft's example test cases
//! (draft-ietf-ccwg-bbr, "Example Test Cases": no exit from STARTUP when app-limited, the
//! minimum pipe cwnd of four packets) and the mode sequence of tcp_bbr.c.

use super::*;
use ccsim_core::SimTime;

const MSS: u64 = 1000;

/// The connection at its start.
pub(super) fn conn_at(now: SimTime, srtt: Option<Dur>) -> Conn {
    Conn {
        now,
        state: CaState::Open,
        in_flight: 0,
        delivered: 0,
        delivered_time: now,
        delivered_ce: 0,
        snd_una: 0,
        snd_nxt: 0,
        packet_size: MSS + 40,
        lost: 0,
        srtt,
        min_rtt: None,
        next_release: now,
    }
}

/// A path of `rate` segments per millisecond and `rtt_ms` round trip, acknowledged one round
/// at a time: the sample of each round delivers `per_round` segments over one round trip.
struct Path {
    bbr: Bbr,
    w: Window,
    rng: RngStream,
    now_ms: u64,
    delivered: u64,
    in_flight: u64,
    rtt_ms: u64,
    /// Queueing delay added to the RTT samples, microseconds.
    queue_us: u64,
}

impl Path {
    fn new(rtt_ms: u64) -> Self {
        let mut bbr = Bbr::new();
        let mut w = Window {
            cwnd: 10 * MSS,
            ssthresh: u64::MAX,
            mss: MSS,
            flight: 0,
            cwnd_limited: true,
        };
        bbr.on_init(&mut w, &conn_at(SimTime::ZERO, None));
        Path {
            bbr,
            w,
            rng: RngStream::new(7, "bbr-test"),
            now_ms: 0,
            delivered: 0,
            in_flight: 10,
            rtt_ms,
            queue_us: 0,
        }
    }

    /// One round trip in which `per_round` segments are delivered (the sample spans the
    /// round), with `in_flight` segments outstanding after it and the given app-limited flag.
    fn round(&mut self, per_round: u64, in_flight: u64, app_limited: bool, losses: u64) {
        let prior_delivered = self.delivered;
        self.now_ms += self.rtt_ms;
        self.delivered += per_round;
        let prior_in_flight = self.in_flight;
        self.in_flight = in_flight;
        let now = SimTime(self.now_ms * 1_000_000);
        let rs = RateSample {
            delivered: per_round,
            delivered_ce: 0,
            interval: Some(Dur::from_millis(self.rtt_ms)),
            prior_delivered,
            is_app_limited: app_limited,
            acked_sacked: per_round,
            losses,
            ece_delta: 0,
            lost: 0,
            tx_in_flight: prior_in_flight,
            prior_in_flight,
            rtt: Some(Dur::from_micros(self.rtt_ms * 1000 + self.queue_us)),
        };
        let conn = Conn {
            now,
            state: CaState::Open,
            in_flight,
            delivered: self.delivered,
            delivered_time: now,
            delivered_ce: 0,
            snd_una: self.delivered,
            snd_nxt: self.delivered + in_flight,
            packet_size: MSS + 40,
            lost: 0,
            srtt: Some(Dur::from_millis(self.rtt_ms)),
            min_rtt: Some(Dur::from_millis(self.rtt_ms)),
            next_release: now,
        };
        self.bbr
            .cong_control(&mut self.w, &rs, &conn, &mut self.rng);
    }

    fn cwnd(&self) -> u64 {
        self.w.cwnd / MSS
    }
}

/// STARTUP doubles the delivery rate each round; once the rate stops growing by 25 %, BBR
/// counts three rounds and leaves for DRAIN, then for PROBE_BW once what is in flight falls to
/// one BDP.
#[test]
fn startup_exits_three_rounds_after_the_bandwidth_stops_growing() {
    let mut p = Path::new(100);
    let mut per_round = 10;
    let mut rounds = 0;
    while per_round < 800 {
        p.round(per_round, 2 * per_round, false, 0);
        assert_eq!(p.bbr.mode(), BbrMode::Startup, "round {rounds}");
        per_round *= 2;
        rounds += 1;
    }
    // The bottleneck: 800 segments per round from now on.
    for plateau in 1..=3 {
        p.round(800, 1600, false, 0);
        if plateau < 3 {
            assert_eq!(p.bbr.mode(), BbrMode::Startup, "plateau round {plateau}");
        }
    }
    // The first plateau round still grew by at least 25 % over the last growing round's
    // estimate (640 -> 800), so the three rounds without growth end at the fourth.
    p.round(800, 1600, false, 0);
    assert_eq!(p.bbr.mode(), BbrMode::Drain);
    assert!(p.bbr.full_bw_reached());
    // BDP = 800 segments; DRAIN ends when the flight falls to the target (BDP plus the
    // quantisation budget).
    p.round(800, 1200, false, 0);
    assert_eq!(p.bbr.mode(), BbrMode::Drain);
    p.round(800, 700, false, 0);
    assert_eq!(p.bbr.mode(), BbrMode::ProbeBw);
    // The pacing gain is one of the cycle's.
    // cwnd: twice the BDP, plus the ACK-aggregation allowance (these scripted rounds are
    // acknowledged in one ACK each, so up to a round's 800 segments) and the quantisation
    // budget (a few segments).
    assert_eq!(p.bbr.bdp(p.bbr.max_bw(), UNIT), 800);
    assert!(
        (1600..=1600 + 800 + 32).contains(&p.cwnd()),
        "cwnd {}",
        p.cwnd()
    );
    assert!(PACING_GAIN.contains(&p.bbr.pacing_gain()));
}

/// Draft example "No exit from STARTUP when app-limited": flat samples that are
/// application-limited never count toward the full-pipe estimate.
#[test]
fn no_exit_from_startup_when_app_limited() {
    let mut p = Path::new(50);
    for _ in 0..30 {
        p.round(20, 20, true, 0);
    }
    assert_eq!(p.bbr.mode(), BbrMode::Startup);
    assert!(!p.bbr.full_bw_reached());
    // The same flat samples, not app-limited, end STARTUP within four rounds.
    for _ in 0..4 {
        p.round(20, 20, false, 0);
    }
    assert_ne!(p.bbr.mode(), BbrMode::Startup);
}

/// Draft example "MinPipeCwnd 4 packets": losses never take the window below four packets,
/// and PROBE_RTT holds it at four.
#[test]
fn the_window_never_falls_below_four_packets() {
    let mut p = Path::new(20);
    for k in 0..8 {
        p.round(10 << k.min(4), 20, false, 0);
    }
    // A burst of losses in one ACK.
    p.w.cwnd = 6 * MSS;
    p.round(1, 3, false, 50);
    assert!(p.cwnd() >= CWND_MIN_TARGET, "cwnd {}", p.cwnd());
    // Ten seconds without a lower RTT: PROBE_RTT, window 4.
    p.queue_us = 500;
    let mut saw_probe_rtt = false;
    for _ in 0..600 {
        p.round(160, 160, false, 0);
        if p.bbr.mode() == BbrMode::ProbeRtt {
            saw_probe_rtt = true;
            assert_eq!(p.cwnd(), CWND_MIN_TARGET);
        }
    }
    assert!(saw_probe_rtt);
}

/// PROBE_RTT: entered when min_rtt is ten seconds old, held for 200 ms and a round at four
/// packets in flight, then back to PROBE_BW with the window restored.
#[test]
fn probe_rtt_every_ten_seconds_for_200_ms() {
    let mut p = Path::new(40);
    let mut per_round = 10;
    while p.bbr.mode() != BbrMode::ProbeBw {
        p.round(per_round, per_round, false, 0);
        per_round = (per_round * 2).min(400);
    }
    let cwnd_before = p.cwnd();
    // The last sample at the propagation delay was the round just done; from now on a
    // standing queue keeps every sample above it.
    let last_min_sample = p.now_ms;
    p.queue_us = 500;
    let mut entered = None;
    let mut left = None;
    for _ in 0..400 {
        let in_flight = if p.bbr.mode() == BbrMode::ProbeRtt {
            4
        } else {
            400
        };
        p.round(400, in_flight, false, 0);
        if p.bbr.mode() == BbrMode::ProbeRtt && entered.is_none() {
            entered = Some(p.now_ms);
        }
        if entered.is_some() && left.is_none() && p.bbr.mode() == BbrMode::ProbeBw {
            left = Some(p.now_ms);
            assert!(
                p.cwnd() >= cwnd_before,
                "window restored: {} < {cwnd_before}",
                p.cwnd()
            );
        }
    }
    let entered = entered.expect("PROBE_RTT");
    let left = left.expect("back to PROBE_BW");
    // The filter expires 10 s after the last sample at the minimum (the first round after).
    let expiry = last_min_sample + 10_000;
    assert!(
        (expiry..=expiry + 40).contains(&entered),
        "entered at {entered} ms, min_rtt sampled at {last_min_sample} ms"
    );
    // 200 ms at four packets plus at least one round.
    assert!(
        (entered + 200..=entered + 320).contains(&left),
        "left at {left} ms"
    );
}

/// The pacing rate is the gain times the bandwidth estimate, 1 % below (Linux's margin).
#[test]
fn pacing_rate_is_gain_times_bandwidth_less_one_percent() {
    let mut p = Path::new(10);
    for _ in 0..3 {
        p.round(100, 100, false, 0);
    }
    // 100 segments per 10 ms = 10 000 segments/s = 10 MB/s of 1000-byte segments.
    let bw = p.bbr.bandwidth();
    assert!((bw - 10_000.0).abs() < 1.0, "bw {bw}");
    let expected = 10_000_000.0 * f64::from(p.bbr.pacing_gain()) / 256.0 * 0.99;
    let got = p.bbr.pacing_rate() as f64;
    assert!((got / expected - 1.0).abs() < 1e-3, "{got} vs {expected}");
}
