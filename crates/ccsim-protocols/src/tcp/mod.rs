//! TCP: one sender with pluggable congestion control and loss recovery (Tahoe, Reno,
//! NewReno, SACK, Vegas), and a receiver (sink) with optional delayed ACKs and SACK.
//!
//! Follows RFC 5681 (slow start, congestion avoidance, fast retransmit and recovery),
//! RFC 6582 (NewReno), RFC 2018 and RFC 6675 (SACK), RFC 3168 (ECN), RFC 6298
//! (retransmission timer, with Karn's rule and exponential back-off), RFC 1122 / RFC 5681
//! section 4.2 (delayed ACKs), and Brakmo and Peterson 1995 (Vegas). The pieces: `cc/`
//! (window algorithms behind [`CongestionControl`]), `sender/recovery.rs` (loss recovery),
//! `scoreboard.rs` (per-segment state, the RFC 6675 scoreboard), `rate.rs` (delivery-rate
//! samples), `rtt.rs` (the retransmission timer of Linux, RFC 6298, ns-2 and ns-3).
//!
//! CHOICE: sequence numbers count segments, not bytes (as ns-2's one-way TCP); every segment
//! but the last of a finite transfer carries a full MSS, so nothing is lost by it.
//! CHOICE: a packet's size is the whole IP packet; the MSS is that size less 40 bytes of
//! IP and TCP header; ACKs are 40-byte packets.
//! CHOICE: no connection set-up (SYN/FIN): data flows from the start time, as in ns-2.

pub mod cc;
mod rate;
mod rtt;
mod scoreboard;
mod sender;
mod sink;

pub use cc::{AckEvent, AnyCc, CaState, CongestionControl, VegasParams, VegasVariant, Window};
pub use rate::RateSample;
pub use rtt::{RtoPolicy, RttEstimator};
pub use sender::{Algorithm, NewRenoSender, PacedSlowStart, RecoveryPolicy, TcpConfig, TcpSender};
pub use sink::{SackBlock, SackBlocks, TcpSink};

#[cfg(test)]
mod family_tests;
#[cfg(test)]
mod tests;
