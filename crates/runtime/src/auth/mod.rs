//! Authentication of the outgoing API calls.
//!
//! An OpenAPI operation lists its `security` alternatives; this module picks
//! one the operator has configured credentials for and adds those
//! credentials to a [`RequestDraft`] (a header, a query parameter or a
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
//! Every variable is named `OPENAPI2MCP_CRED_<SCHEME>_<FIELD>`, where
//! `<SCHEME>` is the security scheme's name (its key in
//! `components.securitySchemes`) upper-cased, with every run of characters
//! other than ASCII letters and digits replaced by one `_`: `api_key` →
//! `API_KEY`, `petstore-auth` → `PETSTORE_AUTH`, `bearerAuth` →
//! `BEARERAUTH` (see [`cred_env_var`]). The older name without `CRED_`,
//! `OPENAPI2MCP_<SCHEME>_<FIELD>`, is read when the `CRED_` one is unset,
//! except where it is one of the program's own settings
//! ([`crate::settings`]): a scheme called `token` never takes
//! `OPENAPI2MCP_TOKEN_KEY` (the token store's key) as its API key, and a
//! warning at start-up names both variables when that one is set and the
//! scheme's `OPENAPI2MCP_CRED_TOKEN_KEY` is not. Messages name the older
//! name where it is read, else the `CRED_` one ([`env_var`]).
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
//! A requirement whose schemes are AND-ed but need the same place of the
//! request (HTTP `basic` and `oauth2` both in `Authorization`, two API keys
//! in one header, query parameter or cookie) cannot be satisfied by any
//! request: only one of the credentials could be sent. Such a requirement
//! is never chosen (a later satisfiable alternative is), and when it is the
//! only one whose credentials are configured the call fails with
//! [`AuthError::ConflictingSchemes`], naming the two schemes and the place,
//! instead of sending half of it.
//!
//! Imports `super::binding`, `super::request`, `crate::http` and
//! `crate::settings`.
//!
//! `credentials` reads and masks the variables, `schemes` resolves each
//! security scheme against them, `placement` puts a credential on a
//! request, and `oauth2` fetches and caches client-credentials tokens.

mod credentials;
pub mod fixed;
pub mod login;
mod oauth2;
#[cfg(feature = "keyring")]
pub mod os_keyring;
#[cfg(not(feature = "keyring"))]
#[path = "os_keyring_absent.rs"]
pub mod os_keyring;
mod placement;
mod schemes;
pub mod store;

use std::collections::BTreeMap;
use std::fmt;

use super::binding::{SchemeUse, SecurityRequirement, SecurityScheme};
use super::request::RequestDraft;
use oauth2::ClientCredentials;
use placement::{apply_api_key, record_credential, set_authorization};
use schemes::{Method, SchemeAuth, Slot, resolve};

pub use credentials::{
    CRED_PREFIX, Credentials, ENV_PREFIX, collision, cred_env_var, env_var, env_var_prefix,
    legacy_env_var, redact, redact_json,
};
pub use placement::{apply_forwarded_header, apply_passthrough};

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// Why a request could not be authenticated. Messages never contain secret
/// values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// The HTTP client that sends token requests cannot be created.
    #[error("{reason}")]
    HttpClient {
        /// Why (the TLS backend failed to start).
        reason: String,
    },
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
    /// Every scheme of the only configured requirement has credentials,
    /// but two of them need the same header, query parameter or cookie,
    /// which one request carries once.
    #[error(
        "the operation's security requirement needs schemes `{first}` and `{second}` together, \
         and both put their credential in {place}, which one request carries once: no request \
         can satisfy it. Configure credentials for another of the operation's security \
         alternatives, or correct the API description (an overlay can)"
    )]
    ConflictingSchemes {
        /// The first of the two schemes, in requirement order.
        first: String,
        /// The second.
        second: String,
        /// Where both go (`the `Authorization` header`).
        place: String,
    },
    /// The scheme is served with each person's own login and the person
    /// this call is for has not logged in (or their login ended).
    #[error(
        "security scheme `{scheme}` uses each person's own login to the API and no one is logged in for this call (never logged in, logged out, or the login expired): log in with the `login` command (e.g. `openapi2mcp login SPEC --scheme {scheme}`) and call again"
    )]
    LoginRequired {
        /// The scheme's name.
        scheme: String,
    },
    /// The person's login was not granted scopes the operation needs.
    #[error(
        "security scheme `{scheme}`: your login was not granted {} which this operation needs: log in again asking for them (e.g. set {} to include them and run `openapi2mcp login SPEC --scheme {scheme}`) and call again",
        missing.join(" "),
        env_var(scheme, "SCOPES")
    )]
    ScopesMissing {
        /// The scheme's name.
        scheme: String,
        /// The scopes the operation needs beyond the grant.
        missing: Vec<String>,
    },
    /// The logged-in person's tokens could not be read or written.
    #[error("security scheme `{scheme}`: {reason}")]
    Login {
        /// The scheme's name.
        scheme: String,
        /// What went wrong (names the store file, never a token).
        reason: String,
    },
    /// A forwarded `Authorization` value cannot be sent.
    #[error("the forwarded Authorization header cannot be sent: {reason}")]
    InvalidPassthrough {
        /// What is wrong with it.
        reason: String,
    },
    /// A header the MCP client sent cannot be forwarded (`--forward-header`).
    #[error("the client's {name} header cannot be forwarded: {reason}")]
    InvalidForwardedHeader {
        /// The header's name.
        name: String,
        /// What is wrong with its value.
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
// Authenticator
// ---------------------------------------------------------------------------

/// A person's login a call needs: none yet, or one granted more scopes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginNeed {
    /// The scheme to log in to.
    pub scheme: String,
    /// The scopes to ask for when the login lacks some (what was granted
    /// plus what the operation needs); empty when there is no login at
    /// all (the scheme's own scopes are asked for).
    pub scopes: Vec<String>,
}

/// Applies an operation's security to its requests. Built once per server;
/// share it (it is `Send + Sync`) so OAuth2 tokens are cached across calls.
pub struct Authenticator {
    schemes: BTreeMap<String, SchemeAuth>,
    http: crate::http::LazyClient,
}

impl Authenticator {
    /// Resolves every scheme of the API against `credentials`; `http` sends
    /// the OAuth2 token requests.
    pub fn new(
        schemes: &BTreeMap<String, SecurityScheme>,
        credentials: &Credentials,
        http: impl Into<crate::http::LazyClient>,
    ) -> Self {
        Self::with_store(schemes, credentials, http, None)
    }

    /// [`Authenticator::new`] with a store of people's tokens: OAuth2
    /// schemes with a login flow (and `_CLIENT_ID`) then use the tokens of
    /// the person each call is made for ([`login`]).
    pub fn with_store(
        schemes: &BTreeMap<String, SecurityScheme>,
        credentials: &Credentials,
        http: impl Into<crate::http::LazyClient>,
        store: Option<std::sync::Arc<dyn store::TokenStore>>,
    ) -> Self {
        for (name, scheme) in schemes {
            for field in schemes::fields(scheme) {
                if let Some((setting, what, namespaced)) = credentials.shadowed(name, field) {
                    tracing::warn!(
                        "security scheme `{name}` reads its {field} from {namespaced}, which is not set: {setting} is {what}, one of the server's own settings, and is never read as a credential"
                    );
                }
            }
        }
        let schemes = schemes
            .iter()
            .map(|(name, scheme)| {
                (
                    name.clone(),
                    resolve(name, scheme, credentials, store.as_ref()),
                )
            })
            .collect();
        Self {
            schemes,
            http: http.into(),
        }
    }

    /// The client token requests are sent with (built on first use).
    fn http(&self) -> Result<&reqwest::Client, AuthError> {
        self.http
            .get()
            .map_err(|reason| AuthError::HttpClient { reason })
    }

    /// Adds credentials for the first satisfiable requirement of `security`
    /// (document order; see the module documentation) to `request`. An
    /// empty `security` applies nothing.
    pub async fn apply(
        &self,
        security: &[SecurityRequirement],
        request: &mut RequestDraft,
    ) -> Result<(), AuthError> {
        if security.is_empty() {
            return Ok(());
        }
        let Some(requirement) = security.iter().find(|r| self.is_satisfiable(r)) else {
            let conflicting = security
                .iter()
                .filter(|r| self.is_configured(r))
                .find_map(|r| self.conflict(r));
            return Err(match conflicting {
                Some(conflict) => conflict,
                None => self.missing(security),
            });
        };
        for scheme in &requirement.schemes {
            self.apply_scheme(scheme, request).await?;
        }
        Ok(())
    }

    /// The scheme whose person's login a call of `security` needs now and
    /// the person it is made for ([`login::current_user`]) has not got
    /// (never logged in, logged out, or the login ended on refresh), with
    /// no machine identity to fall back on; `None` when the call can be
    /// authenticated as it is (a refresh due now happens here, once).
    pub async fn login_needed(
        &self,
        security: &[SecurityRequirement],
    ) -> Result<Option<LoginNeed>, AuthError> {
        let Some(requirement) = security.iter().find(|r| self.is_satisfiable(r)) else {
            return Ok(None);
        };
        for scheme in &requirement.schemes {
            let Some(auth) = self.schemes.get(&scheme.name) else {
                continue;
            };
            let Some(login) = auth.login.as_deref().filter(|_| auth.method.is_none()) else {
                continue;
            };
            match login.tokens(self.http()?).await? {
                None => {
                    return Ok(Some(LoginNeed {
                        scheme: scheme.name.clone(),
                        scopes: Vec::new(),
                    }));
                }
                Some(tokens) => {
                    let missing = login::missing_scopes(&tokens, &scheme.scopes);
                    if !missing.is_empty() {
                        let mut scopes = tokens.scopes.clone();
                        scopes.extend(missing);
                        return Ok(Some(LoginNeed {
                            scheme: scheme.name.clone(),
                            scopes,
                        }));
                    }
                }
            }
        }
        Ok(None)
    }

    /// The schemes served with each person's own login.
    pub fn login_schemes(&self) -> Vec<String> {
        self.schemes
            .iter()
            .filter(|(_, s)| s.login.is_some())
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// Whether some scheme is served with each person's own login.
    pub fn has_logins(&self) -> bool {
        self.schemes.values().any(|s| s.login.is_some())
    }

    /// The login client of scheme `name` (its endpoints discovered) and
    /// the store its people's tokens go to; `None` when the scheme is not
    /// served with people's logins.
    pub async fn login_client(
        &self,
        name: &str,
    ) -> Option<Result<(login::LoginClient, std::sync::Arc<dyn store::TokenStore>), AuthError>>
    {
        let login = self.schemes.get(name)?.login.as_deref()?;
        let http = match self.http() {
            Ok(http) => http,
            Err(e) => return Some(Err(e)),
        };
        Some(
            login
                .discovered_client(http)
                .await
                .map(|c| (c, std::sync::Arc::clone(&login.store))),
        )
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

    /// Every scheme has credentials, and no two need the same place.
    fn is_satisfiable(&self, requirement: &SecurityRequirement) -> bool {
        self.is_configured(requirement) && self.conflict(requirement).is_none()
    }

    /// Every scheme of `requirement` has credentials.
    fn is_configured(&self, requirement: &SecurityRequirement) -> bool {
        requirement.schemes.iter().all(|s| {
            self.schemes
                .get(&s.name)
                .is_some_and(|auth| auth.method.is_some() || auth.login.is_some())
        })
    }

    /// The first two schemes of `requirement` (in its order) whose
    /// credentials go in the same place, as an error naming both and it.
    fn conflict(&self, requirement: &SecurityRequirement) -> Option<AuthError> {
        let placed: Vec<(&str, &Slot)> = requirement
            .schemes
            .iter()
            .filter_map(|s| Some((s.name.as_str(), self.schemes.get(&s.name)?.slot.as_ref()?)))
            .collect();
        placed.iter().enumerate().find_map(|(i, (first, slot))| {
            let (second, _) = placed[i + 1..]
                .iter()
                .find(|(_, other)| slot.same_as(other))?;
            Some(AuthError::ConflictingSchemes {
                first: first.to_string(),
                second: second.to_string(),
                place: slot.describe(),
            })
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
        if let Some(AuthError::ConflictingSchemes {
            first,
            second,
            place,
        }) = self.conflict(requirement)
        {
            return format!(
                "schemes `{first}` and `{second}` together cannot be used (both put their \
                 credential in {place}, which one request carries once)"
            );
        }
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
        request: &mut RequestDraft,
    ) -> Result<(), AuthError> {
        let auth = self.schemes.get(&scheme.name);
        if let Some(login) = auth.and_then(|a| a.login.as_deref()) {
            match login.tokens(self.http()?).await? {
                Some(tokens) => {
                    let missing = login::missing_scopes(&tokens, &scheme.scopes);
                    if !missing.is_empty() {
                        return Err(AuthError::ScopesMissing {
                            scheme: scheme.name.clone(),
                            missing,
                        });
                    }
                    let token = tokens.access_token;
                    set_authorization(&format!("Bearer {token}"), request).map_err(|reason| {
                        AuthError::Login {
                            scheme: scheme.name.clone(),
                            reason: format!("the access token {reason}"),
                        }
                    })?;
                    record_credential(request, &token);
                    return Ok(());
                }
                // Not logged in: the machine identity, when there is one.
                None if auth.is_some_and(|a| a.method.is_some()) => {}
                None => {
                    return Err(AuthError::LoginRequired {
                        scheme: login.scheme().to_string(),
                    });
                }
            }
        }
        let method = auth.and_then(|a| a.method.as_ref());
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
                    .access_token(&scheme.scopes, self.http()?, &request.url())
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

#[cfg(test)]
mod tests;
