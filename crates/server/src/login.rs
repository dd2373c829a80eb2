//! `login` and `logout` (of `openapi2mcp` and of generated crates): one
//! person's own identity towards the API, for serving on stdio. `login` runs the authorization code flow with PKCE
//! through the browser and a loopback redirect (`http://127.0.0.1:PORT/callback`,
//! RFC 8252), or the device flow, against the authorization server the
//! document's OAuth2 scheme names, and keeps the tokens in the token store
//! `serve` reads (by default the OS keyring when one answers, else the
//! encrypted file); `logout` removes them and revokes the grant where the
//! server offers revocation.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Query, State};
use axum::response::Html;
use tokio::sync::mpsc;

use openapi2mcp_runtime::auth::Credentials;
use openapi2mcp_runtime::auth::login::{LOCAL_USER, LoginClient};
use openapi2mcp_runtime::auth::store::{default_location, describe_location, open_store};
use openapi2mcp_runtime::binding::SecurityScheme;

/// Why a login or logout did not happen (the message says what to do).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LoginError(pub String);

/// The flags of `login`, shared by `openapi2mcp login` and generated
/// crates' `login`.
#[derive(Debug, Clone, clap::Args)]
pub struct LoginFlags {
    /// The OAuth2 security scheme to log in to (needed when the document has several).
    #[arg(long)]
    pub scheme: Option<String>,
    /// Use the device flow: a code to enter on another device (no browser here).
    #[arg(long)]
    pub device: bool,
    /// Do not try to open a browser; only print the login URL.
    #[arg(long)]
    pub no_browser: bool,
    /// The token store: `keyring:` (the OS keyring), a file encrypted with OPENAPI2MCP_TOKEN_KEY, or redis://host:port[/db]. Default: the OS keyring when one answers, else ~/.local/share/openapi2mcp/tokens.enc.
    #[arg(long, value_name = "STORE")]
    pub token_store: Option<PathBuf>,
    /// Seconds to wait for the login to be completed.
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    pub timeout: u64,
    /// Loopback port of the login redirect (0: any free port; register http://127.0.0.1/callback with the authorization server).
    #[arg(long, value_name = "PORT", default_value_t = 0)]
    pub callback_port: u16,
}

/// The flags of `logout`.
#[derive(Debug, Clone, clap::Args)]
pub struct LogoutFlags {
    /// The OAuth2 security scheme to log out of.
    #[arg(long)]
    pub scheme: Option<String>,
    /// The token store: `keyring:`, a file or redis://host:port[/db] (default as for `login`).
    #[arg(long, value_name = "STORE")]
    pub token_store: Option<PathBuf>,
}

impl LoginFlags {
    /// What these flags ask `login` to do.
    pub fn command(&self) -> LoginCommand {
        LoginCommand {
            scheme: self.scheme.clone(),
            device: self.device,
            open_browser: !self.no_browser,
            store: self.token_store.clone(),
            timeout: Duration::from_secs(self.timeout.max(1)),
            callback_port: self.callback_port,
        }
    }
}

impl LogoutFlags {
    /// Logs out as these flags say.
    pub fn run(&self, schemes: &BTreeMap<String, SecurityScheme>) -> Result<String, LoginError> {
        logout(schemes, self.scheme.as_deref(), self.token_store.as_deref())
    }
}

/// What `login` does.
#[derive(Debug, Clone)]
pub struct LoginCommand {
    /// The scheme to log in to; needed when the document has several.
    pub scheme: Option<String>,
    /// Use the device flow (no browser on this machine).
    pub device: bool,
    /// Try to open the login page in a browser (else it is only printed).
    pub open_browser: bool,
    /// The token store (`keyring:`, a file or a Redis URL); `None`: the
    /// OS keyring when one answers, else the default file.
    pub store: Option<PathBuf>,
    /// How long to wait for the person.
    pub timeout: Duration,
    /// The loopback port of the redirect (0: any free port).
    pub callback_port: u16,
}

/// The OAuth2 scheme to log in to: `name`, or the only one offering a
/// login flow.
pub fn choose_scheme<'a>(
    schemes: &'a BTreeMap<String, SecurityScheme>,
    name: Option<&str>,
) -> Result<(&'a str, &'a SecurityScheme), LoginError> {
    let loginable: Vec<(&String, &SecurityScheme)> = schemes
        .iter()
        .filter(|(_, s)| matches!(s, SecurityScheme::OAuth2 { login: Some(_), .. }))
        .collect();
    match name {
        Some(name) => schemes
            .get_key_value(name)
            .map(|(k, v)| (k.as_str(), v))
            .ok_or_else(|| {
                LoginError(format!(
                    "--scheme {name}: the document has no such security scheme (it has: {})",
                    schemes.keys().cloned().collect::<Vec<_>>().join(", ")
                ))
            }),
        None => match loginable.as_slice() {
            [(name, scheme)] => Ok((name.as_str(), scheme)),
            [] => Err(LoginError(
                "the document has no OAuth2 security scheme with an authorization code or device flow: there is nothing to log in to".into(),
            )),
            several => Err(LoginError(format!(
                "the document has several OAuth2 schemes to log in to; choose one with --scheme ({})",
                several
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        },
    }
}

fn metadata_url(name: &str, scheme: &SecurityScheme, credentials: &Credentials) -> Option<String> {
    credentials
        .value(name, "METADATA_URL")
        .map(str::to_string)
        .or_else(|| match scheme {
            SecurityScheme::OAuth2 { login: Some(l), .. } => l.metadata_url.clone(),
            _ => None,
        })
}

fn http() -> Result<reqwest::Client, LoginError> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| LoginError(format!("cannot create the HTTP client: {e}")))
}

async fn client_for(
    name: &str,
    scheme: &SecurityScheme,
    http: &reqwest::Client,
) -> Result<LoginClient, LoginError> {
    let credentials = Credentials::from_env();
    let client = LoginClient::from_scheme(name, scheme, &credentials).map_err(LoginError)?;
    client
        .discover(metadata_url(name, scheme, &credentials).as_deref(), http)
        .await
        .map_err(LoginError)
}

/// Logs the person in to `scheme` and stores their tokens; returns what
/// to tell them.
pub fn login(
    schemes: &BTreeMap<String, SecurityScheme>,
    command: &LoginCommand,
) -> Result<String, LoginError> {
    let (name, scheme) = choose_scheme(schemes, command.scheme.as_deref())?;
    let location = store_location(command.store.as_deref())?;
    let store = open_store(&location).map_err(|e| LoginError(e.to_string()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| LoginError(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(async {
        let http = http()?;
        let client = client_for(name, scheme, &http).await?;
        let tokens = if command.device || client.authorization_url.is_none() {
            device_login(&client, command, &http).await?
        } else {
            browser_login(&client, command, &http).await?
        };
        store
            .put(&client.store_key(LOCAL_USER), &tokens)
            .await
            .map_err(|e| LoginError(e.to_string()))?;
        Ok(format!(
            "logged in to `{name}`; the tokens are in {}. `serve` uses them for this API's calls",
            describe_location(&location)
        ))
    })
}

/// The store `named` (`--token-store`), else the default
/// ([`default_location`]: the OS keyring when one answers, else the
/// encrypted file).
fn store_location(named: Option<&std::path::Path>) -> Result<String, LoginError> {
    match named {
        Some(path) => Ok(path.to_string_lossy().into_owned()),
        None => default_location().map_err(LoginError),
    }
}

/// The browser flow: the login page, then the redirect to this process.
async fn browser_login(
    client: &LoginClient,
    command: &LoginCommand,
    http: &reqwest::Client,
) -> Result<openapi2mcp_runtime::auth::store::StoredTokens, LoginError> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", command.callback_port))
        .await
        .map_err(|e| {
            LoginError(format!(
                "cannot listen on 127.0.0.1:{} for the login redirect: {e}",
                command.callback_port
            ))
        })?;
    let port = listener
        .local_addr()
        .map_err(|e| LoginError(e.to_string()))?
        .port();
    let redirect = format!("http://127.0.0.1:{port}/callback");
    let pending = client
        .authorization_request(&redirect)
        .map_err(LoginError)?;
    let (sender, mut answers) = mpsc::channel::<BTreeMap<String, String>>(8);
    let app = axum::Router::new()
        .route("/callback", axum::routing::get(callback))
        .with_state(Arc::new(sender));
    let shutdown = tokio_util::sync::CancellationToken::new();
    let stop = shutdown.clone();
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(async move { stop.cancelled().await })
            .await;
    });
    eprintln!(
        "Open this URL to log in to `{}`:\n\n  {}\n",
        client.scheme, pending.url
    );
    if command.open_browser {
        open_browser(&pending.url);
    }
    let outcome = tokio::time::timeout(command.timeout, async {
        // Bounded: at most this many callbacks are looked at.
        for _ in 0..32 {
            let Some(query) = answers.recv().await else {
                break;
            };
            if query.get("state").map(String::as_str) != Some(pending.state.as_str()) {
                // Not the answer to this login (forged, replayed, or another
                // tab): refused, and the real one is still awaited.
                tracing::warn!(
                    "a login callback with a state this login did not issue was refused"
                );
                continue;
            }
            if let Some(error) = query.get("error") {
                let description = query.get("error_description").cloned().unwrap_or_default();
                return Err(LoginError(format!(
                    "the login was not completed: the authorization server answered `{error}`{}",
                    if description.is_empty() {
                        String::new()
                    } else {
                        format!(" ({description})")
                    }
                )));
            }
            return match query.get("code") {
                Some(code) => Ok(code.clone()),
                None => Err(LoginError(
                    "the login callback brought neither a code nor an error".into(),
                )),
            };
        }
        Err(LoginError(
            "too many login callbacks that were not this login's".into(),
        ))
    })
    .await;
    shutdown.cancel();
    let _ = server.await;
    let code = outcome.map_err(|_| {
        LoginError(format!(
            "nobody completed the login within {} seconds",
            command.timeout.as_secs()
        ))
    })??;
    client
        .exchange_code(pending, &code, http)
        .await
        .map_err(LoginError)
}

/// The redirect's handler: hands the query to the waiting login.
async fn callback(
    State(sender): State<Arc<mpsc::Sender<BTreeMap<String, String>>>>,
    Query(query): Query<BTreeMap<String, String>>,
) -> (axum::http::StatusCode, Html<&'static str>) {
    let has_state = query.contains_key("state");
    let _ = sender.try_send(query);
    if has_state {
        (
            axum::http::StatusCode::OK,
            Html(
                "<!doctype html><title>openapi2mcp</title><p>You can close this window and return to the terminal.</p>",
            ),
        )
    } else {
        (
            axum::http::StatusCode::BAD_REQUEST,
            Html("<!doctype html><title>openapi2mcp</title><p>This is not a login answer.</p>"),
        )
    }
}

/// Opens `url` with the desktop's opener when there is one; quietly does
/// nothing otherwise (the URL is printed either way).
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let _ = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}

/// The device flow: a code the person enters elsewhere.
async fn device_login(
    client: &LoginClient,
    command: &LoginCommand,
    http: &reqwest::Client,
) -> Result<openapi2mcp_runtime::auth::store::StoredTokens, LoginError> {
    let device = client.start_device(http).await.map_err(LoginError)?;
    match &device.verification_uri_complete {
        Some(complete) => eprintln!(
            "To log in to `{}`, open\n\n  {complete}\n\nor open {} and enter the code {}\n",
            client.scheme, device.verification_uri, device.user_code
        ),
        None => eprintln!(
            "To log in to `{}`, open {} and enter the code {}\n",
            client.scheme, device.verification_uri, device.user_code
        ),
    }
    client
        .finish_device(device, command.timeout, http)
        .await
        .map_err(LoginError)
}

/// Removes the person's tokens for `scheme` and revokes the grant where
/// the server offers revocation; returns what to tell them.
pub fn logout(
    schemes: &BTreeMap<String, SecurityScheme>,
    scheme: Option<&str>,
    store: Option<&std::path::Path>,
) -> Result<String, LoginError> {
    let (name, scheme) = choose_scheme(schemes, scheme)?;
    let location = store_location(store)?;
    let store = open_store(&location).map_err(|e| LoginError(e.to_string()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| LoginError(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(async {
        let http = http()?;
        let client = client_for(name, scheme, &http).await?;
        let Some(tokens) = store
            .remove(&client.store_key(LOCAL_USER))
            .await
            .map_err(|e| LoginError(e.to_string()))?
        else {
            return Ok(format!("not logged in to `{name}`: nothing to do"));
        };
        match client.revoke(&tokens, &http).await {
            Ok(true) => Ok(format!("logged out of `{name}`: the tokens are removed and revoked")),
            Ok(false) => Ok(format!(
                "logged out of `{name}`: the tokens are removed (the authorization server offers no revocation endpoint; they stay valid until they expire)"
            )),
            Err(e) => Ok(format!(
                "logged out of `{name}`: the tokens are removed, but revoking them failed: {e}"
            )),
        }
    })
}
