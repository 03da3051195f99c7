//! Spec-level unit types: human strings in, exact integers inside, canonical strings out.

use std::fmt;

use ccsim_core::units::{parse_bytes, parse_duration, parse_packets, parse_rate, UnitErrorKind};
use ccsim_core::{Bytes, Dur, Rate};
use schemars::gen::SchemaGenerator;
use schemars::schema::{InstanceType, Schema, SchemaObject, StringValidation};
use schemars::JsonSchema;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

fn string_schema(pattern: &str, description: &str) -> Schema {
    let mut obj = SchemaObject {
        instance_type: Some(InstanceType::String.into()),
        string: Some(Box::new(StringValidation {
            pattern: Some(pattern.to_string()),
            ..Default::default()
        })),
        ..Default::default()
    };
    obj.metadata().description = Some(description.to_string());
    Schema::Object(obj)
}

const NUMBER: &str = r"^\s*([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*";

/// Format `value` (in base units) with the largest suffix that divides it exactly.
fn canonical(value: u64, suffixes: &[(u64, &str)]) -> String {
    // CHOICE: zero is written as people write it: "0s" for a duration (not "0ns"), the base
    // unit otherwise ("0bps", "0B").
    if value == 0 {
        let zero = suffixes
            .iter()
            .find(|(_, u)| *u == "s")
            .unwrap_or(&suffixes[0]);
        return format!("0{}", zero.1);
    }
    for &(mult, suffix) in suffixes.iter().rev() {
        if value.is_multiple_of(mult) && (value > 0 || mult == 1) {
            return format!("{}{suffix}", value / mult);
        }
    }
    format!("{value}{}", suffixes[0].1)
}

macro_rules! unit_type {
    ($name:ident, $inner:ident, $parse:ident, $what:literal, $pattern:literal, $desc:literal, $suffixes:expr) => {
        #[doc = concat!("A ", $what, " written as a string, e.g. ", $desc, ".")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        pub struct $name(pub $inner);

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        write!(f, "a {} string such as {}", $what, $desc)
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<$name, E> {
                        $parse(s).map($name).map_err(|e| E::custom(e.message))
                    }
                    fn visit_i64<E: de::Error>(self, v: i64) -> Result<$name, E> {
                        Err(E::custom(format!(
                            "{v} has no unit (write a {} such as {})",
                            $what, $desc
                        )))
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$name, E> {
                        Err(E::custom(format!(
                            "{v} has no unit (write a {} such as {})",
                            $what, $desc
                        )))
                    }
                    fn visit_f64<E: de::Error>(self, v: f64) -> Result<$name, E> {
                        Err(E::custom(format!(
                            "{v} has no unit (write a {} such as {})",
                            $what, $desc
                        )))
                    }
                }
                d.deserialize_any(V)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&canonical(self.0 .0, $suffixes))
            }
        }

        impl JsonSchema for $name {
            fn schema_name() -> String {
                stringify!($name).to_string()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                string_schema(
                    &format!("{NUMBER}{}\\s*$", $pattern),
                    concat!("A ", $what, ", e.g. ", $desc),
                )
            }
        }
    };
}

unit_type!(
    RateStr,
    Rate,
    parse_rate,
    "rate",
    "(bps|kbps|Kbps|Mbps|Gbps|Tbps)",
    "\"10Mbps\"",
    &[
        (1, "bps"),
        (1_000, "kbps"),
        (1_000_000, "Mbps"),
        (1_000_000_000, "Gbps")
    ]
);
unit_type!(
    DurStr,
    Dur,
    parse_duration,
    "duration",
    "(ns|us|ms|s)",
    "\"20ms\"",
    &[
        (1, "ns"),
        (1_000, "us"),
        (1_000_000, "ms"),
        (1_000_000_000, "s")
    ]
);
unit_type!(
    BytesStr,
    Bytes,
    parse_bytes,
    "size",
    "(B|kB|KB|MB|GB)",
    "\"1000B\"",
    &[
        (1, "B"),
        (1_000, "kB"),
        (1_000_000, "MB"),
        (1_000_000_000, "GB")
    ]
);

/// A DropTail limit: packets ("100p") or bytes ("20000B", "20kB").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueStr {
    /// A limit in packets.
    Packets(u64),
    /// A limit in bytes.
    Bytes(u64),
}

impl<'de> Deserialize<'de> for QueueStr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = serde_json::Value::deserialize(d)?;
        let Some(s) = raw.as_str() else {
            return Err(de::Error::custom(format!(
                "{raw} is not a queue limit (write packets such as \"100p\" or bytes such as \"20kB\")"
            )));
        };
        let t = s.trim();
        let parsed = if t.ends_with('p') {
            parse_packets(t).map(QueueStr::Packets)
        } else {
            parse_bytes(t).map(|b| QueueStr::Bytes(b.0))
        };
        parsed.map_err(|e| {
            de::Error::custom(match e.kind {
                UnitErrorKind::NotAQuantity => format!(
                    "{s:?} is not a queue limit (try \"100p\" for packets or \"20kB\" for bytes)"
                ),
                _ => e.message,
            })
        })
    }
}

impl Serialize for QueueStr {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            QueueStr::Packets(n) => s.serialize_str(&format!("{n}p")),
            QueueStr::Bytes(b) => BytesStr(Bytes(b)).serialize(s),
        }
    }
}

impl JsonSchema for QueueStr {
    fn schema_name() -> String {
        "QueueStr".to_string()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        string_schema(
            r"^\s*([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*(p|B|kB|KB|MB|GB)\s*$",
            "A DropTail limit in packets (\"100p\") or bytes (\"20kB\")",
        )
    }
}

/// An initial slow-start threshold: "bdp" (from the path) or a size such as "64kB".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SsthreshStr {
    /// The path's bottleneck rate times its round-trip propagation delay.
    Bdp,
    /// A size in bytes.
    Bytes(u64),
}

impl<'de> Deserialize<'de> for SsthreshStr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = serde_json::Value::deserialize(d)?;
        let Some(s) = raw.as_str() else {
            return Err(de::Error::custom(format!(
                "{raw} is not a slow-start threshold (write \"bdp\" or a size such as \"64kB\")"
            )));
        };
        if s.trim() == "bdp" {
            return Ok(SsthreshStr::Bdp);
        }
        parse_bytes(s.trim())
            .map(|b| SsthreshStr::Bytes(b.0))
            .map_err(|e| {
                de::Error::custom(match e.kind {
                    UnitErrorKind::NotAQuantity => format!(
                        "{s:?} is not a slow-start threshold (write \"bdp\" or a size such as \"64kB\")"
                    ),
                    _ => e.message,
                })
            })
    }
}

impl Serialize for SsthreshStr {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            SsthreshStr::Bdp => s.serialize_str("bdp"),
            SsthreshStr::Bytes(b) => BytesStr(Bytes(b)).serialize(s),
        }
    }
}

impl JsonSchema for SsthreshStr {
    fn schema_name() -> String {
        "SsthreshStr".to_string()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        string_schema(
            r"^\s*(bdp|([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*(B|kB|KB|MB|GB))\s*$",
            "An initial slow-start threshold: \"bdp\" or a size such as \"64kB\"",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms_round_trip() {
        let r: RateStr = serde_json::from_str("\"1.5Gbps\"").unwrap();
        assert_eq!(serde_json::to_string(&r).unwrap(), "\"1500Mbps\"");
        let d: DurStr = serde_json::from_str("\"60s\"").unwrap();
        assert_eq!(serde_json::to_string(&d).unwrap(), "\"60s\"");
        // Zero as it is written, not in the base unit.
        let d: DurStr = serde_json::from_str("\"0ms\"").unwrap();
        assert_eq!(serde_json::to_string(&d).unwrap(), "\"0s\"");
        let r: RateStr = serde_json::from_str("\"0Mbps\"").unwrap();
        assert_eq!(serde_json::to_string(&r).unwrap(), "\"0bps\"");
        let q: QueueStr = serde_json::from_str("\"20kB\"").unwrap();
        assert_eq!(q, QueueStr::Bytes(20_000));
        assert_eq!(serde_json::to_string(&q).unwrap(), "\"20kB\"");
    }

    #[test]
    fn bare_numbers_are_rejected_with_a_hint() {
        let e = serde_json::from_str::<RateStr>("10")
            .unwrap_err()
            .to_string();
        assert!(e.contains("10 has no unit"), "{e}");
    }
}
