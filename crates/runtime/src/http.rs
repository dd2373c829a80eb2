//! Sending a [`PreparedRequest`] with one shared, pooled reqwest client:
//! one deadline per call, the response body read only up to the size cap
//! (a 50 MB answer never lands in memory), and failures classified so the
//! model gets a message it can act on. Optional bounded retries for
//! idempotent methods on connection errors, 502/503/504, and a 429 that
//! says when to come back: `Retry-After` (seconds or an HTTP date) is
//! honoured up to [`MAX_RETRY_AFTER`], otherwise the backoff doubles up to
//! [`MAX_BACKOFF`]; every attempt and every wait fits in the call's one
//! deadline, and a wait that would not is not started (the last answer,
//! say a 503 with its `Retry-After`, is returned instead). Redirects are
//! followed here, hop by hop, under [`super::redirect`]'s policy (same
//! origin only unless allowed, never a credential to another origin, no
//! `Referer`), within the same deadline. Bodies come decoded: the client
//! asks for gzip, deflate, brotli and zstd (`Accept-Encoding`) and decodes
//! them, and the size cap counts decoded bytes, so a small compressed
//! answer that would decode to gigabytes (a decompression bomb) stops at
//! the cap like any other long body.
//!
//! From the rest of the crate it uses only `request`, `redirect`,
//! `response`, `progress` (items of a streaming response are reported as
//! they arrive), `trace` (each request's `traceparent` and span),
//! `program` (the `User-Agent`), `wire` (URLs and errors without secrets)
//! and (for its options) `lro`: it sends a request already built with its
//! credentials, so it knows nothing of tools, bindings or auth schemes.

use std::time::{Duration, SystemTime};

use tokio::time::Instant;

use super::lro::LroOptions;
use super::redirect::{self, Redirects};
use super::request::PreparedRequest;
use super::response::{HttpResponse, ItemReader, ResponseLimits, Sequence, TransportFailure};
use super::wire::error_chain;

/// The longest `Retry-After` a retry waits for: an API asking for more
/// gets its answer (the 429 or 503, with its `Retry-After`) returned.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// The longest wait between two attempts when the API names none.
pub const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// How calls are sent.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Time limit for one call, from sending to the end of the body,
    /// retries, their waits and redirects included.
    pub timeout: Duration,
    /// Extra attempts for idempotent methods after a connection failure,
    /// a 502/503/504, or a 429 with `Retry-After`; 0 disables retries (the
    /// default). Any number is safe: the deadline bounds them all.
    pub retries: u32,
    /// Delay before the first retry; doubled for each further one, up to
    /// [`MAX_BACKOFF`]. A `Retry-After` from the API takes its place.
    pub retry_backoff: Duration,
    /// Response size cap.
    pub limits: ResponseLimits,
    /// Origins other than the API's own that redirects may lead to
    /// (`https://cdn.example.com`); credentials never go along. Status
    /// URLs of long-running operations on these origins are polled
    /// without credentials (see [`super::lro`]).
    pub redirect_origins: Vec<String>,
    /// How long-running operations are followed (`--lro-timeout`).
    pub lro: LroOptions,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(30),
            retries: 0,
            retry_backoff: Duration::from_millis(200),
            limits: ResponseLimits::default(),
            redirect_origins: Vec::new(),
            lro: LroOptions::default(),
        }
    }
}

/// The server's reqwest client, built the first time a request needs it:
/// building it loads the system's TLS roots (145 certificates, 3–4 ms on
/// the start-up path, before the first `tools/list` is answered), which a
/// server only listed or described never needs. Clones share one client
/// (one connection pool, one set of roots).
#[derive(Debug, Clone, Default)]
pub struct LazyClient {
    cell: std::sync::Arc<std::sync::OnceLock<Result<reqwest::Client, String>>>,
}

impl LazyClient {
    /// A client not built yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The client, built on first use; `Err` says why it cannot be (the
    /// TLS backend failed to start), every time it is asked for.
    pub fn get(&self) -> Result<&reqwest::Client, String> {
        self.cell
            .get_or_init(|| {
                reqwest::Client::builder()
                    .user_agent(crate::program::user_agent())
                    // Redirects are followed by `send_once`, which knows
                    // what the request carries; reqwest would forward
                    // API-key headers and a Referer to another origin.
                    .redirect(reqwest::redirect::Policy::none())
                    .referer(false)
                    .build()
                    .map_err(|e| format!("cannot create the HTTP client: {}", error_chain(&e)))
            })
            .as_ref()
            .map_err(String::clone)
    }
}

impl From<reqwest::Client> for LazyClient {
    /// A client built already (tests, or a caller with its own).
    fn from(client: reqwest::Client) -> Self {
        let cell = std::sync::OnceLock::new();
        let _ = cell.set(Ok(client));
        Self {
            cell: std::sync::Arc::new(cell),
        }
    }
}

/// One connection pool for all calls of a server.
#[derive(Debug, Clone)]
pub struct HttpClient {
    client: LazyClient,
    options: HttpOptions,
}

impl HttpClient {
    /// A client with a pooled connection manager, built on the first
    /// request (see [`LazyClient`]; a client that cannot be built fails
    /// that request).
    pub fn new(options: HttpOptions) -> Self {
        Self {
            client: LazyClient::new(),
            options,
        }
    }

    /// The underlying reqwest client (built when first used), to share its
    /// connection pool and TLS roots.
    pub fn reqwest(&self) -> &LazyClient {
        &self.client
    }

    /// The options this client was made with.
    pub fn options(&self) -> &HttpOptions {
        &self.options
    }

    /// Sends `request`, retrying as configured, within the one deadline.
    pub async fn send(&self, request: &PreparedRequest) -> Result<HttpResponse, TransportFailure> {
        let idempotent = matches!(
            request.method.as_str(),
            "GET" | "HEAD" | "OPTIONS" | "PUT" | "DELETE" | "TRACE" | "QUERY"
        );
        let attempts = if idempotent {
            self.options.retries.saturating_add(1)
        } else {
            1
        };
        let now = Instant::now();
        // A timeout too long to add is as good as none (30 years).
        let deadline = now
            .checked_add(self.options.timeout)
            .unwrap_or_else(|| now + Duration::from_secs(30 * 365 * 86_400));
        let mut attempt: u32 = 1;
        loop {
            let result = self.send_once(request, deadline).await;
            if attempt >= attempts {
                return result;
            }
            let wait = match &result {
                Ok(r) => {
                    let asked = retry_after(&r.headers, SystemTime::now());
                    match (r.status, asked) {
                        (502..=504, None) => backoff(self.options.retry_backoff, attempt),
                        (429 | 502..=504, Some(asked)) if asked <= MAX_RETRY_AFTER => asked,
                        (429 | 502..=504, Some(asked)) => {
                            tracing::debug!(
                                "not retrying {}: the API asks for {asked:?}, over the {MAX_RETRY_AFTER:?} cap",
                                request.method
                            );
                            return result;
                        }
                        _ => return result,
                    }
                }
                Err(TransportFailure::Connect(_)) => backoff(self.options.retry_backoff, attempt),
                Err(_) => return result,
            };
            // An attempt needs time of its own after the wait.
            let remaining = deadline.saturating_duration_since(Instant::now());
            if wait >= remaining {
                tracing::debug!(
                    "not retrying {}: waiting {wait:?} would pass the call's deadline ({remaining:?} left)",
                    request.method
                );
                return result;
            }
            tracing::debug!(attempt, "retrying {} after {:?}", request.method, wait);
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }

    /// One attempt: the request and the redirects it leads to, before
    /// `deadline`.
    async fn send_once(
        &self,
        request: &PreparedRequest,
        deadline: Instant,
    ) -> Result<HttpResponse, TransportFailure> {
        let timeout = self.options.timeout;
        let attempt = async {
            let mut redirects = Redirects::new(&request.url, &self.options.redirect_origins);
            let mut next: Option<PreparedRequest> = None;
            loop {
                let current = next.as_ref().unwrap_or(request);
                let response = self.exchange(current, deadline).await?;
                let location = redirect::is_followed_status(response.status)
                    .then(|| location(&response.headers))
                    .flatten();
                let Some(location) = location else {
                    return Ok(response);
                };
                match redirects.follow(current, response.status, location) {
                    Ok(hop) => next = Some(hop),
                    Err(refusal) => {
                        return Err(TransportFailure::Redirect {
                            chain: refusal.chain,
                            reason: refusal.reason,
                        });
                    }
                }
            }
        };
        match tokio::time::timeout_at(deadline, attempt).await {
            Ok(result) => result,
            Err(_) => Err(TransportFailure::Timeout {
                seconds: timeout.as_secs_f64(),
            }),
        }
    }

    /// One HTTP exchange: the request sent, the body read up to the cap.
    async fn exchange(
        &self,
        request: &PreparedRequest,
        deadline: Instant,
    ) -> Result<HttpResponse, TransportFailure> {
        let method = reqwest::Method::from_bytes(request.method.as_bytes())
            .map_err(|e| TransportFailure::Other(format!("invalid method: {e}")))?;
        let client = self.client.get().map_err(TransportFailure::Other)?;
        let mut builder = match request.parsed_url() {
            Some(url) => client.request(method, url.clone()),
            None => client.request(method, &request.url),
        };
        for (name, value) in &request.headers {
            // The client negotiates content codings itself and decodes
            // what comes back; a documented `Accept-Encoding` header
            // parameter asking for one it cannot decode would bring back
            // bytes no one can read.
            if name.eq_ignore_ascii_case("accept-encoding") && !decodable_codings(value) {
                tracing::debug!(
                    "not sending the Accept-Encoding argument `{value}`: it admits a content coding the client cannot decode"
                );
                continue;
            }
            builder = builder.header(name.as_str(), value.as_str());
        }
        // The client's trace continues into the API (unless the call sets
        // trace headers itself, as a documented header parameter), each
        // request with a span of its own.
        let trace = super::trace::current();
        let mut span_id = None;
        if let Some(trace) = &trace {
            let has = |n: &str| {
                request
                    .headers
                    .iter()
                    .any(|(k, _)| k.eq_ignore_ascii_case(n))
            };
            if !has("traceparent") {
                let id = trace.child_span_id();
                builder = builder.header("traceparent", trace.traceparent_for(&id));
                span_id = Some(id);
                if let Some(state) = trace.tracestate.as_deref().filter(|_| !has("tracestate")) {
                    builder = builder.header("tracestate", state);
                }
            }
        }
        if let Some(body) = &request.body {
            builder = builder.body(body.clone());
        }
        if request.empty_content_length() {
            builder = builder.header(reqwest::header::CONTENT_LENGTH, "0");
        }
        let started = SystemTime::now();
        let result = self.read_response(builder, deadline).await;
        if let (Some(trace), Some(span_id)) = (trace.filter(|t| t.records()), span_id) {
            trace.record(client_span(&trace, span_id, request, started, &result));
        }
        result
    }

    /// Sends `builder`'s request and reads the response, the body up to
    /// the cap. A streaming response (a sequential media type, see
    /// [`Sequence`]) still open at `deadline` is what arrived by then
    /// (an event stream need never end), not a timeout.
    async fn read_response(
        &self,
        builder: reqwest::RequestBuilder,
        deadline: Instant,
    ) -> Result<HttpResponse, TransportFailure> {
        let mut response = builder.send().await.map_err(classify)?;
        let status = response.status().as_u16();
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let cap = self.options.limits.max_body_bytes;
        let mut body = Vec::new();
        let mut truncated = false;
        // A streaming response (JSON Lines, an event stream, …) of a
        // call that reports progress: each item is reported as soon as
        // its bytes are in, within the same cap.
        let sequence = header_value(&headers, "content-type")
            .and_then(Sequence::of)
            .filter(|_| (200..300).contains(&status));
        let mut items = sequence
            .filter(|_| super::progress::active())
            .map(|kind| (ItemReader::new(kind), 0u64));
        let mut stream_open = false;
        loop {
            let next = match sequence {
                Some(_) => match tokio::time::timeout_at(deadline, response.chunk()).await {
                    Ok(next) => next,
                    Err(_) => {
                        stream_open = true;
                        break;
                    }
                },
                None => response.chunk().await,
            };
            let Some(chunk) = next.map_err(classify)? else {
                break;
            };
            let room = cap.saturating_sub(body.len());
            let kept = &chunk[..chunk.len().min(room)];
            if let Some((reader, seen)) = items.as_mut() {
                for item in reader.push(kept) {
                    *seen += 1;
                    super::progress::report(*seen, &item);
                }
            }
            body.extend_from_slice(kept);
            if chunk.len() > room {
                truncated = true;
                break;
            }
        }
        if let (Some((reader, seen)), false) = (items.as_mut(), truncated || stream_open) {
            for item in reader.finish() {
                *seen += 1;
                super::progress::report(*seen, &item);
            }
        }
        Ok(HttpResponse {
            status,
            headers,
            body,
            truncated,
            stream_open,
        })
    }
}

/// The span of one API request (OpenTelemetry HTTP client conventions):
/// the URL without user info or query values, never a header.
fn client_span(
    trace: &super::trace::TraceContext,
    span_id: String,
    request: &PreparedRequest,
    start: SystemTime,
    result: &Result<HttpResponse, TransportFailure>,
) -> super::trace::FinishedSpan {
    use super::trace::{AttrValue, FinishedSpan, SpanKind};
    let mut attributes: Vec<(&'static str, AttrValue)> = vec![
        ("http.request.method", request.method.as_str().into()),
        ("url.full", super::wire::redact_url(&request.url).into()),
    ];
    if let Some(url) = request.parsed_url() {
        if let Some(host) = url.host_str() {
            attributes.push(("server.address", host.into()));
        }
        if let Some(port) = url.port_or_known_default() {
            attributes.push(("server.port", i64::from(port).into()));
        }
    }
    let error = match result {
        Ok(response) => {
            attributes.push((
                "http.response.status_code",
                i64::from(response.status).into(),
            ));
            (response.status >= 400).then(|| response.status.to_string())
        }
        Err(failure) => Some(
            match failure {
                TransportFailure::Connect(_) => "connection_error",
                TransportFailure::Dns(_) => "dns_error",
                TransportFailure::Timeout { .. } => "timeout",
                TransportFailure::Tls(_) => "tls_error",
                TransportFailure::Redirect { .. } => "redirect_refused",
                TransportFailure::Other(_) => "_OTHER",
            }
            .to_string(),
        ),
    };
    if let Some(kind) = &error {
        attributes.push(("error.type", kind.clone().into()));
    }
    FinishedSpan {
        trace_id: trace.trace_id.clone(),
        span_id,
        parent_id: Some(trace.span_id.clone()),
        parent_remote: false,
        name: request.method.clone(),
        kind: SpanKind::Client,
        start,
        end: SystemTime::now(),
        attributes,
        error,
        tracestate: trace.tracestate.clone(),
    }
}

/// Why [`read_bounded`] gave up on a body.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoundedReadError {
    /// The body is longer than the limit (by its `Content-Length`, or
    /// once that many bytes arrived): reading stopped there.
    #[error("the response is larger than the limit of {limit} bytes; reading stopped there")]
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The body could not be read (the connection broke, say); the message
    /// carries no URL.
    #[error("cannot read the response body: {0}")]
    Read(String),
}

/// Reads `response`'s body, at most `limit` bytes: a `Content-Length`
/// over the limit is refused before reading, and a body that grows past
/// it (an endless one, say) stops being read the moment it does, so no
/// more than `limit` bytes (and one chunk) are ever held. For fetches
/// that must be whole (a document, a key set), unlike API responses,
/// which are cut at their cap instead.
pub async fn read_bounded(
    mut response: reqwest::Response,
    limit: usize,
) -> Result<Vec<u8>, BoundedReadError> {
    if response.content_length().is_some_and(|n| n > limit as u64) {
        return Err(BoundedReadError::TooLarge { limit });
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| BoundedReadError::Read(error_chain(&e.without_url())))?
    {
        if chunk.len() > limit.saturating_sub(body.len()) {
            return Err(BoundedReadError::TooLarge { limit });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The wait before retry `attempt` + 1 when the API names none: `base`
/// doubled for each attempt made, at most [`MAX_BACKOFF`]; never
/// overflows, whatever `attempt`.
pub fn backoff(base: Duration, attempt: u32) -> Duration {
    let factor = 1u32
        .checked_shl(attempt.saturating_sub(1))
        .unwrap_or(u32::MAX);
    base.checked_mul(factor)
        .unwrap_or(MAX_BACKOFF)
        .min(MAX_BACKOFF)
}

/// How long a `Retry-After` header asks to wait, as of `now`: delay
/// seconds (`120`) or an HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`; one
/// in the past asks for no wait). `None` without the header, or with one
/// that is neither.
pub fn retry_after(headers: &[(String, String)], now: SystemTime) -> Option<Duration> {
    let value = headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("retry-after"))
        .map(|(_, value)| value.trim())?;
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // Digits only: a number of seconds, saturating when absurdly long.
        return Some(Duration::from_secs(
            value.parse::<u64>().unwrap_or(u64::MAX),
        ));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The content codings the client decodes (reqwest's `gzip`, `deflate`,
/// `brotli` and `zstd` features), and `identity`.
const DECODED_CODINGS: &[&str] = &["gzip", "x-gzip", "deflate", "br", "zstd", "identity"];

/// Whether every coding an `Accept-Encoding` value admits is one the
/// client decodes: `gzip;q=1.0, identity` is, `compress` or `*` (any
/// coding, refused ones with `q=0` aside) is not, nor is an empty value.
pub fn decodable_codings(value: &str) -> bool {
    let mut any = false;
    for item in value.split(',') {
        let mut parts = item.split(';');
        let coding = parts.next().unwrap_or_default().trim();
        if coding.is_empty() {
            continue;
        }
        let refused = parts.any(|p| {
            p.trim()
                .strip_prefix("q=")
                .and_then(|q| q.trim().parse::<f64>().ok())
                .is_some_and(|q| q == 0.0)
        });
        if refused {
            continue;
        }
        if !DECODED_CODINGS
            .iter()
            .any(|c| coding.eq_ignore_ascii_case(c))
        {
            return false;
        }
        any = true;
    }
    any
}

/// The first value of header `name` (case-insensitive), if any.
fn header_value<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.as_str())
}

/// The first `Location` header, if any.
fn location(headers: &[(String, String)]) -> Option<&str> {
    headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("location"))
        .map(|(_, value)| value.as_str())
}

/// Sorts a reqwest error into what the model needs to know. reqwest
/// names the URL in its messages, query and all: the message is taken
/// without it (the outcome names the request by its masked request line),
/// and any URL a cause still writes is masked.
fn classify(e: reqwest::Error) -> TransportFailure {
    let e = e.without_url();
    let text = super::wire::redact_urls_in(&error_chain(&e));
    if e.is_timeout() {
        return TransportFailure::Timeout { seconds: 0.0 };
    }
    let lower = text.to_ascii_lowercase();
    if lower.contains("dns")
        || lower.contains("failed to lookup")
        || lower.contains("name or service not known")
    {
        TransportFailure::Dns(text)
    } else if lower.contains("certificate") || lower.contains("tls") {
        TransportFailure::Tls(text)
    } else if e.is_connect() {
        TransportFailure::Connect(text)
    } else {
        TransportFailure::Other(text)
    }
}

#[cfg(test)]
#[path = "http_tests.rs"]
mod tests;
