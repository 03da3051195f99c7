//! The rate-based family's agents, built from a checked flow ([`crate::spec::rate`]): TFRC,
//! TCP-Friend and CBRAA, Primo, and OBP's through [`super::obp`].

use ccsim_protocols::{
    AnyAgent, Cbraa, CbraaParams, PacerConfig, PrimoConfig, PrimoParams, PrimoReceiver,
    PrimoSender, ReportControl, ReportReceiver, ReportSender, ReportSenderConfig, TfrcConfig,
    TfrcReceiver, TfrcReceiverConfig, TfrcSender,
};

use super::FlowContext;
use crate::spec::flows::{FlowSpec, Protocol};
use crate::spec::rate::DEFAULT_REPORT_INTERVAL;
use crate::units::RateStr;

/// Bytes per second of an optional rate key.
fn bytes_per_sec(r: Option<RateStr>, default: f64) -> f64 {
    r.map_or(default, |r| r.0.bps() as f64 / 8.0)
}

/// A rate-based flow's sender and receiver.
pub(crate) fn build(f: &FlowSpec, cx: &FlowContext) -> (AnyAgent, AnyAgent) {
    let packet_size = cx.packet_size;
    match f.protocol {
        Protocol::TcpFriend | Protocol::Cbraa => {
            let size = f64::from(packet_size);
            let interval = f.report_interval.map_or(DEFAULT_REPORT_INTERVAL, |d| d.0);
            let cfg = ReportSenderConfig {
                pacer: PacerConfig {
                    packet_size,
                    initial_rate: bytes_per_sec(f.initial_rate, 5.0 * size),
                    min_rate: bytes_per_sec(f.min_rate, 0.0),
                    max_rate: bytes_per_sec(f.max_rate, f64::INFINITY),
                },
                report_interval: interval,
            };
            let control = if f.protocol == Protocol::Cbraa {
                ReportControl::Cbraa(Cbraa::new(f.cbraa.map_or_else(CbraaParams::default, |c| {
                    CbraaParams {
                        a: c.a,
                        b: c.b,
                        alpha: c.alpha,
                        beta: c.beta,
                    }
                })))
            } else {
                ReportControl::TcpFriend
            };
            (
                AnyAgent::ReportSender(Box::new(ReportSender::new(
                    cx.flow,
                    cx.receiver,
                    cfg,
                    control,
                ))),
                AnyAgent::ReportReceiver(Box::new(ReportReceiver::new(interval))),
            )
        }
        Protocol::Obp => super::obp::build(f, cx),
        Protocol::Primo => {
            let cfg = PrimoConfig {
                pacer: PacerConfig {
                    packet_size,
                    initial_rate: 0.0,
                    min_rate: bytes_per_sec(f.min_rate, 0.0),
                    max_rate: bytes_per_sec(f.max_rate, f64::INFINITY),
                },
                params: f.primo.map_or_else(PrimoParams::default, |c| c.params()),
            };
            let offset = f
                .primo
                .and_then(|c| c.receiver_clock_offset)
                .map_or(0, |d| i64::try_from(d.0 .0).unwrap_or(i64::MAX));
            (
                AnyAgent::PrimoSender(Box::new(PrimoSender::new(cx.flow, cx.receiver, &cfg))),
                AnyAgent::PrimoReceiver(Box::new(
                    PrimoReceiver::with_clock_offset(offset)
                        .with_rcv_samples(f.primo.map_or(1, |c| c.rcv_samples as usize)),
                )),
            )
        }
        _ => {
            let cfg = TfrcConfig {
                packet_size,
                min_rate: bytes_per_sec(f.min_rate, 0.0),
                max_rate: bytes_per_sec(f.max_rate, f64::INFINITY),
                oscillation_prevention: f.tfrc.is_none_or(|t| t.oscillation_prevention()),
            };
            let rx = TfrcReceiverConfig {
                history_discounting: f.tfrc.is_some_and(|t| t.history_discounting),
            };
            (
                AnyAgent::TfrcSender(Box::new(TfrcSender::new(cx.flow, cx.receiver, &cfg))),
                AnyAgent::TfrcReceiver(Box::new(TfrcReceiver::new(rx))),
            )
        }
    }
}
