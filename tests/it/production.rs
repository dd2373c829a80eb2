//! Production serving over HTTP: the operations endpoints (`/healthz`,
//! `/readyz`, `/metrics` scraped after real calls), hot reload of the
//! document under live sessions (file watch, direct reload, SIGHUP), and
//! graceful shutdown that lets a call in flight finish.

use std::sync::Arc;
use std::time::Duration;

use openapi2mcp::pipeline::{self, PipelineOptions};
use openapi2mcp::reload::{ReloadOutcome, Reloader};
use openapi2mcp::runtime::schemas::Schemas;
use openapi2mcp::server::transport::{HttpTransportOptions, bind_http};
use openapi2mcp::server::{Bridge, ServeOptions};
use rmcp::ServiceExt;
use rmcp::service::{NotificationContext, RoleClient};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::backend::{Backend, Recorded, Reply};

/// A document with one GET operation per `(operationId, path)`.
fn doc(ops: &[(&str, &str)]) -> String {
    let mut paths = serde_json::Map::new();
    for (id, path) in ops {
        paths.insert(
            path.to_string(),
            json!({"get": {"operationId": id, "responses": {"200": {"description": "ok",
                "content": {"application/json": {"schema": {"type": "object"}}}}}}}),
        );
    }
    json!({"openapi": "3.0.3", "info": {"title": "Ops", "version": "1"}, "paths": paths})
        .to_string()
}

fn ok_reply(r: &Recorded) -> Reply {
    if r.target.starts_with("/missing") {
        return (404, "application/json", br#"{"message":"no"}"#.to_vec());
    }
    (200, "application/json", br#"{"ok":true}"#.to_vec())
}

struct Served {
    url: String,
    origin: String,
    shutdown: CancellationToken,
    bridge: Bridge,
    file: tempfile::NamedTempFile,
}

/// Serves the document `text` (written to a temp file and loaded through
/// the pipeline) over HTTP against `backend`.
async fn serve_doc(
    text: &str,
    backend: &Backend,
    stateless: bool,
    tweak: impl FnOnce(&mut ServeOptions, &mut HttpTransportOptions),
) -> Served {
    let file = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    std::fs::write(file.path(), text).unwrap();
    let loaded =
        pipeline::load_catalog(file.path().to_str().unwrap(), &PipelineOptions::default()).unwrap();
    let mut options = ServeOptions {
        base_url: Some(backend.url()),
        schemas: Schemas(loaded.schemas),
        ..ServeOptions::default()
    };
    let mut http = HttpTransportOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        stateless,
        ..HttpTransportOptions::default()
    };
    tweak(&mut options, &mut http);
    let bridge = Bridge::new(loaded.catalog, options).unwrap();
    let shutdown = CancellationToken::new();
    let bound = bind_http(bridge.clone(), http, shutdown.clone())
        .await
        .unwrap();
    let origin = format!("http://{}", bound.local_addr);
    tokio::spawn(bound.run());
    Served {
        url: format!("{origin}/mcp"),
        origin,
        shutdown,
        bridge,
        file,
    }
}

async fn post(url: &str, body: Value) -> String {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(body.to_string())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

async fn call_http(url: &str, tool: &str, args: Value) -> String {
    post(
        url,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": tool, "arguments": args}}),
    )
    .await
}

/// The value of the Prometheus sample named `name` whose labels include
/// every one of `labels` (0 when absent).
fn sample(text: &str, name: &str, labels: &[&str]) -> f64 {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter(|l| {
            l.split(['{', ' ']).next() == Some(name) && labels.iter().all(|x| l.contains(x))
        })
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

#[tokio::test]
async fn probes_answer_and_metrics_count_calls() {
    let backend = Backend::start(ok_reply).await;
    let text = doc(&[
        ("get_metrics_probe_ok", "/ok"),
        ("get_metrics_probe_missing", "/missing"),
        ("get_metrics_probe_slow", "/slow"),
    ]);
    let served = serve_doc(&text, &backend, true, |o, h| {
        o.rate_limit = Some((0.2, 3));
        h.ready_url = Some(backend.url());
    })
    .await;
    let get = |path: &str| reqwest::get(format!("{}{path}", served.origin));

    let res = get("/healthz").await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.text().await.unwrap(), "ok\n");
    let res = get("/readyz").await.unwrap();
    assert_eq!(res.status(), 200);
    let ready: Value = res.json().await.unwrap();
    assert_eq!(ready["ready"], true, "{ready}");
    assert_eq!(ready["tools"], 3, "{ready}");
    assert_eq!(ready["backend"]["status"], 200, "{ready}");

    // Calls: ok, an API error, invalid arguments, then over the rate limit.
    call_http(&served.url, "get_metrics_probe_ok", json!({})).await;
    call_http(&served.url, "get_metrics_probe_missing", json!({})).await;
    call_http(
        &served.url,
        "get_metrics_probe_ok",
        json!({"unexpected": 1}),
    )
    .await;
    // Invalid arguments take no token: one of the burst of 3 is left; a slow call takes it and stays
    // in flight while /metrics is scraped, and the next call is refused.
    let slow_url = served.url.clone();
    let slow =
        tokio::spawn(
            async move { call_http(&slow_url, "get_metrics_probe_slow", json!({})).await },
        );
    tokio::time::sleep(Duration::from_millis(700)).await;
    let limited = call_http(&served.url, "get_metrics_probe_ok", json!({})).await;
    assert!(limited.contains("Rate limit"), "{limited}");

    let scrape = get("/metrics").await.unwrap();
    assert_eq!(scrape.status(), 200);
    assert!(
        scrape.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let m = scrape.text().await.unwrap();
    let calls = "openapi2mcp_tool_calls_total";
    assert_eq!(
        sample(
            &m,
            calls,
            &["tool=\"get_metrics_probe_ok\"", "outcome=\"ok\""]
        ),
        1.0,
        "{m}"
    );
    assert_eq!(
        sample(
            &m,
            calls,
            &["tool=\"get_metrics_probe_missing\"", "outcome=\"error\""]
        ),
        1.0,
        "{m}"
    );
    assert_eq!(
        sample(
            &m,
            calls,
            &["tool=\"get_metrics_probe_ok\"", "outcome=\"invalid\""]
        ),
        1.0,
        "{m}"
    );
    assert_eq!(
        sample(
            &m,
            calls,
            &["tool=\"get_metrics_probe_ok\"", "outcome=\"rate_limited\""]
        ),
        1.0,
        "{m}"
    );
    assert!(
        sample(&m, "openapi2mcp_rate_limit_rejections_total", &[]) >= 1.0,
        "{m}"
    );
    assert_eq!(
        sample(
            &m,
            "openapi2mcp_backend_request_duration_seconds_count",
            &["tool=\"get_metrics_probe_ok\""]
        ),
        1.0,
        "{m}"
    );
    assert_eq!(sample(&m, "openapi2mcp_calls_in_flight", &[]), 1.0, "{m}");
    assert_eq!(sample(&m, "openapi2mcp_tools", &[]), 3.0, "{m}");

    let done = slow.await.unwrap();
    assert!(
        done.contains(r#"\"ok\":true"#) || done.contains(r#""ok":true"#),
        "{done}"
    );
    let m = get("/metrics").await.unwrap().text().await.unwrap();
    assert_eq!(sample(&m, "openapi2mcp_calls_in_flight", &[]), 0.0, "{m}");
    assert_eq!(
        sample(
            &m,
            calls,
            &["tool=\"get_metrics_probe_slow\"", "outcome=\"ok\""]
        ),
        1.0,
        "{m}"
    );
    served.shutdown.cancel();

    // /readyz fails while the API does not answer.
    let dead = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    let served = serve_doc(&text, &backend, true, |_, h| h.ready_url = Some(dead)).await;
    let res = reqwest::get(format!("{}/readyz", served.origin))
        .await
        .unwrap();
    assert_eq!(res.status(), 503);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["ready"], false, "{body}");
    assert!(body["backend"]["error"].is_string(), "{body}");
    served.shutdown.cancel();
}

/// A client that counts `notifications/tools/list_changed`.
#[derive(Clone, Default)]
struct ListChanged(Arc<tokio::sync::Notify>);

impl rmcp::ClientHandler for ListChanged {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.0.notify_one();
    }
}

async fn tool_names(
    client: &rmcp::service::RunningService<RoleClient, ListChanged>,
) -> Vec<String> {
    let mut names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        // The API's tools (get_call_result is listed with any).
        .filter(|n| n != "get_call_result")
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn a_changed_document_reaches_live_sessions_and_a_broken_one_is_refused() {
    let backend = Backend::start(ok_reply).await;
    let served = serve_doc(
        &doc(&[("get_alpha", "/alpha"), ("get_slow", "/slow")]),
        &backend,
        false,
        |_, _| {},
    )
    .await;
    let path = served.file.path().to_str().unwrap().to_string();
    let reloader = Reloader::new(&path, PipelineOptions::default(), served.bridge.clone());
    reloader.spawn_watch(Duration::from_secs(1)).unwrap();

    use rmcp::transport::StreamableHttpClientTransport;
    let seen = ListChanged::default();
    let client = seen
        .clone()
        .serve(StreamableHttpClientTransport::from_uri(served.url.clone()))
        .await
        .unwrap();
    assert_eq!(tool_names(&client).await, ["get_alpha", "get_slow"]);

    // A call in flight (the backend takes 3 s on /slow) while the file
    // changes to a document without that tool: it finishes on the old catalog.
    let slow_client = client.peer().clone();
    let slow = tokio::spawn(async move {
        slow_client
            .call_tool(rmcp::model::CallToolRequestParams::new("get_slow"))
            .await
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    std::fs::write(
        &path,
        doc(&[("get_alpha", "/alpha"), ("get_beta", "/beta")]),
    )
    .unwrap();
    tokio::time::timeout(Duration::from_secs(10), seen.0.notified())
        .await
        .expect("list_changed arrives after the file changes");
    assert_eq!(tool_names(&client).await, ["get_alpha", "get_beta"]);
    let got = client
        .call_tool(rmcp::model::CallToolRequestParams::new("get_beta"))
        .await
        .unwrap();
    assert_eq!(got.is_error, Some(false), "{got:?}");
    let finished = slow.await.unwrap().expect("the call in flight is answered");
    assert_eq!(finished.is_error, Some(false), "{finished:?}");
    assert_eq!(finished.structured_content, Some(json!({"ok": true})));

    // A broken document: the old tools keep serving.
    std::fs::write(&path, "openapi: [this is not a document").unwrap();
    let outcome = reloader.reload("test").await;
    let ReloadOutcome::Kept(why) = outcome else {
        panic!("a broken document replaced the catalog: {outcome:?}");
    };
    assert!(
        why.contains(&path) || why.contains("parse") || why.contains("YAML"),
        "{why}"
    );
    assert_eq!(tool_names(&client).await, ["get_alpha", "get_beta"]);
    // A document with no operations is refused too.
    std::fs::write(&path, doc(&[])).unwrap();
    assert!(matches!(
        reloader.reload("test").await,
        ReloadOutcome::Kept(_)
    ));
    assert_eq!(tool_names(&client).await, ["get_alpha", "get_beta"]);
    client.cancel().await.unwrap();
    served.shutdown.cancel();
}

#[tokio::test]
async fn sighup_reloads_and_sigterm_lets_the_call_in_flight_finish() {
    let backend = Backend::start(ok_reply).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("api.json");
    std::fs::write(
        &path,
        doc(&[("get_alpha", "/alpha"), ("get_slow", "/slow")]),
    )
    .unwrap();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args([
            "serve",
            "-q",
            "--transport",
            "http",
            "--stateless",
            "--listen",
            "127.0.0.1:0",
        ])
        .args(["--base-url", &backend.url(), "--shutdown-grace", "20"])
        .arg(&path)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let (url, mut lines) = crate::support::announced_endpoint(&mut child, |_| {}).await;
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    let list = || {
        post(
            &url,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        )
    };
    assert!(!list().await.contains("get_beta"));
    std::fs::write(&path, doc(&[("get_beta", "/beta"), ("get_slow", "/slow")])).unwrap();
    let pid = child.id().unwrap() as i32;
    // SAFETY: plain kill(2) on our own child.
    assert_eq!(unsafe { kill(pid, 1) }, 0);
    let mut reloaded = false;
    for _ in 0..100 {
        if list().await.contains("get_beta") {
            reloaded = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(reloaded, "SIGHUP did not reload the document");

    // SIGTERM while a call is in flight: it is answered, then the process exits 0.
    let slow_url = url.clone();
    let slow = tokio::spawn(async move { call_http(&slow_url, "get_slow", json!({})).await });
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(unsafe { kill(pid, 15) }, 0);
    let answer = tokio::time::timeout(Duration::from_secs(15), slow)
        .await
        .expect("the call in flight is answered")
        .unwrap();
    assert!(
        answer.contains(r#"\"ok\":true"#) || answer.contains(r#""ok":true"#),
        "{answer}"
    );
    let status = tokio::time::timeout(Duration::from_secs(15), child.wait())
        .await
        .expect("exits after SIGTERM")
        .unwrap();
    assert!(status.success(), "{status:?}");
    assert!(backend.take().iter().any(|r| r.target == "/slow"));
}

unsafe extern "C" {
    fn kill(pid: i32, sig: i32) -> i32;
}
