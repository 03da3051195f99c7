//! `ccsim._ccsim`: the private native module. Spec in, results out.
//!
//! Functions: `run` (returning a `RunData`), `validate`, `load_toml`, `schema`, `bench_names`, `bench_spec`.
//! Specs cross as JSON text; series cross as little-endian byte buffers that numpy views
//! without per-row objects. Errors become the exceptions of `ccsim.errors` (see `errors.rs`).

mod emulate;
mod errors;
mod guard;
mod pycc;
mod real;

use std::path::PathBuf;

use ccsim_scenario::outputs::{write_outputs, Table, Values};
use ccsim_scenario::{
    bench, parse_spec_json, parse_spec_toml, RunOptions, RunResults, ScenarioError,
};
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

/// Validate a JSON spec; return its full form (every key, defaults included), pretty-printed.
#[pyfunction]
fn full_spec(py: Python<'_>, spec_json: &str) -> PyResult<String> {
    guarded(|| {
        parse_spec_json(spec_json).and_then(|s| ccsim_scenario::check(&s).map(|()| s.full_json()))
    })
    .map_err(|panic_message| internal_error(py, &panic_message))?
    .map_err(|e| to_pyerr(py, &e))
}

/// The flows the `flows` generator `name` of a JSON spec makes, in HPCC's flow-file format
/// (`ccsim_scenario::generators::hpcc_flow_file`).
#[pyfunction]
fn hpcc_flow_file(py: Python<'_>, spec_json: &str, name: &str) -> PyResult<String> {
    guarded(|| {
        parse_spec_json(spec_json).and_then(|s| {
            ccsim_scenario::check(&s)?;
            ccsim_scenario::generators::hpcc_flow_file(&s, name)
        })
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

/// The hold model on an event queue (`"queue"`, the simulation's; `"radix"`, its radix heap
/// alone; `"heap"`, the binary heap alone): `pending` entries, `operations` pops each followed
/// by a push.
/// Returns (checksum of the popped times, seconds); `ccsim bench event-queue` runs it.
#[pyfunction]
fn bench_event_queue(
    py: Python<'_>,
    queue: &str,
    pending: u32,
    operations: u64,
) -> PyResult<(u64, f64)> {
    if !bench::EVENT_QUEUES.contains(&queue) {
        return Err(to_pyerr(
            py,
            &ScenarioError::spec(
                "queue",
                format!("unknown event queue {queue:?} (known: queue, radix, heap)"),
            ),
        ));
    }
    Ok(py.allow_threads(|| bench::event_queue_hold(queue, pending, operations)))
}

/// Run a spec: JSON text, or TOML text with `toml=True` (parsed, validated and built once).
/// `progress(sim_seconds, horizon_seconds, events)` is called from time to time with the GIL
/// held; pending signals (Ctrl-C) are checked at the same points.
#[pyfunction]
#[pyo3(signature = (spec_text, progress=None, chunk_events=262_144, toml=false))]
fn run(
    py: Python<'_>,
    spec_text: &str,
    progress: Option<PyObject>,
    chunk_events: u64,
    toml: bool,
) -> PyResult<RunData> {
    let spec = guarded(|| {
        if toml {
            parse_spec_toml(spec_text)
        } else {
            parse_spec_json(spec_text)
        }
    })
    .map_err(|panic_message| internal_error(py, &panic_message))?
    .map_err(|e| to_pyerr(py, &e))?;
    let mut pending: Option<PyErr> = None;
    let mut body = || {
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
            // The finished simulation is dropped here, outside the GIL.
            .map(|o| o.results)
        })
    };
    pycc::clear_user_error();
    // A user's algorithm runs with the GIL held throughout (pycc.rs); others without it.
    let outcome = if spec.runs_custom_code() {
        body()
    } else {
        py.allow_threads(body)
    };
    match outcome {
        Err(panic_message) => Err(match pycc::take_user_error() {
            Some(failure) => pycc::failure_error(py, failure),
            None => internal_error(py, &panic_message),
        }),
        Ok(Err(e)) => Err(pending.unwrap_or_else(|| to_pyerr(py, &e))),
        Ok(Ok(results)) => Ok(RunData { results }),
    }
}

/// The results of a run, kept on the Rust side until asked for: the summary as JSON text,
/// the tables as columns, the series as little-endian buffers, and the output files.
#[pyclass(frozen, module = "ccsim._ccsim")]
struct RunData {
    results: RunResults,
}

fn values_to_list<'py>(py: Python<'py>, v: &Values) -> PyResult<Bound<'py, PyList>> {
    match v {
        Values::F64(x) => PyList::new(py, x),
        Values::OptF64(x) => PyList::new(py, x),
        Values::U64(x) => PyList::new(py, x),
        Values::Str(x) => PyList::new(py, x),
        Values::Bool(x) => PyList::new(py, x),
    }
}

fn table_to_dict<'py>(
    py: Python<'py>,
    t: &Table,
    columns: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for (name, values) in &t.columns {
        if columns.as_ref().is_none_or(|c| c.contains(name)) {
            out.set_item(name, values_to_list(py, values)?)?;
        }
    }
    Ok(out)
}

#[pymethods]
impl RunData {
    /// The summary without the per-flow and per-link entries (those are in the tables).
    fn summary_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.results.summary)
            .map_err(|e| Python::with_gil(|py| internal_error(py, &e.to_string())))
    }

    /// The canonical spec, JSON text.
    #[getter]
    fn canonical_spec(&self) -> &str {
        &self.results.canonical_spec
    }

    /// The spec's hash.
    #[getter]
    fn spec_hash(&self) -> &str {
        &self.results.summary.run.spec_hash
    }

    /// The master seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.results.summary.run.seed
    }

    /// One table as a dict of column name to list: "flows" or "links"; all columns, or those
    /// named in `columns`.
    #[pyo3(signature = (which, columns=None))]
    fn table<'py>(
        &self,
        py: Python<'py>,
        which: &str,
        columns: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        match which {
            "flows" => table_to_dict(py, &self.results.flow_table, columns),
            "links" => table_to_dict(py, &self.results.link_table, columns),
            _ => Err(errors::spec_error(
                py,
                &format!("no table {which:?} (flows, links)"),
                "which",
            )),
        }
    }

    /// The series: entity and variable names, and time_ns (u64), entity (u32), var (u16),
    /// value (f64) columns as little-endian bytes.
    fn series<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let t = &self.results.trace;
        let out = PyDict::new(py);
        out.set_item("entities", PyList::new(py, &self.results.entity_names)?)?;
        out.set_item("vars", PyList::new(py, &self.results.var_names)?)?;
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
        Ok(out)
    }

    /// Number of series records.
    fn series_len(&self) -> usize {
        self.results.trace.len()
    }

    /// The TICP report table as a dict of column name to list.
    fn ticp<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let tt = &self.results.ticp_table;
        let ticp = PyDict::new(py);
        ticp.set_item("session", PyList::new(py, &tt.session)?)?;
        ticp.set_item("source", PyList::new(py, &tt.source)?)?;
        ticp.set_item("node", PyList::new(py, &tt.node)?)?;
        ticp.set_item("cluster", PyList::new(py, &tt.cluster)?)?;
        ticp.set_item("arrived_s", PyList::new(py, &tt.arrived_s)?)?;
        ticp.set_item("round", PyList::new(py, &tt.round)?)?;
        ticp.set_item("delayed", PyList::new(py, &tt.delayed)?)?;
        Ok(ticp)
    }

    /// Write the output files (not the plots) into the existing folder `dir`; return their
    /// names. I/O errors raise `OSError`.
    #[pyo3(signature = (dir, csv=false))]
    fn write(&self, py: Python<'_>, dir: PathBuf, csv: bool) -> PyResult<Vec<String>> {
        let results = &self.results;
        match py.allow_threads(|| guarded(|| write_outputs(&dir, results, csv))) {
            Err(panic_message) => Err(internal_error(py, &panic_message)),
            Ok(Err(e)) => Err(e.into()),
            Ok(Ok(names)) => Ok(names),
        }
    }
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
    m.add_function(wrap_pyfunction!(pycc::register_cc, m)?)?;
    m.add_function(wrap_pyfunction!(pycc::register_queue, m)?)?;
    m.add_class::<pycc::PyPacket>()?;
    m.add_class::<pycc::PyQueueView>()?;
    m.add_class::<pycc::PyWindow>()?;
    m.add_class::<pycc::PyAck>()?;
    m.add_class::<pycc::PyRateSample>()?;
    pycc::install();
    m.add_class::<RunData>()?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(hpcc_flow_file, m)?)?;
    m.add_function(wrap_pyfunction!(full_spec, m)?)?;
    m.add_function(wrap_pyfunction!(load_toml, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(bench_names, m)?)?;
    m.add_function(wrap_pyfunction!(bench_spec, m)?)?;
    m.add_function(wrap_pyfunction!(bench_event_queue, m)?)?;
    m.add_function(wrap_pyfunction!(_selftest_panic, m)?)?;
    m.add_function(wrap_pyfunction!(_selftest_alloc_failure, m)?)?;
    m.add_function(wrap_pyfunction!(_install_abort_handler, m)?)?;
    m.add_function(wrap_pyfunction!(emulate::emulator_start, m)?)?;
    m.add_class::<emulate::EmulatorHandle>()?;
    m.add_function(wrap_pyfunction!(real::real_run, m)?)?;
    m.add_function(wrap_pyfunction!(real::ticp_collect, m)?)?;
    m.add_function(wrap_pyfunction!(real::ticp_sources, m)?)?;
    m.add_function(wrap_pyfunction!(real::ticp_landmark, m)?)?;
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
