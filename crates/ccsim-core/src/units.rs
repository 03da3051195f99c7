//! Units: integer nanoseconds, bits per second and bytes, with human parsing.
//!
//! CHOICE: all multipliers are decimal (k = 1000, M = 10^6, G = 10^9), as in networking
//! practice ("10Mbps" is 10 000 000 bit/s, "20kB" is 20 000 bytes). Numbers may carry an
//! exponent ("1e3Mbps", "1.5e9bps", "1e-3s"), as programs write them. Parsing rejects
//! negative numbers, values beyond 64 bits of the base unit and unknown suffixes, each with
//! its own message (an unknown suffix gets the nearest form as a hint).

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
    /// What went wrong, for callers that word their own message for some cases.
    pub kind: UnitErrorKind,
}

/// The cause of a [`UnitError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitErrorKind {
    /// Not a number followed by a known unit of this kind.
    NotAQuantity,
    /// A negative number.
    Negative,
    /// Beyond 64 bits of the base unit.
    TooLarge,
    /// Finer than the resolution (a fraction of a byte or a packet, or a non-zero value that
    /// rounds to zero).
    Inexact,
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for UnitError {}

/// Most significant digits a number may have (beyond what any generator writes: Python's
/// `repr` of a float has at most 17); with at most 10^9 as a unit multiplier the exact
/// product stays within `u128`.
const MAX_DIGITS: usize = 28;

/// A number as written: `digits * 10^exp10`, exact.
#[derive(Clone, Copy, Debug)]
struct Decimal {
    digits: u128,
    exp10: i64,
}

/// The parts of "12.5e3Mbps": whether it is negative, the number, and the unit.
struct Split<'a> {
    negative: bool,
    number: Result<Decimal, Inexact>,
    unit: &'a str,
}

/// Split a quantity into its number (decimal, optionally with an exponent: "1.5e9", "1e-3")
/// and its unit. `None` if it does not start with a number.
fn split_number(s: &str) -> Option<Split<'_>> {
    let s = s.trim();
    let (negative, body) = match s.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, s),
    };
    let bytes = body.as_bytes();
    let mut i = 0;
    let (mut int, mut frac) = (String::new(), String::new());
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        int.push(char::from(bytes[i]));
        i += 1;
    }
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            frac.push(char::from(bytes[i]));
            i += 1;
        }
    }
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut exp: i64 = 0;
    if i < bytes.len() && matches!(bytes[i], b'e' | b'E') {
        let mut j = i + 1;
        let sign = match bytes.get(j) {
            Some(b'-') => {
                j += 1;
                -1
            }
            Some(b'+') => {
                j += 1;
                1
            }
            _ => 1,
        };
        let digits_from = j;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            // Saturates far beyond any meaningful exponent; the result is then too large or
            // below the resolution either way.
            exp = (exp * 10 + i64::from(bytes[j] - b'0')).min(1_000_000);
            j += 1;
        }
        if j > digits_from {
            exp *= sign;
            i = j;
        } else {
            exp = 0;
        }
    }
    let unit = body[i..].trim();
    Some(Split {
        negative,
        number: Decimal::new(&int, &frac, exp),
        unit,
    })
}

impl Decimal {
    fn new(int: &str, frac: &str, exp: i64) -> Result<Decimal, Inexact> {
        let all = format!("{int}{frac}");
        let significant = all.trim_start_matches('0');
        let trimmed = significant.trim_end_matches('0');
        let zeros = significant.len() - trimmed.len();
        if trimmed.is_empty() {
            return Ok(Decimal {
                digits: 0,
                exp10: 0,
            });
        }
        if trimmed.len() > MAX_DIGITS {
            return Err(Inexact::TooManyDigits);
        }
        let digits: u128 = trimmed.parse().map_err(|_| Inexact::TooManyDigits)?;
        let frac_len = i64::try_from(frac.len()).map_err(|_| Inexact::TooManyDigits)?;
        let zeros = i64::try_from(zeros).map_err(|_| Inexact::TooManyDigits)?;
        Ok(Decimal {
            digits,
            exp10: exp - frac_len + zeros,
        })
    }

    /// `self * multiplier` in base units: rounded to the nearest whole unit (halves away from
    /// zero) if `round`, else required to be whole.
    fn times(self, multiplier: u64, round: bool) -> Result<u64, Inexact> {
        if self.digits == 0 {
            return Ok(0);
        }
        // digits < 10^28 and multiplier <= 10^9: the product is below 10^37 < u128::MAX.
        let n = self.digits * u128::from(multiplier);
        let whole = if self.exp10 >= 0 {
            let scale = u32::try_from(self.exp10)
                .ok()
                .and_then(|e| 10u128.checked_pow(e))
                .ok_or(Inexact::TooLarge)?;
            n.checked_mul(scale).ok_or(Inexact::TooLarge)?
        } else {
            // n < 10^37, so a divisor of 10^38 or more leaves less than a tenth of a unit.
            let k = self.exp10.unsigned_abs();
            if k >= 38 {
                return Err(if round {
                    Inexact::BelowResolution
                } else {
                    Inexact::Fraction
                });
            }
            let den = 10u128.pow(u32::try_from(k).unwrap_or(38));
            let (q, r) = (n / den, n % den);
            if r != 0 && !round {
                return Err(Inexact::Fraction);
            }
            let q = if 2 * r >= den { q + 1 } else { q };
            if q == 0 {
                return Err(Inexact::BelowResolution);
            }
            q
        };
        u64::try_from(whole).map_err(|_| Inexact::TooLarge)
    }
}

enum Inexact {
    TooLarge,
    TooManyDigits,
    Fraction,
    BelowResolution,
}

/// One kind of quantity: its name, its units with multipliers, and an example.
struct Kind {
    what: &'static str,
    units: &'static [(&'static str, u64)],
    /// The base unit, in words.
    base: &'static str,
    example: &'static str,
    /// Round to the nearest base unit (durations, rates) rather than require a whole number
    /// of them (bytes, packets: counts).
    rounds: bool,
}

const RATE: Kind = Kind {
    what: "a rate",
    units: &[
        ("bps", 1),
        ("kbps", 1_000),
        ("Kbps", 1_000),
        ("Mbps", 1_000_000),
        ("Gbps", 1_000_000_000),
        ("Tbps", 1_000_000_000_000),
    ],
    base: "bit/s",
    example: "\"10Mbps\"",
    rounds: true,
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
    rounds: true,
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
    base: "bytes",
    example: "\"1000B\"",
    rounds: false,
};
const PACKETS: Kind = Kind {
    what: "a packet count",
    units: &[("p", 1)],
    base: "packets",
    example: "\"100p\"",
    rounds: false,
};

// CHOICE: a duration or a rate finer than its resolution (1 ns, 1 bit/s) is rounded to the
// nearest, halves away from zero, so that times written from float arithmetic
// ("0.30000000000000004s", Python's f"{0.1 * 3}s") mean what they say; a non-zero value that
// would round to zero is refused. Sizes and packet counts must be whole numbers.
fn parse_kind(s: &str, kind: &Kind) -> Result<u64, UnitError> {
    let fail = |kind_of: UnitErrorKind, message: String| UnitError {
        message,
        kind: kind_of,
    };
    let bad = |hint: String| {
        fail(
            UnitErrorKind::NotAQuantity,
            format!("{s:?} is not {} (try {hint})", kind.what),
        )
    };
    let Some(split) = split_number(s) else {
        return Err(bad(kind.example.to_string()));
    };
    let Some(&(unit, mult)) = kind.units.iter().find(|(u, _)| *u == split.unit) else {
        return Err(bad(suggest(s, split.unit, kind)));
    };
    // "-0ms" is zero, not a negative quantity.
    let zero = matches!(split.number, Ok(Decimal { digits: 0, .. }));
    if split.negative && !zero {
        return Err(fail(
            UnitErrorKind::Negative,
            format!("must not be negative, found {s:?}"),
        ));
    }
    let max = || format!("{}{}", u64::MAX, kind.units[0].0);
    split
        .number
        .and_then(|n| n.times(mult, kind.rounds))
        .map_err(|e| match e {
            Inexact::TooLarge => fail(
                UnitErrorKind::TooLarge,
                format!("{s:?} is too large: {} is at most {}", kind.what, max()),
            ),
            Inexact::TooManyDigits => fail(
                UnitErrorKind::NotAQuantity,
                format!("{s:?} has more than {MAX_DIGITS} significant digits"),
            ),
            Inexact::Fraction => fail(
                UnitErrorKind::Inexact,
                format!("{s:?} is not a whole number of {}", kind.base),
            ),
            Inexact::BelowResolution => fail(
                UnitErrorKind::Inexact,
                format!(
                    "{s:?} is finer than the resolution of {} (1{}): it would round to 0{unit}",
                    kind.what, kind.units[0].0,
                ),
            ),
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

/// Parse a packet count: "100p", "1e3p".
///
/// # Errors
/// Returns a [`UnitError`] naming the bad text and a correct example.
pub fn parse_packets(s: &str) -> Result<u64, UnitError> {
    parse_kind(s, &PACKETS)
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
    let units: Vec<&str> = kind
        .units
        .iter()
        .map(|(u, _)| *u)
        .filter(|u| u.is_ascii())
        .collect();
    match near {
        Some((_, u)) if !number.is_empty() => format!("\"{number}{u}\""),
        _ => format!("{}; units: {}", kind.example, units.join(", ")),
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
            r#""10M" is not a rate (try "10Mbps"; units: bps, kbps, Kbps, Mbps, Gbps, Tbps)"#
        );
        assert_eq!(
            parse_duration("1min").unwrap_err().message,
            r#""1min" is not a duration (try "20ms"; units: ns, us, ms, s)"#
        );
        assert_eq!(
            parse_duration("0.5h").unwrap_err().message,
            r#""0.5h" is not a duration (try "20ms"; units: ns, us, ms, s)"#
        );
    }

    #[test]
    fn scientific_notation_is_read_exactly() {
        assert_eq!(parse_rate("1e3Mbps").unwrap(), Rate(1_000_000_000));
        assert_eq!(parse_rate("1.5e9bps").unwrap(), Rate(1_500_000_000));
        assert_eq!(parse_rate("2.5E+2kbps").unwrap(), Rate(250_000));
        assert_eq!(parse_duration("1e-3s").unwrap(), Dur(1_000_000));
        assert_eq!(parse_duration("1.5e-9s").unwrap(), Dur(2));
        assert_eq!(parse_bytes("1.5e3B").unwrap(), Bytes(1_500));
        assert_eq!(parse_packets("1e3p").unwrap(), 1_000);
        assert_eq!(parse_duration("0e99s").unwrap(), Dur(0));
        // An "e" not followed by an exponent is part of the unit.
        assert_eq!(
            parse_duration("5es").unwrap_err().kind,
            UnitErrorKind::NotAQuantity
        );
    }

    #[test]
    fn float_noise_in_times_and_rates_rounds_to_the_resolution() {
        // Python: f"{0.1 * 3}s" == "0.30000000000000004s".
        assert_eq!(
            parse_duration("0.30000000000000004s").unwrap(),
            Dur(300_000_000)
        );
        assert_eq!(parse_duration("0.5ns").unwrap(), Dur(1));
        assert_eq!(parse_duration("1.4999999ns").unwrap(), Dur(1));
        assert_eq!(parse_rate("12345678.9bps").unwrap(), Rate(12_345_679));
        let e = parse_duration("0.1ns").unwrap_err();
        assert_eq!(e.kind, UnitErrorKind::Inexact);
        assert_eq!(
            e.message,
            r#""0.1ns" is finer than the resolution of a duration (1ns): it would round to 0ns"#
        );
        assert_eq!(
            parse_duration("1e-40s").unwrap_err().kind,
            UnitErrorKind::Inexact
        );
        // Counts do not round.
        assert_eq!(
            parse_bytes("1.5B").unwrap_err().message,
            r#""1.5B" is not a whole number of bytes"#
        );
        assert_eq!(
            parse_packets("2.5p").unwrap_err().kind,
            UnitErrorKind::Inexact
        );
    }

    #[test]
    fn negative_and_huge_values_say_so() {
        for (s, r) in [
            ("-5ms", parse_duration("-5ms").map(|d| d.0)),
            ("-5Mbps", parse_rate("-5Mbps").map(|r| r.0)),
            ("-1kB", parse_bytes("-1kB").map(|b| b.0)),
            ("-3p", parse_packets("-3p")),
        ] {
            let e = r.unwrap_err();
            assert_eq!(e.kind, UnitErrorKind::Negative);
            assert_eq!(e.message, format!("must not be negative, found {s:?}"));
        }
        assert_eq!(parse_duration("-0ms").unwrap(), Dur(0));
        let e = parse_rate("1e30Gbps").unwrap_err();
        assert_eq!(e.kind, UnitErrorKind::TooLarge);
        assert_eq!(
            e.message,
            r#""1e30Gbps" is too large: a rate is at most 18446744073709551615bps"#
        );
        assert_eq!(
            parse_duration("1e999999999999s").unwrap_err().kind,
            UnitErrorKind::TooLarge
        );
        assert_eq!(
            parse_bytes("18446744073709551616B").unwrap_err().kind,
            UnitErrorKind::TooLarge
        );
        assert_eq!(
            parse_bytes("18446744073709551615B").unwrap(),
            Bytes(u64::MAX)
        );
        assert_eq!(
            parse_rate("1234567890123456789012345678901bps")
                .unwrap_err()
                .kind,
            UnitErrorKind::NotAQuantity
        );
    }

    #[test]
    fn values_are_exact_or_rejected() {
        assert_eq!(parse_duration("20\u{b5}s").unwrap(), Dur(20_000));
        assert_eq!(
            parse_bytes("0.5kB").unwrap(),
            Bytes(500),
            "a fraction of a larger unit is exact"
        );
        assert_eq!(parse_duration("1.000000001s").unwrap(), Dur(1_000_000_001));
        assert_eq!(
            parse_duration("18446744074s").unwrap_err().message,
            r#""18446744074s" is too large: a duration is at most 18446744073709551615ns"#
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
