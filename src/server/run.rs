//! One call of a tool, from the request to the result the client gets:
//! the environment it needs detached from its request (so it can outlive
//! it as a task), the call with progress, cancellation, trace context and
//! audit line, and the finishing steps (redaction, selector).

use std::time::Instant;

use rmcp::model::{CallToolResult, ProgressNotificationParam};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{Map, Value};

use super::Bridge;
use super::shape::to_result;
use crate::runtime::call::{CallReport, ToolId};
use crate::runtime::lro::LroMode;
use crate::runtime::select;

/// What a call needs from the request that asked for it, detached from
/// the request so that a call can outlive it (as a task).
pub(super) struct CallEnv {
    /// The MCP client's own `Authorization` header (HTTP), for
    /// `--forward-authorization`.
    authorization: Option<String>,
    /// Cancels the call (the client cancelled the request, or the task).
    pub(super) cancel: tokio_util::sync::CancellationToken,
    /// Where progress goes, when the client asked for it.
    progress: Option<(rmcp::model::ProgressToken, rmcp::service::Peer<RoleServer>)>,
    /// The client's trace, continued into the API requests.
    pub(super) trace: Option<crate::runtime::trace::TraceContext>,
}

impl CallEnv {
    /// The environment of a call made within `context`.
    pub(super) fn of(context: &RequestContext<RoleServer>) -> Self {
        Self {
            authorization: context
                .extensions
                .get::<axum::http::request::Parts>()
                .and_then(|p| p.headers.get(axum::http::header::AUTHORIZATION))
                .and_then(|v| v.to_str().ok())
                .map(str::to_string),
            cancel: context.ct.clone(),
            progress: context
                .meta
                .get_progress_token()
                .map(|token| (token, context.peer.clone())),
            trace: context.meta.get_traceparent().and_then(|parent| {
                crate::runtime::trace::TraceContext::child_of(parent, context.meta.get_tracestate())
            }),
        }
    }
}

impl Bridge {
    /// Runs one tool exactly as a direct `tools/call` does (progress,
    /// cancellation, audit line, redaction): the meta-tools and tasks call
    /// this too. A long-running operation is waited for.
    pub(super) async fn run_tool(
        &self,
        tool: ToolId,
        name: &str,
        args: Map<String, Value>,
        selector: Option<&str>,
        env: CallEnv,
    ) -> Result<CallToolResult, McpError> {
        let report = self
            .run_report(tool, name, args, env, LroMode::Wait)
            .await?;
        Ok(self.finish(tool, report.outcome, selector).await)
    }

    /// The call itself, up to the API's report (conformed to the output
    /// schema, not yet redacted): progress, cancellation, audit line. In
    /// [`LroMode::Return`] a long-running operation's monitor comes back
    /// in the report for the caller to follow.
    pub(super) async fn run_report(
        &self,
        tool: ToolId,
        name: &str,
        args: Map<String, Value>,
        env: CallEnv,
        mode: LroMode,
    ) -> Result<CallReport, McpError> {
        let http = &self.inner.api.tool(tool).http;
        let started = Instant::now();
        if let Some((token, peer)) = &env.progress {
            let note = ProgressNotificationParam::new(token.clone(), 0.0)
                .with_total(1.0)
                .with_message(format!("calling {} {}", http.method, http.path));
            let _ = peer.notify_progress(note).await;
        }
        let span = match &env.trace {
            Some(t) => {
                tracing::info_span!("tools/call", tool = %name, trace_id = %t.trace_id, span_id = %t.span_id, parent_id = %t.parent_id)
            }
            None => tracing::info_span!("tools/call", tool = %name),
        };
        let traced = crate::runtime::trace::scope(
            env.trace.clone(),
            self.call(tool, args, env.authorization.as_deref(), mode),
        );
        let report = tokio::select! {
            report = tracing::Instrument::instrument(traced, span) => report,
            () = env.cancel.cancelled() => {
                tracing::info!(target: "openapi2mcp::audit", tool = %name, "tools/call cancelled by the client");
                return Err(McpError::internal_error("cancelled by the client", None));
            }
        };
        if let Some((token, peer)) = env.progress {
            let done = ProgressNotificationParam::new(token, 1.0)
                .with_total(1.0)
                .with_message("done");
            let _ = peer.notify_progress(done).await;
        }
        tracing::info!(
            target: "openapi2mcp::audit",
            tool = %name,
            status = report.status.unwrap_or(0),
            is_error = report.outcome.is_error,
            long_running = report.pending.is_some(),
            duration_ms = started.elapsed().as_millis() as u64,
            "tools/call"
        );
        Ok(report)
    }

    /// A finished call's outcome as the client gets it: secrets masked,
    /// the selector applied.
    pub(super) async fn finish(
        &self,
        tool: ToolId,
        outcome: crate::runtime::response::ToolOutcome,
        selector: Option<&str>,
    ) -> CallToolResult {
        let mut outcome = self.inner.api.redact(tool, outcome);
        if let Some(expression) = selector {
            outcome = select::select_outcome(expression, outcome, self.inner.select_cap).await;
        }
        to_result(outcome)
    }
}
