//! One call of a tool, from the request to the result the client gets:
//! the environment it needs detached from its request (so it can outlive
//! it as a task), the call with progress, cancellation, trace context and
//! audit line, and the finishing steps (redaction, selector).

use std::time::{Instant, SystemTime};

use rmcp::model::{CallToolResult, ProgressNotificationParam};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{Map, Value};

use super::Bridge;
use super::shape::report_result;
use openapi2mcp_runtime::auth::login::{LOCAL_USER, as_user};
use openapi2mcp_runtime::call::{CallReport, ToolId};
use openapi2mcp_runtime::forward::Forwarded;
use openapi2mcp_runtime::lro::LroMode;
use openapi2mcp_runtime::trace::{AttrValue, FinishedSpan, Sink, SpanKind, TraceContext};

/// What a call needs from the request that asked for it, detached from
/// the request so that a call can outlive it (as a task).
pub(super) struct CallEnv {
    /// The MCP client's own headers a call may send on (HTTP): its
    /// `Authorization` (`--forward-authorization`) and the headers
    /// `--forward-header` names.
    forwarded: Forwarded,
    /// Cancels the call (the client cancelled the request, or the task).
    pub(super) cancel: tokio_util::sync::CancellationToken,
    /// Where progress goes, when the client asked for it.
    progress: Option<Progress>,
    /// The client's trace, continued into the API requests (or a trace
    /// of this server's own when spans are exported).
    pub(super) trace: Option<TraceContext>,
    /// What the call's span says of the MCP request, when spans are
    /// exported.
    span_attributes: Vec<(&'static str, AttrValue)>,
    /// The person the call is made for (whose own API login is used);
    /// `None` when no token store is configured, so nothing is looked up.
    person: Option<String>,
    /// The scopes of the request's validated access token (`None`: no
    /// token was validated), for the checks of a workflow's steps.
    scopes: Option<std::collections::BTreeSet<String>>,
    /// Whose share of the bounded pools (selector workers) the call uses
    /// ([`fair_caller`]).
    caller: Option<String>,
    /// The integers beyond 64 bits the request held, sent as written.
    exact: Option<std::sync::Arc<openapi2mcp_runtime::exact::ExactIntegers>>,
}

/// Where a call's progress goes: the request's progress token and client,
/// until the request is answered otherwise than by the call's end (a
/// call answered with a handle goes on, with no request left to report
/// to: its progress is then dropped, as the protocol asks).
#[derive(Clone)]
struct Progress {
    token: rmcp::model::ProgressToken,
    peer: rmcp::service::Peer<RoleServer>,
    answered: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Progress {
    /// Sends `note`, unless the request has been answered.
    async fn notify(&self, note: ProgressNotificationParam) {
        if !self.answered.load(std::sync::atomic::Ordering::Acquire) {
            let _ = self.peer.notify_progress(note).await;
        }
    }
}

/// Who a request's share of the server's bounded pools (code-mode
/// scripts, selector workers; see [`openapi2mcp_runtime::fair`]) is
/// counted against: the caller [`super::protocol::caller_digest`] tells
/// apart, else the HTTP session; `None` (the total bounds it alone) on
/// stdio's one client and anonymous stateless HTTP, where nothing tells
/// callers apart.
pub(super) fn fair_caller(context: &RequestContext<RoleServer>) -> Option<String> {
    let digest = super::protocol::caller_digest(context);
    if !digest.is_empty() {
        return Some(digest);
    }
    context
        .extensions
        .get::<axum::http::request::Parts>()
        .and_then(|p| p.headers.get("mcp-session-id"))
        .map(|v| format!("session:{}", super::seal::sha256_hex(v.as_bytes())))
}

/// The person of a call that has no validated user: on HTTP without
/// `--oauth-issuer` nobody is identified, and no login is ever stored
/// under this name, so nobody's tokens are used (stdio is one person,
/// [`LOCAL_USER`]).
const UNIDENTIFIED: &str = "\u{0}unidentified";

/// Who a request is from, for per-person API logins: the validated
/// token's `iss` and `sub` on HTTP, the local person on stdio.
fn person_of(parts: Option<&axum::http::request::Parts>) -> String {
    let Some(parts) = parts else {
        return LOCAL_USER.to_string();
    };
    parts
        .extensions
        .get::<super::authz::Principal>()
        .and_then(person_id)
        .unwrap_or_else(|| UNIDENTIFIED.to_string())
}

/// The person a validated token (or ID token) names: `iss|sub`, the key
/// their own API logins are kept under.
pub(super) fn person_id(principal: &super::authz::Principal) -> Option<String> {
    match principal {
        super::authz::Principal {
            issuer: Some(issuer),
            subject: Some(subject),
            ..
        } => Some(format!("{issuer}|{subject}")),
        _ => None,
    }
}

impl CallEnv {
    /// Sends no progress for this call (a script's calls: the request
    /// that runs the script has one progress sequence, not one per call).
    pub(super) fn without_progress(&mut self) {
        self.progress = None;
    }

    /// Ends the call's progress when set (its request was answered with
    /// a handle while the call goes on); `None` without progress.
    pub(super) fn progress_end(&self) -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
        self.progress
            .as_ref()
            .map(|p| std::sync::Arc::clone(&p.answered))
    }

    /// The environment of a call made within `context` under `options`
    /// (where spans are exported, whether people's logins are used).
    pub(super) fn of(context: &RequestContext<RoleServer>, options: &super::ServeOptions) -> Self {
        let spans: Option<&Sink> = options.spans.as_ref();
        let parts = context.extensions.get::<axum::http::request::Parts>();
        let client_trace = context
            .meta
            .get_traceparent()
            .and_then(|parent| TraceContext::child_of(parent, context.meta.get_tracestate()));
        let trace = match spans {
            Some(sink) => Some(
                client_trace
                    .unwrap_or_else(TraceContext::root)
                    .exporting(Some(sink.clone())),
            ),
            None => client_trace,
        };
        let span_attributes = if trace.as_ref().is_some_and(TraceContext::records) {
            // MCP semantic conventions (OpenTelemetry GenAI), server side.
            let mut attributes: Vec<(&'static str, AttrValue)> = vec![
                ("mcp.method.name", "tools/call".into()),
                ("gen_ai.operation.name", "execute_tool".into()),
                ("jsonrpc.request.id", context.id.to_string().into()),
                (
                    "network.transport",
                    if parts.is_some() { "tcp" } else { "pipe" }.into(),
                ),
            ];
            if let Some(version) = context.protocol_version() {
                attributes.push(("mcp.protocol.version", version.as_str().into()));
            }
            if let Some(session) = parts
                .and_then(|p| p.headers.get("mcp-session-id"))
                .and_then(|v| v.to_str().ok())
            {
                // A digest: the id itself lets whoever reads the spans
                // into the session.
                let digest = super::seal::sha256_hex(session.as_bytes());
                attributes.push(("mcp.session.id", digest[..32].to_string().into()));
            }
            attributes
        } else {
            Vec::new()
        };
        Self {
            person: options.token_store.is_some().then(|| person_of(parts)),
            scopes: parts
                .and_then(|p| p.extensions.get::<super::authz::Principal>())
                .map(|p| p.scopes.clone()),
            caller: fair_caller(context),
            exact: super::wide_integers::of(context),
            forwarded: forwarded_of(parts, &options.forward_headers),
            cancel: context.ct.clone(),
            progress: context.meta.get_progress_token().map(|token| Progress {
                token,
                peer: context.peer.clone(),
                answered: std::sync::Arc::default(),
            }),
            trace,
            span_attributes,
        }
    }
}

/// The MCP client's headers a call may send on: its `Authorization` and
/// those of `names` it sent (several of one name joined by `, `, as
/// RFC 9110 reads them); a value that is not visible ASCII is left out.
fn forwarded_of(parts: Option<&axum::http::request::Parts>, names: &[String]) -> Forwarded {
    let Some(parts) = parts else {
        return Forwarded::default();
    };
    let text = |name: &str| -> Option<String> {
        let values: Vec<&str> = parts
            .headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect();
        (!values.is_empty()).then(|| values.join(", "))
    };
    Forwarded {
        authorization: text("authorization"),
        headers: names
            .iter()
            .filter_map(|name| Some((name.clone(), text(name)?)))
            .collect(),
    }
}

/// Hands the call's server span to the exporter (when spans are
/// exported and the trace is sampled); `error` is the `error.type`.
fn record_span(env: &CallEnv, name: &str, start: SystemTime, error: Option<&str>) {
    let Some(trace) = env.trace.as_ref().filter(|t| t.records()) else {
        return;
    };
    let mut attributes = env.span_attributes.clone();
    attributes.push(("gen_ai.tool.name", name.into()));
    if let Some(kind) = error {
        attributes.push(("error.type", kind.into()));
    }
    trace.record(FinishedSpan {
        trace_id: trace.trace_id.clone(),
        span_id: trace.span_id.clone(),
        parent_id: trace.parent_id.clone(),
        parent_remote: trace.parent_id.is_some(),
        name: format!("tools/call {name}"),
        kind: SpanKind::Server,
        start,
        end: SystemTime::now(),
        attributes,
        error: error.map(str::to_string),
        tracestate: trace.tracestate.clone(),
    });
}

impl Bridge {
    /// Runs one tool exactly as a direct `tools/call` does (progress,
    /// cancellation, audit line, redaction, selector): the meta-tools and
    /// tasks call this too. A long-running operation is waited for.
    pub(super) async fn run_tool(
        &self,
        tool: ToolId,
        name: &str,
        args: Map<String, Value>,
        selector: Option<&str>,
        env: CallEnv,
    ) -> Result<CallToolResult, McpError> {
        let report = self
            .run_report(tool, name, args, selector, env, LroMode::Wait)
            .await?;
        Ok(report_result(report, name))
    }

    /// The call itself with progress, cancellation and audit line, up to
    /// the runtime's report (delivered: conformed, redacted, selected). In
    /// [`LroMode::Return`] a long-running operation's monitor comes back
    /// in the report for the caller to follow and finish with
    /// [`openapi2mcp_runtime::call::Api::complete`].
    pub(super) async fn run_report(
        &self,
        tool: ToolId,
        name: &str,
        args: Map<String, Value>,
        selector: Option<&str>,
        env: CallEnv,
        mode: LroMode,
    ) -> Result<CallReport, McpError> {
        let http = &self.inner.api.tool(tool).http;
        let started = Instant::now();
        if let Some(progress) = &env.progress {
            let note = ProgressNotificationParam::new(progress.token.clone(), 0.0)
                .with_total(1.0)
                .with_message(format!("calling {} {}", http.method, http.path));
            progress.notify(note).await;
        }
        let span = match &env.trace {
            Some(t) => {
                tracing::info_span!("tools/call", tool = %name, trace_id = %t.trace_id, span_id = %t.span_id, parent_id = %t.parent_id.as_deref().unwrap_or(""))
            }
            None => tracing::info_span!("tools/call", tool = %name),
        };
        let span_start = SystemTime::now();
        let (sink, forwarder) = match &env.progress {
            Some(progress) => {
                let (sink, forwarder) = item_progress(progress.clone());
                (Some(sink), Some(forwarder))
            }
            None => (None, None),
        };
        // A workflow's steps are checked as direct calls of their tools.
        let guard = self.step_guard(tool, env.scopes.clone());
        // Boxed: the futures around it nest deep enough as they are.
        let call: std::pin::Pin<Box<dyn std::future::Future<Output = CallReport> + Send + '_>> =
            Box::pin(async {
                let call = self.call(tool, args, &env.forwarded, mode, selector);
                match guard {
                    Some(guard) => openapi2mcp_runtime::workflow::checking(guard, call).await,
                    None => call.await,
                }
            });
        let call = openapi2mcp_runtime::exact::scope(env.exact.clone(), call);
        let call = openapi2mcp_runtime::fair::as_caller(env.caller.clone(), call);
        let traced = openapi2mcp_runtime::trace::scope(
            env.trace.clone(),
            openapi2mcp_runtime::progress::scope(sink, as_user(env.person.clone(), call)),
        );
        let report = tokio::select! {
            report = tracing::Instrument::instrument(traced, span) => report,
            () = env.cancel.cancelled() => {
                tracing::info!(target: "openapi2mcp::audit", tool = %name, "tools/call cancelled by the client");
                record_span(&env, name, span_start, Some("cancelled"));
                return Err(McpError::internal_error("cancelled by the client", None));
            }
        };
        record_span(
            &env,
            name,
            span_start,
            report.outcome.is_error.then_some("tool_error"),
        );
        if let Some(progress) = env.progress {
            // Every item was reported (the sink went with the call).
            let items = match forwarder {
                Some(forwarder) => forwarder.await.unwrap_or(0),
                None => 0,
            };
            let end = (items + 1) as f64;
            let done = ProgressNotificationParam::new(progress.token.clone(), end)
                .with_total(end)
                .with_message("done");
            progress.notify(done).await;
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
}

/// The longest item text a progress notification carries.
const ITEM_MESSAGE_MAX: usize = 2048;

/// A sink for the items of a streaming response (see
/// [`openapi2mcp_runtime::progress`]) that reports each, in order, as a
/// progress notification (`progress` = the item's position, the message
/// its JSON, cut at [`ITEM_MESSAGE_MAX`] bytes); the task that sends them
/// ends once the sink is dropped, with how many it reported.
fn item_progress(
    progress: Progress,
) -> (
    openapi2mcp_runtime::progress::ItemSink,
    tokio::task::JoinHandle<u64>,
) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(u64, String)>();
    let forwarder = tokio::spawn(async move {
        let mut last = 0;
        while let Some((index, text)) = rx.recv().await {
            let note = ProgressNotificationParam::new(progress.token.clone(), index as f64)
                .with_message(text);
            progress.notify(note).await;
            last = index;
        }
        last
    });
    let sink = std::sync::Arc::new(move |index: u64, item: &Value| {
        let mut text = item.to_string();
        if text.len() > ITEM_MESSAGE_MAX {
            let mut end = ITEM_MESSAGE_MAX;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
            text.push('…');
        }
        let _ = tx.send((index, format!("item {index}: {text}")));
    });
    (sink, forwarder)
}

#[cfg(test)]
#[path = "run_tests.rs"]
mod tests;
