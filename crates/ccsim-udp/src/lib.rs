//! ccsim-udp: any built-in agent over real UDP sockets.
//!
//! The agents of ccsim-protocols are sans-IO state machines (ccsim-core's `agent` module):
//! they see a clock, packets and timers, and act through a context. The simulator drives them
//! from its event queue; [`Driver`] drives one of them from a monotonic clock and a UDP
//! socket. One loop waits for the earliest of the agent's timers and a datagram, feeds
//! `on_timer` or `on_packet`, and sends what the agent emitted. Each packet travels as one
//! datagram holding the simulator's private header (ccsim-wire, docs/pcap.md), padded with
//! zeros so that the IP packet the network carries has the size the agent gave it: a real
//! 1000-byte packet where the simulator moved a 1000-byte packet.
//!
//! The driver depends on ccsim-core, ccsim-protocols and ccsim-wire, never on the engine: an
//! agent that runs here is the one the simulator runs, with nothing of the simulator around
//! it.
//!
//! CHOICE: over real sockets an agent's address is `Addr { node: a, agent: a }` for its agent
//! number `a` (the private header carries agent numbers, not nodes); where to send is a table
//! of agent numbers to socket addresses, given for the peer a sender starts with and learnt
//! from each datagram's source for the others (the latest source wins, as a NAT rebinding
//! would want).
//! CHOICE: a received packet's `sent_at` is its arrival time: the driver cannot read a
//! sender's clock. (The simulator's agents read it only in tests and for the one-way delays
//! a UDP sink may record.)
//! CHOICE: a packet whose encoding is longer than its size less the 28 bytes of IPv4 and UDP
//! headers leaves at the encoding's length (TICP's and Primo's small messages), as the pcap
//! writer shows it.
//! CHOICE: a timer is waited for with `ppoll` and a 1 ns timer slack until [`SPIN`] before its
//! deadline, then by polling the socket without blocking: each firing's lateness is measured
//! and reported ([`Report::timer_lateness`]).
//! CHOICE: the ECN field of a sent packet is set per change of codepoint with `IP_TOS` (one
//! system call when the agent switches between, say, ECT(0) and Not-ECT); a received packet's
//! is read from `IP_RECVTOS`. IPv4 only.
//! CHOICE: multicast (`relay`, `join_group`, `leave_group`) does not exist between sockets:
//! each such call is counted ([`Report::unsupported_calls`]) and otherwise ignored.

pub mod sys;
pub mod ticp;

pub use ccsim_core::{Dur, SimTime};

use std::io;
use std::net::{SocketAddr, SocketAddrV4, UdpSocket};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ccsim_core::{
    Addr, Agent, AgentStats, Ctx, Ecn, Header, LogHistogram, Packet, RngStream, TimerSlot, VarId,
};
use ccsim_protocols::Hdr;
use ccsim_wire::{decode_private, encode_private};

/// Bytes of the IPv4 and UDP headers the kernel puts before each datagram.
pub const IP_UDP_HEADER_BYTES: u32 = 28;
/// How long before a deadline the driver stops sleeping and polls.
pub const SPIN: Duration = Duration::from_micros(20);
/// The largest datagram the driver reads (a whole IPv4 packet's payload).
const MAX_DATAGRAM: usize = 65_535;

/// The address an agent numbered `agent` has over real sockets (module CHOICE).
#[must_use]
pub const fn addr_of(agent: u32) -> Addr {
    Addr { node: agent, agent }
}

/// When the driver does what, from the moment [`Driver::run`] is called (time 0 of the
/// agent's clock).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// When `on_start` is called.
    pub start: Dur,
    /// When `on_stop` is called (the agent stops offering new data), if ever.
    pub stop: Option<Dur>,
    /// When the run ends, whatever the agent is doing.
    pub end: Dur,
    /// The start of the measurement window: the agent's counters are kept at this time.
    pub warmup: Dur,
    /// End the run once a datagram has come and then none for this long (a receiver, which
    /// cannot know when its sender stops); any datagram counts, rejected and malformed ones too.
    pub idle_end: Option<Dur>,
    /// End the run when the agent says its work is done (a finite transfer acknowledged).
    pub end_when_finished: bool,
    /// Count `end` and `warmup` from the first datagram's arrival rather than from time 0
    /// (a receiver, started before its sender: its window is then the sender's, shifted by
    /// one one-way delay).
    pub from_first_arrival: bool,
    /// With `from_first_arrival`, end the run if nothing has arrived after this long.
    pub first_arrival_timeout: Option<Dur>,
}

/// What the driver traces of its agent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tracing {
    /// Variables sampled every `interval`, with the agent's counters.
    pub sampled: Vec<VarId>,
    /// The sampling interval (`None`: no samples).
    pub interval: Option<Dur>,
    /// Variables recorded at every change.
    pub on_change: Vec<VarId>,
}

/// One sample of the agent's counters and sampled variables.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Time on the agent's clock.
    pub at: SimTime,
    /// Application bytes delivered in order so far.
    pub app_bytes_delivered: u64,
    /// Bytes of the data packets sent so far (as IP packets).
    pub data_bytes_sent: u64,
    /// The sampled variables' values, in [`Tracing::sampled`]'s order (NaN if absent).
    pub values: Vec<f64>,
}

/// What a run did.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// How long the run lasted on the agent's clock.
    pub elapsed: Dur,
    /// The agent's counters at the end.
    pub stats: AgentStats,
    /// The agent's counters at the warm-up (`None` if the run ended before it).
    pub stats_at_warmup: Option<AgentStats>,
    /// Datagrams sent.
    pub sent_packets: u64,
    /// Their sizes as IP packets, bytes (the agents' sizes, or the encoding's where longer).
    pub sent_bytes: u64,
    /// Data packets among them (the header's `is_data`).
    pub sent_data_packets: u64,
    /// Their bytes.
    pub sent_data_bytes: u64,
    /// Data packets sent after the warm-up.
    pub sent_data_packets_after_warmup: u64,
    /// Their bytes.
    pub sent_data_bytes_after_warmup: u64,
    /// Sends the kernel refused (e.g. `ENOBUFS`, an unreachable peer).
    pub send_errors: u64,
    /// Packets the agent sent to an agent whose socket address was unknown.
    pub unroutable: u64,
    /// Datagrams received and handed to the agent.
    pub received_packets: u64,
    /// Their sizes as IP packets, bytes.
    pub received_bytes: u64,
    /// Data packets among them.
    pub received_data_packets: u64,
    /// Received packets whose IP header said CE.
    pub received_ce: u64,
    /// Datagrams that were not a well-formed private header, or were cut by the buffer.
    pub malformed: u64,
    /// Well-formed datagrams addressed to another agent.
    pub misaddressed: u64,
    /// Datagrams the [`Payload`] kept from the agent (a bad authentication tag, a replay).
    pub rejected: u64,
    /// Multicast calls the agent made (module CHOICE).
    pub unsupported_calls: u64,
    /// How late each timer fired, ns.
    pub timer_lateness: LogHistogram,
    /// When the first and the last datagram arrived.
    pub first_arrival: Option<SimTime>,
    /// See `first_arrival`.
    pub last_arrival: Option<SimTime>,
    /// When the agent said its work was done.
    pub finished_at: Option<SimTime>,
    /// The samples, every [`Tracing::interval`].
    pub samples: Vec<Sample>,
    /// Changes of the [`Tracing::on_change`] variables: (time, variable, value).
    pub changes: Vec<(SimTime, VarId, f64)>,
    /// Whether the run was stopped from outside (the stop flag).
    pub interrupted: bool,
    /// Time 0 of the schedule's `warmup` and `end` on the agent's clock: 0, or the first
    /// arrival with `from_first_arrival` (`None` if nothing arrived then).
    pub anchor: Option<SimTime>,
    /// The measurement window on the agent's clock: from the warm-up to the run's end
    /// (`None` if the run ended before the warm-up).
    pub window: Option<(SimTime, SimTime)>,
}

impl Report {
    fn new() -> Report {
        Report {
            elapsed: Dur::ZERO,
            stats: AgentStats::default(),
            stats_at_warmup: None,
            sent_packets: 0,
            sent_bytes: 0,
            sent_data_packets: 0,
            sent_data_bytes: 0,
            sent_data_packets_after_warmup: 0,
            sent_data_bytes_after_warmup: 0,
            send_errors: 0,
            unroutable: 0,
            received_packets: 0,
            received_bytes: 0,
            received_data_packets: 0,
            received_ce: 0,
            malformed: 0,
            misaddressed: 0,
            rejected: 0,
            unsupported_calls: 0,
            timer_lateness: LogHistogram::default(),
            first_arrival: None,
            last_arrival: None,
            finished_at: None,
            samples: Vec::new(),
            changes: Vec::new(),
            interrupted: false,
            anchor: None,
            window: None,
        }
    }
}

/// What a deployment carries after the private header of its datagrams, where a simulated
/// packet has only zeros: a report's content, an authentication tag. It sees every packet the
/// agent sends and every one it receives, and may keep a received packet from the agent.
pub trait Payload {
    /// Append the bytes that follow `pkt`'s private header (the driver pads with zeros to the
    /// packet's size after them).
    fn outgoing(&mut self, _pkt: &Packet<Hdr>, _buf: &mut Vec<u8>) {}
    /// Whether a received packet, whose private header is followed by `trailing`, goes to the
    /// agent (false: counted in [`Report::rejected`] and dropped).
    fn incoming(&mut self, _pkt: &Packet<Hdr>, _trailing: &[u8], _now: SimTime) -> bool {
        true
    }
}

/// The payload of a simulated packet: zeros.
#[derive(Clone, Copy, Debug, Default)]
pub struct Zeros;

impl Payload for Zeros {}

/// One agent on one UDP socket.
pub struct Driver<A, P = Zeros> {
    agent: A,
    socket: UdpSocket,
    local: Addr,
    rng: RngStream,
    peers: Vec<(u32, SocketAddrV4)>,
    tracing: Tracing,
    payload: P,
    any_destination: bool,
}

/// The context an agent acts through: what it does is collected, then carried out by the
/// driver.
struct RealCtx<'a> {
    now: SimTime,
    local: Addr,
    outbox: &'a mut Vec<Packet<Hdr>>,
    timers: &'a mut [Option<SimTime>; TimerSlot::MAX],
    rng: &'a mut RngStream,
    on_change: &'a [VarId],
    changes: &'a mut Vec<(SimTime, VarId, f64)>,
    unsupported: &'a mut u64,
    finished: &'a mut bool,
}

impl Ctx<Hdr> for RealCtx<'_> {
    fn now(&self) -> SimTime {
        self.now
    }
    fn addr(&self) -> Addr {
        self.local
    }
    fn send(&mut self, mut pkt: Packet<Hdr>) {
        pkt.src = self.local;
        pkt.sent_at = self.now;
        self.outbox.push(pkt);
    }
    fn set_timer(&mut self, slot: TimerSlot, at: SimTime) {
        if let Some(t) = self.timers.get_mut(usize::from(slot.0)) {
            *t = Some(at);
        }
    }
    fn cancel_timer(&mut self, slot: TimerSlot) {
        if let Some(t) = self.timers.get_mut(usize::from(slot.0)) {
            *t = None;
        }
    }
    fn rng(&mut self) -> &mut RngStream {
        self.rng
    }
    fn tracing(&self, var: VarId) -> bool {
        self.on_change.contains(&var)
    }
    fn trace(&mut self, var: VarId, value: f64) {
        if self.on_change.contains(&var) {
            self.changes.push((self.now, var, value));
        }
    }
    fn relay(&mut self, _pkt: Packet<Hdr>) {
        *self.unsupported += 1;
    }
    fn join_group(&mut self, _key: u32) {
        *self.unsupported += 1;
    }
    fn leave_group(&mut self, _key: u32) {
        *self.unsupported += 1;
    }
    fn finish(&mut self) {
        *self.finished = true;
    }
}

fn ecn_of_tos(tos: u8) -> Ecn {
    match tos & 0b11 {
        0b00 => Ecn::NotEct,
        0b10 => Ecn::Ect,
        0b01 => Ecn::Ect1,
        _ => Ecn::Ce,
    }
}

fn tos_of_ecn(ecn: Ecn) -> u8 {
    match ecn {
        Ecn::NotEct => 0b00,
        Ecn::Ect => 0b10,
        Ecn::Ect1 => 0b01,
        Ecn::Ce => 0b11,
    }
}

/// The mutable state of one run.
struct Run {
    report: Report,
    timers: [Option<SimTime>; TimerSlot::MAX],
    outbox: Vec<Packet<Hdr>>,
    finished: bool,
    tos: u8,
    encoded: Vec<u8>,
    warm: bool,
    /// When the latest datagram of any kind came.
    last_datagram: Option<SimTime>,
}

impl<A: Agent<Hdr>> Driver<A, Zeros> {
    /// A driver for `agent`, known to its peers as agent number `local_agent`, on `socket`
    /// (bound, IPv4), drawing from `rng`; its datagrams are padded with zeros.
    ///
    /// # Errors
    /// If the socket is not IPv4 or refuses the options the driver needs.
    pub fn new(agent: A, local_agent: u32, socket: UdpSocket, rng: RngStream) -> io::Result<Self> {
        Driver::with_payload(agent, local_agent, socket, rng, Zeros)
    }
}

impl<A: Agent<Hdr>, P: Payload> Driver<A, P> {
    /// [`Driver::new`] with `payload` carried after the private headers.
    ///
    /// # Errors
    /// If the socket is not IPv4 or refuses the options the driver needs.
    pub fn with_payload(
        agent: A,
        local_agent: u32,
        socket: UdpSocket,
        rng: RngStream,
        payload: P,
    ) -> io::Result<Self> {
        if !socket.local_addr()?.is_ipv4() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the UDP driver speaks IPv4 only",
            ));
        }
        sys::enable_recv_tos(socket.as_raw_fd())?;
        sys::set_tos(socket.as_raw_fd(), 0)?;
        Ok(Driver {
            agent,
            socket,
            local: addr_of(local_agent),
            rng,
            peers: Vec::new(),
            tracing: Tracing::default(),
            payload,
            any_destination: false,
        })
    }

    /// Hand the agent datagrams addressed to any agent number (a TICP landmark, which answers
    /// whoever probes it, whatever number the prober gave it), not only its own.
    pub fn accept_any_destination(&mut self) {
        self.any_destination = true;
    }

    /// The payload (its state after a run).
    pub fn payload(&self) -> &P {
        &self.payload
    }

    /// Send what the agent addresses to agent number `agent` to `to` (until a datagram from
    /// that agent says otherwise).
    pub fn add_peer(&mut self, agent: u32, to: SocketAddrV4) {
        self.learn(agent, to);
    }

    /// Trace the agent as `tracing` says.
    pub fn set_tracing(&mut self, tracing: Tracing) {
        self.tracing = tracing;
    }

    /// The agent (its state after a run).
    pub fn agent(&self) -> &A {
        &self.agent
    }

    fn learn(&mut self, agent: u32, to: SocketAddrV4) {
        match self.peers.iter_mut().find(|(a, _)| *a == agent) {
            Some(p) => p.1 = to,
            None => self.peers.push((agent, to)),
        }
    }

    /// Run the agent on `schedule` until its end, the idle or finish condition, or until
    /// `stop` becomes true (checked at least every 50 ms).
    ///
    /// # Errors
    /// If the socket fails in a way other than a refused send (counted instead).
    pub fn run(&mut self, schedule: &Schedule, stop: &AtomicBool) -> io::Result<Report> {
        self.run_while(schedule, stop, |_| true)
    }

    /// [`Driver::run`], also ending as soon as `going` says false of the agent (checked after
    /// each of its inputs).
    ///
    /// # Errors
    /// As [`Driver::run`].
    pub fn run_while(
        &mut self,
        schedule: &Schedule,
        stop: &AtomicBool,
        mut going: impl FnMut(&A) -> bool,
    ) -> io::Result<Report> {
        sys::tight_timer_slack();
        let origin = Instant::now();
        let now = || SimTime(u64::try_from(origin.elapsed().as_nanos()).unwrap_or(u64::MAX));
        let fd = self.socket.as_raw_fd();
        let mut run = Run {
            report: Report::new(),
            timers: [None; TimerSlot::MAX],
            outbox: Vec::new(),
            finished: false,
            tos: 0,
            encoded: Vec::with_capacity(256),
            warm: false,
            last_datagram: None,
        };
        let mut buf = vec![0u8; MAX_DATAGRAM];
        let (mut started, mut stopped) = (false, false);
        let start = SimTime(schedule.start.0);
        let stop_at = schedule.stop.map(|d| SimTime(d.0));
        // The end and the warm-up, once known (with `from_first_arrival`, at the first
        // datagram; until then the end is the first-arrival timeout).
        let anchored = |base: SimTime| {
            (
                SimTime(base.0.saturating_add(schedule.end.0)),
                SimTime(base.0.saturating_add(schedule.warmup.0)),
            )
        };
        let (mut end, mut warmup) = if schedule.from_first_arrival {
            (
                schedule
                    .first_arrival_timeout
                    .map_or(SimTime::NEVER, |d| SimTime(d.0)),
                SimTime::NEVER,
            )
        } else {
            anchored(SimTime::ZERO)
        };
        let mut anchor_pending = schedule.from_first_arrival;
        let interval = self.tracing.interval.filter(|d| d.0 > 0);
        let mut next_sample = interval.map(|_| SimTime::ZERO);
        loop {
            let t = now();
            if stop.load(Ordering::Relaxed) {
                run.report.interrupted = true;
                break;
            }
            if t >= end {
                break;
            }
            if schedule.end_when_finished && run.finished {
                break;
            }
            if started && !going(&self.agent) {
                break;
            }
            if let (Some(idle), Some(last)) = (schedule.idle_end, run.last_datagram) {
                if t.0.saturating_sub(last.0) >= idle.0 {
                    break;
                }
            }
            if !run.warm && t >= warmup {
                run.warm = true;
                run.report.stats_at_warmup = Some(self.agent.stats());
            }
            if let Some(at) = next_sample.filter(|&at| at <= t) {
                self.sample(&mut run, at);
                next_sample = interval.map(|d| SimTime(at.0 + d.0));
                continue;
            }
            if !started {
                if t >= start {
                    started = true;
                    self.act(&mut run, t, |agent, ctx| agent.on_start(ctx));
                    self.flush(&mut run)?;
                    continue;
                }
            } else {
                let due = run
                    .timers
                    .iter()
                    .enumerate()
                    .filter_map(|(i, at)| at.map(|at| (at, i)))
                    .filter(|&(at, _)| at <= t)
                    .min();
                if let Some((at, i)) = due {
                    run.timers[i] = None;
                    run.report.timer_lateness.record(t.0 - at.0);
                    let slot = TimerSlot(i as u8);
                    self.act(&mut run, t, |agent, ctx| agent.on_timer(slot, ctx));
                    self.flush(&mut run)?;
                    continue;
                }
                if !stopped && stop_at.is_some_and(|s| t >= s) {
                    stopped = true;
                    self.act(&mut run, t, |agent, ctx| agent.on_stop(ctx));
                    self.flush(&mut run)?;
                    continue;
                }
            }
            if started {
                if let Some(r) = sys::recv_with_tos(fd, &mut buf)? {
                    self.receive(&mut run, now(), &buf[..r.len], r)?;
                    if anchor_pending {
                        if let Some(first) = run.report.first_arrival {
                            anchor_pending = false;
                            (end, warmup) = anchored(first);
                        }
                    }
                    continue;
                }
            }
            // Nothing due: wait for a datagram or the next deadline.
            let mut deadline = end;
            if !started {
                deadline = deadline.min(start);
            } else {
                for at in run.timers.iter().flatten() {
                    deadline = deadline.min(*at);
                }
                if !stopped {
                    if let Some(s) = stop_at {
                        deadline = deadline.min(s);
                    }
                }
            }
            if !run.warm {
                deadline = deadline.min(warmup);
            }
            if let Some(s) = next_sample {
                deadline = deadline.min(s);
            }
            let t = now();
            let wait =
                Duration::from_nanos(deadline.0.saturating_sub(t.0)).min(Duration::from_millis(50));
            if !started && wait > SPIN {
                std::thread::sleep(wait - SPIN);
            } else if wait > SPIN {
                sys::wait_readable(fd, wait - SPIN)?;
            } else {
                std::hint::spin_loop();
            }
        }
        let t = now();
        run.report.elapsed = Dur(t.0);
        run.report.stats = self.agent.stats();
        run.report.anchor = if schedule.from_first_arrival {
            run.report.first_arrival
        } else {
            Some(SimTime::ZERO)
        };
        run.report.window = run.warm.then_some((warmup, t.min(end)));
        Ok(run.report)
    }

    /// Call the agent through a context at time `t`.
    fn act(&mut self, run: &mut Run, t: SimTime, f: impl FnOnce(&mut A, &mut RealCtx<'_>)) {
        let mut ctx = RealCtx {
            now: t,
            local: self.local,
            outbox: &mut run.outbox,
            timers: &mut run.timers,
            rng: &mut self.rng,
            on_change: &self.tracing.on_change,
            changes: &mut run.report.changes,
            unsupported: &mut run.report.unsupported_calls,
            finished: &mut run.finished,
        };
        f(&mut self.agent, &mut ctx);
        if run.finished && run.report.finished_at.is_none() {
            run.report.finished_at = Some(t);
        }
    }

    fn sample(&self, run: &mut Run, at: SimTime) {
        let stats = self.agent.stats();
        run.report.samples.push(Sample {
            at,
            app_bytes_delivered: stats.app_bytes_delivered,
            data_bytes_sent: run.report.sent_data_bytes,
            values: self
                .tracing
                .sampled
                .iter()
                .map(|&v| self.agent.var(v).unwrap_or(f64::NAN))
                .collect(),
        });
    }

    fn receive(
        &mut self,
        run: &mut Run,
        t: SimTime,
        bytes: &[u8],
        r: sys::Received,
    ) -> io::Result<()> {
        run.last_datagram = Some(t);
        if r.truncated {
            run.report.malformed += 1;
            return Ok(());
        }
        let Ok(m) = decode_private(bytes) else {
            run.report.malformed += 1;
            return Ok(());
        };
        if m.dst_agent != self.local.agent && !self.any_destination {
            run.report.misaddressed += 1;
            return Ok(());
        }
        self.learn(m.src_agent, r.from);
        let ecn = ecn_of_tos(r.tos);
        // The private header's own length is its bytes 6-7 (docs/pcap.md); what follows is
        // the payload.
        let header_len = usize::from(u16::from_be_bytes([bytes[6], bytes[7]]));
        let trailing = bytes.get(header_len..).unwrap_or(&[]);
        let pkt = Packet {
            src: addr_of(m.src_agent),
            dst: self.local,
            flow: m.flow,
            size: m.size,
            sent_at: t,
            ecn,
            header: m.header,
        };
        if !self.payload.incoming(&pkt, trailing, t) {
            run.report.rejected += 1;
            return Ok(());
        }
        let rep = &mut run.report;
        rep.received_packets += 1;
        rep.received_bytes += u64::from(pkt.size);
        rep.received_data_packets += u64::from(pkt.header.is_data());
        rep.received_ce += u64::from(ecn == Ecn::Ce);
        rep.first_arrival.get_or_insert(t);
        rep.last_arrival = Some(t);
        self.act(run, t, |agent, ctx| agent.on_packet(&pkt, ctx));
        self.flush(run)
    }

    /// Send every packet the agent emitted.
    fn flush(&mut self, run: &mut Run) -> io::Result<()> {
        let fd = self.socket.as_raw_fd();
        for pkt in std::mem::take(&mut run.outbox) {
            let Some(&(_, to)) = self.peers.iter().find(|(a, _)| *a == pkt.dst.agent) else {
                run.report.unroutable += 1;
                continue;
            };
            run.encoded.clear();
            encode_private(&pkt, &mut run.encoded);
            self.payload.outgoing(&pkt, &mut run.encoded);
            let payload =
                (pkt.size.saturating_sub(IP_UDP_HEADER_BYTES) as usize).min(MAX_DATAGRAM - 8);
            if run.encoded.len() < payload {
                run.encoded.resize(payload, 0);
            }
            let tos = tos_of_ecn(pkt.ecn);
            if tos != run.tos {
                sys::set_tos(fd, tos)?;
                run.tos = tos;
            }
            let size = run.encoded.len() as u64 + u64::from(IP_UDP_HEADER_BYTES);
            match self.socket.send_to(&run.encoded, SocketAddr::V4(to)) {
                Ok(_) => {
                    let rep = &mut run.report;
                    rep.sent_packets += 1;
                    rep.sent_bytes += size;
                    if pkt.header.is_data() {
                        rep.sent_data_packets += 1;
                        rep.sent_data_bytes += size;
                        if run.warm {
                            rep.sent_data_packets_after_warmup += 1;
                            rep.sent_data_bytes_after_warmup += size;
                        }
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => run.report.send_errors += 1,
                Err(e) if e.raw_os_error().is_some() && e.kind() != io::ErrorKind::InvalidInput => {
                    run.report.send_errors += 1;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}
