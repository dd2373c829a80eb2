//! Reading item shapes from converted response schemas (JSON Schema
//! 2020-12 as documented, `readOnly`/`writeOnly` kept, `$ref`s naming
//! `#/$defs/<key>` entries): an object's properties and `required` list
//! with `allOf` merged and, for `anyOf`/`oneOf`, the first branch that is
//! an object. The stateful mock decides from these which property is an
//! item's id, which are server-set, and what a list response wraps.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

/// How many `$ref` hops or combinator levels are followed.
const MAX_DEPTH: usize = 16;
/// What a `$ref` to a `$defs` entry starts with.
const DEFS: &str = "#/$defs/";

/// The converted `$defs` entries a schema's `$ref`s name.
pub type Defs = HashMap<String, Arc<Value>>;

/// What the mock needs to know of one property of an item.
#[derive(Debug, Clone, PartialEq)]
pub struct Prop {
    /// The property name.
    pub name: String,
    /// Set by the server (`readOnly`): kept on replace, filled on create.
    pub read_only: bool,
    /// Sent, never returned (`writeOnly`): not stored.
    pub write_only: bool,
    /// The first non-null JSON type documented (`integer`, `string`, …).
    pub ty: Option<String>,
    /// Its `format`, if any.
    pub format: Option<String>,
    /// Its `enum`, if any (a query value outside it does not filter).
    pub enumeration: Option<Vec<Value>>,
    /// For arrays: the items' first non-null type.
    pub item_ty: Option<String>,
}

impl Prop {
    /// Whether a query parameter can filter on it (a scalar, or an array
    /// of scalars).
    pub fn filterable(&self) -> bool {
        match self.ty.as_deref() {
            Some("string" | "integer" | "number" | "boolean") => true,
            Some("array") => matches!(
                self.item_ty.as_deref(),
                Some("string" | "integer" | "number" | "boolean")
            ),
            _ => false,
        }
    }
}

/// An object schema seen flat.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObjectShape {
    /// Properties in document order (`allOf` branches in order).
    pub props: Vec<Prop>,
    /// Required property names.
    pub required: Vec<String>,
    /// The resolved schema of each property, same order as `props`.
    pub schemas: Vec<Value>,
}

impl ObjectShape {
    /// The property named `name`.
    pub fn prop(&self, name: &str) -> Option<&Prop> {
        self.props.iter().find(|p| p.name == name)
    }

    /// The resolved schema of the property named `name`.
    pub fn schema_of(&self, name: &str) -> Option<&Value> {
        self.props
            .iter()
            .position(|p| p.name == name)
            .map(|i| &self.schemas[i])
    }
}

/// Resolves `$ref`s against `defs` (bounded).
pub fn resolve<'v>(defs: &'v Defs, schema: &'v Value) -> &'v Value {
    let mut cur = schema;
    for _ in 0..MAX_DEPTH {
        let Some(key) = cur
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix(DEFS))
        else {
            break;
        };
        match defs.get(key) {
            Some(t) => cur = t,
            None => break,
        }
    }
    cur
}

/// The first non-null type of a (resolved) schema.
fn first_type(schema: &Value) -> Option<String> {
    match schema.get("type") {
        Some(Value::String(t)) if t != "null" => Some(t.clone()),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .map(str::to_string),
        _ => {
            if schema.get("properties").is_some() {
                Some("object".into())
            } else if schema.get("items").is_some() {
                Some("array".into())
            } else {
                None
            }
        }
    }
}

/// The type of a schema after `$ref`s, looking into `allOf` and the
/// first typed `anyOf`/`oneOf` branch.
pub fn type_of(defs: &Defs, schema: &Value) -> Option<String> {
    type_at(defs, schema, 0)
}

fn type_at(defs: &Defs, schema: &Value, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    let s = resolve(defs, schema);
    if let Some(t) = first_type(s) {
        return Some(t);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for branch in s.get(key).and_then(Value::as_array).into_iter().flatten() {
            if let Some(t) = type_at(defs, branch, depth + 1) {
                return Some(t);
            }
        }
    }
    None
}

/// The object `schema` describes, if it describes one with properties.
pub fn object(defs: &Defs, schema: &Value) -> Option<ObjectShape> {
    let mut shape = ObjectShape::default();
    collect(defs, schema, &mut shape, 0);
    (!shape.props.is_empty()).then_some(shape)
}

fn collect(defs: &Defs, schema: &Value, shape: &mut ObjectShape, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let s = resolve(defs, schema);
    if let Some(Value::Object(props)) = s.get("properties") {
        for (name, p) in props {
            if shape.prop(name).is_some() {
                continue;
            }
            let resolved = resolve(defs, p);
            let flag = |k: &str| {
                p.get(k) == Some(&Value::Bool(true)) || resolved.get(k) == Some(&Value::Bool(true))
            };
            let ty = type_of(defs, p);
            let item_ty = (ty.as_deref() == Some("array"))
                .then(|| resolved.get("items").and_then(|i| type_of(defs, i)))
                .flatten();
            shape.props.push(Prop {
                name: name.clone(),
                read_only: flag("readOnly"),
                write_only: flag("writeOnly"),
                ty,
                format: resolved
                    .get("format")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                enumeration: resolved.get("enum").and_then(Value::as_array).cloned(),
                item_ty,
            });
            shape.schemas.push(resolved.clone());
        }
    }
    for r in s
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(r) = r.as_str()
            && !shape.required.iter().any(|x| x == r)
        {
            shape.required.push(r.to_string());
        }
    }
    for branch in s
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        collect(defs, branch, shape, depth + 1);
    }
    if shape.props.is_empty() {
        for key in ["anyOf", "oneOf"] {
            for branch in s.get(key).and_then(Value::as_array).into_iter().flatten() {
                let mut one = ObjectShape::default();
                collect(defs, branch, &mut one, depth + 1);
                if !one.props.is_empty() {
                    shape.props = one.props;
                    shape.schemas = one.schemas;
                    shape.required.extend(one.required);
                    return;
                }
            }
        }
    }
}

/// The schema of an array's items (after `$ref`s), if `schema` is an array.
pub fn items<'v>(defs: &'v Defs, schema: &'v Value) -> Option<&'v Value> {
    let s = resolve(defs, schema);
    if type_of(defs, s).as_deref() != Some("array") {
        return None;
    }
    s.get("items")
}

#[cfg(test)]
#[path = "shape_tests.rs"]
mod tests;
