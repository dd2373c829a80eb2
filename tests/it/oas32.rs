//! OpenAPI 3.2 end to end, on `specs/oas32.yaml`: what `list` makes of
//! each construct the version adds (QUERY and `additionalOperations`,
//! `in: querystring`, `itemSchema` streams, nested tags, `$self`), and
//! what `serve` sends and returns for each against real backends on
//! 127.0.0.1, one of which streams Server-Sent Events and JSON Lines
//! slowly, item by item (over stdio-like in-process pipes and over
//! streamable HTTP).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use openapi2mcp::pipeline::{self, PipelineOptions};
use openapi2mcp::runtime::catalog::{Catalog, ToolDef};
use openapi2mcp::runtime::http::HttpOptions;
use openapi2mcp::runtime::response::ResponseLimits;
use openapi2mcp::server::confirm::ConfirmPolicy;
use openapi2mcp::server::modes::{ListingOptions, ToolsMode};
use openapi2mcp::server::{Bridge, ServeOptions};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::backend::{Backend, Recorded, Reply};
use crate::serve::connect;
use crate::support::local;
use crate::support::{call, text_of};

fn oas32() -> (Catalog, Vec<String>) {
    let loaded = pipeline::load_catalog(
        local("specs/oas32.yaml").to_str().unwrap(),
        &PipelineOptions::default(),
    )
    .unwrap();
    let warnings = loaded
        .diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.pointer, d.message))
        .collect();
    (loaded.catalog, warnings)
}

fn tool<'a>(catalog: &'a Catalog, name: &str) -> &'a ToolDef {
    catalog
        .tools
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

#[test]
fn list_reads_every_construct_without_a_warning() {
    let (catalog, warnings) = oas32();
    // `$self` references (absolute and relative to it) resolve locally:
    // nothing is reported as unresolved or remote.
    assert!(warnings.is_empty(), "{warnings:#?}");
    let names: Vec<(&str, &str)> = catalog
        .tools
        .iter()
        .map(|t| (t.name.as_str(), t.http.method.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("list_items", "GET"),
            ("search_items", "QUERY"),
            ("lookup_items", "GET"),
            ("get_item", "GET"),
            ("copy_item", "COPY"),
            ("watch_item", "GET"),
            ("stream_logs", "GET"),
        ]
    );
    // QUERY: read-only and idempotent, with a body.
    let search = tool(&catalog, "search_items");
    assert!(search.annotations.read_only_hint && search.annotations.idempotent_hint);
    assert_eq!(
        search.input_schema["required"],
        json!(["text"]),
        "{:#}",
        search.input_schema
    );
    assert!(search.http.body.is_some());
    // An additional operation is a tool of its own, with no hint the
    // method does not give.
    let copy = tool(&catalog, "copy_item");
    assert!(!copy.annotations.read_only_hint && !copy.annotations.idempotent_hint);
    assert_eq!(copy.http.path, "/items/{id}");
    // `in: querystring`: one structured argument, its content's schema.
    let list = tool(&catalog, "list_items");
    let filter = &list.input_schema["properties"]["filter"];
    assert_eq!(filter["type"], "object", "{:#}", list.input_schema);
    assert_eq!(filter["properties"]["tag"]["type"], "array");
    assert_eq!(list.http.params.len(), 1);
    assert_eq!(list.http.params[0].location.as_str(), "querystring");
    // `$self`: the item schema reached through the absolute URI is the
    // component's.
    let listed = serde_json::to_string(&list.output_schema).unwrap();
    assert!(listed.contains("\"name\""), "{listed}");
    // Streams: the result is an array of `itemSchema`.
    let watch = tool(&catalog, "watch_item");
    let out = watch.output_schema.as_ref().unwrap();
    assert_eq!(out["properties"]["result"]["type"], "array", "{out:?}");
    let events = serde_json::to_string(out).unwrap();
    assert!(events.contains("\"retry\""), "{events}");
    let logs = tool(&catalog, "stream_logs")
        .output_schema
        .as_ref()
        .unwrap();
    assert!(
        serde_json::to_string(logs).unwrap().contains("\"message\""),
        "{logs:?}"
    );
    // The device flow and metadata URL are read into the scheme.
    let scheme = serde_json::to_value(&catalog.security_schemes["device"]).unwrap();
    let text = scheme.to_string();
    assert!(
        text.contains("https://auth.example.com/device")
            && text.contains("oauth-authorization-server"),
        "{scheme:#}"
    );
    // Tag parents reach the catalog.
    assert_eq!(catalog.tag_parents["search"], "items");
    assert_eq!(catalog.tag_parents["items"], "catalog");
    assert_eq!(catalog.tag_parents["feeds"], "catalog");
}

#[test]
fn the_cli_lists_and_lints_a_32_document_quietly() {
    let out = assert_cmd::Command::cargo_bin("openapi2mcp")
        .unwrap()
        .args(["lint", "specs/oas32.yaml"])
        .current_dir(crate::support::root())
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("0 errors, 0 warnings"), "{text}");
    assert!(!text.contains("version"), "{text}");
    // A stream with an itemSchema has a schema.
    assert!(!text.contains("response-without-schema"), "{text}");
    assert!(
        text.contains("/additionalOperations/COPY") || !text.contains("copy_item"),
        "{text}"
    );
}

fn json_reply(r: &Recorded) -> Reply {
    let body = match r.method.as_str() {
        "COPY" => json!({"id": 3, "name": "Lamp"}),
        _ if r.target.starts_with("/v1/items/1") => json!({"id": 1, "name": "Lamp"}),
        _ => json!([{"id": 1, "name": "Lamp", "tags": ["light"]}]),
    };
    let status = if r.method == "COPY" { 201 } else { 200 };
    (status, "application/json", body.to_string().into_bytes())
}

fn options(base: &str) -> ServeOptions {
    ServeOptions {
        base_url: Some(format!("{base}/v1")),
        confirm: ConfirmPolicy::None,
        ..ServeOptions::default()
    }
}

#[tokio::test]
async fn query_querystring_and_additional_operations_go_on_the_wire_as_written() {
    let backend = Backend::start(json_reply).await;
    let client = connect(oas32().0, options(&backend.url())).await;

    let found = call(
        &client,
        "search_items",
        json!({"text": "desk lamp", "limit": 5}),
    )
    .await;
    assert_eq!(found.is_error, Some(false), "{found:?}");
    assert_eq!(
        found.structured_content,
        Some(json!({"result": [{"id": 1, "name": "Lamp", "tags": ["light"]}]}))
    );
    let listed = call(
        &client,
        "list_items",
        json!({"filter": {"q": "a b+c", "tag": ["x", "y"], "page": 2}}),
    )
    .await;
    assert_eq!(listed.is_error, Some(false), "{listed:?}");
    let looked = call(
        &client,
        "lookup_items",
        json!({"selector": {"ids": [1, 2], "flag": null}}),
    )
    .await;
    assert_eq!(looked.is_error, Some(false), "{looked:?}");
    let copied = call(
        &client,
        "copy_item",
        json!({"id": 1, "Destination": "/items/3"}),
    )
    .await;
    assert_eq!(copied.is_error, Some(false), "{copied:?}");
    let bad = call(&client, "list_items", json!({"filter": "q=1"})).await;
    assert_eq!(bad.is_error, Some(true), "a form query string is an object");

    let seen = backend.take();
    assert_eq!(seen.len(), 4, "{seen:#?}");
    assert_eq!(
        (seen[0].method.as_str(), seen[0].target.as_str()),
        ("QUERY", "/v1/items/search")
    );
    assert_eq!(seen[0].header("content-type"), Some("application/json"));
    let body: Value = serde_json::from_slice(&seen[0].body).unwrap();
    assert_eq!(body, json!({"text": "desk lamp", "limit": 5}));
    // The querystring is the whole query: form pairs, arrays repeated.
    assert_eq!(seen[1].target, "/v1/items?q=a%20b%2Bc&tag=x&tag=y&page=2");
    // A JSON querystring is its JSON text, percent-encoded, as one piece
    // (OpenAPI 3.2's own example).
    assert_eq!(
        seen[2].target,
        "/v1/items/lookup?%7B%22ids%22%3A%5B1%2C2%5D%2C%22flag%22%3Anull%7D"
    );
    assert_eq!(
        (seen[3].method.as_str(), seen[3].target.as_str()),
        ("COPY", "/v1/items/1")
    );
    assert_eq!(seen[3].header("destination"), Some("/items/3"));
    client.cancel().await.unwrap();
}

/// A backend that answers every request with a stream, written piece by
/// piece with a pause between pieces (chunked transfer encoding), so the
/// client sees each item long before the response ends. `/v1/logs` is
/// JSON Lines (an item split across two pieces), `/v1/items/1/events` three
/// Server-Sent Events, `/v1/items/9/events` an event every 100 ms forever.
struct Streamer {
    addr: std::net::SocketAddr,
    /// When the response's last piece was written, per request.
    ended: Arc<Mutex<Vec<Instant>>>,
}

const PAUSE: Duration = Duration::from_millis(400);

impl Streamer {
    async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let ended: Arc<Mutex<Vec<Instant>>> = Arc::default();
        let log = Arc::clone(&ended);
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let log = Arc::clone(&log);
                tokio::spawn(async move { Self::answer(socket, log).await });
            }
        });
        Self { addr, ended }
    }

    async fn answer(mut socket: tokio::net::TcpStream, log: Arc<Mutex<Vec<Instant>>>) {
        let mut head = Vec::new();
        let mut buf = [0u8; 1024];
        while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 65536 {
            match socket.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => head.extend_from_slice(&buf[..n]),
            }
        }
        let head = String::from_utf8_lossy(&head).to_string();
        let target = head
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string();
        let (content_type, pieces, endless): (&str, Vec<&[u8]>, bool) =
            if target.starts_with("/v1/logs") {
                (
                    "application/jsonl",
                    vec![
                        b"{\"level\": 1, \"message\": \"one\"}\n",
                        b"{\"level\": 2, \"mess",
                        b"age\": \"two\"}\n{\"level\": 3, \"message\": \"three\"}",
                    ],
                    false,
                )
            } else if target.starts_with("/v1/items/9/") {
                ("text/event-stream", vec![b"data: tick\n\n"], true)
            } else {
                (
                    "text/event-stream",
                    vec![
                        b": hello\nevent: renamed\nid: 1\ndata: {\"name\": \"Lamp\"}\n\n",
                        b"event: tagged\nid: 2\ndata: light\ndata: desk\n\n",
                        b"event: deleted\nid: 3\nretry: 5000\ndata:\n\n",
                    ],
                    false,
                )
            };
        let start = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ntransfer-encoding: chunked\r\n\r\n"
        );
        if socket.write_all(start.as_bytes()).await.is_err() {
            return;
        }
        let mut sent = 0;
        loop {
            let piece = pieces[sent % pieces.len()];
            let chunk = [format!("{:x}\r\n", piece.len()).as_bytes(), piece, b"\r\n"].concat();
            if socket.write_all(&chunk).await.is_err() {
                return;
            }
            sent += 1;
            if !endless && sent == pieces.len() {
                break;
            }
            tokio::time::sleep(if endless {
                Duration::from_millis(100)
            } else {
                PAUSE
            })
            .await;
            if sent > 600 {
                return; // bounded, whatever happens
            }
        }
        let _ = socket.write_all(b"0\r\n\r\n").await;
        log.lock().unwrap().push(Instant::now());
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

/// A client recording each progress notification and when it came.
#[derive(Clone, Default)]
struct Progress(Arc<Mutex<Vec<Note>>>);

/// A progress notification: when it came, its progress and its message.
type Note = (Instant, f64, Option<String>);

impl ClientHandler for Progress {
    async fn on_progress(
        &self,
        params: rmcp::model::ProgressNotificationParam,
        _context: rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.0
            .lock()
            .unwrap()
            .push((Instant::now(), params.progress, params.message));
    }
}

/// Calls `name` with a progress token; the result, and the notifications
/// once the last one (`done`) arrived.
async fn call_with_progress(
    client: &RunningService<RoleClient, Progress>,
    seen: &Progress,
    name: &str,
    args: Value,
) -> (CallToolResult, Vec<Note>) {
    let mut meta = rmcp::model::RequestMetaObject::default();
    meta.set_progress_token(rmcp::model::ProgressToken(
        rmcp::model::NumberOrString::Number(1),
    ));
    let params = CallToolRequestParams::new(name.to_string())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    let handle = client
        .send_cancellable_request(
            rmcp::model::ClientRequest::CallToolRequest(rmcp::model::CallToolRequest::new(params)),
            rmcp::service::PeerRequestOptions::no_options().with_meta(meta),
        )
        .await
        .unwrap();
    let response = handle.await_response().await.unwrap();
    let rmcp::model::ServerResult::CallToolResult(result) = response else {
        panic!("not a tool result: {response:?}");
    };
    for _ in 0..100 {
        let done = seen
            .0
            .lock()
            .unwrap()
            .iter()
            .any(|(_, _, m)| m.as_deref() == Some("done"));
        if done {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let notes = std::mem::take(&mut *seen.0.lock().unwrap());
    (result, notes)
}

async fn progress_client(
    options: ServeOptions,
) -> (RunningService<RoleClient, Progress>, Progress) {
    let bridge = Bridge::new(oas32().0, options).unwrap();
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = bridge.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let seen = Progress::default();
    let client = seen.clone().serve(client_io).await.unwrap();
    (client, seen)
}

/// The item notifications (those saying `item n: …`), in order.
fn items(notes: &[Note]) -> Vec<(Instant, f64, String)> {
    notes
        .iter()
        .filter_map(|(at, p, m)| Some((*at, *p, m.clone().filter(|m| m.starts_with("item "))?)))
        .collect()
}

#[tokio::test]
async fn json_lines_stream_item_by_item_as_progress_and_end_as_an_array() {
    let streamer = Streamer::start().await;
    let (client, seen) = progress_client(options(&streamer.url())).await;
    let (result, notes) = call_with_progress(&client, &seen, "stream_logs", json!({})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let expected = json!([
        {"level": 1, "message": "one"},
        {"level": 2, "message": "two"},
        {"level": 3, "message": "three"},
    ]);
    assert_eq!(
        result.structured_content,
        Some(json!({ "result": expected }))
    );
    let got = items(&notes);
    assert_eq!(
        got.iter()
            .map(|(_, p, m)| (*p, m.as_str()))
            .collect::<Vec<_>>(),
        [
            (1.0, r#"item 1: {"level":1,"message":"one"}"#),
            (2.0, r#"item 2: {"level":2,"message":"two"}"#),
            (3.0, r#"item 3: {"level":3,"message":"three"}"#),
        ],
        "{notes:?}"
    );
    // Item by item: the first item was reported while the stream was
    // still being written (two pauses before its end).
    let ended = streamer.ended.lock().unwrap()[0];
    assert!(
        ended.duration_since(got[0].0) >= PAUSE,
        "item 1 came {:?} before the end",
        ended.duration_since(got[0].0)
    );
    // Progress only grows, and ends with `done`.
    let progress: Vec<f64> = notes.iter().map(|(_, p, _)| *p).collect();
    assert!(progress.windows(2).all(|w| w[0] < w[1]), "{progress:?}");
    assert_eq!(notes.last().unwrap().2.as_deref(), Some("done"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn server_sent_events_are_items_shaped_by_the_event_schema() {
    let streamer = Streamer::start().await;
    let (client, seen) = progress_client(options(&streamer.url())).await;
    let (result, notes) = call_with_progress(&client, &seen, "watch_item", json!({"id": 1})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(
        result.structured_content,
        Some(json!({"result": [
            {"data": "{\"name\": \"Lamp\"}", "event": "renamed", "id": "1"},
            {"data": "light\ndesk", "event": "tagged", "id": "2"},
            {"data": "", "event": "deleted", "id": "3", "retry": 5000},
        ]}))
    );
    assert_eq!(items(&notes).len(), 3, "{notes:?}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_endless_stream_returns_what_arrived_by_the_time_limit() {
    let streamer = Streamer::start().await;
    let mut opts = options(&streamer.url());
    opts.http = HttpOptions {
        timeout: Duration::from_millis(1200),
        ..HttpOptions::default()
    };
    let (client, seen) = progress_client(opts).await;
    let started = Instant::now();
    let (result, notes) = call_with_progress(&client, &seen, "watch_item", json!({"id": 9})).await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let ticks = result.structured_content.as_ref().unwrap()["result"]
        .as_array()
        .unwrap()
        .len();
    assert!((5..=14).contains(&ticks), "{ticks} events in 1.2 s");
    assert!(
        text_of(&result).contains("still open when the call's time limit came"),
        "{}",
        text_of(&result)
    );
    assert_eq!(items(&notes).len(), ticks);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_stream_over_the_size_cap_keeps_its_whole_items() {
    let streamer = Streamer::start().await;
    let mut opts = options(&streamer.url());
    opts.http = HttpOptions {
        limits: ResponseLimits { max_body_bytes: 40 },
        ..HttpOptions::default()
    };
    let client = connect(oas32().0, opts).await;
    let result = call(&client, "stream_logs", json!({})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    // 40 bytes hold the first line and part of the second.
    assert_eq!(
        result.structured_content,
        Some(json!({"result": [{"level": 1, "message": "one"}]}))
    );
    assert!(
        text_of(&result).contains("truncated: the JSON Lines exceeded the 40-byte limit"),
        "{}",
        text_of(&result)
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn streams_report_progress_over_streamable_http_too() {
    use openapi2mcp::server::transport::{HttpTransportOptions, bind_http};
    use rmcp::transport::StreamableHttpClientTransport;
    let streamer = Streamer::start().await;
    let bridge = Bridge::new(oas32().0, options(&streamer.url())).unwrap();
    let shutdown = tokio_util::sync::CancellationToken::new();
    let bound = bind_http(
        bridge,
        HttpTransportOptions {
            listen: "127.0.0.1:0".parse().unwrap(),
            ..HttpTransportOptions::default()
        },
        shutdown.clone(),
    )
    .await
    .unwrap();
    let url = format!("http://{}/mcp", bound.local_addr);
    let server = tokio::spawn(bound.run());
    let seen = Progress::default();
    let client = tokio::time::timeout(
        Duration::from_secs(20),
        seen.clone()
            .serve(StreamableHttpClientTransport::from_uri(url)),
    )
    .await
    .unwrap()
    .unwrap();
    let (result, notes) = call_with_progress(&client, &seen, "stream_logs", json!({})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let got = items(&notes);
    assert_eq!(got.len(), 3, "{notes:?}");
    let ended = streamer.ended.lock().unwrap()[0];
    assert!(ended.duration_since(got[0].0) >= PAUSE, "{notes:?}");
    client.cancel().await.unwrap();
    shutdown.cancel();
    let _ = tokio::time::timeout(Duration::from_secs(10), server).await;
}

fn toolsets(names: &[&str]) -> ServeOptions {
    ServeOptions {
        listing: ListingOptions {
            mode: ToolsMode::Toolsets,
            toolsets: names.iter().map(|n| n.to_string()).collect(),
            ..ListingOptions::default()
        },
        ..options("http://127.0.0.1:9")
    }
}

async fn listed(client: &RunningService<RoleClient, ()>) -> Vec<String> {
    let mut names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .filter(|n| !n.ends_with("_toolset") && !n.ends_with("_toolsets") && n != "get_call_result")
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn a_parent_tag_selects_the_toolsets_nested_under_it() {
    // `catalog` has no operation of its own: it is a toolset all the same,
    // and holds items (and search under it) and feeds.
    let client = connect(oas32().0, toolsets(&["catalog"])).await;
    assert_eq!(
        listed(&client).await,
        [
            "get_item",
            "list_items",
            "lookup_items",
            "search_items",
            "stream_logs",
            "watch_item"
        ]
    );
    let sets = call(&client, "list_toolsets", json!({})).await;
    let sets = sets.structured_content.unwrap();
    let search = sets["toolsets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "search")
        .unwrap();
    assert_eq!(search["parent"], "items");
    client.cancel().await.unwrap();

    // A middle one: itself and its child, not its siblings.
    let client = connect(oas32().0, toolsets(&["items"])).await;
    assert_eq!(
        listed(&client).await,
        ["get_item", "list_items", "lookup_items", "search_items"]
    );
    // Disabling the parent disables the children with it.
    let off = call(&client, "disable_toolset", json!({"names": ["items"]})).await;
    assert_eq!(off.is_error, Some(false), "{off:?}");
    assert!(listed(&client).await.is_empty());
    let on = call(&client, "enable_toolset", json!({"names": ["search"]})).await;
    assert_eq!(on.is_error, Some(false), "{on:?}");
    assert_eq!(listed(&client).await, ["lookup_items", "search_items"]);
    client.cancel().await.unwrap();
}

#[test]
fn self_is_the_base_uri_and_names_a_file_across_files() {
    // The root calls itself https://example.com/api/root.yaml and refers
    // to `shared/common.yaml` (found beside it on disk), which calls
    // itself https://example.com/api/shared/common.yaml and refers back
    // by a URI relative to its own `$self`.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("shared")).unwrap();
    std::fs::write(
        dir.path().join("root.yaml"),
        "openapi: 3.2.0\n$self: https://example.com/api/root.yaml\ninfo: {title: t, version: '1'}\npaths:\n  /things:\n    get:\n      operationId: listThings\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: 'shared/common.yaml#/components/schemas/Things'}\ncomponents:\n  schemas:\n    Thing:\n      type: object\n      properties:\n        label: {type: string}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("shared/common.yaml"),
        "openapi: 3.2.0\n$self: https://example.com/api/shared/common.yaml\ninfo: {title: c, version: '1'}\ncomponents:\n  schemas:\n    Things:\n      type: array\n      items: {$ref: '../root.yaml#/components/schemas/Thing'}\n",
    )
    .unwrap();
    let loaded = pipeline::load_catalog(
        dir.path().join("root.yaml").to_str().unwrap(),
        &PipelineOptions::default(),
    )
    .unwrap();
    let problems: Vec<&str> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(problems.is_empty(), "{problems:#?}");
    let out = loaded.catalog.tools[0].output_schema.as_ref().unwrap();
    let text = serde_json::to_string(out).unwrap();
    assert!(text.contains("\"label\""), "{out:?}");
}

#[tokio::test]
async fn the_mock_answers_every_32_construct() {
    let mock = crate::arazzo::Mock::start("specs/oas32.yaml").await;
    let client = connect(oas32().0, {
        let mut o = options("");
        o.base_url = Some(mock.url.clone());
        o
    })
    .await;
    let found = call(&client, "search_items", json!({"text": "lamp"})).await;
    assert_eq!(found.is_error, Some(false), "{found:?}");
    let copied = call(&client, "copy_item", json!({"id": 1, "Destination": "/x"})).await;
    assert_eq!(copied.is_error, Some(false), "{copied:?}");
    // Streams: the item synthesized from `itemSchema`, as the media type
    // writes it, read back into an array.
    let logs = call(&client, "stream_logs", json!({})).await;
    let items = &logs.structured_content.as_ref().unwrap()["result"];
    assert_eq!(items.as_array().map(Vec::len), Some(1), "{logs:?}");
    assert!(items[0]["message"].is_string(), "{items}");
    let events = call(&client, "watch_item", json!({"id": 1})).await;
    let items = &events.structured_content.as_ref().unwrap()["result"];
    assert!(items[0]["data"].is_string(), "{events:?}");
    assert_eq!(
        mock.requests().await,
        [
            "QUERY /v1/items/search",
            "COPY /v1/items/1",
            "GET /v1/logs",
            "GET /v1/items/1/events"
        ]
    );
    client.cancel().await.unwrap();
}
