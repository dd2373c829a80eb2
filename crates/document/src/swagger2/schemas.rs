//! Schemas: 2.0 keywords (`x-nullable`, `discriminator`, `type: file`)
//! in their 3.0 form, and every `$ref` pointed at its new home.

use super::*;
use crate::pointer::unescape_token;

impl Upgrader<'_> {
    /// A 2.0 schema → 3.0 schema.
    pub(super) fn schema(&mut self, value: Value, pointer: &str) -> Value {
        match value {
            Value::Object(map) => Value::Object(self.schema_object(map, pointer)),
            Value::Bool(_) => value,
            other => {
                let message = format!(
                    "a schema must be an object, found {}; replaced by {{}}",
                    kind(&other)
                );
                self.warn(pointer, message);
                Value::Object(Map::new())
            }
        }
    }

    /// The keywords of one schema object, sub-schemas converted recursively.
    fn schema_object(&mut self, map: Map<String, Value>, pointer: &str) -> Map<String, Value> {
        let mut out = Map::new();
        let mut is_file = false;
        for (key, value) in map {
            let child = push_token(pointer, &key);
            match key.as_str() {
                "$ref" => {
                    if let Some(r) = self.ref_string(&value, &child) {
                        out.insert(key, r);
                    }
                }
                "type" if value == "file" => {
                    is_file = true;
                    out.insert(key, "string".into());
                }
                "x-nullable" => self.nullable(value, &child, &mut out),
                "discriminator" => self.discriminator(value, &child, &mut out),
                "properties" => {
                    let properties = self.schema_map(value, &child);
                    out.insert(key, Value::Object(properties));
                }
                "items" => {
                    let items = self.items(value, &child);
                    out.insert(key, items);
                }
                "additionalProperties" if value.is_object() => {
                    let schema = self.schema(value, &child);
                    out.insert(key, schema);
                }
                "allOf" | "anyOf" | "oneOf" => {
                    if let Some(list) = self.schema_list(value, &child) {
                        out.insert(key, list);
                    }
                }
                "not" => {
                    let schema = self.schema(value, &child);
                    out.insert(key, schema);
                }
                _ => {
                    out.insert(key, value);
                }
            }
        }
        if is_file {
            out.insert("format".into(), "binary".into());
        }
        out
    }

    /// `items`: one schema, or (not valid 2.0, kept) a list of them.
    pub(super) fn items(&mut self, value: Value, pointer: &str) -> Value {
        match value {
            Value::Array(_) => self
                .schema_list(value, pointer)
                .unwrap_or_else(|| Value::Array(Vec::new())),
            other => self.schema(other, pointer),
        }
    }

    /// `allOf`/`anyOf`/`oneOf`: a list of schemas.
    fn schema_list(&mut self, value: Value, pointer: &str) -> Option<Value> {
        let Value::Array(items) = value else {
            let message = format!(
                "must be an array of schemas, found {}; ignored",
                kind(&value)
            );
            self.warn(pointer, message);
            return None;
        };
        let converted = items
            .into_iter()
            .enumerate()
            .map(|(i, schema)| self.schema(schema, &push_token(pointer, &i.to_string())))
            .collect();
        Some(Value::Array(converted))
    }

    /// `x-nullable` → `nullable`.
    pub(super) fn nullable(&mut self, value: Value, pointer: &str, out: &mut Map<String, Value>) {
        match value {
            Value::Bool(true) => {
                out.insert("nullable".into(), true.into());
            }
            Value::Bool(false) => {}
            other => {
                let message = format!(
                    "x-nullable must be a boolean, found {}; ignored",
                    kind(&other)
                );
                self.warn(pointer, message);
            }
        }
    }

    /// 2.0 `discriminator: name` → 3.0 `discriminator: {propertyName: name}`.
    pub(super) fn discriminator(
        &mut self,
        value: Value,
        pointer: &str,
        out: &mut Map<String, Value>,
    ) {
        match value {
            Value::String(name) => {
                out.insert("discriminator".into(), json!({ "propertyName": name }));
            }
            Value::Object(_) => {
                out.insert("discriminator".into(), value);
            }
            other => {
                let message = format!(
                    "discriminator must be a string, found {}; ignored",
                    kind(&other)
                );
                self.warn(pointer, message);
            }
        }
    }

    /// `{"$ref": rewritten}` for a `$ref` value found in the object at `pointer`.
    pub(super) fn ref_object(&mut self, reference: &Value, pointer: &str) -> Option<Value> {
        let rewritten = self.ref_string(reference, &push_token(pointer, "$ref"))?;
        Some(json!({ "$ref": rewritten }))
    }

    /// The rewritten `$ref` string at `pointer`; warns when it is not a string.
    pub(super) fn ref_string(&mut self, reference: &Value, pointer: &str) -> Option<Value> {
        match reference.as_str() {
            Some(r) => Some(Value::String(self.rewrite_ref(r))),
            None => {
                let message = format!("$ref must be a string, found {}; ignored", kind(reference));
                self.warn(pointer, message);
                None
            }
        }
    }

    /// Rewrites the fragment of a 2.0 `$ref` to its 3.0 location, keeping
    /// the file part and the (escaped) remainder of the pointer intact.
    pub(super) fn rewrite_ref(&self, reference: &str) -> String {
        let Some((file, fragment)) = reference.split_once('#') else {
            return reference.to_string();
        };
        let Some(path) = fragment.strip_prefix('/') else {
            return reference.to_string();
        };
        let (section, tail) = match path.find('/') {
            Some(i) => (&path[..i], &path[i..]),
            None => (path, ""),
        };
        let target = match section {
            "definitions" => "components/schemas",
            "parameters" if file.is_empty() && self.names_body_param(tail) => {
                "components/requestBodies"
            }
            "parameters" => "components/parameters",
            "responses" => "components/responses",
            "securityDefinitions" => "components/securitySchemes",
            _ => return reference.to_string(),
        };
        format!("{file}#/{target}{tail}")
    }

    /// Whether `/name…` (the rest of a `#/parameters` pointer) names a
    /// global body parameter.
    fn names_body_param(&self, tail: &str) -> bool {
        let token = tail
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or_default();
        !token.is_empty() && self.body_params.contains(&unescape_token(token))
    }
}

/// Whether a 2.0 object declares `type: file`.
pub(super) fn is_file_type(map: &Map<String, Value>) -> bool {
    map.get("type").and_then(Value::as_str) == Some("file")
}

/// Whether a converted schema is an array.
pub(super) fn is_array_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("array")
}
