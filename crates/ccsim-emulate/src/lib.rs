//! A link emulator for real processes: IP packets read from one TUN device cross ccsim's own
//! link and queue code, driven in real time, and are written to the other TUN device
//! (research note next.md section 5.4; the design of mahimahi's shells, with nanosecond rather
//! than millisecond timing).
//!
//! Each direction is a [`ccsim_engine::Sim`] of two nodes and one link with the link's
//! settings (rate, propagation delay, DropTail, RED with ECN, step marking, DualPI2, random
//! loss), run by its own thread: a packet read from the input device enters the simulation
//! at the instant it is read, and leaves at its simulated arrival instant at the far end. So
//! the emulated link is exactly the simulated one: the serialiser counts the bytes of the IP
//! packet (what a TUN device carries), and a queue marks CE in the packet itself (the IPv4
//! checksum kept valid by ccsim-wire's `ecn`).
//!
//! Real-time release (research note modern-tcp.md section 4.3, measured on this kind of
//! machine): each thread asks for `SCHED_FIFO` and a 1 ns timer slack, waits for its next
//! deadline or an input packet with `ppoll`, and spins for the last 50 us. Every release's
//! lateness (the instant its write starts minus its simulated arrival instant) goes into a
//! log-linear histogram (the engine's `dualpi2::Sojourn`, 64 buckets per octave, fixed size),
//! reported per direction.
//!
//! CHOICE: a packet read in a batch enters at the instant of its read (the batch is read as
//! it comes, one `read` per packet); the input side's own delay (the kernel queueing the
//! packet on the TUN device) is not measured.
//! CHOICE: the threads look at the stop flag at least every 10 ms; packets still in the
//! emulated link when they stop are discarded and counted (`in_link_at_stop`).
//! CHOICE: a packet that is neither a well-formed IPv4 packet nor IPv6 (none should come from
//! a TUN device without packet information) crosses as Not-ECT; its ECN field is read and
//! marked by ccsim-wire (`ecn`).
//!
//! Unequal round trips ([`PortDelay`]): the packets of a TCP or UDP port (source or
//! destination) cross an access link of their own on the client's side, with its propagation
//! delay each way, as a dumbbell's flows reach its bottleneck over access links of different
//! lengths: in the client-to-server direction before the shared link, back after it.
//! CHOICE: the access link has no queue to speak of (1 Tbit/s, a million packets) and its own
//! propagation pipe, so a packet of one port never waits behind another port's.
//! CHOICE: a port is read from an IPv4 packet's transport header when it is the first
//! fragment, and from an IPv6 packet only when its next header is TCP or UDP (no extension
//! headers); other packets cross without an access link.

mod sys;

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use ccsim_core::{Addr, Agent, Ctx, Dur, Ecn, Header, Packet, Rate, SimTime, TimerSlot};
use ccsim_engine::dualpi2::Sojourn;
pub use ccsim_engine::LinkConfig;
use ccsim_engine::{Discipline, DropReason, QueueLimit, SeriesConfig, Sim};
use ccsim_udp::sys::wait_readable;
pub use sys::open_tun_in_netns;

/// The last stretch before a deadline spent spinning rather than sleeping.
const SPIN: Duration = Duration::from_micros(50);
/// The longest a thread waits before looking at the stop flag.
const STOP_CHECK: Duration = Duration::from_millis(10);
/// The largest IP packet a TUN device hands over.
const MAX_PACKET: usize = 65_536;
/// An access link's rate and queue limit ([`PortDelay`]): far from ever queueing.
const ACCESS_RATE_BPS: u64 = 1_000_000_000_000;
const ACCESS_LIMIT_PACKETS: u64 = 1_000_000;

/// The packets of one TCP or UDP port, source or destination, cross an extra propagation
/// delay each way on the client's side of the emulated link (the module's "Unequal round
/// trips").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortDelay {
    /// The port.
    pub port: u16,
    /// The access link's one-way propagation delay.
    pub delay: Dur,
}

/// The TCP or UDP source and destination ports of an IP packet, when it has them.
fn transport_ports(packet: &[u8]) -> Option<(u16, u16)> {
    let (proto, header) = match packet.first()? >> 4 {
        4 => {
            let ihl = usize::from(packet.first()? & 0x0f) * 4;
            let fragment_offset = u16::from_be_bytes([*packet.get(6)?, *packet.get(7)?]) & 0x1fff;
            if ihl < 20 || fragment_offset != 0 {
                return None;
            }
            (*packet.get(9)?, ihl)
        }
        6 => (*packet.get(6)?, 40),
        _ => return None,
    };
    if proto != 6 && proto != 17 {
        return None;
    }
    let ports = packet.get(header..header + 4)?;
    Some((
        u16::from_be_bytes([ports[0], ports[1]]),
        u16::from_be_bytes([ports[2], ports[3]]),
    ))
}

/// The index in `delays` of the first entry whose port the packet carries.
fn port_class(packet: &[u8], delays: &[PortDelay]) -> Option<usize> {
    if delays.is_empty() {
        return None;
    }
    let (src, dst) = transport_ports(packet)?;
    delays.iter().position(|d| d.port == src || d.port == dst)
}

/// An IP packet as the emulated link carries it: its bytes.
#[derive(Clone, Debug)]
pub struct RawIp(Box<[u8]>);

impl Header for RawIp {
    fn is_data(&self) -> bool {
        true
    }
}

/// A packet the far end received, to be written at its instant.
struct Release {
    at: SimTime,
    bytes: Box<[u8]>,
    ce: bool,
}

/// The two ends of an emulated direction: where packets enter, and where they arrive.
enum Port {
    Entry,
    Exit(Vec<Release>),
}

impl Agent<RawIp> for Port {
    fn on_start<C: Ctx<RawIp>>(&mut self, _ctx: &mut C) {}

    fn on_packet<C: Ctx<RawIp>>(&mut self, pkt: &Packet<RawIp>, ctx: &mut C) {
        if let Port::Exit(out) = self {
            out.push(Release {
                at: ctx.now(),
                bytes: pkt.header.0.clone(),
                ce: pkt.ecn == Ecn::Ce,
            });
        }
    }

    fn on_timer<C: Ctx<RawIp>>(&mut self, _slot: TimerSlot, _ctx: &mut C) {}
}

/// What one direction did.
#[derive(Clone, Debug)]
pub struct DirectionReport {
    /// "client->server" or "server->client".
    pub name: String,
    /// Packets and bytes read from the input device.
    pub packets_in: u64,
    /// Their bytes.
    pub bytes_in: u64,
    /// Packets and bytes written to the output device.
    pub packets_out: u64,
    /// Their bytes.
    pub bytes_out: u64,
    /// Drops by reason (the simulator's names: `queue_full`, `random_loss`, `red_early`, ...),
    /// reasons with none left out.
    pub drops: Vec<(&'static str, u64)>,
    /// Packets the queue marked CE.
    pub ecn_marks: u64,
    /// Packets in the emulated link (queued, in service or propagating) when it stopped.
    pub in_link_at_stop: u64,
    /// Writes the output device refused (the packet is lost).
    pub write_errors: u64,
    /// Release lateness, nanoseconds: the instant a packet's write starts minus its
    /// simulated arrival instant.
    pub lateness: Sojourn,
    /// Whether the thread ran under `SCHED_FIFO`.
    pub realtime: bool,
}

/// What a direction holds and has taken in so far, published by its thread after every
/// round of its loop (for a drain: `ccsim emulate` waits for an empty, quiet link).
#[derive(Debug, Default)]
struct Progress {
    /// Packets in the emulated link: queued, in service or propagating.
    in_link: AtomicU64,
    /// Packets read from the input device.
    packets_in: AtomicU64,
}

/// A running emulator: two threads, one per direction.
pub struct Emulator {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<io::Result<DirectionReport>>>,
    progress: [Arc<Progress>; 2],
}

impl Emulator {
    /// Start forwarding between the client's and the server's TUN devices over a link of
    /// `config` in each direction (each direction its own queue); `seed` seeds the random
    /// loss and the queues' random streams.
    pub fn start(config: &LinkConfig, seed: u64, client: File, server: File) -> io::Result<Self> {
        Self::start_directions([config, config], &[], seed, client, server)
    }

    /// [`Emulator::start`] with a link of its own in each direction: `configs[0]` from the
    /// client to the server, `configs[1]` back; and the ports of `port_delays` each behind an
    /// access link of their own on the client's side.
    pub fn start_directions(
        configs: [&LinkConfig; 2],
        port_delays: &[PortDelay],
        seed: u64,
        client: File,
        server: File,
    ) -> io::Result<Self> {
        let stop = Arc::new(AtomicBool::new(false));
        let epoch = Instant::now();
        let progress = [Arc::new(Progress::default()), Arc::new(Progress::default())];
        let mut threads = Vec::new();
        for (((name, input, output), config), progress) in [
            ("client->server", client.try_clone()?, server.try_clone()?),
            ("server->client", server, client),
        ]
        .into_iter()
        .zip(configs)
        .zip(progress.iter().cloned())
        {
            let config = config.clone();
            let stop = Arc::clone(&stop);
            let port_delays = port_delays.to_vec();
            threads.push(
                std::thread::Builder::new()
                    .name(format!("ccsim {name}"))
                    .spawn(move || {
                        forward(
                            name,
                            &config,
                            &port_delays,
                            seed,
                            &input,
                            &output,
                            &stop,
                            epoch,
                            &progress,
                        )
                    })?,
            );
        }
        Ok(Emulator {
            stop,
            threads,
            progress,
        })
    }

    /// Per direction (client to server, then back): the packets in the emulated link and the
    /// packets read from its input so far, as its thread last published them.
    #[must_use]
    pub fn progress(&self) -> [(u64, u64); 2] {
        self.progress.each_ref().map(|p| {
            (
                p.in_link.load(Ordering::Relaxed),
                p.packets_in.load(Ordering::Relaxed),
            )
        })
    }

    /// Stop both directions and return their reports.
    pub fn stop(self) -> io::Result<Vec<DirectionReport>> {
        self.stop.store(true, Ordering::Relaxed);
        let mut reports = Vec::new();
        for t in self.threads {
            reports.push(
                t.join()
                    .map_err(|_| io::Error::other("an emulator thread panicked"))??,
            );
        }
        Ok(reports)
    }
}

/// Nanoseconds since `epoch`.
fn elapsed_ns(epoch: Instant) -> u64 {
    u64::try_from(epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// One direction's loop: read what comes, run the simulated link up to now, write what
/// arrived, wait for the next deadline or packet.
#[allow(clippy::too_many_arguments)]
fn forward(
    name: &str,
    config: &LinkConfig,
    port_delays: &[PortDelay],
    seed: u64,
    mut input: &File,
    mut output: &File,
    stop: &AtomicBool,
    epoch: Instant,
    progress: &Progress,
) -> io::Result<DirectionReport> {
    let realtime = sys::make_realtime();
    let mut sim: Sim<RawIp, Port> = Sim::new(seed);
    let (from, to) = name.split_once("->").expect("direction names are from->to");
    let a = sim.add_node(from);
    let b = sim.add_node(to);
    let link = sim.add_link(a, b, config.clone());
    let flow = sim.add_flow(name);
    let entry = sim.add_agent(a, flow, "entry", Port::Entry);
    let exit = sim.add_agent(b, flow, "exit", Port::Exit(Vec::new()));
    // Each delayed port's ends: its access link comes before the shared link when the client
    // is this direction's input, after it when the client is its output.
    let client_is_input = from == "client";
    let mut ends = Vec::new();
    let mut exits = vec![exit];
    for d in port_delays {
        let access = LinkConfig {
            rate: Rate(ACCESS_RATE_BPS),
            delay: d.delay,
            limit: QueueLimit::Packets(ACCESS_LIMIT_PACKETS),
            loss: 0.0,
            jitter: Dur::ZERO,
            discipline: Discipline::DropTail,
            trace: None,
        };
        let node = sim.add_node(&format!("client port {}", d.port));
        let label = format!("port {}", d.port);
        if client_is_input {
            sim.add_link(node, a, access);
            ends.push((sim.add_agent(node, flow, &label, Port::Entry), exit));
        } else {
            sim.add_link(b, node, access);
            let port_exit = sim.add_agent(node, flow, &label, Port::Exit(Vec::new()));
            ends.push((entry, port_exit));
            exits.push(port_exit);
        }
    }
    sim.build_routes();
    sim.configure_run(
        SimTime(u64::MAX / 2),
        SimTime::ZERO,
        SeriesConfig::default(),
    );
    let mut report = DirectionReport {
        name: name.to_string(),
        packets_in: 0,
        bytes_in: 0,
        packets_out: 0,
        bytes_out: 0,
        drops: Vec::new(),
        ecn_marks: 0,
        in_link_at_stop: 0,
        write_errors: 0,
        lateness: Sojourn::default(),
        realtime,
    };
    let mut buf = vec![0u8; MAX_PACKET];
    let fd = input.as_raw_fd();
    while !stop.load(Ordering::Relaxed) {
        let now = elapsed_ns(epoch).max(sim.now().0);
        sim.run_until(SimTime(now), u64::MAX);
        loop {
            let n = match input.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            report.packets_in += 1;
            report.bytes_in += n as u64;
            let bytes: Box<[u8]> = buf[..n].into();
            let (src, dst) = port_class(&bytes, port_delays).map_or((entry, exit), |k| ends[k]);
            let pkt = Packet {
                src,
                dst,
                flow,
                size: u32::try_from(n).expect("a TUN packet fits u32"),
                sent_at: SimTime::ZERO,
                ecn: ccsim_wire::ecn::ecn_of(&bytes).unwrap_or(Ecn::NotEct),
                header: RawIp(bytes),
            };
            sim.send_from(src, pkt);
        }
        sim.run_until(SimTime(now + 1), u64::MAX);
        release(&mut sim, &exits, &mut output, epoch, &mut report);
        let dropped = sim.link_stats_now(link).total_drops();
        progress.in_link.store(
            report.packets_in - report.packets_out - report.write_errors - dropped,
            Ordering::Relaxed,
        );
        progress
            .packets_in
            .store(report.packets_in, Ordering::Relaxed);
        wait(sim.next_event_time(), fd, epoch)?;
    }
    let stats = sim.link_stats_now(link);
    report.drops = DropReason::ALL
        .iter()
        .map(|&r| (r.name(), stats.drops[r as usize]))
        .filter(|&(_, n)| n > 0)
        .collect();
    report.ecn_marks = stats.ecn_marks;
    report.in_link_at_stop =
        report.packets_in - report.packets_out - report.write_errors - stats.total_drops();
    Ok(report)
}

/// Write every packet that has arrived at the far end (at any of its `exits`), in the order
/// of arrival, recording its lateness.
fn release(
    sim: &mut Sim<RawIp, Port>,
    exits: &[Addr],
    output: &mut &File,
    epoch: Instant,
    report: &mut DirectionReport,
) {
    let mut arrived = Vec::new();
    for &exit in exits {
        if let Port::Exit(out) = sim.agent_mut(exit) {
            arrived.append(out);
        }
    }
    if exits.len() > 1 {
        arrived.sort_by_key(|r| r.at);
    }
    for mut r in arrived {
        if r.ce {
            ccsim_wire::ecn::mark_ce(&mut r.bytes);
        }
        // The release instant is the write's start: the write itself hands the packet to
        // the receiving kernel, which may process it (TCP, an ACK) before returning.
        report
            .lateness
            .record(elapsed_ns(epoch).saturating_sub(r.at.0));
        // A device takes a packet whole or not at all: a short write counts as an error.
        match output.write(&r.bytes) {
            Ok(n) if n == r.bytes.len() => {
                report.packets_out += 1;
                report.bytes_out += r.bytes.len() as u64;
            }
            Ok(_) | Err(_) => report.write_errors += 1,
        }
    }
}

/// Wait for `deadline` (sleeping, then spinning for its last [`SPIN`]) or until the input
/// is readable, whichever comes first, and at most [`STOP_CHECK`].
fn wait(deadline: Option<SimTime>, fd: i32, epoch: Instant) -> io::Result<()> {
    let now = elapsed_ns(epoch);
    let Some(deadline) = deadline.map(|t| t.0) else {
        wait_readable(fd, STOP_CHECK)?;
        return Ok(());
    };
    if deadline <= now {
        return Ok(());
    }
    let spin = SPIN.as_nanos() as u64;
    if deadline - now > spin {
        let sleep = Duration::from_nanos(deadline - now - spin).min(STOP_CHECK);
        if wait_readable(fd, sleep)? {
            return Ok(());
        }
    }
    while elapsed_ns(epoch) < deadline {
        if wait_readable(fd, Duration::ZERO)? {
            return Ok(());
        }
        std::hint::spin_loop();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An IPv4 packet (RFC 791) of `proto` with a header of `ihl` words, the fragment offset
    /// field `frag`, and the transport header's first four bytes: source and destination port.
    fn ipv4(proto: u8, ihl: u8, frag: u16, sport: u16, dport: u16) -> Vec<u8> {
        let mut p = vec![0u8; usize::from(ihl) * 4 + 8];
        p[0] = 0x40 | ihl;
        p[6..8].copy_from_slice(&frag.to_be_bytes());
        p[9] = proto;
        let h = usize::from(ihl) * 4;
        p[h..h + 2].copy_from_slice(&sport.to_be_bytes());
        p[h + 2..h + 4].copy_from_slice(&dport.to_be_bytes());
        p
    }

    #[test]
    fn tcp_and_udp_ports_are_read_after_the_ip_header_and_its_options() {
        assert_eq!(
            transport_ports(&ipv4(6, 5, 0, 40001, 9001)),
            Some((40001, 9001))
        );
        assert_eq!(
            transport_ports(&ipv4(17, 5, 0, 53, 40002)),
            Some((53, 40002))
        );
        // Options: a 24-byte header.
        assert_eq!(transport_ports(&ipv4(6, 6, 0, 1, 2)), Some((1, 2)));
        // Don't-fragment set (0x4000) is still a first fragment; a later fragment has no ports.
        assert_eq!(transport_ports(&ipv4(6, 5, 0x4000, 1, 2)), Some((1, 2)));
        assert_eq!(transport_ports(&ipv4(6, 5, 0x2000 | 185, 1, 2)), None);
        // ICMP has none; nor has a header shorter than 20 bytes, or a truncated packet.
        assert_eq!(transport_ports(&ipv4(1, 5, 0, 1, 2)), None);
        assert_eq!(transport_ports(&ipv4(6, 4, 0, 1, 2)), None);
        assert_eq!(transport_ports(&ipv4(6, 5, 0, 1, 2)[..22]), None);
        assert_eq!(transport_ports(&[]), None);
        // IPv6 (RFC 8200): next header at byte 6, the transport header after 40 bytes.
        let mut v6 = vec![0u8; 48];
        v6[0] = 0x60;
        v6[6] = 17;
        v6[40..44].copy_from_slice(&[0x9c, 0x41, 0x23, 0x29]);
        assert_eq!(transport_ports(&v6), Some((40001, 9001)));
        v6[6] = 0; // a hop-by-hop extension header: not followed
        assert_eq!(transport_ports(&v6), None);
    }

    #[test]
    fn a_packet_takes_the_first_entry_naming_either_of_its_ports() {
        let delays = [
            PortDelay {
                port: 9001,
                delay: Dur(1),
            },
            PortDelay {
                port: 40001,
                delay: Dur(2),
            },
        ];
        assert_eq!(port_class(&ipv4(6, 5, 0, 40001, 80), &delays), Some(1));
        assert_eq!(port_class(&ipv4(6, 5, 0, 80, 40001), &delays), Some(1));
        assert_eq!(port_class(&ipv4(6, 5, 0, 40001, 9001), &delays), Some(0));
        assert_eq!(port_class(&ipv4(6, 5, 0, 40002, 80), &delays), None);
        assert_eq!(port_class(&ipv4(6, 5, 0, 40001, 80), &[]), None);
    }
}
