//! Real APIs stray from their own descriptions; a 2xx is still a success.
//!
//! A Swagger 2.0 document shaped like Jupyter Server's contents API (which
//! answers `null` in fields typed `string`, and an array in `content` for a
//! directory) served by a backend on 127.0.0.1: with default flags every
//! call is a success whose `structuredContent` conforms to the advertised
//! `outputSchema` (checked here as strict clients check it), and only a
//! response that cannot be made to conform is an error that says the HTTP
//! call itself succeeded. Whatever else a backend sends (a body that is not
//! JSON, HTML, an array for an object, an empty body, a 204, a list over
//! the response cap), a tool with an output schema returns conforming
//! structured content or an error. Then `oneOf` arguments that fit two
//! branches.

use openapi2mcp::document::Document;
use openapi2mcp::runtime::http::HttpOptions;
use openapi2mcp::runtime::response::ResponseLimits;
use openapi2mcp::server::ServeOptions;
use openapi2mcp::tools::{self, BuildOptions, Catalog, OutputSchemaMode};
use rmcp::model::{CallToolResult, Tool};
use serde_json::{Value, json};

use crate::backend::{Backend, Recorded, Reply};
use crate::redirects::{self, Origin, foreign_answer, home_answer};
use crate::serve::{catalog_at, connect};
use crate::support::external;
use crate::support::{call, text_of};

/// Jupyter Server's `Contents` model and contents operations, as its
/// `api.yaml` writes them (trimmed to what the test needs).
fn jupyter_like() -> Value {
    let contents = json!({"$ref": "#/definitions/Contents"});
    json!({
        "swagger": "2.0",
        "info": {"title": "Jupyter Server API", "version": "5"},
        "basePath": "/",
        "produces": ["application/json"],
        "consumes": ["application/json"],
        "parameters": {"path": {"name": "path", "in": "path", "required": true, "type": "string"}},
        "paths": {
            "/api/contents/{path}": {
                "parameters": [{"$ref": "#/parameters/path"}],
                "get": {"operationId": "get_contents", "parameters": [
                        {"name": "content", "in": "query", "type": "integer"}],
                    "responses": {"200": {"description": "Contents", "schema": contents}}},
                "post": {"operationId": "create_contents", "parameters": [{"name": "model", "in": "body",
                        "schema": {"type": "object", "properties": {"copy_from": {"type": "string"},
                            "ext": {"type": "string"}, "type": {"type": "string"}}}}],
                    "responses": {"201": {"description": "Created", "schema": contents}}},
                "put": {"operationId": "save_contents", "parameters": [{"name": "model", "in": "body",
                        "schema": {"type": "object", "properties": {"name": {"type": "string"},
                            "path": {"type": "string"}, "type": {"type": "string"},
                            "format": {"type": "string"}, "content": {"type": "string"}}}}],
                    "responses": {"200": {"description": "Saved", "schema": contents},
                                  "201": {"description": "Created", "schema": contents}}}
            },
            "/api/broken": {"post": {"operationId": "call_broken", "responses": {
                "201": {"description": "Created", "schema": contents}}}},
            "/api/either": {"get": {"operationId": "get_either", "responses": {"200": {"description": "ok",
                "schema": {"type": "object", "properties": {"thing": {"oneOf": [
                    {"$ref": "#/definitions/Value"}, {"$ref": "#/definitions/Named"}]}}}}}}}
        },
        "definitions": {
            "Contents": {
                "type": "object",
                "required": ["type", "name", "path", "writable", "created", "last_modified", "mimetype", "format", "content"],
                "properties": {
                    "name": {"type": "string"},
                    "path": {"type": "string"},
                    "type": {"type": "string", "enum": ["directory", "file", "notebook"]},
                    "writable": {"type": "boolean"},
                    "created": {"type": "string", "format": "dateTime"},
                    "last_modified": {"type": "string", "format": "dateTime"},
                    "size": {"type": "integer"},
                    "mimetype": {"type": "string"},
                    "content": {"type": "string"},
                    "format": {"type": "string"},
                    "hash": {"type": "string"},
                    "hash_algorithm": {"type": "string"}
                }
            },
            "Value": {"type": "object", "properties": {"value": {"type": "object"}}},
            "Named": {"type": "object", "properties": {"name": {"type": "string"}}}
        }
    })
}

/// A model of `kind` at `path`, with Jupyter's nulls.
fn model(path: &str, kind: &str, content: Value, format: Value, mimetype: Value) -> Value {
    json!({
        "name": path.rsplit('/').next().unwrap_or(path), "path": path, "type": kind,
        "writable": true, "created": "2024-05-01T10:00:00.000000Z",
        "last_modified": "2024-05-01T10:00:00.000000Z", "size": null,
        "mimetype": mimetype, "content": content, "format": format,
        "hash": null, "hash_algorithm": null
    })
}

fn jupyter_reply(r: &Recorded) -> Reply {
    let body = match (r.method.as_str(), r.target.as_str()) {
        ("POST", "/api/broken") => json!([{"name": "a"}]),
        ("POST", _) => model(
            "Untitled Folder",
            "directory",
            Value::Null,
            Value::Null,
            Value::Null,
        ),
        ("PUT", _) => model("notes.txt", "file", Value::Null, Value::Null, Value::Null),
        ("GET", t) if t.starts_with("/api/contents/notes.txt") => model(
            "notes.txt",
            "file",
            json!("hello"),
            json!("text"),
            json!("text/plain"),
        ),
        // A directory lists its entries in `content`, typed string.
        ("GET", t) if t.starts_with("/api/contents/") => model(
            "work",
            "directory",
            json!([model(
                "work/notes.txt",
                "file",
                Value::Null,
                Value::Null,
                Value::Null
            )]),
            json!("json"),
            Value::Null,
        ),
        _ => json!({"thing": {"value": {"a": 1}}}),
    };
    let status = if r.method == "GET" { 200 } else { 201 };
    (status, "application/json", body.to_string().into_bytes())
}

fn catalog(mode: OutputSchemaMode) -> Catalog {
    let doc = Document::from_value("jupyter.yaml", jupyter_like()).unwrap();
    let options = BuildOptions {
        output_schemas: mode,
        ..BuildOptions::default()
    };
    tools::build(&doc, &options).0
}

fn options(backend: &Backend) -> ServeOptions {
    ServeOptions {
        base_url: Some(backend.url()),
        ..ServeOptions::default()
    }
}

/// Checks a success the way strict clients do: structured content present
/// and valid against the tool's advertised `outputSchema`.
fn assert_conforms(tools: &[Tool], name: &str, result: &CallToolResult) -> Value {
    assert_eq!(result.is_error, Some(false), "{name}: {}", text_of(result));
    let tool = tools.iter().find(|t| t.name == name).unwrap();
    let schema = Value::Object((*tool.output_schema.clone().expect("an outputSchema")).clone());
    let structured = result
        .structured_content
        .clone()
        .unwrap_or_else(|| panic!("{name}: a success without structured content"));
    let validator = jsonschema::draft202012::new(&schema).expect("the advertised schema compiles");
    let problems: Vec<String> = validator
        .iter_errors(&structured)
        .map(|e| e.to_string())
        .collect();
    assert!(
        problems.is_empty(),
        "{name}: {structured} does not conform to its advertised {schema}: {problems:?}"
    );
    structured
}

#[tokio::test]
async fn jupyter_s_nulls_are_successes_with_conforming_structured_content() {
    let backend = Backend::start(jupyter_reply).await;
    let client = connect(catalog(OutputSchemaMode::Full), options(&backend)).await;
    let tools = client.list_all_tools().await.unwrap();

    // Creating a folder, saving a file and reading it: the flow that came
    // back `isError: true` although the files were written.
    let created = call(
        &client,
        "create_contents",
        json!({"path": "work", "type": "directory"}),
    )
    .await;
    let structured = assert_conforms(&tools, "create_contents", &created);
    assert_eq!(
        structured,
        model(
            "Untitled Folder",
            "directory",
            Value::Null,
            Value::Null,
            Value::Null
        ),
        "the nulls are kept as sent"
    );
    assert!(
        !text_of(&created).contains("Note:"),
        "nothing to note: {}",
        text_of(&created)
    );
    let saved = call(
        &client,
        "save_contents",
        json!({"path": "notes.txt", "type": "file", "format": "text", "content": "hello"}),
    )
    .await;
    assert_conforms(&tools, "save_contents", &saved);
    let read = call(&client, "get_contents", json!({"path": "notes.txt"})).await;
    assert_eq!(
        assert_conforms(&tools, "get_contents", &read)["content"],
        "hello"
    );
    let sent: Vec<String> = backend
        .take()
        .iter()
        .map(|r| format!("{} {}", r.method, r.target))
        .collect();
    assert_eq!(
        sent,
        [
            "POST /api/contents/work",
            "PUT /api/contents/notes.txt",
            "GET /api/contents/notes.txt"
        ],
        "each call was sent once"
    );

    // A directory's `content` is an array where the document says string:
    // a success all the same, that value shown as null in the structured
    // content and the response as received in the text.
    let listed = call(&client, "get_contents", json!({"path": "work"})).await;
    let structured = assert_conforms(&tools, "get_contents", &listed);
    assert_eq!(structured["content"], Value::Null);
    assert_eq!(structured["name"], "work");
    let text = text_of(&listed);
    assert!(text.contains("`.content` is an array"), "{text}");
    assert!(
        text.contains("work/notes.txt"),
        "the listing is in the text: {text}"
    );

    // A value two `oneOf` branches describe is no error either.
    let either = call(&client, "get_either", json!({})).await;
    assert_conforms(&tools, "get_either", &either);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_response_that_cannot_conform_is_an_error_saying_the_call_succeeded() {
    let backend = Backend::start(jupyter_reply).await;
    let client = connect(catalog(OutputSchemaMode::Full), options(&backend)).await;
    // An array where the document describes an object.
    let result = call(&client, "call_broken", json!({})).await;
    assert_eq!(result.is_error, Some(true), "{result:?}");
    assert!(result.structured_content.is_none());
    let text = text_of(&result);
    assert!(text.contains("HTTP 201 Created from POST"), "{text}");
    assert!(
        text.contains("The HTTP call itself succeeded") && text.contains("do not repeat it"),
        "{text}"
    );
    assert!(
        text.contains(r#""name": "a""#),
        "the response follows: {text}"
    );
    assert_eq!(backend.take().len(), 1);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn strict_output_schemas_keep_the_documents_types_and_leave_out_what_does_not_fit() {
    let backend = Backend::start(jupyter_reply).await;
    let client = connect(catalog(OutputSchemaMode::Strict), options(&backend)).await;
    let tools = client.list_all_tools().await.unwrap();
    let tool = tools.iter().find(|t| t.name == "create_contents").unwrap();
    let schema = serde_json::to_string(&tool.output_schema).unwrap();
    assert!(
        !schema.contains("null"),
        "strict: no null admitted: {schema}"
    );

    let created = call(&client, "create_contents", json!({"path": "work"})).await;
    let structured = assert_conforms(&tools, "create_contents", &created);
    for gone in ["content", "format", "mimetype", "size", "hash"] {
        assert!(structured.get(gone).is_none(), "{gone}: {structured}");
    }
    assert_eq!(structured["name"], "Untitled Folder");
    let text = text_of(&created);
    assert!(text.contains("`.content` is null"), "{text}");
    assert!(text.contains("left out"), "{text}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn tools_with_output_schemas_return_conforming_structured_content_or_an_error() {
    let foreign = Origin::start(foreign_answer()).await;
    let home = Origin::start(home_answer(foreign.url())).await;
    let options = ServeOptions {
        base_url: Some(home.url()),
        http: HttpOptions {
            limits: ResponseLimits {
                max_body_bytes: 4096,
            },
            ..HttpOptions::default()
        },
        ..ServeOptions::default()
    };
    let client = connect(redirects::catalog(json!({}), json!({})), options).await;
    let tools = client.list_all_tools().await.unwrap();
    let schema_of = |name: &str| {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        Value::Object((*tool.output_schema.clone().unwrap()).clone())
    };
    let check = |name: &str, result: &CallToolResult| {
        if result.is_error == Some(true) {
            return;
        }
        let structured = result
            .structured_content
            .clone()
            .unwrap_or_else(|| panic!("{name}: success without structured content: {result:?}"));
        let validator = jsonschema::draft202012::new(&schema_of(name)).unwrap();
        assert!(
            validator.is_valid(&structured),
            "{name}: {structured} does not conform"
        );
    };

    for (kind, must_fail) in [
        ("badjson", true),
        ("html", true),
        ("array", true),
        ("empty", false),
        ("nocontent", false),
        ("same", false),
    ] {
        let result = call(&client, "go", json!({"kind": kind})).await;
        assert_eq!(result.is_error, Some(must_fail), "{kind}: {result:?}");
        check("go", &result);
        if !must_fail && kind != "same" {
            assert_eq!(result.structured_content, Some(json!({})), "{kind}");
        }
        if must_fail {
            assert!(
                text_of(&result).contains("no structured result"),
                "{kind}: {}",
                text_of(&result)
            );
        }
    }

    // Over the cap: cut at whole items, still structured and conforming.
    let huge = call(&client, "list_things", json!({"kind": "huge"})).await;
    assert_eq!(huge.is_error, Some(false), "{huge:?}");
    check("list_things", &huge);
    let items = huge.structured_content.as_ref().unwrap()["result"]
        .as_array()
        .unwrap()
        .clone();
    assert!(items.len() > 10 && items.len() < 5000, "{}", items.len());
    for (i, item) in items.iter().enumerate() {
        assert_eq!(item["id"], json!(i));
        assert_eq!(item["name"], json!(format!("item number {i}")));
    }
    let text = text_of(&huge);
    assert!(
        text.contains(&format!(
            "the first {} items of `$` were kept and later items dropped",
            items.len()
        )),
        "{}",
        &text[text.len().saturating_sub(300)..]
    );

    let empty_list = call(&client, "list_things", json!({"kind": "empty"})).await;
    assert_eq!(empty_list.is_error, Some(false));
    check("list_things", &empty_list);
    client.cancel().await.unwrap();
}

/// A document whose `oneOf` branches overlap: GitHub's `set_labels`
/// body, whose two shapes both fit `{}`, and the "exactly one of these
/// fields" idiom, which stays exclusive.
fn overlapping() -> Value {
    json!({
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/labels": {"put": {"operationId": "set_labels", "requestBody": {"content": {"application/json": {"schema": {"oneOf": [
                {"type": "object", "properties": {"labels": {"type": "array", "items": {"type": "string"}}}},
                {"type": "object", "properties": {"labels": {"type": "array", "items": {"type": "object",
                    "properties": {"name": {"type": "string"}}, "required": ["name"]}}}}]}}}},
                "responses": {"204": {"description": "ok"}}}},
            "/delete": {"post": {"operationId": "delete_request", "requestBody": {"content": {"application/json": {"schema": {
                "type": "object", "oneOf": [
                    {"properties": {"ids": {"type": "array", "items": {"type": "string"}}}, "required": ["ids"]},
                    {"properties": {"digests": {"type": "array", "items": {"type": "string"}}}, "required": ["digests"]}]}}}},
                "responses": {"204": {"description": "ok"}}}}
        }
    })
}

fn no_content(_: &Recorded) -> Reply {
    (204, "application/json", Vec::new())
}

/// Whether `args` fit the tool's advertised `inputSchema`.
fn advertised_accepts(tools: &[Tool], name: &str, args: &Value) -> bool {
    let tool = tools.iter().find(|t| t.name == name).unwrap();
    let schema = Value::Object((*tool.input_schema).clone());
    jsonschema::draft202012::new(&schema)
        .unwrap()
        .is_valid(args)
}

#[tokio::test]
async fn one_of_arguments_that_fit_two_branches_are_accepted_as_advertised() {
    let backend = Backend::start(no_content).await;
    let doc = Document::from_value("overlap.yaml", overlapping()).unwrap();
    let catalog = tools::build(&doc, &BuildOptions::default()).0;
    let client = connect(catalog, options(&backend)).await;
    let tools = client.list_all_tools().await.unwrap();

    for body in [json!({}), json!({"labels": []}), json!({"labels": ["bug"]})] {
        let args = json!({"body": body});
        assert!(advertised_accepts(&tools, "set_labels", &args), "{args}");
        let result = call(&client, "set_labels", args.clone()).await;
        assert_eq!(result.is_error, Some(false), "{args}: {}", text_of(&result));
    }
    assert_eq!(backend.take().len(), 3, "each call was sent");

    // What both refuse is refused, naming the argument.
    let wrong = json!({"body": {"labels": [1]}});
    assert!(!advertised_accepts(&tools, "set_labels", &wrong));
    let result = call(&client, "set_labels", wrong).await;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text_of(&result).contains("Invalid arguments"),
        "{}",
        text_of(&result)
    );

    // The idiom stays exclusive, in the advertised schema as in validation.
    let one = json!({"body": {"ids": ["a"]}});
    let both = json!({"body": {"ids": ["a"], "digests": ["b"]}});
    assert!(advertised_accepts(&tools, "delete_request", &one));
    assert!(!advertised_accepts(&tools, "delete_request", &both));
    let result = call(&client, "delete_request", one).await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    let result = call(&client, "delete_request", both).await;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text_of(&result).contains("more than one"),
        "{}",
        text_of(&result)
    );
    assert_eq!(backend.take().len(), 1, "the refused call was not sent");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn github_s_one_of_arguments_reach_the_api() {
    let Some(path) = external("@octokit/openapi/generated/api.github.com.json") else {
        return;
    };
    let backend = Backend::start(no_content).await;
    let mut catalog = catalog_at(&path);
    catalog.tools.retain(|t| {
        [
            "create_workflow_dispatch",
            "set_labels",
            "delete_org_attestations_bulk",
        ]
        .contains(&t.name.as_str())
    });
    assert_eq!(catalog.tools.len(), 3);
    let client = connect(catalog, options(&backend)).await;
    let tools = client.list_all_tools().await.unwrap();
    // `workflow_id` is `oneOf: [integer, string]`: disjoint, so both an ID
    // and a file name were always accepted; they still are.
    for (workflow_id, wire) in [(json!(1234), "1234"), (json!("ci.yml"), "ci.yml")] {
        let args = json!({"owner": "o", "repo": "r", "workflow_id": workflow_id, "ref": "main"});
        assert!(advertised_accepts(
            &tools,
            "create_workflow_dispatch",
            &args
        ));
        let result = call(&client, "create_workflow_dispatch", args).await;
        assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
        let sent = backend.take();
        assert_eq!(
            sent[0].target,
            format!("/repos/o/r/actions/workflows/{wire}/dispatches")
        );
    }
    // `set_labels`' body is a oneOf of two object shapes that both fit an
    // empty object: refused as "valid under more than one" before.
    let args = json!({"owner": "o", "repo": "r", "issue_number": 1, "body": {}});
    assert!(advertised_accepts(&tools, "set_labels", &args));
    let result = call(&client, "set_labels", args).await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    let sent = backend.take();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].method, "PUT");
    assert_eq!(sent[0].body, b"{}");
    // The attestation deletion takes `subject_digests` or `attestation_ids`,
    // "but not both": that oneOf stays exclusive, and says so.
    let one = json!({"org": "o", "body": {"attestation_ids": [1]}});
    let both =
        json!({"org": "o", "body": {"attestation_ids": [1], "subject_digests": ["sha256:a"]}});
    assert!(advertised_accepts(
        &tools,
        "delete_org_attestations_bulk",
        &one
    ));
    assert!(!advertised_accepts(
        &tools,
        "delete_org_attestations_bulk",
        &both
    ));
    let result = call(&client, "delete_org_attestations_bulk", one).await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    let result = call(&client, "delete_org_attestations_bulk", both).await;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text_of(&result).contains("more than one"),
        "{}",
        text_of(&result)
    );
    assert_eq!(backend.take().len(), 1, "the refused call was not sent");
    client.cancel().await.unwrap();
}
