//! The fixes of the code review of issue #22 item 4, each proven end to
//! end: toolsets survive reloads by name, secrets are scrubbed from
//! structured content, token passthrough is refused at parse time,
//! `--watch` follows a Kubernetes ConfigMap's symlink swap, retries keep
//! to one deadline and honour `Retry-After`, network reads of documents
//! and keys are bounded, document URLs are logged without credentials,
//! and every numeric flag is range-checked at parse time.

use std::time::Duration;

use openapi2mcp::document::Document;
use openapi2mcp::runtime::schemas::Schemas;
use openapi2mcp::server::modes::{ListingOptions, ToolsMode};
use openapi2mcp::server::{Bridge, ServeOptions};
use openapi2mcp::tools::{self, BuildOptions, Catalog};
use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};

use crate::backend::{Backend, Recorded, Reply};
use crate::support::{call, text_of};

/// A catalog built from an inline document.
fn catalog_of(doc: Value) -> Catalog {
    let doc = Document::from_value("inline.json", doc).unwrap();
    tools::build(&doc, &BuildOptions::default()).0
}

/// A document with one GET operation per `(operationId, tag)`, at `/{id}`.
fn tagged_doc(ops: &[(&str, &str)]) -> Value {
    let mut paths = serde_json::Map::new();
    for (id, tag) in ops {
        paths.insert(
            format!("/{id}"),
            json!({"get": {"operationId": id, "tags": [tag], "summary": format!("Get {id}"),
                "responses": {"200": {"description": "ok",
                "content": {"application/json": {"schema": {"type": "object"}}}}}}}),
        );
    }
    json!({"openapi": "3.0.3", "info": {"title": "Sets", "version": "1"}, "paths": paths})
}

fn ok_reply(_: &Recorded) -> Reply {
    (200, "application/json", br#"{"ok":true}"#.to_vec())
}

/// A session in process on `bridge` (its own toolsets).
async fn session(bridge: &Bridge) -> RunningService<RoleClient, ()> {
    let session = bridge.new_session();
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = session.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_io).await.expect("client connects")
}

async fn listed(client: &RunningService<RoleClient, ()>) -> Vec<String> {
    let tools = tokio::time::timeout(Duration::from_secs(20), client.list_all_tools())
        .await
        .expect("answered in time")
        .expect("tools/list answered (the server did not panic)");
    tools.into_iter().map(|t| t.name.to_string()).collect()
}

/// What toolsets mode lists before any toolset's tools.
const META: [&str; 4] = [
    "list_toolsets",
    "enable_toolset",
    "disable_toolset",
    "get_call_result",
];

// 1. Toolsets are kept by name, so a reload that renumbers them cannot
//    mis-index a session's choice.
#[tokio::test]
async fn enabled_toolsets_survive_reloads_that_reorder_or_drop_toolsets() {
    let backend = Backend::start(ok_reply).await;
    let options = ServeOptions {
        base_url: Some(backend.url()),
        listing: ListingOptions {
            mode: ToolsMode::Toolsets,
            ..ListingOptions::default()
        },
        ..ServeOptions::default()
    };
    let first = tagged_doc(&[("get_a1", "alpha"), ("get_b1", "beta"), ("get_b2", "beta")]);
    let bridge = Bridge::new(catalog_of(first), options).unwrap();
    let client = session(&bridge).await;
    let on = call(&client, "enable_toolset", json!({"names": ["beta"]})).await;
    assert_eq!(on.is_error, Some(false), "{}", text_of(&on));
    assert_eq!(listed(&client).await[META.len()..], ["get_b1", "get_b2"]);

    // The toolsets come in another order: `beta` is third now, and the
    // second (its old position) is `alpha`.
    let reordered = tagged_doc(&[
        ("get_g1", "gamma"),
        ("get_a1", "alpha"),
        ("get_b1", "beta"),
        ("get_b3", "beta"),
    ]);
    bridge
        .reload(catalog_of(reordered), Schemas::default())
        .await
        .unwrap();
    let now = listed(&client).await;
    assert_eq!(now[..META.len()], META);
    assert_eq!(
        now[META.len()..],
        ["get_b1", "get_b3"],
        "the session's toolset is beta"
    );
    let sets = call(&client, "list_toolsets", json!({})).await;
    let sets = sets.structured_content.unwrap();
    let enabled: Vec<&str> = sets["toolsets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["enabled"] == true)
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(enabled, ["beta"], "{sets}");
    let got = call(&client, "get_b3", json!({})).await;
    assert_eq!(got.is_error, Some(false), "{}", text_of(&got));
    let refused = call(&client, "get_a1", json!({})).await;
    assert_eq!(refused.is_error, Some(true), "alpha is not enabled");
    assert!(text_of(&refused).contains("alpha"), "{}", text_of(&refused));

    // Fewer toolsets than the old position of `beta`: no index past the end.
    let fewer = tagged_doc(&[("get_b4", "beta")]);
    bridge
        .reload(catalog_of(fewer), Schemas::default())
        .await
        .unwrap();
    assert_eq!(listed(&client).await[META.len()..], ["get_b4"]);
    let got = call(&client, "get_b4", json!({})).await;
    assert_eq!(got.is_error, Some(false), "{}", text_of(&got));

    // A reload without the toolset: nothing listed, nothing panics; when
    // it comes back, the session's choice holds again.
    bridge
        .reload(
            catalog_of(tagged_doc(&[("get_g2", "gamma")])),
            Schemas::default(),
        )
        .await
        .unwrap();
    assert_eq!(listed(&client).await, META);
    let sets = call(&client, "list_toolsets", json!({})).await;
    assert_eq!(sets.is_error, Some(false), "{}", text_of(&sets));
    bridge
        .reload(
            catalog_of(tagged_doc(&[("get_b5", "beta")])),
            Schemas::default(),
        )
        .await
        .unwrap();
    assert_eq!(listed(&client).await[META.len()..], ["get_b5"]);
    let off = call(&client, "disable_toolset", json!({"names": ["beta"]})).await;
    assert_eq!(off.structured_content.unwrap()["changed"], true);
    assert_eq!(listed(&client).await, META);
    client.cancel().await.unwrap();
}

/// The bearer token the secret-echo tests configure.
const TOKEN: &str = "tok-SECRET-4711";

/// Echoes the bearer token it received in a JSON value, a key and a
/// nested string, the way a debugging endpoint or a careless error does.
fn echo_token(r: &Recorded) -> Reply {
    let token = r
        .header("authorization")
        .and_then(|a| a.strip_prefix("Bearer "))
        .unwrap_or("none");
    let body = json!({"seen": token, token: 1, "nested": [{"note": format!("you sent {token}.")}]});
    (200, "application/json", body.to_string().into_bytes())
}

// 2. Structured content goes through the same redaction as text.
#[tokio::test]
async fn a_credential_echoed_in_json_reaches_neither_text_nor_structured_content() {
    use openapi2mcp::runtime::auth::Credentials;
    let backend = Backend::start(echo_token).await;
    let output = |_: Value| {
        json!({"200": {"description": "ok", "content": {"application/json": {"schema": {
            "type": "object", "properties": {"seen": {"type": "string"},
                "nested": {"type": "array", "items": {"type": "object"}}}}}}}})
    };
    let doc = json!({
        "openapi": "3.1.0", "info": {"title": "Echo", "version": "1"},
        "security": [{"bearer": []}],
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
        "paths": {
            "/echo": {"get": {"operationId": "get_echo", "responses": output(json!({}))}},
            // Keys like the token are integers, any other key a string: the
            // token's key, masked, no longer fits.
            "/strict": {"get": {"operationId": "get_strict",
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
                    "type": "object",
                    "properties": {"seen": {"type": "string"}, "nested": {"type": "array"}},
                    "patternProperties": {"^tok-": {"type": "integer"}},
                    "additionalProperties": {"type": "string"}}}}}}}}
        }
    });
    let options = ServeOptions {
        base_url: Some(backend.url()),
        credentials: Credentials::from_pairs([("OPENAPI2MCP_BEARER_TOKEN", TOKEN)]),
        ..ServeOptions::default()
    };
    let bridge = Bridge::new(catalog_of(doc), options).unwrap();
    let client = session(&bridge).await;

    let got = call(&client, "get_echo", json!({})).await;
    assert_eq!(
        backend.take()[0].header("authorization"),
        Some(format!("Bearer {TOKEN}").as_str()),
        "the token was sent"
    );
    assert_eq!(got.is_error, Some(false), "{}", text_of(&got));
    let structured = got.structured_content.clone().expect("structured content");
    let everything = serde_json::to_string(&got).unwrap();
    assert!(!everything.contains(TOKEN), "{everything}");
    assert_eq!(structured["seen"], "***", "{structured}");
    assert_eq!(structured["***"], 1, "keys are masked too: {structured}");
    assert_eq!(structured["nested"][0]["note"], "you sent ***.");
    assert!(!text_of(&got).contains(TOKEN));

    // Masked, the result no longer fits the output schema (the masked key
    // `***` falls under `additionalProperties`, a string, but holds 1): the
    // unfit value is repaired like any other (null, with a note), and the
    // call stays a success without the token anywhere.
    let got = call(&client, "get_strict", json!({})).await;
    let everything = serde_json::to_string(&got).unwrap();
    assert!(!everything.contains(TOKEN), "{everything}");
    assert_eq!(got.is_error, Some(false), "{everything}");
    let structured = got.structured_content.clone().expect("structured content");
    assert_eq!(structured["***"], Value::Null, "{structured}");
    assert_eq!(structured["seen"], "***", "{structured}");
    assert!(text_of(&got).contains("shown as null"), "{}", text_of(&got));
    client.cancel().await.unwrap();
}

/// A token forwarded from the MCP client (`--forward-authorization`) is
/// masked like a configured one when the API echoes it: the model never
/// reads the caller's credential, though no configuration names it.
#[tokio::test]
async fn a_forwarded_token_echoed_by_the_api_is_masked() {
    const FORWARDED: &str = "client-forwarded-token-90210";
    let backend = Backend::start(|r: &Recorded| {
        let sent = r.header("authorization").unwrap_or("none").to_string();
        let body = json!({"seen": sent, "note": format!("token {sent} is not valid here")});
        (200, "application/json", body.to_string().into_bytes())
    })
    .await;
    let doc = json!({
        "openapi": "3.1.0", "info": {"title": "Echo", "version": "1"},
        "paths": {"/echo": {"get": {"operationId": "get_echo", "responses": {"200": {
            "description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}}}}
    });
    let options = ServeOptions {
        base_url: Some(backend.url()),
        forward_authorization: true,
        ..ServeOptions::default()
    };
    let bridge = Bridge::new(catalog_of(doc), options).unwrap();
    let (url, shutdown) = crate::protocol::http_server(bridge).await;
    let bearer = format!("Bearer {FORWARDED}");
    let (status, answer) = crate::mcp_headers::rpc(
        &url,
        "tools/call",
        json!({"name": "get_echo", "arguments": {}}),
        &[("mcp-name", "get_echo"), ("authorization", &bearer)],
    )
    .await;
    assert_eq!(
        backend.take()[0].header("authorization"),
        Some(bearer.as_str()),
        "the client's token was forwarded"
    );
    assert_eq!(status, 200, "{answer}");
    let result = &answer["result"];
    assert_eq!(result["isError"], false, "{answer}");
    let everything = answer.to_string();
    assert!(!everything.contains(FORWARDED), "{everything}");
    assert_eq!(result["structuredContent"]["seen"], "***", "{answer}");
    assert_eq!(
        result["structuredContent"]["note"], "token *** is not valid here",
        "{answer}"
    );
    shutdown.cancel();
}

/// Runs the real binary with `args` (and `env`), waiting at most 60 s;
/// its exit code and stderr.
fn run_binary(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args(args)
        .env_remove("OPENAPI2MCP_AUTH_TOKEN")
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`openapi2mcp {}` did not exit within 60 s", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status.code(), reader.join().unwrap())
}

// 3. Token passthrough is refused when the command line is parsed.
#[test]
fn forward_authorization_with_a_token_for_this_server_is_refused_at_parse_time() {
    let spec = crate::support::local("specs/petstore.yaml");
    let spec = spec.to_str().unwrap();
    let base = [
        "serve",
        spec,
        "--transport",
        "http",
        "--listen",
        "127.0.0.1:0",
    ];
    // Extra flags, extra environment, the flag the refusal names.
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);
    let cases: [Case; 3] = [
        (&["--auth-token", "s3cret"], &[], "--auth-token"),
        (&[], &[("OPENAPI2MCP_AUTH_TOKEN", "s3cret")], "--auth-token"),
        (
            &[
                "--oauth-issuer",
                "https://as.example.com",
                "--resource-url",
                "https://mcp.example.com/mcp",
            ],
            &[],
            "--oauth-issuer",
        ),
    ];
    for (extra, env, named) in cases {
        let mut args = base.to_vec();
        args.push("--forward-authorization");
        args.extend_from_slice(extra);
        let (code, stderr) = run_binary(&args, env);
        assert_eq!(code, Some(2), "{args:?} {env:?}: {stderr}");
        assert!(
            stderr.contains("--forward-authorization") && stderr.contains(named),
            "{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!stderr.contains("s3cret"), "{stderr}");
    }
}

/// A Kubernetes ConfigMap volume as kubelet lays it out: the document's
/// path `dir/spec.json` links to `..data/spec.json`, and `..data` links
/// to a timestamped directory holding the data.
struct ConfigMapVolume {
    dir: tempfile::TempDir,
    current: String,
}

impl ConfigMapVolume {
    fn new(text: &str) -> Self {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let current = "..2026_11_24_10_00_00.000000001".to_string();
        std::fs::create_dir(dir.path().join(&current)).unwrap();
        std::fs::write(dir.path().join(&current).join("spec.json"), text).unwrap();
        symlink(&current, dir.path().join("..data")).unwrap();
        symlink("..data/spec.json", dir.path().join("spec.json")).unwrap();
        Self { dir, current }
    }

    fn path(&self) -> std::path::PathBuf {
        self.dir.path().join("spec.json")
    }

    /// An update the way kubelet's atomic writer makes it: the new data
    /// in a new timestamped directory, a `..data_tmp` symlink to it
    /// renamed over `..data`, then the old directory removed. The file
    /// at `path()` is never written, renamed or removed.
    fn update(&mut self, text: &str, stamp: &str) {
        use std::os::unix::fs::symlink;
        let next = format!("..2026_11_24_10_{stamp}.000000002");
        let base = self.dir.path();
        std::fs::create_dir(base.join(&next)).unwrap();
        std::fs::write(base.join(&next).join("spec.json"), text).unwrap();
        symlink(&next, base.join("..data_tmp")).unwrap();
        std::fs::rename(base.join("..data_tmp"), base.join("..data")).unwrap();
        std::fs::remove_dir_all(base.join(&self.current)).unwrap();
        self.current = next;
    }
}

// 4. `--watch` follows a ConfigMap update (a `..data` symlink swap).
#[tokio::test]
async fn watch_reloads_on_a_configmap_symlink_swap() {
    use openapi2mcp::pipeline::{self, PipelineOptions};
    use openapi2mcp::reload::Reloader;
    let backend = Backend::start(ok_reply).await;
    let mut volume = ConfigMapVolume::new(&tagged_doc(&[("get_first", "all")]).to_string());
    let path = volume.path();
    let location = path.to_str().unwrap();
    let loaded = pipeline::load_catalog(location, &PipelineOptions::default()).unwrap();
    let options = ServeOptions {
        base_url: Some(backend.url()),
        listing: ListingOptions {
            mode: ToolsMode::Full,
            ..ListingOptions::default()
        },
        ..ServeOptions::default()
    };
    let bridge = Bridge::new(loaded.catalog, options).unwrap();
    let reloader = Reloader::new(location, PipelineOptions::default(), bridge.clone());
    reloader.spawn_watch(Duration::from_secs(1)).unwrap();
    let client = session(&bridge).await;
    assert_eq!(listed(&client).await, ["get_first", "get_call_result"]);

    for (round, stamp) in [("get_second", "01_00"), ("get_third", "02_00")] {
        volume.update(&tagged_doc(&[(round, "all")]).to_string(), stamp);
        let mut now = Vec::new();
        for _ in 0..100 {
            now = listed(&client).await;
            if now == [round, "get_call_result"] {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(
            now,
            [round, "get_call_result"],
            "the ConfigMap update was not picked up"
        );
        let got = call(&client, round, json!({})).await;
        assert_eq!(got.is_error, Some(false), "{}", text_of(&got));
    }
    client.cancel().await.unwrap();
}

/// What a scripted backend answers: status, extra headers, body.
type Scripted = (u16, Vec<(String, String)>, Vec<u8>);

/// A backend on 127.0.0.1 that answers the `n`th request (from 0) with
/// `reply(n)`; returns its URL and the count of requests it received.
async fn scripted(
    reply: impl Fn(usize) -> Scripted + Send + Sync + 'static,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&hits);
    let reply = Arc::new(reply);
    let app = axum::Router::new().fallback(move || {
        let n = counter.fetch_add(1, Ordering::SeqCst);
        let (status, headers, body) = reply(n);
        async move {
            let mut res = axum::response::Response::builder().status(status);
            for (k, v) in headers {
                res = res.header(k, v);
            }
            res.header("content-type", "application/json")
                .body(axum::body::Body::from(body))
                .unwrap()
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, hits)
}

fn busy(retry_after: Option<String>) -> Scripted {
    let headers = retry_after
        .map(|v| vec![("retry-after".to_string(), v)])
        .unwrap_or_default();
    (503, headers, br#"{"message":"busy"}"#.to_vec())
}

fn fine() -> Scripted {
    (200, Vec::new(), br#"{"ok":true}"#.to_vec())
}

/// A session on a one-tool API (`get_thing`) at `url`, with `http` set.
async fn retrying_session(
    url: &str,
    http: impl FnOnce(&mut openapi2mcp::runtime::http::HttpOptions),
) -> RunningService<RoleClient, ()> {
    let mut options = ServeOptions {
        base_url: Some(url.to_string()),
        ..ServeOptions::default()
    };
    http(&mut options.http);
    let bridge = Bridge::new(catalog_of(tagged_doc(&[("get_thing", "all")])), options).unwrap();
    session(&bridge).await
}

fn hits_of(hits: &std::sync::atomic::AtomicUsize) -> usize {
    hits.load(std::sync::atomic::Ordering::SeqCst)
}

// 5. Retry-After is honoured, in seconds and as an HTTP date.
#[tokio::test]
async fn retry_after_is_honoured_in_seconds_and_as_an_http_date() {
    let (url, hits) = scripted(|n| {
        if n == 0 {
            busy(Some("1".into()))
        } else {
            fine()
        }
    })
    .await;
    let client = retrying_session(&url, |h| {
        h.retries = 3;
        h.retry_backoff = Duration::from_millis(10);
    })
    .await;
    let started = std::time::Instant::now();
    let got = call(&client, "get_thing", json!({})).await;
    assert_eq!(got.is_error, Some(false), "{}", text_of(&got));
    assert_eq!(hits_of(&hits), 2);
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "retried after {:?}, not the 1 s Retry-After asks for",
        started.elapsed()
    );
    client.cancel().await.unwrap();

    // An HTTP date two seconds ahead (whole seconds: a wait of 1 to 2 s).
    let (url, hits) = scripted(|n| {
        if n == 0 {
            let at = std::time::SystemTime::now() + Duration::from_secs(2);
            busy(Some(httpdate::fmt_http_date(at)))
        } else {
            fine()
        }
    })
    .await;
    let client = retrying_session(&url, |h| {
        h.retries = 3;
        h.retry_backoff = Duration::from_millis(10);
    })
    .await;
    let started = std::time::Instant::now();
    let got = call(&client, "get_thing", json!({})).await;
    assert_eq!(got.is_error, Some(false), "{}", text_of(&got));
    assert_eq!(hits_of(&hits), 2);
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "retried after {:?}",
        started.elapsed()
    );
    client.cancel().await.unwrap();
}

// 5. A Retry-After past the cap or the deadline ends the retries at once.
#[tokio::test]
async fn a_retry_after_beyond_the_cap_or_the_deadline_returns_the_answer_at_once() {
    for (asked, timeout) in [("120", 30.0), ("3", 2.0)] {
        let asked = asked.to_string();
        let (url, hits) = scripted(move |_| busy(Some(asked.clone()))).await;
        let client = retrying_session(&url, |h| {
            h.retries = 5;
            h.retry_backoff = Duration::from_millis(10);
            h.timeout = Duration::from_secs_f64(timeout);
        })
        .await;
        let started = std::time::Instant::now();
        let got = call(&client, "get_thing", json!({})).await;
        assert!(
            started.elapsed() < Duration::from_millis(1500),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(hits_of(&hits), 1, "no retry was made");
        assert_eq!(got.is_error, Some(true));
        let text = text_of(&got);
        assert!(
            text.contains("503") && text.contains("Retry-After"),
            "{text}"
        );
        client.cancel().await.unwrap();
    }
}

// 5. Retries, waits and attempts all fit in one deadline, for any count.
#[tokio::test]
async fn retries_keep_to_one_deadline_whatever_their_number() {
    let (url, hits) = scripted(|_| busy(None)).await;
    let client = retrying_session(&url, |h| {
        h.retries = u32::MAX;
        h.retry_backoff = Duration::from_millis(100);
        h.timeout = Duration::from_secs(2);
    })
    .await;
    let started = std::time::Instant::now();
    let got = call(&client, "get_thing", json!({})).await;
    let took = started.elapsed();
    assert!(took < Duration::from_millis(2500), "the call took {took:?}");
    assert_eq!(got.is_error, Some(true));
    assert!(text_of(&got).contains("503"), "{}", text_of(&got));
    assert!(hits_of(&hits) >= 3, "{} attempts", hits_of(&hits));
    client.cancel().await.unwrap();

    // An attempt that hangs is cut at the deadline too, not after it.
    let slow = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let slow_url = format!("http://{}", slow.local_addr().unwrap());
    tokio::spawn(async move {
        // Accepts and never answers.
        let mut held = Vec::new();
        while let Ok((socket, _)) = slow.accept().await {
            held.push(socket);
        }
    });
    let client = retrying_session(&slow_url, |h| {
        h.retries = 10;
        h.timeout = Duration::from_secs(1);
    })
    .await;
    let started = std::time::Instant::now();
    let got = call(&client, "get_thing", json!({})).await;
    assert!(
        started.elapsed() < Duration::from_millis(1800),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(got.is_error, Some(true));
    assert!(text_of(&got).contains("timed out"), "{}", text_of(&got));
    client.cancel().await.unwrap();
}

/// How the raw server answers one path.
#[derive(Clone)]
enum Raw {
    /// This body, with a `Content-Length` or (false) until the connection closes.
    Body(Vec<u8>, bool),
    /// An endless body: the connection closes only when the client goes
    /// (or after 4 GiB, to bound the test).
    Endless,
}

/// A bare HTTP/1.1 server on 127.0.0.1 answering each path with what
/// `plan` says (`None`: 404); its origin. Bodies without a length end at
/// connection close, which is what an endless answer needs.
fn raw_server(plan: impl Fn(&str) -> Option<Raw> + Send + Sync + 'static) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let plan = std::sync::Arc::new(plan);
    std::thread::spawn(move || {
        for stream in listener.incoming().take(200) {
            let Ok(mut stream) = stream else { continue };
            let plan = std::sync::Arc::clone(&plan);
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut first = String::new();
                if reader.read_line(&mut first).is_err() {
                    return;
                }
                // Skip the headers.
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let path = first.split(' ').nth(1).unwrap_or("/").to_string();
                let head =
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n";
                match plan(&path) {
                    None => {
                        let _ = stream.write_all(
                            b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                        );
                    }
                    Some(Raw::Body(body, with_length)) => {
                        let length = if with_length {
                            format!("content-length: {}\r\n", body.len())
                        } else {
                            String::new()
                        };
                        let _ = stream.write_all(format!("{head}{length}\r\n").as_bytes());
                        let _ = stream.write_all(&body);
                    }
                    Some(Raw::Endless) => {
                        let _ = stream.write_all(format!("{head}\r\n").as_bytes());
                        let chunk = vec![b' '; 64 * 1024];
                        for _ in 0..(4u64 << 30) / chunk.len() as u64 {
                            if stream.write_all(&chunk).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        }
    });
    origin
}

/// A JSON text of exactly `len` bytes (an object padded with spaces).
fn padded_json(len: usize) -> Vec<u8> {
    let mut body = b"{}".to_vec();
    body.resize(len, b' ');
    body
}

// 6. The document is read with a bound, checked while reading.
#[test]
fn an_oversized_or_endless_document_url_is_refused_naming_the_url_and_the_limit() {
    let origin = raw_server(|path| match path {
        "/big.json" => Some(Raw::Body(padded_json(5000), true)),
        "/unsized.json" => Some(Raw::Body(padded_json(5000), false)),
        "/endless.json" => Some(Raw::Endless),
        _ => None,
    });
    for (path, limit) in [
        ("/big.json", Some("1000")),
        ("/unsized.json", Some("1000")),
        ("/endless.json", Some("100000")),
        ("/endless.json", None),
    ] {
        let url = format!("{origin}{path}");
        let mut args = vec!["list", url.as_str()];
        if let Some(limit) = limit {
            args.extend(["--max-document-bytes", limit]);
        }
        let started = std::time::Instant::now();
        let (code, stderr) = run_binary(&args, &[]);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        let shown = limit.unwrap_or("67108864");
        assert!(
            stderr.contains(&url) && stderr.contains(shown) && stderr.contains("limit"),
            "{args:?}: {stderr}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(25),
            "{args:?} took {:?}",
            started.elapsed()
        );
    }
}

// 6. A local path is bounded the same way: a device that never ends
//    (`/dev/zero`) or a file over the limit is refused, naming the limit.
#[test]
fn an_endless_or_oversized_local_document_is_refused_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.json");
    std::fs::write(&big, padded_json(5000)).unwrap();
    let big = big.to_str().unwrap().to_string();
    for (path, limit) in [("/dev/zero", "100000"), (big.as_str(), "1000")] {
        let started = std::time::Instant::now();
        let (code, stderr) = run_binary(&["list", path, "--max-document-bytes", limit], &[]);
        assert_eq!(code, Some(1), "{path}: {stderr}");
        assert!(
            stderr.contains(limit) && stderr.contains("larger than the limit"),
            "{path}: {stderr}"
        );
        assert!(started.elapsed() < Duration::from_secs(25), "{path}");
    }
}

// 6. So are remote `$ref`s: the operation that needs one is skipped, with
//    a warning naming the URL and the limit; the rest still work.
#[test]
fn an_endless_remote_ref_is_cut_at_the_limit_and_reported() {
    let origin = raw_server(move |path| match path {
        "/endless.json" => Some(Raw::Endless),
        _ => None,
    });
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("api.json");
    let remote = format!("{origin}/endless.json");
    let text = json!({
        "openapi": "3.0.3", "info": {"title": "Refs", "version": "1"},
        "paths": {
            "/a": {"get": {"operationId": "get_a", "responses": {"200": {"description": "ok"}}}},
            "/b": {"$ref": format!("{remote}#/paths/~1b")}
        }
    });
    std::fs::write(&doc, text.to_string()).unwrap();
    let (code, stderr) = run_binary(
        &[
            "list",
            doc.to_str().unwrap(),
            "--allow-remote-refs",
            "--max-document-bytes",
            "65536",
        ],
        &[],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains(&remote) && stderr.contains("65536") && stderr.contains("limit"),
        "{stderr}"
    );
}

// 6. And the authorization server's keys.
#[tokio::test]
async fn an_endless_or_oversized_jwks_is_refused_naming_the_url_and_the_limit() {
    use openapi2mcp::server::authz::jwks::{JwksCache, JwksSource};
    let origin = raw_server(|path| match path {
        "/endless" => Some(Raw::Endless),
        "/big" => Some(Raw::Body(padded_json(3 << 20), true)),
        "/unsized" => Some(Raw::Body(padded_json(3 << 20), false)),
        _ => None,
    });
    for path in ["/endless", "/big", "/unsized"] {
        let url = format!("{origin}{path}");
        let cache = JwksCache::new(
            JwksSource::Url(url.clone()),
            Duration::from_secs(10),
            Duration::from_secs(3600),
        );
        let started = std::time::Instant::now();
        let err = match tokio::time::timeout(Duration::from_secs(20), cache.keys()).await {
            Ok(Err(e)) => e.to_string(),
            Ok(Ok(_)) => panic!("{path}: keys from an oversized answer"),
            Err(_) => panic!("{path}: the fetch did not end"),
        };
        assert!(
            err.contains(&url) && err.contains(&(1u32 << 20).to_string()),
            "{path}: {err}"
        );
        assert!(started.elapsed() < Duration::from_secs(10), "{path}");
    }
}

// 7. A document URL's credentials never reach a log line or an error.
#[tokio::test]
async fn document_url_credentials_are_redacted_from_logs_and_errors() {
    use tokio::io::AsyncBufReadExt;
    const TOKEN: &str = "SECRETtoken99";
    const PASSWORD: &str = "hunter2pw";
    let first = tagged_doc(&[("get_first", "all")]).to_string().into_bytes();
    let second = tagged_doc(&[("get_second", "all")])
        .to_string()
        .into_bytes();
    // The initial load and two polls see the first document, the next
    // three the second, then it breaks.
    let (origin, _) = scripted(move |n| match n {
        0..3 => (200, Vec::new(), first.clone()),
        3..6 => (200, Vec::new(), second.clone()),
        _ => (200, Vec::new(), b"openapi: [this is not".to_vec()),
    })
    .await;
    let url = origin.replace("http://", &format!("http://reader:{PASSWORD}@"))
        + &format!("/api.json?token={TOKEN}&v=1");
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args([
            "serve",
            &url,
            "--transport",
            "http",
            "--listen",
            "127.0.0.1:0",
        ])
        .args([
            "--base-url",
            "http://127.0.0.1:9",
            "--watch",
            "--watch-interval",
            "0.2",
        ])
        .args(["--log", "info"])
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let mut seen = Vec::new();
    let done = tokio::time::timeout(Duration::from_secs(30), async {
        while let Ok(Some(line)) = lines.next_line().await {
            let failed = line.contains("reload of") && line.contains("failed");
            seen.push(line);
            if failed {
                break;
            }
        }
    })
    .await;
    let _ = child.kill().await;
    let stderr = seen.join("\n");
    assert!(done.is_ok(), "no failed reload within 30 s:\n{stderr}");
    assert!(
        stderr.contains("reloaded") && stderr.contains("token=***"),
        "the reloads are logged, naming the document:\n{stderr}"
    );
    assert!(
        !stderr.contains(TOKEN) && !stderr.contains(PASSWORD),
        "{stderr}"
    );

    // Errors of a one-shot command: an HTTP error, and no server at all.
    let missing = origin.replace("http://", &format!("http://reader:{PASSWORD}@"))
        + &format!("/missing.json?token={TOKEN}");
    let (missing_origin, _) = scripted(|_| (404, Vec::new(), b"{}".to_vec())).await;
    let missing = missing.replace(&origin, &missing_origin);
    let dead = format!("http://reader:{PASSWORD}@127.0.0.1:9/api.json?token={TOKEN}");
    for location in [missing, dead] {
        let (code, stderr) =
            tokio::task::spawn_blocking(move || run_binary(&["list", &location], &[]))
                .await
                .unwrap();
        assert_eq!(code, Some(1), "{stderr}");
        assert!(stderr.contains("token=***"), "{stderr}");
        assert!(
            !stderr.contains(TOKEN) && !stderr.contains(PASSWORD),
            "{stderr}"
        );
    }
}

// 8. Every numeric flag of every command is range-checked when parsed:
//    exit status 2 and a message naming the flag, never a panic.
#[test]
fn extreme_numeric_flags_are_refused_at_parse_time_by_every_command() {
    const HUGE: &str = "18446744073709551615"; // u64::MAX
    const HUGER: &str = "99999999999999999999999";
    let spec_flags: &[(&str, &[&str])] = &[
        ("--schema-budget", &[HUGE, HUGER, "-1"]),
        ("--output-schema-budget", &[HUGE, "-1"]),
        ("--max-document-bytes", &["0", HUGE, "-1"]),
    ];
    let serve_flags: &[(&str, &[&str])] = &[
        (
            "--timeout",
            &["1e-30", "0", "-1", "1e20", "NaN", "inf", "abc"],
        ),
        ("--max-response-bytes", &["0", HUGE, HUGER]),
        ("--retries", &["101", "4294967295", "-1"]),
        ("--rate-limit", &["1e-30", "0", "-5", "1e300", "NaN"]),
        ("--rate-burst", &["0", "4294967295"]),
        ("--tools-budget", &[HUGE]),
        ("--shutdown-grace", &["-1", "1e20", "inf"]),
        ("--watch-interval", &["0", "1e-30", "1e20", "NaN"]),
    ];
    let out = tempfile::tempdir().unwrap();
    let out = out.path().join("crate");
    let spec = crate::support::local("specs/petstore.yaml");
    let spec = spec.to_str().unwrap();
    let mut table: Vec<(Vec<&str>, &str, &str)> = Vec::new();
    let commands: [(&str, &[&str]); 4] = [
        ("serve", &[]),
        ("list", &[]),
        ("lint", &[]),
        ("generate", &["--out", out.to_str().unwrap()]),
    ];
    for (command, extra) in commands {
        for (flag, values) in spec_flags {
            for value in *values {
                let mut args = vec![command, spec];
                args.extend_from_slice(extra);
                table.push((args, flag, value));
            }
        }
    }
    for (flag, values) in serve_flags {
        for value in *values {
            table.push((vec!["serve", spec], flag, value));
        }
    }
    for value in [HUGE, "-1"] {
        table.push((vec!["lint", spec], "--max-tokens", value));
    }
    for (flag, value) in [
        ("--max-document-bytes", "0"),
        ("--seed", "-1"),
        ("--seed", HUGER),
    ] {
        table.push((vec!["mock", spec], flag, value));
    }
    for (args, flag, value) in &table {
        let mut args = args.clone();
        // `--flag=value` so that negative numbers are read as values.
        let pair = format!("{flag}={value}");
        args.push(&pair);
        let (code, stderr) = run_binary(&args, &[]);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(flag) && stderr.contains("invalid value"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // The bounds themselves are accepted.
    for (flag, value) in [
        ("--schema-budget", "1073741824"),
        ("--output-schema-budget", "0"),
        ("--max-document-bytes", "1099511627776"),
    ] {
        let (code, stderr) = run_binary(&["list", spec, flag, value], &[]);
        assert_eq!(code, Some(0), "{flag} {value}: {stderr}");
    }
    let (code, stderr) = run_binary(&["lint", spec, "--max-tokens", "1099511627776"], &[]);
    assert_eq!(code, Some(0), "{stderr}");
}
