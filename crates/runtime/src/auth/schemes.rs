//! Each security scheme resolved against the configured credentials: what
//! it needs, and how it is applied when configured.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::super::binding::{Location, SecurityScheme};
use super::credentials::{Credentials, Secret, env_var};
use super::login::{LoginClient, UserLogin};
use super::oauth2::ClientCredentials;
use super::store::TokenStore;

const KEY: &str = "KEY";
const TOKEN: &str = "TOKEN";
const USERNAME: &str = "USERNAME";
const PASSWORD: &str = "PASSWORD";
const CLIENT_ID: &str = "CLIENT_ID";
const CLIENT_SECRET: &str = "CLIENT_SECRET";
const SCOPES: &str = "SCOPES";
const TOKEN_URL: &str = "TOKEN_URL";

/// One security scheme: what it needs and, when configured, how to apply it.
pub(super) struct SchemeAuth {
    /// What the scheme is, for messages (`apiKey in header `X-Key``).
    pub(super) label: String,
    /// Variable sets that would each configure the scheme, or why it is
    /// unsupported.
    pub(super) options: Result<Vec<Vec<String>>, String>,
    /// The configured credential.
    pub(super) method: Option<Method>,
    /// Every secret value read for the scheme.
    pub(super) secrets: Vec<Secret>,
    /// Where the credential goes on a request, when it goes anywhere.
    pub(super) slot: Option<Slot>,
    /// Each person's own login, when the scheme is served that way: used
    /// before `method` (client credentials) for whoever has logged in.
    pub(super) login: Option<Box<UserLogin>>,
}

/// The one place of a request a scheme's credential occupies: a header
/// (`Authorization` for every `http`, `oauth2` and `openIdConnect`
/// scheme), a query parameter or a cookie. A request carries each once, so
/// two schemes of one requirement sharing a slot cannot both be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Slot {
    location: Location,
    /// The name as the document writes it.
    name: String,
}

impl Slot {
    fn new(location: Location, name: &str) -> Self {
        Self {
            location,
            name: name.to_string(),
        }
    }

    /// Whether both name the same place: header names compare without
    /// case (RFC 9110 §5.1), query parameter and cookie names exactly.
    pub(super) fn same_as(&self, other: &Slot) -> bool {
        self.location == other.location
            && match self.location {
                Location::Header => self.name.eq_ignore_ascii_case(&other.name),
                _ => self.name == other.name,
            }
    }

    /// `the `Authorization` header`, `the query parameter `key``, ….
    pub(super) fn describe(&self) -> String {
        match self.location {
            Location::Header => format!("the `{}` header", self.name),
            Location::Query => format!("the query parameter `{}`", self.name),
            Location::Cookie => format!("the cookie `{}`", self.name),
            Location::Path => format!("the path parameter `{}`", self.name),
            Location::Querystring => format!("the query string `{}`", self.name),
        }
    }
}

/// How a configured scheme is applied.
pub(super) enum Method {
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
            slot: None,
            login: None,
        }
    }

    pub(super) fn token_cache(&self) -> Option<&ClientCredentials> {
        match &self.method {
            Some(Method::ClientCredentials(cc)) => Some(cc),
            _ => None,
        }
    }
}

/// Every field a scheme of this kind reads (`KEY`, `TOKEN`, ...).
pub(super) fn fields(scheme: &SecurityScheme) -> &'static [&'static str] {
    match scheme {
        SecurityScheme::ApiKey { .. } => &[KEY],
        SecurityScheme::Http { scheme, .. } if scheme.eq_ignore_ascii_case("basic") => {
            &[USERNAME, PASSWORD]
        }
        SecurityScheme::Http { .. } | SecurityScheme::OpenIdConnect { .. } => &[TOKEN],
        SecurityScheme::OAuth2 { .. } => &[
            TOKEN,
            CLIENT_ID,
            CLIENT_SECRET,
            TOKEN_URL,
            SCOPES,
            "METADATA_URL",
            "AUTHORIZATION_URL",
            "DEVICE_AUTHORIZATION_URL",
            "REVOCATION_URL",
        ],
        SecurityScheme::MutualTls => &[],
    }
}

/// Reads what `scheme` needs from `credentials`; with a token `store`,
/// OAuth2 schemes offering a login flow serve each person's own login.
pub(super) fn resolve(
    name: &str,
    scheme: &SecurityScheme,
    credentials: &Credentials,
    store: Option<&Arc<dyn TokenStore>>,
) -> SchemeAuth {
    match scheme {
        SecurityScheme::ApiKey {
            name: key_name,
            location,
        } => resolve_api_key(name, key_name, *location, credentials),
        SecurityScheme::Http { scheme: http, .. } => resolve_http(name, http, credentials),
        SecurityScheme::OAuth2 {
            client_credentials_token_url,
            flows,
            login,
        } => {
            let mut auth = resolve_oauth2(
                name,
                client_credentials_token_url.as_deref(),
                flows,
                credentials,
            );
            // A ready `_TOKEN` wins over anyone's login.
            let token_set = credentials.value(name, TOKEN).is_some();
            if let (Some(store), Some(flows), false) = (store, login, token_set)
                && let Ok(client) = LoginClient::from_scheme(name, scheme, credentials)
            {
                auth.secrets
                    .extend(client.secret().map(|s| Secret(s.to_string())));
                let metadata = credentials
                    .value(name, "METADATA_URL")
                    .map(str::to_string)
                    .or_else(|| flows.metadata_url.clone());
                auth.login = Some(Box::new(UserLogin::new(
                    client,
                    metadata,
                    Arc::clone(store),
                )));
                // The document offers no client credentials flow: the
                // client and `_TOKEN_URL` (which overrides the login's
                // token endpoint) are the login's, not a machine identity
                // that would be used instead of the person's.
                if client_credentials_token_url.is_none()
                    && matches!(auth.method, Some(Method::ClientCredentials(_)))
                {
                    auth.method = None;
                }
            }
            auth
        }
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
    let read = credentials.credential(scheme, KEY);
    let key = read.as_ref().map(|(_, k)| Secret(k.to_string()));
    let mut secrets: Vec<Secret> = key.iter().cloned().collect();
    if let Some(key) = &key
        && location == Location::Query
    {
        secrets.push(Secret(
            url::form_urlencoded::byte_serialize(key.expose().as_bytes()).collect(),
        ));
    }
    let method = key.zip(read).map(|(key, (read_from, _))| Method::ApiKey {
        name: key_name.to_string(),
        location,
        key,
        variable: read_from,
    });
    SchemeAuth {
        label,
        options: Ok(vec![vec![variable]]),
        method,
        secrets,
        slot: Some(Slot::new(location, key_name)),
        login: None,
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
    let user_read = credentials.credential(scheme, USERNAME);
    let pass_read = credentials.credential(scheme, PASSWORD);
    let username = user_read.as_ref().map(|(_, v)| *v);
    let password = pass_read.as_ref().map(|(_, v)| *v);
    // The user name is masked in results only when it is the key (no
    // password, as Stripe's secret key): beside a password it is an
    // identifier, and masking it mangled every result naming the user
    // (a record, a path, the next page's arguments).
    let user_is_key = password.is_none_or(str::is_empty);
    let mut secrets: Vec<Secret> = [username.filter(|_| user_is_key), password]
        .into_iter()
        .flatten()
        .filter(|s| !s.is_empty())
        .map(|s| Secret(s.to_string()))
        .collect();
    let method = username.map(|user| {
        let encoded = STANDARD.encode(format!("{user}:{}", password.unwrap_or_default()));
        secrets.push(Secret(encoded.clone()));
        let read_user = user_read.as_ref().map_or(&user_var, |(v, _)| v);
        let read_pass = pass_read.as_ref().map_or(&pass_var, |(v, _)| v);
        Method::Authorization {
            value: Secret(format!("Basic {encoded}")),
            variable: format!("{read_user}/{read_pass}"),
        }
    });
    SchemeAuth {
        label: "http basic".into(),
        options: Ok(vec![vec![user_var, pass_var]]),
        method,
        secrets,
        slot: Some(authorization()),
        login: None,
    }
}

/// The `Authorization` header, where every scheme but `apiKey` goes.
fn authorization() -> Slot {
    Slot::new(Location::Header, "Authorization")
}

/// A scheme satisfied by `_TOKEN`, sent as `Authorization: <auth> <token>`.
fn resolve_token(scheme: &str, auth: &str, label: String, credentials: &Credentials) -> SchemeAuth {
    let variable = env_var(scheme, TOKEN);
    let read = credentials.credential(scheme, TOKEN);
    let token = read.as_ref().map(|(_, t)| *t);
    SchemeAuth {
        label,
        options: Ok(vec![vec![variable]]),
        method: read.as_ref().map(|(read_from, t)| Method::Authorization {
            value: Secret(format!("{auth} {t}")),
            variable: read_from.clone(),
        }),
        secrets: token.map(|t| Secret(t.to_string())).into_iter().collect(),
        slot: Some(authorization()),
        login: None,
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
    let [id_var, secret_var, url_var] =
        [CLIENT_ID, CLIENT_SECRET, TOKEN_URL].map(|f| env_var(scheme, f));
    let secret = credentials.value(scheme, CLIENT_SECRET);
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
    let url_read = credentials.credential(scheme, TOKEN_URL);
    let token_url = url_read.as_ref().map(|(_, u)| *u).or(document_url);
    if let (Some(id), Some(secret), Some(token_url)) =
        (credentials.value(scheme, CLIENT_ID), secret, token_url)
    {
        auth.method = Some(Method::ClientCredentials(Box::new(ClientCredentials {
            client_id: id.to_string(),
            client_secret: Secret(secret.to_string()),
            token_url: token_url.to_string(),
            url_variable: url_read.map_or(url_var, |(read_from, _)| read_from),
            scopes: credentials.value(scheme, SCOPES).map(split_scopes),
            slots: Mutex::new(BTreeMap::new()),
        })));
    }
    auth
}

fn split_scopes(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}
