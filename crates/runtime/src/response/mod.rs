//! Turns what came back from the REST backend (a response, or the lack of
//! one) into MCP tool content a language model can act on.
//!
//! A raw HTTP exchange is a poor thing to hand a model: bodies may be huge,
//! binary, or mislabelled, and a bare status code says nothing about what to
//! do next. This module classifies the body by media type, caps what enters
//! the model's context, produces `structuredContent` when the tool advertises
//! an output schema, and turns failures into `isError` results that name the
//! cause and the next step. It is SDK-neutral: the server crate, which
//! depends on the MCP SDK, turns its outcome into the SDK's types. From the
//! rest of this crate it reads only the tool's output shape (`binding`),
//! `jsoncut` (a JSON body over the cap, cut at whole items) and `wire`'s
//! media-type and URL helpers: the HTTP client hands it the response, or
//! the failure, as plain data, so it needs nothing of the request builder,
//! the client or the credentials.
//!
//! `status` maps each status class to an outcome and its advice, `body`
//! decides what a body is (`kind`) and renders it within the size cap, and
//! `lines` reads headers and request lines for the messages; `headers`
//! chooses the response headers a model is shown.

mod body;
pub use body::FETCH_LESS;
pub mod headers;
mod items;
pub use items::{ItemReader, Sequence};
mod kind;
mod lines;
mod status;

use serde_json::Value;

use super::binding::OutputShape;
use body::Body;
use lines::{request_url, url_origin};
use status::{
    detail_suffix, http_error, not_modified, redirect, success, timeout_message, unexpected_status,
};

/// Default cap on response bytes that may enter the model's context: 1 MiB.
const DEFAULT_MAX_BODY_BYTES: usize = 1_048_576;

/// An HTTP response as received, body possibly cut at the size cap by the caller.
#[derive(Debug, Clone)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// Header names and values as received; names compare case-insensitively.
    pub headers: Vec<(String, String)>,
    /// The body, at most `limits.max_body_bytes` bytes.
    pub body: Vec<u8>,
    /// The caller stopped reading at the cap: more bytes existed.
    pub truncated: bool,
    /// A streaming response (a sequential media type) was still open when
    /// the call's time limit came: the body is what arrived by then.
    pub stream_open: bool,
}

/// Limits on what a response may put into the model's context.
#[derive(Debug, Clone, Copy)]
pub struct ResponseLimits {
    /// The most body bytes read from a response and shown to the model.
    pub max_body_bytes: usize,
}

impl Default for ResponseLimits {
    /// 1 MiB.
    fn default() -> Self {
        ResponseLimits {
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
        }
    }
}

/// One piece of MCP content, SDK-neutral.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// Plain text.
    Text(String),
    /// An image the client can show.
    Image {
        /// The image bytes, standard base64.
        data_base64: String,
        /// Its media type, e.g. `image/png`.
        mime_type: String,
    },
    /// Binary that is not an image, as an embedded resource blob.
    Blob {
        /// A stable URI naming the response, derived from the request path.
        uri: String,
        /// Its media type, e.g. `application/pdf`.
        mime_type: String,
        /// The bytes, standard base64.
        blob_base64: String,
    },
}

/// The result of a tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutcome {
    /// The content blocks, in order.
    pub content: Vec<Content>,
    /// `structuredContent`, when the tool advertises an output schema and the
    /// response fits it.
    pub structured: Option<Value>,
    /// Whether the call failed (`isError`).
    pub is_error: bool,
}

/// Why a request got no response at all. (`PartialEq` only: the timeout is
/// an `f64`.)
#[derive(Debug, Clone, PartialEq)]
pub enum TransportFailure {
    /// The TCP connection could not be made (refused, unreachable, reset).
    Connect(String),
    /// The host name did not resolve.
    Dns(String),
    /// No complete response arrived in time.
    Timeout {
        /// The timeout that expired, in seconds.
        seconds: f64,
    },
    /// The TLS handshake or certificate check failed.
    Tls(String),
    /// A redirect that was not followed (another origin, a loop, too
    /// many hops): the chain of URLs, without queries, and why.
    Redirect {
        /// The URLs visited, first to last.
        chain: Vec<String>,
        /// Why the last hop was not followed.
        reason: String,
    },
    /// Anything else, with the client's description.
    Other(String),
}

/// Maps a response. `output` is the tool's [`OutputShape`] when it advertises
/// an outputSchema (then successful JSON responses produce `structured`);
/// `request_line` is e.g. `"GET https://api.example.com/pets/1"` (already
/// free of secrets) and is used in messages.
pub fn from_response(
    resp: &HttpResponse,
    output: Option<&OutputShape>,
    limits: &ResponseLimits,
    request_line: &str,
) -> ToolOutcome {
    let body = Body::new(resp, limits);
    match resp.status {
        200..=299 => success(resp, &body, output, limits, request_line),
        304 => not_modified(request_line),
        300..=399 => redirect(resp, request_line),
        400..=599 => http_error(resp, &body, limits, request_line),
        _ => unexpected_status(resp, request_line),
    }
}

/// An isError outcome naming the cause and what to try, e.g. "Could not
/// connect to https://api.example.com (connection refused). The API server
/// may be down or the base URL wrong; retrying will not help until it is
/// reachable."
pub fn from_transport_failure(failure: &TransportFailure, request_line: &str) -> ToolOutcome {
    let origin = url_origin(request_url(request_line));
    let text = match failure {
        TransportFailure::Connect(detail) => format!(
            "Could not connect to {origin}{}. The API server may be down or the base URL wrong; retrying will not help until it is reachable.",
            detail_suffix(detail)
        ),
        TransportFailure::Dns(detail) => format!(
            "Could not resolve the host name of {origin}{}. The host name in the base URL may be misspelled, or this machine has no DNS or network access; retrying will not help until it resolves.",
            detail_suffix(detail)
        ),
        TransportFailure::Timeout { seconds } => timeout_message(*seconds, request_line),
        TransportFailure::Tls(detail) => format!(
            "The secure (TLS) connection to {origin} failed{}. The server's certificate may be invalid, expired or self-signed, or the server may not speak HTTPS on that port; retrying will not help until the server or the base URL is fixed.",
            detail_suffix(detail)
        ),
        TransportFailure::Redirect { chain, reason } => format!(
            "{request_line} was redirected, and the redirect was not followed: {reason}. Chain: {}.",
            chain.join(" -> ")
        ),
        TransportFailure::Other(detail) => format!(
            "{request_line} failed before any response arrived{}. This may be a passing network problem; retrying may help.",
            detail_suffix(detail)
        ),
    };
    error_outcome(vec![Content::Text(text)])
}

/// Outcome for arguments that could not be turned into a request (message
/// from the request builder).
pub fn invalid_arguments(message: &str) -> ToolOutcome {
    let text = format!(
        "Invalid arguments: {}\nNo request was sent. Correct the arguments to match the tool's input schema and call the tool again.",
        message.trim()
    );
    error_outcome(vec![Content::Text(text)])
}

/// Outcome for a call refused by the server's rate limit.
pub fn rate_limited(retry_after_seconds: f64) -> ToolOutcome {
    let text = format!(
        "Rate limit reached: this server allows only a limited number of API calls per second. No request was sent. Wait {:.1} seconds and call the tool again.",
        retry_after_seconds.max(0.0)
    );
    error_outcome(vec![Content::Text(text)])
}

/// Outcome for a call that cannot be authenticated (message names what to
/// configure, never a secret).
pub fn not_authenticated(message: &str) -> ToolOutcome {
    let text = format!(
        "Not sent: {}\nCredentials are configured on the server (environment variables or config file), never passed as tool arguments.",
        message.trim()
    );
    error_outcome(vec![Content::Text(text)])
}

/// A successful outcome.
pub(super) fn ok_outcome(content: Vec<Content>, structured: Option<Value>) -> ToolOutcome {
    ToolOutcome {
        content,
        structured,
        is_error: false,
    }
}

/// A failed outcome; never structured.
pub(super) fn error_outcome(content: Vec<Content>) -> ToolOutcome {
    ToolOutcome {
        content,
        structured: None,
        is_error: true,
    }
}

#[cfg(test)]
mod tests;
