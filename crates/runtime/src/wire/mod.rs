//! Small helpers for what goes on and comes off the wire, with one home so
//! the request builder, authentication, response mapping and the mock read
//! media types and check header text the same way: `media` (media type
//! essence and classification), `header` (tokens, header values, cookies),
//! [`error_chain`] for errors that reach the model, [`json_kind`] to
//! name a JSON value's type in messages, [`redact_url`] to name a URL
//! without the credentials it may carry, and [`json_size`] to measure
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

/// `url` as it may be logged or put in a message: the user info
/// (`user:pass@`) and every query value (`?token=…`) replaced by `***`,
/// query names kept (`?token=***&page=***`), so a document URL that
/// carries a credential can be named without leaking it; the fragment
/// too when it holds `name=value` pairs. Anything that is not a URL with
/// a host (a file path) comes back unchanged.
pub fn redact_url(url: &str) -> String {
    const MASK: &str = "***";
    let parsed = match url::Url::parse(url.trim()) {
        Ok(parsed) if parsed.has_host() => parsed,
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
