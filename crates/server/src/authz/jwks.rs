//! The authorization server's signing keys (a JWKS), fetched over HTTP,
//! cached, and fetched again when a token names a key the cache does not
//! hold (keys rotate) — at most once per `min_refresh`, so a stream of
//! tokens with made-up key ids cannot make this server hammer the issuer.
//!
//! Where the JWKS lives comes from `--jwks-url`, or else from the
//! authorization server's metadata (RFC 8414
//! `/.well-known/oauth-authorization-server`, then OpenID Connect's
//! `/.well-known/openid-configuration`), whose `issuer` must match.

use std::sync::Arc;
use std::time::{Duration, Instant};

use arc_swap::ArcSwap;
use jsonwebtoken::jwk::{Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde_json::Value;

use openapi2mcp_runtime::http::read_bounded;
use openapi2mcp_runtime::wire::redact_url;

/// One verification key.
pub struct Key {
    /// `kid`, when the JWKS gives one.
    pub kid: Option<String>,
    /// `alg`, when the JWKS pins one.
    pub alg: Option<Algorithm>,
    /// The key itself.
    pub key: DecodingKey,
}

/// The keys from one fetch.
#[derive(Default)]
pub struct KeySet {
    /// Every usable signing key.
    pub keys: Vec<Key>,
    /// When they were fetched; `None` before the first successful fetch.
    pub fetched: Option<Instant>,
}

impl KeySet {
    /// The keys a token with header `kid` may have been signed with: the one
    /// with that id, or every key when the token names none.
    pub fn candidates<'a>(&'a self, kid: Option<&'a str>) -> impl Iterator<Item = &'a Key> + 'a {
        self.keys
            .iter()
            .filter(move |k| kid.is_none() || k.kid.as_deref() == kid)
    }
}

/// Why the keys could not be fetched.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct JwksError(pub String);

/// Where the JWKS comes from.
#[derive(Debug, Clone)]
pub enum JwksSource {
    /// A fixed URL (`--jwks-url`).
    Url(String),
    /// Discovered from the issuer's metadata.
    Discover {
        /// The issuer identifier.
        issuer: String,
    },
}

struct FetchState {
    last_attempt: Option<Instant>,
    jwks_url: Option<String>,
}

/// The largest JWKS or authorization server metadata document read by
/// default: real ones are a few kilobytes.
pub const DEFAULT_MAX_JWKS_BYTES: usize = 1 << 20;

/// The cached keys of one issuer.
pub struct JwksCache {
    client: reqwest::Client,
    source: JwksSource,
    keys: ArcSwap<KeySet>,
    fetch: tokio::sync::Mutex<FetchState>,
    min_refresh: Duration,
    max_age: Duration,
    max_bytes: usize,
}

impl JwksCache {
    /// A cache that fetches from `source`; keys older than `max_age` are
    /// fetched again on next use, and no two fetches start less than
    /// `min_refresh` apart.
    pub fn new(source: JwksSource, min_refresh: Duration, max_age: Duration) -> Self {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::limited(3))
            .build()
            .unwrap_or_default();
        Self {
            client,
            source,
            keys: ArcSwap::from_pointee(KeySet::default()),
            fetch: tokio::sync::Mutex::new(FetchState {
                last_attempt: None,
                jwks_url: None,
            }),
            min_refresh,
            max_age,
            max_bytes: DEFAULT_MAX_JWKS_BYTES,
        }
    }

    /// This cache, reading at most `max_bytes` of each JWKS or metadata
    /// document (default [`DEFAULT_MAX_JWKS_BYTES`]).
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// The current keys, fetched first when there are none yet or they are
    /// older than `max_age` (a failed fetch keeps the old keys).
    pub async fn keys(&self) -> Result<Arc<KeySet>, JwksError> {
        let current = self.keys.load_full();
        let stale = current.fetched.is_none_or(|t| t.elapsed() >= self.max_age);
        if !stale {
            return Ok(current);
        }
        match self.refresh(&current).await {
            Ok(keys) => Ok(keys),
            Err(e) if current.fetched.is_some() => {
                tracing::warn!("JWKS refresh failed, keeping the cached keys: {e}");
                Ok(current)
            }
            Err(e) => Err(e),
        }
    }

    /// Fetches again because a token names a key `seen` lacks; `None` when
    /// the last fetch was under `min_refresh` ago (the token is then refused).
    pub async fn refresh_for_unknown_key(&self, seen: &Arc<KeySet>) -> Option<Arc<KeySet>> {
        match self.refresh(seen).await {
            Ok(keys) if !Arc::ptr_eq(&keys, seen) => Some(keys),
            Ok(_) => None,
            Err(e) => {
                tracing::warn!("JWKS refresh for an unknown key failed: {e}");
                None
            }
        }
    }

    /// One fetch, unless another caller fetched since `seen` was current or
    /// the last attempt was under `min_refresh` ago; returns the keys in use
    /// afterwards.
    async fn refresh(&self, seen: &Arc<KeySet>) -> Result<Arc<KeySet>, JwksError> {
        let mut state = self.fetch.lock().await;
        let now = self.keys.load_full();
        if !Arc::ptr_eq(&now, seen) {
            return Ok(now);
        }
        if state
            .last_attempt
            .is_some_and(|t| t.elapsed() < self.min_refresh)
        {
            return if now.fetched.is_some() {
                Ok(now)
            } else {
                Err(JwksError(
                    "the authorization server's keys could not be fetched (retrying shortly)"
                        .into(),
                ))
            };
        }
        state.last_attempt = Some(Instant::now());
        let url = match &state.jwks_url {
            Some(u) => u.clone(),
            None => {
                let u = self.jwks_url().await?;
                state.jwks_url = Some(u.clone());
                u
            }
        };
        let body = self.get_json(&url).await?;
        let shown = redact_url(&url);
        let keys = parse_jwks(&body).map_err(|e| JwksError(format!("JWKS at {shown}: {e}")))?;
        tracing::info!(url = %shown, keys = keys.keys.len(), "fetched the authorization server's keys");
        let keys = Arc::new(keys);
        self.keys.store(Arc::clone(&keys));
        Ok(keys)
    }

    async fn jwks_url(&self) -> Result<String, JwksError> {
        let issuer = match &self.source {
            JwksSource::Url(u) => return Ok(u.clone()),
            JwksSource::Discover { issuer } => issuer,
        };
        let mut last = String::new();
        for url in discovery_urls(issuer)? {
            match self.get_json(&url).await {
                Ok(meta) => {
                    let named = meta.get("issuer").and_then(Value::as_str).unwrap_or("");
                    if named.trim_end_matches('/') != issuer.trim_end_matches('/') {
                        return Err(JwksError(format!(
                            "authorization server metadata at {} names issuer `{named}`, not `{issuer}`",
                            redact_url(&url)
                        )));
                    }
                    return meta
                        .get("jwks_uri")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .ok_or_else(|| {
                            JwksError(format!(
                                "{} has no `jwks_uri`; give --jwks-url",
                                redact_url(&url)
                            ))
                        });
                }
                Err(e) => last = e.0,
            }
        }
        Err(JwksError(format!(
            "cannot discover the JWKS of issuer `{issuer}` ({last}); give --jwks-url"
        )))
    }

    /// GETs a JSON document, reading at most `max_bytes` of it (checked
    /// while reading: an endless answer is cut, not buffered).
    async fn get_json(&self, url: &str) -> Result<Value, JwksError> {
        let shown = redact_url(url);
        let res = self
            .client
            .get(url)
            .header("accept", "application/json")
            .send()
            .await
            .map_err(|e| JwksError(format!("GET {shown}: {}", e.without_url())))?;
        if !res.status().is_success() {
            return Err(JwksError(format!("GET {shown}: HTTP {}", res.status())));
        }
        let bytes = read_bounded(res, self.max_bytes)
            .await
            .map_err(|e| JwksError(format!("GET {shown}: {e}")))?;
        serde_json::from_slice(&bytes).map_err(|e| JwksError(format!("GET {shown}: not JSON: {e}")))
    }
}

/// RFC 8414 §3's metadata URL for `issuer` (well-known segment before the
/// path), then OpenID Connect Discovery's (appended to the issuer).
fn discovery_urls(issuer: &str) -> Result<Vec<String>, JwksError> {
    let parsed = url::Url::parse(issuer)
        .map_err(|e| JwksError(format!("issuer `{issuer}` is not a URL: {e}")))?;
    let path = parsed.path().trim_end_matches('/');
    let origin = parsed.origin().ascii_serialization();
    Ok(vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}{path}/.well-known/openid-configuration"),
    ])
}

/// The signing keys of a JWKS document; keys meant for encryption, or of
/// kinds this server cannot verify with, are skipped.
pub fn parse_jwks(body: &Value) -> Result<KeySet, String> {
    let list = body
        .get("keys")
        .and_then(Value::as_array)
        .ok_or("no `keys` array")?;
    let mut keys = Vec::new();
    for entry in list {
        let Ok(jwk) = serde_json::from_value::<Jwk>(entry.clone()) else {
            tracing::debug!("JWKS entry skipped (unsupported key type)");
            continue;
        };
        if matches!(jwk.common.public_key_use, Some(PublicKeyUse::Encryption)) {
            continue;
        }
        let alg = jwk
            .common
            .key_algorithm
            .and_then(|a| a.to_string().parse::<Algorithm>().ok());
        match DecodingKey::from_jwk(&jwk) {
            Ok(key) => keys.push(Key {
                kid: jwk.common.key_id.clone(),
                alg,
                key,
            }),
            Err(e) => tracing::debug!("JWKS entry skipped: {e}"),
        }
    }
    Ok(KeySet {
        keys,
        fetched: Some(Instant::now()),
    })
}

#[cfg(test)]
#[path = "jwks_tests.rs"]
mod tests;
