//! A real HTTP backend on 127.0.0.1 for end-to-end tests: records every
//! request exactly as received and answers through a test-supplied function.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::Response;

/// One request as the backend saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    /// Path and query exactly as sent (still percent-encoded).
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the backend answers: status, content type, body.
pub type Reply = (u16, &'static str, Vec<u8>);

pub struct Backend {
    pub addr: SocketAddr,
    log: Arc<Mutex<Vec<Recorded>>>,
}

impl Backend {
    /// Starts a backend answering with `reply` for every request.
    pub async fn start(reply: fn(&Recorded) -> Reply) -> Self {
        Self::start_with(move |recorded| {
            let (status, content_type, bytes) = reply(recorded);
            Response::builder()
                .status(StatusCode::from_u16(status).unwrap())
                .header("content-type", content_type)
                .body(Body::from(bytes))
                .unwrap()
        })
        .await
    }

    /// Starts a backend answering every request with the response `reply`
    /// makes (any headers, a streamed body).
    pub async fn start_with(
        reply: impl Fn(&Recorded) -> Response + Clone + Send + Sync + 'static,
    ) -> Self {
        let log: Arc<Mutex<Vec<Recorded>>> = Arc::default();
        let shared = Arc::clone(&log);
        let app = axum::Router::new().fallback(move |req: Request| {
            let log = Arc::clone(&shared);
            let reply = reply.clone();
            async move {
                let (parts, body) = req.into_parts();
                let body = axum::body::to_bytes(body, 64 << 20)
                    .await
                    .unwrap_or_default()
                    .to_vec();
                let recorded = Recorded {
                    method: parts.method.to_string(),
                    target: parts
                        .uri
                        .path_and_query()
                        .map(|p| p.as_str().to_string())
                        .unwrap_or_default(),
                    headers: parts
                        .headers
                        .iter()
                        .map(|(k, v)| {
                            (
                                k.to_string(),
                                String::from_utf8_lossy(v.as_bytes()).into_owned(),
                            )
                        })
                        .collect(),
                    body,
                };
                if recorded.target.contains("/slow") {
                    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
                }
                let response = reply(&recorded);
                log.lock().unwrap().push(recorded);
                response
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { addr, log }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Takes the requests recorded so far.
    pub fn take(&self) -> Vec<Recorded> {
        std::mem::take(&mut self.log.lock().unwrap())
    }
}
