//! Long-running operations end to end: a real HTTP backend on 127.0.0.1
//! that answers `202 Accepted` with a status URL and finishes after a few
//! polls, called through `tools/call` (the blocking behaviour every client
//! gets) and through the runtime's `Monitor` (what a server mapping the
//! operation to a task uses), with `specs/report-exports.yaml`.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use openapi2mcp::runtime::auth::Credentials;
use openapi2mcp::runtime::call::{Api, ApiOptions, Call, ToolEndpoint};
use openapi2mcp::runtime::lro::{LroMode, LroPoll};
use openapi2mcp::server::ServeOptions;
use openapi2mcp::tools::Catalog;
use rmcp::ServiceExt;
use serde_json::{Value, json};

use crate::serve::{catalog_at, connect};
use crate::support::local;
use crate::support::{call, text_of};

/// One request as the backend saw it, and when.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    path: String,
    authorization: Option<String>,
    at: Instant,
}

/// What the backend answers: status, headers, JSON body (`Null`: none).
type Answer = (u16, Vec<(&'static str, String)>, Value);

/// How the backend answers: the request, and how many requests for the
/// same method and path came before it (0 for the first).
type Script = dyn Fn(&Seen, usize) -> Answer + Send + Sync;

/// A backend on its own port (its own origin) that answers by `script`
/// and records every request.
struct Backend {
    addr: SocketAddr,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Backend {
    async fn start(script: impl Fn(&Seen, usize) -> Answer + Send + Sync + 'static) -> Self {
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let script: Arc<Script> = Arc::new(script);
        let log = Arc::clone(&seen);
        let app = axum::Router::new().fallback(move |req: Request| {
            let log = Arc::clone(&log);
            let script = Arc::clone(&script);
            async move {
                let request = Seen {
                    method: req.method().to_string(),
                    path: req.uri().path().to_string(),
                    authorization: req
                        .headers()
                        .get("authorization")
                        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned()),
                    at: Instant::now(),
                };
                let before = {
                    let mut log = log.lock().unwrap();
                    let n = log
                        .iter()
                        .filter(|s| s.method == request.method && s.path == request.path)
                        .count();
                    log.push(request.clone());
                    n
                };
                let (status, headers, body) = script(&request, before);
                let mut response = Response::builder().status(status);
                for (name, value) in headers {
                    response = response.header(name, value);
                }
                let body = if body.is_null() {
                    Body::empty()
                } else {
                    response = response.header("content-type", "application/json");
                    Body::from(body.to_string())
                };
                response.body(body).unwrap()
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { addr, seen }
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

const TOKEN: &str = "tok-S3cret-lro";

fn report() -> Value {
    json!({"id": "r1", "reportName": "sales/q1", "format": "csv", "rows": 1204})
}

fn exports() -> Catalog {
    catalog_at(&local("specs/report-exports.yaml"))
}

fn options(api: &Backend) -> ServeOptions {
    ServeOptions {
        base_url: Some(format!("{}/v1", api.url())),
        credentials: Credentials::from_pairs([("OPENAPI2MCP_BEARERAUTH_TOKEN", TOKEN)]),
        // The operations' HTTP is checked here; confirming DELETEs is protocol.rs's.
        confirm: openapi2mcp::server::confirm::ConfirmPolicy::None,
        ..ServeOptions::default()
    }
}

fn start_args() -> Value {
    json!({"reportName": "sales/q1", "format": "csv"})
}

/// `POST /v1/exports` → 202 + `Location` + `Retry-After: 1`; the status
/// is `Running` twice, then `Succeeded` with the report's location.
fn three_polls(seen: &Seen, before: usize) -> Answer {
    match (seen.method.as_str(), seen.path.as_str()) {
        ("POST", "/v1/exports") => (
            202,
            vec![
                ("location", "/v1/exports/e1".into()),
                ("retry-after", "1".into()),
            ],
            json!({"id": "e1", "status": "NotStarted"}),
        ),
        ("GET", "/v1/exports/e1") if before < 2 => (
            200,
            vec![("retry-after", "1".into())],
            json!({"id": "e1", "status": "Running", "percentComplete": 30 * (before + 1)}),
        ),
        ("GET", "/v1/exports/e1") => (
            200,
            vec![],
            json!({"id": "e1", "status": "Succeeded", "resourceLocation": "/v1/reports/r1"}),
        ),
        ("GET", "/v1/reports/r1") => (200, vec![], report()),
        ("DELETE", "/v1/exports/e1") => (202, vec![], Value::Null),
        _ => (
            404,
            vec![],
            json!({"code": "NotFound", "message": "no such thing"}),
        ),
    }
}

#[tokio::test]
async fn a_blocking_call_over_stdio_returns_the_final_report_after_polls_spaced_by_retry_after() {
    use rmcp::transport::TokioChildProcess;
    let api = Backend::start(three_polls).await;
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.arg("serve")
        .arg(local("specs/report-exports.yaml"))
        .arg("--base-url")
        .arg(format!("{}/v1", api.url()))
        .env("OPENAPI2MCP_BEARERAUTH_TOKEN", TOKEN);
    let client =
        ().serve(TokioChildProcess::new(cmd).unwrap())
            .await
            .expect("spawned server speaks MCP on stdout");
    let got = call(&client, "start_export", start_args()).await;
    client.cancel().await.unwrap();
    assert_ne!(got.is_error, Some(true), "{}", text_of(&got));
    // The report itself, not the 202's status body.
    assert_eq!(got.structured_content, Some(report()));
    assert!(!text_of(&got).contains("NotStarted"), "{}", text_of(&got));
    let seen = api.seen();
    let trail: Vec<(&str, &str)> = seen
        .iter()
        .map(|s| (s.method.as_str(), s.path.as_str()))
        .collect();
    assert_eq!(
        trail,
        [
            ("POST", "/v1/exports"),
            ("GET", "/v1/exports/e1"),
            ("GET", "/v1/exports/e1"),
            ("GET", "/v1/exports/e1"),
            ("GET", "/v1/reports/r1"),
        ]
    );
    // Each poll waited for the Retry-After of the answer before it.
    for pair in seen[..4].windows(2) {
        let gap = pair[1].at - pair[0].at;
        assert!(gap >= Duration::from_millis(950), "polled after {gap:?}");
    }
    // Polls and the final GET carry the call's credentials (same origin).
    let bearer = format!("Bearer {TOKEN}");
    assert!(
        seen.iter()
            .all(|s| s.authorization.as_deref() == Some(bearer.as_str())),
        "{seen:?}"
    );
}

#[tokio::test]
async fn a_failed_operation_is_an_error_carrying_the_operations_error() {
    let api = Backend::start(|seen, _| match seen.method.as_str() {
        "POST" => (
            202,
            vec![
                ("location", "/v1/exports/e9".into()),
                ("retry-after", "0".into()),
            ],
            json!({"id": "e9", "status": "NotStarted"}),
        ),
        _ => (
            200,
            vec![],
            json!({"id": "e9", "status": "Failed", "error": {"code": "QuotaExceeded",
                "message": "The project exported 100 reports today"}}),
        ),
    })
    .await;
    let client = connect(exports(), options(&api)).await;
    let got = call(&client, "start_export", start_args()).await;
    assert_eq!(got.is_error, Some(true));
    assert_eq!(got.structured_content, None);
    let text = text_of(&got);
    assert!(
        text.contains("QuotaExceeded: The project exported 100 reports today"),
        "{text}"
    );
    assert!(text.contains("failed (status `Failed`"), "{text}");
    assert!(text.contains("POST http://127.0.0.1"), "{text}");
    assert_eq!(api.seen().len(), 2, "one poll, no final fetch");
}

#[tokio::test]
async fn a_status_url_on_another_origin_never_gets_the_apis_credentials() {
    let elsewhere =
        Backend::start(|_, _| (200, vec![], json!({"status": "Succeeded", "rows": 7}))).await;
    let status_url = format!("{}/status/e1?sig=abc123", elsewhere.url());
    let api = Backend::start(move |_, _| {
        (
            202,
            vec![
                ("location", status_url.clone()),
                ("retry-after", "0".into()),
            ],
            json!({"id": "e1", "status": "NotStarted"}),
        )
    })
    .await;
    // Not allowed: not followed at all; the 202 with a note, no secret.
    let client = connect(exports(), options(&api)).await;
    let got = call(&client, "start_export", start_args()).await;
    let text = text_of(&got);
    assert_ne!(got.is_error, Some(true), "{text}");
    assert!(text.contains("is not polled"), "{text}");
    assert!(
        text.contains(&format!(
            "--allow-redirect-origin http://{}",
            elsewhere.addr
        )),
        "{text}"
    );
    assert!(
        text.contains("sig=***") && !text.contains("abc123"),
        "{text}"
    );
    assert!(elsewhere.seen().is_empty());
    // Allowed: polled, without credentials.
    let mut allowed = options(&api);
    allowed.http.redirect_origins = vec![elsewhere.url()];
    let client = connect(exports(), allowed).await;
    let got = call(&client, "start_export", start_args()).await;
    assert_ne!(got.is_error, Some(true), "{}", text_of(&got));
    assert_eq!(
        got.structured_content,
        Some(json!({"status": "Succeeded", "rows": 7}))
    );
    let polls = elsewhere.seen();
    assert_eq!(polls.len(), 1, "{polls:?}");
    assert_eq!(polls[0].authorization, None);
    // The API itself did get its credentials.
    assert!(
        api.seen()
            .iter()
            .all(|s| s.authorization.as_deref() == Some(&*format!("Bearer {TOKEN}")))
    );
}

#[tokio::test]
async fn an_operation_past_the_lro_timeout_is_an_error_naming_its_status_url() {
    let api = Backend::start(|seen, n| match seen.method.as_str() {
        "POST" => (
            202,
            vec![("operation-location", "/v1/operations/op7".into())],
            json!({"id": "op7", "status": "Running"}),
        ),
        _ => (
            200,
            vec![("retry-after", "1".into())],
            json!({"id": "op7", "status": "Running", "percentComplete": n}),
        ),
    })
    .await;
    let mut options = options(&api);
    options.http.lro.timeout = Duration::from_millis(1500);
    let client = connect(exports(), options).await;
    let started = Instant::now();
    let got = call(&client, "start_export", start_args()).await;
    let took = started.elapsed();
    assert_eq!(got.is_error, Some(true));
    let text = text_of(&got);
    assert!(
        text.contains(&format!("{}/v1/operations/op7", api.url())),
        "{text}"
    );
    assert!(
        text.contains("within 1.5 seconds (--lro-timeout)"),
        "{text}"
    );
    assert!(text.contains("last status: Running ("), "{text}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert!(api.seen().len() >= 2, "it polled before giving up");
}

/// The catalog's tools as endpoints an `Api` calls.
fn endpoints(catalog: &Catalog) -> Vec<ToolEndpoint> {
    let object = |v: &Value| Arc::new(v.as_object().cloned().unwrap_or_default());
    catalog
        .tools
        .iter()
        .map(|t| ToolEndpoint {
            name: t.name.clone(),
            http: t.http.clone(),
            input_schema: object(&t.input_schema),
            output_schema: t.output_schema.clone(),
            input_full: None,
            output_full: None,
        })
        .collect()
}

#[tokio::test]
async fn a_returned_monitor_polls_and_cancels_through_the_documents_cancel_link() {
    let api = Backend::start(three_polls).await;
    let catalog = exports();
    let runtime = Api::with_endpoints(
        &catalog.security_schemes,
        endpoints(&catalog),
        ApiOptions {
            base_url: Some(format!("{}/v1", api.url())),
            credentials: Credentials::from_pairs([("OPENAPI2MCP_BEARERAUTH_TOKEN", TOKEN)]),
            ..ApiOptions::default()
        },
    )
    .unwrap();
    let tool = runtime.find("start_export").unwrap();
    let args = start_args().as_object().cloned().unwrap();
    let accepted = Call::new(&runtime, tool, &openapi2mcp::runtime::forward::NONE)
        .with_lro_mode(LroMode::Return)
        .send_map(&args)
        .await;
    assert_eq!(accepted.status, Some(202));
    let mut monitor = accepted.pending.expect("a monitor for the 202");
    assert_eq!(
        monitor.status_url_for_display(),
        format!("{}/v1/exports/e1", api.url())
    );
    assert!(monitor.can_cancel());
    // One poll: still running, with the API's percentage.
    match monitor.poll().await {
        LroPoll::Running {
            retry_after,
            status,
        } => {
            assert_eq!(status.as_deref(), Some("Running (30%)"));
            assert!(retry_after <= Duration::from_secs(1), "{retry_after:?}");
        }
        LroPoll::Done(report) => panic!("done too early: {:?}", report.outcome),
    }
    // The document's cancel link: DELETE /exports/{exportId} with the id
    // from the 202's body, authenticated like the call.
    let cancelled = monitor.cancel().await.expect("the spec links a cancel");
    assert!(!cancelled.outcome.is_error, "{:?}", cancelled.outcome);
    assert_eq!(cancelled.status, Some(202));
    let seen = api.seen();
    let last = seen.last().unwrap();
    assert_eq!(
        (last.method.as_str(), last.path.as_str()),
        ("DELETE", "/v1/exports/e1")
    );
    assert_eq!(
        last.authorization.as_deref(),
        Some(&*format!("Bearer {TOKEN}"))
    );
    let debug = format!("{monitor:?}");
    assert!(
        debug.contains("cancelExport") && !debug.contains(TOKEN),
        "{debug}"
    );
    // A blocking call of the same tool waits to the end instead.
    let blocking = Call::new(&runtime, tool, &openapi2mcp::runtime::forward::NONE)
        .send_map(&args)
        .await;
    assert!(blocking.pending.is_none());
    assert_eq!(blocking.outcome.structured, Some(report()));
}

#[tokio::test]
async fn see_other_leads_to_the_result_and_an_unreadable_status_is_an_error_with_its_http_status() {
    let api = Backend::start(|seen, _| match (seen.method.as_str(), seen.path.as_str()) {
        ("POST", _) => (
            202,
            vec![
                ("location", "/v1/exports/e1".into()),
                ("retry-after", "0".into()),
            ],
            Value::Null,
        ),
        ("GET", "/v1/exports/e1") => (
            303,
            vec![("location", "/v1/reports/r1".into())],
            Value::Null,
        ),
        ("GET", "/v1/reports/r1") => (200, vec![], report()),
        _ => (
            404,
            vec![],
            json!({"code": "NotFound", "message": "no such operation"}),
        ),
    })
    .await;
    let client = connect(exports(), options(&api)).await;
    let got = call(&client, "start_export", start_args()).await;
    assert_ne!(got.is_error, Some(true), "{}", text_of(&got));
    assert_eq!(got.structured_content, Some(report()));

    let gone = Backend::start(|seen, _| match seen.method.as_str() {
        "DELETE" => (
            202,
            vec![("operation-location", "/v1/operations/op404".into())],
            json!({"id": "op404", "status": "Running"}),
        ),
        _ => (
            404,
            vec![],
            json!({"code": "NotFound", "message": "no such operation"}),
        ),
    })
    .await;
    let client = connect(exports(), options(&gone)).await;
    let got = call(&client, "delete_report", json!({"reportId": "r1"})).await;
    assert_eq!(got.is_error, Some(true));
    let text = text_of(&got);
    assert!(
        text.contains(&format!(
            "status of the long-running operation started by DELETE {}/v1/reports/r1 could not be read from {}/v1/operations/op404 (HTTP 404)",
            gone.url(),
            gone.url()
        )),
        "{text}"
    );
    assert!(text.contains("no such operation"), "{text}");
}

/// The operation never ends by itself: `Running` on every poll.
fn never_ends(seen: &Seen, before: usize) -> Answer {
    match (seen.method.as_str(), seen.path.as_str()) {
        ("GET", "/v1/exports/e1") => (
            200,
            vec![("retry-after", "1".into())],
            json!({"id": "e1", "status": "Running", "percentComplete": before}),
        ),
        _ => three_polls(seen, before),
    }
}

#[tokio::test]
async fn a_2026_client_follows_a_202_operation_as_a_task_and_its_cancel_reaches_the_api() {
    use crate::protocol::{http_server, rpc_tasks, settle};
    use openapi2mcp::server::Bridge;

    // Completes after three polls: the task's result is the final report.
    let api = Backend::start(three_polls).await;
    let mut opts = options(&api);
    opts.task_after = Duration::from_secs(60); // the 202, not the clock, makes the task
    let (url, shutdown) = http_server(Bridge::new(exports(), opts).unwrap()).await;
    let started = Instant::now();
    let created = rpc_tasks(
        &url,
        "tools/call",
        json!({"name": "start_export", "arguments": start_args()}),
    )
    .await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "the task is created at once"
    );
    let task_id = created["result"]["taskId"].as_str().unwrap().to_string();
    let done = settle(&url, &task_id).await;
    assert_eq!(done["result"]["status"], "completed", "{done}");
    assert_eq!(
        done["result"]["result"]["structuredContent"],
        report(),
        "{done}"
    );
    let polls = api
        .seen()
        .iter()
        .filter(|s| s.path == "/v1/exports/e1")
        .count();
    assert_eq!(polls, 3, "{:?}", api.seen());
    shutdown.cancel();

    // Never ends: tasks/cancel sends the document's cancel operation.
    let api = Backend::start(never_ends).await;
    let mut opts = options(&api);
    opts.task_after = Duration::from_secs(60);
    let (url, shutdown) = http_server(Bridge::new(exports(), opts).unwrap()).await;
    let created = rpc_tasks(
        &url,
        "tools/call",
        json!({"name": "start_export", "arguments": start_args()}),
    )
    .await;
    let task_id = created["result"]["taskId"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let ack = rpc_tasks(&url, "tasks/cancel", json!({"taskId": task_id})).await;
    assert!(ack.get("error").is_none(), "{ack}");
    let cancelled = settle(&url, &task_id).await;
    assert_eq!(cancelled["result"]["status"], "cancelled", "{cancelled}");
    let deletes: Vec<Seen> = api
        .seen()
        .into_iter()
        .filter(|s| s.method == "DELETE" && s.path == "/v1/exports/e1")
        .collect();
    assert_eq!(
        deletes.len(),
        1,
        "the cancel link reached the API: {:?}",
        api.seen()
    );
    assert_eq!(
        deletes[0].authorization.as_deref(),
        Some(format!("Bearer {TOKEN}").as_str())
    );
    shutdown.cancel();
}

/// Calls `get_call_result` with `handle` until the call behind it ends
/// (at most `turns` times); the final result and how many turns it took.
async fn result_of_handle(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    handle: &str,
    turns: usize,
) -> (rmcp::model::CallToolResult, usize) {
    for turn in 1..=turns {
        let got = call(client, "get_call_result", json!({"handle": handle})).await;
        let still = got
            .structured_content
            .as_ref()
            .is_some_and(|s| s["status"] == "working");
        if !still {
            return (got, turn);
        }
        assert!(
            text_of(&got).contains(handle),
            "a running call's answer names its handle: {}",
            text_of(&got)
        );
    }
    panic!("the call behind {handle} did not end in {turns} turns");
}

/// The handle a call was answered with, read from its text as a model
/// would (`… with {"handle":"…"} …`).
fn handle_in(text: &str) -> String {
    let at = text.find(r#"{"handle":""#).expect("a handle in the answer") + 11;
    text[at..].split('"').next().unwrap().to_string()
}

#[tokio::test]
async fn a_client_without_tasks_gets_a_handle_before_its_timeout_and_the_result_through_get_call_result()
 {
    // Three polls a second apart: longer than --handle-after 1.
    let api = Backend::start(three_polls).await;
    let spec = local("specs/report-exports.yaml");
    let base = format!("{}/v1", api.url());
    // A client declaring nothing, as most hosts do.
    let served = crate::support::serve_stdio(
        &[
            spec.to_str().unwrap(),
            "--handle-after",
            "1",
            "--confirm",
            "none",
            "--base-url",
            &base,
        ],
        &[("OPENAPI2MCP_BEARERAUTH_TOKEN", TOKEN)],
    )
    .await;
    let client = served.client;
    let tools = client.list_all_tools().await.unwrap();
    let last = tools.last().expect("tools");
    assert_eq!(last.name, "get_call_result", "listed after the API's tools");
    assert_eq!(
        last.annotations.as_ref().and_then(|a| a.read_only_hint),
        Some(true)
    );
    let started = Instant::now();
    let got = call(&client, "start_export", start_args()).await;
    let answered = started.elapsed();
    let text = text_of(&got);
    assert!(
        answered < Duration::from_millis(2500),
        "answered after {answered:?}: {text}"
    );
    assert!(
        text.contains("`start_export` has not finished after 1 s"),
        "{text}"
    );
    assert!(text.contains("following"), "the operation's state: {text}");
    // start_export declares an output schema: the handle is not its result.
    assert_eq!(got.is_error, Some(true), "{text}");
    assert_eq!(got.structured_content, None);
    let handle = handle_in(&text);
    let (done, turns) = result_of_handle(&client, &handle, 10).await;
    assert_ne!(done.is_error, Some(true), "{}", text_of(&done));
    assert_eq!(done.structured_content, Some(report()), "the report itself");
    assert!(turns <= 4, "each turn waits up to a second: {turns}");
    // Kept: reading it again gives the same result at once.
    let again = call(&client, "get_call_result", json!({"handle": handle})).await;
    assert_eq!(again.structured_content, Some(report()));
    // A made-up handle is named as unknown, an error the model can read.
    let unknown = call(&client, "get_call_result", json!({"handle": "nope"})).await;
    assert_eq!(unknown.is_error, Some(true));
    assert!(
        text_of(&unknown).contains("Unknown handle `nope`"),
        "{}",
        text_of(&unknown)
    );
    client.cancel().await.unwrap();
    let polls = api
        .seen()
        .iter()
        .filter(|s| s.path == "/v1/exports/e1")
        .count();
    assert_eq!(
        polls,
        3,
        "polled as a blocking call would: {:?}",
        api.seen()
    );
}

#[tokio::test]
async fn a_handle_is_read_only_by_the_caller_who_made_the_call_and_a_quick_call_gets_no_handle() {
    use crate::protocol::{http_server, rpc_2026_as};
    use openapi2mcp::server::Bridge;

    let api = Backend::start(three_polls).await;
    let mut opts = options(&api);
    opts.handle_after = Some(Duration::from_millis(500));
    let (url, shutdown) = http_server(Bridge::new(exports(), opts).unwrap()).await;
    let as_caller = |token: &'static str, name: &'static str, arguments: Value| {
        let url = url.clone();
        async move {
            rpc_2026_as(
                &url,
                Some(token),
                "tools/call",
                json!({"name": name, "arguments": arguments}),
                json!({}),
            )
            .await
        }
    };
    // A quick call is answered with its result.
    let quick = as_caller("alice", "get_report", json!({"reportId": "r1"})).await;
    assert_eq!(quick["result"]["structuredContent"], report(), "{quick}");
    let started = as_caller("alice", "start_export", start_args()).await;
    let text = started["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    let handle = handle_in(text);
    // Bob cannot read Alice's call, nor tell it from one that never was.
    let bob = as_caller("bob", "get_call_result", json!({"handle": handle})).await;
    assert_eq!(bob["result"]["isError"], true, "{bob}");
    assert!(
        bob["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .starts_with(&format!("Unknown handle `{handle}`")),
        "{bob}"
    );
    // Alice can, once it has ended.
    let mut done = Value::Null;
    for _ in 0..20 {
        done = as_caller("alice", "get_call_result", json!({"handle": handle})).await;
        if done["result"]["structuredContent"]["status"] != "working" {
            break;
        }
    }
    assert_eq!(done["result"]["structuredContent"], report(), "{done}");
    shutdown.cancel();
}
