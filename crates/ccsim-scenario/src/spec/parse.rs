//! Reading a spec: TOML and JSON documents into the JSON value the strict deserializer
//! reads (duplicate keys refused, a byte-order mark skipped), then validation.

use serde::Deserialize;

use super::{err, validate, Spec};
use crate::error::ScenarioError;

/// Parse a TOML document into a validated spec.
///
/// # Errors
/// [`ScenarioError::Syntax`] with line and column, or [`ScenarioError::Spec`] with a path.
pub fn parse_spec_toml(text: &str) -> Result<Spec, ScenarioError> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let start = e.span().map(|span| span.start);
        let (line, column) = start.map_or((0, 0), |at| line_col(text, at));
        ScenarioError::Syntax {
            line,
            column,
            message: syntax_message(e.message(), start.map(|at| &text[at..])),
        }
    })?;
    parse_spec_value(toml_to_json(toml::Value::Table(table), &Place::Root)?)
}

/// The TOML parser's message on one line, quoted with `"`, without Rust's words (a type such
/// as `i128`, a parser's "expected nothing"); `rest` is the document from the error on.
fn syntax_message(message: &str, rest: Option<&str>) -> String {
    let one_line = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(": ")
        .replace('`', "\"");
    // An integer out of range is reported as its type, `i128`, with the number quoted.
    if one_line.contains("too large to fit in target type")
        || (one_line.contains("as i128") && !one_line.contains("integer \"-"))
    {
        return format!(
            "a number too large for TOML (whole numbers are at most {})",
            i64::MAX
        );
    }
    if one_line.contains("too small to fit in target type") || one_line.contains("as i128") {
        return format!(
            "a number too small for TOML (whole numbers are at least {})",
            i64::MIN
        );
    }
    // A repeated key is reported at the key without naming it.
    if one_line == "duplicate key" {
        let key: String = rest
            .unwrap_or("")
            .chars()
            .take_while(|c| !matches!(c, '=' | '.' | ']' | '\n') && !c.is_whitespace())
            .collect();
        if !key.is_empty() {
            return format!("duplicate key {:?}", key.trim_matches('"'));
        }
    }
    one_line
        .strip_suffix(", expected nothing")
        .map_or(one_line.clone(), str::to_string)
}

/// Where a value sits in the document, kept on the stack while converting and written out
/// only for an error (most documents have none, and a large one has millions of values).
#[derive(Clone, Copy)]
enum Place<'a> {
    Root,
    Key(&'a Place<'a>, &'a str),
    Index(&'a Place<'a>, usize),
}

impl Place<'_> {
    fn path(&self) -> String {
        match self {
            Place::Root => "(document)".to_string(),
            Place::Key(Place::Root, k) => (*k).to_string(),
            Place::Key(up, k) => format!("{}.{k}", up.path()),
            Place::Index(up, i) => format!("{}[{i}]", up.path()),
        }
    }
}

/// The JSON form of a TOML document. A JSON number cannot be `nan` or `inf` and a scenario
/// holds no dates, so both are refused here with their path rather than turned into `null`.
fn toml_to_json(v: toml::Value, place: &Place<'_>) -> Result<serde_json::Value, ScenarioError> {
    use serde_json::Value as J;
    Ok(match v {
        toml::Value::String(s) => J::String(s),
        toml::Value::Integer(i) => J::from(i),
        toml::Value::Float(x) => match serde_json::Number::from_f64(x) {
            Some(n) => J::Number(n),
            None => return err(place.path(), format!("expected a finite number, found {x}")),
        },
        toml::Value::Boolean(b) => J::Bool(b),
        toml::Value::Datetime(d) => {
            return err(
                place.path(),
                format!("a scenario holds no dates, found {d} (write durations such as \"20ms\")"),
            )
        }
        toml::Value::Array(a) => J::Array(
            a.into_iter()
                .enumerate()
                .map(|(i, x)| toml_to_json(x, &Place::Index(place, i)))
                .collect::<Result<_, _>>()?,
        ),
        toml::Value::Table(t) => J::Object(
            t.into_iter()
                .map(|(k, x)| toml_to_json(x, &Place::Key(place, &k)).map(|j| (k, j)))
                .collect::<Result<_, _>>()?,
        ),
    })
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Parse a JSON document (what the Python builder sends) into a validated spec.
///
/// # Errors
/// [`ScenarioError::Spec`] naming the field path.
pub fn parse_spec_json(text: &str) -> Result<Spec, ScenarioError> {
    // A byte-order mark, which some editors write, is not part of the document.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let UniqueKeys(value) = serde_json::from_str(text)
        .map_err(|e| ScenarioError::spec("(document)", format!("not valid JSON: {e}")))?;
    parse_spec_value(value)
}

/// A JSON value whose objects have unique keys. serde_json's own `Value` keeps the last of
/// two equal keys without a word; TOML refuses them, and so does this reader.
struct UniqueKeys(serde_json::Value);

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(UniqueKeysVisitor).map(UniqueKeys)
    }
}

struct UniqueKeysVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueKeysVisitor {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Self::Value, E> {
        serde_json::Number::from_f64(v)
            .map(serde_json::Value::Number)
            .ok_or_else(|| E::custom(format!("{v} is not a finite number")))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(serde_json::Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(serde_json::Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(UniqueKeys(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(serde_json::Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key {key:?} appears twice"
                )));
            }
            let UniqueKeys(v) = map.next_value()?;
            object.insert(key, v);
        }
        Ok(serde_json::Value::Object(object))
    }
}

/// Turn a JSON value into a validated spec.
///
/// # Errors
/// [`ScenarioError::Spec`] naming the field path.
pub fn parse_spec_value(value: serde_json::Value) -> Result<Spec, ScenarioError> {
    let spec: Spec = crate::error::strict::from_value(&value)?;
    validate(&spec)?;
    Ok(spec)
}
