//! Small helpers for what goes on and comes off the wire, with one home so
//! the request builder, authentication, response mapping and the mock read
//! media types and check header text the same way: `media` (media type
//! essence and classification), `header` (tokens, header values, cookies),
//! [`error_chain`] for errors that reach the model, and [`json_kind`] to
//! name a JSON value's type in messages.

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
