//! Secrets kept from the model and the logs, each proven end to end:
//! credentials the API echoes are scrubbed from structured content as
//! from text, token passthrough (`--forward-authorization`) with a token
//! for this server is refused at parse time, and document URLs are
//! logged without credentials.

use std::time::Duration;

use openapi2mcp::server::{Bridge, ServeOptions};
use serde_json::{Value, json};

use crate::backend::{Backend, Recorded, Reply};
use crate::support::{call, catalog_of, run_binary, scripted, session, tagged_doc, text_of};

/// The bearer token the secret-echo tests configure.
const TOKEN: &str = "tok-SECRET-4711";

/// Echoes the bearer token it received in a JSON value, a key and a
/// nested string, the way a debugging endpoint or a careless error does.
fn echo_token(r: &Recorded) -> Reply {
    let token = r
        .header("authorization")
        .and_then(|a| a.strip_prefix("Bearer "))
        .unwrap_or("none");
    let body = json!({"seen": token, token: 1, "nested": [{"note": format!("you sent {token}.")}]});
    (200, "application/json", body.to_string().into_bytes())
}

// Structured content goes through the same redaction as text.
#[tokio::test]
async fn a_credential_echoed_in_json_reaches_neither_text_nor_structured_content() {
    use openapi2mcp::runtime::auth::Credentials;
    let backend = Backend::start(echo_token).await;
    let output = |_: Value| {
        json!({"200": {"description": "ok", "content": {"application/json": {"schema": {
            "type": "object", "properties": {"seen": {"type": "string"},
                "nested": {"type": "array", "items": {"type": "object"}}}}}}}})
    };
    let doc = json!({
        "openapi": "3.1.0", "info": {"title": "Echo", "version": "1"},
        "security": [{"bearer": []}],
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
        "paths": {
            "/echo": {"get": {"operationId": "get_echo", "responses": output(json!({}))}},
            // Keys like the token are integers, any other key a string: the
            // token's key, masked, no longer fits.
            "/strict": {"get": {"operationId": "get_strict",
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
                    "type": "object",
                    "properties": {"seen": {"type": "string"}, "nested": {"type": "array"}},
                    "patternProperties": {"^tok-": {"type": "integer"}},
                    "additionalProperties": {"type": "string"}}}}}}}}
        }
    });
    let options = ServeOptions {
        base_url: Some(backend.url()),
        credentials: Credentials::from_pairs([("OPENAPI2MCP_BEARER_TOKEN", TOKEN)]),
        ..ServeOptions::default()
    };
    let bridge = Bridge::new(catalog_of(doc), options).unwrap();
    let client = session(&bridge).await;

    let got = call(&client, "get_echo", json!({})).await;
    assert_eq!(
        backend.take()[0].header("authorization"),
        Some(format!("Bearer {TOKEN}").as_str()),
        "the token was sent"
    );
    assert_eq!(got.is_error, Some(false), "{}", text_of(&got));
    let structured = got.structured_content.clone().expect("structured content");
    let everything = serde_json::to_string(&got).unwrap();
    assert!(!everything.contains(TOKEN), "{everything}");
    assert_eq!(structured["seen"], "***", "{structured}");
    assert_eq!(structured["***"], 1, "keys are masked too: {structured}");
    assert_eq!(structured["nested"][0]["note"], "you sent ***.");
    assert!(!text_of(&got).contains(TOKEN));

    // Masked, the result no longer fits the output schema (the masked key
    // `***` falls under `additionalProperties`, a string, but holds 1): the
    // unfit value is repaired like any other (null, with a note), and the
    // call stays a success without the token anywhere.
    let got = call(&client, "get_strict", json!({})).await;
    let everything = serde_json::to_string(&got).unwrap();
    assert!(!everything.contains(TOKEN), "{everything}");
    assert_eq!(got.is_error, Some(false), "{everything}");
    let structured = got.structured_content.clone().expect("structured content");
    assert_eq!(structured["***"], Value::Null, "{structured}");
    assert_eq!(structured["seen"], "***", "{structured}");
    assert!(text_of(&got).contains("shown as null"), "{}", text_of(&got));
    client.cancel().await.unwrap();
}

/// A token forwarded from the MCP client (`--forward-authorization`) is
/// masked like a configured one when the API echoes it: the model never
/// reads the caller's credential, though no configuration names it.
#[tokio::test]
async fn a_forwarded_token_echoed_by_the_api_is_masked() {
    const FORWARDED: &str = "client-forwarded-token-90210";
    let backend = Backend::start(|r: &Recorded| {
        let sent = r.header("authorization").unwrap_or("none").to_string();
        let body = json!({"seen": sent, "note": format!("token {sent} is not valid here")});
        (200, "application/json", body.to_string().into_bytes())
    })
    .await;
    let doc = json!({
        "openapi": "3.1.0", "info": {"title": "Echo", "version": "1"},
        "paths": {"/echo": {"get": {"operationId": "get_echo", "responses": {"200": {
            "description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}}}}
    });
    let options = ServeOptions {
        base_url: Some(backend.url()),
        forward_authorization: true,
        ..ServeOptions::default()
    };
    let bridge = Bridge::new(catalog_of(doc), options).unwrap();
    let (url, shutdown) = crate::protocol::http_server(bridge).await;
    let bearer = format!("Bearer {FORWARDED}");
    let (status, answer) = crate::mcp_headers::rpc(
        &url,
        "tools/call",
        json!({"name": "get_echo", "arguments": {}}),
        &[("mcp-name", "get_echo"), ("authorization", &bearer)],
    )
    .await;
    assert_eq!(
        backend.take()[0].header("authorization"),
        Some(bearer.as_str()),
        "the client's token was forwarded"
    );
    assert_eq!(status, 200, "{answer}");
    let result = &answer["result"];
    assert_eq!(result["isError"], false, "{answer}");
    let everything = answer.to_string();
    assert!(!everything.contains(FORWARDED), "{everything}");
    assert_eq!(result["structuredContent"]["seen"], "***", "{answer}");
    assert_eq!(
        result["structuredContent"]["note"], "token *** is not valid here",
        "{answer}"
    );
    shutdown.cancel();
}

// Token passthrough is refused when the command line is parsed.
#[test]
fn forward_authorization_with_a_token_for_this_server_is_refused_at_parse_time() {
    let spec = crate::support::local("specs/petstore.yaml");
    let spec = spec.to_str().unwrap();
    let base = [
        "serve",
        spec,
        "--transport",
        "http",
        "--listen",
        "127.0.0.1:0",
    ];
    // Extra flags, extra environment, the flag the refusal names.
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);
    let cases: [Case; 3] = [
        (&["--auth-token", "s3cret"], &[], "--auth-token"),
        (&[], &[("OPENAPI2MCP_AUTH_TOKEN", "s3cret")], "--auth-token"),
        (
            &[
                "--oauth-issuer",
                "https://as.example.com",
                "--resource-url",
                "https://mcp.example.com/mcp",
            ],
            &[],
            "--oauth-issuer",
        ),
    ];
    for (extra, env, named) in cases {
        let mut args = base.to_vec();
        args.push("--forward-authorization");
        args.extend_from_slice(extra);
        let (code, stderr) = run_binary(&args, env);
        assert_eq!(code, Some(2), "{args:?} {env:?}: {stderr}");
        assert!(
            stderr.contains("--forward-authorization") && stderr.contains(named),
            "{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!stderr.contains("s3cret"), "{stderr}");
    }
}

// A document URL's credentials never reach a log line or an error.
#[tokio::test]
async fn document_url_credentials_are_redacted_from_logs_and_errors() {
    use tokio::io::AsyncBufReadExt;
    const TOKEN: &str = "SECRETtoken99";
    const PASSWORD: &str = "hunter2pw";
    let first = tagged_doc(&[("get_first", "all")]).to_string().into_bytes();
    let second = tagged_doc(&[("get_second", "all")])
        .to_string()
        .into_bytes();
    // The initial load and two polls see the first document, the next
    // three the second, then it breaks.
    let (origin, _) = scripted(move |n| match n {
        0..3 => (200, Vec::new(), first.clone()),
        3..6 => (200, Vec::new(), second.clone()),
        _ => (200, Vec::new(), b"openapi: [this is not".to_vec()),
    })
    .await;
    let url = origin.replace("http://", &format!("http://reader:{PASSWORD}@"))
        + &format!("/api.json?token={TOKEN}&v=1");
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args([
            "serve",
            &url,
            "--transport",
            "http",
            "--listen",
            "127.0.0.1:0",
        ])
        .args([
            "--base-url",
            "http://127.0.0.1:9",
            "--watch",
            "--watch-interval",
            "0.2",
        ])
        .args(["--log", "info"])
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let mut seen = Vec::new();
    let done = tokio::time::timeout(Duration::from_secs(30), async {
        while let Ok(Some(line)) = lines.next_line().await {
            let failed = line.contains("reload of") && line.contains("failed");
            seen.push(line);
            if failed {
                break;
            }
        }
    })
    .await;
    let _ = child.kill().await;
    let stderr = seen.join("\n");
    assert!(done.is_ok(), "no failed reload within 30 s:\n{stderr}");
    assert!(
        stderr.contains("reloaded") && stderr.contains("token=***"),
        "the reloads are logged, naming the document:\n{stderr}"
    );
    assert!(
        !stderr.contains(TOKEN) && !stderr.contains(PASSWORD),
        "{stderr}"
    );

    // Errors of a one-shot command: an HTTP error, and no server at all.
    let missing = origin.replace("http://", &format!("http://reader:{PASSWORD}@"))
        + &format!("/missing.json?token={TOKEN}");
    let (missing_origin, _) = scripted(|_| (404, Vec::new(), b"{}".to_vec())).await;
    let missing = missing.replace(&origin, &missing_origin);
    let dead = format!("http://reader:{PASSWORD}@127.0.0.1:9/api.json?token={TOKEN}");
    for location in [missing, dead] {
        let (code, stderr) =
            tokio::task::spawn_blocking(move || run_binary(&["list", &location], &[]))
                .await
                .unwrap();
        assert_eq!(code, Some(1), "{stderr}");
        assert!(stderr.contains("token=***"), "{stderr}");
        assert!(
            !stderr.contains(TOKEN) && !stderr.contains(PASSWORD),
            "{stderr}"
        );
    }
}
