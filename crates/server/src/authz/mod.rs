//! Authorization of MCP clients as the MCP specification defines it for
//! HTTP servers: this server is an OAuth 2.1 protected resource. It
//! publishes Protected Resource Metadata (RFC 9728, [`metadata`]), answers
//! a request without a valid token with `401` and a `WWW-Authenticate`
//! challenge pointing at that metadata, validates access tokens as JWTs
//! against the issuer's keys ([`jwks`], [`token`]), and refuses a token
//! lacking a required scope with `403 insufficient_scope` — globally
//! (`--required-scope`) or per tool ([`scopes`]).
//!
//! The token stays here: it reaches the API only with
//! `--forward-authorization` (the specification forbids passing it through
//! by default).

#[cfg(feature = "authorization")]
pub mod jwks;
pub mod metadata;
pub mod scopes;
pub mod token;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use url::Url;

#[cfg(feature = "authorization")]
use jwks::{JwksCache, JwksSource};
use token::Expectations;
pub use token::Principal;
#[cfg(feature = "authorization")]
use token::TokenError;

/// Whether this build checks OAuth access tokens (the `authorization`
/// feature); without it `--oauth-issuer` is refused at start-up.
pub const AVAILABLE: bool = cfg!(feature = "authorization");

/// The issuer's signing keys, fetched and cached.
#[cfg(feature = "authorization")]
type Keys = JwksCache;
/// No keys in a build without the `authorization` feature: an
/// [`Authorizer`] cannot be made there.
#[cfg(not(feature = "authorization"))]
type Keys = std::convert::Infallible;

/// Why a token was not verified.
#[cfg_attr(not(feature = "authorization"), allow(dead_code))]
enum Unverified {
    /// The issuer's keys could not be had.
    Keys(String),
    /// The token is not valid: the reason.
    Token(String),
}

/// Configuration of OAuth authorization (`--oauth-issuer` and friends).
#[derive(Debug, Clone)]
pub struct AuthzOptions {
    /// Canonical URL of this MCP endpoint (`--resource-url`): the
    /// `resource` of the metadata and the audience tokens must name.
    pub resource: String,
    /// The authorization server (issuer identifier) whose tokens count.
    pub issuer: String,
    /// The issuer's JWKS, when not discovered from its metadata.
    pub jwks_url: Option<String>,
    /// Scopes every request needs.
    pub required_scopes: Vec<String>,
    /// Clock skew tolerated on `exp`/`nbf`.
    pub leeway: Duration,
    /// Least time between two JWKS fetches (unknown `kid`s cannot force more).
    pub jwks_min_refresh: Duration,
    /// Keys older than this are fetched again on next use.
    pub jwks_max_age: Duration,
    /// `resource_name` of the metadata.
    pub resource_name: Option<String>,
}

impl AuthzOptions {
    /// Options with the defaults for everything but the three URLs.
    pub fn new(resource: &str, issuer: &str, jwks_url: Option<String>) -> Self {
        Self {
            resource: resource.to_string(),
            issuer: issuer.to_string(),
            jwks_url,
            required_scopes: Vec::new(),
            leeway: Duration::from_secs(30),
            jwks_min_refresh: Duration::from_secs(10),
            jwks_max_age: Duration::from_secs(3600),
            resource_name: None,
        }
    }
}

/// Looks up the scope rule of a `tools/call` by the tool's name and the
/// `name` among its arguments (a call meta-tool's target); empty: none
/// needed.
pub type ToolScopes = Arc<dyn Fn(&str, Option<&str>) -> scopes::ScopeRule + Send + Sync>;

/// Checks requests; shared by every connection.
pub struct Authorizer {
    resource: Url,
    metadata_url: String,
    options: AuthzOptions,
    expect: Expectations,
    jwks: Keys,
}

/// The key cache `options` asks for.
#[cfg(feature = "authorization")]
fn keys(options: &AuthzOptions) -> Result<Keys, String> {
    let source = match &options.jwks_url {
        Some(u) => JwksSource::Url(u.clone()),
        None => JwksSource::Discover {
            issuer: options.issuer.clone(),
        },
    };
    Ok(JwksCache::new(
        source,
        options.jwks_min_refresh,
        options.jwks_max_age,
    ))
}

/// No key cache without the `authorization` feature: `--oauth-issuer`
/// is refused.
#[cfg(not(feature = "authorization"))]
fn keys(_options: &AuthzOptions) -> Result<Keys, String> {
    Err("--oauth-issuer: this server was built without the `authorization` feature of openapi2mcp-server, so it cannot check OAuth access tokens; build with the feature".into())
}

/// Largest request body looked into for the tool name of a `tools/call`
/// when per-tool scopes apply: the largest the server reads at all.
const MAX_PEEK_BYTES: usize = crate::wide_integers::MAX_REQUEST_BYTES;

impl Authorizer {
    /// Checks the URLs; an error names the flag at fault.
    pub fn new(options: AuthzOptions) -> Result<Self, String> {
        let resource = Url::parse(&options.resource)
            .map_err(|e| format!("--resource-url `{}` is not a URL: {e}", options.resource))?;
        if !matches!(resource.scheme(), "http" | "https")
            || resource.fragment().is_some()
            || resource.host_str().is_none()
        {
            return Err(format!(
                "--resource-url `{}` must be an absolute http(s) URL without a fragment (the MCP endpoint, e.g. https://mcp.example.com/mcp)",
                options.resource
            ));
        }
        Url::parse(&options.issuer)
            .map_err(|e| format!("--oauth-issuer `{}` is not a URL: {e}", options.issuer))?;
        if let Some(u) = &options.jwks_url {
            Url::parse(u).map_err(|e| format!("--jwks-url `{u}` is not a URL: {e}"))?;
        }
        let jwks = keys(&options)?;
        let expect = Expectations {
            issuer: options.issuer.clone(),
            audiences: vec![options.resource.clone()],
            leeway: options.leeway.as_secs(),
        };
        Ok(Self {
            metadata_url: metadata::metadata_url(&resource),
            jwks,
            resource,
            options,
            expect,
        })
    }

    /// Fetches the keys once ahead of the first request (a failure is
    /// logged; requests will try again).
    pub async fn prefetch(&self) {
        #[cfg(feature = "authorization")]
        if let Err(e) = self.jwks.keys().await {
            tracing::warn!("authorization: {e}");
        }
    }

    /// `token` checked against the issuer's keys and `expect`; the keys
    /// are fetched again once for a token signed with a key they lack.
    #[cfg(feature = "authorization")]
    async fn verify(&self, token: &str, expect: &Expectations) -> Result<Principal, Unverified> {
        let keys = self.jwks.keys().await.map_err(|e| Unverified::Keys(e.0))?;
        match token::validate(token, &keys, expect) {
            Err(TokenError::UnknownKey(kid)) => {
                let Some(fresh) = self.jwks.refresh_for_unknown_key(&keys).await else {
                    return Err(Unverified::Token(TokenError::UnknownKey(kid).to_string()));
                };
                token::validate(token, &fresh, expect).map_err(|e| Unverified::Token(e.to_string()))
            }
            other => other.map_err(|e| Unverified::Token(e.to_string())),
        }
    }

    /// Never called: no [`Authorizer`] exists without the feature.
    #[cfg(not(feature = "authorization"))]
    async fn verify(&self, _token: &str, _expect: &Expectations) -> Result<Principal, Unverified> {
        match self.jwks {}
    }

    /// The canonical resource URL.
    pub fn resource(&self) -> &Url {
        &self.resource
    }

    /// The metadata document; `extra_scopes` are the per-tool scopes.
    pub fn metadata(&self, extra_scopes: BTreeSet<String>) -> Value {
        let mut scopes: BTreeSet<String> = self.options.required_scopes.iter().cloned().collect();
        scopes.extend(extra_scopes);
        let scopes: Vec<String> = scopes.into_iter().collect();
        metadata::document(
            &self.resource,
            std::slice::from_ref(&self.options.issuer),
            &scopes,
            self.options.resource_name.as_deref(),
        )
    }

    /// Validates the bearer token of a request.
    pub async fn authenticate(&self, headers: &HeaderMap) -> Result<Principal, Refusal> {
        let Some(value) = headers.get(header::AUTHORIZATION) else {
            return Err(Refusal::Missing);
        };
        let token = value
            .to_str()
            .ok()
            .and_then(|v| {
                let (scheme, rest) = v.split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
            })
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                Refusal::InvalidToken("the Authorization header is not `Bearer <token>`".into())
            })?;
        let principal = self
            .verify(token, &self.expect)
            .await
            .map_err(|e| match e {
                Unverified::Keys(why) => Refusal::Unavailable(why),
                Unverified::Token(why) => Refusal::InvalidToken(why),
            })?;
        let needed: Vec<String> = self.options.required_scopes.clone();
        if let Err(missing) = scopes::check(std::slice::from_ref(&needed), &principal.scopes)
            && !needed.is_empty()
        {
            return Err(Refusal::InsufficientScope(missing));
        }
        Ok(principal)
    }

    /// The authorization server whose tokens count.
    pub fn issuer(&self) -> &str {
        &self.options.issuer
    }

    /// Checks an OpenID Connect ID token from this issuer, issued to
    /// `client_id` for the sign-in that sent `nonce`: who opened a login
    /// link of this server ([`super::connect`]).
    pub async fn check_id_token(
        &self,
        token: &str,
        client_id: &str,
        nonce: &str,
    ) -> Result<Principal, String> {
        let expect = Expectations {
            issuer: self.options.issuer.clone(),
            audiences: vec![client_id.to_string()],
            leeway: self.options.leeway.as_secs(),
        };
        let principal = self
            .verify(token, &expect)
            .await
            .map_err(|(Unverified::Keys(why) | Unverified::Token(why))| why)?;
        if principal.nonce.as_deref() != Some(nonce) {
            return Err("the ID token is not the answer to this sign-in (nonce)".into());
        }
        Ok(principal)
    }

    /// The challenge and status for a refusal.
    pub fn refuse(&self, refusal: Refusal) -> Response {
        let mut params = Vec::new();
        let (status, body) = match &refusal {
            Refusal::Missing => {
                if !self.options.required_scopes.is_empty() {
                    params.push(format!(
                        "scope=\"{}\"",
                        self.options.required_scopes.join(" ")
                    ));
                }
                (StatusCode::UNAUTHORIZED, "authorization required: send `Authorization: Bearer <access token>`; the resource metadata names the authorization server\n".to_string())
            }
            Refusal::InvalidToken(why) => {
                params.push("error=\"invalid_token\"".into());
                params.push(format!("error_description=\"{}\"", quote(why)));
                (
                    StatusCode::UNAUTHORIZED,
                    format!("invalid access token: {why}\n"),
                )
            }
            Refusal::InsufficientScope(needed) => {
                params.push("error=\"insufficient_scope\"".into());
                params.push(format!("scope=\"{}\"", quote(&needed.join(" "))));
                (
                    StatusCode::FORBIDDEN,
                    format!(
                        "the access token lacks a scope this needs: {}\n",
                        needed.join(" ")
                    ),
                )
            }
            Refusal::Unavailable(why) => {
                tracing::warn!("authorization unavailable: {why}");
                let mut r = (
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the authorization server's keys are unavailable; try again shortly\n",
                )
                    .into_response();
                r.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
                return r;
            }
        };
        params.push(format!("resource_metadata=\"{}\"", self.metadata_url));
        let challenge = format!("Bearer {}", params.join(", "));
        let mut response = (status, body).into_response();
        if let Ok(v) = HeaderValue::from_str(&challenge) {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, v);
        }
        response
    }
}

/// Why a request was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// No `Authorization` header: 401 with the bare challenge.
    Missing,
    /// A token that does not validate: 401 `invalid_token`.
    InvalidToken(String),
    /// A valid token without a needed scope: 403 `insufficient_scope`.
    InsufficientScope(Vec<String>),
    /// The keys cannot be fetched: 503.
    Unavailable(String),
}

impl Refusal {
    /// A label for metrics.
    pub fn label(&self) -> &'static str {
        match self {
            Refusal::Missing => "missing",
            Refusal::InvalidToken(_) => "invalid_token",
            Refusal::InsufficientScope(_) => "insufficient_scope",
            Refusal::Unavailable(_) => "unavailable",
        }
    }
}

/// Quoted-string content of an auth-param (RFC 9110 §11.2).
fn quote(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}

/// The middleware in front of `/mcp`: authenticate, then (when tools have
/// scope rules) look into a `tools/call` for the tool's name and check its
/// rule. The principal goes into the request's extensions.
pub async fn guard(
    authz: Arc<Authorizer>,
    tool_scopes: Option<ToolScopes>,
    req: Request,
    next: axum::middleware::Next,
) -> Response {
    let principal = match authz.authenticate(req.headers()).await {
        Ok(p) => p,
        Err(refusal) => {
            crate::ops::record_auth_refusal(refusal.label());
            return authz.refuse(refusal);
        }
    };
    let mut req = req;
    if let Some(lookup) = tool_scopes
        && req.method() == Method::POST
    {
        let (parts, body) = req.into_parts();
        let bytes = match axum::body::to_bytes(body, MAX_PEEK_BYTES).await {
            Ok(b) => b,
            Err(_) => {
                return (StatusCode::PAYLOAD_TOO_LARGE, "request body too large\n").into_response();
            }
        };
        for (name, target) in called_tools(&bytes) {
            if let Err(needed) = scopes::check(&lookup(&name, target.as_deref()), &principal.scopes)
            {
                crate::ops::record_auth_refusal("insufficient_scope");
                return authz.refuse(Refusal::InsufficientScope(needed));
            }
        }
        req = Request::from_parts(parts, Body::from(bytes));
    }
    req.extensions_mut().insert(principal);
    next.run(req).await
}

/// The tools a JSON-RPC body calls (`tools/call`), single or batch: each
/// name, with the `name` among its arguments (what a call meta-tool calls).
fn called_tools(body: &[u8]) -> Vec<(String, Option<String>)> {
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return Vec::new();
    };
    let one = |m: &Value| {
        (m.get("method").and_then(Value::as_str) == Some("tools/call"))
            .then(|| m.pointer("/params/name").and_then(Value::as_str))
            .flatten()
            .map(|name| {
                let target = m
                    .pointer("/params/arguments/name")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                (name.to_string(), target)
            })
    };
    match &value {
        Value::Array(list) => list.iter().filter_map(one).collect(),
        m => one(m).into_iter().collect(),
    }
}

#[cfg(all(test, feature = "authorization"))]
#[path = "tests.rs"]
mod tests;
