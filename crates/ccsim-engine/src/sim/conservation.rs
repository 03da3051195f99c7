//! The conservation check: what the links, flows and the packet pool hold must add up.

use super::{Sim, SimError};
use ccsim_core::{Agent, Header};

impl<H: Header, A: Agent<H>> Sim<H, A> {
    /// Check the conservation laws: for every link, offered = transmitted + dropped before
    /// transmission + queued (waiting or in service); for every flow, data sent + replicated
    /// = delivered + dropped + in flight; and every packet of the pool is either free or held
    /// by a link or a pending local delivery.
    ///
    /// # Errors
    /// Returns [`SimError::Conservation`] describing the first violation.
    pub fn check_conservation(&self) -> Result<(), SimError> {
        let core = &self.core;
        let mut in_flight = vec![0u64; core.flows.len()];
        let mut packets = vec![0u32; core.flows.len()];
        let mut held = 0usize;
        let mut count = |idx: u32| {
            let p = &core.pool[idx as usize];
            held += 1;
            packets[p.flow.0 as usize] += 1;
            if p.header.is_data() {
                in_flight[p.flow.0 as usize] += 1;
            }
        };
        for (i, l) in core.links.iter().enumerate() {
            let queued = l.waiting() as u64 + u64::from(l.in_service.is_some());
            let s = &l.stats;
            let dropped_before_tx = s.total_drops() - s.dropped_after_tx;
            if s.offered_packets != s.tx_packets + dropped_before_tx + queued {
                return Err(SimError::Conservation(format!(
                    "link {}: offered {} != transmitted {} + dropped before transmission \
                     {dropped_before_tx} + queued {queued}",
                    core.entity_names[core.link_entity[i] as usize],
                    s.offered_packets,
                    s.tx_packets,
                )));
            }
            l.queue.iter().copied().for_each(&mut count);
            if let Some(d) = &l.dual {
                d.dual.indices().for_each(&mut count);
            }
            l.in_service.into_iter().for_each(&mut count);
            l.pipe.iter().map(|&(_, idx)| idx).for_each(&mut count);
        }
        core.local.iter().copied().for_each(&mut count);
        let allocated = core.pool.len() - core.free.len();
        if held != allocated {
            return Err(SimError::Conservation(format!(
                "packet pool: {allocated} packets allocated, {held} held by links and local \
                 deliveries"
            )));
        }
        let count = |f: usize| core.flow_packets[f] & !super::FLOW_CLOSING;
        if let Some(f) = (0..core.flows.len()).find(|&f| packets[f] != count(f)) {
            return Err(SimError::Conservation(format!(
                "flow {}: {} packets held by links and local deliveries, {} counted in the pool",
                core.entity_names[core.flow_entity[f] as usize],
                packets[f],
                count(f)
            )));
        }
        for (f, s) in core.flows.iter().enumerate() {
            let flight = in_flight[f];
            if s.sent_packets + s.replicated_packets
                != s.delivered_packets + s.dropped_packets + flight
            {
                return Err(SimError::Conservation(format!(
                    "flow {}: sent {} + replicated {} != delivered {} + dropped {} + in flight \
                     {flight}",
                    core.entity_names[core.flow_entity[f] as usize],
                    s.sent_packets,
                    s.replicated_packets,
                    s.delivered_packets,
                    s.dropped_packets
                )));
            }
        }
        Ok(())
    }
}
