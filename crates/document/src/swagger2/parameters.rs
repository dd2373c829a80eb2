//! Non-body parameters: 2.0 inline type keywords become a `schema`, and
//! `collectionFormat` becomes `style`/`explode`.

use super::schemas::is_array_schema;
use super::*;
use crate::pointer::unescape_token;

impl Upgrader<'_> {
    /// A 2.0 `parameters` array: non-body parameters converted, body and
    /// formData ones set aside for the request body.
    pub(super) fn parameter_list(&mut self, list: Value, pointer: &str) -> ParamSet {
        let mut set = ParamSet::default();
        let Value::Array(items) = list else {
            let message = format!(
                "parameters must be an array, found {}; ignored",
                kind(&list)
            );
            self.warn(pointer, message);
            return set;
        };
        for (i, param) in items.into_iter().enumerate() {
            let param_pointer = push_token(pointer, &i.to_string());
            self.classify_parameter(param, &param_pointer, &mut set);
        }
        set
    }

    /// Sorts one list entry into `set`.
    fn classify_parameter(&mut self, param: Value, pointer: &str, set: &mut ParamSet) {
        let Some(param) = self.expect_object(param, pointer) else {
            return;
        };
        if let Some(reference) = param.get("$ref") {
            self.classify_parameter_ref(reference, pointer, set);
            return;
        }
        match param.get("in").and_then(Value::as_str) {
            Some("body") => {
                let source = BodySource::Inline(param, pointer.to_string());
                self.add_body(&mut set.body, source, pointer);
            }
            Some("formData") => set.body.forms.push((param, pointer.to_string())),
            _ => {
                if let Some(converted) = self.parameter(param, pointer) {
                    set.regular.push(converted);
                }
            }
        }
    }

    /// A `$ref` entry: to a global body parameter (a request body), to a
    /// global formData parameter (merged into the form), or to a parameter.
    fn classify_parameter_ref(&mut self, reference: &Value, pointer: &str, set: &mut ParamSet) {
        let Some(original) = reference.as_str() else {
            let message = format!("$ref must be a string, found {}; ignored", kind(reference));
            self.warn(&push_token(pointer, "$ref"), message);
            return;
        };
        if let Some(name) = local_parameter_name(original) {
            if self.body_params.contains(&name) {
                let rewritten = self.rewrite_ref(original);
                self.add_body(&mut set.body, BodySource::Ref(rewritten), pointer);
                return;
            }
            if let Some(Value::Object(form)) = self.form_params.get(&name) {
                let form_pointer = push_token("/parameters", &name);
                set.body.forms.push((form.clone(), form_pointer));
                return;
            }
        }
        set.regular
            .push(json!({ "$ref": self.rewrite_ref(original) }));
    }

    /// Sets the body parameter, warning when there already is one.
    fn add_body(&mut self, parts: &mut BodyParts, source: BodySource, pointer: &str) {
        if parts.body.is_some() {
            self.warn(
                pointer,
                "only one body parameter is allowed per operation; this one is ignored",
            );
            return;
        }
        parts.body = Some(source);
    }

    /// A non-body, non-formData parameter (query, header, path).
    pub(super) fn parameter(&mut self, param: Map<String, Value>, pointer: &str) -> Option<Value> {
        if !param.get("name").is_some_and(Value::is_string) {
            self.warn(pointer, "parameter has no string `name`; skipped");
            return None;
        }
        let location = match param.get("in").and_then(Value::as_str) {
            Some(location @ ("query" | "header" | "path")) => location.to_string(),
            _ => {
                self.warn(
                    pointer,
                    "parameter `in` must be one of query, header, path, body, formData; skipped",
                );
                return None;
            }
        };
        let parts = split_simple(param);
        let mut out = parts.other;
        let schema = self.parameter_schema(parts.schema, parts.given_schema, pointer);
        if is_array_schema(&schema) {
            let format = parts.collection_format.as_ref();
            let (style, explode) = self.collection_style(format, &location, pointer);
            out.insert("style".into(), style.into());
            out.insert("explode".into(), explode.into());
        }
        out.insert("schema".into(), schema);
        if let Some(example) = parts.example {
            out.insert("example".into(), example);
        }
        out.extend(parts.extensions);
        Some(Value::Object(out))
    }

    /// The 3.0 `schema` of a parameter, header or form field.
    pub(super) fn parameter_schema(
        &mut self,
        mut simple: Map<String, Value>,
        given: Option<Value>,
        pointer: &str,
    ) -> Value {
        let schema_pointer = push_token(pointer, "schema");
        if simple.is_empty() {
            return match given {
                Some(schema) => self.schema(schema, &schema_pointer),
                None => Value::Object(Map::new()),
            };
        }
        if given.is_some() {
            self.warn(
                &schema_pointer,
                "a non-body parameter has both `type` keywords and `schema`; `schema` ignored",
            );
        }
        if let Some(items) = simple.get_mut("items") {
            self.strip_nested_collection_formats(items, &push_token(pointer, "items"));
        }
        self.schema(Value::Object(simple), pointer)
    }

    /// Removes `collectionFormat` from nested items objects (3.0 cannot
    /// express it), warning for each.
    fn strip_nested_collection_formats(&mut self, items: &mut Value, pointer: &str) {
        let mut current = Some(items);
        let mut current_pointer = pointer.to_string();
        while let Some(Value::Object(map)) = current {
            if map.shift_remove("collectionFormat").is_some() {
                self.warn(
                    &push_token(&current_pointer, "collectionFormat"),
                    "collectionFormat of nested items cannot be expressed in OpenAPI 3.0; ignored",
                );
            }
            current_pointer = push_token(&current_pointer, "items");
            current = map.get_mut("items");
        }
    }

    /// `(style, explode)` for an array parameter in `location`, from its
    /// 2.0 `collectionFormat` (default csv).
    pub(super) fn collection_style(
        &mut self,
        format: Option<&Value>,
        location: &str,
        pointer: &str,
    ) -> (&'static str, bool) {
        let query_like = matches!(location, "query" | "formData");
        let csv = if query_like {
            ("form", false)
        } else {
            ("simple", false)
        };
        let Some(format) = format else {
            return csv;
        };
        let format_pointer = push_token(pointer, "collectionFormat");
        let Some(name) = format.as_str() else {
            let message = format!(
                "collectionFormat must be a string, found {}; treated as csv",
                kind(format)
            );
            self.warn(&format_pointer, message);
            return csv;
        };
        match name {
            "csv" => csv,
            "multi" if query_like => ("form", true),
            "ssv" if query_like => ("spaceDelimited", false),
            "pipes" if query_like => ("pipeDelimited", false),
            "tsv" => {
                self.warn(
                    &format_pointer,
                    "collectionFormat tsv has no OpenAPI 3.0 equivalent; treated as csv",
                );
                csv
            }
            "multi" | "ssv" | "pipes" => {
                let message = format!(
                    "collectionFormat {name} is not supported for {location} parameters in OpenAPI 3.0; treated as csv"
                );
                self.warn(&format_pointer, message);
                csv
            }
            other => {
                let message = format!("unknown collectionFormat `{other}`; treated as csv");
                self.warn(&format_pointer, message);
                csv
            }
        }
    }
}

/// Keys of a 2.0 non-body parameter, header or items object that belong in
/// the 3.0 `schema`.
const SIMPLE_SCHEMA_KEYS: [&str; 17] = [
    "type",
    "format",
    "items",
    "enum",
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "multipleOf",
    "x-nullable",
];

/// Splits a parameter-like object into schema keywords and the rest.
pub(super) fn split_simple(map: Map<String, Value>) -> SimpleParts {
    let mut parts = SimpleParts::default();
    for (key, value) in map {
        match key.as_str() {
            k if SIMPLE_SCHEMA_KEYS.contains(&k) => {
                parts.schema.insert(key, value);
            }
            "collectionFormat" => parts.collection_format = Some(value),
            "schema" => parts.given_schema = Some(value),
            "x-example" => parts.example = Some(value),
            k if is_extension(k) => {
                parts.extensions.insert(key, value);
            }
            _ => {
                parts.other.insert(key, value);
            }
        }
    }
    parts
}

/// The parameter name of a local `#/parameters/<name>` reference.
fn local_parameter_name(reference: &str) -> Option<String> {
    let token = reference.strip_prefix("#/parameters/")?;
    (!token.is_empty() && !token.contains('/')).then(|| unescape_token(token))
}
