#![deny(missing_docs)]
//! A REST backend answering from the document itself, so people can
//! prototype against an API before it exists (`openapi2mcp mock`, and
//! `serve --mock` in process).
//!
//! [`MockServer::new`] reads the document once into an owned route table
//! ([`table`]) from the document's operation model
//! ([`openapi2mcp_document::model`]); [`MockServer::respond`] answers one
//! request without any I/O (route by path template in [`routes`], validate
//! in [`validate`], choose and render the response in [`respond`], from
//! documented examples or values [`synth`]esized from the schema); [`bind`]
//! serves it over HTTP with axum.
//!
//! Stateful ([`MockOptions::stateful`]): collections and items recognized
//! in the paths and schemas ([`resource`]) answer from a [`store`] of what
//! was created, seeded from the examples ([`stateful`]); `POST
//! /__mock/reset` puts the seed back and `GET /__mock/state` shows the
//! store.

pub mod brackets;
pub mod item;
pub mod pattern;
pub mod resource;
pub mod respond;
pub mod routes;
pub mod shape;
pub mod stateful;
pub mod store;
pub mod synth;
pub mod table;
pub mod validate;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use serde_json::{Value, json};

use openapi2mcp_document::{Diagnostic, Document};
use respond::Prefer;
use table::Route;
use validate::{Incoming, Problem};

/// How the mock answers.
#[derive(Debug, Clone)]
pub struct MockOptions {
    /// Varies synthesized numbers in a stable way; the same document and
    /// seed always give the same responses.
    pub seed: u64,
    /// Answer with documented examples when there are some (the default);
    /// `false` always synthesizes from the schema.
    pub examples: bool,
    /// Remember what is created, changed and deleted (see [`stateful`]);
    /// the store is in memory unless [`MockServer::with_store`] gives one.
    pub stateful: bool,
}

impl Default for MockOptions {
    fn default() -> Self {
        Self {
            seed: 0,
            examples: true,
            stateful: false,
        }
    }
}

/// Where the control endpoints of a stateful mock live (outside any
/// server prefix): `POST /__mock/reset`, `GET /__mock/state`.
pub const CONTROL_PREFIX: &str = "/__mock";

/// Why the mock could not serve.
#[derive(Debug, thiserror::Error)]
pub enum MockError {
    /// The listen address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// Serving failed.
    #[error("mock server error: {0}")]
    Serve(std::io::Error),
    /// The state file of a stateful mock cannot be used.
    #[error(transparent)]
    State(#[from] store::StoreError),
}

/// One HTTP request, as the mock sees it.
#[derive(Debug, Clone, Default)]
pub struct MockRequest {
    /// Method, e.g. `GET`.
    pub method: String,
    /// Path, still percent-encoded, server prefix included.
    pub path: String,
    /// Raw query string, without `?`.
    pub query: Option<String>,
    /// Headers (name, value).
    pub headers: Vec<(String, String)>,
    /// Body bytes.
    pub body: Vec<u8>,
}

impl MockRequest {
    /// A request for `method` and `target` (`/v1/pets?limit=2`).
    pub fn new(method: &str, target: &str) -> Self {
        let (path, query) = match target.split_once('?') {
            Some((p, q)) => (p.to_string(), Some(q.to_string())),
            None => (target.to_string(), None),
        };
        Self {
            method: method.to_ascii_uppercase(),
            path,
            query,
            ..Self::default()
        }
    }

    /// Adds a header.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// Sets a JSON body (and its `Content-Type`).
    pub fn json(self, body: &Value) -> Self {
        let mut req = self.header("content-type", "application/json");
        req.body = serde_json::to_vec(body).unwrap_or_default();
        req
    }
}

/// The mock's answer.
#[derive(Debug, Clone)]
pub struct MockResponse {
    /// Status code.
    pub status: u16,
    /// Headers (lower-case names).
    pub headers: Vec<(String, String)>,
    /// Body bytes.
    pub body: Vec<u8>,
}

impl MockResponse {
    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON, if it is JSON.
    pub fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }
}

/// The mock backend of one document: an owned route table, and the store
/// of a stateful mock.
pub struct MockServer {
    routes: Vec<Route>,
    prefix: String,
    options: MockOptions,
    state: Option<stateful::Stateful>,
}

impl MockServer {
    /// Reads everything the mock needs from `doc` (which should be loaded
    /// with `keep_examples: true`, so shared `components.examples` are
    /// there). Diagnostics are problems found along the way.
    pub fn new(doc: &Document, options: MockOptions) -> (Self, Vec<Diagnostic>) {
        let store = Arc::new(store::Store::in_memory(store::DEFAULT_MAX_ITEMS));
        Self::build(doc, options, store)
    }

    fn build(
        doc: &Document,
        options: MockOptions,
        store: Arc<store::Store>,
    ) -> (Self, Vec<Diagnostic>) {
        let (table, diags) = table::build(doc, options.seed, options.stateful);
        let state = options
            .stateful
            .then(|| stateful::Stateful::new(&table.routes, table.defs, store, options.examples));
        let server = Self {
            routes: table.routes,
            prefix: server_prefix(doc),
            options,
            state,
        };
        (server, diags)
    }

    /// The same mock keeping its items in `store` (a persisted one, or the
    /// one a reloaded document's mock shares); no effect unless stateful.
    pub fn with_store(mut self, store: Arc<store::Store>) -> Self {
        if let Some(state) = &mut self.state {
            state.store = store;
        }
        self
    }

    /// The store of a stateful mock.
    pub fn store(&self) -> Option<&Arc<store::Store>> {
        self.state.as_ref().map(|s| &s.store)
    }

    /// The recognized collections of a stateful mock (empty otherwise).
    pub fn resources(&self) -> &[resource::Resource] {
        self.state
            .as_ref()
            .map_or(&[][..], |s| s.resources.list.as_slice())
    }

    /// A mock of `doc` (a reloaded document) with these options, answering
    /// under this mock's prefix and sharing its store, so what was created
    /// survives the reload.
    pub fn rebuild(&self, doc: &Document) -> (Self, Vec<Diagnostic>) {
        let store = self
            .store()
            .cloned()
            .unwrap_or_else(|| Arc::new(store::Store::in_memory(store::DEFAULT_MAX_ITEMS)));
        let (server, diags) = Self::build(doc, self.options.clone(), store);
        (server.with_prefix(self.prefix.clone()), diags)
    }

    /// Whether answering may write a file (then it is better done off the
    /// async workers).
    pub fn persists(&self) -> bool {
        self.store().is_some_and(|s| s.file().is_some())
    }

    /// The path prefix the API lives under (`/v1`), from the first server
    /// URL; empty for the root.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The same mock answering under `prefix` instead: a reloaded
    /// document's mock keeps the path its server's tools already call.
    pub fn with_prefix(mut self, prefix: String) -> Self {
        self.prefix = prefix;
        self
    }

    /// How many operations are served.
    pub fn operation_count(&self) -> usize {
        self.routes.len()
    }

    /// Answers one request.
    pub fn respond(&self, req: &MockRequest) -> MockResponse {
        match self.answer(req) {
            Ok(r) => r,
            Err((problem, extra)) => problem_response(&problem, extra),
        }
    }

    /// `POST /__mock/reset` and `GET /__mock/state` of a stateful mock.
    fn control(&self, req: &MockRequest) -> Option<MockResponse> {
        let state = self.state.as_ref()?;
        let what = req.path.strip_prefix(CONTROL_PREFIX)?;
        let json = |status: u16, body: Value| MockResponse {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: serde_json::to_vec(&body).unwrap_or_default(),
        };
        let problem =
            |status: u16, detail: String| problem_response(&Problem { status, detail }, Vec::new());
        Some(match (req.method.as_str(), what) {
            ("POST", "/reset") => match state.store.reset() {
                Ok(()) => {
                    tracing::info!(target: "openapi2mcp::mock", "state reset to the document's examples");
                    json(200, json!({"reset": true}))
                }
                Err(e) => problem(500, e.to_string()),
            },
            ("GET", "/state") => json(200, state.store.snapshot()),
            (_, "/reset" | "/state") => problem(
                405,
                format!(
                    "{} {}: use POST /__mock/reset or GET /__mock/state",
                    req.method, req.path
                ),
            ),
            _ => return None,
        })
    }

    fn answer(&self, req: &MockRequest) -> Result<MockResponse, (Problem, Vec<(String, String)>)> {
        if let Some(r) = self.control(req) {
            return Ok(r);
        }
        let not_found = || {
            (
                Problem {
                    status: 404,
                    detail: format!("no documented path matches `{}`", req.path),
                },
                Vec::new(),
            )
        };
        let path = strip_prefix(&req.path, &self.prefix).ok_or_else(not_found)?;
        let path = if path.len() > 1 && path.ends_with('/') {
            &path[..path.len() - 1]
        } else {
            path
        };
        let method = req.method.to_ascii_uppercase();
        let head = method == "HEAD";
        let mut candidates: Vec<(&Route, Vec<(String, String)>)> = self
            .routes
            .iter()
            .filter_map(|r| r.template.matches(path).map(|slots| (r, slots)))
            .collect();
        let index_of = |route: &Route| {
            self.routes
                .iter()
                .position(|r| std::ptr::eq(r, route))
                .unwrap_or(usize::MAX)
        };
        if candidates.is_empty() {
            return Err(not_found());
        }
        // Path keys told apart only by a fragment (`/#Action=…`): the
        // request must carry what the fragment says.
        if candidates.iter().any(|(r, _)| !r.fragment.is_empty()) {
            let query = validate::parse_query(req.query.as_deref().unwrap_or_default());
            candidates.retain(|(r, _)| carries(req, &query, &r.fragment));
            if candidates.is_empty() {
                return Err((
                    Problem {
                        status: 404,
                        detail: format!(
                            "no documented operation of `{}` matches: they are told apart by \
                             a query parameter or header their path keys name after `#`",
                            req.path
                        ),
                    },
                    Vec::new(),
                ));
            }
        }
        // The most specific path first; among equal paths, the route whose
        // fragment asks most of the request (`/x#op=A` before `/x`).
        candidates.sort_by_key(|(r, _)| {
            (
                std::cmp::Reverse(r.template.specificity()),
                std::cmp::Reverse(r.fragment.len()),
            )
        });
        let chosen = candidates
            .iter()
            .find(|(r, _)| r.method == method)
            .or_else(|| {
                head.then(|| candidates.iter().find(|(r, _)| r.method == "GET"))
                    .flatten()
            });
        let Some((route, slots)) = chosen else {
            let mut allow: Vec<&str> = Vec::new();
            for (r, _) in &candidates {
                if !allow.contains(&r.method.as_str()) {
                    allow.push(&r.method);
                }
            }
            let allow = allow.join(", ");
            return Err((
                Problem {
                    status: 405,
                    detail: format!(
                        "{method} is not documented for `{}`; allowed: {allow}",
                        req.path
                    ),
                },
                vec![("allow".into(), allow)],
            ));
        };
        let incoming = Incoming {
            slots,
            query: req.query.as_deref(),
            headers: &req.headers,
            body: &req.body,
        };
        validate::check(route, &incoming).map_err(|p| (p, Vec::new()))?;
        let prefer = Prefer::parse(
            req.headers
                .iter()
                .filter(|(k, _)| k.eq_ignore_ascii_case("prefer"))
                .map(|(_, v)| v.as_str()),
        );
        // An explicit `Prefer: code=…`/`example=…` wins over the state.
        if let Some(state) = &self.state
            && prefer == Prefer::default()
        {
            let call = stateful::Call {
                route,
                index: index_of(route),
                req,
                slots,
                examples: self.options.examples,
            };
            if let Some(answered) = stateful::answer(state, &call) {
                let mut r = answered.map_err(|p| (p, Vec::new()))?;
                if head {
                    r.body.clear();
                }
                return Ok(r);
            }
        }
        let rendered = respond::render(
            route,
            &prefer,
            incoming.header("accept"),
            self.options.examples,
        )
        .map_err(|p| (p, Vec::new()))?;
        Ok(MockResponse {
            status: rendered.status,
            headers: rendered.headers,
            body: if head { Vec::new() } else { rendered.body },
        })
    }
}

/// Whether a request carries every condition of a route's fragment, each
/// as a query parameter (`query`, decoded) or a header (names of headers in
/// any case): `name=value` that value, a bare `name` any value.
fn carries(
    req: &MockRequest,
    query: &[(String, String)],
    conditions: &[(String, Option<String>)],
) -> bool {
    let holds = |value: &str, wanted: &Option<String>| wanted.as_deref().is_none_or(|w| w == value);
    conditions.iter().all(|(name, wanted)| {
        query.iter().any(|(k, v)| k == name && holds(v, wanted))
            || req
                .headers
                .iter()
                .any(|(k, v)| k.eq_ignore_ascii_case(name) && holds(v, wanted))
    })
}

/// `path` without the server prefix, which must end at a segment boundary.
fn strip_prefix<'p>(path: &'p str, prefix: &str) -> Option<&'p str> {
    let rest = path.strip_prefix(prefix)?;
    if rest.is_empty() {
        Some("/")
    } else if rest.starts_with('/') {
        Some(rest)
    } else {
        None
    }
}

fn reason(status: u16) -> &'static str {
    axum::http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error")
}

fn problem_response(problem: &Problem, extra: Vec<(String, String)>) -> MockResponse {
    let body = json!({
        "type": "about:blank",
        "title": reason(problem.status),
        "status": problem.status,
        "detail": problem.detail,
    });
    let mut headers = extra;
    headers.push(("content-type".into(), "application/problem+json".into()));
    MockResponse {
        status: problem.status,
        headers,
        body: serde_json::to_vec(&body).unwrap_or_default(),
    }
}

/// The path part of the document's first server URL (variables replaced by
/// their defaults), without a trailing `/`: `/v1` for
/// `http://127.0.0.1:8080/v1`, empty for none.
pub fn server_prefix(doc: &Document) -> String {
    let Some(server) = doc.servers().into_iter().next() else {
        return String::new();
    };
    let mut url = server.url;
    for var in &server.variables {
        url = url.replace(&format!("{{{}}}", var.name), &var.default);
    }
    let path = match url::Url::parse(&url) {
        Ok(u) if u.has_host() => u.path().to_string(),
        _ => url::Url::parse("http://localhost/")
            .and_then(|b| b.join(&url))
            .map(|u| u.path().to_string())
            .unwrap_or_default(),
    };
    path.trim_end_matches('/').to_string()
}

/// The mock a bound address answers from, replaceable while it serves: a
/// server reloading its document (`serve --mock --watch`, SIGHUP) puts the
/// new document's mock here, and requests already being answered finish
/// on the old one.
#[derive(Clone)]
pub struct MockSlot(Arc<std::sync::RwLock<Arc<MockServer>>>);

impl MockSlot {
    /// A slot holding `server`.
    pub fn new(server: Arc<MockServer>) -> Self {
        Self(Arc::new(std::sync::RwLock::new(server)))
    }

    /// The mock answering now.
    pub fn current(&self) -> Arc<MockServer> {
        // A panic while the lock was held cannot leave a half-written
        // `Arc`: the last one stored is still whole.
        Arc::clone(&self.0.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// Answers from `server` from now on.
    pub fn replace(&self, server: Arc<MockServer>) {
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = server;
    }
}

/// A mock bound to its address, not yet serving.
pub struct BoundMock {
    /// The address actually bound (useful with port 0).
    pub local_addr: SocketAddr,
    listener: tokio::net::TcpListener,
    slot: MockSlot,
}

impl BoundMock {
    /// `http://<local_addr><prefix>`: the base URL of the mocked API.
    pub fn base_url(&self) -> String {
        format!("http://{}{}", self.local_addr, self.slot.current().prefix)
    }

    /// Where to put a new mock for this address to answer from.
    pub fn slot(&self) -> MockSlot {
        self.slot.clone()
    }

    /// Serves until `shutdown` completes.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), MockError> {
        use axum::serve::ListenerExt as _;
        let app = axum::Router::new().fallback(handle).with_state(self.slot);
        // Small answers leave at once, not after the client's delayed ACK
        // (Nagle), as the MCP server's own listener does (issue #48).
        let listener = self.listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, app)
            .with_graceful_shutdown(shutdown)
            .await
            .map_err(MockError::Serve)
    }
}

/// Binds `listen` (port 0 picks a free one).
pub async fn bind(server: Arc<MockServer>, listen: SocketAddr) -> Result<BoundMock, MockError> {
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|source| MockError::Bind {
            addr: listen,
            source,
        })?;
    let local_addr = listener.local_addr().map_err(MockError::Serve)?;
    Ok(BoundMock {
        local_addr,
        listener,
        slot: MockSlot::new(server),
    })
}

/// Largest request body read (bigger ones get 413).
const MAX_BODY: usize = 16 * 1024 * 1024;

async fn handle(
    axum::extract::State(slot): axum::extract::State<MockSlot>,
    request: axum::extract::Request,
) -> axum::response::Response {
    let server = slot.current();
    let (parts, body) = request.into_parts();
    let started = std::time::Instant::now();
    let response = match axum::body::to_bytes(body, MAX_BODY).await {
        Ok(bytes) => {
            let req = MockRequest {
                method: parts.method.as_str().to_string(),
                path: parts.uri.path().to_string(),
                query: parts.uri.query().map(str::to_string),
                headers: parts
                    .headers
                    .iter()
                    .filter_map(|(k, v)| {
                        Some((k.as_str().to_string(), v.to_str().ok()?.to_string()))
                    })
                    .collect(),
                body: bytes.to_vec(),
            };
            if server.persists() {
                // Saving the state writes a file: off the async workers.
                let server = Arc::clone(&server);
                tokio::task::spawn_blocking(move || server.respond(&req))
                    .await
                    .unwrap_or_else(|e| {
                        problem_response(
                            &Problem {
                                status: 500,
                                detail: format!("the mock failed answering: {e}"),
                            },
                            Vec::new(),
                        )
                    })
            } else {
                server.respond(&req)
            }
        }
        Err(_) => problem_response(
            &Problem {
                status: 413,
                detail: format!("the request body is larger than {MAX_BODY} bytes or unreadable"),
            },
            Vec::new(),
        ),
    };
    tracing::info!(
        target: "openapi2mcp::mock",
        method = %parts.method,
        path = %parts.uri.path(),
        status = response.status,
        ms = started.elapsed().as_millis() as u64,
        "mock request"
    );
    to_axum(response)
}

fn to_axum(response: MockResponse) -> axum::response::Response {
    let mut builder = axum::http::Response::builder().status(response.status);
    for (k, v) in &response.headers {
        builder = builder.header(k.as_str(), v.as_str());
    }
    builder
        .body(axum::body::Body::from(response.body))
        .unwrap_or_else(|_| {
            let mut r = axum::response::Response::new(axum::body::Body::empty());
            *r.status_mut() = axum::http::StatusCode::INTERNAL_SERVER_ERROR;
            r
        })
}
