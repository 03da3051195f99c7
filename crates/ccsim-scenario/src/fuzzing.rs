//! The scenario fuzz target's body, shared by the coverage-guided fuzzer (`fuzz/`, run
//! with `cargo fuzz`) and the corpus replay test that runs in CI
//! (`tests/fuzz_corpus.rs`).
//!
//! Any byte string goes through the two readers (TOML, then JSON), validation, and the whole
//! `run` path, as `ccsim run` takes it: packet captures, web arrivals and retirements,
//! failures, the memory guard, the conservation check at the end, the summary and the output
//! tables, for up to [`EVENTS_PER_INPUT`] events (a run that needs more is stopped there, as
//! Ctrl-C stops it). Whatever the input, this must return rather than panic.

use crate::error::ScenarioError;
use crate::netsim::RunOptions;
use crate::run::run;
use crate::spec::{parse_spec_json, parse_spec_toml, Spec};

/// Events simulated per accepted input: enough to reach every agent's first callbacks and to
/// finish short runs (so that their summaries and outputs are made), few enough to keep the
/// fuzzer at thousands of inputs per second.
pub const EVENTS_PER_INPUT: u64 = 5_000;

/// Feed `data` through every stage; panics only on a defect (a panic inside, or a broken
/// conservation law).
pub fn exercise(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(spec) = parse_spec_toml(text) {
        simulate(&spec);
    }
    if let Ok(spec) = parse_spec_json(text) {
        simulate(&spec);
    }
}

fn simulate(spec: &Spec) {
    // Canonical form must read back to the same spec.
    let canonical = spec.canonical_json();
    let again = parse_spec_json(&canonical)
        .unwrap_or_else(|e| panic!("canonical form does not read back: {e}\n{canonical}"));
    assert_eq!(
        again.canonical_json(),
        canonical,
        "canonical form is stable"
    );
    let options = RunOptions {
        chunk_events: EVENTS_PER_INPUT,
        ..RunOptions::default()
    };
    match run(spec, options, &mut |p| p.events < EVENTS_PER_INPUT) {
        Ok(outcome) => {
            // summary.json as it is written.
            serde_json::to_string(&outcome.summary).expect("a summary always serialises");
        }
        // A conservation law broken (or any other invariant) is a defect.
        Err(ScenarioError::Internal(e)) => panic!("internal error: {e}"),
        // Refused input, the memory guard, or stopped at the event budget.
        Err(_) => {}
    }
}
