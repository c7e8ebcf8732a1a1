//! The switch component's `typedParameters` document as JSON.
//!
//! The document is kept as the JSON tree it was read from (key order and
//! number text preserved), so it writes back unchanged. Attribute objects
//! are told from sub-components by their string `type` field.

use serde_json::{Map, Value};
use std::fmt;

/// A `typedParameters` document.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    root: Map<String, Value>,
}

/// Why a text could not be read as a document.
#[derive(Clone, Debug, PartialEq)]
pub struct DocumentError(pub String);

impl fmt::Display for DocumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DocumentError {}

impl Document {
    /// The document a switch added by the platform carries: every attribute
    /// at its Default.
    pub fn defaults() -> Document {
        match super::schema::default_document() {
            Value::Object(root) => Document { root },
            _ => unreachable!("the default document is an object"),
        }
    }

    pub fn from_json_str(text: &str) -> Result<Document, DocumentError> {
        let value: Value = crate::strict_json::from_str(text)
            .map_err(|e| DocumentError(format!("not valid JSON: {e}")))?;
        Document::from_value(value)
    }

    /// Accepts either the `typedParameters` object itself or a component
    /// object that wraps it under a `typedParameters` key.
    pub fn from_value(value: Value) -> Result<Document, DocumentError> {
        match value {
            Value::Object(mut map) => {
                if let Some(Value::Object(inner)) = map.remove("typedParameters") {
                    return Ok(Document { root: inner });
                }
                Ok(Document { root: map })
            }
            other => Err(DocumentError(format!(
                "the document must be a JSON object of attributes and sub-components, found {}",
                json_kind(&other)
            ))),
        }
    }

    pub fn root(&self) -> &Map<String, Value> {
        &self.root
    }

    pub fn root_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.root
    }

    pub fn to_value(&self) -> Value {
        Value::Object(self.root.clone())
    }

    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(&self.root).expect("a JSON tree always serializes")
    }

    /// The object at a component path, if every level is present.
    pub fn component(&self, path: &[&str]) -> Option<&Map<String, Value>> {
        let mut node = &self.root;
        for part in path {
            node = node.get(*part)?.as_object()?;
        }
        Some(node)
    }
}

/// Whether a JSON value is an attribute object (has a string `type`).
pub fn is_attribute(value: &Value) -> bool {
    value.as_object().is_some_and(|o| o.get("type").is_some_and(Value::is_string))
}

/// A short name for a JSON value's kind, for messages.
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A compact rendering of a JSON value for messages.
pub fn show(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "?".into())
}
