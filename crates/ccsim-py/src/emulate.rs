//! `ccsim emulate`'s native half: open the two TUN devices inside their network namespaces
//! and run the emulator (`ccsim-emulate`) until asked to stop. The namespaces, the commands
//! and the summary are Python's (`ccsim/emulate.py`).

use std::sync::Mutex;

use ccsim_core::Dur;
use ccsim_emulate::{open_tun_in_netns, DirectionReport, Emulator, LinkConfig, PortDelay};
use ccsim_scenario::{parse_spec_json, ScenarioError};
use pyo3::prelude::*;

use crate::errors::{internal_error, resource_error, simulation_error, to_pyerr};

/// A running emulator.
#[pyclass(module = "ccsim._ccsim")]
pub struct EmulatorHandle {
    inner: Mutex<Option<Emulator>>,
}

/// The one link of `spec_json` (a scenario whose `[[links]]` has one entry), validated.
fn one_link(py: Python<'_>, spec_json: &str) -> PyResult<(LinkConfig, u64)> {
    let spec = parse_spec_json(spec_json)
        .and_then(|s| ccsim_scenario::check(&s).map(|()| s))
        .map_err(|e| to_pyerr(py, &e))?;
    let [link] = spec.links.as_slice() else {
        let e = ScenarioError::Spec {
            path: "links".into(),
            message: format!("an emulated path has one link, found {}", spec.links.len()),
        };
        return Err(to_pyerr(py, &e));
    };
    if let ccsim_scenario::spec::links::QueueSpec::Custom(c) = &link.queue {
        // CHOICE: the emulator's link runs the built-in disciplines only: it serves packets
        // in real time on its own threads, where a Python hook would hold the GIL.
        let e = ScenarioError::Spec {
            path: "links[0].queue.kind".into(),
            message: format!(
                "the emulated link runs the built-in queues (DropTail, red, step, dualpi2), not a user's ({:?}); simulate it with ccsim run",
                c.class
            ),
        };
        return Err(to_pyerr(py, &e));
    }
    Ok((link.config(), spec.run.seed))
}

/// Start an emulator for the one link of `spec_json` (a validated scenario whose
/// `[[links]]` has one entry, `between = ["client", "server"]`), or, with
/// `reverse_spec_json`, that link from the client to the server and the reverse spec's back:
/// TUN devices named `device` in the network namespaces whose files are `client_netns` and
/// `server_netns`. The random streams come from the first spec's seed. Each
/// `(port, delay_ns)` of `port_delays` puts that TCP or UDP port's packets behind an access
/// link of that one-way delay on the client's side (validated by `ccsim/emulate.py`).
#[pyfunction]
#[pyo3(signature = (spec_json, client_netns, server_netns, device, reverse_spec_json=None, port_delays=Vec::new()))]
pub fn emulator_start(
    py: Python<'_>,
    spec_json: &str,
    client_netns: &str,
    server_netns: &str,
    device: &str,
    reverse_spec_json: Option<&str>,
    port_delays: Vec<(u16, u64)>,
) -> PyResult<EmulatorHandle> {
    let (forward, seed) = one_link(py, spec_json)?;
    let reverse = match reverse_spec_json {
        Some(text) => one_link(py, text)?.0,
        None => forward.clone(),
    };
    let tun = |netns: &str| {
        let what = format!("TUN device {device} in {netns}");
        open_tun_in_netns(netns, device)
            .map_err(|e| resource_error(py, &format!("cannot open {what}: {e}"), &what))
    };
    let client = tun(client_netns)?;
    let server = tun(server_netns)?;
    let port_delays: Vec<PortDelay> = port_delays
        .into_iter()
        .map(|(port, ns)| PortDelay {
            port,
            delay: Dur(ns),
        })
        .collect();
    let emulator =
        Emulator::start_directions([&forward, &reverse], &port_delays, seed, client, server)
            .map_err(|e| {
                resource_error(
                    py,
                    &format!("cannot start the emulator threads: {e}"),
                    "threads",
                )
            })?;
    Ok(EmulatorHandle {
        inner: Mutex::new(Some(emulator)),
    })
}

fn report_json(r: &DirectionReport) -> serde_json::Value {
    let q = |p: f64| r.lateness.quantile_s(p);
    serde_json::json!({
        "packets_in": r.packets_in,
        "bytes_in": r.bytes_in,
        "packets": r.packets_out,
        "bytes": r.bytes_out,
        "drops": r.drops.iter().map(|(k, v)| ((*k).to_string(), serde_json::Value::from(*v))).collect::<serde_json::Map<_, _>>(),
        "ecn_marks": r.ecn_marks,
        "in_link_at_stop": r.in_link_at_stop,
        "write_errors": r.write_errors,
        "lateness_p50_s": q(0.5),
        "lateness_p99_s": q(0.99),
        "lateness_max_s": (r.lateness.count > 0).then(|| r.lateness.max_ns as f64 / 1e9),
        "realtime": r.realtime,
    })
}

fn poisoned(py: Python<'_>) -> PyErr {
    internal_error(
        py,
        "the emulator's lock was poisoned (a thread panicked holding it)",
    )
}

fn stopped(py: Python<'_>) -> PyErr {
    simulation_error(py, "the emulator was already stopped")
}

#[pymethods]
impl EmulatorHandle {
    /// Per direction (client to server, then back): the packets in the emulated link and the
    /// packets it has taken in so far.
    fn progress(&self, py: Python<'_>) -> PyResult<[(u64, u64); 2]> {
        let guard = self.inner.lock().map_err(|_| poisoned(py))?;
        let emulator = guard.as_ref().ok_or_else(|| stopped(py))?;
        Ok(emulator.progress())
    }

    /// Stop forwarding; return the directions' reports as JSON text, keyed
    /// "client->server" and "server->client".
    fn stop(&self, py: Python<'_>) -> PyResult<String> {
        let Some(emulator) = self.inner.lock().map_err(|_| poisoned(py))?.take() else {
            return Err(stopped(py));
        };
        let reports = py
            .allow_threads(|| emulator.stop())
            .map_err(|e| resource_error(py, &format!("emulator: {e}"), "the TUN devices"))?;
        let map: serde_json::Map<String, serde_json::Value> = reports
            .iter()
            .map(|r| (r.name.clone(), report_json(r)))
            .collect();
        Ok(serde_json::Value::Object(map).to_string())
    }
}
