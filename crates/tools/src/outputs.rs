//! The output side of a tool: the `outputSchema` advertised for JSON
//! success responses, and how the response body becomes
//! `structuredContent` (MCP requires an object, so arrays and scalars are
//! wrapped as `{"result": …}` and the schema says so).

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::OutputSchemaMode;
use super::SELF_TOOL;
use super::bundle::SchemaBundler;
use super::lro::LongRunning;
use openapi2mcp_document::model::{Operation, Schema};
use openapi2mcp_model::binding::OutputShape;
use openapi2mcp_model::schemas::tool_schema_uri;
use openapi2mcp_model::wire::media::Sequence;
use openapi2mcp_model::wire::media::is_json;

/// The property that holds a non-object JSON response.
pub const WRAP_KEY: &str = "result";

/// An advertised output schema and the matching shape.
pub struct Output {
    /// The `outputSchema` (always `"type": "object"` at the top), within
    /// the schema budget; shared by the tools with the same result.
    pub schema: Arc<Map<String, Value>>,
    /// The full schema's top level when `schema` is a summary of it.
    pub full: Option<Value>,
    /// How the runtime turns the body into structured content.
    pub shape: OutputShape,
}

/// The output schema of `op`, if its success response is JSON with a
/// schema; for a long-running operation (`long_running`), the schema of
/// its final result (see [`super::lro`]).
pub fn build(
    op: &Operation<'_>,
    mode: OutputSchemaMode,
    bundler: &mut SchemaBundler<'_>,
    budget: usize,
    long_running: Option<&LongRunning>,
) -> Option<Output> {
    if mode == OutputSchemaMode::Off {
        return None;
    }
    let (schema, items) = match success_schema(op, long_running) {
        Success::Schema(schema) => (schema, false),
        Success::Items(schema) => (schema, true),
        Success::Undescribed => {
            return Some(Output {
                schema: Arc::new(Map::from_iter([("type".to_string(), json!("object"))])),
                full: None,
                shape: OutputShape::Object,
            });
        }
        Success::None => return None,
    };
    let object = !items && schema.is_object();
    let shape = if object {
        OutputShape::Object
    } else {
        OutputShape::Wrapped {
            key: WRAP_KEY.to_string(),
        }
    };
    let inner = match mode {
        OutputSchemaMode::Loose => json!({}),
        _ => {
            let mut deps = BTreeSet::new();
            let direction = bundler.output_direction();
            let mut converted = bundler.convert(&schema, direction, &mut deps);
            if items {
                converted = json!({"type": "array", "items": converted});
            }
            let fitted = bundler.fit_output(
                finish(converted, object),
                &deps,
                budget,
                &tool_schema_uri(SELF_TOOL, true),
            );
            return Some(Output {
                schema: fitted.listed,
                full: fitted.full,
                shape,
            });
        }
    };
    Some(Output {
        schema: Arc::new(finish(inner, object)),
        full: None,
        shape,
    })
}

/// Puts the converted schema in its final form: an object at the top (the
/// `$defs` are added by the budget). MCP wants `"type": "object"` there,
/// and structured content is always an object, so a `null` the output
/// conversion admits below does not reach the top.
fn finish(converted: Value, object: bool) -> Map<String, Value> {
    if object {
        match converted {
            Value::Object(mut m) => {
                let typed = matches!(m.get("type"), Some(Value::String(_)));
                if !typed {
                    m.insert("type".into(), json!("object"));
                }
                // A `$ref` at the top: keep it inside allOf so `type` applies too.
                if m.contains_key("$ref") && m.len() > 1 {
                    let r = m.remove("$ref").unwrap_or_default();
                    m.insert("allOf".into(), json!([{"$ref": r}]));
                }
                m
            }
            _ => Map::from_iter([("type".to_string(), json!("object"))]),
        }
    } else {
        Map::from_iter([
            ("type".to_string(), json!("object")),
            // Not required: a 204 or an empty body is `{}`.
            ("properties".to_string(), json!({ WRAP_KEY: converted })),
        ])
    }
}

/// What a tool's successful result looks like.
enum Success<'d> {
    /// This schema.
    Schema(Schema<'d>),
    /// A stream of items of this schema (OpenAPI 3.2 `itemSchema` of a
    /// sequential media type): the result is the array of them.
    Items(Schema<'d>),
    /// An object the document does not describe (a long-running
    /// operation's final result, when only its 202 is documented).
    Undescribed,
    /// Nothing JSON is documented.
    None,
}

/// The JSON schema of the first 2xx response (lowest code), else `2XX`.
/// When the document announces a status resource for a long-running
/// operation, its 202 is the start, not the result: the first other 2xx is
/// taken instead, and with none the result is undescribed
/// ([`Success::Undescribed`]); a bare 202 (GitHub's "being created",
/// "marked in the background") stays a result like any 2xx (see
/// [`super::lro`]).
fn success_schema<'d>(op: &Operation<'d>, long_running: Option<&LongRunning>) -> Success<'d> {
    let codes = op.response_codes();
    let mut success: Vec<&str> = codes
        .iter()
        .copied()
        .filter(|c| c.len() == 3 && c.starts_with('2') && c.bytes().all(|b| b.is_ascii_digit()))
        .collect();
    success.sort();
    if long_running.is_some_and(|lro| lro.announces_status) {
        success.retain(|c| *c != "202");
        if success.is_empty() {
            return Success::Undescribed;
        }
    }
    let code = success.first().copied().or_else(|| {
        codes
            .iter()
            .copied()
            .find(|c| c.eq_ignore_ascii_case("2XX"))
    });
    let Some(response) = code.and_then(|code| op.response(code)) else {
        return Success::None;
    };
    // The first JSON media type with a schema, or stream (read into an
    // array of its items by the runtime) with its array `schema` or its
    // `itemSchema`.
    for media in response.media_types() {
        let stream = Sequence::of(media.name).is_some();
        if !stream && !json_or_any(media.name) {
            continue;
        }
        if let Some(schema) = media.schema() {
            return Success::Schema(schema);
        }
        if let Some(item) = media.item_schema().filter(|_| stream) {
            return Success::Items(item);
        }
        if !stream {
            break;
        }
    }
    Success::None
}

/// A JSON media type, or `*/*` (which may well be JSON).
fn json_or_any(media_type: &str) -> bool {
    media_type.trim() == "*/*" || is_json(media_type)
}

#[cfg(test)]
#[path = "outputs_tests.rs"]
mod tests;
