//! ccsim-engine: a deterministic discrete-event packet network simulator.
//!
//! Generic over the protocol header `H` and the agent type `A`; it names no protocol.
//!
//! * Time is integer nanoseconds; the event queue orders by (time, insertion sequence), so
//!   simultaneous events run first-in first-out and runs are deterministic ([`queue`]).
//! * A duplex link is two simplex [`link::Link`]s, each with a rate, a propagation delay, an
//!   egress queue discipline (DropTail, or RED with optional ECN marking, [`red`]), an optional
//!   Bernoulli loss model and deterministic drop rules.
//!   A link keeps its waiting and propagating packets in its own FIFOs and has at most one
//!   pending event of each kind (transmission end, head arrival), as htsim does.
//! * Routing is shortest paths computed when the simulation is built ([`routing`]); links and
//!   nodes go down and up at scheduled times, losing what they hold, and the tables stay
//!   static or follow the topology at once or after a convergence delay ([`sim::Reroute`]).
//! * Agents and flows can be added while the run goes on ([`Sim::run_until`] stops at a time
//!   for that) and retired when done; a retired agent's storage is reused, so memory follows
//!   the agents alive at once, not all the agents ever created.
//! * A tap on a link sees every packet that starts transmission there ([`link::LinkTap`]).
//! * Agents have timer slots; each armed slot has at most one heap entry, and cancellation
//!   or re-arming is lazy (a generation counter and a deadline checked when the entry pops).
//! * Per-flow and per-link counters are always on; time series are opt-in ([`trace`]).
#![forbid(unsafe_code)]

pub mod custom_queue;
pub mod delivery;
pub mod dualpi2;
pub mod link;
pub mod queue;
pub mod red;
pub mod routing;
pub mod sim;
pub mod trace;

pub use custom_queue::{Admit, Pick, QueueDiscipline, QueueState, QueuedPacket};
pub use delivery::DeliveryTrace;
pub use dualpi2::{DualPi2, DualPi2Config, DualPi2ConfigError, DualPi2Stats, L4sClass, StepThresh};
pub use link::{
    Discipline, DropReason, LinkConfig, LinkId, LinkStats, LinkTap, PortState, QueueLimit,
    RouterHook, Verdict,
};
pub use red::{Red, RedConfig, RedConfigError, RedDecision};
pub use routing::{Multipath, RouteMetric};
pub use sim::{
    FlowStats, NodeId, NodeStats, Progress, Reroute, Sim, SimError, Snapshot, Stopped,
    TopologyChange, TopologyEvent, WindowCounts,
};
pub use trace::{SeriesConfig, TraceBuf};
