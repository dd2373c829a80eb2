//! Transports: stdio (the default; stdout carries only protocol messages)
//! and streamable HTTP at `/mcp` via axum, with DNS-rebinding protection
//! (Host and Origin checks, loopback by default), client authorization (a
//! static bearer token, or OAuth access tokens per the MCP specification:
//! see [`super::authz`]), stateless mode for load-balanced deployments,
//! operations endpoints ([`super::ops`]), and graceful shutdown on
//! SIGINT/SIGTERM that lets calls in flight finish, up to a deadline.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use super::authz::{self, Authorizer, AuthzOptions};
use super::ops::{self, OpsState};
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
async fn serve_streams<R, W>(bridge: Bridge, streams: (R, W)) -> Result<(), ServeError>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let service = bridge
        .serve(streams)
        .await
        .map_err(|e| ServeError::Transport(e.to_string()))?;
    service
        .waiting()
        .await
        .map_err(|e| ServeError::Transport(e.to_string()))?;
    Ok(())
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
        }
    }
}

/// A bound HTTP server: its address and the future that runs it until
/// `shutdown` is cancelled.
pub struct BoundHttp {
    /// The address actually bound (useful with port 0).
    pub local_addr: SocketAddr,
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
    let mcp = if options.stateless {
        axum::Router::new().nest_service(
            "/mcp",
            StreamableHttpService::new(factory, Arc::new(NeverSessionManager::default()), config),
        )
    } else {
        axum::Router::new().nest_service(
            "/mcp",
            StreamableHttpService::new(factory, Arc::new(LocalSessionManager::default()), config),
        )
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
                Arc::new(move |name: &str| b.tool_scopes(name)) as authz::ToolScopes
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
        let served = axum::serve(listener, router)
            .with_graceful_shutdown(async move { shutdown.cancelled().await })
            .await
            .map_err(|e| ServeError::Transport(e.to_string()));
        drain.abort();
        end_sessions.cancel();
        served
    };
    Ok(BoundHttp {
        local_addr,
        server: Box::pin(server),
    })
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
