//! XCP's parts as state machines. The router's numbers are worked by hand from equations 1-9
//! of Katabi, Handley and Rohrs (2002) and written here as literals; the sender's from section
//! 3.3's window rule; the receiver's from section 3.4.

use ccsim_core::{Addr, Agent, Dur, Ecn, FlowId, Header, Packet, Rate, RngStream, SimTime};

use super::*;
use crate::testing::MockCtx;
use crate::{Hdr, TcpConfig, TcpSink};

const SRC: Addr = Addr { node: 1, agent: 1 };
const DST: Addr = Addr { node: 2, agent: 2 };

fn ms(x: f64) -> SimTime {
    SimTime((x * 1e6).round() as u64)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

fn data(cwnd: u32, rtt_us: u32, feedback: f32) -> Packet<Hdr> {
    Packet {
        src: SRC,
        dst: DST,
        flow: FlowId(1),
        size: 1000,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::XcpData {
            seq: 0,
            retx: false,
            cwnd,
            rtt_us,
            feedback,
        },
    }
}

fn feedback_of(pkt: &Packet<Hdr>) -> f32 {
    match pkt.header {
        Hdr::XcpData { feedback, .. } => feedback,
        _ => panic!("not XCP data"),
    }
}

/// An egress port as the router sees it: a fixed queue, and every packet counted as offered.
struct Port {
    rate: Rate,
    queue_bytes: u64,
    offered: u64,
}

impl Port {
    fn new(bps: u64, queue_bytes: u64) -> Self {
        Port {
            rate: Rate(bps),
            queue_bytes,
            offered: 0,
        }
    }
    fn offer(&mut self, r: &mut XcpRouter, now: SimTime, mut pkt: Packet<Hdr>) -> Packet<Hdr> {
        self.offered += u64::from(pkt.size);
        let view = XcpPort {
            rate: self.rate,
            queue_bytes: self.queue_bytes,
            bytes_offered: self.offered,
        };
        r.on_packet(now, &mut pkt, view);
        pkt
    }
}

/// One flow, 1000-byte packets, H_cwnd 50 000 B, H_rtt 100 ms, every `gap_ms` from 0 until
/// the first control interval (50 ms) has ended; returns the packet that ended it.
fn one_flow_first_interval(r: &mut XcpRouter, port: &mut Port, gap_ms: f64) -> Packet<Hdr> {
    let mut t = 0.0;
    loop {
        let out = port.offer(r, ms(t), data(50_000, 100_000, f32::MAX));
        if r.intervals() == 1 {
            return out;
        }
        assert_eq!(feedback_of(&out), 0.0, "no feedback in the first interval");
        t += gap_ms;
    }
}

#[test]
fn efficiency_and_fairness_controllers_at_a_worked_point_with_spare_bandwidth() {
    // C = 9 Mbit/s = 1.125e6 B/s; one packet per ms = 1e6 B/s; no queue.
    let mut r = XcpRouter::new(XcpRouterConfig::paper());
    let mut port = Port::new(9_000_000, 0);
    let closer = one_flow_first_interval(&mut r, &mut port, 1.0);
    let d = *r.decision();
    // The interval [0, 50 ms) held 50 packets: 50 000 B in 0.05 s.
    assert_eq!(d.input_bytes, 50_000);
    assert!(close(d.measured_secs, 0.05));
    // d = sum(rtt^2 s/cwnd) / sum(rtt s/cwnd) = 0.1 s (one flow).
    assert!(close(d.d, 0.1), "{}", d.d);
    // S = 1.125e6 - 1e6 = 1.25e5 B/s; phi = 0.4 * 0.1 * 1.25e5 - 0 = 5000 B.
    assert!(close(d.spare, 125_000.0), "{}", d.spare);
    assert!(close(d.phi, 5000.0), "{}", d.phi);
    // h = max(0, 0.1 * (1e6 * 0.1) - 5000) = 5000 B.
    assert!(close(d.shuffle, 5000.0), "{}", d.shuffle);
    // Next interval's sums: 100 packets; sum rtt s/cwnd = 100 * 0.1 * 1000/50 000 = 0.2.
    // xi_p = (5000 + 5000) / (0.1 * 0.2) = 5e5; xi_n = 5000 / (0.1 * 100 000) = 0.5.
    assert!(close(d.xi_p, 500_000.0), "{}", d.xi_p);
    assert!(close(d.xi_n, 0.5), "{}", d.xi_n);
    // p = 5e5 * 0.01 * 1000/50 000 = 100 B; n = 0.5 * 0.1 * 1000 = 50 B; feedback +50 B.
    assert!(close(f64::from(feedback_of(&closer)), 50.0));
    // The budgets: (h + phi) / d = 1e5 B/s, (h + 0) / d = 5e4 B/s, less this packet's
    // 100/0.1 and 50/0.1.
    assert!(close(d.budget_pos, 100_000.0) && close(d.budget_neg, 50_000.0));
    let (pos, neg) = r.residues();
    assert!(close(pos, 99_000.0) && close(neg, 49_500.0), "{pos} {neg}");
}

#[test]
fn a_packet_throttled_upstream_keeps_its_feedback_and_is_booked_against_the_residues() {
    // The worked point above: this router would give +50 B (p = 100, n = 50, rtt 0.1 s);
    // residues 99 000 and 49 500 B/s after the packet that ended the interval.
    let mut r = XcpRouter::new(XcpRouterConfig::paper());
    let mut port = Port::new(9_000_000, 0);
    one_flow_first_interval(&mut r, &mut port, 1.0);
    // H = 10 < 50: kept; positive residue less 10/0.1, negative less (50 - 10)/0.1.
    let out = port.offer(&mut r, ms(51.0), data(50_000, 100_000, 10.0));
    assert_eq!(feedback_of(&out), 10.0);
    let (pos, neg) = r.residues();
    assert!(close(pos, 98_900.0) && close(neg, 49_100.0), "{pos} {neg}");
    // H = -20 < 50: kept; positive residue untouched, negative less (50 + 20)/0.1.
    let out = port.offer(&mut r, ms(52.0), data(50_000, 100_000, -20.0));
    assert_eq!(feedback_of(&out), -20.0);
    let (pos, neg) = r.residues();
    assert!(close(pos, 98_900.0) && close(neg, 48_400.0), "{pos} {neg}");
    // H = 60 > 50: overwritten; the residues pay p/rtt and n/rtt.
    let out = port.offer(&mut r, ms(53.0), data(50_000, 100_000, 60.0));
    assert!(close(f64::from(feedback_of(&out)), 50.0));
    let (pos, neg) = r.residues();
    assert!(close(pos, 97_900.0) && close(neg, 47_900.0), "{pos} {neg}");
}

#[test]
fn efficiency_controller_drains_a_persistent_queue_and_cuts_an_overload() {
    // C = 9 Mbit/s; one packet per 0.8 ms = 1.25e6 B/s; a standing queue of 20 000 B.
    let mut r = XcpRouter::new(XcpRouterConfig::paper());
    let mut port = Port::new(9_000_000, 20_000);
    let closer = one_flow_first_interval(&mut r, &mut port, 0.8);
    let d = *r.decision();
    // The interval ends at the first packet at or after 50 ms: 50.4 ms, 63 packets before it.
    assert_eq!(d.input_bytes, 63_000);
    assert!(close(d.measured_secs, 0.0504));
    // Q = 20 000 B (every arrival saw it); S = 1.125e6 - 1.25e6 = -1.25e5 B/s;
    // phi = 0.4 * 0.1 * -1.25e5 - 0.226 * 20 000 = -5000 - 4520 = -9520 B.
    assert_eq!(d.queue, 20_000);
    assert!(close(d.phi, -9520.0), "{}", d.phi);
    // h = max(0, 0.1 * 1.25e5 - 9520) = 2980 B.
    assert!(close(d.shuffle, 2980.0), "{}", d.shuffle);
    // Next interval: 125 packets (1.25e6 B/s * 0.1 s); sum rtt s/cwnd = 0.25, sum s = 125 000.
    // xi_p = 2980 / (0.1 * 0.25) = 119 200; xi_n = (2980 + 9520) / (0.1 * 125 000) = 1.
    assert!(close(d.xi_p, 119_200.0), "{}", d.xi_p);
    assert!(close(d.xi_n, 1.0), "{}", d.xi_n);
    // p = 119 200 * 0.01 * 0.02 = 23.84 B; n = 1 * 0.1 * 1000 = 100 B: feedback -76.16 B.
    let fb = f64::from(feedback_of(&closer));
    assert!((fb - -76.16).abs() < 1e-3, "{fb}");
}

#[test]
fn persistent_queue_is_the_minimum_over_the_propagation_delay_window() {
    // Paper: window = d - q/C. With d = 50 ms (initial), C = 1e6 B/s, q = 10 000 B at the
    // first arrival, the window is 40 ms; ns-2.35 halves it to 20 ms.
    for (cfg, window_ms) in [
        (XcpRouterConfig::paper(), 40.0),
        (XcpRouterConfig::ns2_35(), 20.0),
    ] {
        let mut r = XcpRouter::new(cfg);
        let mut port = Port::new(8_000_000, 10_000);
        port.offer(&mut r, ms(0.0), data(50_000, 100_000, 0.0));
        port.queue_bytes = 4_000; // the minimum of the first window
        port.offer(&mut r, ms(window_ms / 2.0), data(50_000, 100_000, 0.0));
        port.queue_bytes = 30_000;
        port.offer(&mut r, ms(window_ms - 0.5), data(50_000, 100_000, 0.0));
        assert_eq!(
            r.persistent_queue(),
            0,
            "not latched before the window ends"
        );
        port.offer(&mut r, ms(window_ms + 0.5), data(50_000, 100_000, 0.0));
        assert_eq!(r.persistent_queue(), 4_000);
    }
}

/// Flows of different RTTs and windows, `n` packets spread evenly over `span_ms` from
/// `start_ms`; returns the sum over packets of H_feedback / H_rtt (bytes per second).
fn mixed_traffic(
    r: &mut XcpRouter,
    port: &mut Port,
    start_ms: f64,
    span_ms: f64,
    n: u32,
    rng: &mut RngStream,
) -> f64 {
    let mut rate_change = 0.0;
    for i in 0..n {
        let t = start_ms + span_ms * f64::from(i) / f64::from(n);
        let flow = i % 5;
        let rtt_us = 40_000 + 30_000 * flow;
        let cwnd = 5_000 + (rng.uniform() * 100_000.0) as u32;
        let before = r.intervals();
        let out = port.offer(r, ms(t), data(cwnd, rtt_us, f32::MAX));
        assert_eq!(
            r.intervals(),
            before,
            "the interval must not end inside the burst"
        );
        rate_change += f64::from(feedback_of(&out)) / (f64::from(rtt_us) * 1e-6);
    }
    rate_change
}

#[test]
fn residues_never_hand_out_more_than_the_budget_of_an_interval() {
    // Positive case: input half the capacity (h = 0, phi > 0, only positive feedback); the
    // next interval carries three times the packets the coefficients were predicted for, so
    // without residues the router would hand out three times (phi + h) / d.
    // Negative case: input twice the capacity (h = 0, phi < 0, only negative feedback).
    let mut rng = RngStream::new(7, "xcp-test");
    for (n, sign) in [(100_u32, 1.0), (400, -1.0)] {
        let mut r = XcpRouter::new(XcpRouterConfig::paper());
        // 100 packets of 1000 B in 50 ms = 2e6 B/s; C = 4e6 B/s or 1e6 B/s.
        let bps = if sign > 0.0 { 32_000_000 } else { 8_000_000 };
        let mut port = Port::new(bps, 0);
        mixed_traffic(&mut r, &mut port, 0.0, 49.9, 100, &mut rng);
        // Close the first interval with an XCP-less packet, then send the burst well
        // inside the next interval.
        let mut ack = data(0, 0, 0.0);
        ack.header = Hdr::TcpAck {
            ack: 0,
            ece: false,
            opts: None,
            ace: None,
        };
        port.offer(&mut r, ms(50.0), ack);
        let dec = *r.decision();
        assert_eq!(dec.shuffle, 0.0);
        assert!(dec.phi * sign > 0.0, "{}", dec.phi);
        let span = dec.d * 1e3 * 0.9;
        let given = mixed_traffic(&mut r, &mut port, 50.0, span, 3 * n, &mut rng);
        let budget = if sign > 0.0 {
            dec.budget_pos
        } else {
            dec.budget_neg
        };
        assert!(
            given * sign <= budget * (1.0 + 1e-6),
            "handed out {given}, budget {budget}"
        );
        // ... and it does hand the budget out: the prediction was low, not high.
        assert!(given * sign >= budget * 0.999, "{given} of {budget}");
    }
}

#[test]
fn a_router_never_raises_h_feedback() {
    let mut rng = RngStream::new(11, "xcp-raise");
    for bps in [2_000_000_u64, 8_000_000, 40_000_000] {
        let mut r = XcpRouter::new(XcpRouterConfig::paper());
        let mut port = Port::new(bps, 0);
        let mut lowered = 0;
        for i in 0..3000_u32 {
            port.queue_bytes = (rng.uniform() * 30_000.0) as u64;
            let asked = ((rng.uniform() - 0.5) * 400.0) as f32;
            let rtt = if i % 50 == 0 {
                0
            } else {
                20_000 + (rng.uniform() * 200_000.0) as u32
            };
            let pkt = data(2_000 + (rng.uniform() * 80_000.0) as u32, rtt, asked);
            let out = port.offer(&mut r, ms(f64::from(i) * 0.5), pkt);
            let got = feedback_of(&out);
            assert!(got <= asked, "raised {asked} to {got}");
            if rtt == 0 {
                assert_eq!(got, asked, "no RTT: untouched");
            }
            lowered += u32::from(got < asked);
        }
        assert!(lowered > 100, "the router did lower some: {lowered}");
    }
}

#[test]
fn after_a_whole_idle_interval_the_port_is_a_new_port_again() {
    // ns-2.35's Te_timeout after an interval without traffic: Cp = Cn = 0, residues 0,
    // Te = INITIAL_Te_VALUE (50 ms). A port that has seen traffic and then a second of silence
    // must treat the next packets exactly as a port that never saw any.
    let mut used = XcpRouter::new(XcpRouterConfig::paper());
    let mut port = Port::new(16_000_000, 0);
    one_flow_first_interval(&mut used, &mut port, 1.0);
    assert!(
        used.decision().xi_p > 0.0,
        "the first interval gave an estimate"
    );
    let mut fresh = XcpRouter::new(XcpRouterConfig::paper());
    let mut fresh_port = Port::new(16_000_000, 0);
    // Silence for a second (ten intervals of 100 ms), then the same packets to both, shifted.
    let mut given = 0.0;
    for k in 0..200_u32 {
        let t = f64::from(k) * 1.0;
        let a = port.offer(&mut used, ms(1050.0 + t), data(50_000, 100_000, f32::MAX));
        let b = fresh_port.offer(&mut fresh, ms(t), data(50_000, 100_000, f32::MAX));
        assert_eq!(feedback_of(&a), feedback_of(&b), "packet {k}");
        if k < 50 {
            assert_eq!(
                feedback_of(&a),
                0.0,
                "a new port gives nothing in its first 50 ms"
            );
        }
        given += f64::from(feedback_of(&a));
    }
    // Half the capacity is spare: once the first interval ends, the port hands out increase.
    assert!(given > 0.0, "{given}");
    assert!(close(used.interval(), fresh.interval()));
}

#[test]
fn a_gap_shorter_than_the_interval_its_packets_give_is_not_idle() {
    // The first interval is 50 ms, but its packets say d = 320 ms: a packet 300 ms later
    // closes that interval late (a timer would have run [50, 370) with it) and the port keeps
    // its estimate instead of starting over.
    let mut r = XcpRouter::new(XcpRouterConfig::paper());
    let mut port = Port::new(1_000_000_000, 0);
    port.offer(&mut r, ms(0.0), data(2_000, 320_000, f32::MAX));
    let out = port.offer(&mut r, ms(300.0), data(2_000, 320_000, f32::MAX));
    assert_eq!(r.intervals(), 1);
    assert!(close(r.interval(), 0.32), "{}", r.interval());
    assert!(feedback_of(&out) > 0.0);
    // 2 d later with nothing in between: idle, a new port (d back to 50 ms, no feedback).
    let out = port.offer(&mut r, ms(300.0 + 650.0), data(2_000, 320_000, f32::MAX));
    assert!(close(r.interval(), 0.05), "{}", r.interval());
    assert_eq!(feedback_of(&out), 0.0);
}

#[test]
fn after_an_idle_restart_the_interval_keeps_the_timers_phase() {
    // A sender's access port at 1 Gbit/s: a burst of two packets (H_cwnd 2 packets, H_rtt
    // 20 ms) every 24.1 ms. A timer-driven port (ns-2.35's Te_timeout, period d): it decides at
    // 50 ms on the bursts at 24.1 and 48.2 ms (d = 20 ms), finds [50, 70) empty and starts over
    // (d = 50 ms) at its tick at 70 ms, decides at 120 ms on the bursts at 72.3 and 96.4 ms, and
    // hands out increase to the burst at 120.5 ms. Anchored at the packet (72.3 ms) the new
    // interval would end at 122.3 ms, after that burst, and the next burst would find the port
    // idle again, at every burst.
    let mut r = XcpRouter::new(XcpRouterConfig::ns2_35());
    let mut port = Port::new(1_000_000_000, 0);
    let mut first_positive = None;
    for k in 0..20_u32 {
        let t = 24.1 * f64::from(k);
        for _ in 0..2 {
            let rtt_us = if k == 0 { 0 } else { 20_000 };
            let out = port.offer(&mut r, ms(t), data(2_000, rtt_us, f32::MAX));
            if k > 0 && feedback_of(&out) > 0.0 && first_positive.is_none() {
                first_positive = Some(k);
            }
        }
    }
    assert_eq!(first_positive, Some(5), "the burst at 120.5 ms");
}

#[test]
fn a_flow_sending_less_than_a_packet_per_interval_still_gets_feedback() {
    // Two packets every 320 ms through a port whose interval is about 320 ms: every
    // interval ends late. Each packet must still be given the increase the port can afford.
    // Every interval after the first lasts 320 ms and carries the same two 1000 B packets:
    // S = 1.25e8 - 2000 / 0.32 B/s, phi = 0.4 * 0.32 * S, h = 0 (phi exceeds 0.1 y d), and
    // the two packets, equal in rtt, size and cwnd, take phi / 2 each (equation 4 with the
    // interval's sum 2 * 0.32 * 1000 / 2000). The first packets meet a new port: nothing.
    let phi = 0.4 * 0.32 * (1.25e8 - 2000.0 / 0.32);
    let mut r = XcpRouter::new(XcpRouterConfig::paper());
    let mut port = Port::new(1_000_000_000, 0);
    for k in 0..20_u32 {
        let t = f64::from(k) * 320.0;
        for _ in 0..2 {
            let out = port.offer(&mut r, ms(t), data(2_000, 320_000, f32::MAX));
            let want = if k == 0 { 0.0 } else { phi / 2.0 };
            let got = f64::from(feedback_of(&out));
            assert!(
                (got - want).abs() <= 1.0,
                "packet at {t} ms: {got}, want {want}"
            );
        }
    }
}

#[test]
fn non_xcp_traffic_counts_as_input_but_gets_no_feedback() {
    // Half the port's offered bytes are UDP: the input rate, hence S, must include them.
    let mut r = XcpRouter::new(XcpRouterConfig::paper());
    let mut port = Port::new(16_000_000, 0); // 2e6 B/s
    for i in 0..=100_u32 {
        let t = f64::from(i) * 0.5;
        let mut pkt = data(50_000, 100_000, f32::MAX);
        if i % 2 == 1 {
            pkt.header = Hdr::Udp {
                seq: u64::from(i),
                payload: 972,
            };
        }
        let out = port.offer(&mut r, ms(t), pkt.clone());
        if i % 2 == 1 {
            assert_eq!(out.header, pkt.header);
        }
    }
    let d = *r.decision();
    // 100 packets (50 XCP, 50 UDP) in 50 ms: 2e6 B/s offered, S = 0.
    assert_eq!(d.input_bytes, 100_000);
    assert!(close(d.spare, 0.0), "{}", d.spare);
}

fn sender(params: XcpParams) -> XcpSender {
    let cfg = TcpConfig {
        packet_size: 1000,
        initial_window: 2,
        ..TcpConfig::default()
    };
    XcpSender::new(FlowId(1), DST, &cfg, params)
}

fn ack(n: u64, feedback: f32) -> Packet<Hdr> {
    Packet {
        src: DST,
        dst: SRC,
        flow: FlowId(1),
        size: 40,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::XcpAck {
            ack: n,
            cwnd: 0,
            rtt_us: 0,
            feedback,
        },
    }
}

fn xcp_fields(p: &Packet<Hdr>) -> (u64, bool, u32, u32, f32) {
    match p.header {
        Hdr::XcpData {
            seq,
            retx,
            cwnd,
            rtt_us,
            feedback,
        } => (seq, retx, cwnd, rtt_us, feedback),
        _ => panic!("not XCP data: {:?}", p.header),
    }
}

#[test]
fn sender_applies_feedback_to_cwnd_with_a_one_packet_floor() {
    let mut s = sender(XcpParams::default());
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    let first = ctx.drain();
    assert_eq!(first.len(), 2);
    // MSS 960: cwnd 1920 payload bytes = 2000 whole-packet bytes; no RTT yet: H_rtt = 0 and
    // no request.
    assert_eq!(xcp_fields(&first[0]), (0, false, 2000, 0, 0.0));
    assert!(first[0].header.is_data() && first[0].header.data_seq() == Some(0));
    // ACK of segment 0 after 100 ms, +1000 B of feedback = +960 payload bytes.
    ctx.now = ms(100.0);
    s.on_packet(&ack(1, 1000.0), &mut ctx);
    assert_eq!(s.cwnd(), 1920 + 960);
    // The window (3 segments, 1 outstanding) releases segments 2 and 3, stamped with the new
    // cwnd (3000 B), srtt 100 ms, and a request for any increase.
    let sent = ctx.drain();
    assert_eq!(sent.len(), 2);
    assert_eq!(xcp_fields(&sent[0]), (2, false, 3000, 100_000, f32::MAX));
    // A large decrease stops at one packet.
    s.on_packet(&ack(2, -1e6), &mut ctx);
    assert_eq!(s.cwnd(), 960);
    // A duplicate ACK's feedback is not applied (Reno's recovery owns the window then).
    s.on_packet(&ack(2, 5000.0), &mut ctx);
    assert_eq!(s.cwnd(), 960);
    assert_eq!(s.feedback_received(), (1000.0 + 5000.0, 1e6));
}

#[test]
fn sender_carries_fractions_of_a_byte() {
    let mut s = sender(XcpParams::default());
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    ctx.now = ms(10.0);
    // +0.5 whole-packet bytes = +0.48 payload bytes per ACK: +0, +0 (0.96), +1 (1.44).
    s.on_packet(&ack(1, 0.5), &mut ctx);
    s.on_packet(&ack(2, 0.5), &mut ctx);
    assert_eq!(s.cwnd(), 1920);
    s.on_packet(&ack(3, 0.5), &mut ctx);
    assert_eq!(s.cwnd(), 1921);
}

#[test]
fn sender_requests_its_desired_increase() {
    // r = 8 Mbit/s = 1e6 B/s, rtt 100 ms: 100 000 B per RTT; cwnd 3000 B = 3 packets:
    // (100 000 - 3000) / 3 per packet.
    let mut s = sender(XcpParams {
        desired_rate: Some(Rate(8_000_000)),
        ..XcpParams::default()
    });
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    ctx.drain();
    ctx.now = ms(100.0);
    s.on_packet(&ack(1, 1000.0), &mut ctx);
    let (_, _, cwnd, _, request) = xcp_fields(&ctx.drain()[0]);
    assert_eq!(cwnd, 3000);
    assert!(
        (f64::from(request) - 97_000.0 / 3.0).abs() < 0.01,
        "{request}"
    );
}

#[test]
fn sender_recovers_from_loss_as_newreno_and_marks_retransmissions() {
    let mut s = sender(XcpParams::default());
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    ctx.now = ms(100.0);
    s.on_packet(&ack(1, 20_000.0), &mut ctx); // cwnd 1920 + 19 200 = 22 segments
    ctx.drain();
    // Segment 1 is lost: three duplicate ACKs.
    for _ in 0..3 {
        s.on_packet(&ack(1, 0.0), &mut ctx);
    }
    let rtx = ctx.drain();
    assert_eq!(xcp_fields(&rtx[0]).0, 1);
    assert!(xcp_fields(&rtx[0]).1 && rtx[0].header.is_retransmission());
    assert!(s.tcp().in_recovery());
    // ssthresh = FlightSize / 2 (RFC 5681 equation 4): 22 segments outstanding.
    assert_eq!(s.tcp().ssthresh(), 11 * 960);
}

#[test]
fn receiver_echoes_the_congestion_header_in_40_byte_acks() {
    let mut rx = XcpReceiver::new(TcpSink::new(None));
    let mut ctx = MockCtx::new();
    let mut pkt = data(5000, 100_000, -12.5);
    rx.on_packet(&pkt, &mut ctx);
    let acks = ctx.drain();
    assert_eq!(acks.len(), 1);
    assert_eq!(acks[0].size, 40);
    assert_eq!(acks[0].dst, SRC);
    assert_eq!(
        acks[0].header,
        Hdr::XcpAck {
            ack: 1,
            cwnd: 5000,
            rtt_us: 100_000,
            feedback: -12.5
        }
    );
    // Out of order: segment 2 before 1, acknowledged at once with its own feedback.
    pkt.header = Hdr::XcpData {
        seq: 2,
        retx: false,
        cwnd: 6000,
        rtt_us: 90_000,
        feedback: 3.0,
    };
    rx.on_packet(&pkt, &mut ctx);
    assert!(matches!(
        ctx.drain()[0].header,
        Hdr::XcpAck { ack: 1, cwnd: 6000, feedback, .. } if feedback == 3.0
    ));
}

#[test]
fn a_delayed_ack_echoes_the_feedback_of_both_packets() {
    let mut rx = XcpReceiver::new(TcpSink::new(Some(Dur::from_millis(200))));
    let mut ctx = MockCtx::new();
    for (seq, fb) in [(0_u64, 10.0_f32), (1, 20.5)] {
        let mut pkt = data(5000, 100_000, fb);
        pkt.header = Hdr::XcpData {
            seq,
            retx: false,
            cwnd: 5000,
            rtt_us: 100_000,
            feedback: fb,
        };
        rx.on_packet(&pkt, &mut ctx);
    }
    let acks = ctx.drain();
    assert_eq!(acks.len(), 1);
    assert!(matches!(acks[0].header, Hdr::XcpAck { ack: 2, feedback, .. } if feedback == 30.5));
}

/// A dumbbell driven by hand: XCP senders, one bottleneck port (the router function, then a
/// drop-tail FIFO served at `bps`), receivers, and uncongested ACK paths. Flow i's packets
/// reach the bottleneck at once, the receiver `delay[i]` after leaving it, and its ACKs return
/// in `delay[i]` more, so its propagation RTT is 2 delay[i].
struct Dumbbell {
    now: SimTime,
    seq: u64,
    events: std::collections::BinaryHeap<std::cmp::Reverse<(SimTime, u64, usize)>>,
    pending: Vec<Option<Ev>>,
    senders: Vec<(XcpSender, MockCtx, [u32; TimerSlot::MAX])>,
    receivers: Vec<(XcpReceiver, MockCtx, [u32; TimerSlot::MAX])>,
    delay: Vec<Dur>,
    start: Vec<SimTime>,
    router: XcpRouter,
    bps: u64,
    limit: u64,
    queue: std::collections::VecDeque<Packet<Hdr>>,
    queue_bytes: u64,
    in_service: Option<Packet<Hdr>>,
    offered: u64,
    drops: u64,
    /// From `measure_from`: bytes transmitted, per-flow bytes delivered, queue samples.
    measure_from: SimTime,
    tx_bytes: u64,
    delivered: Vec<u64>,
    queue_sum: f64,
    queue_n: u64,
    /// Bytes of the UDP stream transmitted (measured like `tx_bytes`).
    cbr_tx: u64,
}

enum Ev {
    Start(usize),
    Cbr(u64),
    Arrive(Packet<Hdr>),
    TxDone,
    ToReceiver(usize, Packet<Hdr>),
    ToSender(usize, Packet<Hdr>),
    Timer(bool, usize, usize, u32),
}

use ccsim_core::TimerSlot;

impl Dumbbell {
    fn new(bps: u64, delays_ms: &[u64], starts_ms: &[u64], limit: u64) -> Self {
        let cfg = TcpConfig {
            packet_size: 1000,
            initial_window: 1,
            ..TcpConfig::default()
        };
        let n = delays_ms.len();
        let mut d = Dumbbell {
            now: SimTime::ZERO,
            seq: 0,
            events: std::collections::BinaryHeap::new(),
            pending: Vec::new(),
            senders: (0..n)
                .map(|i| {
                    let s = XcpSender::new(FlowId(i as u32), DST, &cfg, XcpParams::default());
                    (s, MockCtx::new(), [0; TimerSlot::MAX])
                })
                .collect(),
            receivers: (0..n)
                .map(|_| {
                    let r = XcpReceiver::new(TcpSink::new(None));
                    (r, MockCtx::new(), [0; TimerSlot::MAX])
                })
                .collect(),
            delay: delays_ms.iter().map(|&m| Dur::from_millis(m)).collect(),
            start: starts_ms.iter().map(|&m| ms(m as f64)).collect(),
            router: XcpRouter::new(XcpRouterConfig::paper()),
            bps,
            limit,
            queue: std::collections::VecDeque::new(),
            queue_bytes: 0,
            in_service: None,
            offered: 0,
            drops: 0,
            measure_from: SimTime::NEVER,
            tx_bytes: 0,
            delivered: vec![0; n],
            queue_sum: 0.0,
            queue_n: 0,
            cbr_tx: 0,
        };
        for i in 0..n {
            d.push(d.start[i], Ev::Start(i));
        }
        d
    }

    fn push(&mut self, at: SimTime, ev: Ev) {
        self.pending.push(Some(ev));
        self.events
            .push(std::cmp::Reverse((at, self.seq, self.pending.len() - 1)));
        self.seq += 1;
    }

    /// After an agent ran: route what it sent, schedule the timers it changed.
    fn after(&mut self, is_sender: bool, i: usize) {
        let (sent, timers) = {
            let ctx = if is_sender {
                &mut self.senders[i].1
            } else {
                &mut self.receivers[i].1
            };
            (ctx.drain(), ctx.timers)
        };
        for mut pkt in sent {
            pkt.flow = FlowId(i as u32);
            if is_sender {
                self.push(self.now, Ev::Arrive(pkt));
            } else {
                self.push(self.now + self.delay[i], Ev::ToSender(i, pkt));
            }
        }
        for (slot, at) in timers.iter().enumerate() {
            let gens = if is_sender {
                &mut self.senders[i].2
            } else {
                &mut self.receivers[i].2
            };
            gens[slot] += 1;
            let g = gens[slot];
            if let Some(at) = *at {
                self.push(at, Ev::Timer(is_sender, i, slot, g));
            }
        }
    }

    /// A constant-bit-rate UDP stream of 1000-byte packets through the bottleneck from 0.
    fn with_cbr(mut self, bps: u64) -> Self {
        self.push(SimTime::ZERO, Ev::Cbr(bps));
        self
    }

    fn start_tx(&mut self, pkt: Packet<Hdr>) {
        let done = self.now + Rate(self.bps).tx_time(u64::from(pkt.size));
        self.in_service = Some(pkt);
        self.push(done, Ev::TxDone);
    }

    fn run(&mut self, until: SimTime) {
        while let Some(&std::cmp::Reverse((at, _, idx))) = self.events.peek() {
            if at > until {
                break;
            }
            self.events.pop();
            self.now = at;
            let now = at;
            match self.pending[idx].take().expect("each event once") {
                Ev::Start(i) => {
                    self.senders[i].1.now = now;
                    let (s, ctx, _) = &mut self.senders[i];
                    s.on_start(ctx);
                    self.after(true, i);
                }
                Ev::Cbr(bps) => {
                    let mut pkt = data(0, 0, 0.0);
                    pkt.flow = FlowId(u32::MAX);
                    pkt.header = Hdr::Udp {
                        seq: 0,
                        payload: 972,
                    };
                    self.push(now, Ev::Arrive(pkt));
                    self.push(now + Rate(bps).tx_time(1000), Ev::Cbr(bps));
                }
                Ev::Arrive(mut pkt) => {
                    self.offered += u64::from(pkt.size);
                    let port = XcpPort {
                        rate: Rate(self.bps),
                        queue_bytes: self.queue_bytes,
                        bytes_offered: self.offered,
                    };
                    self.router.on_packet(now, &mut pkt, port);
                    if now >= self.measure_from {
                        self.queue_sum += self.queue_bytes as f64;
                        self.queue_n += 1;
                    }
                    if self.in_service.is_none() {
                        self.start_tx(pkt);
                    } else if self.queue_bytes + u64::from(pkt.size) <= self.limit {
                        self.queue_bytes += u64::from(pkt.size);
                        self.queue.push_back(pkt);
                    } else {
                        self.drops += 1;
                    }
                }
                Ev::TxDone => {
                    let pkt = self.in_service.take().expect("in service");
                    if now > self.measure_from {
                        self.tx_bytes += u64::from(pkt.size);
                    }
                    let i = pkt.flow.0 as usize;
                    if i < self.delay.len() {
                        self.push(now + self.delay[i], Ev::ToReceiver(i, pkt));
                    } else if now > self.measure_from {
                        self.cbr_tx += u64::from(pkt.size);
                    }
                    if let Some(next) = self.queue.pop_front() {
                        self.queue_bytes -= u64::from(next.size);
                        self.start_tx(next);
                    }
                }
                Ev::ToReceiver(i, pkt) => {
                    if now > self.measure_from {
                        self.delivered[i] += u64::from(pkt.size);
                    }
                    self.receivers[i].1.now = now;
                    let (r, ctx, _) = &mut self.receivers[i];
                    r.on_packet(&pkt, ctx);
                    self.after(false, i);
                }
                Ev::ToSender(i, pkt) => {
                    self.senders[i].1.now = now;
                    let (s, ctx, _) = &mut self.senders[i];
                    s.on_packet(&pkt, ctx);
                    self.after(true, i);
                }
                Ev::Timer(is_sender, i, slot, g) => {
                    let (gens, ctx) = if is_sender {
                        (self.senders[i].2, &mut self.senders[i].1)
                    } else {
                        (self.receivers[i].2, &mut self.receivers[i].1)
                    };
                    if gens[slot] != g || ctx.timers[slot] != Some(now) {
                        continue;
                    }
                    ctx.timers[slot] = None;
                    ctx.now = now;
                    let s = TimerSlot(slot as u8);
                    if is_sender {
                        let (a, ctx, _) = &mut self.senders[i];
                        a.on_timer(s, ctx);
                    } else {
                        let (a, ctx, _) = &mut self.receivers[i];
                        a.on_timer(s, ctx);
                    }
                    self.after(is_sender, i);
                }
            }
        }
        self.now = until;
    }

    fn measure(&mut self, from: SimTime) {
        self.measure_from = from;
    }

    fn utilisation(&self, until: SimTime) -> f64 {
        let secs = (until - self.measure_from).as_secs_f64();
        self.tx_bytes as f64 * 8.0 / (self.bps as f64 * secs)
    }

    fn jain(&self) -> f64 {
        let x: Vec<f64> = self.delivered.iter().map(|&b| b as f64).collect();
        let sum: f64 = x.iter().sum();
        let sq: f64 = x.iter().map(|v| v * v).sum();
        sum * sum / (x.len() as f64 * sq)
    }
}

/// What a run measured over its second part.
#[derive(Debug, PartialEq)]
struct Outcome {
    utilisation: f64,
    jain: f64,
    drops: u64,
    mean_queue: f64,
    delivered: Vec<u64>,
    cbr_tx: u64,
}

fn run(mut net: Dumbbell, settle_ms: f64, end_ms: f64) -> Outcome {
    net.run(ms(settle_ms));
    net.measure(ms(settle_ms));
    net.run(ms(end_ms));
    Outcome {
        utilisation: net.utilisation(ms(end_ms)),
        jain: net.jain(),
        drops: net.drops,
        mean_queue: net.queue_sum / net.queue_n as f64,
        delivered: net.delivered.clone(),
        cbr_tx: net.cbr_tx,
    }
}

#[test]
fn closed_loop_fills_the_link_fairly_across_rtts_without_drops() {
    // Section 5.2 (fairness, Figure 8b): flows of different RTTs get the same throughput,
    // utilisation is near optimal, the queue small, no drops. 4 flows, RTTs 40-100 ms,
    // 20 Mbit/s, buffer one BDP at 80 ms (200 packets); measured from 5 s to 15 s.
    for cfg in [XcpRouterConfig::paper(), XcpRouterConfig::ns2_35()] {
        let mut net = Dumbbell::new(20_000_000, &[20, 30, 40, 50], &[0, 0, 0, 0], 200_000);
        net.router = XcpRouter::new(cfg);
        let out = run(net, 5000.0, 15_000.0);
        assert!(out.utilisation > 0.95, "{out:?}");
        assert!(out.jain > 0.99, "{out:?}");
        assert_eq!(out.drops, 0, "{out:?}");
        assert!(
            out.mean_queue < 20_000.0,
            "under a tenth of the buffer: {out:?}"
        );
    }
}

#[test]
fn closed_loop_leaves_room_for_traffic_that_shares_the_port() {
    // 5 Mbit/s of UDP through the same 20 Mbit/s port: the router counts it as input, so the
    // XCP flows take the other 15 Mbit/s (research/next.md section 1.2: ns-2's separate UDP
    // queue hid it from the controller, which over-estimated the spare bandwidth).
    let net =
        Dumbbell::new(20_000_000, &[20, 30, 40, 50], &[0, 0, 0, 0], 200_000).with_cbr(5_000_000);
    let out = run(net, 5000.0, 15_000.0);
    assert_eq!(out.drops, 0, "{out:?}");
    assert!(out.utilisation > 0.95, "{out:?}");
    assert!(out.mean_queue < 20_000.0, "{out:?}");
    // 5 Mbit/s for 10 s = 6.25 MB, all of it carried.
    assert!((out.cbr_tx as f64 - 6.25e6).abs() < 2000.0, "{out:?}");
    let xcp: u64 = out.delivered.iter().sum();
    assert!((xcp as f64 * 8.0 / 10.0) < 15.1e6, "{out:?}");
    assert!(out.jain > 0.99, "{out:?}");
}

#[test]
fn closed_loop_converges_to_fairness_as_flows_arrive() {
    // Section 5 (convergence): flows started 2 s apart share the link equally soon after the
    // last one arrives. 3 flows, 10 Mbit/s, RTT 40 ms, starts 0, 2, 4 s; measured 5-8 s.
    let net = Dumbbell::new(10_000_000, &[20, 20, 20], &[0, 2000, 4000], 50_000);
    let out = run(net, 5000.0, 8000.0);
    assert!(out.jain > 0.99, "{out:?}");
    assert!(out.utilisation > 0.95, "{out:?}");
    assert_eq!(out.drops, 0, "{out:?}");
}

#[test]
fn closed_loop_recovers_from_losses_and_is_deterministic() {
    // A quarter-BDP buffer: the first windows overflow it; NewReno recovers and every flow
    // keeps delivering. Two runs give the same bytes.
    let go = || {
        let net = Dumbbell::new(20_000_000, &[20, 30, 40, 50], &[0, 0, 0, 0], 50_000);
        run(net, 5000.0, 15_000.0)
    };
    let out = go();
    assert!(out.drops > 0, "the loss path ran: {out:?}");
    let fair = 20e6 / 8.0 * 10.0 / 4.0;
    assert!(
        out.delivered.iter().all(|&b| b as f64 > 0.2 * fair),
        "{out:?}"
    );
    assert_eq!(out, go());
}

/// A [`MockCtx`] that also records `finish`.
struct FinishCtx {
    inner: MockCtx,
    finished: bool,
}

impl ccsim_core::Ctx<Hdr> for FinishCtx {
    fn now(&self) -> SimTime {
        self.inner.now
    }
    fn addr(&self) -> Addr {
        self.inner.addr()
    }
    fn send(&mut self, pkt: Packet<Hdr>) {
        self.inner.send(pkt);
    }
    fn set_timer(&mut self, slot: TimerSlot, at: SimTime) {
        self.inner.set_timer(slot, at);
    }
    fn cancel_timer(&mut self, slot: TimerSlot) {
        self.inner.cancel_timer(slot);
    }
    fn rng(&mut self) -> &mut RngStream {
        self.inner.rng()
    }
    fn tracing(&self, var: ccsim_core::VarId) -> bool {
        self.inner.tracing(var)
    }
    fn trace(&mut self, var: ccsim_core::VarId, value: f64) {
        self.inner.trace(var, value);
    }
    fn relay(&mut self, pkt: Packet<Hdr>) {
        self.inner.relay(pkt);
    }
    fn join_group(&mut self, key: u32) {
        self.inner.join_group(key);
    }
    fn leave_group(&mut self, key: u32) {
        self.inner.leave_group(key);
    }
    fn finish(&mut self) {
        self.finished = true;
    }
}

#[test]
fn a_finite_transfer_finishes_through_the_wrapper() {
    // 2000 bytes = 3 segments of MSS 960 (the last of 80 bytes): sent as 2 + 1 and done when
    // ACK 3 arrives; the driver is told, so it can retire the flow.
    let cfg = TcpConfig {
        packet_size: 1000,
        initial_window: 2,
        size: Some(2000),
        ..TcpConfig::default()
    };
    let mut s = XcpSender::new(FlowId(1), DST, &cfg, XcpParams::default());
    let mut ctx = FinishCtx {
        inner: MockCtx::new(),
        finished: false,
    };
    s.on_start(&mut ctx);
    assert_eq!(ctx.inner.drain().len(), 2);
    ctx.inner.now = ms(50.0);
    s.on_packet(&ack(2, 0.0), &mut ctx);
    let last = ctx.inner.drain();
    assert_eq!(last.len(), 1);
    assert_eq!(last[0].size, 80 + 40);
    assert!(!ctx.finished);
    s.on_packet(&ack(3, 0.0), &mut ctx);
    assert!(ctx.finished);
    assert_eq!(s.tcp().completed_at(), Some(ms(50.0)));
}
