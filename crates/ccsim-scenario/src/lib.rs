//! ccsim-scenario: the scenario spec, its validation, and building and running a simulation.
//!
//! One spec, two doors: a TOML file and the Python builder both produce the JSON-shaped
//! document that [`parse_spec_json`] / [`parse_spec_toml`] turn into a validated [`Spec`].
//! Every error names the field path, what was expected and what was found.
//!
//! The modules import one way (docs/architecture.md, "Inside ccsim-scenario"): [`run`] on top;
//! [`generators`], [`outputs`], [`summary`], [`protocols`] and [`capture`] below it, on the
//! build context [`netsim`]; [`spec`], [`units`] and [`error`] below everything. Inside the
//! crate a module names the module that holds an item, not these re-exports.
#![forbid(unsafe_code)]

pub mod bench;
pub mod bisection;
pub mod capture;
pub mod error;
pub mod fuzzing;
pub mod generators;
pub mod memory;
pub mod netsim;
pub mod outputs;
pub mod parquet;
pub mod paths;
pub mod pcap;
pub mod protocols;
pub mod real;
pub mod registry;
pub mod run;
pub mod spec;
pub mod summary;
pub mod units;
pub mod workloads;

pub use protocols::tcpm;
pub use protocols::ticp;

pub use error::ScenarioError;
pub use netsim::RunOptions;
pub use outputs::RunResults;
pub use run::{check, run, RunOutcome, RunProgress};
pub use spec::flows::register_cc;
pub use spec::{parse_spec_json, parse_spec_toml, parse_spec_value, schema_json, Spec};
