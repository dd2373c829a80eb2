use super::*;
use crate::diag::Severity;

fn run(doc: Value) -> (Value, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let out = upgrade(doc, "api.json", &mut diags);
    (out, diags)
}

fn pointers(diags: &[Diagnostic]) -> Vec<&str> {
    diags.iter().map(|d| d.pointer.as_str()).collect()
}

/// A minimal document with one operation at `/p` `post`.
fn with_op(op: Value) -> Value {
    json!({
        "swagger": "2.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/p": {"post": op}}
    })
}

fn op_of(out: &Value) -> &Value {
    &out["paths"]["/p"]["post"]
}

#[test]
fn petstore_like_document() {
    let doc = json!({
        "swagger": "2.0",
        "info": {"title": "Petstore", "version": "1.0"},
        "host": "petstore.example.com",
        "basePath": "/v1",
        "schemes": ["https", "http"],
        "consumes": ["application/json"],
        "produces": ["application/json"],
        "tags": [{"name": "pets"}],
        "externalDocs": {"url": "https://docs.example.com"},
        "x-logo": {"url": "logo.png"},
        "security": [{"key": []}],
        "paths": {
            "/pets/{id}": {
                "get": {
                    "operationId": "getPet",
                    "tags": ["pets"],
                    "summary": "Get a pet",
                    "deprecated": true,
                    "x-internal": false,
                    "parameters": [
                        {"name": "id", "in": "path", "required": true,
                         "type": "integer", "format": "int64"}
                    ],
                    "responses": {
                        "200": {"description": "ok", "schema": {"$ref": "#/definitions/Pet"}},
                        "default": {"$ref": "#/responses/Error"}
                    }
                }
            }
        },
        "definitions": {
            "Pet": {"type": "object", "required": ["id"],
                    "properties": {"id": {"type": "integer"}}}
        },
        "responses": {"Error": {"description": "error"}},
        "securityDefinitions": {"key": {"type": "apiKey", "name": "k", "in": "header"}}
    });
    let (out, diags) = run(doc);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        out,
        json!({
            "openapi": "3.0.3",
            "info": {"title": "Petstore", "version": "1.0"},
            "servers": [
                {"url": "https://petstore.example.com/v1"},
                {"url": "http://petstore.example.com/v1"}
            ],
            "tags": [{"name": "pets"}],
            "externalDocs": {"url": "https://docs.example.com"},
            "x-logo": {"url": "logo.png"},
            "security": [{"key": []}],
            "paths": {
                "/pets/{id}": {
                    "get": {
                        "operationId": "getPet",
                        "tags": ["pets"],
                        "summary": "Get a pet",
                        "deprecated": true,
                        "x-internal": false,
                        "parameters": [
                            {"name": "id", "in": "path", "required": true,
                             "schema": {"type": "integer", "format": "int64"}}
                        ],
                        "responses": {
                            "200": {"description": "ok", "content": {
                                "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}
                            }},
                            "default": {"$ref": "#/components/responses/Error"}
                        }
                    }
                }
            },
            "components": {
                "schemas": {
                    "Pet": {"type": "object", "required": ["id"],
                            "properties": {"id": {"type": "integer"}}}
                },
                "responses": {"Error": {"description": "error"}},
                "securitySchemes": {"key": {"type": "apiKey", "name": "k", "in": "header"}}
            }
        })
    );
    assert_eq!(out.get("swagger"), None);
}

#[test]
fn servers_from_host_base_path_and_schemes() {
    let servers = |extra: Value| {
        let mut doc = json!({"swagger": "2.0", "info": {}, "paths": {}});
        if let (Some(doc), Value::Object(extra)) = (doc.as_object_mut(), extra) {
            doc.extend(extra);
        }
        run(doc).0.get("servers").cloned()
    };
    assert_eq!(
        servers(json!({"host": "h.io", "basePath": "/"})),
        Some(json!([{"url": "https://h.io"}]))
    );
    assert_eq!(
        servers(json!({"host": "h.io"})),
        Some(json!([{"url": "https://h.io"}]))
    );
    assert_eq!(
        servers(json!({"host": "h.io:8080", "basePath": "/api/", "schemes": ["http"]})),
        Some(json!([{"url": "http://h.io:8080/api"}]))
    );
    assert_eq!(
        servers(json!({"basePath": "/api"})),
        Some(json!([{"url": "/api"}]))
    );
    assert_eq!(
        servers(json!({"basePath": "/"})),
        Some(json!([{"url": "/"}]))
    );
    assert_eq!(servers(json!({})), None);
}

#[test]
fn operation_schemes_become_operation_servers() {
    let doc = json!({
        "swagger": "2.0", "host": "h.io", "basePath": "/v1", "schemes": ["https"],
        "paths": {"/a": {
            "get": {"schemes": ["http"], "responses": {}},
            "put": {"schemes": ["https"], "responses": {}}
        }}
    });
    let (out, diags) = run(doc);
    assert!(diags.is_empty());
    assert_eq!(
        out["paths"]["/a"]["get"]["servers"],
        json!([{"url": "http://h.io/v1"}])
    );
    assert_eq!(out["paths"]["/a"]["put"].get("servers"), None);
    assert_eq!(out["paths"]["/a"]["put"].get("schemes"), None);
}

#[test]
fn body_parameter_becomes_request_body() {
    let doc = with_op(json!({
        "consumes": ["application/json", "application/xml"],
        "parameters": [{
            "name": "pet", "in": "body", "required": true, "description": "The pet",
            "schema": {"$ref": "#/definitions/Pet"},
            "x-examples": {"application/json": {"name": "Rex"}}
        }],
        "responses": {"204": {"description": "done"}}
    }));
    let (out, diags) = run(doc);
    assert!(diags.is_empty());
    assert_eq!(
        op_of(&out),
        &json!({
            "requestBody": {
                "required": true,
                "description": "The pet",
                "content": {
                    "application/json": {
                        "schema": {"$ref": "#/components/schemas/Pet"},
                        "example": {"name": "Rex"}
                    },
                    "application/xml": {"schema": {"$ref": "#/components/schemas/Pet"}}
                },
                "x-codegen-request-body-name": "pet"
            },
            "responses": {"204": {"description": "done"}}
        })
    );
}

#[test]
fn body_consumes_falls_back_to_global_then_json() {
    let body = json!([{"name": "b", "in": "body", "schema": {"type": "string"}}]);
    let mut doc = with_op(json!({"parameters": body, "responses": {}}));
    doc["consumes"] = json!(["text/plain"]);
    let (out, _) = run(doc);
    assert_eq!(
        op_of(&out)["requestBody"]["content"],
        json!({"text/plain": {"schema": {"type": "string"}}})
    );
    let (out, _) = run(with_op(json!({"parameters": body, "responses": {}})));
    assert_eq!(
        op_of(&out)["requestBody"]["content"],
        json!({"application/json": {"schema": {"type": "string"}}})
    );
}

#[test]
fn body_parameter_without_schema_warns() {
    let doc = with_op(json!({
        "parameters": [{"name": "b", "in": "body"}],
        "responses": {}
    }));
    let (out, diags) = run(doc);
    assert_eq!(
        op_of(&out)["requestBody"],
        json!({"content": {"application/json": {"schema": {}}},
                   "x-codegen-request-body-name": "b"})
    );
    assert_eq!(pointers(&diags), ["/paths/~1p/post/parameters/0"]);
    assert_eq!(diags[0].severity, Severity::Warning);
    assert_eq!(diags[0].file, "api.json");
}

#[test]
fn form_data_with_file_is_multipart() {
    let doc = with_op(json!({
        "consumes": ["multipart/form-data"],
        "parameters": [
            {"name": "note", "in": "formData", "type": "string", "description": "A note"},
            {"name": "upload", "in": "formData", "type": "file", "required": true}
        ],
        "responses": {}
    }));
    let (out, diags) = run(doc);
    assert!(diags.is_empty());
    assert_eq!(
        op_of(&out)["requestBody"],
        json!({
            "required": true,
            "content": {"multipart/form-data": {"schema": {
                "type": "object",
                "properties": {
                    "note": {"description": "A note", "type": "string"},
                    "upload": {"type": "string", "format": "binary"}
                },
                "required": ["upload"]
            }}}
        })
    );
}

#[test]
fn form_data_with_file_is_multipart_even_without_consumes() {
    let doc = with_op(json!({
        "parameters": [{"name": "f", "in": "formData", "type": "file"}],
        "responses": {}
    }));
    let (out, _) = run(doc);
    assert_eq!(
        op_of(&out)["requestBody"],
        json!({"content": {"multipart/form-data": {"schema": {
            "type": "object",
            "properties": {"f": {"type": "string", "format": "binary"}}
        }}}})
    );
}

#[test]
fn form_data_without_file_is_urlencoded() {
    let doc = with_op(json!({
        "parameters": [
            {"name": "name", "in": "formData", "type": "string", "required": false},
            {"name": "tags", "in": "formData", "type": "array",
             "items": {"type": "string"}},
            {"name": "ids", "in": "formData", "type": "array",
             "items": {"type": "integer"}, "collectionFormat": "multi"}
        ],
        "responses": {}
    }));
    let (out, diags) = run(doc);
    assert!(diags.is_empty());
    assert_eq!(
        op_of(&out)["requestBody"],
        json!({"content": {"application/x-www-form-urlencoded": {
            "schema": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "ids": {"type": "array", "items": {"type": "integer"}}
                }
            },
            "encoding": {"tags": {"style": "form", "explode": false}}
        }}})
    );
}

#[test]
fn form_data_uses_form_types_listed_in_consumes() {
    let doc = with_op(json!({
        "consumes": ["application/json", "multipart/form-data"],
        "parameters": [{"name": "a", "in": "formData", "type": "string"}],
        "responses": {}
    }));
    let (out, _) = run(doc);
    assert_eq!(
        op_of(&out)["requestBody"]["content"],
        json!({"multipart/form-data": {"schema": {
            "type": "object", "properties": {"a": {"type": "string"}}
        }}})
    );
}

fn query_array(collection_format: Option<&str>, location: &str) -> (Value, Vec<Diagnostic>) {
    let mut param = json!({"name": "q", "in": location, "type": "array",
                               "items": {"type": "string"}});
    if let Some(cf) = collection_format {
        param["collectionFormat"] = json!(cf);
    }
    let (out, diags) = run(with_op(json!({"parameters": [param], "responses": {}})));
    (op_of(&out)["parameters"][0].clone(), diags)
}

#[test]
fn collection_formats() {
    let style = |cf, location| {
        let (param, diags) = query_array(cf, location);
        (
            param["style"].clone(),
            param["explode"].clone(),
            diags.len(),
        )
    };
    assert_eq!(style(None, "query"), (json!("form"), json!(false), 0));
    assert_eq!(
        style(Some("csv"), "query"),
        (json!("form"), json!(false), 0)
    );
    assert_eq!(
        style(Some("multi"), "query"),
        (json!("form"), json!(true), 0)
    );
    assert_eq!(
        style(Some("ssv"), "query"),
        (json!("spaceDelimited"), json!(false), 0)
    );
    assert_eq!(
        style(Some("pipes"), "query"),
        (json!("pipeDelimited"), json!(false), 0)
    );
    assert_eq!(style(None, "path"), (json!("simple"), json!(false), 0));
    assert_eq!(
        style(Some("csv"), "header"),
        (json!("simple"), json!(false), 0)
    );
    assert_eq!(
        style(Some("multi"), "path"),
        (json!("simple"), json!(false), 1)
    );
}

#[test]
fn collection_format_array_parameter_shape() {
    let (param, _) = query_array(Some("multi"), "query");
    assert_eq!(
        param,
        json!({"name": "q", "in": "query", "style": "form", "explode": true,
                   "schema": {"type": "array", "items": {"type": "string"}}})
    );
}

#[test]
fn tsv_warns_and_is_treated_as_csv() {
    let (param, diags) = query_array(Some("tsv"), "query");
    assert_eq!(
        (&param["style"], &param["explode"]),
        (&json!("form"), &json!(false))
    );
    assert_eq!(
        pointers(&diags),
        ["/paths/~1p/post/parameters/0/collectionFormat"]
    );
    assert!(diags[0].message.contains("tsv"));
}

#[test]
fn nested_items_collection_format_is_dropped_with_warning() {
    let doc = with_op(json!({
        "parameters": [{
            "name": "m", "in": "query", "type": "array",
            "items": {"type": "array", "collectionFormat": "pipes",
                      "items": {"type": "integer", "minimum": 1}}
        }],
        "responses": {}
    }));
    let (out, diags) = run(doc);
    assert_eq!(
        op_of(&out)["parameters"][0]["schema"],
        json!({"type": "array", "items": {"type": "array",
                   "items": {"type": "integer", "minimum": 1}}})
    );
    assert_eq!(
        pointers(&diags),
        ["/paths/~1p/post/parameters/0/items/collectionFormat"]
    );
}

#[test]
fn parameter_keywords_move_into_schema() {
    let doc = with_op(json!({
        "parameters": [{
            "name": "limit", "in": "query", "description": "max", "required": false,
            "allowEmptyValue": true, "type": "integer", "format": "int32",
            "minimum": 1, "maximum": 100, "exclusiveMaximum": true, "default": 10,
            "multipleOf": 1, "x-nullable": true, "x-example": 20, "x-extra": "kept"
        }, {
            "name": "s", "in": "header", "type": "string", "enum": ["a", "b"],
            "minLength": 1, "maxLength": 2, "pattern": "^[ab]$"
        }],
        "responses": {}
    }));
    let (out, diags) = run(doc);
    assert!(diags.is_empty());
    assert_eq!(
        op_of(&out)["parameters"],
        json!([{
            "name": "limit", "in": "query", "description": "max", "required": false,
            "allowEmptyValue": true,
            "schema": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 100,
                       "exclusiveMaximum": true, "default": 10, "multipleOf": 1,
                       "nullable": true},
            "example": 20,
            "x-extra": "kept"
        }, {
            "name": "s", "in": "header",
            "schema": {"type": "string", "enum": ["a", "b"], "minLength": 1,
                       "maxLength": 2, "pattern": "^[ab]$"}
        }])
    );
}

#[path = "more_tests.rs"]
mod more;
