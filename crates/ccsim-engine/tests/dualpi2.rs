//! DualPI2 (RFC 9332; Linux `sch_dualpi2`), each check against something independent: the PI
//! recurrence of RFC 9332 appendix A.1 computed in floating point, the coupling relation
//! `p_C = (p_CL / k)^2` (section 2.4) measured on the decisions, the classification of
//! RFC 9331 section 4, the rate balance of an unresponsive source (the only drop probability
//! that matches 1.2 times the link rate to it is 1 - 1/1.2), the step's sojourn times worked
//! by hand, conservation and determinism.

use crate::common;

use ccsim_core::{Addr, Agent, Ctx, Dur, Ecn, FlowId, Packet, Rate, RngStream, SimTime, TimerSlot};
use ccsim_engine::dualpi2::{Action, DualPi2, Queue, MAX_PROB};
use ccsim_engine::{
    Discipline, DropReason, DualPi2Config, DualPi2Stats, L4sClass, LinkConfig, LinkId, QueueLimit,
    SeriesConfig, Sim,
};

use common::H;

const MS: u64 = 1_000_000;

// ---------------------------------------------------------------------------------------
// The state machine alone.

/// RFC 9332 appendix A.1's PI update in floating point, gains in Hz, delays in seconds.
fn rfc_pi(p: f64, q: f64, q_prev: f64, target: f64) -> f64 {
    (p + 0.16 * (q - target) + 3.2 * (q - q_prev)).clamp(0.0, 1.0)
}

#[test]
fn pi_update_follows_rfc_9332_appendix_a() {
    // One C packet sits at the head from t = 5 ms while the link is busy: the queue delay at
    // the n-th update instant (n x 16 ms) is n x 16 ms - 5 ms. Then the head leaves at
    // 200 ms and the queue is empty: the integral term winds p' down.
    let mut d = DualPi2::new(DualPi2Config::default(), 0);
    let mut rng = RngStream::new(1, "test");
    d.advance(5 * MS);
    assert_eq!(
        d.enqueue(0, 1000, Ecn::NotEct, 5 * MS, &mut rng),
        Action::Pass
    );
    let (mut p, mut q_prev) = (0.0f64, 0.0f64);
    let mut n = 1u64;
    let mut worst = 0.0f64;
    for until in [20, 50, 100, 199, 200, 300, 600, 2000] {
        let now = until * MS;
        d.advance(now);
        while n * 16 * MS <= now {
            let t = n * 16 * MS;
            let q = if t < 200 * MS {
                (t - 5 * MS) as f64 / 1e9
            } else {
                0.0
            };
            p = rfc_pi(p, q, q_prev, 0.015);
            q_prev = q;
            n += 1;
        }
        let got = d.base_probability();
        // Linux's gains are 41/256 and 819/256 Hz scaled to 44 and 879 units per 64 ns
        // (0.16007 and 3.1977 Hz), and each update truncates to 2^-32: within 0.1 % of p
        // plus 1e-6.
        let err = (got - p).abs();
        worst = worst.max(err);
        assert!(err <= 1e-3 * p + 1e-6, "at {until} ms: {got} vs RFC {p}");
        if until == 199 {
            assert!(p > 0.3, "the scripted queue must drive p' up: {p}");
            // The head leaves just before the update at 208 ms.
            let out = d.dequeue(now, &mut rng);
            assert!(matches!(out, Some((_, Queue::C, Action::Pass))), "{out:?}");
        }
    }
    assert_eq!(d.prob(), 0, "an empty queue winds p' down to 0");
    println!("largest |p' - RFC| = {worst:e}");
}

/// Enqueue `n` packets of each codepoint in `mix` at `now` and dequeue them all at the same
/// instant (no update in between, so p' is fixed): (dequeued, marked, dropped) per codepoint.
fn decisions(d: &mut DualPi2, rng: &mut RngStream, now: u64, mix: &[Ecn], n: u32) -> Vec<[u64; 3]> {
    let mut idx = 0u32;
    for _ in 0..n {
        for &e in mix {
            assert_eq!(d.enqueue(idx, 1000, e, now, rng), Action::Pass);
            idx += 1;
        }
    }
    let mut out = vec![[0u64; 3]; mix.len()];
    // Stop while the two-MTU guard still lets decisions happen.
    while d.backlog() >= 4000 {
        let (e, _, a) = d.dequeue(now, rng).unwrap();
        let k = (e.idx as usize) % mix.len();
        out[k][0] += 1;
        match a {
            Action::Mark => out[k][1] += 1,
            Action::Drop => out[k][2] += 1,
            Action::Pass => {}
        }
    }
    out
}

#[test]
fn coupled_probabilities_satisfy_p_c_equals_p_cl_over_k_squared() {
    // RFC 9332 section 2.4: p_C = p'^2 and p_CL = k p', so p_C = (p_CL / k)^2 whatever p'.
    // Drive p' up with a scripted queue, then measure both on 200 000 packets each.
    for k in [2u8, 3] {
        let mut d = DualPi2::new(
            DualPi2Config {
                coupling_factor: k,
                ..DualPi2Config::default()
            },
            0,
        );
        let mut rng = RngStream::new(5, "test");
        d.enqueue(u32::MAX, 1000, Ecn::NotEct, 0, &mut rng);
        d.advance(64 * MS);
        let p = d.base_probability();
        assert!(p * f64::from(k) < 1.0 && p > 0.1, "p' = {p}");
        // Not-ECT and ECT(0) in C, ECT(1) in L.
        let counts = decisions(
            &mut d,
            &mut rng,
            64 * MS,
            &[Ecn::NotEct, Ecn::Ect, Ecn::Ect1],
            200_000,
        );
        let frac = |c: [u64; 3], i: usize| c[i] as f64 / c[0] as f64;
        let p_c_drop = frac(counts[0], 2);
        let p_c_mark = frac(counts[1], 1);
        let p_cl = frac(counts[2], 1);
        let predicted = (p_cl / f64::from(k)).powi(2);
        // Binomial standard errors: p_C's, and the prediction's through the delta method.
        let n = counts[0][0] as f64;
        let se_c = (p_c_drop * (1.0 - p_c_drop) / n).sqrt();
        let se_pred = 2.0 * (p_cl / f64::from(k)) / f64::from(k)
            * (p_cl * (1.0 - p_cl) / counts[2][0] as f64).sqrt();
        let tol = 5.0 * (se_c * se_c + se_pred * se_pred).sqrt();
        println!(
            "k {k}: p' {p:.4}  p_C drops {p_c_drop:.5} marks {p_c_mark:.5}  p_CL {p_cl:.5}  \
             (p_CL/k)^2 {predicted:.5}  5 se {tol:.5}"
        );
        assert!(
            (p_c_drop - predicted).abs() < tol,
            "Not-ECT drops vs (p_CL/k)^2"
        );
        assert!(
            (p_c_mark - predicted).abs() < tol,
            "ECT(0) marks vs (p_CL/k)^2"
        );
        // No drop of ECN-capable packets and no mark of Not-ECT ones below overload.
        assert_eq!(counts[0][1], 0);
        assert_eq!(counts[1][2] + counts[2][2], 0);
        // And each against p' itself.
        assert!((p_cl - f64::from(k) * p).abs() < 5.0 * (p_cl * (1.0 - p_cl) / n).sqrt());
        assert!((p_c_drop - p * p).abs() < 5.0 * se_c);
    }
}

#[test]
fn overload_drops_l4s_packets_with_p_c_and_overflow_caps_the_probability() {
    // A head sitting for 1 s drives p' to 1: k p' > 1 is overload (RFC 9332 section
    // 4.2.3). With drop_on_overload every ECN-capable packet is dropped with p_C = p'^2 = 1.
    let mut d = DualPi2::new(DualPi2Config::default(), 0);
    let mut rng = RngStream::new(2, "test");
    d.enqueue(u32::MAX, 1000, Ecn::NotEct, 0, &mut rng);
    d.advance(1000 * MS);
    assert_eq!(d.prob(), MAX_PROB);
    let c = decisions(&mut d, &mut rng, 1000 * MS, &[Ecn::Ect1, Ecn::Ect], 1000);
    assert!(c.iter().all(|c| c[2] >= c[0] - 2), "{c:?}");
    // overflow: p' stops at 1/k, the L queue is marked with k p' = 1 and never dropped.
    let mut d = DualPi2::new(
        DualPi2Config {
            drop_on_overload: false,
            ..DualPi2Config::default()
        },
        0,
    );
    d.enqueue(u32::MAX, 1000, Ecn::NotEct, 0, &mut rng);
    d.advance(1000 * MS);
    assert_eq!(d.prob(), MAX_PROB / 2);
    let c = decisions(&mut d, &mut rng, 1000 * MS, &[Ecn::Ect1], 1000);
    assert_eq!(c[0][2], 0);
    // All but the scripted Not-ECT head (counted in the same column) are marked.
    assert!(c[0][1] + 1 >= c[0][0], "{c:?}");
}

#[test]
fn classification_of_the_four_codepoints_in_both_modes() {
    // RFC 9331 section 4 / RFC 9332 section 2.3: ECT(1) and CE are L4S; Linux's any_ect also
    // takes ECT(0); Not-ECT is always classic.
    let l4s = DualPi2::new(DualPi2Config::default(), 0);
    let any = DualPi2::new(
        DualPi2Config {
            class: L4sClass::AnyEct,
            ..DualPi2Config::default()
        },
        0,
    );
    let table = [
        (Ecn::NotEct, Queue::C, Queue::C),
        (Ecn::Ect, Queue::C, Queue::L),
        (Ecn::Ect1, Queue::L, Queue::L),
        (Ecn::Ce, Queue::L, Queue::L),
    ];
    for (ecn, a, b) in table {
        assert_eq!(l4s.classify(ecn), a, "l4s_ect {ecn:?}");
        assert_eq!(any.classify(ecn), b, "any_ect {ecn:?}");
    }
    // And on a link: one packet of each codepoint per round, counted by queue.
    for (class, l_per_round) in [(L4sClass::L4sEct, 2), (L4sClass::AnyEct, 3)] {
        let sources: Vec<Src> = [Ecn::NotEct, Ecn::Ect, Ecn::Ect1, Ecn::Ce]
            .iter()
            .map(|&ecn| Src::cbr(ecn, 1e6, 1_000 * MS))
            .collect();
        let r = run(
            1,
            DualPi2Config {
                class,
                ..DualPi2Config::default()
            },
            sources,
            2_000 * MS,
            &[],
        );
        let s = &r.sim.dualpi2(r.link).unwrap().stats;
        assert_eq!(s.packets_in_l, 125 * l_per_round, "{class:?} {s:?}");
        assert_eq!(s.packets_in_c, 125 * (4 - l_per_round), "{class:?}");
    }
}

// ---------------------------------------------------------------------------------------
// DualPI2 links in the engine.

/// A source of 1000-byte packets: constant rate from 0 to `stop_at`, or a burst of `burst`
/// packets back to back at time 0; or (no source) a sink logging (seq, ECN).
#[derive(Default)]
struct Host {
    src: Option<Src>,
    peer: Addr,
    flow: FlowId,
    received: Vec<(u64, Ecn)>,
}

#[derive(Clone)]
struct Src {
    ecn: Ecn,
    gap_ns: u64,
    stop_at: u64,
    burst: u64,
    next_seq: u64,
}

impl Src {
    fn cbr(ecn: Ecn, bps: f64, stop_at: u64) -> Src {
        Src {
            ecn,
            gap_ns: (8000.0 * 1e9 / bps) as u64,
            stop_at,
            burst: 0,
            next_seq: 0,
        }
    }
    fn burst(ecn: Ecn, n: u64) -> Src {
        Src {
            ecn,
            gap_ns: 0,
            stop_at: 0,
            burst: n,
            next_seq: 0,
        }
    }
}

impl Host {
    fn packet(&mut self) -> Packet<H> {
        let s = self.src.as_mut().unwrap();
        s.next_seq += 1;
        Packet {
            src: Addr::default(),
            dst: self.peer,
            flow: self.flow,
            size: 1000,
            sent_at: SimTime::ZERO,
            ecn: s.ecn,
            header: H {
                seq: s.next_seq - 1,
            },
        }
    }
}

impl Agent<H> for Host {
    fn on_start<C: Ctx<H>>(&mut self, ctx: &mut C) {
        let Some(s) = self.src.as_ref() else {
            return;
        };
        for _ in 0..s.burst {
            let p = self.packet();
            ctx.send(p);
        }
        if self.src.as_ref().unwrap().gap_ns > 0 {
            self.on_timer(TimerSlot(0), ctx);
        }
    }
    fn on_packet<C: Ctx<H>>(&mut self, pkt: &Packet<H>, _ctx: &mut C) {
        self.received.push((pkt.header.seq, pkt.ecn));
    }
    fn on_timer<C: Ctx<H>>(&mut self, _slot: TimerSlot, ctx: &mut C) {
        let now = ctx.now().0;
        let s = self.src.as_ref().unwrap();
        if now >= s.stop_at {
            return;
        }
        let gap = s.gap_ns;
        let p = self.packet();
        ctx.send(p);
        ctx.set_timer(TimerSlot(0), SimTime(now + gap));
    }
}

struct Run {
    sim: Sim<H, Host>,
    link: LinkId,
    /// The DualPI2 counters at each of the `marks` instants.
    at: Vec<DualPi2Stats>,
    /// Per source, its sink's log.
    sinks: Vec<Vec<(u64, Ecn)>>,
}

/// Sources at node s, sinks at d, one 10 Mbit/s, 1 ms DualPI2 link s -> d (10000 packets).
/// Runs to `end`, taking the DualPI2 counters at each of `marks`.
fn run(seed: u64, config: DualPi2Config, sources: Vec<Src>, end: u64, marks: &[u64]) -> Run {
    run_limit(seed, config, sources, end, marks, 10_000)
}

fn run_limit(
    seed: u64,
    config: DualPi2Config,
    sources: Vec<Src>,
    end: u64,
    marks: &[u64],
    limit: u64,
) -> Run {
    let mut sim: Sim<H, Host> = Sim::new(seed);
    let (s, d) = (sim.add_node("s"), sim.add_node("d"));
    let link = sim.add_link(
        s,
        d,
        LinkConfig {
            rate: Rate(10_000_000),
            delay: Dur(MS),
            limit: QueueLimit::Packets(limit),
            loss: 0.0,
            jitter: Dur::ZERO,
            discipline: Discipline::DualPi2(config),
            trace: None,
        },
    );
    let n = sources.len();
    for (i, src) in sources.into_iter().enumerate() {
        let flow = sim.add_flow(&format!("f{i}"));
        let sink = Addr {
            node: d.0,
            agent: sim.next_agent_addr(s).agent + 1,
        };
        let a = sim.add_agent(
            s,
            flow,
            &format!("src{i}"),
            Host {
                src: Some(src),
                peer: sink,
                flow,
                received: Vec::new(),
            },
        );
        assert_eq!(
            sim.add_agent(d, flow, &format!("sink{i}"), Host::default()),
            sink
        );
        sim.schedule_start(a, SimTime(0));
    }
    sim.build_routes();
    sim.configure_run(SimTime(end), SimTime(0), SeriesConfig::default());
    let mut at = Vec::new();
    for &m in marks {
        sim.run_until(SimTime(m), u64::MAX);
        at.push(sim.dualpi2(link).unwrap().stats.clone());
    }
    assert!(sim.run_until_horizon(u64::MAX).done);
    sim.check_conservation().unwrap();
    let sinks = (0..n)
        .map(|i| sim.agents()[2 * i + 1].received.clone())
        .collect();
    Run {
        sim,
        link,
        at,
        sinks,
    }
}

fn drops(r: &Run, reason: DropReason) -> u64 {
    r.sim.link_stats(r.link).drops[reason as usize]
}

#[test]
fn unresponsive_classic_cbr_at_1_2_times_the_rate_settles_at_target_and_one_sixth() {
    // 12 Mbit/s of Not-ECT into 10 Mbit/s. The link sends 10 Mbit/s, so in steady state the
    // drop fraction is 1 - 1/1.2 = 1/6 (the only p_C that balances the rates), p' = sqrt(1/6)
    // = 0.408, and the PI integral holds the mean queue delay at its 15 ms target.
    let r = run(
        3,
        DualPi2Config::default(),
        vec![Src::cbr(Ecn::NotEct, 12e6, 40_000 * MS)],
        40_000 * MS,
        &[10_000 * MS, 40_000 * MS],
    );
    let w = r.at[1].since(&r.at[0]);
    let offered = w.packets_in_c;
    let drop_frac = w.c_drops as f64 / offered as f64;
    let mean = w.c_sojourn.mean_s().unwrap();
    let p99 = w.c_sojourn.quantile_s(0.99).unwrap();
    let p = r.sim.dualpi2(r.link).unwrap().base_probability();
    println!(
        "C: offered {offered} dropped {} ({drop_frac:.5}) sojourn mean {:.3} ms p99 {:.3} ms; \
         p' at the end {p:.4} (p'^2 {:.4})",
        w.c_drops,
        mean * 1e3,
        p99 * 1e3,
        p * p
    );
    // The window is 30 s of 1500 packets/s = 45 000 offered; the queue holds about 19
    // packets at 15 ms, so the drop fraction is 1/6 to within the queue's change over the
    // window (< 100 packets, 0.2 %): 0.005 absolute.
    assert!((drop_frac - 1.0 / 6.0).abs() < 0.005, "{drop_frac}");
    // The integral term makes the mean delay error over the window at most (p'(end) -
    // p'(start)) / (alpha x window): tiny. What the mean sojourn of the sent packets
    // differs by is how the head's delay at the update instants samples the queue: ±2 ms
    // (the queue moves by one 0.8 ms packet per departure, and by ±3 packets of Poisson-like
    // drop noise).
    assert!((mean - 0.015).abs() < 0.002, "{mean}");
    assert_eq!(drops(&r, DropReason::QueueFull), 0);
    assert_eq!(drops(&r, DropReason::Dualpi2C), r.at[1].c_drops);
    assert_eq!(r.sim.link_stats(r.link).ecn_marks, 0);
}

#[test]
fn unresponsive_l4s_cbr_at_1_2_times_the_rate_is_marked_and_dropped_on_overload() {
    // 12 Mbit/s of ECT(1) into 10 Mbit/s. Marks do not slow it: the queue grows until
    // k p' > 1 (overload), where L packets are dropped with p_C = p'^2 >= 1/4; the time
    // average of the drops must still be 1/6 of the offered (the rate balance), so p'
    // hovers at the overload boundary 1/k = 0.5.
    let r = run(
        4,
        DualPi2Config::default(),
        vec![Src::cbr(Ecn::Ect1, 12e6, 40_000 * MS)],
        41_000 * MS,
        &[10_000 * MS, 40_000 * MS],
    );
    let w = r.at[1].since(&r.at[0]);
    let offered = w.packets_in_l;
    let sent = offered - w.l_drops;
    let drop_frac = w.l_drops as f64 / offered as f64;
    let marks = w.l_step_marks + w.l_coupled_marks;
    let mean = w.l_sojourn.mean_s().unwrap();
    let p = r.sim.dualpi2(r.link).unwrap().base_probability();
    println!(
        "L: offered {offered} dropped {} ({drop_frac:.5}) marked {marks} of {sent} sent \
         (step {} coupled {}); sojourn mean {:.3} ms p99 {:.3} ms; p' at the end {p:.4}",
        w.l_drops,
        w.l_step_marks,
        w.l_coupled_marks,
        mean * 1e3,
        w.l_sojourn.quantile_s(0.99).unwrap() * 1e3
    );
    assert!((drop_frac - 1.0 / 6.0).abs() < 0.005, "{drop_frac}");
    // Every packet sent waited far beyond the 1 ms step or was marked on overload.
    assert!(marks as f64 > 0.99 * sent as f64, "{marks} of {sent}");
    assert!((0.45..0.55).contains(&p), "{p}");
    assert_eq!(
        drops(&r, DropReason::Dualpi2L),
        r.sim.dualpi2(r.link).unwrap().stats.l_drops
    );
    assert_eq!(drops(&r, DropReason::QueueFull), 0);
    // The run ends 1 s after the source stops: everything marked has arrived, as CE.
    assert_eq!(
        r.sinks[0].iter().filter(|x| x.1 == Ecn::Ce).count() as u64,
        r.sim.link_stats(r.link).ecn_marks
    );
}

#[test]
fn with_overflow_an_unresponsive_l4s_source_fills_the_queue_instead() {
    // tc-dualpi2 `overflow`: p' is capped at 1/k, so there is never an AQM drop; the queue
    // grows to its limit (1000 packets, 0.8 s at 10 Mbit/s) and tail drops take the excess.
    let r = run_limit(
        4,
        DualPi2Config {
            drop_on_overload: false,
            ..DualPi2Config::default()
        },
        vec![Src::cbr(Ecn::Ect1, 12e6, 20_000 * MS)],
        20_000 * MS,
        &[10_000 * MS, 20_000 * MS],
        1000,
    );
    let w = r.at[1].since(&r.at[0]);
    let mean = w.l_sojourn.mean_s().unwrap();
    println!(
        "overflow: AQM drops {} tail drops {} sojourn mean {:.1} ms",
        w.l_drops,
        drops(&r, DropReason::QueueFull),
        mean * 1e3
    );
    assert_eq!(r.at[1].l_drops, 0);
    assert!(drops(&r, DropReason::QueueFull) > 0);
    // A full queue of 1000 packets of 0.8 ms: 0.8 s.
    assert!((mean - 0.8).abs() < 0.01, "{mean}");
}

#[test]
fn the_step_marks_only_packets_that_waited_more_than_1_ms() {
    // A burst of 10 ECT(1) packets at t = 0 into an idle 10 Mbit/s link: packet i leaves
    // the queue after i x 0.8 ms (packet 0 goes straight into service). Only sojourns above
    // step_thresh = 1 ms are marked: packets 2..9. p' is still 0 (the first update is at
    // 16 ms), so there is no coupled mark.
    let r = run(
        5,
        DualPi2Config::default(),
        vec![Src::burst(Ecn::Ect1, 10)],
        100 * MS,
        &[],
    );
    let s = &r.sim.dualpi2(r.link).unwrap().stats;
    let ce: Vec<u64> = r.sinks[0]
        .iter()
        .filter(|x| x.1 == Ecn::Ce)
        .map(|x| x.0)
        .collect();
    assert_eq!(ce, (2..10).collect::<Vec<_>>());
    assert_eq!((s.l_step_marks, s.l_coupled_marks), (8, 0));
    assert_eq!(r.sim.link_stats(r.link).ecn_marks, 8);
    // The sojourn times are exact: 0, 0.8, ..., 7.2 ms; mean 3.6 ms.
    assert_eq!(s.l_sojourn.count, 10);
    assert_eq!(
        s.l_sojourn.sum_ns,
        (0..10u128).map(|i| i * 800_000).sum::<u128>()
    );
    // A 2 ms step spares the packets that waited 0.8 and 1.6 ms too.
    let r = run(
        5,
        DualPi2Config {
            step_thresh: ccsim_engine::StepThresh::Time(2 * MS),
            ..DualPi2Config::default()
        },
        vec![Src::burst(Ecn::Ect1, 10)],
        100 * MS,
        &[],
    );
    let ce = r.sinks[0].iter().filter(|x| x.1 == Ecn::Ce).count();
    assert_eq!(ce, 7);
    // min_qlen_step = 5: a packet is subject to the step only if it found 5 in the L queue
    // (packet i finds i - 1 waiting): packets 6..9.
    let r = run(
        5,
        DualPi2Config {
            min_qlen_step: 5,
            ..DualPi2Config::default()
        },
        vec![Src::burst(Ecn::Ect1, 10)],
        100 * MS,
        &[],
    );
    let ce: Vec<u64> = r.sinks[0]
        .iter()
        .filter(|x| x.1 == Ecn::Ce)
        .map(|x| x.0)
        .collect();
    assert_eq!(ce, (6..10).collect::<Vec<_>>());
}

#[test]
fn same_seed_same_run_and_the_wrr_serves_both_queues() {
    let mix = || {
        vec![
            Src::cbr(Ecn::NotEct, 7e6, 5_000 * MS),
            Src::cbr(Ecn::Ect1, 7e6, 5_000 * MS),
        ]
    };
    let a = run(9, DualPi2Config::default(), mix(), 6_000 * MS, &[]);
    let b = run(9, DualPi2Config::default(), mix(), 6_000 * MS, &[]);
    let c = run(10, DualPi2Config::default(), mix(), 6_000 * MS, &[]);
    let (sa, sb) = (
        &a.sim.dualpi2(a.link).unwrap().stats,
        &b.sim.dualpi2(b.link).unwrap().stats,
    );
    assert_eq!(sa, sb);
    assert_eq!(a.sinks, b.sinks);
    assert_eq!(a.sim.link_stats(a.link), b.sim.link_stats(b.link));
    assert_eq!(
        a.sim.dualpi2(a.link).unwrap().prob(),
        b.sim.dualpi2(b.link).unwrap().prob()
    );
    assert_ne!(a.sinks, c.sinks);
    // 14 Mbit/s into 10: both queues get service, and the L queue's delay stays far below
    // the C queue's (the point of the dual queue, RFC 9332 section 1).
    let (l, cq) = (
        sa.l_sojourn.mean_s().unwrap(),
        sa.c_sojourn.mean_s().unwrap(),
    );
    println!(
        "mix: L sojourn {:.3} ms, C sojourn {:.3} ms; L drops {} C drops {}; marks step {} coupled {}",
        l * 1e3,
        cq * 1e3,
        sa.l_drops,
        sa.c_drops,
        sa.l_step_marks,
        sa.l_coupled_marks
    );
    assert!(a.sinks[0].len() > 1000 && a.sinks[1].len() > 1000);
    assert!(l < cq, "{l} {cq}");
}
