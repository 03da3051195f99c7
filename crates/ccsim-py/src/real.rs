//! `ccsim real`'s native half: one end of a flow over a UDP socket (`ccsim_scenario::real`),
//! run on a thread of its own while the calling thread watches for Ctrl-C. The command line,
//! the output folder and the series file are Python's (`ccsim/real.py`).

use std::net::SocketAddrV4;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ccsim_scenario::real::{real_summary_json, run_real, RealError, RealOptions, Role};
use ccsim_scenario::{parse_spec_json, ScenarioError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors::{resource_error, to_pyerr};

/// A `ResourceError` for the socket bound at `bound`: `who` failed on it with `e`.
fn socket_error(py: Python<'_>, who: &str, bound: SocketAddrV4, e: &std::io::Error) -> PyErr {
    resource_error(py, &format!("{who} on {bound}: {e}"), &bound.to_string())
}

fn address(py: Python<'_>, field: &str, text: &str) -> PyResult<SocketAddrV4> {
    text.parse::<SocketAddrV4>().map_err(|_| {
        let e = ScenarioError::spec(
            field,
            format!("expected an IPv4 address and port such as 10.0.0.2:9000, found {text:?}"),
        );
        to_pyerr(py, &e)
    })
}

/// Run one end (`role` "send" or "recv") of a flow of `spec_json` (a scenario) bound to
/// `bind`, the sender sending to `peer`. Returns `(summary_json, samples)` where each sample is
/// `(seconds since the anchor, app bytes delivered, data bytes sent, [values])` and the
/// summary's `real.sampled` names the values. Ctrl-C ends the run early (`interrupted`).
#[pyfunction]
#[pyo3(signature = (spec_json, role, bind, peer=None, flow=None, idle_end_s=3.0, first_arrival_timeout_s=60.0))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn real_run(
    py: Python<'_>,
    spec_json: &str,
    role: &str,
    bind: &str,
    peer: Option<&str>,
    flow: Option<String>,
    idle_end_s: f64,
    first_arrival_timeout_s: f64,
) -> PyResult<(String, Vec<(f64, u64, u64, Vec<f64>)>)> {
    let spec = parse_spec_json(spec_json)
        .and_then(|s| ccsim_scenario::check(&s).map(|()| s))
        .map_err(|e| to_pyerr(py, &e))?;
    let role = match role {
        "send" => Role::Sender,
        "recv" => Role::Receiver,
        other => {
            let e = ScenarioError::spec("role", format!("expected send or recv, found {other:?}"));
            return Err(to_pyerr(py, &e));
        }
    };
    let secs = |field: &str, v: f64| -> PyResult<Duration> {
        if v.is_finite() && v > 0.0 && v < 1e9 {
            Ok(Duration::from_secs_f64(v))
        } else {
            let e = ScenarioError::spec(
                field,
                format!("expected a positive number of seconds, found {v}"),
            );
            Err(to_pyerr(py, &e))
        }
    };
    let options = RealOptions {
        role,
        flow,
        bind: address(py, "bind", bind)?,
        peer: peer.map(|p| address(py, "to", p)).transpose()?,
        idle_end: secs("idle_end", idle_end_s)?,
        first_arrival_timeout: secs("first_arrival_timeout", first_arrival_timeout_s)?,
    };
    // Ctrl-C stops the driver, whose report then says `interrupted`.
    let outcome = watched(py, move |stop| run_real(&spec, &options, stop))?;
    let outcome = match outcome {
        Ok(o) => o,
        Err(RealError::Scenario(e)) => return Err(to_pyerr(py, &e)),
        Err(RealError::Io(m)) => return Err(resource_error(py, &m, bind)),
    };
    let mut summary = real_summary_json(&outcome);
    summary["real"]["sampled"] =
        serde_json::Value::from(outcome.sampled.iter().map(|v| v.name()).collect::<Vec<_>>());
    let anchor = outcome.report.anchor.map_or(0, |a| a.0);
    let samples = outcome
        .report
        .samples
        .iter()
        .filter(|s| s.at.0 >= anchor)
        .map(|s| {
            (
                (s.at.0 - anchor) as f64 / 1e9,
                s.app_bytes_delivered,
                s.data_bytes_sent,
                s.values.clone(),
            )
        })
        .collect();
    Ok((summary.to_string(), samples))
}

/// Run `body` on a thread of its own while this thread watches for Ctrl-C (and whatever a
/// Python signal handler raises), which sets the stop flag `body` is given.
fn watched<T: Send + 'static>(
    py: Python<'_>,
    body: impl FnOnce(&AtomicBool) -> T + Send + 'static,
) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    let worker = {
        let stop = Arc::clone(&stop);
        // A user's algorithm that raised unwinds to here with its line (pycc.rs).
        std::thread::spawn(move || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(&stop)))
                .map_err(|_| crate::pycc::take_user_error())
        })
    };
    while !worker.is_finished() {
        py.allow_threads(|| std::thread::sleep(Duration::from_millis(20)));
        if py.check_signals().is_err() {
            stop.store(true, Ordering::Relaxed);
        }
    }
    match py.allow_threads(|| worker.join()) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(Some(failure))) => Err(crate::pycc::failure_error(py, failure)),
        Ok(Err(None)) | Err(_) => Err(crate::errors::internal_error(py, "the UDP driver panicked")),
    }
}

fn bind_socket(py: Python<'_>, bind: &str) -> PyResult<(std::net::UdpSocket, SocketAddrV4)> {
    let at = address(py, "bind", bind)?;
    let socket = std::net::UdpSocket::bind(at).map_err(|e| {
        to_pyerr(
            py,
            &ScenarioError::spec("bind", format!("cannot bind {at}: {e}")),
        )
    })?;
    match socket.local_addr() {
        Ok(std::net::SocketAddr::V4(a)) => Ok((socket, a)),
        _ => Err(to_pyerr(
            py,
            &ScenarioError::spec("bind", "an IPv4 address is needed"),
        )),
    }
}

fn secs_dur(py: Python<'_>, field: &str, v: f64) -> PyResult<ccsim_udp::Dur> {
    if v.is_finite() && v > 0.0 && v < 1e9 {
        Ok(ccsim_udp::Dur((v * 1e9) as u64))
    } else {
        Err(to_pyerr(
            py,
            &ScenarioError::spec(
                field,
                format!("expected a positive number of seconds, found {v}"),
            ),
        ))
    }
}

fn lateness_json(r: &ccsim_udp::Report) -> serde_json::Value {
    let q = |p: f64| r.timer_lateness.quantile_s(p);
    serde_json::json!({
        "timer_firings": r.timer_lateness.count,
        "timer_lateness_p50_s": q(0.5),
        "timer_lateness_p99_s": q(0.99),
        "timer_lateness_max_s": (r.timer_lateness.count > 0).then(|| r.timer_lateness.max_ns as f64 / 1e9),
    })
}

/// Landmark binning's settings from Python: addresses, thresholds (s), probes, phase (s).
fn binning_of(
    py: Python<'_>,
    landmarks: Option<Vec<String>>,
    thresholds_s: Vec<f64>,
    probes: u32,
    phase_s: f64,
) -> PyResult<Option<ccsim_udp::ticp::Binning>> {
    let Some(landmarks) = landmarks else {
        return Ok(None);
    };
    let spec = |field: &str, m: String| to_pyerr(py, &ScenarioError::spec(field, m));
    if landmarks.is_empty() || landmarks.len() > ccsim_udp::ticp::MAX_LANDMARKS as usize {
        return Err(spec(
            "landmarks",
            format!(
                "expected 1 to {} landmark addresses, found {}",
                ccsim_udp::ticp::MAX_LANDMARKS,
                landmarks.len()
            ),
        ));
    }
    let mut addrs = Vec::with_capacity(landmarks.len());
    for (i, l) in landmarks.iter().enumerate() {
        addrs.push(address(py, &format!("landmarks[{i}]"), l)?);
    }
    let mut thresholds = Vec::with_capacity(thresholds_s.len());
    for (i, t) in thresholds_s.iter().enumerate() {
        thresholds.push(secs_dur(py, &format!("bin_thresholds[{i}]"), *t)?);
    }
    if thresholds.is_empty() || thresholds.windows(2).any(|w| w[0] >= w[1]) {
        return Err(spec(
            "bin_thresholds",
            format!("expected ascending round-trip thresholds, found {thresholds_s:?}"),
        ));
    }
    if !(1..=10).contains(&probes) {
        return Err(spec(
            "probes",
            format!("expected 1 to 10 probes per landmark, found {probes}"),
        ));
    }
    Ok(Some(ccsim_udp::ticp::Binning {
        landmarks: addrs,
        thresholds,
        probes,
        phase: secs_dur(py, "binning_phase", phase_s)?,
    }))
}

/// A TICP collector over UDP (`ccsim real ticp collect`): `hosts` are (address, first ID,
/// count). Returns `(summary_json, reports)` with each report `(source, arrival s, content)`.
#[pyfunction]
#[pyo3(signature = (bind, hosts, secret, session, rs=1, request_size=64, initial_timeout_s=3.0, allotted_s=None, end_s=3600.0, landmarks=None, bin_thresholds_s=vec![0.1, 0.2], probes=3, binning_phase_s=2.0))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn ticp_collect(
    py: Python<'_>,
    bind: &str,
    hosts: Vec<(String, u32, u32)>,
    secret: Vec<u8>,
    session: u64,
    rs: u32,
    request_size: u32,
    initial_timeout_s: f64,
    allotted_s: Option<f64>,
    end_s: f64,
    landmarks: Option<Vec<String>>,
    bin_thresholds_s: Vec<f64>,
    probes: u32,
    binning_phase_s: f64,
) -> PyResult<(String, Vec<(u32, f64, Py<PyBytes>)>)> {
    let binning = binning_of(py, landmarks, bin_thresholds_s, probes, binning_phase_s)?;
    use ccsim_udp::ticp::{check_hosts, run_collector, SessionParams, SourceHost};
    let mut list = Vec::with_capacity(hosts.len());
    for (i, (addr, first, count)) in hosts.iter().enumerate() {
        list.push(SourceHost {
            address: address(py, &format!("sources[{i}].address"), addr)?,
            first: *first,
            count: *count,
        });
    }
    check_hosts(&list).map_err(|m| to_pyerr(py, &ScenarioError::spec("sources", m)))?;
    let params = SessionParams {
        rs: rs.max(1),
        request_size,
        initial_timeout: secs_dur(py, "initial_timeout", initial_timeout_s)?,
        allotted: allotted_s
            .map(|a| secs_dur(py, "allotted", a))
            .transpose()?,
    };
    let end = secs_dur(py, "timeout", end_s)?;
    let (socket, bound) = bind_socket(py, bind)?;
    let outcome = watched(py, move |stop| {
        run_collector(
            socket,
            &list,
            params,
            &secret,
            session,
            binning.as_ref(),
            end,
            stop,
        )
    })?
    .map_err(|e| socket_error(py, "TICP collector", bound, &e))?;
    let r = &outcome.report;
    let p = &outcome.payload;
    let secs = |t: Option<ccsim_udp::SimTime>| t.map(|t| t.as_secs_f64());
    let duration = match (outcome.began, outcome.completed) {
        (Some(b), Some(c)) => Some((c.0 - b.0) as f64 / 1e9),
        _ => None,
    };
    // The report rate counts the reports accepted within the session, never duplicates, late
    // arrivals after it or binning's messages, so it cannot exceed what the path carried.
    let report_bytes: u64 = match (outcome.began, outcome.completed) {
        (Some(b), Some(c)) => p
            .reports
            .iter()
            .filter(|x| x.at >= b && x.at <= c)
            .map(|x| u64::from(x.size))
            .sum(),
        _ => 0,
    };
    let summary = serde_json::json!({
        "ticp": {
            "session": format!("{:016x}", p.session()),
            "bound": bound.to_string(),
            "sources": outcome.expected,
            "reports": outcome.received,
            "complete": outcome.received == outcome.expected,
            "began_s": secs(outcome.began),
            "completed_s": secs(outcome.completed),
            "duration_s": duration,
            "rounds": outcome.rounds,
            "host_bins": outcome.host_bins,
            "request_messages": outcome.requests_sent.0,
            "request_packets": outcome.requests_sent.1,
            "halvings": outcome.reactions.0,
            "timeouts": outcome.reactions.1,
            "delayed_reports": outcome.delayed,
            "duplicate_reports": outcome.duplicates,
            "forged_reports": p.forged,
            "replayed_reports": p.replayed,
            "malformed": p.malformed + r.malformed,
            "report_datagram_bytes": report_bytes,
            "report_rate_bps": duration.filter(|d| *d > 0.0).map(|d| report_bytes as f64 * 8.0 / d),
            "datagrams_sent": r.sent_packets,
            "datagram_bytes_sent": r.sent_bytes,
            "send_errors": r.send_errors,
            "interrupted": r.interrupted,
        },
        "real": lateness_json(r),
    });
    let reports = p
        .reports
        .iter()
        .map(|x| {
            (
                x.source,
                x.at.as_secs_f64(),
                PyBytes::new(py, &x.content).unbind(),
            )
        })
        .collect();
    Ok((summary.to_string(), reports))
}

/// A TICP source host over UDP (`ccsim real ticp source`): IDs `first..first + count`, each
/// report the bytes of `report_file` (read at each report) or the standard output of the
/// shell command `report_command` (run at each report, with `CCSIM_SOURCE_ID` set). Returns
/// the summary as JSON.
#[pyfunction]
#[pyo3(signature = (bind, first, count, secret, report_file=None, report_command=None, request_size=64, report_size=1000, idle_end_s=10.0, first_arrival_timeout_s=300.0, collector=None, landmarks=None, bin_thresholds_s=vec![0.1, 0.2], probes=3, binning_phase_s=2.0))]
#[allow(clippy::too_many_arguments)]
pub fn ticp_sources(
    py: Python<'_>,
    bind: &str,
    first: u32,
    count: u32,
    secret: Vec<u8>,
    report_file: Option<String>,
    report_command: Option<String>,
    request_size: u32,
    report_size: u32,
    idle_end_s: f64,
    first_arrival_timeout_s: f64,
    collector: Option<String>,
    landmarks: Option<Vec<String>>,
    bin_thresholds_s: Vec<f64>,
    probes: u32,
    binning_phase_s: f64,
) -> PyResult<String> {
    use ccsim_udp::ticp::run_sources;
    let binning = binning_of(py, landmarks, bin_thresholds_s, probes, binning_phase_s)?;
    let collector = match (&binning, collector) {
        (Some(_), Some(c)) => Some(address(py, "collector", &c)?),
        (Some(_), None) => {
            return Err(to_pyerr(
                py,
                &ScenarioError::spec(
                    "collector",
                    "binning needs the collector's address (it registers its bin)",
                ),
            ))
        }
        (None, _) => None,
    };
    let idle = (
        secs_dur(py, "idle_end", idle_end_s)?,
        secs_dur(py, "first_request_timeout", first_arrival_timeout_s)?,
    );
    let (socket, bound) = bind_socket(py, bind)?;
    let failures = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let failed = Arc::clone(&failures);
    let content = move |id: u32| -> Vec<u8> {
        let got = if let Some(path) = &report_file {
            std::fs::read(path).ok()
        } else if let Some(cmd) = &report_command {
            std::process::Command::new("sh")
                .arg("-c")
                .arg(cmd)
                .env("CCSIM_SOURCE_ID", id.to_string())
                .stdin(std::process::Stdio::null())
                .stderr(std::process::Stdio::inherit())
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| o.stdout)
        } else {
            Some(Vec::new())
        };
        got.unwrap_or_else(|| {
            failed.fetch_add(1, Ordering::Relaxed);
            Vec::new()
        })
    };
    let outcome = watched(py, move |stop| {
        run_sources(
            socket,
            first,
            count,
            (request_size, report_size),
            &secret,
            content,
            binning.as_ref().zip(collector),
            idle,
            stop,
        )
    })?
    .map_err(|e| socket_error(py, "TICP sources", bound, &e))?;
    let (r, p) = outcome;
    let summary = serde_json::json!({
        "ticp_sources": {
            "bound": bound.to_string(),
            "first": first,
            "count": count,
            "requests_received": r.received_packets,
            "requests_rejected": p.rejected_requests,
            "reports_sent": p.reports,
            "reports_truncated": p.truncated,
            "reports_without_content": failures.load(Ordering::Relaxed),
            "malformed": r.malformed,
            "misaddressed": r.misaddressed,
            "send_errors": r.send_errors,
            "interrupted": r.interrupted,
        },
        "real": lateness_json(&r),
    });
    Ok(summary.to_string())
}

/// A TICP landmark over UDP (`ccsim real ticp landmark`): answers every binning probe until
/// Ctrl-C or SIGTERM. Returns the summary as JSON.
#[pyfunction]
pub fn ticp_landmark(py: Python<'_>, bind: &str) -> PyResult<String> {
    let (socket, bound) = bind_socket(py, bind)?;
    let r = watched(py, move |stop| ccsim_udp::ticp::run_landmark(socket, stop))?
        .map_err(|e| socket_error(py, "TICP landmark", bound, &e))?;
    Ok(serde_json::json!({
        "ticp_landmark": {
            "bound": bound.to_string(),
            "probes_answered": r.received_packets,
            "malformed": r.malformed,
            "send_errors": r.send_errors,
        }
    })
    .to_string())
}
