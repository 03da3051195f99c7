//! The fusion node (Ghosh and Varghese 1998, sections 4.3 and 4.5): the ack-table of Figure 4
//! with the failure detector of Figure 6 ([`FusionTable`]), and the router agent that runs it
//! ([`FusionNode`]).
//!
//! Figure 4, per child `s`: `Seq[s]` (its highest ACK), one `duplicate` counter and
//! `last_acked` per table. On an ACK `a` from child `c`: if `a.seq > Seq[c]` then
//! `Seq[c] = a.seq` and `duplicate = 0`, else `duplicate += 1`; then `temp = min Seq[s]` over
//! the live children, and an ACK for `temp` goes to the parent if `temp > last_acked` (fresh)
//! or `0 < duplicate <= MAX_DUPLICATE` (a duplicate passed on), setting `last_acked = temp`.
//! CHOICE: `duplicate <= MAX_DUPLICATE`, as the text says ("forwards upto MAX_DUPLICATE
//! duplicate acknowledgments") and as its footnote needs (MAX_DUPLICATE "at least three since
//! TCP responds with fast retransmit on receiving three"); Figure 4's pseudo-code writes a
//! strict `<`, which would pass on only two duplicates with MAX_DUPLICATE = 3.
//!
//! Figure 6: every REVERSE_PATH from a child restarts its TCP-M_TMOUT timer; on expiry the
//! child is dead (`Alive[c] = FALSE`), `duplicate = 0` and `send_ack()` runs again, so the
//! minimum moves past the dead child and the transfer resumes.
//! CHOICE: a REVERSE_PATH from a dead child revives it (the paper leaves revival open), but a
//! child counts in the minimum again only once its ACK has reached `last_acked`: the sender
//! has moved its window past the data a really failed child lacks and will not send it again,
//! so counting such a child at once would stall the session for good, while a child that was
//! only silent (its REVERSE_PATHs lost in congestion, section 6.7) has kept up and rejoins at
//! its next ACK. A child first heard from after fused ACKs have been sent rejoins the same way.
//! A child that does not count yet changes nothing but its own entry: its duplicates would
//! make the sender retransmit data the counted children already hold.
//! CHOICE: ACKs from a host that has sent no REVERSE_PATH are ignored: REVERSE_PATH is what
//! tells a fusion node "to expect acknowledgments from" a host (section 4.1).
//!
//! SACK. The paper fuses cumulative sequence numbers only. CHOICE: for a SACK sender, the fused
//! ACK carries the segments above `temp` that every counted child holds (the intersection of
//! their latest SACK blocks and cumulative ACKs), lowest first, at most three blocks; a child
//! holding nothing above `temp` makes the fused ACK carry none. ECN-Echo passes on with the ACK
//! that triggered the fused one.
//!
//! Memory (section 5.4): a table holds three words per child and three more, `3n + 3`.
//!
//! Tear-down (section 4.4): once every counted child has sent FIN_ACK, the node passes one on
//! and "deletes all state": its timers stop and REVERSE_PATHs are ignored.
//! CHOICE: it still knows its children, so that the FIN_ACKs a retransmitted FIN brings are
//! passed on again.

use std::collections::{BTreeMap, BTreeSet};

use ccsim_core::{Addr, Agent, AgentStats, Ctx, Dur, Ecn, FlowId, Packet, SimTime, TimerSlot};

use super::{control, control_with, DuplicateRule, TcpmKind, TcpmParams, ENCAPSULATION_BYTES};
use crate::{Hdr, SackBlock, SackBlocks, TCP_HEADER_BYTES};

/// A fused ACK to pass upstream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sent {
    /// Next segment expected by every counted child.
    pub ack: u64,
    /// ECN-Echo of the ACK that triggered it.
    pub ece: bool,
    /// Segments above `ack` every counted child holds.
    pub sack: Option<SackBlocks>,
    /// How many copies to send: more than one when duplicates are passed on together
    /// ([`DuplicateRule::Fused`]).
    pub copies: u32,
}

#[derive(Clone, Debug)]
struct Child {
    /// Highest ACK (`None`: none yet, the paper's -1).
    seq: Option<u64>,
    /// Its latest SACK blocks.
    sack: Option<SackBlocks>,
    /// Duplicates it sent at its current `seq`.
    dups: u32,
    alive: bool,
    /// Whether it counts in the minimum (alive and caught up).
    counted: bool,
    /// When TCP-M_TMOUT expires without a REVERSE_PATH.
    deadline: SimTime,
    fin: bool,
}

/// What of a child the table's indexes hold.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Indexed {
    seq: Option<u64>,
    dups: u32,
    alive: bool,
    counted: bool,
    deadline: SimTime,
    fin: bool,
}

impl Child {
    fn indexed(&self) -> Indexed {
        Indexed {
            seq: self.seq,
            dups: self.dups,
            alive: self.alive,
            counted: self.counted,
            deadline: self.deadline,
            fin: self.fin,
        }
    }
}

/// The ack-table of one multicast session at one fusion node (Figures 4 and 6).
///
/// Every input costs O(log n) in the number of children n: the minimum over counted children
/// and the next TCP-M_TMOUT are kept in ordered indexes, so a source fusing thousands of
/// receivers (the ACK-implosion extreme) stays cheap to simulate. Figure 4's `min Seq[s]` is
/// the first entry of the index.
#[derive(Clone, Debug)]
pub struct FusionTable {
    children: BTreeMap<Addr, Child>,
    /// (highest ACK, duplicates at it, child) of the counted children that have sent one.
    acked: BTreeSet<(u64, u32, Addr)>,
    /// Counted children that have sent no ACK yet (they hold the minimum at -1).
    counted_unacked: usize,
    /// Counted children.
    counted: usize,
    /// Counted children without a FIN_ACK.
    fin_missing: usize,
    /// (TCP-M_TMOUT deadline, child) of the live children.
    deadlines: BTreeSet<(SimTime, Addr)>,
    duplicate: u32,
    /// Duplicates of `last_acked` passed on ([`DuplicateRule::Fused`]).
    forwarded: u32,
    last_acked: Option<u64>,
    max_duplicate: u32,
    rule: DuplicateRule,
    timeout: Dur,
    max_children: usize,
    acks_in: u64,
    acks_out: u64,
}

impl FusionTable {
    /// An empty table: `MAX_DUPLICATE` and TCP-M_TMOUT.
    #[must_use]
    pub fn new(max_duplicate: u32, timeout: Dur) -> Self {
        FusionTable {
            children: BTreeMap::new(),
            acked: BTreeSet::new(),
            counted_unacked: 0,
            counted: 0,
            fin_missing: 0,
            deadlines: BTreeSet::new(),
            duplicate: 0,
            forwarded: 0,
            last_acked: None,
            max_duplicate,
            rule: DuplicateRule::Figure4,
            timeout,
            max_children: 0,
            acks_in: 0,
            acks_out: 0,
        }
    }

    /// The same table counting duplicates by `rule`.
    #[must_use]
    pub fn with_rule(mut self, rule: DuplicateRule) -> Self {
        self.rule = rule;
        self
    }

    /// Move `child`'s entries in the indexes from `before` to `after`.
    fn reindex(&mut self, child: Addr, before: Option<Indexed>, after: Indexed) {
        if before == Some(after) {
            return;
        }
        if let Some(b) = before {
            if b.alive {
                self.deadlines.remove(&(b.deadline, child));
            }
            if b.counted {
                self.counted -= 1;
                match b.seq {
                    Some(s) => {
                        self.acked.remove(&(s, b.dups, child));
                    }
                    None => self.counted_unacked -= 1,
                }
                if !b.fin {
                    self.fin_missing -= 1;
                }
            }
        }
        if after.alive {
            self.deadlines.insert((after.deadline, child));
        }
        if after.counted {
            self.counted += 1;
            match after.seq {
                Some(s) => {
                    self.acked.insert((s, after.dups, child));
                }
                None => self.counted_unacked += 1,
            }
            if !after.fin {
                self.fin_missing += 1;
            }
        }
    }

    /// A REVERSE_PATH from `child` (Figure 6): set up its state the first time, revive it if
    /// it was dead, and restart its timer. Returns whether it is new.
    pub fn on_reverse_path(&mut self, child: Addr, now: SimTime) -> bool {
        let deadline = now + self.timeout;
        if let Some(c) = self.children.get_mut(&child) {
            let before = c.indexed();
            c.deadline = deadline;
            if !c.alive {
                c.alive = true;
                c.counted = false;
                c.fin = false;
            }
            let after = c.indexed();
            self.reindex(child, Some(before), after);
            return false;
        }
        let c = Child {
            seq: None,
            sack: None,
            dups: 0,
            alive: true,
            counted: self.last_acked.is_none(),
            deadline,
            fin: false,
        };
        let after = c.indexed();
        self.children.insert(child, c);
        self.reindex(child, None, after);
        self.max_children = self.max_children.max(self.children.len());
        true
    }

    /// An ACK from `child` (Figure 4's `register_ack` then `send_ack`): the fused ACK to send,
    /// if any. ACKs from unknown hosts are ignored.
    pub fn on_ack(
        &mut self,
        child: Addr,
        ack: u64,
        ece: bool,
        sack: Option<&SackBlocks>,
    ) -> Option<Sent> {
        let last = self.last_acked;
        let c = self.children.get_mut(&child)?;
        self.acks_in += 1;
        let before = c.indexed();
        let fresh = c.seq.is_none_or(|s| ack > s);
        if fresh {
            c.seq = Some(ack);
            c.dups = 0;
        } else if c.seq == Some(ack) {
            c.dups = c.dups.saturating_add(1);
        }
        if fresh || c.seq == Some(ack) {
            c.sack = sack.cloned();
        }
        let joins = !c.counted && c.alive && last.is_none_or(|l| ack >= l);
        if joins {
            c.counted = true;
        }
        let counted = c.counted;
        let after = c.indexed();
        self.reindex(child, Some(before), after);
        if !counted {
            return None;
        }
        if self.rule == DuplicateRule::Fused {
            return self.send_fused(ece);
        }
        if fresh {
            self.duplicate = 0;
        } else {
            self.duplicate += 1;
        }
        self.send_ack(ece)
    }

    /// Timer expiry (Figure 6): every live child whose TCP-M_TMOUT has passed at `now` is
    /// dead. Returns the dead and the fused ACK their removal releases, if any.
    pub fn expire(&mut self, now: SimTime) -> (Vec<Addr>, Option<Sent>) {
        let mut dead = Vec::new();
        while let Some(&(at, child)) = self.deadlines.first() {
            if at > now {
                break;
            }
            let c = self
                .children
                .get_mut(&child)
                .expect("indexed children exist");
            let before = c.indexed();
            c.alive = false;
            c.counted = false;
            let after = c.indexed();
            self.reindex(child, Some(before), after);
            dead.push(child);
        }
        if dead.is_empty() {
            return (dead, None);
        }
        self.duplicate = 0;
        let sent = if self.rule == DuplicateRule::Fused {
            self.send_fused(false)
        } else {
            self.send_ack(false)
        };
        (dead, sent)
    }

    /// Figure 6's `send_ack()`: the minimum over counted children, sent if fresh or an allowed
    /// duplicate.
    fn send_ack(&mut self, ece: bool) -> Option<Sent> {
        if self.counted_unacked > 0 {
            return None;
        }
        let temp = self.acked.first()?.0;
        let fresh = self.last_acked.is_none_or(|l| temp > l);
        let duplicate = self.duplicate > 0 && self.duplicate <= self.max_duplicate;
        if !(fresh || duplicate) {
            return None;
        }
        self.last_acked = Some(temp);
        self.acks_out += 1;
        Some(Sent {
            ack: temp,
            ece,
            sack: self.fused_sack(temp),
            copies: 1,
        })
    }

    /// [`DuplicateRule::Fused`]: the minimum, sent once when fresh; and duplicates of it fused
    /// as ACKs are, by the minimum: the k-th goes up once every counted child at the minimum
    /// has sent k duplicates of it (at most `MAX_DUPLICATE`).
    fn send_fused(&mut self, ece: bool) -> Option<Sent> {
        if self.counted_unacked > 0 {
            return None;
        }
        let &(temp, fewest, _) = self.acked.first()?;
        let mut copies = 0;
        if self.last_acked.is_none_or(|l| temp > l) {
            self.last_acked = Some(temp);
            self.forwarded = 0;
            copies = 1;
        }
        let due = fewest.min(self.max_duplicate);
        if due > self.forwarded {
            copies += due - self.forwarded;
            self.forwarded = due;
        }
        if copies == 0 {
            return None;
        }
        self.acks_out += u64::from(copies);
        Some(Sent {
            ack: temp,
            ece,
            sack: self.fused_sack(temp),
            copies,
        })
    }

    /// The segments above `temp` every counted child holds, lowest first.
    fn fused_sack(&self, temp: u64) -> Option<SackBlocks> {
        let at_temp = self.acked.range(
            (temp, 0, Addr::default())
                ..=(
                    temp,
                    u32::MAX,
                    Addr {
                        node: u32::MAX,
                        agent: u32::MAX,
                    },
                ),
        );
        if at_temp
            .into_iter()
            .any(|(_, _, a)| self.children[a].sack.is_none())
        {
            return None;
        }
        let counted = || self.children.values().filter(|c| c.counted);
        let mut have: Vec<(u64, u64)> = vec![(temp, u64::MAX)];
        for c in counted() {
            let mut own: Vec<(u64, u64)> = vec![(0, c.seq.unwrap_or(0))];
            if let Some(s) = &c.sack {
                own.extend(s.as_slice().iter().map(|b| (b.start, b.end)));
            }
            have = intersect(&have, &merge(own));
            if have.is_empty() {
                return None;
            }
        }
        let blocks: Vec<SackBlock> = have
            .iter()
            .take(SackBlocks::MAX)
            .map(|&(start, end)| SackBlock { start, end })
            .collect();
        Some(SackBlocks::new(&blocks))
    }

    /// A FIN_ACK from `child`: whether one FIN_ACK should now go upstream (every counted child
    /// has sent one; asked again, it says so again, for a retransmitted FIN).
    pub fn on_fin_ack(&mut self, child: Addr) -> bool {
        let Some(c) = self.children.get_mut(&child) else {
            return false;
        };
        let before = c.indexed();
        c.fin = true;
        let after = c.indexed();
        self.reindex(child, Some(before), after);
        self.fin_complete()
    }

    /// Whether every counted child (at least one) has sent FIN_ACK.
    #[must_use]
    pub fn fin_complete(&self) -> bool {
        self.counted > 0 && self.fin_missing == 0
    }

    /// When the next TCP-M_TMOUT expires, if a child is alive.
    #[must_use]
    pub fn next_deadline(&self) -> Option<SimTime> {
        self.deadlines.first().map(|&(at, _)| at)
    }

    /// Children known (alive or dead).
    #[must_use]
    pub fn children(&self) -> usize {
        self.children.len()
    }

    /// Children alive.
    #[must_use]
    pub fn alive_children(&self) -> usize {
        self.deadlines.len()
    }

    /// The most children the table held.
    #[must_use]
    pub fn max_children(&self) -> usize {
        self.max_children
    }

    /// Section 5.4's memory for the largest table: `3n + 3` words.
    #[must_use]
    pub fn memory_words(&self) -> usize {
        3 * self.max_children + 3
    }

    /// The last fused ACK sent (`None`: none yet).
    #[must_use]
    pub fn last_acked(&self) -> Option<u64> {
        self.last_acked
    }

    /// The duplicate counter.
    #[must_use]
    pub fn duplicate(&self) -> u32 {
        self.duplicate
    }

    /// ACKs taken from known children, and fused ACKs sent.
    #[must_use]
    pub fn ack_counts(&self) -> (u64, u64) {
        (self.acks_in, self.acks_out)
    }
}

/// Sorted, merged ranges.
fn merge(mut ranges: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    ranges.retain(|r| r.0 < r.1);
    ranges.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.0 <= last.1 => last.1 = last.1.max(r.1),
            _ => out.push(r),
        }
    }
    out
}

/// The intersection of two sorted lists of disjoint ranges.
fn intersect(a: &[(u64, u64)], b: &[(u64, u64)]) -> Vec<(u64, u64)> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < a.len() && j < b.len() {
        let start = a[i].0.max(b[j].0);
        let end = a[i].1.min(b[j].1);
        if start < end {
            out.push((start, end));
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Bytes of an encapsulated ACK carrying `sack`.
pub(crate) fn ack_bytes(sack: Option<&SackBlocks>) -> u32 {
    let blocks = sack.map_or(0, |s| s.as_slice().len());
    let option = if blocks == 0 {
        0
    } else {
        let n = u32::try_from(blocks).expect("at most three blocks");
        (2 + 8 * n).div_ceil(4) * 4
    };
    TCP_HEADER_BYTES + option + ENCAPSULATION_BYTES
}

/// An encapsulated ACK for `sent`, to `dst`.
pub(crate) fn fused_packet(flow: FlowId, dst: Addr, sent: Sent) -> Packet<Hdr> {
    Packet {
        src: Addr::default(),
        dst,
        flow,
        size: ack_bytes(sent.sack.as_ref()),
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::TcpmAck {
            ack: sent.ack,
            ece: sent.ece,
            sack: sent.sack.map(Box::new),
        },
    }
}

const TMOUT_TIMER: TimerSlot = TimerSlot(0);

/// A router's fusion function for one session: the group's relay at its node.
#[derive(Clone, Debug)]
pub struct FusionNode {
    flow: FlowId,
    group: u32,
    parent: Option<Addr>,
    table: FusionTable,
    /// PATH messages relayed.
    paths: u64,
    /// Children declared dead, with when.
    deaths: Vec<(Addr, SimTime)>,
    /// FIN_ACK passed on: the session's state is released.
    closed: bool,
}

impl FusionNode {
    /// The fusion function for the session of `flow` whose data goes to group `group`.
    #[must_use]
    pub fn new(flow: FlowId, group: u32, params: &TcpmParams) -> Self {
        FusionNode {
            flow,
            group,
            parent: None,
            table: FusionTable::new(params.max_duplicate, params.tcpm_timeout)
                .with_rule(params.duplicates),
            paths: 0,
            deaths: Vec::new(),
            closed: false,
        }
    }

    /// The ack-table.
    #[must_use]
    pub fn table(&self) -> &FusionTable {
        &self.table
    }

    /// The parent learned from PATH.
    #[must_use]
    pub fn parent(&self) -> Option<Addr> {
        self.parent
    }

    /// PATH messages this node relayed.
    #[must_use]
    pub fn paths(&self) -> u64 {
        self.paths
    }

    /// Children this node declared dead, and when.
    #[must_use]
    pub fn deaths(&self) -> &[(Addr, SimTime)] {
        &self.deaths
    }

    fn arm<C: Ctx<Hdr>>(&self, ctx: &mut C) {
        match self.table.next_deadline() {
            Some(at) => ctx.set_timer(TMOUT_TIMER, at),
            None => ctx.cancel_timer(TMOUT_TIMER),
        }
    }

    /// Every counted child has sent FIN_ACK: pass one on and release the session.
    fn pass_fin_ack<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.closed = true;
        ctx.cancel_timer(TMOUT_TIMER);
        if let Some(parent) = self.parent {
            ctx.send(control(
                self.flow,
                parent,
                TcpmKind::FinAck,
                Addr::default(),
            ));
        }
    }

    fn up<C: Ctx<Hdr>>(&self, sent: Option<Sent>, ctx: &mut C) {
        if let (Some(sent), Some(parent)) = (sent, self.parent) {
            for _ in 1..sent.copies {
                ctx.send(fused_packet(self.flow, parent, sent.clone()));
            }
            ctx.send(fused_packet(self.flow, parent, sent));
        }
    }
}

impl Agent<Hdr> for FusionNode {
    fn on_start<C: Ctx<Hdr>>(&mut self, _ctx: &mut C) {}

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        match &pkt.header {
            Hdr::TcpmControl {
                kind: TcpmKind::Path,
                about,
                ..
            } => {
                self.parent = Some(*about);
                self.paths += 1;
                let mut onward = pkt.clone();
                onward.dst = Addr::group(self.group);
                onward.header = Hdr::TcpmControl {
                    kind: TcpmKind::Path,
                    about: ctx.addr(),
                    value: 0,
                };
                ctx.relay(onward);
            }
            Hdr::TcpmControl {
                kind: TcpmKind::ReversePath,
                about,
                value,
            } if !self.closed => {
                self.table.on_reverse_path(pkt.src, ctx.now());
                self.arm(ctx);
                if let Some(parent) = self.parent {
                    ctx.send(control_with(
                        self.flow,
                        parent,
                        TcpmKind::ReversePath,
                        *about,
                        *value,
                    ));
                }
            }
            Hdr::TcpmControl {
                kind: TcpmKind::FinAck,
                ..
            } if self.table.on_fin_ack(pkt.src) => self.pass_fin_ack(ctx),
            Hdr::TcpmAck { ack, ece, sack } => {
                let sent = self.table.on_ack(pkt.src, *ack, *ece, sack.as_deref());
                self.up(sent, ctx);
            }
            _ => {}
        }
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        if slot != TMOUT_TIMER || self.closed {
            return;
        }
        let now = ctx.now();
        let (dead, sent) = self.table.expire(now);
        self.deaths.extend(dead.into_iter().map(|d| (d, now)));
        self.up(sent, ctx);
        // A dead child may have been the last FIN_ACK missing.
        if self.table.fin_complete() {
            self.pass_fin_ack(ctx);
            return;
        }
        self.arm(ctx);
    }

    fn stats(&self) -> AgentStats {
        AgentStats::default()
    }
}
