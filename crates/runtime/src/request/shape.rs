//! Parameter values reduced to what the serialization styles distinguish.

use serde_json::Value;

use super::super::wire::media::is_json;

/// A parameter value reduced to what the styles distinguish: one string, a
/// list of strings, or ordered key/value string pairs.
///
/// Strings are sent without quotes, numbers and booleans as JSON prints them.
/// `null` members are skipped (RFC 6570 "undefined"); members that are
/// themselves arrays or objects are sent as compact JSON text, since no style
/// defines nesting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Shape {
    Primitive(String),
    Array(Vec<String>),
    Object(Vec<(String, String)>),
}

impl Shape {
    /// Reduces a JSON value.
    pub(super) fn of(value: &Value) -> Shape {
        match value {
            Value::Array(items) => Shape::Array(items.iter().filter_map(atom).collect()),
            Value::Object(map) => Shape::Object(
                map.iter()
                    .filter_map(|(k, v)| atom(v).map(|v| (k.clone(), v)))
                    .collect(),
            ),
            other => Shape::Primitive(atom(other).unwrap_or_default()),
        }
    }

    /// Applies `key` to object keys and `value` to every other string.
    pub(super) fn encoded(
        &self,
        key: impl Fn(&str) -> String,
        value: impl Fn(&str) -> String,
    ) -> Shape {
        match self {
            Shape::Primitive(p) => Shape::Primitive(value(p)),
            Shape::Array(items) => Shape::Array(items.iter().map(|v| value(v)).collect()),
            Shape::Object(entries) => {
                Shape::Object(entries.iter().map(|(k, v)| (key(k), value(v))).collect())
            }
        }
    }

    /// An empty array or object, which RFC 6570 treats as undefined.
    pub(super) fn is_empty_composite(&self) -> bool {
        match self {
            Shape::Primitive(_) => false,
            Shape::Array(items) => items.is_empty(),
            Shape::Object(entries) => entries.is_empty(),
        }
    }

    /// Joins members with `sep`; objects as `k=v` pairs when exploded, else
    /// as a flat `k,v` list.
    pub(super) fn join(&self, sep: &str, explode: bool) -> String {
        match self {
            Shape::Primitive(p) => p.clone(),
            Shape::Array(items) => items.join(sep),
            Shape::Object(entries) if explode => entries
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(sep),
            Shape::Object(entries) => entries
                .iter()
                .flat_map(|(k, v)| [k.as_str(), v.as_str()])
                .collect::<Vec<_>>()
                .join(sep),
        }
    }
}

/// A scalar as text; `None` for `null`; nested structures as compact JSON.
pub(super) fn atom(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(crate::exact::number_text(n)),
        other => Some(crate::exact::json_text(other)),
    }
}

/// Text of a parameter described by `content`: compact JSON for JSON media
/// types (and for non-string values); a string as is for other media types.
pub(super) fn content_text(media_type: &str, value: &Value) -> String {
    match value {
        Value::String(s) if !is_json(media_type) => s.clone(),
        other => crate::exact::json_text(other),
    }
}
