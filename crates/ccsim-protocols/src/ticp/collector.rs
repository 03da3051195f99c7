//! The TICP collector: Section IV's algorithm (see the module comment of `ticp` for the
//! choices made where the paper is silent).

use std::collections::{BTreeSet, VecDeque};

use ccsim_core::{
    trace_changes, traced_values, Addr, Agent, AgentStats, Ctx, Dur, Ecn, FlowId, Packet, SimTime,
    TimerSlot, VarId,
};

use super::binning::{bin_distance, index_levels, BinningConfig, LandmarkProber};
use super::{Delivery, Directory, TicpRequest};
use crate::Hdr;

const TO_TIMER: TimerSlot = TimerSlot(0);
const ALLOTTED_TIMER: TimerSlot = TimerSlot(1);
const PROBE_TIMER: TimerSlot = TimerSlot(2);
const BINNING_TIMER: TimerSlot = TimerSlot(3);
const ACK_BYTES: u32 = 40;
const TRACED: [VarId; 6] = [
    VarId::Cwnd,
    VarId::Reports,
    VarId::Round,
    VarId::Cluster,
    VarId::Srtt,
    VarId::Rto,
];

/// Collector parameters.
#[derive(Clone, Debug)]
pub struct TicpConfig {
    /// RS: request messages per request packet, and the window's floor.
    pub rs: u32,
    /// Bytes of one request message.
    pub request_size: u32,
    /// How requests reach the sources.
    pub delivery: Delivery,
    /// The timer before any RTT sample (the paper's 3 s).
    pub initial_to: Dur,
    /// Floor of the timer.
    pub min_to: Dur,
    /// End the session this long after it began, complete or not.
    pub allotted: Option<Dur>,
    /// Flow of request packets.
    pub request_flow: FlowId,
    /// Flow of reports (and binning control traffic).
    pub report_flow: FlowId,
}

impl TicpConfig {
    /// The paper's defaults for `rs` and `request_size`: initial TO 3 s, no allotted time.
    #[must_use]
    pub fn new(rs: u32, request_size: u32, delivery: Delivery, flows: (FlowId, FlowId)) -> Self {
        TicpConfig {
            rs: rs.max(1),
            request_size,
            delivery,
            initial_to: Dur::from_secs(3),
            min_to: Dur::from_millis(1),
            allotted: None,
            request_flow: flows.0,
            report_flow: flows.1,
        }
    }
}

/// A cluster: the hosts probed together, and the multicast group that reaches them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterInfo {
    /// Host indices (into the directory), in ID order.
    pub hosts: Vec<usize>,
    /// Multicast group key; `None` sends this cluster's requests by unicast.
    pub group: Option<u32>,
    /// The bin's level vector, when formed by binning.
    pub bin: Option<Vec<u32>>,
}

/// How the collector learns its clusters.
#[derive(Clone, Debug)]
pub enum Clustering {
    /// Given clusters, in probing order.
    Explicit(Vec<ClusterInfo>),
    /// Landmark binning before the session.
    Binning(BinningConfig),
}

/// Per-cluster counters of the first round (the staircase of the paper's figures).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClusterStats {
    /// Request messages sent to the cluster in round 1.
    pub request_messages: u64,
    /// Their bytes.
    pub request_bytes: u64,
    /// First and last request of round 1.
    pub first_request: Option<SimTime>,
    /// Last request of round 1.
    pub last_request: Option<SimTime>,
    /// Reports from the cluster received during round 1.
    pub reports: u64,
    /// Their bytes.
    pub report_bytes: u64,
    /// First report received from the cluster during round 1.
    pub first_report: Option<SimTime>,
    /// Last report received from the cluster during round 1.
    pub last_report: Option<SimTime>,
}

/// When and how a (virtual) source's report first arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// Arrival time at the collector.
    pub at: SimTime,
    /// Round of the latest request to the source when the report arrived.
    pub round: u32,
    /// Whether the report was delayed (arrived after its deadline).
    pub delayed: bool,
}

/// Window phase (Section III.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// cwnd += 1 per timely report.
    SlowStart,
    /// cwnd += RS / cwnd per timely report.
    CongestionAvoidance,
}

/// The collector.
#[derive(Clone, Debug)]
pub struct TicpCollector {
    cfg: TicpConfig,
    dir: Directory,
    host_by_addr: Vec<(Addr, usize)>,
    binning: Option<LandmarkProber>,
    host_bins: Vec<Option<u32>>,
    clusters: Vec<ClusterInfo>,
    cluster_stats: Vec<ClusterStats>,
    /// Probe order (virtual source IDs) and each position's cluster.
    order: Vec<u32>,
    cluster_at: Vec<u32>,
    /// Per source ID, its position in `order`.
    pos: Vec<u32>,
    // Section III variables.
    cwnd: f64,
    phase: Phase,
    pipe: i64,
    torecv: i64,
    recv: i64,
    sent: i64,
    srtt: Option<f64>,
    rttvar: f64,
    to: Dur,
    start_to: SimTime,
    start_prev_to: Option<SimTime>,
    // Rounds of error recovery.
    round: u32,
    current: BTreeSet<u32>,
    next: BTreeSet<u32>,
    /// Requests not yet judged: (request time, source, round), in send order.
    outstanding: VecDeque<(SimTime, u32, u32)>,
    last_round: Vec<u32>,
    arrivals: Vec<Option<Arrival>>,
    received: u32,
    // Counters.
    delayed: u64,
    duplicates: u64,
    requests_sent: u64,
    request_packets: u64,
    halvings: u64,
    timeouts: u64,
    report_packets: u64,
    report_bytes: u64,
    last_cluster: u32,
    began: Option<SimTime>,
    finished: Option<SimTime>,
    ended: bool,
}

impl TicpCollector {
    /// A collector for the sources of `dir`.
    #[must_use]
    pub fn new(cfg: TicpConfig, dir: Directory, clustering: Clustering) -> Self {
        let n = dir.total() as usize;
        let mut host_by_addr: Vec<(Addr, usize)> = dir
            .hosts()
            .iter()
            .enumerate()
            .map(|(i, h)| (h.addr, i))
            .collect();
        host_by_addr.sort_unstable();
        let hosts = dir.hosts().len();
        let (binning, clusters) = match clustering {
            Clustering::Explicit(c) => (None, c),
            Clustering::Binning(b) => (Some(LandmarkProber::new(b, cfg.report_flow)), Vec::new()),
        };
        let to = cfg.initial_to;
        TicpCollector {
            cfg,
            dir,
            host_by_addr,
            binning,
            host_bins: vec![None; hosts],
            clusters,
            cluster_stats: Vec::new(),
            order: Vec::new(),
            cluster_at: Vec::new(),
            pos: vec![0; n],
            cwnd: 0.0,
            phase: Phase::SlowStart,
            pipe: 0,
            torecv: 0,
            recv: 0,
            sent: 0,
            srtt: None,
            rttvar: 0.0,
            to,
            start_to: SimTime::ZERO,
            start_prev_to: None,
            round: 0,
            current: BTreeSet::new(),
            next: BTreeSet::new(),
            outstanding: VecDeque::new(),
            last_round: vec![0; n],
            arrivals: vec![None; n],
            received: 0,
            delayed: 0,
            duplicates: 0,
            requests_sent: 0,
            request_packets: 0,
            halvings: 0,
            timeouts: 0,
            report_packets: 0,
            report_bytes: 0,
            last_cluster: 0,
            began: None,
            finished: None,
            ended: false,
        }
    }

    // ----- Getters (read-only, any time) -----

    /// The congestion window, in request messages.
    #[must_use]
    pub fn cwnd(&self) -> f64 {
        self.cwnd
    }
    /// The window phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// Section III's `pipe`, `torecv`, `recv` and `sent`.
    #[must_use]
    pub fn counters(&self) -> (i64, i64, i64, i64) {
        (self.pipe, self.torecv, self.recv, self.sent)
    }
    /// The timer value TO.
    #[must_use]
    pub fn timeout(&self) -> Dur {
        self.to
    }
    /// `startprevTO` and `startTO`.
    #[must_use]
    pub fn timer_window(&self) -> (Option<SimTime>, SimTime) {
        (self.start_prev_to, self.start_to)
    }
    /// The current round (0 before the session begins).
    #[must_use]
    pub fn round(&self) -> u32 {
        self.round
    }
    /// Number of (virtual) sources.
    #[must_use]
    pub fn expected(&self) -> u32 {
        self.dir.total()
    }
    /// Sources whose report has arrived.
    #[must_use]
    pub fn received(&self) -> u32 {
        self.received
    }
    /// Per source ID, its first report's arrival.
    #[must_use]
    pub fn arrivals(&self) -> &[Option<Arrival>] {
        &self.arrivals
    }
    /// The clusters, in probing order (empty before binning completes).
    #[must_use]
    pub fn clusters(&self) -> &[ClusterInfo] {
        &self.clusters
    }
    /// Per cluster, the first round's counters.
    #[must_use]
    pub fn cluster_stats(&self) -> &[ClusterStats] {
        &self.cluster_stats
    }
    /// The rank of the cluster of source `id`.
    #[must_use]
    pub fn cluster_of(&self, id: u32) -> Option<u32> {
        self.cluster_at
            .get(*self.pos.get(id as usize)? as usize)
            .copied()
    }
    /// The bin each host registered, by host index.
    #[must_use]
    pub fn host_bins(&self) -> &[Option<u32>] {
        &self.host_bins
    }
    /// The collector's own bin (level vector), when binning ran.
    #[must_use]
    pub fn own_bin(&self) -> Option<Vec<u32>> {
        self.binning.as_ref().map(LandmarkProber::levels)
    }
    /// When the session proper began (first request).
    #[must_use]
    pub fn began(&self) -> Option<SimTime> {
        self.began
    }
    /// When the last report arrived, if every report did.
    #[must_use]
    pub fn finished(&self) -> Option<SimTime> {
        self.finished
    }
    /// Whether the session is over: every report in, or the allotted time spent.
    #[must_use]
    pub fn ended(&self) -> bool {
        self.ended
    }
    /// Reports that arrived after their deadline.
    #[must_use]
    pub fn delayed_reports(&self) -> u64 {
        self.delayed
    }
    /// Reports for sources already in the table.
    #[must_use]
    pub fn duplicate_reports(&self) -> u64 {
        self.duplicates
    }
    /// Request messages and request packets sent.
    #[must_use]
    pub fn requests_sent(&self) -> (u64, u64) {
        (self.requests_sent, self.request_packets)
    }
    /// Window halvings (congestion) and resets to RS (severe congestion).
    #[must_use]
    pub fn reactions(&self) -> (u64, u64) {
        (self.halvings, self.timeouts)
    }

    // ----- Session -----

    fn host_index(&self, addr: Addr) -> Option<usize> {
        let i = self
            .host_by_addr
            .binary_search_by_key(&addr, |&(a, _)| a)
            .ok()?;
        Some(self.host_by_addr[i].1)
    }

    /// Rank the registered bins by distance to the collector's own bin (ties by bin index);
    /// hosts that never registered form a last cluster reached by unicast.
    fn clusters_from_bins(&self) -> Vec<ClusterInfo> {
        let Some(prober) = &self.binning else {
            return Vec::new();
        };
        let base = prober.cfg.levels();
        let landmarks = prober.cfg.landmarks.len();
        let mine = prober.levels();
        let mut bins: Vec<u32> = self.host_bins.iter().flatten().copied().collect();
        bins.sort_unstable();
        bins.dedup();
        let mut ranked: Vec<(f64, u32)> = bins
            .into_iter()
            .map(|b| (bin_distance(&mine, &index_levels(b, base, landmarks)), b))
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut clusters: Vec<ClusterInfo> = ranked
            .into_iter()
            .map(|(_, b)| ClusterInfo {
                hosts: (0..self.host_bins.len())
                    .filter(|&h| self.host_bins[h] == Some(b))
                    .collect(),
                group: Some(prober.cfg.group_base + b),
                bin: Some(index_levels(b, base, landmarks)),
            })
            .collect();
        let unbinned: Vec<usize> = (0..self.host_bins.len())
            .filter(|&h| self.host_bins[h].is_none())
            .collect();
        if !unbinned.is_empty() {
            clusters.push(ClusterInfo {
                hosts: unbinned,
                group: None,
                bin: None,
            });
        }
        clusters
    }

    fn begin<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.binning.is_some() {
            self.clusters = self.clusters_from_bins();
        }
        let n = self.dir.total() as usize;
        self.order = Vec::with_capacity(n);
        self.cluster_at = Vec::with_capacity(n);
        for (c, cluster) in self.clusters.iter().enumerate() {
            for &h in &cluster.hosts {
                let host = self.dir.hosts()[h];
                for id in host.first..host.first + host.count {
                    self.pos[id as usize] = u32::try_from(self.order.len()).unwrap_or(u32::MAX);
                    self.order.push(id);
                    self.cluster_at.push(u32::try_from(c).unwrap_or(u32::MAX));
                }
            }
        }
        debug_assert_eq!(self.order.len(), n, "every host is in exactly one cluster");
        self.cluster_stats = vec![ClusterStats::default(); self.clusters.len()];
        let now = ctx.now();
        self.began = Some(now);
        if let Some(allotted) = self.cfg.allotted {
            ctx.set_timer(ALLOTTED_TIMER, now + allotted);
        }
        if n == 0 {
            self.finish(ctx);
            return;
        }
        self.cwnd = f64::from(self.cfg.rs);
        self.phase = Phase::SlowStart;
        self.round = 1;
        self.current = (0..u32::try_from(n).unwrap_or(u32::MAX)).collect();
        self.send_requests(ctx);
        self.torecv = self.sent;
        self.sent = 0;
        self.recv = 0;
        self.start_prev_to = None;
        self.start_to = now;
        ctx.set_timer(TO_TIMER, now + self.to);
    }

    /// Send request packets while the window has room (Section III.7).
    fn send_requests<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        loop {
            // A round starts only when its first packet can go, so `round` counts rounds
            // actually probed.
            let from_next = self.current.is_empty();
            let list = if from_next { &self.next } else { &self.current };
            let Some(&first) = list.first() else {
                return;
            };
            let cluster = self.cluster_at[first as usize];
            let info = &self.clusters[cluster as usize];
            let per_packet = match (self.cfg.delivery, info.group) {
                (Delivery::Unicast, _) | (Delivery::Multicast, None) => 1,
                _ => self.cfg.rs as usize,
            };
            let positions: Vec<u32> = list
                .iter()
                .copied()
                .take_while(|&p| self.cluster_at[p as usize] == cluster)
                .take(per_packet)
                .collect();
            let k = positions.len();
            if self.cwnd - (self.pipe as f64) < k as f64 - 1e-9 {
                return;
            }
            if from_next {
                self.round += 1;
                self.current = std::mem::take(&mut self.next);
            }
            let info = &self.clusters[cluster as usize];
            let ids: Vec<u32> = positions.iter().map(|&p| self.order[p as usize]).collect();
            let dst = match (self.cfg.delivery, info.group) {
                (Delivery::Multicast, Some(g)) => Addr::group(g),
                (Delivery::Relay, _) => self.dir.hosts()[info.hosts[0]].addr,
                _ => self.dir.hosts()[self.dir.host_of(ids[0])].addr,
            };
            let now = ctx.now();
            let kk = u32::try_from(k).unwrap_or(u32::MAX);
            let size = kk.saturating_mul(self.cfg.request_size);
            for (&p, &id) in positions.iter().zip(&ids) {
                self.current.remove(&p);
                self.last_round[id as usize] = self.round;
                self.outstanding.push_back((now, id, self.round));
            }
            ctx.send(Packet {
                src: Addr::default(),
                dst,
                flow: self.cfg.request_flow,
                size,
                sent_at: SimTime::ZERO,
                ecn: Ecn::NotEct,
                header: Hdr::TicpRequest(Box::new(TicpRequest {
                    stamp: now,
                    ids,
                    relay: self.cfg.delivery == Delivery::Relay,
                })),
            });
            let k64 = k as i64;
            self.pipe += k64;
            self.sent += k64;
            self.requests_sent += k as u64;
            self.request_packets += 1;
            self.last_cluster = cluster;
            if self.round == 1 {
                let s = &mut self.cluster_stats[cluster as usize];
                s.request_messages += k as u64;
                s.request_bytes += u64::from(size);
                s.first_request.get_or_insert(now);
                s.last_request = Some(now);
            }
        }
    }

    /// A report for source `id`, echoing request time `echo` (Section IV, "when a report
    /// arrives").
    fn on_report<C: Ctx<Hdr>>(&mut self, id: u32, echo: SimTime, size: u32, ctx: &mut C) {
        let now = ctx.now();
        self.report_packets += 1;
        self.report_bytes += u64::from(size);
        let Some(slot) = self.arrivals.get(id as usize) else {
            return;
        };
        let first_arrival = slot.is_none();
        if self.ended {
            if first_arrival {
                self.record_arrival(id, now, true, size);
            }
            return;
        }
        let rtt = now.since(echo).as_secs_f64();
        match self.srtt {
            None => {
                self.srtt = Some(rtt);
                self.rttvar = rtt / 2.0;
            }
            Some(srtt) => {
                self.rttvar = 0.75 * self.rttvar + 0.25 * (srtt - rtt).abs();
                self.srtt = Some(0.875 * srtt + 0.125 * rtt);
            }
        }
        let to = self.srtt.unwrap_or(rtt) + 4.0 * self.rttvar;
        self.to = Dur((to * 1e9).round() as u64).max(self.cfg.min_to);
        let timely = self.start_prev_to.is_none_or(|p| p < echo);
        if timely {
            let rs = f64::from(self.cfg.rs);
            match self.phase {
                Phase::SlowStart => self.cwnd += 1.0,
                Phase::CongestionAvoidance => self.cwnd += rs / self.cwnd,
            }
            if echo <= self.start_to {
                self.recv += 1;
            } else {
                self.sent -= 1;
            }
            self.pipe = (self.pipe - 1).max(0);
        } else {
            self.delayed += 1;
        }
        if first_arrival {
            self.record_arrival(id, now, !timely, size);
            let p = self.pos[id as usize];
            self.current.remove(&p);
            self.next.remove(&p);
        } else {
            self.duplicates += 1;
        }
        self.send_requests(ctx);
        if self.received == self.dir.total() {
            self.finish(ctx);
        }
    }

    fn record_arrival(&mut self, id: u32, now: SimTime, delayed: bool, size: u32) {
        self.arrivals[id as usize] = Some(Arrival {
            at: now,
            round: self.last_round[id as usize],
            delayed,
        });
        self.received += 1;
        if self.round == 1 {
            if let Some(c) = self.cluster_of(id) {
                let s = &mut self.cluster_stats[c as usize];
                s.reports += 1;
                s.report_bytes += u64::from(size);
                s.first_report.get_or_insert(now);
                s.last_report = Some(now);
            }
        }
    }

    /// The timer expired (Section IV, "when the timer expires").
    fn on_expiry<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.torecv > 0 {
            let loss = ((self.torecv - self.recv) as f64 / self.torecv as f64).max(0.0);
            let (ct, sct) = self.thresholds();
            if loss >= sct {
                self.cwnd = f64::from(self.cfg.rs);
                self.phase = Phase::SlowStart;
                self.timeouts += 1;
            } else if loss >= ct {
                self.cwnd = (self.cwnd / 2.0).max(f64::from(self.cfg.rs));
                self.phase = Phase::CongestionAvoidance;
                self.halvings += 1;
            }
        }
        self.pipe = (self.pipe - (self.torecv - self.recv)).max(0);
        self.judge_lost();
        self.send_requests(ctx);
        let now = ctx.now();
        self.torecv = self.sent;
        self.recv = 0;
        self.sent = 0;
        self.start_prev_to = Some(self.start_to);
        self.start_to = now;
        ctx.set_timer(TO_TIMER, now + self.to);
    }

    /// CT and SCT for the current window (Section III.8.3).
    #[must_use]
    pub fn thresholds(&self) -> (f64, f64) {
        let rs = f64::from(self.cfg.rs);
        let ct = (rs / self.cwnd).min(0.1);
        let sct = ((self.cwnd - rs) / self.cwnd).max(0.9);
        (ct, sct)
    }

    /// Requests due by this expiry (sent at or before `startTO`) whose reports are missing
    /// are lost: their sources wait for the round after the one that last asked them.
    fn judge_lost(&mut self) {
        while let Some(&(at, id, round)) = self.outstanding.front() {
            if at > self.start_to {
                break;
            }
            self.outstanding.pop_front();
            let i = id as usize;
            if self.arrivals[i].is_some() || self.last_round[i] != round {
                continue;
            }
            let p = self.pos[i];
            if round < self.round {
                self.current.insert(p);
            } else {
                self.next.insert(p);
            }
        }
    }

    fn finish<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.ended = true;
        if self.received == self.dir.total() {
            self.finished = Some(ctx.now());
        }
        ctx.cancel_timer(TO_TIMER);
        ctx.cancel_timer(ALLOTTED_TIMER);
    }

    fn on_register<C: Ctx<Hdr>>(&mut self, from: Addr, bin: u32, ctx: &mut C) {
        let Some(h) = self.host_index(from) else {
            return;
        };
        if self.began.is_none() {
            self.host_bins[h] = Some(bin);
        }
        ctx.send(Packet {
            src: Addr::default(),
            dst: from,
            flow: self.cfg.report_flow,
            size: ACK_BYTES,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::TicpRegisterAck,
        });
    }
}

impl Agent<Hdr> for TicpCollector {
    fn on_start<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        let before = traced_values(self, ctx, TRACED);
        if let Some(prober) = &mut self.binning {
            prober.start(PROBE_TIMER, ctx);
            let at = ctx.now() + prober.cfg.phase;
            ctx.set_timer(BINNING_TIMER, at);
        } else {
            self.begin(ctx);
        }
        trace_changes(self, ctx, TRACED, before);
    }

    fn on_packet<C: Ctx<Hdr>>(&mut self, pkt: &Packet<Hdr>, ctx: &mut C) {
        let before = traced_values(self, ctx, TRACED);
        match pkt.header {
            Hdr::TicpReport { source, echo } => self.on_report(source, echo, pkt.size, ctx),
            Hdr::TicpRegister { bin } => self.on_register(pkt.src, bin, ctx),
            Hdr::TicpPing {
                stamp,
                landmark,
                reply: true,
            } => {
                if let Some(p) = &mut self.binning {
                    p.on_reply(stamp, landmark, ctx.now());
                }
            }
            _ => {}
        }
        trace_changes(self, ctx, TRACED, before);
    }

    fn on_timer<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        let before = traced_values(self, ctx, TRACED);
        match slot {
            TO_TIMER if !self.ended => self.on_expiry(ctx),
            ALLOTTED_TIMER if !self.ended => self.finish(ctx),
            PROBE_TIMER => {
                if let Some(p) = &mut self.binning {
                    p.probe_round(PROBE_TIMER, ctx);
                }
            }
            BINNING_TIMER if self.began.is_none() => self.begin(ctx),
            _ => {}
        }
        trace_changes(self, ctx, TRACED, before);
    }

    fn var(&self, var: VarId) -> Option<f64> {
        match var {
            VarId::Cwnd => Some(self.cwnd),
            VarId::Reports => Some(f64::from(self.received)),
            VarId::Round => Some(f64::from(self.round)),
            VarId::Cluster => Some(f64::from(self.last_cluster)),
            VarId::Srtt => self.srtt,
            VarId::Rto => Some(self.to.as_secs_f64()),
            _ => None,
        }
    }

    fn stats(&self) -> AgentStats {
        AgentStats {
            app_bytes_delivered: self.report_bytes,
            data_packets_received: self.report_packets,
            retransmitted_packets: 0,
            timeouts: self.timeouts,
            completed_at: self.finished,
            ..AgentStats::default()
        }
    }
}
