//! XCP, the eXplicit Control Protocol (Katabi, Handley and Rohrs, "Congestion Control for High
//! Bandwidth-Delay Product Networks", SIGCOMM 2002), as research/next.md section 1.1 quotes it.
//!
//! The parts, in the paper's order:
//! * the congestion header (section 3.2, Figure 1): [`Hdr::XcpData`](crate::Hdr::XcpData)
//!   carries H_cwnd, H_rtt and H_feedback, set by the sender; routers only lower H_feedback;
//!   [`Hdr::XcpAck`](crate::Hdr::XcpAck) brings it back;
//! * [`XcpSender`] (section 3.3): cwnd = max(cwnd + H_feedback, s) on each ACK, the desired
//!   increase in H_feedback, losses handled as TCP's (our TCP family's NewReno or Reno);
//! * [`XcpReceiver`] (section 3.4): a TCP receiver that copies the header into its ACKs;
//! * [`XcpRouter`] (section 3.5 and Appendix A): the efficiency controller (equation 1,
//!   alpha 0.4, beta 0.226), the fairness controller with shuffling (equations 2-9, gamma 0.1)
//!   and the per-packet feedback with residues, per egress port, with no timers.
//!
//! Each file's docs list its `CHOICE:` lines. Module-wide:
//! CHOICE: H_feedback is an f32 of whole-packet bytes, not an integer: per-packet feedback is
//! often a fraction of a byte (many flows, small intervals), and rounding it would bias the
//! aggregate the efficiency controller computed. H_cwnd is a u32 of bytes (saturating at 4 GB)
//! and H_rtt a u32 of microseconds, so the header fits the size of every other [`Hdr`].
//! CHOICE: the congestion header adds no bytes to the packet: data packets are the TCP sizes
//! (1000 B in the paper's runs) and ACKs 40 B, so XCP and TCP runs carry the same bytes
//! (ns-2.35 counts a 20-byte XCP header, `XCP_HDR_LEN`).
//!
//! ns-2.35's XCP (research/next.md section 1.2) differs from the paper; which we follow:
//! * feedback as a throughput delta (bytes/s, header `x = srtt / cwnd`): not done; the header
//!   is the paper's window delta. (Inference, not run: the two agree in expectation, as the
//!   paper's per-packet rate change p_i / rtt_i is proportional to rtt_i s_i / cwnd_i, ns-2's
//!   x_i; they differ in rounding and in the sender scaling by its current srtt, not H_rtt.)
//! * no slow start: the same in both (section 3.3 grows cwnd by feedback only);
//! * RTT cap of 1 s in the router: [`XcpRouterConfig::ns2_35`] (the paper has none);
//! * initial control interval 50 ms: used by both (the paper gives none);
//! * the persistent-queue window half the propagation-delay estimate with a 2 ms floor:
//!   [`XcpRouterConfig::ns2_35`] halves it; the paper's window is the whole estimate (the
//!   2 ms floor is kept for both);
//! * reset of d to 50 ms after an interval without traffic, randomised timer starts, the
//!   weighted round-robin `Queue/XCP` with separate TCP and UDP queues: not done.
//!
//! [`Hdr`]: crate::Hdr

mod receiver;
mod router;
mod sender;

#[cfg(test)]
mod tests;

pub use receiver::XcpReceiver;
pub use router::{XcpDecision, XcpPort, XcpRouter, XcpRouterConfig};
pub use sender::{XcpParams, XcpRecovery, XcpSender, XcpWindow};
