//! The platform's parameter patch: merges a nested patch into a document
//! with the rules of `PATCH .../parameters`. Any broken rule rejects the
//! whole patch (the platform's 400) and leaves the document unchanged.

use super::document::{is_attribute, json_kind, show, Document};
use super::lists::check_patch_form;
use super::schema;
use super::units::AttrType;
use super::validate::Warning;
use serde_json::{Map, Value};
use std::fmt;

/// One reason the platform would answer 400.
#[derive(Clone, Debug, PartialEq)]
pub struct PatchError {
    pub path: String,
    pub rule: String,
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() { "(patch)" } else { &self.path };
        write!(f, "patch rejected (400): {path}: {}", self.rule)
    }
}

/// Fields a patch may carry inside an attribute.
const PATCH_FIELDS: &[&str] = &["value", "unit", "type"];

/// Applies `patch` to `doc`; returns the merged document and warnings, or
/// every broken rule.
pub fn apply_patch(doc: &Document, patch: &Value) -> Result<(Document, Vec<Warning>), Vec<PatchError>> {
    let mut merger = Merger { errors: Vec::new(), warnings: Vec::new() };
    let mut merged = doc.clone();
    match patch.as_object() {
        None => merger.error("", format!("a patch must be a JSON object, found {}", json_kind(patch))),
        Some(p) if p.is_empty() => merger.error("", "the patch is empty"),
        Some(p) => merger.merge(merged.root_mut(), p, &[]),
    }
    if merger.errors.is_empty() {
        Ok((merged, merger.warnings))
    } else {
        Err(merger.errors)
    }
}

struct Merger {
    errors: Vec<PatchError>,
    warnings: Vec<Warning>,
}

impl Merger {
    fn error(&mut self, path: impl Into<String>, rule: impl Into<String>) {
        self.errors.push(PatchError { path: path.into(), rule: rule.into() });
    }

    fn merge(&mut self, stored: &mut Map<String, Value>, patch: &Map<String, Value>, at: &[&str]) {
        for (key, patch_value) in patch {
            let mut path = at.to_vec();
            path.push(key);
            let dotted = path.join(".");
            let Some(stored_value) = stored.get_mut(key) else {
                self.error(dotted, "unknown key: only keys the component already has can be updated");
                continue;
            };
            if is_attribute(stored_value) {
                self.merge_attribute(stored_value, patch_value, at, key, &dotted);
                continue;
            }
            match patch_value.as_object() {
                Some(_) if is_attribute(patch_value) => {
                    self.error(dotted, "an attribute was sent where a nested object is expected")
                }
                Some(inner) if inner.is_empty() => self.error(dotted, "the patch is empty"),
                Some(inner) => match stored_value.as_object_mut() {
                    Some(stored_inner) => self.merge(stored_inner, inner, &path),
                    None => self.error(dotted, "the stored document has no object here"),
                },
                None => self.error(dotted, format!(
                    "a nested object is expected, found {}", json_kind(patch_value))),
            }
        }
    }

    fn merge_attribute(&mut self, stored: &mut Value, patch: &Value, component: &[&str], name: &str, path: &str) {
        let Some(fields) = patch.as_object() else {
            return self.error(path, format!(
                "an attribute object ({{\"value\", \"type\", ...}}) is expected, found {}", json_kind(patch)));
        };
        if !is_attribute(patch) {
            return self.error(path, "a nested object was sent where an attribute is expected (no string `type`)");
        }
        let before = self.errors.len();
        for field in fields.keys().filter(|f| !PATCH_FIELDS.contains(&f.as_str())) {
            self.error(format!("{path}.{field}"), "unknown key: a patch sets only `value`, `unit` and `type`");
        }
        let stored_type = stored["type"].as_str().unwrap_or_default().to_string();
        let sent_type = fields["type"].as_str().unwrap_or_default();
        if sent_type != stored_type {
            self.error(path, format!("type {sent_type:?} does not match the stored type {stored_type:?}"));
        }
        let Some(value) = fields.get("value") else {
            return self.error(path, "the patch has no `value`");
        };
        let spec = schema::find(component, name);
        if let Some(ty) = AttrType::from_name(&stored_type) {
            if let Err(rule) = check_value_kind(ty, value) {
                self.error(path, format!("{} {rule}", show(value)));
            }
            self.check_unit(ty, fields.get("unit"), path);
        }
        let allowed = allowed_values(stored, spec);
        if !allowed.is_empty() && !allowed.iter().any(|a| a == value) {
            let names: Vec<String> = allowed.iter().map(show).collect();
            self.error(path, format!("{} is not one of the allowed values {}", show(value), names.join(", ")));
        }
        if spec.is_some_and(|s| s.is_list) {
            if let Some(text) = value.as_str() {
                if let Err(rule) = check_patch_form(text) {
                    self.error(path, format!("{}: {rule}", show(value)));
                }
            }
        }
        if self.errors.len() == before {
            let object = stored.as_object_mut().expect("attributes are objects");
            object.insert("value".into(), value.clone());
            if let (Some(ty), Some(Value::String(unit))) = (AttrType::from_name(&stored_type), fields.get("unit")) {
                if let Err(field) = restate_in_unit(object, ty, unit) {
                    self.warnings.push(Warning {
                        path: format!("{path}.{field}"),
                        message: format!("cannot be restated in {unit}: it keeps its number in the old unit"),
                    });
                }
                object.insert("unit".into(), Value::String(unit.clone()));
            }
        }
    }

    fn check_unit(&mut self, ty: AttrType, unit: Option<&Value>, path: &str) {
        match (ty.is_dimensional(), unit) {
            (true, None) => self.warnings.push(Warning {
                path: path.into(),
                message: "no `unit` sent: the stored unit is kept with the new value".into(),
            }),
            (true, Some(Value::String(u))) if ty.unit_factor(u).is_some() => {}
            (true, Some(u)) => self.error(path, format!("unit {} is not one of {}", show(u), ty.unit_list())),
            (false, Some(_)) => self.error(format!("{path}.unit"), format!("unknown key: a {ty} attribute has no unit")),
            (false, None) => {}
        }
    }
}

/// The allowed values: the stored `enum`, or the switch's own list.
fn allowed_values(stored: &Value, spec: Option<&schema::AttrSpec>) -> Vec<Value> {
    if let Some(Value::Array(values)) = stored.get("enum") {
        return values.clone();
    }
    spec.map(|s| s.allowed.iter().map(|v| Value::String((*v).into())).collect()).unwrap_or_default()
}

fn check_value_kind(ty: AttrType, value: &Value) -> Result<(), &'static str> {
    let fits = match ty {
        AttrType::Bool => value.is_boolean(),
        AttrType::String => value.is_string(),
        _ => value.is_number(),
    };
    if fits {
        Ok(())
    } else {
        Err(match ty {
            AttrType::Bool => "is not true or false",
            AttrType::String => "is not a string",
            _ => "is not a number",
        })
    }
}

/// Fields of a stored attribute that hold a number in the attribute's unit.
const UNIT_FIELDS: &[&str] = &["default", "min", "max"];

/// Restates `default`, `min` and `max` of a dimensional attribute in `unit`
/// when a patch changes the unit, so that they keep meaning the same
/// amount beside it (Gap patched to `s` shows `max 2`, not `max 2000000`).
/// Units are powers of ten apart, so exact decimals restate exactly.
/// Returns the first field that could not be restated.
fn restate_in_unit(object: &mut Map<String, Value>, ty: AttrType, unit: &str) -> Result<(), &'static str> {
    use super::units::decimal_from_json_number;
    use rust_decimal::Decimal;
    let old = object.get("unit").and_then(Value::as_str).and_then(|u| ty.unit_factor(u));
    let (Some(old), Some(new)) = (old, ty.unit_factor(unit)) else { return Ok(()) };
    if old == new {
        return Ok(());
    }
    let mut restated = Vec::new();
    for field in UNIT_FIELDS {
        let Some(Value::Number(n)) = object.get(*field) else { continue };
        let number = decimal_from_json_number(&n.to_string())
            .and_then(|d| d.checked_mul(Decimal::from(old)))
            .and_then(|d| d.checked_div(Decimal::from(new)))
            .and_then(|d| d.normalize().to_string().parse::<serde_json::Number>().ok())
            .ok_or(*field)?;
        restated.push((field.to_string(), Value::Number(number)));
    }
    object.extend(restated);
    Ok(())
}
