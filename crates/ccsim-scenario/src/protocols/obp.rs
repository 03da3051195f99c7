//! OBP's sender and receiver, built from a checked flow ([`crate::spec::obp`]). The router
//! function on every link is in [`super::assist`].

use ccsim_protocols::{AnyAgent, ObpParams, ObpReceiver, ObpSender, TcpSink, TCP_HEADER_BYTES};

use super::FlowContext;
use crate::spec::flows::FlowSpec;

/// An OBP flow's sender and receiver.
pub(crate) fn build(f: &FlowSpec, cx: &FlowContext) -> (AnyAgent, AnyAgent) {
    let c = f.obp.unwrap_or_default();
    let mut params = ObpParams::paper(cx.packet_size);
    params.delta = c.delta;
    params.gamma = c.gamma;
    params.initial_rtt = c.initial_rtt.0;
    if let Some(min_rto) = f.min_rto {
        params.min_rto = min_rto.0;
    }
    if let Some(r) = f.initial_rate {
        params.initial_rate = r.0.bps() as f64 / 8.0;
    }
    if let Some(r) = f.min_rate {
        params.min_rate = r.0.bps() as f64 / 8.0;
    }
    params.initial_rate = params.initial_rate.max(params.min_rate);
    // CHOICE: `size` counts payload as for TCP flows (packet size less 40 header bytes), so
    // a web transfer of n bytes is the same number of packets whatever the protocol.
    let payload = u64::from(cx.packet_size.saturating_sub(TCP_HEADER_BYTES).max(1));
    params.total_packets = f.size.map(|s| s.0 .0.div_ceil(payload).max(1));
    (
        AnyAgent::ObpSender(Box::new(ObpSender::new(cx.flow, cx.receiver, params))),
        AnyAgent::ObpReceiver(Box::new(ObpReceiver::new(TcpSink::new(None)))),
    )
}
