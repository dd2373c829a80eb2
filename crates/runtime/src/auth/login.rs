//! Per-user identity towards the API: a person logs in to the API's own
//! authorization server (the authorization code flow with PKCE, or the
//! device flow), configured from the document's OAuth2 scheme
//! ([`LoginFlows`]) plus a client id/secret from the environment, and the
//! calls made for that person carry their access token, refreshed before
//! it expires.
//!
//! Tokens live in a [`TokenStore`] under a key naming the person, the
//! token endpoint and the client; the person a call is made for is a
//! task-local set around the call ([`as_user`]; `local` when none, as on
//! stdio where one person runs the server).
//!
//! Every HTTP exchange goes through the `oauth2` crate over this crate's
//! own `reqwest` client (time limit, size cap: [`super::oauth2`]).

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use oauth2::basic::BasicTokenType;
use oauth2::{
    AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, DeviceAuthorizationUrl,
    PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, RefreshToken, RevocationUrl, Scope,
    StandardDeviceAuthorizationResponse, StandardRevocableToken, StandardTokenResponse,
    TokenResponse as _, TokenUrl,
};
use serde::{Deserialize, Serialize};

use super::super::binding::{LoginFlows, SecurityScheme};
use super::AuthError;
use super::credentials::{Credentials, Secret, env_var};
use super::oauth2::TokenHttp;
use super::store::{StoredTokens, TokenStore};

tokio::task_local! {
    static USER: String;
}

/// The person of a call made without one (stdio: whoever runs the server).
pub const LOCAL_USER: &str = "local";

/// Longest time before expiry a token is refreshed.
const REFRESH_MARGIN: Duration = Duration::from_secs(60);

/// Runs `call` on behalf of `user` (their stored tokens are used).
pub async fn as_user<F: Future>(user: Option<String>, call: F) -> F::Output {
    match user {
        Some(user) => USER.scope(user, call).await,
        None => call.await,
    }
}

/// The person the running call is made for.
pub fn current_user() -> String {
    USER.try_with(Clone::clone)
        .unwrap_or_else(|_| LOCAL_USER.to_string())
}

/// Seconds since the Unix epoch (0 if the clock is before it): token
/// expiries, and the expiries of the server's sealed states.
pub fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// What logging in to one scheme needs: the client and the endpoints.
#[derive(Debug, Clone)]
pub struct LoginClient {
    /// The security scheme's name.
    pub scheme: String,
    client_id: String,
    client_secret: Option<Secret>,
    /// The authorization endpoint (authorization code flow).
    pub authorization_url: Option<String>,
    /// The token endpoint.
    pub token_url: String,
    /// The device authorization endpoint (device flow).
    pub device_authorization_url: Option<String>,
    /// The revocation endpoint (RFC 7009), used by `logout`.
    pub revocation_url: Option<String>,
    /// The scopes asked for.
    pub scopes: Vec<String>,
}

/// A login started in a browser, waiting for its callback.
#[derive(Debug)]
pub struct PendingLogin {
    /// Where the person goes to log in.
    pub url: String,
    /// The `state` the callback must bring back.
    pub state: String,
    verifier: PkceCodeVerifier,
    redirect_uri: String,
}

impl PendingLogin {
    /// The PKCE verifier, for a server that keeps it (sealed) between the
    /// redirect and the callback instead of in memory.
    pub fn verifier(&self) -> &str {
        self.verifier.secret()
    }

    /// A login resumed at its callback from what was kept of it.
    pub fn resumed(verifier: String, redirect_uri: String) -> Self {
        Self {
            url: String::new(),
            state: String::new(),
            verifier: PkceCodeVerifier::new(verifier),
            redirect_uri,
        }
    }
}

/// A device login started: what the person is shown.
#[derive(Debug)]
pub struct DeviceLogin {
    /// Where the person enters the code.
    pub verification_uri: String,
    /// The same, with the code filled in, when the server gives one.
    pub verification_uri_complete: Option<String>,
    /// The code to enter.
    pub user_code: String,
    details: StandardDeviceAuthorizationResponse,
}

/// The one field of a token response beyond OAuth 2's that this crate
/// reads: OpenID Connect's `id_token`, which says who logged in (the HTTP
/// server checks it before a person's login link is used).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct IdTokenField {
    /// The ID token (a JWT), when the server sent one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_token: Option<String>,
}

impl oauth2::ExtraTokenFields for IdTokenField {}

type Tokens = StandardTokenResponse<IdTokenField, BasicTokenType>;

/// The `oauth2` client with a token endpoint and, maybe, the others.
type ConfiguredClient = oauth2::Client<
    oauth2::basic::BasicErrorResponse,
    Tokens,
    oauth2::basic::BasicTokenIntrospectionResponse,
    StandardRevocableToken,
    oauth2::basic::BasicRevocationErrorResponse,
    oauth2::EndpointMaybeSet,
    oauth2::EndpointMaybeSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointMaybeSet,
    oauth2::EndpointSet,
>;

impl LoginClient {
    /// The login configuration of scheme `name`: the document's login
    /// flows, `_CLIENT_ID` (required) and `_CLIENT_SECRET` (optional: a
    /// public client) from `credentials`, and the overrides
    /// `_AUTHORIZATION_URL`, `_TOKEN_URL`, `_DEVICE_AUTHORIZATION_URL`,
    /// `_REVOCATION_URL`, `_SCOPES`. Endpoints the document does not give
    /// are read from its `oauth2MetadataUrl` (or `_METADATA_URL`) by
    /// [`LoginClient::discover`].
    pub fn from_scheme(
        name: &str,
        scheme: &SecurityScheme,
        credentials: &Credentials,
    ) -> Result<Self, String> {
        let SecurityScheme::OAuth2 { login, .. } = scheme else {
            return Err(format!(
                "security scheme `{name}` is not OAuth2: there is nothing to log in to"
            ));
        };
        let flows = login.as_deref().cloned().unwrap_or_default();
        let var = |field: &str| credentials.value(name, field).map(str::to_string);
        let client_id = var("CLIENT_ID").ok_or_else(|| {
            format!(
                "logging in to `{name}` needs the OAuth client id registered with its authorization server in {}",
                env_var(name, "CLIENT_ID")
            )
        })?;
        let LoginFlows {
            authorization_url,
            token_url,
            device_authorization_url,
            scopes,
            ..
        } = flows;
        let scopes = var("SCOPES")
            .map(|s| s.split_whitespace().map(str::to_string).collect())
            .unwrap_or(scopes);
        Ok(Self {
            scheme: name.to_string(),
            client_id,
            client_secret: var("CLIENT_SECRET").map(Secret),
            authorization_url: var("AUTHORIZATION_URL").or(authorization_url),
            token_url: var("TOKEN_URL").or(token_url).unwrap_or_default(),
            device_authorization_url: var("DEVICE_AUTHORIZATION_URL").or(device_authorization_url),
            revocation_url: var("REVOCATION_URL"),
            scopes,
        })
    }

    /// A client of an authorization server that no security scheme
    /// describes (the MCP authorization server, where the HTTP server
    /// checks who opened a login link); its endpoints come from
    /// [`LoginClient::discover`].
    pub fn new(
        name: &str,
        client_id: &str,
        client_secret: Option<String>,
        scopes: Vec<String>,
    ) -> Self {
        Self {
            scheme: name.to_string(),
            client_id: client_id.to_string(),
            client_secret: client_secret.map(Secret),
            authorization_url: None,
            token_url: String::new(),
            device_authorization_url: None,
            revocation_url: None,
            scopes,
        }
    }

    /// Fills the endpoints the document left out from RFC 8414 (or OpenID
    /// discovery) metadata at `metadata_url`; then checks a token endpoint
    /// is known.
    pub async fn discover(
        mut self,
        metadata_url: Option<&str>,
        http: &reqwest::Client,
    ) -> Result<Self, String> {
        if let Some(url) = metadata_url {
            let metadata: serde_json::Value = async {
                let response = http
                    .get(url)
                    .timeout(Duration::from_secs(30))
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                if !response.status().is_success() {
                    return Err(format!("HTTP {}", response.status()));
                }
                let body = response.bytes().await.map_err(|e| e.to_string())?;
                serde_json::from_slice(&body).map_err(|e| format!("not JSON ({e})"))
            }
            .await
            .map_err(|e| format!("cannot read the authorization server metadata at {url}: {e}"))?;
            let text = |key: &str| {
                metadata
                    .get(key)
                    .and_then(|v| v.as_str())
                    .map(str::to_string)
            };
            if self.authorization_url.is_none() {
                self.authorization_url = text("authorization_endpoint");
            }
            if self.token_url.is_empty() {
                self.token_url = text("token_endpoint").unwrap_or_default();
            }
            if self.device_authorization_url.is_none() {
                self.device_authorization_url = text("device_authorization_endpoint");
            }
            if self.revocation_url.is_none() {
                self.revocation_url = text("revocation_endpoint");
            }
        }
        if self.token_url.is_empty() {
            return Err(format!(
                "security scheme `{}` names no token endpoint: give its flows a tokenUrl, an oauth2MetadataUrl, or set {}",
                self.scheme,
                env_var(&self.scheme, "TOKEN_URL")
            ));
        }
        Ok(self)
    }

    /// Where this person's tokens are kept in a store.
    pub fn store_key(&self, user: &str) -> String {
        format!("{user}\n{}\n{}", self.token_url, self.client_id)
    }

    /// The client secret, for scrubbing messages.
    pub fn secret(&self) -> Option<&str> {
        self.client_secret.as_ref().map(Secret::expose)
    }

    fn client(&self) -> Result<ConfiguredClient, String> {
        let bad = |what: &str, url: &str, e: url::ParseError| {
            format!("the {what} URL `{url}` is invalid: {e}")
        };
        let token =
            TokenUrl::new(self.token_url.clone()).map_err(|e| bad("token", &self.token_url, e))?;
        let auth = self
            .authorization_url
            .as_ref()
            .map(|u| AuthUrl::new(u.clone()).map_err(|e| bad("authorization", u, e)))
            .transpose()?;
        let device = self
            .device_authorization_url
            .as_ref()
            .map(|u| {
                DeviceAuthorizationUrl::new(u.clone())
                    .map_err(|e| bad("device authorization", u, e))
            })
            .transpose()?;
        let revocation = self
            .revocation_url
            .as_ref()
            .map(|u| RevocationUrl::new(u.clone()).map_err(|e| bad("revocation", u, e)))
            .transpose()?;
        let mut client = oauth2::Client::new(ClientId::new(self.client_id.clone()))
            .set_token_uri(token)
            .set_auth_uri_option(auth)
            .set_device_authorization_url_option(device)
            .set_revocation_url_option(revocation);
        if let Some(secret) = &self.client_secret {
            client = client.set_client_secret(ClientSecret::new(secret.expose().to_string()));
        }
        Ok(client)
    }

    /// Starts an authorization code login with PKCE (S256) returning to
    /// `redirect_uri`.
    pub fn authorization_request(&self, redirect_uri: &str) -> Result<PendingLogin, String> {
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state) = self.authorize(redirect_uri, None, challenge, &[])?;
        Ok(PendingLogin {
            url,
            state,
            verifier,
            redirect_uri: redirect_uri.to_string(),
        })
    }

    /// The authorization URL for a login whose `state` and PKCE
    /// `verifier` the caller keeps (sealed, for a server whose instances
    /// share no memory), with extra parameters (e.g. OpenID's `nonce`).
    pub fn authorization_url(
        &self,
        redirect_uri: &str,
        state: String,
        verifier: &str,
        extra: &[(&str, &str)],
    ) -> Result<String, String> {
        let challenge = PkceCodeChallenge::from_code_verifier_sha256(&PkceCodeVerifier::new(
            verifier.to_string(),
        ));
        self.authorize(redirect_uri, Some(state), challenge, extra)
            .map(|(url, _)| url)
    }

    fn authorize(
        &self,
        redirect_uri: &str,
        state: Option<String>,
        challenge: PkceCodeChallenge,
        extra: &[(&str, &str)],
    ) -> Result<(String, String), String> {
        if self.authorization_url.is_none() {
            return Err(format!(
                "security scheme `{}` offers no authorization code flow (no authorizationUrl): try the device flow, or set {}",
                self.scheme,
                env_var(&self.scheme, "AUTHORIZATION_URL")
            ));
        }
        let redirect = RedirectUrl::new(redirect_uri.to_string())
            .map_err(|e| format!("the redirect URI `{redirect_uri}` is invalid: {e}"))?;
        let client = self.client()?.set_redirect_uri(redirect);
        let mut request = match state {
            Some(state) => client.authorize_url(move || CsrfToken::new(state)),
            None => client.authorize_url(CsrfToken::new_random),
        }
        .map_err(|e| e.to_string())?
        .add_scopes(self.scopes.iter().cloned().map(Scope::new))
        .set_pkce_challenge(challenge);
        for (name, value) in extra {
            request = request.add_extra_param(*name, *value);
        }
        let (url, state) = request.url();
        Ok((url.to_string(), state.secret().clone()))
    }

    /// Finishes an authorization code login: the `code` the callback
    /// brought, exchanged with the PKCE verifier.
    pub async fn exchange_code(
        &self,
        pending: PendingLogin,
        code: &str,
        http: &reqwest::Client,
    ) -> Result<StoredTokens, String> {
        let response = self.code_response(pending, code, http).await?;
        Ok(self.stored(&response, None))
    }

    /// [`LoginClient::exchange_code`] for an OpenID Connect sign-in: the
    /// ID token that came with the tokens (the tokens themselves are not
    /// kept).
    pub async fn exchange_code_for_id_token(
        &self,
        pending: PendingLogin,
        code: &str,
        http: &reqwest::Client,
    ) -> Result<String, String> {
        let response = self.code_response(pending, code, http).await?;
        response.extra_fields().id_token.clone().ok_or_else(|| {
            format!(
                "the authorization server of `{}` sent no ID token: ask for the `openid` scope of an OpenID Connect server",
                self.scheme
            )
        })
    }

    async fn code_response(
        &self,
        pending: PendingLogin,
        code: &str,
        http: &reqwest::Client,
    ) -> Result<Tokens, String> {
        let redirect = RedirectUrl::new(pending.redirect_uri.clone()).map_err(|e| e.to_string())?;
        let adapter = TokenHttp::new(http.clone());
        self.client()?
            .set_redirect_uri(redirect)
            .exchange_code(AuthorizationCode::new(code.to_string()))
            .set_pkce_verifier(pending.verifier)
            .request_async(&adapter)
            .await
            .map_err(|e| self.describe_error("the code exchange", &e))
    }

    /// Starts a device login.
    pub async fn start_device(&self, http: &reqwest::Client) -> Result<DeviceLogin, String> {
        if self.device_authorization_url.is_none() {
            return Err(format!(
                "security scheme `{}` offers no device flow (no deviceAuthorizationUrl, none in its metadata); set {} or log in with a browser",
                self.scheme,
                env_var(&self.scheme, "DEVICE_AUTHORIZATION_URL")
            ));
        }
        let adapter = TokenHttp::new(http.clone());
        let details: StandardDeviceAuthorizationResponse = self
            .client()?
            .exchange_device_code()
            .map_err(|e| e.to_string())?
            .add_scopes(self.scopes.iter().cloned().map(Scope::new))
            .request_async(&adapter)
            .await
            .map_err(|e| self.describe_error("the device authorization request", &e))?;
        Ok(DeviceLogin {
            verification_uri: details.verification_uri().to_string(),
            verification_uri_complete: details
                .verification_uri_complete()
                .map(|u| u.secret().clone()),
            user_code: details.user_code().secret().clone(),
            details,
        })
    }

    /// Waits (polling as the server says, at most `timeout`) until the
    /// person approved the device login.
    pub async fn finish_device(
        &self,
        device: DeviceLogin,
        timeout: Duration,
        http: &reqwest::Client,
    ) -> Result<StoredTokens, String> {
        let adapter = TokenHttp::new(http.clone());
        let response = self
            .client()?
            .exchange_device_access_token(&device.details)
            .request_async(&adapter, tokio::time::sleep, Some(timeout))
            .await
            .map_err(|e| self.describe_error("the device login", &e))?;
        Ok(self.stored(&response, None))
    }

    /// New tokens for `refresh_token`.
    pub async fn refresh(
        &self,
        refresh_token: &str,
        http: &reqwest::Client,
    ) -> Result<StoredTokens, String> {
        let adapter = TokenHttp::new(http.clone());
        let response = self
            .client()?
            .exchange_refresh_token(&RefreshToken::new(refresh_token.to_string()))
            .request_async(&adapter)
            .await
            .map_err(|e| self.describe_error("the token refresh", &e))?;
        Ok(self.stored(&response, Some(refresh_token)))
    }

    /// Revokes `tokens` at the revocation endpoint (the refresh token,
    /// which ends the grant, else the access token). `Ok(false)` when no
    /// revocation endpoint is known.
    pub async fn revoke(
        &self,
        tokens: &StoredTokens,
        http: &reqwest::Client,
    ) -> Result<bool, String> {
        if self.revocation_url.is_none() {
            return Ok(false);
        }
        let token = match &tokens.refresh_token {
            Some(r) => StandardRevocableToken::RefreshToken(RefreshToken::new(r.clone())),
            None => StandardRevocableToken::AccessToken(oauth2::AccessToken::new(
                tokens.access_token.clone(),
            )),
        };
        let url = self.revocation_url.as_deref().unwrap_or_default();
        if url.starts_with("http://") && loopback(url) {
            // RFC 7009 requires TLS and the `oauth2` crate enforces it; an
            // authorization server on this machine's loopback (a local
            // development server) is reached in the clear, as the RFC 8252
            // redirect is.
            return self
                .revoke_on_loopback(url, tokens, http)
                .await
                .map(|()| true);
        }
        let adapter = TokenHttp::new(http.clone());
        self.client()?
            .revoke_token(token)
            .map_err(|e| e.to_string())?
            .request_async(&adapter)
            .await
            .map_err(|e| self.describe_error("the revocation", &e))?;
        Ok(true)
    }

    /// The RFC 7009 request itself, for a loopback endpoint.
    async fn revoke_on_loopback(
        &self,
        url: &str,
        tokens: &StoredTokens,
        http: &reqwest::Client,
    ) -> Result<(), String> {
        let (token, hint) = match &tokens.refresh_token {
            Some(r) => (r.as_str(), "refresh_token"),
            None => (tokens.access_token.as_str(), "access_token"),
        };
        let body: String = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("token", token)
            .append_pair("token_type_hint", hint)
            .finish();
        let mut request = http
            .post(url)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .timeout(Duration::from_secs(30));
        request = match &self.client_secret {
            Some(secret) => request.basic_auth(&self.client_id, Some(secret.expose())),
            None => request,
        };
        let response = request
            .send()
            .await
            .map_err(|e| format!("the revocation failed: {e}"))?;
        if response.status().is_success() {
            Ok(())
        } else {
            Err(format!(
                "the revocation endpoint answered HTTP {}",
                response.status()
            ))
        }
    }

    fn stored(&self, response: &Tokens, previous_refresh: Option<&str>) -> StoredTokens {
        let now = now_secs();
        StoredTokens {
            access_token: response.access_token().secret().clone(),
            refresh_token: response
                .refresh_token()
                .map(|r| r.secret().clone())
                .or_else(|| previous_refresh.map(str::to_string)),
            expires_at: response.expires_in().map(|d| now + d.as_secs()),
            obtained_at: Some(now),
            scopes: response
                .scopes()
                .map(|s| s.iter().map(|x| x.to_string()).collect())
                .unwrap_or_else(|| self.scopes.clone()),
        }
    }

    fn describe_error<E: std::error::Error + 'static, T: oauth2::ErrorResponse + 'static>(
        &self,
        what: &str,
        error: &oauth2::RequestTokenError<E, T>,
    ) -> String {
        let text = match error {
            oauth2::RequestTokenError::ServerResponse(r) => {
                format!("the authorization server refused {what}: {r}")
            }
            oauth2::RequestTokenError::Request(e) => format!("{what} failed: {e}"),
            oauth2::RequestTokenError::Parse(e, _) => {
                format!("{what}: the answer is not a valid token response ({e})")
            }
            oauth2::RequestTokenError::Other(t) => format!("{what}: {t}"),
        };
        match self.secret() {
            Some(secret) => super::credentials::redact(&text, &[secret.to_string()]),
            None => text,
        }
    }
}

/// Whether `url`'s host is this machine's loopback.
fn loopback(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| match u.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        None => false,
    })
}

/// A scheme whose calls use the logged-in person's tokens.
pub(super) struct UserLogin {
    /// As configured; endpoints from metadata are filled in on first use.
    configured: LoginClient,
    metadata_url: Option<String>,
    discovered: tokio::sync::OnceCell<LoginClient>,
    pub(super) store: Arc<dyn TokenStore>,
    refreshing: tokio::sync::Mutex<()>,
}

impl UserLogin {
    pub(super) fn new(
        configured: LoginClient,
        metadata_url: Option<String>,
        store: Arc<dyn TokenStore>,
    ) -> Self {
        Self {
            configured,
            metadata_url,
            discovered: tokio::sync::OnceCell::new(),
            store,
            refreshing: tokio::sync::Mutex::new(()),
        }
    }

    /// The scheme's name.
    pub(super) fn scheme(&self) -> &str {
        &self.configured.scheme
    }

    /// The client with its endpoints (discovered once).
    async fn client(&self, http: &reqwest::Client) -> Result<&LoginClient, AuthError> {
        self.discovered
            .get_or_try_init(|| {
                self.configured
                    .clone()
                    .discover(self.metadata_url.as_deref(), http)
            })
            .await
            .map_err(|reason| AuthError::Login {
                scheme: self.configured.scheme.clone(),
                reason,
            })
    }

    /// The client with its endpoints, for a server running the login
    /// itself (the HTTP server's login pages).
    pub(super) async fn discovered_client(
        &self,
        http: &reqwest::Client,
    ) -> Result<LoginClient, AuthError> {
        self.client(http).await.cloned()
    }

    /// The current person's tokens (refreshed when about to expire), with
    /// the scopes they were granted; `None` when they have not logged in
    /// (or their login ended: expired without a refresh token, or refused
    /// on refresh).
    ///
    /// Processes sharing the store may share a login whose refresh tokens
    /// rotate: one refresh at a time, within this process (a mutex) and
    /// across them ([`TokenStore::lock`]), and after waiting, the store is
    /// read again (another holder may have refreshed). A refresh refused
    /// with `invalid_grant` reads the store once more and takes newer
    /// tokens another process stored; only the login that was refused is
    /// removed ([`TokenStore::remove_if`]), never newer tokens.
    pub(super) async fn tokens(
        &self,
        http: &reqwest::Client,
    ) -> Result<Option<StoredTokens>, AuthError> {
        let client = self.client(http).await?;
        let key = client.store_key(&current_user());
        let store_error = |e: super::store::StoreError| AuthError::Login {
            scheme: client.scheme.clone(),
            reason: e.to_string(),
        };
        let Some(tokens) = self.store.get(&key).await.map_err(store_error)? else {
            return Ok(None);
        };
        if fresh(&tokens) {
            return Ok(Some(tokens));
        }
        let _refreshing = self.refreshing.lock().await;
        let lock = match self.store.lock(&key).await {
            Ok(Some(lock)) => Some(lock),
            Ok(None) => {
                tracing::warn!(scheme = %client.scheme, "another process held this login's refresh past the wait; going on");
                None
            }
            Err(e) => {
                tracing::warn!(scheme = %client.scheme, "the refresh lock cannot be taken ({e}); going on");
                None
            }
        };
        let outcome = self.refresh(client, &key, http).await;
        if let Some(lock) = lock {
            lock.release().await;
        }
        outcome
    }

    /// The refresh itself, under the locks: the store read again first.
    async fn refresh(
        &self,
        client: &LoginClient,
        key: &str,
        http: &reqwest::Client,
    ) -> Result<Option<StoredTokens>, AuthError> {
        let store_error = |e: super::store::StoreError| AuthError::Login {
            scheme: client.scheme.clone(),
            reason: e.to_string(),
        };
        // Another call or process may have refreshed while this one waited.
        let Some(mut tokens) = self.store.get(key).await.map_err(store_error)? else {
            return Ok(None);
        };
        // Bounded: a refused refresh is retried once, with newer tokens
        // another process stored meanwhile.
        for _ in 0..2 {
            if fresh(&tokens) {
                return Ok(Some(tokens));
            }
            let Some(refresh_token) = tokens.refresh_token.clone() else {
                return Ok(None);
            };
            let reason = match client.refresh(&refresh_token, http).await {
                Ok(new) => {
                    self.store.put(key, &new).await.map_err(store_error)?;
                    return Ok(Some(new));
                }
                Err(reason) => reason,
            };
            tracing::warn!(scheme = %client.scheme, "token refresh failed: {reason}");
            if !reason.contains("invalid_grant") {
                return Err(AuthError::Token {
                    url: client.token_url.clone(),
                    reason,
                });
            }
            // Refused: newer tokens another process stored are used; a
            // login still the one refused has ended (log in again).
            match self.store.get(key).await.map_err(store_error)? {
                Some(current) if current != tokens => tokens = current,
                _ => {
                    let _ = self.store.remove_if(key, &tokens).await;
                    return Ok(None);
                }
            }
        }
        Ok(fresh(&tokens).then_some(tokens))
    }
}

/// The scopes of `needed` that `tokens` were not granted (strictly by
/// name: an authorization server whose scopes imply others is not known
/// to this check, so an operation asks for exactly what its document
/// says).
pub fn missing_scopes(tokens: &StoredTokens, needed: &[String]) -> Vec<String> {
    needed
        .iter()
        .filter(|s| !tokens.scopes.contains(s))
        .cloned()
        .collect()
}

/// Whether `tokens` can be sent now: not within `min(60 s, lifetime / 2)`
/// of expiry.
fn fresh(tokens: &StoredTokens) -> bool {
    let Some(expires_at) = tokens.expires_at else {
        return true;
    };
    let lifetime = tokens
        .obtained_at
        .map_or(REFRESH_MARGIN.as_secs() * 2, |o| {
            expires_at.saturating_sub(o)
        });
    let margin = REFRESH_MARGIN.as_secs().min(lifetime / 2);
    now_secs() + margin < expires_at
}

#[cfg(test)]
#[path = "login_tests.rs"]
mod tests;
