//! What sending a request needs beyond the request itself: the pooled
//! HTTP client (with its redirect policy, deadline, retries and size cap),
//! the authenticator and the rate limit. One [`Channel`] is shared by the
//! `Api` and by every [`super::Monitor`] of its long-running operations,
//! so a status request is sent exactly as the call was.

use std::sync::Arc;
use std::time::Duration;

use super::super::auth::fixed::FixedHeaders;
use super::super::auth::{self, AuthError, Authenticator};
use super::super::binding::SecurityRequirement;
use super::super::forward::Forwarded;
use super::super::http::HttpClient;
use super::super::ratelimit::RateLimiter;
use super::super::request::RequestDraft;

/// The client, authenticator and rate limit of one API (cheap to clone).
#[derive(Clone)]
pub(crate) struct Channel {
    /// The pooled HTTP client.
    pub(crate) client: HttpClient,
    /// Credentials for the API's security schemes.
    pub(crate) auth: Arc<Authenticator>,
    /// `--rate-limit`, when set.
    pub(crate) limiter: Option<Arc<RateLimiter>>,
    /// The operator's headers (`--header`), on every request after the
    /// credentials.
    pub(crate) headers: Arc<FixedHeaders>,
}

impl Channel {
    /// Adds credentials to `draft`: the MCP client's forwarded
    /// `Authorization` when `forwarded` holds one, else the configured
    /// credentials of the first satisfiable requirement of `security`;
    /// then the operator's `--header`s; then the client's forwarded
    /// headers (`--forward-header`), each replacing its name.
    /// `Ok(Some(hint))` when no configured credentials fit (the request is
    /// sent anyway: documents often declare security on endpoints that
    /// also answer anonymously) and `hint` says what to configure.
    pub(crate) async fn authenticate(
        &self,
        security: &[SecurityRequirement],
        forwarded: &Forwarded,
        draft: &mut RequestDraft,
    ) -> Result<Option<String>, AuthError> {
        let applied = match forwarded.authorization.as_deref() {
            Some(value) => auth::apply_passthrough(value, draft),
            None => self.auth.apply(security, draft).await,
        };
        // The operator's headers replace whatever a scheme put under the
        // same name: they were given for this API explicitly.
        self.headers.apply(draft);
        // A caller's own header is that caller's: it replaces the
        // operator's default of the same name.
        for (name, value) in &forwarded.headers {
            auth::apply_forwarded_header(name, value, draft)?;
        }
        match applied {
            Ok(()) => Ok(None),
            Err(e @ AuthError::MissingCredentials { .. }) => Ok(Some(e.to_string())),
            Err(e) => Err(e),
        }
    }

    /// Takes a token from the rate limit, or says how long until one is
    /// available.
    pub(crate) fn try_acquire(&self) -> Result<(), Duration> {
        match &self.limiter {
            Some(limiter) => limiter.try_acquire(),
            None => Ok(()),
        }
    }
}

/// A GET of the absolute URL `url` (its query kept, so that a credential
/// added to the query joins it), asking for `accept`; `None` when `url`
/// is not an http(s) URL.
pub(crate) fn get_draft(url: &str, accept: Option<&str>) -> Option<RequestDraft> {
    let parsed = url::Url::parse(url).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return None;
    }
    let mut location = parsed.clone();
    location.set_query(None);
    location.set_fragment(None);
    let query = parsed
        .query()
        .filter(|q| !q.is_empty())
        .map(|q| q.split('&').map(str::to_string).collect())
        .unwrap_or_default();
    Some(RequestDraft {
        method: "GET".into(),
        location: location.into(),
        query,
        headers: accept
            .map(|a| vec![("Accept".to_string(), a.to_string())])
            .unwrap_or_default(),
        body: None,
        credentials: Vec::new(),
        parsed: None,
    })
}
