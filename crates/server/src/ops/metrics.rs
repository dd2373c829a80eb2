//! The Prometheus side of [`super`]: the metric names, the recorder
//! (installed once, by the HTTP transport) and `/metrics`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use super::OpsState;

/// Calls by tool and outcome (`ok`, `error`, `invalid`, `rate_limited`).
pub const CALLS: &str = "openapi2mcp_tool_calls_total";
/// Time the API took to answer a call (the request, retries included).
pub const BACKEND_SECONDS: &str = "openapi2mcp_backend_request_duration_seconds";
/// Calls being run right now.
pub const IN_FLIGHT: &str = "openapi2mcp_calls_in_flight";
/// Calls refused by `--rate-limit`.
pub const RATE_LIMITED: &str = "openapi2mcp_rate_limit_rejections_total";
/// Document reloads by outcome (`ok`, `failed`).
pub const RELOADS: &str = "openapi2mcp_reloads_total";
/// Requests refused by authorization, by reason.
pub const AUTH_REFUSALS: &str = "openapi2mcp_auth_refusals_total";
/// Tools served.
pub const TOOLS: &str = "openapi2mcp_tools";

static ENABLED: AtomicBool = AtomicBool::new(false);
static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the Prometheus recorder (once per process); `None` when
/// another recorder was installed first.
pub fn install() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full(BACKEND_SECONDS.into()),
                    &[
                        0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
                    ],
                )
                .ok()?;
            match builder.install_recorder() {
                Ok(h) => {
                    ENABLED.store(true, Ordering::Relaxed);
                    metrics::describe_counter!(CALLS, "Tool calls by tool and outcome");
                    metrics::describe_histogram!(
                        BACKEND_SECONDS,
                        metrics::Unit::Seconds,
                        "Time the API took to answer a tool call, retries included"
                    );
                    metrics::describe_gauge!(IN_FLIGHT, "Tool calls being run");
                    metrics::describe_counter!(RATE_LIMITED, "Tool calls refused by --rate-limit");
                    metrics::describe_counter!(RELOADS, "Document reloads by outcome");
                    metrics::describe_counter!(
                        AUTH_REFUSALS,
                        "Requests refused by authorization, by reason"
                    );
                    metrics::describe_gauge!(TOOLS, "Tools served");
                    Some(h)
                }
                Err(e) => {
                    tracing::warn!("metrics: cannot install the Prometheus recorder: {e}");
                    None
                }
            }
        })
        .as_ref()
}

fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// One finished call: its outcome and, when the API was asked, how long
/// it took.
pub fn record_call(tool: &str, outcome: &'static str, backend: Option<Duration>) {
    if !enabled() {
        return;
    }
    metrics::counter!(CALLS, "tool" => tool.to_string(), "outcome" => outcome).increment(1);
    if outcome == "rate_limited" {
        metrics::counter!(RATE_LIMITED).increment(1);
    }
    if let Some(d) = backend {
        metrics::histogram!(BACKEND_SECONDS, "tool" => tool.to_string()).record(d.as_secs_f64());
    }
}

/// A request refused by authorization.
pub fn record_auth_refusal(reason: &'static str) {
    if enabled() {
        metrics::counter!(AUTH_REFUSALS, "reason" => reason).increment(1);
    }
}

/// A reload attempt.
pub fn record_reload(ok: bool) {
    if enabled() {
        metrics::counter!(RELOADS, "outcome" => if ok { "ok" } else { "failed" }).increment(1);
    }
}

/// `/metrics`: every metric in Prometheus text format.
pub(super) async fn metrics_text(State(state): State<Arc<OpsState>>) -> Response {
    let Some(handle) = install() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "metrics are not available\n",
        )
            .into_response();
    };
    metrics::gauge!(IN_FLIGHT).set(state.bridge.in_flight() as f64);
    metrics::gauge!(TOOLS).set(state.bridge.tool_count() as f64);
    handle.run_upkeep();
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        handle.render(),
    )
        .into_response()
}
