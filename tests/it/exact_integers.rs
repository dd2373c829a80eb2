//! Integers beyond 64 bits (issue 43, item 12): a client that writes
//! `123456789012345678901234567890` in a tool's arguments gets those
//! digits sent to the API, in the path, the query, a header and a JSON
//! body, over stdio and over HTTP, not `1.2345678901234568e29`. Two such
//! integers that read as the same 64-bit float cannot be told apart once
//! parsed: that call is refused and nothing is sent. The messages are
//! written by hand: an SDK client would parse and round the numbers
//! itself before sending them.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

use crate::backend::{Backend, Recorded, Reply};

const BIG: &str = "123456789012345678901234567890";
const NEG: &str = "-98765432109876543210987";
/// Reads as the same `f64` as [`BIG`].
const BIG_TWIN: &str = "123456789012345678901234567891";

fn ok(_: &Recorded) -> Reply {
    (200, "application/json", br#"{"ok":true}"#.to_vec())
}

fn doc() -> String {
    let int = json!({"type": "integer"});
    json!({
        "openapi": "3.1.0",
        "info": {"title": "Ledger", "version": "1"},
        "paths": {"/accounts/{id}/transfers": {"post": {
            "operationId": "create_transfer",
            "parameters": [
                {"name": "id", "in": "path", "required": true, "schema": int},
                {"name": "after", "in": "query", "schema": int},
                {"name": "X-Sequence", "in": "header", "schema": int}
            ],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {
                "type": "object",
                "properties": {
                    "amount": int,
                    "memo": {"type": "string"},
                    "refs": {"type": "array", "items": int}
                }
            }}}},
            "responses": {"200": {"description": "ok"}}
        }}}
    })
    .to_string()
}

/// A `tools/call` of `create_transfer` as a client would write it, the
/// numbers as given.
fn call_line(id: u32, account: &str, after: &str, amount: &str, refs: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"create_transfer","arguments":{{"id":{account},"after":{after},"X-Sequence":{after},"amount":{amount},"memo":"{BIG} in a string","refs":[{refs},7]}}}}}}"#
    )
}

/// What the API must have received for [`call_line`] with these numbers.
fn assert_sent_exactly(sent: &Recorded, account: &str, after: &str, amount: &str, refs: &str) {
    assert_eq!(
        sent.target,
        format!("/accounts/{account}/transfers?after={after}"),
        "path and query"
    );
    assert_eq!(sent.header("x-sequence"), Some(after), "header");
    let body = String::from_utf8_lossy(&sent.body);
    assert_eq!(
        body,
        format!(r#"{{"amount":{amount},"memo":"{BIG} in a string","refs":[{refs},7]}}"#),
        "body"
    );
}

fn spec_file() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.json");
    std::fs::write(&path, doc()).unwrap();
    (dir, path)
}

#[tokio::test]
async fn integers_beyond_64_bits_reach_the_api_as_written_over_stdio() {
    let backend = Backend::start(ok).await;
    let (_dir, spec) = spec_file();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args(["serve", "-q", "--base-url", &backend.url()])
        .arg(&spec)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let mut ask = async |line: String, id: Option<u64>| -> Option<Value> {
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
        let id = id?;
        for _ in 0..50 {
            let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
                .await
                .expect("the server answers")
                .unwrap()
                .expect("stdout open");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return Some(message);
            }
        }
        panic!("no answer to request {id}");
    };
    ask(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "hand-written", "version": "1"}}})
        .to_string(),
        Some(0),
    )
    .await;
    ask(
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into(),
        None,
    )
    .await;

    let answer = ask(call_line(1, BIG, NEG, BIG, NEG), Some(1))
        .await
        .unwrap();
    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
    let sent = backend.take();
    assert_eq!(sent.len(), 1);
    assert_sent_exactly(&sent[0], BIG, NEG, BIG, NEG);

    // 64-bit integers and small ones are as before.
    let answer = ask(
        call_line(2, "18446744073709551615", "-9223372036854775808", "5", "1"),
        Some(2),
    )
    .await
    .unwrap();
    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
    let sent = backend.take();
    assert_sent_exactly(
        &sent[0],
        "18446744073709551615",
        "-9223372036854775808",
        "5",
        "1",
    );

    // Two integers that read as one number: refused, nothing sent.
    let answer = ask(call_line(3, BIG, NEG, BIG_TWIN, NEG), Some(3))
        .await
        .unwrap();
    let text = answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert_eq!(answer["result"]["isError"], json!(true), "{answer}");
    assert!(
        text.contains(BIG) && text.contains(BIG_TWIN),
        "names both: {text}"
    );
    assert!(backend.take().is_empty(), "nothing reached the API");
}

#[tokio::test]
async fn integers_beyond_64_bits_reach_the_api_as_written_over_http() {
    let backend = Backend::start(ok).await;
    let (_dir, spec) = spec_file();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args(["serve", "--transport", "http", "--stateless"])
        .args(["--listen", "127.0.0.1:0", "--base-url", &backend.url()])
        .arg(&spec)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let (url, mut lines) = crate::support::announced_endpoint(&mut child, |_| {}).await;
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    let post = async |body: String| {
        reqwest::Client::new()
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18")
            .body(body)
            .timeout(Duration::from_secs(30))
            .send()
            .await
            .unwrap_or_else(|e| panic!("POST {url}: {e:?}"))
    };
    let answer = post(call_line(1, NEG, BIG, NEG, BIG)).await;
    assert_eq!(answer.status(), 200);
    let answer: Value = answer.json().await.unwrap();
    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
    let sent = backend.take();
    assert_eq!(sent.len(), 1);
    assert_sent_exactly(&sent[0], NEG, BIG, NEG, BIG);

    // A body past the server's 16 MiB is refused before it is read whole.
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"create_transfer","arguments":{{"id":1,"memo":"{}"}}}}}}"#,
        "x".repeat(17 << 20)
    );
    assert_eq!(post(huge).await.status(), 413);
    assert!(backend.take().is_empty());
}
