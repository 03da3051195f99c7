//! The data path: the packet pool, a packet's injection by an agent, forwarding at a node,
//! the offer to a link's egress queue (drop rules, loss model, RED, DualPI2, router hooks),
//! the end of a transmission, the arrival at the far end, and the counting of drops.

use super::{Core, Sim};
use crate::custom_queue::{Admit, Pick, QueueState, QueuedPacket};
use crate::dualpi2::Action;
use crate::link::{DropReason, DropRule, LinkId, LinkTap, Verdict};
use crate::queue::{Event, Scheduler};
use crate::red::RedDecision;
use crate::routing::{ecmp_hash, pick, Multipath, NO_ROUTE};
use ccsim_core::{Addr, Agent, Ecn, FlowId, Header, Packet, SimTime};

pub(super) fn rule_matches<H: Header>(rules: &mut [DropRule], pkt: &Packet<H>) -> bool {
    let Some(seq) = pkt.header.data_seq() else {
        return false;
    };
    for rule in rules.iter_mut().filter(|r| r.flow == pkt.flow) {
        if let Ok(pos) = rule.pending.binary_search(&seq) {
            rule.pending.remove(pos);
            return true;
        }
    }
    false
}

impl<H: Header, A: Agent<H>> Sim<H, A> {
    /// Capture every packet that starts transmission on `link` (replacing an earlier tap).
    pub fn set_link_tap(&mut self, link: LinkId, tap: Box<dyn LinkTap<H> + Send>) {
        self.core.links[link.0 as usize].tap = Some(tap);
    }

    /// Take the taps out of the simulation (after the run, to flush and close them), by link.
    pub fn take_link_taps(&mut self) -> Vec<(LinkId, Box<dyn LinkTap<H> + Send>)> {
        let mut taps = Vec::new();
        for (i, l) in self.core.links.iter_mut().enumerate() {
            if let Some(tap) = l.tap.take() {
                taps.push((LinkId(u32::try_from(i).expect("link count fits u32")), tap));
            }
        }
        taps
    }

    /// Drop the first arrival of each of `seqs` (data sequence numbers) of `flow` on `link`.
    pub fn add_drop_rule(&mut self, link: LinkId, flow: FlowId, seqs: &[u64]) {
        let mut pending = seqs.to_vec();
        pending.sort_unstable();
        pending.dedup();
        let l = &mut self.core.links[link.0 as usize];
        l.rules.push(DropRule { flow, pending });
        l.refresh_guard();
    }

    /// Run `discipline` on `link`'s egress queue ([`crate::custom_queue`]).
    pub fn set_queue_discipline(
        &mut self,
        link: LinkId,
        discipline: Box<dyn crate::custom_queue::QueueDiscipline + Send>,
    ) {
        let l = &mut self.core.links[link.0 as usize];
        l.custom = Some(Box::new(crate::custom_queue::CustomPort::new(discipline)));
        l.refresh_guard();
    }

    /// Whether `link` runs a user's queue discipline.
    #[must_use]
    pub fn has_queue_discipline(&self, link: LinkId) -> bool {
        self.core.links[link.0 as usize].custom.is_some()
    }

    /// Install a router function on `link`'s egress port.
    pub fn set_router_hook(
        &mut self,
        link: LinkId,
        hook: Box<dyn crate::link::RouterHook<H> + Send>,
    ) {
        self.core.links[link.0 as usize].hook = Some(hook);
    }
}

impl<H: Header> Core<H> {
    /// Drop a packet that is at `node` (not on a link), counting it on the node.
    #[cold]
    pub(super) fn drop_at_node(&mut self, node: u32, idx: u32, reason: DropReason) {
        self.node_stats[node as usize].drops[reason as usize] += 1;
        self.count_flow_drop(idx);
        self.release(idx);
    }

    /// A packet at `node` with no next hop in the tables in force.
    #[cold]
    #[inline(never)]
    pub(super) fn no_route(&mut self, idx: u32, node: u32) {
        let reason = if self.node_up[node as usize] {
            DropReason::NoRoute
        } else {
            DropReason::NodeDown
        };
        self.drop_at_node(node, idx, reason);
    }

    #[inline]
    pub(super) fn alloc(&mut self, pkt: Packet<H>) -> u32 {
        self.flow_packets[pkt.flow.0 as usize] += 1;
        if let Some(idx) = self.free.pop() {
            self.pool[idx as usize] = pkt;
            idx
        } else {
            if self.pool.len() == self.pool.capacity() {
                self.grow_pool();
            }
            self.pool.push(pkt);
            u32::try_from(self.pool.len() - 1).expect("pool fits u32")
        }
    }

    /// CHOICE: the pool grows by an eighth, not by doubling, so that when millions of
    /// packets wait in queues the memory reserved runs at most an eighth ahead of the memory
    /// used, and the memory guard (`ccsim_scenario::memory`), which looks between chunks of
    /// events, sees the growth before a doubling overshoots a limit.
    #[cold]
    pub(super) fn grow_pool(&mut self) {
        self.pool.reserve_exact((self.pool.len() / 8).max(4096));
    }

    #[inline]
    pub(super) fn release(&mut self, idx: u32) {
        self.free.push(idx);
        let f = self.pool[idx as usize].flow.0;
        let left = &mut self.flow_packets[f as usize];
        *left -= 1;
        if *left == super::FLOW_CLOSING {
            self.finish_closing(f);
        }
    }

    pub(super) fn inject(&mut self, mut pkt: Packet<H>, agent: u32) {
        pkt.src = self.agent_addr[agent as usize];
        pkt.sent_at = SimTime(self.now);
        let f = &mut self.flows[pkt.flow.0 as usize];
        if pkt.header.is_data() {
            f.sent_packets += 1;
            f.sent_bytes += u64::from(pkt.size);
            f.retransmitted_packets += u64::from(pkt.header.is_retransmission());
        } else {
            f.control_sent += 1;
        }
        let node = pkt.src.node;
        let local = pkt.dst.node == node;
        let idx = self.alloc(pkt);
        if local {
            self.local.push_back(idx);
            self.events.push(self.now, Event::LocalDeliver(idx));
        } else {
            self.forward(idx, node);
        }
    }

    #[inline]
    pub(super) fn forward(&mut self, idx: u32, node: u32) {
        let dst = self.pool[idx as usize].dst.node;
        if dst == Addr::GROUP_NODE {
            return self.multicast(idx, node, false);
        }
        let link = if self.multipath == Multipath::None {
            self.routes.next_link(node, dst)
        } else {
            self.next_hop_multipath(idx, node, dst)
        };
        if link == NO_ROUTE {
            return self.no_route(idx, node);
        }
        self.offer(link, idx);
    }

    /// The next hop of packet `idx` at `node` among the equal-cost links: its flow's hash
    /// (ECMP) or a draw (spray).
    fn next_hop_multipath(&mut self, idx: u32, node: u32, dst: u32) -> u32 {
        let choices = self.routes.equal_cost(node, dst);
        match choices.len() {
            0 => NO_ROUTE,
            1 => choices[0],
            n if self.multipath == Multipath::Spray => {
                choices[self.spray_rng.below(n as u64) as usize]
            }
            n => {
                let p = &self.pool[idx as usize];
                let h = ecmp_hash(
                    self.ecmp_salt,
                    node,
                    (p.src.node, p.src.agent),
                    (p.dst.node, p.dst.agent),
                );
                choices[pick(h, n)]
            }
        }
    }

    pub(super) fn count_flow_drop(&mut self, idx: u32) {
        let p = &self.pool[idx as usize];
        let f = &mut self.flows[p.flow.0 as usize];
        if p.header.is_data() {
            f.dropped_packets += 1;
            if p.sent_at.0 >= self.warmup_at {
                f.window.dropped_packets += 1;
            }
        } else {
            f.control_dropped += 1;
        }
    }

    pub(super) fn drop_at(&mut self, link: u32, idx: u32, reason: DropReason) {
        self.links[link as usize].stats.drops[reason as usize] += 1;
        self.count_flow_drop(idx);
        self.release(idx);
    }

    pub(super) fn offer(&mut self, l: u32, idx: u32) {
        let now = self.now;
        let link = &mut self.links[l as usize];
        let pkt = &mut self.pool[idx as usize];
        link.stats.offered_packets += 1;
        link.bytes_offered += u64::from(pkt.size);
        if link.guard {
            if !link.up {
                let reason = link.down_reason;
                return self.drop_at(l, idx, reason);
            }
            if rule_matches(&mut link.rules, pkt) {
                return self.drop_at(l, idx, DropReason::Rule);
            }
            if link.dual.is_some() {
                return self.dual_offer(l, idx);
            }
            if link.custom.is_some() {
                return self.custom_offer(l, idx);
            }
        }
        if let Some(rng) = &mut link.loss_rng {
            if rng.bernoulli(link.config.loss) {
                return self.drop_at(l, idx, DropReason::RandomLoss);
            }
        }
        if link.hook.is_some() {
            let port = link.port_state();
            if let Some(hook) = link.hook.as_mut() {
                if hook.on_enqueue(now, pkt, &port) == Verdict::Drop {
                    return self.drop_at(l, idx, DropReason::Router);
                }
            }
        }
        let size = pkt.size;
        if link.red.is_some() && self.red_drops(l, idx) {
            return;
        }
        let link = &mut self.links[l as usize];
        if link.queue.len() as u64 > link.mark_above {
            // Step marking: count the mark only for a packet the limit accepts.
            let pkt = &mut self.pool[idx as usize];
            if pkt.ecn != Ecn::NotEct && link.fits(pkt.size) {
                pkt.ecn = Ecn::Ce;
                link.stats.ecn_marks += 1;
            }
        }
        if link.fifo_idle(now) {
            self.start_fifo(l, idx, false);
        } else if link.fits(size) {
            link.account_fifo(now);
            link.queue.push_back(idx);
            link.queue_bytes += u64::from(size);
            if !link.end_pending {
                // The first packet to wait: the transmission in progress now has an end to
                // act on.
                link.end_pending = true;
                let (end, epoch) = (link.busy_until, link.epoch);
                self.events.push(end, Event::TxDone { link: l, epoch });
            }
        } else {
            self.drop_at(l, idx, DropReason::QueueFull);
        }
    }

    /// Start serialising `idx` on FIFO link `l` at `now` (`follows`: as the previous
    /// transmission ends). The transmission is counted now and the packet joins the pipe with
    /// its arrival time, so no event marks its end unless a packet waits behind it
    /// ([`Link::busy_until`]); [`Link::stats_at`] takes back a transmission still in progress.
    #[inline]
    fn start_fifo(&mut self, l: u32, idx: u32, follows: bool) {
        let now = self.now;
        let link = &mut self.links[l as usize];
        let size = self.pool[idx as usize].size;
        if let Some(tap) = link.tap.as_deref_mut() {
            tap.on_transmit(now, &self.pool[idx as usize]);
        }
        let done = link.tx_end(now, size, follows);
        link.service_started_at = now;
        link.busy_until = done;
        link.busy_size = size;
        link.idle_noted = false;
        link.stats.tx_packets += 1;
        link.stats.tx_bytes += u64::from(size);
        link.stats.busy_ns += done - now;
        let arrival = link.arrival(done);
        link.pipe.push_back((arrival, idx));
        if link.pipe.len() == 1 {
            let epoch = link.epoch;
            self.events.push(arrival, Event::Arrive { link: l, epoch });
        }
    }

    /// RED's decision for a packet offered to RED link `l` (after loss, rules and the router
    /// hook, before the physical limit): marks it, or drops and counts it. Returns whether
    /// the packet was dropped. Out of line, so the DropTail path of [`Core::offer`] stays
    /// small.
    #[cold]
    #[inline(never)]
    pub(super) fn red_drops(&mut self, l: u32, idx: u32) -> bool {
        let now = self.now;
        let link = &mut self.links[l as usize];
        let pkt = &mut self.pool[idx as usize];
        // A RED drop at an idle link leaves it idle; `Red` restarts its idle period itself.
        let idle = link.fifo_idle(now);
        let fits = idle || link.fits(pkt.size);
        let Some(port) = link.red.as_deref_mut() else {
            return false;
        };
        if idle && !link.idle_noted {
            // The idle period began when the last transmission ended.
            port.red.on_idle(link.busy_until);
            link.idle_noted = true;
        }
        let queue = if port.red.config().bytes {
            link.queue_bytes
        } else {
            link.queue.len() as u64
        };
        let ect = pkt.ecn != Ecn::NotEct;
        let reason = match port
            .red
            .on_arrival(queue, pkt.size, ect, now, fits, &mut port.rng)
        {
            RedDecision::Enqueue => return false,
            RedDecision::Mark => {
                // Count the mark only for a packet the physical limit accepts.
                if fits {
                    pkt.ecn = Ecn::Ce;
                    link.stats.ecn_marks += 1;
                    return false;
                }
                DropReason::QueueFull
            }
            RedDecision::EarlyDrop => DropReason::RedEarly,
            RedDecision::ForcedDrop => DropReason::RedForced,
        };
        self.drop_at(l, idx, reason);
        true
    }

    /// The transmission on link `l` ends, unless the entry is stale (`epoch` is older than
    /// the link's: it went down since). On a FIFO link this is scheduled only while packets
    /// wait, and starts the next; on the others it moves the packet to the pipe and asks the
    /// discipline for the next.
    pub(super) fn tx_done(&mut self, l: u32, epoch: u32) {
        let now = self.now;
        let link = &mut self.links[l as usize];
        if link.epoch != epoch {
            return;
        }
        self.processed += 1;
        if link.is_fifo() {
            // Scheduled only while packets wait: the first of them starts.
            let Some(next) = link.queue.front().copied() else {
                link.end_pending = false;
                return;
            };
            link.account_fifo(now);
            link.queue.pop_front();
            link.queue_bytes -= u64::from(self.pool[next as usize].size);
            self.start_fifo(l, next, true);
            let link = &mut self.links[l as usize];
            if link.queue.is_empty() {
                link.end_pending = false;
            } else {
                let end = link.busy_until;
                self.events.push(end, Event::TxDone { link: l, epoch });
            }
            return;
        }
        let idx = link
            .in_service
            .take()
            .expect("a packet is in service when TxDone fires");
        let size = self.pool[idx as usize].size;
        link.stats.tx_packets += 1;
        link.stats.tx_bytes += u64::from(size);
        link.stats.busy_ns += now - link.service_started_at;
        let arrival = link.arrival(now);
        link.pipe.push_back((arrival, idx));
        if link.pipe.len() == 1 {
            self.events.push(arrival, Event::Arrive { link: l, epoch });
        }
        // The disciplines that choose at the end of a transmission.
        if link.custom.is_some() {
            self.custom_dequeue(l, epoch);
        } else {
            self.dual_dequeue(l, epoch);
        }
    }

    /// Start serialising `idx` on link `l` (idle) at `now`; `follows`: as the previous
    /// packet's transmission ends.
    fn start_service(&mut self, l: u32, idx: u32, epoch: u32, follows: bool) {
        let now = self.now;
        let link = &mut self.links[l as usize];
        let size = self.pool[idx as usize].size;
        link.in_service = Some(idx);
        link.service_started_at = now;
        if let Some(tap) = link.tap.as_deref_mut() {
            tap.on_transmit(now, &self.pool[idx as usize]);
        }
        let done = link.tx_end(now, size, follows);
        self.events.push(done, Event::TxDone { link: l, epoch });
    }

    /// Random loss and the router hook on a packet offered to link `l` (the slow paths'
    /// share of [`Core::offer`]): whether it was dropped (and counted).
    fn lost_before_queue(&mut self, l: u32, idx: u32) -> bool {
        let now = self.now;
        let link = &mut self.links[l as usize];
        let pkt = &mut self.pool[idx as usize];
        if let Some(rng) = &mut link.loss_rng {
            if rng.bernoulli(link.config.loss) {
                self.drop_at(l, idx, DropReason::RandomLoss);
                return true;
            }
        }
        if link.hook.is_some() {
            let port = link.port_state();
            if let Some(hook) = link.hook.as_mut() {
                if hook.on_enqueue(now, pkt, &port) == Verdict::Drop {
                    self.drop_at(l, idx, DropReason::Router);
                    return true;
                }
            }
        }
        false
    }

    /// The offer to a DualPI2 link (up, past the drop rules): random loss and the router
    /// hook as on every link, then DualPI2's enqueue (RFC 9332; `crate::dualpi2`).
    #[cold]
    #[inline(never)]
    fn dual_offer(&mut self, l: u32, idx: u32) {
        if self.lost_before_queue(l, idx) {
            return;
        }
        let now = self.now;
        let link = &mut self.links[l as usize];
        let pkt = &mut self.pool[idx as usize];
        let (size, ecn) = (pkt.size, pkt.ecn);
        if link.in_service.is_none() {
            if let Some(port) = link.dual.as_deref_mut() {
                port.dual.bypass(ecn);
            }
            let epoch = link.epoch;
            return self.start_service(l, idx, epoch, false);
        }
        if !link.fits_dual(size) {
            return self.drop_at(l, idx, DropReason::QueueFull);
        }
        link.account_queue(now);
        let Some(port) = link.dual.as_deref_mut() else {
            return;
        };
        port.dual.advance(now);
        let action = port.dual.enqueue(idx, size, ecn, now, &mut port.rng);
        link.queue_bytes = port.dual.backlog();
        match action {
            Action::Pass => {}
            Action::Mark => {
                pkt.ecn = ccsim_core::Ecn::Ce;
                link.stats.ecn_marks += 1;
            }
            Action::Drop => {
                let reason = if port.dual.classify(ecn) == crate::dualpi2::Queue::L {
                    DropReason::Dualpi2L
                } else {
                    DropReason::Dualpi2C
                };
                self.drop_at(l, idx, reason);
            }
        }
    }

    /// A DualPI2 link's transmission ended: dequeue (dropping or marking on the way, RFC
    /// 9332 appendix A) and start the next packet, if any.
    #[cold]
    #[inline(never)]
    fn dual_dequeue(&mut self, l: u32, epoch: u32) {
        let now = self.now;
        let link = &mut self.links[l as usize];
        link.account_queue(now);
        loop {
            let link = &mut self.links[l as usize];
            let Some(port) = link.dual.as_deref_mut() else {
                return;
            };
            port.dual.advance(now);
            let Some((e, queue, action)) = port.dual.dequeue(now, &mut port.rng) else {
                link.queue_bytes = 0;
                return;
            };
            link.queue_bytes = port.dual.backlog();
            match action {
                Action::Drop => {
                    let reason = if queue == crate::dualpi2::Queue::L {
                        DropReason::Dualpi2L
                    } else {
                        DropReason::Dualpi2C
                    };
                    self.drop_at(l, e.idx, reason);
                }
                Action::Mark | Action::Pass => {
                    if action == Action::Mark {
                        self.pool[e.idx as usize].ecn = ccsim_core::Ecn::Ce;
                        link.stats.ecn_marks += 1;
                    }
                    return self.start_service(l, e.idx, epoch, true);
                }
            }
        }
    }

    /// The offer to a link with a user's discipline (up, past the drop rules): random loss
    /// and the router hook as on every link, then the discipline's decision, then the
    /// physical limit.
    #[cold]
    #[inline(never)]
    fn custom_offer(&mut self, l: u32, idx: u32) {
        if self.lost_before_queue(l, idx) {
            return;
        }
        let now = self.now;
        let link = &mut self.links[l as usize];
        let pkt = &mut self.pool[idx as usize];
        let ecn_capable = pkt.ecn != Ecn::NotEct;
        let seen = QueuedPacket {
            size: pkt.size,
            ecn_capable,
            ce: pkt.ecn == Ecn::Ce,
            flow: pkt.flow.0,
            enqueued_at: now,
        };
        let state = QueueState {
            packets: link.queue.len() as u64,
            bytes: link.queue_bytes,
            now,
        };
        let Some(port) = link.custom.as_deref_mut() else {
            return;
        };
        let mark = match port.discipline.enqueue(&seen, &state) {
            Admit::Accept => false,
            Admit::Mark if ecn_capable => true,
            Admit::Drop | Admit::Mark => return self.drop_at(l, idx, DropReason::Aqm),
        };
        let size = pkt.size;
        let fits = link.in_service.is_none() || link.fits(size);
        if mark && fits {
            pkt.ecn = Ecn::Ce;
            link.stats.ecn_marks += 1;
        }
        if link.in_service.is_none() {
            let epoch = link.epoch;
            return self.start_service(l, idx, epoch, false);
        }
        if !fits {
            return self.drop_at(l, idx, DropReason::QueueFull);
        }
        link.account_fifo(now);
        link.queue.push_back(idx);
        link.queue_bytes += u64::from(size);
        if let Some(port) = link.custom.as_deref_mut() {
            port.enqueued_at.push_back(now);
        }
    }

    /// A link with a user's discipline is free: the discipline picks the next packet (the
    /// oldest, for one that does not read the dequeue), dropping or marking on the way.
    #[cold]
    #[inline(never)]
    fn custom_dequeue(&mut self, l: u32, epoch: u32) {
        let now = self.now;
        loop {
            let link = &mut self.links[l as usize];
            if link.queue.is_empty() {
                return;
            }
            let Some(port) = link.custom.as_deref_mut() else {
                return;
            };
            let pick = if port.reads_dequeue {
                let state = QueueState {
                    packets: link.queue.len() as u64,
                    bytes: link.queue_bytes,
                    now,
                };
                let (queue, times, pool) = (&link.queue, &port.enqueued_at, &self.pool);
                let waiting = |i: usize| {
                    let p = &pool[queue[i] as usize];
                    QueuedPacket {
                        size: p.size,
                        ecn_capable: p.ecn != Ecn::NotEct,
                        ce: p.ecn == Ecn::Ce,
                        flow: p.flow.0,
                        enqueued_at: times[i],
                    }
                };
                port.discipline.dequeue(&state, &waiting)
            } else {
                Pick::Send(0)
            };
            let (Pick::Send(i) | Pick::Mark(i) | Pick::Drop(i)) = pick;
            let i = i.min(link.queue.len() - 1);
            port.enqueued_at.remove(i);
            link.account_fifo(now);
            let Some(idx) = link.queue.remove(i) else {
                return;
            };
            link.queue_bytes -= u64::from(self.pool[idx as usize].size);
            let ecn_capable = self.pool[idx as usize].ecn != Ecn::NotEct;
            match pick {
                Pick::Drop(_) => self.drop_at(l, idx, DropReason::Aqm),
                Pick::Mark(_) if !ecn_capable => self.drop_at(l, idx, DropReason::Aqm),
                Pick::Mark(_) | Pick::Send(_) => {
                    if matches!(pick, Pick::Mark(_)) {
                        self.pool[idx as usize].ecn = Ecn::Ce;
                        self.links[l as usize].stats.ecn_marks += 1;
                    }
                    return self.start_service(l, idx, epoch, true);
                }
            }
        }
    }

    /// The head packet of link `l` arrives: (packet, node), unless the entry is stale.
    pub(super) fn arrive(&mut self, l: u32, epoch: u32) -> Option<(u32, u32)> {
        let link = &mut self.links[l as usize];
        if link.epoch != epoch {
            return None;
        }
        self.processed += 1;
        let (_, idx) = link
            .pipe
            .pop_front()
            .expect("a packet propagates when Arrive fires");
        if let Some(&(t, _)) = link.pipe.front() {
            self.events.push(t, Event::Arrive { link: l, epoch });
        }
        Some((idx, link.to))
    }
}
