//! Sending a [`PreparedRequest`] with one shared, pooled reqwest client:
//! per-call timeout, the response body read only up to the size cap (a
//! 50 MB answer never lands in memory), and failures classified so the
//! model gets a message it can act on. Optional bounded retries for
//! idempotent methods on connection errors and 502/503/504. Redirects are
//! followed here, hop by hop, under [`super::redirect`]'s policy (same
//! origin only unless allowed, never a credential to another origin, no
//! `Referer`), all within the one timeout.
//!
//! Self-contained: imports only `super::request`, `super::redirect` and
//! `super::response`.

use std::time::Duration;

use super::redirect::{self, Redirects};
use super::request::PreparedRequest;
use super::response::{HttpResponse, ResponseLimits, TransportFailure};
use super::wire::error_chain;

/// How calls are sent.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Time limit for one attempt, from sending to the end of the body.
    pub timeout: Duration,
    /// Extra attempts for idempotent methods after a connection failure or
    /// a 502/503/504; 0 disables retries (the default).
    pub retries: u32,
    /// Delay before the first retry; doubled for each further one.
    pub retry_backoff: Duration,
    /// Response size cap.
    pub limits: ResponseLimits,
    /// Origins other than the API's own that redirects may lead to
    /// (`https://cdn.example.com`); credentials never go along.
    pub redirect_origins: Vec<String>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(30),
            retries: 0,
            retry_backoff: Duration::from_millis(200),
            limits: ResponseLimits::default(),
            redirect_origins: Vec::new(),
        }
    }
}

/// One connection pool for all calls of a server.
#[derive(Debug, Clone)]
pub struct HttpClient {
    client: reqwest::Client,
    options: HttpOptions,
}

impl HttpClient {
    /// A client with a pooled connection manager.
    pub fn new(options: HttpOptions) -> Result<Self, String> {
        let client = reqwest::Client::builder()
            .user_agent(concat!(
                env!("CARGO_PKG_NAME"),
                "/",
                env!("CARGO_PKG_VERSION")
            ))
            // Redirects are followed by `send_once`, which knows what the
            // request carries; reqwest would forward API-key headers and a
            // Referer to another origin.
            .redirect(reqwest::redirect::Policy::none())
            .referer(false)
            .build()
            .map_err(|e| format!("cannot create the HTTP client: {e}"))?;
        Ok(Self { client, options })
    }

    /// The underlying reqwest client, to share its connection pool and TLS
    /// roots (loading the system roots is the costliest part of start-up).
    pub fn reqwest(&self) -> &reqwest::Client {
        &self.client
    }

    /// The options this client was made with.
    pub fn options(&self) -> &HttpOptions {
        &self.options
    }

    /// Sends `request`, retrying as configured.
    pub async fn send(&self, request: &PreparedRequest) -> Result<HttpResponse, TransportFailure> {
        let idempotent = matches!(
            request.method.as_str(),
            "GET" | "HEAD" | "OPTIONS" | "PUT" | "DELETE" | "TRACE"
        );
        let attempts = if idempotent {
            self.options.retries + 1
        } else {
            1
        };
        let mut delay = self.options.retry_backoff;
        let mut attempt = 1;
        loop {
            let result = self.send_once(request).await;
            let retryable = match &result {
                Ok(r) => matches!(r.status, 502..=504),
                Err(TransportFailure::Connect(_)) => true,
                Err(_) => false,
            };
            if !retryable || attempt >= attempts {
                return result;
            }
            tracing::debug!(attempt, "retrying {} after {:?}", request.method, delay);
            tokio::time::sleep(delay).await;
            delay *= 2;
            attempt += 1;
        }
    }

    /// One attempt: the request and the redirects it leads to, within the
    /// timeout.
    async fn send_once(&self, request: &PreparedRequest) -> Result<HttpResponse, TransportFailure> {
        let timeout = self.options.timeout;
        let attempt = async {
            let mut redirects = Redirects::new(&request.url, &self.options.redirect_origins);
            let mut next: Option<PreparedRequest> = None;
            loop {
                let current = next.as_ref().unwrap_or(request);
                let response = self.exchange(current).await?;
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
        match tokio::time::timeout(timeout, attempt).await {
            Ok(result) => result,
            Err(_) => Err(TransportFailure::Timeout {
                seconds: timeout.as_secs_f64(),
            }),
        }
    }

    /// One HTTP exchange: the request sent, the body read up to the cap.
    async fn exchange(&self, request: &PreparedRequest) -> Result<HttpResponse, TransportFailure> {
        let method = reqwest::Method::from_bytes(request.method.as_bytes())
            .map_err(|e| TransportFailure::Other(format!("invalid method: {e}")))?;
        let mut builder = match request.parsed_url() {
            Some(url) => self.client.request(method, url.clone()),
            None => self.client.request(method, &request.url),
        };
        for (name, value) in &request.headers {
            builder = builder.header(name.as_str(), value.as_str());
        }
        if let Some(body) = &request.body {
            builder = builder.body(body.clone());
        }
        if request.empty_content_length() {
            builder = builder.header(reqwest::header::CONTENT_LENGTH, "0");
        }
        let mut response = builder.send().await.map_err(classify)?;
        let status = response.status().as_u16();
        let headers = response
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
        while let Some(chunk) = response.chunk().await.map_err(classify)? {
            let room = cap.saturating_sub(body.len());
            if chunk.len() > room {
                body.extend_from_slice(&chunk[..room]);
                truncated = true;
                break;
            }
            body.extend_from_slice(&chunk);
        }
        Ok(HttpResponse {
            status,
            headers,
            body,
            truncated,
        })
    }
}

/// The first `Location` header, if any.
fn location(headers: &[(String, String)]) -> Option<&str> {
    headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("location"))
        .map(|(_, value)| value.as_str())
}

/// Sorts a reqwest error into what the model needs to know.
fn classify(e: reqwest::Error) -> TransportFailure {
    let text = error_chain(&e);
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
