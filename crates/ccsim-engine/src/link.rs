//! Simplex links: serialisation at a rate, propagation delay, an egress queue and drops.
//!
//! CHOICE: a DropTail limit counts the packets (or bytes) waiting in the queue, not the one
//! being serialised, as ns-2's `DropTail` does. Random loss is applied when a packet is
//! offered to the link, before the queue, so a lost packet never occupies the queue or the
//! wire; it is counted as a drop with reason [`DropReason::RandomLoss`].
//!
//! A link's [`Discipline`] is DropTail, RED ([`crate::red`]), step marking or DualPI2
//! ([`crate::dualpi2`]). RED decides after random loss, drop rules and the router hook, and
//! before the physical limit, which applies to RED links too: RED sees the waiting-queue
//! length (packets, or bytes in byte mode) that the limit also counts. A DualPI2 link keeps
//! its waiting packets in the DualPI2 state's two queues (its `queue` stays empty) and takes
//! the offer path's slow branch ([`Link::guard`]), so DropTail links pay nothing for it.

use std::collections::VecDeque;
use std::sync::Arc;

use ccsim_core::{Dur, FlowId, Packet, Rate, RngStream};

use crate::custom_queue::CustomPort;
use crate::delivery::{DeliveryTrace, TraceCursor};
use crate::dualpi2::{DualPi2, DualPi2Config};
use crate::red::{Red, RedConfig};

/// Index of a simplex link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LinkId(pub u32);

/// A DropTail limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueLimit {
    /// At most this many packets wait.
    Packets(u64),
    /// At most this many bytes wait.
    Bytes(u64),
}

/// Why a packet was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DropReason {
    /// The egress queue was full.
    QueueFull,
    /// The per-link random loss model drew a loss.
    RandomLoss,
    /// A deterministic drop rule matched.
    Rule,
    /// A router function dropped it.
    Router,
    /// RED's probabilistic test selected it (a packet that was not marked instead).
    RedEarly,
    /// RED's average was at or above `max_th` (`2 max_th` when gentle).
    RedForced,
    /// The link was down: offered while down, or held (queued, in service or propagating)
    /// when it went down.
    LinkDown,
    /// A node at either end of the link was down (counted on the link), or the packet was
    /// at a down node (counted on the node, [`crate::NodeStats`]).
    NodeDown,
    /// The routing tables in force had no next hop toward the destination (counted on the
    /// node where the packet was).
    NoRoute,
    /// The destination agent had been retired (counted on its node).
    NoAgent,
    /// DualPI2 dropped a packet of its classic queue with `p_C` (RFC 9332 section 2.4).
    Dualpi2C,
    /// DualPI2 dropped a packet of its L queue (overload, RFC 9332 section 4.2.3).
    Dualpi2L,
    /// A user's queue discipline dropped it ([`crate::custom_queue`]).
    Aqm,
}

impl DropReason {
    /// Every reason, in counter order.
    pub const ALL: [DropReason; DropReason::COUNT] = [
        DropReason::QueueFull,
        DropReason::RandomLoss,
        DropReason::Rule,
        DropReason::Router,
        DropReason::RedEarly,
        DropReason::RedForced,
        DropReason::LinkDown,
        DropReason::NodeDown,
        DropReason::NoRoute,
        DropReason::NoAgent,
        DropReason::Dualpi2C,
        DropReason::Dualpi2L,
        DropReason::Aqm,
    ];
    /// Number of reasons (the length of [`LinkStats::drops`]).
    pub const COUNT: usize = 13;
    /// Reasons only a DualPI2 link counts: summaries list them only for runs with one.
    #[must_use]
    pub fn dualpi2_only(self) -> bool {
        matches!(self, DropReason::Dualpi2C | DropReason::Dualpi2L)
    }
    /// Reasons only a link with a user's queue discipline counts: summaries list them only
    /// for runs with one.
    #[must_use]
    pub fn custom_only(self) -> bool {
        self == DropReason::Aqm
    }
    /// Name used in results.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            DropReason::QueueFull => "queue_full",
            DropReason::RandomLoss => "random_loss",
            DropReason::Rule => "rule",
            DropReason::Router => "router",
            DropReason::RedEarly => "red_early",
            DropReason::RedForced => "red_forced",
            DropReason::LinkDown => "link_down",
            DropReason::NodeDown => "node_down",
            DropReason::NoRoute => "no_route",
            DropReason::NoAgent => "no_agent",
            DropReason::Dualpi2C => "dualpi2_c",
            DropReason::Dualpi2L => "dualpi2_l",
            DropReason::Aqm => "aqm",
        }
    }
}

/// The egress queue discipline of a link.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum Discipline {
    /// Tail drop at the physical limit only.
    #[default]
    DropTail,
    /// Random Early Detection in front of the physical limit.
    Red(RedConfig),
    /// Step marking (the DCTCP paper's, RFC 8257 section 3.1): an ECN-capable packet that
    /// arrives while more than `threshold` packets wait is marked CE; tail drop at the limit.
    Step {
        /// K, packets waiting.
        threshold: u64,
    },
    /// DualPI2, the DualQ Coupled AQM (RFC 9332), as Linux's `sch_dualpi2`: the physical
    /// limit counts the waiting packets of both queues.
    DualPi2(DualPi2Config),
}

/// How a link is built.
#[derive(Clone, Debug)]
pub struct LinkConfig {
    /// Serialisation rate.
    pub rate: Rate,
    /// Propagation delay.
    pub delay: Dur,
    /// Egress queue limit.
    pub limit: QueueLimit,
    /// Probability that a packet offered to the link is lost (0 for none).
    pub loss: f64,
    /// Each packet's propagation is lengthened by a uniform random amount in [0, jitter)
    /// (0 for none); packets still arrive in the order they were sent.
    pub jitter: Dur,
    /// Queue discipline; the physical `limit` applies under every discipline.
    pub discipline: Discipline,
    /// A mahimahi delivery schedule ([`crate::delivery`]): when set, it times serialisation
    /// and `rate` is only the nominal rate (RED's parameters, the BDP, utilisation's reading).
    pub trace: Option<Arc<DeliveryTrace>>,
}

/// What a router function decides about a packet offered to an egress port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Enqueue the (possibly rewritten) packet.
    Forward,
    /// Drop it.
    Drop,
}

/// The egress port's state, as a router function sees it.
#[derive(Clone, Copy, Debug)]
pub struct PortState {
    /// Link capacity.
    pub rate: Rate,
    /// Packets waiting.
    pub queue_packets: u64,
    /// Bytes waiting.
    pub queue_bytes: u64,
    /// Bytes offered to this port so far.
    pub bytes_offered: u64,
}

/// A router function at an egress port: reads and may rewrite packets offered to the port
/// (XCP, OBP, ECN marking and similar routers plug in here).
pub trait RouterHook<H> {
    /// Inspect a packet before it joins the queue.
    fn on_enqueue(&mut self, now: u64, pkt: &mut Packet<H>, port: &PortState) -> Verdict;
}

/// Always-on counters of one simplex link.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LinkStats {
    /// Packets offered to the link (before any drop).
    pub offered_packets: u64,
    /// Packets whose serialisation finished.
    pub tx_packets: u64,
    /// Bytes whose serialisation finished.
    pub tx_bytes: u64,
    /// Drops, indexed by [`DropReason`] order.
    pub drops: [u64; DropReason::COUNT],
    /// Of those drops, packets already transmitted: lost on the wire when the link or a node
    /// at its ends went down. Conservation: offered = transmitted + (drops - this) + queued.
    pub dropped_after_tx: u64,
    /// Packets set to CE by the queue discipline and accepted into the queue.
    pub ecn_marks: u64,
    /// Integral of the waiting-queue length over time, packet-nanoseconds.
    pub queue_integral: u128,
    /// Nanoseconds spent serialising packets, counted when a transmission ends (or is cut
    /// short by the link going down); [`Link::stats_at`] adds the transmission in progress.
    /// Over any window this is at most the window's length, so the utilisation it gives is
    /// at most 1.
    pub busy_ns: u64,
}

impl LinkStats {
    /// All drops, whatever the reason.
    #[must_use]
    pub fn total_drops(&self) -> u64 {
        self.drops.iter().sum()
    }
}

/// A capture point on a simplex link: sees every packet when its transmission starts.
///
/// CHOICE: a tap sees a packet when it starts serialisation on the link (what a capture on
/// the sending interface records: ns-2's `-` dequeue event), not when it is offered, so
/// packets dropped at the queue are not captured, and a packet in service when the link goes
/// down is captured although it never arrives.
pub trait LinkTap<H> {
    /// Called when `pkt` starts transmission at `now_ns`.
    fn on_transmit(&mut self, now_ns: u64, pkt: &Packet<H>);
}

/// A deterministic drop rule: drop the first arrival of each listed data sequence number
/// of one flow.
#[derive(Clone, Debug)]
pub struct DropRule {
    /// The flow it applies to.
    pub flow: FlowId,
    /// Sorted sequence numbers still to drop.
    pub pending: Vec<u64>,
}

/// A RED link's state and its own random stream.
#[derive(Clone, Debug)]
pub struct RedPort {
    /// The RED state machine.
    pub red: Red,
    /// The stream `link/{name}/red`.
    pub rng: RngStream,
}

/// A DualPI2 link's state and its own random stream.
#[derive(Clone, Debug)]
pub struct DualPi2Port {
    /// The DualPI2 state machine, which holds the waiting packets.
    pub dual: DualPi2,
    /// The stream `link/{name}/dualpi2`.
    pub rng: RngStream,
}

/// One direction of a link.
pub struct Link<H> {
    /// Sending node.
    pub from: u32,
    /// Receiving node.
    pub to: u32,
    /// Configuration.
    pub config: LinkConfig,
    /// Packets waiting (pool indices).
    pub queue: VecDeque<u32>,
    /// Bytes waiting.
    pub queue_bytes: u64,
    /// The packet being serialised, on a link whose queue discipline dequeues at the end of
    /// each transmission (DualPI2, a user's discipline). A FIFO link ([`Link::is_fifo`])
    /// leaves this empty: its packet in service is already in `pipe`, and `busy_until` says
    /// when its serialisation ends.
    pub in_service: Option<u32>,
    /// When its serialisation started, ns.
    pub service_started_at: u64,
    /// A FIFO link: when the last transmission started ends, ns; the link is idle from then
    /// on unless a packet waits.
    pub busy_until: u64,
    /// A FIFO link: the size of the packet of that transmission, bytes.
    pub busy_size: u32,
    /// A FIFO link: a transmission end is scheduled at `busy_until` (packets wait).
    pub end_pending: bool,
    /// A FIFO link with RED: RED has been told of the idle period that began at
    /// `busy_until` (or the link has not transmitted yet).
    pub idle_noted: bool,
    /// Packets propagating: (arrival time, pool index), in arrival order.
    pub pipe: VecDeque<(u64, u32)>,
    /// Loss stream (present when `loss > 0`).
    pub loss_rng: Option<RngStream>,
    /// Jitter stream (present when `jitter > 0`).
    pub jitter_rng: Option<RngStream>,
    /// RED state (present for RED links).
    pub red: Option<Box<RedPort>>,
    /// DualPI2 state (present for DualPI2 links; their `queue` stays empty).
    pub dual: Option<Box<DualPi2Port>>,
    /// A user's queue discipline (its packets wait in `queue`).
    pub custom: Option<Box<CustomPort>>,
    /// Step marking's K (`u64::MAX` without it): one comparison on the offer path.
    pub mark_above: u64,
    /// Deterministic drop rules.
    pub rules: Vec<DropRule>,
    /// Router function, if any.
    pub hook: Option<Box<dyn RouterHook<H> + Send>>,
    /// Capture point, if any.
    pub tap: Option<Box<dyn LinkTap<H> + Send>>,
    /// Whether the link carries traffic: set up by its own state and both end nodes'.
    pub up: bool,
    /// The link's own state, as the last link event set it.
    pub admin_up: bool,
    /// Why packets offered while down are dropped (`LinkDown` or `NodeDown`).
    pub down_reason: DropReason,
    /// Bumped each time the link goes down; pending events stamped with an older epoch are
    /// stale.
    pub epoch: u32,
    /// Whether offers must take the slow path (the link is down, has drop rules, or runs
    /// DualPI2 or a user's discipline): one branch in the common case.
    pub guard: bool,
    /// Counters.
    pub stats: LinkStats,
    /// When the queue length last changed (for the occupancy integral).
    pub queue_changed_at: u64,
    /// Bytes offered so far (for router functions).
    pub bytes_offered: u64,
    /// The position in the delivery schedule, for links with one.
    pub cursor: Option<Box<TraceCursor>>,
}

impl<H> Link<H> {
    /// A new idle link. Its random streams derive from `seed` and `stream`, its stable name:
    /// `link/{stream}/loss` when `loss > 0`, `link/{stream}/jitter` when `jitter > 0`,
    /// `link/{stream}/red` for RED, so giving one link a loss model, jitter or RED never shifts
    /// another stream's draws.
    #[must_use]
    pub fn new(from: u32, to: u32, config: LinkConfig, seed: u64, stream: &str) -> Self {
        let loss_rng =
            (config.loss > 0.0).then(|| RngStream::new(seed, &format!("link/{stream}/loss")));
        let jitter_rng =
            (config.jitter.0 > 0).then(|| RngStream::new(seed, &format!("link/{stream}/jitter")));
        let mark_above = match config.discipline {
            Discipline::Step { threshold } => threshold,
            _ => u64::MAX,
        };
        let red = match config.discipline {
            Discipline::DropTail | Discipline::Step { .. } | Discipline::DualPi2(_) => None,
            Discipline::Red(c) => Some(Box::new(RedPort {
                red: Red::new(c, config.rate),
                rng: RngStream::new(seed, &format!("link/{stream}/red")),
            })),
        };
        let dual = match config.discipline {
            Discipline::DualPi2(c) => Some(Box::new(DualPi2Port {
                dual: DualPi2::new(c, 0),
                rng: RngStream::new(seed, &format!("link/{stream}/dualpi2")),
            })),
            _ => None,
        };
        let guard = dual.is_some();
        let cursor = config
            .trace
            .as_ref()
            .map(|t| Box::new(TraceCursor::new(Arc::clone(t))));
        Link {
            from,
            to,
            config,
            queue: VecDeque::new(),
            queue_bytes: 0,
            in_service: None,
            service_started_at: 0,
            busy_until: 0,
            busy_size: 0,
            end_pending: false,
            idle_noted: true,
            pipe: VecDeque::new(),
            loss_rng,
            jitter_rng,
            red,
            dual,
            custom: None,
            mark_above,
            rules: Vec::new(),
            hook: None,
            tap: None,
            up: true,
            admin_up: true,
            down_reason: DropReason::LinkDown,
            epoch: 0,
            guard,
            stats: LinkStats::default(),
            queue_changed_at: 0,
            bytes_offered: 0,
            cursor,
        }
    }

    /// When a packet whose serialisation ends at `done` reaches the far end: the propagation
    /// delay, plus the jitter's draw, and never before the packet ahead of it.
    /// CHOICE: jitter keeps the link's order (a packet is held behind an earlier one that drew
    /// more), as a jittered path of one physical wire does; netem's jitter without a rate
    /// reorders instead.
    #[inline]
    pub fn arrival(&mut self, done: u64) -> u64 {
        let at = done + self.config.delay.0;
        match &mut self.jitter_rng {
            None => at,
            Some(rng) => {
                let at = at + rng.below(self.config.jitter.0);
                self.pipe.back().map_or(at, |&(ahead, _)| at.max(ahead))
            }
        }
    }

    /// When a packet of `size` bytes whose transmission starts at `now` has been serialised:
    /// `size` x 8 / `rate` later, or when the delivery schedule has carried its last byte.
    /// The one place serialisation is timed. `follows`: the packet was taken from the queue
    /// as the previous one finished (the schedule's leftover bytes are its to use).
    #[inline]
    pub fn tx_end(&mut self, now: u64, size: u32, follows: bool) -> u64 {
        match self.cursor.as_deref_mut() {
            None => now + self.config.rate.tx_time(u64::from(size)).0,
            Some(c) => c.finish(now, size, follows),
        }
    }

    /// Recompute [`Link::guard`] after the state or the rules change.
    pub fn refresh_guard(&mut self) {
        self.guard =
            !self.up || !self.rules.is_empty() || self.dual.is_some() || self.custom.is_some();
    }

    /// Packets waiting (not the one in service), in the FIFO or in DualPI2's two queues.
    #[must_use]
    pub fn waiting(&self) -> usize {
        self.queue.len() + self.dual.as_ref().map_or(0, |d| d.dual.len())
    }

    /// Whether a packet of `size` bytes fits a DualPI2 link's limit (both queues together).
    #[must_use]
    pub fn fits_dual(&self, size: u32) -> bool {
        let Some(d) = self.dual.as_ref() else {
            return self.fits(size);
        };
        match self.config.limit {
            QueueLimit::Packets(n) => (d.dual.len() as u64) < n,
            QueueLimit::Bytes(b) => d.dual.backlog() + u64::from(size) <= b,
        }
    }

    /// Whether a packet of `size` bytes fits the waiting queue.
    #[must_use]
    pub fn fits(&self, size: u32) -> bool {
        match self.config.limit {
            QueueLimit::Packets(n) => (self.queue.len() as u64) < n,
            QueueLimit::Bytes(b) => self.queue_bytes + u64::from(size) <= b,
        }
    }

    /// Advance the occupancy integral to `now`; call before the queue length changes.
    pub fn account_queue(&mut self, now: u64) {
        let dt = now - self.queue_changed_at;
        self.stats.queue_integral += u128::from(dt) * self.waiting() as u128;
        self.queue_changed_at = now;
    }

    /// [`Link::account_queue`] for a link without DualPI2 (the FIFO's length only): the
    /// DropTail path's.
    #[inline]
    pub fn account_fifo(&mut self, now: u64) {
        let dt = now - self.queue_changed_at;
        self.stats.queue_integral += u128::from(dt) * self.queue.len() as u128;
        self.queue_changed_at = now;
    }

    /// Whether the link serves its packets first in, first out with nothing decided at the
    /// end of a transmission (DropTail, step marking, RED): its transmission ends are events
    /// only while packets wait ([`Link::busy_until`]).
    #[inline]
    #[must_use]
    pub fn is_fifo(&self) -> bool {
        self.dual.is_none() && self.custom.is_none()
    }

    /// Whether a FIFO link is idle at `now`: nothing waits and its last transmission has
    /// ended.
    #[inline]
    #[must_use]
    pub fn fifo_idle(&self, now: u64) -> bool {
        self.queue.is_empty() && self.busy_until <= now
    }

    /// The counters as they stand at the ends of transmissions: a FIFO link counts a
    /// transmission when it starts, so one still in progress at `now` is taken back out.
    #[must_use]
    pub fn stats_settled(&self, now: u64) -> LinkStats {
        let mut stats = self.stats;
        if self.is_fifo() && self.busy_until > now {
            stats.tx_packets -= 1;
            stats.tx_bytes -= u64::from(self.busy_size);
            stats.busy_ns -= self.busy_until - self.service_started_at;
        }
        stats
    }

    /// The counters as of `now`: the occupancy integral and the busy time accounted up to
    /// `now`, the transmission in progress included.
    #[must_use]
    pub fn stats_at(&self, now: u64) -> LinkStats {
        let mut stats = self.stats_settled(now);
        stats.queue_integral += u128::from(now - self.queue_changed_at) * self.waiting() as u128;
        if self.in_service.is_some() || (self.is_fifo() && self.busy_until > now) {
            stats.busy_ns += now - self.service_started_at;
        }
        stats
    }

    /// The RED average queue length (as of the last arrival), for RED links.
    #[must_use]
    pub fn red_average(&self) -> Option<f64> {
        self.red.as_ref().map(|r| r.red.avg())
    }

    /// Port state for router functions.
    #[must_use]
    pub fn port_state(&self) -> PortState {
        PortState {
            rate: self.config.rate,
            queue_packets: self.waiting() as u64,
            queue_bytes: self.queue_bytes,
            bytes_offered: self.bytes_offered,
        }
    }
}
