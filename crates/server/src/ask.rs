//! Asking a person for the required arguments a call lacks
//! (`--ask-missing`).
//!
//! A model that calls `get_pet` without `petId` usually cannot know the
//! value: the person can. When every missing required argument is a
//! primitive (string, number, integer, boolean, string enum), the call
//! asks for them in one elicitation form, merges the answers into the
//! arguments and goes on (to the confirmation of [`super::confirm`] when
//! the call needs one). When one of them is an object, an array or a union
//! a form cannot hold, nothing is asked and validation names what is
//! missing, as without the flag.

use rmcp::model::{ElicitRequestParams, ElicitationSchema};
use serde_json::{Map, Number, Value, json};

/// Key of the missing-arguments form in `inputRequests` /
/// `inputResponses`.
pub const ARGS_KEY: &str = "arguments";

/// Longest description shown beside one field of the form.
const MAX_FIELD_DESCRIPTION: usize = 300;

/// The type a form field holds, to check and convert the answer.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    String(Option<Vec<String>>),
    Integer,
    Number,
    Boolean,
}

/// The required arguments a call lacks, as a form to fill in.
#[derive(Debug)]
pub(super) struct MissingArgs {
    /// Names in the order of the schema's `required`.
    fields: Vec<(String, Kind)>,
    schema: ElicitationSchema,
}

impl MissingArgs {
    /// The missing argument names, comma-separated in backticks.
    pub(super) fn names(&self) -> String {
        self.fields
            .iter()
            .map(|(n, _)| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The elicitation asking for them.
    pub(super) fn request(&self, tool: &str) -> ElicitRequestParams {
        let message = format!(
            "`{tool}` needs {} to be called. Please fill in:",
            self.names()
        );
        ElicitRequestParams::FormElicitationParams {
            meta: None,
            message,
            requested_schema: self.schema.clone(),
        }
    }

    /// The answers in `content` checked and converted to the fields'
    /// types, or why they cannot be used (naming the field). Fields left
    /// out of the answer are missing from the result.
    pub(super) fn answers(
        &self,
        content: &Map<String, Value>,
    ) -> Result<Map<String, Value>, String> {
        let mut out = Map::new();
        for (name, kind) in &self.fields {
            let Some(value) = content.get(name).filter(|v| !v.is_null()) else {
                continue;
            };
            let converted = convert(kind, value)
                .ok_or_else(|| format!("`{name}`: {} is not {}", short(value), kind.noun()))?;
            out.insert(name.clone(), converted);
        }
        let left: Vec<&str> = self
            .fields
            .iter()
            .map(|(n, _)| n.as_str())
            .filter(|n| !out.contains_key(*n))
            .collect();
        if !left.is_empty() {
            return Err(format!(
                "no value was given for {}",
                left.iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Ok(out)
    }
}

impl Kind {
    fn noun(&self) -> &'static str {
        match self {
            Kind::String(Some(_)) => "one of the allowed values",
            Kind::String(None) => "a string",
            Kind::Integer => "an integer",
            Kind::Number => "a number",
            Kind::Boolean => "true or false",
        }
    }
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

/// `value` as a `kind`, accepting the strings some form clients send for
/// numbers and booleans.
fn convert(kind: &Kind, value: &Value) -> Option<Value> {
    match (kind, value) {
        (Kind::String(allowed), Value::String(s)) => allowed
            .as_ref()
            .is_none_or(|a| a.iter().any(|x| x == s))
            .then(|| value.clone()),
        (Kind::Integer, Value::Number(n)) => {
            if n.is_i64() || n.is_u64() {
                Some(value.clone())
            } else {
                let f = n.as_f64()?;
                (f.fract() == 0.0 && f.abs() < 9.0e15).then(|| json!(f as i64))
            }
        }
        (Kind::Integer, Value::String(s)) => s.trim().parse::<i64>().ok().map(Value::from),
        (Kind::Number, Value::Number(_)) => Some(value.clone()),
        (Kind::Number, Value::String(s)) => s
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number),
        (Kind::Boolean, Value::Bool(_)) => Some(value.clone()),
        (Kind::Boolean, Value::String(s)) => match s.trim() {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `args` lacks a required argument of `schema` (cheap: the call
/// path checks this first).
pub(super) fn lacks_required(schema: &Map<String, Value>, args: &Map<String, Value>) -> bool {
    required(schema).any(|name| !args.contains_key(name))
}

fn required(schema: &Map<String, Value>) -> impl Iterator<Item = &str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// The form asking for the required arguments of `schema` that `args`
/// lacks; `None` when nothing is missing or something missing cannot be
/// asked in a form.
pub(super) fn missing(
    schema: &Map<String, Value>,
    args: &Map<String, Value>,
) -> Option<MissingArgs> {
    let properties = schema.get("properties").and_then(Value::as_object);
    let mut fields = Vec::new();
    let mut form = Map::new();
    for name in required(schema).filter(|n| !args.contains_key(*n)) {
        let property = properties.and_then(|p| p.get(name))?;
        let property = resolve(schema, property)?;
        let (kind, field) = field(name, property, schema)?;
        form.insert(name.to_string(), field);
        fields.push((name.to_string(), kind));
    }
    if fields.is_empty() {
        return None;
    }
    let names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
    let schema: ElicitationSchema = serde_json::from_value(json!({
        "type": "object",
        "properties": form,
        "required": names,
    }))
    .ok()?;
    Some(MissingArgs { fields, schema })
}

/// A property schema with a local `$ref` (`#/$defs/…`) followed, at most
/// a few times.
fn resolve<'a>(
    root: &'a Map<String, Value>,
    mut schema: &'a Value,
) -> Option<&'a Map<String, Value>> {
    for _ in 0..8 {
        let map = schema.as_object()?;
        let Some(reference) = map.get("$ref").and_then(Value::as_str) else {
            return Some(map);
        };
        let name = reference.strip_prefix("#/$defs/")?;
        schema = root.get("$defs")?.get(name)?;
    }
    None
}

/// The single non-null `type` of a property (`["string", "null"]` is a
/// string), or the type its `enum` implies.
fn type_of(property: &Map<String, Value>) -> Option<&str> {
    match property.get("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        Some(Value::Array(types)) => {
            let mut named = types
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null");
            let first = named.next()?;
            named.next().is_none().then_some(first)
        }
        None => property
            .get("enum")
            .and_then(Value::as_array)
            .filter(|v| !v.is_empty() && v.iter().all(Value::is_string))
            .map(|_| "string"),
        _ => None,
    }
}

/// The form field for one property, or `None` when a form cannot hold it.
fn field(
    name: &str,
    property: &Map<String, Value>,
    root: &Map<String, Value>,
) -> Option<(Kind, Value)> {
    // A union (`oneOf`/`anyOf`) of several shapes is no single field.
    if ["oneOf", "anyOf", "allOf", "not", "const"]
        .iter()
        .any(|k| property.contains_key(*k))
    {
        let single = ["oneOf", "anyOf", "allOf"].iter().find_map(|k| {
            property
                .get(*k)
                .and_then(Value::as_array)
                .filter(|v| v.len() == 1)
                .and_then(|v| v.first())
        });
        let inner = resolve(root, single?)?;
        let (kind, mut field) = self::field(name, inner, root)?;
        copy_text(property, name, &mut field);
        return Some((kind, field));
    }
    let mut out = Map::new();
    let kind = match type_of(property)? {
        "string" => {
            let allowed: Option<Vec<String>> = match property.get("enum") {
                Some(Value::Array(values)) => Some(
                    values
                        .iter()
                        .map(|v| v.as_str().map(str::to_string))
                        .collect::<Option<Vec<_>>>()?,
                ),
                Some(_) => return None,
                None => None,
            };
            out.insert("type".into(), json!("string"));
            if let Some(values) = &allowed {
                out.insert("enum".into(), json!(values));
            } else {
                for key in ["minLength", "maxLength"] {
                    if let Some(n) = property.get(key).and_then(Value::as_u64) {
                        out.insert(key.into(), json!(n.min(u64::from(u32::MAX))));
                    }
                }
                if let Some(format) = property.get("format").and_then(Value::as_str)
                    && ["email", "uri", "date", "date-time"].contains(&format)
                {
                    out.insert("format".into(), json!(format));
                }
            }
            if let Some(d) = property.get("default").filter(|d| d.is_string()) {
                out.insert("default".into(), d.clone());
            }
            Kind::String(allowed)
        }
        "integer" => {
            out.insert("type".into(), json!("integer"));
            for key in ["minimum", "maximum", "default"] {
                if let Some(n) = property.get(key).and_then(Value::as_i64) {
                    out.insert(key.into(), json!(n));
                }
            }
            Kind::Integer
        }
        "number" => {
            out.insert("type".into(), json!("number"));
            for key in ["minimum", "maximum", "default"] {
                if let Some(n) = property.get(key).filter(|v| v.is_number()) {
                    out.insert(key.into(), n.clone());
                }
            }
            Kind::Number
        }
        "boolean" => {
            out.insert("type".into(), json!("boolean"));
            if let Some(d) = property.get("default").filter(|d| d.is_boolean()) {
                out.insert("default".into(), d.clone());
            }
            Kind::Boolean
        }
        _ => return None,
    };
    let mut field = Value::Object(out);
    copy_text(property, name, &mut field);
    Some((kind, field))
}

/// The field's title (the property's, else its name) and description
/// (shortened).
fn copy_text(property: &Map<String, Value>, name: &str, field: &mut Value) {
    let Some(out) = field.as_object_mut() else {
        return;
    };
    let title = property
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or(name);
    out.entry("title").or_insert_with(|| json!(title));
    if let Some(description) = property.get("description").and_then(Value::as_str) {
        let text = match description.char_indices().nth(MAX_FIELD_DESCRIPTION) {
            Some((i, _)) => format!("{}…", &description[..i]),
            None => description.to_string(),
        };
        out.insert("description".into(), json!(text));
    }
}

#[cfg(test)]
#[path = "ask_tests.rs"]
mod tests;
