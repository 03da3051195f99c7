//! Congestion control written in Python: `class C(ccsim.CongestionControl)` behind the Rust
//! [`CongestionControl`] contract (docs/your-own-algorithm.md).
//!
//! The Python module installs a resolver in the registry ([`ccsim_scenario::registry`]): a
//! flow's `protocol = "module:Class"` imports the module and checks the class when the spec
//! is parsed; `ccsim.register_cc(name, Class)` registers a name directly. Each flow gets its own
//! instance, built with the flow's `cc = { ... }` table as keyword arguments.
//!
//! The hooks receive a [`PyWindow`] that lives as long as the flow and is rewritten before
//! each call (an algorithm reads it during the call and keeps plain values), and a new
//! [`PyAck`] per ACK. The window's bounds are `CustomCc`'s (`tcp/cc/mod.rs`).
//! An exception in a hook ends the run: the adapter records one line (the flow, the class,
//! the hook, where in the user's file, and the exception) and unwinds to the run's boundary
//! with [`std::panic::resume_unwind`], which runs no panic hook; `run` turns the line into
//! `ccsim.UserCodeError`.
//!
//! CHOICE: runs whose spec names a custom algorithm or queue hold the GIL for the whole run
//! instead of taking it for each hook (Python may still hand it to another thread between
//! the hook's bytecodes); others release it as before. A sweep of such runs over threads
//! therefore runs them about one at a time.
//! CHOICE: Ctrl-C (`KeyboardInterrupt`) and `sys.exit()` inside a hook end the run as
//! themselves, not as the user's error.

use std::cell::RefCell;

use ccsim_core::{Dur, RngStream, SimTime};
use ccsim_engine::{Admit, Pick, QueueDiscipline, QueueState, QueuedPacket};
use ccsim_protocols::tcp::cc::{
    AckEvent, CaState, CongestionControl, Conn, Control, Delivery, RateSample, Window,
};
use ccsim_protocols::LossRecovery;
use ccsim_scenario::registry::{CcArgs, CcEntry, CcOptions, QueueArgs, QueueEntry};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// How a user's hook ended the run.
pub enum Failure {
    /// Its exception (or a wrong return value), as one line.
    Line(String),
    /// Ctrl-C or `sys.exit()` inside it: raised again as it was.
    Raise(PyErr),
}

thread_local! {
    static USER_ERROR: RefCell<Option<Failure>> = const { RefCell::new(None) };
}

/// The payload a failed hook unwinds with.
struct UserCodeFailed;

/// What a failed hook recorded, if the last run ended on one.
pub fn take_user_error() -> Option<Failure> {
    USER_ERROR.with(|e| e.borrow_mut().take())
}

/// The Python exception for a failure: `UserCodeError`, or the interrupt itself.
pub fn failure_error(py: Python<'_>, failure: Failure) -> PyErr {
    match failure {
        Failure::Line(line) => crate::errors::user_code_error(py, &line),
        Failure::Raise(e) => e,
    }
}

/// Clear a line left by an earlier run on this thread.
pub fn clear_user_error() {
    USER_ERROR.with(|e| *e.borrow_mut() = None);
}

/// Where in the user's code an exception was raised: the innermost frame's file and line.
fn innermost_frame(py: Python<'_>, e: &PyErr) -> Option<String> {
    let mut tb = e.traceback(py)?.into_any();
    loop {
        match tb.getattr("tb_next") {
            Ok(next) if !next.is_none() => tb = next,
            _ => break,
        }
    }
    let line: u32 = tb.getattr("tb_lineno").ok()?.extract().ok()?;
    let file: String = tb
        .getattr("tb_frame")
        .and_then(|f| f.getattr("f_code"))
        .and_then(|c| c.getattr("co_filename"))
        .and_then(|n| n.extract())
        .ok()?;
    Some(format!("{file}:{line}"))
}

/// The one line for an exception raised by user code: what raised it and the traceback's
/// last line.
pub fn describe_user_error(py: Python<'_>, what: &str, e: &PyErr) -> String {
    let at = innermost_frame(py, e)
        .map(|w| format!(" at {w}"))
        .unwrap_or_default();
    format!("{what} raised{at}: {e}")
}

/// Record the line and unwind to the run's boundary.
fn fail(message: String) -> ! {
    unwind(Failure::Line(message))
}

fn unwind(failure: Failure) -> ! {
    USER_ERROR.with(|e| *e.borrow_mut() = Some(failure));
    std::panic::resume_unwind(Box::new(UserCodeFailed))
}

/// An exception out of a hook: Ctrl-C and `sys.exit()` end the run as themselves (the
/// command line's status 130 for Ctrl-C), any other is the user's error, in one line.
fn hook_failed(py: Python<'_>, what: &str, e: PyErr) -> ! {
    if e.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py)
        || e.is_instance_of::<pyo3::exceptions::PySystemExit>(py)
    {
        unwind(Failure::Raise(e))
    }
    fail(describe_user_error(py, what, &e))
}

/// The window as a Python hook reads and writes it: bytes.
#[pyclass(module = "ccsim._ccsim", name = "Window")]
pub struct PyWindow {
    /// Congestion window, bytes.
    #[pyo3(get, set)]
    cwnd: u64,
    /// Slow-start threshold, bytes (a very large number before the first congestion event).
    #[pyo3(get, set)]
    ssthresh: u64,
    /// Maximum segment size, bytes.
    #[pyo3(get)]
    mss: u64,
    /// Bytes in flight (RFC 5681 FlightSize).
    #[pyo3(get)]
    flight: u64,
    /// Whether the sender used its window recently (the window may grow).
    #[pyo3(get)]
    cwnd_limited: bool,
}

#[pymethods]
impl PyWindow {
    /// Whether cwnd < ssthresh (RFC 5681 slow start).
    fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }
    fn __repr__(&self) -> String {
        format!(
            "Window(cwnd={}, ssthresh={}, mss={}, flight={}, cwnd_limited={})",
            self.cwnd,
            self.ssthresh,
            self.mss,
            self.flight,
            if self.cwnd_limited { "True" } else { "False" }
        )
    }
}

/// An acknowledgement of new data, as `on_ack` reads it.
#[pyclass(module = "ccsim._ccsim", name = "Ack", frozen)]
pub struct PyAck {
    /// Bytes this ACK newly delivered (whole segments of the flow's MSS).
    #[pyo3(get)]
    acked: u64,
    /// Segments this ACK newly delivered.
    #[pyo3(get)]
    segments: u64,
    /// When it arrived, seconds.
    #[pyo3(get)]
    now: f64,
    /// The RTT sample it gave, seconds (`None` without one: a retransmitted segment's ACK).
    #[pyo3(get)]
    rtt: Option<f64>,
    /// The oldest unacknowledged segment after it.
    #[pyo3(get)]
    snd_una: u64,
    /// The next new segment the sender will send.
    #[pyo3(get)]
    snd_nxt: u64,
}

#[pymethods]
impl PyAck {
    fn __repr__(&self) -> String {
        format!(
            "Ack(acked={}, now={}, rtt={:?})",
            self.acked, self.now, self.rtt
        )
    }
}

/// What a model-based algorithm reads on every ACK: the delivery-rate sample and the
/// connection (Linux's `rate_sample` and the `tcp_sock` fields `cong_control` reads).
#[pyclass(module = "ccsim._ccsim", name = "RateSample", frozen)]
pub struct PyRateSample {
    /// Now, seconds.
    #[pyo3(get)]
    now: f64,
    /// Bytes delivered over the sample's interval (`None` when the ACK gave no sample).
    #[pyo3(get)]
    delivered: Option<u64>,
    /// The sample's interval, seconds.
    #[pyo3(get)]
    interval: Option<f64>,
    /// Delivery rate, bytes per second.
    #[pyo3(get)]
    delivery_rate: Option<f64>,
    /// The sample was taken while the application, not the network, limited the sender.
    #[pyo3(get)]
    is_app_limited: bool,
    /// Bytes this ACK newly delivered (acknowledged or SACKed).
    #[pyo3(get)]
    acked: u64,
    /// Bytes this ACK marked lost.
    #[pyo3(get)]
    losses: u64,
    /// Bytes delivered with a CE mark over the interval.
    #[pyo3(get)]
    delivered_ce: u64,
    /// This ACK's RTT sample, seconds.
    #[pyo3(get)]
    rtt: Option<f64>,
    /// Bytes in flight before this ACK.
    #[pyo3(get)]
    prior_in_flight: u64,
    /// Bytes in flight now.
    #[pyo3(get)]
    in_flight: u64,
    /// The smoothed RTT, seconds.
    #[pyo3(get)]
    srtt: Option<f64>,
    /// The connection's minimum RTT, seconds.
    #[pyo3(get)]
    min_rtt: Option<f64>,
    /// The sender's state: "open", "cwr", "recovery" or "loss".
    #[pyo3(get)]
    state: &'static str,
}

fn state_name(s: CaState) -> &'static str {
    match s {
        CaState::Open => "open",
        CaState::Cwr => "cwr",
        CaState::Recovery => "recovery",
        CaState::Loss => "loss",
    }
}

fn secs(d: Dur) -> f64 {
    d.as_secs_f64()
}

fn at(t: SimTime) -> f64 {
    t.as_secs_f64()
}

/// One flow's Python algorithm.
struct PyCc {
    /// `flow "a" (module:Class)`, for messages.
    who: String,
    window: Py<PyWindow>,
    on_ack: Py<PyAny>,
    ssthresh: Option<Py<PyAny>>,
    loss_ssthresh: Option<Py<PyAny>>,
    on_rtt: Option<Py<PyAny>>,
    on_rto: Option<Py<PyAny>>,
    on_state: Option<Py<PyAny>>,
    on_delivery: Option<Py<PyAny>>,
    cong_control: Option<Py<PyAny>>,
    on_init: Option<Py<PyAny>>,
    mss: u64,
    /// The last RTT sample and when it was taken: `on_ack`'s `rtt` when taken on the same
    /// ACK (the sender calls `on_rtt` before `on_ack`, and also on ACKs that do not grow the
    /// window, whose samples must not reach a later `on_ack`).
    rtt: Option<(Dur, SimTime)>,
}

/// A hook the class defines itself (not `ccsim.CongestionControl`'s default).
fn own_hook(py: Python<'_>, obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<Py<PyAny>>> {
    let base = py
        .import("ccsim.algorithms")?
        .getattr("CongestionControl")?;
    let mine = obj.get_type().getattr(name)?;
    let default = base.getattr(name)?;
    Ok(if mine.is(&default) {
        None
    } else {
        Some(obj.getattr(name)?.unbind())
    })
}

impl PyCc {
    fn sync_in(&self, py: Python<'_>, w: &Window) {
        let mut pw = self.window.borrow_mut(py);
        pw.cwnd = w.cwnd;
        pw.ssthresh = w.ssthresh;
        pw.flight = w.flight;
        pw.cwnd_limited = w.cwnd_limited;
    }

    fn sync_out(&self, py: Python<'_>, w: &mut Window) {
        let pw = self.window.borrow(py);
        // `CustomCc` keeps the values within bounds.
        w.cwnd = pw.cwnd;
        w.ssthresh = pw.ssthresh;
    }

    fn call<'py, A: IntoPyObject<'py, Target = pyo3::types::PyTuple>>(
        &self,
        py: Python<'py>,
        hook: &Py<PyAny>,
        name: &str,
        args: A,
    ) -> Py<PyAny> {
        match hook.call1(py, args) {
            Ok(v) => v,
            Err(e) => hook_failed(py, &format!("{}.{name}", self.who), e),
        }
    }

    fn bytes_result(&self, py: Python<'_>, v: &Py<PyAny>, name: &str) -> u64 {
        match v.extract::<u64>(py) {
            Ok(b) => b,
            Err(_) => {
                let found = v
                    .bind(py)
                    .repr()
                    .map_or_else(|_| "?".into(), |r| r.to_string());
                fail(format!(
                    "{}.{name} must return a whole number of bytes (an int >= 0), returned {found}",
                    self.who
                ))
            }
        }
    }

    fn window_threshold(&self, w: &Window, hook: Option<&Py<PyAny>>, name: &str) -> u64 {
        let Some(h) = hook else {
            return (w.flight / 2).max(2 * w.mss);
        };
        Python::with_gil(|py| {
            self.sync_in(py, w);
            let v = self.call(py, h, name, (self.window.clone_ref(py),));
            self.bytes_result(py, &v, name)
        })
    }
}

impl CongestionControl for PyCc {
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        let rtt = self
            .rtt
            .take()
            .filter(|&(_, at)| at == ack.now)
            .map(|(rtt, _)| rtt);
        Python::with_gil(|py| {
            self.sync_in(py, w);
            let a = PyAck {
                acked: ack.acked_segments * self.mss,
                segments: ack.acked_segments,
                now: at(ack.now),
                rtt: rtt.map(secs),
                snd_una: ack.snd_una,
                snd_nxt: ack.snd_nxt,
            };
            let a = match Py::new(py, a) {
                Ok(a) => a,
                Err(e) => fail(describe_user_error(py, &self.who, &e)),
            };
            self.call(py, &self.on_ack, "on_ack", (self.window.clone_ref(py), a));
            self.sync_out(py, w);
        });
    }

    fn ssthresh(&mut self, w: &Window) -> u64 {
        self.window_threshold(w, self.ssthresh.as_ref(), "ssthresh")
    }

    fn loss_ssthresh(&mut self, w: &Window) -> u64 {
        match &self.loss_ssthresh {
            Some(h) => self.window_threshold(w, Some(h), "loss_ssthresh"),
            None => self.window_threshold(w, self.ssthresh.as_ref(), "ssthresh"),
        }
    }

    fn on_delivery(&mut self, d: &Delivery) {
        let Some(h) = &self.on_delivery else { return };
        Python::with_gil(|py| {
            let kw = PyDict::new(py);
            let set = |k: &str, v: u64| kw.set_item(k, v);
            let ok = set("delivered", d.segments * self.mss)
                .and_then(|()| set("ce", d.ce * self.mss))
                .and_then(|()| kw.set_item("ece", d.ece));
            if let Err(e) = ok {
                fail(describe_user_error(py, &self.who, &e));
            }
            let ns = py
                .import("types")
                .and_then(|t| t.getattr("SimpleNamespace"))
                .and_then(|c| c.call((), Some(&kw)));
            match ns {
                Ok(ns) => {
                    self.call(py, h, "on_delivery", (ns,));
                }
                Err(e) => fail(describe_user_error(py, &self.who, &e)),
            }
        });
    }

    fn on_rtt(&mut self, rtt: Dur, now: SimTime) {
        self.rtt = Some((rtt, now));
        if let Some(h) = &self.on_rtt {
            Python::with_gil(|py| {
                self.call(py, h, "on_rtt", (secs(rtt), at(now)));
            });
        }
    }

    fn on_rto(&mut self, w: &mut Window) {
        let Some(h) = &self.on_rto else { return };
        Python::with_gil(|py| {
            self.sync_in(py, w);
            self.call(py, h, "on_rto", (self.window.clone_ref(py),));
            self.sync_out(py, w);
        });
    }

    fn on_state(&mut self, w: &mut Window, state: CaState, _snd_nxt: u64) {
        let Some(h) = &self.on_state else { return };
        Python::with_gil(|py| {
            self.sync_in(py, w);
            self.call(
                py,
                h,
                "on_state",
                (self.window.clone_ref(py), state_name(state)),
            );
            self.sync_out(py, w);
        });
    }

    fn cong_control(
        &mut self,
        w: &mut Window,
        rs: &RateSample,
        conn: &Conn,
        _rng: &mut RngStream,
    ) -> Control {
        let Some(h) = &self.cong_control else {
            return Control::default();
        };
        let mss = self.mss;
        let sample = PyRateSample {
            now: at(conn.now),
            delivered: rs.interval.map(|_| rs.delivered * mss),
            interval: rs.interval.map(secs),
            delivery_rate: rs.segments_per_sec().map(|r| r * mss as f64),
            is_app_limited: rs.is_app_limited,
            acked: rs.acked_sacked * mss,
            losses: rs.losses * mss,
            delivered_ce: rs.delivered_ce * mss,
            rtt: rs.rtt.map(secs),
            prior_in_flight: rs.prior_in_flight * mss,
            in_flight: conn.in_flight * mss,
            srtt: conn.srtt.map(secs),
            min_rtt: conn.min_rtt.map(secs),
            state: state_name(conn.state),
        };
        Python::with_gil(|py| {
            self.sync_in(py, w);
            let s = match Py::new(py, sample) {
                Ok(s) => s,
                Err(e) => fail(describe_user_error(py, &self.who, &e)),
            };
            let v = self.call(py, h, "cong_control", (self.window.clone_ref(py), s));
            self.sync_out(py, w);
            Control {
                pacing_rate: if v.is_none(py) {
                    None
                } else {
                    Some(self.bytes_result(py, &v, "cong_control"))
                },
                mark_app_limited: false,
            }
        })
    }

    fn on_init(&mut self, w: &mut Window, _conn: &Conn) -> Option<u64> {
        let h = self.on_init.as_ref()?;
        Python::with_gil(|py| {
            self.sync_in(py, w);
            let v = self.call(py, h, "on_init", (self.window.clone_ref(py),));
            self.sync_out(py, w);
            if v.is_none(py) {
                None
            } else {
                Some(self.bytes_result(py, &v, "on_init"))
            }
        })
    }
}

/// The registry entry for a Python class: `info` is what `ccsim.algorithms._describe` found
/// of it (its recovery, model-based, precise ECN).
fn entry_for(
    name: String,
    class: Py<PyAny>,
    recovery: LossRecovery,
    model_based: bool,
    precise_ecn: bool,
    wants_deliveries: bool,
) -> CcEntry {
    let check_class = Python::with_gil(|py| class.clone_ref(py));
    let label = name.clone();
    let mut entry = CcEntry::new(move |args: &CcArgs<'_>| {
        Python::with_gil(|py| build_instance(py, &name, &class, args))
    });
    entry.recovery = recovery;
    entry.model_based = model_based;
    entry.precise_ecn = precise_ecn;
    entry.wants_deliveries = wants_deliveries;
    entry.check = Some(std::sync::Arc::new(move |options: &CcOptions| {
        Python::with_gil(|py| {
            let kwargs = options_to_py(py, options).map_err(|e| e.to_string())?;
            let checked = py
                .import("ccsim.algorithms")
                .and_then(|m| m.getattr("_check_options"))
                .and_then(|f| f.call1((check_class.clone_ref(py), kwargs)));
            match checked {
                Ok(_) => Ok(()),
                Err(e) => Err(format!("{label}: {}", e.value(py))),
            }
        })
    }));
    entry
}

fn options_to_py<'py>(py: Python<'py>, options: &CcOptions) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(options)
        .map_err(|e| crate::errors::internal_error(py, &format!("the cc options as JSON: {e}")))?;
    py.import("json")?.getattr("loads")?.call1((text,))
}

fn build_instance(
    py: Python<'_>,
    name: &str,
    class: &Py<PyAny>,
    args: &CcArgs<'_>,
) -> Result<Box<dyn CongestionControl + Send>, String> {
    let who = format!("flow {:?} ({name})", args.flow);
    let built = (|| -> PyResult<PyCc> {
        let kwargs = options_to_py(py, args.options)?;
        let kwargs = kwargs.downcast::<PyDict>()?;
        let obj = class.bind(py).call((), Some(kwargs))?;
        let window = Py::new(
            py,
            PyWindow {
                cwnd: 0,
                ssthresh: 0,
                mss: args.mss,
                flight: 0,
                cwnd_limited: true,
            },
        )?;
        Ok(PyCc {
            who: who.clone(),
            on_ack: obj.getattr("on_ack")?.unbind(),
            ssthresh: own_hook(py, &obj, "ssthresh")?,
            loss_ssthresh: own_hook(py, &obj, "loss_ssthresh")?,
            on_rtt: own_hook(py, &obj, "on_rtt")?,
            on_rto: own_hook(py, &obj, "on_rto")?,
            on_state: own_hook(py, &obj, "on_state")?,
            on_delivery: own_hook(py, &obj, "on_delivery")?,
            cong_control: own_hook(py, &obj, "cong_control")?,
            on_init: own_hook(py, &obj, "on_init")?,
            window,
            mss: args.mss,
            rtt: None,
        })
    })();
    match built {
        Ok(cc) => Ok(Box::new(cc)),
        Err(e) => Err(describe_user_error(
            py,
            &format!("{who}: the constructor"),
            &e,
        )),
    }
}

/// The resolver of `"module:Class"` names: `ccsim.algorithms._describe(name)` imports and
/// checks the class, and returns it with its traits, or `None` when the name is not a Python
/// path.
fn resolve(name: &str) -> Result<Option<CcEntry>, String> {
    Python::with_gil(|py| {
        let described = py
            .import("ccsim.algorithms")
            .and_then(|m| m.getattr("_describe"))
            .and_then(|f| f.call1((name,)));
        let v = match described {
            Ok(v) => v,
            Err(e) => return Err(e.value(py).to_string()),
        };
        if v.is_none() {
            return Ok(None);
        }
        let parsed: PyResult<(Py<PyAny>, String, bool, bool, bool)> = v.extract();
        let (class, recovery, model_based, precise_ecn, wants_deliveries) =
            parsed.map_err(|e| e.to_string())?;
        let recovery = LossRecovery::from_name(&recovery)
            .ok_or_else(|| format!("{name}: recovery must be \"tahoe\", \"reno\", \"newreno\" or \"sack\", found {recovery:?}"))?;
        Ok(Some(entry_for(
            name.to_owned(),
            class,
            recovery,
            model_based,
            precise_ecn,
            wants_deliveries,
        )))
    })
}

/// Install the resolver (once per process; the module's import calls it).
pub fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        ccsim_scenario::registry::set_cc_resolver(std::sync::Arc::new(resolve));
        ccsim_scenario::registry::set_queue_resolver(std::sync::Arc::new(resolve_queue));
    });
}

/// `ccsim.register_cc(name, Class)`: register a checked class under a plain name.
#[pyfunction]
pub fn register_cc(py: Python<'_>, name: &str, class: Py<PyAny>) -> PyResult<()> {
    let described = py
        .import("ccsim.algorithms")?
        .getattr("_traits")?
        .call1((class.clone_ref(py),))?;
    let (recovery, model_based, precise_ecn, wants_deliveries): (String, bool, bool, bool) =
        described.extract()?;
    let recovery_kind = LossRecovery::from_name(&recovery).ok_or_else(|| {
        crate::errors::spec_error(
            py,
            &format!(
                "recovery must be \"tahoe\", \"reno\", \"newreno\" or \"sack\", found {recovery:?}"
            ),
            "recovery",
        )
    })?;
    let entry = entry_for(
        name.to_owned(),
        class,
        recovery_kind,
        model_based,
        precise_ecn,
        wants_deliveries,
    );
    ccsim_scenario::register_cc(name, entry).map_err(|m| crate::errors::spec_error(py, &m, "name"))
}

/// A waiting or arriving packet, as a Python queue discipline reads it.
#[pyclass(module = "ccsim._ccsim", name = "Packet", frozen)]
pub struct PyPacket {
    /// Whole packet, bytes.
    #[pyo3(get)]
    size: u32,
    /// ECT(0) or ECT(1).
    #[pyo3(get)]
    ecn_capable: bool,
    /// Already marked CE.
    #[pyo3(get)]
    ce: bool,
    /// The flow's number (the order flows are declared in, then generated).
    #[pyo3(get)]
    flow: u32,
    /// When it joined the queue, seconds (now, on enqueue).
    #[pyo3(get)]
    enqueued_at: f64,
}

impl From<&QueuedPacket> for PyPacket {
    fn from(p: &QueuedPacket) -> Self {
        PyPacket {
            size: p.size,
            ecn_capable: p.ecn_capable,
            ce: p.ce,
            flow: p.flow,
            enqueued_at: p.enqueued_at as f64 / 1e9,
        }
    }
}

#[pymethods]
impl PyPacket {
    fn __repr__(&self) -> String {
        format!(
            "Packet(size={}, flow={}, ecn_capable={}, enqueued_at={})",
            self.size,
            self.flow,
            if self.ecn_capable { "True" } else { "False" },
            self.enqueued_at
        )
    }
}

/// The queue as a Python discipline reads it: what waits, not the packet being sent.
#[pyclass(module = "ccsim._ccsim", name = "Queue")]
pub struct PyQueueView {
    /// Packets waiting.
    #[pyo3(get)]
    packets: u64,
    /// Bytes waiting.
    #[pyo3(get)]
    bytes: u64,
    /// Now, seconds.
    #[pyo3(get)]
    now: f64,
    waiting: Vec<QueuedPacket>,
}

#[pymethods]
impl PyQueueView {
    /// The `i`-th oldest waiting packet (in `dequeue` only).
    fn peek(&self, i: usize) -> PyResult<PyPacket> {
        self.waiting.get(i).map(PyPacket::from).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(if self.waiting.is_empty() {
                "peek(i) reads the waiting packets in dequeue only".to_string()
            } else {
                format!("peek({i}): {} packets wait", self.waiting.len())
            })
        })
    }
    fn __repr__(&self) -> String {
        format!(
            "Queue(packets={}, bytes={}, now={})",
            self.packets, self.bytes, self.now
        )
    }
}

/// One link direction's Python discipline.
struct PyQueue {
    /// `link "a->b" (module:Class)`, for messages.
    who: String,
    enqueue: Py<PyAny>,
    dequeue: Option<Py<PyAny>>,
    view: Py<PyQueueView>,
}

impl PyQueue {
    fn call(
        &self,
        py: Python<'_>,
        hook: &Py<PyAny>,
        name: &str,
        args: impl for<'a> IntoPyObject<'a, Target = pyo3::types::PyTuple>,
    ) -> Py<PyAny> {
        match hook.call1(py, args) {
            Ok(v) => v,
            Err(e) => hook_failed(py, &format!("{}.{name}", self.who), e),
        }
    }

    fn set_view(&self, py: Python<'_>, q: &QueueState, waiting: Vec<QueuedPacket>) {
        let mut v = self.view.borrow_mut(py);
        v.packets = q.packets;
        v.bytes = q.bytes;
        v.now = q.now as f64 / 1e9;
        v.waiting = waiting;
    }

    fn bad_return(&self, py: Python<'_>, name: &str, v: &Py<PyAny>, expected: &str) -> ! {
        let found = v
            .bind(py)
            .repr()
            .map_or_else(|_| "?".into(), |r| r.to_string());
        fail(format!(
            "{}.{name} must return {expected}, returned {found}",
            self.who
        ))
    }
}

impl QueueDiscipline for PyQueue {
    fn enqueue(&mut self, pkt: &QueuedPacket, q: &QueueState) -> Admit {
        Python::with_gil(|py| {
            self.set_view(py, q, Vec::new());
            let p = match Py::new(py, PyPacket::from(pkt)) {
                Ok(p) => p,
                Err(e) => fail(describe_user_error(py, &self.who, &e)),
            };
            let v = self.call(py, &self.enqueue, "enqueue", (p, self.view.clone_ref(py)));
            match v.extract::<&str>(py) {
                Ok("accept") => Admit::Accept,
                Ok("drop") => Admit::Drop,
                Ok("mark") => Admit::Mark,
                _ => self.bad_return(py, "enqueue", &v, "\"accept\", \"drop\" or \"mark\""),
            }
        })
    }

    fn reads_dequeue(&self) -> bool {
        self.dequeue.is_some()
    }

    fn dequeue(&mut self, q: &QueueState, waiting: &dyn Fn(usize) -> QueuedPacket) -> Pick {
        let Some(h) = &self.dequeue else {
            return Pick::Send(0);
        };
        let n = usize::try_from(q.packets).unwrap_or(usize::MAX);
        let all: Vec<QueuedPacket> = (0..n).map(waiting).collect();
        Python::with_gil(|py| {
            self.set_view(py, q, all);
            let v = self.call(py, h, "dequeue", (self.view.clone_ref(py),));
            self.view.borrow_mut(py).waiting = Vec::new();
            let expected = "None, \"send\", \"drop\" or \"mark\" (the oldest packet), an index, or (action, index) with an index below q.packets";
            let in_range = |i: usize| if i < n { Some(i) } else { None };
            let pick = if v.is_none(py) {
                Some(Pick::Send(0))
            } else if let Ok(s) = v.extract::<&str>(py) {
                match s {
                    "send" | "accept" => Some(Pick::Send(0)),
                    "drop" => Some(Pick::Drop(0)),
                    "mark" => Some(Pick::Mark(0)),
                    _ => None,
                }
            } else if let Ok(i) = v.extract::<usize>(py) {
                in_range(i).map(Pick::Send)
            } else if let Ok((s, i)) = v.extract::<(String, usize)>(py) {
                match (s.as_str(), in_range(i)) {
                    ("send" | "accept", Some(i)) => Some(Pick::Send(i)),
                    ("drop", Some(i)) => Some(Pick::Drop(i)),
                    ("mark", Some(i)) => Some(Pick::Mark(i)),
                    _ => None,
                }
            } else {
                None
            };
            pick.unwrap_or_else(|| self.bad_return(py, "dequeue", &v, expected))
        })
    }
}

fn build_queue(
    py: Python<'_>,
    class_name: &str,
    class: &Py<PyAny>,
    args: &QueueArgs<'_>,
) -> Result<Box<dyn QueueDiscipline + Send>, String> {
    let who = format!("link {:?} ({class_name})", args.link);
    let built = (|| -> PyResult<PyQueue> {
        let kwargs = options_to_py(py, args.options)?;
        let kwargs = kwargs.downcast::<PyDict>()?;
        let obj = class.bind(py).call((), Some(kwargs))?;
        let base = py.import("ccsim.algorithms")?.getattr("QueueDiscipline")?;
        let dequeue = if obj
            .get_type()
            .getattr("dequeue")?
            .is(&base.getattr("dequeue")?)
        {
            None
        } else {
            Some(obj.getattr("dequeue")?.unbind())
        };
        Ok(PyQueue {
            who: who.clone(),
            enqueue: obj.getattr("enqueue")?.unbind(),
            dequeue,
            view: Py::new(
                py,
                PyQueueView {
                    packets: 0,
                    bytes: 0,
                    now: 0.0,
                    waiting: Vec::new(),
                },
            )?,
        })
    })();
    match built {
        Ok(q) => Ok(Box::new(q)),
        Err(e) => Err(describe_user_error(
            py,
            &format!("{who}: the constructor"),
            &e,
        )),
    }
}

fn queue_entry(name: String, class: Py<PyAny>) -> QueueEntry {
    let check_class = Python::with_gil(|py| class.clone_ref(py));
    let label = name.clone();
    QueueEntry {
        factory: std::sync::Arc::new(move |args: &QueueArgs<'_>| {
            Python::with_gil(|py| build_queue(py, &name, &class, args))
        }),
        check: Some(std::sync::Arc::new(move |options: &CcOptions| {
            Python::with_gil(|py| {
                let kwargs = options_to_py(py, options).map_err(|e| e.to_string())?;
                py.import("ccsim.algorithms")
                    .and_then(|m| m.getattr("_check_options"))
                    .and_then(|f| f.call1((check_class.clone_ref(py), kwargs)))
                    .map(|_| ())
                    .map_err(|e| format!("{label}: {}", e.value(py)))
            })
        })),
    }
}

/// The resolver of Python queue classes: `ccsim.algorithms._describe_queue(name)`.
fn resolve_queue(name: &str) -> Result<Option<QueueEntry>, String> {
    Python::with_gil(|py| {
        let described = py
            .import("ccsim.algorithms")
            .and_then(|m| m.getattr("_describe_queue"))
            .and_then(|f| f.call1((name,)));
        match described {
            Ok(v) if v.is_none() => Ok(None),
            Ok(v) => Ok(Some(queue_entry(name.to_owned(), v.unbind()))),
            Err(e) => Err(e.value(py).to_string()),
        }
    })
}

/// `ccsim.register_queue(name, Class)`: register a checked class under a plain name.
#[pyfunction]
pub fn register_queue(py: Python<'_>, name: &str, class: Py<PyAny>) -> PyResult<()> {
    ccsim_scenario::registry::register_queue(name, queue_entry(name.to_owned(), class))
        .map_err(|m| crate::errors::spec_error(py, &m, "name"))
}
