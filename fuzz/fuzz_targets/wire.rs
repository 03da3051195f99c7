//! Coverage-guided fuzzing of every wire parser: IPv4, UDP, TCP and its options, and the
//! private header with its round trip. See fuzz/README.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    ccsim_wire::fuzzing::check(data);
});
