//! How the reader gets what an http(s) URL holds (a document, an overlay,
//! a remote `$ref`): through an HTTP client its caller supplies in
//! [`LoadOptions::http`](crate::LoadOptions::http). This crate compiles no
//! HTTP stack and no async runtime, so whatever reads only files (a build
//! script) carries none; the `openapi2mcp` program supplies reqwest's
//! (this crate's `fetch` module, with its `reqwest` feature). The
//! policy (which URLs may be read, the limits, every message a person
//! reads) stays here; a client only moves bytes.

use std::time::Duration;

use url::Url;

/// Makes the client one load uses (see [`HttpClient`]).
pub trait Http: Send + Sync + std::fmt::Debug {
    /// A client for one load: made when the load meets its first http(s)
    /// URL, dropped with the load. Each of its requests ends within
    /// `timeout`. `Err`: why no client could be made, as a person reads it.
    fn client(&self, timeout: Duration) -> Result<Box<dyn HttpClient>, String>;
}

/// One load's HTTP client.
pub trait HttpClient {
    /// The body of a `GET` of `url`: whole within `deadline` (from sending
    /// the request to the last byte of the body, so a server dripping its
    /// answer is cut off there) and refused the moment it passes `limit`
    /// bytes (an endless answer never fills memory). Messages never name
    /// the URL (it may carry a credential; the diagnostic names it
    /// without).
    fn get(&mut self, url: &Url, deadline: Duration, limit: u64) -> Result<Vec<u8>, FetchError>;
}

/// Why a `GET` gave no body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchError {
    /// The deadline passed (sending, waiting or reading).
    Late,
    /// The body is longer than the limit (declared or as read).
    TooLarge,
    /// The server answered with a status other than 2xx: its code and
    /// reason as shown (`404 Not Found`).
    Status(String),
    /// Anything else, as a person reads it (`cannot fetch: …`, `cannot
    /// read the response body: …`).
    Failed(String),
}

#[cfg(test)]
#[path = "http_tests.rs"]
mod tests;
