//! Units: integer nanoseconds, bits per second and bytes, with human parsing.
//!
//! CHOICE: all multipliers are decimal (k = 1000, M = 10^6, G = 10^9), as in networking
//! practice ("10Mbps" is 10 000 000 bit/s, "20kB" is 20 000 bytes). Parsing rejects
//! negative numbers and unknown suffixes with a message that suggests the nearest form.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// An absolute simulated instant, in nanoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

/// A duration in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dur(pub u64);

/// A bit rate in bits per second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rate(pub u64);

/// A size in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bytes(pub u64);

/// Nanoseconds per second.
pub const NANOS_PER_SEC: u64 = 1_000_000_000;

impl SimTime {
    /// Time zero.
    pub const ZERO: SimTime = SimTime(0);
    /// The largest representable instant; used as "never".
    pub const NEVER: SimTime = SimTime(u64::MAX);
    /// Nanoseconds since the start.
    #[must_use]
    pub fn as_nanos(self) -> u64 {
        self.0
    }
    /// Seconds since the start, as a float (for reporting only, never for scheduling).
    #[must_use]
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / NANOS_PER_SEC as f64
    }
    /// The duration from `earlier` to `self`, zero if `earlier` is later.
    #[must_use]
    pub fn since(self, earlier: SimTime) -> Dur {
        Dur(self.0.saturating_sub(earlier.0))
    }
}

impl Dur {
    /// Zero duration.
    pub const ZERO: Dur = Dur(0);
    /// A duration of whole milliseconds.
    #[must_use]
    pub const fn from_millis(ms: u64) -> Dur {
        Dur(ms * 1_000_000)
    }
    /// A duration of whole microseconds.
    #[must_use]
    pub const fn from_micros(us: u64) -> Dur {
        Dur(us * 1_000)
    }
    /// A duration of whole seconds.
    #[must_use]
    pub const fn from_secs(s: u64) -> Dur {
        Dur(s * NANOS_PER_SEC)
    }
    /// Nanoseconds.
    #[must_use]
    pub fn as_nanos(self) -> u64 {
        self.0
    }
    /// Seconds as a float (reporting only).
    #[must_use]
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / NANOS_PER_SEC as f64
    }
}

impl Rate {
    /// Time to serialize `bytes` at this rate: ceil(bits * 1e9 / rate) nanoseconds.
    ///
    /// # Panics
    /// Panics if the rate is zero (validation rejects zero rates before a run is built).
    #[must_use]
    pub fn tx_time(self, bytes: u64) -> Dur {
        assert!(self.0 > 0, "invariant: rates are validated to be positive");
        let bits = u128::from(bytes) * 8 * u128::from(NANOS_PER_SEC);
        let rate = u128::from(self.0);
        Dur(u64::try_from(bits.div_ceil(rate)).unwrap_or(u64::MAX))
    }
    /// Bits per second.
    #[must_use]
    pub fn bps(self) -> u64 {
        self.0
    }
}

impl Add<Dur> for SimTime {
    type Output = SimTime;
    fn add(self, d: Dur) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}
impl AddAssign<Dur> for SimTime {
    fn add_assign(&mut self, d: Dur) {
        self.0 = self.0.saturating_add(d.0);
    }
}
impl Sub for SimTime {
    type Output = Dur;
    fn sub(self, o: SimTime) -> Dur {
        self.since(o)
    }
}
impl Add for Dur {
    type Output = Dur;
    fn add(self, d: Dur) -> Dur {
        Dur(self.0.saturating_add(d.0))
    }
}

/// Why a unit string could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitError {
    /// A human message, e.g. `"10Mbs" is not a rate (try "10Mbps")`.
    pub message: String,
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for UnitError {}

/// Split "12.5Mbps" into (12.5 as an exact decimal, "Mbps").
fn split_number(s: &str) -> Option<(Decimal, &str)> {
    let s = s.trim();
    let end = s
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || *c == '.'))
        .map_or(s.len(), |(i, _)| i);
    let (num, unit) = s.split_at(end);
    Some((Decimal::parse(num)?, unit.trim()))
}

/// A non-negative decimal number kept exact: `mantissa / 10^scale`.
#[derive(Clone, Copy, Debug)]
struct Decimal {
    mantissa: u128,
    scale: u32,
}

impl Decimal {
    fn parse(s: &str) -> Option<Decimal> {
        if s.is_empty() || s == "." {
            return None;
        }
        let (int, frac) = match s.split_once('.') {
            Some((i, f)) => (i, f),
            None => (s, ""),
        };
        if frac.contains('.') || frac.len() > 18 {
            return None;
        }
        let digits = format!("{int}{frac}");
        let mantissa: u128 = digits.parse().ok()?;
        Some(Decimal {
            mantissa,
            scale: u32::try_from(frac.len()).ok()?,
        })
    }
    /// `self * multiplier` if it is a whole number that fits `u64`.
    fn times(self, multiplier: u64) -> Result<u64, Inexact> {
        let num = self
            .mantissa
            .checked_mul(u128::from(multiplier))
            .ok_or(Inexact::TooLarge)?;
        let den = 10u128.pow(self.scale);
        if num % den != 0 {
            return Err(Inexact::Fraction);
        }
        u64::try_from(num / den).map_err(|_| Inexact::TooLarge)
    }
}

enum Inexact {
    TooLarge,
    Fraction,
}

/// One kind of quantity: its name, its units with multipliers, and an example.
struct Kind {
    what: &'static str,
    units: &'static [(&'static str, u64)],
    base: &'static str,
    example: &'static str,
}

const RATE: Kind = Kind {
    what: "a rate",
    units: &[
        ("bps", 1),
        ("kbps", 1_000),
        ("Kbps", 1_000),
        ("Mbps", 1_000_000),
        ("Gbps", 1_000_000_000),
    ],
    base: "bit/s",
    example: "\"10Mbps\"",
};
const DURATION: Kind = Kind {
    what: "a duration",
    units: &[
        ("ns", 1),
        ("us", 1_000),
        ("\u{b5}s", 1_000),
        ("\u{3bc}s", 1_000),
        ("ms", 1_000_000),
        ("s", NANOS_PER_SEC),
    ],
    base: "ns",
    example: "\"20ms\"",
};
const SIZE: Kind = Kind {
    what: "a size",
    units: &[
        ("B", 1),
        ("kB", 1_000),
        ("KB", 1_000),
        ("MB", 1_000_000),
        ("GB", 1_000_000_000),
    ],
    base: "B",
    example: "\"1000B\"",
};

fn parse_kind(s: &str, kind: &Kind) -> Result<u64, UnitError> {
    let bad = |hint: String| UnitError {
        message: format!("{s:?} is not {} (try {hint})", kind.what),
    };
    let Some((num, unit)) = split_number(s) else {
        return Err(bad(kind.example.to_string()));
    };
    let Some(&(_, mult)) = kind.units.iter().find(|(u, _)| *u == unit) else {
        return Err(bad(suggest(s, unit, kind)));
    };
    num.times(mult).map_err(|e| UnitError {
        message: match e {
            Inexact::TooLarge => format!("{s:?} is too large for {}", kind.what),
            Inexact::Fraction => format!(
                "{s:?} is not a whole number of {} (the resolution)",
                kind.base
            ),
        },
    })
}

/// Parse a rate: "10Mbps", "1.5Gbps", "64kbps", "9600bps".
///
/// # Errors
/// Returns a [`UnitError`] naming the bad text and a correct example.
pub fn parse_rate(s: &str) -> Result<Rate, UnitError> {
    parse_kind(s, &RATE).map(Rate)
}

/// Parse a duration: "20ms", "1.5s", "250us" (or "250µs"), "100ns".
///
/// # Errors
/// Returns a [`UnitError`] naming the bad text and a correct example.
pub fn parse_duration(s: &str) -> Result<Dur, UnitError> {
    parse_kind(s, &DURATION).map(Dur)
}

/// Parse a size in bytes: "1000B", "20kB", "30MB", "1GB".
///
/// # Errors
/// Returns a [`UnitError`] naming the bad text and a correct example.
pub fn parse_bytes(s: &str) -> Result<Bytes, UnitError> {
    parse_kind(s, &SIZE).map(Bytes)
}

/// A hint for an unknown unit: the input's number with a known unit that is a near miss of
/// the same magnitude ("Mbs" -> "Mbps": same first letter, one edit), else the
/// kind's example. A hint never changes the order of magnitude ("1min" is not "1ms").
fn suggest(s: &str, unit: &str, kind: &Kind) -> String {
    let number = s.trim()[..s.trim().len() - unit.len()].trim();
    let near = kind
        .units
        .iter()
        .map(|(u, _)| *u)
        .filter(|u| u.chars().next() == unit.chars().next() && u.is_ascii())
        .map(|u| (edit_distance(unit, u), u))
        .filter(|(d, _)| *d <= 1)
        .min();
    match near {
        Some((_, u)) if !number.is_empty() => format!("\"{number}{u}\""),
        _ => kind.example.to_string(),
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_parse_decimal_multipliers() {
        assert_eq!(parse_rate("10Mbps").unwrap(), Rate(10_000_000));
        assert_eq!(parse_rate("1.5Gbps").unwrap(), Rate(1_500_000_000));
        assert_eq!(parse_rate("64kbps").unwrap(), Rate(64_000));
    }

    #[test]
    fn bad_rate_suggests_the_nearest_unit_of_the_same_magnitude() {
        let e = parse_rate("10Mbs").unwrap_err();
        assert_eq!(e.message, r#""10Mbs" is not a rate (try "10Mbps")"#);
        assert!(parse_rate("-5Mbps").is_err());
        assert!(parse_rate("Mbps").is_err());
        assert!(parse_rate("1.2.3Mbps").is_err());
        // No hint that changes the magnitude.
        assert_eq!(
            parse_rate("10M").unwrap_err().message,
            r#""10M" is not a rate (try "10Mbps")"#
        );
        assert_eq!(
            parse_duration("1min").unwrap_err().message,
            r#""1min" is not a duration (try "20ms")"#
        );
        assert_eq!(
            parse_duration("0.5h").unwrap_err().message,
            r#""0.5h" is not a duration (try "20ms")"#
        );
        assert_eq!(
            parse_duration("1e-3s").unwrap_err().message,
            r#""1e-3s" is not a duration (try "20ms")"#
        );
    }

    #[test]
    fn values_are_exact_or_rejected() {
        assert_eq!(parse_duration("20\u{b5}s").unwrap(), Dur(20_000));
        assert_eq!(
            parse_rate("0.5bps").unwrap_err().message,
            r#""0.5bps" is not a whole number of bit/s (the resolution)"#
        );
        assert!(parse_duration("0.1ns").is_err());
        assert_eq!(parse_duration("1.000000001s").unwrap(), Dur(1_000_000_001));
        assert_eq!(
            parse_duration("18446744074s").unwrap_err().message,
            r#""18446744074s" is too large for a duration"#
        );
    }

    #[test]
    fn durations_and_sizes_parse() {
        assert_eq!(parse_duration("20ms").unwrap(), Dur(20_000_000));
        assert_eq!(parse_duration("1.5s").unwrap(), Dur(1_500_000_000));
        assert_eq!(parse_duration("250us").unwrap(), Dur(250_000));
        assert_eq!(parse_bytes("20kB").unwrap(), Bytes(20_000));
        assert_eq!(parse_bytes("30MB").unwrap(), Bytes(30_000_000));
        assert!(parse_bytes("100p").is_err());
    }

    #[test]
    fn serialization_delay_rounds_up() {
        // 1000 B at 1 Gbps is exactly 8 us; 1 B at 3 bps is 2.666.. s, rounded up.
        assert_eq!(Rate(1_000_000_000).tx_time(1000), Dur(8_000));
        assert_eq!(Rate(3).tx_time(1), Dur(2_666_666_667));
    }
}
