//! XCP's sender and receiver, built from a checked flow ([`crate::spec::xcp`]) over the TCP
//! family's configuration. The router function on every link is in [`super::assist`].

use ccsim_protocols::{
    AnyAgent, TcpConfig, TcpSink, XcpParams, XcpReceiver, XcpRecovery, XcpSender,
};

use super::FlowContext;
use crate::spec::flows::FlowSpec;
use crate::spec::xcp::XcpRecoverySpec;

/// An XCP flow's sender and receiver.
pub(crate) fn build(f: &FlowSpec, cx: &FlowContext, cfg: &TcpConfig) -> (AnyAgent, AnyAgent) {
    let x = f.xcp.unwrap_or_default();
    let params = XcpParams {
        recovery: match x.recovery {
            XcpRecoverySpec::Newreno => XcpRecovery::NewReno,
            XcpRecoverySpec::Reno => XcpRecovery::Reno,
        },
        desired_rate: x.desired_rate.map(|r| r.0),
    };
    let delack = f.delayed_ack.then_some(ccsim_core::Dur::from_millis(200));
    (
        AnyAgent::XcpSender(Box::new(XcpSender::new(cx.flow, cx.receiver, cfg, params))),
        AnyAgent::XcpReceiver(Box::new(XcpReceiver::new(TcpSink::new(delack)))),
    )
}
