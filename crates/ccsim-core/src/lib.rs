//! ccsim-core: the small vocabulary shared by the engine and every protocol.
//!
//! It holds the units ([`SimTime`], [`Dur`], [`Rate`], [`Bytes`]), the deterministic
//! random-number streams ([`RngStream`]), the packet type and the sans-IO agent contract
//! ([`Agent`] and [`Ctx`]). A protocol crate depends on this crate alone, so the compiler
//! checks that an agent sees nothing but its context.
#![forbid(unsafe_code)]

pub mod agent;
pub mod histogram;
/// Elementary functions from `libm`, bit-identical on every platform (the standard library's
/// defer to the system's, which may differ in the last bit).
pub mod math {
    /// e^x.
    #[must_use]
    pub fn exp(x: f64) -> f64 {
        libm::exp(x)
    }
}
pub mod packet;
pub mod rng;
pub mod units;

pub use agent::{trace_changes, traced_values, Agent, AgentStats, Ctx, TimerSlot, VarId};
pub use histogram::LogHistogram;
pub use packet::{Addr, Ecn, FlowId, Header, Packet};
pub use rng::RngStream;
pub use units::{Bytes, Dur, Rate, SimTime, UnitError};
