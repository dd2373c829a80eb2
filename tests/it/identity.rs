//! Per-user identity on stdio against a real authorization server:
//! node-oidc-provider (npm `oidc-provider`, OpenID certified, installed by
//! scripts/oauth/setup.sh) on 127.0.0.1 with its development login and
//! consent pages, driven by a scripted browser (cookies, forms). The real
//! `openapi2mcp login`/`logout` processes run the flows; a real `serve`
//! process calls a recording backend, which must see the person's own
//! token; the provider's introspection endpoint says whose token it is and
//! whether it is still active. Tokens never appear in any process's
//! output or in results.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt;

use crate::backend::{Backend, Recorded, Reply};
use crate::support::root;

pub(crate) const CLIENT_ID: &str = "o2m";
pub(crate) const CLIENT_SECRET: &str = "s3cret-client-secret";
pub(crate) const TOKEN_KEY: &str = "0123456789abcdef0123456789abcdef-test-key";

/// The authorization server, killed when dropped.
pub(crate) struct Provider {
    _child: tokio::process::Child,
    pub(crate) issuer: String,
}

/// target/oauth with the provider installed, by scripts/oauth/setup.sh on
/// first use (again when scripts/oauth/provider.mjs changed). `None` only
/// when npm is not available and the npm skip switch is set, as for the
/// test documents.
fn oracle() -> Option<PathBuf> {
    static READY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let dir = root().join("target/oauth");
    let ready = *READY.get_or_init(|| {
        let current = std::fs::read(dir.join("provider.mjs")).ok()
            == std::fs::read(root().join("scripts/oauth/provider.mjs")).ok();
        if current && dir.join("node_modules/oidc-provider").is_dir() {
            return true;
        }
        if std::process::Command::new("npm")
            .arg("--version")
            .output()
            .is_err()
        {
            return crate::support::npm_missing(
                "the OAuth authorization server (npm oidc-provider)",
                std::env::var(crate::support::SKIP_NPM).ok(),
            );
        }
        let status = std::process::Command::new("bash")
            .arg(root().join("scripts/oauth/setup.sh"))
            .status()
            .expect("run scripts/oauth/setup.sh");
        assert!(status.success(), "scripts/oauth/setup.sh failed");
        true
    });
    ready.then_some(dir)
}

/// Starts the provider with access tokens valid `ttl` seconds (`None`:
/// see [`oracle`]).
pub(crate) async fn provider(ttl: u64) -> Option<Provider> {
    let clients = json!([{
        "client_id": CLIENT_ID,
        "client_secret": CLIENT_SECRET,
        "application_type": "native",
        "redirect_uris": ["http://127.0.0.1/callback"],
        "grant_types": ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "client_secret_basic"
    }]);
    provider_with(&clients, &[("ACCESS_TOKEN_TTL", &ttl.to_string())]).await
}

/// Starts the provider with these registered `clients` and environment
/// (`RESOURCE`, `ACCESS_TOKEN_TTL`, `PORT`).
pub(crate) async fn provider_with(clients: &Value, env: &[(&str, &str)]) -> Option<Provider> {
    let dir = oracle()?;
    let node = [root().join("target/external-clients/bin/node")]
        .into_iter()
        .find(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from("node"));
    let mut command = tokio::process::Command::new(node);
    command
        .arg(dir.join("provider.mjs"))
        .current_dir(&dir)
        .env("OIDC_CLIENTS", clients.to_string());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs the provider");
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let issuer = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .expect("the provider starts within 30 s")
        .unwrap()
        .expect("the provider prints its issuer");
    // Keep reading what it prints (a closed pipe would stop it).
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Some(Provider {
        _child: child,
        issuer: issuer.trim().to_string(),
    })
}

/// A document whose one operation needs the person's `pets:read`, with
/// the provider's endpoints in its OAuth2 scheme (the authorization code
/// flow, OpenAPI 3.2's device flow, and metadata for the rest).
pub(crate) fn document(dir: &Path, issuer: &str, api: &str) -> PathBuf {
    let doc = json!({
        "openapi": "3.1.0",
        "info": {"title": "Pets", "version": "1"},
        "servers": [{"url": api}],
        "components": {"securitySchemes": {"oauth": {
            "type": "oauth2",
            "oauth2MetadataUrl": format!("{issuer}/.well-known/openid-configuration"),
            "flows": {
                "authorizationCode": {
                    "authorizationUrl": format!("{issuer}/auth"),
                    "tokenUrl": format!("{issuer}/token"),
                    "scopes": {"openid": "who", "offline_access": "refresh", "pets:read": "read pets"}
                },
                "deviceAuthorization": {
                    "deviceAuthorizationUrl": format!("{issuer}/device/auth"),
                    "tokenUrl": format!("{issuer}/token"),
                    "scopes": {"openid": "who", "offline_access": "refresh", "pets:read": "read pets"}
                }
            }
        }}},
        "paths": {"/pets/{petId}": {"get": {
            "operationId": "getPet",
            "security": [{"oauth": ["pets:read"]}],
            "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "integer"}}],
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}
        }}}
    });
    let path = dir.join("pets.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

pub(crate) fn pet(_: &Recorded) -> Reply {
    (
        200,
        "application/json",
        br#"{"id":1,"name":"Rex"}"#.to_vec(),
    )
}

/// A scratch directory for one identity test, removed when dropped.
pub(crate) fn scratch(name: &str) -> crate::support::Scratch {
    crate::support::scratch(&format!("identity-{name}"))
}

fn command(args: &[&str], store: &Path) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.args(args)
        .arg("--token-store")
        .arg(store)
        .env("OPENAPI2MCP_TOKEN_KEY", TOKEN_KEY)
        .env("OPENAPI2MCP_OAUTH_CLIENT_ID", CLIENT_ID)
        .env("OPENAPI2MCP_OAUTH_CLIENT_SECRET", CLIENT_SECRET)
        .env(
            "OPENAPI2MCP_OAUTH_SCOPES",
            "openid offline_access pets:read",
        )
        .env("RUST_LOG", "debug")
        .stdin(Stdio::null())
        .kill_on_drop(true);
    cmd
}

/// A running `login`: the URL it printed, and its stderr so far.
struct Login {
    child: tokio::process::Child,
    url: String,
    stderr: tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStderr>>,
    said: String,
}

async fn start_login(spec: &Path, store: &Path, extra: &[&str]) -> Login {
    let mut args = vec![
        "login",
        spec.to_str().unwrap(),
        "--no-browser",
        "--timeout",
        "60",
    ];
    args.extend(extra);
    start_login_command(command(&args, store)).await
}

/// Runs the `login` command `cmd` until it prints its URL.
async fn start_login_command(mut cmd: tokio::process::Command) -> Login {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let mut said = String::new();
    let url = tokio::time::timeout(Duration::from_secs(30), async {
        while let Ok(Some(line)) = stderr.next_line().await {
            said.push_str(&line);
            said.push('\n');
            if let Some(url) = line.trim().strip_prefix("http") {
                return format!("http{url}");
            }
        }
        panic!("login printed no URL:\n{said}");
    })
    .await
    .expect("login prints its URL");
    Login {
        child,
        url,
        stderr,
        said,
    }
}

impl Login {
    /// Waits for the process; its exit status and all it said.
    async fn finish(mut self) -> (bool, String) {
        while let Ok(Some(line)) = self.stderr.next_line().await {
            self.said.push_str(&line);
            self.said.push('\n');
        }
        let status = tokio::time::timeout(Duration::from_secs(60), self.child.wait())
            .await
            .expect("login ends")
            .unwrap();
        (status.success(), self.said)
    }
}

/// A browser with cookies that follows redirects.
pub(crate) fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

/// Logs in as `user` on the provider's development pages and consents;
/// returns the final page (the login process's "close this window").
pub(crate) async fn approve(browser: &reqwest::Client, url: &str, user: &str) -> String {
    let login_page = browser.get(url).send().await.unwrap();
    let at = login_page.url().clone();
    let consent = browser
        .post(at)
        .form(&[("prompt", "login"), ("login", user), ("password", "any")])
        .send()
        .await
        .unwrap();
    let at = consent.url().clone();
    browser
        .post(at)
        .form(&[("prompt", "consent")])
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// What the provider's introspection endpoint says of `token`.
pub(crate) async fn introspect(issuer: &str, token: &str) -> Value {
    reqwest::Client::new()
        .post(format!("{issuer}/token/introspection"))
        .basic_auth(CLIENT_ID, Some(CLIENT_SECRET))
        .form(&[("token", token)])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// One `tools/call` of `get_pet` through a real `serve` process; the
/// result, and the server's stderr.
async fn call_through_serve(spec: &Path, store: &Path) -> (Value, String) {
    let mut cmd = command(&["serve", spec.to_str().unwrap()], store);
    cmd.env("RUST_LOG", "debug");
    get_pet_through(cmd).await
}

/// One `tools/call` of `get_pet` through the `serve` process `cmd`
/// starts (bounded to 60 s); the result, and the server's stderr.
pub(crate) async fn get_pet_through(cmd: tokio::process::Command) -> (Value, String) {
    let (transport, stderr) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    if let Some(stderr) = stderr {
        let log = std::sync::Arc::clone(&log);
        tokio::spawn(async move {
            let mut lines = tokio::io::BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let mut log = log.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
    }
    let client = ().serve(transport).await.unwrap();
    let params = CallToolRequestParams::new("get_pet")
        .with_arguments(json!({"petId": 1}).as_object().unwrap().clone());
    let result = tokio::time::timeout(Duration::from_secs(60), client.call_tool(params))
        .await
        .expect("the call ends within 60 s")
        .unwrap();
    client.cancel().await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let said = log.lock().unwrap().clone();
    (serde_json::to_value(result).unwrap(), said)
}

pub(crate) fn bearer(seen: &[Recorded]) -> String {
    assert_eq!(seen.len(), 1, "one API request");
    seen[0]
        .header("authorization")
        .and_then(|v| v.strip_prefix("Bearer "))
        .expect("a bearer token")
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_logs_in_calls_as_themself_refreshes_and_logs_out() {
    let Some(provider) = provider(4).await else {
        return;
    };
    let backend = Backend::start(pet).await;
    let dir = scratch("stdio");
    let spec = document(&dir, &provider.issuer, &backend.url());
    let store = dir.join("tokens.enc");

    // Not logged in: the call says how to log in; nothing is sent.
    let (refused, _) = call_through_serve(&spec, &store).await;
    let text = refused["content"][0]["text"].as_str().unwrap_or_default();
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(text.contains("login") && text.contains("`oauth`"), "{text}");
    assert!(backend.take().is_empty());

    // A forged callback (another state) does not end the login; the real
    // one, after the person logs in and consents, does.
    let login = start_login(&spec, &store, &[]).await;
    let callback = url::Url::parse(&login.url)
        .unwrap()
        .query_pairs()
        .find(|(k, _)| k == "redirect_uri")
        .map(|(_, v)| v.to_string())
        .expect("a loopback redirect_uri");
    assert!(callback.starts_with("http://127.0.0.1:"), "{callback}");
    let forged = reqwest::get(format!("{callback}?code=stolen&state=forged"))
        .await
        .unwrap();
    assert!(
        forged.status().is_success(),
        "the page answers, the login ignores it"
    );
    let page = approve(&browser(), &login.url, "alice").await;
    assert!(page.contains("close this window"), "{page}");
    let (ok, said) = login.finish().await;
    assert!(ok, "{said}");
    assert!(said.contains("logged in to `oauth`"), "{said}");
    let raw = std::fs::read_to_string(&store).unwrap();

    // Calls carry alice's own token.
    let (result, served) = call_through_serve(&spec, &store).await;
    assert_ne!(result["isError"], true, "{result}");
    let token = bearer(&backend.take());
    let about = introspect(&provider.issuer, &token).await;
    assert_eq!(about["active"], true, "{about}");
    assert_eq!(about["sub"], "alice", "{about}");
    for (what, text) in [
        ("login output", &said),
        ("serve log", &served),
        ("store file", &raw),
    ] {
        assert!(
            !text.contains(&token),
            "the access token appears in the {what}"
        );
    }
    assert!(!result.to_string().contains(&token));

    // The token lives 4 s and is refreshed 2 s before expiry: after 2.5 s
    // the next call refreshes it.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let (result, served) = call_through_serve(&spec, &store).await;
    assert_ne!(result["isError"], true, "{result}");
    let refreshed = bearer(&backend.take());
    assert_ne!(refreshed, token, "a new access token");
    assert_eq!(
        introspect(&provider.issuer, &refreshed).await["sub"],
        "alice"
    );
    assert!(!served.contains(&refreshed));

    // Logout: removed and revoked; calls need a login again.
    let out = command(&["logout", spec.to_str().unwrap()], &store)
        .output()
        .await
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && said.contains("removed and revoked"),
        "{said}"
    );
    assert!(!said.contains(&refreshed));
    let (refused, _) = call_through_serve(&spec, &store).await;
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(backend.take().is_empty());
    let about = introspect(&provider.issuer, &refreshed).await;
    assert_eq!(about["active"], false, "revoked with its grant: {about}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_declines_is_not_logged_in() {
    let Some(provider) = provider(3600).await else {
        return;
    };
    let dir = scratch("decline");
    let spec = document(&dir, &provider.issuer, "http://127.0.0.1:9");
    let store = dir.join("tokens.enc");
    let login = start_login(&spec, &store, &[]).await;
    let browser = browser();
    let page = browser.get(&login.url).send().await.unwrap();
    let abort = format!("{}/abort", page.url());
    let _ = browser.get(abort).send().await.unwrap();
    let (ok, said) = login.finish().await;
    assert!(!ok, "{said}");
    assert!(said.contains("access_denied"), "{said}");
    assert!(!store.exists(), "nothing stored");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_device_flow_logs_in_without_a_browser_here() {
    let Some(provider) = provider(3600).await else {
        return;
    };
    let backend = Backend::start(pet).await;
    let dir = scratch("device");
    let spec = document(&dir, &provider.issuer, &backend.url());
    let store = dir.join("tokens.enc");
    let login = start_login(&spec, &store, &["--device"]).await;
    assert!(login.url.contains("user_code="), "{}", login.url);
    // Elsewhere, a browser confirms the code, logs in and consents.
    let browser = browser();
    let confirm = browser.get(&login.url).send().await.unwrap();
    let at = confirm.url().clone();
    let page = confirm.text().await.unwrap();
    let field = |name: &str| {
        let marker = format!("name=\"{name}\" value=\"");
        page.split(&marker)
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .map(str::to_string)
    };
    let xsrf = field("xsrf").unwrap_or_else(|| panic!("no xsrf field in {page}"));
    let user_code = field("user_code").unwrap_or_default();
    let login_page = browser
        .post(at)
        .form(&[
            ("xsrf", xsrf.as_str()),
            ("user_code", user_code.as_str()),
            ("confirm", "yes"),
        ])
        .send()
        .await
        .unwrap();
    let at = login_page.url().clone();
    let consent = browser
        .post(at)
        .form(&[("prompt", "login"), ("login", "carol"), ("password", "any")])
        .send()
        .await
        .unwrap();
    let at = consent.url().clone();
    let done = browser
        .post(at)
        .form(&[("prompt", "consent")])
        .send()
        .await
        .unwrap();
    assert!(done.status().is_success(), "{}", done.text().await.unwrap());
    let (ok, said) = login.finish().await;
    assert!(ok, "{said}");
    let (result, _) = call_through_serve(&spec, &store).await;
    assert_ne!(result["isError"], true, "{result}");
    let token = bearer(&backend.take());
    assert_eq!(introspect(&provider.issuer, &token).await["sub"], "carol");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generated_crate_logs_in_and_out_the_same_way() {
    let Some(provider) = provider(3600).await else {
        return;
    };
    // generated/features has a `userLogin` scheme (authorization code);
    // the provider's endpoints come from the environment, the device
    // endpoint and revocation from its metadata.
    let binary = crate::parity::generated_binary("features");
    let dir = scratch("generated");
    let store = dir.join("tokens.enc");
    let env = |cmd: &mut tokio::process::Command| {
        cmd.arg("--token-store")
            .arg(&store)
            .env("OPENAPI2MCP_TOKEN_KEY", TOKEN_KEY)
            .env("OPENAPI2MCP_USERLOGIN_CLIENT_ID", CLIENT_ID)
            .env("OPENAPI2MCP_USERLOGIN_CLIENT_SECRET", CLIENT_SECRET)
            .env(
                "OPENAPI2MCP_USERLOGIN_TOKEN_URL",
                format!("{}/token", provider.issuer),
            )
            .env(
                "OPENAPI2MCP_USERLOGIN_AUTHORIZATION_URL",
                format!("{}/auth", provider.issuer),
            )
            .env(
                "OPENAPI2MCP_USERLOGIN_METADATA_URL",
                format!("{}/.well-known/openid-configuration", provider.issuer),
            )
            .env(
                "OPENAPI2MCP_USERLOGIN_SCOPES",
                "openid offline_access pets:read",
            )
            .stdin(Stdio::null())
            .kill_on_drop(true);
    };
    let mut cmd = tokio::process::Command::new(&binary);
    cmd.args(["login", "--no-browser", "--timeout", "60"]);
    env(&mut cmd);
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let mut said = String::new();
    let url = tokio::time::timeout(Duration::from_secs(30), async {
        while let Ok(Some(line)) = stderr.next_line().await {
            said.push_str(&line);
            said.push('\n');
            if let Some(rest) = line.trim().strip_prefix("http") {
                return format!("http{rest}");
            }
        }
        panic!("the generated login printed no URL:\n{said}");
    })
    .await
    .unwrap();
    let page = approve(&browser(), &url, "dave").await;
    assert!(page.contains("close this window"), "{page}");
    while let Ok(Some(line)) = stderr.next_line().await {
        said.push_str(&line);
        said.push('\n');
    }
    let status = child.wait().await.unwrap();
    assert!(status.success(), "{said}");
    assert!(said.contains("logged in to `userLogin`"), "{said}");
    let mut cmd = tokio::process::Command::new(&binary);
    cmd.arg("logout");
    env(&mut cmd);
    let out = cmd.output().await.unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && said.contains("removed and revoked"),
        "{said}"
    );
}

/// Jupyter Server's token as an apiKey scheme called `token`: its older
/// variable name would be `OPENAPI2MCP_TOKEN_KEY`, the token store's key.
/// With both set (the API key in `OPENAPI2MCP_CRED_TOKEN_KEY`), a real
/// `serve` starts, the API gets the API key (never the store's key), and
/// the token store opens with its own key (a stored login is used).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scheme_named_like_a_setting_keeps_its_own_variable() {
    use openapi2mcp::runtime::auth::store::{FileStore, StoredTokens, TokenStore};
    const API_KEY: &str = "token jupyter-api-k3y";
    let backend = Backend::start(pet).await;
    let dir = scratch("setting-collision");
    let token_url = "http://127.0.0.1:9/token";
    let doc = json!({
        "openapi": "3.1.0",
        "info": {"title": "Jupyter-ish", "version": "1"},
        "servers": [{"url": backend.url()}],
        "components": {"securitySchemes": {
            "token": {"type": "apiKey", "in": "header", "name": "Authorization"},
            "oauth": {"type": "oauth2", "flows": {"authorizationCode": {
                "authorizationUrl": "http://127.0.0.1:9/auth",
                "tokenUrl": token_url,
                "scopes": {"pets:read": "read pets"}
            }}}
        }},
        "paths": {
            "/api/kernels": {"get": {
                "operationId": "listKernels",
                "security": [{"token": []}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}
            }},
            "/pets/{petId}": {"get": {
                "operationId": "getPet",
                "security": [{"oauth": ["pets:read"]}],
                "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}
            }}
        }
    });
    let spec = dir.join("jupyter.json");
    std::fs::write(&spec, doc.to_string()).unwrap();
    // A login kept under the store's own key.
    let store = dir.join("tokens.enc");
    let now = openapi2mcp::runtime::auth::login::now_secs();
    FileStore::with_secret(&store, TOKEN_KEY)
        .unwrap()
        .put(
            &format!("local\n{token_url}\n{CLIENT_ID}"),
            &StoredTokens {
                access_token: "alice-access-token".into(),
                refresh_token: None,
                expires_at: Some(now + 3600),
                obtained_at: Some(now),
                scopes: vec!["pets:read".into()],
            },
        )
        .await
        .unwrap();

    let mut cmd = command(&["serve", spec.to_str().unwrap()], &store);
    cmd.env("OPENAPI2MCP_CRED_TOKEN_KEY", API_KEY);
    let (transport, stderr) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    if let Some(stderr) = stderr {
        let log = std::sync::Arc::clone(&log);
        tokio::spawn(async move {
            let mut lines = tokio::io::BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                log.lock().unwrap().push_str(&format!("{line}\n"));
            }
        });
    }
    let client = tokio::time::timeout(Duration::from_secs(30), ().serve(transport))
        .await
        .expect("serve starts")
        .unwrap_or_else(|e| panic!("serve starts: {e}\n{}", log.lock().unwrap()));
    let kernels = client
        .call_tool(CallToolRequestParams::new("list_kernels"))
        .await
        .unwrap();
    assert_ne!(kernels.is_error, Some(true), "{kernels:?}");
    let seen = backend.take();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        seen[0].header("authorization"),
        Some(API_KEY),
        "the API key"
    );
    let pet = client
        .call_tool(
            CallToolRequestParams::new("get_pet")
                .with_arguments(json!({"petId": 1}).as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    assert_ne!(pet.is_error, Some(true), "{pet:?}");
    assert_eq!(bearer(&backend.take()), "alice-access-token");
    client.cancel().await.unwrap();
    let log = log.lock().unwrap().clone();
    assert!(
        !log.contains(TOKEN_KEY) && !log.contains("jupyter-api-k3y"),
        "{log}"
    );

    // Without OPENAPI2MCP_CRED_TOKEN_KEY the store's key is never sent
    // (the request goes without a key, as for any unconfigured scheme),
    // and serve warns, naming both variables.
    let cmd = command(&["serve", spec.to_str().unwrap()], &store);
    let (transport, stderr) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = tokio::io::BufReader::new(stderr.unwrap()).lines();
    let client = ().serve(transport).await.unwrap();
    let unkeyed = client
        .call_tool(CallToolRequestParams::new("list_kernels"))
        .await
        .unwrap();
    assert!(!format!("{unkeyed:?}").contains(TOKEN_KEY));
    let seen = backend.take();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].header("authorization"), None, "no store key sent");
    client.cancel().await.unwrap();
    let mut said = String::new();
    while let Ok(Ok(Some(line))) =
        tokio::time::timeout(Duration::from_secs(10), stderr.next_line()).await
    {
        said.push_str(&line);
        said.push('\n');
    }
    assert!(
        said.contains("OPENAPI2MCP_CRED_TOKEN_KEY") && said.contains("OPENAPI2MCP_TOKEN_KEY"),
        "{said}"
    );
    assert!(!said.contains(TOKEN_KEY));
}

/// A public client (no secret): node-oidc-provider rotates its refresh
/// tokens, each usable once, and revokes the whole grant when a used one
/// comes back.
const PUBLIC_ID: &str = "o2m-public";

/// `openapi2mcp ARGS` as the public client, with logins in `store` (a file
/// or a redis:// URL).
fn public_command(args: &[&str], store: &std::ffi::OsStr) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.args(args)
        .arg("--token-store")
        .arg(store)
        .env("OPENAPI2MCP_TOKEN_KEY", TOKEN_KEY)
        .env("OPENAPI2MCP_OAUTH_CLIENT_ID", PUBLIC_ID)
        .env_remove("OPENAPI2MCP_OAUTH_CLIENT_SECRET")
        .env(
            "OPENAPI2MCP_OAUTH_SCOPES",
            "openid offline_access pets:read",
        )
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .kill_on_drop(true);
    cmd
}

/// Two `serve` processes sharing one login (two desktop clients; two
/// instances over Redis) find its access token expiring and call at the
/// same moment: one refreshes, the other waits for it and uses what it
/// stored. Both calls go through, and the store still holds a working
/// login (a later refresh succeeds).
async fn a_shared_login_survives_two_processes_refreshing(dir: &Path, store: &std::ffi::OsStr) {
    let clients = json!([
        {
            "client_id": CLIENT_ID,
            "client_secret": CLIENT_SECRET,
            "redirect_uris": ["http://127.0.0.1/callback"],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "client_secret_basic"
        },
        {
            "client_id": PUBLIC_ID,
            "application_type": "native",
            "redirect_uris": ["http://127.0.0.1/callback"],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none"
        }
    ]);
    let Some(provider) = provider_with(&clients, &[("ACCESS_TOKEN_TTL", "3")]).await else {
        return;
    };
    let backend = Backend::start(pet).await;
    let spec = document(dir, &provider.issuer, &backend.url());
    let spec = spec.to_str().unwrap();
    let login = start_login_command(public_command(
        &["login", spec, "--no-browser", "--timeout", "60"],
        store,
    ))
    .await;
    let page = approve(&browser(), &login.url, "alice").await;
    assert!(page.contains("close this window"), "{page}");
    let (ok, said) = login.finish().await;
    assert!(ok, "{said}");

    let get_pet = || {
        CallToolRequestParams::new("get_pet")
            .with_arguments(json!({"petId": 1}).as_object().unwrap().clone())
    };
    for round in 0..2 {
        // Lives 3 s, refreshed from 1 s before expiry.
        tokio::time::sleep(Duration::from_millis(2_200)).await;
        let first =
            ().serve(TokioChildProcess::new(public_command(&["serve", spec], store)).unwrap())
                .await
                .unwrap();
        let second =
            ().serve(TokioChildProcess::new(public_command(&["serve", spec], store)).unwrap())
                .await
                .unwrap();
        let (a, b) = tokio::time::timeout(Duration::from_secs(60), async {
            tokio::join!(first.call_tool(get_pet()), second.call_tool(get_pet()))
        })
        .await
        .expect("both calls end");
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_ne!(a.is_error, Some(true), "round {round}, first: {a:?}");
        assert_ne!(b.is_error, Some(true), "round {round}, second: {b:?}");
        let seen = backend.take();
        assert_eq!(seen.len(), 2, "round {round}");
        for request in &seen {
            let token = request
                .header("authorization")
                .and_then(|v| v.strip_prefix("Bearer "))
                .expect("a bearer token");
            let about = introspect(&provider.issuer, token).await;
            assert_eq!(about["active"], true, "round {round}: {about}");
            assert_eq!(about["sub"], "alice", "round {round}: {about}");
        }
        first.cancel().await.unwrap();
        second.cancel().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_refresh_a_shared_login_in_a_file_store() {
    let dir = scratch("refresh-race-file");
    let store = dir.join("tokens.enc");
    a_shared_login_survives_two_processes_refreshing(&dir, store.as_os_str()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_refresh_a_shared_login_in_redis() {
    let Some(redis) = crate::support::system_program("redis-server", "redis-server") else {
        return;
    };
    let dir = scratch("refresh-race-redis");
    let port = crate::identity_http::free_port();
    let _redis = crate::identity_http::Running(
        std::process::Command::new(redis)
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--dir"])
            .arg(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    crate::identity_http::listening(port).await;
    let store = format!("redis://127.0.0.1:{port}/0");
    a_shared_login_survives_two_processes_refreshing(&dir, store.as_ref()).await;
}
