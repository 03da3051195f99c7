//! Primo, the preventive rate-based protocol of Chatté, Ducourthial and Niculescu, "A study
//! of a simple preventive transport protocol" (002_adc93c9d0a027d91.txt), section III.
//!
//! The receiver acknowledges every packet with its forward trip time (FTT: arrival on the
//! receiver's clock minus the send timestamp) and the instantaneous reception rate. The sender
//! keeps the smallest FTT seen (FTT_ref), the smallest RTT (RTT_ref) and the FTT excess
//! ΔFTT = FTT - FTT_ref of the last D = τ RTT_ref; before each packet it runs
//! [`algorithm1`] on the excess recorded D ago, and paces the next packet at the new rate.
//!
//! * [`sender`]: the start burst, Algorithm 1, pacing and the timeout;
//! * [`receiver`]: FTT, reception rate and the start burst's bandwidth estimate.

pub mod receiver;
pub mod sender;

#[cfg(test)]
mod tests;

pub use receiver::PrimoReceiver;
pub use sender::{PrimoConfig, PrimoSender};

/// Bytes of a Primo acknowledgement: IP and UDP (28), then the echoed timestamp, the FTT and
/// the reception rate, 4 bytes each.
pub const PRIMO_ACK_BYTES: u32 = 40;

/// Packets in the start burst (section III-B).
pub const START_BURST: u8 = 4;

/// The constants of Algorithm 1 (section III-E gives the defaults). Thresholds are fractions
/// of FTT_ref.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrimoParams {
    /// D = τ RTT_ref: how far back the ΔFTT that Algorithm 1 reads was recorded.
    pub tau: f64,
    /// Strong congestion at or above this ΔFTT.
    pub th_str: f64,
    /// Moderate congestion at or above this ΔFTT.
    pub th_mod: f64,
    /// Bandwidth release below this ΔFTT.
    pub th_rel: f64,
    /// Factor on the reception rate under strong congestion.
    pub f_str: f64,
    /// Factor on the reception rate under moderate congestion.
    pub f_mod: f64,
    /// Factor on the reception rate when bandwidth is released.
    pub f_rel: f64,
    /// Gain of the correction of the rate one RTT ago.
    pub w1: f64,
    /// Weight of the current rate in the final average.
    pub w2: f64,
}

impl Default for PrimoParams {
    fn default() -> Self {
        PrimoParams {
            tau: 1.0,
            th_str: 0.34,
            th_mod: 0.17,
            th_rel: 0.15,
            f_str: 0.95,
            f_mod: 0.99,
            f_rel: 1.05,
            w1: 0.5,
            w2: 0.9,
        }
    }
}

/// The congestion state Algorithm 1 finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// ΔFTT_D >= TH_str: decrease strongly.
    Strong,
    /// TH_mod <= ΔFTT_D < TH_str: decrease moderately.
    Moderate,
    /// TH_rel <= ΔFTT_D < TH_mod: keep the rate.
    Hold,
    /// ΔFTT_D < TH_rel: increase.
    Release,
}

/// Algorithm 1: the new sending rate from the ΔFTT recorded D ago (`dftt_d`, seconds), the
/// reference FTT the thresholds scale with (`ftt_ref`, seconds), the rate one RTT ago, the
/// current rate and the last reception rate (any one rate unit).
///
/// The paper's listing compares ΔFTT rather than ΔFTT_D with TH_str in its first test; the
/// text (section III-C) compares ΔFTT_D with all three thresholds, as this does.
#[must_use]
pub fn algorithm1(
    p: &PrimoParams,
    ftt_ref: f64,
    dftt_d: f64,
    old_rate: f64,
    rate: f64,
    rcv_rate: f64,
) -> (Branch, f64) {
    let (branch, factor) = if dftt_d >= p.th_str * ftt_ref {
        (Branch::Strong, p.f_str)
    } else if dftt_d >= p.th_mod * ftt_ref {
        (Branch::Moderate, p.f_mod)
    } else if dftt_d < p.th_rel * ftt_ref {
        (Branch::Release, p.f_rel)
    } else {
        (Branch::Hold, 0.0)
    };
    let new_rate = match branch {
        Branch::Hold => rate,
        _ => old_rate - p.w1 * (old_rate - factor * rcv_rate),
    };
    (branch, p.w2 * rate + (1.0 - p.w2) * new_rate)
}
