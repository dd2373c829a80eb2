//! What a call tells the model of the response beside its body: the
//! response headers it is shown and the next page's arguments (see
//! `response::headers` and `next_page`), put before the body by
//! `Api::exchange`.

use serde_json::{Map, Value};

use super::{MIN_MASKED_CREDENTIAL, Prepared};
use crate::auth;
use crate::request::PreparedRequest;
use crate::response::{self, HttpResponse};

/// What a model is told of the response beside its body: the headers it
/// is shown (see [`response::headers`]), with, for a success whose
/// headers name a next page the tool's arguments cannot ask for, why; and
/// the line giving the next page's arguments, when there is one (see
/// [`crate::next_page`]).
pub(super) fn response_notes(
    called: &Prepared,
    args: &Map<String, Value>,
    resp: &HttpResponse,
    prepared: &PreparedRequest,
) -> (Option<String>, Option<String>) {
    let http = &called.endpoint.http;
    let mut shown = response::headers::render(&response::headers::shown(
        &resp.headers,
        &http.response_headers,
    ));
    if !(200..300).contains(&resp.status) {
        return (shown, None);
    }
    let Ok(url) = url::Url::parse(&prepared.url) else {
        return (shown, None);
    };
    let input = called
        .endpoint
        .input_full
        .as_deref()
        .unwrap_or(&called.endpoint.input_schema);
    let next = crate::next_page::next_page(
        http,
        input,
        args,
        &resp.headers,
        &url,
        &prepared.credentials,
    );
    match next {
        Some(next @ crate::next_page::NextPage::Arguments(_)) => {
            (shown, Some(next.render(&called.endpoint.name)))
        }
        Some(unreachable) => {
            let line = unreachable.render(&called.endpoint.name);
            shown = Some(match shown {
                Some(headers) => format!("{headers}\n{line}"),
                None => line,
            });
            (shown, None)
        }
        None => (shown, None),
    }
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
