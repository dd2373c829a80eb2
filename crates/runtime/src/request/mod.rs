//! Turns one tool call into a complete HTTP request description.
//!
//! An MCP client calls a tool with one flat JSON object of arguments; the
//! REST backend expects those values spread over the path, query string,
//! headers, cookies and body, each serialized by the OpenAPI `style` /
//! `explode` rules (OpenAPI 3.1 "Style Values" and "Style Examples"). This
//! module does that translation and nothing else: it performs no I/O and
//! knows no HTTP client, so the live server and generated crates share it.
//!
//! Two properties matter beyond correctness:
//!
//! * **Determinism**: identical input gives byte-identical output (the
//!   multipart boundary is a hash of the content, never random), so requests
//!   from two back ends can be compared.
//! * **Defence**: arguments come from a language model and are never trusted.
//!   Every path value is percent-encoded as a single segment, segments that
//!   URL normalisation would resolve (`.`, `..`, empty) are refused, and the
//!   finished URL is re-parsed to prove it kept the base URL's scheme, host,
//!   port and path prefix. Header and cookie values with CR, LF or NUL are
//!   refused rather than sent.
//!
//! Choices where the specification leaves room are documented on the
//! functions that make them.
//!
//! One file per part of the request: `base` (the base URL), `args`
//! (reading arguments), `shape` (values as the styles see them), `path`,
//! `query`, `headers` (header and cookie parameters), `accept` (the
//! `Accept` header from the documented response media types), `body`
//! (JSON, text, forms), `multipart` and `binary` (file content). [`draft`] leaves the
//! query open so authentication can add a query credential before the URL
//! is written.

mod accept;
mod args;
mod base;
mod binary;
mod body;
mod headers;
pub(crate) use headers::CLIENT_HEADERS;
mod multipart;
mod path;
mod query;
mod shape;

use std::collections::BTreeMap;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC};
use serde_json::{Map, Value};

use super::binding::HttpBinding;
use accept::accept_header;
use base::parse_base;
use body::build_body;
use headers::{check_content_type, cookie_header, header_params};
use path::expand_path;
use query::build_query;

pub use base::base_url;

/// A complete HTTP request, independent of any HTTP client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreparedRequest {
    /// Upper-case HTTP method, from the binding.
    pub method: String,
    /// Absolute URL: base URL, expanded path and query string.
    pub url: String,
    /// Headers in order: header parameters, then one `Cookie` header joining
    /// all cookie parameters, then `Accept` when the responses document
    /// media types, then `Content-Type` when there is a body. Framing
    /// (`Content-Length`) is the HTTP client's: see
    /// [`PreparedRequest::empty_content_length`].
    pub headers: Vec<(String, String)>,
    /// The encoded body, if one is sent.
    pub body: Option<Vec<u8>>,
    /// The credential values authentication placed on this request (keys,
    /// tokens, header values), so that a redirect to another origin can be
    /// refused when its URL would carry one on. Empty until authenticated.
    pub credentials: Vec<String>,
    /// `url` as the safety check parsed it, when that parse serializes
    /// back to `url` exactly: the HTTP client sends it as it is instead of
    /// parsing the URL once more (see [`PreparedRequest::parsed_url`]).
    pub parsed: Option<url::Url>,
}

impl PreparedRequest {
    /// The parsed URL to send, if [`PreparedRequest::parsed`] still
    /// matches [`PreparedRequest::url`] (so a changed `url` is never sent
    /// stale). Parsing a URL serialization again gives the same URL, so
    /// this is what parsing `url` would give.
    pub fn parsed_url(&self) -> Option<&url::Url> {
        self.parsed.as_ref().filter(|u| u.as_str() == self.url)
    }

    /// Whether the request must say `Content-Length: 0` because it sends no
    /// bytes: a POST, PUT, PATCH or QUERY without a body (RFC 9110 §8.6: a user
    /// agent SHOULD send `Content-Length` when the method defines a meaning
    /// for enclosed content; GitHub answers `411 Length Required` to
    /// `PUT /user/starred/{owner}/{repo}` without it, and so do Google's
    /// front ends), or any request with an empty body, whose `Content-Type`
    /// announces content. The HTTP client (hyper) writes no length for an
    /// empty body, so the sender adds this one.
    pub fn empty_content_length(&self) -> bool {
        match &self.body {
            Some(body) => body.is_empty(),
            None => matches!(self.method.as_str(), "POST" | "PUT" | "PATCH" | "QUERY"),
        }
    }
}

/// Why a tool call could not become an HTTP request. Messages name the
/// argument and say how to fix the call.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum RequestError {
    /// A required argument was absent (or `null`).
    #[error("missing required argument `{arg}`: add `{arg}` to the call and try again")]
    MissingArgument {
        /// The tool argument's name.
        arg: String,
    },
    /// An argument's value cannot be sent as given.
    #[error("invalid argument `{arg}`: {reason}")]
    InvalidArgument {
        /// The tool argument's name.
        arg: String,
        /// What is wrong and how to fix it.
        reason: String,
    },
    /// No usable base URL could be determined.
    #[error("no usable base URL: {0}")]
    BaseUrl(String),
    /// The operation's path template cannot be expanded (a defect of the
    /// API description, not of the call).
    #[error("the path template `{template}` cannot be expanded: {reason}")]
    PathTemplate {
        /// The path template from the binding.
        template: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The finished URL would leave the base URL (host or path prefix).
    #[error(
        "refused to send a request to `{url}`: {reason}; pass plain values for the path arguments"
    )]
    UnsafeUrl {
        /// The URL that was built.
        url: String,
        /// How it differs from the base URL.
        reason: String,
    },
}

/// Everything except RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`).
pub(super) const STRICT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

// ---------------------------------------------------------------------------
// prepare
// ---------------------------------------------------------------------------

/// Builds the request for one call. `args` are the tool arguments (already
/// validated against the input schema by the caller, but never trusted: a
/// wrong type is a [`RequestError`], never a panic). Arguments not named by
/// any binding are ignored; `null` counts as absent.
pub fn prepare(
    binding: &HttpBinding,
    args: &Map<String, Value>,
    base_url: &str,
) -> Result<PreparedRequest, RequestError> {
    draft(binding, args, base_url).map(RequestDraft::finish)
}

/// Builds the request for one call as [`prepare`] does, with the query
/// string still open so that authentication can add its credentials
/// before the URL is written.
pub fn draft(
    binding: &HttpBinding,
    args: &Map<String, Value>,
    base_url: &str,
) -> Result<RequestDraft, RequestError> {
    draft_on(binding, args, parse_base(base_url, true)?)
}

/// [`draft`] with the base URL chosen as [`base_url`] chooses it (`explicit`
/// first, else the binding's first server with `variables`), parsed once
/// rather than once to choose it and once more to build on it.
pub fn draft_at(
    binding: &HttpBinding,
    args: &Map<String, Value>,
    variables: &BTreeMap<String, String>,
    explicit: Option<&str>,
) -> Result<RequestDraft, RequestError> {
    let (_, base) = base::choose_base(&binding.servers, variables, explicit)?;
    draft_on(binding, args, base)
}

/// [`draft`] on a parsed, checked base URL.
fn draft_on(
    binding: &HttpBinding,
    args: &Map<String, Value>,
    base: url::Url,
) -> Result<RequestDraft, RequestError> {
    let path = expand_path(binding, args)?;
    let mut draft = RequestDraft {
        method: binding.method.to_ascii_uppercase(),
        location: format!("{}{path}", base.as_str().trim_end_matches('/')),
        query: build_query(&binding.params, args)?,
        headers: Vec::new(),
        body: None,
        credentials: Vec::new(),
        parsed: None,
    };
    draft.parsed = Some(verify_url(&base, draft.url(), &path)?);
    draft.headers = header_params(&binding.params, args)?;
    draft.headers.extend(cookie_header(&binding.params, args)?);
    if let Some(accept) = accept_header(binding) {
        draft.headers.push(("Accept".into(), accept));
    }
    let body = match &binding.body {
        Some(body) => build_body(body, args)?,
        None => None,
    };
    if let (Some(declared), Some((content_type, _))) = (&binding.body, &body) {
        check_content_type(declared, content_type)?;
    }
    draft.body = body.map(|(content_type, bytes)| {
        draft.headers.push(("Content-Type".into(), content_type));
        bytes
    });
    Ok(draft)
}

/// A request being built: everything a [`PreparedRequest`] holds, with the
/// URL still in two parts, so that a credential sent as a query parameter
/// joins the query the way parameters do (one more `name=value` piece)
/// instead of being spliced into a finished URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestDraft {
    /// Upper-case HTTP method, from the binding.
    pub method: String,
    /// The base URL (no trailing slash) and the expanded path.
    pub location: String,
    /// Encoded `name=value` pieces of the query string, in order.
    pub query: Vec<String>,
    /// Headers in order, as in [`PreparedRequest::headers`].
    pub headers: Vec<(String, String)>,
    /// The encoded body, if one is sent.
    pub body: Option<Vec<u8>>,
    /// As in [`PreparedRequest::credentials`].
    pub credentials: Vec<String>,
    /// The URL as the safety check parsed it (before authentication, which
    /// may add to the query); see [`PreparedRequest::parsed`].
    pub parsed: Option<url::Url>,
}

impl RequestDraft {
    /// The URL as it stands: location, then `?` and the query pieces
    /// joined with `&` when there are any.
    pub fn url(&self) -> String {
        let mut url = self.location.clone();
        if !self.query.is_empty() {
            url.push('?');
            url.push_str(&self.query.join("&"));
        }
        url
    }

    /// Adds `name=value` to the query, form-encoded (`application/x-www-
    /// form-urlencoded`, spaces as `+`), after everything already there.
    pub fn push_query_pair(&mut self, name: &str, value: &str) {
        let pair = url::form_urlencoded::Serializer::new(String::new())
            .append_pair(name, value)
            .finish();
        self.query.push(pair);
    }

    /// The finished request.
    pub fn finish(self) -> PreparedRequest {
        let url = self.url();
        PreparedRequest {
            parsed: self.parsed.filter(|u| u.as_str() == url),
            url,
            method: self.method,
            headers: self.headers,
            body: self.body,
            credentials: self.credentials,
        }
    }
}

/// Re-parses the finished URL and checks it kept the base URL's scheme,
/// host and port, that its path is exactly base path + expanded path (so no
/// normalisation happened), and that it has no fragment. Returns the parse.
fn verify_url(base: &url::Url, url: String, path: &str) -> Result<url::Url, RequestError> {
    let unsafe_url = |reason: String| RequestError::UnsafeUrl {
        url: url.clone(),
        reason,
    };
    let parsed =
        url::Url::parse(&url).map_err(|e| unsafe_url(format!("it does not parse ({e})")))?;
    if parsed.scheme() != base.scheme()
        || parsed.host_str() != base.host_str()
        || parsed.port_or_known_default() != base.port_or_known_default()
    {
        return Err(unsafe_url(
            "it would change the scheme, host or port".into(),
        ));
    }
    let expected = format!("{}{path}", base.path().trim_end_matches('/'));
    let expected = if expected.is_empty() { "/" } else { &expected };
    if parsed.path() != expected {
        return Err(unsafe_url(format!(
            "URL normalisation would turn the path into `{}`",
            parsed.path()
        )));
    }
    if parsed.fragment().is_some() {
        return Err(unsafe_url("it would carry a fragment".into()));
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests;
