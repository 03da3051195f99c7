//! TCP: a NewReno sender and a receiver (sink) with optional delayed acknowledgements.
//!
//! Follows RFC 5681 (slow start, congestion avoidance, fast retransmit), RFC 6582 (NewReno
//! fast recovery with partial acknowledgements), RFC 6298 (retransmission timer, with Karn's
//! rule and exponential back-off) and RFC 1122 / RFC 5681 section 4.2 (delayed ACKs).
//!
//! CHOICE: sequence numbers count segments, not bytes (as ns-2's one-way TCP); every segment
//! but the last of a finite transfer carries a full MSS, so nothing is lost by it.
//! CHOICE: a packet's size is the whole IP packet; the MSS is that size less 40 bytes of
//! IP and TCP header; ACKs are 40-byte packets.
//! CHOICE: no connection set-up (SYN/FIN): data flows from the start time, as in ns-2.

mod rtt;
mod sender;
mod sink;

pub use rtt::RttEstimator;
pub use sender::{NewRenoSender, TcpConfig};
pub use sink::TcpSink;

#[cfg(test)]
mod tests;
