//! Coverage-guided fuzzing of scenario reading, validation, building and the first events
//! of a run. See fuzz/README.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    ccsim_scenario::fuzzing::exercise(data);
});
