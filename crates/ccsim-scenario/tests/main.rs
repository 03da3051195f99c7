//! The scenario crate's integration tests, built as one binary: each file of this folder is a
//! module of it (Cargo.toml, `[[test]]`), so the whole crate graph is linked once, not once per
//! file (nineteen links took 27 s of a clean build on two cores).

mod common;
mod cubic;
mod dctcp;
mod dualpi2_spec;
mod fuzz_corpus;
mod obp;
mod pcap_tshark;
mod physics;
mod primo;
mod property;
mod rate_based;
mod red_ecn;
mod strict_spec;
mod tcp;
mod tcp_family;
mod tcpm;
mod ticp;
mod trace;
mod traffic;
mod xcp;
