//! Redirects, end to end through rmcp's client and real backends on
//! 127.0.0.1: a same-origin redirect is followed with the credentials kept
//! (a 307 repeats a POST with its body); a redirect to another origin is
//! refused unless `--allow-redirect-origin` names it, and then followed
//! without any credential of any scheme (apiKey in header, query or
//! cookie, HTTP bearer and basic, OAuth2 client credentials) and never
//! with a Referer; loops, long chains and schemes other than http(s) are
//! errors naming the chain. The home backend here also answers with the
//! malformed, empty and oversized bodies of a test in [`crate::tolerance`].

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use openapi2mcp::document::Document;
use openapi2mcp::runtime::auth::Credentials;
use openapi2mcp::runtime::http::HttpOptions;
use openapi2mcp::server::ServeOptions;
use openapi2mcp::tools::{self, BuildOptions, Catalog};
use serde_json::{Value, json};

use crate::serve::connect;
use crate::support::{call, text_of};

/// One request as a backend saw it.
#[derive(Debug, Clone)]
struct Seen {
    target: String,
    headers: Vec<(String, String)>,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

type Answer = Arc<dyn Fn(&str, &str) -> Response + Send + Sync>;

/// A backend answering through `answer(path_and_query, own_origin)`,
/// recording every request.
pub(crate) struct Origin {
    addr: SocketAddr,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Origin {
    pub(crate) async fn start(answer: Answer) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let log = Arc::clone(&seen);
        let own = format!("http://{addr}");
        let app = axum::Router::new().fallback(move |req: Request| {
            let log = Arc::clone(&log);
            let answer = Arc::clone(&answer);
            let own = own.clone();
            async move {
                let target = req
                    .uri()
                    .path_and_query()
                    .map(|p| p.as_str().to_string())
                    .unwrap_or_default();
                let headers = req
                    .headers()
                    .iter()
                    .map(|(k, v)| {
                        (
                            k.to_string(),
                            String::from_utf8_lossy(v.as_bytes()).into_owned(),
                        )
                    })
                    .collect();
                log.lock().unwrap().push(Seen {
                    target: target.clone(),
                    headers,
                });
                answer(&target, &own)
            }
        });
        tokio::spawn(async move { axum::serve(listener, app).await });
        Origin { addr, seen }
    }

    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn take(&self) -> Vec<Seen> {
        std::mem::take(&mut self.seen.lock().unwrap())
    }
}

fn reply(status: u16, headers: &[(&str, &str)], body: impl Into<Body>) -> Response {
    let mut builder = Response::builder().status(status);
    for (k, v) in headers {
        builder = builder.header(*k, *v);
    }
    builder.body(body.into()).unwrap()
}

fn json_reply(body: &str) -> Response {
    reply(
        200,
        &[("content-type", "application/json")],
        body.to_string(),
    )
}

/// The API's home origin: redirects of every kind, a token endpoint, and
/// bodies of every fault kind.
pub(crate) fn home_answer(foreign: String) -> Answer {
    Arc::new(move |target: &str, _own: &str| {
        let path = target.split('?').next().unwrap_or_default();
        let query = target.split_once('?').map(|(_, q)| q).unwrap_or_default();
        let to = |location: String| reply(302, &[("location", &location)], "");
        match path {
            "/token" => json_reply(
                r#"{"access_token":"oauth-token-s3cr3t","token_type":"bearer","expires_in":3600}"#,
            ),
            "/go/same" => to("/land".into()),
            "/go/same307" => reply(307, &[("location", "/land")], ""),
            "/go/foreign" => to(format!("{foreign}/land")),
            "/go/echo" => to(format!("{foreign}/land?{query}")),
            "/go/loop" => to("/go/loop".into()),
            "/go/many" => to("/hop/1".into()),
            p if p.starts_with("/hop/") => {
                let n: u32 = p[5..].parse().unwrap_or(0);
                to(format!("/hop/{}", n + 1))
            }
            "/go/scheme" => to("file:///etc/passwd".into()),
            "/land" => json_reply(r#"{"where":"home"}"#),
            "/go/badjson" => json_reply(r#"{"where": "#),
            "/go/html" => reply(200, &[("content-type", "text/html")], "<p>hi</p>"),
            "/go/empty" => reply(200, &[("content-type", "application/json")], ""),
            "/go/nocontent" => reply(204, &[], ""),
            "/go/array" => json_reply(r#"[{"where":"a"}]"#),
            "/list/huge" => {
                let items: Vec<String> = (0..5000)
                    .map(|i| format!(r#"{{"id":{i},"name":"item number {i}"}}"#))
                    .collect();
                json_reply(&format!("[{}]", items.join(",")))
            }
            "/list/empty" => reply(204, &[], ""),
            _ => json_reply(r#"{"where":"home"}"#),
        }
    })
}

pub(crate) fn foreign_answer() -> Answer {
    Arc::new(|_target: &str, _own: &str| json_reply(r#"{"where":"foreign"}"#))
}

/// A document with `GET /go/{kind}` (object output), `POST /go/{kind}`
/// and `GET /list/{kind}` (array output), secured by `requirement` over
/// `schemes`.
pub(crate) fn catalog(schemes: Value, requirement: Value) -> Catalog {
    let object = json!({"type": "object", "properties": {"where": {"type": "string"}}});
    let kind =
        json!([{"name": "kind", "in": "path", "required": true, "schema": {"type": "string"}}]);
    let ok = |schema: &Value| json!({"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}});
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "redirects", "version": "1"},
        "security": [requirement],
        "components": {"securitySchemes": schemes},
        "paths": {
            "/go/{kind}": {
                "get": {"operationId": "go", "parameters": kind, "responses": ok(&object)},
                "post": {
                    "operationId": "send",
                    "parameters": kind,
                    "requestBody": {"content": {"application/json": {"schema": object}}},
                    "responses": ok(&object)
                }
            },
            "/list/{kind}": {
                "get": {
                    "operationId": "listThings",
                    "parameters": kind,
                    "responses": ok(&json!({"type": "array", "items": object}))
                }
            }
        }
    });
    let doc = Document::from_value("redirects.yaml", doc).unwrap();
    let (catalog, diags) = tools::build(&doc, &BuildOptions::default());
    assert!(diags.is_empty(), "{diags:?}");
    catalog
}

/// One credential setup: the schemes, the requirement, the variables, and
/// every secret form that must never reach the foreign origin.
struct Setup {
    label: &'static str,
    schemes: Value,
    requirement: Value,
    credentials: Vec<(&'static str, &'static str)>,
    secrets: Vec<&'static str>,
}

fn setups() -> Vec<Setup> {
    vec![
        Setup {
            label: "apiKey in header, query and cookie",
            schemes: json!({
                "hdr": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
                "qry": {"type": "apiKey", "in": "query", "name": "api_key"},
                "ck": {"type": "apiKey", "in": "cookie", "name": "session"}
            }),
            requirement: json!({"hdr": [], "qry": [], "ck": []}),
            credentials: vec![
                ("OPENAPI2MCP_HDR_KEY", "header-key-s3cr3t"),
                ("OPENAPI2MCP_QRY_KEY", "query-key-s3cr3t"),
                ("OPENAPI2MCP_CK_KEY", "cookie-key-s3cr3t"),
            ],
            secrets: vec!["header-key-s3cr3t", "query-key-s3cr3t", "cookie-key-s3cr3t"],
        },
        Setup {
            label: "http bearer",
            schemes: json!({"bearer": {"type": "http", "scheme": "bearer"}}),
            requirement: json!({"bearer": []}),
            credentials: vec![("OPENAPI2MCP_BEARER_TOKEN", "bearer-s3cr3t")],
            secrets: vec!["bearer-s3cr3t"],
        },
        Setup {
            label: "http basic",
            schemes: json!({"basic": {"type": "http", "scheme": "basic"}}),
            requirement: json!({"basic": []}),
            credentials: vec![
                ("OPENAPI2MCP_BASIC_USERNAME", "alice"),
                ("OPENAPI2MCP_BASIC_PASSWORD", "basic-s3cr3t"),
            ],
            // base64("alice:basic-s3cr3t")
            secrets: vec!["basic-s3cr3t", "YWxpY2U6YmFzaWMtczNjcjN0"],
        },
        Setup {
            label: "OAuth2 client credentials",
            schemes: json!({"oauth": {"type": "oauth2", "flows": {"clientCredentials": {
                "tokenUrl": "/token", "scopes": {}
            }}}}),
            requirement: json!({"oauth": []}),
            credentials: vec![
                ("OPENAPI2MCP_OAUTH_CLIENT_ID", "client"),
                ("OPENAPI2MCP_OAUTH_CLIENT_SECRET", "client-s3cr3t"),
            ],
            secrets: vec!["oauth-token-s3cr3t", "client-s3cr3t"],
        },
    ]
}

fn assert_clean(seen: &[Seen], secrets: &[&str], context: &str) {
    for s in seen {
        for (name, value) in &s.headers {
            for secret in secrets {
                assert!(
                    !value.contains(secret),
                    "{context}: secret reached the foreign origin in {name}: {s:?}"
                );
            }
            for banned in ["authorization", "cookie", "x-api-key", "referer"] {
                assert!(
                    !name.eq_ignore_ascii_case(banned),
                    "{context}: foreign origin got {name}: {s:?}"
                );
            }
        }
        for secret in secrets {
            assert!(
                !s.target.contains(secret),
                "{context}: secret in foreign URL {}",
                s.target
            );
        }
    }
}

#[tokio::test]
async fn no_credential_of_any_scheme_reaches_another_origin() {
    let foreign = Origin::start(foreign_answer()).await;
    let home = Origin::start(home_answer(foreign.url())).await;
    for setup in setups() {
        let label = setup.label;
        for allow_foreign in [false, true] {
            let options = ServeOptions {
                base_url: Some(home.url()),
                credentials: Credentials::from_pairs(setup.credentials.iter().copied()),
                http: HttpOptions {
                    redirect_origins: if allow_foreign {
                        vec![foreign.url()]
                    } else {
                        Vec::new()
                    },
                    ..HttpOptions::default()
                },
                ..ServeOptions::default()
            };
            let client = connect(
                catalog(setup.schemes.clone(), setup.requirement.clone()),
                options,
            )
            .await;
            let context = format!("{label}, allow foreign = {allow_foreign}");

            // Same origin: followed, credentials kept, no Referer.
            let same = call(&client, "go", json!({"kind": "same"})).await;
            assert_eq!(same.is_error, Some(false), "{context}: {same:?}");
            assert_eq!(same.structured_content, Some(json!({"where": "home"})));
            let seen = home.take();
            let landed = seen.iter().find(|s| s.target.starts_with("/land")).unwrap();
            assert!(
                landed.header("referer").is_none(),
                "{context}: Referer sent: {landed:?}"
            );
            let carried = setup.secrets.iter().any(|secret| {
                landed.headers.iter().any(|(_, v)| v.contains(secret))
                    || landed.target.contains(secret)
            });
            assert!(
                carried,
                "{context}: same-origin hop lost the credentials: {landed:?}"
            );

            // A 307 repeats a POST with its body on the same origin.
            let post = call(&client, "send_go", json!({"kind": "same307", "where": "x"})).await;
            assert_eq!(post.is_error, Some(false), "{context}: {post:?}");
            home.take();

            // Another origin: refused by default; allowed, followed bare.
            let cross = call(&client, "go", json!({"kind": "foreign"})).await;
            let text = text_of(&cross);
            if allow_foreign {
                assert_eq!(cross.is_error, Some(false), "{context}: {text}");
                assert_eq!(cross.structured_content, Some(json!({"where": "foreign"})));
                assert_eq!(foreign.take().len(), 1, "{context}");
            } else {
                assert_eq!(cross.is_error, Some(true), "{context}: {text}");
                assert!(text.contains("another origin"), "{context}: {text}");
                assert!(
                    text.contains("--allow-redirect-origin"),
                    "{context}: {text}"
                );
                assert!(foreign.take().is_empty(), "{context}");
            }

            // A Location that echoes the query (and so a query credential).
            let echo = call(&client, "go", json!({"kind": "echo"})).await;
            let seen = foreign.take();
            assert_clean(&seen, &setup.secrets, &context);
            if label.contains("query") {
                assert_eq!(echo.is_error, Some(true), "{context}: {echo:?}");
                assert!(seen.is_empty(), "{context}");
                if allow_foreign {
                    assert!(
                        text_of(&echo).contains("carries a credential"),
                        "{}",
                        text_of(&echo)
                    );
                }
            }
            for result in [&same, &cross, &echo, &post] {
                let text = text_of(result);
                for secret in &setup.secrets {
                    assert!(
                        !text.contains(secret),
                        "{context}: secret in result: {text}"
                    );
                }
            }
            home.take();
            client.cancel().await.unwrap();
        }
    }
}

#[tokio::test]
async fn redirect_loops_long_chains_and_odd_schemes_are_errors_naming_the_chain() {
    let foreign = Origin::start(foreign_answer()).await;
    let home = Origin::start(home_answer(foreign.url())).await;
    let options = ServeOptions {
        base_url: Some(home.url()),
        ..ServeOptions::default()
    };
    let client = connect(catalog(json!({}), json!({})), options).await;
    let home_url = home.url();

    let looped = call(&client, "go", json!({"kind": "loop"})).await;
    let text = text_of(&looped);
    assert_eq!(looped.is_error, Some(true), "{text}");
    assert!(text.contains("redirect loop"), "{text}");
    assert!(
        text.contains(&format!("{home_url}/go/loop -> {home_url}/go/loop")),
        "{text}"
    );

    let many = call(&client, "go", json!({"kind": "many"})).await;
    let text = text_of(&many);
    assert_eq!(many.is_error, Some(true), "{text}");
    assert!(text.contains("more than 5 redirects"), "{text}");
    assert!(text.contains("/hop/5"), "{text}");
    // The first hop plus five followed redirects: no sixth request.
    assert_eq!(
        home.take()
            .iter()
            .filter(|s| s.target.starts_with("/hop/"))
            .count(),
        5
    );

    let scheme = call(&client, "go", json!({"kind": "scheme"})).await;
    assert_eq!(scheme.is_error, Some(true));
    assert!(text_of(&scheme).contains("only http and https"));

    // And the next call works.
    let next = call(&client, "go", json!({"kind": "same"})).await;
    assert_eq!(next.is_error, Some(false));
    client.cancel().await.unwrap();
}
