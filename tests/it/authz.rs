//! OAuth authorization of the HTTP transport, end to end: a real JWKS and
//! authorization-server metadata served on 127.0.0.1 by the test, access
//! tokens signed here with fixture keys (`tests/fixtures/authz/`), the
//! server bound on loopback in front of a recording backend. Every refused
//! request is checked for its status and challenge, and for not reaching
//! the backend.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::State;
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use openapi2mcp::server::authz::AuthzOptions;
use openapi2mcp::server::authz::scopes::ToolScopePolicy;
use openapi2mcp::server::modes::{ListingOptions, ToolsMode};
use openapi2mcp::server::transport::{HttpTransportOptions, bind_http};
use openapi2mcp::server::{Bridge, ServeOptions};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::backend::Backend;
use crate::serve::{pet_reply, petstore};
use crate::support::local;

/// A signing key and its public JWK.
pub(crate) struct SigningKey {
    kid: String,
    alg: Algorithm,
    key: EncodingKey,
}

impl SigningKey {
    pub(crate) fn load(file: &str, kid: &str, alg: Algorithm) -> Self {
        let pem = std::fs::read(local(&format!("tests/fixtures/authz/{file}"))).unwrap();
        let key = match alg {
            Algorithm::ES256 => EncodingKey::from_ec_pem(&pem),
            _ => EncodingKey::from_rsa_pem(&pem),
        }
        .unwrap();
        Self {
            kid: kid.into(),
            alg,
            key,
        }
    }

    pub(crate) fn jwk(&self) -> Value {
        let mut jwk = Jwk::from_encoding_key(&self.key, self.alg).unwrap();
        jwk.common.key_id = Some(self.kid.clone());
        serde_json::to_value(jwk).unwrap()
    }

    /// A token with `claims`, its header naming `kid` (default: this key's).
    pub(crate) fn sign(&self, claims: &Value, kid: Option<&str>) -> String {
        let mut header = Header::new(self.alg);
        header.kid = Some(kid.unwrap_or(&self.kid).to_string());
        jsonwebtoken::encode(&header, claims, &self.key).unwrap()
    }
}

/// The authorization server: RFC 8414 metadata and a JWKS whose keys the
/// test can change, counting JWKS fetches.
pub(crate) struct Issuer {
    pub(crate) url: String,
    keys: Arc<Mutex<Vec<Value>>>,
    fetches: Arc<AtomicUsize>,
}

#[derive(Clone)]
struct IssuerState {
    url: String,
    keys: Arc<Mutex<Vec<Value>>>,
    fetches: Arc<AtomicUsize>,
}

impl Issuer {
    pub(crate) async fn start(keys: Vec<Value>) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state = IssuerState {
            url: url.clone(),
            keys: Arc::new(Mutex::new(keys)),
            fetches: Arc::new(AtomicUsize::new(0)),
        };
        let app = axum::Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                axum::routing::get(|State(s): State<IssuerState>| async move {
                    axum::Json(json!({
                        "issuer": s.url,
                        "authorization_endpoint": format!("{}/authorize", s.url),
                        "token_endpoint": format!("{}/token", s.url),
                        "jwks_uri": format!("{}/jwks", s.url),
                        "response_types_supported": ["code"],
                        "code_challenge_methods_supported": ["S256"],
                    }))
                }),
            )
            .route(
                "/jwks",
                axum::routing::get(|State(s): State<IssuerState>| async move {
                    s.fetches.fetch_add(1, Ordering::SeqCst);
                    axum::Json(json!({"keys": *s.keys.lock().unwrap()}))
                }),
            )
            .with_state(state.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self {
            url,
            keys: state.keys,
            fetches: state.fetches,
        }
    }
}

pub(crate) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A free loopback port (so the resource URL can name the real address).
pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

struct Protected {
    resource: String,
    origin: String,
    shutdown: CancellationToken,
    backend: Backend,
}

async fn protected_server(issuer: &Issuer, stateless: bool, min_refresh_secs: u64) -> Protected {
    protected_server_in(issuer, stateless, min_refresh_secs, ToolsMode::Auto).await
}

/// [`protected_server`] in listing mode `mode`.
async fn protected_server_in(
    issuer: &Issuer,
    stateless: bool,
    min_refresh_secs: u64,
    mode: ToolsMode,
) -> Protected {
    let backend = Backend::start(pet_reply).await;
    let port = free_port();
    let origin = format!("http://127.0.0.1:{port}");
    let resource = format!("{origin}/mcp");
    let options = ServeOptions {
        base_url: Some(format!("{}/v1", backend.url())),
        tool_scopes: ToolScopePolicy::ReadWrite {
            read: Some("pets:read".into()),
            write: Some("pets:write".into()),
        },
        listing: ListingOptions {
            mode,
            ..ListingOptions::default()
        },
        ..ServeOptions::default()
    };
    let bridge = Bridge::new(petstore(), options).unwrap();
    let mut authz = AuthzOptions::new(&resource, &issuer.url, None);
    authz.required_scopes = vec!["mcp".into()];
    authz.jwks_min_refresh = std::time::Duration::from_secs(min_refresh_secs);
    let shutdown = CancellationToken::new();
    let bound = bind_http(
        bridge,
        HttpTransportOptions {
            listen: format!("127.0.0.1:{port}").parse().unwrap(),
            stateless,
            authz: Some(authz),
            ..HttpTransportOptions::default()
        },
        shutdown.clone(),
    )
    .await
    .unwrap();
    tokio::spawn(bound.run());
    Protected {
        resource,
        origin,
        shutdown,
        backend,
    }
}

fn claims(issuer: &Issuer, aud: &str, scope: &str) -> Value {
    json!({
        "iss": issuer.url, "aud": aud, "sub": "user-1",
        "iat": now(), "nbf": now() - 5, "exp": now() + 600, "scope": scope,
    })
}

async fn call_get_pet(server: &Protected, token: Option<&str>) -> reqwest::Response {
    rpc(
        server,
        token,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "get_pet", "arguments": {"petId": 1}}}),
    )
    .await
}

async fn rpc(server: &Protected, token: Option<&str>, body: Value) -> reqwest::Response {
    let mut req = reqwest::Client::new()
        .post(&server.resource)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(body.to_string());
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    req.send().await.unwrap()
}

fn challenge(res: &reqwest::Response) -> String {
    res.headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

#[tokio::test]
async fn tokens_are_checked_per_the_mcp_authorization_spec() {
    let rsa = SigningKey::load("rsa.pem", "rsa-1", Algorithm::RS256);
    let ec = SigningKey::load("ec.pem", "ec-1", Algorithm::ES256);
    let other = SigningKey::load("rsa-other.pem", "rsa-1", Algorithm::RS256);
    let issuer = Issuer::start(vec![rsa.jwk(), ec.jwk()]).await;
    let server = protected_server(&issuer, true, 3600).await;
    let aud = server.resource.clone();
    let metadata_url = format!("{}/.well-known/oauth-protected-resource/mcp", server.origin);

    // Protected Resource Metadata (RFC 9728 §2), at the path-suffixed and
    // the bare well-known URL.
    for url in [
        metadata_url.clone(),
        format!("{}/.well-known/oauth-protected-resource", server.origin),
    ] {
        let res = reqwest::get(&url).await.unwrap();
        assert_eq!(res.status(), 200, "{url}");
        let doc: Value = res.json().await.unwrap();
        assert_eq!(doc["resource"], aud.as_str(), "{doc}");
        assert_eq!(doc["authorization_servers"], json!([issuer.url]), "{doc}");
        assert_eq!(doc["bearer_methods_supported"], json!(["header"]), "{doc}");
        assert_eq!(
            doc["scopes_supported"],
            json!(["mcp", "pets:read", "pets:write"]),
            "{doc}"
        );
    }

    // Missing token: 401 and a challenge naming the metadata.
    let res = call_get_pet(&server, None).await;
    assert_eq!(res.status(), 401);
    let c = challenge(&res);
    assert!(c.starts_with("Bearer "), "{c}");
    assert!(
        c.contains(&format!("resource_metadata=\"{metadata_url}\"")),
        "{c}"
    );
    assert!(!c.contains("error="), "{c}");

    // A valid token (RS256, then ES256): the call reaches the API, and the
    // token does not (no passthrough without --forward-authorization).
    for key in [&rsa, &ec] {
        let token = key.sign(&claims(&issuer, &aud, "mcp pets:read"), None);
        let res = call_get_pet(&server, Some(&token)).await;
        assert_eq!(res.status(), 200);
        let body = res.text().await.unwrap();
        assert!(body.contains(r#""name":"Rex""#), "{body}");
        let sent = server.backend.take();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].target, "/v1/pets/1");
        assert_eq!(sent[0].header("authorization"), None);
    }
    let fetches_after_valid = issuer.fetches.load(Ordering::SeqCst);
    assert_eq!(
        fetches_after_valid, 1,
        "the JWKS is fetched once and cached"
    );

    // Refusals: status, challenge error, nothing sent to the API.
    let mut expired = claims(&issuer, &aud, "mcp pets:read");
    expired["exp"] = json!(now() - 3600);
    expired["iat"] = json!(now() - 7200);
    expired["nbf"] = json!(now() - 7200);
    let mut not_yet = claims(&issuer, &aud, "mcp pets:read");
    not_yet["nbf"] = json!(now() + 3600);
    let mut wrong_iss = claims(&issuer, &aud, "mcp pets:read");
    wrong_iss["iss"] = json!("https://evil.example");
    let cases: Vec<(&str, String, u16, &str)> = vec![
        (
            "wrong audience",
            rsa.sign(
                &claims(&issuer, "https://other.example/mcp", "mcp pets:read"),
                None,
            ),
            401,
            "invalid_token",
        ),
        ("expired", rsa.sign(&expired, None), 401, "invalid_token"),
        (
            "not yet valid",
            rsa.sign(&not_yet, None),
            401,
            "invalid_token",
        ),
        (
            "wrong issuer",
            rsa.sign(&wrong_iss, None),
            401,
            "invalid_token",
        ),
        (
            "bad signature",
            other.sign(&claims(&issuer, &aud, "mcp pets:read"), None),
            401,
            "invalid_token",
        ),
        (
            "unknown key",
            other.sign(
                &claims(&issuer, &aud, "mcp pets:read"),
                Some("rotated-away"),
            ),
            401,
            "invalid_token",
        ),
        (
            "missing global scope",
            rsa.sign(&claims(&issuer, &aud, "pets:read"), None),
            403,
            "insufficient_scope",
        ),
        (
            "missing tool scope",
            rsa.sign(&claims(&issuer, &aud, "mcp pets:write"), None),
            403,
            "insufficient_scope",
        ),
        ("not a JWT", "abc.def".to_string(), 401, "invalid_token"),
    ];
    for (what, token, status, error) in cases {
        let res = call_get_pet(&server, Some(&token)).await;
        assert_eq!(res.status().as_u16(), status, "{what}");
        let c = challenge(&res);
        assert!(c.contains(&format!("error=\"{error}\"")), "{what}: {c}");
        assert!(c.contains("resource_metadata="), "{what}: {c}");
        assert!(
            server.backend.take().is_empty(),
            "{what}: a call reached the API"
        );
    }
    // The tool scope a write needs is named in the challenge.
    let reader = rsa.sign(&claims(&issuer, &aud, "mcp pets:read"), None);
    let res = rpc(
        &server,
        Some(&reader),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "create_pet", "arguments": {"name": "Rex"}}}),
    )
    .await;
    assert_eq!(res.status(), 403);
    assert!(
        challenge(&res).contains("scope=\"pets:write\""),
        "{}",
        challenge(&res)
    );
    assert!(server.backend.take().is_empty());
    // Listing needs no tool scope.
    let res = rpc(
        &server,
        Some(&reader),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
    )
    .await;
    assert_eq!(res.status(), 200);

    // Unknown keys made no JWKS fetch: the last one was under the minimum
    // refresh interval (an hour here) ago, so made-up key ids cannot make
    // the server hammer the issuer. (A rotation is picked up once the
    // interval has passed: see the next test.)
    let token = other.sign(&claims(&issuer, &aud, "mcp pets:read"), Some("another"));
    assert_eq!(call_get_pet(&server, Some(&token)).await.status(), 401);
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), fetches_after_valid);
    server.shutdown.cancel();
}

#[tokio::test]
async fn a_rotated_key_is_fetched_when_a_token_names_it() {
    let rsa = SigningKey::load("rsa.pem", "rsa-1", Algorithm::RS256);
    let next = SigningKey::load("rsa-other.pem", "rsa-2", Algorithm::RS256);
    let issuer = Issuer::start(vec![rsa.jwk()]).await;
    let server = protected_server(&issuer, false, 0).await;
    let aud = server.resource.clone();
    // The issuer rotates: the new key appears in its JWKS.
    issuer.keys.lock().unwrap().push(next.jwk());
    let token = next.sign(&claims(&issuer, &aud, "mcp pets:read"), None);

    // A real MCP client (streamable HTTP, with a session) using that token.
    use rmcp::ServiceExt;
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(server.resource.clone()).auth_header(token),
    );
    let client = ().serve(transport).await.expect("client connects with a token");
    let got = crate::support::call(&client, "get_pet", json!({"petId": 1})).await;
    assert_eq!(got.structured_content.unwrap()["name"], "Rex");
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 2);
    client.cancel().await.unwrap();
    server.shutdown.cancel();
}

/// The JSON-RPC message of a response (JSON or the last SSE event).
async fn message(res: reqwest::Response) -> Value {
    crate::protocol::reply_of(&res.text().await.unwrap())
}

fn names(list: &Value) -> Vec<String> {
    list["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{list}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn each_caller_sees_and_calls_only_what_their_scopes_allow() {
    let rsa = SigningKey::load("rsa.pem", "rsa-1", Algorithm::RS256);
    let issuer = Issuer::start(vec![rsa.jwk()]).await;
    let server = protected_server_in(&issuer, true, 10, ToolsMode::Full).await;
    let aud = server.resource.clone();
    let reader = rsa.sign(&claims(&issuer, &aud, "mcp pets:read"), None);
    let writer = rsa.sign(&claims(&issuer, &aud, "mcp pets:read pets:write"), None);
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});

    // The list follows the caller's scopes, and says it is theirs alone.
    let read_list = message(rpc(&server, Some(&reader), list.clone()).await).await;
    let all = message(rpc(&server, Some(&writer), list.clone()).await).await;
    let (shown, every) = (names(&read_list), names(&all));
    assert!(shown.contains(&"get_pet".to_string()), "{shown:?}");
    assert!(!shown.contains(&"create_pet".to_string()), "{shown:?}");
    assert!(!shown.contains(&"delete_pet".to_string()), "{shown:?}");
    assert!(every.contains(&"delete_pet".to_string()), "{every:?}");
    assert!(shown.len() < every.len());

    // Discovery mode: searching shows only what the caller may call, and
    // calling through the call meta-tool needs the tool's own scopes.
    let server = protected_server_in(&issuer, true, 10, ToolsMode::Discovery).await;
    let aud = server.resource.clone();
    let reader = rsa.sign(&claims(&issuer, &aud, "mcp pets:read"), None);
    let res = rpc(
        &server,
        Some(&reader),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "call_tool", "arguments": {"name": "delete_pet", "arguments": {"petId": 1}}}}),
    )
    .await;
    assert_eq!(
        res.status(),
        403,
        "call_tool is no way around a tool's scope"
    );
    assert!(
        challenge(&res).contains("scope=\"pets:write\""),
        "{}",
        challenge(&res)
    );
    assert!(server.backend.take().is_empty());
    let found = message(
        rpc(
            &server,
            Some(&reader),
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "search_tools", "arguments": {"query": "delete a pet"}}}),
        )
        .await,
    )
    .await;
    let text = found["result"].to_string();
    assert!(!text.contains("delete_pet"), "{text}");
    assert!(text.contains("_pet"), "other pet tools are found: {text}");

    // Code mode's search declares only what the caller may call.
    let server = protected_server_in(&issuer, true, 10, ToolsMode::Code).await;
    let aud = server.resource.clone();
    let reader = rsa.sign(&claims(&issuer, &aud, "mcp pets:read"), None);
    let found = message(
        rpc(
            &server,
            Some(&reader),
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
            "params": {"name": "search_api", "arguments": {"query": "delete a pet"}}}),
        )
        .await,
    )
    .await;
    let text = found["result"].to_string();
    assert!(!text.contains("delete_pet"), "{text}");
    assert!(text.contains("get_pet"), "{text}");
}

/// A call behind another tool (a code-mode script's `api.update_pet`, or
/// discovery's `call_tool`) needs the scope of the tool it calls: the guard
/// only sees `execute` / `call_tool`.
#[tokio::test]
async fn calls_behind_scripts_and_meta_tools_need_their_own_scopes() {
    let rsa = SigningKey::load("rsa.pem", "rsa-1", Algorithm::RS256);
    let issuer = Issuer::start(vec![rsa.jwk()]).await;
    for (mode, tool, args) in [
        (
            ToolsMode::Code,
            "execute",
            json!({"script": "await api.get_pet({petId: 1});\nreturn await api.update_pet({petId: 1, name: 'x'});"}),
        ),
        (
            ToolsMode::Discovery,
            "call_tool",
            json!({"name": "update_pet", "arguments": {"petId": 1, "name": "x"}}),
        ),
    ] {
        let server = protected_server_in(&issuer, true, 3600, mode).await;
        let aud = server.resource.clone();
        let call = |token: String| {
            let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": tool, "arguments": args}});
            let server = &server;
            async move { rpc(server, Some(&token), body).await.text().await.unwrap() }
        };
        let reader = rsa.sign(&claims(&issuer, &aud, "mcp pets:read"), None);
        let body = call(reader).await;
        // Refused by the call (a script's sub-call) or already by the HTTP
        // guard (call_tool names its target: 403, step-up), naming the scope.
        assert!(
            body.contains(r#""isError":true"#) || body.contains("lacks a scope"),
            "{tool}: {body}"
        );
        assert!(body.contains("pets:write"), "{tool}: {body}");
        assert!(
            server.backend.take().iter().all(|r| r.method == "GET"),
            "{tool}: no write was sent"
        );
        let writer = rsa.sign(&claims(&issuer, &aud, "mcp pets:read pets:write"), None);
        let body = call(writer).await;
        // (The test backend answers a PATCH with text, an error of its own.)
        assert!(!body.contains("pets:write"), "{tool}: {body}");
        assert!(
            server.backend.take().iter().any(|r| r.method == "PATCH"),
            "{tool}: the write was sent"
        );
        server.shutdown.cancel();
    }
}

// --- Arazzo workflows need their steps' scopes (issue #43, item 2) -------

/// A shop whose operations ask for OAuth scopes in the document, and two
/// workflows over it: `copyPet` reads a pet and creates one (read and
/// write), `removePet` reads and deletes (destructive).
fn shop_with_workflows() -> openapi2mcp::tools::Catalog {
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "Shop", "version": "1"},
        "paths": {
            "/pets": {"post": {
                "operationId": "createPet",
                "security": [{"oauth": ["pets:write"]}],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {
                    "type": "object", "properties": {"name": {"type": "string"}}}}}},
                "responses": {"201": {"description": "created", "content": {"application/json": {
                    "schema": {"type": "object"}}}}}
            }},
            "/pets/{petId}": {
                "parameters": [{"name": "petId", "in": "path", "required": true,
                    "schema": {"type": "integer"}}],
                "get": {
                    "operationId": "getPet",
                    "security": [{"oauth": ["pets:read"]}],
                    "responses": {"200": {"description": "the pet", "content": {"application/json": {
                        "schema": {"type": "object"}}}}}
                },
                "delete": {
                    "operationId": "deletePet",
                    "security": [{"oauth": ["pets:write"]}],
                    "responses": {"204": {"description": "gone"}}
                }
            }
        },
        "components": {"securitySchemes": {"oauth": {"type": "oauth2", "flows": {
            "authorizationCode": {
                "authorizationUrl": "http://127.0.0.1:9/authorize",
                "tokenUrl": "http://127.0.0.1:9/token",
                "scopes": {"pets:read": "read", "pets:write": "write"}}}}}}
    });
    let doc = openapi2mcp::document::Document::from_value("shop.yaml", doc).unwrap();
    let mut catalog =
        openapi2mcp::tools::build(&doc, &openapi2mcp::tools::BuildOptions::default()).0;
    let pet_id = json!({"type": "object", "required": ["pet_id"],
        "properties": {"pet_id": {"type": "integer"}}});
    let read = json!({"stepId": "read", "operationId": "getPet",
        "parameters": [{"name": "petId", "in": "path", "value": "$inputs.pet_id"}],
        "outputs": {"name": "$response.body#/name"}});
    let arazzo = json!({
        "arazzo": "1.0.1",
        "info": {"title": "Shop workflows", "version": "1"},
        "sourceDescriptions": [{"name": "shop", "url": "./shop.yaml", "type": "openapi"}],
        "workflows": [
            {"workflowId": "copyPet", "inputs": pet_id, "steps": [read, {
                "stepId": "write", "operationId": "createPet",
                "requestBody": {"contentType": "application/json",
                    "payload": {"name": "$steps.read.outputs.name"}},
                "successCriteria": [{"condition": "$statusCode == 201"}],
                "outputs": {"id": "$response.body#/id"}}],
             "outputs": {"id": "$steps.write.outputs.id"}},
            {"workflowId": "removePet", "inputs": pet_id, "steps": [read, {
                "stepId": "remove", "operationId": "deletePet",
                "parameters": [{"name": "petId", "in": "path", "value": "$inputs.pet_id"}],
                "successCriteria": [{"condition": "$statusCode == 204"}]}]}
        ]
    });
    let (workflows, warnings) =
        openapi2mcp::arazzo::from_value("shop.arazzo.yaml", &arazzo, &catalog.tools).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(workflows.len(), 2);
    catalog.tools.extend(workflows);
    catalog
}

fn shop_reply(r: &crate::backend::Recorded) -> crate::backend::Reply {
    match (r.method.as_str(), r.target.as_str()) {
        ("GET", "/v1/pets/1") => (
            200,
            "application/json",
            br#"{"id":1,"name":"Rex"}"#.to_vec(),
        ),
        ("POST", "/v1/pets") => (
            201,
            "application/json",
            br#"{"id":2,"name":"Rex"}"#.to_vec(),
        ),
        ("DELETE", "/v1/pets/1") => (204, "application/json", Vec::new()),
        _ => (
            404,
            "application/json",
            br#"{"message":"no such pet"}"#.to_vec(),
        ),
    }
}

/// `tools/call` at MCP 2026-07-28 with a bearer token and a client that
/// can be asked (elicitation).
async fn call_2026_as(server: &Protected, token: &str, params: Value) -> (u16, Value) {
    let mut params = params;
    params["_meta"] = crate::protocol::meta_2026();
    params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = json!({"elicitation": {}});
    let name = params["name"].as_str().unwrap_or_default().to_string();
    let res = reqwest::Client::new()
        .post(&server.resource)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", name)
        .header("authorization", format!("Bearer {token}"))
        .body(
            json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params})
                .to_string(),
        )
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (
        status,
        crate::protocol::reply_of(&res.text().await.unwrap()),
    )
}

#[tokio::test]
async fn a_workflow_needs_the_scopes_and_confirmations_of_its_steps() {
    let rsa = SigningKey::load("rsa.pem", "rsa-1", Algorithm::RS256);
    let issuer = Issuer::start(vec![rsa.jwk()]).await;
    let backend = Backend::start(shop_reply).await;
    let port = free_port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let options = ServeOptions {
        base_url: Some(format!("{}/v1", backend.url())),
        tool_scopes: ToolScopePolicy::Document,
        listing: ListingOptions {
            mode: ToolsMode::Full,
            ..ListingOptions::default()
        },
        ..ServeOptions::default()
    };
    let bridge = Bridge::new(shop_with_workflows(), options).unwrap();
    let mut authz = AuthzOptions::new(&resource, &issuer.url, None);
    authz.required_scopes = vec!["mcp".into()];
    let shutdown = CancellationToken::new();
    let bound = bind_http(
        bridge,
        HttpTransportOptions {
            listen: format!("127.0.0.1:{port}").parse().unwrap(),
            stateless: true,
            authz: Some(authz),
            ..HttpTransportOptions::default()
        },
        shutdown.clone(),
    )
    .await
    .unwrap();
    tokio::spawn(bound.run());
    let server = Protected {
        origin: format!("http://127.0.0.1:{port}"),
        resource: resource.clone(),
        shutdown,
        backend,
    };
    let reader = rsa.sign(&claims(&issuer, &resource, "mcp pets:read"), None);
    let writer = rsa.sign(
        &claims(&issuer, &resource, "mcp pets:read pets:write"),
        None,
    );

    // A reader is not shown the workflows with a write step.
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let shown = names(&message(rpc(&server, Some(&reader), list.clone()).await).await);
    assert!(shown.contains(&"get_pet".to_string()), "{shown:?}");
    assert!(!shown.contains(&"copy_pet".to_string()), "{shown:?}");
    assert!(!shown.contains(&"remove_pet".to_string()), "{shown:?}");
    let every = names(&message(rpc(&server, Some(&writer), list).await).await);
    assert!(every.contains(&"copy_pet".to_string()), "{every:?}");

    // A reader cannot run one: 403 before the first step, naming both
    // scopes; the API receives nothing, not even the read.
    let copy = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "copy_pet", "arguments": {"pet_id": 1}}});
    let res = rpc(&server, Some(&reader), copy.clone()).await;
    assert_eq!(res.status(), 403, "{}", res.text().await.unwrap());
    assert!(
        challenge(&res).contains(r#"scope="pets:read pets:write""#),
        "{}",
        challenge(&res)
    );
    assert!(server.backend.take().is_empty(), "nothing reached the API");

    // A token with both scopes runs it: a read, then the write.
    let done = message(rpc(&server, Some(&writer), copy).await).await;
    assert_ne!(done["result"]["isError"], true, "{done}");
    assert_eq!(
        done["result"]["structuredContent"],
        json!({"id": 2}),
        "{done}"
    );
    let sent: Vec<String> = server
        .backend
        .take()
        .iter()
        .map(|r| format!("{} {}", r.method, r.target))
        .collect();
    assert_eq!(sent, ["GET /v1/pets/1", "POST /v1/pets"]);

    // A destructive step is confirmed before the first step runs: the
    // question names the DELETE, and nothing is sent until it is answered.
    let remove = json!({"name": "remove_pet", "arguments": {"pet_id": 1}});
    let (_, asked) = call_2026_as(&server, &writer, remove.clone()).await;
    assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");
    let message_text = asked["result"]["inputRequests"]["confirm"]["params"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        message_text.contains("`remove`: DELETE /pets/{petId} (delete_pet)"),
        "{message_text}"
    );
    assert!(
        server.backend.take().is_empty(),
        "nothing sent before the answer"
    );
    let mut declined = remove.clone();
    declined["inputResponses"] = json!({"confirm": {"action": "decline"}});
    declined["requestState"] = asked["result"]["requestState"].clone();
    let (_, refused) = call_2026_as(&server, &writer, declined).await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert!(server.backend.take().is_empty(), "declined: nothing sent");
    let mut accepted = remove;
    accepted["inputResponses"] =
        json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    accepted["requestState"] = asked["result"]["requestState"].clone();
    let (_, removed) = call_2026_as(&server, &writer, accepted).await;
    assert_ne!(removed["result"]["isError"], true, "{removed}");
    let sent: Vec<String> = server
        .backend
        .take()
        .iter()
        .map(|r| format!("{} {}", r.method, r.target))
        .collect();
    assert_eq!(sent, ["GET /v1/pets/1", "DELETE /v1/pets/1"]);
    server.shutdown.cancel();
}
