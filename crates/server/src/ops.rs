//! Operations endpoints of the HTTP transport and the metrics behind them:
//! `/healthz` (the process answers), `/readyz` (a catalog is loaded, the
//! server is not draining, and — when asked — the API answers), and
//! `/metrics` in Prometheus text format.
//!
//! Metrics are recorded through the `metrics` facade (the `metrics`
//! feature; without it nothing is recorded and `/metrics` answers 404);
//! the Prometheus recorder is installed only by the HTTP transport. Until
//! then every `record_*` function returns after one relaxed atomic load,
//! so the stdio path pays nothing measurable.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::Bridge;

#[cfg(feature = "metrics")]
#[path = "ops/metrics.rs"]
mod recorder;
#[cfg(not(feature = "metrics"))]
#[path = "ops/without_metrics.rs"]
mod recorder;

#[cfg(feature = "metrics")]
pub use recorder::{
    AUTH_REFUSALS, BACKEND_SECONDS, CALLS, IN_FLIGHT, RATE_LIMITED, RELOADS, TOOLS,
};
pub use recorder::{install, record_auth_refusal, record_call, record_reload};

/// What the operations endpoints look at.
pub struct OpsState {
    pub(super) bridge: Bridge,
    ready_url: Option<String>,
    draining: AtomicBool,
    client: reqwest::Client,
}

impl OpsState {
    /// State for `bridge`; `ready_url` is fetched by `/readyz` when set.
    pub fn new(bridge: Bridge, ready_url: Option<String>) -> Self {
        Self {
            bridge,
            ready_url,
            draining: AtomicBool::new(false),
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(2))
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap_or_default(),
        }
    }

    /// Marks the server as shutting down: `/readyz` answers 503 from now on.
    pub fn start_draining(&self) {
        self.draining.store(true, Ordering::SeqCst);
    }
}

/// `/healthz`, `/readyz` and `/metrics`.
pub fn router(state: Arc<OpsState>) -> axum::Router {
    axum::Router::new()
        .route("/healthz", axum::routing::get(|| async { "ok\n" }))
        .route("/readyz", axum::routing::get(readyz))
        .route("/metrics", axum::routing::get(recorder::metrics_text))
        .with_state(state)
}

async fn readyz(State(state): State<Arc<OpsState>>) -> Response {
    let tools = state.bridge.tool_count();
    let draining = state.draining.load(Ordering::SeqCst);
    let mut ready = tools > 0 && !draining;
    let mut body = json!({"tools": tools, "draining": draining});
    if let Some(url) = &state.ready_url {
        // The answer is unauthenticated: the URL without its credentials.
        let shown = openapi2mcp_runtime::wire::redact_url(url);
        // Any HTTP answer means the API is reachable; its status is its own business.
        match state.client.get(url).send().await {
            Ok(res) => body["backend"] = json!({"url": shown, "status": res.status().as_u16()}),
            Err(e) => {
                ready = false;
                body["backend"] = json!({"url": shown, "error": without_url(&e)});
            }
        }
    }
    body["ready"] = json!(ready);
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, axum::Json(body)).into_response()
}

/// reqwest's message without the URL it names (query and all), and any
/// URL a cause writes masked.
fn without_url(e: &reqwest::Error) -> String {
    let mut s = e.to_string();
    if let Some(u) = e.url() {
        s = s.replace(&format!(" ({u})"), "");
    }
    openapi2mcp_runtime::wire::redact_urls_in(&s)
}
