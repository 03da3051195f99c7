//! The TCP-M source (Ghosh and Varghese 1998, sections 3, 4.1, 4.2, 4.4 and 4.5): the Group
//! Module, an embedded TCP sender and the source's own fusion table.
//!
//! Set-up (section 4.1): JOIN_REQUEST to every receiver, unicast; a receiver without a
//! JOIN_ACK after JOIN_TMOUT gets the request again, up to the retries, and is then reported
//! failed. PATH goes to the group; the source waits PATH_TMOUT for a REVERSE_PATH originated by
//! every joined receiver, multicasts PATH again up to the retries, then reports the silent ones
//! failed and begins the data phase with the others. The embedded TCP is unmodified: it sends
//! to the group address and gets one ACK stream, the output of the source's fusion table
//! (the source is always a fusion node, section 3).
//!
//! Failures (section 4.5). The source's table runs Figure 6 for its own children.
//! CHOICE: the Group Module tells the application a receiver failed when no REVERSE_PATH
//! originated by it has reached the source for TCP-M_TMOUT (REVERSE_PATHs carry their
//! originating receiver for this, section 4.1); a later REVERSE_PATH from it is recorded as a
//! revival. When every receiver has failed the transfer is abandoned.
//!
//! Tear-down (section 4.4) is described in the module documentation ([`super`]).

use std::collections::BTreeSet;

use ccsim_core::{
    Addr, Agent, AgentStats, Ctx, Dur, Ecn, FlowId, Packet, SimTime, TimerSlot, VarId,
};

use super::fusion::{FusionTable, Sent};
use super::{control, control_with, TcpmKind, TcpmParams, FIN_RETRIES};
use crate::wrap::Wrapped;
use crate::{AckOptions, Hdr, TcpSender, TCP_HEADER_BYTES};

/// The embedded TCP's sends go out as they are.
fn pass<C: Ctx<Hdr>>(outer: &mut C, pkt: Packet<Hdr>) {
    outer.send(pkt);
}

/// The embedded TCP uses slots 0 and 1.
const PHASE_TIMER: TimerSlot = TimerSlot(2);
const LIVENESS_TIMER: TimerSlot = TimerSlot(3);

/// Where a receiver was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureStage {
    /// No JOIN_ACK after the retries.
    Join,
    /// No REVERSE_PATH after the PATH retries.
    Path,
    /// No REVERSE_PATH for TCP-M_TMOUT during the transfer.
    Timeout,
}

impl FailureStage {
    /// Name used in results.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            FailureStage::Join => "join",
            FailureStage::Path => "path",
            FailureStage::Timeout => "timeout",
        }
    }
}

/// A failure the Group Module reported to the application.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReceiverFailure {
    /// Index of the receiver in the session's list.
    pub receiver: usize,
    /// When it was reported.
    pub at: SimTime,
    /// Where it was lost.
    pub stage: FailureStage,
    /// When a REVERSE_PATH from it arrived again, if one did.
    pub revived_at: Option<SimTime>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Member {
    joined: bool,
    path_ok: bool,
    failed: bool,
    closed: bool,
    last_seen: SimTime,
    /// Its failure report not yet followed by a revival, if any.
    open_failure: Option<usize>,
}

impl Member {
    /// Set-up still waits for its JOIN_ACK.
    fn awaits_join(self) -> bool {
        !self.joined && !self.failed
    }
    /// Set-up still waits for its REVERSE_PATH.
    fn awaits_path(self) -> bool {
        self.joined && !self.failed && !self.path_ok
    }
    /// Its REVERSE_PATHs are watched for TCP-M_TMOUT.
    fn watched(self) -> bool {
        self.path_ok && !self.failed && !self.closed
    }
    /// Neither failed nor confirmed with TCP-M_CLOSE.
    fn unconfirmed(self) -> bool {
        !self.failed && !self.closed
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Joining,
    Pathing,
    Data,
    Closing,
    Closed,
    Abandoned,
}

/// A TCP-M source: Group Module, embedded TCP, fusion table.
#[derive(Debug)]
pub struct TcpmSource {
    flow: FlowId,
    group: u32,
    params: TcpmParams,
    tcp: TcpSender,
    mss: u64,
    size: Option<u64>,
    receivers: Vec<Addr>,
    members: Vec<Member>,
    /// (address, index) sorted by address.
    by_addr: Vec<(Addr, usize)>,
    /// Members whose JOIN_ACK, resp. REVERSE_PATH, set-up still waits for; members failed now.
    awaiting_join: usize,
    awaiting_path: usize,
    failed_now: usize,
    /// Members neither failed nor confirmed.
    unconfirmed: usize,
    /// (last REVERSE_PATH, index) of the watched members, oldest first.
    watch: BTreeSet<(SimTime, usize)>,
    table: FusionTable,
    phase: Phase,
    tries: u32,
    fin_wait: Dur,
    failures: Vec<ReceiverFailure>,
    data_start: Option<SimTime>,
    data_done: Option<SimTime>,
    closed_at: Option<SimTime>,
    acked_segments: u64,
    acks_at_source: u64,
    acks_to_tcp: u64,
    /// Children the source's table declared dead, and when.
    deaths: Vec<(Addr, SimTime)>,
}

impl TcpmSource {
    /// A source for the session of `flow`: `tcp` must send to `Addr::group(group)`;
    /// `packet_size` and `size` are the TCP's; `receivers` are the receiver agents.
    #[must_use]
    pub fn new(
        flow: FlowId,
        group: u32,
        params: TcpmParams,
        tcp: TcpSender,
        (packet_size, size): (u32, Option<u64>),
        receivers: Vec<Addr>,
    ) -> Self {
        let mut by_addr: Vec<(Addr, usize)> =
            receivers.iter().enumerate().map(|(i, &a)| (a, i)).collect();
        by_addr.sort_unstable();
        TcpmSource {
            flow,
            group,
            params,
            tcp,
            mss: u64::from(packet_size.saturating_sub(TCP_HEADER_BYTES)),
            size,
            members: vec![Member::default(); receivers.len()],
            awaiting_join: receivers.len(),
            awaiting_path: 0,
            failed_now: 0,
            unconfirmed: receivers.len(),
            watch: BTreeSet::new(),
            receivers,
            by_addr,
            table: FusionTable::new(params.max_duplicate, params.tcpm_timeout)
                .with_rule(params.duplicates),
            phase: Phase::Joining,
            tries: 0,
            fin_wait: Dur::ZERO,
            failures: Vec::new(),
            data_start: None,
            data_done: None,
            closed_at: None,
            acked_segments: 0,
            acks_at_source: 0,
            acks_to_tcp: 0,
            deaths: Vec::new(),
        }
    }

    fn index(&self, addr: Addr) -> Option<usize> {
        self.by_addr
            .binary_search_by_key(&addr, |&(a, _)| a)
            .ok()
            .map(|i| self.by_addr[i].1)
    }

    /// The embedded TCP sender.
    #[must_use]
    pub fn tcp(&self) -> &TcpSender {
        &self.tcp
    }

    /// The source's fusion table.
    #[must_use]
    pub fn table(&self) -> &FusionTable {
        &self.table
    }

    /// Children the source's own table declared dead, and when.
    #[must_use]
    pub fn deaths(&self) -> &[(Addr, SimTime)] {
        &self.deaths
    }

    /// Failures reported to the application, in order.
    #[must_use]
    pub fn failures(&self) -> &[ReceiverFailure] {
        &self.failures
    }

    /// Per receiver: whether it joined, whether it confirmed the whole transfer with
    /// TCP-M_CLOSE, and whether it stands failed now.
    #[must_use]
    pub fn receiver_states(&self) -> Vec<(bool, bool, bool)> {
        self.members
            .iter()
            .map(|m| (m.joined, m.closed, m.failed))
            .collect()
    }

    /// When the data phase began.
    #[must_use]
    pub fn data_start(&self) -> Option<SimTime> {
        self.data_start
    }

    /// When the embedded TCP had its last byte acknowledged.
    #[must_use]
    pub fn data_done(&self) -> Option<SimTime> {
        self.data_done
    }

    /// When the fused FIN_ACK arrived (the session closed).
    #[must_use]
    pub fn closed_at(&self) -> Option<SimTime> {
        self.closed_at
    }

    /// Whether the transfer was abandoned (every receiver failed).
    #[must_use]
    pub fn abandoned(&self) -> bool {
        self.phase == Phase::Abandoned
    }

    /// Application bytes acknowledged by every counted receiver.
    #[must_use]
    pub fn acked_bytes(&self) -> u64 {
        let bytes = self.acked_segments.saturating_mul(self.mss);
        self.size.map_or(bytes, |s| bytes.min(s))
    }

    /// Encapsulated ACKs that reached the source, and fused ACKs handed to its TCP.
    #[must_use]
    pub fn ack_counts(&self) -> (u64, u64) {
        (self.acks_at_source, self.acks_to_tcp)
    }

    /// Change member `i` by `f`, keeping the counters and the watch in step.
    fn update(&mut self, i: usize, f: impl FnOnce(&mut Member)) {
        let before = self.members[i];
        f(&mut self.members[i]);
        let after = self.members[i];
        let step = |count: &mut usize, was: bool, is: bool| {
            if was && !is {
                *count -= 1;
            } else if is && !was {
                *count += 1;
            }
        };
        step(
            &mut self.awaiting_join,
            before.awaits_join(),
            after.awaits_join(),
        );
        step(
            &mut self.awaiting_path,
            before.awaits_path(),
            after.awaits_path(),
        );
        step(&mut self.failed_now, before.failed, after.failed);
        step(
            &mut self.unconfirmed,
            before.unconfirmed(),
            after.unconfirmed(),
        );
        if before.watched() {
            self.watch.remove(&(before.last_seen, i));
        }
        if after.watched() {
            self.watch.insert((after.last_seen, i));
        }
    }

    fn fail<C: Ctx<Hdr>>(&mut self, i: usize, stage: FailureStage, ctx: &mut C) {
        if self.members[i].failed {
            return;
        }
        let record = self.failures.len();
        self.update(i, |m| {
            m.failed = true;
            m.open_failure = Some(record);
        });
        self.failures.push(ReceiverFailure {
            receiver: i,
            at: ctx.now(),
            stage,
            revived_at: None,
        });
    }

    fn start_path<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.failed_now == self.members.len() {
            return self.abandon(ctx);
        }
        self.phase = Phase::Pathing;
        self.tries = 0;
        self.send_path(ctx);
    }

    fn send_path<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let me = ctx.addr();
        ctx.send(control(
            self.flow,
            Addr::group(self.group),
            TcpmKind::Path,
            me,
        ));
        ctx.set_timer(PHASE_TIMER, ctx.now() + self.params.path_timeout);
    }

    fn send_joins<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        for (i, m) in self.members.iter().enumerate() {
            if !m.joined && !m.failed {
                ctx.send(control(
                    self.flow,
                    self.receivers[i],
                    TcpmKind::JoinRequest,
                    Addr::default(),
                ));
            }
        }
        ctx.set_timer(PHASE_TIMER, ctx.now() + self.params.join_timeout);
    }

    fn start_data<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.failed_now == self.members.len() {
            return self.abandon(ctx);
        }
        self.phase = Phase::Data;
        ctx.cancel_timer(PHASE_TIMER);
        self.data_start = Some(ctx.now());
        let mut inner = Wrapped::catching_finish(ctx, pass);
        self.tcp.on_start(&mut inner);
        let finished = inner.finished;
        self.after_tcp(finished, ctx);
        self.arm_liveness(ctx);
    }

    fn abandon<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.phase = Phase::Abandoned;
        let mut inner = Wrapped::catching_finish(ctx, pass);
        self.tcp.on_stop(&mut inner);
        for slot in 0..TimerSlot::MAX {
            ctx.cancel_timer(TimerSlot(u8::try_from(slot).unwrap_or(0)));
        }
    }

    fn after_tcp<C: Ctx<Hdr>>(&mut self, finished: bool, ctx: &mut C) {
        if finished && self.phase == Phase::Data {
            self.data_done = Some(ctx.now());
            self.phase = Phase::Closing;
            self.tries = 0;
            self.fin_wait = Dur(self
                .tcp
                .var(VarId::Rto)
                .map_or(1_000_000_000, |s| (s * 1e9) as u64));
            self.send_fin(ctx);
        }
    }

    /// Segments in the transfer (finite transfers only).
    fn total_segments(&self) -> u64 {
        match (self.size, self.mss) {
            (Some(size), mss) if mss > 0 => size.div_ceil(mss),
            _ => u64::MAX,
        }
    }

    /// FIN: to the group the first time; then to each receiver without a TCP-M_CLOSE, which
    /// left the group on the first.
    fn send_fin<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let total = self.total_segments();
        if self.tries == 0 {
            let group = Addr::group(self.group);
            ctx.send(control_with(
                self.flow,
                group,
                TcpmKind::Fin,
                Addr::default(),
                total,
            ));
        } else {
            for (i, m) in self.members.iter().enumerate() {
                if m.joined && !m.closed {
                    let to = self.receivers[i];
                    ctx.send(control_with(
                        self.flow,
                        to,
                        TcpmKind::Fin,
                        Addr::default(),
                        total,
                    ));
                }
            }
        }
        ctx.set_timer(PHASE_TIMER, ctx.now() + self.fin_wait);
    }

    fn close<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.phase = Phase::Closed;
        self.closed_at = Some(ctx.now());
        ctx.cancel_timer(PHASE_TIMER);
        ctx.cancel_timer(LIVENESS_TIMER);
    }

    fn hand_to_tcp<C: Ctx<Hdr>>(&mut self, sent: Sent, ctx: &mut C) {
        for _ in 1..sent.copies {
            self.ack_tcp(sent.clone(), ctx);
        }
        self.ack_tcp(sent, ctx);
    }

    fn ack_tcp<C: Ctx<Hdr>>(&mut self, sent: Sent, ctx: &mut C) {
        if !matches!(self.phase, Phase::Data | Phase::Closing) {
            return;
        }
        self.acks_to_tcp += 1;
        self.acked_segments = self.acked_segments.max(sent.ack);
        let me = ctx.addr();
        let ack = Packet {
            src: Addr::group(self.group),
            dst: me,
            flow: self.flow,
            size: TCP_HEADER_BYTES,
            sent_at: ctx.now(),
            ecn: Ecn::NotEct,
            header: Hdr::TcpAck {
                ack: sent.ack,
                ece: sent.ece,
                opts: sent
                    .sack
                    .map(|sack| Box::new(AckOptions { sack, accecn: None })),
                ace: None,
            },
        };
        let mut inner = Wrapped::catching_finish(ctx, pass);
        self.tcp.on_packet(&ack, &mut inner);
        let finished = inner.finished;
        self.after_tcp(finished, ctx);
    }

    fn arm_liveness<C: Ctx<Hdr>>(&self, ctx: &mut C) {
        let watching = matches!(self.phase, Phase::Data | Phase::Closing);
        let oldest = self
            .watch
            .first()
            .filter(|_| watching)
            .map(|&(seen, _)| seen + self.params.tcpm_timeout);
        match oldest.into_iter().chain(self.table.next_deadline()).min() {
            Some(at) => ctx.set_timer(LIVENESS_TIMER, at),
            None => ctx.cancel_timer(LIVENESS_TIMER),
        }
    }

    fn on_liveness<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let now = ctx.now();
        let (dead, sent) = self.table.expire(now);
        self.deaths.extend(dead.into_iter().map(|d| (d, now)));
        // A dead child may have been the last FIN_ACK missing.
        if self.phase == Phase::Closing && self.table.fin_complete() {
            return self.close(ctx);
        }
        if matches!(self.phase, Phase::Data | Phase::Closing) {
            while let Some(&(seen, i)) = self.watch.first() {
                if seen + self.params.tcpm_timeout > now {
                    break;
                }
                self.fail(i, FailureStage::Timeout, ctx);
            }
            if self.failed_now == self.members.len() {
                return self.abandon(ctx);
            }
        }
        if let Some(sent) = sent {
            self.hand_to_tcp(sent, ctx);
        }
        self.arm_liveness(ctx);
    }

    fn on_phase_timer<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        match self.phase {
            Phase::Joining => {
                if self.tries < self.params.join_retries {
                    self.tries += 1;
                    self.send_joins(ctx);
                } else {
                    for i in 0..self.members.len() {
                        if self.members[i].awaits_join() {
                            self.fail(i, FailureStage::Join, ctx);
                        }
                    }
                    self.start_path(ctx);
                }
            }
            Phase::Pathing => {
                if self.tries < self.params.path_retries {
                    self.tries += 1;
                    self.send_path(ctx);
                } else {
                    for i in 0..self.members.len() {
                        if self.members[i].awaits_path() {
                            self.fail(i, FailureStage::Path, ctx);
                        }
                    }
                    self.start_data(ctx);
                }
            }
            Phase::Closing => {
                if self.tries < FIN_RETRIES {
                    self.tries += 1;
                    self.fin_wait = Dur(self.fin_wait.0.saturating_mul(2)).min(Dur::from_secs(64));
                    self.send_fin(ctx);
                } else {
                    self.phase = Phase::Closed;
                    ctx.cancel_timer(LIVENESS_TIMER);
                }
            }
            Phase::Data | Phase::Closed | Phase::Abandoned => {}
        }
    }

    /// A REVERSE_PATH from `child` originated by receiver `origin`, whose next expected
    /// segment was `has`.
    fn on_reverse_path<C: Ctx<Hdr>>(&mut self, child: Addr, origin: Addr, has: u64, ctx: &mut C) {
        let now = ctx.now();
        self.table.on_reverse_path(child, now);
        if let Some(i) = self.index(origin) {
            // Revived only if it has kept up: the fusion tree counts it again only then.
            let revived =
                self.members[i].failed && self.members[i].joined && has >= self.acked_segments;
            let record = self.members[i].open_failure;
            self.update(i, |m| {
                m.last_seen = now;
                m.path_ok = true;
                if revived {
                    m.failed = false;
                    m.open_failure = None;
                }
            });
            if let (true, Some(r)) = (revived, record) {
                self.failures[r].revived_at = Some(now);
            }
        }
        if self.phase == Phase::Pathing && self.awaiting_path == 0 {
            self.start_data(ctx);
        } else {
            self.arm_liveness(ctx);
        }
    }
}

impl Agent<Hdr> for TcpmSource {
    fn on_start<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.phase = Phase::Joining;
        self.tries = 0;
        self.send_joins(ctx);
    }

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        // TCP-M_CLOSE is not fused: a receiver's may arrive after the fused FIN_ACK.
        if let Hdr::TcpmControl {
            kind: TcpmKind::Close,
            about,
            value,
        } = &pkt.header
        {
            // Complete only with every segment.
            if *value >= self.total_segments() {
                if let Some(i) = self.index(*about) {
                    self.update(i, |m| m.closed = true);
                }
                // Every receiver not failed has confirmed: nothing is left to wait for, even if
                // a fused FIN_ACK was lost.
                if self.phase == Phase::Closing && self.unconfirmed == 0 {
                    self.close(ctx);
                }
            }
            return;
        }
        if matches!(self.phase, Phase::Closed | Phase::Abandoned) {
            return;
        }
        match &pkt.header {
            Hdr::TcpmControl { kind, about, value } => match kind {
                TcpmKind::JoinAck => {
                    if let Some(i) = self.index(pkt.src) {
                        self.update(i, |m| m.joined = true);
                    }
                    if self.phase == Phase::Joining && self.awaiting_join == 0 {
                        ctx.cancel_timer(PHASE_TIMER);
                        self.start_path(ctx);
                    }
                }
                TcpmKind::ReversePath => self.on_reverse_path(pkt.src, *about, *value, ctx),
                TcpmKind::FinAck
                    if self.phase == Phase::Closing && self.table.on_fin_ack(pkt.src) =>
                {
                    self.close(ctx);
                }
                _ => {}
            },
            Hdr::TcpmAck { ack, ece, sack } => {
                self.acks_at_source += 1;
                if let Some(sent) = self.table.on_ack(pkt.src, *ack, *ece, sack.as_deref()) {
                    self.hand_to_tcp(sent, ctx);
                }
            }
            _ => {}
        }
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        match slot {
            PHASE_TIMER => self.on_phase_timer(ctx),
            LIVENESS_TIMER => {
                if !matches!(self.phase, Phase::Closed | Phase::Abandoned) {
                    self.on_liveness(ctx);
                }
            }
            _ => {
                if matches!(self.phase, Phase::Data | Phase::Closing) {
                    let mut inner = Wrapped::catching_finish(ctx, pass);
                    self.tcp.on_timer(slot, &mut inner);
                    let finished = inner.finished;
                    self.after_tcp(finished, ctx);
                }
            }
        }
    }

    fn on_stop<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let mut inner = Wrapped::catching_finish(ctx, pass);
        self.tcp.on_stop(&mut inner);
    }

    fn var(&self, var: VarId) -> Option<f64> {
        self.tcp.var(var)
    }

    fn stats(&self) -> AgentStats {
        let tcp = self.tcp.stats();
        AgentStats {
            app_bytes_delivered: self.acked_bytes(),
            retransmitted_packets: tcp.retransmitted_packets,
            timeouts: tcp.timeouts,
            completed_at: self.closed_at,
            ..AgentStats::default()
        }
    }
}
