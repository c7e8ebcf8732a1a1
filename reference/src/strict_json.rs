//! JSON as every input of the tool reads it: like `serde_json`, except that
//! an object naming one key twice is refused. Plain `serde_json` keeps the
//! last of two equal keys, so `{"bytes": 9000, "bytes": 64}` would silently
//! hide the first value the user wrote.
//!
//! Numbers keep their exact text (the workspace builds `serde_json` with
//! `arbitrary_precision`), nesting is limited by `serde_json`'s recursion
//! limit (128), and errors carry `serde_json`'s line and column.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;
use std::str::FromStr;

/// The key under which `serde_json` (with `arbitrary_precision`) hands a
/// number's text to a visitor.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Parses `text` as one JSON value, refusing duplicate keys.
pub fn from_str(text: &str) -> Result<Value, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = StrictValue.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

struct StrictValue;

impl<'de> DeserializeSeed<'de> for StrictValue {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrictValue {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v).map(Value::Number).ok_or_else(|| E::custom(format!("{v} is not a JSON number")))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(StrictValue)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            if key == NUMBER_TOKEN {
                let text: String = access.next_value()?;
                return Number::from_str(&text).map(Value::Number).map_err(de::Error::custom);
            }
            if map.contains_key(&key) {
                return Err(de::Error::custom(format!("duplicate key {key:?}: each key may appear once in an object")));
            }
            let value = access.next_value_seed(StrictValue)?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_serde_json_reads() {
        let text = r#"{"a": [1, -2, 3.25, 1e400, 18446744073709551616, "x", null, true], "b": {"c": {}}}"#;
        let strict = from_str(text).unwrap();
        assert_eq!(strict, serde_json::from_str::<Value>(text).unwrap());
        assert_eq!(strict["a"][4].to_string(), "18446744073709551616");
    }

    #[test]
    fn refuses_duplicate_keys_at_any_depth() {
        for text in [r#"{"a": 1, "a": 2}"#, r#"{"x": [{"b": 1, "c": 2, "b": 3}]}"#] {
            let e = from_str(text).unwrap_err().to_string();
            assert!(e.contains("duplicate key") && e.contains("line 1"), "{e}");
        }
    }

    #[test]
    fn refuses_trailing_text_and_deep_nesting() {
        assert!(from_str("{} {}").is_err());
        let deep = "[".repeat(100_000);
        assert!(from_str(&deep).is_err());
    }
}
