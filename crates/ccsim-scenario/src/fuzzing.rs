//! The scenario fuzz target's body, shared by the coverage-guided fuzzer (`fuzz/`, run
//! with `cargo fuzz`) and the corpus replay test that runs in CI
//! (`tests/fuzz_corpus.rs`).
//!
//! Any byte string goes through the two readers (TOML, then JSON), validation, building
//! and a bounded stretch of simulation; whatever the input, this must return rather than
//! panic, and a run that starts must keep its conservation law.

use crate::run::{build, RunOptions};
use crate::{parse_spec_json, parse_spec_toml, Spec};

/// Events simulated per accepted input: enough to reach every agent's first callbacks,
/// few enough to keep the fuzzer at thousands of inputs per second.
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
    let Ok(mut built) = build(spec, &RunOptions::default()) else {
        return;
    };
    built.sim.run_until_horizon(EVENTS_PER_INPUT);
    if let Err(e) = built.sim.check_conservation() {
        panic!("conservation broken: {e}");
    }
}
