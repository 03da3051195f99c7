//! Congestion control: the window algorithms, behind one trait.
//!
//! The split follows Linux's `tcp_congestion_ops` (and ns-3's `TcpCongestionOps`): the
//! sender owns sequence numbers, timers, loss recovery (`sender/recovery.rs`) and
//! delivery-rate sampling (`rate.rs`); an algorithm only decides how the window grows on
//! an acknowledgement, what the slow-start threshold becomes on a congestion event, and may
//! watch RTT samples, timeouts and state changes. Every hook but `on_ack` defaults to the
//! RFC 5681 behaviour or to nothing, so an algorithm is a short file.
//!
//! Windows are in bytes, as in RFC 5681; sequence numbers are segments.
//!
//! A model-based algorithm (BBR) is Linux's `cong_control`: it sets the window and the pacing
//! rate itself on every ACK from a delivery-rate sample ([`RateSample`]) and the connection's
//! state ([`Conn`]); the sender then neither grows the window nor cuts it on congestion
//! events, and only tells the algorithm of them (`ssthresh`, `on_state`).

mod bbr;
mod cubic;
mod dctcp;
mod prague;
mod reno;
mod vegas;
mod vegas_ns2;

use ccsim_core::{Dur, RngStream, SimTime, VarId};

pub use bbr::{Bbr, BbrMode, ProbeBwPhase};
pub use cubic::{cubic_root, Cubic, CubicParams};
pub use dctcp::{Dctcp, DctcpParams};
pub use prague::{Prague, PragueParams};
pub use reno::{LinuxReno, Reno};
pub use vegas::{Vegas, VegasParams, VegasVariant};
pub use vegas_ns2::VegasNs2;

pub use super::rate::RateSample;

/// Linux's congestion-avoidance states (`TCP_CA_*`), as far as this sender uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaState {
    /// Normal operation: slow start or congestion avoidance.
    Open,
    /// The window was reduced on an ECN echo; no further reduction until the data
    /// outstanding at that moment is acknowledged (RFC 3168 section 6.1.2).
    Cwr,
    /// Fast recovery after a fast retransmit.
    Recovery,
    /// After a retransmission timeout, until the data outstanding then is acknowledged.
    Loss,
}

/// The window state an algorithm reads and writes.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    /// Congestion window, bytes.
    pub cwnd: u64,
    /// Slow-start threshold, bytes (`u64::MAX` until the first congestion event).
    pub ssthresh: u64,
    /// Maximum segment size, bytes.
    pub mss: u64,
    /// RFC 5681 FlightSize, bytes.
    pub flight: u64,
    /// Whether the window may grow on this ACK: the sender used its window recently
    /// (Linux `tcp_is_cwnd_limited`; RFC 7661 section 4.2's concern). Always true when the
    /// sender's `cwnd_limited_growth` is off.
    pub cwnd_limited: bool,
}

impl Window {
    /// Whether the sender is in slow start (RFC 5681 section 3.1: cwnd < ssthresh).
    #[must_use]
    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }
}

/// What an acknowledgement that advanced the cumulative ACK point tells the algorithm.
#[derive(Clone, Copy, Debug)]
pub struct AckEvent {
    /// When it arrived.
    pub now: SimTime,
    /// Segments newly acknowledged cumulatively.
    pub acked_segments: u64,
    /// The new cumulative ACK point (oldest unacknowledged segment).
    pub snd_una: u64,
    /// The next new segment the sender will send.
    pub snd_nxt: u64,
}

/// What every ACK delivered, in recovery or not (Linux's `delivered` and `delivered_ce`).
#[derive(Clone, Copy, Debug)]
pub struct Delivery {
    /// Segments newly delivered: acknowledged cumulatively or newly SACKed.
    pub segments: u64,
    /// Whether the ACK echoed CE.
    pub ece: bool,
    /// Of `segments`, those reported CE-marked: all of them when the ACK echoed CE (a
    /// per-segment echo), or AccECN's count.
    pub ce: u64,
    /// The ACK point after it.
    pub snd_una: u64,
    /// The next new segment the sender will send.
    pub snd_nxt: u64,
}

/// The connection as a model-based algorithm reads it on an ACK (the `tcp_sock` fields Linux's
/// `cong_control` reads).
#[derive(Clone, Copy, Debug)]
pub struct Conn {
    /// Now.
    pub now: SimTime,
    /// The sender's state after this ACK's loss recovery.
    pub state: CaState,
    /// Segments in flight (`tcp_packets_in_flight`: RFC 6675's pipe).
    pub in_flight: u64,
    /// Segments delivered so far (`tp->delivered`) and when that last changed.
    pub delivered: u64,
    /// When the delivered count last changed (`tp->delivered_mstamp`).
    pub delivered_time: SimTime,
    /// Segments delivered with a congestion mark so far (`tp->delivered_ce`).
    pub delivered_ce: u64,
    /// The oldest unacknowledged segment and the next new one (`snd_una`, `snd_nxt`).
    pub snd_una: u64,
    /// The next new segment the sender will send.
    pub snd_nxt: u64,
    /// Bytes of a full segment on the wire, headers included (`tcp_mss_to_mtu`).
    pub packet_size: u64,
    /// Segments marked lost so far (`tp->lost`).
    pub lost: u64,
    /// The smoothed RTT, once measured.
    pub srtt: Option<Dur>,
    /// The connection's minimum RTT, once measured.
    pub min_rtt: Option<Dur>,
    /// The pacer's next release time (`tcp_wstamp_ns`).
    pub next_release: SimTime,
}

/// What a model-based algorithm decides on an ACK besides the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Control {
    /// The pacing rate, payload bytes per second (`sk_pacing_rate`); `None` to keep it.
    pub pacing_rate: Option<u64>,
    /// Mark the sender application-limited (BBR's PROBE_RTT ignores its low samples).
    pub mark_app_limited: bool,
}

/// The version of the [`CongestionControl`] contract: the hooks, their arguments and the
/// order the sender calls them in. It changes when any of them changes meaning, so an
/// algorithm written outside ccsim can state the version it was written against.
pub const CONTRACT_VERSION: u32 = 1;

/// A congestion-control algorithm: the contract between the TCP sender and a window or
/// model-based algorithm, built-in or a user's (version [`CONTRACT_VERSION`]).
///
/// On each ACK the sender calls, in this order: [`on_delivery`](Self::on_delivery) (every
/// ACK, for algorithms that ask for it), [`on_rtt`](Self::on_rtt) (when the ACK gives an
/// RTT sample), then either [`on_ack`](Self::on_ack) (a window algorithm, on an ACK of new
/// data outside loss recovery) or [`cong_control`](Self::cong_control) (a model-based
/// algorithm, every ACK). On a congestion event it calls [`ssthresh`](Self::ssthresh) (ECN
/// echo) or [`loss_ssthresh`](Self::loss_ssthresh) (loss), then
/// [`on_state`](Self::on_state); on a timeout [`on_rto`](Self::on_rto) after setting cwnd to
/// one segment. Windows are bytes. A user's algorithm ([`CustomCc`]) has its window kept
/// between one segment and [`CUSTOM_WINDOW_LIMIT`] and its thresholds at least two segments.
pub trait CongestionControl {
    /// Grow (or shrink) the window on an ACK of new data outside loss recovery.
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent);

    /// The slow-start threshold after a congestion event (a loss detected by duplicate
    /// ACKs, an ECN echo or a timeout). RFC 5681 equation 4 by default.
    fn ssthresh(&mut self, w: &Window) -> u64 {
        (w.flight / 2).max(2 * w.mss)
    }

    /// The slow-start threshold after a loss (duplicate ACKs or a timeout); `ssthresh` by
    /// default. DCTCP halves here where an ECN echo takes alpha / 2.
    fn loss_ssthresh(&mut self, w: &Window) -> u64 {
        self.ssthresh(w)
    }

    /// Every ACK, before any other hook (Linux's `in_ack_event`).
    fn on_delivery(&mut self, _d: &Delivery) {}

    /// One RTT measurement: the time from sending a segment that was never retransmitted
    /// to the ACK that first covered it (one per ACK that advances the ACK point).
    fn on_rtt(&mut self, _rtt: Dur, _now: SimTime) {}

    /// A retransmission timeout fired (after the sender set cwnd to one segment).
    fn on_rto(&mut self, _w: &mut Window) {}

    /// The sender moved to `state`; `snd_nxt` is the next new segment it will send.
    fn on_state(&mut self, _w: &mut Window, _state: CaState, _snd_nxt: u64) {}

    /// Model-based control on every ACK (Linux's `cong_control`): set the window and the
    /// pacing rate from the sample. Only called when [`AnyCc::sets_window`].
    fn cong_control(
        &mut self,
        _w: &mut Window,
        _rs: &RateSample,
        _conn: &Conn,
        _rng: &mut RngStream,
    ) -> Control {
        Control::default()
    }

    /// The connection is established (Linux's `init`); returns the pacing rate before the
    /// first ACK (payload bytes per second) for an algorithm that paces.
    fn on_init(&mut self, _w: &mut Window, _conn: &Conn) -> Option<u64> {
        None
    }

    /// The value of a model variable ([`VarId::BtlBw`], [`VarId::MinRtt`],
    /// [`VarId::PacingGain`], [`VarId::CwndGain`]) for series and traces; `None` for an
    /// algorithm without that variable (every one but BBR's by default).
    fn model_var(&self, _var: VarId) -> Option<f64> {
        None
    }

    /// Segments per send for a paced sender (Linux's `ca_ops->tso_segs`, the TSO goal), read
    /// after every [`cong_control`](Self::cong_control): they leave back to back at one
    /// release time (`tcp/pacing.rs`). One by default.
    fn tso_segs(&self, _mss: u64) -> u64 {
        1
    }
}

/// The built-in algorithms, statically dispatched, and a user's behind a box.
#[derive(Debug)]
pub enum AnyCc {
    /// RFC 5681 slow start and congestion avoidance (Tahoe, Reno, NewReno and SACK).
    Reno(Reno),
    /// Linux's Reno growth (`growth = "linux"`): acknowledged segments counted.
    LinuxReno(LinuxReno),
    /// TCP Vegas.
    Vegas(Vegas),
    /// TCP Vegas as ns-2 runs it.
    VegasNs2(VegasNs2),
    /// CUBIC as Linux runs it.
    Cubic(Cubic),
    /// DCTCP as Linux runs it.
    Dctcp(Dctcp),
    /// XCP: the window follows router feedback (`crate::xcp`).
    Xcp(crate::xcp::XcpWindow),
    /// BBR as Linux runs it (v1) or Google's v3.
    Bbr(Box<Bbr>),
    /// TCP Prague (L4S).
    Prague(Box<Prague>),
    /// An algorithm from outside the built-in set (a user's crate, or Python through the
    /// `ccsim` module), registered by name.
    Custom(CustomCc),
}

/// A user's algorithm behind the contract, with what the sender must know of it.
pub struct CustomCc {
    name: &'static str,
    model_based: bool,
    wants_deliveries: bool,
    inner: Box<dyn CongestionControl + Send>,
}

impl CustomCc {
    /// `inner` under `name`; `model_based`: it sets the window and the pacing rate itself in
    /// [`CongestionControl::cong_control`] (as BBR), so the sender never grows or cuts the
    /// window; `wants_deliveries`: it reads [`CongestionControl::on_delivery`].
    #[must_use]
    pub fn new(
        name: &'static str,
        model_based: bool,
        wants_deliveries: bool,
        inner: Box<dyn CongestionControl + Send>,
    ) -> Self {
        CustomCc {
            name,
            model_based,
            wants_deliveries,
            inner,
        }
    }

    /// The name it was registered under.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.name
    }
}

/// The largest window and threshold a user's algorithm may set, bytes: 2^30, the largest
/// receive window TCP can advertise (RFC 7323 section 2.2: 65535 x 2^14).
pub const CUSTOM_WINDOW_LIMIT: u64 = 1 << 30;

impl CustomCc {
    /// A window as a user's algorithm left it, within bounds.
    ///
    /// CHOICE: cwnd is kept between one segment and [`CUSTOM_WINDOW_LIMIT`], a threshold
    /// other than "none yet" (`u64::MAX`) between two segments (RFC 5681 equation 4's floor,
    /// Linux's algorithms' too) and the limit: a window of 0 would stall the flow and one of
    /// 2^62 bytes would have the sender queue more segments than the machine holds.
    fn bounded(w: &mut Window) {
        let limit = CUSTOM_WINDOW_LIMIT.max(2 * w.mss);
        w.cwnd = w.cwnd.clamp(w.mss, limit);
        if w.ssthresh != u64::MAX {
            w.ssthresh = Self::threshold(w.ssthresh, w.mss);
        }
    }

    fn threshold(bytes: u64, mss: u64) -> u64 {
        bytes.clamp(2 * mss, CUSTOM_WINDOW_LIMIT.max(2 * mss))
    }
}

impl CongestionControl for CustomCc {
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        self.inner.on_ack(w, ack);
        Self::bounded(w);
    }
    fn ssthresh(&mut self, w: &Window) -> u64 {
        Self::threshold(self.inner.ssthresh(w), w.mss)
    }
    fn loss_ssthresh(&mut self, w: &Window) -> u64 {
        Self::threshold(self.inner.loss_ssthresh(w), w.mss)
    }
    fn on_delivery(&mut self, d: &Delivery) {
        self.inner.on_delivery(d);
    }
    fn on_rtt(&mut self, rtt: Dur, now: SimTime) {
        self.inner.on_rtt(rtt, now);
    }
    fn on_rto(&mut self, w: &mut Window) {
        self.inner.on_rto(w);
        Self::bounded(w);
    }
    fn on_state(&mut self, w: &mut Window, state: CaState, snd_nxt: u64) {
        self.inner.on_state(w, state, snd_nxt);
        Self::bounded(w);
    }
    fn cong_control(
        &mut self,
        w: &mut Window,
        rs: &RateSample,
        conn: &Conn,
        rng: &mut RngStream,
    ) -> Control {
        let control = self.inner.cong_control(w, rs, conn, rng);
        Self::bounded(w);
        control
    }
    fn on_init(&mut self, w: &mut Window, conn: &Conn) -> Option<u64> {
        let rate = self.inner.on_init(w, conn);
        Self::bounded(w);
        rate
    }
    fn model_var(&self, var: VarId) -> Option<f64> {
        self.inner.model_var(var)
    }
    fn tso_segs(&self, mss: u64) -> u64 {
        self.inner.tso_segs(mss).clamp(1, 0x7f)
    }
}

impl std::fmt::Debug for CustomCc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CustomCc")
            .field("name", &self.name)
            .field("model_based", &self.model_based)
            .finish_non_exhaustive()
    }
}

macro_rules! each_cc {
    ($self:expr, $c:ident => $body:expr) => {
        match $self {
            AnyCc::Reno($c) => $body,
            AnyCc::LinuxReno($c) => $body,
            AnyCc::Vegas($c) => $body,
            AnyCc::VegasNs2($c) => $body,
            AnyCc::Cubic($c) => $body,
            AnyCc::Dctcp($c) => $body,
            AnyCc::Xcp($c) => $body,
            AnyCc::Bbr($c) => $body,
            AnyCc::Prague($c) => $body,
            AnyCc::Custom($c) => $body,
        }
    };
}

impl AnyCc {
    /// Whether the algorithm reads every ACK's deliveries (`on_delivery`): the sender counts
    /// them only then.
    #[must_use]
    #[inline]
    pub fn wants_deliveries(&self) -> bool {
        match self {
            AnyCc::Dctcp(_) => true,
            AnyCc::Custom(c) => c.wants_deliveries,
            _ => false,
        }
    }

    /// Whether the algorithm sets the window itself on every ACK (`cong_control`).
    #[must_use]
    #[inline]
    pub fn sets_window(&self) -> bool {
        match self {
            AnyCc::Bbr(_) | AnyCc::Prague(_) => true,
            AnyCc::Custom(c) => c.model_based,
            _ => false,
        }
    }
}

impl CongestionControl for AnyCc {
    #[inline]
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        each_cc!(self, c => c.on_ack(w, ack));
    }
    fn ssthresh(&mut self, w: &Window) -> u64 {
        each_cc!(self, c => c.ssthresh(w))
    }
    fn loss_ssthresh(&mut self, w: &Window) -> u64 {
        each_cc!(self, c => c.loss_ssthresh(w))
    }
    #[inline]
    fn on_delivery(&mut self, d: &Delivery) {
        each_cc!(self, c => c.on_delivery(d));
    }
    #[inline]
    fn on_rtt(&mut self, rtt: Dur, now: SimTime) {
        each_cc!(self, c => c.on_rtt(rtt, now));
    }
    fn on_rto(&mut self, w: &mut Window) {
        each_cc!(self, c => c.on_rto(w));
    }
    fn on_state(&mut self, w: &mut Window, state: CaState, snd_nxt: u64) {
        each_cc!(self, c => c.on_state(w, state, snd_nxt));
    }
    fn cong_control(
        &mut self,
        w: &mut Window,
        rs: &RateSample,
        conn: &Conn,
        rng: &mut RngStream,
    ) -> Control {
        each_cc!(self, c => c.cong_control(w, rs, conn, rng))
    }
    fn on_init(&mut self, w: &mut Window, conn: &Conn) -> Option<u64> {
        each_cc!(self, c => c.on_init(w, conn))
    }
    fn model_var(&self, var: VarId) -> Option<f64> {
        each_cc!(self, c => c.model_var(var))
    }
    fn tso_segs(&self, mss: u64) -> u64 {
        each_cc!(self, c => c.tso_segs(mss))
    }
}

/// A window of `cwnd` and `ssthresh` segments of 1000 B, all in flight and in use: the
/// algorithms' tests' starting point.
#[cfg(test)]
pub(crate) fn test_window(cwnd: u64, ssthresh: u64) -> Window {
    Window {
        cwnd: cwnd * 1000,
        ssthresh: ssthresh * 1000,
        mss: 1000,
        flight: cwnd * 1000,
        cwnd_limited: true,
    }
}
