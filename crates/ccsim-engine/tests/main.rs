//! The engine's integration tests, built as one binary: each file of this folder is a module of
//! it (Cargo.toml, `[[test]]`), so the crate graph is linked once, not once per file.

mod common;
mod delivery;
mod dualpi2;
mod dynamics;
mod engine;
mod red;
