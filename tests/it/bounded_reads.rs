//! Bounded reads, each proven end to end: network and local reads of
//! documents, remote `$ref`s and the authorization server's keys (JWKS)
//! are bounded, and what goes past the limit is refused naming it.

use std::time::Duration;

use serde_json::json;

use crate::support::run_binary;

/// How the raw server answers one path.
#[derive(Clone)]
enum Raw {
    /// This body, with a `Content-Length` or (false) until the connection closes.
    Body(Vec<u8>, bool),
    /// An endless body: the connection closes only when the client goes
    /// (or after 4 GiB, to bound the test).
    Endless,
}

/// A bare HTTP/1.1 server on 127.0.0.1 answering each path with what
/// `plan` says (`None`: 404); its origin. Bodies without a length end at
/// connection close, which is what an endless answer needs.
fn raw_server(plan: impl Fn(&str) -> Option<Raw> + Send + Sync + 'static) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let plan = std::sync::Arc::new(plan);
    std::thread::spawn(move || {
        for stream in listener.incoming().take(200) {
            let Ok(mut stream) = stream else { continue };
            let plan = std::sync::Arc::clone(&plan);
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut first = String::new();
                if reader.read_line(&mut first).is_err() {
                    return;
                }
                // Skip the headers.
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let path = first.split(' ').nth(1).unwrap_or("/").to_string();
                let head =
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n";
                match plan(&path) {
                    None => {
                        let _ = stream.write_all(
                            b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                        );
                    }
                    Some(Raw::Body(body, with_length)) => {
                        let length = if with_length {
                            format!("content-length: {}\r\n", body.len())
                        } else {
                            String::new()
                        };
                        let _ = stream.write_all(format!("{head}{length}\r\n").as_bytes());
                        let _ = stream.write_all(&body);
                    }
                    Some(Raw::Endless) => {
                        let _ = stream.write_all(format!("{head}\r\n").as_bytes());
                        let chunk = vec![b' '; 64 * 1024];
                        for _ in 0..(4u64 << 30) / chunk.len() as u64 {
                            if stream.write_all(&chunk).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        }
    });
    origin
}

/// A JSON text of exactly `len` bytes (an object padded with spaces).
fn padded_json(len: usize) -> Vec<u8> {
    let mut body = b"{}".to_vec();
    body.resize(len, b' ');
    body
}

// The document is read with a bound, checked while reading.
#[test]
fn an_oversized_or_endless_document_url_is_refused_naming_the_url_and_the_limit() {
    let origin = raw_server(|path| match path {
        "/big.json" => Some(Raw::Body(padded_json(5000), true)),
        "/unsized.json" => Some(Raw::Body(padded_json(5000), false)),
        "/endless.json" => Some(Raw::Endless),
        _ => None,
    });
    for (path, limit) in [
        ("/big.json", Some("1000")),
        ("/unsized.json", Some("1000")),
        ("/endless.json", Some("100000")),
        ("/endless.json", None),
    ] {
        let url = format!("{origin}{path}");
        let mut args = vec!["list", url.as_str()];
        if let Some(limit) = limit {
            args.extend(["--max-document-bytes", limit]);
        }
        let started = std::time::Instant::now();
        let (code, stderr) = run_binary(&args, &[]);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        let shown = limit.unwrap_or("67108864");
        assert!(
            stderr.contains(&url) && stderr.contains(shown) && stderr.contains("limit"),
            "{args:?}: {stderr}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(25),
            "{args:?} took {:?}",
            started.elapsed()
        );
    }
}

// A local path is bounded the same way: a device that never ends
// (`/dev/zero`) or a file over the limit is refused, naming the limit.
#[test]
fn an_endless_or_oversized_local_document_is_refused_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.json");
    std::fs::write(&big, padded_json(5000)).unwrap();
    let big = big.to_str().unwrap().to_string();
    for (path, limit) in [("/dev/zero", "100000"), (big.as_str(), "1000")] {
        let started = std::time::Instant::now();
        let (code, stderr) = run_binary(&["list", path, "--max-document-bytes", limit], &[]);
        assert_eq!(code, Some(1), "{path}: {stderr}");
        assert!(
            stderr.contains(limit) && stderr.contains("larger than the limit"),
            "{path}: {stderr}"
        );
        assert!(started.elapsed() < Duration::from_secs(25), "{path}");
    }
}

// So are remote `$ref`s: the operation that needs one is skipped, with
// a warning naming the URL and the limit; the rest still work.
#[test]
fn an_endless_remote_ref_is_cut_at_the_limit_and_reported() {
    let origin = raw_server(move |path| match path {
        "/endless.json" => Some(Raw::Endless),
        _ => None,
    });
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("api.json");
    let remote = format!("{origin}/endless.json");
    let text = json!({
        "openapi": "3.0.3", "info": {"title": "Refs", "version": "1"},
        "paths": {
            "/a": {"get": {"operationId": "get_a", "responses": {"200": {"description": "ok"}}}},
            "/b": {"$ref": format!("{remote}#/paths/~1b")}
        }
    });
    std::fs::write(&doc, text.to_string()).unwrap();
    let (code, stderr) = run_binary(
        &[
            "list",
            doc.to_str().unwrap(),
            "--allow-remote-refs",
            "--max-document-bytes",
            "65536",
        ],
        &[],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains(&remote) && stderr.contains("65536") && stderr.contains("limit"),
        "{stderr}"
    );
}

// And the authorization server's keys.
#[tokio::test]
async fn an_endless_or_oversized_jwks_is_refused_naming_the_url_and_the_limit() {
    use openapi2mcp::server::authz::jwks::{JwksCache, JwksSource};
    let origin = raw_server(|path| match path {
        "/endless" => Some(Raw::Endless),
        "/big" => Some(Raw::Body(padded_json(3 << 20), true)),
        "/unsized" => Some(Raw::Body(padded_json(3 << 20), false)),
        _ => None,
    });
    for path in ["/endless", "/big", "/unsized"] {
        let url = format!("{origin}{path}");
        let cache = JwksCache::new(
            JwksSource::Url(url.clone()),
            Duration::from_secs(10),
            Duration::from_secs(3600),
        );
        let started = std::time::Instant::now();
        let err = match tokio::time::timeout(Duration::from_secs(20), cache.keys()).await {
            Ok(Err(e)) => e.to_string(),
            Ok(Ok(_)) => panic!("{path}: keys from an oversized answer"),
            Err(_) => panic!("{path}: the fetch did not end"),
        };
        assert!(
            err.contains(&url) && err.contains(&(1u32 << 20).to_string()),
            "{path}: {err}"
        );
        assert!(started.elapsed() < Duration::from_secs(10), "{path}");
    }
}
