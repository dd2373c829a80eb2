//! The HTTP transport's own accept loop: every connection is bounded in
//! time and in number, so slow or idle clients cannot hold the server.
//!
//! - **Header timeout** (`--header-timeout`): a request's head (request
//!   line and headers) must arrive within this time, counted from the
//!   connection's accept for its first request, and from the first byte of
//!   the next request on a kept-alive connection. A client dripping its
//!   headers is cut.
//! - **Body timeout** (`--body-timeout`): a request's whole body must
//!   arrive within this time of its head; reading it fails after that, the
//!   request is answered with an error and the connection closed.
//! - **Idle timeout** (`--idle-timeout`): a kept-alive connection with no
//!   request in flight and no byte of a next one is closed after this
//!   time. Responses (a call that takes a while, an SSE stream) are never
//!   cut by it.
//! - **Connection cap** (`--max-connections`) and **per-IP cap**
//!   (`--max-connections-per-ip`, IPv6 counted per /64): connections past
//!   either cap are not served as usual.
//! - **Operations reserve**: past a cap, up to [`OPS_RESERVE`] more
//!   connections are accepted for one request each, answered only on the
//!   operations paths (`/healthz`, `/readyz`, `/metrics`); any other path
//!   gets `503` with `Retry-After` and the connection is closed. When the
//!   reserve is full, a connection that has not sent a whole request head
//!   yet makes room for the newcomer: the oldest of the address holding
//!   the most of them. So slow clients filling the reserve evict each
//!   other, not a health probe from another address (which sends its head
//!   at once); when none can make room, the newcomer gets a canned `503`
//!   and is closed at once. So `/healthz` answers while the caps are reached,
//!   and the accept loop never stops accepting (a full kernel backlog
//!   would make the server unreachable for probes too).
//!
//! Every accepted socket gets `TCP_NODELAY`: Nagle's algorithm held the
//! last segment of a small SSE answer for 40 ms (issue #48).
//!
//! Graceful shutdown as `axum::serve` has it: on the shutdown signal the
//! listener closes, each connection finishes its requests in flight and
//! closes, and [`serve`] returns once every connection has.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{HeaderValue, Request, Response, StatusCode, header};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tower_service::Service;

/// Default `--header-timeout`: a request head arrives in one or two
/// packets; ten seconds allows for a slow mobile link.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Default `--body-timeout`: an MCP request body is a JSON-RPC message,
/// rarely beyond a few kilobytes.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// Default `--idle-timeout`: how long a kept-alive connection may wait for
/// its next request (nginx keeps 75 s, Go's servers 60–120 s).
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// Default `--max-connections`.
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
/// Default `--max-connections-per-ip`: an eighth of the connections for
/// one address (a desktop client holds two or three; an office behind one
/// NAT address a few dozen). Behind a reverse proxy every connection comes
/// from the proxy: raise it, or set it to 0 (no per-IP cap).
pub const DEFAULT_MAX_CONNECTIONS_PER_IP: usize = 128;
/// Connections accepted past the caps for the operations endpoints only.
pub const OPS_RESERVE: usize = 32;
/// The kernel's queue of connections not yet accepted (`listen(2)`'s
/// backlog; Linux lowers it to `net.core.somaxconn`, 4,096 by default
/// since 5.4). Tokio's `TcpListener::bind` asks for 128, as the standard
/// library does: far fewer than the default connection cap. Clients cut at
/// the caps who reconnect at once (1,500 of them in
/// `scripts/load/bounded.py`) filled that queue whenever the accept loop
/// fell behind on a busy machine (about 350 connections dropped a
/// minute), and a health probe whose SYN was dropped waits a second for
/// its retransmission. Each such client holds at most one queued
/// connection, so a queue longer than the clients is never full. Go's
/// servers ask for `somaxconn` too; nginx for 511.
pub const LISTEN_BACKLOG: u32 = 4096;

/// The paths a connection of the operations reserve is answered on.
const OPS_PATHS: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

/// The answer written to a connection refused outright (reserve full).
const REFUSED: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: 52\r\n\r\nthe server is at its connection limit; retry shortly\n";

/// The time and number bounds of the HTTP listener (see the module
/// documentation for what each one bounds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListenerLimits {
    /// How long a request head may take to arrive.
    pub header_timeout: Duration,
    /// How long a request body may take to arrive, from its head.
    pub body_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request.
    pub idle_timeout: Duration,
    /// Connections served at once.
    pub max_connections: usize,
    /// Connections served at once from one IP address (IPv6: one /64);
    /// 0: no per-IP cap.
    pub max_connections_per_ip: usize,
    /// Connections accepted past the caps for the operations endpoints.
    pub ops_reserve: usize,
}

impl Default for ListenerLimits {
    fn default() -> Self {
        Self {
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_connections_per_ip: DEFAULT_MAX_CONNECTIONS_PER_IP,
            ops_reserve: OPS_RESERVE,
        }
    }
}

/// Binds `addr` with a [`LISTEN_BACKLOG`]-long queue of connections not
/// yet accepted (and, as Tokio does, `SO_REUSEADDR` on Unix so a restart
/// does not wait out `TIME_WAIT`).
pub fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = match addr {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Serves `router` on `listener` within `limits` until `shutdown` is
/// cancelled and every connection has finished.
pub async fn serve(
    listener: TcpListener,
    router: axum::Router,
    limits: ListenerLimits,
    shutdown: CancellationToken,
) {
    raise_open_files(&limits);
    let gate = Arc::new(Gate::new(limits));
    // Every connection task holds a receiver; `closed()` resolves when the
    // last one is gone.
    let (done_tx, _) = tokio::sync::watch::channel(());
    loop {
        let (stream, peer) = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    accept_error(e).await;
                    continue;
                }
            },
        };
        // One line, and a 40 ms stall per small answer gone (issue #48).
        let _ = stream.set_nodelay(true);
        let Some(ticket) = gate.admit(peer.ip()) else {
            // Full, and nobody to make room: a canned answer, never waited on.
            let _ = stream.try_write(REFUSED);
            continue;
        };
        let done = done_tx.subscribe();
        let router = router.clone();
        let gate = Arc::clone(&gate);
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            serve_connection(stream, peer, router, &gate, ticket, shutdown).await;
            drop(done);
        });
    }
    drop(listener);
    done_tx.closed().await;
}

/// Raises the soft limit on open files to the hard one (as Go's runtime
/// does: 1,024, a common soft limit, is below the default connection cap
/// plus the reserve), and warns when it is still below what the caps need.
fn raise_open_files(limits: &ListenerLimits) {
    #[cfg(unix)]
    {
        let mut files = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the one struct given.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut files) } != 0 {
            return;
        }
        if files.rlim_cur < files.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: files.rlim_max,
                rlim_max: files.rlim_max,
            };
            // SAFETY: as above.
            if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
                files = raised;
            }
        }
        // The listener, the API's connections, logs, the token store: some room.
        let needed = (limits.max_connections + limits.ops_reserve + 256) as libc::rlim_t;
        if files.rlim_cur != libc::RLIM_INFINITY && files.rlim_cur < needed {
            tracing::warn!(
                open_files = files.rlim_cur,
                needed,
                "the limit on open files is below --max-connections plus --ops-reserve and some room: past it, connections fail before the caps apply (raise `ulimit -n`, or lower --max-connections)"
            );
        }
    }
}

/// Errors of `accept` that concern one connection are skipped; others
/// (out of file descriptors) are logged and waited out, as `axum::serve`
/// does.
async fn accept_error(e: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    ) {
        return;
    }
    tracing::error!("accepting a connection failed: {e}; retrying in a second");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// Serves one connection until it ends, times out, is evicted from the
/// reserve, or has finished after a shutdown signal.
async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    router: axum::Router,
    gate: &Gate,
    ticket: Ticket,
    shutdown: CancellationToken,
) {
    let conn = Arc::clone(&ticket.conn);
    let ops_only = ticket.ops_only;
    let limits = &gate.limits;
    let body_timeout = limits.body_timeout;
    let service_conn = Arc::clone(&conn);
    let service = hyper::service::service_fn(move |req: Request<Incoming>| {
        let guard = InFlight::begin(&service_conn);
        let mut router = router.clone();
        let deadline = tokio::time::Instant::now() + body_timeout;
        async move {
            if ops_only && !OPS_PATHS.contains(&req.uri().path()) {
                return Ok::<_, Infallible>(at_capacity());
            }
            let req = req.map(|body| Body::new(DeadlineBody::new(body, deadline)));
            let response = match router.call(req).await {
                Ok(response) => response,
                Err(never) => match never {},
            };
            Ok(response.map(|body| {
                Body::new(GuardedBody {
                    inner: body,
                    _guard: guard,
                })
            }))
        }
    });
    let mut builder = auto::Builder::new(TokioExecutor::new());
    // The watchdog below times heads; hyper's own timer would also count
    // a kept-alive wait as head time.
    builder
        .http1()
        .header_read_timeout(None)
        .keep_alive(!ops_only);
    let io = TokioIo::new(Watched {
        io: stream,
        conn: Arc::clone(&conn),
    });
    let connection = builder.serve_connection_with_upgrades(io, service);
    tokio::pin!(connection);
    let mut closing = false;
    loop {
        let deadline = conn.deadline(limits);
        let changed = conn.changed.notified();
        tokio::select! {
            served = connection.as_mut() => {
                if let Err(e) = served {
                    tracing::debug!(%peer, "connection ended: {e}");
                }
                break;
            }
            () = shutdown.cancelled(), if !closing => {
                closing = true;
                connection.as_mut().graceful_shutdown();
            }
            () = conn.evict.cancelled() => {
                tracing::debug!(%peer, "connection of the operations reserve evicted for a newer one");
                break;
            }
            () = changed => {}
            () = sleep_until(deadline) => {
                if let Some(why) = conn.expired(limits) {
                    tracing::debug!(%peer, "connection closed: {why}");
                    break;
                }
            }
        }
    }
    drop(ticket);
}

/// Sleeps until `deadline`, or forever without one.
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

/// The answer on a reserve connection to anything but an operations path.
fn at_capacity() -> Response<Body> {
    let mut response = Response::new(Body::from(
        "the server is at its connection limit; retry shortly\n",
    ));
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let headers = response.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// "No time": a field of [`Conn`] that is not set.
const UNSET: u64 = u64::MAX;

/// What the watchdog of one connection knows about it.
struct Conn {
    /// When it was accepted; the other times count from here.
    opened: Instant,
    /// Requests whose response has not been sent yet.
    in_flight: AtomicUsize,
    /// Requests begun (heads received).
    served: AtomicUsize,
    /// Milliseconds from `opened` when the connection last fell idle.
    idle_since: AtomicU64,
    /// Milliseconds from `opened` when the bytes of a request head began
    /// to arrive; [`UNSET`] while none have.
    head_since: AtomicU64,
    /// Wakes the watchdog when one of the above changes.
    changed: Notify,
    /// Cancelled to close the connection (evicted from the reserve).
    evict: CancellationToken,
}

impl Conn {
    fn new() -> Self {
        Self {
            opened: Instant::now(),
            in_flight: AtomicUsize::new(0),
            served: AtomicUsize::new(0),
            idle_since: AtomicU64::new(0),
            // A new connection's first head is timed from its accept.
            head_since: AtomicU64::new(0),
            changed: Notify::new(),
            evict: CancellationToken::new(),
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.opened.elapsed().as_millis()).unwrap_or(UNSET - 1)
    }

    fn at(&self, ms: u64) -> Instant {
        self.opened + Duration::from_millis(ms)
    }

    /// When the connection is to be closed unless something happens first;
    /// `None` while a request is in flight.
    fn deadline(&self, limits: &ListenerLimits) -> Option<Instant> {
        if self.in_flight.load(Ordering::SeqCst) > 0 {
            return None;
        }
        match self.head_since.load(Ordering::SeqCst) {
            UNSET => Some(self.at(self.idle_since.load(Ordering::SeqCst)) + limits.idle_timeout),
            since => Some(self.at(since) + limits.header_timeout),
        }
    }

    /// Why the connection is over its time, if it is.
    fn expired(&self, limits: &ListenerLimits) -> Option<&'static str> {
        let deadline = self.deadline(limits)?;
        if Instant::now() < deadline {
            return None;
        }
        Some(if self.head_since.load(Ordering::SeqCst) == UNSET {
            "idle timeout"
        } else {
            "no whole request head within the header timeout"
        })
    }

    /// Bytes arrived: when no request is in flight they begin a head.
    fn read_some(&self) {
        if self.in_flight.load(Ordering::SeqCst) == 0
            && self.head_since.load(Ordering::SeqCst) == UNSET
        {
            self.head_since.store(self.now_ms(), Ordering::SeqCst);
            self.changed.notify_one();
        }
    }
}

/// Counts a request in flight on its connection until dropped (it travels
/// with the response body, so a streamed answer counts until it is sent).
struct InFlight(Arc<Conn>);

impl InFlight {
    fn begin(conn: &Arc<Conn>) -> Self {
        conn.in_flight.fetch_add(1, Ordering::SeqCst);
        conn.served.fetch_add(1, Ordering::SeqCst);
        conn.head_since.store(UNSET, Ordering::SeqCst);
        conn.changed.notify_one();
        Self(Arc::clone(conn))
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let conn = &self.0;
        if conn.in_flight.fetch_sub(1, Ordering::SeqCst) == 1 {
            conn.idle_since.store(conn.now_ms(), Ordering::SeqCst);
            conn.head_since.store(UNSET, Ordering::SeqCst);
            conn.changed.notify_one();
        }
    }
}

/// A response body that keeps its request in flight until it is sent.
struct GuardedBody {
    inner: Body,
    _guard: InFlight,
}

impl http_body::Body for GuardedBody {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// Why reading a request body failed: it did not arrive in time.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within the body timeout")]
pub struct BodyTimeout;

/// A request body that fails once its deadline has passed.
struct DeadlineBody {
    inner: Incoming,
    sleep: Pin<Box<tokio::time::Sleep>>,
}

impl DeadlineBody {
    fn new(inner: Incoming, deadline: tokio::time::Instant) -> Self {
        Self {
            inner,
            sleep: Box::pin(tokio::time::sleep_until(deadline)),
        }
    }
}

impl http_body::Body for DeadlineBody {
    type Data = bytes::Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        match self.sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimeout)))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// A connection's socket, telling its [`Conn`] when bytes arrive.
struct Watched {
    io: TcpStream,
    conn: Arc<Conn>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.io).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.conn.read_some();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// Who may connect: the caps and the reserve.
struct Gate {
    limits: ListenerLimits,
    state: Mutex<GateState>,
    /// Milliseconds from `started` of the last "cap reached" warning.
    warned_at: AtomicU64,
    /// Connections not served as usual since the last warning.
    turned: AtomicU64,
    started: Instant,
}

#[derive(Default)]
struct GateState {
    /// Connections served as usual.
    open: usize,
    /// Of those, per address (IPv6 per /64).
    per_ip: HashMap<IpAddr, usize>,
    /// Connections of the operations reserve, oldest first.
    reserve: Vec<Reserved>,
    next_reserve: u64,
}

/// A connection of the operations reserve.
struct Reserved {
    id: u64,
    /// Its address, as counted per IP ([`ip_key`]).
    ip: IpAddr,
    conn: Arc<Conn>,
}

/// Which reserve connection makes room for a newcomer: one that has not
/// sent a whole request head yet, from the address holding the most such
/// connections, the oldest of them. So clients flooding the reserve
/// evict each other, and a probe from another address (which sends its
/// head at once) keeps its place; `None` when every connection of the
/// reserve is answering a request.
fn reserve_victim(reserve: &[Reserved]) -> Option<usize> {
    let waiting = |r: &Reserved| {
        r.conn.served.load(Ordering::SeqCst) == 0 && r.conn.in_flight.load(Ordering::SeqCst) == 0
    };
    let mut per_ip: HashMap<IpAddr, usize> = HashMap::new();
    for r in reserve.iter().filter(|r| waiting(r)) {
        *per_ip.entry(r.ip).or_insert(0) += 1;
    }
    let most = per_ip.values().copied().max()?;
    reserve
        .iter()
        .position(|r| waiting(r) && per_ip.get(&r.ip) == Some(&most))
}

/// A connection's place at the [`Gate`], given back when dropped.
struct Ticket {
    gate: Arc<Gate>,
    conn: Arc<Conn>,
    ops_only: bool,
    key: TicketKey,
}

enum TicketKey {
    Served(IpAddr),
    Reserve(u64),
}

/// The address a per-IP count is kept under: IPv4 as is (IPv4-mapped
/// IPv6 too), IPv6 by its /64, the block one subscriber usually gets.
fn ip_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

impl Gate {
    fn new(limits: ListenerLimits) -> Self {
        Self {
            limits,
            state: Mutex::new(GateState::default()),
            warned_at: AtomicU64::new(UNSET),
            turned: AtomicU64::new(0),
            started: Instant::now(),
        }
    }

    /// A place for a connection from `ip`: served as usual within the
    /// caps, else in the operations reserve, else `None`.
    fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<Ticket> {
        let key = ip_key(ip);
        let conn = Arc::new(Conn::new());
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let per_ip = state.per_ip.get(&key).copied().unwrap_or(0);
        let ip_full =
            self.limits.max_connections_per_ip > 0 && per_ip >= self.limits.max_connections_per_ip;
        if state.open < self.limits.max_connections && !ip_full {
            state.open += 1;
            *state.per_ip.entry(key).or_insert(0) += 1;
            return Some(Ticket {
                gate: Arc::clone(self),
                conn,
                ops_only: false,
                key: TicketKey::Served(key),
            });
        }
        self.cap_reached(&state, ip_full);
        if self.limits.ops_reserve == 0 {
            return None;
        }
        if state.reserve.len() >= self.limits.ops_reserve {
            let victim = reserve_victim(&state.reserve)?;
            let evicted = state.reserve.remove(victim);
            evicted.conn.evict.cancel();
        }
        let id = state.next_reserve;
        state.next_reserve += 1;
        state.reserve.push(Reserved {
            id,
            ip: key,
            conn: Arc::clone(&conn),
        });
        Some(Ticket {
            gate: Arc::clone(self),
            conn,
            ops_only: true,
            key: TicketKey::Reserve(id),
        })
    }

    /// Logs that a cap was reached, at most once every ten seconds, with
    /// the number of connections turned to the reserve or away since.
    fn cap_reached(&self, state: &GateState, ip_full: bool) {
        let turned = self.turned.fetch_add(1, Ordering::Relaxed) + 1;
        let now = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(UNSET - 1);
        let last = self.warned_at.load(Ordering::Relaxed);
        if last != UNSET && now.saturating_sub(last) < 10_000 {
            return;
        }
        if self
            .warned_at
            .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
        {
            return;
        }
        self.turned.store(0, Ordering::Relaxed);
        let which = if ip_full {
            "--max-connections-per-ip"
        } else {
            "--max-connections"
        };
        tracing::warn!(
            open = state.open,
            reserve = state.reserve.len(),
            turned,
            "connection cap reached ({which}): connections past it are answered on /healthz, /readyz and /metrics only"
        );
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut state = self.gate.state.lock().unwrap_or_else(|e| e.into_inner());
        match self.key {
            TicketKey::Served(ip) => {
                state.open = state.open.saturating_sub(1);
                if let Some(n) = state.per_ip.get_mut(&ip) {
                    *n -= 1;
                    if *n == 0 {
                        state.per_ip.remove(&ip);
                    }
                }
            }
            TicketKey::Reserve(id) => state.reserve.retain(|r| r.id != id),
        }
    }
}

#[cfg(test)]
#[path = "listener_tests.rs"]
mod tests;
