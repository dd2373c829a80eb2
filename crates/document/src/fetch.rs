//! An HTTP client for the reader (documents, overlays, remote `$ref`s):
//! reqwest's blocking client behind the reader's [`Http`] trait, with the
//! crate's `reqwest` feature (off by default: it brings an async runtime
//! and a TLS stack). The reader keeps the policy and the messages; this
//! moves bytes within the deadline and the size limit it is given.
//! [`with_http`] is how a caller that reads URLs gives it to every load.

use std::borrow::Cow;
use std::io::Read;
use std::sync::Arc;
use std::time::{Duration, Instant};

use url::Url;

use crate::LoadOptions;
use crate::http::{FetchError, Http, HttpClient};

/// reqwest's blocking client, one per load.
#[derive(Debug, Clone, Copy, Default)]
pub struct Reqwest;

impl Http for Reqwest {
    fn client(&self, timeout: Duration) -> Result<Box<dyn HttpClient>, String> {
        let client = reqwest::blocking::Client::builder()
            .timeout(timeout)
            .user_agent(concat!("openapi2mcp/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| e.without_url().to_string())?;
        Ok(Box::new(ReqwestClient(client)))
    }
}

/// `options` with reqwest as its HTTP client when it has none: what a
/// caller's loads pass to the reader, so a URL is read wherever the
/// options came from.
pub fn with_http(options: &LoadOptions) -> Cow<'_, LoadOptions> {
    if options.http.is_some() {
        return Cow::Borrowed(options);
    }
    Cow::Owned(LoadOptions {
        http: Some(Arc::new(Reqwest)),
        ..options.clone()
    })
}

struct ReqwestClient(reqwest::blocking::Client);

impl HttpClient for ReqwestClient {
    fn get(&mut self, url: &Url, deadline: Duration, limit: u64) -> Result<Vec<u8>, FetchError> {
        let started = Instant::now();
        // reqwest's messages name the URL, which may carry a credential.
        // A request's own timeout bounds the whole exchange, body
        // included (the client's bounds each read only).
        let response = self
            .0
            .get(url.clone())
            .timeout(deadline)
            .send()
            .map_err(|e| {
                if e.is_timeout() {
                    FetchError::Late
                } else {
                    FetchError::Failed(format!("cannot fetch: {}", e.without_url()))
                }
            })?;
        let status = response.status();
        if !status.is_success() {
            return Err(FetchError::Status(status.to_string()));
        }
        if response.content_length().is_some_and(|n| n > limit) {
            return Err(FetchError::TooLarge);
        }
        // Read one byte past the limit, never more: an endless body ends
        // here, not in memory; a slow one ends at the deadline.
        let mut body = Vec::new();
        let mut reader = response.take(limit.saturating_add(1));
        let mut chunk = vec![0u8; 64 << 10];
        loop {
            if started.elapsed() >= deadline {
                return Err(FetchError::Late);
            }
            match reader.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => body.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if is_timeout(&e) || started.elapsed() >= deadline => {
                    return Err(FetchError::Late);
                }
                Err(e) => {
                    return Err(FetchError::Failed(format!(
                        "cannot read the response body: {}",
                        io_without_url(e)
                    )));
                }
            }
        }
        if body.len() as u64 > limit {
            return Err(FetchError::TooLarge);
        }
        Ok(body)
    }
}

/// Whether a body read failed on a timeout (reqwest's, inside the I/O
/// error).
fn is_timeout(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::TimedOut
        || e.get_ref()
            .and_then(|inner| inner.downcast_ref::<reqwest::Error>())
            .is_some_and(reqwest::Error::is_timeout)
}

/// An error from reading a response body, without the URL reqwest puts
/// in its messages.
fn io_without_url(e: std::io::Error) -> String {
    if !e
        .get_ref()
        .is_some_and(|inner| inner.is::<reqwest::Error>())
    {
        return e.to_string();
    }
    match e
        .into_inner()
        .map(|inner| inner.downcast::<reqwest::Error>())
    {
        Some(Ok(re)) => re.without_url().to_string(),
        _ => "the connection failed".to_string(),
    }
}
