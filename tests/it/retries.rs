//! Retries, each proven end to end: they keep to one deadline, whatever
//! their number, and honour `Retry-After`.

use std::time::Duration;

use openapi2mcp::server::{Bridge, ServeOptions};
use rmcp::service::{RoleClient, RunningService};
use serde_json::json;

use crate::support::{Scripted, call, catalog_of, scripted, session, tagged_doc, text_of};

fn busy(retry_after: Option<String>) -> Scripted {
    let headers = retry_after
        .map(|v| vec![("retry-after".to_string(), v)])
        .unwrap_or_default();
    (503, headers, br#"{"message":"busy"}"#.to_vec())
}

fn fine() -> Scripted {
    (200, Vec::new(), br#"{"ok":true}"#.to_vec())
}

/// A session on a one-tool API (`get_thing`) at `url`, with `http` set.
async fn retrying_session(
    url: &str,
    http: impl FnOnce(&mut openapi2mcp::runtime::http::HttpOptions),
) -> RunningService<RoleClient, ()> {
    let mut options = ServeOptions {
        base_url: Some(url.to_string()),
        ..ServeOptions::default()
    };
    http(&mut options.http);
    let bridge = Bridge::new(catalog_of(tagged_doc(&[("get_thing", "all")])), options).unwrap();
    session(&bridge).await
}

fn hits_of(hits: &std::sync::atomic::AtomicUsize) -> usize {
    hits.load(std::sync::atomic::Ordering::SeqCst)
}

// Retry-After is honoured, in seconds and as an HTTP date.
#[tokio::test]
async fn retry_after_is_honoured_in_seconds_and_as_an_http_date() {
    let (url, hits) = scripted(|n| {
        if n == 0 {
            busy(Some("1".into()))
        } else {
            fine()
        }
    })
    .await;
    let client = retrying_session(&url, |h| {
        h.retries = 3;
        h.retry_backoff = Duration::from_millis(10);
    })
    .await;
    let started = std::time::Instant::now();
    let got = call(&client, "get_thing", json!({})).await;
    assert_eq!(got.is_error, Some(false), "{}", text_of(&got));
    assert_eq!(hits_of(&hits), 2);
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "retried after {:?}, not the 1 s Retry-After asks for",
        started.elapsed()
    );
    client.cancel().await.unwrap();

    // An HTTP date two seconds ahead (whole seconds: a wait of 1 to 2 s).
    let (url, hits) = scripted(|n| {
        if n == 0 {
            let at = std::time::SystemTime::now() + Duration::from_secs(2);
            busy(Some(httpdate::fmt_http_date(at)))
        } else {
            fine()
        }
    })
    .await;
    let client = retrying_session(&url, |h| {
        h.retries = 3;
        h.retry_backoff = Duration::from_millis(10);
    })
    .await;
    let started = std::time::Instant::now();
    let got = call(&client, "get_thing", json!({})).await;
    assert_eq!(got.is_error, Some(false), "{}", text_of(&got));
    assert_eq!(hits_of(&hits), 2);
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "retried after {:?}",
        started.elapsed()
    );
    client.cancel().await.unwrap();
}

// A Retry-After past the cap or the deadline ends the retries at once.
#[tokio::test]
async fn a_retry_after_beyond_the_cap_or_the_deadline_returns_the_answer_at_once() {
    for (asked, timeout) in [("120", 30.0), ("3", 2.0)] {
        let asked = asked.to_string();
        let (url, hits) = scripted(move |_| busy(Some(asked.clone()))).await;
        let client = retrying_session(&url, |h| {
            h.retries = 5;
            h.retry_backoff = Duration::from_millis(10);
            h.timeout = Duration::from_secs_f64(timeout);
        })
        .await;
        let started = std::time::Instant::now();
        let got = call(&client, "get_thing", json!({})).await;
        assert!(
            started.elapsed() < Duration::from_millis(1500),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(hits_of(&hits), 1, "no retry was made");
        assert_eq!(got.is_error, Some(true));
        let text = text_of(&got);
        assert!(
            text.contains("503") && text.contains("Retry-After"),
            "{text}"
        );
        client.cancel().await.unwrap();
    }
}

// Retries, waits and attempts all fit in one deadline, for any count.
#[tokio::test]
async fn retries_keep_to_one_deadline_whatever_their_number() {
    let (url, hits) = scripted(|_| busy(None)).await;
    let client = retrying_session(&url, |h| {
        h.retries = u32::MAX;
        h.retry_backoff = Duration::from_millis(100);
        h.timeout = Duration::from_secs(2);
    })
    .await;
    let started = std::time::Instant::now();
    let got = call(&client, "get_thing", json!({})).await;
    let took = started.elapsed();
    assert!(took < Duration::from_millis(2500), "the call took {took:?}");
    assert_eq!(got.is_error, Some(true));
    assert!(text_of(&got).contains("503"), "{}", text_of(&got));
    assert!(hits_of(&hits) >= 3, "{} attempts", hits_of(&hits));
    client.cancel().await.unwrap();

    // An attempt that hangs is cut at the deadline too, not after it.
    let slow = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let slow_url = format!("http://{}", slow.local_addr().unwrap());
    tokio::spawn(async move {
        // Accepts and never answers.
        let mut held = Vec::new();
        while let Ok((socket, _)) = slow.accept().await {
            held.push(socket);
        }
    });
    let client = retrying_session(&slow_url, |h| {
        h.retries = 10;
        h.timeout = Duration::from_secs(1);
    })
    .await;
    let started = std::time::Instant::now();
    let got = call(&client, "get_thing", json!({})).await;
    assert!(
        started.elapsed() < Duration::from_millis(1800),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(got.is_error, Some(true));
    assert!(text_of(&got).contains("timed out"), "{}", text_of(&got));
    client.cancel().await.unwrap();
}
