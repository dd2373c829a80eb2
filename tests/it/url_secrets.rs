//! Secrets in URLs (issue 43, item 4): a `--base-url` with user info
//! (sent as Basic authentication) and an apiKey-in-query credential reach
//! the API, and nowhere else: not in a tool's error result, not in the
//! unauthenticated `/readyz` (nor `/healthz`, `/metrics`), not in a debug
//! log, not in an exported span. The release binary serves over HTTP.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use serde_json::{Value, json};

use crate::backend::{Backend, Recorded, Reply};

const USER: &str = "alice-the-user";
const PASSWORD: &str = "Pa55w0rd-s3cret";
const QUERY_KEY: &str = "QK-s3cret-value-123";

fn api_reply(r: &Recorded) -> Reply {
    if r.target.contains("/items/missing") {
        return (
            404,
            "application/json",
            br#"{"message":"no such item"}"#.to_vec(),
        );
    }
    (200, "application/json", br#"{"ok":true}"#.to_vec())
}

fn accepted(_: &Recorded) -> Reply {
    (200, "application/x-protobuf", Vec::new())
}

fn doc() -> String {
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Secrets", "version": "1"},
        "components": {"securitySchemes": {
            "querykey": {"type": "apiKey", "in": "query", "name": "api_key"}
        }},
        "security": [{"querykey": []}],
        "paths": {"/items/{id}": {"get": {
            "operationId": "get_item",
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                           {"name": "page", "in": "query", "schema": {"type": "integer"}}],
            "responses": {"200": {"description": "ok"}}
        }}}
    })
    .to_string()
}

async fn post(url: &str, body: Value) -> String {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(body.to_string())
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

async fn get(url: &str) -> String {
    reqwest::Client::new()
        .get(url)
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

fn assert_no_secret(what: &str, text: &str) {
    for secret in [USER, PASSWORD, QUERY_KEY] {
        assert!(!text.contains(secret), "{what} shows `{secret}`:\n{text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_in_urls_reach_the_api_and_nothing_else() {
    let backend = Backend::start(api_reply).await;
    let collector = Backend::start(accepted).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("api.json");
    std::fs::write(&path, doc()).unwrap();
    let base = format!("http://{USER}:{PASSWORD}@{}/v1", backend.addr);
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args(["serve", "--transport", "http", "--stateless"])
        .args(["--listen", "127.0.0.1:0", "--base-url", &base])
        .arg("--ready-check-backend")
        .arg("--otlp")
        .arg(format!("{}/v1/traces", collector.url()))
        .arg(&path)
        .env("RUST_LOG", "debug")
        .env("OPENAPI2MCP_QUERYKEY_KEY", QUERY_KEY)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let log = Arc::new(Mutex::new(String::new()));
    let (url, mut lines) = crate::support::announced_endpoint(&mut child, |line| {
        log.lock().unwrap().push_str(&format!("{line}\n"))
    })
    .await;
    let shared = Arc::clone(&log);
    let reader = tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            shared.lock().unwrap().push_str(&format!("{line}\n"));
        }
    });
    let origin = url.trim_end_matches("/mcp").to_string();

    // An error result: the request line names the API, not its credentials.
    let answer = post(
        &url,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "get_item", "arguments": {"id": "missing", "page": 2}}}),
    )
    .await;
    assert!(answer.contains("404"), "{answer}");
    assert!(answer.contains("/v1/items/missing"), "{answer}");
    assert_no_secret("the error result", &answer);

    // The API got both credentials.
    let sent = backend.take();
    assert_eq!(sent.len(), 1, "{sent:?}");
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{PASSWORD}"));
    assert_eq!(
        sent[0].header("authorization"),
        Some(format!("Basic {basic}").as_str())
    );
    assert!(
        sent[0].target.contains(&format!("api_key={QUERY_KEY}")),
        "{}",
        sent[0].target
    );

    // The health answers, unauthenticated.
    let ready = get(&format!("{origin}/readyz")).await;
    assert!(ready.contains("\"backend\""), "{ready}");
    assert_no_secret("/readyz", &ready);
    assert_no_secret("/healthz", &get(&format!("{origin}/healthz")).await);
    assert_no_secret("/metrics", &get(&format!("{origin}/metrics")).await);
    backend.take();

    // SIGTERM: the spans are flushed, the log ends.
    let pid = child.id().unwrap().to_string();
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status();
    let _ = tokio::time::timeout(Duration::from_secs(20), child.wait()).await;
    let _ = tokio::time::timeout(Duration::from_secs(5), reader).await;

    let log = log.lock().unwrap().clone();
    assert!(
        log.contains("DEBUG"),
        "RUST_LOG=debug writes debug lines: {log}"
    );
    assert_no_secret("the debug log", &log);
    assert!(
        !log.contains('\u{1b}'),
        "a log written to a pipe carries no colour codes: {log}"
    );

    let exports = collector.take();
    assert!(!exports.is_empty(), "no spans were exported");
    let mut urls = 0;
    for export in &exports {
        let raw = String::from_utf8_lossy(&export.body);
        assert_no_secret("an exported span", &raw);
        urls += raw.matches("url.full").count();
    }
    assert!(urls >= 1, "the request span carries url.full");
}
