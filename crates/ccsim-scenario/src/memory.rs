//! The memory guard: a run stops with an error, rather than exhausting the machine, when the
//! process's resident memory passes a limit.
//!
//! Validation bounds every key whose value sizes memory (docs/scenarios.md, "Bounds"), but a
//! scenario can still hold more than the machine has by legitimate means (a huge queue fed
//! faster than it drains, millions of flows). The run loop asks [`MemoryGuard::check`]
//! between chunks of events.
//! CHOICE: resident memory may reach 80 % of the smallest of the machine's physical memory
//! and the memory limit of the process's control group (cgroup v2 `memory.max`, v1
//! `memory.limit_in_bytes`: containers, CI runners, notebook servers), or exactly
//! `CCSIM_MEMORY_LIMIT` (bytes, or a size such as "8GB") when that is set; and the process's
//! address space may reach 80 % of its `ulimit -v` (RLIMIT_AS, read from
//! `/proc/self/limits`). Everything is read from `/proc` and `/sys/fs/cgroup`, so the guard
//! is active on Linux only. It checks between chunks of events, so one growth step inside a
//! chunk (a vector doubling) can still pass the limit before it is seen.

use crate::error::ScenarioError;

/// The fraction of physical memory a run may hold by default.
pub const DEFAULT_FRACTION: f64 = 0.8;

/// Compares resident memory and address space against their limits.
#[derive(Clone, Copy, Debug)]
pub struct MemoryGuard {
    /// Resident bytes allowed, and where the number comes from (for the message).
    limit: Option<(u64, &'static str)>,
    /// Address-space bytes allowed (from RLIMIT_AS).
    address_limit: Option<u64>,
}

/// Limits at or above this are "unlimited" (cgroup v1 writes 2^63 rounded to a page).
const UNLIMITED: u64 = 1 << 60;

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

/// Address space of this process, bytes.
fn address_space_bytes() -> Option<u64> {
    kib_field(
        &std::fs::read_to_string("/proc/self/status").ok()?,
        "VmSize:",
    )
}

fn physical_bytes() -> Option<u64> {
    kib_field(&std::fs::read_to_string("/proc/meminfo").ok()?, "MemTotal:")
}

fn read_limit(path: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.trim().parse::<u64>().ok().filter(|&b| b < UNLIMITED)
}

/// The memory limit of this process's control group, bytes (`None` if unlimited or unknown).
fn cgroup_bytes() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut candidates = vec![
        "/sys/fs/cgroup/memory.max".to_string(),
        "/sys/fs/cgroup/memory/memory.limit_in_bytes".to_string(),
    ];
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        if controllers.is_empty() {
            candidates.push(format!("/sys/fs/cgroup{path}/memory.max"));
        } else if controllers.split(',').any(|c| c == "memory") {
            candidates.push(format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes"));
        }
    }
    candidates.iter().filter_map(|p| read_limit(p)).min()
}

/// The soft RLIMIT_AS (`ulimit -v`), bytes, from `/proc/self/limits`.
fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    soft.parse::<u64>().ok().filter(|&b| b < UNLIMITED)
}

/// A memory size for a message: "52 MB", "3.21 GB".
fn size(bytes: u64) -> String {
    if bytes < 1_000_000_000 {
        format!("{:.0} MB", bytes as f64 / 1e6)
    } else {
        format!("{:.2} GB", bytes as f64 / 1e9)
    }
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
            Ok(text) => Some((
                parse_limit(&text).ok_or_else(|| {
                    ScenarioError::spec(
                        "CCSIM_MEMORY_LIMIT",
                        format!("{text:?} is not a memory size (try \"8GB\")"),
                    )
                })?,
                "set by CCSIM_MEMORY_LIMIT",
            )),
            Err(_) => {
                let fraction = |b: u64| (b as f64 * DEFAULT_FRACTION) as u64;
                match (physical_bytes(), cgroup_bytes()) {
                    (Some(m), Some(c)) if c < m => {
                        Some((fraction(c), "80 % of this control group's memory limit"))
                    }
                    (Some(m), _) => Some((fraction(m), "80 % of this machine's memory")),
                    (None, Some(c)) => {
                        Some((fraction(c), "80 % of this control group's memory limit"))
                    }
                    (None, None) => None,
                }
            }
        };
        let address_limit = address_space_limit().map(|b| b / 10 * 8);
        Ok(MemoryGuard {
            limit,
            address_limit,
        })
    }

    /// `Err` if the process holds more than the limit; `at_seconds` is the simulated time,
    /// for the message.
    ///
    /// # Errors
    /// [`ScenarioError::Resources`] naming the memory held and the limit.
    pub fn check(&self, at_seconds: f64) -> Result<(), ScenarioError> {
        let stop = |held: u64, limit: u64, what: &str| {
            Err(ScenarioError::Resources(format!(
                "run stopped at t = {at_seconds:.3} s: it holds {}, over the memory limit of {} \
                 ({what}); a queue, window, flow count or series that large needs more memory",
                size(held),
                size(limit)
            )))
        };
        if let (Some((limit, what)), Some(rss)) = (self.limit, resident_bytes()) {
            if rss > limit {
                return stop(rss, limit, what);
            }
        }
        if let (Some(limit), Some(vm)) = (self.address_limit, address_space_bytes()) {
            if vm > limit {
                return stop(vm, limit, "80 % of the address-space limit, ulimit -v");
            }
        }
        Ok(())
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
        let guard = MemoryGuard {
            limit: Some((1, "a test")),
            address_limit: None,
        };
        if resident_bytes().is_some() {
            let e = guard.check(2.5).unwrap_err();
            assert!(e.to_string().contains("t = 2.500 s"), "{e}");
            assert!(e.to_string().contains("(a test)"), "{e}");
        }
        let none = MemoryGuard {
            limit: None,
            address_limit: None,
        };
        assert!(none.check(0.0).is_ok());
    }
}
