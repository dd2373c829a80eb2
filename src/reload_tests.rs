//! Unit tests of `reload.rs`: the `--watch` poll of a document URL.

use super::*;

/// A server on 127.0.0.1 answering every request with an endless body
/// (no length: it would end when the connection closes, and never does
/// while the client reads); bounded at 4 GiB.
async fn endless_server() -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!(
        "http://{}/api.json?token=s3cret",
        listener.local_addr().unwrap()
    );
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = [0u8; 4096];
                let _ = socket.read(&mut request).await;
                let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n";
                if socket.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                let chunk = vec![b' '; 64 * 1024];
                for _ in 0..(4u64 << 30) / chunk.len() as u64 {
                    if socket.write_all(&chunk).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    url
}

#[tokio::test]
async fn the_watch_poll_reads_an_endless_document_only_up_to_the_limit() {
    let url = endless_server().await;
    let client = reqwest::Client::new();
    let polled = tokio::time::timeout(
        Duration::from_secs(20),
        poll_once(&client, &url, &Version::default(), 100_000),
    )
    .await
    .expect("the poll ends at the limit");
    let err = polled.expect_err("an endless body is an error");
    assert!(err.contains("100000") && err.contains("limit"), "{err}");
    assert!(!err.contains("s3cret"), "{err}");
}
