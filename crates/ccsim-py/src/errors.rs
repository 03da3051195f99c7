//! The one place where Rust errors become Python exceptions.
//!
//! The classes live in `ccsim.errors` (Python), so they can use multiple inheritance:
//! `SpecError(CcsimError, ValueError)` with `.path`, `SimulationError(CcsimError,
//! RuntimeError)`, `ResourceError(CcsimError, OSError)` with `.resource`, and
//! `InternalError(CcsimError)` for caught panics and broken invariants. No other exception
//! leaves the native module (tests/test_errors.py reads every call site).

use ccsim_scenario::ScenarioError;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;

fn make(py: Python<'_>, class: &str, args: (String, Option<String>)) -> PyErr {
    let built = py
        .import("ccsim.errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1(args.clone()));
    match built {
        Ok(exc) => PyErr::from_value(exc),
        // Only if ccsim.errors itself cannot be imported, which leaves nothing better to raise.
        Err(_) => PyRuntimeError::new_err(args.0),
    }
}

/// Convert a scenario error into the matching `ccsim.errors` exception.
pub fn to_pyerr(py: Python<'_>, e: &ScenarioError) -> PyErr {
    match e {
        ScenarioError::Spec { path, message } => {
            make(py, "SpecError", (message.clone(), Some(path.clone())))
        }
        ScenarioError::Syntax { line, column, .. } => make(
            py,
            "SpecError",
            (e.to_string(), Some(format!("line {line}, column {column}"))),
        ),
        ScenarioError::Interrupted { .. } => PyKeyboardInterrupt::new_err(e.to_string()),
        ScenarioError::Resources(m) => make(py, "SimulationError", (m.clone(), None)),
        ScenarioError::Internal(_) => make(py, "InternalError", (e.to_string(), None)),
    }
}

/// An `InternalError` for a caught panic or broken invariant.
pub fn internal_error(py: Python<'_>, message: &str) -> PyErr {
    make(
        py,
        "InternalError",
        (format!("internal error (please report): {message}"), None),
    )
}

/// A `SpecError` at `path`.
pub fn spec_error(py: Python<'_>, message: &str, path: &str) -> PyErr {
    make(py, "SpecError", (message.to_owned(), Some(path.to_owned())))
}

/// A `UserCodeError`: an exception in a user's algorithm ended the run.
pub fn user_code_error(py: Python<'_>, message: &str) -> PyErr {
    make(py, "UserCodeError", (message.to_owned(), None))
}

/// A `SimulationError`: the call could not be carried out.
pub fn simulation_error(py: Python<'_>, message: &str) -> PyErr {
    make(py, "SimulationError", (message.to_owned(), None))
}

/// A `ResourceError`: the machine refused or lacks `resource` (a device, a socket, an
/// address, threads).
pub fn resource_error(py: Python<'_>, message: &str, resource: &str) -> PyErr {
    make(
        py,
        "ResourceError",
        (message.to_owned(), Some(resource.to_owned())),
    )
}
