//! The rate-based family's keys and their checks: TFRC (RFC 5348), TCP-Friend and CBRAA
//! (the CBRAA paper, on RTCP-style receiver reports) and Primo (the Primo paper, section III).
//! Their shared flat keys (`min_rate`, `max_rate`, `initial_rate`, `report_interval`) are
//! declared on [`FlowSpec`]; each protocol's constants are its table here (`cbraa`, `tfrc`,
//! `primo`). The agents are built in [`crate::protocols::rate`].

use ccsim_core::Dur;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::ScenarioError;
use crate::spec::flows::{refuse_keys, FlowSpec, Protocol};
use crate::spec::{err, show};
use crate::units::DurStr;

/// The receiver report interval of TCP-Friend and CBRAA flows that do not set one.
pub const DEFAULT_REPORT_INTERVAL: Dur = Dur(5_000_000_000);

/// CBRAA's constants (Figure 1 and section 3.2 of the paper).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CbraaSpec {
    /// Decrease when the observed loss exceeds a times the theoretical loss.
    #[serde(default = "default_cbraa_a")]
    pub a: f64,
    /// Increase when the observed loss is under b times the theoretical loss.
    #[serde(default = "default_cbraa_b")]
    pub b: f64,
    /// Weight of the old rate in the rate's moving average.
    #[serde(default = "default_cbraa_alpha")]
    pub alpha: f64,
    /// Weight of the theoretical loss in increase() and decrease() (ours; the paper does
    /// not give it).
    #[serde(default = "default_cbraa_beta")]
    pub beta: f64,
}

fn default_cbraa_a() -> f64 {
    ccsim_protocols::CbraaParams::default().a
}
fn default_cbraa_b() -> f64 {
    ccsim_protocols::CbraaParams::default().b
}
fn default_cbraa_alpha() -> f64 {
    ccsim_protocols::CbraaParams::default().alpha
}
fn default_cbraa_beta() -> f64 {
    ccsim_protocols::CbraaParams::default().beta
}

/// Primo's constants (section III-E of the paper; thresholds are fractions of FTT_ref).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PrimoSpec {
    /// D = tau RTT_ref: how long ago the FTT excess Algorithm 1 reads was recorded.
    #[serde(default = "default_primo_tau")]
    pub tau: f64,
    /// Strong congestion at or above this FTT excess.
    #[serde(default = "default_primo_th_str")]
    pub th_str: f64,
    /// Moderate congestion at or above this FTT excess.
    #[serde(default = "default_primo_th_mod")]
    pub th_mod: f64,
    /// Bandwidth release below this FTT excess.
    #[serde(default = "default_primo_th_rel")]
    pub th_rel: f64,
    /// Factor on the reception rate under strong congestion.
    #[serde(default = "default_primo_f_str")]
    pub f_str: f64,
    /// Factor on the reception rate under moderate congestion.
    #[serde(default = "default_primo_f_mod")]
    pub f_mod: f64,
    /// Factor on the reception rate when bandwidth is released.
    #[serde(default = "default_primo_f_rel")]
    pub f_rel: f64,
    /// Gain of the correction of the rate one RTT ago.
    #[serde(default = "default_primo_w1")]
    pub w1: f64,
    /// Weight of the current rate in the final average.
    #[serde(default = "default_primo_w2")]
    pub w2: f64,
    /// Inter-arrival gaps the receiver measures the reception rate over (the paper: 1, the
    /// instantaneous rate).
    #[serde(default = "default_primo_rcv_samples")]
    pub rcv_samples: u32,
    /// How far the receiver's clock runs ahead of the sender's (it must not matter).
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub receiver_clock_offset: Option<DurStr>,
}

macro_rules! primo_defaults {
    ($($name:ident => $field:ident),* $(,)?) => {
        $(fn $name() -> f64 {
            ccsim_protocols::PrimoParams::default().$field
        })*
    };
}
primo_defaults!(
    default_primo_tau => tau,
    default_primo_th_str => th_str,
    default_primo_th_mod => th_mod,
    default_primo_th_rel => th_rel,
    default_primo_f_str => f_str,
    default_primo_f_mod => f_mod,
    default_primo_f_rel => f_rel,
    default_primo_w1 => w1,
    default_primo_w2 => w2,
);

fn default_primo_rcv_samples() -> u32 {
    1
}

impl PrimoSpec {
    /// Algorithm 1's constants.
    #[must_use]
    pub fn params(&self) -> ccsim_protocols::PrimoParams {
        ccsim_protocols::PrimoParams {
            tau: self.tau,
            th_str: self.th_str,
            th_mod: self.th_mod,
            th_rel: self.th_rel,
            f_str: self.f_str,
            f_mod: self.f_mod,
            f_rel: self.f_rel,
            w1: self.w1,
            w2: self.w2,
        }
    }
}

/// TFRC options.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TfrcSpec {
    /// Discount old loss intervals after a long loss-free period (RFC 5348 section 5.5).
    #[serde(default)]
    pub history_discounting: bool,
    /// Pace at X_inst = X R_sqmean / sqrt(R_sample) (RFC 5348 section 4.5, which the RFC
    /// recommends and ns-2.35 runs as `ca_ 1`; absent: on). `false` paces at X.
    #[serde(default, skip_serializing_if = "crate::spec::omit_none")]
    pub oscillation_prevention: Option<bool>,
}

impl TfrcSpec {
    /// Whether section 4.5 is in force.
    #[must_use]
    pub fn oscillation_prevention(&self) -> bool {
        self.oscillation_prevention.unwrap_or(true)
    }
}

/// The keys of rate-based flows (TFRC, TCP-Friend, CBRAA).
fn validate_rate_options(f: &FlowSpec, p: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    let name = f.protocol.name();
    if f.rate.is_some() {
        return err(
            p("rate"),
            if f.protocol == Protocol::Obp {
                "obp flows set their own rate; bound it from below with min_rate".into()
            } else {
                format!("{name} flows set their own rate; bound it with min_rate and max_rate")
            },
        );
    }
    if f.size.is_some() && f.protocol != Protocol::Obp {
        return err(
            p("size"),
            format!("{name} flows always have data to send; use stop to end them"),
        );
    }
    if !f.protocol.uses_reports() {
        if f.report_interval.is_some() {
            return err(
                p("report_interval"),
                format!("applies to tcp-friend and cbraa flows only, not {name}"),
            );
        }
        if f.initial_rate.is_some() && f.protocol != Protocol::Obp {
            return err(
                p("initial_rate"),
                format!(
                    "applies to tcp-friend, cbraa and obp flows only ({name} sets its first rate itself)"
                ),
            );
        }
    }
    if f.cbraa.is_some() && f.protocol != Protocol::Cbraa {
        return err(
            p("cbraa"),
            format!("CBRAA constants need protocol = \"cbraa\", found {name:?}"),
        );
    }
    if f.tfrc.is_some() && f.protocol != Protocol::Tfrc {
        return err(
            p("tfrc"),
            format!("TFRC options need protocol = \"tfrc\", found {name:?}"),
        );
    }
    if f.primo.is_some() && f.protocol != Protocol::Primo {
        return err(
            p("primo"),
            format!("Primo constants need protocol = \"primo\", found {name:?}"),
        );
    }
    if let Some(c) = &f.primo {
        validate_primo(c, p)?;
    }
    crate::spec::obp::validate(f, p)?;
    if let Some(d) = f.report_interval {
        if d.0 < ccsim_core::Dur::from_millis(1) || d.0 > ccsim_core::Dur::from_secs(3600) {
            return err(
                p("report_interval"),
                format!("must be between 1ms and 3600s, found {}", show(&d)),
            );
        }
    }
    for (key, r) in [
        ("initial_rate", f.initial_rate),
        ("min_rate", f.min_rate),
        ("max_rate", f.max_rate),
    ] {
        if let Some(r) = r {
            if r.0 .0 == 0 {
                return err(p(key), format!("must be positive, found {}", show(&r)));
            }
            // As for CBR: faster than one packet per nanosecond is many packets at one instant.
            let most = u128::from(f.packet_size.0 .0) * 8 * 1_000_000_000;
            if u128::from(r.0 .0) > most {
                return err(
                    p(key),
                    format!(
                        "must be at most one packet per nanosecond ({most}bps with {} packets), found {}",
                        show(&f.packet_size),
                        show(&r)
                    ),
                );
            }
        }
    }
    if let (Some(lo), Some(hi)) = (f.min_rate, f.max_rate) {
        if lo.0 .0 > hi.0 .0 {
            return err(
                p("max_rate"),
                format!(
                    "must be at least min_rate ({}), found {}",
                    show(&lo),
                    show(&hi)
                ),
            );
        }
    }
    if let Some(c) = &f.cbraa {
        let checks = [
            (
                "a",
                c.a,
                c.a >= 1.0,
                "at least 1 (decrease above a times the theoretical loss)",
            ),
            (
                "b",
                c.b,
                c.b > 0.0 && c.b <= 1.0,
                "in (0, 1] (increase below b times it)",
            ),
            ("alpha", c.alpha, (0.0..1.0).contains(&c.alpha), "in [0, 1)"),
            ("beta", c.beta, (0.0..=1.0).contains(&c.beta), "in [0, 1]"),
        ];
        for (key, x, ok, what) in checks {
            if !x.is_finite() || !ok {
                return err(
                    p(&format!("cbraa.{key}")),
                    format!("must be {what}, found {x}"),
                );
            }
        }
    }
    Ok(())
}

/// Primo's constants: finite, the thresholds ordered TH_rel <= TH_mod <= TH_str and the
/// factors 0 < F_str <= F_mod <= F_rel, the weights in [0, 1] (the paper, III-D, has
/// 0 < F_str < F_mod < 1 < F_rel; equal values are let through for experiments).
fn validate_primo(c: &PrimoSpec, p: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    let checks = [
        (
            "tau",
            c.tau,
            (0.0..=100.0).contains(&c.tau),
            "in [0, 100]".to_string(),
        ),
        (
            "th_rel",
            c.th_rel,
            c.th_rel >= 0.0,
            "at least 0".to_string(),
        ),
        (
            "th_mod",
            c.th_mod,
            c.th_mod >= c.th_rel,
            format!("at least th_rel ({})", c.th_rel),
        ),
        (
            "th_str",
            c.th_str,
            c.th_str >= c.th_mod,
            format!("at least th_mod ({})", c.th_mod),
        ),
        ("f_str", c.f_str, c.f_str > 0.0, "positive".to_string()),
        (
            "f_mod",
            c.f_mod,
            c.f_mod >= c.f_str,
            format!("at least f_str ({})", c.f_str),
        ),
        (
            "f_rel",
            c.f_rel,
            c.f_rel >= c.f_mod,
            format!("at least f_mod ({})", c.f_mod),
        ),
        (
            "w1",
            c.w1,
            c.w1 > 0.0 && c.w1 <= 1.0,
            "in (0, 1]".to_string(),
        ),
        (
            "w2",
            c.w2,
            (0.0..1.0).contains(&c.w2),
            "in [0, 1)".to_string(),
        ),
    ];
    for (key, x, ok, what) in checks {
        if !x.is_finite() || !ok {
            return err(
                p(&format!("primo.{key}")),
                format!("must be {what}, found {x}"),
            );
        }
    }
    if !(1..=4096).contains(&c.rcv_samples) {
        return err(
            p("primo.rcv_samples"),
            format!("must be between 1 and 4096, found {}", c.rcv_samples),
        );
    }
    if let Some(d) = c.receiver_clock_offset {
        if d.0 > ccsim_core::Dur::from_secs(86_400) {
            return err(
                p("primo.receiver_clock_offset"),
                format!("must be at most 86400s, found {}", show(&d)),
            );
        }
    }
    Ok(())
}

/// A rate-based flow's checks.
pub(crate) fn validate(f: &FlowSpec, p: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    validate_rate_options(f, p)?;
    refuse_keys(f, p, &f.tcp_keys_set(), "TCP flows")?;
    Ok(())
}
