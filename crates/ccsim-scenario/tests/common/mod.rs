//! Helpers shared by the scenario tests.
#![allow(dead_code)]

use ccsim_scenario::{parse_spec_value, run, RunOptions, RunOutcome, Spec};

/// Parse a JSON spec or fail the test with the error.
#[track_caller]
pub fn spec(value: serde_json::Value) -> Spec {
    parse_spec_value(value).unwrap_or_else(|e| panic!("spec rejected: {e}"))
}

/// Run to the end; `run` checks both conservation laws and fails on a violation.
#[track_caller]
pub fn run_spec(spec: &Spec) -> RunOutcome {
    run_with(spec, RunOptions::default())
}

#[track_caller]
pub fn run_with(spec: &Spec, options: RunOptions) -> RunOutcome {
    run(spec, options, &mut |_| true).unwrap_or_else(|e| panic!("run failed: {e}"))
}

/// The spec-level error message for a bad document.
#[track_caller]
pub fn spec_error(value: serde_json::Value) -> String {
    match parse_spec_value(value) {
        Ok(_) => panic!("spec unexpectedly accepted"),
        Err(e) => e.to_string(),
    }
}
