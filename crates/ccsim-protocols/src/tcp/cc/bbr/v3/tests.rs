//! BBR v3's state machine on scripted ACK sequences: the IETF draft's example test cases
//! that apply to v3 (draft-ietf-ccwg-bbr, "Example Test Cases": no exit from STARTUP when
//! application-limited, a minimum window of four packets), PROBE_BW's DOWN -> CRUISE ->
//! REFILL -> UP cycle and its two timers, the loss and ECN responses of the bounds, and
//! PROBE_RTT every 5 s at half the BDP. Expected values come from the constants of
//! tcp_bbr.c v3 (gains, beta 0.3, thresholds 2 % and 50 %, alpha gain 1/16, headroom 15 %),
//! computed here in floating point where rounding does not matter.

use super::*;
use crate::tcp::cc::CongestionControl;
use ccsim_core::{Dur, SimTime};

const MSS: u64 = 1000;

/// One ACK of a scripted path: it delivers `per` segments (its sample spans one round
/// trip), leaves `in_flight` outstanding, and may mark losses and carry CE marks.
#[derive(Clone, Copy)]
struct Ack {
    per: u64,
    in_flight: u64,
    app_limited: bool,
    /// Newly marked lost by this ACK.
    losses: u64,
    /// Lost since the sampled segment was sent.
    lost: u64,
    /// CE-marked deliveries in the sample.
    ce: u64,
    /// In flight when the sampled segment was sent; 0: the flight before this ACK.
    tx_in_flight: u64,
}

impl Ack {
    fn new(per: u64, in_flight: u64) -> Self {
        Ack {
            per,
            in_flight,
            app_limited: false,
            losses: 0,
            lost: 0,
            ce: 0,
            tx_in_flight: 0,
        }
    }
}

/// A path of `rtt_ms` round trip; `round` ends a packet-timed round (the sample's segment
/// was sent at the previous round's end), `ack_part` is an ACK inside one.
struct Path {
    bbr: Bbr,
    w: Window,
    rng: RngStream,
    now_us: u64,
    delivered: u64,
    delivered_ce: u64,
    lost: u64,
    in_flight: u64,
    rtt_ms: u64,
    /// Delivered count at the last round boundary, and at the one before.
    round_base: u64,
    prev_base: u64,
    /// Queueing delay added to the RTT samples, microseconds.
    queue_us: u64,
    state: CaState,
}

impl Path {
    fn with(mut bbr: Bbr, rtt_ms: u64) -> Self {
        let mut w = Window {
            cwnd: 10 * MSS,
            ssthresh: u64::MAX,
            mss: MSS,
            flight: 0,
            cwnd_limited: true,
        };
        bbr.on_init(
            &mut w,
            &crate::tcp::cc::bbr::tests::conn_at(SimTime::ZERO, None),
        );
        Path {
            bbr,
            w,
            rng: RngStream::new(7, "bbr3-test"),
            now_us: 0,
            delivered: 0,
            delivered_ce: 0,
            lost: 0,
            in_flight: 10,
            rtt_ms,
            round_base: 0,
            prev_base: 0,
            queue_us: 0,
            state: CaState::Open,
        }
    }

    fn step(&mut self, a: Ack, prior_delivered: u64, advance_us: u64) {
        self.now_us += advance_us;
        self.delivered += a.per;
        self.delivered_ce += a.ce;
        self.lost += a.losses;
        let prior_in_flight = self.in_flight;
        self.in_flight = a.in_flight;
        let now = SimTime(self.now_us * 1000);
        let rs = RateSample {
            delivered: a.per,
            delivered_ce: a.ce,
            interval: Some(Dur::from_millis(self.rtt_ms)),
            prior_delivered,
            is_app_limited: a.app_limited,
            acked_sacked: a.per,
            losses: a.losses,
            ece_delta: a.ce,
            lost: a.lost,
            tx_in_flight: if a.tx_in_flight > 0 {
                a.tx_in_flight
            } else {
                prior_in_flight
            },
            prior_in_flight,
            rtt: Some(Dur::from_micros(self.rtt_ms * 1000 + self.queue_us)),
        };
        let conn = Conn {
            now,
            state: self.state,
            in_flight: a.in_flight,
            delivered: self.delivered,
            delivered_time: now,
            delivered_ce: self.delivered_ce,
            snd_una: self.delivered,
            snd_nxt: self.delivered + a.in_flight,
            packet_size: MSS + 40,
            lost: self.lost,
            srtt: Some(Dur::from_millis(self.rtt_ms)),
            min_rtt: Some(Dur::from_millis(self.rtt_ms)),
            next_release: now,
        };
        self.bbr
            .cong_control(&mut self.w, &rs, &conn, &mut self.rng);
    }

    /// The ACK that ends a round trip.
    fn round(&mut self, a: Ack) {
        let prior = self.round_base;
        self.step(a, prior, self.rtt_ms * 1000);
        self.prev_base = self.round_base;
        self.round_base = self.delivered;
    }

    /// An ACK inside the current round, 100 us after the previous one; `_last` documents
    /// the end of a burst.
    fn ack_part(&mut self, a: Ack, _last: bool) {
        let prior = self.prev_base;
        self.step(a, prior, 100);
    }

    fn cwnd(&self) -> u64 {
        self.w.cwnd / MSS
    }
}

/// A path of one sample per round trip, `rtt_ms` long (see `tests_support`), for BBR v3.
fn path(rtt_ms: u64, ecn: bool) -> Path {
    Path::with(Bbr::v3(ecn), rtt_ms)
}

/// Fill the pipe: rounds doubling up to `bdp` segments per round, then a plateau until
/// PROBE_BW; returns the rounds taken.
fn to_probe_bw(p: &mut Path, bdp: u64) -> u32 {
    let mut per_round = 10;
    let mut n = 0;
    while p.bbr.mode() != BbrMode::ProbeBw {
        let fl = if p.bbr.mode() == BbrMode::Drain {
            bdp
        } else {
            2 * per_round
        };
        p.round(Ack::new(per_round, fl));
        per_round = (per_round * 2).min(bdp);
        n += 1;
        assert!(n < 100, "stuck in {:?}", p.bbr.mode());
    }
    n
}

/// STARTUP paces at 4 ln 2 = 2.77 with a window gain of 2 (v1: 2.885 for both); it ends
/// three rounds after the round's sample stops growing by 25 %.
#[test]
fn startup_gains_and_plateau_exit() {
    let mut p = path(100, false);
    p.round(Ack::new(10, 20));
    assert_eq!(p.bbr.mode(), BbrMode::Startup);
    let g = f64::from(p.bbr.pacing_gain()) / 256.0;
    assert!((g - 4.0 * 2f64.ln()).abs() < 0.01, "pacing gain {g}");
    let mut per_round = 20;
    while per_round < 800 {
        p.round(Ack::new(per_round, 2 * per_round));
        assert_eq!(p.bbr.mode(), BbrMode::Startup);
        per_round *= 2;
    }
    for k in 1..=3 {
        p.round(Ack::new(800, 1600));
        // 640 -> 800 grew by 25 %: the count starts at the second plateau round.
        if k < 3 {
            assert_eq!(p.bbr.mode(), BbrMode::Startup, "plateau round {k}");
        }
    }
    p.round(Ack::new(800, 1600));
    assert_eq!(p.bbr.mode(), BbrMode::Drain);
    // DRAIN at 1/2.885 until the flight is one BDP.
    assert_eq!(p.bbr.pacing_gain(), UNIT * 1000 / 2885);
    p.round(Ack::new(800, 800));
    assert_eq!(p.bbr.probe_bw_phase(), Some(ProbeBwPhase::Down));
    assert!((p.bbr.pacing_gain() as f64 / 256.0 - 0.91).abs() < 0.005);
}

/// Draft example "No exit from STARTUP when app-limited".
#[test]
fn no_exit_from_startup_when_app_limited() {
    let mut p = path(50, false);
    for _ in 0..30 {
        p.round(Ack {
            app_limited: true,
            ..Ack::new(20, 20)
        });
    }
    assert_eq!(p.bbr.mode(), BbrMode::Startup);
    for _ in 0..4 {
        p.round(Ack::new(20, 20));
    }
    assert_ne!(p.bbr.mode(), BbrMode::Startup);
}

/// Draft example "MinPipeCwnd 4 packets": heavy losses and PROBE_RTT never take the window
/// below four packets.
#[test]
fn the_window_never_falls_below_four_packets() {
    let mut p = path(20, false);
    to_probe_bw(&mut p, 8);
    for _ in 0..20 {
        p.round(Ack {
            losses: 4,
            lost: 4,
            tx_in_flight: 8,
            ..Ack::new(1, 4)
        });
        assert!(p.cwnd() >= 4, "cwnd {}", p.cwnd());
    }
}

/// STARTUP also ends on a recovery round with at least six loss events and more than 2 %
/// of the flight lost; inflight_hi then starts at the BDP (or the last round's delivery).
#[test]
fn startup_exits_on_high_loss_in_recovery() {
    let mut p = path(100, false);
    let mut per_round = 10;
    for _ in 0..5 {
        p.round(Ack::new(per_round, 2 * per_round));
        per_round *= 2;
    }
    assert_eq!(p.bbr.mode(), BbrMode::Startup);
    assert_eq!(p.bbr.inflight_hi(), None);
    // One round in recovery: six ACKs each marking a loss, 10 of 320 lost (3 %).
    p.state = CaState::Recovery;
    for i in 0..6 {
        p.ack_part(
            Ack {
                losses: 1,
                lost: 10,
                tx_in_flight: 320,
                ..Ack::new(40, 320)
            },
            i == 5,
        );
    }
    assert_eq!(p.bbr.mode(), BbrMode::Startup, "not inside the round");
    // The loss round ends when what was sent after the first loss is delivered.
    p.round(Ack::new(40, 320));
    assert_eq!(
        p.bbr.mode(),
        BbrMode::Startup,
        "not before the loss round ends"
    );
    p.round(Ack {
        lost: 10,
        tx_in_flight: 320,
        ..Ack::new(40, 320)
    });
    assert_ne!(p.bbr.mode(), BbrMode::Startup);
    assert!(p.bbr.full_bw_reached());
    assert!(p.bbr.inflight_hi().is_some());
}

/// PROBE_BW cycles DOWN -> CRUISE -> REFILL -> UP -> DOWN. With a large BDP the wall clock
/// starts the next probe, 2 to 3 s after the cycle began (DOWN, or the return from
/// PROBE_RTT); REFILL lasts one round; UP ends three rounds after the bandwidth stops
/// growing.
#[test]
fn probe_bw_phase_sequence_and_wall_clock_probe_wait() {
    use ProbeBwPhase::*;
    let mut p = path(100, false);
    to_probe_bw(&mut p, 800);
    let mut prev = p.bbr.probe_bw_phase();
    let mut cycle_start = p.now_us / 1000;
    let mut seq = vec![prev.unwrap()];
    let mut waits = vec![];
    let mut up_rounds = 0;
    for _ in 0..150 {
        let fl = match prev {
            Some(Up) => 1000,
            None => 400,
            _ => 790,
        };
        p.round(Ack::new(800, fl));
        let ph = p.bbr.probe_bw_phase();
        if ph == Some(Up) {
            up_rounds += 1;
        }
        match (prev, ph) {
            (None, Some(x)) => {
                // PROBE_RTT returns through DOWN to CRUISE and restarts the cycle clock.
                assert_eq!(x, Cruise);
                cycle_start = p.now_us / 1000;
            }
            (Some(a), Some(b)) if a != b => {
                assert!(
                    matches!(
                        (a, b),
                        (Down, Cruise)
                            | (Cruise, Refill)
                            | (Down, Refill)
                            | (Refill, Up)
                            | (Up, Down)
                    ),
                    "{a:?} -> {b:?}"
                );
                seq.push(b);
                if b == Down {
                    cycle_start = p.now_us / 1000;
                }
                if b == Refill {
                    waits.push(p.now_us / 1000 - cycle_start);
                }
                if a == Refill {
                    assert_eq!(b, Up);
                }
            }
            _ => {}
        }
        prev = ph;
    }
    assert!(
        seq.windows(4)
            .filter(|w| w == &[Down, Cruise, Refill, Up])
            .count()
            >= 3,
        "{seq:?}"
    );
    assert!(waits.len() >= 3);
    for wait in &waits {
        // Reno coexistence would wait min(63, BDP) = 63 rounds = 6.3 s: the clock wins.
        assert!(
            (2000..=3100).contains(wait),
            "probe wait {wait} ms ({waits:?})"
        );
    }
    // UP: the round of REFILL's end plus three rounds without growth, per probe.
    let probes = seq.iter().filter(|&&x| x == Up).count();
    assert!(
        up_rounds >= 3 * probes && up_rounds <= 4 * probes,
        "{up_rounds} rounds in {probes} probes"
    );
}

/// With a small BDP the Reno-coexistence round count starts the probe first: after about
/// min(63, target inflight) rounds, less one drawn at random.
#[test]
fn reno_coexistence_probe_after_bdp_rounds() {
    // 2 segments per millisecond x 10 ms: BDP 20 packets, 0.2 s of rounds before 2 s.
    let mut p = path(10, false);
    to_probe_bw(&mut p, 20);
    let start = p.bbr.rounds();
    let mut n = 0;
    while p.bbr.probe_bw_phase() != Some(ProbeBwPhase::Refill) {
        p.round(Ack::new(20, 19));
        n += 1;
        assert!(n < 200, "no probe after {n} rounds");
    }
    let _ = start;
    let v = p.bbr.v3.as_ref().unwrap();
    let target = p.bbr.v3_inflight(v, v.bw(), UNIT, 1000);
    assert!(target >= 20, "target {target}");
    let expect = target.min(63);
    assert!(
        (expect - 1..=expect + 1).contains(&n),
        "probe after {n} rounds, target {target}"
    );
    assert!(n * 10 < 2000);
}

/// Drive to UP and return the target inflight there.
fn to_probe_up(p: &mut Path, bdp: u64) {
    to_probe_bw(p, bdp);
    let mut n = 0;
    while p.bbr.probe_bw_phase() != Some(ProbeBwPhase::Up) {
        p.round(Ack::new(bdp, bdp - 1));
        n += 1;
        assert!(n < 400);
    }
}

/// Loss above 2 % of the flight while probing cuts inflight_hi to
/// max(tx_in_flight, 0.7 x target inflight) and ends the probe; 2 % or less does not.
#[test]
fn loss_above_two_percent_cuts_inflight_hi() {
    let mut p = path(100, false);
    to_probe_up(&mut p, 100);
    // 2 of 120 is under 2 % (Linux's 5/256): no reaction.
    p.ack_part(
        Ack {
            losses: 2,
            lost: 2,
            tx_in_flight: 120,
            ..Ack::new(10, 110)
        },
        false,
    );
    assert_eq!(p.bbr.probe_bw_phase(), Some(ProbeBwPhase::Up));
    assert_eq!(p.bbr.inflight_hi(), None);
    // 3 of 60 in flight when the sampled segment left: 5 %.
    p.ack_part(
        Ack {
            losses: 1,
            lost: 3,
            tx_in_flight: 60,
            ..Ack::new(10, 110)
        },
        false,
    );
    assert_eq!(p.bbr.probe_bw_phase(), Some(ProbeBwPhase::Down));
    // Target inflight in UP: BDP 100 + 2 packets of UP's budget = 102; 0.7 x 102 = 71.4.
    let hi = p.bbr.inflight_hi().unwrap();
    assert!((71..=72).contains(&hi), "inflight_hi {hi}");
    // A later loss sample with a higher flight at send time keeps that flight.
    let mut q = path(100, false);
    to_probe_up(&mut q, 100);
    q.ack_part(
        Ack {
            losses: 5,
            lost: 5,
            tx_in_flight: 110,
            ..Ack::new(10, 110)
        },
        false,
    );
    assert_eq!(q.bbr.inflight_hi(), Some(110));
}

/// Outside probing, a round with loss cuts the short-term bounds: inflight_lo to 0.7 x the
/// window (never below the round's delivery), and the window follows.
#[test]
fn loss_round_in_cruise_cuts_inflight_lo() {
    let mut p = path(100, false);
    to_probe_bw(&mut p, 100);
    while p.bbr.probe_bw_phase() != Some(ProbeBwPhase::Cruise) {
        p.round(Ack::new(100, 95));
    }
    let cwnd = p.cwnd();
    p.ack_part(
        Ack {
            losses: 1,
            lost: 1,
            tx_in_flight: 100,
            ..Ack::new(30, 95)
        },
        false,
    );
    assert_eq!(p.bbr.inflight_lo(), None, "cut once per round, at its end");
    p.round(Ack::new(30, 95));
    assert_eq!(
        p.bbr.inflight_lo(),
        None,
        "the loss round ends a round after the loss"
    );
    p.round(Ack {
        lost: 1,
        tx_in_flight: 100,
        ..Ack::new(30, 95)
    });
    let lo = p.bbr.inflight_lo().expect("inflight_lo");
    let want = (cwnd as f64 * 0.7).max(30.0);
    assert!(
        (lo as f64 - want).abs() <= 1.0,
        "inflight_lo {lo}, cwnd before {cwnd}"
    );
    assert!(p.cwnd() <= lo);
}

/// ECN: alpha is the EWMA, gain 1/16, of the per-round CE fraction, starting at 1; it is
/// kept only when the flow is ECN-capable and min_rtt is at most 5 ms.
#[test]
fn ecn_alpha_is_an_ewma_of_the_ce_fraction() {
    let mut p = path(4, true);
    let mut alpha = 1.0f64;
    p.round(Ack::new(10, 20));
    // Eligibility is decided at a round start, once min_rtt is known.
    assert!(!p.bbr.ecn_eligible());
    for k in 0..40 {
        let ce = if k < 20 { 0 } else { 10 };
        p.round(Ack {
            ce,
            ..Ack::new(40, 40)
        });
        alpha = alpha * 15.0 / 16.0 + ce as f64 / 40.0 / 16.0;
        let got = p.bbr.ecn_alpha().unwrap() as f64 / 256.0;
        // Linux truncates each step to 1/256.
        assert!(
            (got - alpha).abs() < 0.05,
            "round {k}: alpha {got} vs {alpha}"
        );
    }
    assert!(p.bbr.ecn_eligible());
    // Not ECN-capable, or min_rtt above 5 ms: alpha stays at its initial 1.
    for (rtt, ecn) in [(4, false), (6, true)] {
        let mut q = path(rtt, ecn);
        for _ in 0..20 {
            q.round(Ack {
                ce: 20,
                ..Ack::new(40, 40)
            });
        }
        assert!(!q.bbr.ecn_eligible());
        assert_eq!(q.bbr.ecn_alpha(), Some(256));
    }
}

/// ECN: a CE fraction above 50 % while probing cuts inflight_hi like a loss rate above 2 %;
/// at 50 % or less it does not. Without ECN eligibility marks are ignored.
#[test]
fn ce_fraction_above_half_cuts_inflight_hi() {
    for (ecn, ce, cut) in [(true, 6, true), (true, 5, false), (false, 10, false)] {
        let mut p = path(4, ecn);
        to_probe_up(&mut p, 100);
        assert_eq!(p.bbr.inflight_hi(), None);
        p.ack_part(
            Ack {
                ce,
                tx_in_flight: 60,
                ..Ack::new(10, 110)
            },
            false,
        );
        if cut {
            assert_eq!(p.bbr.probe_bw_phase(), Some(ProbeBwPhase::Down));
            let hi = p.bbr.inflight_hi().unwrap();
            assert!((71..=72).contains(&hi), "inflight_hi {hi}");
        } else {
            assert_eq!(
                p.bbr.probe_bw_phase(),
                Some(ProbeBwPhase::Up),
                "ecn {ecn} ce {ce}"
            );
            assert_eq!(p.bbr.inflight_hi(), None);
        }
    }
}

/// ECN outside probing: a round with CE marks cuts inflight_lo by alpha / 3.
#[test]
fn ce_round_in_cruise_cuts_inflight_lo_by_alpha_third() {
    let mut p = path(4, true);
    to_probe_bw(&mut p, 100);
    while p.bbr.probe_bw_phase() != Some(ProbeBwPhase::Cruise) {
        p.round(Ack::new(100, 95));
    }
    // The sender answers the echo with CWR (as Linux's tcp_enter_cwr), which defers the
    // quick re-probe that CE marks without loss otherwise start.
    p.state = CaState::Cwr;
    p.ack_part(
        Ack {
            ce: 1,
            ..Ack::new(10, 95)
        },
        false,
    );
    // The round's end takes the window as it stands as the bound before the cut.
    let cwnd = p.cwnd();
    p.round(Ack::new(90, 95));
    assert_eq!(p.bbr.probe_bw_phase(), Some(ProbeBwPhase::Cruise));
    let alpha = p.bbr.ecn_alpha().unwrap() as f64 / 256.0;
    let lo = p.bbr.inflight_lo().expect("inflight_lo");
    let want = cwnd as f64 * (1.0 - alpha / 3.0);
    assert!(
        (lo as f64 - want).abs() <= 2.0,
        "inflight_lo {lo} vs {want} (alpha {alpha})"
    );
}

/// PROBE_RTT: due 5 s after the RTT was last at its minimum (v1: 10 s), the window at half
/// the BDP (v1: four packets), held 200 ms and a round, then PROBE_BW (CRUISE); and again
/// about 5 s later.
#[test]
fn probe_rtt_every_five_seconds_at_half_bdp() {
    let mut p = path(40, false);
    to_probe_bw(&mut p, 400);
    // Every sample so far equals the first (40 ms, at 40 ms): only a lower sample or the
    // expiry refreshes the 5 s minimum, so it dates from the first.
    let first_min = 40;
    p.queue_us = 500;
    let mut entries = vec![];
    let mut exits = vec![];
    let mut was = false;
    for _ in 0..400 {
        let in_rtt = p.bbr.mode() == BbrMode::ProbeRtt;
        p.round(Ack::new(400, if in_rtt { 200 } else { 400 }));
        let now = p.bbr.mode() == BbrMode::ProbeRtt;
        if now {
            // max(4, 0.5 x BDP) = 200 packets; 201 as the sample and BDP round up, 203 once
            // the 10 s min_rtt filter has expired and taken the queued 40.5 ms samples.
            assert!((200..=203).contains(&p.cwnd()), "cwnd {}", p.cwnd());
        }
        if now && !was {
            entries.push(p.now_us / 1000);
        }
        if was && !now {
            exits.push(p.now_us / 1000);
            assert_eq!(p.bbr.probe_bw_phase(), Some(ProbeBwPhase::Cruise));
        }
        was = now;
    }
    assert!(entries.len() >= 2, "{entries:?}");
    assert!(
        (first_min + 5001..=first_min + 5040).contains(&entries[0]),
        "entered at {} ms, min sampled at {first_min} ms",
        entries[0]
    );
    assert!(
        (entries[0] + 200..=entries[0] + 320).contains(&exits[0]),
        "{exits:?}"
    );
    let gap = entries[1] - exits[0];
    assert!(
        (5000..=5100).contains(&gap),
        "next PROBE_RTT {gap} ms after the last"
    );
}

/// v1 is untouched by v3's existence: a v1 flow has no v3 state or phases.
#[test]
fn v1_has_no_v3_state() {
    let b = Bbr::new();
    assert!(!b.is_v3());
    assert_eq!(b.probe_bw_phase(), None);
    assert_eq!(b.ecn_alpha(), None);
}
