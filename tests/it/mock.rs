//! `mock`: the REST backend answering from the document. Over real HTTP
//! (routing, validation, `Prefer`), through the MCP bridge (every petstore
//! tool), on GitHub's description (synthesized bodies validate against the
//! documented schemas), and the real binary's `serve --mock`.

use std::sync::Arc;

use openapi2mcp::document::{self, Document, LoadOptions};
use openapi2mcp::mock::{self, MockOptions, MockRequest, MockServer};
use openapi2mcp::pipeline;
use openapi2mcp::server::{Bridge, ServeOptions};
use openapi2mcp::tools;
use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};

use crate::support::{call, external, local};

/// The petstore mock, bound on a free port and serving; returns its base URL.
async fn start_petstore() -> String {
    let mocked = pipeline::load_mock(
        local("specs/petstore.yaml").to_str().unwrap(),
        &LoadOptions::default(),
        MockOptions::default(),
    )
    .unwrap();
    assert!(mocked.diagnostics.is_empty(), "{:?}", mocked.diagnostics);
    let bound = mock::bind(Arc::new(mocked.server), ([127, 0, 0, 1], 0).into())
        .await
        .unwrap();
    let base = bound.base_url();
    tokio::spawn(bound.run(std::future::pending()));
    base
}

struct Got {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: Vec<u8>,
}

impl Got {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
    /// The `detail` of a problem body, checking its shape.
    fn problem(&self, status: u16) -> String {
        assert_eq!(
            self.status,
            status,
            "{}",
            String::from_utf8_lossy(&self.body)
        );
        assert_eq!(
            self.header("content-type"),
            Some("application/problem+json")
        );
        let p = self.json();
        assert_eq!(p["type"], "about:blank");
        assert_eq!(p["status"], status);
        assert!(p["title"].as_str().is_some_and(|t| !t.is_empty()));
        p["detail"].as_str().unwrap().to_string()
    }
}

async fn send(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<(&str, &str)>,
) -> Got {
    let client = reqwest::Client::new();
    let mut req = client.request(method.parse().unwrap(), url);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    if let Some((ct, b)) = body {
        req = req.header("content-type", ct).body(b.to_string());
    }
    let resp = req.send().await.expect("mock answers");
    Got {
        status: resp.status().as_u16(),
        headers: resp.headers().clone(),
        body: resp.bytes().await.unwrap().to_vec(),
    }
}

const PET: &str = r#"{"id":1,"name":"Rex","status":"available","tags":["dog"]}"#;

#[tokio::test]
async fn petstore_over_http_answers_with_documented_examples() {
    let base = start_petstore().await;
    assert!(base.ends_with("/v1"), "{base}");

    let got = send("GET", &format!("{base}/pets/1"), &[], None).await;
    assert_eq!(got.status, 200);
    assert_eq!(got.header("content-type"), Some("application/json"));
    assert_eq!(got.json(), serde_json::from_str::<Value>(PET).unwrap());

    let got = send(
        "GET",
        &format!("{base}/pets?limit=2&tags=dog,cat&status=sold"),
        &[],
        None,
    )
    .await;
    assert_eq!(got.status, 200);
    assert_eq!(got.json()[1]["name"], "Tom");
    assert!(
        got.header("x-next-cursor").is_some(),
        "documented header sent"
    );

    let got = send(
        "POST",
        &format!("{base}/pets"),
        &[],
        Some(("application/json", r#"{"name":"Rex","tags":["dog"]}"#)),
    )
    .await;
    assert_eq!(got.status, 201);
    assert_eq!(got.json()["id"], 3);

    let got = send(
        "PATCH",
        &format!("{base}/pets/1"),
        &[],
        Some(("application/json", r#"{"status":"sold"}"#)),
    )
    .await;
    assert_eq!(
        (got.status, got.json()["status"].clone()),
        (200, json!("sold"))
    );

    let got = send("DELETE", &format!("{base}/pets/1"), &[], None).await;
    assert_eq!(got.status, 204);
    assert!(got.body.is_empty());

    let got = send("GET", &format!("{base}/pets/1/photo"), &[], None).await;
    assert_eq!(got.status, 200);
    assert_eq!(got.header("content-type"), Some("image/png"));
    assert!(got.body.starts_with(b"\x89PNG\r\n\x1a\n"), "a real PNG");

    let got = send(
        "PUT",
        &format!("{base}/pets/1/photo"),
        &[],
        Some((
            "multipart/form-data; boundary=b",
            "--b\r\nContent-Disposition: form-data; name=\"photo\"\r\n\r\nx\r\n--b--\r\n",
        )),
    )
    .await;
    assert_eq!(got.status, 204);

    // Prefer: the documented error, alone or with an example name.
    let got = send(
        "GET",
        &format!("{base}/pets/1"),
        &[("prefer", "code=404")],
        None,
    )
    .await;
    assert_eq!(got.status, 404);
    assert_eq!(got.json(), json!({"code": 404, "message": "pet not found"}));
    let got = send(
        "GET",
        &format!("{base}/pets/1"),
        &[("prefer", "code=200, example=example")],
        None,
    )
    .await;
    assert_eq!(got.status, 200);
    let got = send(
        "GET",
        &format!("{base}/pets/1"),
        &[("prefer", "example=nope")],
        None,
    )
    .await;
    assert!(got.problem(400).contains("example=nope"));
    let got = send(
        "GET",
        &format!("{base}/pets/1"),
        &[("prefer", "code=418")],
        None,
    )
    .await;
    assert!(got.problem(400).contains("code=418"));
}

#[tokio::test]
async fn petstore_over_http_refuses_what_the_document_does_not_allow() {
    let base = start_petstore().await;

    let detail = send("GET", &format!("{base}/nothing/here"), &[], None)
        .await
        .problem(404);
    assert!(detail.contains("/v1/nothing/here"), "{detail}");
    // Outside the server prefix there is no API.
    let root = base.trim_end_matches("/v1");
    send("GET", &format!("{root}/pets/1"), &[], None)
        .await
        .problem(404);

    let got = send("PUT", &format!("{base}/pets"), &[], None).await;
    got.problem(405);
    assert_eq!(got.header("allow"), Some("GET, POST"));
    let got = send("POST", &format!("{base}/pets/1"), &[], None).await;
    got.problem(405);
    assert_eq!(got.header("allow"), Some("GET, PATCH, DELETE"));

    let detail = send("GET", &format!("{base}/pets/abc"), &[], None)
        .await
        .problem(400);
    assert!(
        detail.contains("path parameter `petId`")
            && detail.contains("\"abc\"")
            && detail.contains("integer"),
        "{detail}"
    );
    let detail = send("GET", &format!("{base}/pets/0"), &[], None)
        .await
        .problem(400);
    assert!(
        detail.contains("petId") && detail.contains("minimum"),
        "{detail}"
    );
    let detail = send("GET", &format!("{base}/pets?limit=500"), &[], None)
        .await
        .problem(400);
    assert!(
        detail.contains("query parameter `limit`") && detail.contains("100"),
        "{detail}"
    );
    let detail = send("GET", &format!("{base}/pets?status=lost"), &[], None)
        .await
        .problem(400);
    assert!(
        detail.contains("`status`") && detail.contains("lost"),
        "{detail}"
    );

    let detail = send(
        "POST",
        &format!("{base}/pets"),
        &[],
        Some(("application/json", r#"{"tags":["dog"]}"#)),
    )
    .await
    .problem(400);
    assert!(
        detail.contains("request body") && detail.contains("\"name\""),
        "{detail}"
    );
    let detail = send(
        "POST",
        &format!("{base}/pets"),
        &[],
        Some(("application/json", r#"{"name":5}"#)),
    )
    .await
    .problem(400);
    assert!(
        detail.contains("/name") && detail.contains("string"),
        "{detail}"
    );
    let detail = send(
        "POST",
        &format!("{base}/pets"),
        &[],
        Some(("application/json", "{")),
    )
    .await
    .problem(400);
    assert!(detail.contains("not valid JSON"), "{detail}");
    let detail = send("POST", &format!("{base}/pets"), &[], None)
        .await
        .problem(400);
    assert!(detail.contains("body is required"), "{detail}");
    let detail = send(
        "POST",
        &format!("{base}/pets"),
        &[],
        Some(("text/plain", "Rex")),
    )
    .await
    .problem(415);
    assert!(
        detail.contains("text/plain") && detail.contains("application/json"),
        "{detail}"
    );
}

/// A client connected in process to a bridge (as in serve.rs).
async fn connect(options: ServeOptions) -> (RunningService<RoleClient, ()>, tools::Catalog) {
    let catalog = crate::serve::petstore();
    let bridge = Bridge::new(catalog.clone(), options).unwrap();
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = bridge.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    (().serve(client_io).await.expect("client connects"), catalog)
}

#[tokio::test]
async fn every_petstore_tool_works_through_serve_mock() {
    // The real binary, exactly as a user runs it, driven by a real MCP client.
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.arg("serve")
        .arg(local("specs/petstore.yaml"))
        .arg("--mock")
        .env_remove("OPENAPI2MCP_BASE_URL");
    let client =
        ().serve(rmcp::transport::TokioChildProcess::new(cmd).unwrap())
            .await
            .expect("spawned server speaks MCP on stdout");
    let (_, catalog) = connect(ServeOptions::default()).await;
    let pet: Value = serde_json::from_str(PET).unwrap();
    let calls = [
        // `serve --mock` is stateful: the query filters the stored pets.
        (
            "list_pets",
            json!({"limit": 2, "tags": ["dog"], "status": "available"}),
            Some(json!({"result": [pet]})),
        ),
        (
            "create_pet",
            json!({"name": "Rex", "status": "available", "tags": ["dog"]}),
            Some(json!({"id": 3, "name": "Rex", "status": "available", "tags": ["dog"]})),
        ),
        ("get_pet", json!({"petId": 1}), Some(pet.clone())),
        (
            "update_pet",
            json!({"petId": 1, "status": "sold"}),
            Some(json!({"id": 1, "name": "Rex", "status": "sold", "tags": ["dog"]})),
        ),
        ("delete_pet", json!({"petId": 1}), None),
        ("get_pet_photo", json!({"petId": 1}), None),
        (
            "upload_pet_photo",
            json!({"petId": 1, "photo": "data:image/png;base64,iVBORw0KGgo=", "caption": "Rex"}),
            None,
        ),
    ];
    assert_eq!(calls.len(), catalog.tools.len(), "every tool is called");
    for (name, args, expected) in calls {
        let got = call(&client, name, args).await;
        let shown = serde_json::to_string(&got).unwrap();
        assert_eq!(got.is_error, Some(false), "{name}: {shown}");
        let tool = catalog.tools.iter().find(|t| t.name == name).unwrap();
        if let Some(expected) = expected {
            let structured = got.structured_content.clone().expect(name);
            assert_eq!(structured, expected, "{name}");
            let schema = tool.output_schema.as_ref().expect("JSON tools have one");
            let validator =
                jsonschema::draft202012::new(&Value::Object((**schema).clone())).unwrap();
            assert!(validator.is_valid(&structured), "{name}: {structured}");
        }
        if name == "get_pet_photo" {
            let content = serde_json::to_value(&got.content).unwrap();
            assert_eq!(content[0]["type"], "image", "{shown}");
            assert_eq!(content[0]["mimeType"], "image/png");
            assert!(
                content[0]["data"]
                    .as_str()
                    .unwrap()
                    .starts_with("iVBORw0KGgo")
            );
        }
    }
    // A documented error comes back as a flagged result, not a failure.
    let got = call(&client, "get_pet", json!({"petId": "x"})).await;
    assert_ne!(got.is_error, Some(false));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn serve_with_mock_answers_from_the_document() {
    use rmcp::transport::TokioChildProcess;
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.arg("serve")
        .arg(local("specs/petstore.yaml"))
        .arg("--mock")
        .env_remove("OPENAPI2MCP_BASE_URL");
    let client =
        ().serve(TokioChildProcess::new(cmd).unwrap())
            .await
            .expect("spawned server speaks MCP on stdout");
    let got = call(&client, "get_pet", json!({"petId": 1})).await;
    assert_eq!(got.is_error, Some(false));
    assert_eq!(
        got.structured_content,
        Some(serde_json::from_str::<Value>(PET).unwrap())
    );
    client.cancel().await.unwrap();
}

/// Path keys as APIs.guru's AWS descriptions write them (328 documents):
/// actions told apart by a fragment (`/#Action=…`, `/#X-Amz-Target=…`)
/// and collections with a trailing `/`. Through `serve --mock`, each tool
/// gets its own operation's answer: the request goes to the path without
/// the fragment (a URL's fragment is never sent), carrying the action as
/// the parameter the fragment names, and the mock tells the operations of
/// `/` apart by it.
#[tokio::test]
async fn aws_style_path_keys_reach_their_own_operations_through_serve_mock() {
    use rmcp::transport::TokioChildProcess;
    let answer = |example: Value| {
        json!({"200": {"description": "ok", "content": {"application/json": {
            "schema": {"type": "object"}, "example": example}}}})
    };
    let action = |name: &str| {
        json!({"name": "Action", "in": "query", "required": true,
               "schema": {"type": "string", "enum": [name]}})
    };
    let doc = json!({"openapi": "3.0.0", "info": {"title": "AWS-like", "version": "1"},
    "servers": [{"url": "https://svc.test"}],
    "paths": {
        "/#Action=DescribeTags": {"get": {"operationId": "DescribeTags",
            "parameters": [action("DescribeTags")], "responses": answer(json!({"tags": ["a"]}))}},
        "/#Action=DescribeThings": {"get": {"operationId": "DescribeThings",
            "parameters": [action("DescribeThings")], "responses": answer(json!({"things": 2}))}},
        "/#X-Amz-Target=Svc.CreateThing": {"post": {"operationId": "CreateThing",
            "parameters": [{"name": "X-Amz-Target", "in": "header", "required": true,
                "schema": {"type": "string", "enum": ["Svc.CreateThing"]}}],
            "responses": answer(json!({"created": true}))}},
        "/backup-jobs/": {"get": {"operationId": "ListBackupJobs",
            "responses": answer(json!({"jobs": []}))}}
    }});
    let file = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    std::fs::write(file.path(), doc.to_string()).unwrap();
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.arg("serve")
        .arg(file.path())
        .args(["--mock", "--tools", "full"])
        .env_remove("OPENAPI2MCP_BASE_URL");
    let client =
        ().serve(TokioChildProcess::new(cmd).unwrap())
            .await
            .expect("spawned server speaks MCP on stdout");
    for (tool, args, expected) in [
        (
            "describe_tags",
            json!({"Action": "DescribeTags"}),
            json!({"tags": ["a"]}),
        ),
        (
            "describe_things",
            json!({"Action": "DescribeThings"}),
            json!({"things": 2}),
        ),
        (
            "create_thing",
            json!({"X-Amz-Target": "Svc.CreateThing"}),
            json!({"created": true}),
        ),
        ("list_backup_jobs", json!({}), json!({"jobs": []})),
    ] {
        let got = call(&client, tool, args).await;
        assert_eq!(got.is_error, Some(false), "{tool}: {got:?}");
        assert_eq!(got.structured_content, Some(expected), "{tool}: {got:?}");
    }
    client.cancel().await.unwrap();

    // The mock alone: the action is read from the query or a header, in
    // any order among other parameters; a request naming no documented
    // action is a 404 that says how the operations are told apart.
    let doc = Document::from_value("aws.json", doc).unwrap();
    let (server, _) = MockServer::new(&doc, MockOptions::default());
    let things = server.respond(&MockRequest::new(
        "GET",
        "/?Version=1&Action=DescribeThings",
    ));
    assert_eq!(things.json().unwrap(), json!({"things": 2}));
    let mut create = MockRequest::new("POST", "/");
    create.headers = vec![("x-amz-target".into(), "Svc.CreateThing".into())];
    assert_eq!(
        server.respond(&create).json().unwrap(),
        json!({"created": true})
    );
    let none = server.respond(&MockRequest::new("GET", "/?Action=Nothing"));
    assert_eq!(none.status, 404);
    let detail = String::from_utf8_lossy(&none.body).to_string();
    assert!(
        detail.contains("told apart by a query parameter or header"),
        "{detail}"
    );
    let jobs = server.respond(&MockRequest::new("GET", "/backup-jobs"));
    assert_eq!(jobs.json().unwrap(), json!({"jobs": []}));
}

/// Fragments as APIs.guru's documents write them beyond `name=value`: a
/// bare name asks for the parameter with any value, and a path key with a
/// fragment goes before the same path without one when both hold.
#[test]
fn the_mock_tells_fragment_routes_apart_by_what_they_ask() {
    let answer = |example: Value| {
        json!({"200": {"description": "ok", "content": {"application/json": {
            "schema": {"type": "object"}, "example": example}}}})
    };
    let query = |name: &str, required: bool| json!({"name": name, "in": "query", "required": required, "schema": {"type": "string"}});
    let doc = Document::from_value(
        "fragments.json",
        json!({"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {
            "/files/{path}": {"get": {"parameters": [
                {"name": "path", "in": "path", "required": true, "schema": {"type": "string"}},
                query("fsaction", true)], "responses": answer(json!({"plain": true}))}},
            "/files/{path}#op=STATUS": {"get": {"parameters": [
                {"name": "path", "in": "path", "required": true, "schema": {"type": "string"}},
                query("op", true)], "responses": answer(json!({"status": true}))}},
            "/channels#app-arn": {"get": {"parameters": [query("app-arn", true)],
                "responses": answer(json!({"by": "app"}))}},
            "/channels#scope=flows&flow-arn": {"get": {"parameters": [
                query("scope", true), query("flow-arn", true)], "responses": answer(json!({"by": "flow"}))}},
            // A label names no parameter: nothing is asked of the request.
            "/{tenant}/{next}#Users_ListNext": {"get": {"parameters": [
                {"name": "tenant", "in": "path", "required": true, "schema": {"type": "string"}},
                {"name": "next", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": answer(json!({"next": "users"}))}}
        }}),
    )
    .unwrap();
    let (server, _) = MockServer::new(&doc, MockOptions::default());
    let get = |target: &str| {
        server
            .respond(&MockRequest::new("GET", target))
            .json()
            .unwrap()
    };
    assert_eq!(get("/files/a?op=STATUS"), json!({"status": true}));
    assert_eq!(get("/files/a?fsaction=x"), json!({"plain": true}));
    assert_eq!(get("/channels?app-arn=x"), json!({"by": "app"}));
    assert_eq!(
        get("/channels?flow-arn=y&scope=flows"),
        json!({"by": "flow"})
    );
    assert_eq!(get("/t1/page2"), json!({"next": "users"}));
}

/// `serve --mock --watch`: when the document changes, the mock answers
/// from the new one (the new tool's route and example), not only the tool
/// list; the path the tools call stays the same.
#[tokio::test]
async fn serve_with_mock_reloads_the_mock_with_the_document() {
    use rmcp::transport::TokioChildProcess;
    let doc = |routes: &[(&str, &str, Value)]| {
        let mut paths = serde_json::Map::new();
        for (id, path, example) in routes {
            paths.insert(
                path.to_string(),
                json!({"get": {"operationId": id, "responses": {"200": {"description": "ok",
                    "content": {"application/json": {"schema": {"type": "object"}, "example": example}}}}}}),
            );
        }
        json!({"openapi": "3.0.3", "info": {"title": "Ops", "version": "1"},
               "servers": [{"url": "https://api.test/v1"}], "paths": paths})
        .to_string()
    };
    let file = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    std::fs::write(
        file.path(),
        doc(&[("get_alpha", "/alpha", json!({"a": 1}))]),
    )
    .unwrap();
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.arg("serve")
        .arg(file.path())
        .args(["--mock", "--watch", "--tools", "full"])
        .env_remove("OPENAPI2MCP_BASE_URL");
    let client =
        ().serve(TokioChildProcess::new(cmd).unwrap())
            .await
            .expect("spawned server speaks MCP on stdout");
    let got = call(&client, "get_alpha", json!({})).await;
    assert_eq!(got.structured_content, Some(json!({"a": 1})), "{got:?}");

    // The document gains a route and the old one's example changes; the
    // servers' path changes too, which the mock must not follow.
    let next = doc(&[
        ("get_alpha", "/alpha", json!({"a": 2})),
        ("get_beta", "/beta", json!({"b": true})),
    ])
    .replace("https://api.test/v1", "https://api.test/v2");
    std::fs::write(file.path(), next).unwrap();
    let mut listed = false;
    for _ in 0..100 {
        let tools = client.list_all_tools().await.unwrap();
        if tools.iter().any(|t| t.name == "get_beta") {
            listed = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(listed, "the new tool is listed within 10 s");
    let got = call(&client, "get_beta", json!({})).await;
    assert_eq!(got.structured_content, Some(json!({"b": true})), "{got:?}");
    let got = call(&client, "get_alpha", json!({})).await;
    assert_eq!(got.structured_content, Some(json!({"a": 2})), "{got:?}");
    client.cancel().await.unwrap();
}

#[test]
fn synthesized_values_are_deterministic_and_follow_the_seed() {
    let doc = Document::from_value(
        "inline.yaml",
        json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
               "servers": [{"url": "https://{host}/api/{v}", "variables": {"host": {"default": "x.test"}, "v": {"default": "v2"}}}],
               "paths": {"/things/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                 "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
                   "type": "object", "required": ["n", "when"], "properties": {
                     "n": {"type": "integer", "maximum": 1000}, "when": {"type": "string", "format": "date-time"},
                     "ok": {"type": ["boolean", "null"]}}}}}}}}},
               "/things/mine": {"get": {"responses": {"200": {"description": "ok", "content": {"text/plain": {"schema": {"type": "string"}}}}}}}}}),
    )
    .unwrap();
    let body = |seed| {
        let (server, _) = MockServer::new(
            &doc,
            MockOptions {
                seed,
                examples: true,
                ..MockOptions::default()
            },
        );
        assert_eq!(server.prefix(), "/api/v2");
        server
            .respond(&MockRequest::new("GET", "/api/v2/things/a%20b"))
            .json()
            .unwrap()
    };
    assert_eq!(body(0), body(0));
    assert_eq!(
        body(0),
        json!({"n": 1, "when": "2024-01-01T00:00:00Z", "ok": true})
    );
    assert_ne!(body(0)["n"], body(7)["n"]);
    let (server, _) = MockServer::new(&doc, MockOptions::default());
    let mine = server.respond(&MockRequest::new("GET", "/api/v2/things/mine"));
    assert_eq!(
        (mine.status, mine.header("content-type")),
        (200, Some("text/plain"))
    );
    assert_eq!(mine.body, b"string");
}

/// A valid-looking request for `op`: path slots and required query
/// parameters synthesized from their schemas, and a JSON body from the
/// request schema.
fn request_for(
    doc: &Document,
    op: &openapi2mcp::document::model::Operation<'_>,
    synth: &mut openapi2mcp::mock::synth::Synth,
    bundler: &mut openapi2mcp::tools::bundle::SchemaBundler<'_>,
) -> (String, MockRequest) {
    use openapi2mcp::mock::synth::synthesize;
    // A client sends no fragment (`/cookies#formExploded` is `/cookies`).
    let mut target = openapi2mcp::runtime::binding::split_fragment(op.path)
        .0
        .to_string();
    let mut query = Vec::new();
    for p in &op.params {
        let name = p.name;
        let required = p.required();
        let value = p
            .schema()
            .map(|s| synthesize(synth, bundler, &s))
            .unwrap_or(json!("x"));
        let text = match value {
            Value::String(s) => s,
            Value::Array(items) => items
                .iter()
                .map(|i| i.as_str().map_or(i.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(","),
            other => other.to_string(),
        };
        let text: String =
            percent_encoding::utf8_percent_encode(&text, percent_encoding::NON_ALPHANUMERIC)
                .to_string();
        match p.location {
            "path" => target = target.replace(&format!("{{{name}}}"), &text),
            "query" if required => query.push(format!("{name}={text}")),
            _ => {}
        }
    }
    if !query.is_empty() {
        target = format!("{target}?{}", query.join("&"));
    }
    let prefix = openapi2mcp::mock::server_prefix(doc);
    let mut req = MockRequest::new(op.method, &format!("{prefix}{target}"));
    if let Ok(Some(body)) = op.request_body()
        && let Some(schema) = body.media("application/json").and_then(|m| m.schema())
    {
        req = req.json(&synthesize(synth, bundler, &schema));
    }
    (target, req)
}

/// Every operation of every @readme/oas-examples document: the mock
/// answers without panicking and never with a 5xx it was not asked for.
#[test]
fn every_readme_example_operation_gets_an_answer() {
    use openapi2mcp::mock::synth::Synth;
    let Some(base) = external("@readme/oas-examples") else {
        return;
    };
    let mut answered = 0;
    let mut failures = Vec::new();
    for version in ["2.0", "3.0", "3.1"] {
        let dir = base.join(version).join("json");
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        entries.sort();
        for path in entries {
            let Ok((doc, _)) = document::load(path.to_str().unwrap(), &LoadOptions::default())
            else {
                continue;
            };
            let (server, _) = MockServer::new(&doc, MockOptions::default());
            let mut diags = Vec::new();
            let ops = doc.operations(&mut diags);
            let mut synth = Synth::new(0);
            let mut bundler = openapi2mcp::tools::bundle::SchemaBundler::new(&doc);
            for op in &ops {
                let (target, req) = request_for(&doc, op, &mut synth, &mut bundler);
                let resp = server.respond(&req);
                answered += 1;
                let documented_5xx = resp.status >= 500;
                if documented_5xx || resp.status == 404 || resp.status == 405 {
                    failures.push(format!(
                        "{}: {} {target}: {} {}",
                        path.display(),
                        op.method,
                        resp.status,
                        String::from_utf8_lossy(&resp.body)
                    ));
                }
            }
        }
    }
    assert!(answered > 300, "only {answered} operations");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Removes `readOnly` flags and `writeOnly` properties everywhere, so that
/// an input-direction conversion keeps every constraint of a response
/// (required, enum, bounds, patterns, `additionalProperties: false`).
fn response_semantics(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.remove("readOnly");
            let hidden: Vec<String> = map
                .get("properties")
                .and_then(Value::as_object)
                .map(|props| {
                    props
                        .iter()
                        .filter(|(_, p)| p.get("writeOnly") == Some(&Value::Bool(true)))
                        .map(|(k, _)| k.clone())
                        .collect()
                })
                .unwrap_or_default();
            if let Some(Value::Object(props)) = map.get_mut("properties") {
                for h in &hidden {
                    props.remove(h);
                }
            }
            if let Some(Value::Array(req)) = map.get_mut("required") {
                req.retain(|r| r.as_str().is_none_or(|r| !hidden.iter().any(|h| h == r)));
            }
            map.values_mut().for_each(response_semantics);
        }
        Value::Array(items) => items.iter_mut().for_each(response_semantics),
        _ => {}
    }
}

/// Every 6th GitHub operation: a request built from its path template
/// (synthesized path, required query and body values) gets a 2xx whose
/// synthesized body validates against the documented schema, strictly:
/// the document's own schema with response semantics (readOnly kept,
/// writeOnly dropped) converted in the input direction, which keeps
/// `required`, `enum`, bounds and patterns that output schemas relax, and
/// with formats checked.
#[test]
fn github_synthesized_responses_validate_against_the_documented_schemas() {
    use openapi2mcp::document::dialect::Direction;
    use openapi2mcp::mock::synth::Synth;
    use openapi2mcp::tools::bundle::SchemaBundler;
    use std::collections::BTreeSet;

    let Some(path) = external("@octokit/openapi/generated/api.github.com.json") else {
        return;
    };
    let started = std::time::Instant::now();
    let (doc, _) = document::load(path.to_str().unwrap(), &LoadOptions::default()).unwrap();
    let (server, _) = MockServer::new(
        &doc,
        MockOptions {
            seed: 0,
            examples: false,
            ..MockOptions::default()
        },
    );
    eprintln!("github mock built in {:?}", started.elapsed());
    let mut strict_root: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    response_semantics(&mut strict_root);
    let strict = Document::from_value("github-strict.json", strict_root).unwrap();
    let mut bundler = SchemaBundler::new(&strict);
    let mut diags = Vec::new();
    let ops = strict.operations(&mut diags);
    let mut synth = Synth::new(0);
    let mut synth_bundler = SchemaBundler::new(&strict);
    let mut checked = 0;
    let mut failures = Vec::new();
    for op in ops.iter().step_by(4) {
        let (target, req) = request_for(&strict, op, &mut synth, &mut synth_bundler);
        let resp = server.respond(&req);
        if !(200..300).contains(&resp.status) {
            failures.push(format!(
                "{} {target}: HTTP {} {}",
                op.method,
                resp.status,
                String::from_utf8_lossy(&resp.body)
            ));
            continue;
        }
        // The documented schema of that status.
        let Some(schema) = op
            .response(&resp.status.to_string())
            .and_then(|r| r.media("application/json"))
            .and_then(|m| m.schema())
        else {
            continue;
        };
        let mut deps = BTreeSet::new();
        let mut converted = bundler.convert(&schema, Direction::Input, &mut deps);
        let defs = bundler.defs(&deps, Direction::Input);
        if let Value::Object(m) = &mut converted {
            m.insert("$defs".into(), Value::Object(defs));
        }
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&converted)
            .unwrap();
        let body = resp.json().expect("a JSON body");
        checked += 1;
        // Overlapping `oneOf` branches in the document (one that accepts any
        // object, say) make the first branch's value match several: not
        // something a first-branch synthesizer can avoid.
        let overlapping = |e: &jsonschema::ValidationError<'_>| {
            e.to_string()
                .contains("valid under more than one of the schemas listed in the 'oneOf'")
        };
        if let Some(e) = validator.iter_errors(&body).find(|e| !overlapping(e)) {
            failures.push(format!(
                "{} {}: {e} at {} (schema at {})",
                op.method,
                op.path,
                e.instance_path(),
                e.schema_path()
            ));
        }
    }
    eprintln!(
        "github: {checked} responses checked in {:?}",
        started.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 200, "only {checked} operations had a JSON 2xx");
}
