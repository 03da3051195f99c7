//! ccsim-scenario: the scenario spec, its validation, and building and running a simulation.
//!
//! One spec, two doors: a TOML file and the Python builder both produce the JSON-shaped
//! document that [`parse_spec_json`] / [`parse_spec_toml`] turn into a validated [`Spec`].
//! Every error names the field path, what was expected and what was found.

pub mod bench;
pub mod capture;
pub mod error;
pub mod fuzzing;
pub mod generators;
pub mod memory;
pub mod outputs;
pub mod parquet;
pub mod pcap;
pub mod protocols;
pub mod run;
pub mod spec;
pub mod summary;
pub mod units;

pub use protocols::tcpm;
pub use protocols::ticp;

pub use error::ScenarioError;
pub use run::{check, run, RunOptions, RunOutcome, RunProgress, RunResults};
pub use spec::{parse_spec_json, parse_spec_toml, parse_spec_value, schema_json, Spec};
