//! The sans-IO agent contract.
//!
//! An agent is a state machine driven by three kinds of input, each handed a context:
//!
//! * inputs (`on_start`, `on_packet`, `on_timer`, `on_stop`): the driver calls these with a
//!   monotonic `ctx.now()`; the agent reacts only through the context;
//! * outputs, through [`Ctx`]: `send` a packet, `set_timer`/`cancel_timer` on a slot,
//!   draw from its own `rng`, record a `trace` variable;
//! * getters (`var`, `stats`): read-only, callable at any time.
//!
//! An agent never blocks, sleeps or reads a clock. Timers are slots (`TimerSlot`, a small
//! index the agent names); setting a slot replaces its previous deadline. A timer may fire
//! spuriously late but never early, and an agent must tolerate being woken for a slot it
//! no longer cares about (it checks its own state). The same agent runs in the simulator and
//! behind a real-socket driver.

use crate::packet::{Addr, Packet};
use crate::rng::RngStream;
use crate::units::SimTime;

/// A timer slot of one agent; at most [`TimerSlot::MAX`] slots per agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TimerSlot(pub u8);

impl TimerSlot {
    /// Number of timer slots each agent has.
    pub const MAX: usize = 4;
}

/// Trace variables an agent can expose, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum VarId {
    /// Congestion window: bytes for TCP, request messages for TICP.
    Cwnd = 0,
    /// Slow-start threshold, bytes.
    Ssthresh = 1,
    /// Smoothed round-trip time, seconds.
    Srtt = 2,
    /// Retransmission timeout, seconds.
    Rto = 3,
    /// Bytes sent and not yet acknowledged.
    BytesInFlight = 4,
    /// Sending rate, bits per second.
    Rate = 5,
    /// Reports collected so far (an information-collection protocol's collector).
    Reports = 6,
    /// Current error-recovery round (1, 2, ...).
    Round = 7,
    /// Rank of the cluster being probed (0 = the first probed).
    Cluster = 8,
    /// A TCP sender's congestion state: 0 open, 1 ECN window reduction, 2 fast recovery,
    /// 3 after a timeout (Linux's `TCP_CA_*` names: Open, CWR, Recovery, Loss).
    CaState = 9,
    /// Number of the data segment a TCP sender just transmitted (retransmissions included):
    /// traced at every transmission, the points of a sequence-number plot.
    Seq = 10,
    /// A model-based sender's bottleneck-bandwidth estimate, payload bits per second (BBR's
    /// `bbr_bw`, as Linux's `bbr_info` reports it).
    BtlBw = 11,
    /// A model-based sender's round-trip propagation estimate (BBR's min_rtt), seconds.
    MinRtt = 12,
    /// A model-based sender's pacing gain (BBR's, as a ratio: 2.885 in STARTUP).
    PacingGain = 13,
    /// A model-based sender's window gain (BBR's, as a ratio).
    CwndGain = 14,
}

impl VarId {
    /// Every variable, in code order.
    pub const ALL: [VarId; 15] = [
        VarId::Cwnd,
        VarId::Ssthresh,
        VarId::Srtt,
        VarId::Rto,
        VarId::BytesInFlight,
        VarId::Rate,
        VarId::Reports,
        VarId::Round,
        VarId::Cluster,
        VarId::CaState,
        VarId::Seq,
        VarId::BtlBw,
        VarId::MinRtt,
        VarId::PacingGain,
        VarId::CwndGain,
    ];

    /// The name used in scenario files and result tables.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            VarId::Cwnd => "cwnd",
            VarId::Ssthresh => "ssthresh",
            VarId::Srtt => "srtt",
            VarId::Rto => "rto",
            VarId::BytesInFlight => "inflight",
            VarId::Rate => "send_rate",
            VarId::Reports => "reports",
            VarId::Round => "round",
            VarId::Cluster => "cluster",
            VarId::CaState => "ca_state",
            VarId::Seq => "seq",
            VarId::BtlBw => "btl_bw",
            VarId::MinRtt => "min_rtt",
            VarId::PacingGain => "pacing_gain",
            VarId::CwndGain => "cwnd_gain",
        }
    }

    /// The name of this variable's change trace in result tables (`"cwnd:change"`), kept
    /// apart from its interval samples (`"cwnd"`).
    #[must_use]
    pub fn change_name(self) -> &'static str {
        match self {
            VarId::Cwnd => "cwnd:change",
            VarId::Ssthresh => "ssthresh:change",
            VarId::Srtt => "srtt:change",
            VarId::Rto => "rto:change",
            VarId::BytesInFlight => "inflight:change",
            VarId::Rate => "send_rate:change",
            VarId::Reports => "reports:change",
            VarId::Round => "round:change",
            VarId::Cluster => "cluster:change",
            VarId::CaState => "ca_state:change",
            VarId::Seq => "seq:change",
            VarId::BtlBw => "btl_bw:change",
            VarId::MinRtt => "min_rtt:change",
            VarId::PacingGain => "pacing_gain:change",
            VarId::CwndGain => "cwnd_gain:change",
        }
    }

    /// The variable called `name`, if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<VarId> {
        VarId::ALL.into_iter().find(|v| v.name() == name)
    }

    /// A one-bit mask for this variable.
    #[must_use]
    pub fn bit(self) -> u32 {
        1 << (self as u8)
    }
}

/// Counters an agent keeps about its own traffic; the engine keeps the rest.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AgentStats {
    /// Application bytes delivered in order to the receiving application.
    pub app_bytes_delivered: u64,
    /// Application bytes received out of order and held until the gap below them fills
    /// (a TCP receiver's reassembly queue). Delivered plus held is every new byte that has
    /// arrived: goodput over a window counts bytes when they arrive, so it never exceeds
    /// what the path carried in the window.
    pub app_bytes_held: u64,
    /// Data packets this receiver accepted (duplicates included).
    pub data_packets_received: u64,
    /// Data packets this sender retransmitted.
    pub retransmitted_packets: u64,
    /// Retransmission timeouts this sender took.
    pub timeouts: u64,
    /// For a finite transfer: when the last byte was acknowledged.
    pub completed_at: Option<SimTime>,
}

/// What an agent may do: the whole of its view of the world.
pub trait Ctx<H> {
    /// The current time.
    fn now(&self) -> SimTime;
    /// This agent's own address.
    fn addr(&self) -> Addr;
    /// Hand a packet to the network. The driver fills in `src` and `sent_at`.
    fn send(&mut self, pkt: Packet<H>);
    /// Arm `slot` to fire at `at` (replacing any earlier deadline of that slot).
    fn set_timer(&mut self, slot: TimerSlot, at: SimTime);
    /// Disarm `slot`; a no-op if it is not armed.
    fn cancel_timer(&mut self, slot: TimerSlot);
    /// This agent's own random stream.
    fn rng(&mut self) -> &mut RngStream;
    /// Whether `var` is being traced on change; lets an agent skip work when it is not.
    fn tracing(&self, var: VarId) -> bool;
    /// Record the new value of a traced variable (a no-op unless the spec asked for it).
    fn trace(&mut self, var: VarId, value: f64);
    /// Hand on a packet this agent received as a relay of its multicast group (see the
    /// engine's `Sim::add_group_relay`): `src` and `sent_at` are kept, and a group-addressed
    /// packet is replicated at this agent's node along its source's tree (a unicast one is
    /// forwarded from this node). Counted as one more copy of the packet it received (a
    /// replication), not as a new send.
    fn relay(&mut self, pkt: Packet<H>);
    /// Join multicast group `key` (see [`Addr::group`]); joining twice is a no-op.
    fn join_group(&mut self, key: u32);
    /// Leave multicast group `key`; a no-op if not a member.
    fn leave_group(&mut self, key: u32);
    /// Say that this agent's work is done (a finite transfer completed), so the driver may
    /// retire it; the agent still receives inputs until it does. A no-op by default.
    fn finish(&mut self) {}
}

/// A protocol end point (sender, receiver or both), driven through a [`Ctx`].
pub trait Agent<H> {
    /// Called once at the agent's start time.
    fn on_start<C: Ctx<H>>(&mut self, ctx: &mut C);
    /// Called for every packet addressed to this agent.
    fn on_packet<C: Ctx<H>>(&mut self, pkt: &Packet<H>, ctx: &mut C);
    /// Called when an armed timer slot reaches its deadline.
    fn on_timer<C: Ctx<H>>(&mut self, slot: TimerSlot, ctx: &mut C);
    /// Called at the agent's stop time: stop offering new data.
    fn on_stop<C: Ctx<H>>(&mut self, _ctx: &mut C) {}
    /// The current value of a trace variable, if this agent has it.
    fn var(&self, _var: VarId) -> Option<f64> {
        None
    }
    /// The agent's own counters.
    fn stats(&self) -> AgentStats {
        AgentStats::default()
    }
}

/// The current values of those of `vars` that `ctx` is tracing (NaN for the others); take
/// this before an input and hand it to [`trace_changes`] after, so an agent records every
/// change of a traced variable without tracking each mutation by hand.
pub fn traced_values<H, A: Agent<H>, C: Ctx<H>, const N: usize>(
    agent: &A,
    ctx: &C,
    vars: [VarId; N],
) -> [f64; N] {
    vars.map(|v| {
        if ctx.tracing(v) {
            agent.var(v).unwrap_or(f64::NAN)
        } else {
            f64::NAN
        }
    })
}

/// Record each traced variable of `vars` whose value differs from `before`.
pub fn trace_changes<H, A: Agent<H>, C: Ctx<H>, const N: usize>(
    agent: &A,
    ctx: &mut C,
    vars: [VarId; N],
    before: [f64; N],
) {
    for (v, old) in vars.into_iter().zip(before) {
        if ctx.tracing(v) {
            let now = agent.var(v).unwrap_or(f64::NAN);
            if now.to_bits() != old.to_bits() {
                ctx.trace(v, now);
            }
        }
    }
}
