//! Small helpers for what goes on and comes off the wire, with one home so
//! the request builder, authentication, response mapping and the mock read
//! media types and check header text the same way: `media` (media type
//! essence and classification), `header` (tokens, header values, cookies),
//! [`error_chain`] for errors that reach the model, [`json_kind`] to
//! name a JSON value's type in messages, [`mask_url`] (and its two
//! spellings [`redact_url`], [`display_url`]) to name a URL without the
//! credentials it may carry, and [`json_size`] to measure
//! compact JSON without writing it.

pub mod header;
pub mod media;

/// A JSON value's type with its article ("an object", "a number"), for
/// messages that tell a model what it sent.
pub fn json_kind(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// What [`mask_url`] does with a URL's query and fragment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlQuery {
    /// Kept, every value replaced by `***` (`?token=***&page=***`): the
    /// names say what was sent, no value shows.
    Masked,
    /// Left out with the fragment: a request line in a message
    /// (`GET https://***@api.example.com/pets/1`).
    Dropped,
}

/// The one place a URL is made safe to show: every URL that reaches a
/// tool result, a log line, a health answer or a span goes through here
/// (directly, or through [`redact_url`] and [`display_url`]). User info
/// (`user:pass@`, sent as Basic authentication) becomes `***@`, and the
/// query is masked or dropped as `query` says: every query value, not
/// only the known names, since an apiKey-in-query scheme may call its
/// parameter anything (`api_key`, `access_token`, `token`, `key`, `sig`,
/// `signature`, `client_secret`, `password`, …). A fragment of
/// `name=value` pairs (an implicit-grant redirect's `#access_token=`) is
/// masked like a query. Text that is not a URL with a host (a file path)
/// comes back unchanged, unless it looks like one (`scheme://…`): then the
/// user info and query are cut by hand.
pub fn mask_url(url: &str, query: UrlQuery) -> String {
    const MASK: &str = "***";
    let parsed = match url::Url::parse(url.trim()) {
        Ok(parsed) if parsed.has_host() => parsed,
        _ if url.contains("://") => return mask_unparsed(url, query),
        _ => return url.to_string(),
    };
    let masked_pairs = |text: &str| -> String {
        text.split('&')
            .map(|pair| match pair.split_once('=') {
                Some((name, _)) => format!("{name}={MASK}"),
                None if pair.is_empty() => String::new(),
                None => MASK.to_string(),
            })
            .collect::<Vec<_>>()
            .join("&")
    };
    let mut out = format!("{}://", parsed.scheme());
    if !parsed.username().is_empty() || parsed.password().is_some() {
        out.push_str(MASK);
        out.push('@');
    }
    if let Some(host) = parsed.host_str() {
        out.push_str(host);
    }
    if let Some(port) = parsed.port() {
        out.push_str(&format!(":{port}"));
    }
    out.push_str(parsed.path());
    if query == UrlQuery::Dropped {
        return out;
    }
    if let Some(query) = parsed.query() {
        out.push('?');
        out.push_str(&masked_pairs(query));
    }
    if let Some(fragment) = parsed.fragment() {
        out.push('#');
        if fragment.contains('=') {
            out.push_str(&masked_pairs(fragment));
        } else {
            out.push_str(fragment);
        }
    }
    out
}

/// [`mask_url`] for text that says `scheme://` but does not parse: user
/// info up to the last `@` of the authority masked, the query and
/// fragment dropped (a query of what cannot be parsed cannot be masked
/// pair by pair), at most 200 characters.
fn mask_unparsed(url: &str, query: UrlQuery) -> String {
    let url = url.trim();
    let cut = url.find(['?', '#']).unwrap_or(url.len());
    let (head, tail) = url.split_at(cut);
    let scheme_end = head.find("://").map_or(0, |at| at + 3);
    let authority_end = head[scheme_end..]
        .find('/')
        .map_or(head.len(), |at| scheme_end + at);
    let mut out = String::new();
    match head[scheme_end..authority_end].rfind('@') {
        Some(at) => {
            out.push_str(&head[..scheme_end]);
            out.push_str("***");
            out.push_str(&head[scheme_end + at..]);
        }
        None => out.push_str(head),
    }
    if query == UrlQuery::Masked && !tail.is_empty() {
        out.push_str(&tail[..1]);
        out.push_str("***");
    }
    out.chars().take(200).collect()
}

/// `url` as it may be logged or put in a message: [`mask_url`] with the
/// query kept, every value masked (`?token=***&page=***`), so a document
/// URL that carries a credential can be named without leaking it.
pub fn redact_url(url: &str) -> String {
    mask_url(url, UrlQuery::Masked)
}

/// `url` for a request line or a redirect chain: [`mask_url`] with the
/// query and fragment left out.
pub fn display_url(url: &str) -> String {
    mask_url(url, UrlQuery::Dropped)
}

/// `text` (a client library's message, say) with every URL in it passed
/// through [`redact_url`]: reqwest writes the URL it failed on, query
/// and all, into its errors.
pub fn redact_urls_in(text: &str) -> String {
    if !text.contains("://") {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        // The scheme: the letters, digits, `+`, `-`, `.` before `://`.
        let start = rest[..at]
            .char_indices()
            .rev()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let end = rest[at..]
            .find(|c: char| c.is_whitespace() || matches!(c, ')' | '"' | '\'' | '<' | '>' | '`'))
            .map_or(rest.len(), |i| at + i);
        out.push_str(&rest[..start]);
        if start == at {
            out.push_str(&rest[start..end]);
        } else {
            out.push_str(&redact_url(&rest[start..end]));
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// An error and its causes on one line, each cause once (an HTTP client's
/// top-level message alone is usually just "error sending request").
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

/// Bytes of `value` as compact JSON, without building the text (0 for
/// what cannot be serialized: a map with keys that are not strings).
pub fn json_size<T: serde::Serialize + ?Sized>(value: &T) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    match serde_json::to_writer(&mut count, value) {
        Ok(()) => count.0,
        Err(_) => 0,
    }
}

#[cfg(test)]
mod tests;
