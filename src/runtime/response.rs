//! Turns what came back from the REST backend (a response, or the lack of
//! one) into MCP tool content a language model can act on.
//!
//! A raw HTTP exchange is a poor thing to hand a model: bodies may be huge,
//! binary, or mislabelled, and a bare status code says nothing about what to
//! do next. This module classifies the body by media type, caps what enters
//! the model's context, produces `structuredContent` when the tool advertises
//! an output schema, and turns failures into `isError` results that name the
//! cause and the next step. It is SDK-neutral and imports nothing from the
//! rest of the crate, because the runtime is copied into generated servers.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Map, Value};

use super::binding::OutputShape;
use super::jsoncut;

/// Default cap on response bytes that may enter the model's context: 1 MiB.
const DEFAULT_MAX_BODY_BYTES: usize = 1_048_576;

/// Scheme and prefix of the URIs given to binary responses.
const RESOURCE_URI_PREFIX: &str = "openapi2mcp://response/";

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

/// The standard reason phrase for a status code, or `""` when it has none.
fn reason_phrase(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        101 => "Switching Protocols",
        102 => "Processing",
        103 => "Early Hints",
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        203 => "Non-Authoritative Information",
        204 => "No Content",
        205 => "Reset Content",
        206 => "Partial Content",
        207 => "Multi-Status",
        208 => "Already Reported",
        226 => "IM Used",
        300 => "Multiple Choices",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        305 => "Use Proxy",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        407 => "Proxy Authentication Required",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        411 => "Length Required",
        412 => "Precondition Failed",
        413 => "Content Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        416 => "Range Not Satisfiable",
        417 => "Expectation Failed",
        418 => "I'm a teapot",
        421 => "Misdirected Request",
        422 => "Unprocessable Content",
        423 => "Locked",
        424 => "Failed Dependency",
        425 => "Too Early",
        426 => "Upgrade Required",
        428 => "Precondition Required",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        451 => "Unavailable For Legal Reasons",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        505 => "HTTP Version Not Supported",
        506 => "Variant Also Negotiates",
        507 => "Insufficient Storage",
        508 => "Loop Detected",
        510 => "Not Extended",
        511 => "Network Authentication Required",
        _ => "",
    }
}

// ---------------------------------------------------------------------------
// Status classes
// ---------------------------------------------------------------------------

/// A 2xx response: the body, plus structured content when advertised.
///
/// A tool with an output schema returns structured content or an error,
/// never a bare text result (strict clients reject those): an empty body
/// is `{}`, an over-size JSON body is cut at whole array items, and a body
/// that is not JSON of the advertised shape is an error that says why.
fn success(
    resp: &HttpResponse,
    body: &Body<'_>,
    output: Option<&OutputShape>,
    limits: &ResponseLimits,
    request_line: &str,
) -> ToolOutcome {
    if body.is_blank() {
        let structured = output.map(|_| Value::Object(Map::new()));
        return ok_outcome(vec![Content::Text(empty_success_message(resp))], structured);
    }
    let mut kind = classify(
        header(&resp.headers, "content-type"),
        body.visible_text_bytes(),
    );
    // JSON mislabelled as text is still JSON to a tool that returns JSON.
    if output.is_some() && kind == Kind::Text && !body.truncated && is_json_text(body.bytes) {
        kind = Kind::Json;
    }
    let rendered = render_body(body, &kind, limits, request_line);
    let Some(shape) = output else {
        return ok_outcome(vec![rendered.content], None);
    };
    let problem = match rendered.json {
        Some(value) => match shape_value(shape, value) {
            Ok(structured) => return ok_outcome(vec![rendered.content], Some(structured)),
            Err(found) => format!(
                "the API answered with a JSON {found} where this tool's output schema describes an object"
            ),
        },
        None => rendered.problem.unwrap_or_else(|| {
            format!(
                "the API answered with {} content where this tool returns JSON",
                kind.describe()
            )
        }),
    };
    let headline = format!(
        "{}
The call reached the API, but {problem}, so there is no structured result. The response follows as text; it may still answer the question, or the API description may be out of date.",
        status_headline(resp.status, request_line)
    );
    error_outcome(vec![Content::Text(headline), rendered.content])
}

/// Whether a text body parses as JSON.
fn is_json_text(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
}

/// A 304: nothing changed since the conditional request; not a failure.
fn not_modified(request_line: &str) -> ToolOutcome {
    let text = format!(
        "{}\nThe resource has not changed since the version named in the request's conditional headers, so there is no new content.",
        status_headline(304, request_line)
    );
    ok_outcome(vec![Content::Text(text)], None)
}

/// Any other 3xx: the caller does not follow redirects, so say where it led.
fn redirect(resp: &HttpResponse, request_line: &str) -> ToolOutcome {
    let target = match header(&resp.headers, "location") {
        Some(location) => format!("The server redirected to {location}, which was not followed."),
        None => "The server answered with a redirect but no Location header.".to_string(),
    };
    let text = format!(
        "{}\n{target} If the new location is on the same API, the configured base URL may be out of date; otherwise this operation may not be usable through this tool.",
        status_headline(resp.status, request_line)
    );
    error_outcome(vec![Content::Text(text)])
}

/// A 4xx or 5xx: headline, hint, then the body.
fn http_error(
    resp: &HttpResponse,
    body: &Body<'_>,
    limits: &ResponseLimits,
    request_line: &str,
) -> ToolOutcome {
    let headline = format!(
        "{}\n{}",
        status_headline(resp.status, request_line),
        error_hint(resp.status, &resp.headers)
    );
    let mut content = vec![Content::Text(headline)];
    if !body.is_blank() {
        let kind = classify(
            header(&resp.headers, "content-type"),
            body.visible_text_bytes(),
        );
        content.push(render_body(body, &kind, limits, request_line).content);
    }
    error_outcome(content)
}

/// 1xx as a final response, or a code outside the range HTTP defines.
fn unexpected_status(resp: &HttpResponse, request_line: &str) -> ToolOutcome {
    let text = format!(
        "{}\nThe server sent a status code that is not a valid final response, so the outcome of the request is unknown. This points to a misbehaving server or proxy; retrying may help.",
        status_headline(resp.status, request_line)
    );
    error_outcome(vec![Content::Text(text)])
}

/// "HTTP 404 Not Found from GET https://…".
fn status_headline(status: u16, request_line: &str) -> String {
    format!("{} from {request_line}", status_label(status))
}

/// "HTTP 404 Not Found", or "HTTP 499" when the code has no reason phrase.
fn status_label(status: u16) -> String {
    match reason_phrase(status) {
        "" => format!("HTTP {status}"),
        reason => format!("HTTP {status} {reason}"),
    }
}

/// What a 2xx with no body means, naming the new resource when given.
fn empty_success_message(resp: &HttpResponse) -> String {
    let mut text = format!(
        "{}: the request succeeded with no response body.",
        status_label(resp.status)
    );
    if let Some(location) = header(&resp.headers, "location") {
        text.push_str(&format!(" Location: {location}"));
    }
    text
}

/// What the model should do about an error status.
fn error_hint(status: u16, headers: &[(String, String)]) -> String {
    match status {
        400 | 422 => "The API rejected the arguments. Check them against the tool's input schema (required properties, types, formats, allowed values) and the error details below, then call again with corrected arguments.".to_string(),
        401 => "Authentication failed: credentials are missing or invalid. Credentials are configured for the MCP server (environment or configuration), not passed as tool arguments; ask the user to configure them. Retrying unchanged will not help.".to_string(),
        403 => "Permission denied: credentials are missing or lack permission for this operation (for example a missing scope or role). Credentials are configured for the MCP server, not passed as tool arguments; ask the user to check them. Retrying unchanged will not help.".to_string(),
        404 => "The resource does not exist, or an identifier in the arguments is wrong. Check the identifiers (for example by listing or searching first) instead of retrying unchanged.".to_string(),
        405 => "The server does not allow this HTTP method on this path; the API description may not match the server. Retrying will not help.".to_string(),
        408 => "The server gave up waiting for the request to arrive; retrying may help.".to_string(),
        409 => "The request conflicts with the current state of the resource (for example it already exists, or it changed meanwhile). Fetch the current state, adjust the arguments and try again.".to_string(),
        410 => "The resource existed but has been permanently removed; retrying will not help.".to_string(),
        412 => "A precondition of the request no longer holds because the resource changed; fetch its current state and try again.".to_string(),
        413 => "The request is too large for the server; send less data.".to_string(),
        415 => "The server does not accept the media type of the request body; the API description may not match the server.".to_string(),
        429 => rate_limit_hint(headers),
        500..=599 => server_error_hint(headers),
        _ => "The API rejected the request. Check the arguments against the tool's input schema and the error details below.".to_string(),
    }
}

/// The 429 hint, with the server's Retry-After when it gave one.
fn rate_limit_hint(headers: &[(String, String)]) -> String {
    match retry_after(headers) {
        Some(wait) => format!("Rate limited: too many requests. {wait} before calling again."),
        None => "Rate limited: too many requests. Wait before calling again, and make fewer calls (for example larger pages instead of many small ones).".to_string(),
    }
}

/// The 5xx hint, with the server's Retry-After when it gave one.
fn server_error_hint(headers: &[(String, String)]) -> String {
    let base = "The API failed while handling the request; this is a server-side problem. Retrying later may help.";
    match retry_after(headers) {
        Some(wait) => format!("{base} {wait} first."),
        None => base.to_string(),
    }
}

/// "Wait 30 seconds (Retry-After: 30)" or "Wait until <date> (Retry-After)".
fn retry_after(headers: &[(String, String)]) -> Option<String> {
    let value = header(headers, "retry-after")?;
    Some(match value.parse::<u64>() {
        Ok(1) => "Wait 1 second (Retry-After: 1)".to_string(),
        Ok(seconds) => format!("Wait {seconds} seconds (Retry-After: {seconds})"),
        Err(_) => format!("Wait until {value} (Retry-After)"),
    })
}

/// The timeout message; warns that a changing request may have taken effect.
fn timeout_message(seconds: f64, request_line: &str) -> String {
    let after = match seconds {
        1.0 => " after 1 second".to_string(),
        s if s.is_finite() && s > 0.0 => format!(" after {s} seconds"),
        _ => String::new(),
    };
    let mut text = format!(
        "{request_line} timed out{after} without a response. The API may be slow or overloaded; retrying later may help, or narrow the request (fewer items, a smaller page) so it completes sooner."
    );
    if !is_safe_method(request_method(request_line)) {
        text.push_str(" The request may still have taken effect: check before repeating it.");
    }
    text
}

/// " (detail)", or nothing for an empty detail.
fn detail_suffix(detail: &str) -> String {
    match detail.trim() {
        "" => String::new(),
        detail => format!(" ({detail})"),
    }
}

/// A successful outcome.
fn ok_outcome(content: Vec<Content>, structured: Option<Value>) -> ToolOutcome {
    ToolOutcome {
        content,
        structured,
        is_error: false,
    }
}

/// A failed outcome; never structured.
fn error_outcome(content: Vec<Content>) -> ToolOutcome {
    ToolOutcome {
        content,
        structured: None,
        is_error: true,
    }
}

// ---------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------

/// The part of a body that may be shown, and whether more existed.
struct Body<'a> {
    bytes: &'a [u8],
    truncated: bool,
}

impl<'a> Body<'a> {
    /// Applies the cap again, in case the caller did not.
    fn new(resp: &'a HttpResponse, limits: &ResponseLimits) -> Self {
        let over = resp.body.len() > limits.max_body_bytes;
        let end = resp.body.len().min(limits.max_body_bytes);
        Body {
            bytes: &resp.body[..end],
            truncated: resp.truncated || over,
        }
    }

    /// Nothing but whitespace, and nothing more to come.
    fn is_blank(&self) -> bool {
        !self.truncated && self.bytes.iter().all(u8::is_ascii_whitespace)
    }

    /// The bytes to decode as text: a character cut by truncation is dropped.
    fn visible_text_bytes(&self) -> &'a [u8] {
        if self.truncated {
            trim_partial_utf8_tail(self.bytes)
        } else {
            self.bytes
        }
    }

    /// The text, decoded lossily.
    fn text(&self) -> String {
        String::from_utf8_lossy(self.visible_text_bytes()).into_owned()
    }
}

/// Drops an incomplete UTF-8 sequence at the very end of `bytes`.
fn trim_partial_utf8_tail(bytes: &[u8]) -> &[u8] {
    let start = bytes.len().saturating_sub(3);
    for i in (start..bytes.len()).rev() {
        let needed = match bytes[i] {
            0x80..=0xBF => continue,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        return if bytes.len() - i < needed {
            &bytes[..i]
        } else {
            bytes
        };
    }
    bytes
}

/// How a body is presented.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Json,
    Text,
    Image(String),
    Binary(String),
}

impl Kind {
    /// "text", "image/png", ... for messages.
    fn describe(&self) -> &str {
        match self {
            Kind::Json => "JSON",
            Kind::Text => "text",
            Kind::Image(mime) | Kind::Binary(mime) => mime,
        }
    }
}

/// Classifies by the declared media type, sniffing when there is none usable.
fn classify(content_type: Option<&str>, body: &[u8]) -> Kind {
    match content_type.and_then(media_essence) {
        Some(essence) => classify_declared(&essence, content_type.unwrap_or_default()),
        None => sniff(body),
    }
}

/// `type/subtype`, lower-cased and without parameters; `None` if malformed.
fn media_essence(content_type: &str) -> Option<String> {
    let essence = content_type.split(';').next()?.trim().to_ascii_lowercase();
    let (kind, subtype) = essence.split_once('/')?;
    let valid = !kind.is_empty() && !subtype.is_empty() && !subtype.contains('/');
    valid.then_some(essence)
}

/// Classifies a well-formed media type.
fn classify_declared(essence: &str, content_type: &str) -> Kind {
    let (kind, subtype) = essence.split_once('/').unwrap_or((essence, ""));
    if subtype.contains("json") {
        Kind::Json
    } else if kind == "text" || is_text_subtype(subtype) || has_charset(content_type) {
        Kind::Text
    } else if kind == "image" {
        Kind::Image(essence.to_string())
    } else {
        Kind::Binary(essence.to_string())
    }
}

/// Non-`text/*` subtypes that are text nonetheless (SVG included: a model can
/// read it, and few clients display it as an image).
fn is_text_subtype(subtype: &str) -> bool {
    const TEXT_SUBTYPES: &[&str] = &[
        "xml",
        "yaml",
        "x-yaml",
        "javascript",
        "x-javascript",
        "ecmascript",
        "x-www-form-urlencoded",
        "csv",
        "toml",
        "graphql",
        "sql",
    ];
    TEXT_SUBTYPES.contains(&subtype) || subtype.ends_with("+xml") || subtype.ends_with("+yaml")
}

/// Whether the Content-Type carries a `charset` parameter.
fn has_charset(content_type: &str) -> bool {
    content_type.split(';').skip(1).any(|param| {
        param
            .split_once('=')
            .is_some_and(|(name, _)| name.trim().eq_ignore_ascii_case("charset"))
    })
}

/// No usable Content-Type: JSON if it parses, text if UTF-8, else binary
/// (recognising the common image formats by their signatures).
fn sniff(body: &[u8]) -> Kind {
    if std::str::from_utf8(body).is_ok() {
        if serde_json::from_slice::<Value>(body).is_ok() {
            Kind::Json
        } else {
            Kind::Text
        }
    } else if let Some(mime) = sniff_image(body) {
        Kind::Image(mime.to_string())
    } else {
        Kind::Binary("application/octet-stream".to_string())
    }
}

/// PNG, JPEG, GIF or WebP by magic number.
fn sniff_image(body: &[u8]) -> Option<&'static str> {
    if body.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if body.starts_with(b"\xff\xd8\xff") {
        Some("image/jpeg")
    } else if body.starts_with(b"GIF87a") || body.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if body.len() >= 12 && body.starts_with(b"RIFF") && &body[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

/// A rendered body: its content block and, for JSON, the value (whole, or
/// cut at whole items when the body was over the cap).
struct Rendered {
    content: Content,
    json: Option<Value>,
    /// Why a JSON body has no value, for the message.
    problem: Option<String>,
}

/// Renders a non-blank body as one content block.
fn render_body(
    body: &Body<'_>,
    kind: &Kind,
    limits: &ResponseLimits,
    request_line: &str,
) -> Rendered {
    match kind {
        Kind::Json if !body.truncated => render_json(body, limits),
        Kind::Json => render_cut_json(body, limits),
        Kind::Text => non_json(Content::Text(capped_text(body, limits))),
        Kind::Image(mime) if body.truncated => {
            non_json(Content::Text(too_large("an image", mime, limits)))
        }
        Kind::Binary(mime) if body.truncated => {
            non_json(Content::Text(too_large("binary data", mime, limits)))
        }
        Kind::Image(mime) => non_json(Content::Image {
            data_base64: BASE64.encode(body.bytes),
            mime_type: mime.clone(),
        }),
        Kind::Binary(mime) => non_json(Content::Blob {
            uri: resource_uri(request_line),
            mime_type: mime.clone(),
            blob_base64: BASE64.encode(body.bytes),
        }),
    }
}

/// A rendered block with no JSON value.
fn non_json(content: Content) -> Rendered {
    Rendered {
        content,
        json: None,
        problem: None,
    }
}

/// A complete JSON body: pretty-printed when that fits, else as sent.
fn render_json(body: &Body<'_>, limits: &ResponseLimits) -> Rendered {
    match serde_json::from_slice::<Value>(body.bytes) {
        Ok(value) => Rendered {
            content: Content::Text(json_text(&value, body, limits)),
            json: Some(value),
            problem: None,
        },
        Err(e) => Rendered {
            content: Content::Text(body.text()),
            json: None,
            problem: Some(format!("its JSON body is not valid JSON ({e})")),
        },
    }
}

/// A JSON body over the cap: cut at whole array items (see [`jsoncut`]),
/// with a note of what was kept; the raw prefix when no cut is possible.
fn render_cut_json(body: &Body<'_>, limits: &ResponseLimits) -> Rendered {
    let Some(cut) = jsoncut::cut(body.bytes) else {
        return Rendered {
            content: Content::Text(capped_text(body, limits)),
            json: None,
            problem: Some(format!(
                "its JSON body exceeded the {}-byte limit and could not be cut to whole items",
                limits.max_body_bytes
            )),
        };
    };
    let kept = if cut.array {
        format!(
            "the first {} item{} of `{}` were kept and later items dropped",
            cut.kept,
            if cut.kept == 1 { "" } else { "s" },
            cut.at
        )
    } else {
        format!(
            "the first {} member{} of `{}` were kept and later members dropped",
            cut.kept,
            if cut.kept == 1 { "" } else { "s" },
            cut.at
        )
    };
    let text = match serde_json::to_string_pretty(&cut.value) {
        Ok(pretty) if pretty.len() <= limits.max_body_bytes => pretty,
        _ => cut.value.to_string(),
    };
    Rendered {
        content: Content::Text(format!(
            "{text}\n\n[truncated: the response exceeded the {}-byte limit; {kept}. Request a smaller page (e.g. a limit/per_page argument) or fewer fields to see the rest]",
            limits.max_body_bytes
        )),
        json: Some(cut.value),
        problem: None,
    }
}

/// Pretty JSON if it stays within the cap, else the original text.
fn json_text(value: &Value, body: &Body<'_>, limits: &ResponseLimits) -> String {
    match serde_json::to_string_pretty(value) {
        Ok(pretty) if pretty.len() <= limits.max_body_bytes => pretty,
        _ => body.text(),
    }
}

/// The body's text, with the truncation marker when it was cut.
fn capped_text(body: &Body<'_>, limits: &ResponseLimits) -> String {
    let mut text = body.text();
    if body.truncated {
        text.push_str(&truncation_marker(limits));
    }
    text
}

/// The line telling the model the text was cut and how to get less.
fn truncation_marker(limits: &ResponseLimits) -> String {
    format!(
        "\n\n[truncated: the response exceeded the {}-byte limit; request a smaller page, e.g. with a limit/per_page argument, or fewer fields]",
        limits.max_body_bytes
    )
}

/// Says that a binary body was too large to return.
fn too_large(what: &str, mime: &str, limits: &ResponseLimits) -> String {
    format!(
        "The response is {what} ({mime}) that exceeded the size cap of {} bytes, so it cannot be shown. Request a smaller version (for example a thumbnail, a lower resolution or a byte range) if the API offers one.",
        limits.max_body_bytes
    )
}

/// The structured content for a value, or the JSON type it has when that
/// is not the advertised shape.
fn shape_value(shape: &OutputShape, value: Value) -> Result<Value, &'static str> {
    match shape {
        OutputShape::Object if value.is_object() => Ok(value),
        OutputShape::Object => Err(json_type(&value)),
        OutputShape::Wrapped { key } => {
            let mut map = Map::new();
            map.insert(key.clone(), value);
            Ok(Value::Object(map))
        }
    }
}

/// "array", "string", ... for messages.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

// ---------------------------------------------------------------------------
// Headers and request lines
// ---------------------------------------------------------------------------

/// The first non-empty value of a header, trimmed; names compare
/// case-insensitively.
fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .filter(|(n, _)| n.trim().eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
        .find(|v| !v.is_empty())
}

/// The method of a request line ("" when there is none).
fn request_method(request_line: &str) -> &str {
    match request_line.trim().split_once(char::is_whitespace) {
        Some((method, _)) => method,
        None if request_line.contains("://") => "",
        None => request_line.trim(),
    }
}

/// The URL of a request line.
fn request_url(request_line: &str) -> &str {
    match request_line.trim().split_once(char::is_whitespace) {
        Some((_, url)) => url.trim(),
        None if request_line.contains("://") => request_line.trim(),
        None => "",
    }
}

/// Whether a method is meant not to change anything on the server.
fn is_safe_method(method: &str) -> bool {
    ["GET", "HEAD", "OPTIONS", "TRACE"]
        .iter()
        .any(|safe| method.eq_ignore_ascii_case(safe))
}

/// `scheme://authority` of a URL, or the URL itself when it has no scheme.
fn url_origin(url: &str) -> &str {
    match url.find("://") {
        Some(at) => {
            let rest = &url[at + 3..];
            let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
            &url[..at + 3 + end]
        }
        None => url,
    }
}

/// The path of a URL, without query or fragment.
fn url_path(url: &str) -> &str {
    let after_origin = &url[url_origin(url).len()..];
    let after_origin = if url.contains("://") {
        after_origin
    } else {
        url
    };
    let end = after_origin.find(['?', '#']).unwrap_or(after_origin.len());
    &after_origin[..end]
}

/// `openapi2mcp://response/<path>`, with the path reduced to safe segments.
fn resource_uri(request_line: &str) -> String {
    let path = url_path(request_url(request_line));
    let segments: Vec<String> = path
        .split('/')
        .filter(|segment| !segment.is_empty())
        .map(sanitize_segment)
        .collect();
    format!("{RESOURCE_URI_PREFIX}{}", segments.join("/"))
}

/// Keeps URI-unreserved characters, replaces the rest (and dot segments)
/// with `_`.
fn sanitize_segment(segment: &str) -> String {
    if segment == "." || segment == ".." {
        return "_".to_string();
    }
    segment
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "response_tests.rs"]
mod tests;
