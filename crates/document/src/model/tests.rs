//! Tests of the operation model.

use serde_json::{Value, json};

use crate::Document;
use crate::dialect::Direction;

use super::{RefTarget, XMcp};

fn doc(v: Value) -> Document {
    Document::from_value("t.json", v).unwrap()
}

#[test]
fn parameters_merge_with_the_operation_winning() {
    let d = doc(json!({"openapi": "3.0.3", "paths": {"/a/{id}": {
        "parameters": [
            {"name": "id", "in": "path", "required": true, "description": "shared"},
            {"name": "q", "in": "query"}],
        "get": {"operationId": "getA", "tags": ["t", 1], "deprecated": true, "parameters": [
            {"$ref": "#/components/parameters/Id"},
            {"name": "x", "in": "header", "style": "simple", "explode": true}]}}},
        "components": {"parameters": {"Id": {"name": "id", "in": "path", "required": true, "description": "own"}}}}));
    let mut diags = Vec::new();
    let ops = d.operations(&mut diags);
    assert!(diags.is_empty(), "{diags:?}");
    let op = &ops[0];
    assert_eq!((op.path, op.method), ("/a/{id}", "get"));
    assert_eq!(op.operation_id(), Some("getA"));
    assert_eq!(op.tags(), ["t"]);
    assert!(op.deprecated());
    let names: Vec<(&str, &str)> = op.params.iter().map(|p| (p.name, p.location)).collect();
    assert_eq!(names, [("q", "query"), ("id", "path"), ("x", "header")]);
    assert_eq!(op.params[1].description(), Some("own"));
    assert_eq!(op.params[1].pointer(), "/components/parameters/Id");
    assert_eq!(op.params[2].explode(), Some(true));
    assert_eq!(d.declared_operations(), 1);
    assert!(d.operation("/a/{id}", "get").is_some());
    assert!(d.operation("/a/{id}", "put").is_none());
}

#[test]
fn broken_parameters_skip_the_operation_with_a_diagnostic() {
    let d = doc(json!({"openapi": "3.0.3", "paths": {
        "/a": {"get": {"parameters": [{"$ref": "#/nope"}]}},
        "/b": {"get": {"parameters": [{"in": "query"}]}},
        "c": {}}}));
    let mut diags = Vec::new();
    assert!(d.operations(&mut diags).is_empty());
    assert_eq!(diags.len(), 3, "{diags:?}");
    assert_eq!(d.declared_operations(), 2);
}

#[test]
fn bodies_responses_and_examples_resolve_on_demand() {
    let d = doc(json!({"openapi": "3.0.3", "paths": {"/p": {"post": {
        "requestBody": {"$ref": "#/components/requestBodies/B"},
        "responses": {
            "200": {"description": "ok", "headers": {"X-Rate": {"$ref": "#/components/headers/Rate"}},
                "content": {"application/json": {"example": 1, "examples": {
                    "named": {"$ref": "#/components/examples/E"}}}}},
            "x-ext": {}}}}},
        "components": {
            "requestBodies": {"B": {"required": true, "description": "b", "content": {
                "multipart/form-data": {"schema": {"type": "object"}, "encoding": {"f": {"contentType": "image/png"}}}}}},
            "headers": {"Rate": {"schema": {"type": "integer"}, "example": 5}},
            "examples": {"E": {"value": {"a": 1}}}}}));
    let op = d.operation("/p", "post").unwrap();
    let body = op.request_body().unwrap().unwrap();
    assert!(body.required());
    assert_eq!(body.description(), Some("b"));
    let media = body.media_types();
    assert_eq!(media[0].name, "multipart/form-data");
    let f = media[0].encoding("f").unwrap();
    assert_eq!(f.content_type(), Some("image/png"));
    assert!(!f.uses_style() && f.headers().is_empty());
    assert!(media[0].encoding("g").is_none());
    assert_eq!(op.response_codes(), ["200"]);
    let ok = op.response("200").unwrap();
    assert_eq!(ok.description(), Some("ok"));
    let json = ok.media("application/json").unwrap();
    assert_eq!(
        json.examples(),
        [
            ("example".to_string(), json!(1)),
            ("named".to_string(), json!({"a": 1}))
        ]
    );
    let headers = ok.headers();
    assert_eq!(headers[0].name, "X-Rate");
    assert_eq!(headers[0].examples()[0].1, json!(5));
    assert!(headers[0].schema().is_some());
}

#[test]
fn schema_handles_answer_typed_queries_and_convert_once() {
    let d = doc(
        json!({"openapi": "3.0.3", "paths": {}, "components": {"schemas": {
        "Base": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer", "readOnly": true}}},
        "Pet": {"allOf": [{"$ref": "#/components/schemas/Base"},
            {"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "nullable": true}}}]},
        "Maybe": {"type": "object", "nullable": true, "properties": {"a": {}}},
        "File": {"type": "array", "items": {"type": "string", "format": "binary"}}}}}),
    );
    let pet = d
        .schema_at(d.root_key(), "/components/schemas/Pet")
        .unwrap();
    let shape = pet.object_shape().unwrap();
    let names: Vec<&str> = shape.props.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["id", "name"]);
    assert_eq!(shape.required, ["id", "name"]);
    assert!(shape.props[0].1.read_only());
    assert!(pet.is_object());
    let maybe = d
        .schema_at(d.root_key(), "/components/schemas/Maybe")
        .unwrap();
    assert!(maybe.object_shape().is_none() && !maybe.is_object());
    let file = d
        .schema_at(d.root_key(), "/components/schemas/File")
        .unwrap();
    assert!(file.is_binary() && !pet.is_binary());
    let mut refs = Vec::new();
    let converted = pet.convert(Direction::Input, &mut |t| match t {
        RefTarget::Found { pointer, .. } => {
            refs.push(pointer);
            "#/$defs/X".to_string()
        }
        RefTarget::Broken { reference, .. } => reference.to_string(),
    });
    assert_eq!(refs, ["/components/schemas/Base"]);
    assert_eq!(
        converted["allOf"][1]["properties"]["name"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(
        d.component_schema_pointers(),
        [
            "/components/schemas/Base",
            "/components/schemas/Pet",
            "/components/schemas/Maybe",
            "/components/schemas/File"
        ]
    );
}

#[test]
fn security_servers_info_and_x_mcp() {
    let d = doc(
        json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "servers": [{"url": "https://api.example.com/{v}", "variables": {"v": {"default": "v1", "enum": ["v1", 2]}}}],
        "security": [{"key": []}],
        "paths": {"/a": {"servers": [{"url": "https://item.example.com"}],
            "get": {"x-mcp": {"name": "n", "description": 3, "annotations": {"readOnlyHint": false}}},
            "post": {"security": [], "x-mcp": "bad"}}},
        "components": {"securitySchemes": {"key": {"type": "apiKey", "name": "k", "in": "header"},
            "odd": {"type": "nope"}}}}),
    );
    let info = d.info();
    assert_eq!(
        (info.title, info.version, info.description),
        (Some("T"), Some("1"), None)
    );
    let mut diags = Vec::new();
    let schemes = d.security_schemes(&mut diags);
    assert_eq!(schemes.len(), 1);
    assert_eq!(diags.len(), 1);
    assert_eq!(d.servers()[0].variables[0].allowed, ["v1", "2"]);
    let get = d.operation("/a", "get").unwrap();
    assert_eq!(get.servers()[0].url, "https://item.example.com");
    assert_eq!(get.security()[0].schemes[0].name, "key");
    let x = get.x_mcp().unwrap();
    assert_eq!(x.name.as_deref(), Some("n"));
    assert!(x.description.is_none() && x.description_given);
    assert_eq!(x.annotations.read_only_hint, Some(false));
    let post = d.operation("/a", "post").unwrap();
    assert!(post.security().is_empty());
    assert!(post.x_mcp().is_err());
}

#[test]
fn template_slots_come_in_order_once() {
    let d = doc(json!({"openapi": "3.0.3", "paths": {
        "/a/{x}/b/{y}.{fmt}/{x}": {"get": {}}, "/a/{": {"get": {}}}}));
    let slots = |path| d.operation(path, "get").unwrap().template_slots();
    assert_eq!(slots("/a/{x}/b/{y}.{fmt}/{x}"), ["x", "y", "fmt"]);
    assert!(slots("/a/{").is_empty());
}

#[test]
fn query_and_additional_operations_are_operations() {
    let d = doc(json!({"openapi": "3.2.0", "paths": {"/a": {
        "query": {"operationId": "q"},
        "additionalOperations": {
            "COPY": {"operationId": "c"},
            "POST": {"operationId": "refused"},
            "bad method": {"operationId": "refused2"},
            "x-ext": {}
        }
    }}}));
    let mut diags = Vec::new();
    let ops = d.operations(&mut diags);
    let seen: Vec<(&str, Option<&str>)> =
        ops.iter().map(|o| (o.method, o.operation_id())).collect();
    assert_eq!(seen, [("query", Some("q")), ("COPY", Some("c"))]);
    assert_eq!(ops[1].pointer(), "/paths/~1a/additionalOperations/COPY");
    let messages: Vec<String> = diags
        .iter()
        .map(|d| format!("{} {}", d.pointer, d.message))
        .collect();
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(
        messages[0].contains("/additionalOperations/POST") && messages[0].contains("fixed field")
    );
    assert!(messages[1].contains("not an HTTP method"));
    assert_eq!(d.declared_operations(), 2);
    assert_eq!(d.operation("/a", "copy").map(|o| o.method), Some("COPY"));
    assert_eq!(d.operation("/a", "query").map(|o| o.method), Some("query"));
    assert!(d.operation("/a", "post").is_none());
}

#[test]
fn tag_parents_refuse_unknown_parents_and_cycles() {
    let d = doc(json!({"openapi": "3.2.0", "paths": {}, "tags": [
        {"name": "a"},
        {"name": "b", "parent": "a"},
        {"name": "c", "parent": "b"},
        {"name": "d", "parent": "nope"},
        {"name": "e", "parent": "f"},
        {"name": "f", "parent": "e"}
    ]}));
    let mut diags = Vec::new();
    let parents = d.tag_parents(&mut diags);
    let pairs: Vec<(&str, &str)> = parents
        .iter()
        .map(|(c, p)| (c.as_str(), p.as_str()))
        .collect();
    assert_eq!(pairs, [("b", "a"), ("c", "b"), ("e", "f")]);
    assert_eq!(diags.len(), 2, "{diags:?}");
    assert!(diags[0].message.contains("`nope`"), "{}", diags[0].message);
    assert!(diags[1].message.contains("cycle"), "{}", diags[1].message);
    assert_eq!(diags[1].pointer, "/tags/5/parent");
}

#[test]
fn other_generators_mcp_extensions_mean_what_x_mcp_means() {
    let d = doc(json!({"openapi": "3.1.0", "paths": {"/a": {
        // Speakeasy: disabled.
        "get": {"x-speakeasy-mcp": {"disabled": true}},
        // Mintlify: not enabled.
        "put": {"x-mint": {"mcp": {"enabled": false}}},
        // x-mcp's own `enabled` form.
        "patch": {"x-mcp": {"enabled": false}},
        // Names and descriptions; x-mcp wins where both speak.
        "post": {"x-mcp": {"name": "mine"},
                 "x-speakeasy-mcp": {"name": "theirs", "title": "Create an A", "description": "Creates."}},
        "delete": {"x-mint": {"mcp": {"enabled": true, "name": "remove_a"}}},
        // Says nothing this reads: not reported.
        "head": {"x-speakeasy-mcp": {"scopes": ["read"]}, "x-mint": {"href": "/a"}}
    }, "/b": {
        // Kong (decK `file openapi2mcp`): flat keys.
        "get": {"x-kong-mcp-exclude": true},
        "post": {"x-kong-mcp-tool-name": "make_b", "x-kong-mcp-tool-description": "Makes a B.",
                 "x-kong-mcp-exclude": false},
        // DoorDash's oapi-codegen: x-mcp's `skip`.
        "delete": {"x-mcp": {"skip": true}}
    }}}));
    let x = |method| d.operation("/a", method).unwrap().x_mcp().unwrap();
    assert!(x("get").exclude && x("get").dialects == ["x-speakeasy-mcp"]);
    assert!(x("put").exclude && x("put").dialects == ["x-mint.mcp"]);
    assert!(x("patch").exclude && x("patch").dialects.is_empty());
    let post = x("post");
    assert!(!post.exclude);
    assert_eq!(post.name.as_deref(), Some("mine"));
    assert_eq!(post.title.as_deref(), Some("Create an A"));
    assert_eq!(post.description.as_deref(), Some("Creates."));
    assert!(post.description_given);
    assert_eq!(post.dialects, ["x-speakeasy-mcp"]);
    let delete = x("delete");
    assert!(!delete.exclude && delete.name.as_deref() == Some("remove_a"));
    assert_eq!(x("head"), XMcp::default());
    let b = |method| d.operation("/b", method).unwrap().x_mcp().unwrap();
    assert!(b("get").exclude && b("get").dialects == ["x-kong-mcp"]);
    let post = b("post");
    assert!(!post.exclude);
    assert_eq!(post.name.as_deref(), Some("make_b"));
    assert_eq!(post.description.as_deref(), Some("Makes a B."));
    assert_eq!(post.dialects, ["x-kong-mcp"]);
    assert!(b("delete").exclude && b("delete").dialects.is_empty());
}
