//! Unit tests of `outputs.rs`.

use serde_json::{Value, json};

use crate::{BuildOptions, OutputSchemaMode, build};
use openapi2mcp_document::Document;

/// Jupyter Server's `Contents`, which it answers with `null` in fields
/// typed `string` (Swagger 2.0 cannot say `nullable`).
fn jupyter() -> Document {
    Document::from_value(
        "jupyter.yaml",
        json!({"swagger": "2.0", "info": {"title": "j", "version": "1"}, "paths": {
            "/contents/{path}": {"get": {"operationId": "get_contents",
                "parameters": [{"name": "path", "in": "path", "required": true, "type": "string"}],
                "responses": {"200": {"description": "ok", "schema": {"$ref": "#/definitions/Contents"}}}}},
            "/checkpoints": {"get": {"operationId": "list_checkpoints",
                "responses": {"200": {"description": "ok", "schema": {"type": "array", "items": {"type": "object",
                    "properties": {"id": {"type": "string"}}}}}}}}},
            "definitions": {"Contents": {"type": "object", "required": ["name", "content"], "properties": {
                "name": {"type": "string"}, "content": {"type": "string"},
                "created": {"type": "string", "format": "dateTime"}, "size": {"type": "integer"}}}}}),
    )
    .unwrap()
}

/// The output schema of the tool made from operation `tool`.
fn output_schema(doc: &Document, mode: OutputSchemaMode, tool: &str) -> Value {
    let options = BuildOptions {
        output_schemas: mode,
        ..BuildOptions::default()
    };
    let (catalog, _) = build(doc, &options);
    let tool = catalog
        .tools
        .iter()
        .find(|t| t.origin.operation_id.as_deref() == Some(tool))
        .unwrap();
    tool.output_schema
        .clone()
        .map(|o| serde_json::Value::Object((*o).clone()))
        .unwrap()
}

fn accepts(schema: &Value, instance: &Value) -> bool {
    jsonschema::draft202012::new(schema)
        .unwrap()
        .is_valid(instance)
}

#[test]
fn default_output_schemas_admit_nulls_through_their_defs() {
    let doc = jupyter();
    let schema = output_schema(&doc, OutputSchemaMode::Full, "get_contents");
    assert_eq!(schema["type"], "object", "MCP wants an object at the top");
    assert_eq!(
        schema["$defs"]["Contents"]["properties"]["content"]["type"],
        json!(["string", "null"])
    );
    let answer =
        json!({"name": "a", "content": null, "created": "not a date", "size": null, "extra": 1});
    assert!(accepts(&schema, &answer));
    // Strict: the document's types, so the same answer is refused.
    let strict = output_schema(&doc, OutputSchemaMode::Strict, "get_contents");
    assert_eq!(
        strict["$defs"]["Contents"]["properties"]["content"]["type"],
        "string"
    );
    assert!(!accepts(&strict, &answer));
    assert!(accepts(&strict, &json!({"name": "a", "content": "x"})));
}

#[test]
fn wrapped_results_admit_null_items_and_a_null_result() {
    let doc = jupyter();
    let schema = output_schema(&doc, OutputSchemaMode::Full, "list_checkpoints");
    assert_eq!(schema["type"], "object");
    assert!(accepts(&schema, &json!({"result": [{"id": null}, null]})));
    assert!(accepts(&schema, &json!({"result": null})));
    assert!(!accepts(&schema, &json!({"result": [{"id": 1}]})));
}

#[test]
fn a_top_level_that_allows_null_is_still_an_object() {
    let doc = Document::from_value(
        "t.yaml",
        json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {
            "/a": {"get": {"operationId": "get_a", "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"type": "object", "nullable": true, "properties": {"n": {"type": "integer"}}}}}}}}},
            "/b": {"get": {"operationId": "get_b", "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"type": "object", "properties": {"n": {"type": "integer"}}}}}}}}}}}),
    )
    .unwrap();
    for mode in [OutputSchemaMode::Full, OutputSchemaMode::Strict] {
        for tool in ["get_a", "get_b"] {
            let schema = output_schema(&doc, mode, tool);
            assert_eq!(schema["type"], "object", "{mode:?} {tool}: {schema}");
        }
    }
    let full = output_schema(&doc, OutputSchemaMode::Full, "get_b");
    assert_eq!(full["properties"]["n"]["type"], json!(["integer", "null"]));
}
