//! [`super`] in a build without the `metrics` feature: nothing is
//! recorded, and `/metrics` says why it has nothing.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::OpsState;

/// No recorder in this build.
pub fn install() -> Option<&'static ()> {
    None
}

/// Not recorded in this build.
pub fn record_call(_tool: &str, _outcome: &'static str, _backend: Option<Duration>) {}

/// Not recorded in this build.
pub fn record_auth_refusal(_reason: &'static str) {}

/// Not recorded in this build.
pub fn record_reload(_ok: bool) {}

/// `/metrics` in this build: 404, saying why.
pub(super) async fn metrics_text(State(_state): State<Arc<OpsState>>) -> Response {
    (
        StatusCode::NOT_FOUND,
        "metrics are not available: this server was built without the `metrics` feature\n",
    )
        .into_response()
}
