//! The UDP sources and sinks, built from a checked flow ([`crate::spec::udp`]): constant bit
//! rate or Poisson departures.

use ccsim_protocols::{AnyAgent, Departures, UdpConfig, UdpSink, UdpSource};

use super::FlowContext;
use crate::error::ScenarioError;
use crate::spec::flows::{FlowSpec, Protocol};

/// A UDP flow's source and sink.
pub(crate) fn build(f: &FlowSpec, cx: &FlowContext) -> Result<(AnyAgent, AnyAgent), ScenarioError> {
    let rate = f
        .rate
        .ok_or_else(|| ScenarioError::Internal("validated UDP flow lacks a rate".into()))?;
    let cfg = UdpConfig {
        rate: rate.0,
        packet_size: cx.packet_size,
    };
    let departures = if f.protocol == Protocol::Cbr {
        Departures::Constant
    } else {
        Departures::Poisson
    };
    Ok((
        AnyAgent::Udp(UdpSource::new(cx.flow, cx.receiver, cfg, departures)),
        AnyAgent::UdpSink(UdpSink::new(cx.options.record_arrivals)),
    ))
}
