//! The request a call would send, shown to a person before it is sent
//! (confirmation of destructive calls): method, URL without secrets, and
//! the body, bounded. Built from the same draft the call itself sends, but
//! before authentication, so no credential can appear in it.

use serde_json::{Map, Value};

use super::binding::HttpBinding;
use super::request;
use super::wire::redact_url;

/// Most characters of a body shown in a preview.
pub const MAX_BODY_CHARS: usize = 2_000;

/// What a call would send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestPreview {
    /// Upper-case HTTP method.
    pub method: String,
    /// The URL, with user info and secret-looking query values masked.
    pub url: String,
    /// The body as text (cut at [`MAX_BODY_CHARS`], or a note for binary
    /// bodies), if one is sent.
    pub body: Option<String>,
}

impl RequestPreview {
    /// One paragraph for a person: `DELETE https://…` then the body.
    pub fn describe(&self) -> String {
        let mut text = format!("{} {}", self.method, self.url);
        if let Some(body) = &self.body {
            text.push_str("\n\n");
            text.push_str(body);
        }
        text
    }
}

/// The preview of calling `binding` with `args` (already validated).
pub fn preview(
    binding: &HttpBinding,
    args: &Map<String, Value>,
    variables: &std::collections::BTreeMap<String, String>,
    base_url: Option<&str>,
) -> Result<RequestPreview, String> {
    let draft = request::draft_at(binding, args, variables, base_url).map_err(|e| e.to_string())?;
    let url = redact_url(&draft.url());
    let body = draft.body.as_deref().map(body_text);
    Ok(RequestPreview {
        method: draft.method,
        url,
        body,
    })
}

fn body_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) if text.chars().count() > MAX_BODY_CHARS => {
            let cut: String = text.chars().take(MAX_BODY_CHARS).collect();
            format!("{cut}… ({} bytes in all)", bytes.len())
        }
        Ok(text) => text.to_string(),
        Err(_) => format!("({} bytes of binary data)", bytes.len()),
    }
}

#[cfg(test)]
#[path = "preview_tests.rs"]
mod tests;
