//! What each status class means for the model: success (with structured
//! content when the tool advertises it), not modified, redirects not
//! followed, errors with a hint for the next step.

use serde_json::{Map, Value};

use super::super::binding::OutputShape;
use super::body::{Body, render_body, shape_value};
use super::kind::{Kind, classify};
use super::lines::{header, is_safe_method, request_method};
use super::{Content, HttpResponse, ResponseLimits, ToolOutcome, error_outcome, ok_outcome};

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

/// A 2xx response: the body, plus structured content when advertised.
///
/// A tool with an output schema returns structured content or an error,
/// never a bare text result (strict clients reject those): an empty body
/// is `{}`, an over-size JSON body is cut at whole array items, and a body
/// that is not JSON of the advertised shape is an error that says why.
pub(super) fn success(
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
{} But {problem}, so there is no structured result. The response follows as text; it may still answer the question, or the API description may be out of date.",
        status_headline(resp.status, request_line),
        call_succeeded(request_line)
    );
    error_outcome(vec![Content::Text(headline), rendered.content])
}

/// Says that the HTTP call itself worked, so a model does not repeat it
/// over a result it cannot use: after a 2xx a write has happened.
pub(super) fn call_succeeded(request_line: &str) -> &'static str {
    if is_safe_method(request_method(request_line)) {
        "The HTTP call itself succeeded: the request was sent and the API answered with a success status."
    } else {
        "The HTTP call itself succeeded: the request was sent and the API answered with a success status, so it took effect; do not repeat it."
    }
}

/// Whether a text body parses as JSON.
fn is_json_text(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
}

/// A 304: nothing changed since the conditional request; not a failure.
pub(super) fn not_modified(request_line: &str) -> ToolOutcome {
    let text = format!(
        "{}\nThe resource has not changed since the version named in the request's conditional headers, so there is no new content.",
        status_headline(304, request_line)
    );
    ok_outcome(vec![Content::Text(text)], None)
}

/// Any other 3xx: the caller does not follow redirects, so say where it led.
pub(super) fn redirect(resp: &HttpResponse, request_line: &str) -> ToolOutcome {
    let target = match header(&resp.headers, "location") {
        Some(location) => format!(
            "The server redirected to {}, which was not followed.",
            super::super::wire::redact_url(location)
        ),
        None => "The server answered with a redirect but no Location header.".to_string(),
    };
    let text = format!(
        "{}\n{target} If the new location is on the same API, the configured base URL may be out of date; otherwise this operation may not be usable through this tool.",
        status_headline(resp.status, request_line)
    );
    error_outcome(vec![Content::Text(text)])
}

/// A 4xx or 5xx: headline, hint, then the body.
pub(super) fn http_error(
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
pub(super) fn unexpected_status(resp: &HttpResponse, request_line: &str) -> ToolOutcome {
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
pub(super) fn timeout_message(seconds: f64, request_line: &str) -> String {
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
pub(super) fn detail_suffix(detail: &str) -> String {
    match detail.trim() {
        "" => String::new(),
        detail => format!(" ({detail})"),
    }
}
