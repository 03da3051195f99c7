//! Errors of the scenario layer.

use thiserror::Error;

/// Everything that can go wrong between a spec and a result.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ScenarioError {
    /// The spec is malformed or inconsistent; `path` names the field (e.g. `links[3].rate`).
    #[error("{path}: {message}")]
    Spec {
        /// Field path, e.g. `flows[0].protocol`.
        path: String,
        /// What was expected and what was found.
        message: String,
    },
    /// The TOML text does not parse.
    #[error("TOML syntax error at line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// The run was stopped from outside (Ctrl-C).
    #[error("run interrupted at t = {at_seconds:.3} s")]
    Interrupted {
        /// Simulated time reached.
        at_seconds: f64,
    },
    /// The run needs more of the machine than it may take (the memory guard).
    #[error("{0}")]
    Resources(String),
    /// A broken internal invariant (a bug in ccsim).
    #[error("internal error: {0}")]
    Internal(String),
}

impl ScenarioError {
    /// A spec error at `path`.
    pub fn spec(path: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError::Spec {
            path: path.into(),
            message: message.into(),
        }
    }

    /// Whether the error is the user's input (exit status 2) rather than ccsim's (1).
    #[must_use]
    pub fn is_input_error(&self) -> bool {
        matches!(
            self,
            ScenarioError::Spec { .. } | ScenarioError::Syntax { .. }
        )
    }
}

/// Reading a spec document into the typed spec: strictly, in the user's words.
///
/// Every spec struct is filled through [`ValueDe`], a deserializer over the JSON-shaped value
/// tree, rather than `serde_json`'s own. It differs in two ways:
/// - only a table fills a table: serde's derived structs also accept an array filled by
///   position (`run = ["5s", 1]`), which [`ValueDe`] refuses for every struct, enum and
///   fixed-length list of the spec;
/// - its error type, [`DeError`], words every type mismatch itself ("a whole number from 0
///   to 4294967295", "true or false", "one of: reno, cubic", "a table") with the value found,
///   so no Rust vocabulary (`u64`, `unknown variant`, `struct RunSpec`) reaches a user.
pub(crate) mod strict {
    use std::fmt;

    use serde::de::{
        self, DeserializeOwned, DeserializeSeed, Deserializer, Expected, IntoDeserializer,
        MapAccess, SeqAccess, Unexpected, Visitor,
    };
    use serde_json::Value;

    use super::ScenarioError;

    /// Deserialize `T` from `value`; a failure names the field path (`links[3].rate`).
    pub(crate) fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, ScenarioError> {
        serde_path_to_error::deserialize(ValueDe(value)).map_err(|e| {
            let path = e.path().to_string();
            let path = if path == "." {
                "(document)".to_string()
            } else {
                path
            };
            let message = e.into_inner().0;
            // A table read in two steps (a queue table, by its kind) carries the path inside it.
            let (path, message) = match message.strip_prefix(NESTED) {
                Some(rest) => {
                    let (inner, message) = rest.split_once(NESTED).unwrap_or(("", rest));
                    let path = match inner {
                        "" | "(document)" => path,
                        _ if path == "(document)" => inner.to_string(),
                        _ => format!("{path}.{inner}"),
                    };
                    (path, message.to_string())
                }
                None => (path, message),
            };
            let message = with_field_range(&path, message);
            ScenarioError::spec(path, message)
        })
    }

    /// The marker of a nested error's path ([`nested_error`]).
    const NESTED: char = '\u{1}';

    /// The message of an error met reading a value on its own (`from_value` inside a
    /// `Deserialize` impl), carrying its path so the outer `from_value` joins the two.
    pub(crate) fn nested_error(e: &ScenarioError) -> String {
        match e {
            ScenarioError::Spec { path, message } => format!("{NESTED}{path}{NESTED}{message}"),
            other => other.to_string(),
        }
    }

    /// The whole-number keys whose accepted range is narrower than their type's, as their
    /// checks state it (the key, its least value, its greatest if bounded).
    const COUNT_RANGES: &[(&str, u64, Option<u64>)] = &[
        ("initial_window", 1, Some(100_000)),
        ("coupling_factor", 1, Some(255)),
        ("classic_protection", 0, Some(100)),
        ("max_window", 1, None),
        ("count", 1, None),
        ("rs", 1, None),
        ("report_packets", 1, None),
        ("probes", 1, Some(10)),
        ("rcv_samples", 1, Some(4096)),
        ("max_duplicate", 0, Some(1000)),
        ("join_retries", 0, Some(100)),
        ("path_retries", 0, Some(100)),
    ];

    /// A type error on a whole-number key states the key's own range, not its type's
    /// ("from 1 to 100000" for `initial_window`, not "from 0 to 4294967295"), and the least
    /// value the key accepts (TICP source counts: at least 1).
    fn with_field_range(path: &str, message: String) -> String {
        const TYPE_RANGE: &str = "a whole number from 0 to ";
        let Some(at) = message.find(TYPE_RANGE) else {
            return message;
        };
        let digits = message[at + TYPE_RANGE.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        let key = path.rsplit('.').next().unwrap_or(path);
        let key = key.split('[').next().unwrap_or(key);
        let range = if let Some(&(_, low, high)) = COUNT_RANGES.iter().find(|(k, ..)| *k == key) {
            match high {
                Some(high) => format!("a whole number from {low} to {high}"),
                None => format!("a whole number, at least {low}"),
            }
        } else if path.contains(".sources.") {
            "a whole number, at least 1".to_string()
        } else {
            return message;
        };
        let end = at + TYPE_RANGE.len() + digits;
        format!("{}{range}{}", &message[..at], &message[end..])
    }

    /// A deserialization failure, already in the user's words.
    #[derive(Debug)]
    pub(crate) struct DeError(pub(crate) String);

    impl fmt::Display for DeError {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(&self.0)
        }
    }

    impl std::error::Error for DeError {}

    impl de::Error for DeError {
        fn custom<T: fmt::Display>(msg: T) -> Self {
            DeError(msg.to_string())
        }
        fn invalid_type(unexp: Unexpected<'_>, exp: &dyn Expected) -> Self {
            DeError(format!(
                "expected {}, found {}",
                expected(exp),
                found(&unexp)
            ))
        }
        fn invalid_value(unexp: Unexpected<'_>, exp: &dyn Expected) -> Self {
            DeError(format!(
                "expected {}, found {}",
                expected(exp),
                found(&unexp)
            ))
        }
        fn invalid_length(len: usize, exp: &dyn Expected) -> Self {
            DeError(format!("expected {}, found {}", expected(exp), items(len)))
        }
        fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
            DeError(format!(
                "expected one of: {}, found {variant:?}",
                expected.join(", ")
            ))
        }
        fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
            DeError(format!(
                "unknown key {field:?} (known keys: {})",
                expected.join(", ")
            ))
        }
        fn missing_field(field: &'static str) -> Self {
            DeError(format!("the key {field:?} is required"))
        }
        fn duplicate_field(field: &'static str) -> Self {
            DeError(format!("the key {field:?} is given twice"))
        }
    }

    fn items(n: usize) -> String {
        if n == 1 {
            "1 item".to_string()
        } else {
            format!("{n} items")
        }
    }

    /// What a visitor expects, in the user's words. Our own visitors already speak them
    /// ("a rate string such as \"10Mbps\""); serde's built-in ones name Rust types.
    fn expected(exp: &dyn Expected) -> String {
        let s = exp.to_string();
        let whole = |max: u64| format!("a whole number from 0 to {max}");
        match s.as_str() {
            "u8" => whole(u8::MAX.into()),
            "u16" => whole(u16::MAX.into()),
            "u32" => whole(u32::MAX.into()),
            "u64" | "usize" | "u128" => whole(u64::MAX),
            "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number".into(),
            "f32" | "f64" => "a number".into(),
            "a boolean" => "true or false".into(),
            "a string" | "a borrowed string" | "a char" | "a character" => "a string".into(),
            "a sequence" => "an array".into(),
            "a map" => "a table".into(),
            "unit" => "nothing".into(),
            "option" => "a value".into(),
            _ => {
                if s.starts_with("struct ") {
                    "a table".into()
                } else if s.starts_with("enum ") || s.starts_with("variant identifier") {
                    "one of the listed names".into()
                } else if s.starts_with("field identifier") {
                    "a known key".into()
                } else if let Some(n) = s
                    .strip_prefix("an array of length ")
                    .or_else(|| s.strip_prefix("a tuple of size "))
                    .or_else(|| s.strip_prefix("tuple of "))
                {
                    let n = n.trim_end_matches(" elements");
                    format!("an array of exactly {n} items")
                } else {
                    s
                }
            }
        }
    }

    /// The value found, as the user wrote it.
    fn found(unexp: &Unexpected<'_>) -> String {
        match *unexp {
            Unexpected::Bool(b) => b.to_string(),
            Unexpected::Unsigned(n) => n.to_string(),
            Unexpected::Signed(n) => n.to_string(),
            Unexpected::Float(x) => number(x),
            Unexpected::Char(c) => format!("{:?}", c.to_string()),
            Unexpected::Str(s) => quoted(s),
            Unexpected::Unit => "nothing (null)".into(),
            Unexpected::Seq => "an array".into(),
            Unexpected::Map => "a table".into(),
            Unexpected::Other(s) => s.into(),
            _ => "a value of another kind".into(),
        }
    }

    fn number(x: f64) -> String {
        if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e16 {
            format!("{x:.1}")
        } else {
            x.to_string()
        }
    }

    /// A string as JSON would quote it, cut short past 60 characters.
    fn quoted(s: &str) -> String {
        let q = serde_json::to_string(s).unwrap_or_default();
        if q.chars().count() > 62 {
            let cut: String = q.chars().take(60).collect();
            format!("{cut}...\"")
        } else {
            q
        }
    }

    /// The value found, from the tree.
    pub(crate) fn describe(v: &Value) -> String {
        match v {
            Value::Null => "nothing (null)".into(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.to_string(),
            Value::String(s) => quoted(s),
            Value::Array(_) => "an array".into(),
            Value::Object(_) => "a table".into(),
        }
    }

    /// A deserializer over a borrowed value tree that fills a struct only from a table.
    pub(crate) struct ValueDe<'a>(pub(crate) &'a Value);

    impl<'de> Deserializer<'de> for ValueDe<'_> {
        type Error = DeError;

        fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
            match self.0 {
                Value::Null => v.visit_unit(),
                Value::Bool(b) => v.visit_bool(*b),
                Value::Number(n) => {
                    if let Some(u) = n.as_u64() {
                        v.visit_u64(u)
                    } else if let Some(i) = n.as_i64() {
                        v.visit_i64(i)
                    } else {
                        v.visit_f64(n.as_f64().unwrap_or(f64::NAN))
                    }
                }
                Value::String(s) => v.visit_str(s),
                Value::Array(a) => {
                    let mut seq = Seq(a.iter());
                    let out = v.visit_seq(&mut seq)?;
                    match seq.0.len() {
                        0 => Ok(out),
                        _ => Err(DeError(format!(
                            "expected fewer items, found {}",
                            items(a.len())
                        ))),
                    }
                }
                Value::Object(m) => v.visit_map(Map {
                    iter: m.iter(),
                    value: None,
                }),
            }
        }

        fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
            match self.0 {
                Value::Null => v.visit_none(),
                _ => v.visit_some(self),
            }
        }

        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _name: &'static str,
            _fields: &'static [&'static str],
            v: V,
        ) -> Result<V::Value, DeError> {
            match self.0 {
                Value::Object(_) => self.deserialize_any(v),
                other => Err(DeError(format!(
                    "expected a table, found {}",
                    describe(other)
                ))),
            }
        }

        fn deserialize_enum<V: Visitor<'de>>(
            self,
            _name: &'static str,
            variants: &'static [&'static str],
            v: V,
        ) -> Result<V::Value, DeError> {
            match self.0 {
                Value::String(s) => v.visit_enum(s.as_str().into_deserializer()),
                other => Err(DeError(format!(
                    "expected one of: {}, found {}",
                    variants.join(", "),
                    describe(other)
                ))),
            }
        }

        fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, DeError> {
            match self.0 {
                Value::Array(a) if a.len() != len => Err(DeError(format!(
                    "expected an array of exactly {len} items, found {}",
                    items(a.len())
                ))),
                _ => self.deserialize_any(v),
            }
        }

        fn deserialize_newtype_struct<V: Visitor<'de>>(
            self,
            _name: &'static str,
            v: V,
        ) -> Result<V::Value, DeError> {
            v.visit_newtype_struct(self)
        }

        fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
            v.visit_unit()
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf unit unit_struct seq tuple_struct map identifier
        }
    }

    struct Seq<'a>(std::slice::Iter<'a, Value>);

    impl<'de> SeqAccess<'de> for &mut Seq<'_> {
        type Error = DeError;
        fn next_element_seed<T: DeserializeSeed<'de>>(
            &mut self,
            seed: T,
        ) -> Result<Option<T::Value>, DeError> {
            self.0
                .next()
                .map(|v| seed.deserialize(ValueDe(v)))
                .transpose()
        }
        fn size_hint(&self) -> Option<usize> {
            Some(self.0.len())
        }
    }

    struct Map<'a> {
        iter: serde_json::map::Iter<'a>,
        value: Option<&'a Value>,
    }

    impl<'de> MapAccess<'de> for Map<'_> {
        type Error = DeError;
        fn next_key_seed<K: DeserializeSeed<'de>>(
            &mut self,
            seed: K,
        ) -> Result<Option<K::Value>, DeError> {
            match self.iter.next() {
                Some((k, v)) => {
                    self.value = Some(v);
                    seed.deserialize(k.as_str().into_deserializer()).map(Some)
                }
                None => Ok(None),
            }
        }
        fn next_value_seed<V: DeserializeSeed<'de>>(
            &mut self,
            seed: V,
        ) -> Result<V::Value, DeError> {
            match self.value.take() {
                Some(v) => seed.deserialize(ValueDe(v)),
                None => Err(DeError("a value without a key".into())),
            }
        }
        fn size_hint(&self) -> Option<usize> {
            Some(self.iter.len())
        }
    }
}
