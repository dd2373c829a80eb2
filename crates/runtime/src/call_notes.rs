//! What a call tells the model of the response beside its body: the
//! response headers it is shown and the next page's arguments (see
//! `response::headers` and `next_page`), put before the body by
//! `Api::exchange`.

use serde_json::{Map, Value};

use super::{MIN_MASKED_CREDENTIAL, Prepared};
use crate::auth;
use crate::request::PreparedRequest;
use crate::response::{self, HttpResponse};

/// What the response says beside its body, as a result carries it: in a
/// text block before the body (for the model) and, structured, in the
/// result's `_meta` under [`RESPONSE_META_KEY`] (for hosts, apps and
/// scripts).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResponseNotes {
    /// The headers shown (see [`response::headers`]), in the response's
    /// order, with the credentials the request sent masked.
    pub headers: Vec<(String, String)>,
    /// The next page's arguments for the same tool, when the response
    /// names a next page they can ask for (see [`crate::next_page`]).
    pub next: Option<Map<String, Value>>,
}

/// The key of a result's `_meta` that holds its [`ResponseNotes`].
pub const RESPONSE_META_KEY: &str = "openapi2mcp/response";

impl ResponseNotes {
    /// The `_meta` value of a call of `tool`: `{"headers": {NAME: VALUE},
    /// "next": {"tool", "arguments"}}` (a header given more than once
    /// joined by `, `, as RFC 9110 reads them), each part only when there
    /// is one.
    pub fn to_meta(&self, tool: &str) -> Value {
        let mut out = Map::new();
        if !self.headers.is_empty() {
            let mut headers = Map::new();
            for (name, value) in &self.headers {
                match headers.get_mut(name) {
                    Some(Value::String(before)) => {
                        before.push_str(", ");
                        before.push_str(value);
                    }
                    _ => {
                        headers.insert(name.clone(), Value::String(value.clone()));
                    }
                }
            }
            out.insert("headers".into(), Value::Object(headers));
        }
        if let Some(args) = &self.next {
            out.insert(
                "next".into(),
                serde_json::json!({"tool": tool, "arguments": args}),
            );
        }
        Value::Object(out)
    }

    /// Whether there is nothing to tell.
    pub fn is_empty(&self) -> bool {
        self.headers.is_empty() && self.next.is_none()
    }
}

/// What a call tells of the response beside its body: the notes, and the
/// text block the model reads before the body (the headers shown; for a
/// success whose headers name a next page the tool's arguments cannot ask
/// for, why; and the line giving the next page's arguments), `None` when
/// there is nothing to say. Header values are masked of the credentials
/// the request sent; the next page's arguments are not: they are the
/// model's own and values of the API's next link other than a sent
/// credential (see [`crate::next_page`]), and masking a credential that
/// happens to be part of one would corrupt them.
pub(super) fn response_notes(
    called: &Prepared,
    args: &Map<String, Value>,
    resp: &HttpResponse,
    prepared: &PreparedRequest,
) -> (ResponseNotes, Option<String>) {
    let http = &called.endpoint.http;
    let headers: Vec<(String, String)> =
        response::headers::shown(&resp.headers, &http.response_headers)
            .into_iter()
            .map(|(name, value)| {
                let value = mask_sent_text(&value, &prepared.credentials);
                (name, value)
            })
            .collect();
    let mut lines: Vec<String> = response::headers::render(&headers).into_iter().collect();
    let mut notes = ResponseNotes {
        headers,
        next: None,
    };
    let next = (200..300)
        .contains(&resp.status)
        .then(|| url::Url::parse(&prepared.url).ok())
        .flatten()
        .and_then(|url| {
            let input = called
                .endpoint
                .input_full
                .as_deref()
                .unwrap_or(&called.endpoint.input_schema);
            crate::next_page::next_page(
                http,
                input,
                args,
                &resp.headers,
                &url,
                &prepared.credentials,
            )
        });
    if let Some(next) = next {
        lines.push(next.render(&called.endpoint.name));
        if let crate::next_page::NextPage::Arguments(args) = next {
            notes.next = Some(args);
        }
    }
    let text = (!lines.is_empty()).then(|| lines.join("\n"));
    (notes, text)
}

/// `text` with the credentials one request carried masked, as
/// `mask_sent` masks an outcome.
pub(super) fn mask_sent_text(text: &str, credentials: &[String]) -> String {
    let sent: Vec<String> = credentials
        .iter()
        .filter(|c| c.len() >= MIN_MASKED_CREDENTIAL)
        .cloned()
        .collect();
    auth::redact(text, &sent)
}
