//! Rate-based congestion control: the parts every rate-based protocol shares, and the two
//! report-driven controllers of Ait-Hellal, Yamamoto and Leduc ("Cycle-based TCP-friendly
//! algorithm", 003_13a89f4b9cbddf14.txt): TCP-Friend and CBRAA.
//!
//! * [`pacer`]: the paced sender that emits numbered, time-stamped packets at a rate,
//!   between a minimum and a maximum;
//! * [`loss`]: the receiver's loss detector (a gap counts as a loss once three later
//!   packets have arrived, TFRC's reordering allowance, RFC 5348 section 5.1);
//! * [`report`]: the RTCP-style receiver report agent (RFC 3550 section 6.4.2's receiver
//!   report block, reduced to what the controllers read);
//! * [`sender`]: the report-driven sender, with [`friend`] and [`cbraa`] as its controllers.
//!
//! Rates inside the controllers are in packets per second, as in the paper; the pacer works in
//! bytes per second (RFC 5348's unit for X) and traces bits per second.

pub mod cbraa;
pub mod friend;
pub mod loss;
pub mod pacer;
pub mod report;
pub mod sender;

use ccsim_core::{Dur, SimTime};

pub use cbraa::{Cbraa, CbraaParams};
pub use friend::TcpFriend;
pub use loss::{Fate, LossDetector};
pub use pacer::{Pacer, PacerConfig};
pub use report::ReportReceiver;
pub use sender::{ReportControl, ReportSender, ReportSenderConfig};

/// Bytes of an RTCP receiver report packet: IP and UDP (28), the RTCP header and sender SSRC
/// (8) and one report block (24), RFC 3550 section 6.4.2.
pub const RECEIVER_REPORT_BYTES: u32 = 60;

/// An RTCP-style receiver report: what the receiver saw during the last report interval.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReceiverReport {
    /// Packets whose fate was decided during the interval (received or declared lost).
    pub expected: u64,
    /// Of those, the packets declared lost.
    pub lost: u64,
    /// The highest sequence number received so far (`None` before any).
    pub highest: Option<u64>,
    /// The send timestamp of the most recent data packet received (RFC 3550's LSR).
    pub echo: SimTime,
    /// How long the receiver held that timestamp before sending this report (DLSR), so
    /// that the sender's RTT sample is `now - echo - held`.
    pub held: Dur,
}

/// TFRC feedback (RFC 5348 section 3.2.2).
#[derive(Clone, Debug, PartialEq)]
pub struct TfrcFeedback {
    /// t_recvdata: the timestamp of the last data packet received.
    pub echo: SimTime,
    /// t_delay: the time between that packet's arrival and this feedback's departure.
    pub delay: Dur,
    /// X_recv: the rate at which the receiver received data since its last feedback,
    /// bytes per second.
    pub x_recv: f64,
    /// p: the receiver's loss event rate.
    pub p: f64,
}

/// Equation (2) of the CBRAA paper, packets per second: `1.27 / (srtt sqrt(p))`, the Mathis
/// et al. rate with the constant the paper derives for an ideal Reno cycle.
#[must_use]
pub fn mathis_rate(srtt: f64, p: f64) -> f64 {
    MATHIS_C / (srtt * p.sqrt())
}

/// The constant of equation (2).
pub const MATHIS_C: f64 = 1.27;
