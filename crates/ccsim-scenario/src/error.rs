//! Errors of the scenario layer.

use thiserror::Error;

/// Everything that can go wrong between a spec and a result.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ScenarioError {
    /// The spec is malformed or inconsistent; `path` names the field (e.g. `links[3].rate`).
    #[error("{path}: {message}")]
    Spec {
        /// Field path, e.g. `flows[0].protocol`.
        path: String,
        /// What was expected and what was found.
        message: String,
    },
    /// The TOML text does not parse.
    #[error("TOML syntax error at line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// The run was stopped from outside (Ctrl-C).
    #[error("run interrupted at t = {at_seconds:.3} s")]
    Interrupted {
        /// Simulated time reached.
        at_seconds: f64,
    },
    /// The run needs more of the machine than it may take (the memory guard).
    #[error("{0}")]
    Resources(String),
    /// A broken internal invariant (a bug in ccsim).
    #[error("internal error: {0}")]
    Internal(String),
}

impl ScenarioError {
    /// A spec error at `path`.
    pub fn spec(path: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError::Spec {
            path: path.into(),
            message: message.into(),
        }
    }

    /// Whether the error is the user's input (exit status 2) rather than ccsim's (1).
    #[must_use]
    pub fn is_input_error(&self) -> bool {
        matches!(
            self,
            ScenarioError::Spec { .. } | ScenarioError::Syntax { .. }
        )
    }
}
