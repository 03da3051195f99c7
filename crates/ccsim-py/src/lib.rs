//! `ccsim._ccsim`: the private native module. Spec in, results out.
//!
//! Functions: `run`, `validate`, `load_toml`, `schema`, `bench_names`, `bench_spec`.
//! Specs cross as JSON text; series cross as little-endian byte buffers that numpy views
//! without per-row objects. Errors become the exceptions of `ccsim.errors` (see `errors.rs`).

mod errors;
mod guard;

use ccsim_scenario::{bench, parse_spec_json, parse_spec_toml, RunOptions, ScenarioError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use errors::{internal_error, to_pyerr};
use guard::guarded;

fn le_bytes<T: Copy, const N: usize>(v: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len() * N);
    for &x in v {
        out.extend_from_slice(&f(x));
    }
    out
}

/// Validate a JSON spec; return its canonical JSON (defaults filled in).
#[pyfunction]
fn validate(py: Python<'_>, spec_json: &str) -> PyResult<String> {
    guarded(|| {
        parse_spec_json(spec_json)
            .and_then(|s| ccsim_scenario::check(&s).map(|()| s.canonical_json()))
    })
    .map_err(|panic_message| internal_error(py, &panic_message))?
    .map_err(|e| to_pyerr(py, &e))
}

/// Parse and validate a TOML scenario; return its canonical JSON.
#[pyfunction]
fn load_toml(py: Python<'_>, text: &str) -> PyResult<String> {
    guarded(|| {
        parse_spec_toml(text).and_then(|s| ccsim_scenario::check(&s).map(|()| s.canonical_json()))
    })
    .map_err(|panic_message| internal_error(py, &panic_message))?
    .map_err(|e| to_pyerr(py, &e))
}

/// The JSON Schema of the scenario spec.
#[pyfunction]
fn schema() -> String {
    ccsim_scenario::schema_json()
}

/// Names of the benchmark scenarios.
#[pyfunction]
fn bench_names() -> Vec<&'static str> {
    bench::BENCH_NAMES.to_vec()
}

/// The canonical JSON spec of a benchmark scenario.
#[pyfunction]
fn bench_spec(py: Python<'_>, name: &str) -> PyResult<String> {
    match bench::bench_spec(name).map_err(|e| to_pyerr(py, &e))? {
        Some(s) => Ok(s.canonical_json()),
        None => Err(to_pyerr(
            py,
            &ScenarioError::spec(
                "bench",
                format!(
                    "unknown benchmark {name:?} (known: {})",
                    bench::BENCH_NAMES.join(", ")
                ),
            ),
        )),
    }
}

/// Run a JSON spec. `progress(sim_seconds, horizon_seconds, events)` is called from time to
/// time with the GIL held; pending signals (Ctrl-C) are checked at the same points.
#[pyfunction]
#[pyo3(signature = (spec_json, progress=None, chunk_events=262_144))]
fn run(
    py: Python<'_>,
    spec_json: &str,
    progress: Option<PyObject>,
    chunk_events: u64,
) -> PyResult<PyObject> {
    let spec = guarded(|| parse_spec_json(spec_json))
        .map_err(|panic_message| internal_error(py, &panic_message))?
        .map_err(|e| to_pyerr(py, &e))?;
    let mut pending: Option<PyErr> = None;
    let outcome = py.allow_threads(|| {
        guarded(|| {
            let options = RunOptions {
                chunk_events,
                ..RunOptions::default()
            };
            ccsim_scenario::run(&spec, options, &mut |p| {
                Python::with_gil(|py| {
                    if let Err(e) = py.check_signals() {
                        pending = Some(e);
                        return false;
                    }
                    if let Some(cb) = &progress {
                        if let Err(e) = cb.call1(py, (p.sim_seconds, p.horizon_seconds, p.events)) {
                            pending = Some(e);
                            return false;
                        }
                    }
                    true
                })
            })
        })
    });
    let outcome = match outcome {
        Err(panic_message) => return Err(internal_error(py, &panic_message)),
        Ok(Err(e)) => return Err(pending.unwrap_or_else(|| to_pyerr(py, &e))),
        Ok(Ok(o)) => o,
    };
    let summary =
        serde_json::to_string(&outcome.summary).map_err(|e| internal_error(py, &e.to_string()))?;
    let t = &outcome.trace;
    let out = PyDict::new(py);
    out.set_item("summary_json", summary)?;
    out.set_item("canonical_spec", spec.canonical_json())?;
    out.set_item("spec_hash", spec.hash())?;
    out.set_item("seed", spec.run.seed)?;
    out.set_item("entities", PyList::new(py, &outcome.entity_names)?)?;
    out.set_item("vars", PyList::new(py, &outcome.var_names)?)?;
    out.set_item(
        "time_ns",
        PyBytes::new(py, &le_bytes(&t.time_ns, u64::to_le_bytes)),
    )?;
    out.set_item(
        "entity",
        PyBytes::new(py, &le_bytes(&t.entity, u32::to_le_bytes)),
    )?;
    out.set_item("var", PyBytes::new(py, &le_bytes(&t.var, u16::to_le_bytes)))?;
    out.set_item(
        "value",
        PyBytes::new(py, &le_bytes(&t.value, f64::to_le_bytes)),
    )?;
    let tt = &outcome.ticp_table;
    let ticp = PyDict::new(py);
    ticp.set_item("session", PyList::new(py, &tt.session)?)?;
    ticp.set_item("source", PyList::new(py, &tt.source)?)?;
    ticp.set_item("node", PyList::new(py, &tt.node)?)?;
    ticp.set_item("cluster", PyList::new(py, &tt.cluster)?)?;
    ticp.set_item("arrived_s", PyList::new(py, &tt.arrived_s)?)?;
    ticp.set_item("round", PyList::new(py, &tt.round)?)?;
    ticp.set_item("delayed", PyList::new(py, &tt.delayed)?)?;
    out.set_item("ticp", ticp)?;
    Ok(out.into_any().unbind())
}

/// For the command line: turn an abort (a failed allocation) into one line and exit 1.
#[pyfunction]
fn _install_abort_handler() {
    guard::install_abort_handler();
}

/// For the test suite: fail an allocation, as an exhausted machine would.
#[pyfunction]
fn _selftest_alloc_failure() {
    std::alloc::handle_alloc_error(std::alloc::Layout::new::<[u8; 4096]>());
}

/// For the test suite: panic inside the guarded region, as a bug would, so the tests can
/// check that a panic surfaces as `ccsim.InternalError` and not as a crash.
#[pyfunction]
fn _selftest_panic(py: Python<'_>) -> PyResult<()> {
    py.allow_threads(|| guarded(|| panic!("self-test panic")))
        .map_err(|m| internal_error(py, &m))
}

/// The native module.
#[pymodule]
fn _ccsim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(load_toml, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(bench_names, m)?)?;
    m.add_function(wrap_pyfunction!(bench_spec, m)?)?;
    m.add_function(wrap_pyfunction!(_selftest_panic, m)?)?;
    m.add_function(wrap_pyfunction!(_selftest_alloc_failure, m)?)?;
    m.add_function(wrap_pyfunction!(_install_abort_handler, m)?)?;
    guard::install_panic_hook();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "build_profile",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
    )?;
    Ok(())
}
