//! Headers and request lines, read for messages and resource URIs.

/// Scheme and prefix of the URIs given to binary responses.
const RESOURCE_URI_PREFIX: &str = "openapi2mcp://response/";

/// The first non-empty value of a header, trimmed; names compare
/// case-insensitively.
pub(super) fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .filter(|(n, _)| n.trim().eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
        .find(|v| !v.is_empty())
}

/// The method of a request line ("" when there is none).
pub(super) fn request_method(request_line: &str) -> &str {
    match request_line.trim().split_once(char::is_whitespace) {
        Some((method, _)) => method,
        None if request_line.contains("://") => "",
        None => request_line.trim(),
    }
}

/// The URL of a request line.
pub(super) fn request_url(request_line: &str) -> &str {
    match request_line.trim().split_once(char::is_whitespace) {
        Some((_, url)) => url.trim(),
        None if request_line.contains("://") => request_line.trim(),
        None => "",
    }
}

/// Whether a method is meant not to change anything on the server.
pub(super) fn is_safe_method(method: &str) -> bool {
    ["GET", "HEAD", "OPTIONS", "TRACE", "QUERY"]
        .iter()
        .any(|safe| method.eq_ignore_ascii_case(safe))
}

/// `scheme://authority` of a URL, or the URL itself when it has no scheme.
pub(super) fn url_origin(url: &str) -> &str {
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
pub(super) fn url_path(url: &str) -> &str {
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
pub(super) fn resource_uri(request_line: &str) -> String {
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
