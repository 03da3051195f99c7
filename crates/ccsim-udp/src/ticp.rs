//! TICP as a deployable tool: the simulator's collector and source agents (ccsim-protocols'
//! `ticp`, Barakat, Malli and Nonaka 2006) over real UDP sockets, with the reports' contents
//! and an authentication tag carried after the private header ([`Payload`]).
//!
//! A session has a random 64-bit identifier, chosen by the collector, and a key derived from a
//! secret the collector and the sources share: `K = HMAC-SHA256(secret, "ccsim-ticp session"
//! || session)` (RFC 2104 with SHA-256, FIPS 180-4). Every request carries the session and
//! `HMAC-SHA256(K, "request" || session || stamp || ids)`; a source answers only a request
//! whose tag verifies, and tags its report `HMAC-SHA256(K, "report" || session || source ||
//! echo || content)`. The collector hands a report to its agent only if its session is the
//! current one, its tag verifies, and it has not seen that (source, echo) pair before; it
//! counts the others as forged or replayed. A report of an earlier session fails the tag under
//! this session's key; a copy of a report of this session is a replay.
//!
//! Layout after the private header (big-endian):
//! - request: session (8 bytes), tag (32);
//! - report: session (8), content length (2), content, tag (32).
//!
//! CHOICE: requests go by unicast, one message per packet (the collector's
//! `Delivery::Unicast`): multicast groups do not exist between plain sockets, and relaying
//! would have each source know every other's address.
//! CHOICE: a report's content is cut to fit the source's report size (`report_size` less the
//! IPv4, UDP and private headers and the 42 bytes of session, length and tag), so that every
//! report datagram has that size on the wire; a cut report says so (`truncated`).
//! CHOICE: binning's messages (landmark probes and their answers, a host's bin registration
//! and its acknowledgement) are not authenticated: a forged one can change only the order in
//! which clusters are probed, never what a report says.
//! CHOICE: a source does not remember requests: a request of an earlier session, replayed,
//! is answered (under that session's key, which the collector no longer accepts).

use std::collections::BTreeSet;
use std::io;
use std::net::{SocketAddrV4, UdpSocket};
use std::sync::atomic::AtomicBool;

use ccsim_core::{Dur, FlowId, Packet, RngStream, SimTime};
use ccsim_protocols::ticp::{
    BinningConfig, ClusterInfo, Clustering, Delivery, Directory, HostInfo, TicpConfig,
};
use ccsim_protocols::{Hdr, LandmarkEcho, TicpCollector, TicpSourceHost};
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::{addr_of, Driver, Payload, Report, Schedule, IP_UDP_HEADER_BYTES};

type HmacSha256 = Hmac<Sha256>;

/// Bytes of the session identifier.
pub const SESSION_BYTES: usize = 8;
/// Bytes of a tag (HMAC-SHA256, untruncated).
pub const TAG_BYTES: usize = 32;
/// Bytes a report spends on its session, length and tag.
pub const REPORT_OVERHEAD: usize = SESSION_BYTES + 2 + TAG_BYTES;
/// Bytes of a report's private header (docs/pcap.md: 20 common, source 4, echo 8).
pub const REPORT_HEADER_BYTES: usize = 32;
/// The shortest secret accepted, bytes.
pub const MIN_SECRET_BYTES: usize = 16;

fn mac(key: &[u8]) -> HmacSha256 {
    // HMAC accepts keys of any length (RFC 2104 section 2).
    <HmacSha256 as Mac>::new_from_slice(key).expect("invariant: HMAC takes any key length")
}

/// The session key of `session` under the shared `secret`.
#[must_use]
pub fn session_key(secret: &[u8], session: u64) -> [u8; 32] {
    let mut m = mac(secret);
    m.update(b"ccsim-ticp session");
    m.update(&session.to_be_bytes());
    m.finalize().into_bytes().into()
}

fn request_mac(key: &[u8; 32], session: u64, stamp: SimTime, ids: &[u32]) -> HmacSha256 {
    let mut m = mac(key);
    m.update(b"request");
    m.update(&session.to_be_bytes());
    m.update(&stamp.0.to_be_bytes());
    for id in ids {
        m.update(&id.to_be_bytes());
    }
    m
}

fn report_mac(
    key: &[u8; 32],
    session: u64,
    source: u32,
    echo: SimTime,
    content: &[u8],
) -> HmacSha256 {
    let mut m = mac(key);
    m.update(b"report");
    m.update(&session.to_be_bytes());
    m.update(&source.to_be_bytes());
    m.update(&echo.0.to_be_bytes());
    m.update(content);
    m
}

fn read_u64(b: &[u8]) -> Option<u64> {
    Some(u64::from_be_bytes(b.get(..8)?.try_into().ok()?))
}

/// One report as the collector received it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollectedReport {
    /// The source's ID.
    pub source: u32,
    /// Arrival on the collector's clock.
    pub at: SimTime,
    /// The request timestamp it echoed.
    pub echo: SimTime,
    /// Its size as an IP packet, bytes.
    pub size: u32,
    /// Its content.
    pub content: Vec<u8>,
}

/// The collector's side: tags its requests, checks and keeps the reports.
#[derive(Clone, Debug)]
pub struct CollectorPayload {
    session: u64,
    key: [u8; 32],
    seen: BTreeSet<(u32, u64)>,
    /// The reports accepted, in arrival order.
    pub reports: Vec<CollectedReport>,
    /// Reports whose session was not this one or whose tag did not verify.
    pub forged: u64,
    /// Copies of a report already accepted (same source and echo).
    pub replayed: u64,
    /// Datagrams too short for their payload, or not reports.
    pub malformed: u64,
}

impl CollectorPayload {
    /// A collector of session `session` under `secret`.
    #[must_use]
    pub fn new(secret: &[u8], session: u64) -> Self {
        CollectorPayload {
            session,
            key: session_key(secret, session),
            seen: BTreeSet::new(),
            reports: Vec::new(),
            forged: 0,
            replayed: 0,
            malformed: 0,
        }
    }

    /// The session identifier.
    #[must_use]
    pub fn session(&self) -> u64 {
        self.session
    }
}

impl Payload for CollectorPayload {
    fn outgoing(&mut self, pkt: &Packet<Hdr>, buf: &mut Vec<u8>) {
        if let Hdr::TicpRequest(r) = &pkt.header {
            buf.extend_from_slice(&self.session.to_be_bytes());
            let tag = request_mac(&self.key, self.session, r.stamp, &r.ids).finalize();
            buf.extend_from_slice(&tag.into_bytes());
        }
    }

    fn incoming(&mut self, pkt: &Packet<Hdr>, trailing: &[u8], now: SimTime) -> bool {
        let (source, echo) = match pkt.header {
            Hdr::TicpReport { source, echo } => (source, echo),
            // Binning's messages are not authenticated (module CHOICE).
            Hdr::TicpRegister { .. } | Hdr::TicpPing { reply: true, .. } => return true,
            _ => {
                self.malformed += 1;
                return false;
            }
        };
        let Some(session) = read_u64(trailing) else {
            self.malformed += 1;
            return false;
        };
        let Some(len) = trailing
            .get(SESSION_BYTES..SESSION_BYTES + 2)
            .map(|b| usize::from(u16::from_be_bytes([b[0], b[1]])))
        else {
            self.malformed += 1;
            return false;
        };
        let start = SESSION_BYTES + 2;
        let (Some(content), Some(tag)) = (
            trailing.get(start..start + len),
            trailing.get(start + len..start + len + TAG_BYTES),
        ) else {
            self.malformed += 1;
            return false;
        };
        if session != self.session
            || report_mac(&self.key, session, source, echo, content)
                .verify_slice(tag)
                .is_err()
        {
            self.forged += 1;
            return false;
        }
        if !self.seen.insert((source, echo.0)) {
            self.replayed += 1;
            return false;
        }
        self.reports.push(CollectedReport {
            source,
            at: now,
            echo,
            size: pkt.size,
            content: content.to_vec(),
        });
        true
    }
}

/// Where a source's report comes from.
pub trait ReportContent {
    /// The report of source `source` now.
    fn report(&mut self, source: u32) -> Vec<u8>;
}

impl<F: FnMut(u32) -> Vec<u8>> ReportContent for F {
    fn report(&mut self, source: u32) -> Vec<u8> {
        self(source)
    }
}

/// A source host's side: checks requests, fills and tags its reports.
pub struct SourcePayload<R> {
    secret: Vec<u8>,
    current: Option<(u64, [u8; 32])>,
    content: R,
    /// Requests whose tag did not verify (not answered).
    pub rejected_requests: u64,
    /// Reports sent.
    pub reports: u64,
    /// Reports cut to fit the report size.
    pub truncated: u64,
}

impl<R: ReportContent> SourcePayload<R> {
    /// A source host sharing `secret` with its collector, its reports from `content`.
    pub fn new(secret: &[u8], content: R) -> Self {
        SourcePayload {
            secret: secret.to_vec(),
            current: None,
            content,
            rejected_requests: 0,
            reports: 0,
            truncated: 0,
        }
    }

    fn key_of(&mut self, session: u64) -> [u8; 32] {
        match self.current {
            Some((s, k)) if s == session => k,
            _ => session_key(&self.secret, session),
        }
    }
}

impl<R: ReportContent> Payload for SourcePayload<R> {
    fn outgoing(&mut self, pkt: &Packet<Hdr>, buf: &mut Vec<u8>) {
        let Hdr::TicpReport { source, echo } = pkt.header else {
            return;
        };
        // A report leaves only in answer to a request that verified.
        let Some((session, key)) = self.current else {
            return;
        };
        let room = (pkt.size as usize)
            .saturating_sub(IP_UDP_HEADER_BYTES as usize + REPORT_HEADER_BYTES + REPORT_OVERHEAD)
            .min(usize::from(u16::MAX));
        let mut content = self.content.report(source);
        if content.len() > room {
            content.truncate(room);
            self.truncated += 1;
        }
        buf.extend_from_slice(&session.to_be_bytes());
        buf.extend_from_slice(
            &u16::try_from(content.len())
                .unwrap_or(u16::MAX)
                .to_be_bytes(),
        );
        buf.extend_from_slice(&content);
        let tag = report_mac(&key, session, source, echo, &content).finalize();
        buf.extend_from_slice(&tag.into_bytes());
        self.reports += 1;
    }

    fn incoming(&mut self, pkt: &Packet<Hdr>, trailing: &[u8], _now: SimTime) -> bool {
        let r = match &pkt.header {
            Hdr::TicpRequest(r) => r,
            // Binning's messages are not authenticated (module CHOICE).
            Hdr::TicpRegisterAck | Hdr::TicpPing { reply: true, .. } => return true,
            _ => {
                self.rejected_requests += 1;
                return false;
            }
        };
        let (Some(session), Some(tag)) = (
            read_u64(trailing),
            trailing.get(SESSION_BYTES..SESSION_BYTES + TAG_BYTES),
        ) else {
            self.rejected_requests += 1;
            return false;
        };
        let key = self.key_of(session);
        if request_mac(&key, session, r.stamp, &r.ids)
            .verify_slice(tag)
            .is_err()
        {
            self.rejected_requests += 1;
            return false;
        }
        self.current = Some((session, key));
        true
    }
}

/// The agent number of the collector.
pub const COLLECTOR_AGENT: u32 = 1;
/// The most landmarks a session may name.
pub const MAX_LANDMARKS: u32 = 16;

/// The agent number the probers give landmark `k` (counted down from the top, above every
/// source host's; a landmark answers whatever number it is given).
#[must_use]
pub const fn landmark_agent(k: u32) -> u32 {
    u32::MAX - k
}

/// Landmark binning over sockets (TICP section III.1): the landmarks' addresses and the
/// paper's settings, the same at the collector and at every source.
#[derive(Clone, Debug, PartialEq)]
pub struct Binning {
    /// The landmarks (`ccsim real ticp landmark`), at most [`MAX_LANDMARKS`].
    pub landmarks: Vec<SocketAddrV4>,
    /// RTT level thresholds, ascending.
    pub thresholds: Vec<Dur>,
    /// Probes per landmark.
    pub probes: u32,
    /// The binning phase before the session proper.
    pub phase: Dur,
}

impl Binning {
    fn config(&self) -> BinningConfig {
        BinningConfig {
            landmarks: (0..self.landmarks.len())
                .map(|k| addr_of(landmark_agent(u32::try_from(k).unwrap_or(0))))
                .collect(),
            thresholds: self.thresholds.clone(),
            probes: self.probes,
            phase: self.phase,
            group_base: 0,
        }
    }

    fn add_peers<A: ccsim_core::Agent<Hdr>, P: Payload>(&self, driver: &mut Driver<A, P>) {
        for (k, at) in self.landmarks.iter().enumerate() {
            driver.add_peer(landmark_agent(u32::try_from(k).unwrap_or(0)), *at);
        }
    }
}

/// The agent number of the source host whose first source ID is `first` (module CHOICE: both
/// ends compute it from the ID block, so a source needs to know nothing but its block).
#[must_use]
pub fn host_agent(first: u32) -> Option<u32> {
    first.checked_add(2)
}

/// One source host of a session: where it listens and its block of source IDs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceHost {
    /// Its socket address.
    pub address: SocketAddrV4,
    /// Its first source ID.
    pub first: u32,
    /// How many source IDs it serves.
    pub count: u32,
}

/// The sizes and timers of a session, the paper's names.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SessionParams {
    /// RS: the window's floor and increase unit, in request messages.
    pub rs: u32,
    /// Bytes of a request packet of one message, headers included.
    pub request_size: u32,
    /// The timer before the first round-trip sample.
    pub initial_timeout: Dur,
    /// End the session this long after it began, complete or not.
    pub allotted: Option<Dur>,
}

/// What a collector's run gives.
#[derive(Debug)]
pub struct CollectorOutcome {
    /// The driver's report.
    pub report: Report,
    /// The reports and the counts of rejected ones.
    pub payload: CollectorPayload,
    /// Source IDs in the session.
    pub expected: u32,
    /// Sources whose report arrived.
    pub received: u32,
    /// Rounds of error recovery started.
    pub rounds: u32,
    /// When the session began and when it completed (every report in), collector's clock.
    pub began: Option<SimTime>,
    /// See `began`.
    pub completed: Option<SimTime>,
    /// Request messages and request packets sent.
    pub requests_sent: (u64, u64),
    /// Window halvings and timeouts.
    pub reactions: (u64, u64),
    /// Each source host's bin as it registered it (binning only).
    pub host_bins: Vec<Option<u32>>,
    /// Reports that arrived after their deadline, and duplicates.
    pub delayed: u64,
    /// See `delayed`.
    pub duplicates: u64,
}

/// Check that `hosts` cover source IDs 0..n in contiguous blocks, in order; the error names
/// the first host that does not.
///
/// # Errors
/// A message naming the host (by its index in `hosts`) and the ID expected.
pub fn check_hosts(hosts: &[SourceHost]) -> Result<u32, String> {
    let mut next = 0u32;
    for (i, h) in hosts.iter().enumerate() {
        if h.first != next {
            return Err(format!(
                "source host {i} ({}) starts at ID {}, expected {next}: blocks must cover 0..n in order",
                h.address, h.first
            ));
        }
        if h.count == 0 {
            return Err(format!("source host {i} ({}) has no source IDs", h.address));
        }
        next = h
            .first
            .checked_add(h.count)
            .filter(|n| host_agent(*n).is_some_and(|a| a < landmark_agent(MAX_LANDMARKS)))
            .ok_or_else(|| format!("source host {i} ({}): too many source IDs", h.address))?;
    }
    if hosts.is_empty() {
        return Err("no source hosts".into());
    }
    Ok(next)
}

/// Run a TICP collector of session `session` on `socket` for `hosts` until every report is in,
/// the allotted time is spent, `end` passes or `stop` becomes true.
///
/// # Errors
/// A bad host list (as [`check_hosts`], `InvalidInput`), or a socket failure.
pub fn run_collector(
    socket: UdpSocket,
    hosts: &[SourceHost],
    params: SessionParams,
    secret: &[u8],
    session: u64,
    binning: Option<&Binning>,
    end: Dur,
    stop: &AtomicBool,
) -> io::Result<CollectorOutcome> {
    let expected =
        check_hosts(hosts).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let infos: Vec<HostInfo> = hosts
        .iter()
        .map(|h| HostInfo {
            addr: addr_of(host_agent(h.first).unwrap_or(u32::MAX)),
            first: h.first,
            count: h.count,
        })
        .collect();
    let dir = Directory::new(infos.clone());
    let clusters = (0..hosts.len())
        .map(|j| ClusterInfo {
            hosts: vec![j],
            group: None,
            bin: None,
        })
        .collect();
    let mut cfg = TicpConfig::new(
        params.rs,
        params.request_size,
        Delivery::Unicast,
        (FlowId(0), FlowId(1)),
    );
    cfg.initial_to = params.initial_timeout;
    cfg.allotted = params.allotted;
    let clustering = match binning {
        Some(b) => Clustering::Binning(b.config()),
        None => Clustering::Explicit(clusters),
    };
    let collector = TicpCollector::new(cfg, dir, clustering);
    let payload = CollectorPayload::new(secret, session);
    let rng = RngStream::new(session, "ticp/collector");
    let mut driver = Driver::with_payload(collector, COLLECTOR_AGENT, socket, rng, payload)?;
    for (h, info) in hosts.iter().zip(&infos) {
        driver.add_peer(info.addr.agent, h.address);
    }
    if let Some(b) = binning {
        b.add_peers(&mut driver);
    }
    let schedule = Schedule {
        start: Dur::ZERO,
        stop: None,
        end,
        warmup: Dur::ZERO,
        idle_end: None,
        end_when_finished: false,
        from_first_arrival: false,
        first_arrival_timeout: None,
    };
    let report = driver.run_while(&schedule, stop, |c| !c.ended())?;
    let c = driver.agent();
    Ok(CollectorOutcome {
        host_bins: c.host_bins().to_vec(),
        expected,
        received: c.received(),
        rounds: c.round(),
        began: c.began(),
        completed: c.finished(),
        requests_sent: c.requests_sent(),
        reactions: c.reactions(),
        delayed: c.delayed_reports(),
        duplicates: c.duplicate_reports(),
        payload: driver.payload().clone(),
        report,
    })
}

/// Run a TICP source host serving IDs `first..first + count` on `socket`, answering the
/// collector's requests with reports of `report_size` bytes from `content`, until nothing has
/// come for `idle_end` after the first request (or for `first_timeout` before it), or `stop`.
///
/// # Errors
/// A block whose agent number overflows (`InvalidInput`), or a socket failure.
#[allow(clippy::too_many_arguments)]
pub fn run_sources<R: ReportContent>(
    socket: UdpSocket,
    first: u32,
    count: u32,
    sizes: (u32, u32),
    secret: &[u8],
    content: R,
    binning: Option<(&Binning, SocketAddrV4)>,
    (idle_end, first_timeout): (Dur, Dur),
    stop: &AtomicBool,
) -> io::Result<(Report, SourcePayload<R>)> {
    let invalid = |m: &str| io::Error::new(io::ErrorKind::InvalidInput, m.to_string());
    let agent = host_agent(first)
        .filter(|_| first.checked_add(count).and_then(host_agent).is_some() && count > 0)
        .ok_or_else(|| invalid("the source ID block is empty or too large"))?;
    let me = HostInfo {
        addr: addr_of(agent),
        first,
        count,
    };
    // The host needs the directory only to relay (not done over sockets): it lists a
    // placeholder block below its own.
    let mut hosts = Vec::new();
    if first > 0 {
        hosts.push(HostInfo {
            addr: addr_of(0),
            first: 0,
            count: first,
        });
    }
    hosts.push(me);
    let host = TicpSourceHost::new(
        me,
        addr_of(COLLECTOR_AGENT),
        (FlowId(0), FlowId(1)),
        sizes,
        Directory::new(hosts),
        binning.map(|(b, _)| b.config()),
    );
    let payload = SourcePayload::new(secret, content);
    let rng = RngStream::new(u64::from(first), "ticp/sources");
    let mut driver = Driver::with_payload(host, agent, socket, rng, payload)?;
    if let Some((b, collector)) = binning {
        // The host registers its bin with the collector before any request comes.
        driver.add_peer(COLLECTOR_AGENT, collector);
        b.add_peers(&mut driver);
    }
    let schedule = Schedule {
        start: Dur::ZERO,
        stop: None,
        end: Dur(u64::MAX / 2),
        warmup: Dur::ZERO,
        idle_end: Some(idle_end),
        end_when_finished: false,
        from_first_arrival: true,
        first_arrival_timeout: Some(first_timeout),
    };
    let report = driver.run(&schedule, stop)?;
    let Driver { payload, .. } = driver;
    Ok((report, payload))
}

/// Run a TICP landmark on `socket`, answering every binning probe, until `stop`.
///
/// # Errors
/// A socket failure.
pub fn run_landmark(socket: UdpSocket, stop: &AtomicBool) -> io::Result<Report> {
    let rng = RngStream::new(0, "ticp/landmark");
    let mut driver = Driver::new(LandmarkEcho, landmark_agent(0), socket, rng)?;
    driver.accept_any_destination();
    let schedule = Schedule {
        start: Dur::ZERO,
        stop: None,
        end: Dur(u64::MAX / 2),
        warmup: Dur::ZERO,
        idle_end: None,
        end_when_finished: false,
        from_first_arrival: false,
        first_arrival_timeout: None,
    };
    driver.run(&schedule, stop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccsim_core::{Addr, Ecn};
    use ccsim_protocols::TicpRequest;

    const SECRET: &[u8] = b"a shared secret of the session";

    fn packet(header: Hdr, size: u32) -> Packet<Hdr> {
        Packet {
            src: Addr::default(),
            dst: Addr::default(),
            flow: FlowId(1),
            size,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header,
        }
    }

    /// The bytes a source puts after a report's private header, answering a request of the
    /// collector's session.
    fn report_bytes(
        collector: &mut CollectorPayload,
        secret: &[u8],
        source: u32,
        echo: SimTime,
    ) -> Vec<u8> {
        let request = packet(
            Hdr::TicpRequest(Box::new(TicpRequest {
                stamp: echo,
                ids: vec![source],
                relay: false,
            })),
            64,
        );
        let mut tagged = Vec::new();
        collector.outgoing(&request, &mut tagged);
        let mut host = SourcePayload::new(secret, |id: u32| format!("load of {id}").into_bytes());
        assert!(host.incoming(&request, &tagged, SimTime::ZERO));
        let mut out = Vec::new();
        host.outgoing(&packet(Hdr::TicpReport { source, echo }, 1000), &mut out);
        out
    }

    #[test]
    fn hmac_sha256_matches_rfc_4231_test_case_2() {
        // RFC 4231 section 4.3: key "Jefe", data "what do ya want for nothing?".
        let mut m = mac(b"Jefe");
        m.update(b"what do ya want for nothing?");
        let hex: String = m
            .finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            hex,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn a_true_report_is_taken_once_and_forgeries_and_replays_are_counted() {
        let mut c = CollectorPayload::new(SECRET, 7);
        let echo = SimTime(123_456);
        let report = packet(Hdr::TicpReport { source: 3, echo }, 1000);
        let bytes = report_bytes(&mut c, SECRET, 3, echo);
        assert!(c.incoming(&report, &bytes, SimTime(5)));
        assert_eq!(c.reports[0].content, b"load of 3");
        // The same datagram again: a replay.
        assert!(!c.incoming(&report, &bytes, SimTime(6)));
        assert_eq!(c.replayed, 1);
        // One content byte changed: the tag fails.
        let mut forged = report_bytes(&mut c, SECRET, 4, echo);
        forged[SESSION_BYTES + 2] ^= 1;
        assert!(!c.incoming(
            &packet(Hdr::TicpReport { source: 4, echo }, 1000),
            &forged,
            SimTime(7)
        ));
        // A true report claimed for another source: the tag covers the source.
        let other = report_bytes(&mut c, SECRET, 5, echo);
        assert!(!c.incoming(
            &packet(Hdr::TicpReport { source: 6, echo }, 1000),
            &other,
            SimTime(8)
        ));
        // A report of another session (an earlier one, replayed): not this session's.
        let mut earlier = CollectorPayload::new(SECRET, 6);
        let old = report_bytes(&mut earlier, SECRET, 5, echo);
        assert!(!c.incoming(
            &packet(Hdr::TicpReport { source: 5, echo }, 1000),
            &old,
            SimTime(9)
        ));
        // A report under another secret.
        let mut stranger = CollectorPayload::new(b"someone else's secret!!", 7);
        let theirs = report_bytes(&mut stranger, b"someone else's secret!!", 8, echo);
        assert!(!c.incoming(
            &packet(Hdr::TicpReport { source: 8, echo }, 1000),
            &theirs,
            SimTime(10)
        ));
        assert_eq!((c.forged, c.replayed, c.reports.len()), (4, 1, 1));
        // Too short to hold its fields.
        assert!(!c.incoming(&report, &bytes[..20], SimTime(11)));
        assert_eq!(c.malformed, 1);
    }

    #[test]
    fn a_source_answers_only_requests_that_verify_and_cuts_long_reports() {
        let mut c = CollectorPayload::new(SECRET, 9);
        let request = packet(
            Hdr::TicpRequest(Box::new(TicpRequest {
                stamp: SimTime(1),
                ids: vec![0],
                relay: false,
            })),
            64,
        );
        let mut tagged = Vec::new();
        c.outgoing(&request, &mut tagged);
        let mut host = SourcePayload::new(SECRET, |_: u32| vec![b'x'; 5000]);
        let mut bad = tagged.clone();
        bad[SESSION_BYTES] ^= 0x80;
        assert!(!host.incoming(&request, &bad, SimTime::ZERO));
        assert_eq!(host.rejected_requests, 1);
        // Without a verified request, a report carries nothing.
        let report = packet(
            Hdr::TicpReport {
                source: 0,
                echo: SimTime(1),
            },
            1000,
        );
        let mut out = Vec::new();
        host.outgoing(&report, &mut out);
        assert!(out.is_empty());
        assert!(host.incoming(&request, &tagged, SimTime::ZERO));
        host.outgoing(&report, &mut out);
        // 1000 bytes on the wire: 28 of IPv4 and UDP, 32 of private header, the rest here.
        assert_eq!(out.len(), 1000 - 28 - REPORT_HEADER_BYTES);
        assert_eq!(host.truncated, 1);
        assert!(c.incoming(&report, &out, SimTime(2)));
        assert_eq!(c.reports[0].content.len(), 1000 - 28 - 32 - REPORT_OVERHEAD);
    }
}
