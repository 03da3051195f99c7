//! `ccsim real send|recv`: one flow of a scenario file, its sender or its receiver, run over
//! real UDP sockets by ccsim-udp's driver (docs/real-networks.md).
//!
//! The flow's agents are the ones the simulator would run: the whole scenario is built as for
//! a simulation ([`crate::run::build`]: the same keys, checks, defaults, seeds and, for TCP,
//! the initial threshold from the path), and the agent of the chosen end is taken from it.
//! The scenario's links then play no part: the real network carries the packets. Timing comes
//! from `[run]`: the sender starts at the flow's `start`, stops offering data at its `stop`
//! and ends at `duration`; the receiver counts the same window from its first datagram.
//!
//! CHOICE: a receiver ends `duration` after its first datagram, or when nothing has arrived
//! for [`RealOptions::idle_end`] (the sender is gone), or, before anything arrived, after
//! [`RealOptions::first_arrival_timeout`].
//! CHOICE: a finite TCP transfer's sender ends when its last byte is acknowledged.

use std::net::{SocketAddrV4, UdpSocket};
use std::sync::atomic::AtomicBool;

use ccsim_core::{Addr, Agent, Dur, RngStream, VarId};
use ccsim_protocols::AnyAgent;
use ccsim_udp::{Driver, Report, Schedule, Tracing};

use crate::error::ScenarioError;
use crate::netsim::RunOptions;
use crate::spec::flows::{family, Family};
use crate::spec::Spec;

/// Which end of the flow runs here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The sender: it sends to the receiver's address.
    Sender,
    /// The receiver: it answers whoever sends.
    Receiver,
}

impl Role {
    /// "sender" or "receiver".
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Role::Sender => "sender",
            Role::Receiver => "receiver",
        }
    }
}

/// How to run one end of a flow.
#[derive(Clone, Debug)]
pub struct RealOptions {
    /// Sender or receiver.
    pub role: Role,
    /// The flow's name (`None`: the spec's only flow).
    pub flow: Option<String>,
    /// The local socket address to bind.
    pub bind: SocketAddrV4,
    /// The receiver's socket address (the sender's peer).
    pub peer: Option<SocketAddrV4>,
    /// A receiver ends after this long without a datagram.
    pub idle_end: std::time::Duration,
    /// A receiver ends if nothing arrived within this long of its start.
    pub first_arrival_timeout: std::time::Duration,
}

/// What [`run_real`] returns.
#[derive(Clone, Debug)]
pub struct RealOutcome {
    /// The flow's name.
    pub flow: String,
    /// Its protocol's name.
    pub protocol: &'static str,
    /// The role that ran.
    pub role: Role,
    /// The local address actually bound (the port chosen if 0 was asked).
    pub bound: SocketAddrV4,
    /// The spec's measurement window, seconds: warm-up and duration.
    pub warmup_s: f64,
    /// See `warmup_s`.
    pub duration_s: f64,
    /// The variables sampled, in the order of each sample's values.
    pub sampled: Vec<VarId>,
    /// The driver's report.
    pub report: Report,
}

/// Why a real run could not run or went wrong.
#[derive(Debug, thiserror::Error)]
pub enum RealError {
    /// The file or an option is wrong (exit status 2).
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// The socket failed while running.
    #[error("{0}")]
    Io(String),
}

fn spec_err(path: &str, message: String) -> ScenarioError {
    ScenarioError::Spec {
        path: path.into(),
        message,
    }
}

/// Run one end of one flow of `spec` (validated) over a UDP socket until its schedule ends or
/// `stop` becomes true.
///
/// # Errors
/// [`RealError::Scenario`] for a flow that does not exist, is ambiguous or cannot run over
/// sockets, an address that cannot be bound, or a sender without a peer; [`RealError::Io`]
/// when the socket fails while running.
pub fn run_real(
    spec: &Spec,
    options: &RealOptions,
    stop: &AtomicBool,
) -> Result<RealOutcome, RealError> {
    let index = match &options.flow {
        Some(name) => spec
            .flows
            .iter()
            .position(|f| &f.name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = spec.flows.iter().map(|f| f.name.as_str()).collect();
                spec_err(
                    "flow",
                    format!("no flow named {name:?}; the file has {names:?}"),
                )
            })?,
        None => match spec.flows.len() {
            1 => 0,
            0 => {
                let session = if spec.ticp.is_empty() {
                    ""
                } else {
                    " (a TICP session runs over real sockets with `ccsim real ticp`)"
                };
                return Err(spec_err(
                    "flow",
                    format!("the file has no [[flows]] entry to run{session}"),
                )
                .into());
            }
            n => {
                return Err(spec_err(
                    "flow",
                    format!("the file has {n} flows; name the one to run with --flow"),
                )
                .into())
            }
        },
    };
    let f = &spec.flows[index];
    if !matches!(family(f.protocol), Family::Tcp | Family::Rate | Family::Udp)
        || matches!(f.protocol.name(), "xcp" | "obp")
    {
        return Err(spec_err(
            &format!("flows[{index}].protocol"),
            format!(
                "{:?} needs routers that take part (XCP, OBP); it cannot run over plain sockets",
                f.protocol.name()
            ),
        )
        .into());
    }
    let built = crate::run::build(spec, &RunOptions::default())?;
    let (_, sender, receiver) = built.flows[index];
    let (me, peer): (Addr, Addr) = match options.role {
        Role::Sender => (sender, receiver),
        Role::Receiver => (receiver, sender),
    };
    let agent: AnyAgent = built
        .sim
        .take_agent(me)
        .ok_or_else(|| ScenarioError::Internal("the flow's agent is missing".into()))?;
    let socket = UdpSocket::bind(options.bind)
        .map_err(|e| spec_err("bind", format!("cannot bind {}: {e}", options.bind)))?;
    let bound = match socket.local_addr() {
        Ok(std::net::SocketAddr::V4(a)) => a,
        _ => return Err(spec_err("bind", "an IPv4 address is needed".into()).into()),
    };
    let rng = RngStream::new(
        spec.run.seed,
        &format!("agent/{}/{}", f.name, options.role.name()),
    );
    let mut driver = Driver::new(agent, me.agent, socket, rng)
        .map_err(|e| spec_err("bind", format!("cannot set up the socket: {e}")))?;
    if options.role == Role::Sender {
        let to = options
            .peer
            .ok_or_else(|| spec_err("to", "a sender needs the receiver's address".into()))?;
        driver.add_peer(peer.agent, to);
    }
    let sampled: Vec<VarId> = [VarId::Cwnd, VarId::Srtt, VarId::Rate]
        .into_iter()
        .filter(|&v| driver.agent().var(v).is_some())
        .collect();
    driver.set_tracing(Tracing {
        sampled: sampled.clone(),
        interval: Some(Dur(spec.output.interval.0 .0)),
        on_change: Vec::new(),
    });
    let (duration, warmup) = (Dur(spec.run.duration.0 .0), Dur(spec.run.warmup.0 .0));
    let schedule = match options.role {
        Role::Sender => Schedule {
            start: Dur(f.start.0 .0),
            stop: f.stop.map(|s| Dur(s.0 .0)),
            end: duration,
            warmup,
            idle_end: None,
            end_when_finished: f.size.is_some() && family(f.protocol) == Family::Tcp,
            from_first_arrival: false,
            first_arrival_timeout: None,
        },
        Role::Receiver => Schedule {
            start: Dur::ZERO,
            stop: None,
            // The window is the sender's, shifted by its start.
            end: Dur(duration.0.saturating_sub(f.start.0 .0)),
            warmup: Dur(warmup.0.saturating_sub(f.start.0 .0)),
            idle_end: Some(Dur(
                u64::try_from(options.idle_end.as_nanos()).unwrap_or(u64::MAX)
            )),
            end_when_finished: false,
            from_first_arrival: true,
            first_arrival_timeout: Some(Dur(u64::try_from(
                options.first_arrival_timeout.as_nanos(),
            )
            .unwrap_or(u64::MAX))),
        },
    };
    let report = driver
        .run(&schedule, stop)
        .map_err(|e| RealError::Io(format!("UDP socket {bound}: {e}")))?;
    Ok(RealOutcome {
        flow: f.name.clone(),
        protocol: f.protocol.name(),
        role: options.role,
        bound,
        warmup_s: warmup.as_secs_f64(),
        duration_s: duration.as_secs_f64(),
        sampled,
        report,
    })
}

/// The summary of a real run as JSON: `flows[name]` with the fields of a simulated run's
/// flow summary that this end can know (the others null), and `real` with the driver's own
/// counters and timing.
#[must_use]
pub fn real_summary_json(o: &RealOutcome) -> serde_json::Value {
    let r = &o.report;
    let window = r
        .window
        .map(|(a, b)| (b.0.saturating_sub(a.0)) as f64 / 1e9);
    let rate = |bytes: u64| window.filter(|w| *w > 0.0).map(|w| bytes as f64 * 8.0 / w);
    let delivered = r.stats.app_bytes_delivered
        - r.stats_at_warmup.map_or(0, |s| {
            s.app_bytes_delivered.min(r.stats.app_bytes_delivered)
        });
    let receiver = o.role == Role::Receiver;
    let q = |p: f64| r.timer_lateness.quantile_s(p);
    let secs = |t: Option<ccsim_core::SimTime>| t.map(|t| t.as_secs_f64());
    serde_json::json!({
        "flows": {
            o.flow.clone(): {
                "protocol": o.protocol,
                "goodput_bps": if receiver { r.window.and_then(|_| rate(delivered)) } else { None },
                "send_rate_bps": if receiver { None } else { rate(r.sent_data_bytes_after_warmup) },
                "sent_packets": if receiver { None } else { Some(r.sent_data_packets) },
                "sent_bytes": if receiver { None } else { Some(r.sent_bytes) },
                "received_packets": if receiver { Some(r.received_data_packets) } else { None },
                "received_bytes": if receiver { Some(r.received_bytes) } else { None },
                "retransmitted_packets": r.stats.retransmitted_packets,
                "timeouts": r.stats.timeouts,
                "completion_time_s": secs(r.stats.completed_at),
            }
        },
        "real": {
            "role": o.role.name(),
            "bound": o.bound.to_string(),
            "elapsed_s": r.elapsed.as_secs_f64(),
            "window_s": window,
            "anchor_s": secs(r.anchor),
            "warmup_s": o.warmup_s,
            "duration_s": o.duration_s,
            "datagrams_sent": r.sent_packets,
            "datagram_bytes_sent": r.sent_bytes,
            "datagrams_received": r.received_packets,
            "datagram_bytes_received": r.received_bytes,
            "ce_received": r.received_ce,
            "send_errors": r.send_errors,
            "unroutable": r.unroutable,
            "malformed": r.malformed,
            "misaddressed": r.misaddressed,
            "unsupported_calls": r.unsupported_calls,
            "timer_firings": r.timer_lateness.count,
            "timer_lateness_p50_s": q(0.5),
            "timer_lateness_p99_s": q(0.99),
            "timer_lateness_max_s": (r.timer_lateness.count > 0).then(|| r.timer_lateness.max_ns as f64 / 1e9),
            "first_arrival_s": secs(r.first_arrival),
            "last_arrival_s": secs(r.last_arrival),
            "finished_at_s": secs(r.finished_at),
            "interrupted": r.interrupted,
        }
    })
}
