//! The XCP router function of one egress port (Katabi, Handley and Rohrs 2002, section 3.5
//! and Appendix A): efficiency controller, fairness controller with shuffling, per-packet
//! feedback with residues. Plain state, no engine: the driver calls [`XcpRouter::on_packet`]
//! for every packet offered to the port, with an [`XcpPort`] view of the port.
//!
//! Per control interval (the paper's estimation-control timer, period d):
//! * d = sum(rtt^2 s / cwnd) / sum(rtt s / cwnd) over the interval's packets (Appendix A: "the
//!   average RTT over the flows, not the packets");
//! * phi = alpha d S - beta Q (equation 1), S = capacity - input rate, Q the persistent queue;
//! * h = max(0, gamma y - |phi|) (equation 2), y the input traffic in one d;
//! * xi_p = (h + max(phi, 0)) / (d sum(rtt s / cwnd)) (equation 6) and
//!   xi_n = (h + max(-phi, 0)) / (d sum s) (equation 9), both sums predicted for the next
//!   interval from the one just ended;
//! * residues (h + max(phi, 0)) / d and (h + max(-phi, 0)) / d, in bytes per second, the most
//!   positive and negative rate change the router hands out in the interval (Appendix A).
//!
//! Per packet: p_i = xi_p rtt_i^2 s_i / cwnd_i (equation 4), n_i = xi_n rtt_i s_i (equation 7),
//! H_feedback = min(H_feedback, p_i - n_i) (equation 3; "a router overwrites H_feedback only
//! when its own value is smaller").
//!
//! CHOICE: no timers. An interval ends at the first packet offered at or after its end; the
//! decision then uses the interval's real length T (input rate y / T; the sums scaled by d / T
//! to predict the next interval of length d). The next interval starts at that packet. When a
//! timer would have run at least one whole interval with no packet at all (the packet comes at
//! or after the interval's end plus the d that interval's packets give), the port is idle and
//! returns to the state of a new port: ns-2.35's `Te_timeout` leaves exactly that state after
//! an interval without traffic (Cp = Cn = 0, residues 0, Te = `INITIAL_Te_VALUE`), and so a
//! transfer that meets no other traffic on an idle path runs as on an empty network. The
//! interval that follows keeps the timer's phase: it starts at the timer's last tick (the end
//! of the empty interval plus whole initial intervals), not at the packet. Anchored at the
//! packet, a sender of two packets per round trip whose RTT lies between the measured d and the
//! initial interval found its access port idle at every burst and got no feedback there (0.5 s
//! of a 24 ms path at cwnd 2 until 2026-11-28), where a timer's port decides between bursts.
//! CHOICE: feedback is computed when the packet is offered to the port (the engine's hook runs
//! before the queue), not at its departure as in Appendix A; the decision it uses is the same,
//! but a packet the queue then drops has used up its share of the residues.
//! CHOICE: the input traffic is every byte offered to the port (the engine's `bytes_offered`),
//! XCP or not, so capacity shared with UDP, TCP or ACKs is accounted for: ns-2's `Queue/XCP`
//! put UDP in a separate virtual queue the controller did not see (research/next.md section
//! 1.2, "capacity misestimation due to link sharing"); this port sees every packet. The sums
//! of the fairness controller (and so xi_n's sum s) run over the XCP data packets with a valid
//! RTT, the packets that can take feedback: Appendix A's `input_traffic` in xi_n would make
//! non-XCP bytes dilute the negative feedback of the XCP flows.
//! CHOICE: Q is the minimum queue (bytes, excluding the packet in service) seen by arriving
//! packets over consecutive windows of the propagation-delay estimate d - q/C (section 3.5.1),
//! latched at the end of each window and used until the next latch (tumbling windows, as ns-2
//! and htsim do, instead of a sliding minimum); the window is at least `min_queue_window`
//! (ns-2.35's 2 ms; the paper gives no floor).
//! CHOICE: a packet's positive (negative) feedback is clamped so that the router never hands
//! out more than its residue in an interval (ns-2.35's min(residue, C x)); Appendix A zeroes xi
//! only after the residue is spent, so the last packet may overshoot there.
//! CHOICE: when H_feedback H is already below the router's value fb (an upstream router
//! throttled the flow, or the sender asked for less), the packet keeps H and the residues are
//! re-booked as we read Appendix A's garbled pseudo-code: the positive residue pays
//! max(H, 0) / rtt (what the flow gets); the negative residue pays (fb - H) / rtt when fb >= 0
//! (the cut below our value) and -H / rtt when fb < 0 (the whole cut). Both only lower the
//! residues, so throttling done upstream spares the other flows negative feedback here
//! (section 5.2, the parking lot).
//! CHOICE: before the first packet with a valid RTT the interval is `initial_interval` (50 ms,
//! ns-2.35's `INITIAL_Te_VALUE`; the paper is silent); an interval with no such packet keeps
//! the previous d; d is at least `min_interval` (1 ms, ns-2.35's floor).
//! CHOICE: an interval that carried no XCP packet with an RTT estimate (its sums are empty)
//! keeps the last xi_p and xi_n (the budgets are still those of its own phi and shuffle): with
//! 0, a flow sending less than a packet per interval through a port (a long-RTT flow on its
//! own access link) would have its request lowered to nothing there at every packet. Before
//! any estimate they are 0, so a new port never raises what a sender may get.
//! CHOICE: packets with H_rtt = 0 (no RTT estimate yet) or H_cwnd = 0 are counted as input
//! traffic and get no feedback (section 3.3).
//!
//! ns-2.35 ([`XcpRouterConfig::ns2_35`]): RTTs capped at 1 s in the sums and the feedback, and
//! the queue window halved ((d - q/C) / 2). Not done: its feedback as a throughput delta
//! (bytes/s, with `x = srtt / cwnd` in the header) instead of a window delta, its reset of d to
//! 50 ms after an interval without traffic, and its randomised timer starts.

use ccsim_core::{Dur, Packet, SimTime};

use crate::Hdr;

/// What the router reads of its egress port when a packet is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XcpPort {
    /// Link capacity, bits per second.
    pub rate: ccsim_core::Rate,
    /// Bytes waiting in the queue (the packet in service and the offered one excluded).
    pub queue_bytes: u64,
    /// Bytes offered to the port so far, every protocol, the offered packet included (the
    /// engine's `PortState::bytes_offered` at the hook).
    pub bytes_offered: u64,
}

/// Router parameters. [`XcpRouterConfig::paper`] is the default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct XcpRouterConfig {
    /// Efficiency-controller gain on spare bandwidth (0.4).
    pub alpha: f64,
    /// Efficiency-controller gain on the persistent queue (0.226).
    pub beta: f64,
    /// Shuffled fraction of the traffic (0.1).
    pub gamma: f64,
    /// Control interval before any RTT is known.
    pub initial_interval: Dur,
    /// Shortest control interval.
    pub min_interval: Dur,
    /// RTTs above this count as this (ns-2.35: 1 s); `None` for no cap.
    pub rtt_cap: Option<Dur>,
    /// The persistent-queue window is this fraction of the propagation delay d - q/C (paper 1,
    /// ns-2.35 0.5).
    pub queue_window_factor: f64,
    /// Shortest persistent-queue window.
    pub min_queue_window: Dur,
}

impl XcpRouterConfig {
    /// The paper's router (section 3.5, Appendix A).
    #[must_use]
    pub fn paper() -> Self {
        XcpRouterConfig {
            alpha: 0.4,
            beta: 0.226,
            gamma: 0.1,
            initial_interval: Dur::from_millis(50),
            min_interval: Dur::from_millis(1),
            rtt_cap: None,
            queue_window_factor: 1.0,
            min_queue_window: Dur::from_millis(2),
        }
    }

    /// ns-2.35's `XCPQueue` where it differs cheaply from the paper (see the module docs).
    #[must_use]
    pub fn ns2_35() -> Self {
        XcpRouterConfig {
            rtt_cap: Some(Dur::from_secs(1)),
            queue_window_factor: 0.5,
            ..Self::paper()
        }
    }
}

impl Default for XcpRouterConfig {
    fn default() -> Self {
        Self::paper()
    }
}

/// One control decision, taken when an interval ends.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct XcpDecision {
    /// When it was taken.
    pub at: SimTime,
    /// The length of the interval just ended, seconds (after an idle gap: the empty
    /// interval's, d).
    pub measured_secs: f64,
    /// Bytes offered to the port in the interval just ended.
    pub input_bytes: u64,
    /// The new control interval d (s).
    pub d: f64,
    /// Spare bandwidth S, bytes per second.
    pub spare: f64,
    /// Persistent queue Q, bytes.
    pub queue: u64,
    /// Aggregate feedback phi, bytes.
    pub phi: f64,
    /// Shuffled traffic h, bytes.
    pub shuffle: f64,
    /// Positive feedback coefficient xi_p.
    pub xi_p: f64,
    /// Negative feedback coefficient xi_n.
    pub xi_n: f64,
    /// Positive and negative budgets at the start of the interval, bytes per second.
    pub budget_pos: f64,
    /// See `budget_pos`.
    pub budget_neg: f64,
}

/// The XCP router function of one egress port.
#[derive(Clone, Debug)]
pub struct XcpRouter {
    cfg: XcpRouterConfig,
    started: bool,
    /// Where the first interval after an idle restart begins: the tick of the timer grid at
    /// or before the packet that found the port idle (`None` for a new port).
    restart_tick: Option<SimTime>,
    interval_start: SimTime,
    interval_end: SimTime,
    /// Control interval, seconds.
    d: f64,
    /// `bytes_offered` before the packet that opened the interval.
    offered_mark: u64,
    sum_rtt_s_cwnd: f64,
    sum_rtt2_s_cwnd: f64,
    sum_s: f64,
    xi_p: f64,
    xi_n: f64,
    residue_pos: f64,
    residue_neg: f64,
    q_window_end: SimTime,
    q_window_len: Dur,
    q_min: Option<u64>,
    q_persistent: u64,
    decision: XcpDecision,
    intervals: u64,
}

fn dur_from_secs(s: f64) -> Dur {
    Dur((s * 1e9).round() as u64)
}

impl XcpRouter {
    /// A router with `cfg`.
    #[must_use]
    pub fn new(cfg: XcpRouterConfig) -> Self {
        XcpRouter {
            cfg,
            started: false,
            restart_tick: None,
            interval_start: SimTime::ZERO,
            interval_end: SimTime::ZERO,
            d: cfg.initial_interval.as_secs_f64(),
            offered_mark: 0,
            sum_rtt_s_cwnd: 0.0,
            sum_rtt2_s_cwnd: 0.0,
            sum_s: 0.0,
            xi_p: 0.0,
            xi_n: 0.0,
            residue_pos: 0.0,
            residue_neg: 0.0,
            q_window_end: SimTime::ZERO,
            q_window_len: cfg.initial_interval,
            q_min: None,
            q_persistent: 0,
            decision: XcpDecision::default(),
            intervals: 0,
        }
    }

    /// The parameters.
    #[must_use]
    pub fn config(&self) -> &XcpRouterConfig {
        &self.cfg
    }
    /// The current control interval d, seconds.
    #[must_use]
    pub fn interval(&self) -> f64 {
        self.d
    }
    /// The last control decision (all zero before the first interval ends).
    #[must_use]
    pub fn decision(&self) -> &XcpDecision {
        &self.decision
    }
    /// Control intervals ended so far.
    #[must_use]
    pub fn intervals(&self) -> u64 {
        self.intervals
    }
    /// What is left of this interval's positive and negative budgets, bytes per second.
    #[must_use]
    pub fn residues(&self) -> (f64, f64) {
        (self.residue_pos, self.residue_neg)
    }
    /// The persistent queue in force, bytes.
    #[must_use]
    pub fn persistent_queue(&self) -> u64 {
        self.q_persistent
    }

    /// A packet is offered to the port at `now`: update the estimates, end the control interval
    /// if it is over, and lower the packet's H_feedback if it is XCP data.
    pub fn on_packet(&mut self, now: SimTime, pkt: &mut Packet<Hdr>, port: XcpPort) {
        let before = port.bytes_offered.saturating_sub(u64::from(pkt.size));
        if self.started && self.idle_at(now) {
            self.restart(now);
        }
        if !self.started {
            self.started = true;
            let start = self.restart_tick.take().unwrap_or(now);
            self.open_interval(start, before);
            self.q_window_len = self.queue_window(port);
            self.q_window_end = now + self.q_window_len;
        }
        self.sample_queue(now, port);
        if now >= self.interval_end {
            self.end_interval(now, before, port);
        }
        let Hdr::XcpData {
            cwnd,
            rtt_us,
            feedback,
            ..
        } = &mut pkt.header
        else {
            return;
        };
        if *rtt_us == 0 || *cwnd == 0 {
            return;
        }
        let mut rtt = f64::from(*rtt_us) * 1e-6;
        if let Some(cap) = self.cfg.rtt_cap {
            rtt = rtt.min(cap.as_secs_f64());
        }
        let s = f64::from(pkt.size);
        let s_by_cwnd = s / f64::from(*cwnd);
        self.sum_rtt_s_cwnd += rtt * s_by_cwnd;
        self.sum_rtt2_s_cwnd += rtt * rtt * s_by_cwnd;
        self.sum_s += s;
        let pos = (self.xi_p * rtt * rtt * s_by_cwnd).min(self.residue_pos * rtt);
        let neg = (self.xi_n * rtt * s).min(self.residue_neg * rtt);
        let fb = pos - neg;
        let h = f64::from(*feedback);
        if h >= fb {
            *feedback = fb as f32;
            self.residue_pos -= pos / rtt;
            self.residue_neg -= neg / rtt;
        } else {
            // Throttled upstream (or a modest request): Appendix A's re-booking.
            self.residue_pos -= h.max(0.0) / rtt;
            self.residue_neg -= if fb >= 0.0 { fb - h } else { -h } / rtt;
        }
        self.residue_pos = self.residue_pos.max(0.0);
        self.residue_neg = self.residue_neg.max(0.0);
    }

    fn open_interval(&mut self, now: SimTime, offered_before: u64) {
        self.interval_start = now;
        self.interval_end = now + dur_from_secs(self.d);
        self.offered_mark = offered_before;
        self.sum_rtt_s_cwnd = 0.0;
        self.sum_rtt2_s_cwnd = 0.0;
        self.sum_s = 0.0;
    }

    /// The persistent-queue window: a fraction of the propagation delay d - q/C.
    fn queue_window(&self, port: XcpPort) -> Dur {
        let capacity = port.rate.bps() as f64 / 8.0;
        let prop = (self.d - port.queue_bytes as f64 / capacity).max(0.0);
        dur_from_secs(prop * self.cfg.queue_window_factor).max(self.cfg.min_queue_window)
    }

    /// The queue seen by an arriving packet: fold it into the window's minimum, latching the
    /// minimum when the window is over.
    fn sample_queue(&mut self, now: SimTime, port: XcpPort) {
        if now >= self.q_window_end {
            let idle = now >= self.q_window_end + self.q_window_len;
            self.q_persistent = match self.q_min {
                // A whole window with no arrival: the queue has only drained since.
                Some(m) if !idle => m,
                _ => port.queue_bytes,
            };
            self.q_min = None;
            self.q_window_len = self.queue_window(port);
            self.q_window_end = now + self.q_window_len;
        }
        self.q_min = Some(
            self.q_min
                .map_or(port.queue_bytes, |m| m.min(port.queue_bytes)),
        );
    }

    /// The control interval the current interval's packets give (d kept if none had an RTT).
    fn next_interval(&self) -> f64 {
        if self.sum_rtt_s_cwnd > 0.0 {
            (self.sum_rtt2_s_cwnd / self.sum_rtt_s_cwnd).max(self.cfg.min_interval.as_secs_f64())
        } else {
            self.d
        }
    }

    /// Whether a timer would have run a whole interval without a packet before `now`: the
    /// current interval ends at `interval_end`, the next one d later.
    fn idle_at(&self, now: SimTime) -> bool {
        now >= self.interval_end + dur_from_secs(self.next_interval())
    }

    /// Back to the state of a new port (see the module docs), before the packet at `now`. The
    /// timer that found the interval empty fired at its end and, with d back at
    /// `initial_interval`, every `initial_interval` since: the new interval starts at the last
    /// of those ticks, not at the packet.
    fn restart(&mut self, now: SimTime) {
        let intervals = self.intervals + 1;
        let idle_from = self.interval_end + dur_from_secs(self.next_interval());
        let period = self.cfg.initial_interval.0.max(1);
        let tick = idle_from + Dur((now - idle_from).0 / period * period);
        *self = XcpRouter::new(self.cfg);
        self.restart_tick = Some(tick);
        self.intervals = intervals;
        self.decision = XcpDecision {
            at: now,
            d: self.d,
            ..XcpDecision::default()
        };
    }

    fn end_interval(&mut self, now: SimTime, offered_before: u64, port: XcpPort) {
        let input = offered_before.saturating_sub(self.offered_mark);
        let sums = (self.sum_rtt_s_cwnd, self.sum_rtt2_s_cwnd, self.sum_s);
        let measured = (now - self.interval_start).as_secs_f64();
        self.decide(now, measured, input, sums, port);
        self.intervals += 1;
        self.open_interval(now, offered_before);
    }

    /// The controllers' decision for an interval of `measured` seconds that carried `input`
    /// bytes and the XCP sums `sums` (Σ rtt·s/cwnd, Σ rtt²·s/cwnd, Σ s).
    fn decide(
        &mut self,
        now: SimTime,
        measured: f64,
        input: u64,
        sums: (f64, f64, f64),
        port: XcpPort,
    ) {
        let cfg = self.cfg;
        let capacity = port.rate.bps() as f64 / 8.0;
        let rate_in = input as f64 / measured;
        if sums.0 > 0.0 {
            self.d = (sums.1 / sums.0).max(cfg.min_interval.as_secs_f64());
        }
        let d = self.d;
        let spare = capacity - rate_in;
        let q = self.q_persistent as f64;
        let phi = cfg.alpha * d * spare - cfg.beta * q;
        let shuffle = (cfg.gamma * rate_in * d - phi.abs()).max(0.0);
        let pos = shuffle + phi.max(0.0);
        let neg = shuffle + (-phi).max(0.0);
        // The next interval's sums, predicted from this one's rate of accumulation.
        let scale = if measured > 0.0 { d / measured } else { 0.0 };
        let next_rtt = sums.0 * scale;
        let next_s = sums.2 * scale;
        // An interval with no XCP packet to estimate from keeps the last estimate.
        if next_rtt > 0.0 {
            self.xi_p = pos / (d * next_rtt);
        }
        if next_s > 0.0 {
            self.xi_n = neg / (d * next_s);
        }
        self.residue_pos = pos / d;
        self.residue_neg = neg / d;
        self.decision = XcpDecision {
            at: now,
            measured_secs: measured,
            input_bytes: input,
            d,
            spare,
            queue: self.q_persistent,
            phi,
            shuffle,
            xi_p: self.xi_p,
            xi_n: self.xi_n,
            budget_pos: self.residue_pos,
            budget_neg: self.residue_neg,
        };
    }
}
