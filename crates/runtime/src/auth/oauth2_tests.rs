//! Unit tests of the OAuth2 client-credentials flow: the helpers are the
//! parent test module's.

use super::*;

// --- OAuth2 client credentials ------------------------------------------------

#[derive(Clone, Copy)]
enum Mode {
    Issue {
        expires_in: Option<u64>,
        delay_ms: u64,
    },
    Reject,
}

/// What the token endpoint received: `Authorization` header and form.
type Seen = (Option<String>, Vec<(String, String)>);

#[derive(Clone)]
struct TokenServer {
    hits: Arc<AtomicUsize>,
    seen: Arc<Mutex<Vec<Seen>>>,
    mode: Mode,
}

async fn token_endpoint(
    State(server): State<TokenServer>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let n = server.hits.fetch_add(1, Ordering::SeqCst) + 1;
    let authorization = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let form = url::form_urlencoded::parse(body.as_bytes())
        .into_owned()
        .collect();
    lock(&server.seen).push((authorization, form));
    let json = [(header::CONTENT_TYPE, "application/json")];
    match server.mode {
        Mode::Reject => (
            StatusCode::BAD_REQUEST,
            json,
            r#"{"error":"invalid_client","error_description":"unknown client"}"#,
        )
            .into_response(),
        Mode::Issue {
            expires_in,
            delay_ms,
        } => {
            tokio::time::sleep(Duration::from_millis(delay_ms)).await;
            let mut token =
                serde_json::json!({"access_token": format!("fetched-{n}"), "token_type": "Bearer"});
            if let Some(seconds) = expires_in {
                token["expires_in"] = seconds.into();
            }
            (StatusCode::OK, json, token.to_string()).into_response()
        }
    }
}

async fn start(mode: Mode) -> (TokenServer, String) {
    let server = TokenServer {
        hits: Arc::default(),
        seen: Arc::default(),
        mode,
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("address");
    let app = axum::Router::new()
        .route("/oauth/token", axum::routing::post(token_endpoint))
        .with_state(server.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (server, format!("http://{address}/oauth/token"))
}

fn oauth_authenticator(token_url: &str, extra: &[(&str, &str)]) -> Authenticator {
    let mut pairs = vec![
        ("OPENAPI2MCP_PETSTORE_AUTH_CLIENT_ID", "my client"),
        ("OPENAPI2MCP_PETSTORE_AUTH_CLIENT_SECRET", SECRET),
    ];
    pairs.extend_from_slice(extra);
    authenticator(
        vec![("petstore-auth", oauth2_scheme(Some(token_url)))],
        &pairs,
    )
}

fn scoped(scopes: &[&str]) -> Vec<SecurityRequirement> {
    vec![SecurityRequirement {
        schemes: vec![SchemeUse {
            name: "petstore-auth".into(),
            scopes: scopes.iter().map(|s| s.to_string()).collect(),
        }],
    }]
}

async fn bearer(auth: &Authenticator, security: &[SecurityRequirement]) -> Option<String> {
    let req = applied(auth, security, "https://api.example/pets").await;
    req.ok().and_then(|r| header_of(&r, "Authorization"))
}

#[tokio::test]
async fn client_credentials_form_and_cache() {
    let (server, url) = start(Mode::Issue {
        expires_in: Some(3600),
        delay_ms: 0,
    })
    .await;
    let auth = oauth_authenticator(&url, &[]);
    let security = scoped(&["write:pets", "read:pets"]);
    assert_eq!(
        bearer(&auth, &security).await.as_deref(),
        Some("Bearer fetched-1")
    );
    assert_eq!(
        bearer(&auth, &security).await.as_deref(),
        Some("Bearer fetched-1")
    );
    assert_eq!(server.hits.load(Ordering::SeqCst), 1);

    let seen = lock(&server.seen).clone();
    let (authorization, form) = &seen[0];
    let client = STANDARD.encode(format!("my+client:{SECRET}"));
    assert_eq!(
        authorization.as_deref(),
        Some(format!("Basic {client}").as_str())
    );
    let form: BTreeMap<_, _> = form.iter().cloned().collect();
    assert_eq!(
        form.get("grant_type").map(String::as_str),
        Some("client_credentials")
    );
    assert_eq!(
        form.get("scope").map(String::as_str),
        Some("read:pets write:pets")
    );
    assert!(!form.contains_key("client_secret"));
    assert!(auth.secret_values().contains(&"fetched-1".to_string()));

    // Another scope set gets its own token.
    assert_eq!(
        bearer(&auth, &scoped(&["read:pets"])).await.as_deref(),
        Some("Bearer fetched-2")
    );
    assert_eq!(
        bearer(&auth, &security).await.as_deref(),
        Some("Bearer fetched-1")
    );
}

#[tokio::test]
async fn scopes_variable_overrides_requirement() {
    let (server, url) = start(Mode::Issue {
        expires_in: None,
        delay_ms: 0,
    })
    .await;
    let auth = oauth_authenticator(&url, &[("OPENAPI2MCP_PETSTORE_AUTH_SCOPES", "b  a")]);
    assert_eq!(
        bearer(&auth, &scoped(&["x"])).await.as_deref(),
        Some("Bearer fetched-1")
    );
    assert_eq!(
        bearer(&auth, &scoped(&[])).await.as_deref(),
        Some("Bearer fetched-1")
    );
    let seen = lock(&server.seen).clone();
    assert_eq!(seen.len(), 1);
    assert!(
        seen[0]
            .1
            .contains(&("scope".to_string(), "a b".to_string()))
    );
}

#[tokio::test]
async fn token_url_variable_and_relative_url() {
    let (server, url) = start(Mode::Issue {
        expires_in: None,
        delay_ms: 0,
    })
    .await;
    let overridden = oauth_authenticator(
        "https://unreachable.invalid/token",
        &[("OPENAPI2MCP_PETSTORE_AUTH_TOKEN_URL", &url)],
    );
    assert_eq!(
        bearer(&overridden, &scoped(&[])).await.as_deref(),
        Some("Bearer fetched-1")
    );
    let base = url.trim_end_matches("/oauth/token");
    let relative = oauth_authenticator("/oauth/token", &[]);
    let req = applied(&relative, &scoped(&[]), &format!("{base}/v1/pets")).await;
    assert_eq!(
        req.map(|r| header_of(&r, "Authorization")),
        Ok(Some("Bearer fetched-2".to_string()))
    );
    assert_eq!(server.hits.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn short_lived_token_is_refetched() {
    let (server, url) = start(Mode::Issue {
        expires_in: Some(1),
        delay_ms: 0,
    })
    .await;
    let auth = oauth_authenticator(&url, &[]);
    let security = scoped(&[]);
    assert_eq!(
        bearer(&auth, &security).await.as_deref(),
        Some("Bearer fetched-1")
    );
    assert_eq!(
        bearer(&auth, &security).await.as_deref(),
        Some("Bearer fetched-1")
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        bearer(&auth, &security).await.as_deref(),
        Some("Bearer fetched-2")
    );
    assert_eq!(server.hits.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn token_without_expiry_is_kept() {
    let (server, url) = start(Mode::Issue {
        expires_in: None,
        delay_ms: 0,
    })
    .await;
    let auth = oauth_authenticator(&url, &[]);
    for _ in 0..3 {
        assert_eq!(
            bearer(&auth, &scoped(&[])).await.as_deref(),
            Some("Bearer fetched-1")
        );
    }
    assert_eq!(server.hits.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_calls_fetch_once() {
    let (server, url) = start(Mode::Issue {
        expires_in: Some(3600),
        delay_ms: 200,
    })
    .await;
    let auth = Arc::new(oauth_authenticator(&url, &[]));
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..10 {
        let auth = Arc::clone(&auth);
        tasks.spawn(async move { bearer(&auth, &scoped(&["read:pets"])).await });
    }
    let results = tasks.join_all().await;
    assert_eq!(results.len(), 10);
    assert!(
        results
            .iter()
            .all(|r| r.as_deref() == Some("Bearer fetched-1")),
        "{results:?}"
    );
    assert_eq!(server.hits.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn token_endpoint_error_names_the_oauth_code() {
    let (_server, url) = start(Mode::Reject).await;
    let auth = oauth_authenticator(&url, &[]);
    let e = applied(&auth, &scoped(&[]), "https://api.example/pets").await;
    let Err(e) = e else { panic!("no error") };
    assert!(
        matches!(&e, AuthError::Token { url: u, reason } if *u == url && reason.contains("invalid_client") && reason.contains("unknown client")),
        "{e:?}"
    );
    let message = e.to_string();
    assert!(
        message.contains(&url) && !message.contains(SECRET),
        "{message}"
    );
}

#[tokio::test]
async fn unreachable_token_endpoint_is_a_token_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    drop(listener);
    let auth = oauth_authenticator(&format!("http://{address}/token"), &[]);
    let e = applied(&auth, &scoped(&[]), "https://api.example/pets").await;
    assert!(
        matches!(&e, Err(AuthError::Token { reason, .. }) if reason.contains("request failed")),
        "{e:?}"
    );
}
