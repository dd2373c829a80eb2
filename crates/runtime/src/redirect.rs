//! Which redirects a call follows, and what the next hop carries.
//!
//! reqwest's own redirect handling strips `Authorization` and `Cookie` when
//! the host changes, but not an API key in a custom header, and a key in
//! the query string would travel on in the `Referer`. So the HTTP client
//! follows redirects itself, through this policy:
//!
//! - same origin as the request (scheme, host and port): followed, with
//!   every header;
//! - another origin: refused, unless the operator listed it
//!   (`--allow-redirect-origin`); even then only a small set of harmless
//!   headers goes along (no credential of any scheme, no header
//!   parameter), and a target URL that carries a credential is refused;
//! - more than [`MAX_REDIRECTS`] hops, a loop, a Location that is not an
//!   http(s) URL: refused.
//!
//! A refusal names the whole chain (URLs without query strings, so no
//! credential placed in a query is ever shown).
//!
//! From the rest of the crate it uses only `request` (the request each hop
//! rebuilds) and `wire`'s [`display_url`] (re-exported; the URLs a refusal
//! names): another origin gets only a fixed list of harmless headers, and
//! the request carries the credential values placed on it, so the policy
//! keeps credentials on the API's origin without knowing of `auth`.

use std::collections::HashSet;

use super::request::PreparedRequest;
/// A URL safe to show and log: user info masked, no query or fragment.
pub use super::wire::display_url;

/// Redirects followed for one call, at most.
pub const MAX_REDIRECTS: usize = 5;

/// Headers that may go along to another origin: nothing that identifies the
/// caller or carries an argument the API owner did not see.
const CROSS_ORIGIN_HEADERS: &[&str] = &["accept", "accept-language", "content-type"];

/// The state of one call's redirect chain. Made for every request, so it
/// does nothing (parses no URL) until a redirect arrives.
#[derive(Debug)]
pub struct Redirects<'a> {
    start: &'a str,
    origin: String,
    allowed: &'a [String],
    chain: Vec<String>,
    seen: HashSet<String>,
}

/// Why a redirect was not followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The URLs visited, first to last (queries and credentials removed).
    pub chain: Vec<String>,
    /// What was wrong with the last hop, and what to do about it.
    pub reason: String,
}

impl<'a> Redirects<'a> {
    /// Starts a chain at `url` (the URL the call was sent to). `allowed`
    /// holds extra origins redirects may lead to, in any spelling
    /// [`origin_of`] accepts.
    pub fn new(url: &'a str, allowed: &'a [String]) -> Self {
        Redirects {
            start: url,
            origin: String::new(),
            allowed,
            chain: Vec::new(),
            seen: HashSet::new(),
        }
    }

    /// Records the first URL of the chain, once, when the first redirect
    /// arrives.
    fn begin(&mut self) {
        if self.chain.is_empty() {
            self.origin = origin_of(self.start).unwrap_or_default();
            self.chain.push(display_url(self.start));
            self.seen.insert(self.start.to_string());
        }
    }

    /// The next request when `status` with `location` answered `current`,
    /// or why it must not be sent.
    pub fn follow(
        &mut self,
        current: &PreparedRequest,
        status: u16,
        location: &str,
    ) -> Result<PreparedRequest, Refusal> {
        self.begin();
        let target = url::Url::parse(&current.url).and_then(|base| base.join(location.trim()));
        let target = match target {
            Ok(t) => t,
            Err(e) => {
                return Err(self.refuse(format!(
                    "the server's Location `{}` is not a valid URL ({e})",
                    display_url(location)
                )));
            }
        };
        let mut target_text = String::from(target.clone());
        if let Some(i) = target_text.find('#') {
            target_text.truncate(i);
        }
        self.chain.push(display_url(&target_text));
        if !matches!(target.scheme(), "http" | "https") {
            return Err(self.refuse(format!(
                "it leads to a `{}:` URL; only http and https are followed",
                target.scheme()
            )));
        }
        if self.chain.len() - 1 > MAX_REDIRECTS {
            return Err(self.refuse(format!(
                "more than {MAX_REDIRECTS} redirects in a row; the API may be misconfigured"
            )));
        }
        if !self.seen.insert(target_text.clone()) {
            return Err(self.refuse(
                "it is a redirect loop (a URL of the chain came back); the API may be misconfigured"
                    .into(),
            ));
        }
        let origin = origin_of(&target_text).unwrap_or_default();
        let same_origin = origin == self.origin;
        if !same_origin {
            if !self
                .allowed
                .iter()
                .any(|a| origin_of(a).is_some_and(|a| a == origin))
            {
                return Err(self.refuse(format!(
                    "it leads to another origin ({origin}); only redirects within {} are followed, so that credentials never leave the API. If {origin} is trusted, start the server with --allow-redirect-origin {origin}",
                    self.origin
                )));
            }
            if carries_credential(&target_text, &current.credentials) {
                return Err(self.refuse(format!(
                    "its URL on another origin ({origin}) carries a credential of this server"
                )));
            }
        }
        let mut next = next_request(current, status, target_text, same_origin);
        next.parsed = Some(target);
        Ok(next)
    }

    fn refuse(&self, reason: String) -> Refusal {
        Refusal {
            chain: self.chain.clone(),
            reason,
        }
    }
}

/// Whether `status` is a redirect this client follows (with a Location).
pub fn is_followed_status(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// The request sent to `url` after a `status` redirect of `current`: 303
/// (and 301/302 after a POST, as browsers do) become a GET without body;
/// 307/308 repeat method and body. Off the origin only
/// [`CROSS_ORIGIN_HEADERS`] go along, and no credential.
fn next_request(
    current: &PreparedRequest,
    status: u16,
    url: String,
    same_origin: bool,
) -> PreparedRequest {
    let to_get = match status {
        303 => current.method != "HEAD",
        301 | 302 => current.method == "POST",
        _ => false,
    };
    let keep_body = !to_get && current.body.is_some();
    let headers = current
        .headers
        .iter()
        .filter(|(name, _)| {
            let name = name.to_ascii_lowercase();
            let body_header = matches!(name.as_str(), "content-type" | "content-length");
            (!body_header || keep_body)
                && (same_origin || CROSS_ORIGIN_HEADERS.contains(&name.as_str()))
        })
        .cloned()
        .collect();
    PreparedRequest {
        method: if to_get {
            "GET".into()
        } else {
            current.method.clone()
        },
        url,
        headers,
        body: if keep_body {
            current.body.clone()
        } else {
            None
        },
        credentials: if same_origin {
            current.credentials.clone()
        } else {
            Vec::new()
        },
        parsed: None,
    }
}

/// Whether `url` contains a credential, as sent or percent-encoded.
fn carries_credential(url: &str, credentials: &[String]) -> bool {
    let decoded = percent_encoding::percent_decode_str(url)
        .decode_utf8_lossy()
        .replace('+', " ");
    credentials
        .iter()
        .filter(|c| c.len() >= 4)
        .any(|c| url.contains(c.as_str()) || decoded.contains(c.as_str()))
}

/// `scheme://host:port` with the port always written (default ports too),
/// host lower-cased; `None` when `url` has no host.
pub fn origin_of(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url.trim()).ok()?;
    let host = parsed.host_str()?.to_ascii_lowercase();
    let port = parsed.port_or_known_default()?;
    Some(format!("{}://{host}:{port}", parsed.scheme()))
}
