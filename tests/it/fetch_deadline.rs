//! One deadline for a whole fetch (issue 43, item 11): a document, an
//! overlay or a remote `$ref` whose server drips its answer a byte at a
//! time is cut off at `--fetch-timeout` (`OPENAPI2MCP_FETCH_TIMEOUT`), not
//! after one read timeout per byte; the error names the URL without its
//! credentials, and the limit.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::response::Response;
use tokio::io::AsyncWriteExt;

use crate::backend::{Backend, Recorded};

/// Bytes the drip sends, one every 100 ms: a minute in all, far past the
/// 2-second deadline the tests set (and the 30-second default).
const DRIP_BYTES: usize = 600;

/// A JSON document dripped one byte every 100 ms, its headers sent at
/// once (not under `/slow`, which the backend holds back 3 s); `/fast.json`
/// (a small document) answered at once.
fn drip(r: &Recorded) -> Response {
    if r.target.starts_with("/fast.json") {
        return Response::builder()
            .header("content-type", "application/json")
            .body(Body::from(
                r#"{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{}}"#,
            ))
            .unwrap();
    }
    let (reader, mut writer) = tokio::io::duplex(64);
    tokio::spawn(async move {
        let text = format!(
            "{{\"openapi\": \"3.0.3\", \"x\": \"{}",
            " ".repeat(DRIP_BYTES)
        );
        for byte in text.as_bytes().iter().take(DRIP_BYTES) {
            if writer.write_all(&[*byte]).await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    Response::builder()
        .header("content-type", "application/json")
        .body(Body::from_stream(tokio_util::io::ReaderStream::new(reader)))
        .unwrap()
}

/// Runs the binary with `args` and a 2-second fetch deadline (from the
/// environment, which a build without the setting ignores); its exit
/// status, stderr and how long it took.
async fn run(args: Vec<String>) -> (bool, String, Duration) {
    let started = Instant::now();
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args(&args)
        .env("OPENAPI2MCP_FETCH_TIMEOUT", "2")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(Duration::from_secs(90), out)
        .await
        .expect("the binary ends")
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        started.elapsed(),
    )
}

fn assert_cut_off(what: &str, (ok, stderr, took): (bool, String, Duration)) {
    assert!(!ok, "{what}: succeeded: {stderr}");
    assert!(
        took < Duration::from_secs(10),
        "{what}: took {took:?} with a 2-second deadline: {stderr}"
    );
    assert!(
        stderr.contains("within the limit of 2 seconds"),
        "{what}: {stderr}"
    );
    assert!(
        stderr.contains("/drip.json"),
        "{what}: no URL named: {stderr}"
    );
    assert!(
        !stderr.contains("s3cret") && !stderr.contains("hunter2"),
        "{what}: a credential of the URL was shown: {stderr}"
    );
}

#[tokio::test]
async fn a_dripping_document_overlay_or_ref_is_cut_off_at_the_fetch_deadline() {
    let backend = Backend::start_with(drip).await;
    let slow = format!(
        "http://reader:hunter2@{}/drip.json?token=s3cret",
        backend.addr
    );
    let fast = format!("{}/fast.json", backend.url());

    assert_cut_off("list", run(vec!["list".into(), slow.clone()]).await);
    assert_cut_off(
        "serve",
        run(vec![
            "serve".into(),
            slow.clone(),
            "--base-url".into(),
            backend.url(),
        ])
        .await,
    );
    assert_cut_off(
        "overlay",
        run(vec![
            "list".into(),
            fast.clone(),
            "--overlay".into(),
            slow.clone(),
        ])
        .await,
    );

    // A remote `$ref` that drips is a warning, not an endless load.
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("doc.json");
    std::fs::write(
        &doc,
        serde_json::json!({
            "openapi": "3.0.3",
            "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"get": {"responses": {"200": {"description": "ok",
                "content": {"application/json": {"schema": {"$ref": format!("{slow}#/x")}}}}}}}}
        })
        .to_string(),
    )
    .unwrap();
    let (_, stderr, took) = run(vec![
        "list".into(),
        doc.to_str().unwrap().into(),
        "--allow-remote-refs".into(),
    ])
    .await;
    assert!(
        took < Duration::from_secs(10),
        "$ref: took {took:?}: {stderr}"
    );
    assert!(
        stderr.contains("within the limit of 2 seconds") && !stderr.contains("s3cret"),
        "$ref: {stderr}"
    );
}
