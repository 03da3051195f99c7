//! TCP: one sender with pluggable congestion control and loss recovery (Tahoe, Reno,
//! NewReno, SACK, Vegas, CUBIC), and a receiver (sink) with optional delayed ACKs and SACK.
//!
//! Follows RFC 5681 (slow start, congestion avoidance, fast retransmit and recovery),
//! RFC 6582 (NewReno), RFC 2018 and RFC 6675 (SACK), RFC 3168 (ECN), RFC 6298
//! (retransmission timer, with Karn's rule and exponential back-off), RFC 1122 / RFC 5681
//! section 4.2 (delayed ACKs), Brakmo and Peterson 1995 (Vegas), RFC 9438 (CUBIC) and RFC 9406
//! (HyStart++). The pieces: `cc/`
//! (window algorithms behind [`CongestionControl`]), `sender/recovery.rs` (loss recovery),
//! `scoreboard.rs` (per-segment state, the RFC 6675 scoreboard), `rate.rs` (delivery-rate
//! samples), `rtt.rs` (the retransmission timer of Linux, RFC 6298, ns-2 and ns-3),
//! `hystart.rs` (leaving slow start on RTT growth: Linux's HyStart, RFC 9406's HyStart++).
//!
//! CHOICE: sequence numbers count segments, not bytes (as ns-2's one-way TCP); every segment
//! but the last of a finite transfer carries a full MSS, so nothing is lost by it.
//! CHOICE: a packet's size is the whole IP packet; the MSS is that size less 40 bytes of
//! IP and TCP header; ACKs are 40-byte packets.
//! CHOICE: by default no connection set-up (SYN/FIN): data flows from the start time, as in
//! ns-2. With the handshake option the sender opens with SYN and the receiver answers
//! SYN-ACK (RFC 9293 section 3.5; 12 bytes of options each: MSS, SACK-permitted, window
//! scale); data starts on the SYN-ACK, whose round trip is the first RTT sample unless the SYN
//! was sent again. The third segment of the handshake rides on the first data segment
//! (RFC 9293 allows it); there is no FIN.

mod accecn;
pub mod cc;
pub mod hystart;
mod minmax;
mod pacing;
mod prr;
mod rack;
mod rate;
mod rtt;
mod scoreboard;
mod sender;
mod sink;

pub use accecn::{AccEcnOption, ACCECN_OPTION_KIND};
pub use cc::{
    AckEvent, AnyCc, CaState, CongestionControl, Conn, Control, CubicParams, CustomCc, DctcpParams,
    Delivery, PragueParams, VegasParams, VegasVariant, Window, CONTRACT_VERSION,
};
pub use hystart::HyStartKind;
pub use rate::RateSample;
pub use rtt::{RtoPolicy, RttEstimator};
pub use sender::{
    Algorithm, LossRecovery, NewRenoSender, PacedSlowStart, RecoveryPolicy, TcpConfig, TcpSender,
};
pub use sink::{AckOptions, SackBlock, SackBlocks, TcpSink};

#[cfg(test)]
mod family_tests;
#[cfg(test)]
mod tests;
