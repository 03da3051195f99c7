//! RED (FJ93 with the gentle variant) and ECN marking, each against an independent oracle:
//! the closed form of the average, the closed form of the count-based spacing, the idle decay
//! `(1 - w_q)^m`, RFC 3168's mark-instead-of-drop rule on a small topology, conservation and
//! determinism.

use crate::common;

use std::sync::{Arc, Mutex};

use ccsim_core::{Addr, Agent, Ctx, Dur, Ecn, FlowId, Packet, Rate, RngStream, SimTime, TimerSlot};
use ccsim_engine::link::PortState;
use ccsim_engine::{
    Discipline, DropReason, LinkConfig, LinkId, LinkStats, QueueLimit, Red, RedConfig, RedDecision,
    RouterHook, SeriesConfig, Sim, Verdict,
};

// ---------------------------------------------------------------------------------------
// The RED state machine alone.

const RATE: Rate = Rate(10_000_000);

/// Feed `n` arrivals of `size` bytes while `queue` waits, all at time 0 on a busy link.
fn feed(red: &mut Red, rng: &mut RngStream, n: u64, queue: u64, size: u32) -> [u64; 4] {
    let mut seen = [0u64; 4];
    for _ in 0..n {
        let d = red.on_arrival(queue, size, false, 0, true, rng);
        seen[d as usize] += 1;
    }
    seen
}

/// A RED queue whose first (idle) arrival has been taken, so later arrivals are samples.
fn busy_red(config: RedConfig) -> (Red, RngStream) {
    let mut red = Red::new(config, RATE);
    let mut rng = RngStream::new(11, "link/test/red");
    assert_eq!(
        red.on_arrival(0, 1000, false, 0, true, &mut rng),
        RedDecision::Enqueue
    );
    assert_eq!(red.avg(), 0.0);
    (red, rng)
}

/// Mean and variance of the gap X between selections (arrivals from one mark or drop to the
/// next, the selected one included) at a constant `p_b = p`, under FJ93 Figure 2's spacing.
///
/// Derivation. After a selection `count = 0`; `count` is incremented before `p_a` is
/// computed, so the n-th arrival after a selection sees `count = n` and is selected with
/// `p_a(n) = p / (1 - n p)`, or with probability 1 once `(n + 1) p >= 1`. The survival
/// function telescopes: for `(n + 1) p < 1`,
///
/// ```text
/// S(n) = P(X > n) = prod_{k=1..n} (1 - p / (1 - k p)) = prod_{k=1..n} (1 - (k+1) p) / (1 - k p)
///      = (1 - (n + 1) p) / (1 - p),
/// ```
///
/// and `S(n) = 0` beyond. So `P(X = n) = S(n-1) - S(n) = p / (1 - p)` for every n but the
/// last: X is uniform, on `{1, ..., 1/p - 1}` when `1/p` is an integer (mean `1/(2p)`,
/// marking fraction `2p`). Then `E[X] = sum_{n>=0} S(n)` and `E[X^2] = sum_{n>=0} (2n+1) S(n)`.
///
/// FJ93 Section 7 states the gap as uniform on `{1, ..., 1/p}` (fraction `2p / (1 + p)`);
/// that analysis counts the unmarked arrivals *before* the current one (`count = n - 1`),
/// one less than the algorithm of Figure 2, which this engine (like ns-2 with `wait_ false`)
/// implements. The binned test below tells the two apart (at p = 0.09: 0.1800 versus 0.1651).
fn gap_moments(p: f64) -> (f64, f64) {
    let (mut mean, mut second) = (0.0, 0.0);
    let mut n = 0u32;
    loop {
        let s = (1.0 - f64::from(n + 1) * p) / (1.0 - p);
        if s <= 0.0 {
            break;
        }
        mean += s;
        second += f64::from(2 * n + 1) * s;
        n += 1;
    }
    (mean, second - mean * mean)
}

/// The long-run selection fraction 1/E[X] and the standard error of its estimate from
/// `arrivals` arrivals (renewal-reward central limit theorem: Var(N_t)/t -> Var(X)/E[X]^3).
fn expected_fraction(p: f64, arrivals: u64) -> (f64, f64) {
    let (mean, var) = gap_moments(p);
    (
        1.0 / mean,
        (var / (mean * mean * mean * arrivals as f64)).sqrt(),
    )
}

#[test]
fn gap_moments_agree_with_the_uniform_special_case() {
    // 1/p = 20: X uniform on {1..19}, mean 10, variance (19^2 - 1)/12 = 30.
    let (mean, var) = gap_moments(0.05);
    assert!(
        (mean - 10.0).abs() < 1e-9 && (var - 30.0).abs() < 1e-9,
        "{mean} {var}"
    );
}

#[test]
fn average_follows_the_ewma_closed_form_and_converges_to_the_queue() {
    // avg_n = q (1 - (1 - w)^n) after n samples of a constant q from avg 0.
    let c = RedConfig::default();
    let (mut red, mut rng) = busy_red(RedConfig {
        min_th: 1e9,
        max_th: 2e9,
        ..c
    });
    let q = 12.0;
    let mut n = 0u64;
    for target in [1u64, 10, 100, 1_000, 5_000, 20_000] {
        feed(&mut red, &mut rng, target - n, 12, 1000);
        n = target;
        let oracle = q * (1.0 - (n as f64 * (-c.w_q).ln_1p()).exp());
        let got = red.avg();
        assert!(
            (got - oracle).abs() <= 1e-9 * oracle,
            "n {n}: {got} vs {oracle}"
        );
    }
    assert!((red.avg() - q).abs() < 1e-9, "{}", red.avg());
}

/// Warm a default-parameter queue (optionally altered) up to a constant `queue`, then count
/// the decisions over `n` arrivals.
fn curve_point(config: RedConfig, queue: u64, size: u32, n: u64) -> [u64; 4] {
    let (mut red, mut rng) = busy_red(config);
    feed(&mut red, &mut rng, 20_000, queue, size);
    feed(&mut red, &mut rng, n, queue, size)
}

fn assert_fraction(label: &str, seen: [u64; 4], selected: u64, p_b: f64) {
    let n: u64 = seen.iter().sum();
    let (expect, se) = expected_fraction(p_b, n);
    let got = selected as f64 / n as f64;
    println!(
        "{label}: p_b {p_b:.4} measured {got:.5} expected {expect:.5} (4 se {:.5}); \
         FJ93 sec. 7 form {:.5}",
        4.0 * se,
        2.0 * p_b / (1.0 + p_b)
    );
    assert!(
        (got - expect).abs() <= 4.0 * se,
        "{label}: fraction {got} vs {expect} +- {}",
        4.0 * se
    );
}

#[test]
fn red_curve_matches_the_count_spacing_closed_form() {
    // Between min_th = 5 and max_th = 15, p_b = 0.1 (q - 5) / 10. 400 000 arrivals per bin:
    // the 4-standard-error band is below 1.5 % of the fraction in every bin.
    let n = 400_000;
    for q in [6u64, 8, 10, 12, 14] {
        let seen = curve_point(RedConfig::default(), q, 1000, n);
        let p_b = 0.1 * (q as f64 - 5.0) / 10.0;
        assert_eq!(seen[RedDecision::Mark as usize], 0);
        assert_eq!(seen[RedDecision::ForcedDrop as usize], 0);
        assert_fraction(
            &format!("q {q}"),
            seen,
            seen[RedDecision::EarlyDrop as usize],
            p_b,
        );
    }
}

#[test]
fn gentle_region_rises_from_max_p_to_one_then_drops_are_forced() {
    let n = 200_000;
    for q in [20u64, 25] {
        let seen = curve_point(RedConfig::default(), q, 1000, n);
        // p_b = max_p + (1 - max_p) (avg - max_th) / max_th
        let p_b = 0.1 + 0.9 * (q as f64 - 15.0) / 15.0;
        assert_eq!(seen[RedDecision::ForcedDrop as usize], 0);
        assert_fraction(
            &format!("gentle q {q}"),
            seen,
            seen[RedDecision::EarlyDrop as usize],
            p_b,
        );
    }
    for q in [31u64, 40] {
        let seen = curve_point(RedConfig::default(), q, 1000, 1_000);
        assert_eq!(seen[RedDecision::ForcedDrop as usize], 1_000, "q {q}");
    }
    // Without gentle, every arrival above max_th is a forced drop.
    let hard = RedConfig {
        gentle: false,
        ..RedConfig::default()
    };
    assert_eq!(
        curve_point(hard, 16, 1000, 1_000)[RedDecision::ForcedDrop as usize],
        1_000
    );
}

#[test]
fn region_boundaries_follow_fj93() {
    // w_q = 1 makes avg the sampled queue exactly. Probabilistic for min_th <= avg < max_th
    // (2 max_th when gentle), forced at or above.
    let exact = |gentle| RedConfig {
        w_q: 1.0,
        gentle,
        ..RedConfig::default()
    };
    let decide = |config: RedConfig, q: u64| {
        let (mut red, mut rng) = busy_red(config);
        let d = red.on_arrival(q, 1000, false, 0, true, &mut rng);
        (d, red.count())
    };
    assert_eq!(decide(exact(true), 4), (RedDecision::Enqueue, -1));
    // At min_th p_b = 0: the arrival is counted but never selected.
    assert_eq!(decide(exact(true), 5), (RedDecision::Enqueue, 0));
    assert_eq!(decide(exact(false), 15).0, RedDecision::ForcedDrop);
    assert_eq!(decide(exact(false), 15).1, 0);
    assert_ne!(decide(exact(true), 29).0, RedDecision::ForcedDrop);
    assert_eq!(decide(exact(true), 30).0, RedDecision::ForcedDrop);
}

#[test]
fn byte_mode_scales_the_probability_by_size_over_mean_size() {
    // Thresholds 2500 and 7500 bytes; at 4500 bytes waiting p_b = 0.1 * 2000 / 5000 = 0.04,
    // scaled by size / 500 to 0.02, 0.04 and 0.08.
    let config = RedConfig::default().in_bytes();
    let n = 400_000;
    for (size, p_b) in [(250u32, 0.02), (500, 0.04), (1000, 0.08)] {
        let seen = curve_point(config, 4500, size, n);
        assert_fraction(
            &format!("bytes size {size}"),
            seen,
            seen[RedDecision::EarlyDrop as usize],
            p_b,
        );
    }
    // 2400 bytes waiting is below min_th = 2500 bytes whatever the packet size.
    assert_eq!(curve_point(config, 2400, 1500, 10_000)[0], 10_000);
}

#[test]
fn idle_time_decays_the_average_by_one_minus_w_to_the_m() {
    // s = 500 B at 10 Mbit/s = 400 us; m = floor(idle / s). The arrival ending the idle period
    // is then an ordinary sample of the empty queue: avg = (1 - w)^m avg, then (1 - w) avg.
    let c = RedConfig::default();
    let s = 500 * 8 * 1_000_000_000 / RATE.0;
    assert_eq!(Red::new(c, RATE).typical_tx_ns(), s);
    for (idle, m) in [
        (0u64, 0u64),
        (s - 1, 0),
        (s, 1),
        (100_000_000, 250),
        (1_000_000_123, 2500),
        (10_000_000_000, 25_000),
    ] {
        let (mut red, mut rng) = busy_red(RedConfig {
            min_th: 1e9,
            max_th: 2e9,
            ..c
        });
        feed(&mut red, &mut rng, 3_000, 10, 1000);
        let before = red.avg();
        let t0 = 5_000_000;
        red.on_idle(t0);
        red.on_arrival(0, 1000, false, t0 + idle, true, &mut rng);
        let oracle = before * ((m + 1) as f64 * (-c.w_q).ln_1p()).exp();
        assert!(
            (red.avg() - oracle).abs() <= 1e-12 * before,
            "idle {idle}: {} vs {oracle}",
            red.avg()
        );
        // The next arrival on the (now busy) link is an ordinary sample.
        let after = red.avg();
        red.on_arrival(0, 1000, false, t0 + idle, true, &mut rng);
        assert_eq!(red.avg(), (1.0 - c.w_q) * after);
    }
}

#[test]
fn ecn_marks_exactly_where_it_would_drop_early_and_forced_drops_stay() {
    // Same seed, same queue sequence: an ECT packet is marked where a non-ECT one is dropped
    // early; forced drops are the same; without ECN on, ECT changes nothing.
    let ecn = RedConfig {
        ecn: true,
        ..RedConfig::default()
    };
    let run = |config: RedConfig, ect: bool| {
        let mut red = Red::new(config, RATE);
        let mut rng = RngStream::new(5, "x");
        (0..60_000u64)
            .map(|i| {
                // A ramp through every region: 0..50 packets and back, 1000 arrivals a step.
                let step = (i / 1000) % 100;
                let q = if step < 50 { step } else { 99 - step };
                red.on_arrival(q, 1000, ect, 0, true, &mut rng)
            })
            .collect::<Vec<_>>()
    };
    let plain = run(ecn, false);
    let marked = run(ecn, true);
    let count = |v: &[RedDecision], d| v.iter().filter(|&&x| x == d).count();
    for (a, b) in plain.iter().zip(&marked) {
        let expect = if *a == RedDecision::EarlyDrop {
            RedDecision::Mark
        } else {
            *a
        };
        assert_eq!(*b, expect);
    }
    assert!(count(&marked, RedDecision::Mark) > 100);
    assert!(count(&marked, RedDecision::ForcedDrop) > 100);
    assert_eq!(count(&marked, RedDecision::EarlyDrop), 0);
    let off = RedConfig {
        ecn: false,
        ..RedConfig::default()
    };
    assert_eq!(run(off, true), plain);
}

#[test]
fn a_drop_at_an_idle_link_starts_a_new_idle_period() {
    // The average is far above 2 max_th when the link goes idle at t0. Every arrival is a
    // forced drop and leaves the link idle, so each one decays the average by (1 - w)^(m + 1)
    // with m counted from the previous arrival; the first one accepted comes once the
    // average has fallen below 2 max_th = 30.
    let c = RedConfig::default();
    let (mut red, mut rng) = busy_red(c);
    feed(&mut red, &mut rng, 5_000, 60, 1000);
    let s = red.typical_tx_ns();
    let t0 = 1_000_000;
    red.on_idle(t0);
    let gap = 3 * s + s * 7 / 10; // arrivals 3.7 s apart: m = 3 from the previous one
    let ln = (-c.w_q).ln_1p();
    let mut oracle = red.avg();
    let mut now = t0 + s / 2; // m = 0 from t0
    let mut m = 0;
    let mut forced = 0;
    loop {
        oracle *= ((m + 1) as f64 * ln).exp();
        let d = red.on_arrival(0, 1000, false, now, true, &mut rng);
        assert!(
            (red.avg() - oracle).abs() <= 1e-9 * oracle,
            "{} vs {oracle}",
            red.avg()
        );
        if oracle < 30.0 {
            assert_ne!(d, RedDecision::ForcedDrop);
            break;
        }
        assert_eq!(d, RedDecision::ForcedDrop);
        forced += 1;
        now += gap;
        m = 3;
    }
    // From about 60 down to 30 in steps of (1 - w)^4: ln 2 / (4 * 0.002) = 87 arrivals.
    assert!((80..95).contains(&forced), "{forced}");
}

// ---------------------------------------------------------------------------------------
// RED links in the engine.

use common::H;

/// A Poisson source of 1000-byte packets with a fixed ECN codepoint, or a sink that logs
/// (sequence number, ECN codepoint) of what it receives.
#[derive(Default)]
struct Host {
    source: Option<Source>,
    received: Vec<(u64, Ecn)>,
}

struct Source {
    peer: Addr,
    flow: FlowId,
    mean_gap_ns: f64,
    ecn: Ecn,
    stop_at: u64,
    next_seq: u64,
}

impl Host {
    fn send<C: Ctx<H>>(&mut self, ctx: &mut C) {
        let Some(s) = self.source.as_mut() else {
            return;
        };
        let now = ctx.now().0;
        if now >= s.stop_at {
            return;
        }
        ctx.send(Packet {
            src: Addr::default(),
            dst: s.peer,
            flow: s.flow,
            size: 1000,
            sent_at: SimTime::ZERO,
            ecn: s.ecn,
            header: H { seq: s.next_seq },
        });
        s.next_seq += 1;
        let gap = ctx.rng().exponential(s.mean_gap_ns) as u64;
        ctx.set_timer(TimerSlot(0), SimTime(now + gap.max(1)));
    }
}

impl Agent<H> for Host {
    fn on_start<C: Ctx<H>>(&mut self, ctx: &mut C) {
        self.send(ctx);
    }
    fn on_packet<C: Ctx<H>>(&mut self, pkt: &Packet<H>, _ctx: &mut C) {
        self.received.push((pkt.header.seq, pkt.ecn));
    }
    fn on_timer<C: Ctx<H>>(&mut self, _slot: TimerSlot, ctx: &mut C) {
        self.send(ctx);
    }
}

/// Records the sequence numbers offered to a link (the hook runs before RED).
struct Recorder(Arc<Mutex<Vec<u64>>>);
impl RouterHook<H> for Recorder {
    fn on_enqueue(&mut self, _now: u64, pkt: &mut Packet<H>, _port: &PortState) -> Verdict {
        self.0.lock().unwrap().push(pkt.header.seq);
        Verdict::Forward
    }
}

struct Run {
    sim: Sim<H, Host>,
    bottleneck: LinkId,
    access: LinkId,
    /// Per source: the sink's log.
    sinks: Vec<Vec<(u64, Ecn)>>,
    offered_to_bottleneck: Vec<u64>,
}

/// s -> r (1 Gbit/s, 1 ms, loss `access_loss`) -> d (10 Mbit/s, 5 ms, `discipline`, 200
/// packets). One Poisson source per entry of `sources` (its ECN codepoint and rate in bit/s)
/// at s, each with a sink at d; sources stop at 4 s, the run ends at 6 s so queues drain.
fn red_run(seed: u64, discipline: Discipline, sources: &[(Ecn, f64)], access_loss: f64) -> Run {
    let mut sim: Sim<H, Host> = Sim::new(seed);
    let (s, r, d) = (sim.add_node("s"), sim.add_node("r"), sim.add_node("d"));
    let access = sim.add_link(
        s,
        r,
        LinkConfig {
            rate: Rate(1_000_000_000),
            delay: Dur(1_000_000),
            limit: QueueLimit::Packets(10_000),
            loss: access_loss,
            jitter: Dur::ZERO,
            discipline: Discipline::DropTail,
            trace: None,
        },
    );
    let bottleneck = sim.add_link(
        r,
        d,
        LinkConfig {
            rate: Rate(10_000_000),
            delay: Dur(5_000_000),
            limit: QueueLimit::Packets(200),
            loss: 0.0,
            jitter: Dur::ZERO,
            discipline,
            trace: None,
        },
    );
    let offered = Arc::new(Mutex::new(Vec::new()));
    sim.set_router_hook(bottleneck, Box::new(Recorder(offered.clone())));
    for (i, &(ecn, bps)) in sources.iter().enumerate() {
        let flow = sim.add_flow(&format!("f{i}"));
        let sink_addr = Addr {
            node: d.0,
            agent: sim.next_agent_addr(s).agent + 1,
        };
        let source = Source {
            peer: sink_addr,
            flow,
            mean_gap_ns: 8000.0 * 1e9 / bps,
            ecn,
            stop_at: 4_000_000_000,
            next_seq: 0,
        };
        let src = sim.add_agent(
            s,
            flow,
            &format!("src{i}"),
            Host {
                source: Some(source),
                ..Host::default()
            },
        );
        assert_eq!(
            sim.add_agent(d, flow, &format!("sink{i}"), Host::default()),
            sink_addr
        );
        sim.schedule_start(src, SimTime(0));
    }
    sim.build_routes();
    sim.configure_run(SimTime(6_000_000_000), SimTime(0), SeriesConfig::default());
    assert!(sim.run_until_horizon(u64::MAX).done);
    sim.check_conservation().unwrap();
    let sinks = (0..sources.len())
        .map(|i| sim.agents()[2 * i + 1].received.clone())
        .collect();
    let offered_to_bottleneck = offered.lock().unwrap().clone();
    Run {
        sim,
        bottleneck,
        access,
        sinks,
        offered_to_bottleneck,
    }
}

fn red_ecn() -> Discipline {
    Discipline::Red(RedConfig {
        ecn: true,
        ..RedConfig::default()
    })
}

fn drops(stats: &LinkStats, reason: DropReason) -> u64 {
    stats.drops[reason as usize]
}

fn ce_count(log: &[(u64, Ecn)]) -> u64 {
    log.iter().filter(|r| r.1 == Ecn::Ce).count() as u64
}

#[test]
fn an_overloaded_red_link_marks_ect_packets_and_drops_the_others() {
    // A 15 Mbit/s Poisson source into a 10 Mbit/s RED link, once ECT and once not.
    let ect = red_run(7, red_ecn(), &[(Ecn::Ect, 15e6)], 0.0);
    let not = red_run(7, red_ecn(), &[(Ecn::NotEct, 15e6)], 0.0);
    let (es, ns) = (
        ect.sim.link_stats(ect.bottleneck),
        not.sim.link_stats(not.bottleneck),
    );
    println!(
        "ECT: marks {} early {} forced {} full {}; not-ECT: marks {} early {} forced {} full {}",
        es.ecn_marks,
        drops(&es, DropReason::RedEarly),
        drops(&es, DropReason::RedForced),
        drops(&es, DropReason::QueueFull),
        ns.ecn_marks,
        drops(&ns, DropReason::RedEarly),
        drops(&ns, DropReason::RedForced),
        drops(&ns, DropReason::QueueFull),
    );
    // ECT: probabilistic selections become marks; every mark reaches the sink as CE; the only
    // drops are forced ones (the marks do not slow this source, so the average climbs).
    assert!(es.ecn_marks > 100, "{es:?}");
    assert_eq!(drops(&es, DropReason::RedEarly), 0);
    assert_eq!(ce_count(&ect.sinks[0]), es.ecn_marks);
    let f = ect.sim.flow_stats()[0];
    assert_eq!(f.dropped_packets, es.total_drops());
    assert_eq!(f.sent_packets, f.delivered_packets + f.dropped_packets);
    // Not ECT: early drops, no marks, no CE at the sink.
    assert!(drops(&ns, DropReason::RedEarly) > 100, "{ns:?}");
    assert_eq!(ns.ecn_marks, 0);
    assert_eq!(ce_count(&not.sinks[0]), 0);
    // The two runs are identical up to RED's first selection: the first CE packet of one is
    // the first missing packet of the other.
    let first_ce = ect.sinks[0].iter().find(|r| r.1 == Ecn::Ce).unwrap().0;
    let first_gap = not.sinks[0]
        .iter()
        .enumerate()
        .find(|(i, r)| r.0 != *i as u64)
        .unwrap()
        .0 as u64;
    assert_eq!(first_ce, first_gap);
    // The average is exposed for RED links only, and was above min_th in the overload.
    assert!(ect.sim.red_average(ect.bottleneck).is_some());
    assert_eq!(ect.sim.red_average(ect.access), None);
}

#[test]
fn mixed_flows_only_ect_packets_are_marked_and_runs_are_deterministic() {
    let sources = [(Ecn::Ect, 7.5e6), (Ecn::NotEct, 7.5e6)];
    let a = red_run(3, red_ecn(), &sources, 0.0);
    let stats = a.sim.link_stats(a.bottleneck);
    let (ect_flow, not_flow) = (a.sim.flow_stats()[0], a.sim.flow_stats()[1]);
    assert!(
        stats.ecn_marks > 50 && drops(&stats, DropReason::RedEarly) > 50,
        "{stats:?}"
    );
    assert_eq!(ce_count(&a.sinks[0]), stats.ecn_marks);
    assert_eq!(ce_count(&a.sinks[1]), 0);
    // ECT packets are never dropped early: the ECT flow lost only forced or overflow drops.
    let forced_or_full =
        drops(&stats, DropReason::RedForced) + drops(&stats, DropReason::QueueFull);
    assert!(ect_flow.dropped_packets <= forced_or_full);
    assert!(not_flow.dropped_packets >= drops(&stats, DropReason::RedEarly));
    assert_eq!(
        ect_flow.dropped_packets + not_flow.dropped_packets,
        stats.total_drops()
    );
    // Same seed, same everything; another seed, another run.
    let b = red_run(3, red_ecn(), &sources, 0.0);
    assert_eq!(a.sinks, b.sinks);
    assert_eq!(stats, b.sim.link_stats(b.bottleneck));
    assert_eq!(
        a.sim.red_average(a.bottleneck).unwrap().to_bits(),
        b.sim.red_average(b.bottleneck).unwrap().to_bits()
    );
    let c = red_run(4, red_ecn(), &sources, 0.0);
    assert_ne!(a.sinks, c.sinks);
}

#[test]
fn red_on_one_link_leaves_other_streams_alone() {
    // The access link's loss draws and the sources' draws do not depend on the bottleneck's
    // discipline: the packets offered to the bottleneck are the same sequence either way.
    let sources = [(Ecn::NotEct, 15e6)];
    let tail = red_run(9, Discipline::DropTail, &sources, 0.05);
    let red = red_run(9, red_ecn(), &sources, 0.05);
    let lost = |r: &Run| drops(&r.sim.link_stats(r.access), DropReason::RandomLoss);
    assert!(lost(&tail) > 0);
    assert_eq!(lost(&tail), lost(&red));
    assert_eq!(tail.offered_to_bottleneck, red.offered_to_bottleneck);
    // ... while the bottleneck itself behaves differently.
    let bs = |r: &Run| r.sim.link_stats(r.bottleneck);
    assert_eq!(drops(&bs(&tail), DropReason::RedEarly), 0);
    assert!(drops(&bs(&red), DropReason::RedEarly) > 0);
    assert!(drops(&bs(&tail), DropReason::QueueFull) > 0);
}

#[test]
fn drop_reason_names_and_counters_line_up() {
    assert_eq!(DropReason::ALL.len(), DropReason::COUNT);
    assert_eq!(LinkStats::default().drops.len(), DropReason::COUNT);
    for (i, r) in DropReason::ALL.iter().enumerate() {
        assert_eq!(*r as usize, i);
    }
    assert_eq!(DropReason::RedEarly.name(), "red_early");
    assert_eq!(DropReason::RedForced.name(), "red_forced");
}
