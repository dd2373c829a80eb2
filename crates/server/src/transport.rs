//! Transports: stdio (the default, [`super::stdio`]) and streamable HTTP
//! at `/mcp` via axum, with DNS-rebinding protection (Host and Origin
//! checks, loopback by default), client authorization (a static bearer token, or OAuth access tokens per the MCP specification:
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
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use super::authz::{self, Authorizer, AuthzOptions};
use super::listener::ListenerLimits;
use super::ops::{self, OpsState};
use super::session_owner::SessionOwners;
use super::sessions::{BoundedSessions, SessionLimits};
use super::{Bridge, ServeError};

pub use super::stdio::serve_stdio;

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
    let mut config = StreamableHttpServerConfig::default()
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
    if !options.stateless {
        // Asleep sessions wake through rmcp's session restore.
        config.session_store = sessions_bound.store();
    }
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
        let forget_state = scope_bridge.clone();
        sessions_bound.on_end(move |id, _| {
            forget.closed(id);
            forget_state.forget_session(id);
        });
        owners = Some(bound);
        axum::Router::new().nest_service(
            "/mcp",
            StreamableHttpService::new(factory, Arc::clone(&sessions_bound), config),
        )
    };
    // Integers beyond 64 bits are read from the body before rmcp parses it.
    let mcp = mcp.layer(middleware::from_fn(super::wide_integers::layer));
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

    let listener = super::listener::bind(options.listen)
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
