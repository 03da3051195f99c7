//! TFRC, TCP-Friendly Rate Control (RFC 5348): an equation-based, receiver-measured rate
//! control for unicast flows.
//!
//! * [`equation`]: the TCP throughput equation (section 3.1) and its inverse in p;
//! * [`intervals`]: loss events, loss intervals, the average loss interval and history
//!   discounting (section 5);
//! * [`sender`]: the sender (section 4), a paced sender of numbered, time-stamped packets
//!   whose rate follows the receiver's feedback;
//! * [`receiver`]: the receiver (section 6), which detects losses, computes the loss event
//!   rate and the receive rate, and sends feedback once per RTT.
//!
//! Rates are in bytes per second (RFC 5348's unit for X); traces are in bits per second.
//! Each module's documentation lists the choices it makes where the RFC is silent or offers
//! options.
//!
//! Left out: ECN (sections 5 and 6 treat a marked packet as a lost one; data packets here are
//! not ECN-capable), the data-limited and idle rules
//! of sections 4.3 and 4.4 (the sender always has data), section 4.1's measured segment size
//! (the packet size is fixed) and section 4.6's bursts within the scheduling granularity (the
//! pacer spaces every packet).

pub mod equation;
pub mod intervals;
pub mod receiver;
pub mod sender;

pub use equation::{loss_rate_for, throughput};
pub use intervals::LossHistory;
pub use receiver::{TfrcReceiver, TfrcReceiverConfig};
pub use sender::{TfrcConfig, TfrcSender};

#[cfg(test)]
mod tests;
