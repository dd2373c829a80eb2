//! What belongs to one caller stays theirs over HTTP (issue #43): a
//! session answers only the person who opened it, a confirmation sends
//! one request however often it is sent back (in one process, and across
//! instances sharing a Redis store), and tasks and confirmations follow
//! the person a token names, not the token's bytes, so a refreshed token
//! keeps them. Tokens are signed here (see [`crate::authz`]) and checked
//! by the server against a JWKS served on loopback; requests go over real
//! HTTP to a recording backend.

use std::process::Stdio;
use std::time::Duration;

use jsonwebtoken::Algorithm;
use openapi2mcp::server::authz::AuthzOptions;
use openapi2mcp::server::transport::{HttpTransportOptions, bind_http};
use openapi2mcp::server::{Bridge, ServeOptions};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::authz::{Issuer, SigningKey, free_port, now};
use crate::backend::Backend;
use crate::identity_http::{Running, listening};
use crate::protocol::reply_of;
use crate::serve::{pet_reply, petstore};
use crate::support::local;

/// A server requiring OAuth tokens from `issuer`, serving `catalog` with
/// `options`; its MCP URL and the token that stops it.
async fn protected(
    issuer: &Issuer,
    catalog: openapi2mcp::tools::Catalog,
    options: ServeOptions,
    stateless: bool,
) -> (String, CancellationToken) {
    let port = free_port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let shutdown = CancellationToken::new();
    let bound = bind_http(
        Bridge::new(catalog, options).unwrap(),
        HttpTransportOptions {
            listen: format!("127.0.0.1:{port}").parse().unwrap(),
            stateless,
            authz: Some(AuthzOptions::new(&resource, &issuer.url, None)),
            ..HttpTransportOptions::default()
        },
        shutdown.clone(),
    )
    .await
    .unwrap();
    tokio::spawn(bound.run());
    (resource, shutdown)
}

/// A token for `subject`; `n` makes each one a different string (a
/// refreshed token of the same person).
fn token(key: &SigningKey, issuer: &Issuer, aud: &str, subject: &str, n: u64) -> String {
    key.sign(
        &json!({
            "iss": issuer.url, "aud": aud, "sub": subject, "jti": format!("{subject}-{n}"),
            "iat": now() - n, "nbf": now() - 5 - n, "exp": now() + 600,
        }),
        None,
    )
}

/// One request to `url`: the status, the session id answered (if any)
/// and the body.
async fn send(
    method: reqwest::Method,
    url: &str,
    token: &str,
    session: Option<&str>,
    body: Option<Value>,
) -> (u16, Option<String>, String) {
    let mut request = reqwest::Client::new()
        .request(method, url)
        .header("authorization", format!("Bearer {token}"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .timeout(Duration::from_secs(30));
    if let Some(id) = session {
        request = request
            .header("mcp-session-id", id)
            .header("mcp-protocol-version", "2025-06-18");
    }
    if let Some(body) = body {
        request = request.body(body.to_string());
    }
    let res = request.send().await.unwrap();
    let status = res.status().as_u16();
    let id = res
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_string());
    (status, id, res.text().await.unwrap())
}

/// Opens a session as the holder of `token`: its id.
async fn open_session(url: &str, token: &str) -> String {
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "it", "version": "1"}}});
    let (status, id, body) = send(reqwest::Method::POST, url, token, None, Some(init)).await;
    assert_eq!(status, 200, "{body}");
    let id = id.expect("a session id");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let (status, ..) = send(
        reqwest::Method::POST,
        url,
        token,
        Some(&id),
        Some(initialized),
    )
    .await;
    assert_eq!(status, 202);
    id
}

fn list_tools() -> Value {
    json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
}

#[tokio::test]
async fn a_session_answers_only_the_person_who_opened_it() {
    let key = SigningKey::load("rsa.pem", "rsa-1", Algorithm::RS256);
    let issuer = Issuer::start(vec![key.jwk()]).await;
    let backend = Backend::start(pet_reply).await;
    let options = crate::protocol::petstore_on(&backend);
    let (url, shutdown) = protected(&issuer, petstore(), options, false).await;
    let alice = token(&key, &issuer, &url, "alice", 0);
    let bob = token(&key, &issuer, &url, "bob", 0);
    let session = open_session(&url, &alice).await;
    let post = reqwest::Method::POST;

    let (status, _, body) = send(
        post.clone(),
        &url,
        &alice,
        Some(&session),
        Some(list_tools()),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(reply_of(&body)["result"]["tools"].is_array(), "{body}");

    // Bob's valid token with Alice's session id: as for an unknown session.
    let (status, _, body) =
        send(post.clone(), &url, &bob, Some(&session), Some(list_tools())).await;
    assert_eq!(
        (status, body.as_str()),
        (404, "Not Found: Session not found")
    );
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "get_pet", "arguments": {"petId": 1}}});
    let (status, ..) = send(post.clone(), &url, &bob, Some(&session), Some(call.clone())).await;
    assert_eq!(status, 404);
    assert!(
        backend.take().is_empty(),
        "Bob's call never reached the API"
    );
    // Nor can Bob end it.
    let (status, ..) = send(reqwest::Method::DELETE, &url, &bob, Some(&session), None).await;
    assert_eq!(status, 404);

    // Alice, with a refreshed token, is still herself.
    let refreshed = token(&key, &issuer, &url, "alice", 7);
    assert_ne!(refreshed, alice);
    let (status, _, body) = send(post.clone(), &url, &refreshed, Some(&session), Some(call)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(backend.take().len(), 1, "{body}");

    // Ended by Alice, it is gone for her too.
    // 204, not rmcp's 202: the official Python SDK warns on anything but
    // 200 or 204.
    let (status, ..) = send(reqwest::Method::DELETE, &url, &alice, Some(&session), None).await;
    assert_eq!(status, 204);
    let (status, ..) = send(post, &url, &alice, Some(&session), Some(list_tools())).await;
    assert_eq!(status, 404);
    shutdown.cancel();
}

/// A 2026-07-28 `tools/call` of `params` by the holder of `token`, from a
/// client that declared elicitation (and tasks, with `tasks`).
async fn call_as(url: &str, token: &str, method: &str, params: Value, tasks: bool) -> Value {
    let capabilities = if tasks {
        json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}})
    } else {
        json!({"elicitation": {}})
    };
    crate::protocol::rpc_2026_as(url, Some(token), method, params, capabilities).await
}

fn accepted(first: &Value, state: &str) -> Value {
    let mut retry = first.clone();
    retry["inputResponses"] =
        json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    retry["requestState"] = json!(state);
    retry
}

#[tokio::test]
async fn a_confirmation_sends_one_request_and_follows_the_person() {
    let key = SigningKey::load("rsa.pem", "rsa-1", Algorithm::RS256);
    let issuer = Issuer::start(vec![key.jwk()]).await;
    let backend = Backend::start(pet_reply).await;
    let options = crate::protocol::petstore_on(&backend);
    let (url, shutdown) = protected(&issuer, petstore(), options, true).await;
    let alice = token(&key, &issuer, &url, "alice", 0);
    let first = json!({"name": "delete_pet", "arguments": {"petId": 1}});

    let asked = call_as(&url, &alice, "tools/call", first.clone(), false).await;
    assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");
    let state = asked["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_string();

    // Bob cannot answer Alice's question.
    let bob = token(&key, &issuer, &url, "bob", 0);
    let stolen = call_as(&url, &bob, "tools/call", accepted(&first, &state), false).await;
    assert_eq!(stolen["error"]["code"], -32602, "{stolen}");
    assert!(backend.take().is_empty());

    // Alice answers with a refreshed token: the request is sent, once.
    let refreshed = token(&key, &issuer, &url, "alice", 3);
    let done = call_as(
        &url,
        &refreshed,
        "tools/call",
        accepted(&first, &state),
        false,
    )
    .await;
    assert_ne!(done["result"]["isError"], true, "{done}");
    assert_eq!(backend.take().len(), 1);

    // The same answer sent back again sends nothing.
    for holder in [&refreshed, &alice] {
        let replay = call_as(&url, holder, "tools/call", accepted(&first, &state), false).await;
        assert_eq!(replay["result"]["isError"], true, "{replay}");
        let text = replay["result"]["content"][0]["text"].as_str().unwrap();
        assert!(
            text.starts_with("Not sent") && text.contains("used already"),
            "{text}"
        );
        assert!(
            backend.take().is_empty(),
            "a replayed confirmation sent nothing"
        );
    }

    // A fresh question is answerable again.
    let asked = call_as(&url, &alice, "tools/call", first.clone(), false).await;
    let state = asked["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_string();
    let done = call_as(&url, &alice, "tools/call", accepted(&first, &state), false).await;
    assert_ne!(done["result"]["isError"], true, "{done}");
    assert_eq!(backend.take().len(), 1);
    shutdown.cancel();
}

#[tokio::test]
async fn a_task_follows_the_person_across_refreshed_tokens() {
    let key = SigningKey::load("rsa.pem", "rsa-1", Algorithm::RS256);
    let issuer = Issuer::start(vec![key.jwk()]).await;
    // The backend answers paths with /slow after a while: the call becomes a task.
    let backend = Backend::start(crate::protocol::slow_reply).await;
    let options = ServeOptions {
        base_url: Some(backend.url()),
        task_after: Duration::from_millis(200),
        ..ServeOptions::default()
    };
    let catalog = crate::protocol::files_catalog();
    let (url, shutdown) = protected(&issuer, catalog, options, true).await;
    let alice = token(&key, &issuer, &url, "alice", 0);
    let started = call_as(
        &url,
        &alice,
        "tools/call",
        json!({"name": "get_file", "arguments": {"name": "slow"}}),
        true,
    )
    .await;
    assert_eq!(started["result"]["resultType"], "task", "{started}");
    let id = started["result"]["taskId"].as_str().unwrap().to_string();

    let bob = token(&key, &issuer, &url, "bob", 0);
    let theirs = call_as(&url, &bob, "tasks/get", json!({"taskId": id}), true).await;
    assert_eq!(theirs["error"]["code"], -32602, "{theirs}");

    let refreshed = token(&key, &issuer, &url, "alice", 5);
    let mine = call_as(&url, &refreshed, "tasks/get", json!({"taskId": id}), true).await;
    assert!(mine.get("error").is_none(), "{mine}");
    assert_eq!(mine["result"]["taskId"], id.as_str(), "{mine}");
    shutdown.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmation_used_on_one_instance_is_refused_by_another_sharing_redis() {
    let Some(redis) = crate::support::system_program("redis-server", "redis-server") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let redis_port = free_port();
    let _redis = Running(
        std::process::Command::new(redis)
            .args(["--port", &redis_port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--dir"])
            .arg(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    listening(redis_port).await;
    let backend = Backend::start(pet_reply).await;
    let mut instances = Vec::new();
    let mut urls = Vec::new();
    for _ in 0..2 {
        let port = free_port();
        instances.push(Running(
            std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
                .args(["serve", local("specs/petstore.yaml").to_str().unwrap()])
                .args(["--transport", "http", "--stateless"])
                .args(["--listen", &format!("127.0.0.1:{port}")])
                .args(["--base-url", &format!("{}/v1", backend.url())])
                .args([
                    "--token-store",
                    &format!("redis://127.0.0.1:{redis_port}/0"),
                ])
                .env(
                    "OPENAPI2MCP_TOKEN_KEY",
                    "a-token-store-key-0123456789abcdef-xyz",
                )
                .env(
                    "OPENAPI2MCP_STATE_KEY",
                    "a-shared-state-key-0123456789abcdef-xyz",
                )
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap(),
        ));
        listening(port).await;
        urls.push(format!("http://127.0.0.1:{port}/mcp"));
    }
    let first = json!({"name": "delete_pet", "arguments": {"petId": 1}});
    let (_, asked) = crate::protocol::call_2026(&urls[0], first.clone(), true).await;
    assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");
    let state = asked["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_string();

    let (_, done) = crate::protocol::call_2026(&urls[0], accepted(&first, &state), true).await;
    assert_ne!(done["result"]["isError"], true, "{done}");
    assert_eq!(backend.take().len(), 1);

    // The other instance opens the state (the key is shared) but the
    // nonce is used: nothing is sent.
    let (_, replay) = crate::protocol::call_2026(&urls[1], accepted(&first, &state), true).await;
    assert_eq!(replay["result"]["isError"], true, "{replay}");
    let text = replay["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("used already"), "{text}");
    assert!(backend.take().is_empty());
    drop(instances);
}
