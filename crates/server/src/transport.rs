//! Transports: stdio (the default; stdout carries only protocol messages)
//! and streamable HTTP at `/mcp` via axum, with DNS-rebinding protection
//! (Host and Origin checks, loopback by default), client authorization (a
//! static bearer token, or OAuth access tokens per the MCP specification:
//! see [`super::authz`]), stateless mode for load-balanced deployments,
//! operations endpoints ([`super::ops`]), a listener bounded in time and
//! connections ([`super::listener`]), and graceful shutdown on
//! SIGINT/SIGTERM that lets calls in flight finish, up to a deadline.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::ServiceExt;
use rmcp::model::{
    CallToolRequest, CallToolRequestMethod, CallToolRequestParams, ClientRequest, JsonRpcMessage,
    JsonRpcResponse, JsonRpcVersion2_0, RequestId, ServerResult,
};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::{
    DEFAULT_MAX_LINE_LENGTH, JsonRpcMessageCodec, JsonRpcMessageCodecError,
};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
// rmcp's line codec (tokio-util's `codec` feature, which rmcp's stdio
// transport turns on) decodes every message but `tools/call`.
use tokio_util::bytes::BytesMut;
use tokio_util::codec::Decoder;
use tokio_util::sync::CancellationToken;

use super::authz::{self, Authorizer, AuthzOptions};
use super::listener::ListenerLimits;
use super::modes::{Outbox, splice_tools, tools_of};
use super::ops::{self, OpsState};
use super::session_owner::SessionOwners;
use super::sessions::{BoundedSessions, SessionLimits};
use super::{Bridge, ServeError};

/// Serves over stdin/stdout until the client disconnects.
///
/// Tokio's own stdin and stdout run every read and write on its blocking
/// thread pool: two thread hand-offs, each a futex wake-up, per message,
/// which cost more CPU than the rest of a tool call. So when the standard
/// streams are pipes (Python's and Rust's clients) or Unix sockets (Node's
/// `child_process`, so most desktop clients), they are driven by the
/// runtime's I/O reactor instead; anything else (a file, a terminal) falls
/// back to the blocking handles.
pub async fn serve_stdio(bridge: Bridge) -> Result<(), ServeError> {
    #[cfg(unix)]
    if let Some(streams) = stdio_sockets() {
        tracing::debug!("stdio: non-blocking Unix sockets");
        return serve_streams(bridge, streams).await;
    }
    serve_streams(bridge, rmcp::transport::stdio_pipes()).await
}

/// Serves one MCP session over a reader and a writer until it ends.
async fn serve_streams<R, W>(bridge: Bridge, (read, write): (R, W)) -> Result<(), ServeError>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let service = bridge
        .serve(LineTransport::new(read, write))
        .await
        .map_err(|e| ServeError::Transport(e.to_string()))?;
    service
        .waiting()
        .await
        .map_err(|e| ServeError::Transport(e.to_string()))?;
    Ok(())
}

/// One MCP session over a byte stream pair, as rmcp's `AsyncRwTransport`
/// has it (one JSON-RPC message per line, the same line-length cap, the
/// same handling of bad lines), with one difference: a `tools/call`
/// request, the message every call sends, is decoded straight into rmcp's
/// typed request ([`decode_call`]). rmcp decodes every message through
/// serde's buffered untagged and flattened layers, a fifth of the
/// instructions of a small call. Every other line, and any `tools/call`
/// line the direct decoder does not take, goes through rmcp's own decoder.
/// Each message is written as rmcp writes it (serde_json, then `\n`), but
/// serialized into a plain buffer: rmcp's `BytesMut` writer costs a call
/// per JSON token, a seventh of the work for a 24 KB result. A
/// `tools/list` page of `full` mode is written from the bytes serialized
/// at start-up (see [`Outbox`]): 26 MB of Microsoft Graph's tools are not
/// serialized again for every client.
struct LineTransport<R, W> {
    read: R,
    /// Bytes read and not yet handled; lines end at `\n`.
    buf: Vec<u8>,
    /// How much of `buf` holds no newline (searched already).
    scanned: usize,
    /// Dropping the rest of a line over the length cap.
    discarding: bool,
    writer: Arc<tokio::sync::Mutex<Output<W>>>,
    /// Where `tools/list` answers leave their pages' bytes.
    outbox: Outbox,
    /// The "Invalid request" answer to a line that is JSON but no message,
    /// until it is written (kept here so that a cancelled `receive` does
    /// not lose it).
    pending_error: Option<BoxedSend>,
}

type BoxedSend =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), std::io::Error>> + Send>>;

impl<R, W> LineTransport<R, W>
where
    R: tokio::io::AsyncRead + Send + Unpin,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    fn new(read: R, write: W) -> Self {
        let outbox = Outbox::default();
        Self {
            read,
            buf: Vec::new(),
            scanned: 0,
            discarding: false,
            writer: Arc::new(tokio::sync::Mutex::new(Output {
                write: Some(write),
                unsent: Vec::new(),
                outbox: outbox.clone(),
            })),
            outbox,
            pending_error: None,
        }
    }

    /// Reads until `buf` starts with a whole line within the cap and
    /// returns its length, newline included; `None` at the end of the
    /// stream (a last line without newline is dropped, as rmcp does) or on
    /// a read error. Cancel-safe: what was read stays in `buf`.
    async fn next_line(&mut self) -> Option<usize> {
        use tokio::io::AsyncReadExt;
        loop {
            if let Some(i) = self.buf[self.scanned..].iter().position(|b| *b == b'\n') {
                let end = self.scanned + i + 1;
                self.scanned = 0;
                if self.discarding || end > DEFAULT_MAX_LINE_LENGTH {
                    if !self.discarding {
                        oversized_line();
                    }
                    self.discarding = false;
                    self.buf.drain(..end);
                    continue;
                }
                return Some(end);
            }
            if self.buf.len() > DEFAULT_MAX_LINE_LENGTH {
                if !self.discarding {
                    oversized_line();
                }
                self.discarding = true;
                self.buf.clear();
            }
            self.scanned = self.buf.len();
            self.buf.reserve(8192);
            match self.read.read_buf(&mut self.buf).await {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => {
                    tracing::error!("Error reading from stream: {e}");
                    return None;
                }
            }
        }
    }
}

fn oversized_line() {
    tracing::error!(
        max_line_length = DEFAULT_MAX_LINE_LENGTH,
        "Incoming message exceeded the maximum line length, discarding it"
    );
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: tokio::io::AsyncRead + Send + Unpin,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        let output = Arc::clone(&self.writer);
        async move { output.lock().await.write_message(&item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Some(answer) = self.pending_error.as_mut() {
                let sent = answer.as_mut().await;
                self.pending_error = None;
                sent.ok()?;
            }
            let end = self.next_line().await?;
            let line = &self.buf[..end - 1];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let decoded = if line.is_empty() {
                Ok(None)
            } else if let Some(call) = decode_call(line) {
                Ok(Some(call))
            } else {
                let mut whole = BytesMut::from(&self.buf[..end]);
                JsonRpcMessageCodec::<RxJsonRpcMessage<RoleServer>>::default().decode(&mut whole)
            };
            self.buf.drain(..end);
            match decoded {
                Ok(Some(mut message)) => {
                    if let JsonRpcMessage::Request(request) = &mut message
                        && let ClientRequest::ListToolsRequest(list) = &mut request.request
                    {
                        list.extensions.insert(self.outbox.clone());
                    }
                    return Some(message);
                }
                Ok(None) => {}
                Err(JsonRpcMessageCodecError::Serde(e)) => match e.classify() {
                    // Not JSON: nothing to answer (as rmcp and the other SDKs do).
                    serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                        tracing::debug!("Ignoring unparsable incoming message: {e}");
                    }
                    serde_json::error::Category::Data | serde_json::error::Category::Io => {
                        tracing::debug!("Protocol error on incoming message: {e}");
                        let answer = TxJsonRpcMessage::<RoleServer>::error(
                            rmcp::ErrorData::invalid_request("Invalid request", None),
                            None,
                        );
                        self.pending_error = Some(Box::pin(self.send(answer)));
                    }
                },
                Err(e) => {
                    tracing::error!("Error reading from stream: {e}");
                    return None;
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.writer.lock().await.write = None;
        Ok(())
    }
}

/// The writing half of a [`LineTransport`], shared by the messages being
/// sent.
struct Output<W> {
    /// `None` once the transport is closed.
    write: Option<W>,
    /// Bytes of earlier messages not written yet, because a send was
    /// dropped halfway: written first, so no line is ever cut.
    unsent: Vec<u8>,
    /// Pages of `tools/list` answers, written from bytes.
    outbox: Outbox,
}

impl<W: tokio::io::AsyncWrite + Unpin> Output<W> {
    /// Writes `message` and a newline, and flushes.
    async fn write_message(
        &mut self,
        message: &TxJsonRpcMessage<RoleServer>,
    ) -> Result<(), std::io::Error> {
        use tokio::io::AsyncWriteExt;
        let Some(write) = self.write.as_mut() else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotConnected,
                "Transport is closed",
            ));
        };
        let start = self.unsent.len();
        if let Err(e) = serde_json::to_writer(&mut self.unsent, message) {
            self.unsent.truncate(start);
            return Err(e.into());
        }
        if let JsonRpcMessage::Response(JsonRpcResponse {
            id,
            result: ServerResult::ListToolsResult(list),
            ..
        }) = message
            && list.tools.is_empty()
            && let Some(page) = self.outbox.take(id)
        {
            match splice_tools(&self.unsent[start..], &page) {
                Some(whole) => {
                    self.unsent.truncate(start);
                    self.unsent.extend_from_slice(&whole);
                }
                None => {
                    // Not rmcp's shape any more: write the tools as values.
                    tracing::warn!(
                        "a tools/list answer is not shaped as expected: tools written as values"
                    );
                    self.unsent.truncate(start);
                    let mut list = list.clone();
                    list.tools = tools_of(&page).map_err(std::io::Error::other)?;
                    let whole = TxJsonRpcMessage::<RoleServer>::response(
                        ServerResult::ListToolsResult(list),
                        id.clone(),
                    );
                    let whole = serde_json::to_vec(&whole)?;
                    self.unsent.extend_from_slice(&whole);
                }
            }
        }
        self.unsent.push(b'\n');
        while !self.unsent.is_empty() {
            let n = write.write(&self.unsent).await?;
            if n == 0 {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            self.unsent.drain(..n);
        }
        write.flush().await
    }
}

/// A `tools/call` request decoded directly into the message rmcp's decoder
/// makes of it (its `_meta` moved to the request's extensions, as rmcp
/// does); `None` for any other line, and for one rmcp might read
/// differently (a repeated key, a `result` or `error` key), which then
/// takes rmcp's path.
pub(super) fn decode_call(line: &[u8]) -> Option<RxJsonRpcMessage<RoleServer>> {
    let CallLine { id, mut params } = serde_json::from_slice(line).ok()?;
    let meta = params.meta.take();
    let mut request = CallToolRequest::new(params);
    if let Some(meta) = meta {
        request.extensions.insert(meta);
    }
    Some(RxJsonRpcMessage::<RoleServer>::request(
        ClientRequest::CallToolRequest(request),
        id,
    ))
}

/// The parts of a `tools/call` line (see [`decode_call`]).
struct CallLine {
    id: RequestId,
    params: CallToolRequestParams,
}

impl<'de> serde::Deserialize<'de> for CallLine {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{Error, IgnoredAny, MapAccess, Visitor};

        #[derive(serde::Deserialize)]
        #[serde(field_identifier, rename_all = "lowercase")]
        enum Key {
            Jsonrpc,
            Id,
            Method,
            Params,
            Result,
            Error,
            #[serde(other)]
            Other,
        }

        struct Lines;
        impl<'de> Visitor<'de> for Lines {
            type Value = CallLine;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a tools/call request")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CallLine, A::Error> {
                let (mut version, mut method) = (false, false);
                let (mut id, mut params) = (None, None);
                while let Some(key) = map.next_key::<Key>()? {
                    let repeated = match key {
                        Key::Jsonrpc => {
                            map.next_value::<JsonRpcVersion2_0>()?;
                            std::mem::replace(&mut version, true)
                        }
                        Key::Method => {
                            map.next_value::<CallToolRequestMethod>()?;
                            std::mem::replace(&mut method, true)
                        }
                        Key::Id => id.replace(map.next_value::<RequestId>()?).is_some(),
                        Key::Params => params
                            .replace(map.next_value::<CallToolRequestParams>()?)
                            .is_some(),
                        Key::Result | Key::Error => return Err(A::Error::custom("not a request")),
                        Key::Other => {
                            map.next_value::<IgnoredAny>()?;
                            false
                        }
                    };
                    if repeated {
                        return Err(A::Error::custom("a repeated key"));
                    }
                }
                match (version, method, id, params) {
                    (true, true, Some(id), Some(params)) => Ok(CallLine { id, params }),
                    _ => Err(A::Error::custom("not a whole tools/call request")),
                }
            }
        }

        deserializer.deserialize_map(Lines)
    }
}

/// stdin and stdout as non-blocking Unix stream sockets, when both are
/// Unix sockets. Must run inside the runtime (the sockets join its
/// reactor).
#[cfg(unix)]
fn stdio_sockets() -> Option<(tokio::net::UnixStream, tokio::net::UnixStream)> {
    use std::os::fd::AsFd;
    let input = nonblocking_unix_socket(std::io::stdin().as_fd())?;
    let output = nonblocking_unix_socket(std::io::stdout().as_fd())?;
    Some((input, output))
}

/// A non-blocking copy of `fd` registered with the runtime, if `fd` is a
/// Unix-domain stream socket; `None` for pipes, files, terminals and other
/// sockets. The copy shares the descriptor's open file description, so
/// `fd` itself becomes non-blocking: harmless for stdin and stdout, which
/// nothing else in the server reads or writes (logs go to stderr), and
/// the client's end of the socket pair keeps its own flags.
#[cfg(unix)]
pub(super) fn nonblocking_unix_socket(
    fd: std::os::fd::BorrowedFd<'_>,
) -> Option<tokio::net::UnixStream> {
    use std::os::unix::fs::FileTypeExt;
    let owned = fd.try_clone_to_owned().ok()?;
    let is_socket = std::fs::File::from(owned.try_clone().ok()?)
        .metadata()
        .is_ok_and(|m| m.file_type().is_socket());
    if !is_socket {
        return None;
    }
    let socket = std::os::unix::net::UnixStream::from(owned);
    // Fails for a socket of another family (TCP, say).
    socket.local_addr().ok()?;
    socket.set_nonblocking(true).ok()?;
    tokio::net::UnixStream::from_std(socket).ok()
}

/// Options of the streamable HTTP transport.
#[derive(Debug, Clone)]
pub struct HttpTransportOptions {
    /// Address to listen on (loopback unless told otherwise).
    pub listen: SocketAddr,
    /// Bearer token MCP clients must send; `None` accepts any client.
    pub auth_token: Option<String>,
    /// No sessions: every request stands alone (for load balancers).
    pub stateless: bool,
    /// Extra `Host` values accepted besides loopback names.
    pub allowed_hosts: Vec<String>,
    /// Extra browser `Origin`s accepted besides loopback ones.
    pub allowed_origins: Vec<String>,
    /// OAuth authorization of clients; exclusive with `auth_token`.
    pub authz: Option<AuthzOptions>,
    /// A URL `/readyz` fetches: the server is ready only while it answers.
    pub ready_url: Option<String>,
    /// How long shutdown waits for calls in flight.
    pub shutdown_grace: Duration,
    /// The server's public base URL, where people's browsers reach its
    /// login pages (`--public-url`; default: the origin of the resource URL).
    pub public_url: Option<String>,
    /// Timeouts and connection caps of the listener (see [`super::listener`]).
    pub limits: ListenerLimits,
    /// The count cap and idle expiry of sessions (see [`super::sessions`]).
    pub sessions: SessionLimits,
}

impl Default for HttpTransportOptions {
    fn default() -> Self {
        Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            auth_token: None,
            stateless: false,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            authz: None,
            ready_url: None,
            shutdown_grace: Duration::from_secs(10),
            public_url: None,
            limits: ListenerLimits::default(),
            sessions: SessionLimits::default(),
        }
    }
}

/// A bound HTTP server: its address and the future that runs it until
/// `shutdown` is cancelled.
pub struct BoundHttp {
    /// The address actually bound (useful with port 0).
    pub local_addr: SocketAddr,
    /// The sessions (none when stateless): whether one is live, and word
    /// of each one's end.
    pub sessions: Option<Arc<BoundedSessions>>,
    server: std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), ServeError>> + Send>>,
}

impl BoundHttp {
    /// Runs the server to completion.
    pub async fn run(self) -> Result<(), ServeError> {
        self.server.await
    }
}

/// Binds the streamable HTTP endpoint at `/mcp`, the operations endpoints,
/// and (with OAuth) the protected resource metadata.
pub async fn bind_http(
    bridge: Bridge,
    options: HttpTransportOptions,
    shutdown: CancellationToken,
) -> Result<BoundHttp, ServeError> {
    if options.auth_token.is_some() && options.authz.is_some() {
        return Err(ServeError::Transport(
            "--auth-token and --oauth-issuer exclude each other: choose one way to authorize clients".into(),
        ));
    }
    ops::install();
    bridge.set_access_controlled(options.auth_token.is_some() || options.authz.is_some());
    bridge.set_stateless(options.stateless);
    // Sessions end only once calls in flight have drained (see below).
    let sessions = CancellationToken::new();
    let mut hosts: Vec<String> = vec![
        "localhost".into(),
        "127.0.0.1".into(),
        "::1".into(),
        "[::1]".into(),
    ];
    if !options.listen.ip().is_loopback() && !options.listen.ip().is_unspecified() {
        hosts.push(options.listen.ip().to_string());
    }
    hosts.extend(options.allowed_hosts.iter().cloned());
    let mut origins: Vec<String> = vec![
        "http://localhost:*".into(),
        "http://127.0.0.1:*".into(),
        "http://[::1]:*".into(),
    ];
    origins.extend(options.allowed_origins.iter().cloned());
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
        .enforce_origin_validation()
        .with_legacy_session_mode(!options.stateless)
        .with_json_response(options.stateless)
        .with_cancellation_token(sessions.clone());

    let ops_state = Arc::new(OpsState::new(bridge.clone(), options.ready_url.clone()));
    let drain_bridge = bridge.clone();
    let scope_bridge = bridge.clone();
    let factory = move || Ok(bridge.new_session());
    let mut owners = None;
    let sessions_bound = Arc::new(BoundedSessions::new(options.sessions.clone()));
    let mcp = if options.stateless {
        axum::Router::new().nest_service(
            "/mcp",
            StreamableHttpService::new(factory, Arc::new(NeverSessionManager::default()), config),
        )
    } else {
        let live = Arc::downgrade(&sessions_bound);
        let bound = Arc::new(SessionOwners::new(Arc::new(move |id: String| {
            let live = live.upgrade().is_some_and(|s| s.is_live(&id));
            Box::pin(async move { live })
        })));
        let forget = Arc::clone(&bound);
        sessions_bound.on_end(move |id, _| forget.closed(id));
        owners = Some(bound);
        axum::Router::new().nest_service(
            "/mcp",
            StreamableHttpService::new(factory, Arc::clone(&sessions_bound), config),
        )
    };
    // Requests admitted to the MCP endpoint count as in flight until their
    // response has been sent: a call that arrived just before a shutdown
    // signal is answered too (the call's own count begins later).
    // `subscriptions/listen` streams stay open by design and are not counted.
    let admit_bridge = drain_bridge.clone();
    let mcp = mcp.layer(middleware::from_fn(move |req: Request, next: Next| {
        let bridge = admit_bridge.clone();
        async move {
            let counted = req.method() == axum::http::Method::POST
                && req
                    .headers()
                    .get("mcp-method")
                    .is_none_or(|m| m.as_bytes() != b"subscriptions/listen");
            if !counted {
                return next.run(req).await;
            }
            let guard = bridge.admit();
            let response = next.run(req).await;
            response.map(|body| {
                axum::body::Body::new(Guarded {
                    inner: body,
                    _guard: guard,
                })
            })
        }
    }));
    // Sessions answer only the caller who opened them; this layer sits
    // inside the authorization check, which names the caller.
    let mcp = match owners {
        Some(owners) => mcp.layer(middleware::from_fn(move |req: Request, next: Next| {
            super::session_owner::bind(Arc::clone(&owners), req, next)
        })),
        None => mcp,
    };
    let authorizer = match options.authz.clone() {
        Some(o) => {
            let a = Arc::new(Authorizer::new(o).map_err(ServeError::Transport)?);
            a.prefetch().await;
            Some(a)
        }
        None => None,
    };
    let router = match (options.auth_token, &authorizer) {
        (_, Some(authz)) => {
            let authz = Arc::clone(authz);
            let per_tool = !scope_bridge.scopes_mentioned().is_empty();
            let lookup: Option<authz::ToolScopes> = per_tool.then(|| {
                let b = scope_bridge.clone();
                Arc::new(move |name: &str, target: Option<&str>| b.call_scopes(name, target))
                    as authz::ToolScopes
            });
            mcp.layer(middleware::from_fn(move |req: Request, next: Next| {
                let authz = Arc::clone(&authz);
                let lookup = lookup.clone();
                async move { authz::guard(authz, lookup, req, next).await }
            }))
        }
        (Some(token), None) => {
            let expected: Arc<str> = Arc::from(format!("Bearer {token}"));
            mcp.layer(middleware::from_fn(move |req: Request, next: Next| {
                let expected = Arc::clone(&expected);
                async move { require_token(&expected, req, next).await }
            }))
        }
        (None, None) => mcp,
    };
    let mut router = router.merge(ops::router(Arc::clone(&ops_state)));
    if let Some(authz) = &authorizer
        && scope_bridge.serves_logins()
    {
        let pages = super::connect::LoginPages {
            base: login_base(options.public_url.as_deref(), authz.resource())?,
        };
        let state = super::connect::LoginState::from_env(
            scope_bridge.clone(),
            pages.clone(),
            Arc::clone(authz),
        )
        .map_err(ServeError::Transport)?;
        tracing::info!(
            "people log in to the API at {}/oauth/connect (register {} with its authorization server)",
            pages.base,
            pages.callback()
        );
        scope_bridge.set_login_pages(pages);
        router = router.merge(super::connect::router(Arc::new(state)));
    }
    if let Some(authz) = authorizer {
        for path in authz::metadata::paths(authz.resource()) {
            let authz = Arc::clone(&authz);
            let b = scope_bridge.clone();
            router = router.route(
                &path,
                axum::routing::get(move || {
                    let doc = authz.metadata(b.scopes_mentioned());
                    async move { axum::Json(doc) }
                }),
            );
        }
    }

    let listener = tokio::net::TcpListener::bind(options.listen)
        .await
        .map_err(|e| ServeError::Transport(format!("cannot listen on {}: {e}", options.listen)))?;
    let local_addr = listener
        .local_addr()
        .map_err(|e| ServeError::Transport(e.to_string()))?;
    let grace = options.shutdown_grace;
    let limits = options.limits.clone();
    let server = async move {
        // On shutdown: stop accepting connections and report not ready, let
        // calls in flight finish (up to `grace`), then end the sessions so
        // their streams close and the server can return.
        let stop = shutdown.clone();
        let end_sessions = sessions.clone();
        let drain = tokio::spawn(async move {
            stop.cancelled().await;
            ops_state.start_draining();
            drain_bridge.drained(grace).await;
            sessions.cancel();
        });
        super::listener::serve(listener, router, limits, shutdown).await;
        drain.abort();
        end_sessions.cancel();
        Ok(())
    };
    Ok(BoundHttp {
        local_addr,
        sessions: (!options.stateless).then_some(sessions_bound),
        server: Box::pin(server),
    })
}

/// The base URL of the login pages: `--public-url`, else the origin of
/// the resource URL.
fn login_base(public: Option<&str>, resource: &url::Url) -> Result<String, ServeError> {
    let base = match public {
        Some(p) => {
            let parsed = url::Url::parse(p).map_err(|e| {
                ServeError::Transport(format!("--public-url `{p}` is not a URL: {e}"))
            })?;
            if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
                return Err(ServeError::Transport(format!(
                    "--public-url `{p}` must be an absolute http(s) URL (where browsers reach this server)"
                )));
            }
            parsed.as_str().trim_end_matches('/').to_string()
        }
        None => resource.origin().ascii_serialization(),
    };
    Ok(base)
}

/// A response body that keeps its request counted as in flight until it
/// has been sent (or dropped).
struct Guarded {
    inner: axum::body::Body,
    _guard: super::live::Admitted,
}

impl http_body::Body for Guarded {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        std::pin::Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// Rejects requests without the expected `Authorization` header.
async fn require_token(expected: &str, req: Request, next: Next) -> Response {
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .map(HeaderValue::as_bytes)
        .unwrap_or_default();
    if constant_time_eq(given, expected.as_bytes()) {
        return next.run(req).await;
    }
    let mut response =
        (StatusCode::UNAUTHORIZED, "missing or wrong bearer token\n").into_response();
    response
        .headers_mut()
        .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A token cancelled on SIGINT or SIGTERM.
pub fn shutdown_on_signals() -> CancellationToken {
    let token = CancellationToken::new();
    let cancel = token.clone();
    tokio::spawn(async move {
        let ctrl_c = tokio::signal::ctrl_c();
        #[cfg(unix)]
        {
            let mut term =
                match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                    Ok(s) => s,
                    Err(_) => {
                        let _ = ctrl_c.await;
                        cancel.cancel();
                        return;
                    }
                };
            tokio::select! {
                _ = ctrl_c => {}
                _ = term.recv() => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = ctrl_c.await;
        }
        tracing::info!("shutting down");
        cancel.cancel();
    });
    token
}

#[cfg(test)]
#[path = "transport_tests.rs"]
mod tests;
