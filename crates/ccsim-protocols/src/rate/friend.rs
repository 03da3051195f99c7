//! TCP-Friend: the equation-based controller the CBRAA paper compares against (section 3.2,
//! last paragraph).
//!
//! On each receiver report: if the report shows no loss, the rate grows by
//! T_RTCP / (2 srtt^2) packets per second (half TCP Reno's growth over T_RTCP, where T_RTCP is
//! the mean time between reports); otherwise it is set by equation (2) of the paper,
//! `1.27 / (srtt sqrt(p))`, with p the report's loss fraction, unsmoothed.
//!
//! CHOICE: a report covering no packets (nothing was decided in the interval) leaves the rate
//! unchanged: it carries no loss information.

use super::mathis_rate;

/// What one report did to TCP-Friend's rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FriendDecision {
    /// No loss: additive increase.
    Increase,
    /// Losses: the rate equation.
    Equation,
    /// An empty report: no change.
    Hold,
}

/// The TCP-Friend controller (stateless: the sender keeps rate, srtt and T_RTCP).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpFriend;

impl TcpFriend {
    /// One report step. `rate` in packets per second, `srtt` and `t_rtcp` in seconds.
    /// Returns the decision and the new rate (packets per second, before any bounds).
    #[must_use]
    pub fn step(
        rate: f64,
        srtt: f64,
        t_rtcp: f64,
        expected: u64,
        lost: u64,
    ) -> (FriendDecision, f64) {
        if expected == 0 {
            (FriendDecision::Hold, rate)
        } else if lost == 0 {
            (
                FriendDecision::Increase,
                rate + t_rtcp / (2.0 * srtt * srtt),
            )
        } else {
            let p = lost as f64 / expected as f64;
            (FriendDecision::Equation, mathis_rate(srtt, p))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_loss_adds_half_of_renos_growth_over_the_report_interval() {
        // 5 s between reports, srtt 100 ms: 5 / (2 * 0.01) = 250 packets/s more.
        let (d, r) = TcpFriend::step(40.0, 0.1, 5.0, 200, 0);
        assert_eq!(d, FriendDecision::Increase);
        assert!((r - 290.0).abs() < 1e-9);
    }

    #[test]
    fn loss_sets_the_rate_from_equation_2() {
        // p = 4 / 1000; 1.27 / (0.12 * sqrt(0.004)) = 167.33 packets/s.
        let (d, r) = TcpFriend::step(250.0, 0.12, 5.0, 1000, 4);
        assert_eq!(d, FriendDecision::Equation);
        assert!((r - 1.27 / (0.12 * 0.004f64.sqrt())).abs() < 1e-9);
        assert!((r - 167.33).abs() < 0.01);
    }

    #[test]
    fn an_empty_report_holds() {
        assert_eq!(
            TcpFriend::step(7.0, 0.1, 5.0, 0, 0),
            (FriendDecision::Hold, 7.0)
        );
    }
}
