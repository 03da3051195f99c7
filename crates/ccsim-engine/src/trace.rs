//! Opt-in time series, stored in columns.
//!
//! A record is (time in ns, entity index, variable index, value). Entities (flows, link
//! directions) and variables are named in tables beside the columns, so the columns hand over
//! to Arrow or numpy without per-row objects.

use ccsim_core::{Dur, VarId};

/// What to sample periodically and which agent variables to record on change.
#[derive(Clone, Debug, Default)]
pub struct SeriesConfig {
    /// Sampling interval; `Dur::ZERO` disables periodic sampling.
    pub interval: Dur,
    /// Sample each flow's delivered rate (bit/s over the interval).
    pub flow_rate: bool,
    /// Sample each flow's sent rate (bit/s of data handed to the network over the interval).
    pub flow_sent_rate: bool,
    /// Sample each flow's mean one-way delay of data delivered in the interval (seconds).
    pub flow_delay: bool,
    /// Sample each link direction's queue length (packets and bytes).
    pub queue: bool,
    /// Agent variables to sample at each interval.
    pub sampled_vars: Vec<VarId>,
    /// Agent variables to record at every change.
    pub change_vars: Vec<VarId>,
}

impl SeriesConfig {
    /// Whether any series is sampled at intervals (otherwise no sampling event is scheduled).
    #[must_use]
    pub fn samples_anything(&self) -> bool {
        self.flow_rate
            || self.flow_sent_rate
            || self.flow_delay
            || self.queue
            || !self.sampled_vars.is_empty()
    }
}

/// Columnar trace records.
#[derive(Clone, Debug, Default)]
pub struct TraceBuf {
    /// Times, ns.
    pub time_ns: Vec<u64>,
    /// Entity indices (into the simulation's entity table).
    pub entity: Vec<u32>,
    /// Variable indices (into [`TraceBuf::var_names`]).
    pub var: Vec<u16>,
    /// Values.
    pub value: Vec<f64>,
}

impl TraceBuf {
    /// Variable names, indexed by the `var` column: agent variables sampled at intervals, in
    /// [`VarId`] code order; the engine's own series; then the agents' change traces
    /// (`"cwnd:change"`, ...), so samples and change points never share a name.
    #[must_use]
    pub fn var_names() -> Vec<&'static str> {
        let mut names: Vec<&'static str> = VarId::ALL.iter().map(|v| v.name()).collect();
        names.extend(ENGINE_VARS);
        names.extend(VarId::ALL.iter().map(|v| v.change_name()));
        names
    }

    /// Append one record.
    #[inline]
    pub fn push(&mut self, time_ns: u64, entity: u32, var: u16, value: f64) {
        self.time_ns.push(time_ns);
        self.entity.push(entity);
        self.var.push(var);
        self.value.push(value);
    }

    /// Number of records.
    #[must_use]
    pub fn len(&self) -> usize {
        self.time_ns.len()
    }

    /// Whether there are no records.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.time_ns.is_empty()
    }
}

/// The engine's own series, after the agent variables.
pub const ENGINE_VARS: [&str; 5] = ["rate", "queue", "queue_bytes", "delay", "sent_rate"];
/// Index of "rate" in the variable table.
pub const VAR_RATE: u16 = VarId::ALL.len() as u16;
/// Index of "queue".
pub const VAR_QUEUE: u16 = VAR_RATE + 1;
/// Index of "queue_bytes".
pub const VAR_QUEUE_BYTES: u16 = VAR_RATE + 2;
/// Index of "delay".
pub const VAR_DELAY: u16 = VAR_RATE + 3;
/// Index of "sent_rate".
pub const VAR_SENT_RATE: u16 = VAR_RATE + 4;
/// Index of the first change trace; variable `v`'s is `VAR_CHANGE_BASE + v as u16`.
pub const VAR_CHANGE_BASE: u16 = VAR_RATE + ENGINE_VARS.len() as u16;
