//! Authentication of the outgoing API calls.
//!
//! An OpenAPI operation lists its `security` alternatives; this module picks
//! one the operator has configured credentials for and adds those
//! credentials to a [`PreparedRequest`] (a header, a query parameter or a
//! cookie), fetching and caching OAuth2 client-credentials tokens on the
//! way. It exists so that secrets stay with the operator: the language model
//! never sees nor supplies them, and every message this module produces
//! names environment variables, never their values. [`Authenticator::secret_values`]
//! and [`redact`] let the server scrub secrets from anything it logs or
//! returns.
//!
//! # Where credentials come from
//!
//! For now only the environment ([`Credentials::from_env`]); any other source
//! can build a [`Credentials`] from `(variable, value)` pairs with
//! [`Credentials::from_pairs`]. Empty values count as unset. Variables are
//! read once, when the [`Authenticator`] is built.
//!
//! Every variable is named `OPENAPI2MCP_<SCHEME>_<FIELD>`, where `<SCHEME>`
//! is the security scheme's name (its key in `components.securitySchemes`)
//! upper-cased, with every run of characters other than ASCII letters and
//! digits replaced by one `_`: `api_key` → `API_KEY`, `petstore-auth` →
//! `PETSTORE_AUTH`, `bearerAuth` → `BEARERAUTH` (see [`env_var`]).
//!
//! | Scheme type          | Fields                                                                 | Sent as                                                |
//! |----------------------|------------------------------------------------------------------------|--------------------------------------------------------|
//! | `apiKey`             | `_KEY`                                                                 | the header, query parameter or cookie the scheme names |
//! | `http` `bearer`      | `_TOKEN`                                                               | `Authorization: Bearer <token>`                        |
//! | `http` `basic`       | `_USERNAME`, `_PASSWORD` (optional, empty when unset)                  | `Authorization: Basic base64(<username>:<password>)`   |
//! | any other `http`     | `_TOKEN`                                                               | `Authorization: <Scheme> <token>`                      |
//! | `oauth2`             | `_TOKEN`, or `_CLIENT_ID` + `_CLIENT_SECRET` (+ `_SCOPES`, `_TOKEN_URL`) | `Authorization: Bearer <token>`                      |
//! | `openIdConnect`      | `_TOKEN`                                                               | `Authorization: Bearer <token>`                        |
//! | `mutualTLS`          | none: not supported                                                    |                                                        |
//!
//! OAuth2 details: a ready `_TOKEN` wins over client credentials. Otherwise
//! the client-credentials grant is run against `_TOKEN_URL`, or else the
//! document's client-credentials token URL (a relative one is resolved
//! against the request URL); the client authenticates with HTTP Basic (the
//! `oauth2` crate's default, RFC 6749 §2.3.1). The scopes requested are
//! `_SCOPES` (space-separated) when set, else the scopes the operation's
//! requirement lists. Tokens are cached per scheme and scope set, fetched
//! once however many calls wait for them, and refetched
//! `min(60 s, lifetime / 2)` before they expire; a token without
//! `expires_in` is kept for the life of the server. Whatever `token_type`
//! the endpoint reports, the token is sent as `Bearer`.
//!
//! # Choosing among alternatives
//!
//! The first requirement, in document order, whose schemes all have
//! credentials is applied, all its schemes together. An empty requirement
//! (`{}`, "no authentication is an option") is always satisfiable, so when
//! it comes first nothing is sent even if credentials exist for a later
//! alternative. When no requirement is satisfiable the call fails with
//! [`AuthError::MissingCredentials`], naming the variables that would satisfy
//! each alternative.
//!
//! Self-contained: imports only `super::binding` and `super::request`.

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use oauth2::basic::{BasicClient, BasicErrorResponse};
use oauth2::{ClientId, ClientSecret, RequestTokenError, Scope, TokenResponse as _, TokenUrl};
use reqwest::header::{HeaderName, HeaderValue};

use super::binding::{Location, SchemeUse, SecurityRequirement, SecurityScheme};
use super::request::PreparedRequest;

/// Prefix of every credential variable.
pub const ENV_PREFIX: &str = "OPENAPI2MCP_";

const KEY: &str = "KEY";
const TOKEN: &str = "TOKEN";
const USERNAME: &str = "USERNAME";
const PASSWORD: &str = "PASSWORD";
const CLIENT_ID: &str = "CLIENT_ID";
const CLIENT_SECRET: &str = "CLIENT_SECRET";
const SCOPES: &str = "SCOPES";
const TOKEN_URL: &str = "TOKEN_URL";

/// Longest time a token is refreshed before it expires.
const REFRESH_MARGIN: Duration = Duration::from_secs(60);
/// Time limit of one token request.
const TOKEN_TIMEOUT: Duration = Duration::from_secs(30);
/// Largest token endpoint answer read.
const TOKEN_BODY_CAP: usize = 64 * 1024;
/// What replaces a secret in redacted text.
const MASK: &str = "***";

// ---------------------------------------------------------------------------
// Variable naming
// ---------------------------------------------------------------------------

/// `OPENAPI2MCP_<SCHEME>`: the scheme name upper-cased, every run of
/// characters other than ASCII letters and digits replaced by one `_`.
pub fn env_var_prefix(scheme: &str) -> String {
    let mut out = String::from(ENV_PREFIX);
    let mut in_gap = false;
    for c in scheme.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_uppercase());
            in_gap = false;
        } else if !in_gap {
            out.push('_');
            in_gap = true;
        }
    }
    out
}

/// `OPENAPI2MCP_<SCHEME>_<FIELD>`, e.g. `env_var("api_key", "KEY")` is
/// `OPENAPI2MCP_API_KEY_KEY`.
pub fn env_var(scheme: &str, field: &str) -> String {
    format!("{}_{field}", env_var_prefix(scheme))
}

// ---------------------------------------------------------------------------
// Secrets and credentials
// ---------------------------------------------------------------------------

/// A string that never shows in `Debug` output.
#[derive(Clone, PartialEq, Eq)]
struct Secret(String);

impl Secret {
    fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(MASK)
    }
}

/// Credential values by variable name. `Debug` lists the variable names
/// only.
#[derive(Clone, Default)]
pub struct Credentials {
    values: BTreeMap<String, Secret>,
}

impl Credentials {
    /// The process environment's `OPENAPI2MCP_*` variables (others, and
    /// values that are not UTF-8, are skipped).
    pub fn from_env() -> Self {
        let pairs = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .filter(|(k, _)| k.starts_with(ENV_PREFIX));
        Self::from_pairs(pairs)
    }

    /// Credentials from `(variable, value)` pairs (a later pair wins; empty
    /// values are skipped, so they count as unset).
    pub fn from_pairs<I, K, V>(pairs: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        let values = pairs
            .into_iter()
            .map(|(k, v)| (k.into(), v.into()))
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k, Secret(v)))
            .collect();
        Self { values }
    }

    /// The value of `variable`, if set and not empty.
    pub fn get(&self, variable: &str) -> Option<&str> {
        self.values.get(variable).map(Secret::expose)
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("variables", &self.values.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// Replaces every occurrence of each non-empty secret in `text` with `***`
/// (longest secrets first, so one containing another is masked whole).
pub fn redact(text: &str, secrets: &[String]) -> String {
    let mut ordered: Vec<&str> = secrets
        .iter()
        .map(String::as_str)
        .filter(|s| !s.is_empty())
        .collect();
    ordered.sort_by_key(|s| std::cmp::Reverse(s.len()));
    ordered
        .into_iter()
        .fold(text.to_owned(), |acc, secret| acc.replace(secret, MASK))
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// Why a request could not be authenticated. Messages never contain secret
/// values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// No security alternative of the operation has its credentials
    /// configured.
    #[error("{}", missing_message(.alternatives))]
    MissingCredentials {
        /// For each alternative, in document order: what would satisfy it
        /// (`set OPENAPI2MCP_X_TOKEN`) or why it cannot be used.
        alternatives: Vec<String>,
    },
    /// An OAuth2 access token could not be obtained.
    #[error("could not get an OAuth2 access token from {url}: {reason}")]
    Token {
        /// The token endpoint.
        url: String,
        /// The OAuth error code and description, or what went wrong.
        reason: String,
    },
    /// A configured value cannot be sent (e.g. it contains a line break).
    #[error("the credential in {variable} cannot be sent: {reason}; fix the variable and restart")]
    InvalidCredential {
        /// The variable(s) holding the value.
        variable: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The API description's scheme cannot be applied (e.g. an invalid
    /// header name).
    #[error("security scheme `{scheme}` cannot be applied: {reason}")]
    InvalidScheme {
        /// The scheme's name.
        scheme: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A forwarded `Authorization` value cannot be sent.
    #[error("the forwarded Authorization header cannot be sent: {reason}")]
    InvalidPassthrough {
        /// What is wrong with it.
        reason: String,
    },
}

fn missing_message(alternatives: &[String]) -> String {
    format!(
        "this operation requires authentication and no credentials are configured for it: {}. \
         Credentials are environment variables read when the server starts.",
        alternatives.join(", or ")
    )
}

// ---------------------------------------------------------------------------
// Resolved schemes
// ---------------------------------------------------------------------------

/// One security scheme: what it needs and, when configured, how to apply it.
struct SchemeAuth {
    /// What the scheme is, for messages (`apiKey in header `X-Key``).
    label: String,
    /// Variable sets that would each configure the scheme, or why it is
    /// unsupported.
    options: Result<Vec<Vec<String>>, String>,
    /// The configured credential.
    method: Option<Method>,
    /// Every secret value read for the scheme.
    secrets: Vec<Secret>,
}

/// How a configured scheme is applied.
enum Method {
    /// A key in a header, query parameter or cookie.
    ApiKey {
        name: String,
        location: Location,
        key: Secret,
        variable: String,
    },
    /// A complete `Authorization` header value.
    Authorization { value: Secret, variable: String },
    /// An OAuth2 client-credentials token, fetched as needed.
    ClientCredentials(Box<ClientCredentials>),
}

impl SchemeAuth {
    fn unsupported(label: String, reason: &str) -> Self {
        Self {
            label,
            options: Err(reason.to_string()),
            method: None,
            secrets: Vec::new(),
        }
    }

    fn token_cache(&self) -> Option<&ClientCredentials> {
        match &self.method {
            Some(Method::ClientCredentials(cc)) => Some(cc),
            _ => None,
        }
    }
}

/// Reads what `scheme` needs from `credentials`.
fn resolve(name: &str, scheme: &SecurityScheme, credentials: &Credentials) -> SchemeAuth {
    match scheme {
        SecurityScheme::ApiKey {
            name: key_name,
            location,
        } => resolve_api_key(name, key_name, *location, credentials),
        SecurityScheme::Http { scheme: http, .. } => resolve_http(name, http, credentials),
        SecurityScheme::OAuth2 {
            client_credentials_token_url,
            flows,
        } => resolve_oauth2(
            name,
            client_credentials_token_url.as_deref(),
            flows,
            credentials,
        ),
        SecurityScheme::OpenIdConnect { .. } => {
            resolve_token(name, "Bearer", "openIdConnect".into(), credentials)
        }
        SecurityScheme::MutualTls => SchemeAuth::unsupported(
            "mutualTLS".into(),
            "mutualTLS (client certificates) is not supported by openapi2mcp",
        ),
    }
}

fn resolve_api_key(
    scheme: &str,
    key_name: &str,
    location: Location,
    credentials: &Credentials,
) -> SchemeAuth {
    let label = format!("apiKey in {} `{key_name}`", location.as_str());
    if location == Location::Path {
        return SchemeAuth::unsupported(label, "an apiKey cannot be sent in the path");
    }
    let variable = env_var(scheme, KEY);
    let key = credentials.get(&variable).map(|k| Secret(k.to_string()));
    let mut secrets: Vec<Secret> = key.iter().cloned().collect();
    if let Some(key) = &key
        && location == Location::Query
    {
        secrets.push(Secret(
            url::form_urlencoded::byte_serialize(key.expose().as_bytes()).collect(),
        ));
    }
    let method = key.map(|key| Method::ApiKey {
        name: key_name.to_string(),
        location,
        key,
        variable: variable.clone(),
    });
    SchemeAuth {
        label,
        options: Ok(vec![vec![variable]]),
        method,
        secrets,
    }
}

fn resolve_http(scheme: &str, http: &str, credentials: &Credentials) -> SchemeAuth {
    let lower = http.to_ascii_lowercase();
    let label = format!("http {lower}");
    match lower.as_str() {
        "basic" => resolve_basic(scheme, credentials),
        "bearer" => resolve_token(scheme, "Bearer", label, credentials),
        _ => resolve_token(scheme, &capitalize(&lower), label, credentials),
    }
}

/// `digest` → `Digest` (auth scheme names are case-insensitive; this is the
/// conventional spelling).
fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Basic: the username is required, the password defaults to empty (some
/// APIs take a key as username and no password).
fn resolve_basic(scheme: &str, credentials: &Credentials) -> SchemeAuth {
    let user_var = env_var(scheme, USERNAME);
    let pass_var = env_var(scheme, PASSWORD);
    let username = credentials.get(&user_var);
    let password = credentials.get(&pass_var);
    let mut secrets: Vec<Secret> = [username, password]
        .into_iter()
        .flatten()
        .map(|s| Secret(s.to_string()))
        .collect();
    let method = username.map(|user| {
        let encoded = STANDARD.encode(format!("{user}:{}", password.unwrap_or_default()));
        secrets.push(Secret(encoded.clone()));
        Method::Authorization {
            value: Secret(format!("Basic {encoded}")),
            variable: format!("{user_var}/{pass_var}"),
        }
    });
    SchemeAuth {
        label: "http basic".into(),
        options: Ok(vec![vec![user_var, pass_var]]),
        method,
        secrets,
    }
}

/// A scheme satisfied by `_TOKEN`, sent as `Authorization: <auth> <token>`.
fn resolve_token(scheme: &str, auth: &str, label: String, credentials: &Credentials) -> SchemeAuth {
    let variable = env_var(scheme, TOKEN);
    let token = credentials.get(&variable);
    SchemeAuth {
        label,
        options: Ok(vec![vec![variable.clone()]]),
        method: token.map(|t| Method::Authorization {
            value: Secret(format!("{auth} {t}")),
            variable: variable.clone(),
        }),
        secrets: token.map(|t| Secret(t.to_string())).into_iter().collect(),
    }
}

/// OAuth2: a ready `_TOKEN` wins; else client credentials when the id,
/// secret and a token URL are all known.
fn resolve_oauth2(
    scheme: &str,
    document_url: Option<&str>,
    flows: &[String],
    credentials: &Credentials,
) -> SchemeAuth {
    let label = format!("oauth2, flows: {}", flows.join(", "));
    let mut auth = resolve_token(scheme, "Bearer", label, credentials);
    let [id_var, secret_var, url_var, scopes_var] =
        [CLIENT_ID, CLIENT_SECRET, TOKEN_URL, SCOPES].map(|f| env_var(scheme, f));
    let secret = credentials.get(&secret_var);
    auth.secrets.extend(secret.map(|s| Secret(s.to_string())));
    let mut needed = vec![id_var.clone(), secret_var.clone()];
    if document_url.is_none() {
        needed.push(url_var.clone());
    }
    if let Ok(options) = &mut auth.options {
        options.push(needed);
    }
    if auth.method.is_some() {
        return auth;
    }
    let token_url = credentials.get(&url_var).or(document_url);
    if let (Some(id), Some(secret), Some(token_url)) = (credentials.get(&id_var), secret, token_url)
    {
        auth.method = Some(Method::ClientCredentials(Box::new(ClientCredentials {
            client_id: id.to_string(),
            client_secret: Secret(secret.to_string()),
            token_url: token_url.to_string(),
            url_variable: url_var,
            scopes: credentials.get(&scopes_var).map(split_scopes),
            slots: Mutex::new(BTreeMap::new()),
        })));
    }
    auth
}

fn split_scopes(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

// ---------------------------------------------------------------------------
// Authenticator
// ---------------------------------------------------------------------------

/// Applies an operation's security to its requests. Built once per server;
/// share it (it is `Send + Sync`) so OAuth2 tokens are cached across calls.
pub struct Authenticator {
    schemes: BTreeMap<String, SchemeAuth>,
    http: reqwest::Client,
}

impl Authenticator {
    /// Resolves every scheme of the API against `credentials`; `http` sends
    /// the OAuth2 token requests.
    pub fn new(
        schemes: &BTreeMap<String, SecurityScheme>,
        credentials: &Credentials,
        http: reqwest::Client,
    ) -> Self {
        let schemes = schemes
            .iter()
            .map(|(name, scheme)| (name.clone(), resolve(name, scheme, credentials)))
            .collect();
        Self { schemes, http }
    }

    /// Adds credentials for the first satisfiable requirement of `security`
    /// (document order; see the module documentation) to `request`. An
    /// empty `security` applies nothing.
    pub async fn apply(
        &self,
        security: &[SecurityRequirement],
        request: &mut PreparedRequest,
    ) -> Result<(), AuthError> {
        if security.is_empty() {
            return Ok(());
        }
        let Some(requirement) = security.iter().find(|r| self.is_satisfiable(r)) else {
            return Err(self.missing(security));
        };
        for scheme in &requirement.schemes {
            self.apply_scheme(scheme, request).await?;
        }
        Ok(())
    }

    /// Whether [`apply`](Self::apply) would find credentials for `security`.
    pub fn can_satisfy(&self, security: &[SecurityRequirement]) -> bool {
        security.is_empty() || security.iter().any(|r| self.is_satisfiable(r))
    }

    /// Every configured secret (keys, tokens, usernames, passwords, client
    /// secrets, the encoded forms sent on the wire, and the access tokens
    /// currently cached), for scrubbing logs and messages with [`redact`].
    pub fn secret_values(&self) -> Vec<String> {
        let configured = self
            .schemes
            .values()
            .flat_map(|s| s.secrets.iter().map(|x| x.expose().to_string()));
        let fetched = self
            .schemes
            .values()
            .filter_map(SchemeAuth::token_cache)
            .flat_map(ClientCredentials::cached_tokens);
        let mut out: Vec<String> = configured.chain(fetched).collect();
        out.sort();
        out.dedup();
        out
    }

    /// One line per scheme: whether credentials are configured and which
    /// variables are read. Never contains secrets.
    pub fn describe(&self) -> Vec<String> {
        self.schemes
            .iter()
            .map(|(name, auth)| describe_scheme(name, auth))
            .collect()
    }

    fn is_satisfiable(&self, requirement: &SecurityRequirement) -> bool {
        requirement.schemes.iter().all(|s| {
            self.schemes
                .get(&s.name)
                .is_some_and(|auth| auth.method.is_some())
        })
    }

    fn missing(&self, security: &[SecurityRequirement]) -> AuthError {
        AuthError::MissingCredentials {
            alternatives: security.iter().map(|r| self.needs(r)).collect(),
        }
    }

    /// What would satisfy `requirement`: `set A and B`, or why it cannot be
    /// used.
    fn needs(&self, requirement: &SecurityRequirement) -> String {
        let mut phrases = Vec::new();
        for scheme in &requirement.schemes {
            match self.schemes.get(&scheme.name).map(|a| &a.options) {
                None => {
                    return format!(
                        "scheme `{}` cannot be used (it is not defined in the API description)",
                        scheme.name
                    );
                }
                Some(Err(reason)) => {
                    return format!("scheme `{}` cannot be used ({reason})", scheme.name);
                }
                Some(Ok(options)) => phrases.push(options_phrase(options)),
            }
        }
        format!("set {}", phrases.join(" and "))
    }

    async fn apply_scheme(
        &self,
        scheme: &SchemeUse,
        request: &mut PreparedRequest,
    ) -> Result<(), AuthError> {
        let method = self
            .schemes
            .get(&scheme.name)
            .and_then(|a| a.method.as_ref());
        match method {
            Some(Method::ApiKey {
                name,
                location,
                key,
                variable,
            }) => {
                apply_api_key(&scheme.name, name, *location, key, variable, request)?;
                record_credential(request, key.expose());
                Ok(())
            }
            Some(Method::Authorization { value, variable }) => {
                set_authorization(value.expose(), request).map_err(|reason| {
                    AuthError::InvalidCredential {
                        variable: variable.clone(),
                        reason,
                    }
                })?;
                record_credential(request, value.expose());
                Ok(())
            }
            Some(Method::ClientCredentials(cc)) => {
                let token = cc
                    .access_token(&scheme.scopes, &self.http, &request.url)
                    .await?;
                set_authorization(&format!("Bearer {token}"), request).map_err(|reason| {
                    AuthError::Token {
                        url: cc.token_url.clone(),
                        reason: format!("the access token {reason}"),
                    }
                })?;
                record_credential(request, &token);
                Ok(())
            }
            None => Err(AuthError::InvalidScheme {
                scheme: scheme.name.clone(),
                reason: "no credentials are configured".into(),
            }),
        }
    }
}

impl fmt::Debug for Authenticator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let configured: BTreeMap<&str, bool> = self
            .schemes
            .iter()
            .map(|(name, auth)| (name.as_str(), auth.method.is_some()))
            .collect();
        f.debug_struct("Authenticator")
            .field("configured", &configured)
            .finish_non_exhaustive()
    }
}

/// `A`, `A and B`, or `A (or B and C)` for a scheme's variable sets.
fn options_phrase(options: &[Vec<String>]) -> String {
    let mut sets = options.iter().map(|set| set.join(" and "));
    let first = sets.next().unwrap_or_default();
    let rest: Vec<String> = sets.collect();
    if rest.is_empty() {
        first
    } else {
        format!("{first} (or {})", rest.join(", or "))
    }
}

fn describe_scheme(name: &str, auth: &SchemeAuth) -> String {
    let head = format!("security scheme `{name}` ({})", auth.label);
    let options = match &auth.options {
        Err(reason) => return format!("{head}: not supported: {reason}"),
        Ok(options) => options_phrase(options),
    };
    match &auth.method {
        None => format!("{head}: no credentials; set {options}"),
        Some(Method::ClientCredentials(cc)) => format!(
            "{head}: configured (client credentials, token URL {}); reads {options}",
            cc.token_url
        ),
        Some(_) => format!("{head}: configured; reads {options}"),
    }
}

// ---------------------------------------------------------------------------
// Putting credentials on the request
// ---------------------------------------------------------------------------

/// Sets the `Authorization` header of `request` to the MCP client's own
/// `authorization` value (replacing any existing one), for operators who
/// forward the client's credentials to the backend. CR, LF and other
/// control characters are refused.
pub fn apply_passthrough(
    authorization: &str,
    request: &mut PreparedRequest,
) -> Result<(), AuthError> {
    set_authorization(authorization, request)
        .map_err(|reason| AuthError::InvalidPassthrough { reason })?;
    record_credential(request, authorization);
    Ok(())
}

/// Notes a credential placed on `request` (and its parts: the token after
/// `Bearer `/`Basic `, the form-encoded spelling a query carries), so the
/// HTTP client can refuse a redirect that would carry one elsewhere.
fn record_credential(request: &mut PreparedRequest, value: &str) {
    let mut forms = vec![value.to_string()];
    if let Some((_, token)) = value.split_once(' ') {
        forms.push(token.trim().to_string());
    }
    let encoded: String = url::form_urlencoded::byte_serialize(value.as_bytes()).collect();
    forms.push(encoded);
    for form in forms {
        if !form.is_empty() && !request.credentials.contains(&form) {
            request.credentials.push(form);
        }
    }
}

/// Replaces the `Authorization` header; `Err` says why the value is unfit.
fn set_authorization(value: &str, request: &mut PreparedRequest) -> Result<(), String> {
    check_header_value(value)?;
    set_header(request, "Authorization", value);
    Ok(())
}

fn check_header_value(value: &str) -> Result<(), String> {
    HeaderValue::from_str(value)
        .map(drop)
        .map_err(|_| "contains CR, LF or another character not allowed in a header".into())
}

/// Removes every header named `name` (case-insensitively), then adds it.
fn set_header(request: &mut PreparedRequest, name: &str, value: &str) {
    request
        .headers
        .retain(|(existing, _)| !existing.eq_ignore_ascii_case(name));
    request.headers.push((name.to_string(), value.to_string()));
}

fn apply_api_key(
    scheme: &str,
    name: &str,
    location: Location,
    key: &Secret,
    variable: &str,
    request: &mut PreparedRequest,
) -> Result<(), AuthError> {
    let bad_scheme = |reason: &str| AuthError::InvalidScheme {
        scheme: scheme.to_string(),
        reason: reason.to_string(),
    };
    let bad_key = |reason: String| AuthError::InvalidCredential {
        variable: variable.to_string(),
        reason,
    };
    match location {
        Location::Header => {
            HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| bad_scheme("its header name is not a valid HTTP header name"))?;
            check_header_value(key.expose()).map_err(bad_key)?;
            set_header(request, name, key.expose());
        }
        Location::Query => {
            request.url = append_query(&request.url, name, key.expose())
                .map_err(|e| bad_scheme(&format!("the URL does not parse ({e})")))?;
        }
        Location::Cookie => {
            if !is_token(name) {
                return Err(bad_scheme("its cookie name is not a valid cookie name"));
            }
            if !key.expose().bytes().all(is_cookie_octet) {
                return Err(bad_key(
                    "a cookie value cannot contain spaces, `\"`, `,`, `;`, `\\` or control characters"
                        .into(),
                ));
            }
            append_cookie(request, &format!("{name}={}", key.expose()));
        }
        Location::Path => return Err(bad_scheme("an apiKey cannot be sent in the path")),
    }
    Ok(())
}

/// Appends `name=value` (form-encoded) to the query of `url`, keeping the
/// existing text byte for byte (re-serialising the whole URL could change
/// how the request builder encoded it), before any fragment.
fn append_query(url: &str, name: &str, value: &str) -> Result<String, url::ParseError> {
    let (base, fragment) = match url.split_once('#') {
        Some((base, fragment)) => (base, Some(fragment)),
        None => (url, None),
    };
    let pair = url::form_urlencoded::Serializer::new(String::new())
        .append_pair(name, value)
        .finish();
    let separator = match base.find('?') {
        None => "?",
        Some(_) if base.ends_with(['?', '&']) => "",
        Some(_) => "&",
    };
    let mut out = format!("{base}{separator}{pair}");
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
    url::Url::parse(&out)?;
    Ok(out)
}

/// Appends `; piece` to the `Cookie` header, or adds the header.
fn append_cookie(request: &mut PreparedRequest, piece: &str) {
    let existing = request
        .headers
        .iter_mut()
        .find(|(name, _)| name.eq_ignore_ascii_case("cookie"));
    match existing {
        Some((_, value)) if !value.trim().is_empty() => {
            value.push_str("; ");
            value.push_str(piece);
        }
        Some((_, value)) => *value = piece.to_string(),
        None => request.headers.push(("Cookie".into(), piece.to_string())),
    }
}

/// RFC 7230 `token` (a valid cookie name).
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// RFC 6265 `cookie-octet`.
fn is_cookie_octet(b: u8) -> bool {
    matches!(b, 0x21 | 0x23..=0x2B | 0x2D..=0x3A | 0x3C..=0x5B | 0x5D..=0x7E)
}

// ---------------------------------------------------------------------------
// OAuth2 client credentials
// ---------------------------------------------------------------------------

/// One scheme's client credentials and its token cache.
struct ClientCredentials {
    client_id: String,
    client_secret: Secret,
    /// `_TOKEN_URL` or the document's URL, possibly relative.
    token_url: String,
    /// The variable that overrides the token URL, for error messages.
    url_variable: String,
    /// `_SCOPES`, overriding the requirement's scopes.
    scopes: Option<Vec<String>>,
    /// One slot per (sorted, deduplicated) scope set.
    slots: Mutex<BTreeMap<Vec<String>, Arc<TokenSlot>>>,
}

/// The cached token of one scope set; `fetching` is held while a token is
/// requested so concurrent callers wait for that one request.
#[derive(Default)]
struct TokenSlot {
    fetching: tokio::sync::Mutex<()>,
    current: Mutex<Option<CachedToken>>,
}

struct CachedToken {
    value: Secret,
    /// When to fetch a new one; `None`: never.
    refresh_at: Option<Instant>,
}

/// Locks `mutex`, recovering the data if a holder panicked (every critical
/// section here leaves the data consistent).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
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

    fn cached(&self) -> Option<String> {
        lock(&self.current)
            .as_ref()
            .map(|t| t.value.expose().to_string())
    }
}

/// When a token obtained at `obtained` and valid for `lifetime` should be
/// refetched: `min(60 s, lifetime / 2)` early. `None` (keep it) without a
/// lifetime or when the instant is out of range.
fn refresh_at(obtained: Instant, lifetime: Option<Duration>) -> Option<Instant> {
    let lifetime = lifetime?;
    obtained.checked_add(lifetime - REFRESH_MARGIN.min(lifetime / 2))
}

impl ClientCredentials {
    /// A valid access token for `scopes`, from the cache or fetched once.
    async fn access_token(
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

    fn cached_tokens(&self) -> Vec<String> {
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
struct TokenHttp {
    client: reqwest::Client,
}

/// Why a token request got no usable HTTP answer.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct TokenHttpError(String);

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

/// An error and its causes on one line.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

#[cfg(test)]
#[path = "auth_tests.rs"]
mod tests;
