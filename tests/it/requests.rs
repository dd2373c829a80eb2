//! Requests as a careful client sends them, proven on the bytes of the
//! wire: a raw TCP listener on 127.0.0.1 records each request exactly as it
//! arrived (an axum or hyper server would normalise what it shows, and
//! cannot tell a missing `Content-Length` from `Content-Length: 0`).
//!
//! - A POST, PUT or PATCH without a body carries `Content-Length: 0`
//!   (GitHub answers `411 Length Required` to `PUT
//!   /user/starred/{owner}/{repo}` without it, and so do Google front ends);
//!   the listener answers 411 the same way, so the tool result shows it too.
//! - `Accept` names the media types the operation's responses document,
//!   JSON first, instead of `*/*` (which lets an API documenting XML and
//!   JSON answer XML to a tool that returns JSON).
//! - Form and multipart bodies follow the Encoding Object (`style`,
//!   `explode`, part types and headers), multipart styles in OpenAPI 3.1
//!   documents only.
//! - A security requirement no single request can satisfy (two AND-ed
//!   schemes in the one `Authorization` header) sends nothing.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use openapi2mcp::server::ServeOptions;
use openapi2mcp::server::confirm::ConfirmPolicy;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::serve::connect;
use crate::support::{call, catalog_of, text_of};

/// One request exactly as it arrived.
#[derive(Debug, Clone)]
struct RawRequest {
    /// `METHOD target HTTP/1.1`.
    request_line: String,
    /// Header lines as sent (name and value as written).
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl RawRequest {
    /// The values of header `name` (any case), in order.
    fn all(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect()
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.all(name).first().copied()
    }
}

/// A loopback listener speaking just enough HTTP/1.1 to record requests
/// and answer them: each connection serves one request and closes.
struct RawServer {
    url: String,
    log: Arc<Mutex<Vec<RawRequest>>>,
}

impl RawServer {
    async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let log: Arc<Mutex<Vec<RawRequest>>> = Arc::default();
        let shared = Arc::clone(&log);
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let log = Arc::clone(&shared);
                tokio::spawn(async move {
                    let _ =
                        tokio::time::timeout(Duration::from_secs(10), serve_one(stream, log)).await;
                });
            }
        });
        Self { url, log }
    }

    fn take(&self) -> Vec<RawRequest> {
        std::mem::take(&mut self.log.lock().unwrap())
    }
}

/// Reads one request (head, then a body of `Content-Length` bytes), records
/// it and answers: 411 to a POST/PUT/PATCH that has neither
/// `Content-Length` nor `Transfer-Encoding` (as GitHub does), else 200 with
/// a JSON or XML body as `Accept` asks (`application/json` when it is
/// listed, XML otherwise, like a content-negotiating server).
async fn serve_one(mut stream: TcpStream, log: Arc<Mutex<Vec<RawRequest>>>) -> std::io::Result<()> {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        let n = stream.read(&mut buf).await?;
        if n == 0 || data.len() > 1 << 20 {
            return Ok(());
        }
        data.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&data[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let request_line = lines.next().unwrap_or_default().to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.to_string(), v.trim().to_string()))
        .collect();
    let length: Option<usize> = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok());
    let mut body = data[head_end + 4..].to_vec();
    while body.len() < length.unwrap_or(0) {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&buf[..n]);
    }
    let request = RawRequest {
        request_line,
        headers,
        body,
    };
    let method = request.request_line.split(' ').next().unwrap_or_default();
    let framed =
        request.header("content-length").is_some() || request.header("transfer-encoding").is_some();
    let (status, content_type, payload): (&str, &str, &str) =
        if matches!(method, "POST" | "PUT" | "PATCH") && !framed {
            (
                "411 Length Required",
                "text/html",
                "<h1>411 Length Required</h1>",
            )
        } else if request
            .header("accept")
            .is_some_and(|a| a.contains("application/json"))
        {
            (
                "200 OK",
                "application/json",
                r#"{"id":1,"status":"placed"}"#,
            )
        } else {
            (
                "200 OK",
                "application/xml",
                "<Order><id>1</id><status>placed</status></Order>",
            )
        };
    log.lock().unwrap().push(request);
    let answer = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{payload}",
        payload.len()
    );
    stream.write_all(answer.as_bytes()).await?;
    stream.shutdown().await
}

fn options(server: &RawServer) -> ServeOptions {
    ServeOptions {
        base_url: Some(server.url.clone()),
        // Requests are what is checked here; confirmation is protocol.rs's.
        confirm: ConfirmPolicy::None,
        ..ServeOptions::default()
    }
}

/// GitHub's star/unstar pair and a few other bodiless writes.
fn writes_doc() -> Value {
    let no_content = json!({"204": {"description": "done"}});
    json!({
        "openapi": "3.0.3",
        "info": {"title": "writes", "version": "1"},
        "paths": {
            "/user/starred/{owner}/{repo}": {
                "parameters": [
                    {"name": "owner", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "repo", "in": "path", "required": true, "schema": {"type": "string"}}
                ],
                "put": {"operationId": "starRepo", "responses": no_content},
                "delete": {"operationId": "unstarRepo", "responses": no_content}
            },
            "/jobs/{id}/cancel": {
                "post": {
                    "operationId": "cancelJob",
                    "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
                    "responses": no_content
                }
            },
            "/jobs/{id}": {
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
                "patch": {
                    "operationId": "touchJob",
                    "requestBody": {"content": {"application/json": {"schema": {
                        "type": "object", "properties": {"note": {"type": "string"}}
                    }}}},
                    "responses": no_content
                },
                "get": {"operationId": "getJob", "responses": no_content}
            }
        }
    })
}

#[tokio::test]
async fn bodiless_writes_carry_content_length_zero_and_reads_none() {
    let server = RawServer::start().await;
    let client = connect(catalog_of(writes_doc()), options(&server)).await;
    let calls = [
        ("star_repo", json!({"owner": "octocat", "repo": "hello"})),
        ("cancel_job", json!({"id": 7})),
        ("touch_job", json!({"id": 7})),
        ("touch_job", json!({"id": 7, "note": "hi"})),
        ("unstar_repo", json!({"owner": "octocat", "repo": "hello"})),
        ("get_job", json!({"id": 7})),
    ];
    for (name, args) in &calls {
        let result = call(&client, name, args.clone()).await;
        assert_eq!(result.is_error, Some(false), "{name}: {}", text_of(&result));
    }
    let seen = server.take();
    let lines: Vec<&str> = seen.iter().map(|r| r.request_line.as_str()).collect();
    assert_eq!(
        lines,
        [
            "PUT /user/starred/octocat/hello HTTP/1.1",
            "POST /jobs/7/cancel HTTP/1.1",
            "PATCH /jobs/7 HTTP/1.1",
            "PATCH /jobs/7 HTTP/1.1",
            "DELETE /user/starred/octocat/hello HTTP/1.1",
            "GET /jobs/7 HTTP/1.1",
        ]
    );
    for request in &seen[..3] {
        assert_eq!(
            request.all("content-length"),
            ["0"],
            "{}: {:?}",
            request.request_line,
            request.headers
        );
        assert_eq!(request.header("content-type"), None, "no body, no type");
        assert_eq!(request.header("transfer-encoding"), None);
        assert!(request.body.is_empty());
    }
    // A body: its own length, once.
    assert_eq!(seen[3].all("content-length"), ["13"]);
    assert_eq!(seen[3].body, br#"{"note":"hi"}"#);
    // DELETE and GET define no meaning for content: no framing header.
    for request in &seen[4..] {
        assert_eq!(request.header("content-length"), None, "{request:?}");
        assert_eq!(request.header("transfer-encoding"), None, "{request:?}");
    }
    client.cancel().await.unwrap();
}

/// `@readme/oas-examples`' `getOrderById` documents XML before JSON.
fn orders_doc() -> Value {
    let order = json!({"type": "object", "properties": {
        "id": {"type": "integer"}, "status": {"type": "string"}
    }});
    json!({
        "openapi": "3.0.3",
        "info": {"title": "orders", "version": "1"},
        "paths": {
            "/store/order/{orderId}": {
                "get": {
                    "operationId": "getOrderById",
                    "parameters": [{"name": "orderId", "in": "path", "required": true, "schema": {"type": "integer"}}],
                    "responses": {
                        "200": {"description": "ok", "content": {
                            "application/xml": {"schema": order},
                            "application/json": {"schema": order}
                        }},
                        "404": {"description": "not found"}
                    }
                }
            },
            "/report": {
                "get": {
                    "operationId": "getReport",
                    "responses": {
                        "200": {"description": "ok", "content": {"text/csv": {"schema": {"type": "string"}}}},
                        "default": {"description": "error", "content": {"application/problem+json": {"schema": {"type": "object"}}}}
                    }
                }
            },
            "/ping": {
                "get": {"operationId": "ping", "responses": {"200": {"description": "pong"}}}
            }
        }
    })
}

#[tokio::test]
async fn accept_prefers_json_among_the_documented_media_types() {
    let server = RawServer::start().await;
    let client = connect(catalog_of(orders_doc()), options(&server)).await;

    let order = call(&client, "get_order_by_id", json!({"orderId": 1})).await;
    assert_eq!(order.is_error, Some(false), "{}", text_of(&order));
    assert_eq!(
        order.structured_content,
        Some(json!({"id": 1, "status": "placed"}))
    );
    call(&client, "get_report", json!({})).await;
    call(&client, "ping", json!({})).await;

    let seen = server.take();
    let accepts: Vec<Vec<&str>> = seen.iter().map(|r| r.all("accept")).collect();
    assert_eq!(
        accepts,
        [
            vec!["application/json, application/xml;q=0.5, */*;q=0.1"],
            vec!["application/problem+json, text/csv;q=0.5, */*;q=0.1"],
            vec!["*/*"],
        ]
    );
    client.cancel().await.unwrap();
}

/// httpbin's `/image` as its Swagger 2.0 description has it: the image
/// answer has no schema, `produces` lists the image types.
#[tokio::test]
async fn a_swagger_2_answer_without_a_schema_is_asked_for_in_its_produces_types() {
    let server = RawServer::start().await;
    let doc = json!({
        "swagger": "2.0",
        "info": {"title": "httpbin", "version": "1"},
        "produces": ["application/json"],
        "paths": {"/image": {"get": {
            "operationId": "getImage",
            "produces": ["image/webp", "image/svg+xml", "image/jpeg", "image/png", "image/*"],
            "responses": {"200": {"description": "An image."}}
        }}}
    });
    let client = connect(catalog_of(doc), options(&server)).await;
    call(&client, "get_image", json!({})).await;
    let seen = server.take();
    let accept = seen[0].header("accept").unwrap_or_default().to_string();
    for media in ["image/webp", "image/svg+xml", "image/jpeg", "image/png"] {
        assert!(accept.contains(media), "{accept}");
    }
    assert_ne!(accept, "*/*");
    client.cancel().await.unwrap();
}

/// Stripe's `POST /v1/customers` as its description has it: form fields
/// with `style: deepObject, explode: true`, among them an array of objects
/// (`tax_id_data`) and an array of strings (`preferred_locales`). The body
/// on the wire is read back by `qs` (the parser Node servers read bracketed
/// keys with; Stripe's own examples write `tax_id_data[0][type]=…`), and
/// must give back the arguments.
#[tokio::test]
async fn deep_object_arrays_reach_a_qs_server_as_the_arguments() {
    let Some(qs) = crate::support::external("qs") else {
        return;
    };
    let server = RawServer::start().await;
    let deep = json!({"style": "deepObject", "explode": true});
    let doc = customers_doc(
        json!({
            "email": {"type": "string"},
            "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
            "preferred_locales": {"type": "array", "items": {"type": "string"}},
            "tax_id_data": {"type": "array", "items": {"type": "object", "properties": {
                "type": {"type": "string"}, "value": {"type": "string"}}}},
            "invoice_settings": {"type": "object", "properties": {
                "custom_fields": {"type": "array", "items": {"type": "object", "properties": {
                    "name": {"type": "string"}, "value": {"type": "string"}}}}}}
        }),
        json!({"metadata": deep, "preferred_locales": deep,
               "tax_id_data": deep, "invoice_settings": deep}),
    );
    let args = json!({
        "email": "ada@example.com",
        "metadata": {"order": "6735", "note": "a&b=c [x]"},
        "preferred_locales": ["en", "fr"],
        "tax_id_data": [{"type": "eu_vat", "value": "DE123"}, {"type": "gb_vat", "value": "GB9"}],
        "invoice_settings": {"custom_fields": [{"name": "PO", "value": "42"}]}
    });
    let client = connect(catalog_of(doc), options(&server)).await;
    let result = call(&client, "create_customer", args.clone()).await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    let seen = server.take();
    let body = String::from_utf8(seen[0].body.clone()).unwrap();
    assert!(
        body.contains("tax_id_data%5B0%5D%5Btype%5D=eu_vat"),
        "indexed, as Stripe reads it: {body}"
    );
    let script = format!(
        "const qs = require({}); process.stdout.write(JSON.stringify(qs.parse(require('fs').readFileSync(0, 'utf8'))))",
        serde_json::to_string(&qs.to_string_lossy()).unwrap()
    );
    let mut node = std::process::Command::new("node")
        .args(["-e", &script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("node runs (CI has it)");
    use std::io::Write as _;
    node.stdin
        .take()
        .unwrap()
        .write_all(body.as_bytes())
        .unwrap();
    let out = node.wait_with_output().unwrap();
    assert!(out.status.success());
    let parsed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(parsed, args, "qs reads back the arguments from {body}");
    client.cancel().await.unwrap();
}

/// A Stripe-like form body whose `encoding` gives styles (Stripe's
/// `metadata[key]=value` is `deepObject`).
fn form_styles_doc() -> Value {
    customers_doc(
        json!({
            "email": {"type": "string"},
            "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
            "expand": {"type": "array", "items": {"type": "string"}},
            "preferred_locales": {"type": "array", "items": {"type": "string"}}
        }),
        json!({
            "metadata": {"style": "deepObject", "explode": true},
            "expand": {"style": "deepObject", "explode": true},
            "preferred_locales": {"style": "form", "explode": false}
        }),
    )
}

/// Stripe's `POST /v1/customers` with a form body of `properties`, whose
/// Encoding Object is `encoding`.
fn customers_doc(properties: Value, encoding: Value) -> Value {
    json!({
        "openapi": "3.0.3",
        "info": {"title": "forms", "version": "1"},
        "paths": {"/v1/customers": {"post": {
            "operationId": "PostCustomers",
            "requestBody": {"content": {"application/x-www-form-urlencoded": {
                "schema": {"type": "object", "properties": properties},
                "encoding": encoding
            }}},
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}
        }}}
    })
}

#[tokio::test]
async fn form_bodies_follow_the_documented_encoding_styles() {
    let server = RawServer::start().await;
    let client = connect(catalog_of(form_styles_doc()), options(&server)).await;
    let args = json!({
        "email": "ada@example.com",
        "metadata": {"order_id": "6735", "note": "a b"},
        "expand": ["sources", "tax"],
        "preferred_locales": ["en", "fr"]
    });
    let result = call(&client, "create_customer", args).await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    let seen = server.take();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        seen[0].header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        String::from_utf8_lossy(&seen[0].body),
        "email=ada%40example.com&metadata%5Border_id%5D=6735&metadata%5Bnote%5D=a%20b\
         &expand%5B0%5D=sources&expand%5B1%5D=tax&preferred_locales=en%2Cfr"
    );
    client.cancel().await.unwrap();
}

/// A multipart upload whose `encoding` gives styles, a part type and a
/// part header, in an OpenAPI `version` document.
fn multipart_styles_doc(version: &str) -> Value {
    json!({
        "openapi": version,
        "info": {"title": "uploads", "version": "1"},
        "paths": {"/photos": {"post": {
            "operationId": "uploadPhoto",
            "requestBody": {"required": true, "content": {"multipart/form-data": {
                "schema": {"type": "object", "properties": {
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "filter": {"type": "object", "properties": {
                        "color": {"type": "string"}, "size": {"type": "integer"}
                    }},
                    "ids": {"type": "array", "items": {"type": "integer"}},
                    "count": {"type": "integer"},
                    "file": {"type": "string", "format": "binary"}
                }},
                "encoding": {
                    "tags": {"style": "form", "explode": false},
                    "filter": {"style": "deepObject", "explode": true},
                    "ids": {"style": "pipeDelimited"},
                    "file": {
                        "contentType": "image/png",
                        "headers": {"X-Upload-Kind": {"schema": {"type": "string", "const": "avatar"}}}
                    }
                }
            }}},
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}
        }}}
    })
}

/// `(part head lines, content)` of a multipart request.
fn multipart_parts(request: &RawRequest) -> Vec<(Vec<String>, String)> {
    let content_type = request.header("content-type").unwrap_or_default();
    let boundary = content_type.split_once("boundary=").unwrap().1;
    let body = String::from_utf8_lossy(&request.body).into_owned();
    let end = body.find(&format!("--{boundary}--")).unwrap();
    body[..end]
        .split(&format!("--{boundary}\r\n"))
        .skip(1)
        .map(|part| {
            let (head, content) = part.split_once("\r\n\r\n").unwrap();
            let lines = head.split("\r\n").map(str::to_string).collect();
            (lines, content.trim_end_matches("\r\n").to_string())
        })
        .collect()
}

/// OpenAPI 3.1 applies the Encoding Object's `style` and `explode` to
/// multipart/form-data; 3.0 ignores them there (found by the Prism oracle,
/// scripts/oracles/README.md). Both send `contentType` and fixed part
/// headers, and a number part as text/plain (no `Content-Type`).
#[tokio::test]
async fn multipart_parts_follow_the_encoding_object() {
    let args = json!({
        "tags": ["a", "b c"],
        "filter": {"color": "red", "size": 2},
        "ids": [1, 2],
        "count": 3,
        "file": "aGk="
    });
    let disposition = |name: &str| format!("Content-Disposition: form-data; name=\"{name}\"");
    let text = |name: &str, content: &str| (vec![disposition(name)], content.to_string());
    let file = (
        vec![
            "Content-Disposition: form-data; name=\"file\"; filename=\"file\"".to_string(),
            "Content-Type: image/png".to_string(),
            "X-Upload-Kind: avatar".to_string(),
        ],
        "hi".to_string(),
    );
    let json_part = |name: &str, content: &str| {
        (
            vec![
                disposition(name),
                "Content-Type: application/json".to_string(),
            ],
            content.to_string(),
        )
    };
    let expected_31 = vec![
        text("tags", "a,b c"),
        text("filter[color]", "red"),
        text("filter[size]", "2"),
        text("ids", "1|2"),
        text("count", "3"),
        file.clone(),
    ];
    let expected_30 = vec![
        text("tags", "a"),
        text("tags", "b c"),
        json_part("filter", r#"{"color":"red","size":2}"#),
        text("ids", "1"),
        text("ids", "2"),
        text("count", "3"),
        file,
    ];
    for (version, expected) in [("3.1.0", expected_31), ("3.0.3", expected_30)] {
        let server = RawServer::start().await;
        let client = connect(catalog_of(multipart_styles_doc(version)), options(&server)).await;
        let result = call(&client, "upload_photo", args.clone()).await;
        assert_eq!(
            result.is_error,
            Some(false),
            "{version}: {}",
            text_of(&result)
        );
        let seen = server.take();
        assert_eq!(seen.len(), 1, "{version}");
        assert_eq!(multipart_parts(&seen[0]), expected, "{version}");
        client.cancel().await.unwrap();
    }
}

/// `@readme/oas-examples`' `security-multiple`: `apiKey_header` AND
/// `basic` AND `oauth2`, where basic and OAuth 2 both need the one
/// `Authorization` header a request has.
fn and_security_doc() -> Value {
    let ok = json!({"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}});
    json!({
        "openapi": "3.0.3",
        "info": {"title": "security", "version": "1"},
        "components": {"securitySchemes": {
            "apiKey_header": {"type": "apiKey", "in": "header", "name": "X-API-KEY"},
            "basic": {"type": "http", "scheme": "basic"},
            "oauth2": {"type": "oauth2", "flows": {"authorizationCode": {
                "authorizationUrl": "https://example.com/oauth/authorize",
                "tokenUrl": "https://example.com/oauth/token",
                "scopes": {}
            }}}
        }},
        "paths": {
            "/anything/and": {"post": {
                "operationId": "createAnythingAnd",
                "security": [{"apiKey_header": [], "basic": [], "oauth2": []}],
                "responses": ok
            }},
            "/anything/and-or": {"post": {
                "operationId": "createAnythingAndOr",
                "security": [{"basic": [], "oauth2": []}, {"apiKey_header": []}],
                "responses": ok
            }}
        }
    })
}

/// A requirement no request can satisfy is refused before anything is
/// sent, naming the schemes and the header (the API key and the last
/// `Authorization` used to go out, which Prism answers `Invalid security
/// scheme used`); an alternative that can be satisfied is used instead.
#[tokio::test]
async fn a_requirement_needing_one_header_twice_is_refused_or_passed_over() {
    let server = RawServer::start().await;
    let options = ServeOptions {
        credentials: openapi2mcp::runtime::auth::Credentials::from_pairs([
            ("OPENAPI2MCP_APIKEY_HEADER_KEY", "key-7f3a"),
            ("OPENAPI2MCP_BASIC_USERNAME", "ada"),
            ("OPENAPI2MCP_BASIC_PASSWORD", "pw-7f3a"),
            ("OPENAPI2MCP_OAUTH2_TOKEN", "tok-7f3a"),
        ]),
        ..options(&server)
    };
    let client = connect(catalog_of(and_security_doc()), options).await;

    let refused = call(&client, "create_anything_and", json!({})).await;
    assert_eq!(refused.is_error, Some(true));
    let message = text_of(&refused);
    assert!(
        message.starts_with("Not sent:")
            && message.contains("`basic` and `oauth2`")
            && message.contains("the `Authorization` header"),
        "{message}"
    );
    assert!(!message.contains("7f3a"), "{message}");
    assert!(server.take().is_empty(), "nothing may be sent");

    let passed_over = call(&client, "create_anything_and_or", json!({})).await;
    assert_eq!(
        passed_over.is_error,
        Some(false),
        "{}",
        text_of(&passed_over)
    );
    let seen = server.take();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].all("x-api-key"), ["key-7f3a"]);
    assert_eq!(seen[0].header("authorization"), None);
    client.cancel().await.unwrap();
}
