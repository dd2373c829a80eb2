//! Compressed responses (issue 43, item 14): every call asks for gzip,
//! deflate, brotli and zstd and gets the body decoded, JSON and text alike;
//! the response cap counts decoded bytes, so a decompression bomb stops at
//! it and the server keeps serving. A real backend on 127.0.0.1 answers
//! compressed bodies through the in-process bridge.

use std::io::Write;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::response::Response;
use openapi2mcp::document::Document;
use openapi2mcp::server::ServeOptions;
use openapi2mcp::server::confirm::ConfirmPolicy;
use openapi2mcp::tools::{self, BuildOptions, Catalog};
use serde_json::json;

use crate::backend::{Backend, Recorded};
use crate::serve::connect;
use crate::support::{call, text_of};

const CODINGS: [&str; 4] = ["gzip", "deflate", "br", "zstd"];

/// Bytes of zeros in the bomb: 256 MiB, 256 times the 1 MiB cap, a few
/// hundred KiB compressed.
const BOMB_BYTES: usize = 256 << 20;

fn catalog() -> Catalog {
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "compressed", "version": "1"},
        "paths": {
            "/data/{coding}": {"get": {
                "operationId": "getData",
                "parameters": [{"name": "coding", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
                    "type": "object", "properties": {"name": {"type": "string"}, "n": {"type": "integer"}}
                }}}}}
            }},
            "/text/{coding}": {"get": {
                "operationId": "getText",
                "parameters": [{"name": "coding", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "ok", "content": {"text/plain": {"schema": {"type": "string"}}}}}
            }},
            "/bomb/{coding}": {"get": {
                "operationId": "getBomb",
                "parameters": [{"name": "coding", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "ok", "content": {"text/plain": {"schema": {"type": "string"}}}}}
            }},
            "/negotiated": {"get": {
                "operationId": "getNegotiated",
                "parameters": [{"name": "Accept-Encoding", "in": "header", "schema": {"type": "string"}}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
                    "type": "object", "properties": {"name": {"type": "string"}, "n": {"type": "integer"}}
                }}}}}
            }}
        }
    });
    let doc = Document::from_value("compressed.json", doc).unwrap();
    tools::build(&doc, &BuildOptions::default()).0
}

fn compress(coding: &str, bytes: &[u8]) -> Vec<u8> {
    match coding {
        "gzip" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        }
        // HTTP's `deflate` is the zlib format (RFC 9110 §8.4.1.2).
        "deflate" => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        }
        "br" => {
            let mut out = Vec::new();
            {
                let mut e = brotli::CompressorWriter::new(&mut out, 4096, 1, 22);
                e.write_all(bytes).unwrap();
            }
            out
        }
        "zstd" => zstd::encode_all(bytes, 1).unwrap(),
        other => panic!("no coding {other}"),
    }
}

/// The bomb, compressed once per coding for all tests.
fn bomb(coding: &str) -> Vec<u8> {
    static BOMBS: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    let bombs = BOMBS.get_or_init(|| {
        let zeros = vec![0u8; BOMB_BYTES];
        ["gzip", "zstd"]
            .iter()
            .map(|c| (c.to_string(), compress(c, &zeros)))
            .collect()
    });
    bombs
        .iter()
        .find(|(c, _)| c == coding)
        .map(|(_, b)| b.clone())
        .unwrap()
}

const JSON: &str = r#"{"name":"Zoë","n":1}"#;
const TEXT: &str = "grüße aus dem Süden, encoded and decoded";

fn reply(r: &Recorded) -> Response {
    let path = r.target.split('?').next().unwrap_or_default();
    let mut parts = path.trim_start_matches('/').splitn(2, '/');
    let kind = parts.next().unwrap_or_default();
    let coding = parts.next().unwrap_or("gzip");
    let (content_type, body) = match kind {
        "data" => ("application/json", compress(coding, JSON.as_bytes())),
        "text" => (
            "text/plain; charset=utf-8",
            compress(coding, TEXT.as_bytes()),
        ),
        "bomb" => ("text/plain", bomb(coding)),
        // Compressed whatever the request asked for, as some proxies do.
        _ => ("application/json", compress("gzip", JSON.as_bytes())),
    };
    let coding = if kind == "negotiated" { "gzip" } else { coding };
    Response::builder()
        .status(200)
        .header("content-type", content_type)
        .header("content-encoding", coding)
        .body(Body::from(body))
        .unwrap()
}

fn options(backend: &Backend) -> ServeOptions {
    ServeOptions {
        base_url: Some(backend.url()),
        confirm: ConfirmPolicy::None,
        ..ServeOptions::default()
    }
}

#[tokio::test]
async fn gzip_deflate_brotli_and_zstd_bodies_are_decoded() {
    let backend = Backend::start_with(reply).await;
    let client = connect(catalog(), options(&backend)).await;
    for coding in CODINGS {
        let got = call(&client, "get_data", json!({"coding": coding})).await;
        assert_eq!(got.is_error, Some(false), "{coding}: {}", text_of(&got));
        assert_eq!(
            got.structured_content,
            Some(json!({"name": "Zoë", "n": 1})),
            "{coding}: {}",
            text_of(&got)
        );
        let got = call(&client, "get_text", json!({"coding": coding})).await;
        assert_eq!(
            (got.is_error, text_of(&got)),
            (Some(false), TEXT.to_string()),
            "{coding}"
        );
    }
    let sent = backend.take();
    assert_eq!(sent.len(), 8);
    for request in &sent {
        let asked = request.header("accept-encoding").unwrap_or_default();
        for coding in CODINGS {
            assert!(
                asked.contains(coding),
                "Accept-Encoding `{asked}` lacks {coding}"
            );
        }
    }
    client.cancel().await.unwrap();
}

/// A documented `Accept-Encoding` header parameter is sent when it asks
/// only for codings the client decodes, and left out (the client's own
/// negotiation instead) when it admits one it cannot: the compressed
/// answer is decoded either way.
#[tokio::test]
async fn a_documented_accept_encoding_argument_does_not_break_decoding() {
    let backend = Backend::start_with(reply).await;
    let client = connect(catalog(), options(&backend)).await;
    for asked in ["gzip", "identity", "compress", "*"] {
        let got = call(&client, "get_negotiated", json!({"Accept-Encoding": asked})).await;
        assert_eq!(
            got.structured_content,
            Some(json!({"name": "Zoë", "n": 1})),
            "{asked}: {}",
            text_of(&got)
        );
    }
    let sent: Vec<String> = backend
        .take()
        .iter()
        .map(|r| r.header("accept-encoding").unwrap_or_default().to_string())
        .collect();
    assert_eq!(sent[0], "gzip");
    assert_eq!(sent[1], "identity");
    for own in &sent[2..] {
        assert!(own.contains("gzip") && own.contains("zstd"), "{sent:?}");
    }
    client.cancel().await.unwrap();
}

/// 256 MiB of zeros, a few hundred KiB on the wire: decoding stops at the
/// 1 MiB cap, the result says so and names the cap, and the server answers
/// the next call.
#[tokio::test]
async fn a_decompression_bomb_stops_at_the_cap_and_the_server_keeps_serving() {
    let backend = Backend::start_with(reply).await;
    let mut options = options(&backend);
    options.http.limits.max_body_bytes = 1 << 20;
    let client = connect(catalog(), options).await;
    for coding in ["gzip", "zstd"] {
        assert!(bomb(coding).len() < BOMB_BYTES / 100);
        let started = Instant::now();
        let got = call(&client, "get_bomb", json!({"coding": coding})).await;
        let text = text_of(&got);
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{coding}: {:?}",
            started.elapsed()
        );
        assert!(
            text.len() <= (1 << 20) + 1024,
            "{coding}: {} bytes reached the result",
            text.len()
        );
        assert!(
            text.contains("1048576-byte limit"),
            "{coding}: {}",
            &text[text.len().saturating_sub(400)..]
        );
    }
    let ok = call(&client, "get_data", json!({"coding": "gzip"})).await;
    assert_eq!(ok.structured_content, Some(json!({"name": "Zoë", "n": 1})));
    client.cancel().await.unwrap();
}
