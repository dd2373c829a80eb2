//! Which of a response's headers reach the model: the ones the document
//! declares on the operation's responses, and the ones any client of a
//! REST API acts on (paging links, versions for conditional requests,
//! where a created resource is, when to retry, how much of a rate limit
//! is left), bounded in number and length, never one that carries a
//! credential.

use crate::wire::redact_urls_in;

/// Headers shown whenever the API sends them, declared or not: `Link`
/// (RFC 8288: next and last pages), `ETag` and `Last-Modified` (what a
/// conditional update names), `Location` (a created resource),
/// `Retry-After`, and the common total count.
const ALWAYS: &[&str] = &[
    "link",
    "etag",
    "last-modified",
    "location",
    "retry-after",
    "x-total-count",
];

/// Prefixes of rate-limit headers (the IETF draft's `RateLimit` and
/// `RateLimit-Policy`, and the older `X-RateLimit-*` and
/// `X-Rate-Limit-*`).
const RATE_LIMIT_PREFIXES: &[&str] = &["ratelimit", "x-ratelimit-", "x-rate-limit-"];

/// Headers about the message itself, not the resource: never shown even
/// when declared (the body already reflects them).
const FRAMING: &[&str] = &[
    "content-type",
    "content-length",
    "content-encoding",
    "transfer-encoding",
    "connection",
    "keep-alive",
    "date",
];

/// At most this many headers are shown.
pub const MAX_SHOWN: usize = 16;
/// A longer value is cut here (a `Link` header with four relations is
/// about 400 bytes).
pub const MAX_VALUE_BYTES: usize = 1024;

/// Whether a header name may carry a credential or a session: never shown,
/// even when the document declares it (a login response's token header,
/// `Set-Cookie`).
fn carries_credential(lower: &str) -> bool {
    matches!(
        lower,
        "set-cookie" | "set-cookie2" | "cookie" | "authorization" | "proxy-authorization"
    ) || [
        "token", "secret", "password", "session", "api-key", "apikey",
    ]
    .iter()
    .any(|word| lower.contains(word))
}

/// Whether a header name says it points at the next page (`Next-Page`,
/// `X-Next-Cursor`, `X-Pagination-Next`): shown, and read for the next
/// page's arguments.
pub(crate) fn names_next(lower: &str) -> bool {
    lower.split(['-', '_']).any(|word| word == "next")
}

/// The headers of `headers` the model is shown, in the order received:
/// the ones `declared` names (case-insensitively; shown as the document
/// spells them), [`ALWAYS`], rate-limit and next-page headers; never
/// framing or credential headers. Repeated
/// headers are joined with `, ` (RFC 9110, section 5.3); every URL in a
/// value has its query values masked (`?page=***`), as every message
/// shows URLs; values are cut at
/// [`MAX_VALUE_BYTES`], and at most [`MAX_SHOWN`] headers are returned.
pub fn shown(headers: &[(String, String)], declared: &[String]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (name, value) in headers {
        let lower = name.trim().to_ascii_lowercase();
        if FRAMING.contains(&lower.as_str()) || carries_credential(&lower) {
            continue;
        }
        let declared_as = declared.iter().find(|d| d.eq_ignore_ascii_case(&lower));
        let wanted = declared_as.is_some()
            || ALWAYS.contains(&lower.as_str())
            || RATE_LIMIT_PREFIXES.iter().any(|p| lower.starts_with(p))
            || names_next(&lower);
        if !wanted {
            continue;
        }
        // HTTP/2 and most clients lower-case names: the document's
        // spelling reads better where it has one.
        let name = declared_as.map_or(name.trim(), |d| d.as_str());
        // Any query value may be a credential (a presigned status URL's
        // `sig`): URLs are shown as messages show them.
        let value = redact_urls_in(value.trim());
        let value = value.as_str();
        if let Some((_, joined)) = out.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            if joined.len() < MAX_VALUE_BYTES {
                joined.push_str(", ");
                joined.push_str(value);
                cut(joined);
            }
            continue;
        }
        if out.len() == MAX_SHOWN {
            continue;
        }
        let mut value = value.to_string();
        cut(&mut value);
        out.push((name.to_string(), value));
    }
    out
}

/// Cuts `value` at [`MAX_VALUE_BYTES`] on a character boundary, marking
/// the cut.
fn cut(value: &mut String) {
    if value.len() <= MAX_VALUE_BYTES {
        return;
    }
    let mut end = MAX_VALUE_BYTES;
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    value.truncate(end);
    value.push('…');
}

/// The text block that shows `shown` headers: one `Name: value` line each
/// under a heading.
pub fn render(shown: &[(String, String)]) -> Option<String> {
    if shown.is_empty() {
        return None;
    }
    let mut text = String::from("Response headers:");
    for (name, value) in shown {
        text.push_str(&format!("\n{name}: {value}"));
    }
    Some(text)
}

#[cfg(test)]
#[path = "headers_tests.rs"]
mod tests;
