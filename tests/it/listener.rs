//! The HTTP listener's bounds over real sockets on 127.0.0.1: header, body
//! and idle timeouts, the connection cap and the per-IP cap (with
//! `/healthz` answering past them), and the bounds of in-memory state:
//! sessions past `--max-sessions` or idle, tasks past their count or TTL.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use openapi2mcp::server::listener::ListenerLimits;
use openapi2mcp::server::sessions::SessionLimits;
use openapi2mcp::server::tasks::TaskLimits;
use openapi2mcp::server::transport::{HttpTransportOptions, bind_http};
use openapi2mcp::server::{Bridge, ServeOptions};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_util::sync::CancellationToken;

use crate::backend::Backend;
use crate::protocol::{petstore_on, rpc_tasks};
use crate::support::local;

struct Served {
    addr: SocketAddr,
    sessions: Option<std::sync::Arc<openapi2mcp::server::sessions::BoundedSessions>>,
    shutdown: CancellationToken,
}

impl Drop for Served {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

/// The petstore over HTTP with `tweak`ed options.
async fn serve(
    backend: &Backend,
    tweak: impl FnOnce(&mut ServeOptions, &mut HttpTransportOptions),
) -> Served {
    let catalog = crate::support::build(&local("specs/petstore.yaml"));
    let mut options = petstore_on(backend);
    let mut http = HttpTransportOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        stateless: true,
        ..HttpTransportOptions::default()
    };
    tweak(&mut options, &mut http);
    let shutdown = CancellationToken::new();
    let bound = bind_http(
        Bridge::new(catalog, options).unwrap(),
        http,
        shutdown.clone(),
    )
    .await
    .unwrap();
    let addr = bound.local_addr;
    let sessions = bound.sessions.clone();
    tokio::spawn(bound.run());
    Served {
        addr,
        sessions,
        shutdown,
    }
}

fn limits(tweak: impl FnOnce(&mut ListenerLimits)) -> ListenerLimits {
    let mut limits = ListenerLimits::default();
    tweak(&mut limits);
    limits
}

/// A connection to `addr` from the loopback address `from`.
async fn connect_from(from: [u8; 4], addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::from((from, 0)))
        .expect("bind a loopback source address");
    socket.connect(addr).await.unwrap()
}

/// How long until the server closes `stream` (reading EOF or a reset),
/// writing `drip` every 200 ms meanwhile; `None` if it is still open
/// after `within`.
async fn closed_after(stream: &mut TcpStream, drip: &[u8], within: Duration) -> Option<Duration> {
    let start = Instant::now();
    let mut buf = [0u8; 4096];
    while start.elapsed() < within {
        if !drip.is_empty() && stream.write_all(drip).await.is_err() {
            return Some(start.elapsed());
        }
        match tokio::time::timeout(Duration::from_millis(200), stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return Some(start.elapsed()),
            // An answer (an error status) before the close: keep reading.
            Ok(Ok(_)) | Err(_) => {}
        }
    }
    None
}

/// One request on a fresh connection from `from`; the status and body.
async fn get_from(from: [u8; 4], addr: SocketAddr, request: &str) -> (u16, String) {
    let mut stream = connect_from(from, addr).await;
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut text = Vec::new();
    tokio::time::timeout(Duration::from_secs(1), stream.read_to_end(&mut text))
        .await
        .expect("answered within a second")
        .unwrap();
    let text = String::from_utf8_lossy(&text).to_string();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    (status, text)
}

const HEALTHZ: &str = "GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n";
const MCP_LIST: &str = "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nmcp-protocol-version: 2025-06-18\r\ncontent-length: 46\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";

#[tokio::test]
async fn slow_headers_silent_connections_and_idle_keep_alives_are_cut() {
    let backend = Backend::start(|_| (200, "application/json", b"{}".to_vec())).await;
    let served = serve(&backend, |_, http| {
        http.limits = limits(|l| {
            l.header_timeout = Duration::from_secs(1);
            l.idle_timeout = Duration::from_millis(2_500);
        });
    })
    .await;
    // Headers dripped a line at a time: cut after the header timeout.
    let mut slow = TcpStream::connect(served.addr).await.unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\n").await.unwrap();
    let cut = closed_after(&mut slow, b"x-drip: 1\r\n", Duration::from_secs(6))
        .await
        .expect("a dripping head is cut");
    assert!(cut < Duration::from_millis(2_000), "cut after {cut:?}");
    // A connection that sends nothing: cut after the header timeout too.
    let mut silent = TcpStream::connect(served.addr).await.unwrap();
    let cut = closed_after(&mut silent, b"", Duration::from_secs(6))
        .await
        .expect("a silent connection is cut");
    assert!(cut < Duration::from_millis(2_000), "cut after {cut:?}");
    // A kept-alive connection waits for its next request up to the idle
    // timeout (longer than the header timeout), then is closed.
    let mut kept = TcpStream::connect(served.addr).await.unwrap();
    kept.write_all(b"GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 1024];
    let n = kept.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    let cut = closed_after(&mut kept, b"", Duration::from_secs(6))
        .await
        .expect("an idle kept-alive connection is closed");
    assert!(
        cut > Duration::from_millis(1_800) && cut < Duration::from_millis(4_000),
        "closed after {cut:?}"
    );
}

#[tokio::test]
async fn a_dripping_body_is_cut_after_the_body_timeout() {
    let backend = Backend::start(|_| (200, "application/json", b"{}".to_vec())).await;
    let served = serve(&backend, |_, http| {
        http.limits = limits(|l| l.body_timeout = Duration::from_secs(1));
    })
    .await;
    let mut slow = TcpStream::connect(served.addr).await.unwrap();
    slow.write_all(
        b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: 1000\r\n\r\n{",
    )
    .await
    .unwrap();
    let cut = closed_after(&mut slow, b" ", Duration::from_secs(6))
        .await
        .expect("a dripping body is cut");
    assert!(cut < Duration::from_millis(2_500), "cut after {cut:?}");
}

#[tokio::test]
async fn past_the_connection_cap_healthz_answers_and_the_rest_gets_503() {
    let backend = Backend::start(|_| (200, "application/json", b"{}".to_vec())).await;
    let served = serve(&backend, |_, http| {
        http.limits = limits(|l| {
            l.max_connections = 4;
            l.max_connections_per_ip = 0;
            l.ops_reserve = 2;
        });
    })
    .await;
    // Four connections hold the cap; ten more fill and churn the reserve.
    let mut held = Vec::new();
    for _ in 0..14 {
        held.push(TcpStream::connect(served.addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    for _ in 0..3 {
        let (status, text) = get_from([127, 0, 0, 1], served.addr, HEALTHZ).await;
        assert_eq!(status, 200, "{text}");
        let (status, text) = get_from([127, 0, 0, 1], served.addr, MCP_LIST).await;
        assert_eq!(status, 503, "{text}");
        assert!(
            text.to_ascii_lowercase().contains("retry-after: 1"),
            "{text}"
        );
    }
    // Below the cap again, MCP is served.
    held.clear();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, text) = get_from([127, 0, 0, 1], served.addr, MCP_LIST).await;
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("tools"), "{text}");
}

#[tokio::test]
async fn one_address_cannot_take_every_connection() {
    let backend = Backend::start(|_| (200, "application/json", b"{}".to_vec())).await;
    let served = serve(&backend, |_, http| {
        http.limits = limits(|l| {
            l.max_connections = 100;
            l.max_connections_per_ip = 3;
        });
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(connect_from([127, 0, 0, 2], served.addr).await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // The address at its cap: 503 for MCP, /healthz still answers.
    let (status, text) = get_from([127, 0, 0, 2], served.addr, MCP_LIST).await;
    assert_eq!(status, 503, "{text}");
    let (status, _) = get_from([127, 0, 0, 2], served.addr, HEALTHZ).await;
    assert_eq!(status, 200);
    // Another address is served as usual.
    let (status, text) = get_from([127, 0, 0, 3], served.addr, MCP_LIST).await;
    assert_eq!(status, 200, "{text}");
    drop(held);
}

/// Opens a session on the stateful server at `url`: its id.
async fn open_session(url: &str) -> String {
    let client = reqwest::Client::new();
    let res = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "it", "version": "1"}}})
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let id = res.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_string();
    res.text().await.unwrap();
    let res = session_post(
        url,
        &id,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    assert_eq!(res.0, 202, "{}", res.1);
    id
}

async fn session_post(url: &str, session: &str, body: Value) -> (u16, String) {
    let res = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .header("mcp-session-id", session)
        .body(body.to_string())
        .timeout(Duration::from_secs(10))
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.text().await.unwrap())
}

async fn list_in(url: &str, session: &str) -> u16 {
    session_post(
        url,
        session,
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    )
    .await
    .0
}

#[tokio::test]
async fn sessions_past_the_cap_close_the_least_recently_used_and_idle_ones_expire() {
    let backend = Backend::start(|_| (200, "application/json", b"{}".to_vec())).await;
    let served = serve(&backend, |_, http| {
        http.stateless = false;
        http.sessions = SessionLimits {
            max_sessions: 2,
            idle_timeout: Duration::from_secs(2),
            sleep_after: None,
        };
    })
    .await;
    let url = format!("http://{}/mcp", served.addr);
    let a = open_session(&url).await;
    let b = open_session(&url).await;
    assert_eq!(list_in(&url, &a).await, 200);
    // `b` is now the least recently used: a third session closes it.
    let c = open_session(&url).await;
    assert_eq!(list_in(&url, &b).await, 404, "the evicted session is gone");
    assert_eq!(list_in(&url, &a).await, 200);
    assert_eq!(list_in(&url, &c).await, 200);
    // Unused for the idle timeout: gone too.
    tokio::time::sleep(Duration::from_millis(3_000)).await;
    assert_eq!(list_in(&url, &a).await, 404, "the idle session expired");
}

/// The tools a session lists.
async fn tools_in(url: &str, session: &str) -> Vec<String> {
    let (status, body) = session_post(
        url,
        session,
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let data = body
        .lines()
        .find_map(|l| l.strip_prefix("data: ").filter(|d| d.contains("\"tools\"")))
        .unwrap_or_else(|| panic!("no tools/list answer in {body}"));
    let answer: Value = serde_json::from_str(data).unwrap();
    answer["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

/// Polls `sessions` until `asleep` of them sleep (at most 5 s).
async fn until_asleep(sessions: &openapi2mcp::server::sessions::BoundedSessions, asleep: usize) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while sessions.asleep() != asleep {
        assert!(
            Instant::now() < deadline,
            "{} sessions asleep, not {asleep}",
            sessions.asleep()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn idle_sessions_sleep_and_wake_as_they_were_unless_a_call_is_running() {
    use openapi2mcp::server::modes::ToolsMode;
    let backend = Backend::start(|_| {
        (
            200,
            "application/json",
            br#"{"id": 1, "name": "Rex"}"#.to_vec(),
        )
    })
    .await;
    let served = serve(&backend, |options, http| {
        // Every call waits 3 s at the backend (see `Backend`).
        options.base_url = Some(format!("{}/slow/v1", backend.url()));
        options.listing.mode = ToolsMode::Toolsets;
        http.stateless = false;
        http.sessions = SessionLimits {
            max_sessions: 10,
            // Longer than the 3 s call: rmcp ends an awake session after
            // this long without a request, even with a call running.
            idle_timeout: Duration::from_millis(4_000),
            sleep_after: Some(Duration::from_millis(300)),
        };
    })
    .await;
    let sessions = served.sessions.clone().expect("stateful HTTP has sessions");
    let url = format!("http://{}/mcp", served.addr);
    let a = open_session(&url).await;
    let before = tools_in(&url, &a).await;
    let (status, body) = session_post(
        &url,
        &a,
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
               "params": {"name": "enable_toolset", "arguments": {"names": ["pets"]}}}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let enabled = tools_in(&url, &a).await;
    assert!(enabled.len() > before.len(), "{enabled:?}");
    let b = open_session(&url).await;
    // Both fall asleep once idle: still live, no longer in rmcp's map.
    until_asleep(&sessions, 2).await;
    assert!(sessions.is_live(&a) && sessions.is_live(&b));
    // A request wakes `a` with the toolsets it had enabled.
    assert_eq!(tools_in(&url, &a).await, enabled);
    assert_eq!(sessions.asleep(), 1);
    // A call running longer than the sleep delay keeps its session awake
    // and is answered.
    let slow = tokio::spawn({
        let (url, a) = (url.clone(), a.clone());
        async move {
            session_post(
                &url,
                &a,
                json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                       "params": {"name": "get_pet", "arguments": {"petId": 1}}}),
            )
            .await
        }
    });
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert_eq!(sessions.asleep(), 1, "the session of a running call sleeps");
    let (status, body) = slow.await.unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(
        body.contains("Rex") && !body.contains("\"isError\":true"),
        "{body}"
    );
    // A client's DELETE ends an asleep session for good.
    let deleted = reqwest::Client::new()
        .delete(&url)
        .header("mcp-session-id", &b)
        .header("mcp-protocol-version", "2025-06-18")
        .send()
        .await
        .unwrap();
    assert!(deleted.status().is_success(), "{}", deleted.status());
    assert!(!sessions.is_live(&b));
    assert_eq!(list_in(&url, &b).await, 404);
    // Asleep past the idle timeout: expired like an awake one.
    until_asleep(&sessions, 1).await;
    tokio::time::sleep(Duration::from_millis(5_000)).await;
    assert!(!sessions.is_live(&a));
    assert_eq!(list_in(&url, &a).await, 404, "the asleep session expired");
}

/// Starts a call of `get_file` as a task; its id.
async fn start_task(url: &str, name: &str) -> String {
    let started = rpc_tasks(
        url,
        "tools/call",
        json!({"name": "get_file", "arguments": {"name": name}}),
    )
    .await;
    assert_eq!(started["result"]["resultType"], "task", "{started}");
    started["result"]["taskId"].as_str().unwrap().to_string()
}

async fn task_status(url: &str, id: &str) -> String {
    let got = rpc_tasks(url, "tasks/get", json!({"taskId": id})).await;
    match got["result"]["status"].as_str() {
        Some(status) => status.to_string(),
        None => {
            assert_eq!(got["error"]["code"], -32602, "{got}");
            "unknown".into()
        }
    }
}

#[tokio::test]
async fn tasks_past_their_cap_or_ttl_are_forgotten() {
    let backend = Backend::start(|r| {
        (
            200,
            "text/plain",
            format!("contents of {}", r.target).into_bytes(),
        )
    })
    .await;
    let files = serde_json::json!({"openapi": "3.0.3", "info": {"title": "Files", "version": "1"}, "paths": {
        "/files/{name}": {"get": {"operationId": "getFile", "parameters": [
            {"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok", "content": {"text/plain": {"schema": {"type": "string"}}}}}}}}});
    let doc = openapi2mcp::document::Document::from_value("files.yaml", files).unwrap();
    let catalog = openapi2mcp::tools::build(&doc, &openapi2mcp::tools::BuildOptions::default()).0;
    let options = ServeOptions {
        base_url: Some(backend.url()),
        // Every call of a tasks-capable client becomes a task…
        task_after: Duration::ZERO,
        tasks: TaskLimits {
            max_tasks: 2,
            ttl: Duration::from_secs(3),
            ..TaskLimits::default()
        },
        ..ServeOptions::default()
    };
    let (url, shutdown) =
        crate::protocol::http_server(Bridge::new(catalog, options).unwrap()).await;
    let first = start_task(&url, "a").await;
    let second = start_task(&url, "b").await;
    for id in [&first, &second] {
        for _ in 0..50 {
            if task_status(&url, id).await == "completed" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(task_status(&url, id).await, "completed");
    }
    // A third past --max-tasks 2: the oldest finished one is forgotten.
    let third = start_task(&url, "c").await;
    assert_eq!(task_status(&url, &first).await, "unknown");
    assert_ne!(task_status(&url, &second).await, "unknown");
    assert_ne!(task_status(&url, &third).await, "unknown");
    // Past the TTL: all forgotten.
    tokio::time::sleep(Duration::from_millis(3_200)).await;
    assert_eq!(task_status(&url, &second).await, "unknown");
    assert_eq!(task_status(&url, &third).await, "unknown");
    shutdown.cancel();
}
