//! CBRAA, the Cycle-Based Rate Adaptation Algorithm (Ait-Hellal, Yamamoto and Leduc,
//! section 3, Figure 1).
//!
//! On every receiver report, with `Rate` in packets per second and srtt in seconds:
//!
//! ```text
//! Cycle    = srtt (0.62 Rate srtt + 0.96)                 equation (3)
//! Loss_th  = 1 / (Rate Cycle)                             equation (4)
//! Loss_obs = lost / expected over the reports of the last Cycle
//! if Loss_obs > a Loss_th:       Rate_th = decrease(Rate)
//! else if Loss_obs < b Loss_th:  Rate_th = increase(Rate)
//! Rate = alpha Rate + (1 - alpha) Rate_th
//! ```
//!
//! increase() and decrease() are both equation (2), `1.27 / (srtt sqrt(p))`, with
//! `p = beta Loss_th + (1 - beta) Loss_obs` (section 3.2).
//!
//! CHOICE: beta = 0.5. The paper does not give it. With beta = 0.5, a = 1.5, b = 0.5 and
//! alpha = 0.5, a loss-free source at srtt 110 ms climbs from 5 packets/s to 250 packets/s
//! (2 Mbit/s of 1000 B packets) in 13 reports of 5 s, the "about 60 seconds" of section 4.1;
//! beta = 0.25 takes 35 s and beta = 0.75 takes 120 s.
//! CHOICE: between the thresholds (b Loss_th <= Loss_obs <= a Loss_th) Rate_th = Rate, so the
//! rate is kept unchanged, as the paper's text says.
//! CHOICE: the sliding window holds the newest report and every older one that arrived less
//! than one Cycle ago (its interval overlaps the last cycle). A window with no packets decided
//! carries no information, and the rate is kept.

use std::collections::VecDeque;

use ccsim_core::SimTime;

use super::mathis_rate;

/// CBRAA's constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CbraaParams {
    /// Decrease when the observed loss exceeds `a` times the theoretical one.
    pub a: f64,
    /// Increase when the observed loss is under `b` times the theoretical one.
    pub b: f64,
    /// Weight of the old rate in the moving average.
    pub alpha: f64,
    /// Weight of Loss_th in increase() and decrease().
    pub beta: f64,
}

impl Default for CbraaParams {
    fn default() -> Self {
        CbraaParams {
            a: 1.5,
            b: 0.5,
            alpha: 0.5,
            beta: 0.5,
        }
    }
}

/// Which branch of Figure 1 a report took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CbraaDecision {
    /// Loss_obs > a Loss_th.
    Decrease,
    /// Loss_obs < b Loss_th.
    Increase,
    /// In between, or no packets in the window: rate unchanged.
    Hold,
}

/// Everything one report step computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CbraaStep {
    /// The branch taken.
    pub decision: CbraaDecision,
    /// Equation (3), seconds.
    pub cycle: f64,
    /// Equation (4).
    pub loss_th: f64,
    /// Loss over the last cycle's reports.
    pub loss_obs: f64,
    /// The target rate, packets per second.
    pub rate_th: f64,
    /// The new rate, packets per second (before the sender's bounds).
    pub rate: f64,
}

/// The CBRAA controller: its constants and the sliding window of reports.
#[derive(Clone, Debug, Default)]
pub struct Cbraa {
    params: CbraaParams,
    /// (arrival, expected, lost) of recent reports, oldest first.
    window: VecDeque<(SimTime, u64, u64)>,
}

impl Cbraa {
    /// A controller with these constants.
    #[must_use]
    pub fn new(params: CbraaParams) -> Self {
        Cbraa {
            params,
            window: VecDeque::new(),
        }
    }

    /// The constants.
    #[must_use]
    pub fn params(&self) -> CbraaParams {
        self.params
    }

    /// Ideal TCP Reno cycle duration (equation (3)), seconds.
    #[must_use]
    pub fn cycle(rate: f64, srtt: f64) -> f64 {
        srtt * (0.62 * rate * srtt + 0.96)
    }

    /// One report step at `now`: the report's counts, the current `rate` (packets per
    /// second) and `srtt` (seconds).
    pub fn on_report(
        &mut self,
        now: SimTime,
        expected: u64,
        lost: u64,
        rate: f64,
        srtt: f64,
    ) -> CbraaStep {
        let cycle = Self::cycle(rate, srtt);
        let loss_th = 1.0 / (rate * cycle);
        self.window.push_back((now, expected, lost));
        let horizon = now.as_secs_f64() - cycle;
        while self.window.len() > 1 && self.window[0].0.as_secs_f64() <= horizon {
            self.window.pop_front();
        }
        let (sent, nlost) = self
            .window
            .iter()
            .fold((0u64, 0u64), |(s, l), &(_, e, x)| (s + e, l + x));
        let p = self.params;
        let mut step = CbraaStep {
            decision: CbraaDecision::Hold,
            cycle,
            loss_th,
            loss_obs: 0.0,
            rate_th: rate,
            rate,
        };
        if sent == 0 {
            return step;
        }
        let loss_obs = nlost as f64 / sent as f64;
        step.loss_obs = loss_obs;
        let equation = || mathis_rate(srtt, p.beta * loss_th + (1.0 - p.beta) * loss_obs);
        if loss_obs > p.a * loss_th {
            step.decision = CbraaDecision::Decrease;
            step.rate_th = equation();
        } else if loss_obs < p.b * loss_th {
            step.decision = CbraaDecision::Increase;
            step.rate_th = equation();
        }
        step.rate = p.alpha * rate + (1.0 - p.alpha) * step.rate_th;
        step
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> SimTime {
        SimTime(s * 1_000_000_000)
    }

    #[test]
    fn cycle_and_theoretical_loss_follow_equations_3_and_4() {
        // Rate 250 packets/s, srtt 0.12 s: Cycle = 0.12 (0.62 * 250 * 0.12 + 0.96)
        // = 0.12 * 19.56 = 2.3472 s; Loss_th = 1 / (250 * 2.3472) = 1.70416e-3.
        let step = Cbraa::default().on_report(secs(5), 1000, 2, 250.0, 0.12);
        assert!((step.cycle - 2.3472).abs() < 1e-12);
        assert!((step.loss_th - 1.0 / 586.8).abs() < 1e-12);
        // Equation (4)'s closed form agrees: 1.61 / (B^2 R^2 + 1.54 B R).
        let closed = 1.61 / (900.0 + 1.54 * 30.0);
        assert!((step.loss_th - closed).abs() / closed < 0.01);
    }

    #[test]
    fn observed_loss_above_a_times_theory_decreases() {
        // Loss_obs = 5 / 1000 = 0.005 > 1.5 * 1.70416e-3. p = 0.5 * 1.70416e-3 + 0.5 * 0.005
        // = 3.35208e-3; Rate_th = 1.27 / (0.12 sqrt(p)) = 182.80; Rate = (250 + 182.80) / 2.
        let step = Cbraa::default().on_report(secs(5), 1000, 5, 250.0, 0.12);
        assert_eq!(step.decision, CbraaDecision::Decrease);
        let p: f64 = 0.5 / 586.8 + 0.5 * 0.005;
        let rate_th = 1.27 / (0.12 * p.sqrt());
        assert!((step.rate_th - rate_th).abs() < 1e-9);
        assert!((step.rate_th - 182.80).abs() < 0.01);
        assert!((step.rate - (250.0 + rate_th) / 2.0).abs() < 1e-9);
    }

    #[test]
    fn no_loss_increases_toward_equation_2_at_half_the_theoretical_loss() {
        // Loss_obs = 0 < 0.5 Loss_th; p = 0.5 Loss_th; Rate 5 packets/s, srtt 0.11 s:
        // Cycle = 0.11 (0.62 * 5 * 0.11 + 0.96) = 0.14311; Loss_th = 1 / 0.71555;
        // Rate_th = 1.27 / (0.11 sqrt(0.69877)) = 13.811; Rate = 9.406.
        let step = Cbraa::default().on_report(secs(5), 25, 0, 5.0, 0.11);
        assert_eq!(step.decision, CbraaDecision::Increase);
        assert!((step.rate_th - 13.811).abs() < 0.001);
        assert!((step.rate - 9.406).abs() < 0.001);
    }

    #[test]
    fn loss_between_the_thresholds_holds_the_rate() {
        // Loss_th = 1.70416e-3; 2 / 1000 lies between 0.5 and 1.5 times it.
        let step = Cbraa::default().on_report(secs(5), 1000, 2, 250.0, 0.12);
        assert_eq!(step.decision, CbraaDecision::Hold);
        assert_eq!(step.rate, 250.0);
    }

    #[test]
    fn the_window_spans_the_last_cycle() {
        let mut c = Cbraa::default();
        // Cycle at 5 packets/s and srtt 1 s: 1 * (0.62 * 5 + 0.96) = 4.06 s; a report 3 s
        // old is inside it, one 5 s old is not.
        c.on_report(secs(0), 100, 10, 5.0, 1.0);
        c.on_report(secs(5), 100, 0, 5.0, 1.0);
        let step = c.on_report(secs(8), 100, 0, 5.0, 1.0);
        assert!((step.loss_obs - 0.0).abs() < 1e-12);
        let mut c = Cbraa::default();
        c.on_report(secs(0), 100, 10, 5.0, 1.0);
        let step = c.on_report(secs(3), 100, 0, 5.0, 1.0);
        assert!((step.loss_obs - 0.05).abs() < 1e-12);
    }
}
