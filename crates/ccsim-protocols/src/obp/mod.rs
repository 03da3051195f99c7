//! OBP, the Open Box Transport Protocol (Loureiro and Monteiro, "What if the end systems knew
//! the bandwidth available in the network?", section III; the seed text
//! shared/seeds/004_5d2c4c8e5900798f.txt).
//!
//! The parts, in the paper's order:
//! * the path-state fields (section III, "narrow link" and "tight link"):
//!   [`Hdr::ObpData`](crate::Hdr::ObpData) carries the smallest capacity and the smallest
//!   available bandwidth seen so far, lowered by routers;
//!   [`Hdr::ObpAck`](crate::Hdr::ObpAck) (40 bytes) brings them back;
//! * [`ObpSender`] (section III-B-1, MICMDC): the transmission rate TR from expression (1)
//!   (control factor (2), fairness factor (3)) when AB > 0 and from expression (4) when
//!   AB < 0, on each ACK; the equilibrium point EP once per RTT from expression (5); packets
//!   paced at TR;
//! * [`ObpReceiver`]: a TCP receiver whose ACKs echo the fields;
//! * [`ObpRouter`] (section III-B-2): per egress port, AB = IC - BR - BI (expression 6) over
//!   a measurement period, stamped into data packets where smaller; no timers.
//!
//! Each file's docs list its `CHOICE:` lines. Module-wide:
//! CHOICE: rates (capacity, AB, TR, EP, Max.TR) are bytes per second; the header fields are
//! f32 (7 significant digits, plenty for a rate and keeping [`Hdr`] at 24 bytes). The paper
//! plots AB and TR in packets (Fig. 1 and 2: "the maximum AB is 1250 packets", i.e. 10 Mbit/s
//! in 1000-byte packets per second); the expressions are ratios of rates, so the unit cancels.
//! CHOICE: an unstamped field is +infinity (no router has lowered it yet); the paper keeps the
//! fields in IP options and says nothing of their initial value.
//! CHOICE: the fields add no bytes to the packet (the paper's runs use 1000-byte data and
//! 40-byte ACKs), as for XCP.
//!
//! [`Hdr`]: crate::Hdr

mod receiver;
mod router;
mod sender;

#[cfg(test)]
mod tests;

pub use receiver::ObpReceiver;
pub use router::{ObpPort, ObpRouter, ObpRouterConfig};
pub use sender::{fairness_fraction, increase_factor, ObpParams, ObpSender};
