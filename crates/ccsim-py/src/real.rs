//! `ccsim real`'s native half: one end of a flow over a UDP socket (`ccsim_scenario::real`),
//! run on a thread of its own while the calling thread watches for Ctrl-C. The command line,
//! the output folder and the series file are Python's (`ccsim/real.py`).

use std::net::SocketAddrV4;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ccsim_scenario::real::{real_summary_json, run_real, RealError, RealOptions, Role};
use ccsim_scenario::{parse_spec_json, ScenarioError};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

use crate::errors::to_pyerr;

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
    let stop = Arc::new(AtomicBool::new(false));
    let worker = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || run_real(&spec, &options, &stop))
    };
    // Watch for Ctrl-C (and whatever a Python signal handler raises) while the driver runs:
    // it stops the driver, whose report then says `interrupted`.
    while !worker.is_finished() {
        py.allow_threads(|| std::thread::sleep(Duration::from_millis(20)));
        if py.check_signals().is_err() {
            stop.store(true, Ordering::Relaxed);
        }
    }
    let outcome = py
        .allow_threads(|| worker.join())
        .map_err(|_| crate::errors::internal_error(py, "the UDP driver panicked"))?;
    let outcome = match outcome {
        Ok(o) => o,
        Err(RealError::Scenario(e)) => return Err(to_pyerr(py, &e)),
        Err(RealError::Io(m)) => return Err(PyOSError::new_err(m)),
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
