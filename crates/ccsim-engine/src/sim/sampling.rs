//! Time series: the per-flow rate, sent rate and delay, the queues and the agents' sampled
//! variables, taken on the sampling grid; flows retired between two samples keep their last
//! values for the next one. Also the counters' snapshot at the end of the warm-up.

use super::{Core, Sim, Snapshot};
use crate::queue::{Event, Scheduler};
use crate::trace::{VAR_DELAY, VAR_QUEUE, VAR_QUEUE_BYTES, VAR_RATE, VAR_SENT_RATE};
use ccsim_core::{Agent, AgentStats, Header};

/// A flow's series values for one sampling interval (for a retired flow: since the sample
/// before it retired, recorded at the next one).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct FinalSample {
    pub(super) flow: u32,
    /// Application bytes delivered (rate series).
    pub(super) delivered: Option<u64>,
    /// Bytes sent (sent-rate series).
    pub(super) sent: Option<u64>,
    /// Packets delivered and their delay sum, ns (delay series).
    pub(super) delay: Option<(u64, u128)>,
}

impl<H: Header, A: Agent<H>> Sim<H, A> {
    pub(super) fn sample(&mut self) {
        let core = &mut self.core;
        let now = core.now;
        let elapsed = now - core.last_sample_at;
        core.last_sample_at = now;
        // Each sampled flow's values for the interval, then those of flows retired during it.
        let mut samples = std::mem::take(&mut core.sample_buffer);
        for i in 0..core.active_flows.len() {
            let f = core.active_flows[i];
            let delivered = match core.flow_receiver[f as usize] {
                // A retired receiver's last bytes were taken when it retired.
                Some(r) => core.live_slot(r).map(|slot| {
                    let stats = self.agents[slot as usize].stats();
                    stats.app_bytes_delivered + stats.app_bytes_held
                }),
                None => Some(core.flows[f as usize].delivered_bytes),
            };
            samples.push(core.take_flow_sample(f, delivered, true));
        }
        samples.append(&mut core.final_samples);
        let per_second = 8.0 * 1e9 / elapsed as f64;
        for x in &samples {
            if let Some(bytes) = x.delivered {
                let entity = core.flow_entity[x.flow as usize];
                core.trace
                    .push(now, entity, VAR_RATE, bytes as f64 * per_second);
            }
        }
        for x in &samples {
            if let Some(bytes) = x.sent {
                let entity = core.flow_entity[x.flow as usize];
                core.trace
                    .push(now, entity, VAR_SENT_RATE, bytes as f64 * per_second);
            }
        }
        for x in &samples {
            if let Some((packets, delay)) = x.delay.filter(|&(packets, _)| packets > 0) {
                let entity = core.flow_entity[x.flow as usize];
                let mean_s = delay as f64 / packets as f64 / 1e9;
                core.trace.push(now, entity, VAR_DELAY, mean_s);
            }
        }
        samples.clear();
        core.sample_buffer = samples;
        if core.series.queue {
            for (l, link) in core.links.iter().enumerate() {
                let e = core.link_entity[l];
                core.trace.push(now, e, VAR_QUEUE, link.waiting() as f64);
                core.trace
                    .push(now, e, VAR_QUEUE_BYTES, link.queue_bytes as f64);
            }
        }
        if !core.series.sampled_vars.is_empty() {
            for (a, agent) in self.agents.iter().enumerate() {
                if !core.slot_live[a] || !core.flow_sampled[core.agent_flow[a] as usize] {
                    continue;
                }
                for &v in &core.series.sampled_vars {
                    if let Some(value) = agent.var(v) {
                        core.trace.push(now, core.agent_entity[a], v as u16, value);
                    }
                }
            }
        }
        // The last interval may be partial: it ends at the horizon, so the rate series always
        // accounts for every delivered byte.
        if now < core.horizon {
            let next = (now + core.series.interval.0).min(core.horizon);
            core.events.push(next, Event::Sample);
        }
    }

    /// The counters at the end of the warm-up, if one was configured and reached.
    #[must_use]
    pub fn warmup_snapshot(&self) -> Option<&Snapshot> {
        self.core.snapshot.as_ref()
    }
}

impl<H: Header> Core<H> {
    /// The flow series of `flow` since the last sample, taken as agent `id` retires (its
    /// rate as its receiver goes, its sent rate and delay as its last agent goes) and
    /// recorded at the next sampling instant, as the flow's values for that interval: the
    /// series stay on the sampling grid and still account for every byte of a flow that
    /// ends between two samples.
    pub(super) fn final_samples(&mut self, flow: u32, id: u32, stats: &AgentStats) {
        let f = flow as usize;
        if !self.flow_sampled[f] || self.series.interval.0 == 0 {
            return;
        }
        let delivered = (self.flow_receiver[f] == Some(id))
            .then(|| stats.app_bytes_delivered + stats.app_bytes_held);
        let last = self.take_flow_sample(flow, delivered, self.flow_agents[f] == 1);
        if last.delivered.is_some() || last.sent.is_some() || last.delay.is_some() {
            self.final_samples.push(last);
        }
    }

    /// Flow `flow`'s series values since its last sample, marking them taken: the rate's
    /// bytes when `delivered` (the receiver's application bytes so far) is given, the sent
    /// bytes and delays when `whole`; each only if its series is recorded.
    pub(super) fn take_flow_sample(
        &mut self,
        flow: u32,
        delivered: Option<u64>,
        whole: bool,
    ) -> FinalSample {
        let f = flow as usize;
        let mut x = FinalSample {
            flow,
            ..FinalSample::default()
        };
        if let Some(bytes) = delivered.filter(|_| self.series.flow_rate) {
            x.delivered = Some(bytes - self.last_sample_bytes[f]);
            self.last_sample_bytes[f] = bytes;
        }
        let stats = &self.flows[f];
        if whole && self.series.flow_sent_rate {
            x.sent = Some(stats.sent_bytes - self.last_sample_sent[f]);
            self.last_sample_sent[f] = stats.sent_bytes;
        }
        if whole && self.series.flow_delay {
            let (packets, delay) = self.last_sample_delay[f];
            x.delay = Some((
                stats.delivered_packets - packets,
                stats.delivered_delay_ns - delay,
            ));
            self.last_sample_delay[f] = (stats.delivered_packets, stats.delivered_delay_ns);
        }
        x
    }
}
