//! The memory guard: a run stops with an error, rather than exhausting the machine, when the
//! process's resident memory passes a limit.
//!
//! Validation bounds every key whose value sizes memory (docs/scenarios.md, "Bounds"), but a
//! scenario can still hold more than the machine has by legitimate means (a huge queue fed
//! faster than it drains, millions of flows). The run loop asks [`MemoryGuard::check`]
//! between chunks of events.
//! CHOICE: the limit is 80 % of the machine's physical memory, or `CCSIM_MEMORY_LIMIT`
//! (bytes, or a size such as "8GB"); resident memory is read from `/proc/self/status`, so
//! the guard is active on Linux only.

use crate::error::ScenarioError;

/// The fraction of physical memory a run may hold by default.
pub const DEFAULT_FRACTION: f64 = 0.8;

/// Compares resident memory against the limit.
#[derive(Clone, Copy, Debug)]
pub struct MemoryGuard {
    limit: Option<u64>,
}

fn kib_field(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line[key.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

/// Resident memory of this process, bytes (`None` where `/proc` is unavailable).
#[must_use]
pub fn resident_bytes() -> Option<u64> {
    kib_field(
        &std::fs::read_to_string("/proc/self/status").ok()?,
        "VmRSS:",
    )
}

fn physical_bytes() -> Option<u64> {
    kib_field(&std::fs::read_to_string("/proc/meminfo").ok()?, "MemTotal:")
}

/// Parse `CCSIM_MEMORY_LIMIT`: whole bytes, or a number with B, kB, MB, GB (powers of 1000).
fn parse_limit(text: &str) -> Option<u64> {
    let t = text.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let scale = match unit.trim() {
        "" | "B" => 1.0,
        "kB" | "KB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "TB" => 1e12,
        _ => return None,
    };
    let v: f64 = num.trim().parse().ok()?;
    (v.is_finite() && v > 0.0 && v * scale < 1.8e19).then_some((v * scale) as u64)
}

impl MemoryGuard {
    /// The guard for this process: the limit from `CCSIM_MEMORY_LIMIT`, else
    /// [`DEFAULT_FRACTION`] of physical memory.
    ///
    /// # Errors
    /// A [`ScenarioError::Spec`] at `CCSIM_MEMORY_LIMIT` if the variable is set but unreadable.
    pub fn from_env() -> Result<Self, ScenarioError> {
        let limit = match std::env::var("CCSIM_MEMORY_LIMIT") {
            Ok(text) => Some(parse_limit(&text).ok_or_else(|| {
                ScenarioError::spec(
                    "CCSIM_MEMORY_LIMIT",
                    format!("{text:?} is not a memory size (try \"8GB\")"),
                )
            })?),
            Err(_) => physical_bytes().map(|b| (b as f64 * DEFAULT_FRACTION) as u64),
        };
        Ok(MemoryGuard { limit })
    }

    /// `Err` if the process holds more than the limit; `at_seconds` is the simulated time,
    /// for the message.
    ///
    /// # Errors
    /// [`ScenarioError::Resources`] naming the memory held and the limit.
    pub fn check(&self, at_seconds: f64) -> Result<(), ScenarioError> {
        let (Some(limit), Some(rss)) = (self.limit, resident_bytes()) else {
            return Ok(());
        };
        if rss <= limit {
            return Ok(());
        }
        Err(ScenarioError::Resources(format!(
            "run stopped at t = {at_seconds:.3} s: it holds {:.2} GB, over the memory limit of \
             {:.2} GB (80 % of this machine's memory unless CCSIM_MEMORY_LIMIT is set); a \
             queue, window or flow count that large needs a larger machine",
            rss as f64 / 1e9,
            limit as f64 / 1e9
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_parse_in_bytes_and_decimal_units() {
        assert_eq!(parse_limit("1000"), Some(1000));
        assert_eq!(parse_limit("8GB"), Some(8_000_000_000));
        assert_eq!(parse_limit(" 1.5 MB"), Some(1_500_000));
        assert_eq!(parse_limit("-1GB"), None);
        assert_eq!(parse_limit("8 GiB"), None);
        assert_eq!(parse_limit("nan"), None);
    }

    #[test]
    fn resident_memory_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            let rss = resident_bytes().expect("VmRSS in /proc/self/status");
            assert!(rss > 100_000, "a process holds at least 100 kB, read {rss}");
        }
    }

    #[test]
    fn a_limit_below_what_is_held_stops_the_run() {
        let guard = MemoryGuard { limit: Some(1) };
        if resident_bytes().is_some() {
            let e = guard.check(2.5).unwrap_err();
            assert!(e.to_string().contains("t = 2.500 s"), "{e}");
        }
        assert!(MemoryGuard { limit: None }.check(0.0).is_ok());
    }
}
