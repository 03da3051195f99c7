//! The TCP family's agents, built from a checked flow ([`crate::spec::tcp`]): a
//! [`TcpSender`] and [`TcpSink`] for Tahoe, Reno, NewReno, SACK, Vegas, CUBIC, DCTCP, BBR and BBR v3, XCP's through
//! [`super::xcp`], and what the routes set once they are built (`initial_ssthresh = "bdp"`).

use ccsim_core::Dur;
use ccsim_engine::NodeId;
use ccsim_protocols::tcp::cc::AnyCc;
use ccsim_protocols::{
    Algorithm, AnyAgent, PacedSlowStart, TcpConfig, TcpSender, TcpSink, VegasParams, VegasVariant,
};

use super::FlowContext;
use crate::error::ScenarioError;
use crate::netsim::NetSim;
use crate::registry;
use crate::spec::flows::{FlowSpec, Protocol};
use crate::spec::tcp::{
    hystart_kind, recovery_policy, rto_config, uses_accecn, uses_prr, uses_rack, uses_tlp,
    VegasVariantSpec,
};
use crate::units::SsthreshStr;

/// A TCP flow's sender and sink.
pub(crate) fn build(f: &FlowSpec, cx: &FlowContext) -> Result<(AnyAgent, AnyAgent), ScenarioError> {
    let algorithm = match f.protocol {
        Protocol::Custom(c) => Algorithm::Custom {
            name: c.name,
            recovery: c.recovery,
            model_based: c.model_based,
        },
        Protocol::Tahoe => Algorithm::Tahoe,
        Protocol::Reno => Algorithm::Reno,
        Protocol::Sack => Algorithm::Sack,
        Protocol::Vegas => {
            Algorithm::Vegas(f.vegas.map_or_else(VegasParams::default, |v| VegasParams {
                alpha: v.alpha,
                beta: v.beta,
                gamma: v.gamma,
                variant: match v.variant {
                    VegasVariantSpec::Linux => VegasVariant::Linux,
                    VegasVariantSpec::Ns2 => VegasVariant::Ns2,
                },
            }))
        }
        Protocol::Cubic => Algorithm::Cubic(
            f.cubic
                .map_or_else(ccsim_protocols::CubicParams::default, |c| c.params()),
        ),
        Protocol::Dctcp => Algorithm::Dctcp(ccsim_protocols::DctcpParams::default()),
        Protocol::Bbr => Algorithm::Bbr,
        Protocol::Bbr3 => Algorithm::Bbr3,
        Protocol::Prague => Algorithm::Prague(
            f.prague
                .map_or_else(ccsim_protocols::PragueParams::default, |p| p.params()),
        ),
        _ => Algorithm::NewReno,
    };
    let initial_ssthresh = match f.initial_ssthresh {
        Some(SsthreshStr::Bytes(b)) => Some(b),
        // Set from the routes once they are built ([`after_routes`]).
        None | Some(SsthreshStr::Bdp) => None,
    };
    let (rto_policy, initial_rto, min_rto, max_rto) = rto_config(f);
    let cfg = TcpConfig {
        packet_size: cx.packet_size,
        initial_window: f.initial_window,
        size: f.size.map(|s| s.0 .0),
        max_window: f.max_window.unwrap_or(TcpConfig::default().max_window),
        min_rto,
        max_rto,
        initial_rto,
        rto_policy,
        algorithm,
        recovery_policy: recovery_policy(f),
        ecn: f.ecn == Some(true) || f.protocol.custom().is_some_and(|c| c.precise_ecn),
        initial_ssthresh,
        paced_slow_start: f.paced_slow_start.then_some(PacedSlowStart {
            spacing: f.pacing_spacing.map(|d| d.0),
        }),
        cwnd_limited_growth: f.cwnd_limited_growth,
        linux_growth: f.growth == Some(crate::spec::tcp::GrowthSpec::Linux),
        hystart: hystart_kind(f),
        limited_transmit: f.limited_transmit,
        prr: uses_prr(f),
        rescue_retransmission: f.rescue_retransmission.unwrap_or(false),
        rack: uses_rack(f),
        tlp: uses_tlp(f),
        handshake: f.handshake,
        timestamps: f.timestamps,
        pacing: f.pacing,
        accecn: uses_accecn(f),
        ..TcpConfig::default()
    };
    if f.protocol == Protocol::Xcp {
        return Ok(super::xcp::build(f, cx, &cfg));
    }
    let sender = match f.protocol.custom() {
        None => TcpSender::new(cx.flow, cx.receiver, &cfg),
        Some(c) => {
            let empty = registry::CcOptions::new();
            let header = ccsim_protocols::tcp_header_bytes(cfg.timestamps);
            let args = registry::CcArgs {
                flow: &f.name,
                options: f.cc.as_ref().unwrap_or(&empty),
                mss: u64::from(cx.packet_size.saturating_sub(header)),
            };
            let cc = registry::build(c, &args)
                .map_err(|m| ScenarioError::spec(format!("{}.protocol", cx.spec_path), m))?;
            TcpSender::with_controller(cx.flow, cx.receiver, &cfg, AnyCc::Custom(cc))
        }
    };
    let delack = f.delayed_ack.then_some(Dur::from_millis(200));
    Ok((
        AnyAgent::Tcp(Box::new(sender)),
        AnyAgent::TcpSink(
            TcpSink::new(delack)
                .with_ack_on_push(f.ack_on_push)
                .with_sack(algorithm.uses_sack())
                .with_dsack(uses_rack(f))
                .with_timestamps(f.timestamps)
                // BBR v3 uses ECN only with precise (per-segment) echo (Linux's TCP_ECN_LOW).
                .with_ce_echo(
                    f.protocol == Protocol::Dctcp
                        || (f.protocol == Protocol::Bbr3 && f.ecn == Some(true))
                        || f.protocol.custom().is_some_and(|c| c.precise_ecn),
                )
                .with_accecn(uses_accecn(f)),
        ),
    ))
}

/// What needs the routes: `initial_ssthresh = "bdp"`, the path's bandwidth-delay product.
pub(crate) fn after_routes(
    f: &FlowSpec,
    sim: &mut NetSim,
    from: NodeId,
    to: NodeId,
    sender: ccsim_core::Addr,
) {
    if f.initial_ssthresh == Some(SsthreshStr::Bdp) {
        let bdp = super::path_bdp(sim, from, to);
        if let AnyAgent::Tcp(s) = sim.agent_mut(sender) {
            s.set_initial_ssthresh(bdp);
        }
    }
}
