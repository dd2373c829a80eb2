use std::sync::atomic::{AtomicUsize, Ordering};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::super::binding::Location;
use super::super::request::PreparedRequest;
use super::credentials::*;
use super::oauth2::*;
use super::placement::*;
use super::*;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

const SECRET: &str = "s3cr3t-value";

fn creds(pairs: &[(&str, &str)]) -> Credentials {
    Credentials::from_pairs(pairs.iter().copied())
}

/// A GET draft for `url`, its query split into the pieces the request
/// builder would have made.
fn request(url: &str) -> RequestDraft {
    let (location, query) = url.split_once('?').unwrap_or((url, ""));
    RequestDraft {
        method: "GET".into(),
        location: location.into(),
        query: query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect(),
        headers: Vec::new(),
        body: None,
        credentials: Vec::new(),
        parsed: None,
    }
}

fn header_of(request: &PreparedRequest, name: &str) -> Option<String> {
    request
        .headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.clone())
}

fn requirement(names: &[&str]) -> SecurityRequirement {
    SecurityRequirement {
        schemes: names
            .iter()
            .map(|n| SchemeUse {
                name: n.to_string(),
                scopes: Vec::new(),
            })
            .collect(),
    }
}

fn api_key(name: &str, location: Location) -> SecurityScheme {
    SecurityScheme::ApiKey {
        name: name.into(),
        location,
    }
}

fn http(scheme: &str) -> SecurityScheme {
    SecurityScheme::Http {
        scheme: scheme.into(),
        bearer_format: None,
    }
}

fn authenticator(schemes: Vec<(&str, SecurityScheme)>, pairs: &[(&str, &str)]) -> Authenticator {
    let schemes = schemes
        .into_iter()
        .map(|(n, s)| (n.to_string(), s))
        .collect();
    Authenticator::new(&schemes, &creds(pairs), reqwest::Client::new())
}

async fn applied(
    auth: &Authenticator,
    security: &[SecurityRequirement],
    url: &str,
) -> Result<PreparedRequest, AuthError> {
    let mut req = request(url);
    auth.apply(security, &mut req).await.map(|()| req.finish())
}

// --- naming ------------------------------------------------------------

#[test]
fn env_var_naming() {
    assert_eq!(env_var("api_key", "KEY"), "OPENAPI2MCP_API_KEY_KEY");
    assert_eq!(
        env_var("petstore-auth", "TOKEN"),
        "OPENAPI2MCP_PETSTORE_AUTH_TOKEN"
    );
    assert_eq!(
        env_var("bearerAuth", "TOKEN"),
        "OPENAPI2MCP_BEARERAUTH_TOKEN"
    );
    assert_eq!(env_var("a.-b  c", "KEY"), "OPENAPI2MCP_A_B_C_KEY");
    assert_eq!(env_var("clé", "KEY"), "OPENAPI2MCP_CL__KEY");
    assert_eq!(env_var_prefix("x"), "OPENAPI2MCP_X");
}

/// Credentials have a namespace of their own (`OPENAPI2MCP_CRED_`); the
/// older names are read only where they are not one of the program's
/// settings: a Jupyter-style apiKey scheme called `token` never takes the
/// token store's key (`OPENAPI2MCP_TOKEN_KEY`) as its API key.
#[tokio::test]
async fn credentials_never_come_from_a_setting() {
    assert_eq!(
        cred_env_var("api_key", "KEY"),
        "OPENAPI2MCP_CRED_API_KEY_KEY"
    );
    for (scheme, field, setting) in [
        ("token", "KEY", crate::settings::TOKEN_KEY),
        ("state", "KEY", crate::settings::STATE_KEY),
        ("signin", "CLIENT_ID", crate::settings::SIGNIN_CLIENT_ID),
        (
            "signin",
            "CLIENT_SECRET",
            crate::settings::SIGNIN_CLIENT_SECRET,
        ),
        ("auth", "TOKEN", crate::settings::AUTH_TOKEN),
    ] {
        assert_eq!(legacy_env_var(scheme, field), setting);
        assert!(collision(scheme, field).is_some(), "{setting}");
        assert_eq!(env_var(scheme, field), cred_env_var(scheme, field));
    }
    // Another scheme's name in the credentials' namespace is no fallback.
    assert!(collision("cred_x", "KEY").is_some());
    assert_eq!(collision("api_key", "KEY"), None);
    // No setting is in the credentials' namespace.
    for (setting, _) in crate::settings::ALL {
        assert!(!setting.starts_with(CRED_PREFIX), "{setting}");
    }

    let store_key = "0123456789abcdef0123456789abcdef-store";
    let c = creds(&[(crate::settings::TOKEN_KEY, store_key)]);
    assert_eq!(
        c.value("token", "KEY"),
        None,
        "a setting is not a credential"
    );
    assert!(c.shadowed("token", "KEY").is_some());
    let c = creds(&[
        (crate::settings::TOKEN_KEY, store_key),
        ("OPENAPI2MCP_CRED_TOKEN_KEY", "token jupyter-s3cret"),
    ]);
    assert_eq!(c.value("token", "KEY"), Some("token jupyter-s3cret"));
    assert_eq!(c.shadowed("token", "KEY"), None);
    let auth = Authenticator::new(
        &[(
            "token".to_string(),
            api_key("Authorization", Location::Header),
        )]
        .into(),
        &c,
        reqwest::Client::new(),
    );
    let sent = applied(&auth, &[requirement(&["token"])], "https://j.example/api")
        .await
        .unwrap();
    assert_eq!(
        header_of(&sent, "authorization").as_deref(),
        Some("token jupyter-s3cret")
    );
    // Without the namespaced name: asked for it, the store key unsent.
    let auth = Authenticator::new(
        &[(
            "token".to_string(),
            api_key("Authorization", Location::Header),
        )]
        .into(),
        &creds(&[(crate::settings::TOKEN_KEY, store_key)]),
        reqwest::Client::new(),
    );
    let e = applied(&auth, &[requirement(&["token"])], "https://j.example/api")
        .await
        .unwrap_err();
    assert!(e.to_string().contains("OPENAPI2MCP_CRED_TOKEN_KEY"), "{e}");
    assert!(!e.to_string().contains(store_key));

    // Elsewhere both names work, the namespaced one first.
    let c = creds(&[("OPENAPI2MCP_API_KEY_KEY", "old")]);
    assert_eq!(
        c.credential("api_key", "KEY"),
        Some(("OPENAPI2MCP_API_KEY_KEY".into(), "old"))
    );
    let c = creds(&[
        ("OPENAPI2MCP_API_KEY_KEY", "old"),
        ("OPENAPI2MCP_CRED_API_KEY_KEY", "new"),
    ]);
    assert_eq!(c.value("api_key", "KEY"), Some("new"));
}

#[test]
fn empty_values_count_as_unset() {
    let c = creds(&[("OPENAPI2MCP_A_KEY", ""), ("OPENAPI2MCP_B_KEY", "v")]);
    assert_eq!(c.get("OPENAPI2MCP_A_KEY"), None);
    assert_eq!(c.get("OPENAPI2MCP_B_KEY"), Some("v"));
}

// --- each scheme kind ----------------------------------------------------

#[tokio::test]
async fn api_key_in_header_replaces_existing() {
    let auth = authenticator(
        vec![("api_key", api_key("X-API-Key", Location::Header))],
        &[("OPENAPI2MCP_API_KEY_KEY", SECRET)],
    );
    let mut req = request("https://api.example.com/pets");
    req.headers.push(("x-api-key".into(), "from-args".into()));
    let result = auth.apply(&[requirement(&["api_key"])], &mut req).await;
    assert_eq!(result, Ok(()));
    assert_eq!(
        req.headers,
        vec![("X-API-Key".to_string(), SECRET.to_string())]
    );
}

#[tokio::test]
async fn api_key_in_query() {
    let auth = authenticator(
        vec![("q", api_key("api key", Location::Query))],
        &[("OPENAPI2MCP_Q_KEY", "a&b=c d")],
    );
    let security = [requirement(&["q"])];
    let with_query = applied(&auth, &security, "https://h.example/p?limit=5&x=%20").await;
    assert_eq!(
        with_query.map(|r| r.url),
        Ok("https://h.example/p?limit=5&x=%20&api+key=a%26b%3Dc+d".to_string())
    );
    let without = applied(&auth, &security, "https://h.example/p").await;
    assert_eq!(
        without.map(|r| r.url),
        Ok("https://h.example/p?api+key=a%26b%3Dc+d".to_string())
    );
    assert!(auth.secret_values().contains(&"a%26b%3Dc+d".to_string()));
}

#[tokio::test]
async fn api_key_in_cookie() {
    let auth = authenticator(
        vec![("c", api_key("session", Location::Cookie))],
        &[("OPENAPI2MCP_C_KEY", SECRET)],
    );
    let security = [requirement(&["c"])];
    let mut req = request("https://h.example/");
    req.headers.push(("Cookie".into(), "a=1; b=2".into()));
    assert_eq!(auth.apply(&security, &mut req).await, Ok(()));
    assert_eq!(
        header_of(&req.clone().finish(), "cookie"),
        Some(format!("a=1; b=2; session={SECRET}"))
    );
    let fresh = applied(&auth, &security, "https://h.example/").await;
    assert_eq!(
        fresh.map(|r| r.headers),
        Ok(vec![("Cookie".to_string(), format!("session={SECRET}"))])
    );
}

#[tokio::test]
async fn bad_cookie_value_is_refused_without_echoing_it() {
    let auth = authenticator(
        vec![("c", api_key("session", Location::Cookie))],
        &[("OPENAPI2MCP_C_KEY", "bad; value")],
    );
    let e = applied(&auth, &[requirement(&["c"])], "https://h.example/").await;
    let Err(e) = e else {
        panic!("accepted a bad cookie value")
    };
    assert!(
        matches!(&e, AuthError::InvalidCredential { variable, .. } if variable == "OPENAPI2MCP_C_KEY")
    );
    assert!(!e.to_string().contains("bad; value"));
}

#[tokio::test]
async fn header_value_with_newline_is_refused() {
    let auth = authenticator(
        vec![("b", http("bearer"))],
        &[("OPENAPI2MCP_B_TOKEN", "abc\r\nX-Evil: 1")],
    );
    let e = applied(&auth, &[requirement(&["b"])], "https://h.example/").await;
    assert!(
        matches!(&e, Err(AuthError::InvalidCredential { variable, .. }) if variable == "OPENAPI2MCP_B_TOKEN"),
        "{e:?}"
    );
}

#[tokio::test]
async fn bearer_and_custom_http_schemes() {
    let auth = authenticator(
        vec![
            ("bearerAuth", http("bearer")),
            ("sig", http("Digest")),
            (
                "oidc",
                SecurityScheme::OpenIdConnect {
                    url: "https://id.example/.well-known/openid-configuration".into(),
                },
            ),
        ],
        &[
            ("OPENAPI2MCP_BEARERAUTH_TOKEN", SECRET),
            ("OPENAPI2MCP_SIG_TOKEN", "opaque"),
            ("OPENAPI2MCP_OIDC_TOKEN", "idt"),
        ],
    );
    let cases = [
        ("bearerAuth", format!("Bearer {SECRET}")),
        ("sig", "Digest opaque".to_string()),
        ("oidc", "Bearer idt".to_string()),
    ];
    for (scheme, expected) in cases {
        let req = applied(&auth, &[requirement(&[scheme])], "https://h.example/").await;
        assert_eq!(
            req.map(|r| header_of(&r, "Authorization")),
            Ok(Some(expected))
        );
    }
}

#[tokio::test]
async fn basic_is_exact_base64() {
    let auth = authenticator(
        vec![("basic", http("basic"))],
        &[
            ("OPENAPI2MCP_BASIC_USERNAME", "Aladdin"),
            ("OPENAPI2MCP_BASIC_PASSWORD", "open sesame"),
        ],
    );
    let req = applied(&auth, &[requirement(&["basic"])], "https://h.example/").await;
    assert_eq!(
        req.map(|r| header_of(&r, "Authorization")),
        Ok(Some("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==".to_string()))
    );
    let secrets = auth.secret_values();
    assert!(secrets.contains(&"open sesame".to_string()));
    assert!(secrets.contains(&"QWxhZGRpbjpvcGVuIHNlc2FtZQ==".to_string()));
    // Beside a password the user name is an identifier, not masked.
    assert!(!secrets.contains(&"Aladdin".to_string()), "{secrets:?}");
}

#[tokio::test]
async fn basic_password_defaults_to_empty() {
    let auth = authenticator(
        vec![("basic", http("basic"))],
        &[("OPENAPI2MCP_BASIC_USERNAME", "sk_live")],
    );
    let req = applied(&auth, &[requirement(&["basic"])], "https://h.example/").await;
    let expected = format!("Basic {}", STANDARD.encode("sk_live:"));
    assert_eq!(
        req.map(|r| header_of(&r, "Authorization")),
        Ok(Some(expected))
    );
    // Without a password the user name is the key (Stripe's): masked.
    assert!(auth.secret_values().contains(&"sk_live".to_string()));
}

#[tokio::test]
async fn oauth2_static_token_is_bearer() {
    let auth = authenticator(
        vec![("oauth", oauth2_scheme(None))],
        &[("OPENAPI2MCP_OAUTH_TOKEN", SECRET)],
    );
    let req = applied(&auth, &[requirement(&["oauth"])], "https://h.example/").await;
    assert_eq!(
        req.map(|r| header_of(&r, "Authorization")),
        Ok(Some(format!("Bearer {SECRET}")))
    );
}

// --- alternatives ----------------------------------------------------------

fn three_schemes(pairs: &[(&str, &str)]) -> Authenticator {
    authenticator(
        vec![
            ("api_key", api_key("X-Key", Location::Header)),
            ("bearer", http("bearer")),
            ("q", api_key("k", Location::Query)),
        ],
        pairs,
    )
}

#[tokio::test]
async fn first_satisfiable_alternative_wins() {
    let auth = three_schemes(&[
        ("OPENAPI2MCP_BEARER_TOKEN", "tok"),
        ("OPENAPI2MCP_Q_KEY", "qk"),
    ]);
    let security = [
        requirement(&["api_key"]),
        requirement(&["bearer"]),
        requirement(&["q"]),
    ];
    let req = applied(&auth, &security, "https://h.example/").await;
    let Ok(req) = req else { panic!("{req:?}") };
    assert_eq!(
        header_of(&req, "Authorization").as_deref(),
        Some("Bearer tok")
    );
    assert_eq!(req.url, "https://h.example/");
}

#[tokio::test]
async fn all_schemes_of_a_requirement_are_applied() {
    let auth = three_schemes(&[
        ("OPENAPI2MCP_API_KEY_KEY", "hk"),
        ("OPENAPI2MCP_Q_KEY", "qk"),
    ]);
    let security = [
        requirement(&["api_key", "bearer"]),
        requirement(&["api_key", "q"]),
    ];
    let req = applied(&auth, &security, "https://h.example/").await;
    let Ok(req) = req else { panic!("{req:?}") };
    assert_eq!(header_of(&req, "X-Key").as_deref(), Some("hk"));
    assert_eq!(header_of(&req, "Authorization"), None);
    assert_eq!(req.url, "https://h.example/?k=qk");
}

#[tokio::test]
async fn empty_requirement_and_empty_security() {
    let auth = three_schemes(&[("OPENAPI2MCP_API_KEY_KEY", "hk")]);
    let optional_first = [requirement(&[]), requirement(&["api_key"])];
    let req = applied(&auth, &optional_first, "https://h.example/").await;
    assert_eq!(req.map(|r| r.headers), Ok(Vec::new()));
    let optional_last = [requirement(&["bearer"]), requirement(&[])];
    let req = applied(&auth, &optional_last, "https://h.example/").await;
    assert_eq!(req.map(|r| r.headers), Ok(Vec::new()));
    let req = applied(&auth, &[], "https://h.example/").await;
    assert_eq!(req.map(|r| r.headers), Ok(Vec::new()));
    assert!(auth.can_satisfy(&[]) && auth.can_satisfy(&optional_last));
    assert!(!auth.can_satisfy(&[requirement(&["bearer"])]));
}

#[tokio::test]
async fn missing_credentials_names_variables_not_secrets() {
    let mut schemes = vec![
        ("api_key", api_key("X-Key", Location::Header)),
        ("bearer", http("bearer")),
        ("basic", http("basic")),
        ("oauth", oauth2_scheme(Some("https://auth.example/token"))),
        ("mtls", SecurityScheme::MutualTls),
    ];
    schemes.push(("q", api_key("k", Location::Query)));
    let auth = authenticator(
        schemes,
        &[
            ("OPENAPI2MCP_BEARER_TOKEN", SECRET),
            ("OPENAPI2MCP_OAUTH_CLIENT_SECRET", "cs-value"),
        ],
    );
    let security = [
        requirement(&["api_key"]),
        requirement(&["bearer", "q"]),
        requirement(&["basic"]),
        requirement(&["oauth"]),
        requirement(&["mtls"]),
        requirement(&["ghost"]),
    ];
    let e = applied(&auth, &security, "https://h.example/").await;
    let Err(e) = e else { panic!("no error") };
    let message = e.to_string();
    for expected in [
        "set OPENAPI2MCP_API_KEY_KEY, or set OPENAPI2MCP_BEARER_TOKEN and OPENAPI2MCP_Q_KEY",
        "or set OPENAPI2MCP_BASIC_USERNAME and OPENAPI2MCP_BASIC_PASSWORD",
        "or set OPENAPI2MCP_OAUTH_TOKEN (or OPENAPI2MCP_OAUTH_CLIENT_ID and OPENAPI2MCP_OAUTH_CLIENT_SECRET)",
        "`mtls` cannot be used (mutualTLS",
        "`ghost` cannot be used (it is not defined",
    ] {
        assert!(message.contains(expected), "{expected} not in {message}");
    }
    assert!(
        !message.contains(SECRET) && !message.contains("cs-value"),
        "{message}"
    );
}

#[test]
fn oauth2_without_token_url_asks_for_it() {
    let auth = authenticator(vec![("o", oauth2_scheme(None))], &[]);
    let lines = auth.describe();
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].contains(
            "OPENAPI2MCP_O_CLIENT_ID and OPENAPI2MCP_O_CLIENT_SECRET and OPENAPI2MCP_O_TOKEN_URL"
        ),
        "{lines:?}"
    );
}

#[test]
fn describe_lists_state_without_secrets() {
    let auth = three_schemes(&[("OPENAPI2MCP_API_KEY_KEY", SECRET)]);
    let lines = auth.describe();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[0].contains("`api_key`")
            && lines[0].contains("configured; reads OPENAPI2MCP_API_KEY_KEY")
    );
    assert!(lines[1].contains("no credentials; set OPENAPI2MCP_BEARER_TOKEN"));
    assert!(lines.iter().all(|l| !l.contains(SECRET)));
}

// --- redaction, passthrough, Debug ------------------------------------------

#[test]
fn redact_masks_every_secret() {
    let secrets = vec!["abc".to_string(), "abcdef".to_string(), String::new()];
    assert_eq!(redact("x abcdef y abc z", &secrets), "x *** y *** z");
    assert_eq!(redact("nothing", &secrets), "nothing");
}

#[test]
fn redact_json_masks_keys_and_values_at_any_depth_and_keeps_the_shape() {
    let secrets = vec!["s3cr3t".to_string()];
    let mut v = serde_json::json!({
        "a": "x s3cr3t y", "s3cr3t": 1, "***": 2, "n": 7, "b": true,
        "list": [{"deep": ["s3cr3t"]}, null]
    });
    assert!(redact_json(&mut v, &secrets));
    assert_eq!(
        v,
        serde_json::json!({
            "a": "x *** y", "***": 2, "***~2": 1, "n": 7, "b": true,
            "list": [{"deep": ["***"]}, null]
        })
    );
    let mut clean = serde_json::json!({"a": ["b", 1]});
    assert!(!redact_json(&mut clean, &secrets));
    assert!(!redact_json(&mut v, &[]));
}

#[test]
fn secret_values_lists_configured_secrets() {
    let auth = three_schemes(&[
        ("OPENAPI2MCP_API_KEY_KEY", "hk"),
        ("OPENAPI2MCP_BEARER_TOKEN", "tok"),
    ]);
    assert_eq!(
        auth.secret_values(),
        vec!["hk".to_string(), "tok".to_string()]
    );
}

#[test]
fn passthrough_sets_and_refuses_crlf() {
    let mut req = request("https://h.example/");
    req.headers
        .push(("authorization".into(), "Bearer old".into()));
    assert_eq!(apply_passthrough("Bearer new", &mut req), Ok(()));
    assert_eq!(
        req.headers,
        vec![("Authorization".to_string(), "Bearer new".to_string())]
    );
    for bad in ["Bearer a\r\nX-Evil: 1", "Bearer a\nb", "Bearer \0"] {
        let e = apply_passthrough(bad, &mut req);
        assert!(
            matches!(e, Err(AuthError::InvalidPassthrough { .. })),
            "{bad:?}"
        );
    }
    assert_eq!(
        header_of(&req.clone().finish(), "Authorization").as_deref(),
        Some("Bearer new")
    );
}

#[test]
fn debug_hides_secrets() {
    let c = creds(&[("OPENAPI2MCP_BEARER_TOKEN", SECRET)]);
    let shown = format!("{c:?}");
    assert!(shown.contains("OPENAPI2MCP_BEARER_TOKEN") && !shown.contains(SECRET));
    let auth = three_schemes(&[("OPENAPI2MCP_BEARER_TOKEN", SECRET)]);
    let shown = format!("{auth:?}");
    assert!(
        shown.contains("bearer") && !shown.contains(SECRET),
        "{shown}"
    );
    assert_eq!(format!("{:?}", Secret(SECRET.into())), "***");
}

#[test]
fn refresh_margin_is_clamped() {
    let now = Instant::now();
    assert_eq!(refresh_at(now, None), None);
    assert_eq!(
        refresh_at(now, Some(Duration::from_secs(3600))),
        Some(now + Duration::from_secs(3540))
    );
    assert_eq!(
        refresh_at(now, Some(Duration::from_secs(1))),
        Some(now + Duration::from_millis(500))
    );
    assert_eq!(refresh_at(now, Some(Duration::MAX)), None);
}

#[test]
fn apply_future_is_send() {
    fn assert_send<T: Send>(_: &T) {}
    let auth = three_schemes(&[]);
    let mut req = request("https://h.example/");
    let future = auth.apply(&[], &mut req);
    assert_send(&future);
}

fn oauth2_scheme(token_url: Option<&str>) -> SecurityScheme {
    SecurityScheme::OAuth2 {
        client_credentials_token_url: token_url.map(str::to_string),
        flows: vec!["clientCredentials".into()],
        login: None,
    }
}

#[path = "oauth2_tests.rs"]
mod oauth2_flow;

#[path = "conflict_tests.rs"]
mod conflicts;

/// A person logged in with `granted` scopes, on an OAuth2 scheme with an
/// authorization code flow.
/// An authenticator whose token store holds a login granting `granted`,
/// with the scratch directory of that store (removed when dropped).
async fn logged_in_with(granted: &[&str]) -> (Authenticator, tempfile::TempDir) {
    let scheme = SecurityScheme::OAuth2 {
        client_credentials_token_url: None,
        flows: vec!["authorizationCode".into()],
        login: Some(Box::new(crate::binding::LoginFlows {
            authorization_url: Some("https://as.example/auth".into()),
            token_url: Some("https://as.example/token".into()),
            scopes: vec!["pets:read".into(), "pets:write".into()],
            ..Default::default()
        })),
    };
    let dir = tempfile::Builder::new()
        .prefix("openapi2mcp-scopes-")
        .tempdir()
        .unwrap();
    let store: std::sync::Arc<dyn store::TokenStore> = std::sync::Arc::new(
        store::FileStore::with_secret(&dir.path().join("tokens.enc"), &"k".repeat(40)).unwrap(),
    );
    let credentials =
        Credentials::from_pairs([(env_var("oauth", "CLIENT_ID"), "client".to_string())]);
    let schemes = BTreeMap::from([("oauth".to_string(), scheme)]);
    let auth = Authenticator::with_store(
        &schemes,
        &credentials,
        reqwest::Client::new(),
        Some(std::sync::Arc::clone(&store)),
    );
    let client = login::LoginClient::from_scheme("oauth", &schemes["oauth"], &credentials).unwrap();
    let tokens = store::StoredTokens {
        access_token: "person-token".into(),
        refresh_token: None,
        expires_at: None,
        obtained_at: None,
        scopes: granted.iter().map(|s| s.to_string()).collect(),
    };
    store
        .put(&client.store_key(login::LOCAL_USER), &tokens)
        .await
        .unwrap();
    (auth, dir)
}

fn needing(scopes: &[&str]) -> Vec<SecurityRequirement> {
    vec![SecurityRequirement {
        schemes: vec![SchemeUse {
            name: "oauth".into(),
            scopes: scopes.iter().map(|s| s.to_string()).collect(),
        }],
    }]
}

#[tokio::test]
async fn a_login_lacking_an_operations_scope_asks_for_more() {
    let (auth, _dir) = logged_in_with(&["pets:read"]).await;
    let mut req = request("https://h.example/pets");
    auth.apply(&needing(&["pets:read"]), &mut req)
        .await
        .unwrap();
    assert_eq!(auth.login_needed(&needing(&["pets:read"])).await, Ok(None));
    // Writing needs a scope the person did not grant: nothing is sent,
    // and the message says how to get it.
    let mut req = request("https://h.example/pets");
    let err = auth
        .apply(&needing(&["pets:write"]), &mut req)
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("pets:write") && text.contains("OPENAPI2MCP_OAUTH_SCOPES"),
        "{text}"
    );
    assert_eq!(
        auth.login_needed(&needing(&["pets:write"])).await,
        Ok(Some(LoginNeed {
            scheme: "oauth".into(),
            scopes: vec!["pets:read".into(), "pets:write".into()],
        }))
    );
}

/// Regression: `_TOKEN_URL` (overriding a login scheme's token endpoint,
/// as docs/guides/wrap-an-api.md says) with the client's id and secret made the scheme
/// use client credentials instead of the person's login.
#[tokio::test]
async fn a_token_url_override_keeps_the_persons_login() {
    let scheme = SecurityScheme::OAuth2 {
        client_credentials_token_url: None,
        flows: vec!["authorizationCode".into()],
        login: Some(Box::new(crate::binding::LoginFlows {
            authorization_url: Some("https://placeholder.example/auth".into()),
            token_url: Some("https://placeholder.example/token".into()),
            scopes: vec!["pets:read".into()],
            ..Default::default()
        })),
    };
    let dir = std::env::temp_dir().join(format!("openapi2mcp-token-url-{}", std::process::id()));
    let store: std::sync::Arc<dyn store::TokenStore> = std::sync::Arc::new(
        store::FileStore::with_secret(&dir.join("tokens.enc"), &"k".repeat(40)).unwrap(),
    );
    let credentials = Credentials::from_pairs([
        (env_var("oauth", "CLIENT_ID"), "client".to_string()),
        (
            env_var("oauth", "CLIENT_SECRET"),
            "client-secret".to_string(),
        ),
        (
            env_var("oauth", "TOKEN_URL"),
            "https://as.example/token".to_string(),
        ),
    ]);
    let schemes = BTreeMap::from([("oauth".to_string(), scheme)]);
    let auth =
        Authenticator::with_store(&schemes, &credentials, reqwest::Client::new(), Some(store));
    assert_eq!(
        auth.login_needed(&needing(&["pets:read"])).await,
        Ok(Some(LoginNeed {
            scheme: "oauth".into(),
            scopes: Vec::new(),
        })),
        "the person is asked to log in"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
