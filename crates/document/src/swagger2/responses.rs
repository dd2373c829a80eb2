//! Responses: `content` from `produces` and the schema, headers, and
//! `examples` per media type.

use super::bodies::media_content;
use super::parameters::split_simple;
use super::schemas::is_array_schema;
use super::*;

/// An operation's media types for its responses.
#[derive(Clone, Copy)]
pub(super) struct Produces<'a> {
    /// `produces` (the operation's, else the document's), else JSON: the
    /// media types of a response's schema.
    pub(super) effective: &'a [String],
    /// `produces` as declared (empty when neither the operation nor the
    /// document declares it).
    pub(super) declared: &'a [String],
}

/// Whether a response with `code` carries a body (not 1xx, 204, 205 or
/// 304, and not an error: what an API sends in a success it declares).
fn success_with_body(code: &str) -> bool {
    code.starts_with('2') && !matches!(code, "204" | "205")
}

impl Upgrader<'_> {
    /// An operation's `responses` map. A success response without a
    /// schema gets `content` entries without a schema for the declared
    /// `produces`: 2.0 documents leave out the schema of binary answers
    /// (an image), and `produces` is what the request's `Accept` must
    /// offer; without them `*/*` is sent and a strict API answers 406.
    pub(super) fn responses(
        &mut self,
        value: Value,
        pointer: &str,
        produces: Produces<'_>,
    ) -> Option<Value> {
        let map = self.expect_object(value, pointer)?;
        let mut out = Map::new();
        for (code, response) in map {
            if is_extension(&code) {
                out.insert(code, response);
                continue;
            }
            let response_pointer = push_token(pointer, &code);
            let schemaless: &[String] = match success_with_body(&code) {
                true => produces.declared,
                false => &[],
            };
            if let Some(converted) =
                self.response(response, &response_pointer, produces.effective, schemaless)
            {
                out.insert(code, converted);
            }
        }
        Some(Value::Object(out))
    }

    /// One response (or `$ref` to one); without a schema, its `content`
    /// is `schemaless` (media types without a schema), if any.
    pub(super) fn response(
        &mut self,
        value: Value,
        pointer: &str,
        produces: &[String],
        schemaless: &[String],
    ) -> Option<Value> {
        let map = self.expect_object(value, pointer)?;
        if let Some(reference) = map.get("$ref") {
            return self.ref_object(reference, pointer);
        }
        let mut out = Map::new();
        out.insert("description".into(), "".into());
        let mut schema = None;
        let mut examples = None;
        for (key, value) in map {
            match key.as_str() {
                "description" if value.is_string() => {
                    out.insert(key, value);
                }
                "description" => {
                    let message = format!(
                        "description must be a string, found {}; replaced by \"\"",
                        kind(&value)
                    );
                    self.warn(&push_token(pointer, "description"), message);
                }
                "schema" => schema = Some(value),
                "examples" => examples = Some(value),
                "headers" => {
                    let headers = self.headers(value, &push_token(pointer, "headers"));
                    insert_non_empty(&mut out, "headers", headers);
                }
                _ => {
                    out.insert(key, value);
                }
            }
        }
        let examples_pointer = push_token(pointer, "examples");
        let Some(schema) = schema else {
            if examples.is_some() {
                self.warn(
                    &examples_pointer,
                    "examples dropped: the response has no schema",
                );
            }
            if !schemaless.is_empty() {
                let content = schemaless
                    .iter()
                    .map(|media| (media.clone(), Value::Object(Map::new())))
                    .collect();
                out.insert("content".into(), Value::Object(content));
            }
            return Some(Value::Object(out));
        };
        let schema = self.schema(schema, &push_token(pointer, "schema"));
        let examples = self.media_examples(examples, &examples_pointer, produces, "produces");
        let content = media_content(&schema, produces, &examples);
        out.insert("content".into(), Value::Object(content));
        Some(Value::Object(out))
    }

    /// A response's `headers` map.
    pub(super) fn headers(&mut self, value: Value, pointer: &str) -> Map<String, Value> {
        let Some(map) = self.expect_object(value, pointer) else {
            return Map::new();
        };
        let mut out = Map::new();
        for (name, header) in map {
            let header_pointer = push_token(pointer, &name);
            if let Some(converted) = self.header(header, &header_pointer) {
                out.insert(name, converted);
            }
        }
        out
    }

    /// One response header: type keywords move into `schema`.
    pub(super) fn header(&mut self, value: Value, pointer: &str) -> Option<Value> {
        let map = self.expect_object(value, pointer)?;
        if let Some(reference) = map.get("$ref") {
            return self.ref_object(reference, pointer);
        }
        let parts = split_simple(map);
        let mut out = parts.other;
        let schema = self.parameter_schema(parts.schema, parts.given_schema, pointer);
        if is_array_schema(&schema) {
            // Headers are always style simple, explode false in 3.0; this
            // only reports formats that cannot be kept.
            self.collection_style(parts.collection_format.as_ref(), "header", pointer);
        }
        out.insert("schema".into(), schema);
        if let Some(example) = parts.example {
            out.insert("example".into(), example);
        }
        out.extend(parts.extensions);
        Some(Value::Object(out))
    }

    /// `examples`/`x-examples` keyed by media type, restricted to `media`.
    pub(super) fn media_examples(
        &mut self,
        examples: Option<Value>,
        pointer: &str,
        media: &[String],
        list_name: &str,
    ) -> Map<String, Value> {
        let Some(examples) = examples else {
            return Map::new();
        };
        let Some(map) = self.expect_object(examples, pointer) else {
            return Map::new();
        };
        let mut out = Map::new();
        for (media_type, example) in map {
            if media.contains(&media_type) {
                out.insert(media_type, example);
            } else {
                let message = format!(
                    "example for media type `{media_type}` dropped: it is not listed in {list_name}"
                );
                self.warn(&push_token(pointer, &media_type), message);
            }
        }
        out
    }
}
