//! The tool model, rule by rule, on small inline documents.

use openapi2mcp::document::Document;
use openapi2mcp::tools::{
    self, BuildOptions, Catalog, OutputSchemaMode, Selection, ToolDef, select::PathGlobs,
};
use serde_json::{Value, json};

use crate::support::assert_valid_tools;

fn catalog_with(
    doc: Value,
    options: &BuildOptions,
) -> (Catalog, Vec<openapi2mcp::document::Diagnostic>) {
    let doc = Document::from_value("test.yaml", doc).expect("document loads");
    let (catalog, diags) = tools::build(&doc, options);
    assert_valid_tools(&catalog, "inline");
    (catalog, diags)
}

fn catalog(doc: Value) -> Catalog {
    catalog_with(doc, &BuildOptions::default()).0
}

fn tool<'a>(c: &'a Catalog, name: &str) -> &'a ToolDef {
    c.tools.iter().find(|t| t.name == name).unwrap_or_else(|| {
        panic!(
            "no tool {name}; have {:?}",
            c.tools.iter().map(|t| &t.name).collect::<Vec<_>>()
        )
    })
}

fn api(paths: Value) -> Value {
    json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": paths})
}

#[test]
fn ref_parameters_are_kept_and_path_item_parameters_merged() {
    let mut doc = api(json!({"/pets/{petId}": {
        "parameters": [{"$ref": "#/components/parameters/PetId"}, {"name": "trace", "in": "header", "schema": {"type": "string"}}],
        "get": {"operationId": "getPet", "parameters": [
            {"name": "trace", "in": "header", "required": true, "schema": {"type": "integer"}},
            {"$ref": "#/components/parameters/Limit"}],
            "responses": {"200": {"description": "ok"}}}}}));
    doc["components"] = json!({"parameters": {
        "PetId": {"name": "petId", "in": "path", "required": true, "description": "The pet", "schema": {"type": "integer", "format": "int64"}},
        "Limit": {"$ref": "#/components/parameters/Limit2"},
        "Limit2": {"name": "limit", "in": "query", "schema": {"type": "integer", "default": 20, "maximum": 100}}}});
    let c = catalog(doc);
    let t = tool(&c, "get_pet");
    assert_eq!(
        t.input_schema["properties"],
        json!({
            "petId": {"type": "integer", "format": "int64", "description": "The pet"},
            // An integer header parameter: mirrored into Mcp-Param-trace.
            "trace": {"type": "integer", "x-mcp-header": "trace"},
            "limit": {"type": "integer", "default": 20, "maximum": 100}
        })
    );
    assert_eq!(t.input_schema["required"], json!(["petId", "trace"]));
    assert_eq!(t.input_schema["additionalProperties"], json!(false));
}

#[test]
fn colliding_names_stay_reachable_under_distinct_names() {
    let c = catalog(api(json!({"/items/{id}": {"put": {
        "parameters": [
            {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
            {"name": "id", "in": "query", "schema": {"type": "string"}},
            {"name": "id", "in": "header", "schema": {"type": "string"}}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {
            "type": "object", "required": ["id", "name"],
            "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}}}},
        "responses": {"204": {"description": "done"}}}}})));
    let t = tool(&c, "replace_item");
    let props: Vec<&String> = t.input_schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(props, ["id", "query_id", "header_id", "body_id", "name"]);
    let wire: Vec<(&str, &str)> = t
        .http
        .params
        .iter()
        .map(|p| (p.arg.as_str(), p.name.as_str()))
        .collect();
    assert_eq!(
        wire,
        [("id", "id"), ("query_id", "id"), ("header_id", "id")]
    );
    let body = t.http.body.as_ref().unwrap();
    assert_eq!(
        serde_json::to_value(&body.shape).unwrap(),
        json!({"kind": "properties", "props": [{"arg": "body_id", "name": "id"}, {"arg": "name", "name": "name"}]})
    );
    assert_eq!(t.input_schema["required"], json!(["id", "body_id", "name"]));
}

#[test]
fn nullable_and_exclusive_bounds_become_2020_12() {
    let c = catalog(api(json!({"/x": {"get": {"parameters": [
        {"name": "n", "in": "query", "schema": {"type": "integer", "nullable": true, "minimum": 0, "exclusiveMinimum": true}},
        {"name": "e", "in": "query", "schema": {"type": "string", "enum": ["a"], "nullable": true, "example": "a"}}],
        "responses": {"200": {"description": "ok"}}}}})));
    let p = &c.tools[0].input_schema["properties"];
    assert_eq!(
        p["n"],
        json!({"type": ["integer", "null"], "exclusiveMinimum": 0})
    );
    assert_eq!(
        p["e"],
        json!({"type": ["string", "null"], "enum": ["a", null], "examples": ["a"]})
    );
}

#[test]
fn circular_schemas_are_bundled_into_defs() {
    let mut doc = api(json!({"/nodes": {"post": {
        "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}},
        "responses": {"201": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}}}}}));
    doc["components"] = json!({"schemas": {"Node": {"type": "object", "properties": {
        "id": {"type": "string", "readOnly": true},
        "value": {"type": "string"},
        "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}}}});
    let c = catalog(doc);
    let t = tool(&c, "create_node");
    assert_eq!(
        t.input_schema["properties"]["children"],
        json!({"type": "array", "items": {"$ref": "#/$defs/Node"}})
    );
    assert!(
        t.input_schema["properties"].get("id").is_none(),
        "readOnly id must not be an input"
    );
    assert!(
        t.input_schema["$defs"]["Node"]["properties"]
            .get("id")
            .is_none()
    );
    let out = t.output_schema.as_ref().unwrap();
    assert_eq!(out["allOf"], json!([{"$ref": "#/$defs/Node"}]));
    assert!(
        out["$defs"]["Node"]["properties"].get("id").is_some(),
        "readOnly id is part of the output"
    );
}

#[test]
fn circular_parameter_refs_are_a_diagnostic_not_a_crash() {
    let mut doc = api(json!({
        "/a": {"get": {"parameters": [{"$ref": "#/components/parameters/A"}], "responses": {"200": {"description": "ok"}}}},
        "/b": {"get": {"responses": {"200": {"description": "ok"}}}}}));
    doc["components"] = json!({"parameters": {"A": {"$ref": "#/components/parameters/B"}, "B": {"$ref": "#/components/parameters/A"}}});
    let (c, diags) = catalog_with(doc, &BuildOptions::default());
    assert_eq!(
        c.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["get_b"]
    );
    assert!(
        diags
            .iter()
            .any(|d| d.message.contains("circular $ref") && d.message.contains("parameters/A")),
        "{diags:?}"
    );
}

#[test]
fn non_object_bodies_go_under_body_and_outputs_are_wrapped() {
    let c = catalog(api(json!({"/tags": {"post": {
        "requestBody": {"required": true, "description": "Tags to add", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "string"}}}}},
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "string"}}}}}}}}})));
    let t = &c.tools[0];
    assert_eq!(t.input_schema["required"], json!(["body"]));
    assert_eq!(t.input_schema["properties"]["body"]["type"], "array");
    assert!(
        t.input_schema["properties"]["body"]["description"]
            .as_str()
            .unwrap()
            .starts_with("Tags to add")
    );
    assert_eq!(
        &Value::Object((**t.output_schema.as_ref().unwrap()).clone()),
        // `result` is not required: a 204 or empty body is `{}`.
        // Like every typed output schema, it admits `null`.
        &json!({"type": "object", "properties": {"result": {"type": ["array", "null"], "items": {"type": ["string", "null"]}}}})
    );
    assert_eq!(
        serde_json::to_value(&t.http.output).unwrap(),
        json!({"kind": "wrapped", "key": "result"})
    );
}

#[test]
fn a_json_body_is_sent_as_plain_json_when_the_document_offers_it() {
    // As ASP.NET documents list a body (Swashbuckle's order, or sorted):
    // a media range and JSON Patch before plain JSON. The arguments are
    // the object's properties, sent as `application/json`.
    let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    let content = |types: &[&str]| -> Value {
        types
            .iter()
            .map(|t| (t.to_string(), json!({"schema": schema})))
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let c = catalog(api(json!({
        "/a": {"post": {"operationId": "ranged", "requestBody": {"content": content(&[
            "application/*+json", "application/json", "application/json-patch+json", "text/json"])},
            "responses": {"204": {"description": "done"}}}},
        "/b": {"post": {"operationId": "patched", "requestBody": {"content": content(&[
            "application/json-patch+json", "application/json", "text/json", "application/*+json"])},
            "responses": {"204": {"description": "done"}}}},
        "/c": {"post": {"operationId": "only_a_range", "requestBody": {"content": content(&[
            "application/*+json"])}, "responses": {"204": {"description": "done"}}}}
    })));
    for (name, media_type) in [
        ("create_ranged", "application/json"),
        ("create_patched", "application/json"),
        ("create_only_range", "application/*+json"),
    ] {
        let body = tool(&c, name).http.body.as_ref().expect("a body");
        assert_eq!(body.media_type, media_type, "{name}");
        assert!(
            tool(&c, name).input_schema["properties"]
                .get("name")
                .is_some(),
            "{name}"
        );
    }
}

#[test]
fn multipart_files_and_binary_bodies_are_base64_arguments() {
    let c = catalog(api(json!({
        "/upload": {"post": {"requestBody": {"content": {"multipart/form-data": {
            "schema": {"type": "object", "required": ["file"], "properties": {
                "file": {"type": "string", "format": "binary"}, "note": {"type": "string"}}},
            "encoding": {"file": {"contentType": "image/png"}}}}},
            "responses": {"204": {"description": "ok"}}}},
        "/raw": {"put": {"requestBody": {"required": true, "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}},
            "responses": {"204": {"description": "ok"}}}}})));
    let up = tool(&c, "create_upload");
    assert_eq!(
        up.input_schema["properties"]["file"]["contentEncoding"],
        "base64"
    );
    let body = serde_json::to_value(&up.http.body).unwrap();
    assert_eq!(body["media_type"], "multipart/form-data");
    assert_eq!(
        body["shape"]["props"][0],
        json!({"arg": "file", "name": "file", "binary": true, "content_type": "image/png"})
    );
    let raw = tool(&c, "replace_raw");
    assert_eq!(
        serde_json::to_value(&raw.http.body.as_ref().unwrap().shape).unwrap(),
        json!({"kind": "whole", "arg": "body", "binary": true})
    );
    assert_eq!(raw.input_schema["required"], json!(["body"]));
}

#[test]
fn undeclared_path_slots_are_still_required_arguments() {
    let (c, diags) = catalog_with(
        api(json!({"/users/{userId}/files/{name}": {"get": {
        "parameters": [{"name": "userId", "in": "path", "required": true, "schema": {"type": "integer"}},
                       {"name": "ghost", "in": "path", "required": true, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "ok"}}}}})),
        &BuildOptions::default(),
    );
    let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`{name}`") && m.contains("not declared")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`ghost` has no `{ghost}` slot")),
        "{messages:?}"
    );
    let t = &c.tools[0];
    assert_eq!(t.name, "get_user_file");
    assert_eq!(t.input_schema["required"], json!(["userId", "name"]));
    assert_eq!(t.input_schema["properties"]["name"]["type"], "string");
}

#[test]
fn descriptions_are_synthesized_when_missing() {
    let c = catalog(api(json!({"/pets/{id}": {"delete": {
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
        "responses": {"204": {"description": "gone"}}}}})));
    assert_eq!(
        c.tools[0].description,
        "Calls DELETE /pets/{id} with id (path)."
    );
    assert_eq!(c.tools[0].title, "Delete pet");
}

#[test]
fn x_mcp_overrides_and_excludes() {
    let c = catalog(api(json!({
        "/a": {"get": {"x-mcp": false, "responses": {"200": {"description": "ok"}}},
               "post": {"x-mcp": {"name": "Launch Rocket!", "description": "Launches.", "annotations": {"destructiveHint": true}},
                        "responses": {"200": {"description": "ok"}}}},
        "/launch_rocket": {"get": {"responses": {"200": {"description": "ok"}}}},
        "/b": {"get": {"operationId": "launchRocket", "x-mcp": {"exclude": true}, "responses": {"200": {"description": "ok"}}}}})));
    let names: Vec<&str> = c.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["launch_rocket", "get_launch_rocket"]);
    let t = tool(&c, "launch_rocket");
    assert_eq!(t.description, "Launches.");
    assert!(t.annotations.destructive_hint);
}

#[test]
fn duplicate_names_are_deduplicated_stably() {
    let doc = api(json!({
        "/a": {"get": {"operationId": "getThing", "responses": {"200": {"description": "ok"}}}},
        "/b": {"get": {"operationId": "get-thing", "responses": {"200": {"description": "ok"}}}},
        "/c": {"get": {"operationId": "GetThing", "responses": {"200": {"description": "ok"}}}}}));
    let first: Vec<String> = catalog(doc.clone())
        .tools
        .into_iter()
        .map(|t| t.name)
        .collect();
    // Told apart by the path segment only each has (no `_2`, `_3`).
    assert_eq!(first, ["get_thing", "get_b_thing", "get_c_thing"]);
    let again: Vec<String> = catalog(doc).tools.into_iter().map(|t| t.name).collect();
    assert_eq!(first, again);
}

#[test]
fn selection_filters_without_renaming() {
    let doc = api(json!({
        "/pets": {"get": {"tags": ["pets"], "operationId": "listPets", "responses": {"200": {"description": "ok"}}},
                  "post": {"tags": ["pets"], "responses": {"200": {"description": "ok"}}}},
        "/admin/users/{id}": {"delete": {"tags": ["admin"], "parameters": [{"name": "id", "in": "path", "required": true}], "responses": {"204": {"description": "ok"}}}}}));
    let names = |sel: Selection| -> Vec<String> {
        let opts = BuildOptions {
            selection: sel,
            ..BuildOptions::default()
        };
        catalog_with(doc.clone(), &opts)
            .0
            .tools
            .into_iter()
            .map(|t| t.name)
            .collect()
    };
    assert_eq!(
        names(Selection {
            read_only: true,
            ..Selection::default()
        }),
        ["list_pets"]
    );
    assert_eq!(
        names(Selection {
            include_tags: vec!["admin".into()],
            ..Selection::default()
        }),
        ["delete_admin_user"]
    );
    assert_eq!(
        names(Selection {
            exclude_tags: vec!["admin".into()],
            methods: vec!["post".into()],
            ..Selection::default()
        }),
        ["create_pet"]
    );
    assert_eq!(
        names(Selection {
            include_operations: vec!["listPets".into(), "create_pet".into()],
            ..Selection::default()
        }),
        ["list_pets", "create_pet"]
    );
    assert_eq!(
        names(Selection {
            exclude_paths: PathGlobs::new(&["/admin/**".into()]).unwrap(),
            ..Selection::default()
        }),
        ["list_pets", "create_pet"]
    );
    assert_eq!(
        names(Selection {
            include_paths: PathGlobs::new(&["/*".into()]).unwrap(),
            ..Selection::default()
        }),
        ["list_pets", "create_pet"]
    );
    assert!(PathGlobs::new(&["/a/[".into()]).is_err());
}

#[test]
fn servers_security_and_origin_are_carried() {
    let mut doc = api(
        json!({"/me": {"get": {"operationId": "getMe", "tags": ["users"],
        "servers": [{"url": "https://{region}.example.com/v1", "variables": {"region": {"default": "eu", "enum": ["eu", "us"]}}}],
        "security": [{"oauth": ["read"]}, {"key": []}],
        "responses": {"200": {"description": "ok"}}}}}),
    );
    doc["servers"] = json!([{"url": "https://api.example.com"}]);
    doc["components"] = json!({"securitySchemes": {
        "oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://auth.example.com/token", "scopes": {"read": "r"}}}},
        "key": {"type": "apiKey", "name": "X-Key", "in": "header"},
        "basic": {"type": "http", "scheme": "Basic"}}});
    let c = catalog(doc);
    let t = &c.tools[0];
    assert_eq!(
        serde_json::to_value(&t.http.servers).unwrap(),
        json!([{"url": "https://{region}.example.com/v1", "variables": [{"name": "region", "default": "eu", "enum": ["eu", "us"]}]}])
    );
    assert_eq!(
        serde_json::to_value(&t.http.security).unwrap(),
        json!([{"schemes": [{"name": "oauth", "scopes": ["read"]}]}, {"schemes": [{"name": "key"}]}])
    );
    assert_eq!(
        serde_json::to_value(&c.security_schemes).unwrap(),
        json!({
            "basic": {"type": "http", "scheme": "basic"},
            "key": {"type": "apiKey", "name": "X-Key", "in": "header"},
            "oauth": {"type": "oauth2", "client_credentials_token_url": "https://auth.example.com/token", "flows": ["clientCredentials"]}
        })
    );
    let mcp = t.to_mcp_json();
    assert_eq!(
        mcp["_meta"]["openapi2mcp/origin"],
        json!({"operationId": "getMe", "method": "GET", "path": "/me", "tags": ["users"]})
    );
    assert_eq!(
        mcp["annotations"],
        json!({"title": "Get me", "readOnlyHint": true})
    );
}

#[test]
fn output_schema_modes() {
    let doc = api(
        json!({"/p": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"a": {"type": "string"}}}}}}}}}}),
    );
    let out = |mode| {
        let opts = BuildOptions {
            output_schemas: mode,
            ..BuildOptions::default()
        };
        catalog_with(doc.clone(), &opts).0.tools[0]
            .output_schema
            .clone()
            .map(|o| Value::Object((*o).clone()))
    };
    assert_eq!(
        out(OutputSchemaMode::Full),
        Some(json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}}))
    );
    assert_eq!(
        out(OutputSchemaMode::Strict),
        Some(json!({"type": "object", "properties": {"a": {"type": "string"}}}))
    );
    assert_eq!(
        out(OutputSchemaMode::Loose),
        Some(json!({"type": "object"}))
    );
    assert_eq!(out(OutputSchemaMode::Off), None);
}

#[test]
fn ignored_headers_and_parameter_styles() {
    let c = catalog(api(json!({"/s/{ids}": {"get": {"parameters": [
        {"name": "ids", "in": "path", "required": true, "style": "label", "explode": true, "schema": {"type": "array", "items": {"type": "integer"}}},
        {"name": "filter", "in": "query", "style": "deepObject", "schema": {"type": "object", "additionalProperties": {"type": "string"}}},
        {"name": "tags", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}},
        {"name": "pipes", "in": "query", "style": "pipeDelimited", "explode": false, "schema": {"type": "array", "items": {"type": "string"}}},
        {"name": "Accept", "in": "header", "schema": {"type": "string"}},
        {"name": "session", "in": "cookie", "schema": {"type": "string"}},
        {"name": "coords", "in": "query", "content": {"application/json": {"schema": {"type": "object"}}}}],
        "responses": {"200": {"description": "ok"}}}}})));
    let b = serde_json::to_value(&c.tools[0].http.params).unwrap();
    assert_eq!(
        b,
        json!([
            {"arg": "ids", "name": "ids", "in": "path", "style": "label", "explode": true, "required": true},
            {"arg": "filter", "name": "filter", "in": "query", "style": "deepObject", "explode": false, "required": false},
            {"arg": "tags", "name": "tags", "in": "query", "style": "form", "explode": true, "required": false},
            {"arg": "pipes", "name": "pipes", "in": "query", "style": "pipeDelimited", "explode": false, "required": false},
            {"arg": "session", "name": "session", "in": "cookie", "style": "form", "explode": true, "required": false},
            {"arg": "coords", "name": "coords", "in": "query", "style": "form", "explode": true, "required": false, "content_type": "application/json"}
        ])
    );
}
