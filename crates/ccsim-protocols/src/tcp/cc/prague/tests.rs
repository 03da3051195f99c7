//! Prague on scripted ACK sequences: the EWMA against its closed form, the reductions, the
//! additive increase with and without RTT independence, and the classic-ECN detector.

use super::*;
use ccsim_core::{Dur, SimTime};

const MSS: u64 = 1000;

/// A path acknowledged one round at a time: each call delivers `per` segments in one ACK,
/// `ce` of them CE-marked, with `in_flight` outstanding after it.
struct Path {
    prague: Prague,
    w: Window,
    rng: RngStream,
    now_us: u64,
    rtt_us: u64,
    delivered: u64,
    delivered_ce: u64,
    /// RTT samples: base plus this queueing delay.
    queue_us: u64,
    min_rtt_us: u64,
}

impl Path {
    fn new(params: PragueParams, cwnd: u64, rtt_us: u64) -> Self {
        let mut prague = Prague::new(params);
        let mut w = Window {
            cwnd: cwnd * MSS,
            ssthresh: u64::MAX,
            mss: MSS,
            flight: 0,
            cwnd_limited: true,
        };
        let conn = Conn {
            now: SimTime::ZERO,
            state: CaState::Open,
            in_flight: 0,
            delivered: 0,
            delivered_time: SimTime::ZERO,
            delivered_ce: 0,
            snd_una: 0,
            snd_nxt: 0,
            packet_size: MSS + 40,
            lost: 0,
            srtt: Some(Dur::from_micros(rtt_us)),
            min_rtt: None,
            next_release: SimTime::ZERO,
        };
        prague.on_init(&mut w, &conn);
        Path {
            prague,
            w,
            rng: RngStream::new(3, "prague-test"),
            now_us: 0,
            rtt_us,
            delivered: 0,
            delivered_ce: 0,
            queue_us: 0,
            min_rtt_us: rtt_us,
        }
    }

    fn cwnd(&self) -> u64 {
        self.w.cwnd / MSS
    }

    /// One round trip acknowledged by one ACK.
    fn round(&mut self, per: u64, ce: u64) {
        self.now_us += self.rtt_us + self.queue_us;
        self.delivered += per;
        self.delivered_ce += ce;
        let now = SimTime(self.now_us * 1000);
        let rtt = Dur::from_micros(self.rtt_us + self.queue_us);
        let rs = RateSample {
            delivered: per,
            interval: Some(rtt),
            acked_sacked: per,
            ece_delta: ce,
            rtt: Some(rtt),
            ..RateSample::default()
        };
        let conn = Conn {
            now,
            state: CaState::Open,
            in_flight: per,
            delivered: self.delivered,
            delivered_time: now,
            delivered_ce: self.delivered_ce,
            snd_una: self.delivered,
            snd_nxt: self.delivered + per,
            packet_size: MSS + 40,
            lost: 0,
            srtt: Some(rtt),
            min_rtt: Some(Dur::from_micros(self.min_rtt_us)),
            next_release: now,
        };
        self.prague
            .cong_control(&mut self.w, &rs, &conn, &mut self.rng);
    }

    /// Leave slow start at the current window (as the first step down does), and let the
    /// algorithm see the threshold as at a reduction (the detector's gains follow it).
    fn end_slow_start(&mut self) {
        self.w.ssthresh = self.w.cwnd;
        let w = self.w;
        self.prague.ssthresh(&w);
    }
}

/// alpha follows the EWMA alpha' = (1 - 1/16) alpha + F/16 once per round, from 1, once the
/// first mark has been seen.
#[test]
fn alpha_follows_the_ewma_of_the_marked_fraction() {
    let mut p = Path::new(PragueParams::default(), 100, 20_000);
    p.end_slow_start();
    let mut expected = 1.0f64;
    for round in 0..80 {
        p.round(100, 25);
        expected = expected * 15.0 / 16.0 + 0.25 / 16.0;
        let got = p.prague.alpha();
        assert!(
            (got - expected).abs() < 1e-5,
            "round {round}: alpha {got} against {expected}"
        );
    }
    assert!((p.prague.alpha() - 0.25).abs() < 0.01);
}

/// alpha is not updated before the path has shown a mark: a flow that never sees CE keeps
/// alpha = 1, so its first reduction halves the window.
#[test]
fn alpha_waits_for_the_first_mark() {
    let mut p = Path::new(PragueParams::default(), 50, 20_000);
    p.end_slow_start();
    for _ in 0..20 {
        p.round(50, 0);
    }
    assert_eq!(p.prague.alpha(), 1.0);
}

/// Entering CWR takes alpha/2 of the fractional window; a loss (recovery) halves it.
#[test]
fn reductions_take_alpha_over_two_on_cwr_and_half_on_loss() {
    let mut p = Path::new(PragueParams::default(), 100, 20_000);
    p.end_slow_start();
    for _ in 0..60 {
        p.round(100, 20);
    }
    let alpha = p.prague.alpha();
    let before = p.prague.frac_cwnd();
    let mut w = p.w;
    p.prague.on_state(&mut w, CaState::Cwr, 0);
    let after = p.prague.frac_cwnd();
    assert!(
        (after - before * (1.0 - alpha / 2.0)).abs() < 1e-3,
        "{before} -> {after}, alpha {alpha}"
    );
    p.prague.on_state(&mut w, CaState::Open, 0);
    p.prague.on_state(&mut w, CaState::Recovery, 0);
    assert!((p.prague.frac_cwnd() - (after - (after / 2.0).floor_to_unit())).abs() < 1e-5);
    // The window follows the fractional window one segment per ACK.
    let cwnd = p.cwnd();
    p.round(1, 0);
    assert_eq!(p.cwnd(), cwnd - 1);
}

trait FloorToUnit {
    fn floor_to_unit(self) -> f64;
}

impl FloorToUnit for f64 {
    /// The value truncated to Prague's 2^-20 fixed point.
    fn floor_to_unit(self) -> f64 {
        (self * ONE_CWND as f64).floor() / ONE_CWND as f64
    }
}

/// Out of slow start and before RTT independence (the first 500 rounds), the window grows by
/// one segment per round of unmarked ACKs, as Reno's additive increase.
#[test]
fn additive_increase_is_one_segment_per_round() {
    let mut p = Path::new(PragueParams::default(), 40, 5_000);
    p.end_slow_start();
    let start = p.prague.frac_cwnd();
    for _ in 0..20 {
        let per = p.cwnd();
        p.round(per, 0);
    }
    let grown = p.prague.frac_cwnd() - start;
    assert!(
        (grown - 20.0).abs() < 0.05,
        "grew {grown} segments in 20 rounds"
    );
}

/// RTT independence (RTT_CONTROL_RATE): after 500 rounds out of slow start, a flow below the
/// 25 ms target grows by (RTT / target)^2 segments per round, the same rate increase per
/// second as a flow at the target RTT.
#[test]
fn rtt_independence_scales_the_increase_by_rtt_over_target_squared() {
    for (rtt_us, on) in [(5_000, true), (5_000, false)] {
        let params = PragueParams {
            rtt_independence: on,
            ..PragueParams::default()
        };
        let mut p = Path::new(params, 40, rtt_us);
        p.end_slow_start();
        // 500 rounds with enough marks to hold the window near 40 segments.
        for _ in 0..RTT_TRANSITION {
            let per = p.cwnd();
            p.round(per, per / 40);
        }
        assert!(p.prague.rounds() >= RTT_TRANSITION);
        let start = p.prague.frac_cwnd();
        for _ in 0..50 {
            let per = p.cwnd();
            p.round(per, 0);
        }
        let per_round = (p.prague.frac_cwnd() - start) / 50.0;
        // 5 ms in 128 us units is 39, the 25 ms target 195: (39/195)^2 = 0.04.
        let expected = if on { 0.04 } else { 1.0 };
        assert!(
            (per_round - expected).abs() < 0.005,
            "RTT independence {on}: {per_round} segments per round, expected {expected}"
        );
    }
}

/// Slow start doubles the window per round of unmarked ACKs, and the fractional window
/// follows it.
#[test]
fn slow_start_doubles_per_round() {
    let mut p = Path::new(PragueParams::default(), 10, 20_000);
    for k in 0..5 {
        let cwnd = p.cwnd();
        assert_eq!(cwnd, 10 << k);
        p.round(cwnd, 0);
    }
    assert_eq!(p.prague.frac_cwnd(), p.cwnd() as f64);
}

/// The pacing rate is the fractional window of packets per SRTT (twice that in slow start),
/// in payload bytes.
#[test]
fn pacing_is_one_window_per_srtt() {
    let mut p = Path::new(PragueParams::default(), 100, 10_000);
    p.end_slow_start();
    p.round(100, 10);
    let rate = p.prague.pacing_rate as f64;
    let expected = p.prague.frac_cwnd() * MSS as f64 / 0.010;
    assert!(
        (rate / expected - 1.0).abs() < 0.01,
        "{rate} against {expected}"
    );
}

/// The classic-ECN detector: with a standing queue far above the 2 ms reference and a large
/// RTT variation the score leaves the L4S region, and the reduction then takes at least the
/// score's alpha; on a path at its minimum RTT it stays at 0. Without the fallback the score
/// is never computed.
#[test]
fn the_classic_ecn_detector_reacts_to_a_deep_varying_queue() {
    let params = PragueParams {
        classic_ecn_fallback: true,
        ..PragueParams::default()
    };
    let mut calm = Path::new(params, 50, 20_000);
    calm.end_slow_start();
    let mut deep = Path::new(params, 50, 20_000);
    deep.end_slow_start();
    for k in 0..300 {
        calm.round(50, 1);
        deep.queue_us = if k % 2 == 0 { 40_000 } else { 10_000 };
        deep.round(50, 1);
    }
    assert_eq!(calm.prague.classic_ecn_score(), 0.0);
    let score = deep.prague.classic_ecn_score();
    assert!(score > 0.5, "score {score}");
    let mut off = Path::new(PragueParams::default(), 50, 20_000);
    off.end_slow_start();
    for k in 0..300 {
        off.queue_us = if k % 2 == 0 { 40_000 } else { 10_000 };
        off.round(50, 1);
    }
    assert_eq!(off.prague.classic_ecn_score(), 0.0);
}
