//! Parity: every crate in generated/ behaves exactly like `openapi2mcp
//! serve` on the document it was generated from. Both run as real
//! processes over stdio, each driven by an rmcp client, against one
//! recording backend: `tools/list` (every page) must be the same JSON, and
//! every `tools/call` must send the same HTTP request (method, path and raw
//! query, headers but `user-agent`, body bytes) and return the same result,
//! errors included.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, PaginatedRequestParams};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

use crate::backend::{Backend, Recorded, Reply};
use crate::support::root;

/// Headers that name the sending program rather than describe the request.
const IGNORED_HEADERS: &[&str] = &["user-agent"];

/// Builds `generated/<name>` (once per test process; one build at a time)
/// into target/generated and returns its binary.
pub(crate) fn generated_binary(name: &str) -> PathBuf {
    static BUILT: Mutex<BTreeMap<String, Result<PathBuf, String>>> = Mutex::new(BTreeMap::new());
    let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
    built
        .entry(name.to_string())
        .or_insert_with(|| build_generated(name))
        .clone()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn build_generated(name: &str) -> Result<PathBuf, String> {
    build_crate(
        &root().join(format!("generated/{name}")),
        &format!("{name}-mcp"),
    )
}

/// Builds the generated crate in `dir` (package `package`) into the shared
/// target/generated and returns its binary.
pub(crate) fn build_crate(dir: &Path, package: &str) -> Result<PathBuf, String> {
    let name = dir.display().to_string();
    let manifest = dir.join("Cargo.toml");
    let target = root().join("target/generated");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    // The versions openapi2mcp is built and tested with (its generated
    // Cargo.toml pins them); cargo trims what the crate does not use. The
    // copy is git-ignored.
    let lock = dir.join("Cargo.lock");
    if !lock.exists() {
        std::fs::copy(root().join("Cargo.lock"), &lock)
            .map_err(|e| format!("cannot seed {}: {e}", lock.display()))?;
    }
    let started = Instant::now();
    let out = Command::new(cargo)
        .arg("build")
        .arg("--manifest-path")
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", &target)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run cargo to build {name}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{name} does not build ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    eprintln!(
        "parity: built {name} in {:.1}s",
        started.elapsed().as_secs_f64()
    );
    let binary = target
        .join("debug")
        .join(format!("{package}{}", std::env::consts::EXE_SUFFIX));
    if !binary.is_file() {
        return Err(format!(
            "cargo built {name} but {} is not there",
            binary.display()
        ));
    }
    Ok(binary)
}

// ---------------------------------------------------------------------------
// Two servers, one backend
// ---------------------------------------------------------------------------

/// One spawned server and the client driving it.
struct Server {
    label: &'static str,
    client: RunningService<RoleClient, ()>,
    stderr: Arc<Mutex<String>>,
}

impl Server {
    async fn spawn(
        label: &'static str,
        program: &Path,
        args: &[String],
        env: &[(&str, &str)],
    ) -> Self {
        let mut cmd = tokio::process::Command::new(program);
        cmd.args(args);
        // Only the variables given here: nothing the developer's shell happens to set.
        for (key, _) in std::env::vars_os() {
            let key_text = key.to_string_lossy();
            if key_text.starts_with("OPENAPI2MCP_") || key_text == "RUST_LOG" {
                cmd.env_remove(&key);
            }
        }
        cmd.envs(env.iter().copied());
        let (transport, stderr) = TokioChildProcess::builder(cmd)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot spawn {label} ({}): {e}", program.display()));
        let log: Arc<Mutex<String>> = Arc::default();
        if let Some(stderr) = stderr {
            let log = Arc::clone(&log);
            tokio::spawn(async move {
                use tokio::io::AsyncBufReadExt;
                let mut lines = tokio::io::BufReader::new(stderr).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    let mut log = log.lock().unwrap();
                    log.push_str(&line);
                    log.push('\n');
                }
            });
        }
        match ().serve(transport).await {
            Ok(client) => Self {
                label,
                client,
                stderr: log,
            },
            Err(e) => {
                tokio::time::sleep(Duration::from_millis(500)).await;
                panic!(
                    "{label} ({}) did not start speaking MCP: {e}\nits stderr:\n{}",
                    program.display(),
                    log.lock().unwrap()
                )
            }
        }
    }

    /// Every `tools/list` page, following `nextCursor`, as JSON.
    async fn list_pages(&self) -> Vec<Value> {
        let mut pages = Vec::new();
        let mut cursor = None;
        loop {
            let page = self
                .client
                .list_tools(Some(PaginatedRequestParams::default().with_cursor(cursor)))
                .await
                .unwrap_or_else(|e| {
                    panic!("{}: tools/list failed: {e}\n{}", self.label, self.log())
                });
            cursor = page.next_cursor.clone();
            pages.push(serde_json::to_value(&page).unwrap());
            if cursor.is_none() || pages.len() > 100 {
                return pages;
            }
        }
    }

    /// Every `resources/list` page and the templates, as JSON.
    async fn resources(&self) -> Value {
        let mut resources = Vec::new();
        let mut cursor = None;
        for _ in 0..100 {
            let page = self
                .client
                .list_resources(Some(PaginatedRequestParams::default().with_cursor(cursor)))
                .await
                .unwrap_or_else(|e| {
                    panic!("{}: resources/list failed: {e}\n{}", self.label, self.log())
                });
            resources.extend(
                page.resources
                    .iter()
                    .map(|r| serde_json::to_value(r).unwrap()),
            );
            cursor = page.next_cursor.clone();
            if cursor.is_none() {
                break;
            }
        }
        let templates = self
            .client
            .list_resource_templates(None)
            .await
            .unwrap_or_else(|e| panic!("{}: templates failed: {e}", self.label));
        json!({"resources": resources, "templates": templates.resource_templates})
    }

    /// `resources/read` as JSON: the result or the error.
    async fn read(&self, uri: &str) -> Value {
        let params = rmcp::model::ReadResourceRequestParams::new(uri.to_string());
        match self.client.read_resource(params).await {
            Ok(result) => json!({"result": result}),
            Err(ServiceError::McpError(error)) => json!({"error": error}),
            Err(e) => panic!("{}: resources/read {uri} failed: {e}", self.label),
        }
    }

    /// `tools/call` as JSON: `{"result": CallToolResult}` or `{"error": ErrorData}`.
    async fn call(&self, tool: &str, args: Option<&Value>) -> Value {
        let mut params = CallToolRequestParams::new(tool.to_string());
        if let Some(args) = args {
            params =
                params.with_arguments(args.as_object().cloned().expect("arguments are an object"));
        }
        match self.client.call_tool(params).await {
            Ok(result) => json!({"result": result}),
            Err(ServiceError::McpError(error)) => json!({"error": error}),
            Err(e) => panic!(
                "{}: tools/call `{tool}` failed at the transport: {e}\nits stderr:\n{}",
                self.label,
                self.log()
            ),
        }
    }

    fn log(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

/// What a case must do (checked on both servers, besides being identical).
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// One request sent, `isError: false`.
    Ok,
    /// One request sent, `isError: true` (the API failed, or answered with
    /// something that cannot be made to fit the output schema).
    ApiError,
    /// Nothing sent, `isError: true`, and the text contains this.
    Refused(&'static str),
    /// A JSON-RPC error containing this.
    RpcError(&'static str),
    /// Answered by the server itself (a meta-tool): nothing sent, no error.
    Local,
    /// This many requests sent (a code-mode script's calls), no error.
    Sent(usize),
}

/// One call: tool, arguments (`None`: no `arguments` member at all), expectation.
struct Case {
    tool: &'static str,
    args: Option<Value>,
    expect: Expect,
}

fn case(tool: &'static str, args: Value, expect: Expect) -> Case {
    Case {
        tool,
        args: Some(args),
        expect,
    }
}

fn no_args(tool: &'static str, expect: Expect) -> Case {
    Case {
        tool,
        args: None,
        expect,
    }
}

/// A request as the backend saw it, minus what names the sender.
#[derive(Debug, Clone, PartialEq)]
struct Wire {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Wire {
    fn of(r: Recorded) -> Self {
        Self {
            method: r.method,
            target: r.target,
            headers: r
                .headers
                .into_iter()
                .filter(|(k, _)| !IGNORED_HEADERS.contains(&k.to_ascii_lowercase().as_str()))
                .collect(),
            body: r.body,
        }
    }

    fn show(&self) -> String {
        format!(
            "{} {}\n{}\n\n{}",
            self.method,
            self.target,
            self.headers
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
                .join("\n"),
            String::from_utf8_lossy(&self.body).escape_debug()
        )
    }
}

/// What differs between two requests, field by field.
fn wire_difference(a: &Wire, b: &Wire) -> String {
    let mut out = Vec::new();
    if a.method != b.method {
        out.push(format!(
            "method: serve {} / generated {}",
            a.method, b.method
        ));
    }
    if a.target != b.target {
        out.push(format!(
            "path and query: serve `{}` / generated `{}`",
            a.target, b.target
        ));
    }
    if a.headers != b.headers {
        let set = |w: &Wire| w.headers.iter().cloned().collect::<BTreeSet<_>>();
        let (sa, sb) = (set(a), set(b));
        let only_a: Vec<_> = sa.difference(&sb).collect();
        let only_b: Vec<_> = sb.difference(&sa).collect();
        if only_a.is_empty() && only_b.is_empty() {
            out.push(format!(
                "header order: serve {:?} / generated {:?}",
                a.headers, b.headers
            ));
        } else {
            out.push(format!(
                "headers: only serve sent {only_a:?}; only generated sent {only_b:?}"
            ));
        }
    }
    if a.body != b.body {
        out.push(format!(
            "body: serve {:?} / generated {:?}",
            String::from_utf8_lossy(&a.body),
            String::from_utf8_lossy(&b.body)
        ));
    }
    out.join("\n    ")
}

/// `openapi2mcp serve` and a generated binary on the same document, with
/// the same flags and environment.
struct Pair<'a> {
    context: String,
    backend: &'a Backend,
    serve: Server,
    generated: Server,
    failures: Vec<String>,
    /// Tools that a case sent to the backend through both servers.
    reached: BTreeSet<String>,
}

impl<'a> Pair<'a> {
    async fn start(
        name: &str,
        spec: &str,
        binary: &Path,
        backend: &'a Backend,
        prefix: &str,
        session: &Session,
    ) -> Pair<'a> {
        let mut flags = vec![
            "--base-url".to_string(),
            format!("{}{prefix}", backend.url()),
            // Requests are compared; neither client here can confirm a
            // DELETE (both refuse it alike, tests/it/protocol.rs covers it).
            "--confirm".to_string(),
            "none".to_string(),
        ];
        flags.extend(session.flags.iter().map(|f| f.to_string()));
        let env = session.env.as_slice();
        let mut serve_args = vec!["serve".to_string(), root().join(spec).display().to_string()];
        serve_args.extend(flags.iter().cloned());
        let serve = Server::spawn(
            "openapi2mcp serve",
            Path::new(env!("CARGO_BIN_EXE_openapi2mcp")),
            &serve_args,
            env,
        )
        .await;
        let generated = Server::spawn("generated", binary, &flags, env).await;
        Pair {
            context: format!(
                "generated/{name} vs `openapi2mcp serve {spec}` ({})",
                session.label
            ),
            backend,
            serve,
            generated,
            failures: Vec::new(),
            reached: BTreeSet::new(),
        }
    }

    fn fail(&mut self, what: String) {
        self.failures.push(format!("{}: {what}", self.context));
    }

    /// Same `initialize` answer (but the server's name) and same tool list;
    /// returns the tool names.
    async fn compare_listing(&mut self) -> Vec<String> {
        let info = |s: &Server| {
            let mut v = serde_json::to_value(s.client.peer_info()).unwrap();
            if let Some(info) = v.get_mut("serverInfo").and_then(Value::as_object_mut) {
                info.remove("name");
            }
            v
        };
        let (a, b) = (info(&self.serve), info(&self.generated));
        if a != b {
            self.fail(format!(
                "initialize results differ (serverInfo.name aside):\n  serve:     {a}\n  generated: {b}"
            ));
        }
        let a = self.serve.list_pages().await;
        let b = self.generated.list_pages().await;
        if a.len() != b.len() {
            self.fail(format!(
                "tools/list has {} page(s) from serve, {} from generated",
                a.len(),
                b.len()
            ));
        }
        let tools = |pages: &[Value]| -> Vec<Value> {
            pages
                .iter()
                .flat_map(|p| p["tools"].as_array().cloned().unwrap_or_default())
                .collect()
        };
        let (ta, tb) = (tools(&a), tools(&b));
        let name = |t: &Value| t["name"].as_str().unwrap_or_default().to_string();
        let names_a: Vec<String> = ta.iter().map(name).collect();
        let names_b: Vec<String> = tb.iter().map(name).collect();
        if names_a != names_b {
            self.fail(format!(
                "tools/list names differ:\n  serve:     {names_a:?}\n  generated: {names_b:?}"
            ));
        } else {
            for (x, y) in ta.iter().zip(&tb) {
                if x != y {
                    self.fail(format!(
                        "tools/list entry `{}` differs:\n  serve:     {x}\n  generated: {y}",
                        name(x)
                    ));
                }
            }
            if a != b {
                self.fail(format!(
                    "tools/list pages differ (tools equal, so paging or cursors):\n  serve:     {a:?}\n  generated: {b:?}"
                ));
            }
        }
        assert!(!names_a.is_empty(), "{}: no tools listed", self.context);
        self.compare_resources(&names_a).await;
        // The API's operations (a meta-tool such as get_call_result
        // sends no request of its own).
        ta.iter()
            .filter(|t| t["_meta"][openapi2mcp::runtime::catalog::ORIGIN_META_KEY].is_object())
            .map(name)
            .collect()
    }

    /// Same resources, templates and resource contents: the document,
    /// every component schema, and every tool's full input and output
    /// schema (errors included).
    async fn compare_resources(&mut self, tools: &[String]) {
        let a = self.serve.resources().await;
        let b = self.generated.resources().await;
        if a != b {
            self.fail(format!(
                "resources/list or templates differ:\n  serve:     {a}\n  generated: {b}"
            ));
        }
        let mut uris: Vec<String> = a["resources"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["uri"].as_str().map(String::from))
            .collect();
        assert!(
            uris.iter().any(|u| u == "openapi2mcp://document"),
            "{}: the document is not a resource",
            self.context
        );
        for tool in tools {
            uris.push(format!("openapi2mcp://tools/{tool}/input-schema"));
            uris.push(format!("openapi2mcp://tools/{tool}/output-schema"));
        }
        uris.push("openapi2mcp://schemas/NoSuchSchema".into());
        for uri in uris {
            let x = self.serve.read(&uri).await;
            let y = self.generated.read(&uri).await;
            if x != y {
                self.fail(format!(
                    "resources/read {uri} differs:\n  serve:     {x}\n  generated: {y}"
                ));
            }
        }
    }

    /// Runs one case through both servers and compares requests and results.
    async fn check(&mut self, case: &Case) {
        let backend = self.backend;
        backend.take();
        let got_a = self.serve.call(case.tool, case.args.as_ref()).await;
        let sent_a: Vec<Wire> = backend.take().into_iter().map(Wire::of).collect();
        let got_b = self.generated.call(case.tool, case.args.as_ref()).await;
        let sent_b: Vec<Wire> = backend.take().into_iter().map(Wire::of).collect();
        let args = case
            .args
            .as_ref()
            .map_or("(no arguments)".to_string(), Value::to_string);
        let what = format!("`{}` {args}", case.tool);

        if sent_a.len() != sent_b.len() {
            self.fail(format!(
                "{what}: serve sent {} request(s), generated {}:\n  serve:\n{}\n  generated:\n{}",
                sent_a.len(),
                sent_b.len(),
                sent_a
                    .iter()
                    .map(Wire::show)
                    .collect::<Vec<_>>()
                    .join("\n--\n"),
                sent_b
                    .iter()
                    .map(Wire::show)
                    .collect::<Vec<_>>()
                    .join("\n--\n"),
            ));
        } else {
            for (a, b) in sent_a.iter().zip(&sent_b) {
                if a != b {
                    self.fail(format!(
                        "{what}: different HTTP requests:\n    {}\n  serve sent:\n{}\n  generated sent:\n{}",
                        wire_difference(a, b),
                        a.show(),
                        b.show()
                    ));
                }
            }
        }
        if got_a != got_b {
            self.fail(format!(
                "{what}: different MCP results:\n  serve:     {got_a}\n  generated: {got_b}"
            ));
        }
        for (label, got, sent) in [
            ("serve", &got_a, sent_a.len()),
            ("generated", &got_b, sent_b.len()),
        ] {
            if let Some(problem) = unexpected(case.expect, got, sent) {
                self.fail(format!("{what}: {label}: {problem}: {got}"));
            }
        }
        if matches!(case.expect, Expect::Ok | Expect::ApiError | Expect::Sent(_))
            && !sent_a.is_empty()
            && !sent_b.is_empty()
        {
            self.reached.insert(case.tool.to_string());
        }
    }

    async fn finish(self) -> (Vec<String>, BTreeSet<String>) {
        let Pair {
            serve,
            generated,
            mut failures,
            reached,
            context,
            ..
        } = self;
        if !failures.is_empty() {
            for s in [&serve, &generated] {
                failures.push(format!("{context}: {} stderr:\n{}", s.label, s.log()));
            }
        }
        let _ = serve.client.cancel().await;
        let _ = generated.client.cancel().await;
        (failures, reached)
    }
}

/// Why `got` does not meet `expect`, if it does not.
fn unexpected(expect: Expect, got: &Value, sent: usize) -> Option<String> {
    let result = &got["result"];
    let is_error = result["isError"].as_bool();
    let text = result["content"]
        .as_array()
        .map(|c| {
            c.iter()
                .filter_map(|c| c["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();
    match expect {
        Expect::Ok if sent != 1 || is_error != Some(false) => Some(format!(
            "expected one request and success, got {sent} request(s)"
        )),
        Expect::ApiError if sent != 1 || is_error != Some(true) => Some(format!(
            "expected one request and isError, got {sent} request(s)"
        )),
        Expect::Refused(needle)
            if sent != 0 || is_error != Some(true) || !text.contains(needle) =>
        {
            Some(format!(
                "expected no request and isError naming `{needle}`, got {sent} request(s)"
            ))
        }
        Expect::Sent(n) if sent != n || is_error != Some(false) => Some(format!(
            "expected {n} request(s) and success, got {sent} request(s) and isError {is_error:?}"
        )),
        Expect::Local if sent != 0 || is_error != Some(false) => Some(format!(
            "expected an answer from the server itself, got {sent} request(s) and isError {is_error:?}"
        )),
        Expect::RpcError(needle)
            if sent != 0
                || got.get("error").is_none()
                || !got["error"].to_string().contains(needle) =>
        {
            Some(format!(
                "expected a JSON-RPC error naming `{needle}`, got {sent} request(s)"
            ))
        }
        _ => None,
    }
}

/// One pair of servers with one environment, and the calls made to both.
struct Session {
    label: &'static str,
    /// Credentials (and other variables) both servers get.
    env: Vec<(&'static str, &'static str)>,
    /// Extra command-line flags both servers get.
    flags: Vec<&'static str>,
    cases: Vec<Case>,
}

fn session(label: &'static str, env: &[(&'static str, &'static str)], cases: Vec<Case>) -> Session {
    Session {
        label,
        env: env.to_vec(),
        flags: Vec::new(),
        cases,
    }
}

/// A [`session`] whose servers both get `flags`.
fn session_with_flags(
    label: &'static str,
    env: &[(&'static str, &'static str)],
    flags: &[&'static str],
    cases: Vec<Case>,
) -> Session {
    Session {
        flags: flags.to_vec(),
        ..session(label, env, cases)
    }
}

/// Runs `sessions` against generated/`name`
/// and `serve`: the listing is compared in each, and the first session's
/// cases must reach the backend with every tool.
async fn run_parity(
    name: &str,
    spec: &str,
    prefix: &str,
    reply: fn(&Recorded) -> Reply,
    sessions: Vec<Session>,
) {
    run_parity_with(name, &generated_binary(name), spec, prefix, reply, sessions).await;
}

/// [`run_parity`] with the generated server `binary` of `generated/<name>`
/// or of another crate generated from `spec`.
async fn run_parity_with(
    name: &str,
    binary: &Path,
    spec: &str,
    prefix: &str,
    reply: fn(&Recorded) -> Reply,
    sessions: Vec<Session>,
) {
    let started = Instant::now();
    let backend = Backend::start(reply).await;
    let mut failures = Vec::new();
    let mut all_tools = Vec::new();
    let mut reached = BTreeSet::new();
    let mut calls = 0;
    for (i, session) in sessions.into_iter().enumerate() {
        let mut pair = Pair::start(name, spec, binary, &backend, prefix, &session).await;
        let tools = pair.compare_listing().await;
        if i == 0 {
            all_tools = tools;
        }
        for case in &session.cases {
            pair.check(case).await;
            calls += 1;
        }
        let (f, r) = pair.finish().await;
        failures.extend(f);
        if i == 0 {
            reached = r;
        }
    }
    let untested: Vec<&String> = all_tools.iter().filter(|t| !reached.contains(*t)).collect();
    if !untested.is_empty() {
        failures.push(format!(
            "generated/{name}: no case sends a request with {untested:?}; add cases for them"
        ));
    }
    assert!(
        failures.is_empty(),
        "generated/{name} differs from `openapi2mcp serve {spec}`:\n\n{}",
        failures.join("\n\n")
    );
    eprintln!(
        "parity: generated/{name}: {} tools, {calls} calls identical in {:.1}s",
        all_tools.len(),
        started.elapsed().as_secs_f64()
    );
}

// ---------------------------------------------------------------------------
// Petstore
// ---------------------------------------------------------------------------

fn petstore_reply(r: &Recorded) -> Reply {
    match (r.header("x-api-key"), r.header("authorization")) {
        (Some("wrong-secret"), _) => {
            return (401, "text/plain", b"bad key wrong-secret".to_vec());
        }
        (None, None) => {
            return (
                401,
                "application/json",
                br#"{"code":401,"message":"authentication required"}"#.to_vec(),
            );
        }
        _ => {}
    }
    let path = r.target.split('?').next().unwrap_or_default();
    match (r.method.as_str(), path) {
        ("GET", "/v1/pets") => (
            200,
            "application/json",
            br#"[{"id":1,"name":"Rex","tags":["dog"]},{"id":2,"name":"Tom","birthday":null}]"#
                .to_vec(),
        ),
        ("POST", "/v1/pets") => (
            201,
            "application/json",
            br#"{"id":3,"name":"Rex","status":"available"}"#.to_vec(),
        ),
        ("GET", "/v1/pets/1/photo") => (200, "image/png", vec![0x89, b'P', b'N', b'G', 0, 1, 2]),
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
        ("GET", "/v1/pets/500") => (500, "text/plain", b"database on fire".to_vec()),
        ("GET", _) => (
            200,
            "application/json",
            br#"{"id":1,"name":"Rex","birthday":"2020-01-02"}"#.to_vec(),
        ),
        ("PATCH", _) => (
            200,
            "application/json",
            br#"{"id":1,"name":"Max","status":"sold"}"#.to_vec(),
        ),
        _ => (204, "text/plain", Vec::new()),
    }
}

fn petstore_cases() -> Vec<Case> {
    use Expect::*;
    vec![
        // list_pets: query parameters, form style, enum, defaults left to the API.
        case("list_pets", json!({}), Ok),
        no_args("list_pets", Ok),
        case(
            "list_pets",
            json!({"limit": 5, "tags": ["dog", "small"], "status": "available"}),
            Ok,
        ),
        case(
            "list_pets",
            json!({"status": "sold", "tags": ["a b", "c,d", "é&ü"], "limit": 100}),
            Ok,
        ),
        case("list_pets", json!({"tags": []}), Ok),
        case("list_pets", json!({"limit": 0}), Refused("limit")),
        case("list_pets", json!({"status": "lost"}), Refused("status")),
        case("list_pets", json!({"tags": null}), Refused("tags")),
        case("list_pets", json!({"limit": "5"}), Refused("limit")),
        // create_pet: JSON body from top-level properties, in any order.
        case("create_pet", json!({"name": "Rex"}), Ok),
        case(
            "create_pet",
            json!({"tags": ["dog", "good boy"], "status": "pending", "name": "Rëx \"the\" ✓"}),
            Ok,
        ),
        case("create_pet", json!({"name": "Rex", "tags": []}), Ok),
        case("create_pet", json!({}), Refused("name")),
        case("create_pet", json!({"name": ""}), Refused("name")),
        case(
            "create_pet",
            json!({"name": "Rex", "extra": true}),
            Refused("extra"),
        ),
        case(
            "create_pet",
            json!({"name": "Rex", "status": null}),
            Refused("status"),
        ),
        // get_pet: path parameter; structured, off-schema (repaired, so a
        // success), partial, 404, 500.
        case("get_pet", json!({"petId": 1}), Ok),
        case("get_pet", json!({"petId": 2}), Ok),
        case("get_pet", json!({"petId": 3}), Ok),
        case("get_pet", json!({"petId": 404}), ApiError),
        case("get_pet", json!({"petId": 500}), ApiError),
        case("get_pet", json!({"petId": 1.0}), Ok),
        case("get_pet", json!({"petId": 9_007_199_254_740_993_u64}), Ok),
        case("get_pet", json!({"petId": "abc"}), Refused("petId")),
        case("get_pet", json!({"petId": 0}), Refused("petId")),
        case("get_pet", json!({}), Refused("petId")),
        no_args("get_pet", Refused("petId")),
        case(
            "get_pet",
            json!({"petId": 1, "extra": true}),
            Refused("extra"),
        ),
        // update_pet: path parameter plus an optional-only JSON body.
        case("update_pet", json!({"petId": 1, "name": "Max"}), Ok),
        case(
            "update_pet",
            json!({"tags": ["x"], "status": "sold", "petId": 7, "name": "Max"}),
            Ok,
        ),
        case("update_pet", json!({"petId": 1}), Ok),
        case("update_pet", json!({"petId": 1, "tags": []}), Ok),
        case(
            "update_pet",
            json!({"petId": 1, "name": ""}),
            Refused("name"),
        ),
        // delete_pet: 204 without a body.
        case("delete_pet", json!({"petId": 7}), Ok),
        // Photos: an image response, multipart uploads.
        case("get_pet_photo", json!({"petId": 1}), Ok),
        case(
            "upload_pet_photo",
            json!({"petId": 1, "photo": "iVBORw0KGgo=", "caption": "front"}),
            Ok,
        ),
        case(
            "upload_pet_photo",
            json!({"caption": "jpeg", "photo": "data:image/jpeg;base64,/9j/4AAQ", "petId": 2}),
            Ok,
        ),
        case("upload_pet_photo", json!({"petId": 1, "photo": ""}), Ok),
        case(
            "upload_pet_photo",
            json!({"petId": 1, "photo": "not base64 at all!"}),
            Refused("photo"),
        ),
        case("upload_pet_photo", json!({"petId": 1}), Refused("photo")),
        // Not a tool: a protocol error.
        case("no_such_tool", json!({}), RpcError("no_such_tool")),
        no_args("no_such_tool", RpcError("no_such_tool")),
    ]
}

#[tokio::test]
async fn generated_petstore_matches_serve() {
    run_parity(
        "petstore",
        "specs/petstore.yaml",
        "/v1",
        petstore_reply,
        petstore_sessions(),
    )
    .await;
}

/// The petstore generated with the runtime and server crates copied under
/// `vendor/` (generate's default) behaves as `serve` too, in every listing
/// mode of [`petstore_sessions`].
#[tokio::test]
async fn vendored_petstore_matches_serve() {
    let out = root().join("target/vendored-generated/petstore");
    let generated = Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args(["generate", "specs/petstore.yaml", "-q", "--vendor"])
        .args(["--name", "petstore-vendored-mcp", "--out"])
        .arg(&out)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        generated.status.success(),
        "{}",
        String::from_utf8_lossy(&generated.stderr)
    );
    let manifest = std::fs::read_to_string(out.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("path = \"vendor/runtime\""), "{manifest}");
    assert!(out.join("vendor/server/src/lib.rs").is_file());
    let binary = build_crate(&out, "petstore-vendored-mcp").unwrap_or_else(|e| panic!("{e}"));
    run_parity_with(
        "petstore",
        &binary,
        "specs/petstore.yaml",
        "/v1",
        petstore_reply,
        petstore_sessions(),
    )
    .await;
}

fn petstore_sessions() -> Vec<Session> {
    use Expect::*;
    let auth_cases = || {
        vec![
            case("get_pet", json!({"petId": 1}), Ok),
            case("create_pet", json!({"name": "Rex"}), Ok),
        ]
    };
    vec![
        session(
            "apiKey credentials",
            &[("OPENAPI2MCP_APIKEY_KEY", "k-123")],
            petstore_cases(),
        ),
        session(
            "bearer credentials",
            &[("OPENAPI2MCP_BEARER_TOKEN", "t-456")],
            auth_cases(),
        ),
        session(
            "both credentials",
            &[
                ("OPENAPI2MCP_BEARER_TOKEN", "t-456"),
                ("OPENAPI2MCP_APIKEY_KEY", "k-123"),
            ],
            auth_cases(),
        ),
        session(
            "no credentials",
            &[],
            vec![
                case("get_pet", json!({"petId": 1}), ApiError),
                case("list_pets", json!({"limit": 1}), ApiError),
            ],
        ),
        session(
            "a wrong key the API echoes",
            &[("OPENAPI2MCP_APIKEY_KEY", "wrong-secret")],
            vec![case("get_pet", json!({"petId": 1}), ApiError)],
        ),
        session_with_flags(
            "--tools discovery",
            &[("OPENAPI2MCP_APIKEY_KEY", "k-123")],
            &["--tools", "discovery"],
            vec![
                case("search_tools", json!({"query": "find a pet by id"}), Local),
                case(
                    "search_tools",
                    json!({"query": "remove a pet", "limit": 2}),
                    Local,
                ),
                case(
                    "describe_tools",
                    json!({"names": ["get_pet", "nope"]}),
                    Local,
                ),
                case(
                    "call_read_only_tool",
                    json!({"name": "get_pet", "arguments": {"petId": 1}}),
                    Ok,
                ),
                case(
                    "call_read_only_tool",
                    json!({"name": "delete_pet", "arguments": {"petId": 1}}),
                    Refused("call_tool"),
                ),
                case(
                    "call_tool",
                    json!({"name": "create_pet", "arguments": {"name": "Rex"}}),
                    Ok,
                ),
                case("call_tool", json!({"name": "get_pet"}), Refused("petId")),
            ],
        ),
        session_with_flags(
            "--tools toolsets",
            &[("OPENAPI2MCP_APIKEY_KEY", "k-123")],
            &["--tools", "toolsets"],
            vec![
                case("list_toolsets", json!({}), Local),
                case("get_pet", json!({"petId": 1}), Refused("enable_toolset")),
                case("enable_toolset", json!({"names": ["pets"]}), Local),
                case("get_pet", json!({"petId": 1}), Ok),
                case("disable_toolset", json!({"names": "pets"}), Local),
            ],
        ),
        // Code mode: a script's calls go through the same call path as a
        // direct call (in a generated crate: its handlers and hooks).
        session_with_flags(
            "--tools code",
            &[("OPENAPI2MCP_APIKEY_KEY", "k-123")],
            &["--tools", "code"],
            vec![
                case("search_api", json!({"query": "find a pet by id"}), Local),
                case(
                    "execute_read_only",
                    json!({"script": "const pets = await api.list_pets({limit: 2});\nconst pet = await api.get_pet({petId: pets[0].id});\nreturn {count: pets.length, name: pet.name};"}),
                    Sent(2),
                ),
                case(
                    "execute_read_only",
                    json!({"script": "return await api.delete_pet({petId: 1});"}),
                    Refused("execute"),
                ),
                case(
                    "execute",
                    json!({"script": "const made = await api.create_pet({name: 'Rex'});\nreturn made.id;"}),
                    Sent(1),
                ),
                case(
                    "execute",
                    json!({"script": "return await api.get_pet({});"}),
                    Refused("petId"),
                ),
            ],
        ),
    ]
}

// ---------------------------------------------------------------------------
// Features
// ---------------------------------------------------------------------------

fn features_reply(r: &Recorded) -> Reply {
    let path = r.target.split('?').next().unwrap_or_default();
    match (r.method.as_str(), path) {
        ("GET", "/api/search") if r.target.contains("q=off-schema") => (
            200,
            "application/json",
            br#"{"total":"many","items":[{"id":1}]}"#.to_vec(),
        ),
        ("GET", "/api/search") if r.target.contains("q=not-an-object") => {
            (200, "application/json", br#"[{"id":1}]"#.to_vec())
        }
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
        ("GET", "/api/reports/2500") => (
            500,
            "application/json",
            br#"{"error":"database on fire"}"#.to_vec(),
        ),
        ("GET", _) => (200, "text/plain", b"red".to_vec()),
        ("POST", "/api/files") => (201, "application/json", br#"{"stored":true}"#.to_vec()),
        _ => (204, "text/plain", Vec::new()),
    }
}

fn features_cases() -> Vec<Case> {
    use Expect::*;
    vec![
        // put_settings: over the schema budget, so its listed schema
        // summarizes `billing`; both check the full schema (the generated
        // crate from its embedded schemas.json).
        case(
            "put_settings",
            json!({"org": "acme", "setting_0": "a", "billing": {"email": "a@b.c", "plan": {"seats": 3, "name": "pro"}}}),
            Ok,
        ),
        case(
            "put_settings",
            json!({"org": "acme", "setting_0": "a", "billing": {"plan": {"seats": 0}}}),
            Refused("billing.plan.seats"),
        ),
        case(
            "put_settings",
            json!({"org": "acme", "setting_0": "a", "billing": {"plan": {"seats": 2, "colour": "red"}}}),
            Refused("billing.plan"),
        ),
        // search: every query style, a header and a cookie.
        case(
            "search_items",
            json!({"q": "red shoes", "tags": ["a", "b"], "ids": [1, 2], "filter": {"color": "red", "size": "M"},
                "sort": ["name", "-date"], "X-Trace-Id": "t-1", "session": "s 1"}),
            Ok,
        ),
        case("search_items", json!({"q": "x"}), Ok),
        case(
            "search_items",
            json!({"session": "a;b=c", "X-Trace-Id": "ü-2", "sort": ["z"], "filter": {"size": "L", "color": "dark blue", "x": "y"},
                "ids": [3, 2.0], "tags": ["c d", "e&f=g/h?i#j"], "q": "100% \"real\" +plus"}),
            Ok,
        ),
        case(
            "search_items",
            json!({"q": "", "tags": [], "ids": [], "sort": [], "filter": {}}),
            Ok,
        ),
        // A nullable query parameter: null is left out, a value is sent.
        case("search_items", json!({"q": "x", "cursor": null}), Ok),
        case("search_items", json!({"q": "x", "cursor": "p2"}), Ok),
        // A value of another type is repaired (a success); an array where
        // an object is documented cannot be.
        case("search_items", json!({"q": "off-schema"}), Ok),
        case("search_items", json!({"q": "not-an-object"}), ApiError),
        case("search_items", json!({}), Refused("q")),
        case(
            "search_items",
            json!({"q": "x", "ids": ["a"]}),
            Refused("ids"),
        ),
        case(
            "search_items",
            json!({"q": "x", "tags": null}),
            Refused("tags"),
        ),
        case(
            "search_items",
            json!({"q": "x", "filter": "red"}),
            Refused("filter"),
        ),
        case(
            "search_items",
            json!({"q": "x", "X-Trace-Id": "a\r\nX-Admin: 1"}),
            Refused("No request was sent"),
        ),
        case(
            "search_items",
            json!({"q": "x", "session": "s\r\nSet-Cookie: admin=1"}),
            Refused("No request was sent"),
        ),
        // list_items: no parameters at all.
        case("list_items", json!({}), Ok),
        no_args("list_items", Ok),
        case("list_items", json!({"x": 1}), Refused("x")),
        // patch_item: a path `id` and a body `id` renamed `body_id`.
        case(
            "patch_item",
            json!({"id": 5, "body_id": "ext-9", "name": "b"}),
            Ok,
        ),
        case(
            "patch_item",
            json!({"name": "b", "body_id": "ext-9", "id": 5}),
            Ok,
        ),
        case("patch_item", json!({"id": 5}), Ok),
        // A nullable body property: an explicit null is sent as null.
        case("patch_item", json!({"id": 5, "note": null}), Ok),
        case(
            "patch_item",
            json!({"id": 5, "note": "n", "name": null}),
            Refused("name"),
        ),
        case("patch_item", json!({"id": "x"}), Refused("id")),
        case("delete_item", json!({"id": 3}), Ok),
        // get_colors: a label-style exploded array in the path.
        case("get_colors", json!({"color": ["blue", "black"]}), Ok),
        case("get_colors", json!({"color": ["dark blue", "ü/x"]}), Ok),
        case("get_colors", json!({"color": ["one"]}), Ok),
        case("get_colors", json!({"color": "blue"}), Refused("color")),
        // send_contact: a form body.
        case(
            "send_contact",
            json!({"name": "Ann Lee", "email": "ann@example.com", "topics": ["a&b", "c"]}),
            Ok,
        ),
        case("send_contact", json!({"topics": ["z"], "name": "Bo"}), Ok),
        case("send_contact", json!({"name": "Bo", "topics": []}), Ok),
        case("send_contact", json!({"email": "x@y.z"}), Refused("name")),
        // put_note: a text/plain body.
        case(
            "put_note",
            json!({"noteId": "n1", "body": "line 1\nline 2"}),
            Ok,
        ),
        case("put_note", json!({"body": "", "noteId": "a b"}), Ok),
        case("put_note", json!({"noteId": "n1"}), Refused("body")),
        // upload_file: multipart with a file part.
        case(
            "upload_file",
            json!({"file": "data:image/png;base64,iVBORw==", "description": "logo"}),
            Ok,
        ),
        case("upload_file", json!({"file": "aGVsbG8="}), Ok),
        case("upload_file", json!({"file": "%%%"}), Refused("file")),
        // put_blob: raw bytes.
        case("put_blob", json!({"name": "b1", "body": "AAEC/w=="}), Ok),
        case(
            "put_blob",
            json!({"name": "b2", "body": "data:application/pdf;base64,JVBERi0="}),
            Ok,
        ),
        case(
            "put_blob",
            json!({"name": "b3", "body": "@@"}),
            Refused("body"),
        ),
        // get_report: a CSV answer, a 500, a minimum.
        case("get_report", json!({"year": 2024}), Ok),
        case("get_report", json!({"year": 2500}), ApiError),
        case("get_report", json!({"year": 1999}), Refused("year")),
        case("nope", json!({"q": "x"}), RpcError("nope")),
    ]
}

#[tokio::test]
async fn generated_features_matches_serve() {
    use Expect::*;
    run_parity(
        "features",
        "specs/features.yaml",
        "/api",
        features_reply,
        vec![
            session(
                "key credentials",
                &[("OPENAPI2MCP_KEY_KEY", "key-1")],
                features_cases(),
            ),
            session(
                "no credentials",
                &[],
                vec![case("search_items", json!({"q": "x"}), Ok)],
            ),
        ],
    )
    .await;
}

// ---------------------------------------------------------------------------
// MCP 2026-07-28 over HTTP: tasks and confirmations in generated crates
// ---------------------------------------------------------------------------

/// A server process on HTTP, killed when dropped.
struct HttpServer {
    child: tokio::process::Child,
    url: String,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

/// Spawns `program` on an ephemeral port and waits (at most 60 s) for the
/// endpoint line it prints on stderr.
async fn spawn_http(program: &Path, args: &[String]) -> HttpServer {
    use tokio::io::AsyncBufReadExt;
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(args)
        .args(["--transport", "http", "--listen", "127.0.0.1:0"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot spawn {}: {e}", program.display()));
    let stderr = child.stderr.take().unwrap();
    let mut lines = tokio::io::BufReader::new(stderr).lines();
    let mut seen = String::new();
    let url = tokio::time::timeout(Duration::from_secs(60), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(at) = line.find("MCP endpoint at ") {
                return Some(line[at + "MCP endpoint at ".len()..].trim().to_string());
            }
            seen.push_str(&line);
            seen.push('\n');
        }
        None
    })
    .await
    .ok()
    .flatten()
    .unwrap_or_else(|| panic!("{} printed no endpoint:\n{seen}", program.display()));
    // Keep draining stderr so the server never blocks on it.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    HttpServer { child, url }
}

#[tokio::test]
async fn generated_crates_run_tasks_and_confirmations_like_serve() {
    use crate::protocol::{call_2026, rpc_tasks, settle};
    let binary = generated_binary("petstore");
    let backend = Backend::start(petstore_reply).await;
    let flags = vec![
        "--base-url".to_string(),
        format!("{}/v1", backend.url()),
        "--task-after".to_string(),
        "0".to_string(),
    ];
    let mut serve_args = vec![
        "serve".to_string(),
        root().join("specs/petstore.yaml").display().to_string(),
    ];
    serve_args.extend(flags.iter().cloned());
    let mut outcomes = Vec::new();
    for (label, program, args) in [
        (
            "serve",
            Path::new(env!("CARGO_BIN_EXE_openapi2mcp")),
            &serve_args,
        ),
        ("generated", binary.as_path(), &flags),
    ] {
        let server = spawn_http(program, args).await;
        // A call of a client that declared tasks becomes a task at once
        // (--task-after 0); its result comes from tasks/get.
        let started = rpc_tasks(
            &server.url,
            "tools/call",
            json!({"name": "get_pet", "arguments": {"petId": 1}}),
        )
        .await;
        assert_eq!(
            started["result"]["resultType"], "task",
            "{label}: {started}"
        );
        let task_id = started["result"]["task"]["taskId"]
            .as_str()
            .or_else(|| started["result"]["taskId"].as_str())
            .unwrap_or_else(|| panic!("{label}: no task id in {started}"))
            .to_string();
        let done = settle(&server.url, &task_id).await;
        assert_eq!(done["result"]["status"], "completed", "{label}: {done}");
        let sent = backend.take();
        assert_eq!(sent.len(), 1, "{label}");
        // A DELETE is asked about first; nothing is sent.
        let (_, asked) = call_2026(
            &server.url,
            json!({"name": "delete_pet", "arguments": {"petId": 1}}),
            true,
        )
        .await;
        assert_eq!(
            asked["result"]["resultType"], "input_required",
            "{label}: {asked}"
        );
        assert!(
            backend.take().is_empty(),
            "{label}: nothing sent before the answer"
        );
        let message = asked["result"]["inputRequests"]["confirm"]["params"]["message"].clone();
        let mut result = done["result"].clone();
        if let Some(object) = result.as_object_mut() {
            for volatile in [
                "taskId",
                "createdAt",
                "lastUpdatedAt",
                "_meta",
                "ttlMs",
                "pollIntervalMs",
            ] {
                object.remove(volatile);
            }
        }
        outcomes.push((
            label,
            result,
            message,
            Wire::of(sent.into_iter().next().unwrap()).show(),
        ));
    }
    let (serve, generated) = (&outcomes[0], &outcomes[1]);
    assert_eq!(serve.1, generated.1, "the task's result");
    assert_eq!(serve.2, generated.2, "the confirmation");
    assert_eq!(serve.3, generated.3, "the request sent");
}

// ---------------------------------------------------------------------------
// OpenAPI 3.2 (specs/oas32.yaml)
// ---------------------------------------------------------------------------

fn oas32_reply(r: &Recorded) -> Reply {
    if r.target.starts_with("/v1/logs") {
        let lines = "{\"level\": 1, \"message\": \"one\"}\n{\"level\": 2, \"message\": \"two\"}\n";
        return (200, "application/jsonl", lines.as_bytes().to_vec());
    }
    if r.target.ends_with("/events") {
        let events = "event: renamed\nid: 1\ndata: Lamp\n\n: comment\ndata: a\ndata: b\n\n";
        return (200, "text/event-stream", events.as_bytes().to_vec());
    }
    if r.method == "COPY" {
        return (
            201,
            "application/json",
            br#"{"id": 3, "name": "Lamp"}"#.to_vec(),
        );
    }
    if r.target.starts_with("/v1/items/1") && r.method == "GET" {
        return (
            200,
            "application/json",
            br#"{"id": 1, "name": "Lamp"}"#.to_vec(),
        );
    }
    (
        200,
        "application/json",
        br#"[{"id": 1, "name": "Lamp", "tags": ["light"]}]"#.to_vec(),
    )
}

fn oas32_cases() -> Vec<Case> {
    use Expect::*;
    vec![
        case("search_items", json!({"text": "lamp", "limit": 3}), Ok),
        case("search_items", json!({"limit": 3}), Refused("text")),
        case(
            "list_items",
            json!({"filter": {"q": "a b", "tag": ["x", "y"], "page": 2}}),
            Ok,
        ),
        case("list_items", json!({"filter": "q=1"}), Refused("filter")),
        case(
            "lookup_items",
            json!({"selector": {"ids": [1, 2], "flag": null}}),
            Ok,
        ),
        case("get_item", json!({"id": 1}), Ok),
        case("copy_item", json!({"id": 1, "Destination": "/items/2"}), Ok),
        case("watch_item", json!({"id": 1}), Ok),
        case("stream_logs", json!({"level": 1}), Ok),
    ]
}

#[tokio::test]
async fn generated_oas32_matches_serve() {
    use Expect::*;
    run_parity(
        "oas32",
        "specs/oas32.yaml",
        "/v1",
        oas32_reply,
        vec![
            session("every construct", &[], oas32_cases()),
            session_with_flags(
                "nested toolsets",
                &[],
                &["--tools", "toolsets", "--toolset", "items"],
                vec![
                    no_args("list_toolsets", Local),
                    case("lookup_items", json!({"selector": {"ids": [1]}}), Ok),
                    case("watch_item", json!({"id": 1}), Refused("feeds")),
                ],
            ),
        ],
    )
    .await;
}
