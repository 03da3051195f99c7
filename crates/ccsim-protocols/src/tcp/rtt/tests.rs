//! Each policy against its source's arithmetic, worked by hand (the module docs name the
//! sources). Samples come one per round trip, each ACK moving `snd_una` past the segment
//! `snd_nxt` was at the previous sample, as the sender takes them.

use super::{RtoPolicy, RttEstimator};
use ccsim_core::{Dur, SimTime};

fn ms(x: u64) -> Dur {
    Dur::from_millis(x)
}

fn us(x: u64) -> Dur {
    Dur(x * 1_000)
}

const RFC_1NS: RtoPolicy = RtoPolicy::Rfc6298 {
    granularity: Dur(1),
};

/// An estimator of `policy` with its reference's defaults, or the given bounds.
fn estimator(policy: RtoPolicy) -> RttEstimator {
    let (initial, min, max) = policy.defaults();
    RttEstimator::new(policy, initial, min, max)
}

/// Feeds samples of `rtt` one per round trip, the k-th sent at `start + k s`; returns the
/// RTO after each.
fn steady(e: &mut RttEstimator, rtts: &[Dur], start: Dur) -> Vec<Dur> {
    rtts.iter()
        .enumerate()
        .map(|(k, &r)| {
            let k = k as u64;
            e.sample(
                r,
                SimTime(start.0 + k * 1_000_000_000),
                10 * k + 1,
                10 * k + 10,
            );
            e.rto()
        })
        .collect()
}

#[test]
fn rfc6298_second_sample_as_section_2_3_says() {
    let mut e = RttEstimator::new(RFC_1NS, Dur::from_secs(1), ms(200), Dur::from_secs(60));
    assert_eq!(
        e.rto(),
        Dur::from_secs(1),
        "before a sample: the initial RTO (2.1)"
    );
    // 2.2: SRTT = R = 100 ms, RTTVAR = R/2 = 50 ms, RTO = 100 + 4 * 50 = 300 ms.
    // 2.3 with R' = 200 ms: RTTVAR = 3/4 * 50 + 1/4 * |100 - 200| = 62.5 ms (with the old
    // SRTT); SRTT = 7/8 * 100 + 1/8 * 200 = 112.5 ms; RTO = 112.5 + 250 = 362.5 ms.
    let rtos = steady(&mut e, &[ms(100), ms(200)], Dur::ZERO);
    assert_eq!(rtos, vec![ms(300), Dur(362_500_000)]);
    assert_eq!(e.srtt(), Some(Dur(112_500_000)));
}

#[test]
fn rfc6298_back_off_doubles_up_to_the_maximum_and_a_sample_clears_it() {
    let mut e = RttEstimator::new(RFC_1NS, Dur::from_secs(1), ms(200), Dur::from_secs(60));
    steady(&mut e, &[ms(100)], Dur::ZERO); // RTO 300 ms
    let mut want = 300_u64;
    for _ in 0..7 {
        e.back_off();
        want *= 2;
        assert_eq!(e.rto(), ms(want)); // 5.5: doubled each expiry
    }
    assert_eq!(want, 38_400);
    e.back_off(); // 76.8 s would exceed the 60 s maximum (2.5)
    assert_eq!(e.rto(), Dur::from_secs(60));
    e.sample(ms(100), SimTime::ZERO, 1, 2); // a new sample ends the back-off
    assert!(e.rto() < Dur::from_secs(1), "{:?}", e.rto());
}

#[test]
fn rfc6298_back_off_stops_doubling_after_sixteen_expiries() {
    let mut e = RttEstimator::new(RFC_1NS, ms(1), ms(1), Dur::from_secs(1_000_000_000));
    for _ in 0..40 {
        e.back_off();
    }
    assert_eq!(e.rto(), Dur(1_000_000 << 16));
}

#[test]
fn rfc6298_clamps_to_its_minimum_and_maximum_and_keeps_g() {
    let mut e = RttEstimator::new(RFC_1NS, Dur::from_secs(1), ms(200), Dur::from_secs(60));
    steady(&mut e, &[ms(1)], Dur::ZERO); // 1 + 4 * 0.5 = 3 ms, below the 200 ms floor (2.4)
    assert_eq!(e.rto(), ms(200));
    let mut e = RttEstimator::new(RFC_1NS, Dur::from_secs(1), ms(200), Dur::from_secs(60));
    steady(&mut e, &[Dur::from_secs(100)], Dur::ZERO); // 300 s, above the 60 s ceiling (2.5)
    assert_eq!(e.rto(), Dur::from_secs(60));
    // A steady RTT drives RTTVAR to 0: the margin left is G (1 ns before, 1 ms by default).
    for (g, margin) in [(Dur(1), Dur(1)), (ms(1), ms(1))] {
        let policy = RtoPolicy::Rfc6298 { granularity: g };
        let mut e = RttEstimator::new(policy, Dur::from_secs(1), ms(200), Dur::from_secs(60));
        let rtos = steady(&mut e, &[ms(300); 200], Dur::ZERO);
        assert_eq!(rtos[199], ms(300) + margin);
    }
    // The RFC's own minimum is 1 s.
    assert_eq!(
        RtoPolicy::Rfc6298 { granularity: ms(1) }.defaults(),
        (Dur::from_secs(1), Dur::from_secs(1), Dur::from_secs(60))
    );
}

#[test]
fn linux_first_samples_follow_tcp_rtt_estimator() {
    // First sample 100 ms: srtt = 100 ms, mdev = 2 m = 200 ms, rttvar = max(mdev, rto_min)
    // = 200 ms: RTO = 300 ms. Second, 200 ms: the error m = +100 ms; srtt = 112.5 ms;
    // mdev = 200 + (100 - 200/4) = 250 ms, above the round trip's mdev_max (200), which
    // raises rttvar to 250: RTO = 112.5 + 250 = 362.5 ms, rounded up to the 1 ms jiffy.
    let mut e = estimator(RtoPolicy::Linux);
    assert_eq!(e.rto(), Dur::from_secs(1), "TCP_TIMEOUT_INIT");
    assert_eq!(
        steady(&mut e, &[ms(100), ms(200)], Dur::ZERO),
        vec![ms(300), ms(363)]
    );
    assert_eq!(e.srtt(), Some(us(112_500)));
    // A sample below SRTT moves mdev with gain 1/32: 200 ms then 50 ms. The error is
    // -150 ms: 150 - 400/4 = 50 ms, >> 3 = 6.25 ms; mdev = 406.25 ms = rttvar; srtt =
    // 200 - 150/8 = 181.25 ms; RTO = 587.5 -> 588 ms. (RFC 6298 would give 4 RTTVAR = 450.)
    let mut e = estimator(RtoPolicy::Linux);
    assert_eq!(
        steady(&mut e, &[ms(200), ms(50)], Dur::ZERO),
        vec![ms(600), ms(588)]
    );
}

#[test]
fn linux_keeps_rto_min_of_margin_at_a_steady_rtt() {
    // A steady 200 ms: rttvar starts at 2 m = 400 ms and decays once per round trip by a
    // quarter of its distance to the round trip's largest mdev, which restarts at rto_min
    // (200 ms) every round trip: 600, 600, 557 (rttvar 356.25), ... and settles 1 ms above
    // SRTT + 200 ms, where the integer quarter of the distance left is 0.
    let mut e = estimator(RtoPolicy::Linux);
    let rtos = steady(&mut e, &[ms(200); 40], Dur::ZERO);
    assert_eq!(&rtos[..4], &[ms(600), ms(600), ms(557), ms(518)]);
    assert_eq!(rtos[39], ms(401));
    // Shorter paths keep the same 200 ms of margin: 20 ms -> 220-221 ms.
    let mut e = estimator(RtoPolicy::Linux);
    let rtos = steady(&mut e, &[ms(20); 40], Dur::ZERO);
    assert!(rtos[39] >= ms(220) && rtos[39] <= ms(221), "{:?}", rtos[39]);
    // Back-off doubles and caps at TCP_RTO_MAX (120 s).
    for _ in 0..20 {
        e.back_off();
    }
    assert_eq!(e.rto(), Dur::from_secs(120));
}

#[test]
fn ns2_counts_tick_boundaries_and_keeps_three_quarters_of_a_tick_of_rttvar() {
    // 10 ms ticks, 200 ms samples sent on a tick: m = 20 ticks. First: srtt x8 = 160,
    // rttvar x4 = 40, rtxcur = (40 * 8 + 160) >> 3 = 60 ticks = 600 ms. Each next sample
    // takes rttvar x4 down by a quarter (40, 30, 23, 18, 14, 11, 9, 7, 6, 5, 4, 3) until
    // 3 >> 2 = 0 leaves it at 3: rtxcur = (24 + 160) >> 3 = 23 ticks = 230 ms.
    let tick = ms(10);
    let mut e = estimator(RtoPolicy::Ns2 { tick });
    assert_eq!(e.rto(), Dur::from_secs(3), "rtxcur_init_");
    let rtos = steady(&mut e, &[ms(200); 15], Dur::ZERO);
    let want: Vec<Dur> = [
        600, 500, 430, 380, 340, 310, 290, 270, 260, 250, 240, 230, 230, 230, 230,
    ]
    .iter()
    .map(|&x| ms(x))
    .collect();
    assert_eq!(rtos, want);
    assert_eq!(e.srtt(), Some(ms(200)));
    // The sample counts tick boundaries crossed (ns-2's tickoff): 195 ms sent at 9 ms ends
    // at 204 ms and crosses 20 boundaries; 8 ms within one tick counts as 1.
    let mut e = estimator(RtoPolicy::Ns2 { tick });
    e.sample(ms(195), SimTime(ms(9).0), 1, 2);
    assert_eq!(e.srtt(), Some(ms(200)));
    let mut e = estimator(RtoPolicy::Ns2 { tick });
    e.sample(ms(8), SimTime(ms(1).0), 1, 2);
    assert_eq!(e.srtt(), Some(ms(10)));
}

#[test]
fn ns2_uses_minrto_times_the_backoff_and_forgets_srtt_past_eight() {
    let tick = ms(10);
    // A steady 20 ms: rtxcur settles at 2 + 3 = 5 ticks = 50 ms, under minrto (200 ms):
    // the timeout is minrto x backoff.
    let mut e = estimator(RtoPolicy::Ns2 { tick });
    steady(&mut e, &[ms(20); 20], Dur::ZERO);
    assert_eq!(e.rto(), ms(200));
    e.back_off();
    assert_eq!(e.rto(), ms(400));
    // At 200 ms (rtxcur 230 ms): 460, 920, 1840; the fourth doubling (backoff 16 > 8) moves
    // srtt into rttvar and zeroes it, so the next sample starts afresh; the timeout itself
    // is rtxcur x 16 = 3.68 s.
    let mut e = estimator(RtoPolicy::Ns2 { tick });
    steady(&mut e, &[ms(200); 15], Dur::ZERO);
    let mut rtos = Vec::new();
    for _ in 0..4 {
        e.back_off();
        rtos.push(e.rto());
    }
    assert_eq!(rtos, vec![ms(460), ms(920), ms(1840), ms(3680)]);
    e.sample(ms(100), SimTime(Dur::from_secs(100).0), 1000, 1010);
    // First sample again: srtt = 10 ticks, rttvar x4 = 20: rtxcur = (160 + 80) >> 3 = 30.
    assert_eq!(e.rto(), ms(300));
    // maxrto caps the timeout; the 1998 ns-2's 100 ms tick floors it at 2 ticks.
    let mut e = RttEstimator::new(
        RtoPolicy::Ns2 { tick: ms(100) },
        Dur::from_secs(6),
        Dur::ZERO,
        Dur::from_secs(60),
    );
    assert_eq!(e.rto(), Dur::from_secs(6));
    e.sample(ms(5), SimTime::ZERO, 1, 2); // 1 tick: srtt 8, rttvar x4 2, rtxcur 3 ticks
    assert_eq!(e.rto(), ms(300));
    for _ in 0..10 {
        e.back_off();
    }
    assert_eq!(e.rto(), Dur::from_secs(60));
}

#[test]
fn ns3_keeps_no_fraction_and_its_variation_decays_to_zero() {
    // MinRto 1 s holds a 200 ms path at 1 s; with MinRto 200 ms the integer variation
    // decays as floor(3 var / 4) to 0 and the margin left is G = 1 ms.
    let g = ms(1);
    let mut e = estimator(RtoPolicy::Ns3 { granularity: g });
    let rtos = steady(&mut e, &[ms(200); 3], Dur::ZERO);
    assert_eq!(rtos, vec![Dur::from_secs(1); 3]);
    let mut e = RttEstimator::new(
        RtoPolicy::Ns3 { granularity: g },
        Dur::from_secs(1),
        ms(200),
        Dur::from_secs(60),
    );
    let rtos = steady(&mut e, &[ms(200); 100], Dur::ZERO);
    // First: est 200, var 100: 600 ms. Second: var = (400 + 0 - 100) / 4 = 75: 500 ms.
    assert_eq!(&rtos[..2], &[ms(600), ms(500)]);
    assert_eq!(rtos[99], ms(201));
    // Samples are millisecond timestamps: 200.4 ms sent at 0.4 ms reads 200 ms; 50 us
    // within one millisecond reads 1 us.
    let mut e = estimator(RtoPolicy::Ns3 { granularity: g });
    e.sample(Dur(200_400_000), SimTime(400_000), 1, 2);
    assert_eq!(e.srtt(), Some(ms(200)));
    let mut e = estimator(RtoPolicy::Ns3 { granularity: g });
    e.sample(us(50), SimTime(100_000), 1, 2);
    assert_eq!(e.srtt(), Some(us(1)));
    // Doubling per expiry, at most 60 s.
    for _ in 0..10 {
        e.back_off();
    }
    assert_eq!(e.rto(), Dur::from_secs(60));
}

#[test]
fn the_margins_at_a_steady_200_ms_are_each_references() {
    // research/modern-tcp.md section 1.4: ns-2 230 ms, Linux about 400 ms, ns-3 1 s, and the
    // old ccsim timer 1 ns above SRTT.
    let rto_after = |policy: RtoPolicy, min: Dur| {
        let (initial, _, max) = policy.defaults();
        let mut e = RttEstimator::new(policy, initial, min, max);
        *steady(&mut e, &[ms(200); 200], Dur::ZERO)
            .last()
            .expect("samples")
    };
    assert_eq!(rto_after(RtoPolicy::Ns2 { tick: ms(10) }, ms(200)), ms(230));
    assert_eq!(rto_after(RtoPolicy::Linux, ms(200)), ms(401));
    assert_eq!(
        rto_after(RtoPolicy::Ns3 { granularity: ms(1) }, Dur::from_secs(1)),
        Dur::from_secs(1)
    );
    assert_eq!(rto_after(RFC_1NS, ms(200)), ms(200) + Dur(1));
}
