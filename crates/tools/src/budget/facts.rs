//! What the budget reads off a converted schema and writes into a
//! summary: its fields and required names (through `allOf` and `$ref`s),
//! the type an `allOf` imposes, first sentences, compacted enums, and
//! whether a subschema is small or structural enough to summarize.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{FIELDS_LISTED, SMALL};
use crate::bundle::{Converted, json_size};

/// The `$defs` key a `{"$ref": "#/$defs/K"}` names.
pub(super) fn ref_key(map: &Map<String, Value>) -> Option<&str> {
    map.get("$ref")?.as_str()?.strip_prefix("#/$defs/")
}

/// Whether keyword `k` only restates what the schema's `format` says (a
/// date-time `pattern`, int32 bounds): dropped at the budget's last level.
pub(super) fn implied_by_format(k: &str, v: &Value, map: &Map<String, Value>) -> bool {
    let Some(format) = map.get("format").and_then(Value::as_str) else {
        return false;
    };
    match k {
        "pattern" => true,
        "minimum" | "maximum" => match format {
            "int32" => v
                .as_i64()
                .is_some_and(|n| n == i64::from(i32::MIN) || n == i64::from(i32::MAX)),
            "int64" => v.as_i64().is_some_and(|n| n == i64::MIN || n == i64::MAX),
            _ => false,
        },
        _ => false,
    }
}

/// The `type` an `allOf` imposes (any member's, since all must hold).
pub(super) fn all_of_type(
    schema: &Value,
    lookup: &mut dyn FnMut(&str) -> Arc<Converted>,
    depth: usize,
) -> Option<Value> {
    if depth > 4 {
        return None;
    }
    for part in schema.get("allOf")?.as_array()? {
        let part = resolve(part, lookup);
        if let Some(t) = part.get("type") {
            return Some(t.clone());
        }
        if let Some(t) = all_of_type(&part, lookup, depth + 1) {
            return Some(t);
        }
    }
    None
}

/// A scalar schema with a long `enum` (Microsoft Graph lists every
/// property name in `$select`'s items), as the type and a description
/// naming the first values: the last resort of the budget, below the
/// arguments' own level. The full schema keeps the enum and the server
/// checks against it.
pub(super) fn without_big_enum(map: &Map<String, Value>) -> Option<Value> {
    const BIG_ENUM: usize = 512;
    let values = map.get("enum")?.as_array()?;
    // Measured in place: an array serializes as its `Value` does.
    if json_size(values) <= BIG_ENUM {
        return None;
    }
    let mut out = Map::new();
    if let Some(t) = map.get("type") {
        out.insert("type".into(), t.clone());
    }
    let shown: Vec<String> = values
        .iter()
        .take(6)
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
        .collect();
    out.insert(
        "description".into(),
        Value::String(format!(
            "One of {} values: {}, …",
            values.len(),
            shown.join(", ")
        )),
    );
    Some(Value::Object(out))
}

/// Whether a schema has structure worth summarizing (nested schemas); a
/// scalar schema is listed as it is, however deep.
pub(super) fn is_structural(map: &Map<String, Value>) -> bool {
    [
        "properties",
        "patternProperties",
        "additionalProperties",
        "items",
        "prefixItems",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
    ]
    .iter()
    .any(|k| map.get(*k).is_some_and(|v| !v.is_boolean()))
}

/// The site's own keywords (a description, say) laid over the expanded
/// target of a `$ref`; `terse` is the longest description kept, when
/// descriptions are shortened.
pub(super) fn with_siblings(
    target: Value,
    site: &Map<String, Value>,
    terse: Option<usize>,
) -> Value {
    if site.len() == 1 {
        return target;
    }
    let mut out = match target {
        Value::Object(m) => m,
        Value::Bool(true) => Map::new(),
        other => {
            let mut m = Map::new();
            m.insert("allOf".into(), Value::Array(vec![other]));
            m
        }
    };
    for (k, v) in site {
        if k == "$ref" || (terse.is_some() && matches!(k.as_str(), "examples" | "title")) {
            continue;
        }
        let v = match (k.as_str(), v, terse) {
            ("description", _, Some(0)) => continue,
            ("description", Value::String(d), Some(max)) => Value::String(first_sentence(d, max)),
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    Value::Object(out)
}

/// Follows a top-level `$ref` chain (a few hops) to the schema it names.
pub(super) fn resolve<'v>(
    schema: &'v Value,
    lookup: &mut dyn FnMut(&str) -> Arc<Converted>,
) -> Resolved<'v> {
    let Some(first) = schema.as_object().and_then(ref_key) else {
        return Resolved::Here(schema);
    };
    let mut cur = Arc::clone(&lookup(first).schema);
    for _ in 0..3 {
        let next = match cur.as_object().and_then(ref_key) {
            Some(key) => Arc::clone(&lookup(key).schema),
            None => break,
        };
        cur = next;
    }
    Resolved::Def(cur)
}

/// A schema as found, or the def a `$ref` led to (no copy either way).
pub(super) enum Resolved<'v> {
    Here(&'v Value),
    Def(Arc<Value>),
}

impl std::ops::Deref for Resolved<'_> {
    type Target = Value;
    fn deref(&self) -> &Value {
        match self {
            Resolved::Here(v) => v,
            Resolved::Def(v) => v,
        }
    }
}

/// Property names and `required` names of an object schema, through
/// `allOf` and `$ref`s, each in first-seen order.
pub(super) fn fields_of(
    schema: &Value,
    lookup: &mut dyn FnMut(&str) -> Arc<Converted>,
) -> (Vec<String>, Vec<String>) {
    let (mut fields, mut required) = (Vec::new(), Vec::new());
    let add = |out: &mut Vec<String>, name: &str| {
        if !out.iter().any(|o| o == name) {
            out.push(name.to_string());
        }
    };
    collect_members(schema, lookup, 0, &mut |m| {
        if let Some(Value::Object(props)) = m.get("properties") {
            props.keys().for_each(|n| add(&mut fields, n));
        }
        if let Some(Value::Array(req)) = m.get("required") {
            req.iter()
                .filter_map(Value::as_str)
                .for_each(|n| add(&mut required, n));
        }
    });
    (fields, required)
}

pub(super) fn collect_members(
    schema: &Value,
    lookup: &mut dyn FnMut(&str) -> Arc<Converted>,
    depth: usize,
    visit: &mut dyn FnMut(&Map<String, Value>),
) {
    if depth > 6 {
        return;
    }
    let Value::Object(m) = schema else { return };
    if let Some(key) = ref_key(m) {
        let target = Arc::clone(&lookup(key).schema);
        collect_members(&target, lookup, depth + 1, visit);
    }
    visit(m);
    if let Some(Value::Array(parts)) = m.get("allOf") {
        for part in parts {
            collect_members(part, lookup, depth + 1, visit);
        }
    }
}

/// `$defs` names of `anyOf`/`oneOf` branches.
pub(super) fn variant_names(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for k in ["anyOf", "oneOf"] {
        if let Some(Value::Array(parts)) = schema.get(k) {
            for p in parts {
                if let Some(key) = p.as_object().and_then(ref_key) {
                    out.push(key.to_string());
                }
            }
        }
    }
    out.truncate(FIELDS_LISTED);
    out
}

pub(super) fn describe_fields(
    text: &mut String,
    fields: &[String],
    required: &[String],
    listed: usize,
) {
    if fields.is_empty() {
        text.push('.');
        return;
    }
    let shown: Vec<&str> = fields.iter().take(listed).map(String::as_str).collect();
    text.push_str(&format!(
        " with {} field{}: {}",
        fields.len(),
        if fields.len() == 1 { "" } else { "s" },
        shown.join(", ")
    ));
    if fields.len() > shown.len() {
        text.push_str(&format!(" (+{} more)", fields.len() - shown.len()));
    }
    let req: Vec<&str> = required.iter().take(listed).map(String::as_str).collect();
    if !req.is_empty() {
        text.push_str(&format!("; required: {}", req.join(", ")));
    }
    text.push('.');
}

/// Whether a subschema is small and self-contained (no references).
pub(super) fn is_small(schema: &Value) -> bool {
    fn walk(v: &Value, left: &mut isize) -> bool {
        *left -= 4;
        if *left < 0 {
            return false;
        }
        match v {
            Value::Object(m) => m.iter().all(|(k, c)| {
                *left -= k.len() as isize + 3;
                k != "$ref" && walk(c, left)
            }),
            Value::Array(items) => items.iter().all(|c| walk(c, left)),
            Value::String(s) => {
                *left -= s.len() as isize;
                *left >= 0
            }
            _ => true,
        }
    }
    let mut left = SMALL as isize;
    walk(schema, &mut left)
}

/// The first sentence of `text`, at most `max` characters.
pub(super) fn first_sentence(text: &str, max: usize) -> String {
    let text = text.trim();
    let end = text
        .char_indices()
        .find(|&(i, c)| (c == '.' && text[i + 1..].starts_with(char::is_whitespace)) || c == '\n')
        .map_or(text.len(), |(i, c)| if c == '.' { i + 1 } else { i });
    let sentence = text[..end].trim();
    if sentence.chars().count() <= max {
        sentence.to_string()
    } else {
        let cut: String = sentence.chars().take(max.saturating_sub(1)).collect();
        format!("{}…", cut.trim_end())
    }
}

#[cfg(test)]
#[path = "facts_tests.rs"]
mod tests;
