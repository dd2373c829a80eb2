//! Each person's own login to the API on the HTTP server (many people,
//! one server): the MCP 2026-07-28 "URL mode elicitation for OAuth flows"
//! pattern.
//!
//! A call that needs the caller's own login to the API (an OAuth2 scheme
//! with an authorization code flow, see [`openapi2mcp_runtime::auth::login`])
//! and finds none is answered with a URL elicitation pointing at this
//! server's `/oauth/connect` page, carrying a sealed ticket naming the
//! person (the validated MCP token's `iss` and `sub`) and the scheme.
//! Opening it:
//! 1. `/oauth/connect` sends the browser to sign in at the MCP
//!    authorization server (`--oauth-issuer`, OpenID Connect, client
//!    `OPENAPI2MCP_SIGNIN_CLIENT_ID`), so that the person opening the link
//!    is known: a link forwarded to someone else (the phishing the
//!    specification warns of) is refused at step 2.
//! 2. `/oauth/signed-in` checks that it is reached by the browser that
//!    opened the link (below), then the ID token (signature, issuer,
//!    audience, nonce) and that its `sub` is the ticket's person, and sends
//!    the browser to the API's authorization server (authorization code +
//!    PKCE).
//! 3. `/oauth/callback` checks the sealed `state` and the browser again,
//!    exchanges the code, and keeps the tokens in the token store under
//!    that person only. They never reach the MCP client.
//!
//! Every step is bound to the browser that started the flow (login CSRF):
//! `/oauth/connect` (and `/oauth/disconnect`) sets a random cookie whose
//! SHA-256 is sealed in the sign-in's `state` and again in the API login's;
//! `/oauth/signed-in` and `/oauth/callback` refuse a request whose cookie
//! does not match, before any code is exchanged. So a person who stops
//! before a redirect back and sends the URL to someone else cannot have
//! that person's browser finish the flow (and store *their* API account
//! under the first person): the page says why and nothing is stored. A
//! browser reuses its cookie for flows it runs at once (two tabs).
//!
//! Everything a step needs travels sealed ([`super::seal`]) in the
//! `state` parameters: instances sharing `OPENAPI2MCP_STATE_KEY` and the
//! token store can serve any step of any person's login.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::Bridge;
use super::authz::Authorizer;
use super::seal::sha256_hex;
use openapi2mcp_runtime::auth::login::LoginClient;
use openapi2mcp_runtime::auth::login::now_secs;

/// Key of the login question in `inputRequests` / `inputResponses`.
pub const LOGIN_KEY: &str = "login";

/// The client the server signs people in with at the MCP authorization
/// server (to know who opened a login link); `_SECRET` beside it.
pub const SIGNIN_CLIENT_ID_ENV: &str = openapi2mcp_runtime::settings::SIGNIN_CLIENT_ID;
/// The secret of [`SIGNIN_CLIENT_ID_ENV`] (none: a public client).
pub const SIGNIN_CLIENT_SECRET_ENV: &str = openapi2mcp_runtime::settings::SIGNIN_CLIENT_SECRET;

/// How long a login link, and each step of it, stays usable.
pub(super) const LINK_TTL: Duration = Duration::from_secs(900);

/// How long a retried call waits for the person to finish logging in
/// before it asks again.
pub(super) const LOGIN_WAIT: Duration = Duration::from_secs(60);

/// How often the waiting call looks at the token store.
pub(super) const LOGIN_POLL: Duration = Duration::from_millis(400);

/// The cookie binding each step to the browser that opened the link.
const COOKIE: &str = "openapi2mcp_login";

/// Its name on an `https` server: the `__Host-` prefix makes browsers
/// refuse it from a sibling subdomain or over plain HTTP (cookie tossing
/// would otherwise let a neighbour plant a value of its choosing).
const SECURE_COOKIE: &str = "__Host-openapi2mcp_login";

/// Associated data of the three sealed values.
pub(super) const TICKET_AAD: &[u8] = b"openapi2mcp/login/ticket/v1";
const SIGNIN_AAD: &[u8] = b"openapi2mcp/login/signin/v1";
const API_AAD: &[u8] = b"openapi2mcp/login/api/v1";

/// The login link's ticket.
#[derive(Serialize, Deserialize)]
pub(super) struct Ticket {
    /// The person.
    pub(super) p: String,
    /// The scheme.
    pub(super) s: String,
    /// The scopes to ask for (a step-up); empty: the scheme's own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) c: Vec<String>,
    /// Expiry, seconds since the epoch.
    pub(super) x: u64,
}

/// The state of the sign-in at the MCP authorization server.
#[derive(Serialize, Deserialize)]
struct SignIn {
    p: String,
    s: String,
    /// The OpenID nonce.
    n: String,
    /// The PKCE verifier.
    v: String,
    /// The scopes to ask the API's authorization server for (step-up).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    c: Vec<String>,
    /// A sign-in to log out (`/oauth/disconnect`), not to log in.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    d: bool,
    /// SHA-256 of the browser's cookie value.
    b: String,
    x: u64,
}

/// The state of the login at the API's authorization server.
#[derive(Serialize, Deserialize)]
struct ApiLogin {
    p: String,
    s: String,
    v: String,
    /// SHA-256 of the browser's cookie value.
    b: String,
    x: u64,
}

pub(super) fn random_token() -> String {
    use base64::Engine as _;
    let mut bytes = [0u8; 24];
    if super::seal::os_random(&mut bytes).is_err() {
        // Without randomness a guessable value would be worse than none;
        // the empty value makes the step fail closed.
        return String::new();
    }
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Where the login pages are: the server's public base URL (from
/// `--public-url`, else the origin of `--resource-url`).
#[derive(Debug, Clone)]
pub struct LoginPages {
    /// `https://mcp.example.com` (no trailing slash).
    pub base: String,
}

impl LoginPages {
    /// The redirect URI to register with the API's authorization server.
    pub fn callback(&self) -> String {
        format!("{}/oauth/callback", self.base)
    }

    /// The redirect URI to register with the MCP authorization server.
    pub fn signed_in(&self) -> String {
        format!("{}/oauth/signed-in", self.base)
    }

    pub(super) fn connect(&self, ticket: &str) -> String {
        format!("{}/oauth/connect?ticket={ticket}", self.base)
    }

    fn secure(&self) -> bool {
        self.base.starts_with("https://")
    }

    /// The binding cookie's name and path.
    fn cookie(&self) -> (&'static str, &'static str) {
        if self.secure() {
            (SECURE_COOKIE, "/")
        } else {
            (COOKIE, "/oauth")
        }
    }
}

/// What the login pages need.
pub struct LoginState {
    bridge: Bridge,
    pages: LoginPages,
    authz: Arc<Authorizer>,
    signin_id: String,
    signin_secret: Option<String>,
    signin: tokio::sync::OnceCell<LoginClient>,
    http: reqwest::Client,
}

impl LoginState {
    /// The pages' state; the sign-in client comes from the environment.
    pub fn from_env(
        bridge: Bridge,
        pages: LoginPages,
        authz: Arc<Authorizer>,
    ) -> Result<Self, String> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let signin_id = var(SIGNIN_CLIENT_ID_ENV).ok_or_else(|| {
            format!(
                "people log in to the API through this server ({} needs each caller's own login), so it must know who opens a login link: register a client for it with the MCP authorization server {} (redirect URI {}) and set {SIGNIN_CLIENT_ID_ENV} (and {SIGNIN_CLIENT_SECRET_ENV} for a confidential client)",
                "an OAuth2 scheme with an authorization code flow",
                authz.issuer(),
                pages.signed_in()
            )
        })?;
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| format!("cannot create the HTTP client: {e}"))?;
        Ok(Self {
            bridge,
            pages,
            authz,
            signin_id,
            signin_secret: var(SIGNIN_CLIENT_SECRET_ENV),
            signin: tokio::sync::OnceCell::new(),
            http,
        })
    }

    /// The sign-in client, its endpoints from the issuer's metadata.
    async fn signin(&self) -> Result<&LoginClient, String> {
        self.signin
            .get_or_try_init(|| async {
                let issuer = self.authz.issuer().trim_end_matches('/');
                let client = LoginClient::new(
                    "sign-in",
                    &self.signin_id,
                    self.signin_secret.clone(),
                    vec!["openid".into()],
                );
                let mut last = String::new();
                for metadata in [
                    format!("{issuer}/.well-known/openid-configuration"),
                    format!("{issuer}/.well-known/oauth-authorization-server"),
                ] {
                    match client.clone().discover(Some(&metadata), &self.http).await {
                        Ok(c) if c.authorization_url.is_some() => return Ok(c),
                        Ok(_) => last = format!("{metadata} names no authorization endpoint"),
                        Err(e) => last = e,
                    }
                }
                Err(last)
            })
            .await
    }
}

/// The routes of the login pages.
pub fn router(state: Arc<LoginState>) -> axum::Router {
    axum::Router::new()
        .route("/oauth/connect", axum::routing::get(connect))
        .route("/oauth/disconnect", axum::routing::get(disconnect))
        .route("/oauth/signed-in", axum::routing::get(signed_in))
        .route("/oauth/callback", axum::routing::get(callback))
        .with_state(state)
}

/// A page saying `text` (escaped), with `status`.
fn page(status: StatusCode, text: &str) -> Response {
    let escaped = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;");
    let mut response = (
        status,
        Html(format!(
            "<!doctype html><meta charset=utf-8><title>openapi2mcp</title><p>{escaped}</p>"
        )),
    )
        .into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

fn redirect(to: &str, cookie: Option<String>) -> Response {
    let mut response = StatusCode::FOUND.into_response();
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(to) {
        headers.insert(header::LOCATION, v);
    }
    if let Some(c) = cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        headers.insert(header::SET_COOKIE, c);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

fn expired() -> Response {
    page(
        StatusCode::BAD_REQUEST,
        "This login link has expired or is not one of this server's. Ask your assistant to call the tool again for a new one.",
    )
}

/// Step 1: the link the person opened; off to sign in.
async fn connect(
    State(state): State<Arc<LoginState>>,
    headers: HeaderMap,
    Query(query): Query<std::collections::BTreeMap<String, String>>,
) -> Response {
    let sealer = &state.bridge.shared.sealer;
    let Some(ticket) = query
        .get("ticket")
        .and_then(|t| sealer.open(t, TICKET_AAD).ok())
        .and_then(|b| serde_json::from_slice::<Ticket>(&b).ok())
        .filter(|t| t.x >= now_secs())
    else {
        return expired();
    };
    start_signin(&state, &headers, ticket.p, ticket.s, ticket.c, false).await
}

/// `/oauth/disconnect`: a person ends their logins to the API (their
/// tokens removed and revoked), after signing in so that it is theirs.
async fn disconnect(State(state): State<Arc<LoginState>>, headers: HeaderMap) -> Response {
    start_signin(
        &state,
        &headers,
        String::new(),
        String::new(),
        Vec::new(),
        true,
    )
    .await
}

/// The browser's binding cookie: the one it already holds (a flow under
/// way in another tab keeps working), else a fresh random value. Empty
/// only when the system random generator failed, which later steps
/// refuse.
fn browser_binding(pages: &LoginPages, headers: &HeaderMap) -> String {
    match cookie(headers, pages.cookie().0) {
        Some(value) if value.len() == BINDING_CHARS && value.bytes().all(is_base64url) => {
            value.to_string()
        }
        _ => random_token(),
    }
}

/// Length of a [`random_token`]: 24 bytes in unpadded base64url.
const BINDING_CHARS: usize = 32;

fn is_base64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// The `Set-Cookie` value binding the flow to this browser.
/// (Lax: the redirects back from the authorization servers are top-level
/// GET navigations, which carry it.) It is not cleared when a flow ends:
/// another tab's flow may still need it; it expires with the link.
fn binding_cookie(pages: &LoginPages, browser: &str) -> String {
    let (name, path) = pages.cookie();
    format!(
        "{name}={browser}; Path={path}; Max-Age={}; HttpOnly; SameSite=Lax{}",
        LINK_TTL.as_secs(),
        if pages.secure() { "; Secure" } else { "" }
    )
}

/// Whether the request's cookie is the one whose digest is `sealed`.
fn same_browser(pages: &LoginPages, headers: &HeaderMap, sealed: &str) -> bool {
    !sealed.is_empty()
        && cookie(headers, pages.cookie().0)
            .is_some_and(|c| !c.is_empty() && sha256_hex(c.as_bytes()) == sealed)
}

/// The page refusing a step reached from another browser than the one
/// that opened the link.
fn other_browser() -> Response {
    page(
        StatusCode::FORBIDDEN,
        "This login was started in another browser: it was not used, and nothing was stored. Only the browser that opened the login link can finish it; if you were sent this page by someone, close it. To log in, open the link your own assistant gave you.",
    )
}

/// Off to sign in at the MCP authorization server, the rest of the flow
/// sealed in the `state`.
async fn start_signin(
    state: &LoginState,
    headers: &HeaderMap,
    person: String,
    scheme: String,
    scopes: Vec<String>,
    logout: bool,
) -> Response {
    let sealer = &state.bridge.shared.sealer;
    let signin = match state.signin().await {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!("login pages: the MCP authorization server cannot be used: {e}");
            return page(
                StatusCode::SERVICE_UNAVAILABLE,
                "The sign-in server cannot be reached just now; try again shortly.",
            );
        }
    };
    let nonce = random_token();
    let verifier = random_verifier();
    let browser = browser_binding(&state.pages, headers);
    let sealed = SignIn {
        p: person,
        s: scheme,
        n: nonce.clone(),
        v: verifier.clone(),
        c: scopes,
        d: logout,
        b: sha256_hex(browser.as_bytes()),
        x: now_secs() + LINK_TTL.as_secs(),
    };
    let Ok(sealed) = sealer.seal(&serde_json::to_vec(&sealed).unwrap_or_default(), SIGNIN_AAD)
    else {
        return page(
            StatusCode::INTERNAL_SERVER_ERROR,
            "The sign-in cannot start.",
        );
    };
    // A logout asks the person to sign in again (`prompt=login`), so a
    // link or page that sends someone's browser here cannot end their
    // logins silently through a remembered sign-in.
    let mut extra = vec![("nonce", nonce.as_str())];
    if logout {
        extra.push(("prompt", "login"));
    }
    match signin.authorization_url(&state.pages.signed_in(), sealed, &verifier, &extra) {
        Ok(url) => redirect(&url, Some(binding_cookie(&state.pages, &browser))),
        Err(e) => {
            tracing::warn!("login pages: {e}");
            page(
                StatusCode::INTERNAL_SERVER_ERROR,
                "The sign-in cannot start.",
            )
        }
    }
}

/// Removes and revokes every login of `person` to the API.
async fn log_out(state: &LoginState, person: &str) -> Response {
    let inner = state.bridge.shared.current.load_full();
    let (mut removed, mut unrevoked) = (0, 0);
    // Every API's logins (`serve --config` may serve several).
    let schemes = inner
        .api
        .authenticators()
        .flat_map(|(_, auth)| auth.login_schemes().into_iter().map(move |s| (auth, s)));
    for (auth, scheme) in schemes {
        let Some(Ok((client, store))) = auth.login_client(&scheme).await else {
            continue;
        };
        match store.remove(&client.store_key(person)).await {
            Ok(Some(tokens)) => {
                removed += 1;
                if !matches!(client.revoke(&tokens, &state.http).await, Ok(true)) {
                    unrevoked += 1;
                }
            }
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(scheme = %scheme, "login pages: {e}");
                return page(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Your logins could not be removed just now; try again shortly.",
                );
            }
        }
    }
    tracing::info!(target: "openapi2mcp::audit", removed, "a person logged out of the API");
    let text = match (removed, unrevoked) {
        (0, _) => "You were not logged in to the API through this server: nothing to do.".to_string(),
        (_, 0) => "You are logged out of the API: your tokens are removed and revoked.".to_string(),
        _ => "You are logged out of the API: your tokens are removed (the API's authorization server could not revoke all of them; they stay valid until they expire).".to_string(),
    };
    page(StatusCode::OK, &text)
}

/// A fresh PKCE verifier (RFC 7636: 43 to 128 unreserved characters).
fn random_verifier() -> String {
    let mut verifier = random_token();
    verifier.push_str(&random_token());
    verifier
}

/// The authorization server's answer to a step, or what went wrong.
fn answer_of(
    query: &std::collections::BTreeMap<String, String>,
) -> Result<(&str, &str), Box<Response>> {
    if let Some(error) = query.get("error") {
        let text = match error.as_str() {
            "access_denied" => "You did not allow the access: nothing was stored. Your assistant's call stays unanswered until you log in.".to_string(),
            other => format!("The authorization server answered `{other}`: the login did not complete."),
        };
        return Err(Box::new(page(StatusCode::OK, &text)));
    }
    match (query.get("code"), query.get("state")) {
        (Some(code), Some(state)) => Ok((code, state)),
        _ => Err(Box::new(page(
            StatusCode::BAD_REQUEST,
            "This is not a login answer.",
        ))),
    }
}

/// Step 2: back from signing in; the person checked, off to the API's
/// authorization server.
async fn signed_in(
    State(state): State<Arc<LoginState>>,
    headers: HeaderMap,
    Query(query): Query<std::collections::BTreeMap<String, String>>,
) -> Response {
    let (code, sealed) = match answer_of(&query) {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let sealer = &state.bridge.shared.sealer;
    let Some(signin) = sealer
        .open(sealed, SIGNIN_AAD)
        .ok()
        .and_then(|b| serde_json::from_slice::<SignIn>(&b).ok())
        .filter(|s| s.x >= now_secs())
    else {
        return expired();
    };
    // Before the code is used: a sign-in answer carried to another
    // browser (login CSRF) is refused, and stays usable by its own.
    if !same_browser(&state.pages, &headers, &signin.b) {
        tracing::warn!(target: "openapi2mcp::audit", scheme = %signin.s, "a sign-in answer reached another browser than the one that opened the login link; refused");
        return other_browser();
    }
    let client = match state.signin().await {
        Ok(c) => c,
        Err(_) => {
            return page(
                StatusCode::SERVICE_UNAVAILABLE,
                "The sign-in server cannot be reached just now; try again shortly.",
            );
        }
    };
    let pending = openapi2mcp_runtime::auth::login::PendingLogin::resumed(
        signin.v.clone(),
        state.pages.signed_in(),
    );
    let id_token = match client
        .exchange_code_for_id_token(pending, code, &state.http)
        .await
    {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!("login pages: the sign-in failed: {e}");
            return page(StatusCode::BAD_REQUEST, "The sign-in did not complete.");
        }
    };
    let who = match state
        .authz
        .check_id_token(&id_token, &state.signin_id, &signin.n)
        .await
    {
        Ok(p) => super::run::person_id(&p),
        Err(e) => {
            tracing::warn!("login pages: the ID token was refused: {e}");
            return page(
                StatusCode::BAD_REQUEST,
                "The sign-in could not be verified.",
            );
        }
    };
    if signin.d {
        return match who {
            Some(person) => log_out(&state, &person).await,
            None => page(StatusCode::BAD_REQUEST, "The sign-in named nobody."),
        };
    }
    if who.as_deref() != Some(signin.p.as_str()) {
        tracing::warn!(target: "openapi2mcp::audit", scheme = %signin.s, "a login link was opened by someone other than the person it was made for; refused");
        return page(
            StatusCode::FORBIDDEN,
            "This login link was made for another user: it was not used. Only the person whose assistant asked can use it; ask your own assistant to call the tool.",
        );
    }
    let mut api = match state.bridge.login_client(&signin.s).await {
        Ok(c) => c.0,
        Err(e) => {
            tracing::warn!("login pages: {e}");
            return page(
                StatusCode::SERVICE_UNAVAILABLE,
                "The API's authorization server cannot be used just now; try again shortly.",
            );
        }
    };
    if !signin.c.is_empty() {
        api.scopes = signin.c.clone();
    }
    let verifier = random_verifier();
    let sealed = ApiLogin {
        p: signin.p,
        s: signin.s,
        v: verifier.clone(),
        b: signin.b,
        x: now_secs() + LINK_TTL.as_secs(),
    };
    let Ok(sealed) = sealer.seal(&serde_json::to_vec(&sealed).unwrap_or_default(), API_AAD) else {
        return page(StatusCode::INTERNAL_SERVER_ERROR, "The login cannot start.");
    };
    match api.authorization_url(&state.pages.callback(), sealed, &verifier, &[]) {
        Ok(url) => redirect(&url, None),
        Err(e) => {
            tracing::warn!("login pages: {e}");
            page(StatusCode::INTERNAL_SERVER_ERROR, "The login cannot start.")
        }
    }
}

/// The value of cookie `name` in `headers`.
fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// Step 3: back from the API's authorization server; the tokens kept for
/// the person.
async fn callback(
    State(state): State<Arc<LoginState>>,
    headers: HeaderMap,
    Query(query): Query<std::collections::BTreeMap<String, String>>,
) -> Response {
    let (code, sealed) = match answer_of(&query) {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let Some(login) = state
        .bridge
        .shared
        .sealer
        .open(sealed, API_AAD)
        .ok()
        .and_then(|b| serde_json::from_slice::<ApiLogin>(&b).ok())
        .filter(|l| l.x >= now_secs())
    else {
        tracing::warn!(target: "openapi2mcp::audit", "a login callback with a state this server did not issue (or expired) was refused");
        return expired();
    };
    if !same_browser(&state.pages, &headers, &login.b) {
        tracing::warn!(target: "openapi2mcp::audit", scheme = %login.s, "a login callback from another browser than the one that started it was refused");
        return other_browser();
    }
    let (client, store) = match state.bridge.login_client(&login.s).await {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!("login pages: {e}");
            return page(
                StatusCode::SERVICE_UNAVAILABLE,
                "The API's authorization server cannot be used just now; try again shortly.",
            );
        }
    };
    let pending =
        openapi2mcp_runtime::auth::login::PendingLogin::resumed(login.v, state.pages.callback());
    let tokens = match client.exchange_code(pending, code, &state.http).await {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!(scheme = %login.s, "login pages: the code exchange failed: {e}");
            return page(StatusCode::BAD_REQUEST, "The login did not complete.");
        }
    };
    if let Err(e) = store.put(&client.store_key(&login.p), &tokens).await {
        tracing::warn!(scheme = %login.s, "login pages: {e}");
        return page(
            StatusCode::INTERNAL_SERVER_ERROR,
            "The login completed but could not be kept; try again.",
        );
    }
    tracing::info!(target: "openapi2mcp::audit", scheme = %login.s, "a person logged in to the API");
    page(
        StatusCode::OK,
        "You are logged in to the API. You can close this window and return to your assistant.",
    )
}
