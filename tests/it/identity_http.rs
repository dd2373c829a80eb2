//! Per-user identity on the HTTP server, many people at once, against two
//! real authorization servers (node-oidc-provider, see
//! [`crate::identity`]): one is the MCP authorization server
//! (`--oauth-issuer`: it issues the MCP clients' JWTs and signs people in
//! on the login pages), the other is the API's own. A real `serve`
//! process asks each caller to log in through a URL elicitation (MCP
//! 2026-07-28); a scripted browser per person follows the link; each
//! person's calls then reach the API with their own token (the API
//! provider's introspection says whose). A link opened by someone else, a
//! flow finished in another browser and a forged callback are refused;
//! tokens never appear in the server's log or in results.

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt;

use crate::backend::Backend;
use crate::identity::{
    CLIENT_ID, CLIENT_SECRET, Provider, TOKEN_KEY, bearer, introspect, pet, provider_with, scratch,
};

const SIGNIN_ID: &str = "o2m-signin";
const SIGNIN_SECRET: &str = "signin-secret-value-123";
const MCP_CLIENT: &str = "assistant";
const MCP_CLIENT_SECRET: &str = "assistant-secret-value";
const MCP_CLIENT_REDIRECT: &str = "http://127.0.0.1:9/assistant/callback";

/// A free loopback port (bound then released).
pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The two authorization servers for a server at `base`.
pub(crate) async fn providers(base: &str) -> Option<(Provider, Provider)> {
    let mcp_clients = json!([
        {
            "client_id": SIGNIN_ID,
            "client_secret": SIGNIN_SECRET,
            "redirect_uris": [format!("{base}/oauth/signed-in")],
            "grant_types": ["authorization_code"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "client_secret_basic"
        },
        {
            "client_id": MCP_CLIENT,
            "client_secret": MCP_CLIENT_SECRET,
            "redirect_uris": [MCP_CLIENT_REDIRECT],
            "grant_types": ["authorization_code"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "client_secret_basic"
        }
    ]);
    let resource = format!("{base}/mcp");
    let mcp = provider_with(&mcp_clients, &[("RESOURCE", &resource)]).await?;
    let api_clients = json!([{
        "client_id": CLIENT_ID,
        "client_secret": CLIENT_SECRET,
        "redirect_uris": [format!("{base}/oauth/callback")],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "client_secret_basic"
    }]);
    let api = provider_with(&api_clients, &[]).await?;
    Some((mcp, api))
}

/// A browser with its own cookies that follows redirects, except to
/// the assistant's own callback (whose URL carries the code).
fn browser() -> reqwest::Client {
    browser_stopping_at(MCP_CLIENT_REDIRECT)
}

/// A browser that stops before URLs starting with `stop`.
fn browser_stopping_at(stop: &str) -> reqwest::Client {
    let stop = stop.to_string();
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::custom(move |attempt| {
            if attempt.url().as_str().starts_with(&stop) || attempt.previous().len() > 20 {
                attempt.stop()
            } else {
                attempt.follow()
            }
        }))
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

/// On a provider's login page at `at`: logs in as `user` and consents;
/// the response after the consent (redirects followed).
async fn log_in_and_consent(
    browser: &reqwest::Client,
    at: reqwest::Url,
    user: &str,
) -> reqwest::Response {
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
}

/// `user`'s access token for the MCP server, from the MCP authorization
/// server (authorization code + PKCE, resource indicator).
pub(crate) async fn mcp_token(issuer: &str, resource: &str, user: &str) -> String {
    let verifier = format!("{user}-verifier-0123456789abcdefghijklmnopqrstuvwxyz");
    let digest = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, verifier.as_bytes());
    let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(digest.as_ref());
    let mut auth = url::Url::parse(&format!("{issuer}/auth")).unwrap();
    auth.query_pairs_mut()
        .append_pair("client_id", MCP_CLIENT)
        .append_pair("response_type", "code")
        .append_pair("scope", "openid mcp")
        .append_pair("redirect_uri", MCP_CLIENT_REDIRECT)
        .append_pair("code_challenge", &challenge)
        .append_pair("code_challenge_method", "S256")
        .append_pair("resource", resource)
        .append_pair("state", "s");
    let browser = browser();
    let page = browser.get(auth).send().await.unwrap();
    let done = log_in_and_consent(&browser, page.url().clone(), user).await;
    let location = done
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("no redirect to the assistant: {}", done.status()))
        .to_string();
    let code = url::Url::parse(&location)
        .unwrap()
        .query_pairs()
        .find(|(k, _)| k == "code")
        .map(|(_, v)| v.to_string())
        .unwrap_or_else(|| panic!("no code in {location}"));
    let token: Value = reqwest::Client::new()
        .post(format!("{issuer}/token"))
        .basic_auth(MCP_CLIENT, Some(MCP_CLIENT_SECRET))
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", MCP_CLIENT_REDIRECT),
            ("code_verifier", &verifier),
            ("resource", resource),
        ])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let access = token["access_token"]
        .as_str()
        .unwrap_or_else(|| panic!("{token}"));
    assert_eq!(
        access.split('.').count(),
        3,
        "a JWT for the resource: {token}"
    );
    access.to_string()
}

/// A running `serve --transport http` and everything it logged.
pub(crate) struct Server {
    _child: tokio::process::Child,
    pub(crate) url: String,
    pub(crate) log: Arc<Mutex<String>>,
}

async fn serve(spec: &Path, store: &Path, port: u16, mcp_issuer: &str, stateless: bool) -> Server {
    let base = format!("http://127.0.0.1:{port}");
    let mode: &[&str] = if stateless { &["--stateless"] } else { &[] };
    serve_behind(spec, store.as_os_str(), port, &base, mcp_issuer, mode).await
}

/// `serve` listening on `port`, reached by clients and browsers at
/// `base`, keeping tokens in `store` (a file or a redis:// URL).
async fn serve_behind(
    spec: &Path,
    store: &std::ffi::OsStr,
    port: u16,
    base: &str,
    mcp_issuer: &str,
    extra: &[&str],
) -> Server {
    serve_asking(
        spec,
        store,
        port,
        base,
        mcp_issuer,
        extra,
        "openid offline_access pets:read",
    )
    .await
}

/// [`serve_behind`] asking the API's authorization server for `scopes`.
async fn serve_asking(
    spec: &Path,
    store: &std::ffi::OsStr,
    port: u16,
    base: &str,
    mcp_issuer: &str,
    extra: &[&str],
    scopes: &str,
) -> Server {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    command.args(["serve", spec.to_str().unwrap()]);
    start_server(command, store, port, base, mcp_issuer, extra, scopes).await
}

/// Starts `command` (a program serving one document: `openapi2mcp serve
/// SPEC`, or a generated crate) on HTTP as [`serve_asking`] says.
pub(crate) async fn start_server(
    mut command: tokio::process::Command,
    store: &std::ffi::OsStr,
    port: u16,
    base: &str,
    mcp_issuer: &str,
    extra: &[&str],
    scopes: &str,
) -> Server {
    let mut child = command
        .args(["--transport", "http"])
        .args(extra)
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .args(["--oauth-issuer", mcp_issuer])
        .args(["--resource-url", &format!("{base}/mcp")])
        .arg("--token-store")
        .arg(store)
        .env("OPENAPI2MCP_TOKEN_KEY", TOKEN_KEY)
        .env(
            "OPENAPI2MCP_STATE_KEY",
            "a-shared-state-key-0123456789abcdef-xyz",
        )
        .env("OPENAPI2MCP_OAUTH_CLIENT_ID", CLIENT_ID)
        .env("OPENAPI2MCP_OAUTH_CLIENT_SECRET", CLIENT_SECRET)
        .env("OPENAPI2MCP_OAUTH_SCOPES", scopes)
        .env("OPENAPI2MCP_SIGNIN_CLIENT_ID", SIGNIN_ID)
        .env("OPENAPI2MCP_SIGNIN_CLIENT_SECRET", SIGNIN_SECRET)
        .env("RUST_LOG", "debug")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let log = Arc::new(Mutex::new(String::new()));
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
    let sink = Arc::clone(&log);
    tokio::spawn(async move {
        let mut ready = Some(ready_tx);
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains("MCP endpoint at")
                && let Some(tx) = ready.take()
            {
                let _ = tx.send(());
            }
            let mut log = sink.lock().unwrap();
            log.push_str(&line);
            log.push('\n');
        }
    });
    if tokio::time::timeout(Duration::from_secs(60), ready_rx)
        .await
        .is_err()
    {
        panic!("serve did not start:\n{}", log.lock().unwrap());
    }
    Server {
        _child: child,
        url: format!("{base}/mcp"),
        log,
    }
}

/// A 2026-07-28 `tools/call` of `get_pet` by the holder of `token`, whose
/// client can open URLs; `retry` is (`inputResponses`, `requestState`).
pub(crate) async fn call(url: &str, token: &str, retry: Option<(Value, String)>) -> Value {
    call_as(url, token, retry, json!({"elicitation": {"url": {}}})).await
}

/// [`call`] from a client declaring `capabilities`.
async fn call_as(
    url: &str,
    token: &str,
    retry: Option<(Value, String)>,
    capabilities: Value,
) -> Value {
    call_tool(
        url,
        token,
        retry,
        capabilities,
        "get_pet",
        json!({"petId": 1}),
    )
    .await
}

/// A 2026-07-28 `tools/call` of `tool` with `arguments`.
async fn call_tool(
    url: &str,
    token: &str,
    retry: Option<(Value, String)>,
    capabilities: Value,
    tool: &str,
    arguments: Value,
) -> Value {
    let mut params = json!({
        "name": tool,
        "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "it", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": capabilities
        }
    });
    if let Some((responses, state)) = retry {
        params["inputResponses"] = responses;
        params["requestState"] = json!(state);
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let res = reqwest::Client::new()
        .post(url)
        .bearer_auth(token)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", tool)
        .body(body.to_string())
        .timeout(Duration::from_secs(90))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "{:?}", res.text().await);
    let reply = crate::protocol::reply_of(&res.text().await.unwrap());
    reply
        .get("result")
        .cloned()
        .unwrap_or_else(|| panic!("no result: {reply}"))
}

/// The login link and state of an answer asking to log in.
pub(crate) fn login_question(answer: &Value) -> (String, String) {
    let request = &answer["inputRequests"]["login"];
    assert_eq!(request["method"], "elicitation/create", "{answer}");
    assert_eq!(request["params"]["mode"], "url", "{answer}");
    let url = request["params"]["url"].as_str().unwrap().to_string();
    let state = answer["requestState"].as_str().unwrap().to_string();
    (url, state)
}

pub(crate) fn accepted() -> Value {
    json!({"login": {"action": "accept"}})
}

/// `person` logs in through the link with their own browser: signs in at
/// the MCP authorization server as `person`, then at the API's as
/// `api_user`; the last page.
pub(crate) async fn follow_link(link: &str, person: &str, api_user: &str) -> (u16, String) {
    let browser = browser();
    let signin = browser.get(link).send().await.unwrap();
    assert!(
        signin.url().as_str().contains("/interaction/"),
        "the link leads to the sign-in: {}",
        signin.url()
    );
    let api_login = log_in_and_consent(&browser, signin.url().clone(), person).await;
    if !api_login.url().as_str().contains("/interaction/") {
        let status = api_login.status().as_u16();
        return (status, api_login.text().await.unwrap());
    }
    let done = log_in_and_consent(&browser, api_login.url().clone(), api_user).await;
    (done.status().as_u16(), done.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_person_logs_in_through_the_server_and_calls_as_themself() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let Some((mcp, api)) = providers(&base).await else {
        return;
    };
    let backend = Backend::start(pet).await;
    let dir = scratch("http-people");
    let spec = crate::identity::document(&dir, &api.issuer, &backend.url());
    let store = dir.join("tokens.enc");
    let server = serve(&spec, &store, port, &mcp.issuer, true).await;
    let resource = format!("{base}/mcp");

    let mut api_tokens = Vec::new();
    for (person, api_user) in [("alice", "alice@api"), ("bob", "bob@api")] {
        let token = mcp_token(&mcp.issuer, &resource, person).await;
        // Not logged in: asked to open a login page of this server;
        // nothing reaches the API.
        let asked = call(&server.url, &token, None).await;
        let (link, state) = login_question(&asked);
        assert!(
            link.starts_with(&format!("{base}/oauth/connect?")),
            "{link}"
        );
        assert!(!link.contains(person), "the link names nobody: {link}");
        assert!(backend.take().is_empty());
        let (status, page) = follow_link(&link, person, api_user).await;
        assert_eq!(status, 200, "{page}");
        assert!(page.contains("logged in"), "{page}");
        // The retry goes through with the person's own token.
        let result = call(&server.url, &token, Some((accepted(), state))).await;
        assert_ne!(result["isError"], true, "{result}");
        assert_eq!(result["structuredContent"]["name"], "Rex", "{result}");
        let sent = bearer(&backend.take());
        assert_eq!(introspect(&api.issuer, &sent).await["sub"], api_user);
        assert!(!result.to_string().contains(&sent));
        // Later calls need nothing more.
        let again = call(&server.url, &token, None).await;
        assert_ne!(again["isError"], true, "{again}");
        assert_eq!(bearer(&backend.take()), sent);
        api_tokens.push((token, sent));
    }
    assert_ne!(api_tokens[0].1, api_tokens[1].1);
    // Alice's calls still carry alice's token, not the last login's.
    let result = call(&server.url, &api_tokens[0].0, None).await;
    assert_ne!(result["isError"], true, "{result}");
    assert_eq!(bearer(&backend.take()), api_tokens[0].1);

    // Bob logs out (signing in so that it is him): his tokens are removed
    // and revoked, his next call asks again; alice's login stays.
    let bobs = browser();
    let signin = bobs
        .get(format!("{base}/oauth/disconnect"))
        .send()
        .await
        .unwrap();
    let done = log_in_and_consent(&bobs, signin.url().clone(), "bob").await;
    let page = done.text().await.unwrap();
    assert!(
        page.contains("logged out") && page.contains("revoked"),
        "{page}"
    );
    assert_eq!(
        introspect(&api.issuer, &api_tokens[1].1).await["active"],
        false
    );
    // Bob's browser now holds a sign-in at the MCP authorization server;
    // a second logout still asks him to sign in (`prompt=login`), so a
    // link that sends his browser here cannot log him out silently.
    let again = bobs
        .get(format!("{base}/oauth/disconnect"))
        .send()
        .await
        .unwrap();
    assert!(
        again.url().path().contains("/interaction/"),
        "asked to sign in again: {}",
        again.url()
    );
    login_question(&call(&server.url, &api_tokens[1].0, None).await);
    let result = call(&server.url, &api_tokens[0].0, None).await;
    assert_ne!(result["isError"], true, "{result}");
    assert_eq!(bearer(&backend.take()), api_tokens[0].1);

    // Carol's link opened by bob: refused, nothing stored for anyone.
    let carol = mcp_token(&mcp.issuer, &resource, "carol").await;
    let (link, state) = login_question(&call(&server.url, &carol, None).await);
    let (status, page) = follow_link(&link, "bob", "bob@api").await;
    assert_eq!(status, 403, "{page}");
    assert!(page.contains("another user"), "{page}");
    let asked_again = call(
        &server.url,
        &carol,
        Some((json!({"login": {"action": "decline"}}), state)),
    )
    .await;
    assert_eq!(asked_again["isError"], true, "{asked_again}");
    assert!(
        asked_again.to_string().contains("declined"),
        "{asked_again}"
    );
    assert!(backend.take().is_empty());

    // Carol passes the sign-in in her browser, but the API login is
    // finished in bob's: refused (the flow is bound to her browser).
    let (link, _) = login_question(&call(&server.url, &carol, None).await);
    let carols = browser_stopping_at(&format!("{}/auth", api.issuer));
    let signin = carols.get(&link).send().await.unwrap();
    let at_api = log_in_and_consent(&carols, signin.url().clone(), "carol").await;
    let api_login = at_api
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("sent on to the API's login: {}", at_api.status()))
        .to_string();
    assert!(api_login.starts_with(&api.issuer), "{api_login}");
    let bobs = browser();
    let (status, page) = {
        let page = bobs.get(&api_login).send().await.unwrap();
        let done = log_in_and_consent(&bobs, page.url().clone(), "bob@api").await;
        (done.status().as_u16(), done.text().await.unwrap())
    };
    assert_eq!(status, 403, "{page}");
    assert!(page.contains("another browser"), "{page}");
    // A forged callback state: refused.
    let forged = reqwest::get(format!("{base}/oauth/callback?code=stolen&state=forged"))
        .await
        .unwrap();
    assert_eq!(forged.status(), 400);
    let asked = call(&server.url, &carol, None).await;
    login_question(&asked);
    assert!(backend.take().is_empty(), "carol never logged in");

    // Dave signs in but declines at the API's consent: nothing stored,
    // still asked.
    let dave = mcp_token(&mcp.issuer, &resource, "dave").await;
    let (link, _) = login_question(&call(&server.url, &dave, None).await);
    let daves = browser();
    let signin = daves.get(&link).send().await.unwrap();
    let api_login = log_in_and_consent(&daves, signin.url().clone(), "dave").await;
    assert!(
        api_login.url().as_str().contains("/interaction/"),
        "{}",
        api_login.url()
    );
    let declined = daves
        .get(format!("{}/abort", api_login.url()))
        .send()
        .await
        .unwrap();
    let page = declined.text().await.unwrap();
    assert!(page.contains("did not allow"), "{page}");
    login_question(&call(&server.url, &dave, None).await);
    assert!(backend.take().is_empty());

    // No token in the log.
    let log = server.log.lock().unwrap().clone();
    assert!(log.contains("people log in to the API"), "{log}");
    for (mcp_token, api_token) in &api_tokens {
        assert!(!log.contains(mcp_token.as_str()), "an MCP token in the log");
        assert!(!log.contains(api_token.as_str()), "an API token in the log");
    }
    let raw = std::fs::read_to_string(&store).unwrap();
    assert!(!raw.contains(&api_tokens[0].1), "the store is encrypted");
}

/// Login CSRF: alice opens her link and signs in at the MCP authorization
/// server, but stops before the redirect back and sends that
/// `/oauth/signed-in` URL to bob. Bob's browser (its own cookies) is
/// refused before the code is used, so bob's API account is never stored
/// under alice; alice's calls still ask her to log in, and her own browser
/// can still finish the flow.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sign_in_answer_sent_to_someone_else_is_refused() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let Some((mcp, api)) = providers(&base).await else {
        return;
    };
    let backend = Backend::start(pet).await;
    let dir = scratch("http-login-csrf");
    let spec = crate::identity::document(&dir, &api.issuer, &backend.url());
    let store = dir.join("tokens.enc");
    let server = serve(&spec, &store, port, &mcp.issuer, true).await;
    let resource = format!("{base}/mcp");

    let alice = mcp_token(&mcp.issuer, &resource, "alice").await;
    let (link, _) = login_question(&call(&server.url, &alice, None).await);
    let alices = browser_stopping_at(&format!("{base}/oauth/signed-in"));
    let signin = alices.get(&link).send().await.unwrap();
    let stopped = log_in_and_consent(&alices, signin.url().clone(), "alice").await;
    let signed_in = stopped
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("sent back to the server: {}", stopped.status()))
        .to_string();
    assert!(
        signed_in.starts_with(&format!("{base}/oauth/signed-in?")),
        "{signed_in}"
    );

    // Bob's browser opens it (and would log in to the API as bob@api).
    let bobs = browser();
    let page = bobs.get(&signed_in).send().await.unwrap();
    let (status, text) = if page.url().as_str().contains("/interaction/") {
        let done = log_in_and_consent(&bobs, page.url().clone(), "bob@api").await;
        (done.status().as_u16(), done.text().await.unwrap())
    } else {
        (page.status().as_u16(), page.text().await.unwrap())
    };
    assert_eq!(status, 403, "{text}");
    assert!(text.contains("another browser"), "{text}");
    assert!(!store.exists(), "nothing stored");
    login_question(&call(&server.url, &alice, None).await);
    assert!(backend.take().is_empty(), "no call reached the API");

    // Alice's own browser finishes the same flow: her account, her calls.
    let page = alices.get(&signed_in).send().await.unwrap();
    assert!(
        page.url().as_str().contains("/interaction/"),
        "on to the API's login: {}",
        page.url()
    );
    let done = log_in_and_consent(&alices, page.url().clone(), "alice@api").await;
    assert_eq!(done.status(), 200);
    let result = call(&server.url, &alice, None).await;
    assert_ne!(result["isError"], true, "{result}");
    let sent = bearer(&backend.take());
    assert_eq!(introspect(&api.issuer, &sent).await["sub"], "alice@api");
    let log = server.log.lock().unwrap();
    assert!(log.contains("reached another browser"), "audited");
}

/// A process killed when dropped.
pub(crate) struct Running(pub(crate) std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until something listens on `port` (at most 20 s).
pub(crate) async fn listening(port: u16) {
    for _ in 0..200 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("nothing listens on 127.0.0.1:{port}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stateless_instances_behind_nginx_share_logins_through_redis() {
    let (Some(nginx), Some(redis)) = (
        crate::support::system_program("nginx", "nginx-light"),
        crate::support::system_program("redis-server", "redis-server"),
    ) else {
        return;
    };
    let front = free_port();
    let base = format!("http://127.0.0.1:{front}");
    let Some((mcp, api)) = providers(&base).await else {
        return;
    };
    let backend = Backend::start(pet).await;
    let dir = scratch("http-scale-out");
    let spec = crate::identity::document(&dir, &api.issuer, &backend.url());

    let redis_port = free_port();
    let _redis = Running(
        std::process::Command::new(redis)
            .args(["--port", &redis_port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--dir"])
            .arg(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    listening(redis_port).await;
    let store = format!("redis://127.0.0.1:{redis_port}/0");
    let ports = [free_port(), free_port()];
    let mut instances = Vec::new();
    for port in ports {
        instances.push(
            serve_behind(
                &spec,
                store.as_ref(),
                port,
                &base,
                &mcp.issuer,
                &["--stateless"],
            )
            .await,
        );
    }
    let tmp = dir.join("nginx");
    std::fs::create_dir_all(&tmp).unwrap();
    let conf = format!(
        "worker_processes 1;\ndaemon off;\npid {t}/nginx.pid;\nerror_log {t}/error.log warn;\n\
         events {{ worker_connections 64; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {t}/body;\n  proxy_temp_path {t}/proxy;\n\
         fastcgi_temp_path {t}/fastcgi;\n  uwsgi_temp_path {t}/uwsgi;\n  scgi_temp_path {t}/scgi;\n\
         upstream both {{ server 127.0.0.1:{a}; server 127.0.0.1:{b}; }}\n\
         server {{ listen 127.0.0.1:{front}; location / {{ proxy_pass http://both; proxy_http_version 1.1; \
         proxy_set_header Host $host; proxy_buffering off; }} }}\n}}\n",
        t = tmp.display(),
        a = ports[0],
        b = ports[1],
    );
    std::fs::write(tmp.join("nginx.conf"), conf).unwrap();
    let _nginx = Running(
        std::process::Command::new(nginx)
            .arg("-p")
            .arg(&tmp)
            .arg("-c")
            .arg(tmp.join("nginx.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    listening(front).await;

    // Alice logs in through nginx: the question, each page and the retry
    // may reach either instance (round robin), with sealed state only.
    let resource = format!("{base}/mcp");
    let alice = mcp_token(&mcp.issuer, &resource, "alice").await;
    let (link, state) = login_question(&call(&resource, &alice, None).await);
    let (status, page) = follow_link(&link, "alice", "alice@api").await;
    assert_eq!(status, 200, "{page}");
    let result = call(&resource, &alice, Some((accepted(), state))).await;
    assert_ne!(result["isError"], true, "{result}");
    let token = bearer(&backend.take());
    // Each instance, asked directly, serves her with the same login.
    for port in ports {
        let result = call(&format!("http://127.0.0.1:{port}/mcp"), &alice, None).await;
        assert_ne!(result["isError"], true, "instance {port}: {result}");
        assert_eq!(bearer(&backend.take()), token, "instance {port}");
    }
    assert_eq!(introspect(&api.issuer, &token).await["sub"], "alice@api");
    // Bob, not logged in, is asked by either instance.
    let bob = mcp_token(&mcp.issuer, &resource, "bob").await;
    for port in ports {
        login_question(&call(&format!("http://127.0.0.1:{port}/mcp"), &bob, None).await);
    }
    assert!(backend.take().is_empty());
    for server in &instances {
        let log = server.log.lock().unwrap();
        assert!(!log.contains(&token), "an API token in an instance's log");
    }
}

/// An MCP 2025-11-25 client on a session: it can open URLs; on a login
/// question the person (`person` at the MCP authorization server,
/// `api_user` at the API's) follows the link, then it answers.
#[derive(Clone)]
struct OpensLinks {
    person: &'static str,
    api_user: &'static str,
    asked: Arc<Mutex<Vec<String>>>,
}

impl rmcp::ClientHandler for OpensLinks {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        serde_json::from_value(json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {"url": {}}},
            "clientInfo": {"name": "opens-links", "version": "1"}
        }))
        .unwrap()
    }

    async fn create_elicitation(
        &self,
        request: rmcp::model::ElicitRequestParams,
        _context: rmcp::service::RequestContext<rmcp::RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, rmcp::ErrorData> {
        let rmcp::model::ElicitRequestParams::UrlElicitationParams { url, .. } = request else {
            panic!("a URL elicitation was expected");
        };
        self.asked.lock().unwrap().push(url.clone());
        let (status, page) = follow_link(&url, self.person, self.api_user).await;
        assert_eq!(status, 200, "{page}");
        Ok(rmcp::model::ElicitResult::new(
            rmcp::model::ElicitationAction::Accept,
        ))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn older_clients_are_asked_on_their_session_or_given_the_link() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let Some((mcp, api)) = providers(&base).await else {
        return;
    };
    let backend = Backend::start(pet).await;
    let dir = scratch("http-sessions");
    let spec = crate::identity::document(&dir, &api.issuer, &backend.url());
    let server = serve(&spec, &dir.join("tokens.enc"), port, &mcp.issuer, false).await;
    let resource = format!("{base}/mcp");

    // A 2025-11-25 session client: asked with elicitation/create (URL
    // mode); the call waits for the login, then goes through.
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let alice = mcp_token(&mcp.issuer, &resource, "alice").await;
    let handler = OpensLinks {
        person: "alice",
        api_user: "alice@api",
        asked: Arc::default(),
    };
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(resource.clone()).auth_header(alice.clone()),
    );
    let client = rmcp::service::ClientServiceExt::serve_with_lifecycle(
        handler.clone(),
        transport,
        rmcp::service::ClientLifecycleMode::Initialize,
    )
    .await
    .unwrap();
    let params = rmcp::model::CallToolRequestParams::new("get_pet")
        .with_arguments(json!({"petId": 1}).as_object().unwrap().clone());
    let result = client.call_tool(params.clone()).await.unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    assert_eq!(handler.asked.lock().unwrap().len(), 1);
    let alices = bearer(&backend.take());
    assert_eq!(introspect(&api.issuer, &alices).await["sub"], "alice@api");
    let again = client.call_tool(params).await.unwrap();
    assert_ne!(again.is_error, Some(true), "{again:?}");
    assert_eq!(handler.asked.lock().unwrap().len(), 1, "asked once");
    assert_eq!(bearer(&backend.take()), alices);
    client.cancel().await.unwrap();

    // A client that cannot open URLs: the link comes in the result, for
    // the person to open, saying what to do next; the model's retry,
    // made while the person is still logging in, waits for the login and
    // goes through (no second link, nothing to guess).
    let bob = mcp_token(&mcp.issuer, &resource, "bob").await;
    let refused = call_as(&resource, &bob, None, json!({"elicitation": {"form": {}}})).await;
    assert_eq!(refused["isError"], true, "{refused}");
    let text = refused["content"][0]["text"].as_str().unwrap().to_string();
    for says in [
        "cannot open the login page itself",
        "It works only for them, for the next 15 minutes",
        "call `get_pet` again with the same arguments",
        "waits up to 30 s",
    ] {
        assert!(text.contains(says), "{says:?} in {text}");
    }
    let link = text
        .split_whitespace()
        .find(|w| w.starts_with(&format!("{base}/oauth/connect?")))
        .unwrap_or_else(|| panic!("no link in {text}"))
        .to_string();
    assert!(backend.take().is_empty());
    let retry = tokio::spawn({
        let (resource, bob) = (resource.clone(), bob.clone());
        async move { call_as(&resource, &bob, None, json!({})).await }
    });
    // The retry is waiting by the time the person has logged in.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(!retry.is_finished(), "the retry waits for the login");
    let (status, page) = follow_link(&link, "bob", "bob@api").await;
    assert_eq!(status, 200, "{page}");
    let result = retry.await.unwrap();
    assert_ne!(result["isError"], true, "{result}");
    let token = bearer(&backend.take());
    assert_eq!(introspect(&api.issuer, &token).await["sub"], "bob@api");

    // Each host as it declares itself (scripts/external-clients/
    // profiles.mjs): only one declaring URL elicitation (VS Code) is asked
    // with one; every other gets the link in the result, saying what to do.
    let ui = json!({"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}});
    let hosts = [
        ("claude.ai", json!({"extensions": ui})),
        ("claude-code", json!({"elicitation": {"form": {}}})),
        (
            "cursor",
            json!({"elicitation": {"form": {}}, "extensions": ui}),
        ),
        (
            "vscode",
            json!({"elicitation": {"form": {}, "url": {}}, "extensions": ui}),
        ),
        ("gemini", json!({"roots": {"listChanged": true}})),
        ("opencode", json!({})),
    ];
    for (host, capabilities) in hosts {
        // A person of their own: a link handed out makes that person's
        // next call wait for their login.
        let person = mcp_token(&mcp.issuer, &resource, &format!("{host}-user")).await;
        let answer = call_as(&resource, &person, None, capabilities).await;
        if host == "vscode" {
            let (link, _) = login_question(&answer);
            assert!(
                link.starts_with(&format!("{base}/oauth/connect?")),
                "{host}: {link}"
            );
        } else {
            assert_eq!(answer["isError"], true, "{host}: {answer}");
            let text = answer["content"][0]["text"].as_str().unwrap_or_default();
            assert!(
                text.contains("cannot open the login page itself")
                    && text.contains(&format!("{base}/oauth/connect?"))
                    && text.contains("call `get_pet` again with the same arguments"),
                "{host}: {text}"
            );
        }
    }
    assert!(
        backend.take().is_empty(),
        "nothing reaches the API before a login"
    );

    let log = server.log.lock().unwrap();
    assert!(!log.contains(&token), "an API token in the log");
    assert!(!log.contains(&alices), "an API token in the log");
}

/// [`crate::identity::document`] plus an operation that writes and needs
/// `pets:write`.
fn document_with_writes(dir: &Path, issuer: &str, api: &str) -> std::path::PathBuf {
    let path = crate::identity::document(dir, issuer, api);
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let scopes =
        &mut doc["components"]["securitySchemes"]["oauth"]["flows"]["authorizationCode"]["scopes"];
    scopes["pets:write"] = json!("change pets");
    doc["paths"]["/pets"] = json!({"post": {
        "operationId": "createPet",
        "security": [{"oauth": ["pets:write"]}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {
            "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}}},
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}
    }});
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_needing_more_scopes_asks_the_person_to_allow_them() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let Some((mcp, api)) = providers(&base).await else {
        return;
    };
    let backend = Backend::start(pet).await;
    let dir = scratch("http-step-up");
    let spec = document_with_writes(&dir, &api.issuer, &backend.url());
    let store = dir.join("tokens.enc");
    let server = serve_asking(
        &spec,
        store.as_os_str(),
        port,
        &base,
        &mcp.issuer,
        &["--stateless"],
        "openid offline_access pets:read",
    )
    .await;
    let resource = format!("{base}/mcp");
    let caps = json!({"elicitation": {"url": {}}});
    let alice = mcp_token(&mcp.issuer, &resource, "alice").await;

    // Logged in for reading only.
    let (link, state) = login_question(&call(&resource, &alice, None).await);
    let (status, page) = follow_link(&link, "alice", "alice@api").await;
    assert_eq!(status, 200, "{page}");
    assert_ne!(
        call(&resource, &alice, Some((accepted(), state))).await["isError"],
        true
    );
    let reading = bearer(&backend.take());
    let about = introspect(&api.issuer, &reading).await;
    assert!(
        !about["scope"].as_str().unwrap_or("").contains("pets:write"),
        "{about}"
    );

    // Writing needs pets:write: asked to log in again allowing it; nothing
    // is sent before.
    let create = |retry| {
        call_tool(
            &resource,
            &alice,
            retry,
            caps.clone(),
            "create_pet",
            json!({"name": "Bob"}),
        )
    };
    let asked = create(None).await;
    let (link, state) = login_question(&asked);
    let message = asked["inputRequests"]["login"]["params"]["message"]
        .as_str()
        .unwrap();
    assert!(message.contains("pets:write"), "{message}");
    assert!(backend.take().is_empty());
    let (status, page) = follow_link(&link, "alice", "alice@api").await;
    assert_eq!(status, 200, "{page}");
    let result = create(Some((accepted(), state))).await;
    assert_ne!(result["isError"], true, "{result}");
    let writing = bearer(&backend.take());
    let about = introspect(&api.issuer, &writing).await;
    assert_eq!(about["sub"], "alice@api");
    assert!(
        about["scope"].as_str().unwrap_or("").contains("pets:write"),
        "{about}"
    );
    // Reading still works, with the new login.
    assert_ne!(call(&resource, &alice, None).await["isError"], true);
    assert_eq!(bearer(&backend.take()), writing);
    drop(server);
}
