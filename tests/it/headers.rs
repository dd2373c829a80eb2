//! `--header`: a static upstream header for documents that declare no
//! security scheme (Jupyter Server's token) or headers an API wants of
//! every caller. Real `serve` processes over stdio (rmcp's client) and a
//! recording backend on 127.0.0.1: the backend sees the header on every
//! request, the model is not asked for a header parameter the operator
//! supplies, a backend echoing the value back has it masked, and the value
//! never appears in the server's debug log; a bad `--header` stops
//! start-up with an error naming the header and the variable, not the
//! value.

use std::process::Stdio;
use std::time::Duration;

use serde_json::json;

use crate::backend::{Backend, Recorded, Reply};
use crate::support::{StdioServed, call_tool, root, serve_stdio};

const TOKEN: &str = "jupyter-t0ken-s3cret";
const KEY: &str = "api-k3y-s3cret";

/// Answers with the request's Authorization header in the body, as a
/// careless (or hostile) backend might.
fn echo(seen: &Recorded) -> Reply {
    let body = json!({
        "version": "2.14.0",
        "echo": seen.header("authorization").unwrap_or_default(),
        "key": seen.header("x-api-key").unwrap_or_default(),
    });
    (200, "application/json", body.to_string().into_bytes())
}

/// A document with a required `X-Api-Key` header parameter and no
/// security scheme.
fn keyed_document(dir: &std::path::Path, base: &str) -> std::path::PathBuf {
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "Keyed", "version": "1"},
        "servers": [{"url": base}],
        "paths": {"/things/{id}": {"get": {
            "operationId": "getThing",
            "summary": "Get a thing",
            "parameters": [
                {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                {"name": "X-Api-Key", "in": "header", "required": true, "schema": {"type": "string"}},
                {"name": "X-Request-Tag", "in": "header", "schema": {"type": "string"}}
            ],
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"type": "object"}}}}}
        }}}
    });
    let path = dir.join("keyed.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

/// `serve ARGS` on stdio with the test's credentials in its environment.
async fn serve(args: &[&str]) -> StdioServed {
    serve_stdio(
        args,
        &[("O2M_TEST_JUPYTER_TOKEN", TOKEN), ("O2M_TEST_KEY", KEY)],
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_header_reaches_the_api_on_every_call_and_nowhere_else() {
    let backend = Backend::start(echo).await;
    // Jupyter Server's document declares no security scheme; its token
    // goes in `Authorization: token …`.
    let jupyter = root().join("tests/fixtures/jupyter-server-api.yaml");
    let served = serve(&[
        jupyter.to_str().unwrap(),
        "--base-url",
        &backend.url(),
        "--header",
        "Authorization: token ${O2M_TEST_JUPYTER_TOKEN}",
        "--header",
        "X-Tenant: acme",
    ])
    .await;
    for _ in 0..2 {
        let result = call_tool(&served, "get_jupyter_server_version", json!({})).await;
        assert_ne!(result["isError"], true, "{result}");
        let seen = backend.take();
        assert_eq!(seen.len(), 1);
        assert_eq!(
            seen[0].header("authorization"),
            Some(format!("token {TOKEN}").as_str())
        );
        assert_eq!(seen[0].header("x-tenant"), Some("acme"));
        // The backend echoed the token: masked in what the model reads.
        let text = result.to_string();
        assert!(!text.contains(TOKEN), "{text}");
        assert!(text.contains("***"), "{text}");
    }
    let log = std::sync::Arc::clone(&served.log);
    served.client.cancel().await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let log = log.lock().unwrap().clone();
    assert!(
        log.contains("Authorization"),
        "the log names the header: {log}"
    );
    assert!(!log.contains(TOKEN), "the token is in the log: {log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_supplied_header_parameter_is_not_asked_of_the_model() {
    let backend = Backend::start(echo).await;
    let dir = std::env::temp_dir().join(format!("openapi2mcp-headers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spec = keyed_document(&dir, &backend.url());
    let served = serve(&[
        spec.to_str().unwrap(),
        "--header",
        "x-api-key: ${O2M_TEST_KEY}",
    ])
    .await;
    let tools = served.client.list_all_tools().await.unwrap();
    let schema = serde_json::to_value(&tools[0].input_schema).unwrap();
    assert_eq!(schema["required"], json!(["id"]), "{schema}");
    assert!(schema["properties"].get("X-Api-Key").is_none(), "{schema}");
    assert!(
        schema["properties"].get("X-Request-Tag").is_some(),
        "{schema}"
    );
    // Called without the key: the operator's reaches the API.
    let result = call_tool(
        &served,
        "get_thing",
        json!({"id": "7", "X-Request-Tag": "t"}),
    )
    .await;
    assert_ne!(result["isError"], true, "{result}");
    let seen = backend.take();
    assert_eq!(seen[0].target, "/things/7");
    assert_eq!(seen[0].header("x-api-key"), Some(KEY));
    assert_eq!(seen[0].header("x-request-tag"), Some("t"));
    // A model that sends the header anyway cannot replace it.
    let result = call_tool(
        &served,
        "get_thing",
        json!({"id": "7", "X-Api-Key": "forged"}),
    )
    .await;
    let seen = backend.take();
    if result["isError"] != true {
        assert_eq!(seen[0].header("x-api-key"), Some(KEY));
    } else {
        assert!(seen.is_empty(), "{result}");
    }
    served.client.cancel().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_header_stops_start_up_naming_it_and_not_its_value() {
    let spec = root().join("specs/petstore.yaml");
    let run = |header: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
            .args(["serve", spec.to_str().unwrap(), "--header", header])
            .env_remove("O2M_TEST_UNSET")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{header}");
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let unset = run("X-Key: ${O2M_TEST_UNSET}");
    assert!(
        unset.contains("--header") && unset.contains("`X-Key`") && unset.contains("O2M_TEST_UNSET"),
        "{unset}"
    );
    let pasted = run("s3cret-without-a-name");
    assert!(pasted.contains("not `Name: value`"), "{pasted}");
    assert!(!pasted.contains("s3cret"), "{pasted}");
    let broken = run("X-Key: one\ttwo\u{1}");
    assert!(broken.contains("cannot carry"), "{broken}");
    assert!(!broken.contains("one"), "{broken}");
}
