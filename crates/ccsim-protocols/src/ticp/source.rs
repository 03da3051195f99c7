//! The source side of TICP: a host answering requests for its block of sources, and the
//! landmark echo used by binning.

use ccsim_core::{Addr, Agent, AgentStats, Ctx, Ecn, FlowId, Packet, SimTime, TimerSlot};

use super::binning::{bin_index, echo, BinningConfig, LandmarkProber};
use super::{Directory, HostInfo, TicpRequest};
use crate::Hdr;

const PROBE_TIMER: TimerSlot = TimerSlot(0);
const REGISTER_TIMER: TimerSlot = TimerSlot(1);
const REGISTER_BYTES: u32 = 40;

/// The sources attached at one node: each answers a request message addressed to it with
/// its report, at once (Section III.2), echoing the request's timestamp.
#[derive(Clone, Debug)]
pub struct TicpSourceHost {
    me: HostInfo,
    collector: Addr,
    request_flow: FlowId,
    flow: FlowId,
    request_size: u32,
    report_size: u32,
    directory: Directory,
    prober: Option<LandmarkProber>,
    bin: Option<u32>,
    registered: bool,
    reports_sent: u64,
    requests_received: u64,
}

impl TicpSourceHost {
    /// The host `me` of `directory`, reporting to `collector` on `flows.1` (relayed requests
    /// go on `flows.0`); `sizes` are the request message and report sizes. With `binning`, it
    /// measures its bin at start, joins its bin's multicast group and registers its bin with
    /// the collector (repeated every probe gap until acknowledged).
    #[must_use]
    pub fn new(
        me: HostInfo,
        collector: Addr,
        flows: (FlowId, FlowId),
        sizes: (u32, u32),
        directory: Directory,
        binning: Option<BinningConfig>,
    ) -> Self {
        TicpSourceHost {
            me,
            collector,
            request_flow: flows.0,
            flow: flows.1,
            request_size: sizes.0,
            report_size: sizes.1,
            directory,
            prober: binning.map(|b| LandmarkProber::new(b, flows.1)),
            bin: None,
            registered: false,
            reports_sent: 0,
            requests_received: 0,
        }
    }

    /// The bin this host measured, if binning ran.
    #[must_use]
    pub fn bin(&self) -> Option<u32> {
        self.bin
    }

    /// Reports sent (one per request message for this host's sources).
    #[must_use]
    pub fn reports_sent(&self) -> u64 {
        self.reports_sent
    }

    fn answer<C: Ctx<Hdr>>(&mut self, req: &TicpRequest, ctx: &mut C) {
        self.requests_received += 1;
        let mine = self.me.first..self.me.first + self.me.count;
        let mut others: Vec<(usize, u32)> = Vec::new();
        for &id in &req.ids {
            if mine.contains(&id) {
                self.reports_sent += 1;
                ctx.send(Packet {
                    src: Addr::default(),
                    dst: self.collector,
                    flow: self.flow,
                    size: self.report_size,
                    sent_at: SimTime::ZERO,
                    ecn: Ecn::NotEct,
                    header: Hdr::TicpReport {
                        source: id,
                        echo: req.stamp,
                    },
                });
            } else if req.relay {
                others.push((self.directory.host_of(id), id));
            }
        }
        // Relay: one packet per other host, in host order, with that host's messages.
        others.sort_unstable();
        for chunk in others.chunk_by(|a, b| a.0 == b.0) {
            let Some(host) = self.directory.hosts().get(chunk[0].0) else {
                continue;
            };
            let ids: Vec<u32> = chunk.iter().map(|&(_, id)| id).collect();
            let n = u32::try_from(ids.len()).unwrap_or(u32::MAX);
            ctx.send(Packet {
                src: Addr::default(),
                dst: host.addr,
                flow: self.request_flow,
                size: n.saturating_mul(self.request_size),
                sent_at: SimTime::ZERO,
                ecn: Ecn::NotEct,
                header: Hdr::TicpRequest(Box::new(TicpRequest {
                    stamp: req.stamp,
                    ids,
                    relay: false,
                })),
            });
        }
    }

    fn register<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let Some(prober) = &self.prober else { return };
        if self.bin.is_none() {
            let levels = prober.levels();
            let bin = bin_index(&levels, prober.cfg.levels());
            self.bin = Some(bin);
            ctx.join_group(prober.cfg.group_base + bin);
        }
        if !self.registered {
            ctx.send(Packet {
                src: Addr::default(),
                dst: self.collector,
                flow: self.flow,
                size: REGISTER_BYTES,
                sent_at: SimTime::ZERO,
                ecn: Ecn::NotEct,
                header: Hdr::TicpRegister {
                    bin: self.bin.unwrap_or(0),
                },
            });
            ctx.set_timer(REGISTER_TIMER, ctx.now() + prober.cfg.probe_gap());
        }
    }
}

impl Agent<Hdr> for TicpSourceHost {
    fn on_start<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if let Some(prober) = &mut self.prober {
            prober.start(PROBE_TIMER, ctx);
            let at = ctx.now() + ccsim_core::Dur(prober.cfg.phase.0 / 2);
            ctx.set_timer(REGISTER_TIMER, at);
        }
    }

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        match &pkt.header {
            Hdr::TicpRequest(req) => self.answer(req, ctx),
            Hdr::TicpPing {
                stamp,
                landmark,
                reply: true,
            } => {
                if let Some(p) = &mut self.prober {
                    p.on_reply(*stamp, *landmark, ctx.now());
                }
            }
            Hdr::TicpRegisterAck => {
                self.registered = true;
                ctx.cancel_timer(REGISTER_TIMER);
            }
            _ => {}
        }
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        match slot {
            PROBE_TIMER => {
                if let Some(p) = &mut self.prober {
                    p.probe_round(PROBE_TIMER, ctx);
                }
            }
            REGISTER_TIMER => self.register(ctx),
            _ => {}
        }
    }

    fn stats(&self) -> AgentStats {
        AgentStats {
            data_packets_received: self.requests_received,
            ..AgentStats::default()
        }
    }
}

/// A landmark: answers every binning probe.
#[derive(Clone, Debug, Default)]
pub struct LandmarkEcho;

impl Agent<Hdr> for LandmarkEcho {
    fn on_start<C: Ctx<Hdr>>(&mut self, _ctx: &mut C) {}
    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        echo(pkt, ctx);
    }
    fn on_timer<C: Ctx<Hdr>>(&mut self, _slot: TimerSlot, _ctx: &mut C) {}
}
