//! OAuth2 client credentials: the token request (through the `oauth2`
//! crate, over this crate's own `reqwest` client) and a per-scope-set cache
//! that fetches once however many calls wait.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use oauth2::basic::{BasicClient, BasicErrorResponse};
use oauth2::{ClientId, ClientSecret, RequestTokenError, Scope, TokenResponse as _, TokenUrl};

use super::super::wire::error_chain;
use super::AuthError;
use super::credentials::{Secret, redact};

/// Longest time a token is refreshed before it expires.
const REFRESH_MARGIN: Duration = Duration::from_secs(60);
/// Time limit of one token request.
const TOKEN_TIMEOUT: Duration = Duration::from_secs(30);
/// Largest token endpoint answer read.
const TOKEN_BODY_CAP: usize = 64 * 1024;

/// One scheme's client credentials and its token cache.
pub(super) struct ClientCredentials {
    pub(super) client_id: String,
    pub(super) client_secret: Secret,
    /// `_TOKEN_URL` or the document's URL, possibly relative.
    pub(super) token_url: String,
    /// The variable that overrides the token URL, for error messages.
    pub(super) url_variable: String,
    /// `_SCOPES`, overriding the requirement's scopes.
    pub(super) scopes: Option<Vec<String>>,
    /// One slot per (sorted, deduplicated) scope set.
    pub(super) slots: Mutex<BTreeMap<Vec<String>, Arc<TokenSlot>>>,
}

/// The cached token of one scope set; `fetching` is held while a token is
/// requested so concurrent callers wait for that one request.
#[derive(Default)]
pub(super) struct TokenSlot {
    fetching: tokio::sync::Mutex<()>,
    current: Mutex<Option<CachedToken>>,
}

struct CachedToken {
    pub(super) value: Secret,
    /// When to fetch a new one; `None`: never.
    refresh_at: Option<Instant>,
}

/// Locks `mutex`, recovering the data if a holder panicked (every critical
/// section here leaves the data consistent).
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl TokenSlot {
    /// The cached token, if it is not due for refresh.
    fn current(&self) -> Option<String> {
        let current = lock(&self.current);
        current
            .as_ref()
            .filter(|t| t.refresh_at.is_none_or(|at| Instant::now() < at))
            .map(|t| t.value.expose().to_string())
    }

    fn store(&self, token: CachedToken) -> String {
        let value = token.value.expose().to_string();
        *lock(&self.current) = Some(token);
        value
    }

    pub(super) fn cached(&self) -> Option<String> {
        lock(&self.current)
            .as_ref()
            .map(|t| t.value.expose().to_string())
    }
}

/// When a token obtained at `obtained` and valid for `lifetime` should be
/// refetched: `min(60 s, lifetime / 2)` early. `None` (keep it) without a
/// lifetime or when the instant is out of range.
pub(super) fn refresh_at(obtained: Instant, lifetime: Option<Duration>) -> Option<Instant> {
    let lifetime = lifetime?;
    obtained.checked_add(lifetime - REFRESH_MARGIN.min(lifetime / 2))
}

impl ClientCredentials {
    /// A valid access token for `scopes`, from the cache or fetched once.
    pub(super) async fn access_token(
        &self,
        scopes: &[String],
        http: &reqwest::Client,
        request_url: &str,
    ) -> Result<String, AuthError> {
        let scopes = self.effective_scopes(scopes);
        let slot = self.slot(&scopes);
        if let Some(token) = slot.current() {
            return Ok(token);
        }
        let _fetching = slot.fetching.lock().await;
        if let Some(token) = slot.current() {
            return Ok(token);
        }
        let token = self.fetch(&scopes, http, request_url).await?;
        Ok(slot.store(token))
    }

    /// `_SCOPES` when set, else the requirement's; sorted and deduplicated
    /// so equal sets share a cache slot.
    fn effective_scopes(&self, requested: &[String]) -> Vec<String> {
        let mut scopes = self.scopes.clone().unwrap_or_else(|| requested.to_vec());
        scopes.sort();
        scopes.dedup();
        scopes
    }

    fn slot(&self, scopes: &[String]) -> Arc<TokenSlot> {
        Arc::clone(lock(&self.slots).entry(scopes.to_vec()).or_default())
    }

    pub(super) fn cached_tokens(&self) -> Vec<String> {
        lock(&self.slots)
            .values()
            .filter_map(|slot| slot.cached())
            .collect()
    }

    /// Runs the client-credentials grant.
    async fn fetch(
        &self,
        scopes: &[String],
        http: &reqwest::Client,
        request_url: &str,
    ) -> Result<CachedToken, AuthError> {
        let url = self.resolve_url(request_url)?;
        let client = BasicClient::new(ClientId::new(self.client_id.clone()))
            .set_client_secret(ClientSecret::new(self.client_secret.expose().to_string()))
            .set_token_uri(TokenUrl::from_url(url.clone()));
        let adapter = TokenHttp {
            client: http.clone(),
        };
        let obtained = Instant::now();
        let response = client
            .exchange_client_credentials()
            .add_scopes(scopes.iter().cloned().map(Scope::new))
            .request_async(&adapter)
            .await
            .map_err(|e| self.token_error(&url, &e))?;
        Ok(CachedToken {
            value: Secret(response.access_token().secret().clone()),
            refresh_at: refresh_at(obtained, response.expires_in()),
        })
    }

    /// The token URL, a relative one resolved against the request URL.
    fn resolve_url(&self, request_url: &str) -> Result<url::Url, AuthError> {
        let parsed = match url::Url::parse(&self.token_url) {
            Err(url::ParseError::RelativeUrlWithoutBase) => {
                url::Url::parse(request_url).and_then(|base| base.join(&self.token_url))
            }
            other => other,
        };
        parsed.map_err(|e| AuthError::Token {
            url: self.token_url.clone(),
            reason: format!(
                "the token URL is invalid ({e}); set {} to the token endpoint",
                self.url_variable
            ),
        })
    }

    fn token_error(
        &self,
        url: &url::Url,
        error: &RequestTokenError<TokenHttpError, BasicErrorResponse>,
    ) -> AuthError {
        let reason = match error {
            RequestTokenError::ServerResponse(response) => {
                format!("the token endpoint refused the request: {response}")
            }
            RequestTokenError::Request(e) => format!("the request failed: {e}"),
            RequestTokenError::Parse(e, _) => {
                format!("the answer is not a valid token response ({e})")
            }
            RequestTokenError::Other(text) => text.clone(),
        };
        AuthError::Token {
            url: url.to_string(),
            reason: redact(&reason, &[self.client_secret.expose().to_string()]),
        }
    }
}

/// `oauth2`'s HTTP client: our own `reqwest::Client`, a time limit and a
/// size cap.
pub(super) struct TokenHttp {
    pub(super) client: reqwest::Client,
}

impl TokenHttp {
    /// The adapter over `client`.
    pub(super) fn new(client: reqwest::Client) -> Self {
        Self { client }
    }
}

/// Why a token request got no usable HTTP answer.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(super) struct TokenHttpError(String);

type TokenFuture<'c> =
    Pin<Box<dyn Future<Output = Result<oauth2::HttpResponse, TokenHttpError>> + Send + 'c>>;

impl<'c> oauth2::AsyncHttpClient<'c> for TokenHttp {
    type Error = TokenHttpError;
    type Future = TokenFuture<'c>;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(exchange(self.client.clone(), request))
    }
}

/// Sends one token request. A non-200 answer that is not JSON becomes an
/// error carrying the status and the start of the body (`oauth2` would only
/// report a parse failure).
async fn exchange(
    client: reqwest::Client,
    request: oauth2::HttpRequest,
) -> Result<oauth2::HttpResponse, TokenHttpError> {
    let request =
        reqwest::Request::try_from(request).map_err(|e| TokenHttpError(error_chain(&e)))?;
    let send = async {
        let mut response = client.execute(request).await?;
        let body = read_capped(&mut response).await?;
        Ok::<_, reqwest::Error>((response, body))
    };
    let (response, body) = tokio::time::timeout(TOKEN_TIMEOUT, send)
        .await
        .map_err(|_| {
            TokenHttpError(format!(
                "no answer within {} seconds",
                TOKEN_TIMEOUT.as_secs()
            ))
        })?
        .map_err(|e| TokenHttpError(error_chain(&e)))?;
    let body = body.ok_or_else(|| {
        TokenHttpError(format!("the answer is larger than {TOKEN_BODY_CAP} bytes"))
    })?;
    let status = response.status();
    if status != reqwest::StatusCode::OK
        && serde_json::from_slice::<serde_json::Value>(&body).is_err()
    {
        return Err(TokenHttpError(format!("HTTP {status}: {}", snippet(&body))));
    }
    let mut builder = oauth2::http::Response::builder().status(status);
    for (name, value) in response.headers() {
        builder = builder.header(name, value);
    }
    builder
        .body(body)
        .map_err(|e| TokenHttpError(e.to_string()))
}

/// The body, or `None` when it exceeds [`TOKEN_BODY_CAP`].
async fn read_capped(response: &mut reqwest::Response) -> Result<Option<Vec<u8>>, reqwest::Error> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > TOKEN_BODY_CAP {
            return Ok(None);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Some(body))
}

/// The first 200 characters of `body`, on one line.
fn snippet(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}
