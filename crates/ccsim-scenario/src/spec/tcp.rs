//! The TCP family's keys and their checks: Tahoe, Reno, NewReno, SACK, Vegas and CUBIC
//! (crates/ccsim-protocols/src/tcp; RFC 5681, 6582, 6298, 2018, 6675, 3168, 9438, 9406;
//! Brakmo and Peterson 1995 for Vegas). Their flat keys (`initial_window`, `min_rto`,
//! `delayed_ack`, `hystart`, ...) are declared on [`FlowSpec`]; the Vegas thresholds and
//! CUBIC's constants are the `vegas` and `cubic` tables here. The agents are built in
//! [`crate::protocols::tcp`].

use ccsim_core::Dur;
use ccsim_protocols::{CubicParams, HyStartKind, PragueParams, RecoveryPolicy, RtoPolicy};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::ScenarioError;
use crate::spec::flows::{refuse_keys, FlowSpec, Protocol};
use crate::spec::{err, show};
use crate::units::SsthreshStr;

/// Vegas thresholds, in segments queued in the network.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct VegasSpec {
    /// Grow the window while fewer segments are queued.
    #[serde(default = "default_vegas_alpha")]
    pub alpha: f64,
    /// Shrink the window while more segments are queued.
    #[serde(default = "default_vegas_beta")]
    pub beta: f64,
    /// Leave slow start once more segments are queued.
    #[serde(default = "default_vegas_gamma")]
    pub gamma: f64,
    /// Whose Vegas: `"linux"` (Brakmo's algorithm as Linux and ns-3 run it, NewReno loss
    /// recovery) or `"ns2"` (ns-2's `Agent/TCP/Vegas`: Reno-style recovery with the
    /// fine-grained retransmission check, BaseRTT measured afresh in one-segment rounds).
    #[serde(default)]
    pub variant: VegasVariantSpec,
}

/// The `vegas.variant` values.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum VegasVariantSpec {
    /// Brakmo's Vegas as Linux and ns-3 carry it.
    #[default]
    Linux,
    /// ns-2's `Agent/TCP/Vegas`.
    Ns2,
}

fn default_vegas_alpha() -> f64 {
    ccsim_protocols::VegasParams::default().alpha
}
fn default_vegas_beta() -> f64 {
    ccsim_protocols::VegasParams::default().beta
}
fn default_vegas_gamma() -> f64 {
    ccsim_protocols::VegasParams::default().gamma
}

/// CUBIC's constants (RFC 9438), as fractions; Linux keeps beta in 1024ths and C in 1024ths
/// over 10, and ccsim rounds to those (0.7 is 717/1024, 0.4 is 41 x 10/1024).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CubicSpec {
    /// Multiplicative decrease factor beta_cubic (RFC 9438 section 4.6).
    #[serde(default = "default_cubic_beta")]
    pub beta: f64,
    /// The cubic function's C, segments per second cubed (RFC 9438 section 4.2).
    #[serde(default = "default_cubic_c")]
    pub c: f64,
    /// Fast convergence (RFC 9438 section 4.7).
    #[serde(default = "crate::spec::default_true")]
    pub fast_convergence: bool,
    /// The Reno-friendly region (RFC 9438 section 4.3).
    #[serde(default = "crate::spec::default_true")]
    pub reno_friendly: bool,
}

fn default_cubic_beta() -> f64 {
    f64::from(CubicParams::default().beta) / 1024.0
}
fn default_cubic_c() -> f64 {
    f64::from(CubicParams::default().bic_scale) * 10.0 / 1024.0
}

impl CubicSpec {
    /// Linux's integer constants for these fractions.
    #[must_use]
    pub fn params(&self) -> CubicParams {
        CubicParams {
            beta: (self.beta * 1024.0).round() as u32,
            bic_scale: (self.c * 1024.0 / 10.0).round() as u32,
            fast_convergence: self.fast_convergence,
            tcp_friendliness: self.reno_friendly,
        }
    }
}

/// Prague's options (L4STeam's module parameters).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PragueSpec {
    /// RTT independence (`prague_rtt_scaling = RTT_CONTROL_RATE`, target 25 ms).
    #[serde(default = "crate::spec::default_true")]
    pub rtt_independence: bool,
    /// The classic-ECN detection and fallback (`prague_ecn_fallback = 1`; off by default, as
    /// in the module).
    #[serde(default)]
    pub classic_ecn_fallback: bool,
}

impl PragueSpec {
    /// The protocol crate's parameters.
    #[must_use]
    pub fn params(&self) -> PragueParams {
        PragueParams {
            rtt_independence: self.rtt_independence,
            classic_ecn_fallback: self.classic_ecn_fallback,
        }
    }
}

/// Whether a flow uses AccECN: its `accecn`, always for Prague.
#[must_use]
pub fn uses_accecn(f: &FlowSpec) -> bool {
    f.protocol == Protocol::Prague || f.accecn == Some(true)
}

/// How slow start ends before a loss (`hystart`), as scenario files name it.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum HyStartSpec {
    /// Linux's HyStart (tcp_cubic.c): the ACK-train and delay-increase tests.
    Linux,
    /// RFC 9406's HyStart++ with Conservative Slow Start.
    Rfc9406,
    /// Slow start until a loss or an ECN echo.
    Off,
}

/// How a Reno-family window grows (`growth`), as scenario files name it.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum GrowthSpec {
    /// RFC 5681: slow start adds at most one segment per ACK, congestion avoidance
    /// MSS*MSS/cwnd per ACK.
    Rfc5681,
    /// Linux's `tcp_reno_cong_avoid`: acknowledged segments counted.
    Linux,
}

/// A flow's slow-start exit: its `hystart`, else Linux's HyStart for CUBIC (Linux runs it
/// by default) and none for the others (RFC 5681).
#[must_use]
pub fn hystart_kind(f: &FlowSpec) -> HyStartKind {
    let default = if f.protocol == Protocol::Cubic {
        HyStartSpec::Linux
    } else {
        HyStartSpec::Off
    };
    match f.hystart.unwrap_or(default) {
        HyStartSpec::Linux => HyStartKind::Linux,
        HyStartSpec::Rfc9406 => HyStartKind::Rfc9406,
        HyStartSpec::Off => HyStartKind::Off,
    }
}

/// Most segments of a TCP initial window: the whole window leaves at once, one packet each.
pub const MAX_INITIAL_WINDOW: u32 = 100_000;

/// The TCP-variant keys: Vegas thresholds, the slow-start options.
pub(crate) fn validate_tcp_options(
    f: &FlowSpec,
    p: &dyn Fn(&str) -> String,
) -> Result<(), ScenarioError> {
    match (f.protocol.custom(), &f.cc) {
        (None, Some(_)) => {
            return err(
                p("cc"),
                format!(
                    "cc = {{...}} holds a custom algorithm's options (protocol = \"module:Class\" or a registered name), found protocol {:?}",
                    f.protocol.name()
                ),
            );
        }
        (Some(c), options) => {
            let empty = crate::registry::CcOptions::new();
            crate::registry::check_options(c, options.as_ref().unwrap_or(&empty))
                .or_else(|m| err(p("cc"), m))?;
        }
        (None, None) => {}
    }
    if f.growth.is_some()
        && !matches!(
            f.protocol,
            Protocol::Tahoe | Protocol::Reno | Protocol::Newreno | Protocol::Sack
        )
    {
        return err(
            p("growth"),
            format!(
                "growth sets the Reno family's window rule (tahoe, reno, newreno, sack); {:?} grows by its own",
                f.protocol.name()
            ),
        );
    }
    if let Some(v) = &f.vegas {
        if f.protocol != Protocol::Vegas {
            return err(
                p("vegas"),
                format!(
                    "Vegas thresholds need protocol = \"vegas\", found {:?}",
                    f.protocol.name()
                ),
            );
        }
        for (key, x) in [("alpha", v.alpha), ("beta", v.beta), ("gamma", v.gamma)] {
            if !x.is_finite() || x < 0.0 {
                return err(
                    p(&format!("vegas.{key}")),
                    format!("must be a non-negative number of segments, found {x}"),
                );
            }
        }
        if v.alpha > v.beta {
            return err(
                p("vegas.beta"),
                format!("must be at least alpha ({}), found {}", v.alpha, v.beta),
            );
        }
    }
    if let Some(c) = &f.cubic {
        if f.protocol != Protocol::Cubic {
            return err(
                p("cubic"),
                format!(
                    "CUBIC's constants need protocol = \"cubic\", found {:?}",
                    f.protocol.name()
                ),
            );
        }
        // Linux keeps beta in 1024ths: at least 1/1024 and below 1 so that a loss reduces.
        if !(c.beta.is_finite() && (1.0 / 1024.0..1.0).contains(&c.beta)) {
            return err(
                p("cubic.beta"),
                format!("must be at least 1/1024 and below 1, found {}", c.beta),
            );
        }
        if !(c.c.is_finite() && (10.0 / 1024.0..=100.0).contains(&c.c)) {
            return err(
                p("cubic.c"),
                format!(
                    "must be between 10/1024 and 100 segments per second cubed, found {}",
                    c.c
                ),
            );
        }
    }
    if f.prague.is_some() {
        if f.protocol != Protocol::Prague {
            return err(
                p("prague"),
                format!(
                    "Prague's options need protocol = \"prague\", found {:?}",
                    f.protocol.name()
                ),
            );
        }
    }
    if f.protocol == Protocol::Prague {
        if f.accecn == Some(false) {
            return err(
                p("accecn"),
                "Prague runs only with AccECN feedback (its module falls back to Reno without it); remove accecn = false".into(),
            );
        }
        for (key, set) in [
            ("hystart", f.hystart.is_some()),
            ("initial_ssthresh", f.initial_ssthresh.is_some()),
            ("paced_slow_start", f.paced_slow_start),
            ("pacing", f.pacing),
        ] {
            if set {
                return err(
                    p(key),
                    format!("Prague sets its window and pacing rate itself (protocol = \"prague\"); remove {key}"),
                );
            }
        }
    }
    if matches!(f.protocol, Protocol::Dctcp | Protocol::Prague) && f.ecn == Some(false) {
        return err(
            p("ecn"),
            format!(
                "{} reacts to ECN marks and always runs with ECN; remove ecn = false",
                if f.protocol == Protocol::Dctcp {
                    "DCTCP"
                } else {
                    "Prague"
                }
            ),
        );
    }
    if f.accecn == Some(true) && f.ecn == Some(false) {
        return err(
            p("ecn"),
            "false contradicts accecn = true (AccECN is ECN's feedback and turns ECN on); remove one of them"
                .into(),
        );
    }
    if f.protocol == Protocol::Xcp && f.accecn.is_some() {
        return err(
            p("accecn"),
            "XCP's receiver answers data only, without TCP's ECN feedback; remove accecn".into(),
        );
    }
    let model_based = f.protocol.custom().is_some_and(|c| c.model_based);
    if matches!(f.protocol, Protocol::Bbr | Protocol::Bbr3) || model_based {
        // BBR sets the window itself on every ACK: the window-growth options have no effect.
        for (key, set) in [
            ("hystart", f.hystart.is_some()),
            ("initial_ssthresh", f.initial_ssthresh.is_some()),
            ("paced_slow_start", f.paced_slow_start),
            ("cwnd_limited_growth", !f.cwnd_limited_growth),
            ("pacing", f.pacing),
        ] {
            if set {
                return err(
                    p(key),
                    format!("{} sets its window and pacing rate itself (protocol = \"{}\"); remove {key}", if model_based { "a model-based algorithm" } else { "BBR" }, f.protocol.name()),
                );
            }
        }
    }
    if f.hystart.is_some() && f.protocol == Protocol::Xcp {
        return err(
            p("hystart"),
            "XCP's window follows router feedback, not slow start; remove hystart".into(),
        );
    }
    if let Some(SsthreshStr::Bytes(b)) = f.initial_ssthresh {
        if b == 0 {
            return err(
                p("initial_ssthresh"),
                "must be positive, found \"0B\"".into(),
            );
        }
    }
    if f.pacing_spacing.is_some() && !f.paced_slow_start {
        return err(p("pacing_spacing"), "needs paced_slow_start = true".into());
    }
    if let Some(d) = f.pacing_spacing {
        if d.0 .0 == 0 || d.0 > ccsim_core::Dur::from_secs(10) {
            return err(
                p("pacing_spacing"),
                format!("must be between 1ns and 10s, found {}", show(&d)),
            );
        }
    }
    Ok(())
}

/// The retransmission timer's arithmetic (`rto`), as scenario files name it.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum RtoSpec {
    /// Linux's `tcp_rtt_estimator` and `tcp_set_rto`: RTO = SRTT + max(4 mdev over the
    /// last round trip, rto_min); initial 1 s, rto_min 200 ms, at most 120 s.
    Linux,
    /// RFC 6298: RTO = SRTT + max(G, 4 RTTVAR), at least 1 s, at most 60 s; initial 1 s.
    Rfc6298,
    /// ns-2.35's `TcpAgent`: whole ticks (10 ms), srtt x8 and rttvar x4 fixed point, minrto
    /// 200 ms, initial 3 s, at most 60 s.
    Ns2,
    /// ns-3's `RttMeanDeviation` and `TcpSocketBase`: MinRto 1 s, G 1 ms, initial 1 s.
    Ns3,
}

/// How a sender recovers (`recovery`), as scenario files name it: the SACK policies, and
/// ns-2.35's rules for Tahoe, Reno and NewReno.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum RecoverySpec {
    /// ns-3 3.44: ssthresh from the pipe on entering recovery; after a timeout every
    /// unSACKed segment is lost and the sender sends by the pipe.
    Ns3,
    /// RFC 6675 and RFC 5681 to the letter: ssthresh from FlightSize, go-back-N after a
    /// timeout.
    Rfc6675,
    /// Linux: ssthresh from the congestion window, every unSACKed segment lost after a
    /// timeout, and PRR, RACK and the tail loss probe unless the flow turns them off.
    Linux,
    /// ns-2.35's `Agent/TCP`, `Agent/TCP/Reno` and `Agent/TCP/Newreno` (`bug_fix_ true`):
    /// no fast retransmit until the ACK covers the segment after `recover_`, which Reno
    /// also sets at its fast retransmit (Tahoe, Reno and NewReno only).
    Ns2,
}

/// The recovery of a protocol when a flow names none: Linux's (PRR, RACK, TLP) for the
/// algorithms that exist as Linux modules and run with it there (CUBIC, DCTCP, BBR, BBR v3,
/// Prague), ns-3's for the others.
///
/// CHOICE: a Linux algorithm recovers as Linux does unless the scenario says otherwise: under
/// ns-3's rules a retransmission lost again is found only by the timer, and the timeout then
/// marks every unSACKed segment lost, the last round trip's still in flight included
/// (ns-3's `SetSentListLost`); BBR and Prague, which keep their window through a loss, then
/// resend most of a window that was never lost (a lone BBR v3 flow, 100 Mbit/s x 40 ms, half a
/// BDP of buffer: 393 retransmissions for 77 drops, against 43 for 10 with Linux's recovery).
#[must_use]
pub fn default_recovery(protocol: Protocol) -> RecoverySpec {
    match protocol {
        Protocol::Cubic | Protocol::Dctcp | Protocol::Bbr | Protocol::Bbr3 | Protocol::Prague => {
            RecoverySpec::Linux
        }
        _ => RecoverySpec::Ns3,
    }
}

/// A flow's recovery: its `recovery`, else its protocol's [`default_recovery`].
#[must_use]
pub fn effective_recovery(f: &FlowSpec) -> RecoverySpec {
    f.recovery.unwrap_or_else(|| default_recovery(f.protocol))
}

/// A flow's recovery policy.
#[must_use]
pub fn recovery_policy(f: &FlowSpec) -> RecoveryPolicy {
    match effective_recovery(f) {
        RecoverySpec::Ns3 => RecoveryPolicy::Ns3,
        RecoverySpec::Rfc6675 => RecoveryPolicy::Rfc6675,
        RecoverySpec::Linux => RecoveryPolicy::Linux,
        RecoverySpec::Ns2 => RecoveryPolicy::Ns2,
    }
}

/// Whether a flow recovers with Proportional Rate Reduction: its `prr`, else on with
/// `recovery = "linux"`.
#[must_use]
pub fn uses_prr(f: &FlowSpec) -> bool {
    f.prr.unwrap_or(linux_sack_recovery(f))
}

/// Whether `recovery = "linux"` turns on its SACK-recovery options for this flow: only for
/// the protocols that recover with SACK (the key changes SACK flows only).
fn linux_sack_recovery(f: &FlowSpec) -> bool {
    effective_recovery(f) == RecoverySpec::Linux && sack_recovery(f.protocol)
}

/// Whether a protocol recovers with SACK (RFC 6675).
fn sack_recovery(protocol: Protocol) -> bool {
    match protocol {
        Protocol::Sack
        | Protocol::Cubic
        | Protocol::Dctcp
        | Protocol::Bbr
        | Protocol::Bbr3
        | Protocol::Prague => true,
        Protocol::Custom(c) => c.recovery == ccsim_protocols::LossRecovery::Sack,
        _ => false,
    }
}

/// Whether a flow detects losses with RACK: its `rack`, else on with `recovery = "linux"`.
#[must_use]
pub fn uses_rack(f: &FlowSpec) -> bool {
    f.rack.unwrap_or(linux_sack_recovery(f))
}

/// Whether a flow sends tail loss probes: its `tlp`, else on with `recovery = "linux"`
/// when it runs RACK.
#[must_use]
pub fn uses_tlp(f: &FlowSpec) -> bool {
    f.tlp.unwrap_or(linux_sack_recovery(f) && uses_rack(f))
}

/// The SACK-recovery options and the protocols they need.
fn validate_recovery_options(
    f: &FlowSpec,
    p: &dyn Fn(&str) -> String,
) -> Result<(), ScenarioError> {
    let sack_recovery = sack_recovery(f.protocol);
    if f.recovery == Some(RecoverySpec::Ns2)
        && !matches!(
            f.protocol,
            Protocol::Tahoe | Protocol::Reno | Protocol::Newreno
        )
    {
        return err(
            p("recovery"),
            format!(
                "\"ns2\" applies to protocol \"tahoe\", \"reno\" or \"newreno\" (ns-2.35's Sack1 recovery is not built), found {:?}",
                f.protocol.name()
            ),
        );
    }
    for (key, set) in [
        ("prr", f.prr.is_some()),
        ("rescue_retransmission", f.rescue_retransmission.is_some()),
        ("rack", f.rack.is_some()),
        ("tlp", f.tlp.is_some()),
    ] {
        if set && !sack_recovery {
            return err(
                p(key),
                format!(
                    "applies to SACK loss recovery (protocol \"sack\", \"cubic\", \"dctcp\", \"bbr\", \"bbr3\" or \"prague\"), found {:?}",
                    f.protocol.name()
                ),
            );
        }
    }
    if f.ack_on_push && !f.delayed_ack {
        return err(
            p("ack_on_push"),
            "needs delayed_ack = true (a receiver without delayed ACKs acknowledges every segment at once)".into(),
        );
    }
    if f.ack_on_push && f.protocol == Protocol::Xcp {
        return err(
            p("ack_on_push"),
            "XCP's sender sets no PSH, so its receiver has nothing to acknowledge early; remove ack_on_push".into(),
        );
    }
    for (key, set) in [("handshake", f.handshake), ("timestamps", f.timestamps)] {
        if set && f.protocol == Protocol::Xcp {
            return err(
                p(key),
                format!("XCP's receiver answers data only, without TCP options; remove {key}"),
            );
        }
    }
    if f.tlp == Some(true) && !uses_rack(f) {
        return err(
            p("tlp"),
            "the tail loss probe relies on RACK to detect the loss it reveals (RFC 8985 section 7); set rack = true".into(),
        );
    }
    Ok(())
}

/// The policy when a flow names none.
pub const DEFAULT_RTO: RtoSpec = RtoSpec::Linux;
/// RFC 6298's and ns-3's clock granularity when a flow gives none.
pub const DEFAULT_CLOCK_GRANULARITY: Dur = Dur::from_millis(1);
/// ns-2.35's `tcpTick_`.
pub const DEFAULT_NS2_TICK: Dur = Dur::from_millis(10);

/// A flow's retransmission timer: (policy, initial, minimum, maximum), its keys applied over
/// the policy's defaults ([`RtoPolicy::defaults`]).
#[must_use]
pub fn rto_config(f: &FlowSpec) -> (RtoPolicy, Dur, Dur, Dur) {
    let granularity = f
        .clock_granularity
        .map_or(DEFAULT_CLOCK_GRANULARITY, |g| g.0);
    let policy = match f.rto.unwrap_or(DEFAULT_RTO) {
        RtoSpec::Linux => RtoPolicy::Linux,
        RtoSpec::Rfc6298 => RtoPolicy::Rfc6298 { granularity },
        RtoSpec::Ns2 => RtoPolicy::Ns2 {
            tick: f.tick.map_or(DEFAULT_NS2_TICK, |t| t.0),
        },
        RtoSpec::Ns3 => RtoPolicy::Ns3 { granularity },
    };
    let (initial, min, max) = policy.defaults();
    (
        policy,
        f.initial_rto.map_or(initial, |d| d.0),
        f.min_rto.map_or(min, |d| d.0),
        max,
    )
}

fn validate_rto(f: &FlowSpec, p: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    let rto = f.rto.unwrap_or(DEFAULT_RTO);
    let name = |r: RtoSpec| serde_json::to_string(&r).unwrap_or_default();
    if f.clock_granularity.is_some() && !matches!(rto, RtoSpec::Rfc6298 | RtoSpec::Ns3) {
        return err(
            p("clock_granularity"),
            format!(
                "applies to rto = \"rfc6298\" or \"ns3\", not rto = {}",
                name(rto)
            ),
        );
    }
    if f.tick.is_some() && rto != RtoSpec::Ns2 {
        return err(
            p("tick"),
            format!("applies to rto = \"ns2\", not rto = {}", name(rto)),
        );
    }
    for (key, value) in [
        ("clock_granularity", f.clock_granularity),
        ("tick", f.tick),
        ("initial_rto", f.initial_rto),
    ] {
        if let Some(d) = value {
            if d.0 == Dur::ZERO || d.0 > Dur::from_secs(60) {
                return err(
                    p(key),
                    format!("must be positive and at most 60 s, found {}", show(&d)),
                );
            }
        }
    }
    validate_min_rto(f, p)?;
    Ok(())
}

/// `min_rto` (TCP and OBP): at most the 60 s maximum timeout.
pub(crate) fn validate_min_rto(
    f: &FlowSpec,
    p: &dyn Fn(&str) -> String,
) -> Result<(), ScenarioError> {
    match f.min_rto.filter(|m| m.0 > Dur::from_secs(60)) {
        Some(min_rto) => err(
            p("min_rto"),
            format!(
                "must be at most the 60 s maximum RTO, found {}",
                show(&min_rto)
            ),
        ),
        None => Ok(()),
    }
}

/// A TCP flow's checks.
pub(crate) fn validate(f: &FlowSpec, p: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    if f.rate.is_some() {
        return err(
            p("rate"),
            format!(
                "{} flows are window-controlled; remove rate",
                f.protocol.name()
            ),
        );
    }
    if f.initial_window == 0 || f.initial_window > MAX_INITIAL_WINDOW {
        return err(
            p("initial_window"),
            format!(
                "must be 1 to {MAX_INITIAL_WINDOW} segments (the initial window is sent at once), found {}",
                f.initial_window
            ),
        );
    }
    if f.max_window == Some(0) {
        return err(
            p("max_window"),
            "must be at least 1 segment, found 0".into(),
        );
    }
    validate_rto(f, p)?;
    if f.size.is_some_and(|s| s.0 .0 == 0) {
        return err(p("size"), "must be positive, found \"0B\"".into());
    }
    validate_tcp_options(f, p)?;
    validate_recovery_options(f, p)?;
    crate::spec::xcp::validate(f, p)?;
    refuse_keys(f, p, &f.rate_keys_set(), "rate-based flows")?;
    Ok(())
}
