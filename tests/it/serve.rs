//! `serve` end to end: a real rmcp client talks to the bridge (in process
//! over a duplex pipe, and over streamable HTTP), the bridge calls a real
//! HTTP backend on 127.0.0.1, and we assert on the exact HTTP request the
//! backend received and on the MCP result.

use openapi2mcp::pipeline::{self, PipelineOptions};
use openapi2mcp::server::confirm::ConfirmPolicy;
use openapi2mcp::server::transport::{HttpTransportOptions, bind_http};
use openapi2mcp::server::{Bridge, ServeOptions};
use openapi2mcp::tools::Catalog;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, PaginatedRequestParams};
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::backend::{Backend, Recorded, Reply};
use crate::support::{call, catalog_of, local, text_of};

/// A document's catalog, built the way `list` builds it.
pub(crate) fn catalog_at(path: &std::path::Path) -> Catalog {
    pipeline::load_catalog(path.to_str().unwrap(), &PipelineOptions::default())
        .unwrap()
        .catalog
}

pub(crate) fn petstore() -> Catalog {
    catalog_at(&local("specs/petstore.yaml"))
}

/// A client connected in process to a bridge over `catalog`.
pub(crate) async fn connect(
    catalog: Catalog,
    options: ServeOptions,
) -> RunningService<RoleClient, ()> {
    let bridge = Bridge::new(catalog, options).unwrap();
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = bridge.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_io).await.expect("client connects")
}

fn options_for(backend: &Backend, prefix: &str) -> ServeOptions {
    ServeOptions {
        base_url: Some(format!("{}{prefix}", backend.url())),
        // These tests check the requests sent; confirmation before
        // destructive calls is tested in protocol.rs.
        confirm: ConfirmPolicy::None,
        ..ServeOptions::default()
    }
}

pub(crate) fn pet_reply(r: &Recorded) -> Reply {
    match (
        r.method.as_str(),
        r.target.split('?').next().unwrap_or_default(),
    ) {
        ("GET", "/v1/pets/1") => (
            200,
            "application/json",
            br#"{"id":1,"name":"Rex","tags":["dog"]}"#.to_vec(),
        ),
        ("GET", "/v1/pets/2") => (
            200,
            "application/json",
            br#"{"id":"two","name":5}"#.to_vec(),
        ),
        ("GET", "/v1/pets/3") => (
            200,
            "application/json",
            br#"{"name":"Rex","color":"brown","status":"adopted"}"#.to_vec(),
        ),
        ("GET", "/v1/pets/404") => (
            404,
            "application/json",
            br#"{"code":404,"message":"pet not found"}"#.to_vec(),
        ),
        ("GET", "/v1/pets") => (
            200,
            "application/json",
            br#"[{"id":1,"name":"Rex"}]"#.to_vec(),
        ),
        ("POST", "/v1/pets") => (
            201,
            "application/json",
            br#"{"id":3,"name":"Rex"}"#.to_vec(),
        ),
        ("DELETE", _) => (204, "text/plain", Vec::new()),
        ("GET", "/v1/pets/1/photo") => (200, "image/png", vec![0x89, b'P', b'N', b'G', 0, 1, 2]),
        _ => (200, "text/plain", b"ok".to_vec()),
    }
}

#[tokio::test]
async fn tools_list_pages_carry_exactly_the_model() {
    let catalog = petstore();
    let mut expected: Vec<Value> = catalog.to_mcp_json();
    // A tool a confirmation gates (the default: destructive ones) also
    // names the MCP Apps review form, for hosts that render apps.
    for tool in &mut expected {
        if tool["annotations"]["destructiveHint"] == true {
            tool["_meta"]["ui"] =
                json!({"resourceUri": "ui://openapi2mcp/review", "visibility": ["model"]});
            tool["_meta"]["ui/resourceUri"] = json!("ui://openapi2mcp/review");
        }
    }
    let options = ServeOptions {
        page_bytes: 4096,
        ..ServeOptions::default()
    };
    let client = connect(catalog, options).await;

    let first = client
        .list_tools(Some(PaginatedRequestParams::default()))
        .await
        .unwrap();
    assert!(
        first.next_cursor.is_some(),
        "a 4 KiB page limit must paginate the petstore"
    );
    let all = client.list_all_tools().await.unwrap();
    let mut got: Vec<Value> = all
        .iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect();
    // Every operation's tool, then the one that reads calls answered
    // with a handle.
    let last = got.pop().unwrap();
    assert_eq!(last["name"], "get_call_result", "{last}");
    assert_eq!(got, expected);

    let info = client.peer_info().unwrap();
    assert_eq!(info.server_info.as_ref().unwrap().name, "openapi2mcp");
    assert!(info.instructions.as_deref().unwrap().contains("7 tools"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn calls_become_the_right_http_requests() {
    let backend = Backend::start(pet_reply).await;
    let client = connect(petstore(), options_for(&backend, "/v1")).await;

    let got = call(&client, "get_pet", json!({"petId": 1})).await;
    assert_eq!(got.is_error, Some(false));
    assert_eq!(
        got.structured_content,
        Some(json!({"id": 1, "name": "Rex", "tags": ["dog"]}))
    );
    let listed = call(
        &client,
        "list_pets",
        json!({"limit": 5, "tags": ["dog", "small"], "status": "available"}),
    )
    .await;
    assert_eq!(
        listed.structured_content,
        Some(json!({"result": [{"id": 1, "name": "Rex"}]}))
    );
    let created = call(
        &client,
        "create_pet",
        json!({"name": "Rex", "tags": ["dog"]}),
    )
    .await;
    assert_eq!(created.is_error, Some(false));
    let deleted = call(&client, "delete_pet", json!({"petId": 7})).await;
    assert_eq!(deleted.is_error, Some(false));
    assert!(text_of(&deleted).contains("204"), "{}", text_of(&deleted));

    let seen = backend.take();
    assert_eq!(seen.len(), 4);
    assert_eq!(
        (seen[0].method.as_str(), seen[0].target.as_str()),
        ("GET", "/v1/pets/1")
    );
    assert_eq!(
        seen[1].target,
        "/v1/pets?limit=5&tags=dog,small&status=available"
    );
    assert_eq!(
        (seen[2].method.as_str(), seen[2].target.as_str()),
        ("POST", "/v1/pets")
    );
    assert_eq!(seen[2].header("content-type"), Some("application/json"));
    assert_eq!(
        serde_json::from_slice::<Value>(&seen[2].body).unwrap(),
        json!({"name": "Rex", "tags": ["dog"]})
    );
    assert_eq!(
        (seen[3].method.as_str(), seen[3].target.as_str()),
        ("DELETE", "/v1/pets/7")
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn images_come_back_as_image_content() {
    let backend = Backend::start(pet_reply).await;
    let client = connect(petstore(), options_for(&backend, "/v1")).await;
    let got = call(&client, "get_pet_photo", json!({"petId": 1})).await;
    let content = serde_json::to_value(&got.content).unwrap();
    assert_eq!(content[0]["type"], "image");
    assert_eq!(content[0]["mimeType"], "image/png");
    assert_eq!(content[0]["data"], "iVBORwABAg==");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_arguments_and_unknown_tools_are_reported_not_sent() {
    let backend = Backend::start(pet_reply).await;
    let client = connect(petstore(), options_for(&backend, "/v1")).await;

    let got = call(&client, "get_pet", json!({"petId": "abc"})).await;
    assert_eq!(got.is_error, Some(true));
    let text = text_of(&got);
    assert!(text.contains("petId"), "{text}");
    let got = call(&client, "get_pet", json!({})).await;
    assert_eq!(got.is_error, Some(true));
    assert!(text_of(&got).contains("petId"), "{}", text_of(&got));
    let got = call(&client, "get_pet", json!({"petId": 1, "extra": true})).await;
    assert_eq!(got.is_error, Some(true));
    assert!(text_of(&got).contains("extra"), "{}", text_of(&got));
    assert!(
        backend.take().is_empty(),
        "invalid calls must not reach the backend"
    );

    let err = client
        .call_tool(CallToolRequestParams::new("no_such_tool"))
        .await
        .expect_err("unknown tool is a protocol error");
    assert!(
        err.to_string().contains("-32602") || err.to_string().contains("unknown tool"),
        "{err}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn http_errors_and_dead_backends_are_is_error_and_serving_continues() {
    let backend = Backend::start(pet_reply).await;
    let client = connect(petstore(), options_for(&backend, "/v1")).await;
    let got = call(&client, "get_pet", json!({"petId": 404})).await;
    assert_eq!(got.is_error, Some(true));
    let text = text_of(&got);
    assert!(
        text.contains("404") && text.contains("pet not found"),
        "{text}"
    );
    assert!(got.structured_content.is_none());
    let ok = call(&client, "get_pet", json!({"petId": 1})).await;
    assert_eq!(ok.is_error, Some(false));
    client.cancel().await.unwrap();

    // Nothing listens on this port: connection refused, reported, next call still answered.
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = dead.local_addr().unwrap().port();
    drop(dead);
    let options = ServeOptions {
        base_url: Some(format!("http://127.0.0.1:{port}/v1")),
        ..ServeOptions::default()
    };
    let client = connect(petstore(), options).await;
    for _ in 0..2 {
        let got = call(&client, "get_pet", json!({"petId": 1})).await;
        assert_eq!(got.is_error, Some(true));
        assert!(
            text_of(&got).to_lowercase().contains("connect"),
            "{}",
            text_of(&got)
        );
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn path_arguments_cannot_escape_their_segment() {
    let backend = Backend::start(|_| (200, "text/plain", b"ok".to_vec())).await;
    let doc = json!({"openapi": "3.0.3", "info": {"title": "Files", "version": "1"}, "paths": {
        "/files/{name}": {"get": {"operationId": "getFile", "parameters": [
            {"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok"}}}}}});
    let client = connect(catalog_of(doc), options_for(&backend, "/api")).await;
    for evil in [
        "../../admin",
        "a/b?x=1#f",
        "%2e%2e/admin",
        "http://evil.example/",
    ] {
        let got = call(&client, "get_file", json!({"name": evil})).await;
        assert_eq!(got.is_error, Some(false), "{evil}: {}", text_of(&got));
    }
    // A whole segment of `..` would be normalised away by URL parsing: refused.
    for climb in ["..", "."] {
        let got = call(&client, "get_file", json!({"name": climb})).await;
        assert_eq!(got.is_error, Some(true), "{climb}: {}", text_of(&got));
        assert!(text_of(&got).contains("name"), "{}", text_of(&got));
    }
    let targets: Vec<String> = backend.take().into_iter().map(|r| r.target).collect();
    assert_eq!(targets.len(), 4);
    for t in &targets {
        assert!(t.starts_with("/api/files/"), "{t}");
        assert_eq!(
            t.matches('/').count(),
            3,
            "an argument added a path segment: {t}"
        );
        assert!(!t.contains('?') && !t.contains('#'), "{t}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn streamable_http_transport_with_origin_check_and_token() {
    let backend = Backend::start(pet_reply).await;
    let bridge = Bridge::new(petstore(), options_for(&backend, "/v1")).unwrap();
    let shutdown = CancellationToken::new();
    let bound = bind_http(
        bridge,
        HttpTransportOptions {
            listen: "127.0.0.1:0".parse().unwrap(),
            auth_token: Some("s3cret".into()),
            stateless: false,
            allowed_hosts: vec![],
            allowed_origins: vec![],
            ..HttpTransportOptions::default()
        },
        shutdown.clone(),
    )
    .await
    .unwrap();
    let url = format!("http://{}/mcp", bound.local_addr);
    let server = tokio::spawn(bound.run());

    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let http = reqwest::Client::new();
    let post = |origin: Option<&str>, token: Option<&str>| {
        let mut req = http
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(init.to_string());
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        req.send()
    };
    assert_eq!(post(None, None).await.unwrap().status(), 401);
    assert_eq!(post(None, Some("wrong")).await.unwrap().status(), 401);
    assert_eq!(
        post(Some("https://evil.example"), Some("s3cret"))
            .await
            .unwrap()
            .status(),
        403
    );
    assert_eq!(
        post(Some("http://localhost:6274"), Some("s3cret"))
            .await
            .unwrap()
            .status(),
        200
    );

    // A real MCP client over streamable HTTP.
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url.clone()).auth_header("s3cret"),
    );
    let client = ().serve(transport).await.expect("client connects over HTTP");
    // Seven operations and get_call_result.
    assert_eq!(client.list_all_tools().await.unwrap().len(), 8);
    let got = call(&client, "get_pet", json!({"petId": 1})).await;
    assert_eq!(
        got.structured_content,
        Some(json!({"id": 1, "name": "Rex", "tags": ["dog"]}))
    );
    client.cancel().await.unwrap();

    shutdown.cancel();
    tokio::time::timeout(std::time::Duration::from_secs(10), server)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}

fn files_doc() -> Value {
    json!({"openapi": "3.0.3", "info": {"title": "Files", "version": "1"}, "paths": {
        "/files/{name}": {"get": {"operationId": "getFile", "parameters": [
            {"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok"}}}}}})
}

fn files_reply(r: &Recorded) -> Reply {
    match r.target.as_str() {
        "/files/huge" => (200, "text/plain", vec![b'x'; 50 << 20]),
        "/files/html" => (200, "text/html", b"<h1>hi</h1>".to_vec()),
        "/files/broken-json" => (200, "application/json", b"{not json".to_vec()),
        "/files/boom" => (500, "text/plain", b"database on fire".to_vec()),
        _ => (200, "text/plain", b"ok".to_vec()),
    }
}

#[tokio::test]
async fn slow_huge_broken_and_failing_backends_leave_the_server_working() {
    let backend = Backend::start(files_reply).await;
    let mut options = options_for(&backend, "");
    options.http.timeout = std::time::Duration::from_millis(500);
    options.http.limits.max_body_bytes = 1 << 20;
    let client = connect(catalog_of(files_doc()), options).await;

    let slow = call(&client, "get_file", json!({"name": "slow"})).await;
    assert_eq!(slow.is_error, Some(true));
    assert!(
        text_of(&slow).to_lowercase().contains("timed out")
            || text_of(&slow).to_lowercase().contains("timeout"),
        "{}",
        text_of(&slow)
    );

    let huge = call(&client, "get_file", json!({"name": "huge"})).await;
    assert_eq!(huge.is_error, Some(false));
    let text = text_of(&huge);
    assert!(
        text.len() < (1 << 20) + 1024,
        "the cap must hold: {} bytes",
        text.len()
    );
    assert!(text.contains("[truncated"), "{}", &text[text.len() - 300..]);

    let html = call(&client, "get_file", json!({"name": "html"})).await;
    assert_eq!(text_of(&html), "<h1>hi</h1>");
    let broken = call(&client, "get_file", json!({"name": "broken-json"})).await;
    assert_eq!(broken.is_error, Some(false));
    assert!(text_of(&broken).contains("{not json"));
    let boom = call(&client, "get_file", json!({"name": "boom"})).await;
    assert_eq!(boom.is_error, Some(true));
    assert!(
        text_of(&boom).contains("500") && text_of(&boom).contains("database on fire"),
        "{}",
        text_of(&boom)
    );

    let ok = call(&client, "get_file", json!({"name": "fine"})).await;
    assert_eq!((ok.is_error, text_of(&ok)), (Some(false), "ok".to_string()));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn rate_limit_refuses_calls_over_the_budget_without_sending_them() {
    let backend = Backend::start(files_reply).await;
    let mut options = options_for(&backend, "");
    options.rate_limit = Some((0.01, 2));
    let client = connect(catalog_of(files_doc()), options).await;
    let results = [
        call(&client, "get_file", json!({"name": "a"})).await,
        call(&client, "get_file", json!({"name": "b"})).await,
        call(&client, "get_file", json!({"name": "c"})).await,
    ];
    assert_eq!(
        results.iter().map(|r| r.is_error).collect::<Vec<_>>(),
        [Some(false), Some(false), Some(true)]
    );
    assert!(
        text_of(&results[2]).contains("Rate limit"),
        "{}",
        text_of(&results[2])
    );
    assert_eq!(backend.take().len(), 2);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_real_binary_serves_over_stdio_with_a_clean_stdout() {
    use rmcp::transport::TokioChildProcess;
    let backend = Backend::start(pet_reply).await;
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.arg("serve")
        .arg(local("specs/petstore.yaml"))
        .arg("--base-url")
        .arg(format!("{}/v1", backend.url()))
        .env("OPENAPI2MCP_LOG", "debug");
    let client =
        ().serve(TokioChildProcess::new(cmd).unwrap())
            .await
            .expect("spawned server speaks MCP on stdout");
    // Seven operations and get_call_result.
    assert_eq!(client.list_all_tools().await.unwrap().len(), 8);
    let got = call(&client, "get_pet", json!({"petId": 1})).await;
    assert_eq!(
        got.structured_content,
        Some(json!({"id": 1, "name": "Rex", "tags": ["dog"]}))
    );
    client.cancel().await.unwrap();
    assert_eq!(backend.take().len(), 1);
}

/// A client that records the progress notifications it receives.
#[derive(Clone, Default)]
struct ProgressSink(std::sync::Arc<std::sync::Mutex<Vec<ProgressSeen>>>);

type ProgressSeen = (f64, Option<String>);

impl rmcp::ClientHandler for ProgressSink {
    async fn on_progress(
        &self,
        params: rmcp::model::ProgressNotificationParam,
        _context: rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.0
            .lock()
            .unwrap()
            .push((params.progress, params.message));
    }
}

fn call_request(name: &str, args: Value) -> rmcp::model::ClientRequest {
    let params = CallToolRequestParams::new(name.to_string())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    rmcp::model::ClientRequest::CallToolRequest(rmcp::model::CallToolRequest::new(params))
}

#[tokio::test]
async fn progress_is_reported_when_the_client_asks_for_it() {
    let backend = Backend::start(pet_reply).await;
    let bridge = Bridge::new(petstore(), options_for(&backend, "/v1")).unwrap();
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = bridge.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let sink = ProgressSink::default();
    let client = sink.clone().serve(client_io).await.unwrap();
    let mut meta = rmcp::model::RequestMetaObject::default();
    meta.set_progress_token(rmcp::model::ProgressToken(
        rmcp::model::NumberOrString::Number(7),
    ));
    let handle = client
        .send_cancellable_request(
            call_request("get_pet", json!({"petId": 1})),
            rmcp::service::PeerRequestOptions::no_options().with_meta(meta),
        )
        .await
        .unwrap();
    handle.await_response().await.unwrap();
    // Notifications may arrive just after the response; give them a moment.
    for _ in 0..50 {
        if sink.0.lock().unwrap().len() >= 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let seen = sink.0.lock().unwrap().clone();
    assert_eq!(seen.iter().map(|(p, _)| *p).collect::<Vec<_>>(), [0.0, 1.0]);
    assert_eq!(seen[0].1.as_deref(), Some("calling GET /pets/{petId}"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn cancelling_a_call_aborts_the_http_request() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    // A backend that never answers and reports when the client hangs up.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (closed_tx, closed_rx) = tokio::sync::oneshot::channel::<std::time::Duration>();
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut buf = vec![0u8; 4096];
        let _ = socket.read(&mut buf).await; // the request
        let started = std::time::Instant::now();
        loop {
            match tokio::time::timeout(std::time::Duration::from_secs(10), socket.read(&mut buf))
                .await
            {
                Ok(Ok(0)) | Ok(Err(_)) => {
                    let _ = closed_tx.send(started.elapsed());
                    return;
                }
                Ok(Ok(_)) => continue,
                Err(_) => {
                    let _ = socket
                        .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
                        .await;
                    return;
                }
            }
        }
    });
    let options = ServeOptions {
        base_url: Some(format!("http://{addr}/v1")),
        ..ServeOptions::default()
    };
    let client = connect(petstore(), options).await;
    let handle = client
        .send_cancellable_request(
            call_request("get_pet", json!({"petId": 1})),
            rmcp::service::PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    handle
        .cancel(Some("user pressed stop".into()))
        .await
        .unwrap();
    let hung_up_after = tokio::time::timeout(std::time::Duration::from_secs(5), closed_rx)
        .await
        .expect("the backend connection must close soon after the cancellation")
        .unwrap();
    assert!(
        hung_up_after < std::time::Duration::from_secs(5),
        "{hung_up_after:?}"
    );
    // The server still answers afterwards (seven operations and
    // get_call_result).
    assert_eq!(client.list_all_tools().await.unwrap().len(), 8);
    client.cancel().await.unwrap();
}

fn secured_reply(r: &Recorded) -> Reply {
    match r.header("x-api-key") {
        Some("k-123") => (
            200,
            "application/json",
            br#"{"id":1,"name":"Rex"}"#.to_vec(),
        ),
        Some(other) => (401, "text/plain", format!("bad key {other}").into_bytes()),
        None => (401, "text/plain", b"authentication required".to_vec()),
    }
}

#[tokio::test]
async fn credentials_from_configuration_are_sent_and_never_echoed() {
    use openapi2mcp::runtime::auth::Credentials;
    let backend = Backend::start(secured_reply).await;

    let mut options = options_for(&backend, "/v1");
    options.credentials = Credentials::from_pairs([("OPENAPI2MCP_APIKEY_KEY", "k-123")]);
    let client = connect(petstore(), options).await;
    let got = call(&client, "get_pet", json!({"petId": 1})).await;
    assert_eq!(got.is_error, Some(false), "{}", text_of(&got));
    assert_eq!(backend.take()[0].header("x-api-key"), Some("k-123"));
    client.cancel().await.unwrap();

    // A wrong key that the API echoes back is scrubbed from what the model sees.
    let mut options = options_for(&backend, "/v1");
    options.credentials = Credentials::from_pairs([("OPENAPI2MCP_APIKEY_KEY", "wrong-secret")]);
    let client = connect(petstore(), options).await;
    let got = call(&client, "get_pet", json!({"petId": 1})).await;
    assert_eq!(got.is_error, Some(true));
    assert!(!text_of(&got).contains("wrong-secret"), "{}", text_of(&got));
    client.cancel().await.unwrap();

    // No credentials: sent anonymously; the 401 says what to configure.
    let client = connect(petstore(), options_for(&backend, "/v1")).await;
    let got = call(&client, "get_pet", json!({"petId": 1})).await;
    assert_eq!(got.is_error, Some(true));
    let text = text_of(&got);
    assert!(
        text.contains("OPENAPI2MCP_APIKEY_KEY") && text.contains("OPENAPI2MCP_BEARER_TOKEN"),
        "{text}"
    );
    assert!(
        backend
            .take()
            .iter()
            .all(|r| r.header("x-api-key") != Some("k-123"))
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn structured_content_always_matches_the_advertised_output_schema() {
    let backend = Backend::start(pet_reply).await;
    let client = connect(petstore(), options_for(&backend, "/v1")).await;
    // Missing documented fields, extra fields and a new enum value: still structured.
    let partial = call(&client, "get_pet", json!({"petId": 3})).await;
    assert_eq!(partial.is_error, Some(false), "{}", text_of(&partial));
    assert_eq!(
        partial.structured_content,
        Some(json!({"name": "Rex", "color": "brown", "status": "adopted"}))
    );
    // Wrong types: still a success (the call happened); the values that do
    // not fit are null in the structured content, and named in a note
    // before the response as received.
    let wrong = call(&client, "get_pet", json!({"petId": 2})).await;
    assert_eq!(wrong.is_error, Some(false), "{}", text_of(&wrong));
    assert_eq!(
        wrong.structured_content,
        Some(json!({"id": null, "name": null}))
    );
    let text = text_of(&wrong);
    assert!(
        text.contains("do not match the schema")
            && text.contains("`.id` is a string")
            && text.contains("`.name` is a number")
            && text.contains("\"two\""),
        "{text}"
    );
    client.cancel().await.unwrap();
}

fn features() -> Catalog {
    catalog_at(&local("specs/features.yaml"))
}

fn features_reply(r: &Recorded) -> Reply {
    match (
        r.method.as_str(),
        r.target.split('?').next().unwrap_or_default(),
    ) {
        ("GET", "/api/search") => (
            200,
            "application/json",
            br#"{"total":1,"items":[{"id":1,"name":"a"}]}"#.to_vec(),
        ),
        ("GET", "/api/items") => (
            200,
            "application/json",
            br#"[{"id":1,"name":"a"}]"#.to_vec(),
        ),
        ("PATCH", _) => (200, "application/json", br#"{"id":5,"name":"b"}"#.to_vec()),
        ("GET", "/api/reports/2024") => (200, "text/csv", b"month,total\n1,3\n".to_vec()),
        ("GET", _) => (200, "text/plain", b"red".to_vec()),
        _ => (204, "text/plain", Vec::new()),
    }
}

/// Every parameter location and style and every body kind, asserted on the
/// exact request the backend received.
#[tokio::test]
async fn every_location_style_and_body_kind_reaches_the_backend_exactly() {
    use openapi2mcp::runtime::auth::Credentials;
    let backend = Backend::start(features_reply).await;
    let mut options = options_for(&backend, "/api");
    options.credentials = Credentials::from_pairs([("OPENAPI2MCP_KEY_KEY", "key-1")]);
    let client = connect(features(), options).await;

    // `2.0` passes the integer schema and is sent as `2`; a null cursor is left out.
    let search = call(&client, "search_items", json!({
        "q": "red shoes", "tags": ["a", "b"], "ids": [1, 2.0], "filter": {"color": "red", "size": "M"},
        "sort": ["name", "-date"], "cursor": null, "X-Trace-Id": "t-1", "session": "s 1"})).await;
    assert_eq!(
        search.structured_content,
        Some(json!({"total": 1, "items": [{"id": 1, "name": "a"}]}))
    );
    let items = call(&client, "list_items", json!({})).await;
    assert_eq!(
        items.structured_content,
        Some(json!({"result": [{"id": 1, "name": "a"}]}))
    );
    let patched = call(
        &client,
        "patch_item",
        json!({"id": 5, "body_id": "ext-9", "name": "b", "note": null}),
    )
    .await;
    assert_eq!(patched.is_error, Some(false), "{}", text_of(&patched));
    call(&client, "get_colors", json!({"color": ["blue", "black"]})).await;
    call(
        &client,
        "send_contact",
        json!({"name": "Ann Lee", "email": "ann@example.com", "topics": ["a&b", "c"]}),
    )
    .await;
    call(
        &client,
        "put_note",
        json!({"noteId": "n1", "body": "line 1\nline 2"}),
    )
    .await;
    call(
        &client,
        "upload_file",
        json!({"file": "data:image/png;base64,iVBORw==", "description": "logo"}),
    )
    .await;
    call(
        &client,
        "put_blob",
        json!({"name": "b1", "body": "AAEC/w=="}),
    )
    .await;
    let report = call(&client, "get_report", json!({"year": 2024})).await;
    assert_eq!(text_of(&report), "month,total\n1,3\n");
    assert!(report.structured_content.is_none());

    let seen = backend.take();
    assert_eq!(seen.len(), 9);
    for r in &seen {
        assert_eq!(
            r.header("x-key"),
            Some("key-1"),
            "{} {}",
            r.method,
            r.target
        );
    }
    let s = &seen[0];
    assert_eq!(
        s.target,
        "/api/search?q=red%20shoes&tags=a&tags=b&ids=1,2&filter[color]=red&filter[size]=M&sort=name|-date"
    );
    assert_eq!(s.header("x-trace-id"), Some("t-1"));
    assert_eq!(s.header("cookie"), Some("session=s%201"));
    assert_eq!(
        (seen[1].method.as_str(), seen[1].target.as_str()),
        ("GET", "/api/items")
    );
    let p = &seen[2];
    assert_eq!(
        (p.method.as_str(), p.target.as_str()),
        ("PATCH", "/api/items/5")
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&p.body).unwrap(),
        json!({"id": "ext-9", "name": "b", "note": null}),
        "an explicit null clears a nullable JSON property"
    );
    assert_eq!(seen[3].target, "/api/colors/.blue.black");
    let form = &seen[4];
    assert_eq!(
        form.header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        String::from_utf8_lossy(&form.body),
        "name=Ann%20Lee&email=ann%40example.com&topics=a%26b&topics=c"
    );
    let note = &seen[5];
    assert_eq!(
        (note.method.as_str(), note.target.as_str()),
        ("PUT", "/api/notes/n1")
    );
    assert_eq!(note.header("content-type"), Some("text/plain"));
    assert_eq!(note.body, b"line 1\nline 2");
    let upload = &seen[6];
    let ct = upload.header("content-type").unwrap();
    assert!(
        ct.starts_with("multipart/form-data; boundary=openapi2mcp-"),
        "{ct}"
    );
    let boundary = ct.split("boundary=").nth(1).unwrap();
    let body = upload.body.clone();
    let expected_file_part = [
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"file\"\r\nContent-Type: image/png\r\n\r\n").into_bytes(),
        vec![0x89, b'P', b'N', b'G'],
        b"\r\n".to_vec(),
    ]
    .concat();
    assert!(
        body.windows(expected_file_part.len())
            .any(|w| w == expected_file_part.as_slice()),
        "{}",
        String::from_utf8_lossy(&body)
    );
    assert!(String::from_utf8_lossy(&body).contains("name=\"description\"\r\n\r\nlogo\r\n"));
    assert!(String::from_utf8_lossy(&body).ends_with(&format!("--{boundary}--\r\n")));
    let blob = &seen[7];
    assert_eq!(
        blob.header("content-type"),
        Some("application/octet-stream")
    );
    assert_eq!(blob.body, [0u8, 1, 2, 255]);
    assert_eq!(seen[8].target, "/api/reports/2024");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn stateless_http_needs_no_session() {
    let backend = Backend::start(pet_reply).await;
    let bridge = Bridge::new(petstore(), options_for(&backend, "/v1")).unwrap();
    let shutdown = CancellationToken::new();
    let bound = bind_http(
        bridge,
        HttpTransportOptions {
            listen: "127.0.0.1:0".parse().unwrap(),
            auth_token: None,
            stateless: true,
            allowed_hosts: vec![],
            allowed_origins: vec![],
            ..HttpTransportOptions::default()
        },
        shutdown.clone(),
    )
    .await
    .unwrap();
    let url = format!("http://{}/mcp", bound.local_addr);
    let server = tokio::spawn(bound.run());
    let http = reqwest::Client::new();
    let rpc = |body: Value| {
        http.post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18")
            .body(body.to_string())
            .send()
    };
    // No initialize, no session id: each request stands alone.
    let res = rpc(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}))
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.headers().get("mcp-session-id").is_none());
    let text = res.text().await.unwrap();
    assert!(text.contains("\"get_pet\""), "{text}");
    let res = rpc(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_pet", "arguments": {"petId": 1}}}))
        .await
        .unwrap();
    let text = res.text().await.unwrap();
    assert!(text.contains("\"structuredContent\""), "{text}");
    shutdown.cancel();
    tokio::time::timeout(std::time::Duration::from_secs(10), server)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn sigterm_stops_the_http_server_gracefully() {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args([
            "serve",
            "-q",
            "--transport",
            "http",
            "--listen",
            "127.0.0.1:0",
        ])
        .arg(local("specs/petstore.yaml"))
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    use tokio::io::AsyncBufReadExt;
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = tokio::time::timeout(std::time::Duration::from_secs(20), lines.next_line())
            .await
            .expect("server announces its endpoint")
            .unwrap()
            .expect("stderr open");
        if let Some(rest) = line.split("MCP endpoint at http://").nth(1) {
            break rest.trim_end_matches("/mcp").to_string();
        }
    };
    let res = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let pid = child.id().unwrap() as i32;
    // SAFETY: plain kill(2) on our own child.
    assert_eq!(unsafe { libc_kill(pid, 15) }, 0);
    let status = tokio::time::timeout(std::time::Duration::from_secs(10), child.wait())
        .await
        .expect("exits after SIGTERM")
        .unwrap();
    assert!(status.success(), "{status:?}");
}

unsafe extern "C" {
    #[link_name = "kill"]
    fn libc_kill(pid: i32, sig: i32) -> i32;
}

static FLAKY_HITS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn flaky_reply(_: &Recorded) -> Reply {
    // Every other request fails with 503.
    if FLAKY_HITS
        .fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        .is_multiple_of(2)
    {
        (503, "text/plain", b"try again".to_vec())
    } else {
        (
            200,
            "application/json",
            br#"{"id":1,"name":"Rex"}"#.to_vec(),
        )
    }
}

#[tokio::test]
async fn retries_apply_to_idempotent_calls_only() {
    let backend = Backend::start(flaky_reply).await;
    let mut options = options_for(&backend, "/v1");
    options.http.retries = 2;
    options.http.retry_backoff = std::time::Duration::from_millis(10);
    let client = connect(petstore(), options).await;
    FLAKY_HITS.store(0, std::sync::atomic::Ordering::SeqCst);
    let got = call(&client, "get_pet", json!({"petId": 1})).await;
    assert_eq!(
        got.is_error,
        Some(false),
        "GET is retried after a 503: {}",
        text_of(&got)
    );
    assert_eq!(backend.take().len(), 2);
    FLAKY_HITS.store(0, std::sync::atomic::Ordering::SeqCst);
    let got = call(&client, "create_pet", json!({"name": "Rex"})).await;
    assert_eq!(got.is_error, Some(true), "POST is never retried");
    assert_eq!(backend.take().len(), 1);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn header_and_cookie_injection_is_refused() {
    let backend = Backend::start(features_reply).await;
    let client = connect(features(), options_for(&backend, "/api")).await;
    for args in [
        json!({"q": "x", "X-Trace-Id": "a\r\nX-Admin: 1"}),
        json!({"q": "x", "session": "s\r\nSet-Cookie: admin=1"}),
    ] {
        let got = call(&client, "search_items", args.clone()).await;
        assert_eq!(got.is_error, Some(true), "{args}");
        assert!(
            text_of(&got).contains("No request was sent"),
            "{}",
            text_of(&got)
        );
    }
    assert!(backend.take().is_empty());
    client.cancel().await.unwrap();
}

/// Swagger 2.0 end to end: body, formData (urlencoded and multipart with a
/// file) and collectionFormat parameters become the right requests.
#[tokio::test]
async fn swagger_2_0_documents_make_correct_requests() {
    let Some(path) = crate::support::external("@readme/oas-examples/2.0/json/petstore.json") else {
        return;
    };
    let catalog = catalog_at(&path);
    assert_eq!(
        catalog.tools[0].http.servers[0].url,
        "http://petstore.swagger.io/v2"
    );
    let backend = Backend::start(|_| {
        (
            200,
            "application/json",
            br#"{"code":200,"type":"ok","message":"done"}"#.to_vec(),
        )
    })
    .await;
    let client = connect(catalog, options_for(&backend, "/v2")).await;

    call(
        &client,
        "find_pets_by_status",
        json!({"status": ["available", "sold"]}),
    )
    .await;
    call(
        &client,
        "add_pet",
        json!({"name": "Rex", "photoUrls": ["https://x/1.png"], "status": "available"}),
    )
    .await;
    call(
        &client,
        "update_pet_with_form",
        json!({"petId": 7, "name": "Tom", "status": "sold"}),
    )
    .await;
    call(
        &client,
        "upload_file",
        json!({"petId": 7, "additionalMetadata": "front", "file": "aGVsbG8="}),
    )
    .await;

    let seen = backend.take();
    assert_eq!(seen.len(), 4);
    assert_eq!(
        seen[0].target,
        "/v2/pet/findByStatus?status=available&status=sold"
    );
    assert_eq!(
        (seen[1].method.as_str(), seen[1].target.as_str()),
        ("POST", "/v2/pet")
    );
    assert_eq!(seen[1].header("content-type"), Some("application/json"));
    assert_eq!(
        serde_json::from_slice::<Value>(&seen[1].body).unwrap(),
        json!({"name": "Rex", "photoUrls": ["https://x/1.png"], "status": "available"})
    );
    assert_eq!(seen[2].target, "/v2/pet/7");
    assert_eq!(
        seen[2].header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        String::from_utf8_lossy(&seen[2].body),
        "name=Tom&status=sold"
    );
    assert_eq!(seen[3].target, "/v2/pet/7/uploadImage");
    assert!(
        seen[3]
            .header("content-type")
            .unwrap()
            .starts_with("multipart/form-data; boundary=")
    );
    let body = String::from_utf8_lossy(&seen[3].body).to_string();
    assert!(
        body.contains("name=\"additionalMetadata\"\r\n\r\nfront\r\n"),
        "{body}"
    );
    assert!(body.contains("name=\"file\"; filename=\"file\"\r\nContent-Type: application/octet-stream\r\n\r\nhello\r\n"), "{body}");
    client.cancel().await.unwrap();
}
